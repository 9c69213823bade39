/* listed.c: a listing's lines beside its checkpoint (src/run/sealed.h): the texts of the parts
   emitted, appended to CHECKPOINT.lines as they go out, so that neither the memory nor each
   checkpoint written holds them, and read back by a resumed run. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sealed.h"

struct pq_engine_lines {
  FILE *f;
  char *path;
  uint64_t bytes, hash;                       /* written so far */
  uint64_t kept_parts, kept_bytes, kept_hash; /* up to the last part emitted whole */
  bool failed;                                /* a write failed: said once, at the next sync */
  int error;
};

char *pq_engine_lines_path(const char *checkpoint) {
  size_t n = strlen(checkpoint) + sizeof ".lines";
  char *path = pq_malloc(n);
  snprintf(path, n, "%s.lines", checkpoint);
  return path;
}

/* Whether the files a and b are the same file (both there). */
static bool same_file(const char *a, const char *b) {
  struct stat sa, sb;
  return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

pq_engine_lines *pq_engine_lines_open(const char *checkpoint, const char *resume,
                                      const pq_engine_mark *from, bool *copy) {
  pq_engine_lines *l = pq_calloc(1, sizeof *l);
  l->path = pq_engine_lines_path(checkpoint);
  l->hash = PQ_FNV_BASIS;
  char *old = from && from->parts ? pq_engine_lines_path(resume) : NULL;
  /* Resumed from the same file: kept up to the checkpoint's mark, the rest cut off; otherwise
     written anew (the records read back are copied into it). */
  *copy = old && !same_file(old, l->path);
  if (old && !*copy) {
    l->f = fopen(l->path, "r+b");
    if (l->f && (ftruncate(fileno(l->f), (off_t)from->bytes) || fseek(l->f, 0, SEEK_END))) {
      fclose(l->f);
      l->f = NULL;
    }
    l->bytes = l->kept_bytes = from->bytes;
    l->hash = l->kept_hash = from->hash;
    l->kept_parts = from->parts;
  } else {
    l->f = pq_discard_outputs ? fopen("/dev/null", "wb") : fopen(l->path, "wb");
  }
  free(old);
  if (!l->f) {
    pq_error("--checkpoint %s: cannot write %s: %s", checkpoint, l->path, strerror(errno));
    pq_engine_lines_close(l);
    return NULL;
  }
  return l;
}

void pq_engine_lines_add(pq_engine_lines *l, uint64_t part, const char *text, size_t len) {
  if (!len) return; /* (no record: none listed) */
  char head[48];
  int n = snprintf(head, sizeof head, "%" PRIu64 " %zu\n", part, len);
  if (fwrite(head, 1, (size_t)n, l->f) != (size_t)n || fwrite(text, 1, len, l->f) != len) {
    if (!l->failed) l->error = errno;
    l->failed = true;
  }
  l->hash = pq_fnv_bytes(pq_fnv_bytes(l->hash, head, (size_t)n), text, len);
  l->bytes += (uint64_t)n + len;
}

void pq_engine_lines_commit(pq_engine_lines *l, uint64_t parts) {
  l->kept_parts = parts;
  l->kept_bytes = l->bytes;
  l->kept_hash = l->hash;
}

pq_status pq_engine_lines_sync(pq_engine_lines *l) {
  if (!l->failed && (fflush(l->f) || fdatasync(fileno(l->f))) && errno != EINVAL) {
    l->error = errno;
    l->failed = true;
  }
  if (!l->failed) return PQ_OK;
  pq_error("%s: cannot write: %s", l->path, strerror(l->error));
  return PQ_EIO;
}

void pq_engine_lines_member(FILE *f, const pq_engine_lines *l) {
  fprintf(f, ",\"lines\":{\"parts\":%" PRIu64 ",\"bytes\":%" PRIu64 ",\"hash\":\"%016" PRIx64 "\"}",
          l->kept_parts, l->kept_bytes, l->kept_hash);
}

void pq_engine_lines_close(pq_engine_lines *l) {
  if (!l) return;
  if (l->f) fclose(l->f);
  free(l->path);
  free(l);
}

const char *pq_engine_lines_mark(const pq_json *doc, pq_engine_mark *mark) {
  const pq_json *m = pq_json_get(doc, "lines");
  const char *hash = m ? pq_json_get_string(m, "hash") : NULL;
  memset(mark, 0, sizeof *mark);
  if (!m) return NULL;
  char *end = NULL;
  if (m->type != PQ_JSON_OBJECT || pq_engine_u64(pq_json_get(m, "parts"), &mark->parts) ||
      pq_engine_u64(pq_json_get(m, "bytes"), &mark->bytes) || !hash || strlen(hash) != 16 ||
      strspn(hash, "0123456789abcdef") != 16 || (mark->hash = strtoull(hash, &end, 16), *end))
    return "its \"lines\" are not a mark of its lines file (parts, bytes and hash)";
  return NULL;
}

/* Reads one record's head ("PART LENGTH\n") from f: 0, or -1 at a malformed one. */
static int read_head(FILE *f, char *head, size_t size, uint64_t *part, size_t *len) {
  size_t n = 0;
  int c;
  while (n + 1 < size && (c = getc(f)) != EOF && c != '\n')
    head[n++] = (char)c;
  head[n] = 0;
  if (c != '\n') return -1;
  char *end;
  errno = 0;
  unsigned long long p = strtoull(head, &end, 10), l;
  if (end == head || *end != ' ') return -1;
  char *at = end + 1;
  l = strtoull(at, &end, 10);
  if (end == at || *end || errno || l > SIZE_MAX) return -1;
  *part = p;
  *len = (size_t)l;
  return 0;
}

pq_status pq_engine_lines_read(const char *resume, const pq_engine_mark *mark,
                               const char *(*each)(void *ctx, uint64_t part, const char *text,
                                                   size_t len),
                               void *ctx) {
  char *path = pq_engine_lines_path(resume), head[48];
  FILE *f = fopen(path, "rb");
  char cannot[160];
  snprintf(cannot, sizeof cannot, "cannot read it: %s", strerror(errno));
  const char *why = f ? NULL : cannot;
  uint64_t at = 0, hash = PQ_FNV_BASIS;
  char *text = NULL;
  size_t cap = 0;
  while (!why && at < mark->bytes) {
    uint64_t part;
    size_t len;
    if (read_head(f, head, sizeof head, &part, &len)) {
      why = feof(f) ? "shorter than its checkpoint says" : "not the records of a listing's lines";
      break;
    }
    at += strlen(head) + 1 + len;
    if (at > mark->bytes) {
      why = "its records do not end where its checkpoint says";
      break;
    }
    if (len + 1 > cap) text = pq_realloc(text, cap = len + 1);
    if (fread(text, 1, len, f) != len) {
      why = "shorter than its checkpoint says";
      break;
    }
    text[len] = 0;
    hash = pq_fnv_bytes(hash, head, strlen(head));
    hash = pq_fnv_bytes(pq_fnv_bytes(hash, "\n", 1), text, len);
    why = each(ctx, part, text, len);
  }
  /* A fault found on the way, in a file that is not the one the checkpoint names: said so. */
  if (f && why && !fseek(f, 0, SEEK_SET)) {
    hash = PQ_FNV_BASIS;
    char chunk[65536];
    size_t got = 1;
    for (at = 0; at < mark->bytes && got; at += got) {
      got = fread(chunk, 1, mark->bytes - at < sizeof chunk ? mark->bytes - at : sizeof chunk, f);
      hash = pq_fnv_bytes(hash, chunk, got);
    }
  }
  if (f && hash != mark->hash) why = "damaged or edited: its hash does not match its checkpoint's";
  if (why) pq_error("--resume %s: its lines file %s: %s", resume, path, why);
  if (f) fclose(f);
  free(text);
  free(path);
  return why ? PQ_EINVAL : PQ_OK;
}
