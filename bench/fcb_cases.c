/* fcb_cases.c - the implementations, the cases and the timing loops; shared by
 * fcbench (C) and fcbench-gbench (Google Benchmark).  See fcb.h for the names.
 *
 * Memory: two arenas, S (sources) and D (destinations), mapped once and filled so
 * every page is real.  Hot cases reuse the same bytes every call; cold cases walk a
 * shuffled list of page-aligned slots spread over a region of 4x the last-level
 * cache in each arena (2x for --quick), so every call misses.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <errno.h>
#include <fnmatch.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "fastcopy.h"
#include "fcb.h"
#include "fc_internal.h" /* fc_parse_size */

typedef void *(*copy_fn)(void *, const void *, size_t);
typedef void *(*set_fn)(void *, int, size_t);
typedef size_t (*copy_user_fn)(void *, const void *, size_t);
typedef size_t (*clear_user_fn)(void *, size_t);

/* fcb_empty.c: the call-overhead floor, in its own file so it is never inlined. */
void *fcb_empty_copy(void *d, const void *s, size_t n);
void *fcb_empty_set(void *d, int c, size_t n);

#define KiB ((size_t)1024)
#define MiB (1024 * KiB)

const char *fcb_func_name(int f)
{
    return f == FCB_MEMCPY ? "memcpy" : f == FCB_MEMMOVE ? "memmove" : "memset";
}

const char *fcb_arch(void)
{
#if defined(__x86_64__)
    return "x86_64";
#elif defined(__aarch64__)
    return "aarch64";
#elif defined(__riscv) && __riscv_xlen == 64
    return "riscv64";
#else
    return "other";
#endif
}

double fcb_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* ---- options ------------------------------------------------------------------------ */

const char *fcb_prog = "fcbench";

void fcb_err(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", fcb_prog);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

void fcb_config_default(struct fcb_config *c)
{
    memset(c, 0, sizeof *c);
    c->cpu = -1;
    c->seed = 1;
    c->progress = 1;
}

/* The library's size grammar (fc_parse_size, src/util.c): one for both. */
static int parse_size(const char *s, size_t *out)
{
    return fc_parse_size(s, out) ? 0 : -1;
}

/* A whole decimal (or 0x) number, nothing after it. */
static int parse_u64(const char *s, unsigned long long *out)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

void fcb_config_usage(void)
{
    fputs(
        "case selection and measurement (both front ends):\n"
        "  --quick             small matrix, 7 rounds: a few seconds (CI smoke test)\n"
        "  --func LIST         memcpy,memmove,memset (default: all)\n"
        "  --group LIST        sizes,misal,pageend,dist,cold,ws,overlap,mix,\n"
        "                      mixread,chain,prog,user (default: all).  chain: a value\n"
        "                      the caller stores, passes through the call and loads\n"
        "                      back (N: N bytes, a word of up to 8; N/wW: W-byte vector\n"
        "                      accesses).  prog (memcpy), what programs do around the\n"
        "                      call: sqlite, sqlite-mmap: 4092-byte copies from pages\n"
        "                      walked in address order in memory (4384 or 4096 bytes\n"
        "                      apart), each followed by a load of the next page's\n"
        "                      header; lz4/N: N bytes from a 4 MiB block to one buffer,\n"
        "                      then read; fresh/N: N bytes written, copied, the copy\n"
        "                      read (man fcbench: every address)\n"
        "  --case LIST         shell patterns on case names, e.g. 'memcpy/mix/*,*/sizes/4096'\n"
        "  --impl LIST         auto,generic,avx2,...,empty,copy_user (libc is always kept:\n"
        "                      it is the baseline)\n"
        "  --with LIB[=NAME]   also time LIB's memcpy/memmove/memset (dlopen'ed, its\n"
        "                      IFUNCs resolved): another drop-in such as AOCL-LibMem;\n"
        "                      shown as NAME (default: the file name without lib and .so);\n"
        "                      repeatable, up to 8\n"
        "  --max-size N        largest size per call (default 256M; --quick 1M)\n"
        "  --rounds N          interleaved rounds (default 15; --quick 7)\n"
        "  --sample-us N       target time of one sample in us (default 200; --quick 100)\n"
        "  --l1 N --l2 N --l3 N  cache sizes (default: sysfs, then sysconf with a sanity\n"
        "                      check, then 48K/1M/32M)\n"
        "  --cpu N             pin to CPU N (default: the CPU we start on)\n"
        "  --seed N            seed of the size-mix draws and cold walks (default 1)\n"
        "  --mix-align N       size-mix src/dst offsets are multiples of N (default 1:\n"
        "                      uniform over 0..4095, as LLVM's benchmark by default)\n"
        "  --mix-ops N         calls per size-mix sequence, one sample = one pass (default\n"
        "                      65536: too long for the branch predictors to learn)\n"
        "  --dist-dir DIR      read the size-mix .csv files from DIR instead of the copies\n"
        "                      built into the binary\n"
        "  --dist FILE...      replay these size distributions (fastcopy-trace's\n"
        "                      PREFIX.memcpy.csv ..., or PREFIX for all three; the format\n"
        "                      of bench/distributions, extended) as the mix cases, in the\n"
        "                      three regimes, for the function each was recorded for;\n"
        "                      implies --group mix unless --group is given\n"
        "  --no-progress       no progress lines on stderr\n",
        stdout);
}

int fcb_config_arg(struct fcb_config *c, int argc, char **argv, int *k)
{
    const char *a = argv[*k];
    const char *v = *k + 1 < argc ? argv[*k + 1] : NULL;
    size_t sz;
    unsigned long long u;
#define NEEDV                                                                      \
    do {                                                                           \
        if (!v) {                                                                  \
            fcb_err("%s needs a value\n", a);                     \
            return -1;                                                             \
        }                                                                          \
    } while (0)
    /* A size of at least lo bytes (K, M, G suffixes). */
#define SIZEV(field, lo, what)                                                     \
    do {                                                                           \
        NEEDV;                                                                     \
        if (parse_size(v, &sz) || sz < (lo)) {                                     \
            fcb_err("%s '%s': not a size %s\n", a, v, what);      \
            return -1;                                                             \
        }                                                                          \
        c->field = sz;                                                             \
        return 2;                                                                  \
    } while (0)
#define LISTV(field)                                                               \
    do {                                                                           \
        NEEDV;                                                                     \
        if (!*v) {                                                                 \
            fcb_err("%s '': empty list\n", a);                    \
            return -1;                                                             \
        }                                                                          \
        c->field = v;                                                              \
        return 2;                                                                  \
    } while (0)
    if (!strcmp(a, "--quick")) {
        c->quick = 1;
        return 1;
    }
    if (!strcmp(a, "--no-progress")) {
        c->progress = -1;
        return 1;
    }
    if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
        c->verbose++;
        return 1;
    }
    if (!strcmp(a, "--func")) LISTV(funcs);
    if (!strcmp(a, "--group")) LISTV(groups);
    if (!strcmp(a, "--case")) LISTV(cases);
    if (!strcmp(a, "--impl")) { if (v) v = fcb_current_names(v); LISTV(impls); }
    if (!strcmp(a, "--dist-dir")) { NEEDV; c->dist_dir = v; return 2; }
    if (!strcmp(a, "--dist")) {
        /* every following argument up to the next option: a file, or a PREFIX
         * standing for PREFIX.memcpy.csv, PREFIX.memmove.csv, PREFIX.memset.csv */
        int used = 1;
        for (; *k + used < argc && argv[*k + used][0] != '-'; used++) {
            const char *f = argv[*k + used];
            struct stat sb;
            int expanded = 0;
            if (stat(f, &sb) && errno == ENOENT) {
                static const char *const sfx[] = {".memcpy.csv", ".memmove.csv", ".memset.csv"};
                for (size_t i = 0; i < 3; i++) {
                    char path[4096];
                    snprintf(path, sizeof path, "%s%s", f, sfx[i]);
                    if (access(path, F_OK))
                        continue;
                    if (c->ndists == FCB_MAX_DISTS) {
                        fcb_err("--dist: at most %d files\n", FCB_MAX_DISTS);
                        return -1;
                    }
                    c->dists[c->ndists++] = strdup(path);
                    expanded = 1;
                }
            }
            if (expanded)
                continue;
            if (c->ndists == FCB_MAX_DISTS) {
                fcb_err("--dist: at most %d files\n", FCB_MAX_DISTS);
                return -1;
            }
            c->dists[c->ndists++] = f; /* checked by fcb_config_check */
        }
        if (used == 1) {
            fcb_err("--dist needs a value\n");
            return -1;
        }
        return used;
    }
    if (!strcmp(a, "--with")) {
        NEEDV;
        if (c->nwith == FCB_MAX_WITH) {
            fcb_err("--with '%s': at most %d --with libraries\n", v,
                    FCB_MAX_WITH);
            return -1;
        }
        c->with[c->nwith++] = v;
        return 2;
    }
    if (!strcmp(a, "--max-size")) SIZEV(max_size, 1, "of at least 1 byte (K, M, G suffixes)");
    if (!strcmp(a, "--mix-ops")) SIZEV(mix_ops, 16, "of at least 16 calls");
    if (!strcmp(a, "--l1")) SIZEV(l1, 1024, "of at least 1K (K, M, G suffixes)");
    if (!strcmp(a, "--l2")) SIZEV(l2, 1024, "of at least 1K (K, M, G suffixes)");
    if (!strcmp(a, "--l3")) SIZEV(l3, 1024, "of at least 1K (K, M, G suffixes)");
    if (!strcmp(a, "--mix-align")) {
        NEEDV;
        if (parse_size(v, &sz) || sz < 1 || sz > 4096) {
            fcb_err("--mix-align '%s': not a number 1..4096\n", v);
            return -1;
        }
        c->mix_align = sz;
        return 2;
    }
    if (!strcmp(a, "--rounds")) {
        NEEDV;
        if (parse_u64(v, &u) || u < 2 || u > 1000) {
            fcb_err("--rounds '%s': not a number 2..1000\n", v);
            return -1;
        }
        c->rounds = (int)u;
        return 2;
    }
    if (!strcmp(a, "--sample-us")) {
        NEEDV;
        char *end;
        double d = strtod(v, &end);
        if (end == v || *end || !(d > 0) || d > 1e7) {
            fcb_err("--sample-us '%s': not a number of microseconds "
                            "above 0 (up to 1e7)\n", v);
            return -1;
        }
        c->sample_us = d;
        return 2;
    }
    if (!strcmp(a, "--cpu")) {
        NEEDV;
        if (parse_u64(v, &u) || u >= CPU_SETSIZE) {
            fcb_err("--cpu '%s': not a CPU number 0..%d\n", v,
                    CPU_SETSIZE - 1);
            return -1;
        }
        c->cpu = (int)u;
        return 2;
    }
    if (!strcmp(a, "--seed")) {
        NEEDV;
        if (parse_u64(v, &u)) {
            fcb_err("--seed '%s': not an unsigned number\n", v);
            return -1;
        }
        c->seed = u;
        return 2;
    }
    return 0;
#undef NEEDV
#undef SIZEV
#undef LISTV
}

