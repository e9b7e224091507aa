/* memmove_avx2.c - the loop of "avx2" (copies above 256 bytes), which
 * memmove_avx2.S jumps to: 32-byte vectors.  Zen 4 stores 32 bytes per cycle, so
 * 32-byte vectors already reach the L1 copy limit there (117 GB/s measured); the
 * choice on Intel without FSRM and on AMD without AVX-512. */
#define FC_FN fc_memmove_x86_avx2
#define FC_LARGE_ONLY
#define FC_VEC_BITS 256
#include "vec_ops.h"
#include "memmove_vec.h"
