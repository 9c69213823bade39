/* pieces_search.c: the pieces solver: the piece spec, the solver's tables, and the count of every
   placement where no piece attacks another. */
#include "pieces_search.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/config.h"

pq_status pq_pieces_parse(const char *what, const char *spec, int squares, int counts[PQ_NPIECES]) {
  memset(counts, 0, PQ_NPIECES * sizeof *counts);
  bool seen[PQ_NPIECES] = {false};
  if (!spec || !*spec) {
    pq_error("%s \"\": expected letters K Q R B N each followed by a count, e.g. K2Q2B2N1", what);
    return PQ_EINVAL;
  }
  long total = 0;
  for (const char *p = spec; *p;) {
    int piece = pq_piece_from_letter((unsigned char)*p);
    if (piece < 0) {
      pq_error("%s \"%s\": unknown piece '%c' (expected K Q R B N)", what, spec, *p);
      return PQ_EINVAL;
    }
    if (seen[piece]) {
      pq_error("%s \"%s\": piece '%c' given twice", what, spec, *p);
      return PQ_EINVAL;
    }
    seen[piece] = true;
    p++;
    long n = 1;
    if (*p == '-' || *p == '+') {
      pq_error("%s \"%s\": the count after '%c' must be a whole number from 0 to %d", what, spec,
               p[-1], squares);
      return PQ_EINVAL;
    }
    if (isdigit((unsigned char)*p)) {
      const char *digits = p;
      n = 0;
      while (isdigit((unsigned char)*p)) {
        if (n <= squares) n = n * 10 + (*p - '0');
        p++;
      }
      if (n > squares) {
        pq_error("%s \"%s\": count %.*s for '%c' exceeds the board's %d %s", what, spec,
                 (int)(p - digits), digits, pq_piece_letters[piece], squares,
                 pq_noun(squares, "square", "squares"));
        return PQ_EINVAL;
      }
    }
    counts[piece] = (int)n;
    total += n;
  }
  if (total > squares) {
    pq_error("%s \"%s\": %ld pieces do not fit on %d %s", what, spec, total, squares,
             pq_noun(squares, "square", "squares"));
    return PQ_EINVAL;
  }
  return PQ_OK;
}

/* The search. Pieces are placed kind by kind (a kind: one piece type), the most constraining kind
   first, and the pieces of one kind in increasing square order, so each placement is reached
   exactly once. A kind's "open" set holds the squares where its next piece may still stand: no
   placed piece closes them to it (the forbidden sets of the calculus' lone-piece configs,
   doc/algorithms.md), and for the kind being placed they lie after its last piece. Placing a
   piece is one and-not per remaining kind and word. A branch dies as soon as some kind has fewer
   open squares than pieces left, or (queens and rooks) fewer rows or columns meeting them.

   Counting never lists. The last kind is counted in closed form on its open squares: n choose m
   when they are mutually peaceful; for m = 2, pairs minus conflicts; for m = 3, inclusion-
   exclusion over the conflicts inside a triple (edges, paths of length two, triangles); for more,
   the placements without the first open square plus those with a piece on it, memoised on (open
   set, pieces left), which pays for short-range pieces and rooks (their open sets recur). The
   last piece of the kind before is summed over in one loop, taking once the count shared by all
   its squares that close nothing of the last kind's open squares. The first kinds are placed only
   up to the board's symmetries: a kind's set is kept only if it is the smallest of its images
   under the symmetries that fix the kinds before it, and its count is weighed by the size of its
   orbit under them; as the count of completions is the same for every set of an orbit, the sum
   is the full count (tests/test_pieces.c checks it against a brute force, with and without).

   Boards of up to 64 squares keep every set in one machine word (the word count is a constant in
   that copy of the hot loops); another copy is compiled for the POPCNT instruction and runs
   where the processor has it. */

/* ---- construction ---- */

