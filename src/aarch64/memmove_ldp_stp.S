/* memmove_ldp_stp.S - memcpy and memmove with general-register pairs.
 *
 * Assumptions: ARMv8-A, AArch64, unaligned accesses allowed (Linux user space).
 * No Advanced SIMD needed: this is the variant for a CPU or kernel without
 * ASIMD, and the baseline the others are measured against.
 *
 * Size classes (n = count):
 *   0..15     two overlapping words (8/4 bytes) or three bytes, loaded first
 *   16..32    first and last 16 bytes
 *   33..64    first and last 32 bytes
 *   > 64      64-byte blocks, 4 x ldp/stp of x pairs per block
 * Every class up to 64 bytes loads all of its bytes before storing any, so
 * overlapping buffers get memmove's result and memcpy shares this entry.
 *
 * Large copies.  If dst is inside (src, src+n) the copy runs backwards, otherwise
 * forwards.  The loop is software-pipelined: the registers hold one 64-byte block,
 * and each pair is stored and immediately reloaded with the same pair of the next
 * block, so the loads of block k+1 are in flight while block k drains.  One
 * address update per block, not per pair: the last ldp and stp of a block use
 * pre-index writeback, the others fixed offsets from biased pointers (a Linux
 * patch doing this to the kernel's copy template gained 25% on Kunpeng 920).  The loop
 * stops when at most 128 bytes are left (the block in the registers plus up to 64
 * more); the last 64 bytes of the buffer are then copied from the end, loaded
 * pair by pair in between the stores of the last block, each load placed before
 * the first store that could reach its source bytes when the buffers overlap
 * (argument in the comments below).  So there is no remainder loop and no byte
 * is touched outside [src, src+n) and [dst, dst+n).
 * 64 bytes per iteration: 10 instructions (8 memory, 2 loop); the 4-pair block
 * is the smallest that keeps both pointer updates off the per-pair path, and 8
 * pairs would need 16 more registers than the caller-saved set has free.
 * No alignment: this variant exists for rare cores; simplicity wins here.
 */
#include "asm.h"

#define dstin x0
#define src x1
#define count x2
#define dst x3
#define srcend x4
#define dstend x5
#define A_l x6
#define A_h x7
#define B_l x8
#define B_h x9
#define C_l x10
#define C_h x11
#define D_l x12
#define D_h x13
#define E_l x14
#define E_h x15
#define tmp x16
#define tmpw w16

ENTRY(fc_memmove_a64_ldp_stp)
    add     srcend, src, count
    add     dstend, dstin, count
    cmp     count, 16
    b.hs    .Lge16
    /* 0..15 bytes */
    tbz     count, 3, 1f
    ldr     A_l, [src]
    ldr     A_h, [srcend, -8]
    str     A_l, [dstin]
    str     A_h, [dstend, -8]
    ret
1:  tbz     count, 2, 2f
    ldr     w6, [src]
    ldr     w7, [srcend, -4]
    str     w6, [dstin]
    str     w7, [dstend, -4]
    ret
2:  cbz     count, 3f          /* n == 0 touches nothing */
    lsr     tmp, count, 1      /* 0..3 bytes: first, middle, last */
    ldrb    w6, [src]
    ldrb    w7, [srcend, -1]
    ldrb    w8, [src, tmp]
    strb    w6, [dstin]
    strb    w8, [dstin, tmp]
    strb    w7, [dstend, -1]
3:  ret

.Lge16:
    cmp     count, 32
    b.hi    .Lgt32
    ldp     A_l, A_h, [src]
    ldp     B_l, B_h, [srcend, -16]
    stp     A_l, A_h, [dstin]
    stp     B_l, B_h, [dstend, -16]
    ret

.Lgt32:
    cmp     count, 64
    b.hi    .Llarge
    ldp     A_l, A_h, [src]
    ldp     B_l, B_h, [src, 16]
    ldp     C_l, C_h, [srcend, -32]
    ldp     D_l, D_h, [srcend, -16]
    stp     A_l, A_h, [dstin]
    stp     B_l, B_h, [dstin, 16]
    stp     C_l, C_h, [dstend, -32]
    stp     D_l, D_h, [dstend, -16]
    ret

