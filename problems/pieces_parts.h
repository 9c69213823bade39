/* pieces_parts.h: pieces counts in parts through the engine (src/engine.h): threads, progress,
   checkpoints, --part I/N results and merging them; and listings on threads in one thread's
   order. */
#ifndef PQ_PIECES_PARTS_H
#define PQ_PIECES_PARTS_H

#include <stdbool.h>
#include <stdint.h>

#include "../src/json.h"
#include "../src/options.h"
#include "pieces.h"

/* A count of pieces on a board, run part by part (pq_pieces_split). */
typedef struct pq_pieces_job {
  const pq_board *board;  /* borrowed */
  const int *counts;      /* [PQ_NPIECES], as pq_pieces_parse gives them */
  const char *spec;       /* the --pieces text, for messages */
  bool unique;            /* also count up to symmetry (Burnside's other terms) */
  int jobs;               /* threads (at least 1) */
  uint64_t node_limit;    /* stop with PQ_ELIMIT after this many nodes in all; 0: none */
  double deadline;        /* stop with PQ_ELIMIT once pq_now() passes it; 0: none */
  const char *checkpoint; /* write the finished parts here (atomically), or NULL */
  const char *resume;     /* take the finished parts of this checkpoint, or NULL */
  const char *progress;   /* what is running, for progress on stderr; NULL: none */
  int part, parts;        /* only the parts i with i % parts == part - 1; parts 0: all */
  pq_pieces *engine;      /* a solver of board and counts for the first thread (its limits
                             and poll are set), or NULL for a new one */
} pq_pieces_job;

typedef struct pq_pieces_job_result {
  pq_count count;    /* placements (of the chosen parts) */
  pq_count fixed;    /* with unique: Burnside's other terms, summed (of the chosen parts) */
  pq_count unique;   /* with unique, when every part is there: the count up to symmetry */
  uint64_t nodes;    /* nodes searched by this run */
  uint64_t subparts; /* parts of the split */
  uint64_t id;       /* the split's fingerprint */
  char spec[64];     /* the pieces as pq_pieces_spec writes them */
} pq_pieces_job_result;

/* Runs the count: first whole on one thread for a few milliseconds (a small count ends there),
   then split into parts that the engine runs on job->jobs threads (pq_engine_run: parts handed
   out in order, so the result does not depend on the number of threads). Returns PQ_OK with
   *out complete; PQ_ELIMIT or PQ_EINTR when stopped (the finished parts are in the checkpoint
   when one was asked for; out->nodes is set); PQ_EINVAL with a message for a count beyond 128
   bits, a --part beyond the split's parts, or a resume file that is not a sealed checkpoint of
   this count and split (another one, damaged or edited: then not overwritten either); PQ_EIO when
   the checkpoint cannot be written. */
pq_status pq_pieces_job_run(const pq_pieces_job *job, pq_pieces_job_result *out);

/* Lists the placements of job (its board, pieces, threads, limits and progress; no parts,
   checkpoint or resume), every one or with l->unique one of each class, as pq_pieces_list would
   on one thread and in the same order: the listing's split is handed out to the threads, and each
   part's lines are written out once every earlier part's are. The lines of parts not yet written
   out take at most 4 MB a thread, then threads wait: memory does not grow with the placements.
   l gives the file, the prefix and suffix and the limit (no callback). *out is set as by
   pq_pieces_list, *nodes to the nodes searched. Returns PQ_OK (also when the limit cut the listing
   short), PQ_ELIMIT, PQ_EINTR or PQ_EIO (writing failed; no message). */
pq_status pq_pieces_list_run(const pq_pieces_job *job, const pq_pieces_listing *l,
                             pq_pieces_listed *out, uint64_t *nodes);

/* Runs job (with job->part, job->parts set) and prints its result as one JSON line on stdout:
   the problem, board, pieces, unique, the split's fingerprint and parts, the part, whether it is
   done, its count(s) when done, and its nodes. Returns as pq_pieces_job_run (the line is printed
   for PQ_OK, PQ_ELIMIT and PQ_EINTR). */
pq_status pq_pieces_part_run(const pq_pieces_job *job);

/* Merges part results (parsed JSON lines of problem "pieces"): checks that every part 1..N of one
   split is there exactly once and done, then prints the total as the count does (text, or JSON
   with o->json). Returns PQ_OK; PQ_EINVAL with one message for a malformed, foreign or repeated
   part; PQ_ELIMIT with one message when a part is missing or unfinished. */
pq_status pq_pieces_merge(pq_json *const *results, int n, const pq_options *o);

#endif
