/* test_rv_aligned.c - riscv64: the "word" memcpy, memmove and memset make no
 * misaligned access, at any size, alignment or overlap (run under QEMU with
 * qemu_misalign_plugin, which sets the exit status: this program exits with 3 so
 * that a run without the plugin fails).  Results are checked here too.
 *
 * argv[1], when given, names the variant to run instead of "word" (e.g.
 * "unaligned", to see the plugin catch misaligned accesses). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fastcopy.h"

typedef void *(*copy_fn)(void *, const void *, size_t);
typedef void *(*set_fn)(void *, int, size_t);

static unsigned char buf[3 * 65536 + 4096] __attribute__((aligned(64)));
static unsigned char ref[3 * 65536 + 4096];

static int check_copy(copy_fn fn, size_t dst, size_t src, size_t n)
{
    size_t lo = (dst < src ? dst : src) - 32, len = n + 64 + (dst > src ? dst - src : src - dst);
    for (size_t i = 0; i < n; i++)
        buf[src + i] = (unsigned char)(i * 29 + n);
    memcpy(ref + lo, buf + lo, len);
    memmove(ref + dst, ref + src, n);
    fn(buf + dst, buf + src, n);
    return memcmp(buf + lo, ref + lo, len) != 0;
}

int main(int argc, char **argv)
{
    const char *want = argc > 1 ? argv[1] : "word";
    const struct fc_variant *v;
    size_t nv = fc_variants(&v);
    int ran = 0, bad = 0;
    for (size_t i = 0; i < nv; i++) {
        if (strcmp(v[i].name, want) || !v[i].usable)
            continue;
        ran++;
        if (!strcmp(v[i].func, "memset")) {
            set_fn fn = (set_fn)v[i].fn;
            for (size_t n = 0; n <= 700; n += n < 300 ? 1 : 37)
                for (size_t d = 0; d < 8; d++) {
                    fn(buf + 4096 + d, (int)(n + 0x100), n);
                    for (size_t k = 0; k < n; k++)
                        bad |= buf[4096 + d + k] != (unsigned char)n;
                }
            fn(buf + 4099, 0, 65536 - 5);
            continue;
        }
        copy_fn fn = (copy_fn)v[i].fn;
        for (size_t n = 0; n <= 600; n += n < 300 ? 1 : 31)
            for (size_t so = 0; so < 8; so++)
                for (size_t d = 0; d < 8; d++) {
                    bad |= check_copy(fn, 4096 + d, 40960 + so, n);      /* disjoint */
                    bad |= check_copy(fn, 4096 + d, 4096 + 24 + so, n);  /* dst below src */
                    bad |= check_copy(fn, 4096 + 24 + d, 4096 + so, n);  /* dst above src */
                }
        bad |= check_copy(fn, 4096 + 3, 65536 + 4096 + 1, 65536);
        bad |= check_copy(fn, 4096 + 5, 4096 + 2, 65536);
        bad |= check_copy(fn, 4096 + 2, 4096 + 7, 65536);
    }
    printf("test_rv_aligned: %d %s kernels run, results %s\n", ran, want, bad ? "WRONG" : "right");
    if (ran != 3 || bad)
        return 1;
    return 3; /* the verdict on alignment comes from qemu_misalign_plugin */
}
