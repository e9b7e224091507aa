/* memset_avx512.S - "avx512": memset with EVEX-encoded vectors in registers 16-31
 * (no vzeroupper on return; the C version paid ~0.3-0.6 ns per call for it at
 * 65-512 bytes).  The measurements behind each choice below, and the
 * alternatives that lost, are in docs/kernels-x86_64.md.
 *
 * Assumptions: AVX-512F/BW/VL enabled by the OS, BMI2.
 * Size classes:
 *   0..64      only where the policy sets fc_tun.memset_masked_max (64 on Intel
 *              Sapphire Rapids and later and on Zen 4/5, 0 = never elsewhere): one masked
 *              store behind one size branch (Emerald Rapids, hot fixed sizes: 1.19
 *              times the best peer's time, against 1.69 branch-free).
 *   0..255     no size branch: one byte-masked store of [0, min(n, 64)) and three
 *              plain 64-byte stores at dst + n - 64, dst + 64 and dst + n - 128,
 *              each sent by a cmov to a scratch line in the red zone when it
 *              would reach outside [dst, dst + n) (n < 64, n < 128).  The fleet's
 *              memset sizes change call to call, so a mispredicted size ladder is
 *              what they cost (MemsetGoogleD: 0.98x glibc with the ladder,
 *              1.47-1.62x without).
 *              With dst in the last 64 bytes of a page and n < 64, the masked
 *              store is anchored at dst + n - 64 (mask from the top) so that no
 *              masked-out byte lies in the next page (~420 ns when that page was
 *              not mapped).
 *   256        four stores (bzhi reads 8 bits of the index: 256 would be 0)
 *   257..512   four from each end
 *   513..1024  the first eight and the last four (to 768) or eight, straight-line
 *              (rep stosb and non-temporal stores are not considered below
 *              1025 B, whatever the tunables say)
 *   > 1024     first vector unaligned, then four 64-byte-aligned stores per
 *              iteration, the last four vectors stored from the end (no remainder
 *              loop); non-temporal from fc_tun.nt_threshold (no read of the
 *              destination lines; 8 MiB: 94 us vs glibc's 134 us measured here).
 *   rep stosb  in [rep_stosb_threshold, rep_stosb_stop) and [rep_stosb_resume,
 *              nt_threshold), over the whole range: the windows the policy
 *              measured per CPU (src/x86_64/policy.c).
 * c is converted to unsigned char by the byte broadcast. */
#include "fc_tun_offsets.h"
#define NT_THRESHOLD (fc_tun + FC_TUN_NT_THRESHOLD)
#define REP_STOSB_THRESHOLD (fc_tun + FC_TUN_REP_STOSB_THRESHOLD)
#define REP_STOSB_STOP (fc_tun + FC_TUN_REP_STOSB_STOP)
#define REP_STOSB_RESUME (fc_tun + FC_TUN_REP_STOSB_RESUME)
#define MEMSET_MASKED_MAX (fc_tun + FC_TUN_MEMSET_MASKED_MAX)

#include "kernel_entry.h"

/* MASKED_TEST: n <= memset_masked_max (0, or 64 on Intel and Zen 4/5) goes to .Lone_masked.
 * In the drop-in the word compared with is FC_DROPIN_LIMIT: memset_masked_max + 1
 * when the resolver chose this kernel (src/exports.c), 0 when it did not, so
 * that no call takes the branch and every one meets DROPIN_DIVERT below it.  The
 * drop-in's only load on its commonest path, the masked one, is then this
 * compare's, as in fc_memset (measured against the size test at 256 B, which
 * loaded a second word: see docs/kernels-x86_64.md). */
#ifdef FC_DROPIN_NAME
#define MASKED_TEST                                                               \
        cmpq    FC_DROPIN_LIMIT(%rip), %rdx;                                      \
        jb      .Lone_masked
#else
#define MASKED_TEST                                                               \
        cmpq    MEMSET_MASKED_MAX(%rip), %rdx;                                    \
        jbe     .Lone_masked
#endif

