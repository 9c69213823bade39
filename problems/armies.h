/* armies.h: peaceable armies: white and black armies of one piece kind, no piece attacking a
   piece of the other colour. The search engine, shared by the command and by tests. */
#ifndef PQ_ARMIES_H
#define PQ_ARMIES_H

#include <stdbool.h>
#include <stdint.h>

#include "../src/board.h"
#include "../src/util.h"

/* One armies problem: a board and the army piece. Caller frees with pq_armies_free. */
typedef struct pq_armies pq_armies;

/* A new problem on board b (borrowed; it must outlive the problem) for piece p. */
pq_armies *pq_armies_new(const pq_board *b, pq_piece p);
void pq_armies_free(pq_armies *a);

/* Search parameters; pq_armies_params_init sets every default. */
typedef struct pq_armies_params {
  int jobs;            /* threads (default 1) */
  uint64_t node_limit; /* 0: none */
  double time_limit;   /* seconds; 0: none */
  const volatile int *cancel; /* stop with PQ_ELIMIT when it becomes nonzero; may be NULL */
  bool symmetry;       /* break the board's symmetries (and colour exchange) when deciding */
  bool proof;          /* record a proof tree when the answer is "none" */
  bool grow;           /* a witness may be larger than asked: as large as the leaf that holds it
                          allows (equal armies stay equal; a fixed white army stays fixed) */
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
  char **cubes;    /* per cube: 'i' or 'o' for each split line */
  char **trees;    /* per cube: the proof tree */
} pq_armies_decision;
void pq_armies_decision_clear(pq_armies_decision *d);

/* Decides whether white and black armies of the given sizes fit. Returns PQ_OK (answer in *out),
   PQ_ELIMIT when a limit or *cancel stopped it, PQ_EINTR on pq_interrupted. */
pq_status pq_armies_decide(const pq_armies *a, int white, int black, const pq_armies_params *p,
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

/* A certificate of armies (doc/certificate.md): the witness of a claimed maximum (NULL when only
   infeasibility is claimed) and the proof that `white` white and `black` black pieces do not
   fit. */
typedef struct pq_armies_cert {
  const char *board; /* "WIDTHxHEIGHT" */
  char piece;        /* K Q R B N */
  int white, black;  /* the infeasible sizes */
  const char *witness; /* placement text of the largest armies found, or NULL */
  int witness_white, witness_black; /* its army sizes */
  int nsplit;
  const int *split;
  bool complement;
  int ncubes;
  const char *const *cubes;
  const char *const *trees;
} pq_armies_cert;

/* Writes the certificate as JSON to path (atomically: a temporary file, then a rename).
   Returns PQ_OK, or PQ_EIO with a message. */
pq_status pq_armies_cert_write(const char *path, const pq_armies_cert *c);

struct pq_json;
struct pq_options;
/* Checks an armies certificate (parsed JSON) independently of the search; prints "valid: ..."
   or "invalid: REASON" on stdout. Returns PQ_OK (valid), PQ_EFALSE (invalid) or PQ_EINVAL
   (malformed, with a message). */
pq_status pq_armies_verify(const struct pq_json *doc, const struct pq_options *o);

/* A quick placement of equal armies (greedy, no backtracking): writes it and returns its size. */
int pq_armies_heuristic(const pq_armies *a, uint8_t *witness);

#endif
