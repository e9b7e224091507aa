/* memset_erms.c - "erms": AVX2 stores plus `rep stosb` from rep_stosb_start
 * (2 KiB, glibc's figure) up to the non-temporal threshold.  Selected with FSRM on
 * Intel; never on AMD Zen 3+, where glibc >= 2.39 turns rep stosb off too. */
#define FC_FN fc_memset_x86_erms
#define FC_REP_STOSB 1
#define FC_VEC_BITS 256
#include "vec_ops.h"
#include "memset_vec.h"
