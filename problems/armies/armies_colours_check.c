/* armies_colours_check.c: the checker of certificates of armies of several colours
   (doc/certificate.md, "Armies of several colours"), part of libcheck.a: its own geometry, attack
   test, bounds and symmetries, nothing of the search. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/check/check.h"

#define MAX_COLOURS 15
#define MAX_SPLIT 16
#define MAX_STATES 40000

typedef struct checker {
  int width, height, squares, piece; /* piece: 1 queen, 2 rook, 3 bishop (index in "KQRBN") */
  int colours, need;                 /* the size proven not to fit, each colour */
  int lines;                         /* line ids 0 .. lines - 1 (doc/certificate.md, "Lines") */
  int *line_square, *line_length;    /* [l * PQ_CHECK_MAX_SIDE + i]: the squares of line l */
  int (*line_of)[4];                 /* per square, its line of each direction */
  signed char *label;  /* per line: -1 undecided, else its colour (counts: colours = empty) */
  int *decided, *with; /* per square: its decided piece lines; [s * C + c] of c */
  int *states_a, *states_b;
  unsigned *mask; /* per square, the colours it is open to at a leaf; then the distinct masks */
  int *times;     /* how many squares have each distinct mask */
  int (*on_line)[MAX_COLOURS]; /* the knapsack's lines: each colour's open squares on each */
  const pq_check_params *params;
  uint64_t rng;
  long leaves, skipped, at;
  bool interrupted;
  /* Count trees (doc/certificate.md, "Count certificates of several colours"): */
  bool counting;                /* labels are the colour of the line's pieces, or empty */
  int labelled[MAX_COLOURS][4]; /* lines labelled with each colour, by direction */
  bool overflow;                /* a count passed 2^128 - 1 */
  long count_cubes;             /* the count proof's cubes */
  char why[200];
} checker;

