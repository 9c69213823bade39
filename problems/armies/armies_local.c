/* armies_local.c: the witness finders: the greedy dive, and for large boards simulated
   annealing over line labellings for queens, rooks and bishops, over squares for kings and
   knights. Find, never prove: the outer loop takes their witness as a starting size and the
   proofs stay with the exact search and the integer program. */
#include "armies_local.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "armies_lines.h"

/* Moves between looks at the clock, the cancel flag and pq_interrupted. */
#define CHECK_EVERY 4096

/* The default budget's cap, in moves. */
#define MOST_MOVES 64000000

void pq_armies_local_params_init(pq_armies_local_params *p) {
  *p = (pq_armies_local_params){.seed = 1, .white = -1};
}

uint64_t pq_armies_local_default_moves(const pq_board *b, pq_piece p) {
  /* Below 12x12 the exact search proves the maximum in seconds from the greedy start: the
     finder would only add time. Beyond, moves in proportion to the board, capped: a few
     seconds at most (measured in doc/benchmarks.md), enough for the best known queens up to
     24x24. Kings and knights move in constant time, so the same count costs them less. */
  if (b->squares < 144 || p == PQ_KING) return 0; /* kings: decided exactly at once */
  uint64_t moves = (uint64_t)b->squares * 100000;
  return moves < MOST_MOVES ? moves : MOST_MOVES;
}

/* Whether to stop now: a limit, a cancel or a signal. */
static bool stopped(const pq_armies_local_params *p) {
  return pq_interrupted || (p->cancel && *p->cancel) ||
         (p->deadline > 0 && pq_now() >= p->deadline);
}

/* A labelling of the piece's lines: a square is open to white when every one of its lines is
   white, to black when every one is black. Any peaceable placement fits one (label each line by
   the colour of the pieces on it), so searching labellings loses nothing. */
typedef struct labelling {
  const pq_board *board;
  int ndirs;        /* the piece's lines through a square: 4 queen, 2 rook or bishop */
  int first, lines; /* the piece's lines are board lines first .. first + lines - 1 */
  int *start;       /* the squares of line l are square[start[l]] .. square[start[l + 1] - 1] */
  int *square;
  uint8_t *white; /* per line (from first): 1 white, 0 black */
  uint8_t *count; /* per square: how many of its lines are white */
  int open[2];    /* squares open to black [0] and to white [1] */
} labelling;

static void labelling_init(labelling *L, const pq_board *b, pq_piece p) {
  int d0 = p == PQ_BISHOP ? PQ_DIAGONAL : PQ_ROW, d1 = p == PQ_ROOK ? PQ_DIAGONAL : PQ_NDIRS;
  L->board = b;
  L->ndirs = d1 - d0;
  L->first = b->line_start[d0];
  L->lines = b->line_start[d1] - L->first;
  L->white = pq_calloc((size_t)L->lines, 1);
  /* Lists, not bitboards: a move walks a line, and a column has one square a word. */
  L->start = pq_malloc(((size_t)L->lines + 1) * sizeof *L->start);
  L->square = pq_malloc((size_t)b->squares * (size_t)L->ndirs * sizeof *L->square);
  int n = 0;
  for (int l = 0; l < L->lines; l++) {
    L->start[l] = n;
    PQ_BITS_FOREACH(s, &b->line[L->first + l], b->words) L->square[n++] = s;
  }
  L->start[L->lines] = n;
  L->count = pq_calloc((size_t)b->squares, 1);
  L->open[0] = b->squares;
  L->open[1] = 0;
}

static void labelling_free(labelling *L) {
  free(L->start);
  free(L->square);
  free(L->white);
  free(L->count);
}

/* Scores a labelling's open squares: the smaller army for equal armies; for a fixed white army,
   black's room, and below every such score when white does not fit: then each white piece
   missing costs more than black could ever gain (a softer penalty lets the search settle on
   labellings with a huge black army and no room for white). */
static int score_of(int white_open, int black_open, int white, int squares) {
  if (white < 0) return white_open < black_open ? white_open : black_open;
  return white_open >= white ? black_open : black_open - (squares + 1) * (white - white_open);
}

