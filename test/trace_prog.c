/* trace_prog.c - a program with a known pattern of calls, for libfastcopy-trace.so
 * (test/trace_pattern.sh runs it), and the checker of what the trace wrote.
 *
 *   trace_prog run MANIFEST    (preloaded with the trace library) the main thread
 *       calls pattern A, three threads pattern B each, then three children of
 *       fork(): one calls pattern C and exits, one execs this program
 *       ("exec-child": pattern D), one calls pattern E and ends with _exit() (it
 *       must write nothing).  MANIFEST gets "main PID", "child PID", "exec PID",
 *       "exit PID".  FCT_TEST_EXEC_WRAPPER (words split on spaces) runs the exec
 *       under an emulator.
 *   trace_prog check MANIFEST DIR PREFIX
 *       asserts that DIR/<pid>.trace of each process, and PREFIX.trace (the
 *       merge by fastcopy-trace), hold exactly the pattern's counts: every size
 *       bucket, the bytes, every name, alignment, distance class, the call sites,
 *       and that the _exit child left DIR/<pid>.running and no trace; and checks
 *       the size buckets against literal bounds.  Prints "N passed, N failed".
 *
 * Every call is made from one function, do_call, through the PLT (built with
 * -fno-builtin and exported symbols, so the sites resolve to "do_call+0x..."). */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>
#include "trace.h"

void *__memcpy_chk(void *, const void *, size_t, size_t);
void *__memmove_chk(void *, const void *, size_t, size_t);
void *__memset_chk(void *, int, size_t, size_t);
void *__mempcpy_chk(void *, const void *, size_t, size_t);
void __explicit_bzero_chk(void *, size_t, size_t);

#define MiB ((size_t)1 << 20)
#define SRC (4 * MiB) /* the disjoint sources are 4 MiB above the destinations */

/* One line of a pattern: reps calls of `name` with size n at region + doff (dst)
 * and region + soff (src), whose distance class (copies) must come out as cls. */
struct call {
    const char *name;
    size_t n, doff, soff;
    unsigned reps, cls;
};
#define D FCT_DIST_DISJOINT
#define A FCT_DIST_ALIAS
#define FW FCT_DIST_FWD
#define BW FCT_DIST_BWD
#define SA FCT_DIST_SAME
static const struct call pat_a[] = {
    {"memcpy", 16, 0, SRC + 8, 100, D},
    {"memcpy", 100, 1, SRC + 301, 7, D},
    {"memcpy", 0, 3, SRC + 3, 5, D},            /* 0 mod 4096, but n == 0: disjoint */
    {"memcpy", 1, SRC + 1, SRC, 3, A},          /* src right before dst: no overlap */
    {"memmove", 2, SRC, SRC + 2, 3, D},         /* dst right before src */
    {"memcpy", 4096, 64, SRC + 164, 3, D},
    {"memcpy", 4097, SRC + 8208, SRC, 2, A},    /* dst 16 bytes after src mod 4096 */
    {"memcpy", 5000, 32, SRC + 232, 4, D},
    {"memcpy", MiB, 0, SRC + 128, 2, D},
    {"memmove", 64, 100, 132, 11, FW},          /* dst below src, overlapping */
    {"memmove", 64, 232, 200, 13, BW},          /* dst above src, overlapping */
    {"memmove", 50, 500, 500, 3, SA},
    {"memmove", 200, SRC + 4136, SRC, 5, A},
    {"memmove", 10000, 0, 3 * MiB + 64, 2, D},
    {"memset", 0, 7, 0, 3, 0},
    {"memset", 33, 9, 0, 21, 0},
    {"memset", 4096, 64, 0, 2, 0},
    {"memset", 65536, 0, 0, 1, 0},
    {"mempcpy", 24, 16, SRC + 24, 9, D},
    {"__mempcpy", 24, 17, SRC + 25, 4, D},
    {"bcopy", 40, 50, 70, 6, FW},
    {"bzero", 12, 5, 0, 8, 0},
    {"explicit_bzero", 12, 6, 0, 2, 0},
    {"__memcpy_chk", 30, 0, SRC + 64, 3, D},
    {"__memmove_chk", 30, 2000, 1990, 2, BW},
    {"__memset_chk", 17, 11, 0, 5, 0},
    {"__mempcpy_chk", 8, 40, SRC + 41, 1, D},
    {"__explicit_bzero_chk", 9, 13, 0, 1, 0},
};
static const struct call pat_b[] = {        /* each of 3 threads */
    {"memcpy", 8, 8, SRC + 16, 1000, D},
    {"memset", 200, 3, 0, 500, 0},
    {"memmove", 3, 10, 11, 250, FW},
};
static const struct call pat_c[] = {        /* the fork child */
    {"memcpy", 77, 2, SRC + 5, 17, D},
    {"memset", 4097, 64, 0, 3, 0},
};
static const struct call pat_d[] = {        /* the exec'd program */
    {"memmove", 123, 0, SRC + 1000, 19, D},
    {"bzero", 1000, 1, 0, 3, 0},
};
static const struct call pat_e[] = {        /* the _exit child: never written */
    {"memcpy", 5, 0, SRC, 1000, D},
};
#define N(p) (sizeof p / sizeof p[0])
#define NTHREADS 3

