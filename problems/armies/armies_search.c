/* armies_search.c: the armies search's branch and bound over lines for line pieces (queen, rook,
   bishop): bounds, knapsacks, counts and the recursion. The symmetry split into parts and the
   decisions run on it are in armies_split.c; kings and knights in armies_kn.c and
   armies_knights.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__AVX512BW__) || defined(__AVX512F__) || defined(__AVX2__)
#include <immintrin.h>
#endif

#include "armies_lines.h"

pq_armies *pq_armies_new(const pq_board *b, pq_piece p) {
  pq_armies *a = pq_calloc(1, sizeof *a);
  a->board = b;
  a->piece = p;
  a->line_piece = p == PQ_QUEEN || p == PQ_ROOK || p == PQ_BISHOP;
  int ndirs = 0;
  for (int d = 0; d < PQ_NDIRS; d++)
    if (pq_armies_piece_has_dir(p, d)) {
      for (int l = b->line_start[d]; l < b->line_start[d + 1]; l++) {
        a->index_of[l] = a->nlines;
        a->line_id[a->nlines++] = l;
      }
      a->dir_end[ndirs++] = a->nlines;
    }
  for (int s = 0; s < b->squares; s++) {
    int n = 0;
    for (int d = 0; d < PQ_NDIRS; d++)
      if (pq_armies_piece_has_dir(p, d)) a->square_lines[s][n++] = a->index_of[b->line_of[s][d]];
    a->dirs = n;
  }
  return a;
}

void pq_armies_free(pq_armies *a) { free(a); }

pq_piece pq_armies_piece(const pq_armies *a) { return a->piece; }

void pq_armies_params_init(pq_armies_params *p) {
  memset(p, 0, sizeof *p);
  p->jobs = 1;
  p->symmetry = true;
}

void pq_armies_decision_one_leaf(pq_armies_decision *d, const char *leaf) {
  d->ncubes = 1;
  d->cubes = pq_calloc(1, sizeof *d->cubes);
  d->trees = pq_calloc(1, sizeof *d->trees);
  d->cubes[0] = pq_strdup("");
  d->trees[0] = pq_strdup(leaf);
}

void pq_armies_decision_clear(pq_armies_decision *d) {
  for (int i = 0; i < d->ncubes; i++) {
    free(d->cubes[i]);
    if (d->trees) free(d->trees[i]);
  }
  free(d->cubes);
  free(d->trees);
  if (d->lemmas) {
    pq_text_clear(&d->lemmas->text);
    free(d->lemmas->lemma);
    free(d->lemmas);
  }
  d->cubes = d->trees = NULL;
  d->lemmas = NULL;
  d->ncubes = 0;
}

void pq_armies_sb_put(strbuf *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    b->cap = (b->len + n + 1) * 2;
    b->text = pq_realloc(b->text, b->cap);
  }
  memcpy(b->text + b->len, s, n);
  b->len += n;
  b->text[b->len] = '\0';
}

static void add_part(searcher *e, const pq_bits *W, const pq_bits *B) {
  if (e->nparts == e->parts_cap) {
    e->parts_cap = e->parts_cap ? 2 * e->parts_cap : 256;
    e->parts = pq_realloc(e->parts, (size_t)e->parts_cap * sizeof *e->parts);
  }
  e->parts[e->nparts].W = *W;
  e->parts[e->nparts++].B = *B;
  if (e->tree) pq_armies_sb_put(e->tree, "#", 1);
}

/* Whether a signal, a cancellation or a limit stops the search (nodes: those not yet added to
   sh->nodes); if so, records why in sh->status and tells every thread to stop. Call it with
   sh->lock held when locked is true. */
static bool limit_reached(shared *sh, uint64_t nodes, bool locked) {
  pq_status why = PQ_OK;
  if (pq_interrupted)
    why = PQ_EINTR;
  else if (sh->p->cancel && *sh->p->cancel)
    why = PQ_ELIMIT;
  else if (sh->p->node_limit &&
           __atomic_load_n(&sh->nodes, __ATOMIC_RELAXED) + nodes >= sh->p->node_limit)
    why = PQ_ELIMIT;
  else if (sh->deadline > 0 && pq_now() > sh->deadline)
    why = PQ_ELIMIT;
  else if (sh->p->poll && nodes >= sh->polled)
    why = sh->p->poll(sh->p->poll_ctx, nodes - sh->polled);
  if (sh->p->poll) sh->polled = nodes;
  if (why != PQ_OK) {
    if (!locked) pthread_mutex_lock(&sh->lock);
    if (sh->status == PQ_OK) sh->status = why;
    sh->stop = 1;
    if (!locked) pthread_mutex_unlock(&sh->lock);
  }
  return sh->stop;
}

/* Checks limits every 4096 nodes; returns false when the search must stop. */
static bool keep_going(searcher *e) {
  if (e->stop) return false;
  /* A split is made whole or not at all: its parts must be the same in every process. */
  if ((++e->nodes & 0xfff) || e->split_at >= 0) return true;
  shared *sh = e->sh;
  if (limit_reached(sh, e->nodes, false)) e->stop = true;
  return !e->stop;
}

