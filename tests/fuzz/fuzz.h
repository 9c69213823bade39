/* fuzz.h: helpers shared by the libFuzzer targets: capturing what a call prints, and checking
   the command line's contracts on it (a refusal prints one message, success prints none). */
#ifndef PQ_FUZZ_H
#define PQ_FUZZ_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/util.h"

/* What a call wrote on stdout and stderr. glibc documents stdout and stderr as ordinary
   variables that may be assigned; the library writes through them, so the call's output lands
   in memory while libFuzzer and the sanitizers keep writing to the real descriptors. */
typedef struct fuzz_capture {
  FILE *saved_out, *saved_err;
  char *out, *err;
  size_t out_len, err_len;
  int messages;         /* pq_error calls during the capture */
  size_t message_bytes; /* the bytes they printed */
} fuzz_capture;

static FILE *fuzz_real_stderr;

/* Messages printed through pq_error: the targets are linked with -Wl,--wrap=pq_error (see
   tests/fuzz/run), so every call lands here. Counting calls, not lines, because a message may
   quote user input that holds newlines or text that looks like another message. */
static int fuzz_messages;
static size_t fuzz_message_bytes;

/* A broken contract: print why on the real stderr and abort, which libFuzzer reports as a crash
   with the input that caused it. */
static inline void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static inline void fuzz_fail(const char *fmt, ...) {
  FILE *err = fuzz_real_stderr ? fuzz_real_stderr : stderr;
  va_list ap;
  va_start(ap, fmt);
  fputs("fuzz: contract broken: ", err);
  vfprintf(err, fmt, ap);
  fputc('\n', err);
  va_end(ap);
  fflush(err);
  abort();
}

static inline void fuzz_capture_begin(fuzz_capture *c) {
  fflush(stdout);
  fflush(stderr);
  c->saved_out = stdout;
  c->saved_err = stderr;
  fuzz_real_stderr = stderr;
  c->out = c->err = NULL;
  c->out_len = c->err_len = 0;
  fuzz_messages = 0;
  fuzz_message_bytes = 0;
  FILE *out = open_memstream(&c->out, &c->out_len), *err = open_memstream(&c->err, &c->err_len);
  if (!out || !err) fuzz_fail("open_memstream failed");
  stdout = out;
  stderr = err;
}

/* Ends the capture: c->out and c->err hold the text (NUL-terminated); free with
   fuzz_capture_free. */
static inline void fuzz_capture_end(fuzz_capture *c) {
  fclose(stdout);
  fclose(stderr);
  c->messages = fuzz_messages;
  c->message_bytes = fuzz_message_bytes;
  stdout = c->saved_out;
  stderr = c->saved_err;
}

static inline void fuzz_capture_free(fuzz_capture *c) {
  free(c->out);
  free(c->err);
  c->out = c->err = NULL;
}

/* Replaces pq_error (same output), counting. */
void __wrap_pq_error(const char *fmt, ...);
void __wrap_pq_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = fprintf(stderr, "peaceable: ");
  int m = vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  fuzz_messages++;
  fuzz_message_bytes += (size_t)n + (size_t)m + 1;
}

/* Checks the status contract of a parser: PQ_OK prints nothing, PQ_EINVAL prints exactly one
   message (one pq_error call and nothing else) on stderr and nothing on stdout; any other status
   is a failure here. min_messages and max_messages bound the messages of a refusal. */
static inline void fuzz_check_messages(const char *what, pq_status rc, const fuzz_capture *c,
                                       int min_messages, int max_messages) {
  if (rc == PQ_OK) {
    if (c->err_len || c->out_len)
      fuzz_fail("%s: success printed \"%.200s%.200s\"", what, c->out, c->err);
  } else if (rc == PQ_EINVAL) {
    if (c->out_len) fuzz_fail("%s: a refusal printed on stdout: \"%.200s\"", what, c->out);
    if (c->messages < min_messages || c->messages > max_messages || c->err_len != c->message_bytes)
      fuzz_fail("%s: a refusal printed %d messages%s: \"%.400s\"", what, c->messages,
                c->err_len != c->message_bytes ? " and other text" : "", c->err);
  } else {
    fuzz_fail("%s: unexpected status %d", what, (int)rc);
  }
}

static inline void fuzz_check_parser(const char *what, pq_status rc, const fuzz_capture *c) {
  fuzz_check_messages(what, rc, c, 1, 1);
}

/* A NUL-terminated copy of the input (caller frees). Inputs with a NUL byte stop there, as a C
   string from the command line would. */
static inline char *fuzz_string(const uint8_t *data, size_t size) {
  char *s = malloc(size + 1);
  if (!s) fuzz_fail("out of memory");
  memcpy(s, data, size);
  s[size] = '\0';
  return s;
}

#endif
