/* fcb_impls.c - the implementations timed (fcb.h: "impl"): the C library's
 * functions, the --with libraries (dlopen'ed, each function probed in a child
 * process first), "dropin" (libfastcopy's shared object), auto, the compiled-in
 * variants, the user copies, the empty call and the machine-limit kernels. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "fastcopy.h"
#include "fcb.h"
#include "fcb_internal.h"

/* fcb_empty.c: the call-overhead floor, in its own file so it is never inlined. */
void *fcb_empty_copy(void *d, const void *s, size_t n);
void *fcb_empty_set(void *d, int c, size_t n);

/* ---- implementations ----------------------------------------------------------------- */

static void add_impl(struct fcb_state *st, const char *name, int func, int kind, int flags,
                     void (*fn)(void))
{
    /* libc, --with, the empty call (the floor of the mix targets) and the limit
     * kernels are always timed: the others are measured against them */
    if (!(flags & (FCB_I_LIBC | FCB_I_WITH | FCB_I_LIMIT | FCB_I_EMPTY)) &&
        !fcb_in_list(st->cfg.impls, name, 0))
        return;
    struct fcb_impl *im = &st->impls[st->nimpls++];
    snprintf(im->name, sizeof im->name, "%s", name);
    im->func = func;
    im->kind = kind;
    im->flags = flags;
    im->fn = fn;
}

/* The C library's own functions, through dlsym so its IFUNC choice is what runs and
 * the compiler cannot inline or specialise them.  Static builds (no dlopen) take
 * the address of the libc symbol through a volatile object instead. */
static void libc_fns(struct fcb_state *st, void (**fns)(void))
{
    static void *(*volatile vcpy)(void *, const void *, size_t) = memcpy;
    static void *(*volatile vmove)(void *, const void *, size_t) = memmove;
    static void *(*volatile vset)(void *, int, size_t) = memset;
    fns[FCB_MEMCPY] = (void (*)(void))vcpy;
    fns[FCB_MEMMOVE] = (void (*)(void))vmove;
    fns[FCB_MEMSET] = (void (*)(void))vset;
    st->libc_how = "address of the libc symbol (static build)";
#ifndef FCB_STATIC
    static const char *const names[3] = {"memcpy", "memmove", "memset"};
    /* musl's loader answers every "libc.*" (and "libm.so.6", ...) with itself: its
     * own name first, so that the output says musl there. */
    static const char *const libs[] = {"libc.musl-x86_64.so.1", "libc.so.6", "libc.so"};
    for (size_t l = 0; l < sizeof libs / sizeof *libs; l++) {
        void *h = dlopen(libs[l], RTLD_LAZY | RTLD_NOLOAD);
        if (!h)
            continue;
        int ok = 1;
        void *p[3];
        for (int f = 0; f < 3; f++)
            ok &= (p[f] = dlsym(h, names[f])) != NULL;
        if (ok) {
            for (int f = 0; f < 3; f++)
                fns[f] = (void (*)(void))p[f];
            st->libc_how = libs[l];
            return;
        }
    }
#endif
}

/* --with LIB[=NAME]: the path, and the name (default: the file name without "lib"
 * and the suffixes).  -1 when the path is empty or too long. */
int fcb_with_split(const char *arg, char path[256], char name[24])
{
    const char *eq = strrchr(arg, '='); /* a path may hold '=', a NAME no '/' */
    if (eq && strchr(eq, '/'))
        eq = NULL;
    size_t plen = eq ? (size_t)(eq - arg) : strlen(arg);
    if (plen == 0 || plen >= 256)
        return -1;
    memcpy(path, arg, plen);
    path[plen] = 0;
    if (eq && eq[1]) {
        snprintf(name, 24, "%s", eq + 1);
    } else {
        const char *b = strrchr(path, '/');
        b = b ? b + 1 : path;
        if (!strncmp(b, "lib", 3) && b[3])
            b += 3;
        size_t n = strcspn(b, ".");
        if (n >= 24)
            n = 23;
        memcpy(name, b, n);
        name[n] = 0;
    }
    return 0;
}

