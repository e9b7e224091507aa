#!/bin/sh
# tuning-file.sh FCBENCH FASTCOPY_INFO PRINT_SELECTED: the tuning file, end to end.
# `fcbench --tune --quick` writes one that the library loads (round trip); then the
# loader's answers to bad files, each checked through fastcopy-info's report and
# its stderr: empty, binary, oversized, truncated mid-line, CRLF, duplicate keys,
# unknown keys, values out of range, another CPU's identity, unreadable, a
# directory, a FIFO (must not block); precedence (FASTCOPY_* > file > policy); and
# under AT_SECURE (a setuid copy, root only) FASTCOPY_TUNING ignored, a root-owned
# system file honoured, a group-writable one not.  Under an emulator
# (MESON_EXE_WRAPPER) FASTCOPY_* reach the guest through the emulator's environment.
set -u
fcb=$1 info=$2 psel=${3:-}
case $fcb in /*) ;; *) fcb=$PWD/$fcb ;; esac
. "$(dirname "$0")/checks.sh"
run() { ${MESON_EXE_WRAPPER:-} "$@"; }

# --- the tuner's row, and the file it writes ------------------------------------
# --quick: a smoke run that prints the profile row and writes no file.
mkdir "$W/cwd"
if (cd "$W/cwd" && run "$fcb" --tune --quick --no-progress > "$W/tune.out" 2> "$W/tune.err"); then
  ok "fcbench --tune --quick runs"
else
  bad "fcbench --tune --quick failed: $(cat "$W/tune.err")"
fi
[ -z "$(ls -A "$W/cwd")" ] && grep -q '^no file written (--quick is a smoke run' "$W/tune.out" \
  && ok "--quick writes no file and says so" || bad "--quick: $(ls -A "$W/cwd") $(tail -n 3 "$W/tune.out")"
grep -q '^# SMOKE RUN (--quick): nothing here is proven' "$W/tune.out" \
  && ok "--quick marks its row as a smoke run" || bad "no smoke-run mark: $(cat "$W/tune.out")"
grep -q '^tunable .* policy .* measured' "$W/tune.out" && ok "--tune prints its table" \
  || bad "no table: $(cat "$W/tune.out")"
if run "$fcb" --tune --quick --out "$W/never.conf" > /dev/null 2> "$W/q.err"; then
  bad "--tune --quick --out was accepted"
else
  [ ! -e "$W/never.conf" ] && grep -q "writes no file" "$W/q.err" \
    && ok "--tune --quick --out: refused, one line" || bad "--quick --out: $(cat "$W/q.err")"
fi
# the row: one line per key of the table (memcpy, memmove, memset, then this
# architecture's settable tunables), nothing proven, each the policy's value
ident=$(sed -n 's/^# cpu: //p' "$W/tune.out")
[ -n "$ident" ] && ok "the row names the CPU ($ident)" || bad "no cpu line: $(cat "$W/tune.out")"
sed -n '/^# cpu: /,/^# as a row\|^$/p' "$W/tune.out" | grep -E '^# [a-z_0-9]+ = ' > "$W/row"
for f in memcpy memmove memset; do
  grep -q "^# $f = [a-z0-9]*  (the policy's" "$W/row" && ok "the row has $f" || bad "row without $f: $(cat "$W/row")"
done
[ "$(grep -cv "(the policy's" "$W/row")" -eq 0 ] && ok "a smoke run's row holds the policy's values" \
  || bad "smoke row: $(cat "$W/row")"
# the row is a tuning file's body: with the exact-CPU header it loads without a
# word, every key from the file
ver=$(run "$info" | sed -n 's/^libfastcopy \([^ ]*\) (.*/\1/p')
printf '# libfastcopy tuning 1; cpu: %s; libfastcopy %s\n' "$ident" "$ver" > "$W/hdr"
{ cat "$W/hdr"; grep -v 'outside the range a file may set' "$W/row" \
    | sed 's/^# \([a-z_0-9]*\) = \([^ ]*\) .*/\1 = \2/'; } > "$W/t.conf"
