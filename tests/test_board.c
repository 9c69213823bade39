/* test_board.c: board parsing, attack tables, the symmetry group, and why blocking never
   matters, against a brute force that does block; the checkers' own geometry (src/check/lines.c)
   against the core's, and the checkers' deadline. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/check/check.h"
#include "../src/core/board.h"
#include "../src/core/config.h"
#include "../src/core/search.h"
#include "../src/core/sym.h"
#include "../src/core/util.h"
#include "tap.h"

static void test_parse(void) {
  const char *good[] = {"8", "1", "32", "7x8", "32x32", "1x5"};
  int gw[] = {8, 1, 32, 7, 32, 1}, gh[] = {8, 1, 32, 8, 32, 5};
  for (int i = 0; i < 6; i++) {
    int w = 0, h = 0;
    tap_ok(pq_board_parse("--board", good[i], &w, &h) == PQ_OK && w == gw[i] && h == gh[i],
           "board \"%s\" is %dx%d", good[i], gw[i], gh[i]);
  }
  const char *bad[] = {"0x5", "33x2", "8y8", "-3", "", "0", "x8", "8x", "8x8x8", "123", " 8"};
  for (int i = 0; i < 11; i++) {
    int w, h;
    tap_ok(pq_board_parse("--board", bad[i], &w, &h) == PQ_EINVAL, "board \"%s\" is refused",
           bad[i]);
  }
}

static void test_tables(void) {
  pq_board *b = pq_board_new(6, 4);
  int wrong = 0;
  for (int p = 0; p < PQ_NPIECES; p++)
    for (int s = 0; s < b->squares; s++)
      for (int t = 0; t < b->squares; t++) {
        wrong += pq_bits_has(&b->attack[p][s], t) != pq_attacks_plain(b, (pq_piece)p, s, t);
        wrong += pq_bits_has(&b->attack[p][s], t) != pq_bits_has(&b->attack[p][t], s);
      }
  tap_ok(wrong == 0, "6x4 attack tables match geometry and are symmetric");
  int on_lines = 0;
  for (int s = 0; s < b->squares; s++)
    for (int d = 0; d < PQ_NDIRS; d++)
      on_lines += pq_bits_has(&b->line[b->line_of[s][d]], s);
  tap_ok(on_lines == 4 * b->squares && b->lines == 6 + 4 + 2 * 9, "6x4: each square on 4 lines");
  tap_ok(pq_bits_count(&b->attack[PQ_QUEEN][0], b->words) == 5 + 3 + 3, "corner queen on 6x4");
  pq_board_free(b);
  pq_board *big = pq_board_new(32, 32);
  tap_ok(big->words == 16 && pq_bits_count(&big->all, big->words) == 1024 &&
             pq_bits_next(&big->all, big->words, 1023) == 1023,
         "32x32 board spans 16 words");
  pq_board_free(big);
}

static void test_group(int w, int h) {
  pq_board *b = pq_board_new(w, h);
  int n = pq_sym_count(b), bad = 0;
  for (int g = 0; g < n; g++) {
    /* Each element is a bijection of the squares. */
    char hit[PQ_MAX_SQUARES] = {0};
    for (int s = 0; s < b->squares; s++)
      hit[pq_sym_square(b, (pq_sym)g, s)]++;
    for (int s = 0; s < b->squares; s++)
      bad += hit[s] != 1;
    /* Attacks are preserved. */
    for (int s = 0; s < b->squares; s++)
      for (int t = 0; t < b->squares; t++)
        for (int p = 0; p < PQ_NPIECES; p++)
          bad += pq_attacks_plain(b, (pq_piece)p, s, t) !=
                 pq_attacks_plain(b, (pq_piece)p, pq_sym_square(b, (pq_sym)g, s),
                                  pq_sym_square(b, (pq_sym)g, t));
    /* Lines map onto lines, square by square. */
    for (int l = 0; l < b->lines; l++) {
      int m = pq_sym_line(b, (pq_sym)g, l);
      PQ_BITS_FOREACH(s, &b->line[l], b->words)
      bad += !pq_bits_has(&b->line[m], pq_sym_square(b, (pq_sym)g, s));
      bad += pq_bits_count(&b->line[l], b->words) != pq_bits_count(&b->line[m], b->words);
    }
    /* An inverse exists. */
    int inverse = 0;
    for (int k = 0; k < n; k++)
      inverse += pq_sym_compose(b, (pq_sym)g, (pq_sym)k) == 0;
    bad += inverse < 1;
    for (int k = 0; k < n; k++)
      for (int m = 0; m < n; m++) {
        pq_sym gk = pq_sym_compose(b, (pq_sym)g, (pq_sym)k);
        pq_sym km = pq_sym_compose(b, (pq_sym)k, (pq_sym)m);
        for (int s = 0; s < b->squares; s++)
          bad += pq_sym_square(b, pq_sym_compose(b, gk, (pq_sym)m), s) !=
                 pq_sym_square(b, pq_sym_compose(b, (pq_sym)g, km), s);
      }
    bad += pq_sym_compose(b, PQ_SYM_IDENTITY, (pq_sym)g) != (pq_sym)g && w > 1 && h > 1;
  }
  /* The elements are distinct on a board of at least 2x2 (a 2x3 board still has 4). */
  if (w > 1 && h > 1)
    for (int g = 0; g < n; g++)
      for (int k = 0; k < g; k++) {
        bool same = true;
        for (int s = 0; s < b->squares; s++)
          same = same && pq_sym_square(b, (pq_sym)g, s) == pq_sym_square(b, (pq_sym)k, s);
        bad += same;
      }
  tap_ok(bad == 0 && n == (w == h ? 8 : 4), "%dx%d: %d symmetries form a group preserving attacks",
         w, h, n);
  pq_board_free(b);
}

