/* test_lp.c: GLPK models against brute force, integer bound certificates, LP/MPS files. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../problems/armies/armies_ilp.h"
#include "../problems/qn/qn_ilp.h"
#include "../src/lp/lp.h"
#include "tap.h"

/* ---- brute force, by geometry only (pq_attacks_plain), never the attack tables ---- */

typedef struct armies_brute {
  int squares;
  uint32_t attacks[32]; /* attacks[s]: the squares a piece on s attacks */
  int most_white;
  int *best;
} armies_brute;

static void armies_visit(armies_brute *st, uint32_t taken, int white, int from) {
  int free_squares = st->squares - __builtin_popcount(taken);
  if (free_squares > st->best[white]) st->best[white] = free_squares;
  if (white == st->most_white) return;
  for (int s = from; s < st->squares; s++)
    armies_visit(st, taken | 1u << s | st->attacks[s], white + 1, s + 1);
}

/* best[w] for w <= most_white: the most black pieces beside w white ones, over every set of w
   white squares (black pieces may stand on any square neither white nor attacked). */
static void armies_brute_force(const pq_board *b, pq_piece piece, int most_white, int *best) {
  armies_brute st = {b->squares, {0}, most_white, best};
  for (int s = 0; s < b->squares; s++)
    for (int t = 0; t < b->squares; t++)
      if (pq_attacks_plain(b, piece, s, t)) st.attacks[s] |= 1u << t;
  for (int w = 0; w <= b->squares; w++)
    best[w] = -1;
  armies_visit(&st, 0, 0, 0);
}

/* Whether witness holds exactly white white and black black pieces, none attacking the other
   colour. */
static bool armies_witness_ok(const pq_board *b, pq_piece piece, const uint8_t *witness, int white,
                              int black) {
  int count[3] = {0, 0, 0};
  for (int s = 0; s < b->squares; s++) {
    if (witness[s] > 2) return false;
    count[witness[s]]++;
    for (int t = 0; t < b->squares; t++)
      if (witness[s] && witness[t] && witness[s] != witness[t] && pq_attacks_plain(b, piece, s, t))
        return false;
  }
  return count[1] == white && count[2] == black;
}

static bool conflict(const pq_board *b, pq_piece p, int s, pq_piece q, int t) {
  return pq_attacks_plain(b, p, s, t) || pq_attacks_plain(b, q, t, s);
}

/* have plus the most pieces of kind q on the squares of avail (a bitmask) with none attacking
   another, capped at cap (all the caller needs to know). */
static int most_independent(const pq_board *b, pq_piece q, uint32_t avail, int cap, int have) {
  if (have >= cap) return cap;
  if (!avail) return have;
  int v = __builtin_ctz(avail);
  uint32_t rest = avail & ~(1u << v), apart = rest;
  for (int t = 0; t < b->squares; t++)
    if ((rest >> t & 1) && conflict(b, q, v, q, t)) apart &= ~(1u << t);
  int with = most_independent(b, q, apart, cap, have + 1);
  if (with >= cap || have + __builtin_popcount(rest) <= with) return with;
  int without = most_independent(b, q, rest, cap, have);
  return with > without ? with : without;
}

typedef struct qn_brute {
  const pq_board *b;
  pq_piece p, q;
  int ra, rb, best;
} qn_brute;

/* Visits every peaceful set of first-kind pieces (squares from `from` on) and keeps the largest
   m with ra*m of them and rb*m second-kind pieces beside them. */
