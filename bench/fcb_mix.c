/* fcb_mix.c - the size mixes (the mix and mixread groups): the size
 * distributions they draw from (built in, --dist-dir or --dist files), reading and
 * parsing those, and the drawn call sequences. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fcb.h"
#include "fcb_internal.h"

/* The fleet size mixes: sizes drawn with the file's weights, source and destination
 * offsets uniform in 0..4095, a fixed seed; the same sequence for every impl.  One
 * sample is exactly one pass over 65536 calls: long enough that the branch
 * predictors cannot learn the sequence (with 8192 calls replayed back to back, glibc
 * went from 5.5 to 3.9 ns per call as the sample grew from 2 to 70 passes), and the
 * same calls for every impl. */
#define MIX_OPS 65536

/* 0, or -1 with a message ("line 2: ...") in err. */
static int parse_dist(const char *text, size_t len, struct fcb_mixdist *d, char *err,
                      size_t errcap)
{
    size_t cap = 4200, line = 1;
    const char *p = text, *end = text + len;
    double total = 0;
    d->n = 0;
    d->func = -1;
    d->e = malloc(cap * sizeof *d->e);
    if (!d->e) {
        snprintf(err, errcap, "out of memory");
        return -1;
    }
#define DIST_FAIL(...)                                                             \
    do {                                                                           \
        int l_ = snprintf(err, errcap, "line %zu: ", line);                        \
        snprintf(err + l_, errcap - (size_t)l_, __VA_ARGS__);                      \
        free(d->e);                                                                \
        d->e = NULL;                                                               \
        return -1;                                                                 \
    } while (0)
    for (; p < end; line++) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        char buf[256];
        if (line > 1 && (p == eol || *p == '#')) {
            static const char key[] = "# function:";
            if (*p == '#' && (size_t)(eol - p) > sizeof key - 1 && !strncmp(p, key, sizeof key - 1)) {
                const char *q = p + sizeof key - 1;
                while (q < eol && *q == ' ')
                    q++;
                for (int f = 0; f < FCB_NFUNCS; f++)
                    if ((size_t)(eol - q) == strlen(fcb_func_name(f)) &&
                        !strncmp(q, fcb_func_name(f), (size_t)(eol - q)))
                        d->func = f;
            }
            p = eol + 1;
            continue;
        }
        if (line == 1) {
            /* w0,w1,w2,...: the weight of each size */
            if (p == eol)
                DIST_FAIL("empty (want the weights of sizes 0, 1, 2, ... separated by commas)");
            for (const char *q = p; q < eol;) {
                size_t l = 0;
                while (q < eol && *q != ',' && l + 1 < sizeof buf)
                    buf[l++] = *q++;
                buf[l] = 0;
                char *e;
                double w = strtod(buf, &e);
                if (!l || *e || !(w >= 0) || w > 1e300)
                    DIST_FAIL("'%s' (size %zu) is not a weight of 0 or more", buf, d->n);
                if (d->n == cap) {
                    struct fcb_mixdist_entry *ne = realloc(d->e, (cap *= 2) * sizeof *ne);
                    if (!ne)
                        DIST_FAIL("out of memory");
                    d->e = ne;
                }
                d->e[d->n].lo = d->e[d->n].hi = d->n;
                d->e[d->n++].w = w;
                total += w;
                if (q < eol && ++q == eol)
                    DIST_FAIL("a comma at the end of the line");
            }
        } else {
            /* LO-HI,W */
            size_t l = (size_t)(eol - p) < sizeof buf - 1 ? (size_t)(eol - p) : sizeof buf - 1;
            memcpy(buf, p, l);
            buf[l] = 0;
            char *e1, *e2, *e3;
            errno = 0;
            unsigned long long lo = strtoull(buf, &e1, 10);
            unsigned long long hi = *e1 == '-' ? strtoull(e1 + 1, &e2, 10) : 0;
            double w = *e1 == '-' && *e2 == ',' ? strtod(e2 + 1, &e3) : -1;
            if (errno || buf[0] < '0' || buf[0] > '9' || *e1 != '-' || e1[1] < '0' ||
                e1[1] > '9' || *e2 != ',' || e2[1] == 0 || *e3 || !(w >= 0) || w > 1e300 ||
                hi < lo)
                DIST_FAIL("'%s' is not LO-HI,WEIGHT (sizes LO <= HI, a weight of 0 or more)",
                          buf);
            if (d->n == cap) {
                struct fcb_mixdist_entry *ne = realloc(d->e, (cap *= 2) * sizeof *ne);
                if (!ne)
                    DIST_FAIL("out of memory");
                d->e = ne;
            }
            d->e[d->n].lo = lo;
            d->e[d->n].hi = hi;
            d->e[d->n++].w = w;
            total += w;
        }
        p = eol + 1;
    }
