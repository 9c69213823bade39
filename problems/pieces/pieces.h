/* pieces.h: anarchist pieces (no colours): placements where no piece attacks another. */
#ifndef PQ_PIECES_H
#define PQ_PIECES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../../src/core/board.h"
#include "../../src/core/search.h"
#include "../../src/core/sym.h"

/* Parses a piece spec such as "K2Q2B2N1" into counts[PQ_NPIECES]: each letter K Q R B N (either
   case) at most once, followed by a count from 0 to squares (omitted: 1). Returns PQ_OK, or
   PQ_EINVAL with a message naming what ("--pieces", or "pieces" of a file), spec and the fault
   (unknown letter, bad count, repeated
   letter, more pieces than the board's squares). */
pq_status pq_pieces_parse(const char *what, const char *spec, int squares, int counts[PQ_NPIECES]);

/* A solver for one board and one mix of pieces. Placements are cells arrays (placement.h):
   code c (1..) stands for the piece letter pq_pieces_letters(p)[c - 1], the types present in
   K Q R B N order. Each call below runs to completion unless a limit stops it. */
typedef struct pq_pieces pq_pieces;

/* A new solver for counts[t] pieces of each type t on board b (borrowed: it must outlive the
   solver); the counts must fit on the board (pq_pieces_parse checks that). Builds the config
   calculus of the board and copies its lone-piece configs into compact tables. Caller frees with
   pq_pieces_free. */
pq_pieces *pq_pieces_new(const pq_board *b, const int counts[PQ_NPIECES]);
void pq_pieces_free(pq_pieces *p);

/* The letters of the codes, NUL-terminated ("" when no piece is placed). */
const char *pq_pieces_letters(const pq_pieces *p);

/* Whether counts fit in 128 bits: PQ_OK when an upper bound on the number of placements (the
   product over piece types of the ways to choose their squares, with queens and rooks on
   distinct rows and columns) times 8 (for Burnside's sum) is below 2^128; otherwise PQ_EINVAL
   after a message naming spec (the text to quote, e.g. the --pieces value) and the board. Every
   counting call below makes this check first and fails the same way, so a count never wraps. */
pq_status pq_pieces_check_size(const pq_pieces *p, const char *spec);

/* Limits for the calls that follow: stop with PQ_ELIMIT once the solver has placed node_limit
   pieces in all (0: no limit) or once pq_now() passes deadline (0: none). Every call also stops
   with PQ_EINTR when pq_interrupted is set. */
void pq_pieces_set_limits(pq_pieces *p, uint64_t node_limit, double deadline);

/* Pieces placed so far by all calls (the search nodes). */
uint64_t pq_pieces_nodes(const pq_pieces *p);

/* Asked every few thousand nodes, with the nodes placed since it was last asked: returns PQ_OK
   to go on, or the status (PQ_ELIMIT, PQ_EINTR) to stop the call with. */
typedef pq_status (*pq_pieces_poll_fn)(void *ctx, uint64_t nodes);

/* Sets the poll of the calls that follow (NULL: none); the limits and pq_interrupted are still
   checked first. For a run on several threads: a shared node limit, stopping the others. */
void pq_pieces_set_poll(pq_pieces *p, pq_pieces_poll_fn poll, void *ctx);

/* The pieces as a spec in K Q R B N order, e.g. "K2Q1B2N3" (the same for every way of writing
   the same pieces); "K0" when there are none. */
const char *pq_pieces_spec(const pq_pieces *p);

/* Counts every placement into *count. With use_symmetry the search places the first kinds only
   up to the board's symmetries and weighs each by its orbit's size (the same count, faster);
   without it, every placement is reached. Returns PQ_OK, PQ_EINVAL (see pq_pieces_check_size),
   PQ_ELIMIT or PQ_EINTR; *count is set only on PQ_OK. */
pq_status pq_pieces_count(pq_pieces *p, bool use_symmetry, pq_count *count);

/* Counts the placements that symmetry g (valid on the board, see sym.h) maps to themselves.
   Returns as pq_pieces_count. */
pq_status pq_pieces_count_fixed(pq_pieces *p, pq_sym g, pq_count *count);

/* Counts the placements up to the board's symmetries by Burnside's lemma: the average over the
   group of pq_pieces_count_fixed, where total is the identity's term (every placement, from
   pq_pieces_count). Lists nothing. Returns as pq_pieces_count. */
pq_status pq_pieces_count_unique(pq_pieces *p, pq_count total, pq_count *unique);

/* A count split into parts (numbered from 0), for threads, --part I/N and checkpoints: the
   search's tree cut at a depth chosen so that there are thousands of parts where the tree allows
   (at most 65,536); with unique, then the parts of Burnside's other terms (the placements fixed
   by each symmetry other than the identity). The parts depend only on the board, the pieces and
   unique, and so does the fingerprint. */
