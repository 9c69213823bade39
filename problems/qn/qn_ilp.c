/* qn_ilp.c: integer programs for two kinds of pieces in a ratio, solved with GLPK via lp.h. */
#include "qn_ilp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pq_qn_ilp_square_col(const pq_board *b, int square, int kind) {
  PQ_REQUIRE(square >= 0 && square < b->squares && (kind == 1 || kind == 2), "square %d kind %d",
             square, kind);
  return (kind - 1) * b->squares + square;
}

/* Whether piece attacks along whole lines of direction d. */
static bool sweeps(pq_piece piece, int d) {
  switch (piece) {
  case PQ_QUEEN: return true;
  case PQ_ROOK: return d == PQ_ROW || d == PQ_COLUMN;
  case PQ_BISHOP: return d == PQ_DIAGONAL || d == PQ_ANTIDIAGONAL;
  default: return false;
  }
}

static bool is_line_piece(pq_piece piece) {
  return sweeps(piece, PQ_DIAGONAL) || sweeps(piece, PQ_ROW);
}

static const char *const dir_names[PQ_NDIRS] = {"row", "col", "diag", "anti"};

/* The direction of board line l. */
static int dir_of(const pq_board *b, int l) {
  int d = PQ_NDIRS - 1;
  while (l < b->line_start[d])
    d--;
  return d;
}

/* Whether a piece on t attacks s along a whole line (so a line row covers the pair). */
static bool swept_between(const pq_board *b, pq_piece piece, int s, int t) {
  for (int d = 0; d < PQ_NDIRS; d++)
    if (sweeps(piece, d) && b->line_of[s][d] == b->line_of[t][d]) return true;
  return false;
}

/* The symmetry-breaking rows of pq_armies_ilp_decide over both kinds. */
static void add_symmetry_rows(pq_lp_model *m, const pq_board *b) {
  int n = 2 * b->squares;
  int *cols = pq_malloc((size_t)n * sizeof *cols), *coefs = pq_malloc((size_t)n * sizeof *coefs);
  static const char *const names[3] = {"sym_left_right", "sym_top_bottom", "sym_transpose"};
  for (int which = 0; which < 3; which++) {
    if (which == 2 && b->width != b->height) break;
    int len = 0;
    for (int s = 0; s < b->squares; s++) {
      int r = s / b->width, c = s % b->width;
      int lr = 2 * c < b->width - 1 ? 1 : 2 * c > b->width - 1 ? -1 : 0;
      int tb = 2 * r < b->height - 1 ? 1 : 2 * r > b->height - 1 ? -1 : 0;
      int coef = which == 0 ? lr : which == 1 ? tb : lr - tb;
      if (coef)
        for (int kind = 1; kind <= 2; kind++)
          cols[len] = pq_qn_ilp_square_col(b, s, kind), coefs[len++] = coef;
    }
    if (len) pq_lp_add_row(m, names[which], PQ_LP_GE, 0, len, cols, coefs);
  }
  free(cols);
  free(coefs);
}

/* The lines: a clique row where both kinds sweep the line, else a row marking the line occupied
   by the kind that sweeps it and one pair row for each square of the other kind. */
static void add_line_rows(pq_lp_model *m, const pq_board *b, pq_piece first, pq_piece second,
                          bool *covered, int *cols, int *coefs) {
  const int one[2] = {1, 1};
  char name[96], rn[160];
  for (int l = 0; l < b->lines; l++) {
    int d = dir_of(b, l), len = 0;
    if (pq_bits_count(&b->line[l], b->words) < 2) continue;
    bool sweep[3] = {false, sweeps(first, d), sweeps(second, d)};
    if (!sweep[1] && !sweep[2]) continue;
    char line[32];
    snprintf(line, sizeof line, "%s%d", dir_names[d], l - b->line_start[d]);
    for (int k = 1; k <= 2; k++)
      if (sweep[k]) PQ_BITS_FOREACH(s, &b->line[l], b->words) {
          cols[len] = pq_qn_ilp_square_col(b, s, k);
          coefs[len++] = 1;
        }
    if (sweep[1] && sweep[2]) {
      snprintf(rn, sizeof rn, "line_%s", line);
      pq_lp_add_row(m, rn, PQ_LP_LE, 1, len, cols, coefs);
      PQ_BITS_FOREACH(s, &b->line[l], b->words) { covered[s] = true; }
      continue;
    }
    snprintf(name, sizeof name, "occ_%s", line);
    int occ = pq_lp_add_col(m, name, 1, 0);
    cols[len] = occ;
    coefs[len++] = -1;
    pq_lp_add_row(m, name, PQ_LP_LE, 0, len, cols, coefs);
    int other = sweep[1] ? 2 : 1;
    PQ_BITS_FOREACH(t, &b->line[l], b->words) {
      int pair[2] = {pq_qn_ilp_square_col(b, t, other), occ};
      snprintf(rn, sizeof rn, "%c_r%dc%d_%s", other == 1 ? 'x' : 'y', t / b->width, t % b->width,
               line);
      pq_lp_add_row(m, rn, PQ_LP_LE, 1, 2, pair, one);
      covered[t] = true;
    }
  }
}

