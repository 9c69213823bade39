/* verify.c: `peaceable verify FILE`: reads a certificate and hands it to its problem's checker
   (libcheck.a, src/check.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "json.h"
#include "problem.h"

/* Certificates larger than this are refused rather than read into memory. */
#define MAX_CERT_BYTES ((size_t)2 << 30)

/* Reads --sample P and --seed S into p: p->sample = P / 100 (1 without --sample) and p->rng a
   nonzero xorshift state from the seed (the clock's, printed on stderr, without --seed). Returns
   PQ_OK, or PQ_EINVAL with a message. */
static pq_status sampling(const pq_options *o, pq_check_params *p) {
  if (o->seed && !o->sample) {
    pq_error("verify: --seed applies to --sample");
    return PQ_EINVAL;
  }
  if (!o->sample) return PQ_OK;
  char *end;
  double percent = strtod(o->sample, &end);
  long seed;
  if (*end || end == o->sample || !(percent > 0 && percent <= 100)) {
    pq_error("--sample \"%s\": expected a percentage above 0, at most 100", o->sample);
    return PQ_EINVAL;
  }
  if (pq_option_long("seed", o->seed, 0, __LONG_MAX__, (long)time(NULL), &seed)) return PQ_EINVAL;
  if (!o->seed && !PQ_FLAG(o, quiet))
    fprintf(stderr, "peaceable: verify: --sample with --seed %ld\n", seed);
  p->sample = percent / 100;
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
  double seconds = 0;
  long jobs;
  if (o->time_limit && pq_option_seconds("time-limit", o->time_limit, &seconds)) return PQ_EINVAL;
  if (pq_option_long("jobs", o->jobs, 1, 256, pq_cores(), &jobs)) return PQ_EINVAL;
  if (sampling(o, &params)) return PQ_EINVAL;
  params.deadline = o->time_limit ? pq_now() + seconds : 0;
  /* Several files: one proof in parts, checked file by file on the threads. */
  if (o->noperands > 1) return pq_check_parts(o->operands, o->noperands, (int)jobs, &params, NULL);
  const char *path = o->operands[0];
  char *text = NULL, err[160];
  size_t len;
  pq_status rc = pq_read_file(path, MAX_CERT_BYTES, &text, &len);
  if (rc) return rc == PQ_EIO ? PQ_EINVAL : rc;
  pq_json *doc = pq_json_parse(text, len, err);
  free(text);
  if (!doc) {
    pq_error("verify: %s: not JSON: %s", path, err);
    return PQ_EINVAL;
  }
  const char *format = pq_json_get_string(doc, "format"),
             *name = pq_json_get_string(doc, "problem");
  long version;
  rc = PQ_EINVAL;
  if (!format || strcmp(format, "peaceable-certificate") ||
      pq_json_get_long(doc, "version", 1, 1, &version)) {
    pq_error("verify: %s: not a peaceable certificate of version 1", path);
  } else {
    pq_check_fn check = pq_check_find(name);
    if (!check)
      pq_error("verify: %s: no checker for problem \"%s\"", path, name ? name : "");
    else
      rc = check(doc, &params);
  }
  pq_json_free(doc);
  return rc;
}

const pq_problem pq_problem_verify = {
    .name = "verify",
    .letter = 'v',
    .operands = "FILES...",
    .max_operands = 1 << 20,
    .summary = "check a certificate, or the files of a proof in parts, independently: exit 0 "
               "valid, 1 invalid, 2 malformed",
    .run = run,
};
