/* policy_golden_x86_64.c - the x86_64 policy's complete decision for every CPU of
 * test/test_policy_x86_64.c and for a vendor/family/model/feature/cache grid, one
 * row per CPU, against a committed golden file (test/policy_golden_x86_64.txt):
 *
 *   policy_golden_x86_64 FILE          compare (exit 1 and the differing rows)
 *   policy_golden_x86_64 --write FILE  regenerate it
 *   policy_golden_x86_64 --why         every row with its three why-lines
 *
 * A row: the CPU facts | memcpy memmove memset | every x86_64 tunable | the label
 * (fc_x86_uarch).  A change to the policy shows as the rows it changes.  The
 * why-lines are not compared (their wording may change; --why prints them), but
 * each must be a whole line (not truncated) that starts with the row's label. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "x86_64/variants.h"

#define KiB ((uint64_t)1024)
#define MiB (1024 * KiB)
#define GiB (1024 * MiB)
#define BASE (FC_X86_SSE2 | FC_X86_SSSE3)
#define AVX2 (BASE | FC_X86_AVX | FC_X86_AVX2 | FC_X86_BMI2 | FC_X86_OS_YMM)
#define AVX512 (AVX2 | FC_X86_AVX512F | FC_X86_AVX512BW | FC_X86_AVX512VL | FC_X86_OS_ZMM)
#define ERMS FC_X86_ERMS
#define FSRM FC_X86_FSRM
#define VNNI FC_X86_AVX_VNNI
#define HV FC_X86_HYPERVISOR
#define TOPO FC_X86_TOPOEXT
#define NO_ZMM (AVX512 & ~(uint32_t)FC_X86_OS_ZMM)
#define NO_YMM (AVX2 & ~(uint32_t)FC_X86_OS_YMM)

static char *out;
static size_t out_len, out_cap;
static int bad_why;

static void put(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void put(const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(out + out_len, out_cap - out_len, fmt, ap);
        va_end(ap);
        if (n >= 0 && (size_t)n < out_cap - out_len) {
            out_len += (size_t)n;
            return;
        }
        out_cap = out_cap * 2 + (size_t)(n > 0 ? n : 0) + 4096;
        if (!(out = realloc(out, out_cap)))
            abort();
    }
}

static const char *size(char *buf, uint64_t v)
{
    buf[0] = 0;
    fc_strcat_size(buf, 32, v);
    return buf;
}

/* The feature word as its group and extra flags: "avx512+erms+fsrm". */
static void features(char *buf, size_t cap, uint32_t f)
{
    static const struct { uint32_t bits; const char *name; } groups[] = {
        {AVX512, "avx512"}, {NO_ZMM, "avx512-zmm"}, {NO_ZMM & ~(uint32_t)FC_X86_OS_YMM, "avx512-zmm-ymm"},
        {AVX512 & ~(uint32_t)FC_X86_BMI2, "avx512-bmi2"},
        {AVX2, "avx2"}, {NO_YMM, "avx2-ymm"},
        {BASE, "base"},     {FC_X86_SSE2, "sse2"},  {0, "none"},
    };
    static const struct { uint32_t bit; const char *name; } flags[] = {
        {ERMS, "erms"}, {FSRM, "fsrm"}, {VNNI, "vnni"}, {HV, "hv"}, {TOPO, "topo"},
    };
    uint32_t rest = f;
    size_t g = 0;
    while ((groups[g].bits & f) != groups[g].bits)
        g++;
    snprintf(buf, cap, "%s", groups[g].name);
    rest &= ~groups[g].bits;
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (rest & flags[i].bit) {
            snprintf(buf + strlen(buf), cap - strlen(buf), "+%s", flags[i].name);
            rest &= ~flags[i].bit;
        }
    if (rest) /* bits outside the groups and flags: spelled out */
        snprintf(buf + strlen(buf), cap - strlen(buf), "+0x%x", rest);
}

static int show_why;

