/* qn_check.c: the qn certificate checker (doc/certificate.md, section "qn"), part of libcheck.a:
   its own attack test, symmetries and plain backtracking search, nothing of the qn engine or the
   calculus. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/check/check.h"

enum { WORDS = PQ_CHECK_MAX_SQUARES / 64 };

/* A set of squares: bit s of word s / 64. */
typedef struct squares {
  uint64_t w[WORDS];
} squares;

typedef struct checker {
  int width, height, count, words; /* count: the number of squares */
  int piece[2];                    /* the kinds, as indices into "KQRBN" */
  int ratio[2];
  int need[2];                    /* pieces of each kind in the size claimed infeasible */
  int x, y;                       /* the split kind (searched first) and the other one */
  squares *conflict;              /* [(k * 2 + j) * count + s]: t where kind k on s and kind j on t
                                     cannot both stand (s itself included: one piece per square) */
  int groups, *image;             /* the board's symmetries: [g * count + s] */
  int *least;                     /* the least image of each square */
  squares row[PQ_CHECK_MAX_SIDE]; /* the squares of each row */
  bool one_per_row[2];   /* [k]: any two squares of a row conflict for two pieces of kind k */
  bool row_blocks[2][2]; /* [k][j]: a piece of kind k conflicts with one of kind j on every
                            square of its row */
  int chosen[2][PQ_CHECK_MAX_SQUARES]; /* the squares of the placement being built, per kind */
  unsigned long long nodes;
  const pq_check_params *params; /* the sample, the deadline, the verdict's form */
  uint64_t rng;                  /* xorshift state for the sample */
  int skipped;                   /* cubes left out by --sample */
  bool stopped;                  /* a signal or the time limit stopped the check: no verdict */
  /* Count proofs: the listed placements (sorted, count bytes each: 0 and 1 the kinds, 2
     empty); every placement a cube search completes must be among them. */
  const uint8_t *listed;
  size_t nlisted;
  bool unlisted;  /* the search completed a placement that is not listed */
  uint64_t found; /* placements the cube searches completed */
  char why[240];  /* the first fault found */
} checker;

static const char letters[] = "KQRBN";