/* The open counts [black, white] after flipping line l, without flipping it. */
static void flip_effect(const labelling *L, int l, int open[2]) {
  const int *s = L->square + L->start[l], *end = L->square + L->start[l + 1];
  int top = L->ndirs, lost = 0, won = 0;
  if (L->white[l]) {
    for (; s < end; s++)
      lost += L->count[*s] == top, won += L->count[*s] == 1;
    open[0] = L->open[0] + won, open[1] = L->open[1] - lost;
  } else {
    for (; s < end; s++)
      lost += L->count[*s] == 0, won += L->count[*s] == top - 1;
    open[0] = L->open[0] - lost, open[1] = L->open[1] + won;
  }
}

static void flip(labelling *L, int l) {
  flip_effect(L, l, L->open);
  int step = L->white[l] ? -1 : 1;
  L->white[l] ^= 1;
  for (int i = L->start[l]; i < L->start[l + 1]; i++)
    L->count[L->square[i]] += step;
}

/* Sets every line's colour from colours (one byte a line). */
static void labelling_set(labelling *L, const uint8_t *colours) {
  for (int l = 0; l < L->lines; l++)
    if (L->white[l] != colours[l]) flip(L, l);
}

/* The annealing schedule. A move's score change is a few units at most, so temperatures run
   from where most losses of one or two are taken down to where almost none are. Each round
   cools once from the best labelling so far; restarting from the best keeps what was won,
   reheating escapes the local optimum it sits in. */
#define T_HOT 1.2
#define T_COLD 0.15
#define ROUND 8000000

/* Fills accept[d], the chance (scaled to 2^64, to compare with a random word) to take a loss of
   d, at move m of a round of `moves`: the temperature falls geometrically. */
static void cool(double accept[16], uint64_t m, uint64_t moves) {
  double t = T_HOT * pow(T_COLD / T_HOT, (double)m / (double)moves);
  for (int d = 0; d < 16; d++)
    accept[d] = exp(-d / t) * 18446744073709551616.0;
}

/* Anneals L for up to `moves` moves, keeping the best labelling (score *best) in best_colours. */
static void anneal(labelling *L, const pq_armies_local_params *p, uint64_t *rng, uint64_t moves,
                   uint8_t *best_colours, int *best) {
  int score = score_of(L->open[1], L->open[0], p->white, L->board->squares);
  double accept[16]; /* accept[d]: the chance to take a loss of d, at the current temperature */
  for (uint64_t m = 0; m < moves; m++) {
    if (m % CHECK_EVERY == 0) {
      if (stopped(p)) return;
      cool(accept, m, moves);
    }
    int l = pq_random_below(rng, L->lines), open[2];
    flip_effect(L, l, open);
    int delta = score_of(open[1], open[0], p->white, L->board->squares) - score;
    if (delta < 0 && (delta <= -16 || (double)pq_splitmix64(rng) >= accept[-delta])) continue;
    flip(L, l);
    score += delta;
    if (score > *best && (p->white < 0 || L->open[1] >= p->white)) {
      *best = score;
      memcpy(best_colours, L->white, (size_t)L->lines);
    }
  }
}

/* Writes the placement a labelling allows: `white` pieces (or, for equal armies, as many as
   black gets) on white's open squares and the rest of the armies on black's. Returns the black
   army's size, or -1 when white does not fit. */
static int place(const labelling *L, int white, uint8_t *witness) {
  const pq_board *b = L->board;
  int black = L->open[0];
  if (white < 0) white = black = L->open[1] < black ? L->open[1] : black;
  if (L->open[1] < white) return -1;
  memset(witness, 0, (size_t)b->squares);
  int w = white, k = black;
  for (int s = 0; s < b->squares; s++) {
    if (L->count[s] == L->ndirs && w > 0) witness[s] = 1, w--;
    if (L->count[s] == 0 && k > 0) witness[s] = 2, k--;
  }
  return black;
}