static bool fault(checker *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fault(checker *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (!c->why[0]) vsnprintf(c->why, sizeof c->why, fmt, ap);
  va_end(ap);
  return false;
}

static bool piece_dir(const checker *c, int d) {
  return c->piece == 1 || (c->piece == 2 && d < 2) || (c->piece == 3 && d >= 2);
}

/* The id of the line of direction d through row r, column k (doc/certificate.md, "Lines"). */
static int line_id(const checker *c, int d, int r, int k) {
  int h = c->height, w = c->width;
  switch (d) {
  case 0: return r;
  case 1: return h + k;
  case 2: return h + w + (k - r + h - 1);
  default: return h + w + (w + h - 1) + (r + k);
  }
}

static int line_dir(const checker *c, int id) {
  int h = c->height, w = c->width, n = w + h - 1;
  return id < h ? 0 : id < h + w ? 1 : id < h + w + n ? 2 : id < h + w + 2 * n ? 3 : -1;
}

static bool attacks(const checker *c, int s, int t) {
  int dr = abs(s / c->width - t / c->width), dk = abs(s % c->width - t % c->width);
  if (s == t) return false;
  return (piece_dir(c, 0) && (dr == 0 || dk == 0)) || (piece_dir(c, 2) && dr == dk);
}

static void geometry(checker *c) {
  c->lines = c->height + c->width + 2 * (c->width + c->height - 1);
  c->line_square = pq_calloc((size_t)c->lines * PQ_CHECK_MAX_SIDE, sizeof(int));
  c->line_length = pq_calloc((size_t)c->lines, sizeof(int));
  c->line_of = pq_calloc((size_t)c->squares, sizeof *c->line_of);
  for (int s = 0; s < c->squares; s++)
    for (int d = 0; d < 4; d++) {
      int l = line_id(c, d, s / c->width, s % c->width);
      c->line_of[s][d] = l;
      c->line_square[l * PQ_CHECK_MAX_SIDE + c->line_length[l]++] = s;
    }
  c->label = pq_malloc((size_t)c->lines);
  memset(c->label, -1, (size_t)c->lines);
  c->decided = pq_calloc((size_t)c->squares, sizeof(int));
  c->with = pq_calloc((size_t)c->squares * (size_t)c->colours, sizeof(int));
  c->states_a = pq_calloc(MAX_STATES, sizeof(int));
  c->states_b = pq_calloc(MAX_STATES, sizeof(int));
  c->mask = pq_calloc(2 * (size_t)c->squares, sizeof *c->mask);
  c->times = pq_calloc((size_t)c->squares, sizeof *c->times);
  c->on_line = pq_calloc((size_t)c->lines, sizeof *c->on_line);
}

static void free_checker(checker *c) {
  free(c->line_square);
  free(c->line_length);
  free(c->line_of);
  free(c->label);
  free(c->decided);
  free(c->with);
  free(c->states_a);
  free(c->states_b);
  free(c->mask);
  free(c->times);
  free(c->on_line);
}

/* Square s is open to colour k when each of its decided piece lines is labelled k; in a count
   tree also, for each direction with exactly `need` lines labelled k, when its line of that
   direction is one of them (each of those lines holds one of k's `need` pieces, so k has none
   elsewhere). */
static bool open_to(const checker *c, int s, int k) {
  if (c->with[s * c->colours + k] != c->decided[s]) return false;
  for (int d = 0; c->counting && d < 4; d++)
    if (c->labelled[k][d] == c->need && c->label[c->line_of[s][d]] != k) return false;
  return true;
}

/* Labels line l with colour k (in a count tree, k = colours: empty), or (delta -1) undoes it. */
static void set_label(checker *c, int l, int k, int delta) {
  c->label[l] = (signed char)(delta > 0 ? k : -1);
  if (k < c->colours) c->labelled[k][line_dir(c, l)] += delta;
  for (int i = 0; i < c->line_length[l]; i++) {
    int s = c->line_square[l * PQ_CHECK_MAX_SIDE + i];
    c->decided[s] += delta;
    if (k < c->colours) c->with[s * c->colours + k] += delta;
  }
}

/* The open squares of colour k on line l. */
static int open_on(const checker *c, int l, int k) {
  int n = 0;
  for (int i = 0; i < c->line_length[l]; i++)
    n += open_to(c, c->line_square[l * PQ_CHECK_MAX_SIDE + i], k);
  return n;
}

/* The knapsack of direction d: whether the lines of d can each be given one colour so that
   every colour has `need` open squares on its lines (mask[s]: the colours square s is open to). */
static bool knapsack_holds(checker *c, int d, const unsigned *mask) {
  int C = c->colours, k = c->need, states = 1, (*a)[MAX_COLOURS] = c->on_line, n = 0;
  for (int i = 0; i < C - 1; i++)
    if ((states *= k + 1) > MAX_STATES) return true; /* no bound past this size */
  for (int l = 0; l < c->lines; l++) {
    if (line_dir(c, l) != d || !c->line_length[l]) continue;
    memset(a[n], 0, sizeof a[n]);
    for (int i = 0; i < c->line_length[l]; i++)
      for (unsigned m = mask[c->line_square[l * PQ_CHECK_MAX_SIDE + i]]; m; m &= m - 1)
        a[n][__builtin_ctz(m)]++;
    n++;
  }
  /* One assignment first: each line to the colour with the fewest squares so far among those
     with squares on it. If it gives every colour `need`, the knapsack holds. */
  int have[MAX_COLOURS] = {0}, short_of = 0;
  for (int i = 0; i < n; i++) {
    int best = -1;
    for (int k2 = 0; k2 < C; k2++)
      if (a[i][k2] && (best < 0 || have[k2] < have[best])) best = k2;
    if (best >= 0) have[best] += a[i][best];
  }
  for (int k2 = 0; k2 < C; k2++)
    short_of += have[k2] < k;
  if (!short_of) return true;
  int *most = c->states_a, *next = c->states_b;
  for (int x = 0; x < states; x++)
    most[x] = -1;
  most[0] = 0;
  for (int i = 0; i < n; i++) {
    for (int x = 0; x < states; x++)
      next[x] = -1;
    for (int x = 0; x < states; x++) {
      if (most[x] < 0) continue;
      if (most[x] + a[i][C - 1] > next[x]) next[x] = most[x] + a[i][C - 1];
      for (int k2 = 0, radix = 1, rest = x; k2 < C - 1; k2++, radix *= k + 1, rest /= k + 1) {
        int got = rest % (k + 1), more = got + a[i][k2] > k ? k - got : a[i][k2];
        if (most[x] > next[x + more * radix]) next[x + more * radix] = most[x];
      }
    }
    int *t = most;
    most = next;
    next = t;
  }
  return most[states - 1] >= k;
}

/* Whether a leaf is closed: a colour with fewer than `need` open squares; a set T of colours
   with fewer than |T| need squares open to one of them (up to 10 colours); or a direction's
   knapsack that fails. */
static bool leaf_closed(checker *c) {
  int C = c->colours, open[MAX_COLOURS] = {0}, kinds = 0;
  unsigned *mask = c->mask, *kind = c->mask + c->squares; /* the distinct masks, and how many */
  int *times = c->times;
  for (int s = 0; s < c->squares; s++) {
    mask[s] = 0;
    for (int k = 0; k < C; k++)
      if (open_to(c, s, k)) open[k]++, mask[s] |= 1u << k;
  }
  bool closed = false;
  for (int k = 0; k < C && !closed; k++)
    closed = open[k] < c->need;
  for (int s = 0; s < c->squares && !closed && C <= 10; s++) {
    int i = 0;
    while (i < kinds && kind[i] != mask[s])
      i++;
    if (i == kinds) kind[kinds] = mask[s], times[kinds++] = 0;
    times[i]++;
  }
  for (unsigned t = 3; C <= 10 && t < (1u << C) && !closed; t++) {
    int n = __builtin_popcount(t), union_size = 0;
    for (int i = 0; i < kinds; i++)
      union_size += (kind[i] & t) ? times[i] : 0;
    closed = union_size < n * c->need;
  }
  for (int d = 0; d < 4 && !closed; d++)
    closed = piece_dir(c, d) && !knapsack_holds(c, d, mask);
  return closed;
}

/* Checks the subtree at *p; used: the colours in the cube or on the path. */
static bool check_node(checker *c, const char *tree, const char **p, unsigned used) {
  c->at = *p - tree;
  if (pq_check_stop(c->params)) return c->interrupted = true, false;
  if (**p == '.') {
    (*p)++;
    if (!pq_check_sampled(c->params, &c->rng)) return c->skipped++, true;
    c->leaves++;
    return leaf_closed(c) || fault(c, "tree: a leaf's bound does not close it");
  }
  long l = 0;
  if (**p < '0' || **p > '9') return fault(c, "tree: unexpected character");
  while (**p >= '0' && **p <= '9' && l < 100000)
    l = l * 10 + (*(*p)++ - '0');
  if (*(*p)++ != ',' || l >= c->lines || !piece_dir(c, line_dir(c, (int)l)) || c->label[l] >= 0)
    return fault(c, "tree: a branch names no undecided line of the piece");
  int C = c->colours, squares[MAX_COLOURS];
  bool tree_child[MAX_COLOURS];
  for (int k = 0; k < C; k++)
    squares[k] = open_on(c, (int)l, k);
  for (int k = 0; k < C; k++) {
    tree_child[k] = **p != '-';
    if (!tree_child[k]) {
      (*p)++;
      continue;
    }
    set_label(c, (int)l, k, +1);
    bool ok = check_node(c, tree, p, used | 1u << k);
    set_label(c, (int)l, k, -1);
    if (!ok) return false;
  }
  /* A colour left out ('-') stands for a subtree that exists: an unused colour is like a lower
     unused one with a subtree; a colour with no open square on the line does no better than
     one with squares there that is covered. */
  bool covered[MAX_COLOURS];
  for (int k = 0; k < C; k++) {
    covered[k] = tree_child[k];
    for (int j = 0; j < k && !covered[k]; j++)
      covered[k] = tree_child[j] && !((used >> j) & 1) && !((used >> k) & 1);
  }
  for (int k = 0; k < C; k++) {
    if (covered[k]) continue;
    bool dominated = false;
    for (int j = 0; j < C && !squares[k] && !dominated; j++)
      dominated = squares[j] && covered[j];
    if (!dominated)
      return fault(c, "tree: colour %d of line %ld is left out without a reason", k, l);
  }
  return true;
}

/* Renumbers colours by first use. */
static void normalize(const uint8_t *in, int n, uint8_t *out) {
  uint8_t map[MAX_COLOURS];
  memset(map, 0xff, sizeof map);
  int next = 0;
  for (int i = 0; i < n; i++) {
    if (map[in[i]] == 0xff) map[in[i]] = (uint8_t)next++;
    out[i] = map[in[i]];
  }
}

/* The image of line l under symmetry g, as a line: the line of the image direction through the
   image of one of its squares (doc/certificate.md, "Symmetry split"). */
static int line_image(const checker *c, int g, int l) {
  static const int step[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
  int d = line_dir(c, l), s = c->line_square[l * PQ_CHECK_MAX_SIDE];
  int r0, k0, r1, k1, r, k, d2 = 0;
  pq_check_map(c->width, c->height, g, 0, 0, &r0, &k0);
  pq_check_map(c->width, c->height, g, step[d][0], step[d][1], &r1, &k1);
  int dr = r1 - r0, dk = k1 - k0;
  while (!((step[d2][0] == dr && step[d2][1] == dk) || (step[d2][0] == -dr && step[d2][1] == -dk)))
    d2++;
  pq_check_map(c->width, c->height, g, s / c->width, s % c->width, &r, &k);
  return line_id(c, d2, r, k);
}

/* The cover: the split closed under the symmetries, the cubes in first-use order and distinct,
   and every labelling of the split lines mapped by some symmetry, after renumbering its colours
   by first use, onto a cube. */
static bool check_cover(checker *c, const int *split, int n, const pq_json *cubes) {
  int groups = c->width == c->height ? 8 : 4, img[8][MAX_SPLIT];
  double all = 1;
  for (int i = 0; i < n; i++)
    all *= c->colours;
  if (all > 1e7) return fault(c, "split: too many labellings of the split lines to check");
  for (int g = 0; g < groups; g++)
    for (int i = 0; i < n; i++) {
      int m = line_image(c, g, split[i]);
      img[g][i] = -1;
      for (int j = 0; j < n; j++)
        if (split[j] == m) img[g][i] = j;
      if (img[g][i] < 0) return fault(c, "split: the split lines are not closed under symmetry");
    }
  uint8_t *present = pq_calloc((size_t)all, 1);
  bool ok = true;
  for (size_t q = 0; q < cubes->length && ok; q++) {
    const char *t = cubes->items[q]->string;
    uint8_t x[MAX_SPLIT], y[MAX_SPLIT];
    long code = 0;
    for (int i = 0; i < n; i++)
      code = code * c->colours + (x[i] = (uint8_t)(t[i] - '0'));
    normalize(x, n, y);
    if (memcmp(x, y, (size_t)n))
      ok = fault(c, "cubes: cube %zu is not in first-use order", q);
    else if (present[code])
      ok = fault(c, "cubes: cube %zu is given twice", q);
    present[code] = 1;
  }
  for (long code = 0; code < (long)all && ok; code++) {
    uint8_t x[MAX_SPLIT], y[MAX_SPLIT], z[MAX_SPLIT];
    for (int i = n - 1, rest = (int)code; i >= 0; i--, rest /= c->colours)
      x[i] = (uint8_t)(rest % c->colours);
    bool covered = false;
    for (int g = 0; g < groups && !covered; g++) {
      for (int i = 0; i < n; i++)
        y[img[g][i]] = x[i];
      normalize(y, n, z);
      long image = 0;
      for (int i = 0; i < n; i++)
        image = image * c->colours + z[i];
      covered = present[image];
    }
    if (!covered) ok = fault(c, "cubes: a labelling of the split lines is in no cube");
  }
  free(present);
  return ok;
}

/* The witness: size pieces of each colour, no piece attacking one of another colour. */
static bool check_witness(checker *c, const char *text, long size) {
  static const char symbols[] = ".123456789abcdef";
  char allowed[MAX_COLOURS + 2];
  memcpy(allowed, symbols, (size_t)c->colours + 1);
  allowed[c->colours + 1] = '\0';
  uint8_t cells[PQ_CHECK_MAX_SQUARES];
  int square, have[MAX_COLOURS + 1] = {0};
  char bad;
  if (pq_check_rows(text, c->width, c->height, allowed, cells, &square, &bad) != PQ_ROWS_OK)
    return fault(c, "witness \"%.80s\": not %d rows of %d squares, each '.' or a colour 1..%d",
                 text, c->height, c->width, c->colours);
  for (int s = 0; s < c->squares; s++) {
    have[cells[s]]++;
    for (int t = 0; t < s; t++)
      if (cells[s] && cells[t] && cells[s] != cells[t] && attacks(c, s, t))
        return fault(c, "witness: a piece attacks one of another colour");
  }
  for (int k = 1; k <= c->colours; k++)
    if (have[k] != size)
      return fault(c, "witness: colour %d has %d pieces, not %ld", k, have[k], size);
  return true;
}

static pq_status malformed(const char *what) {
  pq_error("verify: malformed certificate of armies of several colours (%s)", what);
  return PQ_EINVAL;
}

/* Reads the proof's split and cubes; checks the cover and every tree. */
static pq_status check_proof(checker *c, const pq_json *inf, bool *ok) {
  const pq_json *split = pq_json_get(inf, "split"), *cubes = pq_json_get(inf, "cubes"),
                *trees = pq_json_get(inf, "trees");
  if (!split || split->type != PQ_JSON_ARRAY || split->length > MAX_SPLIT || !cubes ||
      cubes->type != PQ_JSON_ARRAY || !trees || trees->type != PQ_JSON_ARRAY ||
      trees->length != cubes->length || cubes->length > INT_MAX)
    return malformed("infeasible: split, cubes, trees");
  int n = (int)split->length, lines[MAX_SPLIT];
  for (int i = 0; i < n; i++) {
    long l;
    if (split->items[i]->type != PQ_JSON_NUMBER ||
        pq_parse_long(split->items[i]->string, 0, c->lines - 1, &l))
      return malformed("a split line");
    lines[i] = (int)l;
    for (int j = 0; j < i; j++)
      if (lines[j] == lines[i])
        return *ok = fault(c, "split: line %d is given twice", (int)l), PQ_OK;
    if (!piece_dir(c, line_dir(c, (int)l)))
      return *ok = fault(c, "split: a split line is not a line of the piece"), PQ_OK;
  }
  for (size_t q = 0; q < cubes->length; q++) {
    const pq_json *cube = cubes->items[q], *t = trees->items[q];
    if (cube->type != PQ_JSON_STRING || t->type != PQ_JSON_STRING || cube->length != (size_t)n ||
        strlen(t->string) != t->length)
      return malformed("a cube or a tree");
    for (int i = 0; i < n; i++)
      if (cube->string[i] < '0' || cube->string[i] >= '0' + c->colours)
        return malformed("a cube's colour");
  }
  *ok = check_cover(c, lines, n, cubes);
  for (size_t q = 0; q < cubes->length && *ok; q++) {
    unsigned used = 0;
    for (int i = 0; i < n; i++) {
      int k = cubes->items[q]->string[i] - '0';
      set_label(c, lines[i], k, +1);
      used |= 1u << k;
    }
    const char *tree = trees->items[q]->string, *p = tree;
    *ok = check_node(c, tree, &p, used) && (!*p || fault(c, "tree: text after the tree's end"));
    for (int i = 0; i < n; i++)
      set_label(c, lines[i], cubes->items[q]->string[i] - '0', -1);
    if (!*ok && !strncmp(c->why, "tree: ", 6)) {
      char why[sizeof c->why];
      snprintf(why, sizeof why, "tree %zu (cube \"%.20s\"), at byte %ld: %s", q,
               cubes->items[q]->string, c->at, c->why + 6);
      memcpy(c->why, why, sizeof why);
    }
  }
  return PQ_OK;
}

/* C(n, k) in 128 bits; sets c->overflow past 2^128 - 1. */
static pq_count binomial(checker *c, int n, int k) {
  if (k < 0 || k > n) return 0;
  pq_count r = 1;
  for (int i = 1; i <= k; i++) {
    /* r * (n - k + i) / i stays whole: it is C(n - k + i, i). */
    pq_count next = r * (pq_count)(n - k + i);
    if (next / (pq_count)(n - k + i) != r) {
      c->overflow = true;
      return 0;
    }
    r = next / (pq_count)i;
  }
  return r;
}

/* ---- count certificates (doc/certificate.md, "Count certificates of several colours") ---- */

/* The sets of `left` squares among the squares still free (free_square[s], n of them) that meet
   every line of need[0..nneed) (the lines labelled with the colour, each of which holds one of
   its pieces), by their first square on need[0]: it meets need[0] and the other lines through
   it, and the free squares of need[0] before it are left out. */
static pq_count meeting(checker *c, bool *free_square, int n, int left, int *need, int nneed) {
  if (!nneed) return binomial(c, n, left);
  if (!left || n < left || nneed > 4 * left) return 0;
  int l = need[0], done[PQ_CHECK_MAX_SIDE], ndone = 0;
  pq_count total = 0;
  for (int i = 0; i < c->line_length[l]; i++) {
    int s = c->line_square[l * PQ_CHECK_MAX_SIDE + i], gone[4], m = 0;
    if (!free_square[s]) continue;
    free_square[s] = false; /* taken here, left out of the sets that come after */
    done[ndone++] = s;
    for (int j = 0; j < nneed; j++)
      for (int d = 0; d < 4; d++)
        if (need[j] == c->line_of[s][d]) {
          gone[m++] = need[j];
          need[j--] = need[--nneed];
          break;
        }
    if (pq_count_add(&total, meeting(c, free_square, n - ndone, left - 1, need, nneed)))
      c->overflow = true;
    for (int j = 0; j < m; j++)
      need[nneed++] = gone[j];
  }
  for (int i = 0; i < ndone; i++)
    free_square[done[i]] = true;
  return total;
}

/* A count leaf "c": every undecided line of the piece has squares open to one colour at most,
   so the colours' open squares are disjoint and any `need` of each colour's that meet its lines
   make a placement, counted here only. */
static bool count_leaf(checker *c, pq_count *n) {
  int C = c->colours;
  for (int l = 0; l < c->lines; l++) {
    if (c->label[l] >= 0 || !piece_dir(c, line_dir(c, l))) continue;
    int open = 0;
    for (int k = 0; k < C && open < 2; k++)
      open += open_on(c, l, k) > 0;
    if (open > 1) return fault(c, "tree: a count leaf with a line open to two colours");
  }
  bool *open = pq_malloc((size_t)c->squares * sizeof *open);
  int *need = pq_malloc((size_t)c->lines * sizeof *need);
  pq_count product = 1;
  for (int k = 0; k < C && product; k++) {
    int nopen = 0, nneed = 0;
    for (int s = 0; s < c->squares; s++)
      nopen += open[s] = open_to(c, s, k);
    for (int l = 0; l < c->lines; l++)
      if (c->label[l] == k) need[nneed++] = l;
    pq_count ways = meeting(c, open, nopen, c->need, need, nneed), next = product * ways;
    if (ways && next / ways != product) c->overflow = true;
    product = next;
  }
  free(open);
  free(need);
  *n = product;
  return true;
}

/* Whether a count tree's leaf "." is closed: more than `need` parallel lines labelled with one
   colour (each holds one of its pieces), a line labelled with a colour and no square open to it,
   or a bound of leaf_closed. */
static bool count_closed(checker *c) {
  for (int k = 0; k < c->colours; k++)
    for (int d = 0; d < 4; d++)
      if (c->labelled[k][d] > c->need) return true;
  for (int l = 0; l < c->lines; l++)
    if (c->label[l] >= 0 && c->label[l] < c->colours && !open_on(c, l, c->label[l])) return true;
  return leaf_closed(c);
}

/* Checks the count subtree at *p and sets *n to the placements it counts; used: the colours in
   the cube or on the path. */
static bool count_node(checker *c, const char *tree, const char **p, unsigned used, pq_count *n) {
  c->at = *p - tree;
  *n = 0;
  if (pq_check_stop(c->params)) return c->interrupted = true, false;
  if (**p == 'c') {
    (*p)++;
    c->leaves++;
    return count_leaf(c, n);
  }
  if (**p == '.') {
    (*p)++;
    if (!pq_check_sampled(c->params, &c->rng)) return c->skipped++, true;
    c->leaves++;
    return count_closed(c) || fault(c, "tree: a leaf's bound does not close it");
  }
  long l = 0;
  if (**p < '0' || **p > '9') return fault(c, "tree: unexpected character");
  while (**p >= '0' && **p <= '9' && l < 100000)
    l = l * 10 + (*(*p)++ - '0');
  if (*(*p)++ != ',' || l >= c->lines || !piece_dir(c, line_dir(c, (int)l)) || c->label[l] >= 0)
    return fault(c, "tree: a branch names no undecided line of the piece");
  int C = c->colours, squares[MAX_COLOURS + 1];
  bool tree_child[MAX_COLOURS + 1];
  pq_count counts[MAX_COLOURS + 1];
  for (int k = 0; k < C; k++)
    squares[k] = open_on(c, (int)l, k);
  for (int k = 0; k <= C; k++) {
    counts[k] = 0;
    tree_child[k] = **p != '-';
    if (!tree_child[k]) {
      if (k == C) return fault(c, "tree: the child where line %ld is empty is left out", l);
      (*p)++;
      continue;
    }
    set_label(c, (int)l, k, +1);
    bool ok = count_node(c, tree, p, k < C ? used | 1u << k : used, &counts[k]);
    set_label(c, (int)l, k, -1);
    if (!ok) return false;
  }
  /* A colour left out ('-') counts as a lower colour with a subtree when neither is used (the
     two are alike there), or nothing when no square of the line is open to it (the line would
     hold one of its pieces). */
  for (int k = 0; k < C; k++) {
    if (tree_child[k]) continue;
    int like = -1;
    for (int j = 0; j < k && like < 0; j++)
      if (tree_child[j] && !((used >> j) & 1) && !((used >> k) & 1)) like = j;
    if (like >= 0)
      counts[k] = counts[like];
    else if (squares[k])
      return fault(c, "tree: colour %d of line %ld is left out without a reason", k, l);
  }
  for (int k = 0; k <= C; k++)
    if (pq_count_add(n, counts[k])) c->overflow = true;
  return true;
}

/* Renumbers a labelling of the split lines by first use, leaving empty (colours) as it is. */
static void normalize_count(const uint8_t *in, int n, int colours, uint8_t *out) {
  uint8_t map[MAX_COLOURS];
  memset(map, 0xff, sizeof map);
  int next = 0;
  for (int i = 0; i < n; i++) {
    if (in[i] == colours) {
      out[i] = in[i];
      continue;
    }
    if (map[in[i]] == 0xff) map[in[i]] = (uint8_t)next++;
    out[i] = map[in[i]];
  }
}

/* colours! / (colours - used)!: the renumberings of `used` colours into the colours. */
static pq_count arrangements(int colours, int used) {
  pq_count r = 1;
  for (int i = 0; i < used; i++)
    r *= (pq_count)(colours - i);
  return r;
}

/* The exact cover of a count: the split closed under the symmetries; the cubes in first-use
   order; the images of each cube under the symmetries (renumbered by first use) met by no other
   cube; every labelling in first-use order one of them. weight[q]: the labellings in cube q's
   class under the symmetries and the colours' permutations (its distinct renumbered images,
   times the renumberings of its colours). */
static bool check_count_cover(checker *c, const int *split, int n, const pq_json *cubes,
                              pq_count *weight) {
  int groups = c->width == c->height ? 8 : 4, img[8][MAX_SPLIT], C = c->colours, base = C + 1;
  double all = 1;
  for (int i = 0; i < n; i++)
    all *= base;
  if (all > 1e7) return fault(c, "split: too many labellings of the split lines to check");
  for (int g = 0; g < groups; g++)
    for (int i = 0; i < n; i++) {
      int m = line_image(c, g, split[i]);
      img[g][i] = -1;
      for (int j = 0; j < n; j++)
        if (split[j] == m) img[g][i] = j;
      if (img[g][i] < 0) return fault(c, "split: the split lines are not closed under symmetry");
    }
  int *owner = pq_malloc((size_t)all * sizeof *owner);
  for (long code = 0; code < (long)all; code++)
    owner[code] = -1;
  bool ok = true;
  for (size_t q = 0; q < cubes->length && ok; q++) {
    const char *t = cubes->items[q]->string;
    uint8_t x[MAX_SPLIT], y[MAX_SPLIT], z[MAX_SPLIT];
    unsigned colours_used = 0;
    for (int i = 0; i < n; i++) {
      x[i] = (uint8_t)(t[i] == '.' ? C : t[i] - '0');
      if (x[i] < C) colours_used |= 1u << x[i];
    }
    normalize_count(x, n, C, y);
    if (memcmp(x, y, (size_t)n)) {
      ok = fault(c, "cubes: cube %zu is not in first-use order", q);
      break;
    }
    pq_count images = 0;
    for (int g = 0; g < groups && ok; g++) {
      for (int i = 0; i < n; i++)
        y[img[g][i]] = x[i];
      normalize_count(y, n, C, z);
      long code = 0;
      for (int i = 0; i < n; i++)
        code = code * base + z[i];
      if (owner[code] == (int)q) continue;
      if (owner[code] >= 0)
        ok = fault(c, "cubes: cube %zu shares its class with cube %d", q, owner[code]);
      owner[code] = (int)q;
      images++;
    }
    weight[q] = images * arrangements(C, __builtin_popcount(colours_used));
  }
  for (long code = 0; code < (long)all && ok; code++) {
    uint8_t x[MAX_SPLIT], y[MAX_SPLIT];
    for (int i = n - 1, rest = (int)code; i >= 0; i--, rest /= base)
      x[i] = (uint8_t)(rest % base);
    normalize_count(x, n, C, y);
    if (!memcmp(x, y, (size_t)n) && owner[code] < 0)
      ok = fault(c, "cubes: a labelling of the split lines is in no cube");
  }
  free(owner);
  return ok;
}

/* A placement's class: the least of its images under the symmetries with the colours renumbered
   by first use square by square, into least. */
static void least_class(const checker *c, const uint8_t *cells, uint8_t *least) {
  int groups = c->width == c->height ? 8 : 4;
  uint8_t image[PQ_CHECK_MAX_SQUARES];
  for (int g = 0; g < groups; g++) {
    uint8_t map[MAX_COLOURS + 1] = {0}, next = 1;
    for (int s = 0; s < c->squares; s++)
      image[pq_check_image(c->width, c->height, g, s)] = cells[s];
    for (int s = 0; s < c->squares; s++) {
      if (image[s] && !map[image[s]]) map[image[s]] = next++;
      image[s] = map[image[s]];
    }
    if (!g || memcmp(image, least, (size_t)c->squares) < 0)
      memcpy(least, image, (size_t)c->squares);
  }
}

/* The listed placements: each of `size` pieces of every colour with no attack, the least of its
   class, none twice. counts: the placements of all the classes, the classes up to the
   symmetries, and the classes (computed from each class's stabilisers: with s the symmetries g
   whose image of P is P renumbered, and f those that fix P, the class has |G| C! / s placements
   and C! f / s classes up to the symmetries). */
static bool check_classes(checker *c, const pq_json *list, long size, pq_count counts[3]) {
  size_t n = list->length, bytes = (size_t)c->squares;
  int groups = c->width == c->height ? 8 : 4;
  uint8_t *cells = pq_malloc((n + 1) * bytes), least[PQ_CHECK_MAX_SQUARES];
  pq_count factorial = arrangements(c->colours, c->colours);
  bool ok = true;
  counts[0] = counts[1] = counts[2] = 0;
  for (size_t i = 0; i < n && ok; i++) {
    const pq_json *item = list->items[i];
    uint8_t *p = cells + i * bytes;
    if (item->type != PQ_JSON_STRING || strlen(item->string) != item->length ||
        !check_witness(c, item->string, size)) {
      char why[sizeof c->why];
      snprintf(why, sizeof why, "placements: item %zu: %.150s", i,
               c->why[0] ? c->why : "not a text");
      memcpy(c->why, why, sizeof why);
      ok = false;
      break;
    }
    pq_check_rows(item->string, c->width, c->height, ".123456789abcdef", p, &(int){0}, &(char){0});
    least_class(c, p, least);
    if (memcmp(least, p, bytes)) {
      ok = fault(c, "placements: item %zu is not the least of its class", i);
      break;
    }
    int s = 0, f = 0;
    for (int g = 0; g < groups; g++) {
      uint8_t image[PQ_CHECK_MAX_SQUARES], renumbered[PQ_CHECK_MAX_SQUARES],
          map[MAX_COLOURS + 1] = {0}, next = 1;
      for (int q = 0; q < c->squares; q++)
        image[pq_check_image(c->width, c->height, g, q)] = p[q];
      for (int q = 0; q < c->squares; q++) {
        if (image[q] && !map[image[q]]) map[image[q]] = next++;
        renumbered[q] = map[image[q]];
      }
      s += !memcmp(renumbered, p, bytes);
      f += !memcmp(image, p, bytes);
    }
    /* s counts the pairs (g, permutation) that fix P (one permutation at most for each g: every
       colour stands), f those with the identity: both divide as said, checked all the same. */
    if (!s || !f || groups % s || s % f || factorial % (pq_count)(s / f))
      ok = fault(c, "placements: item %zu has stabilisers that are no group", i);
    else if (pq_count_add(&counts[0], factorial * (pq_count)(groups / s)) ||
             pq_count_add(&counts[1], factorial / (pq_count)(s / f)))
      c->overflow = true;
    counts[2]++;
  }
  if (ok && pq_check_distinct(cells, n, bytes) != n)
    ok = fault(c, "placements: a placement is listed twice");
  free(cells);
  return ok;
}

/* The claim "count": the count's proof (cover and trees) gives the number of placements of
   `size` of each colour; the listed classes hold exactly that many; the stated numbers are
   theirs. At size 0 the list is the empty board alone. */
static pq_status check_count(checker *c, const pq_json *doc, long size, pq_count counts[3],
                             bool *ok) {
  const pq_json *list = pq_json_get(doc, "placements"), *count = pq_json_get(doc, "count");
  static const char *const keys[3] = {"total", "unique", "unique_colour"};
  pq_count stated[3], total = 0;
  if (!list || list->type != PQ_JSON_ARRAY || (size > 0) != (count != NULL))
    return malformed("placements, and count with a size from 1");
  for (int i = 0; i < 3; i++)
    if (pq_json_count(pq_json_get(doc, keys[i]), &stated[i])) return malformed(keys[i]);
  c->need = (int)size;
  if (!size) {
    uint8_t cells[PQ_CHECK_MAX_SQUARES];
    int square;
    char bad;
    *ok = list->length == 1 && list->items[0]->type == PQ_JSON_STRING &&
          pq_check_rows(list->items[0]->string, c->width, c->height, ".", cells, &square, &bad) ==
              PQ_ROWS_OK;
    if (!*ok) fault(c, "placements: of size 0, the empty board alone");
    counts[0] = counts[1] = counts[2] = 1;
  } else {
    const pq_json *split = pq_json_get(count, "split"), *cubes = pq_json_get(count, "cubes"),
                  *trees = pq_json_get(count, "trees");
    if (count->type != PQ_JSON_OBJECT || !split || split->type != PQ_JSON_ARRAY ||
        split->length > MAX_SPLIT || !cubes || cubes->type != PQ_JSON_ARRAY || !trees ||
        trees->type != PQ_JSON_ARRAY || trees->length != cubes->length || cubes->length > INT_MAX)
      return malformed("count: split, cubes, trees");
    int n = (int)split->length, lines[MAX_SPLIT];
    for (int i = 0; i < n; i++) {
      long l;
      if (split->items[i]->type != PQ_JSON_NUMBER ||
          pq_parse_long(split->items[i]->string, 0, c->lines - 1, &l))
        return malformed("count: a split line");
      lines[i] = (int)l;
    }
    for (size_t q = 0; q < cubes->length; q++) {
      const pq_json *cube = cubes->items[q], *t = trees->items[q];
      if (cube->type != PQ_JSON_STRING || t->type != PQ_JSON_STRING || cube->length != (size_t)n ||
          strlen(t->string) != t->length)
        return malformed("count: a cube or a tree");
      for (int i = 0; i < n; i++)
        if (cube->string[i] != '.' &&
            (cube->string[i] < '0' || cube->string[i] >= '0' + c->colours))
          return malformed("count: a cube's label (a colour digit, or '.' for empty)");
    }
    *ok = true;
    for (int i = 0; i < n && *ok; i++) {
      for (int j = 0; j < i && *ok; j++)
        if (lines[j] == lines[i]) *ok = fault(c, "split: line %d is given twice", lines[i]);
      if (*ok && !piece_dir(c, line_dir(c, lines[i])))
        *ok = fault(c, "split: a split line is not a line of the piece");
    }
    pq_count *weight = pq_calloc(cubes->length + 1, sizeof *weight);
    c->counting = true;
    if (*ok) *ok = check_count_cover(c, lines, n, cubes, weight);
    for (size_t q = 0; q < cubes->length && *ok; q++) {
      unsigned used = 0;
      for (int i = 0; i < n; i++) {
        char ch = cubes->items[q]->string[i];
        int k = ch == '.' ? c->colours : ch - '0';
        set_label(c, lines[i], k, +1);
        if (k < c->colours) used |= 1u << k;
      }
      const char *tree = trees->items[q]->string, *p = tree;
      pq_count here = 0;
      *ok = count_node(c, tree, &p, used, &here) &&
            (!*p || fault(c, "tree: text after the tree's end"));
      for (int i = 0; i < n; i++) {
        char ch = cubes->items[q]->string[i];
        set_label(c, lines[i], ch == '.' ? c->colours : ch - '0', -1);
      }
      pq_count weighted = here * weight[q];
      if (here && weighted / here != weight[q]) c->overflow = true;
      if (pq_count_add(&total, weighted)) c->overflow = true;
      if (!*ok && !strncmp(c->why, "tree: ", 6)) {
        char why[sizeof c->why];
        snprintf(why, sizeof why, "tree %zu of the count (cube \"%.20s\"), at byte %ld: %s", q,
                 cubes->items[q]->string, c->at, c->why + 6);
        memcpy(c->why, why, sizeof why);
      }
    }
    c->counting = false;
    free(weight);
    c->count_cubes = (long)cubes->length;
    if (*ok) *ok = check_classes(c, list, size, counts);
    if (*ok && c->overflow) *ok = fault(c, "count: more than 2^128 - 1 placements");
    char text[48], listed[48];
    if (*ok && total != counts[0])
      *ok = fault(c,
                  "placements: the %zu classes listed hold %s placements, but the count "
                  "proof counts %s",
                  list->length, pq_count_str(counts[0], listed), pq_count_str(total, text));
  }
  for (int i = 0; *ok && i < 3; i++)
    if (stated[i] != counts[i]) {
      char text[48];
      *ok = fault(c, "claim: the stated %s is not the %s the placements give", keys[i],
                  pq_count_str(counts[i], text));
    }
  return PQ_OK;
}

pq_status pq_armies_colours_check(const pq_json *doc, const pq_check_params *p) {
  checker c = {.params = p, .rng = p->rng};
  const char *board = pq_json_get_string(doc, "board"), *piece = pq_json_get_string(doc, "piece"),
             *claim = pq_json_get_string(doc, "claim"),
             *witness = pq_json_get_string(doc, "witness");
  long colours, size = -1, need = -1;
  const pq_json *inf = pq_json_get(doc, "infeasible");
  if (board && pq_check_board(board, &c.width, &c.height) != PQ_OK) return PQ_EINVAL;
  if (!board || !piece || strlen(piece) != 1 || !strchr("QRB", piece[0]) || !piece[0] || !claim ||
      pq_json_get_long(doc, "colours", 3, MAX_COLOURS, &colours))
    return malformed("board, piece (Q, R or B), colours (3 to 15), claim");
  bool maximum = !strcmp(claim, "maximum"), feasible = !strcmp(claim, "feasible"),
       infeasible = !strcmp(claim, "infeasible"), count = !strcmp(claim, "count");
  if (!maximum && !feasible && !infeasible && !count) return malformed("claim");
  c.squares = c.width * c.height;
  c.piece = (int)(strchr("KQRBN", piece[0]) - "KQRBN");
  c.colours = (int)colours;
  if ((maximum || feasible) &&
      (!witness || pq_json_get_long(doc, "size", 0, PQ_CHECK_MAX_SQUARES, &size)))
    return malformed("size, witness");
  if (count && (witness || pq_json_get_long(doc, "size", 0, PQ_CHECK_MAX_SQUARES, &size)))
    return malformed("size (and no witness)");
  if ((maximum || infeasible || (count && inf)) &&
      (!inf || pq_json_get_long(inf, "size", 1, PQ_CHECK_MAX_SQUARES, &need)))
    return malformed("infeasible.size");
  c.need = (int)need;
  geometry(&c);
  bool ok = true;
  pq_status rc = PQ_OK;
  pq_count counts[3] = {0, 0, 0};
  if (witness) ok = check_witness(&c, witness, size);
  if (ok && (maximum || (count && need > 0)) && need != size + 1)
    ok = fault(&c, "claim: a maximum of %ld needs the proof that %ld do not fit", size, size + 1);
  if (ok && count) rc = check_count(&c, doc, size, counts, &ok);
  c.need = (int)need;
  if (!rc && ok && need > 0) rc = check_proof(&c, inf, &ok);
  free_checker(&c);
  if (rc) return rc;
  if (c.interrupted) return pq_check_stopped();
  if (!ok) {
    pq_check_report(p, "armies", PQ_INVALID, "%s", c.why);
    return PQ_EFALSE;
  }
  char how[96] = "";
  size_t cubes = (need > 0 ? pq_json_get(inf, "cubes")->length : 0) + (size_t)c.count_cubes;
  if (need > 0 || c.count_cubes)
    snprintf(how, sizeof how,
             count ? "; %zu cubes, %ld leaves checked%s" : " (%zu cubes, %ld leaves checked%s)",
             cubes, c.leaves, c.skipped ? ", some not sampled" : "");
  pq_verdict verdict = c.skipped ? PQ_VALID_IN_SAMPLE : PQ_VALID;
  if (count) {
    char n[3][48], more[96] = "";
    if (need > 0)
      snprintf(more, sizeof more, "; %ld of each colour do not fit: %ld is the maximum", need,
               size);
    pq_check_report(p, "armies", verdict,
                    "%ld armies of %s on %dx%d: %s placements of %ld of each colour (%s up to "
                    "symmetry, %s up to symmetry and colour permutation, one of each of these "
                    "classes listed and checked%s)%s",
                    colours, piece, c.width, c.height, pq_count_str(counts[0], n[0]), size,
                    pq_count_str(counts[1], n[1]), pq_count_str(counts[2], n[2]), how, more);
  } else if (feasible)
    pq_check_report(p, "armies", verdict,
                    "%ld armies of %s on %dx%d: %ld of each colour fit "
                    "(witness checked)",
                    colours, piece, c.width, c.height, size);
  else if (infeasible)
    pq_check_report(p, "armies", verdict,
                    "%ld armies of %s on %dx%d: %ld of each colour do not "
                    "fit%s",
                    colours, piece, c.width, c.height, need, how);
  else
    pq_check_report(p, "armies", verdict,
                    "%ld armies of %s on %dx%d: %ld of each colour fit "
                    "(witness checked), %ld do not%s: the maximum is %ld",
                    colours, piece, c.width, c.height, size, need, how, size);
  return PQ_OK;
}
