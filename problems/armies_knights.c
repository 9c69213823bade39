/* armies_knights.c: armies of knights by the least closed neighbourhood of the white army.

   White knights on X leave black exactly the squares outside N[X] (X and the squares a knight's
   move from it), so `white` against `black` fit exactly when some X of `white` squares has
   |N[X]| <= squares - black. With the squares in order (row by row), S_q is the suffix q .. n-1
   and least[q][j] the least |N[X] ∩ S_q| over the sets X of j squares of S_q (the knight graph
   of the suffix alone). A Russian-doll search (Verfaillie, Lemaitre and Schiex, 1996) computes
   least[q] for q = n - 1 down to 0: it decides the squares of S_p in order, in X or not, and
   closes a node at square q with chosen squares I (C = N[I] ∩ S_p) and j squares still to
   choose when

       |C \ S_q| + max(|C ∩ S_q|, least[q][j]) >= the bound sought,

   since the squares still to choose lie in S_q, and their closed neighbourhood within S_q has
   at least least[q][j] squares. The same rule closes the leaves of the proof (doc/certificate.md,
   "Knights"), whose lemmas are the entries of least that its leaves use. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armies_knights.h"

#define INF 10000

typedef struct knights {
  int width, height, n;
  uint64_t near[64];     /* N[s]: s and the squares a knight's move from it */
  uint64_t suffix[65];   /* S_q */
  int least[65][65];     /* least[q][j]; INF when j > n - q */
  int best;              /* the search's best value so far */
  uint64_t best_set;     /* a set that has it */
  uint64_t nodes;
  const pq_armies_params *params; /* while the table is built: its limits */
  double deadline;                /* pq_now() time to stop at; 0: none */
  pq_status stop;                 /* PQ_OK, or why the build stopped */
  int ready;                      /* the rows least[q] for q >= ready are complete */
} knights;

static int count(uint64_t x) { return __builtin_popcountll(x); }

/* The closing bound at square q, j squares still to choose, C the neighbourhood so far. */
static int bound(const knights *k, int q, int j, uint64_t C) {
  if (j > k->n - q) return INF;
  int before = count(C & ~k->suffix[q]), after = count(C & k->suffix[q]);
  return before + (after > k->least[q][j] ? after : k->least[q][j]);
}

/* The least |N[X] ∩ S_p| over X ⊆ S_p of `left` more squares from q on, below k->best. */
/* Whether a signal, the cancellation or a limit stops the build (looked at every 2^16 nodes). */
static bool stopped(knights *k) {
  if (k->stop != PQ_OK) return true;
  if (!k->params || (k->nodes & 0xffff)) return false;
  const pq_armies_params *p = k->params;
  if (pq_interrupted)
    k->stop = PQ_EINTR;
  else if ((p->cancel && *p->cancel) || (p->node_limit && k->nodes >= p->node_limit) ||
           (k->deadline > 0 && pq_now() > k->deadline))
    k->stop = PQ_ELIMIT;
  return k->stop != PQ_OK;
}

static void least_rec(knights *k, int p, int q, int left, uint64_t I, uint64_t C) {
  k->nodes++;
  if (stopped(k)) return;
  if (bound(k, q, left, C) >= k->best) return;
  if (!left) {
    k->best = count(C);
    k->best_set = I;
    return;
  }
  least_rec(k, p, q + 1, left - 1, I | (uint64_t)1 << q, C | (k->near[q] & k->suffix[p]));
  least_rec(k, p, q + 1, left, I, C);
}

