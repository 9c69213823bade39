/* pieces_search.h: the insides of the pieces solver, shared by its files (pieces_search.c: tables
   and counts; pieces_fixed.c: placements fixed by a symmetry; pieces_split.c: parts;
   pieces_list.c: listings): the solver's state, the set operations of its hot loops, and the
   steps one file takes from another. Not for use outside the solver (pieces.h is its interface). */
#ifndef PQ_PIECES_SEARCH_H
#define PQ_PIECES_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/config.h"
#include "pieces.h"

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
  bool gather;     /* a listing in parts: a part's lines are gathered whole in buf */
  size_t buf_size;
  memo split_memo; /* the last kind's split */
  /* Three pieces of the last kind on one word: (open set, count) pairs, direct-mapped. The last
     kind's open sets recur often (a piece of another kind far from them closes none). */
  uint64_t cache[2 << CACHE_BITS];
};

enum { OUT_BUF = 1 << 20 };

static inline const uint64_t *closed_to(const pq_pieces *e, int i, int j, int s, int nw) {
  return e->closed_by[i * PQ_MAX_KINDS + j] + (size_t)s * (size_t)nw;
}

/* ---- set operations on nw words (nw is a constant where it matters) ---- */

HOT int popcount(const uint64_t *a, int nw) {
  int n = 0;
  for (int w = 0; w < nw; w++)
    n += __builtin_popcountll(a[w]);
  return n;
}

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

/* Places the next piece of kind k (r of them left, mine its open squares, nk kinds) on square s,
   the lowest square of word w's bits x: next[k] gets the squares after s still open to kind k,
   next[j] for the later kinds j their open squares left (from open); false when some kind no
   longer fits (its count or its lines). The step of the count, the split's walk and the listing
   alike. */
HOT bool place_next(const pq_pieces *e, int k, int nk, int s, int w, uint64_t x, int r,
                    const uint64_t *mine, const uint64_t *open, uint64_t *next, const int nw) {
  const uint64_t *c = closed_to(e, k, k, s, nw);
  for (int v = 0; v < nw; v++)
    next[k * nw + v] = v < w ? 0 : mine[v] & ~c[v];
  next[k * nw + w] &= x & (x - 1);
  if (popcount(next + k * nw, nw) < r - 1 || !lines_room(e, k, next + k * nw, r - 1, nw))
    return false;
  for (int j = k + 1; j < nk; j++) {
    c = closed_to(e, k, j, s, nw);
    for (int v = 0; v < nw; v++)
      next[j * nw + v] = open[j * nw + v] & ~c[v];
    if (popcount(next + j * nw, nw) < e->count[j] ||
        !lines_room(e, j, next + j * nw, e->count[j], nw))
      return false;
  }
  return true;
}

HOT uint64_t memo_hash(const uint64_t *open, int m, const int nw) {
  uint64_t h = (uint64_t)m * 0x9e3779b97f4a7c15ull;
  for (int w = 0; w < nw; w++)
    h = (h ^ open[w]) * 0xff51afd7ed558ccdull;
  return h ^ (h >> 29);
}

void pq_pieces_memo_resize(memo *mm, int bits, int nw);

/* Whether (open, m) is in the memo, with its count in *value; *hash gets its hash for
   memo_store. */
HOT bool memo_find(memo *mm, const uint64_t *open, int m, uint64_t *hash, pq_count *value,
                   const int nw) {
  if (!mm->keys) pq_pieces_memo_resize(mm, 12, nw);
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
    pq_pieces_memo_resize(mm, mm->bits + 1, nw);
    slot = (size_t)(hash >> (64 - mm->bits));
    key = mm->keys + slot * (size_t)(nw + 1);
    if (!key[nw]) mm->used++;
  }
  for (int v = 0; v < nw; v++)
    key[v] = open[v];
  key[nw] = (uint64_t)m;
  mm->values[slot] = value;
}

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

/* Starts a run: the open sets of depth 0 are the whole board for every kind. */
void pq_pieces_start(pq_pieces *e);

/* Whether the run may go on; sets the status when a limit or an interrupt stops it. */
bool pq_pieces_keep_going(pq_pieces *e);

/* The placements of the pieces from depth d on (the open sets of depth d set), the kinds placed
   so far breaking the symmetries outside group (bit g for symmetry g). */
pq_count pq_pieces_count_from(pq_pieces *e, int d, unsigned group);

/* Whether set a (a kind's squares) is the smallest of its images under the symmetries in group
   (bit g for element g). If so, *stabiliser gets the elements that fix a. */
bool pq_pieces_smallest_image(const pq_pieces *e, const uint64_t *a, unsigned group,
                              unsigned *stabiliser);

/* The symmetry breaking of a placement step (breaking: the board's group is not trivial and
   kinds follow): occupied_next gets the squares taken so far (none before this kind's first
   piece) with the new one, the lowest bit of x in word w; at the kind's last piece (r == 1), false
   when the placement is not the least of its images, else *subgroup is its stabiliser and
   *weight the size of its orbit. */
HOT bool orbit_step(const pq_pieces *e, bool breaking, bool first, const uint64_t *occupied,
                    uint64_t *occupied_next, int w, uint64_t x, int r, unsigned group,
                    unsigned *subgroup, pq_count *weight, const int nw) {
  *subgroup = group;
  *weight = 1;
  if (!breaking) return true;
  for (int v = 0; v < nw; v++)
    occupied_next[v] = first ? 0 : occupied[v];
  occupied_next[w] |= x & -x;
  if (r != 1) return true;
  if (!pq_pieces_smallest_image(e, occupied_next, group, subgroup)) return false;
  *weight = (pq_count)(__builtin_popcount(group) / __builtin_popcount(*subgroup));
  return true;
}

/* The cycles of symmetry g on the board, with the kinds each may hold. Free with
   pq_pieces_cycles_clear. */
void pq_pieces_cycles_init(const pq_pieces *e, pq_sym g, cycles *cy);
void pq_pieces_cycles_clear(cycles *cy);

/* Whether cycle c may hold kind k given its open squares: c starts at s, fits, and every one of
   its squares is open. */
bool pq_pieces_cycle_open(const pq_pieces *e, const cycles *cy, int c, int k, int s,
                          const uint64_t *open);

/* open minus cycle c and the squares its squares close to kind j, for kind k on c, into out. */
void pq_pieces_close_cycle(const pq_pieces *e, const cycles *cy, int c, int k, int j,
                           const uint64_t *open, uint64_t *out);

/* The placements fixed by cy's symmetry from depth d on: kind k with left pieces to place. */
pq_count pq_pieces_count_cycles(pq_pieces *e, cycles *cy, int d, int k, int left);

/* Prepares listing l (its line, columns and buffer) with *out zeroed; pq_pieces_list_end frees
   what it took. */
void pq_pieces_list_begin(pq_pieces *e, const pq_pieces_listing *l, pq_pieces_listed *out);
void pq_pieces_list_end(pq_pieces *e);

/* Lists one part, the pieces above depth d placed, whole (up to the listing's limit, which is a
   part's own), its lines gathered in e->buf (e->fill bytes): the placements it reached. */
pq_count pq_pieces_list_part(pq_pieces *e, int d);

/* Prepares a listing in parts (pq_pieces_list_begin, its lines gathered part by part). */
void pq_pieces_list_begin_parts(pq_pieces *e, const pq_pieces_listing *l, pq_pieces_listed *out);

#endif
