/* memmove_sve.S - memcpy and memmove with SVE.
 *
 * Assumptions: SVE (HWCAP_SVE), any vector length VL from 16 to 256 bytes (128 to
 * 2048 bits): every size class is expressed in multiples of VL read with cntb at
 * each call, so a prctl(PR_SVE_SET_VL) at run time is fine.  Only z0-z7 and
 * z16-z23 are used (z8-z15 hold callee-saved d8-d15 in their low bits).
 *
 * Size classes (n = count, V = VL in bytes), instruction counts under QEMU at
 * 512 bits, entry to return (not time), against glibc 2.36's __memcpy_a64fx in
 * parentheses:
 *   0..2V      predicated: two whilelo predicates cover bytes [0, V) and [V, 2V)
 *              of the request, so every size up to 2V (32 bytes at 256-bit SVE,
 *              128 at 512-bit) is one load/store pair behind one compare;
 *              inactive lanes are not accessed, so nothing outside the buffers is
 *              touched and n == 0 touches nothing: 10 (10)
 *   2V+1..4V   first and last 2 vectors: 18 (19)
 *   4V+1..5V-1 4 vectors and a fifth predicated by whilelo from 4V, whose flags
 *              also sort n into this class, 2V..4V (no lane) or 5V.. (last lane):
 *              18 (27).  At 512 bits this is 257..319 bytes, where the Google
 *              fleet's "A" memcpy mix puts 32% of its calls (304 bytes): 23 with
 *              a 4V..6V class of 3 + 3 vectors before, 13.9 on that mix now (14.96
 *              before, goal 15; glibc 16.9)
 *   5V..8V     first and last 4 vectors: 27 (27)
 *   > 8V       8-vector blocks in a software-pipelined loop (each register stored,
 *              then reloaded with the next block), then the last 2, 4 or 8 vectors
 *              loaded from the end (whichever cover the 1..8V bytes after the last
 *              block) before the last block is stored: no remainder loop.  41 at
 *              8V+1..10V (42 to 48), 45 to 12V, 51 to 16V (54 to 62), then 20 per
 *              8V as glibc; a single 8 + 8 tail cost 47 at 8V..16V and 74 at
 *              16V+1 (glibc 62).  Direction as in the other variants: backwards
 *              when dst is inside [src, src+n).
 * All classes up to 8V load before they store, so memcpy gets memmove's result.
 * 8 vectors per iteration: 20 instructions (16 memory, 2 addvl, 2 loop) per 8V;
 * at 512 bits 2571 instructions per 64 KiB (glibc 2.36's A64FX copy: 2582).  No
 * alignment step: SVE loads/stores of any alignment are single instructions and
 * the A64FX is the only target where this loop is hot.  The loop loads with ld1b
 * under p2 (all true from 5V on), not ldr: llvm-mca's A64FX model issues ldr z on
 * one pipe, ld1b on two, 2.0 against 1.0 cycles per 64 bytes (4 KiB: 144 cycles,
 * now 91; glibc 98).  Elsewhere ldr/str stay: nothing there waits for p2 (on
 * Neoverse V1 that wait cost 1.8 cycles on the GoogleA mix).  docs/aarch64.md.
 * The first class is glibc's (n <= 2V by a compare).  Deciding n < 2V from the
 * second predicate's flags instead saves that compare below 2V (9), but a
 * predicate cannot tell n = 2V from n > 2V (both are all lanes), so n = 2V then
 * went the 2V..4V way, 18 against glibc's 10, and testing it on the larger
 * sizes' path put 5V..8V at 28 against 27.  At or below glibc at every size
 * comes first: the fleet's "Q" mix (98% below 128 bytes) costs 10.3 this way
 * (9.3 the other, glibc 10.4).
 */
#include "asm.h"

