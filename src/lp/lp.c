/* lp.c: integer programs and LP bounds with integer certificates; the only user of GLPK. */
#include "lp.h"

#include <errno.h>
#include <glpk.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/util.h"

typedef struct lp_col {
  char *name;
  int upper;
  int objective;
} lp_col;

/* A row's coefficients are entries start .. start + len - 1 of the model's ind and coef. */
typedef struct lp_row {
  char *name;
  pq_lp_sense sense;
  int rhs;
  int start, len;
} lp_row;

struct pq_lp_model {
  char *name;
  int cols, col_cap;
  lp_col *col;
  int rows, row_cap;
  lp_row *row;
  int entries, entry_cap;
  int *ind;
  int *coef;
};

/* Names every LP and MPS reader accepts: a letter or _, then letters, digits and _. */
#define NAME_MAX_LEN 60

static bool name_ok(const char *name) {
  size_t n = name ? strlen(name) : 0;
  if (n == 0 || n > NAME_MAX_LEN) return false;
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)name[i];
    bool letter = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
    if (!letter && !(i > 0 && ch >= '0' && ch <= '9')) return false;
  }
  return true;
}

pq_lp_model *pq_lp_new(const char *name) {
  PQ_REQUIRE(name_ok(name), "bad model name \"%s\"", name ? name : "(null)");
  pq_lp_model *m = pq_calloc(1, sizeof *m);
  m->name = pq_strdup(name);
  return m;
}

void pq_lp_free(pq_lp_model *m) {
  if (!m) return;
  for (int j = 0; j < m->cols; j++)
    free(m->col[j].name);
  for (int i = 0; i < m->rows; i++)
    free(m->row[i].name);
  free(m->col);
  free(m->row);
  free(m->ind);
  free(m->coef);
  free(m->name);
  free(m);
}

int pq_lp_add_col(pq_lp_model *m, const char *name, int upper, int objective) {
  PQ_REQUIRE(name_ok(name), "bad column name \"%s\"", name ? name : "(null)");
  PQ_REQUIRE(upper >= 0, "column %s: upper bound %d < 0", name, upper);
  if (m->cols == m->col_cap) {
    m->col_cap = m->col_cap ? 2 * m->col_cap : 64;
    m->col = pq_realloc(m->col, (size_t)m->col_cap * sizeof *m->col);
  }
  m->col[m->cols] = (lp_col){pq_strdup(name), upper, objective};
  return m->cols++;
}

int pq_lp_add_row(pq_lp_model *m, const char *name, pq_lp_sense sense, int rhs, int n,
                  const int *col, const int *coef) {
  PQ_REQUIRE(name_ok(name), "bad row name \"%s\"", name ? name : "(null)");
  PQ_REQUIRE(sense == PQ_LP_LE || sense == PQ_LP_GE || sense == PQ_LP_EQ, "row %s: bad sense",
             name);
  PQ_REQUIRE(n >= 1 && n <= m->cols, "row %s: %d entries for %d columns", name, n, m->cols);
  for (int k = 0; k < n; k++) {
    PQ_REQUIRE(col[k] >= 0 && col[k] < m->cols, "row %s: no column %d", name, col[k]);
    PQ_REQUIRE(coef[k] != 0, "row %s: zero coefficient", name);
    for (int l = 0; l < k; l++)
      PQ_REQUIRE(col[l] != col[k], "row %s: column twice", name);
  }
  if (m->rows == m->row_cap) {
    m->row_cap = m->row_cap ? 2 * m->row_cap : 64;
    m->row = pq_realloc(m->row, (size_t)m->row_cap * sizeof *m->row);
  }
  PQ_REQUIRE(m->entries <= INT_MAX - n, "model %s: too many entries", m->name);
  if (m->entries + n > m->entry_cap) {
    while (m->entries + n > m->entry_cap)
      m->entry_cap = m->entry_cap ? 2 * m->entry_cap : 256;
    m->ind = pq_realloc(m->ind, (size_t)m->entry_cap * sizeof *m->ind);
    m->coef = pq_realloc(m->coef, (size_t)m->entry_cap * sizeof *m->coef);
  }
  memcpy(m->ind + m->entries, col, (size_t)n * sizeof *col);
  memcpy(m->coef + m->entries, coef, (size_t)n * sizeof *coef);
  m->row[m->rows] = (lp_row){pq_strdup(name), sense, rhs, m->entries, n};
  m->entries += n;
  return m->rows++;
}

