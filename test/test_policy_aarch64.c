/* test_policy_aarch64.c - the aarch64 selection policy on synthetic CPUs.  Runs on
 * any host: the policy is a pure function of struct fc_a64_cpu. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "aarch64/variants.h"

#define POLICY_P fc_a64
#define POLICY_CPU struct fc_a64_cpu
#define POLICY_E FC_A64_
#include "policy_test.h"

#define BASE (FC_A64_HWCAP_FP | FC_A64_HWCAP_ASIMD | FC_A64_HWCAP_CPUID)
#define SVE (BASE | FC_A64_HWCAP_SVE)

/* MIDR_EL1 values as QEMU 7.2 reports them for its models. */
#define MIDR_A53 0x410fd034u
#define MIDR_A72 0x410fd083u
#define MIDR_N1 0x414fd0c1u
#define MIDR_V1 0x411fd401u
#define MIDR_A64FX 0x461f0010u
#define MIDR_QEMU_MAX 0x000f0510u

/* dczid: DCZID_EL0 (BS = log2(block / 4 bytes), bit 4 = DZP). */
static struct fc_a64_cpu cpu(uint64_t hwcap, uint64_t hwcap2, uint32_t midr, uint32_t dczid,
                             uint32_t sve_vl, uint32_t kver)
{
    struct fc_a64_cpu c;
    memset(&c, 0, sizeof c);
    c.hwcap = hwcap;
    c.hwcap2 = hwcap2;
    c.midr = midr;
    c.dczid = dczid;
    c.sve_vl = sve_vl;
    c.kver = kver;
    return c;
}

static void expect_zva(const struct fc_decision *d, size_t size, size_t threshold)
{
    assert_int_equal(d->tun.zva_size, size);
    if (size)
        assert_int_equal(d->tun.zva_start, threshold);
    /* Nothing x86 or riscv leaks into an aarch64 decision. */
    assert_int_equal(d->tun.nt_start, 0);
    assert_int_equal(d->tun.rep_movsb_start, 0);
    assert_int_equal(d->tun.cboz_size, 0);
}

static void test_cortex_a53(void **state)
{
    (void)state;
    struct fc_a64_cpu c = cpu(BASE, 0, MIDR_A53, 4, 0, 0);
    struct fc_decision d = decide(c);
    expect_all(&d, "simd");
    expect_zva(&d, 64, 512);
    assert_string_equal(fc_a64_core(&c), "Cortex-A53");
    assert_non_null(strstr(d.why[FC_MEMCPY], "Cortex-A53"));
    assert_false(usable(&c, FC_MEMCPY, "sve"));
    assert_false(usable(&c, FC_MEMSET, "mops"));
    assert_true(usable(&c, FC_MEMMOVE, "ldp_stp"));
    assert_true(usable(&c, FC_MEMMOVE, "generic"));
}

static void test_cortex_a72(void **state)
{
    (void)state;
    struct fc_a64_cpu c = cpu(BASE, 0, MIDR_A72, 4, 0, 0);
    struct fc_decision d = decide(c);
    expect_all(&d, "simd");
    expect_zva(&d, 64, 512);
    assert_string_equal(fc_a64_core(&c), "Cortex-A72");
}

static void test_neoverse_n1(void **state)
{
    (void)state;
    struct fc_a64_cpu c = cpu(BASE, 0, MIDR_N1, 4, 0, FC_A64_KVER(6, 1, 0));
    struct fc_decision d = decide(c);
    expect_all(&d, "simd");
    expect_zva(&d, 64, 512);
    assert_string_equal(fc_a64_core(&c), "Neoverse N1");
}

/* A64FX: 512-bit SVE, 256-byte DC ZVA blocks; SVE even on a kernel that drops
 * the SVE state (its Advanced SIMD is too narrow to be the better choice). */
