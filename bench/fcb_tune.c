/* fcb_tune.c - `fcbench --tune`: for each cut-over of this architecture's policy
 * (and each function's variant), time both sides across the sizes where they
 * cross, hot and cold, interleaved in rounds; choose by fcb_tune_choose; print a
 * table; write the tuning file the library reads at load time (docs/tuning.md).
 *
 * The kernels timed are the ones linked into fcbench itself (fc_variants() of its
 * own copy of the library), and both sides of a cut-over are the same kernel with
 * another value in fc_tun, the table the kernels read: exactly what the tuning
 * file will change. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include "arch.h"
#include "dispatch.h"
#include "fastcopy.h"
#include "fcb.h"
#include "fcb_tune.h"

#define NEVER FCB_TUNE_NEVER

static struct fc_tunables base;     /* the policy's values */
static struct fc_decision policy;   /* the policy's decision on this CPU */
static int quiet;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    if (quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("fcbench: tune: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static size_t *tfield(struct fc_tunables *t, unsigned i)
{
    return (size_t *)t + i;
}
_Static_assert(sizeof(struct fc_tunables) == FC_NTUN * sizeof(size_t), "all size_t");

static const char *const tun_key[FC_NTUN] = {
#define FC_TUNABLE(field, env, arch, min, max, meaning) #field,
#include "tunables.def"
#undef FC_TUNABLE
};
static const char *const tun_env[FC_NTUN] = {
#define FC_TUNABLE(field, env, arch, min, max, meaning) env,
#include "tunables.def"
#undef FC_TUNABLE
};
static const size_t tun_min[FC_NTUN] = {
#define FC_TUNABLE(field, env, arch, min, max, meaning) min,
#include "tunables.def"
#undef FC_TUNABLE
};
static const char *const tun_arch[FC_NTUN] = {
#define FC_TUNABLE(field, env, arch, min, max, meaning) arch,
#include "tunables.def"
#undef FC_TUNABLE
};

/* A key of the tuning file here: settable (it has a FASTCOPY_ name) and read on
 * this architecture, as the library's loader accepts it. */
static int tun_here(unsigned t)
{
    return tun_env[t][0] && !strcmp(tun_arch[t], FC_ARCH_NAME);
}

/* ---- measuring ---- */

/* One side of a cut-over: the values it sets (over the policy's). */
struct side {
    unsigned n;
    unsigned idx[4];
    size_t val[4];
};

static void apply(const struct side *s)
{
    fc_tun = base;
    /* The cut-overs measured here are the fixed paths: memset's adaptive window
     * (which times its paths as it runs) would take the same one on both sides. */
    fc_tun.memset_adaptive_stop = 0;
    for (unsigned k = 0; k < s->n; k++)
        *tfield(&fc_tun, s->idx[k]) = s->val[k];
}

static long switches(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru))
        return 0;
    return ru.ru_nivcsw;
}

/* ns per call of item it, one sample (taken again after a preemption). */
static double sample(struct fcb_state *st, struct fcb_item *it)
{
    double t = 0;
    for (int tries = 0; tries < 4; tries++) {
        long before = switches();
        fcb_warm(st, it);
        t = fcb_run(st, it, it->iters);
        if (switches() == before)
            break;
    }
    return t / (double)it->iters;
}

/* --processes N: each child (a fresh exec, so its own address-space layout and
 * machine phase; on the Zen 5 VM the fixed small memsets moved by 10-40% between
 * processes, for every implementation) runs the whole measurement and
 * writes, for every mean_ci() call in order, the per-round values (an int count,
 * then the doubles) to its file; the parent measures nothing (replaying) and
 * takes each child's mean of those values as one sample, so a verdict has to hold
 * across processes (95% interval on N - 1 degrees of freedom). */
static FILE *rec_out;      /* a child: its samples go here */
static FILE **rec_in;      /* the parent: its children's files */
static int rec_n;          /* how many */
static int rec_bad;        /* a child's records did not match the parent's plan */
#define replaying (rec_in != NULL)

static double plain_mean_ci(const double *x, int n, double *ci)
{
    double m = 0, v = 0;
    for (int i = 0; i < n; i++)
        m += x[i];
    m /= n;
    for (int i = 0; i < n; i++)
        v += (x[i] - m) * (x[i] - m);
    *ci = n > 1 ? fcb_t975(n - 1) * sqrt(v / (n - 1) / n) : INFINITY;
    return m;
}

/* The mean of x[0..n) and the half-width of its 95% interval (ci). */
static double mean_ci(const double *x, int n, double *ci)
{
    if (rec_out) {
        int32_t cnt = n;
        if (fwrite(&cnt, sizeof cnt, 1, rec_out) != 1 ||
            fwrite(x, sizeof *x, (size_t)n, rec_out) != (size_t)n)
            rec_bad = 1;
    }
    if (!replaying)
        return plain_mean_ci(x, n, ci);
    double per[64], tmp[512];
    for (int p = 0; p < rec_n; p++) {
        int32_t cnt;
        if (fread(&cnt, sizeof cnt, 1, rec_in[p]) != 1 || cnt != n || cnt < 1 || cnt > 512 ||
            fread(tmp, sizeof *tmp, (size_t)cnt, rec_in[p]) != (size_t)cnt) {
            rec_bad = 1;
            *ci = INFINITY;
            return 0;
        }
        per[p] = plain_mean_ci(tmp, cnt, ci);
    }
    return plain_mean_ci(per, rec_n, ci);
}

