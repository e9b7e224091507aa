#!/bin/sh
# cross/setup-riscv64.sh - prepare and configure the riscv64 cross build.
#
#   cross/setup-riscv64.sh [builddir]     (default: build-riscv64)
#
# 1. installs the cross compiler, qemu-user and llvm-19 (llvm-mca, for insn-count
#    --cycles) (Debian 12 packages) when missing;
# 2. fetches cmocka's source from Debian's source package (Debian 12 has no
#    riscv64 cmocka binary package) into subprojects/, adding a deb-src line for
#    the configured Debian mirror when apt has none, and lays our meson.build
#    overlay (subprojects/packagefiles/cmocka/) over it; nothing third-party is
#    committed (.gitignore ignores /subprojects/*/);
# 3. runs meson setup with cross/riscv64-linux-gnu.ini and -Dwerror=true -Dtests=enabled.
# Idempotent: a second run only reconfigures.
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
builddir=${1:-build-riscv64}
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo

need=
command -v riscv64-linux-gnu-gcc >/dev/null || need="$need gcc-riscv64-linux-gnu libc6-dev-riscv64-cross"
command -v qemu-riscv64 >/dev/null || need="$need qemu-user"
command -v meson >/dev/null || need="$need meson"
command -v ninja >/dev/null || need="$need ninja-build"
command -v dpkg-source >/dev/null || need="$need dpkg-dev"
[ -x /usr/lib/llvm-19/bin/llvm-mca ] || need="$need llvm-19"

have_src() {
    apt-cache showsrc cmocka 2>/dev/null | grep -q '^Package: cmocka'
}

if [ -n "$need" ] || ! have_src; then
    if ! grep -rqs '^\(Types:.*deb-src\|deb-src\)' /etc/apt/sources.list /etc/apt/sources.list.d/; then
        # Mirror the first "deb" entry's mirror and suites as deb-src.
        $SUDO sh -c 'cat > /etc/apt/sources.list.d/fastcopy-deb-src.sources' <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    fi
    $SUDO apt-get update -qq
fi
if [ -n "$need" ]; then
    # shellcheck disable=SC2086
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need
fi

# cmocka from Debian's source package, once, into subprojects/cmocka (the
# directory subprojects/cmocka.wrap names), with our meson.build laid over it.
if [ ! -f subprojects/cmocka/src/cmocka.c ]; then
    tmp=$(mktemp -d)
    chmod 755 "$tmp"   # apt downloads as _apt
    [ "$(id -u)" != 0 ] || chown _apt "$tmp" 2>/dev/null || true
    (cd "$tmp" && apt-get source -qq cmocka >/dev/null)
    rm -rf subprojects/cmocka
    mv "$(ls -d "$tmp"/cmocka-*/ | head -n 1)" subprojects/cmocka
    rm -rf "$tmp"
fi
cp subprojects/packagefiles/cmocka/meson.build subprojects/cmocka/meson.build

# -Dwerror=true -Dtests=enabled: this is the project's own test build (the default has no werror).
if [ -d "$builddir" ]; then
    meson setup --reconfigure "$builddir" --cross-file cross/riscv64-linux-gnu.ini -Dwerror=true -Dtests=enabled
else
    meson setup "$builddir" --cross-file cross/riscv64-linux-gnu.ini -Dwerror=true -Dtests=enabled
fi
echo "configured $top/$builddir"
