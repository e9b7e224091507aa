/* aarch64 selection policy: CPU facts -> variants and thresholds.
 *
 * A pure function of struct fc_a64_cpu (no system register reads here), compiled on
 * every host so test/test_policy_aarch64.c can ask it about any arm64 CPU.
 *
 * Order, per function (memcpy, memmove and memset alike):
 *   1. mops     HWCAP2_MOPS (bit 43).  The copy/set is then one instruction
 *               sequence the core itself tunes (size classes, alignment, DC ZVA-like
 *               zeroing); nothing we write in software can know more.  glibc puts
 *               it first for the same reason.
 *   2. sve      HWCAP_SVE, and either the core is A64FX, or the vector length is
 *               at least 256 bits and the kernel keeps the SVE state across system
 *               calls.  At 128 bits (Neoverse N2/V2, QEMU max,sve128) an SVE load
 *               moves 16 bytes where ldp q moves 32: under QEMU the sve kernels took
 *               10251 instructions for a 64 KiB copy there against simd's 5649 and
 *               glibc's 8198, and 33.8 against 28.4 (glibc) on the GoogleA mix.
 *               Linux 4.15-6.1 (5.14 excepted) drops the state at every syscall and the next SVE instruction traps
 *               to re-enable it, a kernel round trip per syscall+copy pair in the
 *               programs that make many of both; glibc (>= 2.39) avoids its SVE
 *               string functions there.  A64FX is the exception, as in glibc: its
 *               Advanced SIMD path is 128 bits wide on a core built around 512-bit
 *               loads and stores, so SVE moves 4x the bytes per instruction and is
 *               worth the trap.  A kernel version we could not read (0) counts as
 *               one that keeps the state (only pre-4.15 kernels lack uname release
 *               numbers we parse, and those have no SVE support at all).
 *               Neoverse V1 (SVE 256 bits) takes sve for copies, simd for memset:
 *               a stp q stores the 32 bytes of a 256-bit st1b without a whilelo
 *               first; llvm-mca's V1 model: memset mixes 8.6-10.6 cycles a call
 *               with simd, 11.9-13.4 with sve (glibc 9.0-12.5); docs/aarch64.md.
 *   3. simd     HWCAP_ASIMD: q-register pairs, 32 bytes per instruction.  Chosen on
 *               in-order Cortex-A53 as well as on the out-of-order A57/A72/N1: the
 *               A53 issues one 128-bit store per 2 cycles and one 64-bit store per
 *               cycle, so q pairs move the same bytes per cycle as x pairs with
 *               half the instructions, which is what a dual-issue in-order core is
 *               short of.  No A53 is available here to time it; under QEMU
 *               (instruction counts, docs/aarch64.md) simd needs about half the
 *               instructions of ldp_stp from 128 bytes up.
 *   4. ldp_stp  general-register pairs: the fallback for a kernel/CPU without
 *               ASIMD (rare: some soft-float or FP-disabled configurations).
 *   (generic, the portable C kernel, is never chosen: ldp_stp is always usable.)
 *
 * DC ZVA (memset of zero, variants ldp_stp, simd and sve).  The block size is
 * 4 << DCZID_EL0[3:0] bytes; DZP (bit 4) set means DC ZVA raises SIGILL, so then
 * zva_size = 0 and memset never uses it.  The zeroing routine handles any power of
 * two from 64 to 2048 bytes (the largest DCZID can describe); smaller blocks (16,
 * 32 bytes) zero no more per instruction than one stp of q registers does, so they
 * are treated as absent and memset uses stores.
 *
 * The cut-over (zva_start) is max(512, 4 x block): 512 B for 64- and 128-byte
 * blocks, 2 KiB on QEMU's max (512); A64FX (256) takes 8 x block, 2 KiB (below).
 * Reasoning: DC ZVA zeroes a whole aligned block, so the routine first stores up
 * to a block at each end; with n >= 4 blocks at least half of the bytes go
 * through DC ZVA in the worst alignment.  Below that the win is a line fill
 * avoided per block, against ~25 instructions of set-up: counted under QEMU, the
 * DC ZVA loop executes about the same instructions per byte as the stp q loop at
 * 64-byte blocks (2.5 vs 3 per 64 bytes), so instruction counts cannot justify it;
 * only the memory system can.
 * Published choices for 64-byte blocks are 129 B (the current memset of ARM's
 * optimized-routines: DC ZVA past 128 bytes, for 64-byte blocks only), 256 B
 * (HotSpot's BlockZeroingLowLimit, from its DC ZVA measurements on partners'
 * cores: a large win on two, nothing on the third; raised to 4 x block on larger
 * blocks) and 512 B (the DC_ZVA_THRESHOLD of that memset's 2012-2020 versions); we
 * take the largest, which keeps at least 7 whole lines per DC ZVA call at any
 * alignment.  No arm64
 * hardware is available to this project to time it (QEMU counts instructions but
 * cannot time a cache-line allocation), so the figure is inherited, not measured
 * here, and overridable: FASTCOPY_ZVA_START.
 * A64FX: 8 blocks (measured, in instruction counts).  Its sve memset stores 64 bytes
 * per instruction, and there 4 blocks (1 KiB) of zeros took 47-49 instructions
 * through DC ZVA against 33 for the store loop and 42 for glibc 2.36's A64FX memset
 * (which uses DC ZVA only from 8 MiB); from 1.2 KiB the DC ZVA path is at or below
 * glibc, from 2 KiB at the store loop's count (57-59 against 57) and below it after
 * (77-79 against 101 at 4 KiB).  On QEMU's max (512-byte blocks, the same 64-byte
 * vectors) 4 blocks are already at or below glibc, and 8 (4 KiB) would leave 3.5-4
 * KiB of zeros to the store loop, 99 against glibc's 98 there; so the rule is
 * A64FX's alone.
 */
