/* trace.c - libfastcopy-trace.so: the drop-in names of libfastcopy.so, each
 * counting its call before it calls the variant libfastcopy.so would have called
 * (the same resolvers: exports.c built with FC_TRACE_BUILD binds each name to a
 * hidden IFUNC fc_traced_<name>).  libfastcopy.so itself is not touched: it keeps
 * its zero-overhead entries.
 *
 * The call path (every exported name; src/exports.def lists them):
 *   - the thread's counters through one initial-exec TLS pointer.  A thread's
 *     first call claims one of FCT_NSLOTS static slots with an atomic add; when
 *     they are all taken, the thread counts into one shared slot with atomic adds
 *     (exact, slower).  No lock, no allocation, no system call, no libc call;
 *   - plain increments: the size bucket (trace.h) and, above 4096, its bytes and
 *     the largest size; src modulo 64; dst modulo 64 and the distance class of
 *     the copies in one counter; calls and bytes of the names other than memcpy,
 *     memmove and memset (theirs are the rest of their function's); and the
 *     call site: the return address in a small open-addressing table per thread
 *     (FCT_NSITES entries; a site found in the entry it hashes to is counted
 *     inline, the others out of line within FCT_PROBES entries; calls from sites
 *     that find no room are counted as "other sites");
 *   - then a tail call of the variant (x86_64 with avx512 selected: a direct
 *     jump into it, as libfastcopy.so's own entries).
 *   Measured on the Emerald Rapids VM: see README.md ("Which sizes does my
 *   program copy?") for the cost per call in fcbench; 40 instructions per 16-byte
 *   memcpy in all (callgrind), against 63 in a first version that had one more
 *   alignment histogram, a stop flag and branchy distance classes.
 * The counters are plain (not atomic) in a thread's own slot: a signal handler
 * that copies while its thread is in the middle of an increment can lose that
 * one count.
 *
 * At exit (a destructor): counting stops (for the exiting thread and for every
 * later caller: its calls take the slow path, which sees fct_stopped), the
 * slots are summed, the sites
 * resolved with dladdr1 (object, offset, symbol), and the process writes
 *   PREFIX.PID.trace   every count (read back by fastcopy-trace to merge processes)
 *   PREFIX.PID.txt     the summary (trace_report.c)
 *   PREFIX.PID.memcpy.csv, .memmove.csv, .memset.csv  the size distributions
 * with PREFIX from FCTRACE_PREFIX (default "fastcopy-trace"; a PREFIX ending in
 * '/' is a directory: PREFIX/PID.trace, ...).  At start each process creates
 * PREFIX.PID.running and removes it after writing: a process that ends by
 * _exit() or a signal writes nothing, and its .running file says so; one that
 * execs another program writes nothing either, and the new image, finding the
 * file, counts it as lost in its own.
 * After fork() the child starts from zero counters (pthread_atfork), with its own
 * pid.  Nothing here is written to stdout or stderr, except one line on stderr
 * when the files cannot be written.
 *
 * Environment (read once, in the constructor; not FASTCOPY_*: the library's own
 * overrides refuse unknown names of that prefix):
 *   FCTRACE_PREFIX        where the files go (above)
 *   FCTRACE_THREAD_SLOTS  at most this many threads get their own counters
 *                         (1..FCT_NSLOTS; for the tests of the shared slot) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include "trace.h"

char *strerror(int); /* (no <string.h>: it declares the names defined here) */

#define FCT_NSLOTS 64
#define FCT_NSITES 2048 /* per slot; a power of two */
#define FCT_PROBES 8
_Static_assert(FCT_NNAMES <= 16, "a site key holds the name in 4 bits");
_Static_assert(sizeof(uintptr_t) == 8, "site keys need 64-bit addresses");
_Static_assert(FCT_SUB == 16, "fct_bucket shifts by k - 4");

struct fct_site_slot {
    uint64_t calls, bytes; /* 32-byte entries: never across a cache line */
    uintptr_t key;         /* FCT_KEY: return address and name; 0 = free */
    uint64_t pad;
} __attribute__((aligned(32)));

