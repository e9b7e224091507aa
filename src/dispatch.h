/* dispatch.h - internal interface of dispatch.c (not exported). */
#ifndef FC_DISPATCH_H
#define FC_DISPATCH_H
#include "fc_internal.h"

/* Probe + policy + overrides, once per process; safe inside resolvers. */
FC_HIDDEN const struct fc_decision *fc_decide(uint64_t a0, const void *a1);
/* The same, outside resolvers (fetches the resolver arguments itself). */
FC_HIDDEN const struct fc_decision *fc_decide_runtime(void);
/* The arch's CPU facts struct as probed (type per arch.h). */
FC_HIDDEN const void *fc_cpu_facts(void);
FC_HIDDEN const char *fc_selected_reason(const char *func);
#endif
