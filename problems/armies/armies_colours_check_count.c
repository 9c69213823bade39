/* armies_colours_check_count.c: the checker of count certificates of several colours
   (doc/certificate.md, "Count certificates of several colours"), part of libcheck.a with
   armies_colours_check.c: nothing of the search. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/check/check.h"

#include "armies_colours_check.h"

/* ---- count certificates (doc/certificate.md, "Count certificates of several colours") ---- */

/* The sets of `left` squares among the squares still free (free_square[s], n of them) that meet
   every line of need[0..nneed) (the lines labelled with the colour, each of which holds one of
   its pieces), by their first square on need[0]: it meets need[0] and the other lines through
   it, and the free squares of need[0] before it are left out. */
static pq_count meeting(checker *c, bool *free_square, int n, int left, int *need, int nneed) {
  if (pq_check_stop(c->params)) return c->interrupted = true, 0;
  if (!nneed) return pq_check_binomial(n, left, &c->overflow);
  int dirs = c->along[0] + c->along[1] + c->along[2] + c->along[3]; /* lines through a square */
  if (!left || n < left || nneed > dirs * left) return 0;
  int l = need[0], done[PQ_CHECK_MAX_SIDE], ndone = 0;
  pq_count total = 0;
  for (int i = 0; i < c->line_length[l] && !c->interrupted; i++) {
    int s = c->line_square[l * PQ_CHECK_MAX_SIDE + i], gone[4], m = 0;
    if (!free_square[s]) continue;
    free_square[s] = false; /* taken here, left out of the sets that come after */
    done[ndone++] = s;
    for (int j = 0; j < nneed; j++)
      for (int d = 0; d < 4; d++)
        if (need[j] == c->line_of[s][d]) {
          gone[m++] = need[j];
          need[j--] = need[--nneed];
          break;
        }
    if (pq_count_add(&total, meeting(c, free_square, n - ndone, left - 1, need, nneed)))
      c->overflow = true;
    for (int j = 0; j < m; j++)
      need[nneed++] = gone[j];
  }
  for (int i = 0; i < ndone; i++)
    free_square[done[i]] = true;
  return total;
}

/* A count leaf "c": every undecided line of the piece has squares open to one colour at most,
   so the colours' open squares are disjoint and any `need` of each colour's that meet its lines
   make a placement, counted here only. */
static bool count_leaf(checker *c, pq_count *n) {
  int C = c->colours;
  for (int l = 0; l < c->lines; l++) {
    if (c->label[l] >= 0 || !c->along[c->dir[l]]) continue;
    int open = 0;
    for (int k = 0; k < C && open < 2; k++)
      open += pq_ccheck_open_on(c, l, k) > 0;
    if (open > 1) return pq_ccheck_fault(c, "tree: a count leaf with a line open to two colours");
  }
  bool *open = pq_malloc((size_t)c->squares * sizeof *open);
  int *need = pq_malloc((size_t)c->lines * sizeof *need);
  pq_count product = 1;
  for (int k = 0; k < C && product; k++) {
    int nopen = 0, nneed = 0;
    for (int s = 0; s < c->squares; s++)
      nopen += open[s] = pq_ccheck_open_to(c, s, k);
    for (int l = 0; l < c->lines; l++)
      if (c->label[l] == k) need[nneed++] = l;
    pq_count ways = meeting(c, open, nopen, c->need, need, nneed), next = product * ways;
    if (ways && next / ways != product) c->overflow = true;
    product = next;
  }
  free(open);
  free(need);
  *n = product;
  return !c->interrupted;
}

/* Whether a count tree's leaf "." is closed: more than `need` parallel lines labelled with one
   colour (each holds one of its pieces), a line labelled with a colour and no square open to it,
   or a bound of leaf_closed. */
static bool count_closed(checker *c) {
  for (int k = 0; k < c->colours; k++)
    for (int d = 0; d < 4; d++)
      if (c->labelled[k][d] > c->need) return true;
  for (int l = 0; l < c->lines; l++)
    if (c->label[l] >= 0 && c->label[l] < c->colours && !pq_ccheck_open_on(c, l, c->label[l]))
      return true;
  return pq_ccheck_leaf_closed(c);
}

