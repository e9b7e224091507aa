/* info.c - fc_describe(): the report fastcopy-info prints, made by the library
 * itself, so that the tool describes the shared object a program loads (its
 * probe, policy and FASTCOPY_* overrides), not a copy of its own.
 * Runs after libc is initialised (never inside a resolver): snprintf is fine. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "arch.h"
#include "dispatch.h"
#include "fastcopy.h"

struct out {
    char *buf;
    size_t cap, len;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o->len < o->cap ? o->buf + o->len : NULL,
                      o->len < o->cap ? o->cap - o->len : 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->len += (size_t)n;
}

static void size_line(struct out *o, const char *name, size_t v, const char *what)
{
    char num[32];
    num[0] = 0;
    fc_strcat_size(num, sizeof num, v);
    put(o, "  %-22s %10s  %s\n", name, v ? num : "-", what);
}

FC_API size_t fc_describe(char *buf, size_t cap)
{
    struct out o = {buf, buf ? cap : 0, 0};
    char facts[1024];
    const struct fc_variant *v;
    size_t n = fc_variants(&v);
    const struct fc_decision *d = fc_decide_runtime();

    put(&o, "libfastcopy %s (%s)\n\nCPU facts\n", fc_version(), FC_ARCH_NAME);
    fc_arch_describe((const fc_cpu_t *)fc_cpu_facts(), facts, sizeof facts);
    for (char *line = facts, *end; *line; line = end + (*end != 0)) {
        end = strchr(line, '\n');
        if (!end)
            end = line + strlen(line);
        if (end > line)
            put(&o, "  %.*s\n", (int)(end - line), line);
    }

    put(&o, "\nVariants (* = selected)\n");
    for (int f = 0; f < FC_NFUNCS; f++) {
        const char *sel = fc_selected(fc_func_name(f));
        put(&o, "  %-8s", fc_func_name(f));
        for (size_t i = 0; i < n; i++)
            if (!strcmp(v[i].func, fc_func_name(f)))
                put(&o, " %s%s%s", !strcmp(v[i].name, sel) ? "*" : "", v[i].name,
                    v[i].usable ? "" : "(unusable)");
        put(&o, "\n");
    }

    put(&o, "\nThresholds (bytes; override with the FASTCOPY_* variable named)\n");
    size_line(&o, "nt_threshold", d->tun.nt_threshold,
              "non-temporal stores from here (FASTCOPY_NT_THRESHOLD)");
    size_line(&o, "rep_movsb_threshold", d->tun.rep_movsb_threshold,
              "memcpy/memmove use rep movsb from here (FASTCOPY_REP_MOVSB_THRESHOLD)");
    size_line(&o, "rep_movsb_stop", d->tun.rep_movsb_stop,
              "... up to here (FASTCOPY_REP_MOVSB_STOP)");
    size_line(&o, "rep_stosb_threshold", d->tun.rep_stosb_threshold,
              "memset uses rep stosb from here (FASTCOPY_REP_STOSB_THRESHOLD)");
    size_line(&o, "rep_stosb_stop", d->tun.rep_stosb_stop,
              "... up to here (FASTCOPY_REP_STOSB_STOP)");
    size_line(&o, "rep_stosb_resume", d->tun.rep_stosb_resume,
              "... and again from here to nt_threshold (FASTCOPY_REP_STOSB_RESUME)");
    size_line(&o, "zva_threshold", d->tun.zva_threshold,
              "aarch64: DC ZVA zeroing from here (FASTCOPY_ZVA_THRESHOLD)");
    size_line(&o, "zva_size", d->tun.zva_size, "aarch64: DC ZVA block size (DCZID_EL0)");
    size_line(&o, "cboz_size", d->tun.cboz_size, "riscv64: cbo.zero block size");
    size_line(&o, "alias_backward_stop", d->tun.alias_backward_stop,
              "x86: 4K-aliased forward copies run backward below this "
              "(FASTCOPY_ALIAS_BACKWARD_STOP)");
    size_line(&o, "memset_masked_max", d->tun.memset_masked_max,
              "x86 avx512: memsets up to here take one masked store, larger ones "
              "branch-free up to 255 (FASTCOPY_MEMSET_MASKED_MAX)");

    put(&o, "\nWhy\n");
    for (int f = 0; f < FC_NFUNCS; f++)
        put(&o, "  %-8s %-8s %s\n", fc_func_name(f), fc_selected(fc_func_name(f)),
            fc_selected_reason(fc_func_name(f)));
    return o.len;
}
