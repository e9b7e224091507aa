/* test_policy_riscv64.c - the riscv64 selection policy on synthetic CPUs.  Runs on
 * any host: the policy is a pure function of struct fc_rv_cpu.  Covers what QEMU
 * 7.2 cannot show: hwprobe answering FAST/SLOW/EMULATED/UNSUPPORTED, Zicboz, V
 * switched off by prctl. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "riscv64/variants.h"

#define POLICY_P fc_rv
#define POLICY_CPU struct fc_rv_cpu
#define POLICY_E FC_RV_
#include "policy_test.h"

#define IMAFDC ((1ull << ('I' - 'A')) | (1ull << ('M' - 'A')) | (1ull << ('A' - 'A')) | \
                (1ull << ('F' - 'A')) | (1ull << ('D' - 'A')) | (1ull << ('C' - 'A')))
#define RVV (IMAFDC | FC_RV_HWCAP_V)

/* A CPU without hwprobe (kernel < 6.4, QEMU 7.2) and no prctl V control. */
static struct fc_rv_cpu cpu(uint64_t hwcap)
{
    struct fc_rv_cpu c;
    memset(&c, 0, sizeof c);
    c.hwcap = hwcap;
    c.v_ctrl = FC_RV_VCTRL_NONE;
    return c;
}

static struct fc_rv_cpu with_hwprobe(struct fc_rv_cpu c, unsigned misaligned)
{
    c.hwprobe = 1;
    c.misaligned = misaligned;
    return c;
}

static void expect(const struct fc_decision *d, const char *copy, const char *set)
{
    assert_string_equal(sel(d, FC_MEMCPY), copy);
    assert_string_equal(sel(d, FC_MEMMOVE), copy);
    assert_string_equal(sel(d, FC_MEMSET), set);
}

/* QEMU 7.2 -cpu rv64: IMAFDC, no V, no hwprobe. */
static void test_no_v_no_hwprobe(void **state)
{
    (void)state;
    struct fc_rv_cpu c = cpu(IMAFDC);
    struct fc_decision d = decide(c);
    expect(&d, "word", "word");
    assert_int_equal(d.tun.cboz_size, 0);
    assert_non_null(strstr(d.why[FC_MEMCPY], "hwprobe"));
    assert_false(usable(&c, FC_MEMCPY, "rvv"));
    assert_false(usable(&c, FC_MEMSET, "rvv"));
    assert_false(usable(&c, FC_MEMSET, "cboz"));
    assert_true(usable(&c, FC_MEMCPY, "unaligned")); /* works, just not chosen */
    assert_true(usable(&c, FC_MEMCPY, "generic"));
}

/* QEMU 7.2 -cpu rv64,v=true: V in HWCAP, the prctl fails (no control). */
static void test_v_without_prctl_control(void **state)
{
    (void)state;
    struct fc_rv_cpu c = cpu(RVV);
    struct fc_decision d = decide(c);
    expect(&d, "rvv", "rvv");
    assert_true(usable(&c, FC_MEMMOVE, "rvv"));
}

static void test_v_enabled_by_prctl(void **state)
{
    (void)state;
    struct fc_rv_cpu c = with_hwprobe(cpu(RVV), FC_RV_MISALIGNED_SLOW);
    c.v_ctrl = FC_RV_VCTRL_ON;
    struct fc_decision d = decide(c);
    expect(&d, "rvv", "rvv");
}

/* Linux 6.5+ with V switched off for this process: a vector instruction would
 * raise SIGILL (glibc's RVV memset bug), so V must not be used at all. */
