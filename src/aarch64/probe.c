/* aarch64 probe: resolver arguments, system registers and uname -> struct fc_a64_cpu.
 *
 * Runs inside IFUNC resolvers, before libc is initialised and possibly before
 * this library is relocated: it uses its arguments, raw instructions (mrs, rdvl)
 * and raw system calls only; no libc, no pointers in static data.
 *
 *   x0 (a0)  AT_HWCAP, with bit 62 set by glibc when x1 points to an
 *            __ifunc_arg_t {size, hwcap, hwcap2}.  Without it (other loaders,
 *            old glibc) AT_HWCAP2 is read from /proc/self/auxv.
 *   DCZID_EL0  always readable at EL0 (DC ZVA block size, DZP).
 *   MIDR_EL1   only when HWCAP_CPUID says the kernel emulates EL0 reads of the ID
 *            registers; otherwise the mrs would raise SIGILL.
 *   rdvl     SVE vector length, only with HWCAP_SVE.
 *   uname    the kernel release, only with HWCAP_SVE (the policy needs it to know
 *            whether SVE state survives system calls). */
#include "variants.h"
#include "../rawsys.h"

#define FC_SYS_uname 160 /* aarch64 (asm-generic) */
#define AT_HWCAP2_TAG 26

static uint64_t hwcap2_from_auxv(void)
{
    uint64_t v = 0;
    return fc_auxv_get(AT_HWCAP2_TAG, &v) == 1 ? v : 0;
}

/* "6.1.0-18-arm64" -> FC_A64_KVER(6, 1, 0); 0 if it does not start with a number. */
static uint32_t parse_release(const char *r)
{
    uint32_t part[3] = {0, 0, 0};
    int k = 0;
    if (*r < '0' || *r > '9')
        return 0;
    for (; *r && k < 3; r++) {
        if (*r >= '0' && *r <= '9') {
            if (part[k] < 1000)
                part[k] = part[k] * 10 + (uint32_t)(*r - '0');
        } else if (*r == '.') {
            k++;
        } else {
            break;
        }
    }
    return FC_A64_KVER(part[0] > 255 ? 255 : part[0], part[1] > 255 ? 255 : part[1],
                       part[2] > 255 ? 255 : part[2]);
}

static uint32_t kernel_version(void)
{
    /* struct utsname: six 65-byte fields; release is the third. */
    char uts[6 * 65];
    fc_bytezero(uts, sizeof uts);
    if (fc_syscall3(FC_SYS_uname, (long)uts, 0, 0) != 0)
        return 0;
    uts[3 * 65 - 1] = 0;
    return parse_release(uts + 2 * 65);
}

void fc_a64_probe(struct fc_a64_cpu *c, uint64_t a0, const void *a1)
{
    fc_bytezero(c, sizeof *c);
    c->hwcap = a0 & ~FC_A64_IFUNC_ARG_HWCAP;
    if ((a0 & FC_A64_IFUNC_ARG_HWCAP) && a1) {
        const struct fc_a64_ifunc_arg *arg = a1;
        if (arg->size >= 3 * sizeof(unsigned long))
            c->hwcap2 = arg->hwcap2;
    } else {
        c->hwcap2 = hwcap2_from_auxv();
    }

#if defined(__aarch64__)
    uint64_t v;
    __asm__ volatile("mrs %0, dczid_el0" : "=r"(v));
    c->dczid = (uint32_t)v;
    if (c->hwcap & FC_A64_HWCAP_CPUID) {
        __asm__ volatile("mrs %0, midr_el1" : "=r"(v));
        c->midr = (uint32_t)v;
    }
    if (c->hwcap & FC_A64_HWCAP_SVE) {
        __asm__ volatile(".arch_extension sve\n\trdvl %0, #1" : "=r"(v));
        c->sve_vl = (uint32_t)v;
        c->kver = kernel_version();
    }
#else
    (void)kernel_version;
#endif
}
