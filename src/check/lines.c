/* lines.c: the checkers' own board geometry (doc/certificate.md, "Lines"), written once for every
   checker of libcheck.a: the images of lines under the board's symmetries (the attack test and
   line ids are inline in check.h). Nothing of the search or the calculus. */
#include "check.h"

int pq_check_line_image(int width, int height, int g, int id) {
  static const int step[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
  int index = 0, d = pq_check_line_dir(width, height, id, &index), r, k;
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
