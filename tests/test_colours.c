/* test_colours.c: armies of 3 and 4 colours (problems/armies/armies_colours.c) against a brute force
   over squares on every board up to 4x4 and a few rectangles, for queens, rooks and bishops:
   the same maximum, every witness peaceable (checked square by square), and the parts of a
   split covering every labelling (a size that fits is found whatever part holds it). */
#include <stdlib.h>
#include <string.h>

#include "../problems/armies/armies_colours.h"
#include "tap.h"

/* Whether k pieces of each of C colours fit, square by square from s: a square stays empty or
   takes a colour none of whose attackers of another colour stands. */
static bool brute(const pq_board *b, pq_piece p, int C, int k, uint8_t *cells, int s, int *have,
                  int left) {
  int missing = 0;
  for (int c = 1; c <= C; c++)
    missing += have[c] < k ? k - have[c] : 0;
  if (!missing) return true;
  if (missing > left) return false;
  for (int c = 1; c <= C; c++) {
    if (have[c] >= k) continue;
    bool free = true;
    for (int t = 0; t < s && free; t++)
      free = !cells[t] || cells[t] == c || !pq_attacks_plain(b, p, s, t);
    if (!free) continue;
    cells[s] = (uint8_t)c;
    have[c]++;
    bool found = brute(b, p, C, k, cells, s + 1, have, left - 1);
    have[c]--;
    cells[s] = 0;
    if (found) return true;
  }
  return brute(b, p, C, k, cells, s + 1, have, left - 1);
}

static int brute_maximum(const pq_board *b, pq_piece p, int C) {
  int k = 0;
  for (;;) {
    uint8_t cells[PQ_COLOURS_MAX_SQUARES] = {0};
    int have[PQ_COLOURS_MAX + 1] = {0};
    if (!brute(b, p, C, k + 1, cells, 0, have, b->squares)) return k;
    k++;
  }
}

/* Decides k with every part on one solver; *ok is false when a witness is not peaceable. */
static bool decide(const pq_board *b, pq_piece p, int C, int k, bool *ok) {
  pq_colours *pc = pq_colours_new(b, p, C, k);
  pq_colours_solver *s = pq_colours_solver_new(pc);
  bool any = false;
  for (int i = 0; i < pq_colours_parts(pc); i++) {
    uint8_t cells[PQ_COLOURS_MAX_SQUARES];
    bool found;
    if (pq_colours_part(s, i, cells, &found, NULL) != PQ_OK) *ok = false;
    if (found && !pq_colours_peaceable(b, p, C, k, cells)) *ok = false;
    any |= found;
  }
  pq_colours_solver_free(s);
  pq_colours_free(pc);
  return any;
}

int main(void) {
  static const int sizes[][2] = {{1, 1}, {2, 2}, {3, 3}, {4, 4}, {2, 5}, {5, 2}, {3, 4},
                                 {4, 3}, {3, 5}, {1, 6}, {5, 4}, {5, 5}, {6, 4}};
  static const pq_piece pieces[] = {PQ_QUEEN, PQ_ROOK, PQ_BISHOP};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
    for (int j = 0; j < 3; j++)
      for (int C = 3; C <= 4; C++) {
        pq_board *b = pq_board_new(sizes[i][0], sizes[i][1]);
        pq_piece p = pieces[j];
        int want = brute_maximum(b, p, C), got = 0;
        bool ok = true;
        while (decide(b, p, C, got + 1, &ok))
          got++;
        tap_ok(got == want && ok, "%d colours of %c on %dx%d: maximum %d (brute force %d)%s", C,
               pq_piece_letters[p], b->width, b->height, got, want,
               ok ? "" : ", a witness not peaceable");
        pq_board_free(b);
      }
  /* The witness text reads back, and a placement with two colours on one line is refused. */
  pq_board *b = pq_board_new(4, 4);
  uint8_t cells[PQ_COLOURS_MAX_SQUARES];
  tap_ok(pq_colours_parse(b, PQ_QUEEN, 3, 1, "...1/2.../..3./....", cells) == PQ_OK,
         "a peaceable placement of 3 colours parses");
  tap_ok(pq_colours_parse(b, PQ_QUEEN, 3, 1, "1..2/..../..3./....", cells) != PQ_OK,
         "two colours on one row are refused");
  tap_ok(pq_colours_parse(b, PQ_QUEEN, 3, 1, "...1/2.../..../....", cells) != PQ_OK,
         "a colour missing is refused");
  pq_board_free(b);
  return tap_done();
}
