/* armies.h: peaceable armies: white and black armies of one piece kind, no piece attacking a
   piece of the other colour. The search engine, shared by the command and by tests. */
#ifndef PQ_ARMIES_H
#define PQ_ARMIES_H

#include <stdbool.h>
#include <stdint.h>

#include "../../src/core/board.h"
#include "../../src/core/util.h"
#include "armies_text.h"

/* One armies problem: a board and the army piece. Caller frees with pq_armies_free. */
typedef struct pq_armies pq_armies;

/* A new problem on board b (borrowed; it must outlive the problem) for piece p. */
pq_armies *pq_armies_new(const pq_board *b, pq_piece p);
void pq_armies_free(pq_armies *a);

/* The army piece. */
pq_piece pq_armies_piece(const pq_armies *a);

/* Search parameters; pq_armies_params_init sets every default. */
typedef struct pq_armies_params {
  int jobs;                   /* threads (default 1) */
  uint64_t node_limit;        /* 0: none */
  double time_limit;          /* seconds; 0: none */
  const volatile int *cancel; /* stop with PQ_ELIMIT when it becomes nonzero; may be NULL */
  bool symmetry;              /* break the board's symmetries (and colour exchange) when deciding */
  bool proof;                 /* record a proof tree when the answer is "none" */
  bool grow; /* a witness may be larger than asked: as large as the leaf that holds it
                allows (equal armies stay equal; a fixed white army stays fixed) */
  /* Asked every 4096 nodes with the nodes since it was last asked (a part of a count or of a
     decision run by the engine); PQ_OK to go on, or the status to stop with. NULL: none. */
  pq_status (*poll)(void *ctx, uint64_t nodes);
  void *poll_ctx;
  /* Deciding unequal armies of line pieces without a proof: a placement of `also` against
     `also` will do as well (0: none). The largest aggressor's climb facing m white thus proves
     at once that m + 1 against m + 1 do not fit. */
  int also;
  /* Knights: write what the search learns (the bounds of every suffix, doc/json.md, "Knights'
     checkpoints") to this checkpoint, sealed, every PQ_ENGINE_SAVE_SECONDS while it searches and
     when the decision ends, with the JSON members facts (the run's best witness; NULL: none)
     beside it. NULL: none. */
  const char *checkpoint, *facts;
} pq_armies_params;
void pq_armies_params_init(pq_armies_params *p);

/* The outcome of deciding whether `white` white and `black` black pieces fit. */
typedef struct pq_armies_decision {
  bool found;
  uint8_t witness[PQ_MAX_SQUARES]; /* 0 empty, 1 white, 2 black; when found */
  uint64_t nodes;
  /* When proof was asked and nothing was found: the symmetry split and one proof tree per cube
     (doc/certificate.md). Owned by the decision; free with pq_armies_decision_clear. */
  int nsplit;      /* lines of the split */
  int split[32];   /* their board line ids */
  bool complement; /* colour exchange was used */
  int ncubes;
  char **cubes; /* per cube: 'i' or 'o' for each split line */
  char **trees; /* per cube: the proof tree */
  /* Knights (and kings' counts): the lemmas the tree rests on, in the order they are written,
     and the text holding their trees and the tree of the one cube (trees[0] is then NULL), which
     may be too large for memory; NULL otherwise. */
  struct pq_armies_lemmas *lemmas;
  bool by_columns; /* knights: the tree and lemmas number the squares column by column */
} pq_armies_decision;

/* A lemma (doc/certificate.md, "Knights"): every set of `size` squares of the suffix from `from`
   has at least `least` squares in its closed neighbourhood there; its tree is bytes
   [start, end) of the text. */
typedef struct pq_armies_lemma {
  int from, size, least;
  uint64_t start, end;
} pq_armies_lemma;
typedef struct pq_armies_lemmas {
  pq_text text;
  int n;
  pq_armies_lemma *lemma;
  uint64_t tree_start, tree_end; /* the tree of the cube */
} pq_armies_lemmas;
void pq_armies_decision_clear(pq_armies_decision *d);
/* Makes d's proof one cube (no split) whose tree is the one leaf `leaf` ("s": the exhaustive
   search the checker repeats; "k": the kings' bound). */
void pq_armies_decision_one_leaf(pq_armies_decision *d, const char *leaf);

/* Decides whether white and black armies of the given sizes fit. Returns PQ_OK (answer in *out),
   PQ_ELIMIT when a limit or *cancel stopped it, PQ_EINTR on pq_interrupted. */
