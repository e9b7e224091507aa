/* usercopy.c - fc_copy_user / fc_clear_user: the kernel's user-copy contract
 * ("returns the bytes NOT copied", exact) in user space.
 *
 * Fast path: one jump buffer without the signal mask (UC_GUARDED: our own on
 * x86_64, sigsetjmp(env, 0) elsewhere; no signal-mask system call), a record of the
 * copy made the thread's current one in initial-exec TLS (TLS descriptors under
 * musl; the one it interrupted, when a signal handler copies during a copy, is
 * kept in a local and made current again after), and the dispatched fc_memcpy /
 * fc_memset.  Nothing else happens when nothing faults.
 *
 * On a fault our SIGSEGV/SIGBUS handler finds the calling thread's innermost
 * record; when the faulting address lies in that copy's source or destination
 * pages and the signal came from the kernel (not raise/kill/sigqueue), it
 * restores the signal mask of the interrupted code and jumps back.  The
 * variant kernels do not store in ascending order, so the exact count is then
 * computed by redoing the copy in chunks that each lie in one source page and one
 * destination page: the first chunk that faults (or that holds a page known to
 * fail from the first attempt) starts at k, because faults are page-granular.
 * Overlapping buffers (dst == src included) go another way: the pages are touched
 * first, in ascending order, and only the prefix found accessible is moved (see
 * uc_overlap).
 *
 * Every other SIGSEGV/SIGBUS is passed on to the disposition that was installed
 * before ours: its handler is called with the same siginfo and context (and its
 * sa_mask / SA_NODEFER / SA_RESETHAND emulated); for SIG_DFL (and SIG_IGN, which
 * the kernel does not honour for a fault) the default disposition is restored
 * and the handler returns, so the faulting instruction faults again and the
 * process dies of the same signal, with a core, as it would without us; a sent
 * signal (SI_USER, SI_TKILL, ...) is raised again instead, or ignored under
 * SIG_IGN.
 *
 * The handler allocates nothing and only calls async-signal-safe functions
 * (sigaction, sigprocmask, raise, siglongjmp; fc_uc_longjmp on x86_64).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <unistd.h>

#include "fastcopy.h"
#include "fc_internal.h"

/* Addresses compared with si_addr: on aarch64 the kernel clears the top byte
 * (the tag) of si_addr unless SA_EXPOSE_TAGBITS, so strip it from ours too. */
#if defined(__aarch64__)
#define UC_ADDR(p) ((uintptr_t)(p) & (((uintptr_t)1 << 56) - 1))
#else
#define UC_ADDR(p) ((uintptr_t)(p))
#endif

/* UC_GUARDED(env, fn, a0, a1, a2): fn(a0, a1, a2) under a jump buffer; 0 when it
 * returned, 1 when the handler jumped back out of it (UC_LONGJMP(env)).  No signal
 * mask is saved: the handler restores the interrupted one before it jumps.
 * x86_64: fc_uc_guard (x86_64/uc_jmp.S, with the measurements) makes the call
 * itself, so its caller makes no returns_twice call; elsewhere sigsetjmp(env, 0).
 * A macro, so that the function using it calls sigsetjmp itself (a function that
 * calls sigsetjmp is never inlined, and the extra call costs ~1 ns). */
#if defined(__x86_64__)
#include "uc_jmp.h"
typedef struct uc_jmp uc_jmp_buf[1];
#define UC_GUARDED(env, fn, a0, a1, a2)                                              \
    fc_uc_guard(env, (const void *)(fn), (void *)(a0), (const void *)(a1), (size_t)(a2))
