/* armies_colours_parts.c: deciding armies of several colours through the run engine: a part's
   outcome (a placement or none, and the part that found it), its proof tree for a certificate,
   and the merge of --part I/N lines (decisions and counts). */
#include "armies_colours_parts.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/placement.h"
#include "../../src/run/outer.h"
#include "armies_run.h"

typedef pq_colours_outcome outcome;
typedef pq_colours_ctx ctx;

static void pack(const pq_board *b, const uint8_t *cells, outcome *o) {
  memset(o->packed, 0, sizeof o->packed);
  for (int s = 0; s < b->squares; s++)
    o->packed[s / 2] |= (uint8_t)(cells[s] << (s % 2 * 4));
}

void pq_colours_unpack(const pq_board *b, const outcome *o, uint8_t *cells) {
  for (int s = 0; s < b->squares; s++)
    cells[s] = (o->packed[s / 2] >> (s % 2 * 4)) & 15;
}

static void *solver_new(void *c) { return pq_colours_solver_new(((ctx *)c)->p); }
static void solver_free(void *s) { pq_colours_solver_free(s); }
static uint64_t solver_nodes(const void *s) { return pq_colours_solver_nodes(s); }
static pq_status poll(void *w, uint64_t nodes) { return pq_engine_poll(w, nodes); }

static pq_status run(void *c, void *s, pq_engine_worker *w) {
  const ctx *x = c;
  pq_colours_set_poll(s, poll, w);
  uint8_t cells[PQ_COLOURS_MAX_SQUARES];
  for (uint64_t i; (i = pq_engine_next(w)) != UINT64_MAX;) {
    uint64_t before = pq_colours_solver_nodes(s);
    bool found;
    char *tree = NULL;
    size_t len = 0;
    FILE *f = x->proof ? pq_memstream(&tree, &len) : NULL;
    pq_status rc = pq_colours_part(s, (int)i, cells, &found, f);
    if (f) fclose(f);
    outcome o = {.found = found, .at = i};
    if (found) pack(x->b, cells, &o);
    if (!rc)
      pq_engine_done(w, i, &o, pq_colours_solver_nodes(s) - before,
                     x->proof && !found ? tree : NULL, len);
    free(tree);
    if (rc) return rc;
  }
  return PQ_OK;
}

/* Keeps each part's proof tree for the certificate. */
static void emit(void *c, uint64_t part, const char *text, size_t len) {
  ctx *x = c;
  if (!x->trees || !text) return;
  free(x->trees[part]);
  x->trees[part] = pq_malloc(len + 1);
  memcpy(x->trees[part], text, len);
  x->trees[part][len] = '\0';
}

/* The placement of the lowest part that found one is kept. */
static int add(void *c, void *total, const void *more) {
  (void)c;
  outcome *t = total;
  const outcome *m = more;
  if (m->found && (!t->found || m->at < t->at)) *t = *m;
  return 0;
}

static void write_outcome(void *c, FILE *f, const void *value) {
  const ctx *x = c;
  const outcome *o = value;
  fprintf(f, "\"found\":%s", o->found ? "true" : "false");
  if (!o->found) return;
  uint8_t cells[PQ_COLOURS_MAX_SQUARES];
  char text[PQ_COLOURS_MAX_SQUARES + PQ_MAX_SIDE];
  pq_colours_unpack(x->b, o, cells);
  pq_colours_text(x->b, cells, text);
  fprintf(f, ",\"witness\":\"%s\",\"at\":%llu", text, (unsigned long long)o->at);
}