static pq_count binomial(int n, int k, bool *overflow) {
  if (k < 0 || k > n) return 0;
  pq_count r = 1;
  for (int i = 1; i <= k; i++) {
    /* r * (n - k + i) / i stays exact: r is C(n - k + i - 1, i - 1). */
    pq_count m = (pq_count)(n - k + i);
    if (r > PQ_COUNT_MAX / m) {
      *overflow = true;
      return PQ_COUNT_MAX;
    }
    r = r * m / (pq_count)i;
  }
  return r;
}

static int popcount_or_and(const pq_bits *line, const pq_bits *x, const pq_bits *y, int words) {
  int n = 0;
  for (int w = 0; w < words; w++)
    n += __builtin_popcountll(line->w[w] & (x->w[w] | y->w[w]));
  return n;
}

#if defined(__AVX2__) && !defined(__AVX512F__)
/* pack_lanes[mask]: the lanes set in an 8-bit mask, in order (the rest 0): the permutation that
   packs them to the front. */
static uint8_t pack_lanes[256][8];

__attribute__((constructor)) static void make_pack_lanes(void) {
  for (int mask = 0; mask < 256; mask++)
    for (int lane = 0, n = 0; lane < 8; lane++)
      if (mask >> lane & 1) pack_lanes[mask][n++] = (uint8_t)lane;
}

#endif

/* Slots of the vectorised knapsack: armies of up to KNAP_SLOTS - 1 use it. */
#define KNAP_SLOTS 64

/* One line moved to white in the knapsack below: next[t] = max(cur[t], cur[t - x] - y) for
   t < KNAP_SLOTS (x <= PQ_MAX_SIDE < KNAP_SLOTS, and cur[-KNAP_SLOTS..-1] is all black). */
static void knap_step(int16_t *restrict next, const int16_t *restrict cur, int x, int16_t y) {
  for (int t = 0; t < KNAP_SLOTS; t++) {
    int16_t v = (int16_t)(cur[t - x] - y);
    next[t] = v > cur[t] ? v : cur[t];
  }
}

#ifdef __AVX512BW__
/* The knapsack below in two 32-slot registers (AVX-512BW): most[t] for t < 32 in lo, t >= 32 in
   hi. Moving a line of x white squares reads most[t - x], a two-source permutation of (all black,
   lo) and of (lo, hi) with the same indices 32 + t - x (1 <= x <= PQ_MAX_SIDE = 32). */
static bool knapsack_wide(const int *x, const int *y, int m, int need_w, int need_b,
                          int all_black) {
  static const int16_t iota[32] = {32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47,
                                   48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63};
  __m512i base = _mm512_loadu_si512(iota), fill = _mm512_set1_epi16((short)all_black);
  __m512i lo = _mm512_set1_epi16((short)(-2 * PQ_MAX_SQUARES)), hi = lo;
  lo = _mm512_mask_mov_epi16(lo, 1, fill);
  __m512i need = _mm512_set1_epi16((short)need_b);
  uint32_t bit = (uint32_t)1 << (need_w & 31);
  if (need_w < 32) {
    for (int i = 0; i < m; i++) {
      __m512i idx = _mm512_sub_epi16(base, _mm512_set1_epi16((short)x[i]));
      __m512i yi = _mm512_set1_epi16((short)y[i]);
      lo = _mm512_max_epi16(lo, _mm512_sub_epi16(_mm512_permutex2var_epi16(fill, idx, lo), yi));
      if (_mm512_cmpge_epi16_mask(lo, need) & bit) return true;
    }
    return false;
  }
  for (int i = 0; i < m; i++) {
    __m512i idx = _mm512_sub_epi16(base, _mm512_set1_epi16((short)x[i]));
    __m512i yi = _mm512_set1_epi16((short)y[i]);
    __m512i from_hi = _mm512_permutex2var_epi16(lo, idx, hi);
    lo = _mm512_max_epi16(lo, _mm512_sub_epi16(_mm512_permutex2var_epi16(fill, idx, lo), yi));
    hi = _mm512_max_epi16(hi, _mm512_sub_epi16(from_hi, yi));
    if (_mm512_cmpge_epi16_mask(hi, need) & bit) return true;
  }
  return false;
}
#endif

#if defined(__AVX2__) && !defined(__AVX512BW__)
/* Byte shuffles that move the slots of a 16-byte chunk up by r slots: shift_from[r] (16-bit slots,
   8 a chunk) and shift_from8[r] (8-bit slots, 16 a chunk) take the slots from the chunk itself,
   shift_below[r] and shift_below8[r] the r that come in from the chunk below. */
static uint8_t shift_from[8][16], shift_below[8][16], shift_from8[16][16], shift_below8[16][16];

/* The shuffles for slots of `width` bytes (16 / width slots a chunk). */
static void make_shift_table(int width, uint8_t (*from)[16], uint8_t (*below)[16]) {
  for (int r = 0; r < 16 / width; r++)
    for (int j = 0; j < 16; j++) {
      from[r][j] = j >= width * r ? (uint8_t)(j - width * r) : 0x80;
      below[r][j] = j < width * r ? (uint8_t)(16 + j - width * r) : 0x80;
    }
}

