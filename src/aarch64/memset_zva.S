/* memset_zva.S - zeroing with DC ZVA, shared by the ldp_stp, simd and sve memsets.
 *
 *   fc_a64_zero_zva    stores with stp xzr (any CPU: ldp_stp's)
 *   fc_a64_zero_zva_q  stores with stp q0, q0; v0 must be zero (simd's for blocks
 *                      other than 64 bytes, and sve's for blocks over 8 vectors,
 *                      whose v0/z0 holds the replicated byte, 0 here; sve zeroes
 *                      smaller blocks itself, with vector stores at the ends)
 * Arguments: x0 = dst, x2 = n >= 64, x11 = block size Z.  Zeroes [dst, dst+n),
 * returns dst in x0.  The memsets branch here as a tail call, so this returns
 * straight to memset's caller.
 *
 * Assumptions: the caller checked that DC ZVA is allowed (DCZID_EL0.DZP clear)
 * and Z = 4 << DCZID_EL0.BS is a power of two from 64 to 2048; fc_tun.zva_size
 * holds it, read once at load (reading DCZID per call is slow on some cores).
 *
 * DC ZVA zeroes the whole Z-aligned block containing the address, whatever the
 * address's alignment, so it is only issued for blocks entirely inside the
 * buffer:
 *   dst    p = dst rounded up to 64   a = dst rounded up to Z      e        end
 *   |-64 stores-|..64-byte stores..|=== DC ZVA, Z bytes each ===|..64s..|-64-|
 * The first and the last 64 bytes are stored unaligned (n >= 64, so both lie
 * inside the buffer); 64-byte stores fill [p, a) and [e, end-64) where those are
 * longer than what the first/last stores cover (only for Z > 64: the common
 * 64-byte case skips both loops); when no whole block fits (n below ~2Z, only
 * with a lowered FASTCOPY_ZVA_START) or Z is 0, all of it is stores.  The DC ZVA loop issues 4 blocks per iteration (2.5 instructions
 * per block: at 64-byte blocks that is 2560 per 64 KiB where a loop of one block
 * per iteration costs 4096) and finishes the 0..3 remaining blocks one at a time.
 * The cut-over size (fc_tun.zva_start) and its reasoning are in policy.c.
 */
#include "asm.h"

#define dstin x0
#define count x2
#define p x3
#define end x5
#define a x6
#define e x7
#define lim x8
#define rem x9
#define zsize x11
#define zmask x12

.macro STORE64_X base, off
    stp     xzr, xzr, [\base, \off]
    stp     xzr, xzr, [\base, \off + 16]
    stp     xzr, xzr, [\base, \off + 32]
    stp     xzr, xzr, [\base, \off + 48]
.endm

.macro STORE64_Q base, off
    stp     q0, q0, [\base, \off]
    stp     q0, q0, [\base, \off + 32]
.endm

.macro ZERO_ZVA store
    add     end, dstin, count
    sub     zmask, zsize, 1
    add     a, dstin, zmask
    bic     a, a, zmask            /* first whole block */
    bic     e, end, zmask          /* end of the last whole block */
    \store  dstin, 0
    \store  end, -64
    cmp     a, e                   /* Z = 0 gives a = e = 0: stores only */
    b.hs    .Lno_blocks\@
    add     p, dstin, 64
    cmp     a, p
    b.hi    .Lhead\@               /* [dstin+64, a) needs stores (Z > 64) */
    mov     p, a
.Lzva\@:
    sub     rem, e, p              /* bytes of whole blocks, a multiple of Z */
    subs    rem, rem, zsize, lsl 2
    b.lt    2f
1:  dc      zva, p
    add     p, p, zsize
    dc      zva, p
    add     p, p, zsize
    dc      zva, p
    add     p, p, zsize
    dc      zva, p
    add     p, p, zsize
    subs    rem, rem, zsize, lsl 2
    b.ge    1b
2:  adds    rem, rem, zsize, lsl 2 /* 0..3 blocks left */
    b.eq    4f
3:  dc      zva, p
    add     p, p, zsize
    subs    rem, rem, zsize
    b.ne    3b
4:  sub     lim, end, 64           /* [lim, end) is already zero */
    cmp     p, lim
    b.lo    .Ltail\@
    ret
.Lhead\@:
    and     p, p, -64              /* [dstin, p) is inside the first 64 bytes */
5:  \store  p, 0
    add     p, p, 64
    cmp     p, a
    b.lo    5b
    b       .Lzva\@
.Lno_blocks\@:
    add     p, dstin, 64
    and     p, p, -64
    sub     lim, end, 64
    cmp     p, lim
    b.hs    6f
.Ltail\@:
    \store  p, 0
    add     p, p, 64
    cmp     p, lim
    b.lo    .Ltail\@
6:  ret
.endm

ENTRY(fc_a64_zero_zva)
    ZERO_ZVA STORE64_X
END(fc_a64_zero_zva)

ENTRY(fc_a64_zero_zva_q)
    ZERO_ZVA STORE64_Q
END(fc_a64_zero_zva_q)