static const char *read_outcome(void *c, const pq_json *v, void *value) {
  const ctx *x = c;
  outcome *o = value;
  int found = pq_json_get_bool(v, "found");
  const char *text = pq_json_get_string(v, "witness");
  memset(o, 0, sizeof *o);
  if (found < 0) return "it has no \"found\"";
  if (!found) return text ? "it has a witness but found none" : NULL;
  uint8_t cells[PQ_COLOURS_MAX_SQUARES];
  long at;
  if (pq_json_get_long(v, "at", 0, pq_colours_parts(x->p) - 1, &at))
    return "its \"at\" is not a part of the split";
  if (!text || pq_colours_parse(x->b, x->piece, x->colours, x->k, text, cells))
    return "its witness is not a peaceable placement of the size";
  o->found = 1;
  o->at = (uint64_t)at;
  pack(x->b, cells, o);
  return NULL;
}

static bool decisive(void *c, const void *o) { return (void)c, ((const outcome *)o)->found; }
static uint64_t found_at(void *c, const void *o) { return (void)c, ((const outcome *)o)->at; }

static const pq_engine_problem colours_problem = {
    .name = "armies",
    .outcome_size = sizeof(outcome),
    .solver_new = solver_new,
    .solver_free = solver_free,
    .solver_nodes = solver_nodes,
    .run = run,
    .add = add,
    .write = write_outcome,
    .read = read_outcome,
    .decisive = decisive,
    .found_at = found_at,
    .emit = emit,
    .private_texts = true, /* proof trees, for the certificate */
};

void pq_colours_setup(ctx *x, const pq_board *b, pq_piece piece, int colours, int k,
                      pq_engine_task *e) {
  *x = (ctx){.b = b, .piece = piece, .colours = colours, .k = k};
  x->p = pq_colours_new(b, piece, colours, k);
  snprintf(x->head, sizeof x->head,
           "\"board\":\"%dx%d\",\"piece\":\"%c\",\"colours\":%d,\"size\":%d", b->width, b->height,
           pq_piece_letters[piece], colours, k);
  snprintf(x->label, sizeof x->label, "%d armies of %d %s on %dx%d", colours, k,
           pq_piece_name(piece, k), b->width, b->height);
  pq_engine_task_init(e);
  e->problem = &colours_problem;
  e->ctx = x;
  e->split = (pq_engine_split){.parts = (uint64_t)pq_colours_parts(x->p),
                               .id = pq_colours_id(x->p),
                               .head = x->head,
                               .what = "board, piece, colours, size",
                               .label = x->label};
}