typedef struct pq_pieces_split pq_pieces_split;

/* Computes the split of p's count (with unique, and Burnside's other terms), walking the top of
   the search (p must not be in a call). Caller frees with pq_pieces_split_free. */
pq_pieces_split *pq_pieces_split_new(pq_pieces *p, bool unique);
void pq_pieces_split_free(pq_pieces_split *sp);

/* The number of parts (at least 1). */
uint64_t pq_pieces_split_parts(const pq_pieces_split *sp);

/* A fingerprint of the split: the board, the pieces, unique and every part's place in the tree
   (FNV-1a on words). Parts of splits with different fingerprints do not add up. */
uint64_t pq_pieces_split_id(const pq_pieces_split *sp);

/* Whether part (< the number of parts) is one of Burnside's other terms rather than a part of
   the count. */
bool pq_pieces_split_fixed(const pq_pieces_split *sp, uint64_t part);

/* Who asks for parts and takes their counts. */
typedef struct pq_pieces_worker {
  /* The next part to count: greater than every part it gave before; the number of parts or more
     (UINT64_MAX, say) when there is none. */
  uint64_t (*next)(void *ctx);
  /* Part `part` is counted: count (its share of the count, or of Burnside's sum of the other
     terms) and the nodes it took. */
  void (*done)(void *ctx, uint64_t part, pq_count count, uint64_t nodes);
  /* For a listing in parts (pq_pieces_split_list), instead of done: part `part` is listed, with
     the placements it reached, the nodes it took and its lines (bytes of them, valid during the
     call). */
  void (*done_lines)(void *ctx, uint64_t part, pq_count reached, uint64_t nodes, const char *lines,
                     size_t bytes);
  void *ctx;
} pq_pieces_worker;

/* Counts the parts that w->next asks for, in increasing order, with solver p (built for the
   board and pieces of the split; one solver per thread), and hands each count to w->done.
   Returns PQ_OK once next has no more, PQ_EINVAL (see pq_pieces_check_size), PQ_ELIMIT or PQ_EINTR
   (the part being counted is then not handed on). */
pq_status pq_pieces_split_run(pq_pieces *p, const pq_pieces_split *sp, const pq_pieces_worker *w);

/* What to do with the placements listed by pq_pieces_list. */
typedef struct pq_pieces_listing {
  bool unique;    /* only placements equal to their canonical form (pq_sym_canonical) */
  uint64_t limit; /* stop once this many are listed; 0: no limit */
  /* Called with each listed placement (cells valid during the call); nonzero stops the
     listing. NULL: none. */
  pq_solution_fn on_placement;
  void *ctx;
  /* If not NULL, each listed placement is also written here as one line: prefix, the
     placement's text (placement.h), suffix, newline. The writing is buffered in the solver and
     done before pq_pieces_list returns. */
  FILE *out;
  const char *prefix, *suffix; /* NULL: "" */
} pq_pieces_listing;

/* Sets every default: all placements, no limit, no callback, no output. */
void pq_pieces_listing_init(pq_pieces_listing *l);

typedef struct pq_pieces_listed {
  pq_count listed;  /* placements listed */
  pq_count reached; /* placements reached, listed or not (all of them when complete) */
  bool complete;    /* every placement was reached: not stopped by the limit or the callback */
} pq_pieces_listed;

/* Lists placements in the search's order (deterministic, each once) in constant memory. Returns
   PQ_OK (also when the limit or the callback stopped the listing), PQ_ELIMIT, PQ_EINTR, or PQ_EIO
   if writing to l->out failed (no message); *out is set in every case. */
pq_status pq_pieces_list(pq_pieces *p, const pq_pieces_listing *l, pq_pieces_listed *out);

/* The split of the listing's search (every placement, no symmetry) into parts, numbered in the
   listing's order: part i's placements all come before part i + 1's. Free with
   pq_pieces_split_free. */
pq_pieces_split *pq_pieces_split_new_list(pq_pieces *p);

/* Lists the parts w->next asks for (split sp from pq_pieces_split_new_list), each whole in the
   order of pq_pieces_list, and hands each part's lines (placement lines, no prefix or suffix) to
   w->done_lines. l gives unique and the limit, which limits each part on its own; it has no
   callback and no out. Returns PQ_OK once next has no more, PQ_ELIMIT or PQ_EINTR (the part under
   way is then not handed on). */
pq_status pq_pieces_split_list(pq_pieces *p, const pq_pieces_split *sp, const pq_pieces_listing *l,
                               const pq_pieces_worker *w);

#endif
