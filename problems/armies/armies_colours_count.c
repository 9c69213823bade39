/* armies_colours_count.c: counts and lists of armies of C colours (armies --colours C --count,
   --list) through the engine (src/run/engine.h): threads, --part I/N lines and merge, checkpoints.
   The search (pq_colours_count_part) gives one placement of each class under the colours'
   permutations; Burnside's lemma over the board's group gives the classes up to symmetry, and up
   to symmetry and the permutations of the colours. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/sym.h"
#include "../../src/run/engine.h"
#include "armies_colours.h"
#include "armies_parts.h"

/* An outcome, over the placements X of a part (every colouring, not only the search's ones):
   count = |X|, fixed = the sum over X of the board symmetries fixing the placement, and
   fixed_colour = the sum over X of the pairs (symmetry, permutation of the colours) fixing it. The
   classes are fixed / |G| and fixed_colour / (|G| C!). */
typedef pq_armies_counts outcome;

typedef struct count_ctx {
  const pq_board *b;
  pq_piece piece;
  int colours, k, group;
  pq_count orbit; /* colours!: the placements one of the search's stands for */
  bool list;
  bool unique;     /* list one placement of each class up to the board's symmetries */
  bool cert;       /* keep each part's count tree and its placements' classes (emit) */
  char **texts;    /* with cert: per part, as the engine hands them over */
  FILE *out;       /* where emit writes the lists */
  bool json;       /* each listed line as {"placement":"..."} */
  pq_count listed; /* the lines emit has written to out */
  pq_count lines;  /* the lines emit was given */
  pq_count stands; /* the placements they stand for (each of a part, its weight) */
  pq_count limit;  /* the most lines to write (0: all); halt when one more comes */
  atomic_int halt; /* a line past the limit came: the threads stop */
  const pq_colours_count_task *task; /* its drawing of the first placements printed */
  pq_colours *p;
  char head[200], label[160], why[200];
  pq_engine_problem problem; /* count_problem, with emit for a list or a certificate */
} count_ctx;

/* One part's sums, and its list when listing. */
typedef struct visitor {
  const count_ctx *c;
  pq_count reps, fixed, fixed_colour;
  FILE *list;
  FILE *classes; /* with cert: the count tree, then a line for each placement's class */
  /* A listing without cert: the part's lines so far (list's memory), handed to the engine once
     there are stream_at bytes (pq_engine_stream), when its turn has come. */
  pq_engine_worker *w;
  uint64_t part;
  char **text;
  size_t *len, stream_at;
} visitor;

/* The next permutation of perm[0..n-1] in lexicographic order; false after the last. */
static bool next_permutation(uint8_t *perm, int n) {
  int i = n - 2;
  while (i >= 0 && perm[i] >= perm[i + 1])
    i--;
  if (i < 0) return false;
  int j = n - 1;
  while (perm[j] <= perm[i])
    j--;
  uint8_t t = perm[i];
  perm[i] = perm[j];
  perm[j] = t;
  for (int a = i + 1, z = n - 1; a < z; a++, z--)
    t = perm[a], perm[a] = perm[z], perm[z] = t;
  return true;
}

/* The placement's class under the board's symmetries and the colours' permutations, as the least
   text of its images with the colours renumbered by first use square by square (the form a count
   certificate lists, doc/certificate.md). */
static void class_text(const count_ctx *c, const uint8_t *cells, char *text) {
  const pq_board *b = c->b;
  uint8_t image[PQ_COLOURS_MAX_SQUARES], least[PQ_COLOURS_MAX_SQUARES];
  for (int g = 0; g < c->group; g++) {
    uint8_t map[PQ_MAX_COLOURS + 1] = {0}, next = 1;
    pq_sym_apply(b, (pq_sym)g, cells, image);
    for (int s = 0; s < b->squares; s++) {
      if (image[s] && !map[image[s]]) map[image[s]] = next++;
      image[s] = map[image[s]];
    }
    if (!g || memcmp(image, least, (size_t)b->squares) < 0)
      memcpy(least, image, (size_t)b->squares);
  }
  pq_colours_text(b, least, text);
}

