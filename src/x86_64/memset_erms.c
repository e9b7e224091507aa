/* memset_erms.c - "erms": AVX2 stores plus `rep stosb` from rep_stosb_threshold
 * (2 KiB, glibc's figure) up to the non-temporal threshold.  Selected with FSRM on
 * Intel; never on AMD Zen 3+, where glibc >= 2.39 turns rep stosb off too. */
#define FC_FN fc_memset_x86_erms
#define FC_REP_STOSB 1
#define VEC __m256i
#define VS 32
#define SPLAT(c) _mm256_set1_epi8((char)(c))
#define STOREU(p, v) _mm256_storeu_si256((__m256i *)(p), (v))
#define STOREA(p, v) _mm256_store_si256((__m256i *)(p), (v))
#define STREAM(p, v) _mm256_stream_si256((__m256i *)(p), (v))
#include "memset_vec.h"
