/* check.c: what the certificate checkers share: the dispatch by problem, verdicts, stopping,
   sampling, and geometry (boards, symmetries, placements) written apart from the search's. */
#include "check.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void pq_check_params_init(pq_check_params *p) {
  *p = (pq_check_params){.sample = 1, .rng = 0x9e3779b97f4a7c15u};
}

pq_check_fn pq_check_find(const char *problem) {
  static const struct {
    const char *name;
    pq_check_fn check;
  } checkers[] = {{"armies", pq_armies_check}, {"qn", pq_qn_check}};
  for (size_t i = 0; problem && i < sizeof checkers / sizeof *checkers; i++)
    if (!strcmp(checkers[i].name, problem)) return checkers[i].check;
  return NULL;
}

size_t pq_check_max_bytes(int threads) {
  uint64_t share = pq_memory_bytes() / 2 / (uint64_t)(threads > 1 ? threads : 1),
           least = (uint64_t)2 << 30;
  return share > least && share < SIZE_MAX ? (size_t)share : (size_t)least;
}

static _Thread_local const char *check_path;

const char *pq_check_path(void) { return check_path ? check_path : "the certificate"; }

void pq_check_set_path(const char *path) { check_path = path; }

static void print_verdict(const pq_check_params *p, const char *problem, pq_verdict verdict,
                          char *message);

const char *pq_check_other(const pq_json *doc) {
  const char *format = pq_json_get_string(doc, "format"),
             *name = pq_json_get_string(doc, "problem");
  long version;
  if (format && !strcmp(format, "peaceable-checkpoint"))
    return "a checkpoint, not a certificate: a run continues from it with --resume";
  if (!format && name && pq_json_peek(doc, "parts"))
    return "a part's result (--part I/N), not a certificate: 'peaceable merge' adds the parts' "
           "results";
  if (!format || strcmp(format, "peaceable-certificate") ||
      pq_json_get_long(doc, "version", 1, 1, &version))
    return "not a peaceable certificate of version 1";
  return NULL;
}

/* Checks doc, parsed from path (NULL: not JSON, err says why), and frees it. With in_parts (not
   NULL), a file found to be one of a proof in parts is not given its verdict: *in_parts is set
   (the caller checks it as such). */
static pq_status check_doc(const char *command, const char *path, pq_json *doc, const char *err,
                           const pq_check_params *p, bool *in_parts) {
  if (!doc) {
    pq_error("%s: %s: not JSON: %s", command, path, err);
    return PQ_EINVAL;
  }
  const char *name = pq_json_get_string(doc, "problem"), *other = pq_check_other(doc);
  pq_status rc = PQ_EINVAL;
  if (other) {
    pq_error("%s: %s: %s", command, path, other);
  } else {
    pq_check_fn check = pq_check_find(name);
    pq_check_params q = *p;
    pq_check_part said = {0}; /* the verdict, printed once no member is left unchecked */
    q.doc = doc;
    if (!q.verdict) q.verdict = &said;
    if (!check)
      pq_error("%s: %s: no checker for problem \"%s\"", command, path, name ? name : "");
    else
      rc = check(doc, &q);
    if (rc == PQ_OK) rc = pq_check_asked(command, path, doc);
    if (q.verdict == &said && in_parts && said.in_parts) {
      *in_parts = true;
    } else if (q.verdict == &said && (rc == PQ_OK || rc == PQ_EFALSE)) {
      q.verdict = NULL;
      print_verdict(&q, name, said.verdict, said.message);
    }
  }
  pq_json_free(doc);
  return rc;
}

pq_status pq_check_text(const char *command, const char *path, const char *text, size_t len,
                        const pq_check_params *p) {
  char err[160];
  pq_check_set_path(path);
  return check_doc(command, path, pq_json_parse(text, len, err), err, p, NULL);
}

pq_status pq_check_write(const char *command, const char *path, bool check,
                         void (*write)(FILE *f, void *ctx), void *ctx) {
  if (!check) return pq_write_atomic(path, write, ctx);
  char *text = NULL;
  size_t len = 0;
  FILE *f = pq_memstream(&text, &len);
  write(f, ctx);
  fclose(f);
  /* The whole certificate, with the run's threads and time limit. */
  pq_check_part verdict = {0};
  pq_check_params params;
  pq_check_params_init(&params);
  params.verdict = &verdict;
  params.jobs = pq_cores();
  params.deadline = pq_command_deadline;
  pq_status rc = pq_check_text(command, path, text, len, &params);
  if (rc == PQ_EFALSE || (rc == PQ_OK && verdict.verdict != PQ_VALID)) {
    pq_error("%s: --cert %s: not written: made in part on the resumed checkpoint's word, the "
             "certificate does not verify (%s)",
             command, path, verdict.message);
    rc = PQ_EINVAL;
  } else if (rc == PQ_ELIMIT || rc == PQ_EINTR) {
    pq_error("%s: --cert %s: not written: its check (made in part on the resumed checkpoint's "
             "word) was stopped",
             command, path);
  }
  if (rc == PQ_OK) rc = pq_write_text_atomic(path, text, len);
  free(text);
  return rc;
}