static bool fault(checker *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fault(checker *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (!c->why[0]) vsnprintf(c->why, sizeof c->why, fmt, ap);
  va_end(ap);
  return false;
}

/* Whether a piece of kind k on s and one of kind j on t cannot both stand. */
static bool clash(const checker *c, int k, int s, int j, int t) {
  return s == t || pq_check_attacks(c->width, c->piece[k], s, t) ||
         pq_check_attacks(c->width, c->piece[j], t, s);
}

static const squares *conflicts(const checker *c, int k, int j, int s) {
  return &c->conflict[(k * 2 + j) * c->count + s];
}

/* The checkers' own symmetries (src/check/check.c), not the search's. */
static int image_of(const checker *c, int g, int s) {
  return pq_check_image(c->width, c->height, g, s);
}

static bool has(const squares *a, int s) { return (a->w[s >> 6] >> (s & 63)) & 1; }
static void put(squares *a, int s) { a->w[s >> 6] |= (uint64_t)1 << (s & 63); }

static int size_of(const checker *c, const squares *a) {
  int n = 0;
  for (int i = 0; i < c->words; i++)
    n += __builtin_popcountll(a->w[i]);
  return n;
}

/* The least square of a at or after from, or -1. */
static int next_square(const checker *c, const squares *a, int from) {
  for (int s = from; s < c->count; s++)
    if (!(s & 63) && !a->w[s >> 6])
      s += 63;
    else if (has(a, s))
      return s;
  return -1;
}

/* child = (parent less the squares in conflict with a kind-k piece on s for a kind-j piece),
   keeping only squares after s when above is set. */
static void narrow(const checker *c, const squares *parent, int k, int j, int s, bool above,
                   squares *child) {
  const squares *x = conflicts(c, k, j, s);
  for (int i = 0; i < c->words; i++)
    child->w[i] = parent->w[i] & ~x->w[i];
  if (above) {
    for (int i = 0; i < s >> 6; i++)
      child->w[i] = 0;
    child->w[s >> 6] &= (s & 63) == 63 ? 0 : ~(uint64_t)0 << ((s & 63) + 1);
  }
}

static int common(const checker *c, const squares *a, const squares *b) {
  int n = 0;
  for (int i = 0; i < c->words; i++)
    n += __builtin_popcountll(a->w[i] & b->w[i]);
  return n;
}

/* Whether `left` more pieces of kind x and then need[y] of kind y may still stand on the
   squares open to them, by counting (doc/certificate.md): the squares open to each kind; where a
   row holds one piece of kind x at most, the rows that meet open_x; and where moreover a piece
   of kind x forbids its whole row to kind y, the squares open to y less those of the `left` rows
   meeting open_x that hold the fewest of them. */
static bool room_for(const checker *c, const squares *open_x, int left, const squares *open_y) {
  int open = size_of(c, open_y);
  if (size_of(c, open_x) < left || open < c->need[c->y]) return false;
  if (!c->one_per_row[c->x] || !left) return true;
  int held[PQ_CHECK_MAX_SIDE], rows = 0;
  for (int r = 0; r < c->height; r++)
    if (common(c, &c->row[r], open_x))
      held[rows++] = c->row_blocks[c->x][c->y] ? common(c, &c->row[r], open_y) : 0;
  if (rows < left) return false;
  /* The left smallest values, by selection: rows are few. */
  for (int i = 0; i < left; i++) {
    int least = i;
    for (int j = i + 1; j < rows; j++)
      if (held[j] < held[least]) least = j;
    int v = held[least];
    held[least] = held[i];
    held[i] = v;
    open -= v;
  }
  return open >= c->need[c->y];
}

/* Plain backtracking: places `left` more pieces of kind y on the squares of open, in increasing
   square order. Returns whether a placement was completed (its squares in chosen[y]). */
static bool listed(checker *c);

static bool search_y(checker *c, const squares *open, int left, int depth) {
  if (!left) return !c->listed || !listed(c);
  if (pq_check_stop(c->params)) return c->stopped = true;
  if (size_of(c, open) < left) return false;
  for (int s = next_square(c, open, 0); s >= 0; s = next_square(c, open, s + 1)) {
    squares child;
    c->nodes++;
    narrow(c, open, c->y, c->y, s, true, &child);
    c->chosen[c->y][depth] = s;
    if (search_y(c, &child, left - 1, depth + 1)) return true;
  }
  return false;
}

/* The same for kind x, with open_y the squares still open to kind y; then kind y. */
static bool search_x(checker *c, const squares *open_x, const squares *open_y, int left,
                     int depth) {
  if (!left) return search_y(c, open_y, c->need[c->y], 0);
  if (pq_check_stop(c->params)) return c->stopped = true;
  if (!room_for(c, open_x, left, open_y)) return false;
  for (int s = next_square(c, open_x, 0); s >= 0; s = next_square(c, open_x, s + 1)) {
    squares child_x, child_y;
    c->nodes++;
    narrow(c, open_x, c->x, c->x, s, true, &child_x);
    narrow(c, open_y, c->x, c->y, s, false, &child_y);
    c->chosen[c->x][depth] = s;
    if (search_x(c, &child_x, &child_y, left - 1, depth + 1)) return true;
  }
  return false;
}

/* Searches the cube of square t: a piece of the split kind on t, the other pieces of that kind
   on squares u > t whose every image is at least t, the pieces of the other kind anywhere. */
static bool cube_empty(checker *c, int index, int t) {
  squares open_x = {{0}}, open_y = {{0}}, all = {{0}};
  for (int s = 0; s < c->count; s++) {
    put(&all, s);
    if (s > t && c->least[s] >= t) put(&open_x, s);
  }
  c->nodes++;
  narrow(c, &open_x, c->x, c->x, t, false, &open_x);
  narrow(c, &all, c->x, c->y, t, false, &open_y);
  c->chosen[c->x][0] = t;
  if (!search_x(c, &open_x, &open_y, c->need[c->x] - 1, 1)) return true;
  if (c->stopped) return false;
  const char *what = c->listed ? "a placement that is not listed" : "a placement of the sizes";
  char text[PQ_CHECK_MAX_SQUARES + PQ_CHECK_MAX_SIDE + 1], *p = text;
  char cells[PQ_CHECK_MAX_SQUARES];
  memset(cells, '.', (size_t)c->count);
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < c->need[k]; i++)
      cells[c->chosen[k][i]] = letters[c->piece[k]];
  for (int r = 0; r < c->height; r++) {
    if (r) *p++ = '/';
    memcpy(p, cells + r * c->width, (size_t)c->width);
    p += c->width;
  }
  *p = '\0';
  return fault(c, "cube %d (square %d): the search finds %s: %.120s", index, t, what, text);
}

