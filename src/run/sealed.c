/* sealed.c: the files of the engine (src/run/engine.h): checkpoints and part lines, sealed with a
   digest, written atomically, read back and merged. */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "sealed.h"

#define DIGEST_KEY ",\"digest\":\""

void pq_engine_seal(FILE *f, const char *content, size_t len) {
  fwrite(content, 1, len, f);
  fprintf(f, DIGEST_KEY "%016" PRIx64 "\"}\n", pq_fnv_bytes(PQ_FNV_BASIS, content, len));
}

/* The length of the content text seals, or -1 when it is not sealed. */
static long sealed_length(const char *text, size_t len) {
  while (len && (text[len - 1] == '\n' || text[len - 1] == ' ' || text[len - 1] == '\r'))
    len--;
  size_t key = strlen(DIGEST_KEY), tail = key + 16 + 2;
  if (len < tail || memcmp(text + len - tail, DIGEST_KEY, key) || memcmp(text + len - 2, "\"}", 2))
    return -1;
  size_t content = len - tail;
  char want[17];
  snprintf(want, sizeof want, "%016" PRIx64, pq_fnv_bytes(PQ_FNV_BASIS, text, content));
  return memcmp(text + content + key, want, 16) ? -1 : (long)content;
}

void pq_engine_write_sealed(FILE *out, void (*write)(FILE *f, void *ctx), void *ctx) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = pq_memstream(&text, &len);
  write(f, ctx);
  fclose(f);
  while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
    len--;
  PQ_REQUIRE(len && text[len - 1] == '}', "not a JSON object to seal");
  pq_engine_seal(out, text, len - 1);
  free(text);
}

typedef struct sealed_writer {
  void (*write)(FILE *f, void *ctx);
  void *ctx;
} sealed_writer;

static void write_sealed(FILE *f, void *arg) {
  sealed_writer *w = arg;
  pq_engine_write_sealed(f, w->write, w->ctx);
}

static atomic_bool unsaved, /* the last checkpoint write failed */
    failed_once;            /* a checkpoint write of this process failed */

/* The finished parts in the last checkpoint written, when the engine wrote it; -1: another
   writer's (a problem's own facts); -2: none written. */
static _Atomic int_fast64_t kept_parts = -2;

void pq_engine_kept(uint64_t parts) { atomic_store(&kept_parts, (int_fast64_t)parts); }

const char *pq_engine_kept_note(void) {
  static char note[96];
  int_fast64_t n = atomic_load(&kept_parts);
  if (n == -2) return "";                                       /* (none written: nothing said) */
  if (n == -1) return " (what was found is in the checkpoint)"; /* (a problem's own facts) */
  if (n == 0) return " (no part had finished: the checkpoint holds none)";
  snprintf(note, sizeof note, " (%" PRIdFAST64 " finished %s in the checkpoint)", n,
           n == 1 ? "part is" : "parts are");
  return note;
}

pq_status pq_engine_saved(pq_status rc) {
  atomic_store(&unsaved, rc != PQ_OK);
  if (rc) atomic_store(&failed_once, true);
  return rc;
}

pq_status pq_engine_save_sealed(const char *path, void (*write)(FILE *f, void *ctx), void *ctx) {
  sealed_writer w = {write, ctx};
  atomic_store(&kept_parts, -1); /* (the engine's write says how many: pq_engine_kept) */
  return pq_engine_saved(pq_write_atomic(path, write_sealed, &w));
}

bool pq_engine_unsaved(void) { return atomic_load(&unsaved); }

bool pq_engine_save_failed(void) { return atomic_load(&failed_once); }

bool pq_engine_sealed(const char *text, size_t len) { return sealed_length(text, len) >= 0; }

