/* armies_parts.c: armies decisions through the engine (src/run/engine.h): threads, --part I/N
   results and their merge, checkpoints, proof trees as the parts' texts. */
#include "armies_parts.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/placement.h"
#include "../../src/run/outer.h"
#include "armies_colours.h"
#include "armies_knights.h"
#include "armies_run.h"

/* An outcome: whether the part (or the parts added) holds a witness, where the witness is kept in
   the run's table, and the first part that found it (totals keep the lowest). */
typedef struct outcome {
  uint32_t found;
  uint32_t slot;
  uint64_t at;
} outcome;

typedef struct pq_armies_run {
  const pq_armies_task *task;
  const pq_board *board;
  int white, black;
  bool proof, grow;
  pq_armies_split *sp;
  pq_engine_problem problem; /* with emit only when proofs are kept */
  char head[160], label[128], letters[3], why[160];
  const volatile int *cancel;
  pthread_mutex_t lock;
  uint8_t **witness; /* under lock: the witnesses found or read, by slot */
  uint32_t nwitness, room;
  char **trees; /* per part, when proof: its tree, handed over by emit in the parts' order */
} pq_armies_run;

/* A thread's share: on a cache line of its own, as the threads write it at every poll. */
typedef struct solver {
  _Alignas(64) uint64_t nodes;
  uint64_t polled; /* nodes of the part under way told to the engine */
  pq_engine_worker *w;
  const volatile int *cancel;
} solver;

static void board_name(const pq_board *b, char *buf) {
  snprintf(buf, 16, "%dx%d", b->width, b->height);
}

static void *solver_new(void *ctx) {
  (void)ctx;
  solver *s = aligned_alloc(64, sizeof(solver));
  PQ_REQUIRE(s, "out of memory");
  memset(s, 0, sizeof *s);
  return s;
}

static void solver_free(void *s) { free(s); }

static uint64_t solver_nodes(const void *s) { return ((const solver *)s)->nodes; }

static uint32_t keep_witness(pq_armies_run *d, const uint8_t *cells) {
  pthread_mutex_lock(&d->lock);
  if (d->nwitness == d->room)
    d->witness = pq_realloc(d->witness, (d->room = 2 * d->room + 4) * sizeof *d->witness);
  uint32_t slot = d->nwitness++;
  d->witness[slot] = pq_malloc((size_t)d->board->squares);
  memcpy(d->witness[slot], cells, (size_t)d->board->squares);
  pthread_mutex_unlock(&d->lock);
  return slot;
}

/* Part `part` (from pq_engine_next(w)) is done with result r: tells the engine, and adds its
   nodes to the solver's. */
static void run_done(pq_armies_run *d, void *s, pq_engine_worker *w, int part,
                     const pq_armies_part *r) {
  outcome o = {0, 0, 0};
  ((solver *)s)->nodes += r->nodes;
  if (r->found) {
    uint8_t cells[PQ_MAX_SQUARES];
    pq_armies_witness(d->task->armies, r, d->white, d->black, d->grow, cells);
    o = (outcome){1, keep_witness(d, cells), (uint64_t)part};
  }
  bool tree = d->proof && r->tree;
  pq_engine_done(w, (uint64_t)part, &o, r->nodes, tree ? r->tree : NULL,
                 tree ? strlen(r->tree) : 0);
}

/* The engine's poll, and a race's cancellation. */
static pq_status poll(void *arg, uint64_t nodes) {
  solver *s = arg;
  s->polled += nodes;
  if (s->cancel && *s->cancel) return PQ_ELIMIT;
  return pq_engine_poll(s->w, nodes);
}

