/* armies_check.c: the armies certificate checker (doc/certificate.md), part of libcheck.a: its
   own attack test, line geometry and symmetries, nothing of the search or the calculus. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/check/check.h"
#include "armies_kn_check.h"

typedef struct checker {
  int width, height, squares;
  int piece; /* index into "KQRBN" */
  int need_w, need_b;
  int *line_square; /* [l * PQ_CHECK_MAX_SIDE + i]: the squares of line l, line_length[l] of them */
  int *line_length;
  long leaves;                   /* leaves whose bound was checked */
  long holes;                    /* holes ('#'): parts proven in other files (a proof in parts) */
  long skipped;                  /* leaves left out by --sample */
  bool interrupted;              /* a signal or the time limit stopped the check: no verdict */
  const pq_check_params *params; /* the sample, the deadline, the verdict's form */
  /* Knights, and kings' counts: the lemmas of the proof of infeasibility and of the count
     (doc/certificate.md), and whether each numbers the squares column by column. */
  const pq_json *lemmas, *count_lemmas;
  bool by_columns, count_by_columns;
  uint64_t rng; /* xorshift state for the sample */
  /* Count trees (doc/certificate.md, "Count certificates"): */
  bool counting;    /* the tree counts placements: "c" leaves, each line decided once */
  char *state;      /* per line id: 0 undecided, 'i' or 'o' on the path (cube included) */
  pq_count counted; /* placements counted at the "c" leaves so far */
  bool overflow;    /* a count passed 2^128 - 1 */
  long at;          /* the byte of the tree being read, for messages */
  int first_dir;    /* the direction whose bound closed the last leaf (tried first) */
  /* Kept by decide_line as lines are decided: per direction and line of it, the squares open to
     white (no line through them "out") and to black (none "in"), and the totals. */
  int *square_lines; /* [4 * s + d]: the index in direction d of the line through square s */
  int open_w[4][2 * PQ_CHECK_MAX_SIDE], open_b[4][2 * PQ_CHECK_MAX_SIDE], wc, bc;
  char why[200]; /* the first fault found */
  bool in_parts; /* that fault: a file of a proof in parts, checked alone (no verdict) */
} checker;

static int row_of(const checker *c, int s) { return s / c->width; }
static int col_of(const checker *c, int s) { return s % c->width; }

/* The checkers' geometry (src/check/check.h), on this board. */
static bool attacks(const checker *c, int s, int t) {
  return pq_check_attacks(c->width, c->piece, s, t);
}
static int line_dir(const checker *c, int id, int *index) {
  return pq_check_line_dir(c->width, c->height, id, index);
}
static bool piece_dir(const checker *c, int d) { return pq_check_piece_dir(c->piece, d); }
static int line_count(const checker *c) { return pq_check_lines(c->width, c->height); }
static int line_id(const checker *c, int d, int r, int k) {
  return pq_check_line_id(c->width, c->height, d, r, k);
}

