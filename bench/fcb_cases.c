/* fcb_cases.c - the cases (fcb.h: "case"): the builder that adds them and lays out
 * their ops, and every group but the size mixes (fcb_mix.c): sizes, misal,
 * pageend, dist, cold, tune, ws, overlap, chain, prog and user; which impls time
 * which case.  fcb_setup (fcb_setup.c) calls the groups in table order. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "fcb.h"
#include "fcb_internal.h"

const char *fcb_func_name(int f)
{
    return f == FCB_MEMCPY ? "memcpy" : f == FCB_MEMMOVE ? "memmove" : "memset";
}

/* ---- random numbers (splitmix64: same draws on every platform) ----------------------- */

uint64_t fcb_rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t fcb_rng_below(uint64_t *s, uint64_t n)
{
    return n ? fcb_rng_next(s) % n : 0;
}

static void shuffle_u32(uint32_t *a, size_t n, uint64_t *s)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = fcb_rng_below(s, i);
        uint32_t t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

/* ---- cases ---------------------------------------------------------------------------- */

static int func_on(const struct fcb_builder *b, int f)
{
    return fcb_in_list(b->st->cfg.funcs, fcb_func_name(f), 0);
}

int fcb_group_on(const struct fcb_builder *b, const char *g)
{
    if (b->mix_for_mixread && !strcmp(g, "mix"))
        return 1;
    return fcb_in_list(b->st->cfg.groups, g, 0);
}

/* A case's op array is read on every call of the timed loop, right after the
 * call's stores.  When its address matches the buffers' in the low 12 bits (4K
 * aliasing: the core compares only those bits of a load with earlier stores) the
 * load waits for the stores: on the Zen 5 VM, with op arrays from malloc, single
 * cells of one implementation took 1.15-1.27x their neighbours' time (memmove
 * misal/20 and 41, memcpy misal/20: only libfastcopy's; libc at others), a
 * property of where malloc put the array, not of the implementation.  So a
 * short array (the one-op cases) sits at page offset 2048-3071, away from every
 * small case's buffer offsets (0-1023: sizes, misal, dist, overlap; 3072-4095:
 * pageend); longer arrays (the mixes) span pages and are read once per call in
 * turn, as a program's own data would be.  The pool lives as long as the process. */
#define OPS_POOL_MAX 5 /* ops per 64-byte slot */
static struct fcb_op *ops_alloc(size_t nops)
{
    static unsigned char *page;
    static unsigned slot = 16;
    if (nops > OPS_POOL_MAX)
        return calloc(nops, sizeof(struct fcb_op));
    if (slot == 16) {
        page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (page == MAP_FAILED)
            return calloc(nops, sizeof(struct fcb_op));
        slot = 0;
    }
    return (struct fcb_op *)(void *)(page + 2048 + 64 * slot++);
}

void fcb_ops_free(struct fcb_case *c)
{
    if (c->nops > OPS_POOL_MAX)
        free(c->ops);
}

struct fcb_case *fcb_new_case(struct fcb_builder *b, int f, const char *group, size_t size,
                              size_t nops, const char *fmt, ...)
{
    char key[40];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(key, sizeof key, fmt, ap);
    va_end(ap);
    if (!func_on(b, f) || !fcb_group_on(b, group) || size > b->max_size)
        return NULL;
    struct fcb_state *st = b->st;
    struct fcb_case c;
    memset(&c, 0, sizeof c);
    int pre = snprintf(c.name, sizeof c.name, "%s/%s/", fcb_func_name(f), group);
    snprintf(c.name + pre, sizeof c.name - pre, "%s", key);
    if (!fcb_in_list(st->cfg.cases, c.name, 1))
        return NULL;
    if (st->ncases == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 256;
        st->cases = realloc(st->cases, b->cap * sizeof *st->cases);
    }
    c.func = f;
    c.group = group;
    c.size = size;
    c.sbase = b->S;
    c.dbase = b->D;
    c.nops = nops;
    c.ops = ops_alloc(nops);
    struct fcb_case *p = &st->cases[st->ncases++];
    *p = c;
    return p;
}

static const size_t quick_small[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64};