/* Line pieces first, strongest first; then the short-range kinds, fewer pieces first, kings
   before knights on a tie: the last kind is counted in closed form, and the knight's conflict
   graph has no triangles. */
static int search_rank(pq_piece p, int count) {
  switch (p) {
  case PQ_QUEEN: return 0;
  case PQ_ROOK: return 1;
  case PQ_BISHOP: return 2;
  default: return 3 + 2 * count + (p == PQ_KNIGHT);
  }
}

/* Saturating arithmetic for the size bound. */
static pq_count sat_mul(pq_count a, pq_count b) {
  if (a && b > PQ_COUNT_MAX / a) return PQ_COUNT_MAX;
  return a * b;
}

static pq_count sat_binom(int n, int k) {
  if (k < 0 || k > n) return 0;
  if (k > n - k) k = n - k;
  pq_count c = 1;
  for (int i = 0; i < k; i++) {
    /* c * (n - i) / (i + 1) exactly, without forming c * (n - i). */
    pq_count q = c / (pq_count)(i + 1), r = c % (pq_count)(i + 1);
    pq_count a = sat_mul(q, (pq_count)(n - i));
    if (a == PQ_COUNT_MAX) return PQ_COUNT_MAX;
    c = a + r * (pq_count)(n - i) / (pq_count)(i + 1);
  }
  return c;
}

static pq_count size_bound(const pq_board *b, const int counts[PQ_NPIECES]) {
  int lines = counts[PQ_QUEEN] + counts[PQ_ROOK];
  /* Queens and rooks stand on distinct rows and columns: choose the rows, give them distinct
     columns in order, choose which are queens. */
  pq_count bound = sat_mul(sat_binom(b->height, lines), sat_binom(lines, counts[PQ_QUEEN]));
  for (int i = 0; i < lines; i++)
    bound = sat_mul(bound, (pq_count)(b->width - i > 0 ? b->width - i : 0));
  for (int t = 0; t < PQ_NPIECES; t++)
    if (t != PQ_QUEEN && t != PQ_ROOK) bound = sat_mul(bound, sat_binom(b->squares, counts[t]));
  return bound;
}

/* Whether no three squares are pairwise in conflict for kind i: then the last kind's count of
   three needs no triangles. A triangle is a pair in conflict with a common neighbour after both. */
static bool triangle_free(const pq_pieces *e, int i) {
  int sq = e->squares, nw = e->words;
  for (int u = 0; u < sq; u++)
    for (int v = u + 1; v < sq; v++) {
      const uint64_t *cu = closed_to(e, i, i, u, nw), *cv = closed_to(e, i, i, v, nw);
      if (!((cu[v >> 6] >> (v & 63)) & 1)) continue;
      for (int w = 0; w < nw; w++)
        for (uint64_t both = cu[w] & cv[w]; both; both &= both - 1)
          if (w * 64 + __builtin_ctzll(both) > v) return false;
    }
  return true;
}

