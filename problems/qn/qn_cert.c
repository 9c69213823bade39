/* qn_cert.c: writing qn certificates (doc/certificate.md, section "qn"); problems/qn/qn_check.c
   checks them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/check/check.h"
#include "../../src/core/placement.h"
#include "../../src/core/sym.h"
#include "../../src/run/engine.h"
#include "qn.h"

/* Writes a proof's members: the size, its pieces of each kind, the split kind and one cube
   per orbit of squares, at its least square (the engine's parts at the first piece of the
   split kind). */
static void write_proof(FILE *f, const pq_qn_cert *c, int size) {
  const pq_board *b = c->board;
  fprintf(f, "{\"size\":%d,\"first\":%d,\"second\":%d,\"split\":\"%c\",", size, c->ratio_a * size,
          c->ratio_b * size, pq_piece_letters[c->split]);
  fprintf(f, "\n\"cubes\":[");
  int n = 0, groups = pq_sym_count(b);
  for (int s = 0; s < b->squares; s++) {
    bool least = true;
    for (int g = 1; g < groups && least; g++)
      least = pq_sym_square(b, (pq_sym)g, s) >= s;
    if (least) fprintf(f, "%s\n{\"square\":%d,\"leaf\":\"search\"}", n++ ? "," : "", s);
  }
  fprintf(f, "]}");
}

static void write_cert(FILE *f, void *ctx) {
  const pq_qn_cert *c = ctx;
  const pq_board *b = c->board;
  char letters[3] = {pq_piece_letters[c->first], pq_piece_letters[c->second], '\0'};
  const char *claim = c->counting     ? "count"
                      : !c->witness   ? "infeasible"
                      : c->infeasible ? "maximum"
                                      : "feasible";
  fprintf(f, "{\"format\":\"peaceable-certificate\",\"version\":1,\"problem\":\"qn\",");
  fprintf(f, "\"board\":\"%dx%d\",\"kinds\":\"%s\",\"ratio\":\"%d:%d\",\"claim\":\"%s\"", b->width,
          b->height, letters, c->ratio_a, c->ratio_b, claim);
  char *text = pq_malloc((size_t)b->squares + (size_t)b->height + 1);
  if (c->witness) {
    pq_placement_text(b, c->witness, letters, text);
    fprintf(f, ",\"size\":%d,\"witness\":\"%s\"", c->size, text);
  }
  if (c->counting) {
    fprintf(f, ",\"size\":%d,\"total\":%s,\"unique\":%s,\n\"placements\":[", c->size, c->total,
            c->unique);
    for (size_t i = 0; i < c->nplacements; i++) {
      pq_placement_text(b, c->placements + i * (size_t)b->squares, letters, text);
      fprintf(f, "%s\n\"%s\"", i ? "," : "", text);
    }
    fprintf(f, "],\n\"count\":");
    write_proof(f, c, c->size);
  }
  free(text);
  if (c->infeasible > 0) {
    fprintf(f, ",\n\"infeasible\":");
    write_proof(f, c, c->infeasible);
  }
  fprintf(f, "}\n");
}

pq_status pq_qn_cert_write(const char *path, const pq_qn_cert *c) {
  PQ_REQUIRE(c->witness || c->infeasible > 0 || c->counting, "a qn certificate claims something");
  PQ_REQUIRE(c->split == c->first || c->split == c->second, "the split kind is one of the kinds");
  return pq_check_write("qn", path, pq_engine_on_word_taken(), write_cert, (void *)c);
}

char *pq_qn_cert_text(const pq_qn_cert *c, size_t *len) {
  char *text = NULL;
  FILE *f = pq_memstream(&text, len);
  write_cert(f, (void *)c);
  fclose(f);
  return text;
}
