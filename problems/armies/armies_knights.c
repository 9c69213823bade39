/* armies_knights.c: armies of knights by the least closed neighbourhood of the white army.

   White knights on X leave black exactly the squares outside N[X] (X and the squares a knight's
   move from it), so `white` against `black` fit exactly when some X of `white` squares has
   |N[X]| <= squares - black. With the squares in order (row by row), S_q is the suffix q .. n-1
   and N_q[X] = N[X] ∩ S_q for X ⊆ S_q (the knight graph of the suffix alone). The search keeps,
   per suffix and size, lo[q][j], a proven lower bound on |N_q[X]| over the sets X of j squares
   of S_q (at first j), and hi[q][j], the value of a set it found. Deciding "lo[p][k] >= t?"
   (a Russian-doll search, Verfaillie, Lemaitre and Schiex, 1996, asked lazily, bound by bound)
   decides the squares of S_p in order, in X or not, and closes a node at square q with chosen
   squares I (C = N_p[I]) and j squares still to choose when

       |C \ S_q| + max(|C ∩ S_q|, lo[q][j]) >= t,

   asking first, when that falls short, whether lo[q][j] can be raised to what closes the node
   (the same question on the smaller suffix). The squares still to choose lie in S_q, and their
   neighbourhood there has at least lo[q][j] squares. The same rule closes the leaves of the
   proof (doc/certificate.md, "Knights"), whose lemmas are the entries of lo its leaves use. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armies_knights.h"

#define INF 10000

typedef struct knights {
  int width, height, n;
  uint64_t near[64];   /* N[s]: s and the squares a knight's move from it */
  uint64_t suffix[65]; /* S_q */
  int lo[65][65];      /* proven: every X of j squares of S_q has |N_q[X]| >= lo[q][j] */
  int hi[65][65];      /* a set of j squares of S_q with |N_q[X]| = hi[q][j] was found */
  uint64_t nodes;
  const pq_armies_params *params; /* the current decision's limits */
  double deadline;                /* pq_now() time to stop at; 0: none */
  pq_status stop;                 /* PQ_OK, or why the decision stopped */
  int found;                      /* the value of the last set found below its bound */
  uint64_t witness;               /* that set */
} knights;

static int count(uint64_t x) { return __builtin_popcountll(x); }

/* The closing bound at square q, j squares still to choose, C the neighbourhood so far. */
static int bound(const knights *k, int q, int j, uint64_t C) {
  if (j > k->n - q) return INF;
  int before = count(C & ~k->suffix[q]), after = count(C & k->suffix[q]);
  return before + (after > k->lo[q][j] ? after : k->lo[q][j]);
}

/* Whether a signal, the cancellation or a limit stops the decision (looked at every 2^16
   nodes). */
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

static bool raise_bound(knights *k, int p, int j, int t);

/* Whether every X ⊆ S_p of `left` more squares from q on (I chosen so far, C = N_p[I]) has
   |N_p[X]| >= t; if not, k->found and k->witness are one that has less. */
static bool closes(knights *k, int p, int q, int left, uint64_t I, uint64_t C, int t) {
  k->nodes++;
  if (stopped(k)) return false;
  if (left > k->n - q) return true;
  int before = count(C & ~k->suffix[q]), after = count(C & k->suffix[q]), need = t - before;
  if (after >= need || k->lo[q][left] >= need) return true;
  if (q > p && raise_bound(k, q, left, need)) return true;
  if (!left) {
    k->found = count(C);
    k->witness = I;
    return false;
  }
  return closes(k, p, q + 1, left - 1, I | (uint64_t)1 << q, C | (k->near[q] & k->suffix[p]), t) &&
         closes(k, p, q + 1, left, I, C, t);
}

/* Whether lo[p][j] is (or can be proven to be) at least t; records what it learns. */
static bool raise_bound(knights *k, int p, int j, int t) {
  if (j > k->n - p || k->lo[p][j] >= t) return true;
  if (k->hi[p][j] < t) return false;
  bool all = closes(k, p, p, j, 0, 0, t);
  if (k->stop != PQ_OK) return false;
  if (all)
    k->lo[p][j] = t;
  else if (k->found < k->hi[p][j])
    k->hi[p][j] = k->found;
  return all;
}

/* The board's geometry and the bounds known without search. */
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
  for (int q = 0; q <= 64; q++)
    for (int j = 0; j <= 64; j++) {
      k->lo[q][j] = j; /* N[X] holds X */
      k->hi[q][j] = INF;
    }
}

/* One record of bounds a board shape, kept for the process (the outer loop asks one board many
   sizes, and what a stopped decision proved stays proven); used under the lock. */
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static knights *cache[65][65];

/* Decides at the top whether every X of w squares has |N[X]| >= t: 1 yes, 0 no (*set is one
   that has less), -1 stopped. */
static int decide_top(knights *k, int w, int t, uint64_t *set) {
  if (w > k->n) return 1;
  bool all = closes(k, 0, 0, w, 0, 0, t);
  if (k->stop != PQ_OK) return -1;
  if (all) {
    if (k->lo[0][w] < t) k->lo[0][w] = t;
    return 1;
  }
  *set = k->witness;
  return 0;
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

pq_status pq_armies_knights_decision(const pq_board *b, int white, int black,
                                     const pq_armies_params *p, pq_armies_decision *out) {
  memset(out, 0, sizeof *out);
  int n = b->squares;
  if (white < 0) white = 0;
  if (black < 0) black = 0;
  pthread_mutex_lock(&cache_lock);
  knights *k = cache[b->width][b->height];
  if (!k) {
    k = cache[b->width][b->height] = pq_malloc(sizeof *k);
    init(k, b->width, b->height);
  }
  k->params = p;
  k->deadline = p->time_limit > 0 ? pq_now() + p->time_limit : 0;
  k->stop = PQ_OK;
  k->nodes = 0;
  uint64_t set = 0;
  int all = decide_top(k, white, n - black + 1, &set);
  bool equal = white == black;
  /* With grow, equal armies become the largest equal armies (each step a witness, or proven
     not to fit, or stopped: the last witness stands). */
  while (all == 0 && p->grow && equal && white < n) {
    uint64_t larger;
    if (decide_top(k, white + 1, n - white, &larger) != 0) break;
    black = ++white;
    set = larger;
  }
  k->params = NULL;
  out->nodes = k->nodes;
  pq_status rc = all < 0 ? k->stop : PQ_OK;
  if (all == 1 && p->proof) prove(k, white, n - black + 1, out);
  pthread_mutex_unlock(&cache_lock);
  if (all != 0) return rc;
  uint64_t near = 0;
  for (int s = 0; s < n; s++)
    if ((set >> s) & 1) near |= k->near[s];
  out->found = true;
  int left = p->grow && !equal ? n : black;
  for (int s = 0; s < n; s++)
    out->witness[s] = (set >> s) & 1 ? 1 : !((near >> s) & 1) && left-- > 0 ? 2 : 0;
  return PQ_OK;
}
