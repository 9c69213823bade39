/* armies_count_cmd.c: the armies command's counts and lists: every placement of two armies of
   one size (the maximum, proven first, or --size), the classes up to the board's symmetries with
   and without colour exchange, --list, --svg of the first placements, and count certificates. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/placement.h"
#include "../../src/core/svg.h"
#include "../../src/core/sym.h"
#include "../../src/run/engine.h"
#include "../../src/run/progress.h"
#include "armies.h"
#include "armies_parts.h"
#include "armies_run.h"

typedef pq_armies_setup setup;
typedef pq_armies_board board_ctx;

/* Counting: every placement, and the classes up to the board's symmetries, with and without
   colour exchange, by Burnside's lemma over each placement's stabiliser. */
typedef struct counter {
  const pq_board *board;
  const char *letters;
  bool list, unique, json;
  pq_count fixed, fixed_colour;
  pq_count listed; /* the lines printed */
  pq_count limit;  /* --limit: the lines to print at most (0: all); limited once one more came */
  bool limited;
  char *text;
  uint8_t *drawn; /* with --svg: the first PQ_SVG_LISTED placements listed */
  int ndrawn;
  bool keep; /* keep every placement visited (for a count certificate) */
  uint8_t *kept;
  size_t nkept, room;
} counter;

/* The counter of a count or listing on b as st asks it (free its text, kept and drawn). */
static counter counter_for(const setup *st, const pq_board *b, const char *letters, bool list,
                           bool unique) {
  counter cnt = {.board = b,
                 .letters = letters,
                 .list = list,
                 .unique = unique,
                 .json = st->json,
                 .text = pq_malloc((size_t)b->squares + (size_t)b->height + 1),
                 .keep = st->cert != NULL,
                 .limit = (pq_count)st->list_limit};
  if (list && st->svg) cnt.drawn = pq_malloc((size_t)PQ_SVG_LISTED * (size_t)b->squares);
  return cnt;
}

/* Prints a placement listed (and keeps it for --svg). One more than the limit is not listed but
   stops the listing: one of exactly --limit placements ends complete. */
static int show(void *arg, const uint8_t *cells, int weight) {
  (void)weight;
  counter *c = arg;
  if (c->limit && c->listed >= c->limit) return c->limited = true;
  pq_placement_line(c->board, cells, c->letters, c->json, c->text);
  c->listed++;
  if (c->drawn && c->ndrawn < PQ_SVG_LISTED)
    memcpy(c->drawn + (size_t)c->ndrawn++ * (size_t)c->board->squares, cells,
           (size_t)c->board->squares);
  return 0;
}

static int on_placement(void *arg, const uint8_t *cells, int weight) {
  counter *c = arg;
  static const uint8_t swap[3] = {0, 2, 1};
  uint8_t canon[PQ_MAX_SQUARES], canon_colour[PQ_MAX_SQUARES];
  int fixed = pq_sym_canonical(c->board, cells, NULL, canon);
  c->fixed += (pq_count)fixed * (pq_count)weight;
  c->fixed_colour +=
      (pq_count)pq_sym_canonical(c->board, cells, swap, canon_colour) * (pq_count)weight;
  if (c->keep) {
    size_t n = (size_t)c->board->squares;
    if (c->nkept == c->room) c->kept = pq_realloc(c->kept, (c->room = 2 * c->room + 64) * n);
    memcpy(c->kept + c->nkept++ * n, cells, n);
  }
  if (c->list && (!c->unique || !memcmp(canon, cells, (size_t)c->board->squares)))
    return show(c, cells, weight);
  return 0;
}

