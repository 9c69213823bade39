/* armies.c: the armies command: maximum peaceable armies with proof, counts, lists, tables. */
#include "armies.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/cli/problem.h"
#include "../../src/core/placement.h"
#include "../../src/core/svg.h"
#include "../../src/core/sym.h"
#include "../../src/lp/lp.h"
#include "../../src/run/outer.h"
#include "../../src/run/progress.h"
#include "armies_colours.h"
#include "armies_ilp.h"
#include "armies_local.h"
#include "armies_parts.h"
#include "armies_run.h"
#include "armies_text.h"

typedef pq_armies_setup setup;

/* Draws count placements (1 white, 2 black) of piece p on board b into path; none (count 0): the
   empty board, captioned so. */
pq_status pq_armies_draw(const char *path, const pq_board *b, pq_piece p, const uint8_t *cells,
                         int count) {
  pq_svg_code codes[2] = {{pq_piece_letters[p], 0}, {pq_piece_letters[p], 1}};
  pq_svg_picture pic;
  pq_svg_picture_init(&pic);
  pic.board = b;
  pic.count = count;
  pic.cells = cells;
  pic.ncodes = 2;
  pic.codes = codes;
  return pq_svg_save(path, &pic);
}

/* White pieces print upper case, black lower case. */
void pq_armies_letters(pq_piece p, char letters[3]) {
  letters[0] = pq_piece_letters[p];
  letters[1] = (char)(letters[0] - 'A' + 'a');
  letters[2] = '\0';
}

pq_status pq_armies_shared_options(const pq_options *o, bool count, uint64_t *seed) {
  *seed = o->v.seed < 0 ? 1 : (uint64_t)o->v.seed;
  if ((o->seed || o->local_moves) && o->size) {
    pq_error("armies: --seed and --local-moves apply to a maximum (the local search gives its "
             "start), not to --size");
    return PQ_EINVAL;
  }
  if ((o->export_lp || o->export_mps) && (count || o->list || o->table || o->part)) {
    pq_error("armies: --export-lp and --export-mps apply to one board's maximum or --size, not "
             "to --count, --list, --table or --part");
    return PQ_EINVAL;
  }
  return PQ_OK;
}

void pq_armies_json_open(const char *board, char piece, int colours) {
  printf("{\"problem\":\"armies\",\"board\":\"%s\",\"piece\":\"%c\"", board, piece);
  if (colours > 2) printf(",\"colours\":%d", colours);
}

/* Whether a placement (1 white, 2 black) is peaceable: checked square by square with plain
   geometry, independently of the search. */
bool pq_armies_peaceable(const pq_board *b, pq_piece p, const uint8_t *cells) {
  int at[2][PQ_MAX_SQUARES], have[2] = {0, 0};
  for (int s = 0; s < b->squares; s++)
    if (cells[s] == 1 || cells[s] == 2) at[cells[s] - 1][have[cells[s] - 1]++] = s;
  for (int i = 0; i < have[0]; i++)
    for (int j = 0; j < have[1]; j++)
      if (pq_attacks_plain(b, p, at[0][i], at[1][j])) return false;
  return true;
}

/* A witness of `white` white pieces facing its black army: a step may find more white (the local
   search, whose white army only has to be at least `white`), which are dropped from the last
   (dropping a white piece attacks nothing); with no black army at all the loop may keep the empty
   board, and any `white` squares then hold the white army. */
static void fit_white(const pq_board *b, int white, uint8_t *cells) {
  int have = 0, black = 0;
  for (int s = 0; s < b->squares; s++)
    have += cells[s] == 1, black += cells[s] == 2;
  for (int s = b->squares - 1; s >= 0 && have > white; s--)
    if (cells[s] == 1) cells[s] = 0, have--;
  for (int s = 0; s < b->squares && have < white && !black; s++)
    if (!cells[s]) cells[s] = 1, have++;
  PQ_REQUIRE(have == white, "a witness of %d white, not %d", have, white);
}

/* Moves of the local search a second of --time-limit buys, when the board's default budget is
   smaller: a count, not a clock, so that a run with a time limit repeats too. Set below what
   this machine does under load (15 to 25 million a second on 16x16 to 32x32), so that the
   deadline rarely cuts the count short. */
#define LOCAL_MOVES_A_SECOND 10000000.0

/* The seconds left of --time-limit (armies_run.h). */
double pq_armies_time_left(const setup *st) {
  if (st->deadline <= 0) return 0;
  double left = st->deadline - pq_now();
  return left > 1e-6 ? left : 1e-6;
}

/* The search parameters for a step that starts now: what is left of --time-limit and of
   --node-limit (the search nodes of the whole run). Not for the integer program's thread,
   which races the search: it takes time_left and, for its own branch-and-bound nodes, the
   node limit. */
pq_armies_params pq_armies_params_now(const setup *st) {
  pq_armies_params p = st->params;
  p.time_limit = pq_armies_time_left(st);
  if (p.node_limit) p.node_limit = *st->searched < p.node_limit ? p.node_limit - *st->searched : 1;
  return p;
}

typedef pq_armies_board board_ctx;