/* The eight vectors z0-z7 of one 8V block, loaded or stored (OP = ldr or str)
 * at BASE + (OFF .. OFF + 7) * VL: the loop's first block and the pending block
 * that every tail stores. */
    .macro BLOCK8 op, base, off
    \op     z0, [\base, #(\off), mul vl]
    \op     z1, [\base, #(\off) + 1, mul vl]
    \op     z2, [\base, #(\off) + 2, mul vl]
    \op     z3, [\base, #(\off) + 3, mul vl]
    \op     z4, [\base, #(\off) + 4, mul vl]
    \op     z5, [\base, #(\off) + 5, mul vl]
    \op     z6, [\base, #(\off) + 6, mul vl]
    \op     z7, [\base, #(\off) + 7, mul vl]
    .endm

    .arch armv8.2-a+sve

#define dstin x0
#define src x1
#define count x2
#define dst x3
#define srcend x4
#define dstend x5
#define vlen x6
#define tmp x7

ENTRY(fc_memmove_a64_sve)
    cntb    vlen
    cmp     count, vlen, lsl 1
    b.hi    .Lmore                 /* n > 2V */
    whilelo p0.b, xzr, count
    whilelo p1.b, vlen, count
    ld1b    z0.b, p0/z, [src]
    ld1b    z1.b, p1/z, [src, #1, mul vl]
    st1b    z0.b, p0, [dstin]
    st1b    z1.b, p1, [dstin, #1, mul vl]
    ret

.Lmore:
    lsl     tmp, vlen, 2
    whilelo p2.b, tmp, count       /* bytes [4V, 5V): none iff n <= 4V, last iff n >= 5V */
    b.last  .Lge5
    b.none  .L2_4
    ldr     z0, [src]
    ldr     z1, [src, #1, mul vl]
    ldr     z2, [src, #2, mul vl]
    ldr     z3, [src, #3, mul vl]
    ld1b    z4.b, p2/z, [src, #4, mul vl]  /* 4V < n < 5V */
    str     z0, [dstin]
    str     z1, [dstin, #1, mul vl]
    str     z2, [dstin, #2, mul vl]
    str     z3, [dstin, #3, mul vl]
    st1b    z4.b, p2, [dstin, #4, mul vl]
    ret

.L2_4:                             /* 2V <= n <= 4V: first and last 2 vectors */
    add     srcend, src, count
    add     dstend, dstin, count
    ldr     z0, [src]
    ldr     z1, [src, #1, mul vl]
    ldr     z2, [srcend, #-2, mul vl]
    ldr     z3, [srcend, #-1, mul vl]
    str     z0, [dstin]
    str     z1, [dstin, #1, mul vl]
    str     z2, [dstend, #-2, mul vl]
    str     z3, [dstend, #-1, mul vl]
    ret

.Lge5:
    add     srcend, src, count
    add     dstend, dstin, count
    cmp     count, vlen, lsl 3
    b.hi    .Llarge
    ldr     z0, [src]
    ldr     z1, [src, #1, mul vl]
    ldr     z2, [src, #2, mul vl]
    ldr     z3, [src, #3, mul vl]
    ldr     z4, [srcend, #-4, mul vl]
    ldr     z5, [srcend, #-3, mul vl]
    ldr     z6, [srcend, #-2, mul vl]
    ldr     z7, [srcend, #-1, mul vl]
    /* 5V <= n <= 8V: first and last 4 vectors */
    str     z0, [dstin]
    str     z1, [dstin, #1, mul vl]
    str     z2, [dstin, #2, mul vl]
    str     z3, [dstin, #3, mul vl]
    str     z4, [dstend, #-4, mul vl]
    str     z5, [dstend, #-3, mul vl]
    str     z6, [dstend, #-2, mul vl]
    str     z7, [dstend, #-1, mul vl]
    ret

.Llarge:
    sub     tmp, dstin, src        /* dst == src goes backwards, harmlessly */
    cmp     tmp, count
    b.lo    .Lbackward             /* dst inside [src, src+n) */

    /* Forward: src = dst + d (d >= 1) when overlapping; a store to dst offset j
     * clobbers src offset j - d, below everything still to be loaded. */
    BLOCK8  ldr, src, 0
    mov     dst, dstin
    subs    count, count, vlen, lsl 4  /* (bytes from block start) - 16V */
    b.ls    .Lfwd_tail
.Lfwd_loop:
    addvl   src, src, #8           /* the next block: ld1b's offsets reach -8..7 VL */
    st1b    z0.b, p2, [dst]
    ld1b    z0.b, p2/z, [src]
    st1b    z1.b, p2, [dst, #1, mul vl]
    ld1b    z1.b, p2/z, [src, #1, mul vl]
    st1b    z2.b, p2, [dst, #2, mul vl]
    ld1b    z2.b, p2/z, [src, #2, mul vl]
    st1b    z3.b, p2, [dst, #3, mul vl]
    ld1b    z3.b, p2/z, [src, #3, mul vl]
    st1b    z4.b, p2, [dst, #4, mul vl]
    ld1b    z4.b, p2/z, [src, #4, mul vl]
    st1b    z5.b, p2, [dst, #5, mul vl]
    ld1b    z5.b, p2/z, [src, #5, mul vl]
    st1b    z6.b, p2, [dst, #6, mul vl]
    ld1b    z6.b, p2/z, [src, #6, mul vl]
    st1b    z7.b, p2, [dst, #7, mul vl]
    ld1b    z7.b, p2/z, [src, #7, mul vl]
    addvl   dst, dst, #8
    subs    count, count, vlen, lsl 3
    b.hi    .Lfwd_loop
.Lfwd_tail:
    /* The block at dst, and r = count + 8V in (0, 8V] bytes after it: the last
     * 2, 4 or 8 vectors from the end cover them (they start after the block
     * start), loaded before anything from the block start on is stored. */
    adds    tmp, count, vlen, lsl 2    /* r - 4V */
    b.gt    .Lfwd_tail8
    cmn     tmp, vlen, lsl 1           /* r - 2V */
    b.gt    .Lfwd_tail4
    ldr     z16, [srcend, #-2, mul vl]
    ldr     z17, [srcend, #-1, mul vl]
    BLOCK8  str, dst, 0
    str     z16, [dstend, #-2, mul vl]
    str     z17, [dstend, #-1, mul vl]
    ret
.Lfwd_tail4:
    ldr     z16, [srcend, #-4, mul vl]
    ldr     z17, [srcend, #-3, mul vl]
    ldr     z18, [srcend, #-2, mul vl]
    ldr     z19, [srcend, #-1, mul vl]
    BLOCK8  str, dst, 0
    str     z16, [dstend, #-4, mul vl]
    str     z17, [dstend, #-3, mul vl]
    str     z18, [dstend, #-2, mul vl]
    str     z19, [dstend, #-1, mul vl]
    ret
.Lfwd_tail8:
    ldr     z16, [srcend, #-8, mul vl]
    ldr     z17, [srcend, #-7, mul vl]
    ldr     z18, [srcend, #-6, mul vl]
    ldr     z19, [srcend, #-5, mul vl]
    ldr     z20, [srcend, #-4, mul vl]
    ldr     z21, [srcend, #-3, mul vl]
    ldr     z22, [srcend, #-2, mul vl]
    ldr     z23, [srcend, #-1, mul vl]
    BLOCK8  str, dst, 0
    str     z16, [dstend, #-8, mul vl]
    str     z17, [dstend, #-7, mul vl]
    str     z18, [dstend, #-6, mul vl]
    str     z19, [dstend, #-5, mul vl]
    str     z20, [dstend, #-4, mul vl]
    str     z21, [dstend, #-3, mul vl]
    str     z22, [dstend, #-2, mul vl]
    str     z23, [dstend, #-1, mul vl]
    ret

.Lbackward:
    /* dst = src + d, d >= 0: a store to dst offset j clobbers src offset j + d,
     * at or above everything still to be loaded. */
    BLOCK8  ldr, srcend, -8
    mov     dst, dstend
    subs    count, count, vlen, lsl 4  /* (block end offset) - 16V */
    b.ls    .Lbwd_tail
.Lbwd_loop:
    addvl   srcend, srcend, #-8    /* the next block down */
    st1b    z7.b, p2, [dst, #-1, mul vl]
    ld1b    z7.b, p2/z, [srcend, #-1, mul vl]
    st1b    z6.b, p2, [dst, #-2, mul vl]
    ld1b    z6.b, p2/z, [srcend, #-2, mul vl]
    st1b    z5.b, p2, [dst, #-3, mul vl]
    ld1b    z5.b, p2/z, [srcend, #-3, mul vl]
    st1b    z4.b, p2, [dst, #-4, mul vl]
    ld1b    z4.b, p2/z, [srcend, #-4, mul vl]
    st1b    z3.b, p2, [dst, #-5, mul vl]
    ld1b    z3.b, p2/z, [srcend, #-5, mul vl]
    st1b    z2.b, p2, [dst, #-6, mul vl]
    ld1b    z2.b, p2/z, [srcend, #-6, mul vl]
    st1b    z1.b, p2, [dst, #-7, mul vl]
    ld1b    z1.b, p2/z, [srcend, #-7, mul vl]
    st1b    z0.b, p2, [dst, #-8, mul vl]
    ld1b    z0.b, p2/z, [srcend, #-8, mul vl]
    addvl   dst, dst, #-8
    subs    count, count, vlen, lsl 3
    b.hi    .Lbwd_loop
.Lbwd_tail:
    /* The block ends at dst, r = count + 8V in (0, 8V] bytes before it: the
     * first 2, 4 or 8 vectors cover them. */
    adds    tmp, count, vlen, lsl 2    /* r - 4V */
    b.gt    .Lbwd_tail8
    cmn     tmp, vlen, lsl 1           /* r - 2V */
    b.gt    .Lbwd_tail4
    ldr     z16, [src]
    ldr     z17, [src, #1, mul vl]
    BLOCK8  str, dst, -8
    str     z16, [dstin]
    str     z17, [dstin, #1, mul vl]
    ret
.Lbwd_tail4:
    ldr     z16, [src]
    ldr     z17, [src, #1, mul vl]
    ldr     z18, [src, #2, mul vl]
    ldr     z19, [src, #3, mul vl]
    BLOCK8  str, dst, -8
    str     z16, [dstin]
    str     z17, [dstin, #1, mul vl]
    str     z18, [dstin, #2, mul vl]
    str     z19, [dstin, #3, mul vl]
    ret
.Lbwd_tail8:
    ldr     z16, [src]
    ldr     z17, [src, #1, mul vl]
    ldr     z18, [src, #2, mul vl]
    ldr     z19, [src, #3, mul vl]
    ldr     z20, [src, #4, mul vl]
    ldr     z21, [src, #5, mul vl]
    ldr     z22, [src, #6, mul vl]
    ldr     z23, [src, #7, mul vl]
    BLOCK8  str, dst, -8
    str     z16, [dstin]
    str     z17, [dstin, #1, mul vl]
    str     z18, [dstin, #2, mul vl]
    str     z19, [dstin, #3, mul vl]
    str     z20, [dstin, #4, mul vl]
    str     z21, [dstin, #5, mul vl]
    str     z22, [dstin, #6, mul vl]
    str     z23, [dstin, #7, mul vl]
    ret
END(fc_memmove_a64_sve)
