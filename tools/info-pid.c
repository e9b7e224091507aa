/* info-pid.c - fastcopy-info --pid PID: what a running process has of libfastcopy.
 *
 * From /proc/PID/maps: whether it maps a libfastcopy shared object, which one
 * (the path names the copy of a -Dhwcaps=true install), and the trace library.
 * Then the library's status block (src/control.h: a copy of its decision, the
 * runtime control, the diagnostics, filled by a constructor), read from
 * /proc/PID/mem: found by its magic among the object's writable pages (or the
 * program's, for a static one), parsed only when its layout and size are this
 * tool's.  Where the memory cannot be read (another user's process without root,
 * ptrace restrictions, a library of another version) or --recompute is given,
 * the decision is made again: this program starts itself with the process's
 * FASTCOPY_* variables (from /proc/PID/environ; none when it is AT_SECURE or the
 * environment cannot be read), the same shared object preloaded, the tuning file
 * as it is now and this CPU, and the report says it was recomputed and why. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "control.h"
#include "fastcopy.h"
#include "info-pid.h"

struct map {
    unsigned long lo, hi;
    char perms[8];
    char path[4096];
};

/* The mappings of pid, or NULL with errno set. */
static struct map *read_maps(const char *pid, size_t *n)
{
    char fn[64], line[4300];
    snprintf(fn, sizeof fn, "/proc/%s/maps", pid);
    FILE *f = fopen(fn, "r");
    if (!f)
        return NULL;
    size_t cap = 64;
    struct map *m = malloc(cap * sizeof *m);
    *n = 0;
    while (m && fgets(line, sizeof line, f)) {
        struct map e;
        int off = 0;
        e.path[0] = 0;
        if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &e.lo, &e.hi, e.perms, &off) < 3)
            continue;
        if (off > 0) {
            snprintf(e.path, sizeof e.path, "%s", line + off);
            e.path[strcspn(e.path, "\n")] = 0;
        }
        if (*n == cap) {
            struct map *t = realloc(m, 2 * cap * sizeof *m);
            if (!t)
                break;
            m = t, cap *= 2;
        }
        m[(*n)++] = e;
    }
    fclose(f);
    if (m && *n == 0) {
        free(m);
        errno = EACCES; /* an empty maps file: not readable for us */
        return NULL;
    }
    return m;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static int is_lib(const char *path, int trace)
{
    const char *b = base_name(path);
    if (trace)
        return !strncmp(b, "libfastcopy-trace.so", 20);
    return !strncmp(b, "libfastcopy.so", 14);
}

/* Where the copy was found (docs/packaging.md), from its path. */
static const char *copy_place(const char *path)
{
    if (strstr(path, "/glibc-hwcaps/"))
        return " (in glibc-hwcaps: the loader's choice for this CPU's ISA level)";
    if (strstr(path, "/fastcopy/"))
        return " (beside the level copies: preloaded by path)";
    return "";
}

/* Scans [lo, hi) of the file fd (a process's memory) for the status block; 1 with
 * *st filled when one of this layout and size is there, -1 when one of another
 * is, 0 when none; errno from a failed read. */
static int scan(int fd, unsigned long lo, unsigned long hi, struct fc_status *st)
{
    static const char magic[] = FC_STATUS_MAGIC;
    enum { CHUNK = 1 << 16 };
    char *buf = malloc(CHUNK + sizeof magic);
    int found = 0;
    if (!buf)
        return 0;
    for (unsigned long a = lo; a < hi && !found; a += CHUNK) {
        size_t want = hi - a < CHUNK + sizeof magic ? hi - a : CHUNK + sizeof magic;
        ssize_t got = pread(fd, buf, want, (off_t)a);
        if (got <= 0)
            break;
        for (char *p = buf; (p = memmem(p, (size_t)got - (size_t)(p - buf), magic, sizeof magic - 1));
             p++) {
            struct fc_status t;
            if (pread(fd, &t, sizeof t, (off_t)(a + (unsigned long)(p - buf))) != (ssize_t)sizeof t)
                continue;
            if (t.layout == FC_STATUS_LAYOUT && t.size == sizeof t) {
                *st = t;
                found = 1;
            } else {
                found = -1;
            }
            break;
        }
    }
    free(buf);
    return found;
}

