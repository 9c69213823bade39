/* engine.c: one engine for work split into parts, for every problem: threads, limits and
   signals, progress, checkpoints and resuming, --part I/N result lines (the files' seals, reading
   and merging: sealed.c). */
#include "engine.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/search.h"
#include "progress.h"
#include "sealed.h"

typedef struct engine engine;

struct pq_engine_worker {
  engine *e;
  void *solver;
  bool main;     /* the thread that started the run: it starts the others */
  uint64_t part; /* the part under way (the last one pq_engine_next gave) */
  pq_status status;
  bool remote;                /* rank 0's one thread: the parts run in other processes */
  const pq_engine_port *port; /* a serving process's: parts from rank 0 */
};

const pq_engine_remote *pq_engine_remote_hook;

bool pq_engine_serving(void) { return pq_engine_remote_hook && pq_engine_remote_hook->serving; }

struct engine {
  const pq_engine_task *task;
  const pq_engine_problem *pb;
  uint64_t parts;
  uint64_t first, stride;     /* the chosen parts: first, first + stride, ... */
  bool *resumed;              /* taken from the checkpoint: read only while the threads run */
  uint64_t todo;              /* chosen parts left to run */
  atomic_uint_fast64_t next;  /* claims handed out */
  atomic_uint_fast64_t nodes; /* nodes passed on by the polls */
  atomic_int halt;            /* a limit, a signal or another thread's stop */
  atomic_uint_fast64_t cut;   /* the first part done with a decisive outcome; UINT64_MAX: none */
  pthread_mutex_t lock;
  /* Under lock: */
  bool *done;
  unsigned char *outcome; /* [parts * outcome_size] */
  char **text;            /* [parts]: texts not yet emitted, or kept for the files */
  bool kept;              /* some text was kept (text[] is then freed part by part) */
  size_t *text_len;
  uint64_t emitted;       /* the next chosen part whose text is to be emitted */
  size_t held, held_most; /* bytes of texts not yet emitted: now, and the most at once */
  pthread_cond_t moved;   /* texts were emitted, or the run is stopping */
  uint64_t *part_nodes;
  uint64_t finished; /* parts run to the end by this run */
  double last_save;
  bool save_failed; /* a checkpoint write failed while the parts ran: the run stops */
  pq_progress progress;
  pq_engine_lines *lines; /* a listing's texts emitted, with --checkpoint (listed.c) */
  pq_engine_mark mark;    /* of the checkpoint resumed: its parts in its lines file */
  uint64_t least;         /* reading the lines file back: the part whose records come now */
  char *gather;           /* its text so far, to be checked whole; NULL past GATHER_BYTES */
  size_t gathered;
  uint64_t read_lines; /* the lines of its text so far */
  bool copy;           /* records read back go to this run's lines file, a new one */
  /* The other threads, started by the first one. */
  double start;
  bool helpers_started;
  int nhelpers;
  pq_engine_worker *helpers;
  pq_threads *threads; /* the helpers' */
  bool locks;          /* lock is set up */
};

/* ---- the head every checkpoint and part line starts with ---- */

static void write_head(FILE *f, const engine *e) {
  const pq_engine_split *sp = &e->task->split;
  fprintf(f, "\"problem\":\"%s\",%s,\"split\":\"%016" PRIx64 "\",\"subparts\":%" PRIu64,
          e->pb->name, sp->head, sp->id, sp->parts);
}

/* ---- checkpoints ---- */

/* The checkpoint of the finished parts (under lock), as one JSON object. */
static void write_checkpoint(FILE *f, void *ctx) {
  const engine *e = ctx;
  uint64_t nodes = 0, done = 0;
  for (uint64_t i = 0; i < e->parts; i++)
    if (e->done[i]) nodes += e->part_nodes[i], done++;
  pq_engine_kept(done);
  /* Version 3 has a lines file (listed.c), which a reader of version 2 would not look for. */
  fprintf(f, "{\"format\":\"peaceable-checkpoint\",\"version\":%d,", e->lines ? 3 : 2);
  write_head(f, e);
  if (e->task->facts) fprintf(f, ",%s", e->task->facts);
  if (e->lines) pq_engine_lines_member(f, e->lines);
  fprintf(f, ",\"nodes\":%" PRIu64 ",\"done\":[", nodes);
  bool first = true;
  for (uint64_t i = 0; i < e->parts; i++)
    if (e->done[i]) {
      fprintf(f, "%s\n[%" PRIu64 ",{", first ? "" : ",", i);
      e->pb->write(e->task->ctx, f, e->outcome + i * e->pb->outcome_size);
      fprintf(f, "},%" PRIu64, e->part_nodes[i]);
      if (e->text[i]) {
        fputc(',', f);
        pq_json_write_string(f, e->text[i]);
      }
      fputc(']', f);
      first = false;
    }
  fputs("]}", f);
}

/* Writes the checkpoint (under lock); a failed write is reported (pq_write_atomic). */
static pq_status save(engine *e) {
  /* The lines a checkpoint names are on the disk before it. */
  pq_status rc = e->lines ? pq_engine_saved(pq_engine_lines_sync(e->lines)) : PQ_OK;
  if (!rc) rc = pq_engine_save_sealed(e->task->lim.checkpoint, write_checkpoint, e);
  e->last_save = pq_now();
  return rc;
}