__attribute__((constructor)) static void make_shifts(void) {
  make_shift_table(2, shift_from, shift_below);
  make_shift_table(1, shift_from8, shift_below8);
}

/* The knapsack below on the slots up to need_w only (slot t reads slots below t), in chunks of
   8 16-bit slots, updated in place from the top chunk down: moving a line of x white squares
   builds chunk c from chunks c - x / 8 and the one below it by two byte shuffles, without the
   unaligned loads of a store just made. */
static bool knapsack_chunks(const int *x, const int *y, int m, int need_w, int need_b,
                            int all_black) {
  enum { BELOW = 5 }; /* chunks of all black below slot 0: x <= PQ_MAX_SIDE = 32 */
  __m128i most[BELOW + KNAP_SLOTS / 8];
  __m128i fill = _mm_set1_epi16((short)all_black);
  __m128i none = _mm_set1_epi16((short)(-2 * PQ_MAX_SQUARES));
  for (int c = 0; c < BELOW; c++)
    most[c] = fill;
  most[BELOW] = _mm_insert_epi16(none, all_black, 0);
  int top = need_w / 8;
  for (int c = 1; c <= top; c++)
    most[BELOW + c] = none;
  __m128i *at = most + BELOW;
  int bit = 1 << (2 * (need_w % 8));
  __m128i enough = _mm_set1_epi16((short)(need_b - 1));
  for (int i = 0; i < m; i++) {
    int q = x[i] / 8, r = x[i] % 8;
    __m128i from = _mm_loadu_si128((const __m128i *)shift_from[r]);
    __m128i below = _mm_loadu_si128((const __m128i *)shift_below[r]);
    __m128i yi = _mm_set1_epi16((short)y[i]);
    for (int c = top; c >= 0; c--) {
      __m128i moved =
          _mm_or_si128(_mm_shuffle_epi8(at[c - q], from), _mm_shuffle_epi8(at[c - q - 1], below));
      at[c] = _mm_max_epi16(at[c], _mm_sub_epi16(moved, yi));
    }
    if (_mm_movemask_epi8(_mm_cmpgt_epi16(at[top], enough)) & bit) return true;
  }
  return false;
}
#endif

#if defined(__AVX2__) && !defined(__AVX512BW__)
/* The knapsack below for a white army under 32, a black one of at least 1 and at most 255 black
   squares: the slots 0..31 in two registers of 16 unsigned bytes. An unreachable slot holds 0
   instead of a negative number: subtraction saturates there, and 0 never reaches need_b >= 1,
   nor does anything computed from it. */
static bool knapsack_bytes(const int *x, const int *y, int m, int need_w, int need_b,
                           int all_black) {
  __m128i fill = _mm_set1_epi8((char)all_black), zero = _mm_setzero_si128();
  __m128i lo = _mm_insert_epi8(zero, all_black, 0), hi = zero;
  __m128i enough = _mm_set1_epi8((char)need_b);
  int bit = 1 << (need_w & 15);
  bool in_hi = need_w >= 16;
  for (int i = 0; i < m; i++) {
    int q = x[i] >> 4, r = x[i] & 15;
    __m128i from = _mm_loadu_si128((const __m128i *)shift_from8[r]);
    __m128i below = _mm_loadu_si128((const __m128i *)shift_below8[r]);
    __m128i yi = _mm_set1_epi8((char)y[i]);
    __m128i moved_lo, moved_hi;
    if (q == 0) {
      moved_lo = _mm_or_si128(_mm_shuffle_epi8(lo, from), _mm_shuffle_epi8(fill, below));
      moved_hi = _mm_or_si128(_mm_shuffle_epi8(hi, from), _mm_shuffle_epi8(lo, below));
    } else if (q == 1) {
      moved_lo = fill;
      moved_hi = _mm_or_si128(_mm_shuffle_epi8(lo, from), _mm_shuffle_epi8(fill, below));
    } else {
      moved_lo = moved_hi = fill;
    }
    lo = _mm_max_epu8(lo, _mm_subs_epu8(moved_lo, yi));
    hi = _mm_max_epu8(hi, _mm_subs_epu8(moved_hi, yi));
    __m128i top = in_hi ? hi : lo;
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(top, enough), top)) & bit) return true;
  }
  return false;
}
#endif

#if defined(__AVX2__) && !defined(__AVX512BW__)
/* The same for a white army of 32 to 63: up to four chunks of 16 byte slots, updated in place
   from the top chunk down (a chunk reads the chunks c - x/16 and the one below, not yet
   updated). */
