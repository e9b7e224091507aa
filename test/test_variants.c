/* test_variants.c - every usable variant of every function, reached through
 * fc_variants() (not only the selected one): sizes, alignments, guard pages,
 * redzones, return values, overlap, the non-temporal and rep-movsb paths.  A
 * variant is skipped only when it is not usable here, and "not usable" is checked
 * against this host's own answer (CPUID, the auxiliary vector) where the test
 * has one (test_variants_reached).
 *
 * FC_TEST_QUICK=1 shrinks the sweeps (valgrind, QEMU).  FC_EXPECT_MEMCPY /
 * FC_EXPECT_MEMMOVE / FC_EXPECT_MEMSET, when set, must name the variant that was
 * selected (used by the QEMU CPU-model matrix). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fastcopy.h"
#include "fc_internal.h"
#include "guard.h"

#if defined(__aarch64__) || defined(__riscv)
#include <sys/auxv.h>
#endif

static int quick;
#define RZ 64 /* redzone bytes on each side */

struct vcase {
    const struct fc_variant *v;
};

static unsigned char pattern_byte(size_t i, unsigned seed)
{
    uint32_t x = (uint32_t)i * 2654435761u + seed * 40503u;
    return (unsigned char)(x >> 24 ^ x >> 11);
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = pattern_byte(i, seed);
}

/* Reference memmove, byte by byte through a temporary. */
static void ref_move(unsigned char *buf, size_t dst, size_t src, size_t n)
{
    unsigned char *tmp = malloc(n ? n : 1);
    for (size_t i = 0; i < n; i++)
        tmp[i] = buf[src + i];
    for (size_t i = 0; i < n; i++)
        buf[dst + i] = tmp[i];
    free(tmp);
}

static void check_bytes(const unsigned char *got, const unsigned char *want, size_t n,
                        const char *what, const char *name, size_t size, size_t a, size_t b)
{
    if (memcmp(got, want, n) == 0)
        return;
    size_t i = 0;
    while (got[i] == want[i])
        i++;
    fail_msg("%s %s: size %zu offsets %zu/%zu: byte %zu is 0x%02x, want 0x%02x", name, what,
             size, a, b, i, got[i], want[i]);
}

/* ---- copies: sizes x alignments with redzones ------------------------------------ */

static void copy_grid(const struct fc_variant *v, size_t size, size_t so, size_t dof,
                      unsigned char *src, unsigned char *dst, unsigned char *want)
{
    fc_copy_fn fn = (fc_copy_fn)v->fn;
    size_t span = RZ + 64 + size + RZ;
    fill(src, span, (unsigned)size);
    memset(dst, 0xA5, span);
    memcpy(want, dst, span);
    memcpy(want + RZ + dof, src + RZ + so, size);
    void *r = fn(dst + RZ + dof, src + RZ + so, size);
    if (r != dst + RZ + dof)
        fail_msg("%s %s: size %zu returned %p, want %p", v->func, v->name, size, r,
                 (void *)(dst + RZ + dof));
    check_bytes(dst, want, span, "copy", v->name, size, so, dof);
}

static void test_copy_sizes(void **state)
{
    const struct fc_variant *v = ((struct vcase *)*state)->v;
    size_t maxn = quick ? 300 : 1024;
    size_t span = RZ + 64 + 4096 + RZ;
    unsigned char *src = malloc(span), *dst = malloc(span), *want = malloc(span);

    /* Every size; per size every src offset 0..63 with a dst offset that walks
     * 0..63 as well (so each size meets every offset of both). */
    for (size_t n = 0; n <= maxn; n++)
        for (size_t so = 0; so < 64; so += quick ? 7 : 1)
            copy_grid(v, n, so, (so * 37 + n) % 64, src, dst, want);
    /* The full 64 x 64 offset grid for sizes at the size-class edges. */
    static const size_t edges[] = {1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65,
                                   127, 128, 129, 255, 256, 257, 511, 512, 513, 1023, 1024, 4096};
    for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++)
        for (size_t so = 0; so < 64; so += quick ? 5 : 1)
            for (size_t dof = 0; dof < 64; dof += quick ? 3 : 1)
                copy_grid(v, edges[e], so, dof, src, dst, want);
    free(src);
    free(dst);
    free(want);
}

