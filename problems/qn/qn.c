/* qn.c: the qn command: two kinds of pieces in a fixed ratio (default equal queens and knights),
   none attacking another: proven maxima, counts, listings and tables, with certificates. */
#include "qn.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/cli/problem.h"
#include "../../src/core/placement.h"
#include "../../src/core/svg.h"
#include "../../src/run/outer.h"
#include "../../src/run/progress.h"
#include "qn_ilp.h"
#include "qn_parts.h"

/* ---- the command line ---- */

/* The options every mode shares. */
typedef struct setup {
  pq_piece first, second;
  int ratio_a, ratio_b;
  char letters[3]; /* letters[code - 1] */
  pq_method method;
  bool json;
  uint64_t node_limit; /* for the whole command; 0: none */
  double deadline;     /* pq_now() at which to stop; 0: none */
  uint64_t nodes;      /* search nodes of the whole command so far */
  double start;        /* pq_now() when the command started */
  long list_limit;     /* --limit; 0: none */
  char label[64];      /* what is running, for progress */
  int jobs;            /* threads for counts and listings */
  int search_jobs;     /* threads for a decision by search (one less in a race: GLPK has one) */
  const char *cert;    /* --cert FILE, or NULL */
  const char *svg;     /* --svg FILE, or NULL */
  const char *checkpoint, *resume; /* --checkpoint, --resume FILE, or NULL */
} setup;

/* The outer loop's view of one board. */
typedef struct board_ctx {
  setup *st;
  const pq_board *board;
  pq_qn *q;
  pq_qn_run *run; /* with --checkpoint or --resume: searches by parts, saved; else NULL */
  uint8_t *kept;  /* with --count --cert: every placement counted, squares bytes each */
  size_t nkept, room;
  long listed;    /* placements printed by --list */
  uint8_t *drawn; /* with --list --svg: the first PQ_SVG_LISTED of them */
  int ndrawn;
} board_ctx;

/* The end of a JSON summary: the command's nodes and seconds so far. */
static void json_tail(const setup *st) {
  printf(",\"nodes\":%" PRIu64 ",\"seconds\":%.3f}\n", st->nodes, pq_now() - st->start);
}

/* Limits for the next call, from the command's budget; false when it is spent. */
static bool limits_for(const setup *st, const volatile int *cancel, pq_qn_limits *l) {
  pq_qn_limits_init(l);
  l->run.jobs = st->search_jobs;
  l->cancel = cancel;
  l->run.progress = st->label;
  l->run.deadline = st->deadline;
  if (st->node_limit) {
    if (st->nodes >= st->node_limit) return false;
    l->run.node_limit = st->node_limit - st->nodes;
  }
  return true;
}

static pq_status decide_search(void *arg, int k, const volatile int *cancel, bool *found,
                               uint8_t *witness) {
  board_ctx *c = arg;
  pq_qn_limits l;
  snprintf(c->st->label, sizeof c->st->label, "qn %dx%d: deciding size %d", c->board->width,
           c->board->height, k);
  if (!limits_for(c->st, cancel, &l)) return PQ_ELIMIT;
  uint64_t nodes = 0;
  pq_status rc = c->run ? pq_qn_run_decide(c->run, k, &l, found, witness, &nodes)
                        : pq_qn_decide(c->q, k, &l, found, witness, &nodes);
  c->st->nodes += nodes;
  return rc;
}

/* The integer program stops at the deadline itself (GLPK's time limit) or when cancel is raised. */
static pq_status decide_ilp(void *arg, int k, const volatile int *cancel, bool *found,
                            uint8_t *witness) {
  board_ctx *c = arg;
  const setup *st = c->st;
  double left = 0;
  if (st->deadline > 0) {
    left = st->deadline - pq_now();
    if (left <= 0) return PQ_ELIMIT;
  }
  pq_lp_params limits = pq_lp_limits(NULL);
  limits.cancel = cancel;
  limits.time_limit = left;
  limits.node_limit = st->node_limit;
  return pq_qn_ilp_decide(c->board, st->first, st->second, st->ratio_a, st->ratio_b, k, &limits,
                          found, witness);
}

static int heuristic(void *arg, uint8_t *witness) {
  board_ctx *c = arg;
  pq_qn_limits l;
  int best = 0, squares = c->board->squares;
  memset(witness, 0, (size_t)squares);
  if (limits_for(c->st, NULL, &l)) {
    uint64_t nodes = 0;
    best = pq_qn_heuristic(c->q, &l, witness, &nodes);
    c->st->nodes += nodes;
  }
  /* A run with checkpoints starts from the best of this and the resumed witness, and saves it. */
  if (c->run && c->run->best > best) {
    best = c->run->best;
    memcpy(witness, c->run->best_witness, (size_t)squares);
  } else if (c->run) {
    pq_qn_run_found(c->run, best, witness);
  }
  return best;
}

/* The loop took a witness of size k, found by either method: checkpoints carry it from now on. */
static void found(void *arg, int k, const uint8_t *witness) {
  board_ctx *c = arg;
  /* A failed save has its message; the next one tries again. */
  if (c->run) pq_qn_run_found(c->run, k, witness);
}

