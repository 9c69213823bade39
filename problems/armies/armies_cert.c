/* armies_cert.c: writing armies certificates (doc/certificate.md); problems/armies/armies_check.c
   checks them. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../../src/check/check.h"
#include "../../src/run/engine.h"
#include "armies.h"

/* Writes a proof's order and lemmas (knights; kings' counts) when it has them, and its split,
   cubes and trees, as JSON members (after an opening brace): true, or false when its text could
   not be read back (pq_write_fail called; the JSON is left unclosed). */
static bool write_proof(FILE *f, const pq_armies_decision *d) {
  const pq_armies_lemmas *l = d->lemmas;
  bool failed = false;
  if (d->by_columns) fprintf(f, "\"order\":\"columns\",\n");
  if (l) fprintf(f, "\"lemmas\":[");
  for (int i = 0; l && i < l->n && !failed; i++) {
    const pq_armies_lemma *m = &l->lemma[i];
    fprintf(f, "%s\n{\"from\":%d,\"size\":%d,\"least\":%d,\"tree\":\"", i ? "," : "", m->from,
            m->size, m->least);
    failed = pq_text_copy(&l->text, f, m->start, m->end) != 0;
    fprintf(f, "\"}");
  }
  if (l) fprintf(f, "],\n");
  fprintf(f, "\"split\":[");
  for (int i = 0; i < d->nsplit; i++)
    fprintf(f, "%s%d", i ? "," : "", d->split[i]);
  fprintf(f, "],\n\"cubes\":[");
  for (int i = 0; i < d->ncubes; i++)
    fprintf(f, "%s\"%s\"", i ? "," : "", d->cubes[i]);
  fprintf(f, "],\n\"trees\":[");
  for (int i = 0; i < d->ncubes && !failed; i++) {
    fprintf(f, "%s\n\"", i ? "," : "");
    if (d->trees[i])
      fputs(d->trees[i], f);
    else
      failed = pq_text_copy(&l->text, f, l->tree_start, l->tree_end) != 0;
    fprintf(f, "\"");
  }
  if (failed) {
    pq_write_fail(); /* and the file is left unclosed: no reader takes it for whole */
    return false;
  }
  fprintf(f, "]");
  return true;
}

static void write_cert(FILE *f, void *ctx) {
  const pq_armies_cert *c = ctx;
  bool count = !strcmp(c->claim, "count");
  fprintf(f, "{\"format\":\"peaceable-certificate\",\"version\":1,\"problem\":\"armies\",");
  fprintf(f, "\"board\":\"%s\",\"piece\":\"%c\",", c->board, c->piece);
  fprintf(f, "\"claim\":\"%s\"", c->claim);
  if (c->witness)
    fprintf(f, ",\"white\":%d,\"black\":%d,\"witness\":\"%s\"", c->witness_white, c->witness_black,
            c->witness);
  if (count) {
    fprintf(f, ",\"white\":%d,\"black\":%d,\"total\":%s,\"unique\":%s,\"unique_colour\":%s,",
            c->witness_white, c->witness_black, c->total, c->unique, c->unique_colour);
    fprintf(f, "\n\"placements\":[");
    for (size_t i = 0; i < c->nplacements; i++)
      fprintf(f, "%s\n\"%s\"", i ? "," : "", c->placements[i]);
    fprintf(f, "],\n\"count\":{");
    if (!write_proof(f, c->count)) return;
    fprintf(f, "}");
  }
  if (!strcmp(c->claim, "feasible") || (count && !c->white)) {
    fprintf(f, "}\n");
    return;
  }
  fprintf(f, ",\n\"infeasible\":{\"white\":%d,\"black\":%d,\"complement\":%s,\n", c->white,
          c->black, c->proof->complement ? "true" : "false");
  if (write_proof(f, c->proof)) fprintf(f, "}}\n");
}

pq_status pq_armies_cert_write(const char *path, const pq_armies_cert *c) {
  return pq_check_write("armies", path, pq_engine_on_word_taken() && !c->part, write_cert,
                        (void *)c);
}
