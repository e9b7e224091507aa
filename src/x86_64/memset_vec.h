/* memset_vec.h - the x86_64 vector memset template (memset_sse2.c, memset_avx2.c
 * and memset_erms.c include it; "avx512" is its own design in assembly,
 * memset_avx512.S).
 *   n <= VS      two overlapping stores of the largest power-of-two width <= n
 *   n <= 2 VS    first and last vector; n <= 4 VS: two from each end; n <= 8 VS:
 *                four from each end
 *   larger       first vector unaligned, then 4 aligned vectors per iteration, the
 *                last 4 vectors stored from the end (no remainder loop);
 *                non-temporal from fc_tun.nt_start; "erms" uses rep stosb in
 *                [rep_stosb_start, rep_stosb_stop) and [rep_stosb_high_start,
 *                nt_start).
 * Required macros: FC_FN and vec_ops.h's VEC, VS, SPLAT(c), STOREU, STOREA, STREAM; optional
 * FC_REP_STOSB. */
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
FC_HIDDEN void *FC_LARGE(fc_u8 *d, int c, size_t n);
FC_HIDDEN __attribute__((noinline)) void *FC_LARGE(fc_u8 *d, int c, size_t n)
#else
static __attribute__((noinline)) void *FC_LARGE(fc_u8 *d, int c, size_t n)
#endif
{
    fc_u8 *dst = d;
#ifdef FC_REP_STOSB
    if (n < fc_tun.nt_start && ((n >= fc_tun.rep_stosb_start &&
                                     n < fc_tun.rep_stosb_stop) ||
                                    n >= fc_tun.rep_stosb_high_start)) {
        __asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
        return dst;
    }
#endif
    VEC v = SPLAT(c);
    fc_u8 *end = d + n - 4 * VS;
    STOREU(d, v);
    d += VS - ((uintptr_t)d & (VS - 1));
    if (n >= fc_tun.nt_start) {
        for (; d < end; d += 4 * VS) {
            STREAM(d, v);
            STREAM(d + VS, v);
            STREAM(d + 2 * VS, v);
            STREAM(d + 3 * VS, v);
        }
        _mm_sfence();
    } else {
        for (; d < end; d += 4 * VS) {
            STOREA(d, v);
            STOREA(d + VS, v);
            STOREA(d + 2 * VS, v);
            STOREA(d + 3 * VS, v);
        }
    }
    STOREU(end, v);
    STOREU(end + VS, v);
    STOREU(end + 2 * VS, v);
    STOREU(end + 3 * VS, v);
    return dst;
}

#ifndef FC_LARGE_ONLY
/* The small classes are tested in this order so that GCC lays them out with few
 * taken branches (16..32 B none, 33..64 and 129..256 one): sizes 0-64 0.94x the
 * time of the order from the top (Sapphire Rapids-class;
 * docs/evidence/intel-emerald-rapids.md).  memmove_vec.h tests 32 first: there
 * this order cost the 4096-call mixes 8-10%. */
void *FC_FN(void *dst, int c, size_t n)
{
    fc_u8 *d = dst;

    if (n <= 64) {
        if (n <= 32) {
            if (__builtin_expect(n < 16, 0))
                goto tiny;
            __m128i x = _mm_set1_epi8((char)c);
            _mm_storeu_si128((__m128i *)d, x);
            _mm_storeu_si128((__m128i *)(d + n - 16), x);
            return dst;
        }
        VEC v = SPLAT(c);
        STOREU(d, v);
#if VS < 32
        STOREU(d + VS, v);
        STOREU(d + n - 2 * VS, v);
#endif
        STOREU(d + n - VS, v);
        return dst;
    }
    if (n <= 4 * VS) {
        VEC v = SPLAT(c);
        STOREU(d, v);
        STOREU(d + VS, v);
        STOREU(d + n - 2 * VS, v);
        STOREU(d + n - VS, v);
        return dst;
    }
    if (n <= 8 * VS) {
        /* Straight-line, as memmove_vec.h: the fleet's memsets of 129-256 bytes
         * (GoogleD: half its calls) paid the loop's call and setup.  avx2 against
         * glibc's own AVX2 memset, GoogleD: 0.88x with the loop, 0.96x with this
         * (Zen 5; docs/evidence/zen5.md); other mixes unchanged. */
        VEC v = SPLAT(c);
        STOREU(d, v);
        STOREU(d + VS, v);
        STOREU(d + 2 * VS, v);
        STOREU(d + 3 * VS, v);
        STOREU(d + n - 4 * VS, v);
        STOREU(d + n - 3 * VS, v);
        STOREU(d + n - 2 * VS, v);
        STOREU(d + n - VS, v);
        return dst;
    }
    return FC_LARGE(d, c, n);
tiny:;
    uint64_t w = (uint64_t)(fc_u8)c * 0x0101010101010101ull;
    if (n >= 8) {
        *(fc_u64u *)d = w;
        *(fc_u64u *)(d + n - 8) = w;
    } else if (n >= 4) {
        *(fc_u32u *)d = (uint32_t)w;
        *(fc_u32u *)(d + n - 4) = (uint32_t)w;
    } else if (n >= 2) {
        *(fc_u16u *)d = (uint16_t)w;
        *(fc_u16u *)(d + n - 2) = (uint16_t)w;
    } else if (n == 1) {
        *d = (fc_u8)c;
    }
    return dst;
}
#endif