static pq_maximize maximize_of(board_ctx *c) {
  return (pq_maximize){.ctx = c,
                       .board = c->board,
                       .upper = pq_qn_upper(c->q),
                       .heuristic = heuristic,
                       .decide_search = decide_search,
                       .decide_ilp = decide_ilp,
                       .found = found};
}

static bool placement_ok(const setup *st, const pq_board *b, const uint8_t *cells, int size) {
  return pq_qn_placement_ok(b, st->first, st->second, st->ratio_a, st->ratio_b, cells, size);
}

static void describe(const setup *st, int k, char *buf, size_t len) {
  pq_qn_describe(st->first, st->second, st->ratio_a, st->ratio_b, k, buf, len);
}

/* Decides exactly size k with the chosen method. pq_outer_run does it when told that k - 1 is
   reached and that nothing above k fits: it then decides k alone, racing when asked. */
typedef struct exact_ctx {
  board_ctx *c;
  int k;
} exact_ctx;

static int exact_start(void *arg, uint8_t *witness) {
  exact_ctx *e = arg;
  memset(witness, 0, (size_t)e->c->board->squares);
  return e->k - 1;
}
static pq_status exact_search(void *arg, int k, const volatile int *cancel, bool *found,
                              uint8_t *witness) {
  return decide_search(((exact_ctx *)arg)->c, k, cancel, found, witness);
}
static pq_status exact_ilp(void *arg, int k, const volatile int *cancel, bool *found,
                           uint8_t *witness) {
  return decide_ilp(((exact_ctx *)arg)->c, k, cancel, found, witness);
}

static pq_status decide_exact(board_ctx *c, int k, bool *found, uint8_t *witness, pq_method *by) {
  if (k == 0) {
    memset(witness, 0, (size_t)c->board->squares);
    *found = true;
    *by = PQ_METHOD_SEARCH;
    return PQ_OK;
  }
  exact_ctx e = {c, k};
  pq_maximize m = {.ctx = &e,
                   .board = c->board,
                   .upper = k,
                   .heuristic = exact_start,
                   .decide_search = exact_search,
                   .decide_ilp = exact_ilp};
  pq_outer_result res;
  pq_status rc = pq_outer_run(&m, c->st->method, &res);
  if (rc != PQ_OK) return rc;
  *found = res.best == k;
  *by = res.proved_by;
  memcpy(witness, res.witness, (size_t)c->board->squares);
  return PQ_OK;
}

/* Listing: prints placements as they come, up to --limit. */
typedef struct lister {
  const setup *st;
  const pq_board *board;
  char *text;
  long printed;
  board_ctx *c; /* its drawn placements */
} lister;

/* Prints a placement; one more than --limit is not printed but stops the listing (so that a
   listing of exactly --limit placements ends complete). */
static int list_one(void *arg, const uint8_t *cells) {
  lister *l = arg;
  if (l->st->list_limit && l->printed >= l->st->list_limit) return 1;
  pq_placement_line(l->board, cells, l->st->letters, l->st->json, l->text);
  l->printed++;
  board_ctx *c = l->c;
  if (c->drawn && c->ndrawn < PQ_SVG_LISTED)
    memcpy(c->drawn + (size_t)c->ndrawn++ * (size_t)c->board->squares, cells,
           (size_t)c->board->squares);
  return 0;
}

/* Keeps every placement counted, for a count certificate. */
static int keep_one(void *arg, const uint8_t *cells) {
  board_ctx *c = arg;
  size_t n = (size_t)c->board->squares;
  if (c->nkept == c->room) c->kept = pq_realloc(c->kept, (c->room = 2 * c->room + 64) * n);
  memcpy(c->kept + c->nkept++ * n, cells, n);
  return 0;
}

static pq_status count_at(board_ctx *c, int k, bool list, bool unique, pq_qn_count_result *out) {
  snprintf(c->st->label, sizeof c->st->label, "qn %dx%d: %s size %d", c->board->width,
           c->board->height, list ? "listing" : "counting", k);
  pq_qn_limits l;
  if (!limits_for(c->st, NULL, &l)) return PQ_ELIMIT;
  l.run.jobs = c->st->jobs;
  lister li = {.st = c->st,
               .board = c->board,
               .text = pq_malloc((size_t)c->board->squares + (size_t)c->board->height + 1),
               .c = c};
  if (list && c->st->svg && !c->drawn)
    c->drawn = pq_malloc((size_t)PQ_SVG_LISTED * (size_t)c->board->squares);
  c->ndrawn = 0;
  pq_qn_lister to_list = {list_one, unique, &li};
  pq_status rc = c->run ? pq_qn_run_count(c->run, k, &l, list ? &to_list : NULL, out)
                 : c->st->cert && !list
                     ? pq_qn_count(c->q, k, &l, keep_one, false, c, out)
                     : pq_qn_count(c->q, k, &l, list ? list_one : NULL, unique, &li, out);
  c->st->nodes += out->nodes;
  c->listed = li.printed;
  free(li.text);
  if (out->overflow && (rc == PQ_OK || rc == PQ_ELIMIT || rc == PQ_EINTR)) {
    /* Also when stopped: the counts so far already pass 2^128 - 1. solve prints no other. */
    pq_error("qn: more than 2^128 placements: the count cannot be given");
    if (rc == PQ_OK) rc = PQ_ELIMIT;
  }
  return rc;
}

