/* armies_kn.c: armies of kings by the vertex-isoperimetric profile of the king graph.

   White kings on a set X leave black every square outside N[X], X with the squares a king's
   move from it, and nothing else: `white` against `black` fit exactly when some X of `white`
   squares has |N[X]| <= squares - black. Compressing X down its columns (each column's squares
   moved to its top) does not make N[X] larger: column c of N[X] holds the thickened column
   c' (its squares and their vertical neighbours) for c' = c - 1, c, c + 1, which is at least as
   large as the thickened longest of them, and that is what the compressed set gives. Rows
   likewise; compressing in turn ends at a down-set anchored at the top left corner (rows of
   lengths l_0 >= l_1 >= ... >= l_{m-1} >= 1), whose closed neighbourhood has rows of length
   min(W, l_0 + 1) (row 0) and min(W, l_{i-1} + 1) (row i, for 1 <= i <= m, below the board's
   last row). So the least |N[X]| is a minimum over down-sets, which a dynamic programme over
   rows computes (Bollobas and Leader's compressions, for the grid with diagonals). */
#include <stdlib.h>
#include <string.h>

#include "armies_kn.h"

/* The programme's table: best[(row * (W + 1) + length) * (n + 1) + size], the least closed
   neighbourhood of a down-set of `size` squares whose last row is `row`, of `length` squares;
   -1 when there is none. */
typedef struct profile {
  int width, height, n;
  int *best;
} profile;

static int *cell(const profile *p, int row, int length, int size) {
  return &p->best[((size_t)row * (size_t)(p->width + 1) + (size_t)length) * (size_t)(p->n + 1) +
                  (size_t)size];
}

/* The neighbourhood's squares that a row of `length` adds below it (none below the last row). */
static int below(const profile *p, int row, int length) {
  int reach = length + 1 < p->width ? length + 1 : p->width;
  return row + 1 < p->height ? reach : 0;
}

static void fill(profile *p) {
  size_t cells = (size_t)p->height * (size_t)(p->width + 1) * (size_t)(p->n + 1);
  p->best = pq_malloc(cells * sizeof *p->best);
  for (size_t i = 0; i < cells; i++)
    p->best[i] = -1;
  for (int length = 1; length <= p->width; length++) {
    int reach = length + 1 < p->width ? length + 1 : p->width;
    *cell(p, 0, length, length) = reach + below(p, 0, length);
  }
  for (int row = 1; row < p->height; row++)
    for (int last = 1; last <= p->width; last++)
      for (int size = 0; size <= p->n; size++) {
        int v = *cell(p, row - 1, last, size);
        if (v < 0) continue;
        for (int length = 1; length <= last && size + length <= p->n; length++) {
          int *to = cell(p, row, length, size + length), cost = v + below(p, row, length);
          if (*to < 0 || cost < *to) *to = cost;
        }
      }
}

void pq_armies_kings_profile(int width, int height, int *closed) {
  profile p = {.width = width, .height = height, .n = width * height};
  fill(&p);
  closed[0] = 0;
  for (int size = 1; size <= p.n; size++) {
    closed[size] = -1;
    for (int row = 0; row < height; row++)
      for (int length = 1; length <= width; length++) {
        int v = *cell(&p, row, length, size);
        if (v >= 0 && (closed[size] < 0 || v < closed[size])) closed[size] = v;
      }
  }
  free(p.best);
}

/* Writes into cells a down-set of `size` squares with the least closed neighbourhood (1 on its
   squares), by walking the programme's table back from its best end. */
static void best_set(const profile *p, int size, int least, uint8_t *cells) {
  int row = -1, length = 0;
  for (int r = 0; r < p->height && row < 0; r++)
    for (int l = 1; l <= p->width && row < 0; l++)
      if (*cell(p, r, l, size) == least) row = r, length = l;
  PQ_REQUIRE(row >= 0 || size == 0, "no down-set of %d squares", size);
  while (row >= 0) {
    for (int c = 0; c < length; c++)
      cells[row * p->width + c] = 1;
    int v = *cell(p, row, length, size), previous = -1;
    size -= length;
    if (row > 0)
      for (int l = length; l <= p->width && previous < 0; l++) {
        int u = *cell(p, row - 1, l, size);
        if (u >= 0 && u + below(p, row, length) == v) previous = l;
      }
    PQ_REQUIRE(row == 0 || previous > 0, "broken table");
    length = previous;
    row--;
  }
}

bool pq_armies_kings_decide(const pq_board *b, int white, int black, bool grow, uint8_t *cells) {
  int n = b->squares;
  if (white < 0 || black < 0 || white > n || black > n) return false;
  int *closed = pq_malloc(((size_t)n + 1) * sizeof *closed);
  pq_armies_kings_profile(b->width, b->height, closed);
  bool fits = black <= n - closed[white], equal = white == black;
  if (fits && grow && equal)
    while (white < n && white + 1 <= n - closed[white + 1])
      black = ++white;
  if (fits) {
    profile p = {.width = b->width, .height = b->height, .n = n};
    fill(&p);
    memset(cells, 0, (size_t)n);
    best_set(&p, white, closed[white], cells);
    free(p.best);
    /* Black on the squares no white king reaches, as many as asked for (all of them when a
       fixed white army grows). */
    int left = grow && !equal ? n : black;
    for (int s = 0; s < n && left > 0; s++) {
      bool reached = false;
      for (int t = 0; t < n && !reached; t++)
        reached = cells[t] == 1 && (t == s || pq_bits_has(&b->attack[PQ_KING][t], s));
      if (!reached) cells[s] = 2, left--;
    }
  }
  free(closed);
  return fits;
}

pq_status pq_armies_kings_decision(const pq_board *b, int white, int black,
                                   const pq_armies_params *p, pq_armies_decision *out) {
  memset(out, 0, sizeof *out);
  out->found = pq_armies_kings_decide(b, white, black, p->grow, out->witness);
  out->nodes = 1;
  if (!out->found && p->proof) {
    pq_armies_decision_one_leaf(out, "k");
  }
  return PQ_OK;
}