int pq_lp_cols(const pq_lp_model *m) { return m->cols; }
int pq_lp_rows(const pq_lp_model *m) { return m->rows; }

const char *pq_lp_col_name(const pq_lp_model *m, int col) {
  PQ_REQUIRE(col >= 0 && col < m->cols, "no column %d", col);
  return m->col[col].name;
}

const char *pq_lp_row_name(const pq_lp_model *m, int row) {
  PQ_REQUIRE(row >= 0 && row < m->rows, "no row %d", row);
  return m->row[row].name;
}

int pq_lp_col_upper(const pq_lp_model *m, int col) {
  PQ_REQUIRE(col >= 0 && col < m->cols, "no column %d", col);
  return m->col[col].upper;
}

int pq_lp_find_col(const pq_lp_model *m, const char *name) {
  for (int j = 0; j < m->cols; j++)
    if (!strcmp(m->col[j].name, name)) return j;
  return -1;
}

void pq_lp_params_init(pq_lp_params *p) {
  p->cancel = NULL;
  p->time_limit = 0;
  p->node_limit = 0;
  p->first_solution = false;
  p->verbose = false;
}

pq_lp_params pq_lp_limits(const pq_lp_params *limits) {
  pq_lp_params p;
  pq_lp_params_init(&p);
  return limits ? *limits : p;
}

static void require_fix(const pq_lp_model *m, const int *fix) {
  if (!fix) return;
  for (int j = 0; j < m->cols; j++)
    PQ_REQUIRE(fix[j] <= m->col[j].upper, "column %s fixed to %d above its bound %d",
               m->col[j].name, fix[j], m->col[j].upper);
}

/* ---- GLPK's environment: one per call and thread ---- */

/* GLPK's terminal output: copied to stderr when verbose, otherwise the tail is kept so that
   a failure can say what GLPK said. GLPK would write to stdout, which carries results only. */
typedef struct glpk_out {
  bool verbose;
  size_t len;
  char tail[1024];
} glpk_out;

static int on_glpk_output(void *info, const char *s) {
  glpk_out *o = info;
  if (o->verbose) {
    fputs(s, stderr);
    return 1;
  }
  size_t n = strlen(s), cap = sizeof o->tail - 1;
  if (n > cap) s += n - cap, n = cap;
  if (o->len + n > cap) {
    size_t drop = o->len + n - cap;
    memmove(o->tail, o->tail + drop, o->len - drop);
    o->len -= drop;
  }
  memcpy(o->tail + o->len, s, n);
  o->len += n;
  o->tail[o->len] = 0;
  return 1;
}

/* GLPK calls this on an invalid argument or an internal error, then aborts: misuse by this
   file, so aborting is right; say why first. */
static void on_glpk_error(void *info) {
  glpk_out *o = info;
  fprintf(stderr, "peaceable: GLPK stopped on an internal error (a bug):\n%s", o->tail);
  fflush(stderr);
}

/* Every GLPK use is bracketed by glpk_begin and glpk_end. GLPK keeps its environment per
   thread (built with thread-local storage), so threads never share it; glpk_end frees it with
   every object left in it, so nothing outlives a call and no thread leaks at exit. */
static void glpk_begin(glpk_out *o, bool verbose) {
  o->verbose = verbose;
  o->len = 0;
  o->tail[0] = 0;
  glp_term_out(GLP_ON);
  glp_term_hook(on_glpk_output, o);
  glp_error_hook(on_glpk_error, o);
}

static void glpk_end(void) { glp_free_env(); }

/* The last non-empty line GLPK printed, for messages. */
static const char *glpk_last_line(glpk_out *o) {
  while (o->len && (o->tail[o->len - 1] == '\n' || o->tail[o->len - 1] == ' '))
    o->tail[--o->len] = 0;
  char *nl = strrchr(o->tail, '\n');
  return nl ? nl + 1 : o->tail;
}

