/* armies_lines.h: the internals of the armies search that its files share (armies_search.c:
   deciding and splitting; armies_counting.c: counting). Not an interface: include it only there. */
#ifndef PQ_ARMIES_LINES_H
#define PQ_ARMIES_LINES_H

#include <pthread.h>

#include "../../src/core/search.h"
#include "../../src/run/progress.h"
#include "armies.h"

/* At most 6 * 32 - 2 lines on a 32x32 board. */
#define MAX_LINES 192
#define LINE_WORDS (MAX_LINES / 64)

struct pq_armies {
  const pq_board *board;
  pq_piece piece;
  bool line_piece;
  int nlines;              /* the lines along which the piece attacks */
  int line_id[MAX_LINES];  /* their board line ids */
  int index_of[MAX_LINES]; /* board line id -> index into line_id (the piece's lines only) */
  int square_lines[PQ_MAX_SQUARES][PQ_NDIRS]; /* per square: indices into line_id */
  int dirs;                                   /* lines per square */
  int dir_end[PQ_NDIRS]; /* the piece's lines of its d-th direction end before dir_end[d] */
};

/* Whether piece p attacks along direction d (board.h's PQ_ROW ... PQ_ANTIDIAGONAL). */
static inline bool pq_armies_piece_has_dir(pq_piece p, int d) {
  if (p == PQ_QUEEN) return true;
  if (p == PQ_ROOK) return d == PQ_ROW || d == PQ_COLUMN;
  if (p == PQ_BISHOP) return d == PQ_DIAGONAL || d == PQ_ANTIDIAGONAL;
  return false;
}

/* The direction (0 .. a->dirs - 1) of the piece's line l (an index into line_id). */
static inline int pq_armies_line_dir(const struct pq_armies *a, int l) {
  int d = 0;
  while (l >= a->dir_end[d])
    d++;
  return d;
}

/* A growable string for proof trees. */
typedef struct strbuf {
  char *text;
  size_t len, cap;
} strbuf;

/* What all threads of one search share. */
typedef struct shared {
  const pq_armies *a;
  const pq_armies_params *p;
  int need_w, need_b;
  bool either; /* deciding: a placement of need_b white and need_w black will do as well (the
                  colours exchanged, for unequal armies); never when counting */
  int also;    /* with either: a placement of also against also will do as well (0: none) */
  double deadline;
  pthread_mutex_t lock;
  uint64_t nodes;    /* nodes of finished chunks, all threads */
  volatile int stop; /* a limit or an interrupt: every thread unwinds */
  pq_progress progress;
  char label[64];
  pq_status status;
  uint64_t polled; /* a count's part: the nodes told to p->poll so far (one thread) */
} shared;

/* One thread's search of one cube. */
typedef struct searcher {
  shared *sh;
  uint64_t nodes;
  bool stop;
  /* deciding */
  bool found;
  pq_bits found_w, found_b;
  strbuf *tree;                                 /* NULL unless a proof is recorded */
  int x[MAX_LINES], y[MAX_LINES], z[MAX_LINES]; /* per line: open to white, black, both */
  int wc, bc;                                   /* squares open to white, to black */
  int knap_first;                               /* the direction whose knapsack is tried first */
  /* splitting (split_at >= 0): nodes at depth split_at become parts, marked '#' in the tree */
  int depth, split_at;
  struct part *parts;
  int nparts, parts_cap;
  /* counting */
  bool counting;
  uint64_t out[LINE_WORDS]; /* lines decided "out" (white may not use them) */
  int outs[PQ_NDIRS];       /* of them, per direction (a count below a split's cube) */
  pq_count count;
  bool overflow;
  pq_armies_visit visit;
  void *ctx;
  int weight; /* placements each one found stands for (its cube's orbit under the board) */
} searcher;

/* A part of the search: a node of a cube at the split depth, searched on its own. */
typedef struct part {
  pq_bits W, B;
} part;

/* The cubes of the symmetry split: assignments of a set S of lines closed under the board's
   group, one per orbit of the group (with colour exchange, which swaps "in" and "out", when
   the armies are equal). */
typedef struct cube {
  pq_bits W, B;
  char *text; /* 'i' or 'o' per split line */
  int room;   /* the smaller of the squares open to white and to black */
  int orbit;  /* assignments in its orbit */
} cube;

/* Appends s[0..n-1] to b. */
void pq_armies_sb_put(strbuf *b, const char *s, size_t n);

/* Sets up what the threads of one search of white against black share. */
void pq_armies_shared_init(shared *sh, const pq_armies *a, int white, int black,
                           const pq_armies_params *p);

/* Sets e's per-line counts for the open sets W and B. */
void pq_armies_start_counts(searcher *e, const pq_bits *W, const pq_bits *B);

/* The branch and bound over lines from the open sets (W, B); false when it must unwind. */
bool pq_armies_lines_rec(searcher *e, const pq_bits *W, const pq_bits *B);

/* The cubes of the symmetry split (colour exchange too with complement): their number, the split
   lines in split[0..*nsplit-1], the cubes in *out (caller frees, and their texts). Without
   symmetry, every cube of the split lines, each its own orbit (a listing's parts). */
int pq_armies_make_cubes(const pq_armies *a, bool complement, bool symmetry, int *split,
                         int *nsplit, cube **out);

#endif
