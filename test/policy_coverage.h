/* policy_coverage.h - for test_policy_<arch>.c: every variant of the architecture's
 * table must be usable on at least one of the synthetic CPUs that the tests gave
 * the policy (a requirement that nothing satisfies is a variant nobody can test),
 * and each function's variant count is the one its enum derives from the table.
 *
 * Define before including: COVER_CPU (the facts type), COVER_USABLE, COVER_COUNT and
 * COVER_NAME (the architecture's usable / variant_count / variant_name), and
 * COVER_COPY_COUNT / COVER_SET_COUNT (the enum counts).  Call cover(&c) for every
 * CPU the policy decides for, and run test_every_variant_usable last. */
#define COVER_MAX 512
static COVER_CPU covered[COVER_MAX];
static unsigned ncovered;

static void cover(const COVER_CPU *c)
{
    if (ncovered < COVER_MAX)
        covered[ncovered++] = *c;
}

static void test_every_variant_usable(void **state)
{
    (void)state;
    assert_true(ncovered > 0);
    for (int f = 0; f < FC_NFUNCS; f++) {
        assert_int_equal(COVER_COUNT(f), f == FC_MEMSET ? COVER_SET_COUNT : COVER_COPY_COUNT);
        for (unsigned i = 0; i < COVER_COUNT(f); i++) {
            unsigned k = 0;
            while (k < ncovered && !COVER_USABLE(&covered[k], f, i))
                k++;
            if (k == ncovered)
                fail_msg("%s variant %s is usable on none of the %u CPUs of these tests",
                         fc_func_name(f), COVER_NAME(f, i), ncovered);
        }
        assert_false(COVER_USABLE(&covered[0], f, COVER_COUNT(f))); /* past the end */
    }
}
