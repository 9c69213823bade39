/* armies_counting.c: counting placements of armies by the line search: whole (with the count's
   proof trees), or cube by cube as the parts of the engine's count (armies_count.c). */
#include <stdlib.h>
#include <string.h>

#include "armies_knights.h"
#include "armies_lines.h"

struct pq_armies_count_split {
  const pq_armies *a;
  int white, black;
  bool symmetry;
  cube *cubes;
  int ncubes, nsplit, split[32];
  int *
      of_mask; /* without symmetry: the cube of each choice of split lines (bit i: split[i] "in") */
};

pq_armies_count_split *pq_armies_count_split_new(const pq_armies *a, int white, int black,
                                                 bool symmetry) {
  PQ_REQUIRE(a->line_piece && white + black <= a->board->squares, "no count split");
  pq_armies_count_split *s = pq_calloc(1, sizeof *s);
  *s = (pq_armies_count_split){.a = a, .white = white, .black = black, .symmetry = symmetry};
  s->ncubes = pq_armies_make_cubes(a, false, symmetry, s->split, &s->nsplit, &s->cubes);
  if (!symmetry) {
    s->of_mask = pq_malloc(((size_t)1 << s->nsplit) * sizeof *s->of_mask);
    for (int i = 0; i < s->ncubes; i++) {
      uint32_t x = 0;
      for (int j = 0; j < s->nsplit; j++)
        x |= (uint32_t)(s->cubes[i].text[j] == 'i') << j;
      s->of_mask[x] = i;
    }
  }
  return s;
}

uint64_t pq_armies_count_split_part_of(const pq_armies_count_split *s, const uint8_t *cells) {
  PQ_REQUIRE(!s->symmetry, "a placement's part in a split of the symmetries");
  const pq_board *b = s->a->board;
  uint32_t x = 0;
  for (int j = 0; j < s->nsplit; j++) {
    bool black = false;
    PQ_BITS_FOREACH(q, &b->line[s->split[j]], b->words) black |= cells[q] == 2;
    x |= (uint32_t)!black << j; /* "in": no black piece on the line */
  }
  return (uint64_t)s->of_mask[x];
}

void pq_armies_count_split_free(pq_armies_count_split *s) {
  if (!s) return;
  for (int i = 0; i < s->ncubes; i++)
    free(s->cubes[i].text);
  free(s->cubes);
  free(s->of_mask);
  free(s);
}

uint64_t pq_armies_count_split_parts(const pq_armies_count_split *s) { return (uint64_t)s->ncubes; }

uint64_t pq_armies_count_split_id(const pq_armies_count_split *s) {
  const pq_board *b = s->a->board;
  int head[6] = {b->width, b->height, (int)s->a->piece, s->white, s->black, s->nsplit};
  uint64_t h = pq_fnv(PQ_FNV_BASIS, 0x61726d6965730002u); /* "armies", counts */
  if (!s->symmetry) h = pq_fnv(h, 1); /* (a listing's: the fingerprints of counts stay) */
  h = pq_fnv_bytes(h, head, sizeof head);
  h = pq_fnv_bytes(h, s->split, (size_t)s->nsplit * sizeof *s->split);
  for (int i = 0; i < s->ncubes; i++)
    h = pq_fnv_bytes(pq_fnv(h, (uint64_t)s->cubes[i].orbit), s->cubes[i].text, (size_t)s->nsplit);
  return pq_fnv(h, (uint64_t)s->ncubes);
}

void pq_armies_count_split_proof(const pq_armies_count_split *s, char **trees,
                                 pq_armies_decision *out) {
  *out = (pq_armies_decision){.nsplit = s->nsplit, .ncubes = s->ncubes, .trees = trees};
  memcpy(out->split, s->split, sizeof s->split);
  out->cubes = pq_calloc((size_t)s->ncubes, sizeof *out->cubes);
  for (int i = 0; i < s->ncubes; i++)
    out->cubes[i] = pq_strdup(s->cubes[i].text ? s->cubes[i].text : "");
}

/* Counts cube i of a split whose split lines are split[0..nsplit-1] into e (set up here), its
   count tree into tree unless NULL. */
static void count_cube(searcher *e, shared *sh, const cube *c, const int *split, int nsplit,
                       pq_armies_visit visit, void *ctx, strbuf *tree) {
  const pq_armies *a = sh->a;
  memset(e, 0, sizeof *e);
  *e = (searcher){.sh = sh,
                  .counting = true,
                  .visit = visit,
                  .ctx = ctx,
                  .split_at = -1,
                  .weight = c->orbit,
                  .tree = tree};
  if (tree) {
    tree->len = 0;
    pq_armies_sb_put(tree, "", 0);
  }
  for (int j = 0; j < nsplit; j++)
    if (c->text[j] == 'o') {
      int l = a->index_of[split[j]];
      e->out[l >> 6] |= (uint64_t)1 << (l & 63);
      e->outs[pq_armies_line_dir(a, l)]++;
    }
  pq_armies_start_counts(e, &c->W, &c->B);
  pq_armies_lines_rec(e, &c->W, &c->B);
}

