/* tap.h: a minimal Test Anything Protocol writer for the unit tests. */
#ifndef PQ_TAP_H
#define PQ_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_count, tap_failed;

/* Records one test: ok when cond holds; the description is printed either way. */
static inline int tap_ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline int tap_ok(int cond, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  printf("%sok %d - ", cond ? "" : "not ", ++tap_count);
  vprintf(fmt, ap);
  putchar('\n');
  va_end(ap);
  if (!cond) tap_failed++;
  fflush(stdout);
  return cond;
}

/* Prints the plan; returns the process exit status. */
static inline int tap_done(void) {
  printf("1..%d\n", tap_count);
  return tap_failed ? 1 : 0;
}

#endif