/* The status block of the object at path in the process, read through memfile. */
static int read_block(const char *memfile, const struct map *m, size_t n, const char *path,
                      struct fc_status *st, char *why, size_t whylen)
{
    int fd = open(memfile, O_RDONLY);
    if (fd < 0) {
        snprintf(why, whylen, "its memory cannot be read (%s: %s%s)", memfile, strerror(errno),
                 geteuid() ? "; another user's process needs root" : "");
        return 0;
    }
    int found = 0;
    errno = 0;
    for (size_t i = 0; i < n && found == 0; i++)
        if (m[i].perms[1] == 'w' && !strcmp(m[i].path, path))
            found = scan(fd, m[i].lo, m[i].hi, st);
    int err = errno;
    close(fd);
    if (found == 1)
        return 1;
    if (found < 0)
        snprintf(why, whylen, "its libfastcopy keeps its state in another layout (another "
                              "version than this tool's %s)", fc_version());
    else if (err)
        snprintf(why, whylen, "its memory cannot be read (%s)", strerror(err));
    else
        snprintf(why, whylen, "no status block found in its memory");
    return 0;
}

/* --status-dump (the recomputing child): this process's own block, raw, on stdout. */
int fc_info_status_dump(void)
{
    Dl_info di;
    size_t n;
    struct map *m = read_maps("self", &n);
    struct fc_status st;
    char why[256];
    if (!m || !dladdr((void *)fc_version, &di) || !di.dli_fname)
        return 1;
    if (!read_block("/proc/self/mem", m, n, di.dli_fname, &st, why, sizeof why))
        return 1;
    return fwrite(&st, sizeof st, 1, stdout) == 1 ? 0 : 1;
}

/* A whole /proc file (malloc'ed, NUL-terminated, *len bytes), or NULL. */
static char *read_file(const char *fn, size_t *len)
{
    int fd = open(fn, O_RDONLY);
    if (fd < 0)
        return NULL;
    size_t cap = 4096, n = 0;
    char *b = malloc(cap + 1);
    ssize_t r;
    while (b && (r = read(fd, b + n, cap - n)) > 0) {
        n += (size_t)r;
        if (n == cap) {
            char *t = realloc(b, 2 * cap + 1);
            if (!t) {
                free(b);
                b = NULL;
                break;
            }
            b = t, cap *= 2;
        }
    }
    close(fd);
    if (b)
        b[n] = 0;
    *len = n;
    return b;
}

/* AT_SECURE from /proc/PID/auxv: 1, 0, or -1 when it cannot be read. */
static int secure_of(const char *pid)
{
    char fn[64];
    size_t len;
    snprintf(fn, sizeof fn, "/proc/%s/auxv", pid);
    unsigned long *a = (unsigned long *)read_file(fn, &len);
    int r = -1;
    for (size_t i = 0; a && i + 1 < len / sizeof *a; i += 2)
        if (a[i] == 23 /* AT_SECURE */)
            r = a[i + 1] != 0;
    free(a);
    return r;
}

/* The decision made again, as the process would make it now: this program run
 * with its FASTCOPY_* variables and its shared object preloaded. */
