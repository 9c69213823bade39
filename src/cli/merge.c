/* merge.c: `peaceable merge FILES...`: combines part results of one split run. */
#include <stdlib.h>
#include <string.h>

#include "../check/check.h"
#include "../core/json.h"
#include "../run/engine.h"
#include "problem.h"

/* Part results are one JSON object per line; files larger than this are refused. */
#define MAX_RESULTS_BYTES PQ_ENGINE_READ_BYTES

/* What text (a whole file) is: part result lines, or one document, a certificate (a file of a
   proof in parts) or a checkpoint. */
typedef enum { LINES, CERTIFICATE, CHECKPOINT } file_kind;

static file_kind kind_of(const char *text, size_t len) {
  char err[160];
  pq_json *doc = pq_json_parse(text, len, err);
  const char *format = doc ? pq_json_get_string(doc, "format") : NULL;
  file_kind kind = !format                                    ? LINES
                   : !strcmp(format, "peaceable-certificate") ? CERTIFICATE
                   : !strcmp(format, "peaceable-checkpoint")  ? CHECKPOINT
                                                              : LINES;
  pq_json_free(doc);
  return kind;
}

/* merge --cert OUT FILES...: the files of a proof in parts (armies --part I/N --cert FILE) are
   checked as verify checks them, and only then made into one certificate. */
static pq_status merge_certificates(const pq_options *o) {
  /* They are read twice (checked, then copied and compared): standard input cannot be. */
  for (int i = 0; i < o->noperands; i++)
    if (!strcmp(o->operands[i], "-")) {
      pq_error("merge: --cert: the files of a proof are read twice (checked, then copied), which "
               "standard input (-) cannot be: give them as files");
      return PQ_EINVAL;
    }
  pq_check_params params;
  pq_check_params_init(&params);
  params.json = PQ_FLAG(o, json);
  params.deadline = pq_command_deadline; /* (--time-limit) */
  return pq_check_parts(o->operands, o->noperands, o->v.jobs, &params, o->cert);
}

/* The part results read so far, and where each came from ("FILE" or "FILE, line K"), for the
   messages. */
typedef struct results {
  pq_json **docs;
  char **sources;
  int n, cap;
} results;

/* Whether the text from p to end is only spaces, tabs and carriage returns. */
static bool blank(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
    p++;
  return p == end;
}

/* Adds the part results of text[0..len-1], the file `operand`, one JSON object a line. PQ_OK, or
   PQ_EINVAL with one message. */
static pq_status add_lines(results *r, const char *operand, const char *text, size_t len) {
  const char *name = strcmp(operand, "-") ? operand : "standard input (-)";
  int line = 0;
  for (const char *p = text, *end; p < text + len; p = end + 1) {
    char err[160];
    end = memchr(p, '\n', (size_t)(text + len - p));
    if (!end) end = text + len;
    line++;
    if (blank(p, end)) continue; /* (an empty line, or one of spaces: a file edited by hand) */
    pq_json *doc = pq_json_parse(p, (size_t)(end - p), err);
    const char *format = doc ? pq_json_get_string(doc, "format") : NULL;
    if (!doc && line == 1 && !strncmp(p, "{\"format\":\"peaceable-", 21)) {
      /* (cat A.json B.json | merge -: it said "line 1: not a JSON object".) */
      pq_error("merge: %s: not a whole certificate or checkpoint (cut short, or several in one "
               "file: give each as a file of its own)",
               name);
      return PQ_EINVAL;
    }
    if ((format && !strncmp(format, "peaceable-", 10)) || !doc || doc->type != PQ_JSON_OBJECT) {
      if (format)
        pq_error("merge: %s, line %d: a certificate or a checkpoint among part results: give "
                 "each as a file of its own",
                 name, line);
      else
        pq_error("merge: %s, line %d: not a JSON object: %s", operand, line,
                 doc ? "another value" : err);
      pq_json_free(doc);
      return PQ_EINVAL;
    }
    /* The text is gone once parsed: its digest, if any, is checked now (and marked). */
    pq_engine_check_line(doc, p, (size_t)(end - p));
    if (r->n == r->cap) {
      r->cap = r->cap ? 2 * r->cap : 16;
      r->docs = pq_realloc(r->docs, (size_t)r->cap * sizeof *r->docs);
      r->sources = pq_realloc(r->sources, (size_t)r->cap * sizeof *r->sources);
    }
    size_t room = strlen(operand) + 32;
    r->sources[r->n] = pq_malloc(room);
    snprintf(r->sources[r->n], room, line > 1 || end < text + len - 1 ? "%s, line %d" : "%s",
             operand, line);
    r->docs[r->n++] = doc;
  }
  return PQ_OK;
}

static pq_status run(const pq_options *o) {
  if (o->noperands < 1) {
    pq_error("merge: expected part result FILES (see 'peaceable merge --help')");
    return PQ_EINVAL;
  }
  results r = {0};
  pq_status rc = PQ_OK;
  for (int f = 0; f < o->noperands && rc == PQ_OK; f++) {
    char *text;
    size_t len;
    if ((rc = pq_read_file(o->operands[f], MAX_RESULTS_BYTES, &text, &len))) break;
    file_kind kind = kind_of(text, len);
    if (kind == CHECKPOINT) {
      pq_error("merge: %s is a checkpoint: continue its run with --resume %s (merge takes the "
               "lines that --part prints)",
               o->operands[f], o->operands[f]);
      rc = PQ_EINVAL;
    } else if (f == 0 && kind == CERTIFICATE) {
      free(text);
      if (o->cert) return merge_certificates(o);
      pq_error("merge: %s is a certificate: merge the files of a proof in parts with --cert "
               "FILE, or check them with 'peaceable verify FILES'",
               o->operands[0]);
      return PQ_EINVAL;
    } else {
      rc = add_lines(&r, o->operands[f], text, len);
    }
    free(text);
  }
  int n = r.n;
  const char *name = n ? pq_json_get_string(r.docs[0], "problem") : NULL;
  const pq_problem *problem = NULL;
  for (int i = 0; name && pq_problems[i]; i++)
    if (!strcmp(pq_problems[i]->name, name) && pq_problems[i]->merge) problem = pq_problems[i];
  if (rc == PQ_OK && !n) {
    pq_error("merge: no part results in the files");
    rc = PQ_EINVAL;
  } else if (rc == PQ_OK && !problem) {
    pq_error("merge: %s: not a part result (no problem with parts named \"%s\")", r.sources[0],
             name ? name : "");
    rc = PQ_EINVAL;
  }
  for (int i = 1; rc == PQ_OK && i < n; i++) {
    const char *other = pq_json_get_string(r.docs[i], "problem");
    if (!other || strcmp(other, name)) {
      pq_error("merge: %s is of problem \"%s\", %s of \"%s\"", r.sources[i], other ? other : "",
               r.sources[0], name);
      rc = PQ_EINVAL;
    }
  }
  pq_engine_merge_sources = (const char *const *)r.sources;
  if (rc == PQ_OK) rc = problem->merge(r.docs, n, o);
  pq_engine_merge_sources = NULL;
  for (int i = 0; i < n; i++) {
    pq_json_free(r.docs[i]);
    free(r.sources[i]);
  }
  free(r.docs);
  free(r.sources);
  return rc;
}

const pq_problem pq_problem_merge = {
    .name = "merge",
    .letter = 'm',
    .operands = "FILES...",
    .max_operands = 1 << 30,
    .summary = "combine the results of a run split with --part I/N; claims an answer only when "
               "every part is there once",
    .run = run,
};
