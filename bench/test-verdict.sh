#!/bin/sh
# test-verdict.sh FCBENCH LIB SLOW - fcbench's verdict and the correction behind it.
# LIB is the build's libfastcopy.so (the file "dropin" loads); SLOW a correct
# library of byte loops (test_with_slow.c).
#
# 1. A/A: LIB loaded again with --with under another name ("twin").  dlopen hands
#    back the same mapping, so dropin and twin are the very same functions at the
#    same addresses, timed interleaved in a shuffled order: their samples are
#    exchangeable and every difference between them is noise.  Then no group of
#    the verdict against twin may say faster or slower, and at most 1% of the
#    cells may be called proven.  This holds by the statistics' construction, not
#    by luck: a group or cell is proven only when its interval, at a level
#    corrected for the number compared (Benjamini-Hochberg at 5%), lies wholly
#    beyond +-3%.  For identical functions the rounds' noise would have to fake a
#    3% difference plus several standard errors; even without the band, the
#    chance that any of the ~30 groups, or any of the ~300 cells, is called is at
#    most 5%, and 4 cells (over 1%) far less (fcbench --self-test draws 200 such
#    families of 300 cells: none proven).
# 2. SLOW in libfastcopy's place (--with SLOW=dropin): called slower than
#    libfastcopy in every group, and than libc in every sizes and cold group.
# 3. The output: the verdict first and short; the per-cell table only with -v;
#    the JSON carries the verdict; the CSV and JSON give each interval's level.
set -u
fcb=$1 lib=$2 slow=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
if [ "${FCB_STATIC:-0}" = 1 ]; then
  echo "skipped: a static fcbench has no --with"
  exit 77
fi

# 1. A/A: every group of the quick matrix (memcpy, memmove, memset), libc, dropin
#    and twin only (plus the empty call and the limit kernels).
"$fcb" --quick --no-progress --impl dropin --with "$lib=twin" --json "$tmp/aa.json" \
  --csv "$tmp/aa.csv" >"$tmp/aa.out" 2>"$tmp/err" || bad "A/A run: $(cat "$tmp/err")"