void pq_engine_check_line(pq_json *doc, const char *text, size_t len) {
  pq_json *d = NULL;
  for (size_t i = 0; doc && doc->type == PQ_JSON_OBJECT && i < doc->length; i++)
    if (!strcmp(doc->keys[i], "digest")) d = doc->items[i];
  if (!d) return;
  /* The strings "ok" and "bad" fit wherever the digest was a string of 3 bytes or more; anything
     shorter is no digest, and is left unmarked (refused as unsealed). */
  if (d->type != PQ_JSON_STRING || d->length < 3) {
    d->type = PQ_JSON_NULL;
    return;
  }
  strcpy(d->string, pq_engine_sealed(text, len) ? "ok" : "bad");
  d->length = strlen(d->string);
}

/* ---- checkpoints read ---- */

/* Reads the checkpoint at path into *text (*len bytes): standard input ("-") once, kept for the
   process, since a run opens its checkpoint more than once (its facts, a check before the run, the
   run). */
static pq_status read_checkpoint(const char *path, char **text, size_t *len) {
  static char *standard;
  static size_t standard_len;
  char *name = pq_malloc(strlen(path) + 16); /* the option in messages */
  sprintf(name, *path ? "--resume %s" : "--resume \"\"", path);
  pq_status rc = PQ_OK;
  if (strcmp(path, "-"))
    rc = pq_read_file_as(name, path, PQ_ENGINE_READ_BYTES, text, len);
  else if (!standard)
    rc = pq_read_file_as(name, path, PQ_ENGINE_READ_BYTES, &standard, &standard_len);
  free(name);
  if (rc || strcmp(path, "-")) return rc;
  *text = pq_malloc(standard_len + 1);
  memcpy(*text, standard, standard_len + 1);
  *len = standard_len;
  return PQ_OK;
}

pq_status pq_engine_open_checkpoint(const char *path, const char *problem, pq_json **out) {
  char *text, err[160];
  size_t len;
  *out = NULL;
  pq_status rc = read_checkpoint(path, &text, &len);
  if (rc) return rc == PQ_EINTR || rc == PQ_ELIMIT || rc == PQ_EIO ? rc : PQ_EINVAL;
  pq_json *doc = pq_json_parse(text, len, err);
  const char *format = pq_json_get_string(doc, "format"),
             *name = pq_json_get_string(doc, "problem");
  bool ok = false;
  if (!doc) {
    pq_error("--resume %s: not JSON: %s", path, err);
  } else if (!format || strcmp(format, "peaceable-checkpoint")) {
    pq_error("--resume %s: not a checkpoint of %s", path, problem);
  } else if (pq_json_get_long(doc, "version", 2, 3, &(long){0})) {
    pq_error("--resume %s: a checkpoint of another version of peaceable (this one reads versions 2 "
             "and 3)",
             path);
  } else if (!name || strcmp(name, problem)) {
    pq_error("--resume %s: not a checkpoint of %s: a checkpoint of another problem (%.40s)", path,
             problem, name ? name : "none named");
  } else if (!pq_engine_sealed(text, len)) {
    pq_error("--resume %s: damaged or edited: its digest does not match its content (not used, "
             "not overwritten)",
             path);
  } else {
    ok = true;
  }
  free(text);
  if (!ok) pq_json_free(doc);
  *out = ok ? doc : NULL;
  return ok ? PQ_OK : PQ_EINVAL;
}

/* ---- what a file says ---- */

int pq_engine_u64(const pq_json *v, uint64_t *out) {
  pq_count c;
  if (pq_json_count(v, &c) || c > UINT64_MAX) return -1;
  *out = (uint64_t)c;
  return 0;
}

/* Whether v and w are the same JSON scalar. */
static bool same_value(const pq_json *v, const pq_json *w) {
  if (!v || !w || v->type != w->type) return false;
  if (v->type == PQ_JSON_STRING || v->type == PQ_JSON_NUMBER) return !strcmp(v->string, w->string);
  return v->type != PQ_JSON_ARRAY && v->type != PQ_JSON_OBJECT;
}