static pq_status run_parts(void *ctx, void *sv, pq_engine_worker *w) {
  pq_armies_run *d = ctx;
  solver *s = sv;
  s->w = w;
  s->cancel = d->cancel;
  pq_armies_params p;
  pq_armies_params_init(&p);
  p.poll = poll;
  p.poll_ctx = s;
  for (uint64_t i; (i = pq_engine_next(w)) != UINT64_MAX;) {
    pq_armies_part r;
    s->polled = 0;
    pq_status rc = pq_armies_split_run_one(d->sp, (int)i, &p, &r);
    if (!r.done) {
      s->nodes += r.nodes;
      free(r.tree);
      return rc ? rc : PQ_ELIMIT;
    }
    run_done(d, s, w, (int)i, &r);
    free(r.tree);
    /* The part's nodes the polls did not pass on (a part may end before its search polls). */
    if ((rc = poll(s, r.nodes > s->polled ? r.nodes - s->polled : 0))) return rc;
  }
  return PQ_OK;
}

static int add(void *ctx, void *total, const void *more) {
  (void)ctx;
  outcome *t = total;
  const outcome *m = more;
  if (m->found && (!t->found || m->at < t->at)) *t = *m;
  return 0;
}

static void write_outcome(void *ctx, FILE *f, const void *value) {
  pq_armies_run *d = ctx;
  const outcome *o = value;
  if (!o->found) {
    fputs("\"found\":false", f);
    return;
  }
  char *text = pq_malloc((size_t)d->board->squares + (size_t)d->board->height + 1);
  pthread_mutex_lock(&d->lock);
  pq_placement_text(d->board, d->witness[o->slot], d->letters, text);
  pthread_mutex_unlock(&d->lock);
  fprintf(f, "\"found\":true,\"at\":%" PRIu64 ",\"witness\":\"%s\"", o->at, text);
  free(text);
}

/* Why cells are not a witness of the decision (white and black pieces, or with grow as many as
   a leaf allows: equal armies stay equal), or NULL. Checked with plain geometry, not trusted. */
static const char *not_witness(pq_armies_run *d, const uint8_t *cells) {
  const pq_board *b = d->board;
  pq_piece p = pq_armies_piece(d->task->armies);
  int count[3] = {0, 0, 0};
  bool attacks = false;
  for (int s = 0; s < b->squares; s++) {
    count[cells[s]]++;
    for (int t = 0; t < b->squares && cells[s] == 1 && !attacks; t++)
      attacks = cells[t] == 2 && pq_attacks_plain(b, p, s, t);
  }
  bool sizes = count[1] == d->white && count[2] == d->black;
  if (d->grow)
    sizes = count[2] >= d->black &&
            (d->white == d->black ? count[1] == count[2] : count[1] == d->white);
  if (sizes && !attacks) return NULL;
  snprintf(d->why, sizeof d->why,
           "its witness is not %d white against %d black that do not attack each other", d->white,
           d->black);
  return d->why;
}

static const char *read_outcome(void *ctx, const pq_json *v, void *value) {
  pq_armies_run *d = ctx;
  outcome *o = value;
  int found = pq_json_get_bool(v, "found");
  memset(o, 0, sizeof *o);
  if (found < 0) return "its \"found\" is not true or false";
  if (!found) return NULL;
  const char *text = pq_json_get_string(v, "witness");
  long at;
  uint8_t cells[PQ_MAX_SQUARES];
  if (pq_json_get_long(v, "at", 0, pq_armies_split_parts(d->sp) - 1, &at))
    return "its \"at\" is not a part of the split";
  if (!text || pq_placement_read(d->board, text, d->letters, cells, d->why))
    return "its witness is not a placement on the board";
  const char *why = not_witness(d, cells);
  if (why) return why;
  *o = (outcome){1, keep_witness(d, cells), (uint64_t)at};
  return NULL;
}

static bool decisive(void *ctx, const void *value) {
  (void)ctx;
  return ((const outcome *)value)->found;
}

static uint64_t found_at(void *ctx, const void *value) {
  (void)ctx;
  return ((const outcome *)value)->at;
}