/* Whether cells is the least of its images under the board's symmetries (as a text: its class up
   to symmetry lists it with --unique). */
static bool least_image(const count_ctx *c, const uint8_t *cells) {
  uint8_t image[PQ_COLOURS_MAX_SQUARES];
  for (int g = 1; g < c->group; g++) {
    pq_sym_apply(c->b, (pq_sym)g, cells, image);
    if (memcmp(image, cells, (size_t)c->b->squares) < 0) return false;
  }
  return true;
}

/* Adds a placement to the sums: the symmetries g with g(P) = P, and those with g(P) = P up to a
   permutation of the colours (at most one for each g: every colour stands somewhere). With a
   list, writes P under every permutation of its colours, in lexicographic order of them. */
static void visit(void *arg, const uint8_t *cells) {
  visitor *v = arg;
  const count_ctx *c = v->c;
  const pq_board *b = c->b;
  v->reps++;
  for (int g = 0; g < c->group; g++) {
    uint8_t image[PQ_COLOURS_MAX_SQUARES], map[PQ_MAX_COLOURS + 1] = {0};
    uint8_t back[PQ_MAX_COLOURS + 1] = {0};
    pq_sym_apply(b, (pq_sym)g, cells, image);
    bool same = true, alike = true;
    for (int s = 0; s < b->squares && alike; s++) {
      same &= image[s] == cells[s];
      if (!image[s] != !cells[s])
        alike = false;
      else if (cells[s]) {
        if (!map[cells[s]] && !back[image[s]]) map[cells[s]] = image[s], back[image[s]] = cells[s];
        alike &= map[cells[s]] == image[s] && back[image[s]] == cells[s];
      }
    }
    v->fixed += same && alike;
    v->fixed_colour += alike;
  }
  if (v->classes) {
    char text[PQ_COLOURS_MAX_SQUARES + PQ_MAX_SIDE];
    class_text(c, cells, text);
    fprintf(v->classes, "\n%s", text);
  }
  if (!v->list) return;
  uint8_t perm[PQ_MAX_COLOURS + 1], shown[PQ_COLOURS_MAX_SQUARES];
  char text[PQ_COLOURS_MAX_SQUARES + PQ_MAX_SIDE];
  for (int i = 0; i <= c->colours; i++)
    perm[i] = (uint8_t)i;
  do {
    for (int s = 0; s < b->squares; s++)
      shown[s] = perm[cells[s]];
    if (c->unique && !least_image(c, shown)) continue;
    pq_colours_text(b, shown, text);
    fprintf(v->list, "%s\n", text);
  } while (next_permutation(perm + 1, c->colours));
  if (v->w && (size_t)ftell(v->list) >= v->stream_at) {
    fflush(v->list);
    bool out = pq_engine_stream(v->w, v->part, *v->text, *v->len);
    v->stream_at = out ? PQ_ENGINE_STREAM_BYTES : 2 * *v->len; /* (else later, at twice as many) */
    if (out) fseek(v->list, 0, SEEK_SET); /* its size is then where it is written up to */
  }
}

static void *solver_new(void *ctx) { return pq_colours_solver_new(((count_ctx *)ctx)->p); }
static void solver_free(void *s) { pq_colours_solver_free(s); }
static uint64_t solver_nodes(const void *s) { return pq_colours_solver_nodes(s); }
/* A solver's polls: the engine's, and the listing's limit (a part may be long after it). */
typedef struct polling {
  pq_engine_worker *w;
  const count_ctx *c;
} polling;

static pq_status poll(void *arg, uint64_t nodes) {
  const polling *p = arg;
  if (atomic_load(&p->c->halt)) return PQ_ELIMIT;
  return pq_engine_poll(p->w, nodes);
}

