/* test_pieces.c: the pieces solver against a plain brute force on every board up to 5x5. */
#include <stdlib.h>
#include <string.h>

#include "../problems/pieces/pieces.h"
#include "../src/core/placement.h"
#include "../src/core/sym.h"
#include "tap.h"

/* ---- the brute force: geometry only (pq_attacks_plain), no tables, no calculus ---- */

typedef struct brute {
  const pq_board *b;
  int n; /* pieces */
  int type[PQ_MAX_SQUARES];
  int square[PQ_MAX_SQUARES];
  uint8_t code[PQ_NPIECES]; /* the cell code of each type: letters of the present types */
  uint8_t cells[PQ_MAX_SQUARES];
  bool symmetries; /* also canonical forms and fixed placements */
  int ngroup;
  int image[PQ_NSYMS][PQ_MAX_SQUARES]; /* pq_sym_square, tabulated */
  pq_count total, canonical, fixed[PQ_NSYMS];
  uint64_t hash_all, hash_canonical; /* sums of placement hashes: multisets of placements */
} brute;

static uint64_t placement_hash(const uint8_t *cells, int squares) {
  uint64_t h = 1469598103934665603ull;
  for (int s = 0; s < squares; s++)
    h = (h ^ cells[s]) * 1099511628211ull;
  return h ^ (h >> 31);
}

static void brute_record(brute *br) {
  const pq_board *b = br->b;
  uint64_t h = placement_hash(br->cells, b->squares);
  br->total++;
  br->hash_all += h;
  if (!br->symmetries) return;
  /* Canonical: no image is lexicographically smaller (the definition of pq_sym_canonical). */
  bool canonical = true;
  uint8_t img[PQ_MAX_SQUARES];
  for (int g = 0; g < br->ngroup; g++) {
    for (int s = 0; s < b->squares; s++)
      img[br->image[g][s]] = br->cells[s];
    int cmp = memcmp(img, br->cells, (size_t)b->squares);
    if (cmp < 0) canonical = false;
    if (cmp == 0) br->fixed[g]++;
  }
  if (canonical) {
    br->canonical++;
    br->hash_canonical += h;
  }
}

/* Places piece i and the ones after it: identical pieces in increasing square order, each new
   piece checked against every placed one in both directions. */
static void brute_place(brute *br, int i) {
  if (i == br->n) {
    brute_record(br);
    return;
  }
  const pq_board *b = br->b;
  int t = br->type[i], from = i > 0 && br->type[i - 1] == t ? br->square[i - 1] + 1 : 0;
  for (int s = from; s < b->squares; s++) {
    if (br->cells[s]) continue;
    bool peaceful = true;
    for (int j = 0; j < i && peaceful; j++)
      peaceful = !pq_attacks_plain(b, (pq_piece)br->type[j], br->square[j], s) &&
                 !pq_attacks_plain(b, (pq_piece)t, s, br->square[j]);
    if (!peaceful) continue;
    br->square[i] = s;
    br->cells[s] = br->code[t];
    brute_place(br, i + 1);
    br->cells[s] = 0;
  }
}

static void brute_run(brute *br, const pq_board *b, const int counts[PQ_NPIECES], bool symmetries) {
  memset(br, 0, sizeof *br);
  br->b = b;
  br->symmetries = symmetries;
  br->ngroup = pq_sym_count(b);
  for (int g = 0; g < br->ngroup; g++)
    for (int s = 0; s < b->squares; s++)
      br->image[g][s] = pq_sym_square(b, (pq_sym)g, s);
  int codes = 0;
  for (int t = 0; t < PQ_NPIECES; t++) {
    if (counts[t]) br->code[t] = (uint8_t)++codes;
    for (int j = 0; j < counts[t]; j++)
      br->type[br->n++] = t;
  }
  brute_place(br, 0);
}

/* ---- what the solver lists ---- */

typedef struct seen {
  const pq_board *b;
  const char *letters;
  int counts[PQ_NPIECES];
  pq_count n;
  uint64_t hash;
  int invalid, not_canonical;
  bool check_canonical;
} seen;

