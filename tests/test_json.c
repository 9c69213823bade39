/* test_json.c: the JSON reader: numbers by JSON's grammar, strings, nesting, the memory budget. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "../src/core/json.h"
#include "tap.h"

/* Whether text parses; err holds the message when it does not. */
static int parses(const char *text, char *err) {
  pq_json *v = pq_json_parse(text, strlen(text), err);
  pq_json_free(v);
  return v != NULL;
}

/* "[0,0,...]" with n zeros (caller frees). */
static char *zeros(int n) {
  char *s = malloc(2 * (size_t)n + 3), *p = s;
  *p++ = '[';
  for (int i = 0; i < n; i++)
    p += sprintf(p, "%s0", i ? "," : "");
  strcpy(p, "]");
  return s;
}

/* Whether a and b are the same value (strings, keys and numbers byte for byte). */
static bool same(const pq_json *a, const pq_json *b) {
  if (a->type != b->type || a->length != b->length) return false;
  if (a->type == PQ_JSON_STRING || a->type == PQ_JSON_NUMBER)
    return !strcmp(a->string, b->string) && strlen(a->string) == strlen(b->string);
  for (size_t i = 0; i < a->length && (a->type == PQ_JSON_ARRAY || a->type == PQ_JSON_OBJECT); i++)
    if ((a->keys && strcmp(a->keys[i], b->keys[i])) || !same(a->items[i], b->items[i]))
      return false;
  return true;
}

/* pq_json_parse_owned decodes strings and keys in place: the same document as pq_json_parse,
   and the same fault. */
static void owned_tests(void) {
  static const char *const docs[] = {
      "{\"a\":\"x\\\"y\",\"k\\u0041\\n\":[1,\"\\\\\\/\\b\\f\\r\\t\",{\"\":\"\"}],\"n\":-1.5e3}",
      "[\"..x.c\",\"\\u0041\\u0042\",true,false,null,\"\"]",
      "\"a long string with an escape at its end\\\"\"",
      "{\"a\":1,\"a\":2}",
      "[\"unterminated]",
      "{\"a\":\"b\"} x"};
  for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
    char err[160], err2[160];
    size_t len = strlen(docs[i]);
    char *text = malloc(len + 1);
    memcpy(text, docs[i], len + 1);
    pq_json *a = pq_json_parse(docs[i], len, err), *b = pq_json_parse_owned(text, len, err2);
    tap_ok(a ? b && same(a, b) : !b && !strcmp(err, err2), "parsed in place: %s (%s)", docs[i],
           a ? "the same values" : "the same fault");
    pq_json_free(a);
    pq_json_free(b);
  }
}

/* The getters mark what they return as asked (a checker's trace of what it read), the typed ones
   only a member of their type; pq_json_peek marks nothing. */
static void asked_tests(void) {
  const char *text = "{\"w\":12,\"s\":\"x\",\"b\":true,\"n\":3,\"o\":{\"i\":1},\"p\":1}";
  char err[160];
  pq_json *v = pq_json_parse(text, strlen(text), err);
  bool untouched = true;
  for (size_t i = 0; v && i < v->length; i++)
    untouched = untouched && !v->items[i]->asked;
  tap_ok(v && untouched, "a document parsed: no member asked");
  long n;
  bool typed = pq_json_get_string(v, "w") == NULL && !pq_json_peek(v, "w")->asked &&
               pq_json_get_string(v, "s") && pq_json_peek(v, "s")->asked &&
               pq_json_get_long(v, "s", 0, 9, &n) < 0 && pq_json_get_bool(v, "n") < 0 &&
               !pq_json_peek(v, "n")->asked && pq_json_get_bool(v, "b") == 1 &&
               pq_json_peek(v, "b")->asked && !pq_json_get_long(v, "n", 0, 9, &n) && n == 3 &&
               pq_json_peek(v, "n")->asked;
  tap_ok(typed, "typed getters mark a member of their type, and only that");
  const pq_json *o = pq_json_get(v, "o");
  tap_ok(o && o->asked && !pq_json_peek(o, "i")->asked && !pq_json_peek(v, "p")->asked,
         "pq_json_get marks the member it returns, not those inside it; pq_json_peek marks none");
  pq_json_free(v);
}