/* One function's counters in a thread's slot: fewer increments per call than
 * struct fct_hist holds (fct_add_slot converts): the dst alignment and the
 * distance class share one counter (memset: class 0). */
struct fct_fhist {
    uint64_t calls[FCT_NBUCKETS];
    uint64_t bytes[FCT_NRANGED];
    uint64_t max;
    uint64_t src[64];
    uint64_t dst[FCT_NDIST][64];
};

struct fct_slot {
    struct fct_fhist h[FC_NFUNCS];
    /* the names other than memcpy, memmove, memset (those are the rest of their
     * function's calls) */
    uint64_t name_calls[FCT_NNAMES], name_bytes[FCT_NNAMES];
    uint64_t other_calls, other_bytes;
    struct fct_site_slot site[FCT_NSITES];
};

static struct fct_slot fct_slots[FCT_NSLOTS];
static struct fct_slot fct_shared;
static unsigned fct_nslots = FCT_NSLOTS; /* FCTRACE_THREAD_SLOTS lowers it */
static unsigned fct_nclaimed;            /* threads that asked for a slot */
static unsigned fct_nshared;             /* of them, sent to fct_shared */
static int fct_stopped;
/* The thread's slot; NULL before its first call and for the threads on fct_shared
 * (fct_on_shared), so that the common case is one test. */
static __thread struct fct_slot *fct_self __attribute__((tls_model("initial-exec")));
static __thread char fct_on_shared __attribute__((tls_model("initial-exec")));

static char fct_prefix[4096] = "fastcopy-trace";

/* The variants, bound by exports.c's resolvers (FC_TRACE_BUILD). */
#define FCT_DECL(ret, name, params, kind) FC_HIDDEN ret fc_traced_##name params;
#define FCT_DECL_F(ret, name, params, kind, kernel) FCT_DECL(ret, name, params, kind)
FC_EXPORT_LIST(FCT_DECL, FCT_DECL_F)

#if defined(__x86_64__)
/* memcpy, memmove, memset on x86_64: when the selected variant is the kernel
 * exports.def names for the fall-through entry (avx512), a direct jump to it
 * rather than through the IFUNC's PLT slot, as libfastcopy.so does (measured:
 * the two jumps cost ~0.5 ns per call here).  fct_direct_<name> is set on the
 * first call of each thread, before that thread takes the fast path. */
#define FCT_DIRECT 1
#define FCT_KDECL(ret, name, params, kind)
#define FCT_KDECL_F(ret, name, params, kind, kernel)                                  \
    FC_HIDDEN ret kernel params;                                                     \
    static unsigned char fct_direct_##name;
FC_EXPORT_LIST(FCT_KDECL, FCT_KDECL_F)
#define FCT_KSET(ret, name, params, kind)
#define FCT_KSET_F(ret, name, params, kind, kernel)                                   \
    __atomic_store_n(&fct_direct_##name, (void *)fc_traced_##name == (void *)kernel,   \
                     __ATOMIC_RELAXED);
#else
#define FCT_DIRECT 0
#endif

/* ---- the call path --------------------------------------------------------------- */

/* A thread's first call: its own slot, or the shared one when none is left. */
static struct fct_slot *fct_claim(void)
{
#if FCT_DIRECT
    FC_EXPORT_LIST(FCT_KSET, FCT_KSET_F)
#endif
    unsigned i = __atomic_fetch_add(&fct_nclaimed, 1, __ATOMIC_RELAXED);
    if (i < __atomic_load_n(&fct_nslots, __ATOMIC_RELAXED))
        return fct_self = &fct_slots[i];
    __atomic_fetch_add(&fct_nshared, 1, __ATOMIC_RELAXED);
    fct_on_shared = 1;
    return NULL;
}

#define FCT_ADD(shared, lv, v)                                                       \
    do {                                                                             \
        if (shared)                                                                  \
            __atomic_fetch_add(&(lv), (v), __ATOMIC_RELAXED);                        \
        else                                                                         \
            (lv) += (v);                                                             \
    } while (0)

