/* armies_kn_check.c: the checker's own bound for kings (doc/certificate.md, "Kings"), part of
   libcheck.a: the least number of squares on or a king's move from a down-set of w squares,
   computed here from the document's formula alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/check/check.h"
#include "armies_kn_check.h"

/* The neighbourhood of a down-set with rows of lengths l_0 >= l_1 >= ... >= l_{m-1} >= 1 (from
   the top) has min(W, l_0 + 1) squares in row 0 and min(W, l_{i-1} + 1) in row i for
   1 <= i <= m, i < H. least[l][k] below: over down-sets of k squares whose rows so far end with
   a row of length l, the least count of neighbourhood squares in the rows up to the one after
   it (the next row's count is paid when a row is laid). */
bool pq_armies_check_kings_closed(int width, int height, int white, int black) {
  int n = width * height;
  if (white < 0 || black < 0) return false;
  if (white > n || white + black > n) return true; /* the pieces cannot stand on n squares */
  if (white == 0) return false;                    /* every square is open to black */
  size_t cells = (size_t)(width + 1) * (size_t)(n + 1);
  int *least = pq_malloc(cells * sizeof *least), *next = pq_malloc(cells * sizeof *next);
  int best = n + 1; /* the least neighbourhood of `white` squares */
  for (size_t i = 0; i < cells; i++)
    least[i] = -1;
  for (int row = 0; row < height; row++) {
    for (size_t i = 0; i < cells; i++)
      next[i] = -1;
    for (int l = 1; l <= width; l++) {
      int grown = l + 1 < width ? l + 1 : width, after = row + 1 < height ? grown : 0;
      for (int k = l; k <= n; k++) {
        int from = -1;
        if (row == 0 && k == l) from = grown; /* the first row: its own row of the neighbourhood */
        for (int p = l; row > 0 && p <= width; p++) {
          int v = least[(size_t)p * (size_t)(n + 1) + (size_t)(k - l)];
          if (v >= 0 && (from < 0 || v < from)) from = v;
        }
        if (from < 0) continue;
        next[(size_t)l * (size_t)(n + 1) + (size_t)k] = from + after;
        if (k == white && from + after < best) best = from + after;
      }
    }
    int *t = least;
    least = next;
    next = t;
  }
  free(least);
  free(next);
  return black > n - best;
}

/* Knights (doc/certificate.md, "Knights"), and the counts of knights and kings ("Count
   certificates"): lemmas on the suffixes S_q = {q, ..., n-1} of the squares, and the tree of the
   claim, all closed by one rule. */
enum { WORDS = PQ_CHECK_MAX_SQUARES / 64 };

typedef struct knights_check {
  int width, n, words;
  uint64_t near[PQ_CHECK_MAX_SQUARES][WORDS]; /* N[s], by the checkers' own attack test */
  int *least;                                 /* [q * (n + 1) + j]: proven bound, default j */
  const pq_check_params *params;
  const char *tree, *at; /* the tree being read and the next character */
  int p, goal;           /* the lemma being checked: suffix S_p, bound goal */
  long nodes, leaves;
  int status; /* 1 so far so good, 0 invalid, -1 stopped */
  char *why;
  size_t whylen;
  /* The claim's tree of a count: its leaves "c" count the black armies of `black` squares
     outside N[X] into *counted (NULL: a proof of infeasibility, or a lemma: no "c"). */
  int black;
  pq_count *counted;
  bool overflow;
} knights_check;

/* The squares of set in [from, to). */
static int count_from(const uint64_t *set, int from, int to) {
  int total = 0;
  for (int w = from / 64; w * 64 < to; w++) {
    uint64_t m = set[w];
    int lo = w * 64;
    if (from > lo) m &= ~(uint64_t)0 << (from - lo);
    if (to < lo + 64) m &= ((uint64_t)1 << (to - lo)) - 1;
    total += __builtin_popcountll(m);
  }
  return total;
}

static bool refuse(knights_check *k, const char *what) {
  if (k->status == 1) snprintf(k->why, k->whylen, "%s", what);
  if (k->status == 1) k->status = 0;
  return false;
}

/* The node at square q with `left` squares still to choose and C = N[I] ∩ S_p. */
static bool knights_node(knights_check *k, int q, int left, const uint64_t *C) {
  if ((++k->nodes & 1023) == 0 && pq_check_stop(k->params)) {
    k->status = -1;
    return false;
  }
  char ch = *k->at++;
  if (ch == 'c') {
    /* Every square is decided: X is the squares chosen, and any `black` squares outside N[X]
       make a placement, counted here and nowhere else. */
    k->leaves++;
    if (!k->counted || k->p != 0 || left != 0)
      return refuse(k,
                    "a count leaf \"c\" outside a count's tree, or with squares still to choose");
    pq_count ways = pq_check_binomial(k->n - count_from(C, 0, k->n), k->black, &k->overflow);
    if (pq_count_add(k->counted, ways)) k->overflow = true;
    return true;
  }
  if (ch == '.') {
    k->leaves++;
    if (left > k->n - q) return true;
    int before = count_from(C, k->p, q), after = count_from(C, q, k->n);
    int lemma = k->least[q * (k->n + 1) + left];
    if (before + (after > lemma ? after : lemma) >= k->goal) return true;
    return refuse(k, "a leaf's bound does not close it");
  }
  if (ch != 'x') return refuse(k, "unexpected character (or the tree ends early)");
  if (q >= k->n || left < 1) return refuse(k, "a branch past the last square or the size");
  uint64_t with[WORDS];
  for (int w = 0; w < k->words; w++) {
    int skip = k->p - 64 * w; /* the squares of this word before p are not in S_p */
    uint64_t in_suffix = skip <= 0 ? ~(uint64_t)0 : skip >= 64 ? 0 : ~(uint64_t)0 << skip;
    with[w] = C[w] | (k->near[q][w] & in_suffix);
  }
  return knights_node(k, q + 1, left - 1, with) && knights_node(k, q + 1, left, C);
}

