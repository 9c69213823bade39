/* qn_parts.c: qn searches in parts: --part I/N results, merging them, checkpoints (formats in
   doc/json.md). */
#include "qn_parts.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../src/engine.h"
#include "../src/placement.h"

/* Checkpoints are written at most this often while parts finish (and always at the end). */
#define CHECKPOINT_SECONDS PQ_ENGINE_SAVE_SECONDS

/* Checkpoints larger than this are refused. */
#define MAX_READ_BYTES PQ_ENGINE_READ_BYTES

/* ---- the split ---- */

/* The subparts of one decision or count: the engine's parts (pq_qn_parts). Size 0 has one
   subpart, the empty board, which no search visits. */
typedef struct split {
  uint64_t n, id; /* subparts and fingerprint */
  int *first;     /* NULL, or [n]: each subpart's first square, its cube (-1 at size 0) */
} split;

static void split_make(const pq_qn_instance *in, int m, bool with_first, split *sp) {
  sp->first = NULL;
  if (m > 0) {
    sp->n = pq_qn_parts(in->q, m, &sp->id, with_first ? &sp->first : NULL);
    return;
  }
  /* FNV-1a over the instance, as pq_qn_parts hashes its head. */
  uint64_t h = PQ_FNV_BASIS;
  int head[] = {in->board->width, in->board->height, in->first,
                in->second,       in->ratio_a,       in->ratio_b};
  for (size_t i = 0; i < sizeof head / sizeof *head; i++) {
    unsigned char bytes[4]; /* little-endian, whatever the machine's order */
    for (int b = 0; b < 4; b++)
      bytes[b] = (unsigned char)((unsigned)head[i] >> (8 * b));
    h = pq_fnv_bytes(h, bytes, sizeof bytes);
  }
  sp->n = 1;
  sp->id = h;
  if (with_first) {
    sp->first = pq_malloc(sizeof *sp->first);
    sp->first[0] = -1;
  }
}

/* ---- text ---- */

typedef struct names {
  char board[24], kinds[3], ratio[24], split[24];
} names;

static void names_of(const pq_qn_instance *in, uint64_t id, names *n) {
  snprintf(n->board, sizeof n->board, "%dx%d", in->board->width, in->board->height);
  n->kinds[0] = pq_piece_letters[in->first];
  n->kinds[1] = pq_piece_letters[in->second];
  n->kinds[2] = '\0';
  snprintf(n->ratio, sizeof n->ratio, "%d:%d", in->ratio_a, in->ratio_b);
  snprintf(n->split, sizeof n->split, "%016" PRIx64, id);
}

/* Parses placement text silently (the callers say what was wrong, and where): rows top to
   bottom joined by '/', '.' or a letter of kinds (code 1 or 2). Returns false when malformed. */
static bool parse_witness(const pq_board *b, const char *text, const char *kinds, uint8_t *cells) {
  int s = 0, column = 0;
  for (const char *p = text;; p++) {
    if (*p == '/' || !*p) {
      if (column != b->width) return false;
      if (!*p) return s == b->squares;
      column = 0;
      continue;
    }
    if (column == b->width || s == b->squares) return false;
    cells[s++] = *p == '.' ? 0 : *p == kinds[0] ? 1 : *p == kinds[1] ? 2 : 3;
    if (cells[s - 1] == 3) return false;
    column++;
  }
}

/* Whether text is a placement of size m of the instance (parsed, counted, no attack). */
static bool witness_ok(const pq_qn_instance *in, const char *text, int m, uint8_t *cells) {
  char kinds[3] = {pq_piece_letters[in->first], pq_piece_letters[in->second], 0};
  return parse_witness(in->board, text, kinds, cells) &&
         pq_qn_placement_ok(in->board, in->first, in->second, in->ratio_a, in->ratio_b, cells, m);
}

/* A boolean member: 0 (false), 1 (true) or -1 (absent or not a boolean). */
static int get_bool(const pq_json *doc, const char *key) {
  const pq_json *v = pq_json_get(doc, key);
  return !v ? -1 : v->type == PQ_JSON_TRUE ? 1 : v->type == PQ_JSON_FALSE ? 0 : -1;
}

static bool same_string(const pq_json *doc, const char *key, const char *want) {
  const char *s = pq_json_get_string(doc, key);
  return s && !strcmp(s, want);
}

/* ---- part results ---- */

typedef struct part_line {
  const pq_qn_instance *in;
  int m;
  bool counting;
  const split *sp;
  const bool *mine;
  int part, parts;
  bool done, found;
  const char *witness; /* the text, or NULL */
  pq_count count, unique;
  uint64_t nodes;
} part_line;