static bool fault(checker *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fault(checker *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (!c->why[0]) vsnprintf(c->why, sizeof c->why, fmt, ap);
  va_end(ap);
  return false;
}

/* Reads a placement (doc/certificate.md): its rows, its counts and that no piece attacks one of
   the other colour; cells[s]: 0 empty, 1 white, 2 black. */
static bool read_placement(checker *c, const char *text, int white, int black, uint8_t *cells) {
  int nw = 0, nb = 0, square;
  char upper = "KQRBN"[c->piece], bad;
  char symbols[4] = {'.', upper, (char)(upper - 'A' + 'a'), '\0'};
  switch (pq_check_rows(text, c->width, c->height, symbols, cells, &square, &bad)) {
  case PQ_ROWS_SHAPE:
    return fault(c, "witness \"%.80s\": not %d rows of %d squares joined by '/'", text, c->height,
                 c->width);
  case PQ_ROWS_SYMBOL:
    return fault(c, "witness \"%.80s\": '%c' at square %d is not '.', '%c' or '%c'", text, bad,
                 square, upper, symbols[2]);
  case PQ_ROWS_OK: break;
  }
  int whites[PQ_CHECK_MAX_SQUARES], blacks[PQ_CHECK_MAX_SQUARES];
  for (int s = 0; s < c->squares; s++) {
    if (cells[s] == 1) whites[nw++] = s;
    if (cells[s] == 2) blacks[nb++] = s;
  }
  if (nw != white || nb != black) return fault(c, "witness \"%.80s\": wrong army sizes", text);
  for (int i = 0; i < nw; i++)
    for (int j = 0; j < nb; j++)
      if (attacks(c, whites[i], blacks[j]) || attacks(c, blacks[j], whites[i]))
        return fault(c, "witness \"%.80s\": a white piece attacks a black one", text);
  return true;
}

static bool check_witness(checker *c, const char *text, int white, int black) {
  uint8_t cells[PQ_CHECK_MAX_SQUARES];
  return read_placement(c, text, white, black, cells);
}

/* The exhaustive search leaf's state: hit[colour][t], how many pieces of that colour (1 white,
   2 black) attack square t. */
typedef struct leaf_state {
  int hit[3][PQ_CHECK_MAX_SQUARES];
} leaf_state;

static void mark(const checker *c, leaf_state *l, int s, int colour, int delta) {
  for (int t = 0; t < c->squares; t++)
    if (attacks(c, s, t) || attacks(c, t, s)) l->hit[colour][t] += delta;
}

/* Exhaustive search leaf (kings, knights): whether white white and black black pieces fit on
   the squares from s on, square by square: each square is left empty, or takes a white piece
   (if no black one attacks it) or a black one (if no white one does). Pruned when fewer squares
   from s on are open to a colour than it has pieces left. A stop (pq_check_stop) returns true
   at once, and the interrupted flag then withholds any verdict. */
static bool place_from(checker *c, leaf_state *l, int s, int white, int black) {
  if (!white && !black) return true;
  if (pq_check_stop(c->params)) return c->interrupted = true;
  int open_w = 0, open_b = 0;
  for (int t = s; t < c->squares; t++) {
    open_w += !l->hit[2][t];
    open_b += !l->hit[1][t];
  }
  if (open_w < white || open_b < black) return false;
  for (int colour = 1; colour <= 2; colour++) {
    if (!(colour == 1 ? white : black) || l->hit[3 - colour][s]) continue;
    mark(c, l, s, colour, +1);
    bool found = place_from(c, l, s + 1, white - (colour == 1), black - (colour == 2));
    mark(c, l, s, colour, -1);
    if (found) return true;
  }
  return place_from(c, l, s + 1, white, black);
}

/* Whether the lines of one direction (white[i] squares open to white, black[i] to black) can be
   given each to one colour so that white gets at least need_w squares and black need_b. A line
   open to one colour only goes to it (that can only help); over the others, by dynamic
   programming, most[j] = the most black squares with j white squares (j capped at need_w). */
static bool split_possible(const int *white, const int *black, int lines, int need_w, int need_b) {
  int mixed[2 * PQ_CHECK_MAX_SIDE], nmixed = 0, sum_w = 0, sum_b = 0;
  for (int i = 0; i < lines; i++)
    if (!black[i])
      need_w -= white[i];
    else if (!white[i])
      need_b -= black[i];
    else {
      mixed[nmixed++] = i;
      sum_w += white[i];
      sum_b += black[i];
    }
  if (need_w < 0) need_w = 0;
  if (need_b < 0) need_b = 0;
  if (sum_w < need_w || sum_b < need_b) return false;
  int one[PQ_CHECK_MAX_SQUARES + 1], other[PQ_CHECK_MAX_SQUARES + 1], *most = one, *next = other;
  int reach = 0; /* most[j] < 0 for j > reach */
  most[0] = 0;
  for (int m = 0; m < nmixed; m++) {
    int i = mixed[m], top = reach + white[i] < need_w ? reach + white[i] : need_w;
    for (int j = 0; j <= top; j++)
      next[j] = -1;
    for (int j = 0; j <= reach; j++) {
      if (most[j] < 0) continue;
      int to_white = j + white[i] < need_w ? j + white[i] : need_w;
      if (most[j] > next[to_white]) next[to_white] = most[j];
      if (most[j] + black[i] > next[j]) next[j] = most[j] + black[i];
    }
    reach = top;
    int *t = most;
    most = next;
    next = t;
  }
  return reach == need_w && most[need_w] >= need_b;
}

/* Whether a leaf is closed by a bound (doc/certificate.md): fewer squares open to white than
   white pieces, or to black than black pieces; or, for some direction of the piece, no way to
   give each of its lines to one colour (as every line ends up) leaves each colour enough open
   squares. The direction that closed the last leaf is tried first: neighbouring leaves are
   alike. */
static bool leaf_closed(checker *c) {
  if (c->wc < c->need_w || c->bc < c->need_b) return true;
  int lines[4] = {c->height, c->width, c->width + c->height - 1, c->width + c->height - 1};
  for (int i = 0; i < 4; i++) {
    int d = (c->first_dir + i) % 4;
    if (piece_dir(c, d) &&
        !split_possible(c->open_w[d], c->open_b[d], lines[d], c->need_w, c->need_b)) {
      c->first_dir = d;
      return true;
    }
  }
  return false;
}

/* Adds delta to the count of every square of line l: in_count for an "in" decision (closing the
   line to black), out_count for "out" (closing it to white); a square whose count leaves or
   reaches 0 opens or closes to that colour on its lines of every direction. */
static void decide_line(checker *c, int l, bool in, int delta, int *out_count, int *in_count) {
  int *count = in ? in_count : out_count, *total = in ? &c->bc : &c->wc;
  int(*open)[2 * PQ_CHECK_MAX_SIDE] = in ? c->open_b : c->open_w;
  c->state[l] = delta > 0 ? (in ? 'i' : 'o') : 0;
  for (int i = 0; i < c->line_length[l]; i++) {
    int s = c->line_square[l * PQ_CHECK_MAX_SIDE + i];
    int change = count[s] == 0 ? -1 : count[s] + delta == 0 ? +1 : 0;
    count[s] += delta;
    if (!change) continue;
    *total += change;
    for (int d = 0; d < 4; d++)
      open[d][c->square_lines[4 * s + d]] += change;
  }
}

/* Every square open to both colours, no line decided: the state before a cube's decisions. */
static void open_all(checker *c) {
  memset(c->open_w, 0, sizeof c->open_w);
  for (int s = 0; s < c->squares; s++)
    for (int d = 0; d < 4; d++)
      c->open_w[d][c->square_lines[4 * s + d]]++;
  memcpy(c->open_b, c->open_w, sizeof c->open_b);
  c->wc = c->bc = c->squares;
}

/* Lists the squares of every line, and the lines through every square, for decide_line. */
static void list_lines(checker *c) {
  int n = line_count(c);
  c->line_square = pq_malloc((size_t)n * PQ_CHECK_MAX_SIDE * sizeof *c->line_square);
  c->line_length = pq_calloc((size_t)n, sizeof *c->line_length);
  c->state = pq_calloc((size_t)n, 1);
  c->square_lines = pq_malloc((size_t)c->squares * 4 * sizeof *c->square_lines);
  for (int s = 0; s < c->squares; s++)
    for (int d = 0; d < 4; d++) {
      int l = line_id(c, d, row_of(c, s), col_of(c, s));
      line_dir(c, l, &c->square_lines[4 * s + d]);
      c->line_square[l * PQ_CHECK_MAX_SIDE + c->line_length[l]++] = s;
    }
}

/* Whether square s lies on line l. */
static bool on_line(const checker *c, int s, int l) {
  int index, d = line_dir(c, l, &index);
  return line_id(c, d, row_of(c, s), col_of(c, s)) == l;
}

/* The sets of `left` of the n free squares that meet every line of need[0..nneed) (lines decided
   "out", each of which must hold a black piece), by the set's first square on need[0]: it meets
   need[0] and the other lines through it, and the free squares of need[0] before it are left
   out. Once every line is met, any `left` of the free squares do. A signal or the time limit
   stops it (c->interrupted). */
static pq_count coverings(checker *c, bool *free_square, int n, int left, int *need, int nneed) {
  if (pq_check_stop(c->params)) return c->interrupted = true, 0;
  if (!nneed) return pq_check_binomial(n, left, &c->overflow);
  int dirs = 0; /* the most lines of the piece through a square */
  for (int d = 0; d < 4; d++)
    dirs += piece_dir(c, d);
  if (!left || n < left || nneed > dirs * left) return 0;
  int l = need[0], done[PQ_CHECK_MAX_SIDE], ndone = 0;
  pq_count total = 0;
  for (int s = 0; s < c->squares && !c->interrupted; s++) {
    if (!free_square[s] || !on_line(c, s, l)) continue;
    int gone[4], m = 0;
    free_square[s] = false; /* taken here, left out of the sets that come after */
    done[ndone++] = s;
    for (int j = 0; j < nneed; j++)
      if (on_line(c, s, need[j])) {
        gone[m++] = need[j];
        need[j--] = need[--nneed];
      }
    if (pq_count_add(&total, coverings(c, free_square, n - ndone, left - 1, need, nneed)))
      c->overflow = true;
    for (int j = 0; j < m; j++)
      need[nneed++] = gone[j];
  }
  for (int i = 0; i < ndone; i++)
    free_square[done[i]] = true;
  return total;
}

/* A count leaf "c": every line of the piece misses the squares open to white or those open to
   black, so any need_w of the squares open to white and any need_b of those open to black that
   meet every "out" line make a placement, counted here and nowhere else. */
static bool count_leaf(checker *c, const int *in_count) {
  int nblack = 0, out[4 * 2 * PQ_CHECK_MAX_SIDE], nout = 0;
  bool black[PQ_CHECK_MAX_SQUARES];
  for (int l = 0; l < line_count(c); l++) {
    int index = 0, d = line_dir(c, l, &index);
    if (!piece_dir(c, d)) continue;
    if (c->open_w[d][index] && c->open_b[d][index])
      return fault(c, "tree: a count leaf with a line open to both colours");
    if (c->state[l] == 'o') out[nout++] = l;
  }
  for (int s = 0; s < c->squares; s++)
    nblack += black[s] = !in_count[s];
  pq_count whites = pq_check_binomial(c->wc, c->need_w, &c->overflow);
  pq_count blacks = whites ? coverings(c, black, nblack, c->need_b, out, nout) : 0;
  if (c->interrupted) return false;
  if (blacks && whites * blacks / blacks != whites) c->overflow = true;
  if (pq_count_add(&c->counted, whites * blacks)) c->overflow = true;
  return true;
}

/* Whether a leaf "." is closed: by a bound (leaf_closed), or, in a count tree, where every line
   decided "out" must hold a black piece, by such a line with no square open to black, or by more
   such lines in one direction than black pieces (a piece is on one line of each direction). */
static bool closed(checker *c) {
  if (leaf_closed(c)) return true;
  if (!c->counting) return false;
  int outs[4] = {0, 0, 0, 0};
  for (int l = 0; l < line_count(c); l++) {
    int index = 0, d = line_dir(c, l, &index);
    if (c->state[l] != 'o') continue;
    if (!c->open_b[d][index] || ++outs[d] > c->need_b) return true;
  }
  return false;
}

/* Checks one leaf of a tree: "." closed (checked with the sample's probability), "c" counted. */
static bool check_leaf(checker *c, char kind, const int *in_count) {
  if (pq_check_stop(c->params)) {
    c->interrupted = true;
    return false;
  }
  if (kind == 'c') {
    if (!c->counting) return fault(c, "tree: a count leaf in a proof of infeasibility");
    c->leaves++;
    return count_leaf(c, in_count);
  }
  /* A count's every leaf is checked: a sample could not give a total (a sample of its leaves
     once let a false total through with exit status 0). */
  if (!c->counting && !pq_check_sampled(c->params, &c->rng, !c->leaves && !c->skipped)) {
    c->skipped++;
    return true;
  }
  c->leaves++;
  return closed(c) || fault(c, "tree: a leaf's bound does not close it");
}

/* Checks one proof tree under a cube: per square, how many of its lines are "out" (closing it
   to white) and "in" (closing it to black). A branch "L," explores line L "in" then "out";
   "L;" "out" then "in"; "." is a leaf closed by a bound, "c" (count trees) a counted leaf. */
static bool check_tree(checker *c, const char *tree, int *out_count, int *in_count) {
  enum { MAX_DEPTH = 2 * PQ_CHECK_MAX_SIDE * 4 };
  int stack_line[MAX_DEPTH], depth = 0, marked = -1; /* marked: the depth of an open '[' */
  bool stack_in[MAX_DEPTH], stack_second[MAX_DEPTH];
  const char *p = tree;
  bool parts = c->params->part && !c->counting;
  if (!strcmp(tree, "s") && !c->counting) {
    leaf_state *l = pq_calloc(1, sizeof *l);
    c->leaves++;
    bool found = place_from(c, l, 0, c->need_w, c->need_b);
    free(l);
    if (found) return fault(c, "tree: the exhaustive search leaf has a placement");
    return true;
  }
  for (;;) {
    c->at = p - tree;
    if (*p == '[' && parts && marked < 0) {
      /* A part proven in this file: the subtree up to its ']'. */
      marked = depth;
      p++;
      continue;
    }
    if ((*p == '#' || *p == '[') && c->counting)
      return fault(c, "tree: '%c', a hole or a part of a proof in parts, which a count never has",
                   *p);
    if ((*p == '#' || *p == '[') && !parts) {
      c->in_parts = !c->why[0];
      return fault(c,
                   "tree: a file of a proof in parts ('%c'): verify every file of the proof "
                   "together",
                   *p);
    }
    if (*p == '.' || *p == 'c' || (*p == '#' && marked < 0)) {
      /* A hole is a part another file proves: pq_check_parts sees that exactly one does. */
      if (*p == '#')
        p++, c->holes++;
      else if (!check_leaf(c, *p++, in_count))
        return false;
      /* Unwind: a finished second child pops; a finished first child turns into the second. */
      for (;;) {
        if (marked == depth) {
          if (*p++ != ']') return fault(c, "tree: a part's subtree not closed by ']'");
          marked = -1;
        }
        if (!depth) return *p ? fault(c, "tree: text after the tree's end") : true;
        int i = depth - 1;
        decide_line(c, stack_line[i], stack_in[i], -1, out_count, in_count);
        if (!stack_second[i]) {
          stack_second[i] = true;
          stack_in[i] = !stack_in[i];
          decide_line(c, stack_line[i], stack_in[i], +1, out_count, in_count);
          break;
        }
        depth--;
      }
    } else if (*p >= '0' && *p <= '9') {
      long l = 0;
      while (*p >= '0' && *p <= '9' && l < 100000)
        l = l * 10 + (*p++ - '0');
      int index, d = l < line_count(c) ? line_dir(c, (int)l, &index) : -1;
      char order = *p++;
      if ((order != ',' && order != ';') || d < 0 || !piece_dir(c, d))
        return fault(c, "tree: a branch names no line of the piece");
      if (c->counting && c->state[l])
        return fault(c, "tree: a count tree branches on line %ld, already decided", l);
      if (depth == MAX_DEPTH) return fault(c, "tree: deeper than the number of lines");
      stack_line[depth] = (int)l;
      stack_in[depth] = order == ',';
      stack_second[depth] = false;
      decide_line(c, (int)l, stack_in[depth++], +1, out_count, in_count);
    } else {
      return fault(c, "tree: unexpected character");
    }
  }
}

/* A proof as a certificate gives it: split lines, cubes and trees (borrowed from the document). */
typedef struct proof {
  int lines[20], n;
  bool complement;
  int ncubes;
  const char **cubes, **trees;
  int *weight; /* count proofs: the choices in each cube's orbit */
} proof;

static void proof_free(proof *pf) {
  free(pf->cubes);
  free(pf->trees);
  free(pf->weight);
  pf->cubes = pf->trees = NULL;
  pf->weight = NULL;
}

/* Reads the proof object obj (member `what`); false with a message when it is malformed.
   complement: whether the member "complement" is required (it is absent from count proofs). */
static bool read_proof(const checker *c, const pq_json *obj, const char *what, bool complement,
                       proof *pf) {
  *pf = (proof){0};
  const pq_json *split = pq_json_get(obj, "split"), *cubes = pq_json_get(obj, "cubes"),
                *trees = pq_json_get(obj, "trees"), *comp = pq_json_get(obj, "complement");
  if (!obj || obj->type != PQ_JSON_OBJECT || !split || split->type != PQ_JSON_ARRAY ||
      split->length > 20 || !cubes || cubes->type != PQ_JSON_ARRAY || !trees ||
      trees->type != PQ_JSON_ARRAY || trees->length != cubes->length || cubes->length > INT_MAX ||
      (complement && (!comp || (comp->type != PQ_JSON_TRUE && comp->type != PQ_JSON_FALSE))) ||
      (!complement && comp)) {
    pq_error("%s: malformed armies certificate (%s: split, cubes, trees%s)", pq_check_path(), what,
             complement ? ", complement" : "");
    return false;
  }
  pf->n = (int)split->length;
  pf->complement = complement && comp->type == PQ_JSON_TRUE;
  for (int i = 0; i < pf->n; i++) {
    long l;
    if (split->items[i]->type != PQ_JSON_NUMBER ||
        pq_parse_long(split->items[i]->string, 0, line_count(c) - 1, &l)) {
      pq_error("%s: malformed armies certificate (%s: split line %d)", pq_check_path(), what, i);
      return false;
    }
    pf->lines[i] = (int)l;
  }
  pf->ncubes = (int)cubes->length;
  pf->cubes = pq_calloc(cubes->length + 1, sizeof *pf->cubes);
  pf->trees = pq_calloc(cubes->length + 1, sizeof *pf->trees);
  for (int i = 0; i < pf->ncubes; i++) {
    const pq_json *q = cubes->items[i], *t = trees->items[i];
    if (q->type != PQ_JSON_STRING || t->type != PQ_JSON_STRING || q->length != (size_t)pf->n ||
        strspn(q->string, "io") != (size_t)pf->n || strlen(t->string) != t->length) {
      pq_error("%s: malformed armies certificate (%s: cube %d)", pq_check_path(), what, i);
      proof_free(pf);
      return false;
    }
    pf->cubes[i] = q->string;
    pf->trees[i] = t->string;
  }
  return true;
}

/* Checks that the cubes cover every assignment of the split lines up to the symmetries: each
   cube is a bit in a table of the 2^n assignments (line i 'i' is bit i), so the check takes
   2^n times the symmetries, however many cubes there are. With pf->weight (count proofs, no
   colour exchange): exactly, each assignment in the orbit of one cube only, and weight[q] is
   the size of cube q's orbit. */
static bool check_cover(checker *c, proof *pf, bool exact) {
  int groups = c->width == c->height ? 8 : 4, img[8][20], n = pf->n;
  const int *split = pf->lines;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      if (split[i] == split[j]) return fault(c, "split: line %d is given twice", split[i]);
  for (int g = 0; g < groups; g++)
    for (int i = 0; i < n; i++) {
      int l = pq_check_line_image(c->width, c->height, g, split[i]);
      img[g][i] = -1;
      for (int j = 0; j < n; j++)
        if (split[j] == l) img[g][i] = j;
      if (img[g][i] < 0) return fault(c, "split: the split lines are not closed under symmetry");
    }
  uint32_t all = (uint32_t)1 << n;
  uint64_t *present = pq_calloc(all / 64 + 1, sizeof *present);
  bool ok = true;
  for (int q = 0; q < pf->ncubes && ok; q++) {
    uint32_t code = 0;
    for (int i = 0; i < n; i++)
      if (pf->cubes[q][i] == 'i') code |= (uint32_t)1 << i;
    if (!exact) {
      present[code / 64] |= (uint64_t)1 << (code % 64);
      continue;
    }
    /* Exactly: mark the cube's whole orbit, which no other cube may touch. */
    pf->weight[q] = 0;
    for (int g = 0; g < groups && ok; g++) {
      uint32_t y = 0;
      for (int i = 0; i < n; i++)
        if ((code >> i) & 1) y |= (uint32_t)1 << img[g][i];
      bool marked = (present[y / 64] >> (y % 64)) & 1;
      bool mine = false;
      for (int h = 0; h < g && !mine; h++) {
        uint32_t z = 0;
        for (int i = 0; i < n; i++)
          if ((code >> i) & 1) z |= (uint32_t)1 << img[h][i];
        mine = z == y;
      }
      if (mine) continue;
      if (marked) ok = fault(c, "cubes: cube %d shares its orbit with another cube", q);
      present[y / 64] |= (uint64_t)1 << (y % 64);
      pf->weight[q]++;
    }
  }
  for (uint32_t x = 0; x < all && ok; x++) {
    bool covered = exact && ((present[x / 64] >> (x % 64)) & 1);
    for (int g = 0; g < groups && !covered; g++)
      for (uint32_t k = 0; k < (pf->complement ? 2u : 1u) && !covered; k++) {
        uint32_t code = 0;
        for (int i = 0; i < n; i++)
          if (((x >> i) & 1) ^ k) code |= (uint32_t)1 << img[g][i];
        covered = (present[code / 64] >> (code % 64)) & 1;
      }
    if (!covered) ok = fault(c, "cubes: an assignment of the split lines is in no cube");
  }
  free(present);
  return ok;
}

/* Checks tree q of pf under its cube (out_count and in_count: the squares' counts, zeroed here);
   in a count proof, adds the cube's count times its weight to *total. A tree's fault names the
   tree, its cube and the byte where it was found. */
static bool check_cube(checker *c, const proof *pf, int q, int *out_count, int *in_count,
                       pq_count *total) {
  bool line_piece = c->piece >= 1 && c->piece <= 3, ok;
  memset(out_count, 0, (size_t)c->squares * sizeof(int));
  memset(in_count, 0, (size_t)c->squares * sizeof(int));
  memset(c->state, 0, (size_t)line_count(c));
  open_all(c);
  c->counted = 0;
  for (int i = 0; i < pf->n; i++)
    decide_line(c, pf->lines[i], pf->cubes[q][i] == 'i', +1, out_count, in_count);
  bool by_suffixes = (c->piece == 4 && strcmp(pf->trees[q], "s")) || (c->piece == 0 && total);
  if (by_suffixes && !pf->n && pf->ncubes == 1) {
    long leaves = 0;
    char why[200] = "";
    bool columns = total ? c->count_by_columns : c->by_columns;
    /* Column by column on W x H is row by row on its transpose, H x W: the moves of knights and
       kings are the same under the exchange of rows and columns. */
    int status = pq_armies_check_knights(
        columns ? c->height : c->width, columns ? c->width : c->height, c->piece,
        total ? c->count_lemmas : c->lemmas, pf->trees[q], c->need_w, c->need_b, c->params,
        total ? &c->counted : NULL, &leaves, why, sizeof why);
    c->leaves += leaves;
    c->interrupted = status < 0;
    ok = status == 1 || fault(c, "tree: %s", why);
  } else if (c->piece == 0 && !pf->n && pf->ncubes == 1 && !strcmp(pf->trees[q], "k")) {
    c->leaves++;
    ok = pq_armies_check_kings_closed(c->width, c->height, c->need_w, c->need_b) ||
         fault(c, "tree: the kings bound does not close the leaf \"k\"");
  } else if (!line_piece && (pf->n || pf->ncubes != 1 || strcmp(pf->trees[q], "s") || total))
    ok = fault(c, "tree: kings need the leaf \"k\" or \"s\", knights \"s\" or lemmas, in "
                  "one cube without a split (and the counts of both one tree)");
  else if (line_piece && !strcmp(pf->trees[q], "s"))
    ok = fault(c, "tree: the leaf \"s\" is for kings and knights");
  else
    ok = check_tree(c, pf->trees[q], out_count, in_count);
  if (!ok && !strncmp(c->why, "tree: ", 6)) {
    char why[sizeof c->why];
    snprintf(why, sizeof why, "tree %d of the %s (cube \"%.24s\"), at byte %ld: %s", q,
             total ? "count" : "proof of infeasibility", pf->cubes[q], c->at, c->why + 6);
    memcpy(c->why, why, sizeof why);
  }
  if (ok && total) {
    pq_count weighted = c->counted * (pq_count)pf->weight[q];
    if (c->counted && weighted / c->counted != (pq_count)pf->weight[q]) c->overflow = true;
    if (pq_count_add(total, weighted)) c->overflow = true;
  }
  return ok;
}

/* A thread's share of the trees (verify --jobs): a copy of the checker of its own, with its
   squares' counts and the counts of its trees. */
typedef struct tree_thread {
  checker c;
  const proof *pf;
  int *out_count, *in_count;
  pq_count total, *to; /* to: &total in a count proof, else NULL */
} tree_thread;

static bool check_one(void *ctx, int q) {
  tree_thread *t = ctx;
  return check_cube(&t->c, t->pf, q, t->out_count, t->in_count, t->to);
}

/* Checks the trees on jobs threads, with the verdict of one thread checking them in order
   (pq_check_in_order). */
static bool check_trees_on(checker *c, const proof *pf, pq_count *total, int jobs) {
  tree_thread *t = pq_malloc((size_t)jobs * sizeof *t);
  for (int k = 0; k < jobs; k++) {
    t[k] = (tree_thread){.c = *c, .pf = pf};
    t[k].c.state = pq_calloc((size_t)line_count(c), 1);
    t[k].c.leaves = t[k].c.holes = 0;
    t[k].c.interrupted = t[k].c.overflow = false;
    t[k].c.why[0] = '\0';
    t[k].out_count = pq_calloc((size_t)c->squares, sizeof(int));
    t[k].in_count = pq_calloc((size_t)c->squares, sizeof(int));
    t[k].to = total ? &t[k].total : NULL;
  }
  int who, failed = pq_check_in_order(pf->ncubes, jobs, t, sizeof *t, check_one, &who);
  for (int k = 0; k < jobs; k++) {
    c->leaves += t[k].c.leaves;
    c->holes += t[k].c.holes;
    c->interrupted |= t[k].c.interrupted;
    c->overflow |= t[k].c.overflow || (total && pq_count_add(total, t[k].total));
  }
  bool ok = !c->interrupted && failed == pf->ncubes;
  if (!c->interrupted && !ok) {
    memcpy(c->why, t[who].c.why, sizeof c->why);
    c->in_parts = t[who].c.in_parts;
  }
  for (int k = 0; k < jobs; k++) {
    free(t[k].c.state);
    free(t[k].out_count);
    free(t[k].in_count);
  }
  free(t);
  return ok;
}

/* Checks every tree of pf under its cube; in a count proof, adds each cube's count times its
   weight to *total. On p->jobs threads when the whole proof is checked (a sample is drawn in the
   order of the leaves, on one thread). */
static bool check_trees(checker *c, const proof *pf, pq_count *total) {
  int jobs = c->params->jobs < pf->ncubes ? c->params->jobs : pf->ncubes;
  if (jobs >= 2 && c->params->sample >= 1) return check_trees_on(c, pf, total, jobs);
  int *out_count = pq_calloc((size_t)c->squares, sizeof(int));
  int *in_count = pq_calloc((size_t)c->squares, sizeof(int));
  bool ok = true;
  for (int q = 0; ok && q < pf->ncubes; q++)
    ok = check_cube(c, pf, q, out_count, in_count, total);
  free(out_count);
  free(in_count);
  return ok;
}

/* The least image of cells under the board's symmetries, with colour exchange when colour. */
static void least_image(const checker *c, const uint8_t *cells, bool colour, uint8_t *least) {
  static const uint8_t swap[3] = {0, 2, 1};
  uint8_t image[PQ_CHECK_MAX_SQUARES];
  int groups = c->width == c->height ? 8 : 4;
  memcpy(least, cells, (size_t)c->squares);
  for (int g = 0; g < groups; g++)
    for (int k = 0; k < (colour ? 2 : 1); k++) {
      for (int s = 0; s < c->squares; s++)
        image[pq_check_image(c->width, c->height, g, s)] = k ? swap[cells[s]] : cells[s];
      if (memcmp(image, least, (size_t)c->squares) < 0) memcpy(least, image, (size_t)c->squares);
    }
}

/* Checks the listed placements of m against m: each a placement of the sizes, all distinct;
   counts[0] their number, counts[1] and counts[2] their classes up to the board's symmetries,
   and up to the symmetries and colour exchange (computed here). */
static bool check_placements(checker *c, const pq_json *list, int m, pq_count counts[3]) {
  size_t n = list->length, bytes = (size_t)c->squares;
  uint8_t *cells = pq_malloc((n + 1) * bytes), *canon = pq_malloc((n + 1) * bytes);
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++) {
    const pq_json *item = list->items[i];
    if (item->type != PQ_JSON_STRING || strlen(item->string) != item->length)
      ok = fault(c, "placements: item %zu is not a placement", i);
    else
      ok = read_placement(c, item->string, m, m, cells + i * bytes);
  }
  if (ok && pq_check_distinct(cells, n, bytes) != n)
    ok = fault(c, "placements: a placement is listed twice");
  counts[0] = (pq_count)n;
  for (int colour = 0; ok && colour < 2; colour++) {
    for (size_t i = 0; i < n; i++)
      least_image(c, cells + i * bytes, colour, canon + i * bytes);
    counts[1 + colour] = (pq_count)pq_check_distinct(canon, n, bytes);
  }
  free(cells);
  free(canon);
  return ok;
}

