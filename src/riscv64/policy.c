/* riscv64 selection policy: CPU facts -> variants and thresholds.
 *
 * A pure function of struct fc_rv_cpu (no system calls here), compiled on every
 * host so test/test_policy_riscv64.c can ask it about any RISC-V CPU.
 *
 * Misaligned access.  On many RISC-V cores a misaligned load or store traps to
 * M-mode firmware and is emulated there, hundreds of times slower than an aligned
 * one (on the BeagleV, a copy that never makes one lifted TCP receive from 686 to
 * 904 Mbit/s).  So the scalar default, "word", never makes one: aligned words when
 * src and dst share alignment, aligned loads merged with shifts when they do not.
 * "unaligned" (plain misaligned 8-byte accesses, fewer instructions) is chosen only
 * when the kernel's riscv_hwprobe reports misaligned scalar access as FAST, as
 * glibc 2.40 does.  UNKNOWN (and hwprobe missing: kernels before 6.4, QEMU 7.2),
 * SLOW, EMULATED and UNSUPPORTED all mean "word".
 *
 * V.  "rvv" copies and sets with vle8/vse8 at LMUL 8 (byte elements are never
 * misaligned, and vl handles the tail), when AT_HWCAP has the V bit and the
 * process may use V: Linux 6.5+ can switch V off per process, and then any vector
 * instruction raises SIGILL (glibc's RVV memset forgot to check).  prctl
 * (PR_RISCV_V_GET_CONTROL) saying OFF rules V out; a failing prctl (older kernel,
 * QEMU user mode) leaves the decision to HWCAP.  V is preferred to the scalar
 * variants for every function: one vector instruction moves VLEN x 8 bits.
 * (Under QEMU vector code is slow in wall time, but QEMU is not what we tune for.)
 *
 * Zicboz.  Without V, memset(p, 0, n) zeroes whole cache blocks with cbo.zero
 * when hwprobe reports Zicboz and a block size that is a power of two between 16
 * and 4096 bytes (anything else is ignored as implausible); the block size goes
 * to the kernel through fc_tun.cboz_size.  Non-zero fills and short zeroings use
 * the word stores.
 */
#include "variants.h"

int fc_rv_v_usable(const struct fc_rv_cpu *c)
{
    return (c->hwcap & FC_RV_HWCAP_V) && c->v_ctrl != FC_RV_VCTRL_OFF;
}

static int cboz_usable(const struct fc_rv_cpu *c)
{
    uint64_t b = c->zicboz_block;
    return c->zicboz && b >= 16 && b <= 4096 && (b & (b - 1)) == 0;
}

/* fc_rv_usable (the table's requirements), the names and their look-ups. */
#define FC_VN_PREFIX(x) fc_rv_##x
#define FC_VN_TABLE FC_RV_VARIANTS
#define FC_VN_CPU struct fc_rv_cpu
#include "../variant_names.h"

static const char *misaligned_name(unsigned m)
{
    return m == FC_RV_MISALIGNED_EMULATED ? "emulated"
         : m == FC_RV_MISALIGNED_SLOW ? "slow"
         : m == FC_RV_MISALIGNED_FAST ? "fast"
         : m == FC_RV_MISALIGNED_UNSUPPORTED ? "unsupported"
         : "unknown";
}

