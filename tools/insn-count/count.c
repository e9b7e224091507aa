/* count.c - guest side of the QEMU instruction counts (tools/insn-count/README.md).
 *
 * Runs every usable libfastcopy variant of memcpy, memmove and memset (from
 * fc_variants()) and the C library's own memcpy/memmove/memset (fetched with dlsym,
 * so glibc's IFUNC resolver picks its variant for the emulated CPU, and the PLT is
 * not in the measurement) over a fixed set of cases.  Every call goes through one
 * stub of stubs.S, which brackets it with marker instructions carrying a case id;
 * the TCG plugin insn_count.so counts the guest instructions between the markers.
 *
 * This program prints the id map on stdout; tools/insn-count/table.py joins it with
 * the plugin's counts:
 *   arch <aarch64|riscv64>
 *   selected <func> <variant>
 *   libc <func> <offset of the chosen function in libc.so.6, hex>
 *   sampling <stratified|random>                  (how the mixes' sizes are drawn)
 *   calib <id>                                    (the empty function)
 *   known <id> <instructions>                     (self-check: a function of known length)
 *   case <func> <case> <kind> <calls-per-impl> <description>
 *   map <id> <func> <impl> <case> <calls>
 *
 * Same inputs for every implementation: the size mixes are drawn once, with a
 * fixed seed, before any implementation runs.
 *
 * --sweep instead measures every cell of a grid, one call per cell, and the
 * plugin (seq=PATH) keeps each call's count in call order; tools/insn-count/sweep.py
 * compares every implementation with glibc cell by cell.  Extra map lines:
 *   sweep sizes <k> <size>...                     (0..1100, powers of two +-1 to 64 KiB)
 *   sweep offsets <copy src> <copy dst> <memset dst>   (offsets 0..k-1 of each)
 *   seqbase <seq index of the first sweep call>
 *   block <id> <func> <impl> <case> <first seq index> <cells>
 * --sizes A-B,C,... replaces the sizes (the cycle estimates' shorter sweeps).
 * Cells of a block, in order: for each size, for each src offset, for each dst
 * offset (memset: for each size, for each dst offset).  Cases: memcpy "copy"
 * (separate buffers); memmove "fwd" (dst = src - 64 - src offset + dst offset,
 * overlapping from 65 bytes on) and "bwd" (dst above src the same way); memset
 * "c0" and "c5a" (c = 0 and c = 0x5a).
 *
 * --mixes all: every fleet mix of bench/distributions (Memcpy/Memset Google A, B,
 * D, L, M, Q, S, U, W; memmove gets memcpy's and its own two, "MemmoveGoogleA"
 * and "MemmoveGoogleS") instead of GoogleA and GoogleQ.
 *
 * "dropin" is the exported memcpy/memmove/memset as a program that preloads
 * libfastcopy.so finds it (dlsym(RTLD_DEFAULT), only when that is not the C
 * library's): counted from the exported symbol's first instruction, so a
 * trampoline in front of the kernel is in the count (the PLT is not, for it as
 * for glibc).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "fastcopy.h"

#define NSTUBS 2048
#define STUB_BYTES 32

typedef void *(*stub_fn)(void *a0, uintptr_t a1, size_t a2, void (*fn)(void));
extern char fcic_stubs[];
extern void fcic_empty(void);
extern void fcic_known(void);     /* 8 instructions, entry to return */

static unsigned long seq_calls;   /* stub calls made: the plugin's seq index */

static stub_fn stub(unsigned id)
{
    seq_calls++;
    char *p = fcic_stubs + (size_t)id * STUB_BYTES;
    stub_fn f;
    memcpy(&f, &p, sizeof f);
    return f;
}

/* ---- inputs ----------------------------------------------------------------------- */
#define KiB 1024u
#define BUF_BYTES (256u * KiB)

static unsigned char *src_buf, *dst_buf;