/* Keeps a copy of part i's text. */
static void keep_text(engine *e, uint64_t i, const char *text, size_t len) {
  e->kept = true;
  e->text[i] = pq_malloc(len + 1);
  memcpy(e->text[i], text, len);
  e->text[i][len] = 0;
  e->text_len[i] = len;
  e->held += len;
  if (e->held > e->held_most) e->held_most = e->held;
}

/* Whether the run is a listing whose texts can go to a lines file beside its checkpoint, or come
   back from one (listed.c): a whole run (not --part I/N, not under peaceable-mpi) whose texts
   are neither proofs nor a decision's witness. */
static bool listing(const engine *e) {
  return e->pb->emit && !e->pb->private_texts && !e->pb->decisive && !e->task->lim.parts &&
         !pq_engine_remote_hook;
}

/* Whether the texts of parts emitted are kept for a file: a part line, or a checkpoint that has
   no lines file. */
static bool keeps(const engine *e) {
  return e->task->lim.parts || (e->task->lim.checkpoint && !e->lines);
}

/* Takes the finished parts listed in checkpoint doc. Returns PQ_OK, or PQ_EINVAL with one
   message. */
static pq_status take_parts(engine *e, const pq_json *doc) {
  const char *path = e->task->lim.resume;
  const pq_json *done = pq_json_get(doc, "done");
  if (!done || done->type != PQ_JSON_ARRAY) {
    pq_error("--resume %s: no list of finished parts", path);
    return PQ_EINVAL;
  }
  size_t size = e->pb->outcome_size;
  for (size_t i = 0; i < done->length; i++) {
    const pq_json *d = done->items[i];
    uint64_t index, nodes;
    const char *why = "malformed or repeated";
    if (d->type == PQ_JSON_ARRAY &&
        (d->length == 3 || (d->length == 4 && pq_engine_is_text(d->items[3]))) &&
        !pq_engine_u64(d->items[0], &index) && index < e->parts && !e->done[index] &&
        d->items[1]->type == PQ_JSON_OBJECT && !pq_engine_u64(d->items[2], &nodes)) {
      const char *bad = e->pb->read(e->task->ctx, d->items[1], e->outcome + index * size);
      /* Private texts are the proofs a certificate is made of (--cert): a checkpoint holds
         them for every part or for none, so that it can still give a certificate. */
      if (!bad && e->task->need_texts && d->length == 3 &&
          !(e->pb->decisive && e->pb->decisive(e->task->ctx, e->outcome + index * size)))
        bad = "it has no proof (a run without --cert finished it)";
      if (!bad && !e->task->need_texts && e->pb->private_texts && d->length == 4)
        bad = "it holds a proof: the checkpoint is of a run with --cert; resume it with --cert "
              "(the parts done without would keep no proof)";
      if (!bad && e->pb->found_at && e->pb->decisive(e->task->ctx, e->outcome + index * size) &&
          e->pb->found_at(e->task->ctx, e->outcome + index * size) != index)
        bad = "its witness is said to be of another part";
      bool in_lines = index < e->mark.parts; /* (its text in the lines file: checked there) */
      if (!bad && in_lines && d->length == 4) bad = "its text is in the lines file too";
      if (!bad && e->pb->check_text && !e->pb->private_texts && !in_lines) /* (none: none listed) */
        bad = e->pb->check_text(e->task->ctx, index, e->outcome + index * size,
                                d->length == 4 ? d->items[3]->string : "",
                                d->length == 4 ? d->items[3]->length : 0);
      if (!bad) {
        e->done[index] = e->resumed[index] = true;
        e->part_nodes[index] = nodes;
        if (d->length == 4) keep_text(e, index, d->items[3]->string, d->items[3]->length);
        continue;
      }
      why = bad;
    }
    pq_error("--resume %s: entry %zu of its finished parts (\"done\"): %s", path, i + 1, why);
    return PQ_EINVAL;
  }
  /* Outcomes that pass what one holds are refused now, before a listing prints a line of them
     (the sums' other checks need every part, at the end). */
  _Alignas(max_align_t) unsigned char sum[PQ_ENGINE_MAX_OUTCOME] = {0};
  for (uint64_t i = 0; i < e->parts; i++)
    if (e->resumed[i] && e->pb->add(e->task->ctx, sum, e->outcome + i * size)) {
      pq_error("--resume %s: the finished parts' outcomes do not add up (past what an outcome "
               "holds)",
               path);
      return PQ_EINVAL;
    }
  return PQ_OK;
}

/* The most bytes of a part's text read back from a lines file that are gathered, to look for a
   line twice in it; a longer one is checked record by record. */
#define GATHER_BYTES ((size_t)64 << 20)

/* Checks text (of part, from the lines file) line by line as the problem's check_text does; the
   number of its lines is end_part's. */
static const char *check_piece(engine *e, uint64_t part, const char *text, size_t len) {
  return e->pb->check_text ? e->pb->check_text(e->task->ctx, part, NULL, text, len) : NULL;
}

/* Ends part e->least of the lines file read back: checks its text gathered, that no line is in it
   twice, and the number of its lines against its outcome. */
