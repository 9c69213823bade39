/* cli.c: the peaceable command line: dispatch to a problem, map statuses to exit codes. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <zlib.h>

#include "../core/search.h"
#include "../run/engine.h"
#include "../run/progress.h"
#include "cli.h"
#include "problem.h"

static void usage(FILE *out) {
  fputs("usage: peaceable COMMAND [options]\n"
        "       peaceable COMMAND --help   (or peaceable --help COMMAND)\n"
        "Solves and proves chess placement optima.\n\nCommands:\n",
        out);
  for (int i = 0; pq_problems[i]; i++)
    fprintf(out, "  %-10s %s\n", pq_problems[i]->name, pq_problems[i]->summary);
  fputs("\nExit codes: 0 done; 1 a checked claim is false; 2 bad input or usage, or a failed\n"
        "write; 3 a limit stopped the run before a conclusion; 130 interrupted.\n"
        "See peaceable(1).\n",
        out);
}

/* Set by SIGPIPE: a write to a pipe whose reader is gone (peaceable ... | head) stops the run as
   an interrupt does, so that it ends at once and writes its last checkpoint, whether the pipe's
   signal was ignored (writes would fail while the run went on for hours) or not (it killed the
   run, the checkpoint unwritten). */
static volatile sig_atomic_t pipe_closed;

static void on_pipe(int sig) {
  (void)sig;
  pipe_closed = 1;
  pq_interrupted = 1;
}

/* Whether writing stdout failed (a full disk, a closed pipe): flushes it, and also catches a
   failure of an earlier flush, which leaves nothing to flush but the error flag set. */
static bool stdout_failed(void) { return fflush(stdout) != 0 || ferror(stdout) != 0; }

/* The exit code for status rc once stdout is written: a failed write is an error (exit 2, one
   message) unless a message was already printed (bad input, a file) or a signal stopped the
   run; results lost on the way must not pass for done, false or stopped by a limit. */
static int finish(pq_status rc) {
  bool failed = stdout_failed();
  /* (A run the closed pipe stopped has said "interrupted": the pipe is why. Another file's pipe
     has had its own message.) */
  if (failed && (pipe_closed || (rc != PQ_EINVAL && rc != PQ_EIO && rc != PQ_EINTR))) {
    pq_error(pipe_closed ? "writing the output failed: its reader closed the pipe"
                         : "writing the output failed");
    rc = PQ_EIO;
  }
  return pq_status_exit_code(rc);
}

bool pq_cli_no_signals;
const char *pq_cli_program = "peaceable";

/* The help of one problem (peaceable PROBLEM --help, or peaceable --help PROBLEM). */
static int problem_help(const pq_problem *problem) {
  pq_error_command = problem->name; /* (a help that cannot be written names its command) */
  printf("usage: %s %s [options]%s%s\n%s\n\nOptions:\n", pq_cli_program, problem->name,
         problem->operands ? " " : "", problem->operands ? problem->operands : "",
         problem->summary);
  pq_options_help(stdout, problem->letter);
  printf("  %-24s %s\n", "--help", "this help");
  printf("  %-24s %s\n", "--version", "the program's name and version");
  return finish(PQ_OK);
}

static void on_signal(int sig) {
  (void)sig;
  pq_interrupted = 1;
}

/* Whether path is a regular file (plain or gzip) that begins as a peaceable checkpoint does. */
static bool holds_checkpoint(const char *path) {
  struct stat st;
  gzFile f = !stat(path, &st) && S_ISREG(st.st_mode) ? gzopen(path, "rb") : NULL;
  char head[257];
  int n = f ? gzread(f, head, sizeof head - 1) : 0;
  if (f) gzclose(f);
  head[n > 0 ? n : 0] = '\0';
  return strstr(head, "\"format\":\"peaceable-checkpoint\"") != NULL;
}

/* A checkpoint holds hours of work: one already at --checkpoint FILE is taken up with --resume,
   never written over by a run that starts again. A table's are its boards', FILE.n. */
static bool written_over(const char *path, const char *resumed) {
  return holds_checkpoint(path) && !(resumed && pq_same_file(resumed, path));
}

