/* test_dropin.c - the exported drop-in names of libfastcopy.so: every name is
 * interposed and bound to the selected variant, the wrappers' semantics, the
 * fortify _chk abort path, and the FASTCOPY_* overrides (in child processes).
 * argv[1] = print_selected program, argv[2] = fastcopy-info program.
 * FC_DROPIN_LIB=PATH: check that shared object instead, preloaded (the tracing
 * build, libfastcopy-trace.so, whose names are counting wrappers rather than
 * the kernels or their trampolines). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "fastcopy.h"
#if defined(__x86_64__) && !defined(FC_DROPIN_IFUNC)
#include "fc_dropin_config.h"
#endif

static const char *print_selected_path, *info_path;
/* The program run setuid by test_at_secure (a static one where the loader
 * ignores the build tree's RUNPATH in setuid programs: musl). */
static const char *secure_print_selected_path;
static void *lib;
static const char *lib_name = "libfastcopy.so.0"; /* FC_DROPIN_LIB: another drop-in */
static int other_lib;

static void *sym(const char *name)
{
    void *p = dlsym(lib, name);
    if (!p)
        fail_msg("libfastcopy does not export %s", name);
    return p;
}

#if defined(__x86_64__) && !defined(FC_DROPIN_IFUNC)
/* A size tunable's value as fc_describe() reports it ("  name  64  policy ...";
 * "-" is 0, K/M/G suffixes are powers of 1024), or -1 when it is not listed. */
static __attribute__((unused)) long long described_tunable(const char *name)
{
    static char buf[16384];
    fc_describe(buf, sizeof buf);
    size_t len = strlen(name);
    for (const char *p = buf; (p = strstr(p, name)) != NULL; p += len) {
        if ((p > buf && p[-1] != ' ') || p[len] != ' ')
            continue;
        const char *v = p + len;
        while (*v == ' ')
            v++;
        if (*v == '-')
            return 0;
        char *end;
        long long x = strtoll(v, &end, 10);
        return *end == 'K' ? x << 10 : *end == 'M' ? x << 20 : *end == 'G' ? x << 30 : x;
    }
    return -1;
}

/* The divert at t: "cmpq $0, limit(%rip)" (48 83 3d disp32 00) on the word the
 * drop-in's first compare read. */
static void assert_divert(const unsigned char *t, const size_t *limit)
{
    assert_int_equal(t[0], 0x48);
    assert_int_equal(t[1], 0x83);
    assert_int_equal(t[2], 0x3d);
    assert_int_equal(t[7], 0x00);
    int32_t d;
    memcpy(&d, t + 3, 4);
    assert_ptr_equal(t + 8 + d, limit);
}

/* Where the conditional jump at j (condition code cc: 0x3 jae, 0x4 je) goes, in
 * either encoding (rel8: 0x70+cc; rel32: 0x0f 0x80+cc). */
static const unsigned char *jcc_target(const unsigned char *j, unsigned cc)
{
    if (j[0] == 0x70 + cc)
        return j + 2 + (int8_t)j[1];
    assert_int_equal(j[0], 0x0f);
    assert_int_equal(j[1], 0x80 + cc);
    int32_t rel;
    memcpy(&rel, j + 2, 4);
    return j + 6 + rel;
}
#endif

