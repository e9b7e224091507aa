/* test_cpunote.c - fcb_topology_note on made-up CPU facts. */
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
    /* the Zen 5 VM: AMD without TopologyExtensions */
    const char *n = fcb_topology_note(1, 0);
    EXPECT(n && strstr(n, "0x8000001D") && strstr(n, "AOCL-LibMem"), "AMD, no TOPOEXT: a note");
    EXPECT(!fcb_topology_note(1, 1), "AMD with TOPOEXT: no note");
    EXPECT(!fcb_topology_note(0, 0), "not AMD (the leaf is not theirs): no note");
    printf("%d failed\n", fails);
    return fails != 0;
}