/* Is `name` in the comma-separated list (NULL list = everything)?  With glob, the
 * list's entries are fnmatch patterns. */
static int in_list(const char *list, const char *name, int glob)
{
    if (!list)
        return 1;
    char buf[256];
    const char *p = list;
    while (*p) {
        size_t len = strcspn(p, ",");
        if (len < sizeof buf) {
            memcpy(buf, p, len);
            buf[len] = 0;
            if (glob ? !fnmatch(buf, name, 0) : !strcmp(buf, name))
                return 1;
        }
        p += len;
        if (*p == ',')
            p++;
    }
    return 0;
}

/* ---- cache sizes --------------------------------------------------------------------- */

/* The first line of cpu0's cache index idx's sysfs file `what`, without its
 * newline, into buf; 0 when there is none. */
static int read_cache_attr(int idx, const char *what, char *buf, size_t size)
{
    char path[96];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/%s", idx, what);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int ok = fgets(buf, (int)size, f) != NULL;
    fclose(f);
    if (ok)
        buf[strcspn(buf, "\n")] = 0;
    return ok;
}

static size_t read_sysfs_cache(int level, int data)
{
    size_t best = 0;
    for (int idx = 0; idx < 8; idx++) {
        char buf[64];
        size_t v;
        if (!read_cache_attr(idx, "level", buf, sizeof buf) || atoi(buf) != level)
            continue;
        if (!read_cache_attr(idx, "type", buf, sizeof buf) ||
            (data && !strncmp(buf, "Instruction", 11)))
            continue;
        if (read_cache_attr(idx, "size", buf, sizeof buf) && !parse_size(buf, &v) &&
            v > best)
            best = v;
    }
    return best;
}

static void detect_caches(const struct fcb_config *cfg, struct fcb_cache *c)
{
    static const size_t dflt[3] = {48 * KiB, 1 * MiB, 32 * MiB};
    /* Sanity bounds: VMs report zeros or absurd values (this project's reference VM:
     * CPUID, hence sysconf, claims a 508 MiB L3; the real one is 32 MiB). */
    static const size_t lo[3] = {4 * KiB, 64 * KiB, 256 * KiB};
    static const size_t hi[3] = {1 * MiB, 64 * MiB, 256 * MiB};
    const size_t flag[3] = {cfg->l1, cfg->l2, cfg->l3};
    size_t *out[3] = {&c->l1, &c->l2, &c->l3};
    const char **src[3] = {&c->src_l1, &c->src_l2, &c->src_l3};
    for (int l = 0; l < 3; l++) {
        size_t v;
        if (flag[l]) {
            *out[l] = flag[l];
            *src[l] = "flag";
            continue;
        }
        v = read_sysfs_cache(l + 1, 1);
        if (v >= lo[l] && v <= hi[l]) {
            *out[l] = v;
            *src[l] = "sysfs";
            continue;
        }
        long sc = -1;
#ifdef _SC_LEVEL1_DCACHE_SIZE
        sc = sysconf(l == 0 ? _SC_LEVEL1_DCACHE_SIZE
                     : l == 1 ? _SC_LEVEL2_CACHE_SIZE
                              : _SC_LEVEL3_CACHE_SIZE);
#endif
        if (sc > 0 && (size_t)sc >= lo[l] && (size_t)sc <= hi[l]) {
            *out[l] = (size_t)sc;
            *src[l] = "sysconf";
            continue;
        }
        *out[l] = dflt[l];
        *src[l] = "default";
    }
}

/* ---- implementations ----------------------------------------------------------------- */

static void add_impl(struct fcb_state *st, const char *name, int func, int kind, int flags,
                     void (*fn)(void))
{
    /* libc, --with, the empty call (the floor of the mix targets) and the limit
     * kernels are always timed: the others are measured against them */
    if (!(flags & (FCB_I_LIBC | FCB_I_WITH | FCB_I_LIMIT | FCB_I_EMPTY)) &&
        !in_list(st->cfg.impls, name, 0))
        return;
    struct fcb_impl *im = &st->impls[st->nimpls++];
    snprintf(im->name, sizeof im->name, "%s", name);
    im->func = func;
    im->kind = kind;
    im->flags = flags;
    im->fn = fn;
}

/* The C library's own functions, through dlsym so its IFUNC choice is what runs and
 * the compiler cannot inline or specialise them.  Static builds (no dlopen) take
 * the address of the libc symbol through a volatile object instead. */
static void libc_fns(struct fcb_state *st, void (**fns)(void))
{
    static void *(*volatile vcpy)(void *, const void *, size_t) = memcpy;
    static void *(*volatile vmove)(void *, const void *, size_t) = memmove;
    static void *(*volatile vset)(void *, int, size_t) = memset;
    fns[FCB_MEMCPY] = (void (*)(void))vcpy;
    fns[FCB_MEMMOVE] = (void (*)(void))vmove;
    fns[FCB_MEMSET] = (void (*)(void))vset;
    st->libc_how = "address of the libc symbol (static build)";
#ifndef FCB_STATIC
    static const char *const names[3] = {"memcpy", "memmove", "memset"};
    /* musl's loader answers every "libc.*" (and "libm.so.6", ...) with itself: its
     * own name first, so that the output says musl there. */
    static const char *const libs[] = {"libc.musl-x86_64.so.1", "libc.so.6", "libc.so"};
    for (size_t l = 0; l < sizeof libs / sizeof *libs; l++) {
        void *h = dlopen(libs[l], RTLD_LAZY | RTLD_NOLOAD);
        if (!h)
            continue;
        int ok = 1;
        void *p[3];
        for (int f = 0; f < 3; f++)
            ok &= (p[f] = dlsym(h, names[f])) != NULL;
        if (ok) {
            for (int f = 0; f < 3; f++)
                fns[f] = (void (*)(void))p[f];
            st->libc_how = libs[l];
            return;
        }
    }
#endif
}

/* --with LIB[=NAME]: the path, and the name (default: the file name without "lib"
 * and the suffixes).  -1 when the path is empty or too long. */
static int with_split(const char *arg, char path[256], char name[24])
{
    const char *eq = strrchr(arg, '='); /* a path may hold '=', a NAME no '/' */
    if (eq && strchr(eq, '/'))
        eq = NULL;
    size_t plen = eq ? (size_t)(eq - arg) : strlen(arg);
    if (plen == 0 || plen >= 256)
        return -1;
    memcpy(path, arg, plen);
    path[plen] = 0;
    if (eq && eq[1]) {
        snprintf(name, 24, "%s", eq + 1);
    } else {
        const char *b = strrchr(path, '/');
        b = b ? b + 1 : path;
        if (!strncmp(b, "lib", 3) && b[3])
            b += 3;
        size_t n = strcspn(b, ".");
        if (n >= 24)
            n = 23;
        memcpy(name, b, n);
        name[n] = 0;
    }
    return 0;
}

/* --with LIB: each function is called once per size class (0 B to 8 MiB, so
 * that its non-temporal and rep paths run too) in a child process before any
 * timing, so that a library built for another CPU (AOCL-LibMem's zen4 and zen5
 * builds use AVX-512: SIGILL on a Zen 1-3 or an Intel client core) or a broken
 * one is named in one line instead of killing the run; the results are checked
 * too.  0 when every call returned and was right. */
static int with_probe(const char *arg, void *const fns[FCB_NFUNCS])
{
    static const char *const fnames[3] = {"memcpy", "memmove", "memset"};
    static const size_t sizes[] = {0, 1, 7, 16, 33, 64, 100, 200, 300, 600, 1500, 3000, 5000,
                                   9000, 20000, 70000, 300000, 1 << 20, 8 << 20};
    int fd[2];
    if (pipe(fd)) {
        fcb_err("--with '%s': pipe: %s\n", arg, strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fcb_err("--with '%s': fork: %s\n", arg, strerror(errno));
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        close(fd[0]);
        size_t cap = (8 << 20) + 64;
        unsigned char *a = malloc(cap), *b = malloc(cap);
        if (!a || !b)
            _exit(2);
        for (int f = 0; f < FCB_NFUNCS; f++) {
            if (!fns[f])
                continue;
            for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
                size_t n = sizes[i];
                /* what is being called, written before the call: the parent
                 * names the last one when the child dies */
                int rec[2] = {f, (int)i};
                if (write(fd[1], rec, sizeof rec) != (ssize_t)sizeof rec)
                    _exit(2);
                for (size_t k = 0; k < n + 3; k++)
                    a[k] = (unsigned char)(k * 7 + 1), b[k] = 0;
                int bad = 0;
                if (f == FCB_MEMSET) {
                    void *(*fn)(void *, int, size_t) = (void *(*)(void *, int, size_t))fns[f];
                    bad = fn(b + 1, 0x5a, n) != b + 1;
                    for (size_t k = 0; k < n && !bad; k++)
                        bad = b[1 + k] != 0x5a;
                } else {
                    void *(*fn)(void *, const void *, size_t) =
                        (void *(*)(void *, const void *, size_t))fns[f];
                    bad = fn(b + 1, a + 3, n) != b + 1;
                    for (size_t k = 0; k < n && !bad; k++)
                        bad = b[1 + k] != a[3 + k];
                }
                bad |= b[0] != 0 || b[n + 1] != 0;
                if (bad)
                    _exit(3);
            }
        }
        _exit(0);
    }
    close(fd[1]);
    int last[2] = {-1, -1}, rec[2];
    while (read(fd[0], rec, sizeof rec) == (ssize_t)sizeof rec)
        last[0] = rec[0], last[1] = rec[1];
    close(fd[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    const char *fname = last[0] >= 0 ? fnames[last[0]] : "?";
    size_t n = last[1] >= 0 ? sizes[last[1]] : 0;
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGILL)
        fcb_err("--with '%s': its %s died of SIGILL (illegal instruction) on a %zu-byte call: "
                "the library was built for a CPU this one is not\n",
                arg, fname, n);
    else if (WIFSIGNALED(status))
        fcb_err("--with '%s': its %s died of signal %d (%s) on a %zu-byte call\n", arg, fname,
                WTERMSIG(status), strsignal(WTERMSIG(status)), n);
    else if (WEXITSTATUS(status) == 3)
        fcb_err("--with '%s': its %s gave a wrong result on a %zu-byte call\n", arg, fname, n);
    else
        fcb_err("--with '%s': the test calls could not run (exit status %d)\n", arg,
                WEXITSTATUS(status));
    return -1;
}

/* --with LIB[=NAME]: another library's memcpy/memmove/memset, dlopen'ed with
 * RTLD_LOCAL so it does not replace anyone's symbols; dlsym resolves its IFUNCs.
 * A library without one of the three is timed on the others. */
static int with_impls(struct fcb_state *st, int w)
{
    const char *arg = st->cfg.with[w];
    char path[256], name[sizeof st->impls[0].name];
    if (with_split(arg, path, name)) {
        fcb_err("--with '%s': bad library path\n", arg);
        return -1;
    }
    static const char *const reserved[] = {"libc", "libc2", "auto", "empty", "copy_user",
                                           "clear_user", "read", "write", "ntwrite"};
    /* ("dropin" may be taken: then that library stands for the drop-in names) */
    for (size_t r = 0; r < sizeof reserved / sizeof *reserved; r++)
        if (!strcmp(name, reserved[r]) || !name[0]) {
            fcb_err("--with '%s': name '%s' is taken; use LIB=NAME\n", arg,
                    name);
            return -1;
        }
    for (int i = 0; i < st->nimpls; i++)
        if (!strcmp(st->impls[i].name, name)) {
            fcb_err("--with '%s': name '%s' is taken; use LIB=NAME\n", arg,
                    name);
            return -1;
        }
#ifdef FCB_STATIC
    fcb_err("--with needs a dynamically linked fcbench\n");
    return -1;
#else
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fcb_err("--with '%s': %s\n", path, dlerror());
        return -1;
    }
    static const char *const fnames[3] = {"memcpy", "memmove", "memset"};
    static const int kinds[3] = {FCB_K_COPY, FCB_K_COPY, FCB_K_SET};
    char *how = st->with_how[w];
    size_t hl = sizeof st->with_how[w];
    int found = 0;
    void *fns[FCB_NFUNCS] = {0};
    /* libfastcopy itself (its drop-in names, as a preloading program calls them):
     * timed beside the others, never counted as a peer. */
    int ours = 0;
    {
        void *v = dlsym(h, "fc_variants");
        Dl_info di;
        struct link_map *lm = NULL;
        ours = v && dladdr(v, &di) && dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm &&
               di.dli_fname && !strcmp(di.dli_fname, lm->l_name);
    }
    snprintf(how, hl, "%s = %s%s (", name, path, ours ? " [libfastcopy: not a peer]" : "");
    for (int f = 0; f < FCB_NFUNCS; f++) {
        void *p = dlsym(h, fnames[f]);
        /* dlsym also searches LIB's dependencies: a library that does not
         * define the function would hand back libc's.  Keep only LIB's own. */
        Dl_info di;
        struct link_map *lm = NULL;
        if (p && dladdr(p, &di) && dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm &&
            (!di.dli_fname || strcmp(di.dli_fname, lm->l_name)))
            p = NULL;
        if (!p)
            continue;
        fns[f] = p;
        size_t used = strlen(how);
        snprintf(how + used, hl - used, "%s%s", found ? " " : "", fnames[f]);
        found++;
    }
    size_t used = strlen(how);
    snprintf(how + used, hl - used, "%s)", found ? "" : "none of memcpy memmove memset");
    if (!found) {
        fcb_err("--with '%s': defines none of memcpy, memmove, memset\n",
                path);
        return -1;
    }
    if (with_probe(path, fns))
        return -1;
    for (int f = 0; f < FCB_NFUNCS; f++)
        if (fns[f])
            add_impl(st, name, f, kinds[f], FCB_I_WITH | (ours ? FCB_I_OURS : 0),
                     (void (*)(void))fns[f]);
    return 0;
#endif
}