if [ "$(uname -m)" = x86_64 ] && [ -z "${MESON_EXE_WRAPPER:-}" ]; then
  grep -q '^# as a row of src/x86_64/profiles.c' "$W/tune.out" \
    && grep -q '^    \[FC_X86_NEW_CLASS\] = {.name = ".*", .evidence = "",' "$W/tune.out" \
    && ok "--tune prints the row for the profile table" || bad "no C row: $(cat "$W/tune.out")"
fi
# --processes: every child a fresh exec (natively only: under qemu-user without
# binfmt a child exec of the guest binary cannot start); each child's file in
# TMPDIR is removed, the file says how it was measured and holds the printed row.
if [ -z "${MESON_EXE_WRAPPER:-}" ]; then
  grep -q ', --quick; per cut-over each process.s mean time ratio is one sample' "$W/tune.err" \
    && ok "by default --tune measures in 5 processes" || bad "header: $(grep '^# ' "$W/tune.err")"
  mkdir "$W/tmp"
  if TMPDIR="$W/tmp" run "$fcb" --tune --quick --processes 2 -v \
      > "$W/tune2.out" 2> "$W/tune2.err"; then
    ok "fcbench --tune --quick --processes 2 -v runs"
  else
    bad "fcbench --tune --quick --processes 2 failed: $(cat "$W/tune2.err")"
  fi
  grep -q '^# 2 processes x .*each process.s mean time ratio is one sample' "$W/tune2.err" \
    && grep -q 'tune: process 2/2' "$W/tune2.err" && ok "--tune --processes says how it measured" \
    || bad "no process lines: $(cat "$W/tune2.err")"
  # the rep stosb windows (x86_64 memsets that have them) are measured up to the
  # non-temporal threshold, not only on the 256 B - 1 MiB grid: the second window
  # can start above 1 MiB (Zen 5: 4 MiB + 1).  --quick's large sizes: 4, 16, 64 MiB.
  if grep -q '^# rep_stosb_start/stop/high_start' "$W/tune2.out"; then
    nt=$("$info" | awk '$1 == "nt_start" { v = $2; m = 1;
           if (v ~ /K$/) m = 1024; if (v ~ /M$/) m = 1048576; if (v ~ /G$/) m = 1073741824;
           sub(/[KMG]$/, "", v); printf "%.0f\n", v * m }')
    rows=$(sed -n '/^# rep_stosb_start/,/^# [a-z_]*:/p' "$W/tune2.out" | awk '$2 ~ /^[0-9]+$/ { print $2 }')
    big=$(echo "$rows" | awk -v nt="$nt" '$1 > 1048576 && $1 < nt' | wc -l)
    over=$(echo "$rows" | awk -v nt="$nt" '$1 >= nt' | wc -l)
    if [ "$nt" -gt 4194304 ]; then
      [ "$big" -ge 1 ] && [ "$over" -eq 0 ] \
        && ok "--tune measures the rep stosb windows above 1 MiB, below nt_start ($nt)" \
        || bad "rep stosb sizes measured: $(echo $rows) (nt_start $nt)"
    else
      [ "$over" -eq 0 ] && ok "--tune measures no rep stosb size at or above nt_start ($nt)" \
        || bad "rep stosb sizes measured: $(echo $rows) (nt_start $nt)"
    fi
  fi
  # the shared nt_start's lines name their function (memcpy's and memset's at each size)
  ntl=$(sed -n '/^# nt_start/,/^# [a-z_]*:/p' "$W/tune2.out" | grep -E '^#  +[0-9]+ ' || true)
  if [ -n "$ntl" ]; then
    [ "$(echo "$ntl" | grep -cvE '^#  +[0-9]+ (memcpy|memset)  ')" -eq 0 ] \
      && echo "$ntl" | grep -q ' memcpy ' && echo "$ntl" | grep -q ' memset ' \
      && ok "--tune -v names the function on nt_start's lines" \
      || bad "nt_start lines: $ntl"
  fi
  # A measurement that writes: 2 processes (short samples: this checks the file's
  # shape, not the machine).  The body is the row printed, set only where proven.
  if TMPDIR="$W/tmp" run "$fcb" --tune --processes 2 --sample-us 20 --no-progress \
      --out "$W/t2.conf" > "$W/tune3.out" 2> "$W/tune3.err"; then
    ok "fcbench --tune --processes 2 writes a file"
  else
    bad "fcbench --tune --processes 2 failed: $(cat "$W/tune3.err")"
  fi
  head -n 1 "$W/t2.conf" | grep -q "^# libfastcopy tuning 1; cpu: $ident; libfastcopy .*; fcbench --tune --processes 2 " \
    && ok "its first line names the CPU, the version and --processes 2" || bad "first line: $(head -n 1 "$W/t2.conf")"
  sed -n '/^# cpu: /,/^# as a row\|^$/p' "$W/tune3.out" | grep -E '^(# )?[a-z_0-9]+ = ' > "$W/row3"
  grep -E '^(# )?[a-z_0-9]+ = ' "$W/t2.conf" > "$W/body3"
  cmp -s "$W/row3" "$W/body3" && [ -s "$W/body3" ] && ok "the file's body is the printed row" \
    || bad "body and row differ: $(diff "$W/row3" "$W/body3")"
  set_lines=$(grep -cE '^[a-z_0-9]+ = ' "$W/t2.conf" || true)
  grep -q "^wrote $W/t2.conf (.*; $set_lines values\{0,1\} set)" "$W/tune3.out" \
    && [ "$(grep -E '^[a-z_0-9]+ = ' "$W/t2.conf" | grep -cv '  # measured: ')" -eq 0 ] \
    && ok "only proven values are set, each with where it was measured ($set_lines)" \
    || bad "set lines: $(grep -E '^[a-z_0-9]+ = ' "$W/t2.conf") / $(tail -n 5 "$W/tune3.out")"
  FASTCOPY_TUNING=$W/t2.conf run "$info" > "$W/info2" 2> "$W/err2"
  [ ! -s "$W/err2" ] && ok "the written file loads without a word" || bad "loading it: $(cat "$W/err2")"
  [ -z "$(ls -A "$W/tmp")" ] && ok "the children's files are removed" \
    || bad "left in TMPDIR: $(ls -A "$W/tmp")"
  # one process proves nothing across processes: the file sets nothing
  if TMPDIR="$W/tmp" run "$fcb" --tune --processes 1 --sample-us 20 --no-progress \
      --out "$W/t3.conf" > "$W/tune4.out" 2> "$W/tune4.err" && ! head -n 1 "$W/t3.conf" | grep -q processes \
      && ! grep -q 'tune: process ' "$W/tune4.err" && ! grep -qE '^[a-z_0-9]+ = ' "$W/t3.conf" \
      && grep -q 'one process proves nothing' "$W/tune4.out"; then
    ok "--tune --processes 1 measures in this process and sets nothing"
  else
    bad "--tune --processes 1: $(cat "$W/t3.conf") $(cat "$W/tune4.err")"
  fi
  # an old file (tunables first, the variants after, no "measured" comments) still loads
  { cat "$W/hdr"; echo "# nt_start = 24M  (the policy's)"; echo "alias_backward_stop = 8K";
    echo "# memcpy = avx512  (the policy's)"; echo "memmove = generic"; } > "$W/old.conf"
  FASTCOPY_TUNING=$W/old.conf run "$info" > "$W/info3" 2> "$W/err3"
  [ ! -s "$W/err3" ] && grep -Eq '^  memmove  generic +tuning file' "$W/info3" \
    && { [ "$(uname -m)" != x86_64 ] || grep -Eq '^  alias_backward_stop +8K +tuning file' "$W/info3"; } \
    && ok "a tuning file in the old layout still applies" || bad "old layout: $(cat "$W/err3")"
