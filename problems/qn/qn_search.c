/* qn_search.c: the search of qn (two kinds of pieces in a ratio, none attacking another):
   decisions, counts and listings up to the board's symmetries, run in parts by the engine. */

#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/placement.h"
#include "../../src/core/sym.h"
#include "qn_search.h"

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
  l->run.jobs = 1;
}

/* ---- one search ---- */

typedef struct searcher {
  const pq_qn *q;
  const pq_qn_limits *lim;
  pq_qn_call *c;
  pq_engine_worker *w;
  int width, height, squares;
  int a, b; /* outer and inner pieces to place */
  pq_qn_mode mode;
  bool symmetry;
  uint64_t nodes;
  pq_status status;
  bool done;                    /* decide: a witness found in this part */
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
  bool visit; /* placements are handed to the caller's visitor */
  bool one_per_class;
  pq_count count, unique, plain_fixed; /* plain_fixed: Burnside sum when symmetry is off */
  pq_count leaf_sets, leaf_fixed;      /* sets of the current leaf and their fixed points */
  bool count_only, overflow;
  uint8_t cells[PQ_MAX_SQUARES], image_cells[PQ_MAX_SQUARES];
  /* parts */
  bool counting_parts; /* only count the parts (before the engine runs) */
  bool counted;        /* inside a part: ticks are nodes (the tree of parts is not counted) */
  bool finished;       /* no part is left for this thread */
  uint64_t parts_seen, claimed, part; /* parts met, the next one this thread takes, the current */
  uint64_t ticks, unflushed;          /* nodes not yet passed on to the engine */
  uint64_t room;                      /* nodes after which to poll at once (the node limit) */
  pq_engine_text held;                /* the current part's placements as text (visit) */
  uint8_t own_witness[PQ_MAX_SQUARES];
  /* the counts and nodes when the current part began: its outcome is the difference */
  pq_count part_count, part_unique, part_fixed;
  uint64_t part_nodes;
  /* while counting the parts: the split's fingerprint, and each part's first square */
  uint64_t fingerprint;
  int *first;
  uint64_t *keys; /* with first_room: each part's squares (pq_qn_part_key), in order */
  size_t nfirst, first_room;
} searcher;

/* Every 1024 ticks: passes the nodes on to the engine, which keeps the limits, signals, progress
   and the parts after a decided one; the caller's cancel flag and the visitor stop here. */
static void poll(searcher *R) {
  if (R->counting_parts || R->status != PQ_OK) return;
  pq_qn_call *c = R->c;
  uint64_t limit = R->lim->run.node_limit, polled = atomic_fetch_add(&c->polled, R->unflushed);
  if ((R->lim->cancel && *R->lim->cancel) || atomic_load(&c->stopped))
    R->status = PQ_ELIMIT;
  else
    R->status = pq_engine_poll(R->w, R->unflushed);
  polled += R->unflushed;
  R->unflushed = 0;
  /* With a node limit, the next poll comes no later than the limit (exact on one thread). */
  R->room = !limit ? UINT64_MAX : polled < limit ? limit - polled : 1;
}

/* Counts a node; false when a limit, the cancel flag or a signal says stop. */
static bool tick(searcher *R) {
  if (R->counted) {
    R->nodes++;
    if (++R->unflushed >= R->room) poll(R);
  }
  if ((++R->ticks & 1023) == 0) poll(R);
  return R->status == PQ_OK;
}

static void add(searcher *R, pq_count *acc, pq_count v) {
  if (pq_count_add(acc, v)) R->overflow = true;
}

/* ---- the inner kind on the region a leaf leaves ---- */

/* Counts the independent sets of `need` squares in P (one word): the lowest square of the set
   first, then the others above it. */
