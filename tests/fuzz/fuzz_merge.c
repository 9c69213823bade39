/* fuzz_merge.c: libFuzzer target for part results, through `peaceable merge FILE` (src/cli/merge.c:
   reading the file, one JSON object a line, the dispatch to pq_armies_merge). Checks the
   statuses and messages: a refusal or a missing part prints one message, an answer prints on
   stdout only. */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#include "../../src/cli/problem.h"
#include "../../src/core/json.h"
#include "fuzz.h"

extern const pq_problem pq_problem_merge;

static int file = -1;
static char path[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
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
    /* An answer carries no message, but for the one line a pieces merge in text gives on what
       its bare numbers or placements rest on (its JSON says "checked":false). */
    bool word = c.messages == 1 && c.err_len == c.message_bytes &&
                strstr(c.err, "rests on the parts' word, not checked");
    if (c.err_len && !word) fuzz_fail("an answer with a message: \"%.200s\"", c.err);
    if (!c.out_len) fuzz_fail("an answer that prints nothing");
  } else if (rc == PQ_ELIMIT) {
    /* A part missing or unfinished: no conclusion, one message, nothing claimed. */
    if (c.out_len) fuzz_fail("no conclusion, yet stdout says \"%.200s\"", c.out);
    if (c.messages != 1 || c.err_len != c.message_bytes)
      fuzz_fail("no conclusion with %d messages: \"%.300s\"", c.messages, c.err);
  } else {
    fuzz_check_parser("merge", rc, &c);
  }
  fuzz_capture_free(&c);
  return 0;
}
