/* control.h - runtime control (src/control.c): the switch back to the C library's
 * own functions, the one-line diagnostics, and the status block that
 * `fastcopy-info --pid` reads from a running process.  Not exported. */
#ifndef FC_CONTROL_H
#define FC_CONTROL_H
#include "fc_internal.h"

/* The CPU-independent system files: their presence is the setting (the content is
 * not read), for every process, setuid ones included. */
#define FC_DISABLE_FILE "/etc/fastcopy/disable"
#define FC_QUIET_FILE "/etc/fastcopy/quiet"

/* Called by the settings parser for each FASTCOPY_* variable of a process that is
 * not AT_SECURE: 1 when it is one of control.c's (FASTCOPY_DISABLE,
 * FASTCOPY_QUIET), which it records (a bad value gives a diagnostic line). */
FC_HIDDEN int fc_control_env(const char *key, const char *val);

/* Why the exported names run the C library's functions: 0 (they do not),
 * FC_DISABLED_ENV (FASTCOPY_DISABLE=1), FC_DISABLED_FILE (/etc/fastcopy/disable
 * exists), or both bits.  Resolver-safe (raw system calls; the file is looked at
 * once per process).  Call it after fc_decide. */
#define FC_DISABLED_ENV 1
#define FC_DISABLED_FILE 2
FC_HIDDEN int fc_control_disabled(void);

/* The C library's memcpy, memmove and memset as the exported names call them when
 * disabled: each jumps through a slot that holds, until a constructor has looked
 * the C library's function up (dlsym(RTLD_NEXT, ...)), our selected kernel, which
 * the resolver stores with fc_libc_seed.  A static program has no C library
 * function to look up (libfastcopy.a replaced it): its slots keep ours. */
FC_HIDDEN void *fc_libc_memcpy(void *, const void *, size_t);
FC_HIDDEN void *fc_libc_memmove(void *, const void *, size_t);
FC_HIDDEN void *fc_libc_memset(void *, int, size_t);
FC_HIDDEN void fc_libc_seed(int func, void *kernel);

/* Diagnostics: every problem found while the settings are read is one line
 * (fc_diag_line; kept for fastcopy-info), and the process prints at most one, the
 * first, with the count of the others (fc_diag_flush, once, after the decision),
 * unless FASTCOPY_QUIET=1 or /etc/fastcopy/quiet. */
FC_HIDDEN void fc_diag_line(const char *line);
FC_HIDDEN void fc_diag_flush(void);

/* For fc_describe (info.c): the lines kept, the control state in words. */
#define FC_DIAG_KEEP 8
#define FC_DIAG_LEN 384
FC_HIDDEN unsigned fc_diag_count(void);
FC_HIDDEN const char *fc_diag_get(unsigned i);
FC_HIDDEN int fc_diag_printed(void);
/* Bit per function: the C library's function was found and is what the exported
 * names call (disabled processes; 0 before the constructor and in static ones). */
FC_HIDDEN unsigned fc_control_libc_bound(void);
/* 1 FASTCOPY_QUIET=1, 2 /etc/fastcopy/quiet, 3 both, 0 neither. */
FC_HIDDEN int fc_control_quiet(void);

/* The status block (fastcopy-info --pid): a copy of the decision and of the state
 * above, in a writable data section of the object, found in a process's memory by
 * its magic; layout and size tell a reader whether it can parse it.  Filled by a
 * constructor. */
#define FC_STATUS_MAGIC "libfastcopy status block \x9e\x37\x79\xb9\x7f\x4a" /* 31 bytes + NUL */
#define FC_STATUS_LAYOUT 1
struct fc_status {
    char magic[32];
    uint32_t layout, size;
    char version[16];     /* FASTCOPY_VERSION_STRING */
    char arch[16];        /* FC_ARCH_NAME */
    uint32_t ready;       /* 1 once filled */
    unsigned char disabled;   /* fc_control_disabled() */
    unsigned char libc_bound; /* bit per function: the C library's function is bound */
    unsigned char secure;     /* AT_SECURE: FASTCOPY_* ignored */
    unsigned char quiet;      /* 1 FASTCOPY_QUIET, 2 /etc/fastcopy/quiet */
    unsigned char inline_[FC_NFUNCS]; /* exported name runs its body directly: 1, 0, 2 n/a */
    unsigned char pad;
    char copy[16];        /* the -Dhwcaps=true copy ("" otherwise) */
    char body[16];        /* x86_64: dropin_body ("" where there is none) */
    char binding[16];     /* "body", "trampoline", "stub", "ifunc", "" (no exported names) */
    char variant[FC_NFUNCS][16]; /* the selected variants' names */
    uint32_t ndiag;       /* diagnostic lines found (the first FC_DIAG_KEEP kept) */
    uint32_t printed;     /* 1 when one was printed on stderr */
    char diag[4][FC_DIAG_LEN];
    struct fc_decision dec;
};
#endif
