/* check_alone.c: a certificate checker linked with libcheck.a and libpqcore.a only, nothing of
   the search, the calculus or the integer programs. That it links at all is the proof that the
   checkers share no code with what they check; tests/check_alone.sh runs it beside `peaceable
   verify`. Usage: check_alone FILE; exit 0 valid, 1 invalid, 2 malformed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/check/check.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: check_alone FILE\n");
    return 2;
  }
  char *text, err[160];
  size_t len;
  if (pq_read_file(argv[1], (size_t)1 << 30, &text, &len)) return 2;
  pq_json *doc = pq_json_parse(text, len, err);
  free(text);
  if (!doc) {
    pq_error("%s: not JSON: %s", argv[1], err);
    return 2;
  }
  pq_check_params params;
  pq_check_params_init(&params);
  pq_check_fn check = pq_check_find(pq_json_get_string(doc, "problem"));
  pq_status rc = check ? check(doc, &params) : PQ_EINVAL;
  if (!check) pq_error("%s: no checker", argv[1]);
  pq_json_free(doc);
  return pq_status_exit_code(rc);
}
