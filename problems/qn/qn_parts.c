/* qn_parts.c: qn runs in parts through the engine (src/run/engine.h): --part I/N results, merging
   them, and runs with checkpoints (formats in doc/json.md). */
#include "qn_parts.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/check/check.h"
#include "../../src/core/placement.h"
#include "../../src/run/engine.h"

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

/* Whether text is a placement of size m of the instance (parsed, counted, no attack). */
static bool witness_ok(const pq_qn_instance *in, const char *text, int m, uint8_t *cells) {
  char kinds[3] = {pq_piece_letters[in->first], pq_piece_letters[in->second], 0};
  char why[PQ_PLACEMENT_WHY];
  return !pq_placement_read(in->board, text, kinds, cells, why) &&
         pq_qn_placement_ok(in->board, in->first, in->second, in->ratio_a, in->ratio_b, cells, m);
}

static bool same_string(const pq_json *doc, const char *key, const char *want) {
  const char *s = pq_json_get_string(doc, key);
  return s && !strcmp(s, want);
}

/* ---- part results ---- */

/* A part line's listing keeps its placements in the line: none is printed. */
static int keep_in_line(void *ctx, const uint8_t *cells) {
  (void)ctx, (void)cells;
  return 0;
}

pq_status pq_qn_part_run(const pq_qn_instance *in, int m, bool counting, bool list, bool unique,
                         int part, int parts, const pq_qn_limits *l) {
  pq_qn_limits lp = *l;
  lp.run.part = part;
  lp.run.parts = parts;
  pq_status rc;
  if (counting || list) {
    pq_qn_count_result res;
    rc = pq_qn_count(in->q, m, &lp, list ? keep_in_line : NULL, unique, NULL, &res);
  } else {
    bool found;
    uint8_t *witness = pq_malloc((size_t)in->board->squares);
    rc = pq_qn_decide(in->q, m, &lp, &found, witness, NULL);
    free(witness);
  }
  return rc; /* a part stopped early: the engine said so */
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

/* Prints the merged answer of the parts of size `size` (o: merge's options). */
static void print_merged(const pq_options *o, const pq_qn_instance *in, long size, bool counting,
                         long parts, const pq_qn_count_result *mg, const char *witness,
                         long witness_part, bool checked) {
  names nm;
  names_of(in, 0, &nm);
  char what[96], count[48], unique[48];
  pq_qn_describe(in->first, in->second, in->ratio_a, in->ratio_b, (int)size, what, sizeof what);
  pq_count_str(mg->count, count);
  pq_count_str(mg->unique, unique);
  bool json = PQ_FLAG(o, json);
  /* A witness is checked here; a count or a proof of none is the parts' word unless merge
     --cert verified the certificate it wrote. */
  const char *word = checked ? "" : " (on the parts' word: not checked)";
  if (counting && json) {
    pq_qn_json_open(in->board, nm.kinds, in->ratio_a, in->ratio_b, size);
    printf("%s,\"count\":%s,\"unique\":%s", pq_count_claim(false, mg->count, PQ_METHOD_SEARCH),
           count, unique);
    pq_engine_merged_tail(stdout, false, parts, mg->nodes);
  } else if (counting) {
    printf("qn on %s: %s: %s, counted in %ld %s (%" PRIu64 " %s)%s\n%s placement%s\n%s "
           "up to symmetry\n",
           nm.board, what, mg->count ? "possible" : "none", parts, pq_noun(parts, "part", "parts"),
           mg->nodes, mg->nodes == 1 ? "node" : "nodes", word, count, pq_plural(count), unique);
  } else if (json) {
    pq_qn_json_open(in->board, nm.kinds, in->ratio_a, in->ratio_b, size);
    printf(",\"feasible\":%s", witness ? "true" : "false");
    if (witness)
      printf(",\"witness\":\"%s\"", witness);
    else
      fputs(",\"proved_by\":\"search\"", stdout); /* the parts' search */
    pq_engine_merged_tail(stdout, witness || checked, parts, mg->nodes);
  } else if (witness) {
    printf("qn on %s: %s: possible (part %ld/%ld; the witness checked)\n%s\n", nm.board, what,
           witness_part, parts, witness);
  } else {
    printf("qn on %s: %s: none, proven impossible by %ld %s (%" PRIu64 " %s; %s)\n", nm.board, what,
           parts, pq_noun(parts, "part", "parts"), mg->nodes, mg->nodes == 1 ? "node" : "nodes",
           checked ? "checked: the certificate written verifies"
                   : "on the parts' word: not checked");
  }
}

/* A merged listing's placement, printed as qn --list prints it. */
typedef struct printer {
  const pq_board *board;
  const char *kinds;
  bool json;
  char *text;
  pq_count listed;
} printer;

static int print_placement(void *ctx, const uint8_t *cells) {
  printer *p = ctx;
  pq_placement_line(p->board, cells, p->kinds, p->json, p->text);
  p->listed++;
  return 0;
}

/* A merged listing's end: the summary object of qn --list --json, or in text the note of what it
   rests on. */
static void print_listed(const pq_options *o, const pq_qn_instance *in, long size, bool unique,
                         long parts, const pq_qn_count_result *mg, pq_count listed) {
  if (!PQ_FLAG(o, json)) {
    /* (With --unique each line is checked to be its class's canonical form: none is of another's
       class.) */
    pq_engine_merged_listing_note(false);
    return;
  }
  names nm;
  names_of(in, 0, &nm);
  char count[48], classes[48];
  pq_qn_json_open(in->board, nm.kinds, in->ratio_a, in->ratio_b, size);
  printf("%s,\"count\":%s", pq_count_claim(false, mg->count, PQ_METHOD_SEARCH),
         pq_count_str(unique ? mg->count : listed, count));
  if (unique) printf(",\"unique\":%s", pq_count_str(listed, classes));
  pq_engine_merged_tail(stdout, false, parts, mg->nodes);
}

pq_status pq_qn_merge(pq_json *const *results, int n, const pq_options *o) {
  const pq_json *head = results[0];
  int width, height, ratio_a, ratio_b, counting = pq_json_get_bool(head, "counting");
  /* A listing's lines are a count's that list (pq_engine_list_of). */
  int listing = pq_engine_list_of(head);
  bool list = listing > 0, unique = listing == 2;
  pq_piece first, second;
  long size, parts;
  if (read_instance(head, &width, &height, &first, &second, &ratio_a, &ratio_b) || counting < 0 ||
      listing < 0 || (list && !counting) ||
      pq_json_get_long(head, "size", 0, PQ_MAX_SQUARES, &size) ||
      pq_json_get_long(head, "parts", 1, 1 << 30, &parts))
    return malformed();
  if (size * (ratio_a + ratio_b) > (long)width * height) {
    pq_error("merge: qn part results of size %ld: %ld pieces do not fit on %dx%d", size,
             size * (ratio_a + ratio_b), width, height);
    return PQ_EINVAL;
  }
  if (o->cert && counting) {
    pq_error("merge: --cert \"%s\": qn certificates are of decisions, and these parts %s", o->cert,
             list ? "list" : "count");
    return PQ_EINVAL;
  }
  pq_board *b = pq_board_new(width, height);
  pq_qn *q = pq_qn_new(b, first, second, ratio_a, ratio_b);
  pq_qn_instance in = {
      .board = b, .q = q, .first = first, .second = second, .ratio_a = ratio_a, .ratio_b = ratio_b};
  uint8_t *cells = pq_malloc((size_t)b->squares);
  char *text = pq_malloc((size_t)b->squares + (size_t)b->height + 1);
  bool found = false;
  uint64_t subpart = 0;
  pq_qn_count_result mg;
  char kinds[3] = {pq_piece_letters[first], pq_piece_letters[second], 0};
  printer pr = {.board = b, .kinds = kinds, .json = PQ_FLAG(o, json), .text = text};
  pq_qn_lister lister = {print_placement, unique, &pr};
  /* The engine checks the split (recomputed here), every part once, and the seals. */
  pq_status rc = pq_qn_merge_lines(q, (int)size, counting, results, n, list ? &lister : NULL,
                                   &found, cells, &subpart, &mg);
  if (found) pq_placement_text(b, cells, kinds, text);
  bool checked = false;
  if (rc == PQ_OK && o->cert) {
    /* A witness, or the cover of every part: the certificate lists one cube per orbit, which
       the checker searches again. */
    pq_qn_cert cert = {.board = b,
                       .first = first,
                       .second = second,
                       .split = pq_qn_split_piece(q),
                       .ratio_a = ratio_a,
                       .ratio_b = ratio_b,
                       .size = (int)size,
                       .witness = found ? cells : NULL,
                       .infeasible = found ? 0 : (int)size};
    /* Nothing is claimed or written before the certificate is checked: a failed check prints
       its verdict and ends the merge. */
    size_t len;
    char *cert_text = pq_qn_cert_text(&cert, &len);
    pq_check_part verdict = {0};
    pq_check_params params;
    pq_check_params_init(&params);
    params.verdict = &verdict;
    params.deadline = pq_command_deadline; /* (--time-limit) */
    rc = pq_check_text("merge", o->cert, cert_text, len, &params);
    checked = rc == PQ_OK && verdict.verdict == PQ_VALID;
    if (rc == PQ_EFALSE) printf("invalid: %s\n", verdict.message);
    if (checked) rc = pq_write_text_atomic(o->cert, cert_text, len);
    free(cert_text);
  }
  if (rc == PQ_OK && list)
    print_listed(o, &in, size, unique, parts, &mg, pr.listed);
  else if (rc == PQ_OK)
    print_merged(o, &in, size, counting, parts, &mg, found ? text : NULL,
                 (long)(subpart % (uint64_t)parts) + 1, checked);
  free(text);
  free(cells);
  pq_qn_free(q);
  pq_board_free(b);
  return rc;
}

/* ---- checkpoints ---- */

/* The checkpoint's facts: the command's size and count, and what the run has established. */
static char *facts_of(const pq_qn_run *r) {
  char *text = NULL,
       kinds[3] = {pq_piece_letters[r->in->first], pq_piece_letters[r->in->second], 0};
  size_t len = 0;
  FILE *f = pq_memstream(&text, &len);
  if (r->size < 0)
    fputs("\"run_size\":null", f);
  else
    fprintf(f, "\"run_size\":%d", r->size);
  fprintf(f, ",\"run_count\":%s,\"run_list\":%s,\"best\":%d", r->counting ? "true" : "false",
          r->listing ? "true" : "false", r->best);
  if (r->best >= 0) {
    char *w = pq_malloc((size_t)r->in->board->squares + (size_t)r->in->board->height + 1);
    pq_placement_text(r->in->board, r->best_witness, kinds, w);
    fprintf(f, ",\"best_witness\":\"%s\"", w);
    free(w);
  }
  fprintf(f, ",\"infeasible\":%d", r->infeasible);
  if (r->infeasible >= 0) fprintf(f, ",\"proved_by\":\"%s\"", pq_method_name(r->proved_by));
  fclose(f);
  return text;
}

static void write_checkpoint(FILE *f, void *arg) {
  const pq_qn_run *r = arg;
  names n;
  names_of(r->in, 0, &n);
  char *facts = facts_of(r);
  fprintf(f,
          "{\"format\":\"peaceable-checkpoint\",\"version\":2,\"problem\":\"qn\",\"board\":\"%s\","
          "\"kinds\":\"%s\",\"ratio\":\"%s\",%s,\"nodes\":0}\n",
          n.board, n.kinds, n.ratio, facts);
  free(facts);
}

pq_status pq_qn_run_save(pq_qn_run *r) {
  if (!r->checkpoint || r->pending) return PQ_OK;
  if (pq_engine_save_failed()) return PQ_EIO; /* a write failed (said): the run ends there */
  return pq_engine_save_sealed(r->checkpoint, write_checkpoint, r);
}

pq_status pq_qn_run_found(pq_qn_run *r, int k, const uint8_t *witness) {
  if (k <= r->best) return PQ_OK;
  r->best = k;
  memcpy(r->best_witness, witness, (size_t)r->in->board->squares);
  return pq_qn_run_save(r);
}

static pq_status refuse(const pq_qn_run *r, const char *why) {
  pq_error("--resume %s: %s", r->resume, why);
  return PQ_EINVAL;
}

/* Reads the work in progress of a checkpoint (doc: one with a split) into r->pending, after
   checking it is of this run at a size it has still to settle, and of the same split. The engine
   takes its finished parts when that decision or count comes. */
static pq_status read_stage(pq_qn_run *r, const pq_json *doc) {
  if (!pq_json_get(doc, "split")) return PQ_OK;
  int counting = pq_json_get_bool(doc, "counting");
  long at, subparts;
  if (counting < 0 || pq_json_get_long(doc, "size", 0, r->in->board->squares, &at) ||
      pq_json_get_long(doc, "subparts", 1, __LONG_MAX__, &subparts) ||
      !pq_json_get_string(doc, "split"))
    return refuse(r, "malformed checkpoint (size, counting, split or subparts)");
  /* A decision still open, or the count the run is at. */
  bool open = counting ? r->counting && r->best == at &&
                             (r->size >= 0 ? at == r->size : r->infeasible == at + 1)
                       : r->best < at && (r->infeasible < 0 || at < r->infeasible) &&
                             (r->size < 0 || at == r->size);
  if (!open) return refuse(r, "malformed checkpoint (its stage does not follow its best size)");
  if (at * (r->in->ratio_a + r->in->ratio_b) > r->in->board->squares)
    return refuse(r, "malformed checkpoint (size: the pieces do not fit)");
  uint64_t id, n = pq_qn_parts(r->in->q, (int)at, &id, NULL);
  char want[24];
  snprintf(want, sizeof want, "%016" PRIx64, id);
  if ((uint64_t)subparts != (n ? n : 1) || !same_string(doc, "split", want))
    return refuse(r, "a checkpoint of another split (another version of the search)");
  r->pending = true;
  r->pending_counting = counting;
  r->pending_at = (int)at;
  return PQ_OK;
}

/* Checks the facts of checkpoint doc and takes them into r. */
static pq_status read_facts(pq_qn_run *r, const pq_json *doc) {
  const char *witness = pq_json_get_string(doc, "best_witness"),
             *proved_by = pq_json_get_string(doc, "proved_by");
  long best, infeasible;
  int squares = r->in->board->squares;
  if (pq_json_get_long(doc, "best", -1, squares, &best) ||
      pq_json_get_long(doc, "infeasible", -1, squares, &infeasible) ||
      infeasible == 0 /* size 0 always fits */ || (best >= 0) != (witness != NULL) ||
      (infeasible >= 0 &&
       (!proved_by || (strcmp(proved_by, "search") && strcmp(proved_by, "ilp")))) ||
      (infeasible >= 0 && best >= infeasible) ||
      (r->size >= 0 &&
       ((best >= 0 && best != r->size) || (infeasible >= 0 && infeasible != r->size))))
    return refuse(r, "malformed checkpoint (best, best_witness, infeasible, proved_by)");
  if (best >= 0 && !witness_ok(r->in, witness, (int)best, r->best_witness))
    return refuse(r,
                  "its witness is not a placement of its size in which no piece attacks another");
  r->best = (int)best;
  r->infeasible = (int)infeasible;
  if (infeasible >= 0) pq_engine_on_word(); /* the proof that it does not fit is not here */
  r->proved_by = infeasible >= 0 && !strcmp(proved_by, "ilp") ? PQ_METHOD_ILP : PQ_METHOD_SEARCH;
  return read_stage(r, doc);
}

pq_status pq_qn_run_start(pq_qn_run *r) {
  r->best = r->infeasible = -1;
  r->proved_by = PQ_METHOD_SEARCH;
  r->pending = false;
  if (!r->resume) return PQ_OK;
  pq_json *doc;
  pq_status opened = pq_engine_open_checkpoint(r->resume, "qn", &doc);
  if (opened) return opened;
  names n;
  names_of(r->in, 0, &n);
  const pq_json *size = pq_json_get(doc, "run_size");
  long at_size = -2;
  pq_status rc;
  if (!size && pq_json_get(doc, "split")) {
    rc = refuse(r, "the checkpoint of a part (--part I/N), which holds no run's facts: resume it "
                   "with its --part");
  } else if (!size || (size->type != PQ_JSON_NULL &&
                       pq_json_get_long(doc, "run_size", 0, PQ_MAX_SQUARES, &at_size))) {
    rc = refuse(r, "malformed checkpoint (run_size)");
  } else if (!same_string(doc, "board", n.board) || !same_string(doc, "kinds", n.kinds) ||
             !same_string(doc, "ratio", n.ratio) ||
             (size->type == PQ_JSON_NULL ? -1 : at_size) != r->size ||
             pq_json_get_bool(doc, "run_count") != r->counting ||
             (pq_json_get(doc, "run_list") ? pq_json_get_bool(doc, "run_list") : 0) != r->listing) {
    rc = refuse(r, "a checkpoint of another board, kinds, ratio, --size, --count or --list");
  } else {
    rc = read_facts(r, doc);
  }
  pq_json_free(doc);
  return rc;
}

/* The engine's files for a decision (counting: a count) of size m: the resumed checkpoint when
   its work in progress is this one (taken up now), and the checkpoint to write unless resumed
   work is still to come. */
static void files_for(pq_qn_run *r, bool counting, int m, pq_qn_limits *lp) {
  lp->run.resume = NULL;
  if (r->pending && r->pending_counting == counting && r->pending_at == m) {
    lp->run.resume = r->resume;
    r->pending = false;
  } else if (r->pending && !r->pending_counting && !counting && m > r->pending_at) {
    r->pending = false; /* the loop passed it: it will not come */
  }
  lp->run.checkpoint = r->pending ? NULL : r->checkpoint;
}

pq_status pq_qn_run_decide(pq_qn_run *r, int m, const pq_qn_limits *l, bool *found,
                           uint8_t *witness, uint64_t *nodes) {
  PQ_REQUIRE(m >= 1, "decide size %d by parts", m);
  pq_qn_limits lp = *l;
  files_for(r, false, m, &lp);
  char *facts = facts_of(r);
  lp.facts = facts;
  pq_status rc = pq_qn_decide(r->in->q, m, &lp, found, witness, nodes);
  free(facts);
  if (rc == PQ_OK && *found) {
    rc = pq_qn_run_found(r, m, witness);
  } else if (rc == PQ_OK && (r->infeasible < 0 || m < r->infeasible)) {
    r->infeasible = m;
    r->proved_by = PQ_METHOD_SEARCH;
    rc = pq_qn_run_save(r); /* settled: the decision needs no parts any more */
  }
  return rc;
}

pq_status pq_qn_run_count(pq_qn_run *r, int m, const pq_qn_limits *l, const pq_qn_lister *list,
                          pq_qn_count_result *out) {
  pq_qn_limits lp = *l;
  files_for(r, true, m, &lp);
  char *facts = facts_of(r);
  lp.facts = facts;
  /* The counts stay in the checkpoint, also once complete: a resume then answers at once (a
     listing's placements are in its lines file, printed again). */
  pq_status rc =
      list ? pq_qn_count(r->in->q, m, &lp, list->visit, list->one_per_class, list->ctx, out)
           : pq_qn_count(r->in->q, m, &lp, NULL, false, NULL, out);
  free(facts);
  return rc;
}