#define FCT_PRIMARY(id, f)                                                           \
    ((f) == FC_MEMCPY ? (id) == FCT_ID_memcpy : (f) == FC_MEMMOVE ? (id) == FCT_ID_memmove \
                                                                 : (id) == FCT_ID_memset)

/* Everything but the call site.  (The order keeps few values live at once: with
 * the class computed last, GCC 12 hoisted its terms and spilled four registers.) */
static inline __attribute__((always_inline)) void
fct_count_hist(struct fct_slot *t, const int shared, unsigned id, int f, uintptr_t d,
               uintptr_t s, size_t n)
{
    struct fct_fhist *h = &t->h[f];
    if (f != FC_MEMSET) {
        FCT_ADD(shared, h->dst[fct_dist_class(d, s, n)][d & 63], 1);
        FCT_ADD(shared, h->src[s & 63], 1);
    } else {
        FCT_ADD(shared, h->dst[0][d & 63], 1);
    }
    unsigned b = fct_bucket(n);
    FCT_ADD(shared, h->calls[b], 1);
    if (__builtin_expect(b >= FCT_NEXACT, 0)) {
        FCT_ADD(shared, h->bytes[b - FCT_NEXACT], n);
        if (shared) {
            uint64_t m = __atomic_load_n(&h->max, __ATOMIC_RELAXED);
            while (n > m && !__atomic_compare_exchange_n(&h->max, &m, n, 1, __ATOMIC_RELAXED,
                                                         __ATOMIC_RELAXED))
                ;
        } else if (n > h->max) {
            h->max = n;
        }
    }
    if (!FCT_PRIMARY(id, f)) {
        FCT_ADD(shared, t->name_calls[id], 1);
        FCT_ADD(shared, t->name_bytes[id], n);
    }
}

/* A site's key: the return address, and the name in bits 58..61 (user-space
 * addresses are below 2^57 on x86_64, aarch64 and riscv64): a constant per
 * wrapper, nothing to compute for memcpy.  The return addresses of two calls are
 * at least 4 bytes apart. */
#define FCT_KEY(ra, id) ((uintptr_t)(ra) | (uintptr_t)(id) << 58)
#define FCT_KEY_RA(key) ((key) & (((uintptr_t)1 << 58) - 1))
#define FCT_KEY_ID(key) ((unsigned)((key) >> 58))

/* The entry a site hashes to: the low bits of its return address (calls are at
 * least 4 bytes apart; call sites near each other, as in one hot loop, get
 * different entries), and its name (one call instruction through a function
 * pointer may reach several: fcbench's loop does).  The multiplicative hash this
 * replaces cost three instructions on every call. */
static inline __attribute__((always_inline)) unsigned fct_site_hash(uintptr_t ra, unsigned id)
{
    return ((unsigned)(ra >> 2) ^ id) & (FCT_NSITES - 1);
}
/* The same entry, written so that the compiler needs an and and a scaled index
 * (entries are 32 bytes): (ra ^ id << 2) & (N - 1) << 2, times 8. */
static inline __attribute__((always_inline)) struct fct_site_slot *
fct_site_entry(struct fct_slot *t, uintptr_t ra, unsigned id)
{
    uintptr_t off = (ra ^ (uintptr_t)id << 2) & ((uintptr_t)(FCT_NSITES - 1) << 2);
    return (struct fct_site_slot *)((char *)t->site + off * 8);
}
_Static_assert(sizeof(struct fct_site_slot) == 32, "fct_site_entry scales by 8");

