/* armies_parts.h: armies decisions and counts through the run engine (src/run/engine.h): threads,
   --part I/N results and merging them, checkpoints, MPI ranks. */
#ifndef PQ_ARMIES_PARTS_H
#define PQ_ARMIES_PARTS_H

#include "../../src/cli/options.h"
#include "../../src/core/json.h"
#include "../../src/run/engine.h"
#include "../../src/run/outer.h"
#include "armies.h"

/* A decision of `white` against `black` (queens, rooks, bishops) through the engine
   (src/run/engine.h): its parts are those of pq_armies_split_new, run on threads (or MPI ranks),
   one
   --part I/N of them, or saved in a checkpoint and resumed. */
typedef struct pq_armies_task {
  const pq_armies *armies;
  const pq_board *board;
  int white, black;
  /* jobs, node_limit, time_limit, cancel, symmetry; proof: keep the parts' proof trees (as texts
     of the engine: in checkpoints and part lines too); grow: witnesses as large as their leaf */
  const pq_armies_params *params;
  int depth;              /* of the split: PQ_ARMIES_SPLIT_DEPTH (at most 3 with 1000 cubes or
                             more: armies_search.c), or 0 (a part per cube) */
  const char *checkpoint; /* write the finished parts here (atomically), or NULL */
  const char *resume;     /* continue from this checkpoint, or NULL */
  /* Written into checkpoints so that a maximum's run resumes where it was: the largest size
     with a witness so far and that witness's text (NULL: none). */
  int best;
  const char *best_witness;
  int part, parts; /* --part I/N: print the part's line (pq_engine_run); 0: whole */
  /* With --part and params->proof: this part's certificate goes here, one file of a proof in
     parts (its trees, holes for the other parts' subparts), or the witness it found. */
  const char *part_cert;
} pq_armies_task;

/* Runs the decision. On PQ_OK, *out holds the answer as pq_armies_decide gives it (with the
   proof when params->proof and nothing was found); with task->parts, the part's line is printed
   and *out holds its answer. PQ_ELIMIT / PQ_EINTR: stopped, with the finished parts saved in the
   checkpoint when one was asked for. PQ_EINVAL: the resume file does not fit (a message). */
pq_status pq_armies_task_run(const pq_armies_task *task, pq_armies_decision *out);

/* Checks, before anything runs, that task->resume can be resumed by task: PQ_OK, or PQ_EINVAL with
   a message. A checkpoint is thus refused at once (exit 2), not when its decision comes. */
pq_status pq_armies_task_check(const pq_armies_task *task);

/* What a checkpoint says about a maximum's run: the largest size with a witness, or -1. */
typedef struct pq_armies_resume_info {
  int best;
  char *best_witness; /* caller frees */
  int white, black;   /* the decision in progress; -1 for knights, whose bounds serve them all */
  /* A count's or a listing's checkpoint (no decision in progress: white and black -1); at the
     maximum, the maximum it counts at (best, with best_witness) and what proved it, else
     maximum -1 (at --size K). */
  bool counting;
  int maximum;
  pq_method proved_by;
} pq_armies_resume_info;

/* Reads the head of a checkpoint for board b and piece p: a maximum's or a decision's, or a
   count's (info->counting); for knights, takes its bounds learnt (pq_armies_knights_resume).
   Returns PQ_OK, PQ_EINVAL (not a sealed checkpoint of armies of this board and piece: another
   one, damaged or edited; with a message) or PQ_EIO. *info is overwritten (its best_witness
   is the caller's to free, and its witness the caller's to check). */
pq_status pq_armies_resume_read(const char *path, const pq_board *b, pq_piece p,
                                pq_armies_resume_info *info);

/* The facts of an armies checkpoint (JSON members): the best size so far and its witness (NULL:
   none yet, "best":-1). The caller frees. */
char *pq_armies_facts(int best, const char *best_witness);

/* A count's outcome for the engine, as the counts of two colours and of more keep it: the
   placements, and Burnside's sums over the board's symmetries without and with the colours'
   permutations; added, written and read (pq_engine_problem's add, write, read) the same way. */
typedef struct pq_armies_counts {
  pq_count count, fixed, fixed_colour;
  pq_count listed; /* a listing's lines (two colours: armies_count.c writes and reads them) */
} pq_armies_counts;
int pq_armies_counts_add(void *ctx, void *total, const void *more);
void pq_armies_counts_write(void *ctx, FILE *f, const void *value);
const char *pq_armies_counts_read(void *ctx, const pq_json *v, void *value);

/* A count of white against black queens, rooks or bishops through the engine (armies_count.c):
   its parts are the cubes of the board's symmetries, run on threads, one --part I/N of them, or
   saved in a checkpoint and resumed. */
typedef struct pq_armies_count_task {
  const pq_armies *armies; /* a line piece */
  const pq_board *board;
  int white, black; /* they fit on the board */
  pq_engine_limits lim;
  /* For a count certificate (not with lim.parts or lim.checkpoint): the count's proof into
     *proof (pq_armies_count_proved's), and every placement the search visits handed to
     keep(keep_ctx, cells, 1), in the order of the parts whatever the threads. */
  pq_armies_decision *proof;
  pq_armies_visit keep;
  void *keep_ctx;
  /* A listing (NULL: a count): its parts are every cube of the split lines, its texts the
     placements listed, which the engine hands to list->show in order (a part line or a
     checkpoint keeps them, and a resumed run shows them again, each checked). */
  const struct pq_armies_lister *list;
  /* JSON members its checkpoints carry (pq_engine_task.facts): a count at the maximum says
     which maximum it counts, so that a resume need not find it again; NULL: none. */
  const char *facts;
} pq_armies_count_task;

/* A listing's placements: every one, or one a class (unique: its class's canonical form,
   pq_sym_canonical), each handed to show(ctx, cells, 1) in the order of the parts, whatever the
   threads; show returns nonzero to stop the listing (--limit). */
typedef struct pq_armies_lister {
  bool unique;
  pq_armies_visit show;
  void *ctx;
} pq_armies_lister;

typedef struct pq_armies_counted {
  pq_count count, unique, unique_colour; /* placements; classes; classes with colour exchange */
  uint64_t nodes;
} pq_armies_counted;

/* Runs the count (pq_engine_run): PQ_OK with *out; PQ_ELIMIT or PQ_EINTR when stopped (the
   finished parts in the checkpoint); PQ_EINVAL with a message (a --part beyond the parts, a
   resume file that is not a sealed checkpoint of this count). With task->parts, runs that part
   and prints its result line instead (pq_engine_run; *out is then not set). */
pq_status pq_armies_count_run(const pq_armies_count_task *task, pq_armies_counted *out);

/* Merges count part lines (pq_engine_merge) of white against black on a's board b into *out
   (list not NULL: a listing's, every line checked and shown). Returns as pq_engine_merge. */
pq_status pq_armies_count_merge(pq_json *const *lines, int n, const pq_armies *a, const pq_board *b,
                                int white, int black, const pq_armies_lister *list,
                                pq_armies_counted *out);

/* Merges part results (parsed JSON lines of one problem): checks that every part of one split
   is there exactly once and finished, then prints the answer; with o->cert, writes the
   certificate of infeasibility assembled from the parts' trees. */
pq_status pq_armies_merge(pq_json *const *results, int n, const pq_options *o);

#endif
