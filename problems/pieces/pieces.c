/* pieces.c: the pieces command: count or list placements of anarchist pieces (no colours) where
   none attacks another, with a picture; the work runs through pieces_parts.c. */
#include "pieces.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/cli/problem.h"
#include "../../src/core/svg.h"
#include "../../src/run/outer.h"
#include "../../src/run/progress.h"
#include "pieces_parts.h"

/* Placements kept for the picture. */
typedef struct keeper {
  int want, have, squares;
  uint8_t *cells;
} keeper;

static int keep_placement(void *ctx, const uint8_t *cells) {
  keeper *k = ctx;
  if (k->have < k->want)
    memcpy(k->cells + (size_t)k->have++ * (size_t)k->squares, cells, (size_t)k->squares);
  return 0;
}

enum { SVG_DEFAULT = 12 };

/* A count or listing stopped: said as every command says it. */
static void stopped_message(const pq_board *b, pq_status rc, bool listing, uint64_t nodes,
                            bool checkpoint) {
  pq_error("pieces: %s on %dx%d %s after %llu %s: no total%s", listing ? "listing" : "counting",
           b->width, b->height, pq_stopped_by(rc), (unsigned long long)nodes,
           nodes == 1 ? "node" : "nodes", checkpoint ? pq_engine_kept_note() : "");
}

static pq_status draw(const char *path, const pq_board *b, const pq_pieces *e, const keeper *k,
                      bool unique) {
  pq_svg_code codes[PQ_NPIECES];
  const char *letters = pq_pieces_letters(e);
  int n = (int)strlen(letters);
  for (int i = 0; i < n; i++)
    codes[i] = (pq_svg_code){letters[i], 0};
  pq_svg_picture pic;
  pq_svg_picture_init(&pic);
  pic.board = b;
  pic.codes = codes;
  pic.ncodes = n;
  pic.count = k->have;
  pic.cells = k->cells;
  pic.none = unique ? "no placement up to symmetry" : NULL;
  return pq_svg_save(path, &pic);
}

/* The command line, read and checked. */
typedef struct command {
  char *spec; /* --pieces as given, in capitals (q8 is Q8, and is echoed so) */
  int width, height, counts[PQ_NPIECES];
  long limit;
  bool list, unique, json;
} command;

static pq_status read_command(const pq_options *o, command *cmd) {
  memset(cmd, 0, sizeof *cmd);
  pq_status rc;
  cmd->width = o->v.width;
  cmd->height = o->v.height;
  cmd->limit = o->v.limit;
  if (!o->pieces) {
    pq_error("pieces: --pieces SPEC is required, e.g. --pieces K2Q2B2N1");
    return PQ_EINVAL;
  }
  cmd->spec = pq_strdup(o->pieces);
  for (char *c = cmd->spec; *c; c++)
    *c = (char)toupper((unsigned char)*c);
  if ((rc = pq_pieces_parse("--pieces", o->pieces, cmd->width * cmd->height, cmd->counts)))
    return rc;
  cmd->list = PQ_FLAG(o, list);
  cmd->unique = PQ_FLAG(o, unique);
  cmd->json = PQ_FLAG(o, json);
  if (cmd->list && PQ_FLAG(o, count)) {
    pq_error("pieces: --count and --list exclude each other (--list --unique lists one placement "
             "per class)");
    return PQ_EINVAL;
  }
  if (o->limit && !cmd->list && !o->svg) {
    pq_error("pieces: --limit \"%s\" applies to --list and --svg only", o->limit);
    return PQ_EINVAL;
  }
  if (o->limit && cmd->list && (o->part || o->checkpoint || o->resume)) {
    pq_error("pieces: --limit applies to a whole listing, not to --part, --checkpoint or --resume");
    return PQ_EINVAL;
  }
  if (o->part && o->svg) {
    pq_error("pieces: --part prints one part's result line; --svg does not apply");
    return PQ_EINVAL;
  }
  return PQ_OK;
}

/* The placements of the picture: the first ones of the listing (all, or one of each class),
   listed on this thread. */
static pq_status sample(pq_pieces *e, bool unique, keeper *k) {
  pq_pieces_listing l;
  pq_pieces_listed listed;
  pq_pieces_listing_init(&l);
  l.unique = unique;
  l.limit = (uint64_t)k->want;
  l.on_placement = keep_placement;
  l.ctx = k;
  return pq_pieces_list(e, &l, &listed);
}

