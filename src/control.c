/* control.c - runtime control: FASTCOPY_DISABLE and /etc/fastcopy/disable send
 * every exported name to the C library's own function; the diagnostics of the
 * settings are one line per process at most (FASTCOPY_QUIET, /etc/fastcopy/quiet:
 * none); and the status block that `fastcopy-info --pid` reads.
 *
 * Disabling.  The resolvers cannot call the C library (it may not be relocated
 * yet, and dlsym is not resolver-safe), so a disabled process binds every
 * exported name to a stub that jumps through a slot (fc_libc_memcpy & co.; the
 * derived names, mempcpy, bcopy, the _chk forms..., to the same wrappers as for
 * any variant, around these): the resolver stores our selected kernel in the slot
 * first, and the constructor below replaces it with dlsym(RTLD_NEXT, "memcpy"),
 * the next definition after this library (the C library's, or another preloaded
 * one's).  Calls before that constructor (other libraries' constructors that run
 * earlier) go to our kernel.  The same on every architecture and binding (x86_64's
 * bodies divert to the stub: the stub is not their kernel; aarch64 and riscv64
 * bind the IFUNC symbols to it; musl's slots start at it).  dlsym is a weak
 * reference, and a static program (libfastcopy.a) has no other memcpy to switch
 * to: it keeps ours (with FASTCOPY_DISABLE=1 its one line says so).  The cost when
 * disabled: the stub's jump, and x86_64's divert, before the C library's code.
 *
 * The environment variables come from the settings parser (fc_control_env: never
 * under AT_SECURE); the system files count for every process, setuid ones too,
 * and only their presence is read. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include "control.h"
#include "arch.h"
#include "dispatch.h"
#include "fastcopy.h"
#include "kernels.h"
#include "rawsys.h"

#pragma weak dlsym

static int env_disable, env_quiet; /* FASTCOPY_DISABLE=1, FASTCOPY_QUIET=1 */
static int disabled_state;         /* 0 not known yet, else 1 + fc_control_disabled() */

/* 1 when path exists (whatever it is, readable or not). */
static int path_exists(const char *path)
{
    long fd = fc_open_ro_nonblock(path);
    if (fd >= 0) {
        fc_close(fd);
        return 1;
    }
    return fd != -2 /* ENOENT */ && fd != -20 /* ENOTDIR */;
}

FC_HIDDEN int fc_control_env(const char *key, const char *val)
{
    int *flag;
    if (fc_streq(key, "FASTCOPY_DISABLE"))
        flag = &env_disable;
    else if (fc_streq(key, "FASTCOPY_QUIET"))
        flag = &env_quiet;
    else
        return 0;
    char line[FC_DIAG_LEN];
    line[0] = 0;
    fc_strcat(line, sizeof line, "libfastcopy: ");
    fc_strcat(line, sizeof line, key);
    fc_strcat(line, sizeof line, "=");
    fc_strcat(line, sizeof line, val);
    if (!fc_streq(val, "1") && !fc_streq(val, "0") && *val) {
        fc_strcat(line, sizeof line, ": not 0 or 1; ignored");
        fc_diag_line(line);
        return 1;
    }
    __atomic_store_n(flag, fc_streq(val, "1"), __ATOMIC_RELAXED);
    return 1;
}

FC_HIDDEN int fc_control_disabled(void)
{
    int s = __atomic_load_n(&disabled_state, __ATOMIC_ACQUIRE);
    if (!s) {
        s = 1 + (__atomic_load_n(&env_disable, __ATOMIC_RELAXED) ? FC_DISABLED_ENV : 0) +
            (path_exists(FC_DISABLE_FILE) ? FC_DISABLED_FILE : 0);
        __atomic_store_n(&disabled_state, s, __ATOMIC_RELEASE);
    }
    return s - 1;
}

/* ---- the C library's functions, when disabled ---------------------------------- */

/* Our kernel (seeded by the resolver) until the constructor stores the C
 * library's.  .bss: no relocation, so a resolver that runs before this library
 * is relocated (aarch64, riscv64: another library's relocation binding our IFUNC)
 * can seed it. */
static void *libc_slot[FC_NFUNCS];

FC_HIDDEN void fc_libc_seed(int func, void *kernel)
{
    void *none = 0;
    __atomic_compare_exchange_n(&libc_slot[func], &none, kernel, 0, __ATOMIC_RELEASE,
                                __ATOMIC_RELAXED);
}

/* (A slot not seeded yet, seen by a thread racing the first binding on a weakly
 * ordered CPU, falls back to the portable kernel.) */
FC_HIDDEN void *fc_libc_memcpy(void *d, const void *s, size_t n)
{
    fc_copy_fn f = (fc_copy_fn)__atomic_load_n(&libc_slot[FC_MEMCPY], __ATOMIC_ACQUIRE);
    return (f ? f : fc_memcpy_generic)(d, s, n);
}

