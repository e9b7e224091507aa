/* slowlib.c - memcpy, memmove and memset as byte loops: the library that
 * fastcopy-ab's test must call slower.  It defines nothing else (bzero,
 * mempcpy, __memcpy_chk, ...): the binding report names what it misses. */
#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n)
{
    volatile unsigned char *d = dst;
    const unsigned char *s = src;
    for (size_t i = 0; i < n; i++)
        d[i] = s[i];
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    volatile unsigned char *d = dst;
    const unsigned char *s = src;
    if ((const unsigned char *)dst <= s)
        for (size_t i = 0; i < n; i++)
            d[i] = s[i];
    else
        for (size_t i = n; i--;)
            d[i] = s[i];
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    volatile unsigned char *d = dst;
    for (size_t i = 0; i < n; i++)
        d[i] = (unsigned char)c;
    return dst;
}
