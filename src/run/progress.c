/* progress.c: progress of long runs on stderr. */
#include "progress.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../core/json.h"
#include "../core/util.h"

bool pq_progress_enabled = true;

/* When the command started (pq_progress_clock; else its first stage): "elapsed" counts from here
   over every stage (the local search, the sizes of an outer loop, the boards of a table), while
   rates and estimates are the stage's own. The last line shown, of whatever stage, sets when the
   next may be: stages shorter than 10 s still show one every 10 s. */
static double run_start, last_shown;

void pq_progress_clock(void) { run_start = pq_now(); }

void pq_progress_start(pq_progress *p, const char *label, uint64_t total) {
  p->label = label;
  p->total = total;
  p->start = pq_now();
  p->shown = false;
  if (!run_start) run_start = p->start;
}

/* The start of a progress line, in the style of every message: "peaceable: COMMAND: LABEL", a
   label that starts with the command's name without it ("armies 12x12, ..." said
   "peaceable: armies 12x12, ..."). */
static void line_start(bool tty, const char *label) {
  const char *c = pq_error_command;
  size_t n = c ? strlen(c) : 0;
  if (c && !strncmp(label, c, n) && label[n] == ' ') label += n + 1;
  fprintf(stderr, "%speaceable: %s%s%s", tty ? "\r" : "", c ? c : "", c ? ": " : "", label);
}

void pq_progress_update(pq_progress *p, uint64_t done, uint64_t nodes) {
  if (!pq_progress_enabled) return;
  double now = pq_now(), elapsed = now - p->start;
  bool tty = isatty(STDERR_FILENO);
  if (elapsed < 1 || now - last_shown < (tty ? 0.2 : 10)) return;
  last_shown = now;
  line_start(tty, p->label);
  double rate = nodes / (elapsed > 0 ? elapsed : 1);
  if (!p->total) {
    /* One search, not parts: no estimate. */
    fprintf(stderr, ": %.4g nodes, %.3g nodes/s, %.0f s elapsed%s", (double)nodes, rate,
            now - run_start, tty ? "\033[K" : "\n");
    fflush(stderr);
    p->shown = true;
    return;
  }
  /* Parts differ in size: the estimate assumes the rest go as fast as the done ones. */
  double left = done ? elapsed * (double)(p->total - done) / (double)done : -1;
  char eta[80] = "about ? left";
  if (left >= 0) snprintf(eta, sizeof eta, "about %.0f s left", left);
  /* (pq_command_deadline: --time-limit's) */
  if (pq_command_deadline > 0 && (left < 0 || now + left > pq_command_deadline))
    snprintf(eta + strlen(eta), sizeof eta - strlen(eta), "; the time limit stops it in %.0f s",
             pq_command_deadline > now ? pq_command_deadline - now : 0);
  fprintf(stderr, ": %llu/%llu parts, %.3g nodes/s, %.0f s elapsed, %s%s", (unsigned long long)done,
          (unsigned long long)p->total, rate, now - run_start, eta, tty ? "\033[K" : "\n");
  fflush(stderr);
  p->shown = true;
}

void pq_progress_note_cut(long limit) {
  if (!pq_progress_enabled || fflush(stdout)) return;
  pq_error("--limit %ld: the listing stops after %ld %s; there are more", limit, limit,
           limit == 1 ? "line" : "lines");
}

void pq_progress_end(pq_progress *p) {
  if (p->shown && isatty(STDERR_FILENO)) fputs("\r\033[K", stderr);
  p->shown = false;
}
