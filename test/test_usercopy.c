/* test_usercopy.c - fc_copy_user / fc_clear_user (docs/usercopy.md): exact "bytes not
 * copied" at guard pages, SIGBUS, repeated faults, nesting in signal handlers,
 * threads, chaining to other handlers, handler replacement, blocked SIGSEGV,
 * sigaltstack, edge inputs.
 *
 * Everything that may kill the process, or that installs handlers/timers, runs in
 * a forked child; children report with their exit status (0 = all checks passed,
 * otherwise the line of the first failed check, mod 200, plus 50) and a message on
 * stderr.  FC_TEST_QUICK=1 shrinks the sweeps and loop counts (QEMU, valgrind). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "fastcopy.h"
#include "guard.h"

static size_t pg;
static int quick;
static int in_child;

/* usercopy.c, for the tests: back to the state of a fresh process. */
void fc_user_reset_for_tests(void);

/* ---- helpers -------------------------------------------------------------------- */

static unsigned char pat_src(const void *p)
{
    uintptr_t a = (uintptr_t)p;
    return (unsigned char)((a * 131u) ^ (a >> 9) ^ 0x3c);
}

static unsigned char pat_dst(const void *p)
{
    uintptr_t a = (uintptr_t)p;
    return (unsigned char)((a * 37u) ^ (a >> 7) ^ 0xa5);
}

static void fill(unsigned char *p, size_t n, unsigned char (*pat)(const void *))
{
    for (size_t i = 0; i < n; i++)
        p[i] = pat(p + i);
}

/* A check usable in the test process and in forked children: a child reports the
 * failed check and exits (cmocka's failure path would longjmp into a copy of the
 * test runner). */
#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            if (!in_child)                                                           \
                fail_msg("check failed at line %d: %s", __LINE__, #cond);            \
            dprintf(2, "child check failed at line %d: %s\n", __LINE__, #cond);      \
            _exit(50 + __LINE__ % 200);                                              \
        }                                                                            \
    } while (0)

/* A forked child starts like a fresh program: default SIGSEGV/SIGBUS (not
 * cmocka's handlers), our handlers not installed, no core files. */
static void child_start(void)
{
    struct rlimit no_core = {0, 0};
    in_child = 1;
    setrlimit(RLIMIT_CORE, &no_core);
    signal(SIGSEGV, SIG_DFL);
    signal(SIGBUS, SIG_DFL);
    fc_user_reset_for_tests();
}

/* Runs fn(arg) in a forked child with a safety alarm; returns the wait status. */
static int run_child(void (*fn)(void *), void *arg)
{
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        child_start();
        alarm(quick ? 120 : 60);
        fn(arg);
        _exit(0);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        assert_int_equal(errno, EINTR);
    return st;
}

static void expect_exit(int st, int code)
{
    if (WIFSIGNALED(st))
        fail_msg("child killed by signal %d (%s), expected exit %d", WTERMSIG(st),
                 strsignal(WTERMSIG(st)), code);
    assert_true(WIFEXITED(st));
    if (WEXITSTATUS(st) != code)
        fail_msg("child exited with %d, expected %d", WEXITSTATUS(st), code);
}

static void expect_signal(int st, int sig)
{
    if (WIFEXITED(st))
        fail_msg("child exited with %d, expected death by %s", WEXITSTATUS(st), strsignal(sig));
    assert_true(WIFSIGNALED(st));
    if (WTERMSIG(st) != sig)
        fail_msg("child killed by %s, expected %s", strsignal(WTERMSIG(st)), strsignal(sig));
}

/* A mapping: `before` accessible bytes (whole pages), then one "bad" page, then as
 * many accessible bytes again (a copy that starts before the bad page and ends
 * after it may read or write there: the kernels store out of order).  The bad page
 * is PROT_NONE or PROT_READ as asked. */
struct region {
    unsigned char *map, *bad;
    size_t before, len;
};

static void region_alloc(struct region *r, size_t need)
{
    r->before = (need + pg - 1) / pg * pg + pg;
    r->len = 2 * r->before + pg;
    r->map = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(r->map != MAP_FAILED);
    r->bad = r->map + r->before;
}

static void region_bad(struct region *r, int prot)
{
    assert_int_equal(mprotect(r->bad, pg, prot), 0);
}

static void region_free(struct region *r)
{
    munmap(r->map, r->len);
}

static size_t clampd(long d, size_t n)
{
    return d <= 0 ? 0 : (size_t)d >= n ? n : (size_t)d;
}

/* ---- 1. the guard-page sweep ------------------------------------------------------ */

enum sweep_kind { SRC_NONE, DST_NONE, DST_RO, BOTH, CLEAR_NONE, CLEAR_RO };

static unsigned long sweep_checks;
static unsigned char *dst_image;   /* the destination region's accessible bytes, as filled */

struct sweep_case {
    enum sweep_kind kind;
    struct region *sr, *dr;
    unsigned char *src, *dst;
    size_t n, k;
    long ss, ds;
    int src_bad, clear;
};

static int in_bad(const struct region *r, const unsigned char *p)
{
    return p >= r->bad && p < r->bad + pg;
}

/* Checks the destination bytes [a, b) (none in the bad page) after the operation. */
static void check_seg(const struct sweep_case *c, unsigned char *a, unsigned char *b)
{
    const unsigned char *img = dst_image + (a - c->dr->map);
    if (a >= b)
        return;
    if (memcmp(a, img, (size_t)(b - a)) == 0 && (c->k == 0 || b <= c->dst || a >= c->dst + c->k))
        return;   /* unchanged, and nothing had to be copied here */
    for (unsigned char *p = a; p < b; p++, img++) {
        const char *why = NULL;
        if (p < c->dst || p >= c->dst + c->n) {
            if (*p != *img)
                why = "outside [dst, dst+n) changed";
        } else {
            size_t i = (size_t)(p - c->dst);
            if (i < c->k) {
                if (*p != (c->clear ? 0 : c->src[i]))
                    why = c->clear ? "not zeroed" : "not copied";
            } else {
                int src_readable = !c->clear && (!c->src_bad || !in_bad(c->sr, c->src + i));
                if (*p != *img && !(c->clear && *p == 0) && !(src_readable && *p == c->src[i]))
                    why = "past k: neither the old value nor the source byte";
            }
        }
        if (why)
            fail_msg("kind %d n=%zu src-edge %ld dst-edge %ld (k=%zu): dst%+td=%u, old %u: %s",
                     c->kind, c->n, c->ss, c->ds, c->k, p - c->dst, *p, *img, why);
    }
}

/* One checked operation with the copy start `ds` bytes before the bad page of the
 * destination region (DST_* / CLEAR_* / BOTH) and `ss` bytes before the bad page
 * of the source region (SRC_NONE / BOTH); a buffer without a bad page sits well
 * inside its region at an offset that varies with the case.  Checked: the return
 * value, and every destination byte from 64 before dst to 64 after dst+n. */
