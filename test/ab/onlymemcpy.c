/* onlymemcpy.c - a library that defines memcpy but not memmove nor memset. */
#include "../byte_loops.h"

void *memcpy(void *dst, const void *src, size_t n)
{
    return byte_move(dst, src, n);
}
