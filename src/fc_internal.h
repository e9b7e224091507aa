/* fc_internal.h - what the library's parts share.  Nothing here is exported.
 *
 * The pieces (see docs/design.md):
 *   probe   (src/<arch>/probe.c)  hardware -> plain struct of CPU facts.  Runs inside
 *           IFUNC resolvers: arguments, raw instructions and raw syscalls only.
 *   policy  (src/<arch>/policy.c) facts -> struct fc_decision.  A pure function,
 *           compiled on every host so tests can ask it about any CPU.
 *   variants(src/<arch>/variants.h) the X-macro list of each function's variants;
 *           the resolvers, fc_variants(), the overrides, tests and benchmark all
 *           read it, so a variant is its kernel file plus one line there.
 *   dispatch(src/dispatch.c) resolvers, environment overrides, fc_variants().
 *
 * Resolvers may run before this library's own relocations have been applied (a
 * preloaded library is relocated after the libraries that reference memcpy), so
 * everything they touch is free of relocations: no pointers in the data they read,
 * no calls through the PLT, no libc.  Hence the pointer-free decision struct.
 */
#ifndef FC_INTERNAL_H
#define FC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#define FC_HIDDEN __attribute__((visibility("hidden")))
#define FC_API __attribute__((visibility("default")))

enum fc_func { FC_MEMCPY, FC_MEMMOVE, FC_MEMSET, FC_NFUNCS };

typedef void *(*fc_copy_fn)(void *, const void *, size_t);
typedef void *(*fc_set_fn)(void *, int, size_t);

/* Thresholds, filled once at load by the policy (and the FASTCOPY_* overrides),
 * read by the kernels.  A superset over architectures; unused fields stay 0. */
struct fc_tunables {
    size_t nt_threshold;        /* x86: copies/sets of at least this many bytes use
                                   non-temporal stores (never for overlap) */
    size_t rep_movsb_threshold; /* x86 "erms": rep movsb from this size ... */
    size_t rep_movsb_stop;      /* ... up to (not including) this size */
    size_t rep_stosb_threshold; /* x86 "erms"/"avx512": rep stosb from this size ... */
    size_t zva_threshold;       /* aarch64: DC ZVA zeroing from this size */
    size_t zva_size;            /* aarch64: DC ZVA block size, 0 = not usable */
    size_t cboz_size;           /* riscv64: cbo.zero block size, 0 = not usable */
    size_t alias_backward_stop; /* x86 vector copies: a forward copy whose dst lies 0..255
                                   bytes after src modulo 4096 (4K aliasing) runs
                                   backward when shorter than this (0 = never) */
    size_t rep_stosb_stop;      /* x86: ... up to (not including) this size, and */
    size_t rep_stosb_resume;    /* again from this size up to nt_threshold (between
                                   stop and resume the vector loop) */
    size_t memset_masked_max;   /* x86 "avx512" memset: sizes up to this (at most 64)
                                   take one masked store behind a size branch; 0 = no
                                   branch, every size below 256 branch-free */
};
/* memmove_avx512.S reads the x86 fields at fixed offsets. */
_Static_assert(__builtin_offsetof(struct fc_tunables, nt_threshold) == 0, "fc_tun layout");
_Static_assert(__builtin_offsetof(struct fc_tunables, rep_movsb_threshold) == 8, "fc_tun layout");
_Static_assert(__builtin_offsetof(struct fc_tunables, rep_movsb_stop) == 16, "fc_tun layout");
_Static_assert(__builtin_offsetof(struct fc_tunables, rep_stosb_threshold) == 24, "fc_tun layout");
_Static_assert(__builtin_offsetof(struct fc_tunables, alias_backward_stop) == 56, "fc_tun layout");
_Static_assert(__builtin_offsetof(struct fc_tunables, rep_stosb_stop) == 64, "fc_tun layout");
_Static_assert(__builtin_offsetof(struct fc_tunables, rep_stosb_resume) == 72, "fc_tun layout");
_Static_assert(__builtin_offsetof(struct fc_tunables, memset_masked_max) == 80, "fc_tun layout");

#define FC_WHY_LEN 160
struct fc_decision {
    unsigned char sel[FC_NFUNCS];       /* selected variant index per function */
    char why[FC_NFUNCS][FC_WHY_LEN];    /* one line: why that variant */
    struct fc_tunables tun;
};

/* The live tunables, read by kernels. */
extern struct fc_tunables fc_tun FC_HIDDEN;

/* Freestanding string helpers, safe inside resolvers (no libc, no relocations). */
FC_HIDDEN size_t fc_strlen(const char *s);
FC_HIDDEN int fc_streq(const char *a, const char *b);
/* Appends src to the NUL-terminated buffer dst of size cap; truncates. */
FC_HIDDEN void fc_strcat(char *dst, size_t cap, const char *src);
/* Appends the decimal (with K/M/G suffix when exact) form of v. */
FC_HIDDEN void fc_strcat_size(char *dst, size_t cap, uint64_t v);
FC_HIDDEN void fc_bytezero(void *p, size_t n);
/* d->sel[f] = idx (0, the portable variant, when idx < 0), d->why[f] = why1 why2:
 * the one way every architecture's policy records a choice. */
FC_HIDDEN void fc_decision_set(struct fc_decision *d, int f, int idx, const char *why1,
                               const char *why2);

/* Portable kernels (src/generic.c): every architecture has them. */
FC_HIDDEN void *fc_memcpy_generic(void *d, const void *s, size_t n);
FC_HIDDEN void *fc_memmove_generic(void *d, const void *s, size_t n);
FC_HIDDEN void *fc_memset_generic(void *d, int c, size_t n);

static inline const char *fc_func_name(int f)
{
    return f == FC_MEMCPY ? "memcpy" : f == FC_MEMMOVE ? "memmove" : "memset";
}

#endif