static void test_exports_interpose(void **s)
{
    (void)s;
    static const char *names[] = {"memcpy", "memmove", "memset", "mempcpy", "__mempcpy",
                                  "bzero", "bcopy", "explicit_bzero", "__memcpy_chk",
                                  "__memmove_chk", "__memset_chk", "__mempcpy_chk",
                                  "__explicit_bzero_chk"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        void *ours = sym(names[i]);
        /* The process-wide binding (what the program and libc's users get) is ours. */
        void *global = dlsym(RTLD_DEFAULT, names[i]);
        Dl_info info;
        assert_non_null(global);
        assert_true(dladdr(global, &info));
        if (!strstr(info.dli_fname, "libfastcopy"))
            fail_msg("%s is bound to %s, not libfastcopy", names[i], info.dli_fname);
        assert_ptr_equal(global, ours);
    }
    /* FC_EXPECT_COPY (the -Dhwcaps=true copies, test/meson.build): the shared
     * object that defines them is that copy's. */
    const char *copy = getenv("FC_EXPECT_COPY");
    if (copy) {
        Dl_info info;
        char want[64];
        snprintf(want, sizeof want, "/copies/%s/", copy);
        assert_true(dladdr(sym("memcpy"), &info));
        if (!strstr(info.dli_fname, want))
            fail_msg("memcpy is %s's, not the %s copy's", info.dli_fname, copy);
    }
    /* memcpy/memmove/memset reach the selected variant's kernel.  On aarch64 and
     * riscv64 (and x86_64 with -Ddropin_ifunc=true) the exported names are the
     * IFUNCs themselves, so the bound address is the kernel.  Otherwise, on x86_64,
     * the exported symbol is a trampoline "jmp *slot(%rip)" (see src/exports.c)
     * whose slot the IFUNC filled at load time, decoded here.  Under musl (no
     * IFUNC) every name is such a trampoline, filled by the first call (one was
     * made before main): on aarch64 "adrp x16, slot; ldr x16, [x16, #lo12]; br
     * x16" (src/dispatch.h), decoded here too. */
    const struct fc_variant *v;
    if (other_lib) /* the trace library's names are wrappers around the same kernels */
        goto hidden;
#if defined(__aarch64__)
    size_t n = fc_variants(&v);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(v[i].name, fc_selected(v[i].func))) {
            const uint32_t *f = sym(v[i].func), *t = f;
            if (t[0] == 0xd503245f) /* bti c */
                t++;
            if ((t[0] & 0x9f00001f) != 0x90000010) { /* not adrp x16: the kernel itself */
                assert_ptr_equal((void *)v[i].fn, (const void *)f);
                continue;
            }
            /* adrp x16, page; ldr x16, [x16, #imm12 * 8]; br x16 */
            assert_int_equal(t[1] & 0xffc003ff, 0xf9400210);
            assert_int_equal(t[2], 0xd61f0200);
            int64_t pages = (int64_t)((((t[0] >> 5) & 0x7ffff) << 2) | ((t[0] >> 29) & 3));
            if (pages & (1 << 20))
                pages -= (int64_t)1 << 21;
            uintptr_t page = ((uintptr_t)t & ~(uintptr_t)0xfff) + (uintptr_t)(pages * 4096);
            void *const *slot = (void *const *)(page + ((t[1] >> 10) & 0xfff) * 8);
            assert_ptr_equal(*slot, (void *)v[i].fn);
        }
#elif defined(FC_DROPIN_IFUNC) || (defined(__riscv) && __riscv_xlen == 64)
    size_t n = fc_variants(&v);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(v[i].name, fc_selected(v[i].func)))
            assert_ptr_equal((void *)v[i].fn, sym(v[i].func));
