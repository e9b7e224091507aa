/* memset_avx512.c - "avx512": 64-byte stores, and one byte-masked store for every
 * n <= 64 (no size branches; masked-out bytes are not touched). */
#define FC_FN fc_memset_avx512
#define VEC __m512i
#define VS 64
#define SPLAT(c) _mm512_set1_epi8((char)(c))
#define STOREU(p, v) _mm512_storeu_si512((void *)(p), (v))
#define STOREA(p, v) _mm512_store_si512((void *)(p), (v))
#define STREAM(p, v) _mm512_stream_si512((void *)(p), (v))
#define FC_MASKED_SET(d, c, n)                                                       \
    _mm512_mask_storeu_epi8((d), _bzhi_u64(~0ull, (unsigned)(n)), _mm512_set1_epi8((char)(c)))
#include "memset_vec.h"
