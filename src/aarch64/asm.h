/* asm.h - shared by the aarch64 kernels (.S): symbol boilerplate, and the offsets
 * of struct fc_tunables fields they read (generated: fc_tun_offsets.h). */
#ifndef FC_A64_ASM_H
#define FC_A64_ASM_H

#include "fc_tun_offsets.h"

#ifdef __ASSEMBLER__
#include "../fc_asm.h" /* the landing pad; the file's notes */
/* A hidden function symbol, 64-byte aligned (one cache line; keeps the hot
 * entry and the first size checks in one fetch block), with call-frame
 * information (the kernels are leaves that never move sp) and, when built with
 * -mbranch-protection, bti c first. */
#define ENTRY(name)        \
    .text;                 \
    .globl name;           \
    .hidden name;          \
    .type name, %function; \
    .p2align 6;            \
name:                      \
    .cfi_startproc;        \
    FC_LANDING_PAD

#define END(name)          \
    .cfi_endproc;          \
    .size name, . - name
#endif
#endif
