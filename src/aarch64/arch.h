/* arch.h for aarch64: binds the arch-neutral dispatcher to this architecture. */
#ifndef FC_ARCH_H
#define FC_ARCH_H
#include <sys/auxv.h>
#include "variants.h"

#define FC_ARCH_NAME "aarch64"
#define FC_HAVE_IFUNC 1
typedef struct fc_a64_cpu fc_cpu_t;
#define FC_ARCH_PREFIX fc_a64
#define FC_VARIANT_TABLE FC_A64_VARIANTS

#ifdef FC_NO_IFUNC
#include "../rawsys.h"
/* No IFUNC (musl): the decision is made by the first call of any name, through
 * its resolving stub (dispatch.h), and that may come before the C library is
 * initialised: a static binary's first call is the memset that zeroes musl's
 * aux[] array at the top of __init_libc, before it has found the auxiliary
 * vector (getauxval would dereference a null pointer) or set up the thread
 * pointer (and a missing tag sets errno).  So AT_HWCAP comes from
 * /proc/self/auxv with raw system calls, and bit 62 stays clear: the probe
 * reads AT_HWCAP2 there too.  Without /proc both are 0: only the base ISA is
 * assumed (ldp_stp), and the FASTCOPY_* overrides are ignored then too (AT_SECURE
 * cannot be read: settings.c). */
static inline void fc_arch_runtime_args(uint64_t *a0, const void **a1)
{
    uint64_t hwcap = 0;
    fc_auxv_get(16 /* AT_HWCAP */, &hwcap);
    *a0 = hwcap & ~FC_A64_IFUNC_ARG_HWCAP;
    *a1 = 0;
}
#else
/* The resolver's arguments when called outside a resolver: what glibc passes,
 * x0 = AT_HWCAP | _IFUNC_ARG_HWCAP, x1 = __ifunc_arg_t holding AT_HWCAP2.
 * Only ever called after libc is up, so getauxval is fine here. */
static inline void fc_arch_runtime_args(uint64_t *a0, const void **a1)
{
    static struct fc_a64_ifunc_arg arg;
    arg.size = sizeof arg;
    arg.hwcap = getauxval(AT_HWCAP);
    arg.hwcap2 = getauxval(AT_HWCAP2);
    *a0 = (uint64_t)arg.hwcap | FC_A64_IFUNC_ARG_HWCAP;
    *a1 = &arg;
}
#endif
#endif
