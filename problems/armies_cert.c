/* armies_cert.c: writing armies certificates (doc/certificate.md); problems/armies_check.c
   checks them. */
#include <stdio.h>
#include <string.h>

#include "armies.h"

static void write_cert(FILE *f, void *ctx) {
  const pq_armies_cert *c = ctx;
  fprintf(f, "{\"format\":\"peaceable-certificate\",\"version\":1,\"problem\":\"armies\",");
  fprintf(f, "\"board\":\"%s\",\"piece\":\"%c\",", c->board, c->piece);
  fprintf(f, "\"claim\":\"%s\"", c->claim);
  if (c->witness)
    fprintf(f, ",\"white\":%d,\"black\":%d,\"witness\":\"%s\"", c->witness_white, c->witness_black,
            c->witness);
  if (!strcmp(c->claim, "feasible")) {
    fprintf(f, "}\n");
    return;
  }
  fputc(',', f);
  fprintf(f, "\n\"infeasible\":{\"white\":%d,\"black\":%d,\"split\":[", c->white, c->black);
  for (int i = 0; i < c->nsplit; i++)
    fprintf(f, "%s%d", i ? "," : "", c->split[i]);
  fprintf(f, "],\"complement\":%s,\n\"cubes\":[", c->complement ? "true" : "false");
  for (int i = 0; i < c->ncubes; i++)
    fprintf(f, "%s\"%s\"", i ? "," : "", c->cubes[i]);
  fprintf(f, "],\n\"trees\":[");
  for (int i = 0; i < c->ncubes; i++)
    fprintf(f, "%s\n\"%s\"", i ? "," : "", c->trees[i]);
  fprintf(f, "]}}\n");
}

pq_status pq_armies_cert_write(const char *path, const pq_armies_cert *c) {
  return pq_write_atomic(path, write_cert, (void *)c);
}
