/* fcb_setup.c - the run's set-up and tear-down: the machine (architecture, cache
 * sizes, the pinned CPU), the two arenas, then the implementations (fcb_impls.c)
 * and the cases (fcb_cases.c, fcb_mix.c) put together into the items to time.
 *
 * Memory: two arenas, S (sources) and D (destinations), mapped once and filled so
 * every page is real.  Hot cases reuse the same bytes every call; cold cases walk a
 * shuffled list of page-aligned slots spread over a region of 4x the last-level
 * cache in each arena (2x for --quick), so every call misses.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "fcb.h"
#include "fcb_internal.h"

const char *fcb_arch(void)
{
#if defined(__x86_64__)
    return "x86_64";
#elif defined(__aarch64__)
    return "aarch64";
#elif defined(__riscv) && __riscv_xlen == 64
    return "riscv64";
#else
    return "other";
#endif
}

/* ---- cache sizes --------------------------------------------------------------------- */

/* The first line of cpu0's cache index idx's sysfs file `what`, without its
 * newline, into buf; 0 when there is none. */
static int read_cache_attr(int idx, const char *what, char *buf, size_t size)
{
    char path[96];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/%s", idx, what);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int ok = fgets(buf, (int)size, f) != NULL;
    fclose(f);
    if (ok)
        buf[strcspn(buf, "\n")] = 0;
    return ok;
}

static size_t read_sysfs_cache(int level, int data)
{
    size_t best = 0;
    for (int idx = 0; idx < 8; idx++) {
        char buf[64];
        size_t v;
        if (!read_cache_attr(idx, "level", buf, sizeof buf) || atoi(buf) != level)
            continue;
        if (!read_cache_attr(idx, "type", buf, sizeof buf) ||
            (data && !strncmp(buf, "Instruction", 11)))
            continue;
        if (read_cache_attr(idx, "size", buf, sizeof buf) && !fcb_parse_size(buf, &v) &&
            v > best)
            best = v;
    }
    return best;
}

static void detect_caches(const struct fcb_config *cfg, struct fcb_cache *c)
{
    static const size_t dflt[3] = {48 * KiB, 1 * MiB, 32 * MiB};
    /* Sanity bounds: VMs report zeros or absurd values (this project's reference VM:
     * CPUID, hence sysconf, claims a 508 MiB L3; the real one is 32 MiB). */
    static const size_t lo[3] = {4 * KiB, 64 * KiB, 256 * KiB};
    static const size_t hi[3] = {1 * MiB, 64 * MiB, 256 * MiB};
    const size_t flag[3] = {cfg->l1, cfg->l2, cfg->l3};
    size_t *out[3] = {&c->l1, &c->l2, &c->l3};
    const char **src[3] = {&c->src_l1, &c->src_l2, &c->src_l3};
    for (int l = 0; l < 3; l++) {
        size_t v;
        if (flag[l]) {
            *out[l] = flag[l];
            *src[l] = "flag";
            continue;
        }
        v = read_sysfs_cache(l + 1, 1);
        if (v >= lo[l] && v <= hi[l]) {
            *out[l] = v;
            *src[l] = "sysfs";
            continue;
        }
        long sc = -1;
#ifdef _SC_LEVEL1_DCACHE_SIZE
        sc = sysconf(l == 0 ? _SC_LEVEL1_DCACHE_SIZE
                     : l == 1 ? _SC_LEVEL2_CACHE_SIZE
                              : _SC_LEVEL3_CACHE_SIZE);
#endif
        if (sc > 0 && (size_t)sc >= lo[l] && (size_t)sc <= hi[l]) {
            *out[l] = (size_t)sc;
            *src[l] = "sysconf";
            continue;
        }
        *out[l] = dflt[l];
        *src[l] = "default";
    }
}

/* ---- set-up ------------------------------------------------------------------------ */

static void *map_arena(size_t n)
{
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_NOHUGEPAGE
    /* Plain 4K pages: the same for every impl, and no THP collapse in mid-run. */
    (void)madvise(p, n, MADV_NOHUGEPAGE);
#endif
    /* Touch every page (non-zero: no shared zero page behind reads). */
    for (size_t i = 0; i < n; i += 4096)
        ((volatile unsigned char *)p)[i] = (unsigned char)(i >> 12) | 1;
    return p;
}

static int pin_cpu(struct fcb_state *st)
{
    int cpu = st->cfg.cpu >= 0 ? st->cfg.cpu : sched_getcpu();
    if (cpu < 0)
        return -1;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set)) {
        fcb_err("cannot pin to CPU %d: %s\n", cpu, strerror(errno));
        return -1;
    }
    return cpu;
}

static int case_order(const void *a, const void *b)
{
    const struct fcb_case *x = a, *y = b;
    if (x->func != y->func)
        return x->func - y->func;
    return x->cursor < y->cursor ? -1 : x->cursor > y->cursor;
}

