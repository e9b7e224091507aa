/* control_prog.c - linked with libfastcopy.so, then libnext_count.so (which stands
 * for the C library: test/control/next_count.c).  Calls every exported name (built
 * with -fno-builtin: real calls), checks each result, and prints one line:
 *   "next: memcpy=N memmove=N memset=N early=OK|BAD/K bound=PATH"
 * the calls that reached libnext_count's functions per function, whether the
 * copy libnext_count's constructor made (before libfastcopy's constructor) was
 * right and how many of its calls reached libnext_count, and the object that
 * defines the program's memcpy.  Exit status 1 when a result is wrong. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

unsigned long next_count(int which);
int next_early(unsigned long *counted);
extern void *__memcpy_chk(void *, const void *, size_t, size_t);
extern void *__memmove_chk(void *, const void *, size_t, size_t);
extern void *__memset_chk(void *, int, size_t, size_t);
extern void *__mempcpy_chk(void *, const void *, size_t, size_t);
extern void *__mempcpy(void *, const void *, size_t);
extern void __explicit_bzero_chk(void *, size_t, size_t);

static int bad;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "control_prog: %s:%d: %s\n", __FILE__, __LINE__, #c); bad = 1; } } while (0)

int main(void)
{
    static unsigned char a[5000], b[5000];
    for (size_t i = 0; i < sizeof a; i++)
        a[i] = (unsigned char)(i * 7 + 1);
    unsigned long c0[3];
    for (int f = 0; f < 3; f++)
        c0[f] = next_count(f);
    for (size_t n = 0; n < sizeof a; n = n * 2 + 3) {
        memset(b, 0, sizeof b);
        CHECK(memcpy(b, a, n) == b && !memcmp(a, b, n));
        CHECK(memmove(b + 1, b, n) == b + 1 && !memcmp(a, b + 1, n));
        CHECK(memset(b, 0x5a, n) == b && (n == 0 || (b[0] == 0x5a && b[n - 1] == 0x5a)));
        CHECK(mempcpy(b, a, n) == b + n && !memcmp(a, b, n));
        CHECK(__mempcpy(b, a, n) == b + n);
        bzero(b, n);
        CHECK(n == 0 || (b[0] == 0 && b[n - 1] == 0));
        bcopy(a, b, n);
        CHECK(!memcmp(a, b, n));
        explicit_bzero(b, n);
        CHECK(n == 0 || b[n - 1] == 0);
        CHECK(__memcpy_chk(b, a, n, sizeof b) == b && !memcmp(a, b, n));
        CHECK(__memmove_chk(b, a, n, sizeof b) == b);
        CHECK(__memset_chk(b, 1, n, sizeof b) == b);
        CHECK(__mempcpy_chk(b, a, n, sizeof b) == b + n);
        __explicit_bzero_chk(b, n, sizeof b);
    }
    unsigned long early_counted;
    int early = next_early(&early_counted);
    Dl_info info;
    void *mc = dlsym(RTLD_DEFAULT, "memcpy");
    const char *bound = mc && dladdr(mc, &info) && info.dli_fname ? info.dli_fname : "?";
    printf("next: memcpy=%lu memmove=%lu memset=%lu early=%s/%lu bound=%s\n",
           next_count(0) - c0[0], next_count(1) - c0[1], next_count(2) - c0[2],
           early == 1 ? "OK" : "BAD", early_counted, bound);
    return bad;
}
