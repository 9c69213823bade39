/* armies_colours_cmd.c: armies --colours C (C from 3): decisions (through the engine, by
   armies_colours_parts.c, or by the integer program), the maximum by raising the size until a
   decision proves it does not fit, counts and lists, certificates, and tables. */
#include <stdlib.h>
#include <string.h>

#include "../../src/check/check.h"
#include "../../src/core/placement.h"
#include "../../src/core/svg.h"
#include "../../src/run/engine.h"
#include "../../src/run/outer.h"
#include "../../src/run/progress.h"
#include "armies_colours.h"
#include "armies_colours_parts.h"
#include "armies_run.h"

/* A proof that k of each colour do not fit: the split, its cubes and a tree for each. */
typedef struct proof {
  int nsplit, split[16];
  int ncubes;
  char (*cubes)[17];
  char **trees;
} proof;

static void proof_clear(proof *pf) {
  for (int i = 0; pf->trees && i < pf->ncubes; i++)
    free(pf->trees[i]);
  free(pf->trees);
  free(pf->cubes);
  memset(pf, 0, sizeof *pf);
}

/* What the command was asked. */
typedef struct request {
  pq_piece piece;
  int colours;
  pq_engine_limits lim; /* no progress: that is quiet's */
  bool json, quiet;
  long local_moves; /* the witness finder's moves; -1: by the board */
  uint64_t seed;
  const char *cert; /* write a certificate here */
  bool ilp;         /* decide by integer programming (--method ilp), not by the search */
  const char *svg;  /* draw the witness here */
  const char *export_lp, *export_mps; /* write the integer program of the open size here */
  bool count, list; /* count (or list) the placements at the maximum or at --size */
  bool unique;      /* list one placement of each class up to the board's symmetries */
  long limit;       /* --limit: the lines of a listing at most; 0: all */
  pq_format format; /* of a table */
} request;

/* Decides k of each colour on b: PQ_OK with *found (and cells), or why it stopped. With parts,
   prints the part line instead. facts: the members a maximum's checkpoints carry, or NULL. */
static pq_status decide(const request *r, const pq_board *b, int k, bool *found, uint8_t *cells,
                        uint64_t *nodes, proof *pf, const char *facts) {
  if (r->ilp) {
    pq_lp_params limits = pq_lp_limits(NULL);
    limits.time_limit = r->lim.deadline > 0 ? r->lim.deadline - pq_now() : 0;
    limits.node_limit = r->lim.node_limit;
    if (r->lim.deadline > 0 && limits.time_limit <= 0) return PQ_ELIMIT;
    return pq_colours_ilp_decide(b, r->piece, r->colours, k, &limits, found, cells);
  }
  pq_colours_ctx x;
  pq_engine_task e;
  pq_colours_setup(&x, b, r->piece, r->colours, k, &e);
  x.proof = r->cert != NULL && !r->lim.parts;
  if (x.proof) x.trees = pq_calloc((size_t)pq_colours_parts(x.p), sizeof(char *));
  pq_colours_solver *first = pq_colours_solver_new(x.p);
  e.solver = first;
  e.lim = r->lim;
  e.lim.spent = *nodes; /* the run's nodes so far: the limit is the whole run's */
  e.facts = facts;
  e.lim.progress = r->quiet ? NULL : x.label;
  e.need_texts = x.proof;
  pq_colours_outcome total = {0};
  pq_engine_result res;
  pq_status rc = pq_engine_run(&e, &total, &res);
  *nodes += res.nodes;
  *found = total.found;
  if (total.found) pq_colours_unpack(b, &total, cells);
  if (rc == PQ_OK && x.proof && !total.found) {
    proof_clear(pf);
    pf->nsplit = pq_colours_split(x.p, pf->split);
    pf->ncubes = pq_colours_parts(x.p);
    pf->cubes = pq_calloc((size_t)pf->ncubes, sizeof *pf->cubes);
    for (int i = 0; i < pf->ncubes; i++)
      pq_colours_cube(x.p, i, pf->cubes[i]);
    pf->trees = x.trees;
    x.trees = NULL;
  }
  for (int i = 0; x.trees && i < pq_colours_parts(x.p); i++)
    free(x.trees[i]);
  free(x.trees);
  pq_colours_solver_free(first);
  pq_colours_free(x.p);
  return rc;
}

/* A certificate (doc/certificate.md, "Armies of several colours"). */
typedef struct cert {
  const request *r;
  const pq_board *b;
  const char *claim;
  int size;             /* the witness's, with a witness */
  const uint8_t *cells; /* the witness, or NULL */
  int infeasible;       /* the size proven not to fit; 0: none */
  const proof *pf;
  /* A count (claim "count"): the counts and their proof (NULL with size 0: the empty board). */
  const pq_colours_counted *counted;
  const pq_colours_count_proof *count;
} cert;

/* The members split, cubes and trees of a proof. */
static void write_proof(FILE *f, int nsplit, const int *split, int ncubes, char (*cubes)[17],
                        char *const *trees) {
  fprintf(f, "\"split\":[");
  for (int i = 0; i < nsplit; i++)
    fprintf(f, "%s%d", i ? "," : "", split[i]);
  fprintf(f, "],\n\"cubes\":[");
  for (int i = 0; i < ncubes; i++)
    fprintf(f, "%s\"%s\"", i ? "," : "", cubes[i]);
  fprintf(f, "],\n\"trees\":[");
  for (int i = 0; i < ncubes; i++)
    fprintf(f, "%s\n\"%s\"", i ? "," : "", trees[i] ? trees[i] : "");
  fprintf(f, "]");
}

