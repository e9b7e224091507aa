#!/bin/sh
# musl_programs.sh preload LIB PROGDIR
# musl_programs.sh static CPU LIBA INCDIR SRCDIR CC [CC ARGS...]
#
# preload: small real programs built with musl-gcc (PROGDIR: prog_compress,
#   prog_sort, prog_threads, prog_which, usercopy_dlopen, libearly.so) run with and
#   without LD_PRELOAD=LIB; their outputs must be byte-identical, the preloaded
#   program's memcpy/memmove/memset must be LIB's, stderr unchanged.
# static: `CC -static static_app.c -lfastcopy` (LIBA: libfastcopy.a): the
#   binary's memcpy/memmove/memset are the library's, musl's own stdio calls them,
#   and it runs (with an override too).  CPU is the target's (x86_64, aarch64);
#   NM and OBJDUMP (default nm, objdump) read its binaries.
# In a cross build the programs run under MESON_EXE_WRAPPER (qemu-<cpu> -L ...,
# set by meson test), LD_PRELOAD handed to the guest with QEMU's -E.
# Prints "N passed, N failed"; exit status 1 on a failure.
set -u
. "$(dirname "$0")/../checks.sh"
RUN=${MESON_EXE_WRAPPER:-}
NM=${NM:-nm}
OBJDUMP=${OBJDUMP:-objdump}
# run PROG ARGS...: PROG on the target; pre_with LIBS PROG ARGS...: with LD_PRELOAD=LIBS
run() { $RUN "$@"; }
pre_with() {
  libs=$1
  shift
  if [ -n "$RUN" ]; then $RUN -E "LD_PRELOAD=$libs" "$@"; else LD_PRELOAD="$libs" "$@"; fi
}

gen_data() { # ~3 MB of mixed, compressible text and bytes, deterministic
  awk 'BEGIN { s = 7; for (i = 0; i < 60000; i++) { s = (s * 1103515245 + 12345) % 2147483648;
        n = s % 40; line = ""; for (j = 0; j < n; j++) line = line sprintf("%c", 97 + (s / (j + 1)) % 26);
        printf "%s the quick brown fox %d %s\n", line, s % 1000, (i % 7 ? "" : line line) } }'
}

case "${1:-}" in
preload)
  LIB=$(readlink -f "$2")
  P=$3
  pre() { pre_with "$LIB" "$@"; }
  gen_data > "$W/data"

  run "$P/prog_which" > "$W/which.plain"
  pre "$P/prog_which" > "$W/which.pre"
  for s in memcpy memmove memset; do
    if grep -q "^$s $LIB\$" "$W/which.pre"; then ok "preloaded: $s is the library's"
    else bad "preloaded: $s is not the library's: $(grep "^$s " "$W/which.pre")"; fi
    if grep -q "^$s .*libfastcopy" "$W/which.plain"; then bad "without preload, $s is already libfastcopy's"
    else ok "without preload: $s is musl's"; fi
  done

  run "$P/prog_compress" < "$W/data" > "$W/z.want" 2> "$W/z.err.want"
  pre "$P/prog_compress" < "$W/data" > "$W/z.got" 2> "$W/z.err.got"
  same "compressor output" "$W/z.want" "$W/z.got"
  same "compressor stderr unchanged (empty)" "$W/z.err.want" "$W/z.err.got"
  if tail -n 1 "$W/z.got" | grep -q "round trip ok"; then ok "compressor round trip"
  else bad "compressor round trip: $(tail -n 1 "$W/z.got")"; fi

  run "$P/prog_sort" < "$W/data" > "$W/sort.want"
  pre "$P/prog_sort" < "$W/data" > "$W/sort.got"
  same "sorter output" "$W/sort.want" "$W/sort.got"
  # the sorter agrees with sort(1) on its first half (byte order)
  n=$(wc -l < "$W/data")
  LC_ALL=C sort "$W/data" > "$W/sort.ref"
  head -n "$n" "$W/sort.got" > "$W/sort.half"
  same "sorter agrees with sort(1)" "$W/sort.ref" "$W/sort.half"

  run "$P/prog_threads" > "$W/thr.want"
  pre "$P/prog_threads" > "$W/thr.got"
  same "threaded copier output" "$W/thr.want" "$W/thr.got"

  # A library whose constructor copies, preloaded before this one: its calls may
  # come before our constructor has bound anything (through the resolving stub).
  run "$P/prog_which" 2> "$W/early.want" > /dev/null
  pre_with "$P/libearly.so $LIB" "$P/prog_which" 2> "$W/early.got" > "$W/which.early"
  pre_with "$P/libearly.so" "$P/prog_which" 2> "$W/early.ref" > /dev/null
  same "another library's constructor copies the same" "$W/early.ref" "$W/early.got"
  if grep -q "^memcpy $LIB\$" "$W/which.early"; then ok "preloaded second: memcpy is the library's"
  else bad "preloaded second: memcpy is not the library's"; fi

  # fc_copy_user from a dlopen'ed copy of the library (its TLS is not the static block)
  if run "$P/usercopy_dlopen" "$LIB" > "$W/dl.out" 2>&1; then ok "fc_copy_user in a dlopen'ed library"
  else bad "fc_copy_user in a dlopen'ed library: $(cat "$W/dl.out")"; fi
  # and preloaded (the static TLS block)
  if pre "$P/usercopy_dlopen" "$LIB" > "$W/dl.out" 2>&1; then ok "fc_copy_user, library preloaded and dlopen'ed"
  else bad "fc_copy_user, library preloaded and dlopen'ed: $(cat "$W/dl.out")"; fi
  ;;