pq_status pq_armies_count_part(const pq_armies_count_split *s, uint64_t index,
                               const pq_armies_params *p, pq_armies_visit visit, void *ctx,
                               pq_count *count, uint64_t *nodes, char **tree) {
  PQ_REQUIRE(index < (uint64_t)s->ncubes, "no part %llu", (unsigned long long)index);
  shared sh;
  pq_armies_shared_init(&sh, s->a, s->white, s->black, p);
  static __thread searcher e;
  const cube *c = &s->cubes[index];
  strbuf text = {0};
  count_cube(&e, &sh, c, s->split, s->nsplit, visit, ctx, tree ? &text : NULL);
  if (tree) *tree = text.text;
  *nodes = e.nodes;
  pq_count weighted = e.count * (pq_count)c->orbit;
  *count = weighted;
  pq_status rc = sh.status;
  if (rc == PQ_OK && e.stop) rc = PQ_ELIMIT; /* the visitor asked to stop */
  if (rc == PQ_OK && (e.overflow || (e.count && weighted / e.count != (pq_count)c->orbit))) {
    pq_error("armies: more than 2^128 placements: the count cannot be given");
    rc = PQ_ELIMIT;
  }
  pthread_mutex_destroy(&sh.lock);
  return rc;
}

pq_status pq_armies_count(const pq_armies *a, int white, int black, const pq_armies_params *p,
                          pq_armies_visit visit, void *ctx, pq_count *count) {
  return pq_armies_count_proved(a, white, black, p, visit, ctx, count, NULL, NULL);
}

pq_status pq_armies_count_proved(const pq_armies *a, int white, int black,
                                 const pq_armies_params *p, pq_armies_visit visit, void *ctx,
                                 pq_count *count, uint64_t *nodes, pq_armies_decision *proof) {
  uint64_t own;
  if (!nodes) nodes = &own;
  *count = 0;
  *nodes = 0;
  if (proof) *proof = (pq_armies_decision){0};
  if (white + black > a->board->squares) return PQ_OK;
  if (!a->line_piece)
    return pq_armies_knights_count(a->board, a->piece, white, black, p, visit, ctx, count, nodes,
                                   proof);
  /* With symmetry: count the cubes of the board's group only (colour exchange does not keep the
     rule that a line decided "out" holds a black piece), each standing for its orbit. */
  shared sh;
  pq_armies_shared_init(&sh, a, white, black, p);
  cube *cubes;
  int ncubes, split[32], nsplit = 0;
  if (p->symmetry) {
    ncubes = pq_armies_make_cubes(a, false, true, split, &nsplit, &cubes);
  } else {
    ncubes = 1;
    cubes = pq_calloc(1, sizeof *cubes);
    cubes[0] = (cube){.W = a->board->all, .B = a->board->all, .orbit = 1};
  }
  static __thread searcher e;
  bool overflow = false, stopped = false;
  strbuf tree = {0};
  if (proof) {
    proof->nsplit = nsplit;
    memcpy(proof->split, split, sizeof split);
    proof->ncubes = ncubes;
    proof->cubes = pq_calloc((size_t)ncubes, sizeof *proof->cubes);
    proof->trees = pq_calloc((size_t)ncubes, sizeof *proof->trees);
  }
  pq_progress_start(&sh.progress, sh.label, (uint64_t)ncubes);
  for (int i = 0; i < ncubes && sh.status == PQ_OK && !stopped; i++) {
    count_cube(&e, &sh, &cubes[i], split, nsplit, visit, ctx, proof ? &tree : NULL);
    sh.nodes += e.nodes;
    if (proof) {
      proof->cubes[i] = pq_strdup(cubes[i].text ? cubes[i].text : "");
      proof->trees[i] = pq_strdup(tree.text);
    }
    pq_progress_update(&sh.progress, (uint64_t)i + 1, sh.nodes);
    pq_count weighted = e.count * (pq_count)cubes[i].orbit;
    if (e.overflow || (e.count && weighted / e.count != (pq_count)cubes[i].orbit) ||
        pq_count_add(count, weighted))
      overflow = true;
    stopped = e.stop;
  }
  pq_progress_end(&sh.progress);
  *nodes = sh.nodes;
  free(tree.text);
  for (int i = 0; i < ncubes; i++)
    free(cubes[i].text);
  free(cubes);
  pthread_mutex_destroy(&sh.lock);
  if (sh.status != PQ_OK) return sh.status;
  if (stopped) return PQ_OK; /* the visitor asked to stop */
  if (overflow) {
    pq_error("armies: more than 2^128 placements: the count cannot be given");
    return PQ_ELIMIT;
  }
  return PQ_OK;
}
