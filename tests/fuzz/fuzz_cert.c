/* fuzz_cert.c: libFuzzer target for certificates, through `peaceable verify FILE`
   (src/cli/verify.c: reading the file, the JSON reader, the dispatch to the problem's checker).
   Beyond "no crash" it checks the verdict's form (exit status and one line), and, on boards of at
   most 25 squares, that an accepted armies certificate is true: its witness (claims "maximum" and
   "feasible") is peaceable and of its sizes, and the search (problems/armies/armies_search.c, which
   shares no code with the checker) finds no placement of the sizes claimed infeasible. */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#include "../../problems/armies/armies.h"
#include "../../problems/armies/armies_colours.h"
#include "../../src/cli/problem.h"
#include "../../src/core/json.h"
#include "fuzz.h"

extern const pq_problem pq_problem_verify;

#define SOUNDNESS_SQUARES 25

static int file = -1;
static char path[64];

/* Whether an accepted witness is a placement of the piece on the board with white and black
   pieces, none attacking a piece of the other colour: exactly the board's rows joined by '/'. */
static void check_witness(const pq_board *b, pq_piece p, const char *witness, long white,
                          long black) {
  char upper = pq_piece_letters[p], lower = (char)(upper - 'A' + 'a');
  uint8_t cells[PQ_MAX_SQUARES];
  int n = 0, nw = 0, nb = 0, column = 0;
  for (const char *q = witness; *q; q++) {
    if (*q == '/') {
      if (column != b->width || !q[1])
        fuzz_fail("verify accepted the witness \"%s\", rows", witness);
      column = 0;
      continue;
    }
    if (n == b->squares || column == b->width || (*q != '.' && *q != upper && *q != lower))
      fuzz_fail("verify accepted the witness \"%s\", not a placement", witness);
    cells[n++] = *q == upper ? 1 : *q == lower ? 2 : 0;
    column++;
  }
  if (n != b->squares || column != b->width)
    fuzz_fail("verify accepted the witness \"%s\", too short", witness);
  for (int s = 0; s < b->squares; s++) {
    nw += cells[s] == 1;
    nb += cells[s] == 2;
    for (int t = 0; t < b->squares; t++)
      if (cells[s] == 1 && cells[t] == 2 && pq_attacks_plain(b, p, s, t))
        fuzz_fail("verify accepted the witness \"%s\", which is not peaceable", witness);
  }
  if (nw != white || nb != black) fuzz_fail("verify accepted a witness of the wrong sizes");
}

static void count_visit(void *ctx, const uint8_t *cells) {
  (void)cells;
  (*(pq_count *)ctx)++;
}

/* An accepted certificate of armies of several colours, on a board of at most
   SOUNDNESS_SQUARES squares, against the colours' search (problems/armies/armies_colours.c): its
   witness, that no placement of the size proven infeasible is found, and its count's total. */
static void check_colours_truth(const pq_json *doc, const pq_board *b, pq_piece p) {
  const char *claim = pq_json_get_string(doc, "claim"),
             *witness = pq_json_get_string(doc, "witness");
  const pq_json *inf = pq_json_get(doc, "infeasible");
  long colours, size = -1, need = -1, total = -1;
  if (pq_json_get_long(doc, "colours", 3, PQ_MAX_COLOURS, &colours) ||
      (p != PQ_QUEEN && p != PQ_ROOK && p != PQ_BISHOP))
    fuzz_fail("verify accepted armies of several colours without their colours or piece");
  bool count = !strcmp(claim, "count");
  if ((witness || count) && pq_json_get_long(doc, "size", 0, PQ_MAX_SQUARES, &size))
    fuzz_fail("verify accepted a claim of several colours without its size");
  if (inf && pq_json_get_long(inf, "size", 1, PQ_MAX_SQUARES, &need))
    fuzz_fail("verify accepted a proof of several colours without its size");
  if (witness) {
    uint8_t cells[PQ_MAX_SQUARES];
    int have[PQ_MAX_COLOURS + 1] = {0};
    fuzz_capture c;
    fuzz_capture_begin(&c);
    pq_status rc = pq_colours_parse(b, p, (int)colours, (int)size, witness, cells);
    fuzz_capture_end(&c);
    fuzz_capture_free(&c);
    if (rc) fuzz_fail("verify accepted the witness \"%s\", not peaceable", witness);
    for (int s = 0; s < b->squares; s++)
      have[cells[s]]++;
    for (int k = 1; k <= colours; k++)
      if (have[k] != size) fuzz_fail("verify accepted a witness of the wrong sizes");
  }
  if (need > 0 && need * colours <= b->squares) {
    pq_colours *x = pq_colours_new(b, p, (int)colours, (int)need);
    pq_colours_solver *s = pq_colours_solver_new(x);
    uint8_t cells[PQ_COLOURS_MAX_SQUARES];
    for (int i = 0; i < pq_colours_parts(x); i++) {
      bool found = false;
      if (pq_colours_part(s, i, cells, &found, NULL) || found)
        fuzz_fail("verify accepted that %ld of each of %ld colours do not fit; they do", need,
                  colours);
    }
    pq_colours_solver_free(s);
    pq_colours_free(x);
  }
  if (count) {
    if (pq_json_get_long(doc, "total", 0, __LONG_MAX__, &total))
      fuzz_fail("verify accepted a count of several colours without its total");
    pq_count n = size == 0, factorial = 1;
    for (int k = 2; k <= colours; k++)
      factorial *= (pq_count)k;
    if (size > 0 && size * colours <= b->squares) {
      pq_colours *x = pq_colours_new_count(b, p, (int)colours, (int)size, false);
      pq_colours_solver *s = pq_colours_solver_new(x);
      for (int i = 0; i < pq_colours_parts(x); i++) {
        pq_count found = 0;
        if (pq_colours_count_part(s, i, count_visit, &found, NULL))
          fuzz_fail("the colours' search did not count part %d", i);
        n += found * factorial * (pq_count)pq_colours_weight(x, i);
      }
      pq_colours_solver_free(s);
      pq_colours_free(x);
    }
    if (n != (pq_count)total)
      fuzz_fail("verify accepted %ld placements of %ld of each of %ld colours; the search counts "
                "%llu",
                total, size, colours, (unsigned long long)n);
  }
}

