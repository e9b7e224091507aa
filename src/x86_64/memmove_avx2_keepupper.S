/* memmove_avx2_keepupper.S - "avx2_keepupper": memmove_avx2.S without vzeroupper, for AMD cores,
 * which pay nothing for a dirty upper register state in the SSE code that may
 * follow (Intel cores do: there "avx2" keeps it).  vzeroupper cost ~3 cycles a
 * call: 65-512 B 0.94x the time without it (Zen 1, family 0x17 model 1;
 * docs/evidence/zen1.md).  Zen 1's profile row is the one that selects it. */
#define FC_AVX2_KEEP_UPPER 1
#include "memmove_avx2.S"
