/* memset_rvv.S - fc_memset_rv_rvv: the "rvv" memset variant (RVV 1.0).
 *
 * Assumptions as memmove_rvv.S (V present and allowed by prctl).  The first
 * vsetvli takes vl = min(n, VLMAX) at e8/m8 (n == 0 gives vl = 0: the store then
 * accesses nothing), vmv.v.x broadcasts the fill byte (at SEW 8 it takes the low 8
 * bits of c: memset's conversion to unsigned char) and one vse8.v stores those vl
 * bytes: n <= VLMAX (128 bytes at VLEN 128) is 5 instructions.  More: c broadcast
 * again at VLMAX (the first vl may be below VLMAX when VLMAX < n < 2 VLMAX), a
 * 3-instruction loop of whole VLMAX chunks, one last vse8.v with vl = the rest.
 *
 * Why (instruction counts under QEMU, tools/insn-count; not time): glibc 2.36's
 * generic memset is 7 + 3n below 8 bytes, 10 for 1 byte; beqz-first with the
 * broadcast at VLMAX took 11 at n = 1, now 5 (n = 0: 5 vs 7).  256 bytes at VLEN
 * 128 stay at 16 = glibc/4 (the goal), 4 KiB at 106, 64 KiB at 1546.  Every cell
 * of the sweep is below glibc's at VLEN 128 and 256 (64 per fill value, n = 1,
 * were above). */
#include "asm.h"

    .option push
    .option arch, +v
FC_ENTRY(fc_memset_rv_rvv)
    vsetvli t1, a2, e8, m8, ta, ma  /* vl = n up to VLMAX (0 for n == 0: no access) */
    vmv.v.x v0, a1
    vse8.v  v0, (a0)
    bltu    t1, a2, 1f
    ret
1:  add     a3, a0, t1              /* the first vl bytes are set */
    add     a4, a0, a2
    vsetvli t1, zero, e8, m8, ta, ma    /* t1 = VLMAX */
    vmv.v.x v0, a1
    sub     a5, a4, t1              /* last start of a whole chunk */
    bgtu    a3, a5, 3f
2:  vse8.v  v0, (a3)
    add     a3, a3, t1
    bleu    a3, a5, 2b
3:  sub     a2, a4, a3              /* < VLMAX left */
    beqz    a2, 9f
    vsetvli t1, a2, e8, m8, ta, ma  /* the first vl elements of v0 still hold c */
    vse8.v  v0, (a3)
9:  ret
FC_END(fc_memset_rv_rvv)
    .option pop
