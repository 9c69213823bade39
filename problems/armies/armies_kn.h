/* armies_kn.h: armies of kings decided without search, by the king graph's vertex-isoperimetric
   profile (doc/algorithms.md, "Kings"); the decision and its one-leaf proof. */
#ifndef PQ_ARMIES_KN_H
#define PQ_ARMIES_KN_H

#include <stdbool.h>
#include <stdint.h>

#include "../../src/core/board.h"
#include "armies.h"

/* Fills closed[w], for w = 0 .. width * height, with the least number of squares on or next to
   (a king's move from) a set of w squares of a width x height board: the least closed
   neighbourhood, attained by a down-set anchored at a corner (compression). */
void pq_armies_kings_profile(int width, int height, int *closed);

/* Decides whether `white` white and `black` black kings fit on b: they do exactly when
   black <= squares - closed[white]. When they do, writes a witness to cells (0 empty, 1 white,
   2 black): the best down-set of `white` squares, and black kings on the squares outside its
   closed neighbourhood, `black` of them, or with grow all of them (with white == black and
   grow, both armies become the largest equal armies). Returns whether they fit. */
bool pq_armies_kings_decide(const pq_board *b, int white, int black, bool grow, uint8_t *cells);

/* pq_armies_decide for kings: the answer at once, and with p->proof and no witness the proof
   of doc/certificate.md for kings (no split, one cube, the tree "k": a leaf closed by the
   profile). Returns PQ_OK. */
pq_status pq_armies_kings_decision(const pq_board *b, int white, int black,
                                   const pq_armies_params *p, pq_armies_decision *out);

#endif