static bool knapsack_bytes_wide(const int *x, const int *y, int m, int need_w, int need_b,
                                int all_black) {
  __m128i fill = _mm_set1_epi8((char)all_black), zero = _mm_setzero_si128();
  __m128i most[3 + 4]; /* chunks of all black below slot 0: x <= PQ_MAX_SIDE = 32 reads 3 */
  most[0] = most[1] = most[2] = fill;
  most[3] = _mm_insert_epi8(zero, all_black, 0);
  most[4] = most[5] = most[6] = zero;
  __m128i *at = most + 3, enough = _mm_set1_epi8((char)need_b);
  int top = need_w >> 4, bit = 1 << (need_w & 15);
  for (int i = 0; i < m; i++) {
    int q = x[i] >> 4, r = x[i] & 15;
    __m128i from = _mm_loadu_si128((const __m128i *)shift_from8[r]);
    __m128i below = _mm_loadu_si128((const __m128i *)shift_below8[r]);
    __m128i yi = _mm_set1_epi8((char)y[i]);
    for (int c = top; c >= 0; c--) {
      __m128i moved =
          _mm_or_si128(_mm_shuffle_epi8(at[c - q], from), _mm_shuffle_epi8(at[c - q - 1], below));
      at[c] = _mm_max_epu8(at[c], _mm_subs_epu8(moved, yi));
    }
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(at[top], enough), at[top])) & bit)
      return true;
  }
  return false;
}
#endif

/* Whether the contested lines of one direction (x[i] squares open to white, y[i] to black) can be
   split between the colours so that white gets at least need_w and black at least need_b. */
static bool knapsack(const int *x, const int *y, int m, int need_w, int need_b) {
  if (need_w < 0) need_w = 0;
  int all_black = 0;
  for (int i = 0; i < m; i++)
    all_black += y[i];
  if (all_black >= need_b && need_w == 0) return true;
#ifdef __AVX512BW__
  if (need_w < 64) return knapsack_wide(x, y, m, need_w, need_b, all_black);
#endif
#if defined(__AVX2__) && !defined(__AVX512BW__)
  if (need_w < 32 && need_b >= 1 && all_black <= 255)
    return knapsack_bytes(x, y, m, need_w, need_b, all_black);
  if (need_w < KNAP_SLOTS && need_b >= 1 && all_black <= 255)
    return knapsack_bytes_wide(x, y, m, need_w, need_b, all_black);
  if (need_w < KNAP_SLOTS) return knapsack_chunks(x, y, m, need_w, need_b, all_black);
#endif
  if (need_w < KNAP_SLOTS) {
    /* most[t]: the most black squares with at least t white squares, lines not yet moved to
       white counting as black: moving line i gives most'[t] = max(most[t], most[t - x_i] - y_i),
       with most[t] = all_black for t <= 0 (the KNAP_SLOTS slots below t = 0). The same
       recurrence as below on 16-bit slots of a fixed width, which the compiler vectorises
       (values stay within -3 * PQ_MAX_SQUARES and PQ_MAX_SQUARES). */
    int16_t buf[2][2 * KNAP_SLOTS] __attribute__((aligned(64)));
    for (int t = 0; t < KNAP_SLOTS; t++) {
      buf[0][t] = buf[1][t] = (int16_t)all_black;
      buf[0][KNAP_SLOTS + t] = buf[1][KNAP_SLOTS + t] = (int16_t)(-2 * PQ_MAX_SQUARES);
    }
    buf[0][KNAP_SLOTS] = (int16_t)all_black;
    int16_t *cur = buf[0] + KNAP_SLOTS, *next = buf[1] + KNAP_SLOTS;
    for (int i = 0; i < m; i++) {
      knap_step(next, cur, x[i], (int16_t)y[i]);
      if (next[need_w] >= need_b) return true;
      int16_t *t = cur;
      cur = next;
      next = t;
    }
    return false;
  }
  /* most[j]: the most black squares with j white squares (need_w: at least need_w); lines not
     yet moved to white count as black. Unreachable states stay very negative, so the loop
     needs no branches. */
  int most[PQ_MAX_SQUARES + 1];
  most[0] = all_black;
  for (int j = 1; j <= need_w; j++)
    most[j] = -PQ_MAX_SQUARES;
  if (most[need_w] >= need_b) return true;
  for (int i = 0; i < m; i++) {
    int xi = x[i], yi = y[i], top = most[need_w];
    for (int j = need_w - xi < 0 ? 0 : need_w - xi; j < need_w; j++) {
      int v = most[j] - yi;
      top = v > top ? v : top;
    }
    for (int t = need_w - 1; t >= xi; t--) {
      int v = most[t - xi] - yi;
      most[t] = v > most[t] ? v : most[t];
    }
    most[need_w] = top;
    if (top >= need_b) return true;
  }
  return false;
}

/* Visits every placement at a leaf: whites any `need_w` of W; blacks any `need_b` of B that
   touch every line decided "out" (so each placement is counted at exactly one leaf). */
typedef struct leaf {
  searcher *e;
  int wsq[PQ_MAX_SQUARES], nw;
  int bsq[PQ_MAX_SQUARES], nb;
  int wpick[PQ_MAX_SQUARES], bpick[PQ_MAX_SQUARES];
  uint8_t cells[PQ_MAX_SQUARES];
} leaf;

static bool visit_whites(leaf *L, int from, int left) {
  searcher *e = L->e;
  if (!left) {
    /* A placement visited is a node: one leaf may hold millions, and the limits and signals are
       looked at here too. */
    if (e->visit(e->ctx, L->cells, e->weight) || !keep_going(e)) {
      e->stop = true;
      return false;
    }
    return true;
  }
  for (int i = from; i <= L->nw - left; i++) {
    L->cells[L->wsq[i]] = 1;
    bool go = visit_whites(L, i + 1, left - 1);
    L->cells[L->wsq[i]] = 0;
    if (!go) return false;
  }
  return true;
}

