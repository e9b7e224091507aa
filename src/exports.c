/* exports.c - the drop-in names, each a GNU IFUNC bound at load time.
 *
 * memcpy, memmove and memset resolve straight to the selected kernel.  The other
 * names resolve to a small wrapper around that same kernel, generated per variant
 * below (mempcpy returns dst+n; bcopy swaps arguments; the _chk forms check the
 * destination size first and call glibc's __chk_fail, which prints "buffer
 * overflow detected" and aborts, as glibc's own _chk functions do). */
#include "arch.h"
#include "dispatch.h"

#define FC_DECL_COPY(name, sym) FC_HIDDEN void *sym(void *, const void *, size_t);
#define FC_DECL_SET(name, sym) FC_HIDDEN void *sym(void *, int, size_t);
FC_MEMCPY_VARIANTS(FC_DECL_COPY)
FC_MEMMOVE_VARIANTS(FC_DECL_COPY)
FC_MEMSET_VARIANTS(FC_DECL_SET)

extern void __chk_fail(void) __attribute__((noreturn));

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

/* One resolver per exported name: pick the wrapper of the selected variant with an
 * if-chain over the variant list (no address tables: those need relocations,
 * which may not be applied yet when a resolver runs). */
typedef void *(*copy_t)(void *, const void *, size_t);
typedef void *(*set_t)(void *, int, size_t);
typedef void *(*copy_chk_t)(void *, const void *, size_t, size_t);
typedef void *(*set_chk_t)(void *, int, size_t, size_t);
typedef void (*bcopy_t)(const void *, void *, size_t);
typedef void (*bzero_t)(void *, size_t);
typedef void (*bzero_chk_t)(void *, size_t, size_t);

#define FC_PICK(name, sym)                                                           \
    if (sel == n++)                                                                  \
        return WRAP(name, sym);
#define FC_RESOLVER(export, type, func, LIST)                                        \
    static type resolve_##export(uint64_t a0, const void *a1)                        \
    {                                                                                \
        unsigned sel = fc_decide(a0, a1)->sel[func], n = 0;                          \
        LIST(FC_PICK)                                                                \
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

#define FC_IFUNC(r) __attribute__((visibility("default"), ifunc("resolve_" #r)))
void *memcpy(void *, const void *, size_t) FC_IFUNC(memcpy);
void *memmove(void *, const void *, size_t) FC_IFUNC(memmove);
void *memset(void *, int, size_t) FC_IFUNC(memset);
void *mempcpy(void *, const void *, size_t) FC_IFUNC(mempcpy);
void *__mempcpy(void *, const void *, size_t) FC_IFUNC(mempcpy);
void bcopy(const void *, void *, size_t) FC_IFUNC(bcopy);
void bzero(void *, size_t) FC_IFUNC(bzero);
void explicit_bzero(void *, size_t) FC_IFUNC(explicit_bzero);
void *__memcpy_chk(void *, const void *, size_t, size_t) FC_IFUNC(memcpy_chk);
void *__memmove_chk(void *, const void *, size_t, size_t) FC_IFUNC(memmove_chk);
void *__memset_chk(void *, int, size_t, size_t) FC_IFUNC(memset_chk);
void *__mempcpy_chk(void *, const void *, size_t, size_t) FC_IFUNC(mempcpy_chk);
void __explicit_bzero_chk(void *, size_t, size_t) FC_IFUNC(explicit_bzero_chk);
