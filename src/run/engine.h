/* engine.h: one engine for work split into parts, for every problem: threads, limits and
   signals, progress, checkpoints and resuming, --part I/N result lines and merging them. A
   problem gives a table of functions (pq_engine_problem) and knows nothing of threads or files. */
#ifndef PQ_ENGINE_H
#define PQ_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/json.h"
#include "../core/util.h"

/* Checkpoints are written at most this often while parts finish, and at the end (unless a write
   failed: see pq_engine_unsaved). */
#define PQ_ENGINE_SAVE_SECONDS 5

/* The texts of parts done while an earlier part is still under way are held until they can be
   handed to emit: at most this many bytes a thread by default (pq_engine_task.hold_bytes). */
#define PQ_ENGINE_HOLD_BYTES ((size_t)4 << 20)

/* A part with a long text (a listing) hands it on as it goes (pq_engine_stream) in pieces of
   about this many bytes: small, so that the first lines come at once (a --limit or a stop then
   ends a listing soon after them, as one search printing as it went did). */
#define PQ_ENGINE_STREAM_BYTES ((size_t)64 << 10)

/* Checkpoints and part result files larger than this are refused. */
#define PQ_ENGINE_READ_BYTES ((size_t)4 << 30)

/* What a thread running parts asks the engine: opaque, one per thread. */
typedef struct pq_engine_worker pq_engine_worker;

/* The next part this thread is to run: greater than every part it was given before; UINT64_MAX
   when there is none (all handed out, or the run is stopping). Parts are handed out in order from
   one counter shared by the threads, so which parts there are does not depend on --jobs. */
uint64_t pq_engine_next(pq_engine_worker *w);

/* Part `part` (given by pq_engine_next) is finished: its outcome (copied), the nodes it took, and
   its text or NULL (len bytes, no NUL among them; copied unless it goes to emit at once, kept for
   no file; checked for a NUL where it is kept): its proof tree or its list of placements. The
   engine hands every chosen part's text to the problem's emit, in the order of the parts, and keeps
   the texts in checkpoints and part lines, so that a resumed run or a merge emits them too. While
   the texts held for emit (those of parts done after a part still under way) pass task->hold_bytes
   a thread, the call waits for the parts before (they are under way on other threads) or for the
   run to stop: memory does not grow with the texts. */
void pq_engine_done(pq_engine_worker *w, uint64_t part, const void *outcome, uint64_t nodes,
                    const char *text, size_t len);

/* The beginning of part's text (len bytes, whole lines), handed over while the part runs: when
   it is the part's turn and the text is kept for no file, emitted at once (returns true: the
   caller drops those bytes and gives pq_engine_done only the rest); else false, and the caller
   keeps them. A part with very many lines (a listing) so holds a few of them at a time; a part
   after the one under way that holds more than 64 times task->hold_bytes waits for its turn here
   (or for the run to stop). */
bool pq_engine_stream(pq_engine_worker *w, uint64_t part, const char *text, size_t len);

/* A listing part's text as it grows, a line of digits a placement (a digit a square), handed on
   with pq_engine_stream in pieces of PQ_ENGINE_STREAM_BYTES once the part's turn has come, so
   that a part's memory does not grow with its lines; the rest goes with pq_engine_done(...,
   text, len). Zeroed to start; pq_engine_text_start for each part; free(text) at the end. */
typedef struct pq_engine_text {
  pq_engine_worker *w;
  uint64_t part;
  char *text; /* text[0..len-1]: the lines not handed on yet */
  size_t len, cap, stream_at;
} pq_engine_text;

/* Starts part's text, empty (t's buffer is kept). */
void pq_engine_text_start(pq_engine_text *t, pq_engine_worker *w, uint64_t part);

/* Adds the line of the placement cells[0..n-1] (digit '0' + cells[s], each below 10). */
void pq_engine_text_line(pq_engine_text *t, const uint8_t *cells, size_t n);

/* Reads the line of digits at *at of text[0..len-1] (as pq_engine_text_line writes them, checked
   or the engine's own) into cells[0..n-1] and moves *at past it: false when no line is left. */
bool pq_engine_text_cells(const char *text, size_t len, size_t *at, size_t n, uint8_t *cells);

/* To be called every few thousand nodes with the nodes searched since the last call: PQ_OK to go
   on, or the status to stop the part with (PQ_ELIMIT: the shared node limit, the deadline or
   another thread's stop; PQ_EINTR: SIGINT or SIGTERM). Starts the other threads when due. */
