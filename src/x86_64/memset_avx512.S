/* memset_avx512.S - "avx512": memset with EVEX-encoded vectors in registers 16-31
 * (no vzeroupper on return).  What each size class does and why:
 * docs/kernels-x86_64.md; the readings and the alternatives that lost:
 * docs/evidence/.
 *
 * Assumptions: AVX-512F/BW/VL enabled by the OS, BMI2.
 * Size classes:
 *   0..64      only where the policy sets fc_tun.memset_masked_max (64 on Intel
 *              Sapphire Rapids and later and on Zen 4/5, 0 = never elsewhere): one masked
 *              store behind one size branch.
 *   0..255     no size branch: one byte-masked store of [0, min(n, 64)) and three
 *              plain 64-byte stores at dst + n - 64, dst + 64 and dst + n - 128,
 *              each sent by a cmov to a scratch line in the red zone when it
 *              would reach outside [dst, dst + n) (n < 64, n < 128).  The fleet's
 *              memset sizes change call to call, so a mispredicted size ladder is
 *              what they cost.
 *              With dst in the last 64 bytes of a page and n < 64, the masked
 *              store is anchored at dst + n - 64 (mask from the top) so that no
 *              masked-out byte lies in the next page (slow when that page is not
 *              mapped).
 *   256        four stores (bzhi reads 8 bits of the index: 256 would be 0)
 *   257..512   four from each end
 *   513..1024  the first eight and the last four (to 768) or eight, straight-line
 *              (rep stosb and non-temporal stores are not considered below
 *              1025 B, whatever the tunables say)
 *   > 1024     first vector unaligned, then four 64-byte-aligned stores per
 *              iteration, the last four vectors stored from the end (no remainder
 *              loop); non-temporal from fc_tun.nt_start (no read of the
 *              destination lines).
 *   rep stosb  in [rep_stosb_start, rep_stosb_stop) and [rep_stosb_high_start,
 *              nt_start), over the whole range: the profile row's windows
 *              (src/x86_64/profiles.c).
 * c is converted to unsigned char by the byte broadcast. */
#include "fc_tun_offsets.h"
#define NT_START (fc_tun + FC_TUN_NT_START)
#define REP_STOSB_START (fc_tun + FC_TUN_REP_STOSB_START)
#define REP_STOSB_STOP (fc_tun + FC_TUN_REP_STOSB_STOP)
#define REP_STOSB_HIGH_START (fc_tun + FC_TUN_REP_STOSB_HIGH_START)
#define MEMSET_MASKED_MAX (fc_tun + FC_TUN_MEMSET_MASKED_MAX)
#define MEMSET_ADAPTIVE_START (fc_tun + FC_TUN_MEMSET_ADAPTIVE_START)
#define MEMSET_ADAPTIVE_STOP (fc_tun + FC_TUN_MEMSET_ADAPTIVE_STOP)

#include "kernel_entry.h"

/* FC_MEMSET_ONE_BRANCH (memset_avx512_1branch.S, dropin_body=avx512_1branch): this code
 * again as "avx512_1branch", with the one-branch entry below. */
#ifdef FC_MEMSET_ONE_BRANCH
#define SET_KERNEL fc_memset_x86_avx512_1branch
#else
#define SET_KERNEL fc_memset_x86_avx512
#endif

#include "memset_adapt.h" /* fc_x86_memset_adapt's layout */
#define ADAPT_COST FC_ADAPT_COST

/* MASKED_TEST: n <= memset_masked_max (0, or 64 on Intel and Zen 4/5) goes to .Lone_masked.
 * In the drop-in the word compared with is FC_DROPIN_LIMIT: memset_masked_max + 1
 * when the resolver chose this kernel (src/exports.c), 0 when it did not, so
 * that no call takes the branch and every one meets DROPIN_DIVERT below it: the
 * drop-in's only load on its commonest path is this compare's, as in fc_memset
 * (docs/kernels-x86_64.md, "The drop-in entry"). */