pq_pieces *pq_pieces_new(const pq_board *b, const int counts[PQ_NPIECES]) {
  pq_pieces *e = pq_calloc(1, sizeof *e);
  e->board = b;
  e->squares = b->squares;
  e->words = b->words;
  e->bound = size_bound(b, counts);
  int order[PQ_NPIECES], n = 0;
  for (int t = 0; t < PQ_NPIECES; t++)
    if (counts[t]) order[n++] = t;
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && search_rank((pq_piece)order[j], counts[order[j]]) <
                                 search_rank((pq_piece)order[j - 1], counts[order[j - 1]]);
         j--) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  e->nk = n;
  int letter_of[PQ_NPIECES], nl = 0;
  for (int t = 0; t < PQ_NPIECES; t++)
    if (counts[t]) {
      letter_of[t] = nl;
      e->letters[nl++] = pq_piece_letters[t];
    }
  e->letters[nl] = '\0';
  snprintf(e->spec, sizeof e->spec, "K0"); /* (no piece: a spec the command line takes) */
  for (int t = 0, at = 0; t < PQ_NPIECES; t++)
    if (counts[t])
      at += snprintf(e->spec + at, sizeof e->spec - (size_t)at, "%c%d", pq_piece_letters[t],
                     counts[t]);
  pq_kind kinds[PQ_MAX_KINDS];
  for (int i = 0; i < n; i++) {
    kinds[i] = (pq_kind){(pq_piece)order[i], 0};
    /* A queen closes four whole lines: the open sets left after queens seldom meet again, and
       the memo would cost more than it saves (measured: 8x8 Q8, 10x10 Q10). */
    e->memo_pays[i] = order[i] != PQ_QUEEN;
    e->on_lines[i] = order[i] == PQ_QUEEN || order[i] == PQ_ROOK;
    e->count[i] = counts[order[i]];
    e->code[i] = (uint8_t)(letter_of[order[i]] + 1);
    e->total += e->count[i];
  }
  int nw = e->words, sq = e->squares;
  if (n) {
    e->calc = pq_calc_new(b, n, kinds, PQ_CONFLICT_ALL);
    e->closed = pq_malloc((size_t)n * (size_t)n * (size_t)sq * (size_t)nw * sizeof(uint64_t));
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        e->closed_by[i * PQ_MAX_KINDS + j] =
            e->closed + (size_t)(i * n + j) * (size_t)sq * (size_t)nw;
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        for (int s = 0; s < sq; s++)
          memcpy((uint64_t *)closed_to(e, i, j, s, nw),
                 pq_calc_piece(e->calc, i, s)->forbidden[j].w, (size_t)nw * sizeof(uint64_t));
    for (int i = 0; i < n; i++)
      e->triangle_free[i] = triangle_free(e, i);
  }
  e->lines = pq_malloc((size_t)(b->height + b->width) * (size_t)nw * sizeof(uint64_t));
  for (int l = 0; l < b->height + b->width; l++)
    memcpy(e->lines + (size_t)l * (size_t)nw, b->line[b->line_start[PQ_ROW] + l].w,
           (size_t)nw * sizeof(uint64_t));
  e->ngroup = pq_sym_count(b);
  e->image = pq_malloc((size_t)e->ngroup * (size_t)sq * sizeof(int));
  e->preimage = pq_malloc((size_t)e->ngroup * (size_t)sq * sizeof(int));
  for (int g = 0; g < e->ngroup; g++)
    for (int s = 0; s < sq; s++) {
      int t = pq_sym_square(b, (pq_sym)g, s);
      e->image[g * sq + s] = t;
      e->preimage[g * sq + t] = s;
    }
  e->slot_kind = pq_malloc((size_t)(e->total + 1) * sizeof(int));
  e->slot_left = pq_malloc((size_t)(e->total + 1) * sizeof(int));
  for (int i = 0, d = 0; i < n; i++)
    for (int r = e->count[i]; r > 0; r--, d++) {
      e->slot_kind[d] = i;
      e->slot_left[d] = r;
    }
  e->slot_kind[e->total] = n;
  e->slot_left[e->total] = 0;
  e->stack = pq_calloc((size_t)(e->total + 1) * (size_t)(n ? n : 1) * (size_t)nw, sizeof(uint64_t));
  e->occupied = pq_calloc((size_t)(e->total + 1) * (size_t)nw, sizeof(uint64_t));
  e->cells = pq_calloc((size_t)sq, 1);
  e->column = pq_malloc((size_t)sq * sizeof(int));
#ifdef POPCNT_COPY
  __builtin_cpu_init();
  e->fast = __builtin_cpu_supports("popcnt");
#endif
  return e;
}

