/* check.h: the certificate checkers, a library of their own (libcheck.a). It links only the JSON
   reader and the utilities (libpqcore.a): nothing of the search, the config calculus, the
   symmetry tables or the integer programs, so that a checker shares no code with what it checks.
   The build proves it: tests/check_alone links the checkers with nothing else. */
#ifndef PQ_CHECK_H
#define PQ_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "../core/json.h"
#include "../core/util.h"

/* The largest board side a certificate may name (doc/certificate.md), and so its squares. */
#define PQ_CHECK_MAX_SIDE 32
#define PQ_CHECK_MAX_SQUARES (PQ_CHECK_MAX_SIDE * PQ_CHECK_MAX_SIDE)

/* What a checker concludes: invalid, valid, valid in the part of the proof a sample checked (no
   verdict), or incomplete: a proof in parts without one of them (no verdict either). */
typedef enum pq_verdict { PQ_INVALID, PQ_VALID, PQ_VALID_IN_SAMPLE, PQ_INCOMPLETE } pq_verdict;

/* One file of a proof in parts (doc/certificate.md, "Proofs in several files"), as its checker
   saw it: set when a check runs with pq_check_params.part. */
typedef struct pq_check_part {
  pq_verdict verdict; /* the verdict the file alone would get, holes taken as proven */
  char message[512];  /* its message, as pq_check_report would print it */
  long leaves;        /* the leaves it checked */
  /* A whole certificate's check found it invalid at a hole or a marked part (not in a count):
     the file is one of a proof in parts, given alone (pq_check_file then checks it as one). */
  bool in_parts;
} pq_check_part;

/* How a check runs, as `peaceable verify` sets it from its options. */
typedef struct pq_check_params {
  bool json;       /* the verdict as one JSON object (else one line of text) */
  double sample;   /* the fraction of leaves or cubes to check (1: all; below 1: an audit) */
  uint64_t rng;    /* nonzero xorshift state for the sample */
  long seed;       /* the sample's seed (--seed), which the JSON verdict gives */
  double deadline; /* the pq_now() time at which the check stops without a verdict; 0: none */
  /* NULL: a whole certificate, whose trees may have no holes. Else one file of a proof in
     parts: its trees may hold holes ('#') and marked parts ('[' tree ']'), and the verdict is
     stored here instead of printed. */
  pq_check_part *part;
  /* A whole certificate's verdict is stored here instead of printed, when not NULL. */
  pq_check_part *verdict;
  /* Threads one certificate's check may use (below 2: one); the verdict is the same for any
     number (qn's cubes and armies' trees are checked on them). */
  int jobs;
  /* The certificate (set by the checks of files and texts), whose claim a JSON verdict that says
     valid gives as "claim": its scalar members and its objects' that the checker read (arrays,
     nulls and the format left out); or that claim already written (pq_check_claim), when claim
     is not NULL. */
  const pq_json *doc;
  const char *claim;
} pq_check_params;

/* Whether every claim member of doc (doc/certificate.md) was read by its checker: PQ_OK, or
   PQ_EINVAL with a message ("COMMAND: PATH: malformed: ...", without COMMAND when NULL). A
   certificate that says what its checker never looks at is refused, not called valid. */
pq_status pq_check_asked(const char *command, const char *path, const pq_json *doc);

/* The "claim" of a JSON verdict on doc, checked (see pq_check_params.doc): a JSON object, to
   free. */
char *pq_check_claim(const pq_json *doc);

/* The file being checked on this thread, for the messages about a malformed certificate
   ("verify: FILE: malformed ..."); set by pq_check_file, pq_check_text and pq_check_parts. */
const char *pq_check_path(void);
void pq_check_set_path(const char *path);

/* Sets every default: a full check, text, no deadline. */
void pq_check_params_init(pq_check_params *p);

/* A checker: checks a certificate (parsed JSON) of its problem and prints its verdict with
   pq_check_report. Returns PQ_OK (valid), PQ_EFALSE (invalid), PQ_EINVAL (malformed, with a
   message on stderr), or as pq_check_stopped. */
typedef pq_status (*pq_check_fn)(const pq_json *doc, const pq_check_params *p);

/* The checker of the problem named in a certificate, or NULL when there is none. */
pq_check_fn pq_check_find(const char *problem);

/* The checkers (problems/armies/armies_check.c, problems/qn/qn_check.c; doc/certificate.md). */
pq_status pq_armies_check(const pq_json *doc, const pq_check_params *p);
pq_status pq_qn_check(const pq_json *doc, const pq_check_params *p);
/* Armies of several colours (problems/armies/armies_colours_check.c): pq_armies_check hands over
   certificates with a "colours" member. */
pq_status pq_armies_colours_check(const pq_json *doc, const pq_check_params *p);

