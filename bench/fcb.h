/* fcb.h - the benchmark's one set of case definitions, shared by both front ends:
 * fcbench (plain C, libc + libdl only) and fcbench-gbench (Google Benchmark shim).
 *
 * Vocabulary
 *   impl   one implementation of one function: the system C library's ("libc",
 *          fetched with dlsym so its own IFUNC choice runs), the library's
 *          automatically selected one ("auto" = fc_memcpy/fc_memmove/fc_memset),
 *          libfastcopy's shared object through its exported names ("dropin":
 *          what a preloading program calls, and called as the peers are),
 *          every usable compiled-in variant ("generic", "avx2", ... from
 *          fc_variants), fc_copy_user/fc_clear_user ("copy_user"/"clear_user", in
 *          the "user" group only) and an empty function ("empty", in the "mix" group
 *          only: the call-overhead floor).
 *   case   what is done per call, named "<func>/<group>/<key>", e.g.
 *          memcpy/sizes/4096, memcpy/misal/129, memmove/dist/d=1,
 *          memcpy/cold/1024, memset/ws/L2, memmove/overlap/bwd/4096,
 *          memcpy/mix/GoogleA, memcpy/user/256, memcpy/user/fault.
 *          A case is a list of operations (dst offset, src offset, size) replayed in
 *          order, round and round: one op for hot cases, a shuffled walk over a region
 *          much larger than the last-level cache for cold ones, a drawn sequence for
 *          the size mixes.
 *   item   one (case, impl) pair: what gets timed.
 * Names are stable: CSV/JSON rows, filters (--case, --func, --impl), the targets
 * table (fcb_targets.c) and Google Benchmark names ("<case>/<impl>") all use them.
 */
#ifndef FCB_H
#define FCB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum fcb_func { FCB_MEMCPY, FCB_MEMMOVE, FCB_MEMSET, FCB_NFUNCS };

enum fcb_kind {
    FCB_K_COPY,       /* void *(*)(void *, const void *, size_t) */
    FCB_K_SET,        /* void *(*)(void *, int, size_t), called with c = 0 */
    FCB_K_COPY_USER,  /* size_t (*)(void *, const void *, size_t) */
    FCB_K_CLEAR_USER, /* size_t (*)(void *, size_t) */
};

enum fcb_impl_flags {
    FCB_I_LIBC = 1,     /* the baseline */
    FCB_I_AUTO = 2,     /* fc_memcpy/fc_memmove/fc_memset */
    FCB_I_VARIANT = 4,  /* one entry of fc_variants() */
    FCB_I_USER = 8,     /* fc_copy_user / fc_clear_user */
    FCB_I_EMPTY = 16,   /* the empty-call floor */
    FCB_I_WITH = 32,    /* another library's memcpy/memmove/memset (--with) */
    FCB_I_OURS = 64,    /* a --with library that is libfastcopy itself (its exported
                           drop-in names): timed, but never a peer */
    FCB_I_LIMIT = 128,  /* a machine-limit kernel (ws group only): "read" loads the
                           source, "write" stores the destination, "ntwrite" streams
                           it; what a copy or memset at that level can approach */
};
/* A peer: what libfastcopy is measured against (the system C library and the
 * --with libraries that are not libfastcopy). */
#define FCB_IS_PEER(flags) (((flags) & (FCB_I_LIBC | FCB_I_WITH)) && !((flags) & FCB_I_OURS))

struct fcb_impl {
    char name[24];
    int func;           /* enum fcb_func */
    int kind;           /* enum fcb_kind */
    int flags;          /* enum fcb_impl_flags */
    void (*fn)(void);
};

struct fcb_op {
    uint32_t doff, soff, n;
};

