/* static_large - a statically linked program (libfastcopy.a) with 3 MiB of
 * constant data between the library's kernels (.text) and its tunables (.bss).
 * It must link: kernels that reached fc_tun with PC-relative literal loads
 * (aarch64 `ldr x, label`: +-1 MiB) failed here with "relocation truncated to
 * fit".  It then fills 128 KiB (above every DC ZVA / rep stosb threshold the
 * policies set below 1 MiB) with 0 and with 0x5a through every usable memset
 * variant, and copies it through every usable copy variant, checking each byte. */
#include <stdio.h>
#include <string.h>
#include "fastcopy.h"

typedef void *(*copy_fn)(void *, const void *, size_t);
typedef void *(*set_fn)(void *, int, size_t);

static const unsigned char blob[3 << 20] = {1, 2, 3};

enum { N = 1 << 17, EDGE = 3 };
static unsigned char a[N], b[N];

static unsigned char pattern(size_t i)
{
    return (unsigned char)(i * 7 + 1);
}

static void fill(unsigned char *p)
{
    for (size_t i = 0; i < N; i++)
        ((volatile unsigned char *)p)[i] = pattern(i);
}

/* 0 when p holds val in [EDGE, N - EDGE) and the pattern around it. */
static int check(const char *what, const char *name, const unsigned char *p, int val)
{
    for (size_t i = 0; i < N; i++) {
        int want = i < EDGE || i >= N - EDGE ? pattern(i) : val;
        if (p[i] != want) {
            printf("static_large: %s %s: byte %zu is %#x, not %#x\n", what, name, i, p[i], want);
            return 1;
        }
    }
    return 0;
}

int main(void)
{
    const struct fc_variant *v;
    size_t nv = fc_variants(&v), tested = 0;
    int bad = 0;
    for (size_t k = 0; k < nv; k++) {
        if (!v[k].usable)
            continue;
        tested++;
        if (!strcmp(v[k].func, "memset")) {
            for (int c = 0; c < 2; c++) {
                int val = c ? 0x5a : 0;
                fill(a);
                ((set_fn)v[k].fn)(a + EDGE, val, N - 2 * EDGE);
                bad |= check("memset", v[k].name, a, val);
            }
        } else {
            fill(a);
            memset(b, 0xee, sizeof b);
            ((copy_fn)v[k].fn)(b + EDGE, a + EDGE, N - 2 * EDGE);
            for (size_t i = EDGE; i < N - EDGE; i++)
                if (b[i] != pattern(i)) {
                    printf("static_large: %s %s: byte %zu wrong\n", v[k].func, v[k].name, i);
                    bad = 1;
                    break;
                }
        }
    }
    printf("static_large: %zu usable variants checked; 3 MiB of constants (blob[2] = %d)\n",
           tested, ((volatile const unsigned char *)blob)[2]);
    return bad || tested == 0;
}