.Llarge:
    sub     tmp, dstin, src
    cbz     tmp, 3b            /* same buffer: nothing to do */
    cmp     tmp, count
    b.lo    .Lbackward         /* dst inside (src, src+n) */

    /* Forward.  Overlap here means src = dst + d, d >= 1: a store to dst offset
     * j clobbers src offset j - d, below every offset still to be loaded. */
    ldp     A_l, A_h, [src]
    ldp     B_l, B_h, [src, 16]
    ldp     C_l, C_h, [src, 32]
    ldp     D_l, D_h, [src, 48]!   /* src + 16 = next block */
    sub     dst, dstin, 16         /* dst + 16 = block in registers */
    subs    count, count, 128      /* bytes from block start, minus 128 */
    b.ls    .Lfwd_tail
.Lfwd_loop:
    stp     A_l, A_h, [dst, 16]
    ldp     A_l, A_h, [src, 16]
    stp     B_l, B_h, [dst, 32]
    ldp     B_l, B_h, [src, 32]
    stp     C_l, C_h, [dst, 48]
    ldp     C_l, C_h, [src, 48]
    stp     D_l, D_h, [dst, 64]!
    ldp     D_l, D_h, [src, 64]!
    subs    count, count, 64
    b.hi    .Lfwd_loop
.Lfwd_tail:
    /* Block at offset s = dst+16-dstin, 64 < n - s <= 128.  The tail pair loaded
     * after storing block bytes up to s+16k starts at n-64+16k >= s+16k+1. */
    ldp     E_l, E_h, [srcend, -64]
    stp     A_l, A_h, [dst, 16]
    ldp     A_l, A_h, [srcend, -48]
    stp     B_l, B_h, [dst, 32]
    ldp     B_l, B_h, [srcend, -32]
    stp     C_l, C_h, [dst, 48]
    ldp     C_l, C_h, [srcend, -16]
    stp     D_l, D_h, [dst, 64]
    stp     E_l, E_h, [dstend, -64]
    stp     A_l, A_h, [dstend, -48]
    stp     B_l, B_h, [dstend, -32]
    stp     C_l, C_h, [dstend, -16]
    ret

.Lbackward:
    /* dst = src + d, d >= 1: a store to dst offset j clobbers src offset j + d,
     * above every offset still to be loaded. */
    ldp     D_l, D_h, [srcend, -16]
    ldp     C_l, C_h, [srcend, -32]
    ldp     B_l, B_h, [srcend, -48]
    ldp     A_l, A_h, [srcend, -64]!   /* srcend = start of block */
    subs    count, count, 128          /* block end offset, minus 128 */
    b.ls    .Lbwd_tail
.Lbwd_loop:
    stp     D_l, D_h, [dstend, -16]
    ldp     D_l, D_h, [srcend, -16]
    stp     C_l, C_h, [dstend, -32]
    ldp     C_l, C_h, [srcend, -32]
    stp     B_l, B_h, [dstend, -48]
    ldp     B_l, B_h, [srcend, -48]
    stp     A_l, A_h, [dstend, -64]!
    ldp     A_l, A_h, [srcend, -64]!
    subs    count, count, 64
    b.hi    .Lbwd_loop
.Lbwd_tail:
    /* Block ends at offset e, 64 < e <= 128; the head pair loaded after storing
     * block bytes from e-16k up ends at 64-16k <= e-16k-1. */
    ldp     E_l, E_h, [src, 48]
    stp     D_l, D_h, [dstend, -16]
    ldp     D_l, D_h, [src, 32]
    stp     C_l, C_h, [dstend, -32]
    ldp     C_l, C_h, [src, 16]
    stp     B_l, B_h, [dstend, -48]
    ldp     B_l, B_h, [src]
    stp     A_l, A_h, [dstend, -64]
    stp     E_l, E_h, [dstin, 48]
    stp     D_l, D_h, [dstin, 32]
    stp     C_l, C_h, [dstin, 16]
    stp     B_l, B_h, [dstin]
    ret
END(fc_memmove_a64_ldp_stp)
