/* dispatch.h - internal interface of dispatch.c (not exported). */
#ifndef FC_DISPATCH_H
#define FC_DISPATCH_H
#include "fc_internal.h"
#include "fc_asm.h" /* FC_ASM_BEGIN/END, for the functions defined in asm below */

/* Probe + policy + overrides, once per process; safe inside resolvers. */
FC_HIDDEN const struct fc_decision *fc_decide(uint64_t a0, const void *a1);
/* The same, outside resolvers (fetches the resolver arguments itself). */
FC_HIDDEN const struct fc_decision *fc_decide_runtime(void);
/* The arch's CPU facts struct as probed (type per arch.h). */
FC_HIDDEN const void *fc_cpu_facts(void);
FC_HIDDEN const char *fc_selected_reason(const char *func);

#ifdef FC_NO_IFUNC
/* Binding where the C library has no GNU IFUNC (musl; meson defines FC_NO_IFUNC).
 * Every name is still a jump through a slot, but the slot is writable and starts
 * at that name's resolving stub: the first call of any name runs fc_bind_all
 * (the one decision, then every slot and flag byte filled) and continues through
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
#define FC_TRAMPOLINE_ASM(name)                                                      \
    FC_ASM_BEGIN(name) "\tjmp *fc_slot_" name "(%rip)\n" FC_ASM_END(name)
#else
#error "binding without IFUNC (FC_NO_IFUNC) is implemented for x86_64 only"
#endif
/* A slot of type ret (*)params, starting at its stub. */
#define FC_SLOT_AT_STUB(ret, name, params)                                           \
    FC_HIDDEN void fc_stub_##name(void);                                             \
    FC_HIDDEN ret(*fc_slot_##name) params __attribute__((used)) =                    \
        (ret(*) params)fc_stub_##name;                                               \
    __asm__(FC_STUB_ASM(#name));
#define FC_SLOT_FILL(name, value) __atomic_store_n(&fc_slot_##name, (value), __ATOMIC_RELEASE)
#endif
#endif