#ifndef FCB_STATIC
/* "dropin": libfastcopy's shared object, dlopen'ed, timed through its exported
 * memcpy/memmove/memset: what a preloading or linking program calls.  The
 * statically linked "auto" (fc_memcpy ...) is the same kernel, but a call from
 * this program into a shared object travels farther: on this project's Intel VM
 * (Emerald Rapids) a call from the executable into a library cost 0.7-1.2 ns more
 * than one within either (40-byte copies: 3.1 vs 1.9-2.4 ns), and every peer (the
 * C library, --with libraries) is called that way.  So "dropin" is the column to
 * compare with them.  Tried: the build tree's library (FCB_DROPIN_PATH), then
 * libfastcopy.so.0 on the library path. */
static void dropin_impls(struct fcb_state *st)
{
    static const int kinds[3] = {FCB_K_COPY, FCB_K_COPY, FCB_K_SET};
    static const char *const fnames[3] = {"memcpy", "memmove", "memset"};
    const char *paths[] = {
#ifdef FCB_DROPIN_PATH
        FCB_DROPIN_PATH,
#endif
        "libfastcopy.so.0"};
    if (!in_list(st->cfg.impls, "dropin", 0))
        return;
    for (int i = 0; i < st->nimpls; i++)
        if (!strcmp(st->impls[i].name, "dropin"))
            return; /* a --with library took the name */
    for (size_t k = 0; k < sizeof paths / sizeof *paths; k++) {
        void *h = dlopen(paths[k], RTLD_NOW | RTLD_LOCAL);
        if (!h)
            continue;
        void *p[3];
        int ok = dlsym(h, "fc_variants") != NULL;
        for (int f = 0; f < FCB_NFUNCS && ok; f++)
            ok = (p[f] = dlsym(h, fnames[f])) != NULL;
        if (!ok) {
            dlclose(h);
            continue;
        }
        for (int f = 0; f < FCB_NFUNCS; f++)
            add_impl(st, "dropin", f, kinds[f], FCB_I_WITH | FCB_I_OURS, (void (*)(void))p[f]);
        snprintf(st->dropin_how, sizeof st->dropin_how, "%s", paths[k]);
        return;
    }
}
#endif

static int build_impls(struct fcb_state *st)
{
    const struct fc_variant *v;
    size_t nv = fc_variants(&v);
    st->impls = calloc(nv + 32 + 3 * FCB_MAX_WITH, sizeof *st->impls);
    void (*lfn[3])(void);
    libc_fns(st, lfn);
    static const int kinds[3] = {FCB_K_COPY, FCB_K_COPY, FCB_K_SET};
    for (int f = 0; f < FCB_NFUNCS; f++)
        add_impl(st, "libc", f, kinds[f], FCB_I_LIBC, lfn[f]);
    if (st->cfg.libc_twice)
        for (int f = 0; f < FCB_NFUNCS; f++)
            add_impl(st, "libc2", f, kinds[f], 0, lfn[f]);
    for (int w = 0; w < st->cfg.nwith; w++)
        if (with_impls(st, w))
            return -1;
#ifndef FCB_STATIC
    dropin_impls(st);
#endif
    add_impl(st, "auto", FCB_MEMCPY, FCB_K_COPY, FCB_I_AUTO, (void (*)(void))fc_memcpy);
    add_impl(st, "auto", FCB_MEMMOVE, FCB_K_COPY, FCB_I_AUTO, (void (*)(void))fc_memmove);
    add_impl(st, "auto", FCB_MEMSET, FCB_K_SET, FCB_I_AUTO, (void (*)(void))fc_memset);
    for (size_t i = 0; i < nv; i++) {
        if (!v[i].usable)
            continue;
        for (int f = 0; f < FCB_NFUNCS; f++)
            if (!strcmp(v[i].func, fcb_func_name(f)))
                add_impl(st, v[i].name, f, kinds[f], FCB_I_VARIANT, v[i].fn);
    }
    add_impl(st, "copy_user", FCB_MEMCPY, FCB_K_COPY_USER, FCB_I_USER,
             (void (*)(void))fc_copy_user);
    add_impl(st, "clear_user", FCB_MEMSET, FCB_K_CLEAR_USER, FCB_I_USER,
             (void (*)(void))fc_clear_user);
    add_impl(st, "empty", FCB_MEMCPY, FCB_K_COPY, FCB_I_EMPTY, (void (*)(void))fcb_empty_copy);
    add_impl(st, "empty", FCB_MEMMOVE, FCB_K_COPY, FCB_I_EMPTY, (void (*)(void))fcb_empty_copy);
    add_impl(st, "empty", FCB_MEMSET, FCB_K_SET, FCB_I_EMPTY, (void (*)(void))fcb_empty_set);
    for (int f = 0; f < FCB_NFUNCS; f++) {
        int set = f == FCB_MEMSET;
        add_impl(st, "read", f, kinds[f], FCB_I_LIMIT,
                 set ? (void (*)(void))fcb_limit_read_set : (void (*)(void))fcb_limit_read_copy);
        add_impl(st, "write", f, kinds[f], FCB_I_LIMIT,
                 set ? (void (*)(void))fcb_limit_write_set
                     : (void (*)(void))fcb_limit_write_copy);
        add_impl(st, "ntwrite", f, kinds[f], FCB_I_LIMIT,
                 set ? (void (*)(void))fcb_limit_ntwrite_set
                     : (void (*)(void))fcb_limit_ntwrite_copy);
    }
    return 0;
}

/* ---- random numbers (splitmix64: same draws on every platform) ----------------------- */

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t rng_below(uint64_t *s, uint64_t n)
{
    return n ? rng_next(s) % n : 0;
}

static void shuffle_u32(uint32_t *a, size_t n, uint64_t *s)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = rng_below(s, i);
        uint32_t t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

/* ---- cases ---------------------------------------------------------------------------- */

struct builder {
    struct fcb_state *st;
    int cap;
    unsigned char *S, *D;       /* arenas */
    size_t arena;               /* bytes in each */
    size_t cold_region;
    size_t max_size;
    uint64_t rng;
    unsigned char *fault_page;  /* two pages, the second PROT_NONE */
    unsigned char *end_pages;   /* four pages: src, PROT_NONE, dst, PROT_NONE */
    int mix_for_mixread;        /* build the mix cases for mixread even if "mix" is off */
};

static int func_on(const struct builder *b, int f)
{
    return in_list(b->st->cfg.funcs, fcb_func_name(f), 0);
}

static int group_on(const struct builder *b, const char *g)
{
    if (b->mix_for_mixread && !strcmp(g, "mix"))
        return 1;
    return in_list(b->st->cfg.groups, g, 0);
}

/* A case's op array is read on every call of the timed loop, right after the
 * call's stores.  When its address matches the buffers' in the low 12 bits (4K
 * aliasing: the core compares only those bits of a load with earlier stores) the
 * load waits for the stores: on the Zen 5 VM, with op arrays from malloc, single
 * cells of one implementation took 1.15-1.27x their neighbours' time (memmove
 * misal/20 and 41, memcpy misal/20: only libfastcopy's; libc at others), a
 * property of where malloc put the array, not of the implementation.  So a
 * short array (the one-op cases) sits at page offset 2048-3071, away from every
 * small case's buffer offsets (0-1023: sizes, misal, dist, overlap; 3072-4095:
 * pageend); longer arrays (the mixes) span pages and are read once per call in
 * turn, as a program's own data would be.  The pool lives as long as the process. */
#define OPS_POOL_MAX 5 /* ops per 64-byte slot */
static struct fcb_op *ops_alloc(size_t nops)
{
    static unsigned char *page;
    static unsigned slot = 16;
    if (nops > OPS_POOL_MAX)
        return calloc(nops, sizeof(struct fcb_op));
    if (slot == 16) {
        page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (page == MAP_FAILED)
            return calloc(nops, sizeof(struct fcb_op));
        slot = 0;
    }
    return (struct fcb_op *)(void *)(page + 2048 + 64 * slot++);
}

static void ops_free(struct fcb_case *c)
{
    if (c->nops > OPS_POOL_MAX)
        free(c->ops);
}

