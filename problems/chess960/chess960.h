/* chess960.h: Chess960 back ranks, found by search, and their Scharnagl numbering. */
#ifndef PQ_CHESS960_H
#define PQ_CHESS960_H

#include <stdint.h>

#include "../../src/core/util.h"

/* A back rank is a string of 8 upper-case letters K Q R B N, files a to h: white's first rank
   as seen from white (black's rank mirrors it across the board, in lower case). */
#define PQ_CHESS960_FILES 8
typedef char pq_chess960_rank[PQ_CHESS960_FILES + 1];

/* Finds every Chess960 back rank by the exhaustive search of the config calculus on an 8x1
   board (one K, one Q, two R, two B, two N, no attack mattering), the search's accept callback
   enforcing the two rules: bishops on squares of opposite colours, the king between the rooks.
   Sets *ranks to a new array of the ranks in the order found (caller frees with free()) and
   *count to their number, and returns PQ_OK; or returns PQ_EINTR (nothing allocated) when
   pq_interrupted stopped the search. */
pq_status pq_chess960_search(pq_chess960_rank **ranks, int *count);

/* Whether text is a Chess960 back rank: 8 letters, all upper-case K Q R B N, one K, one Q, two
   R, two B, two N, the bishops on squares of opposite colours, the king between the rooks.
   Returns PQ_OK, or PQ_EINVAL with one message on stderr naming text and the first rule broken
   (in that order). */
pq_status pq_chess960_check(const char *text);

/* The number of ranks the Scharnagl scheme numbers: the product of its choices (light-square
   bishop, dark-square bishop, queen, knight pair). */
int pq_chess960_numbers(void);

/* The Scharnagl number of a back rank that passes pq_chess960_check (misuse aborts), computed
   from the definition: n = light + 4 * (dark + 4 * (queen + 6 * knights)), where light is the
   light-square bishop's place among b d f h, dark the dark-square bishop's among a c e g, queen
   the queen's place among the 6 squares the bishops leave, knights the entry of the standard
   10-entry table giving the knights' places among the 5 squares left; R K R fill the last 3. */
int pq_chess960_number(const char *rank);

/* Writes the back rank whose Scharnagl number is n (0 <= n < pq_chess960_numbers(); misuse
   aborts) into rank, by the same definition run backwards. */
void pq_chess960_rank_of(int n, pq_chess960_rank rank);

/* A number in [0, n) drawn from seed (n >= 1): deterministic for a given seed, uniform over
   seeds (splitmix64 with rejection, so no modulo bias). */
uint64_t pq_chess960_draw(uint64_t seed, uint64_t n);

/* Writes the FEN of the starting position with back rank `rank` (white on rank 1, black's
   mirror on rank 8, pawns on ranks 2 and 7) into fen (at least 80 bytes). Castling rights are
   written "KQkq" (X-FEN: in a starting position each side's castling rook is the only rook on
   its side of the king, so the letters are unambiguous). */
void pq_chess960_fen(const char *rank, char *fen);

#endif