static const char *end_part(engine *e) {
  const char *why = e->gather ? check_piece(e, e->least, e->gather, e->gathered) : NULL;
  /* (Every part, also one too long to gather: a part padded past GATHER_BYTES went uncounted.) */
  uint64_t want = e->pb->text_lines ? e->pb->text_lines(e->task->ctx, e->least,
                                                        e->outcome + e->least * e->pb->outcome_size)
                                    : UINT64_MAX;
  if (!why && want != UINT64_MAX && e->read_lines != want)
    why = "its text does not have the lines its outcome says it listed";
  size_t len;
  if (!why && e->gather && pq_engine_repeated_line(&(pq_span){e->gather, e->gathered}, 1, &len))
    why = "a line of one of its parts is there twice";
  e->read_lines = 0;
  free(e->gather);
  e->gather = pq_malloc(1);
  e->gathered = 0;
  e->least++;
  return why;
}

/* A record of the resumed lines file: of a part that it holds, in order; its text as the
   problem's check_text takes it. */
static const char *check_record(void *ctx, uint64_t part, const char *text, size_t len) {
  engine *e = ctx;
  const char *why = NULL;
  if (part >= e->mark.parts || part < e->least)
    return "a record of a part it does not hold, or out of order";
  if (memchr(text, 0, len)) return "a record holds a NUL byte";
  while (!why && e->least < part)
    why = end_part(e);
  if (why) return why;
  e->read_lines += pq_newlines(text, len);
  if (e->gather && e->gathered + len <= GATHER_BYTES) {
    e->gather = pq_realloc(e->gather, e->gathered + len + 1);
    memcpy(e->gather + e->gathered, text, len);
    e->gathered += len;
    return NULL;
  }
  /* Too long to gather: what was gathered, and each record from here, checked as it comes. */
  if (e->gather) why = check_piece(e, part, e->gather, e->gathered);
  free(e->gather);
  e->gather = NULL;
  return why ? why : check_piece(e, part, text, len);
}

/* Checks the lines file of the checkpoint resumed, up to its mark: PQ_OK, or PQ_EINVAL with one
   message. */
static pq_status check_lines(engine *e) {
  const char *resume = e->task->lim.resume, *why = NULL;
  e->least = e->read_lines = 0;
  e->gather = pq_malloc(1);
  e->gathered = 0;
  pq_status rc = pq_engine_lines_read(resume, &e->mark, e->task->lim.deadline, check_record, e);
  while (!rc && !why && e->least < e->mark.parts)
    why = end_part(e);
  free(e->gather);
  e->gather = NULL;
  if (why) {
    char *path = pq_engine_lines_path(resume);
    pq_error("--resume %s: its lines file %s: %s", resume, path, why);
    free(path);
    rc = PQ_EINVAL;
  }
  return rc;
}

/* Takes the finished parts of task->lim.resume, refusing a file that is not a sealed checkpoint of
   this instance and split. Returns PQ_OK, or PQ_EINVAL with one message. */
static pq_status load(engine *e) {
  const char *path = e->task->lim.resume;
  const pq_engine_split *sp = &e->task->split;
  pq_json *doc;
  pq_status rc = pq_engine_open_checkpoint(path, e->pb->name, &doc);
  if (rc) return rc;
  rc = PQ_EINVAL;
  const char *bad_mark = pq_engine_lines_mark(doc, &e->mark);
  if (!pq_engine_same_instance(doc, e->pb->name, sp))
    pq_error("--resume %s: a checkpoint of another %s or split (this run: %s, split %016" PRIx64
             ")",
             path, sp->what, sp->label, sp->id);
  else if (bad_mark)
    pq_error("--resume %s: %s", path, bad_mark);
  else if (e->mark.parts && (!listing(e) || e->mark.parts > e->parts))
    pq_error("--resume %s: its listing's lines are in its lines file, which this run cannot take "
             "(--part I/N, or peaceable-mpi): resume it whole",
             path);
  else if (e->mark.parts && e->task->lim.checkpoint &&
           pq_engine_lines_of(e->task->lim.checkpoint, path))
    pq_error("--checkpoint %s: the lines file of the checkpoint resumed: it would be written over",
             e->task->lim.checkpoint);
  else if (listing(e) && e->task->lim.checkpoint &&
           pq_engine_lines_of(path, e->task->lim.checkpoint))
    pq_error("--resume %s: the lines file that --checkpoint %s writes: it would be written over",
             path, e->task->lim.checkpoint);
  else
    rc = take_parts(e, doc);
  pq_json_free(doc);
  for (uint64_t i = 0; !rc && i < e->mark.parts; i++)
    if (!e->done[i]) {
      pq_error("--resume %s: its lines file holds part %" PRIu64 ", which it does not list as done",
               path, i);
      rc = PQ_EINVAL;
    }
  if (!rc && e->mark.parts) rc = check_lines(e);
  if (rc || e->pb->private_texts) return rc;
  pq_span *texts = pq_calloc(e->parts + 1, sizeof *texts);
  size_t n = 0, len;
  for (uint64_t i = 0; i < e->parts; i++)
    if (e->text[i]) texts[n++] = (pq_span){e->text[i], e->text_len[i]};
  const char *line = pq_engine_repeated_line(texts, n, &len);
  if (line) {
    pq_error("--resume %s: a line of its finished parts is there twice (%.*s)", path,
             (int)(len < 200 ? len : 200), line);
    rc = PQ_EINVAL;
  }
  free(texts);
  return rc;
}

