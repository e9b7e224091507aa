/* arch.h for x86_64: binds the arch-neutral dispatcher to this architecture. */
#ifndef FC_ARCH_H
#define FC_ARCH_H
#include "variants.h"

#define FC_ARCH_NAME "x86_64"
#define FC_HAVE_IFUNC 1
typedef struct fc_x86_cpu fc_cpu_t;
#define FC_ARCH_PREFIX fc_x86
#define FC_VARIANT_TABLE FC_X86_VARIANTS

/* The resolver's arguments when called outside a resolver (x86: none used). */
static inline void fc_arch_runtime_args(uint64_t *a0, const void **a1)
{
    *a0 = 0;
    *a1 = 0;
}
#endif