#include "variants.h"

#if __SIZEOF_SIZE_T__ == 8 /* the offsets are for LP64, the only aarch64 Linux ABI built */
#endif

#define ZVA_MIN 64u
#define ZVA_MAX 2048u
#define ZVA_FLOOR 512u

#define IMPL_ARM 0x41u
#define IMPL_FUJITSU 0x46u

static const struct {
    unsigned char impl;
    unsigned short part;
    char name[16];
} fc_a64_cores[] = {
    {IMPL_ARM, 0xd03, "Cortex-A53"},  {IMPL_ARM, 0xd04, "Cortex-A35"},
    {IMPL_ARM, 0xd05, "Cortex-A55"},  {IMPL_ARM, 0xd07, "Cortex-A57"},
    {IMPL_ARM, 0xd08, "Cortex-A72"},  {IMPL_ARM, 0xd09, "Cortex-A73"},
    {IMPL_ARM, 0xd0a, "Cortex-A75"},  {IMPL_ARM, 0xd0b, "Cortex-A76"},
    {IMPL_ARM, 0xd0c, "Neoverse N1"}, {IMPL_ARM, 0xd40, "Neoverse V1"},
    {IMPL_ARM, 0xd49, "Neoverse N2"}, {IMPL_ARM, 0xd4f, "Neoverse V2"},
    {IMPL_FUJITSU, 0x001, "A64FX"},
};

const char *fc_a64_core(const struct fc_a64_cpu *c)
{
    if (!(c->hwcap & FC_A64_HWCAP_CPUID) || c->midr == 0)
        return "arm64 (MIDR not readable)";
    for (unsigned i = 0; i < sizeof fc_a64_cores / sizeof fc_a64_cores[0]; i++)
        if (FC_A64_MIDR_IMPL(c->midr) == fc_a64_cores[i].impl &&
            FC_A64_MIDR_PART(c->midr) == fc_a64_cores[i].part)
            return fc_a64_cores[i].name;
    return "arm64";
}

