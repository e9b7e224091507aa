#!/bin/sh
# trace_run.sh LIB MIN_TRACES CMD ARG... - runs CMD with the trace library LIB
# preloaded, its files going to a scratch directory (FCTRACE_PREFIX), and exits
# with CMD's status; and with 1 when fewer than MIN_TRACES processes wrote a
# trace (the library was not loaded, or not at exit).  The trace library is a
# drop-in: the test suites that run on libfastcopy.so run on it this way.
set -u
LIB=$(readlink -f "$1") MIN=$2
shift 2
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
FCTRACE_PREFIX=$D/ LD_PRELOAD="$LIB${LD_PRELOAD:+:$LD_PRELOAD}" "$@"
rc=$?
n=$(ls "$D" | grep -c '\.trace$')
echo "trace_run: $n processes wrote a trace"
if [ "$rc" -eq 0 ] && [ "$n" -lt "$MIN" ]; then
  echo "FAIL - trace_run: $n traces, want at least $MIN: was $LIB loaded?"
  exit 1
fi
exit "$rc"
