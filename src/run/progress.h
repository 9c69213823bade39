/* progress.h: progress of long runs on stderr. */
#ifndef PQ_PROGRESS_H
#define PQ_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

/* Whether progress is shown at all (false after --quiet). Set once by the command line. */
extern bool pq_progress_enabled;

typedef struct pq_progress {
  const char *label; /* what is running, e.g. "armies 13x13 size 25" */
  uint64_t total;    /* parts in all */
  double start;
  bool shown;
} pq_progress;

/* Starts the clock of the command's progress: "elapsed" counts from here (the command line
   calls it as the command starts). */
void pq_progress_clock(void);

/* Starts timing a run of `total` parts (0: one search, not parts, whose updates give its nodes
   and rate but no estimate). Nothing is printed during the first second. */
void pq_progress_start(pq_progress *p, const char *label, uint64_t total);

/* Reports `done` parts finished and `nodes` searched so far, the rate and the time left of this
   stage (and when the time limit stops the run, if sooner), and the time elapsed since the command
   started. Nothing is shown during the stage's first second; then, on a terminal, the line is
   redrawn in place at most 5 times a second; otherwise one line every 10 seconds, over every
   stage. Not thread-safe: call it under the caller's lock. */
void pq_progress_update(pq_progress *p, uint64_t done, uint64_t nodes);

/* Ends the line (on a terminal) if anything was shown. */
void pq_progress_end(pq_progress *p);

/* A text listing that --limit N cut short (in JSON its summary says "complete":false) says so on
   standard error, unless --quiet: its lines alone did not tell. */
void pq_progress_note_cut(long limit);

#endif
