/* dropin_memmove.S - the exported `memmove` of the shared library (x86_64, not built with
 * -Ddropin_ifunc=true): memmove_avx512.S again under that name, with nothing before it,
 * or memmove_avx2.S (as avx2, or as avx2_keepupper) in a build with dropin_body=avx2 or
 * avx2_keepupper (the default where the build machine selects one of those: meson_options.txt).
 * A call through a trampoline ("jmp *slot") cost 0.75 ns more than calling the
 * kernel (Emerald Rapids; docs/evidence/intel-emerald-rapids.md).  When another variant is chosen
 * (another CPU, or FASTCOPY_MEMMOVE), the kernel's ENTRY_TEST sends every call through
 * the slot (kernel_entry.h). */
#define FC_DROPIN_NAME memmove
#define FC_DROPIN_LIMIT fc_dropin_limit_memmove
#define FC_DROPIN_BOUND fc_dropin_bound_memmove
#define FC_DROPIN_SLOT fc_slot_memmove
#include "fc_dropin_config.h"
#if FC_DROPIN_BODY_AVX2
#if FC_DROPIN_BODY_AVX2_KEEPUPPER
#define FC_AVX2_KEEP_UPPER 1
#endif
#include "memmove_avx2.S"
#else
#include "memmove_avx512.S"
#endif
