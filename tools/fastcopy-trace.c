/* fastcopy-trace - which sizes does a program copy?  Runs a program with
 * libfastcopy-trace.so preloaded (every process of its fork/exec tree writes its
 * own counts at exit: src/trace.c), merges what the processes wrote, and writes
 * the size distributions (fcbench --dist) and a summary (src/trace_report.c).
 * See usage() and man/fastcopy-trace.1. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "fastcopy.h"
#include "trace.h"

#ifndef FCT_LIBDIR_REL
#define FCT_LIBDIR_REL "../lib" /* the library directory, relative to the tool's */
#endif
#define TRACE_SO "libfastcopy-trace.so"

static const char *prog = "fastcopy-trace";
static const char *const func_names[FC_NFUNCS] = {"memcpy", "memmove", "memset"};

static void usage(void)
{
    fputs(
        "NAME\n"
        "    fastcopy-trace - which sizes does a program copy with memcpy, memmove, memset?\n"
        "\n"
        "SYNOPSIS\n"
        "    fastcopy-trace [-o PREFIX] [-q] [--] PROGRAM [ARG...]\n"
        "    fastcopy-trace --report [-o PREFIX] [-q] FILE.trace...\n"
        "\n"
        "DESCRIPTION\n"
        "    Runs PROGRAM with libfastcopy-trace.so preloaded: libfastcopy's drop-in\n"
        "    memcpy, memmove, memset, mempcpy, bcopy, bzero, explicit_bzero and the\n"
        "    _FORTIFY_SOURCE _chk forms, each counting its calls (every size 0..4096, then\n"
        "    16 steps per power of two; alignment modulo 64; overlap and 4K aliasing;\n"
        "    the call sites).  Every process of the program's fork/exec tree writes its\n"
        "    own files at exit, PREFIX.proc/PID.{trace,txt,memcpy.csv,...}.  When PROGRAM\n"
        "    ends, their sum is written to\n"
        "        PREFIX.memcpy.csv, PREFIX.memmove.csv, PREFIX.memset.csv\n"
        "                      size distributions, for fcbench --dist (the format of\n"
        "                      fcbench's own mixes, extended past 4096 bytes)\n"
        "        PREFIX.txt    the summary, also printed on standard error\n"
        "        PREFIX.trace  every count\n"
        "    and fastcopy-trace exits as PROGRAM did (its status, or the same signal).\n"
        "    PROGRAM's own input, output and exit status are not changed.  Next:\n"
        "    fcbench --dist PREFIX times the C library and libfastcopy on those sizes.\n"
        "\n"
        "    Not counted: a process that ends by _exit(), a signal or exec writes\n"
        "    nothing (the summary names those that left a PREFIX.proc/PID.running file),\n"
        "    nor are calls made after the trace's exit handler, calls that a static\n"
        "    binary or the C library makes internally, or calls the compiler inlined.\n"
        "\n"
        "OPTIONS\n"
        "    -o PREFIX   where the files go (default: fastcopy-trace, in the current\n"
        "                directory); PREFIX.proc/ is emptied of a previous run's files\n"
        "    -q          do not print the summary (it is still written to PREFIX.txt)\n"
        "    --report FILE.trace...\n"
        "                run nothing: merge these per-process files (written by the\n"
        "                library preloaded by hand: LD_PRELOAD=.../" TRACE_SO "\n"
        "                FCTRACE_PREFIX=DIR/ PROGRAM) and write PREFIX.* as above\n"
        "    -h, --help  this text;  --version  the version\n"
        "\n"
        "EXIT STATUS\n"
        "    PROGRAM's; 127 when PROGRAM is not found, 126 when it cannot be run, 2 for\n"
        "    bad usage (one line on standard error, nothing run); --report: 0, or 1 when a\n"
        "    file cannot be read.  An output place that cannot be written is one line on\n"
        "    standard error; PROGRAM then runs untraced, with its own exit status.\n"
        "\n"
        "ENVIRONMENT\n"
        "    FCTRACE_LIB   the library to preload (default: " TRACE_SO " in the\n"
        "                  installed library directory, or the build tree's src/)\n"
        "    LD_PRELOAD    kept, after the trace library\n"
        "\n"
        "SEE ALSO\n"
        "    fcbench(1) (--dist), libfastcopy(7)\n",
        stdout);
}

/* ---- finding the program and the library ----------------------------------------- */

/* 0 when PROGRAM is found (on PATH when it has no '/'), else 127 (not found) or
 * 126 (found, not executable), after one line on stderr. */