static uint64_t count1(searcher *R, uint64_t P, int need) {
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
static bool find1(searcher *R, uint64_t P, int need, int depth) {
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

static bool inner_set_done(searcher *R, int size);

/* Visits every independent set of `need` squares in P (nw words), chosen[0..depth-1] already
   chosen; returns false to stop. */
static bool each(searcher *R, const uint64_t *P, int need, int depth) {
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
static void build_region(searcher *R, const uint32_t *kfree) {
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
static void fill_cells(searcher *R, int size, uint8_t *cells) {
  memset(cells, 0, (size_t)R->squares);
  uint8_t outer_code = (uint8_t)(R->q->outer + 1), inner_code = (uint8_t)(2 - R->q->outer);
  for (int i = 0; i < R->a; i++)
    cells[R->outer_sq[i]] = outer_code;
  for (int i = 0; i < size; i++)
    cells[R->region[R->chosen[i]]] = inner_code;
}

/* The image of squares sq[0..n-1] under symmetry g of q, sorted (insertion: the sets are small). */
static void image_of(const pq_qn *q, int g, const int *sq, int n, int *out) {
  const int *img = &q->image[g * q->squares];
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

void pq_qn_least_image(const pq_qn *q, const int *sq, int n, int *least) {
  int img[PQ_MAX_SQUARES];
  memcpy(least, sq, (size_t)n * sizeof *sq);
  for (int g = 1; g < q->nsyms; g++) {
    image_of(q, g, sq, n, img);
    if (cmp_sets(img, least, n) < 0) memcpy(least, img, (size_t)n * sizeof *img);
  }
}

/* Holds a placement for the visitor: a line of the part's text (a digit a square, 0 empty, 1 and
   2 the kinds), handed on in the order of the parts. */
static void emit(searcher *R, const uint8_t *cells) {
  pq_engine_text_line(&R->held, cells, (size_t)R->squares);
}

static bool inner_set_done(searcher *R, int size) {
  if (R->mode == PQ_QN_DECIDE) {
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
    if (R->visit && (!R->one_per_class || !memcmp(canon, R->cells, (size_t)R->squares)))
      emit(R, R->cells);
    return true;
  }
  add(R, &R->leaf_sets, 1);
  int sq[PQ_MAX_SQUARES], img[PQ_MAX_SQUARES];
  for (int i = 0; i < size; i++)
    sq[i] = R->region[R->chosen[i]];
  /* Burnside over the stabiliser of the outer set: which of its elements fix this set too, and
     whether this set is the least of its orbit (the one listed for its class). */
  bool least = true;
  for (int k = 1; k < R->nstab; k++) {
    image_of(R->q, R->stab[k], sq, size, img);
    int c = cmp_sets(img, sq, size);
    if (c == 0) add(R, &R->leaf_fixed, 1);
    if (c < 0) least = false;
  }
  if (!R->visit) return true;
  fill_cells(R, size, R->cells);
  if (R->one_per_class) {
    if (least) {
      pq_sym_canonical(R->q->board, R->cells, NULL, R->image_cells);
      emit(R, R->image_cells);
    }
  } else {
    for (int t = 0; t < R->ntrans; t++) {
      pq_sym_apply(R->q->board, (pq_sym)R->transversal[t], R->cells, R->image_cells);
      emit(R, R->image_cells);
    }
  }
  return true;
}

/* With symmetry on: whether the outer set is the least of its orbit (sets compared as sorted
   square lists), and if so its stabiliser and a transversal of its images. */
static bool canonical_outer(searcher *R) {
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
    image_of(R->q, g, R->outer_sq, a, img[g]);
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
static void leaf(searcher *R, const uint32_t *kfree) {
  int b = R->b, room_left = 0;
  for (int r = 0; r < R->height; r++)
    room_left += pop32(kfree[r]);
  if (room_left < b) return;
  if (R->symmetry && !canonical_outer(R)) return;
  build_region(R, kfree);
  if (R->mode == PQ_QN_DECIDE) {
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
static bool room(const searcher *R, int j, int last, const uint32_t *st) {
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

static void end_part(searcher *R);

/* The split's fingerprint takes v: one FNV-1a step on the whole word, its high half folded into
   the low (32x32 has 17 million parts to take, and bytes one at a time took most of its time). */
static uint64_t hash_in(uint64_t h, uint64_t v) {
  h = (h ^ v) * UINT64_C(1099511628211);
  return h ^ (h >> 32);
}

/* Whether the node just met at the parts' depth (its squares in outer_sq) is a part this thread
   searches now. While the parts are counted, it goes into the fingerprint. */
static bool take_part(searcher *R) {
  uint64_t i = R->parts_seen++;
  if (R->counting_parts) {
    /* Making the parts of a large board takes seconds (32x32: 17 million): it stops at the
       cancel flag and the deadline, as the search does. (Not at a signal: the engine then
       starts, stops at once and writes the checkpoint of the decision under way.) */
    const pq_qn_limits *l = R->lim;
    if ((i & 4095) == 0 &&
        ((l->cancel && *l->cancel) || (l->run.deadline > 0 && pq_now() > l->run.deadline)))
      R->status = PQ_ELIMIT;
    /* Sixteen bits a square (a board has at most 1024). */
    uint64_t squares = 0;
    for (int j = 0; j < R->c->depth; j++)
      squares |= (uint64_t)R->outer_sq[j] << (16 * j);
    R->fingerprint = hash_in(R->fingerprint, squares);
    if (R->first || R->keys) {
      PQ_REQUIRE(R->nfirst < R->first_room, "more parts than counted");
      if (R->first) R->first[R->nfirst] = R->outer_sq[0];
      if (R->keys) R->keys[R->nfirst] = pq_qn_part_key(R->outer_sq, R->c->depth);
      R->nfirst++;
    }
    return false;
  }
  if (i != R->claimed) return false;
  R->part = i;
  pq_engine_text_start(&R->held, R->w, i);
  R->counted = true;
  R->part_count = R->count;
  R->part_unique = R->unique;
  R->part_fixed = R->plain_fixed;
  R->part_nodes = R->nodes;
  return true;
}

/* Places outer piece j (and the ones after it) after square last; st is this level's state,
   which has room for them (room()). */
static void outer_place(searcher *R, int j, int last, const uint32_t *st) {
  int H = R->height, W = R->width;
  const uint32_t *qfree = st, *kfree = st + H;
  if (j == R->a) {
    leaf(R, kfree);
    return;
  }
  uint32_t *child = (uint32_t *)st + 2 * H;
  const pq_qn *q = R->q;
  int r0 = last < 0 ? 0 : last / W, f = R->a - j;
  bool parts_here = j + 1 == R->c->depth;
  for (int r = r0; r < H; r++) {
    if (q->outer_per_row && H - r < f) break;
    uint32_t cand = qfree[r];
    if (r == r0 && last >= 0) cand &= (uint32_t)(~(uint64_t)0 << (last % W + 1));
    for (; cand; cand &= cand - 1) {
      int s = r * W + __builtin_ctz(cand);
      if (j == 0 && R->symmetry && q->least_image[s] != s) continue;
      R->outer_sq[j] = s;
      if (parts_here && !take_part(R)) {
        if (R->status != PQ_OK) return;
        continue;
      }
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

/* The current part is finished (or stopped): hands its outcome to the engine and takes the
   next part. */
static void end_part(searcher *R) {
  R->counted = false;
  if (R->status == PQ_OK && R->overflow) {
    atomic_store(&R->c->overflow, 1);
    R->status = PQ_ELIMIT;
  }
  if (R->status == PQ_OK) {
    pq_qn_outcome o = {.count = R->count - R->part_count,
                       .unique = R->unique - R->part_unique,
                       .plain_fixed = R->plain_fixed - R->part_fixed,
                       .found = R->mode == PQ_QN_DECIDE && R->found};
    uint64_t nodes = R->nodes - R->part_nodes;
    if (o.found) {
      char text[PQ_MAX_SQUARES + PQ_MAX_SIDE + 1];
      pq_placement_text(R->q->board, R->own_witness, R->c->kinds, text);
      pq_engine_done(R->w, R->part, &o, nodes, text, strlen(text));
    } else {
      const char *held = R->held.text ? R->held.text : "";
      pq_engine_done(R->w, R->part, &o, nodes, R->visit ? held : NULL, R->held.len);
    }
  }
  R->found = R->done = false;
  if (R->status != PQ_OK) return;
  R->claimed = pq_engine_next(R->w);
  if (R->claimed == UINT64_MAX) R->finished = true;
}

static searcher *searcher_new(pq_qn_call *c) {
  const pq_qn *q = c->q;
  searcher *R = pq_calloc(1, sizeof *R);
  R->q = q;
  R->lim = c->lim;
  R->c = c;
  R->width = q->width;
  R->height = q->height;
  R->squares = q->squares;
  R->a = q->ratio[q->outer] * c->m;
  R->b = q->ratio[1 - q->outer] * c->m;
  R->mode = c->mode;
  R->symmetry = c->lim->symmetry;
  R->status = PQ_OK;
  R->room = c->lim->run.node_limit ? c->lim->run.node_limit : UINT64_MAX;
  R->visit = c->visit != NULL;
  R->one_per_class = c->one_per_class;
  R->stack = pq_calloc((size_t)(R->a + 1) * 2 * (size_t)q->height, sizeof(uint32_t));
  R->adj = pq_malloc((size_t)q->squares * (PQ_MAX_SQUARES / 64) * sizeof(uint64_t));
  rows_of(q->board, &q->board->all, R->stack);
  rows_of(q->board, &q->board->all, R->stack + q->height);
  return R;
}

static void job_free(searcher *R) {
  if (!R) return;
  free(R->stack);
  free(R->adj);
  free(R->held.text);
  free(R);
}

/* Counts the parts of R's search (c->parts, c->depth) and their fingerprint (c->fingerprint),
   with R->first (if not NULL) receiving their first squares. */
static void count_parts(searcher *R) {
  const pq_qn *q = R->q;
  pq_qn_call *c = R->c;
  c->parts = 0;
  /* Parts of two outer pieces; of three from 15x15 on, where the first parts (pieces in the
     first squares) hold minutes of search, the threads waited on them and checkpoints held none
     (18x18's maximum: 25 s on 2 threads, now 12 to 14 s). */
  int depth = q->squares >= 225 ? 3 : 2;
  c->depth = R->a < depth ? R->a : depth;
  R->fingerprint = PQ_FNV_BASIS;
  uint64_t head[] = {(uint64_t)q->width,    (uint64_t)q->height,   (uint64_t)q->piece[0],
                     (uint64_t)q->piece[1], (uint64_t)q->ratio[0], (uint64_t)q->ratio[1],
                     (uint64_t)R->a,        (uint64_t)R->b,        (uint64_t)c->depth};
  for (size_t i = 0; i < sizeof head / sizeof *head; i++)
    R->fingerprint = hash_in(R->fingerprint, head[i]);
  if (c->m > 0 && R->a + R->b <= R->squares && room(R, 0, -1, R->stack)) {
    R->counting_parts = true;
    outer_place(R, 0, -1, R->stack);
    c->parts = R->parts_seen;
    R->counting_parts = false;
    R->parts_seen = 0;
  }
  R->fingerprint = hash_in(R->fingerprint, c->parts);
  c->fingerprint = R->fingerprint;
  c->split = R->status;
}

/* ---- the engine's problem ---- */

void *pq_qn_solver_new(void *call) { return searcher_new(call); }

void pq_qn_solver_free(void *solver) { job_free(solver); }

uint64_t pq_qn_solver_nodes(const void *solver) { return ((const searcher *)solver)->nodes; }

void pq_qn_split(pq_qn_call *c, int **first, uint64_t **keys) {
  searcher *R = searcher_new(c);
  /* The parts were counted by an earlier call: this one records their first squares. */
  R->first_room = (size_t)c->parts + 1;
  if (first) R->first = pq_malloc(R->first_room * sizeof *R->first);
  if (keys) R->keys = pq_malloc(R->first_room * sizeof *R->keys);
  count_parts(R);
  if (first) *first = R->first;
  if (keys) *keys = R->keys;
  job_free(R);
}

uint64_t pq_qn_part_key(const int *squares, int depth) {
  uint64_t key = 0;
  for (int j = 0; j < depth; j++)
    key = key << 16 | (uint64_t)squares[j];
  return key;
}

/* Size 0 (one part: the empty board) and a size the bounds rule out (one part, empty). */
static pq_status run_trivial(pq_qn_call *c, pq_engine_worker *w) {
  for (uint64_t i; (i = pq_engine_next(w)) != UINT64_MAX;) {
    pq_qn_outcome o = {0, 0, 0, 0};
    if (c->m > 0) {
      pq_engine_done(w, i, &o, 0, NULL, 0);
      continue;
    }
    o = (pq_qn_outcome){1, 1, (pq_count)c->q->nsyms, c->mode == PQ_QN_DECIDE};
    char text[PQ_MAX_SQUARES + PQ_MAX_SIDE + 1];
    uint8_t empty[PQ_MAX_SQUARES] = {0};
    if (c->mode == PQ_QN_DECIDE) {
      pq_placement_text(c->q->board, empty, c->kinds, text);
    } else {
      memset(text, '0', (size_t)c->q->squares);
      text[c->q->squares] = '\n';
      text[c->q->squares + 1] = 0;
    }
    bool kept = c->mode == PQ_QN_DECIDE || c->visit;
    pq_engine_done(w, i, &o, 0, kept ? text : NULL, strlen(text));
  }
  return PQ_OK;
}

/* Searches the parts the engine hands this thread: the walk starts again from the root each
   time the engine calls (after an earlier part decided the run, for the parts before it). */
pq_status pq_qn_search_parts(void *ctx, void *solver, pq_engine_worker *w) {
  pq_qn_call *c = ctx;
  searcher *R = solver;
  if (c->m == 0 || c->parts == 0) return run_trivial(c, w);
  R->w = w;
  R->status = PQ_OK;
  R->found = R->done = R->finished = R->counted = false;
  R->parts_seen = 0;
  R->claimed = pq_engine_next(w);
  if (R->claimed != UINT64_MAX) outer_place(R, 0, -1, R->stack);
  return R->status;
}