pq_status pq_engine_poll(pq_engine_worker *w, uint64_t nodes);

/* A problem, as the engine sees it. Outcomes are plain values of outcome_size bytes (all zero:
   nothing yet); ctx is the problem's, passed back to every call. */
typedef struct pq_engine_problem {
  const char *name;    /* "pieces": the "problem" member of checkpoints and part lines */
  size_t outcome_size; /* bytes of an outcome, at most 256 */
  /* A solver for another thread (the first thread's is the caller's); the engine builds them on
     the first thread before starting the others, and frees them. */
  void *(*solver_new)(void *ctx);
  void (*solver_free)(void *solver);
  /* Nodes the solver has searched in all (the engine takes differences). */
  uint64_t (*solver_nodes)(const void *solver);
  /* Runs the parts pq_engine_next gives, with pq_engine_poll called often, telling
     pq_engine_done of each. Returns PQ_OK when next has no more; PQ_ELIMIT or PQ_EINTR when a poll
     or the solver's own limits stopped it (the part under way is then not done). */
  pq_status (*run)(void *ctx, void *solver, pq_engine_worker *w);
  /* *total += *outcome (counts added, found or not, ...): 0, or -1 when it cannot be (a count
     past 2^128). */
  int (*add)(void *ctx, void *total, const void *outcome);
  /* Writes outcome as JSON members ("count":3,"fixed":0), no braces. */
  void (*write)(void *ctx, FILE *f, const void *outcome);
  /* Reads an outcome from the members of object v: NULL, or why it cannot (e.g. "its count is not
     a whole number below 2^128"). */
  const char *(*read)(void *ctx, const pq_json *v, void *outcome);
  /* Optional (NULL: none): why the total of every part cannot be (e.g. Burnside's sum not a
     multiple of the group's order), or NULL. Asked before a whole run (no --part) is saved. */
  const char *(*check)(void *ctx, const void *total);
  /* Optional (NULL: none): whether this outcome decides the run by itself (a decision's witness).
     Once part i is done with a decisive outcome, no part after i is handed out, parts after i under
     way stop (their polls return PQ_ELIMIT, and run is called again for the parts left), and the
     total is the sum of the outcomes of the chosen parts up to the first decisive one: the same
     for any number of threads. */
  bool (*decisive)(void *ctx, const void *outcome);
  /* Optional (NULL: not said): the subpart a decisive outcome was found in. An outcome read from a
     file must then be of that file's subpart (a checkpoint's entry, a part line's subparts). */
  uint64_t (*found_at)(void *ctx, const void *outcome);
  /* Optional (NULL: none): takes the text of each chosen part (NULL, 0 for a part done without
     one) once, in the order of the parts, as soon as every chosen part before it is done (lists
     stream out in order, the same for any number of threads); parts after a decisive one are not
     emitted. Called under the engine's lock, from any of its threads; also by pq_engine_merge, in
     the order of the split's parts. */
  void (*emit)(void *ctx, uint64_t part, const char *text, size_t len);
  /* Optional (NULL: none): why the text of part `part` taken from a file is not one this
     problem's parts write, or NULL: from a checkpoint with the part's outcome, from a part line
     with outcome NULL (the line's outcome sums several parts). So placements listed are checked,
     not taken on a file's word. Not asked of private texts (proofs: a certificate's checker reads
     them). */
  const char *(*check_text)(void *ctx, uint64_t part, const void *outcome, const char *text,
                            size_t len);
  /* The number of lines (each ending in a newline) of part's text by its outcome, or UINT64_MAX
     when the outcome does not say: checked against a lines file read back, whose parts may be
     too long for check_text to take whole (src/run/sealed.h), and (part UINT64_MAX: the summed
     outcome of a part line's subparts) against a part line's texts before merge prints any.
     NULL: not checked. */
  uint64_t (*text_lines)(void *ctx, uint64_t part, const void *outcome);
  /* Whether the texts stay with the run: kept in checkpoints and handed to emit, but not written
     in part lines, which merge then takes without them (proof trees, which a part writes to a
     certificate file of its own, and merge does not need). */
  bool private_texts;
} pq_engine_problem;

