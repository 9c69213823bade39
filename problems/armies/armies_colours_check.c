/* armies_colours_check.c: the checker of certificates of armies of several colours
   (doc/certificate.md, "Armies of several colours"), part of libcheck.a: its own geometry, attack
   test, bounds and symmetries, nothing of the search. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/check/check.h"

#include "armies_colours_check.h"

bool pq_ccheck_fault(checker *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool pq_ccheck_fault(checker *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (!c->why[0]) vsnprintf(c->why, sizeof c->why, fmt, ap);
  va_end(ap);
  return false;
}

static void scratch(checker *c);

static void geometry(checker *c) {
  c->lines = pq_check_lines(c->width, c->height);
  c->line_square = pq_calloc((size_t)c->lines * PQ_CHECK_MAX_SIDE, sizeof(int));
  c->line_length = pq_calloc((size_t)c->lines, sizeof(int));
  c->line_of = pq_calloc((size_t)c->squares, sizeof *c->line_of);
  for (int d = 0; d < 4; d++)
    c->along[d] = pq_check_piece_dir(c->piece, d);
  c->dir = pq_malloc((size_t)c->lines);
  for (int l = 0; l < c->lines; l++)
    c->dir[l] = (signed char)pq_check_line_dir(c->width, c->height, l, NULL);
  for (int s = 0; s < c->squares; s++)
    for (int d = 0; d < 4; d++) {
      int l = pq_check_line_id(c->width, c->height, d, s / c->width, s % c->width);
      c->line_of[s][d] = l;
      c->line_square[l * PQ_CHECK_MAX_SIDE + c->line_length[l]++] = s;
    }
  scratch(c);
}

/* The checker's own state for checking trees (labels, per-square counts, the knapsack's tables),
   all undecided: a thread's copy of a checker has its own. */
static void scratch(checker *c) {
  c->label = pq_malloc((size_t)c->lines);
  memset(c->label, -1, (size_t)c->lines);
  c->decided = pq_calloc((size_t)c->squares, sizeof(int));
  c->with = pq_calloc((size_t)c->squares * (size_t)c->colours, sizeof(int));
  c->states_a = pq_calloc(MAX_STATES, sizeof(int));
  c->states_b = pq_calloc(MAX_STATES, sizeof(int));
  c->mask = pq_calloc((size_t)c->squares, sizeof *c->mask);
  c->on_line = pq_calloc((size_t)c->lines, sizeof *c->on_line);
  c->below = pq_calloc((size_t)1 << c->colours, sizeof *c->below);
}

static void free_scratch(checker *c) {
  free(c->label);
  free(c->decided);
  free(c->with);
  free(c->states_a);
  free(c->states_b);
  free(c->mask);
  free(c->on_line);
  free(c->below);
}

static void free_checker(checker *c) {
  free(c->line_square);
  free(c->line_length);
  free(c->line_of);
  free(c->dir);
  free_scratch(c);
}

/* Square s is open to colour k when each of its decided piece lines is labelled k; in a count
   tree also, for each direction with exactly `need` lines labelled k, when its line of that
   direction is one of them (each of those lines holds one of k's `need` pieces, so k has none
   elsewhere). */
bool pq_ccheck_open_to(const checker *c, int s, int k) {
  if (c->with[s * c->colours + k] != c->decided[s]) return false;
  for (int d = 0; c->counting && d < 4; d++)
    if (c->labelled[k][d] == c->need && c->label[c->line_of[s][d]] != k) return false;
  return true;
}

/* Labels line l with colour k (in a count tree, k = colours: empty), or (delta -1) undoes it. */
void pq_ccheck_set_label(checker *c, int l, int k, int delta) {
  c->label[l] = (signed char)(delta > 0 ? k : -1);
  if (k < c->colours) c->labelled[k][c->dir[l]] += delta;
  for (int i = 0; i < c->line_length[l]; i++) {
    int s = c->line_square[l * PQ_CHECK_MAX_SIDE + i];
    c->decided[s] += delta;
    if (k < c->colours) c->with[s * c->colours + k] += delta;
  }
}

/* The open squares of colour k on line l. */
int pq_ccheck_open_on(const checker *c, int l, int k) {
  int n = 0;
  for (int i = 0; i < c->line_length[l]; i++)
    n += pq_ccheck_open_to(c, c->line_square[l * PQ_CHECK_MAX_SIDE + i], k);
  return n;
}

/* The knapsack of direction d: whether the lines of d can each be given one colour so that
   every colour has `need` open squares on its lines (mask[s]: the colours square s is open to). */
