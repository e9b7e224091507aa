/* znow_lib.c - a shared library linked with -z now whose code calls memcpy,
 * memmove and memset through its own relocations (test/preload_znow.sh). */
#include <string.h>

__attribute__((visibility("default"))) int znow_copy(char *dst, const char *src, size_t n)
{
    memset(dst, 0, n + 8);
    memcpy(dst, src, n);
    memmove(dst + 1, dst, n);
    return dst[1] == src[0] && dst[n] == src[n - 1];
}
