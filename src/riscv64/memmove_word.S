/* memmove_word.S - fc_memmove_rv_word: the "word" memcpy/memmove variant.
 *
 * Assumptions: rv64gc; a misaligned load or store may trap to M-mode firmware and
 * cost hundreds of cycles (on the BeagleV, a copy that never makes one took TCP
 * receive from 686 to 904 Mbit/s), so this file never makes one.  memcpy ==
 * memmove (every path is overlap-safe), n == 0 touches nothing, no byte outside
 * [src, src+n) is read (the partial words at the ends are never loaded whole) and
 * none outside [dst, dst+n) written.
 *
 * Paths (D = dst - src; "backward" when 0 < D < n, i.e. dst inside the source):
 *   n < 16, src and dst 8-aligned:  a computed jump to slot n of 16 fixed-size
 *       slots: the 8/4/2/1-byte pieces of n (each naturally aligned at offsets
 *       0, n&8, n&12, n&14), all loaded, then all stored.  <= 19 instructions.
 *   n < 16, or n < 32 with src != dst (mod 8):  a computed jump into an unrolled
 *       run of lbu/sb pairs, ascending, or descending when backward.
 *   src == dst (mod 8), n >= 16 ("word"):  1/2/4-byte naturally aligned pieces to
 *       the first 8-byte boundary; 64-byte blocks, the 8 loads of a block issued
 *       before its 8 stores (no read-after-write stall; overlap-safe in the
 *       copy's direction); a computed jump into ld/sd pairs for the remaining
 *       words; 4/2/1-byte pieces.  Backward is the mirror image from the ends.
 *       19 instructions per 64 bytes.
 *   src != dst (mod 8), n >= 32 ("shift"):  bytes until dst is 8-aligned; the
 *       m = src & 7 bytes of src up to the next 8-byte boundary gathered with at
 *       most three naturally aligned loads into "prev", placed where an aligned
 *       load of that word would have put them; then aligned loads, each output
 *       word = (prev >> 8m) | (w << (64 - 8m)), prev = w: 5 instructions per 8
 *       bytes (ld, srl, sll, or, sd).  The block loop is unrolled twice with the
 *       registers' roles swapped (no register moves), 41.5 instructions per 64
 *       bytes; the last bytes (those held in prev and the partial last word) are
 *       copied again from the source with the byte run.  Backward mirrors it:
 *       out = (w >> 8m) | (prev << (64 - 8m)).
 * Computed jumps use PC-relative addresses (lla: no relocation, no table);
 * .option norvc/norelax keep the jumped-over code at fixed sizes. */
#include "asm.h"

    .option push
    .option norelax
/* Fixed-size code reached by computed jumps from fc_memmove_rv_word below (placed
 * first so the jumps' offsets are known when they are assembled). */
    .text
    .option norvc
/* ascending bytes, offsets from the ends a4/a5; entered 8n bytes before the end */
    .irp k, 31,30,29,28,27,26,25,24,23,22,21,20,19,18,17,16,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1
    lbu     t1, -\k(a4)
    sb      t1, -\k(a5)
    .endr
.Lasc_end:
    ret
/* descending bytes, offsets from the starts a1/a0 */
    .irp k, 30,29,28,27,26,25,24,23,22,21,20,19,18,17,16,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0
    lbu     t1, \k(a1)
    sb      t1, \k(a0)
    .endr
.Ldesc_end:
    ret
/* slot n (0..15): pieces of n, all loads then all stores; 64 bytes each */
    .macro FC_SLOT n
    .balign 64
    .if (\n) & 8
    ld      t0, 0(a1)
    .endif
    .if (\n) & 4
    lwu     t1, ((\n) & 8)(a1)
    .endif
    .if (\n) & 2
    lhu     t2, ((\n) & 12)(a1)
    .endif
    .if (\n) & 1
    lbu     t3, ((\n) & 14)(a1)
    .endif
    .if (\n) & 8
    sd      t0, 0(a0)
    .endif
    .if (\n) & 4
    sw      t1, ((\n) & 8)(a0)
    .endif
    .if (\n) & 2
    sh      t2, ((\n) & 12)(a0)
    .endif
    .if (\n) & 1
    sb      t3, ((\n) & 14)(a0)
    .endif
    ret
    .endm
    .balign 64
.Lslots:
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
    FC_SLOT \n
    .endr
    .option rvc

FC_ENTRY(fc_memmove_rv_word)
    sltiu   t1, a2, 16
    beqz    t1, .Lge16
    or      t0, a0, a1
    andi    t0, t0, 7
    bnez    t0, .Lbytes
    slli    t2, a2, 6               /* both 8-aligned: slot n */
0:  auipc   t3, %pcrel_hi(.Lslots)
    add     t3, t3, t2
    jalr    zero, %pcrel_lo(0b)(t3)