/* The fields every part result starts with: the instance, the size and the split. */
static void write_head(FILE *f, const pq_qn_instance *in, int m, bool counting, const split *sp) {
  names n;
  names_of(in, sp->id, &n);
  fprintf(f,
          "\"problem\":\"qn\",\"board\":\"%s\",\"kinds\":\"%s\",\"ratio\":\"%s\",\"size\":%d,"
          "\"counting\":%s,\"split\":\"%s\",\"subparts\":%" PRIu64,
          n.board, n.kinds, n.ratio, m, counting ? "true" : "false", n.split, sp->n);
}

/* Whether doc's head is that of write_head. */
static bool head_matches(const pq_json *doc, const pq_qn_instance *in, int m, bool counting,
                         const split *sp) {
  names n;
  names_of(in, sp->id, &n);
  long size, subparts;
  return same_string(doc, "problem", "qn") && same_string(doc, "board", n.board) &&
         same_string(doc, "kinds", n.kinds) && same_string(doc, "ratio", n.ratio) &&
         !pq_json_get_long(doc, "size", 0, PQ_MAX_SQUARES, &size) && size == m &&
         get_bool(doc, "counting") == counting && same_string(doc, "split", n.split) &&
         !pq_json_get_long(doc, "subparts", 0, __LONG_MAX__, &subparts) &&
         (uint64_t)subparts == sp->n;
}

/* The cubes of part `part` (1..parts): the first squares of its subparts, in increasing order.
   Returns how many were written to cubes (room for squares). */
static int part_cubes(const split *sp, int squares, long part, long parts, int *cubes) {
  bool *has = pq_calloc((size_t)squares + 1, sizeof *has);
  for (uint64_t i = (uint64_t)part - 1; i < sp->n; i += (uint64_t)parts)
    if (sp->first[i] >= 0) has[sp->first[i]] = true;
  int n = 0;
  for (int s = 0; s < squares; s++)
    if (has[s]) cubes[n++] = s;
  free(has);
  return n;
}

/* How many subparts of a split of n part I of N holds: merge recomputes it, so that a part
   relabelled (1/40 as 1/1) is not taken for the whole. */
static uint64_t covered(long part, long parts, uint64_t n) {
  return (uint64_t)part <= n ? (n - (uint64_t)part) / (uint64_t)parts + 1 : 0;
}

static void write_part_line(FILE *f, void *arg) {
  const part_line *l = arg;
  fputc('{', f);
  write_head(f, l->in, l->m, l->counting, l->sp);
  fprintf(f, ",\"part\":%d,\"parts\":%d,\"covered\":%" PRIu64 ",\"done\":%s", l->part, l->parts,
          covered(l->part, l->parts, l->sp->n), l->done ? "true" : "false");
  if (l->counting) {
    char count[48], unique[48];
    fprintf(f, ",\"count\":%s,\"unique\":%s", pq_count_str(l->count, count),
            pq_count_str(l->unique, unique));
  } else {
    fprintf(f, ",\"found\":%s", l->found ? "true" : "false");
    if (l->witness) fprintf(f, ",\"witness\":\"%s\"", l->witness);
    int squares = l->in->board->squares, *cubes = pq_malloc((size_t)squares * sizeof *cubes);
    int n = part_cubes(l->sp, squares, l->part, l->parts, cubes);
    fputs(",\"cubes\":[", f);
    for (int i = 0; i < n; i++)
      fprintf(f, "%s%d", i ? "," : "", cubes[i]);
    fputc(']', f);
    free(cubes);
  }
  fprintf(f, ",\"nodes\":%" PRIu64 "}\n", l->nodes);
}