static int find_program(const char *name)
{
    struct stat sb;
    if (strchr(name, '/')) {
        if (stat(name, &sb)) {
            fprintf(stderr, "%s: %s: %s\n", prog, name, strerror(errno));
            return 127;
        }
        if (S_ISDIR(sb.st_mode) || access(name, X_OK)) {
            fprintf(stderr, "%s: %s: %s\n", prog, name,
                    S_ISDIR(sb.st_mode) ? "is a directory" : strerror(errno));
            return 126;
        }
        return 0;
    }
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    int seen = 0;
    for (const char *p = path;;) {
        size_t n = strcspn(p, ":");
        char buf[PATH_MAX];
        snprintf(buf, sizeof buf, "%.*s/%s", (int)(n ? n : 1), n ? p : ".", name);
        if (!stat(buf, &sb) && !S_ISDIR(sb.st_mode)) {
            if (!access(buf, X_OK))
                return 0;
            seen = 1;
        }
        if (!p[n])
            break;
        p += n + 1;
    }
    fprintf(stderr, "%s: %s: %s\n", prog, name,
            seen ? "found on PATH but not executable" : "command not found");
    return seen ? 126 : 127;
}

static int find_library(char *out, size_t cap)
{
    const char *env = getenv("FCTRACE_LIB");
    if (env && *env) {
        if (!realpath(env, out) || access(out, R_OK)) {
            fprintf(stderr, "%s: FCTRACE_LIB '%s': %s\n", prog, env, strerror(errno));
            return -1;
        }
        return 0;
    }
    char self[PATH_MAX];
    ssize_t l = readlink("/proc/self/exe", self, sizeof self - 1);
    if (l <= 0) {
        fprintf(stderr, "%s: cannot find my own path (/proc/self/exe): %s; set FCTRACE_LIB\n",
                prog, strerror(errno));
        return -1;
    }
    self[l] = 0;
    char *slash = strrchr(self, '/');
    *slash = 0;
    /* installed: bindir/FCT_LIBDIR_REL; the build tree: tools/../src */
    const char *rel[] = {FCT_LIBDIR_REL, "../src"};
    char tried[2][2 * PATH_MAX];
    for (int i = 0; i < 2; i++) {
        if (rel[i][0] == '/') /* a libdir outside the prefix */
            snprintf(tried[i], sizeof tried[i], "%s/" TRACE_SO, rel[i]);
        else
            snprintf(tried[i], sizeof tried[i], "%s/%s/" TRACE_SO, self, rel[i]);
        if (realpath(tried[i], out) && !access(out, R_OK))
            return 0;
    }
    fprintf(stderr, "%s: no " TRACE_SO " at %s nor %s; set FCTRACE_LIB\n", prog, tried[0],
            tried[1]);
    (void)cap;
    return -1;
}

/* ---- the output place -------------------------------------------------------------- */

/* "123.trace", "123-2.trace", "123.running", "123.memcpy.csv", ...: a file the
 * library writes into a directory prefix.  Returns the pid, or 0. */
static long proc_file(const char *name, const char **suffix)
{
    char *end;
    if (*name < '1' || *name > '9')
        return 0;
    long pid = strtol(name, &end, 10);
    if (*end == '-') {
        const char *p = end + 1;
        if (*p < '0' || *p > '9')
            return 0;
        strtol(p, &end, 10);
    }
    static const char *const ok[] = {".trace", ".txt", ".running", ".memcpy.csv",
                                     ".memmove.csv", ".memset.csv"};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
        if (!strcmp(end, ok[i])) {
            if (suffix)
                *suffix = ok[i];
            return pid;
        }
    return 0;
}

/* PREFIX.proc/ exists, is writable, and holds no file of an earlier run; and
 * PREFIX.txt can be created.  0, or -1 with the failing path in what. */
