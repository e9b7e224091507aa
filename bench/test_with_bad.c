/* test_with_bad.c - two libraries that fcbench --with must refuse in one line
 * before timing anything (bench/test-with.sh): built with -DBAD_SIGILL, a memcpy
 * that executes an undefined instruction (what AOCL-LibMem's AVX-512 builds do on
 * a CPU without AVX-512); without it, a memset that leaves the last byte alone. */
#include <stddef.h>

void *memcpy(void *d, const void *s, size_t n)
{
#ifdef BAD_SIGILL
    (void)s;
    (void)n;
#if defined(__x86_64__) || defined(__i386__)
    __asm__ volatile("ud2");
#elif defined(__aarch64__)
    __asm__ volatile(".inst 0x00000000"); /* udf #0 */
#elif defined(__riscv)
    __asm__ volatile("unimp");
#else
    __builtin_trap();
#endif
    return d;
#else
    unsigned char *p = d;
    const unsigned char *q = s;
    for (size_t i = 0; i < n; i++) {
        __asm__ volatile("" : : : "memory");
        p[i] = q[i];
    }
    return d;
#endif
}

void *memset(void *d, int c, size_t n)
{
    unsigned char *p = d;
    for (size_t i = 0; i + 1 < n; i++) {
        __asm__ volatile("" : : : "memory");
        p[i] = (unsigned char)c;
    }
    return d;
}
