#!/bin/sh
# trace_cli.sh TOOL LIB FCBENCH - fastcopy-trace's command line and its bad paths:
# bad usage is one line naming what is wrong, a non-zero status and nothing run;
# a missing program 127, one that cannot run 126; the traced program's output
# and exit status (or signal) are its own; an unwritable output place is one
# line and the program runs untraced; --report refuses a bad file; the library
# preloaded by hand with an unwritable FCTRACE_PREFIX is one line, status kept;
# fcbench --dist refuses bad files with one line.  Prints "N passed, N failed".
set -u
TOOL=$(readlink -f "$1") LIB=$(readlink -f "$2") FCB=$(readlink -f "$3")
. "$(dirname "$0")/checks.sh"
export FCTRACE_LIB="$LIB"
cd "$W" || exit 1

# refuse WANT_RC WORD CMD...: exit WANT_RC, nothing on stdout, one stderr line naming WORD
refuse() {
  want=$1 word=$2
  shift 2
  "$@" > out 2> err
  rc=$?
  if [ "$rc" -eq "$want" ] && [ "$(wc -l < err)" -eq 1 ] && [ ! -s out ] && grep -qF -- "$word" err; then
    ok "$* -> exit $rc: $(cat err)"
  else
    bad "$*: want exit $want, one line naming '$word'; got exit $rc:"; cat err out | head -5
  fi
}
refuse 2 "no program to run" "$TOOL"
refuse 2 "'--bogus'" "$TOOL" --bogus true
refuse 2 "-o needs" "$TOOL" -o
refuse 2 "'$W/'" "$TOOL" -o "$W/" -- true
refuse 2 "--report needs" "$TOOL" --report
refuse 127 "/nonexistent/prog" "$TOOL" -o p -- /nonexistent/prog
refuse 127 "command not found" "$TOOL" -o p -- no-such-command-fctrace
refuse 126 "/etc/passwd" "$TOOL" -o p -- /etc/passwd
FCTRACE_LIB=/nonexistent/libx.so refuse 2 "FCTRACE_LIB '/nonexistent/libx.so'" "$TOOL" -o p -- true
if [ ! -e p.proc ] && [ ! -e p.txt ]; then ok "nothing written by the refused runs"
else bad "a refused run wrote files: $(ls)"; fi
refuse 1 "/nonexistent.trace" "$TOOL" --report -o r /nonexistent.trace
printf 'hello\n' > junk.trace
refuse 1 "not a fastcopy-trace file" "$TOOL" --report -o r junk.trace
printf 'fastcopy-trace 1\npid 5\n' > cut.trace
refuse 1 "incomplete" "$TOOL" --report -o r cut.trace
if [ ! -e r.txt ]; then ok "--report wrote nothing after a bad file"; else bad "--report wrote r.txt"; fi

if "$TOOL" --help > out 2> err && grep -q "^SYNOPSIS" out && grep -q "fastcopy-trace \[-o PREFIX\]" out &&
   grep -q "_exit()" out && [ ! -s err ]; then ok "--help: the synopsis, and says what is not counted"
else bad "--help"; fi

# The program's own output and status, byte for byte (-q: no summary).  bash, not
# sh: dash (Debian's sh) ends by _exit() and never writes its trace.
prog='printf "out\000put"; echo err >&2; exit 3'
bash -c "$prog" > out.want 2> err.want
"$TOOL" -q -o t -- bash -c "$prog" > out.got 2> err.got
rc=$?
if [ $rc -eq 3 ] && cmp -s out.want out.got && cmp -s err.want err.got; then
  ok "traced: the program's stdout, stderr and exit status 3 unchanged"
else bad "traced: exit $rc, outputs differ: $(od -c out.got | head -2) $(cat err.got)"; fi
if [ -s t.trace ] && [ -s t.txt ] && grep -q "^fastcopy-trace: 1 process (" t.txt; then
  ok "traced: t.trace and t.txt written"
else bad "traced: t.trace/t.txt: $(ls)"; fi
"$TOOL" -o t -- bash -c "$prog" > out.got 2> err.got
if [ "$(head -1 err.got)" = err ] && grep -q "^fastcopy-trace: 1 process" err.got; then
  ok "without -q: the program's stderr, then the summary"