/* The GLPK problem for m with the columns fixed by fix. */
static glp_prob *build(const pq_lp_model *m, const int *fix) {
  glp_prob *P = glp_create_prob();
  glp_set_prob_name(P, m->name);
  glp_set_obj_name(P, "objective");
  glp_set_obj_dir(P, GLP_MAX);
  if (m->cols) glp_add_cols(P, m->cols);
  if (m->rows) glp_add_rows(P, m->rows);
  for (int j = 0; j < m->cols; j++) {
    const lp_col *c = &m->col[j];
    glp_set_col_name(P, j + 1, c->name);
    glp_set_col_kind(P, j + 1, GLP_IV);
    if (fix && fix[j] >= 0)
      glp_set_col_bnds(P, j + 1, GLP_FX, fix[j], fix[j]);
    else if (c->upper == 0)
      glp_set_col_bnds(P, j + 1, GLP_FX, 0, 0);
    else
      glp_set_col_bnds(P, j + 1, GLP_DB, 0, c->upper);
    glp_set_obj_coef(P, j + 1, c->objective);
  }
  int longest = 0;
  for (int i = 0; i < m->rows; i++)
    if (m->row[i].len > longest) longest = m->row[i].len;
  int *ind = pq_malloc((size_t)(longest + 1) * sizeof *ind);
  double *val = pq_malloc((size_t)(longest + 1) * sizeof *val);
  for (int i = 0; i < m->rows; i++) {
    const lp_row *r = &m->row[i];
    glp_set_row_name(P, i + 1, r->name);
    int type = r->sense == PQ_LP_LE ? GLP_UP : r->sense == PQ_LP_GE ? GLP_LO : GLP_FX;
    glp_set_row_bnds(P, i + 1, type, r->rhs, r->rhs);
    for (int k = 0; k < r->len; k++) {
      ind[k + 1] = m->ind[r->start + k] + 1;
      val[k + 1] = m->coef[r->start + k];
    }
    glp_set_mat_row(P, i + 1, r->len, ind, val);
  }
  free(ind);
  free(val);
  return P;
}

/* ---- integer programs ---- */

typedef enum stop_reason {
  NOT_STOPPED,
  STOP_SOLUTION,
  STOP_CANCEL,
  STOP_TIME,
  STOP_NODES,
  STOP_SIGNAL
} stop_reason;

typedef struct solve_state {
  const pq_lp_params *p;
  double deadline; /* pq_now() after which to stop; 0: none */
  stop_reason stop;
} solve_state;

/* The branch-and-bound nodes T has made so far (those removed too). */
static uint64_t nodes_of(glp_tree *T) {
  int total = 0;
  glp_ios_tree_size(T, NULL, NULL, &total);
  return (uint64_t)total;
}

/* glp_intopt's callback: the only place a running branch and cut can be stopped. */
static void on_node(glp_tree *T, void *info) {
  solve_state *st = info;
  if (st->stop != NOT_STOPPED) return;
  if (st->p->cancel && *st->p->cancel)
    st->stop = STOP_CANCEL;
  else if (pq_interrupted)
    st->stop = STOP_SIGNAL;
  else if (st->deadline > 0 && pq_now() > st->deadline)
    st->stop = STOP_TIME;
  else if (st->p->first_solution && glp_ios_reason(T) == GLP_IBINGO)
    st->stop = STOP_SOLUTION; /* before the node limit: a solution found is kept */
  else if (st->p->node_limit && nodes_of(T) >= st->p->node_limit)
    st->stop = STOP_NODES;
  if (st->stop != NOT_STOPPED) glp_ios_terminate(T);
}

pq_status pq_lp_solve(const pq_lp_model *m, const int *fix, const pq_lp_params *p, bool *found,
                      int *x, int64_t *objective) {
  pq_lp_params defaults;
  if (!p) {
    pq_lp_params_init(&defaults);
    p = &defaults;
  }
  require_fix(m, fix);
  *found = false;
  solve_state st = {p, p->time_limit > 0 ? pq_now() + p->time_limit : 0, NOT_STOPPED};
  glpk_out out;
  glpk_begin(&out, p->verbose);
  glp_prob *P = build(m, fix);
  glp_iocp parm;
  glp_init_iocp(&parm);
  parm.msg_lev = p->verbose ? GLP_MSG_ON : GLP_MSG_OFF;
  /* The MIP presolver solves the root LP itself (without it glp_simplex would have to run
     first) and often shrinks armies models a lot. Callbacks then see the reduced problem,
     which is fine: they only stop the search. */
  parm.presolve = GLP_ON;
  /* Measured on queen armies and qn (doc/lp.md): branching on the first fractional column
     beats GLPK's other rules several times over (the armies model numbers its line columns
     first, so it branches on lines); depth-first backtracking finds a witness far sooner
     and, with no incumbent to prune by, explores about the same tree when there is none. */
  parm.br_tech = GLP_BR_FFV;
  if (p->first_solution) parm.bt_tech = GLP_BT_DFS;
  parm.cb_func = on_node;
  parm.cb_info = &st;
  if (p->time_limit > 0)
    parm.tm_lim = p->time_limit * 1000 < INT_MAX ? (int)(p->time_limit * 1000) + 1 : INT_MAX;
  int ret = glp_intopt(P, &parm);
  int status = glp_mip_status(P);
  pq_status rc = PQ_ELIMIT;
  if (ret == 0 && status == GLP_OPT) {
    *found = true;
  } else if ((ret == 0 && status == GLP_NOFEAS) || ret == GLP_ENOPFS) {
    rc = PQ_OK; /* no integer (or even fractional) solution */
  } else if (ret == GLP_ESTOP && st.stop == STOP_SOLUTION && status == GLP_FEAS) {
    *found = true;
  } else if (st.stop == STOP_SIGNAL) {
    rc = PQ_EINTR;
  } else if (ret != GLP_ESTOP && ret != GLP_ETMLIM) {
    pq_error("GLPK failed on model %s (glp_intopt returned %d, status %d): %s", m->name, ret,
             status, glpk_last_line(&out));
  }
  if (*found) {
    rc = PQ_OK;
    if (x)
      for (int j = 0; j < m->cols; j++)
        x[j] = (int)lround(glp_mip_col_val(P, j + 1));
    if (objective) *objective = llround(glp_mip_obj_val(P));
  }
  glp_delete_prob(P);
  glpk_end();
  return rc;
}