/* Whether every split line of pf is a line the piece moves along (what a cube's labels mean). */
static bool split_of_piece(checker *c, const proof *pf, const char *what) {
  for (int i = 0; i < pf->n; i++) {
    int index;
    if (c->piece < 1 || c->piece > 3 || !piece_dir(c, line_dir(c, pf->lines[i], &index)))
      return fault(c, "%s.split: a split line is not a line of the piece", what);
  }
  return true;
}

/* The numbers a count certificate states (each a JSON number, else it is malformed). */
static const char *const keys[3] = {"total", "unique", "unique_colour"};

/* The claim "count": the listed placements are every placement of m against m (their number
   equals the count proof's total), and the stated numbers and classes are theirs. */
static bool check_count_claim(checker *c, const pq_json *doc, int m, proof *count,
                              const pq_count stated[3], pq_count counts[3]) {
  const pq_json *list = pq_json_get(doc, "placements");
  pq_count total = 0;
  c->need_w = c->need_b = m;
  c->counting = true;
  count->weight = pq_calloc((size_t)count->ncubes + 1, sizeof *count->weight);
  bool ok = split_of_piece(c, count, "count") && check_cover(c, count, true) &&
            check_trees(c, count, &total);
  c->counting = false;
  if (ok && c->overflow) ok = fault(c, "count: more than 2^128 - 1 placements");
  if (ok) ok = check_placements(c, list, m, counts);
  char text[48];
  if (ok && total != counts[0])
    ok = fault(c, "placements: %zu listed, but the count proof counts %s", list->length,
               pq_count_str(total, text));
  for (int i = 0; ok && i < 3; i++)
    if (stated[i] != counts[i])
      ok = fault(c, "claim: the stated %s is not the %s the placements give", keys[i],
                 pq_count_str(counts[i], text));
  return ok;
}

