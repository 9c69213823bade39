/* armies_knights.h: armies of knights by the least closed neighbourhood of the white army, a
   Russian-doll search over the board's suffixes with a proof by lemmas (doc/algorithms.md,
   "Knights"; doc/certificate.md, "Knights"), and counts of knights and of kings by the same
   search. Any board: its sets are bitboards of the board's words. */
#ifndef PQ_ARMIES_KNIGHTS_H
#define PQ_ARMIES_KNIGHTS_H

#include <stdbool.h>

#include "../../src/core/board.h"
#include "../../src/core/json.h"
#include "armies.h"

/* pq_armies_decide for knights: `white` against `black` fit exactly when some set X of `white`
   squares has at most squares - black squares on or a knight's move from it.
   With a witness, writes it (with p->grow as pq_armies_decide says); without, and with
   p->proof, the proof: no split, one cube, its tree, and in out->lemmas the lemmas it rests on.
   Returns PQ_OK. */
pq_status pq_armies_knights_decision(const pq_board *b, int white, int black,
                                     const pq_armies_params *p, pq_armies_decision *out);

/* pq_armies_count for knights or kings: every placement of `white` against
   `black`, each set X of white squares with at most squares - black squares on or a move from it
   (found by the same search, closed by the same bounds) with each set of black squares outside
   them, handed to visit (NULL: counted only) with weight 1 in increasing order of X, then of the
   black squares; a nonzero return of visit ends the count (PQ_OK, counted so far). *count gets the
   placements, *nodes the nodes; with proof (not NULL), the count's proof (doc/certificate.md,
   "Count certificates"): no split, one cube, its tree with leaves "c", the lemmas. Returns PQ_OK,
   PQ_ELIMIT or PQ_EINTR when p's limits or a signal stopped it, PQ_ELIMIT with a message past
   2^128. Not after pq_armies_knights_resume: a count prunes by the bounds and proves none of them
   again, so they must be this process's own (the command refuses --resume with --count). */
pq_status pq_armies_knights_count(const pq_board *b, pq_piece piece, int white, int black,
                                  const pq_armies_params *p, pq_armies_visit visit, void *ctx,
                                  pq_count *count, uint64_t *nodes, pq_armies_decision *proof);

/* Takes the bounds learnt of checkpoint doc (read from path, sealed: pq_engine_open_checkpoint)
   for knights on b into the process's record, where every knights decision on b then starts from
   them: PQ_OK, or PQ_EINVAL with a message when its "learnt" is not bounds of b (sizes out of
   range, a found set below a proven bound). The bounds are the checkpoint's word; a certificate
   proves every one it uses as a lemma, which verify checks. */
pq_status pq_armies_knights_resume(const pq_board *b, const pq_json *doc, const char *path);

#endif