pq_status pq_armies_decide(const pq_armies *a, int white, int black, const pq_armies_params *p,
                           pq_armies_decision *out);

/* Splitting a decision into parts, for threads, processes and checkpoints. */
typedef struct pq_armies_split pq_armies_split;

/* Depth at which each symmetry cube splits into parts (at most 2^depth parts a cube) when the
   work is shared. */
#define PQ_ARMIES_SPLIT_DEPTH 6

/* Splits deciding `white` against `black` (line pieces only) into parts: the symmetry cubes
   (one cube when symmetry is off), each split `depth` levels down (0: a part per cube), in
   depth-first order. Deterministic: the same problem, sizes, symmetry and depth give the same
   parts in the same order. With proof, each cube's tree down to its parts is kept. also: as in
   pq_armies_params (used with symmetry, without proof, for unequal sizes only). Caller frees
   with pq_armies_split_free. */
pq_armies_split *pq_armies_split_new(const pq_armies *a, int white, int black, bool symmetry,
                                     int depth, bool proof, int also);
void pq_armies_split_free(pq_armies_split *s);
int pq_armies_split_parts(const pq_armies_split *s);

/* A fingerprint of the split (board, piece, sizes, symmetry, depth and every part), so that
   results of parts computed apart can be checked to belong together. */
uint64_t pq_armies_split_id(const pq_armies_split *s);

/* The result of one part. */
struct pq_armies_part {
  bool done;            /* searched to the end, or a witness found */
  bool found;           /* a witness: every piece fits on white's and black's open squares */
  pq_bits white, black; /* when found: the squares open to each colour at the witness's leaf */
  uint64_t nodes;
  char *tree; /* when the split keeps proofs, done and not found: the part's proof tree */
};
typedef struct pq_armies_part pq_armies_part;

/* Searches part `part` on this thread, with p's limits and poll (p may be NULL: none; p->jobs
   is not used): PQ_OK, or PQ_ELIMIT / PQ_EINTR when stopped (result->done then false, unless a
   witness was found). The result's tree is the caller's to free. */
pq_status pq_armies_split_run_one(const pq_armies_split *s, int part, const pq_armies_params *p,
                                  pq_armies_part *result);

/* The nodes the split itself searched (down to its parts). */
uint64_t pq_armies_split_nodes(const pq_armies_split *s);

/* Writes the witness of a part that found one: `white` white and `black` black pieces on its
   open squares, or with grow as many as they allow (equal armies stay equal). */
void pq_armies_witness(const pq_armies *a, const pq_armies_part *r, int white, int black, bool grow,
                       uint8_t *cells);

/* Fills the proof of a decision (split, cubes, trees) from a split that keeps proofs and the
   results of all its parts, every one done and without a witness. With holes, the proof of one
   file of a proof in parts (doc/certificate.md, "Proofs in several files"): a part without a
   tree is a hole '#', a part with one is marked '[' tree ']'. */
void pq_armies_split_proof(const pq_armies_split *s, pq_armies_part *results, bool holes,
                           pq_armies_decision *out);

/* Called for each placement of a count: cells as in pq_armies_decision.witness. It stands for
   `weight` placements: itself and images of it under the board's symmetries that are not
   visited (1 when params->symmetry is off). Return nonzero to stop. */
typedef int (*pq_armies_visit)(void *ctx, const uint8_t *cells, int weight);

/* Counts (and visits, when visit is not NULL) every placement of `white` white and `black` black
   pieces: with params->symmetry, one placement of each set of images that the board's
   symmetries map onto each other's cubes, weighted; without, every placement once. Returns
   PQ_OK with *count complete, or PQ_ELIMIT / PQ_EINTR (count incomplete). */
pq_status pq_armies_count(const pq_armies *a, int white, int black, const pq_armies_params *p,
                          pq_armies_visit visit, void *ctx, pq_count *count);

/* pq_armies_count, and with proof not NULL also the count's proof (doc/certificate.md, "Count
   certificates"): for line pieces (with params->symmetry) the split, one cube per orbit of its
   choices under the board's group, and per cube the tree of the count, whose leaves are "."
   (closed) or "c" (counted); for kings and knights no split, one cube, one tree over the squares
   and its lemmas (pq_armies_knights_count). Free it with pq_armies_decision_clear, whatever is
   returned. With nodes not NULL, *nodes gets the nodes searched. */
