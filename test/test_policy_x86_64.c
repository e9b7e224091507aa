/* test_policy_x86_64.c - the x86_64 selection policy on synthetic CPUs.  Runs on
 * any host: the policy is a pure function of struct fc_x86_cpu. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "x86_64/profiles.h"

#define POLICY_P fc_x86
#define POLICY_CPU struct fc_x86_cpu
#define POLICY_E FC_X86_
#include "policy_test.h"

#define KiB ((uint64_t)1024)
#define MiB (1024 * KiB)
#define BASE (FC_X86_SSE2 | FC_X86_SSSE3)
#define AVX2 (BASE | FC_X86_AVX | FC_X86_AVX2 | FC_X86_BMI2 | FC_X86_OS_YMM)
#define AVX512 (AVX2 | FC_X86_AVX512F | FC_X86_AVX512BW | FC_X86_AVX512VL | FC_X86_OS_ZMM)

static struct fc_x86_cpu cpu(unsigned vendor, unsigned family, unsigned model, uint32_t feat,
                             uint64_t l3)
{
    struct fc_x86_cpu c;
    memset(&c, 0, sizeof c);
    c.vendor = vendor;
    c.family = family;
    c.model = model;
    c.features = feat;
    c.l1d_size = 48 * KiB;
    c.l2_size = MiB;
    c.l3_size = l3;
    return c;
}

/* The selected variant must always be usable on the CPU it was chosen for. */
static void test_zen4(void **s)
{
    (void)s;
    struct fc_x86_cpu c = cpu(FC_X86_AMD, 0x19, 0x11, AVX512 | FC_X86_ERMS | FC_X86_FSRM, 32 * MiB);
    struct fc_decision d = decide(c);
    expect_all(&d, "avx512"); /* memset too: avx512_1branch is not measured on Zen 4 */
    assert_string_equal(fc_x86_uarch(&c), "Zen 4");
    assert_int_equal(d.tun.nt_start, 24 * MiB); /* 3/4 of the CCX's L3 */
    assert_non_null(strstr(d.why[FC_MEMCPY], "Zen 4"));
    assert_non_null(strstr(d.why[FC_MEMSET], "rep stosb off"));
    /* rep movsb and rep stosb closed on Zen 4 */
    assert_true(d.tun.rep_movsb_start >= d.tun.rep_movsb_stop);
    assert_true(d.tun.rep_stosb_start >= d.tun.nt_start);
    assert_true(d.tun.rep_stosb_stop >= d.tun.nt_start);
    assert_true(d.tun.rep_stosb_high_start >= d.tun.nt_start);
    /* no adaptive memset window: not measured on Zen 4 (rep stosb stays off) */
    assert_int_equal(d.tun.memset_adaptive_stop, 0);
    /* one masked store up to 64 B (measured on Zen 4 too) */
    assert_int_equal(d.tun.memset_masked_max, 64);
    assert_non_null(strstr(d.why[FC_MEMSET], "one masked store to 64 B"));
    /* real programs: 4K-aliased copies forward, the loop on 32-byte vectors */
    assert_int_equal(d.tun.alias_backward_stop, 0);
    assert_int_equal(d.tun.loop32_start, 1024);
    /* neither on Zen 5 nor Intel: measured on Zen 4 only */
    c.family = 0x1a;
    c.model = 2;
    assert_int_equal(decide(c).tun.loop32_start, FC_TUN_MAX);
    assert_int_not_equal(decide(c).tun.alias_backward_stop, 0);
    c.family = 0x19;
    c.model = 0x21; /* Zen 3 */
    assert_int_equal(decide(c).tun.loop32_start, FC_TUN_MAX);
    assert_int_not_equal(decide(c).tun.alias_backward_stop, 0);
}

/* Zen 5: the copies avx512, memset avx512_1branch (its one-branch entry, measured
 * there; policy.c) */
static void expect_zen5(const struct fc_decision *d)
{
    assert_string_equal(sel(d, FC_MEMCPY), "avx512");
    assert_string_equal(sel(d, FC_MEMMOVE), "avx512");
    assert_string_equal(sel(d, FC_MEMSET), "avx512_1branch");
}