static void sweep_one(enum sweep_kind kind, struct region *sr, struct region *dr, size_t n,
                      long ss, long ds, size_t off)
{
    struct sweep_case c = {.kind = kind, .sr = sr, .dr = dr, .n = n, .ss = ss, .ds = ds};
    int dst_bad = kind != SRC_NONE;
    c.src_bad = kind == SRC_NONE || kind == BOTH;
    c.clear = kind == CLEAR_NONE || kind == CLEAR_RO;
    c.src = c.src_bad ? sr->bad - ss : sr->map + 64 + off;
    c.dst = dst_bad ? dr->bad - ds : dr->map + 64 + (off * 7) % 64;
    size_t ks = c.src_bad ? clampd(ss, n) : n, kd = dst_bad ? clampd(ds, n) : n;
    c.k = c.clear ? kd : ks < kd ? ks : kd;

    /* The window, without the bad page: [lo, b1) and [a2, hi). */
    unsigned char *lo = c.dst - 64, *hi = c.dst + n + 64;
    if (lo < dr->map)
        lo = dr->map;
    if (hi > dr->map + dr->len)
        hi = dr->map + dr->len;
    unsigned char *b1 = hi < dr->bad ? hi : dr->bad, *a2 = lo > dr->bad + pg ? lo : dr->bad + pg;
    if (b1 > lo)
        memcpy(lo, dst_image + (lo - dr->map), (size_t)(b1 - lo));
    if (hi > a2)
        memcpy(a2, dst_image + (a2 - dr->map), (size_t)(hi - a2));

    size_t r = c.clear ? fc_clear_user(c.dst, n) : fc_copy_user(c.dst, c.src, n);
    sweep_checks++;
    if (r != n - c.k)
        fail_msg("kind %d n=%zu src-edge %ld dst-edge %ld: returned %zu, expected %zu", kind,
                 n, ss, ds, r, n - c.k);
    check_seg(&c, lo, b1);
    check_seg(&c, a2, hi);
}

/* The source, and the read-only bad page of the destination, must be unchanged. */
static void check_regions_intact(struct region *sr, struct region *dr, int src_none, int dst_ro)
{
    for (unsigned char *p = sr->map; p < sr->map + sr->len; p++)
        if ((!src_none || !in_bad(sr, p)) && *p != pat_src(p))
            fail_msg("source byte at %td changed", p - sr->map);
    if (dst_ro)
        for (unsigned char *p = dr->bad; p < dr->bad + pg; p++)
            if (*p != pat_dst(p))
                fail_msg("read-only destination page changed at %td", p - dr->bad);
}

static int stride_skip(long e, size_t n, long stride)
{
    return stride > 1 && e > 70 && e < (long)n - 70 && (e % (long)pg) > 3 &&
           (e % (long)pg) < (long)pg - 3 && e % stride;
}

static void sweep_size(enum sweep_kind kind, size_t n, long stride)
{
    struct region sr, dr;
    region_alloc(&sr, n + 256);
    region_alloc(&dr, n + 256);
    fill(sr.map, sr.len, pat_src);
    fill(dr.map, dr.len, pat_dst);
    dst_image = malloc(dr.len);
    assert_non_null(dst_image);
    memcpy(dst_image, dr.map, dr.len);
    if (kind == SRC_NONE || kind == BOTH)
        region_bad(&sr, PROT_NONE);
    if (kind == DST_NONE || kind == BOTH || kind == CLEAR_NONE)
        region_bad(&dr, PROT_NONE);
    if (kind == DST_RO || kind == CLEAR_RO)
        region_bad(&dr, PROT_READ);

    /* Every start from one byte inside the bad page (edge -1) to one byte more than
     * needed (edge n+1); with a stride, every start near either end and near each
     * page boundary, and every stride-th one elsewhere. */
    for (long e = -1; e <= (long)n + 1; e++) {
        if (stride_skip(e, n, stride))
            continue;
        size_t off = (size_t)(e & 63);
        if (kind == BOTH) {
            /* The other buffer's bad page one byte nearer, one byte farther, half-way
             * (each both ways round); for the small sizes also at the ends. */
            long others[] = {e - 1, e + 1, (long)n / 2, -1, 0, e + 33, (long)n + 1};
            unsigned nothers = n <= 48 ? 7 : 3;
            if (n > 160 && stride_skip(e, n, stride * 4))
                continue;
            for (unsigned j = 0; j < nothers; j++) {
                long o = others[j];
                if (o < -1 || o > (long)n + 1)
                    continue;
                sweep_one(kind, &sr, &dr, n, e, o, off);
                sweep_one(kind, &sr, &dr, n, o, e, off);
            }
        } else if (kind == SRC_NONE) {
            sweep_one(kind, &sr, &dr, n, e, 0, off);
        } else {
            sweep_one(kind, &sr, &dr, n, 0, e, off);
        }
    }
    check_regions_intact(&sr, &dr, kind == SRC_NONE || kind == BOTH,
                         kind == DST_RO || kind == CLEAR_RO);
    free(dst_image);
    region_free(&sr);
    region_free(&dr);
}

/* Sizes 0..160 at every edge offset; 4095, 4096, 4097 at every offset; 65536 at
 * every offset near its ends and page boundaries and every 7th elsewhere
 * (FC_TEST_FULL=1: every offset).  FC_TEST_QUICK=1 thins all of it out. */
static void sweep(enum sweep_kind kind)
{
    const char *full = getenv("FC_TEST_FULL");
    /* cmocka installs its own SIGSEGV/SIGBUS handlers around every test: a handler
     * installed after ours, so re-arm (the documented way). */
    assert_int_equal(fc_user_arm(), 0);
    sweep_checks = 0;
    for (size_t n = 0; n <= 160; n++)
        if (!quick || n < 40 || n % 7 == 0 || n >= 150)
            sweep_size(kind, n, 1);
    static const size_t big[] = {4095, 4096, 4097, 65536};
    for (unsigned i = 0; i < 4; i++) {
        long stride = quick ? 509 : (big[i] > 8192 && !(full && *full == '1')) ? 7 : 1;
        sweep_size(kind, big[i], stride);
    }
    printf("  %lu checked operations\n", sweep_checks);
}

static void test_sweep_src(void **state) { (void)state; sweep(SRC_NONE); }
static void test_sweep_dst_none(void **state) { (void)state; sweep(DST_NONE); }
static void test_sweep_dst_readonly(void **state) { (void)state; sweep(DST_RO); }
static void test_sweep_both_min_wins(void **state) { (void)state; sweep(BOTH); }
static void test_sweep_clear_none(void **state) { (void)state; sweep(CLEAR_NONE); }
static void test_sweep_clear_readonly(void **state) { (void)state; sweep(CLEAR_RO); }

