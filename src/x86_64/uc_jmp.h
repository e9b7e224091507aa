/* uc_jmp.h - the x86_64 jump buffer of fc_copy_user / fc_clear_user (uc_jmp.S):
 * declared once for src/usercopy.c and test/test_uc_jmp.c. */
#ifndef FC_X86_UC_JMP_H
#define FC_X86_UC_JMP_H
#include <stddef.h>
#include <stdint.h>

/* Words 0..5 rbx rbp r12 r13 r14 r15, 6 rsp inside fc_uc_guard, 7 the shadow-stack
 * pointer there (0 when shadow stacks are off): uc_jmp.S says why each. */
struct uc_jmp {
    uint64_t w[8];
};

/* fn(a0, a1, a2) under the buffer: 0 when it returned, 1 when fc_uc_longjmp(buf)
 * was called during it (from the fault handler). */
__attribute__((visibility("hidden"))) int fc_uc_guard(struct uc_jmp *buf, const void *fn, void *a0,
                                                      const void *a1, size_t a2);
__attribute__((noreturn, visibility("hidden"))) void fc_uc_longjmp(struct uc_jmp *buf);
#endif