static void test_zen5(void **s)
{
    (void)s;
    struct fc_x86_cpu c = cpu(FC_X86_AMD, 0x1a, 0x02, AVX512 | FC_X86_ERMS | FC_X86_FSRM, 32 * MiB);
    struct fc_decision d = decide(c);
    expect_zen5(&d);
    assert_non_null(strstr(d.why[FC_MEMSET], "one compare and one masked store to 64 B"));
    assert_string_equal(fc_x86_uarch(&c), "Zen 5");
    /* each function's why-line names its own rule */
    assert_non_null(strstr(d.why[FC_MEMCPY], "rep movsb"));
    assert_non_null(strstr(d.why[FC_MEMSET], "rep stosb"));
    assert_null(strstr(d.why[FC_MEMSET], "rep movsb"));
    /* Zen 5: rep movsb from 32 KiB (measured) up to the non-temporal threshold */
    assert_int_equal(d.tun.rep_movsb_start, 32768);
    assert_int_equal(d.tun.rep_movsb_stop, 24 * MiB);
    /* memset (the hot-versus-cold rule, measured): the loop to 8 KiB, rep stosb
     * above it to 256 KiB, the loop to 4 MiB inclusive (or the L2 size if that is
     * larger), rep stosb again above it; one masked store up to 64 B */
    assert_int_equal(d.tun.rep_stosb_start, 8 * KiB + 1);
    assert_int_equal(d.tun.rep_stosb_stop, 256 * KiB);
    assert_int_equal(d.tun.rep_stosb_high_start, 4 * MiB + 1);
    assert_int_equal(d.tun.memset_masked_max, 64);
    /* ... and from 4 KiB to 256 KiB memset measures both paths as it runs */
    assert_int_equal(d.tun.memset_adaptive_start, 4 * KiB);
    assert_int_equal(d.tun.memset_adaptive_stop, 256 * KiB);
    c.l2_size = 2 * MiB; /* inside the measured span: no change */
    assert_int_equal(decide(c).tun.rep_stosb_high_start, 4 * MiB + 1);
    c.l2_size = 8 * MiB; /* a larger L2: the loop through it */
    assert_int_equal(decide(c).tun.rep_stosb_high_start, 8 * MiB + 1);
    c.l2_size = 64 * MiB; /* not believed */
    assert_int_equal(decide(c).tun.rep_stosb_high_start, 4 * MiB + 1);
    c.l2_size = 0;
    assert_int_equal(decide(c).tun.rep_stosb_high_start, 4 * MiB + 1);
    c.l2_size = MiB;
    /* 4K-aliased forward copies run backward while src + dst fit in the L1d */
    assert_int_equal(d.tun.alias_backward_stop, 24 * KiB);
    c.l1d_size = 32 * KiB; /* Zen 4's */
    assert_int_equal(decide(c).tun.alias_backward_stop, 16 * KiB);
    c.l1d_size = 0; /* not reported: assume 32 KiB */
    assert_int_equal(decide(c).tun.alias_backward_stop, 16 * KiB);
    c.l1d_size = 64 * MiB; /* absurd */
    assert_int_equal(decide(c).tun.alias_backward_stop, 16 * KiB);
}

static void test_zen3(void **s)
{
    (void)s;
    /* Zen 3: AVX2, ERMS and FSRM, but rep movsb collapses at short distances. */
    struct fc_x86_cpu c = cpu(FC_X86_AMD, 0x19, 0x21, AVX2 | FC_X86_ERMS | FC_X86_FSRM, 32 * MiB);
    struct fc_decision d = decide(c);
    expect_all(&d, "avx2");
    assert_string_equal(fc_x86_uarch(&c), "Zen 3");
    assert_int_equal(d.tun.nt_start, 24 * MiB);
    assert_true(d.tun.rep_movsb_start >= d.tun.rep_movsb_stop);
    /* no AVX-512: nothing reads memset_masked_max, which stays 0 */
    assert_int_equal(d.tun.memset_masked_max, 0);
}

static void test_intel_fsrm(void **s)
{
    (void)s;
    struct fc_x86_cpu c = cpu(FC_X86_INTEL, 6, 0x8f, AVX512 | FC_X86_ERMS | FC_X86_FSRM, 105 * MiB);
    struct fc_decision d = decide(c);
    expect_all(&d, "erms");
    assert_int_equal(d.tun.rep_movsb_start, 2048);
    assert_int_equal(d.tun.nt_start, 105 * MiB / 4); /* Intel: L3/4 */
    assert_int_equal(d.tun.rep_movsb_stop, d.tun.nt_start);
    /* one rep stosb window, [2048, nt) */
    assert_int_equal(d.tun.rep_stosb_start, 2048);
    assert_int_equal(d.tun.rep_stosb_stop, 2048);
    assert_int_equal(d.tun.rep_stosb_high_start, 2048);
}

