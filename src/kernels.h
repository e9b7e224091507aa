/* kernels.h - the kernels of this architecture's variant table, declared once, and
 * the one index -> kernel picker, shared by the fc_* IFUNCs (dispatch.c) and the
 * drop-in names (exports.c). */
#ifndef FC_KERNELS_H
#define FC_KERNELS_H
#include "arch.h"

#define FC_KERNEL_DECL_COPY(name, sym) FC_HIDDEN void *sym(void *, const void *, size_t);
#define FC_KERNEL_DECL_SET(name, sym) FC_HIDDEN void *sym(void *, int, size_t);
FC_MEMMOVE_VARIANTS(FC_KERNEL_DECL_COPY) /* memcpy's list is the same */
FC_MEMSET_VARIANTS(FC_KERNEL_DECL_SET)

/* FC_PICK_KERNEL(LIST, i), a statement: returns FC_PICKED(name, kernel) for
 * variant i of LIST (FC_MEMCPY_VARIANTS, FC_MEMMOVE_VARIANTS or
 * FC_MEMSET_VARIANTS), and falls through past the end.  FC_PICKED is the
 * caller's: the kernel itself, or a wrapper made per variant.  An if-chain over
 * the table, not an address table: that would need relocations, which may not be
 * applied yet when a resolver runs. */
#define FC_PICK_ROW(name, sym)                                                    \
    if (fc_pick_i == fc_pick_n++)                                                 \
        return FC_PICKED(name, sym);
#define FC_PICK_KERNEL(LIST, i)                                                   \
    do {                                                                          \
        unsigned fc_pick_i = (i), fc_pick_n = 0;                                  \
        LIST(FC_PICK_ROW)                                                         \
    } while (0)

#endif
