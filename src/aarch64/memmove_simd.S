/* memmove_simd.S - memcpy and memmove with Advanced SIMD q-register pairs.
 *
 * Assumptions: ARMv8-A with Advanced SIMD (HWCAP_ASIMD), unaligned accesses.
 * The default on every core with ASIMD and without MOPS or (usable) SVE.
 *
 * Size classes (n = count):
 *   0..15     two overlapping words (8/4 bytes); 1..3 bytes as first byte + last
 *             halfword (one byte alone for n = 1)
 *   16..32    first and last 16 bytes (one q each)
 *   33..64    first and last 32 bytes (ldp q)
 *   65..128   first and last 64 bytes (4 q pairs)
 *   129..256  first and last 128 bytes (8 q pairs, 16 registers)
 *   257..384  first and last 192 bytes (12 q pairs: all 24 caller-saved q registers)
 *   > 384     128-byte blocks: loop of 4 ldp q + 4 stp q
 * Every class up to 384 bytes loads all of its bytes before storing any, so
 * overlapping buffers get memmove's result and memcpy shares this entry.  Most
 * calls are small (77% of SPEC2017's memcpy calls are <= 32 bytes, 90% <= 256), so
 * these classes are straight-line code after at most 5 compares, ordered by how
 * often they occur: 0..32 first (1-15 and 16-32 are 28% and 26% of the Google
 * fleet's "A" memcpy mix), then 33..64, then the larger ones.  The 257..384 class
 * exists because that same mix sends 32% of its calls to 304 bytes: as a loop
 * with alignment it cost ~52 instructions, as straight-line code 37.
 *
 * Large copies.  If dst is inside (src, src+n) the copy runs backwards, else
 * forwards.  The first (forward) or last (backward) 16 bytes are copied
 * unaligned, then the destination is aligned to 16 so that no store of the loop
 * crosses a cache line (loads may; loads crossing lines are the cheaper side on
 * the cores we target).  The loop is software-pipelined as in ldp_stp: each q
 * pair is stored and at once reloaded with the same pair of the next block, with
 * pre-index writeback on the last pair only: 10 instructions per 128 bytes (8
 * memory, 2 loop).  128 bytes per iteration, not 64: with 64 the two loop
 * instructions are 1/3 of the total, and 64 KiB costs ~6100 instructions instead
 * of 5142 (glibc 2.36's generic copy: 10250).  It stops when 129..256 bytes
 * remain from the block in the registers; the last 128 bytes are then loaded
 * from the end into 8 other registers before the last block is stored, so the
 * tail needs no remainder loop and no byte outside the buffers is touched.
 */
#include "asm.h"

#define dstin x0
#define src x1
#define count x2
#define dst x3
#define srcend x4
#define dstend x5
#define tmp x6

ENTRY(fc_memmove_a64_simd)
    add     srcend, src, count
    add     dstend, dstin, count
    cmp     count, 16
    b.lo    .Llt16
    cmp     count, 32
    b.ls    .L16_32
    cmp     count, 64
    b.hi    .Lgt64
    ldp     q0, q1, [src]          /* 33..64 */
    ldp     q2, q3, [srcend, -32]
    stp     q0, q1, [dstin]
    stp     q2, q3, [dstend, -32]
    ret

.L16_32:
    ldr     q0, [src]
    ldr     q1, [srcend, -16]
    str     q0, [dstin]
    str     q1, [dstend, -16]
    ret

.Llt16:
    tbz     count, 3, 1f
    ldr     x6, [src]              /* 8..15 */
    ldr     x7, [srcend, -8]
    str     x6, [dstin]
    str     x7, [dstend, -8]
    ret
1:  tbz     count, 2, 2f
    ldr     w6, [src]              /* 4..7 */
    ldr     w7, [srcend, -4]
    str     w6, [dstin]
    str     w7, [dstend, -4]
    ret
2:  cbz     count, 3f              /* n == 0 touches nothing */
    ldrb    w6, [src]
    tbz     count, 1, 4f
    ldrh    w7, [srcend, -2]       /* 2..3: first byte and last two */
    strb    w6, [dstin]
    strh    w7, [dstend, -2]
3:  ret
4:  strb    w6, [dstin]            /* 1 */
    ret

.Lgt64:
    cmp     count, 128
    b.hi    .Lgt128
    ldp     q0, q1, [src]          /* 65..128 */
    ldp     q2, q3, [src, 32]
    ldp     q4, q5, [srcend, -64]
    ldp     q6, q7, [srcend, -32]
    stp     q0, q1, [dstin]
    stp     q2, q3, [dstin, 32]
    stp     q4, q5, [dstend, -64]
    stp     q6, q7, [dstend, -32]
    ret

.Lgt128:
    cmp     count, 256
    b.hi    .Lgt256
    ldp     q0, q1, [src]          /* 129..256 */
    ldp     q2, q3, [src, 32]
    ldp     q4, q5, [src, 64]
    ldp     q6, q7, [src, 96]
    ldp     q16, q17, [srcend, -128]
    ldp     q18, q19, [srcend, -96]
    ldp     q20, q21, [srcend, -64]
    ldp     q22, q23, [srcend, -32]
    stp     q0, q1, [dstin]
    stp     q2, q3, [dstin, 32]
    stp     q4, q5, [dstin, 64]
    stp     q6, q7, [dstin, 96]
    stp     q16, q17, [dstend, -128]
    stp     q18, q19, [dstend, -96]
    stp     q20, q21, [dstend, -64]
    stp     q22, q23, [dstend, -32]
    ret