/* The board's geometry, and an empty table (only least[n], the empty suffix's, is ready). */
static void init(knights *k, int width, int height) {
  memset(k, 0, sizeof *k);
  k->width = width;
  k->height = height;
  k->n = width * height;
  for (int s = 0; s < k->n; s++) {
    k->near[s] = (uint64_t)1 << s;
    for (int t = 0; t < k->n; t++) {
      int dr = abs(s / width - t / width), dc = abs(s % width - t % width);
      if ((dr == 1 && dc == 2) || (dr == 2 && dc == 1)) k->near[s] |= (uint64_t)1 << t;
    }
  }
  for (int q = 0; q <= k->n; q++)
    k->suffix[q] = q == 64 ? 0 : ~(uint64_t)0 << q;
  if (k->n < 64)
    for (int q = 0; q <= k->n; q++)
      k->suffix[q] &= ((uint64_t)1 << k->n) - 1;
  for (int j = 0; j <= 64; j++)
    k->least[k->n][j] = j ? INF : 0;
  k->ready = k->n;
}

/* Computes the rows of the table not ready yet, down to least[0], under params' limits; a stop
   keeps the rows finished so far, so that a later call (the race's next step) goes on. */
static void extend(knights *k, const pq_armies_params *params) {
  k->params = params;
  k->deadline = params && params->time_limit > 0 ? pq_now() + params->time_limit : 0;
  k->stop = PQ_OK;
  k->nodes = 0;
  for (int p = k->ready - 1; p >= 0 && k->stop == PQ_OK; p--) {
    for (int j = 0; j <= 64 && k->stop == PQ_OK; j++) {
      if (j > k->n - p) {
        k->least[p][j] = INF;
        continue;
      }
      /* A set of S_{p+1} gains at most the square p in S_p: start just above that. */
      int start = j <= k->n - p - 1 ? k->least[p + 1][j] + 1 : INF;
      k->best = start + 1;
      least_rec(k, p, p, j, 0, 0);
      k->least[p][j] = k->best <= start ? k->best : start;
    }
    if (k->stop == PQ_OK) k->ready = p;
  }
  k->params = NULL;
}

/* One table a board shape, kept for the process (the outer loop asks one board many sizes, and
   the race may stop a build that the next step resumes); a complete table never changes. */
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static knights *cache[65][65];

/* The complete table of a board shape, built as far as p's limits let it: NULL when they
   stopped it first (*status says why). */
static const knights *table(int width, int height, const pq_armies_params *p, pq_status *status,
                            uint64_t *nodes) {
  pthread_mutex_lock(&cache_lock);
  knights *k = cache[width][height];
  if (!k) {
    k = cache[width][height] = pq_malloc(sizeof *k);
    init(k, width, height);
  }
  if (k->ready > 0) {
    extend(k, p);
    *nodes += k->nodes;
    if (k->ready > 0) *status = k->stop;
  }
  pthread_mutex_unlock(&cache_lock);
  return k->ready > 0 ? NULL : k;
}

bool pq_armies_knights_fits(const pq_board *b) { return b->squares <= 64; }

/* A growable string. */
typedef struct text {
  char *s;
  size_t len, cap;
} text;

static void put(text *t, const char *s, size_t n) {
  if (t->len + n + 1 > t->cap) {
    t->cap = (t->len + n + 1) * 2;
    t->s = pq_realloc(t->s, t->cap);
  }
  memcpy(t->s + t->len, s, n);
  t->len += n;
  t->s[t->len] = '\0';
}

/* The proof's state: need[q][j], the bound each lemma must give (0: none asked). */
typedef struct prover {
  const knights *k;
  int need[65][65];
} prover;

/* Writes the tree proving that every X of `left` more squares of S_p from q on has
   |N[X] ∩ S_p| >= goal, and records the lemmas its leaves use. */
static void prove_rec(prover *pr, text *out, int p, int q, int left, uint64_t C, int goal) {
  const knights *k = pr->k;
  int before = count(C & ~k->suffix[q]), after = count(C & k->suffix[q]);
  bool closed = left > k->n - q;
  if (!closed) closed = q == p ? left >= goal : bound(k, q, left, C) >= goal;
  if (closed) {
    /* The table's default, least[q][j] >= j (N[X] holds X), or a lemma. */
    if (left <= k->n - q && q > p && before + (after > left ? after : left) < goal &&
        goal - before > pr->need[q][left])
      pr->need[q][left] = goal - before;
    put(out, ".", 1);
    return;
  }
  PQ_REQUIRE(q < k->n && left > 0, "knights: a lemma fails at square %d", q);
  put(out, "x", 1);
  prove_rec(pr, out, p, q + 1, left - 1, C | (k->near[q] & k->suffix[p]), goal);
  prove_rec(pr, out, p, q + 1, left, C, goal);
}

