#!/bin/sh
# hwcaps-install.sh BUILDDIR PREFIX LIBDIR BINDIR CC... - a -Dhwcaps=true build,
# installed into a staging root (meson install --destdir; nothing outside it is
# touched): the copies are where glibc looks for them, the loader picks the one
# this CPU's ISA level names (LD_DEBUG=libs) when the library is found by name,
# and each other level's when ld.so is told to search only that level
# (--glibc-hwcaps-mask), for a preload by name, for a program that links
# -lfastcopy (fastcopy-info) and through LD_LIBRARY_PATH alike; a path
# bypasses glibc-hwcaps; fastcopy-info names the copy it got and, where its
# names divert, the installed copy that runs them directly; preloading by name
# binds the programs' calls to that copy and adds nothing to their stderr; and
# libfastcopy.a's names are IFUNC symbols in a static program.
# Prints "N passed, N failed".
set -u
build=$1 prefix=$2 libdir=$3 bindir=$4
shift 4
. "$(dirname "$0")/checks.sh"

S="$W/stage"
if meson install -C "$build" --no-rebuild --quiet --destdir "$S" > "$W/install.log" 2>&1; then
  ok "meson install --destdir (a staging root)"
else
  bad "meson install failed: $(tail -n 5 "$W/install.log")"
  echo "$pass passed, $fail failed"; exit 1