struct fcb_case {
    char name[64];
    int func;
    const char *group;
    const char *key;    /* points into name: the part after "<func>/<group>/" */
    size_t size;        /* bytes per call (the mean for the size mixes) */
    long param;         /* distance for dist/overlap, else 0 */
    int cold;           /* no warm-up before a sample */
    int user;           /* user-copy group: only libc, auto and the user impls */
    int fault;          /* every call faults: only the user impls */
    int mix;            /* size mix: the empty impl joins */
    int mix_default;    /* the mix at the default (unlearnable) sequence length */
    int readback;       /* read the last byte written after each call (mixread) */
    int chain;          /* each call's input depends on the last one's output (chain) */
    int chain_w;        /* chain: the caller's store and load width in bytes; 0 = the
                           largest power of two up to min(size, 8) */
    int prog;           /* enum fcb_prog: a program's calling pattern (prog group) */
    unsigned char *sbase, *dbase;
    struct fcb_op *ops;
    size_t nops, cursor;
};

/* The prog group's patterns (fcb_prog.c runs them; fcb_cases.c lays out their ops). */
enum fcb_prog {
    FCB_PROG_NONE,
    FCB_PROG_SQLITE,    /* page copies from a region walked in address order, each
                           followed by a load of the next page's header, on which the
                           next copy's source address depends */
    FCB_PROG_LZ4,       /* large copies into one output buffer, then read in full */
    FCB_PROG_FRESH,     /* the caller writes the source, copies it, reads the copy */
};

struct fcb_item {
    int c, i;           /* case and impl indices */
    uint64_t iters;     /* calls per sample, from calibration */
    double *ns;         /* ns per call, one per round */
    int nsamples;
};

struct fcb_config {
    int quick;
    int rounds;                 /* 0 = default for the mode */
    double sample_us;           /* target time of one sample; 0 = default */
    const char *funcs;          /* comma list filter, NULL = all */
    const char *groups;         /* comma list of groups, NULL = all */
    const char *cases;          /* comma list of fnmatch patterns on case names */
    const char *impls;          /* comma list of impl names */
    size_t max_size;            /* 0 = default (256 MiB, --quick 1 MiB) */
    size_t l1, l2, l3;          /* 0 = detect */
    int cpu;                    /* -1 = the CPU we start on */
    uint64_t seed;
    int verbose;
    int progress;               /* 1 = lines on stderr, -1 = never */
    const char *dist_dir;       /* load the size mixes from here instead */
    size_t mix_ops;             /* calls per size-mix sequence (default 65536) */
    size_t mix_align;           /* size-mix offsets are multiples of this (default 1) */
    int libc_twice;             /* self-test: add "libc2", the libc functions again */
    int tune;                   /* --tune: build the "tune" group (fcb_tune.c) */
#define FCB_MAX_WITH 8
    const char *with[FCB_MAX_WITH]; /* --with LIB[=NAME]: other libraries to time */
    int nwith;
#define FCB_MAX_DISTS 32
    const char *dists[FCB_MAX_DISTS]; /* --dist FILE...: replay these size mixes instead */
    int ndists;
};

struct fcb_cache {
    size_t l1, l2, l3;
    const char *src_l1, *src_l2, *src_l3;  /* "sysfs", "sysconf", "default", "flag" */
};

struct fcb_state {
    struct fcb_config cfg;
    struct fcb_cache cache;
    struct fcb_impl *impls;
    int nimpls;
    struct fcb_case *cases;
    int ncases;
    struct fcb_item *items;
    int nitems;
    int cpu;                    /* pinned CPU, -1 when pinning failed */
    const char *libc_how;       /* how the libc functions were found */
    char with_how[FCB_MAX_WITH][320]; /* "NAME = path (memcpy memmove memset)" */
    char dropin_how[320];       /* the shared object behind "dropin", "" = none */
};

/* Option parsing shared by both front ends.  Returns the number of argv entries
 * consumed at argv[*k] (0 = not ours, -1 = error, message printed). */
void fcb_config_default(struct fcb_config *c);
/* Messages: "<fcb_prog>: ..." on stderr (fcb_prog = "fcbench" unless a front end
 * sets its own name). */
extern const char *fcb_prog;
void fcb_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* One line for the header when this CPU is AMD's (or Hygon's), does not report
 * TopologyExtensions and its cache-topology leaf 0x8000001D reads zeros
 * (leaf_filled: subleaf 0 names a cache), NULL otherwise: a peer that sizes its
 * thresholds from that leaf is then misconfigured (fcb_cpunote.c). */
