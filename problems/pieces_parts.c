/* pieces_parts.c: pieces counts in parts through the engine (src/engine.h): threads, progress,
   checkpoints, --part I/N results and merging them; and listings on threads, in the order of one
   thread, by a mechanism of their own (their lines are written out part after part). */
#include "pieces_parts.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../src/engine.h"
#include "../src/progress.h"
#include "../src/search.h"
#include "../src/sym.h"

/* A listing's other threads join once the run has taken this long: its lines pass from thread to
   thread, which costs more than threads gain in a short one (measured: 7x7 K2Q2B2N1 listed into a
   file in 0.08 to 0.11 s on one thread, 0.11 to 0.14 s with the other joining at 10 ms). */
#define LIST_HELPER_DELAY 0.1

/* The lines of a listing's parts held while earlier parts are written out: at most this many
   bytes a thread (in all); then threads wait. They are kept in blocks, reused. */
#define HOLD_BYTES ((size_t)4 << 20)
#define BLOCK_BYTES ((size_t)64 << 10)

/* Lines are written out in chunks of at least DIRECT_BYTES (parts end with short ones), gathered
   in a buffer of OUT_BYTES. */
#define OUT_BYTES ((size_t)1 << 20)
#define DIRECT_BYTES ((size_t)256 << 10)

typedef struct block {
  struct block *next;
  size_t len;
  char data[BLOCK_BYTES];
} block;

typedef struct shared shared;

/* One thread's share of a listing. */
typedef struct worker {
  shared *sh;
  pq_pieces *engine;
  bool main; /* the thread that started the run: it starts the others */
  pq_status status;
  uint64_t part;             /* the part being listed */
  pq_pieces_listing listing; /* this thread's (lines go to write_lines) */
  pq_pieces_listed listed;
} worker;

struct shared {
  const pq_pieces_job *job;
  const pq_pieces_split *sp;
  uint64_t parts;             /* of the split */
  atomic_uint_fast64_t next;  /* claims handed out */
  atomic_uint_fast64_t nodes; /* nodes passed on by the polls */
  atomic_int halt;            /* a limit, a signal, the lines' limit or a failed write */
  pthread_mutex_t lock;
  /* Under lock: */
  bool *done;
  pq_count *value;   /* placements reached by each part */
  uint64_t finished; /* parts listed */
  pq_progress progress;
  /* The other threads, started by the main one. */
  double start;
  bool helpers_started;
  int nhelpers;
  worker *helpers;
  pthread_t *threads;
  /* The lines are written out part after part; under lock. */
  const pq_pieces_listing *listing; /* the caller's: out, limit */
  size_t line_len;
  uint64_t head;        /* the part being written out: earlier ones are */
  block **held, **last; /* [parts]: lines of later parts, waiting: a list of blocks */
  block *spare;         /* blocks to reuse */
  size_t blocks;        /* blocks held in all */
  pthread_cond_t moved; /* the head moved, or the run halted */
  uint64_t written;     /* bytes written (or in out) */
  char *out;            /* lines to write out, OUT_BYTES */
  size_t fill;
  bool stopped; /* the limit of lines is reached */
  bool failed;  /* writing failed */
  bool locks;   /* lock and moved are set up */
};

/* ---- threads ---- */

static uint64_t claim(void *ctx) {
  shared *sh = ((worker *)ctx)->sh;
  uint64_t i = atomic_load(&sh->halt) ? sh->parts : atomic_fetch_add(&sh->next, 1);
  return i < sh->parts ? ((worker *)ctx)->part = i : UINT64_MAX;
}

static void *helper_main(void *arg);

static int write_lines(void *ctx, const char *lines, size_t bytes);

/* The main thread w starts the others once the run has taken LIST_HELPER_DELAY. The listing has
   run on it alone so far, straight into the file: from now on its lines go through write_lines
   too, its current part the first to write out. */
