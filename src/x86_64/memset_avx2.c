/* memset_avx2.c - the loop of "avx2" (memsets above 256 bytes), which
 * memset_avx2.S jumps to: 32-byte stores, one per cycle on Zen 4 and most Intel
 * cores, which is the L1 store limit there. */
#define FC_FN fc_memset_x86_avx2
#define FC_LARGE_ONLY
#define FC_VEC_BITS 256
#include "vec_ops.h"
#include "memset_vec.h"