/* Chooses blacks from bsq[from..]; counts (or visits) the coverings. */
static pq_count blacks(leaf *L, int from, int left, uint64_t *uncovered, int nuncovered,
                       pq_count whites) {
  searcher *e = L->e;
  const pq_armies *a = e->sh->a;
  if (!keep_going(e)) return 0; /* a choice of blacks is a node */
  if (!left) {
    if (nuncovered) return 0;
    if (e->visit && !visit_whites(L, 0, e->sh->need_w)) return 0;
    return whites;
  }
  if (L->nb - from < left || nuncovered > left * a->dirs || e->stop) return 0;
  pq_count total = 0;
  for (int i = from; i <= L->nb - left && !e->stop; i++) {
    int s = L->bsq[i], newly[PQ_NDIRS], n = 0;
    for (int d = 0; d < a->dirs; d++) {
      int l = a->square_lines[s][d];
      if (uncovered[l >> 6] >> (l & 63) & 1) {
        uncovered[l >> 6] &= ~((uint64_t)1 << (l & 63));
        newly[n++] = l;
      }
    }
    L->cells[s] = 2;
    pq_count sub = blacks(L, i + 1, left - 1, uncovered, nuncovered - n, whites);
    L->cells[s] = 0;
    for (int j = 0; j < n; j++)
      uncovered[newly[j] >> 6] |= (uint64_t)1 << (newly[j] & 63);
    if (pq_count_add(&total, sub)) e->overflow = true;
  }
  return total;
}

static void count_leaf(searcher *e, const pq_bits *W, const pq_bits *B) {
  const pq_armies *a = e->sh->a;
  int words = a->board->words;
  static __thread leaf L;
  L.e = e;
  L.nw = L.nb = 0;
  PQ_BITS_FOREACH(s, W, words) L.wsq[L.nw++] = s;
  PQ_BITS_FOREACH(s, B, words) L.bsq[L.nb++] = s;
  uint64_t uncovered[LINE_WORDS];
  int n = 0;
  memcpy(uncovered, e->out, sizeof uncovered);
  for (int i = 0; i < LINE_WORDS; i++)
    n += __builtin_popcountll(uncovered[i]);
  bool overflow = false;
  pq_count whites = binomial(L.nw, e->sh->need_w, &overflow);
  if (overflow) e->overflow = true;
  if (!whites) return;
  memset(L.cells, 0, (size_t)a->board->squares);
  if (pq_count_add(&e->count, blacks(&L, 0, e->sh->need_b, uncovered, n, whites)))
    e->overflow = true;
}

/* Closes the squares in gone to white (white true) or to black, keeping the per-line counts
   (the caller puts them back after the child). other: the squares still open to the other
   colour. */
static void update_counts(searcher *e, const pq_bits *gone, const pq_bits *other, bool white) {
  const pq_armies *a = e->sh->a;
  int words = a->board->words, *open = white ? e->x : e->y;
  PQ_BITS_FOREACH(s, gone, words) {
    bool both = pq_bits_has(other, s);
    for (int d = 0; d < a->dirs; d++) {
      int l = a->square_lines[s][d];
      open[l]--;
      if (both) e->z[l]--;
    }
    (*(white ? &e->wc : &e->bc))--;
  }
}

/* Sets the per-line counts for the open sets W and B. */
void pq_armies_start_counts(searcher *e, const pq_bits *W, const pq_bits *B) {
  const pq_armies *a = e->sh->a;
  const pq_board *b = a->board;
  for (int i = 0; i < a->nlines; i++) {
    const pq_bits *line = &b->line[a->line_id[i]];
    e->x[i] = pq_bits_count_and(line, W, b->words);
    e->y[i] = pq_bits_count_and(line, B, b->words);
    e->z[i] = e->x[i] + e->y[i] - popcount_or_and(line, W, B, b->words);
  }
  e->wc = pq_bits_count(W, b->words);
  e->bc = pq_bits_count(B, b->words);
}

/* One direction's pass over its lines (line_bounds): the open counts of its contested lines (open
   to both colours), packed in order (8 spare slots: the AVX2 pass stores 8 lines at a time), and
   its sums: of max(white-open, black-open) over its lines, of the lines open to one colour only,
   and of the natural split (each line to the colour with more open squares, ties to black). */
typedef struct dir_pass {
  int m, sum, fixed_w, fixed_b, natural_w, natural_b;
  int xs[2 * PQ_MAX_SIDE + 8], ys[2 * PQ_MAX_SIDE + 8];
} dir_pass;

/* The line to branch on so far: the first contested line of the highest score (the squares it
   touches open to either colour); with AVX2, per lane. */
typedef struct branch_pick {
#if defined(__AVX2__) && !defined(__AVX512F__)
  __m256i score, at;
#else
  int score, at;
#endif
} branch_pick;

