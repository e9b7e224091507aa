/* x86_64 probe: CPUID and XGETBV -> struct fc_x86_cpu.
 * Runs inside IFUNC resolvers, before libc is initialised and possibly before
 * this library is relocated: raw instructions only, no libc, no pointers in data. */
#include "variants.h"

static void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
    __asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
                     : "a"(leaf), "c"(sub));
}

static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

/* CPUID leaf 4 (Intel) and 0x8000001D (AMD) share one layout: one sub-leaf per
 * cache; walk them until type 0.  Returns nothing for leaves the CPU lacks. */
static void walk_caches(struct fc_x86_cpu *c, uint32_t leaf)
{
    for (uint32_t i = 0; i < 16; i++) {
        uint32_t r[4];
        cpuid(leaf, i, r);
        unsigned type = r[0] & 31, level = (r[0] >> 5) & 7;
        if (type == 0)
            break;
        if (type == 2) /* instruction cache */
            continue;
        uint64_t size = (uint64_t)((r[1] >> 22) + 1) * (((r[1] >> 12) & 0x3ff) + 1) *
                        ((r[1] & 0xfff) + 1) * ((uint64_t)r[2] + 1);
        unsigned sharing = ((r[0] >> 14) & 0xfff) + 1;
        if (level == 1)
            c->l1d_size = size;
        else if (level == 2)
            c->l2_size = size;
        else if (level == 3) {
            c->l3_size = size;
            c->l3_sharing = sharing;
        }
    }
}

void fc_x86_probe(struct fc_x86_cpu *c, uint64_t a0, const void *a1)
{
    uint32_t r[4], max, maxext, f1c, f1d, f7b = 0, f7d = 0, f71a = 0;
    (void)a0;
    (void)a1;
    fc_bytezero(c, sizeof *c);

    cpuid(0, 0, r);
    max = r[0];
    /* "GenuineIntel": ebx=Genu edx=ineI ecx=ntel; "AuthenticAMD": ebx=Auth. */
    if (r[1] == 0x756e6547 && r[3] == 0x49656e69 && r[2] == 0x6c65746e)
        c->vendor = FC_X86_INTEL;
    else if (r[1] == 0x68747541 && r[3] == 0x69746e65 && r[2] == 0x444d4163)
        c->vendor = FC_X86_AMD;
    else if (r[1] == 0x6f677948 && r[3] == 0x6e65476e && r[2] == 0x656e6975)
        c->vendor = FC_X86_HYGON; /* "HygonGenuine" */
    else
        c->vendor = FC_X86_OTHER;

    cpuid(1, 0, r);
    f1c = r[2];
    f1d = r[3];
    c->family = (r[0] >> 8) & 0xf;
    c->model = (r[0] >> 4) & 0xf;
    c->stepping = r[0] & 0xf;
    if (c->family == 0xf)
        c->family += (r[0] >> 20) & 0xff;
    if (c->family == 0xf || c->family == 0x6 || c->family >= 0x10)
        c->model |= ((r[0] >> 16) & 0xf) << 4;
    if (max >= 7) {
        cpuid(7, 0, r);
        f7b = r[1];
        f7d = r[3];
        if (r[0] >= 1) { /* sub-leaf 1 */
            cpuid(7, 1, r);
            f71a = r[0];
        }
    }

    if (f1d & (1u << 26))
        c->features |= FC_X86_SSE2;
    if (f1c & (1u << 9))
        c->features |= FC_X86_SSSE3;
    if (f1c & (1u << 31))
        c->features |= FC_X86_HYPERVISOR;
    if ((f1c & (1u << 28)) && (f1c & (1u << 27))) { /* AVX and OSXSAVE */
        uint64_t xcr0 = xgetbv0();
        c->features |= FC_X86_AVX;
        if ((xcr0 & 0x6) == 0x6)
            c->features |= FC_X86_OS_YMM;
        if ((xcr0 & 0xe6) == 0xe6)
            c->features |= FC_X86_OS_ZMM;
    }
    if (f7b & (1u << 5))
        c->features |= FC_X86_AVX2;
    if (f7b & (1u << 8))
        c->features |= FC_X86_BMI2;
    if (f7b & (1u << 9))
        c->features |= FC_X86_ERMS;
    if (f7b & (1u << 16))
        c->features |= FC_X86_AVX512F;
    if (f7b & (1u << 30))
        c->features |= FC_X86_AVX512BW;
    if (f7b & (1u << 31))
        c->features |= FC_X86_AVX512VL;
    if (f7d & (1u << 4))
        c->features |= FC_X86_FSRM;
    if (f71a & (1u << 4))
        c->features |= FC_X86_AVX_VNNI;

    cpuid(0x80000000, 0, r);
    maxext = r[0];
    if (c->vendor == FC_X86_INTEL && max >= 4) {
        walk_caches(c, 4);
    } else if (c->vendor != FC_X86_INTEL && maxext >= 0x8000001d) {
        cpuid(0x80000001, 0, r);
        if (r[2] & (1u << 22)) { /* TOPOEXT: 0x8000001D is valid */
            c->features |= FC_X86_TOPOEXT;
            walk_caches(c, 0x8000001d);
        }
    }
    /* Legacy AMD leaves when the topology leaf gave nothing. */
    if (c->l3_size == 0 && c->vendor != FC_X86_INTEL && maxext >= 0x80000006) {
        cpuid(0x80000006, 0, r);
        c->l2_size = (uint64_t)(r[2] >> 16) * 1024;
        c->l3_size = (uint64_t)(r[3] >> 18) * 512 * 1024;
        if (maxext >= 0x80000005) {
            cpuid(0x80000005, 0, r);
            c->l1d_size = (uint64_t)(r[2] >> 24) * 1024;
        }
    }
}