static void test_intel_no_fsrm(void **s)
{
    (void)s;
    /* Skylake-SP: AVX-512 present, but no FSRM: AVX2, and no rep movsb. */
    struct fc_x86_cpu c = cpu(FC_X86_INTEL, 6, 0x55, AVX512 | FC_X86_ERMS, 22 * MiB);
    struct fc_decision d = decide(c);
    expect_all(&d, "avx2");
    assert_int_equal(d.tun.rep_movsb_start, 4096);
}

static void test_avx512_not_enabled_by_os(void **s)
{
    (void)s;
    /* CPUID reports AVX-512 but XCR0 lacks the ZMM state: never avx512. */
    struct fc_x86_cpu c = cpu(FC_X86_AMD, 0x19, 0x11,
                              (AVX512 & ~(uint32_t)FC_X86_OS_ZMM) | FC_X86_ERMS, 32 * MiB);
    struct fc_decision d = decide(c);
    expect_all(&d, "avx2");
    assert_false(fc_x86_usable(&c, FC_MEMCPY, (unsigned)fc_x86_variant_index(FC_MEMCPY, "avx512")));
    /* and AVX not enabled at all: SSE2 */
    c.features &= ~(uint32_t)(FC_X86_OS_YMM);
    d = decide(c);
    expect_all(&d, "sse2");
    assert_false(fc_x86_usable(&c, FC_MEMSET, (unsigned)fc_x86_variant_index(FC_MEMSET, "avx2")));
    assert_false(fc_x86_usable(&c, FC_MEMSET, (unsigned)fc_x86_variant_index(FC_MEMSET, "erms")));
}

static void test_avx2_only(void **s)
{
    (void)s;
    struct fc_x86_cpu c = cpu(FC_X86_OTHER, 6, 0x0f, AVX2, 8 * MiB);
    struct fc_decision d = decide(c);
    expect_all(&d, "avx2");
    assert_int_equal(d.tun.nt_start, 4 * MiB);
}

static void test_sse2_only(void **s)
{
    (void)s;
    struct fc_x86_cpu c = cpu(FC_X86_INTEL, 6, 0x1a, BASE, 8 * MiB);
    struct fc_decision d = decide(c);
    expect_all(&d, "sse2");
    c.features = 0;
    d = decide(c);
    expect_all(&d, "generic");
}

static void test_vm_caches(void **s)
{
    (void)s;
    uint64_t absurd[] = {0, 1, 100 * KiB, (uint64_t)4 << 40, UINT64_MAX};
    for (size_t i = 0; i < sizeof absurd / sizeof absurd[0]; i++) {
        struct fc_x86_cpu c = cpu(FC_X86_INTEL, 6, 0x8f, AVX2, absurd[i]);
        struct fc_decision d = decide(c);
        /* Assumed 32 MiB L3 -> Intel's L3/4 */
        assert_int_equal(d.tun.nt_start, 8 * MiB);
        assert_true(d.tun.rep_movsb_stop >= d.tun.rep_movsb_start);
        c.vendor = FC_X86_AMD;
        c.family = 0x19;
        d = decide(c);
        assert_int_equal(d.tun.nt_start, 24 * MiB);
    }
    /* Our VM: AMD, legacy leaf claims a 508 MiB L3 (the socket): ignored. */
    struct fc_x86_cpu c = cpu(FC_X86_AMD, 0x1a, 2, AVX512, 508 * MiB);
    struct fc_decision d = decide(c);
    assert_int_equal(d.tun.nt_start, 24 * MiB);
    char text[512];
    fc_x86_describe(&c, text, sizeof text); /* fastcopy-info says so, no "shared by 0" */
    assert_non_null(strstr(text, "L3: 508M (not plausible: 32M assumed)"));
    assert_null(strstr(text, "shared by 0"));
    /* A plausible big Intel L3 is kept; clamps hold at the edges. */
    c = cpu(FC_X86_INTEL, 6, 0x8f, AVX2, 320 * MiB);
    d = decide(c);
    assert_int_equal(d.tun.nt_start, 80 * MiB);
    c = cpu(FC_X86_OTHER, 6, 0x8f, AVX2, 512 * KiB);
    d = decide(c);
    assert_int_equal(d.tun.nt_start, MiB);
}

/* The Zen 5 VM this project was measured on: family 0x1a model 2, 48 KiB L1d,
 * 1 MiB L2, and a legacy leaf that claims a 508 MiB L3 (the socket's). */
