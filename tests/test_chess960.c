/* test_chess960.c: the searched Chess960 ranks against a plain enumeration, and the Scharnagl
   numbering as a bijection onto them. */
#include <stdlib.h>
#include <string.h>

#include "../problems/chess960/chess960.h"
#include "tap.h"

/* Every arrangement of the multiset of pieces, by recursion over the letters left. */
typedef struct brute {
  pq_chess960_rank *ranks;
  int count;
} brute;

/* The rules checked from the text alone: the two bishops' files differ in parity (a1 dark,
   b1 light...), and the king stands between the first and the last rook. */
static int plain_rules(const char *r) {
  int b1 = (int)(strchr(r, 'B') - r), b2 = (int)(strrchr(r, 'B') - r);
  int r1 = (int)(strchr(r, 'R') - r), r2 = (int)(strrchr(r, 'R') - r);
  int k = (int)(strchr(r, 'K') - r);
  return (b1 + b2) % 2 == 1 && r1 < k && k < r2;
}

static void arrange(brute *br, char *rank, int at, int left[5]) {
  static const char letters[] = "KQRBN";
  if (at == 8) {
    rank[8] = '\0';
    if (plain_rules(rank)) memcpy(br->ranks[br->count++], rank, 9);
    return;
  }
  for (int i = 0; i < 5; i++)
    if (left[i]) {
      left[i]--;
      rank[at] = letters[i];
      arrange(br, rank, at + 1, left);
      left[i]++;
    }
}

static int by_text(const void *a, const void *b) { return strcmp(a, b); }

int main(void) {
  pq_chess960_rank *ranks = NULL;
  int count = 0;
  pq_status rc = pq_chess960_search(&ranks, &count);
  tap_ok(rc == PQ_OK, "the search runs to the end (status %d)", (int)rc);
  tap_ok(count == 960, "the search finds 960 ranks (found %d)", count);

  /* The plain enumeration: all 8!/(2!2!2!) = 5040 arrangements, filtered by the text rules. */
  brute br = {malloc(5040 * sizeof *br.ranks), 0};
  int left[5] = {1, 1, 2, 2, 2};
  char rank[9];
  arrange(&br, rank, 0, left);
  tap_ok(br.count == 960, "the plain enumeration finds 960 ranks (found %d)", br.count);
  pq_chess960_rank *sorted = malloc((size_t)count * sizeof *sorted);
  memcpy(sorted, ranks, (size_t)count * sizeof *sorted);
  qsort(sorted, (size_t)count, sizeof *sorted, by_text);
  qsort(br.ranks, (size_t)br.count, sizeof *br.ranks, by_text);
  int duplicates = 0;
  for (int i = 1; i < count; i++)
    duplicates += !strcmp(sorted[i - 1], sorted[i]);
  tap_ok(duplicates == 0, "the search finds each rank once (%d repeats)", duplicates);
  tap_ok(count == br.count && !memcmp(sorted, br.ranks, (size_t)count * sizeof *sorted),
         "the search's ranks are exactly the plain enumeration's");

  int rejected = 0;
  for (int i = 0; i < count; i++)
    rejected += pq_chess960_check(ranks[i]) != PQ_OK;
  tap_ok(rejected == 0, "pq_chess960_check accepts every rank found (%d rejected)", rejected);

  /* The numbering: a bijection from the ranks found onto 0 .. count - 1. */
  tap_ok(pq_chess960_numbers() == count, "the scheme numbers %d ranks, as many as found",
         pq_chess960_numbers());
  int *seen = calloc((size_t)count, sizeof *seen), out_of_range = 0, twice = 0, round_trip = 0;
  for (int i = 0; i < count; i++) {
    int n = pq_chess960_number(ranks[i]);
    if (n < 0 || n >= count) {
      out_of_range++;
      continue;
    }
    twice += seen[n]++ > 0;
    pq_chess960_rank back;
    pq_chess960_rank_of(n, back);
    round_trip += strcmp(back, ranks[i]) != 0;
  }
  tap_ok(out_of_range == 0 && twice == 0,
         "the numbers of the ranks found are distinct and in 0..%d (%d out of range, %d twice)",
         count - 1, out_of_range, twice);
  tap_ok(round_trip == 0, "rank_of(number(rank)) == rank for every rank found (%d differ)",
         round_trip);
  int bad_decode = 0;
  for (int n = 0; n < pq_chess960_numbers(); n++) {
    pq_chess960_rank r;
    pq_chess960_rank_of(n, r);
    pq_chess960_rank *hit = bsearch(r, sorted, (size_t)count, sizeof *sorted, by_text);
    bad_decode += !hit || pq_chess960_number(r) != n;
  }
  tap_ok(bad_decode == 0, "every number decodes to a rank found, numbered back the same (%d bad)",
         bad_decode);

  /* Known values of the scheme (Scharnagl's table; the classical rank is 518). */
  static const struct {
    int number;
    const char *rank;
  } known[] = {{0, "BBQNNRKR"}, {1, "BQNBNRKR"},   {2, "BQNNRBKR"},
               {3, "BQNNRKRB"}, {518, "RNBQKBNR"}, {959, "RKRNNQBB"}};
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
    pq_chess960_rank r;
    pq_chess960_rank_of(known[i].number, r);
    tap_ok(pq_chess960_number(known[i].rank) == known[i].number && !strcmp(r, known[i].rank),
           "%s is number %d (numbered %d; %d decodes to %s)", known[i].rank, known[i].number,
           pq_chess960_number(known[i].rank), known[i].number, r);
  }

  /* Bad ranks: each rule. */
  static const char *const bad[] = {"",         "RNBQKBN",  "RNBQKBNRR", "rnbqkbnr", "RNBQKBNX",
                                    "RRBQKBNN", "RNBQKBNN", "BRBQKRNN",  "KRBQRBNN", "RQBQKBNR"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    tap_ok(pq_chess960_check(bad[i]) == PQ_EINVAL, "\"%s\" is refused (message on stderr)", bad[i]);

  char fen[96];
  pq_chess960_fen("RNBQKBNR", fen);
  tap_ok(!strcmp(fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), "FEN of 518: %s",
         fen);

  /* Draws: deterministic, in range, and spread evenly over seeds. */
  int differ = 0, hits[960] = {0}, outside = 0;
  for (uint64_t seed = 0; seed < 96000; seed++) {
    uint64_t d = pq_chess960_draw(seed, 960);
    differ += d != pq_chess960_draw(seed, 960);
    if (d < 960)
      hits[d]++;
    else
      outside++;
  }
  int least = hits[0], most = hits[0];
  for (int i = 1; i < 960; i++) {
    if (hits[i] < least) least = hits[i];
    if (hits[i] > most) most = hits[i];
  }
  tap_ok(differ == 0 && outside == 0, "draws repeat for a seed and stay in range");
  /* Each of 960 values expects 100 hits of 96000 (sd 10): 50..150 is five sd each way. */
  tap_ok(least >= 50 && most <= 150, "draws are even over seeds: %d..%d hits per value", least,
         most);
  tap_ok(pq_chess960_draw(12345, 1) == 0, "a draw from one value gives 0");

  free(seen);
  free(sorted);
  free(br.ranks);
  free(ranks);
  return tap_done();
}