/* ---- threads ---- */

static bool stop_now(engine *e, uint64_t nodes);
static void halt(engine *e) { atomic_store(&e->halt, 1); }

uint64_t pq_engine_next(pq_engine_worker *w) {
  if (w->port) return w->port->next(w->port->arg);
  engine *e = w->e;
  while (!atomic_load(&e->halt)) {
    uint64_t i = e->first + atomic_fetch_add(&e->next, 1) * e->stride;
    if (i >= e->parts || i > atomic_load(&e->cut)) break;
    if (e->resumed[i]) continue;
    /* A signal or the deadline between parts too: a part may end before its solver polls (the
       node limit is the polls': they halt the run). */
    if (stop_now(e, 0)) break;
    return w->part = i;
  }
  return UINT64_MAX;
}

static void *helper_main(void *arg);

/* The first thread w starts the others once the run has taken task->helper_delay: a small run is
   over before and pays nothing for threads. Their solvers are built here, before any runs. */
static void start_helpers(engine *e) {
  if (e->helpers_started || !e->nhelpers || pq_now() - e->start < e->task->helper_delay) return;
  e->helpers_started = true;
  for (int i = 0; i < e->nhelpers; i++) {
    e->helpers[i].e = e;
    e->helpers[i].solver = e->pb->solver_new(e->task->ctx);
  }
  e->threads = pq_threads_start(e->nhelpers, helper_main, e->helpers, sizeof *e->helpers);
}

/* Part i is done with outcome: when it decides the run, no part after it is needed. */
static void cut_at(engine *e, uint64_t i, const void *outcome) {
  if (!e->pb->decisive || !e->pb->decisive(e->task->ctx, outcome)) return;
  uint_fast64_t cut = atomic_load(&e->cut);
  while (i < cut && !atomic_compare_exchange_weak(&e->cut, &cut, i)) {
  }
}

/* Whether w's part under way comes after a decisive one (and is not needed). */
static bool cut_off(const pq_engine_worker *w) { return w->part > atomic_load(&w->e->cut); }

/* Hands the problem the texts of the chosen parts done in a row from the next one to emit, up to a
   decisive one (under lock). They are kept only for the files: a checkpoint without a lines file,
   or a part line. */
static void flush(engine *e) {
  if (!e->pb->emit) return;
  bool keep = keeps(e);
  for (; e->emitted < e->parts && e->emitted <= atomic_load(&e->cut) && e->done[e->emitted];
       e->emitted += e->stride) {
    uint64_t i = e->emitted;
    e->pb->emit(e->task->ctx, i, e->text[i], e->text[i] ? e->text_len[i] : 0);
    if (e->lines && e->text[i]) pq_engine_lines_add(e->lines, i, e->text[i], e->text_len[i]);
    if (e->lines) pq_engine_lines_commit(e->lines, i + 1);
    if (e->text[i]) e->held -= e->text_len[i];
    pthread_cond_broadcast(&e->moved);
    /* The deciding part's text goes to the remote processes at the end. */
    if (!keep && !(pq_engine_remote_hook && i == atomic_load(&e->cut))) {
      free(e->text[i]);
      e->text[i] = NULL;
    }
  }
}

/* Waits (under the lock) until the parts emitted move on, or 10 ms: halt is set without the lock,
   and the wait is timed, not to miss it. */
static void wait_moved(engine *e) {
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_nsec += 10 * 1000 * 1000;
  if (until.tv_nsec >= 1000000000L) {
    until.tv_sec++;
    until.tv_nsec -= 1000000000L;
  }
  pthread_cond_timedwait(&e->moved, &e->lock, &until);
}

/* While the texts held pass the bound and part's is among them, waits (under lock) for the parts
   before it: the first of them is under way on a thread that is not waiting (parts are handed out
   in order, and a thread waits only for a part it has done), so it ends; or for the run to stop. */
static void wait_room(engine *e, uint64_t part) {
  size_t bound = e->task->hold_bytes * (size_t)(e->nhelpers + 1);
  while (e->pb->emit && e->held > bound && part >= e->emitted && part <= atomic_load(&e->cut) &&
         !atomic_load(&e->halt) && !pq_interrupted)
    wait_moved(e);
}

static void finish(pq_engine_worker *w, uint64_t part, const void *outcome, uint64_t nodes,
                   const char *text, size_t len) {
  engine *e = w->e;
  PQ_REQUIRE(part < e->parts && !e->done[part], "no part %" PRIu64 " under way", part);
  pthread_mutex_lock(&e->lock);
  memcpy(e->outcome + part * e->pb->outcome_size, outcome, e->pb->outcome_size);
  e->part_nodes[part] = nodes;
  e->done[part] = true;
  e->finished++;
  cut_at(e, part, outcome);
  if (text && e->pb->emit && !keeps(e) && !pq_engine_remote_hook && part == e->emitted &&
      part <= atomic_load(&e->cut)) {
    /* Its turn, and kept for no file: emitted at once, without a copy. */
    e->pb->emit(e->task->ctx, part, text, len);
    if (e->lines) {
      pq_engine_lines_add(e->lines, part, text, len);
      pq_engine_lines_commit(e->lines, part + 1);
    }
    e->emitted += e->stride;
  } else if (text) {
    PQ_REQUIRE(!memchr(text, 0, len), "a part's text holds a NUL");
    keep_text(e, part, text, len);
  }
  flush(e);
  /* Rank 0's one thread receives every remote part: it cannot wait for those before. */
  if (!w->remote) wait_room(e, part);
  /* A run whose work cannot be saved stops, as a limit stops it: not hours more of it unsaved. */
  if (e->task->lim.checkpoint && !e->save_failed &&
      pq_now() - e->last_save >= PQ_ENGINE_SAVE_SECONDS && save(e)) {
    e->save_failed = true;
    halt(e);
  }
  bool look = w->main && !e->helpers_started && (e->finished & 63) == 0;
  pthread_mutex_unlock(&e->lock);
  if (look) start_helpers(e);
}

