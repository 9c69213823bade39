/* config.h: the config calculus, the state of every square of a partial placement. */
#ifndef PQ_CONFIG_H
#define PQ_CONFIG_H

#include <stdbool.h>

#include "board.h"

/* A config gives every square one state: free; holding a piece of some kind; or forbidden to a
   set of kinds (a piece of such a kind there would be in conflict with a piece already placed).
   "Attacked" is the set of all kinds. Placing a piece merges its precomputed config into the
   board's; merging is the union of the forbidden sets, and a clash (a piece on a square
   forbidden to its kind, or two pieces on one square) is an error. An occupied square is also
   forbidden to every kind, so a single test finds every clash (doc/algorithms.md). */

#define PQ_MAX_KINDS 10

/* A kind: a piece type and a colour (0 white, 1 black; 0 where colours do not matter). */
typedef struct pq_kind {
  pq_piece piece;
  int colour;
} pq_kind;

/* Which pairs of pieces conflict when one attacks the other (in either direction). */
typedef enum pq_conflict {
  PQ_CONFLICT_ALL,     /* every pair: "no piece attacks another" */
  PQ_CONFLICT_COLOURS, /* only pairs of different colours: peaceable armies */
  PQ_CONFLICT_NONE     /* no attack matters; only one piece per square */
} pq_conflict;

typedef struct pq_config {
  pq_bits occupied[PQ_MAX_KINDS];  /* squares holding a piece of kind k */
  pq_bits forbidden[PQ_MAX_KINDS]; /* squares where a piece of kind k may not stand */
} pq_config;

/* The calculus of one board and set of kinds: precomputed configs of lone pieces. */
typedef struct pq_calc pq_calc;

/* A new calculus for board b (borrowed: it must outlive the calculus), kinds[0..nkinds-1]
   (copied; 1 <= nkinds <= PQ_MAX_KINDS) and conflict rule. Caller frees with pq_calc_free. */
pq_calc *pq_calc_new(const pq_board *b, int nkinds, const pq_kind *kinds, pq_conflict rule);
void pq_calc_free(pq_calc *c);

const pq_board *pq_calc_board(const pq_calc *c);
int pq_calc_kinds(const pq_calc *c);
pq_kind pq_calc_kind(const pq_calc *c, int k);

/* Whether a piece of kind a on square s and one of kind b on t (s != t) conflict. Computed from
   pq_attacks_plain, independently of the precomputed configs. */
bool pq_calc_conflict(const pq_calc *c, int a, int s, int b, int t);

/* Sets cfg to the empty board: every square free. */
void pq_config_empty(const pq_calc *c, pq_config *cfg);

/* The precomputed config of a lone piece of kind k on square s (owned by the calculus). */
const pq_config *pq_calc_piece(const pq_calc *c, int k, int s);

/* dst = dst merged with src. Returns 0, or -1 on a clash (dst is then unchanged). */
int pq_config_merge(const pq_calc *c, pq_config *dst, const pq_config *src);

/* Whether a piece of kind k may stand on s in cfg. */
static inline bool pq_config_allows(const pq_config *cfg, int k, int s) {
  return !pq_bits_has(&cfg->forbidden[k], s);
}

/* Places a piece of kind k on s: the merge of its config, a few word operations per kind.
   Returns 0, or -1 (cfg unchanged) if s is forbidden to k. */
int pq_config_place(const pq_calc *c, pq_config *cfg, int k, int s);

/* Copies the part of src that the calculus uses into dst. */
void pq_config_copy(const pq_calc *c, pq_config *dst, const pq_config *src);

/* The text of a config, rows top to bottom joined by '/': a piece is its letter (upper case
   for white, lower case for black where colours matter); a free square '.'; a square forbidden
   to every kind 'x'; without colours, one forbidden to every kind but k the lower-case letter
   of k (the only kind that may still stand there); any other forbidden set '+'. buf holds at least
   squares + height bytes. */
void pq_config_text(const pq_calc *c, const pq_config *cfg, char *buf);

#endif