static void emit(void *ctx, uint64_t part, const char *text, size_t len) {
  pq_armies_run *d = ctx;
  if (!text) return;
  free(d->trees[part]);
  d->trees[part] = pq_malloc(len + 1);
  memcpy(d->trees[part], text, len);
  d->trees[part][len] = 0;
}

static const pq_engine_problem decision_problem = {
    .name = "armies",
    .outcome_size = sizeof(outcome),
    .solver_new = solver_new,
    .solver_free = solver_free,
    .solver_nodes = solver_nodes,
    .run = run_parts,
    .add = add,
    .write = write_outcome,
    .read = read_outcome,
    .decisive = decisive,
    .found_at = found_at,
    .emit = emit,
    .private_texts = true, /* proof trees: a part writes them to its certificate file */
};

/* Sets d and the engine's task e up for task's decision. */
static void run_setup(pq_armies_run *d, const pq_armies_task *task, pq_engine_task *e) {
  const pq_armies_params *p = task->params;
  memset(d, 0, sizeof *d);
  d->task = task;
  d->board = task->board;
  d->white = task->white;
  d->black = task->black;
  d->proof = p->proof;
  d->grow = p->grow;
  d->cancel = p->cancel;
  pthread_mutex_init(&d->lock, NULL);
  d->sp = pq_armies_split_new(task->armies, task->white, task->black, p->symmetry, task->depth,
                              p->proof, p->also);
  uint64_t parts = (uint64_t)pq_armies_split_parts(d->sp);
  d->trees = pq_calloc(parts + 1, sizeof *d->trees);
  d->problem = decision_problem;
  if (!d->proof) d->problem.emit = NULL;
  char piece = pq_piece_letters[pq_armies_piece(task->armies)];
  d->letters[0] = piece;
  d->letters[1] = (char)(piece - 'A' + 'a');
  snprintf(d->head, sizeof d->head,
           "\"board\":\"%dx%d\",\"piece\":\"%c\",\"white\":%d,\"black\":%d", d->board->width,
           d->board->height, piece, task->white, task->black);
  snprintf(d->label, sizeof d->label, "armies %dx%d, %d against %d", d->board->width,
           d->board->height, task->white, task->black);
  pq_engine_task_init(e);
  e->problem = &d->problem;
  e->ctx = d;
  e->split = (pq_engine_split){.parts = parts,
                               .id = pq_armies_split_id(d->sp),
                               .head = d->head,
                               .what = "board, piece, sizes",
                               .label = d->label};
  e->lim = (pq_engine_limits){.jobs = p->jobs,
                              .node_limit = p->node_limit,
                              .spent = pq_armies_split_nodes(d->sp),
                              .deadline = p->time_limit > 0 ? pq_now() + p->time_limit : 0,
                              .checkpoint = task->checkpoint,
                              .resume = task->resume,
                              .progress = d->label,
                              .part = task->part,
                              .parts = task->parts};
  e->need_texts = d->proof;
}

static void run_clear(pq_armies_run *d) {
  for (uint32_t i = 0; i < d->nwitness; i++)
    free(d->witness[i]);
  free(d->witness);
  for (int i = 0; d->trees && i < pq_armies_split_parts(d->sp); i++)
    free(d->trees[i]);
  free(d->trees);
  pq_armies_split_free(d->sp);
  pthread_mutex_destroy(&d->lock);
}

/* The proof of d's decision from the parts' trees (every part done without a witness), into
   out; PQ_OK, or PQ_EINVAL with a message when a part has no tree. With holes (a part run), the
   parts without a tree are holes, proven in other files. */
