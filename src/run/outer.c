/* outer.c: the outer loop shared by every maximisation problem. */
#include "outer.h"

#include "engine.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

bool pq_no_race;

pq_status pq_method_parse(const char *text, long jobs, pq_method *out) {
  if (!text) {
    *out = jobs >= 2 && !pq_no_race ? PQ_METHOD_RACE : PQ_METHOD_SEARCH;
    return PQ_OK;
  }
  if (pq_no_race && !strcmp(text, "race")) {
    pq_error("--method race: not under peaceable-mpi, whose ranks search the parts "
             "(--method search or ilp)");
    return PQ_EINVAL;
  }
  for (int m = PQ_METHOD_SEARCH; m <= PQ_METHOD_RACE; m++)
    if (!strcmp(text, pq_method_name((pq_method)m))) {
      *out = (pq_method)m;
      return PQ_OK;
    }
  pq_error("--method \"%s\": expected search, ilp or race", text);
  return PQ_EINVAL;
}

const char *pq_method_name(pq_method m) {
  static const char *const names[] = {"search", "ilp", "race"};
  return names[m];
}

const char *pq_claim_members(bool at_size, pq_claim c, pq_method m) {
  static const char *const optimal[] = {",\"optimal\":true,\"proved_by\":\"search\"",
                                        ",\"optimal\":true,\"proved_by\":\"ilp\"",
                                        ",\"optimal\":true,\"proved_by\":\"race\""};
  static const char *const none[] = {",\"feasible\":false,\"proved_by\":\"search\"",
                                     ",\"feasible\":false,\"proved_by\":\"ilp\"",
                                     ",\"feasible\":false,\"proved_by\":\"race\""};
  if (!at_size) return c == PQ_YES ? optimal[m] : ",\"optimal\":false";
  return c == PQ_YES ? ",\"feasible\":true" : c == PQ_NO ? none[m] : "";
}

const char *pq_count_claim(bool maximum, pq_count n, pq_method m) {
  return pq_claim_members(!maximum, maximum || n ? PQ_YES : PQ_NO, maximum ? m : PQ_METHOD_SEARCH);
}

/* One contestant of a race: a method deciding size k in its own thread. */
typedef struct racer {
  const pq_maximize *m;
  pq_method method;
  int k;
  volatile int *cancel; /* set by whichever racer finishes first */
  pthread_mutex_t *lock;
  pthread_cond_t *finished;
  pq_status status;
  bool found;
  uint8_t witness[PQ_MAX_SQUARES];
} racer;

/* The integer program joins a race only when the search has not answered within this time:
   quick decisions then cost no thread and no GLPK start-up. */
#define RACE_DELAY 0.2

static pq_status decide(const pq_maximize *m, pq_method method, int k, const volatile int *cancel,
                        bool *found, uint8_t *witness) {
  if (method == PQ_METHOD_ILP) return m->decide_ilp(m->ctx, k, cancel, found, witness);
  return m->decide_search(m->ctx, k, cancel, found, witness);
}

static void *race_main(void *arg) {
  racer *r = arg;
  r->status = decide(r->m, r->method, r->k, r->cancel, &r->found, r->witness);
  /* The first to finish ends the race: with an answer, or with a limit or a signal, which
     applies to the whole run. */
  pthread_mutex_lock(r->lock);
  *r->cancel = 1;
  pthread_cond_broadcast(r->finished);
  pthread_mutex_unlock(r->lock);
  return NULL;
}

/* Decides k by both methods at once; the first conclusive answer wins. */
static pq_status race(const pq_maximize *m, int k, bool *found, uint8_t *witness,
                      pq_method *winner) {
  volatile int cancel = 0;
  pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t finished = PTHREAD_COND_INITIALIZER;
  racer r[2];
  for (int i = 0; i < 2; i++)
    r[i] = (racer){.m = m,
                   .method = i ? PQ_METHOD_ILP : PQ_METHOD_SEARCH,
                   .k = k,
                   .cancel = &cancel,
                   .lock = &lock,
                   .finished = &finished,
                   .status = PQ_ELIMIT};
  pq_threads *search = pq_threads_start(1, race_main, &r[0], 0), *ilp = NULL;
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_nsec += (long)(RACE_DELAY * 1e9);
  until.tv_sec += until.tv_nsec / 1000000000;
  until.tv_nsec %= 1000000000;
  pthread_mutex_lock(&lock);
  while (!cancel && pthread_cond_timedwait(&finished, &lock, &until) == 0) {
  }
  bool join_ilp = !cancel;
  pthread_mutex_unlock(&lock);
  if (join_ilp) ilp = pq_threads_start(1, race_main, &r[1], 0);
  pq_threads_join(search);
  pq_threads_join(ilp);
  pthread_cond_destroy(&finished);
  /* An error of the search (a checkpoint it cannot write, resumed bounds that do not hold) ends
     the run as it would without a race: it is no limit, and the other method's answer does not
     mend it. */
  if (r[0].status != PQ_OK && r[0].status != PQ_ELIMIT && r[0].status != PQ_EINTR)
    return r[0].status;
  for (int i = 0; i < 2; i++)
    if (r[i].status == PQ_OK) {
      *found = r[i].found;
      *winner = r[i].method;
      memcpy(witness, r[i].witness, sizeof r[i].witness);
      return PQ_OK;
    }
  return r[0].status == PQ_EINTR || r[1].status == PQ_EINTR ? PQ_EINTR : PQ_ELIMIT;
}