/* Sizes just off a power of two that programs copy: a page less its 4-byte header
 * (sqlite's overflow pages of 4, 8 and 16 KiB hold 4092, 8188 and 16380 bytes of
 * data), a page plus a header word, and a page one byte either side. */
static const size_t off_pow2[] = {4092, 4095, 4097, 4100, 8188, 8196, 16380};
static const size_t off_pow2_quick[] = {4092, 4100};

/* Inserts v (if not there) into the ascending list out[0..n); the new n. */
static size_t insert_sorted(size_t *out, size_t n, size_t v)
{
    size_t i = n;
    while (i > 0 && out[i - 1] > v)
        i--;
    if (i > 0 && out[i - 1] == v)
        return n;
    memmove(out + i + 1, out + i, (n - i) * sizeof *out);
    out[i] = v;
    return n + 1;
}

/* Sizes: 0..64 every size, then 96, 128, 192, 256, ... (powers of two and the
 * midpoints between them) up to the limit, and off_pow2.  --quick: a subset up
 * to 1 MiB. */
static size_t size_list(const struct fcb_builder *b, size_t *out, size_t limit)
{
    size_t n = 0;
    int quick = b->st->cfg.quick;
    const size_t *off = quick ? off_pow2_quick : off_pow2;
    size_t noff = quick ? sizeof off_pow2_quick / sizeof *off_pow2_quick
                        : sizeof off_pow2 / sizeof *off_pow2;
    if (quick) {
        for (size_t i = 0; i < sizeof quick_small / sizeof *quick_small; i++)
            out[n++] = quick_small[i];
        for (size_t s = 96; s <= limit; s = s == 96 ? 128 : s * 2)
            out[n++] = s;
    } else {
        for (size_t s = 0; s <= 64 && s <= limit; s++)
            out[n++] = s;
        for (size_t p = 128; p / 2 * 3 / 2 <= limit && p <= ((size_t)1 << 40); p *= 2) {
            if (p / 4 * 3 <= limit)
                out[n++] = p / 4 * 3;
            if (p <= limit)
                out[n++] = p;
        }
    }
    for (size_t i = 0; i < noff; i++)
        if (off[i] <= limit)
            n = insert_sorted(out, n, off[i]);
    return n;
}

static void fill_one(struct fcb_case *c, uint32_t doff, uint32_t soff, size_t n)
{
    c->ops[0].doff = doff;
    c->ops[0].soff = soff;
    c->ops[0].n = (uint32_t)n;
}

void fcb_cases_sizes(struct fcb_builder *b)
{
    size_t sizes[256], n = size_list(b, sizes, b->max_size);
    for (size_t i = 0; i < n; i++)
        for (int f = 0; f < FCB_NFUNCS; f++) {
            struct fcb_case *c = fcb_new_case(b, f, "sizes", sizes[i], 1, "%zu", sizes[i]);
            if (c)
                fill_one(c, 0, 0, sizes[i]);
        }
    /* Misaligned: src + 1, dst + 3 (memset: dst + 3); up to 4 MiB. */
    n = size_list(b, sizes, b->max_size < 4 * MiB ? b->max_size : 4 * MiB);
    for (size_t i = 0; i < n; i++) {
        if (!sizes[i])
            continue;
        for (int f = 0; f < FCB_NFUNCS; f++) {
            struct fcb_case *c = fcb_new_case(b, f, "misal", sizes[i], 1, "%zu", sizes[i]);
            if (c)
                fill_one(c, 3, 1, sizes[i]);
        }
    }
}

/* Small calls whose buffers end where an unmapped page begins (the end of an
 * mmap'd file, a guard page, a large malloc chunk): masked vector accesses whose
 * masked-out bytes reach into such a page are correct but can cost 100x.  Size 0
 * is a call at the end pointer itself, the first byte of the unmapped page (as
 * memcpy(dst, NULL, 0) is at page 0): any access there, even one with every byte
 * masked out, pays that cost. */