static void test_a64fx(void **state)
{
    (void)state;
    struct fc_a64_cpu c = cpu(SVE, 0, MIDR_A64FX, 6, 64, FC_A64_KVER(6, 8, 0));
    struct fc_decision d = decide(c);
    expect_all(&d, "sve");
    expect_zva(&d, 256, 2048); /* 8 blocks on A64FX */
    assert_string_equal(fc_a64_core(&c), "A64FX");

    c.kver = FC_A64_KVER(5, 10, 0); /* drops SVE state: A64FX keeps SVE anyway */
    d = decide(c);
    expect_all(&d, "sve");
    assert_non_null(strstr(d.why[FC_MEMSET], "A64FX"));
}

/* DZP set: DC ZVA would raise SIGILL, so memset must never use it. */
static void test_dzp(void **state)
{
    (void)state;
    struct fc_decision d = decide(cpu(BASE, 0, MIDR_N1, FC_A64_DCZID_DZP | 4, 0, 0));
    expect_all(&d, "simd");
    assert_int_equal(d.tun.zva_size, 0);
    d = decide(cpu(SVE, 0, MIDR_A64FX, FC_A64_DCZID_DZP | 6, 64, 0));
    expect_all(&d, "sve");
    assert_int_equal(d.tun.zva_size, 0);
}

/* Block sizes: 32 bytes (BS=3) is below what the zeroing routine handles and
 * falls back to stores; 128 (BS=5) is handled; 2048 (BS=9) is the largest
 * DCZID can describe; anything the field could hold beyond that is refused. */
static void test_zva_block_sizes(void **state)
{
    (void)state;
    struct fc_decision d = decide(cpu(BASE, 0, MIDR_A72, 3, 0, 0));
    expect_all(&d, "simd");
    expect_zva(&d, 0, 0);
    d = decide(cpu(BASE, 0, MIDR_A72, 2, 0, 0)); /* 16 bytes */
    expect_zva(&d, 0, 0);
    d = decide(cpu(BASE, 0, MIDR_A72, 5, 0, 0));
    expect_zva(&d, 128, 512);
    d = decide(cpu(BASE, 0, MIDR_A72, 6, 0, 0)); /* 256: 8 blocks only on A64FX */
    expect_zva(&d, 256, 1024);
    d = decide(cpu(SVE, 0, MIDR_QEMU_MAX, 7, 64, FC_A64_KVER(6, 2, 0))); /* QEMU max */
    expect_all(&d, "sve");
    expect_zva(&d, 512, 2048);
    d = decide(cpu(BASE, 0, MIDR_A72, 9, 0, 0));
    expect_zva(&d, 2048, 8192);
    d = decide(cpu(BASE, 0, MIDR_A72, 10, 0, 0)); /* 4 KiB: not architected */
    expect_zva(&d, 0, 0);
    d = decide(cpu(BASE, 0, MIDR_A72, 15, 0, 0));
    expect_zva(&d, 0, 0);
}

/* SVE on kernels that drop the SVE state at each syscall (4.15-6.1, except 5.14):
 * Advanced SIMD instead; SVE elsewhere. */
static void test_sve_kernel_versions(void **state)
{
    (void)state;
    static const struct { uint32_t kver; const char *want; } cases[] = {
        {FC_A64_KVER(4, 14, 0), "sve"},  {FC_A64_KVER(4, 15, 0), "simd"},
        {FC_A64_KVER(5, 10, 200), "simd"}, {FC_A64_KVER(5, 13, 19), "simd"},
        {FC_A64_KVER(5, 14, 0), "sve"},  {FC_A64_KVER(5, 14, 21), "sve"},
        {FC_A64_KVER(5, 15, 0), "simd"}, {FC_A64_KVER(6, 1, 99), "simd"},
        {FC_A64_KVER(6, 2, 0), "sve"},   {FC_A64_KVER(6, 18, 44), "sve"},
        {0, "sve"}, /* release not readable: assume a current kernel */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct fc_a64_cpu c = cpu(SVE, FC_A64_HWCAP2_SVE2, MIDR_QEMU_MAX, 4, 32,
                                  cases[i].kver);
        struct fc_decision d = decide(c);
        expect_all(&d, cases[i].want);
        assert_true(usable(&c, FC_MEMCPY, "sve")); /* usable either way */
        assert_int_equal(fc_a64_kernel_keeps_sve(cases[i].kver), !strcmp(cases[i].want, "sve"));
    }
    /* The reason says why SVE was passed over. */
    struct fc_decision d = decide(cpu(SVE, 0, MIDR_V1, 4, 32, FC_A64_KVER(6, 1, 0)));
    assert_non_null(strstr(d.why[FC_MEMCPY], "drops"));
}