/* A count's members: the size, the counts, a placement of each class and the count's proof. */
static void write_count(FILE *f, const cert *c) {
  char n[3][48];
  uint8_t none[PQ_MAX_SQUARES] = {0};
  char empty[PQ_MAX_SQUARES + PQ_MAX_SIDE];
  fprintf(f, ",\"size\":%d,\"total\":%s,\"unique\":%s,\"unique_colour\":%s,\n\"placements\":[",
          c->size, pq_count_str(c->counted->count, n[0]), pq_count_str(c->counted->unique, n[1]),
          pq_count_str(c->counted->unique_colour, n[2]));
  if (!c->count) {
    pq_colours_text(c->b, none, empty);
    fprintf(f, "\n\"%s\"]", empty);
    return;
  }
  for (size_t i = 0; i < c->count->nclasses; i++)
    fprintf(f, "%s\n\"%s\"", i ? "," : "", c->count->classes[i]);
  fprintf(f, "],\n\"count\":{");
  write_proof(f, c->count->nsplit, c->count->split, c->count->ncubes, c->count->cubes,
              c->count->trees);
  fprintf(f, "}");
}

static void write_cert(FILE *f, void *arg) {
  const cert *c = arg;
  fprintf(f,
          "{\"format\":\"peaceable-certificate\",\"version\":1,\"problem\":\"armies\","
          "\"board\":\"%dx%d\",\"piece\":\"%c\",\"colours\":%d,\"claim\":\"%s\"",
          c->b->width, c->b->height, pq_piece_letters[c->r->piece], c->r->colours, c->claim);
  if (c->cells) {
    char text[PQ_MAX_SQUARES + PQ_MAX_SIDE];
    pq_colours_text(c->b, c->cells, text);
    fprintf(f, ",\"size\":%d,\"witness\":\"%s\"", c->size, text);
  }
  if (c->counted) write_count(f, c);
  if (c->infeasible) {
    fprintf(f, ",\n\"infeasible\":{\"size\":%d,", c->infeasible);
    write_proof(f, c->pf->nsplit, c->pf->split, c->pf->ncubes, c->pf->cubes, c->pf->trees);
    fprintf(f, "}");
  }
  fprintf(f, "}\n");
}

pq_status pq_colours_witness_cert(const char *path, const pq_board *b, pq_piece piece, int colours,
                                  int size, const uint8_t *cells) {
  request r = {.piece = piece, .colours = colours};
  cert c = {.r = &r, .b = b, .claim = "feasible", .size = size, .cells = cells};
  return pq_write_atomic(path, write_cert, &c);
}

/* Keeps only the first `size` pieces of each colour of cells (row by row). */
static void trim(const pq_board *b, int colours, int size, uint8_t *cells) {
  int have[PQ_MAX_COLOURS + 1] = {0};
  for (int s = 0; s < b->squares; s++)
    if (cells[s] && cells[s] <= colours && have[cells[s]]++ >= size) cells[s] = 0;
}

/* The fewest pieces of one colour in cells. */
static int least_colour(const pq_board *b, int colours, const uint8_t *cells) {
  int have[PQ_MAX_COLOURS + 1] = {0}, least = b->squares;
  for (int s = 0; s < b->squares; s++)
    have[cells[s]]++;
  for (int c = 1; c <= colours; c++)
    least = have[c] < least ? have[c] : least;
  return least;
}

/* A maximum's checkpoint (--resume): the best army of its facts ("best", "best_witness", checked)
   into *best and cells, and the size after it, which the checkpoint's parts decide. PQ_OK, or
   PQ_EINVAL with a message. */
static pq_status resumed_best(const request *r, const pq_board *b, int *best, uint8_t *cells) {
  const char *path = r->lim.resume;
  pq_json *doc;
  pq_status rc = pq_engine_open_checkpoint(path, "armies", &doc);
  if (rc) return rc;
  char board[16], piece[2] = {pq_piece_letters[r->piece], 0};
  snprintf(board, sizeof board, "%dx%d", b->width, b->height);
  const char *bd = pq_json_get_string(doc, "board"), *pc = pq_json_get_string(doc, "piece"),
             *witness = pq_json_get_string(doc, "best_witness");
  long colours, k, size;
  rc = PQ_EINVAL;
  if (!bd || strcmp(bd, board) || !pc || strcmp(pc, piece) ||
      pq_json_get_long(doc, "colours", 3, PQ_MAX_COLOURS, &colours) || colours != r->colours)
    pq_error("--resume %s: a checkpoint of another board, piece or number of colours", path);
  else if (!pq_json_get(doc, "best"))
    pq_error("--resume %s: the checkpoint of a run at --size K, which holds no best army: resume "
             "it with that --size",
             path);
  else if (pq_json_get_long(doc, "best", 0, b->squares / r->colours, &k) ||
           pq_json_get_long(doc, "size", 1, b->squares, &size) || size != k + 1 || !witness)
    pq_error("--resume %s: malformed checkpoint (best, best_witness, size)", path);
  else if (pq_colours_parse(b, r->piece, r->colours, (int)k, witness, cells))
    pq_error("--resume %s: its best army is not %ld of each colour that attack no other colour",
             path, k);
  else if (least_colour(b, r->colours, cells) > k) /* (it would show the size under way fits) */
    pq_error("--resume %s: malformed checkpoint (its best army has more than %ld of each colour)",
             path, k);
  else
    *best = (int)k, rc = PQ_OK;
  pq_json_free(doc);
  return rc;
}