KERNEL_BEGIN(fc_memset_x86_avx512)
        movq    %rdi, %rax
        cmpq    $255, %rdx
        ja      .Lmore_255
        movl    %edi, %ecx
        andl    $4095, %ecx
        cmpl    $4096 - 64, %ecx
        ja      .Lsmall_page_end        /* [dst, dst+64) spans two pages */
        MASKED_TEST
        DROPIN_DIVERT
        vpbroadcastb %esi, %zmm16
.Lsmall_body:
        movq    $-1, %rcx
        bzhiq   %rdx, %rcx, %rcx        /* [0, min(n, 64)): all 64 for 64 <= n < 256 */
        kmovq   %rcx, %k1
        leaq    -64(%rsp), %r8
        andq    $-64, %r8               /* scratch line, inside the 128-byte red zone */
        leaq    -64(%rdi,%rdx), %r9
        leaq    64(%rdi), %r10
        leaq    -128(%rdi,%rdx), %r11
        cmpq    $64, %rdx
        cmovbq  %r8, %r9                /* n < 64: [n-64, n) starts before dst */
        cmpq    $128, %rdx
        cmovbeq %r8, %r10               /* n <= 128: [64, n) and [n-128, n-64) */
        cmovbeq %r8, %r11               /* are covered already or out of range */
        vmovdqu8 %zmm16, (%rdi){%k1}
        vmovdqu64 %zmm16, (%r9)
        vmovdqu64 %zmm16, (%r10)
        vmovdqu64 %zmm16, (%r11)
        ret

        /* The CPUs whose policy sets memset_masked_max (Intel Sapphire Rapids
         * and later, Zen 4 and 5): up to 64 bytes one masked store and nothing else. */
.Lone_masked:
        vpbroadcastb %esi, %zmm16
        movq    $-1, %rcx
        bzhiq   %rdx, %rcx, %rcx
        kmovq   %rcx, %k1
        vmovdqu8 %zmm16, (%rdi){%k1}
        ret

        /* dst in the last 64 bytes of a page.  n >= 64: the masked store is
         * full, nothing reaches past dst + n.  n < 64: one store anchored at
         * dst + n - 64 with the top n bytes: [dst + n - 64, dst) is in dst's page
         * (dst is past offset 4032) and not written. */
        .p2align 6
.Lsmall_page_end:
        DROPIN_DIVERT
        vpbroadcastb %esi, %zmm16
        cmpq    $64, %rdx
        jae     .Lsmall_body
        movq    $-1, %rcx
        shrxq   %rdx, %rcx, %rcx
        notq    %rcx                    /* top n bits (none for n = 0) */
        kmovq   %rcx, %k1
        vmovdqu8 %zmm16, -64(%rdi,%rdx){%k1}
        ret

        /* 64-byte aligned as memmove_avx512.S's size classes (there it measured
         * 0.82x the time at 65..255 B for fc_memcpy); here it measured no change
         * (0.99-1.00, Intel SPR-class VM), and keeps the classes where an edit
         * above cannot move them. */
        .p2align 6
.Lmore_255:
        DROPIN_DIVERT
        vpbroadcastb %esi, %zmm16
        cmpq    $256, %rdx
        ja      .Lmore_256
        vmovdqu64 %zmm16, (%rdi)
        vmovdqu64 %zmm16, 64(%rdi)
        vmovdqu64 %zmm16, 128(%rdi)
        vmovdqu64 %zmm16, 192(%rdi)
        ret

        .p2align 6
.Lmore_256:
        cmpq    $512, %rdx
        ja      .Lmore_512
        vmovdqu64 %zmm16, (%rdi)
        vmovdqu64 %zmm16, 64(%rdi)
        vmovdqu64 %zmm16, 128(%rdi)
        vmovdqu64 %zmm16, 192(%rdi)
        vmovdqu64 %zmm16, -256(%rdi,%rdx)
        vmovdqu64 %zmm16, -192(%rdi,%rdx)
        vmovdqu64 %zmm16, -128(%rdi,%rdx)
        vmovdqu64 %zmm16, -64(%rdi,%rdx)
        ret

        .p2align 4
.Lmore_512:
        cmpq    $1024, %rdx
        jbe     .Lupto_1024
        leaq    -256(%rdi,%rdx), %r10   /* where the last four vectors go */
        cmpq    NT_THRESHOLD(%rip), %rdx
        jae     1f
        cmpq    REP_STOSB_THRESHOLD(%rip), %rdx
        jb      1f
        cmpq    REP_STOSB_STOP(%rip), %rdx
        jb      .Lrep_stosb
        cmpq    REP_STOSB_RESUME(%rip), %rdx
        jae     .Lrep_stosb
