/* check_parts.c: a proof in several files (doc/certificate.md, "Proofs in several files"). Each
   file is checked by its problem's checker with its holes taken as proven; then the files are
   compared: one claim, one skeleton of trees, every hole proven by exactly one file. Part of
   libcheck.a: it shares nothing with the search either. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* What the check of one file leaves for the comparison: small, whatever the file's size. */
typedef struct file_check {
  pq_status rc;
  pq_check_part part; /* the checker's verdict, holes taken as proven */
  bool witness;       /* a witness certificate (a part that found a placement wrote one) */
  char claim[96];     /* board, piece and the sizes at stake, which every file shares */
  char *identity;     /* the document without its proof trees, as canonical JSON */
  char *said;         /* its claim, as a JSON verdict gives it (pq_check_claim) */
  char *skeleton;     /* the proof trees, each marked part replaced by '#', one per line */
  size_t slots;       /* holes and marked parts in the trees, in order */
  size_t *proven;     /* the slots this file proves (its marked parts), nproven of them */
  size_t nproven;
  uint64_t digest; /* of the bytes checked: a merge reads the file again, and takes only these */
} file_check;

/* Writes v as JSON, the members of its objects in their order, leaving out the value at
   skip (that value is written by fill, when not NULL). */
static void write_value(FILE *f, const pq_json *v, const pq_json *skip,
                        void (*fill)(FILE *, void *), void *ctx) {
  if (v == skip) {
    if (fill)
      fill(f, ctx);
    else
      fputs("null", f);
    return;
  }
  switch (v->type) {
  case PQ_JSON_NULL: fputs("null", f); break;
  case PQ_JSON_FALSE: fputs("false", f); break;
  case PQ_JSON_TRUE: fputs("true", f); break;
  case PQ_JSON_NUMBER: fputs(v->string, f); break;
  case PQ_JSON_STRING: pq_json_write_string(f, v->string); break;
  case PQ_JSON_ARRAY:
  case PQ_JSON_OBJECT:
    fputc(v->type == PQ_JSON_ARRAY ? '[' : '{', f);
    for (size_t i = 0; i < v->length; i++) {
      if (i) fputc(',', f);
      if (v->type == PQ_JSON_OBJECT) {
        pq_json_write_string(f, v->keys[i]);
        fputc(':', f);
      }
      write_value(f, v->items[i], skip, fill, ctx);
    }
    fputc(v->type == PQ_JSON_ARRAY ? ']' : '}', f);
    break;
  }
}

/* The proof trees of an armies document: its infeasible.trees, an array of strings; NULL when
   there are none (the checker has then refused the file already). */
static const pq_json *trees_of(const pq_json *doc) {
  const pq_json *t = pq_json_peek(pq_json_peek(doc, "infeasible"), "trees");
  if (!t || t->type != PQ_JSON_ARRAY) return NULL;
  for (size_t i = 0; i < t->length; i++)
    if (t->items[i]->type != PQ_JSON_STRING) return NULL;
  return t;
}

/* Reads a checked file's skeleton and the slots it proves. Its trees passed the checker, so
   every '[' has its ']' and no part is nested (a '[' without one would end the tree). */
static void skeleton_of(const pq_json *trees, file_check *r) {
  char *text = NULL;
  size_t size = 0, cap = 0;
  FILE *f = pq_memstream(&text, &size);
  for (size_t i = 0; i < trees->length; i++) {
    for (const char *p = trees->items[i]->string; *p; p++) {
      if (*p != '#' && *p != '[') {
        fputc(*p, f);
        continue;
      }
      if (*p == '[') {
        if (r->nproven == cap)
          r->proven = pq_realloc(r->proven, (cap = cap * 2 + 64) * sizeof(size_t));
        r->proven[r->nproven++] = r->slots;
        p = strchr(p, ']');
      }
      fputc('#', f);
      r->slots++;
      if (!p) break;
    }
    fputc('\n', f);
  }
  fclose(f);
  r->skeleton = text;
}

