#!/usr/bin/env python3
"""The real-program benchmark: copy-heavy real programs run without a preload
(the system C library), with libfastcopy and with every --with library, in
paired alternating rounds; CPU and wall time, paired ratios with 95% intervals.

    bench/real/run.py --lib build/src/libfastcopy.so.0 [--with LIB=NAME]...

(`./run real` installs the programs' Debian packages, builds, and runs this.)
Before timing, each library's bindings are checked (which of the names a
program calls reach it) and every run's output is compared with the first
unpreloaded run's: a difference stops the benchmark with exit status 1.
--share measures, unpreloaded, each program's share of time in the user-space
mem* functions (perf cpu-clock).  docs/real-programs.md says what each program
does and why it is here.  The engine is tools/fastcopy-ab.py's.
"""
import argparse
import importlib.machinery
import importlib.util
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))


def _load(name, path):
    loader = importlib.machinery.SourceFileLoader(name, path)
    spec = importlib.util.spec_from_loader(name, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


ab = _load("fastcopy_ab", os.path.join(TOP, "tools", "fastcopy-ab.py"))
sys.path.insert(0, HERE)
import programs as P  # noqa: E402

MEM_SYM = re.compile(r"^(__)?(mem(cpy|move|set|pcpy)|bzero|bcopy|explicit_bzero)")


def make_runner(prog, d, tmp):
    """run(variant, extra_env=None) -> Result for one program."""
    if prog.kind == "command":
        argv = prog.argv(d)
        stdin = os.path.join(d, prog.stdin) if prog.stdin else None

        def run(v, extra=None):
            env = v.env()
            if extra:
                env.update(extra)
            return ab.run_command(argv, env, stdin, cwd=d, tmpdir=tmp)
        return run

    def run(v, extra=None):
        env = v.env()
        if extra:
            env.update(extra)
        port = P.free_port()
        with open(os.path.join(tmp, "server.err"), "wb") as err:
            t0 = time.perf_counter()
            srv = subprocess.Popen(prog.server_argv(d, port), env=env, cwd=d,
                                   stdout=subprocess.DEVNULL, stderr=err)
            try:
                if not P.wait_listening(port, srv):
                    raise ab.Mismatch("%s did not start with %s" % (prog.name, v.name))
                c = ab.run_command(prog.client_argv(d, port), ab.Variant("client").env(),
                                   None, cwd=d, tmpdir=tmp)
                dig = subprocess.run(prog.digest_argv(d, port), stdout=subprocess.PIPE).stdout
            finally:
                prog.stop(d, port)
                _pid, status, ru = os.wait4(srv.pid, 0)
                srv.returncode = os.waitstatus_to_exitcode(status)
            wall = time.perf_counter() - t0
        return ab.Result(ru.ru_utime + ru.ru_stime, wall,
                         dig.decode().strip() + ":%d" % c.status, srv.returncode)
    return run


def run_wrapped(prog, d, tmp, pre):
    """One unpreloaded run of prog (of its server) under the command prefix pre."""
    if prog.kind == "command":
        saved = prog.argv
        prog.argv = lambda dd: pre + saved(dd)
        try:
            return make_runner(prog, d, tmp)(ab.Variant("libc"))
        finally:
            prog.argv = saved
    saved = prog.server_argv
    prog.server_argv = lambda dd, port: pre + saved(dd, port)
    try:
        return make_runner(prog, d, tmp)(ab.Variant("libc"))
    finally:
        prog.server_argv = saved


def share(prog, d, tmp):
    """Percent of the unpreloaded run's cpu-clock samples in user-space mem*."""
    data = os.path.join(tmp, "perf.data")
    run_wrapped(prog, d, tmp, ["perf", "record", "-q", "-e", "cpu-clock", "-F", "4000",
                               "-o", data, "--"])
    rep = subprocess.run(["perf", "report", "-i", data, "--sort", "dso,sym", "--stdio",
                          "--no-children"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    total = mem = kernel = 0.0
    top = []
    for line in rep.stdout.decode(errors="replace").splitlines():
        f = line.split()
        if len(f) < 4 or not f[0].endswith("%") or line.startswith("#"):
            continue
        pct = float(f[0][:-1])
        total += pct
        if f[2] == "[k]":
            kernel += pct
        if f[2] == "[.]" and MEM_SYM.match(f[3]) and "@plt" not in f[3]:
            mem += pct
        elif len(top) < 3:
            top.append("%s %.1f%%" % (f[3], pct))
    return mem, kernel, top


def fmt_ci(t):
    r, lo, hi = t
    return "%.3f [%.3f, %.3f]" % (r, lo, hi)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", default=os.path.join(TOP, "build", "src", "libfastcopy.so.0"),
                    help="the libfastcopy to measure (default: build/src/libfastcopy.so.0)")
    ap.add_argument("--with", dest="with_", action="append", default=[], metavar="LIB=NAME",
                    help="a peer library to compare (repeatable)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME:VAR=VALUE",
                    help="run library NAME with VAR=VALUE in its environment (e.g. "
                         "--with build/src/libfastcopy.so.0=rep --set rep:FASTCOPY_...=2048)")
    ap.add_argument("-n", "--rounds", type=int, default=12, help="paired rounds (default 12)")
    ap.add_argument("-w", "--warmup", type=int, default=1)
    ap.add_argument("--programs", default="", help="comma-separated names (default: all)")
    ap.add_argument("--spec", default=None,
                    help="a Python file whose PROGRAMS list replaces the built-in one")
    ap.add_argument("--data", default=os.environ.get("FC_REAL_DATA",
                                                     os.path.join(TOP, "build", "real-data")),
                    help="where the inputs are generated (default build/real-data)")
    ap.add_argument("--share", action="store_true",
                    help="measure each program's share of time in mem* (perf) and stop")
    ap.add_argument("--trace", default=None, metavar="DIR",
                    help="record each program's sizes with fastcopy-trace into DIR and stop")
    ap.add_argument("--check-only", action="store_true",
                    help="the checks (bindings, outputs) without timing")
    ap.add_argument("--list", action="store_true", help="list the programs and stop")
    ap.add_argument("--markdown", default=None, metavar="FILE",
                    help="also write the results as Markdown tables")
    a = ap.parse_args()
    try:
        return run_all(a)
    except ab.AbError as e:
        print("run.py: %s" % e, file=sys.stderr)
        return 2
    except ab.Mismatch as e:
        print("run.py: OUTPUT MISMATCH: %s" % e, file=sys.stderr)
        return 1


def run_all(a):
    progs = P.PROGRAMS
    if a.spec:
        if not os.path.isfile(a.spec):
            raise ab.AbError("--spec %s: no such file" % a.spec)
        progs = _load("spec", a.spec).PROGRAMS
    if a.programs:
        want = a.programs.split(",")
        unknown = [w for w in want if w not in [p.name for p in progs]]
        if unknown:
            raise ab.AbError("unknown program %s (--list lists them)" % ", ".join(unknown))
        progs = [p for p in progs if p.name in want]
    if a.list:
        for p in progs:
            print("%-16s %-20s %s" % (p.name, p.domain, p.what))
        return 0
    if a.rounds < 6:
        raise ab.AbError("--rounds %d: at least 6 are needed for a 95%% interval" % a.rounds)
    # (the programs run in the data directory: a relative path must not change meaning)
    absolute = lambda p: os.path.abspath(p) if "/" in p else p  # noqa: E731
    libs = [("libfastcopy", absolute(a.lib))]
    for w in a.with_:
        path, _, name = w.partition("=")
        libs.append((name or os.path.basename(path), absolute(path)))
    names = [n for n, _ in libs]
    if len(set(names)) != len(names):
        raise ab.AbError("two libraries named the same: use LIB=NAME")
    disk = {n: ab.check_library(p) for n, p in libs}
    os.makedirs(a.data, exist_ok=True)
    tmp = os.path.join(a.data, "tmp")
    os.makedirs(tmp, exist_ok=True)
    for p in progs:
        missing = [c for c in _commands(p) if not _which(c)]
        if missing:
            raise ab.AbError("%s needs %s (Debian: apt-get install %s)" % (
                p.name, ", ".join(missing), " ".join(p.packages)))
        p.setup(a.data)

    if a.share:
        for p in progs:
            mem, kernel, top = share(p, a.data, tmp)
            print("%-16s mem* %.1f%% of the samples, the kernel %.1f%%; next: %s" % (
                p.name, mem, kernel, "; ".join(top)))
        return 0

    if a.trace:
        tracer = os.path.join(os.path.dirname(os.path.dirname(disk["libfastcopy"])),
                              "tools", "fastcopy-trace")
        if not os.access(tracer, os.X_OK):
            raise ab.AbError("--trace needs %s (the build's fastcopy-trace)" % tracer)
        os.makedirs(a.trace, exist_ok=True)
        for p in progs:
            prefix = os.path.join(os.path.abspath(a.trace), p.name)
            run_wrapped(p, a.data, tmp, [tracer, "-q", "-o", prefix, "--"])
            print("%s: %s.txt" % (p.name, prefix))
        return 0

    extra = {n: {} for n in names}
    for spec in a.set:
        n, _, kv = spec.partition(":")
        k, eq, v = kv.partition("=")
        if n not in extra or not eq or not k:
            raise ab.AbError("--set %s: expected NAME:VAR=VALUE with NAME one of %s" % (
                spec, ", ".join(names)))
        extra[n][k] = v
    base = ab.Variant("libc")
    variants = [base] + [ab.Variant(n, p, extra[n]) for n, p in libs]
    results = {}
    for p in progs:
        run = make_runner(p, a.data, tmp)
        check = ab.OutputCheck("libc", p.name)
        check(base, run(base))
        bound, r = ab.binding_report(run, base)
        check(base, r)
        called = sorted(bound)
        if not called:
            raise ab.AbError("%s calls none of the mem* names through the loader" % p.name)
        reach = {}
        for v in variants[1:]:
            n = v.name
            lib_bound, r = ab.binding_report(run, v)
            check(v, r)
            hit, miss = ab.reached(lib_bound, disk[n])
            reach[n] = (hit, miss)
        print("%s (%s): calls %s" % (p.name, p.domain, ", ".join(called)))
        for n in names:
            hit, miss = reach[n]
            line = "  %-18s reached: %s" % (n, ", ".join(hit) if hit else "NOTHING")
            if miss:
                line += "; NOT reached: " + "; ".join(
                    "%s (bound to %s)" % (k, ", ".join(os.path.basename(o) for o in v))
                    for k, v in sorted(miss.items()))
            print(line)
        if a.check_only:
            print("  outputs identical")
            continue

        def progress(i, n, name=p.name):
            if sys.stderr.isatty():
                print("\r  %s: round %d/%d" % (name, i, n), end="" if i < n else "\n",
                      file=sys.stderr, flush=True)

        res = ab.paired_rounds(variants, run, a.rounds, a.warmup, check, progress)
        results[p.name] = (p, res, reach)
        report_one(p, res, names, a.rounds)
    if not a.check_only:
        summary(results, names, a)
    return 0


def _commands(p):
    if p.kind == "server":
        return [p.server_argv("/", 1)[0], p.client_argv("/", 1)[0]]
    argv = p.argv("/")
    if argv[0] == "sh":
        return [w for w in re.findall(r"(?:^|\| *)([a-z0-9]+)", argv[2])]
    return [argv[0]]


def _which(c):
    from shutil import which
    return which(c)


def stats(res, names):
    """{metric: {name: (ratio, lo, hi) over libc}, 'vs': {peer: (fc/peer ...)}}"""
    out = {}
    for metric in ("cpu", "wall"):
        key = (lambda r: r.cpu) if metric == "cpu" else (lambda r: r.wall)
        t = {n: [key(r) for r in res[n]] for n in ["libc"] + names}
        over_libc = {n: ab.ratio_interval(t["libc"], t[n]) for n in names}
        vs = {n: ab.ratio_interval(t[n], t["libfastcopy"]) for n in names[1:]}
        med = {n: ab.median(t[n]) for n in ["libc"] + names}
        out[metric] = (over_libc, vs, med)
    return out


def report_one(p, res, names, rounds):
    s = stats(res, names)
    for metric in ("cpu", "wall"):
        over_libc, vs, med = s[metric]
        print("  %s time, median %.3f s without a preload; over it (95%%, %d rounds):" % (
            metric.upper() if metric == "cpu" else metric, med["libc"], rounds))
        for n in names:
            print("    %-18s %s" % (n, fmt_ci(over_libc[n])))
        for n in names[1:]:
            print("    libfastcopy / %-8s %s" % (n, fmt_ci(vs[n])))


def summary(results, names, a):
    """The targets: libfastcopy's CPU time at most 1.00x libc's; against every
    peer, the paired ratio's upper bound at most 1.03; intervals within +-3%."""
    lines = []
    head = "| program | mem* calls reached | " + " | ".join(
        "%s / libc" % n for n in names) + " | " + " | ".join(
        "libfastcopy / %s" % n for n in names[1:]) + " |"
    lines.append(head)
    lines.append("|" + "---|" * (head.count("|") - 1))
    fails = []
    for pname, (p, res, reach) in results.items():
        over_libc, vs, _med = stats(res, names)["cpu"]
        cells = [fmt_ci(over_libc[n]) for n in names] + [fmt_ci(vs[n]) for n in names[1:]]
        lines.append("| %s | %s | %s |" % (pname, ", ".join(reach["libfastcopy"][0]),
                                           " | ".join(cells)))
        r, lo, hi = over_libc["libfastcopy"]
        if r > 1.00:
            fails.append("%s: libfastcopy %.3fx libc's CPU time" % (pname, r))
        for n in names[1:]:
            if vs[n][2] > 1.03:
                fails.append("%s: libfastcopy / %s upper bound %.3f" % (pname, n, vs[n][2]))
        for n in names:
            if over_libc[n][2] / over_libc[n][1] > 1.061:
                fails.append("%s: %s's interval wider than +-3%%: %s" % (
                    pname, n, fmt_ci(over_libc[n])))
    print("\nCPU time ratios (median of paired rounds, 95% interval):")
    print("\n".join(lines))
    print("\ntargets: %s" % ("PASS" if not fails else "FAIL"))
    for f in fails:
        print("  " + f)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