#define PQ_INLINE static inline __attribute__((always_inline))

PQ_INLINE void pick_init(branch_pick *b) {
#if defined(__AVX2__) && !defined(__AVX512F__)
  b->score = _mm256_set1_epi32(-1);
  b->at = _mm256_setzero_si256();
#else
  b->score = b->at = -1;
#endif
}

#ifdef __AVX512F__
/* The lines from..to-1 of one direction, 16 at a time: the contested lines packed in order, the
   first line of the highest score kept (the choice of the plain loop). */
PQ_INLINE void pass_dir(const searcher *e, int from, int to, dir_pass *p, branch_pick *b) {
  int sum = 0, fw = 0, fb = 0, md = 0, nw = 0;
  for (int i = from; i < to; i += 16) {
    int left = to - i;
    __mmask16 valid = left >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << left) - 1);
    __m512i x = _mm512_maskz_loadu_epi32(valid, e->x + i);
    __m512i y = _mm512_maskz_loadu_epi32(valid, e->y + i);
    __m512i zero = _mm512_setzero_si512();
    __mmask16 contested = _mm512_mask_cmpgt_epi32_mask(_mm512_cmpgt_epi32_mask(x, zero), y, zero);
    sum += _mm512_reduce_add_epi32(_mm512_max_epi32(x, y));
    nw += _mm512_mask_reduce_add_epi32(_mm512_cmpgt_epi32_mask(x, y), x);
    fw += _mm512_mask_reduce_add_epi32((__mmask16)~contested, x);
    fb += _mm512_mask_reduce_add_epi32((__mmask16)~contested, y);
    if (!contested) continue;
    _mm512_mask_compressstoreu_epi32(p->xs + md, contested, x);
    _mm512_mask_compressstoreu_epi32(p->ys + md, contested, y);
    md += __builtin_popcount(contested);
    __m512i z = _mm512_maskz_loadu_epi32(valid, e->z + i);
    __m512i score =
        _mm512_mask_sub_epi32(_mm512_set1_epi32(-1), contested, _mm512_add_epi32(x, y), z);
    int top = _mm512_reduce_max_epi32(score);
    if (top > b->score) {
      b->score = top;
      b->at = i + __builtin_ctz(_mm512_cmpeq_epi32_mask(score, _mm512_set1_epi32(top)));
    }
  }
  p->m = md, p->sum = sum, p->fixed_w = fw, p->fixed_b = fb, p->natural_w = nw;
}
#elif defined(__AVX2__)
/* The same, 8 lines at a time: the contested lines packed in order by a permutation per mask,
   the first line of the highest score kept in each lane (pick_line finds it across them). */
PQ_INLINE void pass_dir(const searcher *e, int from, int to, dir_pass *p, branch_pick *b) {
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  __m256i vsum = _mm256_setzero_si256(), vfw = vsum, vfb = vsum, vnw = vsum, zero = vsum;
  int md = 0;
  for (int i = from; i < to; i += 8) {
    int left = to - i;
    __m256i valid = _mm256_cmpgt_epi32(_mm256_set1_epi32(left), lane), x, y, z;
    if (left >= 8) {
      x = _mm256_loadu_si256((const __m256i *)(e->x + i));
      y = _mm256_loadu_si256((const __m256i *)(e->y + i));
      z = _mm256_loadu_si256((const __m256i *)(e->z + i));
    } else {
      x = _mm256_maskload_epi32(e->x + i, valid);
      y = _mm256_maskload_epi32(e->y + i, valid);
      z = _mm256_maskload_epi32(e->z + i, valid);
    }
    __m256i contested = _mm256_and_si256(_mm256_cmpgt_epi32(x, zero), _mm256_cmpgt_epi32(y, zero));
    vsum = _mm256_add_epi32(vsum, _mm256_max_epi32(x, y));
    vfw = _mm256_add_epi32(vfw, _mm256_andnot_si256(contested, x));
    vfb = _mm256_add_epi32(vfb, _mm256_andnot_si256(contested, y));
    vnw = _mm256_add_epi32(vnw, _mm256_and_si256(_mm256_cmpgt_epi32(x, y), x));
    int mask = _mm256_movemask_ps(_mm256_castsi256_ps(contested));
    if (!mask) continue;
    __m256i pack = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)&pack_lanes[mask]));
    _mm256_storeu_si256((__m256i *)(p->xs + md), _mm256_permutevar8x32_epi32(x, pack));
    _mm256_storeu_si256((__m256i *)(p->ys + md), _mm256_permutevar8x32_epi32(y, pack));
    md += __builtin_popcount((unsigned)mask);
    __m256i score =
        _mm256_or_si256(_mm256_and_si256(contested, _mm256_sub_epi32(_mm256_add_epi32(x, y), z)),
                        _mm256_andnot_si256(contested, _mm256_set1_epi32(-1)));
    __m256i better = _mm256_cmpgt_epi32(score, b->score);
    b->score = _mm256_max_epi32(b->score, score);
    b->at = _mm256_blendv_epi8(b->at, _mm256_add_epi32(lane, _mm256_set1_epi32(i)), better);
  }
  __m256i h = _mm256_hadd_epi32(_mm256_hadd_epi32(vsum, vfw), _mm256_hadd_epi32(vfb, vnw));
  __m128i sums = _mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
  p->m = md, p->sum = _mm_cvtsi128_si32(sums), p->fixed_w = _mm_extract_epi32(sums, 1);
  p->fixed_b = _mm_extract_epi32(sums, 2), p->natural_w = _mm_extract_epi32(sums, 3);
}
#else
PQ_INLINE void pass_dir(const searcher *e, int from, int to, dir_pass *p, branch_pick *b) {
  int sum = 0, fw = 0, fb = 0, md = 0, nw = 0;
  for (int i = from; i < to; i++) {
    int x = e->x[i], y = e->y[i];
    sum += x > y ? x : y;
    nw += x > y ? x : 0;
    if (!x || !y) {
      fw += x;
      fb += y;
      continue;
    }
    p->xs[md] = x, p->ys[md++] = y;
    int score = x + y - e->z[i];
    if (score > b->score) b->score = score, b->at = i;
  }
  p->m = md, p->sum = sum, p->fixed_w = fw, p->fixed_b = fb, p->natural_w = nw;
}
#endif