/* The string member key of doc, or NULL; looked at, not checked (pq_json_peek). */
static const char *peek_string(const pq_json *doc, const char *key) {
  const pq_json *m = pq_json_peek(doc, key);
  return m && m->type == PQ_JSON_STRING ? m->string : NULL;
}

/* Whether doc is a file of a proof in parts, or the witness certificate a part that found a
   placement writes (two armies, "claim":"feasible"); sets r->witness and r->claim. What it reads
   is looked at, not marked checked: the checker's reads alone say that (pq_check_asked). */
static bool claim_of(const pq_json *doc, file_check *r) {
  const pq_json *sizes = doc;
  const char *claim = peek_string(doc, "claim");
  if (trees_of(doc) && !pq_json_peek(doc, "count"))
    sizes = pq_json_peek(doc, "infeasible");
  else if (!claim || strcmp(claim, "feasible") || pq_json_peek(doc, "colours"))
    return false;
  r->witness = sizes == doc;
  const pq_json *w = pq_json_peek(sizes, "white"), *b = pq_json_peek(sizes, "black");
  const char *board = peek_string(doc, "board"), *piece = peek_string(doc, "piece");
  snprintf(r->claim, sizeof r->claim, "%.20s %.4s %.20s %.20s", board ? board : "",
           piece ? piece : "", w && w->type == PQ_JSON_NUMBER ? w->string : "",
           b && b->type == PQ_JSON_NUMBER ? b->string : "");
  return true;
}

/* Sets r's summary of checked document doc: its identity and, unless it is a witness (its
   identity is then the whole document), its skeleton and the slots it proves. */
static void summarize(const pq_json *doc, file_check *r) {
  size_t size;
  FILE *f = pq_memstream(&r->identity, &size);
  write_value(f, doc, trees_of(doc), NULL, NULL);
  fclose(f);
  if (!r->witness) skeleton_of(trees_of(doc), r);
}

/* Reads and checks one file (the per-thread step); frees the document before returning. */
static void check_file(const char *path, const pq_check_params *params, uint64_t seed,
                       size_t max_bytes, file_check *r) {
  char *text = NULL, err[160];
  size_t len;
  r->rc = pq_read_file_until(path, max_bytes, params->deadline, &text, &len);
  if (r->rc) {
    if (r->rc != PQ_ELIMIT && r->rc != PQ_EINTR) r->rc = PQ_EINVAL;
    return;
  }
  r->digest = pq_fnv_bytes(PQ_FNV_BASIS, text, len);
  pq_json *doc = pq_json_parse_owned(text, len, err); /* its trees stay in the text */
  const char *problem = doc ? pq_json_get_string(doc, "problem") : NULL,
             *other = doc ? pq_check_other(doc) : NULL;
  r->rc = PQ_EINVAL;
  if (!doc)
    pq_error("%s: not JSON: %s", path, err);
  else if (other)
    pq_error("%s: %s", path, other);
  else if (!problem || strcmp(problem, "armies"))
    pq_error("%s: only armies proofs of infeasibility come in several files (verify each "
             "certificate alone)",
             path);
  else if (!claim_of(doc, r))
    pq_error("%s: only proofs of infeasibility of two armies and their witnesses come in several "
             "files, not this certificate (verify each certificate alone)",
             path);
  else {
    pq_check_set_path(path);
    pq_check_params p = *params;
    p.part = &r->part;
    p.rng ^= seed * 0x9e3779b97f4a7c15u;
    if (!p.rng) p.rng = 1;
    r->rc = pq_armies_check(doc, &p);
    if (r->rc == PQ_OK) r->rc = pq_check_asked(NULL, path, doc);
  }
  if (r->rc == PQ_OK) {
    summarize(doc, r);
    r->said = pq_check_claim(doc);
  }
  pq_json_free(doc);
}

