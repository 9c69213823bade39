/* armies_colours_ilp.c: armies of C colours by integer programming (GLPK), a method that shares
   nothing with the labelling search: --colours C --method ilp. */
#include <stdio.h>
#include <stdlib.h>

#include "../../src/lp/lp.h"
#include "armies_colours.h"

/* The directions the piece attacks along: rows and columns (R), diagonals (B), all four (Q). */
static void piece_dirs(pq_piece piece, int *first, int *last) {
  *first = piece == PQ_BISHOP ? 2 : 0;
  *last = piece == PQ_ROOK ? 1 : 3;
}

/* The model: a binary x(s,c) for colour c on square s and y(l,c) for line l labelled c;
   x(s,c) <= y(l,c) for each line l of the piece through s, sum_c y(l,c) <= 1 for every line (two
   colours on one line attack each other), sum_s x(s,c) = k for every colour, and the colours'
   order below. Feasibility only. */
static pq_lp_model *model(const pq_board *b, pq_piece piece, int colours, int k) {
  int first, last;
  piece_dirs(piece, &first, &last);
  int l0 = b->line_start[first], lines = b->line_start[last + 1] - l0;
  pq_lp_model *m = pq_lp_new("colours");
  char name[64];
  for (int l = 0; l < lines; l++)
    for (int c = 0; c < colours; c++) {
      snprintf(name, sizeof name, "y%d_%d", l, c);
      pq_lp_add_col(m, name, 1, 0);
    }
  int x0 = lines * colours;
  for (int s = 0; s < b->squares; s++)
    for (int c = 0; c < colours; c++) {
      snprintf(name, sizeof name, "x%d_%d", s, c);
      pq_lp_add_col(m, name, 1, 0);
    }
  int col[2], coef[2] = {1, -1};
  for (int s = 0; s < b->squares; s++)
    for (int c = 0; c < colours; c++)
      for (int d = first; d <= last; d++) {
        col[0] = x0 + s * colours + c;
        col[1] = (b->line_of[s][d] - l0) * colours + c;
        snprintf(name, sizeof name, "on%d_%d_%d", s, c, d);
        pq_lp_add_row(m, name, PQ_LP_LE, 0, 2, col, coef);
      }
  /* (room for a row over the squares, the lines before one, or the colours) */
  int n = b->squares > lines + 1 ? b->squares : lines + 1;
  if (n < colours) n = colours;
  int *cols = pq_malloc((size_t)n * sizeof *cols), *ones = pq_malloc((size_t)n * sizeof *ones);
  for (int i = 0; i < n; i++)
    ones[i] = 1;
  for (int l = 0; l < lines; l++) {
    for (int c = 0; c < colours; c++)
      cols[c] = l * colours + c;
    snprintf(name, sizeof name, "line%d", l);
    pq_lp_add_row(m, name, PQ_LP_LE, 1, colours, cols, ones);
  }
  /* The colours in the order of their first use along the lines: colour c (c >= 1) labels line
     l only when colour c - 1 labels a line before l. Valid: label only the lines that hold
     pieces and renumber the colours by first use. */
  int *coefs = pq_malloc((size_t)(lines + 1) * sizeof *coefs);
  for (int l = 0; l < lines; l++)
    for (int c = 1; c < colours; c++) {
      int t = 0;
      cols[t] = l * colours + c;
      coefs[t++] = 1;
      for (int e = 0; e < l; e++) {
        cols[t] = e * colours + c - 1;
        coefs[t++] = -1;
      }
      snprintf(name, sizeof name, "first%d_%d", l, c);
      pq_lp_add_row(m, name, PQ_LP_LE, 0, t, cols, coefs);
    }
  free(coefs);
  for (int c = 0; c < colours; c++) {
    for (int s = 0; s < b->squares; s++)
      cols[s] = x0 + s * colours + c;
    snprintf(name, sizeof name, "size%d", c);
    pq_lp_add_row(m, name, PQ_LP_EQ, k, b->squares, cols, ones);
  }
  free(cols);
  free(ones);
  return m;
}

pq_status pq_colours_ilp_decide(const pq_board *b, pq_piece piece, int colours, int k,
                                const pq_lp_params *limits, bool *found, uint8_t *cells) {
  *found = false;
  if ((long)colours * k > b->squares) return PQ_OK;
  pq_lp_model *m = model(b, piece, colours, k);
  int *x = pq_malloc((size_t)pq_lp_cols(m) * sizeof *x);
  pq_lp_params p = pq_lp_limits(limits);
  p.first_solution = true;
  pq_status rc = pq_lp_solve(m, NULL, &p, found, x, NULL);
  if (rc == PQ_OK && *found) {
    int first, last;
    piece_dirs(piece, &first, &last);
    int x0 = (b->line_start[last + 1] - b->line_start[first]) * colours;
    for (int s = 0; s < b->squares; s++) {
      cells[s] = 0;
      for (int c = 0; c < colours; c++)
        if (x[x0 + s * colours + c]) cells[s] = (uint8_t)(c + 1);
    }
    /* The solver's word is not taken: the placement is checked with plain geometry. */
    PQ_REQUIRE(pq_colours_peaceable(b, piece, colours, k, cells),
               "the integer program's solution is not a placement of %d armies of %d", colours, k);
  }
  free(x);
  pq_lp_free(m);
  return rc;
}

pq_status pq_colours_ilp_export(const pq_board *b, pq_piece piece, int colours, int k,
                                const char *lp, const char *mps) {
  if (!lp && !mps) return PQ_OK;
  pq_lp_model *m = model(b, piece, colours, k);
  pq_status rc = lp ? pq_lp_write(m, NULL, PQ_LP_CPLEX, lp) : PQ_OK;
  if (rc == PQ_OK && mps) rc = pq_lp_write(m, NULL, PQ_LP_MPS, mps);
  pq_lp_free(m);
  return rc;
}
