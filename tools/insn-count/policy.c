/* policy.c - insn-count-policy: the variants the library's selection policy picks
 * for a synthetic CPU (the pure functions fc_a64_policy and fc_rv_policy, the ones
 * test/test_policy_*.c test), so that insn-count --cycles can force the variant a
 * core QEMU does not emulate would get (FASTCOPY_MEMCPY=... under a QEMU model
 * with the same features).
 *
 *   insn-count-policy a64 MIDR HWCAP HWCAP2 DCZID SVE_VL KVER
 *   insn-count-policy rv HWCAP HWPROBE MISALIGNED ZICBOZ_BLOCK VLENB
 *
 * Numbers in C notation (0x...); KVER as major.minor.patch.  MISALIGNED is the
 * hwprobe value (0 unknown, 1 emulated, 2 slow, 3 fast, 4 unsupported); HWPROBE 0
 * means the system call is missing.  Prints one line per function,
 * "memcpy <variant>", then the thresholds the decision sets ("zva_start N",
 * "zva_size N" / "cboz_size N") and "core <name>" on aarch64.  Exit status 2 on bad
 * arguments. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aarch64/variants.h"
#include "riscv64/variants.h"

static int num(const char *s, uint64_t *v)
{
    char *e;
    *v = strtoull(s, &e, 0);
    return *s && !*e ? 0 : -1;
}

static int usage(void)
{
    fprintf(stderr, "usage: insn-count-policy a64 MIDR HWCAP HWCAP2 DCZID SVE_VL KVER\n"
                    "       insn-count-policy rv HWCAP HWPROBE MISALIGNED ZICBOZ_BLOCK VLENB\n");
    return 2;
}

int main(int argc, char **argv)
{
    struct fc_decision d;
    memset(&d, 0, sizeof d);
    if (argc == 8 && strcmp(argv[1], "a64") == 0) {
        struct fc_a64_cpu c;
        uint64_t v[5];
        unsigned maj, min, pat;
        memset(&c, 0, sizeof c);
        for (int i = 0; i < 5; i++)
            if (num(argv[2 + i], &v[i]))
                return usage();
        if (sscanf(argv[7], "%u.%u.%u", &maj, &min, &pat) != 3)
            return usage();
        c.midr = (uint32_t)v[0];
        c.hwcap = v[1];
        c.hwcap2 = v[2];
        c.dczid = (uint32_t)v[3];
        c.sve_vl = (uint32_t)v[4];
        c.kver = FC_A64_KVER(maj, min, pat);
        fc_a64_policy(&c, &d);
        for (int f = 0; f < FC_NFUNCS; f++)
            printf("%s %s\n", fc_func_name(f), fc_a64_variant_name(f, d.sel[f]));
        printf("zva_start %zu\nzva_size %zu\ncore %s\n", (size_t)d.tun.zva_start,
               (size_t)d.tun.zva_size, fc_a64_core(&c));
        return 0;
    }
    if (argc == 7 && strcmp(argv[1], "rv") == 0) {
        struct fc_rv_cpu c;
        uint64_t v[5];
        memset(&c, 0, sizeof c);
        for (int i = 0; i < 5; i++)
            if (num(argv[2 + i], &v[i]))
                return usage();
        c.hwcap = v[0];
        c.hwprobe = v[1] != 0;
        c.misaligned = (unsigned)v[2];
        c.zicboz = v[3] != 0;
        c.zicboz_block = v[3];
        c.vlenb = v[4];
        c.v_ctrl = FC_RV_VCTRL_NONE;
        fc_rv_policy(&c, &d);
        for (int f = 0; f < FC_NFUNCS; f++)
            printf("%s %s\n", fc_func_name(f), fc_rv_variant_name(f, d.sel[f]));
        printf("cboz_size %zu\n", (size_t)d.tun.cboz_size);
        return 0;
    }
    return usage();
}