void pq_engine_done(pq_engine_worker *w, uint64_t part, const void *outcome, uint64_t nodes,
                    const char *text, size_t len) {
  if (w->port)
    w->port->done(w->port->arg, part, outcome, nodes, text, len);
  else
    finish(w, part, outcome, nodes, text, len); /* checked for a NUL where it is kept */
}

bool pq_engine_stream(pq_engine_worker *w, uint64_t part, const char *text, size_t len) {
  if (w->port) return false; /* (a remote part's text goes to rank 0 whole) */
  engine *e = w->e;
  if (!e->pb->emit || keeps(e) || pq_engine_remote_hook) return false;
  pthread_mutex_lock(&e->lock);
  /* A part after the one under way waits for its turn once it holds more than 64 times the
     texts a thread may hold: a bound on memory that seldom stops a thread. */
  while (part != e->emitted && len > 64 * e->task->hold_bytes && part <= atomic_load(&e->cut) &&
         !atomic_load(&e->halt) && !pq_interrupted)
    wait_moved(e);
  bool turn = part == e->emitted && part <= atomic_load(&e->cut) && !e->done[part];
  if (turn) e->pb->emit(e->task->ctx, part, text, len);
  if (turn && e->lines) pq_engine_lines_add(e->lines, part, text, len); /* (committed whole) */
  pthread_mutex_unlock(&e->lock);
  return turn;
}

/* Whether a signal or a limit stops the run (then halted), nodes searched so far (0: the node
   limit not checked). */
static bool stop_now(engine *e, uint64_t nodes) {
  const pq_engine_task *task = e->task;
  if (pq_interrupted ||
      (task->lim.node_limit && nodes && nodes + task->lim.spent >= task->lim.node_limit) ||
      (task->lim.deadline > 0 && pq_now() > task->lim.deadline))
    halt(e);
  return atomic_load(&e->halt);
}

pq_status pq_engine_poll(pq_engine_worker *w, uint64_t nodes) {
  if (w->port) return w->port->poll(w->port->arg, nodes);
  engine *e = w->e;
  const pq_engine_task *task = e->task;
  uint64_t total = atomic_fetch_add(&e->nodes, nodes) + nodes;
  if (stop_now(e, total) && pq_interrupted) return PQ_EINTR;
  if (atomic_load(&e->halt) || cut_off(w)) return PQ_ELIMIT;
  if (task->lim.progress && !pthread_mutex_trylock(&e->lock)) {
    pq_progress_update(&e->progress, e->finished, total);
    pthread_mutex_unlock(&e->lock);
  }
  if (w->main) start_helpers(e);
  return PQ_OK;
}

bool pq_engine_wanted(pq_engine_worker *w, uint64_t part) {
  return !atomic_load(&w->e->halt) && part <= atomic_load(&w->e->cut);
}

pq_status pq_engine_serve(const pq_engine_task *task, const pq_engine_port *port) {
  pq_engine_worker w = {.solver = task->solver, .main = true, .port = port};
  return task->problem->run(task->ctx, task->solver, &w);
}

static pq_status work(pq_engine_worker *w) {
  engine *e = w->e;
  if (w->remote) return pq_engine_remote_hook->run(e->task, w);
  pq_status rc = e->pb->run(e->task->ctx, w->solver, w);
  /* A part stopped because an earlier one decided the run: the parts left before it still run. */
  while (rc == PQ_ELIMIT && !atomic_load(&e->halt) && cut_off(w))
    rc = e->pb->run(e->task->ctx, w->solver, w);
  /* A limit or a signal seen by this thread first: the others stop too. */
  if (rc != PQ_OK) halt(e);
  return rc;
}

static void *helper_main(void *arg) {
  pq_engine_worker *w = arg;
  w->status = work(w);
  return NULL;
}

/* The stronger reason to stop: an interrupt, then a limit, then the rest. */
static pq_status worse(pq_status a, pq_status b) {
  if (a == PQ_EINTR || b == PQ_EINTR) return PQ_EINTR;
  if (a == PQ_OK) return b;
  return a;
}

/* ---- a run ---- */

void pq_engine_task_init(pq_engine_task *task) {
  memset(task, 0, sizeof *task);
  task->lim.jobs = 1;
  task->helper_delay = 0.01;
  task->hold_bytes = PQ_ENGINE_HOLD_BYTES;
}

