/* pieces_parts.c: pieces counts and listings in parts through the engine (src/run/engine.h):
   threads, progress, checkpoints, --part I/N results and merging them. A listing's parts hand their
   lines to the engine as their texts, which it gives back in the order of the parts. */
#include "pieces_parts.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/placement.h"
#include "../../src/core/search.h"
#include "../../src/core/sym.h"
#include "../../src/run/engine.h"

/* ---- the problem, as the engine sees it ---- */

/* A count first runs on one thread, whole, for this many nodes (a few milliseconds): a small
   count ends within them and pays nothing for parts or threads. */
#define PILOT_NODES 200000

/* A listing's other threads join once the run has taken this long: its lines pass from thread to
   thread, which costs more than threads gain in a short one (measured: 7x7 K2Q2B2N1 listed into a
   file in 0.08 to 0.11 s on one thread, 0.11 to 0.14 s with the other joining at 10 ms). */
#define LIST_HELPER_DELAY 0.1

/* A listing's lines are gathered in a buffer of this many bytes before they are written out. */
#define OUT_BYTES ((size_t)1 << 20)

/* Lines of this many bytes or more go out in one write: a system call costs less than copying
   them (measured: 7x8 K3Q1B2R2N3 --list, parts of 60 KB). */
#define DIRECT_BYTES ((size_t)32 << 10)

/* An outcome: a part's share of the count (of a listing: the placements it reached), of
   Burnside's other terms (a count with unique), and of the lines listed (with unique, the
   classes), or their sums. */
typedef struct outcome {
  pq_count count, fixed, listed;
} outcome;

typedef struct count_ctx {
  const pq_pieces_task *task;
  const pq_pieces_split *sp;
  uint64_t node_limit; /* of the run in parts (the pilot's nodes taken off); 0: none */
  char board[16], spec[64], head[176], label[128];
  /* A listing's lines, written to task->out by emit in the order of the parts (under the engine's
     lock). */
  size_t line_len;  /* of a line of the solver: the placement, a newline */
  pq_count written; /* lines out */
  bool limited;     /* a line past the limit came: the listing is cut there */
  bool failed;      /* writing failed */
  char *out;        /* lines not yet written out, OUT_BYTES (with task->out) */
  size_t fill;
  atomic_int halt;           /* limited or failed: the threads stop */
  char why[256];             /* what check_text found */
  pq_engine_problem problem; /* with emit for a listing: the engine keeps and orders its lines */
} count_ctx;

/* What a thread's solver calls back while it runs parts. */
typedef struct runner {
  count_ctx *c;
  pq_engine_worker *w;
} runner;

static void *solver_new(void *ctx) {
  const count_ctx *c = ctx;
  return pq_pieces_new(c->task->board, c->task->counts);
}

static void solver_free(void *solver) { pq_pieces_free(solver); }

static uint64_t solver_nodes(const void *solver) { return pq_pieces_nodes(solver); }

static uint64_t part_next(void *ctx) {
  runner *r = ctx;
  return atomic_load(&r->c->halt) ? UINT64_MAX : pq_engine_next(r->w);
}

static void count_done(void *ctx, uint64_t part, pq_count count, uint64_t nodes) {
  runner *r = ctx;
  outcome o = {0, 0, 0};
  *(pq_pieces_split_fixed(r->c->sp, part) ? &o.fixed : &o.count) = count;
  pq_engine_done(r->w, part, &o, nodes, NULL, 0);
}

static void list_done(void *ctx, uint64_t part, pq_count reached, uint64_t nodes, const char *lines,
                      size_t bytes) {
  runner *r = ctx;
  outcome o = {.count = reached, .listed = bytes / r->c->line_len};
  pq_engine_done(r->w, part, &o, nodes, bytes ? lines : NULL, bytes);
}

static pq_status poll_part(void *ctx, uint64_t nodes) {
  runner *r = ctx;
  return atomic_load(&r->c->halt) ? PQ_ELIMIT : pq_engine_poll(r->w, nodes);
}

