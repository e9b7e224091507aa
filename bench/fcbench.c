/* fcbench - is libfastcopy faster than the C library here, and by how much?
 *
 * One process, pinned to one CPU.  Every (case, impl) item is calibrated once so a
 * sample takes about --sample-us, then timed once per round; the rounds are
 * interleaved and the order of the items is shuffled afresh every round, so no
 * implementation always follows the same (cache-flushing) neighbour and slow drift
 * of the machine hits every implementation alike.  Per item: median and quartiles
 * of the rounds; against the system C library's function on the same case: the
 * ratio of medians and ministat's Student t comparison of the means, "proven" only
 * beyond MARGIN and corrected for the cells compared (MARGIN's comment).
 *
 * Output on stdout: the verdict (libfastcopy against each baseline per function
 * and group), with -v every cell; --csv FILE, --json FILE; --targets prints one
 * PASS/FAIL line per row of fcb_targets.c.  Dependencies: libc (and libdl). */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif
#include "fastcopy.h"
#if defined(__x86_64__)
#include "arch.h"
#include "dispatch.h"
#endif
#if defined(__x86_64__)
#include <cpuid.h>
#endif
#include "fcb.h"
#include "fcb_tune.h"

struct result {
    struct fcb_summary s;
    int base;               /* item index of libc on this case, -1 if none */
    double speedup;         /* libc median / this median */
    double diff, lo, hi;    /* this - libc, ns per call: estimate and interval */
    double level;           /* that interval's confidence level (the family's) */
    int verdict;            /* 1 proven, 0 no difference proven, -1 n/a */
    int dir;                /* proven: 1 slower, -1 faster */
};

/* The verdict (compute_verdict): rows (a function and a group; the size mixes per
 * regime) against each baseline. */
#define VMAX_BASE (1 + FCB_MAX_WITH)
struct vcell {
    int n;                  /* cells where both ran */
    double speed;           /* geometric mean of the baseline's median over ours */
    double lo, hi;          /* the speed's interval at the rows' family level */
    int verdict;            /* 1 faster, -1 slower, 0 no difference, -2 not measured */
    int faster, slower;     /* cells proven faster / slower */
};
struct vrow {
    int func;
    char group[24], regime[24];
    struct vcell v[VMAX_BASE];
};
static struct {
    const char *subject;    /* "dropin" or "auto"; NULL: neither ran */
    const char *base[VMAX_BASE];
    int nbase, nrows;
    struct vrow *rows;
    double level[VMAX_BASE];
} verdict;

static const char *vword(int v)
{
    return v > 0 ? "faster" : v == -1 ? "slower" : "no difference";
}

static struct fcb_state st;
static struct result *res;
static int closed(FILE *f, const char *path);

/* --processes N: the whole measurement runs in N fresh processes, one after the
 * other (each its own exec, so its own address-space layout: where the libraries'
 * code lands moves the branch predictors' view of it, and on this project's VMs
 * that alone moved single cells by up to 30% between processes, identical code
 * included).  Each item's samples are then its N per-process medians, and every
 * comparison pairs them by process (fcb_cmp_paired).  nproc 1 = one process,
 * samples = rounds, unpaired. */
static int nproc = 1;
static const char *child_out;   /* --child-out FILE: a child of --processes */

/* "Proven": a difference of more than MARGIN either way, after Benjamini-Hochberg
 * at FDR_Q over its family (one implementation against one baseline over the run's
 * cells, or over the verdict's groups), the medians beyond MARGIN on the same side.
 * 3%: the margin the best-peer counts and targets used; the library against a copy
 * of itself then had 0 of 315 cells proven in four runs on the Zen 4 VM, against
 * 4-13 at 95% per cell (docs/performance.md, "How fcbench decides"). */
#define MARGIN 0.03
#define FDR_Q 0.05

/* Item a's time against item b's on one case. */
static void cmp_items(int a, int b, struct fcb_cmp *c)
{
    const struct fcb_item *x = &st.items[a], *y = &st.items[b];
    if (nproc > 1)
        fcb_cmp_paired(x->ns, y->ns, x->nsamples < y->nsamples ? x->nsamples : y->nsamples, c);
    else
        fcb_cmp_unpaired(x->ns, x->nsamples, y->ns, y->nsamples, c);
}

/* One test of a family. */
struct ftest {
    struct fcb_cmp c;
    double p;       /* NAN: no test (n/a) */
    int dir;        /* the side it points to: 1 slower (above), -1 faster (below) */
    int agree;      /* the medians lie beyond the bound on that side too */
    int proven;     /* the outcome: dir when proven, else 0 */
};

/* The test of a/b against the band +-MARGIN (margin) on one pair of items or a
 * prepared estimate; med = median ratio a/b. */
static void band_test(struct ftest *t, double med, double margin)
{
    t->p = fcb_cmp_p(&t->c, margin, &t->dir);
    t->agree = t->dir > 0 ? med > 1 + margin : med < 1 / (1 + margin);
    t->proven = 0;
}

/* Decides a family: Benjamini-Hochberg at FDR_Q over its p-values; a test is
 * proven when rejected and its medians agree.  Returns the confidence level of the
 * family's intervals, 1 - q max(R, 1) / M (R rejected of M tests): an interval at
 * that level lies beyond the bound exactly when its test was rejected. */
static double decide(struct ftest *t, int n)
{
    double *p = calloc(n > 0 ? (size_t)n : 1u, sizeof *p);
    unsigned char *rej = malloc((size_t)(n > 0 ? n : 1));
    int m = 0, r = 0;
    if (p && rej) {
        for (int k = 0; k < n; k++) {
            p[k] = t[k].p;
            m += !isnan(p[k]);
        }
        r = fcb_bh(p, n, FDR_Q, rej);
        for (int k = 0; k < n; k++)
            t[k].proven = rej[k] && t[k].agree ? t[k].dir : 0;
    }
    free(p);
    free(rej);
    return m ? 1 - FDR_Q * (r > 0 ? r : 1) / m : NAN;
}

static const char *verdict_str(const struct result *r)
{
    if (r->verdict < 0)
        return "n/a";
    if (r->verdict == 0)
        return "no difference proven";
    return r->dir < 0 ? "faster" : "slower";
}

/* ---- running ------------------------------------------------------------------------ */

static void progress(int force, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static double last_progress;
static void progress(int force, const char *fmt, ...)
{
    if (st.cfg.progress < 0)
        return;
    double now = fcb_now_ns();
    if (!force && now - last_progress < 2e9)
        return;
    last_progress = now;
    va_list ap;
    va_start(ap, fmt);
    fputs("fcbench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static uint64_t shuf_state = 0x2545f4914f6cdd1dull;
static uint64_t shuf_next(void)
{
    shuf_state ^= shuf_state << 13;
    shuf_state ^= shuf_state >> 7;
    shuf_state ^= shuf_state << 17;
    return shuf_state;
}

static long retaken;

static long involuntary_switches(void)
{
    struct rusage ru;
#ifdef RUSAGE_THREAD
    if (getrusage(RUSAGE_THREAD, &ru))
#else
    if (getrusage(RUSAGE_SELF, &ru))
#endif
        return 0;
    return ru.ru_nivcsw;
}

/* One call of every item on a simple case, its result checked: numbers from a
 * broken kernel are worse than none. */
static int verify_all(void)
{
    int bad = 0;
    for (int j = 0; j < st.nitems; j++) {
        struct fcb_item *it = &st.items[j];
        struct fcb_case *c = &st.cases[it->c];
        const struct fcb_impl *im = &st.impls[it->i];
        if (c->nops != 1 || c->fault || (im->flags & FCB_I_EMPTY) ||
            (strcmp(c->group, "sizes") && strcmp(c->group, "misal") &&
             strcmp(c->group, "pageend") && strcmp(c->group, "user")))
            continue;
        unsigned char *d = c->dbase + c->ops[0].doff;
        const unsigned char *s = c->sbase + c->ops[0].soff;
        size_t n = c->ops[0].n;
        if (n == 0)
            continue;
        int set = im->kind == FCB_K_SET || im->kind == FCB_K_CLEAR_USER;
        memset(d, 0xa5, n);
        fcb_exec(&st, it, 1);
        int ok;
        if (set) {
            size_t k = 0;
            while (k < n && d[k] == 0)
                k++;
            ok = k == n;
        } else {
            ok = !memcmp(d, s, n);
        }
        if (!ok) {
            fprintf(stderr, "fcbench: WRONG RESULT from %s on %s\n", im->name, c->name);
            bad++;
        }
    }
    return bad;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* A cold case walks a region whose lines partly stay cached between passes (64-byte
 * calls on 4 KiB slots touch 1 MiB of lines): its time per call falls with the
 * calls per sample, so every implementation on it makes the same number, the
 * median of their calibrated counts (Zen 4 VM: one kernel under two names read
 * 0.49x itself at 49050 calls against 17202; docs/performance.md). */
static void same_calls_on_cold_cases(void)
{
    uint64_t *k = malloc(sizeof *k * (st.nitems > 0 ? (size_t)st.nitems : 1u));
    if (!k)
        return;
    for (int c = 0; c < st.ncases; c++) {
        if (!st.cases[c].cold)
            continue;
        int m = 0;
        for (int j = 0; j < st.nitems; j++)
            if (st.items[j].c == c)
                k[m++] = st.items[j].iters;
        if (!m)
            continue;
        qsort(k, (size_t)m, sizeof *k, cmp_u64);
        for (int j = 0; j < st.nitems; j++)
            if (st.items[j].c == c)
                st.items[j].iters = k[m / 2];
    }
    free(k);
}

static void run_all(void)
{
    int n = st.nitems, R = st.cfg.rounds;
    double target = st.cfg.sample_us * 1e3;
    double t0 = fcb_now_ns();
    last_progress = t0;
    for (int j = 0; j < n; j++) {
        /* A calibration the scheduler interrupted takes the pause for calls and
         * gives a sample of a few calls, timed mostly as clock overhead (Zen 4 VM,
         * loaded: 20 calls of 17 bytes read 4-5.5 ns, not 2.4; docs/performance.md):
         * taken again when preempted, and twice, keeping the larger count. */
        uint64_t best = 0;
        for (int pass = 0; pass < 2; pass++) {
            for (int tries = 0; tries < 5; tries++) {
                long before = involuntary_switches();
                fcb_calibrate(&st, &st.items[j], target);
                if (involuntary_switches() == before)
                    break;
            }
            if (st.items[j].iters > best)
                best = st.items[j].iters;
        }
        st.items[j].iters = best;
        progress(0, "calibrating %d/%d (%s)", j + 1, n, st.cases[st.items[j].c].name);
    }
    same_calls_on_cold_cases();
    /* Estimated time per round: from the calibrated counts. */
    int *order = malloc(sizeof(int) * (n > 0 ? (size_t)n : 1u));
    for (int j = 0; j < n; j++)
        order[j] = j;
    double tr = fcb_now_ns();
    for (int r = 0; r < R; r++) {
        for (int j = n; j > 1; j--) {
            int k = (int)(shuf_next() % (uint64_t)j), t = order[j - 1];
            order[j - 1] = order[k];
            order[k] = t;
        }
        for (int j = 0; j < n; j++) {
            struct fcb_item *it = &st.items[order[j]];
            /* A sample during which the scheduler took the CPU away is taken again
             * (up to 4 times): one preemption on a shared machine costs milliseconds
             * and would swamp a 200 us sample. */
            double t = 0;
            for (int tries = 0; tries < 5; tries++) {
                long before = involuntary_switches();
                fcb_warm(&st, it);
                t = fcb_run(&st, it, it->iters);
                if (involuntary_switches() == before)
                    break;
                retaken++;
            }
            it->ns[r] = t / (double)it->iters;
            it->nsamples = r + 1;
            if (j % 64 == 0) {
                double done = r + (double)(j + 1) / n, el = (fcb_now_ns() - tr) / 1e9;
                progress(0, "round %d/%d, %.0f%% done, about %.0f s left", r + 1, R,
                         100 * done / R, el / done * (R - done));
            }
        }
    }
    free(order);
    progress(1, "done in %.1f s (%d items x %d rounds; %ld samples retaken after a preemption)",
             (fcb_now_ns() - t0) / 1e9, n, R, retaken);
}

/* A child of --processes: one line per item, in item order, for the parent:
 * case, impl, median, iters, separated by tabs (a --dist name may hold spaces). */
static int write_child_out(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fcb_err("--child-out '%s': %s\n", path, strerror(errno));
        return 1;
    }
    fprintf(f, "fcbench-child 1 %d\n", st.nitems);
    for (int j = 0; j < st.nitems; j++) {
        struct fcb_summary s;
        fcb_summarize(st.items[j].ns, st.items[j].nsamples, &s);
        fprintf(f, "%s\t%s\t%.17g\t%llu\n", st.cases[st.items[j].c].name,
                st.impls[st.items[j].i].name, s.median,
                (unsigned long long)st.items[j].iters);
    }
    return closed(f, path);
}

/* Reads process p's --child-out file into sample p of every item: its header must
 * count this run's items, and its lines name them in this run's order.  0, or 1
 * after one line on stderr. */
static int read_child_out(const char *path, int p)
{
    FILE *f = fopen(path, "r");
    int ver = 0, items = -1, rc = 0;
    char line[512];
    if (!f || !fgets(line, sizeof line, f) ||
        sscanf(line, "fcbench-child %d %d", &ver, &items) != 2 || ver != 1 ||
        items != st.nitems) {
        fcb_err("--processes: process %d/%d left no results for the %d items (%s)\n", p + 1,
                nproc, st.nitems, path);
        rc = 1;
    }
    for (int j = 0; !rc && j < st.nitems; j++) {
        struct fcb_item *it = &st.items[j];
        /* case, impl, median, iters (tab-separated: a --dist name may hold spaces) */
        char *cname = fgets(line, sizeof line, f) ? strtok(line, "\t") : NULL;
        char *iname = cname ? strtok(NULL, "\t") : NULL;
        char *mtxt = iname ? strtok(NULL, "\t") : NULL;
        char *itxt = mtxt ? strtok(NULL, "\n") : NULL;
        char *e1 = NULL, *e2 = NULL;
        double med = mtxt ? strtod(mtxt, &e1) : NAN;
        unsigned long long iters = itxt ? strtoull(itxt, &e2, 10) : 0;
        if (!itxt || *e1 || *e2 || strcmp(cname, st.cases[it->c].name) ||
            strcmp(iname, st.impls[it->i].name)) {
            fcb_err("--processes: process %d/%d measured other items than this one "
                    "(item %d: %s %s)\n",
                    p + 1, nproc, j + 1, st.cases[it->c].name, st.impls[it->i].name);
            rc = 1;
            break;
        }
        it->ns[p] = med;
        it->nsamples = p + 1;
        it->iters = iters;
    }
    if (f)
        fclose(f);
    return rc;
}

/* --processes N: runs this program N times (the same options, without
 * --processes, --csv and --json, plus --child-out FILE; its table goes to
 * /dev/null), one process after the other, and takes sample k of every item from
 * process k: that process's median.  The parent has built the same cases and
 * items (same options, same seed), so the children's lines must name them in the
 * same order.  0, or the exit status to leave with after one line on stderr. */
/* The argument vector of a --processes child: ours without --processes N (and
 * without --csv/--json FILE when csv_json: the parent writes those), then
 * --child-out PATH.  Freed by the caller. */
char **fcb_child_argv(int argc, char **argv, const char *path, int csv_json)
{
    char **cargv = calloc((size_t)argc + 3, sizeof *cargv);
    int n = 0;
    if (!cargv)
        return NULL;
    cargv[n++] = argv[0];
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "--processes") ||
            (csv_json && (!strcmp(argv[k], "--csv") || !strcmp(argv[k], "--json")))) {
            k++;
            continue;
        }
        cargv[n++] = argv[k];
    }
    cargv[n++] = "--child-out";
    cargv[n++] = (char *)path;
    cargv[n] = NULL;
    return cargv;
}

