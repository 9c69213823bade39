/* util.c: status codes, error reporting, checked allocation and 128-bit counts. */
#define _GNU_SOURCE /* fopencookie */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

volatile sig_atomic_t pq_interrupted;

int pq_status_exit_code(pq_status s) {
  switch (s) {
  case PQ_OK: return 0;
  case PQ_EFALSE: return 1;
  case PQ_EINVAL: return 2;
  case PQ_EIO: return 2;
  case PQ_ELIMIT: return 3;
  case PQ_EINTR: return 130;
  }
  return 2;
}

void pq_one_line(char *s) {
  for (; *s; s++)
    if ((unsigned char)*s < 0x20 || *s == 0x7f) *s = '?';
}

const char *pq_error_command;
const char *const *pq_error_words;

void pq_error(const char *fmt, ...) {
  char message[8192];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message, sizeof message, fmt, ap);
  va_end(ap);
  pq_one_line(message);
  /* One style: "peaceable: COMMAND: ...", unless the message names a command itself (a problem's
     lines merged, "mpi: ..."). */
  const char *c = pq_error_command;
  size_t n = c ? strlen(c) : 0;
  bool named = false;
  for (const char *const *w = pq_error_words; w && *w && !named; w++) {
    size_t k = strlen(*w);
    named = !strncmp(message, *w, k) && message[k] == ':';
  }
  /* A message that starts with an instance's label ("armies 14x14, ...") names the command once. */
  const char *rest = c && !strncmp(message, c, n) && message[n] == ' ' && message[n + 1] >= '0' &&
                             message[n + 1] <= '9'
                         ? message + n + 1
                         : message;
  if (c && !named && !(strncmp(message, c, n) == 0 && message[n] == ':'))
    fprintf(stderr, "peaceable: %s: %s\n", c, rest);
  else
    fprintf(stderr, "peaceable: %s\n", message);
}

bool pq_stop_said(void) {
  static atomic_flag said = ATOMIC_FLAG_INIT;
  return atomic_flag_test_and_set(&said);
}

void pq_fatal(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "peaceable: internal error at %s:%d: ", file, line);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  abort();
}

static void out_of_memory(size_t size) {
  fprintf(stderr, "peaceable: out of memory allocating %zu bytes\n", size);
  abort();
}

void *pq_malloc(size_t size) {
  void *p = malloc(size ? size : 1);
  if (!p) out_of_memory(size);
  return p;
}

void *pq_calloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p) out_of_memory(count * size);
  return p;
}

void *pq_realloc(void *ptr, size_t size) {
  void *p = realloc(ptr, size ? size : 1);
  if (!p) out_of_memory(size);
  return p;
}

char *pq_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(pq_malloc(n), s, n);
}

const char *pq_plural(const char *number) { return strcmp(number, "1") ? "s" : ""; }

const char *pq_stopped_by(pq_status rc) {
  return rc == PQ_EINTR ? "interrupted"
         : rc == PQ_EIO ? "stopped by a checkpoint it could not write"
                        : "stopped by a limit";
}

const char *pq_stop_cause(pq_status rc) {
  return rc == PQ_EINTR ? "interrupted"
         : rc == PQ_EIO ? "a checkpoint that could not be written stopped the run"
                        : "a limit stopped the run";
}

const char *pq_noun(long n, const char *one, const char *many) { return n == 1 ? one : many; }

char *pq_count_str(pq_count c, char *buf) {
  char tmp[48];
  int i = 0;
  do {
    tmp[i++] = (char)('0' + (int)(c % 10));
    c /= 10;
  } while (c);
  for (int j = 0; j < i; j++)
    buf[j] = tmp[i - 1 - j];
  buf[i] = '\0';
  return buf;
}

int pq_count_add(pq_count *acc, pq_count add) {
  if (*acc > PQ_COUNT_MAX - add) {
    *acc = PQ_COUNT_MAX;
    return -1;
  }
  *acc += add;
  return 0;
}

int pq_parse_long(const char *s, long min, long max, long *out) {
  if (!s || !*s) return -1;
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || *end || end == s || v < min || v > max) return -1;
  /* Digits alone, a minus sign only where a value below 0 may be ("-0" was 0). */
  if (s[strspn(s, "-0123456789")] || (s[0] == '-' && min >= 0)) return -1;
  *out = v;
  return 0;
}

/* The temporary file beside path that pq_write_atomic fills (caller frees). */
static char *temporary_name(const char *path) {
  size_t n = strlen(path) + 16;
  char *tmp = pq_malloc(n);
  snprintf(tmp, n, "%s.tmp", path);
  return tmp;
}

bool pq_discard_outputs;
int pq_data_fd = -1;

int pq_take_stdout(void) {
  fflush(stdout);
  /* Above 2: with standard error closed, dup would hand out 2 itself, and dup2 would then point
     standard output back at the data. */
  int fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  if (fd < 0) return -1;
  if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    close(fd);
    return -1;
  }
  pq_data_fd = fd;
  return 0;
}

