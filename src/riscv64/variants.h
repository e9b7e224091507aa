/* riscv64 variant lists and CPU facts.  Pure declarations: compiled on every host,
 * so the policy tests can ask about any RISC-V CPU anywhere.
 *
 * X(name, kernel): name is the stable variant name (README, FASTCOPY_* overrides,
 * fc_variants); kernel the symbol implementing it.  memcpy and memmove share one
 * kernel per variant: every copy is overlap-safe.
 *
 *   generic    portable C (src/generic.c); GCC emits byte accesses for it on rv64gc
 *   word       aligned 8-byte words when src and dst share alignment, otherwise the
 *              shift-merging copy (aligned loads merged with srl/sll/or); never a
 *              misaligned access.  One entry because the choice depends on each
 *              call's pointers, not on the CPU (memmove_word.S)
 *   unaligned  plain misaligned 8-byte accesses: only where hwprobe says FAST
 *   rvv        RVV 1.0 vle8/vse8 at LMUL 8: where HWCAP has V and prctl allows it
 *   memset: generic, word (aligned word stores), cboz (word + cbo.zero of whole
 *   blocks when zeroing: Zicboz), rvv (vse8 at LMUL 8). */
#ifndef FC_RV_VARIANTS_H
#define FC_RV_VARIANTS_H
#include <stdint.h>
#include "../fc_internal.h"

#define FC_RV_COPY_VARIANTS(X)                                                    \
    X(generic, fc_memmove_generic)                                                \
    X(word, fc_memmove_rv_word)                                                   \
    X(unaligned, fc_memmove_rv_unaligned)                                         \
    X(rvv, fc_memmove_rv_rvv)
#define FC_RV_MEMCPY_VARIANTS(X) FC_RV_COPY_VARIANTS(X)
#define FC_RV_MEMMOVE_VARIANTS(X) FC_RV_COPY_VARIANTS(X)
#define FC_RV_MEMSET_VARIANTS(X)                                                  \
    X(generic, fc_memset_generic)                                                 \
    X(word, fc_memset_rv_word)                                                    \
    X(cboz, fc_memset_rv_cboz)                                                    \
    X(rvv, fc_memset_rv_rvv)

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

FC_HIDDEN void fc_rv_probe(struct fc_rv_cpu *c, uint64_t a0, const void *a1);
/* The CPU a tuning file was measured on: "riscv64 mvendorid 0x0, marchid 0x0,
 * mimpid 0x0, VLEN 128" (hwprobe ids; 0 where the kernel has no hwprobe). */
FC_HIDDEN void fc_rv_identity(const struct fc_rv_cpu *c, char *buf, size_t cap);
FC_HIDDEN void fc_rv_policy(const struct fc_rv_cpu *c, struct fc_decision *d);
FC_HIDDEN int fc_rv_usable(const struct fc_rv_cpu *c, int func, unsigned idx);
FC_HIDDEN unsigned fc_rv_variant_count(int func);
FC_HIDDEN const char *fc_rv_variant_name(int func, unsigned idx);
FC_HIDDEN int fc_rv_variant_index(int func, const char *name);
/* One line per fact into buf (for fastcopy-info). */
FC_HIDDEN void fc_rv_describe(const struct fc_rv_cpu *c, char *buf, size_t cap);
/* 1 when V may be used: HWCAP has V and prctl does not say OFF. */
FC_HIDDEN int fc_rv_v_usable(const struct fc_rv_cpu *c);

#endif