struct call {
    uint32_t n;
    uint16_t soff, doff;
};

struct dist {
    double *cdf;
    size_t len;      /* sizes 0..len-1 */
};

static uint64_t rng_state;

static uint64_t rng_next(void)        /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double rng_unit(void)
{
    return (double)(rng_next() >> 11) * (1.0 / 9007199254740992.0);
}

static int load_dist(const char *dir, const char *file, struct dist *d)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "count: %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 4097, len = 0;
    d->cdf = calloc(cap, sizeof *d->cdf);
    double sum = 0, v;
    while (len < cap && fscanf(f, " %lf ,", &v) == 1) {
        sum += v;
        d->cdf[len++] = sum;
    }
    fclose(f);
    if (len == 0 || sum <= 0) {
        fprintf(stderr, "count: %s: no data\n", path);
        return -1;
    }
    for (size_t i = 0; i < len; i++)
        d->cdf[i] /= sum;
    d->len = len;
    return 0;
}

static uint32_t size_at(const struct dist *d, double u)
{
    size_t lo = 0, hi = d->len - 1;     /* first i with cdf[i] > u */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (d->cdf[mid] > u)
            hi = mid;
        else
            lo = mid + 1;
    }
    return (uint32_t)lo;
}

/* ---- cases ------------------------------------------------------------------------- */
enum func { F_MEMCPY, F_MEMMOVE, F_MEMSET, NFUNCS };
static const char *const func_names[NFUNCS] = { "memcpy", "memmove", "memset" };

enum kind { K_FIXED, K_CLASS, K_MIX };
static const char *const kind_names[] = { "fixed", "class", "mix" };

struct casedef {
    const char *name;
    enum kind kind;
    const char *desc;
    struct call *calls;
    size_t ncalls;
    int set_value;      /* memset: the byte stored */
    int overlap;        /* memmove: dst = src + overlap within one buffer (may be < 0) */
};

#define MAXCASES 96
static struct casedef cases[NFUNCS][MAXCASES];
static size_t ncases[NFUNCS];

static struct casedef *add_case(enum func f, const char *name, enum kind k,
                                const char *desc, size_t ncalls)
{
    struct casedef *c = &cases[f][ncases[f]++];
    c->name = name;
    c->kind = k;
    c->desc = desc;
    c->ncalls = ncalls;
    c->calls = calloc(ncalls ? ncalls : 1, sizeof *c->calls);
    return c;
}

static int per_size;    /* --per-size: size classes become one case per size */

static void add_range(enum func f, const char *name, const char *desc,
                      uint32_t lo, uint32_t hi)
{
    if (per_size && lo != hi) {
        for (uint32_t n = lo; n <= hi; n++) {
            char *nm = malloc(16), *d = malloc(32);
            snprintf(nm, 16, "%u", (unsigned)n);
            snprintf(d, 32, "n = %u, aligned", (unsigned)n);
            add_range(f, nm, d, n, n);
        }
        return;
    }
    struct casedef *c = add_case(f, name, lo == hi ? K_FIXED : K_CLASS, desc,
                                 hi - lo + 1);
    for (uint32_t n = lo; n <= hi; n++)
        c->calls[n - lo] = (struct call){ n, 0, 0 };
}

static void add_fixed(enum func f, const char *name, const char *desc, uint32_t n,
                      uint16_t soff, uint16_t doff)
{
    struct casedef *c = add_case(f, name, K_FIXED, desc, 1);
    c->calls[0] = (struct call){ n, soff, doff };
}

static int random_sizes;   /* --random-sizes: plain draws instead of stratified */

/* Sizes: stratified sampling by default, call i's size at the quantile (i + U)/N
 * with U uniform in [0,1): unbiased like plain draws, but the size mix of the N calls
 * is the distribution's to within 1/N, so the mean is close to the expectation
 * (plain draws spread by a few % at N = 2000).  Offsets: plain draws.  QEMU's
 * counts do not depend on the order of the calls (no predictors, no caches). */
