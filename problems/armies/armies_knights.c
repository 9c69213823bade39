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
   proof (doc/certificate.md, "Knights"), whose lemmas are the entries of lo its leaves use.

   Counts (of knights, and of kings on the king graph) run the same search to every X with
   |N[X]| < t, not the first, and visit the black armies outside each; written out, the search
   is the count's proof, its leaves "c" the X found ("Count certificates"). */
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/run/engine.h"
#include "../../src/run/progress.h"
#include "armies_knights.h"

#define INF 1000000

/* A set of squares: a bitboard of the board's words (k->words of them in use). */
typedef pq_bits squares;

typedef struct knights {
  int width, height, n, words;
  squares *near;     /* [s]: N[s], s and the squares a knight's (or, counting kings, a king's) move
                        from it */
  squares *suffix;   /* [q]: S_q */
  int *first, *last; /* [s]: the words that N[s] meets */
  squares *chosen;   /* [p]: I, the squares chosen by the search over S_p under way */
  squares *reached;  /* [p]: C = N_p[I] for that search */
  int *lo;           /* [q * (n + 1) + j]: every X of j squares of S_q has |N_q[X]| >= lo */
  int *hi;           /* [q * (n + 1) + j]: a set of j squares of S_q with |N_q[X]| = hi was found */
  uint64_t nodes;
  const pq_armies_params *params; /* the current decision's limits */
  double deadline;                /* pq_now() time to stop at; 0: none */
  pq_status stop;                 /* PQ_OK, or why the decision stopped */
  int found;                      /* the value of the last set found below its bound */
  squares witness;                /* that set */
  /* The current decision's checkpoint and facts (pq_armies_params), the board it names (as
     given, before a transposition) and when it was last written. */
  const char *checkpoint, *facts;
  int board_width, board_height;
  double last_save;
  pq_status saved;      /* PQ_OK, or PQ_EIO once a write failed */
  char label[96];       /* the search under way, for its progress */
  pq_progress progress; /* shown on stderr while it runs (src/run/progress.h) */
  bool resumed;         /* bounds were taken from a checkpoint (pq_armies_knights_resume) */
} knights;

static int *lo_at(const knights *k, int q, int j) {
  return &k->lo[(size_t)q * (size_t)(k->n + 1) + (size_t)j];
}
static int *hi_at(const knights *k, int q, int j) {
  return &k->hi[(size_t)q * (size_t)(k->n + 1) + (size_t)j];
}

/* |C| below square q, and from q on. */
static void split_count(const knights *k, const squares *C, int q, int *before, int *after) {
  int b = 0, a = 0;
  for (int w = 0; w < k->words; w++) {
    uint64_t in = k->suffix[q].w[w];
    b += __builtin_popcountll(C->w[w] & ~in);
    a += __builtin_popcountll(C->w[w] & in);
  }
  *before = b;
  *after = a;
}

/* The closing bound at square q, j squares still to choose, C the neighbourhood so far. */
static int bound(const knights *k, int q, int j, const squares *C) {
  if (j > k->n - q) return INF;
  int before, after, least = *lo_at(k, q, j);
  split_count(k, C, q, &before, &after);
  return before + (after > least ? after : least);
}

/* The checkpoint of what k has learnt (doc/json.md, "Knights' checkpoints"): the board as
   given, the run's facts, and per suffix q the bounds lo[q][j] and hi[q][j] (-1: none found) for
   j = 0 .. n - q, in the search's order of the squares. */
