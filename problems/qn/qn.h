/* qn.h: two kinds of pieces in a fixed ratio (default equal queens and knights), none attacking
   another: decide a size, count and list placements, up to the board's symmetries. */
#ifndef PQ_QN_H
#define PQ_QN_H

#include <stdbool.h>
#include <stdint.h>

#include "../../src/core/board.h"
#include "../../src/core/json.h"
#include "../../src/run/engine.h"

/* A qn problem on one board. Size m means ratio_a * m pieces of the first kind and ratio_b * m
   of the second. The engine places the stronger kind first (the one that attacks more: queen,
   rook, bishop, king, knight), one class of placements of it per symmetry orbit, then the other
   kind on the squares left. */
typedef struct pq_qn pq_qn;

/* A new problem on board b (borrowed: it must outlive the handle) with two distinct kinds and
   ratios of at least 1. Caller frees with pq_qn_free. */
pq_qn *pq_qn_new(const pq_board *b, pq_piece first, pq_piece second, int ratio_a, int ratio_b);
void pq_qn_free(pq_qn *q);

/* A trivial bound: no placement has a size above it. */
int pq_qn_upper(const pq_qn *q);

/* A search of size m >= 1 splits into parts: the placements of its first pieces of the split
   kind (pq_qn_split_piece), the first two or, when there is only one, the first, in the order of
   the search; the engine (src/run/engine.h) runs them. A part's first square is the square of its
   cube in certificates. --part, merge and checkpoints name parts by their index (0, 1, ...).
   Size 0 has one part, the empty board; so has a size the bounds rule out before any part (it
   holds nothing). */

/* The parts of size m (>= 1): returns their number (0 when the bounds rule the size out before
   any part) and *fingerprint, a hash of the board, kinds, ratio, size and every part's squares,
   so that the parts of different splits are never taken for each other. With first not NULL,
   *first receives each part's first square (an array of the returned length, at least one
   element; caller frees). */
uint64_t pq_qn_parts(const pq_qn *q, int m, uint64_t *fingerprint, int **first);

/* How one call may run. */
typedef struct pq_qn_limits {
  /* Threads (results, witnesses and the order of visits are the same for every number), node
     limit (the engine looks every 1024 nodes a thread), deadline, progress label, and the
     engine's files (symmetry on): the call's parts saved to run.checkpoint, those of run.resume
     (a checkpoint of this same decision or count) taken; with run.parts >= 1, only part run.part
     runs and its line is printed on stdout. */
  pq_engine_limits run;
  const volatile int *cancel; /* NULL, or a flag: nonzero stops the call with PQ_ELIMIT */
  bool symmetry;              /* search one placement of the first kind per symmetry class
                                 (default); false: every placement, one by one (for tests) */
  const char *facts;          /* saved with the checkpoints (engine.h) */
} pq_qn_limits;

/* Sets the defaults: no limits, no cancel flag, symmetry on, no progress, one thread, no files,
   every part. */
void pq_qn_limits_init(pq_qn_limits *l);

/* Decides size m: PQ_OK with *found and, when found, witness[squares] written (0 empty, 1 first
   kind, 2 second kind; the witness of the least part with one, for any number of jobs); PQ_ELIMIT
   when a limit or the cancel flag stopped it first, PQ_EINTR when pq_interrupted was set, PQ_EINVAL
   or PQ_EIO as pq_engine_run. With l->parts, PQ_OK and *found tell of that part alone. *nodes (if
   not NULL) receives the nodes searched. */
pq_status pq_qn_decide(const pq_qn *q, int m, const pq_qn_limits *l, bool *found, uint8_t *witness,
                       uint64_t *nodes);

/* Called with each placement visited by pq_qn_count (cells as for witnesses); return nonzero to
   stop (pq_qn_count then returns PQ_OK with no counts and out->stopped set). With several jobs it
   is called from the engine's threads, never two calls at once, in the order of one thread
   (placements are held per part until every earlier part is done). */
typedef int (*pq_qn_visit_fn)(void *ctx, const uint8_t *cells);

typedef struct pq_qn_count_result {
  pq_count count;  /* placements of size m */
  pq_count unique; /* classes of placements under the board's symmetries */
  uint64_t nodes;
  bool stopped;  /* the visitor asked to stop */
  bool overflow; /* a count passed 2^128 - 1 */
} pq_qn_count_result;