pq_status pq_armies_resume_witness(board_ctx *c) {
  if (c->resume.best < 0) return PQ_OK;
  char letters[3];
  pq_armies_letters(c->st->piece, letters);
  int white = 0, black = 0;
  if (pq_placement_parse(c->board, c->resume.best_witness, letters, c->best_witness) == PQ_OK) {
    for (int s = 0; s < c->board->squares; s++)
      white += c->best_witness[s] == 1, black += c->best_witness[s] == 2;
    bool sound =
        black == c->resume.best && pq_armies_peaceable(c->board, c->st->piece, c->best_witness);
    int want = c->white < 0 ? black : c->white;
    if (sound && white == want) return PQ_OK;
    if (sound) {
      /* A checkpoint of another run on this board: equal armies, or another --white. */
      if (c->white < 0)
        pq_error("--resume %s: its witness is of %d white against %d black, not of equal armies",
                 c->st->resume, white, black);
      else
        pq_error("--resume %s: its witness is of %d white against %d black, not of --white %d",
                 c->st->resume, white, black, c->white);
      return PQ_EINVAL;
    }
  }
  pq_error("--resume %s: its witness is not a peaceable placement of its size", c->st->resume);
  return PQ_EINVAL;
}

/* Reads the head of the checkpoint to resume from and checks it all now: its finished parts
   against the split of its decision (knights: its bounds, taken into the search's record at
   once), and its witness. (The file of parts is not written before its decision comes: see
   decide_task.) */
static pq_status start_resume(board_ctx *c) {
  pq_status rc = pq_armies_resume_read(c->st->resume, c->board, c->st->piece, &c->resume);
  if (rc) return rc;
  if (c->resume.counting) {
    pq_error("--resume %s: a checkpoint of a count or a listing, not of a maximum or a decision",
             c->st->resume);
    return PQ_EINVAL;
  }
  c->resuming = true;
  if (c->st->piece == PQ_KNIGHT) {
    /* No parts: its bounds are taken, on its word unless --cert proves them again. */
    if (!c->st->cert) pq_engine_on_word();
    return pq_armies_resume_witness(c);
  }
  pq_armies_params p = c->st->params;
  p.proof = c->st->cert != NULL;
  p.grow = c->grow;
  pq_armies_task task = {.armies = c->armies,
                         .board = c->board,
                         .white = c->resume.white,
                         .black = c->resume.black,
                         .params = &p,
                         .depth = PQ_ARMIES_SPLIT_DEPTH,
                         .resume = c->st->resume};
  if ((rc = pq_armies_task_check(&task))) return rc;
  return pq_armies_resume_witness(c);
}

pq_status pq_armies_start_resume(board_ctx *c) { return start_resume(c); }

/* The best witness so far as text (NULL: none yet); the caller frees. */
static char *best_text(const board_ctx *c) {
  if (c->best < 0) return NULL;
  char letters[3], *text = pq_malloc((size_t)c->board->squares + (size_t)c->board->height + 1);
  pq_armies_letters(c->st->piece, letters);
  pq_placement_text(c->board, c->best_witness, letters, text);
  return text;
}

/* The facts of the run's checkpoints: the best size so far and its witness. */
static char *best_facts(const board_ctx *c) {
  char *text = best_text(c), *facts = pq_armies_facts(c->best, text);
  free(text);
  return facts;
}

/* Decides k part by part, saving finished parts in the checkpoint (and resuming from one). */
static pq_status decide_task(board_ctx *c, int k, const pq_armies_params *p,
                             pq_armies_decision *d) {
  const setup *st = c->st;
  char *text = best_text(c);
  int white = c->white < 0 ? k : c->white;
  if (c->resuming && k > c->resume.black) c->resuming = false; /* passed it: not to come */
  bool resume = c->resuming && c->resume.white == white && c->resume.black == k;
  /* Before the resumed decision comes, the checkpoint is not written: it holds that decision's
     finished parts, which a run stopped in between would otherwise lose. */
  bool save = !c->resuming || resume;
  pq_armies_task task = {.armies = c->armies,
                         .board = c->board,
                         .white = white,
                         .black = k,
                         .params = p,
                         .depth = PQ_ARMIES_SPLIT_DEPTH,
                         .checkpoint = save ? st->checkpoint : NULL,
                         .resume = resume ? st->resume : NULL,
                         .best = c->best,
                         .best_witness = text};
  pq_status rc = pq_armies_task_run(&task, d);
  if (resume) c->resuming = false;
  free(text);
  return rc;
}