static pq_status run_parts(void *ctx, void *solver, pq_engine_worker *w) {
  runner r = {.c = ctx, .w = w};
  const pq_pieces_task *task = r.c->task;
  /* The shared node limit is kept by the engine's polls, every few thousand nodes; no solver
     alone passes it either (a small limit stops at once). */
  uint64_t limit = r.c->node_limit;
  pq_pieces_set_limits(solver, limit ? pq_pieces_nodes(solver) + limit : 0, task->lim.deadline);
  pq_pieces_set_poll(solver, poll_part, &r);
  pq_pieces_worker pw = {.next = part_next, .done = count_done, .done_lines = list_done, .ctx = &r};
  pq_status rc;
  if (task->list) {
    /* No part needs more lines than one past the limit (the ones before it have none fewer): that
       one says the listing is cut short. */
    pq_pieces_listing l;
    pq_pieces_listing_init(&l);
    l.unique = task->unique;
    l.limit = task->limit ? task->limit + 1 : 0;
    rc = pq_pieces_split_list(solver, r.c->sp, &l, &pw);
  } else {
    rc = pq_pieces_split_run(solver, r.c->sp, &pw);
  }
  pq_pieces_set_poll(solver, NULL, NULL);
  return rc == PQ_OK && atomic_load(&r.c->halt) ? PQ_ELIMIT : rc;
}

static int add(void *ctx, void *total, const void *more) {
  (void)ctx;
  outcome *t = total;
  const outcome *m = more;
  return pq_count_add(&t->count, m->count) | pq_count_add(&t->fixed, m->fixed) |
         pq_count_add(&t->listed, m->listed);
}

static void write_outcome(void *ctx, FILE *f, const void *value) {
  const count_ctx *c = ctx;
  const outcome *o = value;
  char buf[48];
  fprintf(f, "\"count\":%s", pq_count_str(o->count, buf));
  if (c->task->unique)
    fprintf(f, ",\"%s\":%s", c->task->list ? "listed" : "fixed",
            pq_count_str(c->task->list ? o->listed : o->fixed, buf));
}

static const char *read_outcome(void *ctx, const pq_json *v, void *value) {
  const count_ctx *c = ctx;
  outcome *o = value;
  const char *second = c->task->list ? "listed" : "fixed";
  memset(o, 0, sizeof *o);
  if (pq_json_count(pq_json_get(v, "count"), &o->count) ||
      (c->task->unique &&
       pq_json_count(pq_json_get(v, second), c->task->list ? &o->listed : &o->fixed)))
    return "its count is not a whole number below 2^128";
  if (c->task->list && !c->task->unique) o->listed = o->count;
  if (o->listed > o->count) return "it lists more placements than it reaches";
  return NULL;
}

/* Burnside: the count and the other terms add up to a multiple of the group's order. */
static const char *check_total(void *ctx, const void *total) {
  const count_ctx *c = ctx;
  const outcome *t = total;
  pq_count sum = t->count;
  if (!c->task->unique || c->task->list) return NULL;
  if (pq_count_add(&sum, t->fixed) || sum % (pq_count)pq_sym_count(c->task->board))
    return "Burnside's sum is not a multiple of the symmetries";
  return NULL;
}

static void write_failed(count_ctx *c) {
  /* A signal interrupts a write to a full pipe (SIGPIPE too: its reader is gone): that is an
     interrupt, not a failure, and the engine's polls stop the run as interrupted. */
  if (pq_interrupted) return;
  c->failed = true;
  atomic_store(&c->halt, 1);
}

/* Writes out the lines gathered in c->out. */
static void write_out(count_ctx *c) {
  if (c->fill && !c->failed && fwrite(c->out, 1, c->fill, c->task->out) != c->fill) write_failed(c);
  c->fill = 0;
}

/* Gathers bytes for task->out, written out in chunks of at least DIRECT_BYTES (a part's lines may
   be a few bytes or many megabytes: the longer ones are written at once, not copied). */
