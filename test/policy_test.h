/* policy_test.h - what test_policy_<arch>.c share.  Define before including:
 *   POLICY_P    the architecture's function prefix (fc_x86, fc_a64, fc_rv)
 *   POLICY_CPU  its CPU-facts type
 *   POLICY_E    its enum prefix (FC_X86_, ...: POLICY_E##COPY_COUNT, SET_COUNT)
 * It gives:
 *   decide(c)   the policy's decision for c (the struct poisoned first); the
 *               selection must be usable on c and say why, for every function
 *   sel(d, f), expect_all(d, name), usable(c, f, name)
 *   test_every_variant_usable  (run it last) every variant of the table must be
 *               usable on at least one of the CPUs decide() was given (a
 *               requirement that nothing satisfies is a variant nobody can test),
 *               and each function's variant count is the one its enum derives
 *               from the table. */
#define PT_CAT_(a, b) a##b
#define PT_CAT(a, b) PT_CAT_(a, b)
#define PT_FN(name) PT_CAT(POLICY_P, name)

#define COVER_MAX 512
static POLICY_CPU covered[COVER_MAX];
static unsigned ncovered;

static struct fc_decision decide(POLICY_CPU c)
{
    struct fc_decision d;
    memset(&d, 0xcc, sizeof d);
    if (ncovered < COVER_MAX)
        covered[ncovered++] = c;
    PT_FN(_policy)(&c, &d);
    for (int f = 0; f < FC_NFUNCS; f++) {
        assert_true(PT_FN(_usable)(&c, f, d.sel[f]));
        assert_true(strlen(d.why[f]) > 10);
    }
    return d;
}

static const char *sel(const struct fc_decision *d, int f)
{
    return PT_FN(_variant_name)(f, d->sel[f]);
}

static __attribute__((unused)) void expect_all(const struct fc_decision *d, const char *name)
{
    for (int f = 0; f < FC_NFUNCS; f++)
        assert_string_equal(sel(d, f), name);
}

static __attribute__((unused)) int usable(const POLICY_CPU *c, int f, const char *name)
{
    int i = PT_FN(_variant_index)(f, name);
    assert_true(i >= 0);
    return PT_FN(_usable)(c, f, (unsigned)i);
}

static void test_every_variant_usable(void **state)
{
    (void)state;
    assert_true(ncovered > 0);
    for (int f = 0; f < FC_NFUNCS; f++) {
        unsigned n = PT_FN(_variant_count)(f);
        assert_int_equal(n, f == FC_MEMSET ? PT_CAT(POLICY_E, SET_COUNT)
                                           : PT_CAT(POLICY_E, COPY_COUNT));
        for (unsigned i = 0; i < n; i++) {
            unsigned k = 0;
            while (k < ncovered && !PT_FN(_usable)(&covered[k], f, i))
                k++;
            if (k == ncovered)
                fail_msg("%s variant %s is usable on none of the %u CPUs of these tests",
                         fc_func_name(f), PT_FN(_variant_name)(f, i), ncovered);
        }
        assert_false(PT_FN(_usable)(&covered[0], f, n)); /* past the end */
    }
}
