#!/bin/sh
# trace_direct_count.sh TOOL LIB SHIM - fastcopy-trace's counts against an
# independent count: gcc compiling a file (gcc, cc1, as) and python3 (json,
# slices, zlib), run by fastcopy-trace with test/trace_count_shim.c preloaded in
# front of the trace library (a shell puts it there and execs the program).
# Per process, every name's calls and bytes in PREFIX.proc/PID.trace must equal
# the shim's; the merged PREFIX.trace must hold their sums.  "N passed, N failed"
set -u
TOOL=$(readlink -f "$1") LIB=$(readlink -f "$2") SHIM=$(readlink -f "$3")
. "$(dirname "$0")/checks.sh"
export FCTRACE_LIB="$LIB"
cat > "$W/some.c" <<'C'
#include <stdio.h>
#include <string.h>
struct point { double x, y, z; char name[40]; };
static struct point pts[64];
int main(int argc, char **argv)
{
    for (int i = 0; i < 64; i++) {
        snprintf(pts[i].name, sizeof pts[i].name, "%s-%d", argc > 1 ? argv[1] : "p", i);
        pts[i].x = i * 1.5;
    }
    memmove(pts + 1, pts, 32 * sizeof pts[0]);
    printf("%s %g\n", pts[40].name, pts[40].x);
    return 0;
}
C
py='import json, zlib
d = {str(i): [i, "x" * (i % 97), {"k": i * 0.5}] for i in range(3000)}
s = json.dumps(d, sort_keys=True)
b = bytearray(s.encode()) * 3
b[100:5000] = b[50:4950]
print(len(s), len(zlib.compress(bytes(b))), len(json.loads(s)))'
# compare NAME: PREFIX $W/$NAME, shim counts in $W/$NAME.count/
compare() {
  n=0 bad=0
  for c in "$W/$1.count"/*.count; do
    pid=$(basename "$c" .count)
    t="$W/$1.proc/$pid.trace"
    n=$((n + 1))
    if ! grep -q "^recursive 0$" "$c"; then bad=$((bad + 1)); echo "  $pid: $(grep recursive "$c")"; continue; fi
    grep "^name " "$c" | sort > "$W/want"
    grep "^name " "$t" 2> /dev/null | sort > "$W/got"
    if ! cmp -s "$W/want" "$W/got"; then
      bad=$((bad + 1)); echo "  pid $pid ($(sed -n 's/^exe //p' "$t")): trace vs shim:"; diff "$W/got" "$W/want" | head -6
    fi
  done
  # the merge: the sums over the processes the shim saw
  cat "$W/$1.count"/*.count | awk '$1 == "name" { c[$2] += $3; b[$2] += $4 }
    END { for (k in c) print "name", k, c[k], b[k] }' | sort > "$W/want"
  grep "^name " "$W/$1.trace" | sort > "$W/got"
  calls=$(awk '{ s += $3 } END { print s }' "$W/want")
  if [ "$n" -ge "$2" ] && [ "$bad" -eq 0 ] && cmp -s "$W/want" "$W/got" && [ "$calls" -gt 1000 ]; then
    ok "$1: $n processes, every name's calls and bytes equal to the shim's; merged: $calls calls"
  else
    bad "$1: $n processes (want $2), $bad differ; merged:"; diff "$W/got" "$W/want" | head -8
  fi
}
# run NAME PROGRAM ARGS...: traced, the shim in front of the trace library
run() {
  name=$1
  shift
  mkdir -p "$W/$name.count"
  FCT_SHIM_DIR="$W/$name.count" SHIM="$SHIM" "$TOOL" -q -o "$W/$name" -- \
    sh -c 'LD_PRELOAD="$SHIM:$LD_PRELOAD" exec "$@"' sh "$@" > "$W/$name.out" 2> "$W/$name.err"
}
run gcc gcc -O2 -c -o "$W/some.o" "$W/some.c"
if [ $? -eq 0 ] && [ -s "$W/some.o" ]; then ok "gcc -O2 -c some.c traced"; else bad "gcc: $(cat "$W/gcc.err")"; fi
compare gcc 3
run python3 /usr/bin/python3 -c "$py"
if [ $? -eq 0 ] && [ "$(cat "$W/python3.out")" = "$(/usr/bin/python3 -c "$py")" ]; then
  ok "python3 traced: the same output"
else bad "python3: $(cat "$W/python3.err")"; fi
compare python3 1
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