/* ---- 2. SIGBUS: a truncated MAP_SHARED file --------------------------------------- */

struct trunc_file {
    int fd;
    unsigned char *map;   /* 4 pages; the file ends 100 bytes into page 1 */
};

static void trunc_open(struct trunc_file *t)
{
    t->fd = (int)syscall(SYS_memfd_create, "fc_usercopy", 0);
    if (t->fd < 0) {
        char name[] = "/tmp/fc_usercopy_XXXXXX";
        t->fd = mkstemp(name);
        CHECK(t->fd >= 0);
        unlink(name);
    }
    CHECK(ftruncate(t->fd, (off_t)(4 * pg)) == 0);
    t->map = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, t->fd, 0);
    CHECK(t->map != MAP_FAILED);
    fill(t->map, 4 * pg, pat_src);
    CHECK(ftruncate(t->fd, (off_t)(pg + 100)) == 0);
}

static void trunc_close(struct trunc_file *t)
{
    munmap(t->map, 4 * pg);
    close(t->fd);
}

static void child_touch_lost_page(void *arg)
{
    unsigned char *p = arg;
    *(volatile unsigned char *)p;
    _exit(3);
}

static void test_sigbus_truncated_file(void **state)
{
    (void)state;
    struct trunc_file t;
    assert_int_equal(fc_user_arm(), 0);   /* over cmocka's handlers */
    trunc_open(&t);
    /* The setup really raises SIGBUS past the last page of the file. */
    expect_signal(run_child(child_touch_lost_page, t.map + 2 * pg), SIGBUS);

    size_t n = 3 * pg;
    unsigned char *buf = malloc(n + 64);
    assert_non_null(buf);
    /* From the lost part: readable up to the end of page 1 (zeros past EOF). */
    for (size_t back = 0; back <= 160; back += quick ? 37 : 1) {
        unsigned char *src = t.map + 2 * pg - back;
        memset(buf, 0x77, n + 64);
        size_t r = fc_copy_user(buf, src, n);
        assert_int_equal(r, n - back);
        assert_memory_equal(buf, src, back);
        for (size_t i = back; i < n + 64; i++)
            if (buf[i] != 0x77)
                fail_msg("byte %zu written past k=%zu", i, back);
    }
    /* Into the lost part. */
    fill(buf, n, pat_dst);
    for (size_t room = 0; room <= 160; room += quick ? 37 : 1) {
        unsigned char *dst = t.map + 2 * pg - room;
        size_t r = fc_copy_user(dst, buf, n);
        assert_int_equal(r, n - room);
        assert_memory_equal(dst, buf, room);
        r = fc_clear_user(dst, 2 * room + 5);
        assert_int_equal(r, room + 5);
        for (size_t i = 0; i < room; i++)
            assert_int_equal(dst[i], 0);
    }
    /* Deep inside a large copy, different page offsets. */
    unsigned char *src = t.map + 123;
    size_t r = fc_copy_user(buf + 7, src, n);
    assert_int_equal(r, n - (2 * pg - 123));
    assert_memory_equal(buf + 7, src, 2 * pg - 123);
    free(buf);
    trunc_close(&t);
}

/* ---- 3. many faults, then the signals still work ----------------------------------- */

static void child_many_faults(void *arg)
{
    int then = *(int *)arg;
    struct guarded g;
    struct trunc_file t;
    unsigned char buf[512];
    CHECK(guarded_alloc(&g, pg) == 0);
    trunc_open(&t);
    long count = quick ? 1000 : 10000;
    for (long i = 0; i < count; i++) {
        size_t n = 1 + (size_t)(i % 300), have = (size_t)(i % 97) % n;
        size_t r;
        switch (i % 4) {
        case 0: r = fc_copy_user(buf, guarded_tail(&g, have), n); break;
        case 1: r = fc_copy_user(guarded_tail(&g, have), buf, n); break;
        case 2: r = fc_clear_user(guarded_tail(&g, have), n); break;
        default: r = fc_copy_user(buf, t.map + 2 * pg - have, n); break;
        }
        CHECK(r == n - have);
    }
    sigset_t cur;
    CHECK(sigprocmask(SIG_SETMASK, NULL, &cur) == 0);
    CHECK(!sigismember(&cur, SIGSEGV));
    CHECK(!sigismember(&cur, SIGBUS));
    if (then == SIGSEGV)
        *(volatile int *)(uintptr_t)0 = 1;   /* a plain NULL dereference */
    else
        *(volatile unsigned char *)(t.map + 3 * pg);
    _exit(4);
}

/* Runs child(&sig) once with sig = SIGSEGV and once with SIGBUS, and expects
 * each child to die of that signal. */
static void expect_killed_by_each(void (*child)(void *))
{
    static const int sigs[] = {SIGSEGV, SIGBUS};
    for (unsigned k = 0; k < 2; k++) {
        int sig = sigs[k];
        expect_signal(run_child(child, &sig), sig);
    }
}

static void test_many_faults_then_null_kills(void **state)
{
    (void)state;
    expect_killed_by_each(child_many_faults);
}

/* ---- 4. checked copies inside a signal handler that interrupts one ------------------ */

static struct guarded nest_g;
static unsigned char nest_buf[4096];
static volatile sig_atomic_t nest_in_copy, nest_ticks, nest_ticks_in_copy, nest_errors;
static sig_atomic_t nest_max_ticks;

/* QEMU 7.2 user mode saves no vector state in a riscv64 signal frame (Linux >= 6.5
 * does: the V context follows the FP state in the sigcontext), so when this
 * handler's checked copies run the rvv kernel they clobber v0-v31, vl and vtype of
 * the rvv copy they interrupted.  The handler therefore saves and restores them
 * itself when V is usable: redundant on a real kernel, and it keeps this test about
 * our nesting logic rather than about the emulator. */
