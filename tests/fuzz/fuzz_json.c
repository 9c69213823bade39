/* fuzz_json.c: libFuzzer target for pq_json_parse (the JSON reader of certificates): the tree's
   invariants, a round trip through a writer built on pq_json_write_string, and the same document
   (or the same fault) from pq_json_parse_owned, which decodes strings in place. */
#include <errno.h>
#include <regex.h>

#include "../../src/core/json.h"
#include "fuzz.h"

/* Whether text is a number by JSON's grammar (an independent check: POSIX regex). */
static bool json_number(const char *text) {
  static regex_t re;
  static bool compiled;
  if (!compiled &&
      regcomp(&re, "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?$", REG_EXTENDED | REG_NOSUB))
    fuzz_fail("regcomp failed");
  compiled = true;
  return regexec(&re, text, 0, NULL, 0) == 0;
}

/* Checks a parsed value and its children; returns its depth. */
static int check_value(const pq_json *v) {
  int depth = 0;
  switch (v->type) {
  case PQ_JSON_NULL:
  case PQ_JSON_FALSE:
  case PQ_JSON_TRUE:
    if (v->length || v->items || v->keys) fuzz_fail("a literal has items");
    break;
  case PQ_JSON_NUMBER:
  case PQ_JSON_STRING:
    if (!v->string || strlen(v->string) != v->length)
      fuzz_fail("a string or number has length %zu but text \"%.80s\"", v->length,
                v->string ? v->string : "(null)");
    if (v->type == PQ_JSON_NUMBER && !json_number(v->string))
      fuzz_fail("not a JSON number: \"%.80s\"", v->string);
    break;
  case PQ_JSON_ARRAY:
  case PQ_JSON_OBJECT:
    if (v->length && !v->items) fuzz_fail("%zu items but no array of them", v->length);
    if ((v->type == PQ_JSON_OBJECT) != (v->keys != NULL && v->length > 0) && v->length)
      fuzz_fail("keys on an array or none on an object");
    for (size_t i = 0; i < v->length; i++) {
      if (!v->items[i]) fuzz_fail("item %zu is NULL", i);
      if (v->type == PQ_JSON_OBJECT) {
        if (!v->keys[i]) fuzz_fail("key %zu is NULL", i);
        /* pq_json_get finds the first member of that name. */
        const pq_json *m = pq_json_get(v, v->keys[i]);
        size_t first = 0;
        while (strcmp(v->keys[first], v->keys[i]))
          first++;
        if (m != v->items[first])
          fuzz_fail("pq_json_get \"%.80s\": not the first member", v->keys[i]);
        long n;
        if (!pq_json_get_long(v, v->keys[i], -1000000, 1000000, &n)) {
          char *end;
          errno = 0;
          long want = strtol(m->string, &end, 10);
          if (m->type != PQ_JSON_NUMBER || *end || errno || want != n)
            fuzz_fail("pq_json_get_long \"%.80s\" gave %ld", m->string ? m->string : "", n);
        }
      }
      int d = check_value(v->items[i]);
      if (d + 1 > depth) depth = d + 1;
    }
    break;
  default: fuzz_fail("bad type %d", (int)v->type);
  }
  return depth;
}

static void write_value(FILE *out, const pq_json *v) {
  switch (v->type) {
  case PQ_JSON_NULL: fputs("null", out); break;
  case PQ_JSON_FALSE: fputs("false", out); break;
  case PQ_JSON_TRUE: fputs("true", out); break;
  case PQ_JSON_NUMBER: fputs(v->string, out); break;
  case PQ_JSON_STRING: pq_json_write_string(out, v->string); break;
  default:
    fputc(v->type == PQ_JSON_ARRAY ? '[' : '{', out);
    for (size_t i = 0; i < v->length; i++) {
      if (i) fputc(',', out);
      if (v->type == PQ_JSON_OBJECT) {
        pq_json_write_string(out, v->keys[i]);
        fputc(':', out);
      }
      write_value(out, v->items[i]);
    }
    fputc(v->type == PQ_JSON_ARRAY ? ']' : '}', out);
  }
}

static void check_same(const pq_json *a, const pq_json *b) {
  if (a->type != b->type || a->length != b->length)
    fuzz_fail("round trip changed a value's type or length");
  if ((a->type == PQ_JSON_STRING || a->type == PQ_JSON_NUMBER) && strcmp(a->string, b->string))
    fuzz_fail("round trip changed \"%.80s\" into \"%.80s\"", a->string, b->string);
  if (a->type == PQ_JSON_ARRAY || a->type == PQ_JSON_OBJECT)
    for (size_t i = 0; i < a->length; i++) {
      if (a->type == PQ_JSON_OBJECT && strcmp(a->keys[i], b->keys[i]))
        fuzz_fail("round trip changed key \"%.80s\"", a->keys[i]);
      check_same(a->items[i], b->items[i]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* A copy of exactly size bytes, no terminator: a read past the end is caught by ASan. */
  char *text = malloc(size ? size : 1);
  if (!text) fuzz_fail("out of memory");
  memcpy(text, data, size);
  char err[160];
  memset(err, 'x', sizeof err);
  fuzz_capture c;
  fuzz_capture_begin(&c);
  pq_json *v = pq_json_parse(text, size, err);
  fuzz_capture_end(&c);
  if (c.out_len || c.err_len) fuzz_fail("pq_json_parse printed \"%.200s%.200s\"", c.out, c.err);
  fuzz_capture_free(&c);
  /* In place: a copy of exactly size bytes, which the document owns. */
  char *own = malloc(size ? size : 1), owned_err[160];
  if (!own) fuzz_fail("out of memory");
  memcpy(own, data, size);
  pq_json *o = pq_json_parse_owned(own, size, owned_err);
  if (!o != !v || (!v && strcmp(err, owned_err)))
    fuzz_fail("parsed in place: %s, copied: %s", o ? "a document" : owned_err,
              v ? "a document" : err);
  if (o) check_same(v, o);
  pq_json_free(o);
  if (!v) {
    size_t at;
    if (!memchr(err, '\0', sizeof err) || sscanf(err, "at byte %zu: ", &at) != 1 || at > size)
      fuzz_fail("a refusal without a message naming the byte: \"%.159s\"", err);
  } else {
    if (check_value(v) > 65) fuzz_fail("nesting deeper than the documented 64 levels");
    char *again = NULL;
    size_t again_len = 0;
    FILE *out = open_memstream(&again, &again_len);
    if (!out) fuzz_fail("open_memstream failed");
    write_value(out, v);
    fclose(out);
    pq_json *w = pq_json_parse(again, again_len, err);
    if (!w) fuzz_fail("the written form \"%.200s\" does not parse: %s", again, err);
    check_same(v, w);
    pq_json_free(w);
    free(again);
    pq_json_free(v);
  }
  free(text);
  return 0;
}
