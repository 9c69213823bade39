/* config.c: the config calculus, the state of every square of a partial placement. */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct pq_calc {
  const pq_board *board;
  int nkinds;
  pq_kind kind[PQ_MAX_KINDS];
  pq_conflict rule;
  pq_config *piece; /* piece[k * squares + s] */
};

bool pq_calc_conflict(const pq_calc *c, int a, int s, int b, int t) {
  if (c->rule == PQ_CONFLICT_NONE) return false;
  if (c->rule == PQ_CONFLICT_COLOURS && c->kind[a].colour == c->kind[b].colour) return false;
  return pq_attacks_plain(c->board, c->kind[a].piece, s, t) ||
         pq_attacks_plain(c->board, c->kind[b].piece, t, s);
}

pq_calc *pq_calc_new(const pq_board *b, int nkinds, const pq_kind *kinds, pq_conflict rule) {
  PQ_REQUIRE(nkinds >= 1 && nkinds <= PQ_MAX_KINDS, "bad number of kinds %d", nkinds);
  pq_calc *c = pq_calloc(1, sizeof *c);
  c->board = b;
  c->nkinds = nkinds;
  c->rule = rule;
  memcpy(c->kind, kinds, (size_t)nkinds * sizeof *kinds);
  c->piece = pq_calloc((size_t)nkinds * (size_t)b->squares, sizeof(pq_config));
  for (int a = 0; a < nkinds; a++)
    for (int s = 0; s < b->squares; s++) {
      pq_config *p = &c->piece[a * b->squares + s];
      pq_bits_set(&p->occupied[a], s);
      for (int k = 0; k < nkinds; k++) {
        pq_bits_set(&p->forbidden[k], s);
        /* The attack tables give the squares; the rule decides which kinds they concern. */
        if (rule == PQ_CONFLICT_NONE) continue;
        if (rule == PQ_CONFLICT_COLOURS && kinds[a].colour == kinds[k].colour) continue;
        pq_bits *f = &p->forbidden[k];
        const pq_bits *out = &b->attack[kinds[a].piece][s];
        for (int w = 0; w < b->words; w++)
          f->w[w] |= out->w[w];
        /* A piece of kind k on t attacks s exactly when t is in k's attack set from s, as
           every attack relation here is symmetric under swapping the two squares. */
        const pq_bits *in = &b->attack[kinds[k].piece][s];
        for (int w = 0; w < b->words; w++)
          f->w[w] |= in->w[w];
      }
    }
  return c;
}

void pq_calc_free(pq_calc *c) {
  if (!c) return;
  free(c->piece);
  free(c);
}

const pq_board *pq_calc_board(const pq_calc *c) { return c->board; }
int pq_calc_kinds(const pq_calc *c) { return c->nkinds; }
pq_kind pq_calc_kind(const pq_calc *c, int k) { return c->kind[k]; }

void pq_config_empty(const pq_calc *c, pq_config *cfg) {
  (void)c;
  memset(cfg, 0, sizeof *cfg);
}

const pq_config *pq_calc_piece(const pq_calc *c, int k, int s) {
  return &c->piece[k * c->board->squares + s];
}

int pq_config_merge(const pq_calc *c, pq_config *dst, const pq_config *src) {
  int words = c->board->words;
  for (int k = 0; k < c->nkinds; k++)
    for (int w = 0; w < words; w++)
      if ((dst->occupied[k].w[w] & src->forbidden[k].w[w]) |
          (src->occupied[k].w[w] & dst->forbidden[k].w[w]))
        return -1;
  for (int k = 0; k < c->nkinds; k++)
    for (int w = 0; w < words; w++) {
      dst->occupied[k].w[w] |= src->occupied[k].w[w];
      dst->forbidden[k].w[w] |= src->forbidden[k].w[w];
    }
  return 0;
}

int pq_config_place(const pq_calc *c, pq_config *cfg, int k, int s) {
  if (!pq_config_allows(cfg, k, s)) return -1;
  /* Conflicts are symmetric, so no piece already placed stands where the new one forbids its
     kind: testing s alone finds every clash. */
  const pq_config *p = pq_calc_piece(c, k, s);
  int words = c->board->words;
  pq_bits_set(&cfg->occupied[k], s);
  for (int j = 0; j < c->nkinds; j++)
    for (int w = 0; w < words; w++)
      cfg->forbidden[j].w[w] |= p->forbidden[j].w[w];
  return 0;
}

void pq_config_copy(const pq_calc *c, pq_config *dst, const pq_config *src) {
  size_t n = (size_t)c->board->words * sizeof(uint64_t);
  for (int k = 0; k < c->nkinds; k++) {
    memcpy(dst->occupied[k].w, src->occupied[k].w, n);
    memcpy(dst->forbidden[k].w, src->forbidden[k].w, n);
  }
}

/* A piece's letter: upper case, or lower case for black where colours matter. */
static char kind_letter(const pq_calc *c, int k) {
  char l = pq_piece_letters[c->kind[k].piece];
  return (c->rule == PQ_CONFLICT_COLOURS && c->kind[k].colour) ? (char)tolower(l) : l;
}

void pq_config_text(const pq_calc *c, const pq_config *cfg, char *buf) {
  const pq_board *b = c->board;
  char *o = buf;
  for (int s = 0; s < b->squares; s++) {
    if (s && s % b->width == 0) *o++ = '/';
    char ch = '.';
    int forbidden = 0, allowed = -1;
    for (int k = 0; k < c->nkinds; k++) {
      if (pq_bits_has(&cfg->occupied[k], s)) ch = kind_letter(c, k);
      if (pq_bits_has(&cfg->forbidden[k], s))
        forbidden++;
      else
        allowed = k;
    }
    if (ch == '.' && forbidden == c->nkinds)
      ch = 'x';
    else if (ch == '.' && forbidden == c->nkinds - 1 && forbidden > 0 &&
             c->rule != PQ_CONFLICT_COLOURS)
      ch = (char)tolower(kind_letter(c, allowed));
    else if (ch == '.' && forbidden)
      ch = '+';
    *o++ = ch;
  }
  *o = '\0';
}
