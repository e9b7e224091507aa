/* memset_avx512.S - "avx512": memset with EVEX-encoded vectors in registers 16-31
 * (no vzeroupper on return; the C version paid ~0.3-0.6 ns per call for it at
 * 65-512 bytes: 2.58-3.73 ns against glibc's 2.30-2.87 here).
 *
 * Assumptions: AVX-512F/BW/VL enabled by the OS, BMI2.
 * Size classes:
 *   0..128     two byte-masked 64-byte stores, no size branch (masked-out bytes
 *              are not touched): the fleet's memset sizes are mostly below 128 B
 *              and vary call to call, so a mispredicted size ladder is what they
 *              cost.  Within 128 bytes of a page end the two stores are anchored
 *              at dst + n - 128 instead (masks from the top), so no masked-out byte
 *              lies in the next page: such a store cost ~420 ns here when that
 *              page was not mapped (the CPU's fault-suppression assist) and
 *              7-13 ns when it was, against 2.3 ns now.  The check costs the
 *              memset mixes up to ~10% (noisy; all still >= 1.10x glibc but D).
 *   129..256   two from each end
 *   257..512   four from each end
 *   > 512      first vector unaligned, then four 64-byte-aligned stores per
 *              iteration, the last four vectors stored from the end (no remainder
 *              loop); non-temporal from fc_tun.nt_threshold (no read of the
 *              destination lines; 8 MiB: 94 us vs glibc's 134 us measured here).
 *   rep stosb  in [rep_stosb_threshold, rep_stosb_stop) and [rep_stosb_resume,
 *              nt_threshold), over the whole range.  On Zen 5 the policy opens (2 KiB, 32 KiB), where a
 *              cold destination costs the loop ~1.5x, and [L2 size, nt): see
 *              src/x86_64/policy.c for the figures.
 * c is converted to unsigned char by the byte broadcast. */
#define NT_THRESHOLD (fc_tun + 0)
#define REP_STOSB_THRESHOLD (fc_tun + 24)
#define REP_STOSB_STOP (fc_tun + 64)
#define REP_STOSB_RESUME (fc_tun + 72)

        .text
        .p2align 6
        .globl fc_memset_avx512
        .hidden fc_memset_avx512
        .type fc_memset_avx512, @function
fc_memset_avx512:
        movq    %rdi, %rax
        vpbroadcastb %esi, %zmm16
        cmpq    $128, %rdx
        ja      .Lmore_128
        /* 0..128 without a size branch: masks for bytes [0, min(n,64)) and
         * [64, n); bzhi keeps all 64 bits for an index >= 64, so the second index
         * is clamped to 0 when n < 64.  A store with an empty mask writes nothing. */
        leaq    -64(%rdx), %r8
        xorl    %r9d, %r9d
        cmpq    $64, %rdx
        cmovbq  %r9, %r8                /* lo = max(n - 64, 0) */
        movl    %edi, %ecx
        andl    $4095, %ecx
        cmpl    $4096 - 128, %ecx
        ja      .Lsmall_page_end        /* [dst, dst+128) spans two pages */
        movq    $-1, %rcx
        bzhiq   %rdx, %rcx, %r9
        bzhiq   %r8, %rcx, %rcx
        kmovq   %r9, %k1
        kmovq   %rcx, %k2
        vmovdqu8 %zmm16, (%rdi){%k1}
        vmovdqu8 %zmm16, 64(%rdi){%k2}
        ret

        /* dst within 128 bytes of a page end.  A masked store whose masked-out
         * bytes reach into the next page is correct but cost 7-13 ns here when
         * that page was mapped and ~420 ns when it was not (the fault-suppression
         * assist), against ~2 ns mid-page.  So the same two stores are anchored
         * at dst + n - 128 with masks from the top: [dst + n - 128, dst) stays in
         * dst's page, as dst is past offset 3968.  Still no size branch. */
        .p2align 4
.Lsmall_page_end:
        movl    $64, %r9d
        cmpq    %r9, %rdx
        cmovbq  %rdx, %r9               /* hi = min(n, 64) */
        movq    $-1, %r10
        movl    $64, %ecx
        subl    %r8d, %ecx
        bzhiq   %rcx, %r10, %rcx
        notq    %rcx                    /* top lo bits: first store */
        movl    $64, %r8d
        subl    %r9d, %r8d
        bzhiq   %r8, %r10, %r8
        notq    %r8                     /* top hi bits: second store */
        kmovq   %rcx, %k1
        kmovq   %r8, %k2
        vmovdqu8 %zmm16, -128(%rdi,%rdx){%k1}
        vmovdqu8 %zmm16, -64(%rdi,%rdx){%k2}
        ret

        .p2align 4
.Lmore_128:
        cmpq    $256, %rdx
        ja      .Lmore_256
        vmovdqu64 %zmm16, (%rdi)
        vmovdqu64 %zmm16, 64(%rdi)
        vmovdqu64 %zmm16, -128(%rdi,%rdx)
        vmovdqu64 %zmm16, -64(%rdi,%rdx)
        ret

        .p2align 4
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
        .size fc_memset_avx512, .-fc_memset_avx512

        .section .note.GNU-stack, "", @progbits
