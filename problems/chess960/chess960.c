/* chess960.c: the Chess960 back ranks, found by search, with the Scharnagl numbering. */
#include "chess960.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../src/cli/problem.h"
#include "../../src/core/config.h"
#include "../../src/core/placement.h"
#include "../../src/core/search.h"

enum { FILES = PQ_CHESS960_FILES };

/* The pieces of a back rank, by type. */
static const int army[PQ_NPIECES] = {
    [PQ_KING] = 1, [PQ_QUEEN] = 1, [PQ_ROOK] = 2, [PQ_BISHOP] = 2, [PQ_KNIGHT] = 2};
static const char *const army_words[PQ_NPIECES] = {[PQ_KING] = "one K",
                                                   [PQ_QUEEN] = "one Q",
                                                   [PQ_ROOK] = "two R",
                                                   [PQ_BISHOP] = "two B",
                                                   [PQ_KNIGHT] = "two N"};

/* Square colours of white's first rank: a1 is dark, so the light squares are b1 d1 f1 h1. */
static bool light_square(int file) { return file % 2 == 1; }

/* The Scharnagl scheme's choices, in the order of its digits (least significant first). */
enum {
  LIGHT_CHOICES = FILES / 2, /* the light-square bishop: b d f h */
  DARK_CHOICES = FILES / 2,  /* the dark-square bishop: a c e g */
  QUEEN_CHOICES = FILES - 2, /* the queen: among the squares the bishops leave */
  KNIGHT_CHOICES = 10        /* the knights: an entry of knight_table */
};

/* The standard table of the knights' places among the 5 squares left after the bishops and the
   queen (Scharnagl's "KRN code" with R K R dropped: they fill the other 3 squares in order). */
static const char *const knight_table[KNIGHT_CHOICES] = {
    "NN---", "N-N--", "N--N-", "N---N", "-NN--", "-N-N-", "-N--N", "--NN-", "--N-N", "---NN"};

/* Whether a partial rank (cells[f]: 0 empty, else piece + 1) keeps the two rules as far as its
   pieces decide them: two bishops on squares of opposite colours; with both rooks and the king
   placed, the king between the rooks. */
static bool rules_hold(const uint8_t *cells) {
  int bishop[2], rook[2], bishops = 0, rooks = 0, king = -1;
  for (int f = 0; f < FILES; f++) {
    if (!cells[f]) continue;
    switch ((pq_piece)(cells[f] - 1)) {
    case PQ_BISHOP:
      if (bishops < 2) bishop[bishops] = f;
      bishops++;
      break;
    case PQ_ROOK:
      if (rooks < 2) rook[rooks] = f;
      rooks++;
      break;
    case PQ_KING: king = f; break;
    default: break;
    }
  }
  if (bishops == 2 && light_square(bishop[0]) == light_square(bishop[1])) return false;
  if (rooks == 2 && king >= 0 && !(rook[0] < king && king < rook[1])) return false;
  return true;
}

/* The search's accept callback: the rules, with the piece about to be placed. */
static bool accept_piece(void *ctx, int k, int s, const uint8_t *cells) {
  (void)ctx;
  uint8_t next[FILES];
  memcpy(next, cells, sizeof next);
  next[s] = (uint8_t)(k + 1); /* kind k is piece type k: see pq_chess960_search */
  return rules_hold(next);
}

typedef struct found {
  pq_chess960_rank *ranks;
  int count, capacity;
} found;

static int on_rank(void *ctx, const uint8_t *cells) {
  found *fd = ctx;
  if (fd->count == fd->capacity) {
    fd->capacity = fd->capacity ? 2 * fd->capacity : 64;
    fd->ranks = pq_realloc(fd->ranks, (size_t)fd->capacity * sizeof *fd->ranks);
  }
  char *rank = fd->ranks[fd->count++];
  for (int f = 0; f < FILES; f++)
    rank[f] = pq_piece_letters[cells[f] - 1];
  rank[FILES] = '\0';
  return 0;
}

