/* byte_loops.h - memmove and memset one byte at a time, for the test libraries
 * that stand in for a C library or a slow peer (ab/slowlib.c, ab/onlymemcpy.c,
 * control/next_count.c, trace_count_shim.c).  The volatile accesses keep any
 * compiler from turning the loops back into calls to memcpy or memset. */
#ifndef FC_TEST_BYTE_LOOPS_H
#define FC_TEST_BYTE_LOOPS_H
#include <stddef.h>

static inline void *byte_move(void *d, const void *s, size_t n)
{
    volatile unsigned char *dd = d;
    const volatile unsigned char *ss = s;
    if (dd < ss)
        for (size_t i = 0; i < n; i++)
            dd[i] = ss[i];
    else
        while (n--)
            dd[n] = ss[n];
    return d;
}

static inline void *byte_set(void *d, int c, size_t n)
{
    volatile unsigned char *dd = d;
    for (size_t i = 0; i < n; i++)
        dd[i] = (unsigned char)c;
    return d;
}
#endif
