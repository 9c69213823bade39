/* listed.c: a listing's lines: a part's as it makes them (engine.h, pq_engine_text), and beside
   its checkpoint (src/run/sealed.h): the texts of the parts emitted, appended to CHECKPOINT.lines
   as they go out, so that neither the memory nor each checkpoint written holds them, and read
   back by a resumed run. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sealed.h"

/* The most bytes of a record's text handed on at once (whole lines). */
#define CHUNK ((size_t)16 << 20)

/* The most bytes of a lines file read a second time to tell a damaged file from a fault in it. */
#define REHASH_BYTES ((uint64_t)1 << 30)

void pq_engine_text_start(pq_engine_text *t, pq_engine_worker *w, uint64_t part) {
  t->w = w;
  t->part = part;
  t->len = 0;
  t->stream_at = PQ_ENGINE_STREAM_BYTES;
}

void pq_engine_text_line(pq_engine_text *t, const uint8_t *cells, size_t n) {
  if (t->len + n + 1 > t->cap) {
    t->cap = t->cap ? 2 * t->cap : 64 * (n + 1);
    if (t->cap < t->len + n + 1) t->cap = t->len + n + 1;
    t->text = pq_realloc(t->text, t->cap);
  }
  for (size_t s = 0; s < n; s++)
    t->text[t->len + s] = (char)('0' + cells[s]);
  t->text[t->len + n] = '\n';
  t->len += n + 1;
  /* Not its turn yet: tried again at twice as many bytes. */
  if (t->len >= t->stream_at) {
    bool out = pq_engine_stream(t->w, t->part, t->text, t->len);
    t->stream_at = out ? PQ_ENGINE_STREAM_BYTES : 2 * t->len;
    if (out) t->len = 0;
  }
}

bool pq_engine_text_cells(const char *text, size_t len, size_t *at, size_t n, uint8_t *cells) {
  if (!text || *at + n >= len) return false;
  for (size_t s = 0; s < n; s++)
    cells[s] = (uint8_t)(text[*at + s] - '0');
  *at += n + 1;
  return true;
}

struct pq_engine_lines {
  FILE *f;
  char *path;
  uint64_t bytes, hash;                       /* written so far */
  uint64_t kept_parts, kept_bytes, kept_hash; /* up to the last part emitted whole */
  bool failed;                                /* a write failed: said once, at the next sync */
  int error;
};

char *pq_engine_lines_path(const char *checkpoint) {
  /* Beside the file the checkpoint is written to: through a link, beside the link's target. */
  char *target = pq_write_target(checkpoint);
  const char *at = target ? target : checkpoint; /* (a loop of links: the write fails anyway) */
  size_t n = strlen(at) + sizeof ".lines";
  char *path = pq_malloc(n);
  snprintf(path, n, "%s.lines", at);
  free(target);
  return path;
}

bool pq_engine_lines_of(const char *file, const char *checkpoint) {
  char *lines = pq_engine_lines_path(checkpoint), *target = pq_write_target(file);
  bool same = pq_same_file(target ? target : file, lines);
  free(lines);
  free(target);
  return same;
}

