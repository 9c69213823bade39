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

/* How many of the split's parts part I of N covers. */
uint64_t pq_engine_covered(uint64_t part, uint64_t parts, uint64_t subparts);

#endif