/* The split of one instance into parts, numbered from 0. */
typedef struct pq_engine_split {
  uint64_t parts; /* 0 when there is nothing to run (the total is then zero) */
  uint64_t id;    /* fingerprint of the instance and of every part (pq_fnv) */
  /* JSON members naming the instance, e.g. "board":"6x9","pieces":"K2Q1","unique":true; checkpoints
     and part lines carry them, and a checkpoint or a part line matches only with the same. */
  const char *head;
  const char *what;  /* what the head names, for messages: "board, pieces, --unique" */
  const char *label; /* this instance, for messages: "pieces K2Q1 on 6x9 with --unique" */
} pq_engine_split;

/* How a run may go, as the command asked it: one structure for every problem, filled from the
   options once (pq_options_limits) and handed to the engine whole. */
typedef struct pq_engine_limits {
  int jobs;            /* threads, at least 1 */
  uint64_t node_limit; /* stop with PQ_ELIMIT after this many nodes in all; 0: none */
  uint64_t spent;  /* nodes the run spent before these parts (a split, earlier sizes): they count */
  double deadline; /* stop with PQ_ELIMIT once pq_now() passes it; 0: none */
  const char *checkpoint; /* write the finished parts here (atomically), or NULL */
  const char *resume;     /* take the finished parts of this checkpoint, or NULL */
  const char *progress;   /* what is running, for progress on stderr; NULL: none */
  int part, parts;        /* --part I/N: the parts i with i % N == I - 1; parts 0: all */
} pq_engine_limits;

/* One run of parts of a split. */
typedef struct pq_engine_task {
  const pq_engine_problem *problem;
  void *ctx;
  pq_engine_split split;
  void *solver; /* the first thread's solver (borrowed) */
  pq_engine_limits lim;
  double helper_delay; /* the other threads start once the run has taken this long */
  /* JSON members (no braces) that checkpoints carry after the head: what the problem's run has
     established beyond this split (a best witness, a bound), or NULL. Sealed with the rest, not
     compared on resume: the problem reads them back itself. */
  const char *facts;
  size_t hold_bytes; /* texts held for emit, a thread (see pq_engine_done) */
  /* Every part taken from lim.resume must hold a text, unless its outcome is decisive (the
     proofs a certificate is made of): a checkpoint without them is refused. */
  bool need_texts;
} pq_engine_task;

typedef struct pq_engine_result {
  uint64_t nodes;         /* searched by this run */
  uint64_t resumed_nodes; /* of the chosen parts taken from the checkpoint */
  uint64_t decided_by;    /* the first part with a decisive outcome; UINT64_MAX: none */
  size_t held_most;       /* the most bytes of texts held for emit at once */
} pq_engine_result;

/* Sets every default of a task: one thread, helpers after 10 ms, no limits, files or parts, texts
   held up to PQ_ENGINE_HOLD_BYTES a thread. */
void pq_engine_task_init(pq_engine_task *task);

/* Runs the chosen parts of task->split on task->lim.jobs threads and adds their outcomes, in the
   order of the parts, into *total (outcome_size bytes, zeroed by the caller): every part, or with
   task->lim.parts those of --part I/N, whose result is then printed as one sealed JSON line on
   stdout (the problem, the head, the split and its subparts, the part, the number of subparts it
   covers, whether it is done, its outcome when done, the texts of its parts when the problem has
   an emit: "texts", one string or null per covered part, in order, up to a decisive one; not with
   private_texts; its nodes and a digest; printed for PQ_OK, PQ_ELIMIT, PQ_EINTR and PQ_EIO). With
   task->lim.resume, the finished parts of that checkpoint are taken first and not run again; with
   task->lim.checkpoint, the finished parts are written there every PQ_ENGINE_SAVE_SECONDS and at
   the end (also when stopped; never when the run refused its input, nor after a failed write).
   Returns PQ_OK with *total complete; PQ_ELIMIT or PQ_EINTR when stopped; PQ_EINVAL with one
   message for a --part beyond the split's parts, a resume file that is not a sealed checkpoint of
   this instance and split (damaged, edited, foreign), or outcomes that do not add up; PQ_EIO when
   the checkpoint cannot be written (see pq_engine_unsaved). result may be NULL. */
pq_status pq_engine_run(const pq_engine_task *task, void *total, pq_engine_result *result);

/* Whether task->lim.resume can be resumed by task: PQ_OK, or PQ_EINVAL with the message
   pq_engine_run would give. Runs nothing and writes nothing: for a caller that checks its input
   before a long run reaches the task. */
pq_status pq_engine_check_resume(const pq_engine_task *task);