pq_status pq_check_file(const char *path, const pq_check_params *p) {
  char *text = NULL, err[160];
  size_t len;
  pq_status rc = pq_read_file_until(path, pq_check_max_bytes(1), p->deadline, &text, &len);
  if (rc) return rc == PQ_ELIMIT || rc == PQ_EINTR ? rc : PQ_EINVAL;
  /* The document keeps the text, its trees in it: a file of gigabytes is not held twice. */
  pq_check_set_path(path);
  bool in_parts = false;
  /* One file of a proof in parts is checked again as one (its holes taken as proven; a file of
     every part is whole, one of some is incomplete): read again, so not from standard input. */
  rc = check_doc("verify", path, pq_json_parse_owned(text, len, err), err, p,
                 strcmp(path, "-") ? &in_parts : NULL);
  return in_parts ? pq_check_parts(&path, 1, 1, p, NULL) : rc;
}

/* Whether member `key` of a certificate says what it claims (doc/certificate.md): the instance,
   the claim, its sizes and totals, a witness; not the proof's form (splits, orders). */
static bool claim_member(const char *key) {
  static const char *const names[] = {"board",      "piece", "kinds",  "ratio",   "colours",
                                      "claim",      "white", "black",  "size",    "first",
                                      "second",     "total", "unique", "witness", "unique_colour",
                                      "infeasible", "count"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!strcmp(key, names[i])) return true;
  return false;
}

/* Writes what certificate object v claims: its claim members that its checker read (one it never
   asked for is checked by nothing, whatever it says), numbers, strings and booleans, and of its
   objects the same (an object that holds none left out). Returns whether it wrote any member. */
static bool write_claim(FILE *f, const pq_json *v) {
  bool any = false;
  for (size_t i = 0; i < v->length; i++) {
    const pq_json *m = v->items[i];
    if (!claim_member(v->keys[i]) || !m->asked || m->type == PQ_JSON_ARRAY ||
        m->type == PQ_JSON_NULL)
      continue;
    char *inner = NULL;
    size_t len = 0;
    if (m->type == PQ_JSON_OBJECT) {
      FILE *g = pq_memstream(&inner, &len);
      bool some = write_claim(g, m);
      fclose(g);
      if (!some) {
        free(inner);
        continue;
      }
    }
    fputs(any ? "," : "{", f);
    any = true;
    pq_json_write_string(f, v->keys[i]);
    fputc(':', f);
    if (inner)
      fputs(inner, f);
    else if (m->type == PQ_JSON_STRING)
      pq_json_write_string(f, m->string);
    else
      fputs(m->type == PQ_JSON_NUMBER ? m->string : m->type == PQ_JSON_TRUE ? "true" : "false", f);
    free(inner);
  }
  if (any) fputc('}', f);
  return any;
}

/* The first claim member in v (or in its objects that are claim members) that no checker asked
   for, its path written into at (of size room, with the path of v before it); NULL when none. */
static const char *unasked(const pq_json *v, char *at, size_t room) {
  for (size_t i = 0; v->type == PQ_JSON_OBJECT && i < v->length; i++) {
    if (!claim_member(v->keys[i])) continue;
    size_t used = strlen(at);
    snprintf(at + used, room - used, "%s%s", used ? "." : "", v->keys[i]);
    if (!v->items[i]->asked || unasked(v->items[i], at, room)) return at;
    at[used] = '\0';
  }
  return NULL;
}

pq_status pq_check_asked(const char *command, const char *path, const pq_json *doc) {
  char at[256] = "";
  if (!unasked(doc, at, sizeof at)) return PQ_OK;
  pq_error("%s%s%s: malformed: its member \"%s\" is not part of its claim, or not of its type "
           "(nothing would check it)",
           command ? command : "", command ? ": " : "", path, at);
  return PQ_EINVAL;
}

char *pq_check_claim(const pq_json *doc) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = pq_memstream(&text, &len);
  if (!write_claim(f, doc)) fputs("{}", f);
  fclose(f);
  return text;
}

void pq_check_report(const pq_check_params *p, const char *problem, pq_verdict verdict,
                     const char *fmt, ...) {
  char message[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message, sizeof message, fmt, ap);
  va_end(ap);
  pq_check_part *into = p->part ? p->part : p->verdict;
  if (into) {
    into->verdict = verdict;
    memcpy(into->message, message, sizeof message);
    return;
  }
  print_verdict(p, problem, verdict, message);
}