void fcb_cases_pageend(struct fcb_builder *b)
{
    static const size_t sizes[] = {0, 1, 4, 8, 16, 24, 32, 48, 63, 64, 100, 128};
    long pg = sysconf(_SC_PAGESIZE);
    if (!fcb_group_on(b, "pageend"))
        return;
    if (!b->end_pages) {
        unsigned char *m = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED)
            return;
        memset(m, 0x5a, 4 * pg);
        mprotect(m + pg, pg, PROT_NONE);
        mprotect(m + 3 * pg, pg, PROT_NONE);
        b->end_pages = m;
    }
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (int f = 0; f < FCB_NFUNCS; f++) {
            struct fcb_case *c = fcb_new_case(b, f, "pageend", sizes[i], 1, "%zu", sizes[i]);
            if (!c)
                continue;
            c->sbase = b->end_pages;
            c->dbase = b->end_pages + 2 * pg;
            fill_one(c, (uint32_t)(pg - sizes[i]), (uint32_t)(pg - sizes[i]), sizes[i]);
        }
}

/* dst - src distance sweep at 4096 bytes per call.  memmove: dst = src + d, truly
 * overlapping when d < 4096 (rep movsb's short-distance cliff), and 4096 +- k.
 * memcpy (no overlap allowed): dst = src + 64 KiB + d, the same distance modulo the
 * page (4K aliasing, and glibc bug 30994's "dst a few bytes after src mod 4096"). */
void fcb_cases_dist(struct fcb_builder *b)
{
    static const long quick_d[] = {1, 2, 3, 8, 16, 32, 63, 64, 4095, 4096, 4097};
    static const long ks[] = {1, 2, 4, 8, 16, 32, 64};
    long ds[128];
    size_t nd = 0;
    if (b->st->cfg.quick) {
        for (size_t i = 0; i < sizeof quick_d / sizeof *quick_d; i++)
            ds[nd++] = quick_d[i];
    } else {
        for (long d = 1; d <= 64; d++)
            ds[nd++] = d;
        for (int i = 6; i >= 0; i--)
            ds[nd++] = 4096 - ks[i];
        ds[nd++] = 4096;
        for (int i = 0; i < 7; i++)
            ds[nd++] = 4096 + ks[i];
    }
    const size_t n = 4096;
    for (size_t i = 0; i < nd; i++) {
        struct fcb_case *c = fcb_new_case(b, FCB_MEMMOVE, "dist", n, 1, "d=%ld", ds[i]);
        if (c) {
            c->dbase = b->S;
            c->param = ds[i];
            fill_one(c, (uint32_t)(8192 + ds[i]), 8192, n);
        }
        c = fcb_new_case(b, FCB_MEMCPY, "dist", n, 1, "d=%ld", ds[i]);
        if (c) {
            c->dbase = b->S;
            c->param = ds[i];
            fill_one(c, (uint32_t)(8192 + 64 * KiB + ds[i]), 8192, n);
        }
    }
}

/* Cold: each call takes the next of a shuffled list of page-aligned slots in a
 * region far larger than the LLC (independent shuffles for src and dst). */
static size_t cold_slots(const struct fcb_builder *b, size_t n)
{
    size_t slot = (n + 4095) & ~(size_t)4095, nslots = b->cold_region / slot;
    return nslots > 65536 ? 65536 : nslots;
}

static void cold_walk(struct fcb_builder *b, struct fcb_case *c, size_t n)
{
    size_t slot = (n + 4095) & ~(size_t)4095, nslots = c->nops;
    c->cold = 1;
    uint32_t *ps = malloc(nslots * sizeof *ps), *pd = malloc(nslots * sizeof *pd);
    for (size_t k = 0; k < nslots; k++)
        ps[k] = pd[k] = (uint32_t)k;
    shuffle_u32(ps, nslots, &b->rng);
    shuffle_u32(pd, nslots, &b->rng);
    for (size_t k = 0; k < nslots; k++) {
        c->ops[k].soff = (uint32_t)(ps[k] * slot);
        c->ops[k].doff = (uint32_t)(pd[k] * slot);
        c->ops[k].n = (uint32_t)n;
    }
    free(ps);
    free(pd);
}

