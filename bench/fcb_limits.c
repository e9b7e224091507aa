/* fcb_limits.c - the machine-limit kernels of the ws group: how fast this machine
 * reads, writes and streams (non-temporal writes) a buffer of a given size, with
 * the widest vectors it has.  A copy in the L1 or L2 cannot beat
 *     bytes / max(read time, min(write time, streaming-write time)),
 * in the L3 or DRAM (both directions share one fabric) bytes / (read time +
 * min(write, streaming-write time)), and a memset cannot beat bytes / min(write
 * time, streaming-write time) (fcbench.c, machine_limit_ns); the
 * targets compare libfastcopy with that figure, measured in the same run, instead
 * of with GB/s numbers from another CPU.
 *
 * Each kernel has a memcpy-like and a memset-like entry, so that it fits the
 * case's function: the read kernel reads the source (memcpy, memmove) or the
 * destination (memset); the write kernels store the destination.  They return
 * dst, as the functions they stand beside. */
#include <stddef.h>
#include <stdint.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include "fcb.h"

volatile uint64_t fcb_limit_sink;

/* Scalar edges (and the whole job where there are no vectors). */
static uint64_t rd_bytes(const unsigned char *s, size_t n)
{
    uint64_t a = 0;
    for (size_t i = 0; i < n; i++) {
        a += s[i];
        __asm__ volatile("" : "+r"(a));
    }
    return a;
}

static void wr_bytes(unsigned char *d, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        d[i] = 0;
        __asm__ volatile("" : : : "memory");
    }
}

#if defined(__x86_64__)
/* Four independent 64-byte loads per iteration (or stores): as many in flight as
 * the core allows, one address update per 256 bytes. */
__attribute__((target("avx512f"))) static void rd512(const unsigned char *s, size_t n)
{
    __m512i a = _mm512_setzero_si512(), b = a, c = a, e = a;
    size_t i = 0;
    for (; i + 256 <= n; i += 256) {
        a = _mm512_xor_si512(a, _mm512_loadu_si512((const void *)(s + i)));
        b = _mm512_xor_si512(b, _mm512_loadu_si512((const void *)(s + i + 64)));
        c = _mm512_xor_si512(c, _mm512_loadu_si512((const void *)(s + i + 128)));
        e = _mm512_xor_si512(e, _mm512_loadu_si512((const void *)(s + i + 192)));
    }
    a = _mm512_xor_si512(_mm512_xor_si512(a, b), _mm512_xor_si512(c, e));
    fcb_limit_sink = (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(a)) + rd_bytes(s + i, n - i);
}

__attribute__((target("avx512f"))) static void wr512(unsigned char *d, size_t n, int nt)
{
    __m512i z = _mm512_setzero_si512();
    size_t head = (64 - ((uintptr_t)d & 63)) & 63;
    if (head > n)
        head = n;
    wr_bytes(d, head);
    size_t i = head;
    if (nt) {
        for (; i + 256 <= n; i += 256) {
            _mm512_stream_si512((void *)(d + i), z);
            _mm512_stream_si512((void *)(d + i + 64), z);
            _mm512_stream_si512((void *)(d + i + 128), z);
            _mm512_stream_si512((void *)(d + i + 192), z);
        }
        _mm_sfence();
    } else {
        for (; i + 256 <= n; i += 256) {
            _mm512_store_si512((void *)(d + i), z);
            _mm512_store_si512((void *)(d + i + 64), z);
            _mm512_store_si512((void *)(d + i + 128), z);
            _mm512_store_si512((void *)(d + i + 192), z);
        }
    }
    wr_bytes(d + i, n - i);
}

__attribute__((target("avx2"))) static void rd256(const unsigned char *s, size_t n)
{
    __m256i a = _mm256_setzero_si256(), b = a, c = a, e = a;
    size_t i = 0;
    for (; i + 128 <= n; i += 128) {
        a = _mm256_xor_si256(a, _mm256_loadu_si256((const __m256i *)(s + i)));
        b = _mm256_xor_si256(b, _mm256_loadu_si256((const __m256i *)(s + i + 32)));
        c = _mm256_xor_si256(c, _mm256_loadu_si256((const __m256i *)(s + i + 64)));
        e = _mm256_xor_si256(e, _mm256_loadu_si256((const __m256i *)(s + i + 96)));
    }
    a = _mm256_xor_si256(_mm256_xor_si256(a, b), _mm256_xor_si256(c, e));
    fcb_limit_sink = (uint64_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(a)) + rd_bytes(s + i, n - i);
    _mm256_zeroupper();
}

__attribute__((target("avx2"))) static void wr256(unsigned char *d, size_t n, int nt)
{
    __m256i z = _mm256_setzero_si256();
    size_t head = (32 - ((uintptr_t)d & 31)) & 31;
    if (head > n)
        head = n;
    wr_bytes(d, head);
    size_t i = head;
    if (nt) {
        for (; i + 128 <= n; i += 128) {
            _mm256_stream_si256((__m256i *)(d + i), z);
            _mm256_stream_si256((__m256i *)(d + i + 32), z);
            _mm256_stream_si256((__m256i *)(d + i + 64), z);
            _mm256_stream_si256((__m256i *)(d + i + 96), z);
        }
        _mm_sfence();
    } else {
        for (; i + 128 <= n; i += 128) {
            _mm256_store_si256((__m256i *)(d + i), z);
            _mm256_store_si256((__m256i *)(d + i + 32), z);
            _mm256_store_si256((__m256i *)(d + i + 64), z);
            _mm256_store_si256((__m256i *)(d + i + 96), z);
        }
    }
    wr_bytes(d + i, n - i);
    _mm256_zeroupper();
}