static pq_status decide_search(void *arg, int k, const volatile int *cancel, bool *found,
                               uint8_t *witness) {
  board_ctx *c = arg;
  pq_armies_params p = pq_armies_params_now(c->st);
  p.cancel = cancel;
  p.proof = c->st->cert != NULL;
  bool knights = c->st->piece == PQ_KNIGHT;
  /* Knights with a checkpoint climb one size a decision (the same searches as growing within
     one), so that the checkpoint's best witness follows the climb. */
  p.grow = c->grow && !(knights && c->st->checkpoint);
  /* The search of a line piece answers for also only below the squares (pq_armies_decide). */
  int also = c->white >= 0 && !p.proof && c->white + k <= c->board->squares ? c->also : 0;
  p.also = also;
  pq_armies_decision d;
  pq_status rc;
  if ((c->st->checkpoint || c->st->resume) && !knights) {
    rc = decide_task(c, k, &p, &d);
  } else {
    /* Knights write their checkpoint themselves: the bounds learnt, and the best witness. */
    char *facts = knights && c->st->checkpoint ? best_facts(c) : NULL;
    p.checkpoint = facts ? c->st->checkpoint : NULL;
    p.facts = facts;
    rc = pq_armies_decide(c->armies, c->white < 0 ? k : c->white, k, &p, &d);
    free(facts);
  }
  c->nodes += d.nodes;
  *c->st->searched += d.nodes;
  if (rc == PQ_OK && also && d.found) {
    /* Something fits: the rest of the climb asks for k alone. A witness of also against also
       alone (fewer than k black) does not answer k: decided again without it. */
    c->also = 0;
    int black = 0;
    for (int s = 0; s < c->board->squares; s++)
      black += d.witness[s] == 2;
    if (black < k) {
      pq_armies_decision_clear(&d);
      return decide_search(arg, k, cancel, found, witness);
    }
  }
  if (rc == PQ_OK && also && !d.found) c->also_proved = k;
  if (rc == PQ_OK) {
    *found = d.found;
    if (d.found) {
      /* With --white, a witness of exactly that many white (a decision may give more). */
      if (c->white >= 0) fit_white(c->board, c->white, d.witness);
      memcpy(witness, d.witness, (size_t)c->board->squares);
      c->best = 0;
      for (int s = 0; s < c->board->squares; s++)
        c->best += witness[s] == 2;
      memcpy(c->best_witness, witness, (size_t)c->board->squares);
    }
    if (!d.found && p.proof) {
      pq_armies_decision_clear(&c->proof);
      c->proof = d;
      c->proof_size = k;
      return rc;
    }
  }
  pq_armies_decision_clear(&d);
  return rc;
}

/* The same decision by integer programming (GLPK), on one thread. */
static pq_status decide_ilp(void *arg, int k, const volatile int *cancel, bool *found,
                            uint8_t *witness) {
  board_ctx *c = arg;
  pq_lp_params limits = pq_lp_limits(NULL);
  limits.cancel = cancel;
  limits.time_limit = pq_armies_time_left(c->st);
  limits.node_limit = c->st->params.node_limit;
  return pq_armies_ilp_decide(c->board, c->st->piece, c->white < 0 ? k : c->white, k, &limits,
                              found, witness);
}

/* The size of a witness: its black army (white is equal, or fixed). */
static int size_of(void *arg, const uint8_t *witness) {
  board_ctx *c = arg;
  int black = 0;
  for (int s = 0; s < c->board->squares; s++)
    black += witness[s] == 2;
  return black;
}

/* The local search's witness, when it beats the size k found so far: on boards the exact
   search cannot settle at once, a good army before any proof (issue 15). Its budget is
   --local-moves, or the board's default, grown to half the board's share of --time-limit at
   LOCAL_MOVES_A_SECOND; it stops at half of what is left of --time-limit whatever the count,
   so that the search for a proof keeps the other half. Returns the larger size. */
static int local_witness(board_ctx *c, int k, uint8_t *witness) {
  const setup *st = c->st;
  pq_armies_local_params p;
  pq_armies_local_params_init(&p);
  p.seed = st->seed;
  p.white = c->white;
  p.moves = st->local_moves >= 0 ? (uint64_t)st->local_moves
                                 : pq_armies_local_default_moves(c->board, st->piece);
  /* A resumed maximum starts from its checkpoint's witness, which the run that wrote it reached
     from its own local search: not run again (resuming a finished 12x12 took 0.8 s, nearly all
     of it the local search). */
  if (!p.moves || c->resuming) return k;
  /* Under peaceable-mpi every process climbs from the same start, which a time limit (rank 0's
     alone) would make differ (rank 1 then did not follow rank 0's runs): its moves are fixed
     there, and run whole. */
  bool alike = pq_engine_remote_hook != NULL;
  if (!alike && st->local_moves < 0 && st->share / 2 * LOCAL_MOVES_A_SECOND > (double)p.moves)
    p.moves = (uint64_t)(st->share / 2 * LOCAL_MOVES_A_SECOND);
  if (!alike && st->deadline > 0) p.deadline = pq_now() + pq_armies_time_left(st) / 2;
  uint8_t *found = pq_malloc((size_t)c->board->squares);
  double t0 = pq_now();
  int size = pq_armies_local_find(c->board, st->piece, &p, found);
  /* A note like progress: none for a step under a second, so that quick runs keep stderr for
     their one message. */
  if (pq_progress_enabled && pq_now() - t0 >= 1)
    fprintf(stderr, "peaceable: armies: local search: %d in %.1f s, a start, not a proof\n", size,
            pq_now() - t0);
  if (size > k) {
    k = size;
    memcpy(witness, found, (size_t)c->board->squares);
  }
  free(found);
  return k;
}

