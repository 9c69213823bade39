/* json.h: a small JSON reader (a tree of values) for certificates and part results. */
#ifndef PQ_JSON_H
#define PQ_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

typedef enum pq_json_type {
  PQ_JSON_NULL,
  PQ_JSON_FALSE,
  PQ_JSON_TRUE,
  PQ_JSON_NUMBER,
  PQ_JSON_STRING,
  PQ_JSON_ARRAY,
  PQ_JSON_OBJECT
} pq_json_type;

typedef struct pq_json pq_json;
struct pq_json {
  pq_json_type type;
  _Atomic bool asked; /* whether a getter returned this member (pq_json_get) */
  char *string;       /* STRING: the text, NUL-terminated (no embedded NULs); NUMBER: its source */
  size_t length;      /* STRING: bytes; ARRAY / OBJECT: items */
  char **keys;        /* OBJECT: the keys, parallel to items */
  pq_json **items;
  size_t cost; /* the root: what the document counts against the reader's budget */
  char *text;  /* the root of pq_json_parse_owned: the text its strings and keys lie in */
};

/* Parses text[0..len-1]. Returns the root (caller frees with pq_json_free), or NULL with a
   message in err (at least 160 bytes) naming the byte offset and the fault. Nesting deeper than
   64 levels is refused, and so is a document whose values would take the memory held by all
   documents alive past the budget (about 96 bytes a value plus its text; default half the
   machine's memory, at least 4 GiB): memory stays bounded whatever the input. Numbers follow JSON's
   grammar strictly. */
pq_json *pq_json_parse(const char *text, size_t len, char *err);

/* pq_json_parse of text, a buffer from malloc that the document then owns (freed with it, or at
   once when the parse fails): strings and keys are decoded in place, in the text, not copied, so a
   document of gigabytes of strings (a certificate's trees) takes little more memory than its
   text. */
pq_json *pq_json_parse_owned(char *text, size_t len, char *err);

/* Frees a document (a root returned by pq_json_parse or pq_json_parse_owned) and returns its cost
   to the budget. */
void pq_json_free(pq_json *v);

/* Sets the budget of pq_json_parse in bytes (for tests; 0: the default again). */
void pq_json_budget(size_t bytes);

/* The member of object v named key, or NULL (also when v is not an object). The getters mark the
   member they return as asked (its `asked` flag: v is const to its readers, not to this mark);
   the typed ones only a member of their type. A certificate's checker so leaves a trace of what
   it read (pq_check_asked). */
const pq_json *pq_json_get(const pq_json *v, const char *key);

/* pq_json_get without the mark: for code that looks at a certificate without checking it (which
   kind of file it is), so that what it reads is not taken for checked. */
const pq_json *pq_json_peek(const pq_json *v, const char *key);

/* The string member key of object v, or NULL when absent or not a string. */
const char *pq_json_get_string(const pq_json *v, const char *key);

/* The boolean member key of object v: 1 (true), 0 (false), or -1 when absent or not a boolean. */
int pq_json_get_bool(const pq_json *v, const char *key);

/* Reads the integer member key of v into *out: returns 0, or -1 when absent, not a whole number,
   or outside [min, max]. */
int pq_json_get_long(const pq_json *v, const char *key, long min, long max, long *out);

/* Reads v, a JSON number that is a whole decimal count from 0 to 2^128 - 1 (no sign, fraction,
   exponent or leading zero): returns 0 with *out, or -1 (v NULL or not such a number). */
int pq_json_count(const pq_json *v, pq_count *out);

/* Reads a whole file into memory (caller frees). Returns PQ_OK, or PQ_EIO with a message.
   Files over max_bytes are refused (PQ_EINVAL); a signal stops the read (PQ_EINTR), and so does
   pq_command_deadline (PQ_ELIMIT). */
pq_status pq_read_file(const char *path, size_t max_bytes, char **text, size_t *len);

/* pq_read_file, stopped between reads by a signal (PQ_EINTR) or once pq_now() passes deadline
   (0: none; PQ_ELIMIT), with a message. */
pq_status pq_read_file_until(const char *path, size_t max_bytes, double deadline, char **text,
                             size_t *len);

/* The pq_now() time at which the command's --time-limit ends (0: none): every read that has no
   deadline of its own stops there (PQ_ELIMIT), and so does the check of a certificate before it
   is written (pq_check_write). */
extern double pq_command_deadline;

/* pq_read_file, its messages naming the file as `name` (e.g. "--resume FILE"). */
pq_status pq_read_file_as(const char *name, const char *path, size_t max_bytes, char **text,
                          size_t *len);

/* Writes s as a JSON string (with quotes and escapes) on out. */
void pq_json_write_string(FILE *out, const char *s);

#endif
