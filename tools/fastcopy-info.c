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
#include <unistd.h>
#include "fastcopy.h"
#include "info-pid.h"

/* A -Dhwcaps=true install (docs/packaging.md): the copies beside the one loaded,
 * by the kernel their exported memcpy/memmove/memset are.  The loader picks a
 * copy by ISA level; some CPU classes select another variant than their level's
 * copy is, and divert on every call: the copy whose body they select runs them
 * directly when preloaded by path. */
static const struct {
    const char *body, *dir;
} copies[] = {{"avx2", "glibc-hwcaps/x86-64-v3"}, {"avx512", "glibc-hwcaps/x86-64-v4"},
              {"avx512_1branch", "fastcopy/avx512_1branch"}, {"avx2_keepupper", "fastcopy/avx2_keepupper"}};

/* After the report: when its exported names divert to one body that another
 * installed copy has, that copy's path. */
static void advise_copy(const char *report, const char *path)
{
    const char *want = NULL, *p = report;
    size_t wlen = 0;
    while ((p = strstr(p, "; the body ")) != NULL) {
        p += strlen("; the body ");
        size_t n = strcspn(p, " ");
        if (want && (n != wlen || strncmp(want, p, n)))
            return; /* two bodies wanted: no one copy runs all directly */
        want = p, wlen = n;
    }
    if (!want || path[0] != '/')
        return;
    char libdir[4096];
    snprintf(libdir, sizeof libdir, "%s", path);
    char *slash = strrchr(libdir, '/');
    *slash = 0;
    for (size_t i = 0; i < sizeof copies / sizeof copies[0]; i++) {
        size_t dl = strlen(copies[i].dir), ll = strlen(libdir);
        if (ll > dl && libdir[ll - dl - 1] == '/' && !strcmp(libdir + ll - dl, copies[i].dir))
            libdir[ll - dl - 1] = 0;
    }
    for (size_t i = 0; i < sizeof copies / sizeof copies[0]; i++) {
        if (strlen(copies[i].body) != wlen || strncmp(copies[i].body, want, wlen))
            continue;
        char cand[4200];
        snprintf(cand, sizeof cand, "%s/%s/libfastcopy.so.0", libdir, copies[i].dir);
        if (access(cand, R_OK))
            return;
        printf("\nThe copy whose names are the %s kernel, which this CPU runs directly:\n"
               "  %s\n  (preload it by that path; a path bypasses glibc-hwcaps: right on CPUs "
               "that select %s, correct on any)\n",
               copies[i].body, cand, copies[i].body);
        return;
    }
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--version")) {
        printf("fastcopy-info (libfastcopy) %s\n", fc_version());
        return 0;
    }
    if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        puts("usage: fastcopy-info [--version | --help | --pid PID [--recompute]]\n"
             "Prints the libfastcopy shared object it loaded, the CPU facts the library\n"
             "saw, every variant with usable/selected, the thresholds, the runtime\n"
             "control, and why each function got its variant.  Honours the same\n"
             "FASTCOPY_* environment overrides as the library (see fastcopy-info(1),\n"
             "libfastcopy(7)).\n"
             "--pid PID: whether that running process has libfastcopy, which copy, and\n"
             "which variants it uses and why, read from its memory (another user's\n"
             "process needs root) or, where that cannot be read or with --recompute,\n"
             "recomputed from its environment, the tuning file and this CPU.");
        return 0;
    }
    if (argc > 1 && !strcmp(argv[1], "--status-dump")) /* recomputing for --pid */
        return fc_info_status_dump();
    if (argc > 2 && !strcmp(argv[1], "--pid")) {
        int recompute = argc > 3 && !strcmp(argv[3], "--recompute");
        if (argc > 3 + recompute) {
            fprintf(stderr, "fastcopy-info: unknown option '%s' (try --help)\n", argv[3 + recompute]);
            return 2;
        }
        return fc_info_pid(argv[2], recompute);
    }
    if (argc > 1 && !strcmp(argv[1], "--pid")) {
        fprintf(stderr, "fastcopy-info: --pid needs a process id (try --help)\n");
        return 2;
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
    advise_copy(report, path);
    free(report);
    return 0;
}