#elif defined(__x86_64__)
    size_t n = fc_variants(&v);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(v[i].name, fc_selected(v[i].func))) {
            const unsigned char *t = sym(v[i].func);
            if (t[0] == 0xf3 && t[1] == 0x0f && t[2] == 0x1e && t[3] == 0xfa)
                t += 4; /* endbr64 */
            /* dropin_body=none (the -Dhwcaps=true baseline copy): every name is its
             * trampoline, checked below */
            int kernel_copy = !FC_DROPIN_BODY_NONE &&
                              (!strcmp(v[i].func, "memcpy") || !strcmp(v[i].func, "memmove") ||
                               !strcmp(v[i].func, "memset"));
            if (kernel_copy) {
#if FC_DROPIN_BODY_AVX2
                /* dropin_body=avx2 or avx2_keepupper: memcpy/memmove/memset are that kernel
                 * itself (src/x86_64/memmove_avx2.S, memset_avx2.S), whose first
                 * compare "cmp limit(%rip),%rdx; jae more_64" (48 3b 15, within
                 * 16 bytes) reads a word the resolver set: 65 when that is the
                 * selected variant, else 0 (every call takes the jae).  The jae's
                 * target starts with the divert "cmpq $0, limit(%rip); je
                 * slot_jump", slot_jump being "jmp *slot(%rip)". */
                const unsigned char *c = NULL;
                for (int k = 1; k < 16 && !c; k++)
                    if (t[k - 1] == 0x48 && t[k] == 0x3b && t[k + 1] == 0x15)
                        c = t + k;
                assert_non_null(c);
                int32_t d;
                memcpy(&d, c + 2, 4);
                const size_t *limit = (const size_t *)(c + 6 + d);
                if (strcmp(v[i].name, FC_DROPIN_BODY_NAME))
                    assert_int_equal(*limit, 0);
                else
                    assert_int_equal(*limit, 65);
                t = jcc_target(c + 6, 0x3); /* jae */
                assert_divert(t, limit);
                t = jcc_target(t + 8, 0x4); /* je */
#else
                /* memcpy/memmove/memset: the avx512 kernel itself
                 * (src/x86_64/dropin_*.S), one of whose first compares (within 48
                 * bytes) reads a word the resolver set: memcpy/memmove's page-end
                 * test "cmp limit(%rip),%ecx; jae near_end" (limit 4096, its low
                 * half compared), whose target starts with the divert; memset's
                 * masked-size test "cmp limit(%rip),%rdx; jb one_masked" (limit
                 * memset_masked_max + 1, so 1..65), with the divert right after
                 * it.  The limit is that exactly when avx512 is the selected
                 * variant, else 0 (every call meets the divert).  The divert is
                 * "cmpq $0, limit(%rip)", then memset's "je slot_jump", slot_jump
                 * being "jmp *slot(%rip)", and memcpy/memmove's "jne
                 * page_end_path; jmp *slot(%rip)" (a diverted call falls into the
                 * slot jump: DROPIN_DIVERT_ELSE_JUMP).
                 * dropin_body=avx512_1branch: memset is avx512_1branch's one-branch entry,
                 * "cmp limit(%rip),%rcx; jae other" (48 3b 0d; rcx is n with the
                 * page-end bit), whose target starts with the divert; the same
                 * limit. */
                int is_memset = !strcmp(v[i].func, "memset");
                int one_branch = is_memset && FC_DROPIN_BODY_AVX512_1BRANCH;
                const char *body = is_memset ? FC_DROPIN_SET_BODY_NAME : FC_DROPIN_COPY_BODY_NAME;
                const unsigned char *c = NULL;
                /* c: the compare's opcode byte.  memset: cmpq limit(%rip),%rdx
                 * (48 3b 15, REX.W first), or %rcx (48 3b 0d) in the one-branch
                 * entry; memcpy/memmove: cmpl limit(%rip),%ecx (3b 0d, no REX
                 * prefix). */
                for (int k = 1; k < 48 && !c; k++)
                    if (t[k] == 0x3b &&
                        t[k + 1] == (is_memset && !one_branch ? 0x15 : 0x0d) &&
                        (t[k - 1] == 0x48) == is_memset)
                        c = t + k;
                assert_non_null(c);
                int32_t d;
                memcpy(&d, c + 2, 4);
                const size_t *limit = (const size_t *)(c + 6 + d);
                int avx512 = !strcmp(v[i].name, body);
                if (!avx512)
                    assert_int_equal(*limit, 0);
                else if (is_memset)
                    assert_int_equal(*limit, described_tunable("memset_masked_max") + 1);
                else
                    assert_int_equal(*limit, 4096);
                const unsigned char *j = c + 6;
                if (one_branch) {
                    t = jcc_target(j, 0x3); /* jae */
                } else if (is_memset) {
                    /* jb, rel8, or rel32 should the one-masked-store path lie
                     * beyond its reach (a 32-byte alignment of that path did
                     * that in a -fcf-protection build); the divert follows */
                    if (j[0] == 0x0f) {
                        assert_int_equal(j[1], 0x82);
                        t = j + 6;
                    } else {
                        assert_int_equal(j[0], 0x72);
                        t = j + 2;
                    }
                } else {
                    t = jcc_target(j, 0x3); /* jae */
                }
                /* the divert: cmpq $0, limit(%rip) (the same word); je */
                assert_divert(t, limit);
                if (is_memset) {
                    t = jcc_target(t + 8, 0x4); /* je */
                } else {
                    /* jne (rel8 or rel32) to the page-end path, then the slot jump */
                    size_t len = t[8] == 0x75 ? 2 : 6;
                    if (len == 6) {
                        assert_int_equal(t[8], 0x0f);
                        assert_int_equal(t[9], 0x85);
                    }
                    t += 8 + len;
                }
#endif
                /* And calls of every size class work: 0..70, then to the loop,
                 * rep movsb/stosb and non-temporal sizes.  Under valgrind (no
                 * AVX-512, so avx512 is never selected) a path that missed the
                 * slot would stop at its first AVX-512 instruction. */
                static unsigned char a[70002], b[70002];
                static const size_t big[] = {100, 255, 256, 257, 511, 700, 4100, 20000, 69999};
                for (size_t q = 0; q < 71 + sizeof big / sizeof big[0]; q++) {
                    size_t len = q < 71 ? q : big[q - 71];
                    for (size_t k = 0; k < len + 2; k++)
                        a[k] = (unsigned char)(k * 3 + len), b[k] = 0xa5;
                    if (strcmp(v[i].func, "memset")) {
                        void *(*f)(void *, const void *, size_t) =
                            (void *(*)(void *, const void *, size_t))sym(v[i].func);
                        assert_ptr_equal(f(b + 1, a, len), b + 1);
                        assert_memory_equal(a, b + 1, len);
                    } else {
                        void *(*f)(void *, int, size_t) =
                            (void *(*)(void *, int, size_t))sym(v[i].func);
                        assert_ptr_equal(f(b + 1, 0x3c, len), b + 1);
                        for (size_t k = 0; k < len; k++)
                            assert_int_equal(b[1 + k], 0x3c);
                    }
                    assert_int_equal(b[0], 0xa5);
                    assert_int_equal(b[1 + len], 0xa5);
                }
            }
            assert_int_equal(t[0], 0xff);
            assert_int_equal(t[1], 0x25);
            int32_t disp;
            memcpy(&disp, t + 2, 4);
            void *const *slot = (void *const *)(t + 6 + disp);
            assert_ptr_equal(*slot, (void *)v[i].fn);
        }
#else
    (void)v;
