#!/usr/bin/env python3
"""fastcopy-ab - does libfastcopy pay for my program?

Runs a command without and with libfastcopy preloaded (and with any other
library given with --with), alternating, in paired rounds; checks that every
run prints the same standard output and exits the same way, that the libraries
were really bound to the command's memcpy, memmove, memset, ...; and prints one
verdict per library: its time over the baseline's with a 95% interval, or "no
difference proven".  See man/fastcopy-ab.1.

The module is also the engine of the project's real-program benchmark
(bench/real/run.py imports it): Variant, run_command, binding_report,
paired_rounds, ratio_interval and verdict are its interface.
"""
import argparse
import hashlib
import math
import os
import re
import shutil
import stat
import struct
import subprocess
import sys
import tempfile
import time

PROG = "fastcopy-ab"
# The library preloaded when no --lib is given: by name, so that the loader
# picks the copy for this CPU (glibc-hwcaps) from its search path.
DEFAULT_LIB = "@FASTCOPY_LIB@"
INSTALLED_LIBDIR = "@FASTCOPY_LIBDIR@"
if DEFAULT_LIB.startswith("@"):          # run from the source tree
    DEFAULT_LIB, INSTALLED_LIBDIR = "libfastcopy.so.0", ""

# The names a preloaded library can take over: the three, the _FORTIFY_SOURCE
# forms and the auxiliary names C libraries define over them.
MEM_NAMES = ("memcpy", "memmove", "memset", "__memcpy_chk", "__memmove_chk",
             "__memset_chk", "mempcpy", "__mempcpy", "__mempcpy_chk", "bcopy",
             "bzero", "explicit_bzero", "__explicit_bzero_chk")
REQUIRED = ("memcpy", "memmove", "memset")


class AbError(Exception):
    """Bad input: one line, exit status 2."""


class Mismatch(Exception):
    """A run's output or exit status differs: one line, exit status 1."""


# ----------------------------------------------------------------------------
# ELF: is a program dynamic, setuid; which functions does a library define?

def _elf_header(f):
    ident = f.read(64)
    if len(ident) < 64 or ident[:4] != b"\x7fELF":
        return None
    if ident[4] != 2:
        raise AbError("only 64-bit ELF files are supported")
    end = "<" if ident[5] == 1 else ">"
    (e_type, _m, _v, _entry, e_phoff, e_shoff, _fl, _eh, e_phentsize, e_phnum,
     e_shentsize, e_shnum, _shstrndx) = struct.unpack(end + "HHIQQQIHHHHHH", ident[16:64])
    return end, e_type, e_phoff, e_phentsize, e_phnum, e_shoff, e_shentsize, e_shnum


def elf_is_dynamic(path):
    """True: an ELF with a program interpreter; False: a static ELF; None: not ELF."""
    with open(path, "rb") as f:
        h = _elf_header(f)
        if h is None:
            return None
        end, _t, phoff, phentsize, phnum = h[:5]
        f.seek(phoff)
        for _ in range(phnum):
            p_type = struct.unpack(end + "I", f.read(phentsize)[:4])[0]
            if p_type == 3:                                  # PT_INTERP
                return True
        return False


def defined_functions(path):
    """The global functions (and IFUNCs) a shared object defines, by name."""
    names = set()
    with open(path, "rb") as f:
        h = _elf_header(f)
        if h is None:
            raise AbError("%s is not an ELF shared object" % path)
        end, _t, _po, _pe, _pn, shoff, shentsize, shnum = h
        f.seek(shoff)
        secs = [struct.unpack(end + "IIQQQQIIQQ", f.read(shentsize)[:64]) for _ in range(shnum)]
        for s in secs:
            if s[1] != 11:                                   # SHT_DYNSYM
                continue
            strtab = secs[s[6]]
            f.seek(strtab[4])
            strs = f.read(strtab[5])
            f.seek(s[4])
            data = f.read(s[5])
            for off in range(0, len(data) - 23, 24):
                st_name, st_info, _o, st_shndx = struct.unpack(end + "IBBH", data[off:off + 8])
                if st_shndx == 0 or (st_info & 0xf) not in (2, 10) or (st_info >> 4) not in (1, 2):
                    continue
                names.add(strs[st_name:strs.index(b"\0", st_name)].decode())
    return names


