#!/bin/sh
# cross/test-aarch64-musl.sh - build for aarch64 against musl and run the test
# suite under QEMU: the binding without IFUNC (racing first calls, a signal
# handler, the memset kernels with the DC ZVA tunables a racing caller may read),
# the variant suite over fc_variants(), fc_copy_user/fc_clear_user, the drop-in
# names, small musl programs with the library preloaded and the static link.
#
#   cross/test-aarch64-musl.sh [builddir]      (default: build-aarch64-musl)
#
# 1. installs, when missing, the Debian 12 packages: the cross compiler,
#    qemu-user and musl for arm64 from Debian multiarch (musl-dev:arm64 has the
#    headers, start files, libc.a and the specs file the cross file uses;
#    musl:arm64 the loader, /lib/ld-musl-aarch64.so.1);
# 2. meson setup --cross-file cross/aarch64-linux-musl.ini -Dwerror=true -Dtests=enabled, ninja;
# 3. meson test under three QEMU CPU models (the setups of test/meson.build's model
#    list: QEMU_CPU, the kernel release, FC_TEST_QUICK=1, the variants the model
#    must get, asserted by the variant suite and by test_bind): max (sve at 512
#    bits, 512-byte DC ZVA blocks), Cortex-A53 (simd, 64-byte blocks) and A64FX
#    (sve, 256-byte blocks).  Under max every test but the per-model matrix
#    (suite qemu-aarch64: the variant suite once per model, ten of them, the
#    same kernels cross/test-aarch64.sh runs there; the musl-specific part of
#    it, the probe's inputs read from /proc/self/auxv, is what the setups check
#    here) and the benchmark's smoke runs (suite bench: they time musl's
#    functions, which checks nothing of ours that the glibc cross build does not
#    check; the tuning-file test still runs fcbench --tune --quick); under the
#    other two the suites that depend on the model: variants, aarch64 (DC ZVA),
#    dropin (the binding, test_bind, the static link), preload, usercopy.
# About two and a half minutes on 2 cores (README: docs/musl.md).  Idempotent.
set -eu
cd "$(dirname "$0")/.."
builddir=${1:-build-aarch64-musl}
. cross/install-arm64.sh
install_arm64 test-aarch64-musl gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu qemu-user pkg-config meson \
  ninja-build musl-dev:arm64 musl:arm64

if [ ! -f "$builddir/build.ninja" ]; then
  meson setup --cross-file cross/aarch64-linux-musl.ini -Dwerror=true -Dtests=enabled "$builddir"
else
  meson setup --reconfigure "$builddir" -Dwerror=true -Dtests=enabled
fi
ninja -C "$builddir"
echo "test-aarch64-musl: the suite with setup a64max"
meson test -C "$builddir" --print-errorlogs --setup a64max --no-suite qemu-aarch64 \
  --no-suite bench
for setup in a64cortexa53 a64a64fx; do
  echo "test-aarch64-musl: the model-dependent suites with setup $setup"
  meson test -C "$builddir" --print-errorlogs --setup "$setup" --suite variants \
    --suite aarch64 --suite dropin --suite preload --suite usercopy
done
