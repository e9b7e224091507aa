#!/bin/sh
# preload_znow.sh QEMU SYSROOT LIB PROG - under qemu-user, runs PROG (whose library
# was linked with -z now and calls memcpy/memmove/memset) with LIB preloaded:
# nothing may appear on stderr (glibc's x86 loader prints "Relink ... for IFUNC
# symbol" there for IFUNC exports; the exported names are IFUNCs on aarch64 and
# riscv64), the copies must be right, and LD_DEBUG=bindings must show the
# library's memcpy, memmove and memset bound to LIB.  Prints "N passed, N failed".
set -u
QEMU=$1 SYSROOT=$2 LIB=$(readlink -f "$3") PROG=$4
. "$(dirname "$0")/checks.sh"
run() {
  "$QEMU" -L "$SYSROOT" -E LD_LIBRARY_PATH="$SYSROOT/lib" -E LD_PRELOAD="$LIB" "$@" "$PROG"
}

# The case glibc's x86 loader complains about: the names are IFUNC symbols.
for s in memcpy memmove memset; do
  if readelf -W --dyn-syms "$LIB" | grep -Eq " IFUNC +GLOBAL .* $s(@|$)"; then
    ok "$s is an IFUNC symbol"
  else bad "$s is not an IFUNC symbol of $LIB"; fi
done

run > "$W/out" 2> "$W/err"
if [ "$(cat "$W/out")" = copied ]; then ok "copies through the preloaded names"
else bad "program output: $(cat "$W/out")"; fi
if [ ! -s "$W/err" ]; then ok "nothing on stderr"
else bad "stderr: $(cat "$W/err")"; fi

run -E LD_DEBUG=bindings > /dev/null 2> "$W/bind"
for s in memcpy memmove memset; do
  if grep -q "libznow_lib.so.* to $LIB .*symbol \`$s'" "$W/bind"; then
    ok "libznow_lib's $s bound to the library"
  else bad "libznow_lib's $s: no binding to $LIB"; fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
