/* test_engine.c: the run engine on a toy problem whose answers are known by construction: sums
   over parts, decisive parts (a decision stops at its first witness, the same for any number of
   threads), the parts' texts in order and the bound on those held, checkpoints and resuming, node
   limits, part lines and merging them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../src/run/engine.h"
#include "tap.h"

/* Part i "searches" i % 7 + 1 nodes and counts i; it finds a witness when witness[i]. */
typedef struct toy {
  uint64_t parts;
  const bool *witness;
  int spin;       /* polls per part: lets other threads run while one part is under way */
  int slow_first; /* microseconds part 0 takes beyond its polls (the other threads run on) */
  size_t hold;    /* the task's hold_bytes; 0: the default */
  bool plain;     /* parts done without a text */
  char *emitted;  /* the texts emitted, in the order they came */
  size_t len;
} toy;

typedef struct outcome {
  uint64_t sum;   /* of the parts' numbers */
  uint64_t first; /* the first part with a witness, plus one; 0: none */
} outcome;

typedef struct solver {
  uint64_t nodes;
} solver;

static void *solver_new(void *ctx) {
  (void)ctx;
  return calloc(1, sizeof(solver));
}
static void solver_free(void *s) { free(s); }
static uint64_t solver_nodes(const void *s) { return ((const solver *)s)->nodes; }

static pq_status run(void *ctx, void *s, pq_engine_worker *w) {
  const toy *t = ctx;
  solver *sv = s;
  for (uint64_t i; (i = pq_engine_next(w)) != UINT64_MAX;) {
    uint64_t nodes = i % 7 + 1;
    if (i == 0 && t->slow_first) {
      pq_engine_poll(w, 0); /* starts the other threads */
      usleep((useconds_t)t->slow_first);
    }
    for (int k = 0; k < t->spin; k++) {
      pq_status rc = pq_engine_poll(w, k ? 0 : nodes);
      if (rc) return rc;
    }
    sv->nodes += nodes;
    outcome o = {i, t->witness[i] ? i + 1 : 0};
    char text[32];
    if (t->plain) {
      pq_engine_done(w, i, &o, nodes, NULL, 0);
      continue;
    }
    pq_engine_done(w, i, &o, nodes, text,
                   (size_t)snprintf(text, sizeof text, "%llu;", (unsigned long long)i));
  }
  return PQ_OK;
}

static int add(void *ctx, void *total, const void *part) {
  (void)ctx;
  outcome *t = total;
  const outcome *o = part;
  t->sum += o->sum;
  if (!t->first) t->first = o->first;
  return 0;
}

static void write_outcome(void *ctx, FILE *f, const void *part) {
  (void)ctx;
  const outcome *o = part;
  fprintf(f, "\"sum\":%llu,\"first\":%llu", (unsigned long long)o->sum,
          (unsigned long long)o->first);
}

static const char *read_outcome(void *ctx, const pq_json *v, void *part) {
  (void)ctx;
  outcome *o = part;
  long sum, first;
  if (pq_json_get_long(v, "sum", 0, 1L << 40, &sum) ||
      pq_json_get_long(v, "first", 0, 1L << 40, &first))
    return "not a toy outcome";
  o->sum = (uint64_t)sum;
  o->first = (uint64_t)first;
  return NULL;
}

static bool decisive(void *ctx, const void *part) {
  (void)ctx;
  return ((const outcome *)part)->first != 0;
}

static void emit(void *ctx, uint64_t part, const char *text, size_t len) {
  toy *t = ctx;
  (void)part;
  t->emitted = realloc(t->emitted, t->len + len + 1);
  if (len) memcpy(t->emitted + t->len, text, len); /* a part done without a text: NULL, 0 */
  t->len += len;
  t->emitted[t->len] = 0;
}

/* "0;1;...;" for the parts first, first + stride, ... up to last. */
static char *texts(uint64_t first, uint64_t stride, uint64_t last) {
  char *s = malloc(8 * (last + 2)), *p = s;
  *p = 0;
  for (uint64_t i = first; i <= last; i += stride)
    p += sprintf(p, "%llu;", (unsigned long long)i);
  return s;
}

