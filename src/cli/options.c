/* options.c: the command-line options; one table makes the struct, the parser and --help. */
#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct option_row {
  const char *name, *arg, *problems, *help;
  size_t offset;
} option_row;

static const option_row rows[] = {
#define PQ_OPTION_ROW(field, name, arg, problems, help)                                            \
  {name, arg, problems, help, offsetof(pq_options, field)},
    PQ_OPTIONS(PQ_OPTION_ROW)
#undef PQ_OPTION_ROW
};
enum { NROWS = sizeof rows / sizeof rows[0] };

static const option_row *find(const char *name, size_t len, char problem) {
  for (int i = 0; i < NROWS; i++)
    if (strlen(rows[i].name) == len && !strncmp(rows[i].name, name, len) &&
        strchr(rows[i].problems, problem))
      return &rows[i];
  return NULL;
}

/* --piece P: one of the letters K Q R B N (either case), or NULL for the queen. */
static pq_status parse_piece(const char *text, int *out) {
  *out = !text ? PQ_QUEEN : strlen(text) == 1 ? pq_piece_from_letter((unsigned char)text[0]) : -1;
  if (*out >= 0) return PQ_OK;
  pq_error("--piece \"%s\": expected one of K Q R B N", text);
  return PQ_EINVAL;
}

/* --format F: text, bfile or csv, or NULL for text. */
static pq_status parse_format(const char *text, pq_format *out) {
  static const char *const names[] = {"text", "bfile", "csv"};
  *out = PQ_FORMAT_TEXT;
  if (!text) return PQ_OK;
  for (int f = PQ_FORMAT_TEXT; f <= PQ_FORMAT_CSV; f++)
    if (!strcmp(text, names[f])) {
      *out = (pq_format)f;
      return PQ_OK;
    }
  pq_error("--format \"%s\": expected text, bfile or csv", text);
  return PQ_EINVAL;
}

/* Whether text is a decimal number above 0, at most most (into *out): decimal only, as every
   number (strtod also reads "0x10" as 16, " 50", "inf" and "nan"). */
static bool decimal(const char *text, double most, double *out) {
  char *end;
  errno = 0;
  *out = strtod(text, &end);
  return end != text && !*end && !errno && *out > 0 && *out <= most &&
         !text[strspn(text, "0123456789.eE+-")];
}

/* --sample P: a percentage above 0, at most 100, kept as a fraction (0 when text is NULL). */
static pq_status parse_sample(const char *text, double *out) {
  *out = 0;
  if (!text) return PQ_OK;
  double percent;
  if (!decimal(text, 100, &percent)) {
    pq_error("--sample \"%s\": expected a percentage above 0, at most 100", text);
    return PQ_EINVAL;
  }
  *out = percent / 100;
  return PQ_OK;
}

pq_status pq_options_values(pq_options *o) {
  long jobs, nodes;
  o->v.width = o->v.height = 8;
  if (pq_option_long("jobs", o->jobs, 1, 256, pq_cores(), &jobs) ||
      pq_option_long("node-limit", o->node_limit, 1, LONG_MAX, 0, &nodes) ||
      pq_option_seconds("time-limit", o->time_limit, &o->v.time_limit) ||
      (o->part && pq_option_part(o->part, &o->v.part, &o->v.parts)) ||
      (o->board && pq_board_parse("--board", o->board, &o->v.width, &o->v.height)) ||
      parse_piece(o->piece, &o->v.piece) ||
      pq_option_long("size", o->size, 0, PQ_MAX_SQUARES, -1, &o->v.size) ||
      pq_option_long("white", o->white, 0, PQ_MAX_SQUARES, -1, &o->v.white) ||
      pq_option_long("colours", o->colours, 2, PQ_MAX_COLOURS, 2, &o->v.colours) ||
      (o->table && pq_option_range("table", o->table, 1, PQ_MAX_SIDE, &o->v.from, &o->v.to)) ||
      parse_format(o->format, &o->v.format) ||
      pq_option_long("limit", o->limit, 1, LONG_MAX, 0, &o->v.limit) ||
      pq_method_parse(o->method, jobs, &o->v.method) ||
      pq_option_long("seed", o->seed, 0, LONG_MAX, -1, &o->v.seed) ||
      pq_option_long("local-moves", o->local_moves, 0, LONG_MAX, -1, &o->v.local_moves) ||
      parse_sample(o->sample, &o->v.sample))
    return PQ_EINVAL;
  o->v.jobs = (int)jobs;
  o->v.node_limit = (uint64_t)nodes;
  return PQ_OK;
}