static void qn_visit(qn_brute *st, uint32_t first, int count, int from) {
  const pq_board *b = st->b;
  int by_first = st->ra ? count / st->ra : b->squares;
  if (by_first > st->best) {
    uint32_t avail = 0;
    for (int t = 0; t < b->squares; t++) {
      bool ok = !(first >> t & 1);
      for (int s = 0; s < b->squares && ok; s++)
        ok = !((first >> s & 1) && conflict(b, st->p, s, st->q, t));
      if (ok) avail |= 1u << t;
    }
    int n = st->rb ? most_independent(b, st->q, avail, by_first * st->rb, 0) : 0;
    int m = st->rb ? n / st->rb : by_first;
    if (m > by_first) m = by_first;
    if (m > st->best) st->best = m;
  }
  for (int s = from; s < b->squares; s++) {
    bool ok = true;
    for (int t = 0; t < b->squares && ok; t++)
      ok = !((first >> t & 1) && conflict(b, st->p, s, st->p, t));
    if (ok) qn_visit(st, first | 1u << s, count + 1, s + 1);
  }
}

static int qn_brute_max(const pq_board *b, pq_piece p, pq_piece q, int ra, int rb) {
  qn_brute st = {b, p, q, ra, rb, 0};
  qn_visit(&st, 0, 0, 0);
  return st.best;
}

static bool qn_witness_ok(const pq_board *b, pq_piece p, pq_piece q, const uint8_t *witness,
                          int count_first, int count_second) {
  int count[3] = {0, 0, 0};
  pq_piece kind[3] = {0, p, q};
  for (int s = 0; s < b->squares; s++) {
    if (witness[s] > 2) return false;
    count[witness[s]]++;
    for (int t = 0; t < b->squares; t++)
      if (witness[s] && witness[t] && pq_attacks_plain(b, kind[witness[s]], s, t)) return false;
  }
  return count[1] == count_first && count[2] == count_second;
}

/* ---- armies ---- */

/* Decides a few (white, black) pairs on every board up to 4x4 and some rectangles. */
static void test_armies_small(void) {
  static const int sizes[][2] = {{1, 1}, {1, 2}, {1, 3}, {1, 4}, {2, 1}, {2, 2}, {2, 3},
                                 {2, 4}, {3, 1}, {3, 2}, {3, 3}, {3, 4}, {4, 1}, {4, 2},
                                 {4, 3}, {4, 4}, {2, 5}, {5, 2}, {3, 5}, {5, 3}};
  static const pq_piece pieces[] = {PQ_QUEEN, PQ_KING, PQ_KNIGHT, PQ_ROOK, PQ_BISHOP};
  int wrong = 0, bad_witness = 0, decided = 0, failed = 0;
  char first_wrong[160] = "";
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    pq_board *b = pq_board_new(sizes[i][0], sizes[i][1]);
    int S = b->squares, best[PQ_MAX_SQUARES + 1];
    uint8_t witness[PQ_MAX_SQUARES];
    for (size_t p = 0; p < sizeof pieces / sizeof *pieces; p++) {
      if ((pieces[p] == PQ_ROOK || pieces[p] == PQ_BISHOP) && b->width != b->height) continue;
      armies_brute_force(b, pieces[p], S, best);
      int k = 0; /* the largest equal armies */
      while (k + 1 <= S && best[k + 1] >= k + 1)
        k++;
      int pairs[6][2] = {{k, k},           {k + 1, k + 1},           {1, best[1]},
                         {1, best[1] + 1}, {S / 2, best[S / 2] + 1}, {k, best[k] + 1}};
      for (int j = 0; j < 6; j++) {
        int w = pairs[j][0], bl = pairs[j][1];
        if (w > S || bl > S || bl < 0) continue;
        bool truth = best[w] >= bl, found = false;
        pq_status rc = pq_armies_ilp_decide(b, pieces[p], w, bl, NULL, &found, witness);
        decided++;
        if (rc != PQ_OK) {
          failed++;
          continue;
        }
        if (found != truth && !wrong++)
          snprintf(first_wrong, sizeof first_wrong, "%dx%d %c white %d black %d: ILP %d, truth %d",
                   b->width, b->height, pq_piece_letters[pieces[p]], w, bl, found, truth);
        if (found && !armies_witness_ok(b, pieces[p], witness, w, bl)) bad_witness++;
      }
    }
    pq_board_free(b);
  }
  tap_ok(failed == 0, "armies ILP: all %d decisions concluded (%d did not)", decided, failed);
  tap_ok(wrong == 0, "armies ILP agrees with brute force on %d decisions (%d differ) %s", decided,
         wrong, first_wrong);
  tap_ok(bad_witness == 0, "armies ILP witnesses are peaceful with the right counts (%d bad)",
         bad_witness);
}