static pq_engine_problem problem = {.name = "toy",
                                    .outcome_size = sizeof(outcome),
                                    .solver_new = solver_new,
                                    .solver_free = solver_free,
                                    .solver_nodes = solver_nodes,
                                    .run = run,
                                    .add = add,
                                    .write = write_outcome,
                                    .read = read_outcome,
                                    .emit = emit};

static pq_engine_split split(uint64_t parts) {
  return (pq_engine_split){
      .parts = parts, .id = 42, .head = "\"board\":\"toy\"", .what = "board", .label = "toy"};
}

/* What the next run of go or run_part adds to its task: texts needed, a texts file. */
static pq_engine_task extra;

/* The facts the next run of go saves with its checkpoints (NULL: none). */
static const char *facts;

static pq_status go(toy *t, int jobs, const char *checkpoint, const char *resume,
                    uint64_t node_limit, outcome *total, pq_engine_result *r) {
  solver first = {0};
  t->len = 0;
  pq_engine_task task;
  pq_engine_task_init(&task);
  task.need_texts = extra.need_texts;
  task.problem = &problem;
  task.ctx = t;
  task.split = split(t->parts);
  task.solver = &first;
  task.lim.jobs = jobs;
  task.helper_delay = 0;
  task.lim.checkpoint = checkpoint;
  task.lim.resume = resume;
  task.lim.node_limit = node_limit;
  if (t->hold) task.hold_bytes = t->hold;
  task.facts = facts;
  memset(total, 0, sizeof *total);
  return pq_engine_run(&task, total, r);
}

/* Runs part `part` of `parts` of t as --part does, its line into *line (caller frees). */
static pq_status run_part(toy *t, int part, int parts, char **line) {
  solver first = {0};
  pq_engine_task task;
  pq_engine_task_init(&task);
  task.problem = &problem;
  task.ctx = t;
  task.split = split(t->parts);
  task.solver = &first;
  task.lim.part = part;
  task.lim.parts = parts;
  t->len = 0;
  outcome o = {0};
  size_t len = 0;
  fflush(stdout);
  FILE *f = open_memstream(line, &len), *out = stdout;
  stdout = f;
  pq_status rc = pq_engine_run(&task, &o, NULL);
  stdout = out;
  fclose(f);
  return rc;
}

/* Merges the part lines of t's split into *total; the texts go to t->emitted. */
static pq_status merge(toy *t, char **line, int n, outcome *total) {
  pq_json *doc[8];
  char err[160];
  for (int i = 0; i < n; i++) {
    doc[i] = pq_json_parse(line[i], strlen(line[i]), err);
    pq_engine_check_line(doc[i], line[i], strlen(line[i]));
  }
  uint64_t nodes = 0;
  pq_engine_split sp = split(t->parts);
  memset(total, 0, sizeof *total);
  t->len = 0;
  pq_status rc = pq_engine_merge(&problem, t, &sp, doc, n, total, &nodes);
  for (int i = 0; i < n; i++)
    pq_json_free(doc[i]);
  return rc;
}

/* Texts a run needs and a checkpoint lacks refuse it, before anything runs; texts sent to a file
   leave stdout. */
