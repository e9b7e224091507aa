/* test_cpunote.c - fcb_topology_note on made-up CPUID facts. */
#include <stdio.h>
#include <string.h>
#include "fcb.h"

static int fails;
#define EXPECT(cond, what)                                                                \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, what);                         \
            fails++;                                                                      \
        }                                                                                 \
    } while (0)

int main(void)
{
    /* the Zen 5 VM: leaf present (max 0x80000021), subleaf 0 all zeros */
    const char *n = fcb_topology_note(1, 0x80000021u, 0);
    EXPECT(n && strstr(n, "0x8000001D") && strstr(n, "AOCL-LibMem"), "empty leaf on AMD: a note");
    /* a machine that fills it: subleaf 0 = L1d (type 1, level 1) */
    EXPECT(!fcb_topology_note(1, 0x80000021u, 0x121), "filled leaf: no note");
    /* an AMD CPU whose extended leaves stop below 0x8000001D (no such leaf to misread) */
    EXPECT(!fcb_topology_note(1, 0x80000008u, 0), "no leaf: no note");
    /* Intel: the leaf is not theirs */
    EXPECT(!fcb_topology_note(0, 0x80000008u, 0), "not AMD: no note");
    printf("%d failed\n", fails);
    return fails != 0;
}
