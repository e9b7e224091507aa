/* memset_rvv.S - fc_memset_rv_rvv: the "rvv" memset variant (RVV 1.0).
 *
 * Assumptions as memmove_rvv.S (V present and allowed by prctl).  The fill byte
 * (vmv.v.x at SEW 8 takes the low 8 bits of c: memset's conversion to unsigned
 * char) is broadcast once into v0..v7 at VLMAX, then each vse8.v at LMUL 8 stores
 * up to 8 x VLEN/8 bytes; vl handles the tail.  n == 0 writes nothing. */
#include "asm.h"

    .option push
    .option arch, +v
FC_ENTRY(fc_memset_rv_rvv)
    beqz    a2, 2f
    mv      a3, a0
    vsetvli t1, zero, e8, m8, ta, ma
    vmv.v.x v0, a1
1:  vsetvli t1, a2, e8, m8, ta, ma
    vse8.v  v0, (a3)
    add     a3, a3, t1
    sub     a2, a2, t1
    bnez    a2, 1b
2:  ret
FC_END(fc_memset_rv_rvv)
    .option pop