/* Child p of nproc: this very file (even when the build has replaced it
 * meanwhile), a fresh exec, its stdout to /dev/null; 0 when it exited 0, 4 when it
 * found a wrong result, else 1 (said on stderr). */
int fcb_run_child(char **cargv, int p, int nproc)
{
    pid_t pid = fork();
    if (pid < 0) {
        fcb_err("--processes: fork: %s\n", strerror(errno));
        return 1;
    }
    if (pid == 0) {
        int dn = open("/dev/null", O_WRONLY);
        if (dn >= 0)
            dup2(dn, 1);
        execv("/proc/self/exe", cargv);
        fcb_err("--processes: cannot run /proc/self/exe: %s\n", strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status) && !WEXITSTATUS(status))
        return 0;
    if (WIFEXITED(status))
        fcb_err("--processes: process %d/%d exited with status %d\n", p + 1, nproc,
                WEXITSTATUS(status));
    else
        fcb_err("--processes: process %d/%d killed by signal %d\n", p + 1, nproc,
                WTERMSIG(status));
    return WIFEXITED(status) && WEXITSTATUS(status) == 4 ? 4 : 1; /* 4: wrong result */
}

/* A file for a child's results, in $TMPDIR (default /tmp); 0 on success. */
int fcb_child_file(char *path, size_t cap)
{
    const char *tmpdir = getenv("TMPDIR");
    if (!tmpdir || !*tmpdir)
        tmpdir = "/tmp";
    snprintf(path, cap, "%s/fcbench-XXXXXX", tmpdir);
    int fd = mkstemp(path);
    if (fd < 0) {
        fcb_err("--processes: cannot create a file in %s: %s\n", tmpdir, strerror(errno));
        return -1;
    }
    close(fd);
    return 0;
}

static int run_processes(int argc, char **argv)
{
    char path[4200];
    if (fcb_child_file(path, sizeof path))
        return 1;
    char **cargv = fcb_child_argv(argc, argv, path, 1);
    int rc = 0;
    if (!cargv) {
        fcb_err("--processes: out of memory\n");
        rc = 1;
        goto out;
    }
    for (int j = 0; j < st.nitems; j++) {
        double *ns = realloc(st.items[j].ns, sizeof(double) * (size_t)nproc);
        if (!ns) {
            fcb_err("--processes: out of memory\n");
            rc = 1;
            goto out;
        }
        st.items[j].ns = ns;
        st.items[j].nsamples = 0;
    }
    double t0 = fcb_now_ns();
    for (int p = 0; p < nproc && !rc; p++) {
        progress(1, "process %d/%d%s", p + 1, nproc, p ? "" : " (each a whole run)");
        fflush(NULL);
        rc = fcb_run_child(cargv, p, nproc);
        if (!rc)
            rc = read_child_out(path, p);
    }
    if (!rc)
        progress(1, "%d processes done in %.1f s", nproc, (fcb_now_ns() - t0) / 1e9);
out:
    unlink(path);
    free(cargv);
    return rc;
}

/* The median of item a over item b's. */
static double med_ratio(int a, int b)
{
    return res[b].s.median > 0 ? res[a].s.median / res[b].s.median : NAN;
}

/* Fills r's comparison fields from test t, decided at the family's level. */
static void set_result(struct result *r, const struct ftest *t, double level)
{
    double lo, hi;
    r->verdict = isnan(t->p) ? -1 : t->proven != 0;
    r->dir = t->proven;
    r->level = level;
    if (isnan(t->c.x))
        return;
    double point = t->c.log ? exp(t->c.x) : 1 + t->c.x;
    fcb_cmp_interval(&t->c, level, &lo, &hi);
    r->diff = (point - 1) * t->c.base;
    r->lo = (lo - 1) * t->c.base;
    r->hi = (hi - 1) * t->c.base;
}

static void analyse(void)
{
    res = calloc(st.nitems > 0 ? (size_t)st.nitems : 1u, sizeof *res);
    int *libc_of = malloc(sizeof(int) * (st.ncases > 0 ? (size_t)st.ncases : 1u));
    int *idx = malloc(sizeof(int) * (st.nitems > 0 ? (size_t)st.nitems : 1u));
    struct ftest *t = calloc(st.nitems > 0 ? (size_t)st.nitems : 1u, sizeof *t);
    unsigned char *done = calloc(st.nimpls > 0 ? (size_t)st.nimpls : 1u, 1);
    for (int c = 0; c < st.ncases; c++)
        libc_of[c] = -1;
    for (int j = 0; j < st.nitems; j++)
        if (st.impls[st.items[j].i].flags & FCB_I_LIBC)
            libc_of[st.items[j].c] = j;
    for (int j = 0; j < st.nitems; j++) {
        struct fcb_item *it = &st.items[j];
        struct result *r = &res[j];
        fcb_summarize(it->ns, it->nsamples, &r->s);
        r->base = libc_of[it->c];
        r->verdict = -1;
        r->speedup = r->diff = r->lo = r->hi = r->level = NAN;
    }
    /* One family per implementation name: its cells against libc. */
    for (int i = 0; i < st.nimpls; i++) {
        if (done[i])
            continue;
        int n = 0;
        for (int k = i; k < st.nimpls; k++)
            if (!strcmp(st.impls[k].name, st.impls[i].name))
                done[k] = 1;
        for (int j = 0; j < st.nitems; j++) {
            struct result *r = &res[j];
            if (strcmp(st.impls[st.items[j].i].name, st.impls[i].name) || r->base < 0 ||
                r->base == j)
                continue;
            r->speedup = r->s.median > 0 ? res[r->base].s.median / r->s.median : NAN;
            cmp_items(j, r->base, &t[n].c);
            band_test(&t[n], med_ratio(j, r->base), MARGIN);
            idx[n++] = j;
        }
        double level = decide(t, n);
        for (int k = 0; k < n; k++)
            set_result(&res[idx[k]], &t[k], level);
    }
    free(done);
    free(t);
    free(idx);
    free(libc_of);
}

/* ---- context ----------------------------------------------------------------------- */

static void cpu_model(char *buf, size_t cap)
{
    snprintf(buf, cap, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        const char *keys[] = {"model name", "uarch", "isa", "CPU part"};
        for (size_t k = 0; k < 4; k++)
            if (!strncmp(line, keys[k], strlen(keys[k]))) {
                char *c = strchr(line, ':');
                if (!c)
                    continue;
                c++;
                while (*c == ' ' || *c == '\t')
                    c++;
                c[strcspn(c, "\n")] = 0;
                snprintf(buf, cap, "%s", c);
                fclose(f);
                return;
            }
    }
    fclose(f);
}

/* fcb_topology_note's line for this CPU, from the library's own probe (the CPU
 * facts its policy reads) and what leaf 0x8000001D holds whatever the feature bit
 * says (what a peer that reads it gets), or NULL (not x86_64, or nothing to say). */
static const char *topology_note(void)
{
#if defined(__x86_64__)
    const struct fc_x86_cpu *c = fc_cpu_facts();
    unsigned a, b, cc, d, filled = 0;
    if ((unsigned)__get_cpuid_max(0x80000000, NULL) >= 0x8000001du) {
        __cpuid_count(0x8000001d, 0, a, b, cc, d);
        filled = (a & 0x1f) != 0; /* the cache type of subleaf 0; 0 = no cache */
    }
    (void)b, (void)cc, (void)d;
    return fcb_topology_note(c->vendor == FC_X86_AMD || c->vendor == FC_X86_HYGON,
                             !!(c->features & FC_X86_TOPOEXT), (int)filled);
#else
    return NULL;
#endif
}

static const char *libc_version(void)
{
#ifdef __GLIBC__
    static char v[32];
    snprintf(v, sizeof v, "glibc %s", gnu_get_libc_version());
    return v;
#elif defined(__linux__)
    /* musl defines no version macro: a Linux C library without __GLIBC__ (the
     * only other one this project builds with) is musl. */
    return "musl";
#else
    return "unknown libc";
#endif
}

