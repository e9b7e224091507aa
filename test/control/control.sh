#!/bin/sh
# control.sh CONTROL_PROG FASTCOPY_INFO STATIC_PROG - runtime control, end to end
# (src/control.c).  CONTROL_PROG links libfastcopy.so, then libnext_count.so, which
# stands for the C library (next_count.c): its memcpy, memmove and memset count
# their calls.  Checked: enabled, no call reaches them; FASTCOPY_DISABLE=1 sends
# every exported name there (the derived ones, mempcpy, bcopy, the _chk forms...,
# through the base functions), while a call made before libfastcopy's constructor
# still runs libfastcopy's kernel; 0, a bad value (one line), FASTCOPY_QUIET;
# at most one diagnostic line per process, naming how many more fastcopy-info
# lists; a static program (STATIC_PROG, libfastcopy.a) keeps libfastcopy's and
# says so.  As root, natively: a setuid copy ignores FASTCOPY_DISABLE, and in a
# private mount namespace (unshare -m; an overlay on /etc, nothing of the real one
# is written) /etc/fastcopy/disable disables every process, setuid ones included,
# /etc/fastcopy/quiet silences them, and a system-wide tuning file measured on
# another CPU prints nothing (fastcopy-info reports it).  Under an emulator
# (MESON_EXE_WRAPPER) the programs run through it.  Prints "N passed, N failed".
set -u
prog=$1 info=$2 static=$3
. "$(dirname "$0")/../checks.sh"
run() { ${MESON_EXE_WRAPPER:-} "$@"; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" "$2"; }

# --- enabled ------------------------------------------------------------------
run "$prog" > "$W/on.out" 2> "$W/on.err"
rc=$?
if [ $rc -eq 0 ] && grep -q '^next: memcpy=0 memmove=0 memset=0 early=OK/0 ' "$W/on.out" \
    && [ ! -s "$W/on.err" ]; then
  ok "enabled: no call reaches the next memcpy/memmove/memset"
else
  bad "enabled (exit $rc): $(cat "$W/on.out" "$W/on.err")"
fi
case $(field bound "$W/on.out") in *libfastcopy*) ok "the program's memcpy is libfastcopy's" ;;
  *) bad "memcpy bound to $(field bound "$W/on.out")" ;; esac

# --- FASTCOPY_DISABLE=1 ----------------------------------------------------------
# per loop round (11 sizes): 5 copies, 3 moves, 5 sets + the clearing memset
FASTCOPY_DISABLE=1 run "$prog" > "$W/off.out" 2> "$W/off.err"
rc=$?
mc=$(field memcpy "$W/off.out") mm=$(field memmove "$W/off.out") ms=$(field memset "$W/off.out")
if [ $rc -eq 0 ] && [ "${mc:-0}" -ge 55 ] && [ "${mm:-0}" -ge 33 ] && [ "${ms:-0}" -ge 66 ] \
    && [ ! -s "$W/off.err" ]; then
  ok "FASTCOPY_DISABLE=1: every name reaches the next library's functions ($mc/$mm/$ms calls)"
else
  bad "FASTCOPY_DISABLE=1 (exit $rc): $(cat "$W/off.out" "$W/off.err")"
fi
# (musl runs libfastcopy's constructor first: the early call is a late one there)
if [ -n "${FC_MUSL:-}" ]; then
  grep -q ' early=OK/[01] ' "$W/off.out" && ok "musl: the constructor-time call is right" \
    || bad "early call: $(cat "$W/off.out")"
else
  grep -q ' early=OK/0 ' "$W/off.out" && ok "a call before libfastcopy's constructor runs libfastcopy's kernel" \
    || bad "early call: $(cat "$W/off.out")"
fi
case $(field bound "$W/off.out") in *libfastcopy*) ok "disabled, the names are still libfastcopy's" ;;
  *) bad "disabled: memcpy bound to $(field bound "$W/off.out")" ;; esac
FASTCOPY_DISABLE=1 run "$info" > "$W/info.off" 2>&1
grep -q '^  disabled by FASTCOPY_DISABLE=1: the exported names call the C library' "$W/info.off" \
  && ok "fastcopy-info: disabled by FASTCOPY_DISABLE=1" \
  || bad "fastcopy-info: $(sed -n '/^Runtime/,/^$/p' "$W/info.off")"