/* The files, checked one each at a time by the threads (pq_check_in_order, every file). */
typedef struct files {
  const char *const *paths;
  const pq_check_params *params;
  file_check *results;
  size_t max_bytes; /* of one file, with as many read at once as threads */
} files;

static bool check_one(void *ctx, int i) {
  const files *f = ctx;
  check_file(f->paths[i], f->params, (uint64_t)i + 1, f->max_bytes, &f->results[i]);
  return true; /* every file is checked: the verdicts are compared after */
}

/* A part's file given twice (the same bytes) is the user's slip, not a fault of the proof: exit
   status 2, as merge of part lines says, not 1 (a claim found false). Whole proofs may come twice
   (each proves everything). */
static pq_status given_twice(const char *const *paths, const file_check *r, int n) {
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n && r[i].slots && r[i].nproven; j++)
      if (r[i].digest == r[j].digest && !strcmp(r[i].skeleton, r[j].skeleton)) {
        pq_error("%s and %s: the same file given twice", paths[i], paths[j]);
        return PQ_EINVAL;
      }
  return PQ_OK;
}

/* Compares the checked files: one claim, one skeleton, every slot proven once. Returns NULL, or
   the fault (in why; *missing: a slot proven in none, the set incomplete rather than false); sets
   owner[slot] to the file that proves it. */
static const char *compare(const char *const *paths, const file_check *r, int n, size_t *owner,
                           char *why, size_t size, bool *missing) {
  for (int i = 1; i < n; i++) {
    if (strcmp(r[i].identity, r[0].identity)) {
      snprintf(why, size,
               "%s: not the claim of %s (the files differ outside their trees: several files are "
               "the parts of one proof; verify each certificate alone)",
               paths[i], paths[0]);
      return why;
    }
    if (strcmp(r[i].skeleton, r[0].skeleton)) {
      snprintf(why, size, "%s: its trees are not those of %s with other parts proven", paths[i],
               paths[0]);
      return why;
    }
  }
  for (size_t s = 0; s < r[0].slots; s++)
    owner[s] = SIZE_MAX;
  for (int i = 0; i < n; i++)
    for (size_t k = 0; k < r[i].nproven; k++) {
      size_t s = r[i].proven[k];
      if (owner[s] != SIZE_MAX) {
        snprintf(why, size, "part %zu of %zu is proven twice, in %s and in %s", s + 1, r[0].slots,
                 paths[owner[s]], paths[i]);
        return why;
      }
      owner[s] = (size_t)i;
    }
  for (size_t s = 0; s < r[0].slots; s++)
    if (owner[s] == SIZE_MAX) {
      if (n == 1)
        snprintf(why, size,
                 "%s is one file of a proof in parts, part %zu of %zu a hole in it: give every "
                 "file of the proof",
                 paths[0], s + 1, r[0].slots);
      else
        snprintf(why, size,
                 "part %zu of %zu (a hole in every file) is proven in none of the %d files: give "
                 "every file of the proof (the file of --part I/N proves parts I, I + N, ...)",
                 s + 1, r[0].slots, n);
      *missing = true;
      return why;
    }
  return NULL;
}

/* The merged certificate: the first file with each hole filled from the file that proves it. */
typedef struct merger {
  const pq_json *first;
  pq_json **docs;
  const size_t *owner;
  size_t **cursor; /* per file, per tree: how far its trees have been read */
} merger;

/* Writes the part starting at *p ('[') without its brackets; moves *p past its ']'. */
static void copy_part(FILE *f, const char **p) {
  const char *end = strchr(*p, ']');
  fwrite(*p + 1, 1, (size_t)(end - *p - 1), f);
  *p = end + 1;
}