/* Checks that every symmetry maps squares one to one and keeps every conflict: then the image
   of a placement is a placement of the same sizes. */
static bool check_symmetries(checker *c) {
  for (int g = 0; g < c->groups; g++) {
    const int *img = &c->image[g * c->count];
    squares hit = {{0}};
    for (int s = 0; s < c->count; s++)
      put(&hit, img[s]);
    if (size_of(c, &hit) != c->count) return fault(c, "symmetry %d is not one to one", g);
    for (int k = 0; k < 2; k++)
      for (int j = 0; j < 2; j++)
        for (int s = 0; s < c->count; s++)
          for (int t = 0; t < c->count; t++)
            if (has(conflicts(c, k, j, s), t) != has(conflicts(c, k, j, img[s]), img[t]))
              return fault(c, "symmetry %d does not keep the attacks", g);
  }
  return true;
}

/* Checks the cubes: each at the least square of its orbit, none twice, and the least square of
   every orbit among them. */
static bool check_cover(checker *c, const int *cube, int ncubes) {
  squares listed = {{0}};
  for (int i = 0; i < ncubes; i++) {
    if (c->least[cube[i]] != cube[i])
      return fault(c, "cubes: cube %d (square %d) is not at the least square of its orbit", i,
                   cube[i]);
    if (has(&listed, cube[i])) return fault(c, "cubes: square %d has two cubes", cube[i]);
    put(&listed, cube[i]);
  }
  for (int s = 0; s < c->count; s++)
    if (!has(&listed, c->least[s]))
      return fault(c, "cubes: no cube for square %d, the least square of its orbit", c->least[s]);
  return true;
}

/* Checks a placement's text: the board's shape, size * ratio pieces of each kind, no conflict;
   cells[s]: 0 and 1 the kinds, 2 empty. */
static bool check_placement(checker *c, const char *text, long size, uint8_t *cells) {
  int have[3] = {0, 0, 0}, square, at[2][PQ_CHECK_MAX_SQUARES];
  char symbols[4] = {letters[c->piece[0]], letters[c->piece[1]], '.', '\0'}, bad;
  switch (pq_check_rows(text, c->width, c->height, symbols, cells, &square, &bad)) {
  case PQ_ROWS_SHAPE:
    return fault(c, "witness: not %d rows of %d squares joined by '/'", c->height, c->width);
  case PQ_ROWS_SYMBOL:
    return fault(c, "witness: '%c' at square %d is not '.', '%c' or '%c'", bad, square,
                 letters[c->piece[0]], letters[c->piece[1]]);
  case PQ_ROWS_OK: break;
  }
  for (int s = 0; s < c->count; s++) {
    if (cells[s] < 2) at[cells[s]][have[cells[s]]] = s;
    have[cells[s]]++;
  }
  if (have[0] != c->ratio[0] * size || have[1] != c->ratio[1] * size)
    return fault(c, "witness: %d %c and %d %c, not the %ld and %ld of size %ld", have[0],
                 letters[c->piece[0]], have[1], letters[c->piece[1]], c->ratio[0] * size,
                 c->ratio[1] * size, size);
  /* Every pair of pieces (not every pair of squares: count certificates list many). */
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < have[k]; i++)
      for (int j = k; j < 2; j++)
        for (int l = j == k ? i + 1 : 0; l < have[j]; l++)
          if (clash(c, k, at[k][i], j, at[j][l]))
            return fault(c, "witness: the %c on square %d and the %c on square %d attack",
                         letters[c->piece[k]], at[k][i], letters[c->piece[j]], at[j][l]);
  return true;
}