static void add_mix(enum func f, const char *name, const char *desc,
                    const struct dist *d, size_t draws, uint64_t seed)
{
    struct casedef *c = add_case(f, name, K_MIX, desc, draws);
    rng_state = seed;
    for (size_t i = 0; i < draws; i++) {
        double u = random_sizes ? rng_unit() : ((double)i + rng_unit()) / (double)draws;
        c->calls[i].n = size_at(d, u);
        c->calls[i].soff = (uint16_t)(rng_next() & 63);
        c->calls[i].doff = (uint16_t)(rng_next() & 63);
    }
}

static int all_mixes;   /* --mixes all: every fleet distribution, not only A and Q */

/* The fleet mixes of --mixes all (bench/distributions): memcpy's for memcpy and
 * memmove, memmove's own two for memmove too, memset's for memset. */
static const char all_mix_letters[] = "ABDLMQSUW";

static void add_all_mixes(const char *dist_dir, size_t draws, uint64_t seed)
{
    static const char *const prefix[3] = { "Memcpy", "Memmove", "Memset" };
    for (int k = 0; k < 3; k++)
        for (const char *l = all_mix_letters; *l; l++) {
            char file[64], *name = malloc(32), *desc = malloc(128);
            struct dist *d = calloc(1, sizeof *d);
            snprintf(file, sizeof file, "%sGoogle%c.csv", prefix[k], *l);
            char path[4200];
            snprintf(path, sizeof path, "%s/%s", dist_dir, file);
            FILE *probe = fopen(path, "r");
            if (!probe)
                continue;   /* memmove has A and S only */
            fclose(probe);
            if (load_dist(dist_dir, file, d) != 0)
                continue;
            snprintf(name, 32, "%sGoogle%c", k == 1 ? "Memmove" : "", *l);
            snprintf(desc, 128, "%s sizes, %s", file,
                     k == 2 ? "dst offset in [0,64), c = 0" : "src/dst offsets in [0,64)");
            uint64_t s = seed + 16 * (uint64_t)k + (uint64_t)(l - all_mix_letters);
            if (k == 0) {
                add_mix(F_MEMCPY, name, desc, d, draws, s);
                add_mix(F_MEMMOVE, name, desc, d, draws, s);
            } else {
                add_mix(k == 1 ? F_MEMMOVE : F_MEMSET, name, desc, d, draws, s);
            }
        }
}

