/* trace_report.c - what libfastcopy-trace.so records, as files: written by the
 * library at exit (src/trace.c) and by fastcopy-trace after merging the processes
 * of a run (tools/fastcopy-trace.c), read back by fastcopy-trace.
 *
 * FILE.trace (every count; the merge reads these):
 *   fastcopy-trace 1                     first line: format and version
 *   pid PID | processes N                one process, or N merged
 *   exe PATH                             (merged: the programs' names)
 *   threads N M                          threads that counted; M of them on the shared counters
 *   lost N                               earlier program images of these pids that wrote
 *                                        nothing (an exec replaced them)
 *   name NAME CALLS BYTES                per exported name (exports.def), every name
 *   max FUNC SIZE                        largest size above 4096
 *   size FUNC LO HI CALLS BYTES          per size bucket with calls (LO = HI up to 4096)
 *   align FUNC dst|src MOD COUNT         dst, src modulo 64
 *   dist FUNC CLASS COUNT                disjoint, alias4k, fwd, bwd, same (copies)
 *   site<TAB>CALLS<TAB>BYTES<TAB>NAME<TAB>OFFSET<TAB>OBJECT<TAB>SYMBOL
 *   other CALLS BYTES                    calls from sites the tables had no room for
 *   end                                  last line: the file is complete
 *
 * FILE.memcpy.csv (.memmove, .memset): bench/distributions' format, extended.
 *   Line 1: the probability of each size 0, 1, 2, ... 4096 (trailing zeros left
 *   out), comma-separated, as LLVM's files.  Then one line "LO-HI,P" per
 *   ranged bucket with calls: probability P, spread evenly over the sizes LO to HI
 *   (HI is at most the largest size seen).  Then comment lines starting with '#'.
 *   fcbench --dist reads all of it; a reader of LLVM's format reads line 1. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "trace.h"

#define FCT_NAME_STR(ret, name, params, kind) #name,
#define FCT_NAME_STR_F(ret, name, params, kind, kernel) #name,
const char *const fct_names[FCT_NNAMES] = {FC_EXPORT_LIST(FCT_NAME_STR, FCT_NAME_STR_F)};
#define FCT_NAME_FUNC(ret, name, params, kind) FC_KIND_FUNC_##kind,
#define FCT_NAME_FUNC_F(ret, name, params, kind, kernel) FC_KIND_FUNC_##kind,
const unsigned char fct_name_func[FCT_NNAMES] = {FC_EXPORT_LIST(FCT_NAME_FUNC, FCT_NAME_FUNC_F)};

static const char *const fct_funcs[FC_NFUNCS] = {"memcpy", "memmove", "memset"};
static const char *const fct_al_names[FCT_NAL] = {"dst", "src"};
static const char *const fct_dist_names[FCT_NDIST] = {"disjoint", "alias4k", "fwd", "bwd",
                                                      "same"};

uint64_t fct_bucket_lo(unsigned b)
{
    if (b < FCT_NEXACT)
        return b;
    if (b >= FCT_NBUCKETS - 1)
        return (uint64_t)1 << FCT_LOG_HI;
    unsigned j = b - FCT_NEXACT, k = FCT_LOG_LO + j / FCT_SUB, sub = j % FCT_SUB;
    uint64_t lo = ((uint64_t)1 << k) + ((uint64_t)sub << (k - 4));
    return lo < FCT_NEXACT ? FCT_NEXACT : lo;
}

uint64_t fct_bucket_hi(unsigned b)
{
    if (b < FCT_NEXACT)
        return b;
    if (b >= FCT_NBUCKETS - 1)
        return UINT64_MAX;
    unsigned j = b - FCT_NEXACT, k = FCT_LOG_LO + j / FCT_SUB, sub = j % FCT_SUB;
    return ((uint64_t)1 << k) + ((uint64_t)(sub + 1) << (k - 4)) - 1;
}

struct fct_report *fct_report_new(void)
{
    return calloc(1, sizeof(struct fct_report));
}

void fct_report_free(struct fct_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nsites; i++) {
        free(r->sites[i].object);
        free(r->sites[i].symbol);
    }
    free(r->sites);
    free(r);
}

void fct_report_add_site(struct fct_report *r, unsigned name, const char *object,
                         uint64_t offset, const char *symbol, uint64_t calls, uint64_t bytes)
{
    if (r->nsites == r->site_cap) {
        size_t cap = r->site_cap ? 2 * r->site_cap : 256;
        struct fct_site *s = realloc(r->sites, cap * sizeof *s);
        if (!s)
            return;
        r->sites = s;
        r->site_cap = cap;
    }
    struct fct_site *s = &r->sites[r->nsites];
    s->object = strdup(object ? object : "?");
    s->symbol = strdup(symbol ? symbol : "");
    if (!s->object || !s->symbol) {
        free(s->object);
        free(s->symbol);
        return;
    }
    s->name = name;
    s->offset = offset;
    s->calls = calls;
    s->bytes = bytes;
    r->nsites++;
}

static int site_key_cmp(const void *a, const void *b)
{
    const struct fct_site *x = a, *y = b;
    int c = strcmp(x->object, y->object);
    if (c)
        return c;
    if (x->offset != y->offset)
        return x->offset < y->offset ? -1 : 1;
    return (int)x->name - (int)y->name;
}

/* One entry per (object, offset, name): the sites of several threads or
 * processes summed. */
