#!/usr/bin/env python3
"""insn-count: instruction counts per call under qemu-user, against glibc 2.36.

Built by meson in aarch64 and riscv64 builds (BUILD/tools/insn-count/insn-count, a
wrapper that passes the paths below); see tools/insn-count/README.md.

  insn-count [--check] [--models "M1 M2"] [--offsets S D SD] [--variant V] [--detail]
  insn-count --tables [--models ...] [--draws N] [--per-size] [--func F]
  insn-count --cycles MODEL[,MODEL...]|all [--check] [--variant all] [--sizes A-B,...]
             [--offsets S D SD] [--draws N] [--no-sweep] [--no-mixes] [--csv PATH]
             [--explain CELL]
  insn-count --loops [MODEL,...]

Default: the sweep (count --sweep; sweep.py): every size 0..1100 and the powers of
two +-1 up to 64 KiB, src x dst offsets (default 8 x 8, i.e. every relative
alignment mod 8), memset dst offsets 0..63, c = 0 and c = 0x5a, memmove forward and
backward over overlapping buffers; per QEMU model, every usable variant, the
exported names ("dropin", this build's libfastcopy.so preloaded) and glibc on the
same calls.  --check exits 1 when the selected variant or the exported names are
above glibc in any cell of any model.  --tables prints table.py's tables (size
mixes, fixed sizes), the exported names included.

--cycles (cycles.py): the instructions each call executes, traced under QEMU, and
llvm-mca's cycle estimate of them on core models (Cortex-A53, Kunpeng 920's TSV110,
ThunderX, ... SiFive U74), against glibc 2.36's routine for that core; --loops
(loops.py): standalone loop bodies in llvm-mca's steady state.

Instruction counts under QEMU are not time; cycle estimates are a model's.
"""
import argparse
import os
import subprocess
import sys

MODELS = {
    "aarch64": ["cortex-a53", "cortex-a72", "neoverse-n1", "a64fx", "max"],
    "riscv64": ["rv64", "rv64,v=true,vext_spec=v1.0,vlen=128",
                "rv64,v=true,vext_spec=v1.0,vlen=256"],
}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    # paths, passed by the meson-generated wrapper
    ap.add_argument("--arch", required=True)
    ap.add_argument("--qemu", required=True)
    ap.add_argument("--sysroot", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--count", required=True)
    ap.add_argument("--policy", required=True, help="insn-count-policy (--cycles)")
    ap.add_argument("--lib", required=True, help="libfastcopy.so to preload")
    ap.add_argument("--tooldir", required=True)
    ap.add_argument("--dists", required=True)
    ap.add_argument("--out", required=True, help="directory for the raw outputs")
    # user options
    ap.add_argument("--models", help="space-separated QEMU_CPU values")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--variant")
    ap.add_argument("--detail", action="store_true", help="every variant's rows")
    ap.add_argument("--offsets", nargs=3, type=int, default=[8, 8, 64],
                    metavar=("SRC", "DST", "SETDST"))
    ap.add_argument("--tables", action="store_true")
    ap.add_argument("--draws", type=int, default=20000)
    ap.add_argument("--per-size", action="store_true")
    ap.add_argument("--summary-only", action="store_true")
    ap.add_argument("--func", action="append", default=[])
    ap.add_argument("--cycles", metavar="MODEL[,MODEL...]",
                    help="llvm-mca cycle estimates per call on these core models "
                         "(cycles.py; 'all': every model of this architecture)")
    ap.add_argument("--loops", nargs="?", const="", metavar="MODEL,...",
                    help="steady-state loop bodies on core models (loops.py)")
    a, rest = ap.parse_known_args()
    if a.loops is not None:
        tool = [sys.executable, os.path.join(a.tooldir, "loops.py"), "--arch", a.arch]
        if a.loops:
            tool += ["--models", a.loops]
        return subprocess.run(tool + rest).returncode
    if a.cycles:
        tool = [sys.executable, os.path.join(a.tooldir, "cycles.py")]
        for k in ("arch", "qemu", "sysroot", "plugin", "count", "policy", "lib", "dists"):
            tool += ["--" + k, getattr(a, k)]
        tool += ["--out", os.path.join(a.out, "cycles"), "--models", a.cycles]
        if a.check:
            tool.append("--check")
        if a.variant:
            tool += ["--variant", a.variant]
        if a.offsets != [8, 8, 64]:
            tool += ["--offsets"] + [str(x) for x in a.offsets]
        if a.draws != 20000:
            tool += ["--draws", str(a.draws)]
        return subprocess.run(tool + rest).returncode
    if rest:
        ap.error("unrecognized arguments: " + " ".join(rest))

    models = a.models.split() if a.models else MODELS[a.arch]
    os.makedirs(a.out, exist_ok=True)
    env = dict(os.environ)
    # The probe reads the kernel release on SVE machines (policy.c): fixed here so
    # the selection does not depend on the host kernel (6.6 keeps SVE state).
    env.setdefault("QEMU_UNAME", "6.6.0")
    lib = os.path.abspath(a.lib)
    args = []
    for model in models:
        tag = model.replace(",", "_").replace("=", "_")
        mpath = os.path.join(a.out, f"{'tab' if a.tables else 'sweep'}-map-{tag}.txt")
        cpath = os.path.join(a.out, f"{'tab' if a.tables else 'sweep'}-counts-{tag}.txt")
        spath = os.path.join(a.out, f"sweep-seq-{tag}.bin")
        plugin = f"{os.path.abspath(a.plugin)},out={cpath}"
        prog = [a.count]
        if a.tables:
            prog += ["--dists", a.dists, "--draws", str(a.draws)]
            if a.per_size:
                prog.append("--per-size")
        else:
            plugin += f",seq={spath}"
            prog += ["--sweep", "--offsets"] + [str(x) for x in a.offsets]
        for f in a.func:
            prog += ["--func", f]
        # The cross toolchain's loader and libc as a pair; the library preloaded
        # into the guest only (-E), as a program preloading it would run.
        cmd = [a.qemu, "-L", a.sysroot, "-E", f"LD_LIBRARY_PATH={a.sysroot}/lib",
               "-E", f"LD_PRELOAD={lib}", "-plugin", plugin] + prog
        with open(mpath, "w") as out:
            r = subprocess.run(cmd, stdout=out, env=dict(env, QEMU_CPU=model))
        if r.returncode != 0:
            print(f"insn-count: count failed under QEMU_CPU={model} "
                  f"(exit {r.returncode})", file=sys.stderr)
            return 1
        args += [model, mpath, cpath] + ([] if a.tables else [spath])
    if a.tables:
        tool = [sys.executable, os.path.join(a.tooldir, "table.py")]
        if a.summary_only:
            tool.append("--summary-only")
    else:
        tool = [sys.executable, os.path.join(a.tooldir, "sweep.py")]
        if a.check:
            tool.append("--check")
        if a.variant:
            tool += ["--variant", a.variant]
        if a.detail:
            tool.append("--detail")
    return subprocess.run(tool + args).returncode


if __name__ == "__main__":
    sys.exit(main())