void fcb_cases_cold(struct fcb_builder *b)
{
    /* 2, 8 and 32 KiB too: the rep movsb/stosb cut-overs are hot-versus-cold
     * trades decided near there, and need the cold side measured at each size. */
    static const size_t full[] = {16, 64, 256, 1024, 2048, 4096, 8192, 16384, 32768,
                                  65536, 262144, 1048576, 4194304};
    static const size_t quick[] = {64, 1024, 65536};
    const size_t *sz = b->st->cfg.quick ? quick : full;
    size_t nsz = b->st->cfg.quick ? 3 : sizeof full / sizeof *full;
    for (size_t i = 0; i < nsz; i++)
        for (int f = 0; f < FCB_NFUNCS; f++) {
            struct fcb_case *c =
                fcb_new_case(b, f, "cold", sz[i], cold_slots(b, sz[i]), "%zu", sz[i]);
            if (c)
                cold_walk(b, c, sz[i]);
        }
}

/* ---- the "tune" group (fcbench --tune) ---- */

size_t fcb_tune_sizes(int quick, int which, const size_t **sizes)
{
    /* the cut-over grid: steps of 1.5x/1.33x, where the rep movsb/stosb, DC ZVA and
     * 4K-aliasing cut-overs of the policies lie (0.5-64 KiB), on to 1 MiB */
    static const size_t grid[] = {256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096,
                                  6144, 8192, 12288, 16384, 24576, 32768, 49152,
                                  65536, 131072, 262144, 524288, 1048576};
    static const size_t grid_quick[] = {512, 1024, 2048, 4096, 8192, 16384, 32768, 65536};
    /* the non-temporal threshold: from 1 MiB to beyond every LLC the policy knows */
    static const size_t large[] = {2 << 20, 4 << 20, 8 << 20, 16 << 20, 32 << 20,
                                   64 << 20, 128 << 20, 256 << 20};
    static const size_t large_quick[] = {4 << 20, 16 << 20, 64 << 20};
    static const size_t small[] = {1, 2, 3, 4, 6, 8, 12, 16, 20, 24, 32, 40, 48, 56, 63, 64};
    static const size_t small_quick[] = {1, 4, 8, 16, 32, 64};
#define FCB_PICK(a, q)                                                                   \
    (*sizes = quick ? q : a, quick ? sizeof q / sizeof *q : sizeof a / sizeof *a)
    if (which == FCB_TUNE_GRID)
        return FCB_PICK(grid, grid_quick);
    if (which == FCB_TUNE_LARGE)
        return FCB_PICK(large, large_quick);
    return FCB_PICK(small, small_quick);
#undef FCB_PICK
}

static void tune_cold_case(struct fcb_builder *b, int f, size_t n)
{
    size_t nslots = cold_slots(b, n);
    struct fcb_case *c = nslots >= 4 ? fcb_new_case(b, f, "tune", n, nslots, "cold/%zu", n) : NULL;
    if (c)
        cold_walk(b, c, n);
}

void fcb_cases_tune(struct fcb_builder *b)
{
    const size_t *sz;
    size_t n;
    if (!b->st->cfg.tune)
        return;
    for (int which = FCB_TUNE_GRID; which <= FCB_TUNE_LARGE; which++) {
        n = fcb_tune_sizes(b->st->cfg.quick, which, &sz);
        for (size_t i = 0; i < n; i++)
            for (int f = 0; f < FCB_NFUNCS; f++) {
                struct fcb_case *c = fcb_new_case(b, f, "tune", sz[i], 1, "hot/%zu", sz[i]);
                if (c)
                    fill_one(c, 0, 0, sz[i]);
                tune_cold_case(b, f, sz[i]);
            }
    }
    /* 4K aliasing: dst 64 bytes after src modulo 4096 (as the dist group's memcpy) */
    n = fcb_tune_sizes(b->st->cfg.quick, FCB_TUNE_GRID, &sz);
    for (size_t i = 0; i < n && sz[i] <= 65536; i++) {
        struct fcb_case *c = fcb_new_case(b, FCB_MEMCPY, "tune", sz[i], 1, "alias/%zu", sz[i]);
        if (c) {
            c->dbase = b->S;
            c->param = 64;
            fill_one(c, (uint32_t)(8192 + 64 * KiB + 64), 8192, sz[i]);
        }
    }
    n = fcb_tune_sizes(b->st->cfg.quick, FCB_TUNE_SMALL, &sz);
    for (size_t i = 0; i < n; i++) {
        struct fcb_case *c = fcb_new_case(b, FCB_MEMSET, "tune", sz[i], 1, "small/%zu", sz[i]);
        if (c)
            fill_one(c, 0, 0, sz[i]);
    }
}

