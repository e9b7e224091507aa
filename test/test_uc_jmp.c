/* test_uc_jmp.c - the x86_64 jump buffer of fc_copy_user/fc_clear_user
 * (src/x86_64/uc_jmp.S), on its own: what the usercopy suites cannot see, because
 * no kernel of ours is known to touch a callee-saved register before it faults.
 *
 * Each case enters from an assembly harness that loads known values into rbx,
 * rbp and r12-r15, calls fc_uc_guard and, after it returns,
 * stores those six registers, the stack pointer's offset from where it was, and
 * the return value.  The guarded function overwrites all six registers and then
 * loads from a PROT_NONE page; the SIGSEGV handler calls fc_uc_longjmp.  Checked:
 *  - guard, no fault: returns 0, the function got its three arguments;
 *  - guard, fault: returns 1 and every register and the stack pointer are as the
 *    harness left them (not the function's garbage);
 *  - under a shadow stack (not on this project's machines) the same cases also
 *    check that the jumps left it consistent: the harness returns normally.
 * Exit status 0 when every check passes; each failure is printed. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "uc_jmp.h"

static struct uc_jmp env __attribute__((used));
static volatile unsigned char *bad_page;
static uint64_t seen_args[3];
static int failures;

/* r[0..5] = rbx rbp r12 r13 r14 r15 after the call, r[6] = rsp after - rsp
 * before, r[7] = the return value. */
struct regs_out {
    uint64_t r[8];
};
/* No suffix: the same text is an immediate in the harness below. */
#define SEED_RBX 0x1111111111111111
#define SEED_RBP 0x2222222222222222
#define SEED_R12 0x3333333333333333
#define SEED_R13 0x4444444444444444
#define SEED_R14 0x5555555555555555
#define SEED_R15 0x6666666666666666
#define STR_(x) #x
#define STR(x) STR_(x)

/* harness_guard(out, fn, a0, a1, a2): the registers seeded, fc_uc_guard(&env, fn,
 * a0, a1, a2), the registers recorded. */
__asm__(".text\n"
        ".p2align 4\n"
        "harness_guard:\n"             /* fn, a0, a1, a2 are where fc_uc_guard wants them */
        "\tpush %rbx\n\tpush %rbp\n\tpush %r12\n\tpush %r13\n\tpush %r14\n\tpush %r15\n"
        "\tsubq $24, %rsp\n"             /* 16-aligned again */
        "\tmovq %rdi, 0(%rsp)\n"         /* out */
        "\tmovq %rsp, 8(%rsp)\n"         /* rsp before */
        "\tleaq env(%rip), %rdi\n"
        "\tmovabsq $" STR(SEED_RBX) ", %rbx\n"
        "\tmovabsq $" STR(SEED_RBP) ", %rbp\n"
        "\tmovabsq $" STR(SEED_R12) ", %r12\n"
        "\tmovabsq $" STR(SEED_R13) ", %r13\n"
        "\tmovabsq $" STR(SEED_R14) ", %r14\n"
        "\tmovabsq $" STR(SEED_R15) ", %r15\n"
        "\tcall fc_uc_guard\n"
        "\tmovq 0(%rsp), %rdi\n"
        "\tmovq %rbx, 0(%rdi)\n\tmovq %rbp, 8(%rdi)\n\tmovq %r12, 16(%rdi)\n"
        "\tmovq %r13, 24(%rdi)\n\tmovq %r14, 32(%rdi)\n\tmovq %r15, 40(%rdi)\n"
        "\tmovq %rsp, %rcx\n\tsubq 8(%rsp), %rcx\n" /* 0 when equal */
        "\tmovq %rcx, 48(%rdi)\n"
        "\tmovl %eax, %eax\n\tmovq %rax, 56(%rdi)\n"
        "\taddq $24, %rsp\n"
        "\tpop %r15\n\tpop %r14\n\tpop %r13\n\tpop %r12\n\tpop %rbp\n\tpop %rbx\n"
        "\tret\n"
        /* clobber_and_fault(p): every callee-saved register overwritten (as a
         * compiled kernel may do before it faults: it would have pushed them),
         * then a load from p.  Never returns when p is bad. */
        ".p2align 4\n"
        "clobber_and_fault:\n"
        "\tendbr64\n"                    /* reached by fc_uc_guard's indirect call */
        "\tpush %rbx\n\tpush %rbp\n\tpush %r12\n\tpush %r13\n\tpush %r14\n\tpush %r15\n"
        "\tmovq $-1, %rbx\n\tmovq $-2, %rbp\n\tmovq $-3, %r12\n"
        "\tmovq $-4, %r13\n\tmovq $-5, %r14\n\tmovq $-6, %r15\n"
        "\tmovzbl (%rdi), %eax\n"
        "\tpop %r15\n\tpop %r14\n\tpop %r13\n\tpop %r12\n\tpop %rbp\n\tpop %rbx\n"
        "\tret\n");
