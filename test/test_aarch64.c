/* test_aarch64.c - aarch64-only checks that need the real (or emulated) CPU:
 *   - the probe takes its facts from the resolver arguments glibc passes
 *     (x0 = AT_HWCAP | bit 62, x1 = __ifunc_arg_t with hwcap2), falls back to
 *     /proc/self/auxv without them, reads MIDR only with HWCAP_CPUID;
 *   - the DC ZVA zeroing of every memset variant that uses it, with the cut-over
 *     lowered to its minimum so every alignment and tail shape is reached, against
 *     guard pages and redzones;
 *   - FC_EXPECT_ZVA_SIZE (set by the QEMU model matrix): the block size in use.
 * Built and run only when the host is aarch64 (natively or under QEMU). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <cmocka.h>

#include "arch.h"
#include "fastcopy.h"
#include "guard.h"

#ifndef PR_SVE_GET_VL
#define PR_SVE_GET_VL 51
#endif

static void test_probe_arguments(void **state)
{
    (void)state;
    uint64_t hwcap = getauxval(AT_HWCAP), hwcap2 = getauxval(AT_HWCAP2);
    struct fc_a64_ifunc_arg arg = {sizeof arg, (unsigned long)hwcap, FC_A64_HWCAP2_MOPS | 2};
    struct fc_a64_cpu c;

    /* glibc's convention: hwcap2 from the struct, bit 62 stripped from hwcap. */
    fc_a64_probe(&c, hwcap | FC_A64_IFUNC_ARG_HWCAP, &arg);
    assert_true(c.hwcap == hwcap);
    assert_true(c.hwcap2 == (FC_A64_HWCAP2_MOPS | 2));
    /* A struct too small to hold hwcap2 is not read past its size. */
    arg.size = 2 * sizeof(unsigned long);
    fc_a64_probe(&c, hwcap | FC_A64_IFUNC_ARG_HWCAP, &arg);
    assert_true(c.hwcap2 == 0);
    /* No bit 62: hwcap2 comes from /proc/self/auxv. */
    fc_a64_probe(&c, hwcap, NULL);
    assert_true(c.hwcap == hwcap);
    assert_true(c.hwcap2 == hwcap2);

    /* What the library runs with outside resolvers. */
    uint64_t a0;
    const void *a1;
    fc_arch_runtime_args(&a0, &a1);
    assert_true(a0 == (hwcap | FC_A64_IFUNC_ARG_HWCAP));
    assert_true(((const struct fc_a64_ifunc_arg *)a1)->hwcap2 == hwcap2);
    fc_a64_probe(&c, a0, a1);
    assert_true(c.hwcap2 == hwcap2);

    uint64_t dczid;
    __asm__ volatile("mrs %0, dczid_el0" : "=r"(dczid));
    assert_int_equal(c.dczid, (uint32_t)dczid);
    if (hwcap & FC_A64_HWCAP_CPUID)
        assert_true(c.midr != 0);
    /* Without HWCAP_CPUID the MIDR must not be read (it would trap). */
    fc_a64_probe(&c, hwcap & ~FC_A64_HWCAP_CPUID, NULL);
    assert_int_equal(c.midr, 0);

    if (hwcap & FC_A64_HWCAP_SVE) {
        fc_a64_probe(&c, hwcap, NULL);
        long vl = prctl(PR_SVE_GET_VL);
        assert_true(vl > 0);
        assert_int_equal(c.sve_vl, (uint32_t)(vl & 0xffff));
        struct utsname u;
        unsigned maj = 0, min = 0;
        assert_int_equal(uname(&u), 0);
        sscanf(u.release, "%u.%u", &maj, &min);
        assert_int_equal(c.kver >> 8, (maj << 8) | min);
    } else {
        assert_int_equal(c.sve_vl, 0);
        assert_int_equal(c.kver, 0);
    }
}

static void test_zva_size_in_use(void **state)
{
    (void)state;
    uint64_t dczid;
    __asm__ volatile("mrs %0, dczid_el0" : "=r"(dczid));
    fc_selected("memset"); /* make sure the decision has been taken */
    size_t z = 4u << (dczid & 15);
    if (dczid & 16)
        assert_int_equal(fc_tun.zva_size, 0);
    else if (z >= 64 && z <= 2048)
        assert_int_equal(fc_tun.zva_size, z);
    const char *want = getenv("FC_EXPECT_ZVA_SIZE");
    if (want && *want)
        assert_int_equal(fc_tun.zva_size, strtoul(want, NULL, 10));
}