static void test_zen5_vm(void **s)
{
    (void)s;
    struct fc_x86_cpu c = cpu(FC_X86_AMD, 0x1a, 0x02,
                              AVX512 | FC_X86_ERMS | FC_X86_FSRM | FC_X86_HYPERVISOR, 508 * MiB);
    struct fc_decision d = decide(c);
    expect_zen5(&d);
    assert_int_equal(d.tun.nt_start, 24 * MiB); /* 508 MiB ignored: 3/4 of 32 MiB */
    assert_int_equal(d.tun.rep_movsb_start, 32768);
    assert_int_equal(d.tun.rep_movsb_stop, 24 * MiB);
    assert_int_equal(d.tun.rep_stosb_start, 8 * KiB + 1);
    assert_int_equal(d.tun.rep_stosb_stop, 256 * KiB);
    assert_int_equal(d.tun.rep_stosb_high_start, 4 * MiB + 1);
    assert_int_equal(d.tun.alias_backward_stop, 24 * KiB);
    assert_int_equal(d.tun.memset_masked_max, 64); /* one masked store up to 64 B */
    /* AVX-VNNI (Zen 5 has it) changes nothing on AMD */
    c.features |= FC_X86_AVX_VNNI;
    struct fc_decision d2 = decide(c);
    assert_memory_equal(&d.tun, &d2.tun, sizeof d.tun);
    expect_zen5(&d2);
    /* The same kind of VM on 2026-12-05: its legacy leaf said 32 MiB (the CCX's)
     * and leaf 0x8000001D was filled while TOPOEXT stayed clear (the probe reads
     * the legacy leaves then).  The same decisions as with the 508 MiB claim. */
    c.l3_size = 32 * MiB;
    struct fc_decision d3 = decide(c);
    assert_memory_equal(&d.tun, &d3.tun, sizeof d.tun);
    expect_zen5(&d3);
    char text[512];
    fc_x86_describe(&c, text, sizeof text);
    assert_non_null(strstr(text, "L3: 32M\n")); /* plausible: no "assumed" note */
}

/* The Zen 1 VM this project was measured on (2026-12-04): "AMD EPYC", family 0x17
 * model 1, AVX2 without ERMS (the hypervisor hides it), topology leaves present,
 * 32 KiB L1d, 512 KiB L2, 8 MiB L3 per CCX.  avx2_keepupper everywhere (which is also
 * the body dropin_body=auto gives a library built there), no rep windows,
 * non-temporal from 3/4 of the L3; Zen 2 and Intel keep avx2 (vzeroupper). */
static void test_zen1_vm(void **s)
{
    (void)s;
    struct fc_x86_cpu c = cpu(FC_X86_AMD, 0x17, 0x01,
                              AVX2 | FC_X86_HYPERVISOR | FC_X86_TOPOEXT, 8 * MiB);
    c.l1d_size = 32 * KiB;
    c.l2_size = 512 * KiB;
    struct fc_decision d = decide(c);
    expect_all(&d, "avx2_keepupper"); /* avx2 without vzeroupper: measured there */
    assert_string_equal(fc_x86_uarch(&c), "Zen 1");
    assert_int_equal(d.tun.nt_start, 6 * MiB);
    assert_true(d.tun.rep_movsb_start >= d.tun.rep_movsb_stop);
    assert_true(d.tun.rep_stosb_start >= d.tun.nt_start);
    /* measured: backward beat forward at every size to 64 KiB */
    assert_int_equal(d.tun.alias_backward_stop, 64 * KiB + 1);
    assert_int_equal(d.tun.memset_masked_max, 0);
    /* Zen 2 (Rome, model 0x31): avx2 (not measured without vzeroupper), the
     * same thresholds but the alias limit, L1d/2 as elsewhere (not measured);
     * an Intel CPU with the same facts: avx2 */
    c.model = 0x31;
    assert_string_equal(fc_x86_uarch(&c), "Zen 2");
    struct fc_decision d2 = decide(c);
    expect_all(&d2, "avx2");
    assert_int_equal(d2.tun.alias_backward_stop, 16 * KiB);
    d2.tun.alias_backward_stop = d.tun.alias_backward_stop;
    assert_memory_equal(&d.tun, &d2.tun, sizeof d.tun);
    c.model = 0x01;
    c.vendor = FC_X86_INTEL;
    c.family = 6;
    struct fc_decision d3 = decide(c);
    expect_all(&d3, "avx2");
}

/* Intel Sapphire Rapids and later (AVX-512 + AVX-VNNI): the project's Intel VM,
 * family 6 model 0xcf (Emerald Rapids), 48 KiB L1d, 2 MiB L2, 300 MiB L3. */