col=$(awk '/^function +group +n +vs libc +vs twin/ { print "ok" }' "$tmp/aa.out")
[ "$col" = ok ] && ok || bad "A/A: no verdict header with columns vs libc and vs twin: $(head -20 "$tmp/aa.out")"
# rows: "FUNC GROUP [(REGIME)] N  S.SSx WORD... C+ C-  S.SSx WORD... C+ C-"
rows=$(awk '/^(memcpy|memmove|memset) / { print }' "$tmp/aa.out")
nrows=$(echo "$rows" | grep -c .)
[ "$nrows" -ge 25 ] && ok || bad "A/A: want at least 25 verdict rows, got $nrows: $rows"
# the twin column is the last: its word is never faster or slower
diff=$(echo "$rows" | awk '{ w = $(NF - 2); if (w == "faster" || w == "slower") print }')
[ -z "$diff" ] && ok || bad "A/A: groups where the same code under two names differs: $diff"
summary=$(grep '^# against twin: ' "$tmp/aa.out")
set -- $(echo "$summary" | sed -n 's/^# against twin: \([0-9]*\) groups faster, \([0-9]*\) slower, \([0-9]*\) no difference; cells: \([0-9]*\) faster, \([0-9]*\) slower, of \([0-9]*\)$/\1 \2 \3 \4 \5 \6/p')
if [ $# -eq 6 ]; then
  echo "A/A: groups $1 faster, $2 slower, $3 no difference; cells $4 + $5 proven of $6"
  [ "$1" -eq 0 ] && [ "$2" -eq 0 ] && [ "$3" -eq "$nrows" ] && ok || bad "A/A groups: $summary"
  [ "$6" -ge 250 ] && [ $((100 * ($4 + $5))) -le "$6" ] && ok || bad "A/A: more than 1% of cells proven (or too few cells): $summary"
else
  bad "A/A: no '# against twin:' summary line: $summary"
fi
# the same in the JSON, row by row
if command -v python3 >/dev/null 2>&1; then
  python3 - "$tmp/aa.json" <<'PY' && ok || bad "A/A: the JSON verdict"
import json, sys
v = json.load(open(sys.argv[1]))["verdict"]
twin = [x for x in v if x["baseline"] == "twin" and x["subject"] == "dropin"]
libc = [x for x in v if x["baseline"] == "libc"]
if len(twin) < 25 or len(libc) != len(twin):
    sys.exit("rows: %d against twin, %d against libc" % (len(twin), len(libc)))
if any(x["verdict"] != "no difference" for x in twin):
    sys.exit("twin: %s" % [x for x in twin if x["verdict"] != "no difference"])
cells = sum(x["cells"] for x in twin)
proven = sum(x["cells_faster"] + x["cells_slower"] for x in twin)
if 100 * proven > cells:
    sys.exit("%d of %d cells proven" % (proven, cells))
for x in twin:  # the interval of a "no difference" row does not lie beyond the band
    if not (x["ci_lo"] <= 1.03 and x["ci_hi"] >= 1 / 1.03 and 0 < x["ci_level"] < 1):
        sys.exit("interval %s" % x)
PY
fi
# Every cell only with -v: the default output is the context and the verdict.
n=$(wc -l <"$tmp/aa.out")
[ "$n" -le 50 ] && ! grep -q '^memcpy/sizes ' "$tmp/aa.out" && ok || bad "A/A: default output of $n lines, or with the table"
grep -q '^memcpy,sizes,memcpy/sizes/16,16,0,twin,other,' "$tmp/aa.csv" && head -1 "$tmp/aa.csv" | grep -q ',verdict,ci_level$' \
  && ok || bad "A/A: the CSV's rows or its ci_level column"

# 2. Byte loops in libfastcopy's place, against libc and libfastcopy itself (loaded
#    as "fastcopy"): slower than libfastcopy in every group and in most cells, and
#    than libc in every sizes and cold group (not asked of libc elsewhere: musl's
#    misaligned memcpy and its memmove of a few bytes are no faster than a byte
#    loop).
"$fcb" --quick --no-progress --rounds 5 --impl dropin --group sizes,misal,cold,mix \
  --with "$slow=dropin" --with "$lib=fastcopy" -v >"$tmp/slow.out" 2>"$tmp/err" || bad "slow run: $(cat "$tmp/err")"
grep -Eq '^function +group +n +vs libc +vs fastcopy$' "$tmp/slow.out" && ok || bad "byte loops: no verdict against libc and fastcopy"
rows=$(awk '/^(memcpy|memmove|memset) / { print }' "$tmp/slow.out")
nrows=$(echo "$rows" | grep -c .)
notslow=$(echo "$rows" | awk '$(NF - 2) != "slower"')
[ "$nrows" -ge 12 ] && [ -z "$notslow" ] && ok || bad "byte loops: want every one of $nrows groups slower than libfastcopy: $notslow"
notslow=$(echo "$rows" | awk '($2 == "sizes" || $2 == "cold") && $(NF - 6) != "slower"')
[ -z "$notslow" ] && ok || bad "byte loops: want sizes and cold slower than libc: $notslow"
set -- $(sed -n 's/^# against fastcopy: .*; cells: \([0-9]*\) faster, \([0-9]*\) slower, of \([0-9]*\)$/\1 \2 \3/p' "$tmp/slow.out")
[ $# -eq 3 ] && [ $((2 * $2)) -gt "$3" ] && ok || bad "byte loops: want most cells proven slower: $(grep '^# against fastcopy' "$tmp/slow.out")"
# -v: the per-cell table follows the verdict, its dropin column (the first after
# libc's time) marked slower at 1 MiB
grep -Eq '^memcpy/sizes +size +libc ns +dropin ' "$tmp/slow.out" && awk '/^# verdict/ { v = NR } /^memcpy\/sizes / { t = NR } END { exit !(v && t > v) }' "$tmp/slow.out" \
  && grep -Eq '^1048576 +1048576 +[0-9.]+ +0\.[0-9]+- ' "$tmp/slow.out" && ok || bad "-v: no per-cell table after the verdict, or 1 MiB not marked slower"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
