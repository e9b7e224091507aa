#!/bin/sh
# test-man.sh PAGE... - every page renders with groff -man -ww without a warning,
# and man -l (man-db, when installed) renders it too, with its NAME section.
set -u
fail=0 n=0
for p in "$@"; do
  n=$((n + 1))
  w=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$p" 2>&1)
  if [ -n "$w" ]; then
    echo "FAIL $p: groff warnings:"; echo "$w"; fail=$((fail + 1)); continue
  fi
  if command -v man >/dev/null 2>&1; then
    out=$(LC_ALL=C.UTF-8 MANROFFOPT=-ww MANWIDTH=80 man -l "$p" 2>"${TMPDIR:-/tmp}/man-err.$$")
    rc=$? err=$(cat "${TMPDIR:-/tmp}/man-err.$$"); rm -f "${TMPDIR:-/tmp}/man-err.$$"
    if [ $rc -ne 0 ] || [ -n "$err" ] || ! printf '%s\n' "$out" | grep -q '^NAME'; then
      echo "FAIL $p: man -l exit $rc: $err"; fail=$((fail + 1)); continue
    fi
  fi
  echo "ok $p"
done
echo "$((n - fail)) passed, $fail failed"
[ $fail -eq 0 ]