static bool knapsack_holds(checker *c, int d, const unsigned *mask) {
  int C = c->colours, k = c->need, states = 1, (*a)[MAX_COLOURS] = c->on_line, n = 0;
  for (int i = 0; i < C - 1; i++)
    if ((states *= k + 1) > MAX_STATES) return true; /* no bound past this size */
  for (int l = 0; l < c->lines; l++) {
    if (c->dir[l] != d || !c->line_length[l]) continue;
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

/* Hall's condition, every set of colours at once: below[t] sums the squares open to colours of
   t alone (sums over subsets of the squares' masks), and the squares open to some colour of T
   are then the rest, those not below the colours outside T; the colours' pieces stand on
   different squares, so T needs |T| need of them. */
static bool hall_fails(checker *c, const unsigned *mask) {
  unsigned all = (1u << c->colours) - 1;
  int *below = c->below;
  memset(below, 0, ((size_t)all + 1) * sizeof *below);
  for (int s = 0; s < c->squares; s++)
    below[mask[s]]++;
  for (int b = 0; b < c->colours; b++)
    for (unsigned t = 0; t <= all; t++)
      if ((t >> b) & 1) below[t] += below[t ^ (1u << b)];
  for (unsigned t = 1; t <= all; t++)
    if (c->squares - below[all ^ t] < __builtin_popcount(t) * c->need) return true;
  return false;
}

/* Whether a leaf is closed: a set T of colours (a single colour too) with fewer than |T| need
   squares open to one of them; or a direction's knapsack that fails. */
bool pq_ccheck_leaf_closed(checker *c) {
  unsigned *mask = c->mask; /* per square, the colours it is open to */
  for (int s = 0; s < c->squares; s++) {
    mask[s] = 0;
    for (int k = 0; k < c->colours; k++)
      if (pq_ccheck_open_to(c, s, k)) mask[s] |= 1u << k;
  }
  bool closed = hall_fails(c, mask);
  for (int d = 0; d < 4 && !closed; d++)
    closed = c->along[d] && !knapsack_holds(c, d, mask);
  return closed;
}

bool pq_ccheck_branch(checker *c, const char **p, long *line) {
  long l = 0;
  if (**p < '0' || **p > '9') return pq_ccheck_fault(c, "tree: unexpected character");
  while (**p >= '0' && **p <= '9' && l < 100000)
    l = l * 10 + (*(*p)++ - '0');
  if (*(*p)++ != ',' || l >= c->lines || !c->along[c->dir[l]] || c->label[l] >= 0)
    return pq_ccheck_fault(c, "tree: a branch names no undecided line of the piece");
  *line = l;
  return true;
}

bool pq_ccheck_dot(checker *c, const char **p, bool (*closed)(checker *c), bool *ok) {
  if (**p != '.') return false;
  (*p)++;
  *ok = true;
  /* A count's every leaf is checked: a sample could not give a total. */
  if (!c->counting && !pq_check_sampled(c->params, &c->rng, !c->leaves && !c->skipped))
    return c->skipped++, true;
  c->leaves++;
  *ok = closed(c) || pq_ccheck_fault(c, "tree: a leaf's bound does not close it");
  return true;
}

/* Checks the subtree at *p; used: the colours in the cube or on the path. */
static bool check_node(checker *c, const char *tree, const char **p, unsigned used) {
  c->at = *p - tree;
  if (pq_check_stop(c->params)) return c->interrupted = true, false;
  bool leaf_ok;
  if (pq_ccheck_dot(c, p, pq_ccheck_leaf_closed, &leaf_ok)) return leaf_ok;
  long l;
  if (!pq_ccheck_branch(c, p, &l)) return false;
  int C = c->colours, squares[MAX_COLOURS];
  bool tree_child[MAX_COLOURS];
  for (int k = 0; k < C; k++)
    squares[k] = pq_ccheck_open_on(c, (int)l, k);
  for (int k = 0; k < C; k++) {
    tree_child[k] = **p != '-';
    if (!tree_child[k]) {
      (*p)++;
      continue;
    }
    pq_ccheck_set_label(c, (int)l, k, +1);
    bool ok = check_node(c, tree, p, used | 1u << k);
    pq_ccheck_set_label(c, (int)l, k, -1);
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
      return pq_ccheck_fault(c, "tree: colour %d of line %ld is left out without a reason", k, l);
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

int pq_ccheck_split_images(checker *c, const int *split, int n, int labels, int img[8][MAX_SPLIT],
                           double *all) {
  int groups = c->width == c->height ? 8 : 4;
  *all = 1;
  for (int i = 0; i < n; i++)
    *all *= labels;
  if (*all > 1e7)
    return pq_ccheck_fault(c, "split: too many labellings of the split lines to check");
  for (int g = 0; g < groups; g++)
    for (int i = 0; i < n; i++) {
      int m = pq_check_line_image(c->width, c->height, g, split[i]);
      img[g][i] = -1;
      for (int j = 0; j < n; j++)
        if (split[j] == m) img[g][i] = j;
      if (img[g][i] < 0)
        return pq_ccheck_fault(c, "split: the split lines are not closed under symmetry");
    }
  return groups;
}

/* The cover: the split closed under the symmetries, the cubes in first-use order and distinct,
   and every labelling of the split lines mapped by some symmetry, after renumbering its colours
   by first use, onto a cube. */
static bool check_cover(checker *c, const int *split, int n, const pq_json *cubes) {
  int img[8][MAX_SPLIT];
  double all;
  int groups = pq_ccheck_split_images(c, split, n, c->colours, img, &all);
  if (!groups) return false;
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
      ok = pq_ccheck_fault(c, "cubes: cube %zu is not in first-use order", q);
    else if (present[code])
      ok = pq_ccheck_fault(c, "cubes: cube %zu is given twice", q);
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
    if (!covered) ok = pq_ccheck_fault(c, "cubes: a labelling of the split lines is in no cube");
  }
  free(present);
  return ok;
}

/* The witness: size pieces of each colour, no piece attacking one of another colour. */
bool pq_ccheck_check_witness(checker *c, const char *text, long size) {
  static const char symbols[] = ".123456789abcdef";
  char allowed[MAX_COLOURS + 2];
  memcpy(allowed, symbols, (size_t)c->colours + 1);
  allowed[c->colours + 1] = '\0';
  uint8_t cells[PQ_CHECK_MAX_SQUARES];
  int square, have[MAX_COLOURS + 1] = {0};
  char bad;
  if (pq_check_rows(text, c->width, c->height, allowed, cells, &square, &bad) != PQ_ROWS_OK)
    return pq_ccheck_fault(
        c, "witness \"%.80s\": not %d rows of %d squares, each '.' or a colour 1..%d", text,
        c->height, c->width, c->colours);
  for (int s = 0; s < c->squares; s++) {
    have[cells[s]]++;
    for (int t = 0; t < s; t++)
      if (cells[s] && cells[t] && cells[s] != cells[t] &&
          pq_check_attacks(c->width, c->piece, s, t))
        return pq_ccheck_fault(c, "witness: a piece attacks one of another colour");
  }
  for (int k = 1; k <= c->colours; k++)
    if (have[k] != size)
      return pq_ccheck_fault(c, "witness: colour %d has %d pieces, not %ld", k, have[k], size);
  return true;
}

pq_status pq_ccheck_malformed(const char *what) {
  pq_error("%s: malformed certificate of armies of several colours (%s)", pq_check_path(), what);
  return PQ_EINVAL;
}

pq_status pq_ccheck_read_proof(checker *c, const pq_json *proof, const char *what, bool empty,
                               int *lines, int *n, bool *ok) {
  const pq_json *split = pq_json_get(proof, "split"), *cubes = pq_json_get(proof, "cubes"),
                *trees = pq_json_get(proof, "trees");
  char why[96];
  snprintf(why, sizeof why, "%s: split, cubes, trees", what);
  if (!proof || proof->type != PQ_JSON_OBJECT || !split || split->type != PQ_JSON_ARRAY ||
      split->length > MAX_SPLIT || !cubes || cubes->type != PQ_JSON_ARRAY || !trees ||
      trees->type != PQ_JSON_ARRAY || trees->length != cubes->length || cubes->length > INT_MAX)
    return pq_ccheck_malformed(why);
  *n = (int)split->length;
  for (int i = 0; i < *n; i++) {
    long l;
    snprintf(why, sizeof why, "%s: a split line", what);
    if (split->items[i]->type != PQ_JSON_NUMBER ||
        pq_parse_long(split->items[i]->string, 0, c->lines - 1, &l))
      return pq_ccheck_malformed(why);
    lines[i] = (int)l;
  }
  for (size_t q = 0; q < cubes->length; q++) {
    const pq_json *cube = cubes->items[q], *t = trees->items[q];
    snprintf(why, sizeof why, "%s: a cube or a tree", what);
    if (cube->type != PQ_JSON_STRING || t->type != PQ_JSON_STRING || cube->length != (size_t)*n ||
        strlen(t->string) != t->length)
      return pq_ccheck_malformed(why);
    snprintf(why, sizeof why, "%s: a cube's label (a colour digit%s)", what,
             empty ? ", or '.' for empty" : "");
    for (int i = 0; i < *n; i++)
      if (!(empty && cube->string[i] == '.') &&
          (cube->string[i] < '0' || cube->string[i] >= '0' + c->colours))
        return pq_ccheck_malformed(why);
  }
  *ok = true;
  for (int i = 0; i < *n && *ok; i++) {
    for (int j = 0; j < i && *ok; j++)
      if (lines[j] == lines[i]) *ok = pq_ccheck_fault(c, "split: line %d is given twice", lines[i]);
    if (*ok && !c->along[c->dir[lines[i]]])
      *ok = pq_ccheck_fault(c, "split: a split line is not a line of the piece");
  }
  return PQ_OK;
}

/* Checks tree q under its cube; in a count proof, adds its placements times the cube's weight to
 *total. */
static bool check_cube(checker *c, const pq_ccheck_trees *pf, size_t q, pq_count *total) {
  const char *cube = pf->cubes->items[q]->string;
  unsigned used = 0;
  int label[MAX_SPLIT]; /* each split line's colour; colours: empty (a count's '.') */
  for (int i = 0; i < pf->n; i++) {
    label[i] = cube[i] == '.' ? c->colours : cube[i] - '0';
    pq_ccheck_set_label(c, pf->lines[i], label[i], +1);
    if (label[i] < c->colours) used |= 1u << label[i];
  }
  const char *tree = pf->trees->items[q]->string, *p = tree;
  pq_count here = 0;
  bool ok = (pf->weight ? pq_ccheck_count_node(c, tree, &p, used, &here)
                        : check_node(c, tree, &p, used)) &&
            (!*p || pq_ccheck_fault(c, "tree: text after the tree's end"));
  for (int i = 0; i < pf->n; i++)
    pq_ccheck_set_label(c, pf->lines[i], label[i], -1);
  if (pf->weight) {
    pq_count weighted = here * pf->weight[q];
    if (here && weighted / here != pf->weight[q]) c->overflow = true;
    if (pq_count_add(total, weighted)) c->overflow = true;
  }
  if (!ok && !strncmp(c->why, "tree: ", 6)) {
    char why[sizeof c->why];
    snprintf(why, sizeof why, "tree %zu%s (cube \"%.20s\"), at byte %ld: %s", q,
             pf->weight ? " of the count" : "", cube, c->at, c->why + 6);
    memcpy(c->why, why, sizeof why);
  }
  return ok;
}

typedef struct cube_thread {
  checker c; /* a copy, with scratch of its own */
  const pq_ccheck_trees *pf;
  pq_count total;
} cube_thread;

static bool check_one(void *ctx, int q) {
  cube_thread *t = ctx;
  return check_cube(&t->c, t->pf, (size_t)q, &t->total);
}

bool pq_ccheck_check_trees(checker *c, const pq_ccheck_trees *pf, pq_count *total) {
  int n = (int)pf->cubes->length, jobs = c->params->jobs < n ? c->params->jobs : n;
  if (jobs < 2 || c->params->sample < 1) {
    bool ok = true;
    for (int q = 0; q < n && ok; q++)
      ok = check_cube(c, pf, (size_t)q, total);
    return ok;
  }
  cube_thread *t = pq_malloc((size_t)jobs * sizeof *t);
  for (int k = 0; k < jobs; k++) {
    t[k] = (cube_thread){.c = *c, .pf = pf};
    scratch(&t[k].c);
    t[k].c.leaves = t[k].c.skipped = 0;
    t[k].c.interrupted = t[k].c.overflow = false;
    t[k].c.why[0] = '\0';
  }
  int who, done = pq_check_in_order(n, jobs, t, sizeof *t, check_one, &who);
  for (int k = 0; k < jobs; k++) {
    c->leaves += t[k].c.leaves;
    c->skipped += t[k].c.skipped;
    c->interrupted |= t[k].c.interrupted;
    c->overflow |= t[k].c.overflow || (total && pq_count_add(total, t[k].total));
  }
  bool ok = !c->interrupted && done == n;
  if (!c->interrupted && !ok) memcpy(c->why, t[who].c.why, sizeof c->why);
  for (int k = 0; k < jobs; k++)
    free_scratch(&t[k].c);
  free(t);
  return ok;
}

/* Reads the proof's split and cubes; checks the cover and every tree. */
static pq_status check_proof(checker *c, const pq_json *inf, bool *ok) {
  int n = 0, lines[MAX_SPLIT];
  pq_status rc = pq_ccheck_read_proof(c, inf, "infeasible", false, lines, &n, ok);
  if (rc || !*ok) return rc;
  pq_ccheck_trees pf = {pq_json_get(inf, "cubes"), pq_json_get(inf, "trees"), lines, n, NULL};
  *ok = check_cover(c, lines, n, pf.cubes) && pq_ccheck_check_trees(c, &pf, NULL);
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
    return pq_ccheck_malformed("board, piece (Q, R or B), colours (3 to 15), claim");
  bool maximum = !strcmp(claim, "maximum"), feasible = !strcmp(claim, "feasible"),
       infeasible = !strcmp(claim, "infeasible"), count = !strcmp(claim, "count");
  if (!maximum && !feasible && !infeasible && !count) return pq_ccheck_malformed("claim");
  c.squares = c.width * c.height;
  c.piece = (int)(strchr("KQRBN", piece[0]) - "KQRBN");
  c.colours = (int)colours;
  if ((maximum || feasible) &&
      (!witness || pq_json_get_long(doc, "size", 0, PQ_CHECK_MAX_SQUARES, &size)))
    return pq_ccheck_malformed("size, witness");
  if (count && (witness || pq_json_get_long(doc, "size", 0, PQ_CHECK_MAX_SQUARES, &size)))
    return pq_ccheck_malformed("size (and no witness)");
  if ((maximum || infeasible || (count && inf)) &&
      (!inf || pq_json_get_long(inf, "size", 1, PQ_CHECK_MAX_SQUARES, &need)))
    return pq_ccheck_malformed("infeasible.size");
  if (feasible && inf) return pq_ccheck_malformed("a feasible claim has no infeasible member");
  c.need = (int)need;
  geometry(&c);
  bool ok = true;
  pq_status rc = PQ_OK;
  pq_count counts[3] = {0, 0, 0};
  if (witness) ok = pq_ccheck_check_witness(&c, witness, size);
  if (ok && (maximum || (count && need > 0)) && need != size + 1)
    ok = pq_ccheck_fault(&c, "claim: a maximum of %ld needs the proof that %ld do not fit", size,
                         size + 1);
  if (ok && count) rc = pq_ccheck_check_count(&c, doc, size, counts, &ok);
  /* A maximum is a size that fits: a count of none is none. */
  if (!rc && ok && count && need > 0 && counts[0] == 0)
    ok = pq_ccheck_fault(&c,
                         "claim: a count of none is no maximum (%ld of each colour do not fit "
                         "either)",
                         size);
  c.need = (int)need;
  if (!rc && ok && need > 0) rc = check_proof(&c, inf, &ok);
  free_checker(&c);
  if (rc) return rc;
  if (c.interrupted) return pq_check_stopped();
  if (!ok) {
    pq_check_report(p, "armies", PQ_INVALID, "%s", c.why);
    return PQ_EFALSE;
  }
  char how[128] = "", skipped[48] = "";
  size_t cubes = (need > 0 ? pq_json_get(inf, "cubes")->length : 0) + (size_t)c.count_cubes;
  if (c.skipped) snprintf(skipped, sizeof skipped, ", %ld not sampled", c.skipped);
  if (need > 0 || c.count_cubes)
    snprintf(how, sizeof how, count ? "; %zu %s, %ld %s checked%s" : " (%zu %s, %ld %s checked%s)",
             cubes, pq_noun((long)cubes, "cube", "cubes"), c.leaves,
             pq_noun(c.leaves, "leaf", "leaves"), skipped);
  pq_verdict verdict = c.skipped ? PQ_VALID_IN_SAMPLE : PQ_VALID;
  if (p->part) p->part->leaves = c.leaves; /* several files, each a whole proof (no holes) */
  if (count) {
    char n[3][48], more[96] = "";
    if (need > 0)
      snprintf(more, sizeof more, "; %ld of each colour do not fit: %ld is the maximum", need,
               size);
    pq_count_str(counts[0], n[0]); /* before pq_plural reads it */
    pq_check_report(p, "armies", verdict,
                    "%ld armies of %s on %dx%d: %s placement%s of %ld of each colour (%s up to "
                    "symmetry, %s up to symmetry and colour permutation, one of each of these "
                    "classes listed and checked%s)%s",
                    colours, piece, c.width, c.height, n[0], pq_plural(n[0]), size,
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