static void put(count_ctx *c, const char *bytes, size_t len) {
  if (c->fill + len > OUT_BYTES) write_out(c);
  if (len >= DIRECT_BYTES) {
    write_out(c);
    if (!c->failed && fwrite(bytes, 1, len, c->task->out) != len) write_failed(c);
    return;
  }
  memcpy(c->out + c->fill, bytes, len);
  c->fill += len;
}

/* Whether line (c->line_len bytes, ending in a newline) is a placement of the task's pieces (read
   by pq_placement_read) in which no piece attacks another (plain geometry: a piece between two
   on a line is attacked itself). */
static bool line_ok(const count_ctx *c, const char *line) {
  const pq_board *b = c->task->board;
  char text[PQ_MAX_SQUARES + PQ_MAX_SIDE], why[PQ_PLACEMENT_WHY];
  uint8_t cells[PQ_MAX_SQUARES];
  size_t len = c->line_len - 1;
  if (line[len] != '\n') return false;
  memcpy(text, line, len);
  text[len] = '\0';
  if (pq_placement_read(b, text, pq_piece_letters, cells, why)) return false;
  int have[PQ_NPIECES] = {0}, at[PQ_MAX_SQUARES], n = 0;
  for (int s = 0; s < b->squares; s++)
    if (cells[s]) have[cells[s] - 1]++, at[n++] = s;
  for (int p = 0; p < PQ_NPIECES; p++)
    if (have[p] != c->task->counts[p]) return false;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (i != j && pq_attacks_plain(b, (pq_piece)(cells[at[i]] - 1), at[i], at[j])) return false;
  return true;
}

/* The lines of a listing's part's text, by its outcome. */
static uint64_t text_lines(void *ctx, uint64_t part, const void *value) {
  (void)ctx, (void)part;
  const outcome *o = value;
  return o->listed <= UINT64_MAX - 1 ? (uint64_t)o->listed : UINT64_MAX - 1;
}

/* The engine's check of a listing's part's text read from a file (a checkpoint, a part line):
   every line a placement, and with the part's outcome as many as it says it listed. */
static const char *check_text(void *ctx, uint64_t part, const void *value, const char *text,
                              size_t len) {
  count_ctx *c = ctx;
  const outcome *o = value;
  (void)part;
  if (len % c->line_len) return "its text is not whole lines of the board";
  for (size_t at = 0; at < len; at += c->line_len)
    if (!line_ok(c, text + at)) {
      snprintf(c->why, sizeof c->why,
               "line %zu of its text is not a placement of %s on %s in which no piece attacks "
               "another",
               at / c->line_len + 1, c->spec, c->board);
      return c->why;
    }
  if (o && text_lines(ctx, part, o) != len / c->line_len)
    return "its text does not have the lines its outcome says it listed";
  return NULL;
}

/* A listing's part's lines, in the order of the parts: out to task->out up to the limit. */
static void emit(void *ctx, uint64_t part, const char *text, size_t len) {
  count_ctx *c = ctx;
  (void)part;
  if (!c->task->out || !text || c->limited || c->failed) return;
  pq_count lines = len / c->line_len;
  if (c->task->limit && c->written + lines > c->task->limit) {
    lines = c->task->limit - c->written;
    c->limited = true;
    atomic_store(&c->halt, 1);
  }
  c->written += lines;
  size_t bytes = (size_t)lines * c->line_len;
  if (!c->task->json) {
    put(c, text, bytes);
    return;
  }
  static const char prefix[] = "{\"placement\":\"", suffix[] = "\"}\n";
  char line[sizeof prefix + 2 * PQ_MAX_SQUARES + sizeof suffix];
  size_t placement = c->line_len - 1, p = sizeof prefix - 1, q = sizeof suffix - 1;
  PQ_REQUIRE(p + placement + q <= sizeof line, "a line longer than a placement");
  memcpy(line, prefix, p);
  for (size_t at = 0; at < bytes; at += c->line_len) {
    memcpy(line + p, text + at, placement);
    memcpy(line + p + placement, suffix, q);
    put(c, line, p + placement + q);
  }
}

