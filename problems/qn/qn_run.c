/* qn_run.c: the calls of the qn search through the engine (src/run/engine.h): decisions, counts and
   listings on threads, --part I/N lines and their merge, checkpoints; the quick witness; checks
   of placements. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/placement.h"
#include "../../src/core/sym.h"
#include "qn_search.h"

static int add_outcome(void *ctx, void *total, const void *part) {
  (void)ctx;
  pq_qn_outcome *t = total;
  const pq_qn_outcome *o = part;
  t->found |= o->found;
  return pq_count_add(&t->count, o->count) | pq_count_add(&t->unique, o->unique) |
         pq_count_add(&t->plain_fixed, o->plain_fixed);
}

static void write_outcome(void *ctx, FILE *f, const void *part) {
  const pq_qn_call *c = ctx;
  const pq_qn_outcome *o = part;
  char count[48], unique[48];
  if (c->mode == PQ_QN_DECIDE)
    fprintf(f, "\"found\":%s", o->found ? "true" : "false");
  else
    fprintf(f, "\"count\":%s,\"unique\":%s", pq_count_str(o->count, count),
            pq_count_str(o->unique, unique));
}

static const char *read_outcome(void *ctx, const pq_json *v, void *part) {
  const pq_qn_call *c = ctx;
  pq_qn_outcome *o = part;
  if (c->mode == PQ_QN_DECIDE) {
    int found = pq_json_get_bool(v, "found");
    if (found < 0) return "its \"found\" is not true or false";
    o->found = found;
    return NULL;
  }
  if (pq_json_count(pq_json_get(v, "count"), &o->count) ||
      pq_json_count(pq_json_get(v, "unique"), &o->unique))
    return "its count and unique are not whole numbers below 2^128";
  /* A listing of one placement a class: each class holds one placement at least. */
  if (c->visit && c->one_per_class && o->count < o->unique)
    return "its count is below the classes it listed";
  return NULL;
}

static bool decisive(void *ctx, const void *part) {
  (void)ctx;
  return ((const pq_qn_outcome *)part)->found;
}

/* Deciding: the witness of the part that decided. Every text is checked, never trusted: in a
   merge each part line's, in a resumed run the checkpoint's. */
static void emit_witness(void *ctx, uint64_t part, const char *text, size_t len) {
  pq_qn_call *c = ctx;
  if (!text || c->bad || (c->found && !c->merging)) return;
  const pq_qn *q = c->q;
  uint8_t cells[PQ_MAX_SQUARES];
  char *copy = pq_malloc(len + 1);
  memcpy(copy, text, len);
  copy[len] = 0;
  const char *where = c->merging ? "merge" : "--resume",
             *file = c->merging ? NULL : c->lim->run.resume;
  if (pq_placement_parse(q->board, copy, c->kinds, cells)) {
    c->bad = true; /* the parser said what was wrong */
  } else if (!pq_qn_placement_ok(q->board, q->piece[0], q->piece[1], q->ratio[0], q->ratio[1],
                                 cells, c->m)) {
    pq_error("%s%s%s: the witness of subpart %" PRIu64 " is not a placement of size %d in which "
             "no piece attacks another",
             where, file ? " " : "", file ? file : "", part, c->m);
    c->bad = true;
  } else if (!c->found) {
    memcpy(c->witness, cells, (size_t)q->squares);
    c->found = true;
    c->witness_part = part;
  }
  free(copy);
}

/* Listing: a part's placements (lines of digits, qn_search.c), to the visitor in the order of the
   parts. */
static void emit_placements(void *ctx, uint64_t part, const char *text, size_t len) {
  (void)part;
  pq_qn_call *c = ctx;
  uint8_t cells[PQ_MAX_SQUARES];
  for (size_t at = 0; !atomic_load(&c->stopped) &&
                      pq_engine_text_cells(text, len, &at, (size_t)c->q->squares, cells);)
    if (c->visit(c->visit_ctx, cells)) atomic_store(&c->stopped, 1);
}

/* The lines of a listing's part's text, by its outcome: a placement a line, or a class a line. */
static uint64_t placements_listed(void *ctx, uint64_t part, const void *outcome) {
  (void)part;
  const pq_qn_call *c = ctx;
  const pq_qn_outcome *o = outcome;
  pq_count n = c->one_per_class ? o->unique : o->count;
  return n < UINT64_MAX - 1 ? (uint64_t)n : UINT64_MAX - 1;
}

/* The part of a listing that lists a placement: the one whose first outer squares begin the least
   image of its outer set (the set the search placed, whose images it lists), or UINT64_MAX when
   no part begins so. */
