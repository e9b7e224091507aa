/* memset_sse2.c - "sse2": 16-byte stores; every x86_64 CPU. */
#include <emmintrin.h>
#define FC_FN fc_memset_x86_sse2
#define VEC __m128i
#define VS 16
#define SPLAT(c) _mm_set1_epi8((char)(c))
#define STOREU(p, v) _mm_storeu_si128((__m128i *)(p), (v))
#define STOREA(p, v) _mm_store_si128((__m128i *)(p), (v))
#define STREAM(p, v) _mm_stream_si128((__m128i *)(p), (v))
#include "memset_vec.h"