static void write_learnt(FILE *f, void *arg) {
  const knights *k = arg;
  fprintf(f,
          "{\"format\":\"peaceable-checkpoint\",\"version\":2,\"problem\":\"armies\","
          "\"board\":\"%dx%d\",\"piece\":\"N\"",
          k->board_width, k->board_height);
  if (k->facts) fprintf(f, ",%s", k->facts);
  fprintf(f, ",\"learnt\":{\"order\":\"%s\"", k->width != k->board_width ? "columns" : "rows");
  for (int table = 0; table < 2; table++) {
    fputs(table ? "],\"hi\":[" : ",\"lo\":[", f);
    for (int q = 0; q <= k->n; q++) {
      fputs(q ? ",\n[" : "\n[", f);
      for (int j = 0; j <= k->n - q; j++) {
        int v = table ? *hi_at(k, q, j) : *lo_at(k, q, j);
        fprintf(f, "%s%d", j ? "," : "", v == INF ? -1 : v);
      }
      fputc(']', f);
    }
  }
  fputs("]}}", f);
}

static void save(knights *k) {
  if (pq_engine_save_sealed(k->checkpoint, write_learnt, k) != PQ_OK) k->saved = PQ_EIO;
  k->last_save = pq_now();
}

/* Whether a signal, the cancellation or a limit stops the decision (the node limit looked at
   every node, the rest every 2^16 nodes, when the checkpoint is also written if due). */
static bool stopped(knights *k) {
  if (k->stop != PQ_OK) return true;
  if (k->params && k->params->node_limit && k->nodes >= k->params->node_limit) k->stop = PQ_ELIMIT;
  if (k->stop || !k->params || (k->nodes & 0xffff)) return k->stop != PQ_OK;
  if (k->checkpoint && !k->saved && pq_now() - k->last_save >= PQ_ENGINE_SAVE_SECONDS) save(k);
  if (k->saved) k->stop = PQ_EIO; /* its work cannot be saved: stopped, as the engine stops */
  pq_progress_update(&k->progress, 0, k->nodes);
  const pq_armies_params *p = k->params;
  if (pq_interrupted)
    k->stop = PQ_EINTR;
  else if ((p->cancel && *p->cancel) || (p->node_limit && k->nodes >= p->node_limit) ||
           (k->deadline > 0 && pq_now() > k->deadline))
    k->stop = PQ_ELIMIT;
  return k->stop != PQ_OK;
}

static bool raise_bound(knights *k, int p, int j, int t);

static bool has(const squares *set, int s) { return (set->w[s / 64] >> (s % 64)) & 1; }

/* Square q joins X in the search over S_p (I = k->chosen[p], C = k->reached[p] = N_p[I], and
   *before and *after C's squares below q and from q on): q goes into I and what it reaches of S_p
   into C, whose gain is kept in add for leave(); *before and *after become C's squares below q + 1
   and from q + 1 on. */
static inline void join(knights *k, int p, int q, uint64_t *add, int *before, int *after) {
  squares *C = &k->reached[p];
  int had = has(C, q);
  *before += had;
  *after -= had;
  for (int w = k->first[q]; w <= k->last[q]; w++) {
    add[w] = k->near[q].w[w] & k->suffix[p].w[w] & ~C->w[w];
    C->w[w] |= add[w];
    *after += __builtin_popcountll(add[w] & k->suffix[q + 1].w[w]);
    *before += __builtin_popcountll(add[w] & ~k->suffix[q + 1].w[w]);
  }
  k->chosen[p].w[q / 64] |= (uint64_t)1 << (q % 64);
}

/* Undoes join(k, p, q, add, ...). */
static inline void leave(knights *k, int p, int q, const uint64_t *add) {
  k->chosen[p].w[q / 64] &= ~((uint64_t)1 << (q % 64));
  for (int w = k->first[q]; w <= k->last[q]; w++)
    k->reached[p].w[w] &= ~add[w];
}

/* Whether every X ⊆ S_p of `left` more squares from q on (I = k->chosen[p] chosen so far,
   C = k->reached[p] = N_p[I], `before` and `after` its squares below q and from q on) has
   |N_p[X]| >= t; if not, k->found and k->witness are one that has less. I and C are changed in
   place and restored. */