static int heuristic(void *arg, uint8_t *witness) {
  board_ctx *c = arg;
  int k = c->white < 0 ? pq_armies_heuristic(c->armies, witness) : 0;
  k = local_witness(c, k, witness);
  if (c->start && c->start->best > k) {
    k = c->start->best;
    memcpy(witness, c->start->witness, (size_t)c->board->squares);
  }
  if (c->resuming && c->resume.best > k) {
    /* The checkpoint's witness, checked by start_resume. */
    k = c->resume.best;
    memcpy(witness, c->best_witness, (size_t)c->board->squares);
  }
  /* With --white, the loop's witnesses have exactly that many white (decide_search trims its
     own; the integer program's have), and the checkpoints, which a resumed run checks so. */
  if (c->white >= 0) fit_white(c->board, c->white, witness);
  c->best = k;
  memcpy(c->best_witness, witness, (size_t)c->board->squares);
  return k;
}

/* The loop took a witness of size k, found by either method: checkpoints carry it from now on. */
static void found(void *arg, int k, const uint8_t *witness) {
  board_ctx *c = arg;
  c->best = k;
  memcpy(c->best_witness, witness, (size_t)c->board->squares);
}

static void board_text(const pq_board *b, char *buf) { sprintf(buf, "%dx%d", b->width, b->height); }

/* The maximum of equal armies on c's board by the outer loop with st->method (armies_run.h; it
   was the search alone, whatever --method said). */
pq_status pq_armies_board_maximum(board_ctx *c, pq_outer_result *res) {
  pq_maximize m = {.ctx = c,
                   .board = c->board,
                   .upper = c->board->squares / 2,
                   .heuristic = heuristic,
                   .decide_search = decide_search,
                   .decide_ilp = c->st->method == PQ_METHOD_SEARCH ? NULL : decide_ilp};
  return pq_outer_run(&m, c->st->method, res);
}

/* Makes sure c->proof holds the proof that size + 1 does not fit: when the last step was proven
   by another method (or a race), searches again for a proof. */
pq_status pq_armies_prove_next(board_ctx *c, int size) {
  if (c->proof_size == size + 1 && (c->proof.ncubes || size + 1 > c->board->squares / 2))
    return PQ_OK;
  pq_armies_params p = pq_armies_params_now(c->st);
  p.proof = true;
  pq_armies_decision d;
  pq_status rc = pq_armies_decide(c->armies, c->white < 0 ? size + 1 : c->white, size + 1, &p, &d);
  if (rc != PQ_OK) return rc;
  PQ_REQUIRE(!d.found, "size %d found after it was proven infeasible", size + 1);
  pq_armies_decision_clear(&c->proof);
  c->proof = d;
  c->proof_size = size + 1;
  return PQ_OK;
}

pq_status pq_armies_write_max_cert(board_ctx *c, int size, const char *text) {
  const setup *st = c->st;
  pq_status prc = pq_armies_prove_next(c, size);
  if (prc != PQ_OK) return prc;
  char board[16];
  board_text(c->board, board);
  pq_armies_cert cert = {
      .board = board,
      .piece = pq_piece_letters[st->piece],
      .claim = "maximum",
      .white = c->white < 0 ? size + 1 : c->white,
      .black = size + 1,
      .witness = text,
      .witness_white = c->white < 0 ? size : c->white,
      .witness_black = size,
      .proof = &c->proof,
  };
  return pq_armies_cert_write(st->cert, &cert);
}

/* The same from the witness's cells. */
static pq_status write_cert(board_ctx *c, int size, const uint8_t *witness) {
  char letters[3];
  pq_armies_letters(c->st->piece, letters);
  char *text = pq_malloc((size_t)c->board->squares + (size_t)c->board->height + 1);
  pq_placement_text(c->board, witness, letters, text);
  pq_status rc = pq_armies_write_max_cert(c, size, text);
  free(text);
  return rc;
}

pq_status pq_armies_write_witness_cert(const char *path, const char *board, char piece,
                                       const char *text, int white, int black) {
  pq_armies_cert cert = {.board = board,
                         .piece = piece,
                         .claim = "feasible",
                         .witness = text,
                         .witness_white = white,
                         .witness_black = black};
  return pq_armies_cert_write(path, &cert);
}

