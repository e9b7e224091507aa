/* copier.c - a deterministic copy-heavy program for fastcopy-ab's tests:
 * copies 4 KiB blocks through a 1 MiB ring (argv[1] MiB in all, default 256),
 * clears them (memset, bzero; mempcpy too), and prints a checksum of what it copied.  "random" as argv[2]
 * prints a different line every run (the nondeterministic command). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? strtoul(argv[1], 0, 10) : 256;
    static unsigned char src[1 << 20], dst[1 << 20];
    unsigned long sum = 0;
    for (size_t i = 0; i < sizeof src; i++)
        src[i] = (unsigned char)(i * 131 + 7);
    for (size_t k = 0; k < mib * 256; k++) {
        size_t off = (k * 4096 + k % 61) % (sizeof src - 8192);
        memcpy(dst + (k % 200) * 4096, src + off, 4096 + k % 3);
        memmove(dst + off / 2, dst + off / 2 + 3, 512);
        sum = sum * 31 + dst[(k % 200) * 4096 + 4095 + k % 3]; /* the last byte copied */
        memset(dst + (k % 100) * 64, (int)k, 64);
    }
    /* two names that the slow test library does not define */
    bzero(mempcpy(dst, src, 100), 100);
    sum += dst[50] + dst[150];
    if (argc > 2 && !strcmp(argv[2], "random")) {
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        sum += (unsigned long)t.tv_nsec;
    }
    printf("%lu\n", sum);
    return 0;
}