static int name_id(const char *name)
{
    for (int k = 0; k < FCT_NNAMES; k++)
        if (!strcmp(fct_names[k], name))
            return k;
    fprintf(stderr, "trace_prog: unknown name %s\n", name);
    exit(2);
}

/* ---- run ---------------------------------------------------------------------------- */

volatile uintptr_t sink;
/* the _chk forms' destination sizes, unknown to the compiler: clang turned
 * __memmove_chk(d, s, n, n) into a call of memmove */
volatile size_t slack;

__attribute__((noinline)) void do_call(const struct call *c, unsigned char *r)
{
    unsigned char *d = r + c->doff;
    const unsigned char *s = r + c->soff;
    size_t n = c->n, dn = n + slack;
    switch (name_id(c->name)) {
    case FCT_ID_memcpy: sink += (uintptr_t)memcpy(d, s, n); break;
    case FCT_ID_memmove: sink += (uintptr_t)memmove(d, s, n); break;
    case FCT_ID_memset: sink += (uintptr_t)memset(d, 0x5a, n); break;
    case FCT_ID_mempcpy: sink += (uintptr_t)mempcpy(d, s, n); break;
    case FCT_ID___mempcpy: sink += (uintptr_t)__mempcpy(d, s, n); break;
    case FCT_ID_bcopy: bcopy(s, d, n); break;
    case FCT_ID_bzero: bzero(d, n); break;
    case FCT_ID_explicit_bzero: explicit_bzero(d, n); break;
    case FCT_ID___memcpy_chk: sink += (uintptr_t)__memcpy_chk(d, s, n, dn + 1); break;
    case FCT_ID___memmove_chk: sink += (uintptr_t)__memmove_chk(d, s, n, dn); break;
    case FCT_ID___memset_chk: sink += (uintptr_t)__memset_chk(d, 1, n, dn); break;
    case FCT_ID___mempcpy_chk: sink += (uintptr_t)__mempcpy_chk(d, s, n, dn); break;
    case FCT_ID___explicit_bzero_chk: __explicit_bzero_chk(d, n, dn); break;
    }
    sink ^= 1; /* no tail calls: every return address is in do_call */
}

static unsigned char *region(void)
{
    void *p;
    if (posix_memalign(&p, 4096, 8 * MiB)) {
        perror("trace_prog: posix_memalign");
        exit(2);
    }
    return p;
}

static void play(const struct call *p, size_t n, unsigned char *r)
{
    for (size_t i = 0; i < n; i++)
        for (unsigned k = 0; k < p[i].reps; k++)
            do_call(&p[i], r);
}

static void *thread_main(void *r)
{
    play(pat_b, N(pat_b), r);
    return NULL;
}

static FILE *manifest;

static void note(const char *what, long pid)
{
    fprintf(manifest, "%s %ld\n", what, pid);
    fflush(manifest);
}

