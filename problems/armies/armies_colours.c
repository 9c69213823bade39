/* armies_colours.c: armies of C colours (C from 3): C armies of one line piece (queen, rook or
   bishop), k pieces each, no piece attacking a piece of another colour (OEIS A328283 for queens
   and C = 3). Two pieces of different colours on one line attack each other (the nearest two of
   different colours on it do), so a placement is a labelling of the piece's lines by colours: a
   square may hold colour c exactly when every line through it is labelled c. The search is a
   branch and bound over line labels (doc/algorithms.md), split by the board's and the colours'
   symmetries into parts that the engine runs on threads, as --part I/N lines and with
   checkpoints. */
#include "armies_colours.h"

#include <stdlib.h>
#include <string.h>

#include "../../src/core/placement.h"
#include "../../src/core/sym.h"
#include "../../src/run/engine.h"

/* Sets of squares of boards up to PQ_COLOURS_MAX_SQUARES. */
#define CW ((PQ_COLOURS_MAX_SQUARES + 63) / 64)
typedef struct cbits {
  uint64_t w[CW];
} cbits;

/* The most lines the split may take, and the most labellings of them to enumerate. */
#define MAX_SPLIT 12
#define MAX_LABELLINGS 60000

/* The knapsack bound's table may hold this many states (the sizes of all colours but one, each
   capped at k); beyond it the bound is left out. */
#define MAX_STATES 40000

/* The search polls at least once in this many of the knapsack's steps (a few milliseconds). */
#define POLL_WORK ((uint64_t)1 << 22)

/* The symbols of colours 1.. in a placement's text. */
static const char symbols[] = "123456789abcdef";

struct pq_colours {
  const pq_board *b;
  pq_piece piece;
  int colours, k, words;
  int nlines;           /* the piece's lines */
  cbits *line;          /* their squares */
  int dir_first[5];     /* lines of direction d: dir_first[d] .. dir_first[d + 1] - 1 */
  int nsplit;           /* split lines: whole orbits under the board's symmetries */
  int split[MAX_SPLIT]; /* their indices among the piece's lines */
  int nparts;           /* one part for each labelling of the split lines up to symmetry */
  uint8_t (*parts)[MAX_SPLIT];
  int *weight;   /* counting: the labellings each part stands for, over colours! */
  bool listing;  /* counting every placement: parts up to the colours' permutations only */
  bool counting; /* labels are EMPTY or a colour with a piece on the line (pq_colours_new_count) */
  cbits all;
};

/* A counting part's label for a split line that holds no piece. */
#define EMPTY 0xf

static int count(const pq_colours *p, const cbits *a) {
  int n = 0;
  for (int i = 0; i < p->words; i++)
    n += __builtin_popcountll(a->w[i]);
  return n;
}

static int count_and(const pq_colours *p, const cbits *a, const cbits *b) {
  int n = 0;
  for (int i = 0; i < p->words; i++)
    n += __builtin_popcountll(a->w[i] & b->w[i]);
  return n;
}

/* Whether the piece moves along lines of direction d. */
static bool piece_dir(pq_piece piece, int d) {
  return piece == PQ_QUEEN || (piece == PQ_ROOK && d <= PQ_COLUMN) ||
         (piece == PQ_BISHOP && d >= PQ_DIAGONAL);
}

/* The index among the piece's lines of board line l, or -1. */
static int line_index(const pq_colours *p, int l) {
  int d = 0;
  while (l >= p->b->line_start[d + 1])
    d++;
  if (!piece_dir(p->piece, d)) return -1;
  int before = 0;
  for (int e = 0; e < d; e++)
    if (piece_dir(p->piece, e)) before += p->b->line_start[e + 1] - p->b->line_start[e];
  return before + l - p->b->line_start[d];
}

/* The board line id of the piece's line i. */
static int board_line(const pq_colours *p, int i) {
  for (int d = 0; d < PQ_NDIRS; d++) {
    if (!piece_dir(p->piece, d)) continue;
    int n = p->b->line_start[d + 1] - p->b->line_start[d];
    if (i < n) return p->b->line_start[d] + i;
    i -= n;
  }
  return -1;
}

/* Renumbers a labelling's colours by first use (the least labelling among its colour
   permutations). */
static void normalize(const uint8_t *in, int n, uint8_t *out) {
  uint8_t map[16];
  memset(map, 0xff, sizeof map);
  int next = 0;
  for (int i = 0; i < n; i++) {
    if (in[i] == EMPTY) {
      out[i] = EMPTY;
      continue;
    }
    if (map[in[i]] == 0xff) map[in[i]] = (uint8_t)next++;
    out[i] = map[in[i]];
  }
}