/* Checks an accepted armies certificate's claim against the search (other problems' claims are
   left to their own tests). */
static void check_truth(const char *text, size_t size) {
  char err[160];
  pq_json *doc = pq_json_parse(text, size, err);
  if (!doc) fuzz_fail("verify accepted a document that does not parse: %s", err);
  const char *problem = pq_json_get_string(doc, "problem");
  if (!problem || strcmp(problem, "armies")) {
    pq_json_free(doc);
    return;
  }
  const char *board = pq_json_get_string(doc, "board"), *piece = pq_json_get_string(doc, "piece");
  const char *claim = pq_json_get_string(doc, "claim"),
             *witness = pq_json_get_string(doc, "witness");
  const pq_json *inf = pq_json_get(doc, "infeasible");
  int width, height;
  long iw = -1, ib = -1, cw = -1, cb = -1;
  fuzz_capture c;
  fuzz_capture_begin(&c); /* pq_board_parse refuses with a message; verify accepted it anyway */
  pq_status board_rc = pq_board_parse("board", board ? board : "", &width, &height);
  fuzz_capture_end(&c);
  fuzz_capture_free(&c);
  if (!board || board_rc || !piece || pq_piece_from_letter(piece[0]) < 0 || !claim)
    fuzz_fail("verify accepted a certificate without its board, piece or claim");
  if (pq_json_get(doc, "colours")) {
    if (width * height <= SOUNDNESS_SQUARES) {
      pq_board *b = pq_board_new(width, height);
      check_colours_truth(doc, b, (pq_piece)pq_piece_from_letter(piece[0]));
      pq_board_free(b);
    }
    pq_json_free(doc);
    return;
  }
  bool count = !strcmp(claim, "count");
  bool has_witness = !strcmp(claim, "maximum") || !strcmp(claim, "feasible");
  if (has_witness && (!witness || pq_json_get_long(doc, "white", 0, PQ_MAX_SQUARES, &cw) ||
                      pq_json_get_long(doc, "black", 0, PQ_MAX_SQUARES, &cb)))
    fuzz_fail("verify accepted a %s claim without its witness", claim);
  if (strcmp(claim, "feasible") && !count &&
      (!inf || pq_json_get_long(inf, "white", 0, PQ_MAX_SQUARES, &iw) ||
       pq_json_get_long(inf, "black", 0, PQ_MAX_SQUARES, &ib)))
    fuzz_fail("verify accepted a %s claim without its proof", claim);
  long total = -1;
  if (count && (pq_json_get_long(doc, "white", 0, PQ_MAX_SQUARES, &cw) ||
                pq_json_get_long(doc, "black", 0, PQ_MAX_SQUARES, &cb) || cw != cb ||
                pq_json_get_long(doc, "total", 0, __LONG_MAX__, &total)))
    fuzz_fail("verify accepted a count without its sizes or total");
  if (count && inf &&
      (pq_json_get_long(inf, "white", 0, PQ_MAX_SQUARES, &iw) ||
       pq_json_get_long(inf, "black", 0, PQ_MAX_SQUARES, &ib) || iw != cw + 1 || ib != cb + 1))
    fuzz_fail("verify accepted a count whose maximum's proof is of other sizes");
  if (width * height <= SOUNDNESS_SQUARES) {
    pq_piece p = (pq_piece)pq_piece_from_letter(piece[0]);
    pq_board *b = pq_board_new(width, height);
    if (has_witness) check_witness(b, p, witness, cw, cb);
    if (!strcmp(claim, "maximum") && !(ib == cb + 1 && ((cw == cb && iw == cw + 1) || iw == cw)))
      fuzz_fail("verify accepted a maximum whose infeasible sizes do not follow the witness");
    if (count) {
      /* The total, by the search (which shares no code with the checker), without symmetry. */
      pq_armies *a = pq_armies_new(b, p);
      pq_armies_params params;
      pq_armies_params_init(&params);
      params.jobs = 1;
      params.symmetry = false;
      pq_count n = 0;
      if (pq_armies_count(a, (int)cb, (int)cb, &params, NULL, NULL, &n) != PQ_OK)
        fuzz_fail("the search did not count %ld against %ld", cb, cb);
      if (n != (pq_count)total)
        fuzz_fail("verify accepted %ld placements of %ld against %ld; the search counts %llu",
                  total, cb, cb, (unsigned long long)n);
      pq_armies_free(a);
    }
    if (iw >= 0) {
      pq_armies *a = pq_armies_new(b, p);
      pq_armies_params params;
      pq_armies_params_init(&params);
      params.jobs = 1;
      pq_armies_decision d;
      if (pq_armies_decide(a, (int)iw, (int)ib, &params, &d) != PQ_OK)
        fuzz_fail("the search did not decide %ld against %ld", iw, ib);
      if (d.found)
        fuzz_fail("verify accepted that %ld white and %ld black %c do not fit on %dx%d; they do",
                  iw, ib, piece[0], width, height);
      pq_armies_decision_clear(&d);
      pq_armies_free(a);
    }
    pq_board_free(b);
  }
  pq_json_free(doc);
}