pq_status pq_qn_part_run(const pq_qn_instance *in, int m, bool counting, int part, int parts,
                         const pq_qn_limits *l, const char *copy) {
  split sp;
  split_make(in, m, true, &sp);
  bool *mine = pq_calloc((size_t)sp.n + 1, sizeof *mine);
  for (uint64_t i = (uint64_t)part - 1; i < sp.n; i += (uint64_t)parts)
    mine[i] = true;
  pq_qn_part *outcome = pq_calloc((size_t)sp.n + 1, sizeof *outcome);
  int squares = in->board->squares;
  uint8_t *witness = pq_calloc((size_t)squares, 1);
  char *text = NULL;
  pq_status rc = PQ_OK;
  part_line line = {.in = in,
                    .m = m,
                    .counting = counting,
                    .sp = &sp,
                    .mine = mine,
                    .part = part,
                    .parts = parts,
                    .done = true};
  if (m == 0) {
    if (mine[0]) outcome[0] = (pq_qn_part){.done = true, .found = true, .count = 1, .unique = 1};
  } else {
    pq_qn_limits lp = *l;
    lp.todo = mine;
    lp.outcome = outcome;
    lp.on_part = NULL;
    if (counting) {
      pq_qn_count_result res;
      rc = pq_qn_count(in->q, m, &lp, NULL, false, NULL, &res);
      line.nodes = res.nodes;
    } else {
      bool found;
      rc = pq_qn_decide(in->q, m, &lp, &found, witness, &line.nodes);
    }
  }
  bool overflow = false;
  for (uint64_t i = 0; i < sp.n; i++) {
    if (!mine[i]) continue;
    line.done = line.done && outcome[i].done;
    line.found = line.found || outcome[i].found;
    overflow |= pq_count_add(&line.count, outcome[i].count) != 0;
    overflow |= pq_count_add(&line.unique, outcome[i].unique) != 0;
  }
  /* A witness settles the decision, even when later subparts were left. */
  if (!counting && line.found) line.done = true;
  if (overflow) {
    pq_error("qn: part %d/%d: more than 2^128 placements: the count cannot be given", part, parts);
    line.done = false;
    rc = PQ_ELIMIT;
  } else if (line.done) {
    rc = PQ_OK;
  } else {
    if (rc == PQ_OK) rc = PQ_ELIMIT;
    pq_error("qn: part %d/%d %s: its result says \"done\":false", part, parts,
             rc == PQ_EINTR ? "interrupted" : "stopped by a limit");
  }
  if (line.found) {
    /* The engine wrote the witness of the least subpart with one. */
    char kinds[3] = {pq_piece_letters[in->first], pq_piece_letters[in->second], 0};
    text = pq_malloc((size_t)squares + (size_t)in->board->height + 1);
    pq_placement_text(in->board, witness, kinds, text);
    PQ_REQUIRE(witness_ok(in, text, m, witness), "qn: the witness of part %d/%d is wrong", part,
               parts);
    line.witness = text;
  }
  write_part_line(stdout, &line);
  fflush(stdout);
  if (copy) {
    pq_status w = pq_write_atomic(copy, write_part_line, &line);
    if (rc == PQ_OK) rc = w;
  }
  free(text);
  free(witness);
  free(outcome);
  free(mine);
  free(sp.first);
  return rc;
}

/* ---- merge ---- */

static pq_status malformed(void) {
  pq_error("merge: malformed qn part result (see doc/json.md)");
  return PQ_EINVAL;
}

/* Reads the instance of a part result: board, kinds, ratio. Returns 0 or -1 (no message). */
static int read_instance(const pq_json *doc, int *width, int *height, pq_piece *first,
                         pq_piece *second, int *ratio_a, int *ratio_b) {
  const char *board = pq_json_get_string(doc, "board"), *kinds = pq_json_get_string(doc, "kinds"),
             *ratio = pq_json_get_string(doc, "ratio");
  if (!board || !kinds || !ratio || strlen(kinds) != 2) return -1;
  long w, h, a, b;
  char *end;
  /* "WxH" exactly as part results write it (pq_board_parse would print its own message). */
  if (board[0] < '1' || board[0] > '9') return -1;
  w = strtol(board, &end, 10);
  if (*end != 'x' || end[1] < '1' || end[1] > '9') return -1;
  h = strtol(end + 1, &end, 10);
  if (*end || w < 1 || w > PQ_MAX_SIDE || h < 1 || h > PQ_MAX_SIDE) return -1;
  int x = pq_piece_from_letter((unsigned char)kinds[0]),
      y = pq_piece_from_letter((unsigned char)kinds[1]);
  if (x < 0 || y < 0 || x == y || kinds[0] != pq_piece_letters[x] ||
      kinds[1] != pq_piece_letters[y])
    return -1;
  if (ratio[0] < '1' || ratio[0] > '9') return -1;
  a = strtol(ratio, &end, 10);
  if (*end != ':' || end[1] < '1' || end[1] > '9') return -1;
  b = strtol(end + 1, &end, 10);
  if (*end || a < 1 || a > PQ_MAX_SQUARES || b < 1 || b > PQ_MAX_SQUARES) return -1;
  *width = (int)w;
  *height = (int)h;
  *first = (pq_piece)x;
  *second = (pq_piece)y;
  *ratio_a = (int)a;
  *ratio_b = (int)b;
  return 0;
}

/* Checks the cubes a decision's part result lists against those of its part. */
static bool cubes_match(const pq_json *doc, const split *sp, int squares, long part, long parts) {
  const pq_json *cubes = pq_json_get(doc, "cubes");
  if (!cubes || cubes->type != PQ_JSON_ARRAY || cubes->length > (size_t)squares) return false;
  int *want = pq_malloc((size_t)squares * sizeof *want);
  int n = part_cubes(sp, squares, part, parts, want);
  bool same = cubes->length == (size_t)n;
  for (int i = 0; same && i < n; i++) {
    long s;
    same = cubes->items[i]->type == PQ_JSON_NUMBER &&
           !pq_parse_long(cubes->items[i]->string, 0, squares - 1, &s) && s == want[i];
  }
  free(want);
  return same;
}