void pq_armies_print_answer(const setup *st, const pq_board *b, int white, pq_armies_print print,
                            const pq_outer_result *res, bool proven, const char *text,
                            uint64_t nodes, double seconds) {
  bool row = print == PQ_ARMIES_PRINT_ROW;
  char letters[3], board[16];
  pq_armies_letters(st->piece, letters);
  board_text(b, board);
  if (print != PQ_ARMIES_PRINT_NONE && st->json) {
    pq_armies_json_open(board, letters[0], 2);
    if (white >= 0) printf(",\"white\":%d", white);
    printf(",\"size\":%d,\"optimal\":%s", res->best, proven ? "true" : "false");
    if (proven)
      printf(",\"proved_by\":\"%s\"%s", pq_method_name(res->proved_by), pq_engine_word_json());
    printf(",\"witness\":\"%s\",\"nodes\":%" PRIu64 ",\"seconds\":%.3f}\n", text, nodes, seconds);
  } else if (row) {
    pq_armies_max_row(st->format, board, b->width, res->best, proven, res->proved_by, seconds);
  } else if (print == PQ_ARMIES_PRINT_BOARD) {
    const char *name = pq_piece_name(st->piece, 2), *whites = pq_piece_name(st->piece, white);
    if (white >= 0 && proven)
      printf("%d white %s on %s %s at most %d black: proven%s\n", white, whites, board,
             white == 1 ? "faces" : "face", res->best, pq_engine_word_text());
    else if (white >= 0)
      printf("%d white %s on %s %s %d black or more, not proven\n", white, whites, board,
             white == 1 ? "faces" : "face", res->best);
    else if (proven)
      printf("armies of %s on %s: maximum %d, proven optimal by %s (no placement of %d)%s\n", name,
             board, res->best, pq_method_name(res->proved_by), res->best + 1,
             pq_engine_word_text());
    else
      printf("armies of %s on %s: %d or more, not proven\n", name, board, res->best);
    pq_placement_draw(stdout, b, res->witness, letters);
    printf("%s\n", text);
  }
}

/* Maximum size on one board, proven (armies_run.h). */
pq_status pq_armies_solve_board(const setup *st, int width, int height, int white,
                                pq_armies_print print, const pq_armies_answer *start,
                                pq_armies_answer *out) {
  pq_board *b = pq_board_new(width, height);
  board_ctx c = {.st = st,
                 .board = b,
                 .armies = pq_armies_new(b, st->piece),
                 .white = white,
                 .grow = true,
                 .start = start,
                 .also = st->piece == PQ_QUEEN || st->piece == PQ_ROOK || st->piece == PQ_BISHOP
                             ? st->also
                             : 0};
  pq_maximize m = {
      .ctx = &c,
      .board = b,
      .upper = white < 0 ? b->squares / 2 : b->squares - white,
      .heuristic = heuristic,
      .decide_search = decide_search,
      .size_of = size_of,
      .decide_ilp = st->method == PQ_METHOD_SEARCH ? NULL : decide_ilp,
      .found = found,
  };
  /* (A resume whose read a limit stopped runs nothing: the empty board, size 0, is what it found;
     res was left undefined, and its witness drawn.) */
  pq_outer_result res = {0};
  double t0 = pq_now();
  uint64_t searched = *st->searched; /* before this board */
  pq_status rc = st->resume && white <= b->squares ? start_resume(&c) : PQ_OK;
  bool ran = rc == PQ_OK && white <= b->squares;
  if (ran) rc = pq_outer_run(&m, st->method, &res);
  /* A checkpoint that cannot be written ends the run (its message printed): what was found is
     still printed, not proven, as when a limit stops it. */
  bool failed = ran && rc == PQ_EIO && res.best > 0;
  double seconds = pq_now() - t0;
  char letters[3], board[16];
  pq_armies_letters(st->piece, letters);
  board_text(b, board);
  if (white > b->squares) {
    pq_error("armies: --white %d: the board has only %d %s", white, b->squares,
             pq_noun(b->squares, "square", "squares"));
    rc = PQ_EINVAL;
  } else if (rc == PQ_OK || rc == PQ_ELIMIT || rc == PQ_EINTR || failed) {
    PQ_REQUIRE(pq_armies_peaceable(b, st->piece, res.witness), "witness of %d is not peaceable",
               res.best);
    bool proven = rc == PQ_OK;
    char *text = pq_malloc((size_t)b->squares + (size_t)b->height + 1);
    pq_placement_text(b, res.witness, letters, text);
    if (out) {
      *out = (pq_armies_answer){.best = res.best,
                                .proven = proven,
                                .seconds = seconds,
                                .also_proven = proven && c.also_proved == res.best + 1};
      if (proven) out->proved_by = res.proved_by;
      memcpy(out->witness, res.witness, (size_t)b->squares);
    }
    pq_armies_print_answer(st, b, white, print, &res, proven, text, *st->searched - searched,
                           seconds);
    fflush(stdout);
    if (!proven && print != PQ_ARMIES_PRINT_NONE) /* (else the caller's message) */
      pq_error("armies: %s on %s before the proof: size %d found, maximum not proven%s",
               rc == PQ_EINTR ? "interrupted"
               : rc == PQ_EIO ? "an error stopped the run"
                              : "a limit stopped the run",
               board, res.best, st->cert && res.best > 0 ? PQ_WITNESS_CERT_NOTE : "");
    if (proven && st->cert) rc = write_cert(&c, res.best, res.witness);
    /* Stopped: the witness found is work not to lose, certified as what it is, not a maximum (an
       empty board is none: it wrote a certificate of 0 against 0 over the file). */
    if (!proven && st->cert && res.best > 0) {
      pq_status wrc = pq_armies_write_witness_cert(st->cert, board, letters[0], text,
                                                   white < 0 ? res.best : white, res.best);
      if (wrc != PQ_OK) rc = wrc;
    }
    /* (its picture too: it was not drawn, and nothing said so) */
    if (st->svg && (rc == PQ_OK || (!proven && res.best > 0))) {
      pq_status drc = pq_armies_draw(st->svg, b, st->piece, res.witness, 1);
      if (drc) rc = drc;
    }
    /* The model of the size after the best: proven impossible, or stopped, the first open one
       (for an outside solver; it was not written when a limit stopped the run). */
    if (rc == PQ_OK || rc == PQ_ELIMIT || rc == PQ_EINTR) {
      pq_status erc = pq_armies_ilp_export(b, st->piece, white < 0 ? res.best + 1 : white,
                                           res.best + 1, st->export_lp, st->export_mps);
      if (erc) rc = erc;
    }
    free(text);
  }
  free(c.resume.best_witness);
  pq_armies_decision_clear(&c.proof);
  pq_armies_free(c.armies);
  pq_board_free(b);
  return rc;
}

