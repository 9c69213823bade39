/* armies_kn_check.h: the armies checker's bound for kings (part of libcheck.a). */
#ifndef PQ_ARMIES_KN_CHECK_H
#define PQ_ARMIES_KN_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "../../src/check/check.h"

/* Whether the kings leaf "k" closes `white` white against `black` black kings on a width x height
   board (doc/certificate.md, "Kings"): black exceeds the squares less the least closed
   neighbourhood of a down-set of `white` squares (or the pieces outnumber the squares). */
bool pq_armies_check_kings_closed(int width, int height, int white, int black);

/* Whether lemmas is an array of lemmas as doc/certificate.md writes them on a board of `squares`
   squares: objects of exactly the members from (0..squares), size (0..squares), least
   (0..squares + 1) and tree (a string). Anything else is a malformed certificate. */
bool pq_armies_check_lemmas_read(const pq_json *lemmas, int squares);

/* Reads the members "lemmas" and "order" of obj (the member `what`: "infeasible" or "count"),
   allowed only when suffixes (knights; kings' counts) and well formed on a board of `squares`
   squares: PQ_OK, or PQ_EINVAL with a message naming the certificate. */
pq_status pq_armies_check_suffixes(const pq_json *obj, const char *what, bool suffixes, int squares,
                                   const pq_json **lemmas, bool *by_columns);

/* Checks the knights proof that `white` white and `black` black knights do not fit on a width x
   height board (doc/certificate.md, "Knights"): the lemmas (a JSON array, or NULL for none), in
   their order, then the claim's tree. With counted (not NULL), the tree is a count's, of knights
   or of kings (piece: the index in "KQRBN", 4 or 0), whose leaves "c" count the placements of
   `white` against `black` into *counted (doc/certificate.md, "Count certificates"). Returns 1
   (valid; *leaves the leaves checked), 0 (invalid, the reason in why) or -1 (stopped by
   pq_check_stop: no verdict). */
int pq_armies_check_knights(int width, int height, int piece, const pq_json *lemmas,
                            const char *tree, int white, int black, const pq_check_params *params,
                            pq_count *counted, long *leaves, char *why, size_t whylen);

#endif
