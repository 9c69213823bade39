/* armies_split.c: the armies search's symmetry split: the split lines and their cubes, the parts
   they make, a decision run on them, and the proof assembled from the parts' trees. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/sym.h"
#include "armies_kn.h"
#include "armies_knights.h"
#include "armies_lines.h"
#include "armies_parts.h"

/* Orders cubes by room, most first; ties keep their enumeration order (texts differ). */
static int by_room(const void *x, const void *y) {
  const cube *a = x, *b = y;
  if (a->room != b->room) return b->room - a->room;
  return strcmp(a->text, b->text);
}

/* Queens on boards of side SPLIT_QUEEN_SIDE or more: the split lines are the four outer rows and
   columns at each edge, up to SPLIT_QUEEN_LINES of them (whole orbits). The main diagonals in
   the split (as before 2026-11-25, and still on smaller boards and for other pieces) made the
   trees within the cubes larger: 12x12, no 22 against 22, took 5,081,528 nodes with the first
   two rows, the main diagonal and their images (10 lines), and 2,158,717 with the first four
   rows and their images (16 lines, 4,708 cubes); 10x20, no 38 against 38, 32,867,952 and
   4,550,557 (doc/benchmarks.md). 2^16 choices stay cheap to list and to check. */
#define SPLIT_QUEEN_SIDE 10
#define SPLIT_QUEEN_LINES 16
/* From this many cubes on, a split for threads or processes goes SPLIT_MANY_DEPTH levels down. */
#define SPLIT_MANY_CUBES 1000
#define SPLIT_MANY_DEPTH 3

static int split_lines(const pq_armies *a, int *split) {
  const pq_board *b = a->board;
  int seeds[8], nseeds = 0, most = 32;
  int side = b->width < b->height ? b->width : b->height;
  if (a->piece == PQ_QUEEN && side >= SPLIT_QUEEN_SIDE) {
    /* Rows and columns from the edge inwards; on a square board each column is a row's image. */
    for (int r = 0; r < 4; r++) {
      if (r < b->height) seeds[nseeds++] = b->line_of[r * b->width][PQ_ROW];
      if (r < b->width) seeds[nseeds++] = b->line_of[r][PQ_COLUMN];
    }
    most = SPLIT_QUEEN_LINES;
  } else {
    if (pq_armies_piece_has_dir(a->piece, PQ_ROW)) {
      seeds[nseeds++] = b->line_of[0][PQ_ROW];
      if (b->height > 1) seeds[nseeds++] = b->line_of[b->width][PQ_ROW];
    }
    if (pq_armies_piece_has_dir(a->piece, PQ_DIAGONAL)) {
      seeds[nseeds++] = b->line_of[0][PQ_DIAGONAL];
      if (a->piece == PQ_BISHOP && b->width > 1) seeds[nseeds++] = b->line_of[1][PQ_DIAGONAL];
    }
  }
  int n = 0, groups = pq_sym_count(b);
  for (int i = 0; i < nseeds; i++) {
    /* A seed's whole orbit or nothing: the split must be closed under the group. */
    int orbit[PQ_NSYMS], size = 0;
    for (int g = 0; g < groups; g++) {
      int l = pq_sym_line(b, (pq_sym)g, seeds[i]), seen = 0;
      for (int j = 0; j < n; j++)
        seen |= split[j] == l;
      for (int j = 0; j < size; j++)
        seen |= orbit[j] == l;
      if (!seen) orbit[size++] = l;
    }
    if (n + size > most) continue;
    for (int j = 0; j < size; j++)
      split[n++] = orbit[j];
  }
  return n;
}

