/* verify.c: `peaceable verify FILE`: reads a certificate and hands it to its problem's checker
   (libcheck.a, src/check/check.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../check/check.h"
#include "../core/json.h"
#include "problem.h"

/* Reads --sample P and --seed S into p: p->sample = P / 100 (1 without --sample) and p->rng a
   nonzero xorshift state from the seed (the clock's, printed on stderr, without --seed). Returns
   PQ_OK, or PQ_EINVAL with a message. */
static pq_status sampling(const pq_options *o, pq_check_params *p) {
  if (o->seed && !o->sample) {
    pq_error("verify: --seed applies to --sample");
    return PQ_EINVAL;
  }
  if (!o->sample) return PQ_OK;
  long seed = o->seed ? o->v.seed : pq_clock_seed();
  if (!o->seed && !PQ_FLAG(o, quiet))
    fprintf(stderr,
            "peaceable: verify: --sample with --seed %ld (counts and the proofs of kings and "
            "knights are checked whole)\n",
            seed);
  p->sample = o->v.sample;
  p->seed = seed;
  p->rng ^= (uint64_t)seed * 0xbf58476d1ce4e5b9u;
  if (!p->rng) p->rng = 1;
  return PQ_OK;
}

static pq_status run(const pq_options *o) {
  if (o->noperands < 1) {
    pq_error("verify: expected a certificate FILE, or the FILES of a proof in parts (see "
             "'peaceable verify --help')");
    return PQ_EINVAL;
  }
  pq_check_params params;
  pq_check_params_init(&params);
  params.json = PQ_FLAG(o, json);
  int jobs = o->v.jobs;
  if (sampling(o, &params)) return PQ_EINVAL;
  params.deadline = pq_command_deadline; /* (--time-limit) */
  /* Several files: one proof in parts, checked file by file on the threads; one file: its cubes
     on the threads. */
  pq_status rc = PQ_OK;
  if (o->noperands > 1) {
    rc = pq_check_parts(o->operands, o->noperands, jobs, &params, NULL);
  } else {
    params.jobs = jobs;
    rc = pq_check_file(o->operands[0], &params);
  }
  /* A sample that left part of the proof unchecked found no fault: an audit, not a verdict. A
     script that reads the exit status must not take it for "valid". */
  return rc == PQ_OK && pq_check_audited() ? PQ_ELIMIT : rc;
}

const pq_problem pq_problem_verify = {
    .name = "verify",
    .letter = 'v',
    .operands = "FILES...",
    .max_operands = 1 << 20,
    .summary = "check a certificate, or the files of a proof in parts, independently: exit 0 "
               "valid, 1 invalid, 2 malformed, 3 no verdict (a sample, a proof in parts "
               "lacking a file, a limit)",
    .run = run,
};
