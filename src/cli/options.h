/* options.h: the command-line options; one table makes the struct, the parser and --help. */
#ifndef PQ_OPTIONS_H
#define PQ_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/board.h"
#include "../core/util.h"
#include "../run/engine.h"
#include "../run/outer.h"

/* X(field, name, value placeholder or NULL for a flag, problems it applies to, help).
   Problems: a armies, q qn, p pieces, c chess960, v verify, m merge. Each value is kept as the
   text given (NULL when absent), and every value whose meaning is the same in each command is
   also parsed once, into pq_options.v; a problem parses only what is its own (--pieces, --kinds,
   --ratio, --number, --position). An option naming a file the program writes is also listed in
   cli.c's `outputs`, checked before the run. */
#define PQ_OPTIONS(X)                                                                              \
  X(board, "board", "N|WxH", "aqp", "board side N, or WIDTH columns x HEIGHT rows (default 8)")    \
  X(pieces, "pieces", "SPEC", "p", "pieces to place, e.g. K2Q2B2N1 (letters K Q R B N)")           \
  X(piece, "piece", "P", "a", "the army piece: Q (default), K, R, B or N")                         \
  X(kinds, "kinds", "XY", "q", "the two kinds, equal in number (default QN)")                      \
  X(ratio, "ratio", "A:B", "q", "A pieces of the first kind for every B of the second")            \
  X(size, "size", "K", "aq", "decide size K: a witness, or a proof that there is none")            \
  X(white, "white", "W", "a", "the largest black army facing W white pieces")                      \
  X(aggressor, "aggressor", NULL, "a",                                                             \
    "the maximum M of equal armies, then the largest black army facing M white")                   \
  X(colours, "colours", "C", "a", "armies of C colours, each as large (default 2)")                \
  X(table, "table", "A..B", "aq", "one line per board side from A to B")                           \
  X(format, "format", "F", "qa",                                                                   \
    "table format: text (default), bfile (OEIS b-file: n a(n)) or csv")                            \
  X(count, "count", NULL, "pcaq", "count the placements")                                          \
  X(list, "list", NULL, "paq", "print every placement, one per line")                              \
  X(unique, "unique", NULL, "paq", "also count (or list) up to the board's symmetries")            \
  X(limit, "limit", "N", "aqp", "list at most N placements (all of them when there are N)")        \
  X(svg, "svg", "FILE", "paq",                                                                     \
    "draw the witness, or with --list the first placements, in FILE (SVG)")                        \
  X(method, "method", "M", "aq", "prove by search, ilp or race (default: race with 2+ jobs)")      \
  X(cert, "cert", "FILE", "amq", "write a certificate of the answer to FILE")                      \
  X(export_lp, "export-lp", "FILE", "a",                                                           \
    "write the integer program of --size, or of one above the maximum (CPLEX LP)")                 \
  X(export_mps, "export-mps", "FILE", "a",                                                         \
    "write the integer program of --size, or of one above the maximum (MPS)")                      \
  X(sample, "sample", "P", "v", "check a random P% of the proof's leaves (an audit: exit 3)")      \
  X(all, "all", NULL, "c", "every rank in number order")                                           \
  X(number, "number", "N", "c", "the rank numbered N (0..959)")                                    \
  X(position, "position", "RANK", "c", "the number of RANK, e.g. RNBQKBNR")                        \
  X(random, "random", NULL, "c", "a random rank")                                                  \
  X(seed, "seed", "S", "cva", "seed of the random choices")                                        \
  X(local_moves, "local-moves", "N", "a",                                                          \
    "moves of the local search for a starting army (default: by board size; 0: none)")             \
  X(diagram, "diagram", NULL, "c", "print the full starting position as a diagram and FEN")        \
  X(part, "part", "I/N", "apq", "solve only part I of N; one JSON line for merge")                 \
  X(checkpoint, "checkpoint", "FILE", "apq",                                                       \
    "save finished parts to FILE (atomically) as the run goes (--table: FILE.n a board)")          \
  X(resume, "resume", "FILE", "apq", "continue from a checkpoint FILE (--table: each FILE.n)")     \
  X(jobs, "jobs", "N", "aqpvm", "threads to use (default: every core)")                            \
  X(time_limit, "time-limit", "SECONDS", "aqpvm", "stop after this many seconds (exit 3)")         \
  X(node_limit, "node-limit", "N", "aqp",                                                          \
    "stop after this many search nodes, or branch-and-bound nodes of ilp (exit 3)")                \
  X(json, "json", NULL, "pcavqm", "machine-readable output: one JSON object per line")             \
  X(quiet, "quiet", NULL, "paqcvm", "no progress or notes on stderr (messages about errors stay)")

