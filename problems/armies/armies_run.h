/* armies_run.h: what the armies command's modes share (its options once parsed, solving one
   board's maximum), for the modes kept in files of their own (armies_table.c, armies_count_cmd.c).
 */
#ifndef PQ_ARMIES_RUN_H
#define PQ_ARMIES_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "../../src/run/outer.h"
#include "armies.h"
#include "armies_parts.h"

/* The options every mode shares. */
typedef struct pq_armies_setup {
  pq_piece piece;
  pq_method method;
  pq_armies_params params; /* its time_limit is the whole run's: see params_now */
  int jobs;                /* --jobs: all of them, for a count (params.jobs leaves one to a race) */
  double deadline;         /* pq_now() at which --time-limit ends the run; 0: none */
  uint64_t *searched;      /* search nodes of the run so far, against --node-limit */
  bool json, quiet;
  const char *cert;
  const char *checkpoint, *resume;    /* --checkpoint, --resume files, or NULL */
  const char *export_lp, *export_mps; /* --export-lp, --export-mps files, or NULL */
  pq_format format;                   /* --format of --table */
  int part, parts;                    /* --part I/N, or 0 */
  const char *svg;                    /* --svg file, or NULL */
  uint64_t seed;                      /* --seed of the local search */
  long local_moves; /* --local-moves, or -1: the local search's default for the board */
  long list_limit;  /* --limit of a listing: its lines at most; 0: none */
  double share;     /* the seconds of --time-limit for one board (0: no limit) */
  /* Facing a fixed white army of line pieces, without --cert: until a witness is found, each
     decision also asks for `also` against `also` (pq_armies_params), so that the last one,
     when nothing fits, proves that too (pq_armies_answer.also_proven). 0: none. */
  int also;
} pq_armies_setup;

/* One board's answer: the largest black army found (white equal, or fixed) and its witness. */
typedef struct pq_armies_answer {
  int best;
  bool proven;         /* best + 1 was proven not to fit */
  pq_method proved_by; /* when proven */
  bool also_proven;    /* setup.also against setup.also was proven not to fit as well */
  double seconds;
  uint8_t witness[PQ_MAX_SQUARES]; /* 0 empty, 1 white, 2 black */
} pq_armies_answer;

/* The outer loop's view of one board: deciding equal armies, or black armies facing a fixed
   white army. */
typedef struct pq_armies_board {
  const pq_armies_setup *st;
  const pq_board *board;
  pq_armies *armies;
  int white; /* -1: equal armies (the size is both); otherwise the fixed white army */
  /* The proof of the last size found infeasible by search, kept for --cert. */
  pq_armies_decision proof;
  int proof_size;
  uint64_t nodes; /* search nodes of every decision so far */
  bool grow;      /* witnesses may exceed the size asked (the outer loop takes their size) */
  const pq_armies_answer *start; /* a first witness given by the caller, or NULL */
  int also;                      /* st->also while no witness was found; then 0 */
  int also_proved; /* the size whose decision also proved that also against also do not fit */
  /* With checkpoints: the largest witness so far (its black army size, or -1), and what the
     resumed checkpoint holds. */
  int best;
  uint8_t best_witness[PQ_MAX_SQUARES];
  bool resuming;
  pq_armies_resume_info resume;
} pq_armies_board;

/* The search parameters for a step that starts now: what is left of --time-limit and of
   --node-limit (the search nodes of the whole run). */
pq_armies_params pq_armies_params_now(const pq_armies_setup *st);

/* Makes sure c->proof holds the proof that size + 1 does not fit: when the last step was proven
   by another method (or a race), searches again for a proof. */
pq_status pq_armies_prove_next(pq_armies_board *c, int size);

/* The maximum of equal armies on c's board (c->white < 0) by the outer loop with st->method,
   from the board's heuristic witness: as pq_outer_run. */
pq_status pq_armies_board_maximum(pq_armies_board *c, pq_outer_result *res);

