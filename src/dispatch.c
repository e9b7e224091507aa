/* dispatch.c - the load-time decision, the FASTCOPY_* overrides, and the API
 * around it (fc_memcpy/fc_memmove/fc_memset IFUNCs, fc_variants, fc_selected).
 *
 * fc_decide() runs inside IFUNC resolvers: probe -> policy -> overrides, once per
 * process, into static storage.  It makes no libc call and reads no relocated
 * data: everything it touches is code, char arrays or plain integers.
 *
 * Overrides are read from /proc/self/environ with raw syscalls (the resolver
 * cannot call getenv: libc is not initialised yet), and ignored entirely when
 * /proc/self/auxv says AT_SECURE (setuid/setgid/capabilities), as glibc ignores
 * its tunables there.  Each problem prints one line on stderr; the automatic
 * choice stands. */
#include "arch.h"
#include "rawsys.h"
#include "fastcopy.h"
#include "dispatch.h"

#define FC_DECL_COPY(name, sym) FC_HIDDEN void *sym(void *, const void *, size_t);
#define FC_DECL_SET(name, sym) FC_HIDDEN void *sym(void *, int, size_t);
FC_MEMCPY_VARIANTS(FC_DECL_COPY)
FC_MEMMOVE_VARIANTS(FC_DECL_COPY)
FC_MEMSET_VARIANTS(FC_DECL_SET)

struct fc_tunables fc_tun FC_HIDDEN;
static struct fc_decision fc_dec;
static fc_cpu_t fc_cpu;

/* ---- overrides --------------------------------------------------------------- */

static const char fc_func_env[FC_NFUNCS][20] = {"FASTCOPY_MEMCPY", "FASTCOPY_MEMMOVE",
                                                "FASTCOPY_MEMSET"};
/* The smallest value each override accepts, and why: the kernels only consult
 * these thresholds in their loop paths (x86_64: above 256-512 bytes), so values
 * below 256 would be silently meaningless; non-temporal stores below 16 KiB only
 * evict data a program is about to reuse (they pay past the last-level cache:
 * 23-24 vs 14 GB/s at 64 MiB here); DC ZVA blocks are at least 64 bytes on every
 * core the aarch64 policy enables it for.  The largest is FC_TUN_MAX (64 for
 * FASTCOPY_MEMSET_MASKED_MAX: one masked store) for all others (no
 * cache comes near it: "never" in practice).  `arch`: the one architecture whose
 * kernels read it (elsewhere it is refused, not silently ignored).  README.md's
 * overrides table and libfastcopy(7) list the same bounds. */
#define FC_TUN_MAX ((size_t)1 << 40) /* 1024G */
enum { T_NT, T_MOVSB_THR, T_MOVSB_STOP, T_STOSB_THR, T_STOSB_STOP, T_STOSB_RESUME, T_ZVA,
       T_ALIAS, T_MASKED, T_COUNT };
static const struct {
    char name[32];
    char arch[8];
    unsigned short offset;
    size_t min, max;
} fc_tun_env[T_COUNT] = {
    [T_NT] = {"FASTCOPY_NT_THRESHOLD", "x86_64", __builtin_offsetof(struct fc_tunables, nt_threshold), 16384, FC_TUN_MAX},
    [T_MOVSB_THR] = {"FASTCOPY_REP_MOVSB_THRESHOLD", "x86_64", __builtin_offsetof(struct fc_tunables, rep_movsb_threshold), 256, FC_TUN_MAX},
    [T_MOVSB_STOP] = {"FASTCOPY_REP_MOVSB_STOP", "x86_64", __builtin_offsetof(struct fc_tunables, rep_movsb_stop), 256, FC_TUN_MAX},
    [T_STOSB_THR] = {"FASTCOPY_REP_STOSB_THRESHOLD", "x86_64", __builtin_offsetof(struct fc_tunables, rep_stosb_threshold), 256, FC_TUN_MAX},
    [T_STOSB_STOP] = {"FASTCOPY_REP_STOSB_STOP", "x86_64", __builtin_offsetof(struct fc_tunables, rep_stosb_stop), 256, FC_TUN_MAX},
    [T_STOSB_RESUME] = {"FASTCOPY_REP_STOSB_RESUME", "x86_64", __builtin_offsetof(struct fc_tunables, rep_stosb_resume), 256, FC_TUN_MAX},
    [T_ZVA] = {"FASTCOPY_ZVA_THRESHOLD", "aarch64", __builtin_offsetof(struct fc_tunables, zva_threshold), 64, FC_TUN_MAX},
    [T_ALIAS] = {"FASTCOPY_ALIAS_BACKWARD_STOP", "x86_64", __builtin_offsetof(struct fc_tunables, alias_backward_stop), 0, FC_TUN_MAX},
    /* one masked store covers at most 64 bytes */
    [T_MASKED] = {"FASTCOPY_MEMSET_MASKED_MAX", "x86_64", __builtin_offsetof(struct fc_tunables, memset_masked_max), 0, 64},
};
/* Pairs that must be ordered (lo <= hi): a window whose start is above its end is
 * a mistake, not a way to close it (equal values close it). */