/* Writes --cert: a maximum (witness of size and the proof that infeasible = size + 1 does not
   fit), a size that fits (witness, infeasible 0) or one that does not (no witness). */
static pq_status write_cert(const setup *st, const pq_qn *q, const pq_board *b, int size,
                            const uint8_t *witness, int infeasible) {
  pq_qn_cert cert = {.board = b,
                     .first = st->first,
                     .second = st->second,
                     .split = pq_qn_split_piece(q),
                     .ratio_a = st->ratio_a,
                     .ratio_b = st->ratio_b,
                     .size = size,
                     .witness = witness,
                     .infeasible = infeasible};
  return pq_qn_cert_write(st->cert, &cert);
}

/* What one board's run has settled: size k, whether it fits (a witness) or, for the maximum,
   whether k + 1 was proven not to, and how. */
typedef struct answer {
  int size; /* the command's --size, or -1: the maximum */
  int k;
  bool found, proven;
  pq_method by;
  uint8_t *witness; /* squares bytes; zeroed: a size resumed as impossible has none */
  pq_qn_count_result counted;
} answer;

/* The maximum: from the resumed checkpoint when it holds it proven, else by the outer loop.
   Returns PQ_OK; PQ_ELIMIT or PQ_EINTR when stopped before the proof (a->proven false, a->k
   found); or an error with its message. */
static pq_status settle_max(board_ctx *c, answer *a, bool saves) {
  pq_qn_run *run = c->run;
  const pq_board *b = c->board;
  if (run && run->infeasible >= 0 && run->best == run->infeasible - 1) {
    a->k = run->best;
    a->by = run->proved_by;
    memcpy(a->witness, run->best_witness, (size_t)b->squares);
    return PQ_OK;
  }
  pq_maximize m = maximize_of(c);
  pq_outer_result res;
  pq_status rc = pq_outer_run(&m, c->st->method, &res);
  a->k = res.best;
  a->by = res.proved_by;
  a->proven = rc == PQ_OK;
  memcpy(a->witness, res.witness, (size_t)b->squares);
  if (rc != PQ_OK && rc != PQ_ELIMIT && rc != PQ_EINTR) return rc;
  if (run) pq_qn_run_found(run, a->k, a->witness);
  if (run && a->proven) {
    run->infeasible = a->k + 1;
    run->proved_by = a->by;
    /* A count saves its own checkpoints; a stopped run keeps the last decision's. */
    if (saves) return pq_qn_run_save(run);
  }
  return rc;
}

/* With run's files (--checkpoint, --resume), the board runs by parts, saved (c->run): takes the
   checkpoint up, or writes the first one at once (a limit may stop the run before any decision
   saves one, and the message then says the checkpoint holds what was done). A read stopped by a
   limit leaves a->proven false (size 0 found). Without files: nothing to do. */
static pq_status start_run(board_ctx *c, pq_qn_run *run, answer *a) {
  if (!run->checkpoint && !run->resume) return PQ_OK;
  c->run = run;
  pq_status rc = pq_qn_run_start(run);
  if (rc == PQ_ELIMIT || rc == PQ_EINTR) a->proven = false;
  if (rc == PQ_OK && !run->resume) rc = pq_qn_run_save(run);
  return rc;
}

/* Size a->size exactly: from the resumed checkpoint when it settled it, else decided. */
static pq_status settle_size(board_ctx *c, answer *a, bool count) {
  pq_qn_run *run = c->run;
  const setup *st = c->st;
  pq_status rc = PQ_OK;
  a->k = a->size;
  a->proven = true;
  if (run && run->best == a->size) {
    memcpy(a->witness, run->best_witness, (size_t)c->board->squares);
  } else if (run && run->infeasible == a->size) {
    a->found = false;
    a->by = run->proved_by;
  } else {
    rc = decide_exact(c, a->size, &a->found, a->witness, &a->by);
  }
  if (rc == PQ_ELIMIT || rc == PQ_EINTR) /* (a checkpoint not written has had its message) */
    pq_error("qn: %s before size %d was decided%s", pq_stop_cause(rc), a->size,
             st->checkpoint ? pq_engine_kept_note() : "");
  if (rc != PQ_OK) return rc;
  if (run && a->found) {
    rc = pq_qn_run_found(run, a->size, a->witness);
  } else if (run) {
    run->infeasible = a->size;
    run->proved_by = a->by;
  }
  if (rc == PQ_OK && run && !(a->found && count)) rc = pq_qn_run_save(run);
  return rc;
}

/* A maximum not proven: only what was found, never a maximum or a count (JSON: a count's object
   has "count":null, a listing's summary "listed":0 and "complete":false, doc/json.md). */