/* ---- LP bounds and their integer certificates ---- */

void pq_lp_cert_init(pq_lp_cert *c, const pq_lp_model *m) {
  c->rows = m->rows;
  c->cols = m->cols;
  c->scale = 1;
  c->y = pq_calloc((size_t)m->rows + 1, sizeof *c->y);
  c->z = pq_calloc((size_t)m->cols + 1, sizeof *c->z);
}

void pq_lp_cert_free(pq_lp_cert *c) {
  if (!c) return;
  free(c->y);
  free(c->z);
  c->y = c->z = NULL;
}

typedef __int128 wide;

/* floor(a / d) for d >= 1. */
static wide floor_div(wide a, wide d) {
  wide q = a / d;
  return (a % d != 0 && a < 0) ? q - 1 : q;
}

/* The coefficient of column entry k of row r in normalised (<=) form. */
static inline wide normal_coef(const pq_lp_model *m, const lp_row *r, int k) {
  wide a = m->coef[r->start + k];
  return r->sense == PQ_LP_GE ? -a : a;
}

static inline wide normal_rhs(const lp_row *r) {
  return r->sense == PQ_LP_GE ? -(wide)r->rhs : (wide)r->rhs;
}

static pq_status refuse(char *why, size_t why_len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static pq_status refuse(char *why, size_t why_len, const char *fmt, ...) {
  if (why && why_len) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, why_len, fmt, ap);
    va_end(ap);
  }
  return PQ_EFALSE;
}

/* Sizes keep 128-bit sums exact: each product y * a or z * u is below 2^63 * 2^31 = 2^94,
   and fewer than 2^31 of them are added, so every sum stays below 2^125. */
pq_status pq_lp_check_bound(const pq_lp_model *m, const int *fix, const pq_lp_cert *c,
                            int64_t *bound, char *why, size_t why_len) {
  if (c->rows != m->rows || c->cols != m->cols)
    return refuse(why, why_len, "certificate has %d rows and %d columns, model %s has %d and %d",
                  c->rows, c->cols, m->name, m->rows, m->cols);
  if (c->scale < 1) return refuse(why, why_len, "scale %lld < 1", (long long)c->scale);
  if (fix)
    for (int j = 0; j < m->cols; j++)
      if (fix[j] > m->col[j].upper)
        return refuse(why, why_len, "column %s fixed to %d above its bound %d", m->col[j].name,
                      fix[j], m->col[j].upper);
  wide *cover = pq_calloc((size_t)m->cols + 1, sizeof *cover);
  wide total = 0;
  pq_status rc = PQ_EFALSE;
  for (int i = 0; i < m->rows; i++) {
    const lp_row *r = &m->row[i];
    wide y = c->y[i];
    if (r->sense != PQ_LP_EQ && y < 0) {
      refuse(why, why_len, "row %s: multiplier %lld < 0", r->name, (long long)c->y[i]);
      goto done;
    }
    if (y == 0) continue;
    for (int k = 0; k < r->len; k++)
      cover[m->ind[r->start + k]] += y * normal_coef(m, r, k);
    total += y * normal_rhs(r);
  }
  for (int j = 0; j < m->cols; j++) {
    const lp_col *col = &m->col[j];
    bool fixed = fix && fix[j] >= 0;
    wide z = c->z[j];
    if (!fixed && z < 0) {
      refuse(why, why_len, "column %s: multiplier %lld < 0", col->name, (long long)c->z[j]);
      goto done;
    }
    if (cover[j] + z < (wide)c->scale * col->objective) {
      refuse(why, why_len, "column %s is not covered: A^T y + z < D c", col->name);
      goto done;
    }
    total += z * (fixed ? fix[j] : col->upper);
  }
  wide b = floor_div(total, c->scale);
  if (b > INT64_MAX) {
    refuse(why, why_len, "bound exceeds 64 bits");
    goto done;
  }
  /* A bound below INT64_MIN is reported as INT64_MIN: a weaker, still true, bound. */
  *bound = b < INT64_MIN ? INT64_MIN : (int64_t)b;
  rc = PQ_OK;
done:
  free(cover);
  return rc;
}

