/* memmove_vec.h - the x86_64 vector memmove (= memcpy) template.  Each variant
 * file (memmove_sse2.c, memmove_avx2.c, memmove_erms.c) says why it exists,
 * takes its vector operations from vec_ops.h, and includes this.  "avx512" is the same
 * design in assembly (memmove_avx512.S).
 *
 * Design (after glibc's memmove-vec-unaligned-erms and ARM's memcpy; VS = vector
 * size in bytes):
 *   n <= VS      two overlapping loads of the largest power-of-two width <= n
 *                (16/8/4/2 bytes) or one byte
 *   n <= 2 VS    first and last vector
 *   n <= 4 VS    first two and last two vectors
 *   n <= 8 VS    first four and last four vectors
 *   larger       a loop of 4 vectors per iteration, aligned stores; the first vector
 *                and the last four are loaded before the loop and stored after it,
 *                so there is no remainder loop.  Forward when dst is not inside
 *                (src, src+n), backward otherwise, and backward too for copies
 *                below alias_backward_stop with dst 1..255 bytes after src
 *                modulo 4096 (4K aliasing).  Non-temporal stores from
 *                fc_tun.nt_start when the buffers do not overlap; "erms"
 *                adds rep movsb for [rep_movsb_start, rep_movsb_stop).
 * Every size class loads everything it needs before its first store, and the
 * loops store only over source bytes already loaded, so memcpy on overlapping
 * buffers gives memmove's result.  No access reaches outside the buffers.
 *
 * Required macros: FC_FN (function name) and vec_ops.h's VEC (type), VS, LOADU(p),
 * STOREU(p, v), STOREA(p, v), STREAM(p, v) (aligned non-temporal store).
 * Optional: FC_REP_MOVSB.
 */
#include <immintrin.h>
#include "../fc_internal.h"

typedef unsigned char fc_u8;
typedef uint64_t __attribute__((may_alias, aligned(1))) fc_u64u;
typedef uint32_t __attribute__((may_alias, aligned(1))) fc_u32u;
typedef uint16_t __attribute__((may_alias, aligned(1))) fc_u16u;

#define FC_CAT2(a, b) a##b
#define FC_CAT(a, b) FC_CAT2(a, b)
#define FC_LARGE FC_CAT(FC_FN, _large)

/* FC_LARGE_ONLY (memmove_avx2.c, memset_avx2.c): only this, as a hidden function
 * that an assembly kernel jumps to for its sizes above 256 bytes. */
#ifdef FC_LARGE_ONLY
FC_HIDDEN void *FC_LARGE(fc_u8 *d, const fc_u8 *s, size_t n);
FC_HIDDEN __attribute__((noinline)) void *FC_LARGE(fc_u8 *d, const fc_u8 *s, size_t n)
#else
static __attribute__((noinline)) void *FC_LARGE(fc_u8 *d, const fc_u8 *s, size_t n)
#endif
{
    fc_u8 *dst = d;
    uintptr_t diff = (uintptr_t)d - (uintptr_t)s;

    if (diff >= n) {
        /* Forward: dst before src, or disjoint. */
#ifdef FC_REP_MOVSB
        /* Not within 1..63 bytes either way modulo 4096: rep movsb's cliff there
         * (glibc bugs 27130, 30994), as in memmove_avx512.S.  Distance 0 stays
         * rep movsb's: the loop's 4K aliasing took 4-24 KiB copies to
         * 1.11-1.57x glibc's time (Golden Cove; docs/evidence/intel-emerald-rapids.md). */
        size_t dist = ((uintptr_t)d - (uintptr_t)s - 1) & 4095;  /* (dst - src - 1) mod 4096 */
        size_t rdist = ((uintptr_t)s - (uintptr_t)d - 1) & 4095;
        if (n >= fc_tun.rep_movsb_start && n < fc_tun.rep_movsb_stop && dist >= 63 &&
            rdist >= 63) {
            __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
            return dst;
        }
#endif
        /* 4K aliasing: dst 1..255 bytes after src modulo 4096 makes each forward
         * iteration's loads wait on the stores just made; go backward instead,
         * if src is not inside (dst, dst+n) and the copy is below
         * alias_backward_stop (see memmove_avx512.S and the x86 policy). */
        if (((diff - 1) & 4095) < 255 && n < fc_tun.alias_backward_stop && diff + n >= n)
            goto backward;
        int disjoint = (uintptr_t)s + n <= (uintptr_t)d || (uintptr_t)d + n <= (uintptr_t)s;
        /* The last four vectors after the loop when its stores cannot reach
         * them (src - dst >= 4 vectors, unsigned), so that the source is read
         * in address order to its end; before it otherwise (as in
         * memmove_avx512.S; docs/real-programs.md). */
        const fc_u8 *tail = s + n - 4 * VS;
        int late = (uintptr_t)s - (uintptr_t)d >= 4 * VS;
        VEC first = LOADU(s), t0, t1, t2, t3;
        if (!late) {
            t0 = LOADU(tail);
            t1 = LOADU(tail + VS);
            t2 = LOADU(tail + 2 * VS);
            t3 = LOADU(tail + 3 * VS);
        }
        fc_u8 *end = dst + n - 4 * VS;
        size_t skew = VS - ((uintptr_t)d & (VS - 1));
        d += skew;
        s += skew;
        if (n >= fc_tun.nt_start && disjoint) {
            /* Past the last-level cache: stream, sparing the read-for-ownership of
             * each destination line (23-24 GB/s vs 14 at 64 MiB, Zen 4). */
            for (; d < end; d += 4 * VS, s += 4 * VS) {
                VEC a = LOADU(s), b = LOADU(s + VS), c = LOADU(s + 2 * VS), e = LOADU(s + 3 * VS);
                STREAM(d, a);
                STREAM(d + VS, b);
                STREAM(d + 2 * VS, c);
                STREAM(d + 3 * VS, e);
            }
            _mm_sfence();
        } else {
            for (; d < end; d += 4 * VS, s += 4 * VS) {
                VEC a = LOADU(s), b = LOADU(s + VS), c = LOADU(s + 2 * VS), e = LOADU(s + 3 * VS);
                STOREA(d, a);
                STOREA(d + VS, b);
                STOREA(d + 2 * VS, c);
                STOREA(d + 3 * VS, e);
            }
        }
        if (late) {
            t0 = LOADU(tail);
            t1 = LOADU(tail + VS);
            t2 = LOADU(tail + 2 * VS);
            t3 = LOADU(tail + 3 * VS);
        }
        STOREU(end, t0);
        STOREU(end + VS, t1);
        STOREU(end + 2 * VS, t2);
        STOREU(end + 3 * VS, t3);
        STOREU(dst, first);
    } else {
        /* Backward: dst inside (src, src+n), or 4K-aliased as above.  Never rep
         * movsb (slow backwards everywhere) and never non-temporal. */
    backward:;
        VEC last = LOADU(s + n - VS);
        VEC h0 = LOADU(s), h1 = LOADU(s + VS), h2 = LOADU(s + 2 * VS), h3 = LOADU(s + 3 * VS);
        fc_u8 *de = d + n, *stop = d + 4 * VS;
        const fc_u8 *se = s + n;
        size_t skew = (uintptr_t)de & (VS - 1);
        de -= skew;
        se -= skew;
        for (; de > stop; de -= 4 * VS, se -= 4 * VS) {
            VEC a = LOADU(se - VS), b = LOADU(se - 2 * VS), c = LOADU(se - 3 * VS),
                e = LOADU(se - 4 * VS);
            STOREA(de - VS, a);
            STOREA(de - 2 * VS, b);
            STOREA(de - 3 * VS, c);
            STOREA(de - 4 * VS, e);
        }
        STOREU(d, h0);
        STOREU(d + VS, h1);
        STOREU(d + 2 * VS, h2);
        STOREU(d + 3 * VS, h3);
        STOREU(dst + n - VS, last);
    }
    return dst;
}

