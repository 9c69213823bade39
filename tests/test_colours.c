/* test_colours.c: armies of 3 and 4 colours (problems/armies/armies_colours.c) against a brute
   force over squares on every board up to 4x4 and a few rectangles, for queens, rooks and bishops:
   the same maximum, every witness peaceable (checked square by square), and the parts of a
   split covering every labelling (a size that fits is found whatever part holds it); and the
   counts (--count: placements, classes up to the board's symmetries, and up to the symmetries
   and the colours' permutations) against a brute force that lists every placement square by
   square and takes canonical forms under symmetries written out here. */
#include <stdlib.h>
#include <string.h>

#include "../problems/armies/armies_colours.h"
#include "tap.h"

/* Whether k pieces of each of C colours fit, square by square from s: a square stays empty or
   takes a colour none of whose attackers of another colour stands. */
static bool brute(const pq_board *b, pq_piece p, int C, int k, uint8_t *cells, int s, int *have,
                  int left) {
  int missing = 0;
  for (int c = 1; c <= C; c++)
    missing += have[c] < k ? k - have[c] : 0;
  if (!missing) return true;
  if (missing > left) return false;
  for (int c = 1; c <= C; c++) {
    if (have[c] >= k) continue;
    bool free = true;
    for (int t = 0; t < s && free; t++)
      free = !cells[t] || cells[t] == c || !pq_attacks_plain(b, p, s, t);
    if (!free) continue;
    cells[s] = (uint8_t)c;
    have[c]++;
    bool found = brute(b, p, C, k, cells, s + 1, have, left - 1);
    have[c]--;
    cells[s] = 0;
    if (found) return true;
  }
  return brute(b, p, C, k, cells, s + 1, have, left - 1);
}

static int brute_maximum(const pq_board *b, pq_piece p, int C) {
  int k = 0;
  for (;;) {
    uint8_t cells[PQ_COLOURS_MAX_SQUARES] = {0};
    int have[PQ_MAX_COLOURS + 1] = {0};
    if (!brute(b, p, C, k + 1, cells, 0, have, b->squares)) return k;
    k++;
  }
}

/* Decides k with every part on one solver; *ok is false when a witness is not peaceable. */
static bool decide(const pq_board *b, pq_piece p, int C, int k, bool *ok) {
  pq_colours *pc = pq_colours_new(b, p, C, k);
  pq_colours_solver *s = pq_colours_solver_new(pc);
  bool any = false;
  for (int i = 0; i < pq_colours_parts(pc); i++) {
    uint8_t cells[PQ_COLOURS_MAX_SQUARES];
    bool found;
    if (pq_colours_part(s, i, cells, &found, NULL) != PQ_OK) *ok = false;
    if (found && !pq_colours_peaceable(b, p, C, k, cells)) *ok = false;
    any |= found;
  }
  pq_colours_solver_free(s);
  pq_colours_free(pc);
  return any;
}

/* ---- counts: every placement, and its canonical forms ---- */

typedef struct listing {
  int w, h, C, k, n;
  pq_piece p;
  const pq_board *b;
  uint8_t *forms; /* per placement: its form up to symmetry, then up to symmetry and colours */
  size_t count, cap;
} listing;

/* The image of (row, column) under the g-th symmetry of a w x h board (8 when square, else the
   first 4); false when g does not keep the board's shape. */
static bool image_of(int g, int w, int h, int r, int c, int *ir, int *ic) {
  if (g >= 4 && w != h) return false;
  switch (g) {
  case 0: *ir = r, *ic = c; break;
  case 1: *ir = h - 1 - r, *ic = w - 1 - c; break;
  case 2: *ir = r, *ic = w - 1 - c; break;
  case 3: *ir = h - 1 - r, *ic = c; break;
  case 4: *ir = c, *ic = w - 1 - r; break;
  case 5: *ir = w - 1 - c, *ic = r; break;
  case 6: *ir = c, *ic = r; break;
  default: *ir = w - 1 - c, *ic = h - 1 - r; break;
  }
  return true;
}

/* The least image of cells over the symmetries, with colours renumbered by first appearance
   when recolour. */
static void form_of(const listing *l, const uint8_t *cells, bool recolour, uint8_t *out) {
  bool first = true;
  for (int g = 0; g < 8; g++) {
    uint8_t img[64], map[16] = {0}, next = 1;
    int ir, ic;
    if (!image_of(g, l->w, l->h, 0, 0, &ir, &ic)) continue;
    for (int r = 0; r < l->h; r++)
      for (int c = 0; c < l->w; c++) {
        image_of(g, l->w, l->h, r, c, &ir, &ic);
        img[ir * l->w + ic] = cells[r * l->w + c];
      }
    for (int s = 0; recolour && s < l->n; s++)
      if (img[s]) {
        if (!map[img[s]]) map[img[s]] = next++;
        img[s] = map[img[s]];
      }
    if (first || memcmp(img, out, (size_t)l->n) < 0) memcpy(out, img, (size_t)l->n);
    first = false;
  }
}

/* Every placement of exactly k of each colour, square by square from s. */
static void all_placements(listing *l, uint8_t *cells, int s, int *have, int missing) {
  if (missing > l->n - s) return;
  if (s == l->n) {
    if (l->count == l->cap)
      l->forms = realloc(l->forms, (l->cap = l->cap ? 2 * l->cap : 1024) * 2 * (size_t)l->n);
    uint8_t *f = l->forms + l->count++ * 2 * (size_t)l->n;
    form_of(l, cells, false, f);
    form_of(l, cells, true, f + l->n);
    return;
  }
  all_placements(l, cells, s + 1, have, missing);
  for (int c = 1; c <= l->C; c++) {
    if (have[c] == l->k) continue;
    bool free = true;
    for (int t = 0; t < s && free; t++)
      free = !cells[t] || cells[t] == c || !pq_attacks_plain(l->b, l->p, s, t);
    if (!free) continue;
    cells[s] = (uint8_t)c;
    have[c]++;
    all_placements(l, cells, s + 1, have, missing - 1);
    have[c]--;
    cells[s] = 0;
  }
}

