/* problem.h: what a problem module gives the command line. */
#ifndef PQ_PROBLEM_H
#define PQ_PROBLEM_H

#include <stdbool.h>

#include "options.h"
#include "util.h"

struct pq_json;

typedef struct pq_problem {
  const char *name;     /* the command: peaceable NAME [options] */
  char letter;          /* its column in the PQ_OPTIONS table */
  const char *operands; /* its positional arguments for --help ("FILE"), or NULL for none */
  int max_operands;     /* how many it accepts */
  const char *summary;  /* one line for --help */
  /* Runs the problem with parsed options; results on stdout, messages on stderr. */
  pq_status (*run)(const pq_options *o);
  /* Checks a certificate of this problem (parsed JSON), or NULL when it writes none. Prints
     "valid: ..." or "invalid: REASON"; returns PQ_OK, PQ_EFALSE or PQ_EINVAL (malformed). */
  pq_status (*verify)(const struct pq_json *doc, const pq_options *o);
  /* Merges part results of this problem (parsed JSON lines, n >= 1), or NULL when it has no
     parts. Checks that they make up one whole run before claiming anything. */
  pq_status (*merge)(struct pq_json *const *results, int n, const pq_options *o);
} pq_problem;

/* What a certificate checker concludes. */
typedef enum pq_verdict { PQ_INVALID, PQ_VALID, PQ_VALID_IN_SAMPLE } pq_verdict;

/* Prints a checker's conclusion on stdout: "valid: MESSAGE", "valid in the sample: MESSAGE" or
   "invalid: MESSAGE"; with --json one object {"problem", "valid", "sampled", "message"}. */
void pq_verify_report(const pq_options *o, const char *problem, pq_verdict verdict, const char *fmt,
                      ...) __attribute__((format(printf, 4, 5)));

/* Reads verify's --sample P and --seed S: *fraction = P / 100 (1 without --sample) and *rng a
   nonzero xorshift state from the seed (the clock's, printed on stderr, without --seed).
   Returns PQ_OK, or PQ_EINVAL with a message. */
pq_status pq_verify_sampling(const pq_options *o, double *fraction, uint64_t *rng);

/* The checkers' stop test, for their long searches: true once SIGINT or SIGTERM arrived or
   verify's --time-limit has passed (the clock is read every 1024 calls). A checker that stops
   gives no verdict: it returns pq_verify_stopped(). */
bool pq_verify_stop(void);

/* After pq_verify_stop: prints why there is no verdict and returns PQ_EINTR (a signal) or
   PQ_ELIMIT (the time limit). */
pq_status pq_verify_stopped(void);

/* Every problem, NULL-terminated (registry.c: one line per module). */
extern const pq_problem *const pq_problems[];

#endif