#define UC_LONGJMP(env) fc_uc_longjmp(env)
#define UC_KEPT /* a local set before UC_GUARDED and read after: a register */
#else
typedef sigjmp_buf uc_jmp_buf;
#define UC_GUARDED(env, fn, a0, a1, a2)                                              \
    __extension__({                                                                  \
        int uc_jumped_;                                                              \
        if (sigsetjmp(env, 0)) {                                                     \
            uc_jumped_ = 1;                                                          \
        } else {                                                                     \
            (fn)(a0, a1, a2);                                                        \
            uc_jumped_ = 0;                                                          \
        }                                                                            \
        uc_jumped_;                                                                  \
    })
#define UC_LONGJMP(env) siglongjmp(env, 1)
#define UC_KEPT volatile /* set before sigsetjmp, read after: not in a register */
#endif

/* One checked copy in progress on this thread.  Lives on the caller's stack. */
struct uc_rec {
    uintptr_t fault_addr;     /* set by the handler before it jumps back */
    int fault_known;          /* fault_addr is meaningful */
    void *dst;                /* the operation (read back after a fault) */
    const void *src;          /* NULL for a clear */
    size_t n;
    uc_jmp_buf env;
};

#ifdef FC_NO_IFUNC
/* musl refuses to dlopen a library with initial-exec TLS ("initial-exec TLS
 * resolves to dynamic definition"): there the records use TLS descriptors
 * (meson adds -mtls-dialect=gnu2), which musl resolves to the static offset when
 * the library is preloaded or linked, and to its dynamic block, allocated at
 * dlopen for every thread (no allocation on access: still async-signal-safe),
 * when it is dlopen'ed. */
#define UC_TLS __thread __attribute__((tls_model("global-dynamic")))
#else
#define UC_TLS __thread __attribute__((tls_model("initial-exec")))
#endif

static UC_TLS struct uc_rec *uc_cur;   /* innermost checked copy of this thread */

/* Loop breaker for handlers that call the handler they replaced (ours) after we
 * were re-armed on top of them: see uc_chain(). */
struct uc_chain_state {
    const siginfo_t *info;
    const void *frame;
    int level;
};
static UC_TLS struct uc_chain_state uc_chain_st;
static UC_TLS int uc_arming;           /* this thread holds uc_lock */

static size_t uc_pagesize = 4096;
static int uc_armed;                   /* atomic: handlers installed at least once */
static int uc_lock;                    /* atomic: serialises fc_user_arm */

/* The dispositions we chain to, per signal.  slot[0] is the one found at the first
 * installation (the "original"); a re-arm over a foreign handler records that
 * handler in slot 1..UC_NSLOTS-1 (round robin) and publishes its index, so a
 * handler running on another thread never reads a half-written struct. */
#define UC_NSLOTS 8
struct uc_prev {
    struct sigaction slot[UC_NSLOTS];
    int cur;        /* atomic: index of the disposition to chain to, -1 = none */
    int next;       /* next slot to fill on a re-arm */
};
static struct uc_prev uc_prev_segv = {.cur = -1, .next = 1};
static struct uc_prev uc_prev_bus = {.cur = -1, .next = 1};

static void uc_handler(int sig, siginfo_t *si, void *ctx);

/* Struct copies spelled out: a large struct assignment may become a call to
 * memcpy, which inside this library is its own exported IFUNC. */
static void uc_bytecopy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const volatile unsigned char *s = src;
    while (n--)
        *d++ = *s++;
}

/* ---- chaining ------------------------------------------------------------------- */

static int uc_is_sent(const siginfo_t *si)
{
    /* si_code <= 0: raise, kill, sigqueue, tgkill, timers, ...; > 0: the kernel,
     * for a fault (SI_KERNEL = 0x80 included: x86 #GP on a non-canonical address). */
    return si == 0 || si->si_code <= 0;
}

/* A signal that does not come back when the handler returns: a sent one, or the
 * kernel's asynchronous machine-check notice (SIGBUS BUS_MCEERR_AO). */
static int uc_no_refault(int sig, const siginfo_t *si)
{
#ifdef BUS_MCEERR_AO
    if (sig == SIGBUS && si && si->si_code == BUS_MCEERR_AO)
        return 1;
#endif
    (void)sig;
    return uc_is_sent(si);
}