bool pq_engine_same_instance(const pq_json *doc, const char *problem, const pq_engine_split *sp) {
  size_t n = strlen(sp->head) + 3;
  char *text = pq_malloc(n), err[160], id[24];
  snprintf(text, n, "{%s}", sp->head);
  pq_json *head = pq_json_parse(text, n - 1, err);
  free(text);
  PQ_REQUIRE(head && head->type == PQ_JSON_OBJECT, "a problem's head is not JSON members: %s",
             sp->head);
  const char *name = pq_json_get_string(doc, "problem"), *split = pq_json_get_string(doc, "split");
  snprintf(id, sizeof id, "%016" PRIx64, sp->id);
  uint64_t subparts;
  bool same = name && !strcmp(name, problem) && split && !strcmp(split, id) &&
              !pq_engine_u64(pq_json_get(doc, "subparts"), &subparts) && subparts == sp->parts;
  for (size_t i = 0; same && i < head->length; i++)
    same = same_value(head->items[i], pq_json_get(doc, head->keys[i]));
  pq_json_free(head);
  return same;
}

bool pq_engine_is_text(const pq_json *v) {
  return v->type == PQ_JSON_STRING && !memchr(v->string, 0, v->length);
}

const char *pq_engine_repeated_line(const pq_span *texts, size_t n, size_t *len) {
  size_t lines = 0, cap = 16;
  for (size_t i = 0; i < n; i++)
    for (const char *p = texts[i].p, *end = p + texts[i].len, *q; p < end; lines++)
      p = (q = memchr(p, '\n', (size_t)(end - p))) ? q + 1 : end;
  while (cap < 2 * lines)
    cap *= 2;
  pq_span *seen = pq_calloc(cap, sizeof *seen), s = {0};
  for (size_t i = 0; i < n && !s.len; i++)
    for (const char *p = texts[i].p, *end = p + texts[i].len, *q; p < end && !s.len;) {
      s = (pq_span){p, (size_t)(((q = memchr(p, '\n', (size_t)(end - p))) ? q : end) - p)};
      p = q ? q + 1 : end;
      size_t h = pq_fnv_bytes(PQ_FNV_BASIS, s.p, s.len) & (cap - 1);
      while (seen[h].p && (seen[h].len != s.len || memcmp(seen[h].p, s.p, s.len)))
        h = (h + 1) & (cap - 1);
      if (!seen[h].p || !s.len) seen[h] = s, s.len = 0; /* new (or empty): go on */
    }
  free(seen);
  *len = s.len;
  return s.len ? s.p : NULL;
}

uint64_t pq_engine_covered(uint64_t part, uint64_t parts, uint64_t subparts) {
  return part <= subparts ? (subparts - part) / parts + 1 : 0;
}

/* ---- merge ---- */

const char *const *pq_engine_merge_sources;

/* The name of line i of a merge, in buf (of 32 bytes at least) unless merge said where it came
   from. */
static const char *source_of(int i, char *buf) {
  if (pq_engine_merge_sources) return pq_engine_merge_sources[i];
  snprintf(buf, 32, "result %d", i + 1);
  return buf;
}

/* Checks line i (0-based) of a merge of part I of N. Returns PQ_OK with *part, or a status with
   one message. */
static pq_status merge_line(const pq_engine_problem *pb, const pq_engine_split *sp,
                            const pq_json *line, int i, uint64_t parts, uint64_t *part) {
  uint64_t of, cover;
  int done = pq_json_get_bool(line, "done");
  const char *digest = pq_json_get_string(line, "digest");
  if (!pq_engine_same_instance(line, pb->name, sp) ||
      pq_engine_u64(pq_json_get(line, "parts"), &of) || of != parts ||
      pq_engine_u64(pq_json_get(line, "part"), part) || *part < 1 || *part > parts || done < 0) {
    char buf[32];
    pq_error("merge: %s is not a part of the same %s and split", source_of(i, buf), sp->label);
    return PQ_EINVAL;
  }
  if (!digest || strcmp(digest, "ok") || pq_engine_u64(pq_json_get(line, "covered"), &cover) ||
      cover != pq_engine_covered(*part, parts, sp->parts)) {
    char buf[32];
    pq_error("merge: %s (part %" PRIu64 "/%" PRIu64 ") is damaged or edited: its digest "
             "or the subparts it covers do not match",
             source_of(i, buf), *part, parts);
    return PQ_EINVAL;
  }
  return PQ_OK;
}