static int prepare(const char *prefix, char *what, size_t cap)
{
    char dir[PATH_MAX + 8], probe[PATH_MAX + 300];
    snprintf(dir, sizeof dir, "%s.proc", prefix);
    snprintf(what, cap, "%s/", dir);
    if (mkdir(dir, 0777) && errno != EEXIST)
        return -1;
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (proc_file(e->d_name, NULL)) {
            snprintf(probe, sizeof probe, "%s/%s", dir, e->d_name);
            unlink(probe);
        }
    }
    closedir(d);
    snprintf(probe, sizeof probe, "%s/.probe-%ld", dir, (long)getpid());
    int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0)
        return -1;
    close(fd);
    unlink(probe);
    snprintf(what, cap, "%s.txt", prefix);
    fd = open(what, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

/* ---- merging and writing ------------------------------------------------------------ */

struct run {
    struct fct_report *sum;
    unsigned ntraces, nbad;
    char bad[512];           /* the first unreadable file, and why */
    unsigned nrunning;
    char running[256];       /* pids of the processes that wrote nothing */
};

static int add_file(struct run *run, const char *path, int strict)
{
    char err[256];
    FILE *f = fopen(path, "r");
    struct fct_report *r = fct_report_new();
    int rc = -1;
    if (!r) {
        snprintf(err, sizeof err, "out of memory");
    } else if (!f) {
        snprintf(err, sizeof err, "%s", strerror(errno));
    } else if (!fct_read_trace(f, r, err, sizeof err)) {
        fct_report_merge(run->sum, r);
        run->ntraces++;
        rc = 0;
    }
    if (f)
        fclose(f);
    fct_report_free(r);
    if (rc) {
        if (strict)
            fprintf(stderr, "%s: %s: %s\n", prog, path, err);
        if (!run->nbad++)
            snprintf(run->bad, sizeof run->bad, "%s: %s", path, err);
    }
    return rc;
}

static void collect(struct run *run, const char *prefix)
{
    char dir[PATH_MAX + 8], path[PATH_MAX + 300];
    snprintf(dir, sizeof dir, "%s.proc", prefix);
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    const char *suffix;
    while ((e = readdir(d))) {
        long pid = proc_file(e->d_name, &suffix);
        if (!pid)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (!strcmp(suffix, ".trace")) {
            add_file(run, path, 0);
        } else if (!strcmp(suffix, ".running")) {
            size_t l = strlen(run->running);
            if (l + 24 < sizeof run->running)
                snprintf(run->running + l, sizeof run->running - l, "%s%ld", l ? " " : "", pid);
            run->nrunning++;
        }
    }
    closedir(d);
}

/* Writes PREFIX.trace, PREFIX.<func>.csv (removing those of functions without
 * calls: an older run's), PREFIX.txt, and the summary on stderr.  0, or -1 after
 * one line on stderr. */
static int write_all(struct run *run, const char *prefix, int quiet)
{
    char path[PATH_MAX + 32], note[1200] = "";
    struct fct_report *r = run->sum;
    FILE *f;
    snprintf(path, sizeof path, "%s.trace", prefix);
    if (!(f = fopen(path, "w")) || (fct_write_trace(f, r) | fclose(f)))
        goto fail;
    for (int fn = 0; fn < FC_NFUNCS; fn++) {
        snprintf(path, sizeof path, "%s.%s.csv", prefix, func_names[fn]);
        if (!fct_func_calls(r, fn)) {
            unlink(path);
            continue;
        }
        if (!(f = fopen(path, "w")) || (fct_write_dist(f, r, fn, NULL) | fclose(f)))
            goto fail;
    }
    size_t l = 0;
    if (!run->ntraces)
        l += snprintf(note + l, sizeof note - l, "No process wrote a trace.");
    if (run->nrunning)
        l += snprintf(note + l, sizeof note - l, "%s%u process%s wrote nothing (ended by "
                      "_exit(), a signal or exec, or still running): pid %s", l ? " " : "",
                      run->nrunning, run->nrunning == 1 ? "" : "es", run->running);
    if (run->nbad && l < sizeof note)
        snprintf(note + l, sizeof note - l, "%s%u file%s could not be read (%s)",
                 l ? "; " : "", run->nbad, run->nbad == 1 ? "" : "s", run->bad);
    snprintf(path, sizeof path, "%s.txt", prefix);
    if (!(f = fopen(path, "w")))
        goto fail;
    fct_write_summary(f, r, note);
    if (fclose(f))
        goto fail;
    if (!quiet) {
        fct_write_summary(stderr, r, note);
        fprintf(stderr, "(written: %s.txt, %s.trace, %s.<function>.csv; next: fcbench --dist "
                        "%s)\n", prefix, prefix, prefix, prefix);
    }
    return 0;
fail:
    fprintf(stderr, "%s: cannot write %s: %s\n", prog, path, strerror(errno ? errno : EIO));
    return -1;
}

/* ---- running the program ------------------------------------------------------------ */

static int run_traced(char **argv, const char *lib, const char *prefix)
{
    char dir[PATH_MAX + 16], real[PATH_MAX], *pre;
    snprintf(dir, sizeof dir, "%s.proc", prefix);
    /* absolute: the program may change its directory */
    if (realpath(dir, real))
        snprintf(dir, sizeof dir, "%s/", real);
    else
        snprintf(dir, sizeof dir, "%s.proc/", prefix);
    const char *old = getenv("LD_PRELOAD");
    if (asprintf(&pre, "%s%s%s", lib, old && *old ? ":" : "", old && *old ? old : "") < 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "%s: fork: %s\n", prog, strerror(errno));
        exit(126);
    }
    if (pid == 0) {
        setenv("LD_PRELOAD", pre, 1);
        setenv("FCTRACE_PREFIX", dir, 1);
        execvp(argv[0], argv);
        int e = errno;
        fprintf(stderr, "%s: %s: %s\n", prog, argv[0], strerror(e));
        _exit(e == ENOENT ? 127 : 126);
    }
    free(pre);
    /* Like a shell waiting for its foreground job: ^C and ^\ go to the program
     * (the terminal sends them to the whole process group), not to us. */
    struct sigaction ign = {.sa_handler = SIG_IGN}, oint, oquit;
    sigaction(SIGINT, &ign, &oint);
    sigaction(SIGQUIT, &ign, &oquit);
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    sigaction(SIGINT, &oint, NULL);
    sigaction(SIGQUIT, &oquit, NULL);
    return st;
}

