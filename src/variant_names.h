/* variant_names.h - generates, from an architecture's variant table
 * (variant_table.h), its look-ups:
 *   PREFIX_variant_count(func), PREFIX_variant_name(func, i),
 *   PREFIX_variant_index(func, name)  (-1 when unknown),
 *   PREFIX_usable(c, func, i)         (the row's requirement, 0 past the end)
 * Include once per architecture, in its policy.c, after the helpers its
 * requirements use, with FC_VN_PREFIX(x), FC_VN_TABLE (the table) and FC_VN_CPU
 * (the CPU facts type) defined, and FC_VN_FORMER (the names variants had
 * before, A(former, current) per row) where the architecture has any:
 * variant_index takes a former name for the variant now named current (the
 * environment, the tuning file and fcbench read names through it); nothing
 * prints one.
 * The tables are char arrays, not pointers: resolvers read them before this
 * library is relocated. */
#define FC_VN_NAME(name, sym) #name,
#define FC_VN_LEN 16
/* Each name fits, with its NUL: at most 15 characters. */
#define FC_VN_FITS(name, sym) _Static_assert(sizeof #name <= FC_VN_LEN, #name " is too long");
FC_VT_COPY(FC_VN_TABLE, FC_VN_FITS)
FC_VT_SET(FC_VN_TABLE, FC_VN_FITS)

/* memcpy and memmove share the copy list */
static const char FC_VN_PREFIX(copy_names)[][FC_VN_LEN] = {FC_VT_COPY(FC_VN_TABLE, FC_VN_NAME)};
static const char FC_VN_PREFIX(set_names)[][FC_VN_LEN] = {FC_VT_SET(FC_VN_TABLE, FC_VN_NAME)};

unsigned FC_VN_PREFIX(variant_count)(int func)
{
    return func == FC_MEMSET ? sizeof FC_VN_PREFIX(set_names) / FC_VN_LEN
                             : sizeof FC_VN_PREFIX(copy_names) / FC_VN_LEN;
}

const char *FC_VN_PREFIX(variant_name)(int func, unsigned i)
{
    if (i >= FC_VN_PREFIX(variant_count)(func))
        return "?";
    return func == FC_MEMSET ? FC_VN_PREFIX(set_names)[i] : FC_VN_PREFIX(copy_names)[i];
}

#ifdef FC_VN_FORMER
#define FC_VN_FORMER_ROW(former, current) {#former, #current},
static const char FC_VN_PREFIX(former_names)[][2][FC_VN_LEN] = {FC_VN_FORMER(FC_VN_FORMER_ROW)};
#endif

int FC_VN_PREFIX(variant_index)(int func, const char *name)
{
    for (unsigned i = 0; i < FC_VN_PREFIX(variant_count)(func); i++)
        if (fc_streq(FC_VN_PREFIX(variant_name)(func, i), name))
            return (int)i;
#ifdef FC_VN_FORMER
    for (unsigned k = 0; k < sizeof FC_VN_PREFIX(former_names) / sizeof FC_VN_PREFIX(former_names)[0]; k++)
        if (fc_streq(FC_VN_PREFIX(former_names)[k][0], name))
            return FC_VN_PREFIX(variant_index)(func, FC_VN_PREFIX(former_names)[k][1]);
#endif
    return -1;
}

#define FC_VN_IF_ROW(req) if (idx == n++) return (req) != 0;
#define FC_VN_COPY_REQ(X, name, copy, set, req) FC_VT_WHEN(copy, FC_VN_IF_ROW(req))
#define FC_VN_SET_REQ(X, name, copy, set, req) FC_VT_WHEN(set, FC_VN_IF_ROW(req))

int FC_VN_PREFIX(usable)(const FC_VN_CPU *c, int func, unsigned idx)
{
    unsigned n = 0;
    (void)c; /* a table whose every requirement is 1 */
    if (func == FC_MEMSET) {
        FC_VN_TABLE(FC_VN_SET_REQ, ~)
    } else {
        FC_VN_TABLE(FC_VN_COPY_REQ, ~)
    }
    return 0;
}
