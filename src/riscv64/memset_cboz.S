/* memset_cboz.S - fc_memset_rv_cboz: the "cboz" memset variant (Zicboz).
 *
 * Assumptions: hwprobe reported Zicboz and a power-of-two block size B (16..4096),
 * which the policy put in fc_tun.cboz_size.  cbo.zero zeroes the whole B-byte
 * block containing its address, so it is only used on blocks lying entirely inside
 * [dst, dst+n).
 *
 *   c & 0xff != 0, or n < 2B:  the word memset (fc_memset_rv_word)
 *   otherwise: aligned 1/2/4-byte then 8-byte zero stores up to a B boundary,
 *   one cbo.zero per whole block, and the word memset's aligned tail code
 *   (fc_memset_rv_aligned) for the rest.
 * QEMU 7.2 has no Zicboz: this file is built, its selection is policy-tested, and
 * the variant test skips it there (not usable). */
#include "asm.h"

    .option push
    .option arch, +zicboz
FC_ENTRY(fc_memset_rv_cboz)
    andi    t0, a1, 0xff
    bnez    t0, 9f
    lla     t1, fc_tun
    ld      t1, FC_TUN_CBOZ_SIZE(t1)    /* B */
    beqz    t1, 9f
    slli    t2, t1, 1
    bltu    a2, t2, 9f
    mv      a3, a0
    li      a1, 0
    andi    t0, a3, 1
    beqz    t0, 1f
    sb      zero, 0(a3)
    addi    a3, a3, 1
    addi    a2, a2, -1
1:  andi    t0, a3, 2
    beqz    t0, 2f
    sh      zero, 0(a3)
    addi    a3, a3, 2
    addi    a2, a2, -2
2:  andi    t0, a3, 4
    beqz    t0, 3f
    sw      zero, 0(a3)
    addi    a3, a3, 4
    addi    a2, a2, -4
3:  addi    t2, t1, -1              /* B - 1 */
4:  and     t0, a3, t2
    beqz    t0, 5f
    sd      zero, 0(a3)
    addi    a3, a3, 8
    addi    a2, a2, -8
    j       4b
5:  neg     t0, t1
    and     t0, a2, t0              /* bytes in whole blocks (>= B: n >= 2B) */
    add     t0, a3, t0
6:  cbo.zero (a3)
    add     a3, a3, t1
    bltu    a3, t0, 6b
    and     a2, a2, t2
    tail    fc_memset_rv_aligned
9:  tail    fc_memset_rv_word
FC_END(fc_memset_rv_cboz)
    .option pop
