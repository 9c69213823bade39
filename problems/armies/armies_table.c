/* armies_table.c: armies --table (one line per board side) and the largest aggressor
   (--aggressor: the largest army facing a maximum army, OEIS A308632 for queens). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/placement.h"
#include "../../src/core/util.h"
#include "armies_run.h"

void pq_armies_aggressor_header(const pq_armies_setup *st) {
  if (st->json) return;
  if (st->format == PQ_FORMAT_CSV)
    printf("n,maximum,aggressor,proven,seconds\n");
  else if (st->format == PQ_FORMAT_TEXT)
    printf("%5s %7s %9s %9s\n", "board", "maximum", "aggressor", "seconds");
}

void pq_armies_table_header(pq_format f, bool count, bool at_size) {
  if (f == PQ_FORMAT_CSV)
    printf(!count    ? "n,maximum,proven,proof,seconds\n"
           : at_size ? "n,size,proven,proof,seconds,count,unique,unique_colour\n"
                     : "n,maximum,proven,proof,seconds,count,unique,unique_colour\n");
  else if (f == PQ_FORMAT_TEXT && count)
    printf("%5s %7s  %-7s %9s %14s %12s %12s\n", "board", at_size ? "size" : "maximum", "proof",
           "seconds", "count", "unique", "unique+col");
  else if (f == PQ_FORMAT_TEXT)
    printf("%5s %7s  %-7s %9s\n", "board", "maximum", "proof", "seconds");
}

void pq_armies_max_row(pq_format f, const char *board, int n, int best, bool proven, pq_method by,
                       double seconds) {
  const char *proof = proven ? pq_method_name(by) : "none";
  if (f == PQ_FORMAT_BFILE && proven)
    printf("%d %d\n", n, best);
  else if (f == PQ_FORMAT_CSV)
    printf("%d,%d,%s,%s,%.3f\n", n, best, proven ? "true" : "false", proof, seconds);
  else if (f == PQ_FORMAT_TEXT)
    printf("%5s %7d%s %-7s %9.3f\n", board, best, proven ? " " : "+", proof, seconds);
}

void pq_armies_count_row(pq_format f, const char *board, int n, int k, bool maximum, bool at_size,
                         pq_method by, double seconds, const char *const counts[3]) {
  const char *proof = maximum ? pq_method_name(by) : at_size ? "-" : "none";
  if (f == PQ_FORMAT_BFILE && counts)
    printf("%d %s\n", n, counts[2]); /* the classes (of OEIS A260680 for two armies of queens) */
  else if (f == PQ_FORMAT_CSV)
    printf("%d,%d,%s,%s,%.3f,%s,%s,%s\n", n, k, maximum ? "true" : "false",
           maximum ? pq_method_name(by) : "none", seconds, counts ? counts[0] : "",
           counts ? counts[1] : "", counts ? counts[2] : "");
  else if (f == PQ_FORMAT_TEXT)
    printf("%5s %7d%s %-7s %9.3f %14s %12s %12s\n", board, k, maximum || at_size ? " " : "+", proof,
           seconds, counts ? counts[0] : "-", counts ? counts[1] : "-", counts ? counts[2] : "-");
}

/* Prints the aggressor a facing m white on one board: a line of the table (row) or the answer
   with its witness. proven: m and a both proven; m_by: what proved m + 1 against m + 1 do not
   fit (when m_proven). */
