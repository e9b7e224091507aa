/* Policy for architectures without a port: always the "generic" variant. */
#include "arch.h"

#define FC_VN_PREFIX(x) fc_unported_##x
#define FC_VN_TABLE FC_UNPORTED_VARIANTS
#define FC_VN_CPU fc_cpu_t
#include "../variant_names.h"

void fc_unported_probe(fc_cpu_t *c, uint64_t a0, const void *a1)
{
    (void)a0, (void)a1;
    c->unused = 0;
}

void fc_unported_policy(const fc_cpu_t *c, struct fc_decision *d)
{
    (void)c;
    fc_bytezero(d, sizeof *d);
    for (int f = 0; f < FC_NFUNCS; f++)
        fc_decision_set(d, f, FC_VT_INDEX(FC_UNPORTED_, f, generic), "portable build: ",
                        "no variants for this architecture");
}

void fc_unported_describe(const fc_cpu_t *c, char *buf, size_t cap)
{
    (void)c;
    buf[0] = 0;
    fc_strcat(buf, cap, "no CPU probe on this architecture\n");
}

void fc_unported_identity(const fc_cpu_t *c, char *buf, size_t cap)
{
    (void)c;
    buf[0] = 0;
    fc_strcat(buf, cap, "generic");
}
