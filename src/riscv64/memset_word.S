/* memset_word.S - fc_memset_rv_word: the "word" memset variant.
 *
 * Assumptions: rv64gc; a misaligned store may trap to firmware, so none is made.
 * Only the low byte of c is used (memset converts c to unsigned char); n == 0
 * writes nothing; nothing outside [dst, dst+n) is written.
 *
 *   n < 8     a computed jump into a run of sb (offsets from dst).
 *   n >= 8    c replicated into a word (mul by 0x0101..01: 4 instructions);
 *             dst not 8-aligned: one of 7 fixed slots (by dst & 7) stores the
 *             1/2/4-byte pieces up to the 8-byte boundary, each naturally aligned,
 *             moves the cursor and count on and jumps to the aligned part;
 *             then, dst aligned:
 *               <= 64 bytes left: slot n of 65 fixed slots, each the exact run of
 *                 sd and the 4/2/1-byte pieces of n (<= 11 stores, no branch):
 *                 24 instructions for 64 aligned bytes;
 *               more: 256-byte blocks of 32 sd (34 instructions per 256 bytes; 8192
 *                 stores is the floor for 64 KiB); of the 65..255 bytes left,
 *                 (left - 1) & -64 through a computed jump into a run of 24 sd
 *                 (8 instructions of entry, 1 per word), then a slot.
 * fc_memset_rv_aligned is the aligned part: a3 = 8-aligned cursor, a1 = the
 * replicated word, a2 = bytes left (memset_cboz.S ends there).
 * Computed jumps use PC-relative addresses (auipc with %pcrel_lo: no relocation,
 * no table); .option norvc/norelax keep the slots at fixed sizes.
 *
 * Why (instruction counts under QEMU, tools/insn-count; not time): glibc 2.36's
 * generic memset takes 7 + 3n below 8 bytes, 4 per head byte, 10 per 64-byte
 * block and 3 per word or tail byte.  Its 1-byte call (10) and its one-byte
 * head before 64 or 128 bytes are the cells to beat: n = 1 takes 9 here (it was
 * 11: an end pointer and an addi the start-relative run and %pcrel_lo remove),
 * n = 66 at dst+7 42 vs 43 and n = 129 49 vs 50 (the head slot jumps straight
 * on, where it returned through a register and three instructions moved the
 * cursor: 4 more), 193 aligned 51 vs 57 (a loop of 64-byte blocks took 12 per
 * block against glibc's 10: 59).  Every cell of the sweep (sizes 0..1100 and
 * 2^k +-1 to 64 KiB, dst offsets 0..63, c = 0 and 0x5a) is below glibc's; 192
 * (of each value) were above. */
#include "asm.h"

    .option push
    .option norelax
FC_ENTRY(fc_memset_rv_word)
    sltiu   t0, a2, 8
    bnez    t0, .Lsmall
    andi    a1, a1, 0xff
    ld      t0, .Lones
    mul     a1, a1, t0
    andi    t1, a0, 7
    bnez    t1, .Lhead
    mv      a3, a0
    .globl  fc_memset_rv_aligned
    .hidden fc_memset_rv_aligned
fc_memset_rv_aligned:
    sltiu   t0, a2, 65
    beqz    t0, .Lgt64
.Lslot:
    slli    t0, a2, 6
0:  auipc   t1, %pcrel_hi(.Lslots)
    add     t1, t1, t0
    jalr    zero, %pcrel_lo(0b)(t1)
.Lgt64:
    andi    t0, a2, -256
    beqz    t0, 2f
    add     t0, a3, t0
1:  .irp k, 0,8,16,24,32,40,48,56,64,72,80,88,96,104,112,120,128,136,144,152,160,168,176,184,192,200,208,216,224,232,240,248
    sd      a1, \k(a3)
    .endr
    addi    a3, a3, 256
    bltu    a3, t0, 1b
    andi    a2, a2, 255
    sltiu   t0, a2, 65
    bnez    t0, .Lslot