#if defined(__riscv) && __riscv_xlen == 64
#include <sys/auxv.h>
static int nest_has_v;
static unsigned char nest_vsave[32 * 256] __attribute__((aligned(16)));
static unsigned long nest_vl, nest_vtype;
static void nest_v_save(void)
{
    unsigned long vlenb;
    unsigned char *p = nest_vsave;
    if (!nest_has_v)
        return;
    __asm__ volatile(".option push\n.option arch, +v\n"
                     "csrr %0, vlenb\ncsrr %1, vl\ncsrr %2, vtype\n.option pop"
                     : "=r"(vlenb), "=r"(nest_vl), "=r"(nest_vtype));
    if (vlenb > sizeof nest_vsave / 32)
        return; /* VLEN above 2048 bits: no room (no such model in the test matrix) */
    __asm__ volatile(".option push\n.option arch, +v\n"
                     "vs8r.v v0, (%0)\nvs8r.v v8, (%1)\nvs8r.v v16, (%2)\nvs8r.v v24, (%3)\n"
                     ".option pop"
                     : : "r"(p), "r"(p + 8 * vlenb), "r"(p + 16 * vlenb), "r"(p + 24 * vlenb)
                     : "memory");
}
static void nest_v_restore(void)
{
    unsigned long vlenb;
    unsigned char *p = nest_vsave;
    if (!nest_has_v)
        return;
    __asm__ volatile(".option push\n.option arch, +v\ncsrr %0, vlenb\n.option pop"
                     : "=r"(vlenb));
    if (vlenb > sizeof nest_vsave / 32)
        return;
    __asm__ volatile(".option push\n.option arch, +v\n"
                     "vl8re8.v v0, (%0)\nvl8re8.v v8, (%1)\nvl8re8.v v16, (%2)\n"
                     "vl8re8.v v24, (%3)\nvsetvl x0, %4, %5\n.option pop"
                     : : "r"(p), "r"(p + 8 * vlenb), "r"(p + 16 * vlenb), "r"(p + 24 * vlenb),
                       "r"(nest_vl), "r"(nest_vtype)
                     : "memory");
}
#else
static void nest_v_save(void) {}
static void nest_v_restore(void) {}
#endif

static void nest_alarm(int sig)
{
    (void)sig;
    int saved = errno;
    nest_v_save();
    unsigned char local[300];
    size_t n = 1 + (size_t)(nest_ticks % 299), have = (size_t)(nest_ticks * 13 % 200) % n;
    nest_ticks = nest_ticks + 1;
    if (nest_ticks >= nest_max_ticks) {
        /* Enough; also ends a livelock where this handler (two faults) takes longer
         * than the timer period, as under a slow emulator. */
        struct itimerval off = {{0, 0}, {0, 0}};
        setitimer(ITIMER_REAL, &off, NULL);
    }
    if (nest_in_copy)
        nest_ticks_in_copy = nest_ticks_in_copy + 1;
    /* A faulting copy, on this thread, while (often) the main loop is inside one. */
    size_t r = fc_copy_user(local, guarded_tail(&nest_g, have), n);
    if (r != n - have || memcmp(local, guarded_tail(&nest_g, have), have) != 0)
        nest_errors = nest_errors + 1;
    if (fc_clear_user(guarded_tail(&nest_g, have), n) != n - have)
        nest_errors = nest_errors + 1;
    fill(guarded_tail(&nest_g, have), have, pat_src);
    nest_v_restore();
    errno = saved;
}

static void child_nested(void *arg)
{
    (void)arg;
    struct guarded own;
#if defined(__riscv) && __riscv_xlen == 64
    nest_has_v = (getauxval(AT_HWCAP) >> ('V' - 'A')) & 1;
#endif
    CHECK(guarded_alloc(&nest_g, 2 * pg) == 0);
    CHECK(guarded_alloc(&own, 2 * pg) == 0);
    fill(nest_g.body, nest_g.body_len, pat_src);
    fill(own.body, own.body_len, pat_src);
    fc_user_arm();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = nest_alarm;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    CHECK(sigaction(SIGALRM, &sa, NULL) == 0);
    nest_max_ticks = quick ? 3000 : 20000;
    /* Every 50 us; 500 us under FC_TEST_QUICK (emulators: the handler's two faults
     * take longer than 50 us there, and the main loop would never run). */
    suseconds_t period = quick ? 500 : 50;
    struct itimerval it = {{0, period}, {0, period}};
    CHECK(setitimer(ITIMER_REAL, &it, NULL) == 0);

    /* At least `iters` copies, and on until 50 ticks came in during one (a fast
     * machine finishes the copies within a few timer periods). */
    long iters = quick ? 2000 : 10000;
    for (long i = 0; i < iters || (nest_ticks_in_copy < 50 && nest_ticks < nest_max_ticks &&
                                   i < 1000 * iters); i++) {
        size_t n = 1 + (size_t)(i % 3000), have = (size_t)(i * 7 % 3100) % (n + 1);
        size_t r;
        nest_in_copy = 1;
        if (i % 3 == 2) {
            r = fc_copy_user(nest_buf, own.body, n);   /* no fault */
            have = n;
        } else {
            r = fc_copy_user(nest_buf, guarded_tail(&own, have), n);
        }
        nest_in_copy = 0;
        CHECK(r == n - have);
        CHECK(memcmp(nest_buf, i % 3 == 2 ? own.body : guarded_tail(&own, have), have) == 0);
    }
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    dprintf(2, "  %d timer ticks, %d of them during a checked copy\n", (int)nest_ticks,
            (int)nest_ticks_in_copy);
    CHECK(nest_errors == 0);
    CHECK(nest_ticks > 10);
    CHECK(nest_ticks_in_copy > 0);
}

static void test_nested_in_signal_handler(void **state)
{
    (void)state;
    expect_exit(run_child(child_nested, NULL), 0);
}

/* ---- 5. threads ------------------------------------------------------------------- */

static volatile int thr_stop;

/* Buffers are mapped before the unmapping thread starts, so that no mmap of ours
 * can take the hole it leaves. */
struct thr_arg {
    long iters;
    long errors;
    struct guarded s, d;
};

static void *thr_copier(void *p)
{
    struct thr_arg *a = p;
    struct guarded s = a->s, d = a->d;
    unsigned char buf[600];
    for (long i = 0; i < a->iters; i++) {
        size_t n = 1 + (size_t)(i % 500), have = (size_t)(i % 613) % (n + 1);
        size_t r;
        if (i % 3 == 0) {
            r = fc_copy_user(buf, guarded_tail(&s, have), n);
            if (r != n - have || memcmp(buf, guarded_tail(&s, have), have))
                a->errors++;
        } else if (i % 3 == 1) {
            r = fc_copy_user(guarded_tail(&d, have), s.body, n);
            if (r != n - have || memcmp(guarded_tail(&d, have), s.body, have))
                a->errors++;
        } else {
            r = fc_copy_user(buf, s.body + 7, n);   /* no fault */
            if (r != 0 || memcmp(buf, s.body + 7, n))
                a->errors++;
        }
    }
    return NULL;
}

/* 8 pages of a file; pages 4..7 are unmapped and mapped again by another thread. */
static int race_fd;
static unsigned char *race_map;
static long race_full, race_cut, race_cut_dst, race_bad;

static void *thr_unmapper(void *p)
{
    long *rounds = p;
    while (!__atomic_load_n(&thr_stop, __ATOMIC_RELAXED)) {
        if (munmap(race_map + 4 * pg, 4 * pg) != 0)
            break;
        sched_yield();
        void *m = mmap(race_map + 4 * pg, 4 * pg, PROT_READ, MAP_SHARED | MAP_FIXED_NOREPLACE,
                       race_fd, (off_t)(4 * pg));
        if (m != race_map + 4 * pg) {
            __atomic_store_n(&race_bad, 1000000, __ATOMIC_RELAXED);
            break;
        }
        (*rounds)++;
        sched_yield();
    }
    return NULL;
}

