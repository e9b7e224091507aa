/* memmove_simd.S - memcpy and memmove with Advanced SIMD q-register pairs.
 *
 * Assumptions: ARMv8-A with Advanced SIMD (HWCAP_ASIMD), unaligned accesses.
 * The default on every core with ASIMD and without MOPS or (usable) SVE.
 *
 * Size classes (n = count), instruction counts under QEMU entry to return (not
 * time), against glibc 2.36 in parentheses: __memcpy_generic on Cortex-A53/A72,
 * __memcpy_simd on Neoverse N1 (the smaller of the two per class):
 *   0..15     two overlapping words (8/4 bytes); 1..3 bytes as first byte + last
 *             halfword (one byte alone for n = 1): 8-14 (13-20)
 *   16..32    first and last 16 bytes (one q each): 12 (14)
 *   33..64    first and last 32 bytes (ldp q): 13 (14)
 *   65..128   first and last 64 bytes (4 q pairs): 17 (18 at 65..96, 20 above)
 *   129..160  first 128 and last 32 bytes: 21 (22 at 129..144, 30 above)
 *   161..256  first and last 128 bytes (8 q pairs, 16 registers): 27 (30, 38)
 *   257..384  first and last 192 bytes (12 q pairs: all 24 caller-saved q
 *             registers): 33 (38 at 257..272, 46 above)
 *   > 384     128-byte blocks: loop of 4 ldp q + 4 stp q
 * Every class up to 384 bytes loads all of its bytes before storing any, so
 * overlapping buffers get memmove's result and memcpy shares this entry.
 * The first compare is n > 64: 0..64 then pay 2 compares more than with 16 and
 * 32 tested first, and every class above 64 saves 4.  That order follows the
 * Google fleet's "A" memcpy mix, which sends 32% of its calls to 304 bytes
 * (33 instructions here; 39 with 16, 32, 64, 128, 256 tested in turn before),
 * and it is what brought that mix to 21.5 on Neoverse N1 (glibc 29.2; 23.2
 * before).  0..32 use register offsets (sub t, n, 16; ldr q1, [src, t]) instead
 * of end pointers: one instruction instead of two adds.  glibc's __memcpy_simd
 * takes 18 at 65..96 and 22 at 129..144, hence the split at 160 (the 129..256
 * class cost 29).  The 257..384 class exists because a loop with alignment cost
 * ~52 instructions at 304 bytes.
 *
 * Large copies.  If dst is inside [src, src+n) the copy runs backwards, else
 * forwards (dst == src goes backwards, harmlessly).  The loop is software-
 * pipelined as in ldp_stp: each q pair is stored and at once reloaded with the
 * same pair of the next block: 11 instructions per 128 bytes (8 memory, the
 * counter update second, one add for the source, writeback on the last store).
 * That shape, not writeback on both last pairs (10): llvm-mca's Cortex-A53 model
 * takes 7.5 cycles per 64 bytes for it against 9.5 (ThunderX 6.5 against 7.0;
 * no model slower; docs/aarch64.md).  128 bytes per iteration, not 64: 64 KiB
 * costs 5649 instructions (glibc 2.36's generic copy: 10250).  It
 * stops when 129..256 bytes remain from the block in the registers; the last 128
 * bytes are then loaded from the end into 8 other registers before the last block
 * is stored, so the tail needs no remainder loop and no byte outside the buffers
 * is touched.  Above 528 bytes the first (forward) or last (backward) 16 bytes
 * are copied unaligned, then the destination is aligned to 16 so that no store
 * of the loop crosses a cache line (loads may; loads crossing lines are the
 * cheaper side on the cores we target).  385..528 bytes skip that step: with it
 * they took 3 loop iterations at some alignments, 57 instructions at 394 bytes
 * against glibc's 54 on N1 (__memcpy_simd aligns the source and loops over 64
 * bytes: 8 instructions per 64); without it, 52 (and 522..528 with dst 9..15
 * past a 16-byte boundary, 72 against 70).
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
    cmp     count, 64
    b.hi    .Lgt64
    cmp     count, 16
    b.lo    .Llt16
    cmp     count, 32
    b.hi    .L33_64
    sub     tmp, count, 16         /* 16..32: first and last 16 bytes */
    ldr     q0, [src]
    ldr     q1, [src, tmp]
    str     q0, [dstin]
    str     q1, [dstin, tmp]
    ret

.L33_64:
    add     srcend, src, count
    add     dstend, dstin, count
    ldp     q0, q1, [src]
    ldp     q2, q3, [srcend, -32]
    stp     q0, q1, [dstin]
    stp     q2, q3, [dstend, -32]
    ret