static int recompute(const char *pid, const char *lib, struct fc_status *st, char *how,
                     size_t howlen)
{
    char fn[64], cwd[4096];
    size_t len = 0;
    int secure = secure_of(pid);
    snprintf(fn, sizeof fn, "/proc/%s/environ", pid);
    char *env = secure == 1 ? NULL : read_file(fn, &len);
    snprintf(fn, sizeof fn, "/proc/%s/cwd", pid);
    ssize_t cl = readlink(fn, cwd, sizeof cwd - 1);
    cwd[cl > 0 ? cl : 0] = 0;
    char **envp = calloc(len / 2 + 4, sizeof *envp);
    size_t k = 0;
    if (!envp)
        return 0;
    for (const char *p = env; env && p < env + len; p += strlen(p) + 1) {
        if (strncmp(p, "FASTCOPY_", 9))
            continue;
        if (!strncmp(p, "FASTCOPY_TUNING=", 16) && p[16] && p[16] != '/' && cwd[0]) {
            /* relative to the process's working directory, not ours */
            char *e = malloc(strlen(cwd) + strlen(p) + 2);
            if (e)
                sprintf(e, "FASTCOPY_TUNING=%s/%s", cwd, p + 16);
            envp[k++] = e;
        } else {
            envp[k++] = strdup(p);
        }
    }
    char preload[4200];
    if (lib && access(lib, R_OK) == 0) {
        snprintf(preload, sizeof preload, "LD_PRELOAD=%s", lib);
        envp[k++] = preload;
    }
    envp[k] = NULL;
    snprintf(how, howlen, "%s; %s",
             secure == 1 ? "the process is AT_SECURE: its FASTCOPY_* variables do not apply"
             : env       ? "its FASTCOPY_* variables from /proc/PID/environ"
                         : "its environment cannot be read: without FASTCOPY_* variables",
             lib && access(lib, R_OK) == 0 ? "the same shared object, the tuning file and the "
                                              "CPU as they are now"
                                            : "this tool's library (the process's is gone), "
                                              "the tuning file and the CPU as they are now");
    int pfd[2];
    if (pipe(pfd))
        return 0;
    pid_t child = fork();
    if (child == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(pfd[1], 1);
        if (null >= 0)
            dup2(null, 2);
        close(pfd[0]);
        char *argv[] = {"fastcopy-info", "--status-dump", NULL};
        execve("/proc/self/exe", argv, envp);
        _exit(127);
    }
    close(pfd[1]);
    size_t got = 0;
    ssize_t r;
    while (child > 0 && got < sizeof *st &&
           (r = read(pfd[0], (char *)st + got, sizeof *st - got)) > 0)
        got += (size_t)r;
    close(pfd[0]);
    int status = 0;
    if (child > 0)
        waitpid(child, &status, 0);
    free(env);
    return got == sizeof *st && st->layout == FC_STATUS_LAYOUT;
}

static const char *from_name(unsigned char f)
{
    return f == FC_FROM_ENV ? "environment" : f == FC_FROM_FILE ? "tuning file" : "policy";
}

static void report(const struct fc_status *st, const char *state, const char *path, int recomputed)
{
    printf("  libfastcopy %s (%s)\n", st->version, st->arch);
    if (st->copy[0])
        printf("  copy: %s%s\n", st->copy, copy_place(path));
    else if (st->body[0])
        printf("  copy: a build for its build machine (dropin_body=%s)\n", st->body);
    printf("  state: %s\n", state);
    if (st->binding[0]) {
        const char *how = !strcmp(st->binding, "ifunc")  ? "IFUNC symbols bound at load"
                          : !strcmp(st->binding, "stub") ? "jumps through slots filled at the first call"
                          : !strcmp(st->binding, "trampoline")
                              ? "each one jump through a slot (dropin_body=none)"
                              : "memcpy, memmove and memset a kernel, the others jumps through slots";
        printf("  exported names: %s%s%s\n", how, st->body[0] && strcmp(st->body, "none") ? "; body " : "",
               st->body[0] && strcmp(st->body, "none") ? st->body : "");
    } else {
        printf("  exported names: not linked in (the program calls fc_* functions only)\n");
    }
    if (!st->disabled)
        printf("  runtime control: enabled\n");
    else
        printf("  runtime control: disabled by %s%s%s: %s\n",
               st->disabled & FC_DISABLED_ENV ? "FASTCOPY_DISABLE=1" : "",
               st->disabled == (FC_DISABLED_ENV | FC_DISABLED_FILE) ? " and " : "",
               st->disabled & FC_DISABLED_FILE ? FC_DISABLE_FILE : "",
               st->libc_bound == 7 ? "every exported name calls the C library's function"
               : st->libc_bound    ? "some exported names call the C library's function"
                                   : "no C library function found (static program): "
                                     "libfastcopy's stay");
    printf("  variants (from: policy, tuning file or environment; why):\n");
    for (int f = 0; f < FC_NFUNCS; f++) {
        const char *inl = st->disabled ? "(disabled)"
                          : st->inline_[f] == 1 ? "runs its body directly"
                          : st->inline_[f] == 0 ? "diverted to it on every call"
                                                : "";
        printf("    %-8s %-14s %-11s %s%s%s\n", fc_func_name(f), st->variant[f],
               from_name(st->dec.sel_from[f]), inl, inl[0] ? "; " : "", st->dec.why[f]);
    }
    printf("  tuning file: %s\n", st->dec.tuning);
    if (st->ndiag) {
        printf("  messages: %u (%s)\n", st->ndiag,
               recomputed      ? "the first is what it prints on stderr unless quiet"
               : st->printed   ? "the first printed on its stderr"
               : st->quiet & 1 ? "none printed: FASTCOPY_QUIET=1"
               : st->quiet & 2 ? "none printed: " FC_QUIET_FILE
                               : "none printed");
        for (int i = 0; i < 4 && st->diag[i][0]; i++)
            printf("    %s\n", st->diag[i]);
    }
}

