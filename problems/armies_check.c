/* armies_check.c: the armies certificate checker (doc/certificate.md), part of libcheck.a: its
   own attack test, line geometry and symmetries, nothing of the search or the calculus. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/check.h"

typedef struct checker {
  int width, height, squares;
  int piece; /* index into "KQRBN" */
  int need_w, need_b;
  int *line_square; /* [l * PQ_CHECK_MAX_SIDE + i]: the squares of line l, line_length[l] of them */
  int *line_length;
  long leaves;   /* leaves whose bound was checked */
  long skipped;  /* leaves left out by --sample */
  bool interrupted; /* a signal or the time limit stopped the check: no verdict */
  const pq_check_params *params; /* the sample, the deadline, the verdict's form */
  uint64_t rng;                  /* xorshift state for the sample */
  char why[200]; /* the first fault found */
} checker;

static int row_of(const checker *c, int s) { return s / c->width; }
static int col_of(const checker *c, int s) { return s % c->width; }

/* Own attack test: whether a piece on s attacks t, with no blocking. */
static bool attacks(const checker *c, int s, int t) {
  int dr = abs(row_of(c, s) - row_of(c, t)), dc = abs(col_of(c, s) - col_of(c, t));
  if (s == t) return false;
  switch (c->piece) {
  case 0: return dr <= 1 && dc <= 1;
  case 1: return dr == 0 || dc == 0 || dr == dc;
  case 2: return dr == 0 || dc == 0;
  case 3: return dr == dc;
  default: return (dr == 1 && dc == 2) || (dr == 2 && dc == 1);
  }
}

/* Line ids, as documented: rows 0..H-1, columns H..H+W-1, then diagonals (column - row + H - 1),
   then anti-diagonals (row + column). Returns the direction (0 row, 1 column, 2 diagonal,
   3 anti-diagonal) and the index within it, or -1. */
static int line_dir(const checker *c, int id, int *index) {
  int diagonals = c->width + c->height - 1;
  int start[5] = {0, c->height, c->height + c->width, c->height + c->width + diagonals,
                  c->height + c->width + 2 * diagonals};
  for (int d = 0; d < 4; d++)
    if (id >= start[d] && id < start[d + 1]) {
      *index = id - start[d];
      return d;
    }
  return -1;
}

static bool on_line(const checker *c, int id, int s) {
  int index, d = line_dir(c, id, &index), r = row_of(c, s), k = col_of(c, s);
  switch (d) {
  case 0: return r == index;
  case 1: return k == index;
  case 2: return k - r + c->height - 1 == index;
  case 3: return r + k == index;
  default: return false;
  }
}

/* Whether the piece attacks along lines of direction d. */
static bool piece_dir(const checker *c, int d) {
  return c->piece == 1 || (c->piece == 2 && d < 2) || (c->piece == 3 && d >= 2);
}


static int line_count(const checker *c) {
  return c->height + c->width + 2 * (c->width + c->height - 1);
}

/* The id of the line of direction d (0 row, 1 column, 2 diagonal, 3 anti-diagonal) through row
   r, column k, as documented. */
static int line_id(const checker *c, int d, int r, int k) {
  int diagonals = c->width + c->height - 1;
  switch (d) {
  case 0: return r;
  case 1: return c->height + k;
  case 2: return c->height + c->width + (k - r + c->height - 1);
  default: return c->height + c->width + diagonals + (r + k);
  }
}

/* The image of line id under g, taken as a line and not as a set of squares: on a board with a
   side of 1, lines of different directions hold the same squares (a column, a diagonal and an
   anti-diagonal of one square), and matched by their squares two split lines could share one
   image, so that a choice on one of them would never be constrained (doc/certificate.md,
   "Symmetry split"). The image's direction is that of the image of the direction's step; the
   image is the line of that direction through the image of one of the line's squares. */
