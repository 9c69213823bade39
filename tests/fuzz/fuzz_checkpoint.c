/* fuzz_checkpoint.c: libFuzzer target for checkpoints (--resume FILE) of armies, qn and pieces.
   Input: a byte, then the checkpoint. The byte's top three bits choose the problem: 0 and 7
   armies, 1 to 3 qn, 4 to 6 pieces.

   armies: pq_armies_resume_read (the head of a checkpoint) and pq_armies_task_run with --resume
   (the list of finished parts and their proof trees), as `armies --resume FILE` uses them; for
   knights, the bounds learnt (taken into the process's record, where they stay for the next
   inputs) and a decision with them, whose proof fails with one message when they do not hold.
   The low bits choose the board (0-1), the piece (2-3: queen, rook, bishop, knight) and whether
   proofs are kept (4). The search after a resume is bounded by a node limit.

   qn and pieces: the command itself, as `peaceable qn|pieces ... --resume FILE --json` runs it,
   on one of eight small instances (bits 0-2), with a node limit or none (bits 3-4), and (the top
   bits, 1 to 3 or 4 to 6) without --checkpoint, with --checkpoint to another file, or with
   --checkpoint to the resumed file itself, as tests/qn_parts.sh does. Contracts: a refusal is
   status 2, one message, nothing on stdout and no checkpoint written; an answer prints one line
   on stdout and nothing on stderr; a limit prints one message and claims nothing unproven. A
   checkpoint's witness is checked by the program, its other facts are taken on trust: the
   finished parts' counts, the parts searched without a witness, the size proven not to fit. When
   every fact the input states is true (the target knows them: it counts each part of each size
   once per instance), the answer must be that of an uninterrupted run, or an honest limit; and a
   checkpoint the run writes must resume to the same answer. Witnesses printed are always
   checked. */
#define _GNU_SOURCE
#include <ctype.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../problems/armies/armies_parts.h"
#include "../../problems/qn/qn.h"
#include "../../src/cli/problem.h"
#include "../../src/core/json.h"
#include "../../src/run/engine.h"
#include "fuzz.h"

extern const pq_problem pq_problem_qn, pq_problem_pieces;

/* ---- armies ---- */

static const int sides[4][2] = {{3, 3}, {4, 4}, {5, 5}, {4, 3}};
static const pq_piece pieces[4] = {PQ_QUEEN, PQ_ROOK, PQ_BISHOP, PQ_KNIGHT};

static int file = -1;
static char path[64];
static pq_board *boards[4];
static pq_armies *problems[4][4];

