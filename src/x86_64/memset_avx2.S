/* memset_avx2.S - "avx2": memset with 32-byte VEX stores, the sizes up to 256
 * bytes; larger ones jump to fc_memset_x86_avx2_large (the C loop of
 * memset_vec.h, built by memset_avx2.c: aligned stores, non-temporal past
 * nt_start).
 *
 * Assumptions: AVX2 enabled by the OS.  Why assembly: the drop-in, as in
 * memmove_avx2.S (dropin_body=avx2: the exported memset is this code, its first
 * compare reading the resolver's bound).
 *
 * Size classes (the C template's, memset_vec.h):
 *   0..15      two overlapping general-register stores of 8 bytes (9..15) or 4
 *              (4..8), or bytes 0, n/2, n-1 (1..3); the pattern by multiplication
 *   16..32     two overlapping 16-byte stores (xmm only: no vzeroupper)
 *   33..64     first and last 32 bytes
 *   65..128    two from each end
 *   129..256   four from each end
 *   > 256      fc_memset_x86_avx2_large
 */
#include "kernel_entry.h"

/* FC_AVX2_KEEP_UPPER (set by memset_avx2_keepupper.S): this code again as the
 * "avx2_keepupper" kernel, without vzeroupper (see there). */
#ifdef FC_AVX2_KEEP_UPPER
#define AVX2_KERNEL fc_memset_x86_avx2_keepupper
#define VZEROUPPER
#else
#define AVX2_KERNEL fc_memset_x86_avx2
#define VZEROUPPER vzeroupper
#endif

KERNEL_BEGIN(AVX2_KERNEL)
        movq    %rdi, %rax
        /* The size tree (both kernels): n >= 65 first (in a drop-in whose
         * resolver chose another variant, every n: the divert is at
         * .Lmore_64), then 33..64 against 0..32, 16..32 against 0..15, then
         * 9..15, 4..8, 1..3, 0: the fewest expected mispredicts per call over
         * the 20 fleet distributions (15.8 against 17.6 for n >= 33 first).
         * Random-order mixes 0.92x the time (Zen 1, docs/evidence/zen1.md). */
        ENTRY_TEST64(65, .Lmore_64)
        cmpl    $33, %edx               /* n <= 64 here: edx is n */
        jae     .L33_64
        cmpl    $16, %edx               /* n <= 32 here: edx is n */
        jb      .Lless_16
        vmovd   %esi, %xmm0
        vpbroadcastb %xmm0, %xmm0
        vmovdqu %xmm0, (%rdi)
        vmovdqu %xmm0, -16(%rdi,%rdx)
        ret
        /* 0..15 starts the second 64-byte line and fits in it: in the drop-in,
         * whose first compare is 3 bytes longer, the jb below straddled two
         * lines, and 0..15 B memsets took 5.2-6.7 ns against 4.0-4.9 for
         * fc_memset (the same instructions, Zen 1 VM). */
        .p2align 5
.Lless_16:
        movzbl  %sil, %ecx
        movabsq $0x0101010101010101, %r8
        imulq   %r8, %rcx
        /* 9..15 and 4..8, not 8..15 and 4..7: the fleet's commonest small
         * memsets are 4 and 8 bytes (MemsetGoogleB: 45% of its calls), which
         * then take one path, and a random mix mispredicts the split less
         * (AOCL-LibMem splits here too). */
        cmpl    $9, %edx
        jb      .Lless_9
        movq    %rcx, (%rdi)
        movq    %rcx, -8(%rdi,%rdx)
        ret
.Lless_9:
        cmpl    $4, %edx
        jb      .Lless_4
        movl    %ecx, (%rdi)
        movl    %ecx, -4(%rdi,%rdx)
        ret
        /* 1..3 without a branch between them: bytes 0, n/2 and n-1 */
.Lless_4:
        testl   %edx, %edx
        jz      .Lret                   /* n == 0 */
        movl    %edx, %r8d
        shrl    $1, %r8d
        movb    %cl, (%rdi)
        movb    %cl, (%rdi,%r8)
        movb    %cl, -1(%rdi,%rdx)
.Lret:
        ret

        .p2align 5                      /* 33..64: within one 64-byte line */
.L33_64:
        vmovd   %esi, %xmm0
        vpbroadcastb %xmm0, %ymm0
        vmovdqu %ymm0, (%rdi)
        vmovdqu %ymm0, -32(%rdi,%rdx)
        VZEROUPPER
        ret

        /* 65..128 and 129..256 start 64-byte lines: at 32 mod 64, the 65..128
         * memset spanned two and took 1.2x the time at 96 and 128 B (Zen 1). */
        .p2align 6
.Lmore_64:
        DROPIN_DIVERT
        vmovd   %esi, %xmm0
        vpbroadcastb %xmm0, %ymm0
        cmpq    $128, %rdx
        ja      .Lmore_128
        vmovdqu %ymm0, (%rdi)
        vmovdqu %ymm0, 32(%rdi)
        vmovdqu %ymm0, -64(%rdi,%rdx)
        vmovdqu %ymm0, -32(%rdi,%rdx)
        VZEROUPPER
        ret

        .p2align 6
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
        VZEROUPPER
        ret
.Lmore_256:
        VZEROUPPER
        jmp     fc_memset_x86_avx2_large
KERNEL_END(AVX2_KERNEL)