/* The call site: its entry, or a free one, within FCT_PROBES entries of its hash. */
static inline __attribute__((always_inline)) void fct_count_site(struct fct_slot *t,
                                                                 const int shared,
                                                                 uintptr_t key, size_t n)
{
    unsigned i = fct_site_hash(FCT_KEY_RA(key), FCT_KEY_ID(key));
    for (int p = 0; p < FCT_PROBES; p++, i = (i + 1) & (FCT_NSITES - 1)) {
        struct fct_site_slot *e = &t->site[i];
        uintptr_t k = shared ? __atomic_load_n(&e->key, __ATOMIC_RELAXED) : e->key;
        if (k == 0) {
            if (!shared) {
                e->key = key;
                e->calls = 1;
                e->bytes = n;
                return;
            }
            if (__atomic_compare_exchange_n(&e->key, &k, key, 0, __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED))
                k = key;
        }
        if (k == key) {
            FCT_ADD(shared, e->calls, 1);
            FCT_ADD(shared, e->bytes, n);
            return;
        }
    }
    FCT_ADD(shared, t->other_calls, 1);
    FCT_ADD(shared, t->other_bytes, n);
}


/* The common case (own slot): the histograms, and the site when it is in the
 * entry it hashes to.  Returns 0 when all is counted, 1 when the
 * site is still to count (fct_count_site, out of line). */
static inline __attribute__((always_inline)) int fct_count_fast(struct fct_slot *t, unsigned id,
                                                                int f, uintptr_t d, uintptr_t s,
                                                                size_t n, uintptr_t ra)
{
    fct_count_hist(t, 0, id, f, d, s, n);
    uintptr_t key = FCT_KEY(ra, id);
    struct fct_site_slot *e = fct_site_entry(t, ra, id);
    if (__builtin_expect(e->key != key, 0))
        return 1;
    /* two scalar adds (trace.c is built without SLP vectorisation, which made
     * a 16-byte add of them with four instructions of setup) */
    e->calls += 1;
    e->bytes += n;
    return 0;
}

/* Not the common case: the thread's first call, or a thread on fct_shared. */
static __attribute__((noinline, cold)) void fct_count_slow(unsigned id, int f, uintptr_t d,
                                                           uintptr_t s, size_t n, uintptr_t ra)
{
    if (__atomic_load_n(&fct_stopped, __ATOMIC_RELAXED))
        return;
    struct fct_slot *t = fct_on_shared ? NULL : fct_claim();
    if (t) {
        fct_count_hist(t, 0, id, f, d, s, n);
        fct_count_site(t, 0, FCT_KEY(ra, id), n);
    } else {
        fct_count_hist(&fct_shared, 1, id, f, d, s, n);
        fct_count_site(&fct_shared, 1, FCT_KEY(ra, id), n);
    }
}

/* The rest of the common case: a site not in its first entry. */
static __attribute__((noinline)) void fct_count_site_own(uintptr_t key, size_t n)
{
    fct_count_site(fct_self, 0, key, n);
}

/* The exported names: count, then the variant (a tail call).  The common case
 * (the thread has its own slot, counting is on) makes no call before that jump;
 * everything else goes through fct_slow_<name>.  Per argument layout
 * (exports.def, FC_KIND_ARGS_<kind>): the parameters, the call's arguments, and
 * which of them are dst, src and the size. */