#endif
hidden:
    /* Internal names stay hidden. */
    assert_null(dlsym(lib, "fc_decide"));
    assert_null(dlsym(lib, "fc_memmove_generic"));
    assert_null(dlsym(lib, "fc_tun"));
}

static void test_wrappers(void **s)
{
    (void)s;
    unsigned char a[5000], b[5000];
    for (size_t i = 0; i < sizeof a; i++)
        a[i] = (unsigned char)(i * 7 + 1);
    void *(*mempcpy_p)(void *, const void *, size_t) = sym("mempcpy");
    void *(*mempcpy2)(void *, const void *, size_t) = sym("__mempcpy");
    void (*bcopy_p)(const void *, void *, size_t) = sym("bcopy");
    void (*bzero_p)(void *, size_t) = sym("bzero");
    void (*ebzero)(void *, size_t) = sym("explicit_bzero");
    void *(*memcpy_chk)(void *, const void *, size_t, size_t) = sym("__memcpy_chk");
    void *(*memmove_chk)(void *, const void *, size_t, size_t) = sym("__memmove_chk");
    void *(*mempcpy_chk)(void *, const void *, size_t, size_t) = sym("__mempcpy_chk");
    void *(*memset_chk)(void *, int, size_t, size_t) = sym("__memset_chk");
    void (*ebzero_chk)(void *, size_t, size_t) = sym("__explicit_bzero_chk");

    for (size_t n = 0; n < sizeof a; n = n * 2 + 1) {
        memset(b, 0, sizeof b);
        assert_ptr_equal(mempcpy_p(b, a, n), b + n);
        assert_memory_equal(a, b, n);
        assert_ptr_equal(mempcpy2(b + 1, a, n), b + 1 + n);
        assert_ptr_equal(mempcpy_chk(b, a, n, sizeof b), b + n);
        assert_ptr_equal(memcpy_chk(b, a, n, n), b);
        assert_memory_equal(a, b, n);
        bcopy_p(a, b, n); /* bcopy(src, dst, n) */
        assert_memory_equal(a, b, n);
        bzero_p(b, n);
        for (size_t i = 0; i < n; i++)
            assert_int_equal(b[i], 0);
        assert_ptr_equal(memset_chk(b, 0x1ab, n, n), b);
        for (size_t i = 0; i < n; i++)
            assert_int_equal(b[i], 0xab);
        ebzero(b, n);
        for (size_t i = 0; i < n; i++)
            assert_int_equal(b[i], 0);
        memset(b, 1, n);
        ebzero_chk(b, n, sizeof b);
        for (size_t i = 0; i < n; i++)
            assert_int_equal(b[i], 0);
        /* overlapping memmove through the fortified form */
        memcpy(b, a, sizeof a);
        assert_ptr_equal(memmove_chk(b + 3, b, n, sizeof b - 3), b + 3);
        assert_memory_equal(b + 3, a, n);
    }
}

/* Runs argv in a child with extra environment; returns its stdout+stderr. */
static int run(char *const argv[], const char *const env[], char *out, size_t cap, int *status)
{
    int p[2];
    assert_int_equal(pipe(p), 0);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(p[1], 1);
        dup2(p[1], 2);
        close(p[0]);
        for (size_t i = 0; env && env[i]; i++)
            putenv((char *)env[i]);
        /* Cross builds: meson runs us under an emulator (MESON_EXE_WRAPPER, e.g.
         * "qemu-aarch64 -L ..."); the programs we start need it too. */
        const char *w = getenv("MESON_EXE_WRAPPER");
        if (w && *w) {
            char *words[32], *copy = strdup(w), *save = NULL;
            int k = 0;
            for (char *t = strtok_r(copy, " ", &save); t && k < 24; t = strtok_r(NULL, " ", &save))
                words[k++] = t;
            for (int i = 0; argv[i] && k < 31; i++)
                words[k++] = argv[i];
            words[k] = NULL;
            execvp(words[0], words);
            _exit(127);
        }
        execv(argv[0], argv);
        _exit(127);
    }
    close(p[1]);
    size_t len = 0;
    ssize_t r;
    while ((r = read(p[0], out + len, cap - 1 - len)) > 0)
        len += (size_t)r;
    out[len] = 0;
    close(p[0]);
    waitpid(pid, status, 0);
    return (int)len;
}