static void clear(engine *e) {
  if (e->locks) {
    pthread_mutex_destroy(&e->lock);
    pthread_cond_destroy(&e->moved);
  }
  free(e->done);
  free(e->resumed);
  free(e->outcome);
  free(e->part_nodes);
  for (uint64_t i = 0; e->kept && i < e->parts; i++)
    free(e->text[i]);
  free(e->text);
  free(e->text_len);
  free(e->helpers);
  pq_engine_lines_close(e->lines);
}

/* Sets e up for task: the chosen parts, the resumed ones. Returns PQ_OK or PQ_EINVAL (a message).
 */
static pq_status setup(engine *e, const pq_engine_task *task) {
  memset(e, 0, sizeof *e);
  e->task = task;
  e->pb = task->problem;
  e->parts = task->split.parts;
  PQ_REQUIRE(e->pb->outcome_size <= PQ_ENGINE_MAX_OUTCOME, "a bad outcome");
  /* A split of no parts (the instance settled while splitting) is run whole, or as part 1/1. */
  if (task->lim.parts && !e->parts && task->lim.parts > 1) {
    pq_error("%s: --part %d/%d: this %s is settled while it is split, with no parts to share; "
             "N may only be 1",
             e->pb->name, task->lim.part, task->lim.parts, task->split.label);
    return PQ_EINVAL;
  }
  if (task->lim.parts && (uint64_t)task->lim.parts > (e->parts ? e->parts : 1)) {
    if (e->parts == 1)
      pq_error("%s: --part %d/%d: this %s splits into 1 part; N may only be 1", e->pb->name,
               task->lim.part, task->lim.parts, task->split.label);
    else
      pq_error("%s: --part %d/%d: this %s splits into %" PRIu64 " parts; N may be 1 to %" PRIu64,
               e->pb->name, task->lim.part, task->lim.parts, task->split.label, e->parts, e->parts);
    return PQ_EINVAL;
  }
  e->first = task->lim.parts ? (uint64_t)task->lim.part - 1 : 0;
  e->stride = task->lim.parts ? (uint64_t)task->lim.parts : 1;
  e->done = pq_calloc(e->parts, sizeof *e->done);
  e->resumed = pq_calloc(e->parts, sizeof *e->resumed);
  e->outcome = pq_calloc(e->parts, e->pb->outcome_size);
  e->part_nodes = pq_calloc(e->parts, sizeof *e->part_nodes);
  e->text = pq_calloc(e->parts, sizeof *e->text);
  e->text_len = pq_calloc(e->parts, sizeof *e->text_len);
  e->emitted = e->first;
  pq_status loaded = task->lim.resume ? load(e) : PQ_OK;
  if (loaded) return loaded; /* (a signal or the time limit may stop the read) */
  /* (Only a resumed run has parts done: 32x32's qn splits have 17 million.) */
  e->todo = e->first < e->parts ? (e->parts - e->first - 1) / e->stride + 1 : 0;
  for (uint64_t i = e->first; task->lim.resume && i < e->parts; i += e->stride)
    e->todo -= e->done[i];
  pthread_mutex_init(&e->lock, NULL);
  pthread_cond_init(&e->moved, NULL);
  e->locks = true;
  atomic_init(&e->next, 0);
  atomic_init(&e->nodes, 0);
  atomic_init(&e->halt, 0);
  atomic_init(&e->cut, UINT64_MAX);
  if (task->lim.node_limit && task->lim.spent >= task->lim.node_limit) halt(e); /* (the split) */
  for (uint64_t i = e->first; task->lim.resume && i < e->parts; i += e->stride)
    if (e->resumed[i]) cut_at(e, i, e->outcome + i * e->pb->outcome_size);
  /* With remote processes, this one hands out parts on one thread and searches none. */
  int jobs = task->lim.jobs > 1 && !pq_engine_remote_hook ? task->lim.jobs : 1;
  e->nhelpers = (uint64_t)jobs <= e->todo ? jobs - 1 : e->todo ? (int)e->todo - 1 : 0;
  e->helpers = pq_calloc((size_t)e->nhelpers + 1, sizeof *e->helpers);
  return PQ_OK;
}

/* Whether every chosen part up to a decisive one is done. */
static bool complete(const engine *e) {
  for (uint64_t i = e->first; i < e->parts && i <= atomic_load(&e->cut); i += e->stride)
    if (!e->done[i]) return false;
  return true;
}

