/* kernel_entry.h - the one entry/end convention of the x86_64 assembly kernels.
 *
 *   KERNEL_BEGIN(fc_memmove_x86_avx512)  ...  KERNEL_END(fc_memmove_x86_avx512)
 *
 * A kernel file is built twice: as the hidden kernel (every variant table and the
 * fc_* API use it), and, with FC_DROPIN_NAME defined (src/x86_64/dropin_*.S, the
 * shared library only), as the exported drop-in name itself: a test of one byte
 * that the IFUNC resolver set when it chose this kernel, falling through into the
 * same code, else a jump through the slot to the variant chosen instead (see
 * src/exports.c, FC_EXPORT_FALLTHROUGH).  KNAME is the symbol being defined.
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
        FC_LANDING_PAD;                                                           \
        cmpb    $0, FC_DROPIN_FLAG(%rip);                                         \
        je      .Ldropin_slot
#define KERNEL_END(kern)                                                          \
.Ldropin_slot:                                                                    \
        jmp     *FC_DROPIN_SLOT(%rip);                                            \
        .cfi_endproc;                                                             \
        .size KNAME, .-KNAME
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
#endif

#endif
