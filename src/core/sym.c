/* sym.c: the symmetry group of a board and canonical forms of placements. */
#include "sym.h"

#include <string.h>

int pq_sym_count(const pq_board *b) { return b->width == b->height ? 8 : 4; }

/* The image of square s under symmetry g, from geometry. */
static int image_of(const pq_board *b, pq_sym g, int s) {
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

int16_t *pq_sym_images(const pq_board *b) {
  int n = pq_sym_count(b);
  int16_t *image = pq_malloc((size_t)n * (size_t)b->squares * sizeof *image);
  for (int g = 0; g < n; g++)
    for (int s = 0; s < b->squares; s++)
      image[g * b->squares + s] = (int16_t)image_of(b, (pq_sym)g, s);
  return image;
}

/* The images of every square under g, one of the board's symmetries. */
static const int16_t *images(const pq_board *b, pq_sym g) {
  PQ_REQUIRE((unsigned)g < (unsigned)pq_sym_count(b), "symmetry %d on a %dx%d board", (int)g,
             b->width, b->height);
  return b->image + (int)g * b->squares;
}

int pq_sym_square(const pq_board *b, pq_sym g, int s) { return images(b, g)[s]; }

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
  const int16_t *image = images(b, g);
  for (int s = 0; s < b->squares; s++)
    out[image[s]] = in[s];
}

/* A placement with few pieces, as its occupied squares in increasing order and their codes. */
typedef struct sparse {
  int n;
  int16_t square[PQ_MAX_SQUARES];
  uint8_t code[PQ_MAX_SQUARES];
} sparse;

/* Whether placement x is below (-1), equal to (0) or above (1) placement y, as memcmp orders
   them written out square by square: at the first square where they differ, the one empty there
   (code 0) or with the lower code is below. */
static int sparse_cmp(const sparse *x, const sparse *y) {
  for (int i = 0; i < x->n && i < y->n; i++) {
    if (x->square[i] != y->square[i]) return x->square[i] < y->square[i] ? 1 : -1;
    if (x->code[i] != y->code[i]) return x->code[i] < y->code[i] ? -1 : 1;
  }
  return x->n == y->n ? 0 : x->n < y->n ? -1 : 1;
}

/* *to = *from, its n pieces alone. */
static void sparse_copy(sparse *to, const sparse *from) {
  to->n = from->n;
  memcpy(to->square, from->square, (size_t)from->n * sizeof *from->square);
  memcpy(to->code, from->code, (size_t)from->n);
}

/* pq_sym_canonical for in's k pieces given in p, with k * k below the squares: the images of the
   pieces alone, sorted (by insertion: they come nearly in order or in reverse), not of every
   square. code_map, when given, maps 0 to 0 and the pieces' codes to codes of pieces. */
static int canonical_sparse(const pq_board *b, const sparse *p, const uint8_t *code_map,
                            uint8_t *out) {
  static _Thread_local sparse best, img;
  int n = pq_sym_count(b), fixed = 0;
  sparse_copy(&best, p);
  for (int pass = 0; pass < (code_map ? 2 : 1); pass++)
    for (int g = 0; g < n; g++) {
      const int16_t *image = images(b, (pq_sym)g);
      img.n = p->n;
      for (int i = 0; i < p->n; i++) {
        int16_t sq = image[p->square[i]];
        uint8_t code = pass ? code_map[p->code[i]] : p->code[i];
        int j = i;
        for (; j > 0 && img.square[j - 1] > sq; j--) {
          img.square[j] = img.square[j - 1];
          img.code[j] = img.code[j - 1];
        }
        img.square[j] = sq;
        img.code[j] = code;
      }
      if (sparse_cmp(&img, &best) < 0) sparse_copy(&best, &img);
      if (!sparse_cmp(&img, p)) fixed++;
    }
  memset(out, 0, (size_t)b->squares);
  for (int i = 0; i < best.n; i++)
    out[best.square[i]] = best.code[i];
  return fixed;
}

int pq_sym_canonical(const pq_board *b, const uint8_t *in, const uint8_t *code_map, uint8_t *out) {
  static _Thread_local sparse p;
  p.n = 0;
  for (int s = 0; s < b->squares && p.n * p.n < b->squares; s++) {
    uint64_t eight = 0; /* (empty squares are skipped eight at a time) */
    if (s % 8 == 0 && s + 8 <= b->squares && (memcpy(&eight, in + s, 8), !eight)) {
      s += 7;
      continue;
    }
    if (in[s]) {
      p.square[p.n] = (int16_t)s;
      p.code[p.n++] = in[s];
    }
  }
  /* (The pieces' images stay pieces: a code_map taking a code to 0 or 0 to a code is not.) */
  bool few = p.n * p.n < b->squares && (!code_map || !code_map[0]);
  for (int i = 0; few && code_map && i < p.n; i++)
    few = code_map[p.code[i]] != 0;
  if (few) return canonical_sparse(b, &p, code_map, out);
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
