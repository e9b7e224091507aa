/* memset_simd.S - memset with Advanced SIMD stores (stp q).
 *
 * Assumptions: ARMv8-A with Advanced SIMD, unaligned accesses.  dup v0.16b, w1
 * takes the low byte of c, which is the conversion to unsigned char.
 *
 * Size classes (instruction counts under QEMU, entry to return, against glibc
 * 2.36's memset on Cortex-A53/A72/Neoverse N1 in parentheses; counts, not time):
 *   0..15     two overlapping d/s stores, or a byte and a halfword: 10-13 (11-15)
 *   16..64    first 16 bytes, then by bits 6 and 5 of n: the last 16, or 32 from
 *             each end, or n = 64 as 16 + 16 + 32: 11-13 (11-13)
 *   65..128   first and last 64 bytes: 13 (13 for 65..96, 20-21 above)
 *   129..192  first and last 96 bytes: 17 (21-29); 193..256 first and last 128
 *             bytes: 19.  192 bytes stored below 193, not 256: llvm-mca's Cortex-
 *             A57 model stores 8 bytes a cycle at any width, 129 bytes took 43
 *             cycles, now 35 (glibc 29; docs/aarch64.md).  Straight-line because the
 *             zero test and the DC ZVA threshold load (6 instructions) on the
 *             way to the loop made c = 0 cost 28 at 146..208 against glibc's 25.
 *   > 256     zero with n >= fc_tun.zva_start and DC ZVA usable: DC ZVA (a
 *             64-byte-block loop here, other block sizes in memset_zva.S; block
 *             size from DCZID_EL0 read once at load, never when DZP is set);
 *             otherwise 16-byte-aligned 128-byte blocks of 4 stp q, then the last
 *             128 bytes from the end.
 * Why the first compare is n > 64: the largest classes then reach their code after
 * 4 instructions (glibc's own order, n > 96 first, costs it 13 at 65..96); 0..64
 * pay 2 more than with 16/32/64 tests first (n = 64 would be 13 against glibc's 12
 * then, hence the bit tests).
 * The store loop: 6 instructions per 128 bytes (glibc: 4 per 64), so with its
 * 4-instruction set-up and 4-instruction tail it stays at or below glibc at every
 * size and dst alignment (the sweep of tools/insn-count checks that); 64 KiB of
 * 0x5a: ~3100 instructions (glibc ~4100).
 * The 64-byte DC ZVA loop: two blocks per iteration, 6 instructions per 128 bytes
 * (glibc: 4 per 64), entered at its second block for an odd number of blocks (a
 * block after the loop instead cost 1 more at 513..575 bytes, 52 against 51);
 * from 512 bytes (the policy's threshold) that keeps it at or below glibc's DC
 * ZVA path.
 */
#include "asm.h"

#define dstin x0
#define valw w1
#define count x2
#define dst x3
#define dstend x5
#define lim x6
#define e x7

ENTRY(fc_memset_a64_simd)
    dup     v0.16b, valw
    add     dstend, dstin, count
    cmp     count, 64
    b.hi    .Lgt64
    cmp     count, 16
    b.lo    .Llt16
    str     q0, [dstin]            /* 16..64 */
    tbnz    count, 6, .L64
    str     q0, [dstend, -16]
    tbz     count, 5, 1f
    str     q0, [dstin, 16]        /* 32..63 */
    str     q0, [dstend, -32]
1:  ret
.L64:
    str     q0, [dstin, 16]
    stp     q0, q0, [dstin, 32]
    ret

.Llt16:
    tbz     count, 3, 1f
    str     d0, [dstin]
    str     d0, [dstend, -8]
    ret
1:  tbz     count, 2, 2f
    str     s0, [dstin]
    str     s0, [dstend, -4]
    ret
2:  cbz     count, 3f
    str     b0, [dstin]
    tbz     count, 1, 3f
    str     h0, [dstend, -2]
3:  ret

.Lgt64:
    stp     q0, q0, [dstin]
    stp     q0, q0, [dstend, -32]
    /* n > 256 first: the loop and DC ZVA paths are then 2 instructions shorter
     * (512 bytes of zeros: 47 against glibc's 47 with the adrp of fc_tun, 49 with
     * n > 128 tested first),
     * and 65..128 still match glibc's 13 at 65..96. */
    cmp     count, 256
    b.hi    .Lgt256
    stp     q0, q0, [dstin, 32]    /* 65..128: first and last 64 bytes */
    stp     q0, q0, [dstend, -64]
    cmp     count, 128
    b.ls    3b
    stp     q0, q0, [dstin, 64]    /* 129..192: first and last 96 bytes */
    stp     q0, q0, [dstend, -96]
    cmp     count, 192
    b.ls    3b
    stp     q0, q0, [dstin, 96]    /* 193..256: first and last 128 bytes */
    stp     q0, q0, [dstend, -128]
    ret

.Lgt256:
    tst     valw, 255
    b.ne    .Lstores
    /* fc_tun's fields from one adrp (fc_tun never crosses a page:
     * fc_internal.h).  Not PC-relative literal loads, one instruction each but
     * +-1 MiB: a large static binary would not link. */
    adrp    x12, fc_tun
    ldr     x10, [x12, :lo12:fc_tun + FC_TUN_ZVA_START]
    cmp     count, x10
    b.lo    .Lstores
    ldr     x11, [x12, :lo12:fc_tun + FC_TUN_ZVA_SIZE]
    cmp     x11, 64
    b.eq    .Lzva64
    b       fc_a64_zero_zva_q      /* other block sizes; 0: all stores there */
.Lstores:
    bic     dst, dstin, 15         /* dst + 32 is in (dstin + 16, dstin + 32] */
    sub     lim, dstend, 160       /* a block at dst+32 is needed while dst+32 < end-128 */
    cmp     dst, lim
    b.hs    2f
1:  stp     q0, q0, [dst, 32]
    stp     q0, q0, [dst, 64]
    stp     q0, q0, [dst, 96]
    stp     q0, q0, [dst, 128]!
    cmp     dst, lim
    b.lo    1b
2:  stp     q0, q0, [dstend, -128]
    stp     q0, q0, [dstend, -96]
    stp     q0, q0, [dstend, -64]
    ret

.Lzva64:
    /* n > 128 (at least 512 unless FASTCOPY_ZVA_START lowers it; from 129
     * bytes on at least one whole block lies inside).  Stores reach the first
     * 64-byte boundary above dstin and cover the last 64 bytes; DC ZVA clears the
     * whole blocks between. */
    stp     q0, q0, [dstin, 32]    /* with the first 32: [dstin, dstin + 64) */
    stp     q0, q0, [dstend, -64]
    add     dst, dstin, 64
    bic     dst, dst, 63           /* first whole block, in (dstin, dstin + 64] */
    bic     e, dstend, 63          /* end of the last whole block */
    sub     lim, e, dst            /* bytes of whole blocks, >= 64 */
    tbnz    lim, 6, 2f             /* odd number of blocks: one first */
1:  dc      zva, dst
    add     dst, dst, 64
2:  dc      zva, dst
    add     dst, dst, 64
    cmp     dst, e
    b.lo    1b
    ret
END(fc_memset_a64_simd)
