/* armies_count.c: armies counts and listings of queens, rooks and bishops through the engine
   (src/run/engine.h): threads, --part I/N results and their merge, checkpoints. */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/sym.h"
#include "../../src/run/engine.h"
#include "armies_parts.h"

/* An outcome: placements, and Burnside's sums over the board's group without and with colour
   exchange (the classes are these sums divided by the group's order, and by twice it). */
typedef pq_armies_counts outcome;

typedef struct count_ctx {
  const pq_armies_count_split *sp;
  const pq_armies *armies;
  const pq_board *board;
  int white, black;
  char head[192], label[128];
  pq_engine_problem problem;
  const pq_armies_count_task *task; /* with task->proof: the trees and placements kept */
  char **trees;
  const pq_armies_lister *list; /* a listing's, or NULL */
  atomic_int halt;              /* list->show asked to stop */
  char why[160];                /* what check_lines found */
} count_ctx;

/* A thread's share: the nodes it searched. */
typedef struct solver {
  uint64_t nodes;
} solver;

static void *solver_new(void *ctx) {
  (void)ctx;
  return pq_calloc(1, sizeof(solver));
}

static void solver_free(void *s) { free(s); }

static uint64_t solver_nodes(const void *s) { return ((const solver *)s)->nodes; }

/* What a part's placements add to Burnside's sums, each standing for weight placements; with
   a proof, the part's text: its tree, then each placement visited as a line of digits (0 empty,
   1 white, 2 black). A listing's text is the placements listed, a line each (pq_engine_text:
   handed on as it grows). */
typedef struct visitor {
  const pq_board *board;
  outcome *o;
  FILE *text;
  const pq_armies_lister *list;
  pq_engine_text lines;
} visitor;

static int visit(void *arg, const uint8_t *cells, int weight) {
  visitor *v = arg;
  static const uint8_t swap[3] = {0, 2, 1};
  uint8_t canon[PQ_MAX_SQUARES], canon_colour[PQ_MAX_SQUARES];
  v->o->fixed += (pq_count)pq_sym_canonical(v->board, cells, NULL, canon) * (pq_count)weight;
  v->o->fixed_colour +=
      (pq_count)pq_sym_canonical(v->board, cells, swap, canon_colour) * (pq_count)weight;
  if (v->text) {
    fputc('\n', v->text);
    for (int s = 0; s < v->board->squares; s++)
      fputc('0' + cells[s], v->text);
  }
  if (v->list && (!v->list->unique || !memcmp(canon, cells, (size_t)v->board->squares))) {
    PQ_REQUIRE(weight == 1, "a listing's placement stands for %d", weight);
    pq_engine_text_line(&v->lines, cells, (size_t)v->board->squares);
    v->o->listed++;
  }
  return 0;
}

/* The engine's poll, counting what it passes on of the part under way; the nodes of parts' ends
   it did not are passed on once they reach the interval of the search's polls. */
typedef struct poller {
  pq_engine_worker *w;
  uint64_t polled, owed;
  const atomic_int *halt; /* a listing's --limit reached */
} poller;

static pq_status poll(void *arg, uint64_t nodes) {
  poller *p = arg;
  p->polled += nodes;
  pq_status rc = pq_engine_poll(p->w, nodes);
  return rc == PQ_OK && atomic_load(p->halt) ? PQ_ELIMIT : rc;
}