static void row(unsigned vendor, unsigned family, unsigned model, uint32_t feat, uint64_t l1d,
                uint64_t l2, uint64_t l3)
{
    static const char vendors[][6] = {"Other", "Intel", "AMD", "Hygon"};
    struct fc_x86_cpu c;
    struct fc_decision d;
    char f[96], a[32], b[32], e[32];
    memset(&c, 0, sizeof c);
    c.vendor = vendor;
    c.family = family;
    c.model = model;
    c.features = feat;
    c.l1d_size = l1d;
    c.l2_size = l2;
    c.l3_size = l3;
    memset(&d, 0xcc, sizeof d);
    fc_x86_policy(&c, &d);
    features(f, sizeof f, feat);
    put("%-5s 0x%02x 0x%02x %-30s %5s %5s %5s |", vendors[vendor], family, model, f,
        size(a, l1d), size(b, l2), size(e, l3));
    for (int fn = 0; fn < FC_NFUNCS; fn++)
        put(" %-14s", fc_x86_variant_name(fn, d.sel[fn]));
    put(" |");
    static const struct { const char *arch; size_t off; } tun[] = {
#define FC_TUNABLE(field, env, arch, min, max, meaning) \
    {arch, __builtin_offsetof(struct fc_tunables, field)},
#include "tunables.def"
#undef FC_TUNABLE
    };
    for (size_t t = 0; t < sizeof tun / sizeof tun[0]; t++) {
        size_t v = *(const size_t *)((const char *)&d.tun + tun[t].off);
        if (!strcmp(tun[t].arch, "x86_64"))
            put(" %6s", size(a, v));
        else if (v) /* another architecture's tunable: always 0 here */
            put(" %s=%s", "OTHER-ARCH", size(a, v));
    }
    const char *label = fc_x86_uarch(&c);
    put(" | %s\n", label);
    for (int fn = 0; fn < FC_NFUNCS; fn++) {
        size_t n = strnlen(d.why[fn], FC_WHY_LEN);
        if (n >= FC_WHY_LEN - 1 || n < 10 || strncmp(d.why[fn], label, strlen(label))) {
            fprintf(stderr, "%s: why-line truncated, too short or not starting with \"%s\": %.*s\n",
                    fc_func_name(fn), label, (int)n, d.why[fn]);
            bad_why = 1;
        }
        if (show_why)
            put("    %-7s %s\n", fc_func_name(fn), d.why[fn]);
    }
}

/* The CPUs of test/test_policy_x86_64.c (keep in step with it). */
static void test_cpus(void)
{
    put("# the CPUs of test/test_policy_x86_64.c\n");
    /* test_zen4, test_avx512_not_enabled_by_os */
    row(FC_X86_AMD, 0x19, 0x11, AVX512 | ERMS | FSRM, 48 * KiB, MiB, 32 * MiB);
    row(FC_X86_AMD, 0x19, 0x11, NO_ZMM | ERMS, 48 * KiB, MiB, 32 * MiB);
    row(FC_X86_AMD, 0x19, 0x11, (NO_ZMM & ~(uint32_t)FC_X86_OS_YMM) | ERMS, 48 * KiB, MiB, 32 * MiB);
    /* test_zen5: the L2 and L1d sizes it varies */
    static const uint64_t l2s[] = {MiB, 2 * MiB, 8 * MiB, 64 * MiB, 0};
    for (size_t i = 0; i < sizeof l2s / sizeof l2s[0]; i++)
        row(FC_X86_AMD, 0x1a, 0x02, AVX512 | ERMS | FSRM, 48 * KiB, l2s[i], 32 * MiB);
    static const uint64_t l1s[] = {32 * KiB, 0, 64 * MiB};
    for (size_t i = 0; i < sizeof l1s / sizeof l1s[0]; i++)
        row(FC_X86_AMD, 0x1a, 0x02, AVX512 | ERMS | FSRM, l1s[i], MiB, 32 * MiB);
    /* test_zen3, test_intel_fsrm, test_intel_no_fsrm, test_avx2_only, test_sse2_only */
    row(FC_X86_AMD, 0x19, 0x21, AVX2 | ERMS | FSRM, 48 * KiB, MiB, 32 * MiB);
    row(FC_X86_INTEL, 6, 0x8f, AVX512 | ERMS | FSRM, 48 * KiB, MiB, 105 * MiB);
    row(FC_X86_INTEL, 6, 0x55, AVX512 | ERMS, 48 * KiB, MiB, 22 * MiB);
    row(FC_X86_OTHER, 6, 0x0f, AVX2, 48 * KiB, MiB, 8 * MiB);
    row(FC_X86_INTEL, 6, 0x1a, BASE, 48 * KiB, MiB, 8 * MiB);
    row(FC_X86_INTEL, 6, 0x1a, 0, 48 * KiB, MiB, 8 * MiB);
    /* test_vm_caches */
    static const uint64_t absurd[] = {0, 1, 100 * KiB, (uint64_t)4 << 40, UINT64_MAX};
    for (size_t i = 0; i < sizeof absurd / sizeof absurd[0]; i++) {
        row(FC_X86_INTEL, 6, 0x8f, AVX2, 48 * KiB, MiB, absurd[i]);
        row(FC_X86_AMD, 0x19, 0x8f, AVX2, 48 * KiB, MiB, absurd[i]);
    }
    row(FC_X86_AMD, 0x1a, 2, AVX512, 48 * KiB, MiB, 508 * MiB);
    row(FC_X86_INTEL, 6, 0x8f, AVX2, 48 * KiB, MiB, 320 * MiB);
    row(FC_X86_OTHER, 6, 0x8f, AVX2, 48 * KiB, MiB, 512 * KiB);
    /* test_zen5_vm */
    row(FC_X86_AMD, 0x1a, 0x02, AVX512 | ERMS | FSRM | HV, 48 * KiB, MiB, 508 * MiB);
    row(FC_X86_AMD, 0x1a, 0x02, AVX512 | ERMS | FSRM | HV | VNNI, 48 * KiB, MiB, 508 * MiB);
    row(FC_X86_AMD, 0x1a, 0x02, AVX512 | ERMS | FSRM | HV | VNNI, 48 * KiB, MiB, 32 * MiB);
    /* test_zen1_vm: Zen 1, Zen 2, an Intel CPU with the same facts */
    row(FC_X86_AMD, 0x17, 0x01, AVX2 | HV | TOPO, 32 * KiB, 512 * KiB, 8 * MiB);
    row(FC_X86_AMD, 0x17, 0x31, AVX2 | HV | TOPO, 32 * KiB, 512 * KiB, 8 * MiB);
    row(FC_X86_INTEL, 6, 0x01, AVX2 | HV | TOPO, 32 * KiB, 512 * KiB, 8 * MiB);
    /* test_intel_emerald_rapids */
    row(FC_X86_INTEL, 6, 0xcf, AVX512 | ERMS | FSRM | VNNI | HV, 48 * KiB, 2 * MiB, 300 * MiB);
    row(FC_X86_INTEL, 6, 0xcf, AVX512 | ERMS | FSRM | VNNI, 48 * KiB, 2 * MiB, 300 * MiB);
    row(FC_X86_INTEL, 6, 0xcf, AVX512 | ERMS | FSRM | VNNI | HV, 48 * KiB, 2 * MiB, 16 * MiB);
    row(FC_X86_INTEL, 6, 0xcf, NO_ZMM | ERMS | FSRM | VNNI | HV, 48 * KiB, 2 * MiB, 300 * MiB);
    /* test_intel_ice_lake (and Alder Lake) */
    row(FC_X86_INTEL, 6, 0x6a, AVX512 | ERMS | FSRM, 48 * KiB, MiB, 48 * MiB);
    row(FC_X86_INTEL, 6, 0x97, AVX2 | ERMS | FSRM | VNNI, 48 * KiB, MiB, 30 * MiB);
}