static void start_helpers(shared *sh, worker *w) {
  if (sh->helpers_started || !sh->nhelpers || pq_now() - sh->start < LIST_HELPER_DELAY) return;
  const pq_pieces_listing *l = sh->listing;
  if (l->limit && w->listed.listed >= l->limit) return;
  sh->helpers_started = true;
  pq_pieces_list_flush(w->engine);
  sh->written = (uint64_t)w->listed.listed * sh->line_len;
  sh->head = w->part;
  w->listing.limit = 0;
  w->listing.write = write_lines;
  w->listing.write_ctx = w;
  /* Their solvers are built here, before any of them runs. */
  for (int i = 0; i < sh->nhelpers; i++) {
    sh->helpers[i].sh = sh;
    sh->helpers[i].engine = pq_pieces_new(sh->job->board, sh->job->counts);
  }
  for (int i = 0; i < sh->nhelpers; i++)
    PQ_REQUIRE(pthread_create(&sh->threads[i], NULL, helper_main, &sh->helpers[i]) == 0,
               "thread creation failed");
}

/* Stops every thread (under lock). */
static void halt_all(shared *sh) {
  atomic_store(&sh->halt, 1);
  pthread_cond_broadcast(&sh->moved);
}

static void write_failed(shared *sh) {
  /* A signal interrupts a write to a full pipe: that is an interrupt, not a failure. */
  if (!pq_interrupted) sh->failed = true;
  halt_all(sh);
}

/* Writes out the lines gathered in sh->out (under lock). */
static void write_out(shared *sh) {
  if (sh->fill && !sh->failed && fwrite(sh->out, 1, sh->fill, sh->listing->out) != sh->fill)
    write_failed(sh);
  sh->fill = 0;
}

/* Writes bytes of lines out (under lock), up to the limit of lines. */
static void emit(shared *sh, const char *bytes, size_t len) {
  const pq_pieces_listing *l = sh->listing;
  if (sh->stopped || sh->failed) return;
  pq_count most = (pq_count)l->limit * sh->line_len;
  if (l->limit && sh->written + len >= most) {
    len = (size_t)(most - sh->written);
    sh->stopped = true;
    halt_all(sh);
  }
  sh->written += len;
  if (len >= DIRECT_BYTES) {
    write_out(sh);
    if (!sh->failed && fwrite(bytes, 1, len, l->out) != len) write_failed(sh);
    return;
  }
  if (sh->fill + len > OUT_BYTES) write_out(sh);
  memcpy(sh->out + sh->fill, bytes, len);
  sh->fill += len;
}

/* Writes out what the parts from the head on hold, moving the head past the finished ones
   (under lock). */
static void advance(shared *sh) {
  while (sh->head < sh->parts) {
    for (block *b = sh->held[sh->head], *next; b; b = next) {
      next = b->next;
      emit(sh, b->data, b->len);
      b->next = sh->spare;
      sh->spare = b;
      sh->blocks--;
    }
    sh->held[sh->head] = sh->last[sh->head] = NULL;
    if (!sh->done[sh->head]) break;
    sh->head++;
  }
  pthread_cond_broadcast(&sh->moved);
}

/* Holds lines of part p (under lock) if the blocks allow; returns whether it did. */
static bool hold(shared *sh, uint64_t p, const char *lines, size_t bytes) {
  block *tail = sh->last[p];
  size_t room = tail ? BLOCK_BYTES - tail->len : 0;
  size_t needed = bytes > room ? (bytes - room + BLOCK_BYTES - 1) / BLOCK_BYTES : 0;
  if (sh->blocks + needed > HOLD_BYTES / BLOCK_BYTES * (size_t)(sh->nhelpers + 1)) return false;
  while (bytes) {
    if (!tail || tail->len == BLOCK_BYTES) {
      block *b = sh->spare;
      if (b)
        sh->spare = b->next;
      else
        b = pq_malloc(sizeof *b);
      b->next = NULL;
      b->len = 0;
      if (tail)
        tail->next = b;
      else
        sh->held[p] = b;
      sh->last[p] = tail = b;
      sh->blocks++;
    }
    size_t n = BLOCK_BYTES - tail->len < bytes ? BLOCK_BYTES - tail->len : bytes;
    memcpy(tail->data + tail->len, lines, n);
    tail->len += n;
    lines += n;
    bytes -= n;
  }
  return true;
}

/* A listing's lines from a thread: written at once if its part is the head, held otherwise (up
   to HOLD_BYTES a thread in all, then it waits for the head to move). Nonzero: stop. */