int pq_armies_make_cubes(const pq_armies *a, bool complement, bool symmetry, int *split,
                         int *nsplit, cube **out) {
  const pq_board *b = a->board;
  int n = split_lines(a, split), groups = symmetry ? pq_sym_count(b) : 1;
  *nsplit = n;
  int image[PQ_NSYMS][32];
  for (int g = 0; g < groups; g++)
    for (int i = 0; i < n; i++) {
      int l = pq_sym_line(b, (pq_sym)g, split[i]);
      for (int j = 0; j < n; j++)
        if (split[j] == l) image[g][i] = j;
    }
  cube *cubes = pq_calloc((size_t)1 << n, sizeof *cubes);
  int ncubes = 0;
  for (uint32_t x = 0; x < (uint32_t)1 << n; x++) {
    /* Keep x when no image of it is smaller (bit i set: line split[i] is "in"). */
    bool least = true;
    uint32_t images[2 * PQ_NSYMS];
    int orbit = 0;
    for (int g = 0; g < groups && least; g++)
      for (int c = 0; c < (complement ? 2 : 1) && least; c++) {
        uint32_t y = 0;
        for (int i = 0; i < n; i++)
          if (((x >> i) & 1) ^ (uint32_t)c) y |= (uint32_t)1 << image[g][i];
        least = y >= x;
        bool seen = false;
        for (int j = 0; j < orbit; j++)
          seen |= images[j] == y;
        if (!seen) images[orbit++] = y;
      }
    if (!least) continue;
    cube *q = &cubes[ncubes++];
    q->orbit = orbit;
    q->W = q->B = b->all;
    q->text = pq_malloc((size_t)n + 1);
    for (int i = 0; i < n; i++) {
      bool in = (x >> i) & 1;
      const pq_bits *line = &b->line[split[i]];
      pq_bits *open = in ? &q->B : &q->W;
      for (int w = 0; w < b->words; w++)
        open->w[w] &= ~line->w[w];
      q->text[i] = in ? 'i' : 'o';
    }
    q->text[n] = '\0';
    int nw = pq_bits_count(&q->W, b->words), nb = pq_bits_count(&q->B, b->words);
    q->room = nw < nb ? nw : nb;
  }
  /* The roomiest cubes first: a witness, when there is one, tends to be found sooner. */
  qsort(cubes, (size_t)ncubes, sizeof *cubes, by_room);
  *out = cubes;
  return ncubes;
}

/* A split of one decision into parts (see armies.h). */
struct pq_armies_split {
  const pq_armies *a;
  int white, black, depth;
  bool symmetry, proof;
  cube *cubes;
  int ncubes, nsplit, split[32];
  bool complement;
  bool either; /* a placement of black white and white black will do (shared.either) */
  int also;    /* and one of also against also (shared.also) */
  part *parts;
  int nparts;
  strbuf *prefix; /* per cube, when proof: its tree down to the parts, '#' for each part */
  uint64_t nodes; /* of the split itself */
};

void pq_armies_shared_init(shared *sh, const pq_armies *a, int white, int black,
                           const pq_armies_params *p) {
  memset(sh, 0, sizeof *sh);
  sh->a = a;
  sh->p = p;
  sh->need_w = white;
  sh->need_b = black;
  sh->deadline = p->time_limit > 0 ? pq_now() + p->time_limit : 0;
  snprintf(sh->label, sizeof sh->label, "armies %dx%d, %d against %d", a->board->width,
           a->board->height, white, black);
  pthread_mutex_init(&sh->lock, NULL);
}

pq_status pq_armies_decide(const pq_armies *a, int white, int black, const pq_armies_params *p,
                           pq_armies_decision *out) {
  memset(out, 0, sizeof *out);
  if (a->piece == PQ_KING) return pq_armies_kings_decision(a->board, white, black, p, out);
  if (a->piece == PQ_KNIGHT) return pq_armies_knights_decision(a->board, white, black, p, out);
  if (white + black > a->board->squares) {
    /* Too many pieces for the squares: the proof is one cube whose leaf any bound closes. */
    if (p->proof) {
      out->ncubes = 1;
      out->cubes = pq_calloc(1, sizeof *out->cubes);
      out->trees = pq_calloc(1, sizeof *out->trees);
      out->cubes[0] = pq_strdup("");
      out->trees[0] = pq_strdup(a->line_piece ? "." : "s");
    }
    return PQ_OK;
  }
  /* Parts for threads only where they pay: on small boards the split costs more than it saves.
     With remote processes (peaceable-mpi) the split is the same on every rank, whatever --jobs. */
  bool share = (p->jobs > 1 || pq_engine_remote_hook) && a->board->squares >= 100;
  pq_armies_task task = {.armies = a,
                         .board = a->board,
                         .white = white,
                         .black = black,
                         .params = p,
                         .depth = share ? PQ_ARMIES_SPLIT_DEPTH : 0};
  return pq_armies_task_run(&task, out);
}