/* Neoverse V1 (256-bit SVE): sve copies, simd memset (a stp q stores a vector's 32
 * bytes without a whilelo); where the kernel drops SVE state, simd for all three.
 * Another core with 256-bit SVE keeps sve for all three. */
static void test_neoverse_v1(void **state)
{
    (void)state;
    struct fc_decision d = decide(cpu(SVE, FC_A64_HWCAP2_SVE2, MIDR_V1, 4, 32,
                                      FC_A64_KVER(6, 6, 0)));
    assert_string_equal(sel(&d, FC_MEMCPY), "sve");
    assert_string_equal(sel(&d, FC_MEMMOVE), "sve");
    assert_string_equal(sel(&d, FC_MEMSET), "simd");
    assert_non_null(strstr(d.why[FC_MEMSET], "whilelo"));
    expect_zva(&d, 64, 512);
    d = decide(cpu(SVE, FC_A64_HWCAP2_SVE2, MIDR_V1, 4, 32, FC_A64_KVER(6, 1, 0)));
    expect_all(&d, "simd");
    d = decide(cpu(SVE, FC_A64_HWCAP2_SVE2, MIDR_N1, 4, 32, FC_A64_KVER(6, 6, 0)));
    expect_all(&d, "sve");
    /* V1 with its vector length set to 512 bits by prctl: not the 256-bit case */
    d = decide(cpu(SVE, FC_A64_HWCAP2_SVE2, MIDR_V1, 4, 64, FC_A64_KVER(6, 6, 0)));
    expect_all(&d, "sve");
}

/* Vector lengths: every architected one (16..256 bytes) is usable; SVE is selected
 * from 256 bits (at 128 bits q-register pairs move twice the bytes per
 * instruction); a probe that reports nonsense disables the SVE variant instead of
 * running it. */
static void test_sve_vector_lengths(void **state)
{
    (void)state;
    for (uint32_t vl = 16; vl <= 256; vl += 16) {
        struct fc_a64_cpu c = cpu(SVE, 0, MIDR_QEMU_MAX, 7, vl, FC_A64_KVER(6, 6, 0));
        struct fc_decision d = decide(c);
        expect_all(&d, vl >= 32 ? "sve" : "simd");
        assert_true(usable(&c, FC_MEMCPY, "sve"));
        if (vl == 16)
            assert_non_null(strstr(d.why[FC_MEMCPY], "128 bits"));
    }
    /* A64FX-like core with a 128-bit vector length set by prctl before load:
     * still SVE (the A64FX rule does not look at the length). */
    struct fc_decision d = decide(cpu(SVE, 0, MIDR_A64FX, 4, 16, FC_A64_KVER(6, 6, 0)));
    expect_all(&d, "sve");
    static const uint32_t bad[] = {0, 8, 24, 272, 512};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct fc_a64_cpu c = cpu(SVE, 0, MIDR_QEMU_MAX, 7, bad[i], FC_A64_KVER(6, 6, 0));
        struct fc_decision d = decide(c);
        expect_all(&d, "simd");
        assert_false(usable(&c, FC_MEMSET, "sve"));
    }
}

/* FEAT_MOPS wins over everything, SVE included. */
static void test_mops(void **state)
{
    (void)state;
    struct fc_a64_cpu c = cpu(SVE, FC_A64_HWCAP2_MOPS | FC_A64_HWCAP2_SVE2, MIDR_V1, 4, 32,
                              FC_A64_KVER(6, 6, 0));
    struct fc_decision d = decide(c);
    expect_all(&d, "mops");
    assert_true(usable(&c, FC_MEMCPY, "mops"));
    /* hwcap2 bit 43 exactly: neighbours do not count */
    c.hwcap2 = (1ull << 42) | (1ull << 44);
    d = decide(c);
    assert_string_equal(sel(&d, FC_MEMCPY), "sve"); /* V1: memset simd (test_neoverse_v1) */
    assert_string_equal(sel(&d, FC_MEMSET), "simd");
    assert_false(usable(&c, FC_MEMMOVE, "mops"));
    /* MOPS without ASIMD or SVE facts still selects MOPS */
    d = decide(cpu(FC_A64_HWCAP_FP, FC_A64_HWCAP2_MOPS, 0, 4, 0, 0));
    expect_all(&d, "mops");
}

