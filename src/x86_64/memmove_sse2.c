/* memmove_sse2.c - "sse2": 16-byte vectors, for every x86_64 CPU.
 * Selected when the OS has not enabled AVX state (XGETBV), e.g. some VMs and
 * old kernels; the baseline that every x86_64 CPU can run. */
#include <emmintrin.h>
#define FC_FN fc_memmove_x86_sse2
#define VEC __m128i
#define VS 16
#define LOADU(p) _mm_loadu_si128((const __m128i *)(p))
#define STOREU(p, v) _mm_storeu_si128((__m128i *)(p), (v))
#define STOREA(p, v) _mm_store_si128((__m128i *)(p), (v))
#define STREAM(p, v) _mm_stream_si128((__m128i *)(p), (v))
#include "memmove_vec.h"
