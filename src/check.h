/* check.h: geometry for certificate checkers, written apart from the search's (board.c, sym.c)
   so that a checker shares no code with what it checks. */
#ifndef PQ_CHECK_H
#define PQ_CHECK_H

#include <stdint.h>

/* The image (*row2, *column2) of the point (row, column) of a width x height board under
   symmetry element g: 0 identity, 1 half turn, 2 mirror left-right, 3 mirror top-bottom, and on
   a square board only 4 quarter turn, 5 three-quarter turn, 6 transpose, 7 anti-transpose. The
   map is affine, so points off the board have images too (differences of images give the
   images of directions). */
void pq_check_map(int width, int height, int g, int row, int column, int *row2, int *column2);

/* The image of square s (row-major on a width x height board) under symmetry element g. */
int pq_check_image(int width, int height, int g, int s);

/* What is wrong with a placement's text, if anything. */
typedef enum pq_rows_fault { PQ_ROWS_OK, PQ_ROWS_SHAPE, PQ_ROWS_SYMBOL } pq_rows_fault;

/* Reads a placement's text as doc/certificate.md writes it: exactly height rows of exactly width
   characters, top to bottom, joined by '/', each character one of symbols (a NUL-terminated
   list, '.' among them). Sets cells[s] (width * height of them) to the index in symbols of
   square s's character. Returns PQ_ROWS_OK; PQ_ROWS_SHAPE (other rows, row lengths or
   separators); PQ_ROWS_SYMBOL with *square and *symbol the first square whose character is
   not in symbols. */
pq_rows_fault pq_check_rows(const char *text, int width, int height, const char *symbols,
                            uint8_t *cells, int *square, char *symbol);

#endif
