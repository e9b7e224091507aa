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

/* Offset of cboz_size in struct fc_tunables (checked by a static assertion in
 * src/riscv64/probe.c). */
#define FC_TUN_CBOZ_SIZE 48

#endif
