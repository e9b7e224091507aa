/* libearly.c - a library whose constructor copies, preloaded before libfastcopy
 * (for the musl preload test): its memcpy/memmove/memset calls may come before the
 * library's own constructor has bound anything.  Prints a checksum on stderr. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

__attribute__((constructor)) static void early(void)
{
    static unsigned char a[70000], b[70000];
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < sizeof a; i++)
        a[i] = (unsigned char)(i * 29 + (i >> 9));
    for (size_t n = 1; n < sizeof a; n = n * 3 + 1) {
        memcpy(b, a, n);
        memmove(b + 1, b, n);
        memset(b + n / 2, (int)n, n / 3);
        for (size_t i = 0; i <= n; i++)
            h = (h ^ b[i]) * 1099511628211u;
    }
    fprintf(stderr, "libearly constructor fnv %016llx\n", (unsigned long long)h);
}