#ifdef FC_DROPIN_NAME
#define MASKED_TEST                                                               \
        cmpq    FC_DROPIN_LIMIT(%rip), %rdx;                                      \
        jb      .Lone_masked
#else
#define MASKED_TEST                                                               \
        cmpq    MEMSET_MASKED_MAX(%rip), %rdx;                                    \
        jbe     .Lone_masked
#endif

KERNEL_BEGIN(SET_KERNEL)
#ifdef FC_MEMSET_ONE_BRANCH
        /* "avx512_1branch" (Zen 5's row): the same kernel behind another entry.
         * One compare, on n with 4096 added when [dst, dst+64) spans two pages,
         * sends all but the one-masked-store sizes to .Lother; entry to ret fits
         * one 64-byte line.  Fixed 0-64 B 0.79-0.89x the avx512 entry's time
         * (Zen 5, docs/evidence/zen5.md). */
        movq    %rdi, %rax
        leal    63(%rdi), %ecx
        xorl    %edi, %ecx
        andl    $4096, %ecx             /* bit 12 flips: dst + 63 is in the next page */
        orq     %rdx, %rcx
#ifdef FC_DROPIN_NAME
        cmpq    FC_DROPIN_LIMIT(%rip), %rcx     /* memset_masked_max + 1, or 0 */
        jae     .Lother
#else
        cmpq    MEMSET_MASKED_MAX(%rip), %rcx
        ja      .Lother
#endif
        vpbroadcastb %esi, %zmm16
        orq     $-1, %r9                /* 3 bytes fewer than movq $-1 */
        bzhiq   %rdx, %r9, %rcx
        kmovq   %rcx, %k1
        vmovdqu8 %zmm16, (%rdi){%k1}
        ret

        /* 65..255 B with plain stores, no size branch: [0, 64), [n-64, n),
         * [64, 128) and [n-128, n-64), the last two sent to the red zone's
         * scratch line when n <= 128.  Then the page-end path and, where
         * memset_masked_max is 0, 0..64 B, both with n <= 64. */
        .p2align 6
.Lother:
        DROPIN_DIVERT
        vpbroadcastb %esi, %zmm16
        cmpq    $255, %rdx
        ja      .Lmore_255_body
        cmpq    $64, %rdx
        jbe     .Lsmall_lo
        leaq    -64(%rsp), %r8
        andq    $-64, %r8
        leaq    64(%rdi), %r10
        leaq    -128(%rdi,%rdx), %r11
        cmpq    $128, %rdx
        cmovbeq %r8, %r10
        cmovbeq %r8, %r11
        vmovdqu64 %zmm16, (%rdi)
        vmovdqu64 %zmm16, -64(%rdi,%rdx)
        vmovdqu64 %zmm16, (%r10)
        vmovdqu64 %zmm16, (%r11)
        ret
.Lsmall_lo:
        cmpq    $4096, %rcx
        jae     .Lsmall_page_end_body
#else
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
#endif
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
#ifndef FC_MEMSET_ONE_BRANCH
.Lone_masked:
        vpbroadcastb %esi, %zmm16
        movq    $-1, %rcx
        bzhiq   %rdx, %rcx, %rcx
        kmovq   %rcx, %k1
        vmovdqu8 %zmm16, (%rdi){%k1}
        ret
#endif

        /* dst in the last 64 bytes of a page.  n >= 64: the masked store is
         * full, nothing reaches past dst + n.  n < 64: one store anchored at
         * dst + n - 64 with the top n bytes: [dst + n - 64, dst) is in dst's page
         * (dst is past offset 4032) and not written. */
        .p2align 6
.Lsmall_page_end:
        DROPIN_DIVERT
        vpbroadcastb %esi, %zmm16
.Lsmall_page_end_body:
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
.Lmore_255_body:
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
        cmpq    MEMSET_ADAPTIVE_STOP(%rip), %rdx
        jae     2f
        cmpq    MEMSET_ADAPTIVE_START(%rip), %rdx
        jae     .Ladaptive