const char *fcb_topology_note(int amd, int topoext, int leaf_filled);

/* A comma list of implementation names with each former variant name replaced by
 * the variant's current one (fcb_names.c); list itself when none is. */
const char *fcb_current_names(const char *list);
int fcb_config_arg(struct fcb_config *c, int argc, char **argv, int *k);
void fcb_config_usage(void);
/* The option values that can be checked before anything is set up: --func,
 * --group and --impl names, --dist-dir.  0, or -1 after one line on stderr
 * naming the bad value (the front ends then exit with status 2). */
int fcb_config_check(const struct fcb_config *c);

/* Builds impls, cases and items from the config; pins the CPU.  0 on success;
 * FCB_EUSAGE when the options select nothing or name what cannot be used (a
 * --case pattern that matches no case, a --with library, --cpu N), after one
 * line on stderr; -1 on any other failure. */
#define FCB_EUSAGE (-2)
int fcb_setup(struct fcb_state *st);
void fcb_teardown(struct fcb_state *st);
/* Drops items for which keep(item) returns 0. */
void fcb_filter_items(struct fcb_state *st, int (*keep)(const struct fcb_state *, int));

/* Runs `iters` calls of item `it`, returns elapsed ns (CLOCK_MONOTONIC). */
double fcb_run(struct fcb_state *st, struct fcb_item *it, uint64_t iters);
/* The same, untimed (the Google Benchmark front end times it). */
void fcb_exec(struct fcb_state *st, struct fcb_item *it, uint64_t iters);
/* Untimed warm-up for hot cases (no-op for cold ones). */
void fcb_warm(struct fcb_state *st, struct fcb_item *it);
/* Picks iters so that one sample takes about target_ns. */
void fcb_calibrate(struct fcb_state *st, struct fcb_item *it, double target_ns);
double fcb_now_ns(void);

const char *fcb_func_name(int f);
const char *fcb_arch(void);

/* Embedded size distributions (bench/distributions/NAME.csv, byte for byte). */
struct fcb_dist {
    const char *name;   /* file name without .csv, e.g. "MemcpyGoogleA" */
    const char *text;
    size_t len;
};
extern const struct fcb_dist fcb_dists[];

/* The "tune" group's sizes (built only for --tune): the cut-over grid (hot/N,
 * cold/N and memcpy alias/N), the large sizes for the non-temporal threshold
 * (hot/N, cold/N while the cold region holds 4 slots), and memset small/N. */
size_t fcb_tune_sizes(int quick, int which, const size_t **sizes);
enum { FCB_TUNE_GRID, FCB_TUNE_LARGE, FCB_TUNE_SMALL };
/* A cut-over's sizes (fcb_tune.c) may also be the grid followed by the large sizes
 * below the policy's nt_start (the second rep stosb window lies there); not a
 * set of its own for fcb_tune_sizes, whose cases those two already are. */
#define FCB_TUNE_GRID_BELOW_NT 3
extern const size_t fcb_ndists;

/* ---- machine-limit kernels (fcb_limits.c; the ws group's read/write/ntwrite) ------ */
void *fcb_limit_read_copy(void *d, const void *s, size_t n);
void *fcb_limit_write_copy(void *d, const void *s, size_t n);
void *fcb_limit_ntwrite_copy(void *d, const void *s, size_t n);
void *fcb_limit_read_set(void *d, int c, size_t n);
void *fcb_limit_write_set(void *d, int c, size_t n);
void *fcb_limit_ntwrite_set(void *d, int c, size_t n);

/* ---- the chain group's wide callers (fcb_chain.c) ------------------------------- *
 * A caller that stores its value at src with one w-byte vector store and loads the
 * result at dst with one w-byte vector load, w = 16 or 32.  fcb_chain_wide_usable:
 * 1 when this CPU has such an access (x86_64: 16 always, 32 with AVX2; aarch64: 16).
 * The loops return the last value, for the caller's sink. */
int fcb_chain_wide_usable(size_t w);
unsigned fcb_chain_copy_wide(void *(*fn)(void *, const void *, size_t), unsigned char *dst,
                             unsigned char *src, size_t n, size_t w, uint64_t iters,
                             unsigned seed);