static void test_intel_emerald_rapids(void **s)
{
    (void)s;
    struct fc_x86_cpu c = cpu(FC_X86_INTEL, 6, 0xcf,
                              AVX512 | FC_X86_ERMS | FC_X86_FSRM | FC_X86_AVX_VNNI |
                                  FC_X86_HYPERVISOR,
                              300 * MiB);
    c.l2_size = 2 * MiB;
    struct fc_decision d = decide(c);
    /* rep stosb wins cold there from 8 KiB with little hot loss: no adaptive window */
    assert_int_equal(d.tun.memset_adaptive_stop, 0);
    expect_all(&d, "avx512");
    assert_non_null(strstr(fc_x86_uarch(&c), "Sapphire Rapids"));
    assert_non_null(strstr(d.why[FC_MEMCPY], "rep movsb from 4 KiB"));
    assert_non_null(strstr(d.why[FC_MEMSET], "rep stosb from 8 KiB"));
    /* Intel: L3/4 = 75 MiB, but at most 32 MiB under a hypervisor (measured) */
    assert_int_equal(d.tun.nt_start, 32 * MiB);
    /* measured: rep movsb from 4 KiB, rep stosb from 8 KiB, both to nt */
    assert_int_equal(d.tun.rep_movsb_start, 4096);
    assert_int_equal(d.tun.rep_movsb_stop, 32 * MiB);
    assert_int_equal(d.tun.rep_stosb_start, 8192);
    assert_int_equal(d.tun.rep_stosb_stop, 8192);
    assert_int_equal(d.tun.rep_stosb_high_start, 8192);
    assert_int_equal(d.tun.alias_backward_stop, 0); /* forward measured faster here */
    assert_int_equal(d.tun.memset_masked_max, 64);  /* one masked store up to 64 B */
    /* the same CPU on bare metal: L3/4 (the cap is for guests only) */
    c.features &= ~(uint32_t)FC_X86_HYPERVISOR;
    d = decide(c);
    assert_int_equal(d.tun.nt_start, 75 * MiB);
    assert_int_equal(d.tun.rep_movsb_stop, 75 * MiB);
    /* a guest whose reported L3 is small already keeps L3/4 (16 MiB -> 4 MiB) */
    c.features |= FC_X86_HYPERVISOR;
    c.l3_size = 16 * MiB;
    d = decide(c);
    assert_int_equal(d.tun.nt_start, 4 * MiB);
    assert_int_equal(d.tun.rep_movsb_stop, 4 * MiB);
    c.l3_size = 300 * MiB;
    /* without the OS's ZMM state it is the AVX2 + rep movsb path again */
    c.features &= ~(uint32_t)FC_X86_OS_ZMM;
    d = decide(c);
    expect_all(&d, "erms");
    assert_int_equal(d.tun.rep_movsb_start, 2048);
}

/* Ice Lake server: AVX-512 and FSRM but no AVX-VNNI (512-bit stores still lower
 * the clock there): unchanged, "erms" with glibc's 2 KiB windows. */
static void test_intel_ice_lake(void **s)
{
    (void)s;
    struct fc_x86_cpu c = cpu(FC_X86_INTEL, 6, 0x6a, AVX512 | FC_X86_ERMS | FC_X86_FSRM, 48 * MiB);
    struct fc_decision d = decide(c);
    expect_all(&d, "erms");
    assert_int_equal(d.tun.rep_movsb_start, 2048);
    assert_int_equal(d.tun.rep_stosb_start, 2048);
    /* its own class since the profile table: the same row as "Intel with FSRM" */
    assert_string_equal(fc_x86_uarch(&c), "Intel with FSRM, AVX-512 at a lower clock");
    /* Alder Lake: AVX-VNNI without AVX-512: not the avx512 rule either */
    c = cpu(FC_X86_INTEL, 6, 0x97, AVX2 | FC_X86_ERMS | FC_X86_FSRM | FC_X86_AVX_VNNI, 30 * MiB);
    d = decide(c);
    expect_all(&d, "erms");
}