/* Integer multipliers from real ones: y_i = round(factor * D * dual_i) (clamped at 0 for
   inequalities), then z_j the least that covers column j. Writes c and *bound; returns false
   when a number does not fit in 64 bits. */
static bool round_cert(const pq_lp_model *m, const int *fix, const double *dual, double factor,
                       int64_t scale, pq_lp_cert *c, int64_t *bound) {
  const double limit = 0x1p62;
  wide *cover = pq_calloc((size_t)m->cols + 1, sizeof *cover);
  wide total = 0;
  bool ok = false;
  c->scale = scale;
  for (int i = 0; i < m->rows; i++) {
    const lp_row *r = &m->row[i];
    double v = dual[i] * factor * (double)scale;
    if (r->sense != PQ_LP_EQ && v < 0) v = 0;
    if (!(fabs(v) < limit)) goto done;
    c->y[i] = llround(v);
    wide y = c->y[i];
    if (y == 0) continue;
    for (int k = 0; k < r->len; k++)
      cover[m->ind[r->start + k]] += y * normal_coef(m, r, k);
    total += y * normal_rhs(r);
  }
  for (int j = 0; j < m->cols; j++) {
    const lp_col *col = &m->col[j];
    bool fixed = fix && fix[j] >= 0;
    wide z = (wide)scale * col->objective - cover[j];
    if (!fixed && z < 0) z = 0;
    if (z > INT64_MAX || z < -INT64_MAX) goto done;
    c->z[j] = (int64_t)z;
    total += z * (fixed ? fix[j] : col->upper);
  }
  wide b = floor_div(total, scale);
  if (b > INT64_MAX || b < INT64_MIN) goto done;
  *bound = (int64_t)b;
  ok = true;
done:
  free(cover);
  return ok;
}

/* The least value c^T x takes on the box 0 <= x <= u with the fixes. */
static int64_t box_minimum(const pq_lp_model *m, const int *fix) {
  int64_t least = 0;
  for (int j = 0; j < m->cols; j++) {
    const lp_col *col = &m->col[j];
    if (fix && fix[j] >= 0)
      least += (int64_t)col->objective * fix[j];
    else if (col->objective < 0)
      least += (int64_t)col->objective * col->upper;
  }
  return least;
}

/* Row duals of a solved GLPK problem as multipliers of the normalised rows. GLPK's dual of a
   row is d(objective)/d(rhs): >= 0 on an active <= row of a maximisation, <= 0 on a >= row. */
static void normal_duals(const pq_lp_model *m, glp_prob *P, double *dual) {
  for (int i = 0; i < m->rows; i++) {
    double d = glp_get_row_dual(P, i + 1);
    dual[i] = m->row[i].sense == PQ_LP_GE ? -d : d;
  }
}

/* Farkas multipliers of an infeasible relaxation: the duals of the phase-one LP
   max -sum(s) s.t. a_i x - s_i <= b_i (the slack's sign following the row's sense), whose
   optimum is negative exactly when the relaxation is infeasible. Returns false on failure. */
static bool farkas_duals(const pq_lp_model *m, const int *fix, double *dual) {
  glp_prob *P = build(m, fix);
  for (int j = 1; j <= m->cols; j++)
    glp_set_obj_coef(P, j, 0);
  for (int i = 0; i < m->rows; i++) {
    pq_lp_sense sense = m->row[i].sense;
    for (int side = 0; side < 2; side++) {
      if (side == 1 && sense != PQ_LP_EQ) break;
      int j = glp_add_cols(P, 1);
      int ind[2] = {0, i + 1};
      double val[2] = {0, (sense == PQ_LP_GE || side == 1) ? 1.0 : -1.0};
      glp_set_col_bnds(P, j, GLP_LO, 0, 0);
      glp_set_obj_coef(P, j, -1);
      glp_set_mat_col(P, j, 1, ind, val);
    }
  }
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  bool ok =
      glp_simplex(P, &parm) == 0 && glp_get_status(P) == GLP_OPT && glp_get_obj_val(P) < -1e-9;
  if (ok) normal_duals(m, P, dual);
  glp_delete_prob(P);
  return ok;
}