static int on_listed(void *ctx, const uint8_t *cells) {
  seen *sn = ctx;
  const pq_board *b = sn->b;
  sn->n++;
  sn->hash += placement_hash(cells, b->squares);
  int have[PQ_NPIECES] = {0}, square[PQ_MAX_SQUARES], piece[PQ_MAX_SQUARES], n = 0;
  bool ok = true;
  for (int s = 0; s < b->squares; s++)
    if (cells[s]) {
      square[n] = s;
      piece[n] = pq_piece_from_letter(sn->letters[cells[s] - 1]);
      have[piece[n++]]++;
    }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (i != j && pq_attacks_plain(b, (pq_piece)piece[i], square[i], square[j])) ok = false;
  for (int p = 0; p < PQ_NPIECES; p++)
    ok = ok && have[p] == sn->counts[p];
  if (!ok) sn->invalid++;
  if (sn->check_canonical) {
    uint8_t canon[PQ_MAX_SQUARES];
    pq_sym_canonical(b, cells, NULL, canon);
    if (memcmp(canon, cells, (size_t)b->squares)) sn->not_canonical++;
  }
  return 0;
}

static void spec_text(const int counts[PQ_NPIECES], char *buf) {
  char *o = buf;
  for (int t = 0; t < PQ_NPIECES; t++)
    if (counts[t]) o += sprintf(o, "%c%d", pq_piece_letters[t], counts[t]);
  if (o == buf) strcpy(buf, "none");
}

/* A worker taking the parts first, first + step, ... of a split and adding up their counts. */
typedef struct sums {
  const pq_pieces_split *sp;
  uint64_t next, step;
  pq_count count, fixed;
  int wrong; /* a part handed back that was not asked for */
  uint64_t asked;
} sums;

static uint64_t sums_next(void *ctx) {
  sums *s = ctx;
  s->asked = s->next;
  s->next += s->step;
  return s->asked;
}

static void sums_done(void *ctx, uint64_t part, pq_count count, uint64_t nodes) {
  (void)nodes;
  sums *s = ctx;
  s->wrong += part != s->asked;
  if (pq_pieces_split_fixed(s->sp, part))
    s->fixed += count;
  else
    s->count += count;
}

/* Adds up the parts of a split of e's count in `step` runs (each taking every step-th part),
   into *count and *fixed; returns the number of faults. */
static int split_sums(pq_pieces *e, bool unique, uint64_t step, pq_count *count, pq_count *fixed) {
  pq_pieces_split *sp = pq_pieces_split_new(e, unique);
  int bad = 0;
  *count = *fixed = 0;
  for (uint64_t first = 0; first < step; first++) {
    sums s = {.sp = sp, .next = first, .step = step};
    pq_pieces_worker w = {.next = sums_next, .done = sums_done, .ctx = &s};
    bad += pq_pieces_split_run(e, sp, &w) != PQ_OK;
    bad += s.wrong;
    *count += s.count;
    *fixed += s.fixed;
  }
  pq_pieces_split_free(sp);
  return bad;
}

/* Checks every count and listing of the solver on one instance against the brute force; returns
   the number of disagreements (described as TAP diagnostics). */