/* Largest size of the "large" sweeps: past the non-temporal threshold where the
 * architecture has one (x86_64), else 8 MiB. */
static size_t large_top(void)
{
    size_t t = fc_tun.nt_start * 2 + 4096;
    return t > ((size_t)8 << 20) ? t : ((size_t)8 << 20);
}

/* Powers of two +-1 up to past the non-temporal threshold, a few alignments. */
static void test_copy_large(void **state)
{
    const struct fc_variant *v = ((struct vcase *)*state)->v;
    fc_copy_fn fn = (fc_copy_fn)v->fn;
    size_t top = quick ? ((size_t)1 << 20) : large_top();
    unsigned char *src = malloc(top + 128), *dst = malloc(top + 128);
    fill(src, top + 128, 7);
    for (size_t p = 2048; p / 2 <= top / 2 && p <= top; p *= 2)
        for (int d = -1; d <= 1; d++) {
            size_t n = p + (size_t)d, so = (p / 2048) % 64, dof = (p / 1024 + 3) % 64;
            if (n > top) /* dst + dof + n + redzone must stay inside dst[top + 128] */
                continue;
            memset(dst, 0x5A, n + 128);
            if (fn(dst + dof, src + so, n) != dst + dof)
                fail_msg("%s %s: bad return at size %zu", v->func, v->name, n);
            check_bytes(dst + dof, src + so, n, "large copy", v->name, n, so, dof);
            for (size_t i = 0; i < dof; i++)
                assert_int_equal(dst[i], 0x5A);
            for (size_t i = dof + n; i < n + 128; i++)
                assert_int_equal(dst[i], 0x5A);
        }
    free(src);
    free(dst);
}

/* Lower the thresholds so the non-temporal and rep movsb paths run at modest
 * sizes (also under valgrind and QEMU), then restore them. */
static void test_copy_thresholds(void **state)
{
    const struct fc_variant *v = ((struct vcase *)*state)->v;
    fc_copy_fn fn = (fc_copy_fn)v->fn;
    struct fc_tunables saved = fc_tun;
    size_t top = 70000;
    unsigned char *src = malloc(top + 256), *dst = malloc(top + 256);
    fc_tun.nt_start = 16384;
    fc_tun.rep_movsb_start = 1024;
    fc_tun.rep_movsb_stop = 32768;
    fc_tun.rep_stosb_start = 1024;
    fill(src, top + 256, 3);
    for (size_t n = 900; n < top; n = n * 3 / 2 + 1)
        for (size_t so = 0; so < 64; so += 13)
            for (size_t dof = 0; dof < 64; dof += 11) {
                memset(dst, 0x11, n + 128);
                fn(dst + dof, src + so, n);
                check_bytes(dst + dof, src + so, n, "copy (low thresholds)", v->name, n, so, dof);
                for (size_t i = dof + n; i < n + 128; i++)
                    assert_int_equal(dst[i], 0x11);
            }
    fc_tun = saved;
    free(src);
    free(dst);
}

/* Buffers flush against PROT_NONE pages: any over-read or over-write faults. */
static void test_copy_guard(void **state)
{
    const struct fc_variant *v = ((struct vcase *)*state)->v;
    fc_copy_fn fn = (fc_copy_fn)v->fn;
    struct guarded gs, gd;
    size_t maxn = 5000;
    assert_int_equal(guarded_alloc(&gs, maxn), 0);
    assert_int_equal(guarded_alloc(&gd, maxn), 0);
    fill(gs.body, gs.body_len, 9);
    for (size_t n = 0; n <= maxn; n += (n < 300 ? 1 : quick ? 397 : 61)) {
        /* src and dst ending at the upper guard */
        unsigned char *s = guarded_tail(&gs, n), *d = guarded_tail(&gd, n);
        fn(d, s, n);
        check_bytes(d, s, n, "guard tail", v->name, n, 0, 0);
        /* starting at the lower guard */
        fn(gd.body, gs.body, n);
        check_bytes(gd.body, gs.body, n, "guard head", v->name, n, 0, 0);
        /* mixed */
        fn(gd.body, s, n);
        check_bytes(gd.body, s, n, "guard mixed", v->name, n, 0, 0);
        fn(d, gs.body, n);
        check_bytes(d, gs.body, n, "guard mixed", v->name, n, 0, 0);
    }
    /* n == 0 dereferences nothing. */
    fn(NULL, NULL, 0);
    fn(gd.map, gs.map, 0); /* PROT_NONE pages */
    guarded_free(&gs);
    guarded_free(&gd);
}

