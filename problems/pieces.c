/* pieces.c: anarchist pieces (no colours): count and list placements where none attacks another. */
#include "pieces.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/config.h"
#include "../src/placement.h"
#include "../src/problem.h"
#include "../src/progress.h"
#include "../src/svg.h"
#include "pieces_parts.h"

pq_status pq_pieces_parse(const char *spec, int squares, int counts[PQ_NPIECES]) {
  memset(counts, 0, PQ_NPIECES * sizeof *counts);
  bool seen[PQ_NPIECES] = {false};
  if (!spec || !*spec) {
    pq_error("pieces \"\": expected letters K Q R B N each followed by a count, e.g. K2Q2B2N1");
    return PQ_EINVAL;
  }
  long total = 0;
  for (const char *p = spec; *p;) {
    int piece = pq_piece_from_letter((unsigned char)*p);
    if (piece < 0) {
      pq_error("pieces \"%s\": unknown piece '%c' (expected K Q R B N)", spec, *p);
      return PQ_EINVAL;
    }
    if (seen[piece]) {
      pq_error("pieces \"%s\": piece '%c' given twice", spec, *p);
      return PQ_EINVAL;
    }
    seen[piece] = true;
    p++;
    long n = 1;
    if (*p == '-' || *p == '+') {
      pq_error("pieces \"%s\": the count after '%c' must be a whole number from 0 to %d", spec,
               p[-1], squares);
      return PQ_EINVAL;
    }
    if (isdigit((unsigned char)*p)) {
      n = 0;
      while (isdigit((unsigned char)*p)) {
        if (n <= squares) n = n * 10 + (*p - '0');
        p++;
      }
      if (n > squares) {
        pq_error("pieces \"%s\": count %s%ld for '%c' exceeds the board's %d squares", spec,
                 n > 99999 ? "over " : "", n > 99999 ? 99999L : n, pq_piece_letters[piece],
                 squares);
        return PQ_EINVAL;
      }
    }
    counts[piece] = (int)n;
    total += n;
  }
  if (total > squares) {
    pq_error("pieces \"%s\": %ld pieces do not fit on %d squares", spec, total, squares);
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

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(__POPCNT__)
#define POPCNT_COPY 1
#endif

#define HOT static inline __attribute__((always_inline))

/* Slots of the cache of three last pieces: 2^CACHE_BITS (64 KB). */
#define CACHE_BITS 12

/* Limits are checked every this many nodes. */
#define CHECK_EVERY 16384

/* The most memory the memo of the last kind may take. */
#define MEMO_BYTES ((size_t)32 << 20)

/* A memo of counts: entries (open set, pieces) -> placements in a direct-mapped table that
   doubles while more than half full, up to MEMO_BYTES; allocated on first use. keys[slot *
   (words + 1)] holds an open set and then its pieces (0: an empty slot). */
typedef struct memo {
  int bits;
  size_t used; /* slots filled */
  uint64_t *keys;
  pq_count *values;
} memo;

struct pq_pieces {
  const pq_board *board;
  pq_calc *calc;
  int nk;                     /* kinds (piece types present), in search order */
  int squares, words, total;  /* total: pieces to place */
  int count[PQ_MAX_KINDS];    /* pieces of search kind i */
  uint8_t code[PQ_MAX_KINDS]; /* the cell code of search kind i */
  char letters[PQ_NPIECES + 1];
  char spec[64];                    /* the pieces as a spec, e.g. "K2Q2B2N1" */
  bool triangle_free[PQ_MAX_KINDS]; /* no three squares pairwise in conflict for kind i */
  bool memo_pays[PQ_MAX_KINDS];     /* the last kind's count is memoised (see split_body) */
  bool on_lines[PQ_MAX_KINDS];      /* queens and rooks: one a row and one a column */
  uint64_t *lines;                  /* the rows, then the columns, words each */
  pq_count bound;                   /* an upper bound on the count (saturated) */
  /* closed[((i * nk + j) * squares + s) * words ...]: the squares a kind-i piece on s closes to
     kind j, s included (the calculus' forbidden set). The relation is symmetric: t is closed to
     j by i on s exactly when s is closed to i by j on t. */
  uint64_t *closed;
  const uint64_t *closed_by[PQ_MAX_KINDS * PQ_MAX_KINDS]; /* (i, j) -> their part of closed */
  int ngroup;                                             /* symmetries of the board */
  int *image;    /* image[g * squares + s]: square s under symmetry g */
  int *preimage; /* preimage[g * squares + t]: the square that g maps to t */
  bool fast;     /* the POPCNT copy may run */
  /* The search's state. */
  int *slot_kind, *slot_left; /* the kind of piece d, and its kind's pieces left from d on */
  uint64_t *stack;            /* open sets by depth: ((total + 1) * nk) * words */
  uint64_t *occupied;         /* the current kind's squares by depth: (total + 1) * words */
  uint64_t nodes, node_limit, next_check;
  double deadline;
  pq_status status;
  pq_pieces_poll_fn poll; /* asked every CHECK_EVERY nodes whether to go on, or NULL */
  void *poll_ctx;
  uint64_t polled; /* nodes already passed to poll */
  /* Listing. */
  const pq_pieces_listing *listing;
  pq_pieces_listed *listed;
  uint8_t *cells;
  char *line; /* prefix, placement text, suffix, newline */
  size_t line_len;
  int *column; /* column[s]: the offset of square s in line */
  char *buf;   /* output buffer */
  size_t fill;
  bool stop;       /* the limit or the callback ended the listing */
  bool plain_text; /* every placement is listed and only written */
  memo split_memo; /* the last kind's split */
  /* Three pieces of the last kind on one word: (open set, count) pairs, direct-mapped. The last
     kind's open sets recur often (a piece of another kind far from them closes none). */
  uint64_t cache[2 << CACHE_BITS];
};

enum { OUT_BUF = 1 << 20 };

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

static inline const uint64_t *closed_to(const pq_pieces *e, int i, int j, int s, int nw) {
  return e->closed_by[i * PQ_MAX_KINDS + j] + (size_t)s * (size_t)nw;
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
    for (int i = 0; i < n; i++) {
      /* A triangle is a pair in conflict with a common neighbour after both. */
      bool found = false;
      for (int u = 0; u < sq && !found; u++)
        for (int v = u + 1; v < sq && !found; v++) {
          const uint64_t *cu = closed_to(e, i, i, u, nw), *cv = closed_to(e, i, i, v, nw);
          if (!((cu[v >> 6] >> (v & 63)) & 1)) continue;
          for (int w = 0; w < nw && !found; w++) {
            uint64_t both = cu[w] & cv[w];
            for (; both && !found; both &= both - 1)
              found = w * 64 + __builtin_ctzll(both) > v;
          }
        }
      e->triangle_free[i] = !found;
    }
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
  pq_error("pieces \"%s\" on %dx%d: the count could exceed 2^128-1, beyond the 128-bit counts; "
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
static void start(pq_pieces *e) {
  e->status = PQ_OK;
  e->stop = false;
  e->next_check = e->nodes;
  for (int k = 0; k < e->nk; k++)
    memcpy(e->stack + k * e->words, e->board->all.w, (size_t)e->words * sizeof(uint64_t));
}

/* Whether the run may go on; sets the status when a limit or an interrupt stops it. */
static bool keep_going(pq_pieces *e) {
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

/* ---- set operations on nw words (nw is a constant where it matters) ---- */

HOT int popcount(const uint64_t *a, int nw) {
  int n = 0;
  for (int w = 0; w < nw; w++)
    n += __builtin_popcountll(a[w]);
  return n;
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

/* Whether m pieces of kind k still fit on its open squares as far as lines tell: a queen or a
   rook attacks along its row and its column, so each needs a row and a column of its own. */
HOT bool lines_room(const pq_pieces *e, int k, const uint64_t *open, int m, const int nw) {
  if (!e->on_lines[k] || m < 2) return true;
  const pq_board *b = e->board;
  for (int from = 0, to = b->height; from < b->height + b->width; from = to, to += b->width) {
    int lines = 0;
    for (int l = from; l < to && lines < m; l++) {
      const uint64_t *line = e->lines + (size_t)l * (size_t)nw;
      for (int w = 0; w < nw; w++)
        if (open[w] & line[w]) {
          lines++;
          break;
        }
    }
    if (lines < m) return false;
  }
  return true;
}

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
      if (++e->nodes >= e->next_check && !keep_going(e)) return 0;
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

HOT uint64_t memo_hash(const uint64_t *open, int m, const int nw) {
  uint64_t h = (uint64_t)m * 0x9e3779b97f4a7c15ull;
  for (int w = 0; w < nw; w++)
    h = (h ^ open[w]) * 0xff51afd7ed558ccdull;
  return h ^ (h >> 29);
}

static void memo_resize(memo *mm, int bits, int nw) {
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

/* Whether (open, m) is in the memo, with its count in *value; *hash gets its hash for
   memo_store. */
HOT bool memo_find(memo *mm, const uint64_t *open, int m, uint64_t *hash, pq_count *value,
                   const int nw) {
  if (!mm->keys) memo_resize(mm, 12, nw);
  *hash = memo_hash(open, m, nw);
  size_t slot = (size_t)(*hash >> (64 - mm->bits));
  const uint64_t *key = mm->keys + slot * (size_t)(nw + 1);
  if (key[nw] != (uint64_t)m) return false;
  for (int w = 0; w < nw; w++)
    if (key[w] != open[w]) return false;
  *value = mm->values[slot];
  return true;
}

HOT void memo_store(memo *mm, uint64_t hash, const uint64_t *open, int m, pq_count value,
                    const int nw) {
  size_t slot = (size_t)(hash >> (64 - mm->bits));
  uint64_t *key = mm->keys + slot * (size_t)(nw + 1);
  if (!key[nw] && ++mm->used * 2 > (size_t)1 << mm->bits &&
      (((size_t)nw + 1) * sizeof(uint64_t) + sizeof(pq_count)) << (mm->bits + 1) <= MEMO_BYTES) {
    memo_resize(mm, mm->bits + 1, nw);
    slot = (size_t)(hash >> (64 - mm->bits));
    key = mm->keys + slot * (size_t)(nw + 1);
    if (!key[nw]) mm->used++;
  }
  for (int v = 0; v < nw; v++)
    key[v] = open[v];
  key[nw] = (uint64_t)m;
  mm->values[slot] = value;
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
  if (++e->nodes >= e->next_check && !keep_going(e)) return 0;
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
  if (e->nodes >= e->next_check && !keep_going(e)) return 0;
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
static bool smallest_image(const pq_pieces *e, const uint64_t *a, unsigned group,
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
      if (++e->nodes >= e->next_check && !keep_going(e)) return 0;
      const uint64_t *c = closed_to(e, k, k, s, nw);
      for (int v = 0; v < nw; v++)
        next[k * nw + v] = v < w ? 0 : mine[v] & ~c[v];
      next[k * nw + w] &= x & (x - 1);
      if (popcount(next + k * nw, nw) < r - 1 || !lines_room(e, k, next + k * nw, r - 1, nw))
        continue;
      bool room = true;
      for (int j = k + 1; j < nk && room; j++) {
        c = closed_to(e, k, j, s, nw);
        for (int v = 0; v < nw; v++)
          next[j * nw + v] = open[j * nw + v] & ~c[v];
        room = popcount(next + j * nw, nw) >= e->count[j] &&
               lines_room(e, j, next + j * nw, e->count[j], nw);
      }
      if (!room) continue;
      unsigned subgroup = group;
      pq_count weight = 1;
      if (breaking) {
        for (int v = 0; v < nw; v++)
          occupied_next[v] = first ? 0 : occupied[v];
        occupied_next[w] |= x & -x;
        if (r == 1) {
          if (!smallest_image(e, occupied_next, group, &subgroup)) continue;
          weight = (pq_count)(__builtin_popcount(group) / __builtin_popcount(subgroup));
        }
      }
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
  start(e);
  unsigned group = use_symmetry ? (1u << e->ngroup) - 1 : 1;
  pq_count c = e->words > 1 ? count_many(e, 0, group)
               : e->fast    ? count_fast(e, 0, group)
                            : count_one(e, 0, group);
  if (e->status == PQ_OK) *count = c;
  return e->status;
}

/* ---- placements fixed by a symmetry ---- */

/* A placement fixed by g is a union of g's cycles of squares, each holding one kind. The search
   places whole cycles, each kind's in increasing order of their first squares; the last kind is
   counted by a memoised split, as in split_body. */
typedef struct cycles {
  int n;
  int *first;   /* first[c]: the smallest square of cycle c */
  int *size;    /* squares in cycle c */
  int *squares; /* squares[4 * c ...]: the squares of cycle c */
  int *of;      /* of[s]: the cycle holding s */
  bool *fits;   /* fits[c * nk + i]: no two squares of c conflict for kind i */
  memo memo;    /* of the last kind */
} cycles;

/* Whether cycle c may hold kind k given its open squares: c starts at s, fits, and every one of
   its squares is open. */
static bool cycle_open(const pq_pieces *e, const cycles *cy, int c, int k, int s,
                       const uint64_t *open) {
  if (cy->first[c] != s || !cy->fits[c * e->nk + k]) return false;
  for (int i = 1; i < cy->size[c]; i++) {
    int t = cy->squares[4 * c + i];
    if (!((open[t >> 6] >> (t & 63)) & 1)) return false;
  }
  return true;
}

/* open minus cycle c and the squares its squares close to kind j, for kind k on c. */
static void close_cycle(const pq_pieces *e, const cycles *cy, int c, int k, int j,
                        const uint64_t *open, uint64_t *out) {
  int nw = e->words;
  for (int v = 0; v < nw; v++)
    out[v] = open[v];
  for (int i = 0; i < cy->size[c]; i++) {
    const uint64_t *f = closed_to(e, k, j, cy->squares[4 * c + i], nw);
    for (int v = 0; v < nw; v++)
      out[v] &= ~f[v];
  }
}

/* The fixed placements of m pieces of the last kind on its open squares. */
static pq_count cycles_last(pq_pieces *e, cycles *cy, const uint64_t *open, int m) {
  int nw = e->words, k = e->nk - 1;
  if (m == 0) return 1;
  if (popcount(open, nw) < m) return 0;
  uint64_t h;
  pq_count known;
  if (memo_find(&cy->memo, open, m, &h, &known, nw)) return known;
  int w = 0;
  while (!open[w])
    w++;
  int s = w * 64 + __builtin_ctzll(open[w]), c = cy->of[s];
  uint64_t without[PQ_WORDS], after[PQ_WORDS];
  /* Both branches drop the whole cycle: the open sets stay unions of cycles (the squares a
     cycle closes form a union of cycles too), so the memo meets the same sets again. */
  memcpy(without, open, (size_t)nw * sizeof *without);
  for (int i = 0; i < cy->size[c]; i++) {
    int t = cy->squares[4 * c + i];
    without[t >> 6] &= ~((uint64_t)1 << (t & 63));
  }
  pq_count total = cycles_last(e, cy, without, m);
  if (e->status) return 0;
  if (cy->size[c] <= m && cycle_open(e, cy, c, k, s, open)) {
    if (++e->nodes >= e->next_check && !keep_going(e)) return 0;
    close_cycle(e, cy, c, k, k, open, after);
    total += cycles_last(e, cy, after, m - cy->size[c]);
    if (e->status) return 0;
  }
  memo_store(&cy->memo, h, open, m, total, nw);
  return total;
}

static pq_count count_cycles(pq_pieces *e, cycles *cy, int d, int k, int left) {
  int nk = e->nk, nw = e->words;
  uint64_t *open = e->stack + (size_t)d * (size_t)nk * (size_t)nw, *next = open + nk * nw;
  if (left == 0) {
    if (++k == nk) return 1;
    left = e->count[k];
  }
  if (k == nk - 1) return cycles_last(e, cy, open + k * nw, left);
  pq_count total = 0;
  for (int w = 0; w < nw; w++)
    for (uint64_t x = open[k * nw + w]; x; x &= x - 1) {
      int s = w * 64 + __builtin_ctzll(x), c = cy->of[s];
      if (cy->size[c] > left || !cycle_open(e, cy, c, k, s, open + k * nw)) continue;
      if (++e->nodes >= e->next_check && !keep_going(e)) return 0;
      bool room = true;
      for (int j = k; j < nk && room; j++) {
        close_cycle(e, cy, c, k, j, open + j * nw, next + j * nw);
        /* Later cycles of this kind start after s, and all their squares do too. */
        if (j == k)
          for (int v = 0; v < nw; v++)
            next[k * nw + v] &= v < w ? 0 : v > w ? ~(uint64_t)0 : x & (x - 1);
        room = popcount(next + j * nw, nw) >= (j == k ? left - cy->size[c] : e->count[j]);
      }
      if (!room) continue;
      total += count_cycles(e, cy, d + 1, k, left - cy->size[c]);
      if (e->status) return 0;
    }
  return total;
}

/* The cycles of symmetry g on the board, with the kinds each may hold. Free with cycles_clear. */
static void cycles_init(const pq_pieces *e, pq_sym g, cycles *cy) {
  int sq = e->squares, nk = e->nk;
  memset(cy, 0, sizeof *cy);
  cy->first = pq_malloc((size_t)sq * sizeof(int));
  cy->size = pq_malloc((size_t)sq * sizeof(int));
  cy->squares = pq_malloc((size_t)sq * 4 * sizeof(int));
  cy->of = pq_malloc((size_t)sq * sizeof(int));
  cy->fits = pq_malloc((size_t)sq * (size_t)(nk ? nk : 1) * sizeof(bool));
  for (int s = 0; s < sq; s++)
    cy->of[s] = -1;
  for (int s = 0; s < sq; s++) {
    if (cy->of[s] >= 0) continue;
    int c = cy->n++, n = 0;
    cy->first[c] = s;
    for (int t = s; cy->of[t] < 0; t = e->image[g * sq + t]) {
      PQ_REQUIRE(n < 4, "a symmetry with a cycle longer than 4");
      cy->of[t] = c;
      cy->squares[4 * c + n++] = t;
    }
    cy->size[c] = n;
    for (int k = 0; k < nk; k++) {
      bool fits = true;
      for (int i = 0; i < n && fits; i++)
        for (int j = 0; j < n && fits; j++) {
          int u = cy->squares[4 * c + i], v = cy->squares[4 * c + j];
          fits = i == j || !((closed_to(e, k, k, u, e->words)[v >> 6] >> (v & 63)) & 1);
        }
      cy->fits[c * nk + k] = fits;
    }
  }
}

static void cycles_clear(cycles *cy) {
  free(cy->first);
  free(cy->size);
  free(cy->squares);
  free(cy->of);
  free(cy->fits);
  free(cy->memo.keys);
  free(cy->memo.values);
  memset(cy, 0, sizeof *cy);
}

pq_status pq_pieces_count_fixed(pq_pieces *e, pq_sym g, pq_count *count) {
  pq_status rc = pq_pieces_check_size(e, e->spec);
  if (rc) return rc;
  PQ_REQUIRE((int)g >= 0 && (int)g < e->ngroup, "symmetry %d not valid on a %dx%d board", (int)g,
             e->board->width, e->board->height);
  if (e->nk == 0) {
    *count = 1;
    return PQ_OK;
  }
  cycles cy;
  cycles_init(e, g, &cy);
  start(e);
  pq_count c = count_cycles(e, &cy, 0, 0, e->count[0]);
  cycles_clear(&cy);
  if (e->status == PQ_OK) *count = c;
  return e->status;
}

pq_status pq_pieces_count_unique(pq_pieces *e, pq_count total, pq_count *unique) {
  pq_count sum = total;
  for (int g = 1; g < e->ngroup; g++) {
    pq_count fixed;
    pq_status rc = pq_pieces_count_fixed(e, (pq_sym)g, &fixed);
    if (rc) return rc;
    /* No wrap: each term is at most the count, below 2^128 / 8 (pq_pieces_check_size). */
    sum += fixed;
  }
  PQ_REQUIRE(sum % (pq_count)e->ngroup == 0, "Burnside's sum is not a multiple of the group");
  *unique = sum / (pq_count)e->ngroup;
  return PQ_OK;
}

/* ---- parts ---- */

static pq_count list_part(pq_pieces *e, int d);

/* A count splits into parts, for threads, --part and checkpoints. The search's tree is cut at a
   depth: each node there is a part, and so is a placement complete above it (the fixed
   placements' searches place whole cycles, and may finish early), numbered in the search's order.
   A walk above the cut makes the search's own choices, with its pruning and its symmetry
   breaking, and hands each part it is asked for to the search itself, weighed by the orbit sizes
   met above the cut: a part is counted as one run counts it, and the parts' counts add up to the
   count. The walk places the last kind's pieces one by one too (the search counts them in closed
   form), so that one kind alone, queens say, splits as well. With unique, Burnside's other terms
   follow the count: for each symmetry other than the identity, the search of the placements it
   fixes, cut the same way. A listing splits as the count does without symmetry breaking: its
   parts come in the listing's order, each listed by the listing's own search. The walks
   themselves count no nodes; choosing the cut walks the top of the tree a few times (about a
   second on 32x32 queens, milliseconds on boards of up to 10x10). */

/* The count is cut at the least depth giving at least COUNT_PARTS parts (thousands, so that
   threads and machines balance), the fixed placements' searches at FIXED_PARTS (they take a few
   percent of the count's time on the boards measured); never where a cut gives more than
   MAX_PARTS. */
#define COUNT_PARTS 4096
#define FIXED_PARTS 64
#define MAX_PARTS 65536

typedef struct split_search {
  int sym;        /* 0: the count (weighed by orbits); g > 0: the placements g fixes */
  unsigned group; /* the count's symmetries: all, or the identity alone for a listing */
  int depth;      /* the cut: pieces (cycles for g) placed above it */
  uint64_t first; /* the number of its first part */
  uint64_t parts;
} split_search;

struct pq_pieces_split {
  int nsearch;
  split_search search[PQ_NSYMS];
  uint64_t parts, id;
};

/* A walk of one search above its cut. */
typedef struct walk {
  int depth;
  uint64_t index; /* the number of the next part met */
  uint64_t end;   /* the search's last part + 1 */
  uint64_t want;  /* the part to count next (UINT64_MAX: none) */
  bool counting;  /* only number the parts (and fingerprint them if hashing) */
  bool hashing;
  bool listing; /* list the parts (pq_pieces_split_list) rather than count them */
  bool over;    /* nothing more to do in this search */
  uint64_t hash;
  cycles *cy; /* the fixed placements' search, or NULL for the count */
  const pq_pieces_worker *worker;
  int path[PQ_MAX_SQUARES]; /* the squares placed by the walk, by depth */
} walk;

#define fnv pq_fnv

static pq_count count_from(pq_pieces *e, int d, unsigned group) {
  return e->words > 1 ? count_many(e, d, group)
         : e->fast    ? count_fast(e, d, group)
                      : count_one(e, d, group);
}

/* A part, d pieces (or cycles) placed: numbers it, and counts it when it is the one wanted.
   group and weight (the count), or k and left (a fixed placements' search) say where the search
   takes over. */
static void part_met(pq_pieces *e, walk *wk, int d, unsigned group, pq_count weight, int k,
                     int left) {
  uint64_t i = wk->index++;
  if (wk->counting) {
    if (wk->hashing) {
      wk->hash = fnv(wk->hash, (uint64_t)d);
      for (int j = 0; j < d; j++)
        wk->hash = fnv(wk->hash, (uint64_t)wk->path[j]);
    }
    if (wk->index > MAX_PARTS) wk->over = true;
    return;
  }
  if (i != wk->want) return;
  uint64_t before = e->nodes;
  pq_count c;
  if (wk->listing) {
    c = list_part(e, d);
  } else {
    c = e->nk == 0 ? 1 : wk->cy ? count_cycles(e, wk->cy, d, k, left) : count_from(e, d, group);
  }
  if (e->status || e->stop) return;
  const pq_pieces_worker *w = wk->worker;
  w->done(w->ctx, i, weight * c, e->nodes - before);
  wk->want = w->next(w->ctx);
  PQ_REQUIRE(wk->want > i, "part %llu asked for after part %llu", (unsigned long long)wk->want,
             (unsigned long long)i);
  if (wk->want >= wk->end) wk->over = true;
}

/* The count's walk: count_body's choices, pruning and symmetry breaking above the cut. */
static void walk_count(pq_pieces *e, walk *wk, int d, unsigned group, pq_count weight) {
  if (d == wk->depth || e->nk == 0) {
    part_met(e, wk, d, group, weight, 0, 0);
    return;
  }
  int nw = e->words, nk = e->nk, k = e->slot_kind[d], r = e->slot_left[d];
  uint64_t *open = e->stack + (size_t)d * (size_t)nk * (size_t)nw, *next = open + nk * nw;
  const uint64_t *mine = open + k * nw;
  uint64_t *occupied = e->occupied + (size_t)d * (size_t)nw, *occupied_next = occupied + nw;
  /* The search counts the last kind in closed form, over all its placements: no symmetry. */
  bool first = r == e->count[k], breaking = group != 1 && k < nk - 1;
  int remaining = popcount(mine, nw);
  for (int w = 0; w < nw; w++)
    for (uint64_t x = mine[w]; x; x &= x - 1) {
      if (remaining-- < r) return;
      int s = w * 64 + __builtin_ctzll(x);
      const uint64_t *c = closed_to(e, k, k, s, nw);
      for (int v = 0; v < nw; v++)
        next[k * nw + v] = v < w ? 0 : mine[v] & ~c[v];
      next[k * nw + w] &= x & (x - 1);
      if (popcount(next + k * nw, nw) < r - 1 || !lines_room(e, k, next + k * nw, r - 1, nw))
        continue;
      bool room = true;
      for (int j = k + 1; j < nk && room; j++) {
        c = closed_to(e, k, j, s, nw);
        for (int v = 0; v < nw; v++)
          next[j * nw + v] = open[j * nw + v] & ~c[v];
        room = popcount(next + j * nw, nw) >= e->count[j] &&
               lines_room(e, j, next + j * nw, e->count[j], nw);
      }
      if (!room) continue;
      unsigned subgroup = group;
      pq_count orbit = 1;
      if (breaking) {
        for (int v = 0; v < nw; v++)
          occupied_next[v] = first ? 0 : occupied[v];
        occupied_next[w] |= x & -x;
        if (r == 1) {
          if (!smallest_image(e, occupied_next, group, &subgroup)) continue;
          orbit = (pq_count)(__builtin_popcount(group) / __builtin_popcount(subgroup));
        }
      }
      wk->path[d] = s;
      if (wk->listing) {
        e->cells[s] = e->code[k];
        e->line[e->column[s]] = e->letters[e->code[k] - 1];
      }
      walk_count(e, wk, d + 1, subgroup, weight * orbit);
      if (wk->listing) {
        e->cells[s] = 0;
        e->line[e->column[s]] = '.';
      }
      if (e->status || wk->over || e->stop) return;
    }
}

/* A fixed placements' walk: count_cycles' choices above the cut, the last kind's cycles placed
   in the same way as the others'. */
static void walk_cycles(pq_pieces *e, walk *wk, int d, int k, int left) {
  int nk = e->nk, nw = e->words, kind = k, need = left;
  if (need == 0 && kind < nk && ++kind < nk) need = e->count[kind];
  if (d == wk->depth || kind >= nk) {
    part_met(e, wk, d, 1, 1, k, left);
    return;
  }
  const cycles *cy = wk->cy;
  uint64_t *open = e->stack + (size_t)d * (size_t)nk * (size_t)nw, *next = open + nk * nw;
  for (int w = 0; w < nw; w++)
    for (uint64_t x = open[kind * nw + w]; x; x &= x - 1) {
      int s = w * 64 + __builtin_ctzll(x), c = cy->of[s];
      if (cy->size[c] > need || !cycle_open(e, cy, c, kind, s, open + kind * nw)) continue;
      bool room = true;
      for (int j = kind; j < nk && room; j++) {
        close_cycle(e, cy, c, kind, j, open + j * nw, next + j * nw);
        if (j == kind)
          for (int v = 0; v < nw; v++)
            next[kind * nw + v] &= v < w ? 0 : v > w ? ~(uint64_t)0 : x & (x - 1);
        room = popcount(next + j * nw, nw) >= (j == kind ? need - cy->size[c] : e->count[j]);
      }
      if (!room) continue;
      wk->path[d] = s;
      walk_cycles(e, wk, d + 1, kind, need - cy->size[c]);
      if (e->status || wk->over) return;
    }
}

/* Walks search ss (its cycles in cy when it is a fixed placements' search) from the start. */
static void walk_search(pq_pieces *e, walk *wk, const split_search *ss) {
  start(e);
  if (ss->sym)
    walk_cycles(e, wk, 0, 0, e->count[0]);
  else
    walk_count(e, wk, 0, ss->group, 1);
}

/* Numbers the parts of ss cut at ss->depth: their number (beyond MAX_PARTS: MAX_PARTS + 1), and
   with hash, their fingerprint mixed into *hash. */
static uint64_t number_parts(pq_pieces *e, const split_search *ss, cycles *cy, uint64_t *hash) {
  walk *wk = pq_calloc(1, sizeof *wk);
  wk->depth = ss->depth;
  wk->counting = true;
  wk->hashing = hash != NULL;
  wk->hash = hash ? *hash : 0;
  wk->want = wk->end = UINT64_MAX;
  wk->cy = cy;
  walk_search(e, wk, ss);
  uint64_t n = wk->index;
  if (hash) *hash = wk->hash;
  free(wk);
  return n;
}

/* The split of the count (with unique, and its other terms), or of the listing's search. */
static pq_pieces_split *split_new(pq_pieces *e, bool unique, bool listing) {
  pq_pieces_split *sp = pq_calloc(1, sizeof *sp);
  /* The fingerprint: what the parts depend on, and every part's squares. */
  uint64_t h = fnv(PQ_FNV_BASIS, 0x7069656365730001u); /* "pieces", version 1 */
  h = fnv(h, (uint64_t)e->board->width);
  h = fnv(h, (uint64_t)e->board->height);
  for (int k = 0; k < e->nk; k++)
    h = fnv(fnv(h, (uint64_t)(unsigned char)e->letters[e->code[k] - 1]), (uint64_t)e->count[k]);
  h = fnv(fnv(h, unique), listing);
  sp->nsearch = unique ? e->ngroup : 1;
  for (int i = 0; i < sp->nsearch; i++) {
    split_search *ss = &sp->search[i];
    ss->sym = i;
    ss->group = listing ? 1 : (1u << e->ngroup) - 1;
    cycles cy;
    if (i) cycles_init(e, (pq_sym)i, &cy);
    int deepest = i ? e->total : e->total - 1;
    uint64_t best = 0, target = i ? FIXED_PARTS : COUNT_PARTS;
    int best_depth = 0;
    for (ss->depth = 0; ss->depth <= deepest; ss->depth++) {
      uint64_t n = number_parts(e, ss, i ? &cy : NULL, NULL);
      if (n > MAX_PARTS) break;
      if (n > best) best = n, best_depth = ss->depth;
      if (n >= target) break;
    }
    ss->depth = best_depth;
    h = fnv(fnv(h, (uint64_t)i), (uint64_t)ss->depth);
    ss->parts = number_parts(e, ss, i ? &cy : NULL, &h);
    ss->first = sp->parts;
    sp->parts += ss->parts;
    h = fnv(h, ss->parts);
    if (i) cycles_clear(&cy);
  }
  sp->id = h;
  return sp;
}

pq_pieces_split *pq_pieces_split_new(pq_pieces *e, bool unique) {
  return split_new(e, unique, false);
}

void pq_pieces_split_free(pq_pieces_split *sp) { free(sp); }

uint64_t pq_pieces_split_parts(const pq_pieces_split *sp) { return sp->parts; }

uint64_t pq_pieces_split_id(const pq_pieces_split *sp) { return sp->id; }

bool pq_pieces_split_fixed(const pq_pieces_split *sp, uint64_t part) {
  PQ_REQUIRE(part < sp->parts, "no part %llu", (unsigned long long)part);
  return part >= sp->search[0].parts;
}

/* Counts (or lists) the parts worker asks for. */
static pq_status split_run(pq_pieces *e, const pq_pieces_split *sp, const pq_pieces_worker *worker,
                           bool listing) {
  pq_status rc = PQ_OK;
  uint64_t want = worker->next(worker->ctx);
  walk *wk = pq_malloc(sizeof *wk);
  for (int i = 0; i < sp->nsearch && want < sp->parts && rc == PQ_OK; i++) {
    const split_search *ss = &sp->search[i];
    if (want >= ss->first + ss->parts) continue;
    memset(wk, 0, offsetof(walk, path));
    wk->depth = ss->depth;
    wk->index = ss->first;
    wk->end = ss->first + ss->parts;
    wk->want = want;
    wk->worker = worker;
    wk->listing = listing;
    cycles cy;
    if (ss->sym) {
      cycles_init(e, (pq_sym)ss->sym, &cy);
      wk->cy = &cy;
    }
    walk_search(e, wk, ss);
    if (ss->sym) cycles_clear(&cy);
    rc = e->status;
    if (e->stop) break;
    PQ_REQUIRE(rc != PQ_OK || wk->want >= wk->end, "part %llu not met in the walk",
               (unsigned long long)wk->want);
    want = wk->want;
  }
  free(wk);
  return rc;
}

pq_status pq_pieces_split_run(pq_pieces *e, const pq_pieces_split *sp,
                              const pq_pieces_worker *worker) {
  pq_status rc = pq_pieces_check_size(e, e->spec);
  if (rc) return rc;
  PQ_REQUIRE(sp->search[0].group != 1, "a listing's split given to a count");
  return split_run(e, sp, worker, false);
}

/* ---- listing ---- */

/* Whether the placement in e->cells is its own canonical form: no image under the group is
   lexicographically smaller (the order of pq_sym_canonical). */
static bool canonical(const pq_pieces *e) {
  const uint8_t *cells = e->cells;
  for (int g = 1; g < e->ngroup; g++) {
    const int *pre = e->preimage + g * e->squares;
    for (int t = 0; t < e->squares; t++) {
      uint8_t a = cells[pre[t]], b = cells[t];
      if (a != b) {
        if (a < b) return false;
        break;
      }
    }
  }
  return true;
}

static void flush(pq_pieces *e) {
  const pq_pieces_listing *l = e->listing;
  if (e->fill && l->write) {
    if (l->write(l->write_ctx, e->buf, e->fill)) e->stop = true;
  } else if (e->fill && fwrite(e->buf, 1, e->fill, l->out) != e->fill && !e->status) {
    e->status = PQ_EIO;
  }
  e->fill = 0;
}

/* One placement reached: list it unless filtered out; sets e->stop to end the listing. */
static void reached(pq_pieces *e) {
  const pq_pieces_listing *l = e->listing;
  e->listed->reached++;
  if (l->unique && !canonical(e)) return;
  e->listed->listed++;
  if (l->out || l->write) {
    if (e->fill + e->line_len > OUT_BUF) flush(e);
    memcpy(e->buf + e->fill, e->line, e->line_len);
    e->fill += e->line_len;
  }
  if (l->on_placement && l->on_placement(l->ctx, e->cells)) e->stop = true;
  if (l->limit && e->listed->listed >= l->limit) e->stop = true;
}

static void list_one(pq_pieces *e, int d);
static void list_many(pq_pieces *e, int d);

/* Lists the placements that put the last piece on each square of set: each is the line with
   the piece's letter, copied into the output buffer. */
HOT void write_last(pq_pieces *e, const uint64_t *set, char letter, const int nw) {
  const pq_pieces_listing *l = e->listing;
  uint64_t n = (uint64_t)popcount(set, nw), done = 0;
  if (l->limit && e->listed->listed + n >= l->limit) {
    n = (uint64_t)(l->limit - e->listed->listed);
    e->stop = true;
  }
  size_t len = e->line_len;
  for (int w = 0; w < nw && done < n; w++)
    for (uint64_t x = set[w]; x && done < n; x &= x - 1, done++) {
      if (e->fill + len > OUT_BUF) flush(e);
      char *to = e->buf + e->fill;
      memcpy(to, e->line, len);
      to[e->column[w * 64 + __builtin_ctzll(x)]] = letter;
      e->fill += len;
    }
  e->listed->listed += n;
  e->listed->reached += n;
  e->nodes += n;
  if (e->nodes >= e->next_check) keep_going(e);
}

HOT void list_body(pq_pieces *e, int d, const int nw) {
  if (d == e->total) {
    reached(e);
    return;
  }
  int k = e->slot_kind[d], r = e->slot_left[d], nk = e->nk;
  uint64_t *open = e->stack + (size_t)d * (size_t)nk * (size_t)nw, *next = open + nk * nw;
  const uint64_t *mine = open + k * nw;
  uint8_t code = e->code[k];
  char letter = e->letters[code - 1];
  if (d == e->total - 1 && e->plain_text) {
    write_last(e, mine, letter, nw);
    return;
  }
  if (d == e->total - 2 && e->plain_text) {
    /* The last two pieces in one loop. */
    int k2 = e->slot_kind[d + 1], remaining = popcount(mine, nw);
    char letter2 = e->letters[e->code[k2] - 1];
    uint64_t last[PQ_WORDS];
    for (int w = 0; w < nw; w++)
      for (uint64_t x = mine[w]; x; x &= x - 1) {
        if (remaining-- < r) return;
        int s = w * 64 + __builtin_ctzll(x);
        if (++e->nodes >= e->next_check && !keep_going(e)) return;
        const uint64_t *c = closed_to(e, k, k2, s, nw);
        if (k2 == k) {
          for (int v = 0; v < nw; v++)
            last[v] = v < w ? 0 : mine[v] & ~c[v];
          last[w] &= x & (x - 1);
        } else {
          for (int v = 0; v < nw; v++)
            last[v] = open[k2 * nw + v] & ~c[v];
        }
        e->line[e->column[s]] = letter;
        write_last(e, last, letter2, nw);
        e->line[e->column[s]] = '.';
        if (e->stop || e->status) return;
      }
    return;
  }
  if (d == e->total - 1) {
    /* The last piece: every open square is a placement. */
    for (int w = 0; w < nw; w++)
      for (uint64_t x = mine[w]; x; x &= x - 1) {
        int s = w * 64 + __builtin_ctzll(x);
        if (++e->nodes >= e->next_check && !keep_going(e)) return;
        e->cells[s] = code;
        e->line[e->column[s]] = letter;
        reached(e);
        e->cells[s] = 0;
        e->line[e->column[s]] = '.';
        if (e->stop || e->status) return;
      }
    return;
  }
  int remaining = popcount(mine, nw);
  for (int w = 0; w < nw; w++)
    for (uint64_t x = mine[w]; x; x &= x - 1) {
      if (remaining-- < r) return;
      int s = w * 64 + __builtin_ctzll(x);
      if (++e->nodes >= e->next_check && !keep_going(e)) return;
      const uint64_t *c = closed_to(e, k, k, s, nw);
      for (int v = 0; v < nw; v++)
        next[k * nw + v] = v < w ? 0 : mine[v] & ~c[v];
      next[k * nw + w] &= x & (x - 1);
      if (popcount(next + k * nw, nw) < r - 1 || !lines_room(e, k, next + k * nw, r - 1, nw))
        continue;
      bool room = true;
      for (int j = k + 1; j < nk && room; j++) {
        c = closed_to(e, k, j, s, nw);
        for (int v = 0; v < nw; v++)
          next[j * nw + v] = open[j * nw + v] & ~c[v];
        room = popcount(next + j * nw, nw) >= e->count[j] &&
               lines_room(e, j, next + j * nw, e->count[j], nw);
      }
      if (!room) continue;
      e->cells[s] = code;
      e->line[e->column[s]] = letter;
      if (nw == 1)
        list_one(e, d + 1);
      else
        list_many(e, d + 1);
      e->cells[s] = 0;
      e->line[e->column[s]] = '.';
      if (e->stop || e->status) return;
    }
}

static void list_one(pq_pieces *e, int d) { list_body(e, d, 1); }
static void list_many(pq_pieces *e, int d) { list_body(e, d, e->words); }

void pq_pieces_listing_init(pq_pieces_listing *l) { memset(l, 0, sizeof *l); }

/* Prepares a listing: the line, its columns, the buffer. */
static void list_begin(pq_pieces *e, const pq_pieces_listing *l, pq_pieces_listed *out) {
  const pq_board *b = e->board;
  memset(out, 0, sizeof *out);
  const char *prefix = l->prefix ? l->prefix : "", *suffix = l->suffix ? l->suffix : "";
  size_t plen = strlen(prefix), slen = strlen(suffix), text = (size_t)(b->squares + b->height - 1);
  e->line_len = plen + text + slen + 1;
  e->line = pq_malloc(e->line_len + 1);
  memcpy(e->line, prefix, plen);
  memset(e->line + plen, '.', text);
  for (int r = 1; r < b->height; r++)
    e->line[plen + (size_t)(r * (b->width + 1) - 1)] = '/';
  memcpy(e->line + plen + text, suffix, slen);
  e->line[e->line_len - 1] = '\n';
  for (int s = 0; s < b->squares; s++)
    e->column[s] = (int)plen + s + s / b->width;
  e->buf = l->out || l->write ? pq_malloc(OUT_BUF) : NULL;
  e->fill = 0;
  e->listing = l;
  e->listed = out;
  e->plain_text = (l->out || l->write) && !l->unique && !l->on_placement;
  memset(e->cells, 0, (size_t)b->squares);
  start(e);
}

/* Lists from depth d on, the placement so far in e->cells and e->line. */
static void list_from(pq_pieces *e, int d) {
  if (e->nk == 0)
    reached(e);
  else if (e->words == 1)
    list_one(e, d);
  else
    list_many(e, d);
}

static void list_end(pq_pieces *e) {
  free(e->buf);
  free(e->line);
  e->buf = NULL;
  e->line = NULL;
  e->listing = NULL;
  e->listed = NULL;
}

pq_status pq_pieces_list(pq_pieces *e, const pq_pieces_listing *l, pq_pieces_listed *out) {
  list_begin(e, l, out);
  list_from(e, 0);
  if (l->out || l->write) flush(e);
  if (l->out && fflush(l->out) && !e->status) e->status = PQ_EIO;
  out->complete = e->status == PQ_OK && !e->stop;
  list_end(e);
  return e->status;
}

pq_pieces_split *pq_pieces_split_new_list(pq_pieces *e) { return split_new(e, false, true); }

/* Lists one part, the pieces above depth d placed, whole (up to the listing's limit, which is a
   part's own), and hands all its lines to the listing's write: the placements it reached. */
static pq_count list_part(pq_pieces *e, int d) {
  pq_pieces_listed *all = e->listed, part = {0};
  e->listed = &part;
  e->stop = false;
  list_from(e, d);
  flush(e);
  e->stop = false;
  e->listed = all;
  all->listed += part.listed;
  all->reached += part.reached;
  return part.reached;
}

pq_status pq_pieces_split_list(pq_pieces *e, const pq_pieces_split *sp, const pq_pieces_listing *l,
                               const pq_pieces_worker *worker) {
  PQ_REQUIRE(sp->nsearch == 1 && sp->search[0].group == 1 && !l->on_placement && !l->out &&
                 l->write,
             "a listing in parts takes the listing's split and a write, no callback or file");
  pq_pieces_listed out;
  list_begin(e, l, &out);
  pq_status rc = split_run(e, sp, worker, true);
  list_end(e);
  return rc;
}

/* ---- the command line ---- */

/* Placements kept for the picture. */
typedef struct keeper {
  int want, have, squares;
  uint8_t *cells;
} keeper;

static int keep_placement(void *ctx, const uint8_t *cells) {
  keeper *k = ctx;
  if (k->have < k->want)
    memcpy(k->cells + (size_t)k->have++ * (size_t)k->squares, cells, (size_t)k->squares);
  return 0;
}

enum { SVG_DEFAULT = 12 };

static pq_status parse_seconds(const char *text, double *out) {
  *out = 0;
  if (!text) return PQ_OK;
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  if (!*text || *end || errno || !(v > 0) || v > 1e9 || isspace((unsigned char)*text)) {
    pq_error("--time-limit \"%s\": expected a number of seconds above 0", text);
    return PQ_EINVAL;
  }
  *out = v;
  return PQ_OK;
}

static void stopped_message(pq_status rc, bool listing, uint64_t nodes, bool checkpoint) {
  const char *why = rc == PQ_EINTR ? "interrupted" : "stopped by the time or node limit";
  pq_error("pieces: %s after %llu nodes: the %s is incomplete, no total given%s", why,
           (unsigned long long)nodes, listing ? "listing" : "count",
           checkpoint ? " (the finished parts are in the checkpoint)" : "");
}

static pq_status draw(const char *path, const pq_board *b, const pq_pieces *e, keeper *k,
                      bool unique) {
  pq_svg_code codes[PQ_NPIECES];
  const char *letters = pq_pieces_letters(e);
  int n = (int)strlen(letters);
  for (int i = 0; i < n; i++)
    codes[i] = (pq_svg_code){letters[i], 0};
  pq_svg_picture pic;
  pq_svg_picture_init(&pic);
  pic.board = b;
  pic.codes = codes;
  pic.ncodes = n;
  pic.count = k->have;
  pic.cells = k->cells;
  const char *none[1] = {unique ? "no placement up to symmetry" : "no placement"};
  if (k->have == 0) {
    pic.count = 1;
    pic.captions = none;
    memset(k->cells, 0, (size_t)b->squares);
  }
  return pq_svg_save(path, &pic);
}

/* The command line, read and checked. */
typedef struct command {
  int width, height, counts[PQ_NPIECES], part, parts;
  long limit, node_limit, jobs;
  double seconds;
  bool list, unique, json;
} command;

static pq_status read_command(const pq_options *o, command *cmd) {
  memset(cmd, 0, sizeof *cmd);
  pq_status rc = pq_board_parse(o->board ? o->board : "8", &cmd->width, &cmd->height);
  if (rc) return rc;
  if (!o->pieces) {
    pq_error("pieces: --pieces SPEC is required, e.g. --pieces K2Q2B2N1");
    return PQ_EINVAL;
  }
  if ((rc = pq_pieces_parse(o->pieces, cmd->width * cmd->height, cmd->counts)) ||
      (rc = pq_option_long("limit", o->limit, 1, LONG_MAX, 0, &cmd->limit)) ||
      (rc = pq_option_long("node-limit", o->node_limit, 1, LONG_MAX, 0, &cmd->node_limit)) ||
      (rc = pq_option_long("jobs", o->jobs, 1, 256, pq_cores(), &cmd->jobs)) ||
      (rc = parse_seconds(o->time_limit, &cmd->seconds)) ||
      (o->part && (rc = pq_option_part(o->part, &cmd->part, &cmd->parts))))
    return rc;
  cmd->list = PQ_FLAG(o, list);
  cmd->unique = PQ_FLAG(o, unique);
  cmd->json = PQ_FLAG(o, json);
  if (cmd->list && PQ_FLAG(o, count)) {
    pq_error("pieces: --count and --list exclude each other");
    return PQ_EINVAL;
  }
  if (o->limit && !cmd->list && !o->svg) {
    pq_error("pieces: --limit %s applies to --list and --svg only", o->limit);
    return PQ_EINVAL;
  }
  if (o->limit && cmd->list && (o->part || o->checkpoint || o->resume)) {
    pq_error("pieces: --limit applies to a whole listing, not to --part, --checkpoint or --resume");
    return PQ_EINVAL;
  }
  if (o->part && o->svg) {
    pq_error("pieces: --part prints one part's result line; --svg does not apply");
    return PQ_EINVAL;
  }
  return PQ_OK;
}

/* The placements of the picture: the first ones of the listing (all, or one of each class),
   listed on this thread. */
static pq_status sample(pq_pieces *e, bool unique, keeper *k) {
  pq_pieces_listing l;
  pq_pieces_listed listed;
  pq_pieces_listing_init(&l);
  l.unique = unique;
  l.limit = (uint64_t)k->want;
  l.on_placement = keep_placement;
  l.ctx = k;
  return pq_pieces_list(e, &l, &listed);
}

/* Runs a count or a listing on the board and pieces of job, with the picture o->svg. */
static pq_status run_whole(const pq_options *o, const command *cmd, pq_pieces_job *job) {
  const pq_board *b = job->board;
  pq_pieces *e = pq_pieces_new(b, cmd->counts);
  pq_pieces_set_limits(e, job->node_limit, job->deadline);
  keeper k = {.want = o->limit ? (int)(cmd->limit < 1000 ? cmd->limit : 1000) : SVG_DEFAULT,
              .squares = b->squares};
  k.cells = pq_calloc((size_t)k.want, (size_t)b->squares);
  pq_pieces_job_result r;
  uint64_t nodes = 0;
  pq_status rc = PQ_OK;
  /* A count is printed unless only placements are listed. */
  if (!cmd->list || cmd->json) rc = pq_pieces_check_size(e, o->pieces);
  if (rc == PQ_OK && o->svg) {
    rc = sample(e, cmd->unique, &k);
    nodes = pq_pieces_nodes(e);
  }
  if (rc) goto done;
  if (job->node_limit) job->node_limit = job->node_limit > nodes ? job->node_limit - nodes : 1;
  job->engine = e;
  rc = pq_pieces_job_run(job, &r);
  nodes += r.nodes;
  if (rc == PQ_OK && cmd->list && fflush(stdout)) rc = PQ_EIO;
  if (rc == PQ_EIO) pq_error("pieces: writing the output failed");
  if (rc || (o->svg && (rc = draw(o->svg, b, e, &k, cmd->unique)))) goto done;
  pq_pieces_print_total(stdout, job, o->pieces, &r);
done:
  if (rc == PQ_ELIMIT || rc == PQ_EINTR)
    stopped_message(rc, cmd->list, nodes, o->checkpoint != NULL);
  free(k.cells);
  pq_pieces_free(e);
  return rc;
}

static pq_status run(const pq_options *o) {
  command cmd;
  pq_status rc = read_command(o, &cmd);
  if (rc) return rc;
  if (PQ_FLAG(o, quiet)) pq_progress_enabled = false;
  pq_board *b = pq_board_new(cmd.width, cmd.height);
  char label[96];
  snprintf(label, sizeof label, "pieces %dx%d %s", cmd.width, cmd.height, o->pieces);
  pq_pieces_job job = {.board = b,
                       .counts = cmd.counts,
                       .spec = o->pieces,
                       .unique = cmd.unique,
                       .jobs = (int)cmd.jobs,
                       .node_limit = (uint64_t)cmd.node_limit,
                       .deadline = cmd.seconds > 0 ? pq_now() + cmd.seconds : 0,
                       .checkpoint = o->checkpoint,
                       .resume = o->resume,
                       .progress = label,
                       .part = cmd.part,
                       .parts = cmd.parts,
                       .list = cmd.list,
                       .out = cmd.list && !o->part ? stdout : NULL,
                       .json = cmd.json,
                       .limit = cmd.list ? (uint64_t)cmd.limit : 0};
  if (o->part) {
    rc = pq_pieces_part_run(&job);
    if (rc == PQ_ELIMIT || rc == PQ_EINTR)
      pq_error("pieces: part %d/%d %s: its line says done:false%s", cmd.part, cmd.parts,
               rc == PQ_EINTR ? "interrupted" : "stopped by the time or node limit",
               o->checkpoint ? " (its finished subparts are in the checkpoint)" : "");
  } else {
    rc = run_whole(o, &cmd, &job);
  }
  pq_board_free(b);
  return rc;
}

const pq_problem pq_problem_pieces = {
    .name = "pieces",
    .letter = 'p',
    .summary = "count or list placements of kings, queens, rooks, bishops and knights where none "
               "attacks another",
    .run = run,
    .merge = pq_pieces_merge,
};