static void test_v_disabled_by_prctl(void **state)
{
    (void)state;
    struct fc_rv_cpu c = with_hwprobe(cpu(RVV), FC_RV_MISALIGNED_SLOW);
    c.v_ctrl = FC_RV_VCTRL_OFF;
    struct fc_decision d = decide(c);
    expect(&d, "word", "word");
    assert_false(usable(&c, FC_MEMCPY, "rvv"));
    assert_false(usable(&c, FC_MEMSET, "rvv"));
    assert_non_null(strstr(d.why[FC_MEMCPY], "prctl"));
    /* ... and with FAST misaligned access the scalar choice is "unaligned". */
    c.misaligned = FC_RV_MISALIGNED_FAST;
    d = decide(c);
    expect(&d, "unaligned", "word");
}

/* prctl says ON but HWCAP has no V: HWCAP wins (no V unit). */
static void test_prctl_on_without_hwcap_v(void **state)
{
    (void)state;
    struct fc_rv_cpu c = with_hwprobe(cpu(IMAFDC), FC_RV_MISALIGNED_UNKNOWN);
    c.v_ctrl = FC_RV_VCTRL_ON;
    struct fc_decision d = decide(c);
    expect(&d, "word", "word");
    assert_false(usable(&c, FC_MEMCPY, "rvv"));
}

static void test_misaligned_fast(void **state)
{
    (void)state;
    struct fc_rv_cpu c = with_hwprobe(cpu(IMAFDC), FC_RV_MISALIGNED_FAST);
    struct fc_decision d = decide(c);
    expect(&d, "unaligned", "word");
    assert_non_null(strstr(d.why[FC_MEMCPY], "fast"));
    /* V still wins over fast scalar access. */
    c.hwcap = RVV;
    d = decide(c);
    expect(&d, "rvv", "rvv");
}

static void test_misaligned_slow(void **state)
{
    (void)state;
    struct fc_decision d = decide(with_hwprobe(cpu(IMAFDC), FC_RV_MISALIGNED_SLOW));
    expect(&d, "word", "word");
}

static void test_misaligned_emulated(void **state)
{
    (void)state;
    struct fc_decision d = decide(with_hwprobe(cpu(IMAFDC), FC_RV_MISALIGNED_EMULATED));
    expect(&d, "word", "word");
    assert_non_null(strstr(d.why[FC_MEMCPY], "emulated"));
}

static void test_misaligned_unknown(void **state)
{
    (void)state;
    struct fc_decision d = decide(with_hwprobe(cpu(IMAFDC), FC_RV_MISALIGNED_UNKNOWN));
    expect(&d, "word", "word");
}

/* UNSUPPORTED: misaligned accesses fault; "unaligned" must not even be offered. */
static void test_misaligned_unsupported(void **state)
{
    (void)state;
    struct fc_rv_cpu c = with_hwprobe(cpu(IMAFDC), FC_RV_MISALIGNED_UNSUPPORTED);
    struct fc_decision d = decide(c);
    expect(&d, "word", "word");
    assert_false(usable(&c, FC_MEMCPY, "unaligned"));
    assert_false(usable(&c, FC_MEMMOVE, "unaligned"));
}

static void test_zicboz_64(void **state)
{
    (void)state;
    struct fc_rv_cpu c = with_hwprobe(cpu(IMAFDC), FC_RV_MISALIGNED_SLOW);
    c.zicboz = 1;
    c.zicboz_block = 64;
    struct fc_decision d = decide(c);
    expect(&d, "word", "cboz");
    assert_int_equal(d.tun.cboz_size, 64);
    assert_true(usable(&c, FC_MEMSET, "cboz"));
    assert_non_null(strstr(d.why[FC_MEMSET], "Zicboz"));
    /* With V, memset is rvv; cbo.zero stays usable (forced via FASTCOPY_MEMSET)
     * and its block size is still published. */
    c.hwcap = RVV;
    d = decide(c);
    expect(&d, "rvv", "rvv");
    assert_int_equal(d.tun.cboz_size, 64);
    assert_true(usable(&c, FC_MEMSET, "cboz"));
}