static void texts_needed_and_sent(toy *tp, const char *every, uint64_t all) {
  toy t = *tp;
  char ck[] = "/tmp/test_engine_XXXXXX";
  outcome o;
  pq_engine_result r;
  char *line[3];
  int fd;
  fd = mkstemp(ck);
  close(fd);
  t.plain = true;
  pq_status rc = go(&t, 1, ck, NULL, 3000, &o, &r);
  tap_ok(rc == PQ_ELIMIT, "a checkpoint of parts done without texts");
  extra.need_texts = true;
  pq_engine_task task;
  pq_engine_task_init(&task);
  task.problem = &problem;
  task.ctx = &t;
  task.split = split(t.parts);
  task.lim.resume = ck;
  task.need_texts = true;
  tap_ok(pq_engine_check_resume(&task) == PQ_EINVAL, "check_resume: parts without texts refused");
  t.plain = false;
  rc = go(&t, 1, NULL, ck, 0, &o, &r);
  tap_ok(rc == PQ_EINVAL, "a run that needs texts refuses a checkpoint without (status %d)", rc);
  task.need_texts = extra.need_texts = false;
  tap_ok(pq_engine_check_resume(&task) == PQ_OK,
         "check_resume: the same checkpoint, texts not needed");
  rc = go(&t, 1, NULL, ck, 0, &o, &r);
  tap_ok(rc == PQ_OK && o.sum == all, "texts not needed: the same checkpoint resumes");
  unlink(ck);
  problem.decisive = NULL;
  problem.private_texts = true;
  for (int i = 0; i < 3; i++) {
    rc = run_part(&t, i + 1, 3, &line[i]);
    tap_ok(rc == PQ_OK && !strstr(line[i], "\"texts\""),
           "--part %d/3 with private texts: no texts in the line", i + 1);
  }
  t.len = 0;
  rc = merge(&t, line, 3, &o);
  tap_ok(rc == PQ_OK && o.sum == all && t.len == 0,
         "lines without private texts merge: the sum, and nothing emitted");
  problem.private_texts = false;
  for (int i = 0; i < 3; i++) {
    free(line[i]);
    rc = run_part(&t, i + 1, 3, &line[i]);
  }
  rc = merge(&t, line, 3, &o);
  tap_ok(rc == PQ_OK && o.sum == all && !strcmp(t.emitted, every),
         "the same lines with their texts merge: every text emitted in order");
  for (int i = 0; i < 3; i++)
    free(line[i]);
  tp->emitted = t.emitted;
}