fi
if [ -n "${MESON_EXE_WRAPPER:-}" ]; then
  grep -q "emulator (QEMU): its timings mean nothing" "$W/tune.err" \
    && ok "--tune says an emulator's timings mean nothing" || bad "no emulator warning: $(cat "$W/tune.err")"
else
  ! grep -q "emulator" "$W/tune.err" && ok "no emulator warning natively" || bad "emulator warning natively"
fi
FASTCOPY_TUNING=$W/t.conf run "$info" > "$W/info" 2> "$W/err"
[ ! -s "$W/err" ] && ok "the printed row, as a file, loads without a word" || bad "loading it: $(cat "$W/err")"
grep -q "$W/t.conf (measured on this CPU with libfastcopy" "$W/info" \
  && ok "fastcopy-info names the file" || bad "fastcopy-info: $(grep -A1 'Tuning' "$W/info")"
# every active line of the file shows as "tuning file" in fastcopy-info
grep -v '^#' "$W/t.conf" | sed -n 's/^\([a-z_0-9]*\) = \(.*\)$/\1 \2/p' > "$W/active"
while read -r key val; do
  grep -Eq "^  $key +$val +tuning file|^  $key +$val +tuning file" "$W/info" \
    && ok "$key = $val applied" || bad "$key = $val not shown as from the tuning file"
