#!/bin/sh
# deb-installed.sh - the installed Debian packages (.ci/debs.sh installs them; this
# checks what a user of the packages gets, from the installed files only):
#  - on amd64 the copies per ISA level where glibc looks for them, and the loader
#    picking the one this CPU's level names for a preload by name
#    (LD_DEBUG=libs), the programs' calls bound to it, their stderr unchanged;
#  - a program linked with `pkg-config --libs fastcopy` calls libfastcopy's
#    memcpy (built -fno-builtin, so that the compiler leaves the call), and a
#    static link binds memcpy as an IFUNC symbol;
#  - fastcopy-info names the installed copy; --pid reads a preloaded process;
#    FASTCOPY_DISABLE=1 reaches the installed library;
#  - fcbench's dropin column loads the installed library; fastcopy-ab gives a verdict;
#  - the man pages: man finds and renders them.
# Prints "N passed, N failed".
set -u
. "$(dirname "$0")/checks.sh"
arch=$(dpkg --print-architecture)
triplet=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
L=/usr/lib/$triplet

# 1. The files and, on amd64, the copy this CPU gets.
[ -f "$L/libfastcopy.so.0" ] && ok "libfastcopy0: $L/libfastcopy.so.0" || bad "no $L/libfastcopy.so.0"
want="$L/libfastcopy.so.0"
if [ "$arch" = amd64 ]; then
  for f in glibc-hwcaps/x86-64-v3 glibc-hwcaps/x86-64-v4 fastcopy/avx512_1branch fastcopy/avx2_keepupper; do
    dpkg -L libfastcopy0 | grep -qx "$L/$f/libfastcopy.so.0" && ok "libfastcopy0 holds $f/" \
      || bad "libfastcopy0 lacks $L/$f/libfastcopy.so.0"
  done
  # the former paths (libfastcopy(7), FORMER NAMES): links to the renamed copies
  for p in avx512amd:avx512_1branch avx2amd:avx2_keepupper; do
    [ "$(readlink "$L/fastcopy/${p%%:*}")" = "${p#*:}" ] && [ -f "$L/fastcopy/${p%%:*}/libfastcopy.so.0" ] \
      && ok "libfastcopy0 links fastcopy/${p%%:*} to ${p#*:}" || bad "fastcopy/${p%%:*}: $(ls -l "$L/fastcopy")"
  done
  for l in $(/lib64/ld-linux-x86-64.so.2 --help | sed -n 's/^ *\(x86-64-v[34]\) (supported, searched)$/\1/p'); do
    want="$L/glibc-hwcaps/$l/libfastcopy.so.0"
    break
  done