/* A fortified call whose destination is too small aborts with glibc's message. */
static void test_chk_abort(void **s)
{
    (void)s;
    static const char *names[] = {"__memcpy_chk", "__memmove_chk", "__mempcpy_chk",
                                  "__memset_chk", "__explicit_bzero_chk"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        int p[2];
        assert_int_equal(pipe(p), 0);
        pid_t pid = fork();
        if (pid == 0) {
            char d[8], src[16] = "0123456789abcde";
            dup2(p[1], 2);
            close(p[0]);
            void *f = sym(names[i]);
            if (i == 3)
                ((void *(*)(void *, int, size_t, size_t))f)(d, 'x', 16, sizeof d);
            else if (i == 4)
                ((void (*)(void *, size_t, size_t))f)(d, 16, sizeof d);
            else
                ((void *(*)(void *, const void *, size_t, size_t))f)(d, src, 16, sizeof d);
            _exit(0); /* not reached if the check works */
        }
        close(p[1]);
        char buf[512] = "";
        ssize_t r = read(p[0], buf, sizeof buf - 1);
        buf[r > 0 ? r : 0] = 0;
        close(p[0]);
        int st;
        waitpid(pid, &st, 0);
        if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGABRT)
            fail_msg("%s with a too-small destination did not abort (status %d)", names[i], st);
        assert_non_null(strstr(buf, "buffer overflow detected"));
    }
}

static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static void test_overrides(void **s)
{
    (void)s;
    char out[4096];
    int st;
    char *ps[] = {(char *)print_selected_path, NULL};
    const char *def_memcpy = fc_selected("memcpy");
    char want[128];

    /* A valid name forces that variant, silently: memcpy to "generic", memset to
     * the last usable variant of this CPU that is not the automatic choice. */
    const struct fc_variant *v;
    size_t nv = fc_variants(&v);
    const char *alt = "generic";
    for (size_t i = 0; i < nv; i++)
        if (!strcmp(v[i].func, "memset") && v[i].usable && strcmp(v[i].name, fc_selected("memset")))
            alt = v[i].name;
    char set_alt[64];
    snprintf(set_alt, sizeof set_alt, "FASTCOPY_MEMSET=%s", alt);
    const char *e1[] = {"FASTCOPY_MEMCPY=generic", set_alt, NULL};
    run(ps, e1, out, sizeof out, &st);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    snprintf(want, sizeof want, "memcpy=generic memmove=%s memset=%s\n", fc_selected("memmove"), alt);
    assert_string_equal(out, want);

    /* An unknown name: exactly one line on stderr, the automatic choice stands. */
    const char *e2[] = {"FASTCOPY_MEMMOVE=turbo", NULL};
    run(ps, e2, out, sizeof out, &st);
    assert_non_null(strstr(out, "libfastcopy: FASTCOPY_MEMMOVE=turbo: unknown variant"));
    snprintf(want, sizeof want, "memmove=%s ", fc_selected("memmove"));
    assert_non_null(strstr(out, want));
    char *nl = strchr(out, '\n');
    assert_non_null(nl);
    assert_true(strncmp(nl + 1, "memcpy=", 7) == 0); /* one line, then the program's */

    /* Unknown variable and a bad size (of a variable this architecture uses): the
     * process prints one line, the first, naming how many more there are;
     * fastcopy-info lists each (below); defaults stand. */
#if defined(__aarch64__)
#define SIZE_VAR "FASTCOPY_ZVA_START"
#else
#define SIZE_VAR "FASTCOPY_NT_START"
#endif
    const char *e3[] = {"FASTCOPY_NONSENSE=1", SIZE_VAR "=lots", NULL};
    run(ps, e3, out, sizeof out, &st);
    assert_int_equal(count_of(out, "libfastcopy:"), 1);
    assert_non_null(strstr(out, " (and 1 more: fastcopy-info lists them)\n"));
    snprintf(want, sizeof want, "memcpy=%s ", def_memcpy);
    assert_non_null(strstr(out, want));
    char *info_e3[] = {(char *)info_path, NULL};
    run(info_e3, e3, out, sizeof out, &st);
    assert_non_null(strstr(out, "\n  libfastcopy: FASTCOPY_NONSENSE: unknown FASTCOPY_ variable"));
#if defined(__x86_64__) || defined(__aarch64__)
    assert_non_null(strstr(out, "\n  libfastcopy: " SIZE_VAR "=lots: not a size"));
#else /* no size variable applies here: refused as another architecture's */
    assert_non_null(strstr(out, "\n  libfastcopy: " SIZE_VAR "=lots: only used on x86_64"));
#endif

    /* Thresholds reach the library (fastcopy-info runs the same code). */
    char *info[] = {(char *)info_path, NULL};
#if defined(__x86_64__)
    const char *e4[] = {"FASTCOPY_NT_START=3M", "FASTCOPY_REP_STOSB_START=4096", NULL};
    run(info, e4, out, sizeof out, &st);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_null(strstr(out, "libfastcopy:"));
    assert_non_null(strstr(out, "nt_start                       3M"));
    assert_non_null(strstr(out, "rep_stosb_start                4K"));
#elif defined(__aarch64__)
    const char *e4[] = {"FASTCOPY_ZVA_START=8K", NULL};
    run(info, e4, out, sizeof out, &st);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_null(strstr(out, "libfastcopy:"));
    assert_non_null(strstr(out, "zva_start                      8K"));
#endif
    const char *e5[] = {"FASTCOPY_MEMSET=generic", NULL};
    run(info, e5, out, sizeof out, &st);
    assert_non_null(strstr(out, "forced by FASTCOPY_MEMSET=generic"));
}