/* Working sets from the cache sizes: a copy moves ws/4 bytes (source + destination
 * = half the level: it stays resident), memset ws/2.  DRAM: 4x L3 in all. */
void fcb_cases_ws(struct fcb_builder *b)
{
    const struct fcb_cache *k = &b->st->cache;
    const char *names[4] = {"L1", "L2", "L3", "DRAM"};
    size_t ws[4] = {k->l1, k->l2, k->l3, 0};
    for (int l = 0; l < 4; l++)
        for (int f = 0; f < FCB_NFUNCS; f++) {
            size_t n = l == 3 ? (f == FCB_MEMSET ? 4 : 2) * k->l3
                              : (f == FCB_MEMSET ? ws[l] / 2 : ws[l] / 4);
            struct fcb_case *c = fcb_new_case(b, f, "ws", n, 1, "%s", names[l]);
            if (c) {
                c->cold = l == 3;
                fill_one(c, 0, 0, n);
            }
        }
}

/* Overlapping memmove, half the size apart: fwd = dst below src (copied forwards),
 * bwd = dst above src (copied backwards). */
void fcb_cases_overlap(struct fcb_builder *b)
{
    static const size_t full[] = {16, 64, 256, 1024, 4096, 65536, 1048576};
    static const size_t quick[] = {64, 4096, 65536};
    const size_t *sz = b->st->cfg.quick ? quick : full;
    size_t nsz = b->st->cfg.quick ? 3 : sizeof full / sizeof *full;
    for (size_t i = 0; i < nsz; i++)
        for (int bwd = 0; bwd < 2; bwd++) {
            size_t n = sz[i], d = n / 2;
            struct fcb_case *c =
                fcb_new_case(b, FCB_MEMMOVE, "overlap", n, 1, "%s/%zu", bwd ? "bwd" : "fwd", n);
            if (!c)
                continue;
            c->dbase = b->S;
            c->param = bwd ? (long)d : -(long)d;
            uint32_t base = 64 * KiB;
            if (bwd)
                fill_one(c, (uint32_t)(base + d), base, n);
            else
                fill_one(c, base, (uint32_t)(base + d), n);
        }
}

/* Chain: the latency of a call whose source the caller has just written and whose
 * destination it reads right after, each call's data depending on the last one's
 * (a value passed on through memory, as in a parser that copies a field out of a
 * buffer it just filled).  The caller stores a word of w bytes, the largest power
 * of two up to min(n, 8), at src (memset: the fill byte is the last value), the
 * call copies n bytes, and the caller loads w bytes at dst: the next value.  So
 * the time per call is the whole round trip, store-to-load forwarding included:
 * a load that cannot take its data from an older store still in flight waits for
 * that store to reach the cache.  The sizes, mixes and other groups never feed a
 * call's result to the next one, so they cannot show this.  "<n>/w<w>": the same
 * with a caller whose value is a 16- or 32-byte vector, stored and loaded with one
 * access each (fcb_chain.c), where the CPU has one: a callee that writes those
 * bytes as smaller pieces cannot forward to it. */
void fcb_cases_chain(struct fcb_builder *b)
{
    static const size_t full[] = {1, 2, 4, 8, 12, 16, 24, 32, 48, 63, 64, 96, 128, 256, 1024};
    static const size_t quick[] = {1, 8, 32, 64, 256};
    static const size_t wide[][2] = {{16, 16}, {32, 32}}; /* size, width */
    const size_t *sz = b->st->cfg.quick ? quick : full;
    size_t nsz = b->st->cfg.quick ? sizeof quick / sizeof *quick : sizeof full / sizeof *full;
    for (size_t i = 0; i < nsz; i++)
        for (int f = 0; f < FCB_NFUNCS; f++) {
            struct fcb_case *c = fcb_new_case(b, f, "chain", sz[i], 1, "%zu", sz[i]);
            if (c) {
                c->chain = 1;
                fill_one(c, 0, 0, sz[i]);
            }
        }
    for (size_t i = 0; i < sizeof wide / sizeof *wide; i++) {
        size_t n = wide[i][0], w = wide[i][1];
        if (!fcb_group_on(b, "chain") || !fcb_chain_wide_usable(w))
            continue;
        for (int f = 0; f < FCB_NFUNCS; f++) {
            struct fcb_case *c = fcb_new_case(b, f, "chain", n, 1, "%zu/w%zu", n, w);
            if (c) {
                c->chain = 1;
                c->chain_w = (int)w;
                fill_one(c, 0, 0, n);
            }
        }
    }
}