static char when[64];

static void print_context(FILE *f)
{
    char model[256];
    cpu_model(model, sizeof model);
    fprintf(f, "# fcbench (libfastcopy %s) %s, %s, %s, %ld CPUs online, pinned to CPU %d\n",
            fc_version(), when, fcb_arch(), libc_version(), sysconf(_SC_NPROCESSORS_ONLN), st.cpu);
    fprintf(f, "# cpu: %s\n", model);
    const char *note = topology_note();
    if (note && st.cfg.nwith)
        fprintf(f, "# note: %s\n", note);
    fprintf(f, "# caches: L1d %zu KiB (%s), L2 %zu KiB (%s), L3 %zu KiB (%s)\n",
            st.cache.l1 >> 10, st.cache.src_l1, st.cache.l2 >> 10, st.cache.src_l2,
            st.cache.l3 >> 10, st.cache.src_l3);
    fprintf(f, "# auto = fc_memcpy:%s fc_memmove:%s fc_memset:%s; libc via %s\n",
            fc_selected("memcpy"), fc_selected("memmove"), fc_selected("memset"),
            st.libc_how);
    for (int w = 0; w < st.cfg.nwith; w++)
        fprintf(f, "# with: %s\n", st.with_how[w]);
    if (st.dropin_how[0])
        fprintf(f, "# dropin = %s (its exported memcpy/memmove/memset, as a program calls them)\n",
                st.dropin_how);
    fputs("# ", f);
    if (nproc > 1)
        fprintf(f, "%d processes x ", nproc);
    fprintf(f, "%d rounds, ~%.0f us per sample, %d cases, %d items%s", st.cfg.rounds,
            st.cfg.sample_us, st.ncases, st.nitems, st.cfg.quick ? ", --quick" : "");
    if (nproc > 1 && st.cfg.tune)
        fprintf(f, "; per cut-over each process's mean time ratio is one sample");
    else if (nproc > 1)
        fprintf(f, "; per cell the median of the %d per-process medians, compared in pairs "
                   "by process", nproc);
    fputc('\n', f);
}

/* ---- the table ---------------------------------------------------------------------- */

static void print_table(FILE *f)
{
    fprintf(f, "\n# every cell: speedup vs libc (libc time / impl time, medians); + faster,\n"
               "# - slower: proven by more than %.0f%% (corrected for the cells of the column,\n"
               "# see the verdict above), ~ not proven.\n", MARGIN * 100);
    const char *prev_block = "";
    char block[64];
    for (int c = 0; c < st.ncases; c++) {
        const struct fcb_case *cs = &st.cases[c];
        snprintf(block, sizeof block, "%s/%s", fcb_func_name(cs->func), cs->group);
        /* Impl columns for this case (in impl table order). */
        int cols[64], nc = 0, libc = -1;
        for (int j = 0; j < st.nitems; j++)
            if (st.items[j].c == c) {
                if (st.impls[st.items[j].i].flags & FCB_I_LIBC)
                    libc = j;
                else if (nc < 64)
                    cols[nc++] = j;
            }
        if (libc < 0 && !nc)
            continue; /* nothing of it ran (--targets keeps only what its rows need) */
        if (strcmp(block, prev_block)) {
            static char keep[64];
            snprintf(keep, sizeof keep, "%s", block);
            prev_block = keep;
            fprintf(f, "\n%-28s %10s %10s", block, "size", "libc ns");
            for (int k = 0; k < nc; k++)
                fprintf(f, " %10s", st.impls[st.items[cols[k]].i].name);
            if (libc >= 0 && cs->size >= 4096)
                fprintf(f, "  (libc GB/s)");
            fputc('\n', f);
        }
        fprintf(f, "%-28s %10zu", cs->key, cs->size);
        if (libc >= 0)
            fprintf(f, " %10.2f", res[libc].s.median);
        else
            fprintf(f, " %10s", "-");
        for (int k = 0; k < nc; k++) {
            const struct result *r = &res[cols[k]];
            if (libc < 0 || r->verdict < 0)
                fprintf(f, " %8.1fns", r->s.median);
            else
                fprintf(f, " %9.2f%c", r->speedup,
                        r->verdict == 0 ? '~' : r->diff < 0 ? '+' : '-');
        }
        if (libc >= 0 && cs->size >= 4096 && res[libc].s.median > 0)
            fprintf(f, "  (%.1f)", cs->size / res[libc].s.median);
        fputc('\n', f);
        if (st.cfg.verbose > 1)
            for (int j = 0; j < st.nitems; j++)
                if (st.items[j].c == c) {
                    const struct result *r = &res[j];
                    fprintf(f, "    %-12s median %.3f ns  q1 %.3f  q3 %.3f  min %.3f  "
                               "iters %llu",
                            st.impls[st.items[j].i].name, r->s.median, r->s.q1, r->s.q3,
                            r->s.min, (unsigned long long)st.items[j].iters);
                    if (r->verdict >= 0)
                        fprintf(f, "  diff %+.3f ns [%+.3f, %+.3f] (%.4g%%): %s", r->diff,
                                r->lo, r->hi, 100 * r->level, verdict_str(r));
                    fputc('\n', f);
                }
    }
}

/* ---- CSV and JSON ------------------------------------------------------------------- */

static const char *impl_role(const struct fcb_impl *im)
{
    if (im->flags & FCB_I_LIBC)
        return "libc";
    if (im->flags & FCB_I_AUTO)
        return "auto";
    if (im->flags & FCB_I_VARIANT)
        return "variant";
    if (im->flags & FCB_I_USER)
        return "user";
    if (im->flags & FCB_I_EMPTY)
        return "empty";
    return "other";
}

static int is_selected(const struct fcb_impl *im)
{
    const char *sel = fc_selected(fcb_func_name(im->func));
    return (im->flags & FCB_I_VARIANT) && sel && !strcmp(sel, im->name);
}

static void num(FILE *f, double v)
{
    if (isnan(v) || isinf(v))
        fputs("", f);
    else
        fprintf(f, "%.4f", v);
}

/* --csv/--json FILE, opened (created or truncated) before the run. */
static FILE *open_out(const char *opt, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "fcbench: %s '%s': %s\n", opt, path, strerror(errno));
    return f;
}

