/* test_config.c: the config calculus against its literal merge table and a whole board. */
#include <string.h>

#include "../src/core/config.h"
#include "tap.h"

/* The states of one square for kinds Q (0) and N (1), in the table's order. */
static const char states[] = ".NQxnq";

/* The merge table of the foundation issue: row state merged with column state; '?' a clash. */
static const char *const table[6] = {
    /*       .NQxnq */
    /* . */ ".NQxnq",
    /* N */ "N???N?",
    /* Q */ "Q????Q",
    /* x */ "x??xxx",
    /* n */ "nN?xnx",
    /* q */ "q?Qxxq",
};

/* The config of one square holding state ch on a 1x1 board. */
static pq_config state_config(const pq_calc *c, char ch) {
  pq_config cfg;
  pq_config_empty(c, &cfg);
  switch (ch) {
  case 'Q': pq_config_place(c, &cfg, 0, 0); break;
  case 'N': pq_config_place(c, &cfg, 1, 0); break;
  case 'x': pq_bits_set(&cfg.forbidden[0], 0), pq_bits_set(&cfg.forbidden[1], 0); break;
  case 'n': pq_bits_set(&cfg.forbidden[0], 0); break; /* a queen here would attack a knight */
  case 'q': pq_bits_set(&cfg.forbidden[1], 0); break; /* a knight here would attack a queen */
  }
  return cfg;
}

static char merged(const pq_calc *c, char a, char b) {
  pq_config x = state_config(c, a), y = state_config(c, b);
  char text[4];
  if (pq_config_merge(c, &x, &y)) return '?';
  pq_config_text(c, &x, text);
  return text[0];
}

static char merged3(const pq_calc *c, char a, char b, char d, int left_first) {
  pq_config x = state_config(c, a), y = state_config(c, b), z = state_config(c, d);
  char text[4];
  if (left_first) {
    if (pq_config_merge(c, &x, &y) || pq_config_merge(c, &x, &z)) return '?';
    pq_config_text(c, &x, text);
  } else {
    if (pq_config_merge(c, &y, &z) || pq_config_merge(c, &x, &y)) return '?';
    pq_config_text(c, &x, text);
  }
  return text[0];
}

int main(void) {
  pq_kind qn[2] = {{PQ_QUEEN, 0}, {PQ_KNIGHT, 0}};
  pq_board *one = pq_board_new(1, 1);
  pq_calc *c1 = pq_calc_new(one, 2, qn, PQ_CONFLICT_ALL);

  for (int i = 0; i < 6; i++) {
    char text[4];
    pq_config cfg = state_config(c1, states[i]);
    pq_config_text(c1, &cfg, text);
    tap_ok(text[0] == states[i], "state %c prints as itself (got %c)", states[i], text[0]);
  }
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++) {
      char got = merged(c1, states[i], states[j]);
      tap_ok(got == table[i][j], "merge %c with %c gives %c (table: %c)", states[i], states[j], got,
             table[i][j]);
    }
  int assoc_bad = 0;
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++)
      for (int k = 0; k < 6; k++)
        if (merged3(c1, states[i], states[j], states[k], 1) !=
            merged3(c1, states[i], states[j], states[k], 0))
          assoc_bad++;
  tap_ok(assoc_bad == 0, "merge is associative on all 216 triples of states (%d differ)",
         assoc_bad);

  /* The whole-board example: a queen on row 2, column 6 merged with a knight on row 6, col 1. */
  pq_board *b = pq_board_new(8, 8);
  pq_calc *c = pq_calc_new(b, 2, qn, PQ_CONFLICT_ALL);
  pq_config x = *pq_calc_piece(c, 0, pq_square(b, 2, 6));
  const pq_config *knight = pq_calc_piece(c, 1, pq_square(b, 6, 1));
  char text[80];
  tap_ok(pq_config_merge(c, &x, knight) == 0, "queen and knight merge without a clash");
  pq_config_text(c, &x, text);
  const char *want = ".n..xqxx/.n..qxxx/xxxxxxQx/.n..xxxx/xnxnxqxq/nnnx..x./nNxnnnxn/nxnx..x.";
  tap_ok(!strcmp(text, want), "whole board: %s", text);

  /* Placing is the same merge: incremental placement gives the same config. */
  pq_config y;
  pq_config_empty(c, &y);
  pq_config_place(c, &y, 1, pq_square(b, 6, 1));
  pq_config_place(c, &y, 0, pq_square(b, 2, 6));
  pq_config_text(c, &y, text);
  tap_ok(!strcmp(text, want), "placing in the other order gives the same board");
  tap_ok(pq_config_place(c, &y, 0, pq_square(b, 2, 0)) == -1,
         "a queen on the first queen's row is refused");
  tap_ok(pq_config_place(c, &y, 1, pq_square(b, 4, 2)) == -1,
         "a knight a knight's move from the knight is refused");

  /* Every precomputed lone-piece config agrees with the plain conflict test. */
  pq_kind all[4] = {{PQ_KING, 0}, {PQ_BISHOP, 0}, {PQ_ROOK, 1}, {PQ_KNIGHT, 1}};
  pq_board *r = pq_board_new(5, 7);
  for (int rule = 0; rule < 3; rule++) {
    pq_calc *cr = pq_calc_new(r, 4, all, (pq_conflict)rule);
    int wrong = 0;
    for (int a = 0; a < 4; a++)
      for (int s = 0; s < r->squares; s++)
        for (int k = 0; k < 4; k++)
          for (int t = 0; t < r->squares; t++) {
            bool forbidden = pq_bits_has(&pq_calc_piece(cr, a, s)->forbidden[k], t);
            bool want_f = t == s || pq_calc_conflict(cr, a, s, k, t);
            wrong += forbidden != want_f;
          }
    tap_ok(wrong == 0, "5x7, rule %d: lone-piece configs match the plain conflict test", rule);
    pq_calc_free(cr);
  }
  pq_board_free(r);
  pq_calc_free(c);
  pq_board_free(b);
  pq_calc_free(c1);
  pq_board_free(one);
  return tap_done();
}