done < "$W/active"

arch=$(sed -n 's/^libfastcopy [^ ]* (\(.*\))$/\1/p' "$W/info")
# the "Why" section's line: "  memcpy   avx512   policy       ...", with no file
FASTCOPY_TUNING= run "$info" > "$W/info0" 2>/dev/null
default_memcpy=$(sed -n 's/^  memcpy   \([a-z0-9_]*\) *\(policy\|tuning file\|environment\) .*/\1/p' "$W/info0")
[ -n "$default_memcpy" ] && ok "fastcopy-info names memcpy's variant ($default_memcpy)" \
  || bad "no memcpy line in fastcopy-info's Why section"
# a variant every build has, and a threshold of this architecture (if any)
case "$arch" in
  x86_64) key=rep_movsb_start good=8K range=100 ;;
  aarch64) key=zva_start good=4K range=8 ;;
  *) key= good= range= ;;
esac
info_of() { # FILE [ENV...]: fastcopy-info with FASTCOPY_TUNING=FILE
  f=$1; shift
  env FASTCOPY_TUNING="$f" "$@" ${MESON_EXE_WRAPPER:-} "$info" > "$W/info" 2> "$W/err"
}
lines() { grep -c '^libfastcopy: ' "$W/err"; }
memcpy_is() { grep -Eq "^  memcpy   $1 +(policy|tuning file|environment) " "$W/info"; }

{ cat "$W/hdr"; printf 'memcpy = generic\r\n'; [ -n "$key" ] && printf '%s = %s\r\n' "$key" "$good"; } > "$W/crlf"
info_of "$W/crlf"
memcpy_is generic && [ "$(lines)" -eq 0 ] && ok "CRLF lines apply" \
  || bad "CRLF: $(cat "$W/err"; grep '^  memcpy ' "$W/info")"
grep -q '^  memcpy   generic  *tuning file' "$W/info" && ok "the variant's source is the tuning file" \
  || bad "variant source: $(grep '^  memcpy ' "$W/info")"
if [ -n "$key" ]; then
  grep -Eq "^  $key +$good +tuning file" "$W/info" && ok "$key = $good from the file" \
    || bad "$key: $(grep "^  $key" "$W/info")"
  info_of "$W/crlf" "FASTCOPY_$(echo $key | tr a-z A-Z)=16K"
  grep -Eq "^  $key +16K +environment" "$W/info" && ok "FASTCOPY_* wins over the file" \
    || bad "precedence: $(grep "^  $key" "$W/info")"
fi

# a 0 on this architecture is a setting (never backward; branch-free), shown as 0
if [ "$arch" = x86_64 ]; then
  { cat "$W/hdr"; echo "alias_backward_stop = 0"; echo "memset_masked_max = 0"; } > "$W/zero"
  info_of "$W/zero"
  [ "$(lines)" -eq 0 ] && grep -Eq "^  alias_backward_stop +0 +tuning file" "$W/info" \
    && grep -Eq "^  memset_masked_max +0 +tuning file" "$W/info" \
    && ok "a 0 from the file shows as 0, from the tuning file" \
    || bad "zero: $(cat "$W/err"; grep -E '^  (alias_backward_stop|memset_masked_max) ' "$W/info")"
