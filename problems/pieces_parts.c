/* pieces_parts.c: pieces counts in parts: threads, progress, checkpoints, --part I/N results and
   merging them. */
#include "pieces_parts.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../src/progress.h"
#include "../src/search.h"
#include "../src/sym.h"

/* Checkpoints are written at most this often while parts finish (and always at the end). */
#define CHECKPOINT_SECONDS 5

/* The other threads join once the run has taken this long: a small count is over before. A
   listing waits longer: its lines pass from thread to thread, which costs more than threads
   gain in a short one (measured: 7x7 K2Q2B2N1 listed into a file in 0.08 to 0.11 s on one
   thread, 0.11 to 0.14 s with the other joining at 10 ms). */
#define HELPER_DELAY 0.01
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

/* A count first runs on one thread, whole, for this many nodes (a few milliseconds): a small
   count ends within them and pays nothing for parts or threads. */
#define PILOT_NODES 200000

/* Checkpoints larger than this are refused. */
#define MAX_READ_BYTES ((size_t)1 << 30)

typedef struct shared shared;

/* One thread's share of the run. */
typedef struct worker {
  shared *sh;
  pq_pieces *engine;
  bool main; /* the thread that started the run: it starts the others */
  pq_status status;
  uint64_t part;             /* the part being counted or listed */
  pq_pieces_listing listing; /* a listing: this thread's (lines go to write_lines) */
  pq_pieces_listed listed;
} worker;

struct shared {
  const pq_pieces_job *job;
  const pq_pieces_split *sp;
  uint64_t parts;             /* of the split */
  uint64_t first, stride;     /* the parts chosen: first, first + stride, ... */
  bool *resumed;              /* taken from the checkpoint: read only while the threads run */
  uint64_t todo;              /* chosen parts left to count */
  uint64_t node_limit;        /* of the parts' run (the pilot's nodes taken off); 0: none */
  atomic_uint_fast64_t next;  /* claims handed out */
  atomic_uint_fast64_t nodes; /* nodes passed on by the polls */
  atomic_int halt;            /* a limit, a signal, the lines' limit or a failed write */
  pthread_mutex_t lock;
  /* Under lock: */
  bool *done;
  pq_count *value;
  uint64_t *part_nodes;
  uint64_t finished; /* parts counted by this run */
  double last_checkpoint;
  pq_progress progress;
  /* The other threads, started by the main one. */
  double start;
  bool helpers_started;
  int nhelpers;
  worker *helpers;
  pthread_t *threads;
  /* What checkpoints and part lines say. */
  char board[16], spec[64];
  uint64_t id;
  /* A listing: its lines are written out part after part; under lock. */
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

/* ---- 128-bit decimal numbers ---- */

/* Parses a JSON number that is a whole decimal number below 2^128 (no sign, fraction or
   exponent): returns 0 with *out, or -1. */
static int parse_count(const pq_json *v, pq_count *out) {
  if (!v || v->type != PQ_JSON_NUMBER) return -1;
  const char *s = v->string;
  pq_count c = 0;
  if (!*s || (s[0] == '0' && s[1])) return -1;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return -1;
    unsigned d = (unsigned)(*s - '0');
    if (c > (PQ_COUNT_MAX - d) / 10) return -1;
    c = c * 10 + d;
  }
  *out = c;
  return 0;
}

static int parse_u64(const pq_json *v, uint64_t *out) {
  pq_count c;
  if (parse_count(v, &c) || c > UINT64_MAX) return -1;
  *out = (uint64_t)c;
  return 0;
}

/* ---- the fields every checkpoint and part line starts with ---- */

static void write_head(FILE *f, const shared *sh) {
  fprintf(f,
          "\"problem\":\"pieces\",\"board\":\"%s\",\"pieces\":\"%s\",\"unique\":%s,"
          "\"split\":\"%016" PRIx64 "\",\"subparts\":%" PRIu64,
          sh->board, sh->spec, sh->job->unique ? "true" : "false", sh->id, sh->parts);
}

/* Whether doc has the head fields board, spec, unique, split id and subparts. */
static bool same_head(const pq_json *doc, const char *board, const char *spec, bool unique,
                      const char *id, uint64_t subparts) {
  const char *problem = pq_json_get_string(doc, "problem"), *b = pq_json_get_string(doc, "board"),
             *p = pq_json_get_string(doc, "pieces"), *s = pq_json_get_string(doc, "split");
  const pq_json *u = pq_json_get(doc, "unique");
  uint64_t n;
  return problem && !strcmp(problem, "pieces") && b && !strcmp(b, board) && p && !strcmp(p, spec) &&
         s && !strcmp(s, id) && u && u->type == (unique ? PQ_JSON_TRUE : PQ_JSON_FALSE) &&
         !parse_u64(pq_json_get(doc, "subparts"), &n) && n == subparts;
}