static void print_unproven(const setup *st, const pq_board *b, const answer *a, bool count,
                           bool list, pq_status why) {
  char what[96], *text = pq_malloc((size_t)b->squares + (size_t)b->height + 1);
  pq_placement_text(b, a->witness, st->letters, text);
  describe(st, a->k, what, sizeof what);
  if (st->json) {
    /* A listing lists nothing: the size to list at is not known. */
    pq_qn_json_open(b, st->letters, st->ratio_a, st->ratio_b, a->k);
    fputs(",\"optimal\":false", stdout);
    if (list)
      fputs(",\"listed\":0,\"complete\":false", stdout);
    else
      printf(",\"witness\":\"%s\"%s", text, count ? ",\"count\":null" : "");
    json_tail(st);
  } else if (list) {
    /* Nothing listed. */
  } else {
    printf("qn on %dx%d: %s or more, not proven\n", b->width, b->height, what);
    pq_placement_draw(stdout, b, a->witness, st->letters);
    printf("%s\n", text);
  }
  pq_error("qn: %s before the proof: size %d found, maximum not proven%s%s", pq_stop_cause(why),
           a->k, st->checkpoint && why != PQ_EIO ? pq_engine_kept_note() : "",
           st->cert && a->found && a->k > 0 ? PQ_WITNESS_CERT_NOTE : "");
  free(text);
}

/* --svg: the witness as a picture, both kinds drawn white, as there are no colours; or (count
   placements, one after another) a listing's first ones; none: the empty board captioned "no
   placement". */
static pq_status draw(const setup *st, const pq_board *b, const uint8_t *cells, int count) {
  pq_svg_code codes[2] = {{st->letters[0], 0}, {st->letters[1], 0}};
  pq_svg_picture pic;
  pq_svg_picture_init(&pic);
  pic.board = b;
  pic.count = count;
  pic.cells = cells;
  pic.ncodes = 2;
  pic.codes = codes;
  return pq_svg_save(st->svg, &pic);
}

/* Counts (or lists) at the settled size. Returns PQ_OK; PQ_ELIMIT or PQ_EINTR with *count
   cleared when a limit or a signal stopped it (a count's answer is then printed without it); or
   another status to stop with. */
static pq_status count_answer(board_ctx *c, answer *a, bool *count, bool list, bool unique) {
  pq_status rc = count_at(c, a->k, list, unique, &a->counted);
  if (rc == PQ_OK) return PQ_OK;
  *count = false;                                   /* no total */
  if (rc != PQ_ELIMIT && rc != PQ_EINTR) return rc; /* its message is out */
  char so_far[48];
  const char *doing = list ? "listing" : "counting";
  char board[16];
  snprintf(board, sizeof board, "%dx%d", c->board->width, c->board->height);
  /* (The size's certificate: finish writes it.) */
  const char *cert = c->st->cert && !list ? PQ_SIZE_CERT_NOTE : "",
             *kept = c->st->checkpoint ? pq_engine_kept_note() : "";
  /* A count past 2^128 has had its one message from count_at. */
  if (!a->counted.overflow && a->counted.count)
    pq_error("qn: %s on %s %s: %s placement%s so far, no total%s%s", doing, board,
             pq_stopped_by(rc), pq_count_str(a->counted.count, so_far),
             a->counted.count == 1 ? "" : "s", kept, cert);
  else if (!a->counted.overflow)
    pq_error("qn: %s on %s %s: no total%s%s", doing, board, pq_stopped_by(rc), kept, cert);
  return rc;
}

/* Prints the settled answer (with its counts when count). */
static void print_answer(const setup *st, const pq_board *b, const answer *a, bool count,
                         bool count_stopped, const char *total, const char *classes) {
  char what[96], bigger[96], *text = pq_malloc((size_t)b->squares + (size_t)b->height + 1);
  pq_placement_text(b, a->witness, st->letters, text);
  describe(st, a->k, what, sizeof what);
  describe(st, a->k + 1, bigger, sizeof bigger);
  int width = b->width, height = b->height;
  if (st->json) {
    pq_qn_json_open(b, st->letters, st->ratio_a, st->ratio_b, a->k);
    if (a->size < 0)
      printf(",\"optimal\":true");
    else
      printf(",\"feasible\":%s", a->found ? "true" : "false");
    if (a->size < 0 || !a->found) printf(",\"proved_by\":\"%s\"", pq_method_name(a->by));
    /* A count at --size K has no witness, as armies' counts have none there (the maximum's
       carries the witness it is proven with, in every problem). */
    if (a->found && !((count || count_stopped) && a->size >= 0))
      printf(",\"witness\":\"%s\"", text);
    if (count) printf(",\"count\":%s,\"unique\":%s", total, classes);
    if (count_stopped) fputs(",\"count\":null", stdout);
    /* A witness alone is checked: no mark (as in the text). */
    if (a->size < 0 || !a->found || count) fputs(pq_engine_word_json(), stdout);
    json_tail(st);
  } else {
    const char *word = pq_engine_word_text();
    if (a->size < 0)
      printf("qn on %dx%d: %s, the maximum, proven by %s (no placement of %s)%s\n", width, height,
             what, pq_method_name(a->by), bigger, word);
    else if (a->found)
      printf("qn on %dx%d: %s: possible%s\n", width, height, what, count ? word : "");
    else
      printf("qn on %dx%d: %s: none, proven impossible by %s%s\n", width, height, what,
             pq_method_name(a->by), word);
    if (count) {
      printf("%s placement%s\n%s up to symmetry\n", total, pq_plural(total), classes);
    } else if (a->found) {
      pq_placement_draw(stdout, b, a->witness, st->letters);
      printf("%s\n", text);
    }
  }
  free(text);
}

