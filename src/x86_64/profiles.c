/* profiles.c - x86_64: which class a CPU is, and each class's row.
 *
 * A new CPU is one line in fc_x86_classify, one row in fc_x86_profiles and one
 * test in test/test_policy_x86_64.c.  A row's readings are on its evidence page,
 * docs/evidence/<evidence>.md; a row without one was never measured, and its
 * why-lines say so.  The rule every window was chosen by: per size, the path whose
 * worse ratio (hot or cold) against the fastest alternative is smaller.
 * Model ranges: Linux's (arch/x86/kernel/cpu/amd.c). */
#include "profiles.h"

#define KiB ((uint64_t)1024)
#define MiB (1024 * KiB)

static int has(const struct fc_x86_cpu *c, uint32_t bits)
{
    return (c->features & bits) == bits;
}

static int in(unsigned v, unsigned lo, unsigned hi)
{
    return v >= lo && v <= hi;
}

/* The first line that matches, in this order. */
unsigned fc_x86_classify(const struct fc_x86_cpu *c)
{
    unsigned f = c->family, m = c->model;
    uint32_t avx512 = FC_X86_AVX | FC_X86_AVX2 | FC_X86_OS_YMM | FC_X86_AVX512F |
                      FC_X86_AVX512BW | FC_X86_AVX512VL | FC_X86_OS_ZMM | FC_X86_BMI2;
    if (c->vendor == FC_X86_HYGON) /* reports family 0x18 */
        return FC_X86_HYGON_DHYANA;
    if (c->vendor == FC_X86_AMD) {
        if (f < 0x17 || f == 0x18)
            return FC_X86_AMD_PRE_ZEN;
        if (f == 0x17 && (m <= 0x2f || in(m, 0x50, 0x5f)))
            return FC_X86_ZEN1;
        if (f == 0x17 && (in(m, 0x30, 0x4f) || in(m, 0x60, 0x7f) || in(m, 0x90, 0x91) ||
                          in(m, 0xa0, 0xaf)))
            return FC_X86_ZEN2;
        if (f == 0x19 && (m <= 0x0f || in(m, 0x20, 0x5f)))
            return FC_X86_ZEN3;
        if (f == 0x19 && (in(m, 0x10, 0x1f) || in(m, 0x60, 0xaf)))
            return FC_X86_ZEN4;
        if (f == 0x1a && (m <= 0x2f || in(m, 0x40, 0x4f) || in(m, 0x60, 0x7f)))
            return FC_X86_ZEN5;
        if (f == 0x1a && (in(m, 0x50, 0x5f) || in(m, 0x80, 0xaf) || in(m, 0xc0, 0xcf)))
            return FC_X86_ZEN6;
        return f == 0x17   ? FC_X86_AMD17_OTHER
               : f == 0x19 ? FC_X86_AMD19_OTHER
               : f == 0x1a ? FC_X86_AMD1A_OTHER
                           : FC_X86_AMD_NEWER;
    }
    if (c->vendor == FC_X86_INTEL) {
        /* AVX-VNNI beside AVX-512: Sapphire Rapids and later (glibc's tell) */
        if (has(c, avx512 | FC_X86_AVX_VNNI))
            return FC_X86_INTEL_AVX512;
        if (has(c, avx512))
            return has(c, FC_X86_FSRM) ? FC_X86_INTEL_AVX512_SLOW_FSRM : FC_X86_INTEL_AVX512_SLOW;
        return has(c, FC_X86_FSRM) ? FC_X86_INTEL_FSRM : FC_X86_INTEL_PLAIN;
    }
    return FC_X86_OTHER_X86;
}

#define NT FC_X86_NT
#define COPIES(...) .memcpy = {__VA_ARGS__}, .memmove = {__VA_ARGS__}
#define LIKE(cls) .like = (cls) + 1
/* rep movsb and rep stosb never on AMD: glibc bug 30994 (dst 1..63 B after src
 * mod 4096: 1137 ns against 47 at 4 KiB, Zen 4; docs/evidence/zen4.md). */
#define REP_OFF .rep_movsb_start = NT, .rep_movsb_stop = NT, .rep_stosb_start = NT
/* Non-temporal from 3/4 of the L3 this CCX shares (AOCL's fraction): 64 MiB at
 * 23-24 GB/s where cached stores get 14 (Zen 4; docs/evidence/zen4.md). */
