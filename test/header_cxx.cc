// The public header from C++ (c++98 and c++17, -pedantic-errors, -Werror).
#include <fastcopy.h>
#include <cstdio>
#include <cstring>

int main()
{
    char buf[16];
    fc_memmove(buf, "fastcopy", 9);
    const char *sel = fc_selected("memcpy");
    if (std::strcmp(buf, "fastcopy") || !sel ||
        std::strcmp(fc_version(), FASTCOPY_VERSION_STRING)) {
        std::printf("the header's API misbehaves from C++\n");
        return 1;
    }
    std::printf("libfastcopy %s, memcpy = %s\n", fc_version(), sel);
    return 0;
}