/* The first witness of one board, without any proof (armies_run.h). */
bool pq_armies_first_witness(const setup *st, int width, int height, int white,
                             pq_armies_answer *out) {
  pq_board *b = pq_board_new(width, height);
  board_ctx c = {.st = st, .board = b, .armies = pq_armies_new(b, st->piece), .white = white};
  double t0 = pq_now();
  uint8_t *witness = pq_calloc((size_t)b->squares, 1);
  int k = heuristic(&c, witness);
  PQ_REQUIRE(pq_armies_peaceable(b, st->piece, witness), "first witness of %d is not peaceable", k);
  *out = (pq_armies_answer){.best = k, .seconds = pq_now() - t0};
  memcpy(out->witness, witness, (size_t)b->squares);
  free(witness);
  pq_armies_free(c.armies);
  bool local =
      st->local_moves >= 0 ? st->local_moves > 0 : pq_armies_local_default_moves(b, st->piece) > 0;
  pq_board_free(b);
  return local;
}

static pq_status decide_size(const setup *st, int width, int height, int size) {
  pq_board *b = pq_board_new(width, height);
  board_ctx c = {
      .st = st, .board = b, .armies = pq_armies_new(b, st->piece), .white = -1, .best = -1};
  bool found = false;
  uint8_t witness[PQ_MAX_SQUARES] = {0};
  double t0 = pq_now();
  pq_status rc = st->resume ? start_resume(&c) : PQ_OK;
  /* The checkpoint's witness (checked) stays in the checkpoints this run writes. */
  if (rc == PQ_OK && st->resume) c.best = c.resume.best;
  if (rc == PQ_OK && st->resume && st->piece != PQ_KNIGHT &&
      (c.resume.white != size || c.resume.black != size)) {
    pq_error("--resume %s: a checkpoint of %d against %d, not --size %d", st->resume,
             c.resume.white, c.resume.black, size);
    rc = PQ_EINVAL;
  }
  pq_maximize m = {.ctx = &c,
                   .board = b,
                   .upper = b->squares / 2,
                   .decide_search = decide_search,
                   .decide_ilp = st->method == PQ_METHOD_SEARCH ? NULL : decide_ilp};
  pq_method by = PQ_METHOD_SEARCH;
  if (rc == PQ_OK) rc = pq_outer_decide(&m, st->method, size, &found, witness, &by);
  if (rc == PQ_OK && !found && st->cert && !c.proof.ncubes) {
    /* Integer programming answered: the certificate's proof comes from the search. */
    bool again;
    rc = decide_search(&c, size, NULL, &again, witness);
    PQ_REQUIRE(rc != PQ_OK || !again, "size %d found after it was proven impossible", size);
  }
  char letters[3], board[16];
  pq_armies_letters(st->piece, letters);
  board_text(b, board);
  if (rc == PQ_OK) {
    char *text = pq_malloc((size_t)b->squares + (size_t)b->height + 1);
    pq_placement_text(b, witness, letters, text);
    if (found) PQ_REQUIRE(pq_armies_peaceable(b, st->piece, witness), "witness is not peaceable");
    if (st->json) {
      pq_armies_json_open(board, letters[0], 2);
      printf(",\"size\":%d,\"feasible\":%s", size, found ? "true" : "false");
      if (found)
        printf(",\"witness\":\"%s\"", text);
      else
        printf(",\"proved_by\":\"%s\"%s", pq_method_name(by), pq_engine_word_json());
      printf(",\"nodes\":%llu,\"seconds\":%.3f}\n", (unsigned long long)c.nodes, pq_now() - t0);
    } else if (found) {
      printf("armies of %d against %d on %s: possible\n", size, size, board);
      pq_placement_draw(stdout, b, witness, letters);
      printf("%s\n", text);
    } else {
      printf("armies of %d against %d on %s: impossible, proven by %s%s\n", size, size, board,
             pq_method_name(by), pq_engine_word_text());
    }
    if (rc == PQ_OK)
      rc = pq_armies_ilp_export(b, st->piece, size, size, st->export_lp, st->export_mps);
    if (rc == PQ_OK && st->svg) rc = pq_armies_draw(st->svg, b, st->piece, witness, found);
    if (rc == PQ_OK && found && st->cert) {
      rc = pq_armies_write_witness_cert(st->cert, board, letters[0], text, size, size);
    } else if (rc == PQ_OK && st->cert) {
      /* The certificate of infeasibility alone: no witness. */
      pq_armies_cert cert = {
          .board = board,
          .piece = letters[0],
          .claim = "infeasible",
          .white = size,
          .black = size,
          .witness = NULL,
          .proof = &c.proof,
      };
      rc = pq_armies_cert_write(st->cert, &cert);
    }
    free(text);
  } else if (rc == PQ_ELIMIT || rc == PQ_EINTR || (rc == PQ_EIO && pq_engine_save_failed())) {
    pq_error("armies: %s before size %d was decided%s%s",
             rc == PQ_EINTR ? "interrupted"
             : rc == PQ_EIO ? "stopped by a checkpoint it could not write"
                            : "a limit stopped the run",
             size, st->checkpoint && rc != PQ_EIO ? pq_engine_kept_note() : "",
             st->cert || st->svg ? "; nothing decided, no certificate or picture written" : "");
    /* Its object too, as every mode ends with one: nothing said of the size. */
    if (st->json) {
      pq_armies_json_open(board, letters[0], 2);
      printf(",\"size\":%d,\"nodes\":%llu,\"seconds\":%.3f}\n", size, (unsigned long long)c.nodes,
             pq_now() - t0);
    }
    /* The model does not wait for the search: it is written for an outside solver. */
    pq_status erc = pq_armies_ilp_export(b, st->piece, size, size, st->export_lp, st->export_mps);
    if (erc) rc = erc;
  }
  free(c.resume.best_witness);
  pq_armies_decision_clear(&c.proof);
  pq_armies_free(c.armies);
  pq_board_free(b);
  return rc;
}