/* The certificates, the picture, the counts and the answer of a settled board. */
static pq_status finish(board_ctx *c, answer *a, bool count, bool list, bool unique) {
  const setup *st = c->st;
  const pq_board *b = c->board;
  int k = a->k;
  bool counting = count; /* (count_answer clears count when its count stops) */
  pq_status rc = PQ_OK, stopped = PQ_OK;
  bool counted = a->found && (count || list), size_cert = false;
  if (counted) rc = count_answer(c, a, &count, list, unique);
  /* Stopped, or a checkpoint of the count not written (its message printed): the answer without
     its count, and with --cert the size's certificate, work not to lose. */
  if (!list && (rc == PQ_ELIMIT || rc == PQ_EINTR || (counted && rc == PQ_EIO))) {
    stopped = rc;
    size_cert = counted && st->cert && rc != PQ_EIO;
    rc = PQ_OK;
  }
  if (list && st->json && (rc == PQ_OK || rc == PQ_ELIMIT || rc == PQ_EINTR)) {
    /* A listing's summary: how many placements it printed, and whether they are all. */
    bool all = rc == PQ_OK && !a->counted.stopped;
    long listed = a->found ? c->listed : 0;
    char total[48];
    pq_count_str(a->found ? a->counted.count : 0, total);
    pq_qn_json_open(b, st->letters, st->ratio_a, st->ratio_b, k);
    printf(",\"%s\":%s", a->size < 0 ? "optimal" : "feasible", a->found ? "true" : "false");
    if (a->size < 0 || !a->found) printf(",\"proved_by\":\"%s\"", pq_method_name(a->by));
    if (!all)
      printf(",\"listed\":%ld,\"complete\":false", listed);
    else if (unique)
      printf(",\"count\":%s,\"unique\":%ld", total, listed); /* one listed a class */
    else
      printf(",\"count\":%ld", listed);
    fputs(pq_engine_word_json(), stdout);
    json_tail(st);
  }
  if (list && !st->json && rc == PQ_OK && a->counted.stopped) pq_progress_note_cut(st->list_limit);
  if (list && rc == PQ_OK && st->svg) {
    /* The listing's first placements, as armies draws them, and a note when it listed more. */
    if (c->listed > PQ_SVG_LISTED && pq_progress_enabled)
      pq_error("qn: --svg %s draws the first %d of the %ld placements listed", st->svg,
               PQ_SVG_LISTED, c->listed);
    rc = draw(st, b, c->drawn, a->found ? c->ndrawn : 0);
  }
  /* A text listing is placements alone: what it rests on is said on stderr, as pieces'. */
  if (list && !st->json && rc == PQ_OK) pq_engine_resumed_note("qn", "listing");
  if (rc != PQ_OK || list) return rc;
  char total[48], classes[48];
  pq_count_str(a->found ? a->counted.count : 0, total);
  pq_count_str(a->found ? a->counted.unique : 0, classes);
  /* A count stopped: its object says "count":null (count_answer cleared count). */
  print_answer(st, b, a, count, stopped != PQ_OK, total, classes);
  /* The files after the answer, as armies writes them: one that cannot be written (a full disk)
     loses no answer (it printed none before). A count's certificate is a count's, also of none. */
  if (st->cert && !counting)
    rc = write_cert(st, c->q, b, k, a->found ? a->witness : NULL,
                    a->size < 0 ? k + 1
                    : a->found  ? 0
                                : a->size);
  else if (size_cert)
    rc = write_cert(st, c->q, b, k, a->witness, a->size < 0 ? k + 1 : 0);
  if (count && st->cert) {
    /* The count certificate: every placement (none at a size that does not fit, as armies'), and
       at the maximum the proof of one more. */
    pq_qn_cert cert = {.board = b,
                       .first = st->first,
                       .second = st->second,
                       .split = pq_qn_split_piece(c->q),
                       .ratio_a = st->ratio_a,
                       .ratio_b = st->ratio_b,
                       .size = k,
                       .infeasible = a->size < 0 ? k + 1 : 0,
                       .counting = true,
                       .nplacements = c->nkept,
                       .placements = c->kept,
                       .total = total,
                       .unique = classes};
    rc = pq_qn_cert_write(st->cert, &cert);
  }
  if (rc == PQ_OK && st->svg) rc = draw(st, b, a->witness, a->found);
  return rc != PQ_OK ? rc : stopped;
}