/* Every listed model of each vendor and family, with the default caches. */
static void models(void)
{
    static const struct {
        unsigned vendor, family;
        unsigned char models[40];
        unsigned nmodels;
    } fam[] = {
        {FC_X86_AMD, 0x15, {0x00, 0x02, 0x10, 0x30, 0x60, 0x70}, 6},
        {FC_X86_AMD, 0x16, {0x00, 0x30}, 2},
        {FC_X86_AMD, 0x17, {0x00, 0x01, 0x08, 0x11, 0x18, 0x20, 0x2f, 0x30, 0x31, 0x47, 0x4f,
                            0x50, 0x5f, 0x60, 0x68, 0x71, 0x7f, 0x80, 0x8f, 0x90, 0x91, 0x92,
                            0xa0, 0xaf, 0xb0, 0xff}, 26},
        {FC_X86_AMD, 0x18, {0x00, 0x01}, 2},
        {FC_X86_AMD, 0x19, {0x00, 0x01, 0x08, 0x0f, 0x10, 0x11, 0x18, 0x1f, 0x20, 0x21, 0x44,
                            0x50, 0x5f, 0x60, 0x61, 0x70, 0x74, 0x7f, 0x80, 0x9f, 0xa0, 0xaf,
                            0xb0, 0xff}, 24},
        {FC_X86_AMD, 0x1a, {0x00, 0x02, 0x08, 0x10, 0x11, 0x20, 0x24, 0x2f, 0x30, 0x3f, 0x40,
                            0x44, 0x4f, 0x50, 0x5f, 0x60, 0x68, 0x70, 0x7f, 0x80, 0x8f, 0x90,
                            0x9f, 0xa0, 0xaf, 0xb0, 0xbf, 0xc0, 0xcf, 0xd0, 0xe0, 0xff}, 32},
        {FC_X86_AMD, 0x1b, {0x00, 0x20, 0x50}, 3},
        {FC_X86_AMD, 0x1c, {0x00}, 1},
        {FC_X86_HYGON, 0x17, {0x01}, 1},
        {FC_X86_HYGON, 0x18, {0x00, 0x01, 0x02, 0x04, 0x05, 0x06, 0x07, 0x08}, 8},
        {FC_X86_HYGON, 0x19, {0x01}, 1},
        {FC_X86_INTEL, 6, {0x0f, 0x1a, 0x2a, 0x3c, 0x3f, 0x4f, 0x55, 0x5e, 0x6a, 0x6c, 0x7e,
                           0x8c, 0x8f, 0x97, 0x9a, 0xaa, 0xad, 0xae, 0xb7, 0xba, 0xbd, 0xc5,
                           0xc6, 0xcf, 0xdd}, 25},
        {FC_X86_INTEL, 0x0f, {0x06}, 1},
        {FC_X86_INTEL, 0x12, {0x01}, 1},
        {FC_X86_INTEL, 0x13, {0x01}, 1},
        {FC_X86_OTHER, 6, {0x0f, 0x19}, 2},
        {FC_X86_OTHER, 7, {0x3b}, 1},
    };
    static const uint32_t amd_sets[] = {AVX2 | ERMS | FSRM, AVX512 | ERMS | FSRM, AVX512 | FSRM};
    static const uint32_t intel_sets[] = {AVX2 | ERMS | FSRM, AVX512 | ERMS | FSRM | VNNI};
    put("# every vendor, family and model: AMD/Hygon/other with AVX2 and AVX-512 (with and "
        "without ERMS), Intel with AVX2 and AVX-512+AVX-VNNI; 48K/1M/32M caches\n");
    for (size_t i = 0; i < sizeof fam / sizeof fam[0]; i++) {
        int intel = fam[i].vendor == FC_X86_INTEL;
        const uint32_t *sets = intel ? intel_sets : amd_sets;
        size_t nsets = intel ? 2 : 3;
        for (unsigned m = 0; m < fam[i].nmodels; m++)
            for (size_t s = 0; s < nsets; s++)
                row(fam[i].vendor, fam[i].family, fam[i].models[m], sets[s], 48 * KiB, MiB,
                    32 * MiB);
    }
}

