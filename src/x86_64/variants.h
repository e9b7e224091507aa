/* x86_64 variant table and CPU facts.  Pure declarations: compiled on every host,
 * so the policy tests can ask about any x86 CPU anywhere.
 *
 * V(X, name, copy kernel, memset kernel, requirement): see variant_table.h.  The
 * requirements use policy.c's helpers (has, can_avx2, can_avx512).  memcpy and
 * memmove share one kernel per variant: every copy is overlap-safe (see
 * memmove_vec.h). */
#ifndef FC_X86_VARIANTS_H
#define FC_X86_VARIANTS_H
#include <stdint.h>
#include "../fc_internal.h"
#include "../variant_table.h"

#define FC_X86_VARIANTS(V, X)                                                     \
    V(X, generic, fc_memmove_generic, fc_memset_generic, 1)                       \
    V(X, sse2, fc_memmove_x86_sse2, fc_memset_x86_sse2, has(c, FC_X86_SSE2))              \
    V(X, avx2, fc_memmove_x86_avx2, fc_memset_x86_avx2, can_avx2(c))                      \
    /* avx2 without vzeroupper (AMD) */                                           \
    V(X, avx2_keepupper, fc_memmove_x86_avx2_keepupper, fc_memset_x86_avx2_keepupper,     \
      can_avx2(c))                                                                \
    V(X, avx512, fc_memmove_x86_avx512, fc_memset_x86_avx512, can_avx512(c))              \
    /* memset only: avx512's behind a one-branch entry (Zen 5) */                 \
    V(X, avx512_1branch, none, fc_memset_x86_avx512_1branch, can_avx512(c))      \
    /* AVX2 vectors around rep movsb/stosb */                                     \
    V(X, erms, fc_memmove_x86_erms, fc_memset_x86_erms, can_avx2(c) && has(c, FC_X86_ERMS))
/* The names two variants had before (A(former, current); variant_names.h): still
 * read everywhere a name is (FASTCOPY_*, the tuning file, fcbench --impl), never
 * printed.  A name is at most 15 characters (FC_VN_LEN). */
#define FC_X86_VARIANTS_FORMER(A) A(avx2amd, avx2_keepupper) A(avx512amd, avx512_1branch)
enum fc_x86_copy_variant { FC_X86_VARIANTS(FC_VT_COPY_ID, FC_X86_) FC_X86_COPY_COUNT };
enum fc_x86_set_variant { FC_X86_VARIANTS(FC_VT_SET_ID, FC_X86_) FC_X86_SET_COUNT };

enum fc_x86_vendor { FC_X86_OTHER, FC_X86_INTEL, FC_X86_AMD, FC_X86_HYGON };

/* Feature bits: CPUID bits as reported, plus the OS-enabled register state from
 * XGETBV (a CPU may report AVX-512 that the kernel or hypervisor has not enabled). */
enum {
    FC_X86_SSE2 = 1u << 0,
    FC_X86_SSSE3 = 1u << 1,
    FC_X86_AVX = 1u << 2,
    FC_X86_AVX2 = 1u << 3,
    FC_X86_BMI2 = 1u << 4,
    FC_X86_AVX512F = 1u << 5,
    FC_X86_AVX512BW = 1u << 6,
    FC_X86_AVX512VL = 1u << 7,
    FC_X86_ERMS = 1u << 8,      /* enhanced rep movsb/stosb */
    FC_X86_FSRM = 1u << 9,      /* fast short rep movsb */
    FC_X86_OS_YMM = 1u << 10,   /* XCR0 has SSE+AVX state (bits 1,2) */
    FC_X86_OS_ZMM = 1u << 11,   /* XCR0 has opmask+ZMM state (bits 5,6,7) too */
    FC_X86_HYPERVISOR = 1u << 12,
    FC_X86_AVX_VNNI = 1u << 13, /* CPUID 7.1 EAX bit 4: on Intel, the cores whose
                                   512-bit stores do not lower the clock */
    FC_X86_TOPOEXT = 1u << 14,  /* CPUID 0x80000001 ECX bit 22: AMD's cache-topology
                                   leaf 0x8000001D is valid (a guest may lack it) */
};

struct fc_x86_cpu {
    unsigned vendor;            /* enum fc_x86_vendor */
    unsigned family, model;     /* display family/model (extended fields folded in) */
    unsigned stepping;          /* CPUID 1 EAX[3:0]: only for the tuning file's identity */
    uint32_t features;          /* FC_X86_* */
    uint64_t l1d_size, l2_size, l3_size;  /* bytes; 0 = not reported */
    unsigned l3_sharing;        /* logical CPUs sharing the L3 (0 = not reported) */
};

/* fc_x86_probe, _policy, _usable, ... (variant_table.h) */
FC_ARCH_DECLARE(fc_x86, struct fc_x86_cpu)
/* The microarchitecture name the policy uses ("Zen 4", "Intel", ...). */
FC_HIDDEN const char *fc_x86_uarch(const struct fc_x86_cpu *c);

#endif