pq_engine_lines *pq_engine_lines_open(const char *checkpoint, const char *resume,
                                      const pq_engine_mark *from, bool *copy) {
  pq_engine_lines *l = pq_calloc(1, sizeof *l);
  l->path = pq_engine_lines_path(checkpoint);
  l->hash = l->kept_hash = PQ_FNV_BASIS;
  char *old = from && from->parts ? pq_engine_lines_path(resume) : NULL;
  /* Resumed from the same file: kept up to the checkpoint's mark, the rest cut off; otherwise
     written anew (the records read back are copied into it). */
  *copy = old && !pq_same_file(old, l->path);
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
    l->f = fopen(l->path, "wb");
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
  /* Written out of the process, as the checkpoint is (neither is forced to the disk). */
  if (!l->failed && fflush(l->f)) {
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

/* Reads decimal digits from f up to the byte stop: the number in *v; the bytes read added to *n.
   0, or -1 when there is no digit, a byte other than a digit before stop, or more than 19 digits.
 */
static int read_number(FILE *f, int stop, uint64_t *v, size_t *n) {
  int c, digits = 0;
  *v = 0;
  while ((c = getc(f)) >= '0' && c <= '9' && digits < 19)
    *v = *v * 10 + (uint64_t)(c - '0'), digits++, (*n)++;
  if (c != EOF) (*n)++;
  return digits && c == stop ? 0 : -1;
}

/* Why a long reading stops: PQ_EINTR at a signal, PQ_ELIMIT past the deadline (if > 0), else
   PQ_OK. */
static pq_status reading_stops(double deadline) {
  if (pq_interrupted) return PQ_EINTR;
  return deadline > 0 && pq_now() > deadline ? PQ_ELIMIT : PQ_OK;
}

pq_status pq_engine_lines_read(const char *resume, const pq_engine_mark *mark, double deadline,
                               const char *(*each)(void *ctx, uint64_t part, const char *text,
                                                   size_t len),
                               void *ctx) {
  char *path = pq_engine_lines_path(resume), head[48];
  FILE *f = fopen(path, "rb");
  char cannot[160];
  snprintf(cannot, sizeof cannot, "cannot read it: %s", strerror(errno));
  const char *why = f ? NULL : cannot;
  /* (A mark past the file's end is refused first: no record is then longer than the file.) */
  struct stat st = {0};
  if (f && (fstat(fileno(f), &st) || (uint64_t)st.st_size < mark->bytes))
    why = "shorter than its checkpoint says";
  uint64_t at = 0, hash = PQ_FNV_BASIS;
  char *text = NULL;
  pq_status stopped = PQ_OK;
  /* A long file read back stops at a signal and at the deadline, as the run would. */
  while (!why && at < mark->bytes && !(stopped = reading_stops(deadline))) {
    uint64_t part, len;
    size_t n = 0;
    if (read_number(f, ' ', &part, &n) || read_number(f, '\n', &len, &n)) {
      why = feof(f) ? "shorter than its checkpoint says" : "not the records of a listing's lines";
      break;
    }
    /* (Compared before any sum: a length near 2^64 must not wrap past the mark.) */
    if (n > mark->bytes - at || len > mark->bytes - at - n) {
      why = "its records do not end where its checkpoint says";
      break;
    }
    at += n + len;
    int h = snprintf(head, sizeof head, "%" PRIu64 " %" PRIu64 "\n", part, len);
    hash = pq_fnv_bytes(hash, head, (size_t)h);
    if ((size_t)h != n) why = "not the records of a listing's lines"; /* (leading zeros) */
    /* The record's text in pieces of whole lines, CHUNK bytes at most: a long one (a forged
       length, or a sparse file) is not read whole into memory. */
    size_t held = 0; /* bytes of a line cut at the end of the last piece, at the buffer's start */
    for (uint64_t left = len; !why && (left || held);) {
      size_t want = left < CHUNK ? (size_t)left : CHUNK;
      if (!text) text = pq_malloc(2 * CHUNK + 1);
      if (fread(text + held, 1, want, f) != want) {
        why = "shorter than its checkpoint says";
        break;
      }
      hash = pq_fnv_bytes(hash, text + held, want);
      left -= want;
      size_t have = held + want, cut = have;
      while (left && cut && text[cut - 1] != '\n')
        cut--;
      if (!cut) { /* (a line of more than CHUNK bytes: no listing has one) */
        why = "not the records of a listing's lines";
        break;
      }
      char keep = text[cut];
      text[cut] = 0;
      why = each(ctx, part, text, cut);
      text[cut] = keep;
      memmove(text, text + cut, held = have - cut);
      /* (Also within a record: a stop in the last one must not leave its hash short.) */
      if (!why && (stopped = reading_stops(deadline))) break;
    }
  }
  /* A fault found on the way, in a file that is not the one the checkpoint names: said so, for a
     file of up to REHASH_BYTES (a second reading; a signal or the deadline stops it too). */
  bool short_file = f && (uint64_t)st.st_size < mark->bytes, rehashed = false;
  if (f && why && !short_file && mark->bytes <= REHASH_BYTES && !fseek(f, 0, SEEK_SET)) {
    hash = PQ_FNV_BASIS;
    rehashed = true;
    char chunk[65536];
    size_t got = 1;
    for (at = 0; at < mark->bytes && got && rehashed; at += got) {
      got = fread(chunk, 1, mark->bytes - at < sizeof chunk ? mark->bytes - at : sizeof chunk, f);
      hash = pq_fnv_bytes(hash, chunk, got);
      rehashed = reading_stops(deadline) == PQ_OK;
    }
  }
  if (f && !stopped && !short_file && (!why || rehashed) && hash != mark->hash)
    why = "damaged or edited: its hash does not match its checkpoint's";
  if (why) pq_error("--resume %s: its lines file %s: %s", resume, path, why);
  if (stopped)
    pq_error("--resume %s: %s while its lines file %s was read", resume,
             stopped == PQ_EINTR ? "interrupted" : "the time limit ended", path);
  if (f) fclose(f);
  free(text);
  free(path);
  return why ? PQ_EINVAL : stopped;
}
