/* mpi_main.c: peaceable-mpi: the peaceable command line on rank 0, with the parts of every split
   search handed out dynamically to the other ranks, which rebuild the split and search one part
   at a time. The answers are those of one process (the same parts, merged the same way). */
#include <mpi.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../problems/armies.h"
#include "../problems/armies_parts.h"
#include "cli.h"
#include "search.h"

enum { TAG_JOB = 1, TAG_RESULT = 2 };

/* A job message: the split's spec, its fingerprint and how many parts follow (their indices in
   a second message); -1 ends the worker. Parts go out in batches: a message costs far more than
   a small part. */
enum {
  J_WIDTH,
  J_HEIGHT,
  J_PIECE,
  J_WHITE,
  J_BLACK,
  J_DEPTH,
  J_SYMMETRY,
  J_PROOF,
  J_PART,
  J_ID_LO,
  J_ID_HI,
  J_SIZE
};
/* A result header: part, done, found, nodes (two halves), tree length (with its NUL). */
enum { R_PART, R_DONE, R_FOUND, R_NODES_LO, R_NODES_HI, R_TREE, R_SIZE };

static void send_stop(int rank) {
  long job[J_SIZE] = {0};
  job[J_PART] = -1;
  MPI_Send(job, J_SIZE, MPI_LONG, rank, TAG_JOB, MPI_COMM_WORLD);
}

/* Sends rank the next batch of parts the engine hands out (at most `most`); returns how many.
   *last: the last part handed out. */
static int send_batch(int rank, const pq_armies_split_spec *spec, uint64_t id, pq_engine_worker *w,
                      uint64_t *last, int most) {
  int batch[64], k = 0;
  for (uint64_t i; k < most && (i = pq_engine_next(w)) != UINT64_MAX;)
    batch[k++] = (int)(*last = i);
  if (!k) return 0;
  long job[J_SIZE] = {[J_WIDTH] = spec->width,
                      [J_HEIGHT] = spec->height,
                      [J_PIECE] = spec->piece,
                      [J_WHITE] = spec->white,
                      [J_BLACK] = spec->black,
                      [J_DEPTH] = spec->depth,
                      [J_SYMMETRY] = spec->symmetry,
                      [J_PROOF] = spec->proof,
                      [J_PART] = k,
                      [J_ID_LO] = (long)(id & 0xffffffffu),
                      [J_ID_HI] = (long)(id >> 32)};
  MPI_Send(job, J_SIZE, MPI_LONG, rank, TAG_JOB, MPI_COMM_WORLD);
  MPI_Send(batch, k, MPI_INT, rank, TAG_JOB, MPI_COMM_WORLD);
  return k;
}

/* A batch size that keeps every worker busy to the end: large early, one part at the end. */
static int batch_size(uint64_t left, int workers) {
  uint64_t b = left / (8 * (uint64_t)workers);
  return b < 1 ? 1 : b > 64 ? 64 : (int)b;
}

