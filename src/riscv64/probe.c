/* riscv64 probe: AT_HWCAP, riscv_hwprobe and prctl -> struct fc_rv_cpu.
 *
 * Runs inside IFUNC resolvers, before libc is initialised and possibly before this
 * library is relocated: it uses only its arguments, raw system calls and one CSR
 * read; no libc, no pointers in static data.
 *
 * Arguments (glibc's riscv resolver convention): a0 = AT_HWCAP; a1 = NULL on glibc
 * before 2.40, a pointer to glibc's __riscv_hwprobe function from 2.40 on.  When
 * a1 is NULL the riscv_hwprobe system call (258) is made directly.  Kernels before
 * 6.4, and QEMU 7.2's user mode, answer ENOSYS: misaligned performance is then
 * UNKNOWN (the policy treats it as slow) and Zicboz is not used.
 *
 * The hwprobe structure and key numbers are declared here from the kernel's uapi
 * <asm/hwprobe.h> (glibc 2.36's headers lack them). */
#include "variants.h"


struct fc_hwprobe_pair {
    int64_t key;
    uint64_t value;
};

#define HWPROBE_KEY_MVENDORID 0
#define HWPROBE_KEY_MARCHID 1
#define HWPROBE_KEY_MIMPID 2
#define HWPROBE_KEY_IMA_EXT_0 4
#define HWPROBE_EXT_ZICBOZ (1ull << 6)
#define HWPROBE_KEY_CPUPERF_0 5   /* older kernels: misaligned perf in bits 0..2 */
#define HWPROBE_MISALIGNED_MASK 7ull
#define HWPROBE_KEY_ZICBOZ_BLOCK_SIZE 6
#define HWPROBE_KEY_MISALIGNED_SCALAR_PERF 9  /* Linux 6.11+ */
#define NKEYS 7

#define SYS_riscv_hwprobe 258
#define SYS_prctl 167
#define PR_RISCV_V_GET_CONTROL 70
#define PR_RISCV_V_VSTATE_CTRL_CUR_MASK 3

typedef int (*fc_hwprobe_fn)(struct fc_hwprobe_pair *, unsigned long, unsigned long,
                             unsigned long *, unsigned);

static long raw_syscall5(long n, long a, long b, long c, long d, long e)
{
#if defined(__riscv)
    register long a7 __asm__("a7") = n;
    register long r0 __asm__("a0") = a;
    register long r1 __asm__("a1") = b;
    register long r2 __asm__("a2") = c;
    register long r3 __asm__("a3") = d;
    register long r4 __asm__("a4") = e;
    __asm__ volatile("ecall" : "+r"(r0) : "r"(a7), "r"(r1), "r"(r2), "r"(r3), "r"(r4)
                     : "memory");
    return r0;
#else
    (void)n, (void)a, (void)b, (void)c, (void)d, (void)e;
    return -38; /* ENOSYS */
#endif
}

static uint64_t read_vlenb(void)
{
#if defined(__riscv)
    uint64_t v;
    __asm__ volatile(".option push\n\t.option arch, +v\n\tcsrr %0, vlenb\n\t.option pop"
                     : "=r"(v));
    return v;
#else
    return 0;
#endif
}

void fc_rv_probe(struct fc_rv_cpu *c, uint64_t a0, const void *a1)
{
    struct fc_hwprobe_pair p[NKEYS];
    long r;

    fc_bytezero(c, sizeof *c);
    c->hwcap = a0;

    /* Kernels that can switch V off per process say so here (Linux 6.5+); a failure
     * means no such control (older kernel, or QEMU user mode passing the prctl to
     * its host): then HWCAP alone decides. */
    r = raw_syscall5(SYS_prctl, PR_RISCV_V_GET_CONTROL, 0, 0, 0, 0);
    c->v_ctrl = r < 0 ? FC_RV_VCTRL_NONE : (int)(r & PR_RISCV_V_VSTATE_CTRL_CUR_MASK);

    /* Keys set one by one: a struct initialiser may become a memset call. */
    p[0].key = HWPROBE_KEY_MVENDORID;
    p[1].key = HWPROBE_KEY_MARCHID;
    p[2].key = HWPROBE_KEY_MIMPID;
    p[3].key = HWPROBE_KEY_IMA_EXT_0;
    p[4].key = HWPROBE_KEY_CPUPERF_0;
    p[5].key = HWPROBE_KEY_ZICBOZ_BLOCK_SIZE;
    p[6].key = HWPROBE_KEY_MISALIGNED_SCALAR_PERF;
    for (int i = 0; i < NKEYS; i++)
        p[i].value = 0;
    if (a1)
        r = ((fc_hwprobe_fn)a1)(p, NKEYS, 0, 0, 0) == 0 ? 0 : -1;
    else
        r = raw_syscall5(SYS_riscv_hwprobe, (long)p, NKEYS, 0, 0, 0);
    if (r == 0) {
        c->hwprobe = 1;
        /* A key the kernel does not know comes back as -1. */
        if (p[0].key >= 0)
            c->mvendorid = p[0].value;
        if (p[1].key >= 0)
            c->marchid = p[1].value;
        if (p[2].key >= 0)
            c->mimpid = p[2].value;
        if (p[6].key >= 0)
            c->misaligned = (unsigned)(p[6].value & HWPROBE_MISALIGNED_MASK);
        else if (p[4].key >= 0)
            c->misaligned = (unsigned)(p[4].value & HWPROBE_MISALIGNED_MASK);
        if (p[3].key >= 0 && (p[3].value & HWPROBE_EXT_ZICBOZ)) {
            c->zicboz = 1;
            if (p[5].key >= 0)
                c->zicboz_block = p[5].value;
        }
    }
    if (fc_rv_v_usable(c))
        c->vlenb = read_vlenb();
}
