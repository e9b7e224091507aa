/* memmove_avx512.c - "avx512": 64-byte vectors, and for n <= 64 a single byte-masked
 * load and store (AVX-512BW): no size branches below one vector, and masked-out
 * bytes are never accessed (no fault, no over-read).  This is AOCL-LibMem's
 * small-size win on Zen 4, where most calls are small (77% of SPEC2017 memcpy calls
 * are <= 32 bytes). */
#define FC_FN fc_memmove_avx512
#define VEC __m512i
#define VS 64
#define LOADU(p) _mm512_loadu_si512((const void *)(p))
#define STOREU(p, v) _mm512_storeu_si512((void *)(p), (v))
#define STOREA(p, v) _mm512_store_si512((void *)(p), (v))
#define STREAM(p, v) _mm512_stream_si512((void *)(p), (v))
#define FC_MASKED_SMALL(d, s, n)                                                     \
    do {                                                                             \
        __mmask64 m_ = _bzhi_u64(~0ull, (unsigned)(n));                              \
        _mm512_mask_storeu_epi8((d), m_, _mm512_maskz_loadu_epi8(m_, (s)));          \
    } while (0)
#include "memmove_vec.h"