pq_status pq_lp_bound(const pq_lp_model *m, const int *fix, pq_lp_cert *c, int64_t *bound) {
  PQ_REQUIRE(c->rows == m->rows && c->cols == m->cols && c->y && c->z,
             "certificate not initialised for model %s", m->name);
  require_fix(m, fix);
  pq_status rc = PQ_ELIMIT;
  double *dual = pq_calloc((size_t)m->rows + 1, sizeof *dual);
  glpk_out out;
  glpk_begin(&out, false);
  glp_prob *P = build(m, fix);
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  int ret = glp_simplex(P, &parm);
  int status = ret == 0 ? glp_get_status(P) : GLP_UNDEF;
  if (status == GLP_OPT) {
    /* Duals are often fractions with small denominators: a scale D that clears them gives
       the exact LP bound with small numbers. Try such scales first, keep the best. */
    static const int64_t scales[] = {1,    2,     3,      4,       5,         6,
                                     8,    12,    24,     60,      120,       840,
                                     2520, 27720, 720720, 1 << 20, 1LL << 26, 1LL << 32};
    double value = glp_get_obj_val(P);
    int64_t want = (int64_t)floor(value + 1e-7), best = INT64_MAX, b;
    int64_t best_scale = 0;
    normal_duals(m, P, dual);
    for (size_t t = 0; t < sizeof scales / sizeof *scales && best > want; t++)
      if (round_cert(m, fix, dual, 1, scales[t], c, &b) && b < best) {
        best = b;
        best_scale = scales[t];
      }
    if (best_scale) {
      round_cert(m, fix, dual, 1, best_scale, c, bound);
      rc = PQ_OK;
    }
  } else if (status == GLP_NOFEAS) {
    /* Scaled up far enough, Farkas multipliers drive the bound below anything possible. */
    int64_t least = box_minimum(m, fix), b;
    if (farkas_duals(m, fix, dual))
      for (double factor = 1; factor < 0x1p40; factor *= 2)
        if (round_cert(m, fix, dual, factor, 1, c, &b) && b < least) {
          *bound = b;
          rc = PQ_OK;
          break;
        }
  }
  if (rc != PQ_OK)
    pq_error("GLPK could not bound model %s (glp_simplex returned %d, status %d)", m->name, ret,
             status);
  glp_delete_prob(P);
  glpk_end();
  free(dual);
  if (rc == PQ_OK) {
    int64_t checked = 0;
    char why[200];
    PQ_REQUIRE(pq_lp_check_bound(m, fix, c, &checked, why, sizeof why) == PQ_OK &&
                   checked == *bound,
               "model %s: certificate made does not check: %s", m->name, why);
  }
  return rc;
}

/* ---- files ---- */

static int compare_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names must be unique for a file to mean the model; checked here rather than on every add. */
static void require_unique_names(const pq_lp_model *m) {
  int n = m->cols > m->rows ? m->cols : m->rows;
  const char **names = pq_malloc(((size_t)n + 1) * sizeof *names);
  for (int pass = 0; pass < 2; pass++) {
    int count = pass ? m->rows : m->cols;
    for (int k = 0; k < count; k++)
      names[k] = pass ? m->row[k].name : m->col[k].name;
    qsort(names, (size_t)count, sizeof *names, compare_names);
    for (int k = 1; k < count; k++)
      PQ_REQUIRE(strcmp(names[k - 1], names[k]), "model %s: %s name %s used twice", m->name,
                 pass ? "row" : "column", names[k]);
  }
  free(names);
}

/* Puts a comment line first in the MPS file at path: the format cannot say "maximise", and
   an OBJSENSE section would stop GLPK from reading the file. */
