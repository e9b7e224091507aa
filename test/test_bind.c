/* test_bind.c - binding without GNU IFUNC (musl builds, FC_NO_IFUNC): every name
 * starts at a resolving stub; the first call of any name makes the one decision,
 * fills every slot and flag, and continues to the chosen variant.
 *
 * Linked with libfastcopy.a, so this program's memcpy/memmove/memset (and the C
 * library's calls to them) are the library's.  Each test puts every slot back at
 * its stub first (fc_bind_reset_for_tests), then makes the first calls:
 *   - from 8 threads released at once, every exported name and the fc_* API;
 *   - from a signal handler that interrupts the program before any call;
 * and checks the results byte for byte, that each slot now holds the selected
 * variant's function (as fc_variants lists it) and that the x86_64 limit words
 * say whether the exported names run the avx512 kernel inline (the bound of its
 * ENTRY_TEST, src/x86_64/kernel_entry.h) or go through the slot (0).  On aarch64 it
 * also runs every memset variant with the DC ZVA tunables as a racing caller may
 * read them before the decision is visible to it (zero, or half copied: see
 * "Memory ordering" in src/dispatch.h). */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fastcopy.h"
#include "dispatch.h"
#if defined(__x86_64__)
#include "fc_dropin_config.h"
#endif

extern void *(*fc_slot_memcpy)(void *, const void *, size_t);
extern void *(*fc_slot_memmove)(void *, const void *, size_t);
extern void *(*fc_slot_memset)(void *, int, size_t);
extern void *(*fc_slot_mempcpy)(void *, const void *, size_t);
extern void (*fc_slot_bzero)(void *, size_t);
extern void *(*fc_slot_fc_memcpy)(void *, const void *, size_t);
extern void *(*fc_slot_fc_memset)(void *, int, size_t);
extern void fc_stub_memcpy(void), fc_stub_memset(void), fc_stub_fc_memcpy(void);
#if defined(__x86_64__)
extern size_t fc_dropin_limit_memcpy, fc_dropin_limit_memmove, fc_dropin_limit_memset;
#endif

/* Called through volatile pointers: the compiler must not expand them inline. */
static void *(*volatile p_memcpy)(void *, const void *, size_t) = memcpy;
static void *(*volatile p_memmove)(void *, const void *, size_t) = memmove;
static void *(*volatile p_memset)(void *, int, size_t) = memset;
static void *(*volatile p_mempcpy)(void *, const void *, size_t) = mempcpy;
static void (*volatile p_bzero)(void *, size_t) = bzero;

static void *selected_fn(const char *func)
{
    const struct fc_variant *v;
    size_t n = fc_variants(&v);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(v[i].func, func) && !strcmp(v[i].name, fc_selected(func)))
            return (void *)v[i].fn;
    return NULL;
}

static void check_bound(void)
{
    assert_ptr_equal((void *)fc_slot_memcpy, selected_fn("memcpy"));
    assert_ptr_equal((void *)fc_slot_memmove, selected_fn("memmove"));
    assert_ptr_equal((void *)fc_slot_memset, selected_fn("memset"));
    assert_ptr_equal((void *)fc_slot_fc_memcpy, selected_fn("memcpy"));
    assert_ptr_equal((void *)fc_slot_fc_memset, selected_fn("memset"));
    assert_true((void *)fc_slot_mempcpy != (void *)fc_stub_memcpy);
#if defined(__x86_64__)
    /* the bound of the drop-in kernel's first test (meson option dropin_body:
     * avx512's page-end bound 4096 and memset_masked_max + 1, the latter also
     * avx512_1branch's, whose copies are avx512's; the avx2 kernels' 65), or 0 when
     * another variant is selected: through the slot */
    const char *body = FC_DROPIN_COPY_BODY_NAME, *set_body = FC_DROPIN_SET_BODY_NAME;
#if FC_DROPIN_BODY_AVX2
    size_t copy_bound = 65, set_bound = 65;
#else
    size_t copy_bound = 4096, set_bound = fc_tun.memset_masked_max + 1;
#endif
    assert_int_equal(fc_dropin_limit_memcpy, strcmp(fc_selected("memcpy"), body) ? 0 : copy_bound);
    assert_int_equal(fc_dropin_limit_memmove, strcmp(fc_selected("memmove"), body) ? 0 : copy_bound);
    assert_int_equal(fc_dropin_limit_memset,
                     strcmp(fc_selected("memset"), set_body) ? 0 : set_bound);
#endif
}