static void armies_one(const uint8_t *data, size_t size) {
  int bi = data[0] & 3, pi = (data[0] >> 2) & 3;
  bool proof = data[0] & 16;
  if (file < 0) {
    file = memfd_create("checkpoint", 0);
    if (file < 0) fuzz_fail("memfd_create failed");
    snprintf(path, sizeof path, "/proc/self/fd/%d", file);
  }
  /* The input is sealed (its digest, if any, replaced), so that its edits reach the checks
     behind the digest. */
  const char *text = (const char *)data + 1,
             *key = size > 1 ? memmem(text, size - 1, ",\"digest\":\"", 11) : NULL;
  char *sealed = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&sealed, &len);
  pq_engine_seal(m, text, key ? (size_t)(key - text) : size - 1);
  fclose(m);
  bool written = ftruncate(file, 0) == 0 && pwrite(file, sealed, len, 0) == (ssize_t)len;
  free(sealed);
  if (!written) fuzz_fail("writing the memory file failed");
  if (!boards[bi]) boards[bi] = pq_board_new(sides[bi][0], sides[bi][1]);
  if (!problems[bi][pi]) problems[bi][pi] = pq_armies_new(boards[bi], pieces[pi]);

  pq_armies_resume_info info = {0};
  fuzz_capture c;
  fuzz_capture_begin(&c);
  pq_status rc = pq_armies_resume_read(path, boards[bi], pieces[pi], &info);
  fuzz_capture_end(&c);
  fuzz_check_parser("pq_armies_resume_read", rc, &c);
  fuzz_capture_free(&c);
  if (rc != PQ_OK) return;
  if (info.counting) {
    /* A count's (or a listing's) head: no decision in progress; at the maximum, its witness. */
    if (info.white != -1 || info.black != -1 || info.best != info.maximum ||
        (info.maximum >= 0) != (info.best_witness != NULL))
      fuzz_fail("resume: a count's head accepted as white %d, black %d, best %d, maximum %d",
                info.white, info.black, info.best, info.maximum);
    free(info.best_witness);
    return;
  }
  bool knights = pieces[pi] == PQ_KNIGHT;
  if ((knights ? info.white != -1 || info.black != -1
               : info.white < 0 || info.white > PQ_MAX_SQUARES || info.black < 0 ||
                     info.black > PQ_MAX_SQUARES) ||
      info.best < -1 || (info.best >= 0 && !info.best_witness))
    fuzz_fail("resume: accepted white %d, black %d, best %d", info.white, info.black, info.best);

  pq_armies_params params;
  pq_armies_params_init(&params);
  params.jobs = 1;
  params.node_limit = 5000;
  params.proof = proof;
  pq_armies_decision d;
  fuzz_capture_begin(&c);
  if (knights) {
    /* One more than fits (3x3: 3, 4x4: 6, 5x5: 10, 4x3: 5 knights a side): with proof, the
       bounds taken are proven again. */
    static const int over[4] = {4, 7, 11, 6};
    rc = pq_armies_decide(problems[bi][pi], over[bi], over[bi], &params, &d);
  } else {
    pq_armies_task task = {.armies = problems[bi][pi],
                           .board = boards[bi],
                           .white = info.white,
                           .black = info.black,
                           .params = &params,
                           .depth = PQ_ARMIES_SPLIT_DEPTH,
                           .resume = path,
                           .best = info.best,
                           .best_witness = info.best_witness};
    rc = pq_armies_task_run(&task, &d);
  }
  fuzz_capture_end(&c);
  /* An answer or a limit says nothing; a refusal says one message. */
  const char *what = knights ? "knights after --resume" : "pq_armies_task_run --resume";
  if (rc == PQ_OK || rc == PQ_ELIMIT) {
    if (c.out_len || c.err_len) fuzz_fail("%s: printed \"%.200s%.200s\"", what, c.out, c.err);
  } else {
    fuzz_check_parser(what, rc, &c);
  }
  fuzz_capture_free(&c);
  pq_armies_decision_clear(&d);
  free(info.best_witness);
}

/* ---- files and runs of the command ---- */

/* A directory of our own for the files the commands read and write (pq_write_atomic renames a
   temporary file beside its path, so these are real files, not memory files). */
static char dir[64], in_path[96], out_path[96], ref_path[96];

static void remove_dir(void) {
  unlink(in_path);
  unlink(out_path);
  unlink(ref_path);
  rmdir(dir);
}

static void files_init(void) {
  if (dir[0]) return;
  snprintf(dir, sizeof dir, "%s/fuzz-checkpoint.XXXXXX",
           access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
  if (!mkdtemp(dir)) fuzz_fail("mkdtemp failed");
  snprintf(in_path, sizeof in_path, "%s/in", dir);
  snprintf(out_path, sizeof out_path, "%s/out", dir);
  snprintf(ref_path, sizeof ref_path, "%s/ref", dir);
  atexit(remove_dir);
}

static void write_file(const char *p, const uint8_t *data, size_t size) {
  int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size) || close(fd))
    fuzz_fail("writing %s failed", p);
}

/* The file's bytes (caller frees), or NULL when it does not exist. */
static char *read_whole(const char *p, size_t *len) {
  FILE *f = fopen(p, "rb");
  if (!f) return NULL;
  char *text = NULL;
  *len = 0;
  FILE *m = open_memstream(&text, len);
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0)
    fwrite(buf, 1, n, m);
  fclose(f);
  fclose(m);
  return text;
}

static pq_status run_command(const pq_problem *p, const pq_options *o, fuzz_capture *c) {
  pq_options values = *o; /* (its texts filled here: their values read as the command line's) */
  if (pq_options_values(&values)) fuzz_fail("%s: its options are refused", p->name);
  fuzz_capture_begin(c);
  pq_status rc = p->run(&values);
  fuzz_capture_end(c);
  return rc;
}

/* The one JSON line an answer prints on stdout (caller frees), or a broken contract. */
static pq_json *answer_line(const char *what, const fuzz_capture *c) {
  char err[160];
  const char *nl = memchr(c->out, '\n', c->out_len);
  if (!nl || (size_t)(nl - c->out) + 1 != c->out_len)
    fuzz_fail("%s: the answer is not one line: \"%.300s\"", what, c->out);
  pq_json *doc = pq_json_parse(c->out, c->out_len, err);
  if (!doc || doc->type != PQ_JSON_OBJECT)
    fuzz_fail("%s: the answer is not a JSON object (%s): \"%.300s\"", what, err, c->out);
  return doc;
}