def check_command(argv):
    """The command's path; AbError when a preload cannot reach it."""
    if not argv:
        raise AbError("no command given (usage: %s [OPTIONS] -- CMD [ARGS...])" % PROG)
    path = shutil.which(argv[0])
    if path is None:
        raise AbError("%s: command not found" % argv[0])
    seen = 0
    target = path
    while True:
        st = os.stat(target)
        if st.st_mode & (stat.S_ISUID | stat.S_ISGID):
            raise AbError("%s is set-user-ID or set-group-ID: the loader ignores LD_PRELOAD for it"
                          % target)
        dyn = elf_is_dynamic(target)
        if dyn is True:
            return path
        if dyn is False:
            raise AbError("%s is statically linked: a preloaded library cannot reach its memcpy"
                          % target)
        with open(target, "rb") as f:              # a script: its interpreter decides
            first = f.readline(256)
        if not first.startswith(b"#!") or seen > 4:
            raise AbError("%s is neither an ELF program nor a #! script" % target)
        parts = first[2:].decode(errors="replace").split()
        if not parts:
            raise AbError("%s: empty #! line" % target)
        interp = parts[0]
        if os.path.basename(interp) == "env" and len(parts) > 1:
            interp = shutil.which(parts[1]) or parts[1]
        if not os.path.exists(interp):
            raise AbError("%s: interpreter %s not found" % (target, interp))
        target = interp
        seen += 1