#define FCT_UNPAREN(...) __VA_ARGS__
#define FCT_FAST(t) __builtin_expect((t) != NULL, 1)
#define FCT_DEFINE(ret, name, f, params, args, d, s, n, direct, kernel)             \
    static __attribute__((noinline, cold)) ret fct_slow_##name(FCT_UNPAREN params, void *ra) \
    {                                                                                \
        fct_count_slow(FCT_ID_##name, f, (uintptr_t)(d), (uintptr_t)(s), n, (uintptr_t)ra); \
        return fc_traced_##name args;                                                \
    }                                                                                \
    static __attribute__((noinline)) ret fct_site_##name(FCT_UNPAREN params, void *ra) \
    {                                                                                \
        fct_count_site_own(FCT_KEY(ra, FCT_ID_##name), n);                            \
        return fc_traced_##name args;                                                \
    }                                                                                \
    FC_API ret name params                                                           \
    {                                                                                \
        struct fct_slot *t = fct_self;                                               \
        void *ra = __builtin_return_address(0);                                      \
        if (!FCT_FAST(t))                                                            \
            return fct_slow_##name(FCT_UNPAREN args, ra);                            \
        if (fct_count_fast(t, FCT_ID_##name, f, (uintptr_t)(d), (uintptr_t)(s), n,    \
                           (uintptr_t)ra))                                           \
            return fct_site_##name(FCT_UNPAREN args, ra);                            \
        if (direct)                                                                  \
            return kernel args;                                                      \
        return fc_traced_##name args;                                                \
    }
#define FCT_DEFINE_VOID(name, f, params, args, d, s, n)                              \
    static __attribute__((noinline, cold)) void fct_slow_##name(FCT_UNPAREN params, void *ra) \
    {                                                                                \
        fct_count_slow(FCT_ID_##name, f, (uintptr_t)(d), (uintptr_t)(s), n, (uintptr_t)ra); \
        fc_traced_##name args;                                                       \
    }                                                                                \
    static __attribute__((noinline)) void fct_site_##name(FCT_UNPAREN params, void *ra) \
    {                                                                                \
        fct_count_site_own(FCT_KEY(ra, FCT_ID_##name), n);                            \
        fc_traced_##name args;                                                       \
    }                                                                                \
    FC_API void name params                                                          \
    {                                                                                \
        struct fct_slot *t = fct_self;                                               \
        void *ra = __builtin_return_address(0);                                      \
        if (!FCT_FAST(t)) {                                                          \
            fct_slow_##name(FCT_UNPAREN args, ra);                                   \
            return;                                                                  \
        }                                                                            \
        if (fct_count_fast(t, FCT_ID_##name, f, (uintptr_t)(d), (uintptr_t)(s), n,    \
                           (uintptr_t)ra)) {                                         \
            fct_site_##name(FCT_UNPAREN args, ra);                                   \
            return;                                                                  \
        }                                                                            \
        fc_traced_##name args;                                                       \
    }

/* direct, kernel: for the names with a fall-through kernel (FCT_DIRECT) */
#define FCT_WRAP_COPY(ret, name, f, direct, kernel)                                  \
    FCT_DEFINE(ret, name, f, (void *d, const void *s, size_t n), (d, s, n), d, s, n, direct, \
               kernel)
#define FCT_WRAP_COPY_CHK(ret, name, f, direct, kernel)                              \
    FCT_DEFINE(ret, name, f, (void *d, const void *s, size_t n, size_t dn), (d, s, n, dn), \
               d, s, n, 0, fc_traced_##name)
#define FCT_WRAP_BCOPY(ret, name, f, direct, kernel)                                 \
    FCT_DEFINE_VOID(name, f, (const void *s, void *d, size_t n), (s, d, n), d, s, n)
#define FCT_WRAP_SET(ret, name, f, direct, kernel)                                   \
    FCT_DEFINE(ret, name, f, (void *d, int c, size_t n), (d, c, n), d, d, n, direct, kernel)
#define FCT_WRAP_SET_CHK(ret, name, f, direct, kernel)                               \
    FCT_DEFINE(ret, name, f, (void *d, int c, size_t n, size_t dn), (d, c, n, dn), d, d, n, \
               0, fc_traced_##name)
#define FCT_WRAP_ZERO(ret, name, f, direct, kernel)                                  \
    FCT_DEFINE_VOID(name, f, (void *d, size_t n), (d, n), d, d, n)
#define FCT_WRAP_ZERO_CHK(ret, name, f, direct, kernel)                              \
    FCT_DEFINE_VOID(name, f, (void *d, size_t n, size_t dn), (d, n, dn), d, d, n)
#define FCT_PASTE(a, b) FCT_PASTE_(a, b)
#define FCT_PASTE_(a, b) a##b
#define FCT_WRAP(ret, name, params, kind)                                            \
    FCT_PASTE(FCT_WRAP_, FC_KIND_ARGS_##kind)(ret, name, FC_KIND_FUNC_##kind, 0,       \
                                              fc_traced_##name)
#if FCT_DIRECT
#define FCT_WRAP_F(ret, name, params, kind, kernel)                                  \
    FCT_PASTE(FCT_WRAP_, FC_KIND_ARGS_##kind)(ret, name, FC_KIND_FUNC_##kind,         \
                                              __atomic_load_n(&fct_direct_##name,     \
                                                              __ATOMIC_RELAXED),      \
                                              kernel)
#else
#define FCT_WRAP_F(ret, name, params, kind, kernel) FCT_WRAP(ret, name, params, kind)
#endif
FC_EXPORT_LIST(FCT_WRAP, FCT_WRAP_F)

/* The API's fc_memcpy, fc_memmove, fc_memset: plain functions here (dispatch.c,
 * built with FC_TRACE_BUILD, keeps their IFUNCs hidden), not counted. */
FC_HIDDEN void *fc_traced_fc_memcpy(void *, const void *, size_t);
FC_HIDDEN void *fc_traced_fc_memmove(void *, const void *, size_t);
FC_HIDDEN void *fc_traced_fc_memset(void *, int, size_t);
FC_API void *fc_memcpy(void *d, const void *s, size_t n)
{
    return fc_traced_fc_memcpy(d, s, n);
}
FC_API void *fc_memmove(void *d, const void *s, size_t n)
{
    return fc_traced_fc_memmove(d, s, n);
}
FC_API void *fc_memset(void *d, int c, size_t n)
{
    return fc_traced_fc_memset(d, c, n);
}

/* ---- start, fork, exit ------------------------------------------------------------ */

/* PREFIX.PID<tag><suffix>, or PREFIX/PID... for a directory prefix. */
static void fct_path(char *buf, size_t cap, long pid, int tag, const char *suffix)
{
    size_t l = fc_strlen(fct_prefix);
    int dir = l && fct_prefix[l - 1] == '/';
    if (tag > 1)
        snprintf(buf, cap, "%s%s%ld-%d%s", fct_prefix, dir ? "" : ".", pid, tag, suffix);
    else
        snprintf(buf, cap, "%s%s%ld%s", fct_prefix, dir ? "" : ".", pid, suffix);
}

/* PREFIX.PID.running, holding 's' when a program image created it at start, 'f'
 * when a child of fork() did.  Found with an 's' at start: an earlier program
 * image of this pid ran and wrote nothing (it exec'd this one, or it ended by
 * _exit and the pid came round again), and this image's files count it as lost.
 * An 'f' is the forked copy that exec'd this image: its calls between fork and
 * exec are not counted, and nothing says so (a shell does that for every
 * command). */
static unsigned fct_lost;

static void fct_mark_running(char how)
{
    char path[4200], was = 0;
    fct_path(path, sizeof path, (long)getpid(), 1, ".running");
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 && errno == EEXIST && (fd = open(path, O_RDWR | O_CLOEXEC)) >= 0) {
        if (read(fd, &was, 1) == 1 && was == 's' && how == 's')
            fct_lost++;
        (void)!ftruncate(fd, 0);
        (void)!lseek(fd, 0, SEEK_SET);
    }
    if (fd >= 0) {
        (void)!write(fd, &how, 1);
        close(fd);
    }
}

static void fct_zero(struct fct_slot *t)
{
    uint64_t *p = (uint64_t *)t;
    for (size_t i = 0; i < sizeof *t / sizeof *p; i++)
        p[i] = 0;
}
_Static_assert(sizeof(struct fct_slot) % sizeof(uint64_t) == 0, "fct_zero");

/* In the child of fork(): it has only the forking thread; the counters start
 * from zero (the parent writes its own), and the thread claims slot 0 again on
 * its next call. */
static void fct_atfork_child(void)
{
    unsigned used = fct_nclaimed < fct_nslots ? fct_nclaimed : fct_nslots;
    for (unsigned i = 0; i < used; i++)
        fct_zero(&fct_slots[i]);
    if (fct_nshared)
        fct_zero(&fct_shared);
    fct_nclaimed = fct_nshared = 0;
    fct_self = 0;
    fct_on_shared = 0;
    fct_lost = 0;
    fct_mark_running('f');
}

__attribute__((constructor)) static void fct_init(void)
{
    /* Made absolute now: the process may change its directory before it exits. */
    const char *p = getenv("FCTRACE_PREFIX");
    if (!p || !*p)
        p = "fastcopy-trace";
    char cwd[2048];
    if (p[0] != '/' && getcwd(cwd, sizeof cwd) &&
        fc_strlen(cwd) + fc_strlen(p) + 2 < sizeof fct_prefix - 64) {
        fct_prefix[0] = 0;
        fc_strcat(fct_prefix, sizeof fct_prefix, cwd);
        fc_strcat(fct_prefix, sizeof fct_prefix, "/");
        fc_strcat(fct_prefix, sizeof fct_prefix, p);
    } else if (fc_strlen(p) < sizeof fct_prefix - 64) {
        fct_prefix[0] = 0;
        fc_strcat(fct_prefix, sizeof fct_prefix, p);
    }
    const char *ns = getenv("FCTRACE_THREAD_SLOTS");
    if (ns && *ns) {
        char *end;
        unsigned long v = strtoul(ns, &end, 10);
        if (!*end && v >= 1 && v <= FCT_NSLOTS)
            __atomic_store_n(&fct_nslots, (unsigned)v, __ATOMIC_RELAXED);
    }
    pthread_atfork(NULL, NULL, fct_atfork_child);
    fct_mark_running('s');
}

static void fct_add_slot(struct fct_report *r, const struct fct_slot *t)
{
    for (int f = 0; f < FC_NFUNCS; f++) {
        struct fct_hist *a = &r->h[f];
        const struct fct_fhist *b = &t->h[f];
        uint64_t calls = 0, bytes = 0;
        for (unsigned k = 0; k < FCT_NBUCKETS; k++) {
            a->calls[k] += b->calls[k];
            calls += b->calls[k];
            if (k < FCT_NEXACT)
                bytes += (uint64_t)k * b->calls[k];
        }
        for (unsigned k = 0; k < FCT_NRANGED; k++) {
            a->bytes[k] += b->bytes[k];
            bytes += b->bytes[k];
        }
        for (unsigned k = 0; k < 64; k++) {
            a->align[FCT_AL_SRC][k] += b->src[k];
            for (unsigned c = 0; c < FCT_NDIST; c++) {
                a->align[FCT_AL_DST][k] += b->dst[c][k];
                if (f != FC_MEMSET)
                    a->dist[c] += b->dst[c][k];
            }
        }
        if (b->max > a->max)
            a->max = b->max;
        /* memcpy, memmove, memset: their function's calls minus the other names' */
        unsigned primary = f == FC_MEMCPY ? FCT_ID_memcpy : f == FC_MEMMOVE ? FCT_ID_memmove
                                                                            : FCT_ID_memset;
        for (unsigned k = 0; k < FCT_NNAMES; k++)
            if (fct_name_func[k] == f && k != primary) {
                calls -= t->name_calls[k];
                bytes -= t->name_bytes[k];
            }
        r->name_calls[primary] += calls;
        r->name_bytes[primary] += bytes;
    }
    for (unsigned k = 0; k < FCT_NNAMES; k++)
        if (k != FCT_ID_memcpy && k != FCT_ID_memmove && k != FCT_ID_memset) {
            r->name_calls[k] += t->name_calls[k];
            r->name_bytes[k] += t->name_bytes[k];
        }
    r->other_calls += t->other_calls;
    r->other_bytes += t->other_bytes;
    for (unsigned k = 0; k < FCT_NSITES; k++) {
        const struct fct_site_slot *e = &t->site[k];
        if (!e->key || !e->calls)
            continue;
        uintptr_t ra = FCT_KEY_RA(e->key);
        unsigned id = FCT_KEY_ID(e->key);
        Dl_info di;
        struct link_map *lm = NULL;
        char sym[512] = "";
        const char *obj = "?";
        uint64_t off = ra;
        if (dladdr1((void *)ra, &di, (void **)&lm, RTLD_DL_LINKMAP) && lm) {
            off = ra - lm->l_addr;
            obj = lm->l_name && lm->l_name[0] ? lm->l_name : r->exe;
            if (di.dli_sname && di.dli_saddr)
                snprintf(sym, sizeof sym, "%s+0x%lx", di.dli_sname,
                         (unsigned long)(ra - (uintptr_t)di.dli_saddr));
        }
        fct_report_add_site(r, id, obj, off, sym, e->calls, e->bytes);
    }
}

static FILE *fct_open(const char *path, int excl)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (excl ? O_EXCL : O_TRUNC), 0644);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w");
    if (!f)
        close(fd);
    return f;
}

static void fct_error(const char *path, int err)
{
    char msg[4400];
    int n = snprintf(msg, sizeof msg, "libfastcopy-trace: cannot write %s: %s (the trace of "
                     "process %ld is lost)\n", path, strerror(err), (long)getpid());
    if (n > 0)
        (void)!write(2, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
}

__attribute__((destructor)) static void fct_fini(void)
{
    static const char *const func_suffix[FC_NFUNCS] = {".memcpy.csv", ".memmove.csv",
                                                       ".memset.csv"};
    if (__atomic_exchange_n(&fct_stopped, 1, __ATOMIC_ACQ_REL))
        return;
    /* This thread's later calls (stdio, dladdr, qsort below; other libraries'
     * destructors) take the slow path, which sees fct_stopped and only copies.
     * Threads still running go on counting into their slots while they are
     * summed: those late counts may or may not make it into the files. */
    fct_self = NULL;
    fct_on_shared = 0;
    long pid = (long)getpid();
    struct fct_report *r = fct_report_new();
    if (!r)
        return;
    r->pid = pid;
    r->nproc = 1;
    ssize_t l = readlink("/proc/self/exe", r->exe, sizeof r->exe - 1);
    r->exe[l > 0 ? l : 0] = 0;
    if (l <= 0)
        snprintf(r->exe, sizeof r->exe, "?");
    unsigned claimed = __atomic_load_n(&fct_nclaimed, __ATOMIC_ACQUIRE);
    unsigned used = claimed < fct_nslots ? claimed : fct_nslots;
    for (unsigned i = 0; i < used; i++)
        fct_add_slot(r, &fct_slots[i]);
    if (fct_nshared)
        fct_add_slot(r, &fct_shared);
    r->threads = claimed;
    r->shared_threads = fct_nshared;
    r->lost = fct_lost;

    char path[4200], run[4200];
    fct_path(run, sizeof run, pid, 1, ".running");
    FILE *f = NULL;
    int tag = 1, err = 0;
    for (; tag < 100; tag++) { /* a pid seen before in this tree: PID-2, ... */
        fct_path(path, sizeof path, pid, tag, ".trace");
        if ((f = fct_open(path, 1)) || errno != EEXIST)
            break;
    }
    if (!f) {
        fct_error(path, errno);
        fct_report_free(r);
        return;
    }
    if (fct_write_trace(f, r) | fclose(f))
        err = errno ? errno : EIO;
    for (int fn = 0; fn < FC_NFUNCS && !err; fn++) {
        if (!fct_func_calls(r, fn))
            continue;
        fct_path(path, sizeof path, pid, tag, func_suffix[fn]);
        if (!(f = fct_open(path, 0)) || (fct_write_dist(f, r, fn, r->exe) | fclose(f)))
            err = errno ? errno : EIO;
    }
    if (!err) {
        fct_path(path, sizeof path, pid, tag, ".txt");
        if (!(f = fct_open(path, 0)))
            err = errno;
        else {
            fct_write_summary(f, r, NULL);
            if (fclose(f))
                err = errno ? errno : EIO;
        }
    }
    if (err)
        fct_error(path, err);
    else
        unlink(run);
    fct_report_free(r);
}