/* A limit or a signal: one message, and stdout empty or one line (checked by the caller). */
static void check_stopped(const char *what, const fuzz_capture *c) {
  if (c->messages != 1 || c->err_len != c->message_bytes)
    fuzz_fail("%s: stopped with %d messages: \"%.400s\"", what, c->messages, c->err);
}

/* Parses a whole decimal number below 2^128; returns 0 or -1. */
static int parse_u128(const pq_json *v, pq_count *out) {
  if (!v || v->type != PQ_JSON_NUMBER || !*v->string) return -1;
  pq_count n = 0;
  for (const char *s = v->string; *s; s++) {
    if (*s < '0' || *s > '9' || n > (PQ_COUNT_MAX - (pq_count)(*s - '0')) / 10) return -1;
    n = n * 10 + (pq_count)(*s - '0');
  }
  *out = n;
  return 0;
}

/* Whether the members key of two answers are the same (both absent, or of one type and, for
   numbers and strings, one text). */
static bool same_member(const pq_json *a, const pq_json *b, const char *key) {
  const pq_json *x = pq_json_get(a, key), *y = pq_json_get(b, key);
  if (!x || !y) return !x && !y;
  if (x->type != y->type) return false;
  return (x->type != PQ_JSON_NUMBER && x->type != PQ_JSON_STRING) || !strcmp(x->string, y->string);
}

/* ---- qn ---- */

typedef struct qn_case {
  const char *board, *kinds, *ratio, *size; /* size NULL: the maximum */
  bool count;
} qn_case;

static const qn_case qn_cases[8] = {
    {"6", "QN", "1:1", NULL, false},   /* maximum 3; a limit stops in the decision of 4 */
    {"8", "QN", "1:1", NULL, false},   /* maximum 5 */
    {"6", "QN", "1:1", "3", true},     /* 176 placements, 52 parts */
    {"7", "QN", "1:1", "3", true},     /* 21960 placements, 113 parts */
    {"7", "QN", "1:1", "5", false},    /* does not fit */
    {"5x7", "QN", "1:1", NULL, true},  /* the maximum's count */
    {"6x5", "NK", "1:2", NULL, false}, /* maximum 3, the second kind twice the first */
    {"6", "RB", "2:1", "2", false},    /* fits */
};
static const char *const qn_limits[4] = {NULL, "20", "300", "5000"};

/* What the target knows of an instance: the uninterrupted run's answer, the maximum, and each
   part's count at each size asked about. */
typedef struct qn_truth {
  pq_board *board;
  pq_qn *q;
  pq_piece first, second;
  int ratio_a, ratio_b;
  int max;        /* the largest size that fits */
  pq_json *whole; /* the uninterrupted run's answer */
  uint64_t parts[PQ_MAX_SQUARES + 1];
  pq_count *outcome[PQ_MAX_SQUARES + 1]; /* [parts[m]]: each part's count, once known */
  pq_count *unique[PQ_MAX_SQUARES + 1];  /* [parts[m]]: each part's share of the classes */
} qn_truth;

static qn_truth qn_known[8];

static void qn_options(const qn_case *k, pq_options *o) {
  memset(o, 0, sizeof *o);
  o->problem = "qn";
  o->board = k->board;
  o->kinds = k->kinds;
  o->ratio = k->ratio;
  o->size = k->size;
  o->count = k->count ? "count" : NULL;
  o->method = "search";
  o->jobs = "1";
  o->json = "json";
  o->quiet = "quiet";
}

