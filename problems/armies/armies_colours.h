/* armies_colours.h: armies of C colours (C from 3) of one line piece, k pieces each, no piece
   attacking a piece of another colour: the search (armies_colours.c) and the command
   (armies_colours_cmd.c, reached by armies --colours C). */
#ifndef PQ_ARMIES_COLOURS_H
#define PQ_ARMIES_COLOURS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../../src/cli/options.h"
#include "../../src/core/board.h"
#include "../../src/core/json.h"
#include "../../src/core/util.h"
#include "../../src/lp/lp.h"

/* The largest board (in squares): a witness packs into an engine outcome at 4 bits a square (the
   most colours, PQ_MAX_COLOURS, in board.h). */
#define PQ_COLOURS_MAX_SQUARES 484

/* Deciding whether `colours` armies of k pieces each fit on board b (borrowed), split into parts
   by the symmetries of the board and of the colours. Caller frees with pq_colours_free. */
typedef struct pq_colours pq_colours;
pq_colours *pq_colours_new(const pq_board *b, pq_piece piece, int colours, int k);
void pq_colours_free(pq_colours *p);

/* The same for counting placements of exactly k of each colour (pq_colours_count_part): parts
   split by the labels of the split lines (each line EMPTY or the colour of its pieces), one part
   for each class of labellings under the board's symmetries and the colours' permutations (with
   listing, under the colours' permutations only: the parts then hold every placement up to the
   colours' permutations, for a list). */
pq_colours *pq_colours_new_count(const pq_board *b, pq_piece piece, int colours, int k,
                                 bool listing);

/* Counting: how many parts part stands for, over colours!: the placements of the problem are
   colours! x weight x those pq_colours_count_part finds in the part (and the same for any sum of
   a quantity that the symmetries and colour permutations keep). 1 for a decision's parts. */
int pq_colours_weight(const pq_colours *p, int part);

/* The number of parts, and a fingerprint of the instance and of every part. */
int pq_colours_parts(const pq_colours *p);
uint64_t pq_colours_id(const pq_colours *p);

/* The split lines (board line ids, at most 16) into lines; returns how many. */
int pq_colours_split(const pq_colours *p, int *lines);

/* The labels of the split lines in part `part`: one digit a line ('0' the first colour), then a
   NUL (at most 17 bytes). */
void pq_colours_cube(const pq_colours *p, int part, char *text);

/* One thread's search state. Caller frees with pq_colours_solver_free. */
typedef struct pq_colours_solver pq_colours_solver;
pq_colours_solver *pq_colours_solver_new(const pq_colours *p);
void pq_colours_solver_free(pq_colours_solver *s);
uint64_t pq_colours_solver_nodes(const pq_colours_solver *s);

/* Asked every 4096 nodes with the nodes since the last call: PQ_OK to go on, or the status to
   stop the part with. */
void pq_colours_set_poll(pq_colours_solver *s, pq_status (*poll)(void *ctx, uint64_t nodes),
                         void *ctx);

/* Searches part `part`: PQ_OK with *found, and when found cells (one byte a square: 0 empty,
   1..colours) holding at least k pieces of each colour; or the status the poll stopped it with.
   With tree (not NULL) and nothing found, the part's proof tree is written there
   (doc/certificate.md, "Armies of several colours"). */
pq_status pq_colours_part(pq_colours_solver *s, int part, uint8_t *cells, bool *found, FILE *tree);

/* Takes one placement (cells: one byte a square, 0 empty, 1..colours; borrowed for the call). */
typedef void (*pq_colours_visit)(void *ctx, const uint8_t *cells);

/* Counting (p from pq_colours_new_count, k >= 1): calls visit once for each placement of exactly
   k pieces of each colour in part `part` whose colours come in first-use order along the search,
   one of each class under the permutations of the colours (each class has colours! placements:
   no permutation but the identity fixes a placement where every colour stands). Returns PQ_OK
   when the part is done, or the status the poll stopped it with. With tree (not NULL), the part's
   count tree is written there (doc/certificate.md, "Count certificates of several colours"). */
pq_status pq_colours_count_part(pq_colours_solver *s, int part, pq_colours_visit visit, void *ctx,
                                FILE *tree);

/* A placement's text: rows joined by '/', '.' empty, colours 1.. as "123456789abcdef". text
   takes squares + height bytes. */
void pq_colours_text(const pq_board *b, const uint8_t *cells, char *text);

/* Parses a placement's text and checks it: PQ_OK when it is peaceable with at least k pieces of
   each colour, else PQ_EINVAL (no message). */
pq_status pq_colours_parse(const pq_board *b, pq_piece piece, int colours, int k, const char *text,
                           uint8_t *cells);

/* Whether no piece attacks one of another colour (checked with pq_attacks_plain, square by
   square) and every colour has at least k pieces. */