/* Brute force that blocks: whether the piece on s attacks the one on t, pieces in cells. */
static bool attacks_blocked(const pq_board *b, pq_piece p, int s, int t, const uint8_t *cells) {
  if (!pq_attacks_plain(b, p, s, t)) return false;
  if (p == PQ_KING || p == PQ_KNIGHT) return true;
  int r1 = s / b->width, c1 = s % b->width, r2 = t / b->width, c2 = t % b->width;
  int dr = (r2 > r1) - (r2 < r1), dc = (c2 > c1) - (c2 < c1);
  for (int r = r1 + dr, c = c1 + dc; r != r2 || c != c2; r += dr, c += dc)
    if (cells[r * b->width + c]) return false;
  return true;
}

/* Code of each piece on the board: 0 empty, else 1 + kind index into kinds. */
static bool peaceful_blocked(const pq_board *b, const pq_kind *kinds, const uint8_t *cells,
                             bool colours) {
  for (int s = 0; s < b->squares; s++)
    for (int t = 0; t < b->squares; t++)
      if (s != t && cells[s] && cells[t]) {
        const pq_kind *a = &kinds[cells[s] - 1], *d = &kinds[cells[t] - 1];
        if (colours && a->colour == d->colour) continue;
        if (attacks_blocked(b, a->piece, s, t, cells)) return false;
      }
  return true;
}

/* Counts, by trying every square for every piece in turn, the placements of the pieces listed
   in slots (kind indices, identical kinds in increasing square order). */
static long brute(const pq_board *b, const pq_kind *kinds, const int *slots, int nslots, int i,
                  int from, uint8_t *cells, bool colours) {
  if (i == nslots) return peaceful_blocked(b, kinds, cells, colours);
  long total = 0;
  int start = (i > 0 && slots[i - 1] == slots[i]) ? from : 0;
  for (int s = start; s < b->squares; s++) {
    if (cells[s]) continue;
    cells[s] = (uint8_t)(slots[i] + 1);
    total += brute(b, kinds, slots, nslots, i + 1, s + 1, cells, colours);
    cells[s] = 0;
  }
  return total;
}

