/* memmove_avx512.S - "avx512": memmove (= memcpy) with EVEX-encoded 32- and
 * 64-byte vectors in registers 16-31.
 *
 * Assumptions: AVX-512F/BW/VL enabled by the OS (XGETBV), BMI2.  Selected on AMD
 * Zen 4 and later and on Intel Sapphire Rapids and later (AVX-512 with AVX-VNNI).
 * The windows below are the profile row's per CPU (src/x86_64/profiles.c); what
 * each size class does and why: docs/kernels-x86_64.md; the readings behind it:
 * docs/evidence/.
 *
 * Why assembly: only registers 16-31 leave the upper state clean, so no
 * vzeroupper is needed on return.
 *
 * Size classes (every class loads all it needs before its first store, so
 * overlapping buffers give memmove's result and memcpy == memmove):
 *   0..63      one byte-masked 64-byte load and store, no size ladder (two size
 *              compares, 128 first: see the entry).
 *              No masked-out byte may lie in the next page (such an access cost
 *              195-245 ns when that page was not mapped): when src or dst is in
 *              the last 63 bytes of a page, the load and store are anchored at the
 *              end (masks from the top), or, when the other buffer is within 64-n
 *              bytes of its page's start, a plain overlapping-pair ladder.
 *   64..128    first and last 64 bytes (64 itself too: plain loads, see .L64_128)
 *   129..256   first two and last two 64-byte vectors
 *   257..512   first four and last four, straight-line
 *   513..1024  first eight and last four (to 768) or eight, straight-line
 *   > 1024     loop of four 64-byte vectors with 64-byte-aligned stores; the first
 *              vector is loaded before the loop, the last four after it (before
 *              it when the loop's stores could reach them), and both are stored
 *              after it (no remainder loop).  Backward when dst lies inside (src,
 *              src+n); backward too when dst lies 1..255 bytes after src modulo
 *              4096 (4K aliasing), src is not inside (dst, dst+n) and the copy is
 *              shorter than fc_tun.alias_backward_stop; forward otherwise.
 *   rep movsb  forward copies in [fc_tun.rep_movsb_start, rep_movsb_stop), when
 *              dst and src are not within 1..63 bytes of each other modulo 4096
 *              (the cliff of glibc bug 30994), dst first 64-byte aligned by a
 *              vector head.  The profile rows open the window only where it
 *              measured faster.
 *   non-temporal  from fc_tun.nt_start when the buffers do not overlap.
 */
#include "fc_tun_offsets.h"
#define NT_START (fc_tun + FC_TUN_NT_START)
#define REP_MOVSB_START (fc_tun + FC_TUN_REP_MOVSB_START)
#define REP_MOVSB_STOP (fc_tun + FC_TUN_REP_MOVSB_STOP)
#define ALIAS_BACKWARD_STOP (fc_tun + FC_TUN_ALIAS_BACKWARD_STOP)
#define LOOP32_START (fc_tun + FC_TUN_LOOP32_START)

#include "kernel_entry.h"

