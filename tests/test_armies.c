/* test_armies.c: the armies search against published values (OEIS A250000, A260680) and a brute
   force on small boards, for every piece and rectangular boards. */
#include <stdlib.h>
#include <string.h>

#include "../problems/armies/armies.h"
#include "../src/core/sym.h"
#include "tap.h"

/* Whether `white` white and `black` black fit, by the search. */
static bool fits(const pq_board *b, pq_piece p, int white, int black, bool symmetry, int jobs) {
  pq_armies *a = pq_armies_new(b, p);
  pq_armies_params params;
  pq_armies_params_init(&params);
  params.symmetry = symmetry;
  params.jobs = jobs;
  pq_armies_decision d;
  pq_status rc = pq_armies_decide(a, white, black, &params, &d);
  bool ok = rc == PQ_OK && d.found;
  if (ok) {
    /* The witness has the sizes asked for and is peaceable. */
    int nw = 0, nb = 0;
    for (int s = 0; s < b->squares; s++) {
      nw += d.witness[s] == 1;
      nb += d.witness[s] == 2;
      for (int t = 0; t < b->squares; t++)
        if (d.witness[s] == 1 && d.witness[t] == 2 && pq_attacks_plain(b, p, s, t)) ok = false;
    }
    ok = ok && nw == white && nb == black;
    PQ_REQUIRE(ok, "bad witness");
  }
  pq_armies_decision_clear(&d);
  pq_armies_free(a);
  return ok;
}

static int maximum(const pq_board *b, pq_piece p, bool symmetry, int jobs) {
  int k = 0;
  while (fits(b, p, k + 1, k + 1, symmetry, jobs))
    k++;
  return k;
}

/* Brute force: counts pairs (white set, black set) of the sizes with no attack across colours,
   by trying every square for every piece. */
static long brute(const pq_board *b, pq_piece p, uint8_t *cells, int from, int white, int black) {
  if (!white && !black) return 1;
  int colour = white ? 1 : 2;
  long total = 0;
  for (int s = from; s < b->squares; s++) {
    if (cells[s]) continue;
    bool ok = true;
    for (int t = 0; t < b->squares && ok; t++)
      if (cells[t] && cells[t] != colour &&
          (pq_attacks_plain(b, p, s, t) || pq_attacks_plain(b, p, t, s)))
        ok = false;
    if (!ok) continue;
    cells[s] = (uint8_t)colour;
    total += white ? brute(b, p, cells, white > 1 ? s + 1 : 0, white - 1, black)
                   : brute(b, p, cells, s + 1, 0, black - 1);
    cells[s] = 0;
  }
  return total;
}

typedef struct classes {
  const pq_board *b;
  pq_count fixed, fixed_colour, visited;
} classes;

static int on_placement(void *arg, const uint8_t *cells, int weight) {
  classes *c = arg;
  static const uint8_t swap[3] = {0, 2, 1};
  uint8_t canon[PQ_MAX_SQUARES];
  c->fixed += (pq_count)pq_sym_canonical(c->b, cells, NULL, canon) * (pq_count)weight;
  c->fixed_colour += (pq_count)pq_sym_canonical(c->b, cells, swap, canon) * (pq_count)weight;
  c->visited += (pq_count)weight;
  return 0;
}

static pq_count count_sym(const pq_board *b, pq_piece p, int white, int black, classes *c,
                          bool symmetry) {
  pq_armies *a = pq_armies_new(b, p);
  pq_armies_params params;
  pq_armies_params_init(&params);
  params.symmetry = symmetry;
  pq_count n = 0;
  pq_status rc = pq_armies_count(a, white, black, &params, c ? on_placement : NULL, c, &n);
  pq_armies_free(a);
  PQ_REQUIRE(rc == PQ_OK, "count failed");
  return n;
}

static pq_count count(const pq_board *b, pq_piece p, int white, int black, classes *c) {
  return count_sym(b, p, white, black, c, true);
}

