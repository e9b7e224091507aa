/* test_probe_riscv64.c - the riscv64 probe, run on riscv64 (under QEMU in cross
 * builds).  The glibc 2.40+ resolver path (a1 = a hwprobe function) is driven with
 * fake hwprobe functions answering like new kernels, old kernels and failing
 * ones; the glibc 2.36 path (a1 = NULL: the raw syscall) is checked against
 * whatever this kernel or QEMU answers.
 *
 * FC_EXPECT_VLENB (QEMU matrix): the VLEN/8 the probe must read; 0 = no V. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/types.h>
#include <cmocka.h>

#include "riscv64/variants.h"
#include "fastcopy.h"

/* The cbo.zero memset kernel (QEMU 7.2 has no Zicboz, so the variant suite skips
 * it): its paths that execute no cbo.zero are run directly below. */
FC_HIDDEN void *fc_memset_rv_cboz(void *, int, size_t);

struct pair {
    int64_t key;
    uint64_t value;
};

static int calls;

/* Linux 6.11+: every key known; misaligned FAST, Zicboz with 64-byte blocks. */
static int hwprobe_new(struct pair *p, unsigned long n, unsigned long cpusz,
                       unsigned long *cpus, unsigned flags)
{
    calls++;
    assert_int_equal(cpusz, 0);
    assert_null(cpus);
    assert_int_equal(flags, 0);
    for (unsigned long i = 0; i < n; i++) {
        switch (p[i].key) {
        case 0: p[i].value = 0x5b7; break;          /* mvendorid */
        case 1: p[i].value = 0x8000000000000007ull; break;
        case 2: p[i].value = 1; break;
        case 4: p[i].value = 1 | 2 | 4 | (1 << 6); break; /* FD C V Zicboz */
        case 5: p[i].value = 1; break;               /* CPUPERF_0 says EMULATED ... */
        case 6: p[i].value = 64; break;
        case 9: p[i].value = 3; break;               /* ... the newer key says FAST */
        default: p[i].key = -1; p[i].value = 0;
        }
    }
    return 0;
}

/* Linux 6.4-6.10: no MISALIGNED_SCALAR_PERF key (9) and no Zicboz. */
static int hwprobe_old(struct pair *p, unsigned long n, unsigned long cpusz,
                       unsigned long *cpus, unsigned flags)
{
    (void)cpusz, (void)cpus, (void)flags;
    calls++;
    for (unsigned long i = 0; i < n; i++) {
        if (p[i].key <= 5) {
            p[i].value = p[i].key == 5 ? 3 /* FAST */ : p[i].key == 4 ? 3 : 0;
        } else {
            p[i].key = -1;
            p[i].value = 0;
        }
    }
    return 0;
}

static int hwprobe_fails(struct pair *p, unsigned long n, unsigned long cpusz,
                         unsigned long *cpus, unsigned flags)
{
    (void)p, (void)n, (void)cpusz, (void)cpus, (void)flags;
    calls++;
    return ENOSYS; /* glibc's __riscv_hwprobe returns a positive error code */
}

static void test_glibc240_new_kernel(void **state)
{
    (void)state;
    struct fc_rv_cpu c;
    calls = 0;
    fc_rv_probe(&c, 0x112d, (const void *)hwprobe_new);
    assert_int_equal(calls, 1);
    assert_int_equal(c.hwcap, 0x112d);
    assert_int_equal(c.hwprobe, 1);
    assert_int_equal(c.misaligned, FC_RV_MISALIGNED_FAST);
    assert_int_equal(c.zicboz, 1);
    assert_int_equal(c.zicboz_block, 64);
    assert_int_equal(c.mvendorid, 0x5b7);
    assert_int_equal(c.vlenb, 0); /* HWCAP 0x112d has no V: vlenb is not read */
    struct fc_decision d;
    fc_rv_policy(&c, &d);
    assert_string_equal(fc_rv_variant_name(FC_MEMCPY, d.sel[FC_MEMCPY]), "unaligned");
    assert_string_equal(fc_rv_variant_name(FC_MEMSET, d.sel[FC_MEMSET]), "cboz");
}

static void test_glibc240_old_kernel(void **state)
{
    (void)state;
    struct fc_rv_cpu c;
    calls = 0;
    fc_rv_probe(&c, 0x112d, (const void *)hwprobe_old);
    assert_int_equal(calls, 1);
    assert_int_equal(c.hwprobe, 1);
    assert_int_equal(c.misaligned, FC_RV_MISALIGNED_FAST); /* from CPUPERF_0 */
    assert_int_equal(c.zicboz, 0);
    assert_int_equal(c.zicboz_block, 0);
}

