/* memmove_word.S - fc_memmove_rv_word: the "word" memcpy/memmove variant.
 *
 * Assumptions: rv64gc; misaligned loads/stores may trap to M-mode firmware and cost
 * hundreds of cycles, so this file never makes one.  memcpy == memmove (every size
 * class is overlap-safe), n == 0 touches nothing, no byte outside [src, src+n) is
 * read and none outside [dst, dst+n) written.
 *
 * Size classes and paths:
 *   n < 16, or n < 32 when src and dst differ in alignment (mod 8):
 *     a computed jump into an unrolled byte sequence (lbu/sb pairs, 8 bytes of
 *     code each, .option norvc keeps them fixed size): ascending when dst is
 *     before src or the buffers are disjoint, descending when dst lies inside
 *     (src, src+n).  The jump target is PC-relative (lla): no relocation.
 *   src == dst (mod 8), n >= 16  ("word"):
 *     head: 1-, 2-, 4-byte accesses, each naturally aligned, up to the first
 *     8-byte boundary; 64-byte blocks, all 8 loads issued before the 8 stores
 *     (no read-after-write stall, and overlap-safe in the copy's direction);
 *     single words; tail: 4-, 2-, 1-byte accesses, naturally aligned.  Backward
 *     (dst inside (src, src+n)) is the mirror image from the ends.
 *   src != dst (mod 8), n >= 32  ("shift", memmove_shift.S):
 *     aligned loads merged with srl/sll/or, aligned stores.
 * Instruction cost of the 64-byte loop: 8 ld + 8 sd + 3 = 19 per 64 bytes. */
#include "asm.h"

    .option push
FC_ENTRY(fc_memmove_rv_word)
    sub     t0, a0, a1              /* D = dst - src (unsigned compare below) */
    sltiu   t1, a2, 16
    bnez    t1, .Lsmall
    beqz    t0, .Lret               /* same buffer */
    xor     t1, a0, a1
    andi    t1, t1, 7
    bnez    t1, .Lrelmis
    bltu    t0, a2, .Lco_bwd        /* 0 < D < n: dst inside the source: backward */

/* ---- co-aligned, forward -------------------------------------------------- */
    mv      a3, a0
    andi    t1, a1, 1
    beqz    t1, 1f
    lbu     t2, 0(a1)
    sb      t2, 0(a3)
    addi    a1, a1, 1
    addi    a3, a3, 1
    addi    a2, a2, -1
1:  andi    t1, a1, 2
    beqz    t1, 2f
    lhu     t2, 0(a1)
    sh      t2, 0(a3)
    addi    a1, a1, 2
    addi    a3, a3, 2
    addi    a2, a2, -2
2:  andi    t1, a1, 4
    beqz    t1, 3f
    lwu     t2, 0(a1)
    sw      t2, 0(a3)
    addi    a1, a1, 4
    addi    a3, a3, 4
    addi    a2, a2, -4
3:  andi    t0, a2, -64             /* bytes in whole 64-byte blocks */
    beqz    t0, 5f
    add     t0, a1, t0              /* source position after the blocks */
4:  ld      t1, 0(a1)
    ld      t2, 8(a1)
    ld      t3, 16(a1)
    ld      t4, 24(a1)
    ld      t5, 32(a1)
    ld      t6, 40(a1)
    ld      a4, 48(a1)
    ld      a5, 56(a1)
    sd      t1, 0(a3)
    sd      t2, 8(a3)
    sd      t3, 16(a3)
    sd      t4, 24(a3)
    sd      t5, 32(a3)
    sd      t6, 40(a3)
    sd      a4, 48(a3)
    sd      a5, 56(a3)
    addi    a1, a1, 64
    addi    a3, a3, 64
    bltu    a1, t0, 4b
    andi    a2, a2, 63
5:  andi    t0, a2, -8
    beqz    t0, 7f
    add     t0, a1, t0
6:  ld      t1, 0(a1)
    sd      t1, 0(a3)
    addi    a1, a1, 8
    addi    a3, a3, 8
    bltu    a1, t0, 6b
7:  andi    t1, a2, 4
    beqz    t1, 8f
    lwu     t2, 0(a1)
    sw      t2, 0(a3)
    addi    a1, a1, 4
    addi    a3, a3, 4
