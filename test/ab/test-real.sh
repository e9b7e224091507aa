#!/bin/sh
# test-real.sh RUN_PY LIBFASTCOPY SLOWLIB BADLIB COPIER - the real-program
# benchmark's own checks on a toy program (test/ab/spec.py): the binding report
# per library (what a library lacks is named), a library that changes a
# program's output stops the run (exit 1), bad input gets one line (exit 2), and
# a short timed run prints its tables.  No timing is asserted.
set -u
RUN=$1 LIB=$2 SLOW=$3 BAD=$4
export FC_AB_COPIER="$(readlink -f "$5")"
SPEC="$(dirname "$0")/spec.py"
. "$(dirname "$0")/../checks.sh"
real() { python3 "$RUN" --spec "$SPEC" --data "$W/data" --lib "$LIB" "$@" > "$W/out" 2> "$W/err"; echo $? > "$W/rc"; }
rc() { cat "$W/rc"; }

real --check-only --with "$SLOW=slow"
if [ "$(rc)" = 0 ] && grep -q "libfastcopy  *reached: .*bzero.*memcpy.*mempcpy" "$W/out" &&
   grep -q "slow  *reached: memcpy, memmove, memset; NOT reached: bzero (bound to libc.so.6); mempcpy" "$W/out" &&
   grep -q "outputs identical" "$W/out"; then ok "binding report: what each library reaches and lacks"
else bad "binding report: $(cat "$W/out" "$W/err")"; fi

real --check-only --with "$BAD=bad"
if [ "$(rc)" = 1 ] && grep -q "OUTPUT MISMATCH: copier with bad differs" "$W/err"; then
  ok "a library that changes the output stops the benchmark"
else bad "mismatch: status $(rc): $(cat "$W/out" "$W/err")"; fi

real --check-only --with /nonexistent/lib.so=x
if [ "$(rc)" = 2 ] && [ "$(wc -l < "$W/err")" -eq 1 ] && grep -q "does not load" "$W/err"; then
  ok "a library that does not load: one line"
else bad "bad library: $(cat "$W/err")"; fi
real --programs nosuch
if [ "$(rc)" = 2 ] && [ "$(wc -l < "$W/err")" -eq 1 ] && grep -q "unknown program nosuch" "$W/err"; then
  ok "an unknown program: one line"
else bad "unknown program: $(cat "$W/err")"; fi

real -n 6 --with "$SLOW=slow"
if [ "$(rc)" = 0 ] && grep -q "^| copier | " "$W/out" && grep -q "^targets: " "$W/out" &&
   grep -q "libfastcopy / slow" "$W/out"; then ok "a timed run prints the ratio tables and the targets"
else bad "timed run: $(cat "$W/out" "$W/err")"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