FC_HIDDEN void *fc_libc_memmove(void *d, const void *s, size_t n)
{
    fc_copy_fn f = (fc_copy_fn)__atomic_load_n(&libc_slot[FC_MEMMOVE], __ATOMIC_ACQUIRE);
    return (f ? f : fc_memmove_generic)(d, s, n);
}

FC_HIDDEN void *fc_libc_memset(void *d, int c, size_t n)
{
    fc_set_fn f = (fc_set_fn)__atomic_load_n(&libc_slot[FC_MEMSET], __ATOMIC_ACQUIRE);
    return (f ? f : fc_memset_generic)(d, c, n);
}

/* ---- diagnostics ------------------------------------------------------------------ */

static char diag_buf[FC_DIAG_KEEP][FC_DIAG_LEN];
static int diag_state[FC_DIAG_KEEP]; /* 0 free, 1 being written, 2 ready */
static unsigned diag_more;           /* lines beyond those kept */
static int diag_flushed, diag_printed;

/* Keeps the line (once: racing deciders find the same ones); lock-free, since a
 * signal handler of the same thread may decide too. */
FC_HIDDEN void fc_diag_line(const char *line)
{
    for (unsigned i = 0; i < FC_DIAG_KEEP; i++)
        if (__atomic_load_n(&diag_state[i], __ATOMIC_ACQUIRE) == 2 && fc_streq(diag_buf[i], line))
            return;
    for (unsigned i = 0; i < FC_DIAG_KEEP; i++) {
        int free_ = 0;
        if (__atomic_compare_exchange_n(&diag_state[i], &free_, 1, 0, __ATOMIC_ACQUIRE,
                                        __ATOMIC_RELAXED)) {
            diag_buf[i][0] = 0;
            fc_strcat(diag_buf[i], FC_DIAG_LEN, line);
            __atomic_store_n(&diag_state[i], 2, __ATOMIC_RELEASE);
            return;
        }
    }
    __atomic_add_fetch(&diag_more, 1, __ATOMIC_RELAXED);
}

FC_HIDDEN unsigned fc_diag_count(void)
{
    unsigned n = __atomic_load_n(&diag_more, __ATOMIC_RELAXED);
    for (unsigned i = 0; i < FC_DIAG_KEEP; i++)
        n += __atomic_load_n(&diag_state[i], __ATOMIC_ACQUIRE) == 2;
    return n;
}

FC_HIDDEN const char *fc_diag_get(unsigned i)
{
    return i < FC_DIAG_KEEP && __atomic_load_n(&diag_state[i], __ATOMIC_ACQUIRE) == 2
               ? diag_buf[i]
               : 0;
}

FC_HIDDEN int fc_diag_printed(void)
{
    return __atomic_load_n(&diag_printed, __ATOMIC_RELAXED);
}

static int quiet_now(void)
{
    return (__atomic_load_n(&env_quiet, __ATOMIC_RELAXED) ? 1 : 0) |
           (path_exists(FC_QUIET_FILE) ? 2 : 0);
}

FC_HIDDEN int fc_control_quiet(void)
{
    return quiet_now();
}

/* The first line, and how many more there are: once per process. */
FC_HIDDEN void fc_diag_flush(void)
{
#ifdef FC_TRACE_BUILD
    /* libfastcopy-trace.so applies the settings silently: a traced program's
     * stderr is its own (a program that links libfastcopy.so prints the line
     * itself; one that does not would never have printed it). */
    return;
#endif
    unsigned n = fc_diag_count();
    if (!n || __atomic_exchange_n(&diag_flushed, 1, __ATOMIC_ACQ_REL))
        return;
    if (quiet_now())
        return;
    char out[FC_DIAG_LEN + 64];
    out[0] = 0;
    const char *first = fc_diag_get(0);
    fc_strcat(out, sizeof out, first ? first : "libfastcopy: a setting was not taken");
    if (n > 1) {
        fc_strcat_num(out, sizeof out, " (and ", n - 1, 0);
        fc_strcat(out, sizeof out, " more: fastcopy-info lists them)");
    }
    size_t len = fc_strlen(out);
    out[len++] = '\n';
    fc_write_err(out, len);
    __atomic_store_n(&diag_printed, 1, __ATOMIC_RELAXED);
}

static unsigned libc_bound;

FC_HIDDEN unsigned fc_control_libc_bound(void)
{
    return __atomic_load_n(&libc_bound, __ATOMIC_ACQUIRE);
}

/* ---- the status block, and the constructor ---------------------------------------- */

/* In .data (initialised): `fastcopy-info --pid` finds it among the object's
 * writable pages by the magic, checks layout and size, and reads it. */
