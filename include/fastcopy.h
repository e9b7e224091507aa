/* fastcopy.h - public API of libfastcopy.
 *
 * libfastcopy is a drop-in replacement for the C library's memcpy, memmove and
 * memset (plus mempcpy, bzero, bcopy, explicit_bzero and their _FORTIFY_SOURCE
 * "_chk" forms).  Every function is bound once, at load time, by a GNU IFUNC to the
 * variant that suits the CPU.  The names below are the library's own API and are
 * stable.
 */
#ifndef FASTCOPY_H
#define FASTCOPY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#define FC_RESTRICT
#else
#define FC_RESTRICT restrict
#endif

/* Same contracts as memcpy/memmove/memset, plus: fc_memcpy on overlapping buffers
 * gives exactly fc_memmove's result; no byte outside [dst,dst+n) is written and no
 * byte outside [src,src+n) is read; n == 0 dereferences nothing. */
void *fc_memcpy(void *FC_RESTRICT dst, const void *FC_RESTRICT src, size_t n);
void *fc_memmove(void *dst, const void *src, size_t n);
void *fc_memset(void *dst, int c, size_t n);

/* One compiled-in implementation of one function. */
struct fc_variant {
    const char *func;   /* "memcpy", "memmove" or "memset" */
    const char *name;   /* short, stable: "generic", "sse2", "avx2", "avx512", "erms", ... */
    void (*fn)(void);   /* cast to the function's own type before calling */
    int usable;         /* nonzero when this CPU can run it */
};

/* Every compiled-in variant of every function; *list points to a static array. */
size_t fc_variants(const struct fc_variant **list);

/* Name of the variant bound at load time for "memcpy", "memmove" or "memset"
 * (NULL for any other name).  Environment overrides are taken into account. */
const char *fc_selected(const char *func);

/* ---- Checked copies: the kernel's user-copy contract, in user space ----------------
 *
 * size_t fc_copy_user(void *dst, const void *src, size_t n);
 * size_t fc_clear_user(void *dst, size_t n);
 *
 * Copy (zero) n bytes in ascending address order and return r, 0 <= r <= n, the
 * number of bytes NOT copied (zeroed).  With k = n - r: dst[0,k) equals src[0,k)
 * (is zero).  Exact: for page-granular faults (unmapped, PROT_NONE, read-only
 * destination, SIGBUS past the end of a truncated MAP_SHARED file) k is exactly
 * the length of the longest prefix whose source bytes are readable and whose
 * destination bytes are writable: the copy stops at the first bad page of either
 * buffer, whatever the page size.  r == n only when not even the first byte could
 * be copied.  n == 0 returns 0 and touches nothing (NULL allowed); a NULL pointer
 * with n > 0, or a range that wraps around the address space, returns n.
 *
 * Nothing outside [dst,dst+n) is written (src is not, where it lies outside it).
 * After a fault, each byte of [dst+k,dst+n) either keeps its old value or holds the
 * corresponding source byte (zero for fc_clear_user): the fast copy may have stored
 * parts of the range past the bad page before it faulted.  There is no zero-fill
 * of the rest.
 * Overlapping buffers (dst == src included): the pages of both ranges are touched
 * first (one byte per page, ascending; the destination's written back unchanged),
 * then only [0,k) is moved: without a fault the result is fc_memmove's; after one
 * dst[0,k) holds the original src[0,k) and [dst+k,dst+n) is unchanged (if the move
 * itself faults, the mappings having changed meanwhile, r is still a page boundary
 * where it faulted but the bytes of dst are unspecified).  dst == src moves
 * nothing and counts up to the first page not both readable and writable.  A page
 * that both ranges reach counts as for two mappings: a read-only page is readable
 * for the source and not writable for the destination.
 *
 * Faults are caught only when they hit the current checked copy's pages (or carry
 * no usable address, as x86-64's #GP on a non-canonical address does), on the
 * calling thread, and come from the kernel: raise()/kill()/sigqueue() of SIGSEGV or
 * SIGBUS are never swallowed.  Every other SIGSEGV/SIGBUS goes to the disposition
 * that was installed before ours: a handler is called with the same siginfo and
 * context (its sa_mask, SA_NODEFER and SA_RESETHAND are honoured); with SIG_DFL
 * the default disposition is restored and the faulting instruction runs again,
 * so the process dies of that same signal with a core, at the same address, as
 * it would without the library; with SIG_IGN a sent signal is ignored and a fault
 * kills the process (the kernel never ignores a fault).
 *
 * Thread-safe and async-signal-safe: callable from several threads at once and
 * from signal handlers, also while the interrupted code is inside a checked copy.
 * The handler allocates nothing.  After a caught fault the signal mask is the one
 * the caller had (SIGSEGV and SIGBUS are not left blocked).  The handler runs on
 * the alternate signal stack when one is set (SA_ONSTACK).
 *
 * Handler installation: our SIGSEGV and SIGBUS handlers are installed by the first
 * fc_copy_user/fc_clear_user call, or earlier by fc_user_arm().  A handler the
 * program installs after that replaces ours: faults in checked copies then go to
 * that handler; if it chains to the handler it replaced (calls ours with its
 * siginfo and context, as signal-chaining runtimes and crash handlers do), checked
 * copies keep working; if not, they are not caught and the program's handler decides (with
 * SIG_DFL the process dies).  Call fc_user_arm() after installing your own
 * handlers to re-arm: ours is installed again and chains to yours.  A handler of
 * yours that calls ours back for a foreign fault does not loop: the second time
 * round we pass the fault to the disposition found at our first installation.
 *
 * A calling thread that has SIGSEGV (or SIGBUS) blocked cannot be rescued: the
 * kernel delivers a fault on a blocked signal with the default action, so a fault
 * in a checked copy kills the process with that signal (a copy that does not fault
 * works normally).  Unblock them around the call (pthread_sigmask), e.g. inside a
 * SIGSEGV handler not installed with SA_NODEFER.
 */
size_t fc_copy_user(void *dst, const void *src, size_t n);
size_t fc_clear_user(void *dst, size_t n);

/* Installs (again) the SIGSEGV/SIGBUS handlers of the checked copies, chaining to
 * the dispositions installed now.  Idempotent; async-signal-safe except that it
 * must not interrupt itself (then it fails with EDEADLK).  0 on success, -1 with
 * errno set when sigaction fails. */
int fc_user_arm(void);

#ifdef __cplusplus
}
#endif
#undef FC_RESTRICT
#endif