/* One CPU per kind (by vendor, family and model). */
static const struct { unsigned vendor, family, model; } kinds[] = {
    {FC_X86_AMD, 0x15, 0x02},  {FC_X86_AMD, 0x17, 0x01},  {FC_X86_AMD, 0x17, 0x31},
    {FC_X86_AMD, 0x17, 0x50},  {FC_X86_AMD, 0x17, 0xb0},  {FC_X86_AMD, 0x19, 0x01},
    {FC_X86_AMD, 0x19, 0x11},  {FC_X86_AMD, 0x19, 0xb0},  {FC_X86_AMD, 0x1a, 0x02},
    {FC_X86_AMD, 0x1a, 0x50},  {FC_X86_AMD, 0x1a, 0x30},  {FC_X86_AMD, 0x1b, 0x00},
    {FC_X86_HYGON, 0x18, 0x01}, {FC_X86_INTEL, 6, 0x55},  {FC_X86_INTEL, 6, 0x6a},
    {FC_X86_INTEL, 6, 0x8f},   {FC_X86_INTEL, 6, 0xcf},   {FC_X86_INTEL, 6, 0x97},
    {FC_X86_OTHER, 6, 0x0f},   {FC_X86_OTHER, 7, 0x3b},
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

static void feature_grid(void)
{
    static const uint32_t sets[] = {
        0,
        BASE,
        NO_YMM | ERMS | FSRM,
        AVX2,
        AVX2 | ERMS,
        AVX2 | ERMS | FSRM,
        AVX2 | ERMS | FSRM | VNNI,
        NO_ZMM | ERMS | FSRM,
        AVX512,
        AVX512 | ERMS,
        AVX512 | FSRM,
        AVX512 | ERMS | FSRM,
        AVX512 | ERMS | FSRM | HV,
        AVX512 | ERMS | VNNI,
        AVX512 | FSRM | VNNI,
        AVX512 | ERMS | FSRM | VNNI,
        AVX512 | ERMS | FSRM | VNNI | HV,
        AVX512 & ~(uint32_t)FC_X86_BMI2,
    };
    put("# every kind of CPU with every feature set; 48K/1M/32M caches\n");
    for (size_t k = 0; k < NKINDS; k++)
        for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++)
            row(kinds[k].vendor, kinds[k].family, kinds[k].model, sets[s], 48 * KiB, MiB,
                32 * MiB);
}

