/* test_usercopy_fuzz.c - fc_copy_user / fc_clear_user against a page map.
 *
 * Two modes, each run once per variant: the program walks fc_variants() and
 * starts itself again for every usable memcpy variant (paired with a memset
 * variant, round robin, so every memset variant runs too) with FASTCOPY_MEMCPY /
 * FASTCOPY_MEMSET set, as the overrides are read at load time only.  Each child
 * checks that fc_selected() names the forced pair.
 *
 *   test_usercopy_fuzz [--calls N] [--seed S]
 *       The randomised fault fuzz: per thread, arenas of pages that are
 *       read-write, PROT_READ, PROT_NONE, unmapped, or a MAP_SHARED file
 *       truncated inside the arena (SIGBUS past its end), re-randomised as it
 *       runs.  Random sizes 0..70000 (skewed small), placements across a bad
 *       page, starting in one, on page edges, overlapping, dst == src, source and
 *       destination in the same arena or in different ones, copies and clears.
 *       The expected count comes from the page map (k = the longest prefix with
 *       the source readable and the destination writable); checked: the count,
 *       the copied prefix, [dst+k, dst+n) holding the old value or the source
 *       byte (the old value only, for overlapping buffers and dst == src), every
 *       readable byte around both ranges unchanged, the signal mask after.  Half
 *       of a child's calls on one thread, half on four threads.  N calls in all
 *       (default 600000; 60000 with FC_TEST_QUICK=1, as under QEMU), split over
 *       the variants.
 *   test_usercopy_fuzz --cases
 *       The exact cases of the contract with a page that both ranges reach and
 *       with dst == src (see cases()), fc_clear_user's analogues.
 *
 * Exit status 0 when every child passed; the first failure is printed. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fastcopy.h"

#define MAXN 70000
#define NARENA 3
#define NTHREADS 4

static size_t pg;
static const char *variant_label = "?";

#define FAIL(...)                                                                    \
    do {                                                                             \
        fprintf(stderr, "FAIL [%s] line %d: ", variant_label, __LINE__);             \
        fprintf(stderr, __VA_ARGS__);                                                \
        fprintf(stderr, "\n");                                                       \
        fflush(stderr);                                                              \
        _exit(1);                                                                    \
    } while (0)
#define CHECK(c)                                                                     \
    do {                                                                             \
        if (!(c))                                                                    \
            FAIL("%s", #c);                                                          \
    } while (0)

/* ---- the exact cases ---------------------------------------------------------------- */

/* A mapping of `pages` read-write pages; page `bad` (if >= 0) then made `kind`:
 * 'r' PROT_READ, 'n' PROT_NONE, 'u' unmapped, 'b' a MAP_SHARED file whose end is
 * at the start of that page (SIGBUS from there on). */
struct cmap {
    unsigned char *p;
    size_t len;
    int fd;
};

