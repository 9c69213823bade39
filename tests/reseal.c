/* reseal.c: for tests, seals edited checkpoints and part results again (as pq_engine_seal does),
   so that a test can reach the checks behind the digest. Usage: reseal FILE (rewritten in place):
   every text up to and including a ,"digest":"..."} is sealed anew. A checkpoint's mark of its
   lines file ("lines":{"parts":K,"bytes":N,"hash":"H"}) is first made that of FILE.lines as it is
   now: N its size, H its FNV-1a hash. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/core/json.h"
#include "../src/run/engine.h"

/* text (*len bytes) with its lines mark made that of path.lines, when it has one and the file is
   there. */
static char *mark_lines(const char *path, char *text, size_t *len) {
  const char *key = "\"bytes\":";
  char *mark = strstr(text, "\"lines\":{\"parts\":"), *from = mark ? strstr(mark, key) : NULL;
  char *to = from ? strstr(from, "\"}") : NULL, *name = malloc(strlen(path) + 8), *lines;
  size_t n;
  sprintf(name, "%s.lines", path);
  if (!to || pq_read_file(name, (size_t)1 << 30, &lines, &n)) {
    free(name);
    return text;
  }
  char now[96];
  int m = snprintf(now, sizeof now, "%s%zu,\"hash\":\"%016" PRIx64, key, n,
                   pq_fnv_bytes(PQ_FNV_BASIS, lines, n));
  size_t head = (size_t)(from - text), tail = *len - (size_t)(to - text);
  char *out = malloc(head + (size_t)m + tail + 1);
  memcpy(out, text, head);
  memcpy(out + head, now, (size_t)m);
  memcpy(out + head + (size_t)m, to, tail + 1);
  *len = head + (size_t)m + tail;
  free(text);
  free(lines);
  free(name);
  return out;
}

int main(int argc, char **argv) {
  char *text;
  size_t len;
  if (argc != 2 || pq_read_file(argv[1], (size_t)1 << 30, &text, &len)) return 2;
  text = mark_lines(argv[1], text, &len);
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