FASTCOPY_DISABLE=0 run "$prog" > "$W/zero.out" 2> "$W/zero.err"
grep -q 'memcpy=0 memmove=0 memset=0' "$W/zero.out" && [ ! -s "$W/zero.err" ] \
  && ok "FASTCOPY_DISABLE=0: enabled, silently" || bad "FASTCOPY_DISABLE=0: $(cat "$W/zero.out" "$W/zero.err")"
FASTCOPY_DISABLE=yes run "$prog" > "$W/yes.out" 2> "$W/yes.err"
if grep -q 'memcpy=0 memmove=0 memset=0' "$W/yes.out" && [ "$(wc -l < "$W/yes.err")" -eq 1 ] \
    && grep -q '^libfastcopy: FASTCOPY_DISABLE=yes: not 0 or 1; ignored$' "$W/yes.err"; then
  ok "FASTCOPY_DISABLE=yes: one line, enabled"
else
  bad "FASTCOPY_DISABLE=yes: $(cat "$W/yes.out" "$W/yes.err")"
fi

# --- one line per process ---------------------------------------------------------
bads="FASTCOPY_MEMCPY=nonesuch FASTCOPY_NT_START=zzz FASTCOPY_BOGUS=1"
env $bads ${MESON_EXE_WRAPPER:-} "$prog" > "$W/many.out" 2> "$W/many.err"
if [ "$(wc -l < "$W/many.err")" -eq 1 ] && grep -q '^libfastcopy: FASTCOPY_.*(and 2 more: fastcopy-info lists them)$' "$W/many.err" \
    && grep -q 'memcpy=0' "$W/many.out"; then
  ok "three bad settings: one line on stderr, naming 2 more"
else
  bad "three bad settings: $(cat "$W/many.err")"
fi
env $bads ${MESON_EXE_WRAPPER:-} "$info" > "$W/many.info" 2> /dev/null
n=$(sed -n '/^Messages/,/^$/p' "$W/many.info" | grep -c '^  libfastcopy: ')
[ "$n" -eq 3 ] && ok "fastcopy-info lists all three" || bad "fastcopy-info lists $n: $(sed -n '/^Messages/,/^$/p' "$W/many.info")"
env $bads FASTCOPY_QUIET=1 ${MESON_EXE_WRAPPER:-} "$prog" > "$W/quiet.out" 2> "$W/quiet.err"
[ ! -s "$W/quiet.err" ] && grep -q 'memcpy=0' "$W/quiet.out" && ok "FASTCOPY_QUIET=1: no line" \
  || bad "FASTCOPY_QUIET=1: $(cat "$W/quiet.err")"
env $bads FASTCOPY_QUIET=1 ${MESON_EXE_WRAPPER:-} "$info" > "$W/quiet.info" 2> /dev/null
grep -q '^Messages (none printed: FASTCOPY_QUIET=1)' "$W/quiet.info" && ok "fastcopy-info says they were silenced" \
  || bad "fastcopy-info under FASTCOPY_QUIET: $(grep '^Messages' "$W/quiet.info")"

# --- a static program ---------------------------------------------------------------
FASTCOPY_DISABLE=1 run "$static" > "$W/st.out" 2> "$W/st.err"
rc=$?
if [ $rc -eq 0 ] && [ "$(wc -l < "$W/st.err")" -eq 1 ] \
    && grep -q '^libfastcopy: FASTCOPY_DISABLE=1: a statically linked program has no other memcpy, memmove and memset; libfastcopy.s stay$' "$W/st.err"; then
  ok "static program, FASTCOPY_DISABLE=1: libfastcopy's stay, one line says so"
else
  bad "static program (exit $rc): $(cat "$W/st.out" "$W/st.err")"
fi

# --- as root, natively: AT_SECURE and the system files --------------------------------
# (musl's loader ignores this program's RUNPATH when it is setuid: none there)
if [ -n "${MESON_EXE_WRAPPER:-}" ] || [ -n "${FC_MUSL:-}" ] || [ "$(id -u)" -ne 0 ] \
    || ! command -v setpriv > /dev/null || ! command -v unshare > /dev/null; then
  echo "# AT_SECURE and /etc/fastcopy checks: skipped (need root, setpriv, unshare, no emulator, glibc)"
  echo "$pass passed, $fail failed"
  [ "$fail" -eq 0 ]
  exit