int fcb_setup(struct fcb_state *st)
{
    struct fcb_config *cfg = &st->cfg;
    if (cfg->ndists && !cfg->groups)
        cfg->groups = "mix"; /* --dist: the replays, unless asked for more */
    detect_caches(cfg, &st->cache);
    st->cpu = pin_cpu(st);
    if (st->cpu < 0 && cfg->cpu >= 0)
        return FCB_EUSAGE; /* --cpu N that we cannot pin to: said by pin_cpu */
    if (!cfg->rounds)
        cfg->rounds = cfg->quick ? 7 : 15;
    if (!(cfg->sample_us > 0))
        cfg->sample_us = cfg->quick ? 100 : 200;
    if (fcb_build_impls(st))
        return FCB_EUSAGE; /* a --with library that cannot be used: said */

    struct fcb_builder b;
    memset(&b, 0, sizeof b);
    b.st = st;
    b.rng = cfg->seed;
    b.max_size = cfg->max_size ? cfg->max_size : cfg->quick ? 1 * MiB : 256 * MiB;
    b.cold_region = (cfg->quick ? 2 : 4) * st->cache.l3;
    /* What the arenas must hold: the largest hot size (+ offsets), the cold region,
     * the working sets, the distance/overlap layouts. */
    size_t need = 256 * KiB;
    if (b.max_size + 8 * KiB > need)
        need = b.max_size + 8 * KiB;
    if ((fcb_group_on(&b, "cold") || cfg->tune) && b.cold_region + 8 * KiB > need)
        need = b.cold_region + 8 * KiB;
    if (fcb_group_on(&b, "prog") && fcb_prog_arena(b.cold_region) > need)
        need = fcb_prog_arena(b.cold_region);
    if (fcb_group_on(&b, "ws") && 4 * st->cache.l3 <= b.max_size && 4 * st->cache.l3 > need)
        need = 4 * st->cache.l3 + 8 * KiB;
    if (need < 256 * KiB)
        need = 256 * KiB;
    need = (need + 2 * MiB - 1) & ~(2 * MiB - 1);
    if (need > 0xffffffffu) {
        fcb_err("sizes above 4 GiB are not supported\n");
        return -1;
    }
    b.arena = need;
    b.S = map_arena(need);
    b.D = map_arena(need);
    if (!b.S || !b.D) {
        fcb_err("cannot map 2 x %zu MiB\n", need >> 20);
        return -1;
    }
    fcb_cases_tune(&b);
    fcb_cases_sizes(&b);
    fcb_cases_pageend(&b);
    fcb_cases_dist(&b);
    fcb_cases_cold(&b);
    fcb_cases_ws(&b);
    fcb_cases_overlap(&b);
    b.mix_for_mixread = fcb_group_on(&b, "mixread") && !fcb_group_on(&b, "mix");
    fcb_cases_mix(&b);
    fcb_cases_mixread(&b);
    fcb_cases_chain(&b);
    fcb_cases_prog(&b);
    fcb_cases_user(&b);
    if (fcb_check_cases(st))
        return FCB_EUSAGE;
    if (!st->ncases) {
        fcb_err("no case is left with these --func/--group/--max-size "
                        "options (--list without them shows the cases)\n");
        return FCB_EUSAGE;
    }

    /* Table order: by function, then as built (group by group); the keys point
     * into the names, so set them after the last move. */
    for (int c = 0; c < st->ncases; c++)
        st->cases[c].cursor = (size_t)c;
    qsort(st->cases, (size_t)st->ncases, sizeof *st->cases, case_order);
    for (int c = 0; c < st->ncases; c++) {
        struct fcb_case *cs = &st->cases[c];
        cs->cursor = 0;
        cs->key = cs->name + strlen(fcb_func_name(cs->func)) + 1 + strlen(cs->group) + 1;
    }
    st->items = calloc((size_t)st->ncases * st->nimpls + 1, sizeof *st->items);
    for (int c = 0; c < st->ncases; c++)
        for (int i = 0; i < st->nimpls; i++)
            if (fcb_impl_fits(&st->cases[c], &st->impls[i])) {
                struct fcb_item *it = &st->items[st->nitems++];
                it->c = c;
                it->i = i;
                it->ns = calloc((size_t)cfg->rounds, sizeof *it->ns);
            }
    return 0;
}

void fcb_filter_items(struct fcb_state *st, int (*keep)(const struct fcb_state *, int))
{
    int k = 0;
    for (int j = 0; j < st->nitems; j++)
        if (keep(st, j))
            st->items[k++] = st->items[j];
        else
            free(st->items[j].ns);
    st->nitems = k;
}

void fcb_teardown(struct fcb_state *st)
{
    for (int j = 0; j < st->nitems; j++)
        free(st->items[j].ns);
    for (int c = 0; c < st->ncases; c++)
        fcb_ops_free(&st->cases[c]);
    free(st->items);
    free(st->cases);
    free(st->impls);
}