/* Adds a case (unless filtered out) with room for nops operations; NULL if skipped. */
static struct fcb_case *new_case(struct builder *b, int f, const char *group, size_t size,
                                 size_t nops, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static struct fcb_case *new_case(struct builder *b, int f, const char *group, size_t size,
                                 size_t nops, const char *fmt, ...)
{
    char key[40];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(key, sizeof key, fmt, ap);
    va_end(ap);
    if (!func_on(b, f) || !group_on(b, group) || size > b->max_size)
        return NULL;
    struct fcb_state *st = b->st;
    struct fcb_case c;
    memset(&c, 0, sizeof c);
    int pre = snprintf(c.name, sizeof c.name, "%s/%s/", fcb_func_name(f), group);
    snprintf(c.name + pre, sizeof c.name - pre, "%s", key);
    if (!in_list(st->cfg.cases, c.name, 1))
        return NULL;
    if (st->ncases == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 256;
        st->cases = realloc(st->cases, b->cap * sizeof *st->cases);
    }
    c.func = f;
    c.group = group;
    c.size = size;
    c.sbase = b->S;
    c.dbase = b->D;
    c.nops = nops;
    c.ops = ops_alloc(nops);
    struct fcb_case *p = &st->cases[st->ncases++];
    *p = c;
    return p;
}

static const size_t quick_small[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64};

/* Sizes just off a power of two that programs copy: a page less its 4-byte header
 * (sqlite's overflow pages of 4, 8 and 16 KiB hold 4092, 8188 and 16380 bytes of
 * data), a page plus a header word, and a page one byte either side. */
static const size_t off_pow2[] = {4092, 4095, 4097, 4100, 8188, 8196, 16380};
static const size_t off_pow2_quick[] = {4092, 4100};

/* Inserts v (if not there) into the ascending list out[0..n); the new n. */
static size_t insert_sorted(size_t *out, size_t n, size_t v)
{
    size_t i = n;
    while (i > 0 && out[i - 1] > v)
        i--;
    if (i > 0 && out[i - 1] == v)
        return n;
    memmove(out + i + 1, out + i, (n - i) * sizeof *out);
    out[i] = v;
    return n + 1;
}

/* Sizes: 0..64 every size, then 96, 128, 192, 256, ... (powers of two and the
 * midpoints between them) up to the limit, and off_pow2.  --quick: a subset up
 * to 1 MiB. */
static size_t size_list(const struct builder *b, size_t *out, size_t limit)
{
    size_t n = 0;
    int quick = b->st->cfg.quick;
    const size_t *off = quick ? off_pow2_quick : off_pow2;
    size_t noff = quick ? sizeof off_pow2_quick / sizeof *off_pow2_quick
                        : sizeof off_pow2 / sizeof *off_pow2;
    if (quick) {
        for (size_t i = 0; i < sizeof quick_small / sizeof *quick_small; i++)
            out[n++] = quick_small[i];
        for (size_t s = 96; s <= limit; s = s == 96 ? 128 : s * 2)
            out[n++] = s;
    } else {
        for (size_t s = 0; s <= 64 && s <= limit; s++)
            out[n++] = s;
        for (size_t p = 128; p / 2 * 3 / 2 <= limit && p <= ((size_t)1 << 40); p *= 2) {
            if (p / 4 * 3 <= limit)
                out[n++] = p / 4 * 3;
            if (p <= limit)
                out[n++] = p;
        }
    }
    for (size_t i = 0; i < noff; i++)
        if (off[i] <= limit)
            n = insert_sorted(out, n, off[i]);
    return n;
}

static void fill_one(struct fcb_case *c, uint32_t doff, uint32_t soff, size_t n)
{
    c->ops[0].doff = doff;
    c->ops[0].soff = soff;
    c->ops[0].n = (uint32_t)n;
}

static void cases_sizes(struct builder *b)
{
    size_t sizes[256], n = size_list(b, sizes, b->max_size);
    for (size_t i = 0; i < n; i++)
        for (int f = 0; f < FCB_NFUNCS; f++) {
            struct fcb_case *c = new_case(b, f, "sizes", sizes[i], 1, "%zu", sizes[i]);
            if (c)
                fill_one(c, 0, 0, sizes[i]);
        }
    /* Misaligned: src + 1, dst + 3 (memset: dst + 3); up to 4 MiB. */
    n = size_list(b, sizes, b->max_size < 4 * MiB ? b->max_size : 4 * MiB);
    for (size_t i = 0; i < n; i++) {
        if (!sizes[i])
            continue;
        for (int f = 0; f < FCB_NFUNCS; f++) {
            struct fcb_case *c = new_case(b, f, "misal", sizes[i], 1, "%zu", sizes[i]);
            if (c)
                fill_one(c, 3, 1, sizes[i]);
        }
    }
}

/* Small calls whose buffers end where an unmapped page begins (the end of an
 * mmap'd file, a guard page, a large malloc chunk): masked vector accesses whose
 * masked-out bytes reach into such a page are correct but can cost 100x.  Size 0
 * is a call at the end pointer itself, the first byte of the unmapped page (as
 * memcpy(dst, NULL, 0) is at page 0): any access there, even one with every byte
 * masked out, pays that cost. */
static void cases_pageend(struct builder *b)
{
    static const size_t sizes[] = {0, 1, 4, 8, 16, 24, 32, 48, 63, 64, 100, 128};
    long pg = sysconf(_SC_PAGESIZE);
    if (!group_on(b, "pageend"))
        return;
    if (!b->end_pages) {
        unsigned char *m = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED)
            return;
        memset(m, 0x5a, 4 * pg);
        mprotect(m + pg, pg, PROT_NONE);
        mprotect(m + 3 * pg, pg, PROT_NONE);
        b->end_pages = m;
    }
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (int f = 0; f < FCB_NFUNCS; f++) {
            struct fcb_case *c = new_case(b, f, "pageend", sizes[i], 1, "%zu", sizes[i]);
            if (!c)
                continue;
            c->sbase = b->end_pages;
            c->dbase = b->end_pages + 2 * pg;
            fill_one(c, (uint32_t)(pg - sizes[i]), (uint32_t)(pg - sizes[i]), sizes[i]);
        }
}

/* dst - src distance sweep at 4096 bytes per call.  memmove: dst = src + d, truly
 * overlapping when d < 4096 (rep movsb's short-distance cliff), and 4096 +- k.
 * memcpy (no overlap allowed): dst = src + 64 KiB + d, the same distance modulo the
 * page (4K aliasing, and glibc bug 30994's "dst a few bytes after src mod 4096"). */
static void cases_dist(struct builder *b)
{
    static const long quick_d[] = {1, 2, 3, 8, 16, 32, 63, 64, 4095, 4096, 4097};
    static const long ks[] = {1, 2, 4, 8, 16, 32, 64};
    long ds[128];
    size_t nd = 0;
    if (b->st->cfg.quick) {
        for (size_t i = 0; i < sizeof quick_d / sizeof *quick_d; i++)
            ds[nd++] = quick_d[i];
    } else {
        for (long d = 1; d <= 64; d++)
            ds[nd++] = d;
        for (int i = 6; i >= 0; i--)
            ds[nd++] = 4096 - ks[i];
        ds[nd++] = 4096;
        for (int i = 0; i < 7; i++)
            ds[nd++] = 4096 + ks[i];
    }
    const size_t n = 4096;
    for (size_t i = 0; i < nd; i++) {
        struct fcb_case *c = new_case(b, FCB_MEMMOVE, "dist", n, 1, "d=%ld", ds[i]);
        if (c) {
            c->dbase = b->S;
            c->param = ds[i];
            fill_one(c, (uint32_t)(8192 + ds[i]), 8192, n);
        }
        c = new_case(b, FCB_MEMCPY, "dist", n, 1, "d=%ld", ds[i]);
        if (c) {
            c->dbase = b->S;
            c->param = ds[i];
            fill_one(c, (uint32_t)(8192 + 64 * KiB + ds[i]), 8192, n);
        }
    }
}

/* Cold: each call takes the next of a shuffled list of page-aligned slots in a
 * region far larger than the LLC (independent shuffles for src and dst). */
static size_t cold_slots(const struct builder *b, size_t n)
{
    size_t slot = (n + 4095) & ~(size_t)4095, nslots = b->cold_region / slot;
    return nslots > 65536 ? 65536 : nslots;
}

static void cold_walk(struct builder *b, struct fcb_case *c, size_t n)
{
    size_t slot = (n + 4095) & ~(size_t)4095, nslots = c->nops;
    c->cold = 1;
    uint32_t *ps = malloc(nslots * sizeof *ps), *pd = malloc(nslots * sizeof *pd);
    for (size_t k = 0; k < nslots; k++)
        ps[k] = pd[k] = (uint32_t)k;
    shuffle_u32(ps, nslots, &b->rng);
    shuffle_u32(pd, nslots, &b->rng);
    for (size_t k = 0; k < nslots; k++) {
        c->ops[k].soff = (uint32_t)(ps[k] * slot);
        c->ops[k].doff = (uint32_t)(pd[k] * slot);
        c->ops[k].n = (uint32_t)n;
    }
    free(ps);
    free(pd);
}

static void cases_cold(struct builder *b)
{
    /* 2, 8 and 32 KiB too: the rep movsb/stosb cut-overs are hot-versus-cold
     * trades decided near there, and need the cold side measured at each size. */
    static const size_t full[] = {16, 64, 256, 1024, 2048, 4096, 8192, 16384, 32768,
                                  65536, 262144, 1048576, 4194304};
    static const size_t quick[] = {64, 1024, 65536};
    const size_t *sz = b->st->cfg.quick ? quick : full;
    size_t nsz = b->st->cfg.quick ? 3 : sizeof full / sizeof *full;
    for (size_t i = 0; i < nsz; i++)
        for (int f = 0; f < FCB_NFUNCS; f++) {
            struct fcb_case *c = new_case(b, f, "cold", sz[i], cold_slots(b, sz[i]), "%zu", sz[i]);
            if (c)
                cold_walk(b, c, sz[i]);
        }
}

/* ---- the "tune" group (fcbench --tune) ---- */

size_t fcb_tune_sizes(int quick, int which, const size_t **sizes)
{
    /* the cut-over grid: steps of 1.5x/1.33x, where the rep movsb/stosb, DC ZVA and
     * 4K-aliasing cut-overs of the policies lie (0.5-64 KiB), on to 1 MiB */
    static const size_t grid[] = {256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096,
                                  6144, 8192, 12288, 16384, 24576, 32768, 49152,
                                  65536, 131072, 262144, 524288, 1048576};
    static const size_t grid_quick[] = {512, 1024, 2048, 4096, 8192, 16384, 32768, 65536};
    /* the non-temporal threshold: from 1 MiB to beyond every LLC the policy knows */
    static const size_t large[] = {2 << 20, 4 << 20, 8 << 20, 16 << 20, 32 << 20,
                                   64 << 20, 128 << 20, 256 << 20};
    static const size_t large_quick[] = {4 << 20, 16 << 20, 64 << 20};
    static const size_t small[] = {1, 2, 3, 4, 6, 8, 12, 16, 20, 24, 32, 40, 48, 56, 63, 64};
    static const size_t small_quick[] = {1, 4, 8, 16, 32, 64};
#define FCB_PICK(a, q)                                                                   \
    (*sizes = quick ? q : a, quick ? sizeof q / sizeof *q : sizeof a / sizeof *a)
    if (which == FCB_TUNE_GRID)
        return FCB_PICK(grid, grid_quick);
    if (which == FCB_TUNE_LARGE)
        return FCB_PICK(large, large_quick);
    return FCB_PICK(small, small_quick);
#undef FCB_PICK
}