static const pq_engine_problem pieces_problem = {
    .name = "pieces",
    .outcome_size = sizeof(outcome),
    .solver_new = solver_new,
    .solver_free = solver_free,
    .solver_nodes = solver_nodes,
    .run = run_parts,
    .add = add,
    .write = write_outcome,
    .read = read_outcome,
    .check = check_total,
    .emit = emit,
    .check_text = check_text,
    .text_lines = text_lines,
};

/* Sets c up for task's count or listing split by sp, and the engine's task e; count_clear frees
   what it takes. */
static void count_setup(count_ctx *c, const pq_pieces_task *task, const pq_pieces_split *sp,
                        const char *spec, pq_pieces *solver, pq_engine_task *e) {
  memset(c, 0, sizeof *c);
  c->task = task;
  c->sp = sp;
  c->line_len = (size_t)(task->board->squares + task->board->height);
  c->out = task->out ? pq_malloc(OUT_BYTES) : NULL;
  atomic_init(&c->halt, 0);
  snprintf(c->board, sizeof c->board, "%dx%d", task->board->width, task->board->height);
  snprintf(c->spec, sizeof c->spec, "%s", spec);
  snprintf(c->head, sizeof c->head, "\"board\":\"%s\",\"pieces\":\"%s\",\"unique\":%s%s", c->board,
           c->spec, task->unique ? "true" : "false",
           pq_engine_list_member(task->list, task->unique));
  snprintf(c->label, sizeof c->label, "%s of pieces %s on %s%s", task->list ? "listing" : "count",
           c->spec, c->board, task->unique ? " with --unique" : "");
  pq_engine_task_init(e);
  c->problem = pieces_problem;
  if (!task->list) c->problem.emit = NULL;
  e->problem = &c->problem;
  e->ctx = c;
  e->split = (pq_engine_split){.parts = pq_pieces_split_parts(sp),
                               .id = pq_pieces_split_id(sp),
                               .head = c->head,
                               .what = task->list ? "board, pieces, --unique, --list"
                                                  : "board, pieces, --unique",
                               .label = c->label};
  e->solver = solver;
  e->lim = task->lim;
  if (task->list) e->helper_delay = LIST_HELPER_DELAY;
  c->node_limit = task->lim.node_limit;
}

/* Writes out the lines still gathered in c (as far as they were emitted: also when the run
   stopped), and frees c's buffer. */
static void count_clear(count_ctx *c) {
  if (c->out) write_out(c);
  free(c->out);
  c->out = NULL;
}

/* The pilot: the whole count (and Burnside's sum) on this thread, unsplit, for at most
   PILOT_NODES nodes. Returns PQ_OK with *out complete, or with *more set when its budget alone
   stopped it (the count is then run in parts, the solver's memo kept); or the status to stop
   with (a signal, the deadline or the caller's node limit: that is the answer). */
static pq_status pilot(const pq_pieces_task *task, pq_pieces *solver, pq_pieces_task_result *out,
                       bool *more) {
  uint64_t before = pq_pieces_nodes(solver);
  uint64_t budget = task->lim.node_limit && task->lim.node_limit < PILOT_NODES
                        ? task->lim.node_limit
                        : PILOT_NODES;
  pq_pieces_set_limits(solver, before + budget, task->lim.deadline);
  pq_status rc = pq_pieces_count(solver, true, &out->count);
  if (rc == PQ_OK && task->unique) rc = pq_pieces_count_unique(solver, out->count, &out->unique);
  out->nodes = pq_pieces_nodes(solver) - before;
  if (rc == PQ_OK && task->unique)
    out->fixed = out->unique * (pq_count)pq_sym_count(task->board) - out->count;
  *more = rc == PQ_ELIMIT && !(task->lim.deadline > 0 && pq_now() > task->lim.deadline) &&
          !(task->lim.node_limit && out->nodes >= task->lim.node_limit);
  return *more ? PQ_OK : rc;
}