bool pq_colours_peaceable(const pq_board *b, pq_piece piece, int colours, int k,
                          const uint8_t *cells);

/* The witness finder (armies_colours_local.c): simulated annealing over labellings of the
   piece's lines by colours for `moves` moves from seed, or until deadline (pq_now(); 0: none, and
   the same arguments give the same army). Returns the size k it reached (every colour k pieces),
   the placement in cells (one byte a square, 0 empty, 1..colours). */
int pq_colours_local(const pq_board *b, pq_piece piece, int colours, uint64_t moves, uint64_t seed,
                     double deadline, uint8_t *cells);

/* Writes the integer program of k of each colour on b (the one pq_colours_ilp_decide solves) to
   lp in CPLEX LP format and to mps in free MPS format (each NULL: not written): PQ_OK, or PQ_EIO
   with a message. */
pq_status pq_colours_ilp_export(const pq_board *b, pq_piece piece, int colours, int k,
                                const char *lp, const char *mps);

/* Decides k of each colour on b by integer programming (GLPK; armies_colours_ilp.c): PQ_OK with
   *found and, when found, cells (0 empty, c + 1 colour c), checked with plain geometry; PQ_ELIMIT
   when limits (may be NULL: none) stopped it first, PQ_EINTR on a signal. */
pq_status pq_colours_ilp_decide(const pq_board *b, pq_piece piece, int colours, int k,
                                const pq_lp_params *limits, bool *found, uint8_t *cells);

/* armies --colours C (C from 3): the maximum, a table or one decision (--size K), with --jobs,
   limits, --part I/N and checkpoints (for one decision). */
pq_status pq_colours_command(const pq_options *o, int colours);

/* Writes to path (atomically) the certificate of a witness alone, claim "feasible": `colours`
   armies of `size` pieces of piece on b, cells the placement (colours 1..colours). */
pq_status pq_colours_witness_cert(const char *path, const pq_board *b, pq_piece piece, int colours,
                                  int size, const uint8_t *cells);

/* The proof of a count, for a certificate: the split lines, a cube and a count tree for each
   part, and one placement of each class under the board's symmetries and the colours'
   permutations (its least text with colours renumbered by first use), sorted. Cleared (and
   freed) with pq_colours_count_proof_clear. */
typedef struct pq_colours_count_proof {
  int nsplit, split[16];
  int ncubes;
  char (*cubes)[17];
  char **trees;
  char **classes;
  size_t nclasses;
} pq_colours_count_proof;
void pq_colours_count_proof_clear(pq_colours_count_proof *pf);

/* A count (or list) of the placements of exactly k of each colour (k >= 1), through the engine
   (armies_colours_count.c). */
typedef struct pq_colours_count_task {
  const pq_board *b;
  pq_piece piece;
  int colours, k;
  bool list; /* also print every placement on stdout, one a line, in the parts' order */
  bool json; /* with list: each line a JSON object {"placement":"..."} */
  bool
      unique; /* with list: only the least (as a text) of each class up to the board's symmetries */
  pq_count limit;       /* with list: print at most this many lines, then stop (0: no limit) */
  pq_engine_limits lim; /* progress not NULL: progress on stderr (the task's own label);
                           --part I/N: print the part line instead */
  pq_colours_count_proof *proof; /* not NULL (and not list): the count's proof, when complete */
  /* Not NULL (with list): the first `draw` placements printed, squares bytes each (0 empty,
     1..colours), for the listing's picture; *drawn counts them. */
  uint8_t *drawing;
  int draw, *drawn;
} pq_colours_count_task;

/* The placements, the classes up to the board's symmetries, and up to the symmetries and the
   permutations of the colours; the nodes searched. */
typedef struct pq_colours_counted {
  pq_count count, unique, unique_colour;
  pq_count listed; /* a listing's lines printed, also when it stopped */
  bool limited;    /* the listing stopped at task->limit (done, not stopped: PQ_OK) */
  uint64_t nodes;
} pq_colours_counted;

/* Runs task: PQ_OK with *out complete; PQ_ELIMIT or PQ_EINTR when stopped (then *out says
   nothing but the lines listed and the nodes); PQ_EINVAL or PQ_EIO as pq_engine_run. With
   task->parts, prints the part line. */
pq_status pq_colours_count_run(const pq_colours_count_task *task, pq_colours_counted *out);

/* Merges the part lines of a count (or list, whose placements it prints) into *out: as
   pq_engine_merge, and PQ_EINVAL when Burnside's sums do not divide. */
pq_status pq_colours_count_merge(pq_json *const *lines, int n, const pq_board *b, pq_piece piece,
                                 int colours, int k, bool list, bool unique, bool json,
                                 pq_colours_counted *out);

/* merge of --colours --size K --part I/N lines (pq_armies_merge hands them here). */
pq_status pq_colours_merge(pq_json *const *lines, int n, const pq_options *o);

#endif
