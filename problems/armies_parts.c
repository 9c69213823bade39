/* armies_parts.c: armies decisions in parts: --part I/N results, merging them, checkpoints. */
#include "armies_parts.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../src/engine.h"
#include "../src/placement.h"
#include "armies_colours.h"

/* Checkpoints are written at most this often while parts finish (and always at the end). */
#define CHECKPOINT_SECONDS PQ_ENGINE_SAVE_SECONDS

/* Files read back (checkpoints, part results) larger than this are refused. */
#define MAX_READ_BYTES PQ_ENGINE_READ_BYTES

static void board_name(const pq_board *b, char *buf) {
  snprintf(buf, 16, "%dx%d", b->width, b->height);
}

/* The fields every part result and checkpoint starts with. */
static void write_head(FILE *f, const pq_armies_job *job, uint64_t id, int subparts) {
  char board[16];
  board_name(job->board, board);
  fprintf(f,
          "\"problem\":\"armies\",\"board\":\"%s\",\"piece\":\"%c\",\"white\":%d,\"black\":%d,"
          "\"split\":\"%016" PRIx64 "\",\"subparts\":%d",
          board, pq_piece_letters[pq_armies_piece(job->armies)], job->white, job->black, id,
          subparts);
}

/* Checks the fields of write_head in doc; returns 0 or -1. */
static int check_head(const pq_json *doc, const pq_armies_job *job, uint64_t id, int subparts) {
  char board[16], split[24], piece[2] = {pq_piece_letters[pq_armies_piece(job->armies)], 0};
  board_name(job->board, board);
  snprintf(split, sizeof split, "%016" PRIx64, id);
  const char *b = pq_json_get_string(doc, "board"), *p = pq_json_get_string(doc, "piece"),
             *s = pq_json_get_string(doc, "split"), *problem = pq_json_get_string(doc, "problem");
  long w, k, n;
  return problem && !strcmp(problem, "armies") && b && !strcmp(b, board) && p &&
                 !strcmp(p, piece) && s && !strcmp(s, split) &&
                 !pq_json_get_long(doc, "white", 0, PQ_MAX_SQUARES, &w) && w == job->white &&
                 !pq_json_get_long(doc, "black", 0, PQ_MAX_SQUARES, &k) && k == job->black &&
                 !pq_json_get_long(doc, "subparts", 0, 1 << 30, &n) && n == subparts
             ? 0
             : -1;
}

/* The proof trees of the parts selected by which (all when NULL) that have one; newlines
   between them unless the whole must stay on one line. */
static void write_trees(FILE *f, const pq_armies_part *results, int n, const bool *which,
                        bool one_line) {
  fputs(",\"trees\":[", f);
  bool first = true;
  for (int i = 0; i < n; i++)
    if ((!which || which[i]) && results[i].tree) {
      fprintf(f, "%s%s[%d,\"%s\"]", first ? "" : ",", one_line ? "" : "\n", i, results[i].tree);
      first = false;
    }
  fputs("]", f);
}

/* Reads trees [[index, "tree"], ...] into results; returns 0 or -1. */
static int read_trees(const pq_json *doc, pq_armies_part *results, int n) {
  const pq_json *trees = pq_json_get(doc, "trees");
  if (!trees) return 0;
  if (trees->type != PQ_JSON_ARRAY) return -1;
  for (size_t i = 0; i < trees->length; i++) {
    const pq_json *t = trees->items[i];
    long index;
    if (t->type != PQ_JSON_ARRAY || t->length != 2 || t->items[0]->type != PQ_JSON_NUMBER ||
        t->items[1]->type != PQ_JSON_STRING ||
        pq_parse_long(t->items[0]->string, 0, n - 1, &index) || results[index].tree)
      return -1;
    results[index].tree = pq_strdup(t->items[1]->string);
  }
  return 0;
}

typedef struct checkpoint {
  const pq_armies_job *job;
  uint64_t id;
  int n;
  const pq_armies_part *results;
  double last;
} checkpoint;