#ifndef FCB_STATIC /* a static fcbench loads no --with library */
/* --with LIB: each function is called once per size class (0 B to 8 MiB, so
 * that its non-temporal and rep paths run too) in a child process before any
 * timing, so that a library built for another CPU (AOCL-LibMem's zen4 and zen5
 * builds use AVX-512: SIGILL on a Zen 1-3 or an Intel client core) or a broken
 * one is named in one line instead of killing the run; the results are checked
 * too.  0 when every call returned and was right. */
static int with_probe(const char *arg, void *const fns[FCB_NFUNCS])
{
    static const char *const fnames[3] = {"memcpy", "memmove", "memset"};
    static const size_t sizes[] = {0, 1, 7, 16, 33, 64, 100, 200, 300, 600, 1500, 3000, 5000,
                                   9000, 20000, 70000, 300000, 1 << 20, 8 << 20};
    int fd[2];
    if (pipe(fd)) {
        fcb_err("--with '%s': pipe: %s\n", arg, strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fcb_err("--with '%s': fork: %s\n", arg, strerror(errno));
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        close(fd[0]);
        size_t cap = (8 << 20) + 64;
        unsigned char *a = malloc(cap), *b = malloc(cap);
        if (!a || !b)
            _exit(2);
        for (int f = 0; f < FCB_NFUNCS; f++) {
            if (!fns[f])
                continue;
            for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
                size_t n = sizes[i];
                /* what is being called, written before the call: the parent
                 * names the last one when the child dies */
                int rec[2] = {f, (int)i};
                if (write(fd[1], rec, sizeof rec) != (ssize_t)sizeof rec)
                    _exit(2);
                for (size_t k = 0; k < n + 3; k++)
                    a[k] = (unsigned char)(k * 7 + 1), b[k] = 0;
                int bad = 0;
                if (f == FCB_MEMSET) {
                    void *(*fn)(void *, int, size_t) = (void *(*)(void *, int, size_t))fns[f];
                    bad = fn(b + 1, 0x5a, n) != b + 1;
                    for (size_t k = 0; k < n && !bad; k++)
                        bad = b[1 + k] != 0x5a;
                } else {
                    void *(*fn)(void *, const void *, size_t) =
                        (void *(*)(void *, const void *, size_t))fns[f];
                    bad = fn(b + 1, a + 3, n) != b + 1;
                    for (size_t k = 0; k < n && !bad; k++)
                        bad = b[1 + k] != a[3 + k];
                }
                bad |= b[0] != 0 || b[n + 1] != 0;
                if (bad)
                    _exit(3);
            }
        }
        _exit(0);
    }
    close(fd[1]);
    int last[2] = {-1, -1}, rec[2];
    while (read(fd[0], rec, sizeof rec) == (ssize_t)sizeof rec)
        last[0] = rec[0], last[1] = rec[1];
    close(fd[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    const char *fname = last[0] >= 0 ? fnames[last[0]] : "?";
    size_t n = last[1] >= 0 ? sizes[last[1]] : 0;
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGILL)
        fcb_err("--with '%s': its %s died of SIGILL (illegal instruction) on a %zu-byte call: "
                "the library was built for a CPU this one is not\n",
                arg, fname, n);
    else if (WIFSIGNALED(status))
        fcb_err("--with '%s': its %s died of signal %d (%s) on a %zu-byte call\n", arg, fname,
                WTERMSIG(status), strsignal(WTERMSIG(status)), n);
    else if (WEXITSTATUS(status) == 3)
        fcb_err("--with '%s': its %s gave a wrong result on a %zu-byte call\n", arg, fname, n);
    else
        fcb_err("--with '%s': the test calls could not run (exit status %d)\n", arg,
                WEXITSTATUS(status));
    return -1;
}
#endif

/* --with LIB[=NAME]: another library's memcpy/memmove/memset, dlopen'ed with
 * RTLD_LOCAL so it does not replace anyone's symbols; dlsym resolves its IFUNCs.
 * A library without one of the three is timed on the others. */
static int with_impls(struct fcb_state *st, int w)
{
    const char *arg = st->cfg.with[w];
    char path[256], name[sizeof st->impls[0].name];
    if (fcb_with_split(arg, path, name)) {
        fcb_err("--with '%s': bad library path\n", arg);
        return -1;
    }
    static const char *const reserved[] = {"libc", "libc2", "auto", "empty", "copy_user",
                                           "clear_user", "read", "write", "ntwrite"};
    /* ("dropin" may be taken: then that library stands for the drop-in names) */
    for (size_t r = 0; r < sizeof reserved / sizeof *reserved; r++)
        if (!strcmp(name, reserved[r]) || !name[0]) {
            fcb_err("--with '%s': name '%s' is taken; use LIB=NAME\n", arg,
                    name);
            return -1;
        }
    for (int i = 0; i < st->nimpls; i++)
        if (!strcmp(st->impls[i].name, name)) {
            fcb_err("--with '%s': name '%s' is taken; use LIB=NAME\n", arg,
                    name);
            return -1;
        }
#ifdef FCB_STATIC
    fcb_err("--with '%s': this fcbench is statically linked and loads no library\n", arg);
    return -1;
#else
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fcb_err("--with '%s': %s\n", path, dlerror());
        return -1;
    }
    static const char *const fnames[3] = {"memcpy", "memmove", "memset"};
    static const int kinds[3] = {FCB_K_COPY, FCB_K_COPY, FCB_K_SET};
    char *how = st->with_how[w];
    size_t hl = sizeof st->with_how[w];
    int found = 0;
    void *fns[FCB_NFUNCS] = {0};
    /* libfastcopy itself (its drop-in names, as a preloading program calls them):
     * timed beside the others, never counted as a peer. */
    int ours = 0;
    {
        void *v = dlsym(h, "fc_variants");
        Dl_info di;
        struct link_map *lm = NULL;
        ours = v && dladdr(v, &di) && dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm &&
               di.dli_fname && !strcmp(di.dli_fname, lm->l_name);
    }
    snprintf(how, hl, "%s = %s%s (", name, path, ours ? " [libfastcopy: not a peer]" : "");
    for (int f = 0; f < FCB_NFUNCS; f++) {
        void *p = dlsym(h, fnames[f]);
        /* dlsym also searches LIB's dependencies: a library that does not
         * define the function would hand back libc's.  Keep only LIB's own. */
        Dl_info di;
        struct link_map *lm = NULL;
        if (p && dladdr(p, &di) && dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm &&
            (!di.dli_fname || strcmp(di.dli_fname, lm->l_name)))
            p = NULL;
        if (!p)
            continue;
        fns[f] = p;
        size_t used = strlen(how);
        snprintf(how + used, hl - used, "%s%s", found ? " " : "", fnames[f]);
        found++;
    }
    size_t used = strlen(how);
    snprintf(how + used, hl - used, "%s)", found ? "" : "none of memcpy memmove memset");
    if (!found) {
        fcb_err("--with '%s': defines none of memcpy, memmove, memset\n",
                path);
        return -1;
    }
    if (with_probe(path, fns))
        return -1;
    for (int f = 0; f < FCB_NFUNCS; f++)
        if (fns[f])
            add_impl(st, name, f, kinds[f], FCB_I_WITH | (ours ? FCB_I_OURS : 0),
                     (void (*)(void))fns[f]);
    return 0;
#endif
}