/* ---- checkpoints ---- */

static void write_checkpoint(FILE *f, void *ctx) {
  const shared *sh = ctx;
  uint64_t nodes = 0;
  for (uint64_t i = 0; i < sh->parts; i++)
    if (sh->done[i]) nodes += sh->part_nodes[i];
  fputs("{\"format\":\"peaceable-checkpoint\",\"version\":1,", f);
  write_head(f, sh);
  fprintf(f, ",\"nodes\":%" PRIu64 ",\"done\":[", nodes);
  bool first = true;
  char buf[48];
  for (uint64_t i = 0; i < sh->parts; i++)
    if (sh->done[i]) {
      fprintf(f, "%s\n[%" PRIu64 ",%s,%" PRIu64 "]", first ? "" : ",", i,
              pq_count_str(sh->value[i], buf), sh->part_nodes[i]);
      first = false;
    }
  fputs("]}\n", f);
}

/* Takes the finished parts of job->resume. Returns PQ_OK, or PQ_EINVAL with one message. */
static pq_status load_checkpoint(shared *sh) {
  const char *path = sh->job->resume;
  char *text, err[160], id[24];
  size_t len;
  pq_status rc = pq_read_file(path, MAX_READ_BYTES, &text, &len);
  if (rc) return PQ_EINVAL;
  pq_json *doc = pq_json_parse(text, len, err);
  free(text);
  snprintf(id, sizeof id, "%016" PRIx64, sh->id);
  const char *format = pq_json_get_string(doc, "format"),
             *problem = pq_json_get_string(doc, "problem");
  const pq_json *done = pq_json_get(doc, "done");
  rc = PQ_EINVAL;
  if (!doc) {
    pq_error("--resume %s: not JSON: %s", path, err);
  } else if (!format || strcmp(format, "peaceable-checkpoint")) {
    pq_error("--resume %s: not a peaceable checkpoint", path);
  } else if (!problem || strcmp(problem, "pieces")) {
    pq_error("--resume %s: a checkpoint of another problem, not pieces", path);
  } else if (!same_head(doc, sh->board, sh->spec, sh->job->unique, id, sh->parts)) {
    pq_error("--resume %s: a checkpoint of another board, pieces, --unique or split (this run: "
             "pieces %s on %s%s, split %s)",
             path, sh->spec, sh->board, sh->job->unique ? " with --unique" : "", id);
  } else if (!done || done->type != PQ_JSON_ARRAY) {
    pq_error("--resume %s: no list of finished parts", path);
  } else {
    rc = PQ_OK;
    for (size_t i = 0; i < done->length && rc == PQ_OK; i++) {
      const pq_json *d = done->items[i];
      uint64_t index, nodes;
      pq_count value;
      if (d->type != PQ_JSON_ARRAY || d->length != 3 || parse_u64(d->items[0], &index) ||
          index >= sh->parts || sh->done[index] || parse_count(d->items[1], &value) ||
          parse_u64(d->items[2], &nodes)) {
        pq_error("--resume %s: finished part %zu of the list is malformed or repeated", path,
                 i + 1);
        rc = PQ_EINVAL;
        break;
      }
      sh->done[index] = sh->resumed[index] = true;
      sh->value[index] = value;
      sh->part_nodes[index] = nodes;
    }
  }
  pq_json_free(doc);
  return rc;
}

/* ---- threads ---- */

static uint64_t claim(void *ctx) {
  shared *sh = ((worker *)ctx)->sh;
  while (!atomic_load(&sh->halt)) {
    uint64_t i = sh->first + atomic_fetch_add(&sh->next, 1) * sh->stride;
    if (i >= sh->parts) break;
    if (!sh->resumed[i]) return ((worker *)ctx)->part = i;
  }
  return UINT64_MAX;
}

static void *helper_main(void *arg);

static int write_lines(void *ctx, const char *lines, size_t bytes);

/* The main thread w starts the others once the run has taken HELPER_DELAY. A listing has run on
   it alone so far, straight into the file: from now on its lines go through write_lines too, its
   current part the first to write out. */