/* Chooses the split lines: whole orbits of the piece's lines under the board's symmetries,
   longest lines first, while the labellings stay few. */
static void choose_split(pq_colours *p) {
  int groups = pq_sym_count(p->b), order[4 * PQ_MAX_SIDE];
  bool taken[4 * PQ_MAX_SIDE] = {false};
  for (int i = 0; i < p->nlines; i++)
    order[i] = i;
  for (int i = 1; i < p->nlines; i++) /* by length, longest first; stable */
    for (int j = i; j > 0 && count(p, &p->line[order[j]]) > count(p, &p->line[order[j - 1]]); j--) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  for (int o = 0; o < p->nlines; o++) {
    int l = order[o], orbit[8], n = 0;
    if (taken[l]) continue;
    for (int g = 0; g < groups; g++) {
      int m = line_index(p, pq_sym_line(p->b, (pq_sym)g, board_line(p, l)));
      bool seen = false;
      for (int j = 0; j < n; j++)
        seen |= orbit[j] == m;
      if (!seen) orbit[n++] = m;
    }
    double labellings = 1;
    for (int j = 0; j < p->nsplit + n; j++)
      labellings *= p->colours + p->counting; /* counting: EMPTY too */
    if (p->nsplit + n > MAX_SPLIT || labellings > MAX_LABELLINGS) break;
    for (int j = 0; j < n; j++) {
      taken[orbit[j]] = true;
      p->split[p->nsplit++] = orbit[j];
    }
  }
}

/* Whether labelling x of the split lines is the least of its images under the board's
   symmetries and the colours' permutations; with images (not NULL), the number of distinct
   images (colours renumbered by first use) under the board's symmetries. */
static bool canonical(const pq_colours *p, const uint8_t *x, int *images) {
  int groups = p->listing ? 1 : pq_sym_count(p->b), n = p->nsplit;
  uint8_t seen[PQ_NSYMS][MAX_SPLIT];
  int nseen = 1;
  memcpy(seen[0], x, MAX_SPLIT);
  for (int g = 1; g < groups; g++) {
    uint8_t y[MAX_SPLIT], z[MAX_SPLIT];
    for (int i = 0; i < n; i++) {
      int m = line_index(p, pq_sym_line(p->b, (pq_sym)g, board_line(p, p->split[i]))), j = 0;
      while (p->split[j] != m)
        j++;
      y[j] = x[i];
    }
    normalize(y, n, z);
    if (memcmp(z, x, (size_t)n) < 0) return false;
    bool old = false;
    for (int i = 0; i < nseen && !old; i++)
      old = !memcmp(seen[i], z, (size_t)n);
    if (!old) memcpy(seen[nseen++], z, (size_t)n);
  }
  if (images) *images = nseen;
  return true;
}

/* The parts: every labelling of the split lines with colours in first-use order that is
   canonical, in increasing order. */
static void make_parts(pq_colours *p) {
  int n = p->nsplit, cap = 64;
  uint8_t x[MAX_SPLIT] = {0};
  p->parts = pq_malloc((size_t)cap * sizeof *p->parts);
  for (;;) {
    if (canonical(p, x, NULL)) {
      if (p->nparts == cap) p->parts = pq_realloc(p->parts, (size_t)(cap *= 2) * sizeof *p->parts);
      memcpy(p->parts[p->nparts++], x, MAX_SPLIT);
    }
    /* The next labelling in first-use order: x[i] at most one more than the most before it. */
    int i = n - 1;
    for (; i >= 0; i--) {
      int most = -1;
      for (int j = 0; j < i; j++)
        most = x[j] > most ? x[j] : most;
      if (x[i] < most + 1 && x[i] + 1 < p->colours) break;
    }
    if (i < 0) break;
    x[i]++;
    for (int j = i + 1; j < n; j++)
      x[j] = 0;
  }
}

/* Every counting labelling of the split lines (each line EMPTY or a colour, colours in first-use
   order) that is canonical under the board's symmetries and the colours' permutations, in
   increasing order, with the number of labellings it stands for over colours!: its distinct
   images under the board's symmetries (each stands for colours! / (colours - used)! labellings,
   and the part's placements found for (colours - used)! each). */