static void coalesce_sites(struct fct_report *r)
{
    if (r->nsites < 2)
        return;
    qsort(r->sites, r->nsites, sizeof *r->sites, site_key_cmp);
    size_t k = 0;
    for (size_t i = 1; i < r->nsites; i++) {
        struct fct_site *a = &r->sites[k], *b = &r->sites[i];
        if (!site_key_cmp(a, b)) {
            a->calls += b->calls;
            a->bytes += b->bytes;
            if (!a->symbol[0] && b->symbol[0]) {
                free(a->symbol);
                a->symbol = b->symbol;
                b->symbol = NULL;
            }
            free(b->object);
            free(b->symbol);
        } else {
            r->sites[++k] = *b;
        }
    }
    r->nsites = k + 1;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

void fct_report_merge(struct fct_report *dst, const struct fct_report *src)
{
    for (int f = 0; f < FC_NFUNCS; f++) {
        struct fct_hist *a = &dst->h[f];
        const struct fct_hist *b = &src->h[f];
        for (unsigned k = 0; k < FCT_NBUCKETS; k++)
            a->calls[k] += b->calls[k];
        for (unsigned k = 0; k < FCT_NRANGED; k++)
            a->bytes[k] += b->bytes[k];
        for (unsigned x = 0; x < FCT_NAL; x++)
            for (unsigned k = 0; k < 64; k++)
                a->align[x][k] += b->align[x][k];
        for (unsigned k = 0; k < FCT_NDIST; k++)
            a->dist[k] += b->dist[k];
        if (b->max > a->max)
            a->max = b->max;
    }
    for (unsigned k = 0; k < FCT_NNAMES; k++) {
        dst->name_calls[k] += src->name_calls[k];
        dst->name_bytes[k] += src->name_bytes[k];
    }
    dst->other_calls += src->other_calls;
    dst->other_bytes += src->other_bytes;
    for (size_t i = 0; i < src->nsites; i++) {
        const struct fct_site *s = &src->sites[i];
        fct_report_add_site(dst, s->name, s->object, s->offset, s->symbol, s->calls, s->bytes);
    }
    dst->nproc += src->nproc;
    dst->threads += src->threads;
    dst->shared_threads += src->shared_threads;
    dst->lost += src->lost;
    dst->pid = 0;
    /* the list of program names, each once: "gcc, cc1, as" */
    const char *names = src->pid ? base_name(src->exe) : src->exe;
    char one[256];
    for (const char *p = names; *p;) {
        size_t n = strcspn(p, ",");
        snprintf(one, sizeof one, "%.*s", (int)n, p);
        p += n;
        while (*p == ',' || *p == ' ')
            p++;
        int have = 0;
        for (const char *q = dst->exe; *q && !have;) {
            size_t m = strcspn(q, ",");
            have = m == strlen(one) && !strncmp(q, one, m);
            q += m;
            while (*q == ',' || *q == ' ')
                q++;
        }
        size_t l = strlen(dst->exe);
        if (!have && one[0] && l + strlen(one) + 3 < sizeof dst->exe)
            snprintf(dst->exe + l, sizeof dst->exe - l, "%s%s", l ? ", " : "", one);
    }
}

uint64_t fct_func_calls(const struct fct_report *r, int f)
{
    uint64_t n = 0;
    for (unsigned k = 0; k < FCT_NNAMES; k++)
        if (fct_name_func[k] == f)
            n += r->name_calls[k];
    return n;
}

uint64_t fct_func_bytes(const struct fct_report *r, int f)
{
    uint64_t n = 0;
    for (unsigned k = 0; k < FCT_NNAMES; k++)
        if (fct_name_func[k] == f)
            n += r->name_bytes[k];
    return n;
}

static uint64_t bucket_bytes(const struct fct_hist *h, unsigned b)
{
    return b < FCT_NEXACT ? (uint64_t)b * h->calls[b] : h->bytes[b - FCT_NEXACT];
}

/* The largest size seen. */
static uint64_t hist_max(const struct fct_hist *h)
{
    if (h->max)
        return h->max;
    for (unsigned b = FCT_NEXACT; b-- > 0;)
        if (h->calls[b])
            return b;
    return 0;
}

/* ---- FILE.trace ---------------------------------------------------------------- */

int fct_write_trace(FILE *f, struct fct_report *r)
{
    coalesce_sites(r);
    fprintf(f, "fastcopy-trace 1\n");
    if (r->pid)
        fprintf(f, "pid %ld\n", r->pid);
    else
        fprintf(f, "processes %u\n", r->nproc);
    fprintf(f, "exe %s\n", r->exe);
    fprintf(f, "threads %" PRIu64 " %" PRIu64 "\n", r->threads, r->shared_threads);
    fprintf(f, "lost %" PRIu64 "\n", r->lost);
    for (unsigned k = 0; k < FCT_NNAMES; k++)
        fprintf(f, "name %s %" PRIu64 " %" PRIu64 "\n", fct_names[k], r->name_calls[k],
                r->name_bytes[k]);
    for (int fn = 0; fn < FC_NFUNCS; fn++) {
        const struct fct_hist *h = &r->h[fn];
        if (h->max)
            fprintf(f, "max %s %" PRIu64 "\n", fct_funcs[fn], h->max);
        for (unsigned b = 0; b < FCT_NBUCKETS; b++)
            if (h->calls[b])
                fprintf(f, "size %s %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
                        fct_funcs[fn], fct_bucket_lo(b), fct_bucket_hi(b), h->calls[b],
                        bucket_bytes(h, b));
        for (unsigned x = 0; x < FCT_NAL; x++)
            for (unsigned k = 0; k < 64; k++)
                if (h->align[x][k])
                    fprintf(f, "align %s %s %u %" PRIu64 "\n", fct_funcs[fn], fct_al_names[x],
                            k, h->align[x][k]);
        for (unsigned k = 0; k < FCT_NDIST; k++)
            if (h->dist[k])
                fprintf(f, "dist %s %s %" PRIu64 "\n", fct_funcs[fn], fct_dist_names[k],
                        h->dist[k]);
    }
    for (size_t i = 0; i < r->nsites; i++) {
        const struct fct_site *s = &r->sites[i];
        fprintf(f, "site\t%" PRIu64 "\t%" PRIu64 "\t%s\t0x%" PRIx64 "\t%s\t%s\n", s->calls,
                s->bytes, fct_names[s->name], s->offset, s->object, s->symbol);
    }
    fprintf(f, "other %" PRIu64 " %" PRIu64 "\n", r->other_calls, r->other_bytes);
    fprintf(f, "end\n");
    return ferror(f) ? -1 : 0;
}

static int find_in(const char *const *list, unsigned n, const char *s)
{
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(list[i], s))
            return (int)i;
    return -1;
}