/* The finder for queens, rooks and bishops. */
static int find_lines(const pq_board *b, pq_piece piece, const pq_armies_local_params *p,
                      uint8_t *witness) {
  labelling L;
  labelling_init(&L, b, piece);
  uint64_t rng = p->seed;
  uint8_t *best_colours = pq_calloc((size_t)L.lines, 1);
  int best = INT_MIN; /* nothing found yet */
  for (int l = 0; l < L.lines; l++)
    if (pq_random_below(&rng, 2)) flip(&L, l);
  for (uint64_t done = 0; done < p->moves && !stopped(p); done += ROUND) {
    uint64_t moves = p->moves - done < ROUND ? p->moves - done : ROUND;
    if (done) labelling_set(&L, best_colours);
    anneal(&L, p, &rng, moves, best_colours, &best);
  }
  labelling_set(&L, best_colours);
  int size = place(&L, p->white, witness);
  free(best_colours);
  labelling_free(&L);
  return size;
}

/* A placement for kings and knights, which have no lines: each square empty (0), white (1) or
   black (2), kept peaceable by every move. Their attacks are symmetric (s attacks t when t
   attacks s), so the pieces a new piece would attack are the ones that attack its square. */
typedef struct army_state {
  const pq_board *board;
  int *start,
      *attacked; /* the squares s attacks: attacked[start[s]] .. attacked[start[s + 1] - 1] */
  uint8_t *colour;
  int *attackers; /* [2 * s + c - 1]: the pieces of colour c that attack s */
  int army[2];    /* white [0], black [1] */
} army_state;

static void army_init(army_state *A, const pq_board *b, pq_piece p) {
  A->board = b;
  A->start = pq_malloc(((size_t)b->squares + 1) * sizeof *A->start);
  A->attacked = pq_malloc((size_t)b->squares * 8 * sizeof *A->attacked);
  int n = 0;
  for (int s = 0; s < b->squares; s++) {
    A->start[s] = n;
    PQ_BITS_FOREACH(t, &b->attack[p][s], b->words) A->attacked[n++] = t;
  }
  A->start[b->squares] = n;
  A->colour = pq_calloc((size_t)b->squares, 1);
  A->attackers = pq_calloc((size_t)b->squares * 2, sizeof *A->attackers);
  A->army[0] = A->army[1] = 0;
}

static void army_free(army_state *A) {
  free(A->start);
  free(A->attacked);
  free(A->colour);
  free(A->attackers);
}

/* Sets square s to colour c (0 empties it), keeping the attack counts. */
static void army_set(army_state *A, int s, int c) {
  int was = A->colour[s];
  if (was == c) return;
  for (int i = A->start[s]; i < A->start[s + 1]; i++) {
    if (was) A->attackers[2 * A->attacked[i] + was - 1]--;
    if (c) A->attackers[2 * A->attacked[i] + c - 1]++;
  }
  if (was) A->army[was - 1]--;
  if (c) A->army[c - 1]++;
  A->colour[s] = (uint8_t)c;
}

/* Puts colour c on s, first removing the pieces of the other colour that it would attack. */
static void army_put(army_state *A, int s, int c) {
  int other = 3 - c;
  for (int i = A->start[s]; i < A->start[s + 1] && A->attackers[2 * s + other - 1]; i++)
    if (A->colour[A->attacked[i]] == other) army_set(A, A->attacked[i], 0);
  army_set(A, s, c);
}

/* Anneals A for up to `moves` moves (a move: a colour on a square, evicting what it would
   attack), keeping the best placement (score *best) in best_colours. */
static void anneal_army(army_state *A, const pq_armies_local_params *p, uint64_t *rng,
                        uint64_t moves, uint8_t *best_colours, int *best) {
  int squares = A->board->squares;
  int score = score_of(A->army[0], A->army[1], p->white, squares);
  double accept[16];
  for (uint64_t m = 0; m < moves; m++) {
    if (m % CHECK_EVERY == 0) {
      if (stopped(p)) return;
      cool(accept, m, moves);
    }
    int r = pq_random_below(rng, 2 * squares), s = r >> 1, c = 1 + (r & 1), other = 3 - c;
    if (A->colour[s] == c) continue;
    int army[2] = {A->army[0], A->army[1]};
    army[c - 1]++;
    army[other - 1] -= A->attackers[2 * s + other - 1] + (A->colour[s] == other);
    int delta = score_of(army[0], army[1], p->white, squares) - score;
    if (delta < 0 && (delta <= -16 || (double)pq_splitmix64(rng) >= accept[-delta])) continue;
    army_put(A, s, c);
    score += delta;
    if (score > *best && (p->white < 0 || A->army[0] >= p->white)) {
      *best = score;
      memcpy(best_colours, A->colour, (size_t)squares);
    }
  }
}

