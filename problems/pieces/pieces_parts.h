/* pieces_parts.h: pieces counts and listings in parts through the engine (src/run/engine.h):
   threads, progress, checkpoints, --part I/N results and merging them. */
#ifndef PQ_PIECES_PARTS_H
#define PQ_PIECES_PARTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../../src/cli/options.h"
#include "../../src/core/json.h"
#include "pieces.h"

/* A count or a listing of pieces on a board, run part by part (pq_pieces_split). */
typedef struct pq_pieces_task {
  const pq_board *board; /* borrowed */
  const int *counts;     /* [PQ_NPIECES], as pq_pieces_parse gives them */
  const char *spec;      /* the --pieces text, for messages */
  bool unique;           /* also count up to symmetry (Burnside's other terms) */
  pq_engine_limits lim;  /* threads, limits, files, part (src/run/engine.h) */
  double start;          /* pq_now() when the command started, for the seconds it prints */
  pq_pieces *engine;     /* a solver of board and counts for the first thread (its limits
                            and poll are set), or NULL for a new one */
  /* A listing: */
  bool list;      /* list the placements (with unique, one of each class) rather than count */
  FILE *out;      /* where the lines go, in the order of one thread's listing; NULL: nowhere
                     (a --part run keeps them in its line) */
  bool json;      /* each line as {"placement":"..."} */
  uint64_t limit; /* print at most this many lines, and stop when one more comes (a listing of
                     exactly limit lines is complete); 0: no limit (none with parts, checkpoint
                     or resume) */
} pq_pieces_task;

typedef struct pq_pieces_task_result {
  pq_count count;    /* placements (of the chosen parts) */
  pq_count fixed;    /* with unique: Burnside's other terms, summed (of the chosen parts) */
  pq_count unique;   /* with unique, when every part is there: the count up to symmetry */
  uint64_t nodes;    /* nodes searched by this run */
  uint64_t subparts; /* parts of the split */
  uint64_t id;       /* the split's fingerprint */
  char spec[64];     /* the pieces as pq_pieces_spec writes them */
  pq_count listed;   /* a listing: the lines out (with unique, the classes when complete) */
  bool complete;     /* the total is whole: not stopped (a listing: nor cut short by its limit) */
  int merged;        /* merge: the number of parts merged */
} pq_pieces_task_result;

/* Runs the count or the listing. A count runs first whole on one thread for a few milliseconds (a
   small count ends there), then split into parts that the engine runs on task->jobs threads
   (pq_engine_run: parts handed out in order, so the result does not depend on the number of
   threads). A listing is split as its search is (pq_pieces_split_new_list): each part's lines
   are the part's text, handed to task->out in the order of the parts, so the lines are those of
   one thread's listing for any number of threads; counts and listed lines go to *out (when the
   limit cut the listing short: out->listed alone, out->complete false, and PQ_OK). Returns
   PQ_OK with *out complete; PQ_ELIMIT or PQ_EINTR when stopped (the finished parts, and a
   listing's lines, are in the checkpoint when one was asked for; out->nodes is set); PQ_EINVAL
   with a message for a count beyond 128 bits, a --part beyond the split's parts, or a resume file
   that is not a sealed checkpoint of this count or listing and split (another one, damaged or
   edited: then not overwritten either); PQ_EIO when the checkpoint cannot be written, or the
   lines (no message: the caller says so). With task->lim.parts (and no task->out), runs part I
   of N and prints its line (pq_engine_run): its counts when done, a listing's lines as "texts". */
pq_status pq_pieces_task_run(const pq_pieces_task *task, pq_pieces_task_result *out);

/* Prints the total of task's run r as the command does: for a count, the count (and with unique
   the count up to symmetry) as text, or as one JSON object with task->json; for a listing, the
   JSON summary object alone (with task->json; nothing as text), which ends with the nodes
   searched and the seconds taken (seconds < 0: none, for a merge). spec: the pieces as given. */
void pq_pieces_print_total(FILE *f, const pq_pieces_task *task, const char *spec,
                           const pq_pieces_task_result *r, uint64_t nodes, double seconds);

/* Merges part results (parsed JSON lines of problem "pieces"): checks that every part 1..N of one
   split is there exactly once and done, then prints the total as the count does (text, or JSON
   with o->json); for a listing, its lines in order, then with o->json the summary object. Returns
   PQ_OK; PQ_EINVAL with one message for a malformed, foreign or repeated part; PQ_ELIMIT with one
   message when a part is missing or unfinished. */
pq_status pq_pieces_merge(pq_json *const *results, int n, const pq_options *o);

#endif