/* Receives one part's result from rank st->MPI_SOURCE (its header already probed) into r. */
static int receive(MPI_Status *st, pq_armies_part *r) {
  long head[R_SIZE];
  MPI_Recv(head, R_SIZE, MPI_LONG, st->MPI_SOURCE, TAG_RESULT, MPI_COMM_WORLD, st);
  memset(r, 0, sizeof *r);
  r->done = head[R_DONE];
  r->found = head[R_FOUND];
  r->nodes = (uint64_t)head[R_NODES_LO] | (uint64_t)head[R_NODES_HI] << 32;
  if (r->found) {
    MPI_Recv(r->white.w, PQ_WORDS, MPI_UINT64_T, st->MPI_SOURCE, TAG_RESULT, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    MPI_Recv(r->black.w, PQ_WORDS, MPI_UINT64_T, st->MPI_SOURCE, TAG_RESULT, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  }
  if (head[R_TREE] > 0) {
    r->tree = pq_malloc((size_t)head[R_TREE]);
    MPI_Recv(r->tree, (int)head[R_TREE], MPI_CHAR, st->MPI_SOURCE, TAG_RESULT, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  }
  return (int)head[R_PART];
}

/* Rank 0's runner, the engine's run on its one thread: hands the parts the engine gives out to
   the workers in batches, lowest first, and tells the engine of each result. The engine's polls
   stop the handing out (a limit, a signal, or a witness in an earlier part); the parts out still
   come back and count. */
static pq_status mpi_runner(pq_armies_run *run, void *solver, pq_engine_worker *w) {
  const pq_armies_split *s = pq_armies_run_split(run);
  int ranks, busy = 0;
  uint64_t n = (uint64_t)pq_armies_split_parts(s), last = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  pq_armies_split_spec spec;
  pq_armies_split_spec_get(s, &spec);
  uint64_t id = pq_armies_split_id(s);
  pq_status rc = PQ_OK;
  int *outstanding = pq_calloc((size_t)ranks, sizeof *outstanding);
  for (int rank = 1; rank < ranks; rank++) {
    outstanding[rank] = send_batch(rank, &spec, id, w, &last, batch_size(n - last, ranks - 1));
    busy += outstanding[rank];
  }
  while (busy > 0) {
    /* Poll, so that a signal or a limit is noticed while workers search. */
    int ready = 0;
    MPI_Status st;
    while (!ready) {
      MPI_Iprobe(MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &ready, &st);
      if (!ready) nanosleep(&(struct timespec){0, 100000}, NULL);
      if (rc == PQ_OK) rc = pq_engine_poll(w, 0);
    }
    pq_armies_part r;
    int part = receive(&st, &r);
    pq_armies_run_done(run, solver, w, part, &r);
    free(r.tree);
    busy--;
    if (rc == PQ_OK) rc = pq_engine_poll(w, r.nodes);
    int rank = st.MPI_SOURCE;
    if (--outstanding[rank] == 0 && rc == PQ_OK) {
      outstanding[rank] = send_batch(rank, &spec, id, w, &last, batch_size(n - last, ranks - 1));
      busy += outstanding[rank];
    }
  }
  free(outstanding);
  return rc;
}

/* A worker: rebuilds each split it is sent (keeping the last one) and searches parts. */
static void worker(void) {
  /* Rank 0 decides when to stop: a signal there stops handing out parts. */
  signal(SIGINT, SIG_IGN);
  signal(SIGTERM, SIG_IGN);
  pq_board *board = NULL;
  pq_armies *armies = NULL;
  pq_armies_split *split = NULL;
  long have[J_PART] = {0};
  for (;;) {
    long job[J_SIZE];
    int batch[64];
    MPI_Recv(job, J_SIZE, MPI_LONG, 0, TAG_JOB, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (job[J_PART] < 0) break;
    int k = (int)job[J_PART];
    MPI_Recv(batch, k, MPI_INT, 0, TAG_JOB, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (!split || memcmp(have, job, sizeof have)) {
      pq_armies_split_free(split);
      pq_armies_free(armies);
      pq_board_free(board);
      board = pq_board_new((int)job[J_WIDTH], (int)job[J_HEIGHT]);
      armies = pq_armies_new(board, (pq_piece)job[J_PIECE]);
      split = pq_armies_split_new(armies, (int)job[J_WHITE], (int)job[J_BLACK], job[J_SYMMETRY],
                                  (int)job[J_DEPTH], job[J_PROOF]);
      memcpy(have, job, sizeof have);
    }
    uint64_t id = (uint64_t)job[J_ID_LO] | (uint64_t)job[J_ID_HI] << 32;
    PQ_REQUIRE(pq_armies_split_id(split) == id, "rank 0 and a worker split differently");
    for (int j = 0; j < k; j++) {
      pq_armies_part r;
      pq_armies_split_run_one(split, batch[j], NULL, &r);
      long head[R_SIZE] = {[R_PART] = batch[j],
                           [R_DONE] = r.done,
                           [R_FOUND] = r.found,
                           [R_NODES_LO] = (long)(r.nodes & 0xffffffffu),
                           [R_NODES_HI] = (long)(r.nodes >> 32),
                           [R_TREE] = r.tree ? (long)strlen(r.tree) + 1 : 0};
      MPI_Send(head, R_SIZE, MPI_LONG, 0, TAG_RESULT, MPI_COMM_WORLD);
      if (r.found) {
        MPI_Send(r.white.w, PQ_WORDS, MPI_UINT64_T, 0, TAG_RESULT, MPI_COMM_WORLD);
        MPI_Send(r.black.w, PQ_WORDS, MPI_UINT64_T, 0, TAG_RESULT, MPI_COMM_WORLD);
      }
      if (r.tree) MPI_Send(r.tree, (int)head[R_TREE], MPI_CHAR, 0, TAG_RESULT, MPI_COMM_WORLD);
      free(r.tree);
    }
  }
  pq_armies_split_free(split);
  pq_armies_free(armies);
  pq_board_free(board);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, ranks, rc = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (rank == 0) {
    /* With one rank there is nobody to hand parts to: run as plain peaceable. */
    if (ranks > 1) pq_armies_remote_runner = mpi_runner;
    rc = pq_cli_main(argc, argv);
    for (int r = 1; r < ranks; r++)
      send_stop(r);
  } else {
    worker();
  }
  MPI_Finalize();
  return rc;
}
