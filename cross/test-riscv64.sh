#!/bin/sh
# cross/test-riscv64.sh - build for riscv64 and run the test suite under QEMU,
# including the CPU-model matrix (suite qemu-riscv64: -cpu rv64, and
# rv64,v=true,vext_spec=v1.0 with VLEN 128, 256 and 1024, each run asserting the
# variants selected and the VLEN the probe read).
#
#   cross/test-riscv64.sh [builddir]      (default: build-riscv64)
#
# 1. cross/setup-riscv64.sh: installs the cross compiler and qemu-user when missing,
#    fetches cmocka's source with `apt-get source cmocka` (Debian 12 has no riscv64
#    cmocka package) into subprojects/cmocka, meson setup with
#    cross/riscv64-linux-gnu.ini;
# 2. ninja;
# 3. meson test under qemu-riscv64, every suite except those listed in SKIP below
#    (tests that cannot work under qemu-user yet; each with its reason, printed).
#    The default-model variant suite runs its full sweeps, the model matrix quick
#    ones (FC_TEST_QUICK=1 in test/meson.build);
# 4. the whole suite once more under each model (meson test --setup rv64,
#    rv64v128, rv64v256, rv64v1024: QEMU_CPU set, quick sweeps, the expected
#    selection asserted by every variant-suite run), the benchmark smoke runs
#    excepted.  About 1.5 minutes on the 2-core reference VM.
set -eu
cd "$(dirname "$0")/.."
builddir=${1:-build-riscv64}

# suite:reason
SKIP="usercopy:test_nested_in_signal_handler hangs under qemu-riscv64 7.2"

sh cross/setup-riscv64.sh "$builddir" >/dev/null
ninja -C "$builddir"
args=""
echo "$SKIP" | while IFS=: read -r suite why; do
  echo "test-riscv64: skipping suite $suite: $why"
done
for suite in $(echo "$SKIP" | cut -d: -f1); do
  args="$args --no-suite $suite"
done
# shellcheck disable=SC2086
meson test -C "$builddir" --print-errorlogs $args
# The whole suite again under each model (test setups from test/meson.build:
# QEMU_CPU, quick sweeps, the expected selection asserted), except the benchmark
# smoke runs (suite bench, run above; timing vector code under QEMU says nothing).
for setup in rv64 rv64v128 rv64v256 rv64v1024; do
  echo "test-riscv64: whole suite with QEMU_CPU of setup $setup"
  # shellcheck disable=SC2086
  meson test -C "$builddir" --print-errorlogs --setup "$setup" --no-suite bench $args
done
