/* x86_64 selection policy: CPU facts -> variants and thresholds.
 *
 * A pure function of struct fc_x86_cpu (no CPUID here), compiled on every host so
 * test/test_policy_x86_64.c can ask it about any CPU.  The reasoning, with the
 * measurements behind it (AMD EPYC Zen 4 VM, glibc 2.36; see docs/performance.md):
 *
 * Vector width.  Zen 4 stores 32 bytes per cycle whatever the register width (L1
 * copy limit measured at 117 GB/s = 32 B x 3.66 GHz), so AVX-512 buys no bandwidth
 * there; it buys masked loads/stores, which copy any size below 64 bytes with one
 * load and one store and no size branches.  On Intel before Sapphire Rapids,
 * 512-bit stores lower the core clock, so Intel gets AVX2 unless it has FSRM (Ice
 * Lake and later), where "erms" (rep movsb for mid sizes) is what Intel tunes for.
 * Sapphire Rapids and later (AVX-512 with AVX-VNNI, glibc's tell) get "avx512",
 * measured on Emerald Rapids: see intel_full_clock_avx512 and the windows below.
 *
 * rep movsb.  On AMD Zen 3/4 it collapses when dst is 1..63 bytes after src
 * modulo 4096 (glibc bug 30994: 3.6 GB/s instead of ~90 GB/s at 4 KiB here) and
 * when dst is misaligned, and glibc >= 2.39 stops using it on AMD.  So AMD never
 * gets "erms"; where "erms" is selected it still avoids short distances.
 *
 * Non-temporal stores pay only past the last-level cache: measured here they copy
 * 64 MiB at 23-24 GB/s where glibc's cached loop gets 14.  The threshold is 3/4 of
 * the L3 that this core shares (AMD reports it per CCX, 32 MiB here -> 24 MiB;
 * AOCL uses the same fraction), and L3/4 on Intel, whose L3 is shared by the whole
 * package (glibc's choice since 2.38); at most 32 MiB on Intel Sapphire Rapids and
 * later under a hypervisor, where that package is shared with other guests
 * (measured: see nt_threshold).  VMs report zero or absurd caches (glibc
 * bugs 29953, 30428, 32470).  Our own reference VM has no topology leaves and its
 * legacy leaf 0x80000006 claims a 508 MiB L3 (the whole socket; the CCX really has
 * 32 MiB), which would start non-temporal stores at 381 MiB, worse than glibc's
 * misread 240 MiB.  So an L3 outside what one core can really share (256 KiB ..
 * 128 MiB on AMD, whose largest CCX L3 is 96 MiB with V-Cache; 256 KiB .. 1 GiB
 * elsewhere) is replaced by a typical 32 MiB, and the result is clamped to
 * [1 MiB, 768 MiB].
 */
#include "variants.h"

#define KiB ((uint64_t)1024)
#define MiB (1024 * KiB)
#define GiB (1024 * MiB)

#define L3_ASSUMED (32 * MiB)
#define NT_MIN (1 * MiB)
#define NT_MAX (768 * MiB)

static int has(const struct fc_x86_cpu *c, uint32_t bits)
{
    return (c->features & bits) == bits;
}

static int can_avx2(const struct fc_x86_cpu *c)
{
    return has(c, FC_X86_AVX | FC_X86_AVX2 | FC_X86_OS_YMM);
}

static int can_avx512(const struct fc_x86_cpu *c)
{
    /* BW for byte-masked loads/stores, VL for the EVEX 256-bit forms, BMI2 for
     * the bzhi that builds the masks. */
    return can_avx2(c) && has(c, FC_X86_AVX512F | FC_X86_AVX512BW | FC_X86_AVX512VL |
                                     FC_X86_OS_ZMM | FC_X86_BMI2);
}

/* Intel cores whose 512-bit loads and stores cost no clock speed: Sapphire Rapids
 * and later servers.  Their tell is AVX-VNNI beside AVX-512 (glibc's rule for
 * preferring 512-bit vectors, since 2.35): Skylake-SP, Cascade Lake and Ice Lake
 * have AVX-512 without AVX-VNNI and do lower the clock; Alder Lake has AVX-VNNI
 * without (enabled) AVX-512. */