static pq_status run(void *ctx, void *s, pq_engine_worker *w) {
  const count_ctx *c = ctx;
  polling polls = {w, c};
  pq_colours_set_poll(s, poll, &polls);
  for (uint64_t i; (i = pq_engine_next(w)) != UINT64_MAX;) {
    if (atomic_load(&c->halt)) return PQ_ELIMIT; /* the listing's limit is reached */
    uint64_t before = pq_colours_solver_nodes(s);
    char *text = NULL;
    size_t len = 0;
    FILE *f = c->list || c->cert ? pq_memstream(&text, &len) : NULL;
    visitor v = {
        .c = c, .part = i, .text = &text, .len = &len, .stream_at = PQ_ENGINE_STREAM_BYTES};
    if (c->list) v.list = f;
    if (c->list && !c->cert) v.w = w;
    if (c->cert) v.classes = f;
    char *tree = NULL;
    size_t tree_len = 0;
    FILE *t = c->cert ? pq_memstream(&tree, &tree_len) : NULL;
    pq_status rc = pq_colours_count_part(s, (int)i, visit, &v, t);
    if (t) fclose(t);
    if (f) fclose(f);
    if (c->cert && !rc) {
      /* The part's text: its tree, then its classes, each after a newline. */
      char *both = pq_malloc(tree_len + len + 1);
      memcpy(both, tree, tree_len);
      memcpy(both + tree_len, text, len);
      free(text);
      text = both;
      len += tree_len;
    }
    free(tree);
    /* Each placement found stands for colours! x weight placements (its images under the
       colours' permutations and under the symmetries that take the part to the parts it stands
       for), all with the same stabilisers. */
    pq_count times = c->orbit * (pq_count)pq_colours_weight(c->p, (int)i);
    outcome o = {v.reps * times, v.fixed * times, v.fixed_colour * times, 0};
    PQ_REQUIRE(!v.reps || o.count / v.reps == times, "count past 2^128");
    if (!rc)
      pq_engine_done(w, i, &o, pq_colours_solver_nodes(s) - before,
                     c->list || c->cert ? text : NULL, len);
    free(text);
    if (rc) return rc;
  }
  return PQ_OK;
}

static void emit(void *ctx, uint64_t part, const char *text, size_t len) {
  count_ctx *c = ctx;
  if (c->texts && text) {
    free(c->texts[part]);
    c->texts[part] = pq_malloc(len + 1);
    memcpy(c->texts[part], text, len);
    c->texts[part][len] = '\0';
  }
  if (!c->out || !text) return;
  pq_count lines = pq_newlines(text, len);
  c->lines += lines;
  c->stands += lines * (pq_count)pq_colours_weight(c->p, (int)part);
  /* The lines up to the limit: each wrapped in JSON, or all of them in one write. */
  const char *line = text;
  for (const char *end; line < text + len; line = end + 1) {
    if (c->limit && c->listed >= c->limit) {
      atomic_store(&c->halt, 1);
      break;
    }
    end = memchr(line, '\n', (size_t)(text + len - line));
    if (!end) end = text + len;
    if (c->json) fprintf(c->out, "{\"placement\":\"%.*s\"}\n", (int)(end - line), line);
    c->listed++;
    const pq_colours_count_task *t = c->task;
    if (t && t->drawing && *t->drawn < t->draw) {
      /* (A line of the engine's, checked: it parses.) */
      char placement[PQ_COLOURS_MAX_SQUARES + PQ_MAX_SIDE + 1];
      size_t n = (size_t)(end - line) < sizeof placement - 1 ? (size_t)(end - line) : 0;
      memcpy(placement, line, n);
      placement[n] = '\0';
      uint8_t *cells = t->drawing + (size_t)*t->drawn * (size_t)c->b->squares;
      if (pq_colours_parse(c->b, c->piece, c->colours, c->k, placement, cells) == PQ_OK)
        ++*t->drawn;
    }
  }
  if (!c->json) fwrite(text, 1, line < text + len ? (size_t)(line - text) : len, c->out);
}

