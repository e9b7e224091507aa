/* profiles.h - x86_64 CPU classes and their profiles (profiles.c).
 *
 * fc_x86_classify() names the class of a CPU; fc_x86_profiles[class] is its row:
 * the variant per function and every window, each a value or a rule of the cache
 * sizes.  The policy (policy.c) applies the row to the CPU's facts.  The row's
 * fields are named as the tuning file's keys (docs/tuning.md), so that a row
 * `fcbench --tune` prints can be pasted in.  Pure data: no pointers (resolvers
 * read it before relocation). */
#ifndef FC_X86_PROFILES_H
#define FC_X86_PROFILES_H
#include "variants.h"

enum fc_x86_class {
    FC_X86_AMD_PRE_ZEN,
    FC_X86_ZEN1,
    FC_X86_ZEN2,
    FC_X86_AMD17_OTHER,
    FC_X86_ZEN3,
    FC_X86_ZEN4,
    FC_X86_AMD19_OTHER,
    FC_X86_ZEN5,
    FC_X86_ZEN6,
    FC_X86_AMD1A_OTHER,
    FC_X86_AMD_NEWER,
    FC_X86_HYGON_DHYANA,
    FC_X86_INTEL_PLAIN,
    FC_X86_INTEL_FSRM,
    FC_X86_INTEL_AVX512_SLOW,
    FC_X86_INTEL_AVX512_SLOW_FSRM,
    FC_X86_INTEL_AVX512,
    FC_X86_OTHER_X86,
    FC_X86_NCLASSES
};

/* A window field: a size, or one of these rules of the CPU's facts. */
#define FC_X86_RULE ((uint64_t)1 << 62)
#define FC_X86_NT (FC_X86_RULE | 1)       /* the row's nt_start: "to nt", or closed */
#define FC_X86_L1D_HALF (FC_X86_RULE | 2) /* L1d/2 for an L1d of 16-256 KiB, else 16 KiB */
#define FC_X86_L2_4M (FC_X86_RULE | 3)    /* the L2 when 4-16 MiB, else 4 MiB; plus 1 */
#define FC_X86_FSRM_2K (FC_X86_RULE | 4)  /* 2 KiB with FSRM, else 4 KiB (glibc's) */
/* nt_start: num/den of the L3 this core shares (a believable one, else 32 MiB),
 * or a size */
#define FC_X86_L3(num, den) (FC_X86_RULE | 0x100 | ((num) << 4) | (den))
#define FC_X86_IS_L3(v) (((v) >> 8) == ((FC_X86_RULE | 0x100) >> 8))

/* A preferred variant: its index + 1 (0 ends the list); FC_X86_REP marks one
 * that relies on fast rep movsb/stosb, skipped without ERMS. */
#define FC_X86_REP 0x80
#define FC_X86_COPY(name) (FC_X86_COPY_##name + 1)
#define FC_X86_SET(name) (FC_X86_SET_##name + 1)

/* flags */
#define FC_X86_REP_NEEDS_ERMS 1 /* without ERMS the rep and adaptive windows are closed */

struct fc_x86_profile {
    char name[64];              /* fastcopy-info's label */
    char evidence[24];          /* docs/evidence/<this>.md; "" = never measured */
    char basis[24];             /* where an unmeasured row's choices come from */
    unsigned char like;         /* class + 1 whose row it takes; 0: its own */
    unsigned char flags;
    unsigned char memcpy[3], memmove[3], memset[3]; /* then avx2, sse2, generic */
    uint64_t nt_start, nt_guest_cap; /* cap: under a hypervisor (0: none) */
    uint64_t rep_movsb_start, rep_movsb_stop;
    uint64_t rep_stosb_start, rep_stosb_stop, rep_stosb_high_start; /* stop 0: one window */
    uint64_t alias_backward_stop;
    uint64_t loop32_start;      /* avx512 copies: 0 = never */
    uint64_t memset_masked_max, memset_adaptive_start, memset_adaptive_stop; /* with AVX-512 */
};

FC_HIDDEN extern const struct fc_x86_profile fc_x86_profiles[FC_X86_NCLASSES];
FC_HIDDEN unsigned fc_x86_classify(const struct fc_x86_cpu *c);

#endif
