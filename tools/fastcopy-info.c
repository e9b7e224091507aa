/* fastcopy-info - what libfastcopy sees on this machine and what it chose.
 * Prints the path of the libfastcopy shared object it loaded (the one a program
 * that preloads or links the library gets), then the library's own report
 * (fc_describe): the CPU facts, every variant (usable / selected), the thresholds,
 * and why each function got its variant, after the FASTCOPY_* overrides. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fastcopy.h"

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--version")) {
        printf("fastcopy-info (libfastcopy) %s\n", fc_version());
        return 0;
    }
    if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        puts("usage: fastcopy-info [--version | --help]\n"
             "Prints the libfastcopy shared object it loaded, the CPU facts the library\n"
             "saw, every variant with usable/selected, the thresholds, and why each\n"
             "function got its variant.  Honours the same FASTCOPY_* environment\n"
             "overrides as the library (see fastcopy-info(1), libfastcopy(7)).");
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "fastcopy-info: unknown option '%s' (try --help)\n", argv[1]);
        return 2;
    }
    size_t n = fc_describe(NULL, 0);
    char *report = malloc(n + 1);
    if (!report) {
        perror("fastcopy-info");
        return 1;
    }
    fc_describe(report, n + 1);
    /* The report's first line names the version and architecture; the path of the
     * object that fc_version lives in goes right after it. */
    char *nl = strchr(report, '\n');
    Dl_info di;
    const char *path = dladdr((void *)fc_version, &di) && di.dli_fname ? di.dli_fname : "?";
    printf("%.*s\nshared object: %s\n%s", nl ? (int)(nl - report) : (int)n, report, path,
           nl ? nl + 1 : "\n");
    free(report);
    return 0;
}