pq_status pq_colours_merge(pq_json *const *lines, int n, const pq_options *o) {
  const pq_json *first = lines[0];
  const char *board = pq_json_get_string(first, "board"),
             *piece = pq_json_get_string(first, "piece");
  long colours, size;
  int width, height, p;
  if (board && pq_board_parse("board", board, &width, &height)) return PQ_EINVAL; /* its message */
  if (!board || !piece || strlen(piece) != 1 ||
      ((p = pq_piece_from_letter((unsigned char)piece[0])) != PQ_QUEEN && p != PQ_ROOK &&
       p != PQ_BISHOP) ||
      pq_json_get_long(first, "colours", 3, PQ_MAX_COLOURS, &colours) ||
      width * height > PQ_COLOURS_MAX_SQUARES ||
      pq_json_get_long(first, "size", 0, width * height, &size) || pq_engine_list_of(first) < 0) {
    pq_error("merge: malformed part result of armies of several colours");
    return PQ_EINVAL;
  }
  if (o->cert && pq_json_get_bool(first, "counting") == 1) {
    pq_error("merge: --cert \"%s\": count certificates of armies of several colours come from one "
             "run (armies --colours C --count --cert), not from parts",
             o->cert);
    return PQ_EINVAL;
  }
  int listing = pq_engine_list_of(first); /* (1 placements, 2 classes: checked above) */
  bool list = listing > 0, unique = listing == 2, json = PQ_FLAG(o, json);
  pq_board *b = pq_board_new(width, height);
  if (pq_json_get_bool(first, "counting") == 1) {
    pq_colours_counted got;
    pq_status rc = pq_colours_count_merge(lines, n, b, (pq_piece)p, (int)colours, (int)size, list,
                                          unique, json, &got);
    char a[48], u[48], c[48];
    pq_count_str(got.count, a);
    pq_count_str(got.unique, u);
    pq_count_str(got.unique_colour, c);
    /* The parts' word, as for decisions: nothing here searches again. */
    if (rc == PQ_OK && json) { /* (a listing's summary has no unique_colour) */
      pq_armies_json_open(board, piece[0], (int)colours);
      printf(",\"size\":%ld%s,\"count\":%s", size,
             pq_count_claim(false, got.count, PQ_METHOD_SEARCH), a);
      if (unique || !list) printf(",\"unique\":%s", u);
      if (!list) printf(",\"unique_colour\":%s", c);
      pq_engine_merged_tail(stdout, false, n, got.nodes);
    } else if (rc == PQ_OK && !list)
      printf("%s placement%s of %ld armies of %ld %s on %s (%d %s; on the parts' word: not "
             "checked)\n%s up to symmetry\n%s up to symmetry and colour permutation\n",
             a, pq_plural(a), colours, size, pq_piece_name((pq_piece)p, size), board, n,
             pq_noun(n, "part", "parts"), u, c);
    /* A text listing is placements alone: what it rests on is said on stderr, as pieces'. */
    else if (rc == PQ_OK)
      pq_engine_merged_listing_note(unique);
    pq_board_free(b);
    return rc;
  }
  ctx x;
  pq_engine_task e;
  pq_colours_setup(&x, b, (pq_piece)p, (int)colours, (int)size, &e);
  outcome total = {0};
  uint64_t nodes = 0;
  pq_status rc = pq_engine_merge(&colours_problem, &x, &e.split, lines, n, &total, &nodes);
  if (rc == PQ_OK && o->cert && !total.found) {
    /* (A witness is checked here; a proof of none rests on the parts' word: no certificate.) */
    pq_error("merge: --cert \"%s\": these parts prove %ld armies of %ld impossible only on their "
             "word; the certificate of an impossibility of several colours comes from one run "
             "(armies --colours C --size K --cert)",
             o->cert, colours, size);
    rc = PQ_EINVAL;
  }
  if (rc == PQ_OK) {
    char text[PQ_COLOURS_MAX_SQUARES + PQ_MAX_SIDE];
    uint8_t cells[PQ_COLOURS_MAX_SQUARES];
    if (total.found) {
      pq_colours_unpack(b, &total, cells);
      pq_colours_text(b, cells, text);
    }
    /* The parts' word: nothing here re-checks that the parts searched what they say. */
    if (PQ_FLAG(o, json)) {
      pq_armies_json_open(board, piece[0], (int)colours);
      printf(",\"size\":%ld,\"feasible\":%s%s%s\"", size, total.found ? "true" : "false",
             total.found ? ",\"witness\":\"" : ",\"proved_by\":\"search", total.found ? text : "");
      pq_engine_merged_tail(stdout, total.found, n, nodes);
    } else if (total.found)
      printf("%ld armies of %ld %s on %s: possible (part %d/%d; the witness checked)\n%s\n",
             colours, size, pq_piece_name((pq_piece)p, size), board,
             (int)(total.at % (uint64_t)n) + 1, n, text);
    else
      printf("%ld armies of %ld %s on %s: impossible, proven by %d %s (%" PRIu64 " %s; on the "
             "parts' word: not checked)\n",
             colours, size, pq_piece_name((pq_piece)p, size), board, n, pq_noun(n, "part", "parts"),
             nodes, nodes == 1 ? "node" : "nodes");
    /* The witness found (checked when read), as armies' merge writes it. */
    if (o->cert)
      rc = pq_colours_witness_cert(o->cert, b, (pq_piece)p, (int)colours, (int)size, cells);
  }
  pq_colours_free(x.p);
  pq_board_free(b);
  return rc;
}
