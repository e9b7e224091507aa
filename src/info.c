/* info.c - fc_describe(): the report fastcopy-info prints, made by the library
 * itself, so that the tool describes the shared object a program loads (its
 * probe, policy and FASTCOPY_* overrides), not a copy of its own.
 * Runs after libc is initialised (never inside a resolver): snprintf is fine. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "arch.h"
#include "dispatch.h"
#include "control.h"
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

    /* How the exported names are bound (exports.c; absent in programs that link
     * the library's parts without its exported names), which copy of the shared
     * object this is (x86_64, -Dhwcaps=true), and which kernel memcpy, memmove and
     * memset are (x86_64). */
    extern const char fc_dropin_binding[] __attribute__((weak, visibility("hidden")));
    extern const char fc_dropin_copy_name[] __attribute__((weak, visibility("hidden")));
    extern const char fc_dropin_body[] __attribute__((weak, visibility("hidden")));
    extern const char fc_dropin_copy_body[] __attribute__((weak, visibility("hidden")));
    extern const char fc_dropin_set_body[] __attribute__((weak, visibility("hidden")));
    if (fc_dropin_binding) {
        put(&o, "\nExported memcpy, memmove, memset (what a preloading or linking program calls)\n");
        if (fc_dropin_copy_name && fc_dropin_copy_name[0])
            put(&o, "  copy: %s (one of the copies a -Dhwcaps=true install holds; which CPU "
                    "loads which: docs/packaging.md)\n", fc_dropin_copy_name);
        if (!strcmp(fc_dropin_binding, "ifunc"))
            put(&o, "  IFUNC symbols: each bound at load to the selected variant\n");
        else if (!strcmp(fc_dropin_binding, "stub"))
            put(&o, "  each a jump through a slot that the first call (or a constructor) "
                    "fills with the selected variant\n");
        else if (!strcmp(fc_dropin_binding, "trampoline"))
            put(&o, "  each one jump through a slot to the selected variant (dropin_body=none)\n");
    }
    if (fc_dropin_binding && fc_dropin_copy_body) {
        if (strcmp(fc_dropin_copy_body, fc_dropin_set_body))
            put(&o, "  the %s kernel itself, memset the %s one (meson option dropin_body=%s)\n",
                fc_dropin_copy_body, fc_dropin_set_body, fc_dropin_body);
        else
            put(&o, "  the %s kernel itself (meson option dropin_body=%s)\n", fc_dropin_copy_body,
                fc_dropin_body);
        for (int f = 0; f < FC_NFUNCS; f++) {
            const char *sel = fc_selected(fc_func_name(f));
            const char *body = f == FC_MEMSET ? fc_dropin_set_body : fc_dropin_copy_body;
            int inl = !strcmp(sel, body);
            int other = !strcmp(sel, "avx2") || !strcmp(sel, "avx2_keepupper") ||
                        !strcmp(sel, "avx512") || !strcmp(sel, "avx512_1branch");
            if (inl)
                put(&o, "  %-8s runs it directly (nothing before it)\n", fc_func_name(f));
            else
                put(&o, "  %-8s diverted on every call to %s, the selected variant (two loads and "
                        "two taken jumps more)%s%s%s\n",
                    fc_func_name(f), sel, other ? "; the body " : "", other ? sel : "",
                    other ? " runs it directly" : "");
        }
    }

    /* Runtime control and the diagnostics (control.c) */
    int dis = fc_control_disabled();
    unsigned bound = fc_control_libc_bound();
    put(&o, "\nRuntime control\n");
    if (!dis)
        put(&o, "  enabled (FASTCOPY_DISABLE=1, or the file " FC_DISABLE_FILE ", sends the "
                "exported names to the C library's functions)\n");
    else
        put(&o, "  disabled by %s%s%s: the exported names call %s\n",
            dis & FC_DISABLED_ENV ? "FASTCOPY_DISABLE=1" : "",
            dis == (FC_DISABLED_ENV | FC_DISABLED_FILE) ? " and " : "",
            dis & FC_DISABLED_FILE ? FC_DISABLE_FILE : "",
            bound == 7 ? "the C library's memcpy, memmove and memset"
            : bound    ? "the C library's functions where found, libfastcopy's elsewhere"
                       : "libfastcopy's still: no other memcpy, memmove and memset in this "
                         "program (statically linked)");
    unsigned nd = fc_diag_count();
    if (nd) {
        int q = fc_control_quiet();
        put(&o, "\nMessages (%s)\n",
            fc_diag_printed() ? "the process printed the first on stderr"
            : q & 1           ? "none printed: FASTCOPY_QUIET=1"
            : q & 2           ? "none printed: " FC_QUIET_FILE " exists"
                              : "none printed");
        for (unsigned i = 0; i < FC_DIAG_KEEP; i++)
            if (fc_diag_get(i))
                put(&o, "  %s\n", fc_diag_get(i));
        if (nd > FC_DIAG_KEEP)
            put(&o, "  (and %u more)\n", nd - FC_DIAG_KEEP);
    }

    static const char *const from[] = {"policy", "tuning file", "environment"};
    put(&o, "\nTuning file\n  %s\n", d->tuning);
    put(&o, "\nThresholds (bytes; from: policy, tuning file or environment; override with "
            "the FASTCOPY_* variable named)\n");
    static const struct { const char *name, *env, *arch, *meaning; size_t off; } rows[FC_NTUN] = {
#define FC_TUNABLE(field, env, arch, min, max, meaning) \
    {#field, env, arch, meaning, __builtin_offsetof(struct fc_tunables, field)},
#include "tunables.def"
#undef FC_TUNABLE
    };
    for (unsigned t = 0; t < FC_NTUN; t++) {
        char num[32], what[192];
        size_t v = *(const size_t *)((const char *)&d->tun + rows[t].off);
        num[0] = 0;
        fc_strcat_size(num, sizeof num, v);
        snprintf(what, sizeof what, "%s%s%s%s", rows[t].meaning, rows[t].env[0] ? " (FASTCOPY_" : "",
                 rows[t].env, rows[t].env[0] ? ")" : "");
        /* "-" = not this architecture's, or a hardware fact that is absent (a
         * DC ZVA or cbo.zero block size of 0); a 0 that a policy, a tuning file
         * or FASTCOPY_* set is a setting (alias_backward_stop 0: never backward;
         * memset_masked_max 0: branch-free) and shows as 0 */
        int mine = !strcmp(rows[t].arch, FC_ARCH_NAME);
        put(&o, "  %-22s %10s  %-11s  %s\n", rows[t].name,
            mine && (v || rows[t].env[0]) ? num : "-", mine ? from[d->tun_from[t]] : "-", what);
    }

    put(&o, "\nWhy (and from: policy, tuning file or environment)\n");
    for (int f = 0; f < FC_NFUNCS; f++)
        put(&o, "  %-8s %-14s %-11s  %s\n", fc_func_name(f), fc_selected(fc_func_name(f)),
            from[d->sel_from[f]], fc_selected_reason(fc_func_name(f)));
    return o.len;
}
