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
# 3. meson test under qemu-riscv64, every suite.  The default-model variant suite
#    runs its full sweeps, the model matrix quick ones (FC_TEST_QUICK=1 in
#    test/meson.build);
# 4. the whole suite once more under each model (meson test --setup rv64,
#    rv64v128, rv64v256, rv64v1024: QEMU_CPU set, quick sweeps, the expected
#    selection asserted by every variant-suite run), the benchmark smoke runs
#    excepted, and usercopy under the V models (see VSKIP).  About 1 minute on
#    the 2-core reference VM.
set -eu
cd "$(dirname "$0")/.."
builddir=${1:-build-riscv64}

# The usercopy suite runs under the scalar models only.  Under the V models its
# test_nested_in_signal_handler fails (child exit 185: copied bytes wrong), and
# the cause is QEMU 7.2: qemu-riscv64's signal frame (linux-user/riscv/signal.c,
# setup_sigcontext/restore_sigcontext) holds pc, x1-x31, f0-f31 and fcsr but no
# vector state, so a handler that runs RVV (there: checked copies with the rvv
# kernels) returns into the interrupted vle8.v/vse8.v loop with v0-v31, vl and
# vtype changed.  Linux >= 6.5 saves them in the frame.  A standalone program (no
# libfastcopy) saw vl, vtype and v8-v15 changed after 69 of its 74 timer ticks
# when its handler ran vector instructions, none when it did not; the test passes
# under V when its timer handler saves and restores that state itself.  (The
# thread/unmap test's exit 136 was the test's own too-strict boundary check.)
VSKIP="--no-suite usercopy"

sh cross/setup-riscv64.sh "$builddir" >/dev/null
ninja -C "$builddir"
meson test -C "$builddir" --print-errorlogs
# The whole suite again under each model (test setups from test/meson.build:
# QEMU_CPU, quick sweeps, the expected selection asserted), except the benchmark
# smoke runs (suite bench, run above; timing vector code under QEMU says nothing).
for setup in rv64 rv64v128 rv64v256 rv64v1024; do
  skip=""
  case "$setup" in rv64v*)
    skip=$VSKIP
    echo "test-riscv64: $setup: leaving out suite usercopy (QEMU 7.2 with V, see above)";;
  esac
  echo "test-riscv64: whole suite with QEMU_CPU of setup $setup"
  # shellcheck disable=SC2086
  meson test -C "$builddir" --print-errorlogs --setup "$setup" --no-suite bench $skip
done