static void build_cases(const char *dist_dir, size_t draws, uint64_t seed)
{
    struct dist cA, cQ, sA, sQ;
    int have_c = 0, have_s = 0;
    if (all_mixes) {
        add_all_mixes(dist_dir, draws, seed);
    } else {
        have_c = load_dist(dist_dir, "MemcpyGoogleA.csv", &cA) == 0 &&
                 load_dist(dist_dir, "MemcpyGoogleQ.csv", &cQ) == 0;
        have_s = load_dist(dist_dir, "MemsetGoogleA.csv", &sA) == 0 &&
                 load_dist(dist_dir, "MemsetGoogleQ.csv", &sQ) == 0;
        if (!have_c || !have_s)
            fprintf(stderr, "count: size mixes skipped (--dists DIR)\n");
    }

    for (enum func f = F_MEMCPY; f <= F_MEMMOVE; f++) {
        if (have_c) {
            add_mix(f, "GoogleA", "MemcpyGoogleA sizes, src/dst offsets in [0,64)",
                    &cA, draws, seed);
            add_mix(f, "GoogleQ", "MemcpyGoogleQ sizes, src/dst offsets in [0,64)",
                    &cQ, draws, seed + 1);
        }
        add_range(f, "0", "n = 0", 0, 0);
        add_range(f, "1-15", "n = 1..15, aligned", 1, 15);
        if (!per_size)   /* the target "0-16 bytes <= 25 each"; 16 opens the 16-32 class */
            add_fixed(f, "16", "n = 16, aligned", 16, 0, 0);
        add_range(f, "16-32", "n = 16..32, aligned", 16, 32);
        add_fixed(f, "100", "n = 100, aligned", 100, 0, 0);
        add_fixed(f, "256", "n = 256, aligned", 256, 0, 0);
        add_fixed(f, "4K", "n = 4096, aligned", 4 * KiB, 0, 0);
        add_fixed(f, "64K", "n = 65536, aligned", 64 * KiB, 0, 0);
        add_fixed(f, "64K+1/+3", "n = 65536, src+1, dst+3", 64 * KiB, 1, 3);
    }
    struct casedef *c;
    c = add_case(F_MEMMOVE, "4K-ovl-fwd", K_FIXED,
                 "n = 4096, dst = src - 64 (overlap, forward)", 1);
    c->calls[0] = (struct call){ 4 * KiB, 64, 0 };
    c->overlap = -64;
    c = add_case(F_MEMMOVE, "4K-ovl-bwd", K_FIXED,
                 "n = 4096, dst = src + 64 (overlap, backward)", 1);
    c->calls[0] = (struct call){ 4 * KiB, 0, 64 };
    c->overlap = 64;

    if (have_s) {
        add_mix(F_MEMSET, "GoogleA", "MemsetGoogleA sizes, dst offset in [0,64), c = 0",
                &sA, draws, seed + 2);
        add_mix(F_MEMSET, "GoogleQ", "MemsetGoogleQ sizes, dst offset in [0,64), c = 0",
                &sQ, draws, seed + 3);
    }
    add_range(F_MEMSET, "0", "n = 0", 0, 0);
    add_range(F_MEMSET, "1-7", "n = 1..7, aligned, c = 0", 1, 7);
    add_range(F_MEMSET, "8-64", "n = 8..64, aligned, c = 0", 8, 64);
    add_fixed(F_MEMSET, "100", "n = 100, aligned, c = 0", 100, 0, 0);
    add_fixed(F_MEMSET, "256", "n = 256, aligned, c = 0", 256, 0, 0);
    add_fixed(F_MEMSET, "4K", "n = 4096, aligned, c = 0", 4 * KiB, 0, 0);
    add_fixed(F_MEMSET, "64K", "n = 65536, aligned, c = 0", 64 * KiB, 0, 0);
    add_fixed(F_MEMSET, "64K+3", "n = 65536, dst+3, c = 0", 64 * KiB, 0, 3);
    c = add_case(F_MEMSET, "64K-c5a", K_FIXED, "n = 65536, aligned, c = 0x5a", 1);
    c->calls[0] = (struct call){ 64 * KiB, 0, 0 };
    c->set_value = 0x5a;
}

/* ---- implementations --------------------------------------------------------------- */
struct impl {
    enum func f;
    const char *name;
    void (*fn)(void);
};

#define MAXIMPLS 64
static struct impl impls[MAXIMPLS];
static size_t nimpls;

static void (*to_fn(void *p))(void)
{
    void (*f)(void);
    memcpy(&f, &p, sizeof f);
    return f;
}

static int func_index(const char *name)
{
    for (int f = 0; f < NFUNCS; f++)
        if (strcmp(name, func_names[f]) == 0)
            return f;
    return -1;
}