/* Takes c->st->resume, a checkpoint of the decisions of a maximum, up for c's search (checked
   whole now: its parts, its witness): PQ_OK, or as pq_armies_resume_read fails. */
pq_status pq_armies_start_resume(pq_armies_board *c);

/* Checks the witness of the checkpoint resumed (c->resume), if it has one, into c->best_witness:
   PQ_OK, or PQ_EINVAL with a message (not a peaceable placement of its size, or not of this
   run's armies). */
pq_status pq_armies_resume_witness(pq_armies_board *c);

/* Writes --cert: the certificate of a proven maximum, the witness (its text) and the proof that
   size + 1 fails (pq_armies_prove_next). */
pq_status pq_armies_write_max_cert(pq_armies_board *c, int size, const char *text);

/* Writes the certificate of a witness alone ("feasible") to path: white against black pieces of
   piece (its letter) on board ("WxH") fit, the placement text. */
pq_status pq_armies_write_witness_cert(const char *path, const char *board, char piece,
                                       const char *text, int white, int black);

/* White pieces print upper case, black lower case: letters[0], letters[1], then a NUL. */
void pq_armies_letters(pq_piece p, char letters[3]);

/* The checks of options that armies of two colours and of more share, and the local search's seed
   for a maximum's starting army (--seed, else 1). PQ_EINVAL with a message when --seed or
   --local-moves comes with --size (no local search runs there), or --export-lp or --export-mps
   with a count (count: --count, or --unique alone), --list, --table or --part. */
pq_status pq_armies_shared_options(const pq_options *o, bool count, uint64_t *seed);

/* Opens an answer's JSON object on standard output with its instance's members, the ones every
   armies object starts with: {"problem":"armies","board":BOARD ("WxH"),"piece":PIECE (its
   letter), and for more than two armies ,"colours":C (colours 2 writes none; doc/json.md). */
void pq_armies_json_open(const char *board, char piece, int colours);

/* Draws count placements (1 white, 2 black) of piece p on board b into path (--svg); count 0:
   the empty board, captioned "no placement". */
pq_status pq_armies_draw(const char *path, const pq_board *b, pq_piece p, const uint8_t *cells,
                         int count);

/* What pq_armies_solve_board prints on stdout. */
typedef enum pq_armies_print {
  PQ_ARMIES_PRINT_BOARD, /* the answer of one board with its witness (or a JSON line) */
  PQ_ARMIES_PRINT_ROW,   /* a line of --table in st->format (or a JSON line) */
  PQ_ARMIES_PRINT_NONE   /* nothing: the caller prints *out */
} pq_armies_print;

/* Prints one board's answer as print asks (res: the outer loop's, stopped unless proven; text:
   its witness as text), with the nodes and seconds it took. */
void pq_armies_print_answer(const pq_armies_setup *st, const pq_board *b, int white,
                            pq_armies_print print, const pq_outer_result *res, bool proven,
                            const char *text, uint64_t nodes, double seconds);

/* Solves one board: the maximum of equal armies (white < 0), or the largest black army facing
   `white` white pieces; writes st->cert, st->svg and the exports when proven (or drawn).
   `start`, when not NULL, is a peaceable placement of `white` white (equal armies: as many as
   black) and start->best black pieces, taken as the first witness. Fills *out (may be NULL).
   Returns PQ_OK when proven, PQ_ELIMIT or PQ_EINTR when stopped first (*out holds the best
   found, printed as not proven), PQ_EINVAL for a white army larger than the board. */
pq_status pq_armies_solve_board(const pq_armies_setup *st, int width, int height, int white,
                                pq_armies_print print, const pq_armies_answer *start,
                                pq_armies_answer *out);

/* The first witness of one board, as pq_armies_solve_board starts from it (the greedy dive and
   the local search), without any proof: equal armies (white < 0) or black facing `white` white.
   Fills *out (proven false). Returns whether the local search ran (with --local-moves, or the
   board's default): without it the witness is the greedy dive's, often below the maximum. */
