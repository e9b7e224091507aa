/* fc_internal.h - what the library's parts share.  Nothing here is exported.
 *
 * The pieces (see docs/design.md):
 *   probe   (src/<arch>/probe.c)  hardware -> plain struct of CPU facts.  Runs inside
 *           IFUNC resolvers: arguments, raw instructions and raw syscalls only.
 *   policy  (src/<arch>/policy.c) facts -> struct fc_decision.  A pure function,
 *           compiled on every host so tests can ask it about any CPU.
 *   variants(src/<arch>/variants.h) the variant table: per variant its name, its
 *           kernels and the CPU facts it requires (src/variant_table.h).  Usability,
 *           names, indices, the kernel pickers, fc_variants(), the overrides, tests
 *           and benchmark all derive from it, so a variant is its kernel file (with
 *           its build entry), one row there and the policy rule that picks it.
 *   dispatch(src/dispatch.c) resolvers, fc_variants(); settings (src/settings.c) the
 *           FASTCOPY_* overrides and the tuning file.
 *
 * Resolvers may run before this library's own relocations have been applied (a
 * preloaded library is relocated after the libraries that reference memcpy), so
 * everything they touch is free of relocations: no pointers in the data they read,
 * no calls through the PLT, no libc.  Hence the pointer-free decision struct.
 */
#ifndef FC_INTERNAL_H
#define FC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#define FC_HIDDEN __attribute__((visibility("hidden")))
#define FC_API __attribute__((visibility("default")))

enum fc_func { FC_MEMCPY, FC_MEMMOVE, FC_MEMSET, FC_NFUNCS };

typedef void *(*fc_copy_fn)(void *, const void *, size_t);
typedef void *(*fc_set_fn)(void *, int, size_t);

/* Thresholds, filled once at load by the policy (then a tuning file and the
 * FASTCOPY_* overrides), read by the kernels.  One size_t per row of
 * tunables.def (a superset over architectures; unused fields stay 0).  The
 * assembly reads them at the offsets of the generated fc_tun_offsets.h. */
#define FC_TUN_MAX ((size_t)1 << 40) /* 1024G: "never" */
struct fc_tunables {
#define FC_TUNABLE(field, env, arch, min, max, meaning) size_t field;
#include "tunables.def"
#undef FC_TUNABLE
};

/* The tunables by index (FC_T_nt_start, ...), in tunables.def's order. */
enum fc_tun_index {
#define FC_TUNABLE(field, env, arch, min, max, meaning) FC_T_##field,
#include "tunables.def"
#undef FC_TUNABLE
    FC_NTUN
};

/* Where a variant or a tunable's value came from (fastcopy-info shows it). */
enum fc_source { FC_FROM_POLICY, FC_FROM_FILE, FC_FROM_ENV };

#define FC_WHY_LEN 256
#define FC_TUNING_LEN 320
struct fc_decision {
    unsigned char sel[FC_NFUNCS];       /* selected variant index per function */
    char why[FC_NFUNCS][FC_WHY_LEN];    /* one line: why that variant */
    struct fc_tunables tun;
    unsigned char sel_from[FC_NFUNCS];  /* enum fc_source, per function */
    unsigned char tun_from[FC_NTUN];    /* enum fc_source, per tunable */
    char tuning[FC_TUNING_LEN];         /* the tuning file read, or why none */
};

/* The tuning file (docs/tuning.md): its first line begins
 * FC_TUNING_MAGIC "; cpu: " <fc_arch_identity()> "; libfastcopy " <version>. */
#define FC_TUNING_MAGIC "# libfastcopy tuning 1"
#define FC_TUNING_SYSTEM "/etc/fastcopy/tuning.conf"
#define FC_TUNING_MAX 16384 /* bytes read at most; a larger file is not one */
#define FC_IDENTITY_LEN 160

/* The live tunables, read by kernels.  Aligned to a power of two at least its
 * size, so that it never crosses a 4 KiB page: the aarch64 kernels address every
 * field from one `adrp` of fc_tun (page) plus the field's :lo12: offset.  (Not
 * PC-relative literal loads: their +-1 MiB fails the link of a static binary with
 * more than 1 MiB of code and constants between the kernel and .bss.) */
#define FC_TUN_ALIGN 128
extern struct fc_tunables fc_tun FC_HIDDEN __attribute__((aligned(FC_TUN_ALIGN)));
_Static_assert(sizeof(struct fc_tunables) <= FC_TUN_ALIGN,
               "struct fc_tunables must fit in FC_TUN_ALIGN bytes (one page, one adrp)");

/* Freestanding string helpers, safe inside resolvers (no libc, no relocations). */
FC_HIDDEN size_t fc_strlen(const char *s);
FC_HIDDEN int fc_streq(const char *a, const char *b);
/* Appends src to the NUL-terminated buffer dst of size cap; truncates. */
FC_HIDDEN void fc_strcat(char *dst, size_t cap, const char *src);
/* Appends the decimal (with K/M/G suffix when exact) form of v. */
FC_HIDDEN void fc_strcat_size(char *dst, size_t cap, uint64_t v);
/* Appends "0x" and the hexadecimal form of v. */
FC_HIDDEN void fc_strcat_hex(char *dst, size_t cap, uint64_t v);
/* Appends label, then v (hexadecimal when hex, else as fc_strcat_size). */
FC_HIDDEN void fc_strcat_num(char *dst, size_t cap, const char *label, uint64_t v, int hex);
FC_HIDDEN void fc_bytezero(void *p, size_t n);
/* Copies n bytes one at a time (a compiler cannot make it a call to memcpy). */
FC_HIDDEN void fc_bytecopy(void *dst, const void *src, size_t n);
/* "4096", "64K", "64KiB", "32M", "1G", "0x1000" -> bytes: 1, or 0 on a syntax error
 * or a value above 2^62 (util.c has the grammar). */
FC_HIDDEN int fc_parse_size(const char *s, size_t *out);
/* d->sel[f] = idx (0, the portable variant, when idx < 0), d->why[f] = why1 why2:
 * the one way every architecture's policy records a choice. */
FC_HIDDEN void fc_decision_set(struct fc_decision *d, int f, int idx, const char *why1,
                               const char *why2);

/* Portable kernels (src/generic.c): every architecture has them. */
FC_HIDDEN void *fc_memcpy_generic(void *d, const void *s, size_t n);
FC_HIDDEN void *fc_memmove_generic(void *d, const void *s, size_t n);
FC_HIDDEN void *fc_memset_generic(void *d, int c, size_t n);

static inline const char *fc_func_name(int f)
{
    return f == FC_MEMCPY ? "memcpy" : f == FC_MEMMOVE ? "memmove" : "memset";
}

#endif