static int intel_full_clock_avx512(const struct fc_x86_cpu *c)
{
    return c->vendor == FC_X86_INTEL && can_avx512(c) && has(c, FC_X86_AVX_VNNI);
}

/* fc_x86_usable (the table's requirements), the names and their look-ups. */
#define FC_VN_PREFIX(x) fc_x86_##x
#define FC_VN_TABLE FC_X86_VARIANTS
#define FC_VN_CPU struct fc_x86_cpu
#include "../variant_names.h"

const char *fc_x86_uarch(const struct fc_x86_cpu *c)
{
    if (c->vendor == FC_X86_AMD || c->vendor == FC_X86_HYGON) {
        if (c->family == 0x17) /* Zen and Zen+ below model 0x30, Zen 2 from there */
            return c->vendor == FC_X86_HYGON ? "Hygon Dhyana (Zen 1)"
                   : c->model < 0x30         ? "Zen 1"
                                             : "Zen 2";
        if (c->family == 0x19) {
            unsigned m = c->model;
            if (m <= 0x0f || (m >= 0x20 && m <= 0x5f))
                return "Zen 3";
            return "Zen 4";
        }
        if (c->family == 0x1a)
            return "Zen 5";
        if (c->family > 0x1a)
            return "AMD, newer than Zen 5";
        return "AMD, older than Zen";
    }
    if (c->vendor == FC_X86_INTEL) {
        if (intel_full_clock_avx512(c))
            return "Intel Sapphire Rapids or later (AVX-512 at full clock)";
        return has(c, FC_X86_FSRM) ? "Intel with FSRM" : "Intel";
    }
    return "x86_64";
}

static int is_zen3_or_later(const struct fc_x86_cpu *c)
{
    return (c->vendor == FC_X86_AMD || c->vendor == FC_X86_HYGON) && c->family >= 0x19;
}

/* The reported L3 size, or 0 when it is not believable (a hypervisor may report
 * none, or garbage: one VM here says 508 MiB through the legacy AMD leaf). */
static uint64_t l3_plausible(const struct fc_x86_cpu *c)
{
    int amd = c->vendor == FC_X86_AMD || c->vendor == FC_X86_HYGON;
    uint64_t l3 = c->l3_size;
    return l3 < 256 * KiB || l3 > (amd ? 128 * MiB : GiB) ? 0 : l3;
}

static uint64_t nt_threshold(const struct fc_x86_cpu *c)
{
    int amd = c->vendor == FC_X86_AMD || c->vendor == FC_X86_HYGON;
    uint64_t l3 = l3_plausible(c), t;
    if (!l3)
        l3 = L3_ASSUMED;
    if (c->vendor == FC_X86_INTEL)
        t = l3 / 4;
    else if (amd)
        t = l3 / 4 * 3;
    else
        t = l3 / 2;
    /* AMD: 3/4 of the CCX's L3, as AOCL-LibMem.  Checked on Zen 5 (family 0x1a VM,
     * 32 MiB L3; 2026-12-02) for memcpy, streaming from 2 MiB (with rep movsb
     * stopped there) against the policy: fcbench's fixed-size cells gain (8 MiB
     * 1.40x glibc against 1.09x, 16 MiB 1.89x against 1.30x, cold 4 MiB 1.45x
     * against 1.17x), but a copy followed by a read of all of dst, the same
     * buffers again and again, took 1.5-1.7x the time at 2-8 MiB (8 MiB: 440 vs
     * 287 us; the copy alone 204 vs 149 us) and 1.07x at 16 MiB.  By the rule
     * (fc_x86_policy: the worse of the regimes) cached stores stay below 24 MiB. */
    /* Non-temporal stores under a hypervisor: this VM's CPUID reports the host's
     * 300 MiB L3 (L3/4 = 75 MiB), but what it can keep cached is shared with other
     * guests: copies run at L3 speed only to ~16 MiB (13 GB/s, then 7-8 GB/s).
     * Decided by the policy's rule (fc_x86_policy): per size, the path whose worse
     * ratio (hot or cold) is smaller.  fcbench --tune (time streaming / cached): memcpy 32 MiB
     * hot 0.72 cold 0.64, 64 MiB hot 0.67; memset 32 MiB hot 0.70 cold 0.58, 64 MiB
     * hot 0.63; but memset 16 MiB hot 1.13 (cached wins).  Streaming wins both
     * regimes from 32 MiB, so against glibc (cached up to its own 114 MiB here) or
     * the best peer the answer is the same: 32 MiB.  Checked in one fcbench run
     * against the 75 MiB build (--with both): 48-64 MiB memcpy/memmove 1.24-1.36x
     * glibc against 0.97-1.03x, memset 1.24-1.43x against 0.97; and a copy or
     * memset of 32-64 MiB followed by a read of all of dst, or of its last 4 MiB
     * (what cached stores would leave in the cache), took 0.58-0.84x the time
     * (memcpy 32 MiB then read: 7.4 vs 9.2 ms), memset 32 MiB then its last 4 MiB
     * 0.98x.  Not 24 MiB: there a memset followed by a read of all of dst took
     * 1.18-1.31x the time with streaming stores (3.3-3.6 vs 2.7-2.8 ms), though the
     * fixed-size cells gained (memcpy 1.15-1.38x glibc against 0.97-1.19x).  Bare
     * metal (no hypervisor bit) keeps L3/4: not measured.  A guest with a host's L3
     * to itself (a whole-socket VM) may gain from a larger value: `fcbench --tune`
     * measures it there. */
    const uint64_t guest_cap = 32 * MiB; /* the measurement above */
    if (intel_full_clock_avx512(c) && has(c, FC_X86_HYPERVISOR) && t > guest_cap)
        t = guest_cap;
    if (t < NT_MIN)
        t = NT_MIN;
    if (t > NT_MAX)
        t = NT_MAX;
    return t;
}