static void build_impls(int with_libc)
{
    if (with_libc) {
        void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
        Dl_info info;
        for (int f = 0; f < NFUNCS; f++) {
            void *p = libc ? dlsym(libc, func_names[f]) : NULL;
            if (!p) {
                fprintf(stderr, "count: dlsym(libc, %s) failed\n", func_names[f]);
                continue;
            }
            if (dladdr(p, &info) && info.dli_fbase)
                printf("libc %s 0x%" PRIxPTR "\n", func_names[f],
                       (uintptr_t)p - (uintptr_t)info.dli_fbase);
            impls[nimpls++] = (struct impl){ (enum func)f, "glibc", to_fn(p) };
        }
    }
    /* The exported names a preloading program binds to (LD_PRELOAD=libfastcopy.so). */
    for (int f = 0; f < NFUNCS; f++) {
        Dl_info info;
        void *p = dlsym(RTLD_DEFAULT, func_names[f]);
        if (p && dladdr(p, &info) && info.dli_fname && strstr(info.dli_fname, "libfastcopy")) {
            printf("dropin %s %s\n", func_names[f], info.dli_fname);
            impls[nimpls++] = (struct impl){ (enum func)f, "dropin", to_fn(p) };
        }
    }
    const struct fc_variant *v;
    size_t nv = fc_variants(&v);
    for (size_t i = 0; i < nv && nimpls < MAXIMPLS; i++) {
        int f = func_index(v[i].func);
        if (f < 0 || !v[i].usable)
            continue;
        impls[nimpls++] = (struct impl){ (enum func)f, v[i].name, v[i].fn };
    }
}

/* ---- running ----------------------------------------------------------------------- */
static void *run_one(unsigned id, const struct impl *im, const struct casedef *c,
                     const struct call *k)
{
    stub_fn s = stub(id);
    if (im->f == F_MEMSET)
        return s(dst_buf + k->doff, (uintptr_t)c->set_value, k->n, im->fn);
    if (c->overlap)   /* one buffer: src at 4096, dst at 4096 + overlap */
        return s(src_buf + 4096 + c->overlap, (uintptr_t)(src_buf + 4096), k->n, im->fn);
    return s(dst_buf + k->doff, (uintptr_t)(src_buf + k->soff), k->n, im->fn);
}

/* ---- the sweep -------------------------------------------------------------------- */
static int sweep;
static unsigned sw_soffs = 8, sw_doffs = 8, sw_set_doffs = 8;
static uint32_t sw_sizes[1200];
static size_t sw_nsizes;

static const char *sw_size_spec;   /* --sizes: ranges instead of the default set */

/* "A-B,C,..." (each size at most 65537, at most 1200 sizes): 0 on success. */
static int parse_sizes(const char *spec)
{
    const char *p = spec;
    sw_nsizes = 0;
    while (*p) {
        char *e;
        unsigned long lo = strtoul(p, &e, 10), hi = lo;
        if (e == p)
            return -1;
        p = e;
        if (*p == '-') {
            hi = strtoul(++p, &e, 10);
            if (e == p)
                return -1;
            p = e;
        }
        if (hi < lo || hi > 65537 || sw_nsizes + (hi - lo + 1) > 1200)
            return -1;
        for (unsigned long n = lo; n <= hi; n++)
            sw_sizes[sw_nsizes++] = (uint32_t)n;
        if (*p == ',')
            p++;
        else if (*p)
            return -1;
    }
    return sw_nsizes ? 0 : -1;
}

static void sweep_sizes(void)
{
    if (sw_size_spec)
        return;   /* parsed with the options */
    for (uint32_t n = 0; n <= 1100; n++)
        sw_sizes[sw_nsizes++] = n;
    for (uint32_t p = 2048; p <= 64 * KiB; p *= 2) {   /* 1024 +-1 are inside 0..1100 */
        sw_sizes[sw_nsizes++] = p - 1;
        sw_sizes[sw_nsizes++] = p;
        sw_sizes[sw_nsizes++] = p + 1;
    }
}

enum sweep_case { SW_COPY, SW_FWD, SW_BWD, SW_C0, SW_C5A };
static const char *const sweep_case_names[] = { "copy", "fwd", "bwd", "c0", "c5a" };

