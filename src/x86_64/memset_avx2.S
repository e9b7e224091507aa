/* memset_avx2.S - "avx2": memset with 32-byte VEX stores, the sizes up to 256
 * bytes; larger ones jump to fc_memset_x86_avx2_large (the C loop of
 * memset_vec.h, built by memset_avx2.c: aligned stores, non-temporal past
 * nt_threshold).
 *
 * Assumptions: AVX2 enabled by the OS.  Why assembly: the drop-in, as in
 * memmove_avx2.S (dropin_body=avx2: the exported memset is this code, its first
 * compare reading the resolver's bound).
 *
 * Size classes (the C template's, memset_vec.h):
 *   0..15      two overlapping general-register stores of the largest power of
 *              two <= n (8, 4, 2) or one byte; the pattern by multiplication
 *   16..32     two overlapping 16-byte stores (xmm only: no vzeroupper)
 *   33..64     first and last 32 bytes
 *   65..128    two from each end
 *   129..256   four from each end
 *   > 256      fc_memset_x86_avx2_large
 */
#include "kernel_entry.h"

KERNEL_BEGIN(fc_memset_x86_avx2)
        movq    %rdi, %rax
        ENTRY_TEST64(33, .Lmore_32)     /* 0..32 falls through */
        cmpl    $16, %edx               /* n <= 32 here: edx is n */
        jb      .Lless_16
        vmovd   %esi, %xmm0
        vpbroadcastb %xmm0, %xmm0
        vmovdqu %xmm0, (%rdi)
        vmovdqu %xmm0, -16(%rdi,%rdx)
        ret
.Lless_16:
        movzbl  %sil, %ecx
        movabsq $0x0101010101010101, %r8
        imulq   %r8, %rcx
        cmpl    $8, %edx
        jb      .Lless_8
        movq    %rcx, (%rdi)
        movq    %rcx, -8(%rdi,%rdx)
        ret
.Lless_8:
        cmpl    $4, %edx
        jb      .Lless_4
        movl    %ecx, (%rdi)
        movl    %ecx, -4(%rdi,%rdx)
        ret
.Lless_4:
        cmpl    $1, %edx
        ja      .L2_3
        jb      .Lret                   /* n == 0 */
        movb    %cl, (%rdi)
.Lret:
        ret
.L2_3:
        movw    %cx, (%rdi)
        movw    %cx, -2(%rdi,%rdx)
        ret

        .p2align 4
.Lmore_32:
        DROPIN_DIVERT
        vmovd   %esi, %xmm0
        vpbroadcastb %xmm0, %ymm0
        cmpq    $64, %rdx
        ja      .Lmore_64
        vmovdqu %ymm0, (%rdi)
        vmovdqu %ymm0, -32(%rdi,%rdx)
        vzeroupper
        ret

        .p2align 4
.Lmore_64:
        cmpq    $128, %rdx
        ja      .Lmore_128
        vmovdqu %ymm0, (%rdi)
        vmovdqu %ymm0, 32(%rdi)
        vmovdqu %ymm0, -64(%rdi,%rdx)
        vmovdqu %ymm0, -32(%rdi,%rdx)
        vzeroupper
        ret

        .p2align 4
.Lmore_128:
        cmpq    $256, %rdx
        ja      .Lmore_256
        vmovdqu %ymm0, (%rdi)
        vmovdqu %ymm0, 32(%rdi)
        vmovdqu %ymm0, 64(%rdi)
        vmovdqu %ymm0, 96(%rdi)
        vmovdqu %ymm0, -128(%rdi,%rdx)
        vmovdqu %ymm0, -96(%rdi,%rdx)
        vmovdqu %ymm0, -64(%rdi,%rdx)
        vmovdqu %ymm0, -32(%rdi,%rdx)
        vzeroupper
        ret
.Lmore_256:
        vzeroupper
        jmp     fc_memset_x86_avx2_large
KERNEL_END(fc_memset_x86_avx2)