static int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    if (!s || *s < '0' || *s > '9')
        return -1;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno || *end)
        return -1;
    *v = x;
    return 0;
}

int fct_read_trace(FILE *f, struct fct_report *r, char *err, size_t errcap)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    unsigned lineno = 0;
    int ended = 0, rc = -1;
    const char *why = NULL;
    r->nproc = 1;
    while ((len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        if (len && line[len - 1] == '\n')
            line[--len] = 0;
        if (ended) {
            why = "text after 'end'";
            goto bad;
        }
        if (lineno == 1) {
            if (strcmp(line, "fastcopy-trace 1")) {
                why = "not a fastcopy-trace file (the first line is not 'fastcopy-trace 1')";
                goto bad;
            }
            continue;
        }
        if (!strncmp(line, "site\t", 5)) {
            char *fld[7];
            int k = 0;
            for (char *p = line; k < 7; k++) {
                fld[k] = p;
                p = strchr(p, '\t');
                if (!p)
                    break;
                *p++ = 0;
            }
            uint64_t calls, bytes, off;
            int name;
            if (k != 6 || parse_u64(fld[1], &calls) || parse_u64(fld[2], &bytes) ||
                (name = find_in(fct_names, FCT_NNAMES, fld[3])) < 0 || parse_u64(fld[4], &off)) {
                why = "a bad 'site' line";
                goto bad;
            }
            fct_report_add_site(r, (unsigned)name, fld[5], off, fld[6], calls, bytes);
            continue;
        }
        if (!strncmp(line, "exe ", 4)) {
            snprintf(r->exe, sizeof r->exe, "%s", line + 4);
            continue;
        }
        char *tok[8];
        int nt = 0;
        for (char *save = NULL, *t = strtok_r(line, " ", &save); t && nt < 8;
             t = strtok_r(NULL, " ", &save))
            tok[nt++] = t;
        for (int k = nt; k < 8; k++)
            tok[k] = NULL;
        uint64_t a, b, c, d;
        int fn = nt > 1 ? find_in(fct_funcs, FC_NFUNCS, tok[1]) : -1;
        if (!nt) {
            why = "an empty line";
            goto bad;
        } else if (!strcmp(tok[0], "end") && nt == 1) {
            ended = 1;
        } else if (!strcmp(tok[0], "pid") && nt == 2 && !parse_u64(tok[1], &a)) {
            r->pid = (long)a;
            r->nproc = 1;
        } else if (!strcmp(tok[0], "processes") && nt == 2 && !parse_u64(tok[1], &a)) {
            r->pid = 0;
            r->nproc = (unsigned)a;
        } else if (!strcmp(tok[0], "threads") && nt == 3 && !parse_u64(tok[1], &a) &&
                   !parse_u64(tok[2], &b)) {
            r->threads = a;
            r->shared_threads = b;
        } else if (!strcmp(tok[0], "lost") && nt == 2 && !parse_u64(tok[1], &a)) {
            r->lost += a;
        } else if (!strcmp(tok[0], "name") && nt == 4 && !parse_u64(tok[2], &a) &&
                   !parse_u64(tok[3], &b)) {
            int k = find_in(fct_names, FCT_NNAMES, tok[1]);
            if (k < 0) {
                why = "an unknown name";
                goto bad;
            }
            r->name_calls[k] += a;
            r->name_bytes[k] += b;
        } else if (!strcmp(tok[0], "other") && nt == 3 && !parse_u64(tok[1], &a) &&
                   !parse_u64(tok[2], &b)) {
            r->other_calls += a;
            r->other_bytes += b;
        } else if (!strcmp(tok[0], "max") && nt == 3 && fn >= 0 && !parse_u64(tok[2], &a)) {
            if (a > r->h[fn].max)
                r->h[fn].max = a;
        } else if (!strcmp(tok[0], "size") && nt == 6 && fn >= 0 && !parse_u64(tok[2], &a) &&
                   !parse_u64(tok[3], &b) && !parse_u64(tok[4], &c) && !parse_u64(tok[5], &d)) {
            unsigned bk = fct_bucket(a);
            if (fct_bucket_lo(bk) != a || fct_bucket_hi(bk) != b) {
                why = "a 'size' line whose LO-HI is not a bucket";
                goto bad;
            }
            r->h[fn].calls[bk] += c;
            if (bk >= FCT_NEXACT)
                r->h[fn].bytes[bk - FCT_NEXACT] += d;
        } else if (!strcmp(tok[0], "align") && nt == 5 && fn >= 0 &&
                   find_in(fct_al_names, FCT_NAL, tok[2]) >= 0 && !parse_u64(tok[3], &a) &&
                   a < 64 && !parse_u64(tok[4], &b)) {
            r->h[fn].align[find_in(fct_al_names, FCT_NAL, tok[2])][a] += b;
        } else if (!strcmp(tok[0], "dist") && nt == 4 && fn >= 0 &&
                   find_in(fct_dist_names, FCT_NDIST, tok[2]) >= 0 && !parse_u64(tok[3], &a)) {
            r->h[fn].dist[find_in(fct_dist_names, FCT_NDIST, tok[2])] += a;
        } else {
            why = "a line that is not part of the format";
            goto bad;
        }
    }
    if (lineno == 0)
        why = "an empty file";
    else if (!ended)
        why = "no 'end' line: the file is incomplete";
    else
        rc = 0;
    if (why)
        snprintf(err, errcap, "%s", why);
    free(line);
    return rc;
bad:
    snprintf(err, errcap, "line %u: %s", lineno, why);
    free(line);
    return -1;
}