fi

# former names (libfastcopy(7), FORMER NAMES): a file written before the rename
# loads unchanged and without a word; fastcopy-info says the names now; a key
# given under both names takes the current one's value, whichever line is first
case "$arch" in
  x86_64) old=rep_movsb_threshold new=rep_movsb_start oldenv=REP_MOVSB_THRESHOLD ;;
  aarch64) old=zva_threshold new=zva_start oldenv=ZVA_THRESHOLD ;;
  *) old= ;;
esac
if [ -n "$old" ]; then
  { cat "$W/hdr"; echo "$old = 8K"; } > "$W/former"
  info_of "$W/former"
  [ "$(lines)" -eq 0 ] && grep -Eq "^  $new +8K +tuning file" "$W/info" && ! grep -q "$old" "$W/info" \
    && ok "a former key ($old) applies, silently, shown as $new" \
    || bad "former key: $(cat "$W/err"; grep -E "^  ($new|$old) " "$W/info")"
  { cat "$W/hdr"; echo "$new = 16K"; echo "$old = 8K"; } > "$W/both1"
  { cat "$W/hdr"; echo "$old = 8K"; echo "$new = 16K"; } > "$W/both2"
  for both in both1 both2; do
    info_of "$W/$both"
    [ "$(lines)" -eq 0 ] && grep -Eq "^  $new +16K +tuning file" "$W/info" \
      && ok "$both: $new wins over $old, silently" \
      || bad "$both: $(cat "$W/err"; grep -E "^  $new " "$W/info")"
  done
  info_of "$W/former" "FASTCOPY_$oldenv=16K"
  [ "$(lines)" -eq 0 ] && grep -Eq "^  $new +16K +environment" "$W/info" \
    && ok "FASTCOPY_$oldenv wins over the file, as the current name would" \
    || bad "former variable over the file: $(cat "$W/err"; grep -E "^  $new " "$W/info")"
fi
if [ "$arch" = x86_64 ]; then
  { cat "$W/hdr"; echo "memcpy = avx2amd"; } > "$W/former-variant"
  info_of "$W/former-variant"
  if grep -q "variant not usable" "$W/err"; then
    echo "# former variant name: avx2_keepupper not usable here: skipped"
  else
    [ "$(lines)" -eq 0 ] && memcpy_is avx2_keepupper && ! grep -q avx2amd "$W/info" \
      && ok "a former variant name (memcpy = avx2amd) applies, shown as avx2_keepupper" \
      || bad "former variant: $(cat "$W/err"; grep '^  memcpy ' "$W/info")"
  fi
fi

: > "$W/empty"
info_of "$W/empty"
grep -q "tuning file $W/empty: empty; ignored" "$W/err" && [ "$(lines)" -eq 1 ] \
  && memcpy_is "$default_memcpy" && ok "empty file: one line, ignored" || bad "empty: $(cat "$W/err")"

{ printf '\177ELF\0\0\0binary'; head -c 2000 /dev/zero; printf '\nmemcpy = generic\n'; } > "$W/binary"
info_of "$W/binary"
[ "$(lines)" -eq 1 ] && memcpy_is "$default_memcpy" && grep -q "not a libfastcopy tuning file" "$W/err" \
  && ok "binary file: one line, ignored" || bad "binary: $(cat "$W/err")"

{ cat "$W/hdr"; echo "memcpy = generic"; i=0; while [ $i -lt 1200 ]; do echo "# padding padding"; i=$((i+1)); done; } > "$W/big"
info_of "$W/big"
[ "$(lines)" -eq 1 ] && memcpy_is "$default_memcpy" && grep -q "larger than 16 KiB" "$W/err" \
  && ok "oversized file: one line, ignored" || bad "oversized: $(cat "$W/err")"