static qn_truth *qn_truth_of(int i) {
  qn_truth *t = &qn_known[i];
  if (t->board) return t;
  const qn_case *k = &qn_cases[i];
  int w, h;
  if (sscanf(k->board, "%dx%d", &w, &h) != 2) w = h = atoi(k->board);
  t->board = pq_board_new(w, h);
  t->first = (pq_piece)pq_piece_from_letter(k->kinds[0]);
  t->second = (pq_piece)pq_piece_from_letter(k->kinds[1]);
  t->ratio_a = k->ratio[0] - '0';
  t->ratio_b = k->ratio[2] - '0';
  t->q = pq_qn_new(t->board, t->first, t->second, t->ratio_a, t->ratio_b);
  pq_options o;
  qn_case maximum = *k;
  maximum.size = NULL;
  maximum.count = false;
  qn_options(&maximum, &o);
  fuzz_capture c;
  if (run_command(&pq_problem_qn, &o, &c) != PQ_OK || c.err_len)
    fuzz_fail("qn case %d: the maximum fails: %.300s", i, c.err);
  pq_json *doc = answer_line("qn maximum", &c);
  long max;
  if (pq_json_get_long(doc, "size", 0, PQ_MAX_SQUARES, &max))
    fuzz_fail("qn case %d: no maximum", i);
  t->max = (int)max;
  pq_json_free(doc);
  fuzz_capture_free(&c);
  qn_options(k, &o);
  if (run_command(&pq_problem_qn, &o, &c) != PQ_OK || c.err_len)
    fuzz_fail("qn case %d: the uninterrupted run fails: %.300s", i, c.err);
  t->whole = answer_line("qn whole run", &c);
  fuzz_capture_free(&c);
  return t;
}

/* Each part's count at size m >= 1 (every part searched to the end): read from the checkpoint
   of a whole count, the engine's list of finished parts. */
static const pq_count *qn_parts_at(qn_truth *t, int m, uint64_t *n) {
  if (!t->outcome[m]) {
    uint64_t id, parts = pq_qn_parts(t->q, m, &id, NULL);
    t->parts[m] = parts ? parts : 1;
    t->outcome[m] = pq_calloc((size_t)t->parts[m] + 1, sizeof *t->outcome[m]);
    t->unique[m] = pq_calloc((size_t)t->parts[m] + 1, sizeof *t->unique[m]);
    char truth_path[64];
    snprintf(truth_path, sizeof truth_path, "/tmp/fuzz-qn-truth-%d", (int)getpid());
    pq_qn_limits l;
    pq_qn_limits_init(&l);
    l.run.checkpoint = truth_path;
    pq_qn_count_result res;
    if (pq_qn_count(t->q, m, &l, NULL, false, NULL, &res) != PQ_OK)
      fuzz_fail("qn: counting size %d by parts failed", m);
    size_t len;
    char *text = read_whole(truth_path, &len), err[160];
    unlink(truth_path);
    pq_json *doc = text ? pq_json_parse(text, len, err) : NULL;
    const pq_json *done = pq_json_get(doc, "done");
    if (!done || done->type != PQ_JSON_ARRAY || done->length != t->parts[m])
      fuzz_fail("qn: the checkpoint of a whole count of size %d lacks parts", m);
    for (size_t i = 0; i < done->length; i++) {
      const pq_json *e = done->items[i];
      pq_count index;
      if (e->type != PQ_JSON_ARRAY || e->length < 3 || parse_u128(e->items[0], &index) ||
          index >= t->parts[m] ||
          parse_u128(pq_json_get(e->items[1], "count"), &t->outcome[m][index]) ||
          parse_u128(pq_json_get(e->items[1], "unique"), &t->unique[m][index]))
        fuzz_fail("qn: a malformed part in the checkpoint of a whole count of size %d", m);
    }
    pq_json_free(doc);
    free(text);
  }
  *n = t->parts[m];
  return t->outcome[m];
}

/* Whether every fact doc states is true, as far as the target can tell (false when unsure):
   the size proven not to fit, and the finished parts of the work in progress (an engine
   checkpoint: a split, the size and whether it counts, the list of finished parts). Witnesses
   are the program's to check. */
