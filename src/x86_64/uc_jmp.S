/* uc_jmp.S - fc_uc_guard, fc_uc_setjmp and fc_uc_longjmp: how fc_copy_user and
 * fc_clear_user (src/usercopy.c) get back out of the fault handler on x86_64, in
 * place of sigsetjmp(env, 0) / siglongjmp.
 *
 * fc_uc_guard(env, fn, a0, a1, a2) calls fn(a0, a1, a2) (the memcpy or memset
 * kernel) and returns 0; when the handler calls fc_uc_longjmp(env, 1) during fn,
 * it returns 1 instead.  fc_uc_setjmp(env) is setjmp's contract (returns 0, then
 * again 1), for the slow paths whose guarded part is C code.
 *
 * Why: on the Intel (Emerald Rapids) VM, fcbench --group user, six processes
 * each: fc_copy_user cost 7.0-7.7 ns above fc_memcpy at 1-256 bytes with glibc
 * 2.36's sigsetjmp (4.7 ns a call through its PLT: it tail-calls __sigjmp_save,
 * which pushes and pops a register to store "no mask saved"; the same stores
 * here 1.9 ns), 4.3-5.2 ns with fc_uc_setjmp, and the usercopy-small target
 * allows 5.  fc_uc_guard also spares the caller what a returns_twice call costs
 * it: the copy's arguments stored before it and loaded again after.  No signal
 * mask is saved: the handler restores the interrupted mask itself before it
 * jumps.
 *
 * struct uc_jmp (src/usercopy.c), 8-byte words:
 *   0..5  rbx rbp r12 r13 r14 r15   the registers the caller expects kept
 *   6     rsp at the landing point
 *   7     the landing point: after fc_uc_setjmp's call, or fc_uc_guard's .Lfault
 *   8     the shadow-stack pointer at the landing point, 0 when shadow stacks
 *         are off (rdsspq is a no-op then, and on CPUs without CET: %rax stays 0)
 * The words are not mangled as glibc mangles its jmp_buf: the buffer lives only
 * while one checked copy runs, in the frame of fc_copy_user or its helpers,
 * below every buffer of their caller.
 *
 * Under a shadow stack fc_uc_longjmp first pops it back to the landing point
 * (incsspq, at most 255 entries at a time: the kernel's frames, the signal
 * frame, the handler's), since it leaves by a jump, not by the returns the
 * shadow stack expects.  The landing points are reached by an indirect jump, so
 * they are landing pads for IBT: .Lfault starts with one, and the compiler puts
 * one after each call of a returns_twice function under -fcf-protection=branch. */
#include "../fc_asm.h"

        .text
        .p2align 4
        .globl  fc_uc_setjmp
        .hidden fc_uc_setjmp
        .type   fc_uc_setjmp, @function
fc_uc_setjmp:
        .cfi_startproc
        FC_LANDING_PAD
        movq    %rbx, 0(%rdi)
        movq    %rbp, 8(%rdi)
        movq    %r12, 16(%rdi)
        movq    %r13, 24(%rdi)
        movq    %r14, 32(%rdi)
        movq    %r15, 40(%rdi)
        leaq    8(%rsp), %rdx
        movq    %rdx, 48(%rdi)
        movq    (%rsp), %rdx
        movq    %rdx, 56(%rdi)
        xorl    %eax, %eax
        rdsspq  %rax
        testq   %rax, %rax
        jz      1f
        addq    $8, %rax                /* past our own return address */
1:      movq    %rax, 64(%rdi)
        xorl    %eax, %eax
        ret
        .cfi_endproc
        .size   fc_uc_setjmp, .-fc_uc_setjmp

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
        leaq    .Lfault(%rip), %rax
        movq    %rax, 56(%rdi)
        xorl    %eax, %eax
        rdsspq  %rax
        movq    %rax, 64(%rdi)
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
.Lfault:
        FC_LANDING_PAD
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
        movq    64(%rdi), %rcx
        testq   %rcx, %rcx
        jz      2f
        rdsspq  %rdx
        subq    %rdx, %rcx              /* landing - current: the deeper entries */
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
        movl    %esi, %eax
        jmpq    *56(%rdi)
        .cfi_endproc
        .size   fc_uc_longjmp, .-fc_uc_longjmp