KERNEL_BEGIN(fc_memmove_x86_avx512)
        /* n > 128 first, then n > 63: most calls are below 64 B, and no call
         * above 128 B takes two taken branches (fleet mixes 0.94-0.98x the
         * time; the page-end path pays ~1 cycle; Zen 5).  Entry to ret: one
         * 64-byte line, hence rel8 jumps and 32-bit compares (0-63 B 0.89x the
         * time, Zen 5; test/check_asm.py lines checks it; -fcf-protection's
         * endbr64 pushes the ret out).  Readings: docs/evidence/zen5.md. */
        cmpq    $128, %rdx
        ja      .Lmore_128
        cmpl    $63, %edx               /* n <= 128 here: edx is n */
        ja      .L64_128
        /* 0..63: bzhi keeps the low n bits of the all-ones mask.  Not when src
         * or dst lies in the last 63 bytes of a page: see .Lnear_end_body. */
        leal    63(%rsi), %ecx
        leal    63(%rdi), %eax
        xorl    %esi, %ecx              /* bit 12 set: src + 63 is in the next page */
        xorl    %edi, %eax
        orl     %eax, %ecx
        /* bit 12 set, i.e. ecx >= 4096 (a carry into bit 12 flips it, so no
         * higher bit is set without it) */
        ENTRY_TEST(4096, %ecx, .Lnear_end)
        movq    %rdi, %rax
        /* "orq $-1, %r9" is "movq $-1, %rcx" in 3 bytes fewer (r9 holds a
         * value of the caller's, long ready). */
        orq     $-1, %r9
        bzhiq   %rdx, %r9, %rcx
        kmovq   %rcx, %k1
        vmovdqu8 (%rsi), %zmm16{%k1}{z}
        vmovdqu8 %zmm16, (%rdi){%k1}
        ret

        /* src or dst within 64 bytes of a page end (or, in a drop-in whose
         * resolver chose another variant, every call of 0..63 B): the divert,
         * then the page-end path after the classes, which did not fit here (the
         * jumps above reach 127 bytes; the move itself cost nothing). */
        .p2align 6
.Lnear_end:
        DROPIN_DIVERT_ELSE_JUMP(.Lnear_end_body)

        /* 64 bytes exactly go here, not to the masked path: a masked load that
         * partly overlaps an earlier store waits longer than a plain one
         * (back-to-back 64 B memmoves 1.32x glibc's time masked, 1.02x plain;
         * Zen 5, docs/evidence/zen5.md). */
.L64_128:
        DROPIN_DIVERT_NEAR
        movq    %rdi, %rax
        vmovdqu64 (%rsi), %zmm16
        vmovdqu64 -64(%rsi,%rdx), %zmm17
        vmovdqu64 %zmm16, (%rdi)
        vmovdqu64 %zmm17, -64(%rdi,%rdx)
        ret

        /* Each size class from here starts a 64-byte line, so that an edit
         * above cannot move it across one (65..255 B 1.18-1.22x the time at
         * 16-byte alignment; Sapphire Rapids-class, docs/kernels-x86_64.md).
         * zmm16 and zmm18 hold the
         * first two vectors for every class above this one; each class up to
         * 1024 B loads the last two into zmm19 and zmm17 (above it the source's
         * end is read after the loop, see .Lfwd_vec). */
        .p2align 6
.Lmore_128:
        DROPIN_DIVERT_NEAR
        movq    %rdi, %rax
        vmovdqu64 (%rsi), %zmm16
        vmovdqu64 64(%rsi), %zmm18
        cmpq    $256, %rdx
        ja      .Lmore_256
        vmovdqu64 -128(%rsi,%rdx), %zmm19
        vmovdqu64 -64(%rsi,%rdx), %zmm17
        vmovdqu64 %zmm16, (%rdi)
        vmovdqu64 %zmm18, 64(%rdi)
        vmovdqu64 %zmm19, -128(%rdi,%rdx)
        vmovdqu64 %zmm17, -64(%rdi,%rdx)
        ret

        /* The page-end path of 0..63 B: anchored at the end, which stays in
         * each page when min(page offsets) + n >= 64 (the near-end one is past
         * 4032, so it is never the obstacle unless both are). */
.Lnear_end_body:
        movq    %rdi, %rax
        movl    %esi, %ecx
        movl    %edi, %r8d
        andl    $4095, %ecx
        andl    $4095, %r8d
        cmpl    %ecx, %r8d
        cmovbl  %r8d, %ecx              /* min page offset */
        addl    %edx, %ecx
        cmpl    $64, %ecx
        jb      .Lsmall_page_end
        movl    $64, %r10d
        subl    %edx, %r10d
        movq    $-1, %r11
        bzhiq   %r10, %r11, %r11
        notq    %r11
        kmovq   %r11, %k1
        vmovdqu8 -64(%rsi,%rdx), %zmm16{%k1}{z}
        vmovdqu8 %zmm16, -64(%rdi,%rdx){%k1}
        ret
        /* One near a page end, the other near a page start: plain overlapping
         * pairs, all loads first. */
