/* arch.h for architectures without variants of their own: portable C only. */
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
struct fc_generic_cpu { int unused; };
typedef struct fc_generic_cpu fc_cpu_t;
/* The one row (variant_table.h); fc_memcpy_generic is fc_memmove_generic's alias. */
#define FC_GENERIC_VARIANTS(V, X) V(X, generic, fc_memmove_generic, fc_memset_generic, 1)
#define FC_VARIANT_TABLE FC_GENERIC_VARIANTS
enum { FC_GENERIC_VARIANTS(FC_VT_COPY_ID, FC_GENERIC_) FC_GENERIC_COPY_COUNT };
enum { FC_GENERIC_VARIANTS(FC_VT_SET_ID, FC_GENERIC_) FC_GENERIC_SET_COUNT };

FC_HIDDEN void fc_generic_probe(fc_cpu_t *c, uint64_t a0, const void *a1);
FC_HIDDEN void fc_generic_policy(const fc_cpu_t *c, struct fc_decision *d);
FC_HIDDEN int fc_generic_usable(const fc_cpu_t *c, int func, unsigned idx);
FC_HIDDEN unsigned fc_generic_variant_count(int func);
FC_HIDDEN const char *fc_generic_variant_name(int func, unsigned idx);
FC_HIDDEN int fc_generic_variant_index(int func, const char *name);
FC_HIDDEN void fc_generic_describe(const fc_cpu_t *c, char *buf, size_t cap);
FC_HIDDEN void fc_generic_identity(const fc_cpu_t *c, char *buf, size_t cap);
#define fc_arch_identity fc_generic_identity
#define fc_arch_probe fc_generic_probe
#define fc_arch_policy fc_generic_policy
#define fc_arch_usable fc_generic_usable
#define fc_arch_variant_count fc_generic_variant_count
#define fc_arch_variant_name fc_generic_variant_name
#define fc_arch_variant_index fc_generic_variant_index
#define fc_arch_describe fc_generic_describe

static inline void fc_arch_runtime_args(uint64_t *a0, const void **a1)
{
    *a0 = 0;
    *a1 = 0;
}
#endif