unsigned fcb_chain_set_wide(void *(*fn)(void *, int, size_t), unsigned char *dst, size_t n,
                            size_t w, uint64_t iters, unsigned seed);

/* ---- the prog group's callers (fcb_prog.c) --------------------------------------- *
 * The group's cases, in table order (fcb_prog.c says what each pattern does and
 * where its buffers lie): the pattern, the key ("sqlite", "lz4/65536"), the bytes
 * per call, sqlite's page stride, and whether --quick has it.  fcb_prog_nops: how
 * many ops the case needs over a source region of `region` bytes (0: none fits);
 * fcb_prog_layout fills them.  fcb_prog_exec: iters steps of case c's pattern
 * (c->prog) with fn as its memcpy, from c->cursor on. */
struct fcb_prog_def {
    int prog;
    const char *key;
    size_t n, stride;
    int quick;
};
extern const struct fcb_prog_def fcb_prog_defs[];
extern const size_t fcb_nprog_defs;
/* How many bytes of each arena the group reaches with sqlite's pages over
 * `region` bytes. */
size_t fcb_prog_arena(size_t region);
size_t fcb_prog_nops(const struct fcb_prog_def *p, size_t region);
void fcb_prog_layout(const struct fcb_prog_def *p, struct fcb_op *ops, size_t nops);
void fcb_prog_exec(struct fcb_case *c, void *(*fn)(void *, const void *, size_t),
                   uint64_t iters);

/* ---- statistics (fcb_stats.c) ---------------------------------------------------- */
struct fcb_summary {
    int n;
    double median, q1, q3, min, max, mean, sd;
};
void fcb_summarize(const double *x, int n, struct fcb_summary *s);
/* Two-sided Student t quantile t_{df, 1-alpha/2} for alpha = 0.05. */
double fcb_t975(int df);
/* ministat's comparison: difference of means (a - b), pooled-variance Student t,
 * 95% interval [lo, hi].  Returns 1 when the interval excludes zero ("difference
 * proven"), 0 when it contains zero ("no difference proven"), -1 when n < 2. */
int fcb_compare(const double *a, int na, const double *b, int nb, double *diff,
                double *lo, double *hi);
/* The paired form, for samples taken in pairs (a[k] and b[k] measured together,
 * e.g. in the same process of `fcbench --processes`): the ratios a[k] / b[k], the
 * mean of their logarithms and its 95% Student t interval with n - 1 degrees of
 * freedom, so that what scales both samples of a pair alike (a slow phase of the
 * machine) cancels; diff, lo and hi are that mean and interval as ns per call at
 * b's median ((ratio - 1) x median of b).  Same return values; -1 also for a
 * sample <= 0. */
int fcb_compare_paired(const double *a, const double *b, int n, double *diff, double *lo,
                       double *hi);

/* What fcbench calls "proven" (docs/performance.md, "How fcbench decides"): a
 * comparison of a against b is a Student t estimate of how much a's time differs
 * from b's, tested against a band of +-margin around "the same" (not against zero),
 * and the tests of one family (one implementation against one baseline over every
 * cell of the run; or the groups of such a pair) are corrected together by
 * Benjamini-Hochberg.  A fcb_cmp holds one estimate on its scale: x = mean(a) /
 * mean(b) - 1 with its standard error (unpaired, one process's rounds), or x =
 * the mean of log(a[k] / b[k]) (paired by process, or per-round group means). */
struct fcb_cmp {
    double x, se;
    int df;
    int log;        /* x is a mean log ratio */
    double base;    /* b's ns per call: its mean (unpaired) or median (paired) */
};
/* 0, or -1 (and x = NAN) when there are fewer than 2 samples or one is <= 0. */
int fcb_cmp_unpaired(const double *a, int na, const double *b, int nb, struct fcb_cmp *c);
int fcb_cmp_paired(const double *a, const double *b, int n, struct fcb_cmp *c);
int fcb_cmp_logs(const double *l, int n, struct fcb_cmp *c);
/* p-value of "a / b lies outside [1/(1+margin), 1+margin]", two-sided convention
 * (p <= alpha exactly when the 1-alpha interval lies outside the band); *dir = 1
 * for the side above (a slower), -1 below (a faster).  NAN when x is. */