static int is_neoverse_v1(const struct fc_a64_cpu *c)
{
    return (c->hwcap & FC_A64_HWCAP_CPUID) && FC_A64_MIDR_IMPL(c->midr) == IMPL_ARM &&
           FC_A64_MIDR_PART(c->midr) == 0xd40;
}

static int is_a64fx(const struct fc_a64_cpu *c)
{
    return (c->hwcap & FC_A64_HWCAP_CPUID) && FC_A64_MIDR_IMPL(c->midr) == IMPL_FUJITSU &&
           FC_A64_MIDR_PART(c->midr) == 0x001;
}

int fc_a64_kernel_keeps_sve(uint32_t kver)
{
    if (kver == 0)
        return 1;
    if (kver >= FC_A64_KVER(5, 14, 0) && kver < FC_A64_KVER(5, 15, 0))
        return 1;
    return kver < FC_A64_KVER(4, 15, 0) || kver >= FC_A64_KVER(6, 2, 0);
}

static int has_sve(const struct fc_a64_cpu *c)
{
    /* The kernels need a vector length the architecture allows (16..256 bytes,
     * a multiple of 16); anything else means the facts are not trustworthy. */
    return (c->hwcap & FC_A64_HWCAP_SVE) && c->sve_vl >= 16 && c->sve_vl <= 256 &&
           c->sve_vl % 16 == 0;
}

/* fc_a64_usable (the table's requirements), the names and their look-ups. */
#define FC_VN_PREFIX(x) fc_a64_##x
#define FC_VN_TABLE FC_A64_VARIANTS
#define FC_VN_CPU struct fc_a64_cpu
#include "../variant_names.h"

/* The DC ZVA block size memset may use: 0 when prohibited or not handled. */
static unsigned zva_size(const struct fc_a64_cpu *c)
{
    unsigned z = 4u << FC_A64_DCZID_BS(c->dczid);
    if (c->dczid & FC_A64_DCZID_DZP)
        return 0;
    return z >= ZVA_MIN && z <= ZVA_MAX ? z : 0;
}

/* A rule's variant, for all three functions: its copy and its memset index. */
#define PICK(name) (copy = FC_A64_COPY_##name, mset = FC_A64_SET_##name)

void fc_a64_policy(const struct fc_a64_cpu *c, struct fc_decision *d)
{
    const char *core = fc_a64_core(c), *why;
    int copy, mset;
    unsigned z = zva_size(c);

    fc_bytezero(d, sizeof *d);
    d->tun.zva_size = z;
    unsigned blocks = is_a64fx(c) ? 8 : 4; /* see the top of the file */
    d->tun.zva_start = z ? (blocks * z > ZVA_FLOOR ? blocks * z : ZVA_FLOOR) : (size_t)-1;

    if (c->hwcap2 & FC_A64_HWCAP2_MOPS) {
        PICK(mops);
        why = ": FEAT_MOPS (HWCAP2_MOPS): cpyp/cpym/cpye and setp/setm/sete";
    } else if (has_sve(c) && is_a64fx(c)) {
        PICK(sve);
        why = ": 512-bit SVE on a core whose Advanced SIMD is 128 bits wide";
    } else if (has_sve(c) && c->sve_vl >= 32 && fc_a64_kernel_keeps_sve(c->kver)) {
        PICK(sve);
        why = ": SVE of 256 bits or more, and the kernel keeps SVE state across "
              "syscalls: predicated copies, no size branches up to 2 vectors";
    } else if (c->hwcap & FC_A64_HWCAP_ASIMD) {
        PICK(simd);
        why = !has_sve(c) ? ": Advanced SIMD q-register pairs, 128 bytes per loop"
              : c->sve_vl < 32 ? ": SVE is only 128 bits wide here: q-register pairs move "
                                 "twice the bytes per instruction"
                               : ": SVE present but this kernel (4.15-6.1, not 5.14) drops "
                                 "SVE state at each syscall: Advanced SIMD q-register pairs";
    } else {
        PICK(ldp_stp);
        why = ": no Advanced SIMD: general-register pairs, 64 bytes per loop";
    }
    const char *mwhy = why;
    if (copy == FC_A64_COPY_sve && is_neoverse_v1(c) && c->sve_vl == 32 &&
        (c->hwcap & FC_A64_HWCAP_ASIMD)) {
        mset = FC_A64_SET_simd;
        mwhy = ": 256-bit SVE: stp q stores the 32 bytes of a vector without a "
               "whilelo first (see the top of the file)";
    }
    for (int f = 0; f < FC_NFUNCS; f++)
        fc_decision_set(d, f, f == FC_MEMSET ? mset : copy, core, f == FC_MEMSET ? mwhy : why);
}

