/* test_engine.c: the run engine on a toy problem whose answers are known by construction: sums
   over parts, decisive parts (a decision stops at its first witness, the same for any number of
   threads), checkpoints and resuming, node limits. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../src/engine.h"
#include "tap.h"

/* Part i "searches" i % 7 + 1 nodes and counts i; it finds a witness when witness[i]. */
typedef struct toy {
  uint64_t parts;
  const bool *witness;
  int spin; /* polls per part: lets other threads run while one part is under way */
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
    for (int k = 0; k < t->spin; k++) {
      pq_status rc = pq_engine_poll(w, k ? 0 : nodes);
      if (rc) return rc;
    }
    sv->nodes += nodes;
    outcome o = {i, t->witness[i] ? i + 1 : 0};
    pq_engine_done(w, i, &o, nodes);
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

static pq_engine_problem problem = {.name = "toy",
                                    .outcome_size = sizeof(outcome),
                                    .solver_new = solver_new,
                                    .solver_free = solver_free,
                                    .solver_nodes = solver_nodes,
                                    .run = run,
                                    .add = add,
                                    .write = write_outcome,
                                    .read = read_outcome};

static pq_status go(toy *t, int jobs, const char *checkpoint, const char *resume,
                    uint64_t node_limit, outcome *total, pq_engine_result *r) {
  solver first = {0};
  pq_engine_job job;
  pq_engine_job_init(&job);
  job.problem = &problem;
  job.ctx = t;
  job.split = (pq_engine_split){.parts = t->parts,
                                .id = 42,
                                .head = "\"board\":\"toy\"",
                                .what = "board",
                                .label = "toy"};
  job.solver = &first;
  job.jobs = jobs;
  job.helper_delay = 0;
  job.checkpoint = checkpoint;
  job.resume = resume;
  job.node_limit = node_limit;
  memset(total, 0, sizeof *total);
  return pq_engine_run(&job, total, r);
}

int main(void) {
  enum { N = 2000 };
  static bool none[N], some[N];
  some[1234] = some[1500] = some[1999] = true;
  toy t = {N, none, 50};
  outcome o;
  pq_engine_result r;
  const uint64_t all = (uint64_t)N * (N - 1) / 2;

  for (int jobs = 1; jobs <= 4; jobs *= 2) {
    t.witness = none;
    problem.decisive = NULL;
    pq_status rc = go(&t, jobs, NULL, NULL, 0, &o, &r);
    tap_ok(rc == PQ_OK && o.sum == all && !o.first && r.decided_by == UINT64_MAX,
           "jobs %d: the sum over every part (%llu)", jobs, (unsigned long long)o.sum);
    t.witness = some;
    problem.decisive = decisive;
    rc = go(&t, jobs, NULL, NULL, 0, &o, &r);
    tap_ok(rc == PQ_OK && o.first == 1235 && o.sum == 1234ULL * 1235 / 2 && r.decided_by == 1234,
           "jobs %d: decided by the first witness, part 1234, summing parts 0..1234 (%llu, %llu)",
           jobs, (unsigned long long)o.first, (unsigned long long)o.sum);
    problem.decisive = NULL;
    rc = go(&t, jobs, NULL, NULL, 0, &o, &r);
    tap_ok(rc == PQ_OK && o.first == 1235 && o.sum == all,
           "jobs %d: without decisive outcomes every part runs", jobs);
  }

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
  rc = go(&t, 2, ck, ck, 0, &o, &r);
  tap_ok(rc == PQ_OK && o.first == 1235 && o.sum == 1234ULL * 1235 / 2 && r.resumed_nodes > 0,
         "resumed: the same decision, %llu nodes taken from the checkpoint",
         (unsigned long long)r.resumed_nodes);
  /* Resuming a finished decisive checkpoint runs nothing. */
  rc = go(&t, 1, NULL, ck, 0, &o, &r);
  tap_ok(rc == PQ_OK && o.first == 1235 && r.nodes == 0,
         "resumed from a decided checkpoint: nothing run (%llu nodes)",
         (unsigned long long)r.nodes);
  unlink(ck);
  return tap_done();
}