static void write_checkpoint(FILE *f, void *arg) {
  checkpoint *ck = arg;
  uint64_t nodes = 0;
  fputs("{\"format\":\"peaceable-checkpoint\",\"version\":2,", f);
  write_head(f, ck->job, ck->id, ck->n);
  fprintf(f, ",\"best\":%d", ck->job->best_witness ? ck->job->best : -1);
  if (ck->job->best_witness) fprintf(f, ",\"best_witness\":\"%s\"", ck->job->best_witness);
  fputs(",\"done\":[", f);
  bool first = true;
  for (int i = 0; i < ck->n; i++) {
    nodes += ck->results[i].nodes;
    if (ck->results[i].done && !ck->results[i].found) {
      fprintf(f, "%s%d", first ? "" : ",", i);
      first = false;
    }
  }
  fprintf(f, "],\"nodes\":%" PRIu64, nodes);
  bool *finished = pq_calloc((size_t)ck->n + 1, sizeof *finished);
  for (int i = 0; i < ck->n; i++)
    finished[i] = ck->results[i].done && !ck->results[i].found;
  write_trees(f, ck->results, ck->n, finished, false);
  free(finished);
  fputs("}\n", f);
}

static void on_part(void *arg, int part, const pq_armies_part *result) {
  (void)part, (void)result;
  checkpoint *ck = arg;
  double now = pq_now();
  if (now - ck->last < CHECKPOINT_SECONDS) return;
  ck->last = now;
  /* A failed periodic write is reported and retried at the next one. */
  pq_engine_save_sealed(ck->job->checkpoint, write_checkpoint, ck);
}

/* Marks the parts a checkpoint says are done: its bytes job->resume_text, or else the file
   job->resume. */
static pq_status load_checkpoint(const pq_armies_job *job, uint64_t id, int n,
                                 pq_armies_part *results, bool *todo) {
  char *text = NULL, err[160];
  size_t len = job->resume_len;
  pq_status rc = job->resume_text ? PQ_OK : pq_read_file(job->resume, MAX_READ_BYTES, &text, &len);
  if (rc) return rc == PQ_EIO ? PQ_EINVAL : rc;
  const char *bytes = job->resume_text ? job->resume_text : text;
  pq_json *doc = pq_json_parse(bytes, len, err);
  bool sealed = pq_engine_sealed(bytes, len);
  free(text);
  rc = PQ_EINVAL;
  const pq_json *done = pq_json_get(doc, "done");
  const char *format = pq_json_get_string(doc, "format");
  if (!doc) {
    pq_error("--resume %s: not JSON: %s", job->resume, err);
  } else if (!format || strcmp(format, "peaceable-checkpoint")) {
    pq_error("--resume %s: not a peaceable checkpoint", job->resume);
  } else if (check_head(doc, job, id, n)) {
    pq_error("--resume %s: a checkpoint of another problem, board, size or split", job->resume);
  } else if (!sealed) {
    pq_error("--resume %s: damaged or edited: its digest does not match its content (not used, "
             "not overwritten)",
             job->resume);
  } else if (!done || done->type != PQ_JSON_ARRAY || read_trees(doc, results, n)) {
    pq_error("--resume %s: malformed list of finished parts", job->resume);
  } else {
    rc = PQ_OK;
    for (size_t i = 0; i < done->length && rc == PQ_OK; i++) {
      long index;
      if (done->items[i]->type != PQ_JSON_NUMBER ||
          pq_parse_long(done->items[i]->string, 0, n - 1, &index) || !todo[index]) {
        pq_error("--resume %s: bad finished part", job->resume);
        rc = PQ_EINVAL;
        break;
      }
      todo[index] = false;
      results[index].done = true;
      if (job->proof && !results[index].tree) {
        pq_error("--resume %s: part %ld has no proof tree (the run had no --cert)", job->resume,
                 index);
        rc = PQ_EINVAL;
      }
    }
    /* A tree belongs to a finished part only (found by fuzzing: a tree of an unfinished part was
       overwritten, and leaked, when the part was searched again). */
    for (int i = 0; i < n && rc == PQ_OK; i++)
      if (results[i].tree && !results[i].done) {
        pq_error("--resume %s: a proof tree for part %d, which is not finished", job->resume, i);
        rc = PQ_EINVAL;
      }
  }
  pq_json_free(doc);
  return rc;
}