static bool closes(knights *k, int p, int q, int left, int before, int after, int t) {
  k->nodes++;
  if (stopped(k)) return false;
  if (left > k->n - q) return true;
  int need = t - before;
  if (after >= need || *lo_at(k, q, left) >= need) return true;
  if (q > p && raise_bound(k, q, left, need)) return true;
  squares *I = &k->chosen[p], *C = &k->reached[p];
  if (!left) {
    k->found = before + after;
    k->witness = *I;
    return false;
  }
  /* q in X, then not (q moves below the suffix either way). */
  uint64_t add[PQ_WORDS];
  int had = has(C, q), in_before = before, in_after = after;
  join(k, p, q, add, &in_before, &in_after);
  bool all = closes(k, p, q + 1, left - 1, in_before, in_after, t);
  leave(k, p, q, add);
  return all && closes(k, p, q + 1, left, before + had, after - had, t);
}

/* Whether lo[p][j] is (or can be proven to be) at least t; records what it learns. */
static bool raise_bound(knights *k, int p, int j, int t) {
  if (j > k->n - p || *lo_at(k, p, j) >= t) return true;
  if (*hi_at(k, p, j) < t) return false;
  bool all = closes(k, p, p, j, 0, 0, t);
  if (k->stop != PQ_OK) return false;
  if (all)
    *lo_at(k, p, j) = t;
  else if (k->found < *hi_at(k, p, j))
    *hi_at(k, p, j) = k->found;
  return all;
}

/* The board's geometry and the bounds known without search. */
static void init(knights *k, pq_piece piece, int width, int height) {
  memset(k, 0, sizeof *k);
  k->width = width;
  k->height = height;
  k->n = width * height;
  k->words = (k->n + 63) / 64;
  k->near = pq_calloc((size_t)k->n + 1, sizeof *k->near);
  k->suffix = pq_calloc((size_t)k->n + 1, sizeof *k->suffix);
  /* N[s]: the core's attack set of the board in the search's order, and s. */
  pq_board *b = pq_board_new(width, height);
  for (int s = 0; s < k->n; s++) {
    k->near[s] = b->attack[piece][s];
    k->near[s].w[s / 64] |= (uint64_t)1 << (s % 64);
  }
  pq_board_free(b);
  for (int q = 0; q <= k->n; q++)
    for (int s = q; s < k->n; s++)
      k->suffix[q].w[s / 64] |= (uint64_t)1 << (s % 64);
  k->first = pq_malloc((size_t)k->n * sizeof *k->first);
  k->last = pq_malloc((size_t)k->n * sizeof *k->last);
  for (int s = 0; s < k->n; s++) {
    k->first[s] = k->words;
    k->last[s] = -1;
    for (int w = 0; w < k->words; w++)
      if (k->near[s].w[w]) {
        if (k->first[s] > w) k->first[s] = w;
        k->last[s] = w;
      }
  }
  k->chosen = pq_calloc((size_t)k->n + 1, sizeof *k->chosen);
  k->reached = pq_calloc((size_t)k->n + 1, sizeof *k->reached);
  size_t cells = ((size_t)k->n + 1) * ((size_t)k->n + 1);
  k->lo = pq_malloc(cells * sizeof *k->lo);
  k->hi = pq_malloc(cells * sizeof *k->hi);
  for (int q = 0; q <= k->n; q++)
    for (int j = 0; j <= k->n; j++) {
      *lo_at(k, q, j) = j; /* N[X] holds X */
      *hi_at(k, q, j) = INF;
    }
}

/* The search's frontier is two rows of its order: a board wider than tall is searched (and
   proven) column by column, which is its transpose row by row. */
static bool by_columns_of(const pq_board *b, int *width, int *height) {
  bool by_columns = b->width > b->height;
  *width = by_columns ? b->height : b->width;
  *height = by_columns ? b->width : b->height;
  return by_columns;
}

/* Square s of the search (row s / width of its order's board, column s % width) on board b. */
static int on_board(const pq_board *b, bool by_columns, int width, int s) {
  return by_columns ? (s % width) * b->width + s / width : s;
}