static bool check_witness(checker *c, const char *text, long size) {
  uint8_t cells[PQ_CHECK_MAX_SQUARES];
  return check_placement(c, text, size, cells);
}

/* Parses "A:B" with whole numbers 1..PQ_CHECK_MAX_SQUARES. */
static bool parse_ratio(const char *text, int *ratio) {
  long a, b;
  char *end;
  if (!text || *text < '0' || *text > '9') return false;
  a = strtol(text, &end, 10);
  if (*end != ':' || end[1] < '0' || end[1] > '9') return false;
  b = strtol(end + 1, &end, 10);
  if (*end || a < 1 || a > PQ_CHECK_MAX_SQUARES || b < 1 || b > PQ_CHECK_MAX_SQUARES) return false;
  ratio[0] = (int)a;
  ratio[1] = (int)b;
  return true;
}

static void checker_tables(checker *c) {
  c->count = c->width * c->height;
  c->words = (c->count + 63) / 64;
  c->conflict = pq_calloc((size_t)4 * (size_t)c->count, sizeof(squares));
  for (int k = 0; k < 2; k++)
    for (int j = 0; j < 2; j++)
      for (int s = 0; s < c->count; s++)
        for (int t = 0; t < c->count; t++)
          if (clash(c, k, s, j, t)) put(&c->conflict[(k * 2 + j) * c->count + s], t);
  /* The row facts are read off the conflict table, not assumed from the kinds. */
  for (int k = 0; k < 2; k++)
    for (int j = 0; j < 2; j++)
      c->row_blocks[k][j] = true;
  for (int s = 0; s < c->count; s++) {
    put(&c->row[s / c->width], s);
    for (int t = s - s % c->width; t < s - s % c->width + c->width; t++)
      for (int k = 0; k < 2; k++)
        for (int j = 0; j < 2; j++)
          if (!has(conflicts(c, k, j, s), t)) c->row_blocks[k][j] = false;
  }
  for (int k = 0; k < 2; k++)
    c->one_per_row[k] = c->row_blocks[k][k];
  c->groups = c->width == c->height ? 8 : 4;
  c->image = pq_malloc((size_t)c->groups * (size_t)c->count * sizeof(int));
  c->least = pq_malloc((size_t)c->count * sizeof(int));
  for (int s = 0; s < c->count; s++) {
    c->least[s] = s;
    for (int g = 0; g < c->groups; g++) {
      int t = image_of(c, g, s);
      c->image[g * c->count + s] = t;
      if (t < c->least[s]) c->least[s] = t;
    }
  }
}

static pq_status malformed(const char *what) {
  pq_error("%s: malformed qn certificate (%s)", pq_check_path(), what);
  return PQ_EINVAL;
}

/* Whether --sample picks the next cube (the first always). */
static bool sampled(checker *c, bool first) {
  if (pq_check_sampled(c->params, &c->rng, first)) return true;
  c->skipped++;
  return false;
}