/* The engine's check of a list's part's text read from a file (a checkpoint, a part line): every
   line a placement of k pieces of each colour in which none attacks one of another colour; with
   the part's outcome and without --unique, every colouring of its placements (outcome: the
   placements the part stands for, `weight` of them for each listed). */
/* The lines of part's text: its count over the placements each stands for; not said with
   --unique (one line per class: the whole listing's number is checked at its end). */
static uint64_t text_lines(void *ctx, uint64_t part, const void *value) {
  const count_ctx *c = ctx;
  const outcome *o = value;
  /* (A part line's outcome sums subparts of several weights: it does not say.) */
  if (c->unique || part == UINT64_MAX) return UINT64_MAX;
  pq_count w = (pq_count)pq_colours_weight(c->p, (int)part);
  if (!w || o->count % w || o->count / w >= UINT64_MAX) return UINT64_MAX - 1; /* (none fits) */
  return (uint64_t)(o->count / w);
}

static const char *check_text(void *ctx, uint64_t part, const void *value, const char *text,
                              size_t len) {
  count_ctx *c = ctx;
  const outcome *o = value;
  pq_count lines = 0;
  for (const char *line = text, *end; line < text + len; line = end + 1) {
    char placement[PQ_COLOURS_MAX_SQUARES + PQ_MAX_SIDE];
    uint8_t cells[PQ_COLOURS_MAX_SQUARES];
    int have[PQ_MAX_COLOURS + 1] = {0};
    end = memchr(line, '\n', (size_t)(text + len - line));
    bool ok = end && (size_t)(end - line) < sizeof placement;
    if (ok) {
      memcpy(placement, line, (size_t)(end - line));
      placement[end - line] = '\0';
      ok = !pq_colours_parse(c->b, c->piece, c->colours, c->k, placement, cells);
    }
    for (int s = 0; ok && s < c->b->squares; s++)
      ok = ++have[cells[s]] <= c->k || !cells[s];
    lines++;
    if (!ok) {
      char count[48];
      snprintf(c->why, sizeof c->why,
               "line %s of its text is not a placement of %d armies of %d %s in which no piece "
               "attacks one of another colour",
               pq_count_str(lines, count), c->colours, c->k, pq_piece_name(c->piece, c->k));
      return c->why;
    }
  }
  uint64_t want = o ? text_lines(ctx, part, o) : UINT64_MAX;
  if (want != UINT64_MAX && lines != want)
    return "its text does not have the lines its outcome says it listed";
  return NULL;
}

/* Burnside: a part's sums are multiples of colours! (its placements come in classes of that
   many under the colours' permutations), and the total's of the group's order too. */
static const char *read_outcome(void *ctx, const pq_json *v, void *value) {
  const count_ctx *c = ctx;
  outcome *o = value;
  const char *why = pq_armies_counts_read(ctx, v, value);
  if (why) return why;
  if (o->count % c->orbit || o->fixed % c->orbit || o->fixed_colour % c->orbit ||
      o->fixed < o->count || o->fixed_colour < o->fixed)
    return "its counts are not those of whole classes under the colours' permutations";
  return NULL;
}

static const char *check_total(void *ctx, const void *total) {
  const count_ctx *c = ctx;
  const outcome *t = total;
  pq_count group = (pq_count)c->group;
  if (t->fixed % group || t->fixed_colour % (group * c->orbit))
    return "Burnside's sums are not multiples of the symmetries";
  return NULL;
}

/* A count; a list (emit: each part's placements as its text); a count for a certificate (emit
   and private texts: each part's count tree and classes kept with the run, in checkpoints, not in
   part lines). */
static const pq_engine_problem count_problem = {
    .name = "armies",
    .outcome_size = sizeof(outcome),
    .solver_new = solver_new,
    .solver_free = solver_free,
    .solver_nodes = solver_nodes,
    .run = run,
    .add = pq_armies_counts_add,
    .write = pq_armies_counts_write,
    .read = read_outcome,
    .check = check_total,
};

