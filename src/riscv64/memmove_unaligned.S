/* memmove_unaligned.S - fc_memmove_rv_unaligned: the "unaligned" memcpy/memmove
 * variant, for cores whose misaligned scalar accesses are FAST (hwprobe).
 *
 * Assumptions: misaligned 8-byte loads and stores cost about what aligned ones do
 * (the policy selects this only when riscv_hwprobe says so; on other cores they
 * still work, emulated, so the variant stays runnable for tests).  No byte
 * outside the buffers is touched; memcpy == memmove.
 *
 * Every size class loads before it stores, so overlap needs a direction test only
 * for the loop:
 *   n <= 16  two overlapping accesses of 8, 4, 2 bytes (first and last), or 1 byte
 *   n <= 32  four words: first 16 and last 16 bytes
 *   n >  32  32-byte blocks (4 loads, then 4 stores) walking away from the
 *            overlap; the block at the far end is loaded before the loop and
 *            stored after it, so there is no remainder loop. */
#include "asm.h"

FC_ENTRY(fc_memmove_rv_unaligned)
    add     a4, a1, a2              /* src end */
    add     a5, a0, a2              /* dst end */
    sltiu   t0, a2, 17
    beqz    t0, .Lgt16
    sltiu   t0, a2, 8
    bnez    t0, .Llt8
    ld      t1, 0(a1)
    ld      t2, -8(a4)
    sd      t1, 0(a0)
    sd      t2, -8(a5)
    ret
.Llt8:
    sltiu   t0, a2, 4
    bnez    t0, .Llt4
    lw      t1, 0(a1)
    lw      t2, -4(a4)
    sw      t1, 0(a0)
    sw      t2, -4(a5)
    ret
.Llt4:
    beqz    a2, .Lret
    sltiu   t0, a2, 2
    bnez    t0, .L1
    lh      t1, 0(a1)
    lh      t2, -2(a4)
    sh      t1, 0(a0)
    sh      t2, -2(a5)
    ret
.L1:
    lbu     t1, 0(a1)
    sb      t1, 0(a0)
.Lret:
    ret
.Lgt16:
    sltiu   t0, a2, 33
    beqz    t0, .Lgt32
    ld      t1, 0(a1)
    ld      t2, 8(a1)
    ld      t3, -16(a4)
    ld      t4, -8(a4)
    sd      t1, 0(a0)
    sd      t2, 8(a0)
    sd      t3, -16(a5)
    sd      t4, -8(a5)
    ret
.Lgt32:
    sub     t0, a0, a1
    bltu    t0, a2, .Lbwd           /* 0 < dst - src < n: backward */
    ld      a6, -32(a4)             /* the last block, stored at the end */
    ld      a7, -24(a4)
    ld      t5, -16(a4)
    ld      t6, -8(a4)
    addi    t0, a5, -32
    mv      a3, a0
1:  ld      t1, 0(a1)
    ld      t2, 8(a1)
    ld      t3, 16(a1)
    ld      t4, 24(a1)
    sd      t1, 0(a3)
    sd      t2, 8(a3)
    sd      t3, 16(a3)
    sd      t4, 24(a3)
    addi    a1, a1, 32
    addi    a3, a3, 32
    bltu    a3, t0, 1b
    sd      a6, 0(t0)
    sd      a7, 8(t0)
    sd      t5, 16(t0)
    sd      t6, 24(t0)
    ret
.Lbwd:
    ld      a6, 0(a1)               /* the first block, stored at the end */
    ld      a7, 8(a1)
    ld      t5, 16(a1)
    ld      t6, 24(a1)
    addi    t0, a0, 32
1:  ld      t1, -8(a4)
    ld      t2, -16(a4)
    ld      t3, -24(a4)
    ld      t4, -32(a4)
    sd      t1, -8(a5)
    sd      t2, -16(a5)
    sd      t3, -24(a5)
    sd      t4, -32(a5)
    addi    a4, a4, -32
    addi    a5, a5, -32
    bgtu    a5, t0, 1b
    sd      a6, 0(a0)
    sd      a7, 8(a0)
    sd      t5, 16(a0)
    sd      t6, 24(a0)
    ret
FC_END(fc_memmove_rv_unaligned)