typedef struct merged {
  long parts;
  bool counting;
  uint64_t nodes;
  pq_count count, unique;
  long witness_part; /* the least part with a witness, or 0 */
  const char *witness;
} merged;

/* Checks the part results against the split and adds them up into mg. */
static pq_status merge_parts(pq_json *const *results, int n, const pq_qn_instance *in, int m,
                             const split *sp, merged *mg) {
  int squares = in->board->squares;
  bool *seen = pq_calloc((size_t)mg->parts + 1, sizeof *seen);
  uint8_t *cells = pq_malloc((size_t)squares);
  long unfinished = 0;
  pq_status rc = PQ_OK;
  for (int i = 0; i < n && rc == PQ_OK; i++) {
    const pq_json *r = results[i];
    long part, parts, nodes, cover;
    int done = get_bool(r, "done"), found = get_bool(r, "found");
    pq_count count = 0, unique = 0;
    if (!head_matches(r, in, m, mg->counting, sp) ||
        pq_json_get_long(r, "parts", 1, 1 << 30, &parts) || parts != mg->parts ||
        pq_json_get_long(r, "part", 1, parts, &part) || done < 0 ||
        pq_json_get_long(r, "nodes", 0, __LONG_MAX__, &nodes)) {
      pq_error("merge: result %d is not a part of the same qn problem, size and split", i + 1);
      rc = PQ_EINVAL;
    } else if (mg->counting && (pq_json_count(pq_json_get(r, "count"), &count) ||
                                pq_json_count(pq_json_get(r, "unique"), &unique))) {
      pq_error("merge: part %ld/%ld: count and unique must be whole numbers", part, parts);
      rc = PQ_EINVAL;
    } else if (!mg->counting && (found < 0 || !cubes_match(r, sp, squares, part, parts))) {
      pq_error("merge: part %ld/%ld: its found or cubes are not those of its part of the split",
               part, parts);
      rc = PQ_EINVAL;
    } else if (pq_json_get_long(r, "covered", 0, __LONG_MAX__, &cover) ||
               (uint64_t)cover != covered(part, parts, sp->n)) {
      pq_error("merge: part %ld/%ld: the subparts it covers are not those of its part of the "
               "split (relabelled?)",
               part, parts);
      rc = PQ_EINVAL;
    } else if (seen[part]) {
      pq_error("merge: part %ld/%ld appears twice", part, parts);
      rc = PQ_EINVAL;
    } else {
      seen[part] = true;
      if (mg->nodes + (uint64_t)nodes >= mg->nodes) mg->nodes += (uint64_t)nodes;
      if (!done) {
        if (!unfinished) unfinished = part;
        continue;
      }
      if (mg->counting && (pq_count_add(&mg->count, count) || pq_count_add(&mg->unique, unique))) {
        pq_error("merge: the counts add up past 2^128 - 1");
        rc = PQ_EINVAL;
      }
      if (!mg->counting && found) {
        /* Every witness is checked, not only the one printed: a false one is never passed on. */
        const char *w = pq_json_get_string(r, "witness");
        if (!w || !witness_ok(in, w, m, cells)) {
          pq_error("merge: part %ld/%ld: its witness is not a placement of size %d in which no "
                   "piece attacks another",
                   part, parts, m);
          rc = PQ_EINVAL;
        } else if (!mg->witness_part || part < mg->witness_part) {
          mg->witness_part = part;
          mg->witness = w;
        }
      }
    }
  }
  if (rc == PQ_OK && unfinished) {
    pq_error("merge: part %ld/%ld did not finish: no conclusion", unfinished, mg->parts);
    rc = PQ_ELIMIT;
  }
  for (long p = 1; p <= mg->parts && rc == PQ_OK; p++)
    if (!seen[p]) {
      pq_error("merge: part %ld/%ld is missing: no conclusion", p, mg->parts);
      rc = PQ_ELIMIT;
    }
  free(cells);
  free(seen);
  return rc;
}