static pq_status mark_maximised(const char *path) {
  pq_status rc = PQ_EIO;
  char *text = NULL;
  size_t len = 0;
  FILE *f = fopen(path, "rb");
  if (!f) goto done;
  for (;;) {
    text = pq_realloc(text, len + 65536);
    size_t got = fread(text + len, 1, 65536, f);
    len += got;
    if (got < 65536) break;
  }
  bool read_ok = !ferror(f);
  fclose(f);
  if (!read_ok || !(f = fopen(path, "wb"))) goto done;
  fputs("* Objective sense: MAXIMIZE (peaceable)\n", f);
  fwrite(text, 1, len, f);
  if (fclose(f) == 0) rc = PQ_OK;
done:
  if (rc != PQ_OK) pq_error("%s: cannot write: %s", path, strerror(errno));
  free(text);
  return rc;
}

/* "-": GLPK writes to a file name, so the model goes through a temporary file. */
static pq_status write_to_stdout(const pq_lp_model *m, const int *fix, pq_lp_format format) {
  const char *dir = getenv("TMPDIR");
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s/peaceable-model.XXXXXX", dir && *dir ? dir : "/tmp");
  int fd = mkstemp(tmp);
  if (fd < 0) {
    pq_error("%s: cannot write: %s", pq_output_name("-"), strerror(errno));
    return PQ_EIO;
  }
  close(fd);
  pq_status rc = pq_lp_write(m, fix, format, tmp);
  FILE *f = rc == PQ_OK ? fopen(tmp, "r") : NULL, *out = f ? pq_open_output("-") : NULL;
  bool failed = rc == PQ_OK && !out;
  if (out) {
    char buf[65536];
    for (size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0;)
      failed |= fwrite(buf, 1, n, out) != n;
    failed |= fclose(out) != 0;
  }
  if (f) fclose(f);
  if (failed) {
    pq_error("%s: cannot write: %s", pq_output_name("-"), strerror(errno));
    rc = PQ_EIO;
  }
  remove(tmp);
  return rc;
}

pq_status pq_lp_write(const pq_lp_model *m, const int *fix, pq_lp_format format, const char *path) {
  require_fix(m, fix);
  require_unique_names(m);
  if (pq_discard_outputs) return PQ_OK;
  if (!strcmp(path, "-")) return write_to_stdout(m, fix, format);
  /* Open it first ourselves: GLPK's own message would be silenced, and errno is ours here. */
  FILE *f = fopen(path, "w");
  if (!f) {
    pq_error("%s: cannot write: %s", path, strerror(errno));
    return PQ_EIO;
  }
  fclose(f);
  glpk_out out;
  glpk_begin(&out, false);
  glp_prob *P = build(m, fix);
  int ret = format == PQ_LP_CPLEX ? glp_write_lp(P, NULL, path)
                                  : glp_write_mps(P, GLP_MPS_FILE, NULL, path);
  if (ret) {
    /* GLPK says "Write error on 'PATH' - REASON": the reason alone, as for every file. */
    const char *line = glpk_last_line(&out), *dash = strstr(line, "' - ");
    pq_error("%s: cannot write: %s", path,
             dash && !strncmp(line, "Write error on '", 16) ? dash + 4 : line);
  }
  glp_delete_prob(P);
  glpk_end();
  if (ret) return PQ_EIO;
  return format == PQ_LP_MPS ? mark_maximised(path) : PQ_OK;
}

/* The integer value of d in [lo, hi], or false. */
static bool integral(double d, double lo, double hi, int *out) {
  if (!(d >= lo && d <= hi) || d != floor(d)) return false;
  *out = (int)d;
  return true;
}