void pq_pieces_free(pq_pieces *e) {
  if (!e) return;
  pq_calc_free(e->calc);
  free(e->closed);
  free(e->lines);
  free(e->image);
  free(e->preimage);
  free(e->slot_kind);
  free(e->slot_left);
  free(e->stack);
  free(e->occupied);
  free(e->cells);
  free(e->column);
  free(e->split_memo.keys);
  free(e->split_memo.values);
  free(e);
}

const char *pq_pieces_letters(const pq_pieces *e) { return e->letters; }

const char *pq_pieces_spec(const pq_pieces *e) { return e->spec; }

pq_status pq_pieces_check_size(const pq_pieces *e, const char *spec) {
  if (e->bound <= PQ_COUNT_MAX / 8) return PQ_OK;
  pq_error("--pieces \"%s\" on %dx%d: the count could exceed 2^128-1, beyond the 128-bit counts; "
           "refusing",
           spec ? spec : "", e->board->width, e->board->height);
  return PQ_EINVAL;
}

void pq_pieces_set_limits(pq_pieces *e, uint64_t node_limit, double deadline) {
  e->node_limit = node_limit;
  e->deadline = deadline;
}

uint64_t pq_pieces_nodes(const pq_pieces *e) { return e->nodes; }

void pq_pieces_set_poll(pq_pieces *e, pq_pieces_poll_fn poll, void *ctx) {
  e->poll = poll;
  e->poll_ctx = ctx;
  e->polled = e->nodes;
}

/* Starts a run: the open sets of depth 0 are the whole board for every kind. */
void pq_pieces_start(pq_pieces *e) {
  e->status = PQ_OK;
  e->stop = false;
  e->next_check = e->nodes;
  for (int k = 0; k < e->nk; k++)
    memcpy(e->stack + k * e->words, e->board->all.w, (size_t)e->words * sizeof(uint64_t));
}

/* Whether the run may go on; sets the status when a limit or an interrupt stops it. */
bool pq_pieces_keep_going(pq_pieces *e) {
  if (pq_interrupted)
    e->status = PQ_EINTR;
  else if (e->node_limit && e->nodes >= e->node_limit)
    e->status = PQ_ELIMIT;
  else if (e->deadline > 0 && pq_now() > e->deadline)
    e->status = PQ_ELIMIT;
  else if (e->poll) {
    e->status = e->poll(e->poll_ctx, e->nodes - e->polled);
    e->polled = e->nodes;
  }
  e->next_check = e->nodes + CHECK_EVERY;
  if (e->node_limit && e->next_check > e->node_limit) e->next_check = e->node_limit;
  return e->status == PQ_OK;
}

/* Binomial coefficient; the caller knows the result fits (pq_pieces_check_size). */
static pq_count binom(int n, int k) {
  if (k < 0 || k > n) return 0;
  if (k > n - k) k = n - k;
  pq_count c = 1;
  for (int i = 0; i < k; i++) {
    pq_count q = c / (pq_count)(i + 1), r = c % (pq_count)(i + 1);
    c = q * (pq_count)(n - i) + r * (pq_count)(n - i) / (pq_count)(i + 1);
  }
  return c;
}

/* ---- counting ---- */

static pq_count count_fast(pq_pieces *e, int d, unsigned group);
static pq_count count_one(pq_pieces *e, int d, unsigned group);
static pq_count count_many(pq_pieces *e, int d, unsigned group);
static pq_count last_fast(pq_pieces *e, int k, const uint64_t *open, int m);
static pq_count last_one(pq_pieces *e, int k, const uint64_t *open, int m);
static pq_count last_many(pq_pieces *e, int k, const uint64_t *open, int m);
static pq_count split_fast(pq_pieces *e, int k, const uint64_t *open, int m);
static pq_count split_one(pq_pieces *e, int k, const uint64_t *open, int m);
static pq_count split_many(pq_pieces *e, int k, const uint64_t *open, int m);

/* The placements of m pieces of kind k, the last kind, on its open squares. variant: 0 the
   POPCNT copy on one word, 1 one word, 2 several words. */