/* The proof of infeasibility: its sizes, colour exchange only between equal armies, split lines
   of the piece, a cover of every choice, and every tree. */
static bool check_infeasible(checker *c, proof *pf, int iw, int ib) {
  c->need_w = iw;
  c->need_b = ib;
  if (pf->complement && iw != ib)
    return fault(c, "complement: colour exchange needs armies of equal size");
  return split_of_piece(c, pf, "infeasible") && check_cover(c, pf, false) &&
         check_trees(c, pf, NULL);
}

static pq_status malformed(const char *what) {
  pq_error("%s: malformed armies certificate (%s)", pq_check_path(), what);
  return PQ_EINVAL;
}

/* The verdict of a certificate found valid: what it proves, and how much was checked. */
static void report(const checker *c, const pq_check_params *p, const char *piece, const char *claim,
                   long cw, long cb, long iw, long ib, int ncubes, int count_cubes,
                   const pq_count counts[3]) {
  bool feasible = !strcmp(claim, "feasible"), maximum = !strcmp(claim, "maximum"),
       count = !strcmp(claim, "count"), infeasible = !strcmp(claim, "infeasible");
  /* A sampled check says so: it is an audit, not a verification. */
  char skipped[64] = "", cubes[160] = "", n[3][48];
  pq_count_str(counts[0], n[0]); /* before pq_plural reads it */
  if (c->skipped) snprintf(skipped, sizeof skipped, ", %ld not sampled", c->skipped);
  snprintf(cubes, sizeof cubes, "%d %s, %ld %s checked%s", ncubes + count_cubes,
           pq_noun(ncubes + count_cubes, "cube", "cubes"), c->leaves,
           pq_noun(c->leaves, "leaf", "leaves"), skipped);
  if (p->part) {
    /* One file of a proof in parts: pq_check_parts adds up the leaves of every file. */
    p->part->leaves = c->leaves;
    snprintf(cubes, sizeof cubes, "%d %s", ncubes, pq_noun(ncubes, "cube", "cubes"));
  }
  pq_verdict verdict = c->skipped ? PQ_VALID_IN_SAMPLE : PQ_VALID;
  char maximum_text[96] = "";
  if (count && iw >= 0)
    snprintf(maximum_text, sizeof maximum_text,
             "; %ld and %ld do not fit: %ld is the maximum of equal armies", iw, ib, cb);
  if (feasible)
    pq_check_report(p, "armies", verdict,
                    "armies of %s on %dx%d: %ld white and %ld black fit (witness checked)", piece,
                    c->width, c->height, cw, cb);
  else if (infeasible)
    pq_check_report(p, "armies", verdict,
                    "armies of %s on %dx%d: %ld white and %ld black do not fit (%s)", piece,
                    c->width, c->height, iw, ib, cubes);
  else if (maximum && iw == cw)
    pq_check_report(p, "armies", verdict,
                    "armies of %s on %dx%d: %ld white and %ld black fit "
                    "(witness checked); %ld and %ld do not (%s): the largest black army facing "
                    "%ld white is %ld",
                    piece, c->width, c->height, cw, cb, iw, ib, cubes, cw, cb);
  else if (maximum)
    pq_check_report(p, "armies", verdict,
                    "armies of %s on %dx%d: %ld white and %ld black fit "
                    "(witness checked); %ld and %ld do not (%s): the maximum of equal armies is "
                    "%ld",
                    piece, c->width, c->height, cw, cb, iw, ib, cubes, cb);
  else
    pq_check_report(p, "armies", verdict,
                    "armies of %s on %dx%d: %s placement%s of %ld against "
                    "%ld (%s up to symmetry, %s up to symmetry and colour exchange, every one "
                    "listed and checked; %s)%s",
                    piece, c->width, c->height, n[0], pq_plural(n[0]), cb, cb,
                    pq_count_str(counts[1], n[1]), pq_count_str(counts[2], n[2]), cubes,
                    maximum_text);
}

