/* memset_word.S - fc_memset_rv_word: the "word" memset variant.
 *
 * Assumptions: rv64gc; a misaligned store may trap to firmware, so none is made.
 * Only the low byte of c is used (memset converts c to unsigned char); n == 0
 * writes nothing; nothing outside [dst, dst+n) is written.
 *
 *   n < 8     a computed jump into a run of sb (offsets from the end).
 *   n >= 8    c replicated into a word (mul by 0x0101..01: 4 instructions);
 *             dst not 8-aligned: one of 8 fixed slots (by dst & 7) stores the
 *             1/2/4-byte pieces up to the 8-byte boundary, each naturally aligned;
 *             then, dst aligned:
 *               <= 64 bytes left: slot n of 65 fixed slots, each the exact run of
 *                 sd and the 4/2/1-byte pieces of n (<= 11 stores, no branch):
 *                 25 instructions for 64 aligned bytes;
 *               more: 256-byte blocks of 32 sd (34 instructions per 256 bytes; 8192
 *                 stores is the floor for 64 KiB), 64-byte blocks, then a slot.
 * fc_rv_memset_aligned is the aligned part: a3 = 8-aligned cursor, a1 = the
 * replicated word, a2 = bytes left (memset_cboz.S ends there).
 * Computed jumps use PC-relative addresses (no relocation, no table); .option
 * norvc/norelax keep the slots at fixed sizes. */
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
    mv      a3, a0
    bnez    t1, .Lhead
    .globl  fc_rv_memset_aligned
    .hidden fc_rv_memset_aligned
fc_rv_memset_aligned:
    sltiu   t0, a2, 65
    beqz    t0, .Lgt64
.Lslot:
    lla     t1, .Lslots
    slli    t0, a2, 6
    add     t1, t1, t0
    jr      t1
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
2:  sltiu   t0, a2, 65
    bnez    t0, .Lslot
3:  .irp k, 0,8,16,24,32,40,48,56
    sd      a1, \k(a3)
    .endr
    addi    a3, a3, 64
    addi    a2, a2, -64
    sltiu   t0, a2, 65
    beqz    t0, 3b
    j       .Lslot

/* dst & 7 = j != 0: slot j stores the 8 - j head bytes; back with a3/a2 moved */
.Lhead:
    lla     t2, .Lheads
    slli    t0, t1, 4
    add     t2, t2, t0
    jalr    t6, t2
    addi    t1, t1, -8              /* -(8 - j) */
    sub     a3, a0, t1
    add     a2, a2, t1
    j       fc_rv_memset_aligned

.Lsmall:                            /* n < 8 */
    beqz    a2, .Lsmall_end
    add     a5, a0, a2
    slli    t0, a2, 2
    lla     t1, .Lsmall_end
    sub     t1, t1, t0
    jr      t1

    .option norvc
    .irp k, 7,6,5,4,3,2,1
    sb      a1, -\k(a5)
    .endr
.Lsmall_end:
    ret

/* head slots, 16 bytes each: j = 1..7 (slot 0 unused) */
    .macro FC_HEAD j
    .balign 16
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
    jr      t6
    .endm
    .balign 16
.Lheads:
    .irp j, 0,1,2,3,4,5,6,7
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