pq_status pq_options_parse(pq_options *o, char problem, int max_operands, int argc, char **argv,
                           int first) {
  o->operands = pq_calloc((size_t)argc + 1, sizeof *o->operands);
  for (int i = first; i < argc; i++) {
    const char *a = argv[i];
    if (strncmp(a, "--", 2) || !a[2]) {
      /* "-" alone names standard input. */
      if (o->noperands < max_operands && (a[0] != '-' || !strcmp(a, "-"))) {
        o->operands[o->noperands++] = a;
        continue;
      }
      pq_error("%s: unexpected argument \"%s\" (see 'peaceable %s --help')", o->problem, a,
               o->problem);
      return PQ_EINVAL;
    }
    const char *name = a + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    const option_row *row = find(name, len, problem);
    if (!row) {
      pq_error("%s: unknown option \"--%.*s\" (see 'peaceable %s --help')", o->problem, (int)len,
               name, o->problem);
      return PQ_EINVAL;
    }
    const char **field = (const char **)((char *)o + row->offset);
    /* One value an option: a second one was taken silently, the first dropped. */
    if (row->arg && *field) {
      pq_error("%s: --%s given twice (\"%s\", then another): give it once", o->problem, row->name,
               *field);
      return PQ_EINVAL;
    }
    if (!row->arg) {
      if (eq) {
        pq_error("%s: option \"--%s\" takes no value", o->problem, row->name);
        return PQ_EINVAL;
      }
      *field = row->name;
    } else if (eq) {
      *field = eq + 1;
    } else if (i + 1 < argc) {
      *field = argv[++i];
    } else {
      pq_error("%s: option \"--%s\" needs a value %s", o->problem, row->name, row->arg);
      return PQ_EINVAL;
    }
  }
  if (o->format && o->json) {
    pq_error("%s: --format \"%s\" and --json: a table is printed in one or the other", o->problem,
             o->format);
    return PQ_EINVAL;
  }
  if (o->format && !o->table) {
    pq_error("%s: --format \"%s\" applies to --table only", o->problem, o->format);
    return PQ_EINVAL;
  }
  return pq_options_values(o);
}

pq_engine_limits pq_options_limits(const pq_options *o) {
  return (pq_engine_limits){.jobs = o->v.jobs,
                            .node_limit = o->v.node_limit,
                            .deadline = o->v.time_limit > 0 ? pq_now() + o->v.time_limit : 0,
                            .checkpoint = o->checkpoint,
                            .resume = o->resume,
                            .part = o->v.part,
                            .parts = o->v.parts};
}

void pq_options_free(pq_options *o) {
  free(o->operands);
  o->operands = NULL;
}

/* An option's help where one command gives it a meaning of its own (the option's one meaning,
   said for that command). */
