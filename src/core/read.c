/* read.c: a whole file into memory (json.h: pq_read_file): plain or gzip-compressed (any name,
   members one after another), from a path or standard input ("-"), bounded in size and stopped
   by a signal or a deadline, also while a pipe waits. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "json.h"

/* Raw bytes read at a time, and the most text one step of decompression makes before signals and
   the deadline are looked at again (a gzip bomb can give gigabytes). */
#define RAW_BYTES ((size_t)1 << 20)
#define STEP_BYTES ((size_t)16 << 20)

typedef struct reader {
  const char *name;
  int fd;
  double deadline;
  unsigned char *raw; /* RAW_BYTES */
  size_t have;        /* raw bytes in raw, from its start */
  char *buf;          /* the text so far: n bytes of cap */
  size_t n, cap, max_bytes;
} reader;

/* Whether a signal or the deadline ends the read: PQ_OK, or the status with its message. */
static pq_status stopped(const reader *r) {
  if (!pq_interrupted && !(r->deadline > 0 && pq_now() > r->deadline)) return PQ_OK;
  if (!pq_stop_said())
    pq_error("%s: %s while it was read", r->name,
             pq_interrupted ? "interrupted" : "the time limit ended");
  return pq_interrupted ? PQ_EINTR : PQ_ELIMIT;
}

/* Appends raw bytes after the r->have already there: PQ_OK with *got (0 at the end of the file),
   or the status to stop with (its message printed). With a deadline, waits for data at most a
   tenth of a second at a time, so that a pipe that gives nothing still sees the deadline. */
static pq_status fill(reader *r, size_t *got) {
  for (;;) {
    pq_status rc = stopped(r);
    if (rc) return rc;
    struct pollfd p = {.fd = r->fd, .events = POLLIN};
    if (r->deadline > 0 && poll(&p, 1, 100) == 0) continue;
    ssize_t k = read(r->fd, r->raw + r->have, RAW_BYTES - r->have);
    if (k >= 0) {
      r->have += (size_t)k;
      *got = (size_t)k;
      return PQ_OK;
    }
    if (errno == EINTR) continue; /* a signal: stopped() says whether it ends the read */
    pq_error("%s: read error: %s", r->name, strerror(errno));
    return PQ_EIO;
  }
}

/* Makes room for at least `more` bytes of text (and a NUL). */
static void room(reader *r, size_t more) {
  if (r->n + more + 1 <= r->cap) return;
  r->cap = (r->n + more + 1) * 2;
  r->buf = pq_realloc(r->buf, r->cap);
}

static pq_status too_large(const reader *r, bool compressed) {
  pq_error("%s: larger than %zu bytes%s", r->name, r->max_bytes, compressed ? " uncompressed" : "");
  return PQ_EINVAL;
}

/* Every file read is text (JSON, or lines of it), which never holds a NUL byte: one among the
   bytes from `from` on ends the read there, so that /dev/zero or a binary file is refused at once
   rather than read up to max_bytes. */
static pq_status not_text(const reader *r, size_t from) {
  const char *nul = memchr(r->buf + from, '\0', r->n - from);
  if (!nul) return PQ_OK;
  pq_error("%s: not text: a NUL byte at byte %zu", r->name, (size_t)(nul - r->buf) + 1);
  return PQ_EINVAL;
}

/* A plain file: its bytes as they are (the first r->have already read). */
static pq_status read_plain(reader *r) {
  for (;;) {
    if (r->n + r->have > r->max_bytes) return too_large(r, false);
    room(r, r->have);
    memcpy(r->buf + r->n, r->raw, r->have);
    size_t from = r->n;
    r->n += r->have;
    r->have = 0;
    size_t got;
    pq_status rc = not_text(r, from);
    if (!rc) rc = fill(r, &got);
    if (rc || !got) return rc;
  }
}

/* Makes sure z has input: PQ_OK with *end when the file has no more. */
static pq_status more_input(reader *r, z_stream *z, bool *end) {
  *end = false;
  if (z->avail_in) return PQ_OK;
  r->have = 0;
  size_t got;
  pq_status rc = fill(r, &got);
  z->next_in = r->raw;
  z->avail_in = (uInt)r->have;
  *end = rc == PQ_OK && !got;
  return rc;
}

/* A gzip file: every member decompressed in turn; anything after the last member that is not
   one is refused (zlib's gzread ignores it), and so is a member cut short. */