.Lsmall_page_end:
        cmpl    $32, %edx
        jae     .Lpe_32_64
        cmpl    $16, %edx
        jae     .Lpe_16_31
        cmpl    $8, %edx
        jae     .Lpe_8_15
        cmpl    $4, %edx
        jae     .Lpe_4_7
        cmpl    $1, %edx
        ja      .Lpe_2_3
        jb      1f
        movzbl  (%rsi), %ecx
        movb    %cl, (%rdi)
1:      ret
.Lpe_2_3:
        movzwl  (%rsi), %ecx
        movzbl  -1(%rsi,%rdx), %r8d
        movw    %cx, (%rdi)
        movb    %r8b, -1(%rdi,%rdx)
        ret
.Lpe_4_7:
        movl    (%rsi), %ecx
        movl    -4(%rsi,%rdx), %r8d
        movl    %ecx, (%rdi)
        movl    %r8d, -4(%rdi,%rdx)
        ret
.Lpe_8_15:
        movq    (%rsi), %rcx
        movq    -8(%rsi,%rdx), %r8
        movq    %rcx, (%rdi)
        movq    %r8, -8(%rdi,%rdx)
        ret
.Lpe_16_31:
        vmovdqu64 (%rsi), %xmm16
        vmovdqu64 -16(%rsi,%rdx), %xmm17
        vmovdqu64 %xmm16, (%rdi)
        vmovdqu64 %xmm17, -16(%rdi,%rdx)
        ret
.Lpe_32_64:
        vmovdqu64 (%rsi), %ymm16
        vmovdqu64 -32(%rsi,%rdx), %ymm17
        vmovdqu64 %ymm16, (%rdi)
        vmovdqu64 %ymm17, -32(%rdi,%rdx)
        ret

        .p2align 6
.Lmore_256:
        cmpq    $512, %rdx
        ja      .Lmore_512
        vmovdqu64 -128(%rsi,%rdx), %zmm19
        vmovdqu64 -64(%rsi,%rdx), %zmm17
        vmovdqu64 128(%rsi), %zmm20
        vmovdqu64 192(%rsi), %zmm21
        vmovdqu64 -192(%rsi,%rdx), %zmm22
        vmovdqu64 -256(%rsi,%rdx), %zmm23
        vmovdqu64 %zmm16, (%rdi)
        vmovdqu64 %zmm18, 64(%rdi)
        vmovdqu64 %zmm20, 128(%rdi)
        vmovdqu64 %zmm21, 192(%rdi)
        vmovdqu64 %zmm23, -256(%rdi,%rdx)
        vmovdqu64 %zmm22, -192(%rdi,%rdx)
        vmovdqu64 %zmm19, -128(%rdi,%rdx)
        vmovdqu64 %zmm17, -64(%rdi,%rdx)
        ret

        /* 513..1024: straight-line, every load before the first store: the first
         * eight vectors and the last four (to 768) or eight, none stored twice.
         * Against the loop: 1024 B 0.88-0.92x the time (Zen 4), 0.87x (Zen 5);
         * docs/evidence/zen4.md.  It ends at 1024: sixteen vectors are what
         * zmm16-31 hold.  rep movsb and non-temporal stores are not considered
         * below 1025 B. */
        .p2align 6
