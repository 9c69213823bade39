/* sym.h: the symmetry group of a board and canonical forms of placements. */
#ifndef PQ_SYM_H
#define PQ_SYM_H

#include <stdint.h>

#include "board.h"

/* Elements of the dihedral group, as maps (row, column) -> (row', column') on an n x n board:
   identity, quarter turn, half turn, three-quarter turn, mirror left-right, mirror top-bottom,
   transpose (main diagonal), anti-transpose. On a non-square board only the first of each pair
   that keeps the shape is valid: identity, half turn and the two mirrors. */
typedef enum pq_sym {
  PQ_SYM_IDENTITY,
  PQ_SYM_HALF_TURN,
  PQ_SYM_MIRROR_LR,
  PQ_SYM_MIRROR_TB,
  PQ_SYM_QUARTER_TURN,
  PQ_SYM_THREE_QUARTER_TURN,
  PQ_SYM_TRANSPOSE,
  PQ_SYM_ANTI_TRANSPOSE,
  PQ_NSYMS
} pq_sym;

/* The number of symmetries of board b: 8 on a square board, 4 otherwise. The group's elements
   are 0 .. pq_sym_count(b) - 1 in the order above. */
int pq_sym_count(const pq_board *b);

/* The image of square s under symmetry g (a look-up in b->image). */
int pq_sym_square(const pq_board *b, pq_sym g, int s);

/* The table of b->image, computed from geometry (for pq_board_new; caller frees). */
int16_t *pq_sym_images(const pq_board *b);

/* The image of line l (a board line id, see board.h) under symmetry g. */
int pq_sym_line(const pq_board *b, pq_sym g, int l);

/* The element g∘h (first h, then g). */
pq_sym pq_sym_compose(const pq_board *b, pq_sym g, pq_sym h);

/* A placement: one byte per square, 0 for empty, otherwise a problem-defined nonzero code. */

/* out = image of placement in under g (out and in must not overlap). */
void pq_sym_apply(const pq_board *b, pq_sym g, const uint8_t *in, uint8_t *out);

/* Writes the canonical form of placement in (its lexicographically smallest image over the
   board's group) to out; returns how many group elements fix it (the stabiliser's order). If
   code_map is not NULL, images under each element are also taken with codes mapped by code_map
   (a colour exchange, say), doubling the group. */
int pq_sym_canonical(const pq_board *b, const uint8_t *in, const uint8_t *code_map, uint8_t *out);

#endif