/* Runs the parts left on the threads; result->nodes gets their nodes. */
static pq_status run_threads(engine *e, pq_engine_result *result) {
  const pq_engine_task *task = e->task;
  uint64_t before = e->pb->solver_nodes(task->solver);
  e->start = e->last_save = pq_now();
  flush(e); /* the resumed parts */
  if (task->lim.progress) pq_progress_start(&e->progress, task->lim.progress, e->todo);
  pq_engine_worker first = {
      .e = e, .solver = task->solver, .main = true, .remote = pq_engine_remote_hook != NULL};
  /* A run with no part left (settled while split, or every part resumed) still stops at a
     signal, which is the user's: the checkpoint written after it keeps what is known. */
  if (!e->todo && pq_interrupted) halt(e);
  pq_status rc = e->todo ? work(&first) : PQ_OK;
  result->nodes = e->pb->solver_nodes(task->solver) - before;
  /* A remote run's nodes are those it polled: every remote part's, done or stopped. */
  if (first.remote) result->nodes += atomic_load(&e->nodes);
  pq_threads_join(e->threads);
  e->threads = NULL;
  if (e->helpers_started)
    for (int i = 0; i < e->nhelpers; i++) {
      rc = worse(rc, e->helpers[i].status);
      result->nodes += e->pb->solver_nodes(e->helpers[i].solver);
      e->pb->solver_free(e->helpers[i].solver);
    }
  if (task->lim.progress) pq_progress_end(&e->progress);
  if (e->save_failed && rc != PQ_EINTR && !complete(e)) {
    pq_error("%s: stopped, its checkpoint not written (above)", task->split.label);
    rc = PQ_EIO;
  } else if (e->save_failed && rc != PQ_EINTR) {
    rc = PQ_OK; /* every part done: the command's answer, and its exit says the write failed */
  } else if (rc == PQ_OK && atomic_load(&e->halt))
    rc = pq_interrupted ? PQ_EINTR : PQ_ELIMIT;
  return rc;
}

/* A record of the resumed lines file, read back: emitted again, and copied into this run's lines
   file when it is a new one. */
static const char *replay_record(void *ctx, uint64_t part, const char *text, size_t len) {
  engine *e = ctx;
  e->pb->emit(e->task->ctx, part, text, len);
  if (e->copy) pq_engine_lines_add(e->lines, part, text, len);
  return NULL;
}

/* Opens the lines file of a listing with --checkpoint, and emits the texts of the resumed
   checkpoint's lines file again (its parts, emitted whole, come first). */
static pq_status start_lines(engine *e) {
  const pq_engine_task *task = e->task;
  if (task->lim.checkpoint && listing(e) &&
      !(e->lines =
            pq_engine_lines_open(task->lim.checkpoint, task->lim.resume, &e->mark, &e->copy)))
    return PQ_EIO;
  if (!e->mark.parts) return PQ_OK;
  pq_status rc =
      pq_engine_lines_read(task->lim.resume, &e->mark, task->lim.deadline, replay_record, e);
  e->emitted = e->mark.parts; /* (a whole run: the chosen parts are 0, 1, ...) */
  if (e->lines) pq_engine_lines_commit(e->lines, e->mark.parts);
  return rc;
}

/* Runs task into e (which clear frees); *total gets the outcomes of the chosen parts. */
static pq_status run(engine *e, const pq_engine_task *task, void *total, pq_engine_result *result) {
  memset(result, 0, sizeof *result);
  result->decided_by = UINT64_MAX;
  pq_status rc = setup(e, task);
  if (rc) return rc;
  if (task->lim.checkpoint && pq_engine_save_failed()) {
    /* A stage after one whose last write failed (a maximum's next size, a count after its
       maximum): the run ends at that write. */
    pq_error("%s: not started, a write of its checkpoint having failed (above)", task->split.label);
    return PQ_EIO;
  }
  if ((rc = start_lines(e))) return rc;
  rc = run_threads(e, result);
  result->held_most = e->held_most;
  size_t size = e->pb->outcome_size;
  bool overflow = false;
  result->decided_by = atomic_load(&e->cut);
  bool word = false;
  for (uint64_t i = e->first; i < e->parts && i <= result->decided_by; i += e->stride) {
    if (e->resumed[i]) result->resumed_nodes += e->part_nodes[i];
    word |= e->resumed[i];
    if (rc == PQ_OK) {
      PQ_REQUIRE(e->done[i], "part %" PRIu64 " was not run", i);
      overflow |= e->pb->add(task->ctx, total, e->outcome + i * size) != 0;
    }
  }
  const char *why = overflow ? "past what an outcome holds" : NULL;
  if (rc == PQ_OK && !why && !task->lim.parts && e->pb->check) why = e->pb->check(task->ctx, total);
  if (why) {
    /* Only a checkpoint's outcomes can do this: the problems' own stay in range. The refused
       outcomes are not written to --checkpoint (a refusal writes nothing). */
    pq_error("--resume %s: the finished parts' outcomes do not add up (%s)",
             task->lim.resume ? task->lim.resume : "", why);
    return PQ_EINVAL;
  }
  /* A decisive part's witness was checked; without one, the total is every chosen part's. */
  if (rc == PQ_OK && word && result->decided_by == UINT64_MAX) pq_engine_on_word();
  if (task->lim.checkpoint && !e->save_failed &&
      (rc == PQ_OK || rc == PQ_ELIMIT || rc == PQ_EINTR)) {
    /* A run stopped whose checkpoint is not written has lost its work: that is its answer. A
       whole run keeps its total, the failure said (pq_engine_unsaved: the command's exit). */
    pq_status w = save(e);
    if (w && rc != PQ_OK) {
      pq_error("%s: stopped, its checkpoint not written (above)", task->split.label);
      rc = PQ_EIO;
    }
  }
  return rc;
}

static atomic_bool on_word;

void pq_engine_on_word(void) { atomic_store(&on_word, true); }

bool pq_engine_on_word_taken(void) { return atomic_load(&on_word); }

void pq_engine_on_word_reset(void) { atomic_store(&on_word, false); }

