/* pieces_list.c: the pieces solver's listings: every placement (or one of each class) in the
   search's order, written as placement lines or handed to a callback. */
#include "pieces_search.h"

/* Whether the placement in e->cells is its own canonical form: no image under the group is
   lexicographically smaller (the order of pq_sym_canonical). */
static bool canonical(const pq_pieces *e) {
  const uint8_t *cells = e->cells;
  for (int g = 1; g < e->ngroup; g++) {
    const int *pre = e->preimage + g * e->squares;
    for (int t = 0; t < e->squares; t++) {
      uint8_t a = cells[pre[t]], b = cells[t];
      if (a != b) {
        if (a < b) return false;
        break;
      }
    }
  }
  return true;
}

static void flush(pq_pieces *e) {
  const pq_pieces_listing *l = e->listing;
  if (e->fill && fwrite(e->buf, 1, e->fill, l->out) != e->fill && !e->status) e->status = PQ_EIO;
  e->fill = 0;
}

/* Makes room for len more bytes in the buffer: writes it out, or while gathering a part's lines,
   grows it. */
static void make_room(pq_pieces *e, size_t len) {
  if (!e->gather) {
    flush(e);
    return;
  }
  while (e->fill + len > e->buf_size)
    e->buf_size *= 2;
  e->buf = pq_realloc(e->buf, e->buf_size);
}

/* One placement reached: list it unless filtered out; sets e->stop to end the listing. */
static void reached(pq_pieces *e) {
  const pq_pieces_listing *l = e->listing;
  e->listed->reached++;
  if (l->unique && !canonical(e)) return;
  e->listed->listed++;
  if (e->buf) {
    if (e->fill + e->line_len > e->buf_size) make_room(e, e->line_len);
    memcpy(e->buf + e->fill, e->line, e->line_len);
    e->fill += e->line_len;
  }
  if (l->on_placement && l->on_placement(l->ctx, e->cells)) e->stop = true;
  if (l->limit && e->listed->listed >= l->limit) e->stop = true;
}

static void list_one(pq_pieces *e, int d);
static void list_many(pq_pieces *e, int d);

/* Lists the placements that put the last piece on each square of set: each is the line with
   the piece's letter, copied into the output buffer. */
HOT void write_last(pq_pieces *e, const uint64_t *set, char letter, const int nw) {
  const pq_pieces_listing *l = e->listing;
  uint64_t n = (uint64_t)popcount(set, nw), done = 0;
  if (l->limit && e->listed->listed + n >= l->limit) {
    n = (uint64_t)(l->limit - e->listed->listed);
    e->stop = true;
  }
  size_t len = e->line_len;
  for (int w = 0; w < nw && done < n; w++)
    for (uint64_t x = set[w]; x && done < n; x &= x - 1, done++) {
      if (e->fill + len > e->buf_size) make_room(e, len);
      char *to = e->buf + e->fill;
      memcpy(to, e->line, len);
      to[e->column[w * 64 + __builtin_ctzll(x)]] = letter;
      e->fill += len;
    }
  e->listed->listed += n;
  e->listed->reached += n;
  e->nodes += n;
  if (e->nodes >= e->next_check) pq_pieces_keep_going(e);
}

HOT void list_body(pq_pieces *e, int d, const int nw) {
  if (d == e->total) {
    reached(e);
    return;
  }
  int k = e->slot_kind[d], r = e->slot_left[d], nk = e->nk;
  uint64_t *open = e->stack + (size_t)d * (size_t)nk * (size_t)nw, *next = open + nk * nw;
  const uint64_t *mine = open + k * nw;
  uint8_t code = e->code[k];
  char letter = e->letters[code - 1];
  if (d == e->total - 1 && e->plain_text) {
    write_last(e, mine, letter, nw);
    return;
  }
  if (d == e->total - 2 && e->plain_text) {
    /* The last two pieces in one loop. */
    int k2 = e->slot_kind[d + 1], remaining = popcount(mine, nw);
    char letter2 = e->letters[e->code[k2] - 1];
    uint64_t last[PQ_WORDS];
    for (int w = 0; w < nw; w++)
      for (uint64_t x = mine[w]; x; x &= x - 1) {
        if (remaining-- < r) return;
        int s = w * 64 + __builtin_ctzll(x);
        if (++e->nodes >= e->next_check && !pq_pieces_keep_going(e)) return;
        const uint64_t *c = closed_to(e, k, k2, s, nw);
        if (k2 == k) {
          for (int v = 0; v < nw; v++)
            last[v] = v < w ? 0 : mine[v] & ~c[v];
          last[w] &= x & (x - 1);
        } else {
          for (int v = 0; v < nw; v++)
            last[v] = open[k2 * nw + v] & ~c[v];
        }
        e->line[e->column[s]] = letter;
        write_last(e, last, letter2, nw);
        e->line[e->column[s]] = '.';
        if (e->stop || e->status) return;
      }
    return;
  }
  if (d == e->total - 1) {
    /* The last piece: every open square is a placement. */
    for (int w = 0; w < nw; w++)
      for (uint64_t x = mine[w]; x; x &= x - 1) {
        int s = w * 64 + __builtin_ctzll(x);
        if (++e->nodes >= e->next_check && !pq_pieces_keep_going(e)) return;
        e->cells[s] = code;
        e->line[e->column[s]] = letter;
        reached(e);
        e->cells[s] = 0;
        e->line[e->column[s]] = '.';
        if (e->stop || e->status) return;
      }
    return;
  }
  int remaining = popcount(mine, nw);
  for (int w = 0; w < nw; w++)
    for (uint64_t x = mine[w]; x; x &= x - 1) {
      if (remaining-- < r) return;
      int s = w * 64 + __builtin_ctzll(x);
      if (++e->nodes >= e->next_check && !pq_pieces_keep_going(e)) return;
      if (!place_next(e, k, nk, s, w, x, r, mine, open, next, nw)) continue;
      e->cells[s] = code;
      e->line[e->column[s]] = letter;
      if (nw == 1)
        list_one(e, d + 1);
      else
        list_many(e, d + 1);
      e->cells[s] = 0;
      e->line[e->column[s]] = '.';
      if (e->stop || e->status) return;
    }
}

