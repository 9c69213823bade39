/* fuzz_merge.c: libFuzzer target for part results, through `peaceable merge FILE` (src/merge.c:
   reading the file, one JSON object a line, the dispatch to pq_armies_merge). Checks the
   statuses and messages: a refusal or a missing part prints one message, an answer prints on
   stdout only. */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#include "../../src/board.h"
#include "../../src/json.h"
#include "../../src/problem.h"
#include "fuzz.h"

extern const pq_problem pq_problem_merge;

static int file = -1;
static char path[64];

/* Known and reported: a part result of kings or knights makes merge abort (pq_armies_merge
   hands them to pq_armies_split_new, which requires a line piece). Such inputs are skipped so
   that a campaign goes on past that crash. */
static bool known_crash(const uint8_t *data, size_t size) {
  const char *text = (const char *)data, *end = text + size;
  for (const char *p = text; p < end;) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl) nl = end;
    if (nl > p) {
      /* merge reads the piece of the first result only. */
      char err[160];
      pq_json *doc = pq_json_parse(p, (size_t)(nl - p), err);
      const char *piece = pq_json_get_string(doc, "piece");
      int kind = piece && strlen(piece) == 1 ? pq_piece_from_letter((unsigned char)piece[0]) : -1;
      pq_json_free(doc);
      return kind == PQ_KING || kind == PQ_KNIGHT;
    }
    p = nl + 1;
  }
  return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (known_crash(data, size)) return -1; /* -1: not added to the corpus */
  if (file < 0) {
    file = memfd_create("results", 0);
    if (file < 0) fuzz_fail("memfd_create failed");
    snprintf(path, sizeof path, "/proc/self/fd/%d", file);
  }
  if (ftruncate(file, 0) || (size && pwrite(file, data, size, 0) != (ssize_t)size))
    fuzz_fail("writing the memory file failed");
  pq_options o = {0};
  const char *operands[1] = {path};
  o.problem = "merge";
  o.operands = operands;
  o.noperands = 1;
  fuzz_capture c;
  fuzz_capture_begin(&c);
  pq_status rc = pq_problem_merge.run(&o);
  fuzz_capture_end(&c);
  if (rc == PQ_OK) {
    if (c.err_len) fuzz_fail("an answer with a message: \"%.200s\"", c.err);
    if (!c.out_len) fuzz_fail("an answer that prints nothing");
  } else if (rc == PQ_ELIMIT) {
    /* A part missing or unfinished: no conclusion, one message, nothing claimed. */
    if (c.out_len) fuzz_fail("no conclusion, yet stdout says \"%.200s\"", c.out);
    if (c.messages != 1 || c.err_len != c.message_bytes)
      fuzz_fail("no conclusion with %d messages: \"%.300s\"", c.messages, c.err);
  } else if (rc == PQ_EINVAL && c.messages == 2 && !strncmp(c.err, "peaceable: board \"", 18)) {
    /* Known and reported: a bad board gets pq_board_parse's message and then merge's own
       (problems/armies_parts.c). Tolerated so that fuzzing goes on past it. */
    fuzz_check_messages("merge", rc, &c, 2, 2);
  } else {
    fuzz_check_parser("merge", rc, &c);
  }
  fuzz_capture_free(&c);
  return 0;
}