/* The totals of a run in parts into *out; the status of the run, seen as the caller sees it. */
static pq_status totals(const pq_pieces_task *task, const count_ctx *c, const outcome *total,
                        pq_status rc, pq_pieces_task_result *out) {
  out->count = total->count;
  out->fixed = total->fixed;
  out->listed = total->listed;
  out->complete = rc == PQ_OK;
  if (task->list && c->failed) return PQ_EIO;
  if (task->list && (rc == PQ_ELIMIT || rc == PQ_EINTR || rc == PQ_EIO) && !c->limited) {
    out->listed = c->written; /* a listing stopped: the lines out */
    out->complete = false;
    return rc;
  }
  if (task->list && c->limited) {
    /* The limit ends a listing: it is done, not stopped. */
    out->listed = c->written;
    out->complete = false;
    return rc == PQ_ELIMIT ? PQ_OK : rc;
  }
  if (rc == PQ_OK && task->unique && !task->lim.parts) {
    pq_count sum = total->count;
    pq_count_add(&sum, total->fixed); /* checked by check_total */
    out->unique = task->list ? total->listed : sum / (pq_count)pq_sym_count(task->board);
  }
  return rc;
}

pq_status pq_pieces_task_run(const pq_pieces_task *task, pq_pieces_task_result *out) {
  PQ_REQUIRE(!task->limit ||
                 (task->list && !task->lim.parts && !task->lim.checkpoint && !task->lim.resume),
             "a limit of lines applies to a listing without parts or checkpoints");
  PQ_REQUIRE(!task->lim.parts || !task->out, "a part's lines go to its part line");
  memset(out, 0, sizeof *out);
  pq_pieces *solver = task->engine ? task->engine : pq_pieces_new(task->board, task->counts);
  pq_pieces_split *sp = NULL;
  snprintf(out->spec, sizeof out->spec, "%s", pq_pieces_spec(solver));
  pq_status rc = task->list ? PQ_OK : pq_pieces_check_size(solver, task->spec);
  bool more = true;
  if (rc == PQ_OK && !task->list && !task->lim.parts && !task->lim.checkpoint && !task->lim.resume)
    rc = pilot(task, solver, out, &more);
  uint64_t pilot_nodes = out->nodes;
  if (rc || !more) goto done;
  out->count = out->fixed = out->unique = 0;
  sp = task->list ? pq_pieces_split_new_list(solver) : pq_pieces_split_new(solver, task->unique);
  out->subparts = pq_pieces_split_parts(sp);
  out->id = pq_pieces_split_id(sp);
  count_ctx c;
  pq_engine_task e;
  count_setup(&c, task, sp, out->spec, solver, &e);
  if (task->lim.node_limit) c.node_limit = e.lim.node_limit = task->lim.node_limit - pilot_nodes;
  outcome total = {0, 0, 0};
  pq_engine_result r;
  rc = pq_engine_run(&e, &total, &r);
  out->nodes = pilot_nodes + r.nodes;
  count_clear(&c);
  rc = totals(task, &c, &total, rc, out);
  /* (A checkpoint not written has had its message.) */
  if (task->list && c.failed) pq_error("pieces: writing the output failed");
done:
  if (!sp) out->complete = rc == PQ_OK; /* the pilot's count, whole or stopped */
  pq_pieces_split_free(sp);
  if (!task->engine) pq_pieces_free(solver);
  return rc;
}

