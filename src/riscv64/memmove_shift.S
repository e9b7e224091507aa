/* memmove_shift.S - the shift-merging copy: the "word" variant's path for src and
 * dst that differ in alignment (mod 8), n >= 32 (reached only from
 * fc_memmove_rv_word, which chose the direction).
 *
 * Why: on many RISC-V cores a misaligned access traps to firmware.  A copy that
 * loads only aligned words and merges neighbours with shifts took TCP receive on
 * the BeagleV from 686 to 904 Mbit/s.  Every access here is naturally aligned, and
 * no byte outside [src, src+n) is read: the partial words at both ends are never
 * loaded whole.
 *
 * Forward (fc_rv_shift_fwd: dst before src, or disjoint):
 *   1. bytes until dst is 8-aligned (at most 7);
 *   2. src is now m = src & 7 (1..7) bytes past an aligned word; its 8-m bytes up
 *      to that boundary are gathered with at most three naturally aligned loads
 *      (1, 2, 4 bytes) into "prev", placed where an aligned 8-byte load would have
 *      put them (bytes m..7);
 *   3. 64-byte blocks: 8 aligned loads, then for each word
 *        out = (prev >> 8m) | (w << (64 - 8m));  prev = w;  store out
 *      (5 instructions per 8 bytes: ld, srl, sll, or, sd; sll by -8m mod 64);
 *      then single words while a whole aligned source word remains;
 *   4. the 8-m bytes still held in prev are stored with aligned 4/2/1-byte
 *      stores, the last (< 8) source bytes byte by byte.
 * Backward (fc_rv_shift_bwd: dst inside (src, src+n)) is the mirror image from the
 * ends: out = (w >> 8m) | (prev << (64 - 8m)), with prev = the m bytes above.
 * Overlap: in each direction every store goes to bytes whose source was loaded
 * already, and stays clear of source bytes not yet loaded.
 *
 * The 64-byte loop needs 16 registers: a0 (the return value) is saved on the
 * stack around it. */
#include "asm.h"

FC_ENTRY(fc_rv_shift_fwd)
    mv      a3, a0                  /* dst cursor */
    add     a4, a1, a2              /* source end */
1:  andi    t0, a3, 7
    beqz    t0, 2f
    lbu     t1, 0(a1)
    sb      t1, 0(a3)
    addi    a1, a1, 1
    addi    a3, a3, 1
    j       1b
2:  andi    t0, a1, 7
    slli    a5, t0, 3               /* sh = 8m, 8..56 */
    neg     a6, a5                  /* 64 - sh, as a shift amount */
    li      a7, 0                   /* prev, gathered low-first */
    li      t2, 0                   /* bits gathered */
    andi    t0, a1, 1
    beqz    t0, 3f
    lbu     a7, 0(a1)
    addi    a1, a1, 1
    li      t2, 8
3:  andi    t0, a1, 2
    beqz    t0, 4f
    lhu     t1, 0(a1)
    sll     t1, t1, t2
    or      a7, a7, t1
    addi    a1, a1, 2
    addi    t2, t2, 16
4:  andi    t0, a1, 4
    beqz    t0, 5f
    lwu     t1, 0(a1)
    sll     t1, t1, t2
    or      a7, a7, t1
    addi    a1, a1, 4
5:  sll     a7, a7, a5              /* as an aligned load would have placed them */
    addi    sp, sp, -16
    sd      a0, 8(sp)
    addi    a2, a4, -64             /* last block start */
    bgtu    a1, a2, 7f
6:  ld      t0, 0(a1)
    ld      t1, 8(a1)
    ld      t2, 16(a1)
    ld      t3, 24(a1)
    ld      t4, 32(a1)
    ld      t5, 40(a1)
    ld      t6, 48(a1)
    ld      a0, 56(a1)
    srl     a7, a7, a5
    sll     a4, t0, a6
    or      a7, a7, a4
    sd      a7, 0(a3)
    srl     t0, t0, a5
    sll     a4, t1, a6
    or      t0, t0, a4
    sd      t0, 8(a3)
    srl     t1, t1, a5
    sll     a4, t2, a6
    or      t1, t1, a4
    sd      t1, 16(a3)
    srl     t2, t2, a5
    sll     a4, t3, a6
    or      t2, t2, a4
    sd      t2, 24(a3)
    srl     t3, t3, a5
    sll     a4, t4, a6
    or      t3, t3, a4
    sd      t3, 32(a3)
    srl     t4, t4, a5
    sll     a4, t5, a6
    or      t4, t4, a4
    sd      t4, 40(a3)
    srl     t5, t5, a5
    sll     a4, t6, a6
    or      t5, t5, a4
    sd      t5, 48(a3)
    srl     t6, t6, a5
    sll     a4, a0, a6
    or      t6, t6, a4
    sd      t6, 56(a3)
    mv      a7, a0
    addi    a1, a1, 64
    addi    a3, a3, 64
    bleu    a1, a2, 6b
7:  ld      a0, 8(sp)
    addi    sp, sp, 16
    addi    a4, a2, 64              /* source end again */
    addi    a2, a4, -8              /* last single-word start */
    bgtu    a1, a2, 9f