/* The classifier: Linux's model ranges, in the stated precedence. */
static void test_classify(void **s)
{
    (void)s;
    static const struct { unsigned vendor, family, model, cls; } cases[] = {
        {FC_X86_AMD, 0x15, 0x02, FC_X86_AMD_PRE_ZEN},  {FC_X86_AMD, 0x18, 0x00, FC_X86_AMD_PRE_ZEN},
        {FC_X86_AMD, 0x17, 0x00, FC_X86_ZEN1},         {FC_X86_AMD, 0x17, 0x2f, FC_X86_ZEN1},
        {FC_X86_AMD, 0x17, 0x50, FC_X86_ZEN1},         {FC_X86_AMD, 0x17, 0x30, FC_X86_ZEN2},
        {FC_X86_AMD, 0x17, 0x71, FC_X86_ZEN2},         {FC_X86_AMD, 0x17, 0x91, FC_X86_ZEN2},
        {FC_X86_AMD, 0x17, 0xa0, FC_X86_ZEN2},         {FC_X86_AMD, 0x17, 0x92, FC_X86_AMD17_OTHER},
        {FC_X86_AMD, 0x17, 0xb0, FC_X86_AMD17_OTHER},  {FC_X86_AMD, 0x19, 0x01, FC_X86_ZEN3},
        {FC_X86_AMD, 0x19, 0x21, FC_X86_ZEN3},         {FC_X86_AMD, 0x19, 0x5f, FC_X86_ZEN3},
        {FC_X86_AMD, 0x19, 0x11, FC_X86_ZEN4},         {FC_X86_AMD, 0x19, 0x61, FC_X86_ZEN4},
        {FC_X86_AMD, 0x19, 0xaf, FC_X86_ZEN4},         {FC_X86_AMD, 0x19, 0xb0, FC_X86_AMD19_OTHER},
        {FC_X86_AMD, 0x1a, 0x02, FC_X86_ZEN5},         {FC_X86_AMD, 0x1a, 0x44, FC_X86_ZEN5},
        {FC_X86_AMD, 0x1a, 0x7f, FC_X86_ZEN5},         {FC_X86_AMD, 0x1a, 0x50, FC_X86_ZEN6},
        {FC_X86_AMD, 0x1a, 0x80, FC_X86_ZEN6},         {FC_X86_AMD, 0x1a, 0xaf, FC_X86_ZEN6},
        {FC_X86_AMD, 0x1a, 0xc0, FC_X86_ZEN6},         {FC_X86_AMD, 0x1a, 0x30, FC_X86_AMD1A_OTHER},
        {FC_X86_AMD, 0x1a, 0xd0, FC_X86_AMD1A_OTHER},  {FC_X86_AMD, 0x1b, 0x00, FC_X86_AMD_NEWER},
        {FC_X86_HYGON, 0x18, 0x01, FC_X86_HYGON_DHYANA}, {FC_X86_HYGON, 0x18, 0x04, FC_X86_HYGON_DHYANA},
        {FC_X86_OTHER, 6, 0x0f, FC_X86_OTHER_X86},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct fc_x86_cpu c = cpu(cases[i].vendor, cases[i].family, cases[i].model, AVX2, 32 * MiB);
        if (fc_x86_classify(&c) != cases[i].cls)
            fail_msg("vendor %u family 0x%x model 0x%x: class %u, not %u", cases[i].vendor,
                     cases[i].family, cases[i].model, fc_x86_classify(&c), cases[i].cls);
    }
    /* Intel: by features */
    struct fc_x86_cpu c = cpu(FC_X86_INTEL, 6, 0x8f, AVX2, 32 * MiB);
    assert_int_equal(fc_x86_classify(&c), FC_X86_INTEL_PLAIN);
    c.features |= FC_X86_FSRM;
    assert_int_equal(fc_x86_classify(&c), FC_X86_INTEL_FSRM);
    c.features |= AVX512;
    assert_int_equal(fc_x86_classify(&c), FC_X86_INTEL_AVX512_SLOW_FSRM);
    c.features &= ~(uint32_t)FC_X86_FSRM;
    assert_int_equal(fc_x86_classify(&c), FC_X86_INTEL_AVX512_SLOW);
    c.features |= FC_X86_AVX_VNNI;
    assert_int_equal(fc_x86_classify(&c), FC_X86_INTEL_AVX512);
    c.features &= ~(uint32_t)FC_X86_OS_ZMM; /* not usable: not the AVX-512 classes */
    assert_int_equal(fc_x86_classify(&c), FC_X86_INTEL_PLAIN);
}

/* Zen 6 (family 0x1a models 0x50-0x5f, 0x80-0xaf, 0xc0-0xcf) is not "Zen 5": it
 * takes Zen 5's row and its why-lines say so; the same for an unlisted model. */