def check_library(lib):
    """A library's path (as given: a bare name is found by the loader); AbError
    when it does not load or does not define memcpy, memmove and memset."""
    probe = shutil.which("true") or "/bin/true"
    env = dict(os.environ, LD_PRELOAD=lib)
    r = subprocess.run([probe], env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
    err = r.stderr.decode(errors="replace").strip()
    if r.returncode != 0 or "ld.so" in err or "cannot be preloaded" in err:
        raise AbError("%s does not load: %s" % (lib, err.splitlines()[-1] if err else
                                                "exit status %d" % r.returncode))
    path = lib if "/" in lib else loaded_path(lib)
    missing = [n for n in REQUIRED if n not in defined_functions(path)]
    if missing:
        raise AbError("%s does not define %s" % (lib, ", ".join(missing)))
    return path


def loaded_path(name):
    """Where the loader finds a library given by name (glibc-hwcaps included)."""
    with tempfile.TemporaryDirectory(prefix="fcab-") as d:
        env = dict(os.environ, LD_PRELOAD=name, LD_DEBUG="libs",
                   LD_DEBUG_OUTPUT=os.path.join(d, "libs"))
        subprocess.run([shutil.which("true") or "/bin/true"], env=env)
        for fn in os.listdir(d):
            with open(os.path.join(d, fn), errors="replace") as f:
                for line in f:
                    m = re.search(r"calling init: (\S+)", line)
                    if m and os.path.basename(m.group(1)).startswith(name.split(".so")[0] + ".so"):
                        return m.group(1)
    raise AbError("%s: the loader does not find it (give a path)" % name)


def default_lib():
    """libfastcopy by name when the loader finds it, else where it was installed."""
    try:
        loaded_path(DEFAULT_LIB)
        return DEFAULT_LIB
    except AbError:
        path = os.path.join(INSTALLED_LIBDIR, DEFAULT_LIB) if INSTALLED_LIBDIR else ""
        if path and os.path.exists(path):
            return path
        raise AbError("%s not found by the loader%s: give it with --lib PATH" % (
            DEFAULT_LIB, " nor in " + INSTALLED_LIBDIR if INSTALLED_LIBDIR else ""))


# ----------------------------------------------------------------------------
# Running

class Variant:
    """One side of the comparison: a name and the library preloaded (None: the
    command as it is, with the environment's own LD_PRELOAD if any)."""

    def __init__(self, name, lib=None, extra_env=None):
        self.name, self.lib, self.extra_env = name, lib, dict(extra_env or {})

    def env(self, base=None):
        env = dict(os.environ if base is None else base)
        if self.lib:
            old = env.get("LD_PRELOAD", "")
            env["LD_PRELOAD"] = self.lib + (" " + old if old else "")
        env.update(self.extra_env)
        return env


class Result:
    def __init__(self, cpu, wall, digest, status, err=""):
        self.cpu, self.wall, self.digest, self.status, self.err = cpu, wall, digest, status, err


def _digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def run_command(argv, env, stdin_path=None, cwd=None, tmpdir=None):
    """Runs argv once: CPU time (user + system, its process tree's waited-for
    children included), wall time, stdout's sha256, exit status."""
    with tempfile.TemporaryDirectory(prefix="fcab-", dir=tmpdir) as d:
        out, errp = os.path.join(d, "out"), os.path.join(d, "err")
        with open(stdin_path or os.devnull, "rb") as fin, open(out, "wb") as fout, \
                open(errp, "wb") as ferr:
            t0 = time.perf_counter()
            try:
                p = subprocess.Popen(argv, stdin=fin, stdout=fout, stderr=ferr, env=env, cwd=cwd)
            except OSError as e:
                raise AbError("cannot run %s: %s" % (argv[0], e.strerror))
            _pid, status, ru = os.wait4(p.pid, 0)
            wall = time.perf_counter() - t0
            p.returncode = os.waitstatus_to_exitcode(status)
        with open(errp, "rb") as f:
            err = f.read()[-2000:].decode(errors="replace")
        return Result(ru.ru_utime + ru.ru_stime, wall, _digest(out), p.returncode, err)


def binding_report(run, variant, names=MEM_NAMES):
    """Which object each of names was bound to, over every process of one run:
    ({name: set of object paths}, the run's Result).  run(variant, extra_env)
    runs it once."""
    with tempfile.TemporaryDirectory(prefix="fcab-bind-") as d:
        res = run(variant, {"LD_DEBUG": "bindings", "LD_DEBUG_OUTPUT": os.path.join(d, "b")})
        bound = {}
        pat = re.compile(r"binding file (\S+) \[\d+\] to (\S+) \[\d+\]: \S+ symbol `([^']+)'")
        for fn in os.listdir(d):
            with open(os.path.join(d, fn), errors="replace") as f:
                for line in f:
                    m = pat.search(line)
                    if m and m.group(3) in names:
                        bound.setdefault(m.group(3), set()).add(m.group(2))
        return bound, res


def reached(bound, lib_path):
    """(names bound to lib_path, {name: other objects} for names that missed it)."""
    real = os.path.realpath(lib_path)
    hit, miss = [], {}
    for name in sorted(bound):
        objs = {os.path.realpath(o) for o in bound[name]}
        if real in objs:
            hit.append(name)
        if objs - {real}:
            miss[name] = sorted(objs - {real})
    return hit, miss


def paired_rounds(variants, run, rounds, warmup=1, check=None, progress=None):
    """Runs every variant once per round, the order reversed every other round
    (so that neither side always runs first), after `warmup` unmeasured runs
    of each.  run(variant) -> Result.  check(variant, result, is_warmup) may
    raise Mismatch.  Returns {variant name: [Result per round]}."""
    res = {v.name: [] for v in variants}
    for w in range(warmup):
        for v in variants:
            r = run(v)
            if check:
                check(v, r, True)
    for i in range(rounds):
        order = variants if i % 2 == 0 else variants[::-1]
        for v in order:
            r = run(v)
            if check:
                check(v, r, False)
            res[v.name].append(r)
        if progress:
            progress(i + 1, rounds)
    return res


class OutputCheck:
    """Every run must print what the baseline's first run printed and exit the
    same way.  A baseline that differs from itself is the command's fault."""

    def __init__(self, baseline_name, what="the command"):
        self.base, self.ref, self.base_runs, self.what = baseline_name, None, 0, what

    def __call__(self, v, r, _warm=False):
        if v.name == self.base:
            self.base_runs += 1
        if self.ref is None:
            if v.name != self.base:
                raise RuntimeError("the baseline must run first")
            self.ref = r
            return
        if (r.digest, r.status) == (self.ref.digest, self.ref.status):
            return
        detail = ("exit status %d, expected %d" % (r.status, self.ref.status)
                  if r.status != self.ref.status else
                  "stdout sha256 %s.., expected %s.." % (r.digest[:12], self.ref.digest[:12]))
        if v.name == self.base:
            raise Mismatch("%s gives different output from run to run without any library "
                           "(%s): compare a command whose output is the same every run"
                           % (self.what, detail))
        raise Mismatch("%s with %s differs from without it (%s)%s"
                       % (self.what, v.name, detail,
                          ": " + r.err.strip().splitlines()[-1] if r.err.strip() else ""))


# ----------------------------------------------------------------------------
# Statistics: Hodges-Lehmann estimate of the paired log ratio, with the
# distribution-free 95% interval of the Wilcoxon signed-rank test (robust to
# the odd round a busy machine slows down; exact for every n).

def _signed_rank_cdf(n):
    """counts[s] = number of sign patterns of ranks 1..n with positive-rank sum s."""
    counts = [1]
    for k in range(1, n + 1):
        new = counts + [0] * k
        for s, c in enumerate(counts):
            new[s + k] += c
        counts = new
    return counts


def ratio_interval(base, other, level=0.95):
    """(ratio, lo, hi): other's time over base's, paired by round."""
    logs = [math.log(o / b) for b, o in zip(base, other) if b > 0 and o > 0]
    n = len(logs)
    if n < 6:
        raise AbError("at least 6 rounds are needed for a 95%% interval (got %d)" % n)
    walsh = sorted((logs[i] + logs[j]) / 2 for i in range(n) for j in range(i, n))
    m = len(walsh)
    counts = _signed_rank_cdf(n)
    total, alpha, acc, c = 2 ** n, (1 - level) / 2, 0, 0
    while acc + counts[c] <= alpha * total:          # P(T <= c) <= alpha
        acc += counts[c]
        c += 1
    c = max(c, 1)
    mid = walsh[m // 2] if m % 2 else (walsh[m // 2 - 1] + walsh[m // 2]) / 2
    return math.exp(mid), math.exp(walsh[c - 1]), math.exp(walsh[m - c])


def verdict(lo, hi, margin):
    """'faster', 'slower' or 'no difference proven': a difference is proven when
    the whole interval lies beyond the margin on one side."""
    if hi < 1 - margin:
        return "faster"
    if lo > 1 + margin:
        return "slower"
    return "no difference proven"


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def fmt_verdict(name, base_name, metric, ratio, lo, hi, rounds, margin):
    v = verdict(lo, hi, margin)
    body = "%.3fx the %s time of %s [%.3f, %.3f] (95%%, %d rounds)" % (
        ratio, metric, base_name, lo, hi, rounds)
    if v == "no difference proven":
        return "%s: no difference proven: %s" % (name, body)
    return "%s: %s: %s" % (name, v, body)


# ----------------------------------------------------------------------------

def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog=PROG, usage="%(prog)s [OPTIONS] -- CMD [ARGS...]",
        description="Run CMD without and with libfastcopy preloaded (and any --with "
                    "library), alternating, and say whether it is faster.")
    ap.add_argument("-n", "--rounds", type=int, default=10,
                    help="paired rounds (default 10, at least 6)")
    ap.add_argument("-w", "--warmup", type=int, default=1,
                    help="unmeasured runs of each side first (default 1)")
    ap.add_argument("--lib", default=None,
                    help="the libfastcopy to test (default: %s, by name)" % DEFAULT_LIB)
    ap.add_argument("--no-fastcopy", action="store_true",
                    help="compare only the --with libraries")
    ap.add_argument("--with", dest="with_", action="append", default=[], metavar="LIB[=NAME]",
                    help="another library to compare (repeatable)")
    ap.add_argument("--baseline", default=None, metavar="LIB",
                    help="preload LIB on the baseline side (default: nothing)")
    ap.add_argument("--metric", choices=("cpu", "wall"), default="cpu",
                    help="the time compared: CPU (user + system) or wall (default cpu)")
    ap.add_argument("--margin", type=float, default=1.0, metavar="PCT",
                    help="differences whose interval reaches within PCT%% of 1 are "
                         "'no difference proven' (default 1)")
    ap.add_argument("--stdin", default=None, metavar="FILE",
                    help="each run reads FILE on standard input (default /dev/null)")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="also print the bindings and each side's median times")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args(argv)
    if a.cmd and a.cmd[0] == "--":
        a.cmd = a.cmd[1:]
    return a


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return _main(a)
    except AbError as e:
        print("%s: %s" % (PROG, e), file=sys.stderr)
        return 2
    except Mismatch as e:
        print("%s: %s" % (PROG, e), file=sys.stderr)
        return 1