{ cat "$W/hdr"; printf 'memmove = generic\nmemcpy = gene'; } > "$W/trunc"
info_of "$W/trunc"
[ "$(lines)" -eq 1 ] && memcpy_is "$default_memcpy" && grep -Eq "^  memmove  generic +tuning file" "$W/info" \
  && grep -q "line 3: no newline at the end" "$W/err" \
  && ok "truncated mid-line: the last line skipped, the rest applies" || bad "truncated: $(cat "$W/err")"

{ cat "$W/hdr"; echo "memcpy = generic"; echo "memcpy = $default_memcpy"; } > "$W/dup"
info_of "$W/dup"
[ "$(lines)" -eq 1 ] && memcpy_is generic && grep -q "line 3: memcpy given again (first at line 2)" "$W/err" \
  && ok "duplicate key: one line, the first stands" || bad "duplicate: $(cat "$W/err")"

{ cat "$W/hdr"; echo "no_such_key = 4K"; echo "memcpy = generic  # a comment"; echo "memset = nosuch"; echo "just words"; } > "$W/unknown"
info_of "$W/unknown"
# three bad lines: the process prints the first, naming the 2 more that
# fastcopy-info's report lists
[ "$(lines)" -eq 1 ] && memcpy_is generic && grep -q 'line 2: unknown key "no_such_key".*(and 2 more: fastcopy-info lists them)$' "$W/err" \
  && grep -q '^  libfastcopy: .*line 2: unknown key "no_such_key"' "$W/info" \
  && grep -q "^  libfastcopy: .*line 4: memset = nosuch: unknown variant" "$W/info" \
  && grep -q '^  libfastcopy: .*line 5: not "key = value"' "$W/info" \
  && ok "unknown key, unknown variant, not key = value: one line printed, each listed, the rest applies" \
  || bad "unknown: $(cat "$W/err"; sed -n '/^Messages/,/^$/p' "$W/info")"

if [ -n "$key" ]; then
  { cat "$W/hdr"; echo "$key = $range"; echo "memcpy = generic"; } > "$W/range"
  info_of "$W/range"
  [ "$(lines)" -eq 1 ] && memcpy_is generic && grep -q "line 2: $key = $range: not a size of" "$W/err" \
    && grep -Eq "^  $key +[^ ]+ +policy" "$W/info" \
    && ok "value out of range: one line, the policy's value stands" || bad "range: $(cat "$W/err")"
fi

sed '1s/cpu: [^;]*;/cpu: x86_64 Other family 99 model 1 stepping 0, L1d 1K, L2 1K, L3 1K;/' "$W/crlf" > "$W/other"
info_of "$W/other"
[ "$(lines)" -eq 1 ] && memcpy_is "$default_memcpy" && grep -q "measured on another CPU" "$W/err" \
  && grep -q "ignored: measured on another CPU" "$W/info" \
  && ok "another CPU's file: one line, ignored as a whole" || bad "other CPU: $(cat "$W/err")"

info_of "$W"
[ "$(lines)" -eq 1 ] && grep -q "not a regular file; ignored" "$W/err" && ok "a directory: one line, ignored" \
  || bad "directory: $(cat "$W/err")"
if mkfifo "$W/fifo" 2>/dev/null; then
  if FASTCOPY_TUNING=$W/fifo timeout 20 ${MESON_EXE_WRAPPER:-} "$info" > "$W/info" 2> "$W/err"; then
    grep -q "not a regular file; ignored" "$W/err" && ok "a FIFO: does not block, ignored" \
      || bad "FIFO: $(cat "$W/err")"
  else
    bad "a FIFO as the tuning file blocked or failed"
  fi
fi
info_of "$W/no-such-file"
[ "$(lines)" -eq 1 ] && grep -q "does not exist; ignored" "$W/err" && ok "a missing file: one line" \
  || bad "missing: $(cat "$W/err")"
