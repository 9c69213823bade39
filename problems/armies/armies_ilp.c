/* armies_ilp.c: integer programs for peaceable armies, solved with GLPK through src/lp/lp.h. */
#include "armies_ilp.h"

#include <stdio.h>
#include <stdlib.h>

/* The directions along which piece attacks whole lines: [*first, *last], or none (K, N). */
static bool line_dirs(pq_piece piece, int *first, int *last) {
  switch (piece) {
  case PQ_QUEEN: *first = PQ_ROW, *last = PQ_ANTIDIAGONAL; return true;
  case PQ_ROOK: *first = PQ_ROW, *last = PQ_COLUMN; return true;
  case PQ_BISHOP: *first = PQ_DIAGONAL, *last = PQ_ANTIDIAGONAL; return true;
  default: *first = 0, *last = -1; return false;
  }
}

int pq_armies_ilp_lines(const pq_board *b, pq_piece piece) {
  int first, last;
  if (!line_dirs(piece, &first, &last)) return 0;
  return b->line_start[last + 1] - b->line_start[first];
}

int pq_armies_ilp_line_col(const pq_board *b, pq_piece piece, int line) {
  PQ_REQUIRE(line >= 0 && line < b->lines, "no line %d", line);
  int first, last;
  if (!line_dirs(piece, &first, &last)) return -1;
  if (line < b->line_start[first] || line >= b->line_start[last + 1]) return -1;
  return line - b->line_start[first];
}

int pq_armies_ilp_square_col(const pq_board *b, pq_piece piece, int square, int colour) {
  PQ_REQUIRE(square >= 0 && square < b->squares && (colour == 1 || colour == 2),
             "square %d colour %d", square, colour);
  return pq_armies_ilp_lines(b, piece) + (colour - 1) * b->squares + square;
}

static const char *const dir_names[PQ_NDIRS] = {"row", "col", "diag", "anti"};

/* "row3", "col0", "diag7", "anti2": a board line by direction and index within it. */
static void line_name(const pq_board *b, int line, char *out, size_t len) {
  int d = PQ_NDIRS - 1;
  while (line < b->line_start[d])
    d--;
  snprintf(out, len, "%s%d", dir_names[d], line - b->line_start[d]);
}

/* Adds the symmetry-breaking rows described at pq_armies_ilp_decide over the pieces whose
   columns for square s are col[k] + s, k < kinds. */
static void add_symmetry_rows(pq_lp_model *m, const pq_board *b, int kinds, const int *col) {
  int n = b->squares * kinds;
  int *cols = pq_malloc((size_t)n * sizeof *cols), *coefs = pq_malloc((size_t)n * sizeof *coefs);
  for (int which = 0; which < 3; which++) {
    if (which == 2 && b->width != b->height) break;
    int len = 0;
    for (int s = 0; s < b->squares; s++) {
      int r = s / b->width, c = s % b->width;
      /* +1 in the left (top) half, -1 in the right (bottom) half, 0 on the middle line. */
      int lr = 2 * c < b->width - 1 ? 1 : 2 * c > b->width - 1 ? -1 : 0;
      int tb = 2 * r < b->height - 1 ? 1 : 2 * r > b->height - 1 ? -1 : 0;
      int coef = which == 0 ? lr : which == 1 ? tb : lr - tb;
      if (coef)
        for (int k = 0; k < kinds; k++)
          cols[len] = col[k] + s, coefs[len++] = coef;
    }
    static const char *const names[3] = {"sym_left_right", "sym_top_bottom", "sym_transpose"};
    if (len) pq_lp_add_row(m, names[which], PQ_LP_GE, 0, len, cols, coefs);
  }
  free(cols);
  free(coefs);
}

/* With equal armies, swapping the colours maps placements to placements and leaves every
   row of add_symmetry_rows alone (they count both colours): so one may also ask for at least
   as many white as black pieces in the left half. */
static void add_colour_row(pq_lp_model *m, const pq_board *b, int w0, int b0) {
  int *cols = pq_malloc((size_t)(2 * b->squares) * sizeof *cols);
  int *coefs = pq_malloc((size_t)(2 * b->squares) * sizeof *coefs), len = 0;
  for (int s = 0; s < b->squares; s++)
    if (2 * (s % b->width) < b->width - 1) {
      cols[len] = w0 + s, coefs[len++] = 1;
      cols[len] = b0 + s, coefs[len++] = -1;
    }
  if (len) pq_lp_add_row(m, "sym_colours", PQ_LP_GE, 0, len, cols, coefs);
  free(cols);
  free(coefs);
}