pq_status pq_armies_count_proved(const pq_armies *a, int white, int black,
                                 const pq_armies_params *p, pq_armies_visit visit, void *ctx,
                                 pq_count *count, uint64_t *nodes, pq_armies_decision *proof);

/* Whether no white piece (1) of cells attacks a black one (2), by plain geometry (independently
   of the search: its witnesses and the lines a listing reads back are checked with it). */
bool pq_armies_peaceable(const pq_board *b, pq_piece p, const uint8_t *cells);

/* A count of queens, rooks or bishops split into parts: the cubes of the board's symmetries
   (pq_armies_count with symmetry counts them one by one), each counted on its own and weighted
   by its orbit, so that the parts add up to the count in any order. */
typedef struct pq_armies_count_split pq_armies_count_split;

/* The split of the count of white against black on a's board (a line piece; white + black fit
   on the board); without symmetry (a listing's), every cube of the split lines, each of weight 1,
   so that each placement is visited once, in the part of its own cube. Caller frees with
   pq_armies_count_split_free. */
pq_armies_count_split *pq_armies_count_split_new(const pq_armies *a, int white, int black,
                                                 bool symmetry);
void pq_armies_count_split_free(pq_armies_count_split *s);

/* The part of a split without symmetry (a listing's) that holds a placement of its sizes: the
   cube of its split lines, "in" where a line holds no black piece, "out" where it holds one. */
uint64_t pq_armies_count_split_part_of(const pq_armies_count_split *s, const uint8_t *cells);

/* The number of parts (at least 1), and a fingerprint of the split (board, piece, sizes and
   every cube). */
uint64_t pq_armies_count_split_parts(const pq_armies_count_split *s);
uint64_t pq_armies_count_split_id(const pq_armies_count_split *s);

/* Counts part `part` on this thread, calling visit (may be NULL) for each placement with its
   weight, as pq_armies_count does: *count gets the part's placements (weighted), *nodes its
   nodes; with tree, *tree gets the part's count tree (doc/certificate.md, "Count certificates"),
   the caller's to free. p gives the limits and the poll (p->jobs is not used). Returns PQ_OK,
   PQ_ELIMIT (a limit, the poll or an overflow past 2^128) or PQ_EINTR. */
pq_status pq_armies_count_part(const pq_armies_count_split *s, uint64_t part,
                               const pq_armies_params *p, pq_armies_visit visit, void *ctx,
                               pq_count *count, uint64_t *nodes, char **tree);

/* The count's proof from the trees of every part (taken: trees[i] is cube i's, freed with out):
   the split lines and cubes of s, as pq_armies_count_proved records them. */
void pq_armies_count_split_proof(const pq_armies_count_split *s, char **trees,
                                 pq_armies_decision *out);

/* A certificate of armies (doc/certificate.md): the witness of a claimed maximum (NULL when only
   infeasibility is claimed) and the proof that `white` white and `black` black pieces do not
   fit. */
typedef struct pq_armies_cert {
  const char *board;   /* "WIDTHxHEIGHT" */
  const char *claim;   /* "maximum", "infeasible" (no witness), "feasible" (no proof) or "count" */
  char piece;          /* K Q R B N */
  int white, black;    /* the infeasible sizes */
  const char *witness; /* placement text of the largest armies found, or NULL */
  int witness_white, witness_black; /* its army sizes */
  const pq_armies_decision *proof;  /* the proof of infeasibility (split, cubes, trees) */
  /* With claim "count": the placements of witness_white against witness_black (every one),
     their numbers (decimal text) and the proof of the count; white 0 when the certificate
     does not also claim the maximum (no "infeasible" member). */
  size_t nplacements;
  const char *const *placements;
  const char *total, *unique, *unique_colour;
  const pq_armies_decision *count;
  bool part; /* a file of a proof in parts (doc/certificate.md), checked with the others only */
} pq_armies_cert;

/* Writes the certificate as JSON to path (atomically: a temporary file, then a rename); one made
   in part on a resumed checkpoint's word (src/run/engine.h), not a part's, only once it verifies.
   Returns PQ_OK, or PQ_EIO or PQ_EINVAL with a message. */
pq_status pq_armies_cert_write(const char *path, const pq_armies_cert *c);

/* A quick placement of equal armies (greedy, no backtracking): writes it and returns its size. */
int pq_armies_heuristic(const pq_armies *a, uint8_t *witness);

#endif