/* ---- FILE.<func>.csv ------------------------------------------------------------- */

static void put_prob(FILE *f, uint64_t calls, uint64_t total)
{
    if (!calls)
        fputs("0", f);
    else
        fprintf(f, "%.6g", (double)calls / (double)total);
}

int fct_write_dist(FILE *f, const struct fct_report *r, int fn, const char *source)
{
    const struct fct_hist *h = &r->h[fn];
    uint64_t total = 0, bytes = 0;
    for (unsigned b = 0; b < FCT_NBUCKETS; b++) {
        total += h->calls[b];
        bytes += bucket_bytes(h, b);
    }
    unsigned last = 0;
    for (unsigned b = 0; b < FCT_NEXACT; b++)
        if (h->calls[b])
            last = b;
    for (unsigned b = 0; b <= last; b++) {
        if (b)
            fputc(',', f);
        put_prob(f, h->calls[b], total);
    }
    fputc('\n', f);
    uint64_t max = hist_max(h);
    for (unsigned b = FCT_NEXACT; b < FCT_NBUCKETS; b++)
        if (h->calls[b]) {
            uint64_t hi = fct_bucket_hi(b);
            fprintf(f, "%" PRIu64 "-%" PRIu64 ",", fct_bucket_lo(b), hi < max ? hi : max);
            put_prob(f, h->calls[b], total);
            fputc('\n', f);
        }
    fprintf(f, "# function: %s\n", fct_funcs[fn]);
    fprintf(f, "# fastcopy-trace: the sizes of %" PRIu64 " calls (%" PRIu64 " bytes) of", total,
            bytes);
    for (unsigned k = 0; k < FCT_NNAMES; k++)
        if (fct_name_func[k] == fn)
            fprintf(f, " %s", fct_names[k]);
    fprintf(f, " in %u process%s: %s\n", r->nproc, r->nproc == 1 ? "" : "es",
            source ? source : r->exe);
    fprintf(f, "# line 1: the probability of each size 0, 1, 2, ..., as bench/distributions;"
               " LO-HI,P: probability P spread evenly over the sizes LO..HI. Replay: fcbench"
               " --dist FILE\n");
    return ferror(f) ? -1 : 0;
}