void fc_a64_describe(const struct fc_a64_cpu *c, char *buf, size_t cap)
{
    static const struct { uint64_t bit; char name[8]; } caps[] = {
        {FC_A64_HWCAP_FP, "fp"}, {FC_A64_HWCAP_ASIMD, "asimd"},
        {FC_A64_HWCAP_CPUID, "cpuid"}, {FC_A64_HWCAP_SVE, "sve"},
    };
    static const struct { uint64_t bit; char name[8]; } caps2[] = {
        {FC_A64_HWCAP2_SVE2, "sve2"}, {FC_A64_HWCAP2_MOPS, "mops"},
    };
    static const char hex[] = "0123456789abcdef";
    char h[11];
    buf[0] = 0;
    fc_strcat(buf, cap, "core: ");
    fc_strcat(buf, cap, fc_a64_core(c));
    fc_strcat(buf, cap, "\nMIDR_EL1: 0x");
    for (int i = 0; i < 8; i++)
        h[i] = hex[(c->midr >> (28 - 4 * i)) & 15];
    h[8] = 0;
    fc_strcat(buf, cap, h);
    fc_strcat(buf, cap, "\nhwcaps:");
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++)
        if (c->hwcap & caps[i].bit) {
            fc_strcat(buf, cap, " ");
            fc_strcat(buf, cap, caps[i].name);
        }
    for (size_t i = 0; i < sizeof caps2 / sizeof caps2[0]; i++)
        if (c->hwcap2 & caps2[i].bit) {
            fc_strcat(buf, cap, " ");
            fc_strcat(buf, cap, caps2[i].name);
        }
    fc_strcat_num(buf, cap, "\nDCZID_EL0: block ", 4u << FC_A64_DCZID_BS(c->dczid), 0);
    fc_strcat(buf, cap, (c->dczid & FC_A64_DCZID_DZP) ? " bytes, DZP set (DC ZVA prohibited)"
                                                        : " bytes, DC ZVA allowed");
    fc_strcat_num(buf, cap, "\nSVE vector length: ", c->sve_vl, 0);
    fc_strcat(buf, cap, " bytes");
    if (c->kver) {
        fc_strcat_num(buf, cap, "\nkernel: ", c->kver >> 16, 0);
        fc_strcat_num(buf, cap, ".", (c->kver >> 8) & 255, 0);
        fc_strcat(buf, cap, fc_a64_kernel_keeps_sve(c->kver) ? " (keeps SVE state across syscalls)"
                                                               : " (drops SVE state at syscalls)");
    }
    fc_strcat(buf, cap, "\n");
}

void fc_a64_identity(const struct fc_a64_cpu *c, char *buf, size_t cap)
{
    buf[0] = 0;
    fc_strcat_num(buf, cap, "aarch64 MIDR ", c->midr, 1);
    fc_strcat_num(buf, cap, ", DCZID ", c->dczid, 1);
    if (c->sve_vl)
        fc_strcat_num(buf, cap, ", SVE ", c->sve_vl, 0);
}
