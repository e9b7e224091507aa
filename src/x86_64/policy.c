/* x86_64 selection policy: CPU facts -> variants and thresholds.
 *
 * A pure function of struct fc_x86_cpu (no CPUID here), compiled on every host so
 * test/test_policy_x86_64.c can ask it about any CPU.  fc_x86_classify
 * (profiles.c) names the CPU's class; its row in fc_x86_profiles gives each
 * function's preferred variants and every window, as sizes or as rules of the
 * cache sizes; this file turns the row into the decision:
 *
 * - Variants: the first of the row's list that this CPU can run (a variant marked
 *   FC_X86_REP only with ERMS), then avx2, sse2, generic.
 * - Windows: the rules resolved against the caches.  The L3 is believed only
 *   between 256 KiB and what one core can share (128 MiB on AMD, 1 GiB elsewhere;
 *   VMs report zero or a whole socket), else 32 MiB is assumed; nt_start is
 *   clamped to [1 MiB, 768 MiB].  A row with FC_X86_REP_NEEDS_ERMS closes its rep
 *   and adaptive windows without ERMS; the avx512 memset's windows
 *   (memset_masked_max, adaptive) apply only where AVX-512 is usable.
 * - Why-lines: the class, whether its row was measured (else what it borrows), the
 *   variant and the windows it reads.
 *
 * The reasons and readings behind each row are in docs/evidence/ (one page per
 * measured class) and docs/kernels-x86_64.md. */
#include "profiles.h"

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

/* BW for byte-masked loads/stores, VL for the EVEX 256-bit forms, BMI2 for the
 * bzhi that builds the masks. */
static int can_avx512(const struct fc_x86_cpu *c)
{
    return can_avx2(c) && has(c, FC_X86_AVX512F | FC_X86_AVX512BW | FC_X86_AVX512VL |
                                     FC_X86_OS_ZMM | FC_X86_BMI2);
}

/* fc_x86_usable (the table's requirements), the names and their look-ups. */
#define FC_VN_PREFIX(x) fc_x86_##x
#define FC_VN_TABLE FC_X86_VARIANTS
#define FC_VN_CPU struct fc_x86_cpu
#define FC_VN_FORMER FC_X86_VARIANTS_FORMER
#include "../variant_names.h"

/* The row a CPU's choices come from (a borrowed one for a `like` class). */
static const struct fc_x86_profile *row_of(unsigned cls)
{
    const struct fc_x86_profile *p = &fc_x86_profiles[cls];
    return p->like ? &fc_x86_profiles[p->like - 1] : p;
}

const char *fc_x86_uarch(const struct fc_x86_cpu *c)
{
    return fc_x86_profiles[fc_x86_classify(c)].name;
}

/* The reported L3 size, or 0 when it is not believable. */
static uint64_t l3_plausible(const struct fc_x86_cpu *c)
{
    int amd = c->vendor == FC_X86_AMD || c->vendor == FC_X86_HYGON;
    uint64_t l3 = c->l3_size;
    return l3 < 256 * KiB || l3 > (amd ? 128 * MiB : GiB) ? 0 : l3;
}

static uint64_t nt_start(const struct fc_x86_cpu *c, const struct fc_x86_profile *p)
{
    uint64_t l3 = l3_plausible(c), num = (p->nt_start >> 4) & 15, den = p->nt_start & 15;
    uint64_t t = FC_X86_IS_L3(p->nt_start) ? (l3 ? l3 : L3_ASSUMED) / den * num
                                               : p->nt_start;
    if (p->nt_guest_cap && has(c, FC_X86_HYPERVISOR) && t > p->nt_guest_cap)
        t = p->nt_guest_cap;
    return t < NT_MIN ? NT_MIN : t > NT_MAX ? NT_MAX : t;
}

/* A window field's value on this CPU. */
static size_t resolve(const struct fc_x86_cpu *c, uint64_t v, size_t nt)
{
    uint64_t l1 = c->l1d_size, l2 = c->l2_size;
    switch (v) {
    case FC_X86_NT:
        return nt;
    case FC_X86_L1D_HALF:
        return l1 >= 16 * KiB && l1 <= 256 * KiB ? (size_t)l1 / 2 : 16 * KiB;
    case FC_X86_L2_4M:
        return (l2 > 4 * MiB && l2 <= 16 * MiB ? (size_t)l2 : 4 * MiB) + 1;
    case FC_X86_FSRM_2K:
        return has(c, FC_X86_FSRM) ? 2 * KiB : 4 * KiB;
    }
    return (size_t)v;
}