/* Checks the count subtree at *p and sets *n to the placements it counts; used: the colours in
   the cube or on the path. */
bool pq_ccheck_count_node(checker *c, const char *tree, const char **p, unsigned used,
                          pq_count *n) {
  c->at = *p - tree;
  *n = 0;
  if (pq_check_stop(c->params)) return c->interrupted = true, false;
  if (**p == 'c') {
    (*p)++;
    c->leaves++;
    return count_leaf(c, n);
  }
  bool leaf_ok;
  if (pq_ccheck_dot(c, p, count_closed, &leaf_ok)) return leaf_ok;
  long l;
  if (!pq_ccheck_branch(c, p, &l)) return false;
  int C = c->colours, squares[MAX_COLOURS + 1];
  bool tree_child[MAX_COLOURS + 1];
  pq_count counts[MAX_COLOURS + 1];
  for (int k = 0; k < C; k++)
    squares[k] = pq_ccheck_open_on(c, (int)l, k);
  for (int k = 0; k <= C; k++) {
    counts[k] = 0;
    tree_child[k] = **p != '-';
    if (!tree_child[k]) {
      if (k == C)
        return pq_ccheck_fault(c, "tree: the child where line %ld is empty is left out", l);
      (*p)++;
      continue;
    }
    pq_ccheck_set_label(c, (int)l, k, +1);
    bool ok = pq_ccheck_count_node(c, tree, p, k < C ? used | 1u << k : used, &counts[k]);
    pq_ccheck_set_label(c, (int)l, k, -1);
    if (!ok) return false;
  }
  /* A colour left out ('-') counts as a lower colour with a subtree when neither is used (the
     two are alike there), or nothing when no square of the line is open to it (the line would
     hold one of its pieces). */
  for (int k = 0; k < C; k++) {
    if (tree_child[k]) continue;
    int like = -1;
    for (int j = 0; j < k && like < 0; j++)
      if (tree_child[j] && !((used >> j) & 1) && !((used >> k) & 1)) like = j;
    if (like >= 0)
      counts[k] = counts[like];
    else if (squares[k])
      return pq_ccheck_fault(c, "tree: colour %d of line %ld is left out without a reason", k, l);
  }
  for (int k = 0; k <= C; k++)
    if (pq_count_add(n, counts[k])) c->overflow = true;
  return true;
}

/* Renumbers a labelling of the split lines by first use, leaving empty (colours) as it is. */
static void normalize_count(const uint8_t *in, int n, int colours, uint8_t *out) {
  uint8_t map[MAX_COLOURS];
  memset(map, 0xff, sizeof map);
  int next = 0;
  for (int i = 0; i < n; i++) {
    if (in[i] == colours) {
      out[i] = in[i];
      continue;
    }
    if (map[in[i]] == 0xff) map[in[i]] = (uint8_t)next++;
    out[i] = map[in[i]];
  }
}

/* colours! / (colours - used)!: the renumberings of `used` colours into the colours. */
static pq_count arrangements(int colours, int used) {
  pq_count r = 1;
  for (int i = 0; i < used; i++)
    r *= (pq_count)(colours - i);
  return r;
}

/* The exact cover of a count: the split closed under the symmetries; the cubes in first-use
   order; the images of each cube under the symmetries (renumbered by first use) met by no other
   cube; every labelling in first-use order one of them. weight[q]: the labellings in cube q's
   class under the symmetries and the colours' permutations (its distinct renumbered images,
   times the renumberings of its colours). */
