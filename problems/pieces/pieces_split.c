/* pieces_split.c: the pieces solver's work in parts: a count (and Burnside's other terms) or a
   listing cut into parts of its search's tree, for threads, --part I/N and checkpoints. */
#include "pieces_search.h"

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
  const pq_pieces_worker *w = wk->worker;
  if (wk->listing) {
    pq_count c = pq_pieces_list_part(e, d);
    if (e->status) return;
    w->done_lines(w->ctx, i, c, e->nodes - before, e->buf, e->fill);
    e->fill = 0;
  } else {
    pq_count c = e->nk == 0 ? 1
                 : wk->cy   ? pq_pieces_count_cycles(e, wk->cy, d, k, left)
                            : pq_pieces_count_from(e, d, group);
    if (e->status) return;
    w->done(w->ctx, i, weight * c, e->nodes - before);
  }
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
      if (!place_next(e, k, nk, s, w, x, r, mine, open, next, nw)) continue;
      unsigned subgroup;
      pq_count orbit;
      if (!orbit_step(e, breaking, first, occupied, occupied_next, w, x, r, group, &subgroup,
                      &orbit, nw))
        continue;
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
      if (cy->size[c] > need || !pq_pieces_cycle_open(e, cy, c, kind, s, open + kind * nw))
        continue;
      bool room = true;
      for (int j = kind; j < nk && room; j++) {
        pq_pieces_close_cycle(e, cy, c, kind, j, open + j * nw, next + j * nw);
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
  pq_pieces_start(e);
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
    if (i) pq_pieces_cycles_init(e, (pq_sym)i, &cy);
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
    if (i) pq_pieces_cycles_clear(&cy);
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
      pq_pieces_cycles_init(e, (pq_sym)ss->sym, &cy);
      wk->cy = &cy;
    }
    walk_search(e, wk, ss);
    if (ss->sym) pq_pieces_cycles_clear(&cy);
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

pq_pieces_split *pq_pieces_split_new_list(pq_pieces *e) { return split_new(e, false, true); }

pq_status pq_pieces_split_list(pq_pieces *e, const pq_pieces_split *sp, const pq_pieces_listing *l,
                               const pq_pieces_worker *worker) {
  PQ_REQUIRE(sp->nsearch == 1 && sp->search[0].group == 1 && !l->on_placement && !l->out &&
                 worker->done_lines,
             "a listing in parts takes the listing's split and done_lines, no callback or file");
  pq_pieces_listed out;
  pq_pieces_list_begin_parts(e, l, &out);
  pq_status rc = split_run(e, sp, worker, true);
  pq_pieces_list_end(e);
  return rc;
}