/* One board: the maximum (size < 0) or size `size`; then counts or a listing when asked. */
static pq_status solve(setup *st, int width, int height, int size, bool count, bool list,
                       bool unique) {
  pq_board *b = pq_board_new(width, height);
  board_ctx c = {
      .st = st, .board = b, .q = pq_qn_new(b, st->first, st->second, st->ratio_a, st->ratio_b)};
  answer a = {.size = size, .found = true, .proven = true, .by = PQ_METHOD_SEARCH};
  a.witness = pq_calloc((size_t)b->squares, 1);
  pq_qn_instance in = {.board = b,
                       .q = c.q,
                       .first = st->first,
                       .second = st->second,
                       .ratio_a = st->ratio_a,
                       .ratio_b = st->ratio_b};
  pq_qn_run run = {.in = &in,
                   .size = size,
                   .counting = count || list,
                   .listing = list,
                   .checkpoint = st->checkpoint,
                   .resume = st->resume};
  pq_status rc = start_run(&c, &run, &a);
  if (rc == PQ_OK) rc = size < 0 ? settle_max(&c, &a, !count && !list) : settle_size(&c, &a, count);
  /* (A checkpoint not written stops the run too: what was found is printed as for a limit; it
     printed nothing.) */
  bool stopped =
      !a.proven && (rc == PQ_ELIMIT || rc == PQ_EINTR || (rc == PQ_EIO && st->checkpoint));
  if ((rc == PQ_OK || stopped) && a.found)
    PQ_REQUIRE(placement_ok(st, b, a.witness, a.k), "qn: the witness of size %d is wrong", a.k);
  if (stopped) {
    print_unproven(st, b, &a, count, list, rc);
    /* The witness found is work not to lose, as armies keeps it: a certificate of it alone (a
       claim that it fits, for a count too, as armies') and its picture. */
    pq_status kept = PQ_OK;
    if (st->cert && a.found && a.k > 0) kept = write_cert(st, c.q, b, a.k, a.witness, 0);
    if (!kept && st->svg && a.found && a.k > 0) kept = draw(st, b, a.witness, 1);
    if (kept) rc = kept;
  } else if ((rc == PQ_ELIMIT || rc == PQ_EINTR) && size >= 0 && st->json) {
    /* A decision, count or listing at --size stopped before the size was decided ends with its
       object too, as every mode does: no witness, no total, nothing said of the size. */
    pq_qn_json_open(b, st->letters, st->ratio_a, st->ratio_b, size);
    fputs(list ? ",\"listed\":0,\"complete\":false" : count ? ",\"count\":null" : "", stdout);
    json_tail(st);
  } else if (rc == PQ_OK) {
    rc = finish(&c, &a, count, list, unique);
  }
  free(c.kept);
  free(c.drawn);
  free(a.witness);
  pq_qn_free(c.q);
  pq_board_free(b);
  return rc;
}

/* --part I/N: one part of deciding (or counting or listing at) size `size`, as a JSON line for
   merge. */
static pq_status run_part(setup *st, int width, int height, int size, bool count, bool list,
                          bool unique, int part, int parts) {
  pq_board *b = pq_board_new(width, height);
  pq_qn *q = pq_qn_new(b, st->first, st->second, st->ratio_a, st->ratio_b);
  pq_qn_instance in = {.board = b,
                       .q = q,
                       .first = st->first,
                       .second = st->second,
                       .ratio_a = st->ratio_a,
                       .ratio_b = st->ratio_b};
  snprintf(st->label, sizeof st->label, "qn %dx%d: part %d/%d of size %d", width, height, part,
           parts, size);
  pq_qn_limits l;
  limits_for(st, NULL, &l);
  l.run.jobs = st->jobs;
  l.run.checkpoint = st->checkpoint; /* the part's subparts, as armies' and pieces' parts */
  l.run.resume = st->resume;
  pq_status rc = pq_qn_part_run(&in, size, count, list, unique, part, parts, &l);
  pq_qn_free(q);
  pq_board_free(b);
  return rc;
}

/* Prints the row of board b: its maximum, proven or not ("+", "optimal":false), and its counts,
   or none when they were not finished ("-", "count":null; a b-file holds proven rows only). */
static void print_row(const setup *st, const pq_board *b, pq_format format, const answer *a,
                      const pq_qn_count_result *counted, uint64_t nodes, double seconds) {
  int n = b->width;
  bool proven = a->proven;
  char total[48] = "-", classes[48] = "-";
  if (counted) {
    pq_count_str(counted->count, total);
    pq_count_str(counted->unique, classes);
  }
  const char *by = proven ? pq_method_name(a->by) : "none";
  if (st->json) {
    char *text = pq_malloc((size_t)b->squares + (size_t)b->height + 1);
    pq_placement_text(b, a->witness, st->letters, text);
    pq_qn_json_open(b, st->letters, st->ratio_a, st->ratio_b, a->k);
    printf(",\"optimal\":%s", proven ? "true" : "false");
    if (proven) printf(",\"proved_by\":\"%s\"%s", by, pq_engine_word_json());
    printf(",\"witness\":\"%s\"", text);
    if (counted)
      printf(",\"count\":%s,\"unique\":%s", total, classes);
    else
      printf(",\"count\":null");
    printf(",\"nodes\":%" PRIu64 ",\"seconds\":%.3f}\n", nodes, seconds);
    free(text);
  } else if (format == PQ_FORMAT_BFILE) {
    if (proven) printf("%d %d\n", n, a->k);
  } else if (format == PQ_FORMAT_CSV) {
    printf("%d,%d,%s,%s,%.3f,%s,%s\n", n, a->k, proven ? "true" : "false", by, seconds,
           counted ? total : "", counted ? classes : "");
  } else {
    char board[16];
    snprintf(board, sizeof board, "%dx%d", n, n);
    printf("%5s %7d%s %-7s %9.3f %14s %12s\n", board, a->k, proven ? " " : "+", by, seconds, total,
           classes);
  }
}

