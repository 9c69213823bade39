/* armies_colours_check.h: the internals of the checker of certificates of several colours that its
   two files share (armies_colours_check.c: geometry, bounds, proofs of infeasibility, the claim;
   armies_colours_check_count.c: count certificates). Not an interface: include it only there. */
#ifndef PQ_ARMIES_COLOURS_CHECK_H
#define PQ_ARMIES_COLOURS_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "../../src/check/check.h"

#define MAX_COLOURS 15
#define MAX_SPLIT 16
#define MAX_STATES 40000

typedef struct checker {
  int width, height, squares, piece; /* piece: 1 queen, 2 rook, 3 bishop (index in "KQRBN") */
  int colours, need;                 /* the size proven not to fit, each colour */
  int lines;                         /* line ids 0 .. lines - 1 (doc/certificate.md, "Lines") */
  int *line_square, *line_length;    /* [l * PQ_CHECK_MAX_SIDE + i]: the squares of line l */
  int (*line_of)[4];                 /* per square, its line of each direction */
  signed char *dir;                  /* per line, its direction (0 row .. 3 anti-diagonal) */
  bool along[4];                     /* the piece attacks along each direction */
  signed char *label;  /* per line: -1 undecided, else its colour (counts: colours = empty) */
  int *decided, *with; /* per square: its decided piece lines; [s * C + c] of c */
  int *states_a, *states_b;
  unsigned *mask;              /* per square, the colours it is open to at a leaf */
  int (*on_line)[MAX_COLOURS]; /* the knapsack's lines: each colour's open squares on each */
  int *below;                  /* Hall's sums over sets of colours, at a leaf */
  const pq_check_params *params;
  uint64_t rng;
  long leaves, skipped, at;
  bool interrupted;
  /* Count trees (doc/certificate.md, "Count certificates of several colours"): */
  bool counting;                /* labels are the colour of the line's pieces, or empty */
  int labelled[MAX_COLOURS][4]; /* lines labelled with each colour, by direction */
  bool overflow;                /* a count passed 2^128 - 1 */
  long count_cubes;             /* the count proof's cubes */
  char why[200];
} checker;

bool pq_ccheck_fault(checker *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool pq_ccheck_open_to(const checker *c, int s, int k);
void pq_ccheck_set_label(checker *c, int l, int k, int delta);
int pq_ccheck_open_on(const checker *c, int l, int k);
bool pq_ccheck_leaf_closed(checker *c);
/* A tree's leaf "." at *p (moved past it), checked by closed (unless the sample leaves it out):
   false, or true with *ok closed's verdict (false: the fault recorded). */
bool pq_ccheck_dot(checker *c, const char **p, bool (*closed)(checker *c), bool *ok);
/* Reads a tree's branch "L," at *p (moved past it): true with *line, an undecided line of the
   piece; false with the fault recorded. */
bool pq_ccheck_branch(checker *c, const char **p, long *line);
/* The split lines' images under the board's symmetries (img[g][i]: the index in split of the
   image of split[i] under g) and in *all the labellings of the split lines with `labels` labels
   each: returns the number of symmetries, or 0 with the fault recorded (too many labellings, or
   the split not closed under the symmetries). */
int pq_ccheck_split_images(checker *c, const int *split, int n, int labels, int img[8][MAX_SPLIT],
                           double *all);
bool pq_ccheck_check_witness(checker *c, const char *text, long size);
/* A proof's cubes and trees (read by pq_ccheck_read_proof), and for a count proof each cube's
   weight (NULL: a proof of infeasibility). */
typedef struct pq_ccheck_trees {
  const pq_json *cubes, *trees;
  const int *lines;
  int n;
  const pq_count *weight;
} pq_ccheck_trees;
/* Checks every tree under its cube; in a count proof adds the placements each counts times its
   cube's weight into *total (c->overflow past 2^128 - 1). On c->params->jobs threads when the
   whole proof is checked (a sample is drawn in the order of the leaves, on one thread), with the
   verdict of one thread checking them in order (pq_check_in_order). */
bool pq_ccheck_check_trees(checker *c, const pq_ccheck_trees *pf, pq_count *total);
/* A count tree's node at *p (moved past it) under the labels so far (used: the colours given to
   lines): false with the fault recorded, or true with *n the placements it counts
   (armies_colours_check_count.c). */
bool pq_ccheck_count_node(checker *c, const char *tree, const char **p, unsigned used, pq_count *n);
pq_status pq_ccheck_malformed(const char *what);
/* Reads a proof's split lines into lines[0..*n-1] (at most MAX_SPLIT) and checks the shape of its
   cubes and trees (labels: colour digits, and with empty also '.'): PQ_EINVAL with a message when
   malformed (what names the proof: "infeasible", "count"); else PQ_OK with *ok, false with the
   fault recorded when a split line is given twice or is not a line of the piece. */
pq_status pq_ccheck_read_proof(checker *c, const pq_json *proof, const char *what, bool empty,
                               int *lines, int *n, bool *ok);
pq_status pq_ccheck_check_count(checker *c, const pq_json *doc, long size, pq_count counts[3],
                                bool *ok);

#endif