/* Prints a checker's conclusion on stdout: "valid: MESSAGE", "valid in the sample: MESSAGE",
   "incomplete: MESSAGE" or "invalid: MESSAGE", one line; with p->json one object {"problem",
   "valid", "sampled", "message"}. With p->part or p->verdict, stores the verdict and the message
   there and prints nothing. */
void pq_check_report(const pq_check_params *p, const char *problem, pq_verdict verdict,
                     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Whether the last verdict printed was "valid in the sample" or "incomplete": some of the proof
   was not checked, or is not there, so the command reaches no conclusion (exit status 3, and
   "valid":null in JSON). */
bool pq_check_audited(void);

/* The checkers' stop test, for their long searches: true once SIGINT or SIGTERM arrived or
   p->deadline has passed (the clock is read at every call). A checker that stops gives no
   verdict: it returns pq_check_stopped(). */
bool pq_check_stop(const pq_check_params *p);

/* After pq_check_stop: prints why there is no verdict and returns PQ_EINTR (a signal) or
   PQ_ELIMIT (the deadline). */
pq_status pq_check_stopped(void);

/* The most bytes (uncompressed) of one file that each of `threads` threads may read into memory:
   half the machine's memory shared among them (a document parsed by pq_json_parse_owned takes
   little more than its text), and at least 2 GiB. A larger file is refused before or while it is
   read. */
size_t pq_check_max_bytes(int threads);

/* NULL when doc is a certificate of version 1 (its format and version); else what it is, for a
   message ("a checkpoint, not a certificate: ...", "a part's result ...", "not a peaceable
   certificate of version 1"). */
const char *pq_check_other(const pq_json *doc);

/* Reads the certificate at path (plain or gzip; "-" standard input) and checks it with its
   problem's checker: as a checker returns, with PQ_EINVAL and a message naming path when the
   file is not a certificate of version 1 or no checker knows its problem. One file of a proof in
   parts (holes or marked parts in its trees) is checked as pq_check_parts checks a set of one:
   valid when it proves every part, "incomplete" (PQ_ELIMIT) when others are missing. */
pq_status pq_check_file(const char *path, const pq_check_params *p);

/* The same for a certificate held in text[0..len-1] (plain JSON), which command (for messages)
   made for path. */
pq_status pq_check_text(const char *command, const char *path, const char *text, size_t len,
                        const pq_check_params *p);

/* Writes to path (atomically) the certificate that write(f, ctx) gives. With check, only once the
   checker finds the whole of it valid: for a certificate made in part on a checkpoint's word,
   which the seal of a checkpoint does not guard against an edited file sealed again. Returns
   PQ_EINVAL with one message (command: its name), nothing written, when it does not verify. */
pq_status pq_check_write(const char *command, const char *path, bool check,
                         void (*write)(FILE *f, void *ctx), void *ctx);

/* Checks a proof given in several files (paths[0..n-1], read one at a time by each of jobs
   threads, so that memory holds at most jobs files at once): every file a certificate of one
   claim with the same members apart from its proof trees, each file's trees valid with their
   holes taken as proven, the trees the same once each marked part is replaced by a hole, and
   every hole proven by exactly one file. Prints one verdict as pq_check_report. With merged
   (not NULL) and a valid set, also writes there the one certificate the files make together
   (atomically; each hole replaced by the tree that proves it). Returns as a checker, or PQ_EIO
   when merged cannot be written. */
pq_status pq_check_parts(const char *const *paths, int n, int jobs, const pq_check_params *p,
                         const char *merged);

/* Whether the sample takes the next leaf or cube (always, with p->sample 1): advances *rng. The
   first (first: none was taken or left out before it) is always taken, so that no sample checks
   nothing (a sample of 1e-300 was "valid" with 0 leaves checked). */
bool pq_check_sampled(const pq_check_params *p, uint64_t *rng, bool first);

/* Parses a certificate's board, "WIDTHxHEIGHT" exactly (one name for one board: no leading
   zeros, no other letter), each side from 1 to 32. Returns PQ_OK or PQ_EINVAL with the message
   'board "TEXT": expected WIDTHxHEIGHT, each from 1 to 32'. */
pq_status pq_check_board(const char *text, int *width, int *height);

/* The image (*row2, *column2) of the point (row, column) of a width x height board under
   symmetry element g: 0 identity, 1 half turn, 2 mirror left-right, 3 mirror top-bottom, and on
   a square board only 4 quarter turn, 5 three-quarter turn, 6 transpose, 7 anti-transpose. The
   map is affine, so points off the board have images too (differences of images give the
   images of directions). */
void pq_check_map(int width, int height, int g, int row, int column, int *row2, int *column2);

/* The image of square s (row-major on a width x height board) under symmetry element g. */
int pq_check_image(int width, int height, int g, int s);

/* The checkers' own geometry (here, inline, for their inner loops, and src/check/lines.c).
   Pieces are indices into "KQRBN"; squares are row-major. Whether a piece on s attacks t,
   blocking ignored (no piece may stand between two pieces that share a line without one of them
   attacking the other). */
static inline bool pq_check_attacks(int width, int piece, int s, int t) {
  int dr = abs(s / width - t / width), dc = abs(s % width - t % width);
  if (s == t) return false;
  switch (piece) {
  case 0: return dr <= 1 && dc <= 1;
  case 1: return dr == 0 || dc == 0 || dr == dc;
  case 2: return dr == 0 || dc == 0;
  case 3: return dr == dc;
  default: return (dr == 1 && dc == 2) || (dr == 2 && dc == 1);
  }
}

/* Whether the piece attacks along lines of direction d (0 row, 1 column, 2 diagonal,
   3 anti-diagonal). */
static inline bool pq_check_piece_dir(int piece, int d) {
  return piece == 1 || (piece == 2 && d < 2) || (piece == 3 && d >= 2);
}

/* Line ids (doc/certificate.md, "Lines"): rows 0..H-1, columns H..H+W-1, then diagonals
   (column - row + H - 1), then anti-diagonals (row + column); pq_check_lines of them. */
static inline int pq_check_lines(int width, int height) {
  return height + width + 2 * (width + height - 1);
}

/* The id of the line of direction d through row r, column k. */
static inline int pq_check_line_id(int width, int height, int d, int r, int k) {
  switch (d) {
  case 0: return r;
  case 1: return height + k;
  case 2: return height + width + (k - r + height - 1);
  default: return height + width + (width + height - 1) + (r + k);
  }
}

/* The direction of line id and, unless index is NULL, its index within the direction; -1 for no
   line. */
static inline int pq_check_line_dir(int width, int height, int id, int *index) {
  int n = width + height - 1;
  int start[5] = {0, height, height + width, height + width + n, height + width + 2 * n};
  for (int d = 0; d < 4; d++)
    if (id >= start[d] && id < start[d + 1]) {
      if (index) *index = id - start[d];
      return d;
    }
  return -1;
}

/* The image of line id under symmetry g (pq_check_map), taken as a line and not as a set of
   squares: on a board with a side of 1, lines of different directions hold the same squares (a
   column, a diagonal and an anti-diagonal of one square), and matched by their squares two split
   lines could share one image, so that a choice on one of them would never be constrained
   (doc/certificate.md, "Symmetry split"). The image's direction is that of the image of the
   direction's step; the image is the line of that direction through the image of one of the
   line's squares. */
int pq_check_line_image(int width, int height, int g, int id);

/* What is wrong with a placement's text, if anything. */
typedef enum pq_rows_fault { PQ_ROWS_OK, PQ_ROWS_SHAPE, PQ_ROWS_SYMBOL } pq_rows_fault;

/* Reads a placement's text as doc/certificate.md writes it: exactly height rows of exactly width
   characters, top to bottom, joined by '/', each character one of symbols (a NUL-terminated
   list, '.' among them). Sets cells[s] (width * height of them) to the index in symbols of
   square s's character. Returns PQ_ROWS_OK; PQ_ROWS_SHAPE (other rows, row lengths or
   separators); PQ_ROWS_SYMBOL with *square and *symbol the first square whose character is
   not in symbols. */
pq_rows_fault pq_check_rows(const char *text, int width, int height, const char *symbols,
                            uint8_t *cells, int *square, char *symbol);

/* Lists of placements, n of them, bytes each (count certificates). pq_check_distinct sorts
   them in place and returns how many differ; pq_check_listed whether key is among n sorted
   ones. pq_check_distinct is not for two threads at once (qsort's comparison takes the size
   from a static); pq_check_listed is. */
size_t pq_check_distinct(uint8_t *cells, size_t n, size_t bytes);
bool pq_check_listed(const uint8_t *key, const uint8_t *cells, size_t n, size_t bytes);

/* Checks items 0..n-1 on `jobs` threads, as one thread checking them in order would: thread t calls
   check(ctxs + t * size, i) for the items handed to it (in increasing order, from one counter;
   size 0: one context for all, which check then only reads or writes per item),
   and stops at its first i that fails (check returns false). Once an item failed, none after it
   is handed out, but every one before it is checked. Returns the least item that failed, with
   *thread the thread that checked it (its context holds why), or n when none did. */
int pq_check_in_order(int n, int jobs, void *ctxs, size_t size, bool (*check)(void *ctx, int i),
                      int *thread);

/* C(n, k) in 128 bits (0 when k < 0 or k > n); sets *overflow past 2^128 - 1 (and returns 0). */
pq_count pq_check_binomial(int n, int k, bool *overflow);

#endif