else bad "without -q: $(head -3 err.got)"; fi
# a second run with the same prefix: only its own processes
# (bash runs its last command by exec: the outer bash's image is lost, and the
# exec'd one says so)
"$TOOL" -q -o t -- bash -c 'bash -c true; bash -c true' 2> /dev/null
if [ "$(ls t.proc | grep -c '\.trace$')" -eq 2 ] && grep -q "^processes 2$" t.trace &&
   [ "$(ls t.proc | grep -c '\.running$')" -eq 0 ] && grep -q "^lost 1$" t.trace &&
   grep -q "^1 program image replaced by exec wrote nothing" t.txt; then
  ok "the second run's t.proc holds its 2 processes only; the image lost to exec is counted"
else bad "t.proc after a second run: $(ls t.proc); $(grep lost t.trace)"; fi
# killed by a signal: the same signal; and dash ends by _exit(): both write nothing
"$TOOL" -q -o t -- sh -c 'kill -TERM $$' 2> /dev/null
rc=$?
if [ $rc -eq 143 ]; then ok "a program killed by SIGTERM: fastcopy-trace too (status 143)"
else bad "killed by SIGTERM: status $rc"; fi
if grep -q "process wrote nothing" t.txt; then ok "the killed process is named as writing nothing"
else bad "t.txt does not name the killed process: $(head -3 t.txt)"; fi

# An unwritable output place: one line, then the program runs (untraced) as it would.
"$TOOL" -o /nonexistent/dir/t -- bash -c "$prog" > out.got 2> err.got
rc=$?
if [ $rc -eq 3 ] && cmp -s out.want out.got && [ "$(wc -l < err.got)" -eq 2 ] &&
   grep -q "^fastcopy-trace: cannot write /nonexistent/dir/t.proc/: No such file or directory; running bash without the trace$" err.got &&
   [ "$(tail -1 err.got)" = err ]; then
  ok "unwritable -o: one line, the program's output and status unchanged"
else bad "unwritable -o: exit $rc:"; cat err.got; fi

# The library preloaded by hand, FCTRACE_PREFIX unwritable: one line, status kept.
LD_PRELOAD=$LIB FCTRACE_PREFIX=/nonexistent/x bash -c 'exit 5' > out 2> err
rc=$?
if [ $rc -eq 5 ] && [ "$(wc -l < err)" -eq 1 ] && grep -q "^libfastcopy-trace: cannot write /nonexistent/x\.[0-9]*\.trace: " err; then
  ok "preloaded, unwritable FCTRACE_PREFIX: one line, exit status 5 kept"
else bad "preloaded, unwritable prefix: exit $rc: $(cat err)"; fi
# ... and writable: the files, named by pid
LD_PRELOAD=$LIB FCTRACE_PREFIX=$W/h bash -c 'echo $$ > pid' > out 2> err
pid=$(cat pid)
if [ -s "h.$pid.trace" ] && [ -s "h.$pid.txt" ] && [ ! -e "h.$pid.running" ] && [ ! -s err ]; then
  ok "preloaded: h.PID.trace and h.PID.txt, nothing on stderr"
else bad "preloaded: $(ls h.*) $(cat err)"; fi

# fcbench --dist: what is wrong with a file, in one line, before anything runs
printf '0.5,zero,1\n' > bad1.csv
printf '\n' > bad2.csv
printf '0,0,0\n' > bad3.csv
printf '0.5\n4097-9000\n' > bad4.csv
printf '0.5,,1\n' > bad5.csv
refuse 2 "'bad1.csv': line 1: 'zero'" "$FCB" --dist bad1.csv
refuse 2 "'bad2.csv': line 1: empty" "$FCB" --dist bad2.csv
refuse 2 "'bad3.csv': no size has a weight above 0" "$FCB" --dist bad3.csv
refuse 2 "'bad4.csv': line 2: '4097-9000'" "$FCB" --dist bad4.csv
refuse 2 "'bad5.csv': line 1: ''" "$FCB" --dist bad5.csv
refuse 2 "'nofile.csv': No such file" "$FCB" --dist nofile.csv
refuse 2 "not a regular file" "$FCB" --dist "$W"
refuse 2 "--dist needs a value" "$FCB" --dist --quick
cp t.memcpy.csv a.memcpy.csv 2> /dev/null || printf '0,1\n# function: memcpy\n' > a.memcpy.csv
mkdir -p sub && cp a.memcpy.csv sub/
refuse 2 "case name 'a'" "$FCB" --dist a.memcpy.csv sub/a.memcpy.csv
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