static void print_aggressor(const pq_armies_setup *st, const pq_board *b, int m, bool m_proven,
                            pq_method m_by, const pq_armies_answer *a, uint64_t nodes,
                            double seconds, bool row) {
  bool proven = m_proven && a->proven;
  char letters[3] = {pq_piece_letters[st->piece], (char)(pq_piece_letters[st->piece] - 'A' + 'a'),
                     '\0'};
  char *text = pq_malloc((size_t)b->squares + (size_t)b->height + 1);
  pq_placement_text(b, a->witness, letters, text);
  if (st->json) {
    char board[24];
    snprintf(board, sizeof board, "%dx%d", b->width, b->height);
    pq_armies_json_open(board, letters[0], 2);
    printf(",\"maximum\":%d,\"maximum_optimal\":%s", m, m_proven ? "true" : "false");
    if (m_proven) printf(",\"maximum_proved_by\":\"%s\"", pq_method_name(m_by));
    printf(",\"aggressor\":%d,\"optimal\":%s", a->best, proven ? "true" : "false");
    if (proven) printf(",\"proved_by\":\"%s\"", pq_method_name(a->proved_by));
    printf(",\"witness\":\"%s\",\"nodes\":%" PRIu64 ",\"seconds\":%.3f}\n", text, nodes, seconds);
  } else if (row && st->format == PQ_FORMAT_BFILE) {
    if (proven) printf("%d %d\n", b->width, a->best); /* a b-file holds proven values only */
  } else if (row && st->format == PQ_FORMAT_CSV) {
    printf("%d,%d,%d,%s,%.3f\n", b->width, m, a->best, proven ? "true" : "false", seconds);
  } else if (row) {
    char board[24];
    snprintf(board, sizeof board, "%dx%d", b->width, b->height);
    printf("%5s %7d%s %8d%s %9.3f\n", board, m, m_proven ? " " : "+", a->best, proven ? " " : "+",
           seconds);
  } else {
    const char *name = pq_piece_name(st->piece, 2);
    if (m == 0 && proven) /* a black army would face no white one (not "facing 0 is 0") */
      printf("armies of %s on %dx%d: maximum 0, proven; no army to face: the aggressor is 0, as "
             "in OEIS A308632\n",
             name, b->width, b->height);
    else
      printf("armies of %s on %dx%d: maximum %d%s; the largest army facing %d is %d%s\n", name,
             b->width, b->height, m, m_proven ? "" : " or more (not proven)", m, a->best,
             proven ? ", proven" : " or more, not proven");
    pq_placement_draw(stdout, b, a->witness, letters);
    printf("%s\n", text);
  }
  free(text);
}

/* The largest aggressor (armies_run.h). The black climb comes first, facing m0 white, m0 the
   first witness of equal armies (m0 against m0, found by the local search without proof; boards
   too small for the local search prove the maximum first, as below): when no m0 + 1 black face
   m0 white, no m0 + 1 face m0 + 1 either, and that one proof settles both the maximum (m0) and
   the aggressor (m0). Otherwise the maximum is proven from m0 (without the certificate or the
   pictures, which are the aggressor's); should it exceed m0, the climb is run again facing it.
   Under a limit a number may be unproven: the aggressor is then that of the m found, and both
   are marked not proven. */