.Lmore_512:
        cmpq    $1024, %rdx
        ja      .Lmore_1024
        vmovdqu64 -128(%rsi,%rdx), %zmm19
        vmovdqu64 -64(%rsi,%rdx), %zmm17
        vmovdqu64 128(%rsi), %zmm20
        vmovdqu64 192(%rsi), %zmm21
        vmovdqu64 256(%rsi), %zmm22
        vmovdqu64 320(%rsi), %zmm23
        vmovdqu64 384(%rsi), %zmm24
        vmovdqu64 448(%rsi), %zmm25
        vmovdqu64 -192(%rsi,%rdx), %zmm26
        vmovdqu64 -256(%rsi,%rdx), %zmm27
        cmpq    $768, %rdx
        jbe     1f
        /* 769..1024: the four vectors at n-512..n-257 too */
        vmovdqu64 -320(%rsi,%rdx), %zmm28
        vmovdqu64 -384(%rsi,%rdx), %zmm29
        vmovdqu64 -448(%rsi,%rdx), %zmm30
        vmovdqu64 -512(%rsi,%rdx), %zmm31
        /* Stores in ascending order, as in the classes below 512 (fc_copy_user
         * runs this kernel and must not have written past a fault); vector
         * moves leave the flags of the compare with 768 as they were. */
1:      vmovdqu64 %zmm16, (%rdi)
        vmovdqu64 %zmm18, 64(%rdi)
        vmovdqu64 %zmm20, 128(%rdi)
        vmovdqu64 %zmm21, 192(%rdi)
        vmovdqu64 %zmm22, 256(%rdi)
        vmovdqu64 %zmm23, 320(%rdi)
        vmovdqu64 %zmm24, 384(%rdi)
        vmovdqu64 %zmm25, 448(%rdi)
        jbe     2f
        vmovdqu64 %zmm31, -512(%rdi,%rdx)
        vmovdqu64 %zmm30, -448(%rdi,%rdx)
        vmovdqu64 %zmm29, -384(%rdi,%rdx)
        vmovdqu64 %zmm28, -320(%rdi,%rdx)
2:      vmovdqu64 %zmm27, -256(%rdi,%rdx)
        vmovdqu64 %zmm26, -192(%rdi,%rdx)
        vmovdqu64 %zmm19, -128(%rdi,%rdx)
        vmovdqu64 %zmm17, -64(%rdi,%rdx)
        ret

        /* n > 1024. */
        .p2align 4
.Lmore_1024:
        movq    %rdi, %rcx
        subq    %rsi, %rcx              /* rcx = dst - src */
        cmpq    %rdx, %rcx
        jb      .Lbackward              /* dst inside (src, src+n) */

        /* Forward.  rep movsb window first. */
        cmpq    REP_MOVSB_START(%rip), %rdx
        jb      .Lfwd_vec
        cmpq    REP_MOVSB_STOP(%rip), %rdx
        jae     .Lfwd_vec
        /* Not within 1..63 bytes of each other modulo 4096, either way; on
         * Intel too (the true distance only: 4 KiB copies at d = 1..63 mod 4096
         * 1.05-1.14x the time; docs/evidence/intel-emerald-rapids.md). */
        leaq    -1(%rcx), %r8
        andl    $4095, %r8d
        cmpl    $63, %r8d
        jb      .Lfwd_vec
        movq    %rsi, %r8
        subq    %rdi, %r8
        decq    %r8
        andl    $4095, %r8d
        cmpl    $63, %r8d
        jb      .Lfwd_vec
        /* Align dst to 64: the head vector (already loaded) covers the skew. */
        movq    %rdi, %r9               /* r9 = original dst */
        movl    %edi, %ecx
        negl    %ecx
        andl    $63, %ecx               /* bytes to the next 64-byte boundary */
        addq    %rcx, %rdi
        addq    %rcx, %rsi
        subq    %rcx, %rdx
        movq    %rdx, %rcx
        rep movsb
        vmovdqu64 %zmm16, (%r9)         /* after: the head may overlap src */
        ret

.Lfwd_vec:
        /* 4K aliasing: with dst 1..255 bytes after src modulo 4096, each forward
         * iteration's loads match the low 12 bits of the stores just made and
         * wait for them.  Backward instead when allowed (src not inside (dst,
         * dst+n): rcx + n does not carry) and n < fc_tun.alias_backward_stop
         * (the row's): 768-2048 B 9.8-16.2 ns against 14.0-22.4 forward (Zen 5,
         * docs/evidence/zen5.md). */
        leal    -1(%rcx), %r8d          /* d = dst - src mod 4096 in 1..255: */
        andl    $4095, %r8d             /* d = 0 loads nothing a store of */
        cmpl    $255, %r8d              /* this call just made (numpy: */
        jae     1f                      /* docs/real-programs.md) */
        cmpq    ALIAS_BACKWARD_STOP(%rip), %rdx
        jae     1f
        movq    %rcx, %r8
        addq    %rdx, %r8
        jnc     .Lbackward
