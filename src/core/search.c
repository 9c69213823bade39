/* search.c: exhaustive search for placements on the config calculus. */
#include "search.h"

#include <stdlib.h>
#include <string.h>

void pq_search_params_init(pq_search_params *p) { memset(p, 0, sizeof *p); }

typedef struct state {
  const pq_calc *calc;
  const pq_search_params *params;
  int words, pieces;
  int slot_kind[PQ_MAX_SQUARES]; /* the kind of each piece to place, in order */
  int left[PQ_MAX_KINDS];        /* pieces of each kind still to place */
  uint8_t cells[PQ_MAX_SQUARES];
  pq_search_result *out;
  pq_status status;
  double deadline;
} state;

/* Whether the current config can still hold every piece left: each kind needs at least as many
   open squares as pieces. */
static bool enough_room(const state *st, const pq_config *cfg) {
  const pq_board *b = pq_calc_board(st->calc);
  for (int k = 0; k < pq_calc_kinds(st->calc); k++) {
    if (!st->left[k]) continue;
    int open = 0;
    for (int w = 0; w < st->words; w++)
      open += __builtin_popcountll(b->all.w[w] & ~cfg->forbidden[k].w[w]);
    if (open < st->left[k]) return false;
  }
  return true;
}

static bool check_limits(state *st) {
  if (pq_interrupted)
    st->status = PQ_EINTR;
  else if (st->params->node_limit && st->out->nodes >= st->params->node_limit)
    st->status = PQ_ELIMIT;
  else if (st->deadline > 0 && (st->out->nodes & 0xfff) == 0 && pq_now() > st->deadline)
    st->status = PQ_ELIMIT;
  return st->status == PQ_OK;
}

/* Places piece number i (and the ones after it); returns false to unwind. */
static bool place(state *st, const pq_config *cfg, int i, int from) {
  if (i == st->pieces) {
    if (pq_count_add(&st->out->count, 1)) st->out->overflow = true;
    if (st->params->on_solution && st->params->on_solution(st->params->ctx, st->cells)) {
      st->out->stopped = true;
      return false;
    }
    return true;
  }
  const pq_board *b = pq_calc_board(st->calc);
  int k = st->slot_kind[i];
  pq_config next;
  pq_bits open;
  for (int w = 0; w < st->words; w++)
    open.w[w] = b->all.w[w] & ~cfg->forbidden[k].w[w];
  for (int s = pq_bits_next(&open, st->words, from); s >= 0;
       s = pq_bits_next(&open, st->words, s + 1)) {
    if (st->params->accept && !st->params->accept(st->params->ctx, k, s, st->cells)) continue;
    st->out->nodes++;
    if (!check_limits(st)) return false;
    pq_config_copy(st->calc, &next, cfg);
    pq_config_place(st->calc, &next, k, s);
    st->left[k]--;
    st->cells[s] = (uint8_t)(k + 1);
    bool same_kind_next = i + 1 < st->pieces && st->slot_kind[i + 1] == k;
    bool go_on = !enough_room(st, &next) || place(st, &next, i + 1, same_kind_next ? s + 1 : 0);
    st->cells[s] = 0;
    st->left[k]++;
    if (!go_on) return false;
  }
  return true;
}

/* Most constraining kinds first: the ones that attack the most squares. */
static int piece_rank(pq_piece p) {
  static const int rank[PQ_NPIECES] = {
      [PQ_QUEEN] = 0, [PQ_ROOK] = 1, [PQ_BISHOP] = 2, [PQ_KING] = 3, [PQ_KNIGHT] = 4};
  return rank[p];
}

pq_status pq_search_run(const pq_calc *c, const pq_search_params *p, pq_search_result *out) {

  memset(out, 0, sizeof *out);
  state *s = pq_calloc(1, sizeof *s);
  s->calc = c;
  s->params = p;
  s->out = out;
  s->words = pq_calc_board(c)->words;
  s->deadline = p->time_limit > 0 ? pq_now() + p->time_limit : 0;
  int n = pq_calc_kinds(c), order[PQ_MAX_KINDS];
  for (int k = 0; k < n; k++)
    order[k] = k;
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && piece_rank(pq_calc_kind(c, order[j]).piece) <
                                 piece_rank(pq_calc_kind(c, order[j - 1]).piece);
         j--) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  long total = 0;
  for (int k = 0; k < n; k++)
    total += p->count[k];
  pq_status rc = PQ_OK;
  if (total <= pq_calc_board(c)->squares) {
    for (int i = 0; i < n; i++)
      for (int j = 0; j < p->count[order[i]]; j++)
        s->slot_kind[s->pieces++] = order[i];
    memcpy(s->left, p->count, sizeof s->left);
    pq_config empty;
    pq_config_empty(c, &empty);
    if (enough_room(s, &empty)) place(s, &empty, 0, 0);
    rc = s->status;
  }

  free(s);
  return rc;
}