static pq_status run_parts(void *ctx, void *s, pq_engine_worker *w) {
  count_ctx *c = ctx;
  pq_armies_params p;
  pq_armies_params_init(&p);
  /* The engine keeps the limits: the shared node limit, the deadline and signals. */
  poller pl = {.w = w, .halt = &c->halt};
  p.poll = poll;
  p.poll_ctx = &pl;
  visitor v = {.board = c->board, .list = c->list};
  pq_status rc = PQ_OK;
  for (uint64_t i; rc == PQ_OK && (i = pq_engine_next(w)) != UINT64_MAX;) {
    outcome o = {0, 0, 0, 0};
    pl.polled = 0;
    char *tree = NULL, *text = NULL;
    size_t len = 0;
    v.o = &o;
    v.text = c->trees ? pq_memstream(&text, &len) : NULL;
    pq_engine_text_start(&v.lines, w, i);
    uint64_t nodes = 0;
    rc = pq_armies_count_part(c->sp, i, &p, visit, &v, &o.count, &nodes, c->trees ? &tree : NULL);
    ((solver *)s)->nodes += nodes;
    if (v.text) fclose(v.text);
    if (rc == PQ_OK && c->list) {
      pq_engine_done(w, i, &o, nodes, v.lines.text ? v.lines.text : "", v.lines.len);
    } else if (rc == PQ_OK && tree) {
      /* The tree first, then the placements' lines. */
      size_t tree_len = strlen(tree);
      char *part = pq_malloc(tree_len + len + 1);
      memcpy(part, tree, tree_len);
      memcpy(part + tree_len, text, len + 1);
      pq_engine_done(w, i, &o, nodes, part, tree_len + len);
      free(part);
    } else if (rc == PQ_OK) {
      pq_engine_done(w, i, &o, nodes, NULL, 0);
    }
    free(tree);
    free(text);
    if (rc) break;
    /* The part's nodes the polls did not pass on: parts are often smaller than their interval. */
    pl.owed += nodes > pl.polled ? nodes - pl.polled : 0;
    if (pl.owed >= 1024) {
      rc = poll(&pl, pl.owed);
      pl.owed = 0;
    }
  }
  free(v.lines.text);
  return rc;
}

/* A part's text, in the order of the parts: its tree kept, its placements handed on. */
static void emit(void *ctx, uint64_t part, const char *text, size_t len) {
  count_ctx *c = ctx;
  if (!text) return;
  const char *end = text + len, *line = memchr(text, '\n', len);
  if (!line) line = end;
  c->trees[part] = pq_malloc((size_t)(line - text) + 1);
  memcpy(c->trees[part], text, (size_t)(line - text));
  c->trees[part][line - text] = 0;
  uint8_t cells[PQ_MAX_SQUARES];
  size_t n = (size_t)c->board->squares;
  for (; line < end; line += n + 1) {
    PQ_REQUIRE((size_t)(end - line) >= n + 1, "a count part's text is cut short");
    for (size_t s = 0; s < n; s++)
      cells[s] = (uint8_t)(line[1 + s] - '0');
    c->task->keep(c->task->keep_ctx, cells, 1);
  }
}

int pq_armies_counts_add(void *ctx, void *total, const void *more) {
  (void)ctx;
  outcome *t = total;
  const outcome *m = more;
  return pq_count_add(&t->count, m->count) | pq_count_add(&t->fixed, m->fixed) |
         pq_count_add(&t->fixed_colour, m->fixed_colour) | pq_count_add(&t->listed, m->listed);
}

void pq_armies_counts_write(void *ctx, FILE *f, const void *value) {
  (void)ctx;
  const outcome *o = value;
  char a[48], b[48], c[48];
  fprintf(f, "\"count\":%s,\"fixed\":%s,\"fixed_colour\":%s", pq_count_str(o->count, a),
          pq_count_str(o->fixed, b), pq_count_str(o->fixed_colour, c));
}

const char *pq_armies_counts_read(void *ctx, const pq_json *v, void *value) {
  (void)ctx;
  outcome *o = value;
  if (pq_json_count(pq_json_get(v, "count"), &o->count) ||
      pq_json_count(pq_json_get(v, "fixed"), &o->fixed) ||
      pq_json_count(pq_json_get(v, "fixed_colour"), &o->fixed_colour))
    return "its counts are not whole numbers below 2^128";
  return NULL;
}

/* ---- listings ---- */

/* A listing's outcome: the count's, and the lines listed. */
static void write_listed(void *ctx, FILE *f, const void *value) {
  char n[48];
  pq_armies_counts_write(ctx, f, value);
  fprintf(f, ",\"listed\":%s", pq_count_str(((const outcome *)value)->listed, n));
}

static const char *read_listed(void *ctx, const pq_json *v, void *value) {
  const count_ctx *c = ctx;
  const outcome *o = value;
  const char *why = pq_armies_counts_read(ctx, v, value);
  if (!why && pq_json_count(pq_json_get(v, "listed"), &((outcome *)value)->listed))
    why = "its lines listed are not a whole number below 2^128";
  /* Every placement is listed, or one of each class: so many placements at least. */
  if (!why && (c->list->unique ? o->count < o->listed : o->count != o->listed))
    why = c->list->unique ? "its count is below the classes it listed"
                          : "its count is not the placements it listed";
  return why;
}