/* ---- the summary ----------------------------------------------------------------- */

static const char *human_bytes(uint64_t v, char *buf, size_t cap)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double x = (double)v;
    int u = 0;
    while (x >= 1024 && u < 5)
        x /= 1024, u++;
    if (u == 0)
        snprintf(buf, cap, "%" PRIu64 " B", v);
    else
        snprintf(buf, cap, "%.1f %s", x, unit[u]);
    return buf;
}

static const char *size_range(unsigned b, uint64_t max, char *buf, size_t cap)
{
    uint64_t lo = fct_bucket_lo(b), hi = fct_bucket_hi(b);
    if (hi > max)
        hi = max;
    if (lo >= hi)
        snprintf(buf, cap, "%" PRIu64, lo);
    else
        snprintf(buf, cap, "%" PRIu64 "-%" PRIu64, lo, hi);
    return buf;
}

static double pct(uint64_t a, uint64_t b)
{
    return b ? 100.0 * (double)a / (double)b : 0.0;
}

struct size_class {
    const char *label;
    uint64_t lo, hi;
};
static const struct size_class fct_classes[] = {
    {"0", 0, 0},          {"1-8", 1, 8},           {"9-16", 9, 16},
    {"17-32", 17, 32},    {"33-64", 33, 64},       {"65-128", 65, 128},
    {"129-256", 129, 256}, {"257-512", 257, 512},  {"513-1024", 513, 1024},
    {"1025-4096", 1025, 4096}, {"4097-65535", 4097, 65535},
    {"65536-1048575", 65536, 1048575}, {"1048576 and up", 1048576, UINT64_MAX},
};
#define FCT_NCLASSES (sizeof fct_classes / sizeof fct_classes[0])