static pq_status proof_of(pq_armies_run *d, bool holes, pq_armies_decision *out) {
  int n = pq_armies_split_parts(d->sp);
  pq_armies_part *results = pq_calloc((size_t)n + 1, sizeof *results);
  pq_status rc = PQ_OK;
  for (int i = 0; i < n && rc == PQ_OK; i++) {
    results[i].done = true;
    /* (A serving process has no trees: an empty one keeps the proof's shape, and so its flow.) */
    results[i].tree = d->trees[i] ? d->trees[i] : pq_engine_serving() ? (char *)"" : NULL;
    if (!results[i].tree && !holes) {
      pq_error("armies: --cert needs every part's proof tree, and part %d has none", i);
      rc = PQ_EINVAL;
    }
  }
  if (rc == PQ_OK) pq_armies_split_proof(d->sp, results, holes, out);
  free(results);
  return rc;
}

/* A part run's certificate (task->part_cert): the witness it found, or its file of the proof in
   parts. */
static pq_status write_part_cert(pq_armies_run *d, const pq_armies_task *task,
                                 const outcome *total) {
  char board[16], *text = pq_malloc((size_t)d->board->squares + (size_t)d->board->height + 1);
  board_name(d->board, board);
  pq_armies_decision proof = {0};
  pq_armies_cert cert = {.board = board, .piece = d->letters[0], .part = true};
  pq_status rc = PQ_OK;
  if (total->found) {
    pq_placement_text(d->board, d->witness[total->slot], d->letters, text);
    cert.claim = "feasible";
    cert.witness = text;
    cert.witness_white = d->white;
    cert.witness_black = d->black;
  } else {
    rc = proof_of(d, true, &proof);
    cert.claim = "infeasible";
    cert.white = d->white;
    cert.black = d->black;
    cert.proof = &proof;
  }
  if (rc == PQ_OK) rc = pq_armies_cert_write(task->part_cert, &cert);
  pq_armies_decision_clear(&proof);
  free(text);
  return rc;
}

char *pq_armies_facts(int best, const char *best_witness) {
  size_t n = 64 + (best_witness ? strlen(best_witness) : 0);
  char *facts = pq_malloc(n);
  if (best_witness)
    snprintf(facts, n, "\"best\":%d,\"best_witness\":\"%s\"", best, best_witness);
  else
    snprintf(facts, n, "\"best\":-1");
  return facts;
}

pq_status pq_armies_task_run(const pq_armies_task *task, pq_armies_decision *out) {
  memset(out, 0, sizeof *out);
  pq_armies_run d;
  pq_engine_task e;
  run_setup(&d, task, &e);
  char *facts = pq_armies_facts(task->best, task->best_witness);
  e.facts = facts;
  solver *first = solver_new(&d);
  e.solver = first;
  outcome total = {0, 0, 0};
  pq_engine_result r = {0};
  pq_status rc = pq_engine_run(&e, &total, &r);
  /* Every thread's nodes (and every rank's under MPI), with the split's own. */
  out->nodes = r.nodes + pq_armies_split_nodes(d.sp);
  if (rc == PQ_OK && total.found) {
    out->found = true;
    memcpy(out->witness, d.witness[total.slot], (size_t)d.board->squares);
  } else if (rc == PQ_OK && d.proof && !task->parts) {
    rc = proof_of(&d, false, out);
  }
  if (rc == PQ_OK && task->parts && task->part_cert) rc = write_part_cert(&d, task, &total);
  solver_free(first);
  free(facts);
  run_clear(&d);
  return rc;
}

pq_status pq_armies_task_check(const pq_armies_task *task) {
  pq_armies_run d;
  pq_engine_task e;
  run_setup(&d, task, &e);
  pq_status rc = pq_engine_check_resume(&e);
  run_clear(&d);
  return rc;
}

/* The head of a count's (or a listing's) checkpoint: at the maximum, the maximum it counts at,
   what proved it and its witness (the facts armies_count_cmd.c writes). */