static void test_zen6_and_unlisted(void **s)
{
    (void)s;
    const unsigned models[] = {0x50, 0x90, 0xc0, 0x30, 0xd0};
    struct fc_x86_cpu z5 = cpu(FC_X86_AMD, 0x1a, 0x02, AVX512 | FC_X86_ERMS | FC_X86_FSRM, 32 * MiB);
    struct fc_decision d5 = decide(z5);
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        struct fc_x86_cpu c = z5;
        c.model = models[i];
        struct fc_decision d = decide(c);
        assert_string_not_equal(fc_x86_uarch(&c), "Zen 5");
        assert_memory_equal(&d.tun, &d5.tun, sizeof d.tun);
        expect_zen5(&d);
        for (int f = 0; f < FC_NFUNCS; f++)
            assert_non_null(strstr(d.why[f], "(not measured: Zen 5's row)"));
    }
    z5.model = 0x50;
    assert_string_equal(fc_x86_uarch(&z5), "Zen 6");
}

/* Hygon reports family 0x18: its label can print, and it keeps the choices it had
 * (AVX2, no rep windows, 3/4 of the L3). */
static void test_hygon(void **s)
{
    (void)s;
    struct fc_x86_cpu c = cpu(FC_X86_HYGON, 0x18, 0x01, AVX2 | FC_X86_ERMS | FC_X86_FSRM, 8 * MiB);
    struct fc_decision d = decide(c);
    assert_string_equal(fc_x86_uarch(&c), "Hygon Dhyana (Zen 1)");
    expect_all(&d, "avx2");
    assert_int_equal(d.tun.nt_start, 6 * MiB);
    assert_true(d.tun.rep_movsb_start >= d.tun.rep_movsb_stop);
    assert_true(d.tun.rep_stosb_start >= d.tun.nt_start);
    assert_int_equal(d.tun.alias_backward_stop, 24 * KiB);
    assert_non_null(strstr(d.why[FC_MEMCPY], "not measured"));
}

/* Every class's row: a class never measured says so in its why-lines, a measured
 * one names no such thing; a borrowed row is a measured or own row; each row
 * sets its windows and lists variants of its functions. */
static void test_profile_table(void **s)
{
    (void)s;
    for (unsigned k = 0; k < FC_X86_NCLASSES; k++) {
        const struct fc_x86_profile *p = &fc_x86_profiles[k];
        assert_true(p->name[0]);
        if (p->like) {
            assert_true(p->like <= FC_X86_NCLASSES);
            assert_int_equal(fc_x86_profiles[p->like - 1].like, 0);
            p = &fc_x86_profiles[p->like - 1];
        } else {
            assert_true(p->evidence[0] || p->basis[0]);
        }
        assert_true(FC_X86_IS_L3(p->nt_start) || !(p->nt_start & FC_X86_RULE));
        assert_true(p->nt_start != 0);
        assert_true(p->rep_movsb_start && p->rep_movsb_stop && p->rep_stosb_start);
        const unsigned char *lists[] = {p->memcpy, p->memmove, p->memset};
        for (int f = 0; f < FC_NFUNCS; f++)
            for (int j = 0; j < 3 && lists[f][j]; j++)
                assert_true((unsigned)(lists[f][j] & ~FC_X86_REP) - 1 < fc_x86_variant_count(f));
    }
    /* one CPU of each class: the why-lines say whether its row was measured */
    const struct fc_x86_cpu cpus[] = {
        cpu(FC_X86_AMD, 0x15, 0x02, AVX2, 32 * MiB),  cpu(FC_X86_AMD, 0x17, 0x01, AVX2, 32 * MiB),
        cpu(FC_X86_AMD, 0x17, 0x31, AVX2, 32 * MiB),  cpu(FC_X86_AMD, 0x17, 0xb0, AVX2, 32 * MiB),
        cpu(FC_X86_AMD, 0x19, 0x21, AVX2, 32 * MiB),  cpu(FC_X86_AMD, 0x19, 0x11, AVX512, 32 * MiB),
        cpu(FC_X86_AMD, 0x19, 0xb0, AVX512, 32 * MiB), cpu(FC_X86_AMD, 0x1a, 0x02, AVX512, 32 * MiB),
        cpu(FC_X86_AMD, 0x1a, 0x50, AVX512, 32 * MiB), cpu(FC_X86_AMD, 0x1a, 0x30, AVX512, 32 * MiB),
        cpu(FC_X86_AMD, 0x1b, 0x00, AVX512, 32 * MiB), cpu(FC_X86_HYGON, 0x18, 1, AVX2, 32 * MiB),
        cpu(FC_X86_INTEL, 6, 0x3c, AVX2, 32 * MiB),
        cpu(FC_X86_INTEL, 6, 0x97, AVX2 | FC_X86_FSRM, 32 * MiB),
        cpu(FC_X86_INTEL, 6, 0x55, AVX512, 32 * MiB),
        cpu(FC_X86_INTEL, 6, 0x6a, AVX512 | FC_X86_FSRM, 32 * MiB),
        cpu(FC_X86_INTEL, 6, 0xcf, AVX512 | FC_X86_AVX_VNNI, 32 * MiB),
        cpu(FC_X86_OTHER, 6, 0x0f, AVX2, 32 * MiB),
    };
    unsigned seen = 0;
    for (size_t i = 0; i < sizeof cpus / sizeof cpus[0]; i++) {
        unsigned k = fc_x86_classify(&cpus[i]);
        const struct fc_x86_profile *p = &fc_x86_profiles[k];
        int measured = !p->like && p->evidence[0];
        struct fc_decision d = decide(cpus[i]);
        seen |= 1u << k;
        for (int f = 0; f < FC_NFUNCS; f++) {
            assert_true(strncmp(d.why[f], p->name, strlen(p->name)) == 0);
            if (measured != !strstr(d.why[f], "not measured"))
                fail_msg("%s: %s", p->name, d.why[f]);
        }
    }
    assert_int_equal(seen, (1u << FC_X86_NCLASSES) - 1); /* every class above */
}