/* ---- byte runs (n <= 31): descending unless dst is just below src ---------- */
.Lbytes:
    sub     t0, a1, a0
    slli    t2, a2, 3
    bltu    t0, a2, .Lbytes_asc     /* 0 <= src - dst < n: ascending */
.Lbytes_desc:                       /* a1/a0 = src/dst starts, t2 = 8n */
1:  auipc   t3, %pcrel_hi(.Ldesc_end)
    sub     t3, t3, t2
    jalr    zero, %pcrel_lo(1b)(t3)
.Lbytes_asc:
    add     a4, a1, a2
    add     a5, a0, a2
.Lbytes_fwd:                        /* a4/a5 = src/dst ends, t2 = 8n */
2:  auipc   t3, %pcrel_hi(.Lasc_end)
    sub     t3, t3, t2
    jalr    zero, %pcrel_lo(2b)(t3)

/* ---- n >= 16 -------------------------------------------------------------- */
.Lge16:
    sub     t0, a0, a1
    beqz    t0, .Lret               /* same buffer */
    xor     t1, a0, a1
    andi    t1, t1, 7
    bnez    t1, .Lrelmis
    bltu    t0, a2, .Lco_bwd

/* co-aligned, forward */
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
5:  andi    t2, a2, 56              /* whole words left, in bytes */
    add     a1, a1, t2
    add     a3, a3, t2
    lla     t3, 6f
    sub     t3, t3, t2
    jr      t3
    .option norvc
    .irp k, 56,48,40,32,24,16,8
    ld      t1, -\k(a1)
    sd      t1, -\k(a3)
    .endr
    .option rvc
6:  andi    t1, a2, 4
    beqz    t1, 7f
    lwu     t2, 0(a1)
    sw      t2, 0(a3)
    addi    a1, a1, 4
    addi    a3, a3, 4
7:  andi    t1, a2, 2
    beqz    t1, 8f
    lhu     t2, 0(a1)
    sh      t2, 0(a3)
    addi    a1, a1, 2
    addi    a3, a3, 2
8:  andi    t1, a2, 1
    beqz    t1, .Lret
    lbu     t2, 0(a1)
    sb      t2, 0(a3)
.Lret:
    ret

/* co-aligned, backward: a4/a3 walk down from the ends */
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
5:  andi    t2, a2, 56
    sub     a4, a4, t2
    sub     a3, a3, t2
    lla     t3, 6f
    sub     t3, t3, t2
    jr      t3
    .option norvc
    .irp k, 48,40,32,24,16,8,0
    ld      t1, \k(a4)
    sd      t1, \k(a3)
    .endr
    .option rvc
6:  andi    t1, a2, 4
    beqz    t1, 7f
    addi    a4, a4, -4
    addi    a3, a3, -4
    lwu     t2, 0(a4)
    sw      t2, 0(a3)
7:  andi    t1, a2, 2
    beqz    t1, 8f
    addi    a4, a4, -2
    addi    a3, a3, -2
    lhu     t2, 0(a4)
    sh      t2, 0(a3)
8:  andi    t1, a2, 1
    beqz    t1, .Lret
    lbu     t2, -1(a4)
    sb      t2, -1(a3)
    ret

/* ---- src != dst (mod 8) ---------------------------------------------------- */
.Lrelmis:
    sltiu   t1, a2, 32
    bnez    t1, .Lbytes
    bltu    t0, a2, .Lshift_bwd

/* shift, forward.  a1/a3 src/dst cursors, a4 src end. */
    mv      a3, a0
    add     a4, a1, a2
    neg     t2, a0
    andi    t2, t2, 7               /* head bytes to align dst */
    beqz    t2, 1f
    add     a1, a1, t2
    add     a3, a3, t2
    slli    t2, t2, 3
    lla     t3, .Lhead_fwd_end
    sub     t3, t3, t2
    jalr    t6, t3
1:  andi    t0, a1, 7
    slli    a5, t0, 3               /* sh = 8m, 8..56 */
    neg     a6, a5                  /* 64 - sh, as a shift amount */
    li      a7, 0                   /* prev, gathered low-first */
    li      t2, 0                   /* bits gathered */
    andi    t0, a1, 1
    beqz    t0, 2f
    lbu     a7, 0(a1)
    addi    a1, a1, 1
    li      t2, 8
2:  andi    t0, a1, 2
    beqz    t0, 3f
    lhu     t1, 0(a1)
    sll     t1, t1, t2
    or      a7, a7, t1
    addi    a1, a1, 2
    addi    t2, t2, 16
3:  andi    t0, a1, 4
    beqz    t0, 4f
    lwu     t1, 0(a1)
    sll     t1, t1, t2
    or      a7, a7, t1
    addi    a1, a1, 4
