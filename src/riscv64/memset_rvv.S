/* memset_rvv.S - fc_memset_rv_rvv: the "rvv" memset variant (RVV 1.0).
 *
 * Assumptions as memmove_rvv.S (V present and allowed by prctl).  The fill byte
 * (vmv.v.x at SEW 8 takes the low 8 bits of c: memset's conversion to unsigned
 * char) is broadcast once into v0..v7 at VLMAX, then a 3-instruction loop of vse8.v at LMUL 8
 * stores 8 x VLEN/8 bytes each; one last vse8.v with vl = the remainder.  n == 0 writes nothing. */
#include "asm.h"

    .option push
    .option arch, +v
FC_ENTRY(fc_memset_rv_rvv)
    beqz    a2, 9f
    vsetvli t1, zero, e8, m8, ta, ma    /* t1 = VLMAX bytes */
    vmv.v.x v0, a1
    mv      a3, a0
    add     a4, a0, a2
    bltu    a2, t1, 2f
    sub     a5, a4, t1              /* last start of a whole chunk */
1:  vse8.v  v0, (a3)
    add     a3, a3, t1
    bleu    a3, a5, 1b
2:  sub     a2, a4, a3              /* < VLMAX left */
    beqz    a2, 9f
    vsetvli t1, a2, e8, m8, ta, ma  /* the first vl elements of v0 still hold c */
    vse8.v  v0, (a3)
9:  ret
FC_END(fc_memset_rv_rvv)
    .option pop