static int run(const char *self, const char *mpath)
{
    manifest = fopen(mpath, "w"); /* emptied, then appended to (so is it by the exec child) */
    if (manifest)
        manifest = freopen(mpath, "a", manifest);
    if (!manifest) {
        perror(mpath);
        return 2;
    }
    note("main", (long)getpid());
    unsigned char *r = region(), *rt[NTHREADS];
    play(pat_a, N(pat_a), r);
    pthread_t th[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        rt[i] = region();
        if (pthread_create(&th[i], NULL, thread_main, rt[i])) {
            fprintf(stderr, "trace_prog: pthread_create failed\n");
            return 2;
        }
    }
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(th[i], NULL);
    pid_t kids[3];
    for (int k = 0; k < 3; k++) {
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0) {
            perror("trace_prog: fork");
            return 2;
        }
        if (pid == 0) {
            if (k == 0) {
                play(pat_c, N(pat_c), r);
                exit(0);
            }
            if (k == 1) {
                const char *w = getenv("FCT_TEST_EXEC_WRAPPER");
                char *argv[40], *copy = w && *w ? strdup(w) : NULL, *save = NULL;
                int a = 0;
                for (char *t = copy ? strtok_r(copy, " ", &save) : NULL; t && a < 36;
                     t = strtok_r(NULL, " ", &save))
                    argv[a++] = t;
                argv[a++] = (char *)self;
                argv[a++] = "exec-child";
                argv[a++] = (char *)mpath;
                argv[a] = NULL;
                if (copy)
                    unsetenv("LD_PRELOAD"); /* the emulator's host loader must not see it */
                execvp(argv[0], argv);
                perror("trace_prog: exec");
                _exit(2);
            }
            play(pat_e, N(pat_e), r);
            _exit(0);
        }
        kids[k] = pid;
    }
    note("child", (long)kids[0]);
    note("exit", (long)kids[2]);
    int bad = 0;
    for (int k = 0; k < 3; k++) {
        int st;
        if (waitpid(kids[k], &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
            fprintf(stderr, "trace_prog: child %d failed (status %d)\n", k, st);
            bad = 1;
        }
    }
    fclose(manifest);
    return bad ? 2 : 0;
}

static int exec_child(const char *mpath)
{
    manifest = fopen(mpath, "a");
    if (!manifest)
        return 2;
    note("exec", (long)getpid());
    fclose(manifest);
    unsigned char *r = region();
    play(pat_d, N(pat_d), r);
    return 0;
}

/* ---- check -------------------------------------------------------------------------- */

static int pass, fail;
#define CHECK(cond, ...)                                                             \
    do {                                                                             \
        if (cond)                                                                    \
            pass++;                                                                  \
        else {                                                                       \
            fail++;                                                                  \
            printf("FAIL - ");                                                       \
            printf(__VA_ARGS__);                                                     \
            printf("\n");                                                            \
        }                                                                            \
    } while (0)

/* The counts a pattern must give, computed from its table. */
static void expect(struct fct_report *r, const struct call *p, size_t n, unsigned times)
{
    for (size_t i = 0; i < n; i++) {
        const struct call *c = &p[i];
        int id = name_id(c->name), f = fct_name_func[id];
        uint64_t reps = (uint64_t)c->reps * times;
        unsigned b = fct_bucket(c->n);
        struct fct_hist *h = &r->h[f];
        h->calls[b] += reps;
        if (b >= FCT_NEXACT) {
            h->bytes[b - FCT_NEXACT] += reps * c->n;
            if (c->n > h->max)
                h->max = c->n;
        }
        r->name_calls[id] += reps;
        r->name_bytes[id] += reps * c->n;
        /* the regions are 4096-aligned: the offsets give the alignment */
        h->align[FCT_AL_DST][c->doff & 63] += reps;
        if (f != FC_MEMSET) {
            h->align[FCT_AL_SRC][c->soff & 63] += reps;
            h->dist[c->cls] += reps;
        }
    }
}