static pq_status keep_checkpoint(const pq_options *o) {
  /* (peaceable-mpi's other ranks write no file: rank 0 may have written its checkpoint already.) */
  if (pq_discard_outputs || !o->checkpoint) return PQ_OK;
  if (!o->table && written_over(o->checkpoint, o->resume)) {
    pq_error("--checkpoint %s: the file holds a checkpoint already: continue its run with --resume "
             "%s, or remove it to start again",
             o->checkpoint, o->checkpoint);
    return PQ_EINVAL;
  }
  for (int n = o->v.from; o->table && n <= o->v.to; n++) {
    char *path = pq_table_file(o->checkpoint, n),
         *resumed = o->resume ? pq_table_file(o->resume, n) : NULL;
    bool kept = written_over(path, resumed);
    if (kept)
      pq_error("--checkpoint %s: %s holds a checkpoint of board %d already: continue the table "
               "with --resume %s, or remove it to start again",
               o->checkpoint, path, n, o->checkpoint);
    free(path);
    free(resumed);
    if (kept) return PQ_EINVAL;
  }
  return PQ_OK;
}

/* The files of a command line, before anything runs: standard input read once, no checkpoint on
   standard output, a checkpoint not written over (keep_checkpoint), one file at most on standard
   output, and every file the program writes writable. PQ_OK, or the status with one message. */
static pq_status check_files(const pq_options *o) {
  /* Every option naming a file the program writes: a path that cannot be written fails now,
     not after a search of hours. Certificates, part files and checkpoints are written
     atomically (pq_write_atomic), pictures and models straight to the file. */
  const struct {
    const char *name, *path;
    bool atomic;
  } outputs[] = {{"cert", o->cert, true},
                 {"svg", o->svg, o->svg && pq_gzip_name(o->svg)}, /* FILE.gz: atomically */
                 {"export-lp", o->export_lp, false},
                 {"export-mps", o->export_mps, false},
                 {"checkpoint", o->checkpoint, true}};
  /* Standard input can be read once: "-" twice (verify - -) read a second, empty document. */
  int stdin_reads = o->resume && !strcmp(o->resume, "-");
  for (int i = 0; i < o->noperands; i++)
    stdin_reads += !strcmp(o->operands[i], "-");
  pq_status rc = PQ_OK;
  if (stdin_reads > 1) {
    pq_error("\"-\" (standard input) given more than once: it can be read once");
    rc = PQ_EINVAL;
  }
  if (rc == PQ_OK && o->checkpoint && !strcmp(o->checkpoint, "-")) {
    pq_error("--checkpoint -: a checkpoint is a file, written again as the run goes");
    rc = PQ_EINVAL;
  }
  if (rc == PQ_OK && o->table && o->resume && !strcmp(o->resume, "-")) {
    pq_error("--resume - with --table: a table's boards each have a checkpoint file (FILE.n)");
    rc = PQ_EINVAL;
  }
  if (rc == PQ_OK && o->table && o->resume) rc = pq_table_resumable(o->resume, o->v.from, o->v.to);
  if (rc == PQ_OK) rc = keep_checkpoint(o);
  /* A file written to "-" has standard output to itself (so that `--cert - | peaceable verify -`
     reads a certificate, not the results before it): the results go to standard error. */
  const char *dash = NULL;
  for (size_t i = 0; rc == PQ_OK && i < sizeof outputs / sizeof *outputs; i++) {
    const char *path = outputs[i].path;
    if (path && !strcmp(path, "-") && dash) {
      pq_error("--%s - and --%s -: one file at most goes to standard output", dash,
               outputs[i].name);
      rc = PQ_EINVAL;
    } else if (path && !strcmp(path, "-")) {
      dash = outputs[i].name;
    }
  }
  /* One file for two outputs kept the last written alone (--cert x.json --svg x.json: the
     picture), and an output over a file the run reads lost that file (--cert over --resume's
     checkpoint, merge --cert over a part). */
  size_t n = sizeof outputs / sizeof *outputs;
  for (size_t i = 0; rc == PQ_OK && i < n; i++) {
    const char *path = outputs[i].path;
    if (!path || !strcmp(path, "-")) continue;
    for (size_t j = i + 1; rc == PQ_OK && j < n; j++)
      if (outputs[j].path && pq_same_file(path, outputs[j].path)) {
        pq_error("--%s and --%s name one file, \"%s\": give each its own", outputs[i].name,
                 outputs[j].name, path);
        rc = PQ_EINVAL;
      }
    /* (--checkpoint over --resume continues the run in its file) */
    const char *read =
        o->resume && strcmp(outputs[i].name, "checkpoint") && pq_same_file(o->resume, path)
            ? "--resume"
            : NULL;
    for (int k = 0; !read && k < o->noperands; k++)
      if (pq_same_file(o->operands[k], path)) read = "this run";
    if (rc == PQ_OK && read) {
      pq_error("--%s \"%s\": the file is read by %s: write elsewhere", outputs[i].name, path, read);
      rc = PQ_EINVAL;
    }
  }
  for (size_t i = 0; rc == PQ_OK && i < n; i++)
    if (outputs[i].path) rc = pq_output_probe(outputs[i].name, outputs[i].path, outputs[i].atomic);
  /* A table writes its boards' checkpoints, FILE.n: each tried now, not when its board comes. */
  for (int b = o->v.from; rc == PQ_OK && o->table && o->checkpoint && b <= o->v.to; b++) {
    char *path = pq_table_file(o->checkpoint, b);
    rc = pq_output_probe("checkpoint", path, true);
    free(path);
  }
  if (rc == PQ_OK && dash && pq_take_stdout()) {
    pq_error("--%s -: cannot keep standard output apart: %s", dash, strerror(errno));
    rc = PQ_EIO;
  }
  return rc;
}