typedef struct table_ctx {
  setup *st;
  pq_format format;
} table_ctx;

/* One line of --table: the maximum on an n x n board, its counts and the time; a board a limit
   stopped has its line too, with what was found (the armies table's convention). With the row's
   checkpoint, the board runs as one board's --count does with it: by parts, saved, resumed. */
static pq_status table_row(void *ctx, const pq_table_row *r) {
  setup *st = ((table_ctx *)ctx)->st;
  pq_format format = ((table_ctx *)ctx)->format;
  int n = r->n;
  st->deadline = r->deadline;
  st->node_limit = r->node_limit;
  pq_board *b = pq_board_new(n, n);
  board_ctx c = {
      .st = st, .board = b, .q = pq_qn_new(b, st->first, st->second, st->ratio_a, st->ratio_b)};
  double t0 = pq_now();
  uint64_t nodes = st->nodes; /* before this row */
  answer a = {.size = -1, .found = true, .proven = true, .by = PQ_METHOD_SEARCH};
  a.witness = pq_calloc((size_t)b->squares, 1);
  pq_qn_instance in = {b, c.q, st->first, st->second, st->ratio_a, st->ratio_b};
  pq_qn_run run = {
      .in = &in, .size = -1, .counting = true, .checkpoint = r->checkpoint, .resume = r->resume};
  pq_qn_count_result counted = {0};
  bool settled = false; /* settle_max ran: a.k and a.proven say what it found */
  pq_status rc = start_run(&c, &run, &a);
  if (rc == PQ_OK) settled = (rc = settle_max(&c, &a, false)) == PQ_OK || !a.proven;
  if (rc == PQ_OK) {
    PQ_REQUIRE(placement_ok(st, b, a.witness, a.k), "qn: the witness of %d is wrong", a.k);
    rc = count_at(&c, a.k, false, false, &counted);
  }
  /* Stopped, or a checkpoint not written after the board's start (its message printed): the row
     with what was found. An error before (a checkpoint refused, or not written at once) has its
     message, and ends the table. */
  bool stopped = rc == PQ_ELIMIT || rc == PQ_EINTR || (rc == PQ_EIO && settled);
  if (stopped)
    pq_error("qn: %s on %dx%d: size %d found, %s%s", pq_stop_cause(rc), n, n, a.k,
             a.proven ? "maximum proven, count not finished" : "maximum not proven",
             r->checkpoint && rc != PQ_EIO ? pq_engine_kept_note() : "");
  if (rc == PQ_OK || stopped)
    print_row(st, b, format, &a, rc == PQ_OK ? &counted : NULL, st->nodes - nodes, pq_now() - t0);
  fflush(stdout);
  free(a.witness);
  pq_qn_free(c.q);
  pq_board_free(b);
  return rc;
}

static pq_status parse_kinds(const char *text, setup *st) {
  int a = -1, b = -1;
  if (text && strlen(text) == 2) {
    a = pq_piece_from_letter((unsigned char)text[0]);
    b = pq_piece_from_letter((unsigned char)text[1]);
  }
  if (a < 0 || b < 0 || a == b) {
    pq_error("--kinds \"%s\": expected two different letters of K Q R B N, e.g. QN", text);
    return PQ_EINVAL;
  }
  st->first = (pq_piece)a;
  st->second = (pq_piece)b;
  st->letters[0] = pq_piece_letters[a];
  st->letters[1] = pq_piece_letters[b];
  st->letters[2] = '\0';
  return PQ_OK;
}

static pq_status parse_ratio(const char *text, setup *st) {
  const char *colon = strchr(text, ':');
  char first[16];
  long a, b;
  if (colon && (size_t)(colon - text) < sizeof first) {
    memcpy(first, text, (size_t)(colon - text));
    first[colon - text] = '\0';
    if (!pq_parse_long(first, 1, PQ_MAX_SQUARES, &a) &&
        !pq_parse_long(colon + 1, 1, PQ_MAX_SQUARES, &b)) {
      st->ratio_a = (int)a;
      st->ratio_b = (int)b;
      return PQ_OK;
    }
  }
  pq_error("--ratio \"%s\": expected A:B with whole numbers 1 to %d, e.g. 2:1", text,
           PQ_MAX_SQUARES);
  return PQ_EINVAL;
}

