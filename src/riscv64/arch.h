/* arch.h for riscv64: binds the arch-neutral dispatcher to this architecture. */
#ifndef FC_ARCH_H
#define FC_ARCH_H
#include "variants.h"

#define FC_ARCH_NAME "riscv64"
#define FC_HAVE_IFUNC 1
typedef struct fc_rv_cpu fc_cpu_t;
#define FC_ARCH_PREFIX fc_rv
#define FC_VARIANT_TABLE FC_RV_VARIANTS

#include <sys/auxv.h>

/* The resolver's arguments when called outside a resolver (libc is usable here):
 * glibc 2.36 passes (AT_HWCAP, NULL); NULL makes the probe use the raw syscall. */
static inline void fc_arch_runtime_args(uint64_t *a0, const void **a1)
{
    *a0 = getauxval(AT_HWCAP);
    *a1 = 0;
}
#endif