static void make_count_parts(pq_colours *p, uint8_t *x, int i, int used, int *cap) {
  if (i == p->nsplit) {
    int images;
    if (!canonical(p, x, &images)) return;
    if (p->nparts == *cap) {
      *cap *= 2;
      p->parts = pq_realloc(p->parts, (size_t)*cap * sizeof *p->parts);
      p->weight = pq_realloc(p->weight, (size_t)*cap * sizeof *p->weight);
    }
    p->weight[p->nparts] = images;
    memcpy(p->parts[p->nparts++], x, MAX_SPLIT);
    return;
  }
  for (int c = 0; c <= used && c < p->colours; c++) {
    x[i] = (uint8_t)c;
    make_count_parts(p, x, i + 1, c == used ? used + 1 : used, cap);
  }
  x[i] = EMPTY;
  make_count_parts(p, x, i + 1, used, cap);
}

static pq_colours *colours_new(const pq_board *b, pq_piece piece, int colours, int k, bool counting,
                               bool listing);

pq_colours *pq_colours_new(const pq_board *b, pq_piece piece, int colours, int k) {
  return colours_new(b, piece, colours, k, false, false);
}

pq_colours *pq_colours_new_count(const pq_board *b, pq_piece piece, int colours, int k,
                                 bool listing) {
  return colours_new(b, piece, colours, k, true, listing);
}

static pq_colours *colours_new(const pq_board *b, pq_piece piece, int colours, int k, bool counting,
                               bool listing) {
  PQ_REQUIRE(b->squares <= PQ_COLOURS_MAX_SQUARES && colours >= 2 && colours <= PQ_MAX_COLOURS &&
                 (piece == PQ_QUEEN || piece == PQ_ROOK || piece == PQ_BISHOP),
             "no colours problem");
  pq_colours *p = pq_calloc(1, sizeof *p);
  *p = (pq_colours){.b = b, .piece = piece, .colours = colours, .k = k, .words = b->words};
  p->line = pq_calloc((size_t)b->lines, sizeof *p->line);
  for (int d = 0; d < PQ_NDIRS; d++) {
    p->dir_first[d] = p->nlines;
    if (!piece_dir(piece, d)) continue;
    for (int l = b->line_start[d]; l < b->line_start[d + 1]; l++, p->nlines++)
      memcpy(p->line[p->nlines].w, b->line[l].w, (size_t)p->words * sizeof(uint64_t));
  }
  p->dir_first[PQ_NDIRS] = p->nlines;
  memcpy(p->all.w, b->all.w, (size_t)p->words * sizeof(uint64_t));
  p->counting = counting;
  p->listing = listing;
  if (counting) {
    int cap = 64;
    uint8_t x[MAX_SPLIT] = {0};
    choose_split(p);
    p->parts = pq_malloc((size_t)cap * sizeof *p->parts);
    p->weight = pq_malloc((size_t)cap * sizeof *p->weight);
    make_count_parts(p, x, 0, 0, &cap);
  } else {
    choose_split(p);
    make_parts(p);
  }
  return p;
}

void pq_colours_free(pq_colours *p) {
  if (!p) return;
  free(p->line);
  free(p->parts);
  free(p->weight);
  free(p);
}

int pq_colours_parts(const pq_colours *p) { return p->nparts; }

int pq_colours_weight(const pq_colours *p, int part) { return p->counting ? p->weight[part] : 1; }

int pq_colours_split(const pq_colours *p, int *lines) {
  for (int i = 0; i < p->nsplit; i++)
    lines[i] = board_line(p, p->split[i]);
  return p->nsplit;
}

void pq_colours_cube(const pq_colours *p, int part, char *text) {
  for (int i = 0; i < p->nsplit; i++)
    text[i] = p->parts[part][i] == EMPTY ? '.' : (char)('0' + p->parts[part][i]);
  text[p->nsplit] = '\0';
}

uint64_t pq_colours_id(const pq_colours *p) {
  uint64_t h =
      pq_fnv(pq_fnv(pq_fnv(0xcbf29ce484222325u, (uint64_t)p->b->width), (uint64_t)p->b->height),
             (uint64_t)p->piece * 64 + (uint64_t)p->colours);
  h = pq_fnv(h, (uint64_t)p->k + (p->counting ? 1000000 : 0) + (p->listing ? 2000000 : 0));
  for (int i = 0; i < p->nsplit; i++)
    h = pq_fnv(h, (uint64_t)p->split[i]);
  return pq_fnv_bytes(h, p->parts, (size_t)p->nparts * sizeof *p->parts);
}

