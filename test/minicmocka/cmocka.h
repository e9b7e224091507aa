/* cmocka.h - the subset of cmocka's API that this project's tests use, for C
 * libraries that have no cmocka package (musl: Debian's musl-tools has none, and
 * the system's cmocka is built for glibc), and for builds where cmocka is not
 * installed (-Dtests=auto: test/meson.build says which one a build uses).
 *
 * Each test runs in turn; a failed assertion prints where and why and longjmps
 * back to the runner, which counts it failed and goes on (as cmocka does).  Unlike
 * cmocka, no signal handlers are installed around the tests: a crash ends the
 * program (meson reports it as a failure).  The runner returns the number of
 * failed tests, which main returns as its exit status.  As in cmocka, the failure
 * function is not known to GCC as noreturn (noipa: it would infer it from the
 * longjmp), since the tests are written for that: GCC's flow warnings differ
 * otherwise. */
#ifndef FC_MINICMOCKA_H
#define FC_MINICMOCKA_H
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef void (*CMUnitTestFunction)(void **state);
typedef int (*CMFixtureFunction)(void **state);
struct CMUnitTest {
    const char *name;
    CMUnitTestFunction test_func;
    CMFixtureFunction setup_func;
    CMFixtureFunction teardown_func;
    void *initial_state;
};

#define cmocka_unit_test(f) {#f, f, NULL, NULL, NULL}

static jmp_buf mcm_jmp;
static int mcm_skipped;

static void mcm_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), unused, noipa));
static void mcm_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
    printf("\n[   LINE   ] --- %s:%d: error: Failure!\n", file, line);
    fflush(stdout);
    longjmp(mcm_jmp, 1);
}

#define fail_msg(...) mcm_fail(__FILE__, __LINE__, __VA_ARGS__)
#define fail() mcm_fail(__FILE__, __LINE__, "fail()")
#define skip()                                                                       \
    do {                                                                             \
        mcm_skipped = 1;                                                             \
        longjmp(mcm_jmp, 2);                                                         \
    } while (0)
#define print_message(...) printf(__VA_ARGS__)

#define assert_true(c)                                                               \
    do {                                                                             \
        if (!(c))                                                                    \
            fail_msg("%s", #c);                                                      \
    } while (0)
#define assert_false(c)                                                              \
    do {                                                                             \
        if (c)                                                                       \
            fail_msg("!(%s)", #c);                                                   \
    } while (0)
#define assert_int_equal(a, b)                                                       \
    do {                                                                             \
        uintmax_t mcm_a_ = (uintmax_t)(a), mcm_b_ = (uintmax_t)(b);                  \
        if (mcm_a_ != mcm_b_)                                                        \
            fail_msg("%" PRIuMAX " (%#" PRIxMAX ") != %" PRIuMAX " (%#" PRIxMAX ")", \
                     mcm_a_, mcm_a_, mcm_b_, mcm_b_);                                \
    } while (0)
#define assert_int_not_equal(a, b)                                                   \
    do {                                                                             \
        uintmax_t mcm_a_ = (uintmax_t)(a), mcm_b_ = (uintmax_t)(b);                  \
        if (mcm_a_ == mcm_b_)                                                        \
            fail_msg("%" PRIuMAX " == %" PRIuMAX, mcm_a_, mcm_b_);                   \
    } while (0)
#define assert_ptr_equal(a, b)                                                       \
    do {                                                                             \
        const void *mcm_a_ = (const void *)(a), *mcm_b_ = (const void *)(b);         \
        if (mcm_a_ != mcm_b_)                                                        \
            fail_msg("%p != %p", mcm_a_, mcm_b_);                                    \
    } while (0)
#define assert_null(p) assert_ptr_equal((p), NULL)
#define assert_non_null(p)                                                           \
    do {                                                                             \
        if ((const void *)(p) == NULL)                                               \
            fail_msg("%s is NULL", #p);                                              \
    } while (0)
#define assert_string_equal(a, b)                                                    \
    do {                                                                             \
        const char *mcm_a_ = (a), *mcm_b_ = (b);                                     \
        if (strcmp(mcm_a_, mcm_b_))                                                  \
            fail_msg("\"%s\" != \"%s\"", mcm_a_, mcm_b_);                            \
    } while (0)
#define assert_string_not_equal(a, b)                                                \
    do {                                                                             \
        const char *mcm_a_ = (a), *mcm_b_ = (b);                                     \
        if (!strcmp(mcm_a_, mcm_b_))                                                 \
            fail_msg("\"%s\" == \"%s\"", mcm_a_, mcm_b_);                            \
    } while (0)
#define assert_memory_equal(a, b, n)                                                 \
    do {                                                                             \
        const unsigned char *mcm_a_ = (const void *)(a), *mcm_b_ = (const void *)(b); \
        size_t mcm_n_ = (n);                                                         \
        for (size_t mcm_i_ = 0; mcm_i_ < mcm_n_; mcm_i_++)                           \
            if (mcm_a_[mcm_i_] != mcm_b_[mcm_i_])                                    \
                fail_msg("%zu bytes differ, first at offset %zu: %#x != %#x", mcm_n_, \
                         mcm_i_, mcm_a_[mcm_i_], mcm_b_[mcm_i_]);                    \
    } while (0)

static int _cmocka_run_group_tests(const char *group, const struct CMUnitTest *tests,
                                   size_t n, CMFixtureFunction setup,
                                   CMFixtureFunction teardown) __attribute__((unused));
static int _cmocka_run_group_tests(const char *group, const struct CMUnitTest *tests,
                                   size_t n, CMFixtureFunction setup,
                                   CMFixtureFunction teardown)
{
    static size_t i; /* static: survives the longjmp back here */
    static int failed, passed, skipped;
    void *gstate = NULL;
    printf("[==========] %s: Running %zu test(s).\n", group, n);
    if (setup && setup(&gstate)) {
        printf("[  ERROR   ] %s: group setup failed\n", group);
        return 1;
    }
    failed = passed = skipped = 0;
    for (i = 0; i < n; i++) {
        void *state = tests[i].initial_state ? tests[i].initial_state : gstate;
        printf("[ RUN      ] %s\n", tests[i].name);
        fflush(stdout);
        mcm_skipped = 0;
        if (setjmp(mcm_jmp) == 0) {
            if (tests[i].setup_func && tests[i].setup_func(&state))
                fail_msg("setup failed");
            tests[i].test_func(&state);
            if (tests[i].teardown_func)
                tests[i].teardown_func(&state);
            printf("[       OK ] %s\n", tests[i].name);
            passed++;
        } else if (mcm_skipped) {
            printf("[  SKIPPED ] %s\n", tests[i].name);
            skipped++;
        } else {
            printf("[  FAILED  ] %s\n", tests[i].name);
            failed++;
        }
        fflush(stdout);
    }
    if (teardown)
        teardown(&gstate);
    printf("[==========] %s: %zu test(s) run.\n[  PASSED  ] %d test(s).\n", group, n, passed);
    if (skipped)
        printf("[  SKIPPED ] %d test(s).\n", skipped);
    if (failed)
        printf("[  FAILED  ] %d test(s).\n", failed);
    fflush(stdout);
    return failed;
}
#define cmocka_run_group_tests_name(name, tests, setup, teardown)                    \
    _cmocka_run_group_tests(name, tests, sizeof(tests) / sizeof((tests)[0]), setup, teardown)
#define cmocka_run_group_tests(tests, setup, teardown)                               \
    _cmocka_run_group_tests(#tests, tests, sizeof(tests) / sizeof((tests)[0]), setup, teardown)
#endif