void fc_rv_policy(const struct fc_rv_cpu *c, struct fc_decision *d)
{
    int scalar; /* the copy variant without V */
    const char *swhy;

    fc_bytezero(d, sizeof *d);
    /* Set whenever cbo.zero is usable, so FASTCOPY_MEMSET=cboz works on V cores too. */
    if (cboz_usable(c))
        d->tun.cboz_size = (size_t)c->zicboz_block;
    if (!c->hwprobe) {
        scalar = FC_RV_COPY_word;
        swhy = "no riscv_hwprobe (ENOSYS): misaligned speed unknown, assumed slow: "
               "aligned words, shifts when src/dst alignments differ";
    } else if (c->misaligned == FC_RV_MISALIGNED_FAST) {
        scalar = FC_RV_COPY_unaligned;
        swhy = "hwprobe: misaligned scalar access fast: plain 8-byte accesses";
    } else {
        scalar = FC_RV_COPY_word;
        swhy = c->misaligned == FC_RV_MISALIGNED_EMULATED
                   ? "hwprobe: misaligned access emulated (traps): never misaligned, "
                     "aligned words merged with shifts"
                   : "hwprobe: misaligned access not fast: never misaligned, aligned "
                     "words merged with shifts";
    }

    if (fc_rv_v_usable(c)) {
        const char *why = c->v_ctrl == FC_RV_VCTRL_NONE
                              ? "V in HWCAP (no prctl V control): vle8/vse8 at LMUL 8"
                              : "V in HWCAP, enabled by prctl: vle8/vse8 at LMUL 8";
        fc_decision_set(d, FC_MEMCPY, FC_RV_COPY_rvv, why, "");
        fc_decision_set(d, FC_MEMMOVE, FC_RV_COPY_rvv, why, "");
        fc_decision_set(d, FC_MEMSET, FC_RV_SET_rvv, why, "");
        return;
    }
    const char *nov = !(c->hwcap & FC_RV_HWCAP_V) ? "no V; " : "V disabled by prctl; ";
    fc_decision_set(d, FC_MEMCPY, scalar, nov, swhy);
    fc_decision_set(d, FC_MEMMOVE, scalar, nov, swhy);
    if (cboz_usable(c)) {
        fc_decision_set(d, FC_MEMSET, FC_RV_SET_cboz, nov,
            "Zicboz: cbo.zero for whole blocks when zeroing, aligned word stores otherwise");
    } else {
        fc_decision_set(d, FC_MEMSET, FC_RV_SET_word, nov,
            c->zicboz ? "Zicboz block size implausible: aligned word stores"
                      : "aligned word stores");
    }
}

void fc_rv_describe(const struct fc_rv_cpu *c, char *buf, size_t cap)
{
    buf[0] = 0;
    fc_strcat(buf, cap, "HWCAP extensions: ");
    for (int i = 0; i < 26; i++)
        if (c->hwcap & (1ull << i)) {
            char s[2] = {(char)('a' + i), 0};
            fc_strcat(buf, cap, s);
        }
    fc_strcat(buf, cap, "\nV: ");
    fc_strcat(buf, cap, !(c->hwcap & FC_RV_HWCAP_V) ? "absent"
                        : c->v_ctrl == FC_RV_VCTRL_OFF ? "disabled by prctl"
                        : c->v_ctrl == FC_RV_VCTRL_NONE ? "usable (no prctl control)"
                                                        : "usable (prctl: on)");
    if (c->vlenb) {
        fc_strcat_num(buf, cap, ", VLEN ", c->vlenb * 8, 0);
        fc_strcat(buf, cap, " bits");
    }
    fc_strcat(buf, cap, "\nhwprobe: ");
    if (!c->hwprobe) {
        fc_strcat(buf, cap, "unavailable (ENOSYS)\n");
        return;
    }
    fc_strcat_num(buf, cap, "mvendorid ", c->mvendorid, 0);
    fc_strcat_num(buf, cap, " marchid ", c->marchid, 0);
    fc_strcat_num(buf, cap, " mimpid ", c->mimpid, 0);
    fc_strcat(buf, cap, "\nmisaligned scalar access: ");
    fc_strcat(buf, cap, misaligned_name(c->misaligned));
    fc_strcat(buf, cap, "\nZicboz: ");
    if (c->zicboz) {
        fc_strcat_num(buf, cap, "yes, block ", c->zicboz_block, 0);
        fc_strcat(buf, cap, " bytes\n");
    } else {
        fc_strcat(buf, cap, "no\n");
    }
}

void fc_rv_identity(const struct fc_rv_cpu *c, char *buf, size_t cap)
{
    buf[0] = 0;
    fc_strcat_num(buf, cap, "riscv64 mvendorid ", c->mvendorid, 1);
    fc_strcat_num(buf, cap, ", marchid ", c->marchid, 1);
    fc_strcat_num(buf, cap, ", mimpid ", c->mimpid, 1);
    if (c->vlenb)
        fc_strcat_num(buf, cap, ", VLEN ", c->vlenb * 8, 0);
}