/* The default action: for a fault, restore SIG_DFL and return, so the instruction
 * faults again and the kernel kills the process with this signal (and a core); a
 * sent signal does not come back by itself, so raise it again. */
static void uc_default(int sig, const siginfo_t *si)
{
    struct sigaction dfl;
    fc_bytezero(&dfl, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, 0);
    if (uc_no_refault(sig, si))
        raise(sig);
}

static void uc_call(int sig, siginfo_t *si, void *ctx, struct sigaction *sa)
{
    void (*h)(int) = sa->sa_handler;
    if (!(sa->sa_flags & SA_SIGINFO) && h == SIG_IGN) {
        /* The kernel never ignores a fault (it forces the default action), but
         * does ignore a sent SIGSEGV/SIGBUS. */
        if (!uc_no_refault(sig, si))
            uc_default(sig, si);
        return;
    }
    if (!(sa->sa_flags & SA_SIGINFO) && h == SIG_DFL) {
        uc_default(sig, si);
        return;
    }
    /* A handler: give it what the kernel would have given it. */
    sigset_t block, old;
    uc_bytecopy(&block, &sa->sa_mask, sizeof block);
    int flags = sa->sa_flags;
    void (*act)(int, siginfo_t *, void *) = sa->sa_sigaction;
    if (!(flags & SA_NODEFER))
        sigaddset(&block, sig);
    if (flags & SA_RESETHAND) {
        sa->sa_flags &= ~SA_SIGINFO;
        sa->sa_handler = SIG_DFL;
    }
    sigprocmask(SIG_BLOCK, &block, &old);
    if (flags & SA_SIGINFO)
        act(sig, si, ctx);
    else
        h(sig);
    sigprocmask(SIG_SETMASK, &old, 0);
}

/* A foreign SIGSEGV/SIGBUS: pass it on.  If a handler that we chained to calls us
 * back with the same siginfo (it replaced our handler, remembered ours as its
 * "previous", and we were re-armed on top of it), chaining to it again would loop
 * forever: the second time round we go to the original disposition instead, and
 * the third time to the default action. */
static void uc_chain(int sig, siginfo_t *si, void *ctx)
{
    struct uc_prev *p = sig == SIGSEGV ? &uc_prev_segv : &uc_prev_bus;
    struct uc_chain_state saved = uc_chain_st;
    char here;
    int level = 0, idx;

    if (si && saved.info == si && (uintptr_t)&here < (uintptr_t)saved.frame)
        level = saved.level + 1;
    uc_chain_st.info = si;
    uc_chain_st.frame = &here;
    uc_chain_st.level = level;

    idx = __atomic_load_n(&p->cur, __ATOMIC_ACQUIRE);
    if (level == 1 && idx != 0)
        idx = 0;
    else if (level >= 1)
        idx = -1;
    if (idx < 0)
        uc_default(sig, si);
    else
        uc_call(sig, si, ctx, &p->slot[idx]);
    uc_chain_st = saved;
}

/* ---- the handler ---------------------------------------------------------------- */

/* The first byte of the page p is in, and the last byte of the page p + n - 1 is
 * in (n >= 1).  Computed when a fault asks rather than stored with every copy:
 * four fewer stores on the fast path. */
static inline uintptr_t uc_page_lo(const void *p)
{
    return UC_ADDR(p) & ~(uintptr_t)(uc_pagesize - 1);
}

static inline uintptr_t uc_page_hi(const void *p, size_t n)
{
    return (UC_ADDR(p) + n - 1) | (uintptr_t)(uc_pagesize - 1);
}

/* a lies in a page of the copy's destination or source. */
static int uc_in(const struct uc_rec *r, uintptr_t a)
{
    return (a >= uc_page_lo(r->dst) && a <= uc_page_hi(r->dst, r->n)) ||
           (r->src && a >= uc_page_lo(r->src) && a <= uc_page_hi(r->src, r->n));
}

