/* memset_avx512_1branch.S - "avx512_1branch": memset_avx512.S with its one-branch entry
 * (FC_MEMSET_ONE_BRANCH): up to memset_masked_max bytes one compare and one masked
 * store, the page-end test folded into that compare; the size classes from 65 B
 * behind it, 65..255 B with plain stores.  The policy selects it on Zen 5, where
 * it was measured (the figures are at the entry in memset_avx512.S); memcpy and
 * memmove of this variant are the avx512 kernel itself. */
#define FC_MEMSET_ONE_BRANCH 1
#include "memset_avx512.S"