/* Times items[0..n) under sides a and b for R rounds (the order of the two
 * alternating), into lr[i*R + r] = log(time b / time a). */
static void measure(struct fcb_state *st, struct fcb_item **items, int n, const struct side *a,
                    const struct side *b, int R, double *lr)
{
    if (replaying) { /* the children measured */
        for (int i = 0; i < n * R; i++)
            lr[i] = 0;
        return;
    }
    double target = st->cfg.sample_us * 1e3;
    double *t[2] = {malloc(sizeof(double) * (size_t)n), malloc(sizeof(double) * (size_t)n)};
    apply(a);
    for (int i = 0; i < n; i++)
        fcb_calibrate(st, items[i], target);
    for (int r = 0; r < R; r++) {
        for (int half = 0; half < 2; half++) {
            int use_b = (r + half) & 1; /* A first in even rounds, B in odd ones */
            apply(use_b ? b : a);
            for (int i = 0; i < n; i++)
                t[use_b][i] = sample(st, items[i]);
        }
        for (int i = 0; i < n; i++)
            lr[i * R + r] = log(t[1][i] / t[0][i]);
    }
    apply(&(struct side){0});
    free(t[0]);
    free(t[1]);
}

static struct fcb_item *find_item(struct fcb_state *st, const char *cname, const char *impl)
{
    for (int j = 0; j < st->nitems; j++)
        if (!strcmp(st->cases[st->items[j].c].name, cname) &&
            !strcmp(st->impls[st->items[j].i].name, impl))
            return &st->items[j];
    return NULL;
}

/* ---- one cut-over ---- */

struct cutover {
    const char *what;           /* one line for the table */
    int funcs[2], nfuncs;       /* which functions' cases */
    int which;                  /* FCB_TUNE_GRID / LARGE / SMALL / GRID_BELOW_NT */
    const char *kind;           /* "hot+cold", "alias" (hot only), "small+mix" */
    int shape;
    unsigned bound[3];          /* the tunables holding the boundaries */
    struct side a, b;
    struct {
        size_t def[3], out[3];
        double gain_hot, gain_cold; /* geometric mean time ratio new/old where changed */
        size_t lo_size, hi_size;    /* the sizes measured whose path changed */
        int one_point;              /* small+mix: one point (size 1) stands for them all */
        int measured;
    } r;
};

struct pts {
    struct fcb_tune_point *p;
    int n;
};

/* Boundaries as the chooser sees them, from the tunables (memset_masked_max: one
 * point at size 1, "from 1" = 64, "never" = 0). */
static size_t to_bound(const struct cutover *c, unsigned k, size_t v)
{
    if (c->bound[k] == FC_T_memset_masked_max)
        return v ? 1 : NEVER;
    if (c->bound[k] == FC_T_alias_backward_stop)
        return v ? v : 0;
    return v;
}

static size_t from_bound(const struct cutover *c, unsigned k, size_t v)
{
    if (c->bound[k] == FC_T_memset_masked_max)
        return v == NEVER ? 0 : 64;
    if (v >= NEVER)
        return FC_TUN_MAX;
    return v;
}

/* What a cut-over's two regimes are called in its tables: hot and cold, but for
 * "small+mix", whose one point is the fixed small sizes against the fleet mixes. */
static const char *regime_name(const struct cutover *c, int cold)
{
    if (!strcmp(c->kind, "small+mix"))
        return cold ? "fleet mixes" : "fixed";
    return cold ? "cold" : "hot";
}

static int size_cmp(const void *x, const void *y)
{
    const struct fcb_tune_point *a = x, *b = y;
    if (a->size != b->size)
        return a->size < b->size ? -1 : 1;
    return (a->func > b->func) - (a->func < b->func);
}