/* One thread's search. */
struct pq_colours_solver {
  const pq_colours *p;
  cbits *compat; /* per depth, per colour: the squares that colour may still take */
  uint8_t *decided;
  uint64_t nodes, polled;
  uint64_t work; /* the knapsack's steps since the last poll: a node can take milliseconds */
  pq_status (*poll)(void *ctx, uint64_t nodes);
  void *poll_ctx;
  pq_status stop;
  FILE *tree;               /* the proof tree of the part under way, or NULL */
  int *states_a, *states_b; /* the knapsack's tables */
  int states;               /* their size, (k + 1)^(C - 1); 0 when too large for the bound */
  int *step;                /* [x * (C - 1) + c]: x's size of colour c, times its radix */
  /* Counting: the lines labelled with a colour, which must hold a piece of it (a stack). */
  int *req_line, nreq;
  uint8_t *req_colour;
  int reqs[PQ_MAX_COLOURS][PQ_NDIRS]; /* of them, those of each colour and direction */
  /* Counting: at a leaf, each colour's ways to place its k pieces, and the placement built. */
  cbits *ways[PQ_MAX_COLOURS];
  int nways[PQ_MAX_COLOURS], capways[PQ_MAX_COLOURS];
  uint8_t cells[PQ_COLOURS_MAX_SQUARES];
  pq_colours_visit visit;
  void *visit_ctx;
};

pq_colours_solver *pq_colours_solver_new(const pq_colours *p) {
  pq_colours_solver *s = pq_calloc(1, sizeof *s);
  s->p = p;
  s->compat = pq_calloc((size_t)(p->nlines + 2) * (size_t)p->colours, sizeof(cbits));
  s->decided = pq_calloc((size_t)p->nlines, 1);
  s->req_line = pq_calloc((size_t)p->nlines + 1, sizeof(int));
  s->req_colour = pq_calloc((size_t)p->nlines + 1, 1);
  s->states_a = pq_calloc(MAX_STATES, sizeof(int));
  s->states_b = pq_calloc(MAX_STATES, sizeof(int));
  /* The knapsack's states: the sizes of colours 0..C-2, each capped at k, in mixed radix. */
  int C = p->colours, k = p->k, states = 1;
  for (int c = 0; c < C - 1 && states; c++)
    states = states * (k + 1) > MAX_STATES ? 0 : states * (k + 1);
  s->states = states;
  s->step = pq_calloc((size_t)(states ? states : 1) * (size_t)(C - 1), sizeof(int));
  for (int x = 0; x < states; x++)
    for (int c = 0, radix = 1, rest = x; c < C - 1; c++, radix *= k + 1, rest /= k + 1)
      s->step[x * (C - 1) + c] = rest % (k + 1);
  return s;
}

void pq_colours_solver_free(pq_colours_solver *s) {
  if (!s) return;
  free(s->compat);
  free(s->decided);
  free(s->req_line);
  free(s->req_colour);
  for (int c = 0; c < PQ_MAX_COLOURS; c++)
    free(s->ways[c]);
  free(s->states_a);
  free(s->states_b);
  free(s->step);
  free(s);
}

uint64_t pq_colours_solver_nodes(const pq_colours_solver *s) { return s->nodes; }

/* The first square of a & b, or -1. */
static int first_and(const pq_colours *p, const cbits *a, const cbits *b) {
  for (int i = 0; i < p->words; i++)
    if (a->w[i] & b->w[i]) return i * 64 + __builtin_ctzll(a->w[i] & b->w[i]);
  return -1;
}

static void move_square(cbits *from, cbits *to, int s) {
  from->w[s / 64] &= ~(1ull << (s % 64));
  to->w[s / 64] |= 1ull << (s % 64);
}

/* Hall's condition for more than 10 colours, where its sets are too many to list: a flow gives
   each colour k of its open squares, no square to two colours, by augmenting paths (a colour
   short of k takes a square of another colour, which takes another, and so on to a square no
   colour holds). It succeeds exactly when Hall's condition holds for every set of colours. */
static bool hall_flow(const pq_colours *p, const cbits *cp) {
  int C = p->colours, have[PQ_MAX_COLOURS] = {0};
  cbits own[PQ_MAX_COLOURS], unowned = {{0}};
  for (int c = 0; c < C; c++)
    for (int i = 0; i < p->words; i++)
      unowned.w[i] |= cp[c].w[i], own[c].w[i] = 0;
  for (int c = 0; c < C; c++)
    for (int s; have[c] < p->k && (s = first_and(p, &cp[c], &unowned)) >= 0; have[c]++)
      move_square(&unowned, &own[c], s);
  for (int c = 0; c < C; c++)
    while (have[c] < p->k) {
      /* Breadth first over colours from c: colour v follows u when u may take a square of v. */
      int queue[PQ_MAX_COLOURS], prev[PQ_MAX_COLOURS], head = 0, tail = 0, end = -1, s;
      for (int v = 0; v < C; v++)
        prev[v] = -2;
      prev[c] = -1;
      queue[tail++] = c;
      while (head < tail && end < 0) {
        int u = queue[head++];
        if (first_and(p, &cp[u], &unowned) >= 0) end = u;
        for (int v = 0; v < C && end < 0; v++)
          if (prev[v] == -2 && first_and(p, &cp[u], &own[v]) >= 0) prev[v] = u, queue[tail++] = v;
      }
      if (end < 0) return false;
      move_square(&unowned, &own[end], first_and(p, &cp[end], &unowned));
      for (int v = end; prev[v] >= 0; v = prev[v])
        s = first_and(p, &cp[prev[v]], &own[v]), move_square(&own[v], &own[prev[v]], s);
      have[c]++;
    }
  return true;
}

