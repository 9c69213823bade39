/* json.c: a small JSON reader (a tree of values) for certificates and part results. */
#include "json.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64

/* What every parsed value costs against the budget besides its text: the node, its slot in its
   parent and the allocator's overhead, rounded up. */
#define VALUE_COST 96

/* Bytes held by parsed values in all documents alive, and the most they may hold (0: the default,
   half the machine's memory and at least 4 GiB, set at the first charge). */
static atomic_size_t held;
static atomic_size_t budget;

void pq_json_budget(size_t bytes) { atomic_store(&budget, bytes); }

static size_t the_budget(void) {
  size_t b = atomic_load(&budget);
  if (b) return b;
  uint64_t half = pq_memory_bytes() / 2, least = (uint64_t)4 << 30;
  b = half > least && half < SIZE_MAX ? (size_t)half : (size_t)least;
  atomic_store(&budget, b);
  return b;
}

typedef struct parser {
  const char *text;
  char *out; /* text itself, to decode strings in place (pq_json_parse_owned); NULL: copies */
  size_t len, pos;
  char *err;
  size_t cost; /* what this document has charged to `held` so far */
} parser;

static void fail(parser *p, const char *what) {
  if (!p->err[0]) snprintf(p->err, 160, "at byte %zu: %s", p->pos, what);
}

static void skip_space(parser *p) {
  while (p->pos < p->len && strchr(" \t\r\n", p->text[p->pos]) && p->text[p->pos])
    p->pos++;
}

static void free_value(pq_json *v, bool borrowed);

/* Frees a string the parser made, unless it lies in the text (decoded in place). */
static void drop(const parser *p, char *s) {
  if (!p->out) free(s);
}

/* Charges bytes to the budget; false (and a fault) when it would go over. */
static bool charge(parser *p, size_t bytes) {
  size_t before = atomic_fetch_add(&held, bytes);
  p->cost += bytes;
  size_t most = the_budget();
  if (before + bytes <= most) return true;
  char what[96];
  snprintf(what, sizeof what, "its values need more than the reader's %zu MiB", most >> 20);
  fail(p, what);
  return false;
}

static pq_json *new_value(parser *p, pq_json_type t) {
  if (!charge(p, VALUE_COST)) return NULL;
  pq_json *v = pq_calloc(1, sizeof *v);
  v->type = t;
  return v;
}

static void push(pq_json *v, char *key, pq_json *item, size_t *cap) {
  if (v->length == *cap) {
    *cap = *cap ? *cap * 2 : 4;
    v->items = pq_realloc(v->items, *cap * sizeof *v->items);
    if (v->type == PQ_JSON_OBJECT) v->keys = pq_realloc(v->keys, *cap * sizeof *v->keys);
  }
  if (v->type == PQ_JSON_OBJECT) v->keys[v->length] = key;
  v->items[v->length++] = item;
}