bool pq_armies_first_witness(const pq_armies_setup *st, int width, int height, int white,
                             pq_armies_answer *out);

/* The seconds left of --time-limit, which bounds the whole run (every size of the outer loop,
   every board of a table): 0 for no limit, a tiny positive number once it has passed. */
double pq_armies_time_left(const pq_armies_setup *st);

/* Counts (or lists) the placements of two armies of `size` (< 0: the maximum, proven first) on
   one board; prints a line of --table when row is set. */
pq_status pq_armies_count_board(const pq_armies_setup *st, int width, int height, int size,
                                bool list, bool unique, bool row);

/* --table from..to (sides): the maxima, their counts (count; size >= 0: of that size) or the
   largest aggressors (aggressor), one board a line in st->format. A limit ends a board, not the
   table (PQ_ELIMIT at the end when some board was not proven). */
pq_status pq_armies_table(const pq_armies_setup *st, int from, int to, bool count, bool aggressor,
                          int size);

/* The largest aggressor (OEIS A308632 for queens) on one board: the maximum m of equal armies,
   then the largest black army facing m white pieces. Prints a line of --table when row is set
   (after pq_armies_aggressor_header), else the answer with its witness; st->cert certifies the
   aggressor (the largest black army facing m white). Returns as pq_armies_solve_board. */
pq_status pq_armies_aggressor(const pq_armies_setup *st, int width, int height, bool row);

/* The header of an --aggressor table in st->format (none for JSON or a b-file). */
void pq_armies_aggressor_header(const pq_armies_setup *st);

/* A table of armies of two colours or more, in format f (not JSON): its header (count: of
   counts, at --size K when at_size; none for a b-file), and its rows. A row of a maximum of side
   n (board: "WxH"): best, marked "+" in text when not proven (a b-file holds proven values only),
   by: what proved it. A row of a count of k (counts: the placements, the classes and the classes
   with the colours exchanged or permuted, as text): at the maximum proven by `by` (maximum) or at
   --size K (at_size); counts NULL when a limit stopped it: no count, the size reached marked "+"
   unless it is either. */
void pq_armies_table_header(pq_format f, bool count, bool at_size);
void pq_armies_max_row(pq_format f, const char *board, int n, int best, bool proven, pq_method by,
                       double seconds);
void pq_armies_count_row(pq_format f, const char *board, int n, int k, bool maximum, bool at_size,
                         pq_method by, double seconds, const char *const counts[3]);

/* What the summary of a listing cut short says of its board (armies of two colours or more). */
typedef struct pq_armies_cut {
  const char *board; /* "WxH" */
  char piece;        /* its letter */
  int colours;       /* 2: two armies (no "colours" member) */
  bool maximum;      /* the size listed at is the proven maximum, proven by proved_by */
  bool at_size;      /* the size listed at is --size K */
  pq_method proved_by;
  bool json;
  bool checkpoint; /* the finished parts are kept in --checkpoint (the message says so) */
  bool cert;       /* --cert holds the size's certificate, not the count's (the same) */
} pq_armies_cut;

/* The JSON summary of a listing of k cut short: `listed` lines printed, "complete":false
   (doc/json.md). */
void pq_armies_print_cut_listing(const pq_armies_cut *c, int k, const char *listed, uint64_t nodes,
                                 double seconds);

/* Says that a count or a listing of k stopped (rc: a limit, a signal, or PQ_EIO: a checkpoint it
   could not write) with no total, how many placements it listed (or counted so far: `lines`),
   and in JSON ends a listing with its summary (pq_armies_print_cut_listing). */
void pq_armies_report_cut(const pq_armies_cut *c, pq_status rc, int k, bool list, pq_count lines,
                          uint64_t nodes, double seconds);

#endif