/* The lines of a listing's part's text, by its outcome. */
static uint64_t lines_listed(void *ctx, uint64_t part, const void *value) {
  (void)ctx, (void)part;
  pq_count n = ((const outcome *)value)->listed;
  return n < UINT64_MAX - 1 ? (uint64_t)n : UINT64_MAX - 1;
}

/* What is wrong with line (the board's squares in digits, then a newline), or NULL: it must be
   white against black in which no white piece attacks a black one (plain geometry), with
   list->unique its class's canonical form, and of the split's part `part` (UINT64_MAX: not
   said). */
static const char *line_fault(const count_ctx *c, uint64_t part, const char *line) {
  const pq_board *b = c->board;
  size_t n = (size_t)b->squares;
  uint8_t cells[PQ_MAX_SQUARES], canon[PQ_MAX_SQUARES];
  int have[3] = {0, 0, 0};
  const char *peaceless = "is not the armies of the size with no piece attacking one of the "
                          "other colour";
  if (line[n] != '\n') return peaceless;
  for (size_t s = 0; s < n; s++) {
    if (line[s] < '0' || line[s] > '2') return peaceless;
    have[cells[s] = (uint8_t)(line[s] - '0')]++;
  }
  if (have[1] != c->white || have[2] != c->black ||
      !pq_armies_peaceable(b, pq_armies_piece(c->armies), cells))
    return peaceless;
  if (c->list->unique && (pq_sym_canonical(b, cells, NULL, canon), memcmp(canon, cells, n)))
    return "is not the first of its class";
  if (part != UINT64_MAX && pq_armies_count_split_part_of(c->sp, cells) != part)
    return "is of another subpart";
  return NULL;
}

/* The engine's check of a listing's part's text read from a file (a checkpoint, its lines file, a
   part line): every line a placement, and with the part's outcome as many as it listed. That
   none is missing rests on the file's word. */
static const char *check_lines(void *ctx, uint64_t part, const void *value, const char *text,
                               size_t len) {
  count_ctx *c = ctx;
  size_t n = (size_t)c->board->squares + 1;
  if (len % n) return "its text is not whole lines of the board";
  for (size_t at = 0; at < len; at += n) {
    const char *bad = line_fault(c, part, text + at);
    if (bad) {
      snprintf(c->why, sizeof c->why, "line %zu of its text %s (%d against %d)", at / n + 1, bad,
               c->white, c->black);
      return c->why;
    }
  }
  if (value && lines_listed(ctx, part, value) != len / n)
    return "its text does not have the lines its outcome says it listed";
  return NULL;
}

/* A listing's part's lines, in the order of the parts, shown until show asks to stop. */
static void show_lines(void *ctx, uint64_t part, const char *text, size_t len) {
  (void)part;
  count_ctx *c = ctx;
  uint8_t cells[PQ_MAX_SQUARES];
  for (size_t at = 0; !atomic_load(&c->halt) &&
                      pq_engine_text_cells(text, len, &at, (size_t)c->board->squares, cells);)
    if (c->list->show(c->list->ctx, cells, 1)) atomic_store(&c->halt, 1);
}

/* Burnside: the sums are multiples of the group's order (and of twice it). */
static const char *check_total(void *ctx, const void *total) {
  const count_ctx *c = ctx;
  const outcome *t = total;
  pq_count group = (pq_count)pq_sym_count(c->board);
  if (t->fixed % group || t->fixed_colour % (2 * group))
    return "Burnside's sums are not multiples of the symmetries";
  return NULL;
}

static const pq_engine_problem armies_count_problem = {
    .name = "armies",
    .outcome_size = sizeof(outcome),
    .solver_new = solver_new,
    .solver_free = solver_free,
    .solver_nodes = solver_nodes,
    .run = run_parts,
    .add = pq_armies_counts_add,
    .write = pq_armies_counts_write,
    .read = pq_armies_counts_read,
    .check = check_total,
};

/* Sets c and the engine's task e up for the count (list not NULL: the listing) of white against
   black, split by sp. */