2:  addi    t0, a2, -1              /* 65..255 left: q = (left - 1) & -64 bytes */
    andi    t0, t0, -64             /* (64, 128 or 192) by a run of sd, */
    add     a3, a3, t0
    sub     a2, a2, t0              /* then slot 1..64 */
    srli    t1, t0, 1               /* 4 bytes of code per sd */
3:  auipc   t2, %pcrel_hi(.Lrun_end)
    sub     t2, t2, t1
    jalr    zero, %pcrel_lo(3b)(t2)
    .option norvc
    .irp k, 192,184,176,168,160,152,144,136,128,120,112,104,96,88,80,72,64,56,48,40,32,24,16,8
    sd      a1, -\k(a3)
    .endr
.Lrun_end:
    .option rvc
    slli    t0, a2, 6               /* .Lslot again, without a jump */
4:  auipc   t1, %pcrel_hi(.Lslots)
    add     t1, t1, t0
    jalr    zero, %pcrel_lo(4b)(t1)

/* dst & 7 = j != 0: slot j stores the 8 - j head bytes, moves a3/a2 on */
.Lhead:
    slli    t0, t1, 5
5:  auipc   t2, %pcrel_hi(.Lheads - 32)
    add     t2, t2, t0
    jalr    zero, %pcrel_lo(5b)(t2)

.Lsmall:                            /* n < 8: sb at offsets n-1 .. 0 */
    beqz    a2, .Lsmall_end
    slli    t0, a2, 2
6:  auipc   t1, %pcrel_hi(.Lsmall_end)
    sub     t1, t1, t0
    jalr    zero, %pcrel_lo(6b)(t1)
    .option norvc
    .irp k, 6,5,4,3,2,1,0
    sb      a1, \k(a0)
    .endr
.Lsmall_end:
    ret

/* head slots, 32 bytes each: j = 1..7 */
    .macro FC_HEAD j
    .balign 32
    .if (\j) == 1
    sb      a1, 0(a0)
    sh      a1, 1(a0)
    sw      a1, 3(a0)
    .elseif (\j) == 2
    sh      a1, 0(a0)
    sw      a1, 2(a0)
    .elseif (\j) == 3
    sb      a1, 0(a0)
    sw      a1, 1(a0)
    .elseif (\j) == 4
    sw      a1, 0(a0)
    .elseif (\j) == 5
    sb      a1, 0(a0)
    sh      a1, 1(a0)
    .elseif (\j) == 6
    sh      a1, 0(a0)
    .elseif (\j) == 7
    sb      a1, 0(a0)
    .endif
    addi    a3, a0, 8 - (\j)
    addi    a2, a2, (\j) - 8
    j       fc_memset_rv_aligned
    .endm
    .balign 32
.Lheads:
    .irp j, 1,2,3,4,5,6,7
    FC_HEAD \j
    .endr

/* slot n (0..64), 64 bytes each: n >> 3 sd, then the 4/2/1-byte pieces */
    .macro FC_SET_SLOT n
    .balign 64
    .set    fc_w, (\n) & ~7
    .set    fc_i, 0
    .rept   (\n) >> 3
    sd      a1, fc_i(a3)
    .set    fc_i, fc_i + 8
    .endr
    .if (\n) & 4
    sw      a1, fc_w(a3)
    .endif
    .if (\n) & 2
    sh      a1, (fc_w + ((\n) & 4))(a3)
    .endif
    .if (\n) & 1
    sb      a1, (fc_w + ((\n) & 6))(a3)
    .endif
    ret
    .endm
    .balign 64
.Lslots:
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32
    FC_SET_SLOT \n
    .endr
    .irp n, 33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64
    FC_SET_SLOT \n
    .endr
    .balign 8
.Lones:
    .dword  0x0101010101010101
FC_END(fc_memset_rv_word)
    .option pop
