/* armies_colours_parts.h: deciding armies of several colours through the run engine (threads,
   limits, --part I/N lines and their merge, checkpoints): the problem's callbacks
   (armies_colours_parts.c), for the command (armies_colours_cmd.c). */
#ifndef PQ_ARMIES_COLOURS_PARTS_H
#define PQ_ARMIES_COLOURS_PARTS_H

#include "../../src/run/engine.h"
#include "armies_colours.h"

/* A part's outcome: whether it found a placement, the placement at 4 bits a square, and the part
   that found it (of parts added, the lowest: the same witness in any order). */
typedef struct pq_colours_outcome {
  uint8_t found;
  uint8_t packed[PQ_COLOURS_MAX_SQUARES / 2];
  uint64_t at;
} pq_colours_outcome;

typedef struct pq_colours_ctx {
  const pq_board *b;
  pq_piece piece;
  int colours, k;
  pq_colours *p;
  bool proof;   /* keep each part's proof tree */
  char **trees; /* per part, as the engine hands them over (emit) */
  char head[160], label[128];
} pq_colours_ctx;

/* Sets x and the engine's task e up for deciding k of each colour (x->p to free with
   pq_colours_free). */
void pq_colours_setup(pq_colours_ctx *x, const pq_board *b, pq_piece piece, int colours, int k,
                      pq_engine_task *e);

/* The placement an outcome holds (when found). */
void pq_colours_unpack(const pq_board *b, const pq_colours_outcome *o, uint8_t *cells);

#endif