/* Counts the placements of size m and their classes up to symmetry. With visit (may be NULL),
   calls it with every placement (one_per_class false) or with the canonical form
   (pq_sym_canonical) of one placement per class (one_per_class true), in a deterministic order.
   Returns PQ_OK when complete, PQ_ELIMIT / PQ_EINTR as pq_qn_decide (no counts then); PQ_EINVAL
   or PQ_EIO as pq_engine_run (a checkpoint refused or not written). */
pq_status pq_qn_count(const pq_qn *q, int m, const pq_qn_limits *l, pq_qn_visit_fn visit,
                      bool one_per_class, void *ctx, pq_qn_count_result *out);

/* A listing's visitor, for pq_qn_merge_lines. */
typedef struct pq_qn_lister {
  pq_qn_visit_fn visit;
  bool one_per_class;
  void *ctx;
} pq_qn_lister;

/* `peaceable merge` of the part lines of deciding (counting: counting; list not NULL: listing,
   each line's placements checked and handed to list->visit in order) size m: pq_engine_merge of
   the lines (their digests checked by pq_engine_check_line), every witness checked. Returns PQ_OK
   with *found, the witness of the least subpart with one and *subpart, its index (deciding), or
   out's count, unique and nodes; or as pq_engine_merge, PQ_EINVAL also for a false witness or a
   line listed that is not a placement (one message). */
pq_status pq_qn_merge_lines(const pq_qn *q, int m, bool counting, pq_json *const *lines, int n,
                            const pq_qn_lister *list, bool *found, uint8_t *witness,
                            uint64_t *subpart, pq_qn_count_result *out);

/* A quick witness: tries sizes 1, 2, ... with a small node budget each (within l's limits) and
   returns the largest size found (witness written), or 0 (witness empty). *nodes (if not NULL)
   receives the nodes searched. */
int pq_qn_heuristic(const pq_qn *q, const pq_qn_limits *l, uint8_t *witness, uint64_t *nodes);

/* The piece placed first by the engine (the stronger kind): its first square splits the search
   into parts, and the proofs of certificates into cubes. */
pq_piece pq_qn_split_piece(const pq_qn *q);

/* Whether cells (0 empty, 1 first kind, 2 second kind) is a placement of size `size` (ratio_a *
   size pieces of the first kind, ratio_b * size of the second) in which no piece attacks
   another, checked with plain geometry, not the engine: witnesses read from files are checked
   with it. */
bool pq_qn_placement_ok(const pq_board *b, pq_piece first, pq_piece second, int ratio_a,
                        int ratio_b, const uint8_t *cells, int size);

/* Opens an answer's JSON object on standard output: {"problem":"qn","board":"WxH","kinds":KINDS,
   "ratio":"A:B","size":SIZE, the members every qn object starts with (doc/json.md). */
void pq_qn_json_open(const pq_board *b, const char *kinds, int ratio_a, int ratio_b, long size);

/* Writes "5 queens and 5 knights" (the pieces of size k) into buf (len bytes). */
void pq_qn_describe(pq_piece first, pq_piece second, int ratio_a, int ratio_b, int k, char *buf,
                    size_t len);

/* ---- certificates (qn_cert.c; format in doc/certificate.md, section qn) ---- */

/* What a certificate claims: with a witness and infeasible = size + 1, that size is the maximum;
   with a witness alone (infeasible = 0), that size fits; with no witness, that size infeasible
   does not fit. */
typedef struct pq_qn_cert {
  const pq_board *board;
  pq_piece first, second, split; /* the kinds; split: the kind whose first square makes cubes */
  int ratio_a, ratio_b;
  int size;               /* the witness's size */
  const uint8_t *witness; /* squares bytes (0 empty, 1 first kind, 2 second), or NULL */
  int infeasible;         /* the size proven not to fit (>= 1), or 0 */
  /* A count certificate (counting; claim "count", no witness): every placement of size `size`
     (nplacements of them, none for a size that does not fit, squares bytes each as witnesses),
     the total and the classes as decimal text. */
  bool counting;
  size_t nplacements;
  const uint8_t *placements;
  const char *total, *unique;
} pq_qn_cert;

/* Writes certificate c to path atomically. Returns PQ_OK, or PQ_EIO with a message. The proof
   lists one cube per orbit of squares with an exhaustive search leaf: it is correct only when
   the size is truly infeasible, which the caller has proven. */
pq_status pq_qn_cert_write(const char *path, const pq_qn_cert *c);

/* The certificate pq_qn_cert_write writes, as text (*len bytes; free it). */
char *pq_qn_cert_text(const pq_qn_cert *c, size_t *len);

#endif