static unsigned sweep_block(unsigned id, const struct impl *im, enum sweep_case sc)
{
    unsigned long first = seq_calls;
    size_t cells = 0;
    stub_fn s = stub(id);   /* the same stub for the whole block */
    seq_calls--;
    for (size_t i = 0; i < sw_nsizes; i++) {
        size_t n = sw_sizes[i];
        if (sc == SW_C0 || sc == SW_C5A) {
            for (unsigned d = 0; d < sw_set_doffs; d++, cells++)
                (void)s(dst_buf + d, sc == SW_C0 ? 0 : 0x5a, n, im->fn);
            continue;
        }
        for (unsigned a = 0; a < sw_soffs; a++)
            for (unsigned d = 0; d < sw_doffs; d++, cells++) {
                unsigned char *dp, *sp;
                if (sc == SW_COPY) {
                    dp = dst_buf + d;
                    sp = src_buf + a;
                } else if (sc == SW_FWD) {   /* dst below src: a forward copy is safe */
                    dp = src_buf + 4096 + d;
                    sp = src_buf + 4096 + 64 + a;
                } else {                     /* dst above src: backward */
                    dp = src_buf + 4096 + 64 + d;
                    sp = src_buf + 4096 + a;
                }
                (void)s(dp, (uintptr_t)sp, n, im->fn);
            }
    }
    seq_calls += cells;
    printf("block %u %s %s %s %lu %zu\n", id, func_names[im->f], im->name,
           sweep_case_names[sc], first, cells);
    return id + 1;
}

static unsigned run_sweep(unsigned id, const int *want, int any_want)
{
    printf("sweep sizes %zu", sw_nsizes);
    for (size_t i = 0; i < sw_nsizes; i++)
        printf(" %u", (unsigned)sw_sizes[i]);
    printf("\nsweep offsets %u %u %u\n", sw_soffs, sw_doffs, sw_set_doffs);
    printf("seqbase %lu\n", seq_calls);
    for (size_t ii = 0; ii < nimpls; ii++) {
        const struct impl *im = &impls[ii];
        if (any_want && !want[im->f])
            continue;
        if (im->f == F_MEMCPY) {
            id = sweep_block(id, im, SW_COPY);
        } else if (im->f == F_MEMMOVE) {
            id = sweep_block(id, im, SW_FWD);
            id = sweep_block(id, im, SW_BWD);
        } else {
            id = sweep_block(id, im, SW_C0);
            id = sweep_block(id, im, SW_C5A);
        }
    }
    return id;
}

static void usage(void)
{
    fprintf(stderr,
            "usage: count [--dists DIR] [--draws N] [--seed S] [--func NAME]... [--per-size]\n"
            "             [--random-sizes] [--no-libc] [--mixes all]\n"
            "       count --sweep [--offsets SRC DST SETDST] [--sizes A-B,C,...] [--func NAME]...\n"
            "  Run under qemu-user with -plugin insn_count.so; see tools/insn-count/run.sh.\n");
}

