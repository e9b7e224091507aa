/* exports.c - the drop-in names, each bound at load time by a GNU IFUNC.
 *
 * memcpy, memmove and memset resolve straight to the selected kernel.  The other
 * names resolve to a small wrapper around that same kernel, generated per variant
 * below (mempcpy returns dst+n; bcopy swaps arguments; the _chk forms check the
 * destination size first and call glibc's __chk_fail, which prints "buffer
 * overflow detected" and aborts, as glibc's own _chk functions do). */
#include "kernels.h"
#include "dispatch.h"
#include "control.h"
#if defined(__x86_64__) && !defined(FC_DROPIN_IFUNC) && !defined(FC_TRACE_BUILD)
#include "fc_dropin_config.h"
#endif

#ifdef FC_NO_IFUNC
/* musl has no __chk_fail (nor _chk functions): the same message as glibc's, then
 * abort. */
#include "rawsys.h"
extern void abort(void) __attribute__((noreturn));
static __attribute__((noreturn, cold)) void fc_chk_fail(void)
{
    static const char msg[] = "*** buffer overflow detected ***: terminated\n";
    fc_write_err(msg, sizeof msg - 1);
    abort();
}
#define __chk_fail fc_chk_fail
#else
extern void __chk_fail(void) __attribute__((noreturn));
#endif

#define FC_MEMCPY_WRAPPERS(name, sym)                                                \
    static void *mempcpy_##name(void *d, const void *s, size_t n)                    \
    {                                                                                \
        return (char *)sym(d, s, n) + n;                                             \
    }                                                                                \
    static void *memcpy_chk_##name(void *d, const void *s, size_t n, size_t dn)      \
    {                                                                                \
        if (__builtin_expect(dn < n, 0))                                             \
            __chk_fail();                                                            \
        return sym(d, s, n);                                                         \
    }                                                                                \
    static void *mempcpy_chk_##name(void *d, const void *s, size_t n, size_t dn)     \
    {                                                                                \
        if (__builtin_expect(dn < n, 0))                                             \
            __chk_fail();                                                            \
        return (char *)sym(d, s, n) + n;                                             \
    }
#define FC_MEMMOVE_WRAPPERS(name, sym)                                               \
    static void bcopy_##name(const void *s, void *d, size_t n)                       \
    {                                                                                \
        sym(d, s, n);                                                                \
    }                                                                                \
    static void *memmove_chk_##name(void *d, const void *s, size_t n, size_t dn)     \
    {                                                                                \
        if (__builtin_expect(dn < n, 0))                                             \
            __chk_fail();                                                            \
        return sym(d, s, n);                                                         \
    }
#define FC_MEMSET_WRAPPERS(name, sym)                                                \
    static void bzero_##name(void *d, size_t n)                                      \
    {                                                                                \
        sym(d, 0, n);                                                                \
    }                                                                                \
    static void explicit_bzero_##name(void *d, size_t n)                             \
    {                                                                                \
        sym(d, 0, n);                                                                \
        __asm__ volatile("" : : "r"(d) : "memory"); /* not optimised away */         \
    }                                                                                \
    static void *memset_chk_##name(void *d, int c, size_t n, size_t dn)              \
    {                                                                                \
        if (__builtin_expect(dn < n, 0))                                             \
            __chk_fail();                                                            \
        return sym(d, c, n);                                                         \
    }                                                                                \
    static void explicit_bzero_chk_##name(void *d, size_t n, size_t dn)              \
    {                                                                                \
        if (__builtin_expect(dn < n, 0))                                             \
            __chk_fail();                                                            \
        sym(d, 0, n);                                                                \
        __asm__ volatile("" : : "r"(d) : "memory");                                  \
    }
FC_MEMCPY_VARIANTS(FC_MEMCPY_WRAPPERS)
FC_MEMMOVE_VARIANTS(FC_MEMMOVE_WRAPPERS)
FC_MEMSET_VARIANTS(FC_MEMSET_WRAPPERS)
/* The same around the C library's functions, for a disabled process (control.c). */
FC_MEMCPY_WRAPPERS(libc, fc_libc_memcpy)
FC_MEMMOVE_WRAPPERS(libc, fc_libc_memmove)
FC_MEMSET_WRAPPERS(libc, fc_libc_memset)
#define FC_LIBC_FC_MEMCPY fc_libc_memcpy
#define FC_LIBC_FC_MEMMOVE fc_libc_memmove
#define FC_LIBC_FC_MEMSET fc_libc_memset

/* The selected variant's kernel of func: what a disabled process calls until the
 * C library's function is found (control.c, fc_libc_seed). */