static void run_cutover(struct fcb_state *st, struct cutover *c, int objective, int R)
{
    const size_t *sz;
    size_t nsz;
    size_t wide[64];
    if (c->which == FCB_TUNE_GRID_BELOW_NT) {
        /* the grid, then the large sizes below nt_start, where a window that
         * ends there still decides */
        const size_t *g, *l;
        size_t ng = fcb_tune_sizes(st->cfg.quick, FCB_TUNE_GRID, &g);
        size_t nl = fcb_tune_sizes(st->cfg.quick, FCB_TUNE_LARGE, &l);
        nsz = 0;
        for (size_t i = 0; i < ng && nsz < 64; i++)
            wide[nsz++] = g[i];
        for (size_t i = 0; i < nl && nsz < 64; i++)
            if (l[i] > wide[nsz - 1] && l[i] < base.nt_start)
                wide[nsz++] = l[i];
        sz = wide;
    } else {
        nsz = fcb_tune_sizes(st->cfg.quick, c->which, &sz);
    }
    struct fcb_item *items[512];
    struct fcb_tune_point pts[256];
    int slot[512], regime[512], n = 0, np = 0;
    char name[96];

    for (int k = 0; k < c->nfuncs; k++) {
        int f = c->funcs[k];
        const char *impl = fc_arch_variant_name(f, policy.sel[f]);
        const char *fn = fcb_func_name(f);
        if (!strcmp(c->kind, "small+mix")) {
            /* one point: hot = the fixed small sizes, cold = the fleet mixes (random
             * order: what a branch costs when sizes are unpredictable) */
            pts[np].size = 1;
            pts[np].func = f;
            c->r.one_point = 1;
            for (size_t i = 0; i < nsz; i++) {
                snprintf(name, sizeof name, "%s/tune/small/%zu", fn, sz[i]);
                if ((items[n] = find_item(st, name, impl)))
                    slot[n] = np, regime[n++] = 0;
            }
            for (int j = 0; j < st->nitems; j++) {
                struct fcb_case *cs = &st->cases[st->items[j].c];
                if (cs->mix && cs->mix_default && cs->func == f &&
                    !strcmp(st->impls[st->items[j].i].name, impl) && n < 512)
                    items[n] = &st->items[j], slot[n] = np, regime[n++] = 1;
            }
            np++;
            continue;
        }
        for (size_t i = 0; i < nsz; i++) {
            pts[np].size = sz[i];
            pts[np].func = f;
            int any = 0;
            for (int cold = 0; cold < 2; cold++) {
                snprintf(name, sizeof name, "%s/tune/%s/%zu", fn,
                         !strcmp(c->kind, "alias") ? "alias" : cold ? "cold" : "hot", sz[i]);
                if (!strcmp(c->kind, "alias") && cold)
                    continue;
                if ((items[n] = find_item(st, name, impl)))
                    slot[n] = np, regime[n++] = cold, any = 1;
            }
            if (any)
                np++;
        }
    }
    if (!n)
        return;
    say("%s: %d cases x 2 settings x %d rounds", c->what, n, R);
    double *lr = malloc(sizeof(double) * (size_t)n * R);
    measure(st, items, n, &c->a, &c->b, R, lr);
    /* per point and regime: the mean over cases of the per-round log ratio */
    double *acc = calloc((size_t)R, sizeof *acc);
    for (int p = 0; p < np; p++) {
        for (int g = 0; g < 2; g++) {
            int cnt = 0;
            memset(acc, 0, sizeof *acc * (size_t)R);
            for (int i = 0; i < n; i++)
                if (slot[i] == p && regime[i] == g) {
                    cnt++;
                    for (int r = 0; r < R; r++)
                        acc[r] += lr[i * R + r];
                }
            double m = 0, ci = -1;
            if (cnt) {
                for (int r = 0; r < R; r++)
                    acc[r] /= cnt;
                m = mean_ci(acc, R, &ci);
            }
            if (g == 0)
                pts[p].hot = m, pts[p].hot_ci = ci;
            else
                pts[p].cold = m, pts[p].cold_ci = ci;
        }
    }
    free(acc);
    free(lr);
    qsort(pts, (size_t)np, sizeof *pts, size_cmp);
    for (int k = 0; k < c->shape; k++)
        c->r.def[k] = to_bound(c, (unsigned)k, *tfield(&base, c->bound[k]));
    fcb_tune_choose(pts, np, objective, c->shape, c->r.def, c->r.out);
    if (st->cfg.verbose) {
        printf("# %s: time B/A per size (95%% interval), verdict\n", c->what);
        for (int p = 0; p < np; p++) {
            int def_b = fcb_tune_path_b(c->shape, c->r.def, pts[p].size);
            int v = fcb_tune_verdict(&pts[p], objective, def_b, NULL, NULL);
            char at[48];
            if (c->r.one_point)
                snprintf(at, sizeof at, "%zu-%zu", sz[0], sz[nsz - 1]);
            else if (c->nfuncs > 1) /* say whose row it is */
                snprintf(at, sizeof at, "%zu %s", pts[p].size, fcb_func_name(pts[p].func));
            else
                snprintf(at, sizeof at, "%zu", pts[p].size);
            printf("#   %10s  %s %.3f (%.3f-%.3f)", at, regime_name(c, 0), exp(pts[p].hot),
                   exp(pts[p].hot - pts[p].hot_ci), exp(pts[p].hot + pts[p].hot_ci));
            if (pts[p].cold_ci >= 0)
                printf("  %s %.3f (%.3f-%.3f)", regime_name(c, 1), exp(pts[p].cold),
                       exp(pts[p].cold - pts[p].cold_ci), exp(pts[p].cold + pts[p].cold_ci));
            printf("  %s\n", v > 0 ? "B" : v < 0 ? "A" : "-");
        }
    }
    /* where the path changed, what it gained */
    double gh = 0, gc = 0;
    int nh = 0, ncold = 0;
    c->r.lo_size = c->r.hi_size = 0;
    for (int p = 0; p < np; p++) {
        size_t s = pts[p].size;
        int was_b = fcb_tune_path_b(c->shape, c->r.def, s);
        int is_b = fcb_tune_path_b(c->shape, c->r.out, s);
        if (was_b == is_b)
            continue;
        double sign = is_b ? 1 : -1;
        if (pts[p].hot_ci >= 0)
            gh += sign * pts[p].hot, nh++;
        if (pts[p].cold_ci >= 0)
            gc += sign * pts[p].cold, ncold++;
        if (!c->r.lo_size)
            c->r.lo_size = s;
        c->r.hi_size = s;
    }
    if (c->r.one_point && c->r.lo_size) /* the sizes measured, not the point's stand-in */
        c->r.lo_size = sz[0], c->r.hi_size = sz[nsz - 1];
    c->r.gain_hot = nh ? exp(gh / nh) : 1;
    c->r.gain_cold = ncold ? exp(gc / ncold) : 1;
    c->r.measured = 1;
}