__attribute__((used, aligned(64))) static struct fc_status fc_status_block = {
    .magic = FC_STATUS_MAGIC, .layout = FC_STATUS_LAYOUT, .size = sizeof(struct fc_status),
    .version = FASTCOPY_VERSION_STRING, .arch = FC_ARCH_NAME, .inline_ = {2, 2, 2}};

/* exports.c's, where it is linked in (weak: programs linking the parts have none). */
extern const char fc_dropin_binding[] __attribute__((weak, visibility("hidden")));
extern const char fc_dropin_copy_name[] __attribute__((weak, visibility("hidden")));
extern const char fc_dropin_body[] __attribute__((weak, visibility("hidden")));
extern const char fc_dropin_copy_body[] __attribute__((weak, visibility("hidden")));
extern size_t fc_dropin_limit_memcpy __attribute__((weak, visibility("hidden")));
extern size_t fc_dropin_limit_memmove __attribute__((weak, visibility("hidden")));
extern size_t fc_dropin_limit_memset __attribute__((weak, visibility("hidden")));

static void status_str(char *dst, size_t cap, const char *src)
{
    dst[0] = 0;
    if (src)
        fc_strcat(dst, cap, src);
}

static void fill_status(const struct fc_decision *d, int dis, unsigned bound)
{
    struct fc_status *st = &fc_status_block;
    uint64_t sec = 1;
    st->disabled = (unsigned char)dis;
    st->libc_bound = (unsigned char)bound;
    st->secure = fc_auxv_get(23 /* AT_SECURE */, &sec) == 1 && sec != 0;
    status_str(st->copy, sizeof st->copy, fc_dropin_copy_name);
    status_str(st->body, sizeof st->body, fc_dropin_body);
    status_str(st->binding, sizeof st->binding, fc_dropin_binding);
    if (fc_dropin_copy_body) {
        st->inline_[FC_MEMCPY] = __atomic_load_n(&fc_dropin_limit_memcpy, __ATOMIC_RELAXED) != 0;
        st->inline_[FC_MEMMOVE] = __atomic_load_n(&fc_dropin_limit_memmove, __ATOMIC_RELAXED) != 0;
        st->inline_[FC_MEMSET] = __atomic_load_n(&fc_dropin_limit_memset, __ATOMIC_RELAXED) != 0;
    }
    for (int f = 0; f < FC_NFUNCS; f++)
        status_str(st->variant[f], sizeof st->variant[f], fc_arch_variant_name(f, d->sel[f]));
    st->ndiag = fc_diag_count();
    st->printed = (uint32_t)fc_diag_printed();
    st->quiet = (unsigned char)(st->ndiag ? quiet_now() : (env_quiet ? 1 : 0));
    for (unsigned i = 0; i < 4; i++)
        status_str(st->diag[i], sizeof st->diag[i], fc_diag_get(i));
    const unsigned char *s = (const unsigned char *)d;
    unsigned char *t = (unsigned char *)&st->dec;
    for (size_t i = 0; i < sizeof *d; i++)
        t[i] = s[i];
    __atomic_store_n(&st->ready, 1, __ATOMIC_RELEASE);
}

__attribute__((constructor)) static void fc_control_at_load(void)
{
#ifdef FC_NO_IFUNC
    fc_bind_all(); /* the slots filled (idempotent), whichever constructor runs first */
#endif
    const struct fc_decision *d = fc_decide_runtime();
    int dis = fc_control_disabled();
    unsigned bound = 0;
    if (dis && dlsym) {
        for (int f = 0; f < FC_NFUNCS; f++) {
            void *p = dlsym(RTLD_NEXT, fc_func_name(f));
            if (p) {
                __atomic_store_n(&libc_slot[f], p, __ATOMIC_RELEASE);
                bound |= 1u << f;
            }
        }
    }
    __atomic_store_n(&libc_bound, bound, __ATOMIC_RELEASE);
    if ((dis & FC_DISABLED_ENV) && !bound) {
        /* Asked for by this process (the system file is everyone's: recorded only),
         * and the line is its only one unless one was printed already. */
        static const char line[] = "libfastcopy: FASTCOPY_DISABLE=1: a statically linked "
                                   "program has no other memcpy, memmove and memset; "
                                   "libfastcopy's stay";
        fc_diag_line(line);
#ifndef FC_TRACE_BUILD
        if (!fc_diag_printed() && !quiet_now()) {
            char out[sizeof line + 1];
            for (size_t i = 0; i < sizeof line; i++)
                out[i] = line[i];
            out[sizeof line - 1] = '\n';
            fc_write_err(out, sizeof line);
            __atomic_store_n(&diag_printed, 1, __ATOMIC_RELAXED);
        }
#endif
    }
    fill_status(d, dis, bound);
}
