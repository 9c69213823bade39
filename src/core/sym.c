/* sym.c: the symmetry group of a board and canonical forms of placements. */
#include "sym.h"

#include <string.h>

int pq_sym_count(const pq_board *b) { return b->width == b->height ? 8 : 4; }

int pq_sym_square(const pq_board *b, pq_sym g, int s) {
  int w = b->width, h = b->height, r = s / w, c = s % w, r2, c2;
  switch (g) {
  case PQ_SYM_IDENTITY: r2 = r, c2 = c; break;
  case PQ_SYM_HALF_TURN: r2 = h - 1 - r, c2 = w - 1 - c; break;
  case PQ_SYM_MIRROR_LR: r2 = r, c2 = w - 1 - c; break;
  case PQ_SYM_MIRROR_TB: r2 = h - 1 - r, c2 = c; break;
  case PQ_SYM_QUARTER_TURN: r2 = c, c2 = w - 1 - r; break;
  case PQ_SYM_THREE_QUARTER_TURN: r2 = h - 1 - c, c2 = r; break;
  case PQ_SYM_TRANSPOSE: r2 = c, c2 = r; break;
  case PQ_SYM_ANTI_TRANSPOSE: r2 = w - 1 - c, c2 = h - 1 - r; break;
  default: PQ_REQUIRE(0, "bad symmetry %d", (int)g);
  }
  PQ_REQUIRE(g < PQ_SYM_QUARTER_TURN || w == h, "symmetry %d needs a square board", (int)g);
  return r2 * w + c2;
}

int pq_sym_line(const pq_board *b, pq_sym g, int l) {
  /* Directions map as the symmetry's linear part does: turns and transposes exchange rows and
     columns; mirrors and quarter turns exchange diagonals and anti-diagonals. */
  static const int dir_image[PQ_NSYMS][PQ_NDIRS] = {
      [PQ_SYM_IDENTITY] = {PQ_ROW, PQ_COLUMN, PQ_DIAGONAL, PQ_ANTIDIAGONAL},
      [PQ_SYM_HALF_TURN] = {PQ_ROW, PQ_COLUMN, PQ_DIAGONAL, PQ_ANTIDIAGONAL},
      [PQ_SYM_MIRROR_LR] = {PQ_ROW, PQ_COLUMN, PQ_ANTIDIAGONAL, PQ_DIAGONAL},
      [PQ_SYM_MIRROR_TB] = {PQ_ROW, PQ_COLUMN, PQ_ANTIDIAGONAL, PQ_DIAGONAL},
      [PQ_SYM_QUARTER_TURN] = {PQ_COLUMN, PQ_ROW, PQ_ANTIDIAGONAL, PQ_DIAGONAL},
      [PQ_SYM_THREE_QUARTER_TURN] = {PQ_COLUMN, PQ_ROW, PQ_ANTIDIAGONAL, PQ_DIAGONAL},
      [PQ_SYM_TRANSPOSE] = {PQ_COLUMN, PQ_ROW, PQ_DIAGONAL, PQ_ANTIDIAGONAL},
      [PQ_SYM_ANTI_TRANSPOSE] = {PQ_COLUMN, PQ_ROW, PQ_DIAGONAL, PQ_ANTIDIAGONAL},
  };
  int d = 0;
  while (l >= b->line_start[d + 1])
    d++;
  int s = pq_bits_next(&b->line[l], b->words, 0);
  return b->line_of[pq_sym_square(b, g, s)][dir_image[g][d]];
}

pq_sym pq_sym_compose(const pq_board *b, pq_sym g, pq_sym h) {
  int n = pq_sym_count(b);
  /* Elements are compared as maps of the whole board; on a 1x1 or 1xN board several coincide
     and the first one is returned. */
  for (int k = 0; k < n; k++) {
    bool same = true;
    for (int s = 0; s < b->squares && same; s++)
      same = pq_sym_square(b, (pq_sym)k, s) == pq_sym_square(b, g, pq_sym_square(b, h, s));
    if (same) return (pq_sym)k;
  }
  PQ_REQUIRE(0, "group not closed");
}

void pq_sym_apply(const pq_board *b, pq_sym g, const uint8_t *in, uint8_t *out) {
  for (int s = 0; s < b->squares; s++)
    out[pq_sym_square(b, g, s)] = in[s];
}

int pq_sym_canonical(const pq_board *b, const uint8_t *in, const uint8_t *code_map, uint8_t *out) {
  uint8_t img[PQ_MAX_SQUARES];
  int n = pq_sym_count(b), fixed = 0;
  memcpy(out, in, (size_t)b->squares);
  for (int pass = 0; pass < (code_map ? 2 : 1); pass++)
    for (int g = 0; g < n; g++) {
      pq_sym_apply(b, (pq_sym)g, in, img);
      if (pass)
        for (int s = 0; s < b->squares; s++)
          img[s] = code_map[img[s]];
      int cmp = memcmp(img, out, (size_t)b->squares);
      if (cmp < 0) memcpy(out, img, (size_t)b->squares);
      if (!memcmp(img, in, (size_t)b->squares)) fixed++;
    }
  return fixed;
}
