/* fuzz_pieces.c: libFuzzer target for pq_pieces_parse (piece specs such as "K2Q2B2N1").
   Input: two bytes choosing the board's squares (1..1024), then the spec. */
#include <ctype.h>

#include "../../problems/pieces/pieces.h"
#include "fuzz.h"

/* The contract of pieces.h, independently: letters K Q R B N (either case), each at most once,
   each followed by an optional count from 0 to squares (omitted: 1), at most squares in all.
   Returns 0 with counts, or -1. */
static int reference(const char *spec, int squares, int counts[PQ_NPIECES]) {
  static const char letters[] = "KQRBN";
  bool seen[PQ_NPIECES] = {false};
  long total = 0;
  memset(counts, 0, PQ_NPIECES * sizeof *counts);
  if (!*spec) return -1;
  for (const char *p = spec; *p;) {
    const char *l = strchr(letters, toupper((unsigned char)*p));
    if (!l || !*p) return -1;
    int piece = (int)(l - letters);
    if (seen[piece]) return -1;
    seen[piece] = true;
    p++;
    long n = 1;
    if (isdigit((unsigned char)*p)) {
      n = 0;
      for (; isdigit((unsigned char)*p); p++)
        if ((n = n * 10 + *p - '0') > squares) return -1;
    }
    counts[piece] = (int)n;
    total += n;
  }
  return total <= squares ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2) return 0;
  int squares = ((data[0] << 8 | data[1]) & (PQ_MAX_SQUARES - 1)) + 1;
  char *spec = fuzz_string(data + 2, size - 2);
  int counts[PQ_NPIECES], want[PQ_NPIECES];
  fuzz_capture c;
  fuzz_capture_begin(&c);
  pq_status rc = pq_pieces_parse("--pieces", spec, squares, counts);
  fuzz_capture_end(&c);
  fuzz_check_parser("pq_pieces_parse", rc, &c);
  int ref = reference(spec, squares, want);
  if ((rc == PQ_OK) != (ref == 0))
    fuzz_fail("pieces \"%s\" on %d squares: %s, but the contract says %s", spec, squares,
              rc == PQ_OK ? "accepted" : "refused", ref == 0 ? "valid" : "invalid");
  if (rc == PQ_OK)
    for (int t = 0; t < PQ_NPIECES; t++)
      if (counts[t] != want[t])
        fuzz_fail("pieces \"%s\": %d of %c, expected %d", spec, counts[t], pq_piece_letters[t],
                  want[t]);
  fuzz_capture_free(&c);
  free(spec);
  return 0;
}