/* Whether the placement in chosen (need[k] squares of each kind) is listed; counts it. */
static bool listed(checker *c) {
  uint8_t cells[PQ_CHECK_MAX_SQUARES];
  memset(cells, 2, (size_t)c->count);
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < c->need[k]; i++)
      cells[c->chosen[k][i]] = (uint8_t)k;
  c->found++;
  if (pq_check_listed(cells, c->listed, c->nlisted, (size_t)c->count)) return true;
  c->unlisted = true;
  return false;
}

/* A proof that a size does not fit, or of a count: its size, the pieces of each kind, the split
   kind and the cubes' squares. */
typedef struct proof {
  long size, first, second;
  int x; /* the split kind: 0 or 1 */
  int *cube, ncubes;
} proof;

/* Reads proof object obj (member `what`); PQ_OK or PQ_EINVAL with a message. */
static pq_status read_proof(checker *c, const pq_json *obj, const char *kinds, proof *pf) {
  int squares_on_board = c->width * c->height;
  const char *split = obj ? pq_json_get_string(obj, "split") : NULL;
  const pq_json *cubes = obj ? pq_json_get(obj, "cubes") : NULL;
  *pf = (proof){0};
  if (!obj || obj->type != PQ_JSON_OBJECT ||
      pq_json_get_long(obj, "size", 0, squares_on_board, &pf->size) ||
      pq_json_get_long(obj, "first", 0, (long)PQ_CHECK_MAX_SQUARES * PQ_CHECK_MAX_SQUARES,
                       &pf->first) ||
      pq_json_get_long(obj, "second", 0, (long)PQ_CHECK_MAX_SQUARES * PQ_CHECK_MAX_SQUARES,
                       &pf->second))
    return malformed("infeasible: size, first, second");
  if (!split || strlen(split) != 1 || !strchr(letters, split[0]) || !split[0])
    return malformed("infeasible.split: expected a piece letter");
  if (!cubes || cubes->type != PQ_JSON_ARRAY || cubes->length > (size_t)squares_on_board)
    return malformed("infeasible.cubes: expected an array of at most one cube a square");
  pf->x = split[0] == kinds[0] ? 0 : split[0] == kinds[1] ? 1 : -1;
  pf->cube = pq_malloc((cubes->length + 1) * sizeof *pf->cube);
  pf->ncubes = (int)cubes->length;
  for (int i = 0; i < pf->ncubes; i++) {
    const pq_json *q = cubes->items[i];
    const char *leaf = pq_json_get_string(q, "leaf");
    long s;
    if (q->type != PQ_JSON_OBJECT || pq_json_get_long(q, "square", 0, squares_on_board - 1, &s) ||
        !leaf || strcmp(leaf, "search")) {
      free(pf->cube);
      pf->cube = NULL;
      pq_error("%s: malformed qn certificate (cube %d: expected {\"square\": a square, "
               "\"leaf\": \"search\"})",
               pq_check_path(), i);
      return PQ_EINVAL;
    }
    pf->cube[i] = (int)s;
  }
  return PQ_OK;
}

/* A thread's share of the cubes' searches (verify --jobs): a copy of the checker of its own. */
typedef struct cube_thread {
  checker c;
  const proof *pf;
  const bool *take; /* the cubes the sample takes */
} cube_thread;

static bool search_one(void *ctx, int i) {
  cube_thread *t = ctx;
  return !t->take[i] || cube_empty(&t->c, i, t->pf->cube[i]);
}

/* Searches the cubes take[] marks on jobs threads, with the verdict of one thread searching them
   in order (pq_check_in_order). */