#undef DIST_FAIL
    if (d->n == 0 || !(total > 0)) {
        snprintf(err, errcap, "%s", len ? "no size has a weight above 0" : "an empty file");
        free(d->e);
        d->e = NULL;
        return -1;
    }
    return 0;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t r;
    while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    *len = n;
    return buf;
}

/* --dist FILE: the case name (the file's name without the directory, ".csv" and
 * a ".memcpy"/".memmove"/".memset" before it; at most 24 characters) and the
 * function (the file's "# function:" line, else a function named in the file
 * name, else -1: all three). */
void fcb_dist_file_name(const char *path, char *name, size_t cap)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b);
    if (n > 4 && !strcmp(b + n - 4, ".csv"))
        n -= 4;
    for (int f = 0; f < FCB_NFUNCS; f++) {
        size_t l = strlen(fcb_func_name(f));
        if (n > l + 1 && b[n - l - 1] == '.' && !strncmp(b + n - l, fcb_func_name(f), l))
            n -= l + 1;
    }
    if (n >= cap)
        n = cap - 1;
    memcpy(name, b, n);
    name[n] = 0;
    if (!n)
        snprintf(name, cap, "dist");
}

static int dist_name_func(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    int found = -1;
    for (int f = 0; f < FCB_NFUNCS; f++)
        if (strcasestr(b, fcb_func_name(f)))
            found = found < 0 ? f : -2;
    return found < 0 ? -1 : found;
}

/* Reads and parses --dist FILE.  0, or -1 after one line naming the file. */
int fcb_load_dist(const char *path, struct fcb_mixdist *d)
{
    size_t len;
    char err[400];
    struct stat sb;
    if (!stat(path, &sb) && !S_ISREG(sb.st_mode)) {
        fcb_err("--dist '%s': not a regular file\n", path);
        return -1;
    }
    char *text = read_file(path, &len);
    if (!text) {
        fcb_err("--dist '%s': %s\n", path, strerror(errno));
        return -1;
    }
    if (memchr(text, 0, len)) {
        fcb_err("--dist '%s': not a text file\n", path);
        free(text);
        return -1;
    }
    int rc = parse_dist(text, len, d, err, sizeof err);
    free(text);
    if (rc) {
        fcb_err("--dist '%s': %s\n", path, err);
        return -1;
    }
    if (d->func < 0)
        d->func = dist_name_func(path);
    return 0;
}

struct mix_source {
    char name[32];
    struct fcb_mixdist d;
    int fs[3], nf;
    const char *path;   /* --dist FILE, else NULL */
    size_t seed_index;  /* which draws: the index in fcb_dists, or in the --dist list */
};

/* The size mixes to build: the --dist files, else the built-in (or --dist-dir)
 * fleet distributions. */
