/* util.h: status codes, error reporting, checked allocation and 128-bit counts. */
#ifndef PQ_UTIL_H
#define PQ_UTIL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Outcomes of library calls. main() alone maps them to exit codes (doc/peaceable.1). */
typedef enum pq_status {
  PQ_OK = 0,     /* done */
  PQ_EFALSE = 1, /* a checked claim is false (verify) */
  PQ_EINVAL = 2, /* bad input or usage; a message was printed */
  PQ_ELIMIT = 3, /* a time or node limit stopped the run before a conclusion */
  PQ_EIO = 4,    /* a file could not be read or written; a message was printed */
  PQ_EINTR = 130 /* interrupted by SIGINT or SIGTERM */
} pq_status;

/* Set to nonzero (by the command line's SIGINT and SIGTERM handler) to stop every running search,
   integer program and check with PQ_EINTR. */
extern volatile sig_atomic_t pq_interrupted;

/* The exit code of the command line for status s. */
int pq_status_exit_code(pq_status s);

/* Replaces control characters (newlines, tabs, escapes) by '?', so that a message quoting
   untrusted input stays one line. */
void pq_one_line(char *s);

/* Prints "peaceable: COMMAND: MESSAGE" and a newline on stderr, MESSAGE cut at 8191 bytes and
   made one line by pq_one_line; COMMAND is pq_error_command (none when NULL), left out when
   MESSAGE begins with it or with one of pq_error_words (NULL-terminated) and a colon. */
void pq_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Whether a stop (a signal, the time limit) was said already: the first call says false, every
   later one true. Files read and checked on several threads so say their stop once. */
bool pq_stop_said(void);

/* Set once by the command line: the command running, and the names a message may begin with
   instead (every command's). */
extern const char *pq_error_command;
extern const char *const *pq_error_words;

/* Bugs and misuse: print file:line and the message, then abort. */
#define PQ_REQUIRE(cond, ...)                                                                      \
  do {                                                                                             \
    if (!(cond)) pq_fatal(__FILE__, __LINE__, __VA_ARGS__);                                        \
  } while (0)