/* The pieces without lines: kings' 2x2 blocks as cliques, then one row for every attacked pair
   not already in a clique. */
static void add_pair_rows(pq_lp_model *m, const pq_board *b, const pq_piece kind[3], bool *covered,
                          int *cols, int *coefs) {
  const int one[2] = {1, 1};
  char rn[160];
  for (int k = 1; k <= 2; k++) {
    if (is_line_piece(kind[k])) continue;
    if (kind[k] == PQ_KING && (k == 1 || kind[1] != PQ_KING)) {
      /* Kings of one piece type: every adjacent pair lies in a 2x2 block, a clique. */
      for (int r = 0; r + 1 < b->height; r++)
        for (int c = 0; c + 1 < b->width; c++) {
          int len = 0;
          for (int kk = k; kk <= 2; kk++)
            if (kind[kk] == PQ_KING)
              for (int dr = 0; dr < 2; dr++)
                for (int dc = 0; dc < 2; dc++) {
                  cols[len] = pq_qn_ilp_square_col(b, pq_square(b, r + dr, c + dc), kk);
                  coefs[len++] = 1;
                }
          snprintf(rn, sizeof rn, "kings_r%dc%d", r, c);
          pq_lp_add_row(m, rn, PQ_LP_LE, 1, len, cols, coefs);
          if (len == 8)
            for (int dr = 0; dr < 2; dr++)
              for (int dc = 0; dc < 2; dc++)
                covered[pq_square(b, r + dr, c + dc)] = true;
        }
    }
    for (int s = 0; s < b->squares; s++)
      PQ_BITS_FOREACH(t, &b->attack[kind[k]][s], b->words) {
        for (int k2 = 1; k2 <= 2; k2++) {
          if (kind[k2] == kind[k] && (kind[k] == PQ_KING || (k2 == k ? t < s : k2 < k)))
            continue; /* a king block, or the same pair met from the other side */
          if (swept_between(b, kind[k2], s, t)) continue;
          int pair[2] = {pq_qn_ilp_square_col(b, s, k), pq_qn_ilp_square_col(b, t, k2)};
          snprintf(rn, sizeof rn, "%c_r%dc%d_%c_r%dc%d", k == 1 ? 'x' : 'y', s / b->width,
                   s % b->width, k2 == 1 ? 'x' : 'y', t / b->width, t % b->width);
          pq_lp_add_row(m, rn, PQ_LP_LE, 1, 2, pair, one);
        }
      }
  }
}

