/* riscv64 variant table and CPU facts.  Pure declarations: compiled on every host,
 * so the policy tests can ask about any RISC-V CPU anywhere.
 *
 * V(X, name, copy kernel, memset kernel, requirement): see variant_table.h.  The
 * requirements use policy.c's cboz_usable and fc_rv_v_usable.  memcpy and memmove
 * share one kernel per variant: every copy is overlap-safe.
 *
 *   generic    portable C (src/generic.c); GCC emits byte accesses for it on rv64gc
 *   word       aligned 8-byte words when src and dst share alignment, otherwise the
 *              shift-merging copy (aligned loads merged with srl/sll/or); never a
 *              misaligned access.  One entry because the choice depends on each
 *              call's pointers, not on the CPU (memmove_word.S); memset: aligned
 *              word stores
 *   unaligned  copies only: plain misaligned 8-byte accesses, chosen only where
 *              hwprobe says FAST, usable wherever the kernel handles them
 *   cboz       memset only: word + cbo.zero of whole blocks when zeroing (Zicboz)
 *   rvv        RVV 1.0 vle8/vse8 at LMUL 8: where HWCAP has V and prctl allows it */
#ifndef FC_RV_VARIANTS_H
#define FC_RV_VARIANTS_H
#include <stdint.h>
#include "../fc_internal.h"
#include "../variant_table.h"

#define FC_RV_VARIANTS(V, X)                                                      \
    V(X, generic, fc_memmove_generic, fc_memset_generic, 1)                       \
    V(X, word, fc_memmove_rv_word, fc_memset_rv_word, 1)                          \
    V(X, unaligned, fc_memmove_rv_unaligned, none,                                \
      c->misaligned != FC_RV_MISALIGNED_UNSUPPORTED)                              \
    V(X, cboz, none, fc_memset_rv_cboz, cboz_usable(c))                           \
    V(X, rvv, fc_memmove_rv_rvv, fc_memset_rv_rvv, fc_rv_v_usable(c))
enum fc_rv_copy_variant { FC_RV_VARIANTS(FC_VT_COPY_ID, FC_RV_) FC_RV_COPY_COUNT };
enum fc_rv_set_variant { FC_RV_VARIANTS(FC_VT_SET_ID, FC_RV_) FC_RV_SET_COUNT };

/* Misaligned scalar access performance, as hwprobe reports it (the values of
 * RISCV_HWPROBE_MISALIGNED_SCALAR_* in the kernel's uapi asm/hwprobe.h). */
enum fc_rv_misaligned {
    FC_RV_MISALIGNED_UNKNOWN = 0,
    FC_RV_MISALIGNED_EMULATED = 1,   /* traps, emulated by firmware or kernel */
    FC_RV_MISALIGNED_SLOW = 2,
    FC_RV_MISALIGNED_FAST = 3,
    FC_RV_MISALIGNED_UNSUPPORTED = 4,
};

/* prctl(PR_RISCV_V_GET_CONTROL) current-thread values (PR_RISCV_V_VSTATE_CTRL_*). */
enum {
    FC_RV_VCTRL_NONE = -1,     /* the prctl failed: kernel (or QEMU) without it */
    FC_RV_VCTRL_DEFAULT = 0,
    FC_RV_VCTRL_OFF = 1,
    FC_RV_VCTRL_ON = 2,
};

#define FC_RV_HWCAP_V (1ull << ('V' - 'A'))

struct fc_rv_cpu {
    uint64_t hwcap;          /* AT_HWCAP: one bit per single-letter extension */
    int v_ctrl;              /* FC_RV_VCTRL_*: prctl(PR_RISCV_V_GET_CONTROL) & 3 */
    int hwprobe;             /* 1 when riscv_hwprobe answered (0: ENOSYS, QEMU 7.2) */
    unsigned misaligned;     /* enum fc_rv_misaligned */
    int zicboz;              /* hwprobe IMA_EXT_0 has Zicboz */
    uint64_t zicboz_block;   /* cbo.zero block size in bytes (hwprobe), 0 = unknown */
    uint64_t vlenb;          /* VLEN/8 (csrr vlenb) when V is usable, else 0 */
    uint64_t mvendorid, marchid, mimpid;  /* from hwprobe, for fastcopy-info */
};

/* fc_rv_probe, _policy, _usable, ... (variant_table.h); fc_rv_identity says
 * "riscv64 mvendorid 0x0, marchid 0x0, mimpid 0x0, VLEN 128" (hwprobe ids; 0
 * where the kernel has no hwprobe). */
FC_ARCH_DECLARE(fc_rv, struct fc_rv_cpu)
/* 1 when V may be used: HWCAP has V and prctl does not say OFF. */
FC_HIDDEN int fc_rv_v_usable(const struct fc_rv_cpu *c);

#endif