/* The former names (libfastcopy(7), FORMER NAMES): a variable under its former
 * name, a variant under its former name, accepted without a word; fastcopy-info
 * and fc_selected say the names now; a variable given under both names takes
 * the current one's value, whichever comes first. */
#if defined(__x86_64__)
static int usable(const char *func, const char *name)
{
    const struct fc_variant *v;
    size_t nv = fc_variants(&v);
    for (size_t i = 0; i < nv; i++)
        if (!strcmp(v[i].func, func) && !strcmp(v[i].name, name))
            return v[i].usable;
    return 0;
}
#endif

static void test_former_names(void **s)
{
    (void)s;
    static char out[8192];
    int st;
    char *info[] = {(char *)info_path, NULL};
    char *ps[] = {(char *)print_selected_path, NULL};
#if defined(__x86_64__)
    const char *e1[] = {"FASTCOPY_NT_THRESHOLD=3M", "FASTCOPY_REP_STOSB_THRESHOLD=4096",
                        "FASTCOPY_MEMSET_ADAPTIVE_MIN=8K", NULL};
    run(info, e1, out, sizeof out, &st);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_null(strstr(out, "libfastcopy:"));
    assert_non_null(strstr(out, "\n  nt_start                       3M"));
    assert_non_null(strstr(out, "\n  rep_stosb_start                4K"));
    assert_non_null(strstr(out, "\n  memset_adaptive_start          8K"));
    assert_null(strstr(out, "THRESHOLD"));
    /* both names: the current one wins, in either order */
    const char *e2[] = {"FASTCOPY_NT_START=2M", "FASTCOPY_NT_THRESHOLD=3M",
                        "FASTCOPY_REP_STOSB_START=1M", "FASTCOPY_REP_STOSB_STOP=1M",
                        "FASTCOPY_REP_STOSB_RESUME=1M", "FASTCOPY_REP_STOSB_HIGH_START=2M", NULL};
    run(info, e2, out, sizeof out, &st);
    assert_null(strstr(out, "libfastcopy:"));
    assert_non_null(strstr(out, "\n  nt_start                       2M"));
    assert_non_null(strstr(out, "\n  rep_stosb_high_start           2M"));
    /* variants by their former names, as values */
    char want[160];
    if (usable("memcpy", "avx2_keepupper")) {
        const char *e3[] = {"FASTCOPY_MEMCPY=avx2amd", NULL};
        run(ps, e3, out, sizeof out, &st);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
        snprintf(want, sizeof want, "memcpy=avx2_keepupper memmove=%s memset=%s\n",
                 fc_selected("memmove"), fc_selected("memset"));
        assert_string_equal(out, want);
        run(info, e3, out, sizeof out, &st);
        assert_null(strstr(out, "libfastcopy:"));
        assert_non_null(strstr(out, "forced by FASTCOPY_MEMCPY=avx2_keepupper"));
        assert_null(strstr(out, "avx2amd"));
    }
    if (usable("memset", "avx512_1branch")) {
        const char *e4[] = {"FASTCOPY_MEMSET=avx512amd", NULL};
        run(ps, e4, out, sizeof out, &st);
        snprintf(want, sizeof want, "memcpy=%s memmove=%s memset=avx512_1branch\n",
                 fc_selected("memcpy"), fc_selected("memmove"));
        assert_string_equal(out, want);
    }
    /* memcpy has no avx512_1branch, under either name */
    const char *e5[] = {"FASTCOPY_MEMCPY=avx512amd", NULL};
    run(ps, e5, out, sizeof out, &st);
    assert_non_null(strstr(out, "libfastcopy: FASTCOPY_MEMCPY=avx512amd: unknown variant (known:"));
    assert_null(strstr(strstr(out, "(known:"), "amd"));
#elif defined(__aarch64__)
    const char *e1[] = {"FASTCOPY_ZVA_THRESHOLD=8K", NULL};
    run(info, e1, out, sizeof out, &st);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_null(strstr(out, "libfastcopy:"));
    assert_non_null(strstr(out, "\n  zva_start                      8K"));
    const char *e2[] = {"FASTCOPY_ZVA_START=16K", "FASTCOPY_ZVA_THRESHOLD=8K", NULL};
    run(info, e2, out, sizeof out, &st);
    assert_non_null(strstr(out, "\n  zva_start                     16K"));
    (void)ps;
#else
    (void)out; /* riscv64: no tunable was renamed */
    (void)st;
    (void)info;
    (void)ps;
#endif
}

#if defined(__x86_64__)
/* The value column of one fastcopy-info threshold line ("rep_movsb_stop ... 24M"). */
static void info_value(const char *out, const char *name, char *val, size_t cap)
{
    char key[64];
    snprintf(key, sizeof key, "\n  %s ", name);
    const char *p = strstr(out, key);
    val[0] = 0;
    if (!p)
        fail_msg("no '%s' line in fastcopy-info's output:\n%s", name, out);
    p += strlen(key);
    while (*p == ' ')
        p++;
    size_t n = strcspn(p, " ");
    snprintf(val, cap, "%.*s", (int)(n < cap ? n : cap - 1), p);
}
#endif

