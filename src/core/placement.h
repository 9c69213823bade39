/* placement.h: placement text ("rows/joined/by/slashes"), parsing it, and board diagrams. */
#ifndef PQ_PLACEMENT_H
#define PQ_PLACEMENT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "board.h"

/* A placement is one byte per square: 0 empty, otherwise a code 1..n. letters[code - 1] is the
   character of code (e.g. "KQRBN" for anarchist pieces, "Qq" for white and black queens). */

/* Writes the placement's text to buf (at least squares + height bytes): rows top to bottom
   joined by '/', '.' for an empty square. */
void pq_placement_text(const pq_board *b, const uint8_t *cells, const char *letters, char *buf);

/* Prints a listing's line on stdout: the placement's text, or with json the object
   {"placement":"TEXT"}, as every command's --list does; buf as for pq_placement_text. */
void pq_placement_line(const pq_board *b, const uint8_t *cells, const char *letters, bool json,
                       char *buf);

/* Parses text into cells (squares bytes). Returns PQ_OK, or PQ_EINVAL with a message naming
   text and what is wrong (wrong row count or length, a character not in letters). */
pq_status pq_placement_parse(const pq_board *b, const char *text, const char *letters,
                             uint8_t *cells);

/* As pq_placement_parse, without a message: NULL, or what is wrong (written in why). */
#define PQ_PLACEMENT_WHY 96
const char *pq_placement_read(const pq_board *b, const char *text, const char *letters,
                              uint8_t *cells, char why[PQ_PLACEMENT_WHY]);

/* Draws the placement as a grid with ranks and files on out (plain text output). */
void pq_placement_draw(FILE *out, const pq_board *b, const uint8_t *cells, const char *letters);

#endif