/* Converts GLPK's problem into a model; on refusal writes a reason into why. */
static pq_lp_model *from_glpk(glp_prob *P, pq_lp_format format, char *why, size_t why_len) {
  const char *name = glp_get_prob_name(P);
  pq_lp_model *m = pq_lp_new(name && name_ok(name) ? name : "model");
  int cols = glp_get_num_cols(P), rows = glp_get_num_rows(P);
  int *fixed_at = pq_calloc((size_t)cols + 1, sizeof *fixed_at);
  int *ind = pq_malloc(((size_t)cols + 1) * sizeof *ind);
  double *val = pq_malloc(((size_t)cols + 1) * sizeof *val);
  int *col = pq_malloc(((size_t)cols + 1) * sizeof *col);
  int *coef = pq_malloc(((size_t)cols + 1) * sizeof *coef);
  bool ok = false;
  if (format == PQ_LP_CPLEX && glp_get_obj_dir(P) != GLP_MAX) {
    snprintf(why, why_len, "the objective is minimised");
    goto done;
  }
  if (glp_get_obj_coef(P, 0) != 0) {
    snprintf(why, why_len, "the objective has a constant term");
    goto done;
  }
  for (int j = 1; j <= cols; j++) {
    const char *cn = glp_get_col_name(P, j);
    int type = glp_get_col_type(P, j), upper = 0, objective;
    double lb = glp_get_col_lb(P, j), ub = glp_get_col_ub(P, j);
    if (!cn || !name_ok(cn)) {
      snprintf(why, why_len, "column %d has no name of letters, digits and _", j);
      goto done;
    }
    if (glp_get_col_kind(P, j) == GLP_CV) {
      snprintf(why, why_len, "column %s is not integer", cn);
      goto done;
    }
    bool bounded = (type == GLP_DB && lb == 0) || type == GLP_FX;
    if (!bounded || !integral(ub, 0, INT_MAX, &upper) || (type == GLP_FX && lb != ub)) {
      snprintf(why, why_len, "column %s: bounds are not 0 <= x <= integer", cn);
      goto done;
    }
    if (!integral(glp_get_obj_coef(P, j), INT_MIN, INT_MAX, &objective)) {
      snprintf(why, why_len, "column %s: objective coefficient is not an integer", cn);
      goto done;
    }
    fixed_at[j] = type == GLP_FX ? upper : 0;
    pq_lp_add_col(m, cn, upper, objective);
  }
  for (int i = 1; i <= rows; i++) {
    const char *rn = glp_get_row_name(P, i);
    int type = glp_get_row_type(P, i), rhs, n = glp_get_mat_row(P, i, ind, val);
    if (!rn || !name_ok(rn)) {
      snprintf(why, why_len, "row %d has no name of letters, digits and _", i);
      goto done;
    }
    pq_lp_sense sense = type == GLP_UP ? PQ_LP_LE : type == GLP_LO ? PQ_LP_GE : PQ_LP_EQ;
    double b = type == GLP_UP ? glp_get_row_ub(P, i) : glp_get_row_lb(P, i);
    if ((type != GLP_UP && type != GLP_LO && type != GLP_FX) || n < 1 ||
        !integral(b, INT_MIN, INT_MAX, &rhs)) {
      snprintf(why, why_len, "row %s is not one non-empty <=, >= or = row with integer data", rn);
      goto done;
    }
    for (int k = 1; k <= n; k++) {
      col[k - 1] = ind[k] - 1;
      if (!integral(val[k], INT_MIN, INT_MAX, &coef[k - 1]) || coef[k - 1] == 0) {
        snprintf(why, why_len, "row %s has a coefficient that is not a nonzero integer", rn);
        goto done;
      }
    }
    pq_lp_add_row(m, rn, sense, rhs, n, col, coef);
  }
  for (int j = 1; j <= cols; j++)
    if (fixed_at[j] > 0) {
      char rn[NAME_MAX_LEN + 8];
      snprintf(rn, sizeof rn, "fix_%s", m->col[j - 1].name);
      int one = 1, c = j - 1;
      if (!name_ok(rn)) snprintf(rn, sizeof rn, "fix_%d", j);
      pq_lp_add_row(m, rn, PQ_LP_GE, fixed_at[j], 1, &c, &one);
    }
  ok = true;
done:
  free(fixed_at);
  free(ind);
  free(val);
  free(col);
  free(coef);
  if (!ok) {
    pq_lp_free(m);
    m = NULL;
  }
  return m;
}

pq_status pq_lp_read(const char *path, pq_lp_format format, pq_lp_model **out) {
  *out = NULL;
  FILE *f = fopen(path, "r");
  if (!f) {
    pq_error("cannot read %s: %s", path, strerror(errno));
    return PQ_EIO;
  }
  fclose(f);
  glpk_out o;
  glpk_begin(&o, false);
  glp_prob *P = glp_create_prob();
  pq_status rc = PQ_OK;
  int ret = format == PQ_LP_CPLEX ? glp_read_lp(P, NULL, path)
                                  : glp_read_mps(P, GLP_MPS_FILE, NULL, path);
  if (ret) {
    pq_error("%s: not a %s file GLPK can read: %s", path,
             format == PQ_LP_CPLEX ? "CPLEX LP" : "free MPS", glpk_last_line(&o));
    rc = PQ_EIO;
  } else {
    char why[200] = "";
    *out = from_glpk(P, format, why, sizeof why);
    if (!*out) {
      pq_error("%s: not an integer program peaceable can use: %s", path, why);
      rc = PQ_EINVAL;
    }
  }
  glp_delete_prob(P);
  glpk_end();
  return rc;
}