static _Atomic bool audited;

bool pq_check_audited(void) { return audited; }

/* Prints a verdict and its message (pq_one_line may change it) as verify does. */
static void print_verdict(const pq_check_params *p, const char *problem, pq_verdict verdict,
                          char *message) {
  static const char *const words[] = {"invalid", "valid", "valid in the sample", "incomplete"};
  /* (The last verdict printed: a process may check several, as the fuzzer's does.) */
  audited = verdict == PQ_VALID_IN_SAMPLE || verdict == PQ_INCOMPLETE;
  if (!p->json) {
    pq_one_line(message);
    printf("%s: %s", words[verdict], message);
    if (p->sample < 1 && verdict == PQ_VALID_IN_SAMPLE) /* (else no sample to repeat) */
      printf(" (--seed %ld checks the same sample)", p->seed);
    putchar('\n');
    return;
  }
  printf("{\"problem\":\"%s\",\"valid\":%s,\"sampled\":%s", problem,
         verdict == PQ_INVALID ? "false"
         : verdict == PQ_VALID ? "true"
                               : "null",
         verdict == PQ_VALID_IN_SAMPLE ? "true" : "false");
  if (p->sample < 1) printf(",\"seed\":%ld", p->seed); /* (to check the same sample again) */
  printf(",\"message\":");
  pq_json_write_string(stdout, message);
  bool claimed = verdict == PQ_VALID || verdict == PQ_VALID_IN_SAMPLE;
  if (claimed && p->claim) {
    printf(",\"claim\":%s", p->claim);
  } else if (claimed && p->doc && p->doc->type == PQ_JSON_OBJECT) {
    printf(",\"claim\":");
    if (!write_claim(stdout, p->doc)) fputs("{}", stdout);
  }
  printf("}\n");
}

#ifndef CLOCK_MONOTONIC_COARSE /* (Linux's; elsewhere the plain one) */
#define CLOCK_MONOTONIC_COARSE CLOCK_MONOTONIC
#endif

/* Whether a check stopped at its deadline (the verdict is then withheld); checks of the files of
   a proof in parts run on several threads. */
static _Atomic bool timed_out;

/* The clock is read at every call, the coarse one (a few nanoseconds, its ticks some
   milliseconds apart, on pq_now()'s monotonic base): a count of calls between reads let a checker
   whose calls turn slow (a colours bound on a large board) run seconds past its deadline. */
bool pq_check_stop(const pq_check_params *p) {
  if (pq_interrupted) return true;
  if (p->deadline > 0 && !timed_out) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
    if ((double)now.tv_sec + (double)now.tv_nsec * 1e-9 > p->deadline) timed_out = true;
  }
  return timed_out;
}

pq_status pq_check_stopped(void) {
  bool said = pq_stop_said();
  if (pq_interrupted) {
    if (!said) pq_error("interrupted before a verdict");
    return PQ_EINTR;
  }
  if (!said) pq_error("the time limit ended the check before a verdict");
  return PQ_ELIMIT;
}

bool pq_check_sampled(const pq_check_params *p, uint64_t *rng, bool first) {
  if (p->sample >= 1) return true;
  *rng ^= *rng << 13, *rng ^= *rng >> 7, *rng ^= *rng << 17;
  return first || (double)(*rng >> 11) / 9007199254740992.0 < p->sample;
}

/* A side: decimal digits without a leading zero, 1 to PQ_CHECK_MAX_SIDE; -1 otherwise. */
static int side(const char *from, const char *to) {
  int n = 0;
  if (to == from || *from == '0' || to - from > 2) return -1;
  for (const char *q = from; q < to; q++) {
    if (*q < '0' || *q > '9') return -1;
    n = n * 10 + (*q - '0');
  }
  return n <= PQ_CHECK_MAX_SIDE ? n : -1;
}

pq_status pq_check_board(const char *text, int *width, int *height) {
  const char *x = text ? strchr(text, 'x') : NULL;
  int w = x ? side(text, x) : -1, h = x ? side(x + 1, x + 1 + strlen(x + 1)) : -1;
  if (w < 1 || h < 1) {
    pq_error("%s: board \"%s\": expected WIDTHxHEIGHT, each from 1 to %d", pq_check_path(),
             text ? text : "", PQ_CHECK_MAX_SIDE);
    return PQ_EINVAL;
  }
  *width = w;
  *height = h;
  return PQ_OK;
}