int fc_info_pid(const char *pid, int force_recompute)
{
    char fn[64], comm[64] = "?";
    size_t n = 0;
    for (const char *p = pid; *p; p++)
        if (*p < '0' || *p > '9') {
            fprintf(stderr, "fastcopy-info: --pid %s: not a process id\n", pid);
            return 2;
        }
    snprintf(fn, sizeof fn, "/proc/%s/comm", pid);
    FILE *f = fopen(fn, "r");
    if (!f) {
        fprintf(stderr, "fastcopy-info: --pid %s: no such process\n", pid);
        return 1;
    }
    if (fgets(comm, sizeof comm, f))
        comm[strcspn(comm, "\n")] = 0;
    fclose(f);
    struct map *m = read_maps(pid, &n);
    if (!m) {
        printf("process %s (%s): cannot tell: /proc/%s/maps: %s%s\n", pid, comm, pid, strerror(errno),
               geteuid() ? " (another user's process: run as root)" : "");
        return 1;
    }
    const char *lib = NULL, *trace = NULL, *exe = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!lib && is_lib(m[i].path, 0))
            lib = m[i].path;
        if (!trace && is_lib(m[i].path, 1))
            trace = m[i].path;
        if (!exe && m[i].path[0] == '/')
            exe = m[i].path; /* the first file mapped: the program */
    }
    char memfile[64], why[512] = "";
    snprintf(memfile, sizeof memfile, "/proc/%s/mem", pid);
    struct fc_status st;
    if (!lib && !trace) {
        /* a static program (libfastcopy.a) keeps the block in its own pages */
        if (exe && read_block(memfile, m, n, exe, &st, why, sizeof why)) {
            printf("process %s (%s): %s (libfastcopy.a, linked statically)\n", pid, comm, exe);
            report(&st, "read from the process's memory", exe, 0);
            free(m);
            return 0;
        }
        printf("process %s (%s): no libfastcopy shared object mapped%s%s\n", pid, comm,
               why[0] && strstr(why, "cannot be read") ? "; a static program might contain "
                                                         "libfastcopy.a, but " : "",
               why[0] && strstr(why, "cannot be read") ? why : "");
        free(m);
        return 1;
    }
    const char *obj = lib ? lib : trace;
    printf("process %s (%s): %s\n", pid, comm, obj);
    if (lib && trace)
        printf("  also mapped: %s (the tracing build: it binds the names)\n", trace);
    int got = 0;
    if (force_recompute)
        snprintf(why, sizeof why, "--recompute");
    else
        got = read_block(memfile, m, n, obj, &st, why, sizeof why);
    if (got && !st.ready) {
        got = 0;
        snprintf(why, sizeof why, "its libfastcopy has not finished loading");
    }
    if (got) {
        report(&st, "read from the process's memory", obj, 0);
    } else {
        char how[512], state[1100];
        if (!recompute(pid, strstr(obj, " (deleted)") ? NULL : obj, &st, how, sizeof how)) {
            printf("  state: unknown: %s, and recomputing it failed\n", why);
            free(m);
            return 1;
        }
        snprintf(state, sizeof state, "recomputed, not read (%s): %s", why, how);
        report(&st, state, obj, 1);
    }
    free(m);
    return 0;
}