/* ---- variants ---- */

struct vchoice {
    int func;
    unsigned def, out;
    double gain_hot, gain_cold;
    int measured;
};

/* Each usable variant against the policy's, on the hot grid up to 64 KiB (and
 * memset's small sizes) and the fleet mixes: the first measured better than the
 * policy's by the objective's rule, the most. */
static void run_variants(struct fcb_state *st, struct vchoice *v, int objective, int R)
{
    const struct fc_variant *list;
    size_t nv = fc_variants(&list);
    int f = v->func;
    const char *fn = fcb_func_name(f), *def = fc_arch_variant_name(f, policy.sel[f]);
    double best = 0;
    v->def = v->out = policy.sel[f];
    for (size_t k = 0; k < nv; k++) {
        if (strcmp(list[k].func, fn) || !list[k].usable || !strcmp(list[k].name, def))
            continue;
        struct fcb_item *items[512], *ref[512];
        int regime[512], n = 0;
        for (int j = 0; j < st->nitems && n < 512; j++) {
            struct fcb_case *cs = &st->cases[st->items[j].c];
            if (cs->func != f || strcmp(st->impls[st->items[j].i].name, list[k].name))
                continue;
            int hot = !strcmp(cs->group, "tune") && !cs->cold && cs->size <= 65536 &&
                      strncmp(cs->key, "alias", 5);
            int mix = cs->mix && cs->mix_default;
            if (!hot && !mix)
                continue;
            struct fcb_item *r = find_item(st, cs->name, def);
            if (!r)
                continue;
            items[n] = &st->items[j], ref[n] = r, regime[n++] = mix;
        }
        if (!n)
            continue;
        say("%s: %s against %s, %d cases x %d rounds", fn, list[k].name, def, n, R);
        double target = st->cfg.sample_us * 1e3;
        apply(&(struct side){0});
        for (int i = 0; i < n && !replaying; i++) {
            fcb_calibrate(st, items[i], target);
            ref[i]->iters = items[i]->iters;
        }
        double *acc[2];
        acc[0] = calloc((size_t)R, sizeof(double));
        acc[1] = calloc((size_t)R, sizeof(double));
        int cnt[2] = {0, 0};
        for (int i = 0; i < n; i++)
            cnt[regime[i]]++;
        for (int r = 0; r < R && !replaying; r++)
            for (int i = 0; i < n; i++) {
                double a, b;
                if (r & 1)
                    b = sample(st, items[i]), a = sample(st, ref[i]);
                else
                    a = sample(st, ref[i]), b = sample(st, items[i]);
                acc[regime[i]][r] += log(b / a) / cnt[regime[i]];
            }
        struct fcb_tune_point p = {1, 0, -1, 0, -1, f};
        if (cnt[0])
            p.hot = mean_ci(acc[0], R, &p.hot_ci);
        if (cnt[1])
            p.cold = mean_ci(acc[1], R, &p.cold_ci);
        free(acc[0]);
        free(acc[1]);
        double la, lb;
        if (fcb_tune_verdict(&p, objective, 0, &la, &lb) == 1 && la > best) {
            best = la;
            v->out = (unsigned)fc_arch_variant_index(f, list[k].name);
            v->gain_hot = exp(p.hot);
            v->gain_cold = exp(p.cold);
        }
    }
    v->measured = 1;
}

/* ---- the plan per architecture ---- */

