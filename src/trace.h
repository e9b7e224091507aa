/* trace.h - the counters of libfastcopy-trace.so (src/trace.c) and the report
 * built from them (src/trace_report.c), which the library writes at exit and
 * the fastcopy-trace tool (tools/fastcopy-trace.c) reads back, merges and prints.
 *
 * Sizes: every size 0..4096 has its own bucket; above that, each power of two
 * [2^k, 2^(k+1)) for k = 12..39 is cut into FCT_SUB equal sub-buckets (6.25%
 * wide), and one bucket holds every size from 2^40 up.  Per function (memcpy,
 * memmove, memset: each exported name counts for its function, exports.def):
 * calls per bucket, bytes per ranged bucket (exact buckets: size x calls), the
 * largest size, dst and src modulo 64, and for the copies the distance class
 * of dst against src.  Per exported name: calls and bytes.  Per
 * call site (return address, resolved at exit): calls and bytes. */
#ifndef FC_TRACE_H
#define FC_TRACE_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "fc_internal.h"
#include "exports.def"

#define FCT_NEXACT 4097                       /* sizes 0..4096 */
#define FCT_SUB 16                            /* sub-buckets per power of two */
#define FCT_LOG_LO 12                         /* first ranged power: 2^12 */
#define FCT_LOG_HI 40                         /* 2^40 and up: one bucket */
#define FCT_NRANGED ((FCT_LOG_HI - FCT_LOG_LO) * FCT_SUB + 1)
#define FCT_NBUCKETS (FCT_NEXACT + FCT_NRANGED)

/* dst against src, for memcpy and memmove (d = dst - src modulo 2^64). */
enum fct_dist {
    FCT_DIST_DISJOINT,  /* no overlap, not 4K-aliased; and every n == 0 */
    FCT_DIST_ALIAS,     /* no overlap, dst 0..255 bytes after src modulo 4096 */
    FCT_DIST_FWD,       /* overlap, dst below src (a forward copy is right) */
    FCT_DIST_BWD,       /* overlap, dst above src (needs a backward copy) */
    FCT_DIST_SAME,      /* dst == src */
    FCT_NDIST
};
enum fct_align { FCT_AL_DST, FCT_AL_SRC, FCT_NAL }; /* modulo 64 */

/* The exported names, in exports.def's order. */
#define FCT_NAME_ENUM(ret, name, params, kind) FCT_ID_##name,
#define FCT_NAME_ENUM_F(ret, name, params, kind, kernel) FCT_ID_##name,
enum { FC_EXPORT_LIST(FCT_NAME_ENUM, FCT_NAME_ENUM_F) FCT_NNAMES };
extern const char *const fct_names[FCT_NNAMES];
extern const unsigned char fct_name_func[FCT_NNAMES];

/* The bucket of size n. */
static inline unsigned fct_bucket(uint64_t n)
{
    if (__builtin_expect(n < FCT_NEXACT, 1))
        return (unsigned)n;
    unsigned k = 63 - (unsigned)__builtin_clzll(n);
    if (k >= FCT_LOG_HI)
        return FCT_NBUCKETS - 1;
    return FCT_NEXACT + (k - FCT_LOG_LO) * FCT_SUB + (unsigned)((n >> (k - 4)) & (FCT_SUB - 1));
}
/* The smallest and largest size of bucket b (the last one: up to 2^64 - 1). */
uint64_t fct_bucket_lo(unsigned b);
uint64_t fct_bucket_hi(unsigned b);

/* The class of a copy (n == 0: disjoint).  The common case costs one comparison:
 * dst - src + n <= 2n - 1 (unsigned) holds for every overlap (and for n == 0,
 * and for src right after dst); only then are the cases told apart. */
static inline unsigned fct_dist_class(uintptr_t dst, uintptr_t src, size_t n)
{
    uintptr_t d = dst - src;
    if (__builtin_expect(d + n <= 2 * n - 1, 0)) {
        if (n == 0)
            return FCT_DIST_DISJOINT;
        if (d == 0)
            return FCT_DIST_SAME;
        if (d < n)
            return FCT_DIST_BWD;
        if (-d < n)
            return FCT_DIST_FWD;
    }
    return (d & 0xf00) == 0 ? FCT_DIST_ALIAS : FCT_DIST_DISJOINT;
}

/* One function's counts. */
struct fct_hist {
    uint64_t calls[FCT_NBUCKETS];
    uint64_t bytes[FCT_NRANGED];        /* of the ranged buckets */
    uint64_t align[FCT_NAL][64];
    uint64_t dist[FCT_NDIST];
    uint64_t max;                       /* largest size */
};

struct fct_site {
    uint64_t calls, bytes;
    unsigned name;                      /* FCT_ID_* */
    uint64_t offset;                    /* of the return address in its object */
    char *object;                       /* path ("?" when unknown) */
    char *symbol;                       /* "sym+0x12", or "" */
};

/* What one process, or a merged tree of processes, recorded. */
struct fct_report {
    struct fct_hist h[FC_NFUNCS];
    uint64_t name_calls[FCT_NNAMES], name_bytes[FCT_NNAMES];
    uint64_t other_calls, other_bytes;  /* calls from sites the tables had no room for */
    struct fct_site *sites;
    size_t nsites, site_cap;
    unsigned nproc;                     /* processes merged */
    uint64_t threads, shared_threads;   /* threads that counted; of them, on the shared counters */
    uint64_t lost;                      /* program images before these, of the same pids,
                                           that wrote nothing (replaced by exec) */
    char exe[4096];                     /* one process: its executable; merged: a list of names */
    long pid;                           /* one process: its pid; merged: 0 */
};

struct fct_report *fct_report_new(void);
void fct_report_free(struct fct_report *r);
/* Adds a site (merging with an equal one: same name, object and offset). */
void fct_report_add_site(struct fct_report *r, unsigned name, const char *object,
                         uint64_t offset, const char *symbol, uint64_t calls, uint64_t bytes);
/* Adds every count of src to dst; the executable's base name joins dst's list. */
void fct_report_merge(struct fct_report *dst, const struct fct_report *src);
uint64_t fct_func_calls(const struct fct_report *r, int f);
uint64_t fct_func_bytes(const struct fct_report *r, int f);

/* The machine-readable per-process file (".trace"): write, and read back (0, or
 * -1 with a message "line N: ..." in err). */
int fct_write_trace(FILE *f, struct fct_report *r);
int fct_read_trace(FILE *f, struct fct_report *r, char *err, size_t errcap);
/* The size distribution of function f in bench/distributions' format, extended
 * (see the comment in trace_report.c); `source` goes into its comment line.
 * The writers sort and merge r's sites first. */
int fct_write_dist(FILE *f, const struct fct_report *r, int f_, const char *source);
/* The summary a person reads.  `note` (may be NULL) is printed after the head line. */
void fct_write_summary(FILE *f, struct fct_report *r, const char *note);

#endif
