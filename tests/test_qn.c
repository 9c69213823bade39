/* test_qn.c: the qn engine against a plain brute force, its symmetry-free mode and the ILP. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../problems/qn/qn.h"
#include "../problems/qn/qn_ilp.h"
#include "../src/core/sym.h"
#include "../src/run/engine.h"
#include "tap.h"

/* ---- the brute force: plain loops over squares, conflicts from pq_attacks_plain ---- */

typedef struct brute {
  const pq_board *b;
  pq_piece piece[2];
  int need[2];
  bool *conflict; /* [(k * squares + s) * 2 * squares + j * squares + t] */
  int *image;     /* [g * squares + s]: the image of s under symmetry g */
  int nsyms;
  uint8_t cells[PQ_MAX_SQUARES];
  int placed[PQ_MAX_SQUARES], nplaced;
  bool stop_at_first, with_classes;
  uint64_t count, fixed; /* placements; Burnside sum of their stabilisers' orders */
} brute;

static bool conflicts(const brute *x, int k, int s, int j, int t) {
  int n = x->b->squares;
  return x->conflict[((size_t)k * n + s) * 2 * n + (size_t)j * n + t];
}

static void brute_init(brute *x, const pq_board *b, pq_piece first, pq_piece second) {
  memset(x, 0, sizeof *x);
  x->b = b;
  x->piece[0] = first;
  x->piece[1] = second;
  int n = b->squares;
  x->conflict = calloc((size_t)4 * n * n, sizeof(bool));
  x->nsyms = pq_sym_count(b);
  x->image = malloc((size_t)x->nsyms * n * sizeof(int));
  for (int g = 0; g < x->nsyms; g++)
    for (int s = 0; s < n; s++)
      x->image[g * n + s] = pq_sym_square(b, (pq_sym)g, s);
  for (int k = 0; k < 2; k++)
    for (int s = 0; s < n; s++)
      for (int j = 0; j < 2; j++)
        for (int t = 0; t < n; t++)
          x->conflict[((size_t)k * n + s) * 2 * n + (size_t)j * n + t] =
              s == t || pq_attacks_plain(b, x->piece[k], s, t) ||
              pq_attacks_plain(b, x->piece[j], t, s);
}

/* Places the pieces of kind k still needed (left of them), on squares from `from` up. */
static void brute_place(brute *x, int k, int from, int left) {
  if (x->stop_at_first && x->count) return;
  if (left == 0) {
    if (k == 0) {
      brute_place(x, 1, 0, x->need[1]);
      return;
    }
    x->count++;
    if (x->with_classes) {
      /* Burnside: the symmetries that map every piece onto a piece of its own kind. */
      int n = x->b->squares;
      for (int g = 0; g < x->nsyms; g++) {
        bool fixed = true;
        for (int i = 0; i < x->nplaced && fixed; i++)
          fixed = x->cells[x->image[g * n + x->placed[i]]] == x->cells[x->placed[i]];
        x->fixed += fixed;
      }
    }
    return;
  }
  for (int s = from; s < x->b->squares; s++) {
    bool ok = true;
    for (int i = 0; i < x->nplaced && ok; i++) {
      int t = x->placed[i];
      ok = !conflicts(x, k, s, x->cells[t] - 1, t);
    }
    if (!ok) continue;
    x->cells[s] = (uint8_t)(k + 1);
    x->placed[x->nplaced++] = s;
    brute_place(x, k, s + 1, left - 1);
    x->nplaced--;
    x->cells[s] = 0;
  }
}

/* Counts placements of ra * m first and rb * m second pieces (stops at the first when asked). */
static uint64_t brute_count(brute *x, int ra, int rb, int m, bool first_only, bool classes,
                            uint64_t *unique) {
  x->need[0] = ra * m;
  x->need[1] = rb * m;
  x->count = x->fixed = 0;
  x->stop_at_first = first_only;
  x->with_classes = classes;
  if (x->need[0] + x->need[1] <= x->b->squares) brute_place(x, 0, 0, x->need[0]);
  if (unique) *unique = x->fixed / (uint64_t)x->nsyms;
  return x->count;
}

