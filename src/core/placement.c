/* placement.c: placement text, parsing it, and board diagrams. */
#include "placement.h"

#include <string.h>

void pq_placement_text(const pq_board *b, const uint8_t *cells, const char *letters, char *buf) {
  char *o = buf;
  for (int s = 0; s < b->squares; s++) {
    if (s && s % b->width == 0) *o++ = '/';
    *o++ = cells[s] ? letters[cells[s] - 1] : '.';
  }
  *o = '\0';
}

void pq_placement_line(const pq_board *b, const uint8_t *cells, const char *letters, bool json,
                       char *buf) {
  pq_placement_text(b, cells, letters, buf);
  if (json)
    printf("{\"placement\":\"%s\"}\n", buf);
  else
    puts(buf);
}

const char *pq_placement_read(const pq_board *b, const char *text, const char *letters,
                              uint8_t *cells, char why[PQ_PLACEMENT_WHY]) {
  int s = 0, column = 0, row = 0;
  for (const char *p = text;; p++) {
    if (*p == '/' || *p == '\0') {
      if (column != b->width) {
        snprintf(why, PQ_PLACEMENT_WHY, "row %d has %d squares, expected %d", row + 1, column,
                 b->width);
        return why;
      }
      row++;
      column = 0;
      if (*p == '\0') break;
      continue;
    }
    const char *l = *p == '.' ? NULL : strchr(letters, *p);
    if (*p != '.' && (!l || !*p)) {
      snprintf(why, PQ_PLACEMENT_WHY, "unexpected character '%c' (allowed: . %.20s /)", *p,
               letters);
      return why;
    }
    if (column >= b->width || row >= b->height) {
      snprintf(why, PQ_PLACEMENT_WHY, "row %d is longer than %d squares", row + 1, b->width);
      return why;
    }
    cells[s++] = l ? (uint8_t)(l - letters + 1) : 0;
    column++;
  }
  if (row != b->height) {
    snprintf(why, PQ_PLACEMENT_WHY, "%d rows, expected %d", row, b->height);
    return why;
  }
  return NULL;
}

pq_status pq_placement_parse(const pq_board *b, const char *text, const char *letters,
                             uint8_t *cells) {
  char why[PQ_PLACEMENT_WHY];
  if (!pq_placement_read(b, text, letters, cells, why)) return PQ_OK;
  pq_error("placement \"%.80s\": %s", text, why);
  return PQ_EINVAL;
}

void pq_placement_draw(FILE *out, const pq_board *b, const uint8_t *cells, const char *letters) {
  for (int r = 0; r < b->height; r++) {
    fprintf(out, "%3d ", b->height - r);
    for (int c = 0; c < b->width; c++) {
      uint8_t v = cells[r * b->width + c];
      fprintf(out, " %c", v ? letters[v - 1] : '.');
    }
    fputc('\n', out);
  }
  fputs("    ", out);
  for (int c = 0; c < b->width; c++)
    fprintf(out, " %c", c < 26 ? 'a' + c : 'A' + c - 26);
  fputc('\n', out);
}