static bool search_cubes(checker *c, const proof *pf, const bool *take, int jobs) {
  cube_thread *t = pq_malloc((size_t)jobs * sizeof *t);
  for (int k = 0; k < jobs; k++) {
    t[k] = (cube_thread){.c = *c, .pf = pf, .take = take};
    t[k].c.nodes = t[k].c.found = 0;
    t[k].c.unlisted = t[k].c.stopped = false;
    t[k].c.why[0] = '\0';
  }
  int who, failed = pq_check_in_order(pf->ncubes, jobs, t, sizeof *t, search_one, &who);
  for (int k = 0; k < jobs; k++) {
    c->nodes += t[k].c.nodes;
    c->found += t[k].c.found;
    c->unlisted |= t[k].c.unlisted;
    c->stopped |= t[k].c.stopped;
  }
  bool ok = !c->stopped && (failed == pf->ncubes || fault(c, "%s", t[who].c.why));
  free(t);
  return ok;
}

/* Checks a proof's sizes against the ratio and its split, the symmetries and the cover. */
static bool check_form(checker *c, const proof *pf) {
  if (pf->first != c->ratio[0] * pf->size || pf->second != c->ratio[1] * pf->size)
    return fault(c, "claim: %ld %c and %ld %c are not size %ld in the ratio %d:%d", pf->first,
                 letters[c->piece[0]], pf->second, letters[c->piece[1]], pf->size, c->ratio[0],
                 c->ratio[1]);
  if (pf->x < 0) return fault(c, "split: the split kind is not one of the kinds");
  c->x = pf->x;
  c->y = 1 - c->x;
  c->need[0] = (int)pf->first;
  c->need[1] = (int)pf->second;
  return check_symmetries(c) && check_cover(c, pf->cube, pf->ncubes);
}

/* Checks a proof's form (check_form), then searches every cube: none may hold a placement
   (infeasible) or each placement it holds must be listed (c->listed, a count). Sets *searched to
   the cubes searched. */
static bool check_proof(checker *c, const proof *pf, int *searched) {
  *searched = 0;
  if (pf->size < 1)
    return fault(c, "claim: size %ld is never infeasible (the empty board)", pf->size);
  if (!check_form(c, pf)) return false;
  /* Pieces that cannot fit on the board need no search (and would overrun it). */
  if (pf->first + pf->second > c->count) return true;
  /* A count searches every cube: a sample could not give a total. */
  bool *take = pq_malloc(((size_t)pf->ncubes + 1) * sizeof *take);
  for (int i = 0; i < pf->ncubes; i++)
    *searched += take[i] = c->listed || sampled(c, i == 0);
  int jobs = c->params->jobs < pf->ncubes ? c->params->jobs : pf->ncubes;
  bool ok = true;
  for (int i = 0; i < pf->ncubes && ok && jobs < 2; i++)
    ok = !take[i] || cube_empty(c, i, pf->cube[i]);
  if (jobs >= 2) ok = search_cubes(c, pf, take, jobs);
  free(take);
  return ok;
}

/* The claim "count": the listed placements of size m (each a placement, all distinct, the list
   closed under the symmetries), every placement the cube searches complete among them; then
   they are every placement of size m. counts[0] their number, counts[1] their classes. */
