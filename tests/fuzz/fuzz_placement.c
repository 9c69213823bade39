/* fuzz_placement.c: libFuzzer target for pq_placement_parse (placement text "rows/by/slashes").
   Input: a byte choosing the board's width, one its height, one the letters, then the text. */
#include "../../src/core/placement.h"
#include "fuzz.h"

/* Board sides to try: the smallest, odd and even, and the largest. */
static const int sides[8] = {1, 2, 3, 5, 8, 13, 31, 32};
/* Letter sets the problems use: anarchist pieces, two colours of one piece, none. */
static const char *const letter_sets[4] = {"KQRBN", "Qq", "Nn", ""};

static pq_board *boards[8][8];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 3) return 0;
  int wi = data[0] & 7, hi = data[1] & 7;
  const char *letters = letter_sets[data[2] & 3];
  /* Boards are built once and kept: building a 32x32 board's tables is slower than a parse. */
  if (!boards[wi][hi]) boards[wi][hi] = pq_board_new(sides[wi], sides[hi]);
  const pq_board *b = boards[wi][hi];
  char *text = fuzz_string(data + 3, size - 3);
  uint8_t *cells = malloc((size_t)b->squares);
  char *back = malloc((size_t)b->squares + (size_t)b->height + 1);
  if (!cells || !back) fuzz_fail("out of memory");
  memset(cells, 0xff, (size_t)b->squares); /* a square the parse leaves unwritten shows */
  fuzz_capture c;
  fuzz_capture_begin(&c);
  pq_status rc = pq_placement_parse(b, text, letters, cells);
  fuzz_capture_end(&c);
  fuzz_check_parser("pq_placement_parse", rc, &c);
  if (rc == PQ_OK) {
    /* Every square was written with a code of letters, and the text reads back unchanged. */
    size_t codes = strlen(letters);
    for (int s = 0; s < b->squares; s++)
      if (cells[s] > codes) fuzz_fail("placement \"%s\": square %d has code %d", text, s, cells[s]);
    pq_placement_text(b, cells, letters, back);
    if (strcmp(back, text))
      fuzz_fail("placement \"%s\" on %dx%d with \"%s\" reads back as \"%s\"", text, b->width,
                b->height, letters, back);
  }
  fuzz_capture_free(&c);
  free(back);
  free(cells);
  free(text);
  return 0;
}
