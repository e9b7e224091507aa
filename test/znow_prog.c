/* znow_prog.c - calls into libznow_lib (linked -z now); prints "copied" when its
 * copies gave the right bytes (test/preload_znow.sh). */
#include <stdio.h>

int znow_copy(char *dst, const char *src, size_t n);

int main(void)
{
    static char src[100] = "a preloaded memcpy under a -z now library", dst[120];
    if (!znow_copy(dst, src, 41))
        return 1;
    puts("copied");
    return 0;
}