static bool qn_facts_true(qn_truth *t, const pq_json *doc) {
  int squares = t->board->squares;
  long infeasible, at;
  if (pq_json_get_long(doc, "infeasible", -1, squares, &infeasible)) return false;
  if (infeasible >= 0 && infeasible <= t->max) return false;
  if (!pq_json_get(doc, "split")) return true;
  const pq_json *counting = pq_json_get(doc, "counting");
  if (pq_json_get_long(doc, "size", 1, squares, &at) || at * (t->ratio_a + t->ratio_b) > squares ||
      !counting || (counting->type != PQ_JSON_TRUE && counting->type != PQ_JSON_FALSE))
    return false;
  const pq_json *list = pq_json_get(doc, "done");
  if (!list || list->type != PQ_JSON_ARRAY) return false;
  uint64_t n;
  const pq_count *truth = qn_parts_at(t, (int)at, &n);
  const pq_count *unique_truth = t->unique[at];
  for (size_t i = 0; i < list->length; i++) {
    const pq_json *e = list->items[i];
    pq_count index, count, unique;
    if (e->type != PQ_JSON_ARRAY || e->length < 3 || parse_u128(e->items[0], &index) ||
        index >= n || e->items[1]->type != PQ_JSON_OBJECT)
      return false;
    const pq_json *o = e->items[1], *found = pq_json_get(o, "found");
    if (counting->type == PQ_JSON_FALSE) {
      /* A part without a witness holds no placement; one with a witness gives it. */
      if (!found || (found->type == PQ_JSON_FALSE
                         ? truth[index] != 0 || e->length != 3
                         : found->type != PQ_JSON_TRUE || truth[index] == 0 || e->length != 4))
        return false;
    } else if (parse_u128(pq_json_get(o, "count"), &count) ||
               parse_u128(pq_json_get(o, "unique"), &unique) || count != truth[index] ||
               unique != unique_truth[index] || e->length != 3) {
      return false;
    }
  }
  return true;
}

/* Checks the witness of an answer, of its size: a string, absent exactly when the answer is that
   no placement of the size fits ("feasible":false; doc/json.md, "The rules") or is a count at
   --size K (which has none, as armies' counts there). */
static void qn_check_witness(const qn_truth *t, const pq_json *answer, const char *what) {
  const pq_json *w = pq_json_get(answer, "witness");
  long size;
  if (pq_json_get_long(answer, "size", 0, PQ_MAX_SQUARES, &size))
    fuzz_fail("%s: an answer without a size", what);
  bool none = pq_json_get_bool(answer, "feasible") == 0 ||
              (pq_json_get(answer, "feasible") && pq_json_get(answer, "count"));
  if (none != !w) fuzz_fail("%s: a witness in an answer of none, or none in one of a size", what);
  if (!w) return;
  if (w->type != PQ_JSON_STRING) fuzz_fail("%s: a witness that is not a string", what);
  const pq_board *b = t->board;
  uint8_t cells[PQ_MAX_SQUARES];
  int s = 0, column = 0;
  for (const char *p = w->string;; p++) {
    if (*p == '/' || !*p) {
      if (column != b->width) fuzz_fail("%s: witness \"%s\": a row is not full", what, w->string);
      if (!*p) break;
      column = 0;
      continue;
    }
    if (s == b->squares || column == b->width)
      fuzz_fail("%s: witness \"%s\" is too long", what, w->string);
    cells[s++] = *p == '.'                           ? 0
                 : *p == pq_piece_letters[t->first]  ? 1
                 : *p == pq_piece_letters[t->second] ? 2
                                                     : 3;
    column++;
  }
  if (s != b->squares ||
      !pq_qn_placement_ok(b, t->first, t->second, t->ratio_a, t->ratio_b, cells, (int)size))
    fuzz_fail("%s: witness \"%s\" is not a placement of size %ld", what, w->string, size);
}

/* Checks one run's outcome: statuses and messages always, witnesses always, and, when the facts
   it was given are true, the answer against the uninterrupted run's. */
static void qn_check(qn_truth *t, pq_status rc, const fuzz_capture *c, bool facts, bool limited,
                     const char *what) {
  if (rc == PQ_EINVAL) {
    fuzz_check_parser(what, rc, c);
    return;
  }
  if (rc == PQ_OK) {
    if (c->err_len) fuzz_fail("%s: an answer with a message: \"%.300s\"", what, c->err);
    pq_json *a = answer_line(what, c);
    qn_check_witness(t, a, what);
    if (facts) {
      static const char *const keys[] = {"problem",  "board", "size",  "optimal",
                                         "feasible", "count", "unique"};
      for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (!same_member(a, t->whole, keys[i]))
          fuzz_fail("%s: \"%s\" differs from an uninterrupted run's: \"%.300s\"", what, keys[i],
                    c->out);
      if (!pq_json_get(a, "witness") != !pq_json_get(t->whole, "witness"))
        fuzz_fail("%s: a witness where an uninterrupted run has none, or the reverse", what);
    }
    pq_json_free(a);
    return;
  }
  if (rc != PQ_ELIMIT) fuzz_fail("%s: unexpected status %d", what, (int)rc);
  check_stopped(what, c);
  if (!limited && facts) fuzz_fail("%s: a limit in a run without one: \"%.300s\"", what, c->err);
  if (!c->out_len) return;
  /* What is printed must hold: a size found (or the maximum, when proven), never a count. */
  pq_json *a = answer_line(what, c);
  qn_check_witness(t, a, what);
  long size;
  pq_json_get_long(a, "size", 0, PQ_MAX_SQUARES, &size);
  const pq_json *optimal = pq_json_get(a, "optimal");
  if (pq_json_get(a, "count")) fuzz_fail("%s: a count after a limit: \"%.300s\"", what, c->out);
  if (facts && ((optimal && optimal->type == PQ_JSON_TRUE && size != t->max) || size > t->max ||
                !same_member(a, t->whole, "feasible")))
    fuzz_fail("%s: after a limit, claims more than is true: \"%.300s\"", what, c->out);
  pq_json_free(a);
}

