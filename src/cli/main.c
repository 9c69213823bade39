/* main.c: the peaceable program. */
#include "cli.h"

int main(int argc, char **argv) { return pq_cli_main(argc, argv); }