static int form_size;
static int compare_forms(const void *a, const void *b) { return memcmp(a, b, (size_t)form_size); }

/* The number of distinct forms at offset `at` of each placement's pair. */
static uint64_t distinct(listing *l, int at) {
  uint8_t *f = malloc(l->count * (size_t)l->n + 1);
  for (size_t i = 0; i < l->count; i++)
    memcpy(f + i * (size_t)l->n, l->forms + (2 * i + (size_t)at) * (size_t)l->n, (size_t)l->n);
  form_size = l->n;
  qsort(f, l->count, (size_t)l->n, compare_forms);
  uint64_t n = 0;
  for (size_t i = 0; i < l->count; i++)
    n += !i || memcmp(f + i * (size_t)l->n, f + (i - 1) * (size_t)l->n, (size_t)l->n);
  free(f);
  return n;
}

/* The count of k of each of C colours of p on w x h, by the engine and by the brute force (left
   out past 30,000 placements). */
static void count_case(int w, int h, pq_piece p, int C, int k) {
  pq_board *b = pq_board_new(w, h);
  pq_colours_count_task task = {
      .b = b, .piece = p, .colours = C, .k = k, .lim = {.jobs = 1 + (w + k) % 2}};
  pq_colours_counted got;
  pq_status rc = pq_colours_count_run(&task, &got);
  if (rc == PQ_OK && got.count > 30000) { /* too many for the brute force's memory and time */
    pq_board_free(b);
    return;
  }
  listing l = {.w = w, .h = h, .C = C, .k = k, .n = w * h, .p = p, .b = b};
  uint8_t cells[64] = {0};
  int have[PQ_MAX_COLOURS + 1] = {0};
  all_placements(&l, cells, 0, have, C * k);
  uint64_t unique = distinct(&l, 0), classes = distinct(&l, 1);
  tap_ok(rc == PQ_OK && got.count == l.count && got.unique == unique &&
             got.unique_colour == classes,
         "count of %d colours of %d %c on %dx%d: %llu, %llu up to symmetry, %llu with colours "
         "(brute force %zu, %llu, %llu)",
         C, k, pq_piece_letters[p], w, h, (unsigned long long)got.count,
         (unsigned long long)got.unique, (unsigned long long)got.unique_colour, l.count,
         (unsigned long long)unique, (unsigned long long)classes);
  free(l.forms);
  pq_board_free(b);
}

int main(void) {
  static const int sizes[][2] = {{1, 1}, {2, 2}, {3, 3}, {4, 4}, {2, 5}, {5, 2}, {3, 4},
                                 {4, 3}, {3, 5}, {1, 6}, {5, 4}, {5, 5}, {6, 4}};
  static const pq_piece pieces[] = {PQ_QUEEN, PQ_ROOK, PQ_BISHOP};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
    for (int j = 0; j < 3; j++)
      for (int C = 3; C <= 4; C++) {
        pq_board *b = pq_board_new(sizes[i][0], sizes[i][1]);
        pq_piece p = pieces[j];
        int want = brute_maximum(b, p, C), got = 0;
        bool ok = true;
        while (decide(b, p, C, got + 1, &ok))
          got++;
        tap_ok(got == want && ok, "%d colours of %c on %dx%d: maximum %d (brute force %d)%s", C,
               pq_piece_letters[p], b->width, b->height, got, want,
               ok ? "" : ", a witness not peaceable");
        pq_board_free(b);
      }
  /* Counts: every size from 1 to the maximum on boards to 5x5 and a few rectangles, and the
     maximum of queens on 6x6; 3 and 4 colours (queens, rooks and bishops below 6x6). */
  static const int count_sizes[][2] = {{2, 2}, {3, 3}, {4, 4}, {5, 5}, {3, 5},
                                       {4, 3}, {5, 2}, {6, 4}, {6, 6}};
  for (size_t i = 0; i < sizeof count_sizes / sizeof *count_sizes; i++)
    for (int j = 0; j < 3; j++)
      for (int C = 3; C <= 4; C++) {
        int w = count_sizes[i][0], h = count_sizes[i][1];
        if (w * h >= 36 && j) continue;
        pq_board *b = pq_board_new(w, h);
        int most = brute_maximum(b, pieces[j], C);
        pq_board_free(b);
        for (int k = w * h >= 36 ? most : 1; k <= most; k++)
          if (pieces[j] != PQ_BISHOP || k == 1 || k == most) /* bishops: millions between */
            count_case(w, h, pieces[j], C, k);
      }
  /* The witness text reads back, and a placement with two colours on one line is refused. */
  pq_board *b = pq_board_new(4, 4);
  uint8_t cells[PQ_COLOURS_MAX_SQUARES];
  tap_ok(pq_colours_parse(b, PQ_QUEEN, 3, 1, "...1/2.../..3./....", cells) == PQ_OK,
         "a peaceable placement of 3 colours parses");
  tap_ok(pq_colours_parse(b, PQ_QUEEN, 3, 1, "1..2/..../..3./....", cells) != PQ_OK,
         "two colours on one row are refused");
  tap_ok(pq_colours_parse(b, PQ_QUEEN, 3, 1, "...1/2.../..../....", cells) != PQ_OK,
         "a colour missing is refused");
  pq_board_free(b);
  return tap_done();
}
