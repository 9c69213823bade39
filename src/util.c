/* util.c: status codes, error reporting, checked allocation and 128-bit counts. */
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int pq_status_exit_code(pq_status s) {
  switch (s) {
  case PQ_OK: return 0;
  case PQ_EFALSE: return 1;
  case PQ_EINVAL: return 2;
  case PQ_EIO: return 2;
  case PQ_ELIMIT: return 3;
  case PQ_EINTR: return 130;
  }
  return 2;
}

void pq_one_line(char *s) {
  for (; *s; s++)
    if ((unsigned char)*s < 0x20 || *s == 0x7f) *s = '?';
}

void pq_error(const char *fmt, ...) {
  char message[8192];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message, sizeof message, fmt, ap);
  va_end(ap);
  pq_one_line(message);
  fprintf(stderr, "peaceable: %s\n", message);
}

void pq_fatal(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "peaceable: internal error at %s:%d: ", file, line);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  abort();
}

static void out_of_memory(size_t size) {
  fprintf(stderr, "peaceable: out of memory allocating %zu bytes\n", size);
  abort();
}

void *pq_malloc(size_t size) {
  void *p = malloc(size ? size : 1);
  if (!p) out_of_memory(size);
  return p;
}

void *pq_calloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p) out_of_memory(count * size);
  return p;
}

void *pq_realloc(void *ptr, size_t size) {
  void *p = realloc(ptr, size ? size : 1);
  if (!p) out_of_memory(size);
  return p;
}

char *pq_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(pq_malloc(n), s, n);
}

char *pq_count_str(pq_count c, char *buf) {
  char tmp[48];
  int i = 0;
  do {
    tmp[i++] = (char)('0' + (int)(c % 10));
    c /= 10;
  } while (c);
  for (int j = 0; j < i; j++)
    buf[j] = tmp[i - 1 - j];
  buf[i] = '\0';
  return buf;
}

int pq_count_add(pq_count *acc, pq_count add) {
  if (*acc > PQ_COUNT_MAX - add) {
    *acc = PQ_COUNT_MAX;
    return -1;
  }
  *acc += add;
  return 0;
}

int pq_parse_long(const char *s, long min, long max, long *out) {
  if (!s || !*s) return -1;
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || *end || end == s || v < min || v > max) return -1;
  if (s[0] == ' ' || s[0] == '\t' || s[0] == '+') return -1;
  *out = v;
  return 0;
}

pq_status pq_write_atomic(const char *path, void (*write)(FILE *out, void *ctx), void *ctx) {
  size_t n = strlen(path) + 16;
  char *tmp = pq_malloc(n);
  snprintf(tmp, n, "%s.tmp", path);
  pq_status rc = PQ_EIO;
  FILE *f = fopen(tmp, "w");
  if (!f) {
    pq_error("%s: cannot write %s: %s", path, tmp, strerror(errno));
    goto done;
  }
  write(f, ctx);
  bool failed = ferror(f) != 0;
  if (fclose(f) || failed) {
    pq_error("%s: write error", path);
    goto done;
  }
  if (rename(tmp, path)) {
    pq_error("%s: cannot rename %s into place: %s", path, tmp, strerror(errno));
    goto done;
  }
  rc = PQ_OK;
done:
  if (rc) remove(tmp);
  free(tmp);
  return rc;
}

uint64_t pq_fnv_bytes(uint64_t h, const void *bytes, size_t len) {
  const unsigned char *b = bytes;
  for (size_t i = 0; i < len; i++)
    h = (h ^ b[i]) * UINT64_C(1099511628211);
  return h;
}

int pq_cores(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

double pq_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