static void start_helpers(shared *sh, worker *w) {
  if (sh->helpers_started || !sh->nhelpers ||
      pq_now() - sh->start < (sh->listing ? LIST_HELPER_DELAY : HELPER_DELAY))
    return;
  const pq_pieces_listing *l = sh->listing;
  if (l && l->limit && w->listed.listed >= l->limit) return;
  sh->helpers_started = true;
  if (l) {
    pq_pieces_list_flush(w->engine);
    sh->written = (uint64_t)w->listed.listed * sh->line_len;
    sh->head = w->part;
    w->listing.limit = 0;
    w->listing.write = write_lines;
    w->listing.write_ctx = w;
  }
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
  sh->value[part] = count;
  sh->part_nodes[part] = nodes;
  sh->done[part] = true;
  sh->finished++;
  if (sh->listing) advance(sh);
  if (sh->job->checkpoint && pq_now() - sh->last_checkpoint >= CHECKPOINT_SECONDS) {
    sh->last_checkpoint = pq_now();
    /* A failed write is reported and tried again at the next one. */
    pq_write_atomic(sh->job->checkpoint, write_checkpoint, sh);
  }
  bool look = w->main && !sh->helpers_started && (sh->finished & 63) == 0;
  pthread_mutex_unlock(&sh->lock);
  if (look && !sh->listing) start_helpers(sh, w);
}