#define FC_PICKED(name, sym) (void *)sym
static void *own_kernel(int func, unsigned i)
{
    if (func == FC_MEMSET) {
        FC_PICK_KERNEL(FC_MEMSET_VARIANTS, i);
        return (void *)fc_memset_generic;
    }
    FC_PICK_KERNEL(FC_MEMMOVE_VARIANTS, i); /* memcpy's kernels are memmove's */
    return (void *)fc_memmove_generic;
}
#undef FC_PICKED

/* One resolver per exported name: the wrapper of the selected variant, by the
 * picker the fc_* IFUNCs use too (kernels.h); in a disabled process
 * (FASTCOPY_DISABLE=1, /etc/fastcopy/disable) the wrapper around the C library's
 * function instead. */
typedef void *(*copy_t)(void *, const void *, size_t);
typedef void *(*set_t)(void *, int, size_t);
typedef void *(*copy_chk_t)(void *, const void *, size_t, size_t);
typedef void *(*set_chk_t)(void *, int, size_t, size_t);
typedef void (*bcopy_t)(const void *, void *, size_t);
typedef void (*bzero_t)(void *, size_t);
typedef void (*bzero_chk_t)(void *, size_t, size_t);

#define FC_PICKED(name, sym) WRAP(name, sym)
#define FC_RESOLVER(export, type, func, LIST)                                        \
    __attribute__((used)) static type resolve_##export(uint64_t a0, const void *a1)      \
    {                                                                                \
        const struct fc_decision *fc_d = fc_decide(a0, a1);                          \
        if (fc_control_disabled()) {                                                 \
            fc_libc_seed(func, own_kernel(func, fc_d->sel[func]));                   \
            return WRAP(libc, FC_LIBC_##func);                                       \
        }                                                                            \
        FC_PICK_KERNEL(LIST, fc_d->sel[func]);                                       \
        return 0;                                                                    \
    }

#define WRAP(name, sym) sym
FC_RESOLVER(memcpy, copy_t, FC_MEMCPY, FC_MEMCPY_VARIANTS)
FC_RESOLVER(memmove, copy_t, FC_MEMMOVE, FC_MEMMOVE_VARIANTS)
FC_RESOLVER(memset, set_t, FC_MEMSET, FC_MEMSET_VARIANTS)
#undef WRAP
#define WRAP(name, sym) mempcpy_##name
FC_RESOLVER(mempcpy, copy_t, FC_MEMCPY, FC_MEMCPY_VARIANTS)
#undef WRAP
#define WRAP(name, sym) memcpy_chk_##name
FC_RESOLVER(memcpy_chk, copy_chk_t, FC_MEMCPY, FC_MEMCPY_VARIANTS)
#undef WRAP
#define WRAP(name, sym) mempcpy_chk_##name
FC_RESOLVER(mempcpy_chk, copy_chk_t, FC_MEMCPY, FC_MEMCPY_VARIANTS)
#undef WRAP
#define WRAP(name, sym) bcopy_##name
FC_RESOLVER(bcopy, bcopy_t, FC_MEMMOVE, FC_MEMMOVE_VARIANTS)
#undef WRAP
#define WRAP(name, sym) memmove_chk_##name
FC_RESOLVER(memmove_chk, copy_chk_t, FC_MEMMOVE, FC_MEMMOVE_VARIANTS)
#undef WRAP
#define WRAP(name, sym) bzero_##name
FC_RESOLVER(bzero, bzero_t, FC_MEMSET, FC_MEMSET_VARIANTS)
#undef WRAP
#define WRAP(name, sym) explicit_bzero_##name
FC_RESOLVER(explicit_bzero, bzero_t, FC_MEMSET, FC_MEMSET_VARIANTS)
#undef WRAP
#define WRAP(name, sym) memset_chk_##name
FC_RESOLVER(memset_chk, set_chk_t, FC_MEMSET, FC_MEMSET_VARIANTS)
#undef WRAP
#define WRAP(name, sym) explicit_bzero_chk_##name
FC_RESOLVER(explicit_bzero_chk, bzero_chk_t, FC_MEMSET, FC_MEMSET_VARIANTS)
#undef WRAP

/* Binding the exported names: each name's variant is chosen by a GNU IFUNC
 * resolver at load time (above).  On aarch64 and riscv64 the exported symbols are
 * those IFUNCs themselves.  On x86_64 the exported symbol is a trampoline through
 * a read-only slot that the IFUNC fills (an R_X86_64_IRELATIVE relocation here):
 *
 *   memcpy:  jmp *fc_slot_memcpy(%rip)      fc_slot_memcpy = &<hidden IFUNC>
 *
 * so that glibc's x86 loader prints no "Relink `libX' with `libfastcopy.so' for
 * IFUNC symbol `memcpy'" for a -z now library relocated before a preloaded one
 * (+0.15 ns a call on Zen 5).  memcpy, memmove and memset are the kernel itself
 * instead (kernel_entry.h); -Ddropin_ifunc=true exports the IFUNCs.  Why and what
 * each costs: docs/design.md, "How the names are bound". */
#if defined(FC_TRACE_BUILD)
/* The tracing build (libfastcopy-trace.so, src/trace.c) exports counting
 * wrappers under these names instead; here each name becomes a hidden IFUNC,
 * fc_traced_<name>, bound by the same resolver, which the wrapper calls. */
#ifdef FC_NO_IFUNC
#error "the tracing build needs GNU IFUNC (glibc)"
#endif
#elif defined(FC_NO_IFUNC)
/* No GNU IFUNC (musl): the slot is writable and starts at a resolving stub
 * (dispatch.h); fc_bind_exports, called by fc_bind_all, fills it with what the
 * resolver above returns. */
#define FC_BIND(ret, name, params, r) FC_SLOT_AT_STUB(ret, name, params)
#define FC_TRAMPOLINE_BODY(name) FC_SLOT_JUMP("fc_slot_" #name)
#elif !defined(FC_DROPIN_IFUNC) && defined(__x86_64__)
#define FC_BIND(ret, name, params, r)                                                \
    static ret fc_bound_##name params __attribute__((ifunc("resolve_" #r)));         \
    FC_HIDDEN ret(*const fc_slot_##name) params __attribute__((used)) = fc_bound_##name;
#define FC_TRAMPOLINE_BODY(name) "\tjmp *fc_slot_" #name "(%rip)\n"
#endif
#if defined(FC_BIND)
#define FC_EXPORT(ret, name, params, r)                                              \
    FC_BIND(ret, name, params, r)                                                    \
    __asm__(FC_ASM_BEGIN(#name) FC_TRAMPOLINE_BODY(name) FC_ASM_END(#name));
#if defined(__x86_64__) && !defined(FC_DROPIN_IFUNC)
/* Which copy of the shared object this is (meson option hwcaps: "baseline",
 * "x86-64-v3", ...; "" for the build machine's library) and the kernel its
 * memcpy, memmove and memset are (dropin_body), for fastcopy-info (info.c; weak
 * there).  dropin_body=none: no kernel, every name is its trampoline. */
FC_HIDDEN const char fc_dropin_copy_name[] = FC_DROPIN_COPY_NAME;
FC_HIDDEN const char fc_dropin_body[] = FC_DROPIN_BODY_NAME;
#endif
#if defined(__x86_64__) && !defined(FC_DROPIN_IFUNC) && !FC_DROPIN_BODY_NONE
/* memcpy, memmove and memset on x86_64: no trampoline at all when the avx512
 * kernel is chosen (Zen 4/5, Intel Sapphire Rapids and later).  The exported
 * symbol is a copy of that kernel (src/x86_64/dropin_*.S), one of whose first
 * tests compares with fc_dropin_limit_<name> instead of a constant: this
 * resolver sets it to that constant (direct_limit_<name>) when it picks that
 * kernel, and leaves it 0 otherwise, which sends every call through the slot as
 * above (src/x86_64/kernel_entry.h, with the measurements).  A jump before the
 * kernel cost 0.37-0.75 ns per call on Emerald Rapids (2.61 ns for a 12-byte
 * copy); a test of a flag byte on entry (before this form) cost 3-9% on small
 * sizes and 2-8% on the fleet mixes against no test at all. */
FC_HIDDEN extern const size_t fc_dropin_bound_memcpy, fc_dropin_bound_memmove;
/* The word each drop-in kernel compares with when it runs inline: memmove_avx512.S's
 * page-end bound; memset_avx512.S's memset_masked_max + 1 (fc_tun is final once
 * resolve_memset has returned: fc_decide publishes it first).  With
 * dropin_body=avx2, memmove_avx2.S's and memset_avx2.S's first size bound (65). */
static size_t direct_limit_memcpy(void) { return fc_dropin_bound_memcpy; }
static size_t direct_limit_memmove(void) { return fc_dropin_bound_memmove; }
#if FC_DROPIN_BODY_AVX2
FC_HIDDEN extern const size_t fc_dropin_bound_memset;
static size_t direct_limit_memset(void) { return fc_dropin_bound_memset; }
#else
static size_t direct_limit_memset(void) { return fc_tun.memset_masked_max + 1; }
#endif
/* The variant of the exported copies and of memset (fc_dropin_config.h), for
 * fastcopy-info (info.c: weak, absent where the names are not fall-through
 * entries). */
FC_HIDDEN const char fc_dropin_copy_body[] = FC_DROPIN_COPY_BODY_NAME;
FC_HIDDEN const char fc_dropin_set_body[] = FC_DROPIN_SET_BODY_NAME;
#define FC_EXPORT_FALLTHROUGH(ret, name, params, r, kernel)                           \
    FC_HIDDEN size_t fc_dropin_limit_##name;                                         \
    __attribute__((used)) static ret(*resolve_direct_##name(uint64_t a0, const void *a1)) params \
    {                                                                                \
        ret(*k) params = resolve_##r(a0, a1);                                        \
        fc_dropin_limit_##name = k == kernel ? direct_limit_##name() : 0;            \
        return k;                                                                    \
    }                                                                                \
    FC_BIND(ret, name, params, direct_##name)
#endif
#elif defined(FC_TRACE_BUILD)
#define FC_EXPORT(ret, name, params, r)                                              \
    FC_HIDDEN ret fc_traced_##name params __attribute__((ifunc("resolve_" #r)));
#else
#define FC_EXPORT(ret, name, params, r)                                              \
    ret name params __attribute__((visibility("default"), ifunc("resolve_" #r)));
/* With the exported names as IFUNCs this library decides when a name binds to it.
 * A preloaded libfastcopy-trace.so takes those bindings, and then nothing here
 * decided, so an override's line (which the silent trace build leaves to this
 * library) was never printed (-Ddropin_ifunc=true: test trace_dropin).  Decide at
 * load instead; made already, this is one load. */
__attribute__((constructor)) static void fc_decide_at_load(void)
{
    (void)fc_decide_runtime();
}
#endif

/* Every exported name (src/exports.def): X(ret, name, params, resolver), and
 * XF(..., kernel) for those that have a fall-through entry on x86_64. */
#include "exports.def"

#ifdef FC_EXPORT_FALLTHROUGH
#define FC_EXPORT_F FC_EXPORT_FALLTHROUGH
#define FC_RESOLVER_F(name, r) direct_##name
#else
#define FC_EXPORT_F(ret, name, params, r, kernel) FC_EXPORT(ret, name, params, r)
#define FC_RESOLVER_F(name, r) r
#endif
FC_EXPORT_LIST(FC_EXPORT, FC_EXPORT_F)

#ifndef FC_TRACE_BUILD
/* How the exported names are bound, for fastcopy-info (info.c): "body" (x86_64:
 * memcpy, memmove and memset are a kernel, the others trampolines), "trampoline"
 * (x86_64, dropin_body=none: every name one jump through its slot), "stub" (no
 * IFUNC: slots that the first call or a constructor fills) or "ifunc" (the names
 * are IFUNC symbols: aarch64, riscv64, -Ddropin_ifunc=true, and libfastcopy.a on
 * x86_64). */
FC_HIDDEN const char fc_dropin_binding[] =
#if defined(FC_EXPORT_FALLTHROUGH)
    "body";
#elif defined(FC_NO_IFUNC)
    "stub";
#elif defined(FC_BIND)
    "trampoline";
#else
    "ifunc";
#endif
#endif

#ifdef FC_NO_IFUNC
#define FC_FILL(ret, name, params, r) FC_SLOT_FILL(name, resolve_##r(0, 0));
#define FC_FILL_F(ret, name, params, r, kernel)                                      \
    FC_SLOT_FILL(name, FC_PASTE(resolve_, FC_RESOLVER_F(name, r))(0, 0));
#define FC_PASTE(a, b) FC_PASTE_(a, b)
#define FC_PASTE_(a, b) a##b
FC_HIDDEN void fc_bind_exports(void)
{
    FC_EXPORT_LIST(FC_FILL, FC_FILL_F)
}

#define FC_UNFILL(ret, name, params, r) FC_SLOT_FILL(name, (ret(*) params)fc_stub_##name);
#ifdef FC_EXPORT_FALLTHROUGH
#define FC_UNFILL_F(ret, name, params, r, kernel)                                    \
    __atomic_store_n(&fc_dropin_limit_##name, 0, __ATOMIC_RELEASE);                 \
    FC_UNFILL(ret, name, params, r)
#else
#define FC_UNFILL_F(ret, name, params, r, kernel) FC_UNFILL(ret, name, params, r)
#endif
FC_HIDDEN void fc_unbind_exports_for_tests(void)
{
    FC_EXPORT_LIST(FC_UNFILL, FC_UNFILL_F)
}

/* A static link (libfastcopy.a) that takes any of our names takes memcpy, memmove
 * and memset together, so that the C library's own calls to all three (musl's
 * libc.a: one symbol per object) bind to ours rather than pulling its objects. */
extern void *memcpy(void *, const void *, size_t);
extern void *memmove(void *, const void *, size_t);
extern void *memset(void *, int, size_t);
static void *const fc_keep_dropins[] __attribute__((used)) = {(void *)memcpy, (void *)memmove,
                                                              (void *)memset};
#endif