static void uc_handler(int sig, siginfo_t *si, void *ctx)
{
    int saved_errno = errno;
    struct uc_rec *r = uc_cur;

    if (r && si && !uc_no_refault(sig, si)) {
        uintptr_t a = UC_ADDR(si->si_addr);
        /* Faults without a usable address count as faults of the copy in progress:
         * x86-64 reports a non-canonical address as #GP (SI_KERNEL, address 0), and
         * QEMU user mode reports address 0 for one outside the guest's space. */
        int nonaddr = (sig == SIGSEGV && si->si_code == SI_KERNEL) || a == 0;
        if (nonaddr || uc_in(r, a)) {
            r->fault_addr = a;
            r->fault_known = !nonaddr;
            /* Give the interrupted code its signal mask back: the kernel blocked
             * nothing for us (SA_NODEFER, empty sa_mask), but a handler that
             * chained to us may have been entered with SIGSEGV blocked. */
            if (ctx)
                sigprocmask(SIG_SETMASK, &((ucontext_t *)ctx)->uc_sigmask, 0);
            errno = saved_errno;
            UC_LONGJMP(r->env);
        }
    }
    uc_chain(sig, si, ctx);
    errno = saved_errno;
}

/* ---- installation ---------------------------------------------------------------- */

static int uc_install(int sig, struct uc_prev *p)
{
    struct sigaction sa, old;
    fc_bytezero(&sa, sizeof sa);
    sa.sa_sigaction = uc_handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    if (sigaction(sig, &sa, &old) != 0)
        return -1;
    if ((old.sa_flags & SA_SIGINFO) && old.sa_sigaction == uc_handler)
        return 0;   /* ours already: keep what we chain to */
    int cur = __atomic_load_n(&p->cur, __ATOMIC_RELAXED), idx;
    if (cur < 0) {
        idx = 0;
    } else {
        idx = p->next;
        p->next = p->next + 1 < UC_NSLOTS ? p->next + 1 : 1;
    }
    uc_bytecopy(&p->slot[idx], &old, sizeof old);
    __atomic_store_n(&p->cur, idx, __ATOMIC_RELEASE);
    return 0;
}

FC_API int fc_user_arm(void)
{
    int rc = 0;
    if (uc_arming) {            /* a signal handler interrupted our own arming */
        errno = EDEADLK;
        return -1;
    }
    while (__atomic_exchange_n(&uc_lock, 1, __ATOMIC_ACQUIRE))
        sched_yield();
    uc_arming = 1;
    long pg = sysconf(_SC_PAGESIZE);
    if (pg > 0)
        uc_pagesize = (size_t)pg;
    if (uc_install(SIGSEGV, &uc_prev_segv) != 0 || uc_install(SIGBUS, &uc_prev_bus) != 0)
        rc = -1;
    else
        __atomic_store_n(&uc_armed, 1, __ATOMIC_RELEASE);
    uc_arming = 0;
    __atomic_store_n(&uc_lock, 0, __ATOMIC_RELEASE);
    return rc;
}

/* For the tests only (not exported): forget everything, as in a fresh process, so
 * that a forked child can start from the default dispositions. */
FC_HIDDEN void fc_user_reset_for_tests(void)
{
    uc_prev_segv.cur = uc_prev_bus.cur = -1;
    uc_prev_segv.next = uc_prev_bus.next = 1;
    uc_chain_st.info = 0;
    uc_chain_st.frame = 0;
    uc_cur = 0;
    __atomic_store_n(&uc_armed, 0, __ATOMIC_RELEASE);
}

static __attribute__((noinline, cold)) void uc_arm_lazy(void)
{
    fc_user_arm();
}

/* ---- the copies ----------------------------------------------------------------- */