static int write_lines(void *ctx, const char *lines, size_t bytes) {
  worker *w = ctx;
  shared *sh = w->sh;
  uint64_t p = w->part;
  pthread_mutex_lock(&sh->lock);
  while (!atomic_load(&sh->halt)) {
    if (p == sh->head) {
      emit(sh, lines, bytes);
      break;
    }
    if (hold(sh, p, lines, bytes)) break;
    pthread_cond_wait(&sh->moved, &sh->lock);
  }
  int stop = atomic_load(&sh->halt);
  pthread_mutex_unlock(&sh->lock);
  return stop;
}

static void part_done(void *ctx, uint64_t part, pq_count count, uint64_t nodes) {
  worker *w = ctx;
  shared *sh = w->sh;
  pthread_mutex_lock(&sh->lock);
  (void)nodes;
  sh->value[part] = count;
  sh->done[part] = true;
  sh->finished++;
  advance(sh);
  pthread_mutex_unlock(&sh->lock);
}

static pq_status poll_run(void *ctx, uint64_t nodes) {
  worker *w = ctx;
  shared *sh = w->sh;
  uint64_t total = atomic_fetch_add(&sh->nodes, nodes) + nodes;
  if (sh->job->node_limit && total >= sh->job->node_limit && !atomic_load(&sh->halt)) {
    pthread_mutex_lock(&sh->lock);
    halt_all(sh);
    pthread_mutex_unlock(&sh->lock);
  }
  if (atomic_load(&sh->halt)) return PQ_ELIMIT;
  if (sh->job->progress && !pthread_mutex_trylock(&sh->lock)) {
    pq_progress_update(&sh->progress, sh->finished, total);
    pthread_mutex_unlock(&sh->lock);
  }
  if (w->main) start_helpers(sh, w);
  return PQ_OK;
}

static pq_status work(worker *w) {
  shared *sh = w->sh;
  pq_pieces_worker pw = {.next = claim, .done = part_done, .ctx = w};
  /* The shared limit is checked by the polls; no solver alone passes it either. */
  uint64_t limit = sh->job->node_limit;
  pq_pieces_set_limits(w->engine, limit ? pq_pieces_nodes(w->engine) + limit : 0,
                       sh->job->deadline);
  pq_pieces_set_poll(w->engine, poll_run, w);
  pq_pieces_listing_init(&w->listing);
  w->listing.unique = sh->listing->unique;
  w->listing.prefix = sh->listing->prefix;
  w->listing.suffix = sh->listing->suffix;
  w->listing.out = sh->listing->out;
  if (w->main) {
    /* Alone, the main thread takes the parts in order, straight into the file. */
    w->listing.limit = sh->listing->limit;
  } else {
    w->listing.write = write_lines;
    w->listing.write_ctx = w;
  }
  pq_status rc = pq_pieces_split_list(w->engine, sh->sp, &w->listing, &pw, &w->listed);
  pq_pieces_set_poll(w->engine, NULL, NULL);
  if (rc != PQ_OK) {
    /* An interrupt or a time limit seen by this thread first: the others stop too (a listing's
       threads may be waiting for this one's part to be written out). */
    pthread_mutex_lock(&sh->lock);
    halt_all(sh);
    pthread_mutex_unlock(&sh->lock);
  }
  return rc;
}

static void *helper_main(void *arg) {
  worker *w = arg;
  w->status = work(w);
  return NULL;
}

/* The stronger reason to stop: an interrupt, then a limit, then the rest. */
static pq_status worse(pq_status a, pq_status b) {
  if (a == PQ_EINTR || b == PQ_EINTR) return PQ_EINTR;
  if (a == PQ_OK) return b;
  return a;
}

static void list_clear(shared *sh) {
  if (sh->locks) {
    pthread_mutex_destroy(&sh->lock);
    pthread_cond_destroy(&sh->moved);
  }
  for (uint64_t i = 0; sh->held && i <= sh->parts; i++)
    for (block *b = i < sh->parts ? sh->held[i] : sh->spare, *next; b; b = next) {
      next = b->next;
      free(b);
    }
  free(sh->held);
  free(sh->last);
  free(sh->out);
  free(sh->done);
  free(sh->value);
  free(sh->helpers);
  free(sh->threads);
}