/* The line picked: the first of the highest score (-1: no contested line left). */
PQ_INLINE int pick_line(const branch_pick *b) {
#if defined(__AVX2__) && !defined(__AVX512F__)
  /* The highest score over the lanes, then the first line among the lanes that have it. */
  __m256i top = _mm256_max_epi32(b->score, _mm256_permute2x128_si256(b->score, b->score, 1));
  top = _mm256_max_epi32(top, _mm256_shuffle_epi32(top, 0x4e));
  top = _mm256_max_epi32(top, _mm256_shuffle_epi32(top, 0xb1));
  if (_mm256_cvtsi256_si32(top) < 0) return -1;
  __m256i at =
      _mm256_blendv_epi8(_mm256_set1_epi32(MAX_LINES), b->at, _mm256_cmpeq_epi32(b->score, top));
  at = _mm256_min_epi32(at, _mm256_permute2x128_si256(at, at, 1));
  at = _mm256_min_epi32(at, _mm256_shuffle_epi32(at, 0x4e));
  at = _mm256_min_epi32(at, _mm256_shuffle_epi32(at, 0xb1));
  return _mm256_cvtsi256_si32(at);
#else
  return b->at;
#endif
}

/* The knapsacks of the directions (each line ends up white's or black's, so some split of the
   contested lines between the colours must give each colour its army), for the targets alive
   whose natural split falls short, starting with the direction whose knapsack closed a node last
   (the order changes no result): the targets still alive. */
PQ_INLINE int knapsacks(searcher *e, int alive, const dir_pass *p) {
  int need_w = e->sh->need_w, need_b = e->sh->need_b, also = e->sh->also, dirs = e->sh->a->dirs;
  for (int k = 0; k < dirs; k++) {
    int d = (e->knap_first + k) % dirs;
    const dir_pass *q = &p[d];
    int nw = q->natural_w, nb = q->natural_b;
    if ((alive & 1) && (nw < need_w || nb < need_b) &&
        !knapsack(q->xs, q->ys, q->m, need_w - q->fixed_w, need_b - q->fixed_b))
      alive &= ~1;
    if ((alive & 2) && (nw < need_b || nb < need_w) &&
        !knapsack(q->xs, q->ys, q->m, need_b - q->fixed_w, need_w - q->fixed_b))
      alive &= ~2;
    if ((alive & 4) && (nw < also || nb < also) &&
        !knapsack(q->xs, q->ys, q->m, also - q->fixed_w, also - q->fixed_b))
      alive &= ~4;
    if (!alive) {
      e->knap_first = d;
      return 0;
    }
  }
  return alive;
}

/* A node's pass over the lines and its bounds (pq_armies_lines_rec): the targets still alive
   (bits as there; 0: the node is closed) and in *best the line to branch on (-1: none left).
   Inlined: it is the search's inner loop, in functions of their own only to be read. The lines
   of one direction partition the board, and each line ends up white's or black's, so white +
   black <= the sum over those lines of max(white-open, black-open): the cheap bound of every
   direction comes before any knapsack. */
PQ_INLINE int line_bounds(searcher *e, int alive, int *best) {
  const pq_armies *a = e->sh->a;
  dir_pass p[PQ_NDIRS];
  branch_pick pick;
  pick_init(&pick);
  int least_sum = 4 * PQ_MAX_SQUARES; /* the smallest sum over the directions */
  for (int d = 0; d < a->dirs; d++) {
    pass_dir(e, d ? a->dir_end[d - 1] : 0, a->dir_end[d], &p[d], &pick);
    p[d].natural_b = p[d].sum - p[d].natural_w;
    least_sum = p[d].sum < least_sum ? p[d].sum : least_sum;
  }
  *best = pick_line(&pick);
  if (least_sum < e->sh->need_w + e->sh->need_b) alive &= ~3;
  if (least_sum < 2 * e->sh->also) alive &= ~4;
  return alive ? knapsacks(e, alive, p) : 0;
}