void harness_guard(struct regs_out *out, const void *fn, void *a0, const void *a1, size_t a2);
void clobber_and_fault(const void *p);

static void record_args(void *a0, const void *a1, size_t a2)
{
    seen_args[0] = (uint64_t)(uintptr_t)a0;
    seen_args[1] = (uint64_t)(uintptr_t)a1;
    seen_args[2] = a2;
}

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
    (void)sig;
    (void)ctx;
    if (si->si_addr != (void *)bad_page)
        _exit(3);   /* a fault of the test itself */
    fc_uc_longjmp(&env);
}

static void check(int ok, const char *what)
{
    if (!ok) {
        printf("FAIL: %s\n", what);
        failures++;
    }
}

static void check_regs(const struct regs_out *o, uint64_t ret, const char *what)
{
    static const uint64_t want[6] = {SEED_RBX, SEED_RBP, SEED_R12, SEED_R13, SEED_R14, SEED_R15};
    static const char *const names[6] = {"rbx", "rbp", "r12", "r13", "r14", "r15"};
    char buf[160];
    for (int i = 0; i < 6; i++) {
        snprintf(buf, sizeof buf, "%s: %s is %#llx, want %#llx", what, names[i],
                 (unsigned long long)o->r[i], (unsigned long long)want[i]);
        check(o->r[i] == want[i], buf);
    }
    snprintf(buf, sizeof buf, "%s: rsp moved by %lld", what, (long long)o->r[6]);
    check(o->r[6] == 0, buf);
    snprintf(buf, sizeof buf, "%s: returned %llu, want %llu", what,
             (unsigned long long)o->r[7], (unsigned long long)ret);
    check(o->r[7] == ret, buf);
}

int main(void)
{
    long pg = sysconf(_SC_PAGESIZE);
    void *m = mmap(NULL, (size_t)pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        perror("mmap");
        return 2;
    }
    bad_page = m;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);

    struct regs_out o;
    static unsigned char x;

    memset(&o, 0xa5, sizeof o);
    harness_guard(&o, (const void *)record_args, &x, (const void *)0x1234, 99);
    check_regs(&o, 0, "guard without a fault");
    check(seen_args[0] == (uint64_t)(uintptr_t)&x && seen_args[1] == 0x1234 && seen_args[2] == 99,
          "guard without a fault: the function got other arguments");

    for (int i = 0; i < 3; i++) {   /* again: the handler's frames must not pile up */
        memset(&o, 0xa5, sizeof o);
        harness_guard(&o, (const void *)clobber_and_fault, (void *)bad_page, 0, 0);
        check_regs(&o, 1, "guard with a fault");
    }

    if (failures)
        printf("%d checks failed\n", failures);
    else
        printf("fc_uc_guard, fc_uc_longjmp: all checks pass\n");
    return failures != 0;
}
