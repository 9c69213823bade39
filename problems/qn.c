/* qn.c: two kinds of pieces in a fixed ratio (default equal queens and knights), none attacking
   another: proven maxima, counts and listings up to the board's symmetries. */
#include "qn.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/config.h"
#include "../src/outer.h"
#include "../src/placement.h"
#include "../src/problem.h"
#include "../src/progress.h"
#include "../src/search.h"
#include "../src/svg.h"
#include "../src/sym.h"
#include "qn_ilp.h"
#include "qn_parts.h"

/* The engine works on rows: a set of squares is one 32-bit mask per row (bit c is column c),
   which fits every board (sides up to 32) and gives row counts for free. Every mask comes from
   the calculus' precomputed lone-piece configs; this file computes no attack itself. Kind 0 of
   the calculus is the "outer" kind, placed first; kind 1 the "inner" kind, placed on what the
   outer pieces leave. */
struct pq_qn {
  const pq_board *board;
  int width, height, squares, nsyms;
  pq_piece piece[2]; /* the user's first and second kinds */
  int ratio[2];
  int outer;          /* the user's index (0, 1) of the kind placed first */
  bool outer_per_row; /* at most one outer piece per row (queen, rook) */
  pq_calc *calc;
  uint32_t *outer_block; /* [s * height + r]: where an outer piece on s forbids outer pieces */
  uint32_t *inner_block; /* ... where an outer piece on s forbids inner pieces */
  uint32_t *inner_adj;   /* ... where an inner piece on s forbids inner pieces */
  int *image;            /* [g * squares + s]: the image of s under symmetry g */
  int *least_image;      /* [s]: the least image of s over the group */
};

/* Population counts: the instruction where the target has it, else SWAR, not the libgcc call a
   build without it would make. */
static inline int pop64(uint64_t x) {
#ifdef __POPCNT__
  return __builtin_popcountll(x);
#else
  x -= (x >> 1) & 0x5555555555555555u;
  x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
  return (int)((x * 0x0101010101010101u) >> 56);
#endif
}
static inline int pop32(uint32_t x) {
#ifdef __POPCNT__
  return __builtin_popcount(x);
#else
  x -= (x >> 1) & 0x55555555u;
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  x = (x + (x >> 4)) & 0x0f0f0f0fu;
  return (int)((x * 0x01010101u) >> 24);
#endif
}

/* Most constraining kinds first, as in the generic search: they leave the least room. */
static int strength(pq_piece p) {
  static const int rank[PQ_NPIECES] = {
      [PQ_QUEEN] = 0, [PQ_ROOK] = 1, [PQ_BISHOP] = 2, [PQ_KING] = 3, [PQ_KNIGHT] = 4};
  return rank[p];
}

/* Row masks of a set of squares. */
static void rows_of(const pq_board *b, const pq_bits *set, uint32_t *rows) {
  for (int r = 0; r < b->height; r++) {
    uint32_t m = 0;
    for (int c = 0; c < b->width; c++)
      if (pq_bits_has(set, r * b->width + c)) m |= (uint32_t)1 << c;
    rows[r] = m;
  }
}

pq_qn *pq_qn_new(const pq_board *b, pq_piece first, pq_piece second, int ratio_a, int ratio_b) {
  PQ_REQUIRE(first != second && ratio_a >= 1 && ratio_b >= 1, "bad qn kinds or ratio");
  PQ_REQUIRE(b->width <= 32, "board too wide for row masks");
  pq_qn *q = pq_calloc(1, sizeof *q);
  q->board = b;
  q->width = b->width;
  q->height = b->height;
  q->squares = b->squares;
  q->nsyms = pq_sym_count(b);
  q->piece[0] = first;
  q->piece[1] = second;
  q->ratio[0] = ratio_a;
  q->ratio[1] = ratio_b;
  q->outer = strength(second) < strength(first) ? 1 : 0;
  pq_piece outer = q->piece[q->outer];
  q->outer_per_row = outer == PQ_QUEEN || outer == PQ_ROOK;
  pq_kind kinds[2] = {{outer, 0}, {q->piece[1 - q->outer], 0}};
  q->calc = pq_calc_new(b, 2, kinds, PQ_CONFLICT_ALL);
  size_t n = (size_t)b->squares * (size_t)b->height;
  q->outer_block = pq_malloc(n * sizeof(uint32_t));
  q->inner_block = pq_malloc(n * sizeof(uint32_t));
  q->inner_adj = pq_malloc(n * sizeof(uint32_t));
  for (int s = 0; s < b->squares; s++) {
    const pq_config *o = pq_calc_piece(q->calc, 0, s), *i = pq_calc_piece(q->calc, 1, s);
    rows_of(b, &o->forbidden[0], &q->outer_block[s * b->height]);
    rows_of(b, &o->forbidden[1], &q->inner_block[s * b->height]);
    rows_of(b, &i->forbidden[1], &q->inner_adj[s * b->height]);
  }
  q->image = pq_malloc((size_t)q->nsyms * (size_t)b->squares * sizeof(int));
  q->least_image = pq_malloc((size_t)b->squares * sizeof(int));
  for (int s = 0; s < b->squares; s++) {
    q->least_image[s] = s;
    for (int g = 0; g < q->nsyms; g++) {
      int t = pq_sym_square(b, (pq_sym)g, s);
      q->image[g * b->squares + s] = t;
      if (t < q->least_image[s]) q->least_image[s] = t;
    }
  }
  return q;
}

void pq_qn_free(pq_qn *q) {
  if (!q) return;
  pq_calc_free(q->calc);
  free(q->outer_block);
  free(q->inner_block);
  free(q->inner_adj);
  free(q->image);
  free(q->least_image);
  free(q);
}

int pq_qn_upper(const pq_qn *q) {
  int upper = q->squares / (q->ratio[0] + q->ratio[1]);
  /* Queens and rooks: at most one per row and one per column. */
  int side = q->width < q->height ? q->width : q->height;
  for (int k = 0; k < 2; k++)
    if ((q->piece[k] == PQ_QUEEN || q->piece[k] == PQ_ROOK) && side / q->ratio[k] < upper)
      upper = side / q->ratio[k];
  return upper;
}

void pq_qn_limits_init(pq_qn_limits *l) {
  memset(l, 0, sizeof *l);
  l->symmetry = true;
  l->jobs = 1;
}

/* ---- one search ---- */

typedef enum mode { DECIDE, COUNT } mode;

/* A search splits into parts: the placements of the first `depth` outer pieces, in the order of
   the search. Every thread walks the same tree of parts (it is small: the first two outer pieces)
   and searches the parts it claims from a shared counter, so the threads balance themselves and
   each part is searched exactly as one thread would. */
typedef struct shared {
  const pq_qn_limits *lim;
  int depth;      /* a part: the first `depth` outer squares */
  uint64_t parts; /* the number of parts, counted before the threads start */
  bool buffered;  /* placements to visit are held per part and passed on in part order */
  pq_qn_visit_fn visit;
  void *ctx;
  bool one_per_class;
  pthread_mutex_t lock;
  atomic_uint_fast64_t next_part;  /* the next part to hand out */
  atomic_uint_fast64_t nodes;      /* nodes passed on by the threads (every 1024 ticks) */
  atomic_uint_fast64_t parts_done; /* for progress */
  atomic_uint_fast64_t found_part; /* decide: the least part with a witness, or UINT64_MAX */
  atomic_int halt;                 /* a limit, an interrupt or the visitor: every thread stops */
  /* under lock: */
  pq_status status; /* the first limit or interrupt */
  bool stopped;     /* the visitor asked to stop */
  uint8_t *witness; /* decide: the witness of found_part */
  uint8_t **held;   /* [parts]: placements of finished parts, not yet visited (buffered) */
  size_t *nheld;
  bool *ready;
  uint64_t next_visit; /* the first part not yet visited (buffered) */
  pq_progress progress;
  /* parts searched and their outcomes (pq_qn_limits: todo, outcome, on_part) */
  const bool *todo;
  pq_qn_part *outcome;
} shared;

