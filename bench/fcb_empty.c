/* fcb_empty.c - the empty call: what a size-mix replay costs with no work done, the
 * floor under every ns-per-call figure.  Own file, so it is never inlined. */
#include <stddef.h>

void *fcb_empty_copy(void *d, const void *s, size_t n);
void *fcb_empty_set(void *d, int c, size_t n);

__attribute__((noinline)) void *fcb_empty_copy(void *d, const void *s, size_t n)
{
    __asm__ volatile("" : : "r"(s), "r"(n) : "memory");
    return d;
}

__attribute__((noinline)) void *fcb_empty_set(void *d, int c, size_t n)
{
    __asm__ volatile("" : : "r"(c), "r"(n) : "memory");
    return d;
}