pq_status pq_armies_job_run(const pq_armies_job *job, pq_armies_decision *out) {
  memset(out, 0, sizeof *out);
  pq_armies_split *sp = pq_armies_split_new(job->armies, job->white, job->black, true,
                                            PQ_ARMIES_SPLIT_DEPTH, job->proof);
  int n = pq_armies_split_parts(sp);
  uint64_t id = pq_armies_split_id(sp);
  pq_armies_part *results = pq_calloc((size_t)n + 1, sizeof *results);
  bool *todo = pq_calloc((size_t)n + 1, sizeof *todo);
  for (int i = 0; i < n; i++)
    todo[i] = true;
  pq_status rc = job->resume ? load_checkpoint(job, id, n, results, todo) : PQ_OK;
  checkpoint ck = {.job = job, .id = id, .n = n, .results = results, .last = pq_now()};
  if (rc == PQ_OK) {
    pq_armies_params p = *job->params;
    if (job->checkpoint) {
      p.on_part = on_part;
      p.on_part_ctx = &ck;
    }
    rc = pq_armies_split_run(sp, &p, todo, results);
    for (int i = 0; i < n && !out->found; i++)
      if (results[i].found) {
        out->found = true;
        pq_armies_witness(job->armies, &results[i], job->white, job->black, p.grow, out->witness);
      }
    for (int i = 0; i < n; i++)
      out->nodes += results[i].nodes;
    if (out->found) rc = PQ_OK;
    if (rc == PQ_OK && !out->found && job->proof) pq_armies_split_proof(sp, results, out);
    if (job->checkpoint) {
      pq_status w = pq_engine_save_sealed(job->checkpoint, write_checkpoint, &ck);
      if (rc == PQ_OK) rc = w;
    }
  }
  free(todo);
  pq_armies_parts_free(results, n);
  pq_armies_split_free(sp);
  return rc;
}

pq_status pq_armies_resume_read(const char *path, const pq_board *b, pq_piece p,
                                pq_armies_resume_info *info) {
  char *text, err[160], board[16], piece[2] = {pq_piece_letters[p], 0};
  size_t len;
  board_name(b, board);
  memset(info, 0, sizeof *info);
  pq_status rc = pq_read_file(path, MAX_READ_BYTES, &text, &len);
  if (rc) return rc == PQ_EIO ? PQ_EINVAL : rc;
  pq_json *doc = pq_json_parse(text, len, err);
  const char *format = pq_json_get_string(doc, "format"), *bd = pq_json_get_string(doc, "board"),
             *pc = pq_json_get_string(doc, "piece"), *problem = pq_json_get_string(doc, "problem");
  const char *witness = pq_json_get_string(doc, "best_witness");
  long best, white, black;
  rc = PQ_EINVAL;
  if (!doc)
    pq_error("--resume %s: not JSON: %s", path, err);
  else if (!format || strcmp(format, "peaceable-checkpoint") || !problem ||
           strcmp(problem, "armies"))
    pq_error("--resume %s: not a checkpoint of armies", path);
  else if (!bd || strcmp(bd, board) || !pc || strcmp(pc, piece))
    pq_error("--resume %s: a checkpoint of another board or piece", path);
  else if (!pq_engine_sealed(text, len))
    pq_error("--resume %s: damaged or edited: its digest does not match its content (not used, "
             "not overwritten)",
             path);
  else if (pq_json_get_long(doc, "best", -1, PQ_MAX_SQUARES, &best) ||
           pq_json_get_long(doc, "white", 0, PQ_MAX_SQUARES, &white) ||
           pq_json_get_long(doc, "black", 0, PQ_MAX_SQUARES, &black) || (best >= 0 && !witness))
    pq_error("--resume %s: malformed checkpoint", path);
  else {
    info->best = (int)best;
    info->best_witness = witness ? pq_strdup(witness) : NULL;
    info->white = (int)white;
    info->black = (int)black;
    info->text = text;
    info->len = len;
    text = NULL;
    rc = PQ_OK;
  }
  free(text);
  pq_json_free(doc);
  return rc;
}

pq_status pq_armies_resume_check(const pq_armies_job *job) {
  pq_armies_split *sp = pq_armies_split_new(job->armies, job->white, job->black, true,
                                            PQ_ARMIES_SPLIT_DEPTH, job->proof);
  int n = pq_armies_split_parts(sp);
  pq_armies_part *results = pq_calloc((size_t)n + 1, sizeof *results);
  bool *todo = pq_calloc((size_t)n + 1, sizeof *todo);
  for (int i = 0; i < n; i++)
    todo[i] = true;
  pq_status rc = load_checkpoint(job, pq_armies_split_id(sp), n, results, todo);
  free(todo);
  pq_armies_parts_free(results, n);
  pq_armies_split_free(sp);
  return rc;
}

/* One part's result line; with trees, the proof trees of its subparts too. */
typedef struct part_line {
  const pq_armies_job *job;
  uint64_t id;
  int n, part, parts;
  bool done, found, trees;
  uint64_t nodes;
  const char *witness;
  const pq_armies_part *results;
  const bool *mine;
} part_line;

