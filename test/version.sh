#!/bin/sh
# The version everywhere a user or packager looks for it: the shared object's
# string (what `strings` finds), the installed header, and `--version` of every
# tool (one line naming the version, exit 0).
#   version.sh VERSION LIBFASTCOPY.so HEADER TOOL...
set -u
version=$1 so=$2 header=$3
shift 3
fail=0 n=0
ok() { n=$((n + 1)); }
bad() { n=$((n + 1)); fail=$((fail + 1)); echo "FAIL: $*"; }

if LC_ALL=C grep -a -q "libfastcopy $version" "$so"; then ok; else bad "no 'libfastcopy $version' string in $so"; fi
if grep -q "^#define FASTCOPY_VERSION_STRING \"$version\"$" "$header"; then ok; else bad "$header does not define FASTCOPY_VERSION_STRING \"$version\""; fi
for tool in "$@"; do
    out=$(${MESON_EXE_WRAPPER:-} "$tool" --version 2>&1)
    rc=$?
    lines=$(printf '%s\n' "$out" | wc -l)
    name=$(basename "$tool")
    case "$out" in
        "$name (libfastcopy) $version") [ "$rc" -eq 0 ] && [ "$lines" -eq 1 ] && ok || bad "$name --version: rc $rc, $lines lines: $out" ;;
        *) bad "$name --version printed: $out (rc $rc)" ;;
    esac
done
echo "$((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
