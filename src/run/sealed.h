/* sealed.h: what the engine (engine.c) and its files (sealed.c) share; not for problems. */
#ifndef PQ_RUN_SEALED_H
#define PQ_RUN_SEALED_H

#include "engine.h"

/* The most bytes of one part's outcome. */
#define PQ_ENGINE_MAX_OUTCOME 256

/* *out gets v, a whole number of JSON that fits 64 bits: 0, or -1 when it is not one. */
int pq_engine_u64(const pq_json *v, uint64_t *out);

/* Whether doc names the instance of sp: the problem, every member of the head, the split and the
   number of subparts. */
bool pq_engine_same_instance(const pq_json *doc, const char *problem, const pq_engine_split *sp);

/* Whether v is a part's text in a file: a string without NUL. */
bool pq_engine_is_text(const pq_json *v);

/* A piece of text: the texts of parts, or a line of one. */
typedef struct pq_span {
  const char *p;
  size_t len;
} pq_span;

/* The first line (of the n texts, lines ending in '\n') that is in two texts or twice in one: a
   placement listed twice, which no split gives. Returns it (*len: its length), or NULL. */
const char *pq_engine_repeated_line(const pq_span *texts, size_t n, size_t *len);

/* Says that the checkpoint being written holds parts finished parts (pq_engine_kept_note). */
void pq_engine_kept(uint64_t parts);

/* Records a checkpoint write's status rc for pq_engine_unsaved and pq_engine_save_failed, and
   returns it. */
pq_status pq_engine_saved(pq_status rc);

/* How many of the split's parts part I of N covers. */
uint64_t pq_engine_covered(uint64_t part, uint64_t parts, uint64_t subparts);

/* ---- a listing's lines beside its checkpoint (listed.c) ---- */

/* A listing run with --checkpoint (whole, not --part I/N) appends the texts of the parts it emits,
   in order, to CHECKPOINT.lines, records "PART LENGTH\n" followed by the text (a part's text may
   come in several, streamed while it runs), and keeps no copy: its checkpoints name how far that
   file goes (the member "lines": the parts emitted whole, the bytes of their records, and the
   FNV-1a hash of those bytes). A resumed run reads the records back, emits them again and goes
   on from there. */
typedef struct pq_engine_lines pq_engine_lines;

/* What a checkpoint's "lines" says: the chosen parts emitted whole (parts 0 .. parts - 1; 0: none
   yet, or no member), the bytes of their records and the hash of those. */
typedef struct pq_engine_mark {
  uint64_t parts, bytes, hash;
} pq_engine_mark;

/* CHECKPOINT.lines (to free). */
char *pq_engine_lines_path(const char *checkpoint);

/* Opens the lines file of checkpoint for the run: anew, or when it is the lines file of the
   checkpoint resumed (resume, whose mark is from), kept up to its mark. *copy says whether the
   records read back are to be added (the file is a new one). Returns it, or NULL with a message. */
pq_engine_lines *pq_engine_lines_open(const char *checkpoint, const char *resume,
                                      const pq_engine_mark *from, bool *copy);

/* Appends a record of part's text (len bytes). A failed write is said at the next sync. */
void pq_engine_lines_add(pq_engine_lines *l, uint64_t part, const char *text, size_t len);

/* Marks the records so far as those of the first parts chosen parts, emitted whole. */
void pq_engine_lines_commit(pq_engine_lines *l, uint64_t parts);

/* Writes the records out to the disk, before a checkpoint names them: PQ_OK, or PQ_EIO with a
   message. */
pq_status pq_engine_lines_sync(pq_engine_lines *l);

/* Writes the member ,"lines":{...} of the records marked (pq_engine_lines_commit). */
void pq_engine_lines_member(FILE *f, const pq_engine_lines *l);

void pq_engine_lines_close(pq_engine_lines *l);

/* Whether file is the lines file of checkpoint (the same file, or the same name). */
bool pq_engine_lines_of(const char *file, const char *checkpoint);

/* Reads doc's "lines" into *mark (all 0 without one): NULL, or why it is malformed. */
const char *pq_engine_lines_mark(const pq_json *doc, pq_engine_mark *mark);

/* Reads the records of the lines file of the checkpoint resume up to its mark, in order, handing
   each to each (which returns NULL, or why the record is refused), and checks their hash.
   Returns PQ_OK; PQ_EINVAL with one message naming the file; PQ_EINTR or PQ_ELIMIT with one
   message when a signal or the deadline (if > 0) stopped the read. */
pq_status pq_engine_lines_read(const char *resume, const pq_engine_mark *mark, double deadline,
                               const char *(*each)(void *ctx, uint64_t part, const char *text,
                                                   size_t len),
                               void *ctx);

#endif