static bool check_count(checker *c, const pq_json *list, const proof *pf, long m,
                        pq_count counts[2], int *searched) {
  size_t n = list->length, bytes = (size_t)c->count;
  uint8_t *cells = pq_malloc((n + 1) * bytes), *least = pq_malloc((n + 1) * bytes);
  bool ok =
      pf->size == m || fault(c, "claim: the count's proof is of size %ld, not %ld", pf->size, m);
  for (size_t i = 0; i < n && ok; i++) {
    const pq_json *item = list->items[i];
    ok = item->type == PQ_JSON_STRING && strlen(item->string) == item->length
             ? check_placement(c, item->string, m, cells + i * bytes)
             : fault(c, "placements: item %zu is not a placement", i);
  }
  if (ok && pq_check_distinct(cells, n, bytes) != n)
    ok = fault(c, "placements: a placement is listed twice");
  /* Closed under the symmetries, each placement's least image gives its class. */
  uint8_t image[PQ_CHECK_MAX_SQUARES];
  for (size_t i = 0; i < n && ok; i++) {
    const uint8_t *p = cells + i * bytes;
    memcpy(least + i * bytes, p, bytes);
    for (int g = 0; g < c->groups && ok; g++) {
      for (int s = 0; s < c->count; s++)
        image[c->image[g * c->count + s]] = p[s];
      if (!pq_check_listed(image, cells, n, bytes))
        ok = fault(c, "placements: the image of placement %zu under a symmetry is not listed", i);
      if (memcmp(image, least + i * bytes, bytes) < 0) memcpy(least + i * bytes, image, bytes);
    }
  }
  c->listed = cells;
  c->nlisted = n;
  /* Size 0: the empty placement is the only one, and the list must hold it; no cube is searched
     (a cube is a square of the split kind's first piece, and there is none), but the proof must
     still be one of size 0 in form. */
  if (ok && m == 0)
    ok = (n == 1 || fault(c, "placements: size 0 has exactly one placement")) && check_form(c, pf);
  else if (ok)
    ok = check_proof(c, pf, searched);
  c->listed = NULL;
  counts[0] = (pq_count)n;
  counts[1] = (pq_count)pq_check_distinct(least, n, bytes);
  free(cells);
  free(least);
  return ok;
}

/* The board, kinds and ratio: PQ_OK, or PQ_EINVAL with a message. */
static pq_status read_instance(checker *c, const pq_json *doc) {
  const char *board = pq_json_get_string(doc, "board"), *kinds = pq_json_get_string(doc, "kinds");
  const char *ratio = pq_json_get_string(doc, "ratio");
  if (!board) return malformed("board: expected WIDTHxHEIGHT");
  /* A bad board has pq_check_board's message, and no other. */
  if (pq_check_board(board, &c->width, &c->height)) return PQ_EINVAL;
  if (!kinds || strlen(kinds) != 2 || !strchr(letters, kinds[0]) || !strchr(letters, kinds[1]) ||
      kinds[0] == kinds[1])
    return malformed("kinds: expected two different letters of KQRBN");
  if (!parse_ratio(ratio, c->ratio)) return malformed("ratio: expected A:B");
  c->piece[0] = (int)(strchr(letters, kinds[0]) - letters);
  c->piece[1] = (int)(strchr(letters, kinds[1]) - letters);
  return PQ_OK;
}

/* "cube" or "cubes", for n of them. */