/* The checked copy (r->src != NULL) or clear (r->src == NULL) described by *r:
 * evaluates to 0 when it completed, 1 when it faulted.  The record it interrupted
 * is kept in a local, not in *r: only this code needs it.  No fences: the guarded
 * call is opaque to the compiler, so the record is made current before it and
 * the interrupted one after it. */
#define UC_RUN(r)                                                                    \
    __extension__({                                                                  \
        int uc_faulted_;                                                             \
        struct uc_rec *UC_KEPT uc_prev_ = uc_cur;                                    \
        uc_cur = (r);                                                                \
        if ((r)->src)                                                                \
            uc_faulted_ = UC_GUARDED((r)->env, fc_memcpy, (r)->dst, (r)->src, (r)->n); \
        else                                                                         \
            uc_faulted_ = UC_GUARDED((r)->env, fc_memset, (r)->dst, 0, (r)->n);       \
        uc_cur = uc_prev_;                                                           \
        uc_faulted_;                                                                 \
    })

static __attribute__((noinline)) int uc_guarded(struct uc_rec *r)
{
    return UC_RUN(r);
}

/* After a fault somewhere in [0,n): the exact count not copied.  Chunks never
 * cross a page of either buffer, so a chunk either copies completely or faults
 * before its first byte could be stored.  The page that faulted in the first
 * attempt is not tried again where that is known to fail: as a destination page
 * always (a page that cannot be read cannot be written either, on every supported
 * architecture), as a source page only when it is no destination page of this
 * copy.  A page that both ranges reach may have faulted on a store and still be
 * readable: there the chunk faults again if it must, one more caught fault.
 * Every chunk has dst != src (fc_copy_user sends dst == src to uc_overlap, which
 * only comes here for a prefix with dst != src), so no kernel can take its "same
 * buffer: nothing to do" shortcut for a chunk. */
static __attribute__((noinline, cold)) size_t uc_slow(const struct uc_rec *first)
{
    unsigned char *d = first->dst;
    const unsigned char *s = first->src;
    size_t pg = uc_pagesize, k = 0, n = first->n;
    uintptr_t m = ~(uintptr_t)(pg - 1);
    uintptr_t bad = first->fault_known ? first->fault_addr & m : 0;
    int skip_dst = first->fault_known;
    int skip_src = first->fault_known && s &&
                   !(bad >= uc_page_lo(d) && bad <= uc_page_hi(d, n));
    struct uc_rec r;

    while (k < n) {
        size_t c = n - k, room = pg - (UC_ADDR(d + k) & (pg - 1));
        if (room < c)
            c = room;
        if (s) {
            room = pg - (UC_ADDR(s + k) & (pg - 1));
            if (room < c)
                c = room;
        }
        if ((skip_dst && (UC_ADDR(d + k) & m) == bad) ||
            (skip_src && (UC_ADDR(s + k) & m) == bad))
            return n - k;
        r.dst = d + k;
        r.src = s ? s + k : 0;
        r.n = c;
        if (uc_guarded(&r))
            return n - k;
        k += c;
    }
    return 0;
}

/* The length k of the longest prefix of [0,n) whose source bytes are readable and
 * destination bytes writable, found by touching one byte of each page of both
 * ranges in ascending order: a load from the source, a load and a store of the
 * same value back to the destination (so a PROT_READ page counts as not
 * writable).  The first fault ends it; *at then says where.  Touches nothing
 * else. */
static inline void uc_touch(volatile unsigned char *d, const volatile unsigned char *s,
                            size_t n, volatile size_t *at)
{
    size_t pg = uc_pagesize, i = 0;
    while (i < n) {
        size_t c = n - i, room = pg - (UC_ADDR(d + i) & (pg - 1));
        if (room < c)
            c = room;
        room = pg - (UC_ADDR(s + i) & (pg - 1));
        if (room < c)
            c = room;
        *at = i;
        (void)s[i];
        d[i] = d[i];
        i += c;
    }
    *at = n;
}

