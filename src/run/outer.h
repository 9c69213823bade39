/* outer.h: the outer loop shared by every maximisation problem: raise the size k while a
   witness is found, stop at the first k proven infeasible. */
#ifndef PQ_OUTER_H
#define PQ_OUTER_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/board.h"

/* How infeasibility is proven. */
typedef enum pq_method { PQ_METHOD_SEARCH, PQ_METHOD_ILP, PQ_METHOD_RACE } pq_method;

/* Parses "search", "ilp" or "race" (NULL, the default: race when the run may use two threads or
   more, jobs >= 2, else search: a race takes a thread for each method). */
pq_status pq_method_parse(const char *text, long jobs, pq_method *out);

/* No race (set by peaceable-mpi, whose ranks must take the same path): the default is search and
   --method race is refused. */
extern bool pq_no_race;
const char *pq_method_name(pq_method m);

/* The note of a run stopped before its proof whose --cert then holds the witness found alone. */
#define PQ_WITNESS_CERT_NOTE " (--cert holds the witness alone: a claim that it fits)"
/* The note of a count stopped after its size was settled, whose --cert then holds that size's
   certificate (a maximum's, or a witness's at --size K) in place of the count's. */
#define PQ_SIZE_CERT_NOTE " (--cert holds the size's certificate alone, not the count's)"

/* What an answer says of its size, as the JSON members that follow "size" (doc/json.md, the
   rules): without --size (at_size false) "optimal", true with "proved_by" m for PQ_YES, else
   false; at --size K "feasible", true for PQ_YES (a placement was found), false with "proved_by"
   for PQ_NO (a complete search found none), and nothing for PQ_OPEN (stopped before either). */
typedef enum pq_claim { PQ_OPEN, PQ_YES, PQ_NO } pq_claim;
const char *pq_claim_members(bool at_size, pq_claim c, pq_method m);
/* The same for a count of n placements: at the maximum (proven by m), or at --size K (maximum
   false), where K fits when n is not 0, and else none is proven by the count's own search. */
const char *pq_count_claim(bool maximum, pq_count n, pq_method m);

/* What a maximisation problem gives the loop. Sizes are the problem's own (army size, number of
   queen-knight pairs, ...); sizes are monotone: if k is infeasible, so is every larger k. */
typedef struct pq_maximize {
  void *ctx;
  const pq_board *board;
  int upper; /* no placement has a size above this (a trivial bound) */
  /* A quick witness: writes a placement (one byte per square) and returns its size, or 0. */
  int (*heuristic)(void *ctx, uint8_t *witness);
  /* Decides size k exhaustively by search: PQ_OK with *found (and the witness written when
     found), or PQ_ELIMIT / PQ_EINTR when stopped first. When *cancel becomes nonzero (the other
     method of a race finished first) it returns PQ_ELIMIT soon. May run in its own thread at
     the same time as decide_ilp: the two share nothing but ctx, read-only. */
  pq_status (*decide_search)(void *ctx, int k, const volatile int *cancel, bool *found,
                             uint8_t *witness);
  /* The size of a witness that a decide function wrote (it may exceed the size asked for), or
     NULL when witnesses have exactly the size asked for. */
  int (*size_of)(void *ctx, const uint8_t *witness);
  /* The same by integer programming, or NULL when the problem has no model. */
  pq_status (*decide_ilp)(void *ctx, int k, const volatile int *cancel, bool *found,
                          uint8_t *witness);
  /* Told of every witness the loop takes, by whichever method found it (NULL: not told), on the
     loop's thread between decisions: the problem's checkpoints then carry the best size found so
     far (a race's integer program finds witnesses the search never sees). */
  void (*found)(void *ctx, int size, const uint8_t *witness);
} pq_maximize;

typedef struct pq_outer_result {
  int best;            /* the largest size with a witness */
  bool proven;         /* best + 1 was proven infeasible: best is the maximum */
  int upper;           /* the best upper bound proven (best when proven) */
  pq_method proved_by; /* which method proved best + 1 infeasible */
  uint8_t witness[PQ_MAX_SQUARES];
} pq_outer_result;

/* Runs the loop. Returns PQ_OK when the maximum is proven, PQ_ELIMIT or PQ_EINTR when a limit
   or a signal stopped it first (res then holds the best size found and the bound proven). */
pq_status pq_outer_run(const pq_maximize *m, pq_method method, pq_outer_result *res);

/* Decides the one size k by the method (a race runs both), without the loop: PQ_OK with *found
   (the witness written when found) and *by, the method that answered; or PQ_ELIMIT / PQ_EINTR. */
pq_status pq_outer_decide(const pq_maximize *m, pq_method method, int k, bool *found,
                          uint8_t *witness, pq_method *by);

/* How a table is printed (--format): aligned text, an OEIS b-file ("n a(n)") or CSV. */
typedef enum pq_format { PQ_FORMAT_TEXT, PQ_FORMAT_BFILE, PQ_FORMAT_CSV } pq_format;

/* A table: a row for each board side n from..to. A limit ends a board, not the table: board
   after board, each gets an equal share of what is left of the time and of the nodes (a board
   that finishes early leaves the rest to the later ones). A signal, an error or a failed write of
   standard output ends the table. With checkpoints, each board keeps its own: --checkpoint F
   writes board n's run to F.n (pq_table_file), and --resume R takes R.n up where there is one, so
   that a table stopped loses nothing: its finished boards answer again from theirs at once. */
typedef struct pq_table_row {
  int n;                           /* the board side */
  double deadline;                 /* the row's (0: none) */
  uint64_t node_limit;             /* nodes in all, as the table's node_limit (0: none) */
  const char *checkpoint, *resume; /* board n's files, or NULL */
} pq_table_row;

typedef struct pq_table {
  int from, to;
  double deadline;          /* the table's (0: none) */
  uint64_t node_limit;      /* the table's nodes in all (0: none), of which *searched are spent */
  const uint64_t *searched; /* NULL: node_limit is each row's own, not shared */
  const char *checkpoint, *resume; /* --checkpoint F, --resume R, or NULL */
  const char *command;             /* "armies": the command's name, for its messages */
  /* Runs and prints row r's board within its limits, and returns how it ended. */
  pq_status (*row)(void *ctx, const pq_table_row *r);
  void *ctx;
  /* With --json, the members that name the problem and its instance ("problem":"qn",...): the
     table then ends with a summary object, {MEMBERS,"table":"A..B","boards":N,"complete":B,
     "seconds":S} (doc/json.md). NULL: no summary (text, CSV, b-file). */
  const char *json;
} pq_table;

/* Runs the table: PQ_OK when every board's row was finished, PQ_ELIMIT when a limit stopped some
   board's, else the status that ended the table. */
pq_status pq_table_run(const pq_table *t);

/* Whether a table of boards from..to can take up --resume R: PQ_OK when some R.n is there, else
   PQ_EINVAL with a message (a table that would resume nothing is a slip). */
pq_status pq_table_resumable(const char *resume, int from, int to);

/* The checkpoint file of board n of a table whose --checkpoint or --resume is prefix:
   "PREFIX.n", to free. */
char *pq_table_file(const char *prefix, int n);

#endif
