/* armies_parts.h: armies decisions in parts: --part I/N results, merging them, checkpoints. */
#ifndef PQ_ARMIES_PARTS_H
#define PQ_ARMIES_PARTS_H

#include "../src/json.h"
#include "../src/options.h"
#include "armies.h"

/* A decision of `white` against `black` run part by part, with optional checkpoints. */
typedef struct pq_armies_job {
  const pq_armies *armies;
  const pq_board *board;
  int white, black;
  const pq_armies_params *params;
  bool proof;             /* keep proof trees (for a certificate) */
  const char *checkpoint; /* write the finished parts here (atomically), or NULL */
  const char *resume;     /* continue from this checkpoint, or NULL */
  /* The checkpoint's bytes, read when the run started (borrowed; NULL: read the file resume):
     the file may since have been overwritten by this run's other decisions. */
  const char *resume_text;
  size_t resume_len;
  /* Written into checkpoints so that a maximum's run resumes where it was: the largest size
     with a witness so far and that witness's text (NULL: none). */
  int best;
  const char *best_witness;
} pq_armies_job;

/* Runs the decision. On PQ_OK, *out holds the answer as pq_armies_decide gives it (with the
   proof when job->proof and nothing was found). PQ_ELIMIT / PQ_EINTR: stopped, with the
   finished parts saved in the checkpoint when one was asked for. PQ_EINVAL: the resume file
   does not match (a message names it). */
pq_status pq_armies_job_run(const pq_armies_job *job, pq_armies_decision *out);

/* What a checkpoint says about a maximum's run: the largest size with a witness, or -1. */
typedef struct pq_armies_resume_info {
  int best;
  char *best_witness; /* caller frees */
  int white, black;   /* the decision in progress */
  char *text;         /* the checkpoint's bytes (caller frees) */
  size_t len;
} pq_armies_resume_info;

/* Reads the head of a checkpoint for board b and piece p, and keeps its bytes. Returns PQ_OK,
   PQ_EINVAL (not a sealed checkpoint of this problem: another one, damaged or edited; with a
   message) or PQ_EIO. */
pq_status pq_armies_resume_read(const char *path, const pq_board *b, pq_piece p,
                                pq_armies_resume_info *info);

/* Checks, before anything runs, that the finished parts of job->resume_text (read by
   pq_armies_resume_read) fit the split of job's decision: PQ_OK, or PQ_EINVAL with a message.
   A checkpoint is thus refused at once (exit 2), not when its decision comes (if ever). */
pq_status pq_armies_resume_check(const pq_armies_job *job);

/* Runs part `part` (1..parts) of the decision and prints its result as one JSON line. With
   proof (a path, or NULL), also writes the same line with the proof trees of its subparts there
   (atomically), for `merge --cert`. */
pq_status pq_armies_part_run(const pq_armies_job *job, int part, int parts, const char *proof);

/* A count of white against black queens, rooks or bishops through the engine (armies_count.c):
   its parts are the cubes of the board's symmetries, run on threads, one --part I/N of them, or
   saved in a checkpoint and resumed. */
typedef struct pq_armies_count_job {
  const pq_armies *armies; /* a line piece */
  const pq_board *board;
  int white, black; /* they fit on the board */
  int jobs;
  uint64_t node_limit;    /* 0: none */
  double deadline;        /* pq_now() past which the count stops; 0: none */
  const char *checkpoint; /* or NULL */
  const char *resume;     /* or NULL */
  const char *progress;   /* a label for progress on stderr, or NULL */
  int part, parts;        /* --part I/N; parts 0: the whole count */
} pq_armies_count_job;

typedef struct pq_armies_counted {
  pq_count count, unique, unique_colour; /* placements; classes; classes with colour exchange */
  uint64_t nodes;
} pq_armies_counted;

/* Runs the count (pq_engine_run): PQ_OK with *out; PQ_ELIMIT or PQ_EINTR when stopped (the
   finished parts in the checkpoint); PQ_EINVAL with a message (a --part beyond the parts, a
   resume file that is not a sealed checkpoint of this count). With job->parts, runs that part
   and prints its result line instead (pq_engine_run_part; *out is then not set). */
pq_status pq_armies_count_run(const pq_armies_count_job *job, pq_armies_counted *out);

/* Merges count part lines (pq_engine_merge) of white against black on a's board b into *out.
   Returns as pq_engine_merge. */
pq_status pq_armies_count_merge(pq_json *const *lines, int n, const pq_armies *a, const pq_board *b,
                                int white, int black, pq_armies_counted *out);

/* Merges part results (parsed JSON lines of one problem): checks that every part of one split
   is there exactly once and finished, then prints the answer; with o->cert, writes the
   certificate of infeasibility assembled from the parts' trees. */
pq_status pq_armies_merge(pq_json *const *results, int n, const pq_options *o);

#endif