static int by_text(const void *x, const void *y) {
  return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Writes the count certificate of k against k (doc/certificate.md, "Count certificates"): every
   placement (the images of the ones visited, which stand for them; kings and knights visit every
   placement), the count's proof, and with c->proof_size k + 1 the proof that k + 1 does not
   fit. */
static pq_status write_count_cert(board_ctx *c, int k, const counter *cnt, pq_count count,
                                  const pq_armies_decision *proof, const char *const totals[3]) {
  if (pq_engine_serving()) return PQ_OK; /* its placements and trees are rank 0's */
  const pq_board *b = c->board;
  size_t n = (size_t)b->squares, width = n + (size_t)b->height + 1;
  bool every = c->st->piece == PQ_KING || c->st->piece == PQ_KNIGHT;
  int group = every ? 1 : pq_sym_count(b);
  char **texts = pq_malloc((cnt->nkept * (size_t)group + 1) * sizeof *texts);
  size_t ntexts = 0;
  uint8_t image[PQ_MAX_SQUARES];
  for (size_t i = 0; i < cnt->nkept; i++)
    for (int g = 0; g < group; g++) {
      for (int s = 0; s < b->squares; s++)
        image[pq_sym_square(b, (pq_sym)g, s)] = cnt->kept[i * n + (size_t)s];
      texts[ntexts] = pq_malloc(width);
      pq_placement_text(b, image, cnt->letters, texts[ntexts++]);
    }
  qsort(texts, ntexts, sizeof *texts, by_text);
  size_t distinct = 0;
  for (size_t i = 0; i < ntexts; i++) {
    if (distinct && !strcmp(texts[distinct - 1], texts[i])) {
      free(texts[i]);
      continue;
    }
    texts[distinct++] = texts[i];
  }
  PQ_REQUIRE((pq_count)distinct == count, "%zu placements listed for a count of %s", distinct,
             totals[0]);
  char board[16];
  snprintf(board, sizeof board, "%dx%d", b->width, b->height);
  bool maximum = c->proof_size == k + 1;
  pq_armies_cert cert = {
      .board = board,
      .piece = pq_piece_letters[c->st->piece],
      .claim = "count",
      .white = maximum ? k + 1 : 0,
      .black = maximum ? k + 1 : 0,
      .witness_white = k,
      .witness_black = k,
      .proof = &c->proof,
      .nplacements = distinct,
      .placements = (const char *const *)texts,
      .total = totals[0],
      .unique = totals[1],
      .unique_colour = totals[2],
      .count = proof,
  };
  pq_status rc = pq_armies_cert_write(c->st->cert, &cert);
  for (size_t i = 0; i < distinct; i++)
    free(texts[i]);
  free(texts);
  return rc;
}

/* Prints a finished count of k against k on board (at the maximum or --size): a line of text,
   of --table (row) in st->format, or JSON; for a listing, its JSON summary alone. count: the
   placements; n: they, the classes, the classes with colour exchange, as text; witness: the
   maximum's placement as text, or NULL (at --size K none is held). */
static void print_counts(const setup *st, const char *board, char piece, int width, int k,
                         bool maximum, pq_method proved_by, uint64_t nodes, double seconds,
                         pq_count count, const char *const n[3], const char *witness, bool list,
                         bool unique, bool row) {
  const char *total = n[0], *uniq = n[1], *uniq_colour = n[2];
  const char *said = pq_count_claim(maximum, count, proved_by);
  if (!list) {
    if (st->json) {
      pq_armies_json_open(board, piece, 2);
      printf(",\"size\":%d%s", k, said);
      if (witness) printf(",\"witness\":\"%s\"", witness);
      printf(",\"count\":%s,\"unique\":%s,\"unique_colour\":%s%s,\"nodes\":%" PRIu64
             ",\"seconds\":%.3f}\n",
             total, uniq, uniq_colour, pq_engine_word_json(), nodes, seconds);
    } else if (row) /* (at --size K: no maximum claimed, no proof) */
      pq_armies_count_row(st->format, board, width, k, maximum, !maximum, proved_by, seconds, n);
    else
      printf("%s placement%s of %d against %d on %s%s%s\n%s up to symmetry\n%s up to symmetry "
             "and colour exchange\n",
             total, pq_plural(total), k, k, board, maximum ? " (the maximum)" : "",
             pq_engine_word_text(), uniq, uniq_colour);
  } else if (st->json) {
    /* A listing ends with its summary, as every mode of every command does (doc/json.md). */
    pq_armies_json_open(board, piece, 2);
    printf(",\"size\":%d%s,\"count\":%s", k, said, total);
    if (unique) printf(",\"unique\":%s", uniq);
    printf("%s,\"nodes\":%" PRIu64 ",\"seconds\":%.3f}\n", pq_engine_word_json(), nodes, seconds);
  } else {
    pq_engine_resumed_note("armies", "listing");
  }
}

/* The row of a --table --count whose board a limit stopped (or with row false, the JSON object
   of one board's count): the size reached, whether it is the proven maximum, and no count (a "+"
   marks a maximum not proven, as in a table of maxima; at --size K, at_size, none is claimed); in
   JSON the placement of k found, witness, unless NULL. */
static void print_stopped_row(const setup *st, const char *board, char piece, int width, int k,
                              bool at_size, bool maximum, pq_method proved_by, const char *witness,
                              uint64_t nodes, double seconds, bool row) {
  if (!row && !st->json) return; /* (the maximum's text is printed by the caller) */
  if (st->json) {
    pq_armies_json_open(board, piece, 2);
    printf(",\"size\":%d%s", k, pq_claim_members(at_size, maximum ? PQ_YES : PQ_OPEN, proved_by));
    if (witness) printf(",\"witness\":\"%s\"", witness);
    printf(",\"count\":null,\"nodes\":%" PRIu64 ",\"seconds\":%.3f}\n", nodes, seconds);
  } else {
    pq_armies_count_row(st->format, board, width, k, maximum, at_size, proved_by, seconds, NULL);
  }
}

/* The JSON summary of a listing cut short: the lines printed ("listed", n) and
   "complete":false, as every listing cut short ends (doc/json.md). */
void pq_armies_print_cut_listing(const pq_armies_cut *c, int k, const char *listed, uint64_t nodes,
                                 double seconds) {
  /* At --size K, what was listed shows K fits. */
  pq_claim claim = c->maximum || (c->at_size && strcmp(listed, "0")) ? PQ_YES : PQ_OPEN;
  pq_armies_json_open(c->board, c->piece, c->colours);
  printf(",\"size\":%d%s,\"listed\":%s,\"complete\":false,\"nodes\":%" PRIu64
         ",\"seconds\":%.3f}\n",
         k, pq_claim_members(c->at_size, claim, c->proved_by), listed, nodes, seconds);
}

void pq_armies_report_cut(const pq_armies_cut *c, pq_status rc, int k, bool list, pq_count lines,
                          uint64_t nodes, double seconds) {
  const char *why = pq_stopped_by(rc),
             *kept = c->checkpoint && rc != PQ_EIO ? pq_engine_kept_note() : "";
  char n[48];
  pq_count_str(lines, n);
  if (list)
    pq_error("armies: listing on %s %s: %s placement%s listed, no total%s", c->board, why, n,
             pq_plural(n), kept);
  else if (lines)
    pq_error("armies: counting on %s %s: %s placement%s so far, no total%s%s", c->board, why, n,
             pq_plural(n), kept, c->cert ? PQ_SIZE_CERT_NOTE : "");
  else
    pq_error("armies: counting on %s %s: no total%s%s", c->board, why, kept,
             c->cert ? PQ_SIZE_CERT_NOTE : "");
  if (list && c->json) pq_armies_print_cut_listing(c, k, n, nodes, seconds);
}

/* A part line's listing keeps its placements in the line: none is printed. */
static int keep_in_line(void *ctx, const uint8_t *cells, int weight) {
  (void)ctx, (void)cells, (void)weight;
  return 0;
}

/* A count or listing (cnt->list) of a line piece in parts through the engine (threads, --part,
   checkpoints); with proof, its proof and every placement visited into cnt (for a count
   certificate). */
static pq_status count_in_parts(const setup *st, const pq_armies *a, const pq_board *b, int k,
                                const pq_armies_params *params, pq_armies_decision *proof,
                                counter *cnt, const char *resume, const char *facts,
                                pq_armies_counted *r) {
  char label[64];
  snprintf(label, sizeof label, "armies %dx%d, %d against %d", b->width, b->height, k, k);
  pq_armies_count_task task = {
      .armies = a,
      .board = b,
      .white = k,
      .black = k,
      .lim = {.jobs = st->jobs, /* no race while counting */
              .node_limit = params->node_limit,
              .deadline = params->time_limit > 0 ? pq_now() + params->time_limit : 0,
              .checkpoint = st->checkpoint,
              .resume = resume,
              .progress = label,
              .part = st->part,
              .parts = st->parts},
      .proof = proof,
      .keep = on_placement,
      .keep_ctx = cnt,
      .list =
          cnt->list ? &(pq_armies_lister){cnt->unique, st->parts ? keep_in_line : show, cnt} : NULL,
      .facts = facts};
  return pq_armies_count_run(&task, r);
}

/* Whether --resume names the checkpoint of a count at the maximum (its facts say which maximum,
   proven by what, and its witness): then *k, *res and *witness (to free) are that maximum's, taken
   on the checkpoint's word but the witness, which is checked; *counting tells. Else (a checkpoint
   of the maximum's decisions, read by the maximum's search) nothing is set. PQ_OK, or PQ_EINVAL
   with a message; a read stopped, PQ_ELIMIT or PQ_EINTR. */
static pq_status resumed_maximum(board_ctx *c, int *k, pq_outer_result *res, char **witness,
                                 bool *counting) {
  pq_status rc = pq_armies_resume_read(c->st->resume, c->board, c->st->piece, &c->resume);
  *counting = rc == PQ_OK && c->resume.counting;
  if (!*counting) {
    /* (A maximum's checkpoint: its search reads it again, whole.) */
    free(c->resume.best_witness);
    c->resume.best_witness = NULL;
    return rc;
  }
  if (c->resume.maximum < 0) {
    pq_error("--resume %s: the checkpoint of a count at --size K, not at the maximum: resume it "
             "with its --size",
             c->st->resume);
    return PQ_EINVAL;
  }
  if ((rc = pq_armies_resume_witness(c))) return rc;
  *k = res->best = c->resume.maximum;
  res->proven = true;
  res->proved_by = c->resume.proved_by;
  memcpy(res->witness, c->best_witness, (size_t)c->board->squares);
  *witness = pq_strdup(c->resume.best_witness);
  pq_engine_on_word(); /* the proof that the maximum + 1 does not fit is not in it */
  return PQ_OK;
}

/* The facts of a count at the maximum's checkpoints (resumed_maximum reads them). */
static char *maximum_facts(int k, pq_method proved_by, const char *witness) {
  size_t n = strlen(witness) + 96;
  char *facts = pq_malloc(n);
  snprintf(facts, n, "\"maximum\":%d,\"proved_by\":\"%s\",\"best_witness\":\"%s\"", k,
           pq_method_name(proved_by), witness);
  return facts;
}

/* A count at the maximum finds it first (and with --cert proves the size after it impossible):
 *k the size reached, what the outer loop found in *res, and *witness its placement as text
 (NULL for none; to free). */
static pq_status maximum_first(board_ctx *c, const char *letters, bool list, bool row, int *k,
                               pq_outer_result *res, char **witness) {
  const pq_board *b = c->board;
  pq_status rc = pq_armies_board_maximum(c, res);
  *k = res->best;
  if (*k >= 0) {
    *witness = pq_malloc((size_t)b->squares + (size_t)b->height + 1);
    pq_placement_text(b, res->witness, letters, *witness);
  }
  if (rc == PQ_OK && c->st->cert) rc = pq_armies_prove_next(c, *k);
  if (rc != PQ_ELIMIT && rc != PQ_EINTR) return rc; /* (other faults have had their message) */
  /* What was found, as a stopped maximum prints it (as qn's count does; JSON: print_stopped_row,
     with its witness). */
  if (!c->st->json && !list && !row && *k > 0)
    pq_armies_print_answer(c->st, b, -1, PQ_ARMIES_PRINT_BOARD, res, false, *witness, 0, 0);
  /* Stopped: the witness found is work not to lose, certified as what it is (as a maximum's). */
  bool keep = c->st->cert && *k > 0;
  pq_error("armies: %s on %dx%d before the maximum was proven (%d or more): no %s%s%s",
           pq_stop_cause(rc), b->width, b->height, *k, list ? "list" : "count",
           c->st->checkpoint ? pq_engine_kept_note() : "", keep ? PQ_WITNESS_CERT_NOTE : "");
  if (keep) {
    char board[16];
    snprintf(board, sizeof board, "%dx%d", b->width, b->height);
    pq_status wrc = pq_armies_write_witness_cert(c->st->cert, board, letters[0], *witness, *k, *k);
    if (wrc) return wrc;
  }
  return rc;
}

/* The maximum a count is at (maximum_first), or with --resume the one a count's checkpoint names
   (*resumed: then its count resumes too); a checkpoint of the maximum's decisions resumes them. */
static pq_status maximum_of(board_ctx *c, const char *letters, bool list, bool row, int *k,
                            pq_outer_result *res, char **witness, bool *resumed) {
  *resumed = false;
  pq_status rc = c->st->resume ? resumed_maximum(c, k, res, witness, resumed) : PQ_OK;
  if (rc == PQ_OK && c->st->resume && !*resumed) rc = pq_armies_start_resume(c);
  return rc || *resumed ? rc : maximum_first(c, letters, list, row, k, res, witness);
}

/* --svg of a listing: its first PQ_SVG_LISTED placements, and a note when it listed more (it drew
   256 of a longer listing and said nothing, as pieces once did). */
static pq_status draw_listed(const setup *st, const pq_board *b, const counter *cnt) {
  char n[48];
  if (cnt->listed > PQ_SVG_LISTED && pq_progress_enabled)
    pq_error("armies: --svg %s draws the first %d of the %s placements listed", st->svg,
             PQ_SVG_LISTED, pq_count_str(cnt->listed, n));
  return pq_armies_draw(st->svg, b, st->piece, cnt->drawn, cnt->ndrawn);
}

/* Counts or lists (armies_run.h). */
pq_status pq_armies_count_board(const setup *st, int width, int height, int size, bool list,
                                bool unique, bool row) {
  pq_board *b = pq_board_new(width, height);
  pq_armies *a = pq_armies_new(b, st->piece);
  pq_status rc = PQ_OK;
  int k = size;
  double t0 = pq_now();
  uint64_t searched = *st->searched, nodes = 0; /* the maximum's nodes, then the count's */
  /* Proofs are kept (for the certificate) only when one is asked for. */
  board_ctx c = {.st = st, .board = b, .armies = a, .white = -1};
  char letters[3], board[16], *witness = NULL; /* (the maximum's placement) */
  pq_armies_letters(st->piece, letters);
  snprintf(board, sizeof board, "%dx%d", b->width, b->height);
  pq_outer_result res = {.proved_by = PQ_METHOD_SEARCH};
  bool resumed = size >= 0; /* the count's own checkpoint is resumed */
  if (k < 0) rc = maximum_of(&c, letters, list, row, &k, &res, &witness, &resumed);
  pq_method proved_by = res.proved_by;
  char *facts = size < 0 && witness && st->checkpoint ? maximum_facts(k, proved_by, witness) : NULL;
  counter cnt = counter_for(st, b, letters, list, unique);
  pq_count count = 0;
  /* Listing visits every placement; counting alone uses the board's symmetries. */
  pq_armies_params params = pq_armies_params_now(st);
  params.symmetry = !list;
  pq_armies_decision proof = {0};
  bool counting = rc == PQ_OK; /* else the maximum's message said "no count" already */
  pq_armies_cut cut = {board,     letters[0], 2,        size < 0 && counting,
                       size >= 0, proved_by,  st->json, st->checkpoint != NULL,
                       false};
  int group = pq_sym_count(b);
  pq_count classes = 0, classes_colour = 0;
  bool line_piece = st->piece == PQ_QUEEN || st->piece == PQ_ROOK || st->piece == PQ_BISHOP;
  bool by_parts = rc == PQ_OK && line_piece && 2 * k <= b->squares;
  if (by_parts) {
    pq_armies_counted r;
    rc = count_in_parts(st, a, b, k, &params, st->cert && !list ? &proof : NULL, &cnt,
                        resumed ? st->resume : NULL, facts, &r);
    if (st->parts) goto done; /* the part's line is printed */
    count = r.count;
    nodes = r.nodes;
    classes = r.unique;
    classes_colour = r.unique_colour;
  } else if (rc == PQ_OK) {
    rc = pq_armies_count_proved(a, k, k, &params, on_placement, &cnt, &count, &nodes,
                                st->cert ? &proof : NULL);
    classes = cnt.fixed / (pq_count)group;
    classes_colour = cnt.fixed_colour / (pq_count)(2 * group);
  }
  /* --limit ends a listing: done, not stopped; its summary says how many it listed. */
  if (cnt.limited && (rc == PQ_OK || rc == PQ_ELIMIT)) rc = PQ_OK;
  double seconds = pq_now() - t0;
  uint64_t run_nodes = *st->searched - searched + nodes;
  char total[48], uniq[48], uniq_colour[48], listed[48];
  pq_count_str(count, total);
  pq_count_str(classes, uniq);
  pq_count_str(classes_colour, uniq_colour);
  if (rc == PQ_OK && cnt.limited && st->json)
    pq_armies_print_cut_listing(&cut, k, pq_count_str(cnt.listed, listed), run_nodes, seconds);
  else if (rc == PQ_OK && cnt.limited)
    pq_progress_note_cut(st->list_limit);
  else if (rc == PQ_OK)
    print_counts(st, board, letters[0], width, k, size < 0, proved_by, run_nodes, seconds, count,
                 (const char *const[3]){total, uniq, uniq_colour}, witness, list, unique, row);
  bool stopped = rc == PQ_ELIMIT || rc == PQ_EINTR;
  pq_count so_far = list ? cnt.listed : by_parts ? 0 : count; /* (in parts: none so far) */
  /* A count stopped after its maximum was proven keeps it: in text as its own run prints it
     (JSON: print_stopped_row), and its certificate (maximum_first kept its proof). */
  bool maximum = stopped && counting && !list && size < 0;
  if (maximum && !st->json && !row)
    pq_armies_print_answer(st, b, -1, PQ_ARMIES_PRINT_BOARD, &res, true, witness, 0, 0);
  cut.cert = maximum && st->cert && k > 0;
  if (stopped && counting) pq_armies_report_cut(&cut, rc, k, list, so_far, run_nodes, seconds);
  pq_status kept = cut.cert ? pq_armies_write_max_cert(&c, k, witness) : PQ_OK;
  if (kept) rc = kept;
  /* A listing stopped before its size was proven ends with its summary too: none listed. */
  if (stopped && st->json && list && !counting)
    pq_armies_print_cut_listing(&cut, k, "0", run_nodes, seconds);
  /* A count stopped (or its checkpoint not written) ends with its object too, "count":null. */
  if ((stopped || (by_parts && rc == PQ_EIO)) && (row || !list))
    print_stopped_row(st, board, letters[0], width, k, size >= 0, size < 0 && counting, proved_by,
                      witness, run_nodes, seconds, row);
  if (rc == PQ_OK && cnt.drawn) rc = draw_listed(st, b, &cnt);
  if (rc == PQ_OK && st->cert)
    rc = write_count_cert(&c, k, &cnt, count, &proof,
                          (const char *const[3]){total, uniq, uniq_colour});
done:
  free(facts);
  free(witness);
  free(c.resume.best_witness); /* (a resumed maximum's) */
  pq_armies_decision_clear(&proof);
  pq_armies_decision_clear(&c.proof);
  free(cnt.kept);
  free(cnt.drawn);
  free(cnt.text);
  pq_armies_free(a);
  pq_board_free(b);
  return rc;
}