/* Starts a search of k under the limits of p (no checkpoint), with its progress on stderr:
   label_fmt ... say what it is. */
static void begin(knights *k, const pq_armies_params *p, const char *label_fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void begin(knights *k, const pq_armies_params *p, const char *label_fmt, ...) {
  va_list ap;
  va_start(ap, label_fmt);
  vsnprintf(k->label, sizeof k->label, label_fmt, ap);
  va_end(ap);
  pq_progress_start(&k->progress, k->label, 0);
  k->params = p;
  k->deadline = p->time_limit > 0 ? pq_now() + p->time_limit : 0;
  k->stop = PQ_OK;
  k->nodes = 0;
  k->checkpoint = k->facts = NULL;
  k->last_save = pq_now();
  k->saved = PQ_OK;
}

/* One record of bounds a board shape, kept for the process (the outer loop asks one board many
   sizes, and what a stopped decision proved stays proven); used under the lock. */
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static knights *cache[2][PQ_MAX_SIDE + 1][PQ_MAX_SIDE + 1];

/* The record of the piece (knights, or kings) and board shape (under the lock), made at its first
   use. */
static knights *record_of(pq_piece piece, int width, int height) {
  knights **k = &cache[piece == PQ_KING][width][height];
  if (!*k) {
    *k = pq_malloc(sizeof(knights));
    init(*k, piece, width, height);
  }
  return *k;
}

/* Reads v, row q of the table lo (or of hi, when hi), into row: n - q + 1 whole numbers, the j-th
   from j to n - q (hi: or -1, none found). Returns false when it is not that. */
static bool read_row(const pq_json *v, int q, int n, bool hi, int *row) {
  if (!v || v->type != PQ_JSON_ARRAY || v->length != (size_t)(n - q + 1)) return false;
  for (int j = 0; j <= n - q; j++) {
    long x;
    const pq_json *item = v->items[j];
    if (item->type != PQ_JSON_NUMBER || pq_parse_long(item->string, hi ? -1 : j, n - q, &x) ||
        (hi && x >= 0 && x < j))
      return false;
    row[j] = (int)x;
  }
  return true;
}

pq_status pq_armies_knights_resume(const pq_board *b, const pq_json *doc, const char *path) {
  int width, height, n = b->squares;
  bool by_columns = by_columns_of(b, &width, &height);
  const pq_json *learnt = pq_json_get(doc, "learnt");
  const pq_json *lo = learnt ? pq_json_get(learnt, "lo") : NULL,
                *hi = learnt ? pq_json_get(learnt, "hi") : NULL;
  const char *order = learnt ? pq_json_get_string(learnt, "order") : NULL;
  bool ok = order && !strcmp(order, by_columns ? "columns" : "rows") && lo && hi &&
            lo->type == PQ_JSON_ARRAY && hi->type == PQ_JSON_ARRAY && lo->length == (size_t)n + 1 &&
            hi->length == (size_t)n + 1;
  /* The whole table is read and checked before any of it is taken (a bound found below a proven
     one is no table), outside the lock. */
  size_t stride = (size_t)n + 1;
  int *low = pq_malloc(stride * stride * sizeof *low),
      *high = pq_malloc(stride * stride * sizeof *high);
  for (int q = 0; q <= n && ok; q++) {
    int *l = low + (size_t)q * stride, *h = high + (size_t)q * stride;
    ok = read_row(lo->items[q], q, n, false, l) && read_row(hi->items[q], q, n, true, h);
    for (int j = 0; j <= n - q && ok; j++)
      ok = h[j] < 0 || l[j] <= h[j];
  }
  if (ok) {
    pthread_mutex_lock(&cache_lock);
    knights *k = record_of(PQ_KNIGHT, width, height);
    for (int q = 0; q <= n; q++)
      for (int j = 0; j <= n - q; j++) {
        int l = low[(size_t)q * stride + (size_t)j], h = high[(size_t)q * stride + (size_t)j];
        if (l > *lo_at(k, q, j)) *lo_at(k, q, j) = l;
        if (h >= 0 && h < *hi_at(k, q, j)) *hi_at(k, q, j) = h;
      }
    k->resumed = true;
    pthread_mutex_unlock(&cache_lock);
  }
  free(low);
  free(high);
  if (ok) return PQ_OK;
  pq_error("--resume %s: malformed checkpoint (learnt: the knights' bounds of %dx%d, see "
           "doc/json.md)",
           path, b->width, b->height);
  return PQ_EINVAL;
}

/* Decides at the top whether every X of w squares has |N[X]| >= t: 1 yes, 0 no (*set is one
   that has less), -1 stopped. */
static int decide_top(knights *k, int w, int t, squares *set) {
  if (w > k->n) return 1;
  bool all = closes(k, 0, 0, w, 0, 0, t);
  if (k->stop != PQ_OK) return -1;
  if (all) {
    if (*lo_at(k, 0, w) < t) *lo_at(k, 0, w) = t;
    return 1;
  }
  *set = k->witness;
  return 0;
}

/* The proof's state: need[q * (n + 1) + j], the bound each lemma must give (0: none asked). */
typedef struct prover {
  const knights *k;
  int *need;
  int fails;     /* the square where a leaf did not close */
  bool counting; /* the tree of a count: a set X of the size that the bound leaves open is a
                    leaf "c" (its black armies counted), not a failure */
  uint64_t nodes;
  pq_status stop;      /* PQ_EINTR or PQ_ELIMIT: a signal or the deadline stopped the proof;
                          PQ_EIO: its text could not be kept */
  const pq_text *text; /* where the trees go */
} prover;

/* Whether a signal or the time limit stops the proof (looked at every 2^20 nodes: a proof can
   take as long as its search, and more memory than the machine has). */
static bool prover_stopped(prover *pr) {
  if (pr->stop != PQ_OK) return true;
  if (++pr->nodes & 0xfffff) return false;
  if (pr->text->failed)
    pr->stop = PQ_EIO;
  else if (pq_interrupted)
    pr->stop = PQ_EINTR;
  else if (pr->k->deadline > 0 && pq_now() > pr->k->deadline)
    pr->stop = PQ_ELIMIT;
  return pr->stop != PQ_OK;
}

/* Writes the tree proving that every X of `left` more squares of S_p from q on has
   |N[X] ∩ S_p| >= goal (counting: every X but those of its leaves "c"), and records the lemmas
   its leaves use: true, or false (*pr->fails the square) when a leaf does not close, which only
   bounds taken from a checkpoint can cause. */
static bool prove_rec(prover *pr, pq_text *out, int p, int q, int left, const squares *C,
                      int goal) {
  const knights *k = pr->k;
  if (prover_stopped(pr)) return false;
  int before, after;
  split_count(k, C, q, &before, &after);
  bool closed = left > k->n - q;
  if (!closed) closed = q == p ? left >= goal : bound(k, q, left, C) >= goal;
  if (closed) {
    /* The table's default, least[q][j] >= j (N[X] holds X), or a lemma. */
    int *need = &pr->need[(size_t)q * (size_t)(k->n + 1) + (size_t)left];
    if (left <= k->n - q && q > p && before + (after > left ? after : left) < goal &&
        goal - before > *need)
      *need = goal - before;
    pq_text_put(out, '.');
    return true;
  }
  if (pr->counting && p == 0 && left == 0) {
    pq_text_put(out, 'c');
    return true;
  }
  if (q >= k->n || left <= 0) {
    PQ_REQUIRE(k->resumed, "knights: a lemma fails at square %d", q);
    pr->fails = q;
    return false;
  }
  pq_text_put(out, 'x');
  squares with_C;
  for (int w = 0; w < k->words; w++)
    with_C.w[w] = C->w[w] | (k->near[q].w[w] & k->suffix[p].w[w]);
  return prove_rec(pr, out, p, q + 1, left - 1, &with_C, goal) &&
         prove_rec(pr, out, p, q + 1, left, C, goal);
}

/* The proof that |N[X]| >= goal for every X of `white` squares (counting: the tree of the count,
   whose leaves "c" are the X with less): the main tree, and the lemmas (written from the largest
   suffix's down, so that each rests only on lemmas listed before it), their trees in one text
   (armies_text.h: a proof may be larger than memory). */
static pq_status prove(const knights *k, int white, int goal, bool counting,
                       pq_armies_decision *out) {
  size_t stride = (size_t)k->n + 1, cells = stride * stride;
  prover pr = {.k = k, .need = pq_calloc(cells, sizeof *pr.need), .counting = counting};
  pq_armies_lemmas *l = pq_calloc(1, sizeof *l);
  pr.text = &l->text;
  uint64_t *start = pq_calloc(cells, sizeof *start), *end = pq_calloc(cells, sizeof *end);
  squares none = {{0}};
  bool ok = prove_rec(&pr, &l->text, 0, 0, white, &none, goal);
  l->tree_end = pq_text_size(&l->text);
  pr.counting = false; /* the lemmas are bounds */
  for (int p = 1; p < k->n && ok; p++)
    for (int j = 0; j <= k->n - p && ok; j++)
      if (pr.need[(size_t)p * stride + (size_t)j]) {
        start[(size_t)p * stride + (size_t)j] = pq_text_size(&l->text);
        ok = prove_rec(&pr, &l->text, p, p, j, &none, pr.need[(size_t)p * stride + (size_t)j]);
        end[(size_t)p * stride + (size_t)j] = pq_text_size(&l->text);
      }
  if (ok && !l->text.failed) {
    l->lemma = pq_malloc(cells * sizeof *l->lemma);
    for (int p = k->n - 1; p >= 1; p--)
      for (int j = 0; j <= k->n - p; j++) {
        size_t at = (size_t)p * stride + (size_t)j;
        if (pr.need[at])
          l->lemma[l->n++] = (pq_armies_lemma){p, j, pr.need[at], start[at], end[at]};
      }
  }
  free(start);
  free(end);
  free(pr.need);
  out->lemmas = l;                   /* freed with out, whatever happens */
  if (l->text.failed) return PQ_EIO; /* its message */
  if (!ok) {
    if (pr.stop) return pr.stop; /* the caller says it stopped */
    pq_error("armies: knights: a bound taken from the checkpoint resumed does not hold (its proof "
             "fails at square %d): not bounds this search learnt",
             pr.fails);
    return PQ_EINVAL;
  }
  out->ncubes = 1;
  out->cubes = pq_calloc(1, sizeof *out->cubes);
  out->trees = pq_calloc(1, sizeof *out->trees);
  out->cubes[0] = pq_strdup("");
  return PQ_OK;
}

pq_status pq_armies_knights_decision(const pq_board *b, int white, int black,
                                     const pq_armies_params *p, pq_armies_decision *out) {
  memset(out, 0, sizeof *out);
  int n = b->squares;
  if (white < 0) white = 0;
  if (black < 0) black = 0;
  int width, height;
  bool by_columns = by_columns_of(b, &width, &height);
  pthread_mutex_lock(&cache_lock);
  knights *k = record_of(PQ_KNIGHT, width, height);
  begin(k, p, "knights %dx%d, %d against %d", b->width, b->height, white, black);
  k->checkpoint = p->checkpoint;
  k->facts = p->facts;
  /* A size after one whose last write failed: the run ends at that write, as the engine's. */
  if (k->checkpoint && pq_engine_save_failed()) k->stop = k->saved = PQ_EIO;
  k->board_width = b->width;
  k->board_height = b->height;
  squares set = {{0}};
  int all = decide_top(k, white, n - black + 1, &set);
  bool equal = white == black;
  /* With grow, equal armies become the largest equal armies (each step a witness, or proven
     not to fit, or stopped: the last witness stands). */
  while (all == 0 && p->grow && equal && white < n) {
    squares larger;
    /* The progress line names the size under way (it shows k->label). */
    snprintf(k->label, sizeof k->label, "knights %dx%d, %d against %d", b->width, b->height,
             white + 1, white + 1);
    if (decide_top(k, white + 1, n - white, &larger) != 0) break;
    black = ++white;
    set = larger;
  }
  k->params = NULL;
  pq_progress_end(&k->progress);
  out->nodes = k->nodes;
  pq_status rc = all < 0 ? k->stop : PQ_OK;
  /* Also when stopped: what was learnt stays. A decision done whose last write fails keeps its
     answer (the command's exit says the write failed: pq_engine_unsaved). */
  if (k->checkpoint && !k->saved) save(k);
  /* Stopped, its work not saved: the checkpoint's fault, not the limit's (exit 2, as the engine).
   */
  if (rc != PQ_OK && k->saved) rc = PQ_EIO;
  k->checkpoint = k->facts = NULL;
  if (rc == PQ_OK && all == 1 && p->proof) {
    rc = prove(k, white, n - black + 1, false, out);
    out->by_columns = by_columns;
  }
  squares near = {{0}};
  for (int s = 0; s < n; s++)
    if (has(&set, s))
      for (int w = 0; w < k->words; w++)
        near.w[w] |= k->near[s].w[w];
  pthread_mutex_unlock(&cache_lock);
  if (all != 0 || rc != PQ_OK) return rc;
  out->found = true;
  int left = p->grow && !equal ? n : black;
  for (int s = 0; s < n; s++) {
    uint8_t v = has(&set, s) ? 1 : !has(&near, s) && left-- > 0 ? 2 : 0;
    out->witness[on_board(b, by_columns, width, s)] = v;
  }
  return PQ_OK;
}

/* ---- counts ---- */

/* A count under way: every X of `white` squares with |N[X]| < t (= squares - black + 1), and for
   each the sets of `black` squares outside N[X]. */
typedef struct counter {
  knights *k;
  const pq_board *b;
  bool by_columns;
  int width, black, t;
  pq_armies_visit visit; /* NULL: counted, not visited */
  void *ctx;
  pq_count count;
  bool overflow, quit; /* past 2^128; the visitor asked to stop */
} counter;

/* C(n, r) (0 when r > n), or false past 2^128. */
static bool binomial(int n, int r, pq_count *out) {
  pq_count c = r <= n;
  for (int i = 0; i < r && c; i++) {
    if (c > ~(pq_count)0 / (pq_count)(n - i)) return false;
    c = c * (pq_count)(n - i) / (pq_count)(i + 1); /* C(n, i) (n - i) is a multiple of i + 1 */
  }
  *out = c;
  return true;
}

/* X = k->chosen[0] is found, N[X] = k->reached[0]: counts (or visits) every black army outside
   N[X], choosing its squares in increasing order among the free ones. */
static void found_white(counter *c) {
  knights *k = c->k;
  int free[PQ_MAX_SQUARES], nfree = 0;
  for (int s = 0; s < k->n; s++)
    if (!has(&k->reached[0], s)) free[nfree++] = s;
  if (!c->visit) {
    pq_count ways;
    c->overflow |= !binomial(nfree, c->black, &ways) || pq_count_add(&c->count, ways);
    return;
  }
  uint8_t cells[PQ_MAX_SQUARES];
  memset(cells, 0, (size_t)k->n);
  for (int s = 0; s < k->n; s++)
    if (has(&k->chosen[0], s)) cells[on_board(c->b, c->by_columns, c->width, s)] = 1;
  int pick[PQ_MAX_SQUARES], depth = 0; /* pick[i]: the index in free of the i-th black square */
  for (pick[0] = 0;;) {
    if (depth == c->black) {
      for (int i = 0; i < c->black; i++)
        cells[on_board(c->b, c->by_columns, c->width, free[pick[i]])] = 2;
      c->overflow |= pq_count_add(&c->count, 1);
      /* A placement visited is a node: the limits and signals are looked at here too (one white
         army may have millions of black ones). */
      k->nodes++;
      c->quit = c->visit(c->ctx, cells, 1) != 0 || stopped(k);
      for (int i = 0; i < c->black; i++)
        cells[on_board(c->b, c->by_columns, c->width, free[pick[i]])] = 0;
      if (c->quit || !depth--) return;
      pick[depth]++;
    } else if (pick[depth] > nfree - (c->black - depth)) {
      if (!depth--) return; /* no more room: back to the square before */
      pick[depth]++;
    } else {
      depth++;
      if (depth < c->black) pick[depth] = pick[depth - 1] + 1;
    }
  }
}

/* Every X ⊆ S_0 of `left` more squares from q on with |N[X]| < c->t (I = k->chosen[0] chosen so
   far, C = k->reached[0] = N[I], `before` and `after` its squares below q and from q on), closed
   by the bounds as closes() closes a node, each found handed to found_white. */
static void count_rec(counter *c, int q, int left, int before, int after) {
  knights *k = c->k;
  k->nodes++;
  if (c->quit || stopped(k) || left > k->n - q) return;
  int need = c->t - before;
  if (after >= need || *lo_at(k, q, left) >= need) return;
  if (!left) {
    found_white(c);
    return;
  }
  if (q > 0 && raise_bound(k, q, left, need)) return;
  uint64_t add[PQ_WORDS];
  int had = has(&k->reached[0], q), in_before = before, in_after = after;
  join(k, 0, q, add, &in_before, &in_after);
  count_rec(c, q + 1, left - 1, in_before, in_after);
  leave(k, 0, q, add);
  count_rec(c, q + 1, left, before + had, after - had);
}

pq_status pq_armies_knights_count(const pq_board *b, pq_piece piece, int white, int black,
                                  const pq_armies_params *p, pq_armies_visit visit, void *ctx,
                                  pq_count *count, uint64_t *nodes, pq_armies_decision *proof) {
  int width, height;
  counter c = {.b = b, .black = black, .t = b->squares - black + 1, .visit = visit, .ctx = ctx};
  c.by_columns = by_columns_of(b, &width, &height);
  c.width = width;
  pthread_mutex_lock(&cache_lock);
  c.k = record_of(piece, width, height);
  PQ_REQUIRE(!c.k->resumed, "a count after bounds taken from a checkpoint");
  begin(c.k, p, "count of %s %dx%d, %d against %d", pq_piece_name(piece, 2), b->width, b->height,
        white, black);
  memset(&c.k->chosen[0], 0, sizeof c.k->chosen[0]);
  memset(&c.k->reached[0], 0, sizeof c.k->reached[0]);
  bool fits = white <= b->squares && black <= b->squares;
  if (fits) count_rec(&c, 0, white, 0, 0);
  c.k->params = NULL;
  pq_progress_end(&c.k->progress);
  *nodes = c.k->nodes;
  pq_status rc = c.k->stop;
  /* The proof: the same search written out, with the bounds it learnt (c.quit: the visitor
     stopped the count, which is then no total to prove). */
  if (rc == PQ_OK && proof && !c.quit && fits) {
    rc = prove(c.k, white, c.t, true, proof);
    proof->by_columns = c.by_columns;
  }
  pthread_mutex_unlock(&cache_lock);
  *count = c.count;
  if (rc == PQ_OK && c.overflow) {
    pq_error("armies: more than 2^128 placements: the count cannot be given");
    rc = PQ_ELIMIT;
  }
  return rc;
}