#define AMD_NT .nt_start = FC_X86_L3(3, 4)
#define INTEL_NT .nt_start = FC_X86_L3(1, 4) /* glibc's since 2.38 */

const struct fc_x86_profile fc_x86_profiles[FC_X86_NCLASSES] = {
    [FC_X86_AMD_PRE_ZEN] = {.name = "AMD, older than Zen", .basis = "AMD's rep rule",
        REP_OFF, AMD_NT, .alias_backward_stop = FC_X86_L1D_HALF, .memset_masked_max = 64},
    /* avx2_keepupper (no vzeroupper): 65-512 B copies 0.94x avx2's time; 4K-aliased
     * copies backward to 64 KiB (forward 1.24x the time at 24-64 KiB).  Zen 1,
     * family 0x17 model 1; docs/evidence/zen1.md. */
    [FC_X86_ZEN1] = {.name = "Zen 1", .evidence = "zen1", COPIES(FC_X86_COPY(avx2_keepupper)),
        .memset = {FC_X86_SET(avx2_keepupper)}, REP_OFF, AMD_NT,
        .alias_backward_stop = 64 * KiB + 1, .memset_masked_max = 64},
    [FC_X86_ZEN2] = {.name = "Zen 2", .basis = "AMD's rep rule", REP_OFF, AMD_NT,
        .alias_backward_stop = FC_X86_L1D_HALF, .memset_masked_max = 64},
    [FC_X86_AMD17_OTHER] = {.name = "AMD family 0x17, unlisted model", LIKE(FC_X86_ZEN2)},
    /* Zen 3 has no AVX-512; fcbench readings, no row yet: docs/evidence/zen3.md. */
    [FC_X86_ZEN3] = {.name = "Zen 3", .basis = "Zen 4's choices", COPIES(FC_X86_COPY(avx512)),
        .memset = {FC_X86_SET(avx512)}, REP_OFF, AMD_NT,
        .alias_backward_stop = FC_X86_L1D_HALF, .memset_masked_max = 64},
    /* avx512: masked loads/stores below 64 B, no size branches (stores are 32 B a
     * cycle at any width); memset one masked store to 64 B (small sizes 1.73x
     * -> 1.19x AOCL's time).  Zen 4, family 0x19 model 0x11; docs/evidence/zen4.md. */
    [FC_X86_ZEN4] = {.name = "Zen 4", .evidence = "zen4", COPIES(FC_X86_COPY(avx512)),
        .memset = {FC_X86_SET(avx512)}, REP_OFF, AMD_NT, .memset_masked_max = 64,
        /* 4K-aliased copies forward, never backward: numpy's row gathers 1.15x ->
         * 1.01x glibc's CPU time, sqlite's BLOB reads 1.25x -> 1.08x; no fcbench
         * dist cell proven apart (docs/real-programs.md) */
        .alias_backward_stop = 0,
        /* the loop on 32-byte vectors: sqlite 1.085x -> 1.007x, numpy, lua and
         * perl 3-5% faster; sizes 1-64 KiB hot 0.98-1.00x the time */
        .loop32_start = 1024},
    [FC_X86_AMD19_OTHER] = {.name = "AMD family 0x19, unlisted model", LIKE(FC_X86_ZEN4)},
    /* Zen 5, family 0x1a model 2; every figure: docs/evidence/zen5.md. */
    [FC_X86_ZEN5] = {.name = "Zen 5", .evidence = "zen5", .flags = FC_X86_REP_NEEDS_ERMS,
        COPIES(FC_X86_COPY(avx512)),
        /* avx512_1branch, one compare to 64 B: worst memset cell against the best peer
         * 1.26-1.35x -> 1.14x */
        .memset = {FC_X86_SET(avx512_1branch) | FC_X86_REP, FC_X86_SET(avx512)},
        AMD_NT, .alias_backward_stop = FC_X86_L1D_HALF, .memset_masked_max = 64,
        /* rep movsb from 32 KiB: 238 ns against the loop's 420 there; the loop
         * 75 ns against 120 at 16 KiB */
        .rep_movsb_start = 32 * KiB, .rep_movsb_stop = NT,
        /* memset: loop to 8 KiB, rep stosb to 256 KiB, loop to 4 MiB (or an L2 of
         * 4-16 MiB), rep stosb above.  Worse ratios rep stosb / loop: 4 KiB 1.77 /
         * 1.35, 32 KiB 1.59 / 1.85; 1 MiB: the loop's cold wins 1.2-1.45x against
         * rep stosb's hot 1.0-1.15x */
        .rep_stosb_start = 8 * KiB + 1, .rep_stosb_stop = 256 * KiB,
        .rep_stosb_high_start = FC_X86_L2_4M,
        /* 4-256 KiB timed as it runs: no fixed window wins both regimes (worse
         * ratio 1.54 -> 1.23 at 4 KiB, 1.84 -> 1.12 at 16 KiB) */
        .memset_adaptive_start = 4 * KiB, .memset_adaptive_stop = 256 * KiB},
    [FC_X86_ZEN6] = {.name = "Zen 6", LIKE(FC_X86_ZEN5)},
    [FC_X86_AMD1A_OTHER] = {.name = "AMD family 0x1a, unlisted model", LIKE(FC_X86_ZEN5)},
    [FC_X86_AMD_NEWER] = {.name = "AMD, family 0x1b or later", LIKE(FC_X86_ZEN5)},
    [FC_X86_HYGON_DHYANA] = {.name = "Hygon Dhyana (Zen 1)", .basis = "AMD's rep rule",
        REP_OFF, AMD_NT, .alias_backward_stop = FC_X86_L1D_HALF, .memset_masked_max = 64},
    /* Intel before Sapphire Rapids: glibc's windows, rep movsb from 2 KiB with
     * FSRM (its 2112), 4 KiB without; AVX2 (512-bit stores lower the clock) */
    [FC_X86_INTEL_PLAIN] = {.name = "Intel", .basis = "glibc's windows", INTEL_NT,
        .rep_movsb_start = 4 * KiB, .rep_movsb_stop = NT, .rep_stosb_start = 2 * KiB,
        .alias_backward_stop = FC_X86_L1D_HALF},
    [FC_X86_INTEL_FSRM] = {.name = "Intel with FSRM", .basis = "glibc's windows",
        COPIES(FC_X86_COPY(erms)), .memset = {FC_X86_SET(erms)}, INTEL_NT,
        .rep_movsb_start = 2 * KiB, .rep_movsb_stop = NT, .rep_stosb_start = 2 * KiB,
        .alias_backward_stop = FC_X86_L1D_HALF},
    [FC_X86_INTEL_AVX512_SLOW] = {.name = "Intel, AVX-512 at a lower clock",
        LIKE(FC_X86_INTEL_PLAIN)},
    [FC_X86_INTEL_AVX512_SLOW_FSRM] = {.name = "Intel with FSRM, AVX-512 at a lower clock",
        LIKE(FC_X86_INTEL_FSRM)},
    /* Emerald Rapids, family 6 model 0xcf; every figure:
     * docs/evidence/intel-emerald-rapids.md.  avx512 over erms: fleet memcpy
     * mixes 0.87-1.17x -> 1.66-3.29x glibc's speed. */
    [FC_X86_INTEL_AVX512] = {.name = "Intel Sapphire Rapids or later (AVX-512 at full clock)",
        .evidence = "intel-emerald-rapids", COPIES(FC_X86_COPY(avx512) | FC_X86_REP),
        .memset = {FC_X86_SET(avx512) | FC_X86_REP}, INTEL_NT,
        /* a guest shares the host's L3: streaming from 32 MiB (0.58-0.84x the
         * time at 32-64 MiB; memset then read at 24 MiB 1.18-1.31x) */
        .nt_guest_cap = 32 * MiB,
        /* worse ratios at 4 KiB: loop 1.09, rep movsb 1.02; memset at 8 KiB:
         * loop 1.10, rep stosb 0.99 */
        .rep_movsb_start = 4 * KiB, .rep_movsb_stop = NT, .rep_stosb_start = 8 * KiB,
        /* 4K-aliased copies: forward 42-44 ns, backward 45-52 ns at 4 KiB */
        .alias_backward_stop = 0,
        /* one masked store to 64 B: small sizes 1.19x the best peer's time, 1.69 without */
        .memset_masked_max = 64},
    [FC_X86_OTHER_X86] = {.name = "x86_64", .basis = "glibc's windows",
        .nt_start = FC_X86_L3(1, 2), .rep_movsb_start = FC_X86_FSRM_2K,
        .rep_movsb_stop = NT, .rep_stosb_start = 2 * KiB,
        .alias_backward_stop = FC_X86_L1D_HALF},
};
