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
#    test/meson.build), and suite insn-count: `insn-count --check`, the
#    instruction-count sweep on rv64 and rv64+V (VLEN 128, 256) against glibc 2.36,
#    failing on any cell where the selected variant or the exported names execute
#    more instructions (~30 s), and `insn-count --cycles sifive-u74 --check`,
#    llvm-mca's cycle estimates of the same calls on the U74 model (llvm-19, installed
#    by cross/setup-riscv64.sh; FC_REQUIRE_LLVM_MCA=1 makes its absence a failure);
# 4. the whole suite once more under each model (meson test --setup, every setup
#    test/meson.build lists in test/qemu-setups: QEMU_CPU set, quick sweeps, the
#    expected selection asserted by every variant-suite run), the benchmark smoke
#    runs excepted.  About 1.5 minutes on the 2-core reference VM.
set -eu
cd "$(dirname "$0")/.."
builddir=${1:-build-riscv64}

# Note on the usercopy suite under the V models: QEMU 7.2 user mode saves no
# vector state in a riscv64 signal frame (its linux-user/riscv/signal.c holds only
# pc, x1-x31, f0-f31 and fcsr; Linux >= 6.5 adds the V context), so a signal
# handler running RVV code clobbers the vector registers, vl and vtype of the RVV
# copy it interrupted.  test_usercopy's nested-handler test therefore saves and
# restores that state in its own handler (redundant on a real kernel), and the
# suite runs under every model.

sh cross/setup-riscv64.sh "$builddir" >/dev/null
export FC_REQUIRE_LLVM_MCA=1
ninja -C "$builddir"
meson test -C "$builddir" --print-errorlogs
# The whole suite again under each model (test setups from test/meson.build, whose
# model list writes their names to test/qemu-setups: QEMU_CPU, quick sweeps, the
# expected selection asserted), except the benchmark smoke runs (suite bench, run
# above; timing vector code under QEMU says nothing).
for setup in $(cat "$builddir/test/qemu-setups"); do
  echo "test-riscv64: whole suite with QEMU_CPU of setup $setup"
  meson test -C "$builddir" --print-errorlogs --setup "$setup" --no-suite bench \
    --no-suite insn-count
done