/* Sets sh up for listing l of job, split by sp. */
static void list_setup(shared *sh, const pq_pieces_job *job, const pq_pieces_listing *l,
                       const pq_pieces_split *sp) {
  memset(sh, 0, sizeof *sh);
  sh->job = job;
  sh->listing = l;
  sh->sp = sp;
  sh->parts = pq_pieces_split_parts(sp);
  sh->done = pq_calloc(sh->parts, sizeof *sh->done);
  sh->value = pq_calloc(sh->parts, sizeof *sh->value);
  sh->held = pq_calloc(sh->parts, sizeof *sh->held);
  sh->last = pq_calloc(sh->parts, sizeof *sh->last);
  const pq_board *b = job->board;
  sh->line_len = (l->prefix ? strlen(l->prefix) : 0) + (size_t)(b->squares + b->height - 1) +
                 (l->suffix ? strlen(l->suffix) : 0) + 1;
  sh->out = pq_malloc(OUT_BYTES);
  pthread_mutex_init(&sh->lock, NULL);
  pthread_cond_init(&sh->moved, NULL);
  sh->locks = true;
  atomic_init(&sh->next, 0);
  atomic_init(&sh->nodes, 0);
  atomic_init(&sh->halt, 0);
  sh->start = pq_now();
  int jobs = job->jobs > 1 ? job->jobs : 1;
  sh->nhelpers = (uint64_t)jobs <= sh->parts ? jobs - 1 : (int)sh->parts - 1;
  sh->helpers = pq_calloc((size_t)sh->nhelpers + 1, sizeof *sh->helpers);
  sh->threads = pq_calloc((size_t)sh->nhelpers + 1, sizeof *sh->threads);
}

/* Runs listing l of job into sh (which list_clear frees), with main_engine on the first thread;
 *nodes gets the nodes searched. */
static pq_status list_job(const pq_pieces_job *job, const pq_pieces_listing *l, shared *sh,
                          pq_pieces *main_engine, pq_pieces_listed *listed, uint64_t *nodes) {
  uint64_t nodes_before = pq_pieces_nodes(main_engine);
  if (job->progress) pq_progress_start(&sh->progress, job->progress, sh->parts);
  worker main_worker = {.sh = sh, .engine = main_engine, .main = true};
  pq_status rc = work(&main_worker);
  *nodes = pq_pieces_nodes(main_engine) - nodes_before;
  if (sh->helpers_started)
    for (int i = 0; i < sh->nhelpers; i++) {
      pthread_join(sh->threads[i], NULL);
      rc = worse(rc, sh->helpers[i].status);
      *nodes += pq_pieces_nodes(sh->helpers[i].engine);
      pq_pieces_free(sh->helpers[i].engine);
    }
  if (job->progress) pq_progress_end(&sh->progress);
  if (!sh->helpers_started) {
    *listed = main_worker.listed;
    return rc;
  }
  write_out(sh);
  /* A listing cut short by its limit is done; one that could not be written failed. */
  if (sh->failed || (fflush(l->out) && rc == PQ_OK))
    rc = PQ_EIO;
  else if (sh->stopped)
    rc = PQ_OK;
  else if (rc == PQ_OK && atomic_load(&sh->halt))
    rc = pq_interrupted ? PQ_EINTR : PQ_ELIMIT;
  memset(listed, 0, sizeof *listed);
  listed->listed = sh->written / sh->line_len;
  listed->complete = rc == PQ_OK && !sh->stopped;
  for (uint64_t i = 0; i < sh->parts; i++)
    if (sh->done[i] && pq_count_add(&listed->reached, sh->value[i])) listed->reached = 0;
  return rc;
}

