/* next_count.c - libnext_count.so: stands for the C library in the runtime-control
 * tests (test/control/control.sh).  It defines memcpy, memmove and memset, each
 * counting its calls and copying byte by byte; control_prog links libfastcopy.so
 * first and this library after it, so that libfastcopy's dlsym(RTLD_NEXT, ...)
 * finds these: a disabled process's calls show up here, an enabled one's do not.
 * Its constructor runs before libfastcopy's (it comes later in the search
 * order) and makes one copy then: a call before libfastcopy has looked the next
 * function up, which must reach libfastcopy's own kernel (not counted). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include "../byte_loops.h"

static unsigned long counts[3];
static int early_ok = -1;
static unsigned long early_counted;

void *memcpy(void *d, const void *s, size_t n)
{
    __atomic_add_fetch(&counts[0], 1, __ATOMIC_RELAXED);
    return byte_move(d, s, n);
}

void *memmove(void *d, const void *s, size_t n)
{
    __atomic_add_fetch(&counts[1], 1, __ATOMIC_RELAXED);
    return byte_move(d, s, n);
}

void *memset(void *d, int c, size_t n)
{
    __atomic_add_fetch(&counts[2], 1, __ATOMIC_RELAXED);
    return byte_set(d, c, n);
}

unsigned long next_count(int which)
{
    return counts[which];
}

/* 1 when the constructor's copy was right, and how many calls it added here. */
int next_early(unsigned long *counted)
{
    *counted = early_counted;
    return early_ok;
}

__attribute__((constructor)) static void early(void)
{
    static char a[100], b[100];
    /* the program's binding of memcpy (libfastcopy's), the first in the search order */
    void *(*cp)(void *, const void *, size_t) =
        (void *(*)(void *, const void *, size_t))dlsym(RTLD_DEFAULT, "memcpy");
    for (int i = 0; i < 100; i++)
        a[i] = (char)(i * 3 + 1);
    unsigned long before = counts[0];
    cp(b, a, sizeof b);
    early_counted = counts[0] - before;
    early_ok = 1;
    for (int i = 0; i < 100; i++)
        if (b[i] != a[i])
            early_ok = 0;
}
