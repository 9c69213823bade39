/* fuzz_options.c: libFuzzer target for pq_options_parse and pq_option_long (command lines).
   Input: a byte choosing the problem (in the registry's order), then the arguments separated by
   NUL bytes. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>

#include "../../src/cli/options.h"
#include "../../src/cli/problem.h"
#include "fuzz.h"

#define MAX_ARGS 64

/* The option table, read independently of options.c: name, whether it takes a value, problems,
   and where its field is. */
typedef struct row {
  const char *name;
  bool value;
  const char *problems;
  size_t offset;
} row;
static const row table[] = {
#define ROW(field, name, arg, problems, help)                                                      \
  {name, arg != NULL, problems, offsetof(pq_options, field)},
    PQ_OPTIONS(ROW)
#undef ROW
};
enum { NTABLE = sizeof table / sizeof table[0] };

static const char **field_of(pq_options *o, size_t offset) {
  return (const char **)((char *)o + offset);
}

/* The documented behaviour: --name value, --name=value, flags without a value, at most
   max_operands positional arguments (not starting with '-', but for "-" alone, standard
   input); an option with a value given once (a flag may repeat). Returns 0 with *o filled
   (operands in the array given), or -1. */
static int reference(pq_options *o, const char **operands, char problem, int max_operands, int argc,
                     char **argv) {
  o->operands = operands;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-' || a[1] != '-' || !a[2]) {
      if (o->noperands >= max_operands || (a[0] == '-' && a[1])) return -1;
      operands[o->noperands++] = a;
      continue;
    }
    const char *name = a + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    const row *r = NULL;
    for (int k = 0; k < NTABLE; k++)
      if (strlen(table[k].name) == len && !memcmp(table[k].name, name, len) &&
          strchr(table[k].problems, problem))
        r = &table[k];
    if (!r) return -1;
    if (r->value && *field_of(o, r->offset)) return -1; /* a value given twice */
    if (!r->value) {
      if (eq) return -1;
      *field_of(o, r->offset) = r->name;
    } else if (eq) {
      *field_of(o, r->offset) = eq + 1;
    } else if (i + 1 < argc) {
      *field_of(o, r->offset) = argv[++i];
    } else {
      return -1;
    }
  }
  return 0;
}

/* A whole number as the documentation has it: decimal digits, with a '-' first only where the
   range has numbers below 0, nothing before or after, within [min, max]. */
static bool whole(const char *t, long min, long max, long *v) {
  if (!t || !*t || (t[0] == '-' && min >= 0)) return false;
  for (const char *c = t[0] == '-' ? t + 1 : t; *c; c++)
    if (!isdigit((unsigned char)*c)) return false;
  char *end;
  errno = 0;
  *v = strtol(t, &end, 10);
  return !errno && !*end && end != t && *v >= min && *v <= max;
}

/* A decimal number above 0, at most most: digits, '.', 'e' and signs alone. */
static bool decimal_ok(const char *t, double most) {
  char *end;
  errno = 0;
  double v = strtod(t, &end);
  return end != t && !*end && !errno && v > 0 && v <= most && !t[strspn(t, "0123456789.eE+-")];
}

/* A board side: one or two digits, 1 to 32. */
static bool side_ok(const char *t, size_t len) {
  if (len < 1 || len > 2) return false;
  int v = 0;
  for (size_t i = 0; i < len; i++) {
    if (!isdigit((unsigned char)t[i])) return false;
    v = v * 10 + t[i] - '0';
  }
  return v >= 1 && v <= 32;
}

/* --board N or WxH (x either case). */
static bool board_ok(const char *t) {
  const char *x = strchr(t, 'x');
  if (!x) x = strchr(t, 'X');
  return x ? side_ok(t, (size_t)(x - t)) && side_ok(x + 1, strlen(x + 1)) : side_ok(t, strlen(t));
}

/* --table A..B (1 <= A <= B <= 32) or N (1..N). */
static bool table_ok(const char *t) {
  const char *dots = strstr(t, "..");
  long a, b;
  char first[24];
  if (!dots) return whole(t, 1, 32, &b);
  if ((size_t)(dots - t) >= sizeof first) return false;
  memcpy(first, t, (size_t)(dots - t));
  first[dots - t] = '\0';
  return whole(first, 1, 32, &a) && whole(dots + 2, 1, 32, &b) && a <= b;
}

static bool one_of(const char *t, const char *const *names, int n) {
  for (int i = 0; i < n; i++)
    if (!strcmp(t, names[i])) return true;
  return false;
}

/* The values (options.h, o->v), by the manual's rules: --jobs 1 to 256, --node-limit from 1,
   --time-limit a decimal number above 0 (up to 1e9; digits, '.', 'e', signs), --part I/N with
   1 <= I <= N <= 2^30; --board N or WxH, sides 1 to 32; --piece one of K Q R B N (either case);
   --size and --white 0 to 1024; --colours 2 to 15; --table A..B or N within 1..32; --format
   text, bfile or csv, with --table and not with --json; --limit from 1; --method search, ilp or
   race; --seed and --local-moves from 0; --sample a percentage above 0, at most 100. */
