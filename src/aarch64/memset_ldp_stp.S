/* memset_ldp_stp.S - memset with general-register pairs (stp x).
 *
 * Assumptions: ARMv8-A, AArch64, unaligned accesses; no Advanced SIMD needed.
 * c is converted to unsigned char and replicated into all 8 bytes of x1.
 *
 * Size classes:
 *   0..15    two overlapping stores of 8 or 4 bytes, or a byte and a halfword
 *   16..32   first and last 16 bytes (stp)
 *   33..64   first and last 32 bytes
 *   > 64     zero with n >= fc_tun.zva_start and DC ZVA usable: DC ZVA
 *            (memset_zva.S); otherwise 64-byte blocks of 4 stp, one pointer
 *            update per block, then the last 64 bytes stored from the end
 *            (overlapping the previous block: no remainder loop).
 * 64 bytes per iteration: 6 instructions.
 */
#include "asm.h"

#define dstin x0
#define val x1
#define valw w1
#define count x2
#define dst x3
#define dstend x5
#define lim x6

ENTRY(fc_memset_a64_ldp_stp)
    and     valw, valw, 255
    orr     valw, valw, valw, lsl 8
    orr     valw, valw, valw, lsl 16
    orr     val, val, val, lsl 32
    add     dstend, dstin, count
    cmp     count, 16
    b.hs    .Lge16
    tbz     count, 3, 1f
    str     val, [dstin]
    str     val, [dstend, -8]
    ret
1:  tbz     count, 2, 2f
    str     valw, [dstin]
    str     valw, [dstend, -4]
    ret
2:  cbz     count, 3f
    strb    valw, [dstin]
    tbz     count, 1, 3f
    strh    valw, [dstend, -2]
3:  ret

.Lge16:
    cmp     count, 32
    b.hi    .Lgt32
    stp     val, val, [dstin]
    stp     val, val, [dstend, -16]
    ret
.Lgt32:
    cmp     count, 64
    b.hi    .Lgt64
    stp     val, val, [dstin]
    stp     val, val, [dstin, 16]
    stp     val, val, [dstend, -32]
    stp     val, val, [dstend, -16]
    ret

.Lgt64:
    cbnz    val, .Lstores
    adrp    x9, fc_tun
    ldr     x10, [x9, :lo12:fc_tun + FC_TUN_ZVA_START]
    cmp     count, x10
    b.lo    .Lstores
    ldr     x11, [x9, :lo12:fc_tun + FC_TUN_ZVA_SIZE] /* 0: all stores there */
    b       fc_a64_zero_zva
.Lstores:
    sub     dst, dstin, 16         /* block at dst + 16 */
    sub     lim, dstend, 80        /* continue while the next block ends before end-64 */
1:  stp     val, val, [dst, 16]
    stp     val, val, [dst, 32]
    stp     val, val, [dst, 48]
    stp     val, val, [dst, 64]!
    cmp     dst, lim
    b.lo    1b
    stp     val, val, [dstend, -64]
    stp     val, val, [dstend, -48]
    stp     val, val, [dstend, -32]
    stp     val, val, [dstend, -16]
    ret
END(fc_memset_a64_ldp_stp)
