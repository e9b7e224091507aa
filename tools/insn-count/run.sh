#!/bin/bash
# run.sh ARCH BUILD_DIR [--models "m1 m2 ..."] [--draws N] [--dists DIR] [--out DIR]
#        [--func F]... [--per-size] [--random-sizes] [--no-ninja] [--summary-only]
#
# Instruction counts per call under qemu-user (tools/insn-count/README.md):
#   1. builds the TCG plugin insn_count.so with the host compiler (if out of date),
#   2. brings BUILD_DIR/src/libfc_core.a up to date (ninja; --no-ninja skips that,
#      e.g. while someone else is building in BUILD_DIR) and cross-compiles count
#      against it,
#   3. runs count under qemu-ARCH -plugin for each QEMU CPU model,
#   4. prints Markdown tables (tools/insn-count/table.py).
# --per-size measures every size of the size classes (0..32, memset 1..64) apart.
# ARCH is aarch64 or riscv64; BUILD_DIR a meson build dir configured with the
# project's cross file for ARCH.  Raw outputs go to BUILD_DIR/insn-count/.
set -euo pipefail

usage() { sed -n '2,14p' "$0" >&2; exit 2; }
[ $# -ge 2 ] || usage
arch=$1; bdir=$2; shift 2

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
models=""; draws=20000; dists=""; out=""; funcs=(); ninja=1; tabopt=()
while [ $# -gt 0 ]; do
    case $1 in
    --models) models=$2; shift 2 ;;
    --draws) draws=$2; shift 2 ;;
    --dists) dists=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --func) funcs+=(--func "$2"); shift 2 ;;
    --no-ninja) ninja=0; shift ;;
    --per-size) funcs+=(--per-size); shift ;;
    --random-sizes) funcs+=(--random-sizes); shift ;;
    --summary-only) tabopt=(--summary-only); shift ;;
    *) usage ;;
    esac
done

case $arch in
aarch64)
    sysroot=/usr/aarch64-linux-gnu
    : "${models:=cortex-a53 cortex-a72 neoverse-n1 a64fx max}" ;;
riscv64)
    sysroot=/usr/riscv64-linux-gnu
    : "${models:=rv64 rv64,v=true,vext_spec=v1.0,vlen=128}" ;;
*) echo "run.sh: ARCH must be aarch64 or riscv64" >&2; exit 2 ;;
esac
cc=${CROSS_CC:-$arch-linux-gnu-gcc}
qemu=${QEMU:-qemu-$arch}

: "${dists:=$top/bench/distributions}"
[ -f "$dists/MemcpyGoogleA.csv" ] || { echo "run.sh: no size distributions in $dists (--dists DIR)" >&2; exit 1; }

[ -f "$bdir/build.ninja" ] || { echo "run.sh: $bdir is not a meson build dir" >&2; exit 1; }
bdir=$(cd "$bdir" && pwd)
: "${out:=$bdir/insn-count}"
mkdir -p "$out"

# 1. the plugin (host)
plugin=$out/insn_count.so
if [ ! -f "$plugin" ] || [ "$here/insn_count.c" -nt "$plugin" ]; then
    ${HOST_CC:-cc} -O2 -shared -fPIC -Wall -Wextra -Werror -o "$plugin" "$here/insn_count.c"
fi

# 2. the guest program, against the build dir's fc_core
[ $ninja = 0 ] || ninja -C "$bdir" src/libfc_core.a >/dev/null
"$cc" -O2 -Wall -Wextra -Werror -I"$bdir/include" -I"$top/include" -o "$out/count" \
    "$here/count.c" "$here/stubs.S" "$bdir/src/libfc_core.a"

# 3. one run per model.  The loader and libc must be the cross toolchain's matched
# pair (cross/aarch64-linux-gnu.ini: mixing in the multiarch libc.so.6 hangs
# fork/threads).
args=(); failed=0
for model in $models; do
    tag=$(printf '%s' "$model" | tr ',=' '__')
    rm -f "$out/counts-$tag.txt"
    if QEMU_CPU=$model "$qemu" -L "$sysroot" -E LD_LIBRARY_PATH="$sysroot/lib" \
        -plugin "$plugin,out=$out/counts-$tag.txt" \
        "$out/count" --dists "$dists" --draws "$draws" "${funcs[@]}" > "$out/map-$tag.txt"
    then
        args+=("$model" "$out/map-$tag.txt" "$out/counts-$tag.txt")
    else
        echo "run.sh: count failed under QEMU_CPU=$model (exit $?); model left out" >&2
        failed=1
    fi
done
[ ${#args[@]} -gt 0 ] || exit 1

# 4. the tables
python3 "$here/table.py" "${tabopt[@]}" "${args[@]}"
exit $failed
