/* registry.c: the list of problem modules, one line each. */
#include "problem.h"

extern const pq_problem pq_problem_pieces;

const pq_problem *const pq_problems[] = {
    &pq_problem_pieces,
    NULL,
};