/* Why the "texts" of part I of N (a line covering `cover` subparts) are not texts, or NULL: one
   a subpart, or with a decisive outcome up to the subpart that decided (write_texts), each as the
   problem's check_text takes it. */
static const char *bad_texts(const pq_engine_problem *pb, void *ctx, const pq_json *line,
                             uint64_t part, uint64_t parts, uint64_t cover, bool decisive,
                             const void *outcome) {
  const pq_json *texts = pq_json_get(line, "texts");
  if (!texts || texts->type != PQ_JSON_ARRAY) return "no list of its parts' texts";
  if (decisive ? texts->length < 1 || texts->length > cover : texts->length != cover)
    return "its list of texts does not have one for each subpart it covers";
  for (size_t k = 0; k < texts->length; k++) {
    const pq_json *t = texts->items[k];
    const char *why;
    if (t->type != PQ_JSON_NULL && !pq_engine_is_text(t))
      return "a text of one of its parts is not a string";
    if (t->type != PQ_JSON_NULL && pb->check_text &&
        (why = pb->check_text(ctx, part - 1 + k * parts, NULL, t->string, t->length)))
      return why;
  }
  /* As many lines as its outcome says, known before any is printed (a listing merged in full
     and refused at the end). */
  uint64_t want = pb->text_lines && !decisive ? pb->text_lines(ctx, UINT64_MAX, outcome) : 0,
           lines = 0;
  for (size_t k = 0; want != UINT64_MAX && pb->text_lines && k < texts->length; k++)
    if (texts->items[k]->type == PQ_JSON_STRING)
      lines += pq_newlines(texts->items[k]->string, texts->items[k]->length);
  if (pb->text_lines && want != UINT64_MAX && lines != want)
    return "its texts do not have the lines its outcome says it listed";
  return NULL;
}

/* PQ_OK when no line is in two of the texts of the n part lines (of the split sp), or twice in
   one; PQ_EINVAL with one message otherwise. */
static pq_status no_line_twice(const pq_engine_split *sp, pq_json *const *lines, int n) {
  pq_span *texts = pq_calloc(sp->parts + 1, sizeof *texts);
  size_t m = 0, len;
  for (int i = 0; i < n; i++) {
    const pq_json *t = pq_json_get(lines[i], "texts");
    for (size_t k = 0; k < t->length; k++)
      if (t->items[k]->type == PQ_JSON_STRING)
        texts[m++] = (pq_span){t->items[k]->string, t->items[k]->length};
  }
  const char *line = pq_engine_repeated_line(texts, m, &len);
  if (line)
    pq_error("merge: a line of the parts' texts is there twice (%.*s): no answer",
             (int)(len < 200 ? len : 200), line);
  free(texts);
  return line ? PQ_EINVAL : PQ_OK;
}