int main(void) {
  owned_tests();
  asked_tests();
  char err[160];
  static const char *const good[] = {
      "0",    "-0",  "12",   "1.5",      "1e5",
      "1E+5", "0e0", "-0.0", "-1.25e-3", "123456789012345678901234567890"};
  for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
    pq_json *v = pq_json_parse(good[i], strlen(good[i]), err);
    tap_ok(v && v->type == PQ_JSON_NUMBER && !strcmp(v->string, good[i]), "number %s", good[i]);
    pq_json_free(v);
  }
  static const char *const bad[] = {"-",  "e",   "1.2.3", "01", "1.",  ".5",    "1e",
                                    "+1", "--1", "1e+",   "-a", "0x1", "1e5e5", "Infinity"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    tap_ok(!parses(bad[i], err) && err[0], "not a number: %s (%s)", bad[i], err);

  const char *object = "{\"a\":\"x\\n\\u0041\\\"\",\"b\":[true,false,null]}";
  pq_json *v = pq_json_parse(object, strlen(object), err);
  tap_ok(v && !strcmp(pq_json_get_string(v, "a"), "x\nA\"") && pq_json_get(v, "b")->length == 3 &&
             pq_json_get(v, "b")->items[2]->type == PQ_JSON_NULL,
         "an object with escapes and an array");
  pq_json_free(v);
  tap_ok(!parses("\"\\u0000\"", err), "\\u0000 is refused");
  tap_ok(!parses("\"a\nb\"", err), "a raw newline in a string is refused");
  tap_ok(!parses("[1,]", err) && !parses("{\"a\" 1}", err) && !parses("[1] 2", err),
         "a trailing comma, a missing colon and trailing text are refused");

  /* A member named twice: one file, two readings (readers differ on which wins). */
  tap_ok(!parses("{\"a\":1,\"a\":2}", err) && strstr(err, "\"a\" is given twice"),
         "a member given twice is refused: %s", err);
  tap_ok(!parses("{\"a\":1,\"\\u0061\":1}", err), "a member given twice, once escaped, is refused");
  tap_ok(!parses("[{\"x\":{\"b\":1,\"c\":2,\"b\":3}}]", err),
         "a nested member given twice is refused");
  tap_ok(parses("[{\"a\":1},{\"a\":2}]", err) && parses("{\"a\":{\"a\":1}}", err),
         "one name in different objects is not a duplicate");
  {
    /* 100,000 members, the last repeating the first: found in O(n log n). */
    enum { MEMBERS = 100000 };
    char *big = malloc(16 * (size_t)MEMBERS + 16), *q = big;
    *q++ = '{';
    for (int i = 0; i < MEMBERS; i++)
      q += sprintf(q, "%s\"k%d\":0", i ? "," : "", i);
    strcpy(q, ",\"k0\":1}");
    tap_ok(!parses(big, err) && strstr(err, "k0"), "100000 members and one repeated: refused");
    free(big);
  }

  char deep[200];
  for (int levels = 60; levels <= 70; levels++) {
    memset(deep, '[', (size_t)levels);
    memset(deep + levels, ']', (size_t)levels);
    deep[2 * levels] = '\0';
    int ok = parses(deep, err);
    if (levels == 64) tap_ok(ok, "64 levels of nesting parse");
    if (levels == 65) tap_ok(!ok && strstr(err, "nesting"), "65 levels are refused: %s", err);
  }

  long n;
  const char *numbers = "{\"n\":42,\"f\":4.5,\"big\":99999999999999999999}";
  v = pq_json_parse(numbers, strlen(numbers), err);
  tap_ok(v && !pq_json_get_long(v, "n", 0, 100, &n) && n == 42, "a whole number member");
  tap_ok(v && pq_json_get_long(v, "n", 0, 41, &n) && pq_json_get_long(v, "f", 0, 100, &n) &&
             pq_json_get_long(v, "big", 0, __LONG_MAX__, &n) && pq_json_get_long(v, "no", 0, 1, &n),
         "out of range, fractional, too large and absent members are refused");
  pq_json_free(v);

  /* The budget: every value costs about 96 bytes; 8,000 bytes hold 50 values but not 100, and
     freeing a document gives its cost back. */
  pq_json_budget(8000);
  char *small = zeros(49), *large = zeros(199);
  tap_ok(!parses(large, err) && strstr(err, "reader's"), "200 values over a budget of 8000: %s",
         err);
  tap_ok(parses(small, err), "50 values within it");
  pq_json *a = pq_json_parse(small, strlen(small), err);
  pq_json *b = pq_json_parse(small, strlen(small), err);
  tap_ok(a && !b, "the budget counts every document alive: a second one of 50 does not fit");
  pq_json_free(a);
  pq_json_free(b);
  tap_ok(parses(small, err) && parses(small, err), "freed documents give their cost back");
  tap_ok(!parses(large, err), "after failures the budget is unchanged: 200 still do not fit");
  pq_json_budget(0);
  tap_ok(parses(large, err), "200 values within the default budget");
  free(small);
  free(large);

  /* Files: gzip-compressed ones read as plain, and the size limit applies to what they expand
     to (a small file of a megabyte of spaces). */
  char path[] = "/tmp/peaceable-test-json-XXXXXX";
  int fd = mkstemp(path);
  gzFile gz = fd >= 0 ? gzdopen(fd, "wb9") : NULL;
  char *spaces = malloc(1 << 20);
  memset(spaces, ' ', 1 << 20);
  spaces[0] = '[';
  spaces[(1 << 20) - 1] = ']';
  tap_ok(gz && gzwrite(gz, spaces, 1 << 20) == 1 << 20 && gzclose(gz) == Z_OK,
         "a compressed megabyte written");
  char *text = NULL;
  size_t len = 0;
  tap_ok(pq_read_file(path, 1 << 20, &text, &len) == PQ_OK && len == 1 << 20 && text[0] == '[' &&
             !memcmp(text, spaces, len),
         "read back through zlib: the same megabyte");
  free(text);
  text = NULL;
  fputs("# expected: a message on the limit\n", stdout);
  fflush(stdout);
  tap_ok(pq_read_file(path, 100000, &text, &len) == PQ_EINVAL && !text,
         "over a limit of 100000 bytes once expanded: refused (the file holds about 1 KB)");
  remove(path);
  free(spaces);
  return tap_done();
}