static void count_setup(count_ctx *c, const pq_armies *a, const pq_board *b, int white, int black,
                        const pq_armies_lister *list, const pq_armies_count_split *sp,
                        pq_engine_task *e) {
  memset(c, 0, sizeof *c);
  c->sp = sp;
  c->armies = a;
  c->board = b;
  c->white = white;
  c->black = black;
  c->list = list;
  atomic_init(&c->halt, 0);
  c->problem = armies_count_problem;
  char piece = pq_piece_letters[pq_armies_piece(a)];
  snprintf(c->head, sizeof c->head,
           "\"board\":\"%dx%d\",\"piece\":\"%c\",\"white\":%d,\"black\":%d,\"counting\":true%s",
           b->width, b->height, piece, white, black,
           pq_engine_list_member(list != NULL, list && list->unique));
  snprintf(c->label, sizeof c->label, "%s of %d against %d %c on %dx%d%s",
           list ? "listing" : "count", white, black, piece, b->width, b->height,
           list && list->unique ? " with --unique" : "");
  if (list) {
    c->problem.write = write_listed;
    c->problem.read = read_listed;
    c->problem.emit = show_lines;
    c->problem.check_text = check_lines;
    c->problem.text_lines = lines_listed;
  }
  pq_engine_task_init(e);
  e->problem = &c->problem;
  e->ctx = c;
  e->split = (pq_engine_split){.parts = pq_armies_count_split_parts(sp),
                               .id = pq_armies_count_split_id(sp),
                               .head = c->head,
                               .what = list ? "board, piece, sizes, list" : "board, piece, sizes",
                               .label = c->label};
}

static void result_of(const count_ctx *c, const outcome *t, pq_armies_counted *out) {
  pq_count group = (pq_count)pq_sym_count(c->board);
  out->count = t->count;
  out->unique = t->fixed / group;
  out->unique_colour = t->fixed_colour / (2 * group);
}

pq_status pq_armies_count_run(const pq_armies_count_task *task, pq_armies_counted *out) {
  memset(out, 0, sizeof *out);
  pq_armies_count_split *sp =
      pq_armies_count_split_new(task->armies, task->white, task->black, !task->list);
  count_ctx c;
  pq_engine_task e;
  count_setup(&c, task->armies, task->board, task->white, task->black, task->list, sp, &e);
  solver first = {0};
  e.solver = &first;
  e.lim = task->lim;
  e.facts = task->facts;
  if (task->proof) {
    PQ_REQUIRE(!task->lim.parts && !task->lim.checkpoint && !task->list,
               "a count's proof in one run");
    c.task = task;
    c.trees = pq_calloc(pq_armies_count_split_parts(sp) + 1, sizeof *c.trees);
    c.problem.emit = emit;
    c.problem.private_texts = true; /* trees and placements: for the certificate alone */
    e.need_texts = true;
  }
  outcome total = {0, 0, 0, 0};
  pq_engine_result r;
  pq_status rc = pq_engine_run(&e, &total, &r);
  if (rc == PQ_ELIMIT && atomic_load(&c.halt)) rc = PQ_OK; /* show asked to stop: done */
  out->nodes = r.nodes;
  if (!task->lim.parts) result_of(&c, &total, out);
  if (c.trees && rc == PQ_OK) {
    for (uint64_t i = 0; i < pq_armies_count_split_parts(sp); i++) {
      if (!c.trees[i] && pq_engine_serving()) c.trees[i] = pq_strdup(""); /* rank 0 has it */
      PQ_REQUIRE(c.trees[i], "part %" PRIu64 " of the count has no tree", i);
    }
    pq_armies_count_split_proof(sp, c.trees, task->proof);
  } else if (c.trees) {
    for (uint64_t i = 0; i < pq_armies_count_split_parts(sp); i++)
      free(c.trees[i]);
    free(c.trees);
  }
  pq_armies_count_split_free(sp);
  return rc;
}

pq_status pq_armies_count_merge(pq_json *const *lines, int n, const pq_armies *a, const pq_board *b,
                                int white, int black, const pq_armies_lister *list,
                                pq_armies_counted *out) {
  memset(out, 0, sizeof *out);
  pq_armies_count_split *sp = pq_armies_count_split_new(a, white, black, !list);
  count_ctx c;
  pq_engine_task e;
  count_setup(&c, a, b, white, black, list, sp, &e);
  outcome total = {0, 0, 0, 0};
  /* (The engine checks the total, Burnside's sums, before it hands any text on.) */
  pq_status rc = pq_engine_merge(&c.problem, &c, &e.split, lines, n, &total, &out->nodes);
  result_of(&c, &total, out);
  pq_armies_count_split_free(sp);
  return rc;
}