/* Ends this process as the program ended: its exit status, or its signal. */
static void exit_like(int st)
{
    if (WIFSIGNALED(st)) {
        int sig = WTERMSIG(st);
        struct rlimit no_core = {0, 0};
        setrlimit(RLIMIT_CORE, &no_core); /* the program's core (if any) is enough */
        signal(sig, SIG_DFL);
        sigset_t s;
        sigemptyset(&s);
        sigaddset(&s, sig);
        sigprocmask(SIG_UNBLOCK, &s, NULL);
        fflush(NULL);
        raise(sig);
        exit(128 + sig);
    }
    exit(WIFEXITED(st) ? WEXITSTATUS(st) : 1);
}

int main(int argc, char **argv)
{
    const char *prefix = "fastcopy-trace";
    int quiet = 0, report = 0, k = 1;
    for (; k < argc; k++) {
        const char *a = argv[k];
        if (!strcmp(a, "--")) {
            k++;
            break;
        }
        if (a[0] != '-' || !a[1])
            break;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage();
            return 0;
        } else if (!strcmp(a, "--version")) {
            printf("fastcopy-trace (libfastcopy) %s\n", FASTCOPY_VERSION_STRING);
            return 0;
        } else if (!strcmp(a, "-q")) {
            quiet = 1;
        } else if (!strcmp(a, "--report")) {
            report = 1;
        } else if (!strcmp(a, "-o") || !strncmp(a, "-o", 2)) {
            const char *v = a[2] ? a + 2 : k + 1 < argc ? argv[++k] : NULL;
            if (!v) {
                fprintf(stderr, "%s: -o needs a PREFIX (try --help)\n", prog);
                return 2;
            }
            if (!*v || v[strlen(v) - 1] == '/') {
                fprintf(stderr, "%s: -o '%s': a PREFIX names files (PREFIX.txt, ...), not a "
                                "directory\n", prog, v);
                return 2;
            }
            prefix = v;
        } else {
            fprintf(stderr, "%s: unknown option '%s' (try --help)\n", prog, a);
            return 2;
        }
    }
    char what[PATH_MAX + 16];
    if (report) {
        if (k == argc) {
            fprintf(stderr, "%s: --report needs FILE.trace arguments (try --help)\n", prog);
            return 2;
        }
        struct run run = {.sum = fct_report_new()};
        if (!run.sum)
            return 1;
        for (int i = k; i < argc; i++)
            if (add_file(&run, argv[i], 1))
                return 1;
        return write_all(&run, prefix, quiet) ? 1 : 0;
    }
    if (k == argc) {
        fprintf(stderr, "%s: no program to run (try --help)\n", prog);
        return 2;
    }
    char lib[PATH_MAX];
    if (find_library(lib, sizeof lib))
        return 2;
    int rc = find_program(argv[k]);
    if (rc)
        return rc;
    if (prepare(prefix, what, sizeof what)) {
        fprintf(stderr, "%s: cannot write %s: %s; running %s without the trace\n", prog, what,
                strerror(errno), argv[k]);
        fflush(NULL);
        execvp(argv[k], argv + k);
        fprintf(stderr, "%s: %s: %s\n", prog, argv[k], strerror(errno));
        return errno == ENOENT ? 127 : 126;
    }
    int st = run_traced(argv + k, lib, prefix);
    struct run run = {.sum = fct_report_new()};
    if (run.sum) {
        collect(&run, prefix);
        write_all(&run, prefix, quiet);
    }
    exit_like(st);
}
