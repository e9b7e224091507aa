#!/bin/sh
# test-targets.sh FCBENCH SLOW - fcbench --targets' rows against the peers (x86_64:
# where fcb_targets.c has them; elsewhere the test is skipped).  SLOW is a correct
# library of byte loops (test_with_slow.c).
#  - x86-mix-*: one PASS/FAIL line per peer, whose figure is the geometric mean of
#    libfastcopy's median over that peer's on the block's cells (recomputed from the
#    CSV); each regime's row takes only its own cells (--mix-ops 512 feeds the
#    ops512 rows and leaves the random-order ones unmeasured).
#  - x86-chain-*: the worst cell's time over the fastest peer's (from the CSV).
#  - A FAIL is possible: with SLOW loaded in libfastcopy's place ("dropin") the rows
#    fail against libc and fcbench exits 3; against SLOW as a peer they pass.
set -u
fcb=$1 slow=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

"$fcb" --list --quick --case memcpy/sizes/16 >"$tmp/l.out" 2>&1
if ! grep -q '^# fcbench .*, x86_64, ' "$tmp/l.out"; then
  echo "skipped: the peer rows of fcb_targets.c are x86_64's"
  exit 77
fi
run() { # OUT ARGS...: a short --targets run; exit status 0 (all pass) or 3 (one fails)
  out=$1
  shift
  "$fcb" --targets --quick --no-progress --rounds 3 --sample-us 50 "$@" >"$tmp/$out" 2>"$tmp/err"
  echo $?
}
cases='memcpy/mix/MemcpyGoogleA,memset/mix/MemsetGoogleB,memcpy/chain/*'

# 1. The figures, with SLOW as a second peer.
rc=$(run t1.out --group mix,chain --case "$cases" --with "$slow=slow" --csv "$tmp/t1.csv" --json "$tmp/t1.json")
{ [ "$rc" -eq 0 ] || [ "$rc" -eq 3 ]; } && ok || bad "--targets: exit $rc: $(cat "$tmp/err")"
# geo FUNC PEER: the geometric mean over FUNC's random-order mix cells of dropin / PEER
geo() {
  awk -F, -v f="$1" -v p="$2" '$2 == "mix" && $1 == f && $3 !~ /\/ops=/ { m[$3 "," $6] = $11; c[$3] = 1 }
    END { for (k in c) if ((k ",dropin") in m && (k "," p) in m) { s += log(m[k ",dropin"] / m[k "," p]); n++ }
          if (n) printf "%.4f", exp(s / n) }' "$tmp/t1.csv"
}
near() { awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN { d = g - w; exit !(g != "" && w != "" && d <= t && d >= -t) }'; }
for f in memcpy memset; do
  for p in libc slow; do
    line=$(grep -E "^(PASS|FAIL) x86-mix-$f-random .*: vs $p [0-9.]+ \[95% " "$tmp/t1.out")
    got=$(echo "$line" | sed -n "s/.*: vs $p \([0-9.]*\) .*/\1/p")
    want=$(geo $f $p)
    near "$got" "$want" 0.002 && ok || bad "x86-mix-$f-random vs $p: '$got', want $want from the CSV: $line"
  done
  grep -q "^PASS x86-mix-$f-random .*: vs slow " "$tmp/t1.out" && ok \
    || bad "x86-mix-$f-random: not faster than byte loops: $(grep "x86-mix-$f-random" "$tmp/t1.out")"
done
grep -q '^NOT MEASURED x86-mix-memcpy-ops512 ' "$tmp/t1.out" && ok || bad "x86-mix-memcpy-ops512 measured without its cells"
# the chain row: the worst cell's dropin / min(libc, slow)
want=$(awk -F, '$1 == "memcpy" && $2 == "chain" { m[$3 "," $6] = $11; c[$3] = 1 }
  END { for (k in c) { b = m[k ",libc"]; if (m[k ",slow"] < b) b = m[k ",slow"]; r = m[k ",dropin"] / b; if (r > w) w = r }
        printf "%.4f", w }' "$tmp/t1.csv")
ncells=$(awk -F, '$1 == "memcpy" && $2 == "chain" && $6 == "dropin"' "$tmp/t1.csv" | wc -l)
line=$(grep -E '^(PASS|FAIL) x86-chain-memcpy ' "$tmp/t1.out")
got=$(echo "$line" | sed -n 's/.*: worst \([0-9.]*\) at memcpy\/chain\/.*/\1/p')
near "$got" "$want" 0.005 && echo "$line" | grep -q ", $ncells cases" && [ "$ncells" -ge 2 ] && ok \
  || bad "x86-chain-memcpy: '$got' over $ncells cells, want $want from the CSV: $line"
grep -q '"id": "x86-mix-memcpy-random", "state": "[A-Z]*", "cases": 1, .*"peers": \[{"peer": "libc", ' "$tmp/t1.json" \
  && ok || bad "JSON: no per-peer results for x86-mix-memcpy-random"

# 2. The 512-call rows take the 512-call cells.
rc=$(run t2.out --group mix --case memcpy/mix/MemcpyGoogleA --mix-ops 512)
grep -Eq '^(PASS|FAIL) x86-mix-memcpy-ops512 .*: vs libc [0-9.]+ .*, 1 cases$' "$tmp/t2.out" \
  && grep -q '^NOT MEASURED x86-mix-memcpy-random ' "$tmp/t2.out" && ok \
  || bad "--mix-ops 512: want the ops512 row measured, the random one not: $(grep x86-mix-memcpy "$tmp/t2.out")"

# 3. Byte loops in libfastcopy's place: the rows against libc fail, and so does the run.
rc=$(run t3.out --group mix,chain --case "$cases" --with "$slow=dropin")
[ "$rc" -eq 3 ] && ok || bad "--targets with byte loops as dropin: exit $rc, want 3: $(cat "$tmp/err")"
for r in x86-mix-memcpy-random x86-mix-memset-random; do
  grep -q "^FAIL $r .*: vs libc " "$tmp/t3.out" && ok || bad "$r: no FAIL vs libc for byte loops: $(grep -- "$r" "$tmp/t3.out")"
done
grep -q '^FAIL x86-chain-memcpy .* at memcpy/chain/' "$tmp/t3.out" && ok \
  || bad "x86-chain-memcpy: no FAIL for byte loops: $(grep x86-chain-memcpy "$tmp/t3.out")"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
