/* uc_jmp.S - fc_uc_guard and fc_uc_longjmp: how fc_copy_user and fc_clear_user
 * (src/usercopy.c) get back out of the fault handler on x86_64, in place of
 * sigsetjmp(env, 0) / siglongjmp.
 *
 * fc_uc_guard(env, fn, a0, a1, a2) calls fn(a0, a1, a2) (the memcpy or memset
 * kernel, or the touch-then-move of overlapping copies) and returns 0; when the
 * handler calls fc_uc_longjmp(env) during fn, it returns 1 instead.
 *
 * Why: on the Intel (Emerald Rapids) VM, fcbench --group user, six processes
 * each: fc_copy_user cost 7.0-7.7 ns above fc_memcpy at 1-256 bytes with glibc
 * 2.36's sigsetjmp (4.7 ns a call through its PLT: it tail-calls __sigjmp_save,
 * which pushes and pops a register to store "no mask saved"; the same register
 * stores here 1.9 ns), 4.3-5.2 ns with a setjmp of our own, 3.3-4.4 with this
 * guard (its caller makes no returns_twice call, so the copy's arguments are
 * not stored before it and loaded again after) and the page bounds left to the
 * handler; the usercopy-small target allows 5.  No signal mask is saved: the
 * handler restores the interrupted mask itself before it jumps.
 *
 * struct uc_jmp (uc_jmp.h), 8-byte words:
 *   0..5  rbx rbp r12 r13 r14 r15   the registers fc_uc_guard's caller expects
 *         kept (fn may have changed them when it faulted)
 *   6     rsp inside fc_uc_guard, where .Lfault expects it
 *   7     the shadow-stack pointer there, 0 when shadow stacks are off (rdsspq
 *         is a no-op then, and on CPUs without CET: %rax stays 0)
 * The words are not mangled as glibc mangles its jmp_buf: the buffer lives only
 * while one checked copy runs, in the frame of fc_copy_user or its helpers,
 * below every buffer of their caller.
 *
 * Under a shadow stack fc_uc_longjmp first pops it back to fc_uc_guard's level
 * (incsspq, at most 255 entries at a time: the kernel's frames, the signal
 * frame, the handler's), since it leaves by a jump, not by the returns the
 * shadow stack expects.  Not run on this project's machines (none has user
 * shadow stacks); the rest is tested by test/test_uc_jmp.c. */
#include "../fc_asm.h"

        .text
        .p2align 4
        .globl  fc_uc_guard
        .hidden fc_uc_guard
        .type   fc_uc_guard, @function
fc_uc_guard:
        .cfi_startproc
        FC_LANDING_PAD
        movq    %rbx, 0(%rdi)
        movq    %rbp, 8(%rdi)
        movq    %r12, 16(%rdi)
        movq    %r13, 24(%rdi)
        movq    %r14, 32(%rdi)
        movq    %r15, 40(%rdi)
        subq    $8, %rsp                /* the call below needs rsp 16-aligned */
        .cfi_adjust_cfa_offset 8
        movq    %rsp, 48(%rdi)
        xorl    %eax, %eax
        rdsspq  %rax
        movq    %rax, 56(%rdi)
        movq    %rsi, %rax
        movq    %rdx, %rdi
        movq    %rcx, %rsi
        movq    %r8, %rdx
        call    *%rax
        addq    $8, %rsp
        .cfi_adjust_cfa_offset -8
        xorl    %eax, %eax
        ret
        .cfi_adjust_cfa_offset 8
.Lfault:                                /* from fc_uc_longjmp, rsp as above */
        addq    $8, %rsp
        .cfi_adjust_cfa_offset -8
        movl    $1, %eax
        ret
        .cfi_endproc
        .size   fc_uc_guard, .-fc_uc_guard

        .p2align 4
        .globl  fc_uc_longjmp
        .hidden fc_uc_longjmp
        .type   fc_uc_longjmp, @function
fc_uc_longjmp:
        .cfi_startproc
        FC_LANDING_PAD
        movq    56(%rdi), %rcx
        testq   %rcx, %rcx
        jz      2f
        rdsspq  %rdx
        subq    %rdx, %rcx              /* saved - current: the deeper entries */
        shrq    $3, %rcx
        jz      2f
        movl    $255, %edx
1:      cmpq    %rdx, %rcx
        cmovbq  %rcx, %rdx              /* min(255, left) */
        incsspq %rdx
        subq    %rdx, %rcx
        jnz     1b
2:      movq    0(%rdi), %rbx
        movq    8(%rdi), %rbp
        movq    16(%rdi), %r12
        movq    24(%rdi), %r13
        movq    32(%rdi), %r14
        movq    40(%rdi), %r15
        movq    48(%rdi), %rsp
        jmp     .Lfault                 /* which returns 1 */
        .cfi_endproc
        .size   fc_uc_longjmp, .-fc_uc_longjmp