int main(int argc, char **argv)
{
    const char *dist_dir = "bench/distributions";
    size_t draws = 20000;
    uint64_t seed = 20240601;
    int with_libc = 1;
    int want[NFUNCS] = { 0 }, any_want = 0;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--dists") == 0 && i + 1 < argc) {
            dist_dir = argv[++i];
        } else if (strcmp(argv[i], "--draws") == 0 && i + 1 < argc) {
            draws = strtoul(argv[++i], NULL, 0);
        } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 0);
        } else if (strcmp(argv[i], "--func") == 0 && i + 1 < argc) {
            int f = func_index(argv[++i]);
            if (f < 0) {
                usage();
                return 2;
            }
            want[f] = any_want = 1;
        } else if (strcmp(argv[i], "--mixes") == 0 && i + 1 < argc &&
                   strcmp(argv[i + 1], "all") == 0) {
            all_mixes = 1;
            i++;
        } else if (strcmp(argv[i], "--random-sizes") == 0) {
            random_sizes = 1;
        } else if (strcmp(argv[i], "--per-size") == 0) {
            per_size = 1;
        } else if (strcmp(argv[i], "--sweep") == 0) {
            sweep = 1;
        } else if (strcmp(argv[i], "--offsets") == 0 && i + 3 < argc) {
            sw_soffs = (unsigned)strtoul(argv[++i], NULL, 0);
            sw_doffs = (unsigned)strtoul(argv[++i], NULL, 0);
            sw_set_doffs = (unsigned)strtoul(argv[++i], NULL, 0);
            if (!sw_soffs || !sw_doffs || !sw_set_doffs || sw_soffs > 64 || sw_doffs > 64 ||
                sw_set_doffs > 64) {
                usage();
                return 2;
            }
        } else if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) {
            sw_size_spec = argv[++i];
            if (parse_sizes(sw_size_spec)) {
                fprintf(stderr, "count: --sizes wants ranges like 0-300,4096 (at most "
                                "1200 sizes, each at most 65537): '%s'\n", sw_size_spec);
                return 2;
            }
        } else if (strcmp(argv[i], "--no-libc") == 0) {
            with_libc = 0;
        } else {
            usage();
            return 2;
        }
    }
    if (draws == 0)
        draws = 1;

    src_buf = mmap(NULL, BUF_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                   -1, 0);
    dst_buf = mmap(NULL, BUF_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                   -1, 0);
    if (src_buf == MAP_FAILED || dst_buf == MAP_FAILED) {
        perror("count: mmap");
        return 1;
    }
    for (size_t i = 0; i < BUF_BYTES; i++) {
        src_buf[i] = (unsigned char)(i * 7 + 1);
        dst_buf[i] = (unsigned char)(i * 13 + 5);
    }

#if defined(__aarch64__)
    printf("arch aarch64\n");
#elif defined(__riscv)
    printf("arch riscv64\n");
#endif
    for (int f = 0; f < NFUNCS; f++) {
        const char *sel = fc_selected(func_names[f]);
        printf("selected %s %s\n", func_names[f], sel ? sel : "?");
    }
    printf("sampling %s\n", random_sizes ? "random" : "stratified");
    if (!sweep)
        build_cases(dist_dir, draws, seed);
    build_impls(with_libc);

    /* The calibration: the empty function through stub 0, the same way. */
    unsigned id = 0;
    for (int r = 0; r < 64; r++)
        (void)stub(0)(dst_buf, (uintptr_t)src_buf, 8, fcic_empty);
    printf("calib 0\n");
    for (int r = 0; r < 4; r++)
        (void)stub(1)(dst_buf, (uintptr_t)src_buf, 8, fcic_known);
    printf("known 1 8\n");
    id = 2;
    if (sweep) {
        sweep_sizes();
        (void)run_sweep(id, want, any_want);
        fflush(stdout);
        return 0;
    }

    for (int f = 0; f < NFUNCS; f++) {
        if (any_want && !want[f])
            continue;
        for (size_t ci = 0; ci < ncases[f]; ci++) {
            const struct casedef *c = &cases[f][ci];
            printf("case %s %s %s %zu %s\n", func_names[f], c->name, kind_names[c->kind],
                   c->ncalls, c->desc);
        }
        for (size_t ii = 0; ii < nimpls; ii++) {
            const struct impl *im = &impls[ii];
            if (im->f != (enum func)f)
                continue;
            for (size_t ci = 0; ci < ncases[f]; ci++) {
                const struct casedef *c = &cases[f][ci];
                if (id >= NSTUBS) {
                    fprintf(stderr, "count: more than %d measurements\n", NSTUBS - 1);
                    return 1;
                }
                for (size_t k = 0; k < c->ncalls; k++)
                    (void)run_one(id, im, c, &c->calls[k]);
                printf("map %u %s %s %s %zu\n", id, func_names[f], im->name, c->name,
                       c->ncalls);
                id++;
            }
        }
    }
    fflush(stdout);
    return 0;
}