pq_status pq_qn_merge(pq_json *const *results, int n, const pq_options *o) {
  const pq_json *head = results[0];
  int width, height, ratio_a, ratio_b, counting = get_bool(head, "counting");
  pq_piece first, second;
  long size, parts;
  if (read_instance(head, &width, &height, &first, &second, &ratio_a, &ratio_b) || counting < 0 ||
      pq_json_get_long(head, "size", 0, PQ_MAX_SQUARES, &size) ||
      pq_json_get_long(head, "parts", 1, 1 << 30, &parts))
    return malformed();
  if (size * (ratio_a + ratio_b) > (long)width * height) {
    pq_error("merge: qn part results of size %ld: %ld pieces do not fit on %dx%d", size,
             size * (ratio_a + ratio_b), width, height);
    return PQ_EINVAL;
  }
  if (o->cert && counting) {
    pq_error("merge: --cert \"%s\": qn certificates are of decisions, and these parts count",
             o->cert);
    return PQ_EINVAL;
  }
  pq_board *b = pq_board_new(width, height);
  pq_qn *q = pq_qn_new(b, first, second, ratio_a, ratio_b);
  pq_qn_instance in = {
      .board = b, .q = q, .first = first, .second = second, .ratio_a = ratio_a, .ratio_b = ratio_b};
  /* The split is recomputed: its fingerprint and cubes must be the parts'. */
  split sp;
  split_make(&in, (int)size, true, &sp);
  merged mg = {.parts = parts, .counting = counting};
  pq_status rc = merge_parts(results, n, &in, (int)size, &sp, &mg);
  names nm;
  names_of(&in, sp.id, &nm);
  char what[96];
  pq_qn_describe(first, second, ratio_a, ratio_b, (int)size, what, sizeof what);
  char count[48], unique[48];
  pq_count_str(mg.count, count);
  pq_count_str(mg.unique, unique);
  bool json = PQ_FLAG(o, json);
  if (rc != PQ_OK) {
    /* No answer. */
  } else if (counting && json) {
    printf("{\"problem\":\"qn\",\"board\":\"%s\",\"kinds\":\"%s\",\"ratio\":\"%s\",\"size\":%ld,"
           "\"feasible\":%s,\"count\":%s,\"unique\":%s,\"parts\":%ld,\"nodes\":%" PRIu64 "}\n",
           nm.board, nm.kinds, nm.ratio, size, mg.count ? "true" : "false", count, unique, parts,
           mg.nodes);
  } else if (counting) {
    printf("qn on %s: %s: %s, counted in %ld parts (%" PRIu64 " nodes)\n%s placements\n%s up to "
           "symmetry\n",
           nm.board, what, mg.count ? "possible" : "none", parts, mg.nodes, count, unique);
  } else if (json) {
    printf("{\"problem\":\"qn\",\"board\":\"%s\",\"kinds\":\"%s\",\"ratio\":\"%s\",\"size\":%ld,"
           "\"feasible\":%s,",
           nm.board, nm.kinds, nm.ratio, size, mg.witness ? "true" : "false");
    if (mg.witness)
      printf("\"witness\":\"%s\"", mg.witness);
    else
      printf("\"witness\":null");
    printf(",\"parts\":%ld,\"nodes\":%" PRIu64 "}\n", parts, mg.nodes);
  } else if (mg.witness) {
    printf("qn on %s: %s: possible (part %ld/%ld)\n%s\n", nm.board, what, mg.witness_part, parts,
           mg.witness);
  } else {
    printf("qn on %s: %s: none, proven impossible by %ld parts (%" PRIu64 " nodes)\n", nm.board,
           what, parts, mg.nodes);
  }
  if (rc == PQ_OK && o->cert) {
    /* A witness, or the cubes of every part: together, the first squares of every subpart; the
       orbits' least squares without a subpart were closed by the bounds before any part. The
       certificate lists one cube per orbit, which the checker searches again. */
    uint8_t *cells = pq_malloc((size_t)b->squares);
    if (mg.witness) PQ_REQUIRE(witness_ok(&in, mg.witness, (int)size, cells), "checked above");
    pq_qn_cert cert = {.board = b,
                       .first = first,
                       .second = second,
                       .split = pq_qn_split_piece(q),
                       .ratio_a = ratio_a,
                       .ratio_b = ratio_b,
                       .size = (int)size,
                       .witness = mg.witness ? cells : NULL,
                       .infeasible = mg.witness ? 0 : (int)size};
    if (!mg.witness && size == 0) {
      pq_error("merge: size 0 always fits: no certificate of infeasibility");
      rc = PQ_EINVAL;
    } else {
      rc = pq_qn_cert_write(o->cert, &cert);
    }
    free(cells);
  }
  free(sp.first);
  pq_qn_free(q);
  pq_board_free(b);
  return rc;
}

/* ---- checkpoints ---- */

/* A resumed checkpoint's decision or count in progress: the outcomes of its finished parts. */
struct pq_qn_resumed {
  bool counting; /* a count (else a decision) */
  int at;        /* of this size */
  uint64_t n;
  pq_qn_part *outcome; /* [n] */
};