static uint64_t part_of(pq_qn_call *c, const uint8_t *cells) {
  const pq_qn *q = c->q;
  int n = 0, sq[PQ_MAX_SQUARES], least[PQ_MAX_SQUARES];
  for (int s = 0; s < q->squares; s++)
    if (cells[s] == q->outer + 1) sq[n++] = s;
  if (n < c->depth) return UINT64_MAX;
  pq_qn_least_image(q, sq, n, least);
  if (!c->keys) {
    /* The split made again, its parts' keys kept: with no limit (a deadline would cut the list
       short) and the call's own split as it was. */
    const pq_qn_limits *run = c->lim;
    uint64_t parts = c->parts, fingerprint = c->fingerprint;
    pq_status split = c->split;
    pq_qn_limits none;
    pq_qn_limits_init(&none);
    none.symmetry = run->symmetry;
    c->lim = &none;
    pq_qn_split(c, NULL, &c->keys);
    PQ_REQUIRE(c->parts == parts && c->fingerprint == fingerprint, "the split made again differs");
    c->lim = run;
    c->split = split;
  }
  uint64_t key = pq_qn_part_key(least, c->depth), lo = 0, hi = c->parts;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (c->keys[mid] < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < c->parts && c->keys[lo] == key ? lo : UINT64_MAX;
}

/* The engine's check of a listing's part's text read from a file (a checkpoint, its lines file, a
   part line): every line a placement of the size in which no piece attacks another (plain
   geometry), with --unique the canonical one of its class, and with the part's outcome as many
   lines as it counted. That no placement is missing rests on the parts' word. */
static const char *check_placements(void *ctx, uint64_t part, const void *outcome, const char *text,
                                    size_t len) {
  pq_qn_call *c = ctx;
  const pq_qn *q = c->q;
  size_t n = (size_t)q->squares;
  uint8_t cells[PQ_MAX_SQUARES], canon[PQ_MAX_SQUARES];
  if (len % (n + 1)) return "its text is not whole lines of the board";
  for (size_t at = 0; at < len; at += n + 1) {
    bool ok = text[at + n] == '\n';
    for (size_t i = 0; ok && i < n; i++) {
      ok = text[at + i] >= '0' && text[at + i] <= '2';
      cells[i] = (uint8_t)(text[at + i] - '0');
    }
    const char *bad = NULL;
    if (!ok || !pq_qn_placement_ok(q->board, q->piece[0], q->piece[1], q->ratio[0], q->ratio[1],
                                   cells, c->m))
      bad = "is not a placement of the size in which no piece attacks another";
    else if (c->one_per_class &&
             (pq_sym_canonical(q->board, cells, NULL, canon), memcmp(canon, cells, n)))
      bad = "is not the first of its class";
    /* (A split of the symmetries into parts, as every listing in files has.) */
    else if (part != UINT64_MAX && c->m > 0 && c->parts > 0 && c->lim->symmetry &&
             part_of(c, cells) != part)
      bad = "is of another subpart";
    if (bad) {
      snprintf(c->why, sizeof c->why, "line %zu of its text %s (size %d)", at / (n + 1) + 1, bad,
               c->m);
      return c->why;
    }
  }
  if (outcome && placements_listed(ctx, part, outcome) != len / (n + 1))
    return "its text does not have the lines its outcome says it listed";
  return NULL;
}

#define QN_PROBLEM                                                                                 \
  .name = "qn", .outcome_size = sizeof(pq_qn_outcome), .solver_new = pq_qn_solver_new,             \
  .solver_free = pq_qn_solver_free, .solver_nodes = pq_qn_solver_nodes, .run = pq_qn_search_parts, \
  .add = add_outcome, .write = write_outcome, .read = read_outcome

static const pq_engine_problem decide_problem = {QN_PROBLEM, .decisive = decisive,
                                                 .emit = emit_witness};
static const pq_engine_problem count_problem = {QN_PROBLEM};
static const pq_engine_problem list_problem = {QN_PROBLEM, .emit = emit_placements,
                                               .check_text = check_placements,
                                               .text_lines = placements_listed};

/* Sets up c for a call of size m, counting its parts. */
static void ctx_init(pq_qn_call *c, const pq_qn *q, int m, pq_qn_mode md, const pq_qn_limits *l) {
  memset(c, 0, sizeof *c);
  c->q = q;
  c->m = m;
  c->mode = md;
  c->lim = l;
  atomic_init(&c->stopped, 0);
  atomic_init(&c->polled, 0);
  atomic_init(&c->overflow, 0);
  c->kinds[0] = pq_piece_letters[q->piece[0]];
  c->kinds[1] = pq_piece_letters[q->piece[1]];
  snprintf(c->head, sizeof c->head,
           "\"board\":\"%dx%d\",\"kinds\":\"%s\",\"ratio\":\"%d:%d\",\"size\":%d,\"counting\":%s",
           q->width, q->height, c->kinds, q->ratio[0], q->ratio[1], m,
           md == PQ_QN_COUNT ? "true" : "false");
  snprintf(c->label, sizeof c->label, "%s of qn %s %d:%d size %d on %dx%d",
           md == PQ_QN_COUNT ? "count" : "decision", c->kinds, q->ratio[0], q->ratio[1], m,
           q->width, q->height);
  pq_qn_split(c, NULL, NULL);
}

/* A listing: visit gets its placements (one_per_class: one a class). Its head and label say so:
   no count's or other listing's file is taken for its own. */
static void listing(pq_qn_call *c, pq_qn_visit_fn visit, bool one_per_class, void *ctx) {
  c->visit = visit;
  c->visit_ctx = ctx;
  c->one_per_class = one_per_class;
  size_t n = strlen(c->head);
  snprintf(c->head + n, sizeof c->head - n, "%s", pq_engine_list_member(true, one_per_class));
  snprintf(c->label, sizeof c->label, "listing of qn %s %d:%d size %d on %dx%d%s", c->kinds,
           c->q->ratio[0], c->q->ratio[1], c->m, c->q->width, c->q->height,
           one_per_class ? " with --unique" : "");
}

static pq_engine_split split_of(const pq_qn_call *c) {
  return (pq_engine_split){.parts = c->parts ? c->parts : 1,
                           .id = c->fingerprint,
                           .head = c->head,
                           .what = c->visit ? "board, kinds, ratio, size, count, list"
                                            : "board, kinds, ratio, size, count",
                           .label = c->label};
}

/* Runs c through the engine into *total; *nodes gets the nodes searched. */
static pq_status engine_go(pq_qn_call *c, const pq_engine_problem *pb, pq_qn_outcome *total,
                           uint64_t *nodes) {
  const pq_qn_limits *l = c->lim;
  *nodes = 0;
  if (c->split) return c->split; /* (stopped while its parts were made) */
  PQ_REQUIRE(l->symmetry || !(l->run.checkpoint || l->run.resume || l->run.parts),
             "parts are saved and run apart with symmetry on");
  void *first = pq_qn_solver_new(c);
  pq_engine_task e;
  pq_engine_task_init(&e);
  e.problem = pb;
  e.ctx = c;
  e.split = split_of(c);
  e.solver = first;
  e.lim = l->run;
  if (e.lim.jobs < 1) e.lim.jobs = 1;
  e.facts = l->facts;
  memset(total, 0, sizeof *total);
  pq_engine_result r;
  pq_status rc = pq_engine_run(&e, total, &r);
  *nodes = r.nodes;
  pq_qn_solver_free(first);
  return rc;
}

uint64_t pq_qn_parts(const pq_qn *q, int m, uint64_t *fingerprint, int **first) {
  PQ_REQUIRE(m >= 0, "the parts of size %d", m);
  pq_qn_limits l;
  pq_qn_limits_init(&l);
  pq_qn_call c;
  ctx_init(&c, q, m, PQ_QN_COUNT, &l);
  *fingerprint = c.fingerprint;
  if (first) pq_qn_split(&c, first, NULL);
  return c.parts;
}

pq_status pq_qn_decide(const pq_qn *q, int m, const pq_qn_limits *l, bool *found, uint8_t *witness,
                       uint64_t *nodes) {
  pq_qn_call c;
  ctx_init(&c, q, m < 0 ? 0 : m, PQ_QN_DECIDE, l);
  c.witness = witness;
  memset(witness, 0, (size_t)q->squares);
  pq_qn_outcome total;
  uint64_t searched = 0;
  pq_status rc = engine_go(&c, &decide_problem, &total, &searched);
  if (c.bad || (rc == PQ_OK && !l->run.parts && total.found != c.found)) {
    /* Only a checkpoint's parts can do this: the search's own witnesses are placements. */
    if (!c.bad)
      pq_error("--resume %s: a finished part says it holds a witness and gives none, or gives one "
               "and says it holds none",
               l->run.resume ? l->run.resume : "");
    rc = PQ_EINVAL;
  }
  *found = rc == PQ_OK && total.found;
  if (nodes) *nodes = searched;
  return rc;
}

pq_status pq_qn_count(const pq_qn *q, int m, const pq_qn_limits *l, pq_qn_visit_fn visit,
                      bool one_per_class, void *ctx, pq_qn_count_result *out) {
  memset(out, 0, sizeof *out);
  pq_qn_call c;
  ctx_init(&c, q, m < 0 ? 0 : m, PQ_QN_COUNT, l);
  if (visit) listing(&c, visit, one_per_class, ctx);
  pq_qn_outcome total;
  pq_status rc = engine_go(&c, visit ? &list_problem : &count_problem, &total, &out->nodes);
  free(c.keys);
  out->stopped = atomic_load(&c.stopped);
  out->overflow = atomic_load(&c.overflow);
  if (rc == PQ_ELIMIT && out->stopped) rc = PQ_OK; /* the visitor asked to stop */
  /* No counts but complete ones. */
  if (rc == PQ_OK) {
    out->count = total.count;
    out->unique = l->symmetry ? total.unique : total.plain_fixed / (pq_count)q->nsyms;
  }
  return rc;
}

pq_status pq_qn_merge_lines(const pq_qn *q, int m, bool counting, pq_json *const *lines, int n,
                            const pq_qn_lister *list, bool *found, uint8_t *witness,
                            uint64_t *subpart, pq_qn_count_result *out) {
  pq_qn_limits l;
  pq_qn_limits_init(&l);
  pq_qn_call c;
  ctx_init(&c, q, m, counting ? PQ_QN_COUNT : PQ_QN_DECIDE, &l);
  if (list) listing(&c, list->visit, list->one_per_class, list->ctx);
  c.witness = witness;
  c.merging = true;
  memset(witness, 0, (size_t)q->squares);
  memset(out, 0, sizeof *out);
  pq_qn_outcome total = {0, 0, 0, 0};
  pq_engine_split sp = split_of(&c);
  const pq_engine_problem *pb = list ? &list_problem : counting ? &count_problem : &decide_problem;
  pq_status rc = pq_engine_merge(pb, &c, &sp, lines, n, &total, &out->nodes);
  free(c.keys);
  if (rc == PQ_OK && c.bad) rc = PQ_EINVAL;
  if (rc == PQ_OK && !counting && total.found != c.found) {
    pq_error("merge: a part says it found a witness and gives none");
    rc = PQ_EINVAL;
  }
  *found = c.found;
  *subpart = c.witness_part;
  out->count = total.count;
  out->unique = total.unique;
  return rc;
}

pq_piece pq_qn_split_piece(const pq_qn *q) { return q->piece[q->outer]; }

int pq_qn_heuristic(const pq_qn *q, const pq_qn_limits *l, uint8_t *witness, uint64_t *nodes) {
  enum { BUDGET = 20000 }; /* nodes per size: a quick try, not a proof */
  pq_qn_limits quick = *l;
  quick.run.checkpoint = quick.run.resume = quick.facts = NULL;
  quick.run.part = quick.run.parts = 0;
  quick.run.jobs = 1; /* the budget is counted in one order: the same witness every time */
  uint8_t *w = pq_malloc((size_t)q->squares);
  int best = 0, upper = pq_qn_upper(q);
  uint64_t used = 0;
  memset(witness, 0, (size_t)q->squares);
  for (int m = 1; m <= upper; m++) {
    quick.run.node_limit = BUDGET;
    if (l->run.node_limit) {
      if (used >= l->run.node_limit) break;
      if (l->run.node_limit - used < BUDGET) quick.run.node_limit = l->run.node_limit - used;
    }
    bool found = false;
    uint64_t n = 0;
    pq_status rc = pq_qn_decide(q, m, &quick, &found, w, &n);
    used += n;
    if (rc != PQ_OK || !found) break;
    best = m;
    memcpy(witness, w, (size_t)q->squares);
  }
  free(w);
  if (nodes) *nodes = used;
  return best;
}

/* ---- placements ---- */

/* Checked pair by pair with plain geometry, independently of the engine. */
bool pq_qn_placement_ok(const pq_board *b, pq_piece first, pq_piece second, int ratio_a,
                        int ratio_b, const uint8_t *cells, int size) {
  int count[3] = {0};
  pq_piece piece[3] = {PQ_KING, first, second};
  for (int s = 0; s < b->squares; s++) {
    if (cells[s] > 2) return false;
    count[cells[s]]++;
    for (int t = 0; t < b->squares && cells[s]; t++)
      if (t != s && cells[t] && pq_attacks_plain(b, piece[cells[s]], s, t)) return false;
  }
  return count[1] == ratio_a * size && count[2] == ratio_b * size;
}

void pq_qn_describe(pq_piece first, pq_piece second, int ratio_a, int ratio_b, int k, char *buf,
                    size_t len) {
  int a = ratio_a * k, b = ratio_b * k;
  snprintf(buf, len, "%d %s and %d %s", a, pq_piece_name(first, a), b, pq_piece_name(second, b));
}

void pq_qn_json_open(const pq_board *b, const char *kinds, int ratio_a, int ratio_b, long size) {
  printf(
      "{\"problem\":\"qn\",\"board\":\"%dx%d\",\"kinds\":\"%s\",\"ratio\":\"%d:%d\",\"size\":%ld",
      b->width, b->height, kinds, ratio_a, ratio_b, size);
}