/* The first variant of list (index + 1 each, 0-terminated) that c can run, then
 * avx2, sse2, generic.  *skipped: the list's first entry when it was passed over. */
static int pick(const struct fc_x86_cpu *c, int f, const unsigned char *list, int *skipped)
{
    static const char tail[][8] = {"avx2", "sse2", "generic"};
    *skipped = -1;
    for (int k = 0; k < 3 && list[k]; k++) {
        unsigned i = (list[k] & ~FC_X86_REP) - 1u;
        if (fc_x86_usable(c, f, i) && (!(list[k] & FC_X86_REP) || has(c, FC_X86_ERMS)))
            return (int)i;
        if (k == 0)
            *skipped = (int)i;
    }
    for (int k = 0; k < 2; k++) {
        int i = fc_x86_variant_index(f, tail[k]);
        if (fc_x86_usable(c, f, (unsigned)i))
            return i;
    }
    return fc_x86_variant_index(f, tail[2]);
}

/* lead, then "from 32 KiB", "above 8 KiB" (8 KiB + 1) or "from 4097 B" when v
 * starts a window; "to 256 KiB" when it ends one. */
static void add_size(char *buf, const char *lead, uint64_t v, int start)
{
    static const char units[][5] = {" B", " KiB", " MiB", " GiB"};
    int above = start && v > 1024 && v % 1024 == 1, u = 0;
    v -= (uint64_t)above;
    while (u < 3 && v >= 1024 && v % 1024 == 0)
        v /= 1024, u++;
    fc_strcat(buf, FC_WHY_LEN, lead);
    fc_strcat(buf, FC_WHY_LEN, !start ? "to " : above ? "above " : "from ");
    fc_strcat_num(buf, FC_WHY_LEN, "", v, 0);
    fc_strcat(buf, FC_WHY_LEN, units[u]);
}

/* What each variant is, in a few words, per function (copy, memset). */
static const char *variant_words(int f, const char *name)
{
    static const struct { char name[16], copy[44], set[72]; } words[] = {
        {"generic", "portable C (no SSE2)", "portable C (no SSE2)"},
        {"sse2", "16-byte SSE2 vectors (no OS-enabled AVX2)",
         "16-byte SSE2 vectors (no OS-enabled AVX2)"},
        {"avx2", "AVX2 vectors", "AVX2 vectors"},
        {"avx2_keepupper", "AVX2 vectors without vzeroupper", "AVX2 vectors without vzeroupper"},
        {"avx512", "masked small sizes, 64-byte loop", "branch-free to 255 B, 64-byte loop"},
        {"avx512_1branch", "", "one compare and one masked store to 64 B, plain stores to 255 B"},
        {"erms", "AVX2 vectors around rep movsb", "AVX2 vectors around rep stosb"},
    };
    for (unsigned k = 0; k < sizeof words / sizeof words[0]; k++)
        if (fc_streq(words[k].name, name))
            return f == FC_MEMSET ? words[k].set : words[k].copy;
    return name;
}

