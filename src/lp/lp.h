/* lp.h: integer programs and LP bounds with integer certificates, on top of GLPK. */
#ifndef PQ_LP_H
#define PQ_LP_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/util.h"

/* A small integer program, built by problem modules without GLPK:

     maximise  c^T x   subject to   a_i x (<=, >= or =) b_i  for every row i,
                                    0 <= x_j <= u_j, x_j integer, for every column j,

   with integer c, a, b and u. Columns and rows are numbered from 0 in the order they are
   added. Every function of this module creates its own GLPK objects and frees GLPK's
   environment (glp_free_env) before it returns, so no GLPK state survives a call: the
   functions may run in several threads at once on different models (GLPK keeps its state per
   thread), a model may be shared read-only between threads, and main() need not call
   anything at exit. */
typedef struct pq_lp_model pq_lp_model;

typedef enum pq_lp_sense { PQ_LP_LE, PQ_LP_GE, PQ_LP_EQ } pq_lp_sense;

/* A new model with no rows or columns (caller frees with pq_lp_free). name (copied) names the
   problem in exported files; it must be a non-empty word of letters, digits and _ (checked). */
pq_lp_model *pq_lp_new(const char *name);
void pq_lp_free(pq_lp_model *m);

/* Adds an integer column 0 <= x <= upper (upper >= 0; 1 makes it binary) with objective
   coefficient objective; returns its number. name (copied) must be unique in the model, at
   most 60 characters of letters, digits and _, not starting with a digit (so that every LP
   and MPS reader accepts it); misuse aborts. */
int pq_lp_add_col(pq_lp_model *m, const char *name, int upper, int objective);

/* Adds the row sum_k coef[k] * x[col[k]] (sense) rhs over n >= 1 distinct existing columns
   with nonzero coefficients; returns its number. name as for columns (unique among rows). */
int pq_lp_add_row(pq_lp_model *m, const char *name, pq_lp_sense sense, int rhs, int n,
                  const int *col, const int *coef);

/* Sizes and names. */
int pq_lp_cols(const pq_lp_model *m);
int pq_lp_rows(const pq_lp_model *m);
const char *pq_lp_col_name(const pq_lp_model *m, int col);
const char *pq_lp_row_name(const pq_lp_model *m, int row);
int pq_lp_col_upper(const pq_lp_model *m, int col);
/* The column named name, or -1. Linear in the number of columns. */
int pq_lp_find_col(const pq_lp_model *m, const char *name);

/* Fixed columns: wherever this module takes `const int *fix`, NULL fixes nothing; otherwise
   fix has one entry per column, fix[j] < 0 leaves column j free and fix[j] = v in [0, u_j]
   fixes x_j = v (a cube of a proof). A fix outside [0, u_j] is misuse and aborts. */

/* Parameters of pq_lp_solve; pq_lp_params_init sets every default. */
typedef struct pq_lp_params {
  const volatile int *cancel; /* when *cancel becomes nonzero, stop with PQ_ELIMIT (NULL) */
  double time_limit;          /* stop with PQ_ELIMIT after this many seconds; 0: none (0) */
  uint64_t node_limit;        /* stop with PQ_ELIMIT after this many branch-and-bound nodes;
                                 0: none (0) */
  bool first_solution;        /* stop at the first integer solution found, searching the
                                 tree depth first (false: optimise, best bound first) */
  bool verbose;               /* GLPK's progress messages on stderr (false: silent) */
} pq_lp_params;

void pq_lp_params_init(pq_lp_params *p);

/* A copy of *limits (NULL: the defaults, no limit). */
pq_lp_params pq_lp_limits(const pq_lp_params *limits);

/* Solves the integer program with the columns fixed by fix (GLPK's branch and cut). Returns
   PQ_OK when it concluded: *found tells whether an integer solution exists; when found, x (one
   entry per column, may be NULL) holds one and *objective (may be NULL) its value, which is
   the maximum unless p->first_solution was set. Returns PQ_ELIMIT when p->cancel or
   p->time_limit stopped it first or GLPK failed, PQ_EINTR when pq_interrupted (util.h) was
   set; *found is then false. p may be NULL (defaults). */
pq_status pq_lp_solve(const pq_lp_model *m, const int *fix, const pq_lp_params *p, bool *found,
                      int *x, int64_t *objective);