/* Overlap: distances +-1..+-512 and around +-4096; memcpy variants must give
 * memmove's result too. */
static void test_copy_overlap(void **state)
{
    const struct fc_variant *v = ((struct vcase *)*state)->v;
    fc_copy_fn fn = (fc_copy_fn)v->fn;
    static const size_t sizes[] = {0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100,
                                   127, 128, 129, 200, 255, 256, 257, 300, 511, 512, 513, 640,
                                   768, 769, 777, 1023, 1024, 1025, 2049, 4100, 10000, 70001};
    size_t base = 8192, cap = base * 2 + 80000;
    unsigned char *buf = malloc(cap), *want = malloc(cap);
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        for (long dist = -4200; dist <= 4200; dist++) {
            long a = dist < 0 ? -dist : dist;
            if (a == 0 || (a > 512 && (a < 3836 || a > 3846) && (a < 4096 - 40 || a > 4096 + 40)))
                continue;
            if (quick && a > 16 && a % 31 && (a < 4090 || a > 4102))
                continue;
            size_t src = base + (size_t)(k * 7 % 64), dst = (size_t)((long)src + dist);
            /* Only the touched window (plus redzones) is filled and compared. */
            size_t lo = (src < dst ? src : dst) - RZ, hi = (src > dst ? src : dst) + n + RZ;
            fill(buf + lo, hi - lo, (unsigned)(n + (size_t)a));
            memcpy(want + lo, buf + lo, hi - lo);
            ref_move(want, dst, src, n);
            void *r = fn(buf + dst, buf + src, n);
            if (r != buf + dst)
                fail_msg("%s %s: overlap return value wrong", v->func, v->name);
            if (memcmp(buf + lo, want + lo, hi - lo) != 0)
                fail_msg("%s %s: overlap size %zu distance %ld wrong", v->func, v->name, n, dist);
        }
    }
    free(buf);
    free(want);
}

/* ---- memset ----------------------------------------------------------------------- */

static void set_sizes(void **state);
static void set_page_end(void **state);

/* The avx512 and avx512_1branch memsets have two forms below 64 bytes
 * (fc_tun.memset_masked_max 0 or 64, chosen by the policy per CPU): every memset
 * test runs under both. */
static void under_both_small_forms(void (*fn)(void **), void **state)
{
    size_t saved = fc_tun.memset_masked_max;
    for (size_t m = 0; m <= 64; m += 64) {
        fc_tun.memset_masked_max = m;
        fn(state);
    }
    fc_tun.memset_masked_max = saved;
}

static void test_set_sizes(void **state)
{
    under_both_small_forms(set_sizes, state);
}

static void test_set_page_end(void **state)
{
    under_both_small_forms(set_page_end, state);
}

static void set_sizes(void **state)
{
    const struct fc_variant *v = ((struct vcase *)*state)->v;
    fc_set_fn fn = (fc_set_fn)v->fn;
    static const int values[] = {0, 0xff, 0x1a5, -1, 0x37, 256};
    size_t maxn = quick ? 300 : 1024;
    size_t span = RZ + 64 + 4096 + RZ;
    unsigned char *buf = malloc(span), *want = malloc(span);
    for (size_t vi = 0; vi < sizeof values / sizeof values[0]; vi++)
        for (size_t n = 0; n <= maxn + 3072 * (vi == 0); n += (n < maxn ? 1 : 509))
            for (size_t off = 0; off < 64; off += (quick || vi > 1) ? 9 : 1) {
                int c = values[vi];
                fill(buf, span, (unsigned)n);
                memcpy(want, buf, span);
                for (size_t i = 0; i < n; i++)
                    want[RZ + off + i] = (unsigned char)c;
                void *r = fn(buf + RZ + off, c, n);
                if (r != buf + RZ + off)
                    fail_msg("memset %s: bad return at size %zu", v->name, n);
                check_bytes(buf, want, span, "memset", v->name, n, off, (size_t)c);
            }
    free(buf);
    free(want);
}