_Noreturn void pq_fatal(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Allocation that never returns NULL: on failure prints the size and aborts. */
void *pq_malloc(size_t size);
void *pq_calloc(size_t count, size_t size);
void *pq_realloc(void *ptr, size_t size);
char *pq_strdup(const char *s);

/* Counts of placements may exceed 2^64: they are 128-bit, and adding checks overflow. */
typedef unsigned __int128 pq_count;
#define PQ_COUNT_MAX (~(pq_count)0)

/* Writes the decimal form of c into buf (at least 40 bytes); returns buf. */
char *pq_count_str(pq_count c, char *buf);

/* "s" after a number written in digits other than "1", else "": "1 placement", "2 placements". */
const char *pq_plural(const char *number);

/* The noun for n of it: one when n is 1, else many ("1 cube", "2 cubes"; "1 leaf", "2 leaves"). */
const char *pq_noun(long n, const char *one, const char *many);

/* Why a run stopped, as the stop messages of counts and listings say it ("counting on 8x8 "
   WHY ": no total"): "interrupted" (PQ_EINTR), "stopped by a checkpoint it could not write"
   (PQ_EIO), "stopped by a limit" (else). */
const char *pq_stopped_by(pq_status rc);
/* The same as the subject of a message ("COMMAND: " CAUSE " before the proof ..."):
   "interrupted", "a checkpoint that could not be written stopped the run", "a limit stopped the
   run". */
const char *pq_stop_cause(pq_status rc);

/* *acc += add; returns 0, or -1 (and leaves *acc saturated at PQ_COUNT_MAX) on overflow. */
int pq_count_add(pq_count *acc, pq_count add);

/* Parses a whole decimal integer in [min, max] from s; returns 0 or -1 (no message). */
int pq_parse_long(const char *s, long min, long max, long *out);

/* Whether two paths name one regular file ("-": standard input, --resume - < FILE); for paths
   not there yet, whether they are one name once their directories are resolved. */
bool pq_same_file(const char *a, const char *b);

/* The file a write that replaces path replaces (pq_write_atomic): path, or the file a symbolic
   link leads to (the link stays, as a plain write through it would leave it; a link to a file not
   there yet leads to where it would be); NULL with errno when that cannot be found (ELOOP: a loop
   of links). Caller frees. */
char *pq_write_target(const char *path);

/* Writes a file atomically: write(out, ctx) fills a temporary file beside path, which then
   replaces path. Returns PQ_OK, or PQ_EIO with a message naming path (the temporary file is
   removed). */
pq_status pq_write_atomic(const char *path, void (*write)(FILE *out, void *ctx), void *ctx);
/* pq_write_atomic of the len bytes of text. */
pq_status pq_write_text_atomic(const char *path, const char *text, size_t len);

/* Whether path names a file written gzip-compressed: its name ends in ".gz". */
bool pq_gzip_name(const char *path);

/* An output's name in messages: path, or "standard output (-)" for "-". A write that fails says
   "NAME: cannot write: REASON" for every file. */
const char *pq_output_name(const char *path);

/* Called by a write function of pq_write_atomic that cannot give its whole content (a proof's
   temporary file cannot be read back), after its message: the file is then not written. */
void pq_write_fail(void);

/* Checks, before a long run, that the file path given to option --option can be written when
   the run ends: path is a name, not a directory, and the file the write creates can be created:
   with atomic (pq_write_atomic), the temporary file beside path, and path must be a regular file
   if it exists (it is replaced); otherwise path itself (opened for writing, so a device such as
   /dev/stdout will do). The probe is created and removed at once, and a file already there is
   opened, not truncated: path itself is neither created nor changed, so an existing file, such
   as a checkpoint also given to --resume, survives. Returns PQ_OK, or PQ_EIO with a message
   naming the option and path. */
pq_status pq_output_probe(const char *option, const char *path, bool atomic);

/* Outputs go nowhere (peaceable-mpi's ranks other than 0, which follow rank 0's run): probes
   pass, pq_write_atomic and pq_open_output write nothing to a file. */
extern bool pq_discard_outputs;

/* path opened for writing ("w"): standard output for "-" (on a descriptor of its own, to be
   closed), /dev/null with pq_discard_outputs; NULL with errno. pq_write_atomic and
   pq_output_probe take "-" too. */
FILE *pq_open_output(const char *path);

/* Where a file written to "-" goes: the descriptor standard output had when the command started,
   once pq_take_stdout has moved the results to standard error; -1 (standard output itself)
   before. */
extern int pq_data_fd;

/* Gives standard output to the one file written to "-" (a certificate, a picture, a model):
   keeps its descriptor in pq_data_fd and points standard output at standard error, so that the
   results and that file do not mix. Returns 0, or -1 with errno. */
int pq_take_stdout(void);

/* splitmix64: a small, well-mixed generator for the local searches; its whole state is the
   seed, so runs repeat. pq_random_below: a uniform number below n (n small: the modulo's bias is
   negligible). */
static inline uint64_t pq_splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}
static inline int pq_random_below(uint64_t *state, int n) {
  return (int)((pq_splitmix64(state) >> 11) % (uint64_t)n);
}

/* FNV-1a, 64 bits: the one hash of the program, for the fingerprints of splits and instances and
   the digests of checkpoints and part results (not cryptographic: it catches damage and edits
   made without recomputing it). pq_fnv takes one 64-bit word at a step, pq_fnv_bytes bytes. */
#define PQ_FNV_BASIS UINT64_C(14695981039346656037)
static inline uint64_t pq_fnv(uint64_t h, uint64_t word) {
  return (h ^ word) * UINT64_C(1099511628211);
}
uint64_t pq_fnv_bytes(uint64_t h, const void *bytes, size_t len);

/* The newlines of text[0..len-1] (text may be NULL when len is 0). */
uint64_t pq_newlines(const char *text, size_t len);

/* The number of cores online (at least 1): the default for --jobs. */
int pq_cores(void);

/* The machine's physical memory in bytes (0 when it cannot be told). */
uint64_t pq_memory_bytes(void);

/* Seconds since an arbitrary fixed point (monotonic clock). */
double pq_now(void);

/* A seed from the clock, in nanoseconds (two runs in one second get two seeds), 0 to 2^63 - 1:
   the default --seed of what draws at random (chess960 --random, verify --sample). */
long pq_clock_seed(void);

/* open_memstream(text, len), aborting when it fails (out of memory): the caller fcloses it, then
   owns *text. */
FILE *pq_memstream(char **text, size_t *len);

/* Every thread of the program starts here: pq_threads_start runs fn(args + i * size) on n new
   threads, i = 0..n-1 (size 0: all get args), and pq_threads_join(t) waits for them all and frees
   t (NULL: nothing to wait for). Failing to start one aborts. */
typedef struct pq_threads pq_threads;
pq_threads *pq_threads_start(int n, void *(*fn)(void *), void *args, size_t size);
void pq_threads_join(pq_threads *t);

#endif
