/* memmove_avx2.S - "avx2": memmove (= memcpy) with 32-byte VEX vectors, the
 * sizes up to 256 bytes; larger copies jump to fc_memmove_x86_avx2_large (the C
 * loop of memmove_vec.h, built by memmove_avx2.c: 4K-aliasing backward copies,
 * non-temporal stores).
 *
 * Assumptions: AVX2 enabled by the OS (XGETBV).  The choice of every CPU with
 * AVX2 and without the avx512 variant: AMD Zen 1-3, Intel client cores and Intel
 * servers before Sapphire Rapids.
 *
 * Why assembly: the drop-in.  In a build whose exported names carry this kernel
 * (meson option dropin_body=avx2, the default on a build machine without the
 * avx512 variant), the exported memcpy and memmove are this code again with its
 * first compare reading the bound the resolver set (ENTRY_TEST64), so a CPU that
 * chose avx2 runs it with nothing before it.  Through the avx512 body such a CPU
 * paid the divert on every call (0-64 B: 1.3-1.7x glibc's time against 0.8-1.1x;
 * Zen 1, docs/evidence/zen1.md).
 *
 * Size classes (each loads everything before its first store, so overlapping
 * buffers give memmove's result and memcpy == memmove; the same classes as the
 * C template, memmove_vec.h):
 *   0..32      two overlapping loads of 16 bytes (17..32), 8 (9..16) or 4 (4..8),
 *              or bytes 0, n/2, n-1 (1..3); no ymm register, so no vzeroupper
 *   33..64     first and last 32 bytes
 *   65..128    first two and last two 32-byte vectors
 *   129..256   first four and last four
 *   > 256      fc_memmove_x86_avx2_large (loop of four vectors, aligned stores)
 * vzeroupper after every ymm use: Intel cores pay for SSE code that follows a
 * dirty upper state.
 */
#include "kernel_entry.h"

/* FC_AVX2_KEEP_UPPER (set by memmove_avx2_keepupper.S): this code again as the
 * "avx2_keepupper" kernel, without vzeroupper (see there). */
#ifdef FC_AVX2_KEEP_UPPER
#define AVX2_KERNEL fc_memmove_x86_avx2_keepupper
#define VZEROUPPER
#else
#define AVX2_KERNEL fc_memmove_x86_avx2
#define VZEROUPPER vzeroupper
#endif

KERNEL_BEGIN(AVX2_KERNEL)
        movq    %rdi, %rax
        /* n >= 65 (in a drop-in whose resolver chose another variant: every n)
         * to .Lmore_64; then 33..64 apart from 0..32, which falls through.  The
         * split points are where the fleet's random-order mixes mispredict
         * least: see the tree comment in memset_avx2.S. */
        ENTRY_TEST64(65, .Lmore_64)
        cmpl    $33, %edx               /* n <= 64 here: edx is n */
        jae     .L33_64
        /* 16 goes with 9..15 (two 8-byte moves), not with 17..32: a memmove
         * of 16 B that loads half of the last call's store cannot forward a
         * 16-byte load from it, 8-byte loads can (fcbench overlap/16 10.0 ns
         * against 3.6; Zen 1, docs/evidence/zen1.md). */
        cmpl    $17, %edx               /* n <= 32 here: edx is n */
        jb      .Lless_17
        vmovdqu (%rsi), %xmm0
        vmovdqu -16(%rsi,%rdx), %xmm1
        vmovdqu %xmm0, (%rdi)
        vmovdqu %xmm1, -16(%rdi,%rdx)
        ret
        /* 9..16, 4..8 (not 8..15, 4..7): 8 goes with 4, see memset_avx2.S.
         * 0..16 starts the second 64-byte line (as in memset_avx2.S: no
         * instruction of it straddles two lines). */
        .p2align 5
.Lless_17:
        cmpl    $9, %edx
        jb      .Lless_9
        movq    (%rsi), %rcx
        movq    -8(%rsi,%rdx), %rsi
        movq    %rcx, (%rdi)
        movq    %rsi, -8(%rdi,%rdx)
        ret
.Lless_9:
        cmpl    $4, %edx
        jb      .Lless_4
        movl    (%rsi), %ecx
        movl    -4(%rsi,%rdx), %esi
        movl    %ecx, (%rdi)
        movl    %esi, -4(%rdi,%rdx)
        ret
        /* 1..3 without a branch between them: bytes 0, n/2 and n-1 (the same
         * byte twice or thrice for n < 3), all loaded first; its own 32 bytes
         * (it does not fit in the line with 4..16) */
        .p2align 5
.Lless_4:
        testl   %edx, %edx
        jz      .Lret                   /* n == 0 */
        movl    %edx, %r8d
        shrl    $1, %r8d
        movzbl  (%rsi), %ecx
        movzbl  (%rsi,%r8), %r9d
        movzbl  -1(%rsi,%rdx), %esi
        movb    %cl, (%rdi)
        movb    %r9b, (%rdi,%r8)
        movb    %sil, -1(%rdi,%rdx)
.Lret:
        ret

        .p2align 5                      /* 33..64: within one 64-byte line */
.L33_64:
        vmovdqu (%rsi), %ymm0
        vmovdqu -32(%rsi,%rdx), %ymm1
        vmovdqu %ymm0, (%rdi)
        vmovdqu %ymm1, -32(%rdi,%rdx)
        VZEROUPPER
        ret

        /* 65..128 and 129..256 start 64-byte lines: at 32 mod 64, the 65..128
         * memset spanned two and took 1.2x the time at 96 and 128 B (Zen 1). */
        .p2align 6
.Lmore_64:
        DROPIN_DIVERT
        cmpq    $128, %rdx
        ja      .Lmore_128
        vmovdqu (%rsi), %ymm0
        vmovdqu 32(%rsi), %ymm1
        vmovdqu -64(%rsi,%rdx), %ymm2
        vmovdqu -32(%rsi,%rdx), %ymm3
        vmovdqu %ymm0, (%rdi)
        vmovdqu %ymm1, 32(%rdi)
        vmovdqu %ymm2, -64(%rdi,%rdx)
        vmovdqu %ymm3, -32(%rdi,%rdx)
        VZEROUPPER
        ret

        .p2align 6
.Lmore_128:
        cmpq    $256, %rdx
        ja      .Lmore_256
        vmovdqu (%rsi), %ymm0
        vmovdqu 32(%rsi), %ymm1
        vmovdqu 64(%rsi), %ymm2
        vmovdqu 96(%rsi), %ymm3
        vmovdqu -128(%rsi,%rdx), %ymm4
        vmovdqu -96(%rsi,%rdx), %ymm5
        vmovdqu -64(%rsi,%rdx), %ymm6
        vmovdqu -32(%rsi,%rdx), %ymm7
        vmovdqu %ymm0, (%rdi)
        vmovdqu %ymm1, 32(%rdi)
        vmovdqu %ymm2, 64(%rdi)
        vmovdqu %ymm3, 96(%rdi)
        vmovdqu %ymm4, -128(%rdi,%rdx)
        vmovdqu %ymm5, -96(%rdi,%rdx)
        vmovdqu %ymm6, -64(%rdi,%rdx)
        vmovdqu %ymm7, -32(%rdi,%rdx)
        VZEROUPPER
        ret
.Lmore_256:
        jmp     fc_memmove_x86_avx2_large
KERNEL_END(AVX2_KERNEL)