static void setup(count_ctx *c, const pq_board *b, pq_piece piece, int colours, int k, bool list,
                  bool unique, bool cert, pq_engine_task *e) {
  *c = (count_ctx){.b = b,
                   .piece = piece,
                   .colours = colours,
                   .k = k,
                   .list = list,
                   .unique = list && unique,
                   .cert = cert};
  atomic_init(&c->halt, 0);
  c->group = pq_sym_count(b);
  c->orbit = 1;
  for (int i = 2; i <= colours; i++)
    c->orbit *= (pq_count)i;
  c->p = pq_colours_new_count(b, piece, colours, k, list);
  snprintf(c->head, sizeof c->head,
           "\"board\":\"%dx%d\",\"piece\":\"%c\",\"colours\":%d,\"size\":%d,\"counting\":true%s",
           b->width, b->height, pq_piece_letters[piece], colours, k,
           list   ? pq_engine_list_member(true, c->unique)
           : cert ? ",\"proof\":true"
                  : "");
  snprintf(c->label, sizeof c->label, "%s of %d armies of %d %c on %dx%d%s",
           list ? "listing" : "count", colours, k, pq_piece_letters[piece], b->width, b->height,
           list && c->unique ? " with --unique" : "");
  pq_engine_task_init(e);
  c->problem = count_problem;
  if (list || cert) c->problem.emit = emit;
  if (list) c->problem.check_text = check_text;
  if (list) c->problem.text_lines = text_lines;
  c->problem.private_texts = cert && !list;
  e->problem = &c->problem;
  e->need_texts = cert;
  e->ctx = c;
  e->split = (pq_engine_split){.parts = (uint64_t)pq_colours_parts(c->p),
                               .id = pq_colours_id(c->p),
                               .head = c->head,
                               .what = "board, piece, colours, size, --count or --list, --unique",
                               .label = c->label};
}

/* Whether a whole list's lines are as many as its total says: every colouring of each
   placement, or with --unique one a class. (Only texts read from a file can differ.) */
static bool lines_agree(const count_ctx *c, const outcome *t) {
  return c->unique ? c->lines == t->fixed / (pq_count)c->group : c->stands == t->count;
}

static void result_of(const count_ctx *c, const outcome *t, pq_colours_counted *out) {
  out->count = t->count;
  out->unique = t->fixed / (pq_count)c->group;
  out->unique_colour = t->fixed_colour / ((pq_count)c->group * c->orbit);
}