pq_status pq_pieces_list_run(const pq_pieces_job *job, const pq_pieces_listing *l,
                             pq_pieces_listed *out, uint64_t *nodes) {
  PQ_REQUIRE(l->out && !l->on_placement && !l->write, "a listing in parts writes to a file");
  PQ_REQUIRE(!job->checkpoint && !job->resume && !job->parts, "a listing has no parts to save");
  pq_pieces *main_engine = job->engine ? job->engine : pq_pieces_new(job->board, job->counts);
  pq_pieces_split *sp = pq_pieces_split_new_list(main_engine);
  shared sh;
  list_setup(&sh, job, l, sp);
  pq_status rc = list_job(job, l, &sh, main_engine, out, nodes);
  list_clear(&sh);
  pq_pieces_split_free(sp);
  if (!job->engine) pq_pieces_free(main_engine);
  return rc;
}

/* ---- counts, through the engine ---- */

/* A count first runs on one thread, whole, for this many nodes (a few milliseconds): a small
   count ends within them and pays nothing for parts or threads. */
#define PILOT_NODES 200000

/* An outcome: a part's share of the count or of Burnside's other terms, or their sums. */
typedef struct outcome {
  pq_count count, fixed;
} outcome;

typedef struct count_ctx {
  const pq_pieces_job *job;
  const pq_pieces_split *sp;
  uint64_t node_limit; /* of the run in parts (the pilot's nodes taken off); 0: none */
  char board[16], spec[64], head[160], label[128];
} count_ctx;

/* What a thread's solver calls back while it counts parts. */
typedef struct runner {
  const count_ctx *c;
  pq_engine_worker *w;
} runner;

static void *solver_new(void *ctx) {
  const count_ctx *c = ctx;
  return pq_pieces_new(c->job->board, c->job->counts);
}

static void solver_free(void *solver) { pq_pieces_free(solver); }

static uint64_t solver_nodes(const void *solver) { return pq_pieces_nodes(solver); }

static uint64_t count_next(void *ctx) { return pq_engine_next(((runner *)ctx)->w); }

static void count_done(void *ctx, uint64_t part, pq_count count, uint64_t nodes) {
  runner *r = ctx;
  outcome o = {0, 0};
  *(pq_pieces_split_fixed(r->c->sp, part) ? &o.fixed : &o.count) = count;
  pq_engine_done(r->w, part, &o, nodes);
}

static pq_status poll_part(void *ctx, uint64_t nodes) {
  return pq_engine_poll(((runner *)ctx)->w, nodes);
}

static pq_status run_parts(void *ctx, void *solver, pq_engine_worker *w) {
  runner r = {ctx, w};
  /* The shared node limit is kept by the engine's polls, every few thousand nodes; no solver
     alone passes it either (a small limit stops at once). */
  uint64_t limit = r.c->node_limit;
  pq_pieces_set_limits(solver, limit ? pq_pieces_nodes(solver) + limit : 0, r.c->job->deadline);
  pq_pieces_set_poll(solver, poll_part, &r);
  pq_pieces_worker pw = {.next = count_next, .done = count_done, .ctx = &r};
  pq_status rc = pq_pieces_split_run(solver, r.c->sp, &pw);
  pq_pieces_set_poll(solver, NULL, NULL);
  return rc;
}

static int add(void *ctx, void *total, const void *more) {
  (void)ctx;
  outcome *t = total;
  const outcome *m = more;
  return pq_count_add(&t->count, m->count) | pq_count_add(&t->fixed, m->fixed);
}

static void write_outcome(void *ctx, FILE *f, const void *value) {
  const count_ctx *c = ctx;
  const outcome *o = value;
  char buf[48];
  fprintf(f, "\"count\":%s", pq_count_str(o->count, buf));
  if (c->job->unique) fprintf(f, ",\"fixed\":%s", pq_count_str(o->fixed, buf));
}

static const char *read_outcome(void *ctx, const pq_json *v, void *value) {
  const count_ctx *c = ctx;
  outcome *o = value;
  o->fixed = 0;
  if (pq_json_count(pq_json_get(v, "count"), &o->count) ||
      (c->job->unique && pq_json_count(pq_json_get(v, "fixed"), &o->fixed)))
    return "its count is not a whole number below 2^128";
  return NULL;
}

/* Burnside: the count and the other terms add up to a multiple of the group's order. */
static const char *check_total(void *ctx, const void *total) {
  const count_ctx *c = ctx;
  const outcome *t = total;
  pq_count sum = t->count;
  if (!c->job->unique) return NULL;
  if (pq_count_add(&sum, t->fixed) || sum % (pq_count)pq_sym_count(c->job->board))
    return "Burnside's sum is not a multiple of the symmetries";
  return NULL;
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
};