static void *thr_race_copier(void *p)
{
    (void)p;
    size_t n = 3 * pg;
    unsigned char *buf = p;
    for (long i = 0; !__atomic_load_n(&thr_stop, __ATOMIC_RELAXED); i++) {
        size_t off = 2 * pg + (size_t)(i * 97 % (long)pg);
        memset(buf, 0xee, n);   /* bytes the copy failed to store show as 0xee */
        size_t r = fc_copy_user(buf, race_map + off, n);
        /* Pages 0..3 stay; 4..7 come and go while the copy runs, so the copy may stop
         * at any page boundary from page 4 on (even a byte-by-byte ascending copy
         * could see page 4 mapped and page 5 gone a moment later).  That includes a
         * page boundary of buf inside a source page: the exact recount after a
         * fault copies in chunks that end at the pages of both buffers, and when
         * pages 4..7 go away between two chunks of one source page, the second
         * faults and the count stops at its start (seen under qemu-riscv64 with
         * VLEN 1024: k = 6672 in three failures at different offsets). */
        size_t k = n - r, boundary = 4 * pg - off;
        int at_page = (off + k) % pg == 0 || (uintptr_t)(buf + k) % pg == 0;
        int ok = k == n || (k >= boundary && at_page);
        size_t j = 0;
        /* Pages 4..7 may also read as zeros: QEMU user mode does not remap them
         * atomically (a plain load sees the same), Linux itself does. */
        for (; ok && j < k; j++)
            ok = buf[j] == pat_src((void *)(uintptr_t)(off + j)) || (off + j >= 4 * pg && !buf[j]);
        if (!ok && j == 0)   /* the count itself, no byte checked */
            dprintf(2, "  racing copy: k=%zu, first boundary %zu, n %zu: k is at no page "
                       "boundary (source offset in page %zu, destination %zu)\n", k, boundary,
                    n, (off + k) % pg, (size_t)((uintptr_t)(buf + k) % pg));
        else if (!ok)
            dprintf(2, "  racing copy: k=%zu, first boundary %zu, n %zu, byte %zu is %u not %u\n",
                    k, boundary, n, j - 1, buf[j - 1], pat_src((void *)(uintptr_t)(off + j - 1)));
        if (!ok)
            __atomic_fetch_add(&race_bad, 1, __ATOMIC_RELAXED);
        else if (k == n)
            __atomic_fetch_add(&race_full, 1, __ATOMIC_RELAXED);
        else {
            __atomic_fetch_add(&race_cut, 1, __ATOMIC_RELAXED);
            if ((off + k) % pg)
                __atomic_fetch_add(&race_cut_dst, 1, __ATOMIC_RELAXED);
        }
    }
    return NULL;
}

static void child_threads(void *arg)
{
    (void)arg;
    enum { NT = 4 };
    pthread_t t[NT + 3];
    struct thr_arg a[NT];
    unsigned char *bufs[2];
    for (int i = 0; i < NT; i++) {
        a[i].iters = quick ? 3000 : 30000;
        a[i].errors = 0;
        CHECK(guarded_alloc(&a[i].s, pg) == 0 && guarded_alloc(&a[i].d, pg) == 0);
        fill(a[i].s.body, a[i].s.body_len, pat_src);
    }
    for (int i = 0; i < 2; i++)
        CHECK((bufs[i] = malloc(3 * pg)) != NULL);
    for (int i = 0; i < NT; i++)
        CHECK(pthread_create(&t[i], NULL, thr_copier, &a[i]) == 0);
    /* The file's pattern is a function of the file offset, so it survives remaps. */
    race_fd = (int)syscall(SYS_memfd_create, "fc_race", 0);
    CHECK(race_fd >= 0);
    CHECK(ftruncate(race_fd, (off_t)(8 * pg)) == 0);
    race_map = mmap(NULL, 8 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, race_fd, 0);
    CHECK(race_map != MAP_FAILED);
    for (size_t i = 0; i < 8 * pg; i++)
        race_map[i] = pat_src((void *)(uintptr_t)i);
    long rounds = 0;
    CHECK(pthread_create(&t[NT], NULL, thr_unmapper, &rounds) == 0);
    CHECK(pthread_create(&t[NT + 1], NULL, thr_race_copier, bufs[0]) == 0);
    CHECK(pthread_create(&t[NT + 2], NULL, thr_race_copier, bufs[1]) == 0);
    for (int i = 0; i < NT; i++)
        CHECK(pthread_join(t[i], NULL) == 0);
    /* Let the race run a little longer when the copiers were quick. */
    struct timespec ts = {0, 200 * 1000 * 1000};
    nanosleep(&ts, NULL);
    __atomic_store_n(&thr_stop, 1, __ATOMIC_RELAXED);
    for (int i = NT; i < NT + 3; i++)
        CHECK(pthread_join(t[i], NULL) == 0);
    dprintf(2, "  unmap rounds %ld; racing copies: %ld complete, %ld cut at an unmapped page "
               "(%ld of them inside a source page, at a page of the destination), %ld wrong\n",
            rounds, race_full, race_cut, race_cut_dst, race_bad);
    for (int i = 0; i < NT; i++)
        CHECK(a[i].errors == 0);
    CHECK(race_bad == 0);
    CHECK(race_cut > 0);
    CHECK(race_full > 0);
}

static void test_threads_and_unmapping(void **state)
{
    (void)state;
    expect_exit(run_child(child_threads, NULL), 0);
}

/* ---- 6. chaining ------------------------------------------------------------------ */

static sigjmp_buf prior_env;
static volatile sig_atomic_t prior_calls, prior_sig, prior_code, prior_ctx_ok, prior_usr1_blocked;
static void *volatile prior_addr;

static void prior_siginfo(int sig, siginfo_t *si, void *ctx)
{
    sigset_t cur;
    prior_calls = prior_calls + 1;
    prior_sig = sig;
    prior_code = si->si_code;
    prior_addr = si->si_code > 0 ? si->si_addr : NULL;
    prior_ctx_ok = ctx != NULL;
    sigprocmask(SIG_SETMASK, NULL, &cur);
    prior_usr1_blocked = sigismember(&cur, SIGUSR1);
    if (si->si_code > 0)
        siglongjmp(prior_env, 1);
}

static void prior_plain(int sig)
{
    prior_calls = prior_calls + 1;
    prior_sig = sig;
    siglongjmp(prior_env, 1);
}

static void install(int sig, void (*h)(int, siginfo_t *, void *), void (*plain)(int),
                    int extra_flags, struct sigaction *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGUSR1);
    if (h) {
        sa.sa_sigaction = h;
        sa.sa_flags = SA_SIGINFO | extra_flags;
    } else {
        sa.sa_handler = plain;
        sa.sa_flags = extra_flags;
    }
    CHECK(sigaction(sig, &sa, old) == 0);
}

