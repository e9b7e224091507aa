/* memset_word.S - fc_memset_rv_word: the "word" memset variant.
 *
 * Assumptions: rv64gc; misaligned stores may trap, so none is made.  Only the low
 * byte of c is used (memset converts c to unsigned char); n == 0 writes nothing.
 *
 *   n < 8    byte stores
 *   n >= 8   c replicated into a word (3 shift/or steps); head: 1-, 2-, 4-byte
 *            stores, naturally aligned, up to an 8-byte boundary; 256-byte blocks
 *            of 32 aligned sd (34 instructions per 256 bytes: 8192 stores is
 *            the floor for 64 KiB); a computed jump into a run of sd for the
 *            remaining whole words; tail: 4-, 2-, 1-byte stores.
 * fc_rv_memset_aligned is the same code entered with a3 = 8-aligned dst cursor,
 * a1 = replicated word, a2 = bytes left (memset_cboz.S reuses it). */
#include "asm.h"

    .option push
FC_ENTRY(fc_memset_rv_word)
    mv      a3, a0
    andi    a1, a1, 0xff
    sltiu   t0, a2, 8
    bnez    t0, .Lbytes
    slli    t0, a1, 8
    or      a1, a1, t0
    slli    t0, a1, 16
    or      a1, a1, t0
    slli    t0, a1, 32
    or      a1, a1, t0
    andi    t0, a3, 1
    beqz    t0, 1f
    sb      a1, 0(a3)
    addi    a3, a3, 1
    addi    a2, a2, -1
1:  andi    t0, a3, 2
    beqz    t0, 2f
    sh      a1, 0(a3)
    addi    a3, a3, 2
    addi    a2, a2, -2
2:  andi    t0, a3, 4
    beqz    t0, fc_rv_memset_aligned
    sw      a1, 0(a3)
    addi    a3, a3, 4
    addi    a2, a2, -4
    .globl  fc_rv_memset_aligned
    .hidden fc_rv_memset_aligned
fc_rv_memset_aligned:
    andi    t0, a2, -256
    beqz    t0, 4f
    add     t0, a3, t0
3:  .irp k, 0,8,16,24,32,40,48,56,64,72,80,88,96,104,112,120,128,136,144,152,160,168,176,184,192,200,208,216,224,232,240,248
    sd      a1, \k(a3)
    .endr
    addi    a3, a3, 256
    bltu    a3, t0, 3b
4:  andi    t0, a2, 248             /* whole words left (0..31), in bytes */
    add     a3, a3, t0              /* sd k runs at a3 - 8*(31-k) - 8 ... */
    srli    t0, t0, 1               /* 4 bytes of code per sd */
    lla     t1, 6f
    sub     t1, t1, t0
    jr      t1
    .option norvc
    .irp k, 248,240,232,224,216,208,200,192,184,176,168,160,152,144,136,128,120,112,104,96,88,80,72,64,56,48,40,32,24,16,8
    sd      a1, -\k(a3)
    .endr
6:  andi    t0, a2, 4
    beqz    t0, 7f
    sw      a1, 0(a3)
    addi    a3, a3, 4
7:  andi    t0, a2, 2
    beqz    t0, 8f
    sh      a1, 0(a3)
    addi    a3, a3, 2
8:  andi    t0, a2, 1
    beqz    t0, 9f
    sb      a1, 0(a3)
9:  ret
.Lbytes:
    beqz    a2, 9b
    sb      a1, 0(a3)
    addi    a3, a3, 1
    addi    a2, a2, -1
    j       .Lbytes
FC_END(fc_memset_rv_word)
    .option pop