/* Hall's condition: every set T of colours may take at least |T| k squares among them (the
   colours' squares are disjoint). */
static bool hall(const pq_colours *p, const cbits *cp) {
  int C = p->colours;
  if (C > 10) return hall_flow(p, cp);
  for (int t = 3; t < (1 << C); t++) {
    if (!(t & (t - 1))) continue;
    cbits u = {{0}};
    int n = 0;
    for (int c = 0; c < C; c++)
      if ((t >> c) & 1) {
        n++;
        for (int i = 0; i < p->words; i++)
          u.w[i] |= cp[c].w[i];
      }
    if (count(p, &u) < n * p->k) return false;
  }
  return true;
}

/* A quick way through the knapsack below: each line of direction d, most squares first, to the
   colour with the fewest squares so far among those it has squares for; true when every colour
   reaches k (then the knapsack holds; false says nothing). */
static bool greedy(const pq_colours *p, const cbits *cp, int d) {
  int C = p->colours, have[PQ_MAX_COLOURS] = {0};
  for (int l = p->dir_first[d]; l < p->dir_first[d + 1]; l++) {
    int best = -1;
    for (int c = 0; c < C; c++)
      if (count_and(p, &cp[c], &p->line[l]) && (best < 0 || have[c] < have[best])) best = c;
    if (best >= 0) have[best] += count_and(p, &cp[best], &p->line[l]);
  }
  for (int c = 0; c < C; c++)
    if (have[c] < p->k) return false;
  return true;
}

/* The knapsack over the lines of direction d: each line ends up with one colour (a piece stands
   on one line of each direction), so there must be a way to give every line to one colour with
   each colour's squares on its lines at least k. A table over the sizes of colours 0..C-2 (each
   capped at k) of the most squares colour C-1 can have. */
static bool knapsack(pq_colours_solver *s, const cbits *cp, int d) {
  const pq_colours *p = s->p;
  int C = p->colours, k = p->k, states = s->states;
  if (!states || greedy(p, cp, d)) return true;
  int *most = s->states_a, *next = s->states_b;
  for (int x = 0; x < states; x++)
    most[x] = -1;
  most[0] = 0;
  for (int l = p->dir_first[d]; l < p->dir_first[d + 1]; l++) {
    int a[PQ_MAX_COLOURS], any = 0;
    for (int c = 0; c < C; c++)
      any |= a[c] = count_and(p, &cp[c], &p->line[l]);
    if (!any) continue;
    memcpy(next, most, (size_t)states * sizeof *next);
    s->work += (uint64_t)states;
    /* The line to colour C-1 adds to the value; to colour c < C-1 moves the state up. */
    for (int x = 0; x < states; x++) {
      int v = most[x];
      if (v < 0) continue;
      if (a[C - 1]) next[x] = v + a[C - 1] > next[x] ? v + a[C - 1] : next[x];
      const int *have = s->step + x * (C - 1);
      for (int c = 0, radix = 1; c < C - 1; c++, radix *= k + 1) {
        if (!a[c] || have[c] == k) continue;
        int y = x + (have[c] + a[c] > k ? k - have[c] : a[c]) * radix;
        if (v > next[y]) next[y] = v;
      }
    }
    int *t = most;
    most = next;
    next = t;
    if (most[states - 1] >= k) return true; /* every colour has k already */
  }
  return most[states - 1] >= k;
}

static bool bounds(pq_colours_solver *s, const cbits *cp) {
  const pq_colours *p = s->p;
  for (int c = 0; c < p->colours; c++)
    if (count(p, &cp[c]) < p->k) return false;
  if (!hall(p, cp)) return false;
  for (int d = 0; d < PQ_NDIRS; d++)
    if (p->dir_first[d] < p->dir_first[d + 1] && !knapsack(s, cp, d)) return false;
  return true;
}