/* A checked copy faulting on a guard page: must be caught whatever else is set up. */
static void expect_caught(void)
{
    struct guarded g;
    unsigned char buf[64];
    CHECK(guarded_alloc(&g, pg) == 0);
    fill(g.body, g.body_len, pat_src);
    CHECK(fc_copy_user(buf, guarded_tail(&g, 10), 64) == 54);
    CHECK(memcmp(buf, guarded_tail(&g, 10), 10) == 0);
    CHECK(fc_clear_user(guarded_tail(&g, 3), 64) == 61);
    guarded_free(&g);
}

static void child_chain_siginfo(void *arg)
{
    (void)arg;
    struct guarded g;
    struct trunc_file t;
    CHECK(guarded_alloc(&g, pg) == 0);
    trunc_open(&t);
    install(SIGSEGV, prior_siginfo, NULL, 0, NULL);
    install(SIGBUS, prior_siginfo, NULL, 0, NULL);
    CHECK(fc_user_arm() == 0);
    expect_caught();
    /* A fault outside any checked copy reaches the prior handler, with siginfo. */
    unsigned char *bad = g.body + g.body_len + 5;
    if (!sigsetjmp(prior_env, 1)) {
        *(volatile unsigned char *)bad = 1;
        CHECK(!"not reached");
    }
    CHECK(prior_calls == 1 && prior_sig == SIGSEGV && prior_addr == bad);
    CHECK(prior_code == SEGV_ACCERR && prior_ctx_ok);
    CHECK(prior_usr1_blocked);   /* its sa_mask was applied */
    /* The same for SIGBUS. */
    if (!sigsetjmp(prior_env, 1)) {
        *(volatile unsigned char *)(t.map + 2 * pg + 9);
        CHECK(!"not reached");
    }
    CHECK(prior_calls == 2 && prior_sig == SIGBUS && prior_addr == t.map + 2 * pg + 9);
    /* raise() goes to the prior handler, SI_TKILL, not swallowed. */
    raise(SIGSEGV);
    CHECK(prior_calls == 3 && prior_sig == SIGSEGV && prior_code == SI_TKILL);
    expect_caught();
    CHECK(prior_calls == 3);   /* our own faults never reach it */
}

static void child_chain_plain(void *arg)
{
    (void)arg;
    struct guarded g;
    CHECK(guarded_alloc(&g, pg) == 0);
    install(SIGSEGV, NULL, prior_plain, 0, NULL);
    expect_caught();   /* arms lazily */
    if (!sigsetjmp(prior_env, 1)) {
        *(volatile unsigned char *)(g.body - 1);
        CHECK(!"not reached");
    }
    CHECK(prior_calls == 1 && prior_sig == SIGSEGV);
    expect_caught();
}

/* Default disposition: dies of SIGSEGV (SIGBUS), at the same address.  With
 * ptrace (not under QEMU user mode) the parent sees every delivery's siginfo. */
struct default_arg {
    int sig;
    int traced;
    uintptr_t addr;
};

static void child_default(void *p)
{
    struct default_arg *a = p;
    if (a->traced) {
        if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) == 0)
            raise(SIGSTOP);
    }
    fc_user_arm();
    expect_caught();
    *(volatile unsigned char *)a->addr = 1;
    _exit(5);
}

static void run_default(int sig, uintptr_t addr)
{
    struct default_arg a = {sig, 1, addr};
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        child_start();
        alarm(30);
        child_default(&a);
    }
    int st, deliveries = 0;
    for (;;) {
        assert_int_equal(waitpid(pid, &st, 0), pid);
        if (!WIFSTOPPED(st))
            break;
        int s = WSTOPSIG(st), pass = s;
        if (s == SIGSTOP && deliveries == 0) {
            pass = 0;
        } else if (s == sig) {
            /* The checked copies' own faults (SIGSEGV elsewhere) come first. */
            siginfo_t si;
            assert_int_equal(ptrace(PTRACE_GETSIGINFO, pid, NULL, &si), 0);
            if ((uintptr_t)si.si_addr == addr)
                deliveries++;
            else if (deliveries)
                fail_msg("signal %d at %p after the fatal fault at %p", s, si.si_addr,
                         (void *)addr);
        }
        ptrace(PTRACE_CONT, pid, NULL, (void *)(uintptr_t)pass);
    }
    expect_signal(st, sig);
    /* Traced: the fatal fault is delivered twice (to us, then again after SIG_DFL
     * was restored), both times at the same address. */
    if (deliveries)
        assert_true(deliveries >= 2);
    printf("  signal %d: %d traced deliveries at the same address\n", sig, deliveries);
}

static void test_chain_prior_handlers(void **state)
{
    (void)state;
    expect_exit(run_child(child_chain_siginfo, NULL), 0);
    expect_exit(run_child(child_chain_plain, NULL), 0);
}

static void test_chain_default_dies_same_address(void **state)
{
    (void)state;
    /* An address that faults in the child: a guard page allocated before fork. */
    struct guarded g;
    assert_int_equal(guarded_alloc(&g, pg), 0);
    run_default(SIGSEGV, (uintptr_t)(g.body + g.body_len + 77));
    struct trunc_file t;
    trunc_open(&t);
    run_default(SIGBUS, (uintptr_t)(t.map + 3 * pg + 1));
    trunc_close(&t);
    guarded_free(&g);
}

static void child_raise(void *arg)
{
    int sig = *(int *)arg;
    fc_user_arm();
    expect_caught();
    if (sig == SIGBUS)
        kill(getpid(), SIGBUS);
    else
        raise(sig);
    _exit(6);
}

/* raise() from a signal handler that interrupts a checked copy: the copy must not
 * be cut short, and the prior handler sees the raised signal. */
static volatile sig_atomic_t raise_ticks;
static void raise_alarm(int sig)
{
    (void)sig;
    raise_ticks = raise_ticks + 1;
    raise(SIGSEGV);
}

static void child_raise_during_copy(void *arg)
{
    (void)arg;
    install(SIGSEGV, prior_siginfo, NULL, SA_NODEFER, NULL);
    fc_user_arm();
    size_t n = (quick ? 4u : 32u) << 20;
    unsigned char *a = malloc(n), *b = malloc(n);
    CHECK(a && b);
    fill(a, n, pat_src);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = raise_alarm;
    sigemptyset(&sa.sa_mask);
    CHECK(sigaction(SIGALRM, &sa, NULL) == 0);
    struct itimerval it = {{0, 100}, {0, 100}};
    CHECK(setitimer(ITIMER_REAL, &it, NULL) == 0);
    for (int i = 0; i < 20; i++) {
        CHECK(fc_copy_user(b, a, n) == 0);
        CHECK(memcmp(a, b, n) == 0);
    }
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    CHECK(raise_ticks > 0);
    CHECK(prior_calls == raise_ticks && prior_code == SI_TKILL);
}

