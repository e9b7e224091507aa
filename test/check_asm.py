#!/usr/bin/env python3
"""check_asm.py - what the assembly conventions (src/fc_asm.h) promise, checked on
the built library.  It reads ELF files (any architecture, little-endian 64-bit) and
runs none of them, so cross builds run it on the build machine.

  check_asm.py unwind LIB.so
      Every function of the library (a FUNC symbol with a size, in .text) lies
      inside a call-frame description (an .eh_frame FDE), so debuggers, profilers
      and crash reporters can unwind through it.  The toolchain's start-file
      functions (crtbeginS.o: built without unwind tables) are not ours.

  check_asm.py notes FEATURES LIB.a LIB.so CC [CC args...]
      FEATURES, e.g. IBT,SHSTK (x86_64, -fcf-protection=full) or BTI,PAC (aarch64,
      -mbranch-protection=standard): what the build's flags enable.
      1. every object of LIB.a carries them in its .note.gnu.property, and every
         global function in it starts with a landing pad when IBT/BTI is on;
      2. those objects linked into a shared object without the toolchain's start
         files carry them too (the linker keeps a property only when every input
         has it);
      3. LIB.so carries them whenever the toolchain's own crti.o does (Debian 12's
         does not, so no shared object it links carries them: then said, not
         failed).

  check_asm.py lines LIB.so
      x86_64: the avx512 memcpy/memmove kernel (fc_memmove_x86_avx512, and the
      exported memcpy and memmove where they are that kernel) starts a 64-byte line
      and its first ret, the end of the 0-63 B path, lies in that line: with the ret
      in the next line those copies took 1.12x the time (src/x86_64/memmove_avx512.S).
      The same for the avx512_1branch memset (fc_memset_x86_avx512_1branch, and the
      exported memset where it is that kernel: its first instructions compute the
      page-end bit, "lea 0x3f(%rdi),%ecx"): its 0-64 B path ends in its first line;
      with the ret in the next line those memsets took 1.06x the time, as slow as
      the avx512 entry's (src/x86_64/memset_avx512.S).
      A build whose functions start with endbr64 cannot keep this: said, not failed.
"""
import os
import re
import struct
import subprocess
import sys
import tempfile

PASS = FAIL = 0


def check(ok, what):
    global PASS, FAIL
    if ok:
        PASS += 1
    else:
        FAIL += 1
        print("FAIL: " + what)


def readelf(*args):
    return subprocess.run(["readelf"] + list(args), check=True, capture_output=True,
                          text=True).stdout


# Names the toolchain's start files put in .text of every shared object.
START_FILES = {"deregister_tm_clones", "register_tm_clones", "__do_global_dtors_aux",
               "frame_dummy", "call_weak_fn"}


def unwind(so):
    text = [l.split() for l in readelf("-SW", so).splitlines()]
    text_ndx = None
    for f in text:
        if len(f) > 2 and f[0] == "[" and f[2] == ".text":
            text_ndx = f[1].rstrip("]")
        elif len(f) > 1 and f[0].startswith("[") and f[1] == ".text":
            text_ndx = f[0].strip("[]")
    check(text_ndx is not None, "%s: no .text section" % so)
    fdes = []
    for m in re.finditer(r"FDE cie=\S+ pc=([0-9a-f]+)\.\.([0-9a-f]+)",
                         readelf("--debug-dump=frames", so)):
        fdes.append((int(m.group(1), 16), int(m.group(2), 16)))
    check(len(fdes) > 0, "%s: no FDE at all" % so)
    seen = set()
    in_symtab = False
    for line in readelf("-sW", so).splitlines():
        if line.startswith("Symbol table"):
            in_symtab = "'.symtab'" in line
            continue
        f = line.split()
        if not in_symtab or len(f) < 8 or f[3] != "FUNC" or f[6] != text_ndx:
            continue
        addr, size, name = int(f[1], 16), int(f[2], 0), f[7].split("@")[0]
        if size == 0 or name in START_FILES or (addr, name) in seen:
            continue
        seen.add((addr, name))
        covered = any(lo <= addr and addr + size <= hi for lo, hi in fdes)
        check(covered, "%s: %s (0x%x, %d bytes) has no call-frame description"
              % (so, name, addr, size))
    check(len(seen) > 10, "%s: only %d functions found" % (so, len(seen)))
    print("%d functions, %d FDEs" % (len(seen), len(fdes)))


def ar_members(path):
    """(name, bytes) of each member of a GNU ar archive."""
    data = open(path, "rb").read()
    assert data[:8] == b"!<arch>\n", path
    pos, names, out = 8, b"", []
    while pos + 60 <= len(data):
        hdr = data[pos:pos + 60]
        name, size = hdr[:16].decode().strip(), int(hdr[48:58])
        body = data[pos + 60:pos + 60 + size]
        pos += 60 + size + (size & 1)
        if name == "//":
            names = body
        elif name in ("/", "/SYM64/"):
            continue
        else:
            if name.startswith("/"):
                off = int(name[1:])
                name = names[off:names.index(b"/\n", off)].decode()
            out.append((name.rstrip("/"), body))
    return out