static void test_blocking(void) {
  /* Anarchist pieces: every mix of up to three pieces of two kinds on 4x4 and 3x5. */
  int dims[2][2] = {{4, 4}, {5, 3}};
  for (int d = 0; d < 2; d++) {
    pq_board *b = pq_board_new(dims[d][0], dims[d][1]);
    int bad = 0, cases = 0;
    for (int p1 = 0; p1 < PQ_NPIECES; p1++)
      for (int p2 = p1 + 1; p2 < PQ_NPIECES; p2++)
        for (int n1 = 1; n1 <= 2; n1++)
          for (int n2 = 1; n2 <= 3 - n1; n2++) {
            pq_kind kinds[2] = {{(pq_piece)p1, 0}, {(pq_piece)p2, 0}};
            int slots[3], ns = 0;
            for (int i = 0; i < n1; i++)
              slots[ns++] = 0;
            for (int i = 0; i < n2; i++)
              slots[ns++] = 1;
            uint8_t cells[PQ_MAX_SQUARES] = {0};
            long want = brute(b, kinds, slots, ns, 0, 0, cells, false);
            pq_calc *c = pq_calc_new(b, 2, kinds, PQ_CONFLICT_ALL);
            pq_search_params params;
            pq_search_params_init(&params);
            params.count[0] = n1;
            params.count[1] = n2;
            pq_search_result res;
            pq_search_run(c, &params, &res);
            bad += res.count != (pq_count)want;
            cases++;
            pq_calc_free(c);
          }
    tap_ok(bad == 0, "%dx%d: %d anarchist mixes agree with a blocking brute force", b->width,
           b->height, cases);
    pq_board_free(b);
  }
  /* Two colours of one line piece: no line may hold both colours. */
  for (int p = PQ_QUEEN; p <= PQ_BISHOP; p++) {
    pq_board *b = pq_board_new(4, 4);
    pq_kind kinds[2] = {{(pq_piece)p, 0}, {(pq_piece)p, 1}};
    int bad = 0;
    for (int nw = 1; nw <= 3; nw++)
      for (int nb = 1; nb <= 3; nb++) {
        int slots[6], ns = 0;
        for (int i = 0; i < nw; i++)
          slots[ns++] = 0;
        for (int i = 0; i < nb; i++)
          slots[ns++] = 1;
        uint8_t cells[PQ_MAX_SQUARES] = {0};
        long want = brute(b, kinds, slots, ns, 0, 0, cells, true);
        pq_calc *c = pq_calc_new(b, 2, kinds, PQ_CONFLICT_COLOURS);
        pq_search_params params;
        pq_search_params_init(&params);
        params.count[0] = nw;
        params.count[1] = nb;
        pq_search_result res;
        pq_search_run(c, &params, &res);
        bad += res.count != (pq_count)want;
        pq_calc_free(c);
      }
    tap_ok(bad == 0, "4x4 armies of %c: up to 3 against 3 agree with a blocking brute force",
           pq_piece_letters[p]);
    pq_board_free(b);
  }
}

static void test_canonical(void) {
  pq_board *b = pq_board_new(4, 4);
  uint8_t corner[16] = {1}, out[16], other[16] = {0};
  other[15] = 1;
  int fixed = pq_sym_canonical(b, corner, NULL, out);
  uint8_t canon2[16];
  pq_sym_canonical(b, other, NULL, canon2);
  tap_ok(fixed == 2 && !memcmp(out, canon2, 16), "corner piece: stabiliser of order 2, corners "
                                                 "share a canonical form");
  uint8_t swap[3] = {0, 2, 1};
  uint8_t two[16] = {0};
  two[0] = 1, two[15] = 2;
  fixed = pq_sym_canonical(b, two, swap, out);
  tap_ok(fixed == 4, "white and black in opposite corners: 4 of 16 elements fix it (got %d)",
         fixed);
  pq_board_free(b);
}

/* The image of square s under the symmetry of number g, from geometry (the order of sym.h). */
static int image_by_geometry(int w, int h, int g, int s) {
  int r = s / w, c = s % w;
  static const int8_t map[8][6] = {
      /* r' = a + b r + c c, c' = d + e r + f c */
      {0, 1, 0, 0, 0, 1},   {-1, -1, 0, -2, 0, -1}, {0, 1, 0, -2, 0, -1}, {-1, -1, 0, 0, 0, 1},
      {0, 0, 1, -2, -1, 0}, {-1, 0, -1, 0, 1, 0},   {0, 0, 1, 0, 1, 0},   {-2, 0, -1, -1, -1, 0}};
  const int8_t *m = map[g];
  /* The constants: -1 stands for h - 1, -2 for w - 1. */
  int base_r = m[0] == -1   ? h - 1
               : m[0] == -2 ? w - 1
                            : 0,
      base_c = m[3] == -1   ? h - 1
               : m[3] == -2 ? w - 1
                            : 0;
  return (base_r + m[1] * r + m[2] * c) * w + base_c + m[4] * r + m[5] * c;
}

/* pq_sym_canonical against the smallest image written out square by square, for random
   placements of 0 to 40 pieces of codes 1 and 2 (a few pieces take the sparse way, many the
   dense one), with and without the colour exchange. */