.Llt16:
    tbz     count, 3, 1f
    sub     tmp, count, 8          /* 8..15 */
    ldr     x8, [src]
    ldr     x9, [src, tmp]
    str     x8, [dstin]
    str     x9, [dstin, tmp]
    ret
1:  tbz     count, 2, 2f
    sub     tmp, count, 4          /* 4..7 */
    ldr     w8, [src]
    ldr     w9, [src, tmp]
    str     w8, [dstin]
    str     w9, [dstin, tmp]
    ret
2:  cbz     count, 3f              /* n == 0 touches nothing */
    ldrb    w8, [src]
    tbz     count, 1, 4f
    sub     tmp, count, 2          /* 2..3: first byte and last two */
    ldrh    w9, [src, tmp]
    strb    w8, [dstin]
    strh    w9, [dstin, tmp]
3:  ret
4:  strb    w8, [dstin]            /* 1 */
    ret

.Lgt64:
    add     srcend, src, count
    add     dstend, dstin, count
    cmp     count, 256
    b.hi    .Lgt256
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
    cmp     count, 160
    b.hi    .Lgt160
    ldp     q0, q1, [src]          /* 129..160: first 128 and last 32 bytes */
    ldp     q2, q3, [src, 32]
    ldp     q4, q5, [src, 64]
    ldp     q6, q7, [src, 96]
    ldp     q16, q17, [srcend, -32]
    stp     q0, q1, [dstin]
    stp     q2, q3, [dstin, 32]
    stp     q4, q5, [dstin, 64]
    stp     q6, q7, [dstin, 96]
    stp     q16, q17, [dstend, -32]
    ret

.Lgt160:
    ldp     q0, q1, [src]          /* 161..256: first and last 128 bytes */
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
    sub     tmp, dstin, src        /* dst == src falls to the backward copy: harmless */
    cmp     tmp, count
    b.lo    .Lbackward             /* dst inside [src, src+n) */
    cmp     count, 528
    b.hi    .Lfwd_aligned

    /* Forward; overlap means src = dst + d, d >= 1: a store to dst offset j
     * clobbers src offset j - d, below everything still to be loaded.
     * 385..528 bytes: block 0 at [0, 128) unaligned, 1 or 2 loop iterations. */
    ldp     q0, q1, [src]
    ldp     q2, q3, [src, 32]
    ldp     q4, q5, [src, 64]
    ldp     q6, q7, [src, 96]!     /* src + 32 = next block */
    sub     dst, dstin, 32         /* dst + 32 = block in registers */
    sub     count, count, 256      /* (bytes from block start) - 256, > 128 */
.Lfwd_loop:
    stp     q0, q1, [dst, 32]
    ldp     q0, q1, [src, 32]
    subs    count, count, 128
    stp     q2, q3, [dst, 64]
    ldp     q2, q3, [src, 64]
    stp     q4, q5, [dst, 96]
    ldp     q4, q5, [src, 96]
    add     src, src, 128
    stp     q6, q7, [dst, 128]!
    ldp     q6, q7, [src]
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

.Lfwd_aligned:
    /* > 528 bytes: the first 16 bytes unaligned, then dst aligned to 16. */
    ldr     q24, [src]
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
    sub     count, count, 272      /* (bytes from block start) - 256, > 240 */
    b       .Lfwd_loop

.Lbackward:
    /* dst = src + d, d >= 0: a store to dst offset j clobbers src offset j + d,
     * at or above everything still to be loaded. */
    cmp     count, 528
    b.hi    .Lbwd_aligned
    ldp     q6, q7, [srcend, -32]  /* 385..528: block 0 = the last 128 bytes */
    ldp     q4, q5, [srcend, -64]
    ldp     q2, q3, [srcend, -96]
    ldp     q0, q1, [srcend, -128]!    /* srcend = end of the next block */
    mov     dst, dstend
    sub     count, count, 256      /* (block end offset) - 256, > 128 */
.Lbwd_loop:
    stp     q6, q7, [dst, -32]
    ldp     q6, q7, [srcend, -32]
    subs    count, count, 128
    stp     q4, q5, [dst, -64]
    ldp     q4, q5, [srcend, -64]
    stp     q2, q3, [dst, -96]
    ldp     q2, q3, [srcend, -96]
    sub     srcend, srcend, 128
    stp     q0, q1, [dst, -128]!
    ldp     q0, q1, [srcend]
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

.Lbwd_aligned:
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
    sub     count, count, 256      /* (block end offset) - 256, > 240 */
    b       .Lbwd_loop
END(fc_memmove_a64_simd)
