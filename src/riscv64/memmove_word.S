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
 *   n < 32, src and dst 8-aligned:  a computed jump to slot n of 32 fixed-size
 *       slots: the 8-byte words and the 4/2/1-byte pieces of n, each naturally
 *       aligned, all loaded, then all stored.  <= 23 instructions.
 *   n < 16, or 16..17 with src != dst (mod 8):  a computed jump into an unrolled
 *       run of lbu/sb pairs, ascending, or descending when backward.
 *   src == dst (mod 8), otherwise ("word"):  1/2/4-byte naturally aligned pieces
 *       to the first 8-byte boundary; 64-byte blocks, the 8 loads of a block
 *       issued before its 8 stores (no read-after-write stall; overlap-safe in the
 *       copy's direction); a computed jump into ld/sd pairs for the remaining
 *       words; 4/2/1-byte pieces.  Backward is the mirror image from the ends.
 *       19 instructions per 64 bytes, the stores' base moved before the loads and
 *       the loads' after them: llvm-mca's SiFive U74 model takes 17 cycles per 64
 *       bytes so, 19 with both adds at the end (docs/riscv64.md).
 *   src != dst (mod 8), n >= 18 ("shift"):  a computed jump into a byte run
 *       until dst is 8-aligned (backward: until the dst end is); one of 7 slots
 *       (by m = src & 7) gathers the 8 - m bytes of src up to the next 8-byte
 *       boundary with at most three naturally aligned loads into "prev", shifted
 *       down already (p = w >> 8m, as an aligned load would give them); then
 *       aligned source words, each output word = p | (w << (64 - 8m)), p = w >> 8m:
 *       5 instructions per 8 bytes (ld, sll, or, sd, srl).  Up to 15 words go
 *       through a computed jump into a straight run of such stages (16 bytes each:
 *       the or and the sd compressed); more take a loop of 16 words (4 groups of
 *       4 loads then 4 stores, 83 instructions per 128 bytes) first.  The last
 *       bytes (those held in p and the partial last source word, 1..15) are
 *       copied again from the source with the byte run.  Backward mirrors it:
 *       the dst end aligned with bytes, the partial top source word gathered into
 *       p = w << (64 - 8m), out = (w >> 8m) | p, the bytes below the lowest
 *       aligned source word last.
 * Computed jumps use PC-relative addresses (auipc with %pcrel_lo: no relocation,
 * no table); .option norvc/norelax keep the jumped-over code at fixed sizes, and
 * the .error checks below fail the build if a run changes size.
 *
 * Why this shape (instruction counts under QEMU, tools/insn-count; not time):
 * the goal is never more instructions than glibc 2.36 at any size, alignment or
 * overlap.  glibc's generic C copies head and tail bytes at 5 instructions each
 * and words at about 7 (forward) or 6 (backward, after 33 of fixed cost), so
 * for src != dst (mod 8) its cheapest calls are those with no head or tail
 * bytes.  Against those, the 5 per word here leaves the fixed cost (dispatch,
 * head jump, gather slot, run entry, tail jump: about 45) as the thing to keep
 * small: one computed jump per part instead of a branch per piece, no spill, no
 * per-word loop.  Every cell of the sweep (sizes 0..1100 and 2^k +-1 to 64 KiB,
 * src/dst offsets 8 x 8, disjoint, forward and backward overlap) is below
 * glibc's; the tightest are backward, n = 65 src+7 dst+0 (105 vs 107) and
 * n = 81 (115 vs 117); forward n = 33 src+0 dst+7 (84 vs 95).  Before, with a
 * branch per gathered piece and a 9-instruction backward word loop, the first
 * was 141, and 6812 copy cells were above glibc.  The 32 aligned slots make 16..31
 * aligned bytes 14..23 (were 35..47 through the co-aligned path); the 16-word
 * loop keeps 64 KiB src+1/dst+3 at 42554 (goal 43000: 16 words per branch).
 * The shift copy starts at 18 bytes, the byte run below: on the U74 model a
 * byte costs 2 cycles (a load and a store on its one memory pipe), and at 24
 * bytes src+1 the run took 85 cycles against the shift copy's 68 (glibc 58);
 * at 16..17 the shift copy is one instruction above glibc (docs/riscv64.md). */
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
/* slot n (0..31): words and pieces of n, all loads then all stores; 64 bytes each */
    .macro FC_SLOT n
    .balign 64
    .set    fc_w, (\n) & 24
    .if (\n) >= 8
    ld      t0, 0(a1)
    .endif
    .if (\n) >= 16
    ld      t4, 8(a1)
    .endif
    .if (\n) >= 24
    ld      t5, 16(a1)
    .endif
    .if (\n) & 4
    lwu     t1, fc_w(a1)
    .endif
    .if (\n) & 2
    lhu     t2, (fc_w + ((\n) & 4))(a1)
    .endif
    .if (\n) & 1
    lbu     t3, (fc_w + ((\n) & 6))(a1)
    .endif
    .if (\n) >= 8
    sd      t0, 0(a0)
    .endif
    .if (\n) >= 16
    sd      t4, 8(a0)
    .endif
    .if (\n) >= 24
    sd      t5, 16(a0)
    .endif
    .if (\n) & 4
    sw      t1, fc_w(a0)
    .endif
    .if (\n) & 2
    sh      t2, (fc_w + ((\n) & 4))(a0)
    .endif
    .if (\n) & 1
    sb      t3, (fc_w + ((\n) & 6))(a0)
    .endif
    ret
    .endm
    .balign 64
.Lslots:
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    FC_SLOT \n
    .endr

/* shift, forward: slot m (1..7, 64 bytes each) gathers the 8 - m bytes at a1
 * (a1 & 7 == m) into a2 = p, low byte first, sets the shift amounts a6 = 8m,
 * a7 = 64 - 8m and a1 to the next 8-byte boundary. */
    .macro FC_GATHER_FWD m
    .balign 64
    .if (\m) == 1
    lbu     a2, 0(a1)
    lhu     t1, 1(a1)
    lwu     t4, 3(a1)
    slli    t1, t1, 8
    slli    t4, t4, 24
    or      a2, a2, t1
    or      a2, a2, t4
    .elseif (\m) == 2
    lhu     a2, 0(a1)
    lwu     t1, 2(a1)
    slli    t1, t1, 16
    or      a2, a2, t1
    .elseif (\m) == 3
    lbu     a2, 0(a1)
    lwu     t1, 1(a1)
    slli    t1, t1, 8
    or      a2, a2, t1
    .elseif (\m) == 4
    lwu     a2, 0(a1)
    .elseif (\m) == 5
    lbu     a2, 0(a1)
    lhu     t1, 1(a1)
    slli    t1, t1, 8
    or      a2, a2, t1
    .elseif (\m) == 6
    lhu     a2, 0(a1)
    .else
    lbu     a2, 0(a1)
    .endif
    li      a6, 8 * (\m)
    li      a7, 64 - 8 * (\m)
    addi    a1, a1, 8 - (\m)
    j       .Lsf_run_setup
    .endm
    .balign 64
.Lgf_slots:                         /* slot m at .Lgf_slots + 64 (m - 1) */
    .irp m, 1,2,3,4,5,6,7
    FC_GATHER_FWD \m
    .endr

/* shift, backward: slot m (1..7) gathers the m bytes below a4 (a4 & 7 == m), the
 * low end of an aligned word, into a2 = p where an aligned load of that word
 * shifted left by 64 - 8m would put them; a4 down to that word's start. */
    .macro FC_GATHER_BWD m
    .balign 64
    .if (\m) == 1
    lbu     a2, -1(a4)
    slli    a2, a2, 56
    .elseif (\m) == 2
    lhu     a2, -2(a4)
    slli    a2, a2, 48
    .elseif (\m) == 3
    lhu     a2, -3(a4)
    lbu     t1, -1(a4)
    slli    a2, a2, 40
    slli    t1, t1, 56
    or      a2, a2, t1
    .elseif (\m) == 4
    lwu     a2, -4(a4)
    slli    a2, a2, 32
    .elseif (\m) == 5
    lwu     a2, -5(a4)
    lbu     t1, -1(a4)
    slli    a2, a2, 24
    slli    t1, t1, 56
    or      a2, a2, t1
    .elseif (\m) == 6
    lwu     a2, -6(a4)
    lhu     t1, -2(a4)
    slli    a2, a2, 16
    slli    t1, t1, 48
    or      a2, a2, t1
    .else
    lwu     a2, -7(a4)
    lhu     t1, -3(a4)
    lbu     t4, -1(a4)
    slli    a2, a2, 8
    slli    t1, t1, 40
    slli    t4, t4, 56
    or      a2, a2, t1
    or      a2, a2, t4
    .endif
    li      a6, 8 * (\m)
    li      a7, 64 - 8 * (\m)
    addi    a4, a4, -(\m)
    j       .Lsb_run_setup
    .endm
    .balign 64
.Lgb_slots:
    .irp m, 1,2,3,4,5,6,7
    FC_GATHER_BWD \m
    .endr

/* shift heads (<= 7 bytes), returning through t6: ascending below a1/a3 ... */
    .irp k, 7,6,5,4,3,2,1
    lbu     t1, -\k(a1)
    sb      t1, -\k(a3)
    .endr
.Lhead_fwd_end:
    jr      t6
/* ... and descending from a4/a5 */
    .irp k, 6,5,4,3,2,1,0
    lbu     t1, \k(a4)
    sb      t1, \k(a5)
    .endr
.Lhead_bwd_end:
    jr      t6
    .option rvc

FC_ENTRY(fc_memmove_rv_word)
    sltiu   t1, a2, 32
    beqz    t1, .Lge32
    or      t0, a0, a1
    andi    t0, t0, 7
    bnez    t0, .Lsmall
    slli    t2, a2, 6               /* both 8-aligned: slot n */
0:  auipc   t3, %pcrel_hi(.Lslots)
    add     t3, t3, t2
    jalr    zero, %pcrel_lo(0b)(t3)
.Lsmall:                            /* n < 32, not both 8-aligned */
    sltiu   t1, a2, 16
    bnez    t1, .Lbytes
    xor     t1, a0, a1
    andi    t1, t1, 7
    beqz    t1, .Lco                /* co-aligned, 16..31 bytes */
    sltiu   t1, a2, 18
    beqz    t1, .Lrelmis            /* 18..31 bytes, src != dst (mod 8): shift */

/* ---- byte runs (n <= 15): descending unless dst is just below src ---------- */
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
2:  auipc   t3, %pcrel_hi(.Lasc_end)
    sub     t3, t3, t2
    jalr    zero, %pcrel_lo(2b)(t3)

/* ---- n >= 32 -------------------------------------------------------------- */
.Lge32:
    xor     t1, a0, a1
    andi    t1, t1, 7
    bnez    t1, .Lrelmis
.Lco:
    sub     t0, a0, a1
    beqz    t0, .Lret               /* same buffer */
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
    addi    a3, a3, 64              /* the stores' base, early */
    ld      t2, 8(a1)
    ld      t3, 16(a1)
    ld      t4, 24(a1)
    ld      t5, 32(a1)
    ld      t6, 40(a1)
    ld      a4, 48(a1)
    ld      a5, 56(a1)
    addi    a1, a1, 64
    sd      t1, -64(a3)
    sd      t2, -56(a3)
    sd      t3, -48(a3)
    sd      t4, -40(a3)
    sd      t5, -32(a3)
    sd      t6, -24(a3)
    sd      a4, -16(a3)
    sd      a5, -8(a3)
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
    addi    a3, a3, -64             /* the stores' base, early */
    ld      t2, -16(a4)
    ld      t3, -24(a4)
    ld      t4, -32(a4)
    ld      t5, -40(a4)
    ld      t6, -48(a4)
    ld      a5, -56(a4)
    ld      a6, -64(a4)
    addi    a4, a4, -64
    sd      t1, 56(a3)
    sd      t2, 48(a3)
    sd      t3, 40(a3)
    sd      t4, 32(a3)
    sd      t5, 24(a3)
    sd      t6, 16(a3)
    sd      a5, 8(a3)
    sd      a6, 0(a3)
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

/* ---- src != dst (mod 8), n >= 18 ------------------------------------------- */
.Lrelmis:
    sub     t0, a0, a1
    bltu    t0, a2, .Lshift_bwd

/* shift, forward.  a4/a5 src/dst ends; a1/a3 src/dst cursors. */
    add     a4, a1, a2
    add     a5, a0, a2
    neg     t2, a0
    andi    t2, t2, 7               /* head bytes to align dst */
    add     a1, a1, t2
    add     a3, a0, t2
    beqz    t2, 1f
    slli    t2, t2, 3
2:  auipc   t3, %pcrel_hi(.Lhead_fwd_end)
    sub     t3, t3, t2
    jalr    t6, %pcrel_lo(2b)(t3)
1:  andi    t0, a1, 7               /* m: 1..7 */
    slli    t0, t0, 6
3:  auipc   t3, %pcrel_hi(.Lgf_slots - 64)
    add     t3, t3, t0
    jalr    zero, %pcrel_lo(3b)(t3)
/* a1 = the first whole aligned source word, a3 = dst (aligned), a2 = p.  The run
 * below holds 15 stages; its bases t3 = Ss and a3 = Dd sit 15 words below the
 * ends of the source words and of their output, so stage i uses offset 8i. */
.Lsf_run_setup:
    andi    t3, a4, -8
    addi    t3, t3, -120            /* Ss = (src end & -8) - 8 * 15 */
    sub     t0, t3, a1              /* 8K - 120, K = whole source words left */
    bgtz    t0, .Lsf_blocks         /* K >= 16 */
.Lsf_run_go:
    add     a3, a3, t0              /* Dd = dst + 8K - 120 */
    slli    t0, t0, 1               /* -16 (15 - K): 16 bytes per stage */
4:  auipc   t1, %pcrel_hi(.Lsf_run)
    sub     t1, t1, t0
    jalr    zero, %pcrel_lo(4b)(t1)
.Lsf_blocks:                        /* 16 words per loop, then the run */
    addi    t1, t0, 120
    andi    t1, t1, -128
    add     t0, a1, t1              /* source position after the blocks */
5:
    .irp g, 0,32,64,96
    ld      t2, \g+0(a1)
    ld      t4, \g+8(a1)
    ld      t5, \g+16(a1)
    ld      t6, \g+24(a1)
    sll     t1, t2, a7
    or      t1, t1, a2
    sd      t1, \g+0(a3)
    srl     a2, t2, a6
    sll     t1, t4, a7
    or      t1, t1, a2
    sd      t1, \g+8(a3)
    srl     a2, t4, a6
    sll     t1, t5, a7
    or      t1, t1, a2
    sd      t1, \g+16(a3)
    srl     a2, t5, a6
    sll     t1, t6, a7
    or      t1, t1, a2
    sd      t1, \g+24(a3)
    srl     a2, t6, a6
    .endr
    addi    a1, a1, 128
    addi    a3, a3, 128
    bltu    a1, t0, 5b
    sub     t0, t3, a1              /* 8K - 120, K <= 15 now */
    j       .Lsf_run_go
/* the run: stage i loads source word Ss + 8i, stores Dd + 8i */
.Lsf_run:
    .irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14
    ld      t2, 8 * \i(t3)
    sll     a1, t2, a7
    c.or    a1, a2
    c.sd    a1, 8 * \i(a3)
    srl     a2, t2, a6
    .endr
.Lsf_run_end:
    .if .Lsf_run_end - .Lsf_run != 16 * 15
    .error "memmove_word.S: a forward shift stage is not 16 bytes"
    .endif
    andi    t2, a4, 7               /* the last bytes again from the source: */
    slli    t2, t2, 3
    add     t2, t2, a7              /* 8 ((src end & 7) + 8 - m) */
6:  auipc   t3, %pcrel_hi(.Lasc_end)
    sub     t3, t3, t2
    jalr    zero, %pcrel_lo(6b)(t3)

/* shift, backward.  a4/a5 walk down from the src/dst ends; a1/a0 stay. */
.Lshift_bwd:
    add     a4, a1, a2
    add     a5, a0, a2
    andi    t2, a5, 7               /* top bytes to align the dst end */
    sub     a4, a4, t2
    sub     a5, a5, t2
    beqz    t2, 1f
    slli    t2, t2, 3
2:  auipc   t3, %pcrel_hi(.Lhead_bwd_end)
    sub     t3, t3, t2
    jalr    t6, %pcrel_lo(2b)(t3)
1:  andi    t0, a4, 7               /* m: 1..7 */
    slli    t0, t0, 6
3:  auipc   t3, %pcrel_hi(.Lgb_slots - 64)
    add     t3, t3, t0
    jalr    zero, %pcrel_lo(3b)(t3)
/* a4 = the top of the whole aligned source words, a5 = dst end (aligned), a2 = p.
 * The run's bases t3 = B (the lowest whole source word) and a5 = Db (its output
 * word) are K-independent: stage i uses offset 8 (14 - i). */
.Lsb_run_setup:
    addi    t3, a1, 7
    andi    t3, t3, -8              /* B */
    sub     t0, a4, t3              /* 8K */
    addi    t1, t0, -128
    bgez    t1, .Lsb_blocks         /* K >= 16 */
.Lsb_run_go:
    sub     a5, a5, t0              /* Db */
    slli    t0, t0, 1
4:  auipc   t1, %pcrel_hi(.Lsb_run_end)
    sub     t1, t1, t0
    jalr    zero, %pcrel_lo(4b)(t1)
.Lsb_blocks:
    andi    t1, t0, -128
    sub     t0, a4, t1              /* source position after the blocks */
5:
    .irp g, 0,32,64,96
    ld      t2, -\g-8(a4)
    ld      t4, -\g-16(a4)
    ld      t5, -\g-24(a4)
    ld      t6, -\g-32(a4)
    srl     t1, t2, a6
    or      t1, t1, a2
    sd      t1, -\g-8(a5)
    sll     a2, t2, a7
    srl     t1, t4, a6
    or      t1, t1, a2
    sd      t1, -\g-16(a5)
    sll     a2, t4, a7
    srl     t1, t5, a6
    or      t1, t1, a2
    sd      t1, -\g-24(a5)
    sll     a2, t5, a7
    srl     t1, t6, a6
    or      t1, t1, a2
    sd      t1, -\g-32(a5)
    sll     a2, t6, a7
    .endr
    addi    a4, a4, -128
    addi    a5, a5, -128
    bgtu    a4, t0, 5b
    sub     t0, a4, t3              /* 8K, K <= 15 now */
    j       .Lsb_run_go
.Lsb_run:
    .irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14
    ld      t2, 8 * (14 - \i)(t3)
    srl     a3, t2, a6
    c.or    a3, a2
    c.sd    a3, 8 * (14 - \i)(a5)
    sll     a2, t2, a7
    .endr
.Lsb_run_end:
    .if .Lsb_run_end - .Lsb_run != 16 * 15
    .error "memmove_word.S: a backward shift stage is not 16 bytes"
    .endif
    sub     t2, t3, a1              /* the first bytes again from the source: */
    slli    t2, t2, 3
    add     t2, t2, a6              /* 8 ((B - src) + m) */
7:  auipc   t3, %pcrel_hi(.Ldesc_end)
    sub     t3, t3, t2
    jalr    zero, %pcrel_lo(7b)(t3)
FC_END(fc_memmove_rv_word)
    .option pop
