/* fcb_options.c - the options both front ends share: parsing them (fcb_config_arg),
 * their help (fcb_config_usage), checking their values before anything is set up
 * (fcb_config_check) and the --case patterns after the cases are built; the
 * messages (fcb_err). */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fastcopy.h"
#include "fcb.h"
#include "fcb_internal.h"
#include "fc_internal.h" /* fc_parse_size */

/* ---- options ------------------------------------------------------------------------ */

const char *fcb_prog = "fcbench";

void fcb_err(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", fcb_prog);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

void fcb_config_default(struct fcb_config *c)
{
    memset(c, 0, sizeof *c);
    c->cpu = -1;
    c->seed = 1;
    c->progress = 1;
}

/* The library's size grammar (fc_parse_size, src/util.c): one for both. */
int fcb_parse_size(const char *s, size_t *out)
{
    return fc_parse_size(s, out) ? 0 : -1;
}

/* A whole decimal (or 0x) number, nothing after it. */
static int parse_u64(const char *s, unsigned long long *out)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

void fcb_config_usage(void)
{
    fputs(
        "case selection and measurement (both front ends):\n"
        "  --quick             small matrix, 7 rounds: a few seconds (CI smoke test)\n"
        "  --func LIST         memcpy,memmove,memset (default: all)\n"
        "  --group LIST        sizes,misal,pageend,dist,cold,ws,overlap,mix,\n"
        "                      mixread,chain,prog,user (default: all).  chain: a value\n"
        "                      the caller stores, passes through the call and loads\n"
        "                      back (N: N bytes, a word of up to 8; N/wW: W-byte vector\n"
        "                      accesses).  prog (memcpy), what programs do around the\n"
        "                      call: sqlite, sqlite-mmap: 4092-byte copies from pages\n"
        "                      walked in address order in memory (4384 or 4096 bytes\n"
        "                      apart), each followed by a load of the next page's\n"
        "                      header; lz4/N: N bytes from a 4 MiB block to one buffer,\n"
        "                      then read; fresh/N: N bytes written, copied, the copy\n"
        "                      read (man fcbench: every address)\n"
        "  --case LIST         shell patterns on case names, e.g. 'memcpy/mix/*,*/sizes/4096'\n"
        "  --impl LIST         auto,generic,avx2,...,empty,copy_user (libc is always kept:\n"
        "                      it is the baseline)\n"
        "  --with LIB[=NAME]   also time LIB's memcpy/memmove/memset (dlopen'ed, its\n"
        "                      IFUNCs resolved): another drop-in such as AOCL-LibMem;\n"
        "                      shown as NAME (default: the file name without lib and .so);\n"
        "                      repeatable, up to 8\n"
        "  --max-size N        largest size per call (default 256M; --quick 1M)\n"
        "  --rounds N          interleaved rounds (default 15; --quick 7)\n"
        "  --sample-us N       target time of one sample in us (default 200; --quick 100)\n"
        "  --l1 N --l2 N --l3 N  cache sizes (default: sysfs, then sysconf with a sanity\n"
        "                      check, then 48K/1M/32M)\n"
        "  --cpu N             pin to CPU N (default: the CPU we start on)\n"
        "  --seed N            seed of the size-mix draws and cold walks (default 1)\n"
        "  --mix-align N       size-mix src/dst offsets are multiples of N (default 1:\n"
        "                      uniform over 0..4095, as LLVM's benchmark by default)\n"
        "  --mix-ops N         calls per size-mix sequence, one sample = one pass (default\n"
        "                      65536: too long for the branch predictors to learn)\n"
        "  --dist-dir DIR      read the size-mix .csv files from DIR instead of the copies\n"
        "                      built into the binary\n"
        "  --dist FILE...      replay these size distributions (fastcopy-trace's\n"
        "                      PREFIX.memcpy.csv ..., or PREFIX for all three; the format\n"
        "                      of bench/distributions, extended) as the mix cases, in the\n"
        "                      three regimes, for the function each was recorded for;\n"
        "                      implies --group mix unless --group is given\n"
        "  --no-progress       no progress lines on stderr\n",
        stdout);
}

int fcb_config_arg(struct fcb_config *c, int argc, char **argv, int *k)
{
    const char *a = argv[*k];
    const char *v = *k + 1 < argc ? argv[*k + 1] : NULL;
    size_t sz;
    unsigned long long u;
#define NEEDV                                                                      \
    do {                                                                           \
        if (!v) {                                                                  \
            fcb_err("%s needs a value\n", a);                     \
            return -1;                                                             \
        }                                                                          \
    } while (0)
    /* A size of at least lo bytes (K, M, G suffixes). */
#define SIZEV(field, lo, what)                                                     \
    do {                                                                           \
        NEEDV;                                                                     \
        if (fcb_parse_size(v, &sz) || sz < (lo)) {                                     \
            fcb_err("%s '%s': not a size %s\n", a, v, what);      \
            return -1;                                                             \
        }                                                                          \
        c->field = sz;                                                             \
        return 2;                                                                  \
    } while (0)
#define LISTV(field)                                                               \
    do {                                                                           \
        NEEDV;                                                                     \
        if (!*v) {                                                                 \
            fcb_err("%s '': empty list\n", a);                    \
            return -1;                                                             \
        }                                                                          \
        c->field = v;                                                              \
        return 2;                                                                  \
    } while (0)
    if (!strcmp(a, "--quick")) {
        c->quick = 1;
        return 1;
    }
    if (!strcmp(a, "--no-progress")) {
        c->progress = -1;
        return 1;
    }
    if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
        c->verbose++;
        return 1;
    }
    if (!strcmp(a, "--func")) LISTV(funcs);
    if (!strcmp(a, "--group")) LISTV(groups);
    if (!strcmp(a, "--case")) LISTV(cases);
    if (!strcmp(a, "--impl")) { if (v) v = fcb_current_names(v); LISTV(impls); }
    if (!strcmp(a, "--dist-dir")) { NEEDV; c->dist_dir = v; return 2; }
    if (!strcmp(a, "--dist")) {
        /* every following argument up to the next option: a file, or a PREFIX
         * standing for PREFIX.memcpy.csv, PREFIX.memmove.csv, PREFIX.memset.csv */
        int used = 1;
        for (; *k + used < argc && argv[*k + used][0] != '-'; used++) {
            const char *f = argv[*k + used];
            struct stat sb;
            int expanded = 0;
            if (stat(f, &sb) && errno == ENOENT) {
                static const char *const sfx[] = {".memcpy.csv", ".memmove.csv", ".memset.csv"};
                for (size_t i = 0; i < 3; i++) {
                    char path[4096];
                    snprintf(path, sizeof path, "%s%s", f, sfx[i]);
                    if (access(path, F_OK))
                        continue;
                    if (c->ndists == FCB_MAX_DISTS) {
                        fcb_err("--dist: at most %d files\n", FCB_MAX_DISTS);
                        return -1;
                    }
                    c->dists[c->ndists++] = strdup(path);
                    expanded = 1;
                }
            }
            if (expanded)
                continue;
            if (c->ndists == FCB_MAX_DISTS) {
                fcb_err("--dist: at most %d files\n", FCB_MAX_DISTS);
                return -1;
            }
            c->dists[c->ndists++] = f; /* checked by fcb_config_check */
        }
        if (used == 1) {
            fcb_err("--dist needs a value\n");
            return -1;
        }
        return used;
    }
    if (!strcmp(a, "--with")) {
        NEEDV;
        if (c->nwith == FCB_MAX_WITH) {
            fcb_err("--with '%s': at most %d --with libraries\n", v,
                    FCB_MAX_WITH);
            return -1;
        }
        c->with[c->nwith++] = v;
        return 2;
    }
    if (!strcmp(a, "--max-size")) SIZEV(max_size, 1, "of at least 1 byte (K, M, G suffixes)");
    if (!strcmp(a, "--mix-ops")) SIZEV(mix_ops, 16, "of at least 16 calls");
    if (!strcmp(a, "--l1")) SIZEV(l1, 1024, "of at least 1K (K, M, G suffixes)");
    if (!strcmp(a, "--l2")) SIZEV(l2, 1024, "of at least 1K (K, M, G suffixes)");
    if (!strcmp(a, "--l3")) SIZEV(l3, 1024, "of at least 1K (K, M, G suffixes)");
    if (!strcmp(a, "--mix-align")) {
        NEEDV;
        if (fcb_parse_size(v, &sz) || sz < 1 || sz > 4096) {
            fcb_err("--mix-align '%s': not a number 1..4096\n", v);
            return -1;
        }
        c->mix_align = sz;
        return 2;
    }
    if (!strcmp(a, "--rounds")) {
        NEEDV;
        if (parse_u64(v, &u) || u < 2 || u > 1000) {
            fcb_err("--rounds '%s': not a number 2..1000\n", v);
            return -1;
        }
        c->rounds = (int)u;
        return 2;
    }
    if (!strcmp(a, "--sample-us")) {
        NEEDV;
        char *end;
        double d = strtod(v, &end);
        if (end == v || *end || !(d > 0) || d > 1e7) {
            fcb_err("--sample-us '%s': not a number of microseconds "
                            "above 0 (up to 1e7)\n", v);
            return -1;
        }
        c->sample_us = d;
        return 2;
    }
    if (!strcmp(a, "--cpu")) {
        NEEDV;
        if (parse_u64(v, &u) || u >= CPU_SETSIZE) {
            fcb_err("--cpu '%s': not a CPU number 0..%d\n", v,
                    CPU_SETSIZE - 1);
            return -1;
        }
        c->cpu = (int)u;
        return 2;
    }
    if (!strcmp(a, "--seed")) {
        NEEDV;
        if (parse_u64(v, &u)) {
            fcb_err("--seed '%s': not an unsigned number\n", v);
            return -1;
        }
        c->seed = u;
        return 2;
    }
    return 0;
#undef NEEDV
#undef SIZEV
#undef LISTV
}