/* The facts of a maximum's checkpoints: the best army so far (resumed_best reads them). */
static char *best_facts(const pq_board *b, int best, const uint8_t *cells) {
  char text[PQ_MAX_SQUARES + PQ_MAX_SIDE];
  pq_colours_text(b, cells, text);
  size_t n = strlen(text) + 48;
  char *facts = pq_malloc(n);
  snprintf(facts, n, "\"best\":%d,\"best_witness\":\"%s\"", best, text);
  return facts;
}

/* The witness finder's moves for a maximum's starting army: --local-moves, else none below 64
   squares (the search settles them at once) and 20,000 a square from there. */
static uint64_t finder_moves(const request *r, const pq_board *b) {
  return r->local_moves >= 0 ? (uint64_t)r->local_moves
         : b->squares < 64   ? 0
                             : (uint64_t)b->squares * 20000;
}

/* When the witness finder stops: at the share 1/part of the time --time-limit leaves (a
   maximum's search keeps the rest), or never (0): without a limit, and under peaceable-mpi,
   whose processes must all reach the same army (a clock would part them). */
static double finder_deadline(const request *r, int part) {
  if (r->lim.deadline <= 0 || pq_engine_remote_hook) return 0;
  double now = pq_now();
  return now + (r->lim.deadline - now) / part;
}

/* The largest k such that k of each colour fit (the maximum when PQ_OK), raising k from 1 (from
   the resumed checkpoint's best army); the witness of the largest found in cells, k of each
   colour. With --checkpoint, each size's parts are kept with the best army so far. On a board
   past the exact search (more than PQ_COLOURS_MAX_SQUARES squares) the witness finder's army,
   given the whole of --time-limit, is all: PQ_ELIMIT, not proven. */
static pq_status maximum(const request *r, const pq_board *b, int *best, uint8_t *cells,
                         uint64_t *nodes, proof *pf) {
  *best = 0;
  memset(cells, 0, (size_t)b->squares);
  uint64_t moves = finder_moves(r, b);
  bool past = b->squares > PQ_COLOURS_MAX_SQUARES;
  request each = *r; /* the resumed checkpoint is of the first size decided */
  if (r->lim.resume) {
    pq_status rc = resumed_best(r, b, best, cells);
    if (rc) return rc;
  } else if (moves) {
    /* The witness finder's army, checked square by square, is where the search starts. */
    int found = pq_colours_local(b, r->piece, r->colours, moves, r->seed,
                                 finder_deadline(r, past ? 1 : 2), cells);
    PQ_REQUIRE(pq_colours_peaceable(b, r->piece, r->colours, found, cells),
               "the witness finder's army of %d is not peaceable", found);
    *best = found;
  }
  pq_status rc = past ? PQ_ELIMIT : PQ_OK;
  for (int k = *best + 1; !rc && k * r->colours <= b->squares; k++) {
    uint8_t found_cells[PQ_MAX_SQUARES];
    bool found;
    char *facts = r->lim.checkpoint ? best_facts(b, *best, cells) : NULL;
    rc = decide(&each, b, k, &found, found_cells, nodes, pf, facts);
    free(facts);
    each.lim.resume = NULL;
    if (rc || !found) break;
    /* The witness may hold more than k of each colour: skip the sizes it shows. */
    *best = least_colour(b, r->colours, found_cells);
    memcpy(cells, found_cells, (size_t)b->squares);
    k = *best;
  }
  trim(b, r->colours, *best, cells);
  return rc;
}

/* What proves sizes impossible (method: its name). */
static pq_method by(const request *r) { return r->ilp ? PQ_METHOD_ILP : PQ_METHOD_SEARCH; }
static const char *method(const request *r) { return pq_method_name(by(r)); }

/* Opens an answer's JSON object: the instance's members (pq_armies_json_open). */
static void json_open(const request *r, const pq_board *b) {
  char board[16];
  snprintf(board, sizeof board, "%dx%d", b->width, b->height);
  pq_armies_json_open(board, pq_piece_letters[r->piece], r->colours);
}

static void print_board(const request *r, const pq_board *b, int best, bool proven,
                        const uint8_t *cells, uint64_t nodes, double seconds, bool row) {
  char text[PQ_MAX_SQUARES + PQ_MAX_SIDE], board[16];
  pq_colours_text(b, cells, text);
  snprintf(board, sizeof board, "%dx%d", b->width, b->height);
  if (r->json) {
    json_open(r, b);
    /* (a proof resumed from a checkpoint is its word: "checked":false) */
    printf(",\"size\":%d%s%s,\"witness\":\"%s\",\"nodes\":%llu,\"seconds\":%.3f}\n", best,
           pq_claim_members(false, proven ? PQ_YES : PQ_OPEN, by(r)),
           proven ? pq_engine_word_json() : "", text, (unsigned long long)nodes, seconds);
  } else if (row) {
    pq_armies_max_row(r->format, board, b->width, best, proven, by(r), seconds);
  } else {
    if (proven)
      printf("%d armies of %s on %s: maximum %d of each colour, proven optimal by %s (no "
             "placement of %d)%s\n",
             r->colours, pq_piece_name(r->piece, 2), board, best, method(r), best + 1,
             pq_engine_word_text());
    else
      printf("%d armies of %s on %s: %d or more of each colour, not proven\n", r->colours,
             pq_piece_name(r->piece, 2), board, best);
    pq_placement_draw(stdout, b, cells, "123456789abcdef");
    printf("%s\n", text);
  }
  fflush(stdout);
}