static int by_text(const void *x, const void *y) {
  return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Takes the split, the cubes, and from each part's text its tree and its placements' classes
   (sorted, each once: a class has placements in several parts). */
static void keep_proof(count_ctx *c, pq_colours_count_proof *pf) {
  int parts = pq_colours_parts(c->p);
  size_t room = 64;
  pq_colours_count_proof_clear(pf);
  pf->nsplit = pq_colours_split(c->p, pf->split);
  pf->ncubes = parts;
  pf->cubes = pq_calloc((size_t)parts + 1, sizeof *pf->cubes);
  pf->trees = pq_calloc((size_t)parts + 1, sizeof *pf->trees);
  pf->classes = pq_malloc(room * sizeof *pf->classes);
  for (int i = 0; i < parts; i++) {
    if (!c->texts[i] && pq_engine_serving()) c->texts[i] = pq_strdup(""); /* rank 0 has it */
    PQ_REQUIRE(c->texts[i], "part %d has no count tree", i);
    pq_colours_cube(c->p, i, pf->cubes[i]);
    char *line = strtok(c->texts[i], "\n");
    pf->trees[i] = pq_strdup(line ? line : "");
    while ((line = strtok(NULL, "\n"))) {
      if (pf->nclasses == room) pf->classes = pq_realloc(pf->classes, (room *= 2) * sizeof(char *));
      pf->classes[pf->nclasses++] = pq_strdup(line);
    }
  }
  qsort(pf->classes, pf->nclasses, sizeof *pf->classes, by_text);
  size_t n = 0;
  for (size_t i = 0; i < pf->nclasses; i++)
    if (n && !strcmp(pf->classes[n - 1], pf->classes[i]))
      free(pf->classes[i]);
    else
      pf->classes[n++] = pf->classes[i];
  pf->nclasses = n;
}

void pq_colours_count_proof_clear(pq_colours_count_proof *pf) {
  for (int i = 0; pf->trees && i < pf->ncubes; i++)
    free(pf->trees[i]);
  for (size_t i = 0; i < pf->nclasses; i++)
    free(pf->classes[i]);
  free(pf->trees);
  free(pf->cubes);
  free(pf->classes);
  memset(pf, 0, sizeof *pf);
}

pq_status pq_colours_count_run(const pq_colours_count_task *task, pq_colours_counted *out) {
  memset(out, 0, sizeof *out);
  count_ctx c;
  pq_engine_task e;
  setup(&c, task->b, task->piece, task->colours, task->k, task->list, task->unique,
        task->proof != NULL, &e);
  c.task = task;
  int parts = pq_colours_parts(c.p);
  if (task->proof) c.texts = pq_calloc((size_t)parts + 1, sizeof *c.texts);
  c.out = task->list ? stdout : NULL;
  c.json = task->json;
  c.limit = task->list ? task->limit : 0;
  pq_colours_solver *first = pq_colours_solver_new(c.p);
  e.solver = first;
  e.lim = task->lim;
  if (e.lim.progress) e.lim.progress = c.label;
  if (task->lim.parts) c.out = NULL; /* the part line carries the lists */
  outcome total = {0, 0, 0, 0};
  pq_engine_result r;
  pq_status rc = pq_engine_run(&e, &total, &r);
  out->nodes = r.nodes;
  if (!task->lim.parts) result_of(&c, &total, out);
  out->listed = c.listed;
  /* A line past the limit ends a listing: done, not stopped (a listing of exactly the limit runs
     to its end, complete). */
  out->limited = atomic_load(&c.halt) && (rc == PQ_OK || rc == PQ_ELIMIT);
  if (out->limited) rc = PQ_OK;
  /* (A serving process of peaceable-mpi is given no lists: rank 0 prints them.) */
  if (rc == PQ_OK && c.out && !out->limited && !pq_engine_serving() && !lines_agree(&c, &total)) {
    PQ_REQUIRE(task->lim.resume, "a list of %d armies whose lines and counts differ", c.colours);
    pq_error("--resume %s: the lines listed are not as many as the finished parts' counts say",
             task->lim.resume);
    rc = PQ_EINVAL;
  }
  if (c.out) fflush(c.out);
  if (rc == PQ_OK && task->proof && !task->lim.parts) keep_proof(&c, task->proof);
  for (int i = 0; c.texts && i < parts; i++)
    free(c.texts[i]);
  free(c.texts);
  pq_colours_solver_free(first);
  pq_colours_free(c.p);
  return rc;
}

pq_status pq_colours_count_merge(pq_json *const *lines, int n, const pq_board *b, pq_piece piece,
                                 int colours, int k, bool list, bool unique, bool json,
                                 pq_colours_counted *out) {
  memset(out, 0, sizeof *out);
  count_ctx c;
  pq_engine_task e;
  setup(&c, b, piece, colours, k, list, unique, false, &e);
  c.out = list ? stdout : NULL;
  c.json = json;
  outcome total = {0, 0, 0, 0};
  /* (The engine checks the total before it hands any text on.) */
  pq_status rc = pq_engine_merge(e.problem, &c, &e.split, lines, n, &total, &out->nodes);
  /* A list's lines are the parts' texts: as many as their counts say (every colouring listed). */
  const char *why = rc == PQ_OK && list && !lines_agree(&c, &total)
                        ? "the lines listed are not as many as the parts say"
                        : NULL;
  if (why) {
    pq_error("merge: the parts' counts do not add up (%s)", why);
    rc = PQ_EINVAL;
  }
  result_of(&c, &total, out);
  if (c.out) fflush(c.out);
  pq_colours_free(c.p);
  return rc;
}
