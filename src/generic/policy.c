/* Policy for architectures without variants of their own: always "generic". */
#include "arch.h"

#define FC_VN_PREFIX(x) fc_generic_##x
#define FC_VN_MEMCPY FC_GENERIC_MEMCPY_VARIANTS
#define FC_VN_MEMMOVE FC_GENERIC_MEMMOVE_VARIANTS
#define FC_VN_MEMSET FC_GENERIC_MEMSET_VARIANTS
#include "../variant_names.h"

void fc_generic_probe(fc_cpu_t *c, uint64_t a0, const void *a1)
{
    (void)a0, (void)a1;
    c->unused = 0;
}

int fc_generic_usable(const fc_cpu_t *c, int func, unsigned idx)
{
    (void)c, (void)func;
    return idx == 0;
}

void fc_generic_policy(const fc_cpu_t *c, struct fc_decision *d)
{
    (void)c;
    fc_bytezero(d, sizeof *d);
    for (int f = 0; f < FC_NFUNCS; f++)
        fc_strcat(d->why[f], FC_WHY_LEN, "portable build: no variants for this architecture");
}

void fc_generic_describe(const fc_cpu_t *c, char *buf, size_t cap)
{
    (void)c;
    buf[0] = 0;
    fc_strcat(buf, cap, "no CPU probe on this architecture\n");
}

void fc_generic_identity(const fc_cpu_t *c, char *buf, size_t cap)
{
    (void)c;
    buf[0] = 0;
    fc_strcat(buf, cap, "generic");
}
