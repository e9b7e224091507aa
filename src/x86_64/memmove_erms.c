/* memmove_erms.c - "erms": the AVX2 copy plus `rep movsb` for forward copies in
 * [rep_movsb_start, rep_movsb_stop) (default 2 KiB with FSRM, 4 KiB without,
 * up to the non-temporal threshold).  Intel tunes rep movsb for these sizes from
 * Ice Lake on (FSRM).  Never backwards (slow everywhere) and never when dst and src
 * are 1..63 bytes apart modulo 4096 (either way): there rep movsb collapses (glibc
 * bug 30994: 3.6 GB/s instead of ~90 GB/s at 4 KiB on our Zen 4), which is also
 * why the policy never selects it on AMD. */
#define FC_FN fc_memmove_x86_erms
#define FC_REP_MOVSB 1
#define FC_VEC_BITS 256
#include "vec_ops.h"
#include "memmove_vec.h"
