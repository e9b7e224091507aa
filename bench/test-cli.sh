#!/bin/sh
# test-cli.sh DISTDIR FCBENCH [FCBENCH-GBENCH] - the benchmark's command line:
# every bad option or value is refused before anything is measured, with exactly
# one line on stderr that names it, nothing on stdout, and exit status 2; good
# input still works (--list, a tiny run with --csv/--json, the mix regimes, the
# limit kernels, --dist-dir, --version; the Google Benchmark front end's names,
# its ns_per_call counter).
set -u
dists=$1 fcb=$2 gb=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# refuse PROG WORD ARGS...: exit 2, nothing on stdout, one line on stderr naming WORD.
refuse() {
  prog=$1 word=$2
  shift 2
  ${MESON_EXE_WRAPPER:-} "$prog" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  n=$(wc -l <"$tmp/err")
  if [ "$rc" -ne 2 ] || [ "$n" -ne 1 ] || [ -s "$tmp/out" ] || ! grep -qF -- "$word" "$tmp/err"; then
    bad "$(basename "$prog") $*: want exit 2 and one line naming '$word'; got exit $rc, $n lines:"
    cat "$tmp/err" "$tmp/out" | head -5
  else
    ok
  fi
}

for p in "$fcb" $gb; do
  refuse "$p" "'avx-512'" --impl avx-512
  refuse "$p" "valid: libc, auto" --impl avx-512   # the valid names are listed
  refuse "$p" "'bogus'" --impl auto,bogus
  refuse "$p" "'memcpi'" --func memcpi
  refuse "$p" "'sizez'" --group sizes,sizez
  refuse "$p" "'nothing-*'" --quick --case 'nothing-*'
  refuse "$p" "'memset/sizes/*'" --quick --group user --case 'memset/sizes/*'
  refuse "$p" "'xyz'" --seed xyz
  refuse "$p" "'-1'" --seed -1
  refuse "$p" "'12Q'" --max-size 12Q
  refuse "$p" "'0'" --max-size 0
  refuse "$p" "'abc'" --l3 abc
  refuse "$p" "'1'" --rounds 1
  refuse "$p" "'fast'" --sample-us fast
  refuse "$p" "'two'" --cpu two
  refuse "$p" "'0'" --mix-align 0
  refuse "$p" "'8'" --mix-ops 8
  refuse "$p" "'/nonexistent'" --dist-dir /nonexistent
  refuse "$p" "'$tmp'" --dist-dir "$tmp"
  refuse "$p" "--func" --func
  refuse "$p" "/nonexistent/libx.so" --with /nonexistent/libx.so
  refuse "$p" "--bogus" --bogus
  refuse "$p" "--group" --quick --func memset --group dist   # selects nothing
done
refuse "$fcb" "'/nonexistent/out.csv'" --quick --csv /nonexistent/out.csv
refuse "$fcb" "'/nonexistent/out.json'" --quick --json /nonexistent/out.json
refuse "$fcb" "--csv" --csv
refuse "$fcb" "'/nonexistent/t.conf'" --tune --out /nonexistent/t.conf
refuse "$fcb" "writes no file" --tune --quick --out t.conf
refuse "$fcb" "'lukewarm'" --tune --objective lukewarm
refuse "$fcb" "--objective" --tune --objective
refuse "$fcb" "--out" --tune --out ''
refuse "$fcb" "--tune takes only" --tune --quick --group sizes
refuse "$fcb" "--group" --list --quick --func memset --group dist
refuse "$fcb" "'0'" --processes 0
refuse "$fcb" "'many'" --processes many
refuse "$fcb" "--processes" --processes
refuse "$fcb" "--self-test" --self-test --processes 3
refuse "$fcb" "'nosuch'" --quick --summary nosuch
refuse "$fcb" "--summary" --summary
refuse "$fcb" "--tune takes only" --tune --quick --summary libc

# Good input.
v=$(${MESON_EXE_WRAPPER:-} "$fcb" --version) && [ "$(echo "$v" | wc -l)" -eq 1 ] && ok || bad "fcbench --version: $v"
list=$(${MESON_EXE_WRAPPER:-} "$fcb" --list --quick --func memcpy --group sizes 2>&1) && echo "$list" | grep -q '^memcpy/sizes/16 .* libc .*auto' \
  && ok || bad "fcbench --list --func memcpy --group sizes: $list"