static void write_merged_trees(FILE *f, void *ctx) {
  merger *m = ctx;
  const pq_json *trees = trees_of(m->first);
  size_t slot = 0;
  fputc('[', f);
  for (size_t t = 0; t < trees->length; t++) {
    fputs(t ? ",\n\"" : "\n\"", f);
    for (const char *p = trees->items[t]->string; *p;) {
      if (*p != '#' && *p != '[') {
        fputc(*p++, f);
        continue;
      }
      const pq_json *own = trees_of(m->docs[m->owner[slot]]);
      const char *q = own->items[t]->string + m->cursor[m->owner[slot]][t];
      /* The owner's parts come in the order of the slots: its next '[' from where it was
         left is this slot's. */
      while (*q != '[')
        q++;
      copy_part(f, &q);
      m->cursor[m->owner[slot]][t] = (size_t)(q - own->items[t]->string);
      p = *p == '[' ? strchr(p, ']') + 1 : p + 1;
      slot++;
    }
    fputc('"', f);
  }
  fputc(']', f);
}

static void write_merged(FILE *f, void *ctx) {
  merger *m = ctx;
  write_value(f, m->first, trees_of(m->first), write_merged_trees, m);
  fputc('\n', f);
}

/* Whether doc, file r read again (its bytes' digest), is what was checked: the same bytes and,
   whatever the digest says, the same document outside its trees and the same skeleton, so that
   the merge below walks the slots that were compared. */
static bool unchanged(const file_check *r, uint64_t digest, const pq_json *doc) {
  if (digest != r->digest || !doc || !trees_of(doc)) return false;
  file_check again = {0};
  summarize(doc, &again);
  bool same = !strcmp(again.identity, r->identity) && !strcmp(again.skeleton, r->skeleton) &&
              again.nproven == r->nproven &&
              (!r->nproven || !memcmp(again.proven, r->proven, r->nproven * sizeof(size_t)));
  free(again.identity);
  free(again.skeleton);
  free(again.proven);
  return same;
}

/* Writes the merged certificate of n checked files; reads them all again, and refuses a file
   that is not what was checked. */
static pq_status merge_files(const char *const *paths, const file_check *r, int n,
                             const size_t *owner, const char *out) {
  merger m = {.owner = owner,
              .docs = pq_calloc((size_t)n, sizeof(pq_json *)),
              .cursor = pq_calloc((size_t)n, sizeof(size_t *))};
  pq_status rc = PQ_OK;
  for (int i = 0; i < n && rc == PQ_OK; i++) {
    char *text, err[160];
    size_t len;
    if ((rc = pq_read_file(paths[i], pq_check_max_bytes(1), &text, &len))) break;
    uint64_t digest = pq_fnv_bytes(PQ_FNV_BASIS, text, len);
    m.docs[i] = pq_json_parse_owned(text, len, err);
    if (!unchanged(&r[i], digest, m.docs[i])) {
      pq_error("merge: %s changed after it was checked: nothing written", paths[i]);
      rc = PQ_EIO;
      break;
    }
    m.cursor[i] = pq_calloc(trees_of(m.docs[i])->length + 1, sizeof(size_t));
  }
  m.first = m.docs[0];
  if (rc == PQ_OK) rc = pq_write_atomic(out, write_merged, &m);
  for (int i = 0; i < n; i++) {
    pq_json_free(m.docs[i]);
    free(m.cursor[i]);
  }
  free(m.docs);
  free(m.cursor);
  return rc;
}

/* The merged certificate when a part found a witness: that part's certificate as it was checked
   (its identity is the whole document), not the file read again. */
static void write_witness(FILE *f, void *ctx) { fprintf(f, "%s\n", (const char *)ctx); }

/* The verdict of checked files one of which, w, is a witness: it settles the claim, which every
   file must share. */