/* A rule's variant, for all three functions: its copy and its memset index. */
#define PICK(name) (copy = FC_X86_COPY_##name, mset = FC_X86_SET_##name)

void fc_x86_policy(const struct fc_x86_cpu *c, struct fc_decision *d)
{
    int copy, mset;
    const char *why, *why_set = 0; /* why_set: memset's, when it differs */

    fc_bytezero(d, sizeof *d);
    /* The hot-versus-cold rule.  A threshold that trades hot calls against cold
     * ones (the rep movsb and rep stosb windows; the non-temporal threshold,
     * whose second regime is a read of dst after the call; the 4K-aliasing
     * backward limit is measured hot only) is set, per size, to the path whose
     * worse ratio (hot or cold) against the fastest measured alternative is
     * smaller.  On Zen 5 that alternative is the best peer in the same fcbench
     * run (AOCL-LibMem's vector loops hot, glibc's rep movsb/stosb cold, each
     * the same speed as ours), i.e. our two paths against each other; on
     * Emerald Rapids it was glibc.  Each threshold below carries its figures
     * and the CPU they were measured on. */
    d->tun.nt_threshold = (size_t)nt_threshold(c);
    /* The rep movsb window, used by "erms" and "avx512" for forward copies at safe
     * distances.  Intel: its start-up cost is amortised from ~2 KiB with FSRM
     * (glibc's 2112), from 4 KiB without (glibc: 2048 x vector size / 16).
     * AMD Zen 5 (measured on this project's VM): the 64-byte vector loop wins up
     * to 16 KiB (75 ns vs 120 at 16 KiB), rep movsb from 32 KiB (238 ns vs 420 at
     * 32 KiB, 2.4 vs 2.5 us at 256 KiB), even at 1 MiB; so [32 KiB, nt).  By the
     * hot-versus-cold rule of the memset windows below (`fcbench --tune -v`, five
     * runs, 2026-12-02, rep movsb's time over the loop's, hot / cold): 8 KiB 1.69
     * / 0.93, 24 KiB 1.45 / 0.87 (worse ratios 1.45 vs the loop's 1.15: the
     * loop), 32 KiB 0.57 / 0.85 and 64 KiB-1 MiB 0.72-0.92 / 0.82-0.86 (rep movsb
     * wins both).  Zen 3/4:
     * closed, as in glibc >= 2.39 and AOCL (bug 30994; misaligned dst slow too). */
    d->tun.rep_movsb_threshold = has(c, FC_X86_FSRM) ? 2048 : 4096;
    d->tun.rep_movsb_stop = d->tun.nt_threshold;
    d->tun.rep_stosb_threshold = 2048; /* glibc's figure for Intel */
    /* 4K aliasing (memmove_avx512.S, memmove_vec.h): with dst 1..255 bytes after src modulo 4096
     * a forward loop's loads wait on the stores just made; backward avoids that
     * while src and dst fit in the L1d together, and loses once they do not (the
     * L1 prefetchers follow ascending streams).  Measured on Zen 5 (48 KiB L1d),
     * src+1/dst+3: 24 KiB 153 ns backward vs 172 forward, 4 KiB 31 vs 39 ns,
     * 1 KiB 11.0 vs 15.6; but 32 KiB 530 vs 440.  So below L1d/2. */
    d->tun.alias_backward_stop =
        c->l1d_size >= 16 * KiB && c->l1d_size <= 256 * KiB ? (size_t)c->l1d_size / 2 : 16 * KiB;
    if (c->vendor == FC_X86_AMD && c->family == 0x17 && c->model < 0x30) {
        /* Zen 1 (family 0x17 model 1 VM, 32 KiB L1d; 2026-12-04): `fcbench --tune
         * -v`, 4K-aliased copies forward over backward, hot: 256-768 B 0.99-1.00,
         * 1-4 KiB 1.04-1.05, 6-16 KiB 0.98-1.01 (even), 24-64 KiB 1.24-1.26; cold
         * 1.00.  Backward never lost, so backward up to 64 KiB, the largest size
         * measured (L1d/2 would send 16-64 KiB forward: 1.24x the time). */
        d->tun.alias_backward_stop = 64 * KiB + 1;
    }
    if (c->vendor == FC_X86_AMD || c->vendor == FC_X86_HYGON) {
        if (c->family >= 0x1a && has(c, FC_X86_ERMS)) {
            d->tun.rep_movsb_threshold = 32768;
            /* memset, measured on Zen 5 (family 0x1a model 2 VM, 48 KiB L1d, 1 MiB
             * L2; 2026-12-02).  rep stosb against the 64-byte vector loop is a
             * hot-versus-cold trade at every size from 2 KiB to the L2: rep stosb
             * skips the read-for-ownership of cold lines, the loop stores twice as
             * fast into L1/L2.  The rule (the same for every such window): per
             * size, take the path whose worse ratio, hot or cold, against the best
             * peer is smaller.  The best peer hot is a vector loop (AOCL-LibMem's,
             * the same speed as ours), cold rep stosb (glibc's, the same as ours),
             * so the ratios are the two paths' against each other: `fcbench --tune
             * -v`, five runs (hot = the same buffer every call, cold = fresh lines),
             * time of rep stosb over the loop, hot / cold, and the worse ratio of
             * each path (rep stosb / loop):
             *   3 KiB 1.89 / 0.81 (1.89 / 1.23: loop), 4 KiB 1.77 / 0.74 (1.77 /
             *   1.35: loop), 6 KiB 1.69 / 0.64 (1.69 / 1.57: loop), 8 KiB 1.66 /
             *   0.59 (1.66 / 1.69: even), 12 KiB 1.62 / 0.54 (1.62 / 1.86: rep
             *   stosb), 16-128 KiB rep stosb (32 KiB 1.59 / 1.85, 128 KiB 1.35 /
             *   1.43), 256 KiB 1.31 / 0.74 (1.31 / 1.35: even), 512 KiB 1.45 /
             *   0.76 (1.45 / 1.31: loop), 1 MiB 0.92 / 0.77 (rep stosb wins both;
             *   not so when measured again, below).
             * The full fcbench run's cells against the best peer agree (4 KiB:
             * loop 1.41x glibc cold, rep stosb 1.79x AOCL hot; 8 KiB 1.49 / 1.67;
             * 16 KiB 1.75 / 1.62; 256 KiB 1.19 / 1.45) and decide the two even
             * sizes for the loop.  So the loop to 8 KiB, rep stosb above it to
             * 256 KiB, the loop again above that.  (The earlier rule here, "one
             * cold call costs what ~8 hot ones save", was in absolute time and
             * gave rep stosb all of 2-32 KiB.)
             * The second window, rep stosb from above 4 MiB to nt_threshold: inside
             * the L2 the loop wins both regimes (256-512 KiB above); from the L2 to
             * 4 MiB the same rule gives the loop, on the later readings (2026-12-06,
             * the same VM model; every reading in docs/kernels-x86_64.md, "rep
             * stosb").  Against the best peer, the worse ratio loop / rep stosb,
             * 5-process fcbench A/Bs with both AOCL builds: 1 MiB 1.18 / 1.46, 1.09
             * / 1.21, 1.22 / 1.36; 4 MiB 1.30 / 1.67, 1.32 / 1.26, 1.19-1.36 / 1.50.
             * `fcbench --tune -v`, rep stosb over the loop hot / cold: 1 MiB 0.93 /
             * 1.27, 0.91 / 1.32, 1.00 / 1.22, but 0.90 / 0.99 an hour after that and
             * 0.92 / 0.77 on 12-02 (cold 1-4 MiB moves 1.2-1.4x between runs on this
             * VM); 2 MiB 0.83 / 1.33, 4 MiB 1.07 / 1.35, 8 MiB 0.98 / 0.93, 16 MiB
             * 0.90 / 0.75 (rep stosb wins both).  Six readings for the loop at 1 MiB
             * against two, and its cold wins (1.2-1.45x) larger than rep stosb's hot
             * ones (1.0-1.15x): the loop to 4 MiB inclusive, rep stosb above.  An L2
             * larger than 4 MiB (not Zen 5's; up to 16 MiB believed) keeps the loop
             * through it. */
            d->tun.rep_stosb_threshold = 8 * KiB + 1;
            d->tun.rep_stosb_stop = 256 * KiB;
            d->tun.rep_stosb_resume =
                (c->l2_size > 4 * MiB && c->l2_size <= 16 * MiB ? (size_t)c->l2_size : 4 * MiB) + 1;
            /* No fixed window wins both regimes: by the rule above the best one
             * still loses 1.4-1.9x in one of them at every size from 4 to 128 KiB
             * (hot: rep stosb 1.6-1.9x the loop's time; cold: the loop 1.5-1.8x
             * rep stosb's; from 256 KiB the trade is small).  So from 4 KiB to
             * 256 KiB memset_avx512.S times its two paths as it runs and takes the
             * faster (the windows above decide outside it, and everywhere with
             * FASTCOPY_MEMSET_ADAPTIVE_STOP=0).  Zen 5 VM (family 0x1a model 2,
             * 2026-12-05), 3-process fcbench runs with both AOCL builds, where each
             * process alternates the hot and cold cells of a size every 200 us (the
             * adaptive path's worst case): the worse ratio (hot, cold) against the
             * best peer, fixed windows -> adaptive: 4 KiB 1.54 -> 1.23, 8 KiB 1.45
             * -> 1.13, 16 KiB 1.84 -> 1.12, 32 KiB 1.9 -> 1.18, 64 KiB 1.35 ->
             * 1.06; the fleet mixes unchanged (0.98-1.00x the time).  With the
             * window to the L2, 256 KiB went 1.04 -> 1.22 (cold: the timed calls
             * chose rep stosb, where AOCL's loop beat it; `fcbench --tune -v` the
             * same day: the loop wins both regimes at 256-512 KiB), so the window
             * ends at 256 KiB.  It starts at 4 KiB: from 2 KiB its new size test
             * split Uniform384To4096's random sizes (1.13x that mix's time). */
            if (can_avx512(c)) {
                d->tun.memset_adaptive_min = 4 * KiB;
                d->tun.memset_adaptive_stop = d->tun.rep_stosb_stop;
            }
        } else {
            d->tun.rep_movsb_threshold = d->tun.rep_movsb_stop; /* closed */
            d->tun.rep_stosb_threshold = d->tun.nt_threshold;   /* closed */
        }
        /* memset up to 64 B (the avx512 variant, Zen 4 and later): one masked
         * store behind a size branch (as on Intel below), by the same rule over
         * the regimes.  Zen 5, `fcbench --tune -v` (time with the branch over
         * without): fixed small sizes 0.82, the fleet mixes in random order 1.15
         * (their sizes mispredict the branch); against the best peer (AOCL's
         * zen4 build, one masked store without a page-end test) fixed sizes 0-64
         * went from 1.41x its time to 1.27x, the mixes replayed 512/4096 calls
         * from 18 cells behind to 2 (3-process fcbench runs), random order stays
         * ahead of it but for MemsetGoogleB.  Worse case 1.27 against 1.41.
         * Zen 4 (family 0x19 model 0x11 VM, 2026-12-03, one 3-process fcbench
         * A/B, memset groups): time with the branch over without, geometric
         * means, sizes 0-64 0.78, misaligned 0-64 0.77, cold 0.90, mixes in
         * random order 1.03 (noise), replayed 4096 / 512 calls 0.84 / 0.82;
         * cells behind the best peer 121 -> 39 (mixes 10 -> 0 of 30; worst small
         * size 1.73x AOCL zen4's time -> 1.19x).  Worse case 1.19 against 1.73.
         * (Only where the avx512 variant can run: elsewhere nothing reads it.) */
        if (can_avx512(c))
            d->tun.memset_masked_max = 64;
    }
    if (intel_full_clock_avx512(c)) {
        /* Measured on this project's Intel VM (family 6 model 0xcf, Emerald Rapids,
         * 48 KiB L1d, 2 MiB L2; "avx512" variant, fcbench 21 rounds; hot = the
         * same buffer every call, cold = fresh lines every call).  Each cut-over
         * is a hot-versus-cold trade, decided by one rule: per size, take the path
         * whose worse ratio (hot or cold) against glibc is smaller.
         * memcpy: the 64-byte loop beats rep movsb hot from 3 to 16 KiB (4 KiB
         * 33 vs 48 ns, 8 KiB 62 vs 71) but loses cold from 4 KiB (4 KiB 816 vs
         * 729 ns, 16 KiB 3075 vs 2561: rep movsb skips the read-for-ownership);
         * worse ratios at 4 KiB: loop 1.09, rep movsb 1.02; at 2 KiB: loop 1.11,
         * rep movsb 2.04 (its start-up cost: 36 vs 20 ns hot).  So [4 KiB, nt).
         * memset: the loop wins hot 3-12 KiB (4 KiB 33 vs 43 ns) and cold at
         * 4 KiB (502 vs 611 ns), rep stosb cold from 8 KiB (1000 vs 1049 ns,
         * 32 KiB 3368 vs 4202); worse ratios at 8 KiB: loop 1.10, rep stosb 0.99.
         * So rep stosb [8 KiB, nt). */
        d->tun.rep_movsb_threshold = 4096;
        d->tun.rep_stosb_threshold = 8192;
        /* 4K aliasing: the backward copy that helps Zen loses here.  4 KiB
         * copies with dst 1..63 bytes after src modulo 4096, same run: forward
         * 42-44 ns, backward 45-52 ns (glibc 47-53); memmove dst = src + 4096:
         * 33.5 vs 38.4 ns.  So never (0). */
        d->tun.alias_backward_stop = 0;
        /* memset below 64 bytes: one masked store behind a size branch instead of
         * the branch-free four stores (memset_avx512.S).  Same rule, over the
         * regimes: time / best peer's (geometric means, one run, MemsetGoogle*
         * mixes and sizes 0-4096): hot fixed sizes 1.19 with the branch vs 1.69
         * without, misaligned 1.17 vs 1.67, cold 1.04 vs 1.10, mixes replayed
         * 4096 / 512 calls 1.05 / 1.15 vs 1.10 / 1.40, random order 0.98 vs 0.92:
         * worse case 1.19 vs 1.69.  (Zen 5 sets it too, by the same rule:
         * see above.) */
        d->tun.memset_masked_max = 64;
    }
    if (!d->tun.rep_stosb_stop) /* one window: [rep_stosb_threshold, nt_threshold) */
        d->tun.rep_stosb_stop = d->tun.rep_stosb_resume = d->tun.rep_stosb_threshold;

    if (can_avx512(c) && is_zen3_or_later(c)) {
        int zen5 = c->family >= 0x1a && has(c, FC_X86_ERMS);
        PICK(avx512);
        why = zen5 ? ": AVX-512 enabled: masked small sizes, 64-byte loop, rep movsb only from "
                     "32 KiB at safe distances (measured)"
                   : ": AVX-512 enabled: masked small sizes, 64-byte loop; rep movsb off "
                     "(glibc bug 30994)";
        /* memset's rule differs: its own sizes, rep stosb, not rep movsb.  Zen 5:
         * "avx512amd", the same memset behind a one-branch entry (memset_avx512.S:
         * up to 64 B one compare, the page-end test folded into it, and the masked
         * store; 65..255 B plain stores behind it).  By the worse-ratio rule over
         * the regimes (5-process fcbench A/Bs with both AOCL builds, Zen 5 VM,
         * family 0x1a model 2, 2026-12-05): the worst cells against the best
         * peer went from 1.26-1.35x (fixed 0-64 B and the 512/4096-call mixes,
         * against AOCL zen4's one-branch path) to 1.14x (MemsetGoogleW in
         * random order, where the old entry's branch-free 0-255 B path was
         * ahead), and the memset cells behind the best peer from 117-166 to
         * 14-33 of 226 (the final A/B, 2026-12-06: 149 -> 13 of 226, worst
         * 1.28x: 96/128 B against glibc's two stores).  Zen 4 keeps avx512's
         * entry: not measured there (a size test first lost the mixes on
         * Intel, 1.07-1.19x). */
        if (zen5)
            mset = FC_X86_SET_avx512amd;
        why_set = zen5 ? ": AVX-512 enabled: one compare and one masked store to 64 B, plain "
                         "stores to 255 B, 64-byte loop or rep stosb, timed as it runs from 4 "
                         "to 256 KiB"
                       : ": AVX-512 enabled: one masked store to 64 B, branch-free to 255 B, "
                         "64-byte loop; rep stosb off (glibc bug 30994)";
    } else if (intel_full_clock_avx512(c) && has(c, FC_X86_ERMS)) {
        /* Measured on Emerald Rapids (see the thresholds above): against "erms"
         * (AVX2 + rep movsb) the fleet memcpy mixes go from 0.87-1.17x glibc to
         * 1.66-3.29x, memmove 0.88-1.11x -> 1.62-3.03x, memset 0.37-1.07x ->
         * 0.99-1.72x (the masked small sizes; glibc's own choice here is its
         * avx512 variant too). */
        PICK(avx512);
        why = ": masked small sizes, 64-byte loop, rep movsb from 4 KiB (measured)";
        why_set = ": one masked store to 64 B, branch-free to 255 B, 64-byte loop, rep stosb "
                  "from 8 KiB (measured)";
    } else if (c->vendor == FC_X86_INTEL && has(c, FC_X86_FSRM) && can_avx2(c) &&
               has(c, FC_X86_ERMS)) {
        PICK(erms);
        why = ": Intel with FSRM: AVX2 vectors, rep movsb/stosb for mid sizes";
    } else if (can_avx2(c) && c->vendor == FC_X86_AMD && c->family == 0x17 && c->model < 0x30) {
        /* Zen 1 and Zen+: avx2 without vzeroupper, which cost ~3 cycles a call
         * on this project's Zen 1 VM (family 0x17 model 1, 2026-12-04; one
         * 3-process fcbench run against avx2: copies of 65-512 B 0.94x the
         * time, 96-128 B 1.19-1.21x glibc's speed against 0.99-1.00x, memset
         * 65-512 B 0.93x; AMD cores pay nothing for the dirty upper state in
         * SSE code that follows, and AOCL-LibMem's AVX2 code never clears it).
         * Zen 2 and 3 (256-bit units) keep avx2: not measured. */
        PICK(avx2amd);
        why = ": AVX2 enabled by the OS, no vzeroupper (Zen 1: measured); rep movsb avoided";
    } else if (can_avx2(c)) {
        PICK(avx2);
        why = c->vendor == FC_X86_INTEL
                  ? ": AVX2 (512-bit stores cost clock speed on Intel without FSRM)"
                  : ": AVX2 enabled by the OS; rep movsb avoided";
    } else if (has(c, FC_X86_SSE2)) {
        PICK(sse2);
        why = ": no OS-enabled AVX2: 16-byte SSE2 vectors";
    } else {
        PICK(generic);
        why = ": no SSE2 reported: portable C";
    }
    for (int f = 0; f < FC_NFUNCS; f++)
        fc_decision_set(d, f, f == FC_MEMSET ? mset : copy, fc_x86_uarch(c),
                        f == FC_MEMSET && why_set ? why_set : why);
}

