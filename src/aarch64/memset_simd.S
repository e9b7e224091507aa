/* memset_simd.S - memset with Advanced SIMD stores (stp q).
 *
 * Assumptions: ARMv8-A with Advanced SIMD, unaligned accesses.  dup v0.16b, w1
 * takes the low byte of c, which is the conversion to unsigned char.
 *
 * Size classes:
 *   0..15     two overlapping d/s stores, or a byte and a halfword
 *   16..32    first and last 16 bytes
 *   33..64    first and last 32 bytes
 *   65..128   first and last 64 bytes
 *   > 128     zero with n >= fc_tun.zva_threshold and DC ZVA usable: DC ZVA
 *             (memset_zva.S, block size from DCZID_EL0 read once at load, never
 *             when DZP is set); otherwise: first 16 bytes unaligned, then
 *             16-byte-aligned 128-byte blocks of 4 stp q (one pointer update per
 *             block), then the last 128 bytes from the end.
 * 128 bytes per iteration: 6 instructions (64 KiB: ~3100; glibc 2.36: ~4100).
 */
#include "asm.h"

#define dstin x0
#define valw w1
#define count x2
#define dst x3
#define dstend x5
#define lim x6

ENTRY(fc_memset_a64_simd)
    dup     v0.16b, valw
    add     dstend, dstin, count
    cmp     count, 16
    b.hs    .Lge16
    tbz     count, 3, 1f
    str     d0, [dstin]
    str     d0, [dstend, -8]
    ret
1:  tbz     count, 2, 2f
    str     s0, [dstin]
    str     s0, [dstend, -4]
    ret
2:  cbz     count, 3f
    str     b0, [dstin]
    tbz     count, 1, 3f
    str     h0, [dstend, -2]
3:  ret

.Lge16:
    cmp     count, 32
    b.hi    .Lgt32
    str     q0, [dstin]
    str     q0, [dstend, -16]
    ret
.Lgt32:
    cmp     count, 64
    b.hi    .Lgt64
    stp     q0, q0, [dstin]
    stp     q0, q0, [dstend, -32]
    ret
.Lgt64:
    cmp     count, 128
    b.hi    .Lgt128
    stp     q0, q0, [dstin]
    stp     q0, q0, [dstin, 32]
    stp     q0, q0, [dstend, -64]
    stp     q0, q0, [dstend, -32]
    ret

.Lgt128:
    tst     valw, 255
    b.ne    .Lstores
    adrp    x9, fc_tun
    ldr     x10, [x9, :lo12:fc_tun + FC_TUN_ZVA_THRESHOLD]
    cmp     count, x10
    b.lo    .Lstores
    ldr     x11, [x9, :lo12:fc_tun + FC_TUN_ZVA_SIZE] /* 0: all stores there */
    b       fc_a64_zero_zva_q
.Lstores:
    str     q0, [dstin]
    bic     dst, dstin, 15
    sub     dst, dst, 16           /* dst + 32: first aligned block, in (dstin, dstin+16] */
    sub     lim, dstend, 160       /* a block at dst+32 is needed while dst+32 < end-128 */
    cmp     dst, lim
    b.hs    2f
1:  stp     q0, q0, [dst, 32]
    stp     q0, q0, [dst, 64]
    stp     q0, q0, [dst, 96]
    stp     q0, q0, [dst, 128]!
    cmp     dst, lim
    b.lo    1b
2:  stp     q0, q0, [dstend, -128]
    stp     q0, q0, [dstend, -96]
    stp     q0, q0, [dstend, -64]
    stp     q0, q0, [dstend, -32]
    ret
END(fc_memset_a64_simd)

NOTE_GNU_STACK