static int by_calls(const void *a, const void *b)
{
    const struct fct_site *x = *(const struct fct_site *const *)a,
                          *y = *(const struct fct_site *const *)b;
    if (x->calls != y->calls)
        return x->calls > y->calls ? -1 : 1;
    return x->bytes > y->bytes ? -1 : x->bytes < y->bytes;
}

static int by_bytes(const void *a, const void *b)
{
    const struct fct_site *x = *(const struct fct_site *const *)a,
                          *y = *(const struct fct_site *const *)b;
    if (x->bytes != y->bytes)
        return x->bytes > y->bytes ? -1 : 1;
    return x->calls > y->calls ? -1 : x->calls < y->calls;
}

static void print_sites(FILE *f, struct fct_site **v, size_t n, const char *what,
                        uint64_t all_calls, uint64_t all_bytes)
{
    char hb[32];
    fprintf(f, "\ntop call sites by %s (return address in its object; addr2line -e OBJECT "
               "OFFSET):\n", what);
    fprintf(f, "  %12s %6s %11s %6s  %-14s %s\n", "calls", "", "bytes", "", "name", "site");
    for (size_t i = 0; i < n && i < 10; i++) {
        const struct fct_site *s = v[i];
        fprintf(f, "  %12" PRIu64 " %5.1f%% %11s %5.1f%%  %-14s %s+0x%" PRIx64 "%s%s%s\n",
                s->calls, pct(s->calls, all_calls), human_bytes(s->bytes, hb, sizeof hb),
                pct(s->bytes, all_bytes), fct_names[s->name], base_name(s->object), s->offset,
                s->symbol[0] ? " (" : "", s->symbol, s->symbol[0] ? ")" : "");
    }
}