static void tune_cold_case(struct builder *b, int f, size_t n)
{
    size_t nslots = cold_slots(b, n);
    struct fcb_case *c = nslots >= 4 ? new_case(b, f, "tune", n, nslots, "cold/%zu", n) : NULL;
    if (c)
        cold_walk(b, c, n);
}

static void cases_tune(struct builder *b)
{
    const size_t *sz;
    size_t n;
    if (!b->st->cfg.tune)
        return;
    for (int which = FCB_TUNE_GRID; which <= FCB_TUNE_LARGE; which++) {
        n = fcb_tune_sizes(b->st->cfg.quick, which, &sz);
        for (size_t i = 0; i < n; i++)
            for (int f = 0; f < FCB_NFUNCS; f++) {
                struct fcb_case *c = new_case(b, f, "tune", sz[i], 1, "hot/%zu", sz[i]);
                if (c)
                    fill_one(c, 0, 0, sz[i]);
                tune_cold_case(b, f, sz[i]);
            }
    }
    /* 4K aliasing: dst 64 bytes after src modulo 4096 (as the dist group's memcpy) */
    n = fcb_tune_sizes(b->st->cfg.quick, FCB_TUNE_GRID, &sz);
    for (size_t i = 0; i < n && sz[i] <= 65536; i++) {
        struct fcb_case *c = new_case(b, FCB_MEMCPY, "tune", sz[i], 1, "alias/%zu", sz[i]);
        if (c) {
            c->dbase = b->S;
            c->param = 64;
            fill_one(c, (uint32_t)(8192 + 64 * KiB + 64), 8192, sz[i]);
        }
    }
    n = fcb_tune_sizes(b->st->cfg.quick, FCB_TUNE_SMALL, &sz);
    for (size_t i = 0; i < n; i++) {
        struct fcb_case *c = new_case(b, FCB_MEMSET, "tune", sz[i], 1, "small/%zu", sz[i]);
        if (c)
            fill_one(c, 0, 0, sz[i]);
    }
}

/* Working sets from the cache sizes: a copy moves ws/4 bytes (source + destination
 * = half the level: it stays resident), memset ws/2.  DRAM: 4x L3 in all. */
static void cases_ws(struct builder *b)
{
    const struct fcb_cache *k = &b->st->cache;
    const char *names[4] = {"L1", "L2", "L3", "DRAM"};
    size_t ws[4] = {k->l1, k->l2, k->l3, 0};
    for (int l = 0; l < 4; l++)
        for (int f = 0; f < FCB_NFUNCS; f++) {
            size_t n = l == 3 ? (f == FCB_MEMSET ? 4 : 2) * k->l3
                              : (f == FCB_MEMSET ? ws[l] / 2 : ws[l] / 4);
            struct fcb_case *c = new_case(b, f, "ws", n, 1, "%s", names[l]);
            if (c) {
                c->cold = l == 3;
                fill_one(c, 0, 0, n);
            }
        }
}

/* Overlapping memmove, half the size apart: fwd = dst below src (copied forwards),
 * bwd = dst above src (copied backwards). */
static void cases_overlap(struct builder *b)
{
    static const size_t full[] = {16, 64, 256, 1024, 4096, 65536, 1048576};
    static const size_t quick[] = {64, 4096, 65536};
    const size_t *sz = b->st->cfg.quick ? quick : full;
    size_t nsz = b->st->cfg.quick ? 3 : sizeof full / sizeof *full;
    for (size_t i = 0; i < nsz; i++)
        for (int bwd = 0; bwd < 2; bwd++) {
            size_t n = sz[i], d = n / 2;
            struct fcb_case *c =
                new_case(b, FCB_MEMMOVE, "overlap", n, 1, "%s/%zu", bwd ? "bwd" : "fwd", n);
            if (!c)
                continue;
            c->dbase = b->S;
            c->param = bwd ? (long)d : -(long)d;
            uint32_t base = 64 * KiB;
            if (bwd)
                fill_one(c, (uint32_t)(base + d), base, n);
            else
                fill_one(c, base, (uint32_t)(base + d), n);
        }
}

/* Chain: the latency of a call whose source the caller has just written and whose
 * destination it reads right after, each call's data depending on the last one's
 * (a value passed on through memory, as in a parser that copies a field out of a
 * buffer it just filled).  The caller stores a word of w bytes, the largest power
 * of two up to min(n, 8), at src (memset: the fill byte is the last value), the
 * call copies n bytes, and the caller loads w bytes at dst: the next value.  So
 * the time per call is the whole round trip, store-to-load forwarding included:
 * a load that cannot take its data from an older store still in flight waits for
 * that store to reach the cache.  The sizes, mixes and other groups never feed a
 * call's result to the next one, so they cannot show this.  "<n>/w<w>": the same
 * with a caller whose value is a 16- or 32-byte vector, stored and loaded with one
 * access each (fcb_chain.c), where the CPU has one: a callee that writes those
 * bytes as smaller pieces cannot forward to it. */
static void cases_chain(struct builder *b)
{
    static const size_t full[] = {1, 2, 4, 8, 12, 16, 24, 32, 48, 63, 64, 96, 128, 256, 1024};
    static const size_t quick[] = {1, 8, 32, 64, 256};
    static const size_t wide[][2] = {{16, 16}, {32, 32}}; /* size, width */
    const size_t *sz = b->st->cfg.quick ? quick : full;
    size_t nsz = b->st->cfg.quick ? sizeof quick / sizeof *quick : sizeof full / sizeof *full;
    for (size_t i = 0; i < nsz; i++)
        for (int f = 0; f < FCB_NFUNCS; f++) {
            struct fcb_case *c = new_case(b, f, "chain", sz[i], 1, "%zu", sz[i]);
            if (c) {
                c->chain = 1;
                fill_one(c, 0, 0, sz[i]);
            }
        }
    for (size_t i = 0; i < sizeof wide / sizeof *wide; i++) {
        size_t n = wide[i][0], w = wide[i][1];
        if (!group_on(b, "chain") || !fcb_chain_wide_usable(w))
            continue;
        for (int f = 0; f < FCB_NFUNCS; f++) {
            struct fcb_case *c = new_case(b, f, "chain", n, 1, "%zu/w%zu", n, w);
            if (c) {
                c->chain = 1;
                c->chain_w = (int)w;
                fill_one(c, 0, 0, n);
            }
        }
    }
}

/* Program patterns (fcb_prog.c says what each does and where its buffers lie):
 * memcpy only, the function those programs call. */
static void cases_prog(struct builder *b)
{
    if (!group_on(b, "prog"))
        return;
    for (size_t i = 0; i < fcb_nprog_defs; i++) {
        const struct fcb_prog_def *p = &fcb_prog_defs[i];
        size_t nops = fcb_prog_nops(p, b->cold_region);
        if ((b->st->cfg.quick && !p->quick) || !nops)
            continue;
        struct fcb_case *c = new_case(b, FCB_MEMCPY, "prog", p->n, nops, "%s", p->key);
        if (!c)
            continue;
        c->prog = p->prog;
        c->param = (long)p->stride;
        c->cold = p->prog == FCB_PROG_SQLITE; /* no warm-up: it streams from memory */
        fcb_prog_layout(p, c->ops, nops);
    }
}

/* The fleet size mixes: sizes drawn with the file's weights, source and destination
 * offsets uniform in 0..4095, a fixed seed; the same sequence for every impl.  One
 * sample is exactly one pass over 65536 calls: long enough that the branch
 * predictors cannot learn the sequence (with 8192 calls replayed back to back, glibc
 * went from 5.5 to 3.9 ns per call as the sample grew from 2 to 70 passes), and the
 * same calls for every impl. */
#define MIX_OPS 65536

/* A size distribution: entry k says sizes lo..hi (evenly) with weight w.
 * bench/distributions' files have one line, the weight of each size 0, 1, 2, ...;
 * fastcopy-trace's add lines "LO-HI,P" for the sizes above 4096 and comment lines
 * ("# function: memcpy" names the function). */
struct dist_entry {
    uint64_t lo, hi;
    double w;
};
struct dist {
    struct dist_entry *e;
    size_t n;
    int func;           /* -1 when the file does not say */
};

/* 0, or -1 with a message ("line 2: ...") in err. */
static int parse_dist(const char *text, size_t len, struct dist *d, char *err, size_t errcap)
{
    size_t cap = 4200, line = 1;
    const char *p = text, *end = text + len;
    double total = 0;
    d->n = 0;
    d->func = -1;
    d->e = malloc(cap * sizeof *d->e);
    if (!d->e) {
        snprintf(err, errcap, "out of memory");
        return -1;
    }
#define DIST_FAIL(...)                                                             \
    do {                                                                           \
        int l_ = snprintf(err, errcap, "line %zu: ", line);                        \
        snprintf(err + l_, errcap - (size_t)l_, __VA_ARGS__);                      \
        free(d->e);                                                                \
        d->e = NULL;                                                               \
        return -1;                                                                 \
    } while (0)
    for (; p < end; line++) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        char buf[256];
        if (line > 1 && (p == eol || *p == '#')) {
            static const char key[] = "# function:";
            if (*p == '#' && (size_t)(eol - p) > sizeof key - 1 && !strncmp(p, key, sizeof key - 1)) {
                const char *q = p + sizeof key - 1;
                while (q < eol && *q == ' ')
                    q++;
                for (int f = 0; f < FCB_NFUNCS; f++)
                    if ((size_t)(eol - q) == strlen(fcb_func_name(f)) &&
                        !strncmp(q, fcb_func_name(f), (size_t)(eol - q)))
                        d->func = f;
            }
            p = eol + 1;
            continue;
        }
        if (line == 1) {
            /* w0,w1,w2,...: the weight of each size */
            if (p == eol)
                DIST_FAIL("empty (want the weights of sizes 0, 1, 2, ... separated by commas)");
            for (const char *q = p; q < eol;) {
                size_t l = 0;
                while (q < eol && *q != ',' && l + 1 < sizeof buf)
                    buf[l++] = *q++;
                buf[l] = 0;
                char *e;
                double w = strtod(buf, &e);
                if (!l || *e || !(w >= 0) || w > 1e300)
                    DIST_FAIL("'%s' (size %zu) is not a weight of 0 or more", buf, d->n);
                if (d->n == cap) {
                    struct dist_entry *ne = realloc(d->e, (cap *= 2) * sizeof *ne);
                    if (!ne)
                        DIST_FAIL("out of memory");
                    d->e = ne;
                }
                d->e[d->n].lo = d->e[d->n].hi = d->n;
                d->e[d->n++].w = w;
                total += w;
                if (q < eol && ++q == eol)
                    DIST_FAIL("a comma at the end of the line");
            }
        } else {
            /* LO-HI,W */
            size_t l = (size_t)(eol - p) < sizeof buf - 1 ? (size_t)(eol - p) : sizeof buf - 1;
            memcpy(buf, p, l);
            buf[l] = 0;
            char *e1, *e2, *e3;
            errno = 0;
            unsigned long long lo = strtoull(buf, &e1, 10);
            unsigned long long hi = *e1 == '-' ? strtoull(e1 + 1, &e2, 10) : 0;
            double w = *e1 == '-' && *e2 == ',' ? strtod(e2 + 1, &e3) : -1;
            if (errno || buf[0] < '0' || buf[0] > '9' || *e1 != '-' || e1[1] < '0' ||
                e1[1] > '9' || *e2 != ',' || e2[1] == 0 || *e3 || !(w >= 0) || w > 1e300 ||
                hi < lo)
                DIST_FAIL("'%s' is not LO-HI,WEIGHT (sizes LO <= HI, a weight of 0 or more)",
                          buf);
            if (d->n == cap) {
                struct dist_entry *ne = realloc(d->e, (cap *= 2) * sizeof *ne);
                if (!ne)
                    DIST_FAIL("out of memory");
                d->e = ne;
            }
            d->e[d->n].lo = lo;
            d->e[d->n].hi = hi;
            d->e[d->n++].w = w;
            total += w;
        }
        p = eol + 1;
    }
