/* pieces.c: anarchist pieces (no colours): count and list placements where none attacks another. */
#include "pieces.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/config.h"
#include "../src/placement.h"
#include "../src/problem.h"
#include "../src/search.h"
#include "../src/sym.h"

pq_status pq_pieces_parse(const char *spec, int squares, int counts[PQ_NPIECES]) {
  memset(counts, 0, PQ_NPIECES * sizeof *counts);
  bool seen[PQ_NPIECES] = {false};
  if (!spec || !*spec) {
    pq_error("pieces \"\": expected letters K Q R B N each followed by a count, e.g. K2Q2B2N1");
    return PQ_EINVAL;
  }
  long total = 0;
  for (const char *p = spec; *p;) {
    int piece = pq_piece_from_letter((unsigned char)*p);
    if (piece < 0) {
      pq_error("pieces \"%s\": unknown piece '%c' (expected K Q R B N)", spec, *p);
      return PQ_EINVAL;
    }
    if (seen[piece]) {
      pq_error("pieces \"%s\": piece '%c' given twice", spec, *p);
      return PQ_EINVAL;
    }
    seen[piece] = true;
    p++;
    long n = 1;
    if (*p == '-' || *p == '+') {
      pq_error("pieces \"%s\": the count after '%c' must be a whole number from 0 to %d", spec,
               p[-1], squares);
      return PQ_EINVAL;
    }
    if (isdigit((unsigned char)*p)) {
      n = 0;
      while (isdigit((unsigned char)*p)) {
        if (n <= squares) n = n * 10 + (*p - '0');
        p++;
      }
      if (n > squares) {
        pq_error("pieces \"%s\": count %s%ld for '%c' exceeds the board's %d squares", spec,
                 n > 99999 ? "over " : "", n > 99999 ? 99999L : n,
                 pq_piece_letters[piece], squares);
        return PQ_EINVAL;
      }
    }
    counts[piece] = (int)n;
    total += n;
  }
  if (total > squares) {
    pq_error("pieces \"%s\": %ld pieces do not fit on %d squares", spec, total, squares);
    return PQ_EINVAL;
  }
  return PQ_OK;
}

typedef struct listing {
  const pq_board *board;
  char letters[PQ_MAX_KINDS + 1];
  bool list, unique, json;
  int group;
  pq_count fixed_sum; /* Burnside: the sum over placements of their stabiliser's order */
  char *text;
} listing;

static int on_placement(void *ctx, const uint8_t *cells) {
  listing *l = ctx;
  uint8_t canon[PQ_MAX_SQUARES];
  bool print = l->list;
  if (l->unique) {
    int fixed = pq_sym_canonical(l->board, cells, NULL, canon);
    pq_count_add(&l->fixed_sum, (pq_count)fixed);
    print = print && !memcmp(canon, cells, (size_t)l->board->squares);
  }
  if (print) {
    pq_placement_text(l->board, cells, l->letters, l->text);
    if (l->json)
      printf("{\"placement\":\"%s\"}\n", l->text);
    else
      puts(l->text);
  }
  return 0;
}

static pq_status run(const pq_options *o) {
  int width, height, counts[PQ_NPIECES];
  pq_status rc = pq_board_parse(o->board ? o->board : "8", &width, &height);
  if (rc) return rc;
  if (!o->pieces) {
    pq_error("pieces: --pieces SPEC is required, e.g. --pieces K2Q2B2N1");
    return PQ_EINVAL;
  }
  rc = pq_pieces_parse(o->pieces, width * height, counts);
  if (rc) return rc;

  pq_board *b = pq_board_new(width, height);
  pq_kind kinds[PQ_NPIECES];
  pq_search_params params;
  pq_search_params_init(&params);
  listing l = {.board = b, .list = PQ_FLAG(o, list), .unique = PQ_FLAG(o, unique),
               .json = PQ_FLAG(o, json), .group = pq_sym_count(b)};
  int nkinds = 0;
  for (int p = 0; p < PQ_NPIECES; p++)
    if (counts[p]) {
      kinds[nkinds] = (pq_kind){(pq_piece)p, 0};
      l.letters[nkinds] = pq_piece_letters[p];
      params.count[nkinds++] = counts[p];
    }
  if (!nkinds) kinds[nkinds++] = (pq_kind){PQ_KING, 0}; /* no pieces: one empty placement */
  l.text = pq_malloc((size_t)b->squares + (size_t)b->height + 1);
  pq_calc *calc = pq_calc_new(b, nkinds, kinds, PQ_CONFLICT_ALL);
  params.on_solution = on_placement;
  params.ctx = &l;
  pq_search_result res;
  rc = pq_search_run(calc, &params, &res);
  char buf[48], ubuf[48];
  if (rc == PQ_OK && res.overflow) {
    pq_error("pieces: more than 2^128 placements: the count cannot be given");
    rc = PQ_ELIMIT;
  } else if (rc == PQ_OK) {
    pq_count_str(res.count, buf);
    pq_count_str(l.fixed_sum / (pq_count)l.group, ubuf);
    if (PQ_FLAG(o, json)) {
      printf("{\"problem\":\"pieces\",\"board\":\"%dx%d\",\"pieces\":\"%s\",\"count\":%s", width,
             height, o->pieces, buf);
      if (l.unique) printf(",\"unique\":%s", ubuf);
      printf("}\n");
    } else if (!l.list) {
      printf("%s\n", buf);
      if (l.unique) printf("%s up to symmetry\n", ubuf);
    }
  } else {
    pq_error("pieces: stopped before the end (%s): %s placements so far, no total",
             rc == PQ_EINTR ? "interrupted" : "limit reached", pq_count_str(res.count, buf));
  }
  free(l.text);
  pq_calc_free(calc);
  pq_board_free(b);
  return rc;
}

const pq_problem pq_problem_pieces = {
    .name = "pieces",
    .letter = 'p',
    .summary = "count or list placements of kings, queens, rooks, bishops and knights where none "
               "attacks another",
    .run = run,
};