static void check_unbound(void)
{
    assert_ptr_equal((void *)fc_slot_memcpy, (void *)fc_stub_memcpy);
    assert_ptr_equal((void *)fc_slot_memset, (void *)fc_stub_memset);
    assert_ptr_equal((void *)fc_slot_fc_memcpy, (void *)fc_stub_fc_memcpy);
#if defined(__x86_64__)
    assert_int_equal(fc_dropin_limit_memcpy, 0);
    assert_int_equal(fc_dropin_limit_memset, 0);
#endif
}

/* One round of every name on buffers of this thread; 0 when every result is right. */
static int exercise(unsigned seed)
{
    unsigned char a[700], b[700], w[700];
    int bad = 0;
    for (int i = 0; i < 700; i++)
        a[i] = (unsigned char)(i * 7 + seed), b[i] = 0x5a;
    size_t n = 100 + seed % 500;
    bad |= p_memcpy(b, a, n) != b;
    bad |= p_memcpy(w, a, n) != w;           /* the second call: bound already */
    for (size_t i = 0; i < n; i++)
        bad |= b[i] != a[i] || w[i] != a[i];
    bad |= b[n] != 0x5a;
    bad |= p_memmove(b + 3, b, n) != b + 3;  /* overlapping: b[3..] = old b[0..] */
    for (size_t i = 0; i < n; i++)
        bad |= b[3 + i] != a[i];
    bad |= p_memset(b, 0xc3, n) != b;
    for (size_t i = 0; i < n; i++)
        bad |= b[i] != 0xc3;
    bad |= p_mempcpy(b, a, 33) != b + 33;
    bad |= memcmp(b, a, 33) != 0;
    p_bzero(b, 40);
    for (size_t i = 0; i < 40; i++)
        bad |= b[i] != 0;
    bad |= fc_memcpy(w, a, 333) != w || memcmp(w, a, 333) != 0;
    bad |= fc_memmove(w + 1, w, 300) != w + 1 || memcmp(w + 1, a, 300) != 0;
    bad |= fc_memset(w, 1, 200) != w || w[0] != 1 || w[199] != 1 || w[200] != a[199];
    return bad;
}

#define NTHREADS 8
static pthread_barrier_t start;

static void *racer(void *arg)
{
    unsigned seed = (unsigned)(uintptr_t)arg;
    pthread_barrier_wait(&start);
    /* half the threads start with an exported name, half with the API */
    if (seed & 1) {
        unsigned char x[64], y[64];
        for (int i = 0; i < 64; i++)
            x[i] = (unsigned char)i;
        if (fc_memcpy(y, x, 64) != y || y[63] != 63)
            return (void *)1;
    }
    int bad = 0;
    for (int r = 0; r < 50; r++)
        bad |= exercise(seed * 31 + (unsigned)r);
    return (void *)(uintptr_t)bad;
}

static void test_first_calls_from_threads(void **s)
{
    (void)s;
    for (int round = 0; round < 20; round++) {
        pthread_t t[NTHREADS];
        fc_bind_reset_for_tests();
        check_unbound();
        assert_int_equal(pthread_barrier_init(&start, NULL, NTHREADS), 0);
        for (uintptr_t i = 0; i < NTHREADS; i++)
            assert_int_equal(pthread_create(&t[i], NULL, racer, (void *)(i + round)), 0);
        for (int i = 0; i < NTHREADS; i++) {
            void *r;
            assert_int_equal(pthread_join(t[i], &r), 0);
            assert_ptr_equal(r, NULL);
        }
        pthread_barrier_destroy(&start);
        check_bound();
    }
}

static volatile sig_atomic_t handler_bad = -1;

static void on_alarm(int sig)
{
    (void)sig;
    handler_bad = exercise(7);
}

static void test_first_call_from_signal_handler(void **s)
{
    (void)s;
    struct sigaction sa;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    sa.sa_handler = on_alarm;
    assert_int_equal(sigaction(SIGUSR1, &sa, NULL), 0);
    fc_bind_reset_for_tests();
    check_unbound();
    /* the handler makes the first calls (the kill system call is no memcpy) */
    kill(getpid(), SIGUSR1);
    assert_int_equal(handler_bad, 0);
    check_bound();
    assert_int_equal(exercise(9), 0);
}