8:  andi    t1, a2, 2
    beqz    t1, 9f
    lhu     t2, 0(a1)
    sh      t2, 0(a3)
    addi    a1, a1, 2
    addi    a3, a3, 2
9:  andi    t1, a2, 1
    beqz    t1, .Lret
    lbu     t2, 0(a1)
    sb      t2, 0(a3)
.Lret:
    ret

/* ---- co-aligned, backward: a4/a3 walk down from the ends ------------------- */
.Lco_bwd:
    add     a4, a1, a2
    add     a3, a0, a2
    andi    t1, a4, 1
    beqz    t1, 1f
    addi    a4, a4, -1
    addi    a3, a3, -1
    lbu     t2, 0(a4)
    sb      t2, 0(a3)
    addi    a2, a2, -1
1:  andi    t1, a4, 2
    beqz    t1, 2f
    addi    a4, a4, -2
    addi    a3, a3, -2
    lhu     t2, 0(a4)
    sh      t2, 0(a3)
    addi    a2, a2, -2
2:  andi    t1, a4, 4
    beqz    t1, 3f
    addi    a4, a4, -4
    addi    a3, a3, -4
    lwu     t2, 0(a4)
    sw      t2, 0(a3)
    addi    a2, a2, -4
3:  andi    t0, a2, -64
    beqz    t0, 5f
    sub     t0, a4, t0              /* source position after the blocks */
4:  ld      t1, -8(a4)
    ld      t2, -16(a4)
    ld      t3, -24(a4)
    ld      t4, -32(a4)
    ld      t5, -40(a4)
    ld      t6, -48(a4)
    ld      a5, -56(a4)
    ld      a6, -64(a4)
    sd      t1, -8(a3)
    sd      t2, -16(a3)
    sd      t3, -24(a3)
    sd      t4, -32(a3)
    sd      t5, -40(a3)
    sd      t6, -48(a3)
    sd      a5, -56(a3)
    sd      a6, -64(a3)
    addi    a4, a4, -64
    addi    a3, a3, -64
    bgtu    a4, t0, 4b
    andi    a2, a2, 63
5:  andi    t0, a2, -8
    beqz    t0, 7f
    sub     t0, a4, t0
6:  ld      t1, -8(a4)
    sd      t1, -8(a3)
    addi    a4, a4, -8
    addi    a3, a3, -8
    bgtu    a4, t0, 6b
7:  andi    t1, a2, 4
    beqz    t1, 8f
    addi    a4, a4, -4
    addi    a3, a3, -4
    lwu     t2, 0(a4)
    sw      t2, 0(a3)
8:  andi    t1, a2, 2
    beqz    t1, 9f
    addi    a4, a4, -2
    addi    a3, a3, -2
    lhu     t2, 0(a4)
    sh      t2, 0(a3)
9:  andi    t1, a2, 1
    beqz    t1, .Lret
    lbu     t2, -1(a4)
    sb      t2, -1(a3)
    ret

/* ---- different alignments ---------------------------------------------------- */
.Lrelmis:
    sltiu   t1, a2, 32
    bnez    t1, .Lsmall
    bltu    t0, a2, 1f
    tail    fc_rv_shift_fwd
1:  tail    fc_rv_shift_bwd

/* ---- n < 16 (< 32 when misaligned relative to each other): byte sequences ---- */
.Lsmall:
    li      t2, 32
    sub     t2, t2, a2
    slli    t2, t2, 3               /* entry = (32 - n) pairs of 4-byte insns */
    bltu    t0, a2, 1f              /* 0 < D < n: descending */
    add     a4, a1, a2
    addi    a4, a4, -32             /* pair k copies byte k of [src+n-32, ...) */
    add     a5, a0, a2
    addi    a5, a5, -32
    lla     t3, .Lfwd32
    add     t3, t3, t2
    jr      t3
1:  lla     t3, .Lbwd32
    add     t3, t3, t2
    jr      t3

    .option norvc
    .p2align 2
.Lfwd32:
    .irp k, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    lbu     t1, \k(a4)
    sb      t1, \k(a5)
    .endr
    ret
.Lbwd32:
    .irp k, 31,30,29,28,27,26,25,24,23,22,21,20,19,18,17,16,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0
    lbu     t1, \k(a1)
    sb      t1, \k(a0)
    .endr
    ret
FC_END(fc_memmove_rv_word)
    .option pop
