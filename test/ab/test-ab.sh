#!/bin/sh
# test-ab.sh FASTCOPY_AB LIBFASTCOPY SLOWLIB BADLIB ONLYMEMCPY COPIER - fastcopy-ab's
# behaviour: an A/A run says "no difference proven", a byte-loop library is
# named slower, and each kind of bad input gets one line and a non-zero exit.
# No timing is asserted beyond those two verdicts.
set -u
AB=$1 LIB=$2 SLOW=$3 BAD=$4 ONLY=$5 COPIER=$6
. "$(dirname "$0")/../checks.sh"
ab() { python3 "$AB" -q "$@" > "$W/out" 2> "$W/err"; echo $? > "$W/rc"; }
rc() { cat "$W/rc"; }
one_line() { # one line on stderr naming what is wrong, status $2
  if [ "$(rc)" = "$2" ] && [ "$(wc -l < "$W/err")" -eq 1 ] && grep -q -- "$3" "$W/err"; then
    ok "$1"
  else
    bad "$1 (status $(rc), stderr: $(head -c 300 "$W/err"), stdout: $(head -c 200 "$W/out"))"
  fi
}

ab --lib "$LIB" --baseline "$LIB" -n 10 -- "$COPIER"
if [ "$(rc)" = 0 ] && grep -q "no difference proven" "$W/out" && [ "$(wc -l < "$W/out")" -eq 1 ]; then
  ok "A/A: the same library on both sides: no difference proven"
else bad "A/A: $(cat "$W/out" "$W/err")"; fi

ab --lib "$SLOW" -n 6 -- "$COPIER"
if [ "$(rc)" = 0 ] && grep -q "^slowlib.so: slower: " "$W/out"; then ok "a byte-loop library is named slower"
else bad "slow library: $(cat "$W/out" "$W/err")"; fi
if grep -q "slowlib.so: not reached: .*bzero bound to .*libc" "$W/err" &&
   grep -q "mempcpy bound to" "$W/err"; then ok "the names the library lacks are reported"
else bad "no report of bzero/mempcpy not reached: $(cat "$W/err")"; fi

ab --lib "$LIB" --with "$SLOW=slow" -n 6 -- sh -c "$COPIER"
if [ "$(rc)" = 0 ] && [ "$(grep -c 'x the CPU time of the system C library' "$W/out")" -eq 2 ] &&
   grep -q "^slow: slower" "$W/out"; then ok "--with: one verdict per library, through a shell"
else bad "--with: $(cat "$W/out" "$W/err")"; fi

ab -n 6
one_line "no command" 2 "no command given"
ab -n 6 -- /nonexistent/program
one_line "a command that does not exist" 2 "not found"
ab --lib /nonexistent/libx.so -n 6 -- "$COPIER"
one_line "a library that does not load" 2 "does not load"
ab --lib "$ONLY" -n 6 -- "$COPIER"
one_line "a library without memmove and memset" 2 "does not define memmove, memset"
ab --lib "$LIB" -n 6 -- "$COPIER" 1 random
one_line "a command whose output differs between runs" 1 "different output from run to run"
ab --lib "$BAD" -n 6 -- "$COPIER" 4
one_line "a library that changes the output" 1 "differs from without it"
ab --lib "$LIB" -n 3 -- "$COPIER"
one_line "too few rounds" 2 "at least 6 rounds"
cp "$COPIER" "$W/setuid-copier" && chmod u+s "$W/setuid-copier"
ab --lib "$LIB" -n 6 -- "$W/setuid-copier"
one_line "a set-user-ID command" 2 "set-user-ID"
if cc -static -O2 -fno-builtin -o "$W/static-copier" "$(dirname "$0")/copier.c" 2> /dev/null; then
  ab --lib "$LIB" -n 6 -- "$W/static-copier"
  one_line "a statically linked command" 2 "statically linked"
else ok "# skip: no static C library to link a static command"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