/* Overrides that contradict each other or belong to another architecture: one
 * line each, and the automatic values stand. */
static void test_override_checks(void **s)
{
    (void)s;
    static char def[8192], out[8192];
    int st;
    char *info[] = {(char *)info_path, NULL};
    run(info, NULL, def, sizeof def, &st);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_null(strstr(def, "libfastcopy:"));
    /* fastcopy-info describes the shared object it loaded, and names it. */
    const char *so = strstr(def, "\nshared object: ");
    assert_non_null(so);
    const char *base = strrchr(lib_name, '/') ? strrchr(lib_name, '/') + 1 : lib_name;
    assert_true(strncmp(strchr(so + 1, '\n') - strlen(base), base, strlen(base)) == 0);
    Dl_info di;
    assert_true(dladdr((void *)fc_version, &di) && di.dli_fname);
    char mine[PATH_MAX], theirs[PATH_MAX], *rp = realpath(di.dli_fname, NULL);
    assert_non_null(rp);
    snprintf(mine, sizeof mine, "%s", rp);
    free(rp);
    so += strlen("\nshared object: ");
    snprintf(theirs, sizeof theirs, "%.*s", (int)strcspn(so, "\n"), so);
    rp = realpath(theirs, NULL);
    if (!rp || strcmp(rp, mine))
        fail_msg("fastcopy-info names %s, not the %s this program loaded", theirs, mine);
    free(rp);
#if defined(__x86_64__)
    char a[32], b[32];
    static const char *const names[] = {"rep_movsb_start", "rep_movsb_stop",
                                        "rep_stosb_start", "rep_stosb_stop",
                                        "rep_stosb_high_start"};
    /* A threshold above its stop, both set: one line, all defaults stand. */
    const char *e1[] = {"FASTCOPY_REP_MOVSB_START=1M", "FASTCOPY_REP_MOVSB_STOP=64K", NULL};
    run(info, e1, out, sizeof out, &st);
    assert_int_equal(count_of(out, "\n  libfastcopy:"), 1);
    assert_non_null(strstr(out, "libfastcopy: FASTCOPY_REP_MOVSB_START=1M is above "
                                "FASTCOPY_REP_MOVSB_STOP=64K"));
    for (size_t i = 0; i < 2; i++) {
        info_value(def, names[i], a, sizeof a);
        info_value(out, names[i], b, sizeof b);
        assert_string_equal(a, b);
    }
    /* One side set, above the other side's automatic value. */
    const char *e2[] = {"FASTCOPY_REP_MOVSB_START=1G", NULL};
    run(info, e2, out, sizeof out, &st);
    assert_int_equal(count_of(out, "\n  libfastcopy:"), 1);
    assert_non_null(strstr(out, "FASTCOPY_REP_MOVSB_START=1G is above "
                                "FASTCOPY_REP_MOVSB_STOP (default "));
    info_value(def, "rep_movsb_start", a, sizeof a);
    info_value(out, "rep_movsb_start", b, sizeof b);
    assert_string_equal(a, b);
    /* memset's windows: start above stop, and stop above high_start: one line per
     * pair, the three automatic values stand. */
    const char *e3[] = {"FASTCOPY_REP_STOSB_START=64K", "FASTCOPY_REP_STOSB_STOP=8K",
                        "FASTCOPY_REP_STOSB_HIGH_START=4K", NULL};
    run(info, e3, out, sizeof out, &st);
    assert_int_equal(count_of(out, "\n  libfastcopy:"), 2);
    assert_non_null(strstr(out, "FASTCOPY_REP_STOSB_START=64K is above FASTCOPY_REP_STOSB_STOP=8K"));
    assert_non_null(strstr(out, "FASTCOPY_REP_STOSB_STOP=8K is above FASTCOPY_REP_STOSB_HIGH_START=4K"));
    for (size_t i = 2; i < 5; i++) {
        info_value(def, names[i], a, sizeof a);
        info_value(out, names[i], b, sizeof b);
        assert_string_equal(a, b);
    }
    /* Equal sizes close a window: accepted silently. */
    const char *e4[] = {"FASTCOPY_REP_MOVSB_START=8K", "FASTCOPY_REP_MOVSB_STOP=8K", NULL};
    run(info, e4, out, sizeof out, &st);
    assert_null(strstr(out, "libfastcopy:"));
    assert_non_null(strstr(out, "rep_movsb_stop                 8K"));
    /* Another architecture's variable. */
    const char *e5[] = {"FASTCOPY_ZVA_START=4K", NULL};
    run(info, e5, out, sizeof out, &st);
    assert_int_equal(count_of(out, "\n  libfastcopy:"), 1);
    assert_non_null(strstr(out, "libfastcopy: FASTCOPY_ZVA_START=4K: only used on aarch64, "
                                "ignored on x86_64"));
    /* A minimum of 0 is not "at least 0 bytes"; the maximum is named. */
    const char *e6[] = {"FASTCOPY_ALIAS_BACKWARD_STOP=lots", "FASTCOPY_NT_START=2048G", NULL};
    run(info, e6, out, sizeof out, &st);
    assert_int_equal(count_of(out, "\n  libfastcopy:"), 2);
    assert_null(strstr(out, "at least 0"));
    assert_non_null(strstr(out, "FASTCOPY_ALIAS_BACKWARD_STOP=lots: not a size up to 1024G"));
    assert_non_null(strstr(out, "FASTCOPY_NT_START=2048G: not a size of 16K to 1024G"));
    info_value(def, "nt_start", a, sizeof a);
    info_value(out, "nt_start", b, sizeof b);
    assert_string_equal(a, b);
#else
    /* Another architecture's variable. */
    const char *e5[] = {"FASTCOPY_REP_MOVSB_START=4K", NULL};
    run(info, e5, out, sizeof out, &st);
    assert_int_equal(count_of(out, "\n  libfastcopy:"), 1);
    assert_non_null(strstr(out, "FASTCOPY_REP_MOVSB_START=4K: only used on x86_64, ignored on"));
#endif
}

