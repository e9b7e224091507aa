/* memmove_avx2.c - "avx2": 32-byte vectors.  Zen 4 stores 32 bytes per cycle, so
 * 32-byte vectors already reach the L1 copy limit there (117 GB/s measured); the
 * choice on Intel without FSRM and on AMD without AVX-512. */
#define FC_FN fc_memmove_x86_avx2
#define VEC __m256i
#define VS 32
#define LOADU(p) _mm256_loadu_si256((const __m256i *)(p))
#define STOREU(p, v) _mm256_storeu_si256((__m256i *)(p), (v))
#define STOREA(p, v) _mm256_store_si256((__m256i *)(p), (v))
#define STREAM(p, v) _mm256_stream_si256((__m256i *)(p), (v))
#include "memmove_vec.h"