8:  ld      t0, 0(a1)
    srl     a7, a7, a5
    sll     t1, t0, a6
    or      a7, a7, t1
    sd      a7, 0(a3)
    mv      a7, t0
    addi    a1, a1, 8
    addi    a3, a3, 8
    bleu    a1, a2, 8b
9:  srl     a7, a7, a5              /* the 8-m pending bytes, low first */
    srli    t0, a5, 3
    li      t1, 8
    sub     t0, t1, t0              /* 8 - m */
    andi    t1, t0, 4
    beqz    t1, 1f
    sw      a7, 0(a3)
    srli    a7, a7, 32
    addi    a3, a3, 4
1:  andi    t1, t0, 2
    beqz    t1, 2f
    sh      a7, 0(a3)
    srli    a7, a7, 16
    addi    a3, a3, 2
2:  andi    t1, t0, 1
    beqz    t1, 3f
    sb      a7, 0(a3)
    addi    a3, a3, 1
3:  beq     a1, a4, 4f
    lbu     t1, 0(a1)
    sb      t1, 0(a3)
    addi    a1, a1, 1
    addi    a3, a3, 1
    j       3b
4:  ret
FC_END(fc_rv_shift_fwd)

FC_ENTRY(fc_rv_shift_bwd)
    add     a3, a0, a2              /* dst cursor, from the end */
    add     a4, a1, a2              /* src cursor, from the end */
1:  andi    t0, a3, 7
    beqz    t0, 2f
    addi    a3, a3, -1
    addi    a4, a4, -1
    lbu     t1, 0(a4)
    sb      t1, 0(a3)
    j       1b
2:  andi    t0, a4, 7
    slli    a5, t0, 3               /* sh = 8m */
    neg     a6, a5
    li      a7, 0                   /* prev: the m bytes below a4, gathered high-first */
    andi    t0, a4, 1
    beqz    t0, 3f
    addi    a4, a4, -1
    lbu     a7, 0(a4)
3:  andi    t0, a4, 2
    beqz    t0, 4f
    addi    a4, a4, -2
    lhu     t1, 0(a4)
    slli    a7, a7, 16
    or      a7, a7, t1
4:  andi    t0, a4, 4
    beqz    t0, 5f
    addi    a4, a4, -4
    lwu     t1, 0(a4)
    slli    a7, a7, 32
    or      a7, a7, t1
5:  addi    sp, sp, -16
    sd      a0, 8(sp)
    addi    a2, a1, 64              /* blocks while a4 >= src + 64 */
    bltu    a4, a2, 7f
6:  ld      a0, -8(a4)
    ld      t6, -16(a4)
    ld      t5, -24(a4)
    ld      t4, -32(a4)
    ld      t3, -40(a4)
    ld      t2, -48(a4)
    ld      t1, -56(a4)
    ld      t0, -64(a4)
    sll     a7, a7, a6
    srl     a1, a0, a5
    or      a7, a7, a1
    sd      a7, -8(a3)
    sll     a0, a0, a6
    srl     a1, t6, a5
    or      a0, a0, a1
    sd      a0, -16(a3)
    sll     t6, t6, a6
    srl     a1, t5, a5
    or      t6, t6, a1
    sd      t6, -24(a3)
    sll     t5, t5, a6
    srl     a1, t4, a5
    or      t5, t5, a1
    sd      t5, -32(a3)
    sll     t4, t4, a6
    srl     a1, t3, a5
    or      t4, t4, a1
    sd      t4, -40(a3)
    sll     t3, t3, a6
    srl     a1, t2, a5
    or      t3, t3, a1
    sd      t3, -48(a3)
    sll     t2, t2, a6
    srl     a1, t1, a5
    or      t2, t2, a1
    sd      t2, -56(a3)
    sll     t1, t1, a6
    srl     a1, t0, a5
    or      t1, t1, a1
    sd      t1, -64(a3)
    mv      a7, t0
    addi    a4, a4, -64
    addi    a3, a3, -64
    bgeu    a4, a2, 6b
7:  ld      a0, 8(sp)
    addi    sp, sp, 16
    addi    a1, a2, -64             /* source start again */
    addi    a2, a1, 8
    bltu    a4, a2, 9f
8:  ld      t0, -8(a4)
    sll     a7, a7, a6
    srl     t1, t0, a5
    or      a7, a7, t1
    sd      a7, -8(a3)
    mv      a7, t0
    addi    a4, a4, -8
    addi    a3, a3, -8
    bgeu    a4, a2, 8b
9:  sll     a7, a7, a6              /* the m pending bytes, at the top */
    srli    t0, a5, 3               /* m */
    andi    t1, t0, 4
    beqz    t1, 1f
    srli    t2, a7, 32
    sw      t2, -4(a3)
    slli    a7, a7, 32
    addi    a3, a3, -4
1:  andi    t1, t0, 2
    beqz    t1, 2f
    srli    t2, a7, 48
    sh      t2, -2(a3)
    slli    a7, a7, 16
    addi    a3, a3, -2
2:  andi    t1, t0, 1
    beqz    t1, 3f
    srli    t2, a7, 56
    sb      t2, -1(a3)
    addi    a3, a3, -1
3:  beq     a4, a1, 4f
    addi    a4, a4, -1
    addi    a3, a3, -1
    lbu     t1, 0(a4)
    sb      t1, 0(a3)
    j       3b
4:  ret
FC_END(fc_rv_shift_bwd)