#undef DIST_FAIL
    if (d->n == 0 || !(total > 0)) {
        snprintf(err, errcap, "%s", len ? "no size has a weight above 0" : "an empty file");
        free(d->e);
        d->e = NULL;
        return -1;
    }
    return 0;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t r;
    while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    *len = n;
    return buf;
}

/* --dist FILE: the case name (the file's name without the directory, ".csv" and
 * a ".memcpy"/".memmove"/".memset" before it; at most 24 characters) and the
 * function (the file's "# function:" line, else a function named in the file
 * name, else -1: all three). */
static void dist_file_name(const char *path, char *name, size_t cap)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b);
    if (n > 4 && !strcmp(b + n - 4, ".csv"))
        n -= 4;
    for (int f = 0; f < FCB_NFUNCS; f++) {
        size_t l = strlen(fcb_func_name(f));
        if (n > l + 1 && b[n - l - 1] == '.' && !strncmp(b + n - l, fcb_func_name(f), l))
            n -= l + 1;
    }
    if (n >= cap)
        n = cap - 1;
    memcpy(name, b, n);
    name[n] = 0;
    if (!n)
        snprintf(name, cap, "dist");
}

static int dist_name_func(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    int found = -1;
    for (int f = 0; f < FCB_NFUNCS; f++)
        if (strcasestr(b, fcb_func_name(f)))
            found = found < 0 ? f : -2;
    return found < 0 ? -1 : found;
}

/* Reads and parses --dist FILE.  0, or -1 after one line naming the file. */
static int load_dist(const char *path, struct dist *d)
{
    size_t len;
    char err[400];
    struct stat sb;
    if (!stat(path, &sb) && !S_ISREG(sb.st_mode)) {
        fcb_err("--dist '%s': not a regular file\n", path);
        return -1;
    }
    char *text = read_file(path, &len);
    if (!text) {
        fcb_err("--dist '%s': %s\n", path, strerror(errno));
        return -1;
    }
    if (memchr(text, 0, len)) {
        fcb_err("--dist '%s': not a text file\n", path);
        free(text);
        return -1;
    }
    int rc = parse_dist(text, len, d, err, sizeof err);
    free(text);
    if (rc) {
        fcb_err("--dist '%s': %s\n", path, err);
        return -1;
    }
    if (d->func < 0)
        d->func = dist_name_func(path);
    return 0;
}

struct mix_source {
    char name[32];
    struct dist d;
    int fs[3], nf;
    const char *path;   /* --dist FILE, else NULL */
    size_t seed_index;  /* which draws: the index in fcb_dists, or in the --dist list */
};

/* The size mixes to build: the --dist files, else the built-in (or --dist-dir)
 * fleet distributions. */
static size_t mix_sources(struct builder *b, struct mix_source **out)
{
    int quick = b->st->cfg.quick;
    const struct fcb_config *cfg = &b->st->cfg;
    size_t nsrc = cfg->ndists ? (size_t)cfg->ndists : fcb_ndists, k = 0;
    struct mix_source *v = calloc(nsrc ? nsrc : 1, sizeof *v);
    for (size_t di = 0; di < nsrc; di++) {
        struct mix_source *m = &v[k];
        m->seed_index = di;
        if (cfg->ndists) {
            m->path = cfg->dists[di];
            dist_file_name(m->path, m->name, 25);
            if (load_dist(m->path, &m->d))
                continue; /* (fcb_config_check has refused bad files already) */
            if (m->d.func >= 0)
                m->fs[m->nf++] = m->d.func;
            else
                for (int f = 0; f < FCB_NFUNCS; f++)
                    m->fs[m->nf++] = f;
            k++;
            continue;
        }
        const struct fcb_dist *d = &fcb_dists[di];
        snprintf(m->name, sizeof m->name, "%s", d->name);
        if (!strncmp(d->name, "Memcpy", 6)) {
            if (quick && strcmp(d->name, "MemcpyGoogleA") && strcmp(d->name, "MemcpyGoogleM"))
                continue;
            m->fs[m->nf++] = FCB_MEMCPY;
            if (!quick)
                m->fs[m->nf++] = FCB_MEMMOVE;
        } else if (!strncmp(d->name, "Memmove", 7)) {
            if (quick && strcmp(d->name, "MemmoveGoogleA"))
                continue;
            m->fs[m->nf++] = FCB_MEMMOVE;
        } else if (!strncmp(d->name, "Memset", 6)) {
            if (quick && strcmp(d->name, "MemsetGoogleA") && strcmp(d->name, "MemsetGoogleB"))
                continue;
            m->fs[m->nf++] = FCB_MEMSET;
        } else {
            if (quick)
                continue;
            m->fs[m->nf++] = FCB_MEMCPY;
            m->fs[m->nf++] = FCB_MEMMOVE;
            m->fs[m->nf++] = FCB_MEMSET;
        }
        const char *text = d->text;
        size_t len = d->len;
        char *owned = NULL;
        if (cfg->dist_dir) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s.csv", cfg->dist_dir, d->name);
            owned = read_file(path, &len);
            if (!owned) {
                fcb_err("cannot read %s; using the built-in copy\n", path);
                len = d->len;
            } else {
                text = owned;
            }
        }
        char err[400];
        int rc = parse_dist(text, len, &m->d, err, sizeof err);
        if (rc)
            fcb_err("%s%s.csv: %s; skipped\n", owned ? cfg->dist_dir : "built-in ", d->name, err);
        free(owned);
        if (!rc)
            k++;
    }
    *out = v;
    return k;
}

static void cases_mix(struct builder *b)
{
    int quick = b->st->cfg.quick;
    size_t align = b->st->cfg.mix_align;
    /* Three regimes: MIX_OPS calls per sequence (too long for the branch
     * predictors to learn: unpredictable sizes, as across a fleet), and 4096 and
     * 512 calls replayed round and round (learnable, close to what a call site with
     * steady sizes sees).  --mix-ops N: that one regime only; --quick: the first. */
    size_t regimes[3], nreg = 0;
    if (b->st->cfg.mix_ops) {
        regimes[nreg++] = b->st->cfg.mix_ops < 16 ? 16 : b->st->cfg.mix_ops;
    } else {
        regimes[nreg++] = MIX_OPS;
        if (!quick) {
            regimes[nreg++] = 4096;
            regimes[nreg++] = 512;
        }
    }
    if (align < 1 || align > 4096)
        align = 1;
    struct mix_source *src;
    size_t nsrc = mix_sources(b, &src);
    for (size_t di = 0; di < nsrc; di++) {
        struct mix_source *m = &src[di];
        const struct dist_entry *e = m->d.e;
        size_t nw = m->d.n, clamped = 0, drawn = 0;
        double *cum = malloc((nw + 1) * sizeof *cum);
        cum[0] = 0;
        for (size_t i = 0; i < nw; i++)
            cum[i + 1] = cum[i] + e[i].w;
        for (size_t rg = 0; rg < nreg; rg++)
        for (int k = 0; k < m->nf; k++) {
            /* Same draws for memcpy and memmove of one file (and the shorter
             * regimes replay a prefix of the same draws). */
            size_t nmix = regimes[rg];
            uint64_t rng = b->st->cfg.seed ^ (0x51ed270b27e3ull * (m->seed_index + 1));
            struct fcb_case *c =
                rg == 0 ? new_case(b, m->fs[k], "mix", 0, nmix, "%s", m->name)
                        : new_case(b, m->fs[k], "mix", 0, nmix, "%s/ops=%zu", m->name, nmix);
            if (!c)
                continue;
            c->mix = 1;
            c->mix_default = rg == 0;
            double total = 0;
            for (size_t i = 0; i < nmix; i++) {
                double u = (rng_next(&rng) >> 11) * (1.0 / 9007199254740992.0) * cum[nw];
                size_t lo = 0, hi = nw; /* smallest i with cum[i+1] > u */
                while (lo < hi) {
                    size_t mid = (lo + hi) / 2;
                    if (cum[mid + 1] > u)
                        hi = mid;
                    else
                        lo = mid + 1;
                }
                if (lo >= nw)
                    lo = nw - 1;
                /* a range (sizes above 4096): evenly within it (an extra draw only
                 * then, so the built-in mixes replay the same calls as before) */
                uint64_t n = e[lo].lo;
                if (e[lo].hi > e[lo].lo)
                    n += rng_below(&rng, e[lo].hi - e[lo].lo + 1);
                drawn++;
                if (n > b->max_size) {
                    n = b->max_size;
                    clamped++;
                }
                c->ops[i].n = (uint32_t)n;
                c->ops[i].soff = (uint32_t)(rng_below(&rng, 4096 / align) * align);
                c->ops[i].doff = (uint32_t)(rng_below(&rng, 4096 / align) * align);
                total += (double)n;
            }
            c->size = (size_t)(total / nmix + 0.5);
        }
        if (clamped)
            fcb_err("--dist '%s': %zu of %zu calls drawn are above --max-size %zu; replayed "
                    "at %zu bytes\n", m->path ? m->path : m->name, clamped, drawn, b->max_size,
                    b->max_size);
        free(m->d.e);
        free(cum);
    }
    free(src);
}

/* The memcpy and memset mixes again, each call followed by a read of the last byte
 * it wrote, as a program that uses what it copied does: a load overlapping a recent
 * store waits until that store can forward its data, and a byte-masked store cannot
 * forward (measured here: 8-byte copy then read, 5.3 ns with avx512's masked store,
 * 2.7 ns with plain stores). */