static bool shared_values_ok(const pq_options *o) {
  static const char *const formats[] = {"text", "bfile", "csv"}, *const methods[] = {"search",
                                                                                     "ilp", "race"};
  long v, i, n;
  if (o->format && (o->json || !o->table || !one_of(o->format, formats, 3))) return false;
  if (o->jobs && !whole(o->jobs, 1, 256, &v)) return false;
  if (o->node_limit && !whole(o->node_limit, 1, LONG_MAX, &v)) return false;
  if (o->time_limit && !decimal_ok(o->time_limit, 1e9)) return false;
  if (o->board && !board_ok(o->board)) return false;
  if (o->piece && (strlen(o->piece) != 1 || !o->piece[0] || !strchr("KQRBNkqrbn", o->piece[0])))
    return false;
  if ((o->size && !whole(o->size, 0, 1024, &v)) || (o->white && !whole(o->white, 0, 1024, &v)) ||
      (o->colours && !whole(o->colours, 2, 15, &v)) || (o->table && !table_ok(o->table)) ||
      (o->limit && !whole(o->limit, 1, LONG_MAX, &v)) ||
      (o->method && !one_of(o->method, methods, 3)) ||
      (o->seed && !whole(o->seed, 0, LONG_MAX, &v)) ||
      (o->local_moves && !whole(o->local_moves, 0, LONG_MAX, &v)) ||
      (o->sample && !decimal_ok(o->sample, 100)))
    return false;
  if (o->part) {
    const char *slash = strchr(o->part, '/');
    char first[16];
    if (!slash || (size_t)(slash - o->part) >= sizeof first) return false;
    memcpy(first, o->part, (size_t)(slash - o->part));
    first[slash - o->part] = '\0';
    if (!whole(first, 1, 1L << 30, &i) || !whole(slash + 1, 1, 1L << 30, &n) || i > n) return false;
  }
  return true;
}

/* pq_option_long on one value: in range when accepted, one message when refused. */
static void check_long(const char *text, long min, long max) {
  long v = -12345;
  fuzz_capture c;
  fuzz_capture_begin(&c);
  pq_status rc = pq_option_long("x", text, min, max, 7, &v);
  fuzz_capture_end(&c);
  fuzz_check_parser("pq_option_long", rc, &c);
  if (rc == PQ_OK) {
    if (!text && v != 7) fuzz_fail("pq_option_long: no text gave %ld, not the fallback", v);
    if (text) {
      char *end;
      errno = 0;
      long want = strtol(text, &end, 10);
      if (v < min || v > max || v != want || *end || errno)
        fuzz_fail("pq_option_long \"%s\" in [%ld, %ld]: accepted as %ld", text, min, max, v);
    }
  }
  fuzz_capture_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  int nproblems = 0;
  while (pq_problems[nproblems])
    nproblems++;
  const pq_problem *problem = pq_problems[data[0] % nproblems];
  size_t n = size - 1; /* the arguments: the bytes after the first, split at NUL bytes */
  char *text = malloc(n + 1);
  if (!text) fuzz_fail("out of memory");
  memcpy(text, data + 1, n);
  text[n] = '\0';
  char *argv[MAX_ARGS + 3] = {"peaceable", (char *)problem->name};
  int argc = 2;
  for (char *p = text; n && p <= text + n && argc < MAX_ARGS + 2; p += strlen(p) + 1)
    argv[argc++] = p;
  argv[argc] = NULL;

  pq_options o = {0}, want = {0};
  const char *operands[MAX_ARGS + 3] = {0};
  o.problem = want.problem = problem->name;
  fuzz_capture c;
  fuzz_capture_begin(&c);
  pq_status rc = pq_options_parse(&o, problem->letter, problem->max_operands, argc, argv, 2);
  fuzz_capture_end(&c);
  fuzz_check_parser("pq_options_parse", rc, &c);
  int ref = reference(&want, operands, problem->letter, problem->max_operands, argc, argv);
  if (ref == 0 && !shared_values_ok(&want)) ref = -1;
  if ((rc == PQ_OK) != (ref == 0))
    fuzz_fail("options (%d arguments for %s): %s, but the table says %s", argc - 2, problem->name,
              rc == PQ_OK ? "accepted" : "refused", ref == 0 ? "valid" : "invalid");
  if (rc == PQ_OK) {
    if (o.noperands != want.noperands)
      fuzz_fail("options: %d operands, expected %d", o.noperands, want.noperands);
    for (int i = 0; i < o.noperands; i++)
      if (o.operands[i] != want.operands[i]) fuzz_fail("options: operand %d differs", i);
    for (int k = 0; k < NTABLE; k++) {
      const char *got = *field_of(&o, table[k].offset), *exp = *field_of(&want, table[k].offset);
      if (got != exp && (!got || !exp || strcmp(got, exp)))
        fuzz_fail("options: --%s is \"%s\", expected \"%s\"", table[k].name, got ? got : "(none)",
                  exp ? exp : "(none)");
      if (table[k].value) {
        check_long(got, 1, 1000);
        check_long(got, -5, 0x7fffffffffffffffL);
      }
    }
  }
  pq_options_free(&o);
  fuzz_capture_free(&c);
  free(text);
  return 0;
}