static void qn_one(const uint8_t *data, size_t size) {
  int mode = (data[0] >> 5) - 1; /* 0: no --checkpoint; 1: another file; 2: the same file */
  qn_truth *t = qn_truth_of(data[0] & 7);
  const qn_case *k = &qn_cases[data[0] & 7];
  write_file(in_path, data + 1, size - 1);
  unlink(out_path);

  /* The facts the input states, read as the program would read them. */
  char err[160];
  pq_json *doc = pq_json_parse((const char *)data + 1, size - 1, err);
  bool facts = doc && qn_facts_true(t, doc);
  pq_json_free(doc);

  pq_options o;
  qn_options(k, &o);
  o.node_limit = qn_limits[(data[0] >> 3) & 3];
  o.resume = in_path;
  o.checkpoint = mode == 1 ? out_path : mode == 2 ? in_path : NULL;
  fuzz_capture c;
  pq_status rc = run_command(&pq_problem_qn, &o, &c);
  qn_check(t, rc, &c, facts, o.node_limit != NULL, "qn --resume");
  fuzz_capture_free(&c);
  if (!o.checkpoint) return;
  size_t len;
  char *written = read_whole(o.checkpoint, &len);
  if (rc == PQ_EINVAL) {
    /* A refusal leaves the files as they were. */
    if (mode == 1 && written) fuzz_fail("qn: a refused resume wrote a checkpoint");
    if (mode == 2 && (!written || len != size - 1 || memcmp(written, data + 1, len)))
      fuzz_fail("qn: a refused resume changed the checkpoint it read");
    free(written);
    return;
  }
  bool wrote = written != NULL;
  free(written);
  if (!wrote) return;
  /* The checkpoint written resumes, without limits, to the answer of an uninterrupted run. */
  qn_options(k, &o);
  o.resume = mode == 1 ? out_path : in_path;
  rc = run_command(&pq_problem_qn, &o, &c);
  if (facts && rc != PQ_OK)
    fuzz_fail("qn: the checkpoint written does not resume (status %d): \"%.300s\"", (int)rc, c.err);
  qn_check(t, rc, &c, facts, false, "qn --resume of the checkpoint written");
  fuzz_capture_free(&c);
}

/* ---- pieces ---- */

typedef struct pieces_case {
  const char *board, *pieces;
  bool unique;
} pieces_case;

static const pieces_case pieces_cases[8] = {
    {"4", "K2Q1", false},  {"4", "K2Q1", true}, {"5", "K2Q1B1", false}, {"5", "K2Q1B1", true},
    {"5x4", "Q2N2", true}, {"5", "Q5", true},   {"6", "Q3N3", false},   {"6", "Q3N3", true},
};
static const char *const pieces_limits[4] = {NULL, "1", "20", "300"};

/* The uninterrupted run's answer and each part's outcome (from its final checkpoint). */
typedef struct pieces_truth {
  char *whole;
  uint64_t parts;
  pq_count *count, *fixed;
} pieces_truth;

/* Reads a part's outcome {"count":N} or {"count":N,"fixed":M} (M 0 when absent): 0 or -1. */
static int pieces_outcome(const pq_json *v, pq_count *count, pq_count *fixed) {
  *fixed = 0;
  const pq_json *f = pq_json_get(v, "fixed");
  return !v || v->type != PQ_JSON_OBJECT || parse_u128(pq_json_get(v, "count"), count) ||
                 (f && parse_u128(f, fixed))
             ? -1
             : 0;
}

static pieces_truth pieces_known[8];

