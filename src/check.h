/* check.h: geometry for certificate checkers, written apart from the search's (board.c, sym.c)
   so that a checker shares no code with what it checks. */
#ifndef PQ_CHECK_H
#define PQ_CHECK_H

/* The image of square s (row-major on a width x height board) under symmetry element g:
   0 identity, 1 half turn, 2 mirror left-right, 3 mirror top-bottom, and on a square board only
   4 quarter turn, 5 three-quarter turn, 6 transpose, 7 anti-transpose. */
int pq_check_image(int width, int height, int g, int s);

#endif
