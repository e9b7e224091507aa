/* memmove_rvv.S - fc_memmove_rv_rvv: the "rvv" memcpy/memmove variant (RVV 1.0).
 *
 * Assumptions: AT_HWCAP has V and prctl(PR_RISCV_V_GET_CONTROL) does not say OFF
 * (the policy checks both; otherwise any vector instruction raises SIGILL).  Only
 * this file is assembled with V (.option arch, +v); the rest stays rv64gc.
 *
 * vsetvli e8/m8: one vle8.v/vse8.v pair moves 8 x VLEN/8 bytes (128 bytes at
 * VLEN 128, 1 KiB at VLEN 1024).  Whole VLMAX chunks in a loop of 5 instructions
 * (no vsetvli inside), then one vsetvli with the exact remainder as vl: no size
 * classes, no byte loop.  Byte elements are never misaligned, so nothing depends on the
 * pointers' alignment (some cores, e.g. C908, fault on misaligned vle64).  Each
 * chunk is loaded whole before it is stored: forward when dst is before src or
 * disjoint, from the end when dst lies inside (src, src+n), so memcpy == memmove.
 * Exactly the n bytes are read and written; n == 0 touches nothing.
 * Instruction counts under QEMU (tools/insn-count; not time): below glibc 2.36 in
 * every cell of the sweep at VLEN 128 and 256, the closest 13 vs 29 (n = 1); no
 * size classes are needed to get there. */
#include "asm.h"

    .option push
    .option arch, +v
FC_ENTRY(fc_memmove_rv_rvv)
    beqz    a2, 9f
    vsetvli t1, zero, e8, m8, ta, ma    /* t1 = VLMAX bytes */
    sub     t0, a0, a1
    bltu    t0, a2, 5f              /* 0 < dst - src < n (or dst == src): backward */
    mv      a3, a0
    add     a4, a0, a2              /* dst end */
    bltu    a2, t1, 2f
    sub     a5, a4, t1              /* last start of a whole chunk */
1:  vle8.v  v0, (a1)
    vse8.v  v0, (a3)
    add     a1, a1, t1
    add     a3, a3, t1
    bleu    a3, a5, 1b
2:  sub     a2, a4, a3              /* < VLMAX left: vl = exactly that */
    beqz    a2, 9f
    vsetvli t1, a2, e8, m8, ta, ma
    vle8.v  v0, (a1)
    vse8.v  v0, (a3)
9:  ret
5:  add     a1, a1, a2              /* backward: a1/a3 walk down from the ends */
    add     a3, a0, a2
    bltu    a2, t1, 7f
    add     a5, a0, t1              /* whole chunks while a3 - VLMAX >= dst */
6:  sub     a1, a1, t1
    sub     a3, a3, t1
    vle8.v  v0, (a1)
    vse8.v  v0, (a3)
    bgeu    a3, a5, 6b
7:  sub     a2, a3, a0              /* the first < VLMAX bytes */
    beqz    a2, 9b
    sub     a1, a1, a2
    vsetvli t1, a2, e8, m8, ta, ma
    vle8.v  v0, (a1)
    vse8.v  v0, (a0)
    ret
FC_END(fc_memmove_rv_rvv)
    .option pop