void fct_write_summary(FILE *f, struct fct_report *r, const char *note)
{
    char hb[32], hb2[32], rng[64];
    coalesce_sites(r);
    uint64_t calls[FC_NFUNCS], bytes[FC_NFUNCS], all_calls = 0, all_bytes = 0;
    for (int fn = 0; fn < FC_NFUNCS; fn++) {
        calls[fn] = fct_func_calls(r, fn);
        bytes[fn] = fct_func_bytes(r, fn);
        all_calls += calls[fn];
        all_bytes += bytes[fn];
    }
    if (r->pid)
        fprintf(f, "fastcopy-trace: process %ld (%s), %" PRIu64 " thread%s: %" PRIu64
                   " calls, %s\n", r->pid, r->exe, r->threads, r->threads == 1 ? "" : "s",
                all_calls, human_bytes(all_bytes, hb, sizeof hb));
    else
        fprintf(f, "fastcopy-trace: %u process%s (%s), %" PRIu64 " thread%s: %" PRIu64
                   " calls, %s\n", r->nproc, r->nproc == 1 ? "" : "es", r->exe, r->threads,
                r->threads == 1 ? "" : "s", all_calls, human_bytes(all_bytes, hb, sizeof hb));
    if (note && *note)
        fprintf(f, "%s\n", note);
    if (r->lost)
        fprintf(f, "%" PRIu64 " program image%s replaced by exec wrote nothing (the image%s "
                   "after %s counted)\n", r->lost, r->lost == 1 ? "" : "s",
                r->lost == 1 ? "" : "s", r->lost == 1 ? "it is" : "them are");
    fprintf(f, "Not counted: a process that ends by _exit(), a signal or exec writes nothing; "
               "nor are\ncalls between fork and exec, after the trace's exit handler, inlined "
               "by the compiler,\nor inside the C library.\n");

    fprintf(f, "\n%-22s %14s %7s %11s %7s %9s\n", "function / name", "calls", "calls", "bytes",
            "bytes", "mean size");
    for (int fn = 0; fn < FC_NFUNCS; fn++) {
        fprintf(f, "%-22s %14" PRIu64 " %6.1f%% %11s %6.1f%% %9.1f\n", fct_funcs[fn], calls[fn],
                pct(calls[fn], all_calls), human_bytes(bytes[fn], hb, sizeof hb),
                pct(bytes[fn], all_bytes), calls[fn] ? (double)bytes[fn] / calls[fn] : 0.0);
        /* its names, when another than the function's own was called */
        for (unsigned k = 0; k < FCT_NNAMES; k++)
            if (fct_name_func[k] == fn && r->name_calls[k] && r->name_calls[k] != calls[fn])
                fprintf(f, "  %-20s %14" PRIu64 " %6.1f%% %11s %6.1f%% %9.1f\n", fct_names[k],
                        r->name_calls[k], pct(r->name_calls[k], all_calls),
                        human_bytes(r->name_bytes[k], hb, sizeof hb),
                        pct(r->name_bytes[k], all_bytes),
                        (double)r->name_bytes[k] / r->name_calls[k]);
    }

    fprintf(f, "\n%-9s %10s %10s %10s %10s %10s\n", "sizes", "median", "p90", "p99", "p99.9",
            "max");
    for (int fn = 0; fn < FC_NFUNCS; fn++) {
        const struct fct_hist *h = &r->h[fn];
        uint64_t total = 0;
        for (unsigned b = 0; b < FCT_NBUCKETS; b++)
            total += h->calls[b];
        if (!total)
            continue;
        uint64_t max = hist_max(h);
        static const unsigned q[4] = {500, 900, 990, 999};
        fprintf(f, "%-9s", fct_funcs[fn]);
        uint64_t cum = 0;
        unsigned b = 0, qi = 0;
        for (; b < FCT_NBUCKETS && qi < 4; b++) {
            cum += h->calls[b];
            while (qi < 4 && cum * 1000 >= (uint64_t)q[qi] * total) {
                fprintf(f, " %10s", size_range(b, max, rng, sizeof rng));
                qi++;
            }
        }
        fprintf(f, " %10" PRIu64 "\n", max);
    }

    fprintf(f, "\n%-15s", "size class");
    for (int fn = 0; fn < FC_NFUNCS; fn++)
        if (calls[fn])
            fprintf(f, " %8s calls %6s", fct_funcs[fn], "bytes");
    fputc('\n', f);
    /* one pass over the buckets (every process runs this at exit) */
    uint64_t cc_all[FCT_NCLASSES][FC_NFUNCS], cb_all[FCT_NCLASSES][FC_NFUNCS];
    memset(cc_all, 0, sizeof cc_all);
    memset(cb_all, 0, sizeof cb_all);
    for (unsigned b = 0, c = 0; b < FCT_NBUCKETS; b++) {
        while (fct_bucket_lo(b) > fct_classes[c].hi)
            c++;
        for (int fn = 0; fn < FC_NFUNCS; fn++) {
            cc_all[c][fn] += r->h[fn].calls[b];
            cb_all[c][fn] += bucket_bytes(&r->h[fn], b);
        }
    }
    for (size_t c = 0; c < FCT_NCLASSES; c++) {
        const uint64_t *cc = cc_all[c], *cb = cb_all[c];
        fprintf(f, "%-15s", fct_classes[c].label);
        for (int fn = 0; fn < FC_NFUNCS; fn++)
            if (calls[fn])
                fprintf(f, " %13.1f%% %5.1f%%", pct(cc[fn], calls[fn]), pct(cb[fn], bytes[fn]));
        fputc('\n', f);
    }

    fprintf(f, "\n%-26s %12s %7s %7s %14s %7s %7s\n", "alignment (share of calls)",
            "dst%64 = 0", "%16", "%8", "src%64 = 0", "%16", "%8");
    for (int fn = 0; fn < FC_NFUNCS; fn++) {
        if (!calls[fn])
            continue;
        const struct fct_hist *h = &r->h[fn];
        uint64_t n = 0;
        for (unsigned k = 0; k < 64; k++)
            n += h->align[FCT_AL_DST][k];
        double a[FCT_NAL][3];
        for (unsigned x = 0; x < FCT_NAL; x++) {
            uint64_t m64 = h->align[x][0], m16 = 0, m8 = 0;
            for (unsigned k = 0; k < 64; k += 8) {
                m8 += h->align[x][k];
                if (k % 16 == 0)
                    m16 += h->align[x][k];
            }
            a[x][0] = pct(m64, n), a[x][1] = pct(m16, n), a[x][2] = pct(m8, n);
        }
        fprintf(f, "%-26s %11.1f%% %6.1f%% %6.1f%%", fct_funcs[fn], a[0][0], a[0][1], a[0][2]);
        if (fn != FC_MEMSET)
            fprintf(f, " %13.1f%% %6.1f%% %6.1f%%", a[1][0], a[1][1], a[1][2]);
        fputc('\n', f);
    }

    if (calls[FC_MEMCPY] || calls[FC_MEMMOVE]) {
        fprintf(f, "\n%-9s %10s %12s %16s %16s %9s\n", "dst, src", "disjoint", "4K-aliased",
                "overlap dst<src", "overlap dst>src", "dst=src");
        for (int fn = 0; fn < FC_MEMSET; fn++) {
            if (!calls[fn])
                continue;
            const uint64_t *d = r->h[fn].dist;
            fprintf(f, "%-9s %9.1f%% %11.1f%% %15.1f%% %15.1f%% %8.1f%%\n", fct_funcs[fn],
                    pct(d[FCT_DIST_DISJOINT], calls[fn]), pct(d[FCT_DIST_ALIAS], calls[fn]),
                    pct(d[FCT_DIST_FWD], calls[fn]), pct(d[FCT_DIST_BWD], calls[fn]),
                    pct(d[FCT_DIST_SAME], calls[fn]));
        }
        fprintf(f, "(4K-aliased: no overlap, dst 0..255 bytes after src modulo 4096; size 0 "
                   "counts as disjoint)\n");
    }

    if (r->nsites) {
        struct fct_site **v = malloc(r->nsites * sizeof *v);
        if (v) {
            for (size_t i = 0; i < r->nsites; i++)
                v[i] = &r->sites[i];
            qsort(v, r->nsites, sizeof *v, by_calls);
            print_sites(f, v, r->nsites, "calls", all_calls, all_bytes);
            qsort(v, r->nsites, sizeof *v, by_bytes);
            print_sites(f, v, r->nsites, "bytes", all_calls, all_bytes);
            free(v);
        }
    }
    fprintf(f, "%zu call sites", r->nsites);
    if (r->other_calls)
        fprintf(f, "; %" PRIu64 " calls (%s) from sites the per-thread tables had no room for",
                r->other_calls, human_bytes(r->other_bytes, hb2, sizeof hb2));
    fputc('\n', f);
    if (r->shared_threads)
        fprintf(f, "%" PRIu64 " of the threads counted into the shared counters (every "
                   "per-thread slot of their process was taken)\n", r->shared_threads);
}