static void test_names_round_trip(void **s)
{
    (void)s;
    for (int f = 0; f < FC_NFUNCS; f++) {
        assert_int_equal(fc_x86_variant_count(f),
                         f == FC_MEMSET ? FC_X86_SET_COUNT : FC_X86_COPY_COUNT);
        for (unsigned i = 0; i < fc_x86_variant_count(f); i++)
            assert_int_equal(fc_x86_variant_index(f, fc_x86_variant_name(f, i)), (int)i);
        assert_int_equal(fc_x86_variant_index(f, "nonesuch"), -1);
        assert_string_equal(fc_x86_variant_name(f, 99), "?");
    }
}

/* The former variant names (FC_X86_VARIANTS_FORMER) name the renamed variants,
 * which the list calls by their names now; a former name is listed nowhere. */
static void test_former_variant_names(void **s)
{
    (void)s;
    for (int f = 0; f < FC_NFUNCS; f++) {
        assert_int_equal(fc_x86_variant_index(f, "avx2amd"),
                         fc_x86_variant_index(f, "avx2_keepupper"));
        assert_true(fc_x86_variant_index(f, "avx2_keepupper") >= 0);
        for (unsigned i = 0; i < fc_x86_variant_count(f); i++) {
            assert_string_not_equal(fc_x86_variant_name(f, i), "avx2amd");
            assert_string_not_equal(fc_x86_variant_name(f, i), "avx512amd");
        }
    }
    assert_int_equal(fc_x86_variant_index(FC_MEMSET, "avx512amd"), FC_X86_SET_avx512_1branch);
    assert_string_equal(fc_x86_variant_name(FC_MEMSET, FC_X86_SET_avx512_1branch), "avx512_1branch");
    assert_string_equal(fc_x86_variant_name(FC_MEMCPY, FC_X86_COPY_avx2_keepupper), "avx2_keepupper");
    /* memset only, as before */
    assert_int_equal(fc_x86_variant_index(FC_MEMCPY, "avx512amd"), -1);
    assert_int_equal(fc_x86_variant_index(FC_MEMCPY, "avx512_1branch"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zen4),          cmocka_unit_test(test_zen5),
        cmocka_unit_test(test_zen3),          cmocka_unit_test(test_intel_fsrm),
        cmocka_unit_test(test_intel_no_fsrm), cmocka_unit_test(test_avx512_not_enabled_by_os),
        cmocka_unit_test(test_avx2_only),     cmocka_unit_test(test_sse2_only),
        cmocka_unit_test(test_vm_caches),     cmocka_unit_test(test_names_round_trip),
        cmocka_unit_test(test_former_variant_names),
        cmocka_unit_test(test_zen5_vm),       cmocka_unit_test(test_intel_emerald_rapids),
        cmocka_unit_test(test_intel_ice_lake), cmocka_unit_test(test_zen1_vm),
        cmocka_unit_test(test_classify),      cmocka_unit_test(test_zen6_and_unlisted),
        cmocka_unit_test(test_hygon),         cmocka_unit_test(test_profile_table),
        cmocka_unit_test(test_every_variant_usable), /* last: every CPU above */
    };
    return cmocka_run_group_tests_name("policy_x86_64", tests, NULL, NULL);
}