/* No Advanced SIMD (and no SVE): general-register pairs. */
static void test_no_asimd(void **state)
{
    (void)state;
    struct fc_a64_cpu c = cpu(FC_A64_HWCAP_CPUID, 0, MIDR_A53, 4, 0, 0);
    struct fc_decision d = decide(c);
    expect_all(&d, "ldp_stp");
    expect_zva(&d, 64, 512); /* DC ZVA is not a SIMD instruction */
    assert_false(usable(&c, FC_MEMCPY, "simd"));
    d = decide(cpu(0, 0, 0, 4, 0, 0));
    expect_all(&d, "ldp_stp");
}

/* Without HWCAP_CPUID the MIDR is unknown (the probe leaves it 0, and a stale value
 * must not be trusted): an SVE machine is then judged by the kernel rule alone. */
static void test_no_cpuid(void **state)
{
    (void)state;
    struct fc_a64_cpu c = cpu(SVE & ~FC_A64_HWCAP_CPUID, 0, MIDR_A64FX, 6, 64,
                              FC_A64_KVER(5, 10, 0));
    struct fc_decision d = decide(c);
    expect_all(&d, "simd");
    assert_non_null(strstr(fc_a64_core(&c), "MIDR"));
    c.kver = FC_A64_KVER(6, 6, 0);
    d = decide(c);
    expect_all(&d, "sve");
}

static void test_names_round_trip(void **state)
{
    (void)state;
    static const char *names[] = {"generic", "ldp_stp", "simd", "sve", "mops"};
    for (int f = 0; f < FC_NFUNCS; f++) {
        assert_int_equal(fc_a64_variant_count(f), sizeof names / sizeof names[0]);
        for (unsigned i = 0; i < fc_a64_variant_count(f); i++) {
            assert_string_equal(fc_a64_variant_name(f, i), names[i]);
            assert_int_equal(fc_a64_variant_index(f, names[i]), (int)i);
        }
        assert_int_equal(fc_a64_variant_index(f, "avx2"), -1);
        assert_string_equal(fc_a64_variant_name(f, 99), "?");
    }
}

static void test_describe(void **state)
{
    (void)state;
    char buf[1024];
    struct fc_a64_cpu c = cpu(SVE, FC_A64_HWCAP2_MOPS, MIDR_A64FX, FC_A64_DCZID_DZP | 6, 64,
                              FC_A64_KVER(6, 1, 0));
    fc_a64_describe(&c, buf, sizeof buf);
    assert_non_null(strstr(buf, "A64FX"));
    assert_non_null(strstr(buf, "461f0010"));
    assert_non_null(strstr(buf, " sve"));
    assert_non_null(strstr(buf, " mops"));
    assert_non_null(strstr(buf, "DZP set"));
    assert_non_null(strstr(buf, "block 256"));
    assert_non_null(strstr(buf, "6.1 (drops"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cortex_a53),        cmocka_unit_test(test_cortex_a72),
        cmocka_unit_test(test_neoverse_n1),       cmocka_unit_test(test_a64fx),
        cmocka_unit_test(test_dzp),               cmocka_unit_test(test_zva_block_sizes),
        cmocka_unit_test(test_sve_kernel_versions), cmocka_unit_test(test_neoverse_v1),
        cmocka_unit_test(test_sve_vector_lengths),
        cmocka_unit_test(test_mops),              cmocka_unit_test(test_no_asimd),
        cmocka_unit_test(test_no_cpuid),          cmocka_unit_test(test_names_round_trip),
        cmocka_unit_test(test_describe),
        cmocka_unit_test(test_every_variant_usable), /* last: every CPU above */
    };
    return cmocka_run_group_tests_name("policy_aarch64", tests, NULL, NULL);
}
