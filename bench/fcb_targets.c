/* fcb_targets.c - the speed targets `fcbench --targets` checks (see fcb.h).
 * Add a row per target; the case names are the ones `fcbench --list` prints. */
#include "fcb.h"

#define KiB ((size_t)1024)

const struct fcb_target fcb_targets[] = {
    /* Issue 3 (fc_copy_user / fc_clear_user): the user copy costs at most 5 ns per
     * call more than fc_memcpy up to 256 bytes, at most 3% more from 64 KiB, and a
     * caught fault costs at most 5 us. */
    {"usercopy-small", "issue 3", "memcpy/user/*", 0, 256, "copy_user", "auto",
     FCB_T_DIFF_NS, 5.0, "fc_copy_user - fc_memcpy <= 5 ns/call, sizes 0..256"},
    {"usercopy-large", "issue 3", "memcpy/user/*", 64 * KiB, 0, "copy_user", "auto",
     FCB_T_RATIO, 1.03, "fc_copy_user / fc_memcpy <= 1.03, sizes >= 64 KiB"},
    {"usercopy-fault", "issue 3", "memcpy/user/fault", 0, 0, "copy_user", "auto",
     FCB_T_ABS_NS, 5000.0, "fc_copy_user with a caught fault <= 5 us/call"},
    {"userclear-small", "issue 3", "memset/user/*", 0, 256, "clear_user", "auto",
     FCB_T_DIFF_NS, 5.0, "fc_clear_user - fc_memset <= 5 ns/call, sizes 0..256"},
    {"userclear-large", "issue 3", "memset/user/*", 64 * KiB, 0, "clear_user", "auto",
     FCB_T_RATIO, 1.03, "fc_clear_user / fc_memset <= 1.03, sizes >= 64 KiB"},
    {"userclear-fault", "issue 3", "memset/user/fault", 0, 0, "clear_user", "auto",
     FCB_T_ABS_NS, 5000.0, "fc_clear_user with a caught fault <= 5 us/call"},
    /* Issue 5 (x86_64 speed) adds its rows here, e.g.
     * {"x86-mix-memcpy", "issue 5", "memcpy/mix/MemcpyGoogle*", 0, 0, "auto", "libc",
     *  FCB_T_GEO_RATIO, 0.95, "fc_memcpy >= 5% faster than glibc on the fleet mixes"}, */
};
const size_t fcb_ntargets = sizeof fcb_targets / sizeof fcb_targets[0];
