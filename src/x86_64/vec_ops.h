/* vec_ops.h - the vector operations that the C kernels (memmove_vec.h,
 * memset_vec.h) are written in, at one width: a kernel file defines FC_VEC_BITS
 * (128: SSE2, every x86_64 CPU; 256: AVX2, built with -mavx2) and includes this
 * before the kernel design. */
#include <immintrin.h>
#if FC_VEC_BITS == 128
#define VEC __m128i
#define VS 16
#define SPLAT(c) _mm_set1_epi8((char)(c))
#define LOADU(p) _mm_loadu_si128((const __m128i *)(p))
#define STOREU(p, v) _mm_storeu_si128((__m128i *)(p), (v))
#define STOREA(p, v) _mm_store_si128((__m128i *)(p), (v))
#define STREAM(p, v) _mm_stream_si128((__m128i *)(p), (v))
#elif FC_VEC_BITS == 256
#define VEC __m256i
#define VS 32
#define SPLAT(c) _mm256_set1_epi8((char)(c))
#define LOADU(p) _mm256_loadu_si256((const __m256i *)(p))
#define STOREU(p, v) _mm256_storeu_si256((__m256i *)(p), (v))
#define STOREA(p, v) _mm256_store_si256((__m256i *)(p), (v))
#define STREAM(p, v) _mm256_stream_si256((__m256i *)(p), (v))
#else
#error "vec_ops.h: FC_VEC_BITS must be 128 or 256"
#endif