static void test_set_large_and_guard(void **state)
{
    const struct fc_variant *v = ((struct vcase *)*state)->v;
    fc_set_fn fn = (fc_set_fn)v->fn;
    struct fc_tunables saved = fc_tun;
    size_t top = quick ? ((size_t)1 << 20) : large_top();
    /* pass 1 below goes to 70000 bytes whatever top is */
    unsigned char *buf = malloc((top > 70000 ? top : 70000) + 128);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) { /* non-temporal and rep stosb paths at small sizes */
            fc_tun.nt_start = 16384;
            fc_tun.rep_stosb_start = 1024; /* rep stosb in [1024, 4096) */
            fc_tun.rep_stosb_stop = 4096;       /* the loop in [4096, 8192) */
            fc_tun.rep_stosb_high_start = 8192;     /* rep stosb in [8192, 16384) */
            top = 70000;
        }
        for (size_t p = 1024; p <= top; p = p * 2 + (pass ? 333 : 0))
            for (int d = -1; d <= 1; d++) {
                size_t n = p + (size_t)d, off = p % 61;
                if (n + off + 64 > top + 128)
                    continue;
                memset(buf, 0x77, n + off + 64);
                fn(buf + off, 0x1c3, n);
                for (size_t i = 0; i < off; i++)
                    assert_int_equal(buf[i], 0x77);
                for (size_t i = off; i < off + n; i++)
                    if (buf[i] != 0xc3)
                        fail_msg("memset %s: size %zu byte %zu = 0x%02x", v->name, n, i - off, buf[i]);
                for (size_t i = off + n; i < n + off + 64; i++)
                    assert_int_equal(buf[i], 0x77);
            }
    }
    fc_tun = saved;
    free(buf);

    struct guarded g;
    assert_int_equal(guarded_alloc(&g, 5000), 0);
    for (size_t n = 0; n <= 5000; n += (n < 300 ? 1 : 97)) {
        unsigned char *t = guarded_tail(&g, n);
        fn(t, 0xee, n);
        for (size_t i = 0; i < n; i++)
            assert_int_equal(t[i], 0xee);
        fn(g.body, 0x11, n);
        for (size_t i = 0; i < n; i++)
            assert_int_equal(g.body[i], 0x11);
    }
    fn(g.map, 0, 0);
    fn(NULL, 0, 0);
    guarded_free(&g);
}

#if defined(__x86_64__)
/* fc_x86_memset_adapt (memset_avx512.S), laid out in x86_64/memset_adapt.h. */
#include "x86_64/memset_adapt.h"
extern uint32_t fc_x86_memset_adapt[] FC_HIDDEN;
#define ADAPT_COST(b, path) fc_x86_memset_adapt[FC_ADAPT_COST / 4 + 2 * (b) + (path)]
#endif

/* The avx512 memset's adaptive window (memset_adaptive_start/stop), on any CPU
 * that runs the kernel: with the choice forced to each path by the costs, then
 * left to measure, every size 1025 B..1 MiB stays byte-exact, inside its bounds,
 * and returns dst; the timed calls leave a cost for both paths of each size
 * class they ran (the one chosen and the one explored).  Other variants ignore
 * the window and must give the same bytes. */
