#!/bin/sh
# trace_pattern.sh TOOL LIB PROG FCBENCH [QEMU SYSROOT] - the trace of a known
# pattern of calls (test/trace_prog.c: sizes, alignments, every exported name,
# three threads, a fork, an exec, an _exit) must hold exactly its counts, per
# process and merged; fcbench must load the distributions it wrote.  Natively
# through fastcopy-trace, twice: each thread with its own counters, and with
# FCTRACE_THREAD_SLOTS=1 (the threads on the shared, atomic counters).  Under
# qemu-user (no binfmt here: a guest cannot exec another guest program) the
# library is preloaded through QEMU's own environment (-E), the exec goes through
# QEMU again, and fastcopy-trace --report merges.  Prints "N passed, N failed".
set -u
TOOL=$(readlink -f "$1") LIB=$(readlink -f "$2") PROG=$(readlink -f "$3") FCB=$(readlink -f "$4")
QEMU=${5:-} SYSROOT=${6:-}
. "$(dirname "$0")/checks.sh"

# check NAME SLOTS: the checker's verdict on $W/t*, its failures shown
check() {
  if FCTRACE_THREAD_SLOTS=$2 $Q "$PROG" check "$W/manifest" "$W/t.proc" "$W/t" > "$W/check" 2>&1 \
     && tail -1 "$W/check" | grep -q " 0 failed"; then
    ok "$1: $(tail -1 "$W/check")"
  else
    bad "$1: the counts differ:"; grep -m 20 -v "^ok" "$W/check"
  fi
}

if [ -z "$QEMU" ]; then
  Q=
  for slots in "" 1; do
    what="traced${slots:+ with FCTRACE_THREAD_SLOTS=$slots}"
    rm -rf "$W/t" "$W/t".*
    FCTRACE_LIB=$LIB FCTRACE_THREAD_SLOTS=$slots "$TOOL" -o "$W/t" -- "$PROG" run "$W/manifest" \
      > "$W/out" 2> "$W/err"
    rc=$?
    if [ $rc = 0 ] && [ ! -s "$W/out" ]; then ok "$what: exit 0, no output"
    else bad "$what: exit $rc, output: $(head -3 "$W/out")"; cat "$W/err"; fi
    # the summary on stderr: 3 processes written, the _exit child named
    exitpid=$(sed -n 's/^exit //p' "$W/manifest")
    if grep -q "^fastcopy-trace: 3 processes (trace_prog), 6 threads: " "$W/err" &&
       grep -q "1 process wrote nothing (ended by _exit(), a signal or exec, or still running): pid $exitpid" "$W/err"; then
      ok "$what: the summary says 3 processes and names the _exit child"
    else bad "$what: summary:"; head -5 "$W/err"; fi
    check "$what" "$slots"
  done
else
  Q="$QEMU -L $SYSROOT -E LD_LIBRARY_PATH=$SYSROOT/lib"
  rm -rf "$W/t" "$W/t".*
  mkdir "$W/t.proc"
  env="-E LD_PRELOAD=$LIB -E FCTRACE_PREFIX=$W/t.proc/"
  # shellcheck disable=SC2086
  $Q $env -E "FCT_TEST_EXEC_WRAPPER=$Q $env" "$PROG" run "$W/manifest" > "$W/out" 2> "$W/err"
  rc=$?
  if [ $rc = 0 ] && [ ! -s "$W/out" ] && [ ! -s "$W/err" ]; then ok "traced under qemu: exit 0, no output"
  else bad "traced under qemu: exit $rc:"; cat "$W/out" "$W/err" | head -5; fi
  # shellcheck disable=SC2086
  if $Q "$TOOL" --report -q -o "$W/t" "$W/t.proc/"*.trace > "$W/out" 2>&1; then ok "fastcopy-trace --report"
  else bad "fastcopy-trace --report:"; head -5 "$W/out"; fi
  check "traced under qemu" ""
fi

# fcbench replays what was written: the merged prefix (all three functions), and
# one process's file
if $Q "$FCB" --list --dist "$W/t" > "$W/list" 2> "$W/err" &&
   grep -q "^memcpy/mix/t " "$W/list" && grep -q "^memmove/mix/t/ops=512 " "$W/list" &&
   grep -q "^memset/mix/t/ops=4096 " "$W/list" && [ ! -s "$W/err" ]; then
  ok "fcbench --dist PREFIX lists the three functions' mixes in the three regimes"
else bad "fcbench --dist $W/t:"; cat "$W/err"; head -5 "$W/list"; fi
main=$(sed -n 's/^main //p' "$W/manifest")
if $Q "$FCB" --quick --no-progress --rounds 2 --sample-us 20 --impl auto --func memcpy -v \
     --dist "$W/t.proc/$main.memcpy.csv" > "$W/run" 2> "$W/err" &&
   grep -q "^$main " "$W/run"; then
  ok "fcbench --dist replays one process's memcpy sizes"
else bad "fcbench --dist $W/t.proc/$main.memcpy.csv:"; cat "$W/err"; tail -5 "$W/run"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