static bool check_count_cover(checker *c, const int *split, int n, const pq_json *cubes,
                              pq_count *weight) {
  int img[8][MAX_SPLIT], C = c->colours, base = C + 1;
  double all;
  int groups = pq_ccheck_split_images(c, split, n, base, img, &all);
  if (!groups) return false;
  int *owner = pq_malloc((size_t)all * sizeof *owner);
  for (long code = 0; code < (long)all; code++)
    owner[code] = -1;
  bool ok = true;
  for (size_t q = 0; q < cubes->length && ok; q++) {
    const char *t = cubes->items[q]->string;
    uint8_t x[MAX_SPLIT], y[MAX_SPLIT], z[MAX_SPLIT];
    unsigned colours_used = 0;
    for (int i = 0; i < n; i++) {
      x[i] = (uint8_t)(t[i] == '.' ? C : t[i] - '0');
      if (x[i] < C) colours_used |= 1u << x[i];
    }
    normalize_count(x, n, C, y);
    if (memcmp(x, y, (size_t)n)) {
      ok = pq_ccheck_fault(c, "cubes: cube %zu is not in first-use order", q);
      break;
    }
    pq_count images = 0;
    for (int g = 0; g < groups && ok; g++) {
      for (int i = 0; i < n; i++)
        y[img[g][i]] = x[i];
      normalize_count(y, n, C, z);
      long code = 0;
      for (int i = 0; i < n; i++)
        code = code * base + z[i];
      if (owner[code] == (int)q) continue;
      if (owner[code] >= 0)
        ok = pq_ccheck_fault(c, "cubes: cube %zu shares its class with cube %d", q, owner[code]);
      owner[code] = (int)q;
      images++;
    }
    weight[q] = images * arrangements(C, __builtin_popcount(colours_used));
  }
  for (long code = 0; code < (long)all && ok; code++) {
    uint8_t x[MAX_SPLIT], y[MAX_SPLIT];
    for (int i = n - 1, rest = (int)code; i >= 0; i--, rest /= base)
      x[i] = (uint8_t)(rest % base);
    normalize_count(x, n, C, y);
    if (!memcmp(x, y, (size_t)n) && owner[code] < 0)
      ok = pq_ccheck_fault(c, "cubes: a labelling of the split lines is in no cube");
  }
  free(owner);
  return ok;
}

/* A placement's class: the least of its images under the symmetries with the colours renumbered
   by first use square by square, into least. */
static void least_class(const checker *c, const uint8_t *cells, uint8_t *least) {
  int groups = c->width == c->height ? 8 : 4;
  uint8_t image[PQ_CHECK_MAX_SQUARES];
  for (int g = 0; g < groups; g++) {
    uint8_t map[MAX_COLOURS + 1] = {0}, next = 1;
    for (int s = 0; s < c->squares; s++)
      image[pq_check_image(c->width, c->height, g, s)] = cells[s];
    for (int s = 0; s < c->squares; s++) {
      if (image[s] && !map[image[s]]) map[image[s]] = next++;
      image[s] = map[image[s]];
    }
    if (!g || memcmp(image, least, (size_t)c->squares) < 0)
      memcpy(least, image, (size_t)c->squares);
  }
}

/* The listed placements: each of `size` pieces of every colour with no attack, the least of its
   class, none twice. counts: the placements of all the classes, the classes up to the
   symmetries, and the classes (computed from each class's stabilisers: with s the symmetries g
   whose image of P is P renumbered, and f those that fix P, the class has |G| C! / s placements
   and C! f / s classes up to the symmetries). */
static bool check_classes(checker *c, const pq_json *list, long size, pq_count counts[3]) {
  size_t n = list->length, bytes = (size_t)c->squares;
  int groups = c->width == c->height ? 8 : 4;
  uint8_t *cells = pq_malloc((n + 1) * bytes), least[PQ_CHECK_MAX_SQUARES];
  pq_count factorial = arrangements(c->colours, c->colours);
  bool ok = true;
  counts[0] = counts[1] = counts[2] = 0;
  for (size_t i = 0; i < n && ok; i++) {
    const pq_json *item = list->items[i];
    uint8_t *p = cells + i * bytes;
    if (item->type != PQ_JSON_STRING || strlen(item->string) != item->length ||
        !pq_ccheck_check_witness(c, item->string, size)) {
      char why[sizeof c->why];
      snprintf(why, sizeof why, "placements: item %zu: %.150s", i,
               c->why[0] ? c->why : "not a text");
      memcpy(c->why, why, sizeof why);
      ok = false;
      break;
    }
    pq_check_rows(item->string, c->width, c->height, ".123456789abcdef", p, &(int){0}, &(char){0});
    least_class(c, p, least);
    if (memcmp(least, p, bytes)) {
      ok = pq_ccheck_fault(c, "placements: item %zu is not the least of its class", i);
      break;
    }
    int s = 0, f = 0;
    for (int g = 0; g < groups; g++) {
      uint8_t image[PQ_CHECK_MAX_SQUARES], renumbered[PQ_CHECK_MAX_SQUARES],
          map[MAX_COLOURS + 1] = {0}, next = 1;
      for (int q = 0; q < c->squares; q++)
        image[pq_check_image(c->width, c->height, g, q)] = p[q];
      for (int q = 0; q < c->squares; q++) {
        if (image[q] && !map[image[q]]) map[image[q]] = next++;
        renumbered[q] = map[image[q]];
      }
      s += !memcmp(renumbered, p, bytes);
      f += !memcmp(image, p, bytes);
    }
    /* s counts the pairs (g, permutation) that fix P (one permutation at most for each g: every
       colour stands), f those with the identity: both divide as said, checked all the same. */
    if (!s || !f || groups % s || s % f || factorial % (pq_count)(s / f))
      ok = pq_ccheck_fault(c, "placements: item %zu has stabilisers that are no group", i);
    else if (pq_count_add(&counts[0], factorial * (pq_count)(groups / s)) ||
             pq_count_add(&counts[1], factorial / (pq_count)(s / f)))
      c->overflow = true;
    counts[2]++;
  }
  if (ok && pq_check_distinct(cells, n, bytes) != n)
    ok = pq_ccheck_fault(c, "placements: a placement is listed twice");
  free(cells);
  return ok;
}

