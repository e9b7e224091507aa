/* dispatch.h - internal interface of dispatch.c (not exported). */
#ifndef FC_DISPATCH_H
#define FC_DISPATCH_H
#include "fc_internal.h"
#include "arch.h" /* fc_cpu_t */
#include "fc_asm.h" /* FC_ASM_BEGIN/END, for the functions defined in asm below */

/* Probe + policy + overrides, once per process; safe inside resolvers. */
FC_HIDDEN const struct fc_decision *fc_decide(uint64_t a0, const void *a1);
/* The same, outside resolvers (fetches the resolver arguments itself). */
FC_HIDDEN const struct fc_decision *fc_decide_runtime(void);
/* The arch's CPU facts struct as probed (type per arch.h). */
FC_HIDDEN const void *fc_cpu_facts(void);
FC_HIDDEN const char *fc_selected_reason(const char *func);
/* The FASTCOPY_* variables and the tuning file over the policy's decision d for
 * cpu (settings.c); safe inside resolvers. */
FC_HIDDEN void fc_apply_settings(const fc_cpu_t *cpu, struct fc_decision *d);

#ifdef FC_NO_IFUNC
/* Binding where the C library has no GNU IFUNC (musl; meson defines FC_NO_IFUNC).
 * Every name is still a jump through a slot, but the slot is writable and starts
 * at that name's resolving stub: the first call of any name runs fc_bind_all
 * (the one decision, then every slot and limit word filled) and continues through
 * its slot to the chosen variant, with its arguments untouched.  A constructor
 * calls fc_bind_all early.  Filling is idempotent (every caller stores the same
 * values), so racing first calls are harmless. */
FC_HIDDEN void fc_bind_all(void);
/* exports.c's part (the drop-in names), when it is linked in. */
FC_HIDDEN void fc_bind_exports(void) __attribute__((weak));
/* For the tests only: every slot back at its stub, flags cleared, no decision,
 * as before the first call of a fresh process (call it single-threaded). */
FC_HIDDEN void fc_bind_reset_for_tests(void);
FC_HIDDEN void fc_unbind_exports_for_tests(void) __attribute__((weak));
#if defined(__x86_64__)
/* fc_stub_<name>: saves the four argument registers the exported functions use
 * (rdi, rsi, rdx, rcx), calls fc_bind_all (a direct call: hidden, no PLT) with the
 * stack 16-byte aligned, restores them and jumps through the now filled slot. */
#define FC_STUB_ASM(name)                                                            \
    FC_ASM_BEGIN("fc_stub_" name) "\t.hidden fc_stub_" name "\n"                     \
    "\tpush %rdi\n\t.cfi_adjust_cfa_offset 8\n\tpush %rsi\n\t.cfi_adjust_cfa_offset 8\n"  \
    "\tpush %rdx\n\t.cfi_adjust_cfa_offset 8\n\tpush %rcx\n\t.cfi_adjust_cfa_offset 8\n"  \
    "\tsub $8, %rsp\n\t.cfi_adjust_cfa_offset 8\n"                                  \
    "\tcall fc_bind_all\n"                                                           \
    "\tadd $8, %rsp\n\t.cfi_adjust_cfa_offset -8\n"                                 \
    "\tpop %rcx\n\t.cfi_adjust_cfa_offset -8\n\tpop %rdx\n\t.cfi_adjust_cfa_offset -8\n"  \
    "\tpop %rsi\n\t.cfi_adjust_cfa_offset -8\n\tpop %rdi\n\t.cfi_adjust_cfa_offset -8\n"  \
    "\tjmp *fc_slot_" name "(%rip)\n" FC_ASM_END("fc_stub_" name)
