/* memmove_mops.S - memcpy and memmove with FEAT_MOPS (Armv8.8 / 9.3).
 *
 * Assumptions: HWCAP2_MOPS (AT_HWCAP2 bit 43).  The prologue/main/epilogue
 * triple is the architected copy: the core chooses the algorithm (and may stop
 * and restart on interrupts with the registers updated), so this variant has no
 * size classes of its own.
 *
 * Direction: cpyfp/cpyfm/cpyfe copy forward only and are used when the buffers
 * do not overlap at all (neither start is inside the other buffer);
 * cpyp/cpym/cpye, which handle overlap in either direction, otherwise.  So memcpy
 * gets memmove's result on overlap and shares this entry.  n == 0 returns at once.
 * The instructions update their address and size registers, hence the copies of
 * x0 (returned) into x3.
 * QEMU 7.2 has no MOPS: this file is assembled and its selection policy-tested;
 * the variant test runs it only on a CPU that reports MOPS.
 */
#include "asm.h"

    .arch armv8.8-a+mops

ENTRY(fc_memmove_a64_mops)
    cbz     x2, 2f
    mov     x3, x0
    sub     x4, x0, x1             /* dst - src */
    cmp     x4, x2
    b.lo    1f                     /* dst inside [src, src+n) */
    sub     x4, x1, x0             /* src - dst */
    cmp     x4, x2
    b.lo    1f                     /* src inside (dst, dst+n) */
    cpyfp   [x3]!, [x1]!, x2!
    cpyfm   [x3]!, [x1]!, x2!
    cpyfe   [x3]!, [x1]!, x2!
    ret
1:  cpyp    [x3]!, [x1]!, x2!
    cpym    [x3]!, [x1]!, x2!
    cpye    [x3]!, [x1]!, x2!
2:  ret
END(fc_memmove_a64_mops)

/* memset: setp/setm/sete store the low byte of x1 (the unsigned char conversion). */
ENTRY(fc_memset_a64_mops)
    cbz     x2, 1f
    mov     x3, x0
    setp    [x3]!, x2!, x1
    setm    [x3]!, x2!, x1
    sete    [x3]!, x2!, x1
1:  ret
END(fc_memset_a64_mops)