static void test_canonical_random(int w, int h) {
  pq_board *b = pq_board_new(w, h);
  int n = w == h ? 8 : 4, bad = 0, tried = 0;
  static const uint8_t swap[3] = {0, 2, 1};
  uint64_t rng = 0x9e3779b97f4a7c15u ^ (uint64_t)(w * 64 + h);
  for (int trial = 0; trial < 400; trial++) {
    uint8_t in[PQ_MAX_SQUARES] = {0}, want[PQ_MAX_SQUARES], img[PQ_MAX_SQUARES],
            got[PQ_MAX_SQUARES];
    int k = trial % 41 < b->squares ? trial % 41 : b->squares;
    for (int placed = 0; placed < k;) {
      rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
      int s = (int)(rng % (uint64_t)b->squares);
      if (!in[s]) in[s] = (uint8_t)(1 + (rng >> 40) % 2), placed++;
    }
    for (int colours = 0; colours < 2; colours++) {
      int fixed = 0;
      memcpy(want, in, (size_t)b->squares);
      for (int pass = 0; pass <= colours; pass++)
        for (int g = 0; g < n; g++) {
          for (int s = 0; s < b->squares; s++)
            img[image_by_geometry(w, h, g, s)] = pass ? swap[in[s]] : in[s];
          if (memcmp(img, want, (size_t)b->squares) < 0) memcpy(want, img, (size_t)b->squares);
          fixed += !memcmp(img, in, (size_t)b->squares);
        }
      int f = pq_sym_canonical(b, in, colours ? swap : NULL, got);
      bad += f != fixed || memcmp(got, want, (size_t)b->squares);
      tried++;
    }
  }
  tap_ok(bad == 0, "%dx%d: %d canonical forms and stabilisers as written out square by square", w,
         h, tried - bad);
  pq_board_free(b);
}

/* The checkers' geometry against the core's: the attack test of every piece, the squares of
   every line id, and the image of every line under every symmetry holding the images of its
   squares (and, with both sides above 1, exactly them). */
static void test_check_lines(int w, int h) {
  pq_board *b = pq_board_new(w, h);
  int groups = w == h ? 8 : 4, n = pq_check_lines(w, h), wrong = 0, lines = 0;
  for (int p = 0; p < PQ_NPIECES; p++)
    for (int s = 0; s < b->squares; s++)
      for (int t = 0; t < b->squares; t++)
        wrong += pq_check_attacks(w, p, s, t) != pq_attacks_plain(b, (pq_piece)p, s, t);
  tap_ok(wrong == 0, "%dx%d: the checkers' attack test is the core's", w, h);
  wrong = 0;
  for (int id = 0; id < n; id++) {
    int index, d = pq_check_line_dir(w, h, id, &index), size = 0;
    for (int s = 0; s < b->squares; s++)
      if (pq_check_line_id(w, h, d, s / w, s % w) == id) size++;
    lines += size > 0 && d >= 0 && index >= 0;
    for (int g = 0; g < groups; g++) {
      int image = pq_check_line_image(w, h, g, id), e = pq_check_line_dir(w, h, image, NULL);
      int held = 0, in_image = 0;
      for (int s = 0; s < b->squares; s++) {
        int t = pq_check_image(w, h, g, s);
        if (pq_check_line_id(w, h, d, s / w, s % w) == id)
          held += pq_check_line_id(w, h, e, t / w, t % w) == image;
        in_image += pq_check_line_id(w, h, e, s / w, s % w) == image;
      }
      wrong += held != size || (w > 1 && h > 1 && in_image != size);
    }
  }
  tap_ok(lines == n && n == 3 * (w + h) - 2, "%dx%d: %d line ids, none empty", w, h, n);
  tap_ok(wrong == 0, "%dx%d: line images hold the images of their squares", w, h);
  pq_board_free(b);
}

/* The checkers' deadline is seen within milliseconds even when the calls of the stop test turn
   slow after many fast ones (a colours bound on a large board took seconds per 1,024 leaves).
   Run last: the deadline, once passed, stops every check of the process. */
static void test_check_deadline(void) {
  pq_check_params p;
  pq_check_params_init(&p);
  double start = pq_now();
  p.deadline = start + 0.05;
  for (int fast = 0; fast < 100000; fast++)
    pq_check_stop(&p);
  const struct timespec leaf = {0, 5000000}; /* 5 ms of work a call */
  int calls = 0;
  while (!pq_check_stop(&p) && calls < 1000) {
    nanosleep(&leaf, NULL);
    calls++;
  }
  double late = pq_now() - p.deadline;
  tap_ok(calls < 1000 && late < 0.1,
         "the checkers' stop test sees a deadline %.3f s late after "
         "%d slow calls",
         late, calls);
}

int main(void) {
  test_parse();
  test_tables();
  int sizes[][2] = {{1, 1}, {2, 2}, {3, 3}, {8, 8}, {3, 5}, {5, 3}, {2, 3}, {1, 4}};
  for (int i = 0; i < 8; i++)
    test_group(sizes[i][0], sizes[i][1]);
  test_blocking();
  test_canonical();
  int more[][2] = {{1, 1}, {1, 7}, {6, 1}, {3, 5}, {5, 5}, {8, 8}, {12, 12}, {7, 32}, {32, 32}};
  for (int i = 0; i < 9; i++)
    test_canonical_random(more[i][0], more[i][1]);
  for (int i = 0; i < 8; i++)
    test_check_lines(sizes[i][0], sizes[i][1]);
  test_check_deadline();
  return tap_done();
}