#if defined(__x86_64__)
static void test_set_adaptive(void **state)
{
    const struct fc_variant *v = ((struct vcase *)*state)->v;
    fc_set_fn fn = (fc_set_fn)v->fn;
    struct fc_tunables saved = fc_tun;
    fc_tun.memset_adaptive_start = 1025;
    fc_tun.memset_adaptive_stop = (size_t)1 << 20;
    fc_tun.nt_start = FC_TUN_MAX;
    size_t top = (size_t)1 << 20, calls = quick ? 200 : 600;
    unsigned char *buf = malloc(top + 192);
    char err[160] = ""; /* the first problem; reported after fc_tun is restored */
    for (int mode = 0; mode < 3 && !err[0]; mode++) { /* forced vector, forced rep stosb, measured */
        for (int b = 0; b < 64; b++) {
            ADAPT_COST(b, 0) = mode == 2 ? 0 : mode == 0 ? 1 : 2;
            ADAPT_COST(b, 1) = mode == 2 ? 0 : mode == 0 ? 2 : 1;
        }
        for (size_t k = 0; k < calls && !err[0]; k++) {
            size_t n = 1025 + (k * 7919 * (k % 5 + 1)) % (top - 1025), off = k % 64, bad = SIZE_MAX;
            if (k % 2 == 0)
                n = 4096 + k % 4 / 2;
            int c = (int)(k * 37 + (size_t)mode);
            memset(buf, 0x5a, n + off + 128);
            void *r = fn(buf + off, c, n);
            for (size_t i = 0; i < off + n + 128 && bad == SIZE_MAX; i++)
                if (buf[i] != (i < off || i >= off + n ? 0x5a : (unsigned char)c))
                    bad = i;
            if (r != buf + off || bad != SIZE_MAX)
                snprintf(err, sizeof err, "memset %s: size %zu at offset %zu, mode %d: %s %zd",
                         v->name, n, off, mode, r != buf + off ? "bad return" : "wrong byte at",
                         (ptrdiff_t)bad - (ptrdiff_t)off);
        }
        if (!err[0] && mode == 2 && !quick &&
            (!strcmp(v->name, "avx512") || !strcmp(v->name, "avx512_1branch")))
            /* 4096-4097 B took every other call, log2 12: timed once in 64 of them
             * (~5 times); the first timed call measures the vector loop, which
             * makes rep stosb's cost (still 0) the lower, so the next measures it */
            for (int path = 0; path < 2; path++)
                if (!ADAPT_COST(12, path))
                    snprintf(err, sizeof err, "memset %s: no cost measured for path %d "
                             "at 4 KiB", v->name, path);
    }
    fc_tun = saved;
    free(buf);
    if (err[0])
        fail_msg("%s", err);
}
#endif

/* ---- near a page end ---------------------------------------------------------------
 * Kernels with masked small paths choose other code when a masked access would reach
 * into the next page (here a guard page): every start in the last 160 bytes of the
 * page, every size that fits, for dst, src or both there; the page's other bytes are
 * the redzone. */
static void test_copy_page_end(void **state)
{
    const struct fc_variant *v = ((struct vcase *)*state)->v;
    fc_copy_fn fn = (fc_copy_fn)v->fn;
    struct guarded gs, gd;
    assert_int_equal(guarded_alloc(&gs, 4096), 0);
    assert_int_equal(guarded_alloc(&gd, 4096), 0);
    unsigned char *src = gs.body + gs.body_len - 4096, *dst = gd.body + gd.body_len - 4096;
    unsigned char *want = malloc(4096);
    fill(src, 4096, 7);
    for (size_t off = 4096 - 160; off < 4096; off++)
        for (size_t n = 0; off + n <= 4096 && n <= 130; n += quick && n > 8 ? 3 : 1)
            for (int where = 0; where < 5; where++) {
                /* 0: both near the end; 1: dst only (src at offset 100); 2: src
                 * only; 3, 4: the other one at its page's start (a guard page
                 * before it) */
                size_t other = where < 3 ? 100 : 0;
                size_t so = where == 1 || where == 3 ? other : off;
                size_t dof = where == 2 || where == 4 ? other : off;
                memset(dst, 0x5a, 4096);
                memset(want, 0x5a, 4096);
                memcpy(want + dof, src + so, n);
                if (fn(dst + dof, src + so, n) != dst + dof)
                    fail_msg("%s %s: page end: wrong return value", v->func, v->name);
                check_bytes(dst, want, 4096, "page end", v->name, n, so, dof);
            }
    free(want);
    guarded_free(&gs);
    guarded_free(&gd);
}

static void set_page_end(void **state)
{
    const struct fc_variant *v = ((struct vcase *)*state)->v;
    fc_set_fn fn = (fc_set_fn)v->fn;
    struct guarded g;
    assert_int_equal(guarded_alloc(&g, 4096), 0);
    unsigned char *page = g.body + g.body_len - 4096;
    for (size_t off = 4096 - 160; off < 4096; off++)
        for (size_t n = 0; off + n <= 4096 && n <= 260; n++) {
            memset(page, 0x5a, 4096);
            if (fn(page + off, 0x3c, n) != page + off)
                fail_msg("memset %s: page end: wrong return value", v->name);
            for (size_t i = 0; i < 4096; i++)
                if (page[i] != (i >= off && i < off + n ? 0x3c : 0x5a))
                    fail_msg("memset %s: page end: offset %zu size %zu: byte %zu is 0x%02x",
                             v->name, off, n, i, page[i]);
        }
    guarded_free(&g);
}