/* Merges part lines (parsed JSON objects of problem->name; their digests checked by
   pq_engine_check_line) of the split sp, rebuilt by the caller from the first line: checks that
   each names the same instance and split, covers what its part I of N covers, is sealed, and that
   every part 1..N is there once and done; then adds their outcomes into *total (zeroed by the
   caller) and their nodes into *nodes, and hands their texts to the problem's emit in the order
   of the split's parts. Returns PQ_OK; PQ_EINVAL with one message for a malformed,
   foreign, edited or repeated part; PQ_ELIMIT with one message when a part is missing or
   unfinished. */
pq_status pq_engine_merge(const pq_engine_problem *problem, void *ctx, const pq_engine_split *sp,
                          pq_json *const *lines, int n, void *total, uint64_t *nodes);
/* A listing's part lines and checkpoints say so in their head, in every problem: the member
   ,"list":"placements" (every placement) or, with --unique, ,"list":"classes" (one a class); a
   count's and a decision's have none. The member of a run (list false: ""). */
const char *pq_engine_list_member(bool list, bool unique);
/* What head says it lists: 0 nothing (a count's or a decision's), 1 placements, 2 classes; -1
   when its "list" is something else. */
int pq_engine_list_of(const pq_json *head);

/* Ends the JSON object of a merged answer, the same in every problem (doc/json.md): whether its
   conclusion was checked by merge, the number of parts, and their nodes. */
void pq_engine_merged_tail(FILE *f, bool checked, long parts, uint64_t nodes);
/* Says on stderr, once standard output is flushed (not after a failed write, which has its own
   message), what a merged text listing rests on: its placements are checked and none is listed
   twice, but that none is missing (classes_on_word: and that each is of a class of its own, for a
   listing of one placement a class whose lines are not checked to be canonical) rests on the
   parts' word. The text of a listing is placements alone, in every problem. */
void pq_engine_merged_listing_note(bool classes_on_word);
/* Says on stderr, when this process took something on a checkpoint's word (pq_engine_on_word)
   and once standard output is flushed, that the answer printed (what: "listing", "total")
   rests in part on it: for a text that is placements or a bare number alone, where
   pq_engine_word_text has no place. */
void pq_engine_resumed_note(const char *command, const char *what);

/* What a resumed run took on its checkpoint's word: the outcomes of finished parts other than a
   decisive one (a count, "none"; a decisive witness is checked when read), and the facts a problem
   reads from a checkpoint without checking them (pq_engine_on_word). The seal of a checkpoint
   guards against accidents, not against an edited file sealed again: an answer that rests on
   such outcomes is marked, not passed off as the search's. */
void pq_engine_on_word(void);
/* Whether this process took something on a checkpoint's word. */
bool pq_engine_on_word_taken(void);
/* Forgets it: a table's rows, each with its own checkpoint, are marked one by one. */
void pq_engine_on_word_reset(void);
/* The mark of an answer, for the text and the JSON of every command: " (resumed: in part on the
   checkpoint's word, not checked)" and ",\"checked\":false" when this process took something on a
   checkpoint's word (pq_engine_on_word, or a run of the engine), "" otherwise. */
const char *pq_engine_word_text(void);

/* What a stopped run's message says of its checkpoint: " (N finished parts are in the
   checkpoint)", " (1 finished part ...)", " (no part had finished: the checkpoint holds none)"
   when the engine wrote the last checkpoint of this process; " (what was found is in the
   checkpoint)" when a problem's own write did (its facts); "" when none was written. */
const char *pq_engine_kept_note(void);
const char *pq_engine_word_json(void);

/* Where the lines merge reads came from, for its messages: sources[i], "FILE" or "FILE, line K",
   for line i; NULL (the default): "result i + 1". Set by the merge command. */
extern const char *const *pq_engine_merge_sources;

/* Checks the digest of one part line (text[0..len-1], parsed as doc): its "digest" member is then
   "ok" when it seals the text, "bad" otherwise (a line without one is left as it is). For merge,
   which has the text of the lines; pq_engine_merge takes only lines marked "ok". */
void pq_engine_check_line(pq_json *doc, const char *text, size_t len);

/* ---- parts run in other processes (peaceable-mpi: src/run/mpi_main.c) ---- */

/* A port: where a serving process's parts come from and go to (for pq_engine_serve). */
typedef struct pq_engine_port {
  uint64_t (*next)(void *arg); /* as pq_engine_next */
  void (*done)(void *arg, uint64_t part, const void *outcome, uint64_t nodes, const char *text,
               size_t len);                     /* text NULL: none */
  pq_status (*poll)(void *arg, uint64_t nodes); /* as pq_engine_poll */
  void *arg;
} pq_engine_port;

