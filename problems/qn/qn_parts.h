/* qn_parts.h: qn runs in parts through the engine (src/run/engine.h): --part I/N results, merging
   them, and runs with checkpoints, which carry what the run has established between its
   decisions and counts. */
#ifndef PQ_QN_PARTS_H
#define PQ_QN_PARTS_H

#include <stdbool.h>
#include <stdint.h>

#include "../../src/cli/options.h"
#include "../../src/core/json.h"
#include "../../src/run/outer.h"
#include "qn.h"

/* One qn instance, as part results and checkpoints name it. Everything is borrowed. */
typedef struct pq_qn_instance {
  const pq_board *board;
  const pq_qn *q; /* the problem on board with these kinds and ratio */
  pq_piece first, second;
  int ratio_a, ratio_b;
} pq_qn_instance;

/* --part I/N: searches part `part` (1..parts) of deciding size m (counting: of counting the
   placements of size m; list: of listing them, unique: one a class, kept in the line) with l's
   jobs, limits and progress, and prints its result as one JSON line on stdout (the engine's part
   line, doc/json.md). Returns PQ_OK when the part is done, PQ_ELIMIT or PQ_EINTR when a limit or a
   signal stopped it first (the line then says "done":false; a message on stderr), or as
   pq_qn_decide. */
pq_status pq_qn_part_run(const pq_qn_instance *in, int m, bool counting, bool list, bool unique,
                         int part, int parts, const pq_qn_limits *l);

/* `peaceable merge` of qn part results (parsed JSON lines of problem "qn", n >= 1): checks that
   each is a part of one split (the board, kinds, ratio, size, counting and the split's
   fingerprint, recomputed here) and that every part 1..N is there exactly once and done, checks
   every witness (never trusted), and only then prints the answer: a witness, "impossible", or
   the total counts. With o->cert, writes a certificate of the decision. Returns PQ_OK; PQ_ELIMIT
   (a part missing or not done: no answer, one message); PQ_EINVAL (a malformed, foreign or
   duplicate part, a false witness: one message); PQ_EIO. */
pq_status pq_qn_merge(pq_json *const *results, int n, const pq_options *o);

/* A run with --checkpoint and --resume: decisions and counts run by the engine, their finished
   parts saved as they finish, with what the run has established so far (the checkpoint's facts,
   doc/json.md). */
typedef struct pq_qn_run {
  const pq_qn_instance *in;
  int size;               /* the command's --size, or -1 (the maximum) */
  bool counting;          /* the command counts (--count) or lists */
  bool listing;           /* the command lists (--list) */
  const char *checkpoint; /* where to save, or NULL */
  const char *resume;     /* the checkpoint to resume, or NULL */
  /* What the run has established, saved in every checkpoint: */
  int best;                             /* the largest size with a witness, or -1 */
  uint8_t best_witness[PQ_MAX_SQUARES]; /* that witness */
  int infeasible;                       /* the least size proven not to fit, or -1 */
  pq_method proved_by;                  /* how `infeasible` was proven */
  /* private: the resumed checkpoint's decision or count in progress, not yet taken up (the
     file is not written before: it holds that work) */
  bool pending, pending_counting;
  int pending_at;
} pq_qn_run;

/* Starts run r (in, size, counting, checkpoint and resume set by the caller; the rest is set
   here). With r->resume, reads that checkpoint: its established facts (the witness checked) and
   its work in progress, which the decision or count of the same size then takes up. Returns
   PQ_OK, or PQ_EINVAL with one message: not a qn checkpoint, or one of another board, kinds,
   ratio, size, count or split, damaged, or malformed. */
pq_status pq_qn_run_start(pq_qn_run *r);

/* pq_qn_decide of size m >= 1, part by part: the parts finished in a resumed checkpoint are not
   searched again, and with r->checkpoint the finished parts are saved every few seconds and at
   the end. Updates r->best (a witness found) and r->infeasible (none). Returns as
   pq_qn_decide. */
pq_status pq_qn_run_decide(pq_qn_run *r, int m, const pq_qn_limits *l, bool *found,
                           uint8_t *witness, uint64_t *nodes);

/* pq_qn_count of size m, without a visitor or (list not NULL) listing to list's, part by part in
   the same way (a listing's placements go to the lines file beside the checkpoint, and a resumed
   run prints them again). The counts are complete only when PQ_OK is returned (out->overflow:
   they passed 2^128 - 1). */
pq_status pq_qn_run_count(pq_qn_run *r, int m, const pq_qn_limits *l, const pq_qn_lister *list,
                          pq_qn_count_result *out);

/* Saves what r has established (no work in progress) to r->checkpoint, if any and if no resumed
   work is still to come: PQ_OK or PQ_EIO. */
pq_status pq_qn_run_save(pq_qn_run *r);

/* r found a witness of size k (by either method): r->best follows, and is saved. */
pq_status pq_qn_run_found(pq_qn_run *r, int k, const uint8_t *witness);

#endif