#ifndef FCB_STATIC
/* "dropin": libfastcopy's shared object, dlopen'ed, timed through its exported
 * memcpy/memmove/memset: what a preloading or linking program calls.  The
 * statically linked "auto" (fc_memcpy ...) is the same kernel, but a call from
 * this program into a shared object travels farther: on this project's Intel VM
 * (Emerald Rapids) a call from the executable into a library cost 0.7-1.2 ns more
 * than one within either (40-byte copies: 3.1 vs 1.9-2.4 ns), and every peer (the
 * C library, --with libraries) is called that way.  So "dropin" is the column to
 * compare with them.  Tried: the build tree's library (FCB_DROPIN_PATH), then
 * libfastcopy.so.0 on the library path. */
static void dropin_impls(struct fcb_state *st)
{
    static const int kinds[3] = {FCB_K_COPY, FCB_K_COPY, FCB_K_SET};
    static const char *const fnames[3] = {"memcpy", "memmove", "memset"};
    const char *paths[] = {
#ifdef FCB_DROPIN_PATH
        FCB_DROPIN_PATH,
#endif
        "libfastcopy.so.0"};
    if (!fcb_in_list(st->cfg.impls, "dropin", 0))
        return;
    for (int i = 0; i < st->nimpls; i++)
        if (!strcmp(st->impls[i].name, "dropin"))
            return; /* a --with library took the name */
    for (size_t k = 0; k < sizeof paths / sizeof *paths; k++) {
        void *h = dlopen(paths[k], RTLD_NOW | RTLD_LOCAL);
        if (!h)
            continue;
        void *p[3];
        int ok = dlsym(h, "fc_variants") != NULL;
        for (int f = 0; f < FCB_NFUNCS && ok; f++)
            ok = (p[f] = dlsym(h, fnames[f])) != NULL;
        if (!ok) {
            dlclose(h);
            continue;
        }
        for (int f = 0; f < FCB_NFUNCS; f++)
            add_impl(st, "dropin", f, kinds[f], FCB_I_WITH | FCB_I_OURS, (void (*)(void))p[f]);
        snprintf(st->dropin_how, sizeof st->dropin_how, "%s", paths[k]);
        return;
    }
}
#endif