/* The command named name, or NULL. */
static const pq_problem *find_problem(const char *name) {
  for (int i = 0; pq_problems[i]; i++)
    if (!strcmp(name, pq_problems[i]->name)) return pq_problems[i];
  return NULL;
}

static bool is_help(const char *arg) { return !strcmp(arg, "--help") || !strcmp(arg, "-h"); }

int pq_cli_main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  bool help = is_help(argv[1]);
  /* peaceable --help --version: the first asked answers, as after a command. */
  if (help && argc > 2 && argv[2][0] == '-') argc = 2;
  const pq_problem *problem = find_problem(argv[help && argc > 2 ? 2 : 1]);
  if (help && problem) return problem_help(problem); /* peaceable --help PROBLEM */
  if (help && argc > 2) {
    pq_error("unknown command \"%s\" (see 'peaceable --help')", argv[2]);
    return 2;
  }
  if (help) {
    usage(stdout);
    return finish(PQ_OK);
  }
  /* --version anywhere, also among options given before the command (peaceable --json
     --version); the first of it and --help answers, --help with the help of a command named
     anywhere (peaceable --json qn --help). */
  for (int i = 1; !problem && argv[1][0] == '-' && i < argc; i++) {
    if (!strcmp(argv[i], "--version")) {
      printf("%s %s\n", pq_cli_program, PACKAGE_VERSION);
      return finish(PQ_OK);
    }
    if (!is_help(argv[i])) continue;
    for (int j = 1; j < argc; j++) {
      const pq_problem *named = find_problem(argv[j]);
      if (named) return problem_help(named);
    }
    usage(stdout);
    return finish(PQ_OK);
  }
  if (!problem) {
    pq_error("unknown command \"%s\" (see 'peaceable --help')", argv[1]);
    return 2;
  }
  /* Every message names the command, or the one it is about: "peaceable: armies: ..." (its
     help's too). */
  static const char *words[16] = {"mpi"};
  for (int i = 0, k = 1; pq_problems[i] && k < 15; i++)
    words[k++] = pq_problems[i]->name;
  pq_error_words = words;
  pq_error_command = problem->name;
  for (int i = 2; i < argc; i++) {
    /* --version answers after a command too, like --help. */
    if (!strcmp(argv[i], "--version")) {
      printf("%s %s\n", pq_cli_program, PACKAGE_VERSION);
      return finish(PQ_OK);
    }
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return problem_help(problem);
  }
  pq_progress_clock();
  pq_options o = {0};
  o.problem = problem->name;
  pq_status rc = pq_options_parse(&o, problem->letter, problem->max_operands, argc, argv, 2);
  if (rc == PQ_OK) rc = check_files(&o);
  if (o.v.time_limit > 0)
    pq_command_deadline = pq_now() + o.v.time_limit; /* (reads stop there too) */
  if (rc == PQ_OK) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = pq_cli_no_signals ? SIG_IGN : on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sa.sa_handler = on_pipe;
    if (!pq_cli_no_signals) sigaction(SIGPIPE, &sa, NULL);
    rc = problem->run(&o);
  }
  if (rc == PQ_OK && o.checkpoint && pq_engine_unsaved()) {
    pq_error("--checkpoint \"%s\": the %s above is complete, but %s last checkpoint could not be "
             "written (said above): the file holds an earlier stage, or nothing",
             o.checkpoint, o.table ? "table" : "answer", o.table ? "a board's" : "its");
    rc = PQ_EIO;
  }
  pq_options_free(&o);
  return finish(rc);
}