pq_status pq_armies_aggressor(const pq_armies_setup *st, int width, int height, bool row) {
  double t0 = pq_now();
  uint64_t searched = *st->searched; /* before this board */
  pq_armies_setup equal = *st;
  equal.cert = equal.svg = equal.export_lp = equal.export_mps = NULL;
  pq_armies_answer *m = pq_malloc(sizeof *m), *a = pq_malloc(sizeof *a);
  bool local = pq_armies_first_witness(&equal, width, height, -1, m);
  /* The local search's witness is m's start: the proof of the maximum need not repeat it. */
  equal.local_moves = 0;
  bool m_proven = false;
  pq_method m_by = PQ_METHOD_SEARCH;
  pq_status rc = PQ_OK;
  bool climb_stopped = false; /* (a stopped climb's --cert holds its witness alone) */
  if (!m->best || !local) {
    /* Without the local search the greedy witness is often below the maximum, and a climb
       facing it would be lost: the maximum first (on small boards, where its proof is quick).
       With m = 0 the aggressor is 0 (OEIS A308632's a(1) and a(2)), not the whole board: the
       maximum is solved again, with the certificate. */
    pq_armies_answer first = *m;
    rc = pq_armies_solve_board(&equal, width, height, -1, PQ_ARMIES_PRINT_NONE, &first, m);
    m_proven = rc == PQ_OK;
    m_by = m->proved_by;
  }
  *a = *m; /* until a climb: m black face m white (what a signal before one prints) */
  a->proven = false;
  /* Each turn either ends or raises m (at most the board's squares). */
  while (rc == PQ_OK || rc == PQ_ELIMIT) {
    /* Without a certificate, the climb's decisions ask for m + 1 against m + 1 too, until
       something fits: when nothing does at the last, the maximum is proven with it. */
    pq_armies_setup climb = *st;
    climb.also = m->best && !m_proven ? m->best + 1 : 0;
    pq_status arc = pq_armies_solve_board(&climb, width, height, m->best ? m->best : -1,
                                          PQ_ARMIES_PRINT_NONE, m->best ? m : NULL, a);
    if (arc != PQ_OK) {
      rc = arc;
      climb_stopped = true;
      break;
    }
    /* m + 1 face no m + 1 (or m = 0 was the maximum); or the last decision proved it. */
    if (!m_proven && (a->best == m->best || a->also_proven)) {
      m_proven = true;
      m_by = a->proved_by;
    }
    if (m_proven) break;
    pq_armies_answer first = *m;
    rc = pq_armies_solve_board(&equal, width, height, -1, PQ_ARMIES_PRINT_NONE, &first, m);
    m_proven = rc == PQ_OK;
    m_by = m->proved_by;
    if (m->best == first.best) break; /* the climb above faced the maximum found */
  }
  if (rc == PQ_OK || rc == PQ_ELIMIT || rc == PQ_EINTR) {
    /* What was found so far, marked not proven, also when a signal stopped the run. */
    pq_board *b = pq_board_new(width, height);
    print_aggressor(st, b, m->best, m_proven, m_by, a, *st->searched - searched, pq_now() - t0,
                    row);
    fflush(stdout);
    pq_board_free(b);
  }
  if (rc == PQ_ELIMIT || rc == PQ_EINTR)
    pq_error("armies: %s on %dx%d before the proof: the largest aggressor not proven%s",
             pq_stop_cause(rc), width, height,
             climb_stopped && st->cert ? PQ_WITNESS_CERT_NOTE : "");
  free(m);
  free(a);
  return rc;
}

typedef struct table_ctx {
  pq_armies_setup each; /* every board's setup but its limits */
  bool count, aggressor;
  int size;
} table_ctx;

static pq_status table_row(void *ctx, const pq_table_row *r) {
  table_ctx *c = ctx;
  pq_armies_setup board = c->each;
  int n = r->n;
  board.deadline = r->deadline;
  board.params.node_limit = r->node_limit;
  board.checkpoint = r->checkpoint;
  board.resume = r->resume;
  return c->aggressor ? pq_armies_aggressor(&board, n, n, true)
         : c->count   ? pq_armies_count_board(&board, n, n, c->size, false, false, true)
                      : pq_armies_solve_board(&board, n, n, -1, PQ_ARMIES_PRINT_ROW, NULL, NULL);
}

pq_status pq_armies_table(const pq_armies_setup *st, int from, int to, bool count, bool aggressor,
                          int size) {
  if (aggressor)
    pq_armies_aggressor_header(st);
  else if (!st->json)
    pq_armies_table_header(st->format, count, size >= 0);
  /* A board that a limit stopped prints its best army, marked not proven; the exit status then
     says that some board was not proven. */
  table_ctx c = {.each = *st, .count = count, .aggressor = aggressor, .size = size};
  c.each.share = st->params.time_limit / (to - from + 1);
  char json[64];
  snprintf(json, sizeof json, "\"problem\":\"armies\",\"piece\":\"%c\"",
           pq_piece_letters[st->piece]);
  pq_table t = {.from = from,
                .to = to,
                .deadline = st->deadline,
                .node_limit = st->params.node_limit,
                .searched = st->searched,
                .checkpoint = st->checkpoint,
                .resume = st->resume,
                .command = "armies",
                .row = table_row,
                .ctx = &c,
                .json = st->json ? json : NULL};
  return pq_table_run(&t);
}