/* "<class>[ (not measured: <basis>)]: [<first choice> ...: ]<variant>; <windows>" */
static void why_line(const struct fc_x86_cpu *c, struct fc_decision *d, int f, unsigned cls,
                     int skipped)
{
    const struct fc_x86_profile *p = &fc_x86_profiles[cls];
    const struct fc_tunables *t = &d->tun;
    const char *v = fc_x86_variant_name(f, d->sel[f]);
    int set512 = fc_streq(v, "avx512") || fc_streq(v, "avx512_1branch");
    char *w = d->why[f];
    w[0] = 0;
    fc_strcat(w, FC_WHY_LEN, p->name);
    if (p->like || !p->evidence[0]) {
        fc_strcat(w, FC_WHY_LEN, " (not measured: ");
        fc_strcat(w, FC_WHY_LEN, p->like ? fc_x86_profiles[p->like - 1].name : p->basis);
        fc_strcat(w, FC_WHY_LEN, p->like ? "'s row)" : ")");
    }
    fc_strcat(w, FC_WHY_LEN, ": ");
    if (skipped >= 0) {
        fc_strcat(w, FC_WHY_LEN, fc_x86_variant_name(f, (unsigned)skipped));
        fc_strcat(w, FC_WHY_LEN, fc_x86_usable(c, f, (unsigned)skipped) ? " needs ERMS: "
                                                                       : " not usable here: ");
    }
    if (f == FC_MEMSET && fc_streq(v, "avx512") && t->memset_masked_max)
        fc_strcat(w, FC_WHY_LEN, "one masked store to 64 B, ");
    fc_strcat(w, FC_WHY_LEN, variant_words(f, v));
    if (f != FC_MEMSET && fc_streq(v, "avx512") && t->loop32_start < t->nt_start)
        add_size(w, "; the loop on 32-byte vectors ", t->loop32_start + 1, 1);
    if (f != FC_MEMSET && (fc_streq(v, "avx512") || fc_streq(v, "erms"))) {
        if (t->rep_movsb_start >= t->rep_movsb_stop)
            fc_strcat(w, FC_WHY_LEN, "; rep movsb off");
        else
            add_size(w, "; rep movsb ", t->rep_movsb_start, 1);
    }
    if (f == FC_MEMSET && (set512 || fc_streq(v, "erms"))) {
        if (t->rep_stosb_start >= t->nt_start)
            fc_strcat(w, FC_WHY_LEN, "; rep stosb off");
        else
            add_size(w, "; rep stosb ", t->rep_stosb_start, 1);
        if (t->rep_stosb_stop != t->rep_stosb_start) {
            add_size(w, " ", t->rep_stosb_stop, 0);
            add_size(w, " and ", t->rep_stosb_high_start, 1);
        }
        if (set512 && t->memset_adaptive_stop > t->memset_adaptive_start) {
            add_size(w, "; timed as it runs ", t->memset_adaptive_start, 1);
            add_size(w, " ", t->memset_adaptive_stop, 0);
        }
    }
}

void fc_x86_policy(const struct fc_x86_cpu *c, struct fc_decision *d)
{
    unsigned cls = fc_x86_classify(c);
    const struct fc_x86_profile *p = row_of(cls);
    struct fc_tunables *t = &d->tun;
    size_t nt = (size_t)nt_start(c, p);
    int rep = !(p->flags & FC_X86_REP_NEEDS_ERMS) || has(c, FC_X86_ERMS);
    int avx512 = can_avx512(c);

    fc_bytezero(d, sizeof *d);
    t->nt_start = nt;
    t->rep_movsb_start = rep ? resolve(c, p->rep_movsb_start, nt) : nt;
    t->rep_movsb_stop = rep ? resolve(c, p->rep_movsb_stop, nt) : nt;
    t->rep_stosb_start = rep ? resolve(c, p->rep_stosb_start, nt) : nt;
    t->rep_stosb_stop = t->rep_stosb_high_start = t->rep_stosb_start; /* one window */
    if (rep && p->rep_stosb_stop) {
        t->rep_stosb_stop = resolve(c, p->rep_stosb_stop, nt);
        t->rep_stosb_high_start = resolve(c, p->rep_stosb_high_start, nt);
    }
    t->alias_backward_stop = resolve(c, p->alias_backward_stop, nt);
    t->loop32_start = p->loop32_start ? resolve(c, p->loop32_start, nt) : FC_TUN_MAX;
    t->memset_masked_max = avx512 ? (size_t)p->memset_masked_max : 0;
    t->memset_adaptive_start = avx512 && rep ? (size_t)p->memset_adaptive_start : 0;
    t->memset_adaptive_stop = avx512 && rep ? (size_t)p->memset_adaptive_stop : 0;
    for (int f = 0; f < FC_NFUNCS; f++) {
        const unsigned char *list = f == FC_MEMCPY ? p->memcpy : f == FC_MEMMOVE ? p->memmove
                                                                                : p->memset;
        int skipped;
        d->sel[f] = (unsigned char)pick(c, f, list, &skipped);
        why_line(c, d, f, cls, skipped);
    }
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
    const struct fc_x86_profile *p = &fc_x86_profiles[fc_x86_classify(c)];
    fc_strcat(buf, cap, " (");
    fc_strcat(buf, cap, p->name);
    if (p->like || !p->evidence[0]) {
        fc_strcat(buf, cap, "; not measured: ");
        fc_strcat(buf, cap, p->like ? fc_x86_profiles[p->like - 1].name : p->basis);
        fc_strcat(buf, cap, p->like ? "'s row" : "");
    } else {
        fc_strcat(buf, cap, "; measured: docs/evidence/");
        fc_strcat(buf, cap, p->evidence);
        fc_strcat(buf, cap, ".md");
    }
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