/* Runs a count or a listing on the board and pieces of task, with the picture o->svg. */
static pq_status run_whole(const pq_options *o, const command *cmd, pq_pieces_task *task) {
  const pq_board *b = task->board;
  pq_pieces *e = pq_pieces_new(b, cmd->counts);
  pq_pieces_set_limits(e, task->lim.node_limit, task->lim.deadline);
  keeper k = {.want = o->limit ? (int)(cmd->limit < 1000 ? cmd->limit : 1000) : SVG_DEFAULT,
              .squares = b->squares};
  /* (It drew 1000 of --limit 5000 and said nothing.) */
  if (o->svg && cmd->limit > 1000 && pq_progress_enabled)
    fprintf(stderr,
            "peaceable: pieces: --svg %s draws at most 1000 placements, not --limit's %ld\n",
            o->svg, cmd->limit);
  k.cells = pq_calloc((size_t)k.want, (size_t)b->squares);
  pq_pieces_task_result r = {0};
  uint64_t nodes = 0;
  pq_status rc = PQ_OK;
  /* A count is printed unless only placements are listed. */
  if (!cmd->list || cmd->json) rc = pq_pieces_check_size(e, cmd->spec);
  if (rc) goto done;
  if (o->svg) {
    rc = sample(e, cmd->unique, &k);
    nodes = pq_pieces_nodes(e);
  }
  if (rc == PQ_OK) {
    if (task->lim.node_limit)
      task->lim.node_limit = task->lim.node_limit > nodes ? task->lim.node_limit - nodes : 1;
    task->engine = e;
    rc = pq_pieces_task_run(task, &r);
    nodes += r.nodes;
  }
  if (rc == PQ_OK && cmd->list && fflush(stdout)) {
    pq_error("pieces: writing the output failed");
    rc = PQ_EIO;
  }
  /* A listing or count cut short ends with its summary, as every mode does (doc/json.md): a count
     with "count":null, also when a checkpoint could not be written (its message printed). */
  if ((rc == PQ_ELIMIT || rc == PQ_EINTR ||
       (rc == PQ_EIO && (!cmd->list || pq_engine_save_failed()))) &&
      cmd->json)
    pq_pieces_print_total(stdout, task, cmd->spec, &r, nodes, pq_now() - task->start);
  if (rc == PQ_OK) {
    pq_pieces_print_total(stdout, task, cmd->spec, &r, nodes, pq_now() - task->start);
    if (cmd->list && !cmd->json && !r.complete) pq_progress_note_cut(cmd->limit);
  }
  /* The picture's placements are the first found: drawn also when a limit stopped the count
     after them (the limit spent on them: none listed), never empty unless it is the answer. It
     comes after the answer, as every command writes its files: a picture that cannot be written
     (a full disk) loses no answer (it printed none before). */
  pq_status drawn = PQ_OK;
  if (o->svg && (rc == PQ_OK || ((rc == PQ_ELIMIT || rc == PQ_EINTR) && k.have)))
    drawn = draw(o->svg, b, e, &k, cmd->unique);
  if (drawn) rc = drawn; /* (a failed write is exit 2, also after a limit) */
done:
  if (rc == PQ_ELIMIT || rc == PQ_EINTR)
    stopped_message(b, rc, cmd->list, nodes, o->checkpoint != NULL);
  free(k.cells);
  pq_pieces_free(e);
  return rc;
}

static pq_status run(const pq_options *o) {
  command cmd;
  pq_status rc = read_command(o, &cmd);
  if (rc) {
    free(cmd.spec);
    return rc;
  }
  if (PQ_FLAG(o, quiet)) pq_progress_enabled = false;
  pq_board *b = pq_board_new(cmd.width, cmd.height);
  char label[96];
  snprintf(label, sizeof label, "pieces %dx%d %s", cmd.width, cmd.height, cmd.spec);
  pq_pieces_task task = {.board = b,
                         .counts = cmd.counts,
                         .spec = cmd.spec,
                         .unique = cmd.unique,
                         .lim = pq_options_limits(o),
                         .start = pq_now(),
                         .list = cmd.list,
                         .out = cmd.list && !o->part ? stdout : NULL,
                         .json = cmd.json,
                         .limit = cmd.list ? (uint64_t)cmd.limit : 0};
  task.lim.progress = label;
  if (o->part) {
    pq_pieces_task_result r;
    rc = pq_pieces_task_run(&task, &r); /* a part stopped early: the engine says so */
  } else {
    rc = run_whole(o, &cmd, &task);
  }
  pq_board_free(b);
  free(cmd.spec);
  return rc;
}

const pq_problem pq_problem_pieces = {
    .name = "pieces",
    .letter = 'p',
    .summary = "count or list placements of kings, queens, rooks, bishops and knights where none "
               "attacks another",
    .run = run,
    .merge = pq_pieces_merge,
};
