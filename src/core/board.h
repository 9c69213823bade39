/* board.h: board geometry, bitboards and attack tables. */
#ifndef PQ_BOARD_H
#define PQ_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "util.h"

#define PQ_MAX_SIDE 32
#define PQ_MAX_SQUARES (PQ_MAX_SIDE * PQ_MAX_SIDE)
#define PQ_WORDS (PQ_MAX_SQUARES / 64)
/* Armies of at most this many colours (a placement's square holds its colour in 4 bits). */
#define PQ_MAX_COLOURS 15

/* A set of squares: bit s of word s/64 is square s. Only the board's first `words` words are
   used; the rest stay zero. */
typedef struct pq_bits {
  uint64_t w[PQ_WORDS];
} pq_bits;

/* Chess piece types. Line pieces (queen, rook, bishop) attack along whole lines: blocking never
   matters in placements where no piece may attack another (see doc/algorithms.md). */
typedef enum pq_piece { PQ_KING, PQ_QUEEN, PQ_ROOK, PQ_BISHOP, PQ_KNIGHT, PQ_NPIECES } pq_piece;

/* "KQRBN"[piece]. */
extern const char pq_piece_letters[PQ_NPIECES + 1];

/* The piece for an upper- or lower-case letter, or -1. */
int pq_piece_from_letter(int c);

/* The piece's name for n of them: "queen" for 1, "queens" otherwise. */
const char *pq_piece_name(pq_piece piece, long n);

/* Line directions: row, column, diagonal (down-right), anti-diagonal (down-left). */
enum { PQ_ROW, PQ_COLUMN, PQ_DIAGONAL, PQ_ANTIDIAGONAL, PQ_NDIRS };

/* A WIDTHxHEIGHT board. Squares are numbered row by row from the top left: square
   s = row * width + column. Immutable after pq_board_new. */
typedef struct pq_board {
  int width, height;
  int squares;  /* width * height */
  int words;    /* 64-bit words a set of squares needs */
  pq_bits all;  /* every square */
  pq_bits dark; /* squares whose row + column is odd */
  /* attack[p][s]: the squares a piece p on s attacks, ignoring blocking; never s itself. */
  pq_bits *attack[PQ_NPIECES];
  /* Lines: rows, then columns, then diagonals, then anti-diagonals. line_of[s][d] is the line
     of direction d through s; line[l] its squares; a square lies on exactly four lines. */
  int lines;
  int line_start[PQ_NDIRS + 1];
  pq_bits *line;
  int (*line_of)[PQ_NDIRS];
  /* image[g * squares + s]: the square symmetry g (sym.h) takes s to, for each symmetry the board
     has (pq_sym_square reads it). */
  int16_t *image;
} pq_board;

/* Parses "N" (an NxN board) or "WIDTHxHEIGHT", each side 1..32. Returns PQ_OK and sets *width
   and *height, or prints a message naming what (the option "--board", or "board" of a file) and
   text and returns PQ_EINVAL. */
pq_status pq_board_parse(const char *what, const char *text, int *width, int *height);

/* A new board with its tables (caller frees with pq_board_free). Sides must be 1..32. */
pq_board *pq_board_new(int width, int height);
void pq_board_free(pq_board *b);

static inline int pq_square(const pq_board *b, int row, int column) {
  return row * b->width + column;
}

/* Whether a piece p on square s attacks square t (t != s), with no blocking. Computed from
   geometry, not from the tables: tests and certificate checks use it as an independent check. */
bool pq_attacks_plain(const pq_board *b, pq_piece p, int s, int t);

/* Bitboard operations over the board's words. */
static inline void pq_bits_clear(pq_bits *a) {
  for (int i = 0; i < PQ_WORDS; i++)
    a->w[i] = 0;
}
static inline void pq_bits_set(pq_bits *a, int s) { a->w[s >> 6] |= (uint64_t)1 << (s & 63); }
static inline void pq_bits_reset(pq_bits *a, int s) { a->w[s >> 6] &= ~((uint64_t)1 << (s & 63)); }
static inline bool pq_bits_has(const pq_bits *a, int s) { return (a->w[s >> 6] >> (s & 63)) & 1; }
static inline int pq_bits_count(const pq_bits *a, int words) {
  int n = 0;
  for (int i = 0; i < words; i++)
    n += __builtin_popcountll(a->w[i]);
  return n;
}
/* The squares in both a and b. */
static inline int pq_bits_count_and(const pq_bits *a, const pq_bits *b, int words) {
  int n = 0;
  for (int w = 0; w < words; w++)
    n += __builtin_popcountll(a->w[w] & b->w[w]);
  return n;
}
static inline bool pq_bits_empty(const pq_bits *a, int words) {
  for (int i = 0; i < words; i++)
    if (a->w[i]) return false;
  return true;
}
/* The lowest square in a at or after `from`, or -1. */
static inline int pq_bits_next(const pq_bits *a, int words, int from) {
  int i = from >> 6;
  if (i >= words) return -1;
  uint64_t x = a->w[i] & (~(uint64_t)0 << (from & 63));
  for (;;) {
    if (x) return (i << 6) + __builtin_ctzll(x);
    if (++i >= words) return -1;
    x = a->w[i];
  }
}
#define PQ_BITS_FOREACH(s, set, words)                                                             \
  for (int s = pq_bits_next((set), (words), 0); s >= 0; s = pq_bits_next((set), (words), s + 1))

#endif
