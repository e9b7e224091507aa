#!/bin/sh
# test-with.sh FCBENCH LIB NOFUNCS SIGILL WRONG - fcbench --with: another library's
# functions are timed under the given name (a column of the table with -v, a
# baseline of the verdict), and a library that cannot be used is refused in one
# line, before any timing.  NOFUNCS: a library that defines none of
# the three (libm.so.6; under musl that name is libc itself); SIGILL: one whose
# memcpy dies of SIGILL; WRONG: one whose memset leaves a byte unset
# (test_with_bad.c).
set -u
fcb=$1 lib=$2 nofuncs=$3 sigill=$4 wrong=$5
out=$("$fcb" --quick --no-progress --rounds 2 --sample-us 20 --group mix --func memcpy,memset \
      --case '*/MemcpyGoogleA,*/MemsetGoogleA' --impl auto --with "$lib=other" -v 2>&1) || {
  echo "fcbench --with $lib failed:"; echo "$out"; exit 1; }
# libfastcopy's own .so stands in for the other library: timed, but marked as ours
# (never the "best peer" that our cells are measured against).
echo "$out" | grep -q "^# with: other = $lib \[libfastcopy: not a peer\] (memcpy memmove memset)" || {
  echo "no '# with:' line naming memcpy memmove memset, marked as libfastcopy:"; echo "$out"; exit 1; }
echo "$out" | grep -q "^# other against the best peer in each cell" || {
  echo "no best-peer counts for the libfastcopy copy:"; echo "$out"; exit 1; }
for g in memcpy/mix memset/mix; do
  echo "$out" | grep -E "^$g " | grep -qw other || {
    echo "no 'other' column in $g:"; echo "$out"; exit 1; }
done
# The verdict: libfastcopy (auto here) against libc and against the other library.
echo "$out" | grep -Eq "^function +group +n +vs libc +vs other" || {
  echo "no verdict against libc and other:"; echo "$out"; exit 1; }
# A missing file, a library without the functions, a name that is taken.
for bad in /nonexistent/libx.so "$nofuncs" "$lib=libc" "$sigill" "$wrong"; do
  err=$("$fcb" --quick --no-progress --with "$bad" 2>&1 >/dev/null) && {
    echo "fcbench --with $bad: accepted"; exit 1; }
  [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || {
    echo "fcbench --with $bad: want one line, got:"; echo "$err"; exit 1; }
  case $err in fcbench:*) ;; *) echo "fcbench --with $bad: '$err'"; exit 1 ;; esac
  case $bad in
  "$sigill") case $err in *"its memcpy died of SIGILL"*) ;; *)
      echo "fcbench --with $bad: the SIGILL not named: '$err'"; exit 1 ;; esac ;;
  "$wrong") case $err in *"its memset gave a wrong result"*) ;; *)
      echo "fcbench --with $bad: the wrong memset not named: '$err'"; exit 1 ;; esac ;;
  esac
done
echo "ok"