static const struct {
  char problem;
  const char *name, *help;
} own_help[] = {
    {'a', "seed", "seed of the local search for a starting army (default 1)"},
    {'c', "seed", "seed of --random (default: from the clock, printed on stderr)"},
    {'v', "seed", "seed of --sample (default: from the clock, printed on stderr)"},
    {'p', "count", "count the placements (the default)"},
    {'c', "count", "the number of ranks"},
    {'p', "node-limit", "stop after this many search nodes (exit 3)"},
    {'q', "kinds", "the two kinds, in the numbers --ratio gives (default QN)"},
    {'a', "method",
     "prove by search, ilp or race (default: race with 2+ jobs; --count, --list "
     "and --aggressor search)"},
    {'p', "svg", "draw the first placements as an SVG picture in FILE"},
    {'p', "limit", "with --list, list at most N placements (with --svg, draw at most N)"},
    {'m', "cert",
     "write the certificate of the merged decision to FILE (of armies, from the files of a "
     "proof in parts, checked first)"},
};

void pq_options_help(FILE *out, char problem) {
  size_t own = 0; /* own_help's entries of problem that were used: all of them */
  for (int i = 0; i < NROWS; i++) {
    if (!strchr(rows[i].problems, problem)) continue;
    const char *help = rows[i].help;
    for (size_t k = 0; k < sizeof own_help / sizeof *own_help; k++)
      if (own_help[k].problem == problem && !strcmp(own_help[k].name, rows[i].name))
        help = own_help[k].help, own++;
    char left[64];
    snprintf(left, sizeof left, "--%s%s%s", rows[i].name, rows[i].arg ? " " : "",
             rows[i].arg ? rows[i].arg : "");
    fprintf(out, "  %-24s %s\n", left, help);
  }
  for (size_t k = 0; k < sizeof own_help / sizeof *own_help; k++)
    own -= own_help[k].problem == problem;
  PQ_REQUIRE(own == 0, "an entry of own_help names no option of its command");
}

pq_status pq_option_seconds(const char *name, const char *text, double *out) {
  *out = 0;
  if (!text) return PQ_OK;
  double v;
  if (!decimal(text, 1e9, &v)) {
    pq_error("--%s \"%s\": expected a decimal number of seconds above 0, at most 1e9", name, text);
    return PQ_EINVAL;
  }
  *out = v;
  return PQ_OK;
}

pq_status pq_option_range(const char *name, const char *text, int min, int max, int *from,
                          int *to) {
  const char *dots = strstr(text, "..");
  long a, b;
  char first[24];
  if (dots && (size_t)(dots - text) < sizeof first) {
    memcpy(first, text, (size_t)(dots - text));
    first[dots - text] = '\0';
    if (!pq_parse_long(first, min, max, &a) && !pq_parse_long(dots + 2, min, max, &b) && a <= b) {
      *from = (int)a;
      *to = (int)b;
      return PQ_OK;
    }
  } else if (!dots && !pq_parse_long(text, min, max, &a)) {
    *from = min;
    *to = (int)a;
    return PQ_OK;
  }
  pq_error("--%s \"%s\": expected A..B with %d <= A <= B <= %d, or N for %d..N", name, text, min,
           max, min);
  return PQ_EINVAL;
}

pq_status pq_option_long(const char *name, const char *text, long min, long max, long fallback,
                         long *out) {
  if (!text) {
    *out = fallback;
    return PQ_OK;
  }
  if (pq_parse_long(text, min, max, out)) {
    pq_error("--%s \"%s\": expected a whole number from %ld to %ld", name, text, min, max);
    return PQ_EINVAL;
  }
  return PQ_OK;
}

pq_status pq_option_part(const char *text, int *part, int *parts) {
  const char *slash = strchr(text, '/');
  char first[16];
  long i, n;
  if (slash && (size_t)(slash - text) < sizeof first) {
    memcpy(first, text, (size_t)(slash - text));
    first[slash - text] = '\0';
    if (!pq_parse_long(first, 1, 1 << 30, &i) && !pq_parse_long(slash + 1, 1, 1 << 30, &n) &&
        i <= n) {
      *part = (int)i;
      *parts = (int)n;
      return PQ_OK;
    }
  }
  pq_error("--part \"%s\": expected I/N with 1 <= I <= N <= 2^30", text);
  return PQ_EINVAL;
}