/* How many subparts of a split of n part I of N holds: merge recomputes it, so that a part
   relabelled (1/40 as 1/1) is not taken for the whole. */
static long covered(long part, long parts, long n) {
  return part <= n ? (n - part) / parts + 1 : 0;
}

static void write_part_line(FILE *f, void *arg) {
  const part_line *l = arg;
  fputc('{', f);
  write_head(f, l->job, l->id, l->n);
  fprintf(f,
          ",\"part\":%d,\"parts\":%d,\"covered\":%ld,\"done\":%s,\"found\":%s,\"nodes\":%" PRIu64,
          l->part, l->parts, covered(l->part, l->parts, l->n), l->done ? "true" : "false",
          l->found ? "true" : "false", l->nodes);
  if (l->witness) fprintf(f, ",\"witness\":\"%s\"", l->witness);
  if (l->trees) write_trees(f, l->results, l->n, l->mine, true);
  fputs("}\n", f);
}

pq_status pq_armies_part_run(const pq_armies_job *job, int part, int parts, const char *proof) {
  pq_armies_split *sp = pq_armies_split_new(job->armies, job->white, job->black, true,
                                            PQ_ARMIES_SPLIT_DEPTH, proof != NULL);
  int n = pq_armies_split_parts(sp);
  pq_armies_part *results = pq_calloc((size_t)n + 1, sizeof *results);
  bool *mine = pq_calloc((size_t)n + 1, sizeof *mine);
  for (int i = part - 1; i < n; i += parts)
    mine[i] = true;
  pq_status rc = pq_armies_split_run(sp, job->params, mine, results);
  part_line line = {.job = job,
                    .id = pq_armies_split_id(sp),
                    .n = n,
                    .part = part,
                    .parts = parts,
                    .done = true,
                    .results = results,
                    .mine = mine};
  uint8_t cells[PQ_MAX_SQUARES];
  for (int i = 0; i < n; i++) {
    if (!mine[i]) continue;
    line.nodes += results[i].nodes;
    if (results[i].found && !line.found) {
      line.found = true;
      pq_armies_witness(job->armies, &results[i], job->white, job->black, false, cells);
    }
    line.done = line.done && results[i].done;
  }
  /* A witness settles the part even when later subparts were abandoned. */
  if (line.found) line.done = true, rc = PQ_OK;
  char *text = NULL;
  if (line.found) {
    char letters[3] = {pq_piece_letters[pq_armies_piece(job->armies)], 0, 0};
    letters[1] = (char)(letters[0] - 'A' + 'a');
    text = pq_malloc((size_t)job->board->squares + (size_t)job->board->height + 1);
    pq_placement_text(job->board, cells, letters, text);
    line.witness = text;
  }
  write_part_line(stdout, &line);
  /* The same line with the proof trees goes to the proof file, for merge --cert. */
  if (proof) {
    line.trees = line.done && !line.found;
    pq_status w = pq_write_atomic(proof, write_part_line, &line);
    if (rc == PQ_OK) rc = w;
  }
  free(text);
  free(mine);
  pq_armies_parts_free(results, n);
  pq_armies_split_free(sp);
  return rc;
}

/* Checks that a part's witness is a placement of white white and black black pieces of kind p
   on b in which no piece attacks one of the other colour: it is checked, not trusted. Returns
   PQ_OK, or PQ_EINVAL with one message. */
static pq_status check_witness(const pq_board *b, pq_piece p, const char *text, int white,
                               int black, long part, long parts) {
  char letters[3] = {pq_piece_letters[p], (char)(pq_piece_letters[p] - 'A' + 'a'), 0};
  uint8_t cells[PQ_MAX_SQUARES];
  if (pq_placement_parse(b, text, letters, cells) != PQ_OK) return PQ_EINVAL;
  int count[3] = {0, 0, 0};
  bool attacks = false;
  for (int s = 0; s < b->squares; s++) {
    count[cells[s]]++;
    for (int t = 0; t < b->squares && cells[s] == 1 && !attacks; t++)
      attacks = cells[t] == 2 && pq_attacks_plain(b, p, s, t);
  }
  if (count[1] == white && count[2] == black && !attacks) return PQ_OK;
  pq_error("merge: part %ld/%ld: its witness is not %d white against %d black that do not attack "
           "each other",
           part, parts, white, black);
  return PQ_EINVAL;
}

/* Merges count part lines (pq_armies_count_merge) and prints the count as `armies --count`
   does. */