/* ---- helpers ---- */

/* Whether cells is a placement of size m: right numbers, no attack (plain geometry). */
static bool valid(const pq_board *b, pq_piece first, pq_piece second, int ra, int rb, int m,
                  const uint8_t *cells) {
  pq_piece piece[3] = {PQ_KING, first, second};
  int count[3] = {0};
  for (int s = 0; s < b->squares; s++) {
    if (cells[s] > 2) return false;
    count[cells[s]]++;
    for (int t = 0; t < b->squares && cells[s]; t++)
      if (t != s && cells[t] && pq_attacks_plain(b, piece[cells[s]], s, t)) return false;
  }
  return count[1] == ra * m && count[2] == rb * m;
}

static int max_by_decide(const pq_qn *q, const pq_board *b, pq_piece first, pq_piece second, int ra,
                         int rb, bool *witnesses_ok) {
  pq_qn_limits l;
  pq_qn_limits_init(&l);
  uint8_t w[PQ_MAX_SQUARES];
  int m = 0;
  for (;; m++) {
    bool found = false;
    if (pq_qn_decide(q, m + 1, &l, &found, w, NULL) != PQ_OK) return -1;
    if (!found) return m;
    if (!valid(b, first, second, ra, rb, m + 1, w)) *witnesses_ok = false;
  }
}

typedef struct collected {
  const pq_board *b;
  pq_piece first, second;
  int ra, rb, m;
  uint8_t *cells; /* n * squares */
  int n, cap;
  bool all_valid, all_canonical;
} collected;

static int collect(void *ctx, const uint8_t *cells) {
  collected *c = ctx;
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 64;
    c->cells = realloc(c->cells, (size_t)c->cap * (size_t)c->b->squares);
  }
  memcpy(c->cells + (size_t)c->n * c->b->squares, cells, (size_t)c->b->squares);
  c->n++;
  if (!valid(c->b, c->first, c->second, c->ra, c->rb, c->m, cells)) c->all_valid = false;
  uint8_t canon[PQ_MAX_SQUARES];
  pq_sym_canonical(c->b, cells, NULL, canon);
  if (memcmp(canon, cells, (size_t)c->b->squares)) c->all_canonical = false;
  return 0;
}

static int squares_of;
static int cmp_cells(const void *x, const void *y) { return memcmp(x, y, (size_t)squares_of); }

/* Number of distinct placements in c. */
static int distinct(collected *c) {
  squares_of = c->b->squares;
  qsort(c->cells, (size_t)c->n, (size_t)c->b->squares, cmp_cells);
  int d = c->n ? 1 : 0;
  for (int i = 1; i < c->n; i++)
    if (memcmp(c->cells + (size_t)i * squares_of, c->cells + (size_t)(i - 1) * squares_of,
               (size_t)squares_of))
      d++;
  return d;
}

/* ---- the tests ---- */

/* n x n queens and knights, n = 1..8: the maximum, its count and classes against the brute
   force (which finds the maximum itself: the first size without a placement). */
static void test_queens_knights(void) {
  for (int n = 1; n <= 8; n++) {
    pq_board *b = pq_board_new(n, n);
    pq_qn *q = pq_qn_new(b, PQ_QUEEN, PQ_KNIGHT, 1, 1);
    brute x;
    brute_init(&x, b, PQ_QUEEN, PQ_KNIGHT);
    int brute_max = 0;
    while (brute_count(&x, 1, 1, brute_max + 1, true, false, NULL))
      brute_max++;
    uint64_t brute_unique,
        brute_total = brute_count(&x, 1, 1, brute_max, false, true, &brute_unique);
    bool witnesses_ok = true;
    int max = max_by_decide(q, b, PQ_QUEEN, PQ_KNIGHT, 1, 1, &witnesses_ok);
    pq_qn_limits l;
    pq_qn_limits_init(&l);
    pq_qn_count_result r;
    pq_status rc = pq_qn_count(q, max, &l, NULL, false, NULL, &r);
    tap_ok(max == brute_max && witnesses_ok,
           "QN %dx%d: maximum %d (brute force %d), witnesses "
           "valid",
           n, n, max, brute_max);
    tap_ok(rc == PQ_OK && r.count == brute_total && r.unique == brute_unique,
           "QN %dx%d size %d: %llu placements, %llu classes (brute force %llu, %llu)", n, n, max,
           (unsigned long long)r.count, (unsigned long long)r.unique,
           (unsigned long long)brute_total, (unsigned long long)brute_unique);
    pq_qn_free(q);
    free(x.conflict);
    free(x.image);
    pq_board_free(b);
  }
}