/* The finder for kings and knights. */
static int find_squares(const pq_board *b, pq_piece piece, const pq_armies_local_params *p,
                        uint8_t *witness) {
  army_state A;
  army_init(&A, b, piece);
  uint64_t rng = p->seed;
  uint8_t *best_colours = pq_calloc((size_t)b->squares, 1);
  int best = INT_MIN; /* nothing found yet */
  for (uint64_t done = 0; done < p->moves && !stopped(p); done += ROUND) {
    uint64_t moves = p->moves - done < ROUND ? p->moves - done : ROUND;
    for (int s = 0; s < b->squares; s++)
      army_set(&A, s, 0);
    for (int s = 0; s < b->squares; s++)
      if (best_colours[s]) army_put(&A, s, best_colours[s]);
    anneal_army(&A, p, &rng, moves, best_colours, &best);
  }
  int army[2] = {0, 0};
  for (int s = 0; s < b->squares; s++)
    if (best_colours[s]) army[best_colours[s] - 1]++;
  int white = p->white < 0 ? (army[0] < army[1] ? army[0] : army[1]) : p->white;
  int black = p->white < 0 ? white : army[1];
  memset(witness, 0, (size_t)b->squares);
  for (int s = 0, w = white, k = black; s < b->squares && army[0] >= white; s++) {
    if (best_colours[s] == 1 && w > 0) witness[s] = 1, w--;
    if (best_colours[s] == 2 && k > 0) witness[s] = 2, k--;
  }
  free(best_colours);
  army_free(&A);
  return army[0] >= white ? black : -1;
}

int pq_armies_local_find(const pq_board *b, pq_piece piece, const pq_armies_local_params *params,
                         uint8_t *witness) {
  if (piece == PQ_QUEEN || piece == PQ_ROOK || piece == PQ_BISHOP)
    return find_lines(b, piece, params, witness);
  return find_squares(b, piece, params, witness);
}

int pq_armies_heuristic(const pq_armies *a, uint8_t *witness) {
  if (!a->line_piece) return 0;
  const pq_board *b = a->board;
  int words = b->words;
  pq_bits W = b->all, B = b->all;
  /* Dive: decide the line that touches the most open squares, keeping the side whose smaller
     army is larger. */
  for (;;) {
    int best = -1, best_score = -1;
    for (int i = 0; i < a->nlines; i++) {
      const pq_bits *line = &b->line[a->line_id[i]];
      int x = pq_bits_count_and(line, &W, words), y = pq_bits_count_and(line, &B, words);
      if (x && y && x + y > best_score) best_score = x + y, best = i;
    }
    if (best < 0) break;
    const pq_bits *line = &b->line[a->line_id[best]];
    pq_bits in = B, out = W;
    for (int w = 0; w < words; w++)
      in.w[w] &= ~line->w[w], out.w[w] &= ~line->w[w];
    int in_min = pq_bits_count(&W, words), out_min = pq_bits_count(&out, words);
    if (pq_bits_count(&in, words) < in_min) in_min = pq_bits_count(&in, words);
    if (pq_bits_count(&B, words) < out_min) out_min = pq_bits_count(&B, words);
    if (in_min >= out_min)
      B = in;
    else
      W = out;
  }
  int k = pq_bits_count(&W, words) < pq_bits_count(&B, words) ? pq_bits_count(&W, words)
                                                              : pq_bits_count(&B, words);
  memset(witness, 0, (size_t)b->squares);
  int left = k;
  PQ_BITS_FOREACH(s, &W, words) if (left-- > 0) witness[s] = 1;
  left = k;
  PQ_BITS_FOREACH(s, &B, words) if (left-- > 0) witness[s] = 2;
  return k;
}
