/* memset_avx2.c - "avx2": 32-byte stores, one per cycle on Zen 4 and most Intel
 * cores, which is the L1 store limit there. */
#define FC_FN fc_memset_x86_avx2
#define FC_VEC_BITS 256
#include "vec_ops.h"
#include "memset_vec.h"