/* Options that --colours does not take yet, each refused with one message (count: --count, or
   --unique alone). */
static pq_status refuse_others(const pq_options *o, bool count) {
  const struct {
    const char *value, *name;
  } others[] = {{o->white, "--white"}, {o->aggressor, "--aggressor"}};
  for (size_t i = 0; i < sizeof others / sizeof *others; i++)
    if (others[i].value) {
      pq_error("armies: --colours takes no %s yet (armies of 3 or more colours: the maximum, "
               "--size, --table, --count, --list)",
               others[i].name);
      return PQ_EINVAL;
    }
  if (o->method && o->v.method == PQ_METHOD_RACE) {
    pq_error("armies: --colours proves by search or ilp (--method search or --method ilp)");
    return PQ_EINVAL;
  }
  if (o->v.method == PQ_METHOD_ILP &&
      (count || o->list || o->cert || o->part || o->checkpoint || o->resume)) {
    pq_error("armies: with --colours, --method ilp decides sizes and proves maxima; --count, "
             "--list, --cert, --part, --checkpoint and --resume run by search");
    return PQ_EINVAL;
  }
  if (o->count && o->list) {
    pq_error("armies: --count and --list exclude each other (--list --unique lists one placement "
             "per class)");
    return PQ_EINVAL;
  }
  if (o->svg && ((count && !o->list) || o->table || o->part)) {
    pq_error("armies: with --colours, --svg draws the witness of one board or the first "
             "placements of its --list (not --count, --table or --part)");
    return PQ_EINVAL;
  }
  if (o->list && o->cert) {
    pq_error("armies: with --colours, --list takes no --cert (--count --cert writes every "
             "placement's class)");
    return PQ_EINVAL;
  }
  if (o->list && o->table) {
    pq_error("armies: --table takes no --list");
    return PQ_EINVAL;
  }
  if (o->cert && (o->part || o->table)) {
    pq_error("armies: with --colours, --cert takes one board and no --part");
    return PQ_EINVAL;
  }
  if (o->part && !o->size) {
    pq_error(
        "armies: with --colours, --part needs --size K (parts decide, count or list one size)");
    return PQ_EINVAL;
  }
  if ((o->checkpoint || o->resume) && !o->size && (count || o->list)) {
    pq_error("armies: with --colours, --checkpoint and --resume of a count or a listing need "
             "--size K (a maximum's run keeps its checkpoint without one)");
    return PQ_EINVAL;
  }
  return PQ_OK;
}

static pq_status read_request(const pq_options *o, int colours, request *r) {
  *r = (request){.colours = colours,
                 .lim = pq_options_limits(o),
                 .json = PQ_FLAG(o, json),
                 .quiet = PQ_FLAG(o, quiet),
                 .ilp = o->v.method == PQ_METHOD_ILP,
                 .cert = o->cert,
                 .svg = o->svg,
                 .export_lp = o->export_lp,
                 .export_mps = o->export_mps,
                 /* --unique alone counts, as for two armies (a count gives the classes) */
                 .count = o->count || (o->unique && !o->list),
                 .list = o->list != NULL,
                 .unique = o->unique && o->list,
                 .format = o->v.format};
  pq_status rc = refuse_others(o, r->count);
  r->piece = (pq_piece)o->v.piece;
  if (!rc && r->piece != PQ_QUEEN && r->piece != PQ_ROOK && r->piece != PQ_BISHOP) {
    pq_error("--piece \"%s\": --colours takes Q, R or B (pieces that attack along lines)",
             o->piece);
    rc = PQ_EINVAL;
  }
  r->local_moves = o->v.local_moves;
  r->limit = o->v.limit;
  if (!rc && o->limit && (!o->list || o->table || o->part || o->checkpoint || o->resume)) {
    pq_error("armies: --limit \"%s\" applies to --list of one board only (not with --part, "
             "--checkpoint or --resume)",
             o->limit);
    rc = PQ_EINVAL;
  }
  if (!rc) rc = pq_armies_shared_options(o, r->count, &r->seed);
  return rc; /* (the output files were tried before: cli.c, check_files) */
}

/* The trivial proof when the armies need more squares than the board has: one cube, no split,
   a tree that is one leaf (no colour has k open squares). */
static void trivial_proof(proof *pf) {
  proof_clear(pf);
  pf->ncubes = 1;
  pf->cubes = pq_calloc(1, sizeof *pf->cubes);
  pf->trees = pq_calloc(1, sizeof *pf->trees);
  pf->trees[0] = pq_strdup(".");
}

/* Draws count placements (cells: 0 empty, 1..colours, one after another: a witness, or a
   listing's first ones) into path: the colours' pieces white, black, then the picture's other
   colours; none: the empty board, captioned "no placement". */
static pq_status draw(const char *path, const request *r, const pq_board *b, const uint8_t *cells,
                      int count) {
  pq_svg_code codes[PQ_MAX_COLOURS];
  for (int c = 0; c < r->colours; c++)
    codes[c] = (pq_svg_code){pq_piece_letters[r->piece], c};
  pq_svg_picture pic;
  pq_svg_picture_init(&pic);
  pic.board = b;
  pic.count = cells ? count : 0;
  pic.cells = cells;
  pic.ncodes = r->colours;
  pic.codes = codes;
  return pq_svg_save(path, &pic);
}

