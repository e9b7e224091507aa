/* variant_table.h - the shape of an architecture's variant table, and what every
 * part derives from it.
 *
 * Each architecture's variants.h defines one table, FC_<ARCH>_VARIANTS(V, X), with
 * one row per variant:
 *
 *   V(X, name, copy kernel, memset kernel, requirement)
 *
 *   name           the stable variant name (README, FASTCOPY_* overrides,
 *                  fc_variants), and the last part of its identifiers below
 *   copy kernel    the symbol memcpy and memmove use (every copy kernel is
 *                  overlap-safe, so the two share it), or `none`
 *   memset kernel  the symbol memset uses, or `none`
 *   requirement    an expression over `c`, a pointer to the architecture's CPU
 *                  facts, true where the kernels can run.  It is evaluated only in
 *                  the architecture's policy.c (variant_names.h generates usable()
 *                  there), so it may use that file's helpers.  A row without one
 *                  does not compile.
 *   X              passed through, for the lists below
 *
 * Derived from the table, and written nowhere else:
 *   FC_VT_COPY(T, X), FC_VT_SET(T, X)  each function's list, X(name, kernel) for
 *          the rows that have its kernel, in table order: the variant indices.
 *          FC_MEMCPY_VARIANTS & co. are these lists for the table that arch.h
 *          names FC_VARIANT_TABLE.
 *   FC_VT_COPY_ID, FC_VT_SET_ID  the enum constants <P>COPY_<name> and
 *          <P>SET_<name> (each variants.h instantiates them, with <P>COPY_COUNT and
 *          <P>SET_COUNT after the last): policy rules name variants by these
 *          compile-checked identifiers, never by strings.
 *   variant_names.h  the names, the counts, name <-> index and usable().
 *   kernels.h        the kernel declarations and the index -> kernel picker that
 *          the fc_* IFUNCs (dispatch.c) and the drop-in names (exports.c) share.
 * So a new variant is its kernel file, its row and its policy rule (and its
 * build entry).
 */
#ifndef FC_VARIANT_TABLE_H
#define FC_VARIANT_TABLE_H

/* FC_VT_WHEN(k, ...): the arguments after k, unless the kernel k is `none`. */
#define FC_VT_CAT_(a, b) a##b
#define FC_VT_CAT(a, b) FC_VT_CAT_(a, b)
#define FC_VT_SECOND_(a, b, ...) b
#define FC_VT_SECOND(...) FC_VT_SECOND_(__VA_ARGS__)
#define FC_VT_NONE_none ~, 1
#define FC_VT_IS_NONE(k) FC_VT_SECOND(FC_VT_CAT_(FC_VT_NONE_, k), 0, ~)
#define FC_VT_WHEN_0(...) __VA_ARGS__
#define FC_VT_WHEN_1(...)
#define FC_VT_WHEN(k, ...) FC_VT_CAT(FC_VT_WHEN_, FC_VT_IS_NONE(k))(__VA_ARGS__)

#define FC_VT_COPY_ROW(X, name, copy, set, req) FC_VT_WHEN(copy, X(name, copy))
#define FC_VT_SET_ROW(X, name, copy, set, req) FC_VT_WHEN(set, X(name, set))
#define FC_VT_COPY(T, X) T(FC_VT_COPY_ROW, X)
#define FC_VT_SET(T, X) T(FC_VT_SET_ROW, X)

#define FC_VT_COPY_ID(P, name, copy, set, req) FC_VT_WHEN(copy, P##COPY_##name, )
#define FC_VT_SET_ID(P, name, copy, set, req) FC_VT_WHEN(set, P##SET_##name, )

/* The index of variant `name` for function f, for a rule that gives all three
 * functions the same variant (a compile error when it lacks either kernel). */
#define FC_VT_INDEX(P, f, name) ((f) == FC_MEMSET ? (int)P##SET_##name : (int)P##COPY_##name)

/* The lists of the architecture being built (arch.h defines FC_VARIANT_TABLE). */
#define FC_MEMCPY_VARIANTS(X) FC_VT_COPY(FC_VARIANT_TABLE, X)
#define FC_MEMMOVE_VARIANTS(X) FC_VT_COPY(FC_VARIANT_TABLE, X)
#define FC_MEMSET_VARIANTS(X) FC_VT_SET(FC_VARIANT_TABLE, X)

/* The functions every port defines (docs/porting.md), declared once for prefix P
 * (fc_x86, fc_a64, fc_rv, fc_unported) and CPU-facts type CPU, and the fc_arch_*
 * names dispatch.c, info.c and exports.c call them by, bound to the prefix that
 * arch.h names FC_ARCH_PREFIX. */
#define FC_ARCH_DECLARE(P, CPU)                                                   \
    FC_HIDDEN void P##_probe(CPU *c, uint64_t a0, const void *a1);                \
    FC_HIDDEN void P##_policy(const CPU *c, struct fc_decision *d);               \
    FC_HIDDEN int P##_usable(const CPU *c, int func, unsigned idx);               \
    FC_HIDDEN unsigned P##_variant_count(int func);                               \
    FC_HIDDEN const char *P##_variant_name(int func, unsigned idx);               \
    FC_HIDDEN int P##_variant_index(int func, const char *name);                  \
    /* One line per fact into buf (fastcopy-info). */                             \
    FC_HIDDEN void P##_describe(const CPU *c, char *buf, size_t cap);             \
    /* The CPU a tuning file was measured on, as its first line names it. */      \
    FC_HIDDEN void P##_identity(const CPU *c, char *buf, size_t cap);
#define fc_arch_probe FC_VT_CAT(FC_ARCH_PREFIX, _probe)
#define fc_arch_policy FC_VT_CAT(FC_ARCH_PREFIX, _policy)
#define fc_arch_usable FC_VT_CAT(FC_ARCH_PREFIX, _usable)
#define fc_arch_variant_count FC_VT_CAT(FC_ARCH_PREFIX, _variant_count)
#define fc_arch_variant_name FC_VT_CAT(FC_ARCH_PREFIX, _variant_name)
#define fc_arch_variant_index FC_VT_CAT(FC_ARCH_PREFIX, _variant_index)
#define fc_arch_describe FC_VT_CAT(FC_ARCH_PREFIX, _describe)
#define fc_arch_identity FC_VT_CAT(FC_ARCH_PREFIX, _identity)

#endif
