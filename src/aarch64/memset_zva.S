/* memset_zva.S - zeroing with DC ZVA, shared by the ldp_stp, simd and sve memsets.
 *
 * fc_a64_zero_zva(x0 = dst, x2 = n >= 64, x11 = block size Z): zeroes [dst, dst+n)
 * and returns dst in x0 (the memsets branch here as a tail call, so this returns
 * straight to memset's caller).  Uses only general registers (stp xzr), so it
 * runs on every variant's CPU.
 *
 * Assumptions: the caller checked that DC ZVA is allowed (DCZID_EL0.DZP clear) and
 * Z = 4 << DCZID_EL0.BS is a power of two from 64 to 2048; fc_tun.zva_size holds
 * it, read once at load (reading DCZID per call is slow on some cores).
 *
 * DC ZVA zeroes the whole Z-aligned block containing the address, whatever the
 * address's alignment, so it is only issued for blocks entirely inside the
 * buffer:
 *     dst          p (64-aligned)   a (Z-aligned)           e (Z-aligned)   end
 *     |--64 stp--|...stp 64s...|== DC ZVA per Z bytes ==|...stp 64s...|--64 stp--|
 * The first and the last 64 bytes are stored unaligned (n >= 64, so both lie
 * inside the buffer); 64-byte blocks of stp xzr fill up to a and from e; when no
 * whole block fits (n below ~2Z, only with a lowered FASTCOPY_ZVA_THRESHOLD),
 * everything is stores.  The cut-over size (fc_tun.zva_threshold) and its
 * reasoning are in policy.c.
 */
#include "asm.h"

#define dstin x0
#define count x2
#define p x3
#define end x5
#define a x6
#define e x7
#define lim x8
#define zsize x11
#define zmask x12

ENTRY(fc_a64_zero_zva)
    add     end, dstin, count
    stp     xzr, xzr, [dstin]
    stp     xzr, xzr, [dstin, 16]
    stp     xzr, xzr, [dstin, 32]
    stp     xzr, xzr, [dstin, 48]
    stp     xzr, xzr, [end, -64]
    stp     xzr, xzr, [end, -48]
    stp     xzr, xzr, [end, -32]
    stp     xzr, xzr, [end, -16]
    add     p, dstin, 64
    and     p, p, -64              /* dstin < p <= dstin + 64 */
    sub     zmask, zsize, 1
    add     a, p, zmask
    bic     a, a, zmask            /* first whole block */
    bic     e, end, zmask          /* end of the last whole block */
    cmp     a, e
    b.hs    .Lstores               /* no whole block inside the buffer */
    b       2f
1:  stp     xzr, xzr, [p]
    stp     xzr, xzr, [p, 16]
    stp     xzr, xzr, [p, 32]
    stp     xzr, xzr, [p, 48]
    add     p, p, 64
2:  cmp     p, a
    b.lo    1b
3:  dc      zva, p
    add     p, p, zsize
    cmp     p, e
    b.lo    3b
.Lstores:
    sub     lim, end, 64           /* [lim, end) is already zero */
    b       5f
4:  stp     xzr, xzr, [p]
    stp     xzr, xzr, [p, 16]
    stp     xzr, xzr, [p, 32]
    stp     xzr, xzr, [p, 48]
    add     p, p, 64
5:  cmp     p, lim
    b.lo    4b
    ret
END(fc_a64_zero_zva)

NOTE_GNU_STACK