/* Kings and knights, independently of the search: over every set X of squares (a bitmask, the
   board at most 24 squares), how many have |X| = w and exactly f squares outside N[X]
   (X and what it attacks): by_free[w][f]. A count of w against b is then the sum over f of
   by_free[w][f] C(f, b). */
static void by_neighbourhood(const pq_board *b, pq_piece p, long by_free[25][25]) {
  int n = b->squares;
  uint32_t near[24];
  for (int s = 0; s < n; s++) {
    near[s] = (uint32_t)1 << s;
    for (int t = 0; t < n; t++)
      if (pq_attacks_plain(b, p, s, t)) near[s] |= (uint32_t)1 << t;
  }
  uint32_t *covered = calloc((size_t)1 << n, sizeof *covered);
  PQ_REQUIRE(covered, "out of memory");
  memset(by_free, 0, 25 * sizeof *by_free);
  for (uint32_t x = 0; x < (uint32_t)1 << n; x++) {
    if (x) covered[x] = covered[x & (x - 1)] | near[__builtin_ctz(x)];
    by_free[__builtin_popcount(x)][n - __builtin_popcount(covered[x])]++;
  }
  free(covered);
}

static long binomial(int n, int r) {
  long c = 1;
  for (int i = 0; i < r; i++)
    c = c * (n - i) / (i + 1);
  return r <= n ? c : 0;
}