/* The jump through a slot (a trampoline's whole body). */
#define FC_SLOT_JUMP(slot) "\tjmp *" slot "(%rip)\n"
#elif defined(__aarch64__)
/* fc_stub_<name>: saves the four argument registers the exported functions use
 * (x0-x3) with the frame record, calls fc_bind_all (bl: hidden, no PLT; the C
 * code keeps the callee-saved registers, x19-x28 and d8-d15), restores them and
 * branches through the now filled slot with x16, as a trampoline does.  x16/x17
 * may be clobbered by any call (AAPCS64 IP0/IP1: a PLT or veneer does), and a
 * br through x16 is what bti c accepts, so every target (the kernels, the
 * wrappers, this stub) needs nothing more than its bti c.  With
 * -mbranch-protection=pac-ret or =standard (FC_A64_PAC) the saved return
 * address is signed (paciasp/autiasp: hint space, a no-op before Armv8.3), as
 * the compiler does for a non-leaf function; the sp-aligned 48-byte frame keeps
 * sp 16-byte aligned for the call. */
#if FC_A64_PAC
#define FC_A64_SIGN_LR "\thint 25\n\t.cfi_negate_ra_state\n" /* paciasp */
#define FC_A64_AUTH_LR "\thint 29\n\t.cfi_negate_ra_state\n" /* autiasp */
#else
#define FC_A64_SIGN_LR ""
#define FC_A64_AUTH_LR ""
#endif
#define FC_SLOT_JUMP(slot)                                                           \
    "\tadrp x16, " slot "\n\tldr x16, [x16, :lo12:" slot "]\n\tbr x16\n"
#define FC_STUB_ASM(name)                                                            \
    FC_ASM_BEGIN("fc_stub_" name) "\t.hidden fc_stub_" name "\n" FC_A64_SIGN_LR       \
    "\tstp x29, x30, [sp, #-48]!\n\t.cfi_def_cfa_offset 48\n"                       \
    "\t.cfi_offset 29, -48\n\t.cfi_offset 30, -40\n\tmov x29, sp\n"                 \
    "\tstp x0, x1, [sp, #16]\n\tstp x2, x3, [sp, #32]\n"                             \
    "\tbl fc_bind_all\n"                                                             \
    "\tldp x0, x1, [sp, #16]\n\tldp x2, x3, [sp, #32]\n"                             \
    "\tldp x29, x30, [sp], #48\n\t.cfi_restore 29\n\t.cfi_restore 30\n"              \
    "\t.cfi_def_cfa_offset 0\n" FC_A64_AUTH_LR                                       \
    FC_SLOT_JUMP("fc_slot_" name) FC_ASM_END("fc_stub_" name)
#else
#error "binding without IFUNC (FC_NO_IFUNC) is implemented for x86_64 and aarch64 only"
#endif
/* An exported trampoline: the jump through its slot. */
#define FC_TRAMPOLINE_ASM(name) FC_ASM_BEGIN(name) FC_SLOT_JUMP("fc_slot_" name) FC_ASM_END(name)
/* A slot of type ret (*)params, starting at its stub. */
#define FC_SLOT_AT_STUB(ret, name, params)                                           \
    FC_HIDDEN void fc_stub_##name(void);                                             \
    FC_HIDDEN ret(*fc_slot_##name) params __attribute__((used)) =                    \
        (ret(*) params)fc_stub_##name;                                               \
    __asm__(FC_STUB_ASM(#name));
/* Memory ordering.  fc_decide publishes the decision (fc_cpu, fc_dec, fc_tun)
 * before its release store of fc_state = 2, and fc_bind_all fills the slots after
 * that, each with a store-release (stlr on aarch64).  The trampolines and stubs
 * read a slot with a plain load, and a caller is safe whatever it finds: the stub
 * reaches fc_decide's acquire load; a variant's function may see fc_tun from
 * before the decision or half copied (on Armv8 its loads are not ordered after
 * the slot load), and every mix of zero and decided bytes is a configuration the
 * kernels handle (test_bind.c runs every memset variant with those values).  An
 * acquire load in every trampoline would cost every call for a window that only
 * exists during the first calls.  The argument in full: docs/musl.md. */
#define FC_SLOT_FILL(name, value) __atomic_store_n(&fc_slot_##name, (value), __ATOMIC_RELEASE)
#endif
#endif