static void child_ignored(void *arg)
{
    int *pipefd = arg;
    CHECK(signal(SIGSEGV, SIG_IGN) != SIG_ERR);
    fc_user_arm();
    raise(SIGSEGV);          /* ignored, as without the library */
    expect_caught();         /* our faults are still caught */
    CHECK(write(pipefd[1], "R", 1) == 1);
    *(volatile int *)(uintptr_t)0 = 1;   /* a real fault is never ignored */
    _exit(7);
}

static void test_raise_not_swallowed_and_ignored(void **state)
{
    (void)state;
    expect_killed_by_each(child_raise);
    expect_exit(run_child(child_raise_during_copy, NULL), 0);

    int p[2];
    assert_int_equal(pipe(p), 0);
    int st = run_child(child_ignored, p);
    char c = 0;
    close(p[1]);
    assert_int_equal(read(p[0], &c, 1), 1);
    assert_int_equal(c, 'R');
    close(p[0]);
    expect_signal(st, SIGSEGV);
}

/* ---- 7. a handler installed after ours; a blocked SIGSEGV ---------------------------- */

static struct sigaction later_prev;
static volatile sig_atomic_t later_calls;
static void *volatile later_addr;
static sigjmp_buf later_env;

static void later_exit(int sig, siginfo_t *si, void *ctx)
{
    (void)sig, (void)si, (void)ctx;
    _exit(8);
}

/* Chains to the handler it replaced, as well-behaved handlers do. */
static void later_chaining(int sig, siginfo_t *si, void *ctx)
{
    later_calls = later_calls + 1;
    later_addr = si->si_addr;
    if (later_prev.sa_flags & SA_SIGINFO)
        later_prev.sa_sigaction(sig, si, ctx);
}

static void later_recover(int sig, siginfo_t *si, void *ctx)
{
    (void)sig, (void)ctx;
    later_calls = later_calls + 1;
    later_addr = si->si_addr;
    siglongjmp(later_env, 1);
}

static void child_replaced_no_chain(void *arg)
{
    (void)arg;
    expect_caught();
    install(SIGSEGV, later_exit, NULL, 0, NULL);
    struct guarded g;
    unsigned char buf[16];
    CHECK(guarded_alloc(&g, pg) == 0);
    fc_copy_user(buf, guarded_tail(&g, 3), 16);   /* goes to the new handler: exit 8 */
    _exit(9);
}

static void child_replaced_chaining(void *arg)
{
    int rearm = *(int *)arg;
    struct guarded g;
    CHECK(guarded_alloc(&g, pg) == 0);
    expect_caught();
    install(SIGSEGV, later_chaining, NULL, SA_NODEFER, &later_prev);
    if (rearm)
        CHECK(fc_user_arm() == 0);
    expect_caught();   /* through the chaining handler, or directly after re-arming */
    if (!rearm)
        CHECK(later_calls == 2);   /* it saw both faults and passed them to us */
    else
        CHECK(later_calls == 0);
    /* A foreign fault: ours -> later_chaining -> ours again -> the original (default):
     * the process dies of SIGSEGV, no endless loop. */
    *(volatile unsigned char *)(g.body + g.body_len) = 1;
    _exit(10);
}

/* A later handler without SA_NODEFER chains checked-copy faults to us: it runs with
 * SIGSEGV blocked, and our jump back must not leave it blocked. */
static void child_chained_mask(void *arg)
{
    (void)arg;
    expect_caught();
    install(SIGSEGV, later_chaining, NULL, 0, &later_prev);
    for (int i = 0; i < 3; i++) {
        expect_caught();
        sigset_t cur;
        CHECK(sigprocmask(SIG_SETMASK, NULL, &cur) == 0);
        CHECK(!sigismember(&cur, SIGSEGV));
        CHECK(!sigismember(&cur, SIGUSR1));   /* its sa_mask is not left behind either */
    }
    CHECK(later_calls == 6);
}

static void child_rearm(void *arg)
{
    (void)arg;
    struct guarded g;
    CHECK(guarded_alloc(&g, pg) == 0);
    expect_caught();
    install(SIGSEGV, later_recover, NULL, 0, NULL);
    CHECK(fc_user_arm() == 0);
    CHECK(fc_user_arm() == 0);   /* idempotent */
    expect_caught();
    CHECK(later_calls == 0);
    unsigned char *bad = g.body + g.body_len + 1;
    if (!sigsetjmp(later_env, 1)) {
        *(volatile unsigned char *)bad = 1;
        CHECK(!"not reached");
    }
    CHECK(later_calls == 1 && later_addr == bad);
    expect_caught();
}

static void child_blocked(void *arg)
{
    int *pipefd = arg;
    struct guarded g;
    unsigned char buf[64];
    CHECK(guarded_alloc(&g, pg) == 0);
    fill(g.body, g.body_len, pat_src);
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGSEGV);
    CHECK(sigprocmask(SIG_BLOCK, &block, NULL) == 0);
    CHECK(fc_copy_user(buf, guarded_tail(&g, 64), 64) == 0);   /* no fault: fine */
    CHECK(memcmp(buf, guarded_tail(&g, 64), 64) == 0);
    CHECK(write(pipefd[1], "B", 1) == 1);
    fc_copy_user(buf, guarded_tail(&g, 10), 64);   /* documented: the process dies */
    _exit(11);
}

static void test_handler_replaced_after_ours(void **state)
{
    (void)state;
    expect_exit(run_child(child_replaced_no_chain, NULL), 8);
    int rearm = 0;
    expect_signal(run_child(child_replaced_chaining, &rearm), SIGSEGV);
    rearm = 1;
    expect_signal(run_child(child_replaced_chaining, &rearm), SIGSEGV);
    expect_exit(run_child(child_rearm, NULL), 0);
    expect_exit(run_child(child_chained_mask, NULL), 0);
}

static void test_sigsegv_blocked(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    int st = run_child(child_blocked, p);
    char c = 0;
    close(p[1]);
    assert_int_equal(read(p[0], &c, 1), 1);
    assert_int_equal(c, 'B');
    close(p[0]);
    expect_signal(st, SIGSEGV);
}

/* ---- 8. sigaltstack ------------------------------------------------------------------ */

static void child_altstack(void *arg)
{
    (void)arg;
    size_t sz = 256 * 1024;
    unsigned char *alt = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(alt != MAP_FAILED);
    memset(alt, 0xcc, sz);
    stack_t ss = {.ss_sp = alt, .ss_size = sz, .ss_flags = 0};
    CHECK(sigaltstack(&ss, NULL) == 0);
    fc_user_arm();
    expect_caught();
    size_t used = 0;
    for (size_t i = 0; i < sz; i++)
        used += alt[i] != 0xcc;
    CHECK(used > 0);   /* the handler ran on the alternate stack */
    stack_t now;
    CHECK(sigaltstack(NULL, &now) == 0);
    CHECK(!(now.ss_flags & SS_ONSTACK));   /* and we left it */
    expect_caught();
}