static int closed(FILE *f, const char *path)
{
    if (fclose(f)) {
        fprintf(stderr, "fcbench: writing %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

static int write_csv(FILE *f, const char *path)
{
    fprintf(f, "func,group,case,size,param,impl,role,selected,rounds,iters,median_ns,q1_ns,"
               "q3_ns,min_ns,mean_ns,sd_ns,gbps,libc_median_ns,speedup,diff_ns,ci_lo_ns,"
               "ci_hi_ns,verdict,ci_level\n");
    for (int j = 0; j < st.nitems; j++) {
        const struct fcb_item *it = &st.items[j];
        const struct fcb_case *c = &st.cases[it->c];
        const struct fcb_impl *im = &st.impls[it->i];
        const struct result *r = &res[j];
        fprintf(f, "%s,%s,%s,%zu,%ld,%s,%s,%d,%d,%llu,", fcb_func_name(c->func), c->group,
                c->name, c->size, c->param, im->name, impl_role(im), is_selected(im),
                it->nsamples, (unsigned long long)it->iters);
        double vals[] = {r->s.median, r->s.q1, r->s.q3, r->s.min, r->s.mean, r->s.sd,
                         r->s.median > 0 ? c->size / r->s.median : NAN,
                         r->base >= 0 ? res[r->base].s.median : NAN, r->speedup, r->diff,
                         r->lo, r->hi};
        for (size_t k = 0; k < sizeof vals / sizeof *vals; k++) {
            num(f, vals[k]);
            fputc(',', f);
        }
        fprintf(f, "%s,", verdict_str(r));
        if (!isnan(r->level))
            fprintf(f, "%.8f", r->level);
        fputc('\n', f);
    }
    return closed(f, path);
}

static void jnum(FILE *f, const char *key, double v, int comma)
{
    fprintf(f, "\"%s\": ", key);
    if (isnan(v) || isinf(v))
        fputs("null", f);
    else
        fprintf(f, "%.4f", v);
    if (comma)
        fputs(", ", f);
}

struct tres {
    int state;              /* 1 pass, 0 fail, -1 not measured */
    int ncases;
    double worst;
    int proven;             /* the worst case's excess is proven (corrected over the row) */
    char worst_case[128];
    char peer[32];          /* scratch: the best peer of the case in hand */
    int npeers;             /* FCB_T_EACH_PEER_GEO: one result per peer */
    struct peer_res {
        char name[24];
        int state, ncases;
        double value, lo, hi;   /* geometric mean; 95% interval of the per-sample one */
    } peers[1 + FCB_MAX_WITH];
};
static struct tres *tres;

static int write_json(FILE *f, const char *path)
{
    char model[256];
    cpu_model(model, sizeof model);
    fprintf(f, "{\n  \"context\": {\"libfastcopy\": \"%s\", \"date\": \"%s\", \"arch\": \"%s\", \"libc\": \"%s\", "
               "\"cpu\": \"%s\", \"cpus_online\": %ld, \"pinned_cpu\": %d, "
               "\"l1d\": %zu, \"l2\": %zu, \"l3\": %zu, \"rounds\": %d, \"processes\": %d, "
               "\"sample_us\": %.1f, \"quick\": %s, \"libc_how\": \"%s\", "
               "\"selected\": {\"memcpy\": \"%s\", \"memmove\": \"%s\", \"memset\": \"%s\"}},\n"
               "  \"results\": [\n",
            fc_version(), when, fcb_arch(), libc_version(), model, sysconf(_SC_NPROCESSORS_ONLN), st.cpu,
            st.cache.l1, st.cache.l2, st.cache.l3, st.cfg.rounds, nproc, st.cfg.sample_us,
            st.cfg.quick ? "true" : "false", st.libc_how, fc_selected("memcpy"),
            fc_selected("memmove"), fc_selected("memset"));
    for (int j = 0; j < st.nitems; j++) {
        const struct fcb_item *it = &st.items[j];
        const struct fcb_case *c = &st.cases[it->c];
        const struct fcb_impl *im = &st.impls[it->i];
        const struct result *r = &res[j];
        fprintf(f, "    {\"case\": \"%s\", \"func\": \"%s\", \"group\": \"%s\", \"size\": %zu, "
                   "\"param\": %ld, \"impl\": \"%s\", \"role\": \"%s\", \"selected\": %s, "
                   "\"iters\": %llu, ",
                c->name, fcb_func_name(c->func), c->group, c->size, c->param, im->name,
                impl_role(im), is_selected(im) ? "true" : "false",
                (unsigned long long)it->iters);
        jnum(f, "median_ns", r->s.median, 1);
        jnum(f, "q1_ns", r->s.q1, 1);
        jnum(f, "q3_ns", r->s.q3, 1);
        jnum(f, "min_ns", r->s.min, 1);
        jnum(f, "mean_ns", r->s.mean, 1);
        jnum(f, "sd_ns", r->s.sd, 1);
        jnum(f, "speedup", r->speedup, 1);
        jnum(f, "diff_ns", r->diff, 1);
        jnum(f, "ci_lo_ns", r->lo, 1);
        jnum(f, "ci_hi_ns", r->hi, 1);
        fprintf(f, "\"ci_level\": ");
        if (isnan(r->level))
            fputs("null, ", f);
        else
            fprintf(f, "%.8f, ", r->level);
        fprintf(f, "\"verdict\": \"%s\", \"samples_ns\": [", verdict_str(r));
        /* six decimals: the paired intervals can be recomputed from them */
        for (int k = 0; k < it->nsamples; k++)
            fprintf(f, "%s%.6f", k ? ", " : "", it->ns[k]);
        fprintf(f, "]}%s\n", j + 1 < st.nitems ? "," : "");
    }
    fprintf(f, "  ],\n  \"verdict\": [");
    for (int r = 0, first = 1; r < verdict.nrows; r++)
        for (int b = 0; b < verdict.nbase; b++) {
            const struct vrow *v = &verdict.rows[r];
            const struct vcell *c = &v->v[b];
            if (c->verdict == -2)
                continue;
            fprintf(f, "%s\n    {\"subject\": \"%s\", \"baseline\": \"%s\", \"func\": \"%s\", "
                       "\"group\": \"%s\", \"regime\": \"%s\", \"cells\": %d, ",
                    first ? "" : ",", verdict.subject, verdict.base[b], fcb_func_name(v->func),
                    v->group, v->regime, c->n);
            jnum(f, "speed", c->speed, 1);
            jnum(f, "ci_lo", c->lo, 1);
            jnum(f, "ci_hi", c->hi, 1);
            fprintf(f, "\"ci_level\": %.8f, ", verdict.level[b]);
            fprintf(f, "\"verdict\": \"%s\", \"cells_faster\": %d, \"cells_slower\": %d}",
                    vword(c->verdict), c->faster, c->slower);
            first = 0;
        }
    fprintf(f, "\n  ],\n  \"targets\": [");
    for (size_t t = 0; tres && t < fcb_ntargets; t++) {
        fprintf(f, "%s\n    {\"id\": \"%s\", \"state\": \"%s\", \"cases\": %d, ", t ? "," : "",
                fcb_targets[t].id,
                tres[t].state > 0 ? "PASS" : tres[t].state == 0 ? "FAIL" : "NOT MEASURED",
                tres[t].ncases);
        jnum(f, "worst", tres[t].ncases ? tres[t].worst : NAN, 1);
        jnum(f, "limit", fcb_targets[t].limit, 0);
        if (fcb_targets[t].kind == FCB_T_EACH_PEER_GEO) {
            fprintf(f, ", \"peers\": [");
            for (int p = 0; p < tres[t].npeers; p++) {
                fprintf(f, "%s{\"peer\": \"%s\", \"state\": \"%s\", \"cases\": %d, ",
                        p ? ", " : "", tres[t].peers[p].name,
                        tres[t].peers[p].state ? "PASS" : "FAIL", tres[t].peers[p].ncases);
                jnum(f, "value", tres[t].peers[p].value, 1);
                jnum(f, "ci_lo", tres[t].peers[p].lo, 1);
                jnum(f, "ci_hi", tres[t].peers[p].hi, 0);
                fputc('}', f);
            }
            fputc(']', f);
        }
        fprintf(f, "}");
    }
    fprintf(f, "\n  ]\n}\n");
    return closed(f, path);
}

/* ---- targets ------------------------------------------------------------------------- */

static int target_case(const struct fcb_target *t, const struct fcb_case *c)
{
    char buf[256];
    const char *p = t->cases;
    if (c->size < t->min_size || (t->max_size && c->size > t->max_size))
        return 0;
    /* one regime of the size mixes: N calls replayed (N calls per sequence, also
     * when --mix-ops N made it the only one), or the default sequence when it is
     * longer than 4096 calls (random order: 65536 unless --mix-ops says) */
    if (t->mix_ops && (!c->mix || (t->mix_ops == FCB_MIX_RANDOM
                                       ? !c->mix_default || c->nops <= 4096
                                       : (long)c->nops != t->mix_ops)))
        return 0;
    while (*p) {
        size_t len = strcspn(p, ",");
        if (len < sizeof buf) {
            memcpy(buf, p, len);
            buf[len] = 0;
            if (!fnmatch(buf, c->name, 0))
                return 1;
        }
        p += len + (p[len] == ',');
    }
    return 0;
}

static int keep_for_targets(const struct fcb_state *s, int j)
{
    const struct fcb_case *c = &s->cases[s->items[j].c];
    const char *name = s->impls[s->items[j].i].name;
    int flags = s->impls[s->items[j].i].flags;
    for (size_t t = 0; t < fcb_ntargets; t++)
        if (target_case(&fcb_targets[t], c) &&
            (!strcmp(name, fcb_targets[t].impl) || !strcmp(name, fcb_targets[t].base) ||
             !strcmp(name, "libc") || FCB_IS_PEER(flags) ||
             (flags & (FCB_I_EMPTY | FCB_I_LIMIT | FCB_I_AUTO))))
            return 1;
    return 0;
}

static int find_item(int c, const char *impl)
{
    for (int j = 0; j < st.nitems; j++)
        if (st.items[j].c == c && !strcmp(st.impls[st.items[j].i].name, impl))
            return j;
    return -1;
}

/* The best peer of case c: the item with the lowest median among the peers (libc
 * and the --with libraries that are not libfastcopy); -1 when none ran. */
static int best_peer(int c)
{
    int best = -1;
    for (int j = 0; j < st.nitems; j++)
        if (st.items[j].c == c && FCB_IS_PEER(st.impls[st.items[j].i].flags) &&
            (best < 0 || res[j].s.median < res[best].s.median))
            best = j;
    return best;
}

/* This machine's limit for case c (ws group), in ns per call, from the limit
 * kernels.  memset: min(write, ntwrite).  A copy in the L1 or L2 (a core's own
 * load and store paths run side by side): max(read, min(write, ntwrite)); in the
 * L3 or DRAM (one fabric carries both directions): read + min(write, ntwrite).
 * NAN when they did not run. */
static double machine_limit_ns(int c)
{
    int r = find_item(c, "read"), w = find_item(c, "write"), nt = find_item(c, "ntwrite");
    if (w < 0 || nt < 0 || (st.cases[c].func != FCB_MEMSET && r < 0))
        return NAN;
    double wr = fmin(res[w].s.median, res[nt].s.median);
    if (st.cases[c].func == FCB_MEMSET)
        return wr;
    int shared = !strcmp(st.cases[c].key, "L3") || !strcmp(st.cases[c].key, "DRAM");
    return shared ? res[r].s.median + wr : fmax(res[r].s.median, wr);
}

/* The impl a target row measures on case c: its impl, or "auto" for "dropin" in
 * a static fcbench (which has no dropin); -1 when neither ran. */
static int target_impl(const struct fcb_target *tg, int c)
{
    int a = find_item(c, tg->impl);
    if (a < 0 && !strcmp(tg->impl, "dropin"))
        a = find_item(c, "auto");
    return a;
}

/* FCB_T_EACH_PEER_GEO: per peer (libc and every --with library that is not
 * libfastcopy, in the run's order), over the row's cases where both ran, the
 * geometric mean of the impl's median over the peer's, and the 95% Student t
 * interval of the per-sample geometric mean (samples paired by index: processes
 * with --processes, else rounds).  Fills tr; the number of peers that fail. */
static int eval_each_peer(const struct fcb_target *tg, struct tres *tr)
{
    int fails = 0;
    tr->npeers = 0;
    tr->ncases = 0;
    tr->worst = -INFINITY;
    for (int i = 0; i < st.nimpls && tr->npeers < (int)(sizeof tr->peers / sizeof *tr->peers);
         i++) {
        const struct fcb_impl *im = &st.impls[i];
        if (!FCB_IS_PEER(im->flags) || !strcmp(im->name, tg->impl))
            continue;
        int seen = 0;
        for (int p = 0; p < tr->npeers && !seen; p++)
            seen = !strcmp(tr->peers[p].name, im->name);
        if (seen)
            continue;
        double logsum = 0, lsum[1000] = {0};
        int n = 0, ns = 1000;
        for (int c = 0; c < st.ncases; c++) {
            if (!target_case(tg, &st.cases[c]))
                continue;
            int a = target_impl(tg, c), b = find_item(c, im->name);
            if (a < 0 || b < 0 || !(res[a].s.median > 0) || !(res[b].s.median > 0))
                continue;
            logsum += log(res[a].s.median / res[b].s.median);
            int k = st.items[a].nsamples < st.items[b].nsamples ? st.items[a].nsamples
                                                                 : st.items[b].nsamples;
            if (k < ns)
                ns = k;
            for (int q = 0; q < ns; q++)
                lsum[q] += log(st.items[a].ns[q] / st.items[b].ns[q]);
            n++;
        }
        if (!n)
            continue;
        struct peer_res *r = &tr->peers[tr->npeers++];
        snprintf(r->name, sizeof r->name, "%s", im->name);
        r->ncases = n;
        r->value = exp(logsum / n);
        r->lo = r->hi = NAN;
        if (ns >= 2) {
            double m = 0, ss = 0;
            for (int q = 0; q < ns; q++)
                m += lsum[q] / n;
            m /= ns;
            for (int q = 0; q < ns; q++)
                ss += (lsum[q] / n - m) * (lsum[q] / n - m);
            double half = fcb_t975(ns - 1) * sqrt(ss / (ns - 1) / ns);
            r->lo = exp(m - half);
            r->hi = exp(m + half);
        }
        r->state = r->value <= tg->limit;
        fails += !r->state;
        if (n > tr->ncases)
            tr->ncases = n;
        if (r->value > tr->worst) {
            tr->worst = r->value;
            snprintf(tr->worst_case, sizeof tr->worst_case, "vs %s", r->name);
        }
    }
    tr->state = !tr->npeers ? -1 : !fails;
    return fails;
}

/* eval_targets' lines; f NULL: evaluated only (for --json). */
static void tprintf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tprintf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    if (!f)
        return;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
}

/* all: print NOT MEASURED rows too (--targets); otherwise only measured targets,
 * and nothing at all when none is (a filtered run). */
static int eval_targets(FILE *f, int all)
{
    int fails = 0, header = 0;
    tres = calloc(fcb_ntargets + 1, sizeof *tres);
    struct ftest *xt = calloc(st.ncases > 0 ? (size_t)st.ncases : 1u, sizeof *xt);
    if (!tres || !xt) {
        free(xt);
        return 0;
    }
    if (all) {
        tprintf(f, "\n# targets (fcb_targets.c)\n");
        header = 1;
    }
    for (size_t t = 0; t < fcb_ntargets; t++) {
        const struct fcb_target *tg = &fcb_targets[t];
        struct tres *tr = &tres[t];
        if (tg->kind == FCB_T_EACH_PEER_GEO) {
            fails += eval_each_peer(tg, tr);
            if (tr->npeers && !header) {
                tprintf(f, "\n# targets (fcb_targets.c; those this run measured)\n");
                header = 1;
            }
            if (!tr->npeers && all)
                tprintf(f, "NOT MEASURED %-18s %s  (%s: no matching cases/impls)\n", tg->id,
                        tg->what, tg->source);
            for (int p = 0; p < tr->npeers; p++)
                tprintf(f, "%-4s %-18s %s  (%s): vs %s %.3f [95%% %.3f, %.3f], limit %.3f, "
                           "%d cases\n",
                        tr->peers[p].state ? "PASS" : "FAIL", tg->id, tg->what, tg->source,
                        tr->peers[p].name, tr->peers[p].value, tr->peers[p].lo,
                        tr->peers[p].hi, tg->limit, tr->peers[p].ncases);
            continue;
        }
        /* worst = the largest value, or the smallest for a GB/s floor */
        int floor = tg->kind == FCB_T_MIN_GBPS || tg->kind == FCB_T_LIMIT_FRAC;
        int peer = tg->kind == FCB_T_PEER_RATIO || tg->kind == FCB_T_PEER_FLOOR ||
                   tg->kind == FCB_T_PEER_MAX;
        int above = tg->kind == FCB_T_PEER_FLOOR || tg->kind == FCB_T_FLOOR_RATIO;
        double logsum = 0, worst = floor ? INFINITY : -INFINITY;
        int n = 0, nproven = 0; /* cases whose excess over the limit is proven */
        /* Pass 0: the tests of the excess over the limit, the row's cells one family
         * (corrected as everywhere, MARGIN's comment); pass 1: the figures. */
        int stat = !floor && tg->kind != FCB_T_ABS_NS;
        int nx = 0;
        for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && stat)
            decide(xt, nx);
        nx = 0;
        for (int c = 0; c < st.ncases; c++) {
            if (!target_case(tg, &st.cases[c]))
                continue;
            int a = target_impl(tg, c), b = peer ? best_peer(c) : find_item(c, tg->base);
            int e = above ? find_item(c, "empty") : -1;
            double lim = tg->kind == FCB_T_LIMIT_FRAC ? machine_limit_ns(c) : NAN;
            if (a < 0 || (tg->kind != FCB_T_ABS_NS && !floor && b < 0) ||
                (above && e < 0) ||
                (tg->kind == FCB_T_LIMIT_FRAC && !(lim > 0)))
                continue;
            double ma = res[a].s.median, mb = b >= 0 ? res[b].s.median : NAN, v;
            double me = e >= 0 ? res[e].s.median : 0;
            if (pass == 0) {
                /* Is the excess over the limit (in ns) proven in this case? */
                struct ftest *x = &xt[nx++];
                double excess = tg->kind == FCB_T_DIFF_NS ? tg->limit
                                : above ? (tg->limit - 1) * (mb - me) : (tg->limit - 1) * mb;
                memset(x, 0, sizeof *x);
                x->p = NAN;
                if (stat && b >= 0) {
                    cmp_items(a, b, &x->c);
                    x->p = x->c.base > 0 ? fcb_cmp_p_above(&x->c, 1 + excess / x->c.base) : NAN;
                    x->dir = x->agree = 1;
                }
                continue;
            }
            double bytes = (double)st.cases[c].size;
            int proven = stat ? xt[nx++].proven != 0
                         : tg->kind == FCB_T_ABS_NS ? res[a].s.min > tg->limit
                         : tg->kind == FCB_T_LIMIT_FRAC ? lim / res[a].s.min < tg->limit
                         : bytes / res[a].s.min < tg->limit; /* even the fastest sample */
            switch (tg->kind) {
            case FCB_T_DIFF_NS: v = ma - mb; break;
            case FCB_T_RATIO: case FCB_T_PEER_RATIO: case FCB_T_PEER_MAX: v = ma / mb; break;
            case FCB_T_PEER_FLOOR: case FCB_T_FLOOR_RATIO:
                v = mb - me > 0 ? (ma - me) / (mb - me) : INFINITY;
                break;
            case FCB_T_GEO_RATIO: v = ma / mb; logsum += log(v); break;
            case FCB_T_MIN_GBPS: v = bytes / ma; break;
            case FCB_T_LIMIT_FRAC: v = lim / ma; break;
            default: v = ma; break;
            }
            if (peer)
                snprintf(tr->peer, sizeof tr->peer, "%s", st.impls[st.items[b].i].name);
            if (tg->kind == FCB_T_PEER_RATIO && v > tg->limit && proven) {
                /* "proven slower by more than the margin" fails: the worst such case
                 * is the one reported */
                if (!nproven || v > tr->worst) {
                    tr->worst = v;
                    snprintf(tr->worst_case, sizeof tr->worst_case, "%s (vs %s)",
                             st.cases[c].name, tr->peer);
                }
                nproven++;
            }
            if (tg->kind != FCB_T_GEO_RATIO && (floor ? v < worst : v > worst)) {
                worst = v;
                tr->proven = proven;
                snprintf(tr->worst_case, sizeof tr->worst_case, "%s%s%s%s", st.cases[c].name,
                         peer ? " (vs " : "", peer ? tr->peer : "", peer ? ")" : "");
            }
            n++;
        }
        }
        tr->ncases = n;
        if (tg->kind == FCB_T_GEO_RATIO && n) {
            worst = exp(logsum / n);
            snprintf(tr->worst_case, sizeof tr->worst_case, "geometric mean");
        }
        if (tg->kind == FCB_T_PEER_RATIO && nproven) {
            worst = tr->worst;
            tr->proven = 1;
        }
        tr->worst = worst;
        tr->state = !n ? -1 : floor ? worst >= tg->limit
                    : tg->kind == FCB_T_PEER_RATIO ? nproven == 0 : worst <= tg->limit;
        const char *unit = tg->kind == FCB_T_DIFF_NS || tg->kind == FCB_T_ABS_NS ? " ns"
                           : tg->kind == FCB_T_MIN_GBPS ? " GB/s" : "";
        if (n && !header) {
            tprintf(f, "\n# targets (fcb_targets.c; those this run measured)\n");
            header = 1;
        }
        if (!n) {
            if (all)
                tprintf(f, "NOT MEASURED %-18s %s  (%s: no matching cases/impls)\n", tg->id,
                        tg->what, tg->source);
        } else
            tprintf(f, "%-4s %-18s %s  (%s): worst %.3f%s at %s, limit %.3f%s, %d cases%s\n",
                    tr->state ? "PASS" : "FAIL", tg->id, tg->what, tg->source, worst, unit,
                    tr->worst_case, tg->limit, unit, n,
                    tg->kind == FCB_T_PEER_RATIO && nproven
                        ? (snprintf(tr->peer, sizeof tr->peer, " (%d proven)", nproven), tr->peer)
                    : tr->state || tg->kind == FCB_T_GEO_RATIO ? ""
                    : tr->proven ? " (excess proven)"
                                 : " (excess within the noise: not proven)");
        fails += tr->state == 0;
    }
    free(xt);
    return fails;
}