pq_status pq_armies_check(const pq_json *doc, const pq_check_params *p) {
  if (pq_json_get(doc, "colours")) return pq_armies_colours_check(doc, p);
  checker c = {.params = p, .rng = p->rng};
  const char *board = pq_json_get_string(doc, "board"), *piece = pq_json_get_string(doc, "piece");
  const char *claim = pq_json_get_string(doc, "claim");
  const char *witness = pq_json_get_string(doc, "witness");
  /* A bad board has pq_check_board's message, and no other. */
  if (board && pq_check_board(board, &c.width, &c.height) != PQ_OK) return PQ_EINVAL;
  if (!board || !piece || strlen(piece) != 1 || !piece[0] || !strchr("KQRBN", piece[0]) || !claim)
    return malformed("board, piece, claim");
  c.squares = c.width * c.height;
  c.piece = (int)(strchr("KQRBN", piece[0]) - "KQRBN");
  bool feasible = !strcmp(claim, "feasible"), maximum = !strcmp(claim, "maximum"),
       count = !strcmp(claim, "count"), infeasible = !strcmp(claim, "infeasible");
  if (!feasible && !maximum && !count && !infeasible) {
    pq_error("%s: unknown claim \"%s\"", pq_check_path(), claim);
    return PQ_EINVAL;
  }
  long cw = -1, cb = -1, iw = -1, ib = -1;
  const pq_json *inf = pq_json_get(doc, "infeasible"), *list = pq_json_get(doc, "placements");
  if ((feasible || maximum || count) &&
      (pq_json_get_long(doc, "white", 0, PQ_CHECK_MAX_SQUARES, &cw) ||
       pq_json_get_long(doc, "black", 0, PQ_CHECK_MAX_SQUARES, &cb) || (!count && !witness)))
    return malformed("white, black, witness");
  if ((maximum || infeasible || (count && inf)) &&
      (!inf || pq_json_get_long(inf, "white", 0, PQ_CHECK_MAX_SQUARES, &iw) ||
       pq_json_get_long(inf, "black", 0, PQ_CHECK_MAX_SQUARES, &ib)))
    return malformed("infeasible");
  if (feasible && inf) return malformed("a feasible claim has no infeasible member");
  if (count && witness) return malformed("a count certificate has no witness");
  if (count && (!list || list->type != PQ_JSON_ARRAY))
    return malformed("a count certificate lists its placements");
  pq_count stated[3];
  for (int i = 0; count && i < 3; i++)
    if (pq_json_count(pq_json_get(doc, keys[i]), &stated[i])) return malformed(keys[i]);
  proof pf = {0}, counted = {0};
  list_lines(&c);
  bool ok = true;
  pq_status rc = PQ_OK;
  if (iw >= 0 && !read_proof(&c, inf, "infeasible", true, &pf)) rc = PQ_EINVAL;
  if (rc == PQ_OK && count && !read_proof(&c, pq_json_get(doc, "count"), "count", false, &counted))
    rc = PQ_EINVAL;
  if (rc == PQ_OK)
    rc = pq_armies_check_suffixes(inf, "infeasible", c.piece == 4, c.squares, &c.lemmas,
                                  &c.by_columns);
  if (rc == PQ_OK && count)
    rc = pq_armies_check_suffixes(pq_json_get(doc, "count"), "count", c.piece == 4 || c.piece == 0,
                                  c.squares, &c.count_lemmas, &c.count_by_columns);
  if (rc == PQ_OK && witness && !count) ok = check_witness(&c, witness, (int)cw, (int)cb);
  /* Exactly two claims are maxima (doc/certificate.md): equal armies, where the witness's
     armies are equal and one more of each does not fit; and the largest black army facing a
     fixed white one, where one more black against the same white does not fit. A count is of
     equal armies, and its proof of infeasibility of one more each. */
  if (rc == PQ_OK && ok && (maximum || (count && iw >= 0)) &&
      !(ib == cb + 1 && ((cw == cb && iw == cw + 1) || (maximum && iw == cw))))
    ok = fault(&c, "claim: the infeasible sizes do not follow the witness's (a maximum is of "
                   "equal armies, or of black armies facing a fixed white army)");
  if (rc == PQ_OK && ok && count && cw != cb) ok = fault(&c, "claim: a count is of equal armies");
  pq_count counts[3] = {0, 0, 0};
  if (rc == PQ_OK && ok && count)
    ok = check_count_claim(&c, doc, (int)cb, &counted, stated, counts);
  /* A maximum is a size that fits: a count of none is no maximum. */
  if (rc == PQ_OK && ok && count && iw >= 0 && counts[0] == 0)
    ok = fault(&c, "claim: a count of none is no maximum (%ld against %ld do not fit)", cw, cb);
  if (rc == PQ_OK && ok && iw >= 0) ok = check_infeasible(&c, &pf, (int)iw, (int)ib);
  proof_free(&pf);
  proof_free(&counted);
  free(c.line_square);
  free(c.line_length);
  free(c.square_lines);
  free(c.state);
  if (rc != PQ_OK) return rc;
  if (c.interrupted) return pq_check_stopped();
  if (!ok) {
    pq_check_report(p, "armies", PQ_INVALID, "%s", c.why);
    if (p->verdict) p->verdict->in_parts = c.in_parts; /* (one file of a proof in parts) */
    return PQ_EFALSE;
  }
  report(&c, p, piece, claim, cw, cb, iw, ib, pf.ncubes, counted.ncubes, counts);
  return PQ_OK;
}
