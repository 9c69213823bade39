/* test_armies_kn.c: armies of kings by the isoperimetric profile, against a brute force over
   every set of squares on small boards, the certificate checker's own bound, and the witnesses. */
#include <stdlib.h>
#include <string.h>

#include "../problems/armies/armies_kn.h"
#include "../problems/armies/armies_kn_check.h"
#include "../problems/armies/armies_knights.h"
#include "../problems/armies/armies_text.h"
#include "tap.h"

/* The least closed neighbourhood of w squares for every w, over all 2^n sets (n <= 20), for
   kings or knights. */
static void brute_profile(int width, int height, bool knight, int *closed) {
  int n = width * height;
  uint32_t reach[32];
  for (int s = 0; s < n; s++) {
    reach[s] = 0;
    for (int t = 0; t < n; t++) {
      int dr = abs(s / width - t / width), dc = abs(s % width - t % width);
      bool near =
          knight ? s == t || (dr == 1 && dc == 2) || (dr == 2 && dc == 1) : dr <= 1 && dc <= 1;
      if (near) reach[s] |= (uint32_t)1 << t;
    }
  }
  for (int w = 0; w <= n; w++)
    closed[w] = n + 1;
  for (uint32_t x = 0; x < (uint32_t)1 << n; x++) {
    uint32_t near = 0;
    for (int s = 0; s < n; s++)
      if ((x >> s) & 1) near |= reach[s];
    int w = __builtin_popcount(x), c = __builtin_popcount(near);
    if (c < closed[w]) closed[w] = c;
  }
}

/* Whether cells is a peaceable placement of exactly white and black kings. */
static bool peaceable(const pq_board *b, const uint8_t *cells, int white, int black) {
  int nw = 0, nb = 0;
  for (int s = 0; s < b->squares; s++) {
    nw += cells[s] == 1;
    nb += cells[s] == 2;
    for (int t = 0; t < b->squares && cells[s] == 1; t++)
      if (cells[t] == 2 && abs(s / b->width - t / b->width) <= 1 &&
          abs(s % b->width - t % b->width) <= 1)
        return false;
  }
  return nw == white && nb == black;
}

/* A proof's text kept in memory up to `memory` bytes, then in a temporary file: every range
   copied out is the bytes put in, across the boundary; with no temporary file to be had, the
   text says it failed and copies nothing wrong. */
static void text_tests(void) {
  enum { N = 100000 };
  static char want[N];
  for (int i = 0; i < N; i++)
    want[i] = "x.c"[(i * 7 + i / 13) % 3];
  for (int spill = 0; spill < 2; spill++) {
    pq_text t = {.memory = spill ? 1000 : 0};
    for (int i = 0; i < N; i++)
      pq_text_put(&t, want[i]);
    int bad = pq_text_size(&t) != N;
    uint64_t ranges[][2] = {{0, N}, {0, 999}, {999, 1001}, {5000, 5000}, {N - 1, N}, {1234, 98765}};
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
      char *got = NULL;
      size_t len = 0;
      FILE *f = open_memstream(&got, &len);
      bad += pq_text_copy(&t, f, ranges[r][0], ranges[r][1]) != 0;
      fclose(f);
      bad += len != ranges[r][1] - ranges[r][0] || memcmp(got, want + ranges[r][0], len);
      free(got);
    }
    tap_ok(!bad && !t.failed && (t.file != NULL) == spill,
           "a proof's text %s: every range copied out is what was put in",
           spill ? "spilled to a temporary file" : "in memory");
    pq_text_clear(&t);
  }
  setenv("TMPDIR", "/nonexistent/peaceable", 1);
  pq_text t = {.memory = 1000};
  for (int i = 0; i < N; i++)
    pq_text_put(&t, want[i]);
  tap_ok(t.failed && !t.file, "a proof's text with no temporary file to be had: failed, said so");
  pq_text_clear(&t);
  unsetenv("TMPDIR");
}

int main(void) {
  text_tests();
  /* The profile is the least closed neighbourhood over every set, not only down-sets. */
  for (int h = 1; h <= 5; h++)
    for (int w = 1; w <= 5 && w * h <= 20; w++) {
      int want[21], got[21], bad = 0;
      brute_profile(w, h, false, want);
      pq_armies_kings_profile(w, h, got);
      for (int k = 0; k <= w * h; k++)
        bad += want[k] != got[k];
      tap_ok(bad == 0, "kings on %dx%d: the profile agrees with every one of the %d sets", w, h,
             1 << (w * h));
    }
  /* The checker's bound (its own code) agrees with the search's decision, every size pair, and
     every witness is a peaceable placement of the sizes. */
  int sides[][2] = {{1, 1}, {1, 7}, {7, 1},   {2, 9},   {3, 3},  {4, 6},
                    {8, 8}, {9, 5}, {12, 12}, {16, 16}, {13, 17}};
  for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++) {
    pq_board *b = pq_board_new(sides[i][0], sides[i][1]);
    int n = b->squares, disagree = 0, wrong = 0;
    uint8_t cells[PQ_MAX_SQUARES];
    int step = n > 100 ? 13 : 1; /* large boards: a sample of the pairs */
    for (int white = 0; white <= n; white += step)
      for (int black = 0; black <= n - white; black += step) {
        bool fits = pq_armies_kings_decide(b, white, black, false, cells);
        disagree += fits == pq_armies_check_kings_closed(b->width, b->height, white, black);
        if (fits && !peaceable(b, cells, white, black)) wrong++;
      }
    tap_ok(disagree == 0 && wrong == 0,
           "kings on %dx%d: search and checker agree on every size pair, witnesses peaceable",
           b->width, b->height);
    pq_board_free(b);
  }
  /* Knights: the decision against the brute force, every size pair, and its witnesses. */
  for (int h = 1; h <= 5; h++)
    for (int w = 1; w <= 5 && w * h <= 20; w++) {
      int want[21], bad = 0;
      brute_profile(w, h, true, want);
      pq_board *b = pq_board_new(w, h);
      pq_armies_params params;
      pq_armies_params_init(&params);
      for (int white = 0; white <= w * h; white++)
        for (int black = 0; black <= w * h; black++) {
          pq_armies_decision d;
          pq_armies_knights_decision(b, white, black, &params, &d);
          bool fits = black <= w * h - want[white];
          bad += d.found != fits;
          if (d.found) {
            for (int s = 0; s < b->squares; s++)
              for (int t = 0; t < b->squares; t++)
                bad +=
                    d.witness[s] == 1 && d.witness[t] == 2 && pq_attacks_plain(b, PQ_KNIGHT, s, t);
            int nw = 0, nb = 0;
            for (int s = 0; s < b->squares; s++)
              nw += d.witness[s] == 1, nb += d.witness[s] == 2;
            bad += nw != white || nb != black;
          }
          pq_armies_decision_clear(&d);
        }
      tap_ok(bad == 0,
             "knights on %dx%d: every size pair decided as the brute force over all "
             "%d sets, witnesses peaceable",
             w, h, 1 << (w * h));
      pq_board_free(b);
    }
  /* A grown witness of equal armies is the largest equal armies. */
  pq_board *b = pq_board_new(8, 8);
  uint8_t cells[PQ_MAX_SQUARES];
  tap_ok(pq_armies_kings_decide(b, 3, 3, true, cells) && peaceable(b, cells, 27, 27) &&
             !pq_armies_kings_decide(b, 28, 28, false, cells),
         "kings on 8x8: 3 against 3 grows to 27 against 27, and 28 against 28 do not fit");
  pq_board_free(b);
  return tap_done();
}
