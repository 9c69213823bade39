/* armies_colours_local.c: a witness finder for armies of C colours: simulated annealing over
   labellings of the piece's lines by colours (a square may hold colour c when every line through
   it is labelled c). Finds, never proves: the maximum's search starts above what it finds. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "armies_colours.h"

/* Moves a round; each round cools from hot to cold starting at the best labelling so far. */
#define ROUND 2000000
#define T_HOT 1.2
#define T_COLD 0.15

typedef struct labelling {
  const pq_board *b;
  int colours, ndirs, first, lines;
  int *start, *square; /* the squares of line l: square[start[l]] .. square[start[l + 1] - 1] */
  uint8_t *label;      /* per line */
  uint8_t *count;      /* [s * colours + c]: the lines through s labelled c */
  int open[PQ_MAX_COLOURS]; /* squares open to each colour */
} labelling;

static void relabel(labelling *L, int l, int c) {
  int a = L->label[l], C = L->colours, top = L->ndirs;
  for (int i = L->start[l]; i < L->start[l + 1]; i++) {
    uint8_t *n = L->count + (size_t)L->square[i] * (size_t)C;
    L->open[a] -= n[a] == top;
    n[a]--;
    n[c]++;
    L->open[c] += n[c] == top;
  }
  L->label[l] = (uint8_t)c;
}

/* The open counts after relabelling line l with c, without doing it. */
static void effect(const labelling *L, int l, int c, int *open) {
  int a = L->label[l], C = L->colours, top = L->ndirs;
  memcpy(open, L->open, sizeof L->open);
  for (int i = L->start[l]; i < L->start[l + 1]; i++) {
    const uint8_t *n = L->count + (size_t)L->square[i] * (size_t)C;
    open[a] -= n[a] == top;
    open[c] += n[c] == top - 1;
  }
}

/* Progress toward `target` of each colour: the sum of each colour's open squares up to it. */
static int score(const int *open, int C, int target) {
  int s = 0;
  for (int c = 0; c < C; c++)
    s += open[c] < target ? open[c] : target;
  return s;
}

static int least(const int *open, int C) {
  int m = open[0];
  for (int c = 1; c < C; c++)
    m = open[c] < m ? open[c] : m;
  return m;
}

int pq_colours_local(const pq_board *b, pq_piece piece, int colours, uint64_t moves, uint64_t seed,
                     double deadline, uint8_t *cells) {
  int d0 = piece == PQ_BISHOP ? PQ_DIAGONAL : PQ_ROW,
      d1 = piece == PQ_ROOK ? PQ_DIAGONAL : PQ_NDIRS;
  labelling L = {.b = b, .colours = colours, .ndirs = d1 - d0, .first = b->line_start[d0]};
  L.lines = b->line_start[d1] - L.first;
  L.start = pq_malloc(((size_t)L.lines + 1) * sizeof *L.start);
  L.square = pq_malloc((size_t)b->squares * (size_t)L.ndirs * sizeof *L.square);
  L.label = pq_calloc((size_t)L.lines, 1);
  L.count = pq_calloc((size_t)b->squares * (size_t)colours, 1);
  int n = 0;
  for (int l = 0; l < L.lines; l++) {
    L.start[l] = n;
    PQ_BITS_FOREACH(s, &b->line[L.first + l], b->words) {
      L.square[n++] = s;
      L.count[(size_t)s * (size_t)colours]++;
    }
  }
  L.start[L.lines] = n;
  L.open[0] = b->squares;
  uint64_t rng = seed ? seed : 1;
  for (int l = 0; l < L.lines; l++)
    relabel(&L, l, pq_random_below(&rng, colours));
  uint8_t *best_label = pq_malloc((size_t)L.lines);
  memcpy(best_label, L.label, (size_t)L.lines);
  int best = least(L.open, colours), target = best + 1;
  bool late = false;
  for (uint64_t done = 0; done < moves && !pq_interrupted && !late; done += ROUND) {
    uint64_t round = moves - done < ROUND ? moves - done : ROUND;
    for (int l = 0; l < L.lines; l++)
      if (L.label[l] != best_label[l]) relabel(&L, l, best_label[l]);
    int now = score(L.open, colours, target);
    double accept[8];
    for (uint64_t m = 0; m < round; m++) {
      if (m % 4096 == 0) {
        if (deadline > 0 && pq_now() >= deadline) {
          late = true;
          break;
        }
        double t = T_HOT * pow(T_COLD / T_HOT, (double)m / (double)round);
        for (int d = 0; d < 8; d++)
          accept[d] = exp(-d / t) * 18446744073709551616.0;
      }
      int l = pq_random_below(&rng, L.lines), c = pq_random_below(&rng, colours - 1),
          open[PQ_MAX_COLOURS];
      if (c >= L.label[l]) c++;
      effect(&L, l, c, open);
      int delta = score(open, colours, target) - now;
      if (delta < 0 && (delta <= -8 || (double)pq_splitmix64(&rng) >= accept[-delta])) continue;
      relabel(&L, l, c);
      now += delta;
      if (least(L.open, colours) > best) {
        best = least(L.open, colours);
        target = best + 1;
        now = score(L.open, colours, target);
        memcpy(best_label, L.label, (size_t)L.lines);
      }
    }
  }
  /* The best labelling's placement: best pieces of each colour on its open squares. */
  for (int l = 0; l < L.lines; l++)
    if (L.label[l] != best_label[l]) relabel(&L, l, best_label[l]);
  memset(cells, 0, (size_t)b->squares);
  int have[PQ_MAX_COLOURS] = {0};
  for (int s = 0; s < b->squares; s++)
    for (int c = 0; c < colours; c++)
      if (L.count[(size_t)s * (size_t)colours + (size_t)c] == L.ndirs && have[c] < best) {
        cells[s] = (uint8_t)(c + 1);
        have[c]++;
      }
  free(L.start);
  free(L.square);
  free(L.label);
  free(L.count);
  free(best_label);
  return best;
}
