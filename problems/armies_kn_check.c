/* armies_kn_check.c: the checker's own bound for kings (doc/certificate.md, "Kings"), part of
   libcheck.a: the least number of squares on or a king's move from a down-set of w squares,
   computed here from the document's formula alone. */
#include <stdlib.h>

#include "../src/check.h"
#include "armies_kn_check.h"

/* The neighbourhood of a down-set with rows of lengths l_0 >= l_1 >= ... >= l_{m-1} >= 1 (from
   the top) has min(W, l_0 + 1) squares in row 0 and min(W, l_{i-1} + 1) in row i for
   1 <= i <= m, i < H. least[l][k] below: over down-sets of k squares whose rows so far end with
   a row of length l, the least count of neighbourhood squares in the rows up to the one after
   it (the next row's count is paid when a row is laid). */
bool pq_armies_check_kings_closed(int width, int height, int white, int black) {
  int n = width * height;
  if (white < 0 || black < 0) return false;
  if (white > n || white + black > n) return true; /* the pieces cannot stand on n squares */
  if (white == 0) return false;                     /* every square is open to black */
  size_t cells = (size_t)(width + 1) * (size_t)(n + 1);
  int *least = pq_malloc(cells * sizeof *least), *next = pq_malloc(cells * sizeof *next);
  int best = n + 1; /* the least neighbourhood of `white` squares */
  for (size_t i = 0; i < cells; i++)
    least[i] = -1;
  for (int row = 0; row < height; row++) {
    for (size_t i = 0; i < cells; i++)
      next[i] = -1;
    for (int l = 1; l <= width; l++) {
      int grown = l + 1 < width ? l + 1 : width, after = row + 1 < height ? grown : 0;
      for (int k = l; k <= n; k++) {
        int from = -1;
        if (row == 0 && k == l) from = grown; /* the first row: its own row of the neighbourhood */
        for (int p = l; row > 0 && p <= width; p++) {
          int v = least[(size_t)p * (size_t)(n + 1) + (size_t)(k - l)];
          if (v >= 0 && (from < 0 || v < from)) from = v;
        }
        if (from < 0) continue;
        next[(size_t)l * (size_t)(n + 1) + (size_t)k] = from + after;
        if (k == white && from + after < best) best = from + after;
      }
    }
    int *t = least;
    least = next;
    next = t;
  }
  free(least);
  free(next);
  return black > n - best;
}
