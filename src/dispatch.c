/* dispatch.c - the load-time decision and the API around it (fc_memcpy/
 * fc_memmove/fc_memset IFUNCs, fc_variants, fc_selected).
 *
 * fc_decide() runs inside IFUNC resolvers: probe -> policy -> settings (the
 * FASTCOPY_* overrides and the tuning file: settings.c), once per process, into
 * static storage.  It makes no libc call and reads no relocated data: everything
 * it touches is code, char arrays or plain integers. */
#include "kernels.h"
#include "rawsys.h"
#include "fastcopy.h"
#include "dispatch.h"
#include "control.h"
#include "fc_tun_offsets.h" /* its static assertions: the assembly's offsets are current */

struct fc_tunables fc_tun FC_HIDDEN __attribute__((aligned(FC_TUN_ALIGN)));
static struct fc_decision fc_dec;
static fc_cpu_t fc_cpu;

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
    fc_apply_settings(&c, &d);
    fc_sigblock_all(&mask);
    if (__atomic_compare_exchange_n(&fc_state, &idle, 1, 0, __ATOMIC_ACQUIRE,
                                    __ATOMIC_ACQUIRE)) {
        fc_bytecopy(&fc_cpu, &c, sizeof c);
        fc_bytecopy(&fc_dec, &d, sizeof d);
        fc_bytecopy(&fc_tun, &d.tun, sizeof fc_tun);
        __atomic_store_n(&fc_state, 2, __ATOMIC_RELEASE);
    }
    fc_sigrestore(&mask);
    while (__atomic_load_n(&fc_state, __ATOMIC_ACQUIRE) != 2)
        fc_sched_yield();
    fc_diag_flush();
    return &fc_dec;
}

FC_HIDDEN const struct fc_decision *fc_decide_runtime(void)
{
    uint64_t a0;
    const void *a1;
    /* Made already: no need for the arguments (under musl on aarch64 they are
     * read from /proc/self/auxv, arch.h). */
    if (__atomic_load_n(&fc_state, __ATOMIC_ACQUIRE) == 2)
        return &fc_dec;
    fc_arch_runtime_args(&a0, &a1);
    return fc_decide(a0, a1);
}

FC_HIDDEN const void *fc_cpu_facts(void)
{
    fc_decide_runtime();
    return &fc_cpu;
}

/* ---- public API ----------------------------------------------------------------- */

/* The kernel of variant i of function f (kernels.h); the portable one past the end. */
#define FC_PICKED(name, sym) (void *)sym
static void *kernel_of(int f, unsigned i)
{
    if (f == FC_MEMSET) {
        FC_PICK_KERNEL(FC_MEMSET_VARIANTS, i);
        return (void *)fc_memset_generic;
    }
    if (f == FC_MEMCPY)
        FC_PICK_KERNEL(FC_MEMCPY_VARIANTS, i);
    else
        FC_PICK_KERNEL(FC_MEMMOVE_VARIANTS, i);
    return (void *)fc_memmove_generic;
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

/* The slots are filled after the decision, each with a store-release; why plain
 * loads of them in the trampolines are enough: dispatch.h, "Memory ordering". */
FC_HIDDEN void fc_bind_all(void)
{
    const struct fc_decision *d = fc_decide_runtime();
    FC_SLOT_FILL(fc_memcpy, (void *(*)(void *restrict, const void *restrict, size_t))
                                kernel_of(FC_MEMCPY, d->sel[FC_MEMCPY]));
    FC_SLOT_FILL(fc_memmove, (fc_copy_fn)kernel_of(FC_MEMMOVE, d->sel[FC_MEMMOVE]));
    FC_SLOT_FILL(fc_memset, (fc_set_fn)kernel_of(FC_MEMSET, d->sel[FC_MEMSET]));
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
    return (fc_memcpy_t)kernel_of(FC_MEMCPY, fc_decide(a0, a1)->sel[FC_MEMCPY]);
}
__attribute__((used)) static fc_copy_fn resolve_fc_memmove(uint64_t a0, const void *a1)
{
    return (fc_copy_fn)kernel_of(FC_MEMMOVE, fc_decide(a0, a1)->sel[FC_MEMMOVE]);
}
__attribute__((used)) static fc_set_fn resolve_fc_memset(uint64_t a0, const void *a1)
{
    return (fc_set_fn)kernel_of(FC_MEMSET, fc_decide(a0, a1)->sel[FC_MEMSET]);
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
            v->fn = (void (*)(void))kernel_of(f, i);
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