/* --part I/N: one part of deciding --size, as a JSON line for `peaceable merge`. */
static pq_status run_part(const setup *st, int width, int height, int size) {
  pq_board *b = pq_board_new(width, height);
  pq_armies *a = pq_armies_new(b, st->piece);
  pq_armies_params params = pq_armies_params_now(st);
  params.proof = st->cert != NULL;
  pq_armies_task task = {.armies = a,
                         .board = b,
                         .white = size,
                         .black = size,
                         .params = &params,
                         .depth = PQ_ARMIES_SPLIT_DEPTH,
                         .checkpoint = st->checkpoint,
                         .resume = st->resume,
                         .part = st->part,
                         .parts = st->parts,
                         .part_cert = st->cert};
  pq_armies_decision d;
  pq_status rc = pq_armies_task_run(&task, &d);
  pq_armies_decision_clear(&d);
  pq_armies_free(a);
  pq_board_free(b);
  return rc;
}

/* Refuses the combinations of options that armies does not run, with a message: PQ_EINVAL,
   or PQ_OK. */
static pq_status refuse_combinations(const pq_options *o, pq_piece piece, long size, long white,
                                     int width, int height, bool count, bool list) {
  bool line_piece = piece == PQ_QUEEN || piece == PQ_ROOK || piece == PQ_BISHOP;
  if (count && list) {
    pq_error("armies: --count and --list exclude each other (--list --unique lists one "
             "placement per class)");
    return PQ_EINVAL;
  }
  if (o->table && (o->board || (size >= 0 && !count) || list)) {
    pq_error("armies: --table gives every board side its own row: it takes no --board or --list, "
             "nor --size but with --count");
    return PQ_EINVAL;
  }
  if (white >= 0 && (size >= 0 || count || list || o->table)) {
    pq_error("armies: --white cannot be combined with --size, --count, --list or --table");
    return PQ_EINVAL;
  }
  if (PQ_FLAG(o, aggressor) &&
      (white >= 0 || size >= 0 || count || list || o->part || o->checkpoint || o->resume)) {
    pq_error(
        "armies: --aggressor cannot be combined with --white, --size, --count, --unique, --list, "
        "--part, --checkpoint or --resume");
    return PQ_EINVAL;
  }
  if (size >= 0 && size > width * height / 2) {
    pq_error("armies: --size %ld: two armies of %ld do not fit on %d %s", size, size,
             width * height, pq_noun(width * height, "square", "squares"));
    return PQ_EINVAL;
  }
  if (o->svg &&
      (o->table || o->part || (count && !list))) { /* (--part drew nothing, said nothing) */
    pq_error("armies: --svg draws a witness or a --list, not --count, --table or --part");
    return PQ_EINVAL;
  }
  if (o->cert && count && (o->part || o->checkpoint || o->resume)) {
    pq_error("armies: --count --cert records the count's proof in one run: not with --part, "
             "--checkpoint or --resume");
    return PQ_EINVAL;
  }
  if (o->cert && (list || o->table)) {
    pq_error("armies: --cert applies to one board's maximum, --size or --count, not to --list or "
             "--table");
    return PQ_EINVAL;
  }
  if (o->part && (!line_piece || o->table)) {
    pq_error("armies: --part works for queens, rooks and bishops, without --table");
    return PQ_EINVAL;
  }
  if (o->limit && (!list || o->table)) {
    pq_error("armies: --limit \"%s\" applies to --list of one board only", o->limit);
    return PQ_EINVAL;
  }
  if (o->limit && (o->part || o->checkpoint || o->resume)) {
    pq_error("armies: --limit applies to a whole listing, not to --part, --checkpoint or --resume");
    return PQ_EINVAL;
  }
  if (o->part && o->method && strcmp(o->method, "search")) {
    pq_error("armies: --part searches its part: --method \"%s\" does not apply", o->method);
    return PQ_EINVAL;
  }
  /* Knights keep what their search learns (its bounds); kings are decided at once. */
  if ((o->checkpoint || o->resume) && !(line_piece || (piece == PQ_KNIGHT && !count && !list))) {
    pq_error("armies: --checkpoint and --resume work for queens, rooks and bishops, and for "
             "knights (not --count or --list)");
    return PQ_EINVAL;
  }
  if (o->part && (count || list) && size < 0) {
    pq_error("armies: --%s with --part needs --size K (the %s to split)", list ? "list" : "count",
             list ? "listing" : "count");
    return PQ_EINVAL;
  }
  return PQ_OK;
}