static volatile int overflow_depth;

static int overflow(int n)
{
    volatile char pad[512];
    pad[0] = (char)n;
    overflow_depth = n;
    if (n >= 0)
        return overflow(n + 1) + pad[0];
    return pad[0];
}

static void *overflow_thread(void *p)
{
    (void)p;
    static unsigned char alt[64 * 1024];
    stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt, .ss_flags = 0};
    CHECK(sigaltstack(&ss, NULL) == 0);
    expect_caught();   /* this thread's checked copies work, handled on the alt stack */
    return (void *)(intptr_t)overflow(0);
}

static void child_overflow(void *arg)
{
    (void)arg;
    fc_user_arm();
    pthread_attr_t at;
    pthread_t t;
    pthread_attr_init(&at);
    pthread_attr_setstacksize(&at, 256 * 1024);
    CHECK(pthread_create(&t, &at, overflow_thread, NULL) == 0);
    pthread_join(t, NULL);
    _exit(12);
}

static void test_sigaltstack(void **state)
{
    (void)state;
    expect_exit(run_child(child_altstack, NULL), 0);
    expect_signal(run_child(child_overflow, NULL), SIGSEGV);
}

/* ---- 9. edge inputs ------------------------------------------------------------------ */

static void test_edge_inputs(void **state)
{
    (void)state;
    unsigned char buf[64], src[64];
    assert_int_equal(fc_user_arm(), 0);   /* over cmocka's handlers */
    memset(buf, 0x11, sizeof buf);
    fill(src, sizeof src, pat_src);
    assert_int_equal(fc_copy_user(NULL, NULL, 0), 0);
    assert_int_equal(fc_clear_user(NULL, 0), 0);
    assert_int_equal(fc_copy_user(buf, NULL, 0), 0);
    assert_int_equal(fc_copy_user(NULL, src, 0), 0);
    assert_int_equal(fc_copy_user(buf, NULL, 5), 5);
    assert_int_equal(fc_copy_user(NULL, src, 5), 5);
    assert_int_equal(fc_clear_user(NULL, 5), 5);
    assert_int_equal(fc_clear_user(NULL, SIZE_MAX), SIZE_MAX);
    /* Wrapping ranges. */
    assert_int_equal(fc_copy_user(buf, (void *)(UINTPTR_MAX - 3), 16), 16);
    assert_int_equal(fc_copy_user((void *)(UINTPTR_MAX - 3), src, 16), 16);
    assert_int_equal(fc_clear_user((void *)(UINTPTR_MAX - 100), 200), 200);
    assert_int_equal(fc_copy_user(buf, src, SIZE_MAX), SIZE_MAX);
    assert_int_equal(fc_clear_user(buf, SIZE_MAX - 1), SIZE_MAX - 1);
    for (size_t i = 0; i < sizeof buf; i++)
        assert_int_equal(buf[i], 0x11);
    /* Kernel-half and non-canonical addresses (x86-64: #GP, no fault address). */
    if (sizeof(void *) == 8) {
        assert_int_equal(fc_copy_user(buf, (void *)(uintptr_t)0xdead000000000000ull, 16), 16);
        assert_int_equal(fc_copy_user((void *)(uintptr_t)0x8000000000000000ull, src, 16), 16);
        assert_int_equal(fc_copy_user(buf, (void *)(uintptr_t)0xffffffff81000000ull, 16), 16);
        assert_int_equal(fc_clear_user((void *)(uintptr_t)0x0000800000000000ull, 16), 16);
    }
    /* Overlap without a fault: memmove's result. */
    unsigned char ov[80], ref[80];
    fill(ov, sizeof ov, pat_src);
    memcpy(ref, ov, sizeof ov);
    memmove(ref + 3, ref, 70);
    assert_int_equal(fc_copy_user(ov + 3, ov, 70), 0);
    assert_memory_equal(ov, ref, sizeof ov);

    /* A large copy faulting deep inside, src and dst at different page offsets. */
    size_t npages = quick ? 64 : 300, deep = npages - 40;
    struct region sr, dr;
    region_alloc(&sr, npages * pg);
    region_alloc(&dr, npages * pg);
    fill(sr.map, sr.before, pat_src);
    size_t n = (npages - 2) * pg;
    for (int which = 0; which < 3; which++) {
        unsigned char *s = sr.map + 123, *d = dr.map + 3001 % pg;
        unsigned char *holepage = (which == 1 ? dr.map : sr.map) + deep * pg;
        size_t k = which == 0 ? (size_t)(holepage - s) : which == 1 ? (size_t)(holepage - d) : n;
        memset(dr.map, 0x5a, dr.before);
        if (which < 2)
            assert_int_equal(mprotect(holepage, pg, PROT_NONE), 0);
        size_t r = fc_copy_user(d, s, n);
        assert_int_equal(r, n - k);
        assert_memory_equal(d, s, k);
        if (which < 2)
            assert_int_equal(mprotect(holepage, pg, PROT_READ | PROT_WRITE), 0);
        if (which == 0)   /* nothing was readable past the hole, but beyond it was */
            for (size_t i = k; i < k + pg && i < n; i++)
                assert_int_equal(d[i], 0x5a);
    }
    region_free(&sr);
    region_free(&dr);
}

int main(void)
{
    pg = (size_t)sysconf(_SC_PAGESIZE);
    const char *q = getenv("FC_TEST_QUICK");
    quick = q && *q && *q != '0';
    setvbuf(stdout, NULL, _IONBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edge_inputs),
        cmocka_unit_test(test_sweep_src),
        cmocka_unit_test(test_sweep_dst_none),
        cmocka_unit_test(test_sweep_dst_readonly),
        cmocka_unit_test(test_sweep_both_min_wins),
        cmocka_unit_test(test_sweep_clear_none),
        cmocka_unit_test(test_sweep_clear_readonly),
        cmocka_unit_test(test_sigbus_truncated_file),
        cmocka_unit_test(test_many_faults_then_null_kills),
        cmocka_unit_test(test_nested_in_signal_handler),
        cmocka_unit_test(test_threads_and_unmapping),
        cmocka_unit_test(test_chain_prior_handlers),
        cmocka_unit_test(test_chain_default_dies_same_address),
        cmocka_unit_test(test_raise_not_swallowed_and_ignored),
        cmocka_unit_test(test_handler_replaced_after_ours),
        cmocka_unit_test(test_sigsegv_blocked),
        cmocka_unit_test(test_sigaltstack),
    };
    return cmocka_run_group_tests_name("usercopy", tests, NULL, NULL);
}
