/* mpi_main.c: peaceable-mpi: every rank runs the same command line; rank 0 answers, and the
   engine (src/run/engine.h) hands the parts of each of its runs out to the other ranks, which serve
   them and take rank 0's total back, so that they follow its run to the next one. Any problem,
   any mode: the answers are those of one process (the same parts, added the same way). The other
   ranks print nothing and write no file, take no signal, limit or race (rank 0 decides those),
   and stop at rank 0's word. Files they read (--resume) must be where rank 0 reads them. */
#include <inttypes.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../cli/cli.h"
#include "../cli/problem.h"
#include "../core/json.h"
#include "engine.h"
#include "outer.h"

/* Rank 0 to the others: TAG_CMD (a header, then the parts of a batch or the total's JSON) and
   TAG_STOP (the batch numbered so is no longer wanted); the others to rank 0: TAG_REPLY. */
enum { TAG_CMD = 1, TAG_STOP = 2, TAG_REPLY = 3 };
enum { CMD_BATCH, CMD_END, CMD_EXIT };
/* A command's header: kind, the run's split id, the batch's number, and (end) its status and
   result, and the bytes that follow. */
enum {
  C_KIND,
  C_ID,
  C_BATCH,
  C_STATUS,
  C_NODES,
  C_RESUMED,
  C_DECIDED,
  C_HELD,
  C_LEN,  /* bytes of the batch's parts or of the total's JSON */
  C_TEXT, /* the deciding part's text: its length plus one, 0 for none */
  C_SIZE
};
enum { REPLY_PART, REPLY_BATCH_END, REPLY_END, REPLY_ASTRAY };
/* A reply's header: kind, part, nodes, then the bytes of the outcome's JSON and of the text
   (its length plus one, 0 for none). */
enum { R_KIND, R_PART, R_NODES, R_OUTCOME, R_TEXT, R_SIZE };

/* Parts of a batch: many while many are left (a message costs more than a small part), one at
   the end, so that every rank stays busy to the end. */
#define MOST 64

static int ranks;

static void send_header(int rank, int tag, const uint64_t *h, int n) {
  MPI_Send(h, n, MPI_UINT64_T, rank, tag, MPI_COMM_WORLD);
}

/* A rank other than 0 follows another run than rank 0's (a flow that depends on the machine):
   nothing it would add can be trusted. h: its reply, then the label of its run (if any). */