void pq_armies_witness(const pq_armies *a, const pq_armies_part *r, int white, int black, bool grow,
                       uint8_t *cells) {
  int words = a->board->words;
  int nw = pq_bits_count(&r->white, words), nb = pq_bits_count(&r->black, words);
  int left_w = white, left_b = black;
  if (grow) {
    left_w = white == black ? (nw < nb ? nw : nb) : white;
    left_b = white == black ? left_w : nb;
  }
  memset(cells, 0, (size_t)a->board->squares);
  PQ_BITS_FOREACH(s, &r->white, words) if (left_w-- > 0) cells[s] = 1;
  PQ_BITS_FOREACH(s, &r->black, words) if (left_b-- > 0) cells[s] = 2;
}

pq_armies_split *pq_armies_split_new(const pq_armies *a, int white, int black, bool symmetry,
                                     int depth, bool proof, int also) {
  PQ_REQUIRE(a->line_piece, "only line pieces split");
  pq_armies_split *sp = pq_calloc(1, sizeof *sp);
  *sp = (pq_armies_split){
      .a = a, .white = white, .black = black, .depth = depth, .symmetry = symmetry, .proof = proof};
  if (symmetry) {
    /* Without a proof to record, unequal armies are decided with the colours exchanged as
       well (which changes nothing: a placement of black against white is one of white against
       black with the colours exchanged), so that the colour exchange halves the cubes as for
       equal armies: 24 white against 26 black on 13x13 took 21.7 s of CPU for 29.8. A proof
       keeps the one colouring, which the certificate's checker knows. */
    sp->either = white != black && !proof;
    sp->also = sp->either ? also : 0;
    sp->ncubes = pq_armies_make_cubes(a, white == black || sp->either, true, sp->split, &sp->nsplit,
                                      &sp->cubes);
    sp->complement = white == black || sp->either;
  } else {
    sp->cubes = pq_calloc(1, sizeof *sp->cubes);
    sp->cubes[0] = (cube){.W = a->board->all, .B = a->board->all, .text = pq_strdup("")};
    sp->ncubes = 1;
  }
  /* Thousands of cubes (queens on the outer rows' split) make parts enough at depth 3: each part
     pays for its start (its per-line counts from scratch), which at depth 6 took 10 % of the CPU
     of 12x12 no 22 on 2 threads (290,305 parts on 14x14 no 29). */
  if (sp->ncubes >= SPLIT_MANY_CUBES && depth > SPLIT_MANY_DEPTH) depth = SPLIT_MANY_DEPTH;
  sp->depth = depth;
  /* Split every cube `depth` levels down, in depth-first order; the cube's tree keeps a '#'
     where each part's tree goes. */
  pq_armies_params p;
  pq_armies_params_init(&p);
  shared sh;
  pq_armies_shared_init(&sh, a, white, black, &p);
  sh.either = sp->either;
  sh.also = sp->also;
  static __thread searcher splitter;
  memset(&splitter, 0, sizeof splitter);
  splitter.sh = &sh;
  splitter.split_at = depth;
  if (proof) sp->prefix = pq_calloc((size_t)sp->ncubes, sizeof *sp->prefix);
  for (int i = 0; i < sp->ncubes; i++) {
    splitter.tree = proof ? &sp->prefix[i] : NULL;
    pq_armies_start_counts(&splitter, &sp->cubes[i].W, &sp->cubes[i].B);
    pq_armies_lines_rec(&splitter, &sp->cubes[i].W, &sp->cubes[i].B);
  }
  pthread_mutex_destroy(&sh.lock);
  sp->parts = splitter.parts;
  sp->nparts = splitter.nparts;
  sp->nodes = splitter.nodes;
  return sp;
}

void pq_armies_split_free(pq_armies_split *sp) {
  if (!sp) return;
  for (int i = 0; i < sp->ncubes; i++) {
    free(sp->cubes[i].text);
    if (sp->prefix) free(sp->prefix[i].text);
  }
  free(sp->prefix);
  free(sp->cubes);
  free(sp->parts);
  free(sp);
}