static void cache_grid(void)
{
    static const uint64_t caches[][3] = {
        {48 * KiB, MiB, 32 * MiB},        {32 * KiB, 512 * KiB, 8 * MiB},
        {0, 0, 0},                        {1, 1, 1},
        {16 * KiB, 256 * KiB, 256 * KiB}, {12 * KiB, 256 * KiB, 255 * KiB},
        {256 * KiB, 4 * MiB, 4 * MiB},    {257 * KiB, 4 * MiB + 1, 96 * MiB},
        {48 * KiB, 2 * MiB, 128 * MiB},   {48 * KiB, 2 * MiB, 129 * MiB},
        {48 * KiB, 16 * MiB, 300 * MiB},  {48 * KiB, 17 * MiB, GiB},
        {48 * KiB, 2 * MiB, GiB + 1},     {64 * MiB, 64 * MiB, 508 * MiB},
        {UINT64_MAX, UINT64_MAX, UINT64_MAX},
        {48 * KiB, 2 * MiB, (uint64_t)4 << 40},
    };
    put("# every kind of CPU with its usual features and every cache shape (zero, tiny, "
        "absurd)\n");
    for (size_t k = 0; k < NKINDS; k++) {
        uint32_t f = kinds[k].vendor == FC_X86_INTEL && kinds[k].model == 0xcf
                         ? AVX512 | ERMS | FSRM | VNNI | HV
                     : kinds[k].vendor == FC_X86_OTHER || kinds[k].family < 0x19
                         ? AVX2 | ERMS | FSRM
                         : AVX512 | ERMS | FSRM;
        for (size_t s = 0; s < sizeof caches / sizeof caches[0]; s++)
            row(kinds[k].vendor, kinds[k].family, kinds[k].model, f, caches[s][0], caches[s][1],
                caches[s][2]);
    }
}

static void generate(void)
{
    put("# The x86_64 policy's decision per CPU (test/policy_golden_x86_64.c; regenerate with\n"
        "# build/test/policy_golden_x86_64 --write test/policy_golden_x86_64.txt).  Columns:\n"
        "# vendor family model features L1d L2 L3 | memcpy memmove memset |");
#define FC_TUNABLE(field, env, arch, min, max, meaning) \
    if (!strcmp(arch, "x86_64"))                        \
        put(" %s", #field);
#include "tunables.def"
#undef FC_TUNABLE
    put(" | label\n");
    test_cpus();
    models();
    feature_grid();
    cache_grid();
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 20, n = 0, k;
    char *buf = malloc(cap);
    while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap && !(buf = realloc(buf, cap *= 2)))
            break;
    }
    fclose(f);
    *len = n;
    return buf;
}

/* The next line of s (at *pos), NUL-terminated in place, or NULL at the end. */
static char *next_line(char *s, size_t len, size_t *pos)
{
    if (*pos >= len)
        return NULL;
    char *line = s + *pos, *nl = memchr(line, '\n', len - *pos);
    size_t n = nl ? (size_t)(nl - line) : len - *pos;
    line[n] = 0;
    *pos += n + 1;
    return line;
}

int main(int argc, char **argv)
{
    int write = argc == 3 && !strcmp(argv[1], "--write");
    show_why = argc == 2 && !strcmp(argv[1], "--why");
    if (!show_why && argc != 2 + write) {
        fprintf(stderr, "usage: %s GOLDEN | --write GOLDEN | --why\n", argv[0]);
        return 2;
    }
    generate();
    if (show_why) {
        fwrite(out, 1, out_len, stdout);
        return bad_why;
    }
    const char *path = argv[argc - 1];
    if (write) {
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(out, 1, out_len, f) != out_len || fclose(f)) {
            perror(path);
            return 1;
        }
        printf("wrote %s\n", path);
        return bad_why;
    }
    size_t glen, gpos = 0, npos = 0;
    char *golden = read_all(path, &glen);
    if (!golden) {
        perror(path);
        return 1;
    }
    int diffs = 0, lineno = 0;
    for (;;) {
        char *want = next_line(golden, glen, &gpos), *got = next_line(out, out_len, &npos);
        lineno++;
        if (!want && !got)
            break;
        if (!want || !got || strcmp(want, got)) {
            if (++diffs <= 40)
                printf("line %d:\n  golden: %s\n  policy: %s\n", lineno, want ? want : "(none)",
                       got ? got : "(none)");
        }
    }
    if (diffs)
        printf("%d rows differ from %s: if the change is meant, regenerate it with\n"
               "  %s --write %s\nand list the rows that changed in the commit message.\n",
               diffs, path, argv[0], path);
    else
        printf("%d lines as in %s\n", lineno - 1, path);
    return diffs || bad_why;
}