void pq_pieces_print_total(FILE *f, const pq_pieces_task *task, const char *spec,
                           const pq_pieces_task_result *r, uint64_t nodes, double seconds) {
  char buf[48], ubuf[48];
  pq_count_str(r->count, buf);
  pq_count_str(r->unique, ubuf);
  if (task->json) {
    fprintf(f, "{\"problem\":\"pieces\",\"board\":\"%dx%d\",\"pieces\":\"%s\"", task->board->width,
            task->board->height, spec);
    if (task->list && !r->complete)
      fprintf(f, ",\"listed\":%s,\"complete\":false", pq_count_str(r->listed, buf));
    else if (!r->complete)
      fputs(",\"count\":null", f); /* stopped: no total */
    else {
      fprintf(f, ",\"count\":%s", buf);
      if (task->unique) fprintf(f, ",\"unique\":%s", ubuf);
    }
    /* A merge's total is the parts' word, not checked (no seconds: it searched nothing). */
    if (seconds < 0)
      pq_engine_merged_tail(f, false, r->merged, nodes);
    else
      fprintf(f, "%s,\"nodes\":%" PRIu64 ",\"seconds\":%.3f}\n", pq_engine_word_json(), nodes,
              seconds);
    return;
  }
  if (!task->list) {
    fprintf(f, "%s\n", buf);
    if (task->unique) fprintf(f, "%s up to symmetry\n", ubuf);
  }
  /* The text is bare numbers or placements: what they rest on is said on stderr, once they are
     out (a failed write has its own message). */
  const char *what = task->list ? "listing" : "total";
  if (seconds < 0 && task->list) {
    pq_engine_merged_listing_note(task->unique);
    return;
  }
  if (seconds < 0 && !fflush(f))
    pq_error("merge: the %s rests on the parts' word, not checked", what);
  else if (seconds >= 0)
    pq_engine_resumed_note("pieces", what);
}

/* ---- merge ---- */

pq_status pq_pieces_merge(pq_json *const *results, int n, const pq_options *o) {
  const pq_json *first = results[0];
  const char *board = pq_json_get_string(first, "board"),
             *spec = pq_json_get_string(first, "pieces");
  int width, height, counts[PQ_NPIECES];
  /* A listing's "list" says "classes" exactly with "unique". */
  int unique = pq_json_get_bool(first, "unique"), listing = pq_engine_list_of(first);
  bool list = listing > 0;
  if (!board || !spec || unique < 0 || listing < 0 || (list && (listing == 2) != unique)) {
    pq_error("merge: malformed pieces part result (line 1)");
    return PQ_EINVAL;
  }
  if (o->cert) {
    pq_error("merge: --cert \"%s\": pieces counts and listings have no certificates", o->cert);
    return PQ_EINVAL;
  }
  if (pq_board_parse("board", board, &width, &height)) return PQ_EINVAL; /* its message */
  pq_board *b = pq_board_new(width, height);
  pq_pieces *e = NULL;
  pq_pieces_split *sp = NULL;
  pq_status rc = pq_pieces_parse("pieces", spec, b->squares, counts);
  if (rc) goto done;
  e = pq_pieces_new(b, counts);
  if (!list && (rc = pq_pieces_check_size(e, spec))) goto done;
  /* The split is made again here: the parts must be of the split this program makes. */
  sp = list ? pq_pieces_split_new_list(e) : pq_pieces_split_new(e, unique);
  pq_pieces_task task = {.board = b,
                         .counts = counts,
                         .spec = spec,
                         .unique = unique,
                         .list = list,
                         .out = stdout,
                         .json = PQ_FLAG(o, json)};
  count_ctx c;
  pq_engine_task ej;
  count_setup(&c, &task, sp, pq_pieces_spec(e), e, &ej);
  outcome total = {0, 0, 0};
  uint64_t nodes = 0;
  rc = pq_engine_merge(ej.problem, &c, &ej.split, results, n, &total, &nodes);
  count_clear(&c);
  /* (The engine checks the total before it hands any text on.) A listing's lines are the parts'
     texts: as many as their outcomes say they listed. */
  const char *why = rc == PQ_OK && list && !c.failed && c.written != total.listed
                        ? "the lines listed are not as many as the parts say"
                        : NULL;
  if (why) {
    pq_error("merge: the parts' counts do not add up (%s)", why);
    rc = PQ_EINVAL;
  }
  pq_pieces_task_result r;
  memset(&r, 0, sizeof r);
  if (rc == PQ_OK) rc = totals(&task, &c, &total, rc, &r);
  r.merged = n;
  if (rc == PQ_OK) pq_pieces_print_total(stdout, &task, spec, &r, nodes, -1);
  if (rc == PQ_OK && fflush(stdout)) rc = PQ_EIO;
  if (rc == PQ_EIO) pq_error("merge: writing the output failed");
done:
  pq_pieces_split_free(sp);
  pq_pieces_free(e);
  pq_board_free(b);
  return rc;
}