/* What a checkpoint holds: the run's facts, and the work in progress (stage NULL: none). */
typedef struct saving {
  pq_qn_run *r;
  const char *stage; /* "decide" or "count", or NULL */
  int at;
  const split *sp;
  const pq_qn_part *outcome;
} saving;

static void write_checkpoint(FILE *f, void *arg) {
  const saving *sv = arg;
  const pq_qn_run *r = sv->r;
  const pq_qn_instance *in = r->in;
  names n;
  names_of(in, sv->sp ? sv->sp->id : 0, &n);
  fprintf(f,
          "{\"format\":\"peaceable-checkpoint\",\"version\":2,\"problem\":\"qn\",\"board\":\"%s\","
          "\"kinds\":\"%s\",\"ratio\":\"%s\",",
          n.board, n.kinds, n.ratio);
  if (r->size < 0)
    fputs("\"size\":null", f);
  else
    fprintf(f, "\"size\":%d", r->size);
  fprintf(f, ",\"counting\":%s,\"best\":%d", r->counting ? "true" : "false", r->best);
  if (r->best >= 0) {
    char *text = pq_malloc((size_t)in->board->squares + (size_t)in->board->height + 1);
    pq_placement_text(in->board, r->best_witness, n.kinds, text);
    fprintf(f, ",\"best_witness\":\"%s\"", text);
    free(text);
  }
  fprintf(f, ",\"infeasible\":%d", r->infeasible);
  if (r->infeasible >= 0) fprintf(f, ",\"proved_by\":\"%s\"", pq_method_name(r->proved_by));
  uint64_t nodes = 0;
  if (sv->stage) {
    bool counting = !strcmp(sv->stage, "count");
    fprintf(f, ",\n\"stage\":\"%s\",\"at\":%d,\"split\":\"%s\",\"subparts\":%" PRIu64 ",\"%s\":[",
            sv->stage, sv->at, n.split, sv->sp->n, counting ? "counts" : "done");
    int written = 0;
    for (uint64_t i = 0; i < sv->sp->n; i++) {
      const pq_qn_part *o = &sv->outcome[i];
      if (!o->done || o->found) continue;
      nodes += o->nodes;
      fputs(written ? "," : "", f);
      if (written++ % 16 == 0) fputc('\n', f);
      if (counting) {
        char count[48], unique[48];
        fprintf(f, "[%" PRIu64 ",%s,%s]", i, pq_count_str(o->count, count),
                pq_count_str(o->unique, unique));
      } else {
        fprintf(f, "%" PRIu64, i);
      }
    }
    fputs("]", f);
  }
  fprintf(f, ",\"nodes\":%" PRIu64 "}\n", nodes);
}

static pq_status save(const saving *sv) {
  if (!sv->r->checkpoint) return PQ_OK;
  sv->r->last_save = pq_now();
  return pq_engine_save_sealed(sv->r->checkpoint, write_checkpoint, (void *)sv);
}

/* The engine's call after each finished part (under its lock): saves every few seconds. A failed
   write is reported and tried again at the next one. */
static void on_part(void *arg, uint64_t part) {
  (void)part;
  const saving *sv = arg;
  if (pq_now() - sv->r->last_save >= CHECKPOINT_SECONDS) save(sv);
}

static pq_status refuse(const pq_qn_run *r, const char *why) {
  pq_error("--resume %s: %s", r->resume, why);
  return PQ_EINVAL;
}

/* Reads the work in progress of a checkpoint (doc) into r->resumed, after checking it is of this
   run at a size it has still to settle, and of the same split. */
