/* fcb_names.c - the options that name variants (--impl, --summary) take their
 * former names too (FC_VN_FORMER in the architecture's policy.c): each is read
 * as the variant's name now, the one fc_variants() gives and fcbench prints. */
#include <stdlib.h>
#include <string.h>
#include "arch.h"
#include "fcb.h"

const char *fcb_current_names(const char *list)
{
    size_t cap = strlen(list) * 2 + 64, used = 0;
    char *out = malloc(cap);
    if (!out)
        return list;
    const char *p = list;
    for (;;) {
        size_t len = strcspn(p, ",");
        char name[64] = "";
        const char *now = NULL;
        if (len < sizeof name) {
            memcpy(name, p, len);
            name[len] = 0;
            for (int f = 0; f < FC_NFUNCS && !now; f++) {
                int i = fc_arch_variant_index(f, name);
                if (i >= 0)
                    now = fc_arch_variant_name(f, (unsigned)i);
            }
        }
        size_t n = now ? strlen(now) : len;
        if (used + n + 2 > cap) {
            free(out);
            return list;
        }
        memcpy(out + used, now ? now : p, n);
        used += n;
        p += len;
        if (!*p)
            break;
        out[used++] = *p++;
    }
    out[used] = 0;
    return out;
}