static void cmap_make(struct cmap *m, int pages, int bad, char kind)
{
    m->len = (size_t)pages * pg;
    m->fd = -1;
    m->p = mmap(NULL, m->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(m->p != MAP_FAILED);
    for (size_t i = 0; i < m->len; i++)
        m->p[i] = (unsigned char)(i * 7 + 3);
    if (bad < 0)
        return;
    unsigned char *b = m->p + (size_t)bad * pg;
    switch (kind) {
    case 'r': CHECK(mprotect(b, pg, PROT_READ) == 0); break;
    case 'n': CHECK(mprotect(b, pg, PROT_NONE) == 0); break;
    case 'u': CHECK(munmap(b, pg) == 0); break;
    case 'b': {
        /* The whole mapping from the file, which ends where page `bad` starts. */
        m->fd = memfd_create("fc_cases", 0);
        CHECK(m->fd >= 0);
        CHECK(ftruncate(m->fd, (off_t)((size_t)bad * pg)) == 0);
        CHECK(mmap(m->p, m->len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, m->fd, 0) ==
              m->p);
        for (size_t i = 0; i < (size_t)bad * pg; i++)
            m->p[i] = (unsigned char)(i * 7 + 3);
        break;
    }
    }
}

static void cmap_free(struct cmap *m)
{
    munmap(m->p, m->len);
    if (m->fd >= 0)
        close(m->fd);
}

/* One exact case: fc_copy_user(p + d, p + s, n) (s < 0: fc_clear_user(p + d, n)) on
 * the mapping must return want; the prefix is copied (from the source as it was),
 * and every readable byte of the mapping outside [p+d, p+d+n-want) is unchanged. */
static void one_case(const char *what, int pages, int bad, char kind, long d, long s,
                     size_t n, size_t want)
{
    struct cmap m;
    cmap_make(&m, pages, bad, kind);
    unsigned char *before = malloc(m.len);
    CHECK(before);
    size_t readable = bad < 0 ? m.len : kind == 'r' ? m.len : (size_t)bad * pg;
    size_t after_bad = bad < 0 || kind == 'r' || kind == 'b' ? m.len : (size_t)(bad + 1) * pg;
    memcpy(before, m.p, m.len > readable ? readable : m.len);
    if (after_bad < m.len)
        memcpy(before + after_bad, m.p + after_bad, m.len - after_bad);
    size_t r = s < 0 ? fc_clear_user(m.p + d, n) : fc_copy_user(m.p + d, m.p + s, n);
    if (r != want)
        FAIL("%s: returned %zu, want %zu", what, r, want);
    size_t k = n - r;
    for (size_t i = 0; i < m.len; i++) {
        if (i >= readable && i < after_bad)
            continue;
        unsigned char expect = before[i];
        if (i >= (size_t)d && i < (size_t)d + k)
            expect = s < 0 ? 0 : before[(size_t)s + (i - (size_t)d)];
        if (m.p[i] != expect)
            FAIL("%s: byte %zu of the mapping is 0x%02x, want 0x%02x (k=%zu)", what, i, m.p[i],
                 expect, k);
    }
    sigset_t cur;
    CHECK(pthread_sigmask(SIG_SETMASK, NULL, &cur) == 0);
    CHECK(!sigismember(&cur, SIGSEGV) && !sigismember(&cur, SIGBUS));
    free(before);
    cmap_free(&m);
}

static void cases(void)
{
    long P = (long)pg; /* page 0 writable, page 1 ("P+1") read-only */
    /* A read-only page that both ranges reach: a store into it faults, loads from it
     * do not; the count stops at the destination's first byte in it. */
    one_case("ro page in both ranges, 5 bytes", 2, 1, 'r', P - 4, P + 26, 5, 1);
    one_case("ro page in both ranges, overlapping 784", 2, 1, 'r', P - 64, P + 197, 784, 720);
    one_case("ro page in both ranges, 32 bytes", 2, 1, 'r', P - 16, P + 104, 32, 16);
    /* The same, with the fault on the load side: PROT_NONE shared page. */
    one_case("none page in both ranges, 5 bytes", 2, 1, 'n', P - 4, P + 26, 5, 5);
    one_case("none page in the destination, 32 bytes", 3, 1, 'n', P - 16, 2 * P + 104, 32, 16);
    one_case("none page ahead of the source, 32 bytes", 3, 1, 'n', 2 * P + 16, P - 8, 32, 24);
    /* dst == src: nothing to move, but every page must be touched. */
    one_case("dst == src, unmapped", 3, 1, 'u', P, P, 4096, 4096);
    one_case("dst == src, PROT_NONE from byte 1096", 3, 1, 'n', P - 1096, P - 1096, 2000, 904);
    one_case("dst == src, 4096 bytes, PROT_NONE from byte 3192", 3, 1, 'n', P - 3192, P - 3192,
             4096, 904);
    one_case("dst == src, read-only from byte 1096", 3, 1, 'r', P - 1096, P - 1096, 2000, 904);
    one_case("dst == src, SIGBUS from byte 1096", 3, 1, 'b', P - 1096, P - 1096, 2000, 904);
    one_case("dst == src, all accessible", 3, -1, 0, 100, 100, 2 * P, 0);
    one_case("dst == src, 1 byte in a PROT_NONE page", 3, 1, 'n', P + 5, P + 5, 1, 1);
    /* Overlapping, a bad page ahead: exactly the prefix moved, the rest unchanged. */
    one_case("overlap forward, PROT_NONE", 3, 2, 'n', 100, 1100, 2 * P, 2 * P - (2 * P - 1100));
    one_case("overlap backward, read-only", 3, 2, 'r', 1100, 100, 2 * P, 2 * P - (2 * P - 1100));
    one_case("overlap backward, SIGBUS", 3, 2, 'b', 1100, 100, 2 * P, 2 * P - (2 * P - 1100));
    /* fc_clear_user's analogues. */
    one_case("clear up to a ro page, 5 bytes", 2, 1, 'r', P - 4, -1, 5, 1);
    one_case("clear up to a ro page, 784", 2, 1, 'r', P - 64, -1, 784, 720);
    one_case("clear up to a ro page, 32 bytes", 2, 1, 'r', P - 16, -1, 32, 16);
    one_case("clear, unmapped", 3, 1, 'u', P, -1, 4096, 4096);
    one_case("clear, PROT_NONE from byte 1096", 3, 1, 'n', P - 1096, -1, 2000, 904);
    one_case("clear, SIGBUS from byte 1096", 3, 1, 'b', P - 1096, -1, 2000, 904);
    printf("[%s] exact cases: 22 passed\n", variant_label);
}

/* ---- the fuzz ------------------------------------------------------------------------ */

enum pstate { PS_RW, PS_RO, PS_NONE, PS_HOLE, PS_FILE, PS_FBUS };

static int readable(int s) { return s == PS_RW || s == PS_RO || s == PS_FILE; }
static int writable(int s) { return s == PS_RW || s == PS_FILE; }

struct arena {
    unsigned char *base;
    unsigned char *shadow;   /* the contents of every readable byte */
    unsigned char st[64];
    size_t np;
    int fd;
};

struct fuzz {
    struct arena a[NARENA];
    uint64_t rng;
    long calls, faulted, partial, overlap, same, clears, rerand, moved;
    sigset_t mask;           /* what this thread's mask must be */
    long todo;
    int id;
};

static size_t arena_pages;
static void *start_arg;   /* the single-thread phase's state: no barrier */
static pthread_barrier_t start_line;

static uint64_t rnd(struct fuzz *f)
{
    uint64_t x = f->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    f->rng = x;
    return x * 2685821657736338717ull;
}

static size_t below(struct fuzz *f, size_t n) { return n ? (size_t)(rnd(f) % n) : 0; }

static void arena_init(struct arena *a)
{
    a->np = arena_pages;
    a->base = mmap(NULL, a->np * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    a->shadow = mmap(NULL, a->np * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(a->base != MAP_FAILED && a->shadow != MAP_FAILED);
    memset(a->st, PS_RW, sizeof a->st);
    memset(a->base, 0x5a, a->np * pg);
    memset(a->shadow, 0x5a, a->np * pg);
    a->fd = memfd_create("fc_fuzz", 0);
    CHECK(a->fd >= 0);
}

/* A fresh page map for the arena, and fresh contents. */
static void arena_rerand(struct fuzz *f, struct arena *a)
{
    unsigned char *b = a->base;
    /* 1. Take back the holes.  Nothing else in this process maps memory while the
     * threads run (no malloc, no stdio, the thread stacks exist), so each hole must
     * still be free; MAP_FIXED_NOREPLACE makes sure (QEMU 7.2 gives another address
     * instead of EEXIST). */
    for (size_t p = 0; p < a->np; p++) {
        if (a->st[p] != PS_HOLE)
            continue;
        void *q = mmap(b + p * pg, pg, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        if (q != b + p * pg)
            FAIL("thread %d: a hole of the arena was mapped by someone else (%p)", f->id, q);
    }
    /* 2. The whole arena ours again: plain anonymous memory. */
    CHECK(mmap(b, a->np * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
               -1, 0) == b);
    /* 3. The new map: a density of bad pages, sometimes none; a file region
     * sometimes. */
    static const unsigned dens[] = {0, 3, 8, 20, 45};
    unsigned d = dens[below(f, 5)];
    for (size_t p = 0; p < a->np; p++) {
        a->st[p] = PS_RW;
        if (below(f, 100) < d) {
            size_t t = below(f, 3);
            a->st[p] = t == 0 ? PS_RO : t == 1 ? PS_NONE : PS_HOLE;
        }
    }
    if (below(f, 3) == 0) {
        size_t fl = 1 + below(f, 8), f0 = below(f, a->np - fl + 1);
        size_t eof = below(f, fl * pg + 1);   /* the page holding EOF is accessible */
        CHECK(ftruncate(a->fd, 0) == 0 && ftruncate(a->fd, (off_t)eof) == 0);
        CHECK(mmap(b + f0 * pg, fl * pg, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, a->fd,
                   0) == b + f0 * pg);
        for (size_t p = 0; p < fl; p++)
            a->st[f0 + p] = p * pg < eof ? PS_FILE : PS_FBUS;
    }
    /* 4. Contents: random, in every readable page. */
    for (size_t p = 0; p < a->np; p++) {
        if (!readable(a->st[p]))
            continue;
        uint64_t *w = (uint64_t *)(b + p * pg);
        for (size_t i = 0; i < pg / 8; i++)
            w[i] = rnd(f);
        memcpy(a->shadow + p * pg, b + p * pg, pg);
    }
    /* 5. The protections, runs at a time. */
    for (size_t p = 0; p < a->np;) {
        size_t q = p + 1;
        while (q < a->np && a->st[q] == a->st[p])
            q++;
        if (a->st[p] == PS_RO)
            CHECK(mprotect(b + p * pg, (q - p) * pg, PROT_READ) == 0);
        else if (a->st[p] == PS_NONE)
            CHECK(mprotect(b + p * pg, (q - p) * pg, PROT_NONE) == 0);
        else if (a->st[p] == PS_HOLE)
            CHECK(munmap(b + p * pg, (q - p) * pg) == 0);
        p = q;
    }
    f->rerand++;
}

static size_t pick_n(struct fuzz *f)
{
    size_t c = below(f, 100);
    if (c < 35)
        return below(f, 65);
    if (c < 60)
        return below(f, 513);
    if (c < 80)
        return below(f, 4200);
    if (c < 93)
        return below(f, 20000);
    return below(f, MAXN + 1);
}

/* A bad page of the arena (a random one when there is none). */
static size_t bad_page(struct fuzz *f, const struct arena *a)
{
    size_t s = below(f, a->np);
    for (size_t i = 0; i < a->np; i++) {
        size_t p = (s + i) % a->np;
        if (a->st[p] != PS_RW && a->st[p] != PS_FILE)
            return p;
    }
    return s;
}

static size_t place(struct fuzz *f, const struct arena *a, size_t n)
{
    long max = (long)(a->np * pg - n), off;
    switch (below(f, 6)) {
    case 0: /* across a bad page */
        off = (long)(bad_page(f, a) * pg) - (long)below(f, n + 1);
        break;
    case 1: /* starting in one */
        off = (long)(bad_page(f, a) * pg + below(f, pg));
        break;
    case 2: /* starting on a page edge */
        off = (long)(below(f, a->np + 1) * pg) + (long)below(f, 7) - 3;
        break;
    case 3: /* ending on a page edge */
        off = (long)(below(f, a->np + 1) * pg) - (long)n + (long)below(f, 7) - 3;
        break;
    default:
        off = (long)below(f, (size_t)max + 1);
        break;
    }
    return (size_t)(off < 0 ? 0 : off > max ? max : off);
}

/* k from the page map. */
static size_t expect_k(const struct arena *da, size_t d, const struct arena *sa, size_t s,
                       size_t n)
{
    size_t i = 0;
    while (i < n) {
        size_t c = pg - (d + i) % pg;
        if (!writable(da->st[(d + i) / pg]))
            return i;
        if (sa) {
            if (!readable(sa->st[(s + i) / pg]))
                return i;
            if (pg - (s + i) % pg < c)
                c = pg - (s + i) % pg;
        }
        i += c;
    }
    return n;
}

struct call {
    struct arena *da, *sa;   /* sa NULL: a clear */
    size_t d, s, n, k, r;
    int overlap;
};

static void report(struct fuzz *f, const struct call *c, const char *why, size_t at)
{
    char map[2][160];
    for (int w = 0; w < 2; w++) {
        const struct arena *a = w ? c->sa : c->da;
        map[w][0] = 0;
        if (!a)
            continue;
        for (size_t p = 0; p < a->np && p < sizeof map[w] - 1; p++)
            map[w][p] = "wrnubB"[a->st[p]];
        map[w][a->np] = 0;
    }
    FAIL("thread %d call %ld: %s (at arena byte %zu): %s dst=arena%d+%zu src=arena%d+%zu "
         "n=%zu returned %zu, want %zu%s\n  dst arena pages %s\n  src arena pages %s "
         "(w rw, r ro, n none, u unmapped, b file, B past its end)",
         f->id, f->calls, why, at, c->sa ? "copy" : "clear", (int)(c->da - f->a), c->d,
         c->sa ? (int)(c->sa - f->a) : -1, c->s, c->n, c->r, c->n - c->k,
         c->overlap ? " (overlapping)" : "", map[0], map[1]);
}

/* The readable bytes of [lo, hi) of arena a after the call, against the shadow and
 * the contract. */
static void check_window(struct fuzz *f, const struct call *c, struct arena *a, size_t lo,
                         size_t hi)
{
    for (size_t p = lo / pg; p * pg < hi; p++) {
        if (!readable(a->st[p]))
            continue;
        size_t x0 = p * pg > lo ? p * pg : lo, x1 = (p + 1) * pg < hi ? (p + 1) * pg : hi;
        const unsigned char *m = a->base, *sh = a->shadow;
        if (memcmp(m + x0, sh + x0, x1 - x0) == 0 && (a != c->da || c->k == 0 ||
                                                      x1 <= c->d || x0 >= c->d + c->k))
            continue;   /* unchanged, and nothing had to be copied here */
        for (size_t x = x0; x < x1; x++) {
            int in = a == c->da && x >= c->d && x < c->d + c->n;
            if (!in) {
                if (m[x] != sh[x])
                    report(f, c, "a byte outside [dst, dst+n) changed", x);
                continue;
            }
            size_t i = x - c->d;
            unsigned char want = c->sa ? c->sa->shadow[c->s + i] : 0;
            if (i < c->k) {
                if (m[x] != want)
                    report(f, c, c->sa ? "prefix not copied" : "prefix not zeroed", x);
            } else if (m[x] != sh[x]) {
                int src_ok = !c->sa || (!c->overlap && readable(c->sa->st[(c->s + i) / pg]));
                if (!src_ok || m[x] != want)
                    report(f, c, c->overlap ? "past k: changed (overlapping: must keep its value)"
                                            : "past k: neither the old value nor the source byte",
                           x);
            }
        }
    }
}

static void fuzz_call(struct fuzz *f)
{
    struct call c;
    c.n = pick_n(f);
    c.da = &f->a[below(f, NARENA)];
    c.sa = NULL;
    c.overlap = 0;
    c.d = place(f, c.da, c.n);
    c.s = 0;
    if (below(f, 7) != 0) {
        size_t mode = below(f, 10);
        c.sa = mode < 5 ? c.da : &f->a[below(f, NARENA)];
        if (c.sa == c.da && mode == 0) {
            c.s = c.d;                                    /* dst == src */
        } else if (c.sa == c.da && mode < 3 && c.n > 0) {
            long max = (long)(c.sa->np * pg - c.n);        /* overlapping */
            long s = (long)c.d + (long)below(f, 2 * c.n - 1) - (long)(c.n - 1);
            c.s = (size_t)(s < 0 ? 0 : s > max ? max : s);
        } else {
            c.s = place(f, c.sa, c.n);
        }
        c.overlap = c.sa == c.da && c.n > 0 && c.d < c.s + c.n && c.s < c.d + c.n;
    }
    c.k = expect_k(c.da, c.d, c.sa, c.s, c.n);
    unsigned char *dp = c.da->base + c.d;
    c.r = c.sa ? fc_copy_user(dp, c.sa->base + c.s, c.n) : fc_clear_user(dp, c.n);
    f->calls++;
    if (c.r != c.n - c.k)
        report(f, &c, "wrong count", c.d);
    f->faulted += c.k < c.n;
    f->partial += c.k > 0 && c.k < c.n;
    f->overlap += c.overlap;
    f->clears += !c.sa;
    f->same += c.sa && c.s == c.d && c.sa == c.da;
    size_t m = 64;
    size_t lo = c.d > m ? c.d - m : 0, hi = c.d + c.n + m;
    if (hi > c.da->np * pg)
        hi = c.da->np * pg;
    check_window(f, &c, c.da, lo, hi);
    if (c.sa) {
        size_t slo = c.s > m ? c.s - m : 0, shi = c.s + c.n + m;
        if (shi > c.sa->np * pg)
            shi = c.sa->np * pg;
        if (c.sa != c.da || shi <= lo || slo >= hi)
            check_window(f, &c, c.sa, slo, shi);
        else {   /* the parts of the source window outside the destination window */
            if (slo < lo)
                check_window(f, &c, c.sa, slo, lo);
            if (shi > hi)
                check_window(f, &c, c.sa, hi, shi);
        }
    }
    /* The shadow follows what was written. */
    for (size_t p = c.d / pg; c.n && p * pg < c.d + c.n; p++) {
        if (!readable(c.da->st[p]))
            continue;
        size_t x0 = p * pg > c.d ? p * pg : c.d;
        size_t x1 = (p + 1) * pg < c.d + c.n ? (p + 1) * pg : c.d + c.n;
        memcpy(c.da->shadow + x0, c.da->base + x0, x1 - x0);
        f->moved += (long)(x1 - x0);
    }
    if (c.k < c.n || (f->calls & 63) == 0) {
        sigset_t cur;
        CHECK(pthread_sigmask(SIG_SETMASK, NULL, &cur) == 0);
        for (int sig = 1; sig < 32; sig++)
            if (sigismember(&cur, sig) != sigismember(&f->mask, sig))
                report(f, &c, "signal mask changed", (size_t)sig);
    }
}

/* Back to read-write where the arena has holes (before threads are created: their
 * stacks must not land there). */
static void arena_fill_holes(struct fuzz *f, struct arena *a)
{
    for (size_t p = 0; p < a->np; p++) {
        if (a->st[p] != PS_HOLE)
            continue;
        void *q = mmap(a->base + p * pg, pg, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        if (q != a->base + p * pg)
            FAIL("thread %d: a hole of the arena was mapped by someone else (%p)", f->id, q);
        a->st[p] = PS_RW;
        memset(a->shadow + p * pg, 0, pg);
    }
}

static void *fuzz_thread(void *arg)
{
    struct fuzz *f = arg;
    long next = 0;
    if (arg != start_arg)
        pthread_barrier_wait(&start_line);
    while (f->todo-- > 0) {
        if (f->calls >= next) {
            arena_rerand(f, &f->a[below(f, NARENA)]);
            if (below(f, 4) == 0)
                arena_rerand(f, &f->a[below(f, NARENA)]);
            /* Sometimes a few other signals blocked: the mask must come back as is. */
            sigemptyset(&f->mask);
            if (below(f, 2)) {
                sigaddset(&f->mask, SIGUSR1);
                sigaddset(&f->mask, SIGWINCH);
            }
            CHECK(pthread_sigmask(SIG_SETMASK, &f->mask, NULL) == 0);
            next = f->calls + 1 + (long)below(f, 400);
        }
        fuzz_call(f);
    }
    return NULL;
}

static void fuzz(long calls, uint64_t seed)
{
    static struct fuzz fz[NTHREADS];
    arena_pages = (2 * MAXN + pg - 1) / pg + 6;
    CHECK(arena_pages <= sizeof fz[0].a[0].st);
    /* Everything mapped before any thread runs: the holes must stay free. */
    for (int t = 0; t < NTHREADS; t++) {
        fz[t].id = t;
        fz[t].rng = seed * 0x9e3779b97f4a7c15ull + (uint64_t)t * 0xbf58476d1ce4e5b9ull + 1;
        for (int i = 0; i < NARENA; i++)
            arena_init(&fz[t].a[i]);
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    /* Half the calls on one thread, half on four at once. */
    fz[0].todo = calls / 2;
    start_arg = &fz[0];
    fuzz_thread(&fz[0]);
    start_arg = NULL;
    sigset_t none;
    sigemptyset(&none);
    CHECK(pthread_sigmask(SIG_SETMASK, &none, NULL) == 0);
    for (int i = 0; i < NARENA; i++)
        arena_fill_holes(&fz[0], &fz[0].a[i]);
    /* Every thread waits until all exist: no thread stack may land in a hole. */
    CHECK(pthread_barrier_init(&start_line, NULL, NTHREADS) == 0);
    pthread_t th[NTHREADS];
    for (int t = 0; t < NTHREADS; t++)
        fz[t].todo = (calls - calls / 2) / NTHREADS;
    for (int t = 0; t < NTHREADS; t++)
        CHECK(pthread_create(&th[t], NULL, fuzz_thread, &fz[t]) == 0);
    for (int t = 0; t < NTHREADS; t++)
        CHECK(pthread_join(th[t], NULL) == 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    struct fuzz sum = {0};
    for (int t = 0; t < NTHREADS; t++) {
        sum.calls += fz[t].calls;
        sum.faulted += fz[t].faulted;
        sum.partial += fz[t].partial;
        sum.overlap += fz[t].overlap;
        sum.same += fz[t].same;
        sum.clears += fz[t].clears;
        sum.rerand += fz[t].rerand;
        sum.moved += fz[t].moved;
    }
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("[%s] fuzz: %ld calls (%ld faulted, %ld of them part-way; %ld clears, %ld "
           "overlapping, %ld dst == src), %ld page maps, %.1f MB checked-copied, %.1f s: "
           "all passed\n",
           variant_label, sum.calls, sum.faulted, sum.partial, sum.clears, sum.overlap, sum.same,
           sum.rerand, (double)sum.moved / 1e6, s);
}

/* ---- the variant walk ------------------------------------------------------------------ */

static int child_main(const char *mode, long calls, uint64_t seed)
{
    const char *cp = getenv("FASTCOPY_MEMCPY"), *st = getenv("FASTCOPY_MEMSET");
    static char label[96];
    snprintf(label, sizeof label, "memcpy=%s memset=%s", cp ? cp : "auto", st ? st : "auto");
    variant_label = label;
    if (cp && strcmp(fc_selected("memcpy"), cp) != 0)
        FAIL("FASTCOPY_MEMCPY=%s not in effect: %s selected", cp, fc_selected("memcpy"));
    if (st && strcmp(fc_selected("memset"), st) != 0)
        FAIL("FASTCOPY_MEMSET=%s not in effect: %s selected", st, fc_selected("memset"));
    CHECK(fc_user_arm() == 0);
    if (strcmp(mode, "cases") == 0)
        cases();
    else
        fuzz(calls, seed);
    return 0;
}

/* Runs argv0 again with the variant pair forced; 0 when it passed. */
static int run_forced(char *argv0, const char *cpy, const char *set, const char *mode,
                      long calls, uint64_t seed)
{
    char ecpy[64], eset[64], ncalls[32], nseed[32];
    snprintf(ecpy, sizeof ecpy, "FASTCOPY_MEMCPY=%s", cpy);
    snprintf(eset, sizeof eset, "FASTCOPY_MEMSET=%s", set);
    snprintf(ncalls, sizeof ncalls, "%ld", calls);
    snprintf(nseed, sizeof nseed, "%llu", (unsigned long long)seed);
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        putenv(ecpy);
        putenv(eset);
        char *words[40];
        int k = 0;
        /* Cross builds: meson runs us under an emulator; the child needs it too. */
        const char *w = getenv("MESON_EXE_WRAPPER");
        char *copy = w && *w ? strdup(w) : NULL, *save = NULL;
        for (char *t = copy ? strtok_r(copy, " ", &save) : NULL; t && k < 30;
             t = strtok_r(NULL, " ", &save))
            words[k++] = t;
        words[k++] = argv0;
        words[k++] = (char *)"--child";
        words[k++] = (char *)mode;
        words[k++] = ncalls;
        words[k++] = nseed;
        words[k] = NULL;
        execvp(words[0], words);
        perror("exec");
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        CHECK(errno == EINTR);
    if (WIFSIGNALED(status)) {
        fprintf(stderr, "FAIL [memcpy=%s memset=%s]: killed by signal %d (%s)\n", cpy, set,
                WTERMSIG(status), strsignal(WTERMSIG(status)));
        return 1;
    }
    return WEXITSTATUS(status) != 0;
}

int main(int argc, char **argv)
{
    pg = (size_t)sysconf(_SC_PAGESIZE);
    CHECK(pg >= 4096 && pg <= 65536);
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc == 5 && strcmp(argv[1], "--child") == 0)
        return child_main(argv[2], atol(argv[3]), strtoull(argv[4], NULL, 0));

    const char *mode = "fuzz";
    const char *q = getenv("FC_TEST_QUICK");
    long calls = q && *q && strcmp(q, "0") != 0 ? 60000 : 600000;
    uint64_t seed = (uint64_t)time(NULL);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--cases") == 0)
            mode = "cases";
        else if (strcmp(argv[i], "--calls") == 0 && i + 1 < argc)
            calls = atol(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else {
            fprintf(stderr, "usage: %s [--cases] [--calls N] [--seed S]\n", argv[0]);
            return 2;
        }
    }

    const struct fc_variant *v;
    size_t nv = fc_variants(&v);
    const char *cpy[32], *set[32];
    size_t nc = 0, ns = 0;
    for (size_t i = 0; i < nv; i++) {
        if (!v[i].usable)
            continue;
        if (strcmp(v[i].func, "memcpy") == 0 && nc < 32)
            cpy[nc++] = v[i].name;
        else if (strcmp(v[i].func, "memset") == 0 && ns < 32)
            set[ns++] = v[i].name;
    }
    CHECK(nc > 0 && ns > 0);
    size_t runs = nc > ns ? nc : ns;
    if (strcmp(mode, "fuzz") == 0)
        printf("fuzz: seed %llu, %ld calls over %zu variant pairs\n", (unsigned long long)seed,
               calls, runs);
    int failed = 0;
    for (size_t j = 0; j < runs; j++)
        failed += run_forced(argv[0], cpy[j % nc], set[j % ns], mode,
                             calls / (long)runs, seed + j);
    printf("%zu of %zu variant pairs passed\n", runs - (size_t)failed, runs);
    return failed != 0;
}
