#!/bin/sh
# info-pid.sh FASTCOPY_INFO SLEEPER SLEEPER_STATIC [COPYDIR] - fastcopy-info --pid on
# running processes: one that links libfastcopy.so, with FASTCOPY_* overrides and a
# bad variable (read from its memory, and with --recompute from its environment);
# a disabled one; a static one (libfastcopy.a); one with a -Dhwcaps=true copy
# (COPYDIR, preloaded by name); one without the library; bad and gone process
# ids; and as root: another user's view (maps unreadable: says so), a setuid
# process (AT_SECURE: its FASTCOPY_* do not apply, read or recomputed).
# Natively only.  Prints "N passed, N failed".
set -u
info=$1 sleeper=$2 sleeper_static=$3 copydir=${4:-}
. "$(dirname "$0")/../checks.sh"
pids=""
trap 'for p in $pids; do kill "$p" 2> /dev/null; done; rm -rf "$W"' EXIT

# start NAME CMD...: runs CMD in the background until it says it is up; $pid
start() {
  name=$1; shift
  "$@" "$W/up.$name" > /dev/null 2> "$W/err.$name" &
  pid=$!
  pids="$pids $pid"
  i=0
  while [ ! -e "$W/up.$name" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
}
has() { if grep -q -- "$2" "$W/$1"; then ok "$3"; else bad "$3: $(cat "$W/$1")"; fi; }

# 1. Overrides and a bad variable: read from the process's memory.
start env env FASTCOPY_MEMSET=generic FASTCOPY_BOGUS=1 "$sleeper"
"$info" --pid "$pid" > "$W/env.out" 2>&1
rc=$?
[ $rc -eq 0 ] && ok "--pid: exit 0 for a process with libfastcopy" || bad "--pid: exit $rc"
has env.out "^process $pid (sleeper): .*libfastcopy.so" "names the process and the shared object it maps"
has env.out "^  state: read from the process's memory" "reads the state from its memory"
has env.out "^    memset   generic  *environment .*forced by FASTCOPY_MEMSET=generic" \
  "memset's variant, where from and why"
has env.out "^  messages: 1 (the first printed on its stderr)" "its one diagnostic, printed"
has env.out "FASTCOPY_BOGUS: unknown FASTCOPY_ variable" "the diagnostic's text"
has env.out "^  runtime control: enabled" "runtime control: enabled"
"$info" --pid "$pid" --recompute > "$W/rec.out" 2>&1
has rec.out "^  state: recomputed, not read (--recompute): its FASTCOPY_\* variables from /proc/PID/environ" \
  "--recompute says so and from what"
has rec.out "^    memset   generic  *environment" "recomputed: the same variant"
for f in memcpy memmove; do
  a=$(grep "^    $f " "$W/env.out"); b=$(grep "^    $f " "$W/rec.out")
  [ -n "$a" ] && [ "$a" = "$b" ] && ok "recomputed $f as read" || bad "$f read '$a', recomputed '$b'"
done

# 2. Disabled.
start off env FASTCOPY_DISABLE=1 "$sleeper"
"$info" --pid "$pid" > "$W/off.out" 2>&1
has off.out "^  runtime control: disabled by FASTCOPY_DISABLE=1: every exported name calls the C library's function" \
  "a disabled process: disabled, the C library's functions bound"

# 3. Static.
start static env FASTCOPY_MEMCPY=generic "$sleeper_static"
"$info" --pid "$pid" > "$W/static.out" 2>&1
has static.out "^process $pid (sleeper_static): .*(libfastcopy.a, linked statically)" "a static program: found"
has static.out "^    memcpy   generic  *environment" "a static program: its variants"

# 4. A copy of a -Dhwcaps=true build, found by name.
if [ -n "$copydir" ]; then
  start copy env LD_LIBRARY_PATH="$copydir" "$sleeper"
  "$info" --pid "$pid" > "$W/copy.out" 2>&1
  has copy.out "^  copy: $(basename "$copydir")" "the copy the process loaded"
fi

# 5. No libfastcopy; bad and gone ids.
start none sh -c 'touch "$0"; exec sleep 60'
"$info" --pid "$pid" > "$W/none.out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "no libfastcopy shared object mapped" "$W/none.out" \
  && ok "a process without libfastcopy: says so, exit 1" || bad "no libfastcopy (exit $rc): $(cat "$W/none.out")"
"$info" --pid 12x > "$W/badpid.out" 2>&1
[ $? -eq 2 ] && ok "--pid 12x: exit 2" || bad "--pid 12x: $(cat "$W/badpid.out")"
"$info" --pid 999999999 > "$W/gone.out" 2>&1
[ $? -eq 1 ] && grep -q 'no such process' "$W/gone.out" && ok "a gone process: exit 1" \
  || bad "gone process: $(cat "$W/gone.out")"

# 6. As root: another user's view, and a setuid process.
# (musl's loader ignores the sleeper's RUNPATH when it is setuid: glibc only)
if [ "$(id -u)" -eq 0 ] && command -v setpriv > /dev/null && [ -z "${FC_MUSL:-}" ]; then
  nobody() { /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
  mkdir -p "$W/s" && chmod 755 "$W" "$W/s" && cp "$info" "$sleeper" "$W/s/" && chmod 4755 "$W/s/sleeper"
  start env2 env FASTCOPY_MEMSET=generic "$sleeper"
  libdir=$(dirname "$("$info" | sed -n 's/^shared object: //p')")
  nobody env LD_LIBRARY_PATH="$libdir" "$W/s/fastcopy-info" --pid "$pid" > "$W/other.out" 2>&1
  rc=$?
  [ $rc -eq 1 ] && grep -q "cannot tell: /proc/$pid/maps: .*(another user's process: run as root)" "$W/other.out" \
    && ok "another user's process: cannot tell, says why" || bad "another user's (exit $rc): $(cat "$W/other.out")"
  chmod 777 "$W"
  start setuid env FASTCOPY_MEMCPY=generic /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups "$W/s/sleeper"
  "$info" --pid "$pid" > "$W/suid.out" 2>&1
  if grep -q 'libfastcopy' "$W/suid.out" && ! grep -q '^    memcpy   generic' "$W/suid.out"; then
    ok "a setuid process: its FASTCOPY_MEMCPY did not apply (read from its memory)"
  else
    bad "setuid process: $(cat "$W/suid.out")"
  fi
  "$info" --pid "$pid" --recompute > "$W/suidrec.out" 2>&1
  has suidrec.out "the process is AT_SECURE: its FASTCOPY_\* variables do not apply" "recomputed: AT_SECURE seen"
  ! grep -q '^    memcpy   generic' "$W/suidrec.out" && ok "recomputed without its FASTCOPY_MEMCPY" \
    || bad "recomputed setuid: $(cat "$W/suidrec.out")"
else
  echo "# another user's and setuid processes: skipped (need root, setpriv, glibc)"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
