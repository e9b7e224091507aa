/* prog_which.c - prints which loaded object defines the memcpy, memmove and memset
 * this program calls (for the musl preload test: musl has no LD_DEBUG=bindings). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    void *f[3] = {(void *)memcpy, (void *)memmove, (void *)memset};
    static const char *names[3] = {"memcpy", "memmove", "memset"};
    for (int i = 0; i < 3; i++) {
        Dl_info d;
        printf("%s %s\n", names[i], dladdr(f[i], &d) && d.dli_fname ? d.dli_fname : "?");
    }
    return 0;
}