/* Is `name` in the comma-separated list (NULL list = everything)?  With glob, the
 * list's entries are fnmatch patterns. */
int fcb_in_list(const char *list, const char *name, int glob)
{
    if (!list)
        return 1;
    char buf[256];
    const char *p = list;
    while (*p) {
        size_t len = strcspn(p, ",");
        if (len < sizeof buf) {
            memcpy(buf, p, len);
            buf[len] = 0;
            if (glob ? !fnmatch(buf, name, 0) : !strcmp(buf, name))
                return 1;
        }
        p += len;
        if (*p == ',')
            p++;
    }
    return 0;
}

/* ---- checking the options -------------------------------------------------------- */

static const char fcb_func_list[] = "memcpy,memmove,memset";
static const char fcb_group_list[] =
    "sizes,misal,pageend,dist,cold,ws,overlap,mix,mixread,chain,prog,user";

/* Every entry of `list` must be in `valid`; otherwise one line naming it. */
static int check_list(const char *opt, const char *list, const char *valid, const char *what,
                      const char *unusable)
{
    if (!list)
        return 0;
    char buf[256];
    const char *p = list;
    for (;;) {
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof buf) {
            fcb_err("%s '%s': empty or overlong entry\n", opt, list);
            return -1;
        }
        memcpy(buf, p, len);
        buf[len] = 0;
        if (!fcb_in_list(valid, buf, 0)) {
            char names[1200];
            size_t k = 0;
            for (const char *q = valid; *q && k + 3 < sizeof names; q++) {
                names[k++] = *q;
                if (*q == ',')
                    names[k++] = ' ';
            }
            names[k] = 0;
            fcb_err("%s '%s': %s (valid: %s)\n", opt, buf,
                    unusable && fcb_in_list(unusable, buf, 0) ? "not usable on this CPU" : what,
                    names);
            return -1;
        }
        p += len;
        if (!*p)
            return 0;
        p++;
    }
}