static int line_image(const checker *c, int g, int id) {
  static const int step[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
  int index, d = line_dir(c, id, &index), s = 0;
  while (!on_line(c, id, s))
    s++;
  int r0, k0, r1, k1, r, k;
  pq_check_map(c->width, c->height, g, 0, 0, &r0, &k0);
  pq_check_map(c->width, c->height, g, step[d][0], step[d][1], &r1, &k1);
  int dr = r1 - r0, dk = k1 - k0, d2 = 0;
  while (!((step[d2][0] == dr && step[d2][1] == dk) || (step[d2][0] == -dr && step[d2][1] == -dk)))
    d2++;
  pq_check_map(c->width, c->height, g, row_of(c, s), col_of(c, s), &r, &k);
  return line_id(c, d2, r, k);
}

static bool fault(checker *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fault(checker *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (!c->why[0]) vsnprintf(c->why, sizeof c->why, fmt, ap);
  va_end(ap);
  return false;
}

/* Checks the witness: its rows (doc/certificate.md), its counts and that no piece attacks one of
   the other colour. */
static bool check_witness(checker *c, const char *text, int white, int black) {
  int nw = 0, nb = 0, square;
  uint8_t cells[PQ_CHECK_MAX_SQUARES];
  char upper = "KQRBN"[c->piece], bad;
  char symbols[4] = {'.', upper, (char)(upper - 'A' + 'a'), '\0'};
  switch (pq_check_rows(text, c->width, c->height, symbols, cells, &square, &bad)) {
  case PQ_ROWS_SHAPE:
    return fault(c, "witness \"%.80s\": not %d rows of %d squares joined by '/'", text,
                 c->height, c->width);
  case PQ_ROWS_SYMBOL:
    return fault(c, "witness \"%.80s\": '%c' at square %d is not '.', '%c' or '%c'", text, bad,
                 square, upper, symbols[2]);
  case PQ_ROWS_OK: break;
  }
  for (int s = 0; s < c->squares; s++) {
    nw += cells[s] == 1;
    nb += cells[s] == 2;
  }
  if (nw != white || nb != black) return fault(c, "witness \"%.80s\": wrong army sizes", text);
  for (int a = 0; a < c->squares; a++)
    for (int b = 0; b < c->squares; b++)
      if (cells[a] == 1 && cells[b] == 2 && (attacks(c, a, b) || attacks(c, b, a)))
        return fault(c, "witness \"%.80s\": a white piece attacks a black one", text);
  return true;
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
   given each to one colour so that white gets at least need_w squares and black need_b: by
   dynamic programming over the lines, most[j] = the most black squares with j white squares
   (j capped at need_w). */
static bool split_possible(const int *white, const int *black, int lines, int need_w,
                           int need_b) {
  int one[PQ_CHECK_MAX_SQUARES + 1], other[PQ_CHECK_MAX_SQUARES + 1], *most = one, *next = other;
  for (int j = 0; j <= need_w; j++)
    most[j] = -1;
  most[0] = 0;
  for (int i = 0; i < lines; i++) {
    if (!white[i] && !black[i]) continue; /* changes nothing */
    for (int j = 0; j <= need_w; j++)
      next[j] = -1;
    for (int j = 0; j <= need_w; j++) {
      if (most[j] < 0) continue;
      int to_white = j + white[i] < need_w ? j + white[i] : need_w;
      if (most[j] > next[to_white]) next[to_white] = most[j];
      if (most[j] + black[i] > next[j]) next[j] = most[j] + black[i];
    }
    int *t = most;
    most = next;
    next = t;
  }
  return most[need_w] >= need_b;
}

/* Whether a leaf is closed by a bound (doc/certificate.md): fewer squares open to white than
   white pieces, or to black than black pieces; or, for some direction of the piece, no way to
   give each of its lines to one colour (as every line ends up) leaves each colour enough open
   squares. */
static bool leaf_closed(const checker *c, const int *out_count, const int *in_count) {
  int wc = 0, bc = 0;
  int white_on[4][2 * PQ_CHECK_MAX_SIDE] = {{0}}, black_on[4][2 * PQ_CHECK_MAX_SIDE] = {{0}};
  for (int s = 0; s < c->squares; s++) {
    int r = row_of(c, s), k = col_of(c, s);
    int index[4] = {r, k, k - r + c->height - 1, r + k};
    bool white = !out_count[s], black = !in_count[s];
    wc += white;
    bc += black;
    for (int d = 0; d < 4; d++) {
      white_on[d][index[d]] += white;
      black_on[d][index[d]] += black;
    }
  }
  if (wc < c->need_w || bc < c->need_b) return true;
  int lines[4] = {c->height, c->width, c->width + c->height - 1, c->width + c->height - 1};
  for (int d = 0; d < 4; d++)
    if (piece_dir(c, d) &&
        !split_possible(white_on[d], black_on[d], lines[d], c->need_w, c->need_b))
      return true;
  return false;
}

/* Adds delta to the count of every square of line l: in_count for an "in" decision (closing the
   line to black), out_count for "out" (closing it to white). */
static void decide_line(const checker *c, int l, bool in, int delta, int *out_count,
                        int *in_count) {
  int *count = in ? in_count : out_count;
  for (int i = 0; i < c->line_length[l]; i++)
    count[c->line_square[l * PQ_CHECK_MAX_SIDE + i]] += delta;
}

/* Lists the squares of every line once (from on_line), for decide_line. */
static void list_lines(checker *c) {
  int n = line_count(c);
  c->line_square = pq_malloc((size_t)n * PQ_CHECK_MAX_SIDE * sizeof *c->line_square);
  c->line_length = pq_calloc((size_t)n, sizeof *c->line_length);
  for (int l = 0; l < n; l++)
    for (int s = 0; s < c->squares; s++)
      if (on_line(c, l, s)) c->line_square[l * PQ_CHECK_MAX_SIDE + c->line_length[l]++] = s;
}

/* Checks one proof tree under a cube: per square, how many of its lines are "out" (closing it
   to white) and "in" (closing it to black). A branch "L," explores line L "in" then "out";
   "L;" "out" then "in"; "." is a leaf closed by a bound. */
static bool check_tree(checker *c, const char *tree, int *out_count, int *in_count) {
  enum { MAX_DEPTH = 2 * PQ_CHECK_MAX_SIDE * 4 };
  int stack_line[MAX_DEPTH], depth = 0;
  bool stack_in[MAX_DEPTH], stack_second[MAX_DEPTH];
  const char *p = tree;
  if (!strcmp(tree, "s")) {
    leaf_state *l = pq_calloc(1, sizeof *l);
    c->leaves++;
    bool found = place_from(c, l, 0, c->need_w, c->need_b);
    free(l);
    if (found)
      return fault(c, "tree: the exhaustive search leaf has a placement");
    return true;
  }
  for (;;) {
    if (*p == '.') {
      p++;
      bool check = pq_check_sampled(c->params, &c->rng);
      if (pq_check_stop(c->params)) {
        c->interrupted = true;
        return false;
      }
      if (!check) {
        c->skipped++;
      } else {
        c->leaves++;
        if (!leaf_closed(c, out_count, in_count))
          return fault(c, "tree: a leaf's bound does not close it");
      }
      /* Unwind: a finished second child pops; a finished first child turns into the second. */
      for (;;) {
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

/* Checks that the cubes cover every assignment of the split lines up to the symmetries: each
   cube is a bit in a table of the 2^n assignments (line i 'i' is bit i), so the check takes
   2^n times the symmetries, however many cubes there are. */
static bool check_cover(checker *c, const int *split, int n, bool complement, char **cubes,
                        int ncubes) {
  int groups = c->width == c->height ? 8 : 4, img[8][20];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      if (split[i] == split[j]) return fault(c, "split: line %d is given twice", split[i]);
  for (int g = 0; g < groups; g++)
    for (int i = 0; i < n; i++) {
      int l = line_image(c, g, split[i]);
      img[g][i] = -1;
      for (int j = 0; j < n; j++)
        if (split[j] == l) img[g][i] = j;
      if (img[g][i] < 0) return fault(c, "split: the split lines are not closed under symmetry");
    }
  uint32_t all = (uint32_t)1 << n;
  uint64_t *present = pq_calloc(all / 64 + 1, sizeof *present);
  for (int q = 0; q < ncubes; q++) {
    uint32_t code = 0;
    for (int i = 0; i < n; i++)
      if (cubes[q][i] == 'i') code |= (uint32_t)1 << i;
    present[code / 64] |= (uint64_t)1 << (code % 64);
  }
  bool ok = true;
  for (uint32_t x = 0; x < all && ok; x++) {
    bool covered = false;
    for (int g = 0; g < groups && !covered; g++)
      for (uint32_t k = 0; k < (complement ? 2u : 1u) && !covered; k++) {
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

pq_status pq_armies_check(const pq_json *doc, const pq_check_params *p) {
  checker c = {.params = p, .rng = p->rng};
  const char *board = pq_json_get_string(doc, "board"), *piece = pq_json_get_string(doc, "piece");
  const char *claim = pq_json_get_string(doc, "claim");
  const pq_json *inf = pq_json_get(doc, "infeasible");
  long iw, ib;
  if (claim && !strcmp(claim, "feasible")) {
    /* A witness alone: it proves that its sizes fit. */
    const char *witness = pq_json_get_string(doc, "witness");
    long w, k;
    if (board && pq_check_board(board, &c.width, &c.height) != PQ_OK) return PQ_EINVAL;
    if (!board || !piece ||
        strlen(piece) != 1 || !piece[0] || !strchr("KQRBN", piece[0]) || !witness ||
        pq_json_get_long(doc, "white", 0, PQ_CHECK_MAX_SQUARES, &w) ||
        pq_json_get_long(doc, "black", 0, PQ_CHECK_MAX_SQUARES, &k)) {
      pq_error("verify: malformed armies certificate (board, piece, white, black, witness)");
      return PQ_EINVAL;
    }
    c.squares = c.width * c.height;
    c.piece = (int)(strchr("KQRBN", piece[0]) - "KQRBN");
    if (!check_witness(&c, witness, (int)w, (int)k)) {
      pq_check_report(p, "armies", PQ_INVALID, "%s", c.why);
      return PQ_EFALSE;
    }
    pq_check_report(p, "armies", PQ_VALID,
                     "armies of %s on %dx%d: %ld white and %ld black fit (witness checked)", piece,
                     c.width, c.height, w, k);
    return PQ_OK;
  }
  /* A bad board has pq_board_parse's message, and no other. */
  if (board && pq_check_board(board, &c.width, &c.height) != PQ_OK) return PQ_EINVAL;
  if (!board || !piece ||
      strlen(piece) != 1 || !strchr("KQRBN", piece[0]) || !piece[0] || !claim || !inf ||
      pq_json_get_long(inf, "white", 0, PQ_CHECK_MAX_SQUARES, &iw) ||
      pq_json_get_long(inf, "black", 0, PQ_CHECK_MAX_SQUARES, &ib)) {
    pq_error("verify: malformed armies certificate (board, piece, claim, infeasible)");
    return PQ_EINVAL;
  }
  c.squares = c.width * c.height;
  c.piece = (int)(strchr("KQRBN", piece[0]) - "KQRBN");
  c.need_w = (int)iw;
  c.need_b = (int)ib;
  bool line_piece = c.piece >= 1 && c.piece <= 3;
  const pq_json *split = pq_json_get(inf, "split"), *cubes = pq_json_get(inf, "cubes"),
                *trees = pq_json_get(inf, "trees"), *comp = pq_json_get(inf, "complement");
  if (!split || split->type != PQ_JSON_ARRAY || split->length > 20 || !cubes ||
      cubes->type != PQ_JSON_ARRAY || !trees || trees->type != PQ_JSON_ARRAY ||
      trees->length != cubes->length || !comp ||
      (comp->type != PQ_JSON_TRUE && comp->type != PQ_JSON_FALSE)) {
    pq_error("verify: malformed armies certificate (split, cubes, trees, complement)");
    return PQ_EINVAL;
  }
  int lines[20], n = (int)split->length;
  for (int i = 0; i < n; i++) {
    long l;
    if (split->items[i]->type != PQ_JSON_NUMBER ||
        pq_parse_long(split->items[i]->string, 0, line_count(&c) - 1, &l)) {
      pq_error("verify: malformed armies certificate (split line %d)", i);
      return PQ_EINVAL;
    }
    lines[i] = (int)l;
  }
  char **cube_text = pq_calloc(cubes->length + 1, sizeof *cube_text);
  for (size_t i = 0; i < cubes->length; i++) {
    const pq_json *q = cubes->items[i], *t = trees->items[i];
    if (q->type != PQ_JSON_STRING || t->type != PQ_JSON_STRING || q->length != (size_t)n ||
        strspn(q->string, "io") != (size_t)n) {
      free(cube_text);
      pq_error("verify: malformed armies certificate (cube %zu)", i);
      return PQ_EINVAL;
    }
    cube_text[i] = q->string;
  }
  bool ok = true;
  long cw = -1, cb = -1;
  const char *witness = pq_json_get_string(doc, "witness");
  /* The claim: a witness of the largest armies and the infeasibility of one more black (and one
     more white when the armies are equal). */
  if (!strcmp(claim, "maximum")) {
    if (pq_json_get_long(doc, "white", 0, PQ_CHECK_MAX_SQUARES, &cw) ||
        pq_json_get_long(doc, "black", 0, PQ_CHECK_MAX_SQUARES, &cb) || !witness) {
      free(cube_text);
      pq_error("verify: malformed armies certificate (white, black, witness)");
      return PQ_EINVAL;
    }
    ok = check_witness(&c, witness, (int)cw, (int)cb);
    /* Exactly two claims are maxima (doc/certificate.md): equal armies, where the witness's
       armies are equal and one more of each does not fit; and the largest black army facing a
       fixed white one, where one more black against the same white does not fit. */
    if (ok && !(ib == cb + 1 && ((cw == cb && iw == cw + 1) || iw == cw)))
      ok = fault(&c, "claim: the infeasible sizes do not follow the witness's (a maximum is of "
                     "equal armies, or of black armies facing a fixed white army)");
  } else if (strcmp(claim, "infeasible")) {
    free(cube_text);
    pq_error("verify: unknown claim \"%s\"", claim);
    return PQ_EINVAL;
  }
  if (ok && comp->type == PQ_JSON_TRUE && iw != ib)
    ok = fault(&c, "complement: colour exchange needs armies of equal size");
  for (int i = 0; ok && i < n; i++) {
    int index;
    if (!line_piece || !piece_dir(&c, line_dir(&c, lines[i], &index)))
      ok = fault(&c, "split: a split line is not a line of the piece");
  }
  if (ok) ok = check_cover(&c, lines, n, comp->type == PQ_JSON_TRUE, cube_text, (int)cubes->length);
  int *out_count = pq_calloc((size_t)c.squares, sizeof(int));
  int *in_count = pq_calloc((size_t)c.squares, sizeof(int));
  list_lines(&c);
  for (size_t q = 0; ok && q < cubes->length; q++) {
    memset(out_count, 0, (size_t)c.squares * sizeof(int));
    memset(in_count, 0, (size_t)c.squares * sizeof(int));
    for (int i = 0; i < n; i++)
      decide_line(&c, lines[i], cube_text[q][i] == 'i', +1, out_count, in_count);
    const char *tree = trees->items[q]->string;
    if (!line_piece && (n || strcmp(tree, "s")))
      ok = fault(&c, "tree: kings and knights need an exhaustive search leaf");
    else
      ok = check_tree(&c, tree, out_count, in_count);
  }
  free(c.line_square);
  free(c.line_length);
  free(out_count);
  free(in_count);
  free(cube_text);
  if (c.interrupted) return pq_check_stopped();
  if (!ok) {
    pq_check_report(p, "armies", PQ_INVALID, "%s", c.why);
    return PQ_EFALSE;
  }
  /* A sampled check says so: it is an audit, not a verification. */
  pq_verdict verdict = c.skipped ? PQ_VALID_IN_SAMPLE : PQ_VALID;
  char skipped[64] = "";
  if (c.skipped) snprintf(skipped, sizeof skipped, ", %ld not sampled", c.skipped);
  if (cw >= 0 && iw == cw)
    pq_check_report(p, "armies", verdict,
                     "armies of %s on %dx%d: %ld white and %ld black fit (witness checked); %ld "
                     "and %ld do not (%zu %s, %ld %s checked%s): the largest black army "
                     "facing %ld white is %ld",
                     piece, c.width, c.height, cw, cb, iw, ib, cubes->length,
                     cubes->length == 1 ? "cube" : "cubes", c.leaves,
                     c.leaves == 1 ? "leaf" : "leaves", skipped, cw, cb);
  else if (cw >= 0)
    pq_check_report(p, "armies", verdict,
                     "armies of %s on %dx%d: %ld white and %ld black fit (witness checked); %ld "
                     "and %ld do not (%zu %s, %ld %s checked%s): the maximum of equal armies "
                     "is %ld",
                     piece, c.width, c.height, cw, cb, iw, ib, cubes->length,
                     cubes->length == 1 ? "cube" : "cubes", c.leaves,
                     c.leaves == 1 ? "leaf" : "leaves", skipped, cb);
  else
    pq_check_report(p, "armies", verdict,
                     "armies of %s on %dx%d: %ld white and %ld black do not fit (%zu %s, %ld "
                     "%s checked%s)",
                     piece, c.width, c.height, iw, ib, cubes->length,
                     cubes->length == 1 ? "cube" : "cubes", c.leaves,
                     c.leaves == 1 ? "leaf" : "leaves", skipped);
  return PQ_OK;
}

