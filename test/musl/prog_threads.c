/* prog_threads.c - copies in threads (for the musl preload test): 4 threads each
 * shuffle their own 4 MiB region with memcpy, memmove (overlapping) and memset at
 * sizes from 0 to 300 KiB, then the main thread prints a checksum per region. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REGION (4u << 20)
static unsigned char *mem;

static void *work(void *arg)
{
    unsigned t = (unsigned)(uintptr_t)arg;
    unsigned char *b = mem + (size_t)t * REGION;
    uint64_t x = 88172645463325252ull + t;
    for (size_t i = 0; i < REGION; i++)
        b[i] = (unsigned char)(i * 131 + t);
    for (int k = 0; k < 3000; k++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        size_t n = (x >> 8) % (k % 10 == 0 ? 300000 : 3000);
        size_t s = (x >> 28) % (REGION - n), d = (x >> 40) % (REGION - n);
        switch (k % 4) {
        case 0: memmove(b + d, b + s, n); break;
        case 1: if (s + n <= d || d + n <= s) memcpy(b + d, b + s, n); break;
        case 2: memset(b + d, (int)(x >> 56), n % 5000); break;
        default: memmove(s + 1 < REGION - n ? b + s + 1 : b, b + s, n); break;
        }
    }
    return NULL;
}

int main(void)
{
    pthread_t t[4];
    mem = malloc(4 * (size_t)REGION);
    for (uintptr_t i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, work, (void *)i);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < 4; i++) {
        uint64_t h = 1469598103934665603u;
        for (size_t j = 0; j < REGION; j++)
            h = (h ^ mem[(size_t)i * REGION + j]) * 1099511628211u;
        printf("region %d fnv %016llx\n", i, (unsigned long long)h);
    }
    return 0;
}