static pq_status merge_counts(pq_json *const *results, int n, const pq_options *o, int width,
                              int height, char piece, int white, int black) {
  if (o->cert) {
    pq_error("merge: --cert applies to decisions, not to counts");
    return PQ_EINVAL;
  }
  if (white + black > width * height) {
    pq_error("merge: malformed armies part result (%d against %d on %dx%d)", white, black, width,
             height);
    return PQ_EINVAL;
  }
  pq_board *b = pq_board_new(width, height);
  pq_armies *a = pq_armies_new(b, (pq_piece)pq_piece_from_letter((unsigned char)piece));
  pq_armies_counted r;
  pq_status rc = pq_armies_count_merge(results, n, a, b, white, black, &r);
  if (rc == PQ_OK) {
    char total[48], uniq[48], uniq_colour[48];
    pq_count_str(r.count, total);
    pq_count_str(r.unique, uniq);
    pq_count_str(r.unique_colour, uniq_colour);
    if (PQ_FLAG(o, json))
      printf("{\"problem\":\"armies\",\"board\":\"%dx%d\",\"piece\":\"%c\",\"white\":%d,"
             "\"black\":%d,\"count\":%s,\"unique\":%s,\"unique_colour\":%s,\"nodes\":%" PRIu64
             "}\n",
             width, height, piece, white, black, total, uniq, uniq_colour, r.nodes);
    else
      printf("%s placements of %d against %d on %dx%d\n%s up to symmetry\n%s up to symmetry and "
             "colour exchange\n",
             total, white, black, width, height, uniq, uniq_colour);
  }
  pq_armies_free(a);
  pq_board_free(b);
  return rc;
}

