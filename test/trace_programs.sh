#!/bin/sh
# trace_programs.sh LIB - test/preload_programs.sh with the trace library: real
# programs (python3, gzip, sort, gcc with cc1, as, ld) give byte-identical output
# and unchanged stderr under it, and every one of them wrote its trace.
set -u
LIB=$(readlink -f "$1")
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
FCTRACE_PREFIX=$D/ sh "$(dirname "$0")/preload_programs.sh" "$LIB" trampoline
rc=$?
missing=
# (as and ld are installed as x86_64-linux-gnu-as, ...-ld.bfd)
for p in python3 gzip sort cc1 as ld; do
  grep -Eq "^exe .*[/-]$p(\.bfd|\.gold|[.0-9]*)$" "$D"/*.trace 2> /dev/null || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "FAIL - no trace written by:$missing"
  exit 1
fi
echo "ok - traces written by python3, gzip, sort, cc1, as, ld ($(ls "$D" | grep -c '\.trace$') processes)"
exit "$rc"
