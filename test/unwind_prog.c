/* unwind_prog.c - the program test/gdb_backtrace.py debugs: every usable variant
 * of every function (through fc_variants, so the library's own kernels), called
 * once at a large size and once at a small one, from call_variant, from main.  It
 * prints the number of calls. */
#include <stdio.h>
#include "fastcopy.h"

static unsigned char a[1 << 17], b[1 << 17];
static void *volatile sink; /* the result is used: no tail call, call_variant's frame stays */

__attribute__((noinline)) static void call_variant(const struct fc_variant *v, size_t n)
{
    if (v->func[3] == 's') /* memset */
        sink = ((void *(*)(void *, int, size_t))v->fn)(a, 1, n);
    else
        sink = ((void *(*)(void *, const void *, size_t))v->fn)(a, b, n);
}

int main(void)
{
    const struct fc_variant *v;
    size_t n = fc_variants(&v), calls = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i].usable) {
            call_variant(&v[i], sizeof a);
            call_variant(&v[i], 300);
            calls += 2;
        }
    printf("%zu calls\n", calls);
    return 0;
}