/* The picture of an answer (cells, or NULL: none fit) and its certificate, as asked. */
static pq_status write_outputs(const request *r, const pq_board *b, const char *claim, int size,
                               const uint8_t *cells, int infeasible, proof *pf) {
  pq_status rc = r->svg ? draw(r->svg, r, b, cells, 1) : PQ_OK;
  cert c = {.r = r,
            .b = b,
            .claim = claim,
            .size = size,
            .cells = cells,
            .infeasible = infeasible,
            .pf = pf};
  if (rc || !r->cert) return rc;
  return pq_check_write("armies", r->cert, pq_engine_on_word_taken(), write_cert, &c);
}

/* Writes the integer program of k of each colour with --export-lp and --export-mps, into rc
   when it is PQ_OK or a stop (a model does not wait for the search: it is for an outside
   solver); returns rc, or the write's failure. */
static pq_status export_model(const request *r, const pq_board *b, int k, pq_status rc) {
  if (rc != PQ_OK && rc != PQ_ELIMIT && rc != PQ_EINTR) return rc;
  pq_status erc = pq_colours_ilp_export(b, r->piece, r->colours, k, r->export_lp, r->export_mps);
  return erc ? erc : rc;
}

/* --size K on board b: the decision, printed, and its certificate with --cert. */
static pq_status decide_board(const request *r, const pq_board *b, int size) {
  uint8_t cells[PQ_MAX_SQUARES];
  uint64_t nodes = 0;
  double t0 = pq_now();
  bool found;
  proof pf = {0};
  pq_status rc = decide(r, b, size, &found, cells, &nodes, &pf, NULL);
  if ((rc == PQ_ELIMIT || rc == PQ_EINTR) && !r->lim.parts) {
    pq_error("armies: %s before size %d was decided", pq_stop_cause(rc), size);
    /* Its object too, as every mode ends with one: nothing said of the size. */
    if (r->json) {
      json_open(r, b);
      printf(",\"size\":%d,\"nodes\":%llu,\"seconds\":%.3f}\n", size, (unsigned long long)nodes,
             pq_now() - t0);
    }
    rc = export_model(r, b, size, rc);
  }
  if (rc || r->lim.parts) {
    proof_clear(&pf);
    return rc;
  }
  char text[PQ_MAX_SQUARES + PQ_MAX_SIDE];
  if (found) trim(b, r->colours, size, cells), pq_colours_text(b, cells, text);
  if (r->json) {
    json_open(r, b);
    printf(",\"size\":%d,\"feasible\":%s,\"%s\":\"%s\"%s,\"nodes\":%llu,\"seconds\":%.3f}\n", size,
           found ? "true" : "false", found ? "witness" : "proved_by", found ? text : method(r),
           found ? "" : pq_engine_word_json(), (unsigned long long)nodes, pq_now() - t0);
  } else if (found) {
    printf("%d armies of %d %s on %dx%d: possible\n", r->colours, size,
           pq_piece_name(r->piece, size), b->width, b->height);
    pq_placement_draw(stdout, b, cells, "123456789abcdef");
    printf("%s\n", text);
  } else {
    printf("%d armies of %d %s on %dx%d: impossible, proven by %s%s\n", r->colours, size,
           pq_piece_name(r->piece, size), b->width, b->height, method(r), pq_engine_word_text());
  }
  rc = write_outputs(r, b, found ? "feasible" : "infeasible", size, found ? cells : NULL,
                     found ? 0 : size, &pf);
  rc = export_model(r, b, size, rc);
  proof_clear(&pf);
  return rc;
}

/* The maximum on board b, printed (a table row with row), and its certificate with --cert. */
static pq_status maximum_board(const request *r, const pq_board *b, bool row) {
  uint8_t cells[PQ_MAX_SQUARES];
  uint64_t nodes = 0;
  double t0 = pq_now();
  int best;
  proof pf = {0};
  pq_status rc = maximum(r, b, &best, cells, &nodes, &pf);
  /* (a checkpoint that could not be written stops the run as a limit does: what was found is
     printed) */
  bool unsaved = rc == PQ_EIO && pq_engine_save_failed();
  if (rc != PQ_OK && rc != PQ_ELIMIT && rc != PQ_EINTR && !unsaved) return rc;
  print_board(r, b, best, rc == PQ_OK, cells, nodes, pq_now() - t0, row);
  const char *note = r->cert && best ? PQ_WITNESS_CERT_NOTE : "";
  if (rc && b->squares > PQ_COLOURS_MAX_SQUARES)
    pq_error("armies: %dx%d has more than %d squares, past the exact search: the witness finder's "
             "army, %d of each colour, not proven%s",
             b->width, b->height, PQ_COLOURS_MAX_SQUARES, best, note);
  else if (rc)
    pq_error("armies: %s on %dx%d before the proof: size %d found, maximum not proven%s%s",
             pq_stop_cause(rc), b->width, b->height, best,
             r->lim.checkpoint && !unsaved ? pq_engine_kept_note() : "", note);
  if (rc == PQ_OK && r->cert && !pf.ncubes) trivial_proof(&pf);
  if (rc == PQ_OK) {
    rc = write_outputs(r, b, "maximum", best, cells, best + 1, &pf);
  } else if (best) { /* stopped: the army found is work not to lose (it was not written) */
    pq_status kept = write_outputs(r, b, "feasible", best, cells, 0, &pf);
    if (kept) rc = kept;
  }
  /* The model of the size after the best: proven impossible, or stopped, the first open one. */
  rc = export_model(r, b, best + 1, rc);
  proof_clear(&pf);
  return rc;
}