static pq_status poll_run(void *ctx, uint64_t nodes) {
  worker *w = ctx;
  shared *sh = w->sh;
  uint64_t total = atomic_fetch_add(&sh->nodes, nodes) + nodes;
  if (sh->node_limit && total >= sh->node_limit && !atomic_load(&sh->halt)) {
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
  uint64_t limit = sh->node_limit;
  pq_pieces_set_limits(w->engine, limit ? pq_pieces_nodes(w->engine) + limit : 0,
                       sh->job->deadline);
  pq_pieces_set_poll(w->engine, poll_run, w);
  pq_status rc;
  if (sh->listing) {
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
    rc = pq_pieces_split_list(w->engine, sh->sp, &w->listing, &pw, &w->listed);
  } else {
    rc = pq_pieces_split_run(w->engine, sh->sp, &pw);
  }
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

static void job_clear(shared *sh) {
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
  free(sh->resumed);
  free(sh->value);
  free(sh->part_nodes);
  free(sh->helpers);
  free(sh->threads);
}

/* Runs job into sh (whose arrays job_clear frees); out gets the sums of the chosen parts. With a
   listing l (NULL: a count), lists instead, into *listed. */
static pq_status run_job(const pq_pieces_job *job, const pq_pieces_listing *l, shared *sh,
                         pq_pieces_job_result *out, pq_pieces_listed *listed) {
  memset(out, 0, sizeof *out);
  memset(sh, 0, sizeof *sh);
  sh->job = job;
  sh->listing = l;
  pq_pieces *main_engine = job->engine ? job->engine : pq_pieces_new(job->board, job->counts);
  uint64_t nodes_before = pq_pieces_nodes(main_engine);
  pq_pieces_split *sp = NULL;
  snprintf(out->spec, sizeof out->spec, "%s", pq_pieces_spec(main_engine));
  snprintf(sh->spec, sizeof sh->spec, "%s", out->spec);
  snprintf(sh->board, sizeof sh->board, "%dx%d", job->board->width, job->board->height);
  pq_status rc = l ? PQ_OK : pq_pieces_check_size(main_engine, job->spec);
  if (rc) goto done;
  sh->node_limit = job->node_limit;
  if (!l && !job->parts && !job->checkpoint && !job->resume) {
    /* The pilot: the whole count (and Burnside's sum) on this thread, unsplit, for at most
       PILOT_NODES nodes. Stopped by them, it is counted again in parts (its memo kept). */
    uint64_t budget =
        job->node_limit && job->node_limit < PILOT_NODES ? job->node_limit : PILOT_NODES;
    pq_pieces_set_limits(main_engine, nodes_before + budget, job->deadline);
    rc = pq_pieces_count(main_engine, true, &out->count);
    if (rc == PQ_OK && job->unique)
      rc = pq_pieces_count_unique(main_engine, out->count, &out->unique);
    out->nodes = pq_pieces_nodes(main_engine) - nodes_before;
    if (rc == PQ_OK) {
      if (job->unique) out->fixed = out->unique * (pq_count)pq_sym_count(job->board) - out->count;
      goto done;
    }
    /* Stopped by a signal, the deadline or the caller's node limit: that is the answer. */
    if (rc != PQ_ELIMIT || (job->deadline > 0 && pq_now() > job->deadline) ||
        (job->node_limit && out->nodes >= job->node_limit))
      goto done;
    out->count = out->unique = 0;
    if (job->node_limit) sh->node_limit = job->node_limit - out->nodes;
  }
  sp = l ? pq_pieces_split_new_list(main_engine) : pq_pieces_split_new(main_engine, job->unique);
  sh->sp = sp;
  sh->parts = out->subparts = pq_pieces_split_parts(sp);
  sh->id = out->id = pq_pieces_split_id(sp);
  if (job->parts && (uint64_t)job->parts > sh->parts) {
    pq_error("pieces: --part %d/%d: this count splits into %" PRIu64
             " parts; N may be 1 to %" PRIu64,
             job->part, job->parts, sh->parts, sh->parts);
    rc = PQ_EINVAL;
    goto done;
  }
  sh->first = job->parts ? (uint64_t)job->part - 1 : 0;
  sh->stride = job->parts ? (uint64_t)job->parts : 1;
  sh->done = pq_calloc(sh->parts, sizeof *sh->done);
  sh->resumed = pq_calloc(sh->parts, sizeof *sh->resumed);
  sh->value = pq_calloc(sh->parts, sizeof *sh->value);
  sh->part_nodes = pq_calloc(sh->parts, sizeof *sh->part_nodes);
  if (job->resume && (rc = load_checkpoint(sh))) goto done;
  for (uint64_t i = sh->first; i < sh->parts; i += sh->stride)
    if (!sh->done[i]) sh->todo++;
  if (l) {
    sh->held = pq_calloc(sh->parts, sizeof *sh->held);
    sh->last = pq_calloc(sh->parts, sizeof *sh->last);
    const pq_board *b = job->board;
    sh->line_len = (l->prefix ? strlen(l->prefix) : 0) + (size_t)(b->squares + b->height - 1) +
                   (l->suffix ? strlen(l->suffix) : 0) + 1;
    sh->out = pq_malloc(OUT_BYTES);
  }
  pthread_mutex_init(&sh->lock, NULL);
  pthread_cond_init(&sh->moved, NULL);
  sh->locks = true;
  atomic_init(&sh->next, 0);
  atomic_init(&sh->nodes, 0);
  atomic_init(&sh->halt, 0);
  sh->start = sh->last_checkpoint = pq_now();
  int jobs = job->jobs > 1 ? job->jobs : 1;
  sh->nhelpers = (uint64_t)jobs <= sh->todo ? jobs - 1 : sh->todo ? (int)sh->todo - 1 : 0;
  sh->helpers = pq_calloc((size_t)sh->nhelpers + 1, sizeof *sh->helpers);
  sh->threads = pq_calloc((size_t)sh->nhelpers + 1, sizeof *sh->threads);
  if (job->progress) pq_progress_start(&sh->progress, job->progress, sh->todo);
  worker main_worker = {.sh = sh, .engine = main_engine, .main = true};
  rc = sh->todo ? work(&main_worker) : PQ_OK;
  out->nodes = pq_pieces_nodes(main_engine) - nodes_before;
  if (sh->helpers_started)
    for (int i = 0; i < sh->nhelpers; i++) {
      pthread_join(sh->threads[i], NULL);
      rc = worse(rc, sh->helpers[i].status);
    }
  for (int i = 0; i < sh->nhelpers && sh->helpers_started; i++) {
    out->nodes += pq_pieces_nodes(sh->helpers[i].engine);
    pq_pieces_free(sh->helpers[i].engine);
  }
  if (job->progress) pq_progress_end(&sh->progress);
  if (l && !sh->helpers_started) {
    *listed = main_worker.listed;
    goto done;
  }
  if (l) {
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
    goto done;
  }
  if (rc == PQ_OK && atomic_load(&sh->halt)) rc = pq_interrupted ? PQ_EINTR : PQ_ELIMIT;
  bool overflow = false;
  for (uint64_t i = sh->first; rc == PQ_OK && i < sh->parts; i += sh->stride) {
    PQ_REQUIRE(sh->done[i], "part %" PRIu64 " was not counted", i);
    overflow |=
        pq_count_add(pq_pieces_split_fixed(sp, i) ? &out->fixed : &out->count, sh->value[i]) != 0;
  }
  if (rc == PQ_OK && !overflow && job->unique && !job->parts) {
    pq_count sum = out->count, group = (pq_count)pq_sym_count(job->board);
    overflow = pq_count_add(&sum, out->fixed) != 0 || sum % group != 0;
    out->unique = sum / group;
  }
  if (overflow) {
    /* Only a checkpoint's counts can do this: the search's own stay below 2^125. The refused
       counts are not written to --checkpoint (a refusal writes nothing). */
    pq_error("--resume %s: the finished parts' counts do not add up to a count",
             job->resume ? job->resume : "");
    rc = PQ_EINVAL;
  }
  if (job->checkpoint && (rc == PQ_OK || rc == PQ_ELIMIT || rc == PQ_EINTR)) {
    pq_status w = pq_write_atomic(job->checkpoint, write_checkpoint, sh);
    if (rc == PQ_OK) rc = w;
  }
done:
  pq_pieces_split_free(sp);
  if (!job->engine) pq_pieces_free(main_engine);
  return rc;
}

pq_status pq_pieces_job_run(const pq_pieces_job *job, pq_pieces_job_result *out) {
  shared sh;
  pq_status rc = run_job(job, NULL, &sh, out, NULL);
  job_clear(&sh);
  return rc;
}

pq_status pq_pieces_list_run(const pq_pieces_job *job, const pq_pieces_listing *l,
                             pq_pieces_listed *out, uint64_t *nodes) {
  PQ_REQUIRE(l->out && !l->on_placement && !l->write, "a listing in parts writes to a file");
  PQ_REQUIRE(!job->checkpoint && !job->resume && !job->parts, "a listing has no parts to save");
  shared sh;
  pq_pieces_job_result r;
  pq_status rc = run_job(job, l, &sh, &r, out);
  *nodes = r.nodes;
  job_clear(&sh);
  return rc;
}

/* ---- --part I/N ---- */

typedef struct part_line {
  const shared *sh;
  int part, parts;
  bool done;
  pq_count count, fixed;
  uint64_t nodes;
} part_line;

static void write_part_line(FILE *f, void *ctx) {
  const part_line *l = ctx;
  char buf[48];
  fputc('{', f);
  write_head(f, l->sh);
  fprintf(f, ",\"part\":%d,\"parts\":%d,\"done\":%s", l->part, l->parts,
          l->done ? "true" : "false");
  if (l->done) {
    fprintf(f, ",\"count\":%s", pq_count_str(l->count, buf));
    if (l->sh->job->unique) fprintf(f, ",\"fixed\":%s", pq_count_str(l->fixed, buf));
  }
  fprintf(f, ",\"nodes\":%" PRIu64 "}\n", l->nodes);
}

pq_status pq_pieces_part_run(const pq_pieces_job *job) {
  PQ_REQUIRE(job->parts >= 1 && job->part >= 1 && job->part <= job->parts, "bad part %d/%d",
             job->part, job->parts);
  shared sh;
  pq_pieces_job_result r;
  pq_status rc = run_job(job, NULL, &sh, &r, NULL);
  if (rc == PQ_OK || rc == PQ_ELIMIT || rc == PQ_EINTR) {
    part_line l = {.sh = &sh,
                   .part = job->part,
                   .parts = job->parts,
                   .done = rc == PQ_OK,
                   .count = r.count,
                   .fixed = r.fixed,
                   .nodes = r.nodes};
    for (uint64_t i = sh.first; i < sh.parts; i += sh.stride)
      if (sh.resumed[i]) l.nodes += sh.part_nodes[i];
    write_part_line(stdout, &l);
  }
  job_clear(&sh);
  return rc;
}

/* ---- merge ---- */

pq_status pq_pieces_merge(pq_json *const *results, int n, const pq_options *o) {
  const pq_json *first = results[0];
  const char *board = pq_json_get_string(first, "board"),
             *spec = pq_json_get_string(first, "pieces"),
             *split = pq_json_get_string(first, "split");
  const pq_json *unique_flag = pq_json_get(first, "unique");
  uint64_t subparts, parts;
  int width, height, counts[PQ_NPIECES];
  if (!board || !spec || !split || !unique_flag ||
      (unique_flag->type != PQ_JSON_TRUE && unique_flag->type != PQ_JSON_FALSE) ||
      parse_u64(pq_json_get(first, "subparts"), &subparts) ||
      parse_u64(pq_json_get(first, "parts"), &parts) || parts < 1 || parts > subparts) {
    pq_error("merge: malformed pieces part result (line 1)");
    return PQ_EINVAL;
  }
  bool unique = unique_flag->type == PQ_JSON_TRUE;
  if (pq_board_parse(board, &width, &height)) return PQ_EINVAL; /* its message */
  pq_board *b = pq_board_new(width, height);
  pq_pieces *e = NULL;
  pq_pieces_split *sp = NULL;
  bool *seen = NULL;
  char id[24];
  /* No pieces at all is written "" (pq_pieces_spec), which the command line does not take. */
  memset(counts, 0, sizeof counts);
  pq_status rc = *spec ? pq_pieces_parse(spec, b->squares, counts) : PQ_OK;
  if (rc) goto done;
  e = pq_pieces_new(b, counts);
  if ((rc = pq_pieces_check_size(e, spec))) goto done;
  /* The split is made again here: the parts must be of the split this program makes. */
  sp = pq_pieces_split_new(e, unique);
  snprintf(id, sizeof id, "%016" PRIx64, pq_pieces_split_id(sp));
  if (strcmp(spec, pq_pieces_spec(e)) || strcmp(split, id) ||
      subparts != pq_pieces_split_parts(sp)) {
    pq_error("merge: the parts are not of the split this program makes for pieces %s on %s "
             "(split %s, %" PRIu64 " parts)",
             pq_pieces_spec(e), board, id, pq_pieces_split_parts(sp));
    rc = PQ_EINVAL;
    goto done;
  }
  seen = pq_calloc(parts + 1, sizeof *seen);
  pq_count count = 0, fixed = 0;
  bool overflow = false;
  for (int i = 0; i < n && rc == PQ_OK; i++) {
    uint64_t part, of;
    pq_count c = 0, f = 0;
    const pq_json *done = pq_json_get(results[i], "done");
    if (!same_head(results[i], board, spec, unique, split, subparts) ||
        parse_u64(pq_json_get(results[i], "parts"), &of) || of != parts ||
        parse_u64(pq_json_get(results[i], "part"), &part) || part < 1 || part > parts || !done ||
        (done->type != PQ_JSON_TRUE && done->type != PQ_JSON_FALSE)) {
      pq_error("merge: result %d is not a part of the same pieces count and split", i + 1);
      rc = PQ_EINVAL;
    } else if (seen[part]) {
      pq_error("merge: part %" PRIu64 "/%" PRIu64 " appears twice", part, parts);
      rc = PQ_EINVAL;
    } else if (done->type != PQ_JSON_TRUE) {
      pq_error("merge: part %" PRIu64 "/%" PRIu64 " did not finish: no total", part, parts);
      rc = PQ_ELIMIT;
    } else if (parse_count(pq_json_get(results[i], "count"), &c) ||
               (unique && parse_count(pq_json_get(results[i], "fixed"), &f))) {
      pq_error("merge: part %" PRIu64 "/%" PRIu64 ": its count is not a whole number below 2^128",
               part, parts);
      rc = PQ_EINVAL;
    } else {
      seen[part] = true;
      overflow |= pq_count_add(&count, c) != 0;
      overflow |= pq_count_add(&fixed, f) != 0;
    }
  }
  for (uint64_t p = 1; p <= parts && rc == PQ_OK; p++)
    if (!seen[p]) {
      pq_error("merge: part %" PRIu64 "/%" PRIu64 " is missing: no total", p, parts);
      rc = PQ_ELIMIT;
    }
  pq_count group = (pq_count)pq_sym_count(b), sum = count, distinct = 0;
  if (rc == PQ_OK && unique) {
    overflow |= pq_count_add(&sum, fixed) != 0;
    if (!overflow && sum % group) overflow = true;
    distinct = sum / group;
  }
  if (rc == PQ_OK && overflow) {
    pq_error("merge: the parts' counts do not add up (beyond 2^128, or Burnside's sum not a "
             "multiple of %d)",
             (int)group);
    rc = PQ_EINVAL;
  }
  if (rc == PQ_OK) {
    char buf[48], ubuf[48];
    pq_count_str(count, buf);
    pq_count_str(distinct, ubuf);
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
  free(seen);
  pq_pieces_split_free(sp);
  pq_pieces_free(e);
  pq_board_free(b);
  return rc;
}
