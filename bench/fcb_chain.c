/* fcb_chain.c - the chain group's wide callers (fcb.h): the caller stores its
 * value at src with one 16- or 32-byte vector store, the call copies n bytes to
 * dst (memset: fills n bytes with the value's low byte), and the caller loads w
 * bytes at dst with one vector load: the next value is that plus one in each
 * 64-bit lane.  A callee that writes those w bytes as smaller pieces leaves the
 * load nothing to forward from: it waits until the pieces reach the cache.  The
 * 1..8-byte callers are in fcb_timing.c (FCB_CHAIN_LOOP); these need vector
 * registers, so they have their own file: SSE2 and AVX2 (by function attribute,
 * run only where the CPU has it) on x86_64, a q register on aarch64. */
#include <stddef.h>
#include <stdint.h>
#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif
#include "fcb.h"

typedef void *(*copy_fn)(void *, const void *, size_t);
typedef void *(*set_fn)(void *, int, size_t);

#if defined(__x86_64__)
static unsigned copy16(copy_fn fn, unsigned char *p, unsigned char *q, size_t n,
                       uint64_t iters, unsigned seed)
{
    __m128i v = _mm_set1_epi64x((long long)seed);
    for (uint64_t k = 0; k < iters; k++) {
        _mm_storeu_si128((__m128i *)(void *)q, v);
        fn(p, q, n);
        v = _mm_add_epi64(_mm_loadu_si128((const __m128i *)(const void *)p),
                          _mm_set1_epi64x(1));
    }
    return (unsigned)_mm_cvtsi128_si32(v);
}

static unsigned set16(set_fn fn, unsigned char *p, size_t n, uint64_t iters, unsigned seed)
{
    uint64_t v = seed;
    for (uint64_t k = 0; k < iters; k++) {
        fn(p, (int)(v & 0xff), n);
        v = (uint64_t)_mm_cvtsi128_si64(_mm_loadu_si128((const __m128i *)(const void *)p)) + 1;
    }
    return (unsigned)v;
}

/* (The compiler puts a vzeroupper before each call, as in any AVX caller.) */
__attribute__((target("avx2"))) static unsigned copy32(copy_fn fn, unsigned char *p,
                                                       unsigned char *q, size_t n,
                                                       uint64_t iters, unsigned seed)
{
    __m256i v = _mm256_set1_epi64x((long long)seed);
    for (uint64_t k = 0; k < iters; k++) {
        _mm256_storeu_si256((__m256i *)(void *)q, v);
        fn(p, q, n);
        v = _mm256_add_epi64(_mm256_loadu_si256((const __m256i *)(const void *)p),
                             _mm256_set1_epi64x(1));
    }
    unsigned r = (unsigned)_mm_cvtsi128_si32(_mm256_castsi256_si128(v));
    _mm256_zeroupper();
    return r;
}

__attribute__((target("avx2"))) static unsigned set32(set_fn fn, unsigned char *p, size_t n,
                                                      uint64_t iters, unsigned seed)
{
    uint64_t v = seed;
    for (uint64_t k = 0; k < iters; k++) {
        fn(p, (int)(v & 0xff), n);
        __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)p);
        v = (uint64_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(x)) + 1;
    }
    _mm256_zeroupper();
    return (unsigned)v;
}

int fcb_chain_wide_usable(size_t w)
{
    if (w == 16)
        return 1;
    __builtin_cpu_init();
    return w == 32 && __builtin_cpu_supports("avx2");
}
#elif defined(__aarch64__)
static unsigned copy16(copy_fn fn, unsigned char *p, unsigned char *q, size_t n,
                       uint64_t iters, unsigned seed)
{
    uint64x2_t v = vdupq_n_u64(seed);
    for (uint64_t k = 0; k < iters; k++) {
        vst1q_u64((uint64_t *)(void *)q, v);
        fn(p, q, n);
        v = vaddq_u64(vld1q_u64((const uint64_t *)(const void *)p), vdupq_n_u64(1));
    }
    return (unsigned)vgetq_lane_u64(v, 0);
}

static unsigned set16(set_fn fn, unsigned char *p, size_t n, uint64_t iters, unsigned seed)
{
    uint64_t v = seed;
    for (uint64_t k = 0; k < iters; k++) {
        fn(p, (int)(v & 0xff), n);
        v = vgetq_lane_u64(vld1q_u64((const uint64_t *)(const void *)p), 0) + 1;
    }
    return (unsigned)v;
}

int fcb_chain_wide_usable(size_t w)
{
    return w == 16;
}
#else
int fcb_chain_wide_usable(size_t w)
{
    (void)w;
    return 0;
}
#endif

unsigned fcb_chain_copy_wide(copy_fn fn, unsigned char *dst, unsigned char *src, size_t n,
                             size_t w, uint64_t iters, unsigned seed)
{
#if defined(__x86_64__)
    if (w == 32)
        return copy32(fn, dst, src, n, iters, seed);
#endif
#if defined(__x86_64__) || defined(__aarch64__)
    if (w == 16)
        return copy16(fn, dst, src, n, iters, seed);
#endif
    (void)fn, (void)dst, (void)src, (void)n, (void)w, (void)iters;
    return seed;
}

unsigned fcb_chain_set_wide(set_fn fn, unsigned char *dst, size_t n, size_t w, uint64_t iters,
                            unsigned seed)
{
#if defined(__x86_64__)
    if (w == 32)
        return set32(fn, dst, n, iters, seed);
#endif
#if defined(__x86_64__) || defined(__aarch64__)
    if (w == 16)
        return set16(fn, dst, n, iters, seed);
#endif
    (void)fn, (void)dst, (void)n, (void)w, (void)iters;
    return seed;
}
