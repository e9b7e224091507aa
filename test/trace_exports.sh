#!/bin/sh
# trace_exports.sh EXPORTS.DEF FASTCOPY.MAP LIBFASTCOPY.so LIBFASTCOPY-TRACE.so - one
# list of exported names: the drop-in names of src/exports.def are exactly those
# of the version script (besides its fc_* API), and both shared objects export
# exactly the version script's names.  Prints "N passed, N failed".
set -u
DEF=$1 MAP=$2 LIB=$3 TRACE=$4
. "$(dirname "$0")/checks.sh"
# names in exports.def: the second field of each X(...) / XF(...) line
sed -n 's/^ *XF\{0,1\}([^,]*, *\([A-Za-z_0-9]*\),.*/\1/p' "$DEF" | sort > "$W/def"
# the version script's global names
sed -n '/global:/,/local:/p' "$MAP" | tr ' ;' '\n\n' | grep -E '^[A-Za-z_][A-Za-z_0-9]*$' |
  grep -v -e '^global$' -e '^local$' | sort > "$W/map"
grep -v '^fc_' "$W/map" > "$W/map.dropin"
if [ "$(wc -l < "$W/def")" -ge 13 ] && cmp -s "$W/def" "$W/map.dropin"; then
  ok "exports.def and fastcopy.map name the same $(wc -l < "$W/def") drop-in names"
else
  bad "exports.def and fastcopy.map differ:"; diff "$W/def" "$W/map.dropin"
fi
for so in "$LIB" "$TRACE"; do
  readelf -W --dyn-syms "$so" | awk '$5 == "GLOBAL" && $7 != "UND" { sub(/@.*/, "", $8); print $8 }' |
    sort -u > "$W/syms"
  if cmp -s "$W/syms" "$W/map"; then ok "$(basename "$so") exports exactly fastcopy.map's names"
  else bad "$(basename "$so") exports other names than fastcopy.map:"; diff "$W/map" "$W/syms"; fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
