/* search.h: exhaustive search for placements on the config calculus. */
#ifndef PQ_SEARCH_H
#define PQ_SEARCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "util.h"

/* Called with each placement found: cells[s] is 0 for an empty square, otherwise kind + 1.
   Return 0 to go on, nonzero to stop the search (pq_search_run then returns PQ_OK with the
   count so far, and sets *stopped). */
typedef int (*pq_solution_fn)(void *ctx, const uint8_t *cells);

/* Optional extra rule: whether a piece of kind k may go on square s, given the pieces already
   in cells. Return false to reject. */
typedef bool (*pq_accept_fn)(void *ctx, int k, int s, const uint8_t *cells);

typedef struct pq_search_params {
  int count[PQ_MAX_KINDS]; /* pieces of each kind to place (0 by default) */
  pq_solution_fn on_solution;
  pq_accept_fn accept;
  void *ctx;
  uint64_t node_limit; /* stop with PQ_ELIMIT after this many nodes; 0: no limit */
  double time_limit;   /* stop with PQ_ELIMIT after this many seconds; 0: no limit */
} pq_search_params;

/* Sets every default: no pieces, no callbacks, no limits. */
void pq_search_params_init(pq_search_params *p);

typedef struct pq_search_result {
  pq_count count; /* placements found (complete only when the status is PQ_OK and not stopped) */
  uint64_t nodes; /* pieces placed */
  bool stopped;   /* on_solution asked to stop */
  bool overflow;  /* the count passed 2^128 - 1 */
} pq_search_result;

/* Visits every placement of p->count[k] pieces of each kind k on the calculus' board in which no
   two pieces conflict, identical pieces taken in increasing square order (each placement once).
   Returns PQ_OK when the search is complete (or stopped by on_solution), PQ_ELIMIT when a limit
   stopped it, PQ_EINTR when pq_interrupted was set. */
pq_status pq_search_run(const pq_calc *c, const pq_search_params *p, pq_search_result *out);

#endif