/* A table's row for a board a limit stopped: the size reached (marked + when it is not proven the
   maximum), and no count; witness: its JSON member, or "". */
static void print_stopped_row(const request *r, const pq_board *b, int k, bool at_size, bool proven,
                              const char *witness, uint64_t nodes, double seconds) {
  char board[16];
  snprintf(board, sizeof board, "%dx%d", b->width, b->height);
  if (r->json) {
    json_open(r, b);
    printf(",\"size\":%d%s%s,\"count\":null,\"nodes\":%llu,\"seconds\":%.3f}\n", k,
           pq_claim_members(at_size, !at_size && proven ? PQ_YES : PQ_OPEN, by(r)), witness,
           (unsigned long long)nodes, seconds);
  } else {
    pq_armies_count_row(r->format, board, b->width, k, !at_size && proven, at_size, by(r), seconds,
                        NULL);
  }
  fflush(stdout);
}

/* What a listing of b cut short says of it (optimal: at the proven maximum; at_size: at --size
   K); board: its name. */
static pq_armies_cut cut_of(const request *r, const pq_board *b, bool optimal, bool at_size,
                            char board[16]) {
  snprintf(board, 16, "%dx%d", b->width, b->height);
  return (pq_armies_cut){board,   pq_piece_letters[r->piece], r->colours, optimal, at_size, by(r),
                         r->json, r->lim.checkpoint != NULL,  false};
}

/* The JSON summary that ends a listing of k (optimal: at the proven maximum), as every mode of
   every command ends with one (doc/json.md): cut short by --limit, how many it listed (in text, a
   note of the cut). */
static void list_summary(const request *r, const pq_board *b, int k, bool optimal,
                         const pq_colours_counted *n, uint64_t nodes, double t0) {
  char a[48], u[48], board[16];
  if (!r->json && n->limited) pq_progress_note_cut(r->limit);
  if (!r->json) return;
  if (n->limited) {
    pq_armies_cut c = cut_of(r, b, optimal, !optimal, board);
    pq_armies_print_cut_listing(&c, k, pq_count_str(n->listed, a), nodes, pq_now() - t0);
    return;
  }
  json_open(r, b);
  printf(",\"size\":%d%s,\"count\":%s", k, pq_count_claim(optimal, n->count, by(r)),
         pq_count_str(n->count, a));
  if (r->unique) printf(",\"unique\":%s", pq_count_str(n->unique, u));
  printf("%s,\"nodes\":%llu,\"seconds\":%.3f}\n", pq_engine_word_json(), (unsigned long long)nodes,
         pq_now() - t0);
}

/* The room for a witness as a JSON member (,"witness":"...") */
#define WITNESS_MEMBER (PQ_MAX_SQUARES + PQ_MAX_SIDE + 16)

/* A count at the maximum finds it first: *k, its nodes added to *nodes, the proof that k + 1 do
   not fit in pf, and its witness in cells and as a JSON member; said when a limit or a signal
   stops it. */
static pq_status maximum_first(const request *r, const pq_board *b, bool row, int *k,
                               uint64_t *nodes, proof *pf, uint8_t *cells,
                               char witness[WITNESS_MEMBER], double t0) {
  char text[PQ_MAX_SQUARES + PQ_MAX_SIDE];
  pq_status rc = maximum(r, b, k, cells, nodes, pf);
  pq_colours_text(b, cells, text);
  snprintf(witness, WITNESS_MEMBER, ",\"witness\":\"%s\"", text);
  if (rc == PQ_ELIMIT || rc == PQ_EINTR) {
    /* The army found is work not to lose, certified as what it is (as a maximum's). */
    bool keep = r->cert && *k > 0;
    pq_error("armies: %s on %dx%d before the maximum was proven: no %s%s", pq_stop_cause(rc),
             b->width, b->height, r->list ? "list" : "count", keep ? PQ_WITNESS_CERT_NOTE : "");
    pq_armies_cut c = cut_of(r, b, false, false, (char[16]){0}); /* (its name in the literal) */
    if (r->list && r->json) pq_armies_print_cut_listing(&c, *k, "0", *nodes, pq_now() - t0);
    /* What was found, as a stopped maximum prints it (JSON: print_stopped_row). */
    if (!r->json && !r->list && !row && *k > 0)
      print_board(r, b, *k, false, cells, *nodes, pq_now() - t0, false);
    pq_status kept = keep ? write_outputs(r, b, "feasible", *k, cells, 0, pf) : PQ_OK;
    if (kept) rc = kept;
  }
  if (rc == PQ_OK && r->cert && !pf->ncubes) trivial_proof(pf);
  return rc;
}

/* A count or listing of k on b stopped (rc, or a checkpoint not written: PQ_EIO) after `nodes`,
   said; one stopped at the maximum (optimal) keeps it, printed in text as its own run prints it
   (unless in a table row) and with --cert its certificate (pf: its proof). Returns rc, or the
   certificate's failure. */
static pq_status stopped(const request *r, const pq_board *b, int k, bool optimal, bool row,
                         const uint8_t *cells, proof *pf, const pq_colours_counted *n,
                         uint64_t nodes, double t0, pq_status rc) {
  pq_armies_cut c = cut_of(r, b, optimal, !optimal, (char[16]){0});
  bool maximum = optimal && !r->list && rc != PQ_EIO;
  if (maximum && !r->json && !row) print_board(r, b, k, true, cells, nodes, pq_now() - t0, false);
  c.cert = maximum && r->cert;
  pq_armies_report_cut(&c, rc, k, r->list, r->list ? n->listed : 0, nodes, pq_now() - t0);
  pq_status kept = c.cert ? write_outputs(r, b, "maximum", k, cells, k + 1, pf) : PQ_OK;
  return kept ? kept : rc;
}