HOT pq_count last_kind(pq_pieces *e, int k, const uint64_t *open, int m, const int nw,
                       const int variant) {
  int n = popcount(open, nw);
  if (m == 0) return 1;
  if (n < m) return 0;
  if (m == 1) return (pq_count)n;
  if (!lines_room(e, k, open, m, nw)) return 0;
  uint64_t *cached = NULL;
  if (nw == 1 && m == 3) {
    cached = e->cache + 2 * ((open[0] * 0x9e3779b97f4a7c15ull) >> (64 - CACHE_BITS));
    if (cached[0] == open[0]) return (pq_count)cached[1];
  }
  /* d(t): the open squares in conflict with t. edges = sum d / 2, paths of length two (two
     conflicts sharing a square) = sum d (d - 1) / 2. */
  uint64_t degrees = 0, paths = 0;
  for (int w = 0; w < nw; w++)
    for (uint64_t x = open[w]; x; x &= x - 1) {
      const uint64_t *c = closed_to(e, k, k, w * 64 + __builtin_ctzll(x), nw);
      uint64_t dt = 0;
      for (int v = 0; v < nw; v++)
        dt += (uint64_t)__builtin_popcountll(c[v] & open[v]);
      dt--; /* t itself */
      degrees += dt;
      paths += dt * (dt - 1) / 2;
    }
  uint64_t edges = degrees / 2, nn = (uint64_t)n;
  if (m == 2) return (pq_count)(nn * (nn - 1) / 2 - edges);
  if (m == 3) {
    /* Inclusion-exclusion over the conflicts inside a triple: a triple holding one conflict is
       counted once by edges * (n - 2), one holding two (a path) twice, a triangle three times
       and three times again among the paths. */
    uint64_t triangles = 0;
    if (!e->triangle_free[k]) {
      uint64_t after[PQ_WORDS];
      for (int w = 0; w < nw; w++)
        for (uint64_t x = open[w]; x; x &= x - 1) {
          int u = w * 64 + __builtin_ctzll(x);
          const uint64_t *cu = closed_to(e, k, k, u, nw);
          for (int v = 0; v < nw; v++)
            after[v] = v < w ? 0 : cu[v] & open[v];
          after[w] &= x & (x - 1);
          for (int v = 0; v < nw; v++)
            for (uint64_t y = after[v]; y; y &= y - 1) {
              int t = v * 64 + __builtin_ctzll(y);
              const uint64_t *ct = closed_to(e, k, k, t, nw);
              uint64_t beyond = y & (y - 1);
              triangles += (uint64_t)__builtin_popcountll(ct[v] & beyond);
              for (int z = v + 1; z < nw; z++)
                triangles += (uint64_t)__builtin_popcountll(ct[z] & after[z]);
            }
        }
    }
    uint64_t v = nn * (nn - 1) * (nn - 2) / 6 - edges * (nn - 2) + paths - triangles;
    if (cached) {
      cached[0] = open[0];
      cached[1] = v;
    }
    return (pq_count)v;
  }
  if (edges == 0) return binom(n, m);
  if (e->memo_pays[k])
    return variant == 0   ? split_fast(e, k, open, m)
           : variant == 1 ? split_one(e, k, open, m)
                          : split_many(e, k, open, m);
  /* Place the first piece and count the rest. */
  pq_count total = 0;
  int remaining = n;
  uint64_t next[PQ_WORDS];
  for (int w = 0; w < nw; w++)
    for (uint64_t x = open[w]; x; x &= x - 1) {
      if (remaining-- < m) return total;
      if (++e->nodes >= e->next_check && !pq_pieces_keep_going(e)) return 0;
      const uint64_t *c = closed_to(e, k, k, w * 64 + __builtin_ctzll(x), nw);
      for (int v = 0; v < nw; v++)
        next[v] = v < w ? 0 : open[v] & ~c[v];
      next[w] &= x & (x - 1);
      total += variant == 0   ? last_fast(e, k, next, m - 1)
               : variant == 1 ? last_one(e, k, next, m - 1)
                              : last_many(e, k, next, m - 1);
      if (e->status) return 0;
    }
  return total;
}

