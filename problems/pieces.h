/* pieces.h: anarchist pieces (no colours): placements where no piece attacks another. */
#ifndef PQ_PIECES_H
#define PQ_PIECES_H

#include "../src/board.h"

/* Parses a piece spec such as "K2Q2B2N1" into counts[PQ_NPIECES]: each letter K Q R B N (either
   case) at most once, followed by a count from 0 to squares (omitted: 1). Returns PQ_OK, or
   PQ_EINVAL with a message naming spec and the fault (unknown letter, bad count, repeated
   letter, more pieces than the board's squares). */
pq_status pq_pieces_parse(const char *spec, int squares, int counts[PQ_NPIECES]);

#endif