/* Labels line l with colour c: the other colours lose its squares. */
static void label(const pq_colours *p, const cbits *from, cbits *to, int l, int c) {
  for (int e = 0; e < p->colours; e++)
    for (int i = 0; i < p->words; i++)
      to[e].w[i] = e == c ? from[e].w[i] : from[e].w[i] & ~p->line[l].w[i];
}

/* A witness once no undecided line holds squares of two colours: every colour takes its
   squares (disjoint then, and no line holds two colours), the first k of each. */
static void witness(const pq_colours *p, const cbits *cp, uint8_t *cells) {
  memset(cells, 0, (size_t)p->b->squares);
  for (int c = 0; c < p->colours; c++)
    for (int s = 0, n = 0; s < p->b->squares && n < p->k; s++)
      if ((cp[c].w[s / 64] >> (s % 64)) & 1) {
        cells[s] = (uint8_t)(c + 1);
        n++;
      }
}

/* The undecided line where a label takes the most squares from the colours not given it; -1
   when no undecided line holds squares of two colours. */
static int branch_line(const pq_colours_solver *s, const cbits *cp) {
  const pq_colours *p = s->p;
  int best = -1, best_loss = 0;
  for (int l = 0; l < p->nlines; l++) {
    if (s->decided[l]) continue;
    int total = 0, most = 0;
    for (int c = 0; c < p->colours; c++) {
      int a = count_and(p, &cp[c], &p->line[l]);
      total += a;
      most = a > most ? a : most;
    }
    if (total - most > best_loss) best_loss = total - most, best = l;
  }
  return best;
}

/* One more node (a search node, or a placement or a way of a leaf): polls every 4096, or sooner
   when the knapsack has taken POLL_WORK steps since (on large boards a node can take
   milliseconds: the limits were once overrun by seconds). */
static void tick(pq_colours_solver *s) {
  if ((++s->nodes - s->polled >= 4096 || s->work >= POLL_WORK) && s->poll) {
    s->stop = s->poll(s->poll_ctx, s->nodes - s->polled);
    s->polled = s->nodes;
    s->work = 0;
  }
}

/* Searches below depth (its compat sets at s->compat + depth * C) with colours 0..used in use
   (-1: none); true with cells set when a placement is found. */
static bool search(pq_colours_solver *s, int depth, int used, uint8_t *cells) {
  const pq_colours *p = s->p;
  tick(s);
  if (s->stop) return false;
  const cbits *cp = s->compat + (size_t)depth * (size_t)p->colours;
  if (!bounds(s, cp)) {
    if (s->tree) fputc('.', s->tree);
    return false;
  }
  int l = branch_line(s, cp);
  if (l < 0) {
    witness(p, cp, cells);
    return true;
  }
  s->decided[l] = 1;
  if (s->tree) fprintf(s->tree, "%d,", board_line(p, l));
  bool found = false;
  /* Colours not yet in use are alike: only the first of them is tried. A colour with no square
     on l loses to one with squares there (it takes from every colour and gives none). The proof
     tree has a subtree for each colour tried and '-' for the others (doc/certificate.md). */
  for (int c = 0; c < p->colours && !found && !s->stop; c++) {
    if (c > used + 1 || !count_and(p, &cp[c], &p->line[l])) {
      if (s->tree) fputc('-', s->tree);
      continue;
    }
    cbits *next = s->compat + (size_t)(depth + 1) * (size_t)p->colours;
    label(p, cp, next, l, c);
    found = search(s, depth + 1, c > used ? c : used, cells);
  }
  s->decided[l] = 0;
  return found;
}

/* The direction of the piece's line l. */
static int direction(const pq_colours *p, int l) {
  int d = 0;
  while (l >= p->dir_first[d + 1])
    d++;
  return d;
}

static void require(pq_colours_solver *s, int l, int c) {
  s->req_line[s->nreq] = l;
  s->req_colour[s->nreq++] = (uint8_t)c;
  s->reqs[c][direction(s->p, l)]++;
}

static void unrequire(pq_colours_solver *s) {
  s->nreq--;
  s->reqs[s->req_colour[s->nreq]][direction(s->p, s->req_line[s->nreq])]--;
}

/* Starts part `part` of the split on s: its lines labelled as the part says (every other colour
   loses their squares; counting: a colour's label requires a piece on the line). Returns the
   highest colour the labels use, -1 for none. */