/* The constructor bound everything before main, to the variants FC_EXPECT_MEMCPY
 * & co. name when set (the QEMU model setups of test/meson.build: the decision
 * through the stubs' own probe arguments picks what the model must get). */
static void test_bound_before_main(void **s)
{
    (void)s;
    static const char *const funcs[] = {"memcpy", "memmove", "memset"};
    static const char *const vars[] = {"FC_EXPECT_MEMCPY", "FC_EXPECT_MEMMOVE",
                                       "FC_EXPECT_MEMSET"};
    check_bound();
    for (int f = 0; f < 3; f++) {
        const char *want = getenv(vars[f]);
        if (want && *want)
            assert_string_equal(fc_selected(funcs[f]), want);
    }
    assert_int_equal(exercise(3), 0);
}

#if defined(__aarch64__)
/* A caller that finds a filled slot with its plain load may run the memset
 * kernel with fc_tun's DC ZVA fields as they were before the decision (zero) or
 * half copied (copy_bytes writes byte by byte): every combination of each
 * field's zero and decided bytes must give a correct memset, for every usable
 * memset variant (the claim of "Memory ordering" in src/dispatch.h). */
static size_t byte_mix(size_t v, unsigned mask)
{
    size_t r = 0;
    for (unsigned b = 0; b < sizeof v; b++)
        if (mask >> b & 1)
            r |= v & ((size_t)0xff << (8 * b));
    return r;
}

static int check_memset(void *(*set)(void *, int, size_t), unsigned char *buf, size_t off,
                        size_t n, int c)
{
    size_t total = off + n + 64;
    for (size_t i = 0; i < total; i++)
        buf[i] = 0xee;
    if (set(buf + off, c, n) != buf + off)
        return 1;
    for (size_t i = 0; i < total; i++) {
        unsigned char want = i >= off && i < off + n ? (unsigned char)c : 0xee;
        if (buf[i] != want)
            return 1;
    }
    return 0;
}

static void test_memset_with_stale_tunables(void **s)
{
    (void)s;
    const struct fc_variant *v;
    size_t nv = fc_variants(&v);
    const struct fc_tunables saved = fc_tun;
    const size_t th = saved.zva_start, z = saved.zva_size;
    size_t top = 3 * (z > 2048 ? z : 2048) + 300;
    unsigned char *buf = aligned_alloc(4096, top + 4096 + 128);
    assert_non_null(buf);
    /* masks over the value's bytes: none (all zero), all (decided), and each
     * single byte of the threshold (a half-copied field) */
    unsigned masks[2 + 8];
    unsigned nm = 0;
    masks[nm++] = 0;
    masks[nm++] = 0xff;
    for (unsigned b = 0; b < 8; b++)
        if (th >> (8 * b) & 0xff)
            masks[nm++] = 1u << b;
    int checked = 0;
    for (size_t k = 0; k < nv; k++) {
        if (strcmp(v[k].func, "memset") || !v[k].usable)
            continue;
        void *(*set)(void *, int, size_t) = (void *(*)(void *, int, size_t))v[k].fn;
        for (unsigned mt = 0; mt < nm; mt++)
            for (unsigned mz = 0; mz < 2; mz++) {
                fc_tun.zva_start = byte_mix(th, masks[mt]);
                fc_tun.zva_size = mz ? z : 0;
                int bad = 0;
                /* every size to 600, then every 97th; dst 0, 21, 42, 63 bytes
                 * past a page start */
                for (size_t n = 0; n <= top && !bad; n += n < 600 ? 1 : 97)
                    for (size_t off = 0; off < 64 && !bad; off += 21)
                        for (int c = 0; c < 2 && !bad; c++)
                            bad = check_memset(set, buf, off, n, c ? 0x5a : 0);
                fc_tun = saved;
                if (bad)
                    fail_msg("memset %s with zva_start %zu, zva_size %zu: wrong bytes",
                             v[k].name, byte_mix(th, masks[mt]), mz ? z : 0);
                checked++;
            }
    }
    free(buf);
    printf("# %d variant/tunable combinations (zva_start %zu, zva_size %zu)\n", checked,
           th, z);
    assert_true(checked > 0);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bound_before_main),
        cmocka_unit_test(test_first_calls_from_threads),
        cmocka_unit_test(test_first_call_from_signal_handler),
#if defined(__aarch64__)
        cmocka_unit_test(test_memset_with_stale_tunables),
#endif
    };
    return cmocka_run_group_tests_name("bind", tests, NULL, NULL);
}