pq_lp_model *pq_qn_ilp_model(const pq_board *b, pq_piece first, pq_piece second, int ratio_a,
                             int ratio_b, int target, bool break_symmetry) {
  PQ_REQUIRE(first >= 0 && first < PQ_NPIECES && second >= 0 && second < PQ_NPIECES,
             "bad pieces %d %d", (int)first, (int)second);
  PQ_REQUIRE(ratio_a >= 0 && ratio_b >= 0 && ratio_a + ratio_b >= 1 && target >= 0,
             "ratio %d:%d, target %d", ratio_a, ratio_b, target);
  const pq_piece kind[3] = {0, first, second};
  const int S = b->squares, one[4] = {1, 1, 1, 1};
  char name[96], rn[160];
  snprintf(name, sizeof name, "qn_%c%c_%d_%d_%dx%d_m%d", pq_piece_letters[first],
           pq_piece_letters[second], ratio_a, ratio_b, b->width, b->height, target);
  pq_lp_model *m = pq_lp_new(name);
  for (int k = 1; k <= 2; k++)
    for (int s = 0; s < S; s++) {
      snprintf(name, sizeof name, "%c_r%dc%d", k == 1 ? 'x' : 'y', s / b->width, s % b->width);
      pq_lp_add_col(m, name, 1, 0);
    }
  /* covered[s]: some clique row already holds both x_s and y_s. */
  bool *covered = pq_calloc((size_t)S, sizeof *covered);
  int *cols = pq_malloc((size_t)(2 * S + 1) * sizeof *cols);
  int *coefs = pq_malloc((size_t)(2 * S + 1) * sizeof *coefs);
  add_line_rows(m, b, first, second, covered, cols, coefs);
  add_pair_rows(m, b, kind, covered, cols, coefs);
  for (int s = 0; s < S; s++)
    if (!covered[s]) {
      int same[2] = {pq_qn_ilp_square_col(b, s, 1), pq_qn_ilp_square_col(b, s, 2)};
      snprintf(rn, sizeof rn, "one_r%dc%d", s / b->width, s % b->width);
      pq_lp_add_row(m, rn, PQ_LP_LE, 1, 2, same, one);
    }

  int groups = pq_lp_add_col(m, "m", S / (ratio_a + ratio_b), 1);
  for (int k = 1; k <= 2; k++) {
    int ratio = k == 1 ? ratio_a : ratio_b, len = 0;
    for (int s = 0; s < S; s++)
      cols[len] = pq_qn_ilp_square_col(b, s, k), coefs[len++] = 1;
    if (ratio == 0) continue;
    cols[len] = groups;
    coefs[len++] = -ratio;
    pq_lp_add_row(m, k == 1 ? "count_first" : "count_second", PQ_LP_GE, 0, len, cols, coefs);
  }
  if (target > 0) pq_lp_add_row(m, "target", PQ_LP_GE, target, 1, &groups, one);
  if (break_symmetry) add_symmetry_rows(m, b);
  free(covered);
  free(cols);
  free(coefs);
  return m;
}

/* Whether the witness has the given counts and no piece attacks another. */
static bool peaceful(const pq_board *b, const pq_piece kind[3], const uint8_t *witness,
                     int count_first, int count_second) {
  int count[3] = {0, 0, 0};
  for (int s = 0; s < b->squares; s++) {
    count[witness[s]]++;
    if (!witness[s]) continue;
    PQ_BITS_FOREACH(t, &b->attack[kind[witness[s]]][s], b->words) {
      if (witness[t]) return false;
    }
  }
  return count[1] == count_first && count[2] == count_second;
}

pq_status pq_qn_ilp_decide(const pq_board *b, pq_piece first, pq_piece second, int ratio_a,
                           int ratio_b, int m, const pq_lp_params *limits, bool *found,
                           uint8_t *witness) {
  pq_lp_model *model = pq_qn_ilp_model(b, first, second, ratio_a, ratio_b, m, true);
  int *x = pq_malloc((size_t)pq_lp_cols(model) * sizeof *x);
  pq_lp_params p = pq_lp_limits(limits);
  p.first_solution = true;
  pq_status rc = pq_lp_solve(model, NULL, &p, found, x, NULL);
  if (rc == PQ_OK && *found) {
    /* The counts are ">=": keep the first pieces of each kind found. */
    int left[3] = {0, m * ratio_a, m * ratio_b};
    for (int s = 0; s < b->squares; s++) {
      witness[s] = 0;
      for (int k = 1; k <= 2; k++)
        if (x[pq_qn_ilp_square_col(b, s, k)] && left[k] > 0) {
          witness[s] = (uint8_t)k;
          left[k]--;
        }
    }
    const pq_piece kind[3] = {0, first, second};
    PQ_REQUIRE(peaceful(b, kind, witness, m * ratio_a, m * ratio_b),
               "GLPK's solution of the qn model is not a peaceful placement");
  }
  free(x);
  pq_lp_free(model);
  return rc;
}
