/* asm.h - entry/exit boilerplate for the riscv64 kernels (.S files).
 * Every kernel is hidden: reached only through the IFUNC resolvers and the
 * variant table, never through the PLT. */
#ifndef FC_RV_ASM_H
#define FC_RV_ASM_H

#define FC_ENTRY(name)                                                            \
    .text;                                                                        \
    .globl name;                                                                  \
    .hidden name;                                                                 \
    .type name, @function;                                                        \
    .p2align 2;                                                                   \
    name:

#define FC_END(name) .size name, .- name

/* The offsets of struct fc_tunables fields (cboz_size), generated. */
#include "fc_tun_offsets.h"

#endif