/* setuid programs (AT_SECURE) ignore the overrides.  Needs root to make a
 * setuid-root copy that an unprivileged user runs; skipped otherwise. */
static void test_at_secure(void **s)
{
    (void)s;
    if (geteuid() != 0 || access("/usr/bin/setpriv", X_OK) != 0) {
        printf("# skipped: needs root and setpriv\n");
        skip();
    }
    if (getenv("MESON_EXE_WRAPPER") && *getenv("MESON_EXE_WRAPPER")) {
        /* The kernel sees the emulator, not a setuid guest program. */
        printf("# skipped: under an emulator AT_SECURE cannot be set for the guest\n");
        skip();
    }
    char dir[] = "/tmp/fc-secure-XXXXXX", exe[128], cmd[512];
    assert_non_null(mkdtemp(dir));
    chmod(dir, 0755);
    snprintf(exe, sizeof exe, "%s/print_selected", dir);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s' && chmod 4755 '%s'", secure_print_selected_path, exe,
             exe);
    assert_int_equal(system(cmd), 0);
    char *argv[] = {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", exe, NULL};
    const char *env[] = {"FASTCOPY_MEMCPY=generic", "FASTCOPY_BOGUS=1", NULL};
    char out[4096];
    int st;
    run(argv, env, out, sizeof out, &st);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    if (strstr(out, "error while loading shared libraries")) {
        printf("# skipped: the setuid copy cannot load libfastcopy from the build tree: %s", out);
        skip();
    }
    char want[128];
    snprintf(want, sizeof want, "memcpy=%s ", fc_selected("memcpy"));
    if (!strstr(out, want) || strstr(out, "libfastcopy:"))
        fail_msg("setuid run honoured the environment: %s", out);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s print_selected fastcopy-info\n", argv[0]);
        return 2;
    }
    print_selected_path = argv[1];
    info_path = argv[2];
    secure_print_selected_path = argc > 3 ? argv[3] : argv[1];
    const char *other = getenv("FC_DROPIN_LIB");
    if (other && *other) {
        lib_name = realpath(other, NULL);
        other_lib = 1;
        if (!lib_name) {
            fprintf(stderr, "FC_DROPIN_LIB %s: %s\n", other, strerror(errno));
            return 1;
        }
    }
    lib = dlopen(lib_name, RTLD_NOW | RTLD_NOLOAD);
    if (!lib) {
        fprintf(stderr, "%s is not loaded: %s\n", lib_name, dlerror());
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exports_interpose), cmocka_unit_test(test_wrappers),
        cmocka_unit_test(test_override_checks),   cmocka_unit_test(test_former_names),
        cmocka_unit_test(test_chk_abort),         cmocka_unit_test(test_overrides),
        cmocka_unit_test(test_at_secure),
    };
    /* FC_DROPIN_EXPORTS_ONLY: only the tests of the exported names against the
     * selected variants (meson's dropin_diverted runs them with FASTCOPY_*
     * overrides; the other tests start programs and expect no override). */
    const char *only = getenv("FC_DROPIN_EXPORTS_ONLY");
    if (only && *only) {
        const struct CMUnitTest exports[] = {
            cmocka_unit_test(test_exports_interpose), cmocka_unit_test(test_wrappers),
        };
        return cmocka_run_group_tests_name("dropin exports", exports, NULL, NULL);
    }
    return cmocka_run_group_tests_name("dropin", tests, NULL, NULL);
}