/* Checks one tree: every X of `size` squares of S_p has |N[X] ∩ S_p| >= goal. */
static bool knights_tree(knights_check *k, int p, int size, int goal, const char *tree) {
  uint64_t none[WORDS] = {0};
  k->p = p;
  k->goal = goal;
  k->tree = k->at = tree;
  if (!knights_node(k, p, size, none)) return false;
  return !*k->at || refuse(k, "text after the tree's end");
}

bool pq_armies_check_lemmas_read(const pq_json *lemmas, int squares) {
  if (!lemmas || lemmas->type != PQ_JSON_ARRAY) return false;
  for (size_t i = 0; i < lemmas->length; i++) {
    const pq_json *l = lemmas->items[i], *tree = pq_json_get(l, "tree");
    long v;
    if (!l || l->type != PQ_JSON_OBJECT || l->length != 4 ||
        pq_json_get_long(l, "from", 0, squares, &v) ||
        pq_json_get_long(l, "size", 0, squares, &v) ||
        pq_json_get_long(l, "least", 0, squares + 1, &v) || !tree || tree->type != PQ_JSON_STRING ||
        strlen(tree->string) != tree->length)
      return false;
  }
  return true;
}

int pq_armies_check_knights(int width, int height, int piece, const pq_json *lemmas,
                            const char *tree, int white, int black, const pq_check_params *params,
                            pq_count *counted, long *leaves, char *why, size_t whylen) {
  knights_check *k = pq_calloc(1, sizeof *k);
  *k = (knights_check){.width = width,
                       .n = width * height,
                       .params = params,
                       .status = 1,
                       .why = why,
                       .whylen = whylen,
                       .black = black};
  k->words = (k->n + 63) / 64;
  for (int s = 0; s < k->n; s++)
    for (int t = 0; t < k->n; t++)
      if (s == t || pq_check_attacks(width, piece, s, t))
        k->near[s][t / 64] |= (uint64_t)1 << (t % 64);
  k->least = pq_malloc((size_t)(k->n + 1) * (size_t)(k->n + 1) * sizeof *k->least);
  for (int q = 0; q <= k->n; q++)
    for (int j = 0; j <= k->n; j++)
      k->least[q * (k->n + 1) + j] = j; /* N[X] holds X */
  for (size_t i = 0; lemmas && i < lemmas->length && k->status == 1; i++) {
    const pq_json *l = lemmas->items[i];
    long from, size, least;
    const char *text = pq_json_get_string(l, "tree");
    if (pq_json_get_long(l, "from", 0, k->n, &from) ||
        pq_json_get_long(l, "size", 0, k->n, &size) ||
        pq_json_get_long(l, "least", 0, k->n + 1, &least) || !text) {
      refuse(k, "a lemma is not {from, size, least, tree} on the board");
      break;
    }
    char what[64];
    snprintf(what, sizeof what, "lemma %zu", i);
    if (knights_tree(k, (int)from, (int)size, (int)least, text)) {
      int *entry = &k->least[from * (k->n + 1) + size];
      if (least > *entry) *entry = (int)least;
    } else if (k->status == 0) {
      char inner[200];
      snprintf(inner, sizeof inner, "%s", why);
      snprintf(why, whylen, "%s: %s", what, inner);
    }
  }
  /* The lemmas are bounds, with no "c"; the claim's tree of a count has them. */
  k->counted = counted;
  if (counted) *counted = 0;
  if (k->status == 1 && !knights_tree(k, 0, white, k->n - black + 1, tree) && k->status == 0) {
    char inner[200];
    snprintf(inner, sizeof inner, "%s", why);
    snprintf(why, whylen, "the %s tree: %s", counted ? "count's" : "claim's", inner);
  }
  if (k->status == 1 && k->overflow) {
    snprintf(why, whylen, "the count's tree: more than 2^128 - 1 placements");
    k->status = 0;
  }
  *leaves = k->leaves;
  int status = k->status;
  free(k->least);
  free(k);
  return status;
}

pq_status pq_armies_check_suffixes(const pq_json *obj, const char *what, bool suffixes, int squares,
                                   const pq_json **lemmas, bool *by_columns) {
  *lemmas = obj ? pq_json_get(obj, "lemmas") : NULL;
  const pq_json *order = obj ? pq_json_get(obj, "order") : NULL;
  const char *order_name = obj ? pq_json_get_string(obj, "order") : NULL;
  *by_columns = order != NULL;
  if (*lemmas && (!suffixes || !pq_armies_check_lemmas_read(*lemmas, squares))) {
    pq_error("%s: malformed armies certificate (%s: lemmas (for knights, and kings' counts: "
             "objects {from, size, least, tree}))",
             pq_check_path(), what);
    return PQ_EINVAL;
  }
  if (order && (!suffixes || !order_name || strcmp(order_name, "columns"))) {
    pq_error("%s: malformed armies certificate (%s: order (for knights, and kings' counts: "
             "\"columns\"))",
             pq_check_path(), what);
    return PQ_EINVAL;
  }
  return PQ_OK;
}