/* The branch and bound over lines. W: squares still open to white (none of their lines is
   "out"); B: open to black (none of their lines is "in"). A line is decided exactly when it
   misses W or B, so (W, B) is the whole state; e->x, e->y, e->z count per line the squares
   open to white, to black, and to both. Returns false to unwind. */
bool pq_armies_lines_rec(searcher *e, const pq_bits *W, const pq_bits *B) {
  if (!keep_going(e)) return false;
  const pq_armies *a = e->sh->a;
  const pq_board *b = a->board;
  int words = b->words, need_w = e->sh->need_w, need_b = e->sh->need_b;
  bool either = e->sh->either;
  int also = e->sh->also;
  /* The targets still possible: bit 1, need_w white and need_b black; bit 2 (either), the
     colours exchanged; bit 4, also against also. */
  int alive = (e->wc >= need_w && e->bc >= need_b) |
              (either && e->wc >= need_b && e->bc >= need_w) << 1 |
              (also && e->wc >= also && e->bc >= also) << 2;
  if (!alive) {
    if (e->tree) pq_armies_sb_put(e->tree, ".", 1);
    return true;
  }
  if (e->counting && e->split_at < 0)
    /* Each black piece is on one line of each direction, and every line decided "out" holds one:
       no more of them in a direction than black pieces (with none, no line "out" at all). Below
       a split's cube only, so that the split and its cubes stay as they are. */
    for (int d = 0; d < a->dirs; d++)
      if (e->outs[d] > need_b) {
        if (e->tree) pq_armies_sb_put(e->tree, ".", 1);
        return true;
      }
  if (e->counting && need_b > 0)
    /* A placement is counted where every line decided "out" holds a black piece. */
    for (int w = 0; w < LINE_WORDS; w++)
      for (uint64_t bits = e->out[w]; bits; bits &= bits - 1)
        if (!e->y[w * 64 + __builtin_ctzll(bits)]) {
          if (e->tree) pq_armies_sb_put(e->tree, ".", 1);
          return true;
        }
  int best;
  alive = line_bounds(e, alive, &best);
  if (!alive) {
    if (e->tree) pq_armies_sb_put(e->tree, ".", 1);
    return true;
  }
  if (e->split_at >= 0 && (best < 0 || e->depth == e->split_at)) {
    add_part(e, W, B);
    return true;
  }
  if (best < 0) {
    /* Every line is decided in effect: W and B are the final open sets. */
    if (e->counting) {
      if (e->tree) pq_armies_sb_put(e->tree, "c", 1);
      count_leaf(e, W, B);
      return !e->stop;
    }
    e->found = true;
    bool swap = !(alive & 1) && (alive & 2); /* only the colours exchanged fit */
    e->found_w = swap ? *B : *W;
    e->found_b = swap ? *W : *B;
    return false;
  }
  /* The child whose smaller army has more room first ("l;" in the proof when that is "out"). */
  int in_room = e->bc - e->y[best] < e->wc ? e->bc - e->y[best] : e->wc;
  int out_room = e->wc - e->x[best] < e->bc ? e->wc - e->x[best] : e->bc;
  bool out_first = out_room > in_room && !e->counting;
  if (e->tree) {
    char tok[16];
    int n = snprintf(tok, sizeof tok, "%d%c", a->line_id[best], out_first ? ';' : ',');
    pq_armies_sb_put(e->tree, tok, (size_t)n);
  }
  const pq_bits *line = &b->line[a->line_id[best]];
  for (int pass = 0; pass < 2; pass++) {
    bool out = (pass == 0) == out_first;
    pq_bits child, gone;
    const pq_bits *closing = out ? W : B;
    for (int w = 0; w < words; w++) {
      gone.w[w] = closing->w[w] & line->w[w];
      child.w[w] = closing->w[w] & ~line->w[w];
    }
    /* "in": white may use the line, black may not; "out": the other way round. */
    /* The counts the child changes, kept to be put back whole: cheaper than undoing the
       squares one by one. */
    int *open = out ? e->x : e->y, nlines = a->nlines, kept_count = out ? e->wc : e->bc;
    int kept_open[MAX_LINES], kept_z[MAX_LINES];
    memcpy(kept_open, open, (size_t)nlines * sizeof *open);
    memcpy(kept_z, e->z, (size_t)nlines * sizeof *open);
    update_counts(e, &gone, out ? B : W, out);
    if (out && e->counting) {
      e->out[best >> 6] |= (uint64_t)1 << (best & 63);
      e->outs[pq_armies_line_dir(a, best)]++;
    }
    e->depth++;
    bool go = out ? pq_armies_lines_rec(e, &child, B) : pq_armies_lines_rec(e, W, &child);
    e->depth--;
    if (out && e->counting) {
      e->out[best >> 6] &= ~((uint64_t)1 << (best & 63));
      e->outs[pq_armies_line_dir(a, best)]--;
    }
    memcpy(open, kept_open, (size_t)nlines * sizeof *open);
    memcpy(e->z, kept_z, (size_t)nlines * sizeof *open);
    *(out ? &e->wc : &e->bc) = kept_count;
    if (!go) return false;
  }
  return true;
}
