/* rawsys.h - the few system calls the resolvers need, as raw instructions (a
 * resolver may run before libc is initialised).  Returns -errno on failure. */
#ifndef FC_RAWSYS_H
#define FC_RAWSYS_H
#include <stdint.h>

#define FC_AT_FDCWD (-100)

#if defined(__x86_64__)
#define FC_SYS_read 0
#define FC_SYS_write 1
#define FC_SYS_close 3
#define FC_SYS_openat 257
#define FC_SYS_rt_sigprocmask 14
#define FC_SYS_sched_yield 24
#define FC_SYS_fstat 5
/* struct stat (x86_64): st_mode, st_uid, st_size */
#define FC_STAT_MODE 24
#define FC_STAT_UID 28
#define FC_STAT_SIZE 48
static inline long fc_syscall4(long n, long a, long b, long c, long d)
{
    long r;
    register long r10 __asm__("r10") = d;
    __asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10)
                     : "rcx", "r11", "memory");
    return r;
}
#elif defined(__aarch64__) || (defined(__riscv) && __riscv_xlen == 64)
/* aarch64 and riscv64 share the asm-generic system call numbers and struct stat */
#define FC_SYS_read 63
#define FC_SYS_write 64
#define FC_SYS_close 57
#define FC_SYS_openat 56
#define FC_SYS_rt_sigprocmask 135
#define FC_SYS_sched_yield 124
#define FC_SYS_fstat 80
/* struct stat (asm-generic): st_mode, st_uid, st_size */
#define FC_STAT_MODE 16
#define FC_STAT_UID 24
#define FC_STAT_SIZE 48
#endif

#if defined(__x86_64__)
/* fc_syscall4 above */
#elif defined(__aarch64__)
static inline long fc_syscall4(long n, long a, long b, long c, long d)
{
    register long x8 __asm__("x8") = n;
    register long x0 __asm__("x0") = a;
    register long x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c;
    register long x3 __asm__("x3") = d;
    __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
    return x0;
}
#elif defined(__riscv) && __riscv_xlen == 64
static inline long fc_syscall4(long n, long a, long b, long c, long d)
{
    register long a7 __asm__("a7") = n;
    register long a0 __asm__("a0") = a;
    register long a1 __asm__("a1") = b;
    register long a2 __asm__("a2") = c;
    register long a3 __asm__("a3") = d;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a7), "r"(a1), "r"(a2), "r"(a3) : "memory");
    return a0;
}
#else
#define FC_NO_RAWSYS 1
#define FC_SYS_read 0
#define FC_SYS_write 0
#define FC_SYS_close 0
#define FC_SYS_openat 0
#define FC_SYS_rt_sigprocmask 0
#define FC_SYS_sched_yield 0
#define FC_SYS_fstat 0
#define FC_STAT_MODE 0
#define FC_STAT_UID 0
#define FC_STAT_SIZE 0
static inline long fc_syscall4(long n, long a, long b, long c, long d)
{
    (void)n, (void)a, (void)b, (void)c, (void)d;
    return -38; /* ENOSYS: no overrides on architectures without raw syscalls here */
}
#endif

static inline long fc_syscall3(long n, long a, long b, long c)
{
    return fc_syscall4(n, a, b, c, 0);
}

static inline long fc_open_ro(const char *path)
{
    return fc_syscall3(FC_SYS_openat, FC_AT_FDCWD, (long)path, 0 /* O_RDONLY */);
}
/* O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC (the same values on x86_64,
 * aarch64 and riscv64): a FIFO opens at once instead of waiting for a writer. */
static inline long fc_open_ro_nonblock(const char *path)
{
    return fc_syscall3(FC_SYS_openat, FC_AT_FDCWD, (long)path, 04000 | 0400 | 02000000);
}
struct fc_stat {
    unsigned mode, uid;
    uint64_t size;
};
/* 0 and *st filled, or -errno. */
static inline long fc_fstat(long fd, struct fc_stat *st)
{
    uint64_t buf[20]; /* struct stat: 144 bytes on x86_64, 128 asm-generic */
    long r = fc_syscall3(FC_SYS_fstat, fd, (long)buf, 0);
    if (r < 0)
        return r;
    /* little-endian words: a 32-bit field at byte offset o */
    st->mode = (uint32_t)(buf[FC_STAT_MODE / 8] >> (FC_STAT_MODE % 8 * 8));
    st->uid = (uint32_t)(buf[FC_STAT_UID / 8] >> (FC_STAT_UID % 8 * 8));
    st->size = buf[FC_STAT_SIZE / 8];
    return 0;
}
static inline long fc_read(long fd, void *buf, unsigned long n)
{
    return fc_syscall3(FC_SYS_read, fd, (long)buf, (long)n);
}
static inline void fc_close(long fd)
{
    fc_syscall3(FC_SYS_close, fd, 0, 0);
}
static inline void fc_write_err(const char *s, unsigned long n)
{
    fc_syscall3(FC_SYS_write, 2, (long)s, (long)n);
}

/* Blocks every signal (the kernel keeps SIGKILL/SIGSTOP), saving the old mask in
 * *old; fc_sigrestore puts it back.  For the few stores that publish the decision:
 * no signal handler can interrupt them on this thread. */
static inline void fc_sigblock_all(uint64_t *old)
{
    uint64_t all = ~(uint64_t)0;
    *old = 0;
    fc_syscall4(FC_SYS_rt_sigprocmask, 0 /* SIG_BLOCK */, (long)&all, (long)old, 8);
}
static inline void fc_sigrestore(const uint64_t *old)
{
    fc_syscall4(FC_SYS_rt_sigprocmask, 2 /* SIG_SETMASK */, (long)old, 0, 8);
}
static inline void fc_sched_yield(void)
{
    fc_syscall3(FC_SYS_sched_yield, 0, 0, 0);
}

/* The value of auxiliary-vector entry `tag`, read from /proc/self/auxv (resolvers
 * may run before getauxval works).  1: found, *val set; 0: not in the vector;
 * -1: the file could not be read. */
static inline int fc_auxv_get(uint64_t tag, uint64_t *val)
{
    uint64_t av[32];
    long fd = fc_open_ro("/proc/self/auxv"), n;
    int r = 0;
    if (fd < 0)
        return -1;
    while ((n = fc_read(fd, av, sizeof av)) > 0) {
        for (long i = 0; i + 1 < n / 8; i += 2) {
            if (av[i] == tag) {
                *val = av[i + 1];
                r = 1;
                goto done;
            }
            if (av[i] == 0) /* AT_NULL */
                goto done;
        }
    }
done:
    fc_close(fd);
    return r;
}
#endif