static const unsigned char fc_tun_order[][2] = {
    {T_MOVSB_THR, T_MOVSB_STOP}, {T_STOSB_THR, T_STOSB_STOP}, {T_STOSB_STOP, T_STOSB_RESUME},
};

static size_t *tun_field(struct fc_tunables *t, unsigned i)
{
    return (size_t *)((char *)t + fc_tun_env[i].offset);
}

static void copy_bytes(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const volatile unsigned char *s = src;
    while (n--)
        *d++ = *s++;
}

/* One diagnostic line on stderr, built without libc. */
struct fc_line { char buf[320]; };

static void line_start(struct fc_line *l, const char *key, const char *val)
{
    l->buf[0] = 0;
    fc_strcat(l->buf, sizeof l->buf, "libfastcopy: ");
    fc_strcat(l->buf, sizeof l->buf, key);
    if (val) {
        fc_strcat(l->buf, sizeof l->buf, "=");
        fc_strcat(l->buf, sizeof l->buf, val);
    }
    fc_strcat(l->buf, sizeof l->buf, ": ");
}

static void line_add(struct fc_line *l, const char *s)
{
    fc_strcat(l->buf, sizeof l->buf - 1, s);
}

static void line_emit(struct fc_line *l)
{
#ifdef FC_TRACE_BUILD
    /* libfastcopy-trace.so applies the overrides silently: a traced program's
     * stderr is its own (a program that links libfastcopy.so prints the line
     * itself; one that does not would never have printed it). */
    (void)l;
    return;
#endif
    size_t n = fc_strlen(l->buf);
    l->buf[n++] = '\n';
    fc_write_err(l->buf, n);
}

/* "123", "64K", "24M", "1G" (binary units) -> bytes; 0 on syntax error. */
static int parse_size(const char *s, size_t *out)
{
    uint64_t v = 0;
    if (*s < '0' || *s > '9')
        return 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        if (v > ((uint64_t)1 << 50))
            return 0;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    int shift = 0;
    if (*s == 'k' || *s == 'K')
        shift = 10, s++;
    else if (*s == 'm' || *s == 'M')
        shift = 20, s++;
    else if (*s == 'g' || *s == 'G')
        shift = 30, s++;
    if (*s || v > ((uint64_t)1 << 50) >> shift)
        return 0;
    v <<= shift;
    *out = (size_t)v;
    return 1;
}

static void apply_variant(const fc_cpu_t *cpu, struct fc_decision *d, int f,
                          const char *key, const char *val)
{
    struct fc_line l;
    if (!*val || fc_streq(val, "auto"))
        return;
    int i = fc_arch_variant_index(f, val);
    if (i >= 0 && fc_arch_usable(cpu, f, (unsigned)i)) {
        d->sel[f] = (unsigned char)i;
        d->why[f][0] = 0;
        fc_strcat(d->why[f], FC_WHY_LEN, "forced by ");
        fc_strcat(d->why[f], FC_WHY_LEN, key);
        fc_strcat(d->why[f], FC_WHY_LEN, "=");
        fc_strcat(d->why[f], FC_WHY_LEN, val);
        return;
    }
    line_start(&l, key, val);
    if (i < 0) {
        line_add(&l, "unknown variant (known:");
        for (unsigned k = 0; k < fc_arch_variant_count(f); k++) {
            line_add(&l, " ");
            line_add(&l, fc_arch_variant_name(f, k));
        }
        line_add(&l, ")");
    } else {
        line_add(&l, "variant not usable on this CPU");
    }
    line_add(&l, "; keeping ");
    line_add(&l, fc_arch_variant_name(f, d->sel[f]));
    line_emit(&l);
}