static void cases_mixread(struct builder *b)
{
    int nc = b->st->ncases;
    for (int i = 0; i < nc; i++) {
        const struct fcb_case *m = &b->st->cases[i];
        if (strcmp(m->group, "mix") || m->func == FCB_MEMMOVE || !m->mix_default)
            continue;
        int f = m->func;
        size_t nops = m->nops, size = m->size;
        char key[64];
        snprintf(key, sizeof key, "%s", strrchr(m->name, '/') + 1);
        struct fcb_case *r = new_case(b, f, "mixread", 0, nops, "%s", key);
        if (!r)
            continue;
        m = &b->st->cases[i]; /* new_case may have moved the array */
        r->mix = 1;
        r->readback = 1;
        r->size = size;
        memcpy(r->ops, m->ops, nops * sizeof *m->ops);
    }
    if (!b->mix_for_mixread)
        return;
    /* "mixread" without "mix": drop the mix cases built only as its source. */
    b->mix_for_mixread = 0;
    int k = 0;
    for (int i = 0; i < b->st->ncases; i++) {
        struct fcb_case *c = &b->st->cases[i];
        if (!strcmp(c->group, "mix")) {
            ops_free(c);
            continue;
        }
        b->st->cases[k++] = *c;
    }
    b->st->ncases = k;
}

/* fc_copy_user/fc_clear_user (the user-copy contract: docs/usercopy.md) against
 * fc_memcpy/fc_memset, and one caught fault per call: 8 KiB from a buffer whose
 * second page is PROT_NONE. */
static void cases_user(struct builder *b)
{
    static const size_t full[] = {0, 1, 8, 16, 32, 64, 128, 256, 4096, 65536, 262144,
                                  1048576};
    static const size_t quick[] = {0, 16, 256, 65536};
    const size_t *sz = b->st->cfg.quick ? quick : full;
    size_t nsz = b->st->cfg.quick ? 4 : sizeof full / sizeof *full;
    for (size_t i = 0; i < nsz; i++) {
        struct fcb_case *c = new_case(b, FCB_MEMCPY, "user", sz[i], 1, "%zu", sz[i]);
        if (c) {
            c->user = 1;
            fill_one(c, 0, 0, sz[i]);
        }
        c = new_case(b, FCB_MEMSET, "user", sz[i], 1, "%zu", sz[i]);
        if (c) {
            c->user = 1;
            fill_one(c, 0, 0, sz[i]);
        }
    }
    long pg = sysconf(_SC_PAGESIZE);
    if (!b->fault_page) {
        void *m = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                       -1, 0);
        if (m == MAP_FAILED)
            return;
        memset(m, 0x5a, pg);
        mprotect((char *)m + pg, pg, PROT_NONE);
        b->fault_page = m;
    }
    struct fcb_case *c = new_case(b, FCB_MEMCPY, "user", 2 * pg, 1, "fault");
    if (c) {
        c->user = c->fault = 1;
        c->sbase = b->fault_page;
        fill_one(c, 0, 0, 2 * pg);
    }
    c = new_case(b, FCB_MEMSET, "user", 2 * pg, 1, "fault");
    if (c) {
        c->user = c->fault = 1;
        c->dbase = b->fault_page;
        fill_one(c, 0, 0, 2 * pg);
    }
}

static int impl_fits(const struct fcb_case *c, const struct fcb_impl *im)
{
    if (im->func != c->func)
        return 0;
    if (c->fault)
        return im->flags & FCB_I_USER;
    if (im->flags & FCB_I_USER)
        return c->user;
    if (c->user)
        return im->flags & (FCB_I_LIBC | FCB_I_AUTO);
    if (im->flags & FCB_I_EMPTY)
        return c->mix || c->prog; /* prog: the caller's own share of the time */
    if (im->flags & FCB_I_LIMIT)
        return !strcmp(c->group, "ws");
    return 1;
}

/* ---- checking the options -------------------------------------------------------- */

static const char fcb_func_list[] = "memcpy,memmove,memset";
static const char fcb_group_list[] =
    "sizes,misal,pageend,dist,cold,ws,overlap,mix,mixread,chain,prog,user";

/* Every entry of `list` must be in `valid`; otherwise one line naming it. */
static int check_list(const char *opt, const char *list, const char *valid, const char *what,
                      const char *unusable)
{
    if (!list)
        return 0;
    char buf[256];
    const char *p = list;
    for (;;) {
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof buf) {
            fcb_err("%s '%s': empty or overlong entry\n", opt, list);
            return -1;
        }
        memcpy(buf, p, len);
        buf[len] = 0;
        if (!in_list(valid, buf, 0)) {
            char names[1200];
            size_t k = 0;
            for (const char *q = valid; *q && k + 3 < sizeof names; q++) {
                names[k++] = *q;
                if (*q == ',')
                    names[k++] = ' ';
            }
            names[k] = 0;
            fcb_err("%s '%s': %s (valid: %s)\n", opt, buf,
                    unusable && in_list(unusable, buf, 0) ? "not usable on this CPU" : what,
                    names);
            return -1;
        }
        p += len;
        if (!*p)
            return 0;
        p++;
    }
}

static void append(char *buf, size_t cap, const char *name)
{
    size_t l = strlen(buf);
    if (!in_list(l ? buf : "", name, 0) || !l)
        snprintf(buf + l, cap - l, "%s%s", l ? "," : "", name);
}

int fcb_config_check(const struct fcb_config *c)
{
    if (check_list("--func", c->funcs, fcb_func_list, "unknown function", NULL) ||
        check_list("--group", c->groups, fcb_group_list, "unknown group", NULL))
        return -1;
    if (c->impls) {
        char valid[1024] = "", unusable[512] = "";
        append(valid, sizeof valid, "libc");
        append(valid, sizeof valid, "auto");
#ifndef FCB_STATIC
        append(valid, sizeof valid, "dropin"); /* the shared object's exported names */
#endif
        const struct fc_variant *v;
        size_t nv = fc_variants(&v);
        for (size_t i = 0; i < nv; i++)
            append(v[i].usable ? valid : unusable, v[i].usable ? sizeof valid : sizeof unusable,
                   v[i].name);
        append(valid, sizeof valid, "copy_user");
        append(valid, sizeof valid, "clear_user");
        static const char *const always[] = {"empty", "read", "write", "ntwrite"};
        for (size_t i = 0; i < sizeof always / sizeof *always; i++)
            append(valid, sizeof valid, always[i]);
        for (int w = 0; w < c->nwith; w++) {
            char path[256], name[24];
            if (!with_split(c->with[w], path, name) && name[0])
                append(valid, sizeof valid, name);
        }
        if (check_list("--impl", c->impls, valid, "unknown implementation", unusable))
            return -1;
    }
    /* --dist FILE...: every file must parse, and the case names must differ
     * (per function). */
    for (int i = 0; i < c->ndists; i++) {
        struct dist d;
        if (load_dist(c->dists[i], &d))
            return -1;
        free(d.e);
        char ni[32], nj[32];
        dist_file_name(c->dists[i], ni, 25);
        for (int j = 0; j < i; j++) {
            dist_file_name(c->dists[j], nj, 25);
            int fi = d.func, fj;
            struct dist dj;
            if (strcmp(ni, nj) || load_dist(c->dists[j], &dj))
                continue;
            fj = dj.func;
            free(dj.e);
            if (fi < 0 || fj < 0 || fi == fj) {
                fcb_err("--dist '%s': its case name '%s' is that of '%s' too; rename one\n",
                        c->dists[i], ni, c->dists[j]);
                return -1;
            }
        }
    }
    if (c->dist_dir) {
        struct stat sb;
        if (stat(c->dist_dir, &sb) || !S_ISDIR(sb.st_mode)) {
            fcb_err("--dist-dir '%s': %s\n", c->dist_dir,
                    errno && !S_ISDIR(sb.st_mode) ? strerror(errno) : "not a directory");
            return -1;
        }
        size_t missing = 0;
        const char *first = NULL;
        for (size_t di = 0; di < fcb_ndists; di++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s.csv", c->dist_dir, fcb_dists[di].name);
            if (access(path, R_OK)) {
                if (!missing++)
                    first = fcb_dists[di].name;
            }
        }
        if (missing) {
            fcb_err("--dist-dir '%s': no readable %s.csv%s (it must hold "
                            "all %zu distributions of bench/distributions)\n",
                    c->dist_dir, first, missing > 1 ? " and others" : "", fcb_ndists);
            return -1;
        }
    }
    return 0;
}

/* After the cases are built: every --case pattern must have matched one. */
static int check_cases(const struct fcb_state *st)
{
    const char *list = st->cfg.cases;
    if (!list)
        return 0;
    char buf[256];
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof buf) {
            fcb_err("--case '%s': empty or overlong entry\n", list);
            return -1;
        }
        memcpy(buf, p, len);
        buf[len] = 0;
        int hit = 0;
        for (int c = 0; c < st->ncases && !hit; c++)
            hit = !fnmatch(buf, st->cases[c].name, 0);
        if (!hit) {
            fcb_err("--case '%s': matches no case%s (fcbench --list shows them)\n",
                    buf, st->cfg.funcs || st->cfg.groups || st->cfg.max_size || st->cfg.quick
                             ? " of the selected --func/--group/--max-size/--quick" : "");
            return -1;
        }
        p += len;
        if (*p == ',')
            p++;
    }
    return 0;
}

static void *map_arena(size_t n)
{
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_NOHUGEPAGE
    /* Plain 4K pages: the same for every impl, and no THP collapse in mid-run. */
    (void)madvise(p, n, MADV_NOHUGEPAGE);
#endif
    /* Touch every page (non-zero: no shared zero page behind reads). */
    for (size_t i = 0; i < n; i += 4096)
        ((volatile unsigned char *)p)[i] = (unsigned char)(i >> 12) | 1;
    return p;
}

static int pin_cpu(struct fcb_state *st)
{
    int cpu = st->cfg.cpu >= 0 ? st->cfg.cpu : sched_getcpu();
    if (cpu < 0)
        return -1;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set)) {
        fcb_err("cannot pin to CPU %d: %s\n", cpu, strerror(errno));
        return -1;
    }
    return cpu;
}

static int case_order(const void *a, const void *b)
{
    const struct fcb_case *x = a, *y = b;
    if (x->func != y->func)
        return x->func - y->func;
    return x->cursor < y->cursor ? -1 : x->cursor > y->cursor;
}