static pq_status read_counting(const pq_json *doc, const char *path, const pq_board *b,
                               pq_armies_resume_info *info) {
  const char *witness = pq_json_get_string(doc, "best_witness"),
             *by = pq_json_get_string(doc, "proved_by");
  long m = -1;
  *info = (pq_armies_resume_info){
      .best = -1, .white = -1, .black = -1, .counting = true, .maximum = -1};
  if (!pq_json_get(doc, "maximum")) return PQ_OK; /* at --size K */
  if (pq_json_get_long(doc, "maximum", 0, b->squares / 2, &m) || !witness || !by ||
      (strcmp(by, "search") && strcmp(by, "ilp"))) {
    pq_error("--resume %s: malformed checkpoint (maximum, proved_by, best_witness)", path);
    return PQ_EINVAL;
  }
  info->best = info->maximum = (int)m;
  info->best_witness = pq_strdup(witness);
  info->proved_by = strcmp(by, "ilp") ? PQ_METHOD_SEARCH : PQ_METHOD_ILP;
  return PQ_OK;
}

pq_status pq_armies_resume_read(const char *path, const pq_board *b, pq_piece p,
                                pq_armies_resume_info *info) {
  char board[16], piece[2] = {pq_piece_letters[p], 0};
  board_name(b, board);
  memset(info, 0, sizeof *info);
  pq_json *doc;
  pq_status opened = pq_engine_open_checkpoint(path, "armies", &doc);
  if (opened) return opened;
  const char *bd = pq_json_get_string(doc, "board"), *pc = pq_json_get_string(doc, "piece");
  const char *witness = pq_json_get_string(doc, "best_witness");
  bool learnt = pq_json_get(doc, "learnt") != NULL;
  long best, white = -1, black = -1;
  pq_status rc = PQ_EINVAL;
  if (pq_json_get(doc, "colours"))
    pq_error("--resume %s: a checkpoint of armies of several colours: resume it with its "
             "--colours C",
             path);
  else if (!bd || strcmp(bd, board) || !pc || strcmp(pc, piece))
    pq_error("--resume %s: a checkpoint of another board or piece", path);
  else if (pq_json_get(doc, "counting"))
    rc = read_counting(doc, path, b, info);
  else if (pq_json_get_long(doc, "best", -1, PQ_MAX_SQUARES, &best) || (best >= 0 && !witness) ||
           (!learnt && (pq_json_get_long(doc, "white", 0, PQ_MAX_SQUARES, &white) ||
                        pq_json_get_long(doc, "black", 0, PQ_MAX_SQUARES, &black))))
    pq_error("--resume %s: malformed checkpoint", path);
  else if (learnt != (p == PQ_KNIGHT))
    pq_error("--resume %s: malformed checkpoint (learnt bounds: for knights, and only for them)",
             path);
  else if (!learnt || (rc = pq_armies_knights_resume(b, doc, path)) == PQ_OK) {
    info->best = (int)best;
    info->best_witness = witness ? pq_strdup(witness) : NULL;
    info->white = (int)white;
    info->black = (int)black;
    rc = PQ_OK;
  }
  pq_json_free(doc);
  return rc;
}

/* A merged listing's placement, printed as armies --list prints it. */
typedef struct printer {
  const pq_board *board;
  char letters[3];
  bool json;
  char *text;
} printer;

static int print_placement(void *ctx, const uint8_t *cells, int weight) {
  (void)weight;
  printer *p = ctx;
  pq_placement_line(p->board, cells, p->letters, p->json, p->text);
  return 0;
}

/* A merged listing's end: in JSON the summary of armies --list --json, with the merged tail; in
   text the note of what it rests on. */
static void listed_summary(const pq_options *o, const pq_board *b, char piece, int size,
                           bool unique, long parts, const pq_armies_counted *r) {
  if (!PQ_FLAG(o, json)) {
    /* (With --unique each line is checked to be its class's canonical form.) */
    pq_engine_merged_listing_note(false);
    return;
  }
  char board[16], total[48], classes[48];
  board_name(b, board);
  pq_armies_json_open(board, piece, 2);
  printf(",\"size\":%d%s,\"count\":%s", size, pq_count_claim(false, r->count, PQ_METHOD_SEARCH),
         pq_count_str(r->count, total));
  if (unique) printf(",\"unique\":%s", pq_count_str(r->unique, classes));
  pq_engine_merged_tail(stdout, false, parts, r->nodes);
}