static void add_size(struct fc_line *l, size_t v)
{
    char num[32];
    num[0] = 0;
    fc_strcat_size(num, sizeof num, v);
    line_add(l, num);
}

/* 1 when the value was taken. */
static int apply_tunable(struct fc_decision *d, unsigned t, const char *key, const char *val)
{
    size_t v;
    size_t *field = tun_field(&d->tun, t);
    struct fc_line l;
    line_start(&l, key, val);
    if (!fc_streq(fc_tun_env[t].arch, FC_ARCH_NAME)) {
        line_add(&l, "only used on ");
        line_add(&l, fc_tun_env[t].arch);
        line_add(&l, ", ignored on " FC_ARCH_NAME);
        line_emit(&l);
        return 0;
    }
    if (parse_size(val, &v) && v >= fc_tun_env[t].min && v <= fc_tun_env[t].max) {
        *field = v;
        return 1;
    }
    line_add(&l, "not a size ");
    if (fc_tun_env[t].min) {
        line_add(&l, "of ");
        add_size(&l, fc_tun_env[t].min);
        line_add(&l, " to ");
    } else {
        line_add(&l, "up to ");
    }
    add_size(&l, fc_tun_env[t].max);
    line_add(&l, " bytes (suffixes K, M, G); keeping ");
    add_size(&l, *field);
    line_emit(&l);
    return 0;
}

/* "FASTCOPY_X=64K" when the environment set it, else "FASTCOPY_X (default 24M)". */
static void add_setting(struct fc_line *l, const struct fc_tunables *t, unsigned i, int set)
{
    line_add(l, fc_tun_env[i].name);
    line_add(l, set ? "=" : " (default ");
    add_size(l, *tun_field((struct fc_tunables *)t, i));
    if (!set)
        line_add(l, ")");
}

/* After every variable is read: the ordered pairs.  Each pair out of order (with
 * at least one side from the environment) is one line, and the pair's group
 * (rep movsb, or the three rep stosb values) goes back to the automatic values. */
static void check_order(struct fc_decision *d, const struct fc_tunables *def, unsigned set)
{
    unsigned restore = 0;
    /* The one-window memset default (stop == resume == threshold): a threshold
     * set alone moves that one window, as the policy would have. */
    if ((set & (1u << T_STOSB_THR)) && !(set & ((1u << T_STOSB_STOP) | (1u << T_STOSB_RESUME))) &&
        def->rep_stosb_stop == def->rep_stosb_threshold &&
        def->rep_stosb_resume == def->rep_stosb_threshold)
        d->tun.rep_stosb_stop = d->tun.rep_stosb_resume = d->tun.rep_stosb_threshold;
    for (unsigned k = 0; k < sizeof fc_tun_order / sizeof fc_tun_order[0]; k++) {
        unsigned lo = fc_tun_order[k][0], hi = fc_tun_order[k][1];
        if (!(set & ((1u << lo) | (1u << hi))) ||
            *tun_field(&d->tun, lo) <= *tun_field(&d->tun, hi))
            continue;
        struct fc_line l;
        l.buf[0] = 0;
        fc_strcat(l.buf, sizeof l.buf, "libfastcopy: ");
        add_setting(&l, &d->tun, lo, (set >> lo) & 1);
        line_add(&l, " is above ");
        add_setting(&l, &d->tun, hi, (set >> hi) & 1);
        line_add(&l, ": an empty window (equal sizes close it); keeping the automatic ");
        add_size(&l, *tun_field((struct fc_tunables *)def, lo));
        line_add(&l, " and ");
        add_size(&l, *tun_field((struct fc_tunables *)def, hi));
        line_emit(&l);
        restore |= lo == T_MOVSB_THR ? (1u << T_MOVSB_THR) | (1u << T_MOVSB_STOP)
                                     : (1u << T_STOSB_THR) | (1u << T_STOSB_STOP) |
                                           (1u << T_STOSB_RESUME);
    }
    for (unsigned i = 0; i < T_COUNT; i++)
        if (restore & (1u << i))
            *tun_field(&d->tun, i) = *tun_field((struct fc_tunables *)def, i);
}