pq_status pq_engine_merge(const pq_engine_problem *pb, void *ctx, const pq_engine_split *sp,
                          pq_json *const *lines, int n, void *total, uint64_t *nodes) {
  char id[24];
  uint64_t parts, subparts;
  const char *split = pq_json_get_string(lines[0], "split");
  snprintf(id, sizeof id, "%016" PRIx64, sp->id);
  if (!split || strcmp(split, id) || pq_engine_u64(pq_json_get(lines[0], "subparts"), &subparts) ||
      subparts != sp->parts) {
    pq_error("merge: the parts are not of the split this program makes for %s (split %s, %" PRIu64
             " %s)",
             sp->label, id, sp->parts, sp->parts == 1 ? "part" : "parts");
    return PQ_EINVAL;
  }
  if (pq_engine_u64(pq_json_get(lines[0], "parts"), &parts) || parts < 1 ||
      parts > (subparts ? subparts : 1)) {
    pq_error("merge: malformed %s part result (line 1)", pb->name);
    return PQ_EINVAL;
  }
  int *seen = pq_calloc(parts + 1, sizeof *seen); /* part p is on line seen[p] - 1; 0: none */
  const char *none = pb->decisive ? "no answer" : "no total"; /* (a decision has no total) */
  bool overflow = false;
  pq_status rc = PQ_OK;
  _Alignas(max_align_t) unsigned char
      outcome[PQ_ENGINE_MAX_OUTCOME]; /* (outcomes hold counts of 128 bits) */
  /* Every line a part of the run, each part once; then the parts, in their order. */
  for (int i = 0; i < n && rc == PQ_OK; i++) {
    uint64_t part;
    if ((rc = merge_line(pb, sp, lines[i], i, parts, &part))) break;
    if (seen[part]) {
      char a[32], b[32];
      pq_error("merge: part %" PRIu64 "/%" PRIu64 " appears twice: %s and %s", part, parts,
               source_of(seen[part] - 1, a), source_of(i, b));
      rc = PQ_EINVAL;
    }
    seen[part] = i + 1;
  }
  for (uint64_t part = 1; part <= parts && rc == PQ_OK; part++) {
    if (!seen[part]) continue;
    int i = seen[part] - 1;
    uint64_t part_nodes;
    const char *why;
    char buf[32];
    memset(outcome, 0, pb->outcome_size);
    if (pq_json_get_bool(lines[i], "done") != 1) {
      pq_error("merge: %s: part %" PRIu64 "/%" PRIu64 " did not finish: %s", source_of(i, buf),
               part, parts, none);
      rc = PQ_ELIMIT;
    } else if ((why = pb->read(ctx, lines[i], outcome)) ||
               (pb->found_at && pb->decisive(ctx, outcome) &&
                pb->found_at(ctx, outcome) % parts != part - 1 &&
                (why = "its witness is said to be of a part it does not cover")) ||
               (why = pq_engine_u64(pq_json_get(lines[i], "nodes"), &part_nodes)
                          ? "its nodes are not a whole number"
                      : part_nodes > UINT64_MAX - *nodes ? "its nodes and the others' pass 2^64"
                                                         : NULL) ||
               (pb->emit && !pb->private_texts &&
                (why = bad_texts(pb, ctx, lines[i], part, parts,
                                 pq_engine_covered(part, parts, sp->parts),
                                 pb->decisive && pb->decisive(ctx, outcome), outcome)))) {
      pq_error("merge: %s: part %" PRIu64 "/%" PRIu64 ": %s", source_of(i, buf), part, parts, why);
      rc = PQ_EINVAL;
    } else {
      overflow |= pb->add(ctx, total, outcome) != 0;
      *nodes += part_nodes;
    }
  }
  for (uint64_t p = 1; p <= parts && rc == PQ_OK; p++)
    if (!seen[p]) {
      pq_error("merge: part %" PRIu64 "/%" PRIu64 " is missing: %s", p, parts, none);
      rc = PQ_ELIMIT;
    }
  const char *why = NULL;
  if (rc == PQ_OK && overflow) {
    pq_error("merge: the parts' outcomes do not add up");
    rc = PQ_EINVAL;
  } else if (rc == PQ_OK && pb->check && (why = pb->check(ctx, total))) {
    /* (Before any text is emitted: a listing refused prints no line.) */
    pq_error("merge: the parts' counts do not add up (%s)", why);
    rc = PQ_EINVAL;
  }
  /* No line twice (a placement listed twice); then, subpart j is the (j / parts)-th of part
     j % parts + 1. */
  if (rc == PQ_OK && pb->emit && !pb->private_texts) rc = no_line_twice(sp, lines, n);
  for (uint64_t j = 0; rc == PQ_OK && pb->emit && !pb->private_texts && j < sp->parts; j++) {
    const pq_json *texts = pq_json_get(lines[seen[j % parts + 1] - 1], "texts");
    const pq_json *t = j / parts < texts->length ? texts->items[j / parts] : NULL;
    if (t)
      pb->emit(ctx, j, t->type == PQ_JSON_STRING ? t->string : NULL,
               t->type == PQ_JSON_STRING ? t->length : 0);
  }
  free(seen);
  return rc;
}