static void test_glibc240_hwprobe_error(void **state)
{
    (void)state;
    struct fc_rv_cpu c;
    calls = 0;
    fc_rv_probe(&c, 0x112d, (const void *)hwprobe_fails);
    assert_int_equal(calls, 1);
    assert_int_equal(c.hwprobe, 0);
    assert_int_equal(c.misaligned, FC_RV_MISALIGNED_UNKNOWN);
    assert_int_equal(c.zicboz, 0);
}

/* glibc 2.36: (AT_HWCAP, NULL) -> the raw syscall.  QEMU 7.2 answers ENOSYS. */
static void test_glibc236_raw_syscall(void **state)
{
    (void)state;
    struct fc_rv_cpu c;
    uint64_t hwcap = getauxval(AT_HWCAP);
    fc_rv_probe(&c, hwcap, NULL);
    assert_int_equal(c.hwcap, hwcap);
    if (!c.hwprobe) {
        assert_int_equal(c.misaligned, FC_RV_MISALIGNED_UNKNOWN);
        assert_int_equal(c.zicboz, 0);
    }
    assert_true(c.misaligned <= FC_RV_MISALIGNED_UNSUPPORTED);
    if (fc_rv_v_usable(&c)) {
        /* RVV 1.0 (the V extension proper) requires VLEN >= 128. */
        assert_true(c.vlenb >= 16);
        assert_int_equal(c.vlenb & (c.vlenb - 1), 0);
    } else {
        assert_int_equal(c.vlenb, 0);
    }
    const char *want = getenv("FC_EXPECT_VLENB");
    if (want && *want)
        assert_int_equal(c.vlenb, strtoull(want, NULL, 0));
}

/* The library's own decision, made in its resolvers, matches the probe + policy
 * run here, and the selected variant is usable. */
static void test_selection_consistent(void **state)
{
    (void)state;
    struct fc_rv_cpu c;
    struct fc_decision d;
    fc_rv_probe(&c, getauxval(AT_HWCAP), NULL);
    fc_rv_policy(&c, &d);
    for (int f = 0; f < FC_NFUNCS; f++) {
        if (getenv(f == FC_MEMCPY ? "FASTCOPY_MEMCPY" : f == FC_MEMMOVE ? "FASTCOPY_MEMMOVE"
                                                                       : "FASTCOPY_MEMSET"))
            continue;
        assert_string_equal(fc_selected(fc_func_name(f)), fc_rv_variant_name(f, d.sel[f]));
        assert_true(fc_rv_usable(&c, f, d.sel[f]));
    }
}

/* fc_memset_rv_cboz without executing cbo.zero: non-zero fills, zero fills with
 * no block size published, zero fills shorter than two blocks.  Every byte of the
 * range set, none around it touched, dst returned. */
static void test_cboz_kernel_fallbacks(void **state)
{
    (void)state;
    static unsigned char buf[64 + 600 + 64];
    struct fc_tunables saved = fc_tun;
    static const struct { int c; size_t block, maxn; } runs[] = {
        {0x1a5, 64, 600}, /* c != 0: word stores at every size */
        {0, 0, 600},      /* cboz_size 0: word stores */
        {0, 64, 127},     /* n < 2 blocks: word stores */
        {0, 256, 511},
    };
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        fc_tun.cboz_size = runs[r].block;
        unsigned char want = (unsigned char)runs[r].c;
        for (size_t n = 0; n <= runs[r].maxn; n++)
            for (size_t off = 0; off < 16; off += (n < 80 ? 1 : 5)) {
                memset(buf, 0x77, sizeof buf);
                unsigned char *d = buf + 64 + off;
                assert_ptr_equal(fc_memset_rv_cboz(d, runs[r].c, n), d);
                for (size_t i = 0; i < sizeof buf; i++) {
                    int inside = buf + i >= d && buf + i < d + n;
                    if (buf[i] != (inside ? want : 0x77))
                        fail_msg("cboz kernel c=%#x block %zu n %zu off %zu: byte %zd is %#x",
                                 runs[r].c, runs[r].block, n, off, (ssize_t)(buf + i - d), buf[i]);
                }
            }
    }
    fc_tun = saved;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_glibc240_new_kernel),
        cmocka_unit_test(test_glibc240_old_kernel),
        cmocka_unit_test(test_glibc240_hwprobe_error),
        cmocka_unit_test(test_glibc236_raw_syscall),
        cmocka_unit_test(test_selection_consistent),
        cmocka_unit_test(test_cboz_kernel_fallbacks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