static void apply_one(const fc_cpu_t *cpu, struct fc_decision *d, const char *key,
                      const char *val, unsigned *set)
{
    for (int f = 0; f < FC_NFUNCS; f++)
        if (fc_streq(key, fc_func_env[f])) {
            apply_variant(cpu, d, f, key, val);
            return;
        }
    for (unsigned t = 0; t < T_COUNT; t++)
        if (fc_streq(key, fc_tun_env[t].name)) {
            if (apply_tunable(d, t, key, val))
                *set |= 1u << t;
            return;
        }
    struct fc_line l;
    line_start(&l, key, 0);
    line_add(&l, "unknown FASTCOPY_ variable, ignored");
    line_emit(&l);
}

/* 1 when the auxiliary vector says AT_SECURE, or cannot be read or lacks the
 * entry (be safe). */
static int at_secure(void)
{
    uint64_t v = 1;
    return fc_auxv_get(23 /* AT_SECURE */, &v) != 1 || v != 0;
}

/* Feeds every FASTCOPY_*=value entry of the initial environment to apply_one.
 * /proc/self/environ is a sequence of NUL-terminated "KEY=value" strings; it is
 * read in chunks, and an entry longer than 255 bytes is ignored. */
static void apply_overrides(const fc_cpu_t *cpu, struct fc_decision *d)
{
    char chunk[1024], entry[256];
    size_t len = 0;
    int toolong = 0;
    long fd, n;
    unsigned set = 0;           /* tunables the environment set */
    struct fc_tunables def;     /* the policy's values */

    if (at_secure())
        return;
    fd = fc_open_ro("/proc/self/environ");
    if (fd < 0)
        return;
    copy_bytes(&def, &d->tun, sizeof def);
    while ((n = fc_read(fd, chunk, sizeof chunk)) > 0) {
        for (long i = 0; i < n; i++) {
            char ch = chunk[i];
            if (ch) {
                if (len < sizeof entry - 1)
                    entry[len++] = ch;
                else
                    toolong = 1;
                continue;
            }
            entry[len] = 0;
            if (!toolong && len > 9) {
                static const char prefix[] = "FASTCOPY_";
                int match = 1;
                for (int k = 0; k < 9; k++)
                    match &= entry[k] == prefix[k];
                char *eq = entry;
                while (*eq && *eq != '=')
                    eq++;
                if (match && *eq == '=') {
                    *eq = 0;
                    apply_one(cpu, d, entry, eq + 1, &set);
                }
            }
            len = 0;
            toolong = 0;
        }
    }
    fc_close(fd);
    check_order(d, &def, set);
}

/* ---- the decision --------------------------------------------------------------- */

/* The decision is published once: fc_state 0 = not made, 1 = one caller is
 * storing it, 2 = made.  Callers can race: lazy binding under glibc, and where
 * the C library has no IFUNC (musl) the first calls of any name, from several
 * threads at once, a signal handler or another library's constructor (see
 * fc_bind_all).  Each racer computes the decision into its own stack copy (it is a
 * pure function of the CPU and the initial environment: every copy is the same),
 * and only the one that wins the compare-and-swap stores it, with every signal
 * blocked on its thread, so that no handler of that thread can find the state at
 * 1 and wait for itself.  The others wait for 2 (another thread, a few hundred
 * stores away). */
static int fc_state;

FC_HIDDEN const struct fc_decision *fc_decide(uint64_t a0, const void *a1)
{
    if (__atomic_load_n(&fc_state, __ATOMIC_ACQUIRE) == 2)
        return &fc_dec;
    struct fc_decision d;
    fc_cpu_t c;
    uint64_t mask;
    int idle = 0;
    fc_arch_probe(&c, a0, a1);
    fc_arch_policy(&c, &d);
    apply_overrides(&c, &d);
    fc_sigblock_all(&mask);
    if (__atomic_compare_exchange_n(&fc_state, &idle, 1, 0, __ATOMIC_ACQUIRE,
                                    __ATOMIC_ACQUIRE)) {
        copy_bytes(&fc_cpu, &c, sizeof c);
        copy_bytes(&fc_dec, &d, sizeof d);
        copy_bytes(&fc_tun, &d.tun, sizeof fc_tun);
        __atomic_store_n(&fc_state, 2, __ATOMIC_RELEASE);
    }
    fc_sigrestore(&mask);
    while (__atomic_load_n(&fc_state, __ATOMIC_ACQUIRE) != 2)
        fc_sched_yield();
    return &fc_dec;
}