static void rd128(const unsigned char *s, size_t n)
{
    __m128i a = _mm_setzero_si128(), b = a, c = a, e = a;
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        a = _mm_xor_si128(a, _mm_loadu_si128((const __m128i *)(s + i)));
        b = _mm_xor_si128(b, _mm_loadu_si128((const __m128i *)(s + i + 16)));
        c = _mm_xor_si128(c, _mm_loadu_si128((const __m128i *)(s + i + 32)));
        e = _mm_xor_si128(e, _mm_loadu_si128((const __m128i *)(s + i + 48)));
    }
    a = _mm_xor_si128(_mm_xor_si128(a, b), _mm_xor_si128(c, e));
    fcb_limit_sink = (uint64_t)_mm_cvtsi128_si64(a) + rd_bytes(s + i, n - i);
}

static void wr128(unsigned char *d, size_t n, int nt)
{
    __m128i z = _mm_setzero_si128();
    size_t head = (16 - ((uintptr_t)d & 15)) & 15;
    if (head > n)
        head = n;
    wr_bytes(d, head);
    size_t i = head;
    for (; i + 64 <= n; i += 64) {
        if (nt) {
            _mm_stream_si128((__m128i *)(d + i), z);
            _mm_stream_si128((__m128i *)(d + i + 16), z);
            _mm_stream_si128((__m128i *)(d + i + 32), z);
            _mm_stream_si128((__m128i *)(d + i + 48), z);
        } else {
            _mm_store_si128((__m128i *)(d + i), z);
            _mm_store_si128((__m128i *)(d + i + 16), z);
            _mm_store_si128((__m128i *)(d + i + 32), z);
            _mm_store_si128((__m128i *)(d + i + 48), z);
        }
    }
    if (nt)
        _mm_sfence();
    wr_bytes(d + i, n - i);
}

static int width(void)
{
    static int w;
    if (!w) {
        __builtin_cpu_init();
        w = __builtin_cpu_supports("avx512f") ? 512 : __builtin_cpu_supports("avx2") ? 256 : 128;
    }
    return w;
}

static void rd(const unsigned char *s, size_t n)
{
    int w = width();
    if (w == 512)
        rd512(s, n);
    else if (w == 256)
        rd256(s, n);
    else
        rd128(s, n);
}

static void wr(unsigned char *d, size_t n, int nt)
{
    int w = width();
    if (w == 512)
        wr512(d, n, nt);
    else if (w == 256)
        wr256(d, n, nt);
    else
        wr128(d, n, nt);
}
#else
/* Elsewhere: 8-byte words, four per iteration (the compiler may vectorise the
 * loads; the asm barriers keep it from dropping or merging them into calls).
 * There is no portable streaming store: "ntwrite" is the plain write. */
static void rd(const unsigned char *s, size_t n)
{
    uint64_t a = 0, b = 0, c = 0, e = 0;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const uint64_t *p = (const uint64_t *)(const void *)(s + i);
        a ^= p[0];
        b ^= p[1];
        c ^= p[2];
        e ^= p[3];
    }
    fcb_limit_sink = (a ^ b ^ c ^ e) + rd_bytes(s + i, n - i);
}

static void wr(unsigned char *d, size_t n, int nt)
{
    (void)nt;
    size_t head = (8 - ((uintptr_t)d & 7)) & 7;
    if (head > n)
        head = n;
    wr_bytes(d, head);
    size_t i = head;
    for (; i + 32 <= n; i += 32) {
        uint64_t *p = (uint64_t *)(void *)(d + i);
        p[0] = 0;
        p[1] = 0;
        p[2] = 0;
        p[3] = 0;
        __asm__ volatile("" : : "r"(p) : "memory");
    }
    wr_bytes(d + i, n - i);
}
#endif

__attribute__((noinline)) void *fcb_limit_read_copy(void *d, const void *s, size_t n)
{
    rd(s, n);
    return d;
}
__attribute__((noinline)) void *fcb_limit_write_copy(void *d, const void *s, size_t n)
{
    (void)s;
    wr(d, n, 0);
    return d;
}
__attribute__((noinline)) void *fcb_limit_ntwrite_copy(void *d, const void *s, size_t n)
{
    (void)s;
    wr(d, n, 1);
    return d;
}
__attribute__((noinline)) void *fcb_limit_read_set(void *d, int c, size_t n)
{
    (void)c;
    rd(d, n);
    return d;
}
__attribute__((noinline)) void *fcb_limit_write_set(void *d, int c, size_t n)
{
    (void)c;
    wr(d, n, 0);
    return d;
}
__attribute__((noinline)) void *fcb_limit_ntwrite_set(void *d, int c, size_t n)
{
    (void)c;
    wr(d, n, 1);
    return d;
}