list=$(${MESON_EXE_WRAPPER:-} "$fcb" --list --func memcpy --group mix 2>&1) && echo "$list" | grep -q '^memcpy/mix/MemcpyGoogleA/ops=512 ' \
  && echo "$list" | grep -q '^memcpy/mix/MemcpyGoogleA .* empty' && ok || bad "mix regimes not listed: $list"
list=$(${MESON_EXE_WRAPPER:-} "$fcb" --list --quick --func memcpy --group ws --impl auto 2>&1) && echo "$list" | grep -q '^memcpy/ws/L1 .* read write ntwrite' \
  && ok || bad "ws limit kernels not listed: $list"
# chain: one case per size and function, every impl but the empty one (a chain
# needs a call that writes what the next one reads); the 16- and 32-byte callers
# (16/w16, 32/w32) where the CPU has one access that wide: x86_64 and aarch64 16,
# x86_64 with AVX2 32.
list=$(${MESON_EXE_WRAPPER:-} "$fcb" --list --quick --group chain 2>&1)
w16=0 w32=0
if echo "$list" | grep -q '^# fcbench .*, \(x86_64\|aarch64\), '; then w16=3; fi
if echo "$list" | grep -q '^# fcbench .*, x86_64, ' && grep -qw avx2 /proc/cpuinfo 2>/dev/null; then w32=3; fi
echo "$list" | grep -q '^memcpy/chain/8 .* libc .*auto' && echo "$list" | grep -q '^memset/chain/64 ' \
  && [ "$(echo "$list" | grep -c '^mem[a-z]*/chain/[0-9]* ')" -eq 15 ] && ! echo "$list" | grep -q '/chain/.* empty' \
  && [ "$(echo "$list" | grep -c '^mem[a-z]*/chain/16/w16  *16 .* libc .*auto')" -eq $w16 ] \
  && [ "$(echo "$list" | grep -c '^mem[a-z]*/chain/32/w32  *32 .* libc .*auto')" -eq $w32 ] \
  && ok || bad "chain cases not listed (want 15, $w16 16/w16, $w32 32/w32): $list"
${MESON_EXE_WRAPPER:-} "$fcb" --quick --no-progress --rounds 2 --sample-us 20 --impl auto --case 'memcpy/chain/8,memset/chain/64' \
    --csv "$tmp/c.csv" >/dev/null 2>"$tmp/err" && [ "$(grep -c '^mem[a-z]*,chain,' "$tmp/c.csv")" -eq 4 ] \
  && ok || bad "chain run: $(cat "$tmp/err")"
if [ $w16 -gt 0 ]; then
  wcases='memcpy/chain/16/w16,memmove/chain/16/w16,memset/chain/16/w16' want=6
  [ $w32 -gt 0 ] && wcases="$wcases,memcpy/chain/32/w32,memset/chain/32/w32" want=10
  ${MESON_EXE_WRAPPER:-} "$fcb" --quick --no-progress --rounds 2 --sample-us 20 --impl auto --case "$wcases" \
      --csv "$tmp/w.csv" >/dev/null 2>"$tmp/err" && [ "$(grep -c '^mem[a-z]*,chain,.*/w[0-9]*,' "$tmp/w.csv")" -eq $want ] \
    && ok || bad "wide chain run: $(cat "$tmp/err") $(cat "$tmp/w.csv")"
