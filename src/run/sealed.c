/* sealed.c: the files of the engine (src/run/engine.h): checkpoints and part lines, sealed with a
   digest, written atomically and read back. */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

#define DIGEST_KEY ",\"digest\":\""

void pq_engine_seal(FILE *f, const char *content, size_t len) {
  fwrite(content, 1, len, f);
  fprintf(f, DIGEST_KEY "%016" PRIx64 "\"}\n", pq_fnv_bytes(PQ_FNV_BASIS, content, len));
}

/* The length of the content text seals, or -1 when it is not sealed. */
static long sealed_length(const char *text, size_t len) {
  while (len && (text[len - 1] == '\n' || text[len - 1] == ' ' || text[len - 1] == '\r'))
    len--;
  size_t key = strlen(DIGEST_KEY), tail = key + 16 + 2;
  if (len < tail || memcmp(text + len - tail, DIGEST_KEY, key) || memcmp(text + len - 2, "\"}", 2))
    return -1;
  size_t content = len - tail;
  char want[17];
  snprintf(want, sizeof want, "%016" PRIx64, pq_fnv_bytes(PQ_FNV_BASIS, text, content));
  return memcmp(text + content + key, want, 16) ? -1 : (long)content;
}

void pq_engine_write_sealed(FILE *out, void (*write)(FILE *f, void *ctx), void *ctx) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = pq_memstream(&text, &len);
  write(f, ctx);
  fclose(f);
  while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
    len--;
  PQ_REQUIRE(len && text[len - 1] == '}', "not a JSON object to seal");
  pq_engine_seal(out, text, len - 1);
  free(text);
}

typedef struct sealed_writer {
  void (*write)(FILE *f, void *ctx);
  void *ctx;
} sealed_writer;

static void write_sealed(FILE *f, void *arg) {
  sealed_writer *w = arg;
  pq_engine_write_sealed(f, w->write, w->ctx);
}

static atomic_bool unsaved, /* the last checkpoint write failed */
    failed_once;            /* a checkpoint write of this process failed */

pq_status pq_engine_save_sealed(const char *path, void (*write)(FILE *f, void *ctx), void *ctx) {
  sealed_writer w = {write, ctx};
  pq_status rc = pq_write_atomic(path, write_sealed, &w);
  atomic_store(&unsaved, rc != PQ_OK);
  if (rc) atomic_store(&failed_once, true);
  return rc;
}

bool pq_engine_unsaved(void) { return atomic_load(&unsaved); }

bool pq_engine_save_failed(void) { return atomic_load(&failed_once); }

bool pq_engine_sealed(const char *text, size_t len) { return sealed_length(text, len) >= 0; }

void pq_engine_check_line(pq_json *doc, const char *text, size_t len) {
  pq_json *d = NULL;
  for (size_t i = 0; doc && doc->type == PQ_JSON_OBJECT && i < doc->length; i++)
    if (!strcmp(doc->keys[i], "digest")) d = doc->items[i];
  if (!d) return;
  /* The strings "ok" and "bad" fit wherever the digest was a string of 3 bytes or more; anything
     shorter is no digest, and is left unmarked (refused as unsealed). */
  if (d->type != PQ_JSON_STRING || d->length < 3) {
    d->type = PQ_JSON_NULL;
    return;
  }
  strcpy(d->string, pq_engine_sealed(text, len) ? "ok" : "bad");
  d->length = strlen(d->string);
}

/* ---- checkpoints read ---- */

/* Reads the checkpoint at path into *text (*len bytes): standard input ("-") once, kept for the
   process, since a run opens its checkpoint more than once (its facts, a check before the run, the
   run). */
static pq_status read_checkpoint(const char *path, char **text, size_t *len) {
  static char *standard;
  static size_t standard_len;
  char *name = pq_malloc(strlen(path) + 16); /* the option in messages */
  sprintf(name, *path ? "--resume %s" : "--resume \"\"", path);
  pq_status rc = PQ_OK;
  if (strcmp(path, "-"))
    rc = pq_read_file_as(name, path, PQ_ENGINE_READ_BYTES, text, len);
  else if (!standard)
    rc = pq_read_file_as(name, path, PQ_ENGINE_READ_BYTES, &standard, &standard_len);
  free(name);
  if (rc || strcmp(path, "-")) return rc;
  *text = pq_malloc(standard_len + 1);
  memcpy(*text, standard, standard_len + 1);
  *len = standard_len;
  return PQ_OK;
}

pq_status pq_engine_open_checkpoint(const char *path, const char *problem, pq_json **out) {
  char *text, err[160];
  size_t len;
  *out = NULL;
  pq_status rc = read_checkpoint(path, &text, &len);
  if (rc) return rc == PQ_EINTR || rc == PQ_ELIMIT || rc == PQ_EIO ? rc : PQ_EINVAL;
  pq_json *doc = pq_json_parse(text, len, err);
  const char *format = pq_json_get_string(doc, "format"),
             *name = pq_json_get_string(doc, "problem");
  bool ok = false;
  if (!doc) {
    pq_error("--resume %s: not JSON: %s", path, err);
  } else if (!format || strcmp(format, "peaceable-checkpoint")) {
    pq_error("--resume %s: not a checkpoint of %s", path, problem);
  } else if (pq_json_get_long(doc, "version", 2, 2, &(long){0})) {
    pq_error("--resume %s: a checkpoint of another version of peaceable (this one reads version 2)",
             path);
  } else if (!name || strcmp(name, problem)) {
    pq_error("--resume %s: not a checkpoint of %s: a checkpoint of another problem (%.40s)", path,
             problem, name ? name : "none named");
  } else if (!pq_engine_sealed(text, len)) {
    pq_error("--resume %s: damaged or edited: its digest does not match its content (not used, "
             "not overwritten)",
             path);
  } else {
    ok = true;
  }
  free(text);
  if (!ok) pq_json_free(doc);
  *out = ok ? doc : NULL;
  return ok ? PQ_OK : PQ_EINVAL;
}