void fc_x86_describe(const struct fc_x86_cpu *c, char *buf, size_t cap)
{
    static const char vendors[][8] = {"other", "Intel", "AMD", "Hygon"};
    static const struct { uint32_t bit; char name[12]; } feats[] = {
        {FC_X86_SSE2, "sse2"},         {FC_X86_SSSE3, "ssse3"},       {FC_X86_AVX, "avx"},
        {FC_X86_AVX2, "avx2"},         {FC_X86_BMI2, "bmi2"},         {FC_X86_AVX512F, "avx512f"},
        {FC_X86_AVX512BW, "avx512bw"}, {FC_X86_AVX512VL, "avx512vl"}, {FC_X86_ERMS, "erms"},
        {FC_X86_FSRM, "fsrm"},         {FC_X86_OS_YMM, "os-ymm"},     {FC_X86_OS_ZMM, "os-zmm"},
        {FC_X86_HYPERVISOR, "hypervisor"}, {FC_X86_AVX_VNNI, "avx-vnni"},
        {FC_X86_TOPOEXT, "topoext"},
    };
    buf[0] = 0;
    fc_strcat(buf, cap, "vendor: ");
    fc_strcat(buf, cap, vendors[c->vendor < 4 ? c->vendor : 0]);
    fc_strcat_num(buf, cap, "\nfamily/model: ", c->family, 0);
    fc_strcat_num(buf, cap, "/", c->model, 0);
    fc_strcat(buf, cap, " (");
    fc_strcat(buf, cap, fc_x86_uarch(c));
    fc_strcat(buf, cap, ")\nfeatures:");
    for (size_t i = 0; i < sizeof feats / sizeof feats[0]; i++)
        if (c->features & feats[i].bit) {
            fc_strcat(buf, cap, " ");
            fc_strcat(buf, cap, feats[i].name);
        }
    fc_strcat_num(buf, cap, "\nL1d: ", c->l1d_size, 0);
    fc_strcat_num(buf, cap, "  L2: ", c->l2_size, 0);
    fc_strcat_num(buf, cap, "  L3: ", c->l3_size, 0);
    if (!l3_plausible(c)) {
        fc_strcat_num(buf, cap, " (not plausible: ", L3_ASSUMED, 0);
        fc_strcat(buf, cap, " assumed)");
    }
    if (c->l3_sharing) {
        fc_strcat_num(buf, cap, " shared by ", c->l3_sharing, 0);
        fc_strcat(buf, cap, " logical CPUs");
    }
    fc_strcat(buf, cap, "\n");
}

/* "x86_64 Intel family 6 model 207 stepping 2, L1d 48K, L2 2M, L3 300M": what a
 * tuning file must have been measured on (the thresholds depend on the core and
 * the cache sizes). */
void fc_x86_identity(const struct fc_x86_cpu *c, char *buf, size_t cap)
{
    static const char vendors[][8] = {"other", "Intel", "AMD", "Hygon"};
    buf[0] = 0;
    fc_strcat(buf, cap, "x86_64 ");
    fc_strcat(buf, cap, vendors[c->vendor < 4 ? c->vendor : 0]);
    fc_strcat_num(buf, cap, " family ", c->family, 0);
    fc_strcat_num(buf, cap, " model ", c->model, 0);
    fc_strcat_num(buf, cap, " stepping ", c->stepping, 0);
    fc_strcat_num(buf, cap, ", L1d ", c->l1d_size, 0);
    fc_strcat_num(buf, cap, ", L2 ", c->l2_size, 0);
    fc_strcat_num(buf, cap, ", L3 ", c->l3_size, 0);
}