/* Refuses options that do not go together (one message). */
static pq_status check_combination(const pq_options *o, bool count, bool list, long size,
                                   pq_method method) {
  /* (--count and --unique, which a table of armies needs for its counts, are what every qn row
     gives: taken, not refused) */
  if (o->table && (o->board || o->size || list)) {
    pq_error("qn: --table gives every board side its own maximum and counts: it takes no "
             "--board, --size or --list");
    return PQ_EINVAL;
  }
  if (o->svg && o->table) {
    pq_error("qn: --svg draws the witness, or with --list the first placements: not with --table");
    return PQ_EINVAL;
  }
  if (o->cert && (o->table || list)) {
    /* (With --list it wrote the maximum's certificate, where armies refuses.) */
    pq_error("qn: --cert applies to one board's maximum, --size or --count, not to --list or "
             "--table");
    return PQ_EINVAL;
  }
  if (o->cert && count && (o->checkpoint || o->resume || o->part || list)) {
    pq_error("qn: --count --cert keeps every placement for the certificate: not with --part, "
             "--checkpoint, --resume or --list");
    return PQ_EINVAL;
  }
  if (o->limit && !list) {
    pq_error("qn: --limit \"%s\" applies to --list only", o->limit);
    return PQ_EINVAL;
  }
  if (count && list) {
    pq_error("qn: --count and --list exclude each other (--list --unique lists one placement per "
             "class)");
    return PQ_EINVAL;
  }
  if (o->part && o->table) {
    pq_error("qn: --part applies to one board, not to --table (--checkpoint F keeps board n's run "
             "in F.n)");
    return PQ_EINVAL;
  }
  if ((o->part || o->checkpoint || o->resume) && o->limit) {
    pq_error("qn: --limit applies to a whole listing, not to --part, --checkpoint or --resume");
    return PQ_EINVAL;
  }
  if (o->part && size < 0) {
    pq_error("qn: --part \"%s\" needs --size K (the decision, count or listing to split)", o->part);
    return PQ_EINVAL;
  }
  if (o->part && o->svg) {
    pq_error("qn: --part \"%s\" prints one part's result: not with --svg", o->part);
    return PQ_EINVAL;
  }
  if (o->part && o->cert) {
    pq_error("qn: --cert \"%s\" with --part: a qn part needs none (its line on standard output is "
             "what merge --cert takes)",
             o->cert);
    return PQ_EINVAL;
  }
  if (o->part && method != PQ_METHOD_SEARCH && o->method) {
    pq_error("qn: --part searches its part: --method \"%s\" does not apply", o->method);
    return PQ_EINVAL;
  }
  return PQ_OK;
}

static pq_status run(const pq_options *o) {
  setup st = {.json = PQ_FLAG(o, json), .ratio_a = 1, .ratio_b = 1, .start = pq_now()};
  int width = o->v.width, height = o->v.height, from = o->v.from, to = o->v.to;
  int part = o->v.part, parts = o->v.parts;
  long size = o->v.size, list_limit = o->v.limit, jobs = o->v.jobs;
  double seconds = o->v.time_limit;
  pq_format format = o->v.format;
  st.method = o->v.method;
  pq_status rc = parse_kinds(o->kinds ? o->kinds : "QN", &st);
  if (!rc && o->ratio) rc = parse_ratio(o->ratio, &st);
  if (rc) return rc;
  bool count = PQ_FLAG(o, count), list = PQ_FLAG(o, list), unique = PQ_FLAG(o, unique);
  if (unique && !list) count = true;
  if ((rc = check_combination(o, count, list, size, st.method))) return rc;
  if (size * (st.ratio_a + st.ratio_b) > (long)width * height) {
    pq_error("qn: --size %ld: %ld pieces do not fit on %d %s", size,
             size * (st.ratio_a + st.ratio_b), width * height,
             pq_noun(width * height, "square", "squares"));
    return PQ_EINVAL;
  }
  st.node_limit = o->v.node_limit;
  st.deadline = seconds > 0 ? pq_now() + seconds : 0;
  st.list_limit = list_limit;
  st.jobs = (int)jobs;
  /* In a race the integer program takes one thread; the search keeps the others. */
  st.search_jobs = st.method == PQ_METHOD_RACE && jobs > 1 ? (int)jobs - 1 : (int)jobs;
  st.cert = o->cert;
  st.svg = o->svg;
  st.checkpoint = o->checkpoint;
  st.resume = o->resume;
  if (PQ_FLAG(o, quiet)) pq_progress_enabled = false;
  if (o->table) {
    /* The columns of armies --table --count, but unique+col. */
    if (!st.json && format == PQ_FORMAT_TEXT)
      printf("%5s %7s  %-7s %9s %14s %12s\n", "board", "maximum", "proof", "seconds", "count",
             "unique");
    else if (!st.json && format == PQ_FORMAT_CSV)
      printf("n,maximum,proven,proof,seconds,count,unique\n");
    /* A board a limit stopped has its row, and the later boards theirs (a failed write: main
       reports it). */
    char json[64];
    snprintf(json, sizeof json, "\"problem\":\"qn\",\"kinds\":\"%s\",\"ratio\":\"%d:%d\"",
             st.letters, st.ratio_a, st.ratio_b);
    table_ctx c = {.st = &st, .format = format};
    pq_table t = {.from = from,
                  .to = to,
                  .deadline = st.deadline,
                  .node_limit = st.node_limit,
                  .searched = &st.nodes,
                  .checkpoint = st.checkpoint,
                  .resume = st.resume,
                  .command = "qn",
                  .row = table_row,
                  .ctx = &c,
                  .json = st.json ? json : NULL};
    return pq_table_run(&t);
  }
  if (o->part) return run_part(&st, width, height, (int)size, count, list, unique, part, parts);
  return solve(&st, width, height, (int)size, count, list, unique);
}

const pq_problem pq_problem_qn = {
    .name = "qn",
    .letter = 'q',
    .summary = "the most pieces of two kinds in a ratio (equal queens and knights by default) "
               "where none attacks another",
    .run = run,
    .merge = pq_qn_merge,
};
