/* stubs.S - the measured call sites of tools/insn-count/count.c.
 *
 * FCIC_NSTUBS stubs, each FCIC_STUB_BYTES long, stub k at fcic_stubs + k * 32.  Stub
 * k is a normal function
 *     void *stub(a0, a1, a2, fn)
 * that executes: begin marker(k); call fn(a0, a1, a2); end marker(k); return.
 * The markers are architectural no-ops carrying k in their immediate field; the
 * TCG plugin insn_count.c recognises them (see there for the encodings) and counts
 * the guest instructions executed between them.  Because every stub has the same
 * shape, the count between the markers is "fn from entry to return" plus a
 * constant (the call instruction, the end marker), which count.c measures with a
 * one-instruction empty function (fcic_empty) and subtracts.  fcic_known (8
 * instructions) is measured the same way as a self-check of the whole chain.
 *
 * The stubs are generated with .rept; the marker immediates come from a counter
 * symbol redefined each round.  Fixed size matters (the C side indexes the table),
 * so riscv64 assembles without compressed instructions here.
 */
#define FCIC_NSTUBS 2048

        .text
#if defined(__aarch64__)
        .globl  fcic_stubs
        .type   fcic_stubs, %function
        .p2align 5
fcic_stubs:
        .set    fcic_k, 0
        .rept   FCIC_NSTUBS
        .p2align 5
        stp     x29, x30, [sp, #-16]!
        mov     x29, sp
        movz    xzr, #fcic_k                    /* begin marker */
        blr     x3
        movz    xzr, #fcic_k, lsl #16           /* end marker */
        ldp     x29, x30, [sp], #16
        ret
        .set    fcic_k, fcic_k + 1
        .endr
        .size   fcic_stubs, . - fcic_stubs

        .globl  fcic_empty
        .type   fcic_empty, %function
        .p2align 5
fcic_empty:
        ret
        .size   fcic_empty, . - fcic_empty

        /* Self-check: exactly FCIC_KNOWN_INSNS (8) instructions from entry to return. */
        .globl  fcic_known
        .type   fcic_known, %function
        .p2align 5
fcic_known:
        .rept   7
        nop
        .endr
        ret
        .size   fcic_known, . - fcic_known

#elif defined(__riscv) && __riscv_xlen == 64
        .option push
        .option norvc
        .option norelax
        .globl  fcic_stubs
        .type   fcic_stubs, @function
        .p2align 5
fcic_stubs:
        .set    fcic_k, 0
        .rept   FCIC_NSTUBS
        .p2align 5
        addi    sp, sp, -16
        sd      ra, 8(sp)
        slti    x0, x0, fcic_k                  /* begin marker */
        jalr    ra, 0(a3)
        sltiu   x0, x0, fcic_k                  /* end marker */
        ld      ra, 8(sp)
        addi    sp, sp, 16
        ret
        .set    fcic_k, fcic_k + 1
        .endr
        .size   fcic_stubs, . - fcic_stubs

        .globl  fcic_empty
        .type   fcic_empty, @function
        .p2align 5
fcic_empty:
        ret
        .size   fcic_empty, . - fcic_empty

        /* Self-check: exactly 8 instructions from entry to return. */
        .globl  fcic_known
        .type   fcic_known, @function
        .p2align 5
fcic_known:
        .rept   7
        nop
        .endr
        ret
        .size   fcic_known, . - fcic_known
        .option pop
#else
#error "insn-count: aarch64 and riscv64 only"
#endif
        .section .note.GNU-stack, "", %progbits