pq_status pq_armies_merge(pq_json *const *results, int n, const pq_options *o) {
  const pq_json *first = results[0];
  if (pq_json_get(first, "colours")) return pq_colours_merge(results, n, o);
  const char *board = pq_json_get_string(first, "board"),
             *piece = pq_json_get_string(first, "piece");
  const char *split = pq_json_get_string(first, "split");
  long white, black, subparts, parts;
  int width, height;
  if (board && pq_board_parse(board, &width, &height)) return PQ_EINVAL; /* its message */
  if (!board || !piece || strlen(piece) != 1 || pq_piece_from_letter((unsigned char)piece[0]) < 0 ||
      !split || pq_json_get_long(first, "white", 0, PQ_MAX_SQUARES, &white) ||
      pq_json_get_long(first, "black", 0, PQ_MAX_SQUARES, &black) ||
      pq_json_get_long(first, "subparts", 0, 1 << 30, &subparts) ||
      pq_json_get_long(first, "parts", 1, 1 << 30, &parts)) {
    pq_error("merge: malformed armies part result");
    return PQ_EINVAL;
  }
  if (!strchr("QRB", piece[0])) {
    /* Only line pieces split into parts (found by the merge fuzzer: this aborted). */
    pq_error("merge: part results are of queens, rooks or bishops, not \"%s\"", piece);
    return PQ_EINVAL;
  }
  const pq_json *counting = pq_json_get(first, "counting");
  if (counting && counting->type == PQ_JSON_TRUE)
    return merge_counts(results, n, o, width, height, piece[0], (int)white, (int)black);
  pq_board *b = pq_board_new(width, height);
  pq_armies *a = pq_armies_new(b, (pq_piece)pq_piece_from_letter((unsigned char)piece[0]));
  pq_armies_params params;
  pq_armies_params_init(&params);
  pq_armies_job job = {.armies = a,
                       .board = b,
                       .white = (int)white,
                       .black = (int)black,
                       .params = &params,
                       .proof = o->cert != NULL};
  /* The split is recomputed here: its fingerprint must match the parts', and its cubes and the
     trees above the parts make the certificate. */
  pq_armies_split *sp =
      pq_armies_split_new(a, (int)white, (int)black, true, PQ_ARMIES_SPLIT_DEPTH, job.proof);
  uint64_t id = pq_armies_split_id(sp);
  int nsub = pq_armies_split_parts(sp);
  pq_armies_part *sub = pq_calloc((size_t)nsub + 1, sizeof *sub);
  bool *seen = pq_calloc((size_t)parts + 1, sizeof *seen);
  pq_status rc = PQ_OK;
  uint64_t nodes = 0;
  const char *witness = NULL;
  long witness_part = parts + 1;
  for (int i = 0; i < n && rc == PQ_OK; i++) {
    long part, count, cover;
    const pq_json *done = pq_json_get(results[i], "done"),
                  *found = pq_json_get(results[i], "found");
    if (check_head(results[i], &job, id, nsub) ||
        pq_json_get_long(results[i], "parts", 1, 1 << 30, &count) || count != parts ||
        pq_json_get_long(results[i], "part", 1, parts, &part) || !done || !found) {
      pq_error("merge: result %d is not a part of the same problem and split", i + 1);
      rc = PQ_EINVAL;
    } else if (pq_json_get_long(results[i], "covered", 0, 1 << 30, &cover) ||
               cover != covered(part, parts, nsub)) {
      pq_error("merge: part %ld/%ld: the subparts it covers are not those of its part of the "
               "split (relabelled?)",
               part, parts);
      rc = PQ_EINVAL;
    } else if (seen[part]) {
      pq_error("merge: part %ld/%ld appears twice", part, parts);
      rc = PQ_EINVAL;
    } else if (done->type != PQ_JSON_TRUE) {
      pq_error("merge: part %ld/%ld did not finish", part, parts);
      rc = PQ_ELIMIT;
    } else {
      seen[part] = true;
      long k;
      if (!pq_json_get_long(results[i], "nodes", 0, __LONG_MAX__, &k)) nodes += (uint64_t)k;
      if (found->type == PQ_JSON_TRUE && part < witness_part) {
        witness_part = part;
        witness = pq_json_get_string(results[i], "witness");
        if (!witness) {
          pq_error("merge: part %ld/%ld found a witness but does not give it", part, parts);
          rc = PQ_EINVAL;
        } else {
          rc = check_witness(b, pq_armies_piece(a), witness, (int)white, (int)black, part, parts);
        }
      }
      if (job.proof && read_trees(results[i], sub, nsub)) {
        pq_error("merge: part %ld/%ld has malformed proof trees", part, parts);
        rc = PQ_EINVAL;
      }
    }
  }
  for (long p = 1; p <= parts && rc == PQ_OK; p++)
    if (!seen[p]) {
      pq_error("merge: part %ld/%ld is missing: no conclusion", p, parts);
      rc = PQ_ELIMIT;
    }
  if (rc == PQ_OK && witness) {
    if (PQ_FLAG(o, json))
      printf("{\"problem\":\"armies\",\"board\":\"%s\",\"piece\":\"%s\",\"white\":%ld,"
             "\"black\":%ld,\"feasible\":true,\"witness\":\"%s\",\"nodes\":%" PRIu64 "}\n",
             board, piece, white, black, witness, nodes);
    else
      printf("armies of %ld against %ld on %s: possible (part %ld/%ld)\n%s\n", white, black, board,
             witness_part, parts, witness);
    if (o->cert) {
      pq_armies_cert cert = {.board = board,
                             .piece = piece[0],
                             .claim = "feasible",
                             .witness = witness,
                             .witness_white = (int)white,
                             .witness_black = (int)black};
      rc = pq_armies_cert_write(o->cert, &cert);
    }
  } else if (rc == PQ_OK) {
    if (PQ_FLAG(o, json))
      printf("{\"problem\":\"armies\",\"board\":\"%s\",\"piece\":\"%s\",\"white\":%ld,"
             "\"black\":%ld,\"feasible\":false,\"nodes\":%" PRIu64 "}\n",
             board, piece, white, black, nodes);
    else
      printf("armies of %ld against %ld on %s: impossible, proven by %ld parts (%" PRIu64
             " nodes)\n",
             white, black, board, parts, nodes);
    if (job.proof) {
      for (int i = 0; i < nsub; i++) {
        if (!sub[i].tree) {
          pq_error("merge: --cert needs every part's proof trees (run the parts with --cert)");
          rc = PQ_EINVAL;
          break;
        }
        sub[i].done = true;
      }
      if (rc == PQ_OK) {
        pq_armies_decision d = {0};
        pq_armies_split_proof(sp, sub, &d);
        pq_armies_cert cert = {.board = board,
                               .piece = piece[0],
                               .claim = "infeasible",
                               .white = (int)white,
                               .black = (int)black,
                               .proof = &d};
        rc = pq_armies_cert_write(o->cert, &cert);
        pq_armies_decision_clear(&d);
      }
    }
  }
  free(seen);
  pq_armies_parts_free(sub, nsub);
  pq_armies_split_free(sp);
  pq_armies_free(a);
  pq_board_free(b);
  return rc;
}