pq_lp_model *pq_armies_ilp_model(const pq_board *b, pq_piece piece, int white, int black,
                                 bool break_symmetry) {
  PQ_REQUIRE(piece >= 0 && piece < PQ_NPIECES, "bad piece %d", (int)piece);
  PQ_REQUIRE(white >= 0 && white <= b->squares && black >= 0 && black <= b->squares,
             "armies of %d and %d on %d squares", white, black, b->squares);
  char name[64], other[80], rn[160];
  snprintf(name, sizeof name, "armies_%c_%dx%d_w%d_b%d", pq_piece_letters[piece], b->width,
           b->height, white, black);
  pq_lp_model *m = pq_lp_new(name);
  int S = b->squares, first, last;
  bool lines = line_dirs(piece, &first, &last);
  int L = pq_armies_ilp_lines(b, piece);
  for (int k = 0; k < L; k++) {
    line_name(b, b->line_start[first] + k, name, sizeof name);
    snprintf(other, sizeof other, "u_%s", name);
    pq_lp_add_col(m, other, 1, 0);
  }
  for (int colour = 1; colour <= 2; colour++)
    for (int s = 0; s < S; s++) {
      snprintf(name, sizeof name, "%c_r%dc%d", colour == 1 ? 'w' : 'b', s / b->width, s % b->width);
      pq_lp_add_col(m, name, 1, colour == 2);
    }
  int w0 = L, b0 = L + S, one[2] = {1, 1};
  if (lines) {
    for (int s = 0; s < S; s++)
      for (int d = first; d <= last; d++) {
        int l = b->line_of[s][d], u = pq_armies_ilp_line_col(b, piece, l);
        line_name(b, l, name, sizeof name);
        int cols_w[2] = {w0 + s, u}, coefs_w[2] = {1, -1}, cols_b[2] = {b0 + s, u};
        snprintf(rn, sizeof rn, "w_r%dc%d_%s", s / b->width, s % b->width, name);
        pq_lp_add_row(m, rn, PQ_LP_LE, 0, 2, cols_w, coefs_w);
        snprintf(rn, sizeof rn, "b_r%dc%d_%s", s / b->width, s % b->width, name);
        pq_lp_add_row(m, rn, PQ_LP_LE, 1, 2, cols_b, one);
      }
  } else {
    for (int s = 0; s < S; s++) {
      int same[2] = {w0 + s, b0 + s};
      snprintf(rn, sizeof rn, "one_r%dc%d", s / b->width, s % b->width);
      pq_lp_add_row(m, rn, PQ_LP_LE, 1, 2, same, one);
      PQ_BITS_FOREACH(t, &b->attack[piece][s], b->words) {
        int pair[2] = {w0 + s, b0 + t};
        snprintf(rn, sizeof rn, "w_r%dc%d_b_r%dc%d", s / b->width, s % b->width, t / b->width,
                 t % b->width);
        pq_lp_add_row(m, rn, PQ_LP_LE, 1, 2, pair, one);
      }
    }
  }
  int *cols = pq_malloc((size_t)S * sizeof *cols), *ones = pq_malloc((size_t)S * sizeof *ones);
  for (int s = 0; s < S; s++)
    ones[s] = 1;
  for (int colour = 1; colour <= 2; colour++) {
    int count = colour == 1 ? white : black;
    if (count <= 0) continue;
    for (int s = 0; s < S; s++)
      cols[s] = (colour == 1 ? w0 : b0) + s;
    pq_lp_add_row(m, colour == 1 ? "white" : "black", PQ_LP_GE, count, S, cols, ones);
  }
  free(cols);
  free(ones);
  if (break_symmetry) {
    int col[2] = {w0, b0};
    add_symmetry_rows(m, b, 2, col);
    if (white == black) add_colour_row(m, b, w0, b0);
  }
  return m;
}

/* Whether the witness is peaceful with the given counts, by the board's attack tables. */
static bool peaceful(const pq_board *b, pq_piece piece, const uint8_t *witness, int white,
                     int black) {
  int count[3] = {0, 0, 0};
  for (int s = 0; s < b->squares; s++) {
    count[witness[s]]++;
    if (!witness[s]) continue;
    PQ_BITS_FOREACH(t, &b->attack[piece][s], b->words) {
      if (witness[t] && witness[t] != witness[s]) return false;
    }
  }
  return count[1] == white && count[2] == black;
}

pq_status pq_armies_ilp_decide(const pq_board *b, pq_piece piece, int white, int black,
                               const pq_lp_params *limits, bool *found, uint8_t *witness) {
  pq_lp_model *m = pq_armies_ilp_model(b, piece, white, black, true);
  int *x = pq_malloc((size_t)pq_lp_cols(m) * sizeof *x);
  pq_lp_params p = pq_lp_limits(limits);
  p.first_solution = true;
  pq_status rc = pq_lp_solve(m, NULL, &p, found, x, NULL);
  if (rc == PQ_OK && *found) {
    /* The counts are ">=": keep the first `white` and `black` pieces found. */
    int left[3] = {0, white, black};
    for (int s = 0; s < b->squares; s++) {
      witness[s] = 0;
      for (int colour = 1; colour <= 2; colour++)
        if (x[pq_armies_ilp_square_col(b, piece, s, colour)] && left[colour] > 0) {
          witness[s] = (uint8_t)colour;
          left[colour]--;
        }
    }
    PQ_REQUIRE(peaceful(b, piece, witness, white, black),
               "GLPK's solution of %s is not a peaceful placement", "the armies model");
  }
  free(x);
  pq_lp_free(m);
  return rc;
}

pq_status pq_armies_ilp_export(const pq_board *b, pq_piece piece, int white, int black,
                               const char *lp, const char *mps) {
  if (!lp && !mps) return PQ_OK;
  pq_lp_model *m = pq_armies_ilp_model(b, piece, white, black, false);
  pq_status rc = PQ_OK;
  if (lp) rc = pq_lp_write(m, NULL, PQ_LP_CPLEX, lp);
  if (rc == PQ_OK && mps) rc = pq_lp_write(m, NULL, PQ_LP_MPS, mps);
  pq_lp_free(m);
  return rc;
}
