/* print_selected - linked with libfastcopy.so: prints what the library bound.
 * Used by test_dropin (overrides, AT_SECURE). */
#include <stdio.h>
#include "fastcopy.h"

int main(void)
{
    printf("memcpy=%s memmove=%s memset=%s\n", fc_selected("memcpy"), fc_selected("memmove"),
           fc_selected("memset"));
    return 0;
}