/* The claim "count": the count's proof (cover and trees) gives the number of placements of
   `size` of each colour; the listed classes hold exactly that many; the stated numbers are
   theirs. At size 0 the list is the empty board alone. */
pq_status pq_ccheck_check_count(checker *c, const pq_json *doc, long size, pq_count counts[3],
                                bool *ok) {
  const pq_json *list = pq_json_get(doc, "placements"), *count = pq_json_get(doc, "count");
  static const char *const keys[3] = {"total", "unique", "unique_colour"};
  pq_count stated[3], total = 0;
  if (!list || list->type != PQ_JSON_ARRAY || (size > 0) != (count != NULL))
    return pq_ccheck_malformed("placements, and count with a size from 1");
  for (int i = 0; i < 3; i++)
    if (pq_json_count(pq_json_get(doc, keys[i]), &stated[i])) return pq_ccheck_malformed(keys[i]);
  c->need = (int)size;
  if (!size) {
    uint8_t cells[PQ_CHECK_MAX_SQUARES];
    int square;
    char bad;
    *ok = list->length == 1 && list->items[0]->type == PQ_JSON_STRING &&
          pq_check_rows(list->items[0]->string, c->width, c->height, ".", cells, &square, &bad) ==
              PQ_ROWS_OK;
    if (!*ok) pq_ccheck_fault(c, "placements: of size 0, the empty board alone");
    counts[0] = counts[1] = counts[2] = 1;
  } else {
    int n = 0, lines[MAX_SPLIT];
    if (pq_ccheck_read_proof(c, count, "count", true, lines, &n, ok)) return PQ_EINVAL;
    const pq_json *cubes = pq_json_get(count, "cubes"), *trees = pq_json_get(count, "trees");
    pq_count *weight = pq_calloc(cubes->length + 1, sizeof *weight);
    c->counting = true;
    if (*ok) *ok = check_count_cover(c, lines, n, cubes, weight);
    pq_ccheck_trees pf = {cubes, trees, lines, n, weight};
    if (*ok) *ok = pq_ccheck_check_trees(c, &pf, &total);
    c->counting = false;
    free(weight);
    c->count_cubes = (long)cubes->length;
    if (*ok) *ok = check_classes(c, list, size, counts);
    if (*ok && c->overflow) *ok = pq_ccheck_fault(c, "count: more than 2^128 - 1 placements");
    char text[48], listed[48];
    if (*ok && total != counts[0])
      *ok =
          pq_ccheck_fault(c,
                          "placements: the %zu classes listed hold %s placements, but the count "
                          "proof counts %s",
                          list->length, pq_count_str(counts[0], listed), pq_count_str(total, text));
  }
  for (int i = 0; *ok && i < 3; i++)
    if (stated[i] != counts[i]) {
      char text[48];
      *ok = pq_ccheck_fault(c, "claim: the stated %s is not the %s the placements give", keys[i],
                            pq_count_str(counts[i], text));
    }
  return PQ_OK;
}