/* Block sizes the kernel should never report are not trusted. */
static void test_zicboz_implausible_block(void **state)
{
    (void)state;
    static const uint64_t bad[] = {0, 8, 48, 96, 8192, (uint64_t)1 << 40};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct fc_rv_cpu c = with_hwprobe(cpu(IMAFDC), FC_RV_MISALIGNED_SLOW);
        c.zicboz = 1;
        c.zicboz_block = bad[i];
        struct fc_decision d = decide(c);
        expect(&d, "word", "word");
        assert_int_equal(d.tun.cboz_size, 0);
        assert_false(usable(&c, FC_MEMSET, "cboz"));
    }
    /* 16 and 4096 are the accepted extremes. */
    struct fc_rv_cpu c = with_hwprobe(cpu(IMAFDC), FC_RV_MISALIGNED_SLOW);
    c.zicboz = 1;
    c.zicboz_block = 4096;
    struct fc_decision d = decide(c);
    expect(&d, "word", "cboz");
    assert_int_equal(d.tun.cboz_size, 4096);
}

/* hwprobe missing: no Zicboz facts can exist, misaligned speed unknown. */
static void test_hwprobe_missing(void **state)
{
    (void)state;
    struct fc_rv_cpu c = cpu(IMAFDC);
    c.misaligned = FC_RV_MISALIGNED_FAST; /* ignored: nobody said so */
    struct fc_decision d = decide(c);
    expect(&d, "word", "word");
    assert_non_null(strstr(d.why[FC_MEMCPY], "ENOSYS"));
    c.hwcap = RVV;
    d = decide(c);
    expect(&d, "rvv", "rvv");
}

static void test_names_round_trip(void **state)
{
    (void)state;
    for (int f = 0; f < FC_NFUNCS; f++) {
        assert_true(fc_rv_variant_count(f) >= 3);
        for (unsigned i = 0; i < fc_rv_variant_count(f); i++)
            assert_int_equal(fc_rv_variant_index(f, fc_rv_variant_name(f, i)), (int)i);
        assert_int_equal(fc_rv_variant_index(f, "avx2"), -1);
        assert_string_equal(fc_rv_variant_name(f, 99), "?");
    }
    assert_int_equal(fc_rv_variant_index(FC_MEMCPY, "cboz"), -1);
    assert_true(fc_rv_variant_index(FC_MEMSET, "cboz") >= 0);
}

static void test_describe(void **state)
{
    (void)state;
    char buf[1024];
    struct fc_rv_cpu c = with_hwprobe(cpu(RVV), FC_RV_MISALIGNED_FAST);
    c.v_ctrl = FC_RV_VCTRL_OFF;
    c.zicboz = 1;
    c.zicboz_block = 64;
    fc_rv_describe(&c, buf, sizeof buf);
    assert_non_null(strstr(buf, "acdfimv"));
    assert_non_null(strstr(buf, "disabled by prctl"));
    assert_non_null(strstr(buf, "misaligned scalar access: fast"));
    assert_non_null(strstr(buf, "block 64 bytes"));
    c = cpu(IMAFDC);
    fc_rv_describe(&c, buf, sizeof buf);
    assert_non_null(strstr(buf, "unavailable"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_v_no_hwprobe),
        cmocka_unit_test(test_v_without_prctl_control),
        cmocka_unit_test(test_v_enabled_by_prctl),
        cmocka_unit_test(test_v_disabled_by_prctl),
        cmocka_unit_test(test_prctl_on_without_hwcap_v),
        cmocka_unit_test(test_misaligned_fast),
        cmocka_unit_test(test_misaligned_slow),
        cmocka_unit_test(test_misaligned_emulated),
        cmocka_unit_test(test_misaligned_unknown),
        cmocka_unit_test(test_misaligned_unsupported),
        cmocka_unit_test(test_zicboz_64),
        cmocka_unit_test(test_zicboz_implausible_block),
        cmocka_unit_test(test_hwprobe_missing),
        cmocka_unit_test(test_names_round_trip),
        cmocka_unit_test(test_describe),
        cmocka_unit_test(test_every_variant_usable), /* last: every CPU above */
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
