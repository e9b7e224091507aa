/* badlib.c - a memcpy that gets copies of 4000 bytes or more wrong (the last
 * byte flipped): the library whose output mismatch the checks must catch.
 * memmove and memset are right. */
#include <stddef.h>

void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (d <= s)
        for (size_t i = 0; i < n; i++)
            d[i] = s[i];
    else
        for (size_t i = n; i--;)
            d[i] = s[i];
    return dst;
}

void *memcpy(void *dst, const void *src, size_t n)
{
    memmove(dst, src, n);
    if (n >= 4000)
        ((unsigned char *)dst)[n - 1] ^= 1;
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    for (size_t i = 0; i < n; i++)
        d[i] = (unsigned char)c;
    return dst;
}
