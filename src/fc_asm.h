/* fc_asm.h - what every assembly part of the library shares, whatever the
 * architecture: the landing pad a function starts with, and the object's notes.
 * Included by each architecture's entry/end header (x86_64/kernel_entry.h,
 * aarch64/asm.h, riscv64/asm.h) and, for the functions defined in top-level asm
 * of C files, by dispatch.h.
 *
 * Landing pads.  Built with -fcf-protection=branch or =full (x86_64: __CET__ bit
 * 0) a function that may be reached by an indirect jump or call starts with
 * endbr64; with -mbranch-protection=bti or =standard (aarch64:
 * __ARM_FEATURE_BTI_DEFAULT) with bti c.  Every kernel is such a function: the
 * resolvers hand its address to a slot or to the loader.  Otherwise they are
 * empty: nothing changes in a default build.
 *
 * Notes.  Included in a .S file this emits, once:
 *   .note.GNU-stack       the object needs no executable stack;
 *   .note.gnu.property    when the flags above are on, what the object is built
 *                         for: x86 IBT (landing pads) and SHSTK (-fcf-protection
 *                         =return or =full: the kernels only call and return in
 *                         pairs), aarch64 BTI and PAC (-mbranch-protection
 *                         =pac-ret or =standard: the kernels are leaves, nothing
 *                         to sign).  The linker marks libfastcopy.so only when
 *                         every object carries the property (the C compiler
 *                         writes it for C objects), so without it here a program
 *                         built with those flags would lose the protection by
 *                         loading us.  test/check_asm.py checks it.
 */
#ifndef FC_ASM_H
#define FC_ASM_H

#if defined(__x86_64__) && defined(__CET__)
#define FC_PROPERTY_TYPE 0xc0000002 /* GNU_PROPERTY_X86_FEATURE_1_AND */
#define FC_PROPERTY_BITS (__CET__ & 3) /* IBT 1, SHSTK 2 */
#if __CET__ & 1
#define FC_LANDING_PAD endbr64
#define FC_LANDING_PAD_STR "\tendbr64\n"
#endif
#elif defined(__aarch64__)
#if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
#define FC_A64_BTI 1
#define FC_LANDING_PAD bti c
#define FC_LANDING_PAD_STR "\tbti c\n"
#else
#define FC_A64_BTI 0
#endif
#if defined(__ARM_FEATURE_PAC_DEFAULT) && __ARM_FEATURE_PAC_DEFAULT
#define FC_A64_PAC 2
#else
#define FC_A64_PAC 0
#endif
#if FC_A64_BTI || FC_A64_PAC
#define FC_PROPERTY_TYPE 0xc0000000 /* GNU_PROPERTY_AARCH64_FEATURE_1_AND */
#define FC_PROPERTY_BITS (FC_A64_BTI | FC_A64_PAC) /* BTI 1, PAC 2 */
#endif
#endif

#ifndef FC_LANDING_PAD
#define FC_LANDING_PAD
#define FC_LANDING_PAD_STR ""
#endif

#ifndef __ASSEMBLER__
/* The same convention for the functions that C files define in top-level asm (the
 * x86_64 trampolines and binding stubs): FC_ASM_BEGIN("name") body
 * FC_ASM_END("name"); a body that moves the stack pointer says so in CFI. */
#define FC_ASM_BEGIN(name)                                                        \
    "\t.text\n\t.p2align 4\n\t.globl " name "\n\t.type " name ", %function\n" name   \
    ":\n\t.cfi_startproc\n" FC_LANDING_PAD_STR
#define FC_ASM_END(name) "\t.cfi_endproc\n\t.size " name ", .-" name "\n"
#endif

#ifdef __ASSEMBLER__
        .pushsection .note.GNU-stack, "", %progbits
        .popsection
#ifdef FC_PROPERTY_TYPE
        .pushsection .note.gnu.property, "a"
        .p2align 3
        .long   4                       /* n_namesz: "GNU" and its NUL */
        .long   16                      /* n_descsz: one property, padded to 8 */
        .long   5                       /* n_type: NT_GNU_PROPERTY_TYPE_0 */
        .asciz  "GNU"
        .long   FC_PROPERTY_TYPE        /* pr_type */
        .long   4                       /* pr_datasz */
        .long   FC_PROPERTY_BITS        /* pr_data */
        .long   0                       /* padding */
        .popsection
#endif
#endif

#endif
