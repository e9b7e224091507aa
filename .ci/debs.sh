#!/bin/sh
# .ci/debs.sh - the Debian packages, end to end, as root on Debian 12: builds them
# from a copy of this tree (dpkg-buildpackage -us -uc -b, DEB_BUILD_OPTIONS=nocheck:
# CI ran the suite already), reviews them with lintian (no error or warning that
# debian/*.lintian-overrides does not list with its reason), installs them, runs
# test/deb-installed.sh against the installed files (preload by name, link, a
# static link, fastcopy-info, --pid, FASTCOPY_DISABLE, fcbench, the man pages),
# removes them and checks nothing is left.  Needs DEB_PKGS (.ci/packages).
# Prints the time each step took.
set -eu
cd "$(dirname "$0")/.."
src=$PWD
T=$(mktemp -d /tmp/fc-debs.XXXXXX)
trap 'rm -rf "$T"' EXIT
step() { now=$(date +%s); echo "debs: $1 ($((now - t0)) s so far)"; }
t0=$(date +%s)

# The tree as git has it (tracked and untracked-but-not-ignored files: no build
# directories), under the name dpkg-source expects.
ver=$(sed -n '1s/^libfastcopy (\([^)]*\)).*/\1/p' debian/changelog)
mkdir -p "$T/libfastcopy-$ver"
git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$T/libfastcopy-$ver"
step "copied the tree"
(cd "$T/libfastcopy-$ver" && DEB_BUILD_OPTIONS="nocheck parallel=2" dpkg-buildpackage -us -uc -b) \
  > "$T/build.log" 2>&1 || { tail -n 40 "$T/build.log"; exit 1; }
ls "$T"/*.deb
step "built the packages"

# lintian: every tag it reports at warning level or above is fixed or overridden
# (debian/<package>.lintian-overrides, each with its reason); pedantic and info
# tags are printed for the record.
lintian --fail-on error,warning --display-info --pedantic --tag-display-limit 0 "$T"/*.changes > "$T/lintian.log" 2>&1 \
  && lint=0 || lint=$?
cat "$T/lintian.log"
[ "$lint" -eq 0 ] || { echo "debs: lintian found errors or warnings (above)"; exit 1; }
step "lintian: no error, no warning"

export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq --no-install-recommends "$T"/libfastcopy0_*.deb "$T"/libfastcopy-dev_*.deb \
  "$T"/fastcopy-tools_*.deb > "$T/install.log" 2>&1 || { cat "$T/install.log"; exit 1; }
step "installed"
sh "$src/test/deb-installed.sh" || { apt-get purge -y -qq libfastcopy0 libfastcopy-dev fastcopy-tools; exit 1; }
step "checked the installed files"

apt-get purge -y -qq libfastcopy0 libfastcopy-dev fastcopy-tools > "$T/purge.log" 2>&1 \
  || { cat "$T/purge.log"; exit 1; }
left=$(ldconfig -p | grep -c fastcopy || true)
files=$(find /usr/lib /usr/bin /usr/include /usr/share/man -name '*fastcopy*' 2>/dev/null | grep -v '^/usr/local' || true)
if [ "$left" -ne 0 ] || [ -n "$files" ]; then
  echo "debs: left after purge: $left ld.so.cache entries; $files"
  exit 1
fi
step "removed: no file and no ld.so.cache entry left"