/* A listing's end: its summary (JSON) or the note of what it rests on (text), and with --svg the
   picture of its first placements (drawing, drawn of them), with a note when it listed more. */
static pq_status end_listing(const request *r, const pq_board *b, int k, bool maximum,
                             const pq_colours_counted *n, uint64_t nodes, double t0,
                             const uint8_t *drawing, int drawn) {
  list_summary(r, b, k, maximum, n, nodes, t0);
  /* A text listing is placements alone: what they rest on is said on stderr. */
  if (!r->json) pq_engine_resumed_note("armies", "listing");
  if (!r->svg) return PQ_OK;
  char listed[48];
  if (n->listed > PQ_SVG_LISTED && pq_progress_enabled)
    pq_error("armies: --svg %s draws the first %d of the %s placements listed", r->svg,
             PQ_SVG_LISTED, pq_count_str(n->listed, listed));
  return draw(r->svg, r, b, drawing, drawn);
}

/* --count or --list on board b: at --size (size >= 0) or at the maximum, found and proven first;
   printed (a table row with row) only when the search behind it was complete. */
static pq_status count_board(const request *r, const pq_board *b, int size, bool row) {
  double t0 = pq_now();
  int k = size;
  proof pf = {0};
  pq_colours_count_proof counted = {0};
  pq_status rc = PQ_OK;
  uint64_t nodes = 0;                         /* the maximum's */
  bool proven = size >= 0, unwritten = false; /* the count's checkpoint could not be written */
  pq_colours_counted n = {.count = 1, .unique = 1, .unique_colour = 1};
  char witness[WITNESS_MEMBER] = "";              /* at the maximum, its witness */
  uint8_t cells[PQ_MAX_SQUARES], *drawing = NULL; /* (--list --svg: its first ones) */
  int drawn = 0;
  if (size < 0) {
    rc = maximum_first(r, b, row, &k, &nodes, &pf, cells, witness, t0);
    proven = rc == PQ_OK;
    if (rc) goto done;
  }
  if (r->list && r->svg) drawing = pq_calloc(PQ_SVG_LISTED, (size_t)b->squares), drawn = k == 0;
  if (k == 0) {
    /* No army: the empty board is the one placement. */
    if (r->list) {
      uint8_t none[PQ_MAX_SQUARES] = {0};
      char text[PQ_MAX_SQUARES + PQ_MAX_SIDE];
      pq_colours_text(b, none, text);
      printf(r->json ? "{\"placement\":\"%s\"}\n" : "%s\n", text);
    }
  } else {
    pq_colours_count_task task = {.b = b,
                                  .piece = r->piece,
                                  .colours = r->colours,
                                  .k = k,
                                  .list = r->list,
                                  .json = r->json,
                                  .unique = r->unique,
                                  .limit = (pq_count)r->limit,
                                  .lim = r->lim,
                                  .proof = r->cert ? &counted : NULL,
                                  .drawing = drawing,
                                  .draw = PQ_SVG_LISTED,
                                  .drawn = &drawn};
    task.lim.progress = r->quiet ? NULL : "count";
    task.lim.spent = nodes; /* the maximum's: the limit is the whole run's */
    rc = pq_colours_count_run(&task, &n);
    unwritten = rc == PQ_EIO && pq_engine_save_failed(); /* (its message printed) */
    /* A listing so stopped ends with its summary too, as a limit's. */
    if ((rc == PQ_ELIMIT || rc == PQ_EINTR || (unwritten && r->list)) && !r->lim.parts)
      rc = stopped(r, b, k, size < 0, row, cells, &pf, &n, nodes + n.nodes, t0, rc);
    if (rc || r->lim.parts) goto done;
  }
  if (r->list) {
    rc = end_listing(r, b, k, size < 0, &n, nodes + n.nodes, t0, drawing, drawn);
    goto done;
  }
  char board[16], a[48], u[48], c[48];
  snprintf(board, sizeof board, "%dx%d", b->width, b->height);
  pq_count_str(n.count, a);
  pq_count_str(n.unique, u);
  pq_count_str(n.unique_colour, c);
  if (r->json) {
    json_open(r, b);
    printf(",\"size\":%d%s%s,\"count\":%s,\"unique\":%s,\"unique_colour\":%s%s,\"nodes\":%llu,"
           "\"seconds\":%.3f}\n",
           k, pq_count_claim(size < 0, n.count, by(r)), witness, a, u, c, pq_engine_word_json(),
           (unsigned long long)(nodes + n.nodes), pq_now() - t0);
  } else if (row) {
    const char *counts[3] = {a, u, c};
    pq_armies_count_row(r->format, board, b->width, k, size < 0, size >= 0, by(r), pq_now() - t0,
                        counts);
  } else
    printf("%s placement%s of %d armies of %d %s on %s%s%s\n%s up to symmetry\n%s up to symmetry "
           "and colour permutation\n",
           a, pq_plural(a), r->colours, k, pq_piece_name(r->piece, k), board,
           size < 0 ? " (the maximum)" : "", pq_engine_word_text(), u, c);
  fflush(stdout);
  if (r->cert && !pq_engine_serving()) { /* (a serving process has no trees or classes) */
    cert w = {.r = r,
              .b = b,
              .claim = "count",
              .size = k,
              .infeasible = size < 0 ? k + 1 : 0,
              .pf = &pf,
              .counted = &n,
              .count = k ? &counted : NULL};
    rc = pq_check_write("armies", r->cert, pq_engine_on_word_taken(), write_cert, &w);
  }
done:
  /* A count stopped (or its checkpoint not written) ends with its object too, "count":null. */
  if ((row || (r->json && !r->list && !r->lim.parts)) &&
      (rc == PQ_ELIMIT || rc == PQ_EINTR || unwritten))
    print_stopped_row(r, b, k, size >= 0, proven, witness, nodes + n.nodes, pq_now() - t0);
  free(drawing);
  proof_clear(&pf);
  pq_colours_count_proof_clear(&counted);
  return rc;
}