static int check_instance(int width, int height, const int counts[PQ_NPIECES], bool symmetries) {
  pq_board *b = pq_board_new(width, height);
  brute br;
  brute_run(&br, b, counts, symmetries);
  pq_pieces *e = pq_pieces_new(b, counts);
  char spec[64], want[48], got[48];
  spec_text(counts, spec);
  int bad = 0;
#define AGREE(what, a, w)                                                                          \
  do {                                                                                             \
    if ((a) != (w)) {                                                                              \
      bad++;                                                                                       \
      printf("# %dx%d %s: %s %s, brute force %s\n", width, height, spec, what,                     \
             pq_count_str((a), got), pq_count_str((w), want));                                     \
    }                                                                                              \
  } while (0)
  pq_count c = 0, plain = 0, unique = 0;
  bad += pq_pieces_count(e, true, &c) != PQ_OK;
  bad += pq_pieces_count(e, false, &plain) != PQ_OK;
  AGREE("count", c, br.total);
  AGREE("count without symmetry", plain, br.total);
  seen sn = {.b = b, .letters = pq_pieces_letters(e)};
  memcpy(sn.counts, counts, sizeof sn.counts);
  pq_pieces_listing l;
  pq_pieces_listing_init(&l);
  l.on_placement = on_listed;
  l.ctx = &sn;
  pq_pieces_listed listed;
  bad += pq_pieces_list(e, &l, &listed) != PQ_OK || !listed.complete;
  AGREE("listed", sn.n, br.total);
  AGREE("reached", listed.reached, br.total);
  AGREE("invalid listed", (pq_count)sn.invalid, (pq_count)0);
  AGREE("hash of the listed", (pq_count)sn.hash, (pq_count)br.hash_all);
  pq_count part_count, part_fixed;
  bad += split_sums(e, false, 1, &part_count, &part_fixed);
  AGREE("count in parts", part_count, br.total);
  AGREE("other terms in parts without unique", part_fixed, (pq_count)0);
  if (symmetries) {
    pq_count others = 0;
    for (int g = 0; g < pq_sym_count(b); g++) {
      pq_count fixed = 0;
      bad += pq_pieces_count_fixed(e, (pq_sym)g, &fixed) != PQ_OK;
      AGREE(g ? "fixed by a symmetry" : "fixed by the identity", fixed, br.fixed[g]);
      if (g) others += br.fixed[g];
    }
    bad += pq_pieces_count_unique(e, c, &unique) != PQ_OK;
    AGREE("unique (Burnside)", unique, br.canonical);
    bad += split_sums(e, true, 3, &part_count, &part_fixed);
    AGREE("count in parts, in 3 runs", part_count, br.total);
    AGREE("Burnside's other terms in parts, in 3 runs", part_fixed, others);
    seen su = {.b = b, .letters = pq_pieces_letters(e), .check_canonical = true};
    memcpy(su.counts, counts, sizeof su.counts);
    l.unique = true;
    l.ctx = &su;
    bad += pq_pieces_list(e, &l, &listed) != PQ_OK;
    AGREE("unique listed", su.n, br.canonical);
    AGREE("unique listed not canonical", (pq_count)su.not_canonical, (pq_count)0);
    AGREE("hash of the unique listed", (pq_count)su.hash, (pq_count)br.hash_canonical);
  }
#undef AGREE
  pq_pieces_free(e);
  pq_board_free(b);
  return bad;
}

/* Every mix of up to max pieces over the five types, in a fixed order. */
static int next_mix(int counts[PQ_NPIECES], int max) {
  for (int t = PQ_NPIECES - 1; t >= 0; t--) {
    int total = 0;
    for (int u = 0; u < PQ_NPIECES; u++)
      total += counts[u];
    if (total < max) {
      counts[t]++;
      return 1;
    }
    counts[t] = 0;
  }
  return 0;
}

/* ---- an independent count beyond 2^64: knights on a narrow board, row by row ---- */

/* Placements of `pieces` knights on a width x height board (width <= 4) by a transfer matrix over
   the masks of the last two rows. */
static pq_count knights_by_rows(int width, int height, int pieces) {
  pq_board *b = pq_board_new(width, 3);
  int masks = 1 << width;
  /* peaceful[a][c]: row mask c two rows below a, and near[a][c]: one row below. */
  static bool far_ok[16][16], near_ok[16][16];
  for (int a = 0; a < masks; a++)
    for (int c = 0; c < masks; c++) {
      far_ok[a][c] = near_ok[a][c] = true;
      for (int i = 0; i < width; i++)
        for (int j = 0; j < width; j++)
          if (((a >> i) & 1) && ((c >> j) & 1)) {
            if (pq_attacks_plain(b, PQ_KNIGHT, pq_square(b, 0, i), pq_square(b, 2, j)))
              far_ok[a][c] = false;
            if (pq_attacks_plain(b, PQ_KNIGHT, pq_square(b, 0, i), pq_square(b, 1, j)))
              near_ok[a][c] = false;
          }
    }
  size_t states = (size_t)masks * (size_t)masks * (size_t)(pieces + 1);
  pq_count *now = calloc(states, sizeof *now), *next = calloc(states, sizeof *next);
#define AT(p, q, k)                                                                                \
  (((size_t)(p) * (size_t)masks + (size_t)(q)) * (size_t)(pieces + 1) + (size_t)(k))
  now[AT(0, 0, 0)] = 1;
  for (int r = 0; r < height; r++) {
    memset(next, 0, states * sizeof *next);
    for (int p = 0; p < masks; p++)
      for (int q = 0; q < masks; q++)
        for (int k = 0; k <= pieces; k++) {
          pq_count v = now[AT(p, q, k)];
          if (!v) continue;
          for (int c = 0; c < masks; c++) {
            int kk = k + __builtin_popcount((unsigned)c);
            if (kk <= pieces && far_ok[p][c] && near_ok[q][c]) next[AT(q, c, kk)] += v;
          }
        }
    pq_count *t = now;
    now = next;
    next = t;
  }
  pq_count total = 0;
  for (int p = 0; p < masks; p++)
    for (int q = 0; q < masks; q++)
      total += now[AT(p, q, pieces)];
#undef AT
  free(now);
  free(next);
  pq_board_free(b);
  return total;
}

