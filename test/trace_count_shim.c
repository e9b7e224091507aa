/* trace_count_shim.c - an independent count of the calls, to check the trace's
 * totals against: preloaded before libfastcopy-trace.so (LD_PRELOAD=shim:trace),
 * each exported name counts its calls and bytes here with atomic adds and
 * forwards the call to the next definition (dlsym RTLD_NEXT: the trace
 * library's).  At exit each process writes FCT_SHIM_DIR/PID.count, lines
 * "name NAME CALLS BYTES" as in a .trace file; after fork the child starts from
 * zero.  Calls made while a pointer is being looked up (none were seen) are
 * copied here byte by byte, not forwarded, and counted on a "recursive" line. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "byte_loops.h"

#define NAMES(X)                                                                     \
    X(memcpy) X(memmove) X(memset) X(mempcpy) X(__mempcpy) X(bcopy) X(bzero)          \
    X(explicit_bzero) X(__memcpy_chk) X(__memmove_chk) X(__memset_chk)                \
    X(__mempcpy_chk) X(__explicit_bzero_chk)
#define ID(n) ID_##n,
enum { NAMES(ID) NNAMES };
#define STR(n) #n,
static const char *const names[NNAMES] = {NAMES(STR)};
static uint64_t calls[NNAMES], bytes[NNAMES], recursive;
static void *next[NNAMES];
static __thread int looking_up;
static int stopped;

static void *next_of(int id)
{
    void *p = __atomic_load_n(&next[id], __ATOMIC_ACQUIRE);
    if (p || looking_up)
        return p;
    looking_up = 1;
    p = dlsym(RTLD_NEXT, names[id]);
    looking_up = 0;
    __atomic_store_n(&next[id], p, __ATOMIC_RELEASE);
    return p;
}

static void count(int id, size_t n)
{
    if (__atomic_load_n(&stopped, __ATOMIC_RELAXED))
        return;
    __atomic_fetch_add(&calls[id], 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&bytes[id], n, __ATOMIC_RELAXED);
}

typedef void *(*copy_t)(void *, const void *, size_t);
typedef void *(*set_t)(void *, int, size_t);
typedef void *(*copy_chk_t)(void *, const void *, size_t, size_t);
typedef void *(*set_chk_t)(void *, int, size_t, size_t);
typedef void (*bcopy_t)(const void *, void *, size_t);
typedef void (*zero_t)(void *, size_t);
typedef void (*zero_chk_t)(void *, size_t, size_t);
#define FWD(id, type) type f = (type)next_of(id)
#define REC() __atomic_fetch_add(&recursive, 1, __ATOMIC_RELAXED)

#define COPY(name, ret)                                                             \
    void *name(void *d, const void *s, size_t n)                                    \
    {                                                                               \
        count(ID_##name, n);                                                        \
        FWD(ID_##name, copy_t);                                                     \
        if (f)                                                                      \
            return f(d, s, n);                                                      \
        REC();                                                                      \
        byte_move(d, s, n);                                                         \
        return ret;                                                                 \
    }
#define COPY_CHK(name, ret)                                                         \
    void *name(void *d, const void *s, size_t n, size_t dn)                         \
    {                                                                               \
        count(ID_##name, n);                                                        \
        FWD(ID_##name, copy_chk_t);                                                 \
        if (f)                                                                      \
            return f(d, s, n, dn);                                                  \
        REC();                                                                      \
        byte_move(d, s, n);                                                         \
        return ret;                                                                 \
    }
COPY(memcpy, d)
COPY(memmove, d)
COPY(mempcpy, (char *)d + n)
COPY(__mempcpy, (char *)d + n)
COPY_CHK(__memcpy_chk, d)
COPY_CHK(__memmove_chk, d)
COPY_CHK(__mempcpy_chk, (char *)d + n)

void *memset(void *d, int c, size_t n)
{
    count(ID_memset, n);
    FWD(ID_memset, set_t);
    if (f)
        return f(d, c, n);
    REC();
    return byte_set(d, c, n);
}
void *__memset_chk(void *d, int c, size_t n, size_t dn)
{
    count(ID___memset_chk, n);
    FWD(ID___memset_chk, set_chk_t);
    if (f)
        return f(d, c, n, dn);
    REC();
    return byte_set(d, c, n);
}
void bcopy(const void *s, void *d, size_t n)
{
    count(ID_bcopy, n);
    FWD(ID_bcopy, bcopy_t);
    if (f) {
        f(s, d, n);
        return;
    }
    REC();
    byte_move(d, s, n);
}
#define ZERO(name)                                                                  \
    void name(void *d, size_t n)                                                    \
    {                                                                               \
        count(ID_##name, n);                                                        \
        FWD(ID_##name, zero_t);                                                     \
        if (f) {                                                                    \
            f(d, n);                                                                \
            return;                                                                 \
        }                                                                           \
        REC();                                                                      \
        byte_set(d, 0, n);                                                           \
    }
ZERO(bzero)
ZERO(explicit_bzero)
void __explicit_bzero_chk(void *d, size_t n, size_t dn)
{
    count(ID___explicit_bzero_chk, n);
    FWD(ID___explicit_bzero_chk, zero_chk_t);
    if (f) {
        f(d, n, dn);
        return;
    }
    REC();
    byte_set(d, 0, n);
}

static void child(void)
{
    for (int i = 0; i < NNAMES; i++)
        calls[i] = bytes[i] = 0;
    recursive = 0;
}

__attribute__((constructor)) static void init(void)
{
    pthread_atfork(NULL, NULL, child);
}

__attribute__((destructor)) static void fini(void)
{
    __atomic_store_n(&stopped, 1, __ATOMIC_RELEASE);
    const char *dir = getenv("FCT_SHIM_DIR");
    if (!dir)
        return;
    char path[4096], buf[4096];
    snprintf(path, sizeof path, "%s/%ld.count", dir, (long)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return;
    for (int i = 0; i < NNAMES; i++) {
        int l = snprintf(buf, sizeof buf, "name %s %llu %llu\n", names[i],
                         (unsigned long long)calls[i], (unsigned long long)bytes[i]);
        (void)!write(fd, buf, (size_t)l);
    }
    int l = snprintf(buf, sizeof buf, "recursive %llu\n", (unsigned long long)recursive);
    (void)!write(fd, buf, (size_t)l);
    close(fd);
}
