/* fastcopy-info - what libfastcopy sees on this machine and what it chose.
 * Prints the CPU facts, every variant (usable / selected), the thresholds, and why
 * each function got its variant.  Runs the same probe, policy and FASTCOPY_*
 * overrides as the library does at load time. */
#include <stdio.h>
#include <string.h>
#include "fastcopy.h"
#include "arch.h"
#include "dispatch.h"

static void size_line(const char *name, size_t v, const char *what)
{
    char buf[32] = "";
    fc_strcat_size(buf, sizeof buf, v);
    printf("  %-22s %10s  %s\n", name, v ? buf : "-", what);
}

int main(int argc, char **argv)
{
    char facts[1024];

    if (argc > 1 && !strcmp(argv[1], "--version")) {
        printf("fastcopy-info (libfastcopy) %s\n", fc_version());
        return 0;
    }
    if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        puts("usage: fastcopy-info [--version | --help]\n"
             "Prints the CPU facts libfastcopy saw, every variant with usable/selected,\n"
             "the thresholds, and why each function got its variant.  Honours the same\n"
             "FASTCOPY_* environment overrides as the library (see fastcopy-info(1)).");
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "fastcopy-info: unknown option '%s' (try --help)\n", argv[1]);
        return 2;
    }
    const struct fc_variant *v;
    size_t n = fc_variants(&v);
    const struct fc_decision *d = fc_decide_runtime();
    printf("libfastcopy %s (%s)\n\nCPU facts\n", fc_version(), FC_ARCH_NAME);
    fc_arch_describe((const fc_cpu_t *)fc_cpu_facts(), facts, sizeof facts);
    for (char *line = strtok(facts, "\n"); line; line = strtok(NULL, "\n"))
        printf("  %s\n", line);

    printf("\nVariants (* = selected)\n");
    for (int f = 0; f < FC_NFUNCS; f++) {
        const char *sel = fc_selected(fc_func_name(f));
        printf("  %-8s", fc_func_name(f));
        for (size_t i = 0; i < n; i++)
            if (!strcmp(v[i].func, fc_func_name(f)))
                printf(" %s%s%s", !strcmp(v[i].name, sel) ? "*" : "", v[i].name,
                       v[i].usable ? "" : "(unusable)");
        printf("\n");
    }

    printf("\nThresholds (bytes; override with the FASTCOPY_* variable named)\n");
    size_line("nt_threshold", d->tun.nt_threshold,
              "non-temporal stores from here (FASTCOPY_NT_THRESHOLD)");
    size_line("rep_movsb_threshold", d->tun.rep_movsb_threshold,
              "memcpy/memmove use rep movsb from here (FASTCOPY_REP_MOVSB_THRESHOLD)");
    size_line("rep_movsb_stop", d->tun.rep_movsb_stop,
              "... up to here (FASTCOPY_REP_MOVSB_STOP)");
    size_line("rep_stosb_threshold", d->tun.rep_stosb_threshold,
              "memset uses rep stosb from here (FASTCOPY_REP_STOSB_THRESHOLD)");
    size_line("rep_stosb_stop", d->tun.rep_stosb_stop,
              "... up to here (FASTCOPY_REP_STOSB_STOP)");
    size_line("rep_stosb_resume", d->tun.rep_stosb_resume,
              "... and again from here to nt_threshold (FASTCOPY_REP_STOSB_RESUME)");
    size_line("zva_threshold", d->tun.zva_threshold,
              "aarch64: DC ZVA zeroing from here (FASTCOPY_ZVA_THRESHOLD)");
    size_line("zva_size", d->tun.zva_size, "aarch64: DC ZVA block size (DCZID_EL0)");
    size_line("cboz_size", d->tun.cboz_size, "riscv64: cbo.zero block size");
    size_line("alias_backward_stop", d->tun.alias_backward_stop,
              "x86: 4K-aliased forward copies run backward below this "
              "(FASTCOPY_ALIAS_BACKWARD_STOP)");

    printf("\nWhy\n");
    for (int f = 0; f < FC_NFUNCS; f++)
        printf("  %-8s %-8s %s\n", fc_func_name(f), fc_selected(fc_func_name(f)),
               fc_selected_reason(fc_func_name(f)));
    return 0;
}
