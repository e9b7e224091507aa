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
#define FC_VARIANT_TABLE FC_UNPORTED_VARIANTS
enum { FC_UNPORTED_VARIANTS(FC_VT_COPY_ID, FC_UNPORTED_) FC_UNPORTED_COPY_COUNT };
enum { FC_UNPORTED_VARIANTS(FC_VT_SET_ID, FC_UNPORTED_) FC_UNPORTED_SET_COUNT };

FC_HIDDEN void fc_unported_probe(fc_cpu_t *c, uint64_t a0, const void *a1);
FC_HIDDEN void fc_unported_policy(const fc_cpu_t *c, struct fc_decision *d);
FC_HIDDEN int fc_unported_usable(const fc_cpu_t *c, int func, unsigned idx);
FC_HIDDEN unsigned fc_unported_variant_count(int func);
FC_HIDDEN const char *fc_unported_variant_name(int func, unsigned idx);
FC_HIDDEN int fc_unported_variant_index(int func, const char *name);
FC_HIDDEN void fc_unported_describe(const fc_cpu_t *c, char *buf, size_t cap);
FC_HIDDEN void fc_unported_identity(const fc_cpu_t *c, char *buf, size_t cap);
#define fc_arch_identity fc_unported_identity
#define fc_arch_probe fc_unported_probe
#define fc_arch_policy fc_unported_policy
#define fc_arch_usable fc_unported_usable
#define fc_arch_variant_count fc_unported_variant_count
#define fc_arch_variant_name fc_unported_variant_name
#define fc_arch_variant_index fc_unported_variant_index
#define fc_arch_describe fc_unported_describe

static inline void fc_arch_runtime_args(uint64_t *a0, const void **a1)
{
    *a0 = 0;
    *a1 = 0;
}
#endif