FC_HIDDEN const struct fc_decision *fc_decide_runtime(void)
{
    uint64_t a0;
    const void *a1;
    fc_arch_runtime_args(&a0, &a1);
    return fc_decide(a0, a1);
}

FC_HIDDEN const void *fc_cpu_facts(void)
{
    fc_decide_runtime();
    return &fc_cpu;
}

/* ---- public API ----------------------------------------------------------------- */

#define FC_CASE(name, sym)                                                           \
    if (i == n++)                                                                    \
        return (void *)sym;

static void *copy_kernel(int f, unsigned i)
{
    unsigned n = 0;
    if (f == FC_MEMCPY) {
        FC_MEMCPY_VARIANTS(FC_CASE)
    } else {
        FC_MEMMOVE_VARIANTS(FC_CASE)
    }
    return (void *)fc_memmove_generic;
}

static void *set_kernel(unsigned i)
{
    unsigned n = 0;
    FC_MEMSET_VARIANTS(FC_CASE)
    return (void *)fc_memset_generic;
}

#if FC_HAVE_IFUNC && defined(FC_NO_IFUNC)
/* No GNU IFUNC in the C library: fc_memcpy/fc_memmove/fc_memset are jumps through
 * slots that start at resolving stubs (dispatch.h); fc_bind_all fills them and,
 * when the drop-in names are linked in, theirs (exports.c). */
FC_SLOT_AT_STUB(void *, fc_memcpy, (void *restrict, const void *restrict, size_t))
FC_SLOT_AT_STUB(void *, fc_memmove, (void *, const void *, size_t))
FC_SLOT_AT_STUB(void *, fc_memset, (void *, int, size_t))
__asm__(FC_TRAMPOLINE_ASM("fc_memcpy") FC_TRAMPOLINE_ASM("fc_memmove")
            FC_TRAMPOLINE_ASM("fc_memset"));

FC_HIDDEN void fc_bind_all(void)
{
    const struct fc_decision *d = fc_decide_runtime();
    FC_SLOT_FILL(fc_memcpy, (void *(*)(void *restrict, const void *restrict, size_t))
                                copy_kernel(FC_MEMCPY, d->sel[FC_MEMCPY]));
    FC_SLOT_FILL(fc_memmove, (fc_copy_fn)copy_kernel(FC_MEMMOVE, d->sel[FC_MEMMOVE]));
    FC_SLOT_FILL(fc_memset, (fc_set_fn)set_kernel(d->sel[FC_MEMSET]));
    if (fc_bind_exports)
        fc_bind_exports();
}

FC_HIDDEN void fc_bind_reset_for_tests(void)
{
    if (fc_unbind_exports_for_tests)
        fc_unbind_exports_for_tests();
    FC_SLOT_FILL(fc_memcpy, (void *(*)(void *restrict, const void *restrict, size_t))
                                fc_stub_fc_memcpy);
    FC_SLOT_FILL(fc_memmove, (fc_copy_fn)fc_stub_fc_memmove);
    FC_SLOT_FILL(fc_memset, (fc_set_fn)fc_stub_fc_memset);
    __atomic_store_n(&fc_state, 0, __ATOMIC_RELEASE);
}

/* The decision early, before main (and before most constructors of the libraries
 * loaded after this one); a call that comes earlier goes through a stub. */
