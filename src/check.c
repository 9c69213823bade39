/* check.c: geometry for certificate checkers, apart from the search's. */
#include "check.h"

#include <string.h>

void pq_check_map(int width, int height, int g, int row, int column, int *row2, int *column2) {
  int r = row, k = column, w = width, h = height;
  switch (g) {
  case 0: *row2 = r, *column2 = k; break;
  case 1: *row2 = h - 1 - r, *column2 = w - 1 - k; break;
  case 2: *row2 = r, *column2 = w - 1 - k; break;
  case 3: *row2 = h - 1 - r, *column2 = k; break;
  case 4: *row2 = k, *column2 = w - 1 - r; break;
  case 5: *row2 = h - 1 - k, *column2 = r; break;
  case 6: *row2 = k, *column2 = r; break;
  default: *row2 = w - 1 - k, *column2 = h - 1 - r; break;
  }
}

int pq_check_image(int width, int height, int g, int s) {
  int r2, k2;
  pq_check_map(width, height, g, s / width, s % width, &r2, &k2);
  return r2 * width + k2;
}

pq_rows_fault pq_check_rows(const char *text, int width, int height, const char *symbols,
                            uint8_t *cells, int *square, char *symbol) {
  int s = 0, column = 0, squares = width * height;
  for (const char *p = text;; p++) {
    if (*p == '/' || !*p) {
      /* A row ends: it must be full, and only the last row may end the text. */
      if (column != width || (!*p && s != squares) || (*p && s >= squares)) return PQ_ROWS_SHAPE;
      if (!*p) return PQ_ROWS_OK;
      column = 0;
      continue;
    }
    if (column == width || s >= squares) return PQ_ROWS_SHAPE;
    const char *at = strchr(symbols, *p);
    if (!at) {
      *square = s;
      *symbol = *p;
      return PQ_ROWS_SYMBOL;
    }
    cells[s++] = (uint8_t)(at - symbols);
    column++;
  }
}