FILE *pq_open_output(const char *path) {
  if (pq_discard_outputs) return fopen("/dev/null", "w");
  if (strcmp(path, "-")) return fopen(path, "w");
  /* Standard output, on a descriptor of its own: the caller closes what it opened. */
  fflush(stdout);
  int fd = dup(pq_data_fd >= 0 ? pq_data_fd : STDOUT_FILENO);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f && fd >= 0) close(fd);
  return f;
}

/* The path of a file that may not exist yet, its directory resolved (x.json and ./x.json are
   one), in buf; or "" when its directory cannot be resolved. */
static void resolved(const char *path, char buf[PATH_MAX]) {
  const char *slash = strrchr(path, '/');
  char dir[PATH_MAX], where[PATH_MAX];
  snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".");
  buf[0] = '\0';
  const char *name = slash ? slash + 1 : path;
  size_t lw, ln = strlen(name);
  if (realpath(dir, where) && (lw = strlen(where)) + ln + 2 <= PATH_MAX) {
    memcpy(buf, where, lw);
    buf[lw] = '/';
    memcpy(buf + lw + 1, name, ln + 1);
  }
}

bool pq_same_file(const char *a, const char *b) {
  struct stat sa, sb;
  bool got = !strcmp(a, "-") ? !fstat(0, &sa) : !stat(a, &sa), got_b = !stat(b, &sb);
  /* Regular files alone: two outputs to one device (/dev/null) lose nothing. */
  if (got && got_b) return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  if (got || got_b || !strcmp(a, "-")) return false; /* (one exists, the other not) */
  char ra[PATH_MAX], rb[PATH_MAX];
  resolved(a, ra);
  resolved(b, rb);
  return *ra && !strcmp(ra, rb);
}

char *pq_write_target(const char *path) {
  char *at = pq_strdup(path);
  for (int depth = 0; depth < 40; depth++) {
    struct stat st;
    if (lstat(at, &st) || !S_ISLNK(st.st_mode)) return at;
    char to[PATH_MAX];
    ssize_t len = readlink(at, to, sizeof to - 1);
    if (len < 0) {
      free(at);
      return NULL;
    }
    to[len] = '\0';
    /* A relative link is read from the link's folder. */
    const char *slash = strrchr(at, '/');
    int dir = to[0] == '/' || !slash ? 0 : (int)(slash - at) + 1;
    size_t n = (size_t)dir + (size_t)len + 1;
    char *next = pq_malloc(n);
    snprintf(next, n, "%.*s%s", dir, at, to);
    free(at);
    at = next;
  }
  free(at);
  errno = ELOOP;
  return NULL;
}

pq_status pq_output_probe(const char *option, const char *given, bool atomic) {
  if (pq_discard_outputs || !strcmp(given, "-")) return PQ_OK;
  struct stat st;
  if (!*given) {
    pq_error("--%s \"\": expected a file name", option);
    return PQ_EIO;
  }
  char *path = atomic ? pq_write_target(given) : pq_strdup(given);
  if (!path) {
    pq_error("--%s \"%s\": cannot follow its symbolic link: %s", option, given, strerror(errno));
    return PQ_EIO;
  }
  bool exists = stat(path, &st) == 0;
  pq_status rc = PQ_OK;
  if (exists && S_ISDIR(st.st_mode)) {
    pq_error("--%s \"%s\": is a directory, not a file", option, given);
    rc = PQ_EIO;
  } else if (atomic && exists && !S_ISREG(st.st_mode)) {
    pq_error("--%s \"%s\": not a regular file (the file written replaces it)", option, given);
    rc = PQ_EIO;
  }
  if (rc) {
    free(path);
    return rc;
  }
  /* Creating the very file the write will create is the only test that holds for every cause
     (a missing directory, permissions, a read-only file system, root, a name too long). */
  char *probe = atomic ? temporary_name(path) : pq_strdup(path);
  int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  bool created = fd >= 0;
  /* One there already (the file, or a temporary file left by an interrupted run, perhaps
     another run's) is opened, not truncated; a pipe without a reader is no fault yet. */
  if (fd < 0 && errno == EEXIST) fd = open(probe, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0 && errno != ENXIO) {
    pq_error("--%s \"%s\": cannot write there: %s", option, given, strerror(errno));
    rc = PQ_EIO;
  }
  if (fd >= 0) close(fd);
  if (created) remove(probe);
  free(probe);
  free(path);
  return rc;
}

static ssize_t gz_write(void *cookie, const char *buf, size_t size) {
  if (!size) return 0;
  int n = gzwrite((gzFile)cookie, buf, (unsigned)size);
  return n > 0 ? n : -1;
}