static int part_start(pq_colours_solver *s, int part, FILE *tree) {
  const pq_colours *p = s->p;
  s->stop = PQ_OK;
  s->tree = tree;
  s->polled = s->nodes;
  memset(s->decided, 0, (size_t)p->nlines);
  cbits *cp = s->compat;
  for (int c = 0; c < p->colours; c++)
    cp[c] = p->all;
  int used = -1;
  for (int i = 0; i < p->nsplit; i++) {
    int l = p->split[i], c = p->parts[part][i];
    s->decided[l] = 1;
    for (int e = 0; e < p->colours; e++)
      if (e != c)
        for (int j = 0; j < p->words; j++)
          cp[e].w[j] &= ~p->line[l].w[j];
    if (c == EMPTY) continue;
    if (p->counting) require(s, l, c);
    used = c > used ? c : used;
  }
  return used;
}

/* Ends a part: passes on the nodes its polls have not. */
static void part_end(pq_colours_solver *s) {
  if (s->stop == PQ_OK && s->poll && s->nodes > s->polled)
    s->stop = s->poll(s->poll_ctx, s->nodes - s->polled), s->polled = s->nodes;
}

pq_status pq_colours_part(pq_colours_solver *s, int part, uint8_t *cells, bool *found, FILE *tree) {
  *found = search(s, 0, part_start(s, part, tree), cells);
  part_end(s);
  return *found ? PQ_OK : s->stop;
}

/* ---- counting (pq_colours_new_count) ---- */

/* Parallel lines labelled c each hold one of c's k pieces at least: more than k of them cannot
   be, and with k of them c's pieces are on them, one a line (false: no placement). */
static bool confine(pq_colours_solver *s, cbits *cp) {
  const pq_colours *p = s->p;
  for (int c = 0; c < p->colours; c++)
    for (int d = 0; d < PQ_NDIRS; d++) {
      if (s->reqs[c][d] > p->k) return false;
      if (s->reqs[c][d] < p->k) continue;
      cbits on = {{0}};
      for (int i = 0; i < s->nreq; i++)
        if (s->req_colour[i] == c && direction(p, s->req_line[i]) == d)
          for (int j = 0; j < p->words; j++)
            on.w[j] |= p->line[s->req_line[i]].w[j];
      for (int j = 0; j < p->words; j++)
        cp[c].w[j] &= on.w[j];
    }
  return true;
}

/* Whether every line labelled with a colour still has a square of that colour. */
static bool required_open(const pq_colours_solver *s, const cbits *cp) {
  for (int i = 0; i < s->nreq; i++)
    if (!count_and(s->p, &cp[s->req_colour[i]], &s->p->line[s->req_line[i]])) return false;
  return true;
}

/* Colour c's ways at a leaf: the sets of k of its squares sq[from..n-1] (with chosen, of size
   taken, so far) that meet every line labelled c. */
static void ways_of(pq_colours_solver *s, int c, const int *sq, int n, int from, int taken,
                    cbits *chosen) {
  const pq_colours *p = s->p;
  if (s->stop) return;
  if (taken == p->k) {
    tick(s);
    for (int i = 0; i < s->nreq; i++)
      if (s->req_colour[i] == c && !count_and(p, chosen, &p->line[s->req_line[i]])) return;
    if (s->nways[c] == s->capways[c]) {
      s->capways[c] = s->capways[c] ? 2 * s->capways[c] : 64;
      s->ways[c] = pq_realloc(s->ways[c], (size_t)s->capways[c] * sizeof(cbits));
    }
    s->ways[c][s->nways[c]++] = *chosen;
    return;
  }
  for (int i = from; i <= n - (p->k - taken); i++) {
    chosen->w[sq[i] / 64] |= 1ull << (sq[i] % 64);
    ways_of(s, c, sq, n, i + 1, taken + 1, chosen);
    chosen->w[sq[i] / 64] &= ~(1ull << (sq[i] % 64));
  }
}

/* Every placement of the leaf: one way for each colour (their squares are disjoint). */
static void visit_product(pq_colours_solver *s, int c) {
  const pq_colours *p = s->p;
  if (c == p->colours) {
    tick(s);
    s->visit(s->visit_ctx, s->cells);
    return;
  }
  for (int i = 0; i < s->nways[c] && !s->stop; i++) {
    const cbits *w = &s->ways[c][i];
    for (int q = 0; q < p->b->squares; q++)
      if ((w->w[q / 64] >> (q % 64)) & 1) s->cells[q] = (uint8_t)(c + 1);
    visit_product(s, c + 1);
    for (int q = 0; q < p->b->squares; q++)
      if ((w->w[q / 64] >> (q % 64)) & 1) s->cells[q] = 0;
  }
}