/* Every memset variant that may use DC ZVA, zeroing with the cut-over at its
 * minimum: sizes from 64 to past 4 blocks, start offsets across a whole block,
 * buffers ending at (and starting at) a PROT_NONE page.  z is the block size of
 * the sweep; fc_tun.zva_size is z (DC ZVA used) or 0 (stores only). */
static void zva_sweep(size_t z)
{
    const struct fc_variant *v;
    size_t nv = fc_variants(&v);
    size_t maxn = 4 * z + 200, span = maxn + 2 * z + 128;
    unsigned char *buf = malloc(span);
    struct guarded g;
    assert_int_equal(guarded_alloc(&g, maxn + z), 0);
    size_t threshold = fc_tun.zva_start;
    fc_tun.zva_start = 64;
    for (size_t i = 0; i < nv; i++) {
        if (strcmp(v[i].func, "memset") || !v[i].usable ||
            !(strcmp(v[i].name, "ldp_stp") == 0 || strcmp(v[i].name, "simd") == 0 ||
              strcmp(v[i].name, "sve") == 0))
            continue;
        fc_set_fn fn = (fc_set_fn)v[i].fn;
        size_t step_n = z >= 256 ? 7 : 1;
        for (size_t n = 64; n <= maxn; n += (n < 3 * z ? step_n : 61)) {
            for (size_t off = 0; off < z; off += (z >= 256 ? 29 : 5)) {
                /* redzones of 0x5a around [64 + off, 64 + off + n) */
                memset(buf, 0x5a, span);
                void *r = fn(buf + 64 + off, 0x100, n); /* 0x100 -> byte 0 */
                assert_ptr_equal(r, buf + 64 + off);
                for (size_t k = 0; k < 64 + off; k++)
                    if (buf[k] != 0x5a)
                        fail_msg("memset %s zva %zu: n %zu off %zu: byte %zd before clobbered",
                                 v[i].name, fc_tun.zva_size, n, off,
                                 (ssize_t)k - (ssize_t)(64 + off));
                for (size_t k = 64 + off; k < 64 + off + n; k++)
                    if (buf[k] != 0)
                        fail_msg("memset %s zva %zu: n %zu off %zu: byte %zu not zero",
                                 v[i].name, fc_tun.zva_size, n, off, k - 64 - off);
                for (size_t k = 64 + off + n; k < span; k++)
                    if (buf[k] != 0x5a)
                        fail_msg("memset %s zva %zu: n %zu off %zu: byte %zu after clobbered",
                                 v[i].name, fc_tun.zva_size, n, off, k - 64 - off - n);
            }
            /* flush against the guard pages at both ends */
            unsigned char *t = guarded_tail(&g, n);
            memset(g.body, 0x5a, g.body_len);
            fn(t, 0, n);
            fn(g.body, 0, n);
            for (size_t k = 0; k < n; k++)
                if (t[k] != 0 || g.body[k] != 0)
                    fail_msg("memset %s zva %zu guard: n %zu byte %zu not zero", v[i].name,
                             fc_tun.zva_size, n, k);
        }
        /* a large one, with the default cut-over */
        fc_tun.zva_start = threshold;
        size_t big = 64 * z + 77;
        unsigned char *b = malloc(big + 256);
        memset(b, 0x5a, big + 256);
        fn(b + 13, 0, big);
        for (size_t k = 0; k < big + 256; k++)
            assert_int_equal(b[k], (k >= 13 && k < 13 + big) ? 0 : 0x5a);
        free(b);
        fc_tun.zva_start = 64;
    }
    fc_tun.zva_start = threshold;
    guarded_free(&g);
    free(buf);
}

static void test_zva_zeroing(void **state)
{
    (void)state;
    struct fc_tunables saved = fc_tun;
    if (fc_tun.zva_size)
        zva_sweep(fc_tun.zva_size);
    else
        print_message("DC ZVA not usable here: stores only\n");
    /* Block size 0 (DZP set, or a size not handled) with the cut-over still low,
     * as FASTCOPY_ZVA_START can leave it: the zeroing routine must store. */
    fc_tun.zva_size = 0;
    zva_sweep(64);
    fc_tun = saved;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_probe_arguments),
        cmocka_unit_test(test_zva_size_in_use),
        cmocka_unit_test(test_zva_zeroing),
    };
    return cmocka_run_group_tests_name("aarch64", tests, NULL, NULL);
}