/* The rows below leave the result (r) to zero. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static int plan(struct cutover *c)
{
    int n = 0;
    const char *cpy = fc_arch_variant_name(FC_MEMCPY, policy.sel[FC_MEMCPY]);
    const char *set = fc_arch_variant_name(FC_MEMSET, policy.sel[FC_MEMSET]);
    (void)cpy, (void)set, (void)c;
#if defined(__x86_64__)
    /* avx512_1branch (Zen 5's memset) is the avx512 memset behind another entry: the
     * same windows and masked store */
    int set512 = !strcmp(set, "avx512") || !strcmp(set, "avx512_1branch");
    int rep_copy = !strcmp(cpy, "avx512") || !strcmp(cpy, "erms");
    int rep_set = set512 || !strcmp(set, "erms");
    if (rep_copy)
        c[n++] = (struct cutover){
            "rep_movsb_start: vector loop (below) or rep movsb (from)",
            {FC_MEMCPY}, 1, FCB_TUNE_GRID, "hot+cold", FCB_SHAPE_FROM,
            {FC_T_rep_movsb_start},
            {3, {FC_T_rep_movsb_start, FC_T_rep_movsb_stop, FC_T_nt_start},
             {FC_TUN_MAX, FC_TUN_MAX, FC_TUN_MAX}},
            {3, {FC_T_rep_movsb_start, FC_T_rep_movsb_stop, FC_T_nt_start},
             {256, FC_TUN_MAX, FC_TUN_MAX}}};
    if (rep_set)
        c[n++] = (struct cutover){
            "rep_stosb_start/stop/high_start: vector loop or rep stosb",
            {FC_MEMSET}, 1, FCB_TUNE_GRID_BELOW_NT, "hot+cold", FCB_SHAPE_TWO,
            {FC_T_rep_stosb_start, FC_T_rep_stosb_stop, FC_T_rep_stosb_high_start},
            {4, {FC_T_rep_stosb_start, FC_T_rep_stosb_stop, FC_T_rep_stosb_high_start,
                 FC_T_nt_start}, {FC_TUN_MAX, FC_TUN_MAX, FC_TUN_MAX, FC_TUN_MAX}},
            {4, {FC_T_rep_stosb_start, FC_T_rep_stosb_stop, FC_T_rep_stosb_high_start,
                 FC_T_nt_start}, {256, FC_TUN_MAX, FC_TUN_MAX, FC_TUN_MAX}}};
    c[n++] = (struct cutover){
        "nt_start: cached stores (below) or non-temporal (from)",
        {FC_MEMCPY, FC_MEMSET}, 2, FCB_TUNE_LARGE, "hot+cold", FCB_SHAPE_FROM,
        {FC_T_nt_start},
        {2, {FC_T_nt_start, FC_T_rep_movsb_stop}, {FC_TUN_MAX, FC_TUN_MAX}},
        {2, {FC_T_nt_start, FC_T_rep_movsb_stop}, {16384, 16384}}};
    c[n++] = (struct cutover){
        "alias_backward_stop: 4K-aliased copies backward (below) or forward (from)",
        {FC_MEMCPY}, 1, FCB_TUNE_GRID, "alias", FCB_SHAPE_FROM,
        {FC_T_alias_backward_stop},
        {1, {FC_T_alias_backward_stop}, {FC_TUN_MAX}},
        {1, {FC_T_alias_backward_stop}, {0}}};
    if (set512)
        c[n++] = (struct cutover){
            "memset_masked_max: branch-free (0) or one masked store (64)",
            {FC_MEMSET}, 1, FCB_TUNE_SMALL, "small+mix", FCB_SHAPE_FROM,
            {FC_T_memset_masked_max},
            {1, {FC_T_memset_masked_max}, {0}},
            {1, {FC_T_memset_masked_max}, {64}}};
#elif defined(__aarch64__)
    if (base.zva_size)
        c[n++] = (struct cutover){
            "zva_start: stores (below) or DC ZVA (from), memset of zero",
            {FC_MEMSET}, 1, FCB_TUNE_GRID, "hot+cold", FCB_SHAPE_FROM,
            {FC_T_zva_start},
            {1, {FC_T_zva_start}, {FC_TUN_MAX}},
            {1, {FC_T_zva_start}, {64}}};
#endif
    return n;
}
#pragma GCC diagnostic pop

/* ---- output ---- */

static void fmt_size(char *buf, size_t cap, size_t v)
{
    buf[0] = 0;
    fc_strcat_size(buf, cap, v);
}

/* ---- the row ---- */

/* One key of the profile row, as the tuning file and the table name it. */
struct row_line {
    const char *key;
    char policy[24], value[24];
    int changed, proven;
    int unsettable; /* the policy's value is outside what a file may set (0 = off) */
    char where[96];
};

/* The row as the tuning file's body: a proven value set (with where it was
 * measured to differ), the rest comments holding the policy's value. */
static void write_row(FILE *f, const struct row_line *l, int n)
{
    for (int i = 0; i < n; i++) {
        if (l[i].proven)
            fprintf(f, "%s = %s  # measured: %s\n", l[i].key, l[i].value, l[i].where);
        else if (l[i].changed)
            fprintf(f, "# %s = %s  (the policy's; this run read %s, not proven)\n", l[i].key,
                    l[i].policy, l[i].value);
        else
            fprintf(f, "# %s = %s  (the policy's%s)\n", l[i].key, l[i].policy,
                    l[i].unsettable ? "; outside the range a file may set" : "");
    }
}

#if defined(__x86_64__)
#include "profiles.h"

/* A size as the table writes it: "32 * KiB", "4 * MiB + 1", "4097". */
static void c_size(char *buf, size_t cap, uint64_t v)
{
    const char *unit[] = {"", " * KiB", " * MiB", " * GiB"};
    int plus = v > 1024 && v % 1024 == 1, u = 0;
    uint64_t m = v - (uint64_t)plus;
    if (v >= FC_TUN_MAX) {
        snprintf(buf, cap, "FC_TUN_MAX");
        return;
    }
    while (u < 3 && m >= 1024 && m % 1024 == 0)
        m /= 1024, u++;
    if (!u)
        m = v, plus = 0;
    snprintf(buf, cap, "%llu%s%s", (unsigned long long)m, unit[u], plus ? " + 1" : "");
}

/* A field of a profile row as written in profiles.c: a rule or a size. */
static void c_field(char *buf, size_t cap, uint64_t v)
{
    if (v == FC_X86_NT)
        snprintf(buf, cap, "FC_X86_NT");
    else if (v == FC_X86_L1D_HALF)
        snprintf(buf, cap, "FC_X86_L1D_HALF");
    else if (v == FC_X86_L2_4M)
        snprintf(buf, cap, "FC_X86_L2_4M");
    else if (v == FC_X86_FSRM_2K)
        snprintf(buf, cap, "FC_X86_FSRM_2K");
    else if (FC_X86_IS_L3(v))
        snprintf(buf, cap, "FC_X86_L3(%u, %u)", (unsigned)(v >> 4 & 15), (unsigned)(v & 15));
    else
        c_size(buf, cap, v);
}

