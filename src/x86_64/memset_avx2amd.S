/* memset_avx2amd.S - "avx2amd": memset_avx2.S without vzeroupper, for AMD cores,
 * which pay nothing for a dirty upper register state in the SSE code that may
 * follow (Intel cores do: there "avx2" keeps it).  On this project's Zen 1 VM
 * (AMD EPYC, family 0x17 model 1, 2026-12-04) vzeroupper cost ~3 cycles a call:
 * copies of 96 and 128 B 1.19-1.21x glibc's speed without it against 0.99-1.00x
 * with it, 65-512 B 0.94x the time (3-process fcbench; AOCL-LibMem, whose AVX2
 * code has no vzeroupper either, 1.15-1.23x).  The policy selects it only where
 * that was measured (Zen 1 and Zen+, family 0x17 below model 0x30). */
#define FC_AVX2_KEEP_UPPER 1
#include "memset_avx2.S"
