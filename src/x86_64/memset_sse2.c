/* memset_sse2.c - "sse2": 16-byte stores; every x86_64 CPU. */
#define FC_FN fc_memset_x86_sse2
#define FC_VEC_BITS 128
#include "vec_ops.h"
#include "memset_vec.h"