fi
mkdir -p "$W/s" && chmod 755 "$W" "$W/s" && cp "$prog" "$W/s/prog" && chmod 4755 "$W/s/prog"
secure() { /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups "$W/s/prog"; }
FASTCOPY_DISABLE=1 secure > "$W/sec.out" 2> "$W/sec.err"
if grep -q 'memcpy=0 memmove=0 memset=0' "$W/sec.out" && [ ! -s "$W/sec.err" ]; then
  ok "setuid program: FASTCOPY_DISABLE=1 ignored (AT_SECURE)"
else
  bad "setuid program, FASTCOPY_DISABLE=1: $(cat "$W/sec.out" "$W/sec.err")"
fi

# A private mount namespace whose /etc is an overlay on the real one: the files
# written there exist for the commands run inside only.
cpu_other='# libfastcopy tuning 1; cpu: x86_64 other family 1 model 2 stepping 3, L1d 1, L2 2, L3 3; libfastcopy 0.1.0'
cat > "$W/ns.sh" <<EOF
set -u
mkdir -p "$W/up" "$W/work"
mount -t overlay overlay -o lowerdir=/etc,upperdir="$W/up",workdir="$W/work" /etc || exit 77
mkdir -p /etc/fastcopy
: > /etc/fastcopy/disable
echo "== disable"; "$prog" 2>&1
echo "== disable setuid"; FASTCOPY_DISABLE=0 /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups "$W/s/prog" 2>&1
echo "== disable info"; "$info" 2>&1 | grep '^  disabled by'
rm /etc/fastcopy/disable
: > /etc/fastcopy/quiet
echo "== quiet"; env $bads "$prog" 2>&1
rm /etc/fastcopy/quiet
echo '$cpu_other' > /etc/fastcopy/tuning.conf
echo "== other cpu"; "$prog" 2>&1
echo "== other cpu info"; "$info" 2>&1 | sed -n '/^Tuning file/{n;p}'
echo "== other cpu explicit"; FASTCOPY_TUNING=/etc/fastcopy/tuning.conf "$prog" 2>&1
echo "== end"
EOF
unshare -m sh "$W/ns.sh" > "$W/ns.out" 2>&1
rc=$?
if [ $rc -eq 77 ] || ! grep -q '^== end' "$W/ns.out"; then
  echo "# /etc/fastcopy checks: skipped (no overlay mount in a private namespace: $(head -n 3 "$W/ns.out"))"
else
  sect() { sed -n "/^== $1\$/,/^== /p" "$W/ns.out" | sed '1d;$d'; }
  s=$(sect disable)
  echo "$s" | grep -q '^next: memcpy=[1-9]' && ok "/etc/fastcopy/disable: the program calls the next library's functions" \
    || bad "/etc/fastcopy/disable: $s"
  s=$(sect "disable setuid")
  echo "$s" | grep -q '^next: memcpy=[1-9]' && ok "/etc/fastcopy/disable: a setuid program too (FASTCOPY_DISABLE=0 cannot undo it)" \
    || bad "/etc/fastcopy/disable, setuid: $s"
  s=$(sect "disable info")
  echo "$s" | grep -q "disabled by /etc/fastcopy/disable" && ok "fastcopy-info: disabled by /etc/fastcopy/disable" \
    || bad "fastcopy-info: $s"
  s=$(sect quiet)
  echo "$s" | grep -q '^next: memcpy=0' && ! echo "$s" | grep -q '^libfastcopy:' \
    && ok "/etc/fastcopy/quiet: no line" || bad "/etc/fastcopy/quiet: $s"
  s=$(sect "other cpu")
  [ "$(echo "$s" | grep -c '^libfastcopy:')" -eq 0 ] && ok "a system tuning file of another CPU: no line" \
    || bad "system tuning file of another CPU: $s"
  s=$(sect "other cpu info")
  echo "$s" | grep -q 'ignored: measured on another CPU' && ok "fastcopy-info reports it ignored" \
    || bad "fastcopy-info, other CPU's file: $s"
  s=$(sect "other cpu explicit")
  [ "$(echo "$s" | grep -c '^libfastcopy: tuning file .*measured on another CPU')" -eq 1 ] \
    && ok "the same file named by FASTCOPY_TUNING: one line" || bad "FASTCOPY_TUNING, other CPU: $s"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