/* ---- against the best peer, per group ------------------------------------------------ *
 * For each of our impls (auto, and a --with copy of libfastcopy's drop-in names),
 * every case where a peer ran: behind = proven slower than the best peer by more
 * than 3%, ahead = proven faster by more than 3%, else even; proven as everywhere
 * (MARGIN), the impl's cells against their best peers one family. */
#define PEER_MARGIN MARGIN
/* Per case, impl against the case's best peer: 1 behind, -1 ahead, 0 even, -2 not
 * compared.  out has st.ncases entries. */
static void peer_outcomes(const char *impl, int *out)
{
    struct ftest *t = calloc(st.ncases > 0 ? (size_t)st.ncases : 1u, sizeof *t);
    int *cs = malloc(sizeof(int) * (st.ncases > 0 ? (size_t)st.ncases : 1u)), n = 0;
    for (int c = 0; c < st.ncases; c++) {
        int a = find_item(c, impl), b = best_peer(c);
        out[c] = -2;
        if (!t || !cs || a < 0 || b < 0 || a == b)
            continue;
        cmp_items(a, b, &t[n].c);
        band_test(&t[n], med_ratio(a, b), PEER_MARGIN);
        cs[n++] = c;
    }
    if (t && cs) {
        decide(t, n);
        for (int k = 0; k < n; k++)
            out[cs[k]] = t[k].proven;
    }
    free(t);
    free(cs);
}

static void print_peer_counts(FILE *f)
{
    int *pk = malloc(sizeof(int) * (st.ncases > 0 ? (size_t)st.ncases : 1u));
    if (!pk)
        return;
    int npeers = 0;
    for (int i = 0; i < st.nimpls; i++)
        if (FCB_IS_PEER(st.impls[i].flags) && st.impls[i].func == FCB_MEMCPY)
            npeers++;
    for (int i = 0; i < st.nimpls; i++) {
        const struct fcb_impl *im = &st.impls[i];
        if (im->func != FCB_MEMCPY || !((im->flags & FCB_I_AUTO) || (im->flags & FCB_I_OURS)))
            continue;
        fprintf(f, "\n# %s against the best peer in each cell (the fastest of libc%s): "
                   "behind/ahead = proven more than %.0f%% slower/faster\n",
                im->name, npeers > 1 ? " and the --with libraries" : "", PEER_MARGIN * 100);
        peer_outcomes(im->name, pk);
        fprintf(f, "%-20s %7s %7s %7s  %s\n", "group", "behind", "ahead", "even",
                "worst cells (time / best peer's)");
        int tot[3] = {0, 0, 0};
        for (int c0 = 0; c0 < st.ncases; c0++) {
            const struct fcb_case *g = &st.cases[c0];
            /* first case of its (func, group) block */
            int first = 1;
            for (int k = 0; k < c0; k++)
                if (st.cases[k].func == g->func && !strcmp(st.cases[k].group, g->group))
                    first = 0;
            if (!first)
                continue;
            int cnt[3] = {0, 0, 0};
            struct { double r; int c; } w[3] = {{0, -1}, {0, -1}, {0, -1}};
            for (int c = c0; c < st.ncases; c++) {
                const struct fcb_case *cs = &st.cases[c];
                if (cs->func != g->func || strcmp(cs->group, g->group))
                    continue;
                if (pk[c] == -2)
                    continue;
                int a = find_item(c, im->name), b = best_peer(c);
                int k = pk[c] > 0 ? 0 : pk[c] < 0 ? 1 : 2;
                cnt[k]++;
                double r = res[a].s.median / res[b].s.median;
                if (k == 0)
                    for (int q = 0; q < 3; q++)
                        if (w[q].c < 0 || r > w[q].r) {
                            for (int z = 2; z > q; z--)
                                w[z] = w[z - 1];
                            w[q].r = r;
                            w[q].c = c;
                            break;
                        }
            }
            if (!cnt[0] && !cnt[1] && !cnt[2])
                continue;
            char name[64];
            snprintf(name, sizeof name, "%s/%s", fcb_func_name(g->func), g->group);
            fprintf(f, "%-20s %7d %7d %7d ", name, cnt[0], cnt[1], cnt[2]);
            for (int q = 0; q < 3 && w[q].c >= 0; q++)
                fprintf(f, " %s %.2fx (vs %s)", st.cases[w[q].c].key, w[q].r,
                        st.impls[st.items[best_peer(w[q].c)].i].name);
            fputc('\n', f);
            for (int k = 0; k < 3; k++)
                tot[k] += cnt[k];
        }
        fprintf(f, "%-20s %7d %7d %7d\n", "all", tot[0], tot[1], tot[2]);
    }
    free(pk);
}

/* --summary IMPL: for each block of cells, the geometric mean over its cells of every
 * other implementation's median time divided by IMPL's (below 1: faster than IMPL).
 * A block is a (function, group), with sizes and misal split at 64 B, 512 B and
 * 64 KiB and the size mixes split by sequence length (each regime apart).  This is
 * how two builds are compared: load both with --with and summarise against one. */
static const char *summary_impl;

static void summary_block(const struct fcb_case *c, char *buf, size_t cap)
{
    const char *f = fcb_func_name(c->func);
    if (c->mix)
        snprintf(buf, cap, "%s/%s ops=%zu", f, c->group, c->nops);
    else if (!strcmp(c->group, "sizes") || !strcmp(c->group, "misal"))
        snprintf(buf, cap, "%s/%s %s", f, c->group,
                 c->size <= 64 ? "0-64" : c->size <= 512 ? "65-512"
                 : c->size <= 65536 ? "513-64K" : ">64K");
    else
        snprintf(buf, cap, "%s/%s", f, c->group);
}

/* Index into st.impls of the first impl named name, -1 if none. */
static int impl_named(const char *name)
{
    for (int i = 0; i < st.nimpls; i++)
        if (!strcmp(st.impls[i].name, name))
            return i;
    return -1;
}

/* A --summary column's width: its name, at least 8. */
static int col_width(const char *name)
{
    size_t n = strlen(name);
    return n > 8 ? (int)n : 8;
}

