/* generic.c - portable C memmove/memcpy/memset: the fallback on every architecture
 * without variants of its own, and the "generic" variant everywhere.
 *
 * Word-at-a-time through may_alias/aligned(1) types: on CPUs with cheap
 * misaligned access GCC emits plain 8-byte loads/stores; on strict-alignment
 * targets it emits what the target needs, so no access is ever misaligned in a way
 * the target forbids.  No access reaches outside the buffers: sizes that do not
 * fill a block are handled by overlapping first/last words, loaded before any
 * store, so every size class is overlap-safe and memcpy == memmove.
 *
 *   n <= 16   two overlapping words of 8/4/2 bytes (or one byte)
 *   n <= 32   four words: first 16 and last 16 bytes
 *   n >  32   32-byte blocks away from the overlap, the block at the far end
 *             loaded before the loop and stored after it (no remainder loop)
 */
#include "fc_internal.h"

typedef uint64_t __attribute__((may_alias, aligned(1))) u64u;
typedef uint32_t __attribute__((may_alias, aligned(1))) u32u;
typedef uint16_t __attribute__((may_alias, aligned(1))) u16u;
typedef unsigned char u8;

#define LD64(p) (*(const u64u *)(p))
#define ST64(p, v) (*(u64u *)(p) = (v))

void *fc_memmove_generic(void *dst, const void *src, size_t n)
{
    u8 *d = dst;
    const u8 *s = src;

    if (n <= 16) {
        if (n >= 8) {
            uint64_t a = LD64(s), b = LD64(s + n - 8);
            ST64(d, a);
            ST64(d + n - 8, b);
        } else if (n >= 4) {
            uint32_t a = *(const u32u *)s, b = *(const u32u *)(s + n - 4);
            *(u32u *)d = a;
            *(u32u *)(d + n - 4) = b;
        } else if (n >= 2) {
            uint16_t a = *(const u16u *)s, b = *(const u16u *)(s + n - 2);
            *(u16u *)d = a;
            *(u16u *)(d + n - 2) = b;
        } else if (n == 1) {
            *d = *s;
        }
        return dst;
    }
    if (n <= 32) {
        uint64_t a = LD64(s), b = LD64(s + 8), c = LD64(s + n - 16), e = LD64(s + n - 8);
        ST64(d, a);
        ST64(d + 8, b);
        ST64(d + n - 16, c);
        ST64(d + n - 8, e);
        return dst;
    }
    if ((uintptr_t)d - (uintptr_t)s >= n) {
        /* dst before src, or no overlap: forward.  Stores only reach source bytes
         * that were already loaded; the last block was loaded up front. */
        uint64_t t0 = LD64(s + n - 32), t1 = LD64(s + n - 24), t2 = LD64(s + n - 16),
                 t3 = LD64(s + n - 8);
        u8 *end = d + n - 32;
        while (d < end) {
            uint64_t a = LD64(s), b = LD64(s + 8), c = LD64(s + 16), e = LD64(s + 24);
            ST64(d, a);
            ST64(d + 8, b);
            ST64(d + 16, c);
            ST64(d + 24, e);
            d += 32;
            s += 32;
        }
        ST64(end, t0);
        ST64(end + 8, t1);
        ST64(end + 16, t2);
        ST64(end + 24, t3);
    } else {
        /* dst inside (src, src+n): backward, the first block loaded up front. */
        uint64_t h0 = LD64(s), h1 = LD64(s + 8), h2 = LD64(s + 16), h3 = LD64(s + 24);
        u8 *de = d + n;
        const u8 *se = s + n;
        while (de > d + 32) {
            uint64_t a = LD64(se - 8), b = LD64(se - 16), c = LD64(se - 24), e = LD64(se - 32);
            ST64(de - 8, a);
            ST64(de - 16, b);
            ST64(de - 24, c);
            ST64(de - 32, e);
            de -= 32;
            se -= 32;
        }
        ST64(d, h0);
        ST64(d + 8, h1);
        ST64(d + 16, h2);
        ST64(d + 24, h3);
    }
    return dst;
}

void *fc_memcpy_generic(void *dst, const void *src, size_t n)
    __attribute__((alias("fc_memmove_generic")));

void *fc_memset_generic(void *dst, int c, size_t n)
{
    u8 *d = dst;
    uint64_t v = (uint64_t)(u8)c * 0x0101010101010101ull;

    if (n < 8) {
        if (n >= 4) {
            *(u32u *)d = (uint32_t)v;
            *(u32u *)(d + n - 4) = (uint32_t)v;
        } else if (n >= 2) {
            *(u16u *)d = (uint16_t)v;
            *(u16u *)(d + n - 2) = (uint16_t)v;
        } else if (n == 1) {
            *d = (u8)v;
        }
        return dst;
    }
    if (n <= 16) {
        ST64(d, v);
        ST64(d + n - 8, v);
        return dst;
    }
    if (n <= 32) {
        ST64(d, v);
        ST64(d + 8, v);
        ST64(d + n - 16, v);
        ST64(d + n - 8, v);
        return dst;
    }
    u8 *end = d + n - 32;
    for (; d < end; d += 32) {
        ST64(d, v);
        ST64(d + 8, v);
        ST64(d + 16, v);
        ST64(d + 24, v);
    }
    ST64(end, v);
    ST64(end + 8, v);
    ST64(end + 16, v);
    ST64(end + 24, v);
    return dst;
}