fi
# sizes and misal: the sizes just off a power of two (--quick: 4092 and 4100), in order
list=$(${MESON_EXE_WRAPPER:-} "$fcb" --list --quick --func memcpy --group sizes,misal 2>&1)
for g in sizes misal; do
  [ "$(echo "$list" | sed -n "s#^memcpy/$g/\([0-9]*\) .*#\1#p" | grep -x '40[0-9][0-9]\|41[0-9][0-9]' | tr '\n' ' ')" = "4092 4096 4100 " ] \
    && ok || bad "$g: want 4092 4096 4100 in order: $list"
done
list=$(${MESON_EXE_WRAPPER:-} "$fcb" --list --func memset --group misal 2>&1)
[ "$(echo "$list" | grep -c '^memset/misal/\(4092\|4095\|4097\|4100\|8188\|8196\|16380\) ')" -eq 7 ] \
  && ok || bad "misal: want the 7 sizes off a power of two: $list"
# prog: the program patterns, memcpy only, every impl and the empty one; a tiny run.
list=$(${MESON_EXE_WRAPPER:-} "$fcb" --list --quick --group prog 2>&1)
[ "$(echo "$list" | grep -c '^memcpy/prog/.* libc .*auto.* empty$')" -eq 5 ] \
  && echo "$list" | grep -q '^memcpy/prog/sqlite  *4092 ' && echo "$list" | grep -q '^memcpy/prog/lz4/450560  *450560 ' \
  && echo "$list" | grep -q '^memcpy/prog/fresh/4096  *4096 ' && ! echo "$list" | grep -q '^mem\(move\|set\)/prog/' \
  && ok || bad "prog cases not listed: $list"
list=$(${MESON_EXE_WRAPPER:-} "$fcb" --list --group prog 2>&1)
[ "$(echo "$list" | grep -c '^memcpy/prog/')" -eq 9 ] && echo "$list" | grep -q '^memcpy/prog/sqlite-mmap  *4092 ' \
  && ok || bad "prog: want 9 cases without --quick: $list"
# (--l3 256K: arenas sized for what the prog cases reach, not only the cold region)
${MESON_EXE_WRAPPER:-} "$fcb" --quick --no-progress --rounds 2 --sample-us 20 --impl auto --group prog --l3 256K \
    --csv "$tmp/pg.csv" >/dev/null 2>"$tmp/err" && [ "$(grep -c '^memcpy,prog,' "$tmp/pg.csv")" -eq 15 ] \
  && grep -q '^memcpy,prog,memcpy/prog/sqlite,4092,4384,libc,' "$tmp/pg.csv" \
  && ok || bad "prog run: want 15 rows (libc, auto, empty on 5 cases): $(cat "$tmp/err") $(cat "$tmp/pg.csv")"
# "dropin": the library's shared object through its exported names (not in a static fcbench)
if [ "${FCB_STATIC:-0}" != 1 ]; then
  list=$(${MESON_EXE_WRAPPER:-} "$fcb" --list --quick --func memset --group sizes --impl dropin 2>&1) \
    && echo "$list" | grep -q '^memset/sizes/16 .* dropin' && ok || bad "--impl dropin not listed: $list"
fi
# a variant by its former name (libfastcopy(7), FORMER NAMES): timed under its name now
if [ "$(uname -m)" = x86_64 ] && [ -z "${MESON_EXE_WRAPPER:-}" ] && grep -qw avx2 /proc/cpuinfo; then
  list=$("$fcb" --list --quick --func memcpy --group sizes --impl avx2amd 2>&1) \
    && echo "$list" | grep -q '^memcpy/sizes/16 .* avx2_keepupper$' && ! echo "$list" | grep -q avx2amd \
    && ok || bad "--impl avx2amd: $list"
fi
err=$(${MESON_EXE_WRAPPER:-} "$fcb" --list --quick --group mix --dist-dir "$dists" 2>&1 >/dev/null) && [ -z "$err" ] && ok || bad "--dist-dir $dists: $err"
${MESON_EXE_WRAPPER:-} "$fcb" --quick --no-progress --rounds 2 --sample-us 20 --impl auto --case 'memcpy/sizes/16,memset/sizes/64' \
    --csv "$tmp/o.csv" --json "$tmp/o.json" >"$tmp/table" 2>"$tmp/err" || bad "tiny run failed: $(cat "$tmp/err")"
grep -q '^memcpy,sizes,memcpy/sizes/16,16,0,auto,auto,' "$tmp/o.csv" && [ "$(grep -c '^mem' "$tmp/o.csv")" -eq 4 ] \
  && grep -q '"libfastcopy": "' "$tmp/o.json" && grep -q '"case": "memset/sizes/64"' "$tmp/o.json" && ok \
  || bad "tiny run: want 4 CSV rows (libc and auto on 2 cases) and the JSON: $(cat "$tmp/o.csv")"

# --summary: each block's figure is the geometric mean, over its cells, of the
# impl's median over the base's (recomputed from the CSV: 4 decimals, so within
# 0.002); memset/sizes/64 is a block of its own function, and base has no column.
${MESON_EXE_WRAPPER:-} "$fcb" --quick --no-progress --rounds 2 --sample-us 20 --impl auto \
    --case 'memcpy/sizes/1,memcpy/sizes/16,memcpy/sizes/64,memset/sizes/64' --summary libc \
    --csv "$tmp/s.csv" >"$tmp/stable" 2>"$tmp/err" || bad "--summary run failed: $(cat "$tmp/err")"
want=$(awk -F, '$2 == "sizes" && $1 == "memcpy" { m[$3 "," $6] = $11; c[$3] = 1 }
  END { for (k in c) { s += log(m[k ",auto"] / m[k ",libc"]); n++ } if (n == 3) printf "%.4f", exp(s / n) }' "$tmp/s.csv")
got=$(sed -n 's#^memcpy/sizes 0-64  *3  *\([0-9.]*\)$#\1#p' "$tmp/stable")
[ -n "$got" ] && [ -n "$want" ] && awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; exit !(d <= 0.002 && d >= -0.002) }' \
  && grep -q '^memset/sizes 0-64  *1  *[0-9.]*$' "$tmp/stable" \
  && grep -q '^block  *n  *auto$' "$tmp/stable" \
  && ok || bad "--summary libc: want memcpy/sizes 0-64 over 3 cells = $want from the CSV: $(sed -n '/geometric mean/,$p' "$tmp/stable")"

# --processes: each process's median is one sample; the table says so, the JSON
# holds N samples per item, and the CSV has its rows.  (Not under an emulator:
# the children are exec'ed directly.)
if [ -z "${MESON_EXE_WRAPPER:-}" ]; then
  mkdir "$tmp/td"
  TMPDIR=$tmp/td "$fcb" --quick --no-progress --processes 2 --rounds 2 --sample-us 20 --impl auto \
      --case 'memcpy/sizes/16,memset/sizes/64' --csv "$tmp/p.csv" --json "$tmp/p.json" \
      >"$tmp/ptable" 2>"$tmp/err" || bad "--processes 2 failed: $(cat "$tmp/err")"
  grep -q '^# 2 processes x 2 rounds' "$tmp/ptable" && grep -q '"processes": 2' "$tmp/p.json" \
    && [ "$(grep -c '"samples_ns": \[[0-9.]*, [0-9.]*\]' "$tmp/p.json")" -eq 4 ] \
    && [ "$(grep -c '^mem' "$tmp/p.csv")" -eq 4 ] && [ "$(grep -c '^# fcbench ' "$tmp/err")" -eq 1 ] \
    && ok || bad "--processes 2: want the header line, 2 samples per item, 4 CSV rows, one context on stderr: $(head -12 "$tmp/ptable") $(cat "$tmp/err")"
  [ -z "$(ls "$tmp/td")" ] && ok || bad "--processes left files in its TMPDIR: $(ls "$tmp/td")"
  # Every interval against libc is the paired one: the mean log ratio of the
  # per-process medians, t(N-1) at the level the JSON gives (its column's
  # corrected level), as ns at libc's median (checked from the JSON).
  if command -v python3 >/dev/null 2>&1; then
    python3 - "$tmp/p.json" <<'PY' && ok || bad "--processes: intervals are not the paired ones"
import json, math, statistics, sys
r = json.load(open(sys.argv[1]))["results"]
libc = {x["case"]: x["samples_ns"] for x in r if x["impl"] == "libc"}
n = 0
for x in r:
    if x["impl"] == "libc":
        continue
    a, b = x["samples_ns"], libc[x["case"]]
    l = [math.log(p / q) for p, q in zip(a, b)]
    # this run has 2 processes: t with 1 degree of freedom is Cauchy's
    level = x["ci_level"]
    if not (0.95 <= level < 1):
        sys.exit("%s %s: level %s" % (x["case"], x["impl"], level))
    t = math.tan(math.pi * level / 2)
    m, h = statistics.mean(l), t * statistics.stdev(l) / math.sqrt(len(l))
    mb = statistics.median(b)
    want = ((math.exp(m - h) - 1) * mb, (math.exp(m + h) - 1) * mb)
    got = (x["ci_lo_ns"], x["ci_hi_ns"])
    if any(abs(w - g) > 1e-3 * (1 + abs(w)) for w, g in zip(want, got)):
        sys.exit("%s %s: interval %s, want %s" % (x["case"], x["impl"], got, want))
    n += 1
sys.exit(0 if n == 2 else "compared %d items, want 2" % n)
PY
  fi
fi

# --targets: the floor-ratio rows print the number the CSV's medians give,
# (ours - empty) / (libc - empty), and the run exits 0 (all pass) or 3 (one fails).
# x86_64 has the peer-floor row; a musl build has the musl memset rows (checked
# below; the architecture and C library are read from fcbench's own header line).
c=memset/mix/MemsetGoogleB
${MESON_EXE_WRAPPER:-} "$fcb" --list --quick --case "$c" >"$tmp/l.out" 2>&1
rows=
grep -q '^# fcbench .*, x86_64, ' "$tmp/l.out" && rows=x86-mix-memset-floor
if [ -n "$rows" ]; then
  ${MESON_EXE_WRAPPER:-} "$fcb" --targets --quick --group mix --case "$c" --no-progress \
    --csv "$tmp/t.csv" >"$tmp/t.out" 2>"$tmp/err"
  rc=$?
  { [ "$rc" -eq 0 ] || [ "$rc" -eq 3 ]; } && ok || bad "--targets: exit $rc: $(cat "$tmp/err")"
fi
want=$(awk -F, -v c="$c" '$3 == c { m[$6] = $11 }
  END { a = ("dropin" in m) ? m["dropin"] : m["auto"]; if (m["libc"] > m["empty"]) printf "%.3f", (a - m["empty"]) / (m["libc"] - m["empty"]) }' "$tmp/t.csv" 2>/dev/null)
for r in $rows; do
  got=$(sed -n "s#^\(PASS\|FAIL\) $r .*: worst \([0-9.]*\) at $c.*#\2#p" "$tmp/t.out")
  # The CSV's medians carry 4 decimals, so the ratio recomputed from them can differ
  # from fcbench's own in the third decimal (0.905 against 0.904 seen): within 0.002.
  [ -n "$got" ] && [ -n "$want" ] && awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; exit !(d <= 0.002 && d >= -0.002) }' \
    && ok || bad "--targets $r: worst '$got', want $want from the CSV: $(grep -- "$r" "$tmp/t.out")"
done
if grep -q '^# fcbench .*, musl, ' "$tmp/l.out"; then
  for r in musl-mix-memset-random musl-mix-memset-each; do
    grep -Eq "^(PASS|FAIL) $r +memset mixes" "$tmp/t.out" && ok || bad "--targets: no $r row"
  done
fi

# --targets with no --group runs every group a target row names: on x86_64 each
# x86-peer-* group of fcb_targets.c (beside the distributions) has cases listed.
if grep -q '^# fcbench .*, x86_64, ' "$tmp/l.out"; then
  ${MESON_EXE_WRAPPER:-} "$fcb" --targets --list --quick >"$tmp/tl.out" 2>&1
  groups=$(grep -o 'PEER_GROUP("[a-z]*")' "$(dirname "$dists")/fcb_targets.c" | sed 's/.*("\(.*\)")/\1/' | grep -v '^g$')
  [ "$(echo "$groups" | wc -w)" -ge 9 ] && ok || bad "fcb_targets.c: PEER_GROUP rows not found: '$groups'"
  for g in $groups; do
    grep -q "^[a-z]*/$g/" "$tmp/tl.out" && ok || bad "--targets runs no $g case (its x86-peer-$g row would be NOT MEASURED)"
  done
fi

if [ -n "$gb" ]; then
  v=$(${MESON_EXE_WRAPPER:-} "$gb" --version) && [ "$(echo "$v" | wc -l)" -eq 1 ] && ok || bad "fcbench-gbench --version: $v"
  out=$(${MESON_EXE_WRAPPER:-} "$gb" --quick --case memcpy/sizes/16 --impl auto --benchmark_min_time=0.001 2>&1) \
    && echo "$out" | grep -q '^memcpy/sizes/16/auto ' && ok || bad "gbench run: $out"
  # ns_per_call is a number of nanoseconds, printed without a time unit.
  c=$(echo "$out" | sed -n 's/.*ns_per_call=\([^ ]*\).*/\1/p' | head -1)
  case $c in ''|*s) bad "ns_per_call printed as '$c'" ;; *) ok ;; esac
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