def global_functions(obj):
    """(name, first 4 bytes) of each defined global function of an ELF64 LE object."""
    if obj[:4] != b"\x7fELF" or obj[4] != 2 or obj[5] != 1:
        return None
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", obj, 0x3a)
    secs = [struct.unpack_from("<IIQQQQIIQQ", obj, shoff + i * shentsize) for i in range(shnum)]
    out = []
    for s in secs:
        if s[1] != 2:  # SHT_SYMTAB
            continue
        strtab = secs[s[6]]
        for k in range(s[5] // s[9]):
            st_name, st_info, _, st_shndx, st_value, st_size = struct.unpack_from(
                "<IBBHQQ", obj, s[4] + k * s[9])
            if st_info >> 4 != 1 or st_info & 15 != 2 or st_shndx == 0 or st_shndx >= 0xff00:
                continue  # not a defined STB_GLOBAL STT_FUNC
            end = obj.index(b"\0", strtab[4] + st_name)
            name = obj[strtab[4] + st_name:end].decode()
            sec = secs[st_shndx]
            if sec[1] == 8:  # SHT_NOBITS
                continue
            start = sec[4] + st_value
            out.append((name, obj[start:start + 4]))
    return out


# First instructions that are landing pads for an indirect call.
PADS = {
    "IBT": [bytes.fromhex("f30f1efa")],                       # endbr64
    "BTI": [struct.pack("<I", w) for w in (0xd503245f,        # bti c
                                             0xd50324df,        # bti jc
                                             0xd503233f,        # paciasp
                                             0xd503237f)],      # pacibsp
}


def properties(text):
    m = re.search(r"Properties: (?:x86|AArch64) feature: ([^\n]*)", text)
    return set(p.strip() for p in m.group(1).split(",")) if m else set()


def notes(features, lib_a, lib_so, cc):
    want = set(features.split(","))
    members = ar_members(lib_a)
    check(len(members) > 5, "%s: only %d members" % (lib_a, len(members)))
    with tempfile.TemporaryDirectory() as tmp:
        for name, body in members:
            path = os.path.join(tmp, "m.o")
            open(path, "wb").write(body)
            have = properties(readelf("-n", path))
            check(want <= have, "%s(%s): .note.gnu.property has %s, want %s"
                  % (lib_a, name, sorted(have) or "nothing", sorted(want)))
            for feat, pads in PADS.items():
                if feat not in want:
                    continue
                for fn, first in global_functions(body) or []:
                    check(first in pads, "%s(%s): %s does not start with a %s landing pad"
                          " (%s)" % (lib_a, name, fn, feat, first.hex()))
        so = os.path.join(tmp, "nostart.so")
        subprocess.run(cc + ["-shared", "-nostdlib", "-o", so, "-Wl,--whole-archive", lib_a,
                             "-Wl,--no-whole-archive"], check=True)
        have = properties(readelf("-n", so))
        check(want <= have, "the library's objects linked without start files: %s, want %s"
              % (sorted(have) or "nothing", sorted(want)))
    crti = subprocess.run(cc + ["-print-file-name=crti.o"], check=True, capture_output=True,
                          text=True).stdout.strip()
    crti_has = os.path.isfile(crti) and want <= properties(readelf("-n", crti))
    have = properties(readelf("-n", lib_so))
    if crti_has:
        check(want <= have, "%s: .note.gnu.property has %s, want %s"
              % (lib_so, sorted(have) or "nothing", sorted(want)))
    else:
        print("note: %s lacks %s, so no shared object linked with it carries them; "
              "%s has %s" % (crti, ",".join(sorted(want)), os.path.basename(lib_so),
                             ",".join(sorted(have)) or "none"))


def lines(so):
    syms = {}
    for l in readelf("-sW", so).splitlines():
        f = l.split()
        if len(f) == 8 and f[3] == "FUNC" and f[7] in (
                "memcpy", "memmove", "memset", "fc_memmove_x86_avx512",
                "fc_memset_x86_avx512_1branch"):
            syms[f[7]] = (int(f[1], 16), int(f[2]))
    check("fc_memmove_x86_avx512" in syms, "%s: no fc_memmove_x86_avx512" % so)
    check("fc_memset_x86_avx512_1branch" in syms, "%s: no fc_memset_x86_avx512_1branch" % so)
    for name, (start, size) in sorted(syms.items()):
        out = subprocess.run(["objdump", "-d", "--start-address=%d" % start,
                              "--stop-address=%d" % (start + size), so], check=True,
                             capture_output=True, text=True).stdout
        insns = [l for l in out.splitlines() if re.match(r"\s+[0-9a-f]+:\t", l)]
        if name == "memset" and not any("lea    0x3f(%rdi),%ecx" in l for l in insns[:4]):
            continue  # not the avx512_1branch body (dropin_body=avx512, avx2, ...)
        if insns and "endbr64" in insns[0]:
            print("note: %s starts with endbr64: its small-size path cannot fit one line"
                  % name)
            continue
        rets = [int(l.split(":")[0], 16) for l in insns if re.search(r"\tret", l)]
        check(start % 64 == 0, "%s at %#x: not at the start of a 64-byte line" % (name, start))
        check(rets and rets[0] - start < 64, "%s: first ret at +%s, past its first 64-byte line"
              % (name, rets[0] - start if rets else "?"))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "unwind":
        unwind(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "lines":
        lines(sys.argv[2])
    elif len(sys.argv) >= 6 and sys.argv[1] == "notes":
        notes(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    else:
        sys.exit(__doc__)
    print("%d passed, %d failed" % (PASS, FAIL))
    sys.exit(1 if FAIL else 0)


if __name__ == "__main__":
    main()