fi
case $libdir in /*) L="$S$libdir" ;; *) L="$S$prefix/$libdir" ;; esac
case $bindir in /*) B="$S$bindir" ;; *) B="$S$prefix/$bindir" ;; esac
info="$B/fastcopy-info"

# 1. The layout.
for f in libfastcopy.so.0 glibc-hwcaps/x86-64-v3/libfastcopy.so.0 glibc-hwcaps/x86-64-v4/libfastcopy.so.0 \
         fastcopy/avx512_1branch/libfastcopy.so.0 fastcopy/avx2_keepupper/libfastcopy.so.0 libfastcopy.a; do
  [ -f "$L/$f" ] && ok "installed: $f" || bad "not installed: $L/$f"
done
# the by-path copies under their variants' former names (libfastcopy(7), FORMER
# NAMES): a symbolic link to the directory, so a path written before still loads
for p in avx512amd:avx512_1branch avx2amd:avx2_keepupper; do
  old=${p%%:*} new=${p#*:}
  [ "$(readlink "$L/fastcopy/$old")" = "$new" ] && [ -f "$L/fastcopy/$old/libfastcopy.so.0" ] \
    && ok "fastcopy/$old -> $new (a former name)" || bad "fastcopy/$old: $(ls -l "$L/fastcopy")"
done
for f in libfastcopy.so.0 glibc-hwcaps/x86-64-v3/libfastcopy.so.0 glibc-hwcaps/x86-64-v4/libfastcopy.so.0; do
  readelf -d "$L/$f" | grep -q 'SONAME.*\[libfastcopy.so.0\]' && ok "$f: SONAME libfastcopy.so.0" \
    || bad "$f: SONAME: $(readelf -d "$L/$f" | grep SONAME)"
done

# 2. What this loader searches, in its order (ld.so --help: "x86-64-v4
# (supported, searched)"): the first level we install that it searches is the
# copy it must pick; the baseline when none is.
ldso=$(readelf -l "$info" | sed -n 's/.*program interpreter: \(.*\)]/\1/p')
"$ldso" --help > "$W/ldso-help" 2>&1
levels=$(sed -n 's/^ *\(x86-64-v[0-9]\) (supported, searched)$/\1/p' "$W/ldso-help")
want=baseline
for l in $levels; do
  case $l in x86-64-v3|x86-64-v4) want=$l; break ;; esac
done
echo "# this loader searches: $(echo $levels); expected copy: $want"
path_of() { if [ "$1" = baseline ]; then echo "$L/libfastcopy.so.0"; else echo "$L/glibc-hwcaps/$1/libfastcopy.so.0"; fi; }

# 3. By name, as a program gets it here: preloaded into /bin/true, and linked
# (fastcopy-info, installed without a RUNPATH).
LD_DEBUG=libs LD_LIBRARY_PATH="$L" LD_PRELOAD=libfastcopy.so.0 /bin/true 2> "$W/libs.pre"
if grep -q "calling init: $(path_of "$want")\$" "$W/libs.pre"; then
  ok "LD_PRELOAD=libfastcopy.so.0: the loader picks the $want copy"
else
  bad "LD_PRELOAD=libfastcopy.so.0: not the $want copy: $(grep 'libfastcopy' "$W/libs.pre" | head -n 5)"
fi
if [ "$want" != baseline ]; then
  grep -q "trying file=$L/glibc-hwcaps/$want/libfastcopy.so.0\$" "$W/libs.pre" \
    && ok "LD_DEBUG=libs shows it tried glibc-hwcaps/$want first" \
    || bad "no 'trying file=...glibc-hwcaps/$want' line"
fi
LD_DEBUG=libs LD_LIBRARY_PATH="$L" "$info" > "$W/info.out" 2> "$W/libs.info"
grep -q "calling init: $(path_of "$want")\$" "$W/libs.info" \
  && ok "fastcopy-info (linked -lfastcopy) loads the $want copy" \
  || bad "fastcopy-info loads: $(grep 'calling init:.*libfastcopy' "$W/libs.info")"
grep -q "^shared object: $(path_of "$want")\$" "$W/info.out" && grep -q "^  copy: $want " "$W/info.out" \
  && ok "fastcopy-info names the $want copy" \
  || bad "fastcopy-info: $(grep -E '^shared object|^  copy' "$W/info.out")"

# 4. Each level, as a CPU of that level would load it: ld.so told to search that
# level's directory only (the baseline: none of them).  The copy it loads says so,
# and where its names divert, names the installed copy that runs them directly.
for lvl in x86-64-v4 x86-64-v3 baseline; do
  if [ "$lvl" != baseline ] && ! echo "$levels" | grep -qx "$lvl"; then
    echo "# $lvl: not supported by this CPU: skipped"
    continue
  fi
  mask=$lvl
  [ "$lvl" = baseline ] && mask=none
  "$ldso" --glibc-hwcaps-mask "$mask" --library-path "$L" "$info" > "$W/info.$lvl" 2> "$W/err.$lvl"
  grep -q "^shared object: $(path_of "$lvl")\$" "$W/info.$lvl" && grep -q "^  copy: $lvl " "$W/info.$lvl" \
    && ok "--glibc-hwcaps-mask $mask: fastcopy-info loads and names the $lvl copy" \
    || bad "--glibc-hwcaps-mask $mask: $(grep -E '^shared object|^  copy' "$W/info.$lvl"; cat "$W/err.$lvl")"
  LD_DEBUG=libs "$ldso" --glibc-hwcaps-mask "$mask" --library-path "$L" --preload libfastcopy.so.0 \
    /bin/true 2> "$W/libs.$lvl"
  grep -q "calling init: $(path_of "$lvl")\$" "$W/libs.$lvl" \
    && ok "--glibc-hwcaps-mask $mask: a preload by name picks the $lvl copy" \
    || bad "--glibc-hwcaps-mask $mask, preload: $(grep 'calling init:.*libfastcopy' "$W/libs.$lvl")"
  # the advice: a diverting body names the copy of the selected one (if installed)
  sel=$(sed -n 's/^  memcpy   \([a-z0-9]*\) .*/\1/p' "$W/info.$lvl" | tail -n 1)
  if grep -q 'diverted on every call' "$W/info.$lvl"; then
    grep -q "^The copy whose names are the" "$W/info.$lvl" \
      && ok "$lvl copy, $sel selected: fastcopy-info names the copy that runs it directly" \
      || { case $sel in avx2|avx2_keepupper|avx512|avx512_1branch) bad "$lvl copy: no advice for $sel" ;;
           *) ok "$lvl copy, $sel selected (no body): no copy to advise" ;; esac; }
  else
    ! grep -q "^The copy whose names are the" "$W/info.$lvl" \
      && ok "$lvl copy: no divert, no advice" || bad "$lvl copy: advice without a divert"
  fi
