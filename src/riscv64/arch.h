/* arch.h for riscv64: binds the arch-neutral dispatcher to this architecture. */
#ifndef FC_ARCH_H
#define FC_ARCH_H
#include "variants.h"

#define FC_ARCH_NAME "riscv64"
#define FC_HAVE_IFUNC 1
typedef struct fc_rv_cpu fc_cpu_t;
#define FC_VARIANT_TABLE FC_RV_VARIANTS
#define fc_arch_probe fc_rv_probe
#define fc_arch_policy fc_rv_policy
#define fc_arch_usable fc_rv_usable
#define fc_arch_variant_count fc_rv_variant_count
#define fc_arch_variant_name fc_rv_variant_name
#define fc_arch_variant_index fc_rv_variant_index
#define fc_arch_describe fc_rv_describe
#define fc_arch_identity fc_rv_identity

#include <sys/auxv.h>

/* The resolver's arguments when called outside a resolver (libc is usable here):
 * glibc 2.36 passes (AT_HWCAP, NULL); NULL makes the probe use the raw syscall. */
static inline void fc_arch_runtime_args(uint64_t *a0, const void **a1)
{
    *a0 = getauxval(AT_HWCAP);
    *a1 = 0;
}
#endif
