/* arch.h for architectures without a port (no src/<arch>/ of their own): the
 * portable C kernels only, the "generic" variant (src/generic.c).  fastcopy-info
 * calls this build "portable". */
#ifndef FC_ARCH_H
#define FC_ARCH_H
#include "../fc_internal.h"
#include "../variant_table.h"

#define FC_ARCH_NAME "portable"
#if defined(__ELF__) && (defined(__x86_64__) || defined(__aarch64__) || defined(__riscv) || defined(__i386__) || defined(__powerpc64__) || defined(__s390x__))
#define FC_HAVE_IFUNC 1
#else
#define FC_HAVE_IFUNC 0
#endif
struct fc_unported_cpu { int unused; };
typedef struct fc_unported_cpu fc_cpu_t;
/* The one row (variant_table.h); fc_memcpy_generic is fc_memmove_generic's alias. */
#define FC_UNPORTED_VARIANTS(V, X) V(X, generic, fc_memmove_generic, fc_memset_generic, 1)
#define FC_ARCH_PREFIX fc_unported
#define FC_VARIANT_TABLE FC_UNPORTED_VARIANTS
enum { FC_UNPORTED_VARIANTS(FC_VT_COPY_ID, FC_UNPORTED_) FC_UNPORTED_COPY_COUNT };
enum { FC_UNPORTED_VARIANTS(FC_VT_SET_ID, FC_UNPORTED_) FC_UNPORTED_SET_COUNT };

/* fc_unported_probe, _policy, ... (variant_table.h) */
FC_ARCH_DECLARE(fc_unported, fc_cpu_t)

static inline void fc_arch_runtime_args(uint64_t *a0, const void **a1)
{
    *a0 = 0;
    *a1 = 0;
}
#endif