static int hex(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Parses a string at p->pos (on the opening quote); returns it (in place: where it began, its
   closing quote or an earlier byte made its NUL, as no escape is shorter than what it stands
   for), or NULL. */
static char *parse_string(parser *p, size_t *length) {
  p->pos++;
  size_t cap = 16, n = 0;
  char *s = p->out ? p->out + p->pos : pq_malloc(cap);
  for (;;) {
    if (p->pos >= p->len) {
      fail(p, "unterminated string");
      drop(p, s);
      return NULL;
    }
    unsigned char c = (unsigned char)p->text[p->pos++];
    if (c == '"') break;
    if (c < 0x20) {
      fail(p, "control character in a string");
      drop(p, s);
      return NULL;
    }
    if (c == '\\') {
      if (p->pos >= p->len) continue;
      char e = p->text[p->pos++];
      const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t", *at = strchr(from, e);
      if (e && at) {
        c = (unsigned char)to[at - from];
      } else if (e == 'u' && p->pos + 4 <= p->len) {
        int code = 0;
        for (int i = 0; i < 4; i++) {
          int h = hex(p->text[p->pos + (size_t)i]);
          code = (h < 0 || code < 0) ? -1 : code * 16 + h;
        }
        p->pos += 4;
        if (code <= 0 || code > 0x7f) {
          /* Certificates are ASCII: other escapes (and NUL) are refused. */
          fail(p, "unsupported \\u escape");
          drop(p, s);
          return NULL;
        }
        c = (unsigned char)code;
      } else {
        fail(p, "bad escape in a string");
        drop(p, s);
        return NULL;
      }
    }
    if (!p->out && n + 2 > cap) s = pq_realloc(s, cap *= 2);
    s[n++] = (char)c;
  }
  s[n] = '\0';
  *length = n;
  if (!p->out) s = pq_realloc(s, n + 1);
  if (!charge(p, n + 1)) {
    drop(p, s);
    return NULL;
  }
  return s;
}

/* The character at the position, or NUL at the end. */
static char peek(const parser *p) { return p->pos < p->len ? p->text[p->pos] : '\0'; }

/* Skips decimal digits; returns how many. */
static size_t digits(parser *p) {
  size_t from = p->pos;
  while (peek(p) >= '0' && peek(p) <= '9')
    p->pos++;
  return p->pos - from;
}

static int by_key(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether object v names a member twice (a fault then names it). JSON leaves duplicates to the
   reader, and readers differ (the first or the last wins), so one file could be read as two
   different claims: every document this program reads is refused instead. Sorting a copy of
   the keys keeps this O(n log n) for hostile objects of many members. */
static bool duplicate_member(parser *p, const pq_json *v) {
  if (v->length < 2) return false;
  char **keys = pq_malloc(v->length * sizeof *keys);
  memcpy(keys, v->keys, v->length * sizeof *keys);
  qsort(keys, v->length, sizeof *keys, by_key);
  bool twice = false;
  for (size_t i = 1; i < v->length && !twice; i++)
    if (!strcmp(keys[i - 1], keys[i])) {
      char what[120];
      snprintf(what, sizeof what, "the member \"%.60s\" is given twice", keys[i]);
      fail(p, what);
      twice = true;
    }
  free(keys);
  return twice;
}

static pq_json *parse_value(parser *p, int depth);

/* An object or an array, at its opening '{' or '['. */
static pq_json *parse_container(parser *p, int depth) {
  char c = p->text[p->pos];
  pq_json *v = new_value(p, c == '{' ? PQ_JSON_OBJECT : PQ_JSON_ARRAY);
  if (!v) return NULL;
  size_t cap = 0;
  char close = c == '{' ? '}' : ']';
  p->pos++;
  skip_space(p);
  if (p->pos < p->len && p->text[p->pos] == close) {
    p->pos++;
    return v;
  }
  for (;;) {
    char *key = NULL;
    if (v->type == PQ_JSON_OBJECT) {
      skip_space(p);
      size_t klen;
      if (p->pos >= p->len || p->text[p->pos] != '"' || !(key = parse_string(p, &klen))) {
        fail(p, "expected a key");
        free_value(v, p->out != NULL);
        return NULL;
      }
      skip_space(p);
      if (p->pos >= p->len || p->text[p->pos] != ':') {
        fail(p, "expected ':'");
        drop(p, key);
        free_value(v, p->out != NULL);
        return NULL;
      }
      p->pos++;
    }
    pq_json *item = parse_value(p, depth + 1);
    if (!item) {
      drop(p, key);
      free_value(v, p->out != NULL);
      return NULL;
    }
    push(v, key, item, &cap);
    skip_space(p);
    if (p->pos < p->len && p->text[p->pos] == ',') {
      p->pos++;
      continue;
    }
    if (p->pos < p->len && p->text[p->pos] == close) {
      p->pos++;
      if (v->type == PQ_JSON_OBJECT && duplicate_member(p, v)) {
        free_value(v, p->out != NULL);
        return NULL;
      }
      return v;
    }
    fail(p, v->type == PQ_JSON_OBJECT ? "expected ',' or '}'" : "expected ',' or ']'");
    free_value(v, p->out != NULL);
    return NULL;
  }
}

/* A number, as JSON has it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static pq_json *parse_number(parser *p) {
  size_t start = p->pos;
  if (peek(p) == '-') p->pos++;
  if (peek(p) == '0') {
    p->pos++;
  } else if (!digits(p)) {
    fail(p, p->pos == start ? "unexpected character" : "a number without digits");
    return NULL;
  }
  if (peek(p) == '.') {
    p->pos++;
    if (!digits(p)) {
      fail(p, "a number without digits after its point");
      return NULL;
    }
  }
  if (peek(p) == 'e' || peek(p) == 'E') {
    p->pos++;
    if (peek(p) == '+' || peek(p) == '-') p->pos++;
    if (!digits(p)) {
      fail(p, "a number without digits in its exponent");
      return NULL;
    }
  }
  pq_json *v = new_value(p, PQ_JSON_NUMBER);
  if (!v || !charge(p, p->pos - start + 1)) {
    free(v);
    return NULL;
  }
  v->length = p->pos - start;
  v->string = pq_malloc(v->length + 1);
  memcpy(v->string, p->text + start, v->length);
  v->string[v->length] = '\0';
  return v;
}

static pq_json *parse_value(parser *p, int depth) {
  skip_space(p);
  if (p->pos >= p->len) {
    fail(p, "unexpected end of input");
    return NULL;
  }
  if (depth >= MAX_DEPTH) {
    fail(p, "nesting deeper than 64 levels");
    return NULL;
  }
  char c = p->text[p->pos];
  if (c == '{' || c == '[') return parse_container(p, depth);
  if (c == '"') {
    size_t n;
    char *s = parse_string(p, &n);
    if (!s) return NULL;
    pq_json *v = new_value(p, PQ_JSON_STRING);
    if (!v) {
      drop(p, s);
      return NULL;
    }
    v->string = s;
    v->length = n;
    return v;
  }
  static const char *const words[] = {"null", "false", "true"};
  for (int i = 0; i < 3; i++) {
    size_t n = strlen(words[i]);
    if (p->len - p->pos >= n && !memcmp(p->text + p->pos, words[i], n)) {
      p->pos += n;
      return new_value(p, (pq_json_type)i);
    }
  }
  return parse_number(p);
}

static pq_json *parse(parser *p) {
  p->err[0] = '\0';
  pq_json *v = parse_value(p, 0);
  if (v) {
    skip_space(p);
    if (p->pos != p->len) {
      fail(p, "trailing characters after the value");
      free_value(v, p->out != NULL);
      v = NULL;
    }
  }
  if (v)
    v->cost = p->cost;
  else
    atomic_fetch_sub(&held, p->cost);
  return v;
}

pq_json *pq_json_parse(const char *text, size_t len, char *err) {
  parser p = {.text = text, .len = len, .err = err};
  return parse(&p);
}

pq_json *pq_json_parse_owned(char *text, size_t len, char *err) {
  parser p = {.text = text, .out = text, .len = len, .err = err};
  pq_json *v = parse(&p);
  if (v)
    v->text = text;
  else
    free(text);
  return v;
}

/* Frees v and what it holds; borrowed: its strings and keys lie in the document's text. */
static void free_value(pq_json *v, bool borrowed) {
  if (!v) return;
  for (size_t i = 0; i < v->length && v->items; i++) {
    free_value(v->items[i], borrowed);
    if (v->keys && !borrowed) free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  if (!borrowed || v->type == PQ_JSON_NUMBER) free(v->string);
  free(v);
}

void pq_json_free(pq_json *v) {
  if (!v) return;
  atomic_fetch_sub(&held, v->cost);
  char *text = v->text;
  free_value(v, text != NULL);
  free(text);
}

/* Member key of object v, or NULL; not marked asked. */
static pq_json *find(const pq_json *v, const char *key) {
  if (!v || v->type != PQ_JSON_OBJECT) return NULL;
  for (size_t i = 0; i < v->length; i++)
    if (!strcmp(v->keys[i], key)) return v->items[i];
  return NULL;
}

/* m when it is there and of the type wanted (typed), marked asked; else NULL. A typed getter
   takes a member of another type for none, so nothing reads it (a checker that reads a witness
   as a string never checks a number there). */
static const pq_json *ask(pq_json *m, bool typed) {
  if (!m || !typed) return NULL;
  atomic_store_explicit(&m->asked, true, memory_order_relaxed);
  return m;
}

const pq_json *pq_json_get(const pq_json *v, const char *key) {
  pq_json *m = find(v, key);
  return ask(m, true);
}

const pq_json *pq_json_peek(const pq_json *v, const char *key) { return find(v, key); }

const char *pq_json_get_string(const pq_json *v, const char *key) {
  pq_json *m = find(v, key);
  return ask(m, m && m->type == PQ_JSON_STRING) ? m->string : NULL;
}

int pq_json_count(const pq_json *v, pq_count *out) {
  if (!v || v->type != PQ_JSON_NUMBER) return -1;
  const char *s = v->string;
  if (!*s || (s[0] == '0' && s[1])) return -1;
  pq_count c = 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return -1;
    pq_count digit = (pq_count)(*s - '0');
    if (c > (PQ_COUNT_MAX - digit) / 10) return -1;
    c = c * 10 + digit;
  }
  *out = c;
  return 0;
}

int pq_json_get_bool(const pq_json *v, const char *key) {
  pq_json *m = find(v, key);
  if (!ask(m, m && (m->type == PQ_JSON_TRUE || m->type == PQ_JSON_FALSE))) return -1;
  return m->type == PQ_JSON_TRUE;
}

int pq_json_get_long(const pq_json *v, const char *key, long min, long max, long *out) {
  pq_json *m = find(v, key);
  if (!ask(m, m && m->type == PQ_JSON_NUMBER)) return -1;
  return pq_parse_long(m->string, min, max, out);
}

void pq_json_write_string(FILE *out, const char *s) {
  fputc('"', out);
  /* Runs of characters that need no escape are written whole: a part's text in a checkpoint can
     be hundreds of megabytes. */
  while (*s) {
    size_t plain = 0;
    while (s[plain] && s[plain] != '"' && s[plain] != '\\' && (unsigned char)s[plain] >= 0x20)
      plain++;
    fwrite(s, 1, plain, out);
    s += plain;
    if (!*s) break;
    unsigned char c = (unsigned char)*s++;
    if (c == '"' || c == '\\')
      fprintf(out, "\\%c", c);
    else
      fprintf(out, "\\u%04x", c);
  }
  fputc('"', out);
}
