/* armies_text.h: the text of a proof that may not fit in memory (a knights' proof of 11x11 is
   gigabytes): appended one character at a time, kept in memory up to PQ_TEXT_MEMORY bytes and
   from then on in a temporary file, and copied out by ranges when the certificate is written. */
#ifndef PQ_ARMIES_TEXT_H
#define PQ_ARMIES_TEXT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../../src/core/util.h"

/* Bytes kept in memory before the text goes to a temporary file (in $TMPDIR, else /tmp). */
#define PQ_TEXT_MEMORY ((size_t)64 << 20)

typedef struct pq_text {
  size_t memory;   /* bytes kept in memory at most: PQ_TEXT_MEMORY when 0 */
  char *buf;       /* the bytes from `stored` on */
  size_t len, cap; /* of buf */
  FILE *file;      /* the bytes before `stored` (unlinked: gone when closed); NULL: none yet */
  uint64_t stored; /* bytes in file */
  bool failed;     /* the temporary file could not be made or written (its message printed) */
} pq_text;

/* Whether a temporary file can be made where the text would go: PQ_OK, or PQ_EIO with a message
   (checked before a long search whose proof may need one). */
pq_status pq_text_probe(void);

/* Makes room for one more byte in buf (the hot path is pq_text_put). */
void pq_text_room(pq_text *t);

static inline void pq_text_put(pq_text *t, char c) {
  if (t->len == t->cap) pq_text_room(t);
  t->buf[t->len++] = c;
}

/* The bytes appended so far: the position of the next. */
static inline uint64_t pq_text_size(const pq_text *t) { return t->stored + t->len; }

/* Writes bytes [from, to) of t to f: 0, or -1 when the temporary file cannot be read (a message
   printed). */
int pq_text_copy(const pq_text *t, FILE *f, uint64_t from, uint64_t to);

/* Frees what t holds (t itself is the caller's) and closes its file. */
void pq_text_clear(pq_text *t);

#endif