if [ "$(id -u)" -ne 0 ]; then
  cp "$W/crlf" "$W/unreadable" && chmod 000 "$W/unreadable"
  info_of "$W/unreadable"
  [ "$(lines)" -eq 1 ] && grep -q "cannot be read" "$W/err" && memcpy_is "$default_memcpy" \
    && ok "an unreadable file: one line, ignored" || bad "unreadable: $(cat "$W/err")"
elif [ -x /usr/bin/setpriv ]; then
  # root reads any file: read it as nobody
  chmod 755 "$W" && cp "$W/crlf" "$W/unreadable" && chmod 000 "$W/unreadable"
  env FASTCOPY_TUNING="$W/unreadable" /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups \
    ${MESON_EXE_WRAPPER:-} "$info" > "$W/info" 2> "$W/err"
  [ "$(lines)" -eq 1 ] && grep -q "cannot be read" "$W/err" && memcpy_is "$default_memcpy" \
    && ok "an unreadable file (read as nobody): one line, ignored" || bad "unreadable: $(cat "$W/err")"
else
  echo "# unreadable file: skipped (root without setpriv reads any file)"
fi
info_of ""
grep -q "none (FASTCOPY_TUNING is empty)" "$W/info" && [ ! -s "$W/err" ] \
  && ok "FASTCOPY_TUNING= (empty) reads no file" || bad "empty FASTCOPY_TUNING: $(cat "$W/err")"

# --- AT_SECURE: root, setpriv, not under an emulator ---------------------------
if [ -n "$psel" ] && [ "$(id -u)" -eq 0 ] && [ -x /usr/bin/setpriv ] && [ -z "${MESON_EXE_WRAPPER:-}" ] \
   && [ ! -e /etc/fastcopy/tuning.conf ]; then
  mkdir -p "$W/s" && chmod 755 "$W" "$W/s" && cp "$psel" "$W/s/psel" && chmod 4755 "$W/s/psel"
  chmod 644 "$W/crlf"
  secure() { env FASTCOPY_TUNING="$W/crlf" /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups "$W/s/psel" 2>&1; }
  out=$(secure)
  case "$out" in
    *"error while loading"*) echo "# AT_SECURE: the setuid copy cannot load the library: skipped" ;;
    *)
      echo "$out" | grep -q "^memcpy=$default_memcpy " && ! echo "$out" | grep -q libfastcopy: \
        && ok "AT_SECURE: FASTCOPY_TUNING ignored" || bad "AT_SECURE honoured FASTCOPY_TUNING: $out"
      made_dir=0; [ -d /etc/fastcopy ] || { mkdir -p /etc/fastcopy && made_dir=1; }
      trap 'rm -f /etc/fastcopy/tuning.conf; [ $made_dir -eq 1 ] && rmdir /etc/fastcopy; rm -rf "$W"' EXIT
      cp "$W/crlf" /etc/fastcopy/tuning.conf && chown 0:0 /etc/fastcopy/tuning.conf && chmod 644 /etc/fastcopy/tuning.conf
      out=$(secure)
      echo "$out" | grep -q "^memcpy=generic " && ok "AT_SECURE: a root-owned system file is honoured" \
        || bad "AT_SECURE, root-owned 0644 system file: $out"
      chmod 664 /etc/fastcopy/tuning.conf
      out=$(secure)
      echo "$out" | grep -q "^memcpy=$default_memcpy " && echo "$out" | grep -q "writable by group or others" \
        && ok "AT_SECURE: a group-writable system file is not" || bad "AT_SECURE, 0664 system file: $out"
      # and without privileges the same system file is read (FASTCOPY_TUNING unset)
      chmod 644 /etc/fastcopy/tuning.conf
      run "$info" > "$W/info" 2> "$W/err"
      grep -q "^  /etc/fastcopy/tuning.conf (measured on this CPU" "$W/info" && memcpy_is generic \
        && ok "the system file is read when FASTCOPY_TUNING is unset" || bad "system file: $(grep -A1 Tuning "$W/info")"
      rm -f /etc/fastcopy/tuning.conf ;;
  esac
else
  echo "# AT_SECURE checks: skipped (need root, setpriv, no emulator, no /etc/fastcopy/tuning.conf)"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