typedef struct job {
  const pq_qn *q;
  const pq_qn_limits *lim;
  int width, height, squares;
  int a, b; /* outer and inner pieces to place */
  mode mode;
  bool symmetry;
  uint64_t nodes;
  pq_status status;
  bool done;                    /* stop: found (decide) or the visitor asked to */
  int outer_sq[PQ_MAX_SQUARES]; /* the outer pieces placed, in increasing order */
  uint32_t *stack;              /* (a + 1) levels of qfree[height], kfree[height] */
  /* the inner region of the current leaf, compressed: squares region[i], adjacency adj */
  int nregion, nw;
  int region[PQ_MAX_SQUARES];
  uint64_t *adj; /* [i * nw + w] */
  int chosen[PQ_MAX_SQUARES];
  /* the stabiliser of the current outer set, and images of it that differ (a transversal) */
  int stab[PQ_NSYMS], nstab;
  int transversal[PQ_NSYMS], ntrans;
  /* results */
  bool found; /* decide: a witness in this part, in own_witness */
  pq_qn_visit_fn visit;
  void *ctx;
  bool one_per_class;
  pq_count count, unique, plain_fixed; /* plain_fixed: Burnside sum when symmetry is off */
  pq_count leaf_sets, leaf_fixed;      /* sets of the current leaf and their fixed points */
  bool count_only, overflow;
  uint8_t cells[PQ_MAX_SQUARES], image_cells[PQ_MAX_SQUARES];
  /* threads */
  shared *sh;
  bool counting_parts; /* only count the parts (before the threads start) */
  bool counted;        /* inside a part: ticks are nodes (the tree of parts is not counted) */
  bool finished;       /* no part is left for this thread */
  uint64_t parts_seen, claimed, part; /* parts met, the next one this thread takes, the current */
  uint64_t ticks, unflushed, flushed_total; /* nodes not yet passed on; the total seen */
  uint8_t *held;                            /* placements of the current part (buffered) */
  size_t nheld, held_cap;
  uint8_t own_witness[PQ_MAX_SQUARES];
  /* the counts and nodes when the current part began: its outcome is the difference */
  pq_count part_count, part_unique;
  uint64_t part_nodes;
  /* while counting the parts: the split's fingerprint, and each part's first square */
  uint64_t fingerprint;
  int *first;
  size_t nfirst;
} job;

/* Stops every thread for a limit or an interrupt. */
static void halt_all(job *R, pq_status why) {
  shared *sh = R->sh;
  pthread_mutex_lock(&sh->lock);
  if (sh->status == PQ_OK) sh->status = why;
  pthread_mutex_unlock(&sh->lock);
  atomic_store(&sh->halt, 1);
  R->status = why;
}

/* Every 1024 ticks: passes the nodes on, shows progress, and looks for a reason to stop. A
   thread stopped by another one, or searching a part after one that holds a witness, stops with
   a status of its own that the run's result ignores. */
static void poll(job *R) {
  shared *sh = R->sh;
  const pq_qn_limits *lim = R->lim;
  R->flushed_total = atomic_fetch_add(&sh->nodes, R->unflushed) + R->unflushed;
  R->unflushed = 0;
  if (R->status != PQ_OK) return;
  if (lim->progress && !R->counting_parts && (R->ticks & 0xffff) == 0 &&
      !pthread_mutex_trylock(&sh->lock)) {
    pq_progress_update(&sh->progress, atomic_load(&sh->parts_done), R->flushed_total);
    pthread_mutex_unlock(&sh->lock);
  }
  if (pq_interrupted)
    halt_all(R, PQ_EINTR);
  else if (lim->cancel && *lim->cancel)
    halt_all(R, PQ_ELIMIT);
  else if (lim->deadline > 0 && pq_now() > lim->deadline)
    halt_all(R, PQ_ELIMIT);
  else if (atomic_load(&sh->halt))
    R->status = PQ_ELIMIT;
  else if (R->counted && R->mode == DECIDE && atomic_load(&sh->found_part) < R->part)
    R->status = PQ_ELIMIT;
}

/* Counts a node; false when a limit, the cancel flag or a signal says stop. */
static bool tick(job *R) {
  if (R->counted) {
    R->nodes++;
    R->unflushed++;
    if (R->lim->node_limit && R->flushed_total + R->unflushed > R->lim->node_limit)
      halt_all(R, PQ_ELIMIT);
  }
  if ((++R->ticks & 1023) == 0) poll(R);
  return R->status == PQ_OK;
}

static void add(job *R, pq_count *acc, pq_count v) {
  if (pq_count_add(acc, v)) R->overflow = true;
}

/* ---- the inner kind on the region a leaf leaves ---- */

/* Counts the independent sets of `need` squares in P (one word): the lowest square of the set
   first, then the others above it. */
static uint64_t count1(job *R, uint64_t P, int need) {
  if (need == 1) return (uint64_t)pop64(P);
  if (!tick(R)) return 0;
  uint64_t total = 0;
  while (pop64(P) >= need) {
    int v = __builtin_ctzll(P);
    P &= P - 1;
    total += count1(R, P & ~R->adj[v], need - 1);
  }
  return total;
}

/* Finds an independent set of `need` squares in P (one word) into chosen[depth..]. */
static bool find1(job *R, uint64_t P, int need, int depth) {
  if (need == 0) return true;
  if (!tick(R)) return false;
  while (pop64(P) >= need) {
    int v = __builtin_ctzll(P);
    P &= P - 1;
    R->chosen[depth] = v;
    if (find1(R, P & ~R->adj[v], need - 1, depth + 1)) return true;
    if (R->status != PQ_OK) return false;
  }
  return false;
}

static int popcount_words(const uint64_t *P, int nw) {
  int n = 0;
  for (int w = 0; w < nw; w++)
    n += pop64(P[w]);
  return n;
}

static bool inner_set_done(job *R, int size);

/* Visits every independent set of `need` squares in P (nw words), chosen[0..depth-1] already
   chosen; returns false to stop. */
static bool each(job *R, const uint64_t *P, int need, int depth) {
  if (need == 0) return inner_set_done(R, depth);
  int nw = R->nw;
  if (need == 1 && R->count_only) {
    add(R, &R->leaf_sets, (pq_count)popcount_words(P, nw));
    return true;
  }
  if (!tick(R)) return false;
  uint64_t rest[PQ_MAX_SQUARES / 64], next[PQ_MAX_SQUARES / 64];
  memcpy(rest, P, (size_t)nw * sizeof *rest);
  while (popcount_words(rest, nw) >= need) {
    int v = pq_bits_next((const pq_bits *)rest, nw, 0);
    rest[v >> 6] &= ~((uint64_t)1 << (v & 63));
    for (int w = 0; w < nw; w++)
      next[w] = rest[w] & ~R->adj[v * nw + w];
    R->chosen[depth] = v;
    if (!each(R, next, need - 1, depth + 1)) return false;
  }
  return true;
}

/* Compresses the inner region kfree into region[] and builds its adjacency. */
static void build_region(job *R, const uint32_t *kfree) {
  const pq_qn *q = R->q;
  int W = R->width, H = R->height, offset[PQ_MAX_SIDE + 1];
  R->nregion = 0;
  for (int r = 0; r < H; r++) {
    offset[r] = R->nregion;
    for (uint32_t m = kfree[r]; m; m &= m - 1)
      R->region[R->nregion++] = r * W + __builtin_ctz(m);
  }
  offset[H] = R->nregion;
  R->nw = (R->nregion + 63) / 64;
  if (!R->nw) R->nw = 1;
  memset(R->adj, 0, (size_t)R->nregion * (size_t)R->nw * sizeof(uint64_t));
  for (int i = 0; i < R->nregion; i++) {
    const uint32_t *attacked = &q->inner_adj[R->region[i] * H];
    uint64_t *row = &R->adj[i * R->nw];
    for (int r = 0; r < H; r++)
      for (uint32_t m = attacked[r] & kfree[r]; m; m &= m - 1) {
        int c = __builtin_ctz(m);
        int j = offset[r] + pop32(kfree[r] & (((uint32_t)1 << c) - 1));
        row[j >> 6] |= (uint64_t)1 << (j & 63);
      }
  }
}

/* The placement of the current outer set and inner set chosen[0..size-1] into cells. */
static void fill_cells(job *R, int size, uint8_t *cells) {
  memset(cells, 0, (size_t)R->squares);
  uint8_t outer_code = (uint8_t)(R->q->outer + 1), inner_code = (uint8_t)(2 - R->q->outer);
  for (int i = 0; i < R->a; i++)
    cells[R->outer_sq[i]] = outer_code;
  for (int i = 0; i < size; i++)
    cells[R->region[R->chosen[i]]] = inner_code;
}

/* The image of squares sq[0..n-1] under g, sorted (insertion: the sets are small). */
static void sorted_image(const job *R, int g, const int *sq, int n, int *out) {
  const int *img = &R->q->image[g * R->squares];
  for (int i = 0; i < n; i++) {
    int t = img[sq[i]], k = i;
    for (; k > 0 && out[k - 1] > t; k--)
      out[k] = out[k - 1];
    out[k] = t;
  }
}

