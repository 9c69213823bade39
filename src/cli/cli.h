/* cli.h: the peaceable command line, shared by peaceable and peaceable-mpi. */
#ifndef PQ_CLI_H
#define PQ_CLI_H

#include <stdbool.h>

/* Runs `peaceable argv[1] ...`: parses the problem and its options, runs it, and returns the
   exit code (0 done, 1 a checked claim is false, 2 bad input, 3 a limit stopped the run,
   130 interrupted). Installs handlers for SIGINT and SIGTERM. */
int pq_cli_main(int argc, char **argv);

/* SIGINT and SIGTERM are ignored, not caught (peaceable-mpi's ranks other than 0: rank 0 takes
   them). Set before pq_cli_main. */
extern bool pq_cli_no_signals;

/* The program's name, for --version: "peaceable" (peaceable-mpi sets its own). */
extern const char *pq_cli_program;

#endif
