/* memmove_sse2.c - "sse2": 16-byte vectors, for every x86_64 CPU.
 * Selected when the OS has not enabled AVX state (XGETBV), e.g. some VMs and
 * old kernels; the baseline that every x86_64 CPU can run. */
#define FC_FN fc_memmove_x86_sse2
#define FC_VEC_BITS 128
#include "vec_ops.h"
#include "memmove_vec.h"
