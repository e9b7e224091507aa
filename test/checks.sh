# checks.sh - sourced by the shell tests (preload_programs.sh, preload_znow.sh,
# musl/musl_programs.sh): a scratch directory $W removed on exit, and the counters
# behind their closing "N passed, N failed" line.
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "FAIL - $1"; }
same() { if cmp -s "$2" "$3"; then ok "$1"; else bad "$1 (outputs differ)"; fi; }
