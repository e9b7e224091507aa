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
    /* the Zen 5 VM of 2026-12-03: AMD without TopologyExtensions, the leaf all zeros */
    const char *n = fcb_topology_note(1, 0, 0);
    EXPECT(n && strstr(n, "0x8000001D") && strstr(n, "AOCL-LibMem"), "AMD, no TOPOEXT, empty leaf: a note");
    /* the Zen 5 VM of 2026-12-05: the bit clear, the leaf filled (a peer reading it is
     * configured as on bare metal) */
    EXPECT(!fcb_topology_note(1, 0, 1), "AMD, no TOPOEXT but a filled leaf: no note");
    EXPECT(!fcb_topology_note(1, 1, 1), "AMD with TOPOEXT: no note");
    EXPECT(!fcb_topology_note(0, 0, 0), "not AMD (the leaf is not theirs): no note");
    printf("%d failed\n", fails);
    return fails != 0;
}
