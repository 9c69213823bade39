/* armies_text.c: a proof's text in memory, then in a temporary file (armies_text.h). */
#include "armies_text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/core/util.h"

/* Bytes read back from the temporary file at a time. */
#define CHUNK ((size_t)1 << 20)

/* A temporary file, unlinked at once; NULL when it cannot be made (errno says why), *dir the
   directory tried. */
static FILE *temporary(const char **dir) {
  *dir = getenv("TMPDIR");
  if (!*dir || !**dir) *dir = "/tmp";
  size_t n = strlen(*dir) + 32;
  char *name = pq_malloc(n);
  snprintf(name, n, "%s/peaceable-proof-XXXXXX", *dir);
  int fd = mkstemp(name);
  FILE *f = fd >= 0 ? fdopen(fd, "w+") : NULL;
  int why = errno;
  if (fd >= 0) unlink(name);
  if (fd >= 0 && !f) close(fd);
  free(name);
  errno = why;
  return f;
}

pq_status pq_text_probe(void) {
  const char *dir;
  FILE *f = temporary(&dir);
  if (f) return fclose(f), PQ_OK;
  pq_error("a proof larger than %zu MiB goes to a temporary file, and none can be made in %s "
           "(TMPDIR): %s",
           PQ_TEXT_MEMORY >> 20, dir, strerror(errno));
  return PQ_EIO;
}

void pq_text_room(pq_text *t) {
  if (t->len < (t->memory ? t->memory : PQ_TEXT_MEMORY)) {
    size_t most = t->memory ? t->memory : PQ_TEXT_MEMORY;
    t->cap = t->cap ? 2 * t->cap : 4096;
    if (t->cap > most) t->cap = most;
    t->buf = pq_realloc(t->buf, t->cap);
    return;
  }
  /* Full: the bytes go to the file (or, once it failed, are dropped: the proof is then refused). */
  const char *dir;
  if (!t->failed && !t->file && !(t->file = temporary(&dir))) {
    pq_error("the proof does not fit in memory, and no temporary file can be made for it in %s "
             "(TMPDIR): %s",
             dir, strerror(errno));
    t->failed = true;
  }
  if (!t->failed && fwrite(t->buf, 1, t->len, t->file) != t->len) {
    pq_error("writing the proof's temporary file: %s", strerror(errno));
    t->failed = true;
  }
  t->stored += t->len;
  t->len = 0;
}

int pq_text_copy(const pq_text *t, FILE *f, uint64_t from, uint64_t to) {
  const char *why = "cut short";
  if (from < t->stored) {
    if (fflush(t->file) || fseeko(t->file, (off_t)from, SEEK_SET)) {
      why = strerror(errno);
      goto fail;
    }
    char *chunk = pq_malloc(CHUNK);
    for (uint64_t end = to < t->stored ? to : t->stored; from < end;) {
      size_t want = end - from < CHUNK ? (size_t)(end - from) : CHUNK;
      if (fread(chunk, 1, want, t->file) != want) {
        if (ferror(t->file)) why = strerror(errno);
        free(chunk);
        goto fail;
      }
      fwrite(chunk, 1, want, f);
      from += want;
    }
    free(chunk);
  }
  if (to > from) fwrite(t->buf + (from - t->stored), 1, (size_t)(to - from), f);
  return 0;
fail:
  pq_error("reading the proof's temporary file back: %s", why);
  return -1;
}

void pq_text_clear(pq_text *t) {
  free(t->buf);
  if (t->file) fclose(t->file);
  memset(t, 0, sizeof *t);
}