static pq_status read_gzip(reader *r) {
  z_stream z = {.next_in = r->raw, .avail_in = (uInt)r->have};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) PQ_REQUIRE(false, "inflateInit2 failed");
  pq_status rc = PQ_OK;
  for (bool in_member = true; rc == PQ_OK;) {
    bool end;
    if ((rc = more_input(r, &z, &end))) break;
    if (end && in_member) {
      pq_error("%s: truncated: its compressed stream ends early", r->name);
      rc = PQ_EINVAL;
    } else if (end) {
      break;
    } else if (!in_member) {
      /* After a member: another one, or the end; a lone first byte waits for its second. */
      if (z.avail_in == 1 && z.next_in[0] == 0x1f) {
        memmove(r->raw, z.next_in, 1);
        r->have = 1;
        size_t got;
        if ((rc = fill(r, &got))) break;
        z.next_in = r->raw;
        z.avail_in = (uInt)r->have;
      }
      if (z.avail_in < 2 || z.next_in[0] != 0x1f || z.next_in[1] != 0x8b) {
        pq_error("%s: bytes after its compressed stream", r->name);
        rc = PQ_EINVAL;
        break;
      }
      inflateReset(&z);
      in_member = true;
    } else {
      room(r, STEP_BYTES);
      z.next_out = (Bytef *)r->buf + r->n;
      z.avail_out = (uInt)STEP_BYTES;
      int zr = inflate(&z, Z_NO_FLUSH);
      size_t from = r->n;
      r->n += STEP_BYTES - z.avail_out;
      if (r->n > r->max_bytes) {
        rc = too_large(r, true);
      } else if (zr == Z_STREAM_END) {
        in_member = false;
      } else if (zr != Z_OK && zr != Z_BUF_ERROR) {
        pq_error("%s: read error: %s", r->name, z.msg ? z.msg : "damaged compressed data");
        rc = PQ_EINVAL;
      } else {
        rc = stopped(r);
      }
      if (rc == PQ_OK) rc = not_text(r, from);
    }
  }
  inflateEnd(&z);
  return rc;
}

static pq_status read_file(const char *name, const char *path, size_t max_bytes, double deadline,
                           char **text, size_t *len);

double pq_command_deadline;

pq_status pq_read_file(const char *path, size_t max_bytes, char **text, size_t *len) {
  return read_file(NULL, path, max_bytes, 0, text, len);
}

pq_status pq_read_file_as(const char *name, const char *path, size_t max_bytes, char **text,
                          size_t *len) {
  return read_file(name, path, max_bytes, 0, text, len);
}

pq_status pq_read_file_until(const char *path, size_t max_bytes, double deadline, char **text,
                             size_t *len) {
  return read_file(NULL, path, max_bytes, deadline, text, len);
}

/* Reads path; its messages name it as name, or by default as the path ("standard input" for "-",
   "\"\"" for an empty name). */
static pq_status read_file(const char *name, const char *path, size_t max_bytes, double deadline,
                           char **text, size_t *len) {
  bool standard = !strcmp(path, "-");
  reader r = {.name = name       ? name
                      : standard ? "standard input"
                      : *path    ? path
                                 : "\"\"",
              .fd = standard ? dup(STDIN_FILENO) : open(path, O_RDONLY),
              .deadline = deadline > 0 ? deadline : pq_command_deadline,
              .max_bytes = max_bytes};
  pq_status rc = PQ_EIO;
  if (r.fd < 0) {
    pq_error("%s: %s", r.name, strerror(errno));
    return PQ_EIO;
  }
  /* A regular file's size is known: refuse one too large before reading it (a sparse file of
     terabytes would otherwise be read up to the limit), and read it into one buffer. */
  struct stat st;
  bool known = !fstat(r.fd, &st); /* (st is left undefined when fstat fails) */
  if (known && S_ISDIR(st.st_mode)) {
    pq_error("%s: is a directory", r.name);
    goto done;
  }
  if (known && S_ISREG(st.st_mode) && (uintmax_t)st.st_size > max_bytes) {
    rc = too_large(&r, false);
    goto done;
  }
  if (known && S_ISREG(st.st_mode)) room(&r, (size_t)st.st_size + 65536);
  r.raw = pq_malloc(RAW_BYTES);
  /* The first bytes say which: gzip's magic number, or plain text. */
  size_t got = 1;
  while (r.have < 2 && got && !(rc = fill(&r, &got))) {
  }
  if (rc == PQ_OK)
    rc = r.have >= 2 && r.raw[0] == 0x1f && r.raw[1] == 0x8b ? read_gzip(&r) : read_plain(&r);
  if (rc == PQ_OK) {
    room(&r, 0);
    r.buf[r.n] = '\0';
    *text = r.buf;
    *len = r.n;
    r.buf = NULL;
  }
done:
  close(r.fd);
  free(r.raw);
  free(r.buf);
  return rc;
}
