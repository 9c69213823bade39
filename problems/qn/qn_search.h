/* qn_search.h: the search of qn as the engine (src/run/engine.h) runs it; private to qn_search.c
   (the search) and qn_run.c (its calls: decisions, counts, listings, part lines and merges). */
#ifndef PQ_QN_SEARCH_H
#define PQ_QN_SEARCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "../../src/core/config.h"
#include "../../src/run/engine.h"
#include "qn.h"

/* The engine works on rows: a set of squares is one 32-bit mask per row (bit c is column c),
   which fits every board (sides up to 32) and gives row counts for free. Every mask comes from
   the calculus' precomputed lone-piece configs; this file computes no attack itself. Kind 0 of
   the calculus is the "outer" kind, placed first; kind 1 the "inner" kind, placed on what the
   outer pieces leave. */
struct pq_qn {
  const pq_board *board;
  int width, height, squares, nsyms;
  pq_piece piece[2]; /* the user's first and second kinds */
  int ratio[2];
  int outer;          /* the user's index (0, 1) of the kind placed first */
  bool outer_per_row; /* at most one outer piece per row (queen, rook) */
  pq_calc *calc;
  uint32_t *outer_block; /* [s * height + r]: where an outer piece on s forbids outer pieces */
  uint32_t *inner_block; /* ... where an outer piece on s forbids inner pieces */
  uint32_t *inner_adj;   /* ... where an inner piece on s forbids inner pieces */
  int *image;            /* [g * squares + s]: the image of s under symmetry g */
  int *least_image;      /* [s]: the least image of s over the group */
};

typedef enum pq_qn_mode { PQ_QN_DECIDE, PQ_QN_COUNT } pq_qn_mode;

/* One part's outcome, as the engine keeps it. */
typedef struct pq_qn_outcome {
  pq_count count, unique; /* counting: placements of the size, its share of the classes */
  pq_count plain_fixed;   /* counting with symmetry off: its share of Burnside's sum */
  uint8_t found;          /* deciding: a witness lies in this part (its text is the part's) */
} pq_qn_outcome;

/* A search splits into parts: the placements of the first `depth` outer pieces, in the order of
   the search. Every thread walks the same tree of parts (it is small: the first two or three
   outer pieces) and searches the parts the engine (src/run/engine.h) hands it, so each part is
   searched exactly as one thread would. One call's view of it, shared by the threads: */
typedef struct pq_qn_call {
  const pq_qn *q;
  int m;
  pq_qn_mode mode;
  const pq_qn_limits *lim;
  int depth;            /* a part: the first `depth` outer squares */
  uint64_t parts;       /* the number of parts (0: the bounds leave none) */
  pq_status split;      /* PQ_OK, or why making the parts stopped (the deadline, the race) */
  uint64_t fingerprint; /* of the board, kinds, ratio, size and every part's squares */
  pq_qn_visit_fn visit; /* counting: the caller's visitor, or NULL */
  void *visit_ctx;
  bool one_per_class;
  atomic_int stopped;          /* the visitor asked to stop */
  atomic_uint_fast64_t polled; /* nodes passed on to the engine */
  atomic_int overflow;
  /* Deciding: the witness, from the text of the part that decided (or, in a merge, of the first
     part with one; every other is checked too). */
  uint8_t *witness;
  bool found;
  uint64_t witness_part; /* the subpart of that witness */
  bool merging;          /* texts come from part lines: each is checked */
  bool bad;              /* merging: a text was not a placement of the size */
  char kinds[3];         /* the letters of the two kinds */
  char head[192];        /* the engine's head and label */
  char label[160];
  char why[160];  /* what a listing's text check found */
  uint64_t *keys; /* a listing's parts' keys (pq_qn_part_key), made when a text is checked */
} pq_qn_call;

/* Counts the parts of c's search (c->depth, c->parts, c->fingerprint); with first not NULL (after
   a call that counted them), each part's first square goes to an array of c->parts + 1 elements
   (caller frees) in first. */
void pq_qn_split(pq_qn_call *c, int **first, uint64_t **keys);

/* A part's key: its first depth outer squares (in increasing order), sixteen bits each, the
   first the highest; with keys not NULL, pq_qn_split gives every part's, in the order of the
   parts, which is the keys' increasing order (the search places outer pieces square after
   square). */
uint64_t pq_qn_part_key(const int *squares, int depth);

/* The least, in lexicographic order, of the sorted images of squares sq[0..n-1] (increasing)
   under the symmetries of q, into least[0..n-1]: the set the search places, among its images. */
void pq_qn_least_image(const pq_qn *q, const int *sq, int n, int *least);

/* The engine's solver of call c (one per thread), and its run: searches the parts
   pq_engine_next gives (pq_engine_problem.run). */
void *pq_qn_solver_new(void *call);
void pq_qn_solver_free(void *solver);
uint64_t pq_qn_solver_nodes(const void *solver);
pq_status pq_qn_search_parts(void *call, void *solver, pq_engine_worker *w);

#endif