static void compare(const char *what, const struct fct_report *got, const struct fct_report *want,
                    const char *exe)
{
    int before = fail;
    for (int f = 0; f < FC_NFUNCS; f++) {
        const struct fct_hist *g = &got->h[f], *w = &want->h[f];
        for (unsigned b = 0; b < FCT_NBUCKETS; b++)
            CHECK(g->calls[b] == w->calls[b], "%s: func %d sizes %" PRIu64 "-%" PRIu64 ": %" PRIu64
                  " calls, want %" PRIu64, what, f, fct_bucket_lo(b), fct_bucket_hi(b),
                  g->calls[b], w->calls[b]);
        for (unsigned b = 0; b < FCT_NRANGED; b++)
            CHECK(g->bytes[b] == w->bytes[b], "%s: func %d ranged bucket %u: %" PRIu64
                  " bytes, want %" PRIu64, what, f, b, g->bytes[b], w->bytes[b]);
        for (unsigned x = 0; x < FCT_NAL; x++)
            for (unsigned k = 0; k < 64; k++)
                CHECK(g->align[x][k] == w->align[x][k], "%s: func %d %s mod 64 = %u: %" PRIu64
                      ", want %" PRIu64, what, f, x ? "src" : "dst", k, g->align[x][k],
                      w->align[x][k]);
        for (unsigned k = 0; k < FCT_NDIST; k++)
            CHECK(g->dist[k] == w->dist[k], "%s: func %d distance class %u: %" PRIu64
                  ", want %" PRIu64, what, f, k, g->dist[k], w->dist[k]);
        CHECK(g->max == w->max, "%s: func %d max %" PRIu64 ", want %" PRIu64, what, f, g->max,
              w->max);
    }
    uint64_t all = 0;
    for (int k = 0; k < FCT_NNAMES; k++) {
        CHECK(got->name_calls[k] == want->name_calls[k], "%s: %s: %" PRIu64 " calls, want %"
              PRIu64, what, fct_names[k], got->name_calls[k], want->name_calls[k]);
        CHECK(got->name_bytes[k] == want->name_bytes[k], "%s: %s: %" PRIu64 " bytes, want %"
              PRIu64, what, fct_names[k], got->name_bytes[k], want->name_bytes[k]);
        all += want->name_calls[k];
    }
    /* The sites: all in this program's do_call, one per name called, with
     * that name's calls and bytes. */
    uint64_t site_calls = 0;
    int per_name[FCT_NNAMES] = {0};
    for (size_t i = 0; i < got->nsites; i++) {
        const struct fct_site *s = &got->sites[i];
        site_calls += s->calls;
        per_name[s->name]++;
        CHECK(!strcmp(s->object, exe), "%s: a site in %s, not %s", what, s->object, exe);
        CHECK(!strncmp(s->symbol, "do_call+0x", 10), "%s: a site in '%s', not do_call", what,
              s->symbol);
        CHECK(s->calls == want->name_calls[s->name] && s->bytes == want->name_bytes[s->name],
              "%s: the %s site: %" PRIu64 " calls %" PRIu64 " bytes, want %" PRIu64 " and %"
              PRIu64, what, fct_names[s->name], s->calls, s->bytes, want->name_calls[s->name],
              want->name_bytes[s->name]);
    }
    for (int k = 0; k < FCT_NNAMES; k++)
        CHECK(per_name[k] == (want->name_calls[k] ? 1 : 0), "%s: %d sites for %s", what,
              per_name[k], fct_names[k]);
    CHECK(site_calls == all && got->other_calls == 0, "%s: sites hold %" PRIu64 " calls (+%"
          PRIu64 " other), want %" PRIu64, what, site_calls, got->other_calls, all);
    if (fail == before)
        printf("ok - %s: every count exact (%" PRIu64 " calls)\n", what, all);
}

static struct fct_report *load(const char *path)
{
    char err[256];
    FILE *f = fopen(path, "r");
    struct fct_report *r = fct_report_new();
    if (!f || fct_read_trace(f, r, err, sizeof err)) {
        CHECK(0, "%s: %s", path, f ? err : strerror(errno));
        if (f)
            fclose(f);
        fct_report_free(r);
        return NULL;
    }
    fclose(f);
    /* the writer sorts and merges the sites; reading keeps them as written */
    return r;
}

