/* registry.c: the list of problem modules, one line each. */
#include "problem.h"

extern const pq_problem pq_problem_armies;
extern const pq_problem pq_problem_qn;
extern const pq_problem pq_problem_pieces;
extern const pq_problem pq_problem_chess960;
extern const pq_problem pq_problem_verify;
extern const pq_problem pq_problem_merge;

const pq_problem *const pq_problems[] = {
    &pq_problem_armies,
    &pq_problem_qn,
    &pq_problem_pieces,
    &pq_problem_chess960,
    &pq_problem_verify,
    &pq_problem_merge,
    NULL,
};
