/* problem.h: what a problem module gives the command line. */
#ifndef PQ_PROBLEM_H
#define PQ_PROBLEM_H

#include "options.h"
#include "util.h"

typedef struct pq_problem {
  const char *name;    /* the command: peaceable NAME [options] */
  char letter;         /* its column in the PQ_OPTIONS table */
  bool takes_operand;  /* accepts one positional argument (verify FILE) */
  const char *summary; /* one line for --help */
  /* Runs the problem with parsed options; results on stdout, messages on stderr. */
  pq_status (*run)(const pq_options *o);
} pq_problem;

/* Every problem, NULL-terminated (registry.c: one line per module). */
extern const pq_problem *const pq_problems[];

#endif