static pq_status settle(const char *const *paths, const file_check *r, int n, int w,
                        const pq_check_params *out, const char *merged) {
  for (int i = 0; i < n; i++)
    if (strcmp(r[i].claim, r[w].claim)) {
      pq_check_report(out, "armies", PQ_INVALID,
                      "%s: not the claim of %s (several files are the parts of one proof; verify "
                      "each certificate alone)",
                      paths[i], paths[w]);
      return PQ_EFALSE;
    }
  pq_check_report(out, "armies", r[w].part.verdict, "%s; in %d %s, the witness of %s settles it",
                  r[w].part.message, n, pq_noun(n, "file", "files"), paths[w]);
  return merged ? pq_write_atomic(merged, write_witness, r[w].identity) : PQ_OK;
}

pq_status pq_check_parts(const char *const *paths, int n, int jobs, const pq_check_params *p,
                         const char *merged) {
  PQ_REQUIRE(n >= 1 && jobs >= 1, "no files or no threads");
  file_check *r = pq_calloc((size_t)n, sizeof *r);
  int threads = jobs < n ? jobs : n;
  files f = {.paths = paths, .params = p, .results = r, .max_bytes = pq_check_max_bytes(threads)};
  int thread;
  pq_check_in_order(n, threads, &f, 0, check_one, &thread);
  pq_status rc = PQ_OK;
  char why[1024] = "";
  long leaves = 0;
  bool sampled = false;
  /* The first file in order that is malformed, stopped or invalid decides. */
  for (int i = 0; i < n && rc == PQ_OK; i++) {
    rc = r[i].rc;
    if (rc == PQ_EFALSE) snprintf(why, sizeof why, "%s: %s", paths[i], r[i].part.message);
    sampled |= r[i].part.verdict == PQ_VALID_IN_SAMPLE;
    leaves += r[i].part.leaves;
  }
  pq_check_params out = *p;
  out.part = NULL;
  int w = 0;
  while (w < n && !r[w].witness)
    w++;
  /* The claim a JSON verdict gives: the witness's, or the files' (they share it). */
  out.doc = NULL;
  out.claim = rc == PQ_OK ? r[w < n ? w : 0].said : NULL;
  if (rc == PQ_OK && w < n) {
    rc = settle(paths, r, n, w, &out, merged);
    goto done;
  }
  size_t *owner = rc == PQ_OK ? pq_calloc(r[0].slots + 1, sizeof *owner) : NULL;
  if (rc == PQ_OK) rc = given_twice(paths, r, n);
  bool missing = false;
  if (rc == PQ_OK && compare(paths, r, n, owner, why, sizeof why, &missing)) rc = PQ_EFALSE;
  /* A part missing: nothing false found, the claim not proven (no verdict, and no merge). */
  if (rc == PQ_EFALSE && missing) {
    pq_check_report(&out, "armies", PQ_INCOMPLETE, "%s", why);
    rc = PQ_ELIMIT;
  } else if (rc == PQ_EFALSE) {
    pq_check_report(&out, "armies", PQ_INVALID, "%s", why);
  }
  if (rc == PQ_OK && r[0].slots == 0)
    pq_check_report(&out, "armies", sampled ? PQ_VALID_IN_SAMPLE : PQ_VALID,
                    "%s; in %d %s, each a whole proof (%ld %s checked in all)", r[0].part.message,
                    n, pq_noun(n, "file", "files"), leaves, pq_noun(leaves, "leaf", "leaves"));
  else if (rc == PQ_OK)
    pq_check_report(&out, "armies", sampled ? PQ_VALID_IN_SAMPLE : PQ_VALID,
                    "%s; in %d %s, every one of its %zu %s proven in exactly one (%ld %s "
                    "checked in all)",
                    r[0].part.message, n, pq_noun(n, "file", "files"), r[0].slots,
                    pq_noun((long)r[0].slots, "part", "parts"), leaves,
                    pq_noun(leaves, "leaf", "leaves"));
  if (rc == PQ_OK && merged) rc = merge_files(paths, r, n, owner, merged);
  free(owner);
done:
  for (int i = 0; i < n; i++) {
    free(r[i].identity);
    free(r[i].said);
    free(r[i].skeleton);
    free(r[i].proven);
  }
  free(r);
  return rc;
}