2:      cmpq    NT_START(%rip), %rdx
        jae     .Lvector
        cmpq    REP_STOSB_START(%rip), %rdx
        jb      .Lvector
        cmpq    REP_STOSB_STOP(%rip), %rdx
        jb      .Lrep_stosb
        cmpq    REP_STOSB_HIGH_START(%rip), %rdx
        jae     .Lrep_stosb
.Lvector:
        vmovdqu64 %zmm16, (%rdi)
        addq    $64, %rdi
        andq    $-64, %rdi              /* next 64-byte boundary, <= 64 on */
        cmpq    NT_START(%rip), %rdx
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

        /* The adaptive window, [memset_adaptive_start, memset_adaptive_stop): the
         * vector loop or rep stosb, whichever this process measured faster at
         * this size (per log2 n; a fixed window loses one regime by 1.5-1.8x on
         * Zen 5).  Every P-th call is timed, P = 2^max(3, 18 - log2 n), so that
         * a timed call's ~70 ns stay near 2-3% of the calls' time; one timed
         * call in four takes the other path, so a changed regime is seen within
         * a few dozen calls.  Each size class counts its own calls.  The state
         * (fc_x86_memset_adapt) is shared by all threads, written without
         * atomics (a lost update costs one sample, never a wrong byte); the
         * counters sit on 16 lines picked by the stack address. */
.Ladaptive:
        bsrq    %rdx, %r8               /* log2 n: 10..39 */
        leaq    fc_x86_memset_adapt(%rip), %r9
        movq    %rsp, %rcx
        shrl    $6, %ecx
        andl    $15 << 6, %ecx          /* (rsp >> 12) & 15: the line */
        movl    %r8d, %eax
        andl    $15, %eax
        leaq    (%rcx,%rax,4), %rcx     /* its counter for this log2 n (mod 16) */
        movl    (%r9,%rcx), %r11d
        incl    %r11d
        movl    %r11d, (%r9,%rcx)
        leaq    adapt_period_log2(%rip), %rcx
        movzbl  (%rcx,%r8), %ecx        /* k = max(3, 18 - log2 n) */
        bzhil   %ecx, %r11d, %eax       /* the counter's low k bits */
        jz      .Ladaptive_timed
        movl    ADAPT_COST(%r9,%r8,8), %eax
        cmpl    ADAPT_COST + 4(%r9,%r8,8), %eax
        movq    %rdi, %rax
        ja      .Lrep_stosb             /* rep stosb measured faster */
        jmp     .Lvector

        /* A timed call.  The red zone holds what rdtsc (eax, edx) and the path
         * clobber: dst, n, log2 n, the path.  The path: the chosen one, or on
         * one timed call in four the other.  The cost: TSC ticks x 16 per KiB,
         * from the call's own stores (the mfences: none of an earlier call's,
         * all of this one's, so a cold line's read-for-ownership counts, which
         * a store still in the store buffer would hide). */
.Ladaptive_timed:
        shrxl   %ecx, %r11d, %r11d
        testl   $3, %r11d
        sete    %r11b
        movzbl  %r11b, %r11d            /* 1: explore (one timed call in four) */
        movl    ADAPT_COST(%r9,%r8,8), %eax
        cmpl    ADAPT_COST + 4(%r9,%r8,8), %eax
        seta    %al
        movzbl  %al, %eax
        xorl    %eax, %r11d             /* 1: rep stosb */
        movq    %rdi, -8(%rsp)
        movq    %rdx, -16(%rsp)
        movq    %r8, -24(%rsp)
        movq    %r11, -32(%rsp)
        mfence
        rdtsc
        shlq    $32, %rdx
        orq     %rax, %rdx
        movq    %rdx, -40(%rsp)
        movq    -16(%rsp), %rdx
        movq    -8(%rsp), %rdi
        testl   %r11d, %r11d
        jz      3f
        movq    %rdx, %rcx
        vmovd   %xmm16, %eax            /* the byte, in al */
        rep stosb
        jmp     5f
        /* .Lvector's loop again (not jumped to: the second rdtsc must follow
         * it; the window ends below nt_start, so no streaming branch) */