fi
echo "# this CPU's copy: $want"
# as the loader names it: through /lib or /usr/lib (merged /usr), the link or the
# file it points to (the ld.so.cache entry)
rel=${want#/usr}
want_re="(/usr)?${rel%.so.0}\.so\.0(\.[0-9.]+)?"
LD_DEBUG=libs LD_PRELOAD=libfastcopy.so.0 /bin/true 2> "$W/libs"
grep -Eq "calling init: $want_re\$" "$W/libs" && ok "LD_PRELOAD=libfastcopy.so.0: the loader picks $want" \
  || bad "preload by name: $(grep 'libfastcopy' "$W/libs" | head -n 5)"
LD_DEBUG=bindings LD_PRELOAD=libfastcopy.so.0 sort --version 2>&1 > /dev/null \
  | grep -Eq "to $want_re \[0\]: normal symbol \`memcpy'" && ok "sort's memcpy bound to it" \
  || bad "sort's memcpy not bound to $want"
for cmd in "ls /" "bash -c true" "python3 -c pass"; do
  command -v "${cmd%% *}" > /dev/null || continue
  $cmd > /dev/null 2> "$W/err.want"
  LD_PRELOAD=libfastcopy.so.0 $cmd > /dev/null 2> "$W/err.got"
  same "stderr unchanged, preloaded: $cmd" "$W/err.want" "$W/err.got"
done

# 2. Linking.
cat > "$W/app.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include <fastcopy.h>
int main(int argc, char **argv)
{
    char buf[256];
    size_t n = strlen(argv[argc - 1]) + 1;
    memcpy(buf, argv[argc - 1], n < sizeof buf ? n : sizeof buf);
    buf[sizeof buf - 1] = 0;
    printf("%s %s %s\n", buf, fc_version(), fc_selected("memcpy"));
    return 0;
}
EOF
if cc -O2 -fno-builtin -o "$W/app" "$W/app.c" $(pkg-config --cflags --libs fastcopy) 2> "$W/cc.err"; then
  out=$("$W/app" hello)
  echo "$out" | grep -q '^hello 0\.' && ok "linked with pkg-config fastcopy: runs ($out)" || bad "app: $out"
  LD_DEBUG=bindings "$W/app" x 2>&1 > /dev/null | grep -Eq "binding file $W/app .*to $want_re \[0\]: normal symbol \`memcpy'" \
    && ok "the linked program's memcpy call binds to $want" || bad "app's memcpy binding"
else
  bad "cc ... \$(pkg-config --libs fastcopy): $(cat "$W/cc.err")"
fi
if cc -O2 -fno-builtin -static -o "$W/app-static" "$W/app.c" $(pkg-config --cflags --libs --static fastcopy) 2> "$W/cc.err"; then
  nm "$W/app-static" | grep -q ' i memcpy$' && "$W/app-static" hi | grep -q '^hi ' \
    && ok "static link: memcpy is libfastcopy's IFUNC symbol, runs" || bad "static: $(nm "$W/app-static" | grep ' memcpy$')"
else
  bad "static link: $(cat "$W/cc.err")"
fi

# 3. fastcopy-info, --pid, FASTCOPY_DISABLE.
fastcopy-info > "$W/info" 2>&1
grep -Eq "^shared object: $want_re\$" "$W/info" && ok "fastcopy-info loads $want" \
  || bad "fastcopy-info: $(grep '^shared object' "$W/info")"
if [ "$arch" = amd64 ]; then
  c=$(sed -n 's/^  copy: \([^ ]*\) .*/\1/p' "$W/info")
  case $want in */glibc-hwcaps/*) wc=$(basename "$(dirname "$want")") ;; *) wc=baseline ;; esac
  [ "$c" = "$wc" ] && ok "fastcopy-info names the copy ($c)" || bad "fastcopy-info's copy: '$c', want $wc"
fi
FASTCOPY_DISABLE=1 fastcopy-info | grep -q '^  disabled by FASTCOPY_DISABLE=1: the exported names call the C library' \
  && ok "FASTCOPY_DISABLE=1: disabled" || bad "FASTCOPY_DISABLE=1 not reported"
LD_PRELOAD=libfastcopy.so.0 FASTCOPY_MEMSET=generic sleep 30 &
sp=$!
sleep 0.5
fastcopy-info --pid "$sp" > "$W/pid" 2>&1
kill "$sp" 2> /dev/null
grep -Eq "^process $sp \(sleep\): $want_re\$" "$W/pid" && grep -q '^  state: read from the process' "$W/pid" \
  && grep -q '^    memset   generic  *environment' "$W/pid" && ok "fastcopy-info --pid reads a preloaded sleep" \
  || bad "--pid: $(cat "$W/pid")"

# 4. fcbench's dropin column: the installed library, by name.
if command -v fcbench > /dev/null; then
  LD_DEBUG=libs fcbench --list --impl dropin > "$W/fcb" 2> "$W/fcb.libs"
  grep -q '^# dropin = libfastcopy.so.0 ' "$W/fcb" && grep -Eq "calling init: $want_re\$" "$W/fcb.libs" \
    && ok "fcbench's dropin column loads $want" || bad "fcbench: $(grep dropin "$W/fcb"; grep 'init:.*fastcopy' "$W/fcb.libs")"
fi

# 4b. fastcopy-ab: the installed library by name, one verdict.
if fastcopy-ab -q -n 6 -- sort /etc/passwd > "$W/ab" 2> "$W/ab.err" &&
   grep -Eq '^libfastcopy.so.0: (faster|slower|no difference proven): ' "$W/ab"; then
  ok "fastcopy-ab: $(cat "$W/ab")"
else bad "fastcopy-ab: $(cat "$W/ab" "$W/ab.err")"; fi

# 5. The man pages.
for p in fastcopy-info:1 fastcopy-ab:1 fastcopy-trace:1 fcbench:1 libfastcopy:7; do
  page=${p%:*} sec=${p#*:}
  f=$(man -w "$sec" "$page" 2> /dev/null)
  case $f in /usr/share/man/man$sec/$page.$sec.gz) ;; *) bad "man -w $sec $page: '$f'"; continue ;; esac
  MANWIDTH=80 man "$sec" "$page" 2> "$W/man.err" | col -b > "$W/man.txt"
  grep -q '^NAME' "$W/man.txt" && [ ! -s "$W/man.err" ] && ok "man $sec $page renders ($f)" \
    || bad "man $sec $page: $(cat "$W/man.err")"
done
MANWIDTH=80 man 7 libfastcopy 2> /dev/null | col -b | grep -q 'RUNTIME CONTROL' \
  && ok "libfastcopy(7) documents the runtime control" || bad "libfastcopy(7): no RUNTIME CONTROL"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