#ifndef FC_LARGE_ONLY
/* The small classes are tested in this order so that GCC lays them out with few
 * taken branches on the common sizes (16..32 B falls through, 33..64 B takes
 * one): sizes 0-64 0.94x the time of the order from the top (Sapphire
 * Rapids-class; docs/evidence/intel-emerald-rapids.md). */
void *FC_FN(void *dst, const void *src, size_t n)
{
    fc_u8 *d = dst;
    const fc_u8 *s = src;

    if (n <= 32) {
        if (__builtin_expect(n < 16, 0))
            goto tiny;
        __m128i a = _mm_loadu_si128((const __m128i *)s);
        __m128i b = _mm_loadu_si128((const __m128i *)(s + n - 16));
        _mm_storeu_si128((__m128i *)d, a);
        _mm_storeu_si128((__m128i *)(d + n - 16), b);
        return dst;
    }
#if VS >= 32
    if (__builtin_expect(n <= 2 * VS, 1)) {
        VEC a = LOADU(s), b = LOADU(s + n - VS);
        STOREU(d, a);
        STOREU(d + n - VS, b);
        return dst;
    }
#endif
    if (n <= 4 * VS) {
        VEC a = LOADU(s), b = LOADU(s + VS), c = LOADU(s + n - 2 * VS), e = LOADU(s + n - VS);
        STOREU(d, a);
        STOREU(d + VS, b);
        STOREU(d + n - 2 * VS, c);
        STOREU(d + n - VS, e);
        return dst;
    }
    if (n <= 8 * VS) {
        VEC a = LOADU(s), b = LOADU(s + VS), c = LOADU(s + 2 * VS), e = LOADU(s + 3 * VS);
        VEC f = LOADU(s + n - 4 * VS), g = LOADU(s + n - 3 * VS), h = LOADU(s + n - 2 * VS),
            i = LOADU(s + n - VS);
        STOREU(d, a);
        STOREU(d + VS, b);
        STOREU(d + 2 * VS, c);
        STOREU(d + 3 * VS, e);
        STOREU(d + n - 4 * VS, f);
        STOREU(d + n - 3 * VS, g);
        STOREU(d + n - 2 * VS, h);
        STOREU(d + n - VS, i);
        return dst;
    }
    return FC_LARGE(d, s, n);
tiny:
    if (n >= 8) {
        uint64_t a = *(const fc_u64u *)s, b = *(const fc_u64u *)(s + n - 8);
        *(fc_u64u *)d = a;
        *(fc_u64u *)(d + n - 8) = b;
    } else if (n >= 4) {
        uint32_t a = *(const fc_u32u *)s, b = *(const fc_u32u *)(s + n - 4);
        *(fc_u32u *)d = a;
        *(fc_u32u *)(d + n - 4) = b;
    } else if (n >= 2) {
        uint16_t a = *(const fc_u16u *)s, b = *(const fc_u16u *)(s + n - 2);
        *(fc_u16u *)d = a;
        *(fc_u16u *)(d + n - 2) = b;
    } else if (n == 1) {
        *d = *s;
    }
    return dst;
}
#endif
