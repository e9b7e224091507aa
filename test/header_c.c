/* The public header under every C standard the build compiles this file with
 * (c89, gnu89, c99, c11, gnu17: -pedantic-errors, -Werror), and a check that the
 * loaded library is the header's version. */
#include <stdio.h>
#include <string.h>
#include <fastcopy.h>

int main(void)
{
    char buf[16], want[48];
    const char *v = fc_version();
    sprintf(want, "%d.%d.%d", FASTCOPY_VERSION_MAJOR, FASTCOPY_VERSION_MINOR,
            FASTCOPY_VERSION_PATCH);
    if (strcmp(v, FASTCOPY_VERSION_STRING) || strcmp(v, want)) {
        printf("fc_version() = %s, header says %s (%s)\n", v, FASTCOPY_VERSION_STRING, want);
        return 1;
    }
    if (FASTCOPY_VERSION != FASTCOPY_VERSION_AT(FASTCOPY_VERSION_MAJOR, FASTCOPY_VERSION_MINOR,
                                                FASTCOPY_VERSION_PATCH)) {
        printf("FASTCOPY_VERSION is wrong\n");
        return 1;
    }
    if (fc_memcpy(buf, "fastcopy", 9) != buf || strcmp(buf, "fastcopy")) {
        printf("fc_memcpy through the header failed\n");
        return 1;
    }
    printf("libfastcopy %s\n", v);
    return 0;
}