void pq_check_map(int width, int height, int g, int row, int column, int *row2, int *column2) {
  int r = row, k = column, w = width, h = height;
  switch (g) {
  case 0: *row2 = r, *column2 = k; break;
  case 1: *row2 = h - 1 - r, *column2 = w - 1 - k; break;
  case 2: *row2 = r, *column2 = w - 1 - k; break;
  case 3: *row2 = h - 1 - r, *column2 = k; break;
  case 4: *row2 = k, *column2 = w - 1 - r; break;
  case 5: *row2 = h - 1 - k, *column2 = r; break;
  case 6: *row2 = k, *column2 = r; break;
  default: *row2 = w - 1 - k, *column2 = h - 1 - r; break;
  }
}

int pq_check_image(int width, int height, int g, int s) {
  int r2, k2;
  pq_check_map(width, height, g, s / width, s % width, &r2, &k2);
  return r2 * width + k2;
}

pq_rows_fault pq_check_rows(const char *text, int width, int height, const char *symbols,
                            uint8_t *cells, int *square, char *symbol) {
  int s = 0, column = 0, squares = width * height;
  for (const char *p = text;; p++) {
    if (*p == '/' || !*p) {
      /* A row ends: it must be full, and only the last row may end the text. */
      if (column != width || (!*p && s != squares) || (*p && s >= squares)) return PQ_ROWS_SHAPE;
      if (!*p) return PQ_ROWS_OK;
      column = 0;
      continue;
    }
    if (column == width || s >= squares) return PQ_ROWS_SHAPE;
    const char *at = strchr(symbols, *p);
    if (!at) {
      *square = s;
      *symbol = *p;
      return PQ_ROWS_SYMBOL;
    }
    cells[s++] = (uint8_t)(at - symbols);
    column++;
  }
}

/* The bytes of one placement, for qsort's and bsearch's comparison. */
static size_t placement_bytes;

static int by_cells(const void *x, const void *y) { return memcmp(x, y, placement_bytes); }

size_t pq_check_distinct(uint8_t *cells, size_t n, size_t bytes) {
  placement_bytes = bytes;
  qsort(cells, n, bytes, by_cells);
  size_t d = 0;
  for (size_t i = 0; i < n; i++)
    d += !i || memcmp(cells + (i - 1) * bytes, cells + i * bytes, bytes);
  return d;
}

bool pq_check_listed(const uint8_t *key, const uint8_t *cells, size_t n, size_t bytes) {
  /* A search of its own, not bsearch with by_cells: threads may call it at once. */
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = memcmp(key, cells + mid * bytes, bytes);
    if (!c) return true;
    if (c < 0)
      hi = mid;
    else
      lo = mid + 1;
  }
  return false;
}

pq_count pq_check_binomial(int n, int k, bool *overflow) {
  if (k < 0 || k > n) return 0;
  pq_count r = 1;
  for (int i = 1; i <= k; i++) {
    /* r * (n - k + i) / i stays whole: it is C(n - k + i, i). */
    pq_count next = r * (pq_count)(n - k + i);
    if (next / (pq_count)(n - k + i) != r) {
      *overflow = true;
      return 0;
    }
    r = next / (pq_count)i;
  }
  return r;
}

typedef struct in_order {
  int n;
  atomic_int next;   /* the next item to hand out */
  atomic_int failed; /* the least item found to fail so far, or n */
  pthread_mutex_t lock;
  int thread; /* the thread that checked item failed */
  void *ctxs;
  size_t size;
  bool (*check)(void *ctx, int i);
} in_order;

typedef struct in_order_thread {
  in_order *r;
  int t;
} in_order_thread;

static void *check_thread(void *arg) {
  const in_order_thread *w = arg;
  in_order *r = w->r;
  void *ctx = (char *)r->ctxs + (size_t)w->t * r->size;
  for (int i; (i = atomic_fetch_add(&r->next, 1)) < r->n && i < atomic_load(&r->failed);) {
    if (r->check(ctx, i)) continue;
    pthread_mutex_lock(&r->lock);
    if (i < atomic_load(&r->failed)) {
      atomic_store(&r->failed, i);
      r->thread = w->t;
    }
    pthread_mutex_unlock(&r->lock);
    break;
  }
  return NULL;
}

int pq_check_in_order(int n, int jobs, void *ctxs, size_t size, bool (*check)(void *ctx, int i),
                      int *thread) {
  in_order r = {.n = n, .thread = 0, .ctxs = ctxs, .size = size, .check = check};
  atomic_init(&r.next, 0);
  atomic_init(&r.failed, n);
  pthread_mutex_init(&r.lock, NULL);
  in_order_thread *w = pq_malloc((size_t)jobs * sizeof *w);
  for (int t = 0; t < jobs; t++)
    w[t] = (in_order_thread){&r, t};
  pq_threads_join(pq_threads_start(jobs, check_thread, w, sizeof *w));
  free(w);
  pthread_mutex_destroy(&r.lock);
  *thread = r.thread;
  return atomic_load(&r.failed);
}
