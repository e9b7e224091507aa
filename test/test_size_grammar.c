/* test_size_grammar.c - the one size grammar (fc_parse_size, src/util.c) that the
 * FASTCOPY_* variables, the tuning file and fcbench's options share: everything
 * fcbench accepted before it (decimal and 0x numbers; K, M, G in either case; a
 * trailing B or iB) with the same value, and nothing malformed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fc_internal.h"

static void test_accepted(void **s)
{
    (void)s;
    static const struct { const char *in; uint64_t want; } ok[] = {
        {"0", 0},           {"4096", 4096},          {"64K", 65536},       {"64k", 65536},
        {"64KiB", 65536},   {"64KB", 65536},         {"32M", 32 << 20},    {"32m", 32 << 20},
        {"32MiB", 32 << 20}, {"1G", 1u << 30},       {"1g", 1u << 30},     {"1GiB", 1u << 30},
        {"4096B", 4096},    {"4096iB", 4096},        {"0x1000", 4096},     {"0X10", 16},
        {"0x10K", 16384},   {"0xfF", 255},           {"1024G", (uint64_t)1 << 40},
        {"010", 10}, /* a leading 0 is decimal (fcbench once read it as octal) */
        {"08", 8},
        {"4611686018427387904", (uint64_t)1 << 62}, {"4194304G", (uint64_t)1 << 52},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        size_t v = 12345;
        if (!fc_parse_size(ok[i].in, &v) || v != ok[i].want)
            fail_msg("\"%s\": want %llu, got %llu (%s)", ok[i].in,
                     (unsigned long long)ok[i].want, (unsigned long long)v,
                     fc_parse_size(ok[i].in, &v) ? "accepted" : "refused");
    }
}

static void test_refused(void **s)
{
    (void)s;
    static const char *const bad[] = {
        "", " 64K", "64K ", "+5", "-1", "1.5M", "12Q", "64KK", "64Ki", "64iK", "K",
        "0x", "0xg", "lots", "4T", "64 K", "1e6", "B",
        "4611686018427387905", "0x4000000000000001", "4294967297G", /* above 2^62 */
        "99999999999999999999999",                               /* overflow */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t v = 777;
        if (fc_parse_size(bad[i], &v))
            fail_msg("\"%s\" accepted as %llu", bad[i], (unsigned long long)v);
        assert_int_equal(v, 777); /* untouched */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accepted),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests_name("size_grammar", tests, NULL, NULL);
}
