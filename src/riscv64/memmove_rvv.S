/* memmove_rvv.S - fc_memmove_rv_rvv: the "rvv" memcpy/memmove variant (RVV 1.0).
 *
 * Assumptions: AT_HWCAP has V and prctl(PR_RISCV_V_GET_CONTROL) does not say OFF
 * (the policy checks both; otherwise any vector instruction raises SIGILL).  Only
 * this file is assembled with V (.option arch, +v); the rest stays rv64gc.
 *
 * vsetvli e8/m8: one vle8.v/vse8.v pair moves up to 8 x VLEN/8 bytes (128 bytes at
 * VLEN 128, 1 KiB at VLEN 1024), and vl handles the tail: no size classes, no
 * remainder loop.  Byte elements are never misaligned, so nothing depends on the
 * pointers' alignment (some cores, e.g. C908, fault on misaligned vle64).  Each
 * chunk is loaded whole before it is stored: forward when dst is before src or
 * disjoint, from the end when dst lies inside (src, src+n), so memcpy == memmove.
 * Exactly the n bytes are read and written; n == 0 touches nothing. */
#include "asm.h"

    .option push
    .option arch, +v
FC_ENTRY(fc_memmove_rv_rvv)
    beqz    a2, 3f
    sub     t0, a0, a1
    bltu    t0, a2, 2f              /* 0 < dst - src < n (or dst == src): backward */
    mv      a3, a0
1:  vsetvli t1, a2, e8, m8, ta, ma
    vle8.v  v0, (a1)
    vse8.v  v0, (a3)
    add     a1, a1, t1
    add     a3, a3, t1
    sub     a2, a2, t1
    bnez    a2, 1b
    ret
2:  add     a1, a1, a2
    add     a3, a0, a2
4:  vsetvli t1, a2, e8, m8, ta, ma
    sub     a1, a1, t1
    sub     a3, a3, t1
    vle8.v  v0, (a1)
    vse8.v  v0, (a3)
    sub     a2, a2, t1
    bnez    a2, 4b
3:  ret
FC_END(fc_memmove_rv_rvv)
    .option pop