static void check_buckets(void)
{
    static const struct {
        uint64_t n, lo, hi;
    } t[] = {
        {0, 0, 0},
        {1, 1, 1},
        {4096, 4096, 4096},
        {4097, 4097, 4351},
        {4351, 4097, 4351},
        {4352, 4352, 4607},
        {5000, 4864, 5119},
        {8191, 7936, 8191},
        {8192, 8192, 8703},
        {10000, 9728, 10239},
        {65536, 65536, 69631},
        {1048576, 1048576, 1114111},
        {((uint64_t)1 << 40) - 1, ((uint64_t)1 << 40) - ((uint64_t)1 << 35),
         ((uint64_t)1 << 40) - 1},
        {(uint64_t)1 << 40, (uint64_t)1 << 40, UINT64_MAX},
        {UINT64_MAX, (uint64_t)1 << 40, UINT64_MAX},
    };
    int before = fail;
    for (size_t i = 0; i < N(t); i++) {
        unsigned b = fct_bucket(t[i].n);
        CHECK(fct_bucket_lo(b) == t[i].lo && fct_bucket_hi(b) == t[i].hi,
              "size %" PRIu64 ": bucket %" PRIu64 "-%" PRIu64 ", want %" PRIu64 "-%" PRIu64,
              t[i].n, fct_bucket_lo(b), fct_bucket_hi(b), t[i].lo, t[i].hi);
    }
    CHECK(fct_bucket(UINT64_MAX) == FCT_NBUCKETS - 1, "the last bucket");
    /* every bucket follows the one before it */
    for (unsigned b = 1; b < FCT_NBUCKETS; b++)
        CHECK(fct_bucket_lo(b) == fct_bucket_hi(b - 1) + 1 && fct_bucket(fct_bucket_lo(b)) == b &&
                  fct_bucket(fct_bucket_hi(b)) == b,
              "bucket %u does not follow bucket %u", b, b - 1);
    /* the distance classes of the pattern, as the library computes them */
    const struct call *all[] = {pat_a, pat_b, pat_c, pat_d};
    size_t nall[] = {N(pat_a), N(pat_b), N(pat_c), N(pat_d)};
    for (size_t p = 0; p < 4; p++)
        for (size_t i = 0; i < nall[p]; i++)
            if (fct_name_func[name_id(all[p][i].name)] != FC_MEMSET)
                CHECK(fct_dist_class(all[p][i].doff, all[p][i].soff, all[p][i].n) == all[p][i].cls,
                      "distance class of %s %zu at %zu/%zu", all[p][i].name, all[p][i].n,
                      all[p][i].doff, all[p][i].soff);
    if (fail == before)
        printf("ok - size buckets and distance classes\n");
}

