/* fastcopy.h - public API of libfastcopy.
 *
 * libfastcopy is a drop-in replacement for the C library's memcpy, memmove and
 * memset (plus mempcpy, bzero, bcopy, explicit_bzero and their _FORTIFY_SOURCE
 * "_chk" forms).  Every function is a GNU IFUNC bound once, at load time, to the
 * variant that suits the CPU.  The names below are the library's own API and are
 * stable.
 */
#ifndef FASTCOPY_H
#define FASTCOPY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#define FC_RESTRICT
#else
#define FC_RESTRICT restrict
#endif

/* Same contracts as memcpy/memmove/memset, plus: fc_memcpy on overlapping buffers
 * gives exactly fc_memmove's result; no byte outside [dst,dst+n) is written and no
 * byte outside [src,src+n) is read; n == 0 dereferences nothing. */
void *fc_memcpy(void *FC_RESTRICT dst, const void *FC_RESTRICT src, size_t n);
void *fc_memmove(void *dst, const void *src, size_t n);
void *fc_memset(void *dst, int c, size_t n);

/* One compiled-in implementation of one function. */
struct fc_variant {
    const char *func;   /* "memcpy", "memmove" or "memset" */
    const char *name;   /* short, stable: "generic", "sse2", "avx2", "avx512", "erms", ... */
    void (*fn)(void);   /* cast to the function's own type before calling */
    int usable;         /* nonzero when this CPU can run it */
};

/* Every compiled-in variant of every function; *list points to a static array. */
size_t fc_variants(const struct fc_variant **list);

/* Name of the variant bound at load time for "memcpy", "memmove" or "memset"
 * (NULL for any other name).  Environment overrides are taken into account. */
const char *fc_selected(const char *func);

#ifdef __cplusplus
}
#endif
#undef FC_RESTRICT
#endif