static void list_one(pq_pieces *e, int d) { list_body(e, d, 1); }
static void list_many(pq_pieces *e, int d) { list_body(e, d, e->words); }

void pq_pieces_listing_init(pq_pieces_listing *l) { memset(l, 0, sizeof *l); }

/* Prepares a listing: the line, its columns, the buffer. */
void pq_pieces_list_begin(pq_pieces *e, const pq_pieces_listing *l, pq_pieces_listed *out) {
  const pq_board *b = e->board;
  memset(out, 0, sizeof *out);
  const char *prefix = l->prefix ? l->prefix : "", *suffix = l->suffix ? l->suffix : "";
  size_t plen = strlen(prefix), slen = strlen(suffix), text = (size_t)(b->squares + b->height - 1);
  e->line_len = plen + text + slen + 1;
  e->line = pq_malloc(e->line_len + 1);
  memcpy(e->line, prefix, plen);
  memset(e->line + plen, '.', text);
  for (int r = 1; r < b->height; r++)
    e->line[plen + (size_t)(r * (b->width + 1) - 1)] = '/';
  memcpy(e->line + plen + text, suffix, slen);
  e->line[e->line_len - 1] = '\n';
  for (int s = 0; s < b->squares; s++)
    e->column[s] = (int)plen + s + s / b->width;
  e->buf = l->out ? pq_malloc(OUT_BUF) : NULL;
  e->buf_size = OUT_BUF;
  e->fill = 0;
  e->gather = false;
  e->listing = l;
  e->listed = out;
  e->plain_text = l->out && !l->unique && !l->on_placement;
  memset(e->cells, 0, (size_t)b->squares);
  pq_pieces_start(e);
}

/* Lists from depth d on, the placement so far in e->cells and e->line. */
static void list_from(pq_pieces *e, int d) {
  if (e->nk == 0)
    reached(e);
  else if (e->words == 1)
    list_one(e, d);
  else
    list_many(e, d);
}

void pq_pieces_list_end(pq_pieces *e) {
  free(e->buf);
  free(e->line);
  e->buf = NULL;
  e->line = NULL;
  e->listing = NULL;
  e->listed = NULL;
}

pq_status pq_pieces_list(pq_pieces *e, const pq_pieces_listing *l, pq_pieces_listed *out) {
  pq_pieces_list_begin(e, l, out);
  list_from(e, 0);
  if (l->out) flush(e);
  if (l->out && fflush(l->out) && !e->status) e->status = PQ_EIO;
  out->complete = e->status == PQ_OK && !e->stop;
  pq_pieces_list_end(e);
  return e->status;
}

void pq_pieces_list_begin_parts(pq_pieces *e, const pq_pieces_listing *l, pq_pieces_listed *out) {
  pq_pieces_list_begin(e, l, out);
  e->buf = pq_malloc(OUT_BUF);
  e->gather = true;
  e->plain_text = !l->unique;
}

pq_count pq_pieces_list_part(pq_pieces *e, int d) {
  pq_pieces_listed *all = e->listed, part = {0};
  e->listed = &part;
  e->stop = false;
  e->fill = 0;
  list_from(e, d);
  e->stop = false;
  e->listed = all;
  all->listed += part.listed;
  all->reached += part.reached;
  return part.reached;
}
