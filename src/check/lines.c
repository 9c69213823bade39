/* lines.c: the checkers' own board geometry (doc/certificate.md, "Lines"), written once for every
   checker of libcheck.a: the attack test of each piece, and line ids, their directions and their
   images under the board's symmetries. Nothing of the search or the calculus. */
#include <stdlib.h>

#include "check.h"

bool pq_check_attacks(int width, int piece, int s, int t) {
  int dr = abs(s / width - t / width), dc = abs(s % width - t % width);
  if (s == t) return false;
  switch (piece) {
  case 0: return dr <= 1 && dc <= 1;
  case 1: return dr == 0 || dc == 0 || dr == dc;
  case 2: return dr == 0 || dc == 0;
  case 3: return dr == dc;
  default: return (dr == 1 && dc == 2) || (dr == 2 && dc == 1);
  }
}

bool pq_check_piece_dir(int piece, int d) {
  return piece == 1 || (piece == 2 && d < 2) || (piece == 3 && d >= 2);
}

int pq_check_lines(int width, int height) { return height + width + 2 * (width + height - 1); }

int pq_check_line_id(int width, int height, int d, int r, int k) {
  switch (d) {
  case 0: return r;
  case 1: return height + k;
  case 2: return height + width + (k - r + height - 1);
  default: return height + width + (width + height - 1) + (r + k);
  }
}

int pq_check_line_dir(int width, int height, int id, int *index) {
  int n = width + height - 1;
  int start[5] = {0, height, height + width, height + width + n, height + width + 2 * n};
  for (int d = 0; d < 4; d++)
    if (id >= start[d] && id < start[d + 1]) {
      if (index) *index = id - start[d];
      return d;
    }
  return -1;
}

int pq_check_line_image(int width, int height, int g, int id) {
  static const int step[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
  int index, d = pq_check_line_dir(width, height, id, &index), r, k;
  /* One square (r, k) of the line. */
  switch (d) {
  case 0: r = index, k = 0; break;
  case 1: r = 0, k = index; break;
  case 2: r = index < height ? height - 1 - index : 0, k = index - (height - 1) + r; break;
  default: r = index < height ? index : height - 1, k = index - r; break;
  }
  int r0, k0, r1, k1, d2 = 0;
  pq_check_map(width, height, g, 0, 0, &r0, &k0);
  pq_check_map(width, height, g, step[d][0], step[d][1], &r1, &k1);
  int dr = r1 - r0, dk = k1 - k0;
  while (!((step[d2][0] == dr && step[d2][1] == dk) || (step[d2][0] == -dr && step[d2][1] == -dk)))
    d2++;
  pq_check_map(width, height, g, r, k, &r0, &k0);
  return pq_check_line_id(width, height, d2, r0, k0);
}