static pq_count count_of(int width, int height, const char *spec, pq_status *rc) {
  int counts[PQ_NPIECES];
  pq_count c = 0;
  pq_board *b = pq_board_new(width, height);
  *rc = pq_pieces_parse("--pieces", spec, b->squares, counts);
  if (*rc == PQ_OK) {
    pq_pieces *e = pq_pieces_new(b, counts);
    *rc = pq_pieces_count(e, true, &c);
    pq_pieces_free(e);
  }
  pq_board_free(b);
  return c;
}

int main(void) {
  /* Every board up to 5x5, every mix of up to 5 pieces: all of them on boards of up to 12
     squares; on larger boards every mix of up to 3 pieces and, of 4 and 5 pieces, one mix in
     seven (chosen by position, so every type and most pairs of types appear). */
  for (int w = 1; w <= 5; w++)
    for (int h = 1; h <= 5; h++) {
      int counts[PQ_NPIECES] = {0}, bad = 0, instances = 0, index = 0;
      do {
        int total = 0;
        for (int t = 0; t < PQ_NPIECES; t++)
          total += counts[t];
        index++;
        if (total > w * h) continue;
        if (w * h > 12 && total > 3 && (index + w + h) % 7) continue;
        bad += check_instance(w, h, counts, true);
        instances++;
      } while (next_mix(counts, 5));
      tap_ok(bad == 0, "%dx%d: %d mixes of up to 5 pieces agree with the brute force", w, h,
             instances);
    }

  /* Each type alone up to 5 pieces on 5x5 (the last kind's closed forms and memo). */
  for (int t = 0; t < PQ_NPIECES; t++) {
    int bad = 0;
    for (int n = 1; n <= 5; n++) {
      int counts[PQ_NPIECES] = {0};
      counts[t] = n;
      bad += check_instance(5, 5, counts, true);
    }
    tap_ok(bad == 0, "5x5: 1 to 5 %c alone agree with the brute force", pq_piece_letters[t]);
  }

  /* Boards of more than 64 squares take the several-word path. */
  static const struct {
    int w, h;
    int counts[PQ_NPIECES];
    bool symmetries;
  } big[] = {
      {9, 8, {0, 2, 0, 0, 1}, true},   {11, 6, {0, 0, 2, 1, 0}, true},
      {9, 9, {0, 2, 0, 0, 1}, true},   {9, 9, {0, 3, 0, 0, 0}, true},
      {9, 8, {3, 0, 0, 0, 0}, true},   {9, 8, {0, 0, 0, 3, 0}, true},
      {13, 5, {0, 0, 4, 0, 0}, false}, {13, 5, {0, 4, 0, 0, 0}, false},
  };
  for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
    char spec[64];
    spec_text(big[i].counts, spec);
    tap_ok(check_instance(big[i].w, big[i].h, big[i].counts, big[i].symmetries) == 0,
           "%dx%d %s (several words) agrees with the brute force", big[i].w, big[i].h, spec);
  }

  /* The known values. */
  pq_status rc;
  tap_ok(count_of(3, 3, "K1R2", &rc) == 4 && rc == PQ_OK, "3x3 K1R2: 4");
  tap_ok(count_of(4, 4, "R2N4", &rc) == 8 && rc == PQ_OK, "4x4 R2N4: 8");
  tap_ok(count_of(7, 7, "K2Q2B2N1", &rc) == 3063828 && rc == PQ_OK, "7x7 K2Q2B2N1: 3,063,828");
  {
    int counts[PQ_NPIECES] = {[PQ_QUEEN] = 8};
    pq_board *b = pq_board_new(8, 8);
    pq_pieces *e = pq_pieces_new(b, counts);
    pq_count all = 0, unique = 0;
    rc = pq_pieces_count(e, true, &all);
    if (rc == PQ_OK) rc = pq_pieces_count_unique(e, all, &unique);
    tap_ok(rc == PQ_OK && all == 92 && unique == 12, "8x8 Q8: 92, 12 up to symmetry");
    pq_pieces_free(e);
    pq_board_free(b);
  }

  /* Parts: thousands of them on a larger count, adding up to it in any grouping; a fingerprint
     that tells splits apart and stays the same for the same count. */
  {
    int counts[PQ_NPIECES] = {[PQ_KING] = 2, [PQ_QUEEN] = 2, [PQ_BISHOP] = 2, [PQ_KNIGHT] = 1};
    int spelled[PQ_NPIECES] = {[PQ_KING] = 2, [PQ_QUEEN] = 2, [PQ_BISHOP] = 2, [PQ_KNIGHT] = 2};
    pq_board *b = pq_board_new(7, 7);
    pq_pieces *e = pq_pieces_new(b, counts), *other = pq_pieces_new(b, spelled);
    pq_pieces_split *sp = pq_pieces_split_new(e, false), *again = pq_pieces_split_new(e, false),
                    *with_unique = pq_pieces_split_new(e, true),
                    *other_split = pq_pieces_split_new(other, false);
    uint64_t parts = pq_pieces_split_parts(sp);
    tap_ok(parts >= 1000 && parts <= 65536, "7x7 K2Q2B2N1 splits into %llu parts",
           (unsigned long long)parts);
    tap_ok(pq_pieces_split_id(sp) == pq_pieces_split_id(again) &&
               pq_pieces_split_id(sp) != pq_pieces_split_id(with_unique) &&
               pq_pieces_split_id(sp) != pq_pieces_split_id(other_split),
           "the fingerprint: the same for the same count, another with --unique or other pieces");
    pq_count c, fixed;
    int bad = split_sums(e, false, 7, &c, &fixed);
    tap_ok(!bad && c == 3063828 && fixed == 0, "its parts in 7 groups add up to 3,063,828");
    bad = split_sums(e, true, 2, &c, &fixed);
    tap_ok(!bad && c == 3063828 && (c + fixed) / 8 == 382990 && (c + fixed) % 8 == 0,
           "with --unique, Burnside's sum over the parts gives 382,990");
    pq_pieces_split_free(sp);
    pq_pieces_split_free(again);
    pq_pieces_split_free(with_unique);
    pq_pieces_split_free(other_split);
    pq_pieces_free(e);
    pq_pieces_free(other);
    pq_board_free(b);
  }

  /* One kind alone splits too: 8x8 Q8 in parts. */
  {
    int counts[PQ_NPIECES] = {[PQ_QUEEN] = 8};
    pq_board *b = pq_board_new(8, 8);
    pq_pieces *e = pq_pieces_new(b, counts);
    pq_pieces_split *sp = pq_pieces_split_new(e, true);
    pq_count c, fixed;
    int bad = split_sums(e, true, 5, &c, &fixed);
    tap_ok(!bad && pq_pieces_split_parts(sp) > 100 && c == 92 && (c + fixed) == 12 * 8,
           "8x8 Q8: %llu parts, 92 and 12 up to symmetry",
           (unsigned long long)pq_pieces_split_parts(sp));
    pq_pieces_split_free(sp);
    pq_pieces_free(e);
    pq_board_free(b);
  }

  /* Beyond 2^64: knights on 4 columns of 32 rows, against the transfer matrix. */
  {
    pq_count want = knights_by_rows(4, 32, 20), got = count_of(4, 32, "N20", &rc);
    char a[48], w[48];
    tap_ok(rc == PQ_OK && got == want && want > (pq_count)UINT64_MAX,
           "4x32 N20: %s, beyond 2^64, as the transfer matrix's %s", pq_count_str(got, a),
           pq_count_str(want, w));
  }

  /* A count that could pass 2^128 - 1 is refused; a large but bounded one is not. */
  {
    int counts[PQ_NPIECES] = {[PQ_KNIGHT] = 30};
    pq_board *b = pq_board_new(32, 32);
    pq_pieces *e = pq_pieces_new(b, counts);
    pq_count c = 7;
    tap_ok(pq_pieces_check_size(e, "N30") == PQ_EINVAL, "32x32 N30: the size check refuses");
    tap_ok(pq_pieces_count(e, true, &c) == PQ_EINVAL && c == 7,
           "32x32 N30: counting refuses and sets no count");
    pq_pieces_free(e);
    int queens[PQ_NPIECES] = {[PQ_QUEEN] = 32};
    e = pq_pieces_new(b, queens);
    tap_ok(pq_pieces_check_size(e, "Q32") == PQ_OK, "32x32 Q32: within 128 bits (rows bound)");
    pq_pieces_free(e);
    pq_board_free(b);
  }

  /* Limits and interrupts stop a run without a count. */
  {
    int counts[PQ_NPIECES] = {
        [PQ_KING] = 2, [PQ_QUEEN] = 1, [PQ_BISHOP] = 2, [PQ_ROOK] = 2, [PQ_KNIGHT] = 3};
    pq_board *b = pq_board_new(8, 8);
    pq_pieces *e = pq_pieces_new(b, counts);
    pq_count c = 7;
    pq_pieces_set_limits(e, 1000, 0);
    tap_ok(pq_pieces_count(e, true, &c) == PQ_ELIMIT && c == 7, "a node limit stops the count");
    pq_pieces_set_limits(e, 0, pq_now() - 1);
    tap_ok(pq_pieces_count(e, true, &c) == PQ_ELIMIT && c == 7, "a past deadline stops the count");
    pq_pieces_set_limits(e, 0, 0);
    pq_interrupted = 1;
    tap_ok(pq_pieces_count(e, true, &c) == PQ_EINTR && c == 7, "an interrupt stops the count");
    pq_interrupted = 0;
    pq_pieces_free(e);
    pq_board_free(b);
  }

  /* Listing: the limit, and lines written as the placement text with a prefix and suffix. */
  {
    int counts[PQ_NPIECES] = {[PQ_QUEEN] = 8};
    pq_board *b = pq_board_new(8, 8);
    pq_pieces *e = pq_pieces_new(b, counts);
    seen sn = {.b = b, .letters = pq_pieces_letters(e), .counts = {[PQ_QUEEN] = 8}};
    pq_pieces_listing l;
    pq_pieces_listing_init(&l);
    l.limit = 5;
    l.on_placement = on_listed;
    l.ctx = &sn;
    FILE *f = tmpfile();
    l.out = f;
    l.prefix = "<";
    l.suffix = ">";
    pq_pieces_listed listed;
    rc = pq_pieces_list(e, &l, &listed);
    tap_ok(rc == PQ_OK && listed.listed == 5 && !listed.complete && sn.n == 5 && !sn.invalid,
           "--limit 5 lists 5 valid placements and says the listing is not complete");
    rewind(f);
    char line[256];
    int lines = 0, good = 0;
    uint8_t cells[PQ_MAX_SQUARES];
    while (fgets(line, sizeof line, f)) {
      lines++;
      size_t n = strlen(line);
      if (n > 3 && line[0] == '<' && line[n - 2] == '>' && line[n - 1] == '\n') {
        line[n - 2] = '\0';
        good += pq_placement_parse(b, line + 1, "Q", cells) == PQ_OK;
      }
    }
    tap_ok(lines == 5 && good == 5, "the 5 lines are prefix, placement text, suffix (%d, %d)",
           lines, good);
    fclose(f);
    pq_pieces_free(e);
    pq_board_free(b);
  }
  return tap_done();
}