int main(void) {
  enum { N = 2000 };
  static bool none[N], some[N];
  some[1234] = some[1500] = some[1999] = true;
  toy t = {.parts = N, .witness = none, .spin = 50};
  outcome o;
  pq_engine_result r;
  const uint64_t all = (uint64_t)N * (N - 1) / 2;
  char *every = texts(0, 1, N - 1), *decided = texts(0, 1, 1234);

  for (int jobs = 1; jobs <= 4; jobs *= 2) {
    t.witness = none;
    problem.decisive = NULL;
    pq_status rc = go(&t, jobs, NULL, NULL, 0, &o, &r);
    tap_ok(rc == PQ_OK && o.sum == all && !o.first && r.decided_by == UINT64_MAX,
           "jobs %d: the sum over every part (%llu)", jobs, (unsigned long long)o.sum);
    tap_ok(t.emitted && !strcmp(t.emitted, every), "jobs %d: every part's text, in order", jobs);
    t.witness = some;
    problem.decisive = decisive;
    rc = go(&t, jobs, NULL, NULL, 0, &o, &r);
    tap_ok(rc == PQ_OK && o.first == 1235 && o.sum == 1234ULL * 1235 / 2 && r.decided_by == 1234,
           "jobs %d: decided by the first witness, part 1234, summing parts 0..1234 (%llu, %llu)",
           jobs, (unsigned long long)o.first, (unsigned long long)o.sum);
    tap_ok(!strcmp(t.emitted, decided), "jobs %d: the texts of parts 0..1234, in order", jobs);
    problem.decisive = NULL;
    rc = go(&t, jobs, NULL, NULL, 0, &o, &r);
    tap_ok(rc == PQ_OK && o.first == 1235 && o.sum == all,
           "jobs %d: without decisive outcomes every part runs", jobs);
  }

  /* Part 0 slow, the others quick on three more threads: the texts done after part 0 wait for it,
     at most hold_bytes a thread (then the threads wait: each holds one text of 6 bytes at most
     beyond the bound), and all come out in order. Without the bound they pile up. */
  t.witness = none;
  problem.decisive = NULL;
  t.slow_first = 100000;
  t.hold = 16;
  pq_status held_rc = go(&t, 4, NULL, NULL, 0, &o, &r);
  tap_ok(held_rc == PQ_OK && o.sum == all && !strcmp(t.emitted, every) && r.held_most <= 4 * 22,
         "hold_bytes 16 on 4 threads, part 0 slow: every text in order, at most %zu bytes held",
         r.held_most);
  t.hold = 0;
  held_rc = go(&t, 4, NULL, NULL, 0, &o, &r);
  tap_ok(held_rc == PQ_OK && !strcmp(t.emitted, every) && r.held_most > 4 * 22,
         "the default bound, part 0 slow: the texts of later parts held meanwhile (%zu bytes)",
         r.held_most);
  t.slow_first = 0;

  /* A run stopped by a node limit, resumed from its checkpoint: the same answer, and the parts of
     the checkpoint are not run again. */
  char ck[] = "/tmp/test_engine_XXXXXX";
  int fd = mkstemp(ck);
  tap_ok(fd >= 0, "a temporary checkpoint file");
  close(fd);
  t.witness = some;
  problem.decisive = decisive;
  pq_status rc = go(&t, 2, ck, NULL, 3000, &o, &r);
  tap_ok(rc == PQ_ELIMIT, "a node limit stops the run (status %d)", rc);
  /* The problem's facts go into the checkpoint, sealed, and are not compared on resume. */
  facts = "\"best\":7,\"witness\":\"Q.\"";
  rc = go(&t, 2, ck, ck, 1000, &o, &r);
  char *saved = NULL;
  size_t saved_len = 0;
  pq_status read = pq_read_file(ck, 1 << 26, &saved, &saved_len);
  tap_ok((rc == PQ_OK || rc == PQ_ELIMIT) && !read &&
             strstr(saved, "\"subparts\":2000,\"best\":7,\"witness\":\"Q.\",\"nodes\":") &&
             pq_engine_sealed(saved, saved_len),
         "the facts are saved after the head, sealed");
  free(saved);
  facts = "\"best\":8";
  rc = go(&t, 2, ck, ck, 0, &o, &r);
  facts = NULL;
  tap_ok(rc == PQ_OK && o.first == 1235 && o.sum == 1234ULL * 1235 / 2 && r.resumed_nodes > 0,
         "resumed: the same decision, %llu nodes taken from the checkpoint",
         (unsigned long long)r.resumed_nodes);
  tap_ok(!strcmp(t.emitted, decided), "resumed: the texts of the checkpoint's parts, in order");
  /* Resuming a finished decisive checkpoint runs nothing. */
  rc = go(&t, 1, NULL, ck, 0, &o, &r);
  tap_ok(rc == PQ_OK && o.first == 1235 && r.nodes == 0,
         "resumed from a decided checkpoint: nothing run (%llu nodes)",
         (unsigned long long)r.nodes);
  unlink(ck);

  /* Three part lines merge into the whole: the same sum, every text in the split's order. */
  problem.decisive = NULL;
  char *line[3];
  for (int i = 0; i < 3; i++) {
    rc = run_part(&t, i + 1, 3, &line[i]);
    char *own = texts((uint64_t)i, 3, N - 1);
    tap_ok(rc == PQ_OK && !strcmp(t.emitted, own), "--part %d/3: its own parts' texts", i + 1);
    free(own);
  }
  rc = merge(&t, line, 3, &o);
  tap_ok(rc == PQ_OK && o.sum == all && !strcmp(t.emitted, every),
         "merged parts: the sum and every text in the split's order");
  char *moved = strstr(line[1], "\"texts\":[\"1;\"");
  tap_ok(moved != NULL, "a part line holds its texts");
  if (moved) moved[10] = '4';
  rc = merge(&t, line, 3, &o);
  tap_ok(rc == PQ_EINVAL, "a part line with an edited text is refused (status %d)", rc);
  char *two[] = {line[0], line[2]};
  rc = merge(&t, two, 2, &o);
  tap_ok(rc == PQ_ELIMIT, "a missing part line: no total (status %d)", rc);
  for (int i = 0; i < 3; i++)
    free(line[i]);

  texts_needed_and_sent(&t, every, all);
  free(every);
  free(decided);
  free(t.emitted);
  return tap_done();
}
