/* dropin_body.c - compiled and run by meson at configure time (option
 * dropin_body=auto, native x86_64 builds, src/meson.build): prints the variant
 * that the library's own probe and policy select for memcpy on the build
 * machine, or avx512_1branch when that is memset's (memcpy's is then avx512).  meson
 * makes the exported memcpy, memmove and memset that kernel when it is avx512,
 * avx512_1branch, avx2 or avx2_keepupper, and avx2 otherwise (an erms or sse2 CPU diverts
 * from it no worse than from the avx512 kernel).  One translation unit: cc.run
 * takes one file. */
#include <stdio.h>
#include <string.h>
#include "probe.c"
#include "policy.c"
#include "profiles.c"
#include "../util.c"

int main(void)
{
    struct fc_x86_cpu c;
    struct fc_decision d;
    fc_x86_probe(&c, 0, 0);
    fc_x86_policy(&c, &d);
    /* avx512_1branch is memset's only (its copies are avx512's): it names the body */
    const char *set = fc_x86_variant_name(FC_MEMSET, d.sel[FC_MEMSET]);
    printf("%s\n", strcmp(set, "avx512_1branch") ? fc_x86_variant_name(FC_MEMCPY, d.sel[FC_MEMCPY])
                                             : set);
    return 0;
}