static void c_list(FILE *f, const char *field, int func, const unsigned char *list, int proven,
                   const char *value)
{
    fprintf(f, "%s.%s = {", func == FC_MEMMOVE ? " " : "\n        ", field);
    if (proven) {
        fprintf(f, func == FC_MEMSET ? "FC_X86_SET(%s)" : "FC_X86_COPY(%s)", value);
    } else {
        for (int k = 0; k < 3 && list[k]; k++)
            fprintf(f, func == FC_MEMSET ? "%sFC_X86_SET(%s)%s" : "%sFC_X86_COPY(%s)%s",
                    k ? ", " : "", fc_x86_variant_name(func, (list[k] & ~FC_X86_REP) - 1u),
                    list[k] & FC_X86_REP ? " | FC_X86_REP" : "");
    }
    fprintf(f, "},");
}

/* " .key = text,", on a new line when the current one would pass 92 columns. */
static int c_item(FILE *f, int col, const char *key, const char *text)
{
    int w = (int)(strlen(key) + strlen(text)) + 6;
    if (col + w > 92) {
        fprintf(f, "\n       ");
        col = 7;
    }
    fprintf(f, " .%s = %s,", key, text);
    return col + w;
}

/* The profile table's row for this CPU: the measured value of each proven key
 * (a rep window ending or starting at nt_start as FC_X86_NT), the row this
 * CPU had for the rest; paste it as a new class's row (docs/evidence/README.md). */
static void print_c_row(FILE *f, const fc_cpu_t *cpu, const struct fc_tunables *now,
                        const struct row_line *l, int n)
{
    unsigned cls = fc_x86_classify(cpu);
    const struct fc_x86_profile *me = &fc_x86_profiles[cls];
    const struct fc_x86_profile *p = me->like ? &fc_x86_profiles[me->like - 1] : me;
    const unsigned char *lists[FC_NFUNCS] = {p->memcpy, p->memmove, p->memset};
    fprintf(f, "# as a row of src/x86_64/profiles.c (this CPU: %s):\n", me->name);
    fprintf(f, "    [FC_X86_NEW_CLASS] = {.name = \"%s\", .evidence = \"\",", me->name);
    int col = 99; /* the column of the line being written: a new line first */
    for (int i = 0; i < n; i++) {
        int func = i < FC_NFUNCS ? i : -1;
        if (func >= 0) {
            c_list(f, l[i].key, func, lists[func], l[i].proven, l[i].value);
            continue;
        }
        unsigned t;
        for (t = 0; t < FC_NTUN && strcmp(tun_key[t], l[i].key); t++)
            ;
        uint64_t raw = 0, v = *tfield((struct fc_tunables *)now, t);
        /* the row's own field of the same name */
#define FC_X86_ROW_FIELD(name) if (!strcmp(l[i].key, #name)) raw = p->name;
        FC_X86_ROW_FIELD(nt_start)
        FC_X86_ROW_FIELD(rep_movsb_start)
        FC_X86_ROW_FIELD(rep_movsb_stop)
        FC_X86_ROW_FIELD(rep_stosb_start)
        FC_X86_ROW_FIELD(rep_stosb_stop)
        FC_X86_ROW_FIELD(rep_stosb_high_start)
        FC_X86_ROW_FIELD(alias_backward_stop)
        FC_X86_ROW_FIELD(loop32_start)
        FC_X86_ROW_FIELD(memset_masked_max)
        FC_X86_ROW_FIELD(memset_adaptive_start)
        FC_X86_ROW_FIELD(memset_adaptive_stop)
#undef FC_X86_ROW_FIELD
        char text[48];
        if (!l[i].proven)
            c_field(text, sizeof text, raw);
        else if (t != FC_T_nt_start && v == now->nt_start &&
                 strncmp(l[i].key, "rep_", 4) == 0)
            snprintf(text, sizeof text, "FC_X86_NT");
        else
            c_size(text, sizeof text, v);
        if (strcmp(text, "0") || l[i].proven)
            col = c_item(f, col, l[i].key, text);
    }
    if (p->nt_guest_cap) {
        char text[48];
        c_size(text, sizeof text, p->nt_guest_cap);
        col = c_item(f, col, "nt_guest_cap", text);
    }
    if (p->flags & FC_X86_REP_NEEDS_ERMS)
        c_item(f, col, "flags", "FC_X86_REP_NEEDS_ERMS");
    fprintf(f, "},\n");
}
#else
static void print_c_row(FILE *f, const fc_cpu_t *cpu, const struct fc_tunables *now,
                        const struct row_line *l, int n)
{
    (void)f, (void)cpu, (void)now, (void)l, (void)n; /* no profile table here yet */
}
#endif

/* 1 when this runs under a user-mode emulator: qemu-user leaves the process its
 * own name ("qemu-aarch64") in /proc/self/status. */
static int emulated(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    int q = 0;
    if (f && fgets(line, sizeof line, f))
        q = strstr(line, "qemu-") != NULL;
    if (f)
        fclose(f);
    return q;
}

/* --tune without --processes: 5 (a one-process verdict is a draw of that process's
 * layout: docs/tuning.md), 1 under an emulator (no child can start there). */
int fcb_tune_default_processes(void)
{
    return emulated() ? 1 : 5;
}