pq_status pq_outer_decide(const pq_maximize *m, pq_method method, int k, bool *found,
                          uint8_t *witness, pq_method *by) {
  static const volatile int never = 0;
  if (!m->decide_ilp) method = PQ_METHOD_SEARCH;
  *by = method;
  if (method == PQ_METHOD_RACE) return race(m, k, found, witness, by);
  return decide(m, method, k, &never, found, witness);
}

char *pq_table_file(const char *prefix, int n) {
  size_t len = strlen(prefix) + 16;
  char *path = pq_malloc(len);
  snprintf(path, len, "%s.%d", prefix, n);
  return path;
}

/* Board n's file of a table's --resume R: R.n when there is such a file, else NULL. */
static char *resumed_file(const char *resume, int n) {
  char *path = resume ? pq_table_file(resume, n) : NULL;
  if (path && access(path, F_OK)) {
    free(path);
    path = NULL;
  }
  return path;
}

pq_status pq_table_resumable(const char *resume, int from, int to) {
  int found = 0;
  for (int n = from; n <= to; n++) {
    char *path = resumed_file(resume, n);
    found += path != NULL;
    free(path);
  }
  if (found) return PQ_OK;
  pq_error("--resume %s: no board of the table has a checkpoint (%s.%d to %s.%d)", resume, resume,
           from, resume, to);
  return PQ_EINVAL;
}

pq_status pq_table_run(const pq_table *t) {
  double t0 = pq_now();
  bool limited = false, on_word = false;
  int boards = 0;
  pq_status rc = PQ_OK;
  /* The boards resumed, known before any runs: a board's run writes its file as it goes (under
     peaceable-mpi, a rank that came to the board later would have found it). */
  char **resume = pq_calloc((size_t)(t->to - t->from + 1), sizeof *resume);
  for (int n = t->from; n <= t->to; n++)
    resume[n - t->from] = resumed_file(t->resume, n);
  for (int n = t->from; n <= t->to && (rc == PQ_OK || rc == PQ_ELIMIT) && !ferror(stdout); n++) {
    int left = t->to - n + 1; /* this board and the later ones */
    double deadline = 0;
    if (t->deadline > 0) {
      double time_left = t->deadline - pq_now();
      deadline = pq_now() + (time_left > 1e-6 ? time_left : 1e-6) / left;
    }
    uint64_t node_limit = t->node_limit;
    if (node_limit && t->searched) {
      uint64_t used = *t->searched;
      uint64_t share = node_limit > used ? (node_limit - used) / (uint64_t)left : 0;
      node_limit = used + (share ? share : 1); /* (a share of 0 would be no limit) */
    }
    char *checkpoint = t->checkpoint ? pq_table_file(t->checkpoint, n) : NULL;
    pq_table_row r = {n, deadline, node_limit, checkpoint, resume[n - t->from]};
    /* Each row's answer says whether it rests on its own checkpoint's word, not on an earlier
       row's. */
    pq_engine_on_word_reset();
    rc = t->row(t->ctx, &r);
    free(checkpoint);
    on_word |= pq_engine_on_word_taken() && (rc == PQ_OK || rc == PQ_ELIMIT || rc == PQ_EINTR);
    limited |= rc == PQ_ELIMIT;
    boards++;
    fflush(stdout);
  }
  bool complete = rc == PQ_OK && !limited && boards == t->to - t->from + 1;
  if (t->json && !ferror(stdout)) {
    printf("{%s,\"table\":\"%d..%d\",\"boards\":%d,\"complete\":%s,\"seconds\":%.3f}\n", t->json,
           t->from, t->to, boards, complete ? "true" : "false", pq_now() - t0);
    fflush(stdout);
  }
  for (int n = t->from; n <= t->to; n++)
    free(resume[n - t->from]);
  free(resume);
  /* The rows printed that rest in part on their checkpoints' word (JSON rows say it each:
     "checked":false). */
  pq_engine_on_word_reset();
  if (on_word) pq_engine_on_word();
  if (!t->json) pq_engine_resumed_note(t->command, "table");
  return rc == PQ_OK && limited ? PQ_ELIMIT : rc;
}

pq_status pq_outer_run(const pq_maximize *m, pq_method method, pq_outer_result *res) {
  if (!m->decide_ilp) method = PQ_METHOD_SEARCH;
  memset(res, 0, sizeof *res);
  res->upper = m->upper;
  res->best = m->heuristic ? m->heuristic(m->ctx, res->witness) : 0;
  static const volatile int never = 0;
  uint8_t witness[PQ_MAX_SQUARES];
  for (int k = res->best + 1;; k++) {
    bool found = false;
    pq_method by = method;
    pq_status rc = k > m->upper               ? PQ_OK
                   : method == PQ_METHOD_RACE ? race(m, k, &found, witness, &by)
                                              : decide(m, method, k, &never, &found, witness);
    if (rc != PQ_OK) return rc;
    if (!found) {
      res->proven = true;
      res->upper = k - 1;
      res->proved_by = by == PQ_METHOD_RACE ? PQ_METHOD_SEARCH : by;
      return PQ_OK;
    }
    if (m->size_of) {
      int size = m->size_of(m->ctx, witness);
      PQ_REQUIRE(size >= k, "a witness for size %d has size %d", k, size);
      k = size;
    }
    res->best = k;
    memcpy(res->witness, witness, (size_t)m->board->squares);
    if (m->found) m->found(m->ctx, k, witness);
  }
}