static int cmp_sets(const int *x, const int *y, int n) {
  for (int i = 0; i < n; i++)
    if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

/* Passes a placement to the visitor, or holds it until the earlier parts are visited. Returns
   nonzero when the visitor asks to stop. */
static int emit(job *R, const uint8_t *cells) {
  if (!R->sh->buffered) return R->visit(R->ctx, cells);
  size_t n = (size_t)R->squares;
  if (R->nheld + n > R->held_cap) {
    R->held_cap = R->held_cap ? 2 * R->held_cap : 64 * n;
    R->held = pq_realloc(R->held, R->held_cap);
  }
  memcpy(R->held + R->nheld, cells, n);
  R->nheld += n;
  return 0;
}

/* An inner set chosen[0..size-1] is complete: record it. Returns false to stop. */
static bool inner_set_done(job *R, int size) {
  if (R->mode == DECIDE) {
    fill_cells(R, size, R->own_witness);
    R->found = R->done = true;
    return false;
  }
  if (!R->symmetry) {
    add(R, &R->count, 1);
    fill_cells(R, size, R->cells);
    uint8_t canon[PQ_MAX_SQUARES];
    int fixed = pq_sym_canonical(R->q->board, R->cells, NULL, canon);
    add(R, &R->plain_fixed, (pq_count)fixed);
    if (R->visit && (!R->one_per_class || !memcmp(canon, R->cells, (size_t)R->squares)) &&
        emit(R, R->cells))
      R->done = true;
    return !R->done;
  }
  add(R, &R->leaf_sets, 1);
  int sq[PQ_MAX_SQUARES], img[PQ_MAX_SQUARES];
  for (int i = 0; i < size; i++)
    sq[i] = R->region[R->chosen[i]];
  /* Burnside over the stabiliser of the outer set: which of its elements fix this set too, and
     whether this set is the least of its orbit (the one listed for its class). */
  bool least = true;
  for (int k = 1; k < R->nstab; k++) {
    sorted_image(R, R->stab[k], sq, size, img);
    int c = cmp_sets(img, sq, size);
    if (c == 0) add(R, &R->leaf_fixed, 1);
    if (c < 0) least = false;
  }
  if (!R->visit) return true;
  fill_cells(R, size, R->cells);
  if (R->one_per_class) {
    if (least) {
      pq_sym_canonical(R->q->board, R->cells, NULL, R->image_cells);
      if (emit(R, R->image_cells)) R->done = true;
    }
  } else {
    for (int t = 0; t < R->ntrans && !R->done; t++) {
      pq_sym_apply(R->q->board, (pq_sym)R->transversal[t], R->cells, R->image_cells);
      if (emit(R, R->image_cells)) R->done = true;
    }
  }
  return !R->done;
}

/* With symmetry on: whether the outer set is the least of its orbit (sets compared as sorted
   square lists), and if so its stabiliser and a transversal of its images. */
static bool canonical_outer(job *R) {
  const pq_qn *q = R->q;
  int a = R->a, s0 = R->outer_sq[0], img[PQ_NSYMS][PQ_MAX_SQUARES];
  R->nstab = 1;
  R->stab[0] = PQ_SYM_IDENTITY;
  R->ntrans = 1;
  R->transversal[0] = PQ_SYM_IDENTITY;
  memcpy(img[0], R->outer_sq, (size_t)a * sizeof(int));
  for (int g = 1; g < q->nsyms; g++) {
    const int *map = &q->image[g * R->squares];
    int least = map[R->outer_sq[0]];
    for (int i = 1; i < a; i++)
      if (map[R->outer_sq[i]] < least) least = map[R->outer_sq[i]];
    /* The search keeps every image of every outer square at or above s0. */
    if (least > s0 && !R->visit) continue;
    sorted_image(R, g, R->outer_sq, a, img[g]);
    int c = cmp_sets(img[g], R->outer_sq, a);
    if (c < 0) return false;
    if (c == 0) R->stab[R->nstab++] = g;
    if (!R->visit) continue;
    bool seen = false;
    for (int t = 0; t < R->ntrans && !seen; t++)
      seen = !cmp_sets(img[g], img[R->transversal[t]], a);
    if (!seen) R->transversal[R->ntrans++] = g;
  }
  return true;
}

/* All outer pieces are placed; kfree is where inner pieces may stand. */
static void leaf(job *R, const uint32_t *kfree) {
  int b = R->b, room_left = 0;
  for (int r = 0; r < R->height; r++)
    room_left += pop32(kfree[r]);
  if (room_left < b) return;
  if (R->symmetry && !canonical_outer(R)) return;
  build_region(R, kfree);
  if (R->mode == DECIDE) {
    if (R->nw == 1) {
      uint64_t all = R->nregion == 64 ? ~(uint64_t)0 : ((uint64_t)1 << R->nregion) - 1;
      if (find1(R, all, b, 0)) inner_set_done(R, b);
    } else {
      uint64_t all[PQ_MAX_SQUARES / 64] = {0};
      for (int i = 0; i < R->nregion; i++)
        all[i >> 6] |= (uint64_t)1 << (i & 63);
      R->count_only = false;
      each(R, all, b, 0);
    }
    return;
  }
  R->leaf_sets = R->leaf_fixed = 0;
  R->count_only = R->symmetry && !R->visit && R->nstab == 1;
  if (R->count_only && R->nw == 1) {
    uint64_t all = R->nregion == 64 ? ~(uint64_t)0 : ((uint64_t)1 << R->nregion) - 1;
    R->leaf_sets = count1(R, all, b);
  } else {
    uint64_t all[PQ_MAX_SQUARES / 64] = {0};
    for (int i = 0; i < R->nregion; i++)
      all[i >> 6] |= (uint64_t)1 << (i & 63);
    each(R, all, b, 0);
  }
  if (!R->symmetry || R->status != PQ_OK) return;
  /* The outer set's orbit holds nsyms / nstab sets, each with leaf_sets inner sets; the
     classes are the orbits of the stabiliser on the inner sets (Burnside). */
  add(R, &R->count, R->leaf_sets * (pq_count)(R->q->nsyms / R->nstab));
  add(R, &R->unique, (R->leaf_sets + R->leaf_fixed) / (pq_count)R->nstab);
}

/* Whether the outer pieces still to place, and the inner pieces, can fit. The next outer piece
   goes after square `last`. Queens and rooks go one per row and column: the remaining f of them
   take f whole rows after last's row, which lose every inner square they hold; and in the end
   only width - a columns hold no outer piece, so no row keeps more inner squares than that. */
static bool room(const job *R, int j, int last, const uint32_t *st) {
  int H = R->height, W = R->width, f = R->a - j;
  const uint32_t *qfree = st, *kfree = st + H;
  int r0 = last < 0 ? 0 : last / W;
  if (R->q->outer_per_row) {
    int cap = W - R->a, per_value[PQ_MAX_SIDE + 1], rows = 0, inner = 0;
    if (cap < 0) return false; /* more of them than columns */
    for (int v = 0; v <= cap; v++)
      per_value[v] = 0;
    uint32_t columns = 0;
    for (int r = 0; r < H; r++) {
      int n = pop32(kfree[r]);
      if (n > cap) n = cap;
      inner += n;
      if (r >= r0 && qfree[r]) {
        per_value[n]++;
        rows++;
        columns |= qfree[r];
      }
    }
    if (rows < f || pop32(columns) < f) return false;
    for (int v = 0, left = f; left; v++) {
      int take = per_value[v] < left ? per_value[v] : left;
      inner -= take * v;
      left -= take;
    }
    return inner >= R->b;
  }
  int inner = 0;
  for (int r = 0; r < H; r++)
    inner += pop32(kfree[r]);
  if (inner < R->b) return false;
  int open = 0;
  for (int r = r0; r < H && open < f; r++) {
    uint32_t m = qfree[r];
    if (r == r0 && last >= 0) m &= (uint32_t)(~(uint64_t)0 << (last % W + 1));
    open += pop32(m);
  }
  return open >= f;
}

static void end_part(job *R);

/* FNV-1a, 64 bits, over the bytes of v: the split's fingerprint. */
static uint64_t hash_in(uint64_t h, uint64_t v) {
  unsigned char bytes[8]; /* little-endian, whatever the machine's order */
  for (int i = 0; i < 8; i++, v >>= 8)
    bytes[i] = (unsigned char)v;
  return pq_fnv_bytes(h, bytes, sizeof bytes);
}

/* Whether the node just met at the parts' depth (its squares in outer_sq) is a part this thread
   searches now. While the parts are counted, it goes into the fingerprint. */
static bool take_part(job *R) {
  uint64_t i = R->parts_seen++;
  if (R->counting_parts) {
    for (int j = 0; j < R->sh->depth; j++)
      R->fingerprint = hash_in(R->fingerprint, (uint64_t)R->outer_sq[j]);
    if (R->first) R->first[R->nfirst++] = R->outer_sq[0];
    return false;
  }
  if (i != R->claimed) return false;
  R->part = i;
  R->counted = true;
  R->part_count = R->count;
  R->part_unique = R->unique;
  R->part_nodes = R->nodes;
  return true;
}

/* Places outer piece j (and the ones after it) after square last; st is this level's state,
   which has room for them (room()). */
static void outer_place(job *R, int j, int last, const uint32_t *st) {
  int H = R->height, W = R->width;
  const uint32_t *qfree = st, *kfree = st + H;
  if (j == R->a) {
    leaf(R, kfree);
    return;
  }
  uint32_t *child = (uint32_t *)st + 2 * H;
  const pq_qn *q = R->q;
  int r0 = last < 0 ? 0 : last / W, f = R->a - j;
  bool parts_here = j + 1 == R->sh->depth;
  for (int r = r0; r < H; r++) {
    if (q->outer_per_row && H - r < f) break;
    uint32_t cand = qfree[r];
    if (r == r0 && last >= 0) cand &= (uint32_t)(~(uint64_t)0 << (last % W + 1));
    for (; cand; cand &= cand - 1) {
      int s = r * W + __builtin_ctz(cand);
      if (j == 0 && R->symmetry && q->least_image[s] != s) continue;
      R->outer_sq[j] = s;
      if (parts_here && !take_part(R)) continue;
      if (!tick(R)) return;
      const uint32_t *ob = &q->outer_block[s * H], *ib = &q->inner_block[s * H];
      if (f == 1) {
        /* The last outer piece: only the inner region matters. */
        for (int i = 0; i < H; i++)
          child[H + i] = kfree[i] & ~ib[i];
        leaf(R, child + H);
      } else {
        /* Later outer pieces go after s: their rows before r never matter again. */
        for (int i = r; i < H; i++)
          child[i] = qfree[i] & ~ob[i];
        for (int i = 0; i < H; i++)
          child[H + i] = kfree[i] & ~ib[i];
        if (j == 0 && R->symmetry) {
          /* The set is to be the least of its orbit: no image of a later outer square may come
             before s, the least square. */
          for (int i = r; i < H; i++) {
            uint32_t m = 0;
            for (int c = 0; c < W; c++)
              if (q->least_image[i * W + c] >= s) m |= (uint32_t)1 << c;
            child[i] &= m;
          }
        }
        if (room(R, j + 1, s, child)) outer_place(R, j + 1, s, child);
      }
      if (parts_here) end_part(R);
      if (R->status != PQ_OK || R->done || R->finished) return;
    }
  }
}

/* Visits the placements held for finished parts, in part order, as far as every earlier part is
   finished. Call it under sh->lock. */
static void visit_ready(shared *sh, int squares) {
  while (sh->next_visit < sh->parts && sh->ready[sh->next_visit]) {
    uint64_t p = sh->next_visit++;
    for (size_t i = 0; i < sh->nheld[p] && !sh->stopped; i += (size_t)squares)
      if (sh->visit(sh->ctx, sh->held[p] + i)) {
        sh->stopped = true;
        atomic_store(&sh->halt, 1);
      }
    free(sh->held[p]);
    sh->held[p] = NULL;
  }
}

/* The next part to search, from the shared counter: the parts not to do are passed over. */
static uint64_t claim(shared *sh) {
  uint64_t p = atomic_fetch_add(&sh->next_part, 1);
  while (sh->todo && p < sh->parts && !sh->todo[p])
    p = atomic_fetch_add(&sh->next_part, 1);
  return p;
}

/* The current part is finished (or stopped): hands its results on and claims the next part. */
static void end_part(job *R) {
  shared *sh = R->sh;
  R->counted = false;
  if (R->status == PQ_OK && sh->outcome && !R->overflow) {
    pthread_mutex_lock(&sh->lock);
    pq_qn_part *o = &sh->outcome[R->part];
    o->done = true;
    o->found = R->mode == DECIDE && R->found;
    o->count = R->count - R->part_count;
    o->unique = R->unique - R->part_unique;
    o->nodes = R->nodes - R->part_nodes;
    if (R->lim->on_part) R->lim->on_part(R->lim->on_part_ctx, R->part);
    pthread_mutex_unlock(&sh->lock);
  }
  if (R->status == PQ_OK) {
    if (R->mode == DECIDE && R->found) {
      pthread_mutex_lock(&sh->lock);
      if (R->part < atomic_load(&sh->found_part)) {
        memcpy(sh->witness, R->own_witness, (size_t)R->squares);
        atomic_store(&sh->found_part, R->part);
      }
      pthread_mutex_unlock(&sh->lock);
    } else if (R->mode == COUNT && R->done) {
      pthread_mutex_lock(&sh->lock);
      sh->stopped = true;
      pthread_mutex_unlock(&sh->lock);
    } else if (sh->buffered) {
      pthread_mutex_lock(&sh->lock);
      sh->held[R->part] = R->held;
      sh->nheld[R->part] = R->nheld;
      sh->ready[R->part] = true;
      R->held = NULL;
      R->nheld = R->held_cap = 0;
      visit_ready(sh, R->squares);
      pthread_mutex_unlock(&sh->lock);
    }
    atomic_fetch_add(&sh->parts_done, 1);
  }
  R->claimed = claim(sh);
  if (R->claimed >= sh->parts || atomic_load(&sh->halt) ||
      (R->mode == DECIDE && R->claimed > atomic_load(&sh->found_part)))
    R->finished = true;
}

static void job_init(job *R, const pq_qn *q, int m, const pq_qn_limits *l, mode md, shared *sh) {
  memset(R, 0, sizeof *R);
  R->q = q;
  R->lim = l;
  R->sh = sh;
  R->width = q->width;
  R->height = q->height;
  R->squares = q->squares;
  R->a = q->ratio[q->outer] * m;
  R->b = q->ratio[1 - q->outer] * m;
  R->mode = md;
  R->symmetry = l->symmetry;
  R->status = PQ_OK;
  R->visit = sh->visit;
  R->ctx = sh->ctx;
  R->one_per_class = sh->one_per_class;
  R->stack = pq_calloc((size_t)(R->a + 1) * 2 * (size_t)q->height, sizeof(uint32_t));
  R->adj = pq_malloc((size_t)q->squares * (PQ_MAX_SQUARES / 64) * sizeof(uint64_t));
  rows_of(q->board, &q->board->all, R->stack);
  rows_of(q->board, &q->board->all, R->stack + q->height);
}

static void job_free(job *R) {
  free(R->stack);
  free(R->adj);
  free(R->held);
}

/* One thread: searches the parts it claims. */
static void *worker(void *arg) {
  job *R = arg;
  shared *sh = R->sh;
  R->claimed = claim(sh);
  if (R->claimed < sh->parts) outer_place(R, 0, -1, R->stack);
  atomic_fetch_add(&sh->nodes, R->unflushed);
  R->unflushed = 0;
  return NULL;
}

/* Counts the parts of R's search (sh->parts, sh->depth) and their fingerprint (R->fingerprint),
   with R->first (if not NULL) receiving their first squares. */
static void count_parts(job *R, shared *sh) {
  const pq_qn *q = R->q;
  sh->parts = 0;
  sh->depth = R->a < 2 ? R->a : 2;
  R->ticks = 0; /* fewer ticks than squares here: no poll, so no signal, cuts the count short */
  R->fingerprint = PQ_FNV_BASIS;
  uint64_t head[] = {(uint64_t)q->width,    (uint64_t)q->height,   (uint64_t)q->piece[0],
                     (uint64_t)q->piece[1], (uint64_t)q->ratio[0], (uint64_t)q->ratio[1],
                     (uint64_t)R->a,        (uint64_t)R->b,        (uint64_t)sh->depth};
  for (size_t i = 0; i < sizeof head / sizeof *head; i++)
    R->fingerprint = hash_in(R->fingerprint, head[i]);
  if (R->a + R->b <= R->squares && room(R, 0, -1, R->stack)) {
    R->counting_parts = true;
    outer_place(R, 0, -1, R->stack);
    sh->parts = R->parts_seen;
    R->counting_parts = false;
    R->parts_seen = 0;
  }
  R->fingerprint = hash_in(R->fingerprint, sh->parts);
}

static void shared_init(shared *sh) {
  pthread_mutex_init(&sh->lock, NULL);
  atomic_init(&sh->next_part, 0);
  atomic_init(&sh->nodes, 0);
  atomic_init(&sh->parts_done, 0);
  atomic_init(&sh->found_part, UINT64_MAX);
  atomic_init(&sh->halt, 0);
  sh->status = PQ_OK;
}

uint64_t pq_qn_parts(const pq_qn *q, int m, uint64_t *fingerprint, int **first) {
  PQ_REQUIRE(m >= 1, "the parts of size %d", m);
  pq_qn_limits l;
  pq_qn_limits_init(&l);
  shared sh = {.lim = &l};
  shared_init(&sh);
  job R;
  job_init(&R, q, m, &l, COUNT, &sh);
  if (first) {
    /* At most one part per pair of squares: the first pass counts, the second records. */
    count_parts(&R, &sh);
    R.first = pq_malloc(((size_t)sh.parts + 1) * sizeof *R.first);
  }
  count_parts(&R, &sh);
  *fingerprint = R.fingerprint;
  if (first) *first = R.first;
  job_free(&R);
  pthread_mutex_destroy(&sh.lock);
  return sh.parts;
}

/* Runs the search of size m (>= 1) on up to l->jobs threads. Returns the number of jobs used,
   their results in (*jobs)[0..n-1] (caller frees with free_jobs); the run's status, found part
   and witness are in sh, which the caller initialised (lim, visit, ctx, witness). */
static int run_search(const pq_qn *q, int m, mode md, shared *sh, job **jobs) {
  const pq_qn_limits *l = sh->lim;
  shared_init(sh);
  sh->todo = l->todo;
  sh->outcome = l->outcome;
  PQ_REQUIRE(!(l->todo || l->outcome) || (l->symmetry && !sh->visit),
             "parts are searched with symmetry and without a visitor");
  int wanted = l->jobs > 1 ? l->jobs : 1, n = 1;
  job *R = pq_malloc((size_t)wanted * sizeof *R);
  job_init(&R[0], q, m, l, md, sh);
  count_parts(&R[0], sh);
  uint64_t searched = sh->parts;
  if (sh->todo) {
    searched = 0;
    for (uint64_t p = 0; p < sh->parts; p++)
      searched += sh->todo[p];
  }
  if (searched > 0 && sh->status == PQ_OK) {
    n = (uint64_t)wanted < searched ? wanted : (int)searched;
    sh->buffered = sh->visit && n > 1;
    if (sh->buffered) {
      sh->held = pq_calloc(sh->parts, sizeof *sh->held);
      sh->nheld = pq_calloc(sh->parts, sizeof *sh->nheld);
      sh->ready = pq_calloc(sh->parts, sizeof *sh->ready);
    }
    if (l->progress) pq_progress_start(&sh->progress, l->progress, searched);
    for (int i = 1; i < n; i++)
      job_init(&R[i], q, m, l, md, sh);
    pthread_t *thread = pq_malloc((size_t)n * sizeof *thread);
    for (int i = 1; i < n; i++)
      PQ_REQUIRE(pthread_create(&thread[i], NULL, worker, &R[i]) == 0, "thread creation failed");
    worker(&R[0]);
    for (int i = 1; i < n; i++)
      pthread_join(thread[i], NULL);
    free(thread);
    if (l->progress) pq_progress_end(&sh->progress);
    if (sh->buffered) {
      for (uint64_t p = 0; p < sh->parts; p++)
        free(sh->held[p]);
      free(sh->held);
      free(sh->nheld);
      free(sh->ready);
    }
  }
  pthread_mutex_destroy(&sh->lock);
  *jobs = R;
  return n;
}

static void free_jobs(job *R, int n) {
  for (int i = 0; i < n; i++)
    job_free(&R[i]);
  free(R);
}

pq_status pq_qn_decide(const pq_qn *q, int m, const pq_qn_limits *l, bool *found, uint8_t *witness,
                       uint64_t *nodes) {
  *found = false;
  if (nodes) *nodes = 0;
  if (m <= 0) {
    memset(witness, 0, (size_t)q->squares);
    *found = true;
    return PQ_OK;
  }
  shared sh = {.lim = l, .witness = witness};
  job *R;
  int n = run_search(q, m, DECIDE, &sh, &R);
  uint64_t total = 0;
  for (int i = 0; i < n; i++)
    total += R[i].nodes;
  free_jobs(R, n);
  *found = sh.status == PQ_OK && atomic_load(&sh.found_part) != UINT64_MAX;
  if (nodes) *nodes = total;
  return sh.status;
}

pq_status pq_qn_count(const pq_qn *q, int m, const pq_qn_limits *l, pq_qn_visit_fn visit,
                      bool one_per_class, void *ctx, pq_qn_count_result *out) {
  memset(out, 0, sizeof *out);
  if (m <= 0) {
    /* One placement, the empty board, fixed by every symmetry. */
    uint8_t empty[PQ_MAX_SQUARES] = {0};
    out->count = out->unique = 1;
    if (visit && visit(ctx, empty)) out->stopped = true;
    return PQ_OK;
  }
  shared sh = {.lim = l, .visit = visit, .ctx = ctx, .one_per_class = one_per_class};
  job *R;
  int n = run_search(q, m, COUNT, &sh, &R);
  pq_count plain_fixed = 0;
  for (int i = 0; i < n; i++) {
    bool overflow = R[i].overflow;
    overflow |= pq_count_add(&out->count, R[i].count) != 0;
    overflow |= pq_count_add(&out->unique, R[i].unique) != 0;
    overflow |= pq_count_add(&plain_fixed, R[i].plain_fixed) != 0;
    out->overflow |= overflow;
    out->nodes += R[i].nodes;
  }
  if (!l->symmetry) out->unique = plain_fixed / (pq_count)q->nsyms;
  out->stopped = sh.stopped;
  free_jobs(R, n);
  return sh.status;
}

pq_piece pq_qn_split_piece(const pq_qn *q) { return q->piece[q->outer]; }

int pq_qn_heuristic(const pq_qn *q, const pq_qn_limits *l, uint8_t *witness, uint64_t *nodes) {
  enum { BUDGET = 20000 }; /* nodes per size: a quick try, not a proof */
  pq_qn_limits quick = *l;
  quick.jobs = 1; /* the budget is counted in one order: the same witness every time */
  uint8_t *w = pq_malloc((size_t)q->squares);
  int best = 0, upper = pq_qn_upper(q);
  uint64_t used = 0;
  memset(witness, 0, (size_t)q->squares);
  for (int m = 1; m <= upper; m++) {
    quick.node_limit = BUDGET;
    if (l->node_limit) {
      if (used >= l->node_limit) break;
      if (l->node_limit - used < BUDGET) quick.node_limit = l->node_limit - used;
    }
    bool found = false;
    uint64_t n = 0;
    pq_status rc = pq_qn_decide(q, m, &quick, &found, w, &n);
    used += n;
    if (rc != PQ_OK || !found) break;
    best = m;
    memcpy(witness, w, (size_t)q->squares);
  }
  free(w);
  if (nodes) *nodes = used;
  return best;
}

/* ---- the command line ---- */

static const char *const piece_names[PQ_NPIECES][2] = {{"king", "kings"},
                                                       {"queen", "queens"},
                                                       {"rook", "rooks"},
                                                       {"bishop", "bishops"},
                                                       {"knight", "knights"}};

/* The options every mode shares. */
typedef struct setup {
  pq_piece first, second;
  int ratio_a, ratio_b;
  char letters[3]; /* letters[code - 1] */
  pq_method method;
  bool json;
  uint64_t node_limit; /* for the whole command; 0: none */
  double deadline;     /* pq_now() at which to stop; 0: none */
  uint64_t nodes;      /* search nodes of the whole command so far */
  long list_limit;     /* --limit; 0: none */
  char label[64];      /* what is running, for progress */
  int jobs;            /* threads for counts and listings */
  int search_jobs;     /* threads for a decision by search (one less in a race: GLPK has one) */
  const char *cert;    /* --cert FILE, or NULL */
  const char *svg;     /* --svg FILE, or NULL */
  const char *checkpoint, *resume; /* --checkpoint, --resume FILE, or NULL */
} setup;

/* The outer loop's view of one board. */
typedef struct board_ctx {
  setup *st;
  const pq_board *board;
  pq_qn *q;
  pq_qn_run *run; /* with --checkpoint or --resume: searches by parts, saved; else NULL */
  uint8_t *kept;  /* with --count --cert: every placement counted, squares bytes each */
  size_t nkept, room;
} board_ctx;

/* Limits for the next call, from the command's budget; false when it is spent. */
static bool limits_for(const setup *st, const volatile int *cancel, pq_qn_limits *l) {
  pq_qn_limits_init(l);
  l->jobs = st->search_jobs;
  l->cancel = cancel;
  l->progress = st->label;
  l->deadline = st->deadline;
  if (st->node_limit) {
    if (st->nodes >= st->node_limit) return false;
    l->node_limit = st->node_limit - st->nodes;
  }
  return true;
}

static pq_status decide_search(void *arg, int k, const volatile int *cancel, bool *found,
                               uint8_t *witness) {
  board_ctx *c = arg;
  pq_qn_limits l;
  snprintf(c->st->label, sizeof c->st->label, "qn %dx%d: deciding size %d", c->board->width,
           c->board->height, k);
  if (!limits_for(c->st, cancel, &l)) return PQ_ELIMIT;
  uint64_t nodes = 0;
  pq_status rc = c->run ? pq_qn_run_decide(c->run, k, &l, found, witness, &nodes)
                        : pq_qn_decide(c->q, k, &l, found, witness, &nodes);
  c->st->nodes += nodes;
  return rc;
}

/* The integer program stops at the deadline itself (GLPK's time limit) or when cancel is raised. */
static pq_status decide_ilp(void *arg, int k, const volatile int *cancel, bool *found,
                            uint8_t *witness) {
  board_ctx *c = arg;
  const setup *st = c->st;
  double left = 0;
  if (st->deadline > 0) {
    left = st->deadline - pq_now();
    if (left <= 0) return PQ_ELIMIT;
  }
  return pq_qn_ilp_decide(c->board, st->first, st->second, st->ratio_a, st->ratio_b, k, left,
                          cancel, found, witness);
}

static int heuristic(void *arg, uint8_t *witness) {
  board_ctx *c = arg;
  pq_qn_limits l;
  int best = 0, squares = c->board->squares;
  memset(witness, 0, (size_t)squares);
  if (limits_for(c->st, NULL, &l)) {
    uint64_t nodes = 0;
    best = pq_qn_heuristic(c->q, &l, witness, &nodes);
    c->st->nodes += nodes;
  }
  /* A run with checkpoints starts from the best of this and the resumed witness, and saves it. */
  if (c->run && c->run->best > best) {
    best = c->run->best;
    memcpy(witness, c->run->best_witness, (size_t)squares);
  } else if (c->run && best > c->run->best) {
    c->run->best = best;
    memcpy(c->run->best_witness, witness, (size_t)squares);
  }
  return best;
}

/* The loop took a witness of size k, found by either method: checkpoints carry it from now on. */
static void found(void *arg, int k, const uint8_t *witness) {
  board_ctx *c = arg;
  if (!c->run || k <= c->run->best) return;
  c->run->best = k;
  memcpy(c->run->best_witness, witness, (size_t)c->board->squares);
}

static pq_maximize maximize_of(board_ctx *c) {
  return (pq_maximize){.ctx = c,
                       .board = c->board,
                       .upper = pq_qn_upper(c->q),
                       .heuristic = heuristic,
                       .decide_search = decide_search,
                       .decide_ilp = decide_ilp,
                       .found = found};
}

/* Checked pair by pair with plain geometry, independently of the engine. */
bool pq_qn_placement_ok(const pq_board *b, pq_piece first, pq_piece second, int ratio_a,
                        int ratio_b, const uint8_t *cells, int size) {
  int count[3] = {0};
  pq_piece piece[3] = {PQ_KING, first, second};
  for (int s = 0; s < b->squares; s++) {
    if (cells[s] > 2) return false;
    count[cells[s]]++;
    for (int t = 0; t < b->squares && cells[s]; t++)
      if (t != s && cells[t] && pq_attacks_plain(b, piece[cells[s]], s, t)) return false;
  }
  return count[1] == ratio_a * size && count[2] == ratio_b * size;
}

static bool placement_ok(const setup *st, const pq_board *b, const uint8_t *cells, int size) {
  return pq_qn_placement_ok(b, st->first, st->second, st->ratio_a, st->ratio_b, cells, size);
}

void pq_qn_describe(pq_piece first, pq_piece second, int ratio_a, int ratio_b, int k, char *buf,
                    size_t len) {
  int a = ratio_a * k, b = ratio_b * k;
  snprintf(buf, len, "%d %s and %d %s", a, piece_names[first][a != 1], b,
           piece_names[second][b != 1]);
}

static void describe(const setup *st, int k, char *buf, size_t len) {
  pq_qn_describe(st->first, st->second, st->ratio_a, st->ratio_b, k, buf, len);
}

/* Decides exactly size k with the chosen method. pq_outer_run does it when told that k - 1 is
   reached and that nothing above k fits: it then decides k alone, racing when asked. */
typedef struct exact_ctx {
  board_ctx *c;
  int k;
} exact_ctx;

static int exact_start(void *arg, uint8_t *witness) {
  exact_ctx *e = arg;
  memset(witness, 0, (size_t)e->c->board->squares);
  return e->k - 1;
}
static pq_status exact_search(void *arg, int k, const volatile int *cancel, bool *found,
                              uint8_t *witness) {
  return decide_search(((exact_ctx *)arg)->c, k, cancel, found, witness);
}
static pq_status exact_ilp(void *arg, int k, const volatile int *cancel, bool *found,
                           uint8_t *witness) {
  return decide_ilp(((exact_ctx *)arg)->c, k, cancel, found, witness);
}

static pq_status decide_exact(board_ctx *c, int k, bool *found, uint8_t *witness, pq_method *by) {
  if (k == 0) {
    memset(witness, 0, (size_t)c->board->squares);
    *found = true;
    *by = PQ_METHOD_SEARCH;
    return PQ_OK;
  }
  exact_ctx e = {c, k};
  pq_maximize m = {.ctx = &e,
                   .board = c->board,
                   .upper = k,
                   .heuristic = exact_start,
                   .decide_search = exact_search,
                   .decide_ilp = exact_ilp};
  pq_outer_result res;
  pq_status rc = pq_outer_run(&m, c->st->method, &res);
  if (rc != PQ_OK) return rc;
  *found = res.best == k;
  *by = res.proved_by;
  memcpy(witness, res.witness, (size_t)c->board->squares);
  return PQ_OK;
}

/* Listing: prints placements as they come, up to --limit. */
typedef struct lister {
  const setup *st;
  const pq_board *board;
  char *text;
  long printed;
} lister;

static int list_one(void *arg, const uint8_t *cells) {
  lister *l = arg;
  pq_placement_text(l->board, cells, l->st->letters, l->text);
  if (l->st->json)
    printf("{\"placement\":\"%s\"}\n", l->text);
  else
    puts(l->text);
  l->printed++;
  return l->st->list_limit && l->printed >= l->st->list_limit;
}

/* Keeps every placement counted, for a count certificate. */
static int keep_one(void *arg, const uint8_t *cells) {
  board_ctx *c = arg;
  size_t n = (size_t)c->board->squares;
  if (c->nkept == c->room) c->kept = pq_realloc(c->kept, (c->room = 2 * c->room + 64) * n);
  memcpy(c->kept + c->nkept++ * n, cells, n);
  return 0;
}

static pq_status count_at(board_ctx *c, int k, bool list, bool unique, pq_qn_count_result *out) {
  snprintf(c->st->label, sizeof c->st->label, "qn %dx%d: %s size %d", c->board->width,
           c->board->height, list ? "listing" : "counting", k);
  pq_qn_limits l;
  if (!limits_for(c->st, NULL, &l)) return PQ_ELIMIT;
  l.jobs = c->st->jobs;
  lister li = {.st = c->st,
               .board = c->board,
               .text = pq_malloc((size_t)c->board->squares + (size_t)c->board->height + 1)};
  pq_status rc = c->run && !list ? pq_qn_run_count(c->run, k, &l, out)
                 : c->st->cert && !list
                     ? pq_qn_count(c->q, k, &l, keep_one, false, c, out)
                     : pq_qn_count(c->q, k, &l, list ? list_one : NULL, unique, &li, out);
  c->st->nodes += out->nodes;
  free(li.text);
  if (out->overflow && (rc == PQ_OK || rc == PQ_ELIMIT || rc == PQ_EINTR)) {
    /* Also when stopped: the counts so far already pass 2^128 - 1. solve prints no other. */
    pq_error("qn: more than 2^128 placements: the count cannot be given");
    if (rc == PQ_OK) rc = PQ_ELIMIT;
  }
  return rc;
}

/* Writes --cert: a maximum (witness of size and the proof that infeasible = size + 1 does not
   fit), a size that fits (witness, infeasible 0) or one that does not (no witness). */
static pq_status write_cert(const setup *st, const pq_qn *q, const pq_board *b, int size,
                            const uint8_t *witness, int infeasible) {
  pq_qn_cert cert = {.board = b,
                     .first = st->first,
                     .second = st->second,
                     .split = pq_qn_split_piece(q),
                     .ratio_a = st->ratio_a,
                     .ratio_b = st->ratio_b,
                     .size = size,
                     .witness = witness,
                     .infeasible = infeasible};
  return pq_qn_cert_write(st->cert, &cert);
}

static const char *stop_reason(pq_status rc) {
  return rc == PQ_EINTR ? "interrupted" : "a limit stopped the run";
}

/* One board: the maximum (size < 0) or size `size`; then counts or a listing when asked. */
static pq_status solve(setup *st, int width, int height, int size, bool count, bool list,
                       bool unique) {
  pq_board *b = pq_board_new(width, height);
  board_ctx c = {
      .st = st, .board = b, .q = pq_qn_new(b, st->first, st->second, st->ratio_a, st->ratio_b)};
  /* Zeroed: a size resumed as proven impossible has no witness, yet its text is made. */
  uint8_t *witness = pq_calloc((size_t)b->squares, 1);
  char *text = pq_malloc((size_t)b->squares + (size_t)b->height + 1), what[96], bigger[96];
  bool found = true, proven = true;
  pq_method by = PQ_METHOD_SEARCH;
  int k = size;
  pq_qn_instance in = {.board = b,
                       .q = c.q,
                       .first = st->first,
                       .second = st->second,
                       .ratio_a = st->ratio_a,
                       .ratio_b = st->ratio_b};
  pq_qn_run run = {.in = &in,
                   .size = size,
                   .counting = count,
                   .checkpoint = st->checkpoint,
                   .resume = st->resume};
  pq_status rc = PQ_OK;
  if (st->checkpoint || st->resume) {
    c.run = &run;
    rc = pq_qn_run_start(&run);
    /* A new run writes its checkpoint at once: a limit may stop it before any decision saves
       one, and the message then says the checkpoint holds what was done. */
    if (rc == PQ_OK && !st->resume) rc = pq_qn_run_save(&run);
    if (rc != PQ_OK) goto done;
  }
  if (size < 0 && c.run && run.infeasible >= 0 && run.best == run.infeasible - 1) {
    /* The resumed checkpoint holds the maximum, proven. */
    k = run.best;
    by = run.proved_by;
    memcpy(witness, run.best_witness, (size_t)b->squares);
  } else if (size < 0) {
    pq_maximize m = maximize_of(&c);
    pq_outer_result res;
    rc = pq_outer_run(&m, st->method, &res);
    k = res.best;
    by = res.proved_by;
    proven = rc == PQ_OK;
    memcpy(witness, res.witness, (size_t)b->squares);
    if (rc != PQ_OK && rc != PQ_ELIMIT && rc != PQ_EINTR) goto done;
    if (c.run && k > run.best) {
      run.best = k;
      memcpy(run.best_witness, witness, (size_t)b->squares);
    }
    if (c.run && proven) {
      run.infeasible = k + 1;
      run.proved_by = by;
      /* A count saves its own checkpoints; a stopped run keeps the last decision's. */
      if (!count && !list) rc = pq_qn_run_save(&run);
      if (rc != PQ_OK) goto done;
    }
  } else {
    if (c.run && run.best == size) {
      memcpy(witness, run.best_witness, (size_t)b->squares);
    } else if (c.run && run.infeasible == size) {
      found = false;
      by = run.proved_by;
    } else {
      rc = decide_exact(&c, size, &found, witness, &by);
    }
    if (rc != PQ_OK) {
      pq_error("qn: %s before size %d was decided%s", stop_reason(rc), size,
               st->checkpoint ? " (finished parts are in the checkpoint)" : "");
      goto done;
    }
    if (c.run && found && run.best < size) {
      run.best = size;
      memcpy(run.best_witness, witness, (size_t)b->squares);
    } else if (c.run && !found) {
      run.infeasible = size;
      run.proved_by = by;
    }
    if (c.run && !(found && count)) rc = pq_qn_run_save(&run);
    if (rc != PQ_OK) goto done;
  }
  if (found) PQ_REQUIRE(placement_ok(st, b, witness, k), "qn: the witness of size %d is wrong", k);
  pq_placement_text(b, witness, st->letters, text);
  describe(st, k, what, sizeof what);
  describe(st, k + 1, bigger, sizeof bigger);
  if (!proven) {
    /* Only what was found, never a maximum or a count. */
    if (list) {
      /* Nothing listed: the size to list at is not known. */
    } else if (st->json) {
      printf("{\"problem\":\"qn\",\"board\":\"%dx%d\",\"kinds\":\"%s\",\"ratio\":\"%d:%d\","
             "\"size\":%d,\"optimal\":false,\"witness\":\"%s\"}\n",
             width, height, st->letters, st->ratio_a, st->ratio_b, k, text);
    } else {
      printf("qn on %dx%d: %s or more, not proven\n", width, height, what);
      pq_placement_draw(stdout, b, witness, st->letters);
      printf("%s\n", text);
    }
    pq_error("qn: %s before the proof: size %d found, maximum not proven%s", stop_reason(rc), k,
             st->checkpoint ? " (finished parts are in the checkpoint)" : "");
    goto done;
  }
  if (st->cert && !(count && found)) {
    rc = write_cert(st, c.q, b, k, found ? witness : NULL, size < 0 ? k + 1 : found ? 0 : size);
    if (rc != PQ_OK) goto done;
  }
  if (st->svg && found) {
    /* The witness as a picture: both kinds drawn white, as there are no colours. */
    pq_svg_code codes[2] = {{st->letters[0], 0}, {st->letters[1], 0}};
    pq_svg_picture pic;
    pq_svg_picture_init(&pic);
    pic.board = b;
    pic.count = 1;
    pic.cells = witness;
    pic.ncodes = 2;
    pic.codes = codes;
    rc = pq_svg_save(st->svg, &pic);
    if (rc != PQ_OK) goto done;
  }
  pq_qn_count_result counted = {0};
  if (found && (count || list)) {
    rc = count_at(&c, k, list, unique, &counted);
    if (rc != PQ_OK) {
      char so_far[48];
      /* A count past 2^128 has had its one message from count_at. */
      if (!counted.overflow && counted.count)
        pq_error("qn: %s while %s: %s placement%s so far, no total", stop_reason(rc),
                 list ? "listing" : "counting", pq_count_str(counted.count, so_far),
                 counted.count == 1 ? "" : "s");
      else if (!counted.overflow)
        pq_error("qn: %s while %s: no total", stop_reason(rc), list ? "listing" : "counting");
      if (list) goto done;
      count = false;
    }
  }
  if (list) goto done;
  char total[48], classes[48];
  pq_count_str(found ? counted.count : 0, total);
  pq_count_str(found ? counted.unique : 0, classes);
  if (count && found && st->cert) {
    /* The count certificate: every placement, and at the maximum the proof of one more. */
    pq_qn_cert cert = {.board = b,
                       .first = st->first,
                       .second = st->second,
                       .split = pq_qn_split_piece(c.q),
                       .ratio_a = st->ratio_a,
                       .ratio_b = st->ratio_b,
                       .size = k,
                       .infeasible = size < 0 ? k + 1 : 0,
                       .nplacements = c.nkept,
                       .placements = c.kept,
                       .total = total,
                       .unique = classes};
    rc = pq_qn_cert_write(st->cert, &cert);
    if (rc != PQ_OK) goto done;
  }
  if (st->json) {
    printf("{\"problem\":\"qn\",\"board\":\"%dx%d\",\"kinds\":\"%s\",\"ratio\":\"%d:%d\","
           "\"size\":%d",
           width, height, st->letters, st->ratio_a, st->ratio_b, k);
    if (size < 0)
      printf(",\"optimal\":true");
    else
      printf(",\"feasible\":%s", found ? "true" : "false");
    if (size < 0 || !found) printf(",\"proved_by\":\"%s\"", pq_method_name(by));
    if (found)
      printf(",\"witness\":\"%s\"", text);
    else
      printf(",\"witness\":null");
    if (count) printf(",\"count\":%s,\"unique\":%s", total, classes);
    printf("}\n");
  } else {
    if (size < 0)
      printf("qn on %dx%d: %s, the maximum, proven by %s (no placement of %s)\n", width, height,
             what, pq_method_name(by), bigger);
    else if (found)
      printf("qn on %dx%d: %s: possible\n", width, height, what);
    else
      printf("qn on %dx%d: %s: none, proven impossible by %s\n", width, height, what,
             pq_method_name(by));
    if (count) {
      printf("%s placements\n%s up to symmetry\n", total, classes);
    } else if (found) {
      pq_placement_draw(stdout, b, witness, st->letters);
      printf("%s\n", text);
    }
  }
done:
  pq_qn_run_end(&run);
  free(c.kept);
  free(text);
  free(witness);
  pq_qn_free(c.q);
  pq_board_free(b);
  return rc;
}

/* --part I/N: one part of deciding (or counting at) size `size`, as a JSON line for merge. */
static pq_status run_part(setup *st, int width, int height, int size, bool count, int part,
                          int parts) {
  pq_board *b = pq_board_new(width, height);
  pq_qn *q = pq_qn_new(b, st->first, st->second, st->ratio_a, st->ratio_b);
  pq_qn_instance in = {.board = b,
                       .q = q,
                       .first = st->first,
                       .second = st->second,
                       .ratio_a = st->ratio_a,
                       .ratio_b = st->ratio_b};
  snprintf(st->label, sizeof st->label, "qn %dx%d: part %d/%d of size %d", width, height, part,
           parts, size);
  pq_qn_limits l;
  limits_for(st, NULL, &l);
  l.jobs = st->jobs;
  pq_status rc = pq_qn_part_run(&in, size, count, part, parts, &l, st->cert);
  pq_qn_free(q);
  pq_board_free(b);
  return rc;
}

typedef enum table_format { TABLE_TEXT, TABLE_BFILE, TABLE_CSV } table_format;

/* One line of --table: the maximum on an n x n board, its counts and the time. */
static pq_status table_row(setup *st, int n, table_format format) {
  pq_board *b = pq_board_new(n, n);
  board_ctx c = {
      .st = st, .board = b, .q = pq_qn_new(b, st->first, st->second, st->ratio_a, st->ratio_b)};
  double t0 = pq_now();
  pq_maximize m = maximize_of(&c);
  pq_outer_result res;
  pq_qn_count_result counted = {0};
  pq_status rc = pq_outer_run(&m, st->method, &res);
  if (rc == PQ_OK) {
    PQ_REQUIRE(placement_ok(st, b, res.witness, res.best), "qn: the witness of %d is wrong",
               res.best);
    rc = count_at(&c, res.best, false, false, &counted);
  }
  double seconds = pq_now() - t0;
  if (rc != PQ_OK) {
    pq_error("qn: %s on %dx%d: size %d found, %s", stop_reason(rc), n, n, res.best,
             res.proven ? "maximum proven, count not finished" : "maximum not proven");
  } else {
    char total[48], classes[48];
    pq_count_str(counted.count, total);
    pq_count_str(counted.unique, classes);
    if (st->json)
      printf("{\"problem\":\"qn\",\"board\":\"%dx%d\",\"kinds\":\"%s\",\"ratio\":\"%d:%d\","
             "\"size\":%d,\"optimal\":true,\"proved_by\":\"%s\",\"count\":%s,\"unique\":%s,"
             "\"seconds\":%.3f}\n",
             n, n, st->letters, st->ratio_a, st->ratio_b, res.best, pq_method_name(res.proved_by),
             total, classes, seconds);
    else if (format == TABLE_BFILE)
      printf("%d %d\n", n, res.best);
    else if (format == TABLE_CSV)
      printf("%d,%d,%s,%s,%s,%.3f\n", n, res.best, total, classes, pq_method_name(res.proved_by),
             seconds);
    else
      printf("%3d %7d %14s %12s  %-6s %9.3f\n", n, res.best, total, classes,
             pq_method_name(res.proved_by), seconds);
  }
  fflush(stdout);
  pq_qn_free(c.q);
  pq_board_free(b);
  return rc;
}

static pq_status parse_kinds(const char *text, setup *st) {
  int a = -1, b = -1;
  if (text && strlen(text) == 2) {
    a = pq_piece_from_letter((unsigned char)text[0]);
    b = pq_piece_from_letter((unsigned char)text[1]);
  }
  if (a < 0 || b < 0 || a == b) {
    pq_error("--kinds \"%s\": expected two different letters of K Q R B N, e.g. QN", text);
    return PQ_EINVAL;
  }
  st->first = (pq_piece)a;
  st->second = (pq_piece)b;
  st->letters[0] = pq_piece_letters[a];
  st->letters[1] = pq_piece_letters[b];
  st->letters[2] = '\0';
  return PQ_OK;
}

static pq_status parse_ratio(const char *text, setup *st) {
  const char *colon = strchr(text, ':');
  char first[16];
  long a, b;
  if (colon && (size_t)(colon - text) < sizeof first) {
    memcpy(first, text, (size_t)(colon - text));
    first[colon - text] = '\0';
    if (!pq_parse_long(first, 1, PQ_MAX_SQUARES, &a) &&
        !pq_parse_long(colon + 1, 1, PQ_MAX_SQUARES, &b)) {
      st->ratio_a = (int)a;
      st->ratio_b = (int)b;
      return PQ_OK;
    }
  }
  pq_error("--ratio \"%s\": expected A:B with whole numbers 1 to %d, e.g. 2:1", text,
           PQ_MAX_SQUARES);
  return PQ_EINVAL;
}

static pq_status run(const pq_options *o) {
  setup st = {.json = PQ_FLAG(o, json), .ratio_a = 1, .ratio_b = 1};
  int width = 8, height = 8, from = 0, to = 0, part = 0, parts = 0;
  long size, nodes, list_limit, jobs;
  double seconds = 0;
  table_format format = TABLE_TEXT;
  pq_status rc = parse_kinds(o->kinds ? o->kinds : "QN", &st);
  if (!rc && o->board) rc = pq_board_parse(o->board, &width, &height);
  if (!rc && o->ratio) rc = parse_ratio(o->ratio, &st);
  if (!rc) rc = pq_option_long("size", o->size, 0, PQ_MAX_SQUARES, -1, &size);
  if (!rc) rc = pq_option_long("node-limit", o->node_limit, 1, __LONG_MAX__, 0, &nodes);
  if (!rc) rc = pq_option_seconds("time-limit", o->time_limit, &seconds);
  if (!rc) rc = pq_option_long("limit", o->limit, 1, __LONG_MAX__, 0, &list_limit);
  if (!rc) rc = pq_option_long("jobs", o->jobs, 1, 256, pq_cores(), &jobs);
  if (!rc) rc = pq_method_parse(o->method, jobs, &st.method);
  if (!rc && o->table) rc = pq_option_range("table", o->table, 1, PQ_MAX_SIDE, &from, &to);
  if (!rc && o->part) rc = pq_option_part(o->part, &part, &parts);
  if (!rc && o->format) {
    if (!strcmp(o->format, "text"))
      format = TABLE_TEXT;
    else if (!strcmp(o->format, "bfile"))
      format = TABLE_BFILE;
    else if (!strcmp(o->format, "csv"))
      format = TABLE_CSV;
    else {
      pq_error("--format \"%s\": expected text, bfile or csv", o->format);
      rc = PQ_EINVAL;
    }
  }
  if (rc) return rc;
  bool count = PQ_FLAG(o, count), list = PQ_FLAG(o, list), unique = PQ_FLAG(o, unique);
  if (unique && !list) count = true;
  if (o->table && (o->board || o->size || count || list)) {
    pq_error("qn: --table gives every board side its own maximum and counts: it takes no "
             "--board, --size, --count, --list or --unique");
    return PQ_EINVAL;
  }
  if (o->svg && (o->table || PQ_FLAG(o, list))) {
    pq_error("qn: --svg draws the witness: use it without --table or --list");
    return PQ_EINVAL;
  }
  if (o->cert && o->table) {
    pq_error("qn: --cert \"%s\" writes one certificate: use it without --table", o->cert);
    return PQ_EINVAL;
  }
  if (o->cert && count && (o->checkpoint || o->resume || o->part || list)) {
    pq_error("qn: --count --cert keeps every placement for the certificate: not with --part, "
             "--checkpoint, --resume or --list");
    return PQ_EINVAL;
  }
  if (o->format && !o->table) {
    pq_error("qn: --format \"%s\" applies to --table only", o->format);
    return PQ_EINVAL;
  }
  if (o->limit && !list) {
    pq_error("qn: --limit \"%s\" applies to --list only", o->limit);
    return PQ_EINVAL;
  }
  if (count && list) {
    pq_error("qn: --count and --list: give one (--list --unique lists one placement per class)");
    return PQ_EINVAL;
  }
  if ((o->part || o->checkpoint || o->resume) && (list || o->table)) {
    pq_error("qn: --part, --checkpoint and --resume apply to the maximum, --size and --count, not "
             "to --list or --table");
    return PQ_EINVAL;
  }
  if (o->part && size < 0) {
    pq_error("qn: --part \"%s\" needs --size K (the decision or the count to split)", o->part);
    return PQ_EINVAL;
  }
  if (o->part && (o->checkpoint || o->resume || o->svg)) {
    pq_error("qn: --part \"%s\" prints one part's result: not with --checkpoint, --resume or --svg",
             o->part);
    return PQ_EINVAL;
  }
  if (o->part && st.method != PQ_METHOD_SEARCH && o->method) {
    pq_error("qn: --part searches its part: --method \"%s\" does not apply", o->method);
    return PQ_EINVAL;
  }
  if (size * (st.ratio_a + st.ratio_b) > (long)width * height) {
    pq_error("qn: --size %ld: %ld pieces do not fit on %d squares", size,
             size * (st.ratio_a + st.ratio_b), width * height);
    return PQ_EINVAL;
  }
  st.node_limit = (uint64_t)nodes;
  st.deadline = seconds > 0 ? pq_now() + seconds : 0;
  st.list_limit = list_limit;
  st.jobs = (int)jobs;
  /* In a race the integer program takes one thread; the search keeps the others. */
  st.search_jobs = st.method == PQ_METHOD_RACE && jobs > 1 ? (int)jobs - 1 : (int)jobs;
  st.cert = o->cert;
  st.svg = o->svg;
  st.checkpoint = o->checkpoint;
  st.resume = o->resume;
  if (PQ_FLAG(o, quiet)) pq_progress_enabled = false;
  if (o->table) {
    if (!st.json && format == TABLE_TEXT)
      printf("%3s %7s %14s %12s  %-6s %9s\n", "n", "maximum", "count", "unique", "proof",
             "seconds");
    else if (!st.json && format == TABLE_CSV)
      printf("n,maximum,count,unique,proof,seconds\n");
    for (int n = from; n <= to && rc == PQ_OK && !ferror(stdout); n++) /* main reports it */
      rc = table_row(&st, n, format);
    return rc;
  }
  if (o->part) return run_part(&st, width, height, (int)size, count, part, parts);
  return solve(&st, width, height, (int)size, count, list, unique);
}

const pq_problem pq_problem_qn = {
    .name = "qn",
    .letter = 'q',
    .summary = "the most pieces of two kinds in a ratio (equal queens and knights by default) "
               "where none attacks another",
    .run = run,
    .merge = pq_qn_merge,
};