__attribute__((constructor)) static void fc_bind_at_load(void)
{
    fc_bind_all();
}
#elif FC_HAVE_IFUNC
typedef void *(*fc_memcpy_t)(void *restrict, const void *restrict, size_t);
__attribute__((used)) static fc_memcpy_t resolve_fc_memcpy(uint64_t a0, const void *a1)
{
    return (fc_memcpy_t)copy_kernel(FC_MEMCPY, fc_decide(a0, a1)->sel[FC_MEMCPY]);
}
__attribute__((used)) static fc_copy_fn resolve_fc_memmove(uint64_t a0, const void *a1)
{
    return (fc_copy_fn)copy_kernel(FC_MEMMOVE, fc_decide(a0, a1)->sel[FC_MEMMOVE]);
}
__attribute__((used)) static fc_set_fn resolve_fc_memset(uint64_t a0, const void *a1)
{
    return (fc_set_fn)set_kernel(fc_decide(a0, a1)->sel[FC_MEMSET]);
}
#ifdef FC_TRACE_BUILD
/* libfastcopy-trace.so: hidden here, exported by src/trace.c as plain functions
 * (as IFUNC symbols, glibc printed "Relink `libfastcopy.so.0' with
 * `libfastcopy-trace.so' for IFUNC symbol `fc_memcpy'" in a traced program that
 * links libfastcopy.so, whose own calls of fc_memcpy bind to the preloaded one). */
FC_HIDDEN void *fc_traced_fc_memcpy(void *restrict, const void *restrict, size_t)
    __attribute__((ifunc("resolve_fc_memcpy")));
FC_HIDDEN void *fc_traced_fc_memmove(void *, const void *, size_t)
    __attribute__((ifunc("resolve_fc_memmove")));
FC_HIDDEN void *fc_traced_fc_memset(void *, int, size_t) __attribute__((ifunc("resolve_fc_memset")));
#else
FC_API void *fc_memcpy(void *restrict, const void *restrict, size_t)
    __attribute__((ifunc("resolve_fc_memcpy")));
FC_API void *fc_memmove(void *, const void *, size_t) __attribute__((ifunc("resolve_fc_memmove")));
FC_API void *fc_memset(void *, int, size_t) __attribute__((ifunc("resolve_fc_memset")));
#endif
#else
FC_API void *fc_memcpy(void *restrict d, const void *restrict s, size_t n)
{
    return fc_memcpy_generic(d, s, n);
}
FC_API void *fc_memmove(void *d, const void *s, size_t n)
{
    return fc_memmove_generic(d, s, n);
}
FC_API void *fc_memset(void *d, int c, size_t n)
{
    return fc_memset_generic(d, c, n);
}
#endif

#define FC_COUNT(name, sym) +1
#define FC_NVARIANTS (0 FC_MEMCPY_VARIANTS(FC_COUNT) FC_MEMMOVE_VARIANTS(FC_COUNT) \
                      FC_MEMSET_VARIANTS(FC_COUNT))
static struct fc_variant fc_variant_list[FC_NVARIANTS];

FC_API size_t fc_variants(const struct fc_variant **list)
{
    static const char funcs[FC_NFUNCS][8] = {"memcpy", "memmove", "memset"};
    size_t k = 0;
    fc_decide_runtime();
    for (int f = 0; f < FC_NFUNCS; f++)
        for (unsigned i = 0; i < fc_arch_variant_count(f); i++, k++) {
            struct fc_variant *v = &fc_variant_list[k];
            v->func = funcs[f];
            v->name = fc_arch_variant_name(f, i);
            v->fn = (void (*)(void))(f == FC_MEMSET ? set_kernel(i) : copy_kernel(f, i));
            v->usable = fc_arch_usable(&fc_cpu, f, i);
        }
    if (list)
        *list = fc_variant_list;
    return k;
}

FC_API const char *fc_selected(const char *func)
{
    const struct fc_decision *d = fc_decide_runtime();
    for (int f = 0; f < FC_NFUNCS; f++)
        if (func && fc_streq(func, fc_func_name(f)))
            return fc_arch_variant_name(f, d->sel[f]);
    return 0;
}

/* "libfastcopy 0.1.0": what `strings libfastcopy.so` finds, and what fc_version
 * returns the number part of. */
static const char fc_ident[] = "libfastcopy " FASTCOPY_VERSION_STRING;

FC_API const char *fc_version(void)
{
    return fc_ident + sizeof "libfastcopy " - 1;
}

/* For fastcopy-info and the tests (not exported): why each function got its variant. */
FC_HIDDEN const char *fc_selected_reason(const char *func)
{
    const struct fc_decision *d = fc_decide_runtime();
    for (int f = 0; f < FC_NFUNCS; f++)
        if (func && fc_streq(func, fc_func_name(f)))
            return d->why[f];
    return 0;
}
