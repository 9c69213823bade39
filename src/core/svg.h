/* svg.h: SVG pictures of chessboards holding pieces, one board or a grid of them. */
#ifndef PQ_SVG_H
#define PQ_SVG_H

#include <stdint.h>
#include <stdio.h>

#include "board.h"

/* How to draw a cell code (see placement.h: a placement is one byte per square, 0 empty,
   otherwise a code 1..n): a letter and a colour. The letters K Q R B N P (either case) are
   drawn as Unicode chess glyphs; any other printable character is drawn as itself. */
typedef struct pq_svg_code {
  char letter;
  int colour; /* 0 white, 1 black, 2 .. PQ_SVG_COLOURS - 1 other colours (armies of several) */
} pq_svg_code;

/* The most placements the picture of a listing (--svg with --list) draws: its first ones. */
#define PQ_SVG_LISTED 256

/* The colours a piece can be drawn in: white, black, then thirteen that tell apart. */
#define PQ_SVG_COLOURS 15

/* What to draw: count placements of one board, left to right and top to bottom in a grid. */
typedef struct pq_svg_picture {
  const pq_board *board;
  int count;                   /* placements to draw; 0: none, the empty board captioned `none` */
  const uint8_t *cells;        /* count * board->squares bytes, placement after placement */
  int ncodes;                  /* codes 1..ncodes may appear in cells */
  const pq_svg_code *codes;    /* codes[c - 1] draws code c */
  const char *const *captions; /* NULL, or count strings written under the boards (NULL: none) */
  int columns;                 /* boards per row of the grid; 0: a near-square grid */
  int square;                  /* side of a square in pixels; 0: 40 */
  const char *none;            /* the caption of a picture of no placement; NULL: "no placement" */
} pq_svg_picture;

/* Sets every default: nothing to draw, no captions, a near-square grid, 40-pixel squares. */
void pq_svg_picture_init(pq_svg_picture *p);

/* Writes the picture as a standalone SVG document to out: light and dark squares, files (a, b,
   ...) under and ranks (1 at the bottom) left of each board, pieces as glyphs. A cell holding a
   code outside 1..ncodes is a bug (PQ_REQUIRE). Returns PQ_OK, or PQ_EIO if writing failed (no
   message: the caller names the file). */
pq_status pq_svg_write(FILE *out, const pq_svg_picture *p);

/* pq_svg_write to the file at path (created or truncated). Returns PQ_OK, or PQ_EIO after a
   message naming path. */
pq_status pq_svg_save(const char *path, const pq_svg_picture *p);

#endif