/* ---- the list itself -------------------------------------------------------------- */

static void test_variant_list(void **state)
{
    (void)state;
    const struct fc_variant *v;
    size_t n = fc_variants(&v);
    int seen[3] = {0, 0, 0}, generic[3] = {0, 0, 0};
    assert_true(n >= 3);
    for (size_t i = 0; i < n; i++) {
        int f = !strcmp(v[i].func, "memcpy") ? 0 : !strcmp(v[i].func, "memmove") ? 1
              : !strcmp(v[i].func, "memset") ? 2 : -1;
        assert_true(f >= 0);
        assert_non_null(v[i].fn);
        assert_true(strlen(v[i].name) > 0);
        /* the names now, never a former one (libfastcopy(7), FORMER NAMES) */
        assert_string_not_equal(v[i].name, "avx2amd");
        assert_string_not_equal(v[i].name, "avx512amd");
        seen[f]++;
        if (!strcmp(v[i].name, "generic")) {
            generic[f] = 1;
            assert_true(v[i].usable);
        }
    }
    for (int f = 0; f < 3; f++) {
        assert_true(seen[f] >= 1);
        assert_true(generic[f]);
        const char *sel = fc_selected(fc_func_name(f));
        assert_non_null(sel);
        int found = 0;
        for (size_t i = 0; i < n; i++)
            if (!strcmp(v[i].func, fc_func_name(f)) && !strcmp(v[i].name, sel)) {
                found = 1;
                assert_true(v[i].usable);
            }
        assert_true(found);
        char env[32];
        snprintf(env, sizeof env, "FC_EXPECT_%s", f == 0 ? "MEMCPY" : f == 1 ? "MEMMOVE" : "MEMSET");
        const char *want = getenv(env);
        if (want && *want)
            assert_string_equal(sel, want);
    }
    assert_null(fc_selected("strcpy"));
    assert_null(fc_selected(NULL));
#if defined(__x86_64__)
    /* the two renamed variants, listed under their names now */
    int keepupper = 0, onebranch = 0;
    for (size_t i = 0; i < n; i++) {
        keepupper += !strcmp(v[i].name, "avx2_keepupper");
        onebranch += !strcmp(v[i].name, "avx512_1branch") && !strcmp(v[i].func, "memset");
    }
    assert_int_equal(keepupper, 3);
    assert_int_equal(onebranch, 1);
#endif
}

static void test_public_entry_points(void **state)
{
    (void)state;
    unsigned char a[300], b[300];
    fill(a, sizeof a, 1);
    assert_ptr_equal(fc_memcpy(b, a, 300), b);
    assert_memory_equal(a, b, 300);
    assert_ptr_equal(fc_memset(b, 0x1ff, 300), b);
    for (int i = 0; i < 300; i++)
        assert_int_equal(b[i], 0xff);
    fill(a, sizeof a, 2);
    memcpy(b, a, 300);
    assert_ptr_equal(fc_memmove(a + 1, a, 299), a + 1);
    assert_memory_equal(a + 1, b, 299);
}

/* Whether this host can run a variant, asked independently of the library's
 * variant table: 1 yes, 0 no, -1 no opinion (the test then trusts usable). */
static int host_can_run(const char *name)
{
    if (!strcmp(name, "generic"))
        return 1;
#if defined(__x86_64__)
    __builtin_cpu_init();
    int avx2 = __builtin_cpu_supports("avx2"), erms;
    unsigned a, b, c, d;
    __asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(7), "c"(0));
    erms = (b >> 9) & 1;
    if (!strcmp(name, "sse2"))
        return __builtin_cpu_supports("sse2") != 0;
    if (!strcmp(name, "avx2") || !strcmp(name, "avx2_keepupper"))
        return avx2 != 0;
    if (!strcmp(name, "avx512") || !strcmp(name, "avx512_1branch"))
        return avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("bmi2");
    if (!strcmp(name, "erms"))
        return avx2 && erms;