1:
        /* The last four vectors (no remainder loop): loaded after the loop when
         * its stores cannot reach them (src - dst >= 256 unsigned; r11 = their
         * address), so the source is read in address order to its end; before
         * it otherwise (r11 = 0).  zmm16 is the only vector loaded so far.
         * sqlite's BLOB reads 1.34x -> 1.23x glibc's CPU time, Zen 4
         * (docs/real-programs.md). */
        movq    %rsi, %r11
        subq    %rdi, %r11
        cmpq    $256, %r11
        jb      2f
        leaq    -256(%rsi,%rdx), %r11
        jmp     3f
2:      vmovdqu64 -256(%rsi,%rdx), %zmm18
        vmovdqu64 -192(%rsi,%rdx), %zmm19
        vmovdqu64 -128(%rsi,%rdx), %zmm20
        vmovdqu64 -64(%rsi,%rdx), %zmm17
        xorl    %r11d, %r11d
3:      leaq    -256(%rdi,%rdx), %r10   /* r10 = where the last four go */
        movq    %rdi, %r9               /* r9 = original dst */
        movl    %edi, %ecx
        andl    $63, %ecx
        subq    $64, %rcx
        subq    %rcx, %rsi              /* src += skew (1..64) */
        subq    %rcx, %rdi              /* dst += skew: 64-byte aligned */
        cmpq    %r10, %rdi
        jae     .Lfwd_end               /* (only if the skew covers all: defensive) */
        cmpq    NT_START(%rip), %rdx
        jae     .Lfwd_nt_check
        cmpq    LOOP32_START(%rip), %rdx
        jae     .Lfwd_loop32

        .p2align 4
.Lfwd_loop:
        vmovdqu64 (%rsi), %zmm21
        vmovdqu64 64(%rsi), %zmm22
        vmovdqu64 128(%rsi), %zmm23
        vmovdqu64 192(%rsi), %zmm24
        addq    $256, %rsi
        vmovdqa64 %zmm21, (%rdi)
        vmovdqa64 %zmm22, 64(%rdi)
        vmovdqa64 %zmm23, 128(%rdi)
        vmovdqa64 %zmm24, 192(%rdi)
        addq    $256, %rdi
        cmpq    %r10, %rdi
        jb      .Lfwd_loop
.Lfwd_end:
        testq   %r11, %r11
        jz      .Lfwd_tail
        vmovdqu64 (%r11), %zmm18
        vmovdqu64 64(%r11), %zmm19
        vmovdqu64 128(%r11), %zmm20
        vmovdqu64 192(%r11), %zmm17
.Lfwd_tail:
        vmovdqu64 %zmm18, (%r10)
        vmovdqu64 %zmm19, 64(%r10)
        vmovdqu64 %zmm20, 128(%r10)
        vmovdqu64 %zmm17, 192(%r10)
        vmovdqu64 %zmm16, (%r9)
        ret

        /* Non-temporal only when the buffers are disjoint: dst >= src + n
         * (rcx = dst - src >= n, already known) or src >= dst + n. */
.Lfwd_nt_check:
        movq    %rdi, %r8
        subq    %rsi, %r8               /* the skew cancels: r8 = dst - src */
        cmpq    %rdx, %r8
        jae     .Lfwd_nt
        negq    %r8                     /* src - dst */
        cmpq    %rdx, %r8
        jb      .Lfwd_loop
        .p2align 4
