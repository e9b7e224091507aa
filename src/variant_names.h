/* variant_names.h - generates, from an architecture's three X-macro lists, the
 * pointer-free name tables and their look-ups:
 *   PREFIX_variant_count(func), PREFIX_variant_name(func, i),
 *   PREFIX_variant_index(func, name)  (-1 when unknown)
 * Include once per architecture, in its policy.c, after defining
 * FC_VN_PREFIX(x) and FC_VN_MEMCPY/FC_VN_MEMMOVE/FC_VN_MEMSET.
 * The tables are char arrays, not pointers: resolvers read them before this
 * library is relocated. */
#define FC_VN_NAME(name, sym) #name,
#define FC_VN_ONE(name, sym) +1
#define FC_VN_LEN 16

static const char FC_VN_PREFIX(memcpy_names)[][FC_VN_LEN] = {FC_VN_MEMCPY(FC_VN_NAME)};
static const char FC_VN_PREFIX(memmove_names)[][FC_VN_LEN] = {FC_VN_MEMMOVE(FC_VN_NAME)};
static const char FC_VN_PREFIX(memset_names)[][FC_VN_LEN] = {FC_VN_MEMSET(FC_VN_NAME)};

unsigned FC_VN_PREFIX(variant_count)(int func)
{
    return func == FC_MEMCPY ? 0 FC_VN_MEMCPY(FC_VN_ONE)
         : func == FC_MEMMOVE ? 0 FC_VN_MEMMOVE(FC_VN_ONE)
         : 0 FC_VN_MEMSET(FC_VN_ONE);
}

const char *FC_VN_PREFIX(variant_name)(int func, unsigned i)
{
    if (i >= FC_VN_PREFIX(variant_count)(func))
        return "?";
    return func == FC_MEMCPY ? FC_VN_PREFIX(memcpy_names)[i]
         : func == FC_MEMMOVE ? FC_VN_PREFIX(memmove_names)[i]
         : FC_VN_PREFIX(memset_names)[i];
}

int FC_VN_PREFIX(variant_index)(int func, const char *name)
{
    for (unsigned i = 0; i < FC_VN_PREFIX(variant_count)(func); i++)
        if (fc_streq(FC_VN_PREFIX(variant_name)(func, i), name))
            return (int)i;
    return -1;
}
