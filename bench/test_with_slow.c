/* test_with_slow.c - a correct but slow memcpy, memmove and memset (byte loops the
 * compiler may not turn into calls or vectors): a peer that fcbench --targets must
 * find far slower than libfastcopy, and, loaded under the name "dropin" in its
 * place, one that makes the targets against the peers fail (bench/test-targets.sh). */
#include <stddef.h>

void *memcpy(void *d, const void *s, size_t n)
{
    unsigned char *p = d;
    const unsigned char *q = s;
    for (size_t i = 0; i < n; i++) {
        __asm__ volatile("" : : : "memory");
        p[i] = q[i];
    }
    return d;
}

void *memmove(void *d, const void *s, size_t n)
{
    unsigned char *p = d;
    const unsigned char *q = s;
    if (p <= q || p >= q + n) {
        for (size_t i = 0; i < n; i++) {
            __asm__ volatile("" : : : "memory");
            p[i] = q[i];
        }
    } else {
        for (size_t i = n; i-- > 0;) {
            __asm__ volatile("" : : : "memory");
            p[i] = q[i];
        }
    }
    return d;
}

void *memset(void *d, int c, size_t n)
{
    unsigned char *p = d;
    for (size_t i = 0; i < n; i++) {
        __asm__ volatile("" : : : "memory");
        p[i] = (unsigned char)c;
    }
    return d;
}
