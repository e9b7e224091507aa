#!/bin/sh
# install-paths.sh BUILDDIR SRCDIR - nothing `meson install` installs refers to the
# build or the source tree: installed into a staging root, no file holds either
# directory's path (programs and libraries read without their debug sections,
# where the compiler records where it compiled them), and no installed program or
# library has an RPATH or RUNPATH (the build tree's RUNPATH is dropped on
# install: fcbench finds libfastcopy.so.0 by name, as a preloading program does).
# Prints "N passed, N failed".
set -u
build=$(cd "$1" && pwd -P) src=$(cd "$2" && pwd -P)
. "$(dirname "$0")/checks.sh"

S="$W/stage"
if ! meson install -C "$build" --no-rebuild --quiet --destdir "$S" > "$W/install.log" 2>&1; then
  bad "meson install failed: $(tail -n 5 "$W/install.log")"
  echo "$pass passed, $fail failed"; exit 1
fi
n=0
for f in $(find "$S" -type f | sort); do
  n=$((n + 1))
  rel=${f#"$S"}
  magic=$(head -c 4 "$f")
  if [ "$magic" = "$(printf '\177ELF')" ] || [ "$magic" = '!<ar' ]; then
    objcopy --strip-debug "$f" "$W/stripped" 2> /dev/null || cp "$f" "$W/stripped"
    g="$W/stripped"
    if readelf -d "$f" 2> /dev/null | grep -qE '\((RPATH|RUNPATH)\)'; then
      bad "$rel: $(readelf -d "$f" | grep -E '\((RPATH|RUNPATH)\)')"
    fi
  else
    g=$f
  fi
  for d in "$build" "$src"; do
    if grep -qF "$d" "$g"; then
      bad "$rel holds the path $d: $(grep -aoF "$d" "$g" | head -n 1)"
    fi
  done
done
[ "$n" -gt 5 ] && ok "$n installed files: no build-tree or source-tree path, no RPATH" \
  || bad "only $n files installed"

# fcbench's "dropin": libfastcopy.so.0 by name, from the library path (here the
# staging root's), not the build tree's
fcb=$(find "$S" -type f -name fcbench | head -n 1)
if [ -n "$fcb" ]; then
  lib=$(find "$S" -name libfastcopy.so.0 | awk '{ print length, $0 }' | sort -n | head -n 1 | cut -d' ' -f2-)
  LD_DEBUG=libs LD_LIBRARY_PATH=$(dirname "$lib") "$fcb" --list --impl dropin > "$W/fcb.out" 2> "$W/fcb.libs"
  # (musl's loader has no LD_DEBUG: there only that the column is there)
  if grep -q '^# dropin = libfastcopy.so.0 ' "$W/fcb.out" && { [ -n "${FC_MUSL:-}" ] || \
      { grep -q "calling init: $S/.*libfastcopy.so.0\$" "$W/fcb.libs" && ! grep -q "calling init: $build" "$W/fcb.libs"; }; }; then
    ok "installed fcbench's dropin column loads the installed libfastcopy.so.0"
  else
    bad "installed fcbench: $(grep '^# dropin' "$W/fcb.out"; grep 'calling init:.*libfastcopy' "$W/fcb.libs")"
  fi
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
