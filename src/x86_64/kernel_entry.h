/* kernel_entry.h - the one entry/end convention of the x86_64 assembly kernels.
 *
 *   KERNEL_BEGIN(fc_memmove_x86_avx512)  ...  KERNEL_END(fc_memmove_x86_avx512)
 *
 * A kernel file is built twice: as the hidden kernel (every variant table and the
 * fc_* API use it), and, with FC_DROPIN_NAME defined (src/x86_64/dropin_*.S, the
 * shared library only), as the exported drop-in name itself: the same code, one
 * of whose compares reads a bound that the IFUNC resolver set when it chose this
 * kernel (ENTRY_TEST), else every call goes on to DROPIN_DIVERT and through the
 * slot to the variant chosen instead (see src/exports.c, FC_EXPORT_FALLTHROUGH).
 * KNAME is the symbol being defined.
 * Both forms carry call-frame information (.cfi_startproc/endproc: the kernels
 * are leaves that never move the stack pointer; memset's scratch line is in the
 * red zone), so debuggers, profilers and crash reporters unwind through them, and
 * start with the landing pad (endbr64 when built with -fcf-protection); including
 * this header also gives the file its notes (../fc_asm.h). */
#ifndef FC_X86_KERNEL_ENTRY_H
#define FC_X86_KERNEL_ENTRY_H
#include "../fc_asm.h"

#ifdef FC_DROPIN_NAME
#define KNAME FC_DROPIN_NAME
#define KERNEL_BEGIN(kern)                                                        \
        .text;                                                                    \
        .p2align 6;                                                               \
        .globl KNAME;                                                             \
        .type KNAME, @function;                                                   \
KNAME:                                                                            \
        .cfi_startproc;                                                           \
        FC_LANDING_PAD
#define KERNEL_END(kern)                                                          \
.Ldropin_slot:                                                                    \
        jmp     *FC_DROPIN_SLOT(%rip);                                            \
        .cfi_endproc;                                                             \
        .size KNAME, .-KNAME
/* ENTRY_TEST(bound, reg, target): reg >= bound (unsigned, 32 bits: reg is a
 * 32-bit register, bound below 2^32, the word's low half is compared; 1 byte
 * shorter than the 64-bit compare) goes to target, on a branch that every small
 * call reaches and few take (memmove_avx512.S: the page-end test; memset has its
 * own form, MASKED_TEST).  In the drop-in the bound is FC_DROPIN_LIMIT, a word
 * the resolver sets to `bound` (copied from FC_DROPIN_BOUND, emitted here) when
 * it chose this kernel and leaves 0 when it did not: then every call takes the
 * branch, and DROPIN_DIVERT at the target sends it through the slot.  So the
 * drop-in runs no instruction more than the kernel.  The word on the page-end
 * test cost least (sizes 0.955x a flag byte's time; Sapphire Rapids-class,
 * docs/evidence/intel-emerald-rapids.md). */

/* DROPIN_BOUND_WORD(bound): FC_DROPIN_BOUND, the word the resolver copies into
 * FC_DROPIN_LIMIT when it chose this kernel (src/exports.c). */
#define DROPIN_BOUND_WORD(bound)                                                  \
        .pushsection .rodata;                                                     \
        .p2align 3;                                                               \
        .globl FC_DROPIN_BOUND;                                                   \
        .hidden FC_DROPIN_BOUND;                                                  \
        .type FC_DROPIN_BOUND, @object;                                           \
        .size FC_DROPIN_BOUND, 8;                                                 \
FC_DROPIN_BOUND:                                                                  \
        .quad   bound;                                                            \
        .popsection
#define ENTRY_TEST(bound, reg, target)                                            \
        DROPIN_BOUND_WORD(bound);                                                 \
        cmpl    FC_DROPIN_LIMIT(%rip), reg;                                       \
        jae     target
/* ENTRY_TEST64(bound, target): the same on all of n (%rdx, 64 bits), for a first
 * compare that splits sizes (memmove_avx2.S, memset_avx2.S: n >= 65 goes to
 * target; in the drop-in the bound is 65 when the resolver chose the kernel, 0
 * when not, and the target starts with DROPIN_DIVERT). */
#define ENTRY_TEST64(bound, target)                                               \
        DROPIN_BOUND_WORD(bound);                                                 \
        cmpq    FC_DROPIN_LIMIT(%rip), %rdx;                                      \
        jae     target
/* First thing at the target of ENTRY_TEST and of every branch before it, ahead
 * of any vector instruction (the chosen variant may be one for a CPU without
 * AVX-512). */
#define DROPIN_DIVERT                                                             \
        cmpq    $0, FC_DROPIN_LIMIT(%rip);                                        \
        je      .Ldropin_slot
/* DROPIN_DIVERT_NEAR: the same, to the slot jump that DROPIN_DIVERT_ELSE_JUMP
 * ends with (one per file; a 2-byte je where it lies within 127 bytes).
 * DROPIN_DIVERT_ELSE_JUMP(target): at a target that the chosen kernel rarely
 * reaches (memcpy's page-end path, whose code is placed elsewhere): the chosen
 * kernel jumps on to target, a diverted call falls into the slot jump, one taken
 * branch fewer for it (0..64 B diverted copies 0.91x the time, Intel SPR-class
 * VM).  Not in memset: its diverts sit where every chosen-kernel call of 65..255
 * B or > 255 B passes, and those would take the extra branch. */
#define DROPIN_DIVERT_NEAR                                                        \
        cmpq    $0, FC_DROPIN_LIMIT(%rip);                                        \
        je      .Ldropin_slot_near
#define DROPIN_DIVERT_ELSE_JUMP(target)                                           \
        cmpq    $0, FC_DROPIN_LIMIT(%rip);                                        \
        jne     target;                                                           \
.Ldropin_slot_near:                                                               \
        jmp     *FC_DROPIN_SLOT(%rip)
#else
#define KERNEL_BEGIN(kern)                                                        \
        .text;                                                                    \
        .p2align 6;                                                               \
        .globl kern;                                                              \
        .hidden kern;                                                             \
        .type kern, @function;                                                    \
kern:                                                                             \
        .cfi_startproc;                                                           \
        FC_LANDING_PAD
#define KERNEL_END(kern)                                                          \
        .cfi_endproc;                                                             \
        .size kern, .-kern
#define ENTRY_TEST(bound, reg, target)                                            \
        cmpl    $(bound), reg;                                                    \
        jae     target
#define ENTRY_TEST64(bound, target)                                               \
        cmpq    $(bound), %rdx;                                                   \
        jae     target
#define DROPIN_DIVERT
#define DROPIN_DIVERT_NEAR
#define DROPIN_DIVERT_ELSE_JUMP(target)                                           \
        jmp     target
#endif

#endif