/* Every size on small boards (square and not), every pair of kinds and some ratios: counts and
   classes against the brute force, and decisions against counts. */
static void test_kinds_and_ratios(void) {
  static const int boards[][2] = {{4, 4}, {3, 5}, {5, 2}};
  static const int ratios[][2] = {{1, 1}, {2, 1}, {1, 3}};
  int cases = 0, bad = 0;
  for (int bi = 0; bi < 3; bi++) {
    pq_board *b = pq_board_new(boards[bi][0], boards[bi][1]);
    for (int f = 0; f < PQ_NPIECES; f++)
      for (int s = 0; s < PQ_NPIECES; s++) {
        if (f == s) continue;
        brute x;
        brute_init(&x, b, (pq_piece)f, (pq_piece)s);
        for (int ri = 0; ri < 3; ri++) {
          int ra = ratios[ri][0], rb = ratios[ri][1];
          if (ri && bi == 2) continue;
          pq_qn *q = pq_qn_new(b, (pq_piece)f, (pq_piece)s, ra, rb);
          pq_qn_limits l;
          pq_qn_limits_init(&l);
          for (int m = 1;; m++) {
            uint64_t unique, total = brute_count(&x, ra, rb, m, false, true, &unique);
            pq_qn_count_result r;
            bool found = false;
            uint8_t w[PQ_MAX_SQUARES];
            pq_status rc1 = pq_qn_count(q, m, &l, NULL, false, NULL, &r);
            pq_status rc2 = pq_qn_decide(q, m, &l, &found, w, NULL);
            cases++;
            if (rc1 || rc2 || r.count != total || r.unique != unique || found != (total > 0) ||
                (found && !valid(b, (pq_piece)f, (pq_piece)s, ra, rb, m, w)) ||
                m > pq_qn_upper(q) + (total == 0)) {
              bad++;
              printf("# %dx%d %c%c %d:%d size %d: %llu/%llu vs brute %llu/%llu, found %d\n",
                     b->width, b->height, pq_piece_letters[f], pq_piece_letters[s], ra, rb, m,
                     (unsigned long long)r.count, (unsigned long long)r.unique,
                     (unsigned long long)total, (unsigned long long)unique, found);
            }
            if (!total) break;
          }
          pq_qn_free(q);
        }
        free(x.conflict);
        free(x.image);
      }
    pq_board_free(b);
  }
  tap_ok(bad == 0,
         "all kinds, ratios 1:1 2:1 1:3, boards 4x4 3x5 5x2, every size: counts, "
         "classes and decisions agree with the brute force (%d cases, %d differ)",
         cases, bad);
}

/* Counting by orbits of the first kind's sets with their stabilisers against plain counting
   (symmetry off: every placement, classes by canonical forms). */