/* The proof that |N[X]| >= goal for every X of `white` squares: the main tree, and the lemmas
   (from the largest suffix's down, so that each rests only on lemmas listed before it). */
static void prove(const knights *k, int white, int goal, pq_armies_decision *out) {
  prover *pr = pq_calloc(1, sizeof *pr);
  pr->k = k;
  text main = {0};
  prove_rec(pr, &main, 0, 0, white, 0, goal);
  char **trees = pq_calloc((size_t)(k->n + 1) * 65, sizeof *trees);
  for (int p = 1; p < k->n; p++)
    for (int j = 0; j <= k->n - p; j++)
      if (pr->need[p][j]) {
        text t = {0};
        prove_rec(pr, &t, p, p, j, 0, pr->need[p][j]);
        trees[p * 65 + j] = t.s;
      }
  text lemmas = {0};
  put(&lemmas, "[", 1);
  for (int p = k->n - 1; p >= 1; p--)
    for (int j = 0; j <= k->n - p; j++)
      if (trees[p * 65 + j]) {
        char head[96];
        int len = snprintf(head, sizeof head, "%s\n{\"from\":%d,\"size\":%d,\"least\":%d,\"tree\":\"",
                           lemmas.len > 1 ? "," : "", p, j, pr->need[p][j]);
        put(&lemmas, head, (size_t)len);
        put(&lemmas, trees[p * 65 + j], strlen(trees[p * 65 + j]));
        put(&lemmas, "\"}", 2);
        free(trees[p * 65 + j]);
      }
  put(&lemmas, "]", 1);
  free(trees);
  free(pr);
  out->ncubes = 1;
  out->cubes = pq_calloc(1, sizeof *out->cubes);
  out->trees = pq_calloc(1, sizeof *out->trees);
  out->cubes[0] = pq_strdup("");
  out->trees[0] = main.s;
  out->lemmas = lemmas.s;
}

/* A set of `white` squares with the least closed neighbourhood. */
static uint64_t best_set(const knights *k, int white) {
  knights *search = pq_malloc(sizeof *search);
  memcpy(search, k, sizeof *search);
  search->best = k->least[0][white] + 1;
  least_rec(search, 0, 0, white, 0, 0);
  uint64_t set = search->best_set;
  free(search);
  return set;
}

pq_status pq_armies_knights_decision(const pq_board *b, int white, int black,
                                     const pq_armies_params *p, pq_armies_decision *out) {
  memset(out, 0, sizeof *out);
  int n = b->squares;
  pq_status status = PQ_OK;
  out->nodes = 1;
  const knights *k = table(b->width, b->height, p, &status, &out->nodes);
  if (!k) return status;
  if (white < 0 || black < 0 || white > n || white + black > n) {
    if (p->proof) prove(k, white > n ? n + 1 : white, n - black + 1, out);
    return PQ_OK;
  }
  if (k->least[0][white] > n - black) {
    if (p->proof) prove(k, white, n - black + 1, out);
    return PQ_OK;
  }
  bool equal = white == black;
  if (p->grow && equal)
    while (white < n && k->least[0][white + 1] <= n - (white + 1))
      black = ++white;
  uint64_t set = best_set(k, white), near = 0;
  for (int s = 0; s < n; s++)
    if ((set >> s) & 1) near |= k->near[s];
  out->found = true;
  int left = p->grow && !equal ? n : black;
  for (int s = 0; s < n; s++)
    out->witness[s] = (set >> s) & 1 ? 1 : !((near >> s) & 1) && left-- > 0 ? 2 : 0;
  return PQ_OK;
}
