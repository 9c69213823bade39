/* armies_local.h: a witness finder for boards beyond the exact search: local search that finds
   large peaceable armies quickly and proves nothing. */
#ifndef PQ_ARMIES_LOCAL_H
#define PQ_ARMIES_LOCAL_H

#include <stdint.h>

#include "../../src/core/board.h"
#include "../../src/core/util.h"

/* What the finder does; pq_armies_local_params_init sets every default. */
typedef struct pq_armies_local_params {
  uint64_t seed;   /* the same seed, board, piece, white and moves give the same witness */
  uint64_t moves;  /* the work budget in moves (line or square changes tried); 0: nothing */
  int white;       /* -1: equal armies; otherwise the fixed white army, black as large as found */
  double deadline; /* pq_now() at which to stop early with the best so far; 0: none */
  const volatile int *cancel; /* stop early when it becomes nonzero; may be NULL */
} pq_armies_local_params;
void pq_armies_local_params_init(pq_armies_local_params *p);

/* The default work budget for board b and piece p: 0 on boards the exact search settles at
   once, otherwise a few seconds' worth of moves, growing with the board. */
uint64_t pq_armies_local_default_moves(const pq_board *b, pq_piece p);

/* Searches for a large peaceable placement of piece p on board b (borrowed) and writes it to
   witness (one byte per square: 0 empty, 1 white, 2 black). Returns the black army's size:
   with p->white < 0 the armies are equal; otherwise exactly p->white white pieces stand, or, when
   none of that size was found, nothing and -1. Stops after p->moves moves, at p->deadline, on
   *p->cancel or on pq_interrupted, returning the best found so far (deterministic only when
   the move budget ends the run). Never claims optimality. */
int pq_armies_local_find(const pq_board *b, pq_piece p, const pq_armies_local_params *params,
                         uint8_t *witness);

#endif