static void print_summary(FILE *f, const char *base)
{
    /* Columns: the distinct names of the impls that ran, other than base, in
     * first-seen order. */
    const char *cols[64];
    int ncols = 0;
    for (int j = 0; j < st.nitems && ncols < 64; j++) {
        const char *nm = st.impls[st.items[j].i].name;
        int seen = !strcmp(nm, base);
        for (int k = 0; k < ncols && !seen; k++)
            seen = !strcmp(cols[k], nm);
        if (!seen)
            cols[ncols++] = nm;
    }
    fprintf(f, "\n# geometric mean per block of each implementation's median time over %s's "
               "(below 1: faster than %s; n = cells)\n%-28s %4s", base, base, "block", "n");
    for (int k = 0; k < ncols; k++)
        fprintf(f, " %*s", col_width(cols[k]), cols[k]);
    fputc('\n', f);
    char name[96], other[96];
    for (int c0 = 0; c0 < st.ncases; c0++) {
        summary_block(&st.cases[c0], name, sizeof name);
        int first = 1; /* first case of its block */
        for (int c = 0; c < c0 && first; c++) {
            summary_block(&st.cases[c], other, sizeof other);
            first = strcmp(name, other) != 0;
        }
        if (!first)
            continue;
        double sum[64] = {0};
        int cnt[64] = {0}, ncells = 0;
        for (int c = c0; c < st.ncases; c++) {
            summary_block(&st.cases[c], other, sizeof other);
            int b = find_item(c, base);
            if (strcmp(name, other) || b < 0 || !(res[b].s.median > 0))
                continue;
            ncells++;
            for (int k = 0; k < ncols; k++) {
                int a = find_item(c, cols[k]);
                if (a >= 0 && res[a].s.median > 0) {
                    sum[k] += log(res[a].s.median / res[b].s.median);
                    cnt[k]++;
                }
            }
        }
        if (!ncells)
            continue;
        fprintf(f, "%-28s %4d", name, ncells);
        for (int k = 0; k < ncols; k++) {
            if (cnt[k])
                fprintf(f, " %*.3f", col_width(cols[k]), exp(sum[k] / cnt[k]));
            else
                fprintf(f, " %*s", col_width(cols[k]), "-");
        }
        fputc('\n', f);
    }
}

/* ---- the verdict ---------------------------------------------------------------------- *
 * libfastcopy ("dropin", else "auto") against each baseline (libc and every --with
 * library), per row: a function and a group, the size mixes per regime.  Per
 * baseline two families: the cells (the same tests as the table's marks against
 * libc) and the rows.  A row's estimate is the mean over its cells of log(ours /
 * baseline) per sample (round, or process with --processes), so its Student t
 * interval over the samples carries what moved all cells of a sample together. */

/* The row a case belongs to: "" for the user and tune groups (not in the verdict). */
static void verdict_row_key(const struct fcb_case *c, char *group, size_t gcap, char *regime,
                            size_t rcap)
{
    snprintf(group, gcap, "%s", c->group);
    regime[0] = 0;
    if (!strcmp(c->group, "user") || !strcmp(c->group, "tune"))
        group[0] = 0;
    else if (c->mix && c->nops > 4096)
        snprintf(regime, rcap, "random order");
    else if (c->mix)
        snprintf(regime, rcap, "%zu calls", c->nops);
}

static int items_named(const char *name)
{
    for (int j = 0; j < st.nitems; j++)
        if (!strcmp(st.impls[st.items[j].i].name, name))
            return 1;
    return 0;
}

static void compute_verdict(void)
{
    verdict.subject = items_named("dropin") ? "dropin" : items_named("auto") ? "auto" : NULL;
    if (!verdict.subject)
        return;
    verdict.nbase = 0;
    if (items_named("libc"))
        verdict.base[verdict.nbase++] = "libc";
    for (int i = 0; i < st.nimpls && verdict.nbase < VMAX_BASE; i++) {
        const char *nm = st.impls[i].name;
        int seen = !(st.impls[i].flags & FCB_I_WITH) || !strcmp(nm, verdict.subject);
        for (int b = 0; b < verdict.nbase && !seen; b++)
            seen = !strcmp(verdict.base[b], nm);
        if (!seen && items_named(nm))
            verdict.base[verdict.nbase++] = nm;
    }
    int *row_of = malloc(sizeof(int) * (st.ncases > 0 ? (size_t)st.ncases : 1u));
    verdict.rows = calloc(st.ncases > 0 ? (size_t)st.ncases : 1u, sizeof *verdict.rows);
    verdict.nrows = 0;
    for (int c = 0; c < st.ncases; c++) {
        char g[sizeof verdict.rows[0].group], rg[sizeof verdict.rows[0].regime];
        verdict_row_key(&st.cases[c], g, sizeof g, rg, sizeof rg);
        row_of[c] = -1;
        if (!g[0] || find_item(c, verdict.subject) < 0)
            continue;
        for (int r = 0; r < verdict.nrows && row_of[c] < 0; r++)
            if (verdict.rows[r].func == st.cases[c].func && !strcmp(verdict.rows[r].group, g) &&
                !strcmp(verdict.rows[r].regime, rg))
                row_of[c] = r;
        if (row_of[c] < 0) {
            struct vrow *v = &verdict.rows[verdict.nrows];
            v->func = st.cases[c].func;
            snprintf(v->group, sizeof v->group, "%s", g);
            snprintf(v->regime, sizeof v->regime, "%s", rg);
            row_of[c] = verdict.nrows++;
        }
    }
    int *ca = malloc(sizeof(int) * (st.ncases > 0 ? (size_t)st.ncases : 1u));
    int *cb = malloc(sizeof(int) * (st.ncases > 0 ? (size_t)st.ncases : 1u));
    /* the cells' tests, then the rows' (no more rows than cases) */
    struct ftest *t = calloc(st.ncases > 0 ? 2 * (size_t)st.ncases : 1u, sizeof *t);
    double *gl = NULL;
    for (int b = 0; b < verdict.nbase; b++) {
        /* the cells: every case where both ran (the user group's too, as in the
         * table's family against libc) */
        int n = 0;
        for (int c = 0; c < st.ncases; c++) {
            ca[n] = find_item(c, verdict.subject);
            cb[n] = find_item(c, verdict.base[b]);
            if (ca[n] < 0 || cb[n] < 0)
                continue;
            cmp_items(ca[n], cb[n], &t[n].c);
            band_test(&t[n], med_ratio(ca[n], cb[n]), MARGIN);
            n++;
        }
        decide(t, n);
        for (int k = 0; k < n; k++) {
            int r = row_of[st.items[ca[k]].c];
            if (r < 0)
                continue;
            struct vcell *v = &verdict.rows[r].v[b];
            v->n++;
            v->faster += t[k].proven < 0;
            v->slower += t[k].proven > 0;
        }
        /* the rows: per sample, the mean over the row's cells of log(ours / base) */
        for (int r = 0; r < verdict.nrows; r++) {
            memset(&t[n + r], 0, sizeof t[n + r]);
            t[n + r].p = NAN;
            verdict.rows[r].v[b].verdict = -2;
            verdict.rows[r].v[b].speed = NAN;
        }
        for (int r = 0; r < verdict.nrows; r++) {
            struct vcell *v = &verdict.rows[r].v[b];
            int K = 0, m = 0;
            double lmed = 0;
            for (int k = 0; k < n; k++)
                if (row_of[st.items[ca[k]].c] == r) {
                    int s = st.items[ca[k]].nsamples < st.items[cb[k]].nsamples
                                ? st.items[ca[k]].nsamples : st.items[cb[k]].nsamples;
                    K = !K || s < K ? s : K;
                }
            double *g2 = realloc(gl, sizeof *gl * (size_t)(K > 0 ? K : 1));
            if (!g2)
                break;
            gl = g2;
            for (int q = 0; q < K; q++)
                gl[q] = 0;
            for (int k = 0; k < n && K > 0; k++) {
                if (row_of[st.items[ca[k]].c] != r)
                    continue;
                const struct fcb_item *x = &st.items[ca[k]], *y = &st.items[cb[k]];
                int ok = res[ca[k]].s.median > 0 && res[cb[k]].s.median > 0;
                for (int q = 0; q < K && ok; q++)
                    ok = x->ns[q] > 0 && y->ns[q] > 0;
                if (!ok)
                    continue;
                for (int q = 0; q < K; q++)
                    gl[q] += log(x->ns[q] / y->ns[q]);
                lmed += log(med_ratio(ca[k], cb[k]));
                m++;
            }
            struct ftest *rt = &t[n + r];
            v->lo = v->hi = NAN;
            if (!m)
                continue;
            for (int q = 0; q < K; q++)
                gl[q] /= m;
            v->speed = exp(-lmed / m);
            if (!fcb_cmp_logs(gl, K, &rt->c))
                band_test(rt, 1 / v->speed, MARGIN);
        }
        double level = decide(t + n, verdict.nrows);
        verdict.level[b] = level;
        for (int r = 0; r < verdict.nrows; r++) {
            struct vcell *v = &verdict.rows[r].v[b];
            const struct ftest *rt = &t[n + r];
            if (isnan(rt->p))
                continue;
            v->verdict = -rt->proven;
            double lo, hi;
            fcb_cmp_interval(&rt->c, level, &lo, &hi);
            v->lo = 1 / hi;
            v->hi = 1 / lo;
        }
    }
    free(gl);
    free(t);
    free(ca);
    free(cb);
    free(row_of);
}

/* Prints line without its trailing blanks, and a newline. */
static void trim_line(FILE *f, char *line)
{
    size_t n = strlen(line);
    while (n && line[n - 1] == ' ')
        line[--n] = 0;
    fprintf(f, "%s\n", line);
}

static void print_verdict(FILE *f)
{
    if (!verdict.subject) {
        fprintf(f, "\n# verdict: neither dropin nor auto ran (--impl); every cell follows\n");
        return;
    }
    fprintf(f, "\n# verdict: libfastcopy (%s) against each baseline.  speed: the baseline's\n"
               "# time over ours, geometric mean over the group's cells.  faster/slower: proven\n"
               "# beyond %.0f%% (Student t over the %s, corrected for the groups compared);\n"
               "# cells proven faster (+) / slower (-) alike.  Every cell: -v.  man fcbench.\n",
            !strcmp(verdict.subject, "dropin") ? "dropin, its exported names" : "auto",
            MARGIN * 100, nproc > 1 ? "processes" : "rounds");
    char line[64 + 40 * VMAX_BASE];
    size_t len = (size_t)snprintf(line, sizeof line, "%-8s %-22s %4s", "function", "group", "n");
    for (int b = 0; b < verdict.nbase && len < sizeof line; b++)
        len += (size_t)snprintf(line + len, sizeof line - len, "  vs %-27s", verdict.base[b]);
    trim_line(f, line);
    int tot[VMAX_BASE][3] = {{0}}, cells[VMAX_BASE][3] = {{0}};
    for (int r = 0; r < verdict.nrows; r++) {
        const struct vrow *v = &verdict.rows[r];
        char g[64];
        int n = 0;
        snprintf(g, sizeof g, v->regime[0] ? "%s (%s)" : "%s", v->group, v->regime);
        for (int b = 0; b < verdict.nbase; b++)
            n = v->v[b].n > n ? v->v[b].n : n;
        len = (size_t)snprintf(line, sizeof line, "%-8s %-22s %4d", fcb_func_name(v->func), g, n);
        for (int b = 0; b < verdict.nbase && len < sizeof line; b++) {
            const struct vcell *c = &v->v[b];
            if (c->verdict == -2) {
                len += (size_t)snprintf(line + len, sizeof line - len, "  %-30s", "-");
                continue;
            }
            len += (size_t)snprintf(line + len, sizeof line - len, "  %5.2fx %-13s %3d+ %3d-",
                                    c->speed, vword(c->verdict), c->faster, c->slower);
            tot[b][c->verdict + 1]++;
            cells[b][0] += c->faster;
            cells[b][1] += c->slower;
            cells[b][2] += c->n;
        }
        trim_line(f, line);
    }
    for (int b = 0; b < verdict.nbase; b++)
        fprintf(f, "# against %s: %d groups faster, %d slower, %d no difference; cells: %d "
                   "faster, %d slower, of %d\n",
                verdict.base[b], tot[b][2], tot[b][0], tot[b][1], cells[b][0], cells[b][1],
                cells[b][2]);
}