done

# 5. A path is a path: glibc-hwcaps is not searched.
LD_DEBUG=libs LD_PRELOAD="$L/libfastcopy.so.0" /bin/true 2> "$W/libs.path"
grep -q "calling init: $L/libfastcopy.so.0\$" "$W/libs.path" && ! grep -q 'glibc-hwcaps' "$W/libs.path" \
  && ok "LD_PRELOAD=<path>: that file, no glibc-hwcaps lookup" \
  || bad "LD_PRELOAD=<path>: $(grep -E 'libfastcopy|hwcaps' "$W/libs.path" | head -n 3)"

# 6. Real programs preloaded by name: their calls bind to the copy picked, and
# their stderr gains nothing (no "Relink ... for IFUNC symbol" from the x86 loader).
LD_DEBUG=bindings LD_DEBUG_OUTPUT="$W/bind" LD_LIBRARY_PATH="$L" LD_PRELOAD=libfastcopy.so.0 \
  python3 -c 'import zlib; zlib.compress(b"x" * 100000)'
for s in memcpy memmove memset; do
  cat "$W"/bind.* | grep -q "to $(path_of "$want") .*symbol \`$s'" \
    && ok "python3 preloaded by name: $s bound to the $want copy" \
    || bad "python3 preloaded by name: no binding of $s to $(path_of "$want")"
done
for cmd in "ls /" "bash -c true" "python3 -c pass"; do
  $cmd > /dev/null 2> "$W/err.want"
  LD_LIBRARY_PATH="$L" LD_PRELOAD=libfastcopy.so.0 $cmd > /dev/null 2> "$W/err.got"
  same "stderr unchanged, preloaded by name: $cmd" "$W/err.want" "$W/err.got"
done

# 7. libfastcopy.a: memcpy, memmove, memset are IFUNC symbols (bound at load to the
# selected variant, on every CPU), in the archive and in a static program.
for s in memcpy memmove memset; do
  nm "$L/libfastcopy.a" 2>/dev/null | grep -q " i $s\$" && ok "libfastcopy.a: $s is an IFUNC symbol" \
    || bad "libfastcopy.a: $s: $(nm "$L/libfastcopy.a" 2>/dev/null | grep " $s\$")"
done
cat > "$W/st.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include <fastcopy.h>
int main(int argc, char **argv)
{
    char a[300], b[300];
    void *(*volatile cp)(void *, const void *, size_t) = memcpy;
    memset(a, argc, sizeof a);
    cp(b, a, sizeof a);
    printf("%s %d\n", fc_selected("memcpy"), b[299] == argc && !memcmp(a, b, sizeof a));
    (void)argv;
    return 0;
}
EOF
inc=$(dirname "$(find "$S" -name fastcopy.h | head -n 1)")
if "$@" -O2 -fno-builtin -static -I"$inc" -o "$W/st" "$W/st.c" "$L/libfastcopy.a" 2> "$W/st.err"; then
  nm "$W/st" | grep -q " i memcpy\$" && ok "static program: memcpy is an IFUNC symbol" \
    || bad "static program: memcpy: $(nm "$W/st" | grep ' memcpy$')"
  out=$("$W/st") ; sel=$(LD_LIBRARY_PATH="$L" "$info" | sed -n 's/^  memcpy   \([a-z0-9]*\) .*/\1/p' | tail -n 1)
  [ "$out" = "$sel 1" ] && ok "static program copies with the selected variant ($out)" \
    || bad "static program: '$out', fastcopy-info selects '$sel'"
  out=$(FASTCOPY_MEMCPY=generic "$W/st")
  [ "$out" = "generic 1" ] && ok "static program: FASTCOPY_MEMCPY=generic applies" || bad "static, generic: '$out'"
else
  bad "static link: $(cat "$W/st.err")"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