/* The guarded part of uc_overlap: the touch, then, when every page passed, the
 * move. */
static void uc_overlap_run(struct uc_rec *r, volatile size_t *at, volatile int *moving)
{
    uc_touch(r->dst, r->src, r->n, at);
    if (UC_ADDR(r->dst) != UC_ADDR(r->src)) {
        *moving = 1;
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        fc_memcpy(r->dst, r->src, r->n);
    }
}

/* Overlapping buffers, dst == src included.  A kernel may legitimately skip the
 * work for dst == src (the aarch64 and riscv64 ones do: memmove has nothing to do),
 * and a fault in the middle of an overlapping move leaves the source half
 * overwritten, so the prefix could not be redone from it.  Hence: first find k by
 * touching the pages (uc_touch), then move just that prefix (fc_memcpy is
 * fc_memmove on overlap).  When every page passes, touch and move run under one
 * guard (one jump buffer: ~24 vs ~38 ns for 64 overlapping bytes with two here, ~15
 * ns for the plain fast path); otherwise the prefix is moved under a second.
 * Without concurrent mprotect/munmap, and with page-granular faults, the result is
 * exactly fc_memmove(dst, src, k): the bytes of [dst+k, dst+n) keep their values.
 * Should the move fault all the same (a page changed under us, a sub-page fault),
 * the chunked redo gives the count, and the overlapping bytes are unspecified. */
static __attribute__((noinline)) size_t uc_overlap(void *dst, const void *src, size_t n)
{
    struct uc_rec r, p;
    volatile size_t at = 0;
    volatile int moving = 0;
    struct uc_rec *UC_KEPT prev = uc_cur;
    int faulted;

    r.dst = dst;
    r.src = src;
    r.n = n;
    uc_cur = &r;
    faulted = UC_GUARDED(r.env, uc_overlap_run, &r, &at, &moving);
    uc_cur = prev;
    if (!faulted)
        return 0;
    if (moving)   /* every page touched, and the move faulted all the same */
        return uc_slow(&r);
    /* The touch stopped at `at`: move that prefix. */
    if (at == 0 || UC_ADDR(r.dst) == UC_ADDR(r.src))
        return r.n - at;
    p.dst = r.dst;
    p.src = r.src;
    p.n = at;
    if (uc_guarded(&p))
        return uc_slow(&p) + (r.n - at);
    return r.n - at;
}

static inline int uc_bad_range(uintptr_t p, size_t n)
{
    return p == 0 || p + (n - 1) < p;
}

FC_API size_t fc_copy_user(void *dst, const void *src, size_t n)
{
    struct uc_rec r;
    if (n == 0)
        return 0;
    if (uc_bad_range((uintptr_t)dst, n) || uc_bad_range((uintptr_t)src, n))
        return n;
    if (__builtin_expect(!__atomic_load_n(&uc_armed, __ATOMIC_RELAXED), 0))
        uc_arm_lazy();
    uintptr_t d = UC_ADDR(dst), s = UC_ADDR(src);
    if (__builtin_expect(d - s < n || s - d < n, 0))
        return uc_overlap(dst, src, n);   /* overlap, dst == src included */
    r.dst = dst;
    r.src = src;
    r.n = n;
    if (__builtin_expect(UC_RUN(&r), 0))
        return uc_slow(&r);
    return 0;
}

FC_API size_t fc_clear_user(void *dst, size_t n)
{
    struct uc_rec r;
    if (n == 0)
        return 0;
    if (uc_bad_range((uintptr_t)dst, n))
        return n;
    if (__builtin_expect(!__atomic_load_n(&uc_armed, __ATOMIC_RELAXED), 0))
        uc_arm_lazy();
    r.dst = dst;
    r.src = 0;
    r.n = n;
    if (__builtin_expect(UC_RUN(&r), 0))
        return uc_slow(&r);
    return 0;
}