/* Every process runs the same command line; the first (rank 0) hands the parts of each of its
   runs to the others, which serve them. A process's runs must be those of rank 0, in the same
   order: the hook checks every run's split and fails loudly when they differ. */
typedef struct pq_engine_remote {
  bool serving; /* this process serves parts (true) or hands them out (false) */
  /* Rank 0, the engine's one thread: runs the parts pq_engine_next(w) hands out in the other
     processes, telling pq_engine_done of each with its nodes, and
     polling (pq_engine_poll) while it waits; stops the parts pq_engine_wanted no longer wants.
     Returns PQ_OK when every part handed out is back, or PQ_EINTR. */
  pq_status (*run)(const pq_engine_task *task, pq_engine_worker *w);
  /* Rank 0, after each run (whatever its status): tells the others its status, total, result
     and the text of the part that decided it (NULL when none or without a text). */
  void (*end)(const pq_engine_task *task, pq_status rc, const void *total,
              const pq_engine_result *result, const char *text, size_t len);
  /* The other processes, for each run: serve its parts (pq_engine_serve) until rank 0's end,
     then hand the deciding part's text to the problem's emit and return rank 0's status, total
     (when PQ_OK) and result. So a run's flow may depend on its witness, not on its other texts
     (placements listed, proof trees): the serving processes' outputs are discarded. */
  pq_status (*serve)(const pq_engine_task *task, void *total, pq_engine_result *result);
} pq_engine_remote;

/* Set once at start-up by peaceable-mpi; NULL in the plain program. */
extern const pq_engine_remote *pq_engine_remote_hook;

/* Whether this process serves another's runs (peaceable-mpi's ranks but 0): the texts of parts
   (proof trees, placements) stay with rank 0, so a certificate is neither made nor written here,
   and a proof's missing trees are no fault; its flow must still be rank 0's. */
bool pq_engine_serving(void);

/* Whether the part w handed out is still wanted: the run is not stopping and no part before it
   has decided the run. For a remote run, which stops the parts no longer wanted. */
bool pq_engine_wanted(pq_engine_worker *w, uint64_t part);

/* Runs task->problem's run on task->solver for the parts port gives: a serving process's share of
   rank 0's run. Returns what run returns. */
pq_status pq_engine_serve(const pq_engine_task *task, const pq_engine_port *port);

/* Writes content[0..len-1] (a JSON object without its closing brace) sealed: followed by
   ,"digest":"<16 hex digits>"} and a newline, the digest FNV-1a over the content. */
void pq_engine_seal(FILE *f, const char *content, size_t len);

/* Writes what write(f, ctx) writes (one JSON object) to out, sealed as by pq_engine_seal:
   checkpoints and part lines are written so. */
void pq_engine_write_sealed(FILE *out, void (*write)(FILE *f, void *ctx), void *ctx);

/* The same into path, atomically (pq_write_atomic): PQ_OK or PQ_EIO with a message. Every
   checkpoint is written so. */
pq_status pq_engine_save_sealed(const char *path, void (*write)(FILE *f, void *ctx), void *ctx);

/* Whether the last checkpoint write of this process failed. A run whose checkpoint cannot be
   written while its parts run stops (PQ_EIO, as a limit would stop it); one whose parts are all
   done keeps its total (PQ_OK) when only its last write fails, and the command then exits as for
   a failed write, after its answer. */
bool pq_engine_unsaved(void);

/* Whether a checkpoint write of this process has failed: a run with a checkpoint is then not
   started (PQ_EIO), so that a command of several runs ends at the failed write. */
bool pq_engine_save_failed(void);

/* Opens the checkpoint path of problem (as --resume reads it): read, parsed and checked for its
   format, version, problem and seal. Returns PQ_OK with the document in *doc (pq_json_free), or
   with one message naming the file PQ_EINVAL, or the read's status (a signal, PQ_EINTR; the time
   limit, PQ_ELIMIT; PQ_EIO). The caller checks that it is of its instance and reads its facts. */
pq_status pq_engine_open_checkpoint(const char *path, const char *problem, pq_json **doc);

/* Whether text[0..len-1] is sealed as pq_engine_seal writes (trailing white space allowed). */
bool pq_engine_sealed(const char *text, size_t len);

#endif
