/* aarch64 variant table and CPU facts.  Pure declarations: compiled on every host,
 * so the policy tests can ask about any arm64 CPU anywhere.
 *
 * V(X, name, copy kernel, memset kernel, requirement): see variant_table.h.  The
 * requirements use policy.c's has_sve.  memcpy and memmove share one kernel per
 * variant: every copy kernel here is overlap-safe (small and medium sizes load
 * everything before storing; large copies test the overlap). */
#ifndef FC_A64_VARIANTS_H
#define FC_A64_VARIANTS_H
#include <stdint.h>
#include "../fc_internal.h"
#include "../variant_table.h"

#define FC_A64_VARIANTS(V, X)                                                     \
    V(X, generic, fc_memmove_generic, fc_memset_generic, 1)                       \
    V(X, ldp_stp, fc_memmove_a64_ldp_stp, fc_memset_a64_ldp_stp, 1)               \
    V(X, simd, fc_memmove_a64_simd, fc_memset_a64_simd,                           \
      (c->hwcap & FC_A64_HWCAP_ASIMD) != 0)                                       \
    V(X, sve, fc_memmove_a64_sve, fc_memset_a64_sve, has_sve(c))                  \
    V(X, mops, fc_memmove_a64_mops, fc_memset_a64_mops,                           \
      (c->hwcap2 & FC_A64_HWCAP2_MOPS) != 0)
enum fc_a64_copy_variant { FC_A64_VARIANTS(FC_VT_COPY_ID, FC_A64_) FC_A64_COPY_COUNT };
enum fc_a64_set_variant { FC_A64_VARIANTS(FC_VT_SET_ID, FC_A64_) FC_A64_SET_COUNT };

/* Linux AT_HWCAP / AT_HWCAP2 bits used here (uapi asm/hwcap.h). */
#define FC_A64_HWCAP_FP (1ull << 0)
#define FC_A64_HWCAP_ASIMD (1ull << 1)
#define FC_A64_HWCAP_CPUID (1ull << 11)   /* MIDR_EL1 & co. readable from EL0 */
#define FC_A64_HWCAP_SVE (1ull << 22)
#define FC_A64_HWCAP2_SVE2 (1ull << 1)
#define FC_A64_HWCAP2_MOPS (1ull << 43)   /* not in glibc 2.36's headers */
/* glibc sets this bit of the resolver's first argument when the second points to
 * an __ifunc_arg_t. */
#define FC_A64_IFUNC_ARG_HWCAP (1ull << 62)

/* DCZID_EL0: block size 4 << BS bytes (bits 3:0), DZP (bit 4) = DC ZVA prohibited. */
#define FC_A64_DCZID_BS(d) ((unsigned)(d) & 15u)
#define FC_A64_DCZID_DZP (1u << 4)

/* MIDR_EL1 fields. */
#define FC_A64_MIDR_IMPL(m) (((m) >> 24) & 0xffu)
#define FC_A64_MIDR_PART(m) (((m) >> 4) & 0xfffu)

/* Kernel version packed as major << 16 | minor << 8 | patch (0 = not read). */
#define FC_A64_KVER(maj, min, pat) (((uint32_t)(maj) << 16) | ((uint32_t)(min) << 8) | (uint32_t)(pat))

struct fc_a64_cpu {
    uint64_t hwcap;      /* AT_HWCAP (without the resolver's bit 62) */
    uint64_t hwcap2;     /* AT_HWCAP2 */
    uint32_t dczid;      /* DCZID_EL0 as read */
    uint32_t midr;       /* MIDR_EL1, only when HWCAP_CPUID; else 0 */
    uint32_t sve_vl;     /* current SVE vector length in bytes (0 = no SVE) */
    uint32_t kver;       /* FC_A64_KVER of uname's release; read only with SVE */
};

/* The layout glibc passes as the resolver's second argument (<sys/ifunc.h>,
 * __ifunc_arg_t); declared here so this builds on any host. */
struct fc_a64_ifunc_arg {
    unsigned long size;
    unsigned long hwcap;
    unsigned long hwcap2;
};

/* fc_a64_probe, _policy, _usable, ... (variant_table.h); fc_a64_identity says
 * "aarch64 MIDR 0x410fd034, DCZID 0x4". */
FC_ARCH_DECLARE(fc_a64, struct fc_a64_cpu)
/* The core name the policy uses ("Cortex-A53", "A64FX", ...) from MIDR. */
FC_HIDDEN const char *fc_a64_core(const struct fc_a64_cpu *c);
/* 1 when this kernel keeps the SVE register state across system calls (Linux
 * before 4.15, 5.14, and 6.2 onwards; or not known to drop it). */
FC_HIDDEN int fc_a64_kernel_keeps_sve(uint32_t kver);

#endif
