/* memset_sve.S - memset with SVE.
 *
 * Assumptions: SVE, any vector length V from 16 to 256 bytes, read with cntb at
 * each call.  dup z0.b, w1 takes the low byte of c (the unsigned char conversion).
 *
 * Size classes (instruction counts under QEMU at 512 bits, entry to return, not
 * time; glibc 2.36's A64FX memset in parentheses):
 *   0..2V-1   two whilelo-predicated stores: no size branch, and no compare
 *             either (the second whilelo's flags tell n >= 2V); n == 0: both
 *             predicates empty, nothing stored: 8 (8)
 *   2V..4V    first and last 2 vectors: 12 (12)
 *   4V..8V    first and last 4 vectors: 18 (19)
 *   > 8V      the DC ZVA threshold first, then (at or above it) the value: below
 *             it c = 0 and c != 0 take the same 4 instructions to the stores
 *             (adrp, ldr, cmp, b.hs; with the zero test first, c = 0 cost 4
 *             more: 37 against glibc's 33 at 513..640 bytes).  Stores: the first
 *             8 vectors from dstin, and up to 16V the last 8 from the end (n > 8V,
 *             so they are in the buffer) with no loop pointers; above 16V
 *             8-vector blocks in a loop first: 11 instructions per 8V, 32 at
 *             8V+1..16V (glibc 33-42), 1422 per 64 KiB (1680).
 *             Zero with n >= fc_tun.zva_start and DC ZVA usable: DC ZVA over
 *             the whole blocks, the partial ones at each end covered by 4 or 8
 *             vector stores from each end (Z <= 4V, A64FX's 256 = 4 x 64; Z <= 8V,
 *             QEMU max's 512), or by memset_zva.S's q-register routine for larger
 *             blocks (short vectors only).  The q-register routine, used here
 *             before, stored the ends 32 bytes per instruction with loops up to
 *             the block boundary: 89 instructions at 2 KiB on max against glibc's
 *             86, 58-60 now.  A64FX's threshold, 2 KiB, and why: policy.c.
 */#include "asm.h"

    .arch armv8.2-a+sve

#define dstin x0
#define valw w1
#define count x2
#define dst x3
#define dstend x5
#define vlen x6
#define lim x7
#define a x8
#define e x9
#define rem x10
#define zsize x11
#define zmask x12

/* z0 to the four vectors [BASE + K*VL, BASE + (K+4)*VL): the straight-line size
 * classes and the loop below are runs of these, forward from dstin or dst and
 * back from dstend. */
.macro STORE4 base, k
    str     z0, [\base, #(\k), mul vl]
    str     z0, [\base, #(\k + 1), mul vl]
    str     z0, [\base, #(\k + 2), mul vl]
    str     z0, [\base, #(\k + 3), mul vl]
.endm

ENTRY(fc_memset_a64_sve)
    dup     z0.b, valw
    cntb    vlen
    whilelo p1.b, vlen, count
    b.last  .Lmore                 /* p1's last lane active: n >= 2V */
    whilelo p0.b, xzr, count
    st1b    z0.b, p0, [dstin]
    st1b    z0.b, p1, [dstin, #1, mul vl]
    ret

.Lmore:
    add     dstend, dstin, count
    cmp     count, vlen, lsl 2
    b.hi    .Lgt4
    str     z0, [dstin]
    str     z0, [dstin, #1, mul vl]
    str     z0, [dstend, #-2, mul vl]
    str     z0, [dstend, #-1, mul vl]
    ret
.Lgt4:
    cmp     count, vlen, lsl 3
    b.hi    .Lgt8
    STORE4  dstin, 0
    STORE4  dstend, -4
    ret

.Lgt8:
    /* The threshold first, the value second: below the threshold c = 0 and
     * c != 0 then take the same 4 instructions to the stores.  fc_tun's fields
     * from one adrp, as in memset_simd.S (x13 keeps its page for .Lbig). */
    adrp    x13, fc_tun
    ldr     x10, [x13, :lo12:fc_tun + FC_TUN_ZVA_START]
    cmp     count, x10
    b.hs    .Lbig
.Lstores:
    STORE4  dstin, 0           /* the first block, from dstin */
    STORE4  dstin, 4
    cmp     count, vlen, lsl 4
    b.ls    2f                     /* n <= 16V: the last 8 vectors finish it */
    addvl   dst, dstin, #8
    addvl   lim, dstend, #-8       /* another block needed while dst < end-8V: */
1:  STORE4  dst, 0                 /* at least one, as n > 16V */
    STORE4  dst, 4
    addvl   dst, dst, #8
    cmp     dst, lim
    b.lo    1b
2:  STORE4  dstend, -8
    STORE4  dstend, -4
    ret

.Lbig:
    tst     valw, 255
    b.ne    .Lstores
    ldr     zsize, [x13, :lo12:fc_tun + FC_TUN_ZVA_SIZE]
    /* Zero with DC ZVA: blocks of Z bytes at a = dstin rounded up to Z, up to e =
     * dstend rounded down; the vector stores from each end cover [dstin, a) and
     * [e, dstend), each shorter than Z.  Z = 0 (DC ZVA prohibited, threshold
     * lowered by hand) gives a = e = 0: stores only. */
    sub     zmask, zsize, 1
    add     a, dstin, zmask
    bic     a, a, zmask
    bic     e, dstend, zmask
    cmp     a, e
    b.hs    .Lstores               /* no whole block inside */
    cmp     zsize, vlen, lsl 2
    b.hi    .Lzhead8
    STORE4  dstin, 0           /* Z <= 4V (A64FX: 256 = 4 x 64) */
    STORE4  dstend, -4
.Lzva:
    sub     rem, e, a              /* bytes of whole blocks, a multiple of Z, >= Z */
    subs    rem, rem, zsize, lsl 2
    b.lt    2f
1:  dc      zva, a                 /* 4 blocks per iteration */
    add     a, a, zsize
    dc      zva, a
    add     a, a, zsize
    dc      zva, a
    add     a, a, zsize
    dc      zva, a
    add     a, a, zsize
    subs    rem, rem, zsize, lsl 2
    b.ge    1b
2:  adds    rem, rem, zsize, lsl 2 /* 0..3 blocks left */
    b.eq    4f
3:  dc      zva, a
    add     a, a, zsize
    subs    rem, rem, zsize
    b.ne    3b
4:  ret
.Lzhead8:
    cmp     zsize, vlen, lsl 3
    b.hi    fc_a64_zero_zva_q      /* Z > 8V: the q-register routine (v0 = z0 = 0) */
    STORE4  dstin, 0           /* 4V < Z <= 8V (QEMU max: 512 = 8 x 64) */
    STORE4  dstin, 4
    STORE4  dstend, -8
    STORE4  dstend, -4
    b       .Lzva
END(fc_memset_a64_sve)
