/* verify.c: `peaceable verify FILE`: reads a certificate and hands it to its problem's checker. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "json.h"
#include "problem.h"
#include "search.h"

/* Certificates larger than this are refused rather than read into memory. */
#define MAX_CERT_BYTES ((size_t)2 << 30)

void pq_verify_report(const pq_options *o, const char *problem, pq_verdict verdict, const char *fmt,
                      ...) {
  char message[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message, sizeof message, fmt, ap);
  va_end(ap);
  static const char *const words[] = {"invalid", "valid", "valid in the sample"};
  if (!PQ_FLAG(o, json)) {
    pq_one_line(message);
    printf("%s: %s\n", words[verdict], message);
    return;
  }
  printf("{\"problem\":\"%s\",\"valid\":%s,\"sampled\":%s,\"message\":", problem,
         verdict == PQ_INVALID ? "false" : "true",
         verdict == PQ_VALID_IN_SAMPLE ? "true" : "false");
  pq_json_write_string(stdout, message);
  printf("}\n");
}

pq_status pq_verify_sampling(const pq_options *o, double *fraction, uint64_t *rng) {
  *fraction = 1;
  *rng = 0x9e3779b97f4a7c15u;
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
  if (!o->seed) fprintf(stderr, "peaceable: verify: --sample with --seed %ld\n", seed);
  *fraction = percent / 100;
  *rng ^= (uint64_t)seed * 0xbf58476d1ce4e5b9u;
  if (!*rng) *rng = 1;
  return PQ_OK;
}

/* verify's --time-limit: the pq_now() time at which checks stop (0: none), and whether it
   stopped one. */
static double deadline;
static bool timed_out;

bool pq_verify_stop(void) {
  static unsigned calls;
  if (pq_interrupted) return true;
  if (deadline > 0 && !timed_out && ++calls % 1024 == 0 && pq_now() > deadline) timed_out = true;
  return timed_out;
}

pq_status pq_verify_stopped(void) {
  if (pq_interrupted) {
    pq_error("verify: interrupted before a verdict");
    return PQ_EINTR;
  }
  pq_error("verify: the time limit ended the check before a verdict");
  return PQ_ELIMIT;
}

static pq_status run(const pq_options *o) {
  if (o->noperands != 1) {
    pq_error("verify: expected one certificate FILE (see 'peaceable verify --help')");
    return PQ_EINVAL;
  }
  double seconds = 0;
  if (o->time_limit && pq_option_seconds("time-limit", o->time_limit, &seconds)) return PQ_EINVAL;
  deadline = o->time_limit ? pq_now() + seconds : 0;
  timed_out = false;
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
    const pq_problem *problem = NULL;
    for (int i = 0; pq_problems[i]; i++)
      if (name && !strcmp(pq_problems[i]->name, name) && pq_problems[i]->verify)
        problem = pq_problems[i];
    if (!problem)
      pq_error("verify: %s: no checker for problem \"%s\"", path, name ? name : "");
    else
      rc = problem->verify(doc, o);
  }
  pq_json_free(doc);
  return rc;
}

const pq_problem pq_problem_verify = {
    .name = "verify",
    .letter = 'v',
    .operands = "FILE",
    .max_operands = 1,
    .summary = "check a certificate independently: exit 0 valid, 1 invalid, 2 malformed",
    .run = run,
};
