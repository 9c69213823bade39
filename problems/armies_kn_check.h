/* armies_kn_check.h: the armies checker's bound for kings (part of libcheck.a). */
#ifndef PQ_ARMIES_KN_CHECK_H
#define PQ_ARMIES_KN_CHECK_H

#include <stdbool.h>

/* Whether the kings leaf "k" closes `white` white against `black` black kings on a width x height
   board (doc/certificate.md, "Kings"): black exceeds the squares less the least closed
   neighbourhood of a down-set of `white` squares (or the pieces outnumber the squares). */
bool pq_armies_check_kings_closed(int width, int height, int white, int black);

#endif
