/* svg.c: SVG pictures of chessboards holding pieces, one board or a grid of them. */
#include "svg.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

void pq_svg_picture_init(pq_svg_picture *p) { memset(p, 0, sizeof *p); }

/* The index of a chess glyph in Unicode's order (king, queen, rook, bishop, knight, pawn), or
   -1 for a letter drawn as itself. */
static int glyph_index(char letter) {
  static const char order[] = "KQRBNP";
  const char *at = letter ? strchr(order, toupper((unsigned char)letter)) : NULL;
  return at ? (int)(at - order) : -1;
}

/* Writes code point cp (U+0800..U+FFFF) as UTF-8. */
static void put_utf8(FILE *out, unsigned cp) {
  fputc(0xe0 | (cp >> 12), out);
  fputc(0x80 | ((cp >> 6) & 0x3f), out);
  fputc(0x80 | (cp & 0x3f), out);
}

static void put_escaped(FILE *out, const char *s) {
  for (; *s; s++)
    switch (*s) {
    case '&': fputs("&amp;", out); break;
    case '<': fputs("&lt;", out); break;
    case '>': fputs("&gt;", out); break;
    case '"': fputs("&quot;", out); break;
    default: fputc(*s, out);
    }
}

/* The text of a file (column) label: a, b, ..., z, then A, B, ... */
static char file_letter(int column) {
  return (char)(column < 26 ? 'a' + column : 'A' + column - 26);
}

/* The fill of each piece colour: white, black, then colours far apart (Tableau's palette). */
static const char *const fills[PQ_SVG_COLOURS] = {
    "#fff",    "#000",    "#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#17becf",
    "#e377c2", "#8c564b", "#bcbd22", "#7f7f7f", "#aec7e8", "#ffbb78", "#98df8a"};

static void draw_piece(FILE *out, const pq_svg_code *code, double x, double y) {
  int g = glyph_index(code->letter);
  PQ_REQUIRE(code->colour >= 0 && code->colour < PQ_SVG_COLOURS, "no piece colour %d",
             code->colour);
  const char *fill = fills[code->colour];
  bool black = code->colour == 1;
  fprintf(out, "<text class=\"p\" x=\"%.1f\" y=\"%.1f\"", x, y);
  if (g < 0) {
    fprintf(out, " fill=\"%s\" stroke=\"%s\">", fill, black ? "#fff" : "#000");
    char letter[2] = {code->letter, '\0'};
    put_escaped(out, letter);
    fputs("</text>\n", out);
    return;
  }
  /* Fonts draw the "black" glyphs solid: a piece of another colour than black is a solid glyph
     filled with its colour under the outline of the "white" glyph, so it reads on light and
     dark squares alike. */
  fprintf(out, " fill=\"%s\">", fill);
  put_utf8(out, 0x265a + (unsigned)g);
  fputs("</text>\n", out);
  if (!black) {
    fprintf(out, "<text class=\"p\" x=\"%.1f\" y=\"%.1f\" fill=\"#000\">", x, y);
    put_utf8(out, 0x2654 + (unsigned)g);
    fputs("</text>\n", out);
  }
}

pq_status pq_svg_write(FILE *out, const pq_svg_picture *p) {
  const pq_board *b = p->board;
  if (b && p->count == 0) {
    /* No placement: the empty board, captioned so. */
    const char *const caption[1] = {p->none ? p->none : "no placement"};
    pq_svg_picture empty = *p;
    uint8_t *cells = pq_calloc((size_t)b->squares, 1);
    empty.count = 1;
    empty.cells = cells;
    empty.captions = caption;
    pq_status rc = pq_svg_write(out, &empty);
    free(cells);
    return rc;
  }
  PQ_REQUIRE(b && p->count >= 1 && p->cells, "nothing to draw");
  double sq = p->square > 0 ? p->square : 40;
  int columns = p->columns;
  if (columns <= 0)
    for (columns = 1; columns * columns < p->count; columns++) {
    }
  if (columns > p->count) columns = p->count;
  int rows = (p->count + columns - 1) / columns;
  double label = 0.6 * sq, gap = 0.5 * sq, caption = p->captions ? 0.6 * sq : 0;
  double cell_w = label + b->width * sq + gap, cell_h = b->height * sq + label + caption + gap;
  double total_w = columns * cell_w + gap, total_h = rows * cell_h + gap;
  fprintf(out,
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
          "viewBox=\"0 0 %.0f %.0f\">\n"
          "<style>.l{fill:#f0d9b5}.d{fill:#b58863}"
          ".c{font:%.0fpx sans-serif;fill:#444;text-anchor:middle;dominant-baseline:central}"
          ".p{font:%.0fpx 'DejaVu Sans',sans-serif;text-anchor:middle;"
          "dominant-baseline:central}</style>\n"
          "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
          total_w, total_h, total_w, total_h, 0.35 * sq, 0.8 * sq);
  for (int i = 0; i < p->count; i++) {
    const uint8_t *cells = p->cells + (size_t)i * (size_t)b->squares;
    double ox = gap + (i % columns) * cell_w + label, oy = gap + (i / columns) * cell_h;
    fprintf(out, "<g>\n");
    for (int s = 0; s < b->squares; s++) {
      int r = s / b->width, c = s % b->width;
      fprintf(out, "<rect class=\"%c\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
              pq_bits_has(&b->dark, s) ? 'd' : 'l', ox + c * sq, oy + r * sq, sq, sq);
    }
    for (int r = 0; r < b->height; r++)
      fprintf(out, "<text class=\"c\" x=\"%.1f\" y=\"%.1f\">%d</text>\n", ox - label / 2,
              oy + (r + 0.5) * sq, b->height - r);
    for (int c = 0; c < b->width; c++)
      fprintf(out, "<text class=\"c\" x=\"%.1f\" y=\"%.1f\">%c</text>\n", ox + (c + 0.5) * sq,
              oy + b->height * sq + label / 2, file_letter(c));
    for (int s = 0; s < b->squares; s++) {
      if (!cells[s]) continue;
      PQ_REQUIRE(cells[s] <= p->ncodes, "cell code %d outside 1..%d", cells[s], p->ncodes);
      draw_piece(out, &p->codes[cells[s] - 1], ox + (s % b->width + 0.5) * sq,
                 oy + (s / b->width + 0.5) * sq);
    }
    if (p->captions && p->captions[i]) {
      fprintf(out, "<text class=\"c\" x=\"%.1f\" y=\"%.1f\">", ox + b->width * sq / 2,
              oy + b->height * sq + label + caption / 2);
      put_escaped(out, p->captions[i]);
      fputs("</text>\n", out);
    }
    fprintf(out, "</g>\n");
  }
  fputs("</svg>\n", out);
  return ferror(out) ? PQ_EIO : PQ_OK;
}

static void write_picture(FILE *f, void *p) { pq_svg_write(f, p); /* (ferror tells) */ }

pq_status pq_svg_save(const char *path, const pq_svg_picture *p) {
  /* FILE.gz (an .svgz): compressed, as certificates are (it was written plain). */
  if (pq_gzip_name(path)) return pq_write_atomic(path, write_picture, (void *)p);
  FILE *f = pq_open_output(path);
  if (!f) {
    pq_error("--svg \"%s\": %s", path, strerror(errno));
    return PQ_EIO;
  }
  errno = 0;
  pq_status rc = pq_svg_write(f, p);
  if (fclose(f) && rc == PQ_OK) rc = PQ_EIO;
  if (rc != PQ_OK)
    pq_error("%s: cannot write: %s", pq_output_name(path), errno ? strerror(errno) : "write error");
  return rc;
}