/* Whether a run of several colours takes a board of width x height (else its message): the
   exact search takes boards of at most PQ_COLOURS_MAX_SQUARES squares; past them a maximum is the
   witness finder's army alone (maximum), and nothing else runs. at_size: --size K. */
static pq_status board_fits(const request *r, int width, int height, bool at_size) {
  if (width * height <= PQ_COLOURS_MAX_SQUARES ||
      !(at_size || r->count || r->list || r->ilp || r->lim.parts || r->lim.checkpoint ||
        r->lim.resume))
    return PQ_OK;
  pq_error("armies: --colours decides, counts and lists on boards of at most %d squares (%dx%d has "
           "%d; on a larger one the witness finder gives a maximum's army, not proven, without "
           "--size, --count, --list, --part, --checkpoint, --resume or --method ilp)",
           PQ_COLOURS_MAX_SQUARES, width, height, width * height);
  return PQ_EINVAL;
}

static pq_status one_board(const request *r, const pq_options *o, int width, int height, bool row) {
  long size = o->v.size;
  if (board_fits(r, width, height, size >= 0)) return PQ_EINVAL;
  pq_board *b = pq_board_new(width, height);
  pq_status rc = PQ_OK;
  if (row && size >= 0 && (long)r->colours * size > b->squares) {
    /* A row of --table --count --size K whose board is too small: none, as two armies' rows. */
    char name[16];
    snprintf(name, sizeof name, "%dx%d", width, height);
    if (r->json) {
      json_open(r, b);
      printf(",\"size\":%ld,\"feasible\":false,\"proved_by\":\"search\",\"count\":0,\"unique\":0,"
             "\"unique_colour\":0,\"nodes\":0,\"seconds\":0.000}\n",
             size);
    } else {
      const char *none[3] = {"0", "0", "0"};
      pq_armies_count_row(r->format, name, width, (int)size, false, true, by(r), 0, none);
    }
  } else if (size >= 0 && (long)r->colours * size > b->squares) {
    pq_error("armies: --size %ld: %d armies of %ld do not fit on %d %s", size, r->colours, size,
             b->squares, pq_noun(b->squares, "square", "squares"));
    rc = PQ_EINVAL;
  } else if (size == 0 && (r->count || r->list) &&
             (r->lim.parts || r->lim.checkpoint || r->lim.resume)) {
    pq_error("armies: --%s: the %s of size 0, the empty board alone, runs no parts",
             r->lim.parts        ? "part"
             : r->lim.checkpoint ? "checkpoint"
                                 : "resume",
             r->list ? "listing" : "count");
    rc = PQ_EINVAL;
  } else if (r->count || r->list)
    rc = count_board(r, b, (int)size, row);
  else
    rc = size >= 0 ? decide_board(r, b, (int)size) : maximum_board(r, b, row);
  pq_board_free(b);
  return rc;
}

typedef struct table_ctx {
  const request *r;
  const pq_options *o;
} table_ctx;

static pq_status table_row(void *arg, const pq_table_row *row) {
  const table_ctx *c = arg;
  request each = *c->r;
  each.lim.deadline = row->deadline;
  each.lim.node_limit = row->node_limit; /* (each decision's: the table's, not shared) */
  each.lim.checkpoint = row->checkpoint;
  each.lim.resume = row->resume;
  return one_board(&each, c->o, row->n, row->n, true);
}

pq_status pq_colours_command(const pq_options *o, int colours) {
  request r;
  pq_status rc = read_request(o, colours, &r);
  if (rc) return rc;
  if (r.quiet) pq_progress_enabled = false;
  if (o->table) {
    if ((o->size && !r.count) || o->board) {
      pq_error("armies: --table takes no %s", o->board ? "--board" : "--size but with --count");
      return PQ_EINVAL;
    }
    /* (a board too big was refused after the others had run, and had taken its share of time) */
    if ((rc = board_fits(&r, o->v.to, o->v.to, o->size != NULL))) return rc;
    if (!r.json) pq_armies_table_header(r.format, r.count, o->size != NULL);
    char json[64];
    snprintf(json, sizeof json, "\"problem\":\"armies\",\"piece\":\"%c\",\"colours\":%d",
             pq_piece_letters[r.piece], r.colours);
    table_ctx c = {.r = &r, .o = o};
    pq_table t = {.from = o->v.from,
                  .to = o->v.to,
                  .deadline = r.lim.deadline,
                  .node_limit = r.lim.node_limit,
                  .checkpoint = r.lim.checkpoint,
                  .resume = r.lim.resume,
                  .command = "armies",
                  .row = table_row,
                  .ctx = &c,
                  .json = r.json ? json : NULL};
    return pq_table_run(&t);
  }
  return one_board(&r, o, o->v.width, o->v.height, false);
}
