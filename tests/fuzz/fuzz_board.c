/* fuzz_board.c: libFuzzer target for pq_board_parse (board specs "N" and "WIDTHxHEIGHT"). */
#include <ctype.h>

#include "../../src/core/board.h"
#include "fuzz.h"

/* The contract, independently: N or WIDTHxHEIGHT (x or X), each side 1 to 2 digits, 1..32. */
static int side(const char *s, size_t len) {
  if (len < 1 || len > 2) return -1;
  int v = 0;
  for (size_t i = 0; i < len; i++) {
    if (!isdigit((unsigned char)s[i])) return -1;
    v = v * 10 + s[i] - '0';
  }
  return v >= 1 && v <= PQ_MAX_SIDE ? v : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_string(data, size);
  int width = -1, height = -1;
  fuzz_capture c;
  fuzz_capture_begin(&c);
  pq_status rc = pq_board_parse("--board", text, &width, &height);
  fuzz_capture_end(&c);
  fuzz_check_parser("pq_board_parse", rc, &c);
  if (rc == PQ_OK) {
    if (width < 1 || width > PQ_MAX_SIDE || height < 1 || height > PQ_MAX_SIDE)
      fuzz_fail("board \"%s\": accepted as %dx%d", text, width, height);
    /* Every accepted spec reads back: N, or WIDTH then one x or X then HEIGHT. */
    size_t len = strlen(text), x = strcspn(text, "xX");
    int w = x == len ? side(text, len) : side(text, x);
    int h = x == len ? w : side(text + x + 1, len - x - 1);
    if (w != width || h != height)
      fuzz_fail("board \"%s\": accepted as %dx%d, the spec says %dx%d", text, width, height, w, h);
  }
  fuzz_capture_free(&c);
  free(text);
  return 0;
}