pq_status pq_chess960_search(pq_chess960_rank **ranks, int *count) {
  /* Kind k is piece type k, so the cells' codes are piece + 1 and the kinds' letters are
     pq_piece_letters. No attack matters on a back rank: only one piece per square. */
  pq_kind kinds[PQ_NPIECES];
  pq_search_params params;
  pq_search_params_init(&params);
  for (int p = 0; p < PQ_NPIECES; p++) {
    kinds[p] = (pq_kind){(pq_piece)p, 0};
    params.count[p] = army[p];
  }
  pq_board *b = pq_board_new(FILES, 1);
  pq_calc *calc = pq_calc_new(b, PQ_NPIECES, kinds, PQ_CONFLICT_NONE);
  found fd = {NULL, 0, 0};
  params.accept = accept_piece;
  params.on_solution = on_rank;
  params.ctx = &fd;
  pq_search_result res;
  pq_status rc = pq_search_run(calc, &params, &res);
  pq_calc_free(calc);
  pq_board_free(b);
  if (rc != PQ_OK) {
    free(fd.ranks);
    return rc;
  }
  *ranks = fd.ranks;
  *count = fd.count;
  return PQ_OK;
}

/* Writes into why the first rule text breaks, and returns false; or returns true. */
static bool rank_ok(const char *text, char *why, size_t size) {
  size_t len = strlen(text);
  if (len != FILES) {
    snprintf(why, size, "has %zu %s, a back rank has %d squares", len,
             len == 1 ? "character" : "characters", FILES);
    return false;
  }
  int have[PQ_NPIECES] = {0};
  uint8_t cells[FILES];
  for (int f = 0; f < FILES; f++) {
    unsigned char ch = (unsigned char)text[f];
    int p = pq_piece_from_letter(ch);
    if (p >= 0 && islower(ch)) {
      snprintf(why, size, "'%c' is lower case: write the rank with upper-case K Q R B N", ch);
      return false;
    }
    if (p < 0) {
      if (isprint(ch))
        snprintf(why, size, "'%c' is not a piece letter (K Q R B N)", ch);
      else
        snprintf(why, size, "byte 0x%02x is not a piece letter (K Q R B N)", ch);
      return false;
    }
    have[p]++;
    cells[f] = (uint8_t)(p + 1);
  }
  for (int p = 0; p < PQ_NPIECES; p++)
    if (have[p] != army[p]) {
      snprintf(why, size, "a back rank has %s, %s, %s, %s and %s; this has %d %c",
               army_words[PQ_KING], army_words[PQ_QUEEN], army_words[PQ_ROOK],
               army_words[PQ_BISHOP], army_words[PQ_KNIGHT], have[p], pq_piece_letters[p]);
      return false;
    }
  uint8_t bishops_only[FILES], rooks_and_king[FILES];
  for (int f = 0; f < FILES; f++) {
    pq_piece p = (pq_piece)(cells[f] - 1);
    bishops_only[f] = p == PQ_BISHOP ? cells[f] : 0;
    rooks_and_king[f] = p == PQ_ROOK || p == PQ_KING ? cells[f] : 0;
  }
  if (!rules_hold(bishops_only)) {
    snprintf(why, size, "the bishops must stand on squares of opposite colours, these are both %s",
             light_square((int)(strchr(text, 'B') - text)) ? "light" : "dark");
    return false;
  }
  if (!rules_hold(rooks_and_king)) {
    snprintf(why, size, "the king must stand between the rooks");
    return false;
  }
  return true;
}

pq_status pq_chess960_check(const char *text) {
  char why[160];
  if (rank_ok(text, why, sizeof why)) return PQ_OK;
  pq_error("chess960: --position \"%.40s%s\": %s", text, strlen(text) > 40 ? "..." : "", why);
  return PQ_EINVAL;
}

int pq_chess960_numbers(void) {
  return LIGHT_CHOICES * DARK_CHOICES * QUEEN_CHOICES * KNIGHT_CHOICES;
}

int pq_chess960_number(const char *rank) {
  char why[160];
  PQ_REQUIRE(rank_ok(rank, why, sizeof why), "rank \"%s\": %s", rank, why);
  int light = -1, dark = -1, queen = 0, knights = -1;
  for (int f = 0; f < FILES; f++)
    if (rank[f] == 'B') {
      if (light_square(f))
        light = f / 2; /* b d f h: files 1 3 5 7 */
      else
        dark = f / 2; /* a c e g: files 0 2 4 6 */
    }
  for (int f = 0; f < FILES && rank[f] != 'Q'; f++)
    if (rank[f] != 'B') queen++;
  char pattern[FILES + 1];
  int left = 0;
  for (int f = 0; f < FILES; f++)
    if (rank[f] != 'B' && rank[f] != 'Q') pattern[left++] = rank[f] == 'N' ? 'N' : '-';
  pattern[left] = '\0';
  for (int i = 0; i < KNIGHT_CHOICES; i++)
    if (!strcmp(pattern, knight_table[i])) knights = i;
  PQ_REQUIRE(light >= 0 && dark >= 0 && knights >= 0, "rank \"%s\" escaped the rules", rank);
  return light + LIGHT_CHOICES * (dark + DARK_CHOICES * (queen + QUEEN_CHOICES * knights));
}