static)
  CPU=$2 LIBA=$3 INC=$4 SRC=$5
  LIBDIR=$(dirname "$LIBA")
  shift 5
  # a variant to force, other than the one selected on any CPU here
  case $CPU in x86_64) forced=sse2 ;; *) forced=ldp_stp ;; esac
  if ! "$@" -static -O2 -I"$INC" "$SRC/static_app.c" -L"$LIBDIR" -lfastcopy -o "$W/app" 2> "$W/cc.err"; then
    bad "musl-gcc -static app.c -lfastcopy: $(cat "$W/cc.err")"
  else
    ok "musl-gcc -static app.c -lfastcopy links"
    if readelf -lW "$W/app" | grep -q INTERP; then bad "the binary is not static"; else ok "the binary is static"; fi
    # The check a user can make: memcpy/memmove/memset are defined once, with the
    # size of the library's drop-in entries, next to its resolving stubs, and
    # musl's own memcpy.o is not linked (on x86_64 it also defines __memcpy_fwd;
    # aarch64's defines memcpy alone, which the sizes already tell apart).
    for s in memcpy memmove memset; do
      want=$($NM -S "$LIBA" 2>/dev/null | awk -v s=$s '$4 == s && $3 == "T" { print $2 }')
      got=$($NM -S "$W/app" | awk -v s=$s '$4 == s { print $2 }')
      if [ -n "$want" ] && [ "$got" = "$want" ]; then ok "$s in the binary is the library's (size $got)"
      else bad "$s in the binary: size '$got', the library's '$want'"; fi
    done
    if $NM "$W/app" | grep -q ' fc_stub_memcpy$'; then ok "the resolving stubs are linked"
    else bad "no fc_stub_memcpy in the binary"; fi
    if [ "$CPU" = x86_64 ]; then
      if $NM "$W/app" | grep -q ' __memcpy_fwd$'; then bad "musl's memcpy.o is linked too"
      else ok "musl's memcpy.o is not linked"; fi
    fi
    # musl's own code (stdio's __fwritex) calls the only memcpy there is: ours.
    calls=$($OBJDUMP -d --no-show-raw-insn "$W/app" | awk '/^[0-9a-f]+ <__fwritex>:/ { f = 1; next } /^$/ { f = 0 } f && /(call|bl)[ \t].*<memcpy>/' | wc -l)
    if [ "$calls" -gt 0 ]; then ok "musl's __fwritex calls the library's memcpy ($calls call sites)"
    else bad "no call from musl's __fwritex to memcpy found"; fi
    out=$(run "$W/app" 2>&1)
    case "$out" in *" ok") ok "static binary runs: $out" ;; *) bad "static binary: $out" ;; esac
    out=$(FASTCOPY_MEMCPY=$forced FASTCOPY_MEMSET=generic run "$W/app" 2>&1)
    case "$out" in "memcpy=$forced "*"memset=generic ok") ok "static binary honours overrides: $out" ;;
                   *) bad "static binary with overrides: $out" ;; esac
  fi
  ;;
*)
  sed -n '2,16p' "$0"
  exit 2
  ;;
esac
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