/* Four or more pieces of the last kind on open squares with conflicts: the placements without
   the first open square t plus those with a piece on t, memoised on (open set, pieces). Short
   range pieces meet the same open sets again and again (a piece closes squares near it only),
   so that this counts knights on a 4x32 board, say, beyond 2^64. */
HOT pq_count split_body(pq_pieces *e, int k, const uint64_t *open, int m, const int nw,
                        const int variant) {
  int n = popcount(open, nw);
  if (n < m) return 0;
  if (!lines_room(e, k, open, m, nw)) return 0;
  if (m <= 3)
    return variant == 0   ? last_fast(e, k, open, m)
           : variant == 1 ? last_one(e, k, open, m)
                          : last_many(e, k, open, m);
  uint64_t h;
  pq_count known;
  if (memo_find(&e->split_memo, open, m, &h, &known, nw)) return known;
  int w = 0;
  while (!open[w])
    w++;
  uint64_t low = open[w] & -open[w], without[PQ_WORDS], after[PQ_WORDS];
  const uint64_t *c = closed_to(e, k, k, w * 64 + __builtin_ctzll(open[w]), nw);
  for (int v = 0; v < nw; v++) {
    without[v] = open[v];
    after[v] = open[v] & ~c[v];
  }
  without[w] &= ~low;
  if (++e->nodes >= e->next_check && !pq_pieces_keep_going(e)) return 0;
  pq_count total = variant == 0   ? split_fast(e, k, without, m)
                   : variant == 1 ? split_one(e, k, without, m)
                                  : split_many(e, k, without, m);
  if (e->status) return 0;
  total += variant == 0   ? split_fast(e, k, after, m - 1)
           : variant == 1 ? split_one(e, k, after, m - 1)
                          : split_many(e, k, after, m - 1);
  if (e->status) return 0;
  memo_store(&e->split_memo, h, open, m, total, nw);
  return total;
}

/* The last piece of kind p = nk - 2 on its open squares b, times the placements of the last
   kind on what that piece leaves open of y. */
HOT pq_count last_two(pq_pieces *e, const uint64_t *b, const uint64_t *y, const int nw,
                      const int variant) {
  int p = e->nk - 2, l = e->nk - 1, m = e->count[l];
  int nb = popcount(b, nw), ny = popcount(y, nw);
  e->nodes += (uint64_t)nb;
  if (e->nodes >= e->next_check && !pq_pieces_keep_going(e)) return 0;
  if (nb == 0 || ny < m) return 0;
  if (m == 1) {
    /* Pairs of squares minus the pairs in conflict, found from the smaller side. */
    uint64_t conflicts = 0;
    const uint64_t *from = nb <= ny ? b : y, *to = nb <= ny ? y : b;
    int i = nb <= ny ? p : l, j = nb <= ny ? l : p;
    for (int w = 0; w < nw; w++)
      for (uint64_t x = from[w]; x; x &= x - 1) {
        const uint64_t *c = closed_to(e, i, j, w * 64 + __builtin_ctzll(x), nw);
        for (int v = 0; v < nw; v++)
          conflicts += (uint64_t)__builtin_popcountll(c[v] & to[v]);
      }
    return (pq_count)((uint64_t)nb * (uint64_t)ny - conflicts);
  }
  /* Squares of b that close nothing of y all leave the same count: take it once. */
  uint64_t touching[PQ_WORDS] = {0}, rest[PQ_WORDS];
  for (int w = 0; w < nw; w++)
    for (uint64_t x = y[w]; x; x &= x - 1) {
      const uint64_t *c = closed_to(e, l, p, w * 64 + __builtin_ctzll(x), nw);
      for (int v = 0; v < nw; v++)
        touching[v] |= c[v];
    }
  int apart = 0;
  for (int v = 0; v < nw; v++)
    apart += __builtin_popcountll(b[v] & ~touching[v]);
  pq_count total = 0;
  if (apart) total = (pq_count)apart * last_kind(e, l, y, m, nw, variant);
  for (int w = 0; w < nw; w++)
    for (uint64_t x = b[w] & touching[w]; x; x &= x - 1) {
      const uint64_t *c = closed_to(e, p, l, w * 64 + __builtin_ctzll(x), nw);
      for (int v = 0; v < nw; v++)
        rest[v] = y[v] & ~c[v];
      total += last_kind(e, l, rest, m, nw, variant);
      if (e->status) return 0;
    }
  return total;
}