/* Merges count part lines (pq_armies_count_merge) and prints the count as `armies --count`
   does, or a listing's lines as `armies --list` prints them. */
static pq_status merge_counts(pq_json *const *results, int n, const pq_options *o, int width,
                              int height, char piece, int white, int black) {
  int listing = pq_engine_list_of(results[0]); /* (listings are of equal armies) */
  if (listing < 0 || (listing && white != black)) {
    pq_error("merge: malformed armies part result (its \"list\")");
    return PQ_EINVAL;
  }
  if (o->cert) {
    pq_error("merge: --cert applies to decisions, not to %s", listing ? "listings" : "counts");
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
  printer pr = {.board = b,
                .letters = {piece, (char)(piece - 'A' + 'a'), 0},
                .json = PQ_FLAG(o, json),
                .text = pq_malloc((size_t)b->squares + (size_t)b->height + 1)};
  pq_armies_lister list = {listing == 2, print_placement, &pr};
  pq_status rc = pq_armies_count_merge(results, n, a, b, white, black, listing ? &list : NULL, &r);
  free(pr.text);
  if (rc == PQ_OK && listing) {
    listed_summary(o, b, piece, black, list.unique, n, &r);
  } else if (rc == PQ_OK) {
    char total[48], uniq[48], uniq_colour[48];
    pq_count_str(r.count, total);
    pq_count_str(r.unique, uniq);
    pq_count_str(r.unique_colour, uniq_colour);
    /* The shape of armies --count --size K (equal armies: `size`), with `checked`. */
    char board[16];
    board_name(b, board);
    if (PQ_FLAG(o, json)) {
      pq_armies_json_open(board, piece, 2);
      if (white != black) printf(",\"white\":%d", white);
      printf(",\"size\":%d%s,\"count\":%s,\"unique\":%s,\"unique_colour\":%s", black,
             pq_count_claim(false, r.count, PQ_METHOD_SEARCH), total, uniq, uniq_colour);
      pq_engine_merged_tail(stdout, false, n, r.nodes);
    } else
      printf("%s placement%s of %d against %d on %dx%d (on the parts' word: not checked; a count "
             "certificate comes from one run, armies --count --cert)\n%s up to symmetry\n%s up "
             "to symmetry and colour exchange\n",
             total, pq_plural(total), white, black, width, height, uniq, uniq_colour);
  }
  pq_armies_free(a);
  pq_board_free(b);
  return rc;
}

/* Prints what the merged parts decide (the lowest part's witness, or impossible), and writes the
   certificate of it with o->cert. */
static pq_status merge_report(pq_armies_run *d, const outcome *total, uint64_t nodes, long parts,
                              const pq_options *o) {
  char board[16], piece = d->letters[0];
  board_name(d->board, board);
  char *text = pq_malloc((size_t)d->board->squares + (size_t)d->board->height + 1);
  pq_status rc = PQ_OK;
  if (total->found) pq_placement_text(d->board, d->witness[total->slot], d->letters, text);
  /* A witness is checked here; "impossible" is the parts' word: its check is verify (or merge
     --cert) on the certificate files the parts wrote. */
  if (PQ_FLAG(o, json)) {
    /* The shape of the decision's own object (doc/json.md), "checked" for its proof. */
    pq_armies_json_open(board, piece, 2);
    if (d->white != d->black) printf(",\"white\":%d", d->white);
    printf(",\"size\":%d,\"feasible\":%s", d->black, total->found ? "true" : "false");
    if (total->found)
      printf(",\"witness\":\"%s\"", text);
    else
      printf(",\"proved_by\":\"search\"");
    pq_engine_merged_tail(stdout, total->found, parts, nodes);
  } else if (total->found) {
    printf("armies of %d against %d on %s: possible (part %ld/%ld; the witness checked)\n%s\n",
           d->white, d->black, board, (long)(total->at % (uint64_t)parts) + 1, parts, text);
  } else {
    printf("armies of %d against %d on %s: impossible, proven by %ld %s (%" PRIu64 " %s; "
           "on the parts' word: not checked, verify the parts' certificate files)\n",
           d->white, d->black, board, parts, pq_noun(parts, "part", "parts"), nodes,
           nodes == 1 ? "node" : "nodes");
  }
  if (o->cert && total->found) {
    pq_armies_cert cert = {.board = board,
                           .piece = piece,
                           .claim = "feasible",
                           .witness = text,
                           .witness_white = d->white,
                           .witness_black = d->black};
    rc = pq_armies_cert_write(o->cert, &cert);
  }
  free(text);
  return rc;
}

pq_status pq_armies_merge(pq_json *const *results, int n, const pq_options *o) {
  const pq_json *first = results[0];
  if (pq_json_get(first, "colours")) return pq_colours_merge(results, n, o);
  const char *board = pq_json_get_string(first, "board"),
             *piece = pq_json_get_string(first, "piece");
  long white, black, parts;
  int width, height;
  if (board && pq_board_parse("board", board, &width, &height)) return PQ_EINVAL; /* its message */
  if (!board || !piece || strlen(piece) != 1 || pq_piece_from_letter((unsigned char)piece[0]) < 0 ||
      pq_json_get_long(first, "white", 0, PQ_MAX_SQUARES, &white) ||
      pq_json_get_long(first, "black", 0, PQ_MAX_SQUARES, &black) ||
      pq_json_get_long(first, "parts", 1, 1 << 30, &parts)) {
    pq_error("merge: malformed armies part result");
    return PQ_EINVAL;
  }
  if (!strchr("QRB", piece[0])) {
    /* Only line pieces split into parts (found by the merge fuzzer: this aborted). */
    pq_error("merge: part results are of queens, rooks or bishops, not \"%s\"", piece);
    return PQ_EINVAL;
  }
  if (pq_json_get_bool(first, "counting") == 1)
    return merge_counts(results, n, o, width, height, piece[0], (int)white, (int)black);
  if (white + black > width * height) {
    pq_error("merge: malformed armies part result (%ld against %ld on %dx%d)", white, black, width,
             height);
    return PQ_EINVAL;
  }
  pq_board *b = pq_board_new(width, height);
  pq_armies *a = pq_armies_new(b, (pq_piece)pq_piece_from_letter((unsigned char)piece[0]));
  pq_armies_params params;
  pq_armies_params_init(&params);
  /* The split is recomputed here: its fingerprint must match the parts'. */
  pq_armies_task task = {.armies = a,
                         .board = b,
                         .white = (int)white,
                         .black = (int)black,
                         .params = &params,
                         .depth = PQ_ARMIES_SPLIT_DEPTH};
  pq_armies_run d;
  pq_engine_task e;
  run_setup(&d, &task, &e);
  outcome total = {0, 0, 0};
  uint64_t nodes = 0;
  pq_status rc = pq_engine_merge(&d.problem, &d, &e.split, results, n, &total, &nodes);
  if (rc == PQ_OK && o->cert && !total.found) {
    /* No verdict: a proof of infeasibility is made of the files the parts wrote, checked. */
    pq_error("merge: --cert: these parts prove %ld against %ld impossible only on their word; "
             "the certificate is made from the files the parts wrote with --cert FILE: 'peaceable "
             "merge --cert %s FILES...' checks them and writes it",
             white, black, o->cert);
    rc = PQ_EINVAL;
  }
  if (rc == PQ_OK) rc = merge_report(&d, &total, nodes, parts, o);
  run_clear(&d);
  pq_armies_free(a);
  pq_board_free(b);
  return rc;
}
