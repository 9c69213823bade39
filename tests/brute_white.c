/* brute_white.c: for the tests, the largest black army facing W white pieces on a small board,
   for every W, by trying every set of white squares; its own geometry, nothing of peaceable.
   Usage: brute_white PIECE WIDTH HEIGHT (PIECE one of K Q R B N, at most 30 squares); prints
   "W BLACK" for W = 0 .. WIDTH*HEIGHT. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int width, height, squares;
static uint32_t attacks[30]; /* the squares a piece on s attacks (blocking never matters) */
static int best[31];

static int iabs(int x) { return x < 0 ? -x : x; }

static int attacks_square(char piece, int s, int t) {
  int dr = iabs(s / width - t / width), dc = iabs(s % width - t % width);
  if (s == t) return 0;
  switch (piece) {
  case 'K': return dr <= 1 && dc <= 1;
  case 'N': return (dr == 1 && dc == 2) || (dr == 2 && dc == 1);
  case 'R': return dr == 0 || dc == 0;
  case 'B': return dr == dc;
  default: return dr == 0 || dc == 0 || dr == dc; /* Q */
  }
}

/* Every set of white squares among s..squares-1 added to the w squares `white` (attacking
   `attacked`): black takes every square neither white nor attacked. */
static void visit(int s, int w, uint32_t white, uint32_t attacked) {
  if (s == squares) {
    int black = squares - __builtin_popcount(white | attacked);
    if (black > best[w]) best[w] = black;
    return;
  }
  visit(s + 1, w, white, attacked);
  visit(s + 1, w + 1, white | 1u << s, attacked | attacks[s]);
}

int main(int argc, char **argv) {
  if (argc != 4) return 2;
  char piece = argv[1][0];
  width = atoi(argv[2]), height = atoi(argv[3]), squares = width * height;
  if (width < 1 || height < 1 || squares > 30) return 2;
  for (int s = 0; s < squares; s++)
    for (int t = 0; t < squares; t++)
      if (attacks_square(piece, s, t)) attacks[s] |= 1u << t;
  for (int w = 0; w <= squares; w++)
    best[w] = -1;
  visit(0, 0, 0, 0);
  for (int w = 0; w <= squares; w++)
    printf("%d %d\n", w, best[w]);
  return 0;
}