static int check(const char *mpath, const char *dir, const char *prefix)
{
    long pids[4] = {0, 0, 0, 0}; /* main, child, exec, exit */
    static const char *const keys[4] = {"main", "child", "exec", "exit"};
    FILE *m = fopen(mpath, "r");
    char key[32], path[4096], exe[4096];
    long pid;
    if (!m) {
        perror(mpath);
        return 1;
    }
    while (fscanf(m, "%31s %ld", key, &pid) == 2)
        for (int k = 0; k < 4; k++)
            if (!strcmp(key, keys[k]))
                pids[k] = pid;
    fclose(m);
    for (int k = 0; k < 4; k++)
        CHECK(pids[k] > 0, "no %s pid in %s", keys[k], mpath);
    ssize_t l = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[l > 0 ? l : 0] = 0;
    check_buckets();

    struct fct_report *want[3], *sum = fct_report_new();
    for (int k = 0; k < 3; k++)
        want[k] = fct_report_new();
    expect(want[0], pat_a, N(pat_a), 1);
    expect(want[0], pat_b, N(pat_b), NTHREADS);
    expect(want[1], pat_c, N(pat_c), 1);
    expect(want[2], pat_d, N(pat_d), 1);
    for (int k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "%s/%ld.trace", dir, pids[k]);
        struct fct_report *got = load(path);
        if (got) {
            char what[64];
            snprintf(what, sizeof what, "the %s process", keys[k]);
            compare(what, got, want[k], exe);
            CHECK(got->pid == pids[k], "%s: pid %ld", path, got->pid);
            CHECK(got->threads == (k == 0 ? 1 + NTHREADS : 1), "%s: %" PRIu64 " threads", path,
                  got->threads);
            const char *slots = getenv("FCTRACE_THREAD_SLOTS");
            uint64_t shared = k == 0 && slots && atoi(slots) == 1 ? NTHREADS : 0;
            CHECK(got->shared_threads == shared, "%s: %" PRIu64 " threads on the shared "
                  "counters, want %" PRIu64, path, got->shared_threads, shared);
            snprintf(path, sizeof path, "%s/%ld.running", dir, pids[k]);
            CHECK(access(path, F_OK) != 0, "%s is left (the process exited normally)", path);
            fct_report_free(got);
        }
        fct_report_merge(sum, want[k]);
    }
    snprintf(path, sizeof path, "%s/%ld.trace", dir, pids[3]);
    CHECK(access(path, F_OK) != 0, "%s exists: the _exit child wrote a trace", path);
    snprintf(path, sizeof path, "%s/%ld.running", dir, pids[3]);
    CHECK(access(path, F_OK) == 0, "%s is missing: nothing says the _exit child wrote nothing",
          path);

    snprintf(path, sizeof path, "%s.trace", prefix);
    struct fct_report *got = load(path);
    if (got) {
        compare("the merged PREFIX.trace", got, sum, exe);
        CHECK(got->nproc == 3 && got->pid == 0, "%s: %u processes", path, got->nproc);
        fct_report_free(got);
    }
    /* the distribution file: line 1 is each size's share of the calls */
    snprintf(path, sizeof path, "%s.memcpy.csv", prefix);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "%s: %s", path, strerror(errno));
    if (f) {
        static char line[1 << 16];
        uint64_t total = 0;
        for (unsigned b = 0; b < FCT_NBUCKETS; b++)
            total += sum->h[FC_MEMCPY].calls[b];
        int ok = fgets(line, sizeof line, f) != NULL, nf = 0;
        for (char *save = NULL, *t = strtok_r(line, ",\n", &save); ok && t;
             t = strtok_r(NULL, ",\n", &save), nf++) {
            double want_p = (double)sum->h[FC_MEMCPY].calls[nf] / (double)total;
            double got_p = strtod(t, NULL);
            ok = got_p == 0 ? want_p == 0 : got_p > want_p * 0.99999 && got_p < want_p * 1.00001;
            CHECK(ok, "%s: size %d: probability %s, want %g", path, nf, t, want_p);
        }
        CHECK(nf == 4097, "%s: %d sizes on line 1, want 0..4096", path, nf);
        int ranged = 0;
        while (fgets(line, sizeof line, f))
            if (line[0] >= '0' && line[0] <= '9')
                ranged++;
        CHECK(ranged == 3, "%s: %d ranged lines, want 3 (4097, 5000, 1 MiB)", path, ranged);
        fclose(f);
        if (!fail)
            printf("ok - %s: line 1 and the ranges\n", path);
    }
    fct_report_free(sum);
    for (int k = 0; k < 3; k++)
        fct_report_free(want[k]);
    printf("%d passed, %d failed\n", pass, fail);
    return fail ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "run"))
        return run(argv[0][0] == '/' ? argv[0] : realpath("/proc/self/exe", NULL), argv[2]);
    if (argc == 3 && !strcmp(argv[1], "exec-child"))
        return exec_child(argv[2]);
    if (argc == 5 && !strcmp(argv[1], "check"))
        return check(argv[2], argv[3], argv[4]);
    fprintf(stderr, "usage: trace_prog run MANIFEST | check MANIFEST DIR PREFIX\n");
    return 2;
}
