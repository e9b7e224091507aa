/* static_app.c - linked the way a user links statically under musl
 * (musl-gcc -static static_app.c -lfastcopy): copies, moves and fills through the
 * drop-in names, prints through musl's stdio (whose internal memcpy calls bind to
 * the library's in a static link) and checks one fc_copy_user fault.  Prints the
 * selected variants; exit status 0 when every result is right. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <fastcopy.h>

int main(int argc, char **argv)
{
    size_t n = 1000 + (size_t)argc * 3000;   /* not a constant: real calls */
    unsigned char *a = malloc(n + 64), *b = malloc(n + 64);
    int bad = 0;
    (void)argv;
    for (size_t i = 0; i < n; i++)
        a[i] = (unsigned char)(i * 13);
    memcpy(b, a, n);
    bad |= memcmp(a, b, n) != 0;
    memmove(b + 7, b, n - 7);
    for (size_t i = 0; i + 7 < n; i++)
        bad |= b[i + 7] != a[i];
    memset(b, 0x77, n);
    for (size_t i = 0; i < n; i++)
        bad |= b[i] != 0x77;
    unsigned char *p = mmap(0, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    mprotect(p + 4096, 4096, PROT_NONE);
    bad |= fc_copy_user(b, p + 4096 - 10, 40) != 30;
    printf("memcpy=%s memmove=%s memset=%s %s\n", fc_selected("memcpy"), fc_selected("memmove"),
           fc_selected("memset"), bad ? "BAD" : "ok");
    return bad;
}