static size_t mix_sources(struct fcb_builder *b, struct mix_source **out)
{
    int quick = b->st->cfg.quick;
    const struct fcb_config *cfg = &b->st->cfg;
    size_t nsrc = cfg->ndists ? (size_t)cfg->ndists : fcb_ndists, k = 0;
    struct mix_source *v = calloc(nsrc ? nsrc : 1, sizeof *v);
    for (size_t di = 0; di < nsrc; di++) {
        struct mix_source *m = &v[k];
        m->seed_index = di;
        if (cfg->ndists) {
            m->path = cfg->dists[di];
            fcb_dist_file_name(m->path, m->name, 25);
            if (fcb_load_dist(m->path, &m->d))
                continue; /* (fcb_config_check has refused bad files already) */
            if (m->d.func >= 0)
                m->fs[m->nf++] = m->d.func;
            else
                for (int f = 0; f < FCB_NFUNCS; f++)
                    m->fs[m->nf++] = f;
            k++;
            continue;
        }
        const struct fcb_dist *d = &fcb_dists[di];
        snprintf(m->name, sizeof m->name, "%s", d->name);
        if (!strncmp(d->name, "Memcpy", 6)) {
            if (quick && strcmp(d->name, "MemcpyGoogleA") && strcmp(d->name, "MemcpyGoogleM"))
                continue;
            m->fs[m->nf++] = FCB_MEMCPY;
            if (!quick)
                m->fs[m->nf++] = FCB_MEMMOVE;
        } else if (!strncmp(d->name, "Memmove", 7)) {
            if (quick && strcmp(d->name, "MemmoveGoogleA"))
                continue;
            m->fs[m->nf++] = FCB_MEMMOVE;
        } else if (!strncmp(d->name, "Memset", 6)) {
            if (quick && strcmp(d->name, "MemsetGoogleA") && strcmp(d->name, "MemsetGoogleB"))
                continue;
            m->fs[m->nf++] = FCB_MEMSET;
        } else {
            if (quick)
                continue;
            m->fs[m->nf++] = FCB_MEMCPY;
            m->fs[m->nf++] = FCB_MEMMOVE;
            m->fs[m->nf++] = FCB_MEMSET;
        }
        const char *text = d->text;
        size_t len = d->len;
        char *owned = NULL;
        if (cfg->dist_dir) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s.csv", cfg->dist_dir, d->name);
            owned = read_file(path, &len);
            if (!owned) {
                fcb_err("cannot read %s; using the built-in copy\n", path);
                len = d->len;
            } else {
                text = owned;
            }
        }
        char err[400];
        int rc = parse_dist(text, len, &m->d, err, sizeof err);
        if (rc)
            fcb_err("%s%s.csv: %s; skipped\n", owned ? cfg->dist_dir : "built-in ", d->name, err);
        free(owned);
        if (!rc)
            k++;
    }
    *out = v;
    return k;
}