static int gz_close(void *cookie) { return gzclose((gzFile)cookie) == Z_OK ? 0 : -1; }

/* The temporary file of path for writing: gzip-compressed through zlib when path ends in ".gz"
   (stdio's buffer feeds gzwrite), else plain. NULL with errno set when it cannot be made. */
bool pq_gzip_name(const char *path) {
  size_t n = strlen(path);
  return n >= 3 && !strcmp(path + n - 3, ".gz");
}

static FILE *open_output(const char *path, const char *tmp) {
  if (!pq_gzip_name(path)) return fopen(tmp, "w");
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0) return NULL;
  gzFile gz = gzdopen(fd, "wb6");
  if (!gz) {
    close(fd);
    errno = ENOMEM;
    return NULL;
  }
  FILE *f = fopencookie(gz, "w", (cookie_io_functions_t){.write = gz_write, .close = gz_close});
  if (!f) gzclose(gz);
  return f;
}

/* Set by pq_write_fail during a write of pq_write_atomic on this thread. */
static _Thread_local bool write_failed;

void pq_write_fail(void) { write_failed = true; }

const char *pq_output_name(const char *path) {
  return strcmp(path, "-") ? path : "standard output (-)";
}

typedef struct text_bytes {
  const char *text;
  size_t len;
} text_bytes;

static void write_bytes(FILE *f, void *ctx) {
  const text_bytes *b = ctx;
  fwrite(b->text, 1, b->len, f);
}

pq_status pq_write_text_atomic(const char *path, const char *text, size_t len) {
  return pq_write_atomic(path, write_bytes, &(text_bytes){text, len});
}

pq_status pq_write_atomic(const char *path, void (*write)(FILE *out, void *ctx), void *ctx) {
  /* Nowhere, or standard output ("-"): nothing to replace atomically. */
  bool direct = pq_discard_outputs || !strcmp(path, "-");
  char *target = direct ? NULL : pq_write_target(path),
       *tmp = target ? temporary_name(target) : NULL;
  pq_status rc = PQ_EIO;
  if (!direct && !target) {
    pq_error("%s: cannot follow its symbolic link: %s", path, strerror(errno));
    return rc;
  }
  FILE *f = direct ? pq_open_output(path) : open_output(path, tmp);
  if (!f) {
    pq_error("%s: cannot write%s%s: %s", path, tmp ? " " : "", tmp ? tmp : "", strerror(errno));
    goto done;
  }
  write_failed = false;
  errno = 0;
  write(f, ctx);
  bool failed = ferror(f) != 0;
  failed |= fclose(f) != 0;
  if (failed && !write_failed) {
    pq_error("%s: cannot write: %s", pq_output_name(path), errno ? strerror(errno) : "write error");
    goto done;
  }
  if (write_failed) {
    pq_error(direct ? "%s: cut short, its content incomplete"
                    : "%s: not written, its content incomplete",
             pq_output_name(path));
    goto done;
  }
  if (tmp && rename(tmp, target)) {
    pq_error("%s: cannot rename %s into place: %s", path, tmp, strerror(errno));
    goto done;
  }
  rc = PQ_OK;
done:
  if (rc && tmp) remove(tmp);
  free(tmp);
  free(target);
  return rc;
}

uint64_t pq_newlines(const char *text, size_t len) {
  uint64_t n = 0;
  for (const char *at = text, *end = text + len;
       at < end && (at = memchr(at, '\n', (size_t)(end - at))); at++)
    n++;
  return n;
}

uint64_t pq_fnv_bytes(uint64_t h, const void *bytes, size_t len) {
  const unsigned char *b = bytes;
  for (size_t i = 0; i < len; i++)
    h = (h ^ b[i]) * UINT64_C(1099511628211);
  return h;
}

int pq_cores(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

uint64_t pq_memory_bytes(void) {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

long pq_clock_seed(void) {
  struct timespec now;
  timespec_get(&now, TIME_UTC);
  return (long)(((uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec) & (uint64_t)LONG_MAX);
}

double pq_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

FILE *pq_memstream(char **text, size_t *len) {
  FILE *f = open_memstream(text, len);
  PQ_REQUIRE(f, "open_memstream failed");
  return f;
}

struct pq_threads {
  int n;
  pthread_t id[];
};

pq_threads *pq_threads_start(int n, void *(*fn)(void *), void *args, size_t size) {
  pq_threads *t = pq_calloc(1, sizeof *t + (size_t)(n > 0 ? n : 0) * sizeof(pthread_t));
  for (; t->n < n; t->n++)
    PQ_REQUIRE(pthread_create(&t->id[t->n], NULL, fn, (char *)args + (size_t)t->n * size) == 0,
               "thread creation failed");
  return t;
}

void pq_threads_join(pq_threads *t) {
  if (!t) return;
  for (int i = 0; i < t->n; i++)
    pthread_join(t->id[i], NULL);
  free(t);
}