1:      vmovdqu64 %zmm16, (%rdi)
        addq    $64, %rdi
        andq    $-64, %rdi              /* next 64-byte boundary, <= 64 on */
        cmpq    NT_THRESHOLD(%rip), %rdx
        jae     .Lnt_loop
        .p2align 4
.Lloop:
        vmovdqa64 %zmm16, (%rdi)
        vmovdqa64 %zmm16, 64(%rdi)
        vmovdqa64 %zmm16, 128(%rdi)
        vmovdqa64 %zmm16, 192(%rdi)
        addq    $256, %rdi
        cmpq    %r10, %rdi
        jb      .Lloop
.Ltail:
        vmovdqu64 %zmm16, (%r10)
        vmovdqu64 %zmm16, 64(%r10)
        vmovdqu64 %zmm16, 128(%r10)
        vmovdqu64 %zmm16, 192(%r10)
        ret

        .p2align 4
.Lnt_loop:
        vmovntdq %zmm16, (%rdi)
        vmovntdq %zmm16, 64(%rdi)
        vmovntdq %zmm16, 128(%rdi)
        vmovntdq %zmm16, 192(%rdi)
        addq    $256, %rdi
        cmpq    %r10, %rdi
        jb      .Lnt_loop
        sfence
        jmp     .Ltail

        /* rep stosb over the whole range from dst, as glibc does.  A vector
         * head stored first (to start rep stosb 64-byte aligned) made rep stosb
         * wait for that store's cache miss, one DRAM round trip: cold 4 KiB took
         * ~340 ns that way against glibc's 230; storing the head after it
         * instead measured no better than this (2-24 KiB, hot and cold, within
         * noise), so no head at all. */
.Lrep_stosb:
        movq    %rdx, %rcx
        movq    %rax, %r9
        movl    %esi, %eax
        rep stosb
        movq    %r9, %rax
        ret

        /* 513..1024: the first eight vectors and the last four (to 768) or
         * eight, none stored twice at 768 (the 8 + 8 form stored four twice
         * there: 768 B 0.77x glibc's speed, against the loop's 0.92x).  Against
         * the loop and its set-up (5-process fcbench A/Bs, Zen 5 VM): 768 B
         * 0.92-0.93x -> 1.00x glibc's speed, 1024 B 0.93-0.95x -> 1.00-1.02x,
         * misaligned 768 / 1024 B 0.93 / 0.94x the time; Uniform384To4096 (a
         * seventh of its calls here) 1.01-1.03x the time in random order, even
         * at 4096 and 512 calls.  By the worse-ratio rule (1.07 against 1.03)
         * it stays.  It is the jump target, so that a call above 1024 B takes
         * no more taken branches than before (measured no different from the
         * class as the fall-through). */
        .p2align 4
.Lupto_1024:
        vmovdqu64 %zmm16, (%rdi)
        vmovdqu64 %zmm16, 64(%rdi)
        vmovdqu64 %zmm16, 128(%rdi)
        vmovdqu64 %zmm16, 192(%rdi)
        vmovdqu64 %zmm16, 256(%rdi)
        vmovdqu64 %zmm16, 320(%rdi)
        vmovdqu64 %zmm16, 384(%rdi)
        vmovdqu64 %zmm16, 448(%rdi)
        cmpq    $768, %rdx
        jbe     2f
        vmovdqu64 %zmm16, -512(%rdi,%rdx)
        vmovdqu64 %zmm16, -448(%rdi,%rdx)
        vmovdqu64 %zmm16, -384(%rdi,%rdx)
        vmovdqu64 %zmm16, -320(%rdi,%rdx)
2:      vmovdqu64 %zmm16, -256(%rdi,%rdx)
        vmovdqu64 %zmm16, -192(%rdi,%rdx)
        vmovdqu64 %zmm16, -128(%rdi,%rdx)
        vmovdqu64 %zmm16, -64(%rdi,%rdx)
        ret

KERNEL_END(fc_memset_x86_avx512)