/* A leaf: no undecided line holds squares of two colours, so the colours' squares are disjoint
   and each colour's pieces are any k of its squares that meet the lines labelled with it. */
static void count_leaf(pq_colours_solver *s, const cbits *cp) {
  const pq_colours *p = s->p;
  for (int c = 0; c < p->colours; c++) {
    int sq[PQ_COLOURS_MAX_SQUARES], n = 0;
    for (int q = 0; q < p->b->squares; q++)
      if ((cp[c].w[q / 64] >> (q % 64)) & 1) sq[n++] = q;
    cbits chosen = {{0}};
    s->nways[c] = 0;
    ways_of(s, c, sq, n, 0, 0, &chosen);
    if (!s->nways[c] || s->stop) return;
  }
  memset(s->cells, 0, (size_t)p->b->squares);
  visit_product(s, 0);
}

/* Counts below depth as search does, with colours 0..used in use: a line is labelled with the
   colour of its pieces (one that is in use or the first not yet, so that the colours come in
   first-use order) or EMPTY, which partitions the placements. */
static void count_search(pq_colours_solver *s, int depth, int used) {
  const pq_colours *p = s->p;
  tick(s);
  if (s->stop) return;
  cbits *cp = s->compat + (size_t)depth * (size_t)p->colours;
  if (!confine(s, cp) || !required_open(s, cp) || !bounds(s, cp)) {
    if (s->tree) fputc('.', s->tree);
    return;
  }
  int l = branch_line(s, cp);
  if (l < 0) {
    if (s->tree) fputc('c', s->tree);
    count_leaf(s, cp);
    return;
  }
  s->decided[l] = 1;
  if (s->tree) fprintf(s->tree, "%d,", board_line(p, l));
  cbits *next = s->compat + (size_t)(depth + 1) * (size_t)p->colours;
  /* The count tree (doc/certificate.md, "Count certificates of several colours"): a child for
     each colour, '-' for those not tried (alike to the first colour not in use, or with no
     square on l), then the child where l is empty. */
  for (int c = 0; c < p->colours && !s->stop; c++) {
    if (c > used + 1 || !count_and(p, &cp[c], &p->line[l])) {
      if (s->tree) fputc('-', s->tree);
      continue;
    }
    label(p, cp, next, l, c);
    require(s, l, c);
    count_search(s, depth + 1, c > used ? c : used);
    unrequire(s);
  }
  if (!s->stop) {
    for (int e = 0; e < p->colours; e++)
      for (int i = 0; i < p->words; i++)
        next[e].w[i] = cp[e].w[i] & ~p->line[l].w[i];
    count_search(s, depth + 1, used);
  }
  s->decided[l] = 0;
}

pq_status pq_colours_count_part(pq_colours_solver *s, int part, pq_colours_visit visit, void *ctx,
                                FILE *tree) {
  PQ_REQUIRE(s->p->counting && s->p->k >= 1, "not a counting split");
  s->visit = visit;
  s->visit_ctx = ctx;
  s->nreq = 0;
  memset(s->reqs, 0, sizeof s->reqs);
  count_search(s, 0, part_start(s, part, tree));
  part_end(s);
  return s->stop;
}

void pq_colours_set_poll(pq_colours_solver *s, pq_status (*poll)(void *, uint64_t), void *ctx) {
  s->poll = poll;
  s->poll_ctx = ctx;
}

void pq_colours_text(const pq_board *b, const uint8_t *cells, char *text) {
  pq_placement_text(b, cells, symbols, text);
}

pq_status pq_colours_parse(const pq_board *b, pq_piece piece, int colours, int k, const char *text,
                           uint8_t *cells) {
  char letters[PQ_MAX_COLOURS + 1];
  memcpy(letters, symbols, (size_t)colours);
  letters[colours] = '\0';
  char why[PQ_PLACEMENT_WHY];
  if (pq_placement_read(b, text, letters, cells, why)) return PQ_EINVAL;
  return pq_colours_peaceable(b, piece, colours, k, cells) ? PQ_OK : PQ_EINVAL;
}

bool pq_colours_peaceable(const pq_board *b, pq_piece piece, int colours, int k,
                          const uint8_t *cells) {
  int have[PQ_MAX_COLOURS + 1] = {0};
  for (int s = 0; s < b->squares; s++) {
    if (cells[s] > colours) return false;
    have[cells[s]]++;
    for (int t = 0; t < b->squares && cells[s]; t++)
      if (cells[t] && cells[t] != cells[s] && t != s && pq_attacks_plain(b, piece, s, t))
        return false;
  }
  for (int c = 1; c <= colours; c++)
    if (have[c] < k) return false;
  return true;
}
