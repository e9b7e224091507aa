/* memset_avx2.c - "avx2": 32-byte stores, one per cycle on Zen 4 and most Intel
 * cores, which is the L1 store limit there. */
#define FC_FN fc_memset_x86_avx2
#define VEC __m256i
#define VS 32
#define SPLAT(c) _mm256_set1_epi8((char)(c))
#define STOREU(p, v) _mm256_storeu_si256((__m256i *)(p), (v))
#define STOREA(p, v) _mm256_store_si256((__m256i *)(p), (v))
#define STREAM(p, v) _mm256_stream_si256((__m256i *)(p), (v))
#include "memset_vec.h"