static void test_orbits_against_plain(void) {
  static const struct {
    int w, h;
    pq_piece first, second;
    int ra, rb, m;
  } cases[] = {
      {8, 8, PQ_QUEEN, PQ_KNIGHT, 1, 1, 5},   {9, 9, PQ_QUEEN, PQ_KNIGHT, 1, 1, 6},
      {10, 10, PQ_QUEEN, PQ_KNIGHT, 1, 1, 7}, {7, 7, PQ_QUEEN, PQ_KNIGHT, 1, 1, 3},
      {6, 8, PQ_QUEEN, PQ_KNIGHT, 1, 1, 3},   {7, 5, PQ_KNIGHT, PQ_QUEEN, 1, 1, 2},
      {6, 6, PQ_ROOK, PQ_BISHOP, 1, 1, 2},    {5, 5, PQ_BISHOP, PQ_KNIGHT, 1, 1, 3},
      {5, 5, PQ_KING, PQ_KNIGHT, 1, 2, 2},    {5, 5, PQ_QUEEN, PQ_KING, 2, 1, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    pq_board *b = pq_board_new(cases[i].w, cases[i].h);
    pq_qn *q = pq_qn_new(b, cases[i].first, cases[i].second, cases[i].ra, cases[i].rb);
    pq_qn_limits sym, plain;
    pq_qn_limits_init(&sym);
    pq_qn_limits_init(&plain);
    plain.symmetry = false;
    pq_qn_count_result a, p;
    pq_status rc1 = pq_qn_count(q, cases[i].m, &sym, NULL, false, NULL, &a);
    pq_status rc2 = pq_qn_count(q, cases[i].m, &plain, NULL, false, NULL, &p);
    tap_ok(!rc1 && !rc2 && a.count == p.count && a.unique == p.unique && a.count > 0,
           "%dx%d %c%c %d:%d size %d: orbits give %llu, %llu; plain %llu, %llu", b->width,
           b->height, pq_piece_letters[cases[i].first], pq_piece_letters[cases[i].second],
           cases[i].ra, cases[i].rb, cases[i].m, (unsigned long long)a.count,
           (unsigned long long)a.unique, (unsigned long long)p.count, (unsigned long long)p.unique);
    pq_qn_free(q);
    pq_board_free(b);
  }
}

/* Listings: every placement once and valid; one canonical placement per class. */
static void test_listings(void) {
  static const struct {
    int w, h, m;
  } cases[] = {{8, 8, 5}, {7, 7, 4}, {6, 6, 3}, {6, 8, 3}, {9, 9, 6}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    pq_board *b = pq_board_new(cases[i].w, cases[i].h);
    pq_qn *q = pq_qn_new(b, PQ_QUEEN, PQ_KNIGHT, 1, 1);
    pq_qn_limits l;
    pq_qn_limits_init(&l);
    for (int one_per_class = 0; one_per_class < 2; one_per_class++) {
      collected c = {.b = b,
                     .first = PQ_QUEEN,
                     .second = PQ_KNIGHT,
                     .ra = 1,
                     .rb = 1,
                     .m = cases[i].m,
                     .all_valid = true,
                     .all_canonical = true};
      pq_qn_count_result r;
      pq_status rc = pq_qn_count(q, cases[i].m, &l, collect, one_per_class, &c, &r);
      pq_count want = one_per_class ? r.unique : r.count;
      int d = distinct(&c);
      tap_ok(!rc && (pq_count)c.n == want && d == c.n && c.all_valid &&
                 (!one_per_class || c.all_canonical),
             "%dx%d size %d: %s: %d listed, %d distinct, want %llu%s", b->width, b->height,
             cases[i].m, one_per_class ? "one per class" : "every placement", c.n, d,
             (unsigned long long)want, c.all_valid ? "" : ", some invalid");
      free(c.cells);
    }
    pq_qn_free(q);
    pq_board_free(b);
  }
}

/* The search and the integer program decide the same sizes. */
static void test_search_against_ilp(void) {
  static const struct {
    int w, h;
    pq_piece first, second;
    int ra, rb;
  } cases[] = {
      {3, 3, PQ_QUEEN, PQ_KNIGHT, 1, 1},  {4, 4, PQ_QUEEN, PQ_KNIGHT, 1, 1},
      {5, 5, PQ_QUEEN, PQ_KNIGHT, 1, 1},  {4, 6, PQ_QUEEN, PQ_KNIGHT, 1, 1},
      {5, 4, PQ_BISHOP, PQ_KNIGHT, 1, 1}, {5, 5, PQ_QUEEN, PQ_KING, 1, 1},
      {4, 5, PQ_KNIGHT, PQ_ROOK, 1, 2},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    pq_board *b = pq_board_new(cases[i].w, cases[i].h);
    pq_qn *q = pq_qn_new(b, cases[i].first, cases[i].second, cases[i].ra, cases[i].rb);
    bool witnesses_ok = true;
    int max = max_by_decide(q, b, cases[i].first, cases[i].second, cases[i].ra, cases[i].rb,
                            &witnesses_ok);
    bool agree = witnesses_ok && max >= 0;
    for (int m = max > 1 ? max - 1 : 1; m <= max + 1 && agree; m++) {
      bool found = false;
      uint8_t w[PQ_MAX_SQUARES];
      pq_status rc = pq_qn_ilp_decide(b, cases[i].first, cases[i].second, cases[i].ra, cases[i].rb,
                                      m, NULL, &found, w);
      agree = rc == PQ_OK && found == (m <= max) &&
              (!found || valid(b, cases[i].first, cases[i].second, cases[i].ra, cases[i].rb, m, w));
    }
    tap_ok(agree, "%dx%d %c%c %d:%d: search maximum %d, the ILP agrees on sizes around it",
           b->width, b->height, pq_piece_letters[cases[i].first], pq_piece_letters[cases[i].second],
           cases[i].ra, cases[i].rb, max);
    pq_qn_free(q);
    pq_board_free(b);
  }
}

/* Limits stop a search with PQ_ELIMIT; the heuristic's witness is valid and not above the
   maximum; the trivial bound is not below it. */
static void test_limits_and_bounds(void) {
  pq_board *b = pq_board_new(12, 12);
  pq_qn *q = pq_qn_new(b, PQ_QUEEN, PQ_KNIGHT, 1, 1);
  pq_qn_limits l;
  pq_qn_limits_init(&l);
  l.run.node_limit = 1000;
  bool found = true;
  uint8_t w[PQ_MAX_SQUARES];
  uint64_t nodes = 0;
  pq_status rc = pq_qn_decide(q, 9, &l, &found, w, &nodes);
  tap_ok(rc == PQ_ELIMIT && !found && nodes <= 1001, "a node limit stops a decision (%llu nodes)",
         (unsigned long long)nodes);
  pq_qn_count_result r;
  rc = pq_qn_count(q, 8, &l, NULL, false, NULL, &r);
  tap_ok(rc == PQ_ELIMIT, "a node limit stops a count");
  volatile int cancel = 1;
  pq_qn_limits_init(&l);
  l.cancel = &cancel;
  rc = pq_qn_count(q, 8, &l, NULL, false, NULL, &r);
  tap_ok(rc == PQ_ELIMIT, "a raised cancel flag stops a count");
  pq_qn_limits_init(&l);
  int h = pq_qn_heuristic(q, &l, w, NULL);
  tap_ok(h >= 1 && valid(b, PQ_QUEEN, PQ_KNIGHT, 1, 1, h, w) && pq_qn_upper(q) >= h,
         "12x12: heuristic witness of size %d is valid; bound %d", h, pq_qn_upper(q));
  pq_qn_free(q);
  pq_board_free(b);
}

/* A visitor that records placements in order and asks to stop after `stop_after` of them. */
typedef struct sequence {
  int squares;
  uint8_t *cells;
  int n, cap, stop_after;
} sequence;

static int record(void *ctx, const uint8_t *cells) {
  sequence *q = ctx;
  if (q->n == q->cap) {
    q->cap = q->cap ? 2 * q->cap : 64;
    q->cells = realloc(q->cells, (size_t)q->cap * (size_t)q->squares);
  }
  memcpy(q->cells + (size_t)q->n * q->squares, cells, (size_t)q->squares);
  q->n++;
  return q->stop_after && q->n >= q->stop_after;
}

/* Several jobs give what one gives: counts, classes and nodes of a complete count, listings in
   the same order (also when the visitor stops early), the same witness of a decision at the
   maximum m and no witness at m + 1. */
static void test_jobs(void) {
  static const struct {
    int w, h;
    pq_piece first, second;
    int ra, rb, m;
  } cases[] = {
      {8, 8, PQ_QUEEN, PQ_KNIGHT, 1, 1, 5}, {9, 9, PQ_QUEEN, PQ_KNIGHT, 1, 1, 6},
      {7, 9, PQ_ROOK, PQ_BISHOP, 1, 1, 5},  {5, 5, PQ_KNIGHT, PQ_KING, 1, 2, 3},
      {5, 8, PQ_BISHOP, PQ_ROOK, 2, 1, 3},  {10, 10, PQ_QUEEN, PQ_KNIGHT, 1, 1, 7},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    pq_board *b = pq_board_new(cases[i].w, cases[i].h);
    pq_qn *q = pq_qn_new(b, cases[i].first, cases[i].second, cases[i].ra, cases[i].rb);
    int m = cases[i].m;
    pq_qn_limits one;
    pq_qn_limits_init(&one);
    pq_qn_count_result base;
    sequence all1 = {.squares = b->squares}, class1 = {.squares = b->squares},
             stop1 = {.squares = b->squares, .stop_after = 7};
    pq_qn_count_result r;
    bool same = pq_qn_count(q, m, &one, NULL, false, NULL, &base) == PQ_OK && base.count > 0;
    same = same && pq_qn_count(q, m, &one, record, false, &all1, &r) == PQ_OK;
    same = same && pq_qn_count(q, m, &one, record, true, &class1, &r) == PQ_OK;
    same = same && pq_qn_count(q, m, &one, record, false, &stop1, &r) == PQ_OK && r.stopped;
    uint8_t w1[PQ_MAX_SQUARES], w2[PQ_MAX_SQUARES];
    bool found1 = false, found2 = false, none1 = true, none2 = true;
    same = same && pq_qn_decide(q, m, &one, &found1, w1, NULL) == PQ_OK && found1;
    same = same && pq_qn_decide(q, m + 1, &one, &none1, w2, NULL) == PQ_OK && !none1;
    for (int jobs = 2; jobs <= 4 && same; jobs++) {
      pq_qn_limits many;
      pq_qn_limits_init(&many);
      many.run.jobs = jobs;
      sequence all = {.squares = b->squares}, classes = {.squares = b->squares},
               stop = {.squares = b->squares, .stop_after = 7};
      same = pq_qn_count(q, m, &many, NULL, false, NULL, &r) == PQ_OK && r.count == base.count &&
             r.unique == base.unique && r.nodes == base.nodes;
      same = same && pq_qn_count(q, m, &many, record, false, &all, &r) == PQ_OK &&
             all.n == all1.n && !memcmp(all.cells, all1.cells, (size_t)all.n * b->squares);
      same = same && pq_qn_count(q, m, &many, record, true, &classes, &r) == PQ_OK &&
             classes.n == class1.n &&
             !memcmp(classes.cells, class1.cells, (size_t)classes.n * b->squares);
      same = same && pq_qn_count(q, m, &many, record, false, &stop, &r) == PQ_OK && r.stopped &&
             stop.n == stop1.n && !memcmp(stop.cells, stop1.cells, (size_t)stop.n * b->squares);
      same = same && pq_qn_decide(q, m, &many, &found2, w2, NULL) == PQ_OK && found2 &&
             !memcmp(w1, w2, (size_t)b->squares);
      same = same && pq_qn_decide(q, m + 1, &many, &none2, w2, NULL) == PQ_OK && !none2;
      free(all.cells);
      free(classes.cells);
      free(stop.cells);
    }
    tap_ok(same,
           "%dx%d %c%c %d:%d size %d: 2, 3 and 4 jobs give the counts (%llu, %llu), nodes, "
           "listings in order, early stop and witness of one thread",
           b->width, b->height, pq_piece_letters[cases[i].first], pq_piece_letters[cases[i].second],
           cases[i].ra, cases[i].rb, m, (unsigned long long)base.count,
           (unsigned long long)base.unique);
    free(all1.cells);
    free(class1.cells);
    free(stop1.cells);
    pq_qn_free(q);
    pq_board_free(b);
  }
  /* Limits stop every thread. */
  pq_board *b = pq_board_new(12, 12);
  pq_qn *q = pq_qn_new(b, PQ_QUEEN, PQ_KNIGHT, 1, 1);
  pq_qn_limits l;
  pq_qn_limits_init(&l);
  l.run.jobs = 2;
  l.run.node_limit = 5000;
  pq_qn_count_result r;
  pq_status rc = pq_qn_count(q, 8, &l, NULL, false, NULL, &r);
  tap_ok(rc == PQ_ELIMIT && r.nodes <= 5000 + 2 * 1024,
         "2 jobs: a node limit stops a count (%llu nodes for a limit of 5000)",
         (unsigned long long)r.nodes);
  volatile int cancel = 1;
  pq_qn_limits_init(&l);
  l.run.jobs = 2;
  l.cancel = &cancel;
  bool found = true;
  uint8_t w[PQ_MAX_SQUARES];
  rc = pq_qn_decide(q, 9, &l, &found, w, NULL);
  tap_ok(rc == PQ_ELIMIT && !found, "2 jobs: a raised cancel flag stops a decision");
  pq_qn_free(q);
  pq_board_free(b);
}

/* Parts: run as --part 1/2 and 2/2 (with 1 and 2 jobs), their lines merged give the whole count
   and the whole decision's witness; the split's fingerprint tells instances apart; every part's
   first square is the least of its orbit (a certificate's cube); a count stopped by a node limit
   and resumed from its checkpoint gives the whole count. */

/* Runs part `part` of 2 of size m (counting or deciding) as --part does; its line, parsed and
   its digest checked, into *line (caller frees). */
static pq_status part_line(const pq_qn *q, int m, bool counting, int part, pq_json **line) {
  pq_qn_limits l;
  pq_qn_limits_init(&l);
  l.run.jobs = part;
  l.run.part = part;
  l.run.parts = 2;
  char *text = NULL, err[160];
  size_t len = 0;
  fflush(stdout);
  FILE *f = open_memstream(&text, &len), *out = stdout;
  stdout = f;
  pq_status rc;
  if (counting) {
    pq_qn_count_result r;
    rc = pq_qn_count(q, m, &l, NULL, false, NULL, &r);
  } else {
    bool found;
    uint8_t w[PQ_MAX_SQUARES];
    rc = pq_qn_decide(q, m, &l, &found, w, NULL);
  }
  stdout = out;
  fclose(f);
  *line = pq_json_parse(text, len, err);
  pq_engine_check_line(*line, text, len);
  free(text);
  return *line ? rc : PQ_EINVAL;
}

static void test_parts(void) {
  static const struct {
    int w, h;
    pq_piece first, second;
    int ra, rb, m;
  } cases[] = {
      {8, 8, PQ_QUEEN, PQ_KNIGHT, 1, 1, 5}, {9, 9, PQ_QUEEN, PQ_KNIGHT, 1, 1, 5},
      {7, 9, PQ_ROOK, PQ_BISHOP, 1, 1, 4},  {5, 5, PQ_KNIGHT, PQ_KING, 1, 2, 2},
      {6, 6, PQ_QUEEN, PQ_KNIGHT, 1, 1, 1}, {10, 10, PQ_QUEEN, PQ_KNIGHT, 1, 1, 6},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    pq_board *b = pq_board_new(cases[i].w, cases[i].h);
    pq_qn *q = pq_qn_new(b, cases[i].first, cases[i].second, cases[i].ra, cases[i].rb);
    int m = cases[i].m, *first = NULL;
    uint64_t id, id2, id_other;
    uint64_t n = pq_qn_parts(q, m, &id, &first);
    bool ok = n > 0 && pq_qn_parts(q, m, &id2, NULL) == n && id2 == id;
    pq_qn_parts(q, m + 1 <= pq_qn_upper(q) ? m + 1 : m - 1, &id_other, NULL);
    ok = ok && id_other != id;
    for (uint64_t p = 0; p < n && ok; p++) {
      int t = first[p];
      for (int g = 0; g < pq_sym_count(b) && ok; g++)
        ok = pq_sym_square(b, (pq_sym)g, t) >= t;
    }
    pq_qn_count_result whole, merged;
    pq_qn_limits l;
    pq_qn_limits_init(&l);
    ok = ok && pq_qn_count(q, m, &l, NULL, false, NULL, &whole) == PQ_OK;
    pq_json *line[2] = {NULL, NULL};
    bool found = false, found_whole = false;
    uint64_t subpart;
    uint8_t w_whole[PQ_MAX_SQUARES], w_merged[PQ_MAX_SQUARES];
    ok = ok && part_line(q, m, true, 2, &line[0]) == PQ_OK &&
         part_line(q, m, true, 1, &line[1]) == PQ_OK &&
         pq_qn_merge_lines(q, m, true, line, 2, NULL, &found, w_merged, &subpart, &merged) ==
             PQ_OK &&
         merged.count == whole.count && merged.unique == whole.unique;
    for (int k = 0; k < 2; k++) {
      pq_json_free(line[k]);
      line[k] = NULL;
    }
    /* Deciding: the least part with a witness in the halves is the whole decision's. */
    ok = ok && pq_qn_decide(q, m, &l, &found_whole, w_whole, NULL) == PQ_OK && found_whole;
    ok = ok && part_line(q, m, false, 1, &line[0]) == PQ_OK &&
         part_line(q, m, false, 2, &line[1]) == PQ_OK &&
         pq_qn_merge_lines(q, m, false, line, 2, NULL, &found, w_merged, &subpart, &merged) ==
             PQ_OK &&
         found && !memcmp(w_merged, w_whole, (size_t)b->squares);
    for (int k = 0; k < 2; k++)
      pq_json_free(line[k]);
    tap_ok(ok,
           "%dx%d %c%c %d:%d size %d: %llu parts; counts in two halves add up to %llu, %llu; the "
           "decision's witness is the least part's; fingerprints differ by size",
           b->width, b->height, pq_piece_letters[cases[i].first], pq_piece_letters[cases[i].second],
           cases[i].ra, cases[i].rb, m, (unsigned long long)n, (unsigned long long)whole.count,
           (unsigned long long)whole.unique);
    free(first);
    pq_qn_free(q);
    pq_board_free(b);
  }
  /* The same board and size with other kinds, or another ratio: other fingerprints. */
  pq_board *b = pq_board_new(8, 8);
  pq_qn *a = pq_qn_new(b, PQ_QUEEN, PQ_KNIGHT, 1, 1), *c = pq_qn_new(b, PQ_QUEEN, PQ_BISHOP, 1, 1),
        *r = pq_qn_new(b, PQ_QUEEN, PQ_KNIGHT, 1, 2);
  uint64_t ia, ic, ir;
  pq_qn_parts(a, 2, &ia, NULL);
  pq_qn_parts(c, 2, &ic, NULL);
  pq_qn_parts(r, 2, &ir, NULL);
  tap_ok(ia != ic && ia != ir && ic != ir, "other kinds or ratio: another fingerprint");
  /* A node limit stops a count; resumed from its checkpoint, the whole count. */
  char ck[] = "/tmp/test_qn_XXXXXX";
  int fd = mkstemp(ck);
  close(fd);
  pq_qn_limits l;
  pq_qn_limits_init(&l);
  l.run.checkpoint = ck;
  l.run.node_limit = 3000;
  pq_qn_count_result res, whole;
  pq_status rc = pq_qn_count(a, 5, &l, NULL, false, NULL, &res);
  l.run.node_limit = 0;
  l.run.resume = ck;
  pq_status rc2 = pq_qn_count(a, 5, &l, NULL, false, NULL, &res);
  pq_qn_limits_init(&l);
  pq_qn_count(a, 5, &l, NULL, false, NULL, &whole);
  tap_ok(rc == PQ_ELIMIT && rc2 == PQ_OK && res.count == whole.count && res.count == 16 &&
             res.unique == 2 && res.nodes < whole.nodes,
         "a node limit stops a count; resumed, the whole count (%llu, %llu nodes of %llu)",
         (unsigned long long)res.count, (unsigned long long)res.nodes,
         (unsigned long long)whole.nodes);
  unlink(ck);
  pq_qn_free(a);
  pq_qn_free(c);
  pq_qn_free(r);
  pq_board_free(b);
}

int main(void) {
  test_queens_knights();
  test_kinds_and_ratios();
  test_orbits_against_plain();
  test_listings();
  test_search_against_ilp();
  test_limits_and_bounds();
  test_jobs();
  test_parts();
  return tap_done();
}