double fcb_cmp_p(const struct fcb_cmp *c, double margin, int *dir);
/* The same for one side: "a / b > ratio". */
double fcb_cmp_p_above(const struct fcb_cmp *c, double ratio);
/* The interval of a / b at this confidence level (e.g. 0.95). */
void fcb_cmp_interval(const struct fcb_cmp *c, double level, double *lo, double *hi);
/* Benjamini-Hochberg step-up at level q over p[0..n-1] (NAN entries are not
 * tests): sets reject[i], returns how many are rejected.  Every rejected p is <= q
 * R / M and every other above it (R rejected of M tests), so "rejected" is "the
 * interval at level 1 - q max(R, 1) / M lies outside the band". */
int fcb_bh(const double *p, int n, double q, unsigned char *reject);
/* Student t: P(T > t) with df degrees of freedom, and the p-quantile. */
double fcb_t_sf(double t, int df);
double fcb_t_quantile(double p, int df);

/* ---- pass/fail targets (fcb_targets.c; `fcbench --targets`) ------------------------ *
 * One row per speed target: which cases (shell pattern on the case name, optionally
 * a size range), which impl against which baseline impl, and the bound.  `fcbench
 * --targets` runs only the cases the table needs and prints one PASS/FAIL line per
 * row; a new target is one more row. */
enum fcb_target_kind {
    FCB_T_DIFF_NS,      /* median(impl) - median(base) <= limit ns, in every case */
    FCB_T_RATIO,        /* median(impl) / median(base) <= limit, in every case */
    FCB_T_GEO_RATIO,    /* geometric mean over the cases of that ratio <= limit */
    FCB_T_ABS_NS,       /* median(impl) <= limit ns, in every case */
    FCB_T_MIN_GBPS,     /* bytes per call / median(impl) >= limit GB/s, in every case */
    FCB_T_FLOOR_RATIO,  /* (median(impl) - median(empty)) / (median(base) -
                           median(empty)) <= limit, in every case: the time each
                           function takes above the empty-call floor */
    /* Against the best peer: per case, the fastest (lowest median) of libc and the
     * --with libraries.  base is ignored. */
    FCB_T_PEER_RATIO,   /* median(impl) / median(best peer) <= limit, in every case */
    FCB_T_PEER_FLOOR,   /* (median(impl) - median(empty)) / (median(best peer) -
                           median(empty)) <= limit: time above the call floor */
    FCB_T_PEER_MAX,     /* median(impl) / median(best peer) <= limit in every case:
                           the figure itself, proven or not */
    /* Against every peer, each on its own PASS/FAIL line: the geometric mean over
     * the cases of median(impl) / median(peer) <= limit.  base is ignored. */
    FCB_T_EACH_PEER_GEO,
    /* Against this machine's limit, measured in the same run by the limit kernels:
     * bytes / median(impl) >= limit x bytes / max(read, min(write, ntwrite)) (a copy;
     * memset: min(write, ntwrite)). */
    FCB_T_LIMIT_FRAC,
};
struct fcb_target {
    const char *id;         /* short, stable: "usercopy-small" */
    const char *source;     /* where the target comes from: the contract or goal */
    const char *cases;      /* comma list of shell patterns on case names */
    size_t min_size, max_size;  /* only cases with min <= size <= max (0 = no max) */
    const char *impl, *base;    /* impl names; base "libc", "auto", ... */
    int kind;
    double limit;
    const char *what;       /* one line for humans */
    long mix_ops;           /* size mixes of one regime only: N = sequences of N calls
                               replayed, FCB_MIX_RANDOM = the default sequence when it
                               is longer than 4096 calls (random order); 0 = any */
};
#define FCB_MIX_RANDOM (-1L)
extern const struct fcb_target fcb_targets[];
extern const size_t fcb_ntargets;

#ifdef __cplusplus
}
#endif
#endif