static void append(char *buf, size_t cap, const char *name)
{
    size_t l = strlen(buf);
    if (!fcb_in_list(l ? buf : "", name, 0) || !l)
        snprintf(buf + l, cap - l, "%s%s", l ? "," : "", name);
}

int fcb_config_check(const struct fcb_config *c)
{
    if (check_list("--func", c->funcs, fcb_func_list, "unknown function", NULL) ||
        check_list("--group", c->groups, fcb_group_list, "unknown group", NULL))
        return -1;
    if (c->impls) {
        char valid[1024] = "", unusable[512] = "";
        append(valid, sizeof valid, "libc");
        append(valid, sizeof valid, "auto");
#ifndef FCB_STATIC
        append(valid, sizeof valid, "dropin"); /* the shared object's exported names */
#endif
        const struct fc_variant *v;
        size_t nv = fc_variants(&v);
        for (size_t i = 0; i < nv; i++)
            append(v[i].usable ? valid : unusable, v[i].usable ? sizeof valid : sizeof unusable,
                   v[i].name);
        append(valid, sizeof valid, "copy_user");
        append(valid, sizeof valid, "clear_user");
        static const char *const always[] = {"empty", "read", "write", "ntwrite"};
        for (size_t i = 0; i < sizeof always / sizeof *always; i++)
            append(valid, sizeof valid, always[i]);
        for (int w = 0; w < c->nwith; w++) {
            char path[256], name[24];
            if (!fcb_with_split(c->with[w], path, name) && name[0])
                append(valid, sizeof valid, name);
        }
        if (check_list("--impl", c->impls, valid, "unknown implementation", unusable))
            return -1;
    }
    /* --dist FILE...: every file must parse, and the case names must differ
     * (per function). */
    for (int i = 0; i < c->ndists; i++) {
        struct fcb_mixdist d;
        if (fcb_load_dist(c->dists[i], &d))
            return -1;
        free(d.e);
        char ni[32], nj[32];
        fcb_dist_file_name(c->dists[i], ni, 25);
        for (int j = 0; j < i; j++) {
            fcb_dist_file_name(c->dists[j], nj, 25);
            int fi = d.func, fj;
            struct fcb_mixdist dj;
            if (strcmp(ni, nj) || fcb_load_dist(c->dists[j], &dj))
                continue;
            fj = dj.func;
            free(dj.e);
            if (fi < 0 || fj < 0 || fi == fj) {
                fcb_err("--dist '%s': its case name '%s' is that of '%s' too; rename one\n",
                        c->dists[i], ni, c->dists[j]);
                return -1;
            }
        }
    }
    if (c->dist_dir) {
        struct stat sb;
        if (stat(c->dist_dir, &sb) || !S_ISDIR(sb.st_mode)) {
            fcb_err("--dist-dir '%s': %s\n", c->dist_dir,
                    errno && !S_ISDIR(sb.st_mode) ? strerror(errno) : "not a directory");
            return -1;
        }
        size_t missing = 0;
        const char *first = NULL;
        for (size_t di = 0; di < fcb_ndists; di++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s.csv", c->dist_dir, fcb_dists[di].name);
            if (access(path, R_OK)) {
                if (!missing++)
                    first = fcb_dists[di].name;
            }
        }
        if (missing) {
            fcb_err("--dist-dir '%s': no readable %s.csv%s (it must hold "
                            "all %zu distributions of bench/distributions)\n",
                    c->dist_dir, first, missing > 1 ? " and others" : "", fcb_ndists);
            return -1;
        }
    }
    return 0;
}

/* After the cases are built: every --case pattern must have matched one. */
int fcb_check_cases(const struct fcb_state *st)
{
    const char *list = st->cfg.cases;
    if (!list)
        return 0;
    char buf[256];
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof buf) {
            fcb_err("--case '%s': empty or overlong entry\n", list);
            return -1;
        }
        memcpy(buf, p, len);
        buf[len] = 0;
        int hit = 0;
        for (int c = 0; c < st->ncases && !hit; c++)
            hit = !fnmatch(buf, st->cases[c].name, 0);
        if (!hit) {
            fcb_err("--case '%s': matches no case%s (fcbench --list shows them)\n",
                    buf, st->cfg.funcs || st->cfg.groups || st->cfg.max_size || st->cfg.quick
                             ? " of the selected --func/--group/--max-size/--quick" : "");
            return -1;
        }
        p += len;
        if (*p == ',')
            p++;
    }
    return 0;
}
