/* test_armies_local.c: the local search's contract (TAP): its witnesses are peaceable and of
   the size it returns, for every piece and on rectangles; the same seed repeats; a fixed white
   army stands exactly; the deadline, the cancel flag and a zero budget stop it. */
#include <stdlib.h>
#include <string.h>

#include "../problems/armies/armies_local.h"
#include "tap.h"

/* Whether cells (1 white, 2 black) are peaceable, by plain geometry; counts each army. */
static int peaceable(const pq_board *b, pq_piece p, const uint8_t *cells, int army[2]) {
  army[0] = army[1] = 0;
  for (int s = 0; s < b->squares; s++) {
    if (cells[s] > 2) return 0;
    if (cells[s]) army[cells[s] - 1]++;
    for (int t = 0; t < b->squares; t++)
      if (cells[s] == 1 && cells[t] == 2 && pq_attacks_plain(b, p, s, t)) return 0;
  }
  return 1;
}

/* Equal armies of every piece on a rectangle: peaceable, of the size returned, at least floor. */
static void test_pieces(void) {
  static const int floors[PQ_NPIECES] = {
      [PQ_KING] = 40, [PQ_QUEEN] = 14, [PQ_ROOK] = 25, [PQ_BISHOP] = 30, [PQ_KNIGHT] = 40};
  pq_board *b = pq_board_new(14, 9);
  uint8_t cells[PQ_MAX_SQUARES];
  for (int p = 0; p < PQ_NPIECES; p++) {
    pq_armies_local_params params;
    pq_armies_local_params_init(&params);
    params.moves = 500000;
    int k = pq_armies_local_find(b, (pq_piece)p, &params, cells), army[2];
    /* Checked before the report: its arguments read the counts. */
    int fits = peaceable(b, (pq_piece)p, cells, army);
    tap_ok(fits && army[0] == k && army[1] == k && k >= floors[p],
           "%c on 14x9: %d against %d, peaceable (at least %d)", pq_piece_letters[p], army[0],
           army[1], floors[p]);
  }
  pq_board_free(b);
}

/* The same seed, the same witness; another seed is another walk. */
static void test_seed(void) {
  pq_board *b = pq_board_new(13, 13);
  static uint8_t first[PQ_MAX_SQUARES], again[PQ_MAX_SQUARES], other[PQ_MAX_SQUARES];
  pq_armies_local_params params;
  pq_armies_local_params_init(&params);
  params.moves = 300000;
  params.seed = 11;
  int k1 = pq_armies_local_find(b, PQ_QUEEN, &params, first);
  int k2 = pq_armies_local_find(b, PQ_QUEEN, &params, again);
  tap_ok(k1 == k2 && !memcmp(first, again, (size_t)b->squares), "seed 11 twice: the same witness");
  params.seed = 12;
  params.moves = 20000; /* short walks, which differ */
  pq_armies_local_find(b, PQ_QUEEN, &params, other);
  params.seed = 11;
  pq_armies_local_find(b, PQ_QUEEN, &params, again);
  tap_ok(memcmp(other, again, (size_t)b->squares) != 0, "seeds 11 and 12: different walks");
  pq_board_free(b);
}

/* A fixed white army stands exactly, black as large as found; an impossible one gives -1. */
static void test_white(void) {
  pq_board *b = pq_board_new(12, 12);
  uint8_t cells[PQ_MAX_SQUARES];
  pq_armies_local_params params;
  pq_armies_local_params_init(&params);
  params.moves = 1000000;
  params.white = 10;
  int k = pq_armies_local_find(b, PQ_QUEEN, &params, cells), army[2];
  int fits = peaceable(b, PQ_QUEEN, cells, army);
  tap_ok(fits && army[0] == 10 && army[1] == k && k > 21,
         "10 white queens on 12x12: %d black, peaceable (more than 21)", k);
  params.white = 145;
  params.moves = 10000;
  tap_ok(pq_armies_local_find(b, PQ_QUEEN, &params, cells) == -1,
         "145 white queens on 12x12 (144 squares): none found (-1)");
  params.white = 5;
  k = pq_armies_local_find(b, PQ_KNIGHT, &params, cells);
  fits = peaceable(b, PQ_KNIGHT, cells, army);
  tap_ok(fits && army[0] == 5 && army[1] == k && k > 100,
         "5 white knights on 12x12: %d black, peaceable", k);
  pq_board_free(b);
}

/* A passed deadline or a set cancel flag ends a huge budget at once; zero moves do nothing. */
static void test_stops(void) {
  pq_board *b = pq_board_new(32, 32);
  uint8_t cells[PQ_MAX_SQUARES];
  pq_armies_local_params params;
  pq_armies_local_params_init(&params);
  params.moves = (uint64_t)1 << 50;
  params.deadline = pq_now() + 0.2;
  double t0 = pq_now();
  int k = pq_armies_local_find(b, PQ_QUEEN, &params, cells), army[2];
  double took = pq_now() - t0;
  int fits = peaceable(b, PQ_QUEEN, cells, army);
  tap_ok(took < 5 && fits && army[1] == k && k > 0,
         "a deadline 0.2 s away: stopped after %.2f s with %d, peaceable", took, k);
  static const volatile int cancel = 1;
  params.deadline = 0;
  params.cancel = &cancel;
  t0 = pq_now();
  pq_armies_local_find(b, PQ_QUEEN, &params, cells);
  tap_ok(pq_now() - t0 < 5, "a set cancel flag: stopped at once");
  params.cancel = NULL;
  params.moves = 0;
  k = pq_armies_local_find(b, PQ_ROOK, &params, cells);
  fits = peaceable(b, PQ_ROOK, cells, army);
  tap_ok(fits && army[0] == k && army[1] == k, "no moves: a peaceable witness of %d", k);
  pq_board_free(b);
}

int main(void) {
  test_pieces();
  test_seed();
  test_white();
  test_stops();
  return tap_done();
}