static void pieces_options(const pieces_case *k, pq_options *o) {
  memset(o, 0, sizeof *o);
  o->problem = "pieces";
  o->board = k->board;
  o->pieces = k->pieces;
  o->unique = k->unique ? "unique" : NULL;
  o->jobs = "1";
  o->json = "json";
  o->quiet = "quiet";
}

/* A pieces answer without what varies from run to run (its "nodes" and "seconds", and whether it
   rests on a checkpoint), to compare (caller frees). */
static char *answer_of(const char *out) {
  char *a = pq_strdup(out), *w = a;
  for (const char *r = a; *r;) {
    if (!strncmp(r, ",\"checked\":false", 16)) {
      r += 16;
      continue;
    }
    if (!strncmp(r, ",\"nodes\":", 9) || !strncmp(r, ",\"seconds\":", 11)) {
      r = strchr(r, ':') + 1;
      while (*r && (isdigit((unsigned char)*r) || *r == '.'))
        r++;
      continue;
    }
    *w++ = *r++;
  }
  *w = 0;
  return a;
}

/* Whether two pieces answers agree (answer_of). */
static bool same_answer(const char *x, const char *y) {
  char *a = answer_of(x), *b = answer_of(y);
  bool same = !strcmp(a, b);
  free(a);
  free(b);
  return same;
}

static pieces_truth *pieces_truth_of(int i) {
  pieces_truth *t = &pieces_known[i];
  if (t->whole) return t;
  pq_options o;
  pieces_options(&pieces_cases[i], &o);
  fuzz_capture c;
  if (run_command(&pq_problem_pieces, &o, &c) != PQ_OK || c.err_len || !c.out_len)
    fuzz_fail("pieces case %d: the uninterrupted run fails: %.300s", i, c.err);
  t->whole = pq_strdup(c.out);
  fuzz_capture_free(&c);
  o.checkpoint = ref_path;
  if (run_command(&pq_problem_pieces, &o, &c) != PQ_OK || !same_answer(c.out, t->whole))
    fuzz_fail("pieces case %d: the run with a checkpoint differs: %.300s", i, c.out);
  fuzz_capture_free(&c);
  size_t len;
  char *text = read_whole(ref_path, &len), err[160];
  pq_json *doc = text ? pq_json_parse(text, len, err) : NULL;
  const pq_json *done = pq_json_get(doc, "done");
  pq_count n;
  if (!done || done->type != PQ_JSON_ARRAY || parse_u128(pq_json_get(doc, "subparts"), &n) ||
      n != done->length)
    fuzz_fail("pieces case %d: the final checkpoint does not hold every part", i);
  t->parts = (uint64_t)n;
  t->count = pq_calloc((size_t)n + 1, sizeof *t->count);
  t->fixed = pq_calloc((size_t)n + 1, sizeof *t->fixed);
  for (size_t p = 0; p < done->length; p++) {
    pq_count index;
    const pq_json *e = done->items[p];
    if (e->type != PQ_JSON_ARRAY || e->length != 3 || parse_u128(e->items[0], &index) ||
        index != p || pieces_outcome(e->items[1], &t->count[p], &t->fixed[p]))
      fuzz_fail("pieces case %d: part %zu of the final checkpoint: %.200s", i, p, text);
  }
  pq_json_free(doc);
  free(text);
  unlink(ref_path);
  return t;
}

/* Whether every finished part doc lists has its true count (false when unsure). */
static bool pieces_facts_true(const pieces_truth *t, const pq_json *doc) {
  const pq_json *done = pq_json_get(doc, "done");
  if (!done || done->type != PQ_JSON_ARRAY) return false;
  for (size_t i = 0; i < done->length; i++) {
    const pq_json *e = done->items[i];
    pq_count index, count, fixed;
    if (e->type != PQ_JSON_ARRAY || e->length != 3 || parse_u128(e->items[0], &index) ||
        index >= t->parts || pieces_outcome(e->items[1], &count, &fixed) ||
        count != t->count[index] || fixed != t->fixed[index])
      return false;
  }
  return true;
}