.Lgt256:
    cmp     count, 384
    b.hi    .Llarge
    ldp     q0, q1, [src]          /* 257..384: 24 registers */
    ldp     q2, q3, [src, 32]
    ldp     q4, q5, [src, 64]
    ldp     q6, q7, [src, 96]
    ldp     q16, q17, [src, 128]
    ldp     q18, q19, [src, 160]
    ldp     q20, q21, [srcend, -192]
    ldp     q22, q23, [srcend, -160]
    ldp     q24, q25, [srcend, -128]
    ldp     q26, q27, [srcend, -96]
    ldp     q28, q29, [srcend, -64]
    ldp     q30, q31, [srcend, -32]
    stp     q0, q1, [dstin]
    stp     q2, q3, [dstin, 32]
    stp     q4, q5, [dstin, 64]
    stp     q6, q7, [dstin, 96]
    stp     q16, q17, [dstin, 128]
    stp     q18, q19, [dstin, 160]
    stp     q20, q21, [dstend, -192]
    stp     q22, q23, [dstend, -160]
    stp     q24, q25, [dstend, -128]
    stp     q26, q27, [dstend, -96]
    stp     q28, q29, [dstend, -64]
    stp     q30, q31, [dstend, -32]
    ret

.Llarge:
    sub     tmp, dstin, src
    cbz     tmp, 3b                /* same buffer: return */
    cmp     tmp, count
    b.lo    .Lbackward             /* dst inside (src, src+n) */

    /* Forward; overlap means src = dst + d, d >= 1: a store to dst offset j
     * clobbers src offset j - d, below everything still to be loaded. */
    ldr     q24, [src]             /* first 16 bytes, unaligned */
    and     tmp, dstin, 15
    sub     dst, dstin, tmp        /* dst aligned down; dst+16 is in (dstin, dstin+16] */
    sub     src, src, tmp
    add     count, count, tmp      /* bytes from dst to the end */
    ldp     q0, q1, [src, 16]      /* block 0: [dst+16, dst+144) */
    ldp     q2, q3, [src, 48]
    ldp     q4, q5, [src, 80]
    ldp     q6, q7, [src, 112]!    /* src + 32 = next block */
    str     q24, [dstin]
    sub     dst, dst, 16           /* dst + 32 = block in registers */
    subs    count, count, 272      /* (bytes from block start) - 256 */
    b.ls    .Lfwd_tail
.Lfwd_loop:
    stp     q0, q1, [dst, 32]
    ldp     q0, q1, [src, 32]
    stp     q2, q3, [dst, 64]
    ldp     q2, q3, [src, 64]
    stp     q4, q5, [dst, 96]
    ldp     q4, q5, [src, 96]
    stp     q6, q7, [dst, 128]!
    ldp     q6, q7, [src, 128]!
    subs    count, count, 128
    b.hi    .Lfwd_loop
.Lfwd_tail:
    /* 128 < bytes from block start <= 256: the last 128 bytes start after the
     * block start, and nothing from the block start on has been stored yet. */
    ldp     q16, q17, [srcend, -128]
    ldp     q18, q19, [srcend, -96]
    ldp     q20, q21, [srcend, -64]
    ldp     q22, q23, [srcend, -32]
    stp     q0, q1, [dst, 32]
    stp     q2, q3, [dst, 64]
    stp     q4, q5, [dst, 96]
    stp     q6, q7, [dst, 128]
    stp     q16, q17, [dstend, -128]
    stp     q18, q19, [dstend, -96]
    stp     q20, q21, [dstend, -64]
    stp     q22, q23, [dstend, -32]
    ret

.Lbackward:
    /* dst = src + d, d >= 1: a store to dst offset j clobbers src offset j + d,
     * above everything still to be loaded. */
    ldr     q24, [srcend, -16]     /* last 16 bytes, unaligned */
    and     tmp, dstend, 15
    sub     dst, dstend, tmp       /* end aligned down: dst is in (dstend-16, dstend] */
    sub     srcend, srcend, tmp
    sub     count, count, tmp      /* bytes from dstin to dst */
    ldp     q6, q7, [srcend, -32]  /* block 0: [dst-128, dst) */
    ldp     q4, q5, [srcend, -64]
    ldp     q2, q3, [srcend, -96]
    ldp     q0, q1, [srcend, -128]!    /* srcend = end of the next block */
    str     q24, [dstend, -16]     /* covers [dst, dstend) */
    subs    count, count, 256      /* (block end offset) - 256 */
    b.ls    .Lbwd_tail
.Lbwd_loop:
    stp     q6, q7, [dst, -32]
    ldp     q6, q7, [srcend, -32]
    stp     q4, q5, [dst, -64]
    ldp     q4, q5, [srcend, -64]
    stp     q2, q3, [dst, -96]
    ldp     q2, q3, [srcend, -96]
    stp     q0, q1, [dst, -128]!
    ldp     q0, q1, [srcend, -128]!
    subs    count, count, 128
    b.hi    .Lbwd_loop
.Lbwd_tail:
    ldp     q16, q17, [src]
    ldp     q18, q19, [src, 32]
    ldp     q20, q21, [src, 64]
    ldp     q22, q23, [src, 96]
    stp     q6, q7, [dst, -32]
    stp     q4, q5, [dst, -64]
    stp     q2, q3, [dst, -96]
    stp     q0, q1, [dst, -128]
    stp     q16, q17, [dstin]
    stp     q18, q19, [dstin, 32]
    stp     q20, q21, [dstin, 64]
    stp     q22, q23, [dstin, 96]
    ret
END(fc_memmove_a64_simd)