typedef struct pq_options {
#define PQ_OPTION_FIELD(field, name, arg, problems, help) const char *field;
  PQ_OPTIONS(PQ_OPTION_FIELD)
#undef PQ_OPTION_FIELD
  /* The values, parsed once by pq_options_parse: one meaning, one default and one message for
     each name, whatever the command (a command may narrow a range, with its own message). */
  struct {
    int jobs;            /* --jobs N: threads (default every core) */
    uint64_t node_limit; /* --node-limit N; 0: none */
    double time_limit;   /* --time-limit SECONDS; 0: none */
    int part, parts;     /* --part I/N; parts 0: the whole run */
    int width, height;   /* --board N or WxH (default 8x8) */
    int piece;           /* --piece P: a pq_piece (default PQ_QUEEN) */
    long size;           /* --size K, 0 to PQ_MAX_SQUARES; -1: none */
    long white;          /* --white W, 0 to PQ_MAX_SQUARES; -1: none */
    long colours;        /* --colours C, 2 to PQ_MAX_COLOURS (default 2) */
    int from, to;        /* --table A..B, 1 to PQ_MAX_SIDE; 0 0: none */
    pq_format format;    /* --format (default text) */
    long limit;          /* --limit N; 0: none */
    pq_method method;    /* --method (default: race with 2 or more jobs, else search) */
    long seed;           /* --seed S, 0 or more; -1: none (the command's default) */
    long local_moves;    /* --local-moves N; -1: by board size */
    double sample;       /* --sample P as a fraction above 0, at most 1; 0: none */
  } v;
  const char *problem;   /* the problem's name */
  const char **operands; /* positional arguments (FILE for verify, FILES for merge) */
  int noperands;
} pq_options;

/* True when a flag option was given (its field is then the option's name). */
#define PQ_FLAG(o, field) ((o)->field != NULL)

/* Parses argv[first..argc-1] into o (all fields NULL first) for the problem whose letter is
   given. Accepts --name value, --name=value, and at most max_operands positional arguments
   (o->operands, freed by pq_options_free); then the shared values (o->v). Returns PQ_OK, or
   PQ_EINVAL with one line on stderr naming the bad option or value. */
pq_status pq_options_parse(pq_options *o, char problem, int max_operands, int argc, char **argv,
                           int first);

/* Every value of o's texts into o->v, each with its default (pq_options_parse ends with it; for a
   caller that fills the texts itself). PQ_OK, or PQ_EINVAL with one message at the first bad one.
 */
pq_status pq_options_values(pq_options *o);

/* The engine's limits from the shared values and the files: --jobs, --node-limit, the deadline
   (--time-limit from now), --checkpoint, --resume and --part; no progress. */
pq_engine_limits pq_options_limits(const pq_options *o);

/* Frees what pq_options_parse allocated. */
void pq_options_free(pq_options *o);

/* Prints the options of problem `problem` with their help, one per line. */
void pq_options_help(FILE *out, char problem);

/* Parses an optional whole number option: returns PQ_OK with *out = fallback when text is NULL,
   or PQ_EINVAL with a message naming the option when it is not a number in [min, max]. */
pq_status pq_option_long(const char *name, const char *text, long min, long max, long fallback,
                         long *out);

/* Parses an optional duration in seconds (a decimal number above 0, fractions allowed):
   PQ_OK with *out (0 when text is NULL), or PQ_EINVAL with a message naming the option. */
pq_status pq_option_seconds(const char *name, const char *text, double *out);

/* Parses "A..B" (min <= A <= B <= max), or "N" for min..N, for option --name: PQ_OK, or
   PQ_EINVAL with a message naming the option and text. */
pq_status pq_option_range(const char *name, const char *text, int min, int max, int *from, int *to);

/* Parses --part "I/N" (1 <= I <= N <= 2^30): PQ_OK, or PQ_EINVAL with a message. */
pq_status pq_option_part(const char *text, int *part, int *parts);

#endif