static pq_status read_stage(pq_qn_run *r, const pq_json *doc) {
  const char *stage = pq_json_get_string(doc, "stage");
  if (!pq_json_get(doc, "stage")) return PQ_OK;
  bool counting = stage && !strcmp(stage, "count");
  long at, subparts;
  const pq_json *list = pq_json_get(doc, counting ? "counts" : "done");
  if (!stage || (!counting && strcmp(stage, "decide")) ||
      pq_json_get_long(doc, "at", 1, r->in->board->squares, &at) ||
      pq_json_get_long(doc, "subparts", 0, __LONG_MAX__, &subparts) ||
      !pq_json_get_string(doc, "split") || !list || list->type != PQ_JSON_ARRAY)
    return refuse(r, "malformed checkpoint (stage, at, split, subparts, done or counts)");
  /* A decision still open, or the count the run is at. */
  bool open = counting ? r->counting && r->best == at &&
                             (r->size >= 0 ? at == r->size : r->infeasible == at + 1)
                       : r->best < at && (r->infeasible < 0 || at < r->infeasible) &&
                             (r->size < 0 || at == r->size);
  if (!open) return refuse(r, "malformed checkpoint (its stage does not follow its best size)");
  if (at * (r->in->ratio_a + r->in->ratio_b) > r->in->board->squares)
    return refuse(r, "malformed checkpoint (at: the pieces do not fit)");
  split sp;
  split_make(r->in, (int)at, false, &sp);
  names n;
  names_of(r->in, sp.id, &n);
  if ((uint64_t)subparts != sp.n || !same_string(doc, "split", n.split))
    return refuse(r, "a checkpoint of another split (another version of the search)");
  pq_qn_resumed *z = pq_calloc(1, sizeof *z);
  z->counting = counting;
  z->at = (int)at;
  z->n = sp.n;
  z->outcome = pq_calloc((size_t)sp.n + 1, sizeof *z->outcome);
  r->resumed = z;
  for (size_t i = 0; i < list->length; i++) {
    /* A decision lists indices; a count lists [index, count, unique]. */
    const pq_json *e = list->items[i], *index = e;
    if (counting) index = e->type == PQ_JSON_ARRAY && e->length == 3 ? e->items[0] : NULL;
    long k;
    pq_count count = 0, unique = 0;
    if (!index || index->type != PQ_JSON_NUMBER ||
        pq_parse_long(index->string, 0, (long)sp.n - 1, &k) || z->outcome[k].done ||
        (counting && (pq_json_count(e->items[1], &count) || pq_json_count(e->items[2], &unique))))
      return refuse(r, "malformed checkpoint (a finished part)");
    z->outcome[k] = (pq_qn_part){.done = true, .count = count, .unique = unique};
  }
  return PQ_OK;
}

pq_status pq_qn_run_start(pq_qn_run *r) {
  r->best = r->infeasible = -1;
  r->proved_by = PQ_METHOD_SEARCH;
  r->resumed = NULL;
  r->last_save = pq_now();
  if (!r->resume) return PQ_OK;
  char *text, err[160];
  size_t len;
  pq_status rc = pq_read_file(r->resume, MAX_READ_BYTES, &text, &len);
  if (rc) return PQ_EINVAL;
  pq_json *doc = pq_json_parse(text, len, err);
  bool sealed = pq_engine_sealed(text, len);
  free(text);
  names n;
  names_of(r->in, 0, &n);
  const pq_json *size = pq_json_get(doc, "size");
  const char *witness = pq_json_get_string(doc, "best_witness"),
             *proved_by = pq_json_get_string(doc, "proved_by");
  long best, infeasible, at_size = -2, version;
  int squares = r->in->board->squares;
  if (!doc) {
    pq_error("--resume %s: not JSON: %s", r->resume, err);
    rc = PQ_EINVAL;
  } else if (!same_string(doc, "format", "peaceable-checkpoint") ||
             !same_string(doc, "problem", "qn")) {
    rc = refuse(r, "not a checkpoint of qn");
  } else if (pq_json_get_long(doc, "version", 2, 2, &version)) {
    rc = refuse(r, "a checkpoint of another version (2 is read)");
  } else if (!size || (size->type != PQ_JSON_NULL &&
                       pq_json_get_long(doc, "size", 0, PQ_MAX_SQUARES, &at_size))) {
    rc = refuse(r, "malformed checkpoint (size)");
  } else if (!same_string(doc, "board", n.board) || !same_string(doc, "kinds", n.kinds) ||
             !same_string(doc, "ratio", n.ratio) ||
             (size->type == PQ_JSON_NULL ? -1 : at_size) != r->size ||
             get_bool(doc, "counting") != r->counting) {
    rc = refuse(r, "a checkpoint of another board, kinds, ratio, --size or --count");
  } else if (!sealed) {
    rc = refuse(r, "damaged or edited: its digest does not match its content (not used, not "
                   "overwritten)");
  } else if (pq_json_get_long(doc, "best", -1, squares, &best) ||
             pq_json_get_long(doc, "infeasible", -1, squares, &infeasible) ||
             infeasible == 0 /* size 0 always fits */ || (best >= 0) != (witness != NULL) ||
             (infeasible >= 0 &&
              (!proved_by || (strcmp(proved_by, "search") && strcmp(proved_by, "ilp")))) ||
             (infeasible >= 0 && best >= infeasible) ||
             (r->size >= 0 &&
              ((best >= 0 && best != r->size) || (infeasible >= 0 && infeasible != r->size)))) {
    rc = refuse(r, "malformed checkpoint (best, best_witness, infeasible, proved_by)");
  } else if (best >= 0 && !witness_ok(r->in, witness, (int)best, r->best_witness)) {
    rc = refuse(r, "its witness is not a placement of its size in which no piece attacks another");
  } else {
    r->best = (int)best;
    r->infeasible = (int)infeasible;
    r->proved_by = infeasible >= 0 && !strcmp(proved_by, "ilp") ? PQ_METHOD_ILP : PQ_METHOD_SEARCH;
    rc = read_stage(r, doc);
  }
  pq_json_free(doc);
  return rc;
}