/* Whether set a (a kind's squares) is the smallest of its images under the symmetries in group
   (bit g for element g). If so, *stabiliser gets the elements that fix a. */
bool pq_pieces_smallest_image(const pq_pieces *e, const uint64_t *a, unsigned group,
                              unsigned *stabiliser) {
  int nw = e->words;
  uint64_t img[PQ_WORDS];
  *stabiliser = 1;
  for (int g = 1; g < e->ngroup; g++) {
    if (!((group >> g) & 1)) continue;
    memset(img, 0, (size_t)nw * sizeof *img);
    const int *map = e->image + g * e->squares;
    for (int w = 0; w < nw; w++)
      for (uint64_t x = a[w]; x; x &= x - 1) {
        int t = map[w * 64 + __builtin_ctzll(x)];
        img[t >> 6] |= (uint64_t)1 << (t & 63);
      }
    int cmp = 0;
    for (int w = nw - 1; w >= 0 && !cmp; w--)
      cmp = img[w] < a[w] ? -1 : img[w] > a[w];
    if (cmp < 0) return false;
    if (cmp == 0) *stabiliser |= 1u << g;
  }
  return true;
}

/* The placements of the pieces from d on, given the open sets at depth d; group: the
   symmetries not yet broken by the kinds placed (1: the identity alone). */
HOT pq_count count_body(pq_pieces *e, int d, unsigned group, const int nw, const int variant) {
  int k = e->slot_kind[d], r = e->slot_left[d], nk = e->nk;
  uint64_t *open = e->stack + (size_t)d * (size_t)nk * (size_t)nw, *next = open + nk * nw;
  if (k == nk - 1)
    return variant == 0   ? last_fast(e, k, open + k * nw, r)
           : variant == 1 ? last_one(e, k, open + k * nw, r)
                          : last_many(e, k, open + k * nw, r);
  if (k == nk - 2 && r == 1) return last_two(e, open + k * nw, open + (k + 1) * nw, nw, variant);
  const uint64_t *mine = open + k * nw;
  uint64_t *occupied = e->occupied + (size_t)d * (size_t)nw, *occupied_next = occupied + nw;
  bool first = r == e->count[k], breaking = group != 1;
  int remaining = popcount(mine, nw);
  pq_count total = 0;
  for (int w = 0; w < nw; w++)
    for (uint64_t x = mine[w]; x; x &= x - 1) {
      if (remaining-- < r) return total;
      int s = w * 64 + __builtin_ctzll(x);
      if (++e->nodes >= e->next_check && !pq_pieces_keep_going(e)) return 0;
      if (!place_next(e, k, nk, s, w, x, r, mine, open, next, nw)) continue;
      unsigned subgroup;
      pq_count weight;
      if (!orbit_step(e, breaking, first, occupied, occupied_next, w, x, r, group, &subgroup,
                      &weight, nw))
        continue;
      pq_count sub = variant == 0   ? count_fast(e, d + 1, subgroup)
                     : variant == 1 ? count_one(e, d + 1, subgroup)
                                    : count_many(e, d + 1, subgroup);
      if (e->status) return 0;
      total += weight * sub;
    }
  return total;
}

