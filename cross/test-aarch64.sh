#!/bin/sh
# cross/test-aarch64.sh - build for aarch64 and run the whole test suite under QEMU,
# including the CPU-model matrix (suite qemu-aarch64: Cortex-A53/A72, Neoverse N1,
# A64FX, max, max without SVE, max on a kernel that drops SVE state, and SVE
# vector lengths 128/256/512/2048 bits, each asserting the variant selected).
#
#   cross/test-aarch64.sh [builddir]      (default: build-aarch64)
#
# 1. installs, when missing, the Debian 12 packages: the cross compiler and libc,
#    qemu-user, and cmocka/Google Benchmark for arm64 from Debian multiarch
#    (dpkg --add-architecture arm64);
# 2. meson setup --cross-file cross/aarch64-linux-gnu.ini -Dwerror=true -Dtests=enabled (exe_wrapper =
#    qemu-aarch64 with the cross loader and its own libc: see the cross file), ninja;
# 3. meson test, every test under qemu-aarch64, with FC_TEST_QUICK=1 (the sweeps of
#    test_variants sized for emulation: vector code runs 5-20x slower there).
#    That includes suite insn-count: `insn-count --check`, the instruction-count
#    sweep (every size to 1100 and powers of two +-1 to 64 KiB, every relative
#    alignment mod 8, memset c = 0 and c != 0, memmove both ways) on Cortex-A53/A72,
#    Neoverse N1, A64FX and max, failing if the selected variant or the exported
#    names execute more instructions than glibc 2.36 in any cell (~10 s); and
#    `insn-count --cycles cortex-a53,tsv110 --check`, llvm-mca's cycle estimates of
#    the same calls on an in-order and an out-of-order core model (llvm-19,
#    installed here; FC_REQUIRE_LLVM_MCA=1 makes its absence a failure, ~20 s).
# 4. the whole suite once more under each CPU model (meson test --setup a64...).
# About four minutes of tests on 2 cores.  Idempotent.
set -eu
cd "$(dirname "$0")/.."
builddir=${1:-build-aarch64}
. cross/install-arm64.sh
install_arm64 test-aarch64 gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user pkg-config meson \
  ninja-build libcmocka-dev:arm64 libbenchmark-dev:arm64 llvm-19
export FC_REQUIRE_LLVM_MCA=1

if [ ! -f "$builddir/build.ninja" ]; then
  meson setup --cross-file cross/aarch64-linux-gnu.ini -Dwerror=true -Dtests=enabled "$builddir"
else
  meson setup --reconfigure "$builddir" -Dwerror=true -Dtests=enabled
fi
ninja -C "$builddir"
FC_TEST_QUICK=1 meson test -C "$builddir" --print-errorlogs
# The whole suite again under every CPU model of the matrix (test setups from
# test/meson.build, whose model list writes their names to test/qemu-setups:
# QEMU_CPU, the kernel release, quick sweeps, the expected variant asserted by the
# variant suite), the benchmark smoke run and the per-model matrix itself (suite
# qemu-aarch64, run above) and the instruction-count sweep (suite insn-count: it
# sets each model itself) excepted.  ~16 s each.
for setup in $(cat "$builddir/test/qemu-setups"); do
  echo "test-aarch64: whole suite with setup $setup"
  meson test -C "$builddir" --print-errorlogs --setup "$setup" --no-suite bench \
    --no-suite qemu-aarch64 --no-suite insn-count
done