#elif defined(__aarch64__)
    if (!strcmp(name, "ldp_stp"))
        return 1;
    if (!strcmp(name, "simd"))
        return (getauxval(AT_HWCAP) & (1ul << 1)) != 0;   /* HWCAP_ASIMD */
    if (!strcmp(name, "sve"))
        return (getauxval(AT_HWCAP) & (1ul << 22)) != 0;  /* HWCAP_SVE */
    if (!strcmp(name, "mops"))
        return (getauxval(AT_HWCAP2) & (1ull << 43)) != 0; /* HWCAP2_MOPS */
#elif defined(__riscv)
    if (!strcmp(name, "word"))
        return 1;
    if (!strcmp(name, "rvv")) /* (nothing here switches V off with prctl) */
        return (getauxval(AT_HWCAP) & (1ul << ('V' - 'A'))) != 0;
#endif
    return -1;
}

static size_t reached[256]; /* test cases registered per fc_variants() entry */

/* Every variant the host can run is one the suite runs, and only those are
 * skipped: a requirement that is wrong for this host fails here, not silently. */
static void test_variants_reached(void **state)
{
    (void)state;
    const struct fc_variant *v;
    size_t n = fc_variants(&v);
    assert_true(n <= sizeof reached / sizeof reached[0]);
    for (size_t i = 0; i < n; i++) {
        int host = host_can_run(v[i].name);
        if (host >= 0 && host != v[i].usable)
            fail_msg("%s/%s: the library says %susable, this host says it can%s run it",
                     v[i].func, v[i].name, v[i].usable ? "" : "not ", host ? "" : "not");
        if (v[i].usable != (reached[i] > 0))
            fail_msg("%s/%s: usable %d but %zu test cases", v[i].func, v[i].name, v[i].usable,
                     reached[i]);
    }
}

int main(void)
{
    const struct fc_variant *v;
    size_t n = fc_variants(&v), k = 0, skipped = 0;
    quick = getenv("FC_TEST_QUICK") && *getenv("FC_TEST_QUICK") == '1';
    struct CMUnitTest *tests = calloc(n * 8 + 3, sizeof *tests);
    struct vcase *cases = calloc(n, sizeof *cases);
    char (*names)[96] = calloc(n * 8, sizeof *names);

    tests[k++] = (struct CMUnitTest)cmocka_unit_test(test_variant_list);
    tests[k++] = (struct CMUnitTest)cmocka_unit_test(test_public_entry_points);
    tests[k++] = (struct CMUnitTest)cmocka_unit_test(test_variants_reached);
    for (size_t i = 0; i < n; i++) {
        if (!v[i].usable) {
            printf("# skipping %s/%s: not usable on this CPU\n", v[i].func, v[i].name);
            skipped++;
            continue;
        }
        cases[i].v = &v[i];
        static const struct { const char *what; CMUnitTestFunction fn; int set; } kinds[] = {
            {"sizes", test_copy_sizes, 0},       {"large", test_copy_large, 0},
            {"thresholds", test_copy_thresholds, 0}, {"guard", test_copy_guard, 0},
            {"overlap", test_copy_overlap, 0},   {"sizes", test_set_sizes, 1},
            {"large+guard", test_set_large_and_guard, 1},
#if defined(__x86_64__) /* the window exists there only (memset_avx512.S) */
            {"adaptive", test_set_adaptive, 1},
#endif
            {"page-end", test_copy_page_end, 0}, {"page-end", test_set_page_end, 1},
        };
        int is_set = !strcmp(v[i].func, "memset");
        for (size_t j = 0; j < sizeof kinds / sizeof kinds[0]; j++) {
            if (kinds[j].set != is_set)
                continue;
            char *nm = names[k];
            snprintf(nm, sizeof names[0], "%s/%s/%s", v[i].func, v[i].name, kinds[j].what);
            tests[k].name = nm;
            tests[k].test_func = kinds[j].fn;
            tests[k].initial_state = &cases[i];
            k++;
            if (i < sizeof reached / sizeof reached[0])
                reached[i]++;
        }
    }
    (void)skipped;
    return _cmocka_run_group_tests("variants", tests, k, NULL, NULL);
}
