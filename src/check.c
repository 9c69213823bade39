/* check.c: geometry for certificate checkers, apart from the search's. */
#include "check.h"

int pq_check_image(int width, int height, int g, int s) {
  int r = s / width, k = s % width, w = width, h = height, r2, k2;
  switch (g) {
  case 0: r2 = r, k2 = k; break;
  case 1: r2 = h - 1 - r, k2 = w - 1 - k; break;
  case 2: r2 = r, k2 = w - 1 - k; break;
  case 3: r2 = h - 1 - r, k2 = k; break;
  case 4: r2 = k, k2 = w - 1 - r; break;
  case 5: r2 = h - 1 - k, k2 = r; break;
  case 6: r2 = k, k2 = r; break;
  default: r2 = w - 1 - k, k2 = h - 1 - r; break;
  }
  return r2 * w + k2;
}