/* Whether the proof obj (a certificate's "infeasible" or "count") has a tree "s". */
static bool has_exhaustive_leaf(const pq_json *obj) {
  const pq_json *trees = obj ? pq_json_get(obj, "trees") : NULL;
  for (size_t i = 0; trees && trees->type == PQ_JSON_ARRAY && i < trees->length; i++)
    if (trees->items[i]->type == PQ_JSON_STRING && !strcmp(trees->items[i]->string, "s"))
      return true;
  return false;
}

/* Known and reported: the checker repeats the exhaustive leaf "s" of kings and knights with a
   search that takes exponential time (6x6 kings from `armies --cert`: over a minute; crafted
   sizes on 5x5: 13 s). Such certificates on boards of more than 12 squares are skipped so that a
   campaign goes on past that hang; smaller ones are still checked, and so are the kings' and
   knights' certificates without that leaf (their lemmas and count trees). */
static bool known_slow(const uint8_t *data, size_t size) {
  char err[160];
  pq_json *doc = pq_json_parse((const char *)data, size, err);
  if (!doc) return false;
  const char *piece = pq_json_get_string(doc, "piece"), *board = pq_json_get_string(doc, "board");
  int width = 0, height = 0, n = board ? sscanf(board, "%3dx%3d", &width, &height) : 0;
  if (n == 1) height = width;
  bool slow = piece && (!strcmp(piece, "K") || !strcmp(piece, "N")) && n >= 1 &&
              (width > 12 || height > 12 || width * height > 12) &&
              (has_exhaustive_leaf(pq_json_get(doc, "infeasible")) ||
               has_exhaustive_leaf(pq_json_get(doc, "count")));
  pq_json_free(doc);
  return slow;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (known_slow(data, size)) return -1; /* -1: not added to the corpus */
  if (file < 0) {
    /* The certificate is handed over as a file, as on the command line: an in-memory one. */
    file = memfd_create("certificate", 0);
    if (file < 0) fuzz_fail("memfd_create failed");
    snprintf(path, sizeof path, "/proc/self/fd/%d", file);
  }
  if (ftruncate(file, 0) || (size && pwrite(file, data, size, 0) != (ssize_t)size))
    fuzz_fail("writing the memory file failed");
  pq_options o = {0};
  o.problem = "verify";
  const char *operands[1] = {path};
  o.operands = operands;
  o.noperands = 1;
  fuzz_capture c;
  fuzz_capture_begin(&c);
  pq_status rc = pq_problem_verify.run(&o);
  fuzz_capture_end(&c);
  /* PQ_ELIMIT: one file of a proof in parts, "incomplete" (no deadline, no sample here). */
  if (rc == PQ_OK || rc == PQ_EFALSE || rc == PQ_ELIMIT) {
    const char *want = rc == PQ_OK ? "valid: " : rc == PQ_EFALSE ? "invalid: " : "incomplete: ";
    if (c.err_len) fuzz_fail("a verdict with a message: \"%.200s\"", c.err);
    if (strncmp(c.out, want, strlen(want)) || !c.out_len || c.out[c.out_len - 1] != '\n' ||
        memchr(c.out, '\n', c.out_len) != c.out + c.out_len - 1)
      fuzz_fail("verdict %d is not one line \"%s...\": \"%.200s\"", (int)rc, want, c.out);
  } else {
    fuzz_check_parser("verify", rc, &c);
  }
  fuzz_capture_free(&c);
  if (rc == PQ_OK) check_truth((const char *)data, size);
  return 0;
}