int fcb_setup(struct fcb_state *st)
{
    struct fcb_config *cfg = &st->cfg;
    if (cfg->ndists && !cfg->groups)
        cfg->groups = "mix"; /* --dist: the replays, unless asked for more */
    detect_caches(cfg, &st->cache);
    st->cpu = pin_cpu(st);
    if (st->cpu < 0 && cfg->cpu >= 0)
        return FCB_EUSAGE; /* --cpu N that we cannot pin to: said by pin_cpu */
    if (!cfg->rounds)
        cfg->rounds = cfg->quick ? 7 : 15;
    if (!(cfg->sample_us > 0))
        cfg->sample_us = cfg->quick ? 100 : 200;
    if (build_impls(st))
        return FCB_EUSAGE; /* a --with library that cannot be used: said */

    struct builder b;
    memset(&b, 0, sizeof b);
    b.st = st;
    b.rng = cfg->seed;
    b.max_size = cfg->max_size ? cfg->max_size : cfg->quick ? 1 * MiB : 256 * MiB;
    b.cold_region = (cfg->quick ? 2 : 4) * st->cache.l3;
    /* What the arenas must hold: the largest hot size (+ offsets), the cold region,
     * the working sets, the distance/overlap layouts. */
    size_t need = 256 * KiB;
    if (b.max_size + 8 * KiB > need)
        need = b.max_size + 8 * KiB;
    if ((group_on(&b, "cold") || cfg->tune) && b.cold_region + 8 * KiB > need)
        need = b.cold_region + 8 * KiB;
    if (group_on(&b, "prog") && fcb_prog_arena(b.cold_region) > need)
        need = fcb_prog_arena(b.cold_region);
    if (group_on(&b, "ws") && 4 * st->cache.l3 <= b.max_size && 4 * st->cache.l3 > need)
        need = 4 * st->cache.l3 + 8 * KiB;
    if (need < 256 * KiB)
        need = 256 * KiB;
    need = (need + 2 * MiB - 1) & ~(2 * MiB - 1);
    if (need > 0xffffffffu) {
        fcb_err("sizes above 4 GiB are not supported\n");
        return -1;
    }
    b.arena = need;
    b.S = map_arena(need);
    b.D = map_arena(need);
    if (!b.S || !b.D) {
        fcb_err("cannot map 2 x %zu MiB\n", need >> 20);
        return -1;
    }
    cases_tune(&b);
    cases_sizes(&b);
    cases_pageend(&b);
    cases_dist(&b);
    cases_cold(&b);
    cases_ws(&b);
    cases_overlap(&b);
    b.mix_for_mixread = group_on(&b, "mixread") && !group_on(&b, "mix");
    cases_mix(&b);
    cases_mixread(&b);
    cases_chain(&b);
    cases_prog(&b);
    cases_user(&b);
    if (check_cases(st))
        return FCB_EUSAGE;
    if (!st->ncases) {
        fcb_err("no case is left with these --func/--group/--max-size "
                        "options (--list without them shows the cases)\n");
        return FCB_EUSAGE;
    }

    /* Table order: by function, then as built (group by group); the keys point
     * into the names, so set them after the last move. */
    for (int c = 0; c < st->ncases; c++)
        st->cases[c].cursor = (size_t)c;
    qsort(st->cases, (size_t)st->ncases, sizeof *st->cases, case_order);
    for (int c = 0; c < st->ncases; c++) {
        struct fcb_case *cs = &st->cases[c];
        cs->cursor = 0;
        cs->key = cs->name + strlen(fcb_func_name(cs->func)) + 1 + strlen(cs->group) + 1;
    }
    st->items = calloc((size_t)st->ncases * st->nimpls + 1, sizeof *st->items);
    for (int c = 0; c < st->ncases; c++)
        for (int i = 0; i < st->nimpls; i++)
            if (impl_fits(&st->cases[c], &st->impls[i])) {
                struct fcb_item *it = &st->items[st->nitems++];
                it->c = c;
                it->i = i;
                it->ns = calloc((size_t)cfg->rounds, sizeof *it->ns);
            }
    return 0;
}

void fcb_filter_items(struct fcb_state *st, int (*keep)(const struct fcb_state *, int))
{
    int k = 0;
    for (int j = 0; j < st->nitems; j++)
        if (keep(st, j))
            st->items[k++] = st->items[j];
        else
            free(st->items[j].ns);
    st->nitems = k;
}

void fcb_teardown(struct fcb_state *st)
{
    for (int j = 0; j < st->nitems; j++)
        free(st->items[j].ns);
    for (int c = 0; c < st->ncases; c++)
        ops_free(&st->cases[c]);
    free(st->items);
    free(st->cases);
    free(st->impls);
}

/* ---- timing ----------------------------------------------------------------------------- */

volatile unsigned fcb_sink; /* keeps the mixread loads */

/* The loops: one per signature; the function pointer comes from the impl table, so
 * no call can be inlined or specialised for a constant size. */
double fcb_run(struct fcb_state *st, struct fcb_item *it, uint64_t iters)
{
    double t0 = fcb_now_ns();
    fcb_exec(st, it, iters);
    return fcb_now_ns() - t0;
}

/* One timed loop: CALL on the next op each iteration, wrapping at the end of the
 * sequence.  FCB_READBACK_LOOP's CALL writes n bytes at p, and the loop then reads
 * the last of them (mixread: a consumer of the result), into fcb_sink. */
#define FCB_LOOP(CALL)                                                                 \
    for (uint64_t k = 0; k < iters; k++) {                                           \
        CALL;                                                                        \
        if (++j == nops)                                                             \
            j = 0;                                                                   \
    }
#define FCB_READBACK_LOOP(CALL)                                                        \
    do {                                                                             \
        unsigned acc = 0;                                                            \
        FCB_LOOP(unsigned char *p = d + ops[j].doff; size_t n = ops[j].n; CALL;      \
                 acc += p[n ? n - 1 : 0])                                            \
        fcb_sink = acc;                                                              \
    } while (0)

/* The chain group's caller side: one plain store or load of w = 1, 2, 4 or 8
 * bytes (a constant-size memcpy: one mov). */
static size_t chain_width(size_t n)
{
    return n >= 8 ? 8 : n >= 4 ? 4 : n >= 2 ? 2 : 1;
}
static inline void chain_put(unsigned char *p, uint64_t v, size_t w)
{
    uint8_t b1 = (uint8_t)v;
    uint16_t b2 = (uint16_t)v;
    uint32_t b4 = (uint32_t)v;
    switch (w) {
    case 1: __builtin_memcpy(p, &b1, 1); break;
    case 2: __builtin_memcpy(p, &b2, 2); break;
    case 4: __builtin_memcpy(p, &b4, 4); break;
    default: __builtin_memcpy(p, &v, 8); break;
    }
}
static inline uint64_t chain_get(const unsigned char *p, size_t w)
{
    uint8_t b1;
    uint16_t b2;
    uint32_t b4;
    uint64_t b8;
    switch (w) {
    case 1: __builtin_memcpy(&b1, p, 1); return b1;
    case 2: __builtin_memcpy(&b2, p, 2); return b2;
    case 4: __builtin_memcpy(&b4, p, 4); return b4;
    default: __builtin_memcpy(&b8, p, 8); return b8;
    }
}
/* The next value: what the call left at dst, plus one (so that every call's data
 * is new, and the chain cannot be broken by a value the core predicts). */
#define FCB_CHAIN_LOOP(PUT, CALL)                                                      \
    do {                                                                             \
        unsigned char *p = d + ops[0].doff, *q = s + ops[0].soff;                   \
        size_t n = ops[0].n, w = chain_width(n);                                     \
        uint64_t v = fcb_sink;                                                       \
        for (uint64_t k = 0; k < iters; k++) {                                       \
            PUT;                                                                     \
            CALL;                                                                    \
            v = chain_get(p, w) + 1;                                                 \
        }                                                                            \
        fcb_sink = (unsigned)v;                                                      \
    } while (0)

void fcb_exec(struct fcb_state *st, struct fcb_item *it, uint64_t iters)
{
    struct fcb_case *c = &st->cases[it->c];
    const struct fcb_impl *im = &st->impls[it->i];
    const struct fcb_op *ops = c->ops;
    size_t j = c->cursor, nops = c->nops;
    unsigned char *s = c->sbase, *d = c->dbase;
    switch (im->kind) {
    case FCB_K_COPY: {
        copy_fn fn = (copy_fn)im->fn;
        if (c->prog)
            fcb_prog_exec(c, fn, iters), j = c->cursor;
        else if (c->chain && c->chain_w > 8)
            fcb_sink = fcb_chain_copy_wide(fn, d + ops[0].doff, s + ops[0].soff, ops[0].n,
                                           (size_t)c->chain_w, iters, fcb_sink);
        else if (c->chain)
            FCB_CHAIN_LOOP(chain_put(q, v, w), fn(p, q, n));
        else if (c->readback)
            FCB_READBACK_LOOP(fn(p, s + ops[j].soff, n));
        else
            FCB_LOOP(fn(d + ops[j].doff, s + ops[j].soff, ops[j].n))
        break;
    }
    case FCB_K_SET: {
        set_fn fn = (set_fn)im->fn;
        if (c->chain && c->chain_w > 8)
            fcb_sink = fcb_chain_set_wide(fn, d + ops[0].doff, ops[0].n, (size_t)c->chain_w,
                                          iters, fcb_sink);
        else if (c->chain)
            FCB_CHAIN_LOOP((void)q, fn(p, (int)(v & 0xff), n));
        else if (c->readback)
            FCB_READBACK_LOOP(fn(p, 0, n));
        else
            FCB_LOOP(fn(d + ops[j].doff, 0, ops[j].n))
        break;
    }
    case FCB_K_COPY_USER: {
        copy_user_fn fn = (copy_user_fn)im->fn;
        FCB_LOOP(fn(d + ops[j].doff, s + ops[j].soff, ops[j].n))
        break;
    }
    case FCB_K_CLEAR_USER: {
        clear_user_fn fn = (clear_user_fn)im->fn;
        FCB_LOOP(fn(d + ops[j].doff, ops[j].n))
        break;
    }
    }
    c->cursor = j;
}

void fcb_warm(struct fcb_state *st, struct fcb_item *it)
{
    struct fcb_case *c = &st->cases[it->c];
    if (c->cold || c->size > st->cache.l3 / 2)
        return;
    fcb_exec(st, it, c->mix ? 4096 : c->nops > 1 ? c->nops : c->size > 64 * KiB ? 2 : 16);
}

void fcb_calibrate(struct fcb_state *st, struct fcb_item *it, double target_ns)
{
    uint64_t n = 1;
    struct fcb_case *c = &st->cases[it->c];
    if (c->mix) {
        /* Whole passes over the sequence, as many as fill a sample (a short,
         * learnable sequence is replayed round and round). */
        it->iters = c->nops;
        c->cursor = 0;
        fcb_warm(st, it);
        c->cursor = 0;
        double t = fcb_run(st, it, c->nops);
        uint64_t k = t > 0 && t < target_ns ? (uint64_t)(target_ns / t) : 1;
        it->iters = c->nops * (k ? k : 1);
        c->cursor = 0;
        return;
    }
    fcb_warm(st, it);
    for (;;) {
        double t = fcb_run(st, it, n);
        if (t >= target_ns / 8 || n >= ((uint64_t)1 << 40)) {
            double want = t > 0 ? n * target_ns / t : n * 8.0;
            n = want < 1 ? 1 : (uint64_t)want;
            break;
        }
        n *= 8;
    }
    it->iters = n;
}
