/* asm.h - entry/exit boilerplate for the riscv64 kernels (.S files).
 * Every kernel is hidden: reached only through the IFUNC resolvers and the
 * variant table, never through the PLT.  Each carries call-frame information, so
 * debuggers, profilers and crash reporters unwind through it: the CFA is sp at
 * entry, and a kernel that moves sp must say so (.cfi_adjust_cfa_offset; none
 * does: every kernel works in the argument and temporary registers).  Including
 * this header also gives the file its notes (../fc_asm.h). */
#ifndef FC_RV_ASM_H
#define FC_RV_ASM_H
#include "../fc_asm.h"

#define FC_ENTRY(name)                                                            \
    .text;                                                                        \
    .globl name;                                                                  \
    .hidden name;                                                                 \
    .type name, @function;                                                        \
    .p2align 2;                                                                   \
    name:                                                                         \
    .cfi_startproc

#define FC_END(name)                                                              \
    .cfi_endproc;                                                                 \
    .size name, .- name

/* The offsets of struct fc_tunables fields (cboz_size), generated. */
#include "fc_tun_offsets.h"

#endif