/* The largest equal armies of queens (OEIS A250000) for n = 1..6 by ILP alone. */
static void test_queen_armies(void) {
  static const int known[] = {0, 0, 1, 2, 4, 5};
  for (int n = 1; n <= 6; n++) {
    pq_board *b = pq_board_new(n, n);
    uint8_t witness[PQ_MAX_SQUARES];
    int k = 0;
    bool found = true;
    pq_status rc = PQ_OK;
    while (rc == PQ_OK && found && k < b->squares) {
      rc = pq_armies_ilp_decide(b, PQ_QUEEN, k + 1, k + 1, NULL, &found, witness);
      if (rc == PQ_OK && found) k++;
    }
    tap_ok(rc == PQ_OK && k == known[n - 1], "queen armies on %dx%d by ILP: %d (A250000: %d)", n, n,
           k, known[n - 1]);
    pq_board_free(b);
  }
}

/* ---- qn ---- */

static void test_qn_small(void) {
  typedef struct qn_case {
    int w, h;
    pq_piece p, q;
    int ra, rb;
  } qn_case;
  qn_case cases[64];
  int n = 0;
  for (int w = 1; w <= 5; w++)
    for (int h = 1; h <= 5; h++)
      if (w == h || (w + h) % 3 == 0) cases[n++] = (qn_case){w, h, PQ_QUEEN, PQ_KNIGHT, 1, 1};
  cases[n++] = (qn_case){5, 5, PQ_QUEEN, PQ_KNIGHT, 1, 2};
  cases[n++] = (qn_case){4, 5, PQ_QUEEN, PQ_KNIGHT, 2, 1};
  cases[n++] = (qn_case){4, 4, PQ_KING, PQ_KNIGHT, 1, 1};
  cases[n++] = (qn_case){3, 4, PQ_KING, PQ_KING, 1, 1};
  cases[n++] = (qn_case){4, 4, PQ_KNIGHT, PQ_KNIGHT, 1, 1};
  cases[n++] = (qn_case){4, 4, PQ_ROOK, PQ_BISHOP, 1, 1};
  cases[n++] = (qn_case){4, 4, PQ_QUEEN, PQ_ROOK, 1, 1};
  cases[n++] = (qn_case){4, 3, PQ_KING, PQ_ROOK, 1, 1};
  cases[n++] = (qn_case){4, 4, PQ_BISHOP, PQ_KING, 1, 1};
  cases[n++] = (qn_case){4, 4, PQ_BISHOP, PQ_KNIGHT, 1, 2};
  for (int i = 0; i < n; i++) {
    qn_case c = cases[i];
    pq_board *b = pq_board_new(c.w, c.h);
    uint8_t witness[PQ_MAX_SQUARES];
    int truth = qn_brute_max(b, c.p, c.q, c.ra, c.rb);
    bool at_max = false, above = true;
    pq_status rc1 = pq_qn_ilp_decide(b, c.p, c.q, c.ra, c.rb, truth, NULL, &at_max, witness);
    bool witness_ok =
        rc1 == PQ_OK && at_max && qn_witness_ok(b, c.p, c.q, witness, truth * c.ra, truth * c.rb);
    pq_status rc2 = pq_qn_ilp_decide(b, c.p, c.q, c.ra, c.rb, truth + 1, NULL, &above, witness);
    tap_ok(witness_ok && rc2 == PQ_OK && !above,
           "qn ILP %c%c %d:%d on %dx%d: m = %d found with a valid witness, m = %d not found",
           pq_piece_letters[c.p], pq_piece_letters[c.q], c.ra, c.rb, c.w, c.h, truth, truth + 1);
    pq_board_free(b);
  }
}

/* ---- certificates ---- */