int main(void) {
  /* OEIS A250000: maximum equal armies of queens on n x n, n = 1..9. */
  static const int a250000[] = {0, 0, 0, 1, 2, 4, 5, 7, 9, 12};
  for (int n = 1; n <= 9; n++) {
    pq_board *b = pq_board_new(n, n);
    int m = maximum(b, PQ_QUEEN, true, n >= 8 ? 2 : 1);
    tap_ok(m == a250000[n], "A250000(%d) = %d (found %d)", n, a250000[n], m);
    if (n <= 7) {
      int plain = maximum(b, PQ_QUEEN, false, 1);
      tap_ok(plain == m, "%dx%d: the search without symmetry breaking agrees (%d)", n, n, plain);
    }
    pq_board_free(b);
  }
  /* OEIS A260680: optimal placements up to rotations, reflections and colour exchange. */
  static const int a260680[] = {0, 1, 1, 1, 10, 3, 35, 19, 71};
  for (int n = 1; n <= 8; n++) {
    pq_board *b = pq_board_new(n, n);
    classes c = {.b = b};
    pq_count total = count(b, PQ_QUEEN, a250000[n], a250000[n], &c);
    pq_count unique_colour = c.fixed_colour / 16;
    tap_ok(unique_colour == (pq_count)a260680[n] && c.fixed_colour % 16 == 0 && c.fixed % 8 == 0 &&
               c.visited == total,
           "A260680(%d) = %d (found %d; Burnside sums divide evenly)", n, a260680[n],
           (int)unique_colour);
    pq_board_free(b);
  }
  /* Every piece, square and rectangular boards: counts against a brute force. */
  int dims[][2] = {{3, 3}, {4, 3}, {3, 4}, {2, 5}, {4, 4}, {5, 2}};
  for (int p = 0; p < PQ_NPIECES; p++)
    for (int d = 0; d < 6; d++) {
      pq_board *b = pq_board_new(dims[d][0], dims[d][1]);
      int bad = 0, cases = 0;
      for (int w = 0; w <= 3; w++)
        for (int k = 0; k <= 3; k++) {
          if (w + k > b->squares) continue;
          uint8_t cells[PQ_MAX_SQUARES] = {0};
          long want = brute(b, (pq_piece)p, cells, 0, w, k);
          bad += count(b, (pq_piece)p, w, k, NULL) != (pq_count)want;
          bad += count_sym(b, (pq_piece)p, w, k, NULL, false) != (pq_count)want;
          bad += fits(b, (pq_piece)p, w, k, true, 1) != (want > 0);
          bad += fits(b, (pq_piece)p, w, k, false, 1) != (want > 0);
          cases++;
        }
      tap_ok(bad == 0, "%c on %dx%d: %d size pairs agree with a brute force (count and decide)",
             pq_piece_letters[p], b->width, b->height, cases);
      pq_board_free(b);
    }
  /* Counting with the symmetry split agrees with counting every placement, Burnside sums too. */
  for (int n = 4; n <= 7; n++) {
    pq_board *b = pq_board_new(n, n);
    classes with = {.b = b}, without = {.b = b};
    pq_count x = count_sym(b, PQ_QUEEN, a250000[n] - 1, a250000[n] - 1, &with, true);
    pq_count y = count_sym(b, PQ_QUEEN, a250000[n] - 1, a250000[n] - 1, &without, false);
    tap_ok(x == y && with.fixed == without.fixed && with.fixed_colour == without.fixed_colour,
           "%dx%d, one below the maximum: counts with and without symmetry agree", n, n);
    pq_board_free(b);
  }
  /* Counting up to symmetry on a rectangle: classes times orbit sizes give the total. */
  pq_board *r = pq_board_new(5, 3);
  classes c = {.b = r};
  pq_count total = count(r, PQ_QUEEN, 2, 2, &c);
  tap_ok(total > 0 && c.fixed % 4 == 0 && c.fixed_colour % 8 == 0,
         "5x3 queens 2 against 2: Burnside sums divide by the group orders");
  pq_board_free(r);
  /* Kings and knights on boards of up to 24 squares: the counts of w against b for |w - b| <= 1,
     and b = 0 with w <= 3 (the Russian-doll search, counted, and visited up to 20,000 placements)
     against the sum over every white set, and the classes' Burnside sums of equal armies divide
     evenly. */
  int kn_dims[][2] = {{4, 4}, {3, 5}, {5, 3}, {4, 5}, {5, 4}, {3, 7}, {7, 3}, {4, 6}, {6, 4}};
  static long by_free[25][25];
  for (int p = 0; p < PQ_NPIECES; p++) {
    if (p != PQ_KING && p != PQ_KNIGHT) continue;
    for (size_t d = 0; d < sizeof kn_dims / sizeof *kn_dims; d++) {
      pq_board *b = pq_board_new(kn_dims[d][0], kn_dims[d][1]);
      by_neighbourhood(b, (pq_piece)p, by_free);
      int bad = 0, cases = 0, placements = 0;
      for (int w = 0; w <= b->squares; w++)
        for (int k = 0; w + k <= b->squares; k++) {
          if (k ? abs(w - k) > 1 : w > 3) continue;
          long want = 0;
          for (int f = k; f <= b->squares; f++)
            want += by_free[w][f] * binomial(f, k);
          classes seen = {.b = b};
          bool visit = want <= 20000;
          pq_count got = count(b, (pq_piece)p, w, k, visit ? &seen : NULL);
          bad += got != (pq_count)want || (visit && seen.visited != got) ||
                 (w == k && (seen.fixed % (pq_count)pq_sym_count(b) ||
                             seen.fixed_colour % (pq_count)(2 * pq_sym_count(b))));
          cases++;
          placements += want > 0;
        }
      tap_ok(bad == 0 && placements > 10,
             "%c on %dx%d: the counts of %d size pairs agree with the sum over every white set",
             pq_piece_letters[p], b->width, b->height, cases);
      pq_board_free(b);
    }
  }
  /* Two threads give the same answers. */
  pq_board *b9 = pq_board_new(9, 9);
  tap_ok(fits(b9, PQ_QUEEN, 12, 12, true, 2) && !fits(b9, PQ_QUEEN, 13, 13, true, 2),
         "9x9 with two threads: 12 fit, 13 do not");
  pq_board_free(b9);
  return tap_done();
}