int fcb_build_impls(struct fcb_state *st)
{
    const struct fc_variant *v;
    size_t nv = fc_variants(&v);
    st->impls = calloc(nv + 32 + 3 * FCB_MAX_WITH, sizeof *st->impls);
    void (*lfn[3])(void);
    libc_fns(st, lfn);
    static const int kinds[3] = {FCB_K_COPY, FCB_K_COPY, FCB_K_SET};
    for (int f = 0; f < FCB_NFUNCS; f++)
        add_impl(st, "libc", f, kinds[f], FCB_I_LIBC, lfn[f]);
    if (st->cfg.libc_twice)
        for (int f = 0; f < FCB_NFUNCS; f++)
            add_impl(st, "libc2", f, kinds[f], 0, lfn[f]);
    for (int w = 0; w < st->cfg.nwith; w++)
        if (with_impls(st, w))
            return -1;
#ifndef FCB_STATIC
    dropin_impls(st);
#endif
    add_impl(st, "auto", FCB_MEMCPY, FCB_K_COPY, FCB_I_AUTO, (void (*)(void))fc_memcpy);
    add_impl(st, "auto", FCB_MEMMOVE, FCB_K_COPY, FCB_I_AUTO, (void (*)(void))fc_memmove);
    add_impl(st, "auto", FCB_MEMSET, FCB_K_SET, FCB_I_AUTO, (void (*)(void))fc_memset);
    for (size_t i = 0; i < nv; i++) {
        if (!v[i].usable)
            continue;
        for (int f = 0; f < FCB_NFUNCS; f++)
            if (!strcmp(v[i].func, fcb_func_name(f)))
                add_impl(st, v[i].name, f, kinds[f], FCB_I_VARIANT, v[i].fn);
    }
    add_impl(st, "copy_user", FCB_MEMCPY, FCB_K_COPY_USER, FCB_I_USER,
             (void (*)(void))fc_copy_user);
    add_impl(st, "clear_user", FCB_MEMSET, FCB_K_CLEAR_USER, FCB_I_USER,
             (void (*)(void))fc_clear_user);
    add_impl(st, "empty", FCB_MEMCPY, FCB_K_COPY, FCB_I_EMPTY, (void (*)(void))fcb_empty_copy);
    add_impl(st, "empty", FCB_MEMMOVE, FCB_K_COPY, FCB_I_EMPTY, (void (*)(void))fcb_empty_copy);
    add_impl(st, "empty", FCB_MEMSET, FCB_K_SET, FCB_I_EMPTY, (void (*)(void))fcb_empty_set);
    for (int f = 0; f < FCB_NFUNCS; f++) {
        int set = f == FCB_MEMSET;
        add_impl(st, "read", f, kinds[f], FCB_I_LIMIT,
                 set ? (void (*)(void))fcb_limit_read_set : (void (*)(void))fcb_limit_read_copy);
        add_impl(st, "write", f, kinds[f], FCB_I_LIMIT,
                 set ? (void (*)(void))fcb_limit_write_set
                     : (void (*)(void))fcb_limit_write_copy);
        add_impl(st, "ntwrite", f, kinds[f], FCB_I_LIMIT,
                 set ? (void (*)(void))fcb_limit_ntwrite_set
                     : (void (*)(void))fcb_limit_ntwrite_copy);
    }
    return 0;
}