/* An integer certificate that c^T x <= bound for every integer (indeed every real) x of the
   model with the columns fixed by fix. Row i is read in normalised form n_i x <= d_i:
   (a_i, b_i) for a <= row, (-a_i, -b_i) for a >= row, and (a_i, b_i) for an = row. With
   scale D >= 1, y_i >= 0 for <= and >= rows (any sign for = rows), z_j >= 0 for free columns
   (any sign for fixed ones), and for every column j

     sum_i y_i n_ij + z_j >= D c_j,

   every feasible x has D c^T x <= sum_i y_i d_i + sum_j z_j u'_j, where u'_j is the fixed
   value of a fixed column and u_j otherwise (multiply the rows and the bounds x_j <= u_j, use
   x >= 0; a fixed column's x_j = u'_j exactly, whatever the sign of z_j). So c^T x <=
   floor((y.d + z.u') / D). */
typedef struct pq_lp_cert {
  int rows, cols; /* lengths of y and z: the model's */
  int64_t scale;  /* D >= 1 */
  int64_t *y;     /* one multiplier per row */
  int64_t *z;     /* one multiplier per column upper bound */
} pq_lp_cert;

/* Allocates y and z (zero) for model m and sets scale 1; free with pq_lp_cert_free. */
void pq_lp_cert_init(pq_lp_cert *c, const pq_lp_model *m);
/* Frees y and z (c itself is the caller's); a zeroed struct is a no-op. */
void pq_lp_cert_free(pq_lp_cert *c);

/* Solves the LP relaxation with the columns fixed by fix and turns its dual solution into an
   integer certificate: c (initialised by the caller with pq_lp_cert_init for m) receives the
   multipliers, *bound the certified bound floor((y.d + z.u') / D), which pq_lp_check_bound
   confirms. The bound equals the floor of the LP optimum whenever GLPK's duals allow, rounded
   up by a tiny slack otherwise. When the relaxation is infeasible, the certificate combines
   GLPK's Farkas multipliers so that *bound is below every value c^T x takes on the box
   0 <= x <= u (with the fixes), which proves that no x at all exists. Returns PQ_OK, or
   PQ_ELIMIT when GLPK failed (no certificate). */
pq_status pq_lp_bound(const pq_lp_model *m, const int *fix, pq_lp_cert *c, int64_t *bound);

/* Checks a certificate with integer arithmetic only (128-bit, overflow checked): its sizes
   match m, D >= 1, the signs are right and every column is covered, as described at
   pq_lp_cert. Returns PQ_OK and sets *bound, or PQ_EFALSE and writes a one-line reason into
   why (why_len bytes, may be NULL/0) without printing anything. */
pq_status pq_lp_check_bound(const pq_lp_model *m, const int *fix, const pq_lp_cert *c,
                            int64_t *bound, char *why, size_t why_len);

/* File formats for export and import. */
typedef enum pq_lp_format { PQ_LP_CPLEX, PQ_LP_MPS } pq_lp_format;

/* Writes the model with the columns fixed by fix as a CPLEX LP file (glp_write_lp) or a free
   MPS file (glp_write_mps) to path. MPS has no objective sense: the file's first line is the
   comment "* Objective sense: MAXIMIZE (peaceable)". Names must be unique (checked; misuse
   aborts). Returns PQ_OK, or PQ_EIO with a message naming path. */
pq_status pq_lp_write(const pq_lp_model *m, const int *fix, pq_lp_format format, const char *path);

/* Reads a CPLEX LP or free MPS file (as written by pq_lp_write) into a new model (*out, caller
   frees). Columns are numbered in the file's order, which for an LP file is the order of
   first use, not necessarily the model's: look them up by name (pq_lp_find_col). The
   objective is maximised (an LP file must say Maximize; MPS cannot say); columns must be
   integer with bounds 0 <= x <= u and every number an integer. A fixed column of the file is
   read as a column whose bounds are the fixed value's: 0 <= x <= 0 for a fixed 0, and a
   column fixed to v > 0 gets upper bound v and the extra row x >= v named fix_NAME. Returns
   PQ_OK, PQ_EIO when the file cannot be read or parsed, PQ_EINVAL when it is outside this
   class; a message naming path is printed either way. */
pq_status pq_lp_read(const char *path, pq_lp_format format, pq_lp_model **out);

#endif
