/* board.c: board geometry, bitboards and attack tables. */
#include "board.h"

#include "sym.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

const char pq_piece_letters[PQ_NPIECES + 1] = "KQRBN";

const char *pq_piece_name(pq_piece piece, long n) {
  static const char *const names[PQ_NPIECES][2] = {{"king", "kings"},
                                                   {"queen", "queens"},
                                                   {"rook", "rooks"},
                                                   {"bishop", "bishops"},
                                                   {"knight", "knights"}};
  return names[piece][n != 1];
}

int pq_piece_from_letter(int c) {
  const char *p = strchr(pq_piece_letters, toupper(c));
  return (c && p) ? (int)(p - pq_piece_letters) : -1;
}

static int parse_side(const char *s, size_t len) {
  if (len == 0 || len > 2) return -1;
  int v = 0;
  for (size_t i = 0; i < len; i++) {
    if (!isdigit((unsigned char)s[i])) return -1;
    v = v * 10 + (s[i] - '0');
  }
  return (v >= 1 && v <= PQ_MAX_SIDE) ? v : -1;
}

pq_status pq_board_parse(const char *what, const char *text, int *width, int *height) {
  if (!text || !*text) {
    pq_error("%s \"\": expected N or WIDTHxHEIGHT, each from 1 to %d", what, PQ_MAX_SIDE);
    return PQ_EINVAL;
  }
  const char *x = strchr(text, 'x');
  if (!x) x = strchr(text, 'X');
  int w, h;
  if (x) {
    w = parse_side(text, (size_t)(x - text));
    h = parse_side(x + 1, strlen(x + 1));
  } else {
    w = h = parse_side(text, strlen(text));
  }
  if (w < 0 || h < 0) {
    pq_error("%s \"%s\": expected N or WIDTHxHEIGHT, each from 1 to %d", what, text, PQ_MAX_SIDE);
    return PQ_EINVAL;
  }
  *width = w;
  *height = h;
  return PQ_OK;
}

bool pq_attacks_plain(const pq_board *b, pq_piece p, int s, int t) {
  if (s == t) return false;
  int r1 = s / b->width, c1 = s % b->width, r2 = t / b->width, c2 = t % b->width;
  int dr = abs(r1 - r2), dc = abs(c1 - c2);
  bool straight = dr == 0 || dc == 0, diagonal = dr == dc;
  switch (p) {
  case PQ_KING: return dr <= 1 && dc <= 1;
  case PQ_QUEEN: return straight || diagonal;
  case PQ_ROOK: return straight;
  case PQ_BISHOP: return diagonal;
  case PQ_KNIGHT: return (dr == 1 && dc == 2) || (dr == 2 && dc == 1);
  default: PQ_REQUIRE(0, "bad piece %d", (int)p);
  }
}

pq_board *pq_board_new(int width, int height) {
  PQ_REQUIRE(width >= 1 && width <= PQ_MAX_SIDE && height >= 1 && height <= PQ_MAX_SIDE,
             "board %dx%d out of range", width, height);
  pq_board *b = pq_calloc(1, sizeof *b);
  b->width = width;
  b->height = height;
  b->squares = width * height;
  b->words = (b->squares + 63) / 64;
  for (int s = 0; s < b->squares; s++) {
    pq_bits_set(&b->all, s);
    if ((s / width + s % width) & 1) pq_bits_set(&b->dark, s);
  }
  for (int p = 0; p < PQ_NPIECES; p++) {
    b->attack[p] = pq_calloc((size_t)b->squares, sizeof(pq_bits));
    for (int s = 0; s < b->squares; s++)
      for (int t = 0; t < b->squares; t++)
        if (pq_attacks_plain(b, (pq_piece)p, s, t)) pq_bits_set(&b->attack[p][s], t);
  }
  int diagonals = width + height - 1;
  b->line_start[PQ_ROW] = 0;
  b->line_start[PQ_COLUMN] = height;
  b->line_start[PQ_DIAGONAL] = height + width;
  b->line_start[PQ_ANTIDIAGONAL] = height + width + diagonals;
  b->line_start[PQ_NDIRS] = b->lines = height + width + 2 * diagonals;
  b->line = pq_calloc((size_t)b->lines, sizeof(pq_bits));
  b->line_of = pq_calloc((size_t)b->squares, sizeof *b->line_of);
  for (int s = 0; s < b->squares; s++) {
    int r = s / width, c = s % width;
    int *l = b->line_of[s];
    l[PQ_ROW] = b->line_start[PQ_ROW] + r;
    l[PQ_COLUMN] = b->line_start[PQ_COLUMN] + c;
    l[PQ_DIAGONAL] = b->line_start[PQ_DIAGONAL] + (c - r + height - 1);
    l[PQ_ANTIDIAGONAL] = b->line_start[PQ_ANTIDIAGONAL] + r + c;
    for (int d = 0; d < PQ_NDIRS; d++)
      pq_bits_set(&b->line[l[d]], s);
  }
  b->image = pq_sym_images(b);
  return b;
}

void pq_board_free(pq_board *b) {
  if (!b) return;
  for (int p = 0; p < PQ_NPIECES; p++)
    free(b->attack[p]);
  free(b->line);
  free(b->line_of);
  free(b->image);
  free(b);
}
