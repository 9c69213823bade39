/* armies_knights.h: armies of knights by the least closed neighbourhood of the white army, a
   Russian-doll search over the board's suffixes with a proof by lemmas (doc/algorithms.md,
   "Knights"; doc/certificate.md, "Knights"). Any board: its sets are bitboards of the board's
   words. */
#ifndef PQ_ARMIES_KNIGHTS_H
#define PQ_ARMIES_KNIGHTS_H

#include <stdbool.h>

#include "../../src/core/board.h"
#include "../../src/core/json.h"
#include "armies.h"

/* Whether the board is one this search takes (every board up to PQ_MAX_SQUARES squares). */
bool pq_armies_knights_fits(const pq_board *b);

/* pq_armies_decide for knights on such a board: `white` against `black` fit exactly when some
   set X of `white` squares has at most squares - black squares on or a knight's move from it.
   With a witness, writes it (with p->grow as pq_armies_decide says); without, and with
   p->proof, the proof: no split, one cube, its tree, and in out->lemmas the lemmas it rests on.
   Returns PQ_OK. */
pq_status pq_armies_knights_decision(const pq_board *b, int white, int black,
                                     const pq_armies_params *p, pq_armies_decision *out);

/* Takes the bounds learnt of checkpoint doc (read from path, sealed: pq_engine_open_checkpoint)
   for knights on b into the process's record, where every knights decision on b then starts from
   them: PQ_OK, or PQ_EINVAL with a message when its "learnt" is not bounds of b (sizes out of
   range, a found set below a proven bound). The bounds are the checkpoint's word; a certificate
   proves every one it uses as a lemma, which verify checks. */
pq_status pq_armies_knights_resume(const pq_board *b, const pq_json *doc, const char *path);

#endif
