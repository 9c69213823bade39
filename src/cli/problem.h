/* problem.h: what a problem module gives the command line. */
#ifndef PQ_PROBLEM_H
#define PQ_PROBLEM_H

#include <stdbool.h>

#include "../core/util.h"
#include "options.h"

struct pq_json;

typedef struct pq_problem {
  const char *name;     /* the command: peaceable NAME [options] */
  char letter;          /* its column in the PQ_OPTIONS table */
  const char *operands; /* its positional arguments for --help ("FILE"), or NULL for none */
  int max_operands;     /* how many it accepts */
  const char *summary;  /* one line for --help */
  /* Runs the problem with parsed options; results on stdout, messages on stderr. */
  pq_status (*run)(const pq_options *o);
  /* Merges part results of this problem (parsed JSON lines, n >= 1), or NULL when it has no
     parts. Checks that they make up one whole run before claiming anything. */
  pq_status (*merge)(struct pq_json *const *results, int n, const pq_options *o);
} pq_problem;

/* Every problem, NULL-terminated (registry.c: one line per module). */
extern const pq_problem *const pq_problems[];

#endif