const char *pq_engine_word_text(void) {
  return atomic_load(&on_word) ? " (resumed: in part on the checkpoint's word, not checked)" : "";
}

void pq_engine_merged_tail(FILE *f, bool checked, long parts, uint64_t nodes) {
  fprintf(f, ",\"checked\":%s,\"parts\":%ld,\"nodes\":%" PRIu64 "}\n", checked ? "true" : "false",
          parts, nodes);
}

const char *pq_engine_list_member(bool list, bool unique) {
  return !list ? "" : unique ? ",\"list\":\"classes\"" : ",\"list\":\"placements\"";
}

int pq_engine_list_of(const pq_json *head) {
  const char *list = pq_json_get_string(head, "list");
  if (!pq_json_get(head, "list")) return 0;
  return !list ? -1 : !strcmp(list, "placements") ? 1 : !strcmp(list, "classes") ? 2 : -1;
}

void pq_engine_merged_listing_note(bool classes_on_word) {
  if (!fflush(stdout))
    pq_error("merge: every placement listed is checked, and none is there twice; that none is "
             "missing%s rests on the parts' word, not checked",
             classes_on_word ? ", and that each is of a class of its own," : "");
}

void pq_engine_resumed_note(const char *command, const char *what) {
  if (atomic_load(&on_word) && !fflush(stdout))
    pq_error("%s: the %s rests in part on the resumed checkpoint's word, not checked", command,
             what);
}

const char *pq_engine_word_json(void) { return atomic_load(&on_word) ? ",\"checked\":false" : ""; }

/* Tells the remote processes how the run ended (rank 0). */
static void end_remote(const engine *e, pq_status rc, const void *total,
                       const pq_engine_result *r) {
  uint64_t i = r->decided_by;
  const char *text = i < e->parts && e->text ? e->text[i] : NULL;
  pq_engine_remote_hook->end(e->task, rc, total, r, text, text ? e->text_len[i] : 0);
}

pq_status pq_engine_check_resume(const pq_engine_task *task) {
  /* A serving process takes no checkpoint: rank 0 does. */
  if (pq_engine_remote_hook && pq_engine_remote_hook->serving) return PQ_OK;
  engine e;
  pq_status rc = setup(&e, task);
  clear(&e);
  return rc;
}

/* ---- the run: every part, or --part I/N and its line ---- */

/* The "texts" member of a part line: the chosen parts' texts up to a decisive one. */
static void write_texts(FILE *f, const engine *e) {
  fputs(",\"texts\":[", f);
  uint64_t cut = atomic_load(&e->cut);
  for (uint64_t i = e->first; i < e->parts && i <= cut; i += e->stride) {
    if (i != e->first) fputc(',', f);
    if (e->text[i])
      pq_json_write_string(f, e->text[i]);
    else
      fputs("null", f);
  }
  fputc(']', f);
}

/* A part line of e, run with status rc to outcome total and result r, with its texts or not. */
typedef struct part_line {
  const engine *e;
  pq_status rc;
  const void *total;
  const pq_engine_result *r;
  bool texts;
} part_line;

static void write_part_line(FILE *f, void *ctx) {
  const part_line *l = ctx;
  const engine *e = l->e;
  const pq_engine_task *task = e->task;
  fputc('{', f);
  write_head(f, e);
  fprintf(f, ",\"part\":%d,\"parts\":%d,\"covered\":%" PRIu64 ",\"done\":%s", task->lim.part,
          task->lim.parts,
          pq_engine_covered((uint64_t)task->lim.part, (uint64_t)task->lim.parts, e->parts),
          l->rc == PQ_OK ? "true" : "false");
  if (l->rc == PQ_OK) {
    fputc(',', f);
    e->pb->write(task->ctx, f, l->total);
    if (l->texts) write_texts(f, e);
    fputs(pq_engine_word_json(), f); /* resumed on a checkpoint's word: said, as everywhere */
  }
  fprintf(f, ",\"nodes\":%" PRIu64 "}", l->r->nodes + l->r->resumed_nodes);
}

pq_status pq_engine_run(const pq_engine_task *task, void *total, pq_engine_result *result) {
  bool part = task->lim.parts;
  PQ_REQUIRE(!part || (task->lim.part >= 1 && task->lim.part <= task->lim.parts), "bad part %d/%d",
             task->lim.part, task->lim.parts);
  const pq_engine_remote *hook = pq_engine_remote_hook;
  pq_engine_result own, *r = result ? result : &own;
  if (hook && hook->serving) return hook->serve(task, total, r);
  engine e;
  pq_status rc = run(&e, task, total, r);
  if (hook) end_remote(&e, rc, total, r);
  if (part && (rc == PQ_OK || rc == PQ_ELIMIT || rc == PQ_EINTR || rc == PQ_EIO))
    pq_engine_write_sealed(stdout, write_part_line,
                           &(part_line){&e, rc, total, r, e.pb->emit && !e.pb->private_texts});
  if (part && (rc == PQ_ELIMIT || rc == PQ_EINTR))
    pq_error("%s: part %d/%d %s: its line says \"done\":false%s", e.pb->name, task->lim.part,
             task->lim.parts, rc == PQ_EINTR ? "interrupted" : "stopped by a limit",
             task->lim.checkpoint ? pq_engine_kept_note() : "");
  clear(&e);
  return rc;
}