/* Sets c up for job's count split by sp, and the engine's job e. */
static void count_setup(count_ctx *c, const pq_pieces_job *job, const pq_pieces_split *sp,
                        const char *spec, pq_pieces *solver, pq_engine_job *e) {
  memset(c, 0, sizeof *c);
  c->job = job;
  c->sp = sp;
  snprintf(c->board, sizeof c->board, "%dx%d", job->board->width, job->board->height);
  snprintf(c->spec, sizeof c->spec, "%s", spec);
  snprintf(c->head, sizeof c->head, "\"board\":\"%s\",\"pieces\":\"%s\",\"unique\":%s", c->board,
           c->spec, job->unique ? "true" : "false");
  snprintf(c->label, sizeof c->label, "count of pieces %s on %s%s", c->spec, c->board,
           job->unique ? " with --unique" : "");
  pq_engine_job_init(e);
  e->problem = &pieces_problem;
  e->ctx = c;
  e->split = (pq_engine_split){.parts = pq_pieces_split_parts(sp),
                               .id = pq_pieces_split_id(sp),
                               .head = c->head,
                               .what = "board, pieces, --unique",
                               .label = c->label};
  e->solver = solver;
  e->jobs = job->jobs;
  c->node_limit = e->node_limit = job->node_limit;
  e->deadline = job->deadline;
  e->checkpoint = job->checkpoint;
  e->resume = job->resume;
  e->progress = job->progress;
  e->part = job->part;
  e->parts = job->parts;
}

/* The pilot: the whole count (and Burnside's sum) on this thread, unsplit, for at most
   PILOT_NODES nodes. Returns PQ_OK with *out complete, or with *more set when its budget alone
   stopped it (the count is then run in parts, the solver's memo kept); or the status to stop
   with (a signal, the deadline or the caller's node limit: that is the answer). */
static pq_status pilot(const pq_pieces_job *job, pq_pieces *solver, pq_pieces_job_result *out,
                       bool *more) {
  uint64_t before = pq_pieces_nodes(solver);
  uint64_t budget =
      job->node_limit && job->node_limit < PILOT_NODES ? job->node_limit : PILOT_NODES;
  pq_pieces_set_limits(solver, before + budget, job->deadline);
  pq_status rc = pq_pieces_count(solver, true, &out->count);
  if (rc == PQ_OK && job->unique) rc = pq_pieces_count_unique(solver, out->count, &out->unique);
  out->nodes = pq_pieces_nodes(solver) - before;
  if (rc == PQ_OK && job->unique)
    out->fixed = out->unique * (pq_count)pq_sym_count(job->board) - out->count;
  *more = rc == PQ_ELIMIT && !(job->deadline > 0 && pq_now() > job->deadline) &&
          !(job->node_limit && out->nodes >= job->node_limit);
  return *more ? PQ_OK : rc;
}

/* Runs job's count (with part_line, its --part line); out gets the sums of the chosen parts. */
static pq_status count_run(const pq_pieces_job *job, bool part_line, pq_pieces_job_result *out) {
  memset(out, 0, sizeof *out);
  pq_pieces *solver = job->engine ? job->engine : pq_pieces_new(job->board, job->counts);
  pq_pieces_split *sp = NULL;
  snprintf(out->spec, sizeof out->spec, "%s", pq_pieces_spec(solver));
  pq_status rc = pq_pieces_check_size(solver, job->spec);
  bool more = true;
  if (rc == PQ_OK && !job->parts && !job->checkpoint && !job->resume)
    rc = pilot(job, solver, out, &more);
  uint64_t pilot_nodes = out->nodes;
  if (rc || !more) goto done;
  out->count = out->fixed = out->unique = 0;
  sp = pq_pieces_split_new(solver, job->unique);
  out->subparts = pq_pieces_split_parts(sp);
  out->id = pq_pieces_split_id(sp);
  count_ctx c;
  pq_engine_job e;
  count_setup(&c, job, sp, out->spec, solver, &e);
  if (job->node_limit) c.node_limit = e.node_limit = job->node_limit - pilot_nodes;
  outcome total = {0, 0};
  if (part_line) {
    rc = pq_engine_run_part(&e, &total);
  } else {
    pq_engine_result r;
    rc = pq_engine_run(&e, &total, &r);
    out->nodes = pilot_nodes + r.nodes;
  }
  out->count = total.count;
  out->fixed = total.fixed;
  if (rc == PQ_OK && job->unique && !job->parts) {
    pq_count sum = total.count;
    pq_count_add(&sum, total.fixed); /* checked by check_total */
    out->unique = sum / (pq_count)pq_sym_count(job->board);
  }
done:
  pq_pieces_split_free(sp);
  if (!job->engine) pq_pieces_free(solver);
  return rc;
}

