/* slowlib.c - memcpy, memmove and memset as byte loops: the library that
 * fastcopy-ab's test must call slower.  It defines nothing else (bzero,
 * mempcpy, __memcpy_chk, ...): the binding report names what it misses. */
#include "../byte_loops.h"

void *memcpy(void *dst, const void *src, size_t n)
{
    return byte_move(dst, src, n);
}

void *memmove(void *dst, const void *src, size_t n)
{
    return byte_move(dst, src, n);
}

void *memset(void *dst, int c, size_t n)
{
    return byte_set(dst, c, n);
}