/* ---- self-test: the statistics, then the system libc against itself ------------------ */

static double gauss(uint64_t *s)
{
    double u1 = ((*s = *s * 6364136223846793005ull + 1442695040888963407ull) >> 11) *
                (1.0 / 9007199254740992.0);
    double u2 = ((*s = *s * 6364136223846793005ull + 1442695040888963407ull) >> 11) *
                (1.0 / 9007199254740992.0);
    if (u1 < 1e-300)
        u1 = 1e-300;
    return sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
}

static int self_test(void)
{
    int bad = 0;
    /* 1. t quantiles against published values. */
    static const struct { int df; double t; } tq[] = {
        {1, 12.706}, {5, 2.571}, {10, 2.228}, {28, 2.048}, {40, 2.021}, {60, 2.000},
        {120, 1.980}, {1000, 1.962}};
    for (size_t i = 0; i < sizeof tq / sizeof *tq; i++)
        if (fabs(fcb_t975(tq[i].df) - tq[i].t) > 0.002) {
            printf("FAIL t975(%d) = %.4f, want %.3f\n", tq[i].df, fcb_t975(tq[i].df), tq[i].t);
            bad++;
        }
    /* 2. A worked example: a = 1..5, b = 3..7: diff -2, pooled sd 1.581, se 1,
     *    t(8) = 2.306 -> [-4.306, 0.306]: contains 0. */
    double a[5] = {1, 2, 3, 4, 5}, b[5] = {3, 4, 5, 6, 7}, d, lo, hi;
    int v = fcb_compare(a, 5, b, 5, &d, &lo, &hi);
    if (v != 0 || fabs(d + 2) > 1e-9 || fabs(lo + 4.306) > 1e-3 || fabs(hi - 0.306) > 1e-3) {
        printf("FAIL worked example: v=%d diff=%g [%g, %g]\n", v, d, lo, hi);
        bad++;
    }
    /* 3. Same distribution, many draws: about 5% false "difference proven";
     *    shifted by 2 sd with 15 samples each: nearly always proven. */
    uint64_t seed = 42;
    int fp = 0, tp = 0, trials = 2000;
    for (int k = 0; k < trials; k++) {
        double x[15], y[15], z[15];
        for (int i = 0; i < 15; i++) {
            x[i] = 100 + 3 * gauss(&seed);
            y[i] = 100 + 3 * gauss(&seed);
            z[i] = 106 + 3 * gauss(&seed);
        }
        fp += fcb_compare(x, 15, y, 15, &d, &lo, &hi) == 1;
        tp += fcb_compare(z, 15, x, 15, &d, &lo, &hi) == 1;
    }
    printf("stats: same distribution: %.1f%% 'difference proven' (expect ~5%%); "
           "shifted by 2 sd: %.1f%% proven\n", 100.0 * fp / trials, 100.0 * tp / trials);
    if (fp > trials * 0.08 || fp < trials * 0.02 || tp < trials * 0.95) {
        printf("FAIL false/true positive rates\n");
        bad++;
    }
    /* 3b. The paired form (--processes).  Worked examples: ratios 2, 2, 2 -> a
     *     proven doubling, +1 x b's median (2 ns); ratios 2, 1, 1/2 -> log mean 0,
     *     not proven.  Then per-pair scale factors (a machine phase, sd 20% on the
     *     log) on both samples of each of 7 pairs, 1% noise of their own: the
     *     paired test keeps ~5% false positives and proves a 5% shift nearly
     *     always, which the unpaired test under that scale noise mostly cannot. */
    {
        double pa[3] = {2, 4, 8}, pb[3] = {1, 2, 4}, pc[3] = {1, 4, 16};
        int v1 = fcb_compare_paired(pa, pb, 3, &d, &lo, &hi);
        if (v1 != 1 || fabs(d - 2) > 1e-9 || fabs(lo - 2) > 1e-9 || fabs(hi - 2) > 1e-9) {
            printf("FAIL paired example 1: v=%d diff=%g [%g, %g]\n", v1, d, lo, hi);
            bad++;
        }
        int v2 = fcb_compare_paired(pa, pc, 3, &d, &lo, &hi);
        if (v2 != 0 || fabs(d) > 1e-9) {
            printf("FAIL paired example 2: v=%d diff=%g [%g, %g]\n", v2, d, lo, hi);
            bad++;
        }
        int pfp = 0, ptp = 0, utp = 0;
        for (int k = 0; k < trials; k++) {
            double x[7], y[7], z[7];
            for (int i = 0; i < 7; i++) {
                double f = exp(0.2 * gauss(&seed));
                x[i] = 100 * f * exp(0.01 * gauss(&seed));
                y[i] = 100 * f * exp(0.01 * gauss(&seed));
                z[i] = 105 * f * exp(0.01 * gauss(&seed));
            }
            pfp += fcb_compare_paired(x, y, 7, &d, &lo, &hi) == 1;
            ptp += fcb_compare_paired(z, x, 7, &d, &lo, &hi) == 1;
            utp += fcb_compare(z, 7, x, 7, &d, &lo, &hi) == 1;
        }
        printf("stats, paired: same distribution: %.1f%% 'difference proven' (expect ~5%%); "
               "5%% shift under 20%% scale noise: %.1f%% proven (unpaired %.1f%%)\n",
               100.0 * pfp / trials, 100.0 * ptp / trials, 100.0 * utp / trials);
        if (pfp > trials * 0.08 || pfp < trials * 0.02 || ptp < trials * 0.95 ||
            utp > trials * 0.5) {
            printf("FAIL paired false/true positive rates\n");
            bad++;
        }
    }
    /* 3c. What fcbench calls proven (MARGIN, FDR_Q).  The t distribution against
     *     published quantiles and its own tail; Benjamini-Hochberg on its paper's
     *     kind of example (8 p-values, q 5%: the two smallest rejected); then whole
     *     families of 300 cells.  A/A (identical distributions, lognormal noise of
     *     5% with one sample in 20 taken 1.5x as long): no family may call more than
     *     1% of its cells proven; a 10% shift in 100 of 300 cells (2% noise) must be
     *     found in at least 90 of them, and at most 3 of the other 200 called. */
    {
        static const struct { int df; double t; } tq2[] = {{1, 12.706}, {8, 2.306},
                                                            {28, 2.048}, {120, 1.980}};
        for (size_t i = 0; i < sizeof tq2 / sizeof *tq2; i++)
            if (fabs(fcb_t_quantile(0.975, tq2[i].df) - tq2[i].t) > 0.002 ||
                fabs(fcb_t_sf(tq2[i].t, tq2[i].df) - 0.025) > 1e-4) {
                printf("FAIL t quantile/tail at df %d: %.4f, %.5f\n", tq2[i].df,
                       fcb_t_quantile(0.975, tq2[i].df), fcb_t_sf(tq2[i].t, tq2[i].df));
                bad++;
            }
        double tail = 1e-9, x = fcb_t_quantile(1 - tail, 6);
        if (fabs(fcb_t_sf(x, 6) / tail - 1) > 1e-3) {
            printf("FAIL t tail 1e-9 at df 6: quantile %.4f, tail there %.4g\n", x,
                   fcb_t_sf(x, 6));
            bad++;
        }
        double bp[8] = {0.041, 0.001, 0.205, 0.039, 0.06, 0.008, 0.074, 0.042};
        unsigned char rej[300];
        int R = fcb_bh(bp, 8, 0.05, rej);
        if (R != 2 || !rej[1] || !rej[5]) {
            printf("FAIL Benjamini-Hochberg example: %d rejected, want 0.001 and 0.008\n", R);
            bad++;
        }
        struct ftest *ft = calloc(300, sizeof *ft);
        int fams = 200, worst = 0, total = 0, found = 0, false_alarm = 0;
        for (int fam = 0; fam < fams + 1 && ft; fam++) {
            int power = fam == fams; /* the last family: the shifted one */
            for (int c = 0; c < 300; c++) {
                double xa[7], xb[7], shift = power && c < 100 ? 1.10 : 1;
                double sdv = power ? 0.02 : 0.05;
                for (int k = 0; k < 7; k++) {
                    xa[k] = 100 * shift * exp(sdv * gauss(&seed));
                    xb[k] = 100 * exp(sdv * gauss(&seed));
                    if (!power && (seed >> 33) % 20 == 0)
                        xa[k] *= 1.5;
                    if (!power && (seed >> 40) % 20 == 0)
                        xb[k] *= 1.5;
                }
                struct fcb_summary sa, sb;
                fcb_summarize(xa, 7, &sa);
                fcb_summarize(xb, 7, &sb);
                fcb_cmp_unpaired(xa, 7, xb, 7, &ft[c].c);
                band_test(&ft[c], sa.median / sb.median, MARGIN);
            }
            decide(ft, 300);
            int n = 0;
            for (int c = 0; c < 300; c++) {
                n += ft[c].proven != 0;
                if (power)
                    c < 100 ? (found += ft[c].proven > 0) : (false_alarm += ft[c].proven != 0);
            }
            if (!power) {
                worst = n > worst ? n : worst;
                total += n;
            }
        }
        free(ft);
        printf("stats, corrected: A/A, %d families of 300 cells: %d cells proven in all, at "
               "most %d in one; a 10%% shift in 100 of 300 cells: %d found, %d others "
               "called\n", fams, total, worst, found, false_alarm);
        if (!ft || worst > 3 || found < 90 || false_alarm > 3) {
            printf("FAIL corrected decisions\n");
            bad++;
        }
    }
    /* 4. Live: the system libc against itself ("libc2" = the same functions through a
     *    second table entry), interleaved and shuffled like a real run.  Each case is a
     *    5% coin toss even when everything is right, and more on a loaded machine
     *    (slow phases give heavy tails), so a case that shows a "difference" is run
     *    again, up to 3 attempts in all: a real difference would show every time.
     *    A case passes with "no difference proven" and a ratio within 0.8..1.25. */
    static char todo[1024] =
        "memcpy/sizes/16,memcpy/sizes/256,memcpy/sizes/4096,memmove/sizes/1024,"
        "memset/sizes/64,memset/sizes/8192,memcpy/mix/MemcpyGoogleA,"
        "memset/mix/MemsetGoogleA";
    int attempt;
    for (attempt = 1; attempt <= 3 && todo[0]; attempt++) {
        static char again[1024];
        again[0] = 0;
        memset(&st, 0, sizeof st);
        fcb_config_default(&st.cfg);
        st.cfg.libc_twice = 1;
        st.cfg.impls = "libc2";
        st.cfg.groups = "sizes,mix";
        st.cfg.cases = todo;
        st.cfg.rounds = 21;
        st.cfg.sample_us = 200;
        st.cfg.progress = -1;
        st.cfg.max_size = 64 * 1024;
        st.cfg.mix_ops = 16384;
        if (fcb_setup(&st))
            return 1;
        run_all();
        analyse();
        for (int j = 0; j < st.nitems; j++) {
            if (strcmp(st.impls[st.items[j].i].name, "libc2"))
                continue;
            const struct result *r = &res[j];
            const char *name = st.cases[st.items[j].c].name;
            int ok = r->verdict == 0 && r->speedup > 0.8 && r->speedup < 1.25;
            printf("libc vs libc %-28s ratio %.3f  diff %+.3f ns [%+.3f, %+.3f]: %s%s\n",
                   name, r->speedup, r->diff, r->lo, r->hi, verdict_str(r),
                   ok ? "" : attempt < 3 ? " (again)" : " FAIL");
            if (!ok) {
                size_t l = strlen(again);
                snprintf(again + l, sizeof again - l, "%s%s", l ? "," : "", name);
            }
        }
        fcb_teardown(&st);
        free(res);
        res = NULL;
        strcpy(todo, again);
    }
    if (todo[0]) {
        printf("FAIL libc vs libc: a difference in 3 attempts out of 3: %s\n", todo);
        bad++;
    }
    printf("%s\n", bad ? "self-test FAILED" : "self-test passed");
    return bad ? 1 : 0;
}