/* Puts piece letter on the index-th empty square of rank (counting from 0, files a to h). */
static void put_on_empty(char *rank, int index, char letter) {
  for (int f = 0; f < FILES; f++)
    if (rank[f] == '.' && index-- == 0) {
      rank[f] = letter;
      return;
    }
  PQ_REQUIRE(0, "no empty square left for %c", letter);
}

void pq_chess960_rank_of(int n, pq_chess960_rank rank) {
  PQ_REQUIRE(n >= 0 && n < pq_chess960_numbers(), "Scharnagl number %d out of range", n);
  memset(rank, '.', FILES);
  rank[FILES] = '\0';
  int light = n % LIGHT_CHOICES;
  n /= LIGHT_CHOICES;
  int dark = n % DARK_CHOICES;
  n /= DARK_CHOICES;
  int queen = n % QUEEN_CHOICES;
  int knights = n / QUEEN_CHOICES;
  rank[2 * light + 1] = 'B';
  rank[2 * dark] = 'B';
  put_on_empty(rank, queen, 'Q');
  /* Knights first by the table, then R K R on the empty squares left, from the left. */
  char left[FILES];
  int nleft = 0;
  for (int f = 0; f < FILES; f++)
    if (rank[f] == '.') left[nleft++] = (char)f;
  for (int i = 0; i < nleft; i++)
    if (knight_table[knights][i] == 'N') rank[(int)left[i]] = 'N';
  put_on_empty(rank, 0, 'R');
  put_on_empty(rank, 0, 'K');
  put_on_empty(rank, 0, 'R');
}

/* splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014). */
static uint64_t splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

uint64_t pq_chess960_draw(uint64_t seed, uint64_t n) {
  PQ_REQUIRE(n >= 1, "drawing from an empty range");
  /* The first 2^64 mod n values are dropped so that every residue is equally likely. */
  uint64_t threshold = (0 - n) % n, z;
  do
    z = splitmix64(&seed);
  while (z < threshold);
  return z % n;
}

void pq_chess960_fen(const char *rank, char *fen) {
  char black[FILES + 1];
  for (int f = 0; f <= FILES; f++)
    black[f] = (char)tolower((unsigned char)rank[f]);
  sprintf(fen, "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w KQkq - 0 1", black, rank);
}

/* Prints the starting position of rank as a diagram (rank 8 at the top). */
static void draw_position(const char *rank) {
  static const char letters[] = "KQRBNPkqrbnp";
  pq_board *b = pq_board_new(FILES, FILES);
  uint8_t cells[FILES * FILES] = {0};
  for (int f = 0; f < FILES; f++) {
    char white = rank[f], black = (char)tolower((unsigned char)white);
    cells[pq_square(b, 0, f)] = (uint8_t)(strchr(letters, black) - letters + 1);
    cells[pq_square(b, 1, f)] = (uint8_t)(strchr(letters, 'p') - letters + 1);
    cells[pq_square(b, FILES - 2, f)] = (uint8_t)(strchr(letters, 'P') - letters + 1);
    cells[pq_square(b, FILES - 1, f)] = (uint8_t)(strchr(letters, white) - letters + 1);
  }
  pq_placement_draw(stdout, b, cells, letters);
  pq_board_free(b);
}

typedef enum mode { MODE_COUNT, MODE_ALL, MODE_NUMBER, MODE_POSITION, MODE_RANDOM } mode;

typedef struct output {
  mode mode;
  bool json, board, seeded;
  long seed;
} output;

/* Prints the rank numbered n in the form the options ask for. */
static void print_rank(const output *out, int n, const char *rank) {
  char fen[96];
  pq_chess960_fen(rank, fen);
  if (out->json) {
    printf("{\"problem\":\"chess960\",\"number\":%d,\"rank\":\"%s\"", n, rank);
    if (out->seeded) printf(",\"seed\":%ld", out->seed);
    if (out->board) printf(",\"fen\":\"%s\"", fen);
    printf("}\n");
  } else if (out->board) {
    printf("%d %s\n", n, rank);
    draw_position(rank);
    printf("%s\n", fen);
  } else if (out->mode == MODE_NUMBER) {
    printf("%s\n", rank);
  } else if (out->mode == MODE_POSITION) {
    printf("%d\n", n);
  } else {
    printf("%d %s\n", n, rank);
  }
}