int fcb_tune_main(struct fcb_state *st, const struct fcb_tune_opts *o)
{
    static const char *const objname[] = {"balanced", "hot", "cold"};
    struct cutover cuts[8];
    struct vchoice vars[FC_NFUNCS];
    /* 11 rounds: on this project's shared 2-core VMs the 95% interval of a hot
     * 4-64 KiB log ratio is then about +-3-8% (Emerald Rapids VM, quiet), enough to
     * prove the 1.3-2.5x differences the cut-overs are about, and a full run stays
     * near 10 s; 5 for --quick (its intervals are wide: noise keeps the policy). */
    int R = o->quick ? 5 : 11;
    double t0 = fcb_now_ns();
    quiet = st->cfg.progress < 0;

    /* What the tuning starts from: the built-in policy on this CPU (not a tuning
     * file or FASTCOPY_* variables this process may have read). */
    const fc_cpu_t *cpu = fc_cpu_facts();
    fc_arch_policy(cpu, &policy);
    base = policy.tun;
    fc_tun = base;

    int nproc = o->child_out ? 1 : o->nproc;
    if (o->child_out) {
        quiet = 1;
        if (!(rec_out = fopen(o->child_out, "wb"))) {
            fprintf(stderr, "fcbench: tune: %s: %s\n", o->child_out, strerror(errno));
            return 1;
        }
    }
    if (emulated() && !o->child_out)
        fprintf(stderr, "fcbench: tune: this looks like an emulator (QEMU): its timings mean "
                        "nothing (one process: the file, if any, sets nothing)\n");
    int nc = plan(cuts);
    say("%d cut-overs and %d variant choices to time (%s objective%s)", nc, FC_NFUNCS,
        objname[o->objective], o->quick ? ", --quick" : "");
    char paths[64][4200];
    FILE *files[64];
    int rc = 0;
    if (nproc > 1) {
        rec_n = nproc;
        rec_in = files;
        for (int p = 0; p < rec_n; p++)
            paths[p][0] = 0, files[p] = NULL;
        for (int p = 0; p < rec_n && !rc; p++) {
            char **cargv = NULL;
            if (fcb_child_file(paths[p], sizeof paths[p]) ||
                !(cargv = fcb_child_argv(o->argc, o->argv, paths[p], 0))) {
                rc = 1;
                break;
            }
            say("process %d/%d%s", p + 1, rec_n, p ? "" : " (each measures everything)");
            fflush(NULL);
            rc = fcb_run_child(cargv, p, rec_n);
            free(cargv);
            if (!rc && !(files[p] = fopen(paths[p], "rb"))) {
                fprintf(stderr, "fcbench: tune: %s: %s\n", paths[p], strerror(errno));
                rc = 1;
            }
        }
        if (rc)
            goto out;
        say("%d processes done in %.0f s; per cut-over, each process's mean is one sample",
            rec_n, (fcb_now_ns() - t0) / 1e9);
        quiet = 1; /* what follows reads the children's samples: nothing to wait for */
    }
    for (int k = 0; k < nc; k++)
        run_cutover(st, &cuts[k], o->objective, R);
    for (int f = 0; f < FC_NFUNCS; f++) {
        vars[f] = (struct vchoice){f, 0, 0, 1, 1, 0};
        /* fewer rounds: each round times every case twice (two variants) */
        run_variants(st, &vars[f], o->objective, o->quick ? 3 : 5);
    }
    fc_tun = base;
    if (o->child_out) {
        if (fclose(rec_out) || rec_bad) {
            fprintf(stderr, "fcbench: tune: %s: write failed\n", o->child_out);
            return 1;
        }
        return 0;
    }
    for (int p = 0; p < rec_n && !rec_bad; p++)
        rec_bad = fgetc(files[p]) != EOF;
    if (rec_bad) {
        fprintf(stderr, "fcbench: tune: the processes' measurements do not match this one's "
                        "plan\n");
        rc = 1;
        goto out;
    }

    /* the values */
    struct fc_tunables now = base;
    for (int k = 0; k < nc; k++) {
        if (!cuts[k].r.measured)
            continue;
        for (int b = 0; b < cuts[k].shape; b++)
            *tfield(&now, cuts[k].bound[b]) = from_bound(&cuts[k], (unsigned)b, cuts[k].r.out[b]);
    }
    /* the policy keeps rep movsb up to the non-temporal threshold */
    now.rep_movsb_stop = fcb_tune_movsb_stop(base.rep_movsb_stop, base.nt_start,
                                             now.rep_movsb_start, now.rep_movsb_stop,
                                             now.nt_start);

    /* What counts as proven: a verdict whose 95% interval held across two or more
     * processes (each process's mean one sample); --quick is a smoke run. */
    int provable = nproc > 1 && !o->quick;

    /* the table */
    printf("\n# fcbench --tune (%s objective): %s\n", objname[o->objective],
           "time ratios are new/old where the value changed (< 1 = faster)");
    printf("%-22s %14s %14s  %s\n", "tunable", "policy", "measured", "where it changed");
    struct row_line lines[FC_NTUN + FC_NFUNCS];
    int nlines = 0;
    for (int f = 0; f < FC_NFUNCS; f++) {
        struct row_line *l = &lines[nlines++];
        l->key = fc_func_name(f);
        snprintf(l->policy, sizeof l->policy, "%s", fc_arch_variant_name(f, vars[f].def));
        snprintf(l->value, sizeof l->value, "%s", fc_arch_variant_name(f, vars[f].out));
        l->changed = vars[f].out != vars[f].def;
        l->unsettable = 0;
        l->where[0] = 0;
        if (l->changed)
            snprintf(l->where, sizeof l->where, "hot sizes %.2fx, fleet mixes %.2fx",
                     vars[f].gain_hot, vars[f].gain_cold);
        l->proven = provable && l->changed;
        printf("%-22s %14s %14s  %s\n", l->key, l->policy, l->value,
               l->changed ? l->where : "unchanged");
    }
    for (unsigned t = 0; t < FC_NTUN; t++) {
        int k;
        for (k = 0; k < nc; k++) {
            int hit = 0;
            for (int b = 0; b < cuts[k].shape; b++)
                hit |= cuts[k].bound[b] == t;
            if (hit)
                break;
        }
        if (!tun_here(t))
            continue;
        struct row_line *l = &lines[nlines++];
        l->key = tun_key[t];
        fmt_size(l->policy, sizeof l->policy, *tfield(&base, t));
        fmt_size(l->value, sizeof l->value, *tfield(&now, t));
        l->changed = *tfield(&base, t) != *tfield(&now, t);
        l->proven = provable && l->changed;
        l->unsettable = *tfield(&base, t) < tun_min[t];
        l->where[0] = 0;
        if (l->changed && k < nc && cuts[k].r.lo_size) {
            char lo[24], hi[24];
            fmt_size(lo, sizeof lo, cuts[k].r.lo_size);
            fmt_size(hi, sizeof hi, cuts[k].r.hi_size);
            snprintf(l->where, sizeof l->where, "sizes %s-%s: %s %.2fx, %s %.2fx", lo, hi,
                     regime_name(&cuts[k], 0), cuts[k].r.gain_hot, regime_name(&cuts[k], 1),
                     cuts[k].r.gain_cold);
        } else if (l->changed) {
            snprintf(l->where, sizeof l->where, "(follows nt_start)");
        }
        if (k < nc || l->changed)
            printf("%-22s %14s %14s  %s\n", l->key, l->policy, l->value,
                   l->changed ? l->where : "unchanged");
    }

    /* the row: the tuning file's body, and (x86_64) the profile table's row */
    char ident[FC_IDENTITY_LEN], when[32];
    fc_arch_identity(cpu, ident, sizeof ident);
    int nproven = 0;
    for (int i = 0; i < nlines; i++)
        nproven += lines[i].proven;
    if (o->quick)
        printf("\n# SMOKE RUN (--quick): nothing here is proven and no file is written;\n"
               "# the row as this run read it:\n");
    else
        printf("\n# the profile row this run measured (%d process%s: %d value%s proven across "
               "processes%s):\n", nproc, nproc > 1 ? "es" : "", nproven, nproven == 1 ? "" : "s",
               nproc > 1 ? "" : "; one process proves nothing, run --processes 2 or more");
    printf("# cpu: %s\n", ident);
    write_row(stdout, lines, nlines);
    print_c_row(stdout, cpu, &now, lines, nlines);
    if (o->quick) {
        printf("\nno file written (--quick is a smoke run: `fcbench --tune` measures in %d "
               "processes and writes what it proves) (%.0f s)\n",
               fcb_tune_default_processes(), (fcb_now_ns() - t0) / 1e9);
        goto out;
    }

    /* the file: the CPU it was measured on, then the row */
    time_t tnow = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%d", gmtime(&tnow));
    FILE *out = fopen(o->out, "w");
    if (!out) {
        fprintf(stderr, "fcbench: --out %s: %s\n", o->out, strerror(errno));
        rc = 1;
        goto out;
    }
    char procs[32] = "";
    if (nproc > 1)
        snprintf(procs, sizeof procs, " --processes %d", nproc);
    fprintf(out, "%s; cpu: %s; libfastcopy %s; fcbench --tune%s --objective %s, %s\n",
            FC_TUNING_MAGIC, ident, fc_version(), procs, objname[o->objective], when);
    fprintf(out, "# Read by libfastcopy at load time (FASTCOPY_TUNING=this file, or installed as\n"
                 "# " FC_TUNING_SYSTEM "); FASTCOPY_* variables win over it.  The body is\n"
                 "# the profile row: values proven across processes are set, the rest are\n"
                 "# comments (the policy's).\n");
    write_row(out, lines, nlines);
    if (fclose(out)) {
        fprintf(stderr, "fcbench: --out %s: %s\n", o->out, strerror(errno));
        rc = 1;
        goto out;
    }
    printf("\nwrote %s (%.0f s; %d value%s set). Use it for one program:\n"
           "  FASTCOPY_TUNING=%s%s%s program\n"
           "or for every program on this machine:\n"
           "  sudo install -D -m 644 %s " FC_TUNING_SYSTEM "\n"
           "(fastcopy-info shows what it changed; remove the file to undo).\n",
           o->out, (fcb_now_ns() - t0) / 1e9, nproven, nproven == 1 ? "" : "s",
           o->out[0] == '/' ? "" : "$PWD/", o->out[0] == '/' ? "" : "", o->out, o->out);
out:
    for (int p = 0; p < rec_n; p++) {
        if (files[p])
            fclose(files[p]);
        if (paths[p][0])
            unlink(paths[p]);
    }
    rec_in = NULL;
    return rc;
}