.Lfwd_nt:
        vmovdqu64 (%rsi), %zmm21
        vmovdqu64 64(%rsi), %zmm22
        vmovdqu64 128(%rsi), %zmm23
        vmovdqu64 192(%rsi), %zmm24
        addq    $256, %rsi
        vmovntdq %zmm21, (%rdi)
        vmovntdq %zmm22, 64(%rdi)
        vmovntdq %zmm23, 128(%rdi)
        vmovntdq %zmm24, 192(%rdi)
        addq    $256, %rdi
        cmpq    %r10, %rdi
        jb      .Lfwd_nt
        sfence
        jmp     .Lfwd_end

        /* The loop on 32-byte vectors, four loads then four stores, twice
         * (from fc_tun.loop32_start: where stores take 32 bytes a cycle at any
         * width, it streams a source from L3 or memory faster).  sqlite's BLOB
         * reads 1.085x -> 1.007x glibc's CPU time, no hot cell slower, Zen 4
         * (docs/real-programs.md). */
        .p2align 4
.Lfwd_loop32:
        vmovdqu64 (%rsi), %ymm21
        vmovdqu64 32(%rsi), %ymm22
        vmovdqu64 64(%rsi), %ymm23
        vmovdqu64 96(%rsi), %ymm24
        vmovdqa64 %ymm21, (%rdi)
        vmovdqa64 %ymm22, 32(%rdi)
        vmovdqa64 %ymm23, 64(%rdi)
        vmovdqa64 %ymm24, 96(%rdi)
        vmovdqu64 128(%rsi), %ymm21
        vmovdqu64 160(%rsi), %ymm22
        vmovdqu64 192(%rsi), %ymm23
        vmovdqu64 224(%rsi), %ymm24
        addq    $256, %rsi
        vmovdqa64 %ymm21, 128(%rdi)
        vmovdqa64 %ymm22, 160(%rdi)
        vmovdqa64 %ymm23, 192(%rdi)
        vmovdqa64 %ymm24, 224(%rdi)
        addq    $256, %rdi
        cmpq    %r10, %rdi
        jb      .Lfwd_loop32
        jmp     .Lfwd_end

        /* Backward: dst inside (src, src+n).  Never rep movsb (slow backwards)
         * nor non-temporal (the buffers overlap). */
        .p2align 4
.Lbackward:
        vmovdqu64 -64(%rsi,%rdx), %zmm17
        vmovdqu64 64(%rsi), %zmm18
        vmovdqu64 128(%rsi), %zmm19
        vmovdqu64 192(%rsi), %zmm20
        leaq    256(%rdi), %r10         /* stop when the first 256 remain */
        movq    %rdi, %r9
        leaq    (%rdi,%rdx), %rdi       /* dst end */
        leaq    (%rsi,%rdx), %rsi       /* src end */
        movl    %edi, %ecx
        andl    $63, %ecx               /* align the end down to 64 */
        subq    %rcx, %rdi
        subq    %rcx, %rsi
        leaq    (%r9,%rdx), %r11        /* r11 = original dst end */
        cmpq    %r10, %rdi
        jbe     .Lback_tail
        .p2align 4
.Lback_loop:
        vmovdqu64 -64(%rsi), %zmm21
        vmovdqu64 -128(%rsi), %zmm22
        vmovdqu64 -192(%rsi), %zmm23
        vmovdqu64 -256(%rsi), %zmm24
        subq    $256, %rsi
        vmovdqa64 %zmm21, -64(%rdi)
        vmovdqa64 %zmm22, -128(%rdi)
        vmovdqa64 %zmm23, -192(%rdi)
        vmovdqa64 %zmm24, -256(%rdi)
        subq    $256, %rdi
        cmpq    %r10, %rdi
        ja      .Lback_loop
.Lback_tail:
        vmovdqu64 %zmm16, (%r9)
        vmovdqu64 %zmm18, 64(%r9)
        vmovdqu64 %zmm19, 128(%r9)
        vmovdqu64 %zmm20, 192(%r9)
        vmovdqu64 %zmm17, -64(%r11)
        ret
KERNEL_END(fc_memmove_x86_avx512)