/* ---- main ---------------------------------------------------------------------------- */

static void usage(void)
{
    fputs("usage: fcbench [options]\n"
          "Times memcpy/memmove/memset: every usable libfastcopy variant, the selected one\n"
          "(\"auto\") and the system C library's (\"libc\"), interleaved in one process.\n"
          "Prints a verdict: per function and group (the size mixes per regime), is\n"
          "libfastcopy (\"dropin\", its exported names) faster or slower than each\n"
          "baseline (libc and every --with library), or no different: the geometric\n"
          "mean of the speed ratio, and how many cells are proven faster/slower.\n"
          "Proven = by more than 3%, corrected for the number of cells (or groups)\n"
          "compared (man fcbench, STATISTICS).\n"
          "output:\n"
          "  -v                  also every cell (the speedup of each impl against libc,\n"
          "                      marked + / - when proven, ~ when not), the counts against\n"
          "                      the best peer and, for a full run, the targets\n"
          "  -vv                 also per impl: medians, quartiles, the interval and its\n"
          "                      level\n"
          "  --csv FILE          one row per (case, impl); bench/plot.py turns it into PNGs\n"
          "  --json FILE         the same plus every sample and the verdict\n"
          "  --list              list the cases and impls that would run, then exit\n"
          "  --tune              measure this machine's cut-overs (and variant choices),\n"
          "                      print the profile row measured, write it as a tuning\n"
          "                      file the library reads at load time, with only what was\n"
          "                      proven across processes set (docs/tuning.md; 5 processes\n"
          "                      unless --processes says otherwise: about 30 s); with\n"
          "                      --quick a smoke run (about 4 s) that writes no file\n"
          "  --out FILE          --tune's file (default fastcopy-tuning.conf)\n"
          "  --objective OBJ     --tune: balanced (default: per size, the path whose worse\n"
          "                      ratio, hot or cold, is smaller), hot or cold\n"
          "  --version           print the version and exit\n"
          "  --targets           run only what fcb_targets.c needs, print PASS/FAIL lines\n"
          "                      (a row against every peer: one line per peer; exit\n"
          "                      status 3 when one fails)\n"
          "  --self-test         check the statistics and their correction; libc against\n"
          "                      itself must say \"no difference proven\"\n"
          "  --processes N       the whole run N times, each in a fresh process (its own\n"
          "                      code placement and machine phase); a cell's samples are\n"
          "                      then the N per-process medians, compared in pairs by\n"
          "                      process (1..64, default 1; N times as long); with --tune\n"
          "                      (default 5, 1 under an emulator) each process's mean\n"
          "                      time ratio is one sample of a verdict\n"
          "  --summary IMPL      after the table: per block of cells (function and group,\n"
          "                      sizes by size band, mixes by regime), the geometric mean\n"
          "                      of every other impl's median time over IMPL's; e.g. two\n"
          "                      builds loaded with --with, summarised against one\n",
          stdout);
    fcb_config_usage();
}

int main(int argc, char **argv)
{
    const char *csv = NULL, *json = NULL;
    int list = 0, targets = 0, selftest = 0, tune = 0, nproc_given = 0, out_given = 0;
    struct fcb_tune_opts topt = {"fastcopy-tuning.conf", FCB_OBJ_BALANCED, 0, 1, NULL, 0, NULL};
    time_t now = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    fcb_config_default(&st.cfg);
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k];
        if (!strcmp(a, "-vv")) {
            st.cfg.verbose += 2;
            continue;
        }
        int used = fcb_config_arg(&st.cfg, argc, argv, &k);
        if (used < 0)
            return 2;
        if (used > 0) {
            k += used - 1;
            continue;
        }
        if ((!strcmp(a, "--csv") || !strcmp(a, "--json") || !strcmp(a, "--out") ||
             !strcmp(a, "--objective") || !strcmp(a, "--summary")) && k + 1 == argc) {
            fprintf(stderr, "fcbench: %s needs a value\n", a);
            return 2;
        } else if (!strcmp(a, "--csv"))
            csv = argv[++k];
        else if (!strcmp(a, "--json"))
            json = argv[++k];
        else if (!strcmp(a, "--summary")) {
            summary_impl = fcb_current_names(argv[++k]);
            if (!*summary_impl) {
                fprintf(stderr, "fcbench: --summary needs an implementation's name\n");
                return 2;
            }
        } else if (!strcmp(a, "--list"))
            list = 1;
        else if (!strcmp(a, "--tune"))
            tune = 1;
        else if (!strcmp(a, "--out")) {
            out_given = 1;
            topt.out = argv[++k];
            if (!*topt.out) {
                fprintf(stderr, "fcbench: --out needs a file name\n");
                return 2;
            }
        } else if (!strcmp(a, "--objective")) {
            const char *v = argv[++k];
            if (!strcmp(v, "balanced"))
                topt.objective = FCB_OBJ_BALANCED;
            else if (!strcmp(v, "hot"))
                topt.objective = FCB_OBJ_HOT;
            else if (!strcmp(v, "cold"))
                topt.objective = FCB_OBJ_COLD;
            else {
                fprintf(stderr, "fcbench: --objective '%s': not hot, cold or balanced\n", v);
                return 2;
            }
        }
        else if (!strcmp(a, "--processes") || !strcmp(a, "--child-out")) {
            if (k + 1 == argc) {
                fprintf(stderr, "fcbench: %s needs a value\n", a);
                return 2;
            }
            const char *v = argv[++k];
            if (!strcmp(a, "--child-out")) {
                child_out = v;
                continue;
            }
            char *end;
            errno = 0;
            long u = strtol(v, &end, 10);
            if (end == v || *end || errno || u < 1 || u > 64) {
                fprintf(stderr, "fcbench: --processes '%s': not a number 1..64\n", v);
                return 2;
            }
            nproc = (int)u;
            nproc_given = 1;
        }
        else if (!strcmp(a, "--targets"))
            targets = 1;
        else if (!strcmp(a, "--self-test"))
            selftest = 1;
        else if (!strcmp(a, "--version")) {
            printf("fcbench (libfastcopy) %s\n", fc_version());
            return 0;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage();
            return 0;
        } else {
            fprintf(stderr, "fcbench: unknown option '%s' (try --help)\n", a);
            return 2;
        }
    }
    if (selftest && nproc > 1) {
        fprintf(stderr, "fcbench: --processes works with a measuring run or --tune, not "
                        "with --self-test\n");
        return 2;
    }
    if (tune && !nproc_given)
        nproc = fcb_tune_default_processes();
    if (child_out)
        nproc = 1;
    if (selftest)
        return self_test();
    if (tune) {
        /* One line and exit 2 for options that mean nothing with --tune. */
        if (list || targets || csv || json || summary_impl || st.cfg.groups || st.cfg.cases ||
            st.cfg.impls || st.cfg.funcs || st.cfg.nwith) {
            fprintf(stderr, "fcbench: --tune takes only --out, --objective, --quick, "
                            "--processes and the measurement options (--cpu, --l1/--l2/--l3, "
                            "--sample-us, --seed, --no-progress)\n");
            return 2;
        }
        if (st.cfg.quick && out_given && !child_out) {
            fprintf(stderr, "fcbench: --tune --quick writes no file (a smoke run): drop --out, "
                            "or --quick to measure and write one\n");
            return 2;
        }
        /* The output file is opened before the run, not found unwritable after it
         * (a child of --processes writes only its samples; --quick writes none). */
        FILE *t = child_out || st.cfg.quick ? NULL : fopen(topt.out, "a");
        if (!child_out && !st.cfg.quick && !t) {
            fprintf(stderr, "fcbench: --out '%s': %s\n", topt.out, strerror(errno));
            return 2;
        }
        if (t)
            fclose(t);
        topt.quick = st.cfg.quick;
        topt.nproc = nproc;
        topt.child_out = child_out;
        topt.argc = argc;
        topt.argv = argv;
        st.cfg.tune = 1;
        st.cfg.groups = "tune,mix";
        if (!st.cfg.mix_ops)
            st.cfg.mix_ops = 65536;
        st.cfg.max_size = st.cfg.quick ? 64u << 20 : 256u << 20;
        int rc = fcb_setup(&st);
        if (rc)
            return rc == FCB_EUSAGE ? 2 : 1;
        if (!child_out)
            print_context(stderr);
        if (verify_all()) {
            fprintf(stderr, "fcbench: not timing a broken implementation; fix it first\n");
            return 4;
        }
        rc = fcb_tune_main(&st, &topt);
        fcb_teardown(&st);
        return rc;
    }
    if (fcb_config_check(&st.cfg))
        return 2;
    /* Output files are opened before the run, not found unwritable after it. */
    FILE *csvf = NULL, *jsonf = NULL;
    if ((csv && !(csvf = open_out("--csv", csv))) || (json && !(jsonf = open_out("--json", json))))
        return 2;
    /* Every group a target row names (fcb_targets.c): without mixread here its
     * row could only print NOT MEASURED. */
    if (targets && !st.cfg.groups)
        st.cfg.groups = "user,sizes,misal,pageend,dist,cold,ws,overlap,mix,mixread,chain,prog";
    int rc = fcb_setup(&st);
    if (rc)
        return rc == FCB_EUSAGE ? 2 : 1;
    if (targets)
        fcb_filter_items(&st, keep_for_targets);
    if (!st.nitems) {
        fprintf(stderr, "fcbench: nothing to run with these options (--func %s, --group %s, "
                        "--case %s, --impl %s)\n", st.cfg.funcs ? st.cfg.funcs : "all",
                st.cfg.groups ? st.cfg.groups : "all", st.cfg.cases ? st.cfg.cases : "all",
                st.cfg.impls ? st.cfg.impls : "all");
        return 2;
    }
    if (summary_impl && impl_named(summary_impl) < 0) {
        fprintf(stderr, "fcbench: --summary '%s': no implementation of that name in this run "
                        "(libc, auto, the variants, dropin, or a --with NAME)\n", summary_impl);
        return 2;
    }
    if (list) {
        print_context(stdout);
        for (int c = 0; c < st.ncases; c++) {
            int any = 0;
            for (int j = 0; j < st.nitems; j++)
                if (st.items[j].c == c) {
                    if (!any)
                        printf("%-32s %10zu ", st.cases[c].name, st.cases[c].size);
                    printf(" %s", st.impls[st.items[j].i].name);
                    any = 1;
                }
            if (any)
                putchar('\n');
        }
        return 0;
    }
    if (!child_out)
        print_context(stderr);
    if (verify_all()) {
        fprintf(stderr, "fcbench: not timing a broken implementation; fix it first\n");
        return 4;
    }
    if (child_out) {
        run_all();
        rc = write_child_out(child_out);
        fcb_teardown(&st);
        return rc;
    }
    if (nproc > 1) {
        rc = run_processes(argc, argv);
        if (rc)
            return rc;
    } else {
        run_all();
    }
    analyse();
    compute_verdict();
    /* The verdict first; every cell, the counts against the best peer and a full
     * run's targets with -v (or --targets for those). */
    print_context(stdout);
    print_verdict(stdout);
    int all = st.cfg.verbose > 0 || !verdict.subject;
    if (all) {
        print_table(stdout);
        print_peer_counts(stdout);
    }
    if (summary_impl)
        print_summary(stdout, summary_impl);
    /* A full run measures every target's cases too: evaluated for --json, printed
     * with -v (not --quick, whose smaller matrix and fewer rounds would say little). */
    int fails = targets ? eval_targets(stdout, 1)
                : st.cfg.quick ? 0 : eval_targets(all ? stdout : NULL, 0);
    if (csvf && write_csv(csvf, csv))
        return 1;
    if (jsonf && write_json(jsonf, json))
        return 1;
    fcb_teardown(&st);
    return targets && fails ? 3 : 0;
}
