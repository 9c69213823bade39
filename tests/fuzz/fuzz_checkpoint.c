/* fuzz_checkpoint.c: libFuzzer target for armies checkpoints: pq_armies_resume_read (the head of
   a checkpoint) and pq_armies_job_run with --resume (the list of finished parts and their proof
   trees), as `armies --resume FILE` uses them. Input: a byte choosing the board, the piece and
   whether proofs are kept, then the checkpoint. The search after a resume is bounded by a node
   limit. */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#include "../../problems/armies_parts.h"
#include "fuzz.h"

static const int sides[4][2] = {{3, 3}, {4, 4}, {5, 5}, {4, 3}};
static const pq_piece pieces[4] = {PQ_QUEEN, PQ_ROOK, PQ_BISHOP, PQ_QUEEN};

static int file = -1;
static char path[64];
static pq_board *boards[4];
static pq_armies *problems[4][4];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  int bi = data[0] & 3, pi = (data[0] >> 2) & 3;
  bool proof = data[0] & 16;
  if (file < 0) {
    file = memfd_create("checkpoint", 0);
    if (file < 0) fuzz_fail("memfd_create failed");
    snprintf(path, sizeof path, "/proc/self/fd/%d", file);
  }
  if (ftruncate(file, 0) ||
      (size > 1 && pwrite(file, data + 1, size - 1, 0) != (ssize_t)(size - 1)))
    fuzz_fail("writing the memory file failed");
  if (!boards[bi]) boards[bi] = pq_board_new(sides[bi][0], sides[bi][1]);
  if (!problems[bi][pi]) problems[bi][pi] = pq_armies_new(boards[bi], pieces[pi]);

  pq_armies_resume_info info;
  fuzz_capture c;
  fuzz_capture_begin(&c);
  pq_status rc = pq_armies_resume_read(path, boards[bi], pieces[pi], &info);
  fuzz_capture_end(&c);
  fuzz_check_parser("pq_armies_resume_read", rc, &c);
  fuzz_capture_free(&c);
  if (rc != PQ_OK) return 0;
  if (info.white < 0 || info.white > PQ_MAX_SQUARES || info.black < 0 ||
      info.black > PQ_MAX_SQUARES || info.best < -1 || (info.best >= 0 && !info.best_witness))
    fuzz_fail("resume: accepted white %d, black %d, best %d", info.white, info.black, info.best);

  pq_armies_params params;
  pq_armies_params_init(&params);
  params.jobs = 1;
  params.node_limit = 5000;
  pq_armies_job job = {.armies = problems[bi][pi],
                       .board = boards[bi],
                       .white = info.white,
                       .black = info.black,
                       .params = &params,
                       .proof = proof,
                       .resume = path,
                       .best = info.best,
                       .best_witness = info.best_witness};
  pq_armies_decision d;
  fuzz_capture_begin(&c);
  rc = pq_armies_job_run(&job, &d);
  fuzz_capture_end(&c);
  if (rc == PQ_OK || rc == PQ_ELIMIT) {
    if (c.out_len || c.err_len) fuzz_fail("job: printed \"%.200s%.200s\"", c.out, c.err);
  } else {
    fuzz_check_parser("pq_armies_job_run --resume", rc, &c);
  }
  fuzz_capture_free(&c);
  pq_armies_decision_clear(&d);
  free(info.best_witness);
  return 0;
}