/* Program patterns (fcb_prog.c says what each does and where its buffers lie):
 * memcpy only, the function those programs call. */
void fcb_cases_prog(struct fcb_builder *b)
{
    if (!fcb_group_on(b, "prog"))
        return;
    for (size_t i = 0; i < fcb_nprog_defs; i++) {
        const struct fcb_prog_def *p = &fcb_prog_defs[i];
        size_t nops = fcb_prog_nops(p, b->cold_region);
        if ((b->st->cfg.quick && !p->quick) || !nops)
            continue;
        struct fcb_case *c = fcb_new_case(b, FCB_MEMCPY, "prog", p->n, nops, "%s", p->key);
        if (!c)
            continue;
        c->prog = p->prog;
        c->param = (long)p->stride;
        c->cold = p->prog == FCB_PROG_SQLITE; /* no warm-up: it streams from memory */
        fcb_prog_layout(p, c->ops, nops);
    }
}

/* fc_copy_user/fc_clear_user (the user-copy contract: docs/usercopy.md) against
 * fc_memcpy/fc_memset, and one caught fault per call: 8 KiB from a buffer whose
 * second page is PROT_NONE. */
void fcb_cases_user(struct fcb_builder *b)
{
    static const size_t full[] = {0, 1, 8, 16, 32, 64, 128, 256, 4096, 65536, 262144,
                                  1048576};
    static const size_t quick[] = {0, 16, 256, 65536};
    const size_t *sz = b->st->cfg.quick ? quick : full;
    size_t nsz = b->st->cfg.quick ? 4 : sizeof full / sizeof *full;
    for (size_t i = 0; i < nsz; i++) {
        struct fcb_case *c = fcb_new_case(b, FCB_MEMCPY, "user", sz[i], 1, "%zu", sz[i]);
        if (c) {
            c->user = 1;
            fill_one(c, 0, 0, sz[i]);
        }
        c = fcb_new_case(b, FCB_MEMSET, "user", sz[i], 1, "%zu", sz[i]);
        if (c) {
            c->user = 1;
            fill_one(c, 0, 0, sz[i]);
        }
    }
    long pg = sysconf(_SC_PAGESIZE);
    if (!b->fault_page) {
        void *m = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                       -1, 0);
        if (m == MAP_FAILED)
            return;
        memset(m, 0x5a, pg);
        mprotect((char *)m + pg, pg, PROT_NONE);
        b->fault_page = m;
    }
    struct fcb_case *c = fcb_new_case(b, FCB_MEMCPY, "user", 2 * pg, 1, "fault");
    if (c) {
        c->user = c->fault = 1;
        c->sbase = b->fault_page;
        fill_one(c, 0, 0, 2 * pg);
    }
    c = fcb_new_case(b, FCB_MEMSET, "user", 2 * pg, 1, "fault");
    if (c) {
        c->user = c->fault = 1;
        c->dbase = b->fault_page;
        fill_one(c, 0, 0, 2 * pg);
    }
}

int fcb_impl_fits(const struct fcb_case *c, const struct fcb_impl *im)
{
    if (im->func != c->func)
        return 0;
    if (c->fault)
        return im->flags & FCB_I_USER;
    if (im->flags & FCB_I_USER)
        return c->user;
    if (c->user)
        return im->flags & (FCB_I_LIBC | FCB_I_AUTO);
    if (im->flags & FCB_I_EMPTY)
        return c->mix || c->prog; /* prog: the caller's own share of the time */
    if (im->flags & FCB_I_LIMIT)
        return !strcmp(c->group, "ws");
    return 1;
}
