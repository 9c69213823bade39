/* reseal.c: for tests, seals edited checkpoints and part results again (as pq_engine_seal does),
   so that a test can reach the checks behind the digest. Usage: reseal FILE (rewritten in place):
   every text up to and including a ,"digest":"..."} is sealed anew. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/core/json.h"
#include "../src/run/engine.h"

int main(int argc, char **argv) {
  char *text;
  size_t len;
  if (argc != 2 || pq_read_file(argv[1], (size_t)1 << 30, &text, &len)) return 2;
  FILE *f = fopen(argv[1], "w");
  if (!f) return 2;
  const char *key = ",\"digest\":\"";
  size_t start = 0;
  for (char *p = text; (p = strstr(p, key));) {
    char *end = strstr(p + strlen(key), "\"}");
    if (!end) break;
    pq_engine_seal(f, text + start, (size_t)(p - (text + start)));
    start = (size_t)(end + 2 - text);
    if (start < len && text[start] == '\n') start++;
    p = text + start;
  }
  /* A file without a digest (written by hand) is sealed whole: one JSON object. */
  size_t end = len;
  while (start == 0 && end && (text[end - 1] == '\n' || text[end - 1] == ' '))
    end--;
  if (start == 0 && end && text[end - 1] == '}')
    pq_engine_seal(f, text, end - 1);
  else
    fwrite(text + start, 1, len - start, f);
  free(text);
  return fclose(f) ? 2 : 0;
}