static void pieces_check(const pieces_truth *t, pq_status rc, const fuzz_capture *c, bool facts,
                         bool limited, bool took, const char *what) {
  if (rc == PQ_EINVAL) {
    fuzz_check_parser(what, rc, c);
  } else if (rc == PQ_OK) {
    if (c->err_len) fuzz_fail("%s: an answer with a message: \"%.300s\"", what, c->err);
    /* Finished parts taken from the checkpoint are its word: the answer says so. */
    if (took && !strstr(c->out, ",\"checked\":false"))
      fuzz_fail("%s: an answer on a checkpoint's parts, not marked: \"%.300s\"", what, c->out);
    pq_json_free(answer_line(what, c));
    if (facts && !same_answer(c->out, t->whole))
      fuzz_fail("%s: \"%.200s\" where an uninterrupted run says \"%.200s\"", what, c->out,
                t->whole);
  } else if (rc == PQ_ELIMIT) {
    check_stopped(what, c);
    /* Its JSON summary, if any, has no total ("count":null, doc/json.md). */
    if (c->out_len) {
      pq_json *a = answer_line(what, c);
      const pq_json *n = pq_json_get(a, "count");
      if (!n || n->type != PQ_JSON_NULL)
        fuzz_fail("%s: a count after a limit: \"%.300s\"", what, c->out);
      pq_json_free(a);
    }
    if (!limited && facts) fuzz_fail("%s: a limit in a run without one: \"%.300s\"", what, c->err);
  } else {
    fuzz_fail("%s: unexpected status %d", what, (int)rc);
  }
}

static void pieces_one(const uint8_t *data, size_t size) {
  int mode = (data[0] >> 5) - 4; /* 0: no --checkpoint; 1: another file; 2: the same file */
  const pieces_case *k = &pieces_cases[data[0] & 7];
  pieces_truth *t = pieces_truth_of(data[0] & 7);
  write_file(in_path, data + 1, size - 1);
  unlink(out_path);
  char err[160];
  pq_json *doc = pq_json_parse((const char *)data + 1, size - 1, err);
  bool facts = doc && pieces_facts_true(t, doc);
  const pq_json *done = pq_json_get(doc, "done");
  bool took = done && done->type == PQ_JSON_ARRAY && done->length > 0;
  pq_json_free(doc);

  pq_options o;
  pieces_options(k, &o);
  o.node_limit = pieces_limits[(data[0] >> 3) & 3];
  o.resume = in_path;
  o.checkpoint = mode == 1 ? out_path : mode == 2 ? in_path : NULL;
  fuzz_capture c;
  pq_status rc = run_command(&pq_problem_pieces, &o, &c);
  pieces_check(t, rc, &c, facts, o.node_limit != NULL, took, "pieces --resume");
  fuzz_capture_free(&c);
  if (!o.checkpoint) return;
  size_t len;
  char *written = read_whole(o.checkpoint, &len);
  if (rc == PQ_EINVAL) {
    if (mode == 1 && written) fuzz_fail("pieces: a refused resume wrote a checkpoint");
    if (mode == 2 && (!written || len != size - 1 || memcmp(written, data + 1, len)))
      fuzz_fail("pieces: a refused resume changed the checkpoint it read");
    free(written);
    return;
  }
  bool wrote = written != NULL;
  free(written);
  if (!wrote) return;
  pieces_options(k, &o);
  o.resume = mode == 1 ? out_path : in_path;
  rc = run_command(&pq_problem_pieces, &o, &c);
  if (facts && rc != PQ_OK)
    fuzz_fail("pieces: the checkpoint written does not resume (status %d): \"%.300s\"", (int)rc,
              c.err);
  pieces_check(t, rc, &c, facts, false, false, "pieces --resume of the checkpoint written");
  fuzz_capture_free(&c);
}

/* Calls one(data, size) with the checkpoint data[1..size-1] sealed (its digest, if any,
   replaced), so that its edits reach the checks behind the digest; tests/*_parts.sh show an
   unsealed edit refused. */
static void sealed_one(void (*one)(const uint8_t *, size_t), const uint8_t *data, size_t size) {
  const char *text = (const char *)data + 1, *key = memmem(text, size - 1, ",\"digest\":\"", 11);
  char *sealed = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&sealed, &len);
  fputc(data[0], m);
  pq_engine_seal(m, text, key ? (size_t)(key - text) : size - 1);
  fclose(m);
  one((const uint8_t *)sealed, len);
  free(sealed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  int problem = data[0] >> 5;
  if (problem == 0 || problem == 7) {
    armies_one(data, size);
    return 0;
  }
  files_init();
  if (problem <= 3)
    sealed_one(qn_one, data, size);
  else
    sealed_one(pieces_one, data, size);
  return 0;
}