4:  sll     a7, a7, a5              /* where an aligned load would put them */
    sub     t0, a4, a1
    srli    t0, t0, 6               /* whole 64-byte source blocks */
    beqz    t0, .Lsf_words
    addi    sp, sp, -16
    .cfi_adjust_cfa_offset 16
    sd      a0, 8(sp)
    sd      a4, 0(sp)
    andi    t1, t0, 1
    slli    t0, t0, 6
    add     a2, a1, t0              /* source position after the blocks */
    beqz    t1, .Lsf_A
    mv      a0, a7                  /* odd count: start with the B half */
    addi    a1, a1, -64
    addi    a3, a3, -64
    j       .Lsf_B
.Lsf_A:                             /* prev in a7; leaves prev in a0 */
    ld      t0, 0(a1)
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
.Lsf_B:                             /* prev in a0; leaves prev in a7 */
    ld      t0, 64(a1)
    ld      t1, 72(a1)
    ld      t2, 80(a1)
    ld      t3, 88(a1)
    ld      t4, 96(a1)
    ld      t5, 104(a1)
    ld      t6, 112(a1)
    ld      a7, 120(a1)
    srl     a0, a0, a5
    sll     a4, t0, a6
    or      a0, a0, a4
    sd      a0, 64(a3)
    srl     t0, t0, a5
    sll     a4, t1, a6
    or      t0, t0, a4
    sd      t0, 72(a3)
    srl     t1, t1, a5
    sll     a4, t2, a6
    or      t1, t1, a4
    sd      t1, 80(a3)
    srl     t2, t2, a5
    sll     a4, t3, a6
    or      t2, t2, a4
    sd      t2, 88(a3)
    srl     t3, t3, a5
    sll     a4, t4, a6
    or      t3, t3, a4
    sd      t3, 96(a3)
    srl     t4, t4, a5
    sll     a4, t5, a6
    or      t4, t4, a4
    sd      t4, 104(a3)
    srl     t5, t5, a5
    sll     a4, t6, a6
    or      t5, t5, a4
    sd      t5, 112(a3)
    srl     t6, t6, a5
    sll     a4, a7, a6
    or      t6, t6, a4
    sd      t6, 120(a3)
    addi    a1, a1, 128
    addi    a3, a3, 128
    bltu    a1, a2, .Lsf_A
    ld      a0, 8(sp)
    ld      a4, 0(sp)
    addi    sp, sp, 16
    .cfi_adjust_cfa_offset -16
.Lsf_words:                         /* whole aligned source words left: 0..7 */
    sub     t2, a4, a1
    andi    t2, t2, 56
    add     a1, a1, t2
    add     a3, a3, t2
    slli    t0, t2, 1
    add     t0, t0, t2              /* 24 bytes of code per word */
    lla     t3, 5f
    sub     t3, t3, t0
    jr      t3
    .option norvc
    .irp k, 56,48,40,32,24,16,8
    ld      t0, -\k(a1)
    srl     a7, a7, a5
    sll     t1, t0, a6
    or      a7, a7, t1
    sd      a7, -\k(a3)
    mv      a7, t0
    .endr
    .option rvc
5:  srli    t0, a5, 3
    addi    t0, t0, -8              /* -(bytes held in prev) */
    add     t0, a1, t0              /* their source position */
    sub     t2, a4, t0              /* bytes left: < 16 */
    add     a5, a3, t2
    slli    t2, t2, 3
    j       .Lbytes_fwd

/* shift, backward.  a4/a3 src/dst cursors walking down. */
.Lshift_bwd:
    add     a3, a0, a2
    add     a4, a1, a2
    andi    t2, a3, 7               /* tail bytes to align the dst end */
    beqz    t2, 1f
    sub     a4, a4, t2
    sub     a3, a3, t2
    slli    t2, t2, 3
    lla     t3, .Lhead_bwd_end
    sub     t3, t3, t2
    jalr    t6, t3
1:  andi    t0, a4, 7
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
    .cfi_adjust_cfa_offset 16
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
    .cfi_adjust_cfa_offset -16
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
9:  srli    t0, a5, 3               /* m bytes held in prev: copied again */
    add     t2, a4, t0
    sub     t2, t2, a1              /* bytes left, from src/dst starts: < 16 */
    slli    t2, t2, 3
    j       .Lbytes_desc

/* ---- fixed-size code: the shift heads ---------------------------------- */
    .option norvc
/* shift heads (<= 7 bytes), returning through t6: ascending below a1/a3 ... */
    .irp k, 7,6,5,4,3,2,1
    lbu     t1, -\k(a1)
    sb      t1, -\k(a3)
    .endr
.Lhead_fwd_end:
    jr      t6
/* ... and descending from a4/a3 */
    .irp k, 6,5,4,3,2,1,0
    lbu     t1, \k(a4)
    sb      t1, \k(a3)
    .endr
.Lhead_bwd_end:
    jr      t6
FC_END(fc_memmove_rv_word)
    .option pop