3:      vmovdqu64 %zmm16, (%rdi)
        addq    $64, %rdi
        andq    $-64, %rdi
4:      vmovdqa64 %zmm16, (%rdi)
        vmovdqa64 %zmm16, 64(%rdi)
        vmovdqa64 %zmm16, 128(%rdi)
        vmovdqa64 %zmm16, 192(%rdi)
        addq    $256, %rdi
        cmpq    %r10, %rdi
        jb      4b
        vmovdqu64 %zmm16, (%r10)
        vmovdqu64 %zmm16, 64(%r10)
        vmovdqu64 %zmm16, 128(%r10)
        vmovdqu64 %zmm16, 192(%r10)
5:      mfence
        rdtsc
        shlq    $32, %rdx
        orq     %rax, %rdx
        subq    -40(%rsp), %rdx         /* ticks */
        movq    %rdx, %rax
        shlq    $14, %rax               /* x 16 per KiB: ticks x 16384 / n */
        xorl    %edx, %edx
        divq    -16(%rsp)
        movl    $0x7fffffff, %ecx
        cmpq    %rcx, %rax
        cmovaq  %rcx, %rax              /* a preempted call: capped */
        movq    -24(%rsp), %r8
        movq    -32(%rsp), %r11
        leaq    fc_x86_memset_adapt + ADAPT_COST(%rip), %r9
        leaq    (%r9,%r8,8), %r9
        movl    (%r9,%r11,4), %ecx
        /* The chosen path's cost moves halfway to each sample (one noisy sample
         * does not flip the choice); the other path's, measured on an explore
         * call, takes the sample as it is (its old cost may date from another
         * regime).  Which path was the chosen one: the costs' order now. */
        movl    (%r9), %edx
        cmpl    4(%r9), %edx            /* vector's cost vs rep stosb's */
        seta    %dl
        movzbl  %dl, %edx               /* the chosen path */
        cmpl    %edx, %r11d
        jne     6f                      /* explored: take the sample */
        addq    %rcx, %rax
        shrq    $1, %rax
6:      movl    %eax, (%r9,%r11,4)
        movq    -8(%rsp), %rax
        ret

        /* 513..1024: the first eight vectors and the last four (to 768) or
         * eight, none stored twice.  Against the loop: 1024 B 0.93-0.95x ->
         * 1.00-1.02x glibc's speed, Uniform384To4096 1.01-1.03x the time; the
         * worse ratio (1.07 against 1.03) keeps it (Zen 5, docs/evidence/zen5.md).
         * It is the jump target, so a call above 1024 B takes no more taken
         * branches than before. */
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

KERNEL_END(SET_KERNEL)

        /* log2 of the adaptive window's timing period P per log2 n (see there) */
        .section .rodata
adapt_period_log2:
        .byte   18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3
        .fill   48, 1, 3
        .text

#if !defined(FC_DROPIN_NAME) && !defined(FC_MEMSET_ONE_BRANCH)
        /* The adaptive window's state (one for the kernel and the drop-in built
         * from this file): 16 lines of call counters, one per log2 n (mod 16) in
         * each, then per log2 n (0..63) the cost of the vector loop and of rep
         * stosb (TSC ticks x 16 per KiB). */
        .bss
        .p2align 6
        .globl  fc_x86_memset_adapt
        .hidden fc_x86_memset_adapt
        .type   fc_x86_memset_adapt, @object
        .size   fc_x86_memset_adapt, FC_ADAPT_SIZE
fc_x86_memset_adapt:
        .zero   FC_ADAPT_SIZE
#endif
