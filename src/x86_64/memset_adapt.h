/* memset_adapt.h - the layout of fc_x86_memset_adapt, the adaptive memset
 * window's state (memset_avx512.S), for that kernel and for the tests that set
 * it (test/test_variants.c).  Plain #defines: included from assembly and C.
 *   [0, FC_ADAPT_COST)  16 64-byte call-counter lines (a call picks one by its
 *                       stack address, so threads rarely share one)
 *   then, per log2 n (0..63), two 32-bit costs: the vector loop's, then
 *   rep stosb's (TSC ticks x 16 per KiB). */
#ifndef FC_X86_MEMSET_ADAPT_H
#define FC_X86_MEMSET_ADAPT_H
#define FC_ADAPT_COST 1024
#define FC_ADAPT_SIZE (FC_ADAPT_COST + 64 * 8)
#endif