void fcb_cases_mix(struct fcb_builder *b)
{
    int quick = b->st->cfg.quick;
    size_t align = b->st->cfg.mix_align;
    /* Three regimes: MIX_OPS calls per sequence (too long for the branch
     * predictors to learn: unpredictable sizes, as across a fleet), and 4096 and
     * 512 calls replayed round and round (learnable, close to what a call site with
     * steady sizes sees).  --mix-ops N: that one regime only; --quick: the first. */
    size_t regimes[3], nreg = 0;
    if (b->st->cfg.mix_ops) {
        regimes[nreg++] = b->st->cfg.mix_ops < 16 ? 16 : b->st->cfg.mix_ops;
    } else {
        regimes[nreg++] = MIX_OPS;
        if (!quick) {
            regimes[nreg++] = 4096;
            regimes[nreg++] = 512;
        }
    }
    if (align < 1 || align > 4096)
        align = 1;
    struct mix_source *src;
    size_t nsrc = mix_sources(b, &src);
    for (size_t di = 0; di < nsrc; di++) {
        struct mix_source *m = &src[di];
        const struct fcb_mixdist_entry *e = m->d.e;
        size_t nw = m->d.n, clamped = 0, drawn = 0;
        double *cum = malloc((nw + 1) * sizeof *cum);
        cum[0] = 0;
        for (size_t i = 0; i < nw; i++)
            cum[i + 1] = cum[i] + e[i].w;
        for (size_t rg = 0; rg < nreg; rg++)
        for (int k = 0; k < m->nf; k++) {
            /* Same draws for memcpy and memmove of one file (and the shorter
             * regimes replay a prefix of the same draws). */
            size_t nmix = regimes[rg];
            uint64_t rng = b->st->cfg.seed ^ (0x51ed270b27e3ull * (m->seed_index + 1));
            struct fcb_case *c =
                rg == 0 ? fcb_new_case(b, m->fs[k], "mix", 0, nmix, "%s", m->name)
                        : fcb_new_case(b, m->fs[k], "mix", 0, nmix, "%s/ops=%zu", m->name, nmix);
            if (!c)
                continue;
            c->mix = 1;
            c->mix_default = rg == 0;
            double total = 0;
            for (size_t i = 0; i < nmix; i++) {
                double u = (fcb_rng_next(&rng) >> 11) * (1.0 / 9007199254740992.0) * cum[nw];
                size_t lo = 0, hi = nw; /* smallest i with cum[i+1] > u */
                while (lo < hi) {
                    size_t mid = (lo + hi) / 2;
                    if (cum[mid + 1] > u)
                        hi = mid;
                    else
                        lo = mid + 1;
                }
                if (lo >= nw)
                    lo = nw - 1;
                /* a range (sizes above 4096): evenly within it (an extra draw only
                 * then, so the built-in mixes replay the same calls as before) */
                uint64_t n = e[lo].lo;
                if (e[lo].hi > e[lo].lo)
                    n += fcb_rng_below(&rng, e[lo].hi - e[lo].lo + 1);
                drawn++;
                if (n > b->max_size) {
                    n = b->max_size;
                    clamped++;
                }
                c->ops[i].n = (uint32_t)n;
                c->ops[i].soff = (uint32_t)(fcb_rng_below(&rng, 4096 / align) * align);
                c->ops[i].doff = (uint32_t)(fcb_rng_below(&rng, 4096 / align) * align);
                total += (double)n;
            }
            c->size = (size_t)(total / nmix + 0.5);
        }
        if (clamped)
            fcb_err("--dist '%s': %zu of %zu calls drawn are above --max-size %zu; replayed "
                    "at %zu bytes\n", m->path ? m->path : m->name, clamped, drawn, b->max_size,
                    b->max_size);
        free(m->d.e);
        free(cum);
    }
    free(src);
}

/* The memcpy and memset mixes again, each call followed by a read of the last byte
 * it wrote, as a program that uses what it copied does: a load overlapping a recent
 * store waits until that store can forward its data, and a byte-masked store cannot
 * forward (measured here: 8-byte copy then read, 5.3 ns with avx512's masked store,
 * 2.7 ns with plain stores). */
void fcb_cases_mixread(struct fcb_builder *b)
{
    int nc = b->st->ncases;
    for (int i = 0; i < nc; i++) {
        const struct fcb_case *m = &b->st->cases[i];
        if (strcmp(m->group, "mix") || m->func == FCB_MEMMOVE || !m->mix_default)
            continue;
        int f = m->func;
        size_t nops = m->nops, size = m->size;
        char key[64];
        snprintf(key, sizeof key, "%s", strrchr(m->name, '/') + 1);
        struct fcb_case *r = fcb_new_case(b, f, "mixread", 0, nops, "%s", key);
        if (!r)
            continue;
        m = &b->st->cases[i]; /* fcb_new_case may have moved the array */
        r->mix = 1;
        r->readback = 1;
        r->size = size;
        memcpy(r->ops, m->ops, nops * sizeof *m->ops);
    }
    if (!b->mix_for_mixread)
        return;
    /* "mixread" without "mix": drop the mix cases built only as its source. */
    b->mix_for_mixread = 0;
    int k = 0;
    for (int i = 0; i < b->st->ncases; i++) {
        struct fcb_case *c = &b->st->cases[i];
        if (!strcmp(c->group, "mix")) {
            fcb_ops_free(c);
            continue;
        }
        b->st->cases[k++] = *c;
    }
    b->st->ncases = k;
}