int pq_armies_split_parts(const pq_armies_split *sp) { return sp->nparts; }

uint64_t pq_armies_split_nodes(const pq_armies_split *sp) { return sp->nodes; }

uint64_t pq_armies_split_id(const pq_armies_split *sp) {
  /* FNV-1a over what determines the parts: board, piece, sizes, symmetry, depth, and every
     part's open sets. */
  /* The basis lacks a digit of FNV's; kept, so that the fingerprints stay those of older
     part results and checkpoints. */
  uint64_t h = 1469598103934665603u;
  const pq_board *b = sp->a->board;
  int head[7] = {b->width,  b->height,    (int)sp->a->piece, sp->white,
                 sp->black, sp->symmetry, sp->depth};
  h = pq_fnv_bytes(h, head, sizeof head);
  /* Only the board's words: the rest of a bitboard is not kept zero. */
  size_t bytes = (size_t)b->words * sizeof(uint64_t);
  for (int i = 0; i < sp->nparts; i++)
    for (int side = 0; side < 2; side++)
      h = pq_fnv_bytes(h, side ? sp->parts[i].B.w : sp->parts[i].W.w, bytes);
  return h;
}

pq_status pq_armies_split_run_one(const pq_armies_split *sp, int index, const pq_armies_params *p,
                                  pq_armies_part *result) {
  PQ_REQUIRE(index >= 0 && index < sp->nparts, "no part %d", index);
  pq_armies_params none;
  pq_armies_params_init(&none);
  shared sh;
  pq_armies_shared_init(&sh, sp->a, sp->white, sp->black, p ? p : &none);
  sh.either = sp->either;
  sh.also = sp->also;
  static __thread searcher e;
  static __thread strbuf tree;
  memset(&e, 0, sizeof e);
  memset(&tree, 0, sizeof tree);
  e.sh = &sh;
  e.split_at = -1;
  e.tree = sp->proof ? &tree : NULL;
  pq_armies_start_counts(&e, &sp->parts[index].W, &sp->parts[index].B);
  pq_armies_lines_rec(&e, &sp->parts[index].W, &sp->parts[index].B);
  *result = (pq_armies_part){.done = !e.stop || e.found,
                             .found = e.found,
                             .white = e.found_w,
                             .black = e.found_b,
                             .nodes = e.nodes};
  result->tree = result->done && !e.found ? tree.text : NULL;
  if (!result->tree) free(tree.text);
  pthread_mutex_destroy(&sh.lock);
  return sh.status;
}

void pq_armies_split_proof(const pq_armies_split *sp, pq_armies_part *results, bool holes,
                           pq_armies_decision *out) {
  out->nsplit = sp->nsplit;
  memcpy(out->split, sp->split, sizeof out->split);
  out->complement = sp->complement;
  out->ncubes = sp->ncubes;
  out->cubes = pq_calloc((size_t)sp->ncubes, sizeof *out->cubes);
  out->trees = pq_calloc((size_t)sp->ncubes, sizeof *out->trees);
  int next = 0;
  for (int i = 0; i < sp->ncubes; i++) {
    out->cubes[i] = pq_strdup(sp->cubes[i].text);
    strbuf whole = {0};
    for (const char *c = sp->prefix[i].text ? sp->prefix[i].text : ""; *c; c++) {
      if (*c != '#') {
        pq_armies_sb_put(&whole, c, 1);
        continue;
      }
      PQ_REQUIRE(next < sp->nparts, "more parts than the split has");
      const pq_armies_part *r = &results[next++];
      if (holes && !r->tree) {
        pq_armies_sb_put(&whole, "#", 1); /* a part another file proves */
        continue;
      }
      PQ_REQUIRE(r->done && !r->found && r->tree, "part %d has no proof", next - 1);
      if (holes) pq_armies_sb_put(&whole, "[", 1);
      pq_armies_sb_put(&whole, r->tree, strlen(r->tree));
      if (holes) pq_armies_sb_put(&whole, "]", 1);
    }
    out->trees[i] = whole.text ? whole.text : pq_strdup("");
  }
}