#ifdef POPCNT_COPY
__attribute__((target("popcnt"))) static pq_count count_fast(pq_pieces *e, int d, unsigned group) {
  return count_body(e, d, group, 1, 0);
}
__attribute__((target("popcnt"))) static pq_count last_fast(pq_pieces *e, int k,
                                                            const uint64_t *open, int m) {
  return last_kind(e, k, open, m, 1, 0);
}
__attribute__((target("popcnt"))) static pq_count split_fast(pq_pieces *e, int k,
                                                             const uint64_t *open, int m) {
  return split_body(e, k, open, m, 1, 0);
}
#else
static pq_count count_fast(pq_pieces *e, int d, unsigned group) {
  return count_body(e, d, group, 1, 1);
}
static pq_count last_fast(pq_pieces *e, int k, const uint64_t *open, int m) {
  return last_kind(e, k, open, m, 1, 1);
}
static pq_count split_fast(pq_pieces *e, int k, const uint64_t *open, int m) {
  return split_body(e, k, open, m, 1, 1);
}
#endif
static pq_count count_one(pq_pieces *e, int d, unsigned group) {
  return count_body(e, d, group, 1, 1);
}
static pq_count last_one(pq_pieces *e, int k, const uint64_t *open, int m) {
  return last_kind(e, k, open, m, 1, 1);
}
static pq_count count_many(pq_pieces *e, int d, unsigned group) {
  return count_body(e, d, group, e->words, 2);
}
static pq_count last_many(pq_pieces *e, int k, const uint64_t *open, int m) {
  return last_kind(e, k, open, m, e->words, 2);
}
static pq_count split_one(pq_pieces *e, int k, const uint64_t *open, int m) {
  return split_body(e, k, open, m, 1, 1);
}
static pq_count split_many(pq_pieces *e, int k, const uint64_t *open, int m) {
  return split_body(e, k, open, m, e->words, 2);
}

pq_status pq_pieces_count(pq_pieces *e, bool use_symmetry, pq_count *count) {
  pq_status rc = pq_pieces_check_size(e, e->spec);
  if (rc) return rc;
  if (e->nk == 0) {
    *count = 1;
    return PQ_OK;
  }
  pq_pieces_start(e);
  unsigned group = use_symmetry ? (1u << e->ngroup) - 1 : 1;
  pq_count c = e->words > 1 ? count_many(e, 0, group)
               : e->fast    ? count_fast(e, 0, group)
                            : count_one(e, 0, group);
  if (e->status == PQ_OK) *count = c;
  return e->status;
}

void pq_pieces_memo_resize(memo *mm, int bits, int nw) {
  size_t n = (size_t)nw + 1, old = mm->keys ? (size_t)1 << mm->bits : 0;
  uint64_t *keys = mm->keys;
  pq_count *values = mm->values;
  mm->bits = bits;
  mm->used = 0;
  mm->keys = pq_calloc((size_t)1 << bits, n * sizeof(uint64_t));
  mm->values = pq_malloc(((size_t)1 << bits) * sizeof(pq_count));
  for (size_t i = 0; i < old; i++) {
    const uint64_t *key = keys + i * n;
    if (!key[nw]) continue;
    size_t slot = (size_t)(memo_hash(key, (int)key[nw], nw) >> (64 - bits));
    uint64_t *to = mm->keys + slot * n;
    if (!to[nw]) mm->used++;
    memcpy(to, key, n * sizeof(uint64_t));
    mm->values[slot] = values[i];
  }
  free(keys);
  free(values);
}

pq_count pq_pieces_count_from(pq_pieces *e, int d, unsigned group) {
  return e->words > 1 ? count_many(e, d, group)
         : e->fast    ? count_fast(e, d, group)
                      : count_one(e, d, group);
}