static pq_status run(const pq_options *o) {
  if (o->v.colours > 2) return pq_colours_command(o, (int)o->v.colours);
  setup st = {.json = PQ_FLAG(o, json),
              .quiet = PQ_FLAG(o, quiet),
              .cert = o->cert,
              .checkpoint = o->checkpoint,
              .resume = o->resume,
              .export_lp = o->export_lp,
              .export_mps = o->export_mps,
              .svg = o->svg};
  if (st.quiet) pq_progress_enabled = false;
  pq_armies_params_init(&st.params);
  int width = o->v.width, height = o->v.height;
  long size = o->v.size, white = o->v.white, jobs = o->v.jobs;
  double time_limit = o->v.time_limit;
  pq_status rc;
  st.local_moves = o->v.local_moves;
  st.list_limit = o->v.limit;
  /* Counting, listing and the largest aggressor: the search on every thread by default, the
     count's work and the proofs alike (a race would leave the search one thread less; on 2
     cores, --aggressor --table 3..13 took 110 s of CPU in a race, 60 s searching alone). */
  bool every = PQ_FLAG(o, count) || PQ_FLAG(o, list) || PQ_FLAG(o, aggressor);
  st.method = every && !o->method ? PQ_METHOD_SEARCH : o->v.method;
  st.part = o->v.part;
  st.parts = o->v.parts;
  st.format = o->v.format;
  st.piece = (pq_piece)o->v.piece;
  /* In a race the integer program takes one thread; the search keeps the others. */
  st.params.jobs = st.method == PQ_METHOD_RACE && jobs > 1 ? (int)jobs - 1 : (int)jobs;
  st.jobs = (int)jobs;
  st.params.node_limit = o->v.node_limit;
  st.params.time_limit = time_limit;
  st.deadline = time_limit > 0 ? pq_now() + time_limit : 0;
  st.share = time_limit;
  uint64_t searched = 0;
  st.searched = &searched;
  bool count = PQ_FLAG(o, count), list = PQ_FLAG(o, list), unique = PQ_FLAG(o, unique);
  if (unique && !list && !count) count = true;
  if ((rc = refuse_combinations(o, st.piece, size, white, width, height, count, list)) ||
      (rc = pq_armies_shared_options(o, count, &st.seed)))
    return rc;
  /* A knights' proof may pass memory after hours of search: its temporary file is tried now, on
     boards whose proof may need one (8x8's is 54 MB, kept in memory; 9x9's 173 MB). */
  if (o->cert && st.piece == PQ_KNIGHT && width * height > 64 && !pq_discard_outputs &&
      (rc = pq_text_probe()))
    return rc;
  if (o->part && !count && !list) {
    if (size < 0) {
      pq_error("armies: --part needs --size K (the decision to split)");
      return PQ_EINVAL;
    }
    return run_part(&st, width, height, (int)size);
  }
  if (o->table) {
    if (o->cert) {
      pq_error("armies: --cert writes one certificate: use it without --table");
      return PQ_EINVAL;
    }
    return pq_armies_table(&st, o->v.from, o->v.to, count, PQ_FLAG(o, aggressor), (int)size);
  }
  if (count || list)
    return pq_armies_count_board(&st, width, height, (int)size, list, unique, false);
  if (size >= 0) return decide_size(&st, width, height, (int)size);
  if (PQ_FLAG(o, aggressor)) return pq_armies_aggressor(&st, width, height, false);
  return pq_armies_solve_board(&st, width, height, (int)white, PQ_ARMIES_PRINT_BOARD, NULL, NULL);
}

const pq_problem pq_problem_armies = {
    .name = "armies",
    .letter = 'a',
    .summary = "two equal armies (white, black) of one piece, no piece attacking the other "
               "colour: maximum with proof, counts, lists",
    .run = run,
    .merge = pq_armies_merge,
};
