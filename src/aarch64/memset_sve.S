/* memset_sve.S - memset with SVE.
 *
 * Assumptions: SVE, any vector length V from 16 to 256 bytes, read with cntb at
 * each call.  dup z0.b, w1 takes the low byte of c (the unsigned char conversion).
 *
 * Size classes:
 *   0..2V-1   two whilelo-predicated stores: no size branch, and no compare
 *             either (the second whilelo's flags tell n >= 2V); n == 0: both
 *             predicates empty, nothing stored
 *   2V..4V    first and last 2 vectors
 *   4V..8V    first and last 4 vectors
 *   > 8V      zero with n >= fc_tun.zva_threshold and DC ZVA usable: DC ZVA
 *             (memset_zva.S); otherwise 8-vector blocks (11 instructions per 8V:
 *             at 512 bits ~1410 per 64 KiB; glibc 2.36's A64FX memset: 1680) and
 *             the last 8 vectors from the end (n > 8V, so they are in the buffer).
 */
#include "asm.h"

    .arch armv8.2-a+sve

#define dstin x0
#define valw w1
#define count x2
#define dst x3
#define dstend x5
#define vlen x6
#define lim x7

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
    str     z0, [dstin]
    str     z0, [dstin, #1, mul vl]
    str     z0, [dstin, #2, mul vl]
    str     z0, [dstin, #3, mul vl]
    str     z0, [dstend, #-4, mul vl]
    str     z0, [dstend, #-3, mul vl]
    str     z0, [dstend, #-2, mul vl]
    str     z0, [dstend, #-1, mul vl]
    ret

.Lgt8:
    tst     valw, 255
    b.ne    .Lstores
    adrp    x9, fc_tun
    ldr     x10, [x9, :lo12:fc_tun + FC_TUN_ZVA_THRESHOLD]
    cmp     count, x10
    b.lo    .Lstores
    ldr     x11, [x9, :lo12:fc_tun + FC_TUN_ZVA_SIZE] /* 0: all stores there */
    b       fc_a64_zero_zva_q
.Lstores:
    mov     dst, dstin
    addvl   lim, dstend, #-8       /* another block needed while dst < end-8V */
1:  str     z0, [dst]
    str     z0, [dst, #1, mul vl]
    str     z0, [dst, #2, mul vl]
    str     z0, [dst, #3, mul vl]
    str     z0, [dst, #4, mul vl]
    str     z0, [dst, #5, mul vl]
    str     z0, [dst, #6, mul vl]
    str     z0, [dst, #7, mul vl]
    addvl   dst, dst, #8
    cmp     dst, lim
    b.lo    1b
    str     z0, [dstend, #-8, mul vl]
    str     z0, [dstend, #-7, mul vl]
    str     z0, [dstend, #-6, mul vl]
    str     z0, [dstend, #-5, mul vl]
    str     z0, [dstend, #-4, mul vl]
    str     z0, [dstend, #-3, mul vl]
    str     z0, [dstend, #-2, mul vl]
    str     z0, [dstend, #-1, mul vl]
    ret
END(fc_memset_a64_sve)