pq_status pq_qn_check(const pq_json *doc, const pq_check_params *p) {
  checker c;
  memset(&c, 0, sizeof c);
  c.params = p;
  c.rng = p->rng;
  pq_status rc = read_instance(&c, doc);
  if (rc) return rc;
  const char *kinds = pq_json_get_string(doc, "kinds"), *claim = pq_json_get_string(doc, "claim");
  int squares_on_board = c.width * c.height;
  bool count = claim && !strcmp(claim, "count");
  bool has_witness = claim && (!strcmp(claim, "maximum") || !strcmp(claim, "feasible"));
  bool has_proof = claim && (!strcmp(claim, "maximum") || !strcmp(claim, "infeasible"));
  if (!has_witness && !has_proof && !count)
    return malformed("claim: expected maximum, feasible, infeasible or count");
  long size = -1;
  const char *witness = pq_json_get_string(doc, "witness");
  const pq_json *inf = pq_json_get(doc, "infeasible"), *list = pq_json_get(doc, "placements");
  if ((has_witness || count) && pq_json_get_long(doc, "size", 0, squares_on_board, &size))
    return malformed("size");
  if (has_witness && !witness) return malformed("size and witness");
  if (!has_witness && !count && (pq_json_get(doc, "size") || witness))
    return malformed("an infeasible claim has no size or witness");
  if (!has_proof && !count && inf) return malformed("a feasible claim has no infeasible member");
  if (count && (!list || list->type != PQ_JSON_ARRAY || witness))
    return malformed("a count has placements and no witness");
  pq_count stated[2];
  if (count && (pq_json_count(pq_json_get(doc, "total"), &stated[0]) ||
                pq_json_count(pq_json_get(doc, "unique"), &stated[1])))
    return malformed("total and unique: numbers");
  proof pf = {0}, counted = {0};
  if ((has_proof || (count && inf)) && (rc = read_proof(&c, inf, kinds, &pf))) return rc;
  if (count && (rc = read_proof(&c, pq_json_get(doc, "count"), kinds, &counted))) {
    free(pf.cube);
    return rc;
  }
  /* Well formed: from here on a fault makes the certificate invalid, not malformed. */
  checker_tables(&c);
  bool ok = true;
  int searched = 0, counted_cubes = 0;
  pq_count counts[2] = {0, 0};
  if (has_witness) ok = check_witness(&c, witness, size);
  if (ok && (has_witness || count) && inf && pf.size != size + 1)
    ok = fault(&c, "claim: the size proven infeasible is %ld, not the %s's %ld + 1", pf.size,
               count ? "count" : "witness", size);
  if (ok && count) ok = check_count(&c, list, &counted, size, counts, &counted_cubes);
  if (ok && count && stated[0] != counts[0])
    ok = fault(&c, "claim: the stated total is not the number of placements listed");
  if (ok && count && stated[1] != counts[1])
    ok = fault(&c, "claim: the stated unique is not the classes of the placements listed");
  /* A count with the proof that one more does not fit claims a maximum: a size that fits. */
  if (ok && count && inf && counts[0] == 0)
    ok = fault(&c, "claim: a count of none is no maximum (size %ld does not fit either)", size);
  if (ok && inf) ok = check_proof(&c, &pf, &searched);
  free(pf.cube);
  free(counted.cube);
  free(c.conflict);
  free(c.image);
  free(c.least);
  if (c.stopped) return pq_check_stopped();
  if (!ok) {
    pq_check_report(p, "qn", PQ_INVALID, "%s", c.why);
    return PQ_EFALSE;
  }
  char fits[160] = "", fails[128] = "", n[2][48];
  if (has_witness)
    snprintf(fits, sizeof fits, " %ld %c and %ld %c fit (witness checked)%s", c.ratio[0] * size,
             kinds[0], c.ratio[1] * size, kinds[1], inf ? ";" : "");
  if (count)
    snprintf(fits, sizeof fits,
             " %s placement%s of %ld %c and %ld %c (%s up to symmetry; every one listed and "
             "checked, %d %s searched, %llu %s)%s",
             pq_count_str(counts[0], n[0]), counts[0] == 1 ? "" : "s", c.ratio[0] * size, kinds[0],
             c.ratio[1] * size, kinds[1], pq_count_str(counts[1], n[1]), counted_cubes,
             pq_noun(counted_cubes, "cube", "cubes"), c.nodes, c.nodes == 1 ? "node" : "nodes",
             inf ? ";" : "");
  if (inf && count)
    snprintf(fails, sizeof fails, " %ld %c and %ld %c do not fit (%d %s, %d searched)", pf.first,
             kinds[0], pf.second, kinds[1], pf.ncubes, pq_noun(pf.ncubes, "cube", "cubes"),
             searched);
  else if (inf)
    snprintf(fails, sizeof fails, " %ld %c and %ld %c do not fit (%d %s, %d searched, %llu %s)",
             pf.first, kinds[0], pf.second, kinds[1], pf.ncubes,
             pq_noun(pf.ncubes, "cube", "cubes"), searched, c.nodes,
             c.nodes == 1 ? "node" : "nodes");
  /* A sampled check says so: it is an audit, not a verification. */
  pq_check_report(p, "qn", c.skipped ? PQ_VALID_IN_SAMPLE : PQ_VALID, "qn %s %d:%d on %dx%d:%s%s",
                  kinds, c.ratio[0], c.ratio[1], c.width, c.height, fits, fails);
  return PQ_OK;
}