/* Takes up the resumed work in progress when it is this decision (or count) of size m: its
   finished parts get their outcomes and are not searched again. */
static void take_up(pq_qn_run *r, bool counting, int m, const split *sp, pq_qn_part *outcome,
                    bool *todo) {
  pq_qn_resumed *z = r->resumed;
  if (!z || z->counting != counting || z->at != m) return;
  PQ_REQUIRE(z->n == sp->n, "the resumed split was checked");
  for (uint64_t i = 0; i < z->n; i++)
    if (z->outcome[i].done) {
      outcome[i] = z->outcome[i];
      todo[i] = false;
    }
  free(z->outcome);
  free(z);
  r->resumed = NULL;
}

/* A decision or a count of size m run by parts: the split, each part's outcome (those of a
   resumed checkpoint taken up), the parts still to search, the checkpoint's view of it and the
   limits that hand all of it to the engine. */
typedef struct stage {
  split sp;
  pq_qn_part *outcome;
  bool *todo;
  saving sv;
  pq_qn_limits lp;
} stage;

static void stage_begin(pq_qn_run *r, bool counting, int m, const pq_qn_limits *l, stage *st) {
  split_make(r->in, m, false, &st->sp);
  st->outcome = pq_calloc((size_t)st->sp.n + 1, sizeof *st->outcome);
  st->todo = pq_malloc((size_t)st->sp.n + 1);
  memset(st->todo, 1, (size_t)st->sp.n + 1);
  take_up(r, counting, m, &st->sp, st->outcome, st->todo);
  st->sv = (saving){.r = r,
                    .stage = counting ? "count" : "decide",
                    .at = m,
                    .sp = &st->sp,
                    .outcome = st->outcome};
  st->lp = *l;
  st->lp.todo = st->todo;
  st->lp.outcome = st->outcome;
  st->lp.on_part = r->checkpoint ? on_part : NULL;
  st->lp.on_part_ctx = &st->sv;
}

/* Saves the checkpoint (rc: the run's status so far, returned unless the save failed) and frees
   the stage. */
static pq_status stage_end(stage *st, pq_status rc) {
  pq_status w = save(&st->sv);
  free(st->todo);
  free(st->outcome);
  return rc == PQ_OK ? w : rc;
}

pq_status pq_qn_run_decide(pq_qn_run *r, int m, const pq_qn_limits *l, bool *found,
                           uint8_t *witness, uint64_t *nodes) {
  PQ_REQUIRE(m >= 1, "decide size %d by parts", m);
  stage st;
  stage_begin(r, false, m, l, &st);
  pq_status rc = pq_qn_decide(r->in->q, m, &st.lp, found, witness, nodes);
  for (uint64_t i = 0; i < st.sp.n; i++)
    if (st.outcome[i].found) *found = true;
  if (*found) rc = PQ_OK;
  if (rc == PQ_OK && *found && m > r->best) {
    r->best = m;
    memcpy(r->best_witness, witness, (size_t)r->in->board->squares);
  } else if (rc == PQ_OK && !*found && (r->infeasible < 0 || m < r->infeasible)) {
    r->infeasible = m;
    r->proved_by = PQ_METHOD_SEARCH;
  }
  /* Settled, the decision needs no parts any more. */
  if (rc == PQ_OK) st.sv.stage = NULL;
  return stage_end(&st, rc);
}

pq_status pq_qn_run_count(pq_qn_run *r, int m, const pq_qn_limits *l, pq_qn_count_result *out) {
  if (m <= 0) return pq_qn_count(r->in->q, m, l, NULL, false, NULL, out);
  stage st;
  stage_begin(r, true, m, l, &st);
  pq_qn_count_result res;
  pq_status rc = pq_qn_count(r->in->q, m, &st.lp, NULL, false, NULL, &res);
  memset(out, 0, sizeof *out);
  out->nodes = res.nodes;
  out->overflow = res.overflow;
  for (uint64_t i = 0; i < st.sp.n; i++) {
    out->overflow |= pq_count_add(&out->count, st.outcome[i].count) != 0;
    out->overflow |= pq_count_add(&out->unique, st.outcome[i].unique) != 0;
  }
  /* The counts so far stay in the checkpoint, also once complete: a resume then answers at
     once. */
  return stage_end(&st, rc);
}

pq_status pq_qn_run_save(pq_qn_run *r) {
  saving sv = {.r = r};
  return save(&sv);
}

void pq_qn_run_end(pq_qn_run *r) {
  if (r->resumed) free(r->resumed->outcome);
  free(r->resumed);
  r->resumed = NULL;
}