static _Noreturn void astray(int rank, const uint64_t *h, const pq_engine_task *task) {
  char *theirs = NULL;
  if (h[R_TEXT] > 1) {
    theirs = pq_malloc(h[R_TEXT]);
    MPI_Recv(theirs, (int)h[R_TEXT] - 1, MPI_CHAR, rank, TAG_REPLY, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    theirs[h[R_TEXT] - 1] = 0;
  }
  pq_error("mpi: rank %d does not follow rank 0's runs (rank 0: the %s; rank %d: %s): "
           "stopped",
           rank, task->split.label, rank, theirs ? theirs : "done");
  MPI_Abort(MPI_COMM_WORLD, 4);
  exit(4);
}

/* An outcome as the problem writes it in checkpoints: one JSON object, *len bytes (caller frees):
   outcomes travel as text, so that each process reads them into its own tables. */
static char *outcome_json(const pq_engine_task *task, const void *outcome, size_t *len) {
  char *json = NULL;
  FILE *f = pq_memstream(&json, len);
  fputc('{', f);
  task->problem->write(task->ctx, f, outcome);
  fputc('}', f);
  fclose(f);
  return json;
}

/* ---- rank 0 ---- */

typedef struct rank_state {
  bool busy, stopped;
  uint64_t batch;      /* the number of its batch under way */
  uint64_t part[MOST]; /* its parts, in order */
  int n, back;         /* how many, how many are back */
} rank_state;

static uint64_t batches; /* batches handed out in all: numbers them */

/* Hands rank the next batch the engine gives; false when it gives none. */
static bool hand_out(const pq_engine_task *task, pq_engine_worker *w, rank_state *r, int rank,
                     uint64_t left) {
  uint64_t most = left / (8 * (uint64_t)(ranks - 1));
  most = most < 1 ? 1 : most > MOST ? MOST : most;
  r->n = r->back = 0;
  for (uint64_t i; (uint64_t)r->n < most && (i = pq_engine_next(w)) != UINT64_MAX;)
    r->part[r->n++] = i;
  if (!r->n) return false;
  r->busy = true;
  r->stopped = false;
  r->batch = ++batches;
  uint64_t h[C_SIZE] = {[C_KIND] = CMD_BATCH,
                        [C_ID] = task->split.id,
                        [C_BATCH] = r->batch,
                        [C_LEN] = (uint64_t)r->n};
  send_header(rank, TAG_CMD, h, C_SIZE);
  MPI_Send(r->part, r->n, MPI_UINT64_T, rank, TAG_CMD, MPI_COMM_WORLD);
  return true;
}

/* Receives a reply's bytes (n of them, NUL-terminated; NULL for none). */
static char *receive_bytes(int rank, uint64_t n) {
  if (!n) return NULL;
  char *b = pq_malloc(n + 1);
  MPI_Recv(b, (int)n, MPI_CHAR, rank, TAG_REPLY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  b[n] = 0;
  return b;
}

/* A part done by rank (its header h): its outcome, read by the problem from its JSON as from a
   checkpoint, and its text go to the engine. */
static void take_part(const pq_engine_task *task, pq_engine_worker *w, int rank,
                      const uint64_t *h) {
  char *json = receive_bytes(rank, h[R_OUTCOME]);
  char *text = receive_bytes(rank, h[R_TEXT] ? h[R_TEXT] - 1 : 0);
  unsigned char outcome[256] = {0};
  char err[128];
  pq_json *v = json ? pq_json_parse(json, h[R_OUTCOME], err) : NULL;
  const char *why = v ? task->problem->read(task->ctx, v, outcome) : "not JSON";
  PQ_REQUIRE(!why, "mpi: rank %d sent part %" PRIu64 " an outcome that %s", rank, h[R_PART], why);
  pq_engine_done(w, h[R_PART], outcome, h[R_NODES], h[R_TEXT] ? (text ? text : "") : NULL,
                 h[R_TEXT] ? h[R_TEXT] - 1 : 0);
  pq_json_free(v);
  free(json);
  free(text);
}

/* Stops the batches whose next part is no longer wanted (a limit, a signal, an earlier part's
   witness): their ranks end the part under way and skip the rest. */
static void stop_unwanted(pq_engine_worker *w, rank_state *rs) {
  for (int rank = 1; rank < ranks; rank++) {
    rank_state *r = &rs[rank];
    if (!r->busy || r->stopped || pq_engine_wanted(w, r->part[r->back])) continue;
    r->stopped = true;
    uint64_t b = r->batch;
    send_header(rank, TAG_STOP, &b, 1);
  }
}

static pq_status remote_run(const pq_engine_task *task, pq_engine_worker *w) {
  rank_state *rs = pq_calloc((size_t)ranks, sizeof *rs);
  uint64_t handed = 0, parts = task->split.parts;
  int busy = 0;
  for (int rank = 1; rank < ranks; rank++)
    if (hand_out(task, w, &rs[rank], rank, parts - handed)) {
      busy++;
      handed += (uint64_t)rs[rank].n;
    }
  pq_status rc = PQ_OK;
  while (busy) {
    int ready = 0;
    MPI_Status st;
    while (!ready) {
      MPI_Iprobe(MPI_ANY_SOURCE, TAG_REPLY, MPI_COMM_WORLD, &ready, &st);
      if (ready) break;
      nanosleep(&(struct timespec){0, 200000}, NULL);
      if (pq_engine_poll(w, 0) == PQ_EINTR) rc = PQ_EINTR;
      stop_unwanted(w, rs);
    }
    int rank = st.MPI_SOURCE;
    rank_state *r = &rs[rank];
    uint64_t h[R_SIZE];
    MPI_Recv(h, R_SIZE, MPI_UINT64_T, rank, TAG_REPLY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (h[R_KIND] == REPLY_ASTRAY) astray(rank, h, task);
    if (h[R_KIND] == REPLY_PART) {
      PQ_REQUIRE(r->busy && r->back < r->n && h[R_PART] == r->part[r->back],
                 "mpi: rank %d sent a part out of turn", rank);
      r->back++;
      take_part(task, w, rank, h);
    }
    /* The nodes of every part, done or stopped (a batch's end carries those of the part it
       stopped): for the limits and the run's count. */
    if (pq_engine_poll(w, h[R_NODES]) == PQ_EINTR) rc = PQ_EINTR;
    if (h[R_KIND] == REPLY_BATCH_END) {
      r->busy = false;
      busy--;
      if (hand_out(task, w, r, rank, parts - handed)) {
        busy++;
        handed += (uint64_t)r->n;
      }
    }
    stop_unwanted(w, rs);
  }
  free(rs);
  return rc;
}

/* The others' copy of the run's end: its status, its result, its total's JSON and the deciding
   part's text. */
static void remote_end(const pq_engine_task *task, pq_status rc, const void *total,
                       const pq_engine_result *res, const char *text, size_t text_len) {
  char *json = NULL;
  size_t len = 0;
  if (rc == PQ_OK) json = outcome_json(task, total, &len);
  uint64_t h[C_SIZE] = {[C_KIND] = CMD_END,
                        [C_ID] = task->split.id,
                        [C_STATUS] = (uint64_t)rc,
                        [C_NODES] = res->nodes,
                        [C_RESUMED] = res->resumed_nodes,
                        [C_DECIDED] = res->decided_by,
                        [C_HELD] = res->held_most,
                        [C_LEN] = len,
                        [C_TEXT] = text ? text_len + 1 : 0};
  for (int rank = 1; rank < ranks; rank++) {
    send_header(rank, TAG_CMD, h, C_SIZE);
    if (len) MPI_Send(json, (int)len, MPI_CHAR, rank, TAG_CMD, MPI_COMM_WORLD);
    if (text_len) MPI_Send(text, (int)text_len, MPI_CHAR, rank, TAG_CMD, MPI_COMM_WORLD);
  }
  /* Every rank says it followed: so a rank astray is found at the run it left, not later. */
  for (int rank = 1; rank < ranks; rank++) {
    uint64_t r[R_SIZE];
    MPI_Recv(r, R_SIZE, MPI_UINT64_T, rank, TAG_REPLY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (r[R_KIND] != REPLY_END) astray(rank, r, task);
  }
  free(json);
}

/* ---- the other ranks ---- */

typedef struct serving {
  uint64_t batch;
  uint64_t part[MOST];
  int n, next;
  bool stopped;
  uint64_t polled; /* nodes of the part under way so far */
} serving;

static void reply(int kind, uint64_t part, uint64_t nodes, const char *json, size_t json_len,
                  const char *text, size_t len) {
  uint64_t h[R_SIZE] = {[R_KIND] = (uint64_t)kind,
                        [R_PART] = part,
                        [R_NODES] = nodes,
                        [R_OUTCOME] = json_len,
                        [R_TEXT] = text ? len + 1 : 0};
  send_header(0, TAG_REPLY, h, R_SIZE);
  if (json_len) MPI_Send(json, (int)json_len, MPI_CHAR, 0, TAG_REPLY, MPI_COMM_WORLD);
  if (text && len) MPI_Send(text, (int)len, MPI_CHAR, 0, TAG_REPLY, MPI_COMM_WORLD);
}

static uint64_t port_next(void *arg) {
  serving *s = arg;
  s->polled = 0;
  return !s->stopped && s->next < s->n ? s->part[s->next++] : UINT64_MAX;
}

static const pq_engine_task *served_task;

static void port_done(void *arg, uint64_t part, const void *outcome, uint64_t nodes,
                      const char *text, size_t len) {
  serving *s = arg;
  size_t json_len;
  char *json = outcome_json(served_task, outcome, &json_len);
  reply(REPLY_PART, part, nodes, json, json_len, text, len);
  free(json);
  s->polled = 0;
}

/* Whether rank 0 stopped this batch (a stop for an earlier batch is stale: dropped). */
static pq_status port_poll(void *arg, uint64_t nodes) {
  serving *s = arg;
  s->polled += nodes;
  for (int ready = 1; !s->stopped;) {
    MPI_Iprobe(0, TAG_STOP, MPI_COMM_WORLD, &ready, MPI_STATUS_IGNORE);
    if (!ready) break;
    uint64_t b;
    MPI_Recv(&b, 1, MPI_UINT64_T, 0, TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    s->stopped = b == s->batch;
  }
  return s->stopped ? PQ_ELIMIT : PQ_OK;
}

/* Waits for rank 0's next command into h (and its bytes, freed by the caller). */
static void *command(uint64_t *h) {
  MPI_Recv(h, C_SIZE, MPI_UINT64_T, 0, TAG_CMD, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (h[C_KIND] == CMD_EXIT) {
    MPI_Finalize();
    exit(0);
  }
  size_t size = h[C_KIND] == CMD_BATCH ? h[C_LEN] * sizeof(uint64_t) : h[C_LEN];
  char *b = pq_malloc(size + 1);
  if (size)
    MPI_Recv(b, (int)size, h[C_KIND] == CMD_BATCH ? MPI_BYTE : MPI_CHAR, 0, TAG_CMD, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  b[size] = 0;
  return b;
}

static pq_status serve(const pq_engine_task *task, void *total, pq_engine_result *result) {
  served_task = task;
  for (;;) {
    uint64_t h[C_SIZE];
    char *b = command(h);
    if (h[C_ID] != task->split.id) {
      char what[256];
      snprintf(what, sizeof what, "the %s", task->split.label);
      reply(REPLY_ASTRAY, 0, 0, NULL, 0, what, strlen(what));
      free(b);
      continue;
    }
    if (h[C_KIND] == CMD_BATCH) {
      serving s = {.batch = h[C_BATCH], .n = (int)h[C_LEN]};
      memcpy(s.part, b, (size_t)s.n * sizeof *s.part);
      pq_engine_port port = {port_next, port_done, port_poll, &s};
      pq_engine_serve(task, &port);
      /* The nodes of a part stopped under way. */
      reply(REPLY_BATCH_END, 0, s.polled, NULL, 0, NULL, 0);
      free(b);
      continue;
    }
    if (h[C_TEXT]) {
      size_t n = h[C_TEXT] - 1;
      char *text = pq_malloc(n + 1);
      if (n) MPI_Recv(text, (int)n, MPI_CHAR, 0, TAG_CMD, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (task->problem->emit) task->problem->emit(task->ctx, h[C_DECIDED], text, n);
      free(text);
    }
    pq_status rc = (pq_status)h[C_STATUS];
    *result = (pq_engine_result){.nodes = h[C_NODES],
                                 .resumed_nodes = h[C_RESUMED],
                                 .decided_by = h[C_DECIDED],
                                 .held_most = h[C_HELD]};
    if (rc == PQ_OK) {
      char err[128];
      pq_json *v = pq_json_parse(b, h[C_LEN], err);
      const char *why = v ? task->problem->read(task->ctx, v, total) : "not JSON";
      PQ_REQUIRE(!why, "mpi: rank 0's total cannot be read: %s", why);
      pq_json_free(v);
    }
    free(b);
    reply(REPLY_END, 0, 0, NULL, 0, NULL, 0);
    return rc;
  }
}

/* After its command line: rank 0's exit is all that is due; anything else means it runs on and
   this rank does not. */
static void serve_exit(void) {
  for (;;) {
    uint64_t h[C_SIZE];
    free(command(h));
    reply(REPLY_ASTRAY, 0, 0, NULL, 0, NULL, 0);
  }
}

static const pq_engine_remote hand_out_hook = {.run = remote_run, .end = remote_end};
static const pq_engine_remote serve_hook = {.serving = true, .serve = serve};

/* The command line of the other ranks: rank 0's without its limits, which rank 0 applies. */
static int without_limits(int argc, char **argv) {
  int k = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    bool limit = !strcmp(a, "--time-limit") || !strcmp(a, "--node-limit");
    if (limit && i + 1 < argc) {
      i++;
      continue;
    }
    if (!strncmp(a, "--time-limit=", 13) || !strncmp(a, "--node-limit=", 13)) continue;
    argv[k++] = argv[i];
  }
  argv[k] = NULL;
  return k;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  pq_cli_program = "peaceable-mpi";
  int rank, rc = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  /* With one rank there is nobody to hand parts to: it runs as plain peaceable. */
  if (ranks > 1) pq_no_race = true;
  if (rank == 0) {
    if (ranks > 1) pq_engine_remote_hook = &hand_out_hook;
    rc = pq_cli_main(argc, argv);
    uint64_t h[C_SIZE] = {[C_KIND] = CMD_EXIT};
    for (int r = 1; r < ranks; r++)
      send_header(r, TAG_CMD, h, C_SIZE);
    MPI_Finalize();
    return rc;
  }
  pq_engine_remote_hook = &serve_hook;
  pq_discard_outputs = true;
  pq_cli_no_signals = true; /* rank 0 takes the signals */
  if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) return 1;
  /* Only the commands with parts run on the engine; the others are rank 0's alone. */
  for (int i = 0; argc > 1 && pq_problems[i]; i++)
    if (pq_problems[i]->merge && !strcmp(argv[1], pq_problems[i]->name))
      pq_cli_main(without_limits(argc, argv), argv);
  serve_exit();
}
