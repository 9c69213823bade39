/* pieces_fixed.c: the pieces solver's counts of the placements a symmetry maps to themselves, and
   the count up to symmetry by Burnside's lemma. */
#include "pieces_search.h"

/* Whether cycle c may hold kind k given its open squares: c starts at s, fits, and every one of
   its squares is open. */
bool pq_pieces_cycle_open(const pq_pieces *e, const cycles *cy, int c, int k, int s,
                          const uint64_t *open) {
  if (cy->first[c] != s || !cy->fits[c * e->nk + k]) return false;
  for (int i = 1; i < cy->size[c]; i++) {
    int t = cy->squares[4 * c + i];
    if (!((open[t >> 6] >> (t & 63)) & 1)) return false;
  }
  return true;
}

/* open minus cycle c and the squares its squares close to kind j, for kind k on c. */
void pq_pieces_close_cycle(const pq_pieces *e, const cycles *cy, int c, int k, int j,
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
  if (cy->size[c] <= m && pq_pieces_cycle_open(e, cy, c, k, s, open)) {
    if (++e->nodes >= e->next_check && !pq_pieces_keep_going(e)) return 0;
    pq_pieces_close_cycle(e, cy, c, k, k, open, after);
    total += cycles_last(e, cy, after, m - cy->size[c]);
    if (e->status) return 0;
  }
  memo_store(&cy->memo, h, open, m, total, nw);
  return total;
}

pq_count pq_pieces_count_cycles(pq_pieces *e, cycles *cy, int d, int k, int left) {
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
      if (cy->size[c] > left || !pq_pieces_cycle_open(e, cy, c, k, s, open + k * nw)) continue;
      if (++e->nodes >= e->next_check && !pq_pieces_keep_going(e)) return 0;
      bool room = true;
      for (int j = k; j < nk && room; j++) {
        pq_pieces_close_cycle(e, cy, c, k, j, open + j * nw, next + j * nw);
        /* Later cycles of this kind start after s, and all their squares do too. */
        if (j == k)
          for (int v = 0; v < nw; v++)
            next[k * nw + v] &= v < w ? 0 : v > w ? ~(uint64_t)0 : x & (x - 1);
        room = popcount(next + j * nw, nw) >= (j == k ? left - cy->size[c] : e->count[j]);
      }
      if (!room) continue;
      total += pq_pieces_count_cycles(e, cy, d + 1, k, left - cy->size[c]);
      if (e->status) return 0;
    }
  return total;
}

/* The cycles of symmetry g on the board, with the kinds each may hold. Free with cycles_clear. */
void pq_pieces_cycles_init(const pq_pieces *e, pq_sym g, cycles *cy) {
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

void pq_pieces_cycles_clear(cycles *cy) {
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
  pq_pieces_cycles_init(e, g, &cy);
  pq_pieces_start(e);
  pq_count c = pq_pieces_count_cycles(e, &cy, 0, 0, e->count[0]);
  pq_pieces_cycles_clear(&cy);
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