static pq_status run(const pq_options *o) {
  static const char *const mode_names[] = {"--count", "--all", "--number", "--position",
                                           "--random"};
  const char *given[] = {o->count, o->all, o->number, o->position, o->random};
  output out = {.mode = MODE_COUNT, .json = PQ_FLAG(o, json), .board = PQ_FLAG(o, diagram)};
  int modes = 0;
  for (int m = 0; m < (int)(sizeof given / sizeof given[0]); m++)
    if (given[m]) {
      if (modes++) {
        pq_error("chess960: %s and %s: give at most one of --count, --all, --number, --position, "
                 "--random",
                 mode_names[out.mode], mode_names[m]);
        return PQ_EINVAL;
      }
      out.mode = (mode)m;
    }
  if (o->seed && out.mode != MODE_RANDOM) {
    pq_error("chess960: --seed \"%s\": a seed applies only to --random", o->seed);
    return PQ_EINVAL;
  }
  if (out.board && out.mode == MODE_COUNT) {
    pq_error("chess960: --diagram shows a rank's starting position: give --number N, --position "
             "RANK, --random or --all");
    return PQ_EINVAL;
  }
  if (out.mode == MODE_POSITION && pq_chess960_check(o->position)) return PQ_EINVAL;

  pq_chess960_rank *found_ranks = NULL;
  int count = 0;
  pq_status rc = pq_chess960_search(&found_ranks, &count);
  if (rc) {
    pq_error("chess960: interrupted before the search ended");
    return rc;
  }
  /* The numbering must be a bijection from the ranks found onto 0 .. count - 1. */
  PQ_REQUIRE(count == pq_chess960_numbers(), "the search found %d ranks, the numbering has %d",
             count, pq_chess960_numbers());
  int *by_number = pq_malloc((size_t)count * sizeof *by_number);
  for (int i = 0; i < count; i++)
    by_number[i] = -1;
  for (int i = 0; i < count; i++) {
    int n = pq_chess960_number(found_ranks[i]);
    PQ_REQUIRE(n >= 0 && n < count && by_number[n] < 0,
               "rank %s: number %d out of range or given twice", found_ranks[i], n);
    by_number[n] = i;
  }

  long n = 0;
  switch (out.mode) {
  case MODE_COUNT:
    if (out.json)
      printf("{\"problem\":\"chess960\",\"count\":%d}\n", count);
    else
      printf("%d\n", count);
    break;
  case MODE_ALL:
    for (int i = 0; i < count; i++) {
      if (out.board && !out.json && i) putchar('\n');
      print_rank(&out, i, found_ranks[by_number[i]]);
    }
    if (out.json) printf("{\"problem\":\"chess960\",\"count\":%d}\n", count); /* the summary */
    break;
  case MODE_NUMBER:
    rc = pq_option_long("number", o->number, 0, count - 1, 0, &n);
    if (!rc) print_rank(&out, (int)n, found_ranks[by_number[n]]);
    break;
  case MODE_POSITION:
    n = pq_chess960_number(o->position);
    print_rank(&out, (int)n, o->position);
    break;
  case MODE_RANDOM: {
    out.seed = o->seed ? o->v.seed : pq_clock_seed();
    if (!o->seed && !PQ_FLAG(o, quiet))
      fprintf(stderr,
              "peaceable: chess960: --random with seed %ld from the clock (repeat it with "
              "--seed %ld)\n",
              out.seed, out.seed);
    out.seeded = true;
    n = (long)pq_chess960_draw((uint64_t)out.seed, (uint64_t)count);
    print_rank(&out, (int)n, found_ranks[by_number[n]]);
    break;
  }
  }
  free(by_number);
  free(found_ranks);
  return rc;
}

const pq_problem pq_problem_chess960 = {
    .name = "chess960",
    .letter = 'c',
    .summary = "the Chess960 back ranks, found by search, in Scharnagl's numbering; no option: "
               "their count; --random seeds from the clock unless --seed; --diagram's FEN writes "
               "castling as KQkq (X-FEN)",
    .run = run,
};