pq_status pq_pieces_job_run(const pq_pieces_job *job, pq_pieces_job_result *out) {
  return count_run(job, false, out);
}

pq_status pq_pieces_part_run(const pq_pieces_job *job) {
  PQ_REQUIRE(job->parts >= 1 && job->part >= 1 && job->part <= job->parts, "bad part %d/%d",
             job->part, job->parts);
  pq_pieces_job_result r;
  return count_run(job, true, &r);
}

/* ---- merge ---- */

pq_status pq_pieces_merge(pq_json *const *results, int n, const pq_options *o) {
  const pq_json *first = results[0];
  const char *board = pq_json_get_string(first, "board"),
             *spec = pq_json_get_string(first, "pieces");
  const pq_json *unique_flag = pq_json_get(first, "unique");
  int width, height, counts[PQ_NPIECES];
  if (!board || !spec || !unique_flag ||
      (unique_flag->type != PQ_JSON_TRUE && unique_flag->type != PQ_JSON_FALSE)) {
    pq_error("merge: malformed pieces part result (line 1)");
    return PQ_EINVAL;
  }
  bool unique = unique_flag->type == PQ_JSON_TRUE;
  if (pq_board_parse(board, &width, &height)) return PQ_EINVAL; /* its message */
  pq_board *b = pq_board_new(width, height);
  pq_pieces *e = NULL;
  pq_pieces_split *sp = NULL;
  /* No pieces at all is written "" (pq_pieces_spec), which the command line does not take. */
  memset(counts, 0, sizeof counts);
  pq_status rc = *spec ? pq_pieces_parse(spec, b->squares, counts) : PQ_OK;
  if (rc) goto done;
  e = pq_pieces_new(b, counts);
  if ((rc = pq_pieces_check_size(e, spec))) goto done;
  /* The split is made again here: the parts must be of the split this program makes. */
  sp = pq_pieces_split_new(e, unique);
  pq_pieces_job job = {.board = b, .counts = counts, .spec = spec, .unique = unique};
  count_ctx c;
  pq_engine_job ej;
  count_setup(&c, &job, sp, pq_pieces_spec(e), e, &ej);
  outcome total = {0, 0};
  uint64_t nodes = 0;
  rc = pq_engine_merge(&pieces_problem, &c, &ej.split, results, n, &total, &nodes);
  const char *why = rc == PQ_OK ? check_total(&c, &total) : NULL;
  if (why) {
    pq_error("merge: the parts' counts do not add up (%s)", why);
    rc = PQ_EINVAL;
  }
  if (rc == PQ_OK) {
    char buf[48], ubuf[48];
    pq_count sum = total.count;
    pq_count_add(&sum, total.fixed);
    pq_count_str(total.count, buf);
    pq_count_str(sum / (pq_count)pq_sym_count(b), ubuf);
    if (PQ_FLAG(o, json)) {
      printf("{\"problem\":\"pieces\",\"board\":\"%s\",\"pieces\":\"%s\",\"count\":%s", board, spec,
             buf);
      if (unique) printf(",\"unique\":%s", ubuf);
      printf("}\n");
    } else {
      printf("%s\n", buf);
      if (unique) printf("%s up to symmetry\n", ubuf);
    }
  }
done:
  pq_pieces_split_free(sp);
  pq_pieces_free(e);
  pq_board_free(b);
  return rc;
}