def _main(a):
    if a.rounds < 6:
        raise AbError("-n %d: at least 6 rounds are needed for a 95%% interval" % a.rounds)
    if a.warmup < 0:
        raise AbError("--warmup must be 0 or more")
    if not 0 <= a.margin < 50:
        raise AbError("--margin must be between 0 and 50 (percent)")
    if a.stdin is not None and not os.path.isfile(a.stdin):
        raise AbError("--stdin %s: no such file" % a.stdin)
    check_command(a.cmd)

    libs = []                                   # (name, path as given, path on disk)
    if not a.no_fastcopy:
        lib = a.lib or default_lib()
        libs.append((os.path.basename(lib), lib))
    for w in a.with_:
        path, _, name = w.partition("=")
        libs.append((name or os.path.basename(path), path))
    if not libs:
        raise AbError("nothing to compare: --no-fastcopy and no --with")
    names = [n for n, _ in libs]
    if len(set(names)) != len(names):
        raise AbError("two libraries named %s: name them with LIB=NAME" %
                      next(n for n in names if names.count(n) > 1))
    base_env = dict(os.environ)
    base_name = "the system C library"
    if a.baseline:
        check_library(a.baseline)
        base_name = os.path.basename(a.baseline)
        old = base_env.get("LD_PRELOAD", "")
        base_env["LD_PRELOAD"] = a.baseline + (" " + old if old else "")
    elif base_env.get("LD_PRELOAD"):
        base_name = "LD_PRELOAD=" + base_env["LD_PRELOAD"]
    if base_name in names:
        base_name = "the baseline " + base_name
    disk = {n: check_library(p) for n, p in libs}

    base = Variant("baseline")
    variants = [base] + [Variant(n, p) for n, p in libs]

    def run(v, extra=None):
        env = v.env(base_env)
        if extra:
            env.update(extra)
        return run_command(a.cmd, env, a.stdin)

    # The bindings: every library must reach what the command calls.  These
    # runs are the first output checks too: the baseline twice (a command whose
    # output changes by itself is found before a library is blamed), then each
    # library once.
    check = OutputCheck(base.name, "the command")
    check(base, run(base))
    bound, r = binding_report(run, base)
    check(base, r)
    called = sorted(bound)
    notes = []
    for n, p in libs:
        lib_bound, r = binding_report(run, Variant(n, p))
        check(Variant(n, p), r)
        hit, miss = reached(lib_bound, disk[n])
        if called and not hit:
            raise AbError("%s was not reached: %s bound to %s" % (
                n, ", ".join(called), ", ".join(sorted({o for s in bound.values() for o in s}))))
        if miss:
            notes.append("%s: not reached: %s" % (n, "; ".join(
                "%s bound to %s" % (k, ", ".join(v)) for k, v in sorted(miss.items()))))
        if a.verbose:
            print("%s: bound %s" % (n, ", ".join(hit) if hit else "nothing"))
    if not called:
        notes.append("the command calls none of %s through the loader: "
                     "there is nothing for a library to change" % ", ".join(REQUIRED))
    for line in notes:
        print(line, file=sys.stderr)

    def progress(i, n):
        if not a.quiet and sys.stderr.isatty():
            print("\r%s: round %d/%d" % (PROG, i, n), end="" if i < n else "\n",
                  file=sys.stderr, flush=True)

    res = paired_rounds(variants, run, a.rounds, a.warmup, check, progress)
    key = (lambda r: r.cpu) if a.metric == "cpu" else (lambda r: r.wall)
    bt = [key(r) for r in res[base.name]]
    if a.verbose:
        for v in variants:
            rs = res[v.name]
            print("%-24s median CPU %.4f s, wall %.4f s" % (
                base_name if v is base else v.name,
                median([r.cpu for r in rs]), median([r.wall for r in rs])))
    for v in variants[1:]:
        ratio, lo, hi = ratio_interval(bt, [key(r) for r in res[v.name]])
        print(fmt_verdict(v.name, base_name, "CPU" if a.metric == "cpu" else "wall",
                          ratio, lo, hi, a.rounds, a.margin / 100))
    return 0


if __name__ == "__main__":
    sys.exit(main())