/* The triangle x1+x2, x2+x3, x1+x3 <= 1: LP optimum 3/2, so bound 1 with scale 2. */
static void test_cert_hand(void) {
  pq_lp_model *m = pq_lp_new("triangle");
  for (int j = 0; j < 3; j++) {
    char name[8];
    snprintf(name, sizeof name, "x%d", j + 1);
    pq_lp_add_col(m, name, 1, 1);
  }
  int ones[2] = {1, 1}, e12[2] = {0, 1}, e23[2] = {1, 2}, e13[2] = {0, 2};
  pq_lp_add_row(m, "a", PQ_LP_LE, 1, 2, e12, ones);
  pq_lp_add_row(m, "b", PQ_LP_LE, 1, 2, e23, ones);
  pq_lp_add_row(m, "c", PQ_LP_LE, 1, 2, e13, ones);
  pq_lp_cert c;
  pq_lp_cert_init(&c, m);
  int64_t bound = -1, checked = -1;
  pq_status rc = pq_lp_bound(m, NULL, &c, &bound);
  pq_status check;
  tap_ok(rc == PQ_OK && bound == 1 && c.scale == 2 && c.y[0] == 1 && c.y[1] == 1 && c.y[2] == 1,
         "triangle: bound %lld with scale %lld and multipliers %lld %lld %lld (want 1, 2, 1 1 1)",
         (long long)bound, (long long)c.scale, (long long)c.y[0], (long long)c.y[1],
         (long long)c.y[2]);
  check = pq_lp_check_bound(m, NULL, &c, &checked, NULL, 0);
  tap_ok(check == PQ_OK && checked == 1, "triangle: the certificate checks (bound %lld)",
         (long long)checked);
  c.y[2] = 0;
  char why[200] = "";
  tap_ok(pq_lp_check_bound(m, NULL, &c, &checked, why, sizeof why) == PQ_EFALSE,
         "triangle: a dropped multiplier is rejected: %s", why);
  c.y[2] = -1;
  c.z[0] = c.z[1] = c.z[2] = 5;
  tap_ok(pq_lp_check_bound(m, NULL, &c, &checked, why, sizeof why) == PQ_EFALSE,
         "triangle: a negative multiplier of a <= row is rejected: %s", why);
  c.y[2] = 1;
  c.scale = 0;
  tap_ok(pq_lp_check_bound(m, NULL, &c, &checked, why, sizeof why) == PQ_EFALSE,
         "triangle: scale 0 is rejected: %s", why);
  pq_lp_cert_free(&c);

  /* >= and = rows, fixed columns: max x1 + 2 x2, x1 + x2 = 1, x1 - x2 >= 0. LP 3/2, ILP 1. */
  pq_lp_model *g = pq_lp_new("signs");
  pq_lp_add_col(g, "x1", 1, 1);
  pq_lp_add_col(g, "x2", 1, 2);
  int both[2] = {0, 1}, plus[2] = {1, 1}, minus[2] = {1, -1};
  pq_lp_add_row(g, "sum", PQ_LP_EQ, 1, 2, both, plus);
  pq_lp_add_row(g, "order", PQ_LP_GE, 0, 2, both, minus);
  pq_lp_cert_init(&c, g);
  rc = pq_lp_bound(g, NULL, &c, &bound);
  tap_ok(rc == PQ_OK && bound == 1 && pq_lp_check_bound(g, NULL, &c, &checked, NULL, 0) == PQ_OK,
         "= and >= rows: bound %lld (want 1), y = %lld %lld, scale %lld", (long long)bound,
         (long long)c.y[0], (long long)c.y[1], (long long)c.scale);
  int fix_one[2] = {1, -1}, fix_bad[2] = {0, 1};
  rc = pq_lp_bound(g, fix_one, &c, &bound);
  tap_ok(rc == PQ_OK && bound == 1 &&
             pq_lp_check_bound(g, fix_one, &c, &checked, NULL, 0) == PQ_OK && checked == 1,
         "x1 fixed to 1: bound %lld (want 1)", (long long)bound);
  rc = pq_lp_bound(g, fix_bad, &c, &bound);
  check = pq_lp_check_bound(g, fix_bad, &c, &checked, NULL, 0);
  tap_ok(rc == PQ_OK && bound < 2 && check == PQ_OK && checked == bound,
         "x1 = 0, x2 = 1 violates x1 >= x2: Farkas bound %lld below the only value 2",
         (long long)bound);
  tap_ok(pq_lp_check_bound(g, NULL, &c, &checked, why, sizeof why) == PQ_EFALSE || checked >= 1,
         "that certificate without the fixes proves nothing false: %s", why);
  pq_lp_cert_free(&c);
  pq_lp_free(g);
  pq_lp_free(m);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rng(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* Certificates of the armies and qn models, with cubes fixing columns, against the integer
   optimum; random single mutations must be rejected or still bound the optimum. */
static void test_cert_models(void) {
  pq_board *b = pq_board_new(5, 5);
  int best[PQ_MAX_SQUARES + 1];
  armies_brute_force(b, PQ_QUEEN, 4, best);
  pq_lp_model *m = pq_armies_ilp_model(b, PQ_QUEEN, 4, 0, false);
  pq_lp_cert c;
  pq_lp_cert_init(&c, m);
  int64_t bound = 0, checked = 0;
  pq_status rc = pq_lp_bound(m, NULL, &c, &bound);
  tap_ok(rc == PQ_OK && bound >= best[4] &&
             pq_lp_check_bound(m, NULL, &c, &checked, NULL, 0) == PQ_OK && checked == bound,
         "queen armies 5x5, 4 white: LP bound %lld on black (true maximum %d)", (long long)bound,
         best[4]);

  /* Cubes: random line columns fixed; every bound must be at least the cube's optimum. */
  int cols = pq_lp_cols(m), L = pq_armies_ilp_lines(b, PQ_QUEEN), cubes = 0, bad = 0, tight = 0;
  int *fix = malloc((size_t)cols * sizeof *fix);
  for (int trial = 0; trial < 24; trial++) {
    for (int j = 0; j < cols; j++)
      fix[j] = -1;
    for (int l = 0; l < L; l++)
      if (rng() % 3 == 0) fix[l] = (int)(rng() % 2);
    if (trial % 4 == 0) fix[pq_armies_ilp_square_col(b, PQ_QUEEN, (int)(rng() % 25), 1)] = 1;
    bool found = false;
    int64_t opt = -1;
    if (pq_lp_solve(m, fix, NULL, &found, NULL, &opt) != PQ_OK ||
        pq_lp_bound(m, fix, &c, &bound) != PQ_OK ||
        pq_lp_check_bound(m, fix, &c, &checked, NULL, 0) != PQ_OK || checked != bound ||
        (found && bound < opt)) {
      bad++;
      continue;
    }
    cubes++;
    tight += found ? bound == opt : bound < 0;
  }
  tap_ok(bad == 0 && cubes == 24,
         "24 cubes of the armies model: every certificate checks and bounds the cube's optimum "
         "(%d bad; %d tight)",
         bad, tight);

  /* All lines unused: no white piece fits, so the LP is infeasible and the bound below 0. */
  for (int j = 0; j < cols; j++)
    fix[j] = j < L ? 0 : -1;
  rc = pq_lp_bound(m, fix, &c, &bound);
  tap_ok(rc == PQ_OK && bound < 0 && pq_lp_check_bound(m, fix, &c, &checked, NULL, 0) == PQ_OK,
         "every line unused: infeasible, Farkas certificate with bound %lld < 0", (long long)bound);

  /* Mutations of the root certificate: each is rejected or still a true bound (>= the integer
     optimum, best[4]). */
  pq_lp_bound(m, NULL, &c, &bound);
  int rejected = 0, harmless = 0, unsound = 0;
  for (int trial = 0; trial < 200; trial++) {
    pq_lp_cert t = c;
    t.y = malloc(((size_t)c.rows + 1) * sizeof *t.y);
    t.z = malloc(((size_t)c.cols + 1) * sizeof *t.z);
    memcpy(t.y, c.y, (size_t)c.rows * sizeof *t.y);
    memcpy(t.z, c.z, (size_t)c.cols * sizeof *t.z);
    int64_t delta = (int64_t)(rng() % 5) - 2;
    if (!delta) delta = -1;
    switch (rng() % 4) {
    case 0: {
      int i = (int)(rng() % (uint64_t)c.rows);
      for (int tries = 0; tries < 50 && !c.y[i]; tries++)
        i = (int)(rng() % (uint64_t)c.rows);
      t.y[i] += delta;
      break;
    }
    case 1: t.y[rng() % (uint64_t)c.rows] += delta; break;
    case 2: t.z[rng() % (uint64_t)c.cols] += delta; break;
    default: t.scale += delta; break;
    }
    int64_t got = 0;
    if (pq_lp_check_bound(m, NULL, &t, &got, NULL, 0) != PQ_OK)
      rejected++;
    else if (got >= best[4])
      harmless++;
    else
      unsound++;
    free(t.y);
    free(t.z);
  }
  tap_ok(unsound == 0 && rejected > 0,
         "200 mutated certificates: %d rejected, %d still true bounds, %d unsound", rejected,
         harmless, unsound);
  pq_lp_cert t = c;
  t.rows--;
  tap_ok(pq_lp_check_bound(m, NULL, &t, &checked, NULL, 0) == PQ_EFALSE,
         "a certificate of the wrong size is rejected");
  pq_lp_cert_free(&c);
  free(fix);
  pq_lp_free(m);

  /* qn: the bound on m is at least the true maximum. */
  int truth = qn_brute_max(b, PQ_QUEEN, PQ_KNIGHT, 1, 1);
  pq_lp_model *q = pq_qn_ilp_model(b, PQ_QUEEN, PQ_KNIGHT, 1, 1, 0, false);
  pq_lp_cert_init(&c, q);
  rc = pq_lp_bound(q, NULL, &c, &bound);
  tap_ok(rc == PQ_OK && bound >= truth &&
             pq_lp_check_bound(q, NULL, &c, &checked, NULL, 0) == PQ_OK && checked == bound,
         "qn 5x5: LP bound %lld on m (true maximum %d)", (long long)bound, truth);
  pq_lp_cert_free(&c);
  pq_lp_free(q);
  pq_board_free(b);
}

/* ---- files, limits ---- */

static void test_files(void) {
  pq_board *b = pq_board_new(4, 4);
  pq_lp_model *m = pq_armies_ilp_model(b, PQ_QUEEN, 2, 0, false);
  char lp[] = "/tmp/test_lp_XXXXXX";
  int fd = mkstemp(lp);
  if (fd >= 0) close(fd);
  int cols = pq_lp_cols(m);
  int *fix = malloc((size_t)cols * sizeof *fix);
  for (int j = 0; j < cols; j++)
    fix[j] = -1;
  fix[0] = 1;
  fix[1] = 0;
  for (int fixed = 0; fixed < 2; fixed++)
    for (int format = 0; format < 2; format++) {
      const char *what = format == PQ_LP_CPLEX ? "CPLEX LP" : "MPS";
      const int *f = fixed ? fix : NULL;
      pq_lp_model *back = NULL;
      pq_status w = pq_lp_write(m, f, (pq_lp_format)format, lp);
      pq_status r = w == PQ_OK ? pq_lp_read(lp, (pq_lp_format)format, &back) : w;
      bool same = r == PQ_OK && pq_lp_cols(back) == cols &&
                  pq_lp_rows(back) == pq_lp_rows(m) + (fixed ? 1 : 0);
      /* An LP file lists columns in order of first use: compare them by name. */
      for (int j = 0; same && j < cols; j++) {
        int k = pq_lp_find_col(back, pq_lp_col_name(m, j));
        same = k >= 0 && pq_lp_col_upper(back, k) == (fixed && fix[j] == 0 ? 0 : 1);
      }
      bool found1 = false, found2 = false;
      int64_t opt1 = -1, opt2 = -2;
      if (same) {
        pq_lp_solve(m, f, NULL, &found1, NULL, &opt1);
        pq_lp_solve(back, NULL, NULL, &found2, NULL, &opt2);
      }
      tap_ok(same && found1 == found2 && (!found1 || opt1 == opt2),
             "%s export%s reads back with the same columns and optimum (%lld, %lld)", what,
             fixed ? " with fixed columns" : "", (long long)opt1, (long long)opt2);
      pq_lp_free(back);
    }
  FILE *f = fopen(lp, "w");
  if (f) {
    fputs("this is not a model\n", f);
    fclose(f);
  }
  pq_lp_model *none = NULL;
  fprintf(stderr, "(expected messages follow)\n");
  tap_ok(pq_lp_read(lp, PQ_LP_CPLEX, &none) == PQ_EIO && !none, "a garbage LP file is refused");
  tap_ok(pq_lp_write(m, NULL, PQ_LP_MPS, "/nonexistent-dir/x.mps") == PQ_EIO,
         "an unwritable path gives PQ_EIO");
  remove(lp);
  free(fix);
  pq_lp_free(m);
  pq_board_free(b);
}

/* GLPK keeps its state per thread: two solves at once must not disturb each other. */
typedef struct solve_task {
  const pq_board *b;
  int k;
  pq_status rc;
  bool found;
  uint8_t witness[PQ_MAX_SQUARES];
} solve_task;

static void *solve_in_thread(void *arg) {
  solve_task *task = arg;
  task->rc =
      pq_armies_ilp_decide(task->b, PQ_QUEEN, task->k, task->k, NULL, &task->found, task->witness);
  return NULL;
}

static void test_threads(void) {
  pq_board *b = pq_board_new(6, 6);
  solve_task tasks[2] = {{b, 5, PQ_ELIMIT, false, {0}}, {b, 6, PQ_ELIMIT, true, {0}}};
  pthread_t thread;
  bool started = pthread_create(&thread, NULL, solve_in_thread, &tasks[0]) == 0;
  solve_in_thread(&tasks[1]);
  if (started) pthread_join(thread, NULL);
  tap_ok(started && tasks[0].rc == PQ_OK && tasks[0].found &&
             armies_witness_ok(b, PQ_QUEEN, tasks[0].witness, 5, 5) && tasks[1].rc == PQ_OK &&
             !tasks[1].found,
         "two threads solving at once: 6x6 armies of 5 found, of 6 refuted");
  pq_board_free(b);
}

static void test_limits(void) {
  pq_board *b = pq_board_new(8, 8);
  pq_lp_model *m = pq_armies_ilp_model(b, PQ_QUEEN, 10, 10, false);
  volatile int cancel = 1;
  pq_lp_params p;
  pq_lp_params_init(&p);
  p.cancel = &cancel;
  bool found = true;
  double t0 = pq_now();
  pq_status rc = pq_lp_solve(m, NULL, &p, &found, NULL, NULL);
  tap_ok(rc == PQ_ELIMIT && !found, "a set cancel flag stops the solve (status %d, %.2f s)",
         (int)rc, pq_now() - t0);
  pq_lp_params_init(&p);
  p.time_limit = 0.2;
  t0 = pq_now();
  rc = pq_lp_solve(m, NULL, &p, &found, NULL, NULL);
  double took = pq_now() - t0;
  tap_ok(rc == PQ_ELIMIT && !found && took < 5, "a 0.2 s time limit stops the solve (%.2f s)",
         took);
  pq_lp_free(m);
  pq_board_free(b);
}

int main(void) {
  test_cert_hand();
  test_cert_models();
  test_armies_small();
  test_queen_armies();
  test_qn_small();
  test_files();
  test_threads();
  test_limits();
  return tap_done();
}
