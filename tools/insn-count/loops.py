#!/usr/bin/env python3
"""insn-count --loops: standalone copy-loop bodies in llvm-mca's steady state.

The second estimate of docs/aarch64.md and docs/riscv64.md: a loop body repeated
(-iterations=200) on a core model, in cycles per 64 bytes copied, for the questions
the field argues about.  Not a variant each: loop bodies written out here, the
same shapes as the kernels' loops where a row names a kernel.

  loops.py --arch aarch64|riscv64 [--models M1,M2] [--llvm-mca PATH]

aarch64 questions: 2, 4 or 8 register pairs per block; post-indexed addressing
against one address update per block; q-register pairs against x-register pairs;
SVE against Advanced SIMD; the memset stores.  riscv64 (SiFive U74): the aligned
word loop, the shifting loop for differently aligned src/dst, bytes, and the
misaligned-access loop (whose traps no model counts: see insn-count --cycles).

Steady state: no loop entry or exit, no caches, no branch mispredictions; every
load hits and no store waits for memory.  Estimates of a scheduling model, not time.
"""
import argparse
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ITER = 200
A64_MODELS = ["thunderx", "cortex-a53", "cortex-a55", "cortex-a57", "thunderx2t99", "tsv110",
              "neoverse-n1", "neoverse-v1", "a64fx"]
RV_MODELS = ["sifive-u74"]


# ---- aarch64 bodies ---------------------------------------------------------------------
def a64_pairs(reg, pairs, addr, pipelined=True, wb_only_store=False):
    """One block of `pairs` register pairs (x: 16 bytes, q: 32 bytes each).
    addr: 'post'  every ldp/stp post-indexed (one pointer update per pair);
          'pre'   offsets from biased pointers, pre-index writeback on the last pair
                  of loads and of stores (one update per pointer per block: ldp_stp's
                  and simd's loops);
          'add'   offsets, then one add per pointer per block;
          'mixed' offsets, loads' pointer by one add, stores' by writeback on the last
                  store, the counter updated early (simd's loop after this issue).
    pipelined: each pair stored, then reloaded from the next block (the kernels'
    form); else all loads of the block, then all stores."""
    w = 8 if reg == "x" else 16
    blk = pairs * 2 * w

    xregs = [6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 19, 20, 21, 22]

    def regs(i):
        if reg == "x":
            return f"x{xregs[2 * i]}", f"x{xregs[2 * i + 1]}"
        n = i * 2 if i < 4 else 16 + (i - 4) * 2
        return f"q{n}", f"q{n + 1}"

    out, src_done = [], False
    items = []
    for i in range(pairs):
        if pipelined:
            items += [("st", i), ("ld", i)]
        else:
            items.append(("ld", i))
    if not pipelined:
        items += [("st", i) for i in range(pairs)]
    if addr == "mixed":
        items.insert(2, ("subs",))
        items.insert(len(items) - 2, ("add_src",))
    for it in items:
        if it[0] == "subs":
            out.append(f"subs x2, x2, #{blk}")
            continue
        if it[0] == "add_src":
            out.append(f"add x1, x1, #{blk}")
            src_done = True
            continue
        op, i = it
        a, b = regs(i)
        base = "x1" if op == "ld" else "x0"
        ins = "ldp" if op == "ld" else "stp"
        last = i == pairs - 1
        if addr == "post":
            out.append(f"{ins} {a}, {b}, [{base}], #{2 * w}")
        elif addr == "pre" or (addr == "mixed" and op == "st"):
            off = (i + 1) * 2 * w
            out.append(f"{ins} {a}, {b}, [{base}, #{off}]" + ("!" if last else "")
                       if not last else f"{ins} {a}, {b}, [{base}, #{blk}]!")
        else:
            off = i * 2 * w - (blk if (op == "ld" and src_done) else 0)
            out.append(f"{ins} {a}, {b}, [{base}, #{off}]")
    if addr == "add":
        out += [f"add x1, x1, #{blk}", f"add x0, x0, #{blk}"]
    if addr != "mixed":
        out.append(f"subs x2, x2, #{blk}")
    out.append("b.hi #0")
    return "\n".join(out), blk


def a64_sve(vl, vectors, form):
    """vectors per iteration; form 'ldr' (ldr/str z, unpredicated: sve's loop before
    this issue), 'ld1b' (ld1b/st1b under an all-true predicate)."""
    out = []
    for i in range(vectors):
        if form == "ldr":
            out.append(f"str z{i}, [x0, #{i}, mul vl]")
            out.append(f"ldr z{i}, [x1, #{i + vectors}, mul vl]")
        else:
            out.append(f"st1b {{ z{i}.b }}, p0, [x0, #{i}, mul vl]")
            out.append(f"ld1b {{ z{i}.b }}, p0/z, [x1, #{i % 8}, mul vl]")
    out += [f"addvl x1, x1, #{vectors}", f"addvl x0, x0, #{vectors}",
            f"subs x2, x2, #{vectors * vl}", "b.hi #0"]
    return "\n".join(out), vectors * vl


def a64_memset(form):
    if form == "stp q":
        body = ["stp q0, q0, [x3, #32]", "stp q0, q0, [x3, #64]", "stp q0, q0, [x3, #96]",
                "stp q0, q0, [x3, #128]!", "cmp x3, x6", "b.lo #0"]
        return "\n".join(body), 128
    if form == "stp x":
        body = [f"stp xzr, xzr, [x3, #{16 * i}]" for i in range(4)] + [
            "add x3, x3, #64", "cmp x3, x6", "b.lo #0"]
        return "\n".join(body), 64
    if form == "dc zva":
        return "\n".join(["dc zva, x3", "add x3, x3, #64", "dc zva, x3", "add x3, x3, #64",
                          "cmp x3, x7", "b.lo #0"]), 128
    raise ValueError(form)


def a64_rows():
    rows = []
    for p in (2, 4, 8):
        rows.append(("pairs", f"x pairs, {p} per block ({p * 16} B), one update per block",
                     a64_pairs("x", p, "pre")))
    for addr, label in (("post", "post-indexed, every pair updates its pointer"),
                        ("pre", "offsets, writeback on the last pair (ldp_stp's loop)"),
                        ("add", "offsets, one add per pointer per block")):
        rows.append(("addr", f"4 x pairs per 64 B: {label}", a64_pairs("x", 4, addr)))
    rows.append(("addr", "4 x pairs per 64 B: one add per pointer, loads then stores",
                 a64_pairs("x", 4, "add", pipelined=False)))
    rows.append(("qx", "x pairs, 4 per 64 B (ldp_stp's loop)", a64_pairs("x", 4, "pre")))
    rows.append(("qx", "q pairs, 2 per 64 B", a64_pairs("q", 2, "pre")))
    rows.append(("qx", "q pairs, 4 per 128 B, writeback on the last pair (simd's loop "
                 "before)", a64_pairs("q", 4, "pre")))
    rows.append(("qx", "q pairs, 4 per 128 B, counter early, one add for the loads, "
                 "writeback on the last store (simd's loop now)", a64_pairs("q", 4, "mixed")))
    rows.append(("qx", "q pairs, 4 per 128 B, one add per pointer",
                 a64_pairs("q", 4, "add")))
    rows.append(("qx", "q pairs, 8 per 256 B, one add per pointer",
                 a64_pairs("q", 8, "add")))
    rows.append(("set", "memset: 4 stp q per 128 B (simd)", a64_memset("stp q")))
    rows.append(("set", "memset: 4 stp xzr per 64 B (ldp_stp)", a64_memset("stp x")))
    rows.append(("set", "memset: dc zva, 2 per 128 B (one store each in the models)",
                 a64_memset("dc zva")))
    return rows


def a64_sve_rows(vl):
    return [("sve", f"SVE {vl * 8}-bit, 8 vectors: ldr/str z (sve's loop before)",
             a64_sve(vl, 8, "ldr")),
            ("sve", f"SVE {vl * 8}-bit, 8 vectors: ld1b/st1b, all-true predicate "
             "(sve's loop now)", a64_sve(vl, 8, "ld1b")),
            ("sve", "Advanced SIMD, q pairs, 4 per 128 B (simd's loop now)",
             a64_pairs("q", 4, "mixed"))]


# ---- riscv64 bodies ---------------------------------------------------------------------
def rv_rows():
    rows = []
    ld = [f"ld t{i}, {8 * i}(a1)" if i < 7 else f"ld a6, {8 * i}(a1)" for i in range(8)]
    sd = [f"sd t{i}, {8 * i}(a0)" if i < 7 else f"sd a6, {8 * i}(a0)" for i in range(8)]
    rows.append(("word", "aligned words, 8 loads then 8 stores per 64 B, both adds "
                 "last (word's loop before)",
                 ("\n".join(ld + sd + ["addi a1, a1, 64", "addi a0, a0, 64",
                                       "bltu a0, a4, 0"]), 64)))
    early = ([ld[0], "addi a0, a0, 64"] + ld[1:] + ["addi a1, a1, 64"] +
             [x.replace(f"{8 * i}(a0)", f"{8 * i - 64}(a0)") for i, x in enumerate(sd)])
    rows.append(("word", "aligned words, 8 loads then 8 stores per 64 B, the stores' add "
                 "first, the loads' after them (word's loop now)",
                 ("\n".join(early + ["bltu a1, a4, 0"]), 64)))
    inter = [x for pair in zip(ld, sd) for x in pair]
    rows.append(("word", "aligned words, load/store interleaved per word, 64 B",
                 ("\n".join(inter + ["addi a1, a1, 64", "addi a0, a0, 64",
                                     "bltu a0, a4, 0"]), 64)))
    four = []
    for i in range(4):
        four += [f"ld t{i}, {8 * i}(a1)", f"sd t{i}, {8 * i}(a0)"]
    rows.append(("word", "aligned words, 4 per iteration (32 B), load/store per word",
                 ("\n".join(four + ["addi a1, a1, 32", "addi a0, a0, 32",
                                    "bltu a0, a4, 0"]), 32)))
    # the shift copy: 16 words per iteration, 4 groups of 4 loads then 4 merges+stores
    sh = []
    for g in range(4):
        for i in range(4):
            sh.append(f"ld t{i}, {8 * (4 * g + i) + 8}(a1)")
        for i in range(4):
            sh += [f"sll a7, t{i}, a3", "or a7, a7, a6", f"sd a7, {8 * (4 * g + i)}(a0)",
                   f"srl a6, t{i}, a2"]
    rows.append(("shift", "shift copy, 16 words per iteration: 4 x (4 ld, then 4 x "
                 "sll/or/sd/srl) (word's src != dst mod 8 loop)",
                 ("\n".join(sh + ["addi a1, a1, 128", "addi a0, a0, 128",
                                  "bltu a0, a4, 0"]), 128)))
    one = ["ld t0, 8(a1)", "sll a7, t0, a3", "or a7, a7, a6", "sd a7, 0(a0)", "srl a6, t0, a2",
           "addi a1, a1, 8", "addi a0, a0, 8", "bltu a0, a4, 0"]
    rows.append(("shift", "shift copy, one word per iteration", ("\n".join(one), 8)))
    byte = ["lbu t0, 0(a1)", "sb t0, 0(a0)", "addi a1, a1, 1", "addi a0, a0, 1",
            "bltu a0, a4, 0"]
    rows.append(("bytes", "bytes, one per iteration", ("\n".join(byte), 1)))
    rows.append(("mis", "misaligned 8-byte loads/stores, 32 B per iteration (unaligned's "
                 "loop; every access traps on the U74, not in the model)",
                 ("\n".join(four + ["addi a1, a1, 32", "addi a0, a0, 32",
                                    "bltu a0, a4, 0"]), 32)))
    return rows


def run(mca, arch, model, rows):
    args = [mca, "-mtriple=" + ("aarch64-linux-gnu" if arch == "aarch64" else
                                "riscv64-linux-gnu"), "-mcpu=" + model,
            f"-iterations={ITER}", "-resource-pressure=false", "-instruction-info=false"]
    if arch == "riscv64":
        args.append("-mattr=+m,+a,+f,+d,+c")
    text = "".join(f"# LLVM-MCA-BEGIN r{i}\n{body}\n# LLVM-MCA-END\n"
                   for i, (_, _, (body, _)) in enumerate(rows))
    r = subprocess.run(args + ["-"], input=text, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"loops: llvm-mca -mcpu={model}: {r.stderr.strip()[:500]}")
    res, name = {}, None
    for line in r.stdout.splitlines():
        m = re.match(r"^\[\d+\] Code Region - r(\d+)", line)
        if m:
            name = int(m.group(1))
        elif line.startswith("Total Cycles:") and name is not None:
            res[name] = int(line.split()[2]) / ITER
    return [res[i] * 64 / rows[i][2][1] for i in range(len(rows))]


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from cycles import find_llvm, mca_version, MODELS  # noqa: E402
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arch", required=True, choices=["aarch64", "riscv64"])
    ap.add_argument("--models")
    ap.add_argument("--llvm-mca", default=os.environ.get("LLVM_MCA"))
    a = ap.parse_args()
    mca = find_llvm("llvm-mca", a.llvm_mca)
    if not mca:
        print("insn-count --loops: llvm-mca not found (apt-get install llvm-19)",
              file=sys.stderr)
        return 2
    models = (a.models.split(",") if a.models else
              A64_MODELS if a.arch == "aarch64" else RV_MODELS)
    for m in models:
        if m not in MODELS or MODELS[m]["arch"] != a.arch:
            print(f"insn-count --loops: unknown {a.arch} model '{m}'", file=sys.stderr)
            return 2
    print(f"Loop bodies in steady state: llvm-mca {mca_version(mca)}, -iterations={ITER}, "
          "cycles per 64 bytes (lower is better). Estimates of a scheduling model, "
          "not time.\n")
    if a.arch == "aarch64":
        rows = a64_rows()
        with ThreadPoolExecutor(2) as ex:
            res = dict(zip(models, ex.map(lambda m: run(mca, a.arch, m, rows), models)))
        titles = {"pairs": "Register pairs per block (x pairs, software-pipelined)",
                  "addr": "Address updates (4 x pairs per 64-byte block)",
                  "qx": "q-register pairs against x-register pairs",
                  "set": "memset stores"}
        for sec, title in titles.items():
            print(f"#### {title}\n")
            print("loop body | " + " | ".join(f"`{m}`" for m in models) + " |")
            print("|".join(["---"] * (len(models) + 1)) + "|")
            for i, (s, label, _) in enumerate(rows):
                if s == sec:
                    print(f"{label} | " + " | ".join(f"{res[m][i]:.2f}" for m in models)
                          + " |")
            print()
        sve_models = [m for m in models if MODELS[m]["facts"][1] & (1 << 22)]
        if sve_models:
            print("#### SVE against Advanced SIMD (models that know SVE)\n")
            print("model | loop body | cycles per 64 B |")
            print("---|---|---|")
            for m in sve_models:
                srows = a64_sve_rows(MODELS[m]["facts"][4])
                for (_, label, _), v in zip(srows, run(mca, a.arch, m, srows)):
                    print(f"`{m}` | {label} | {v:.2f} |")
            print()
    else:
        rows = rv_rows()
        res = {m: run(mca, a.arch, m, rows) for m in models}
        print("loop body | " + " | ".join(f"`{m}`" for m in models) + " |")
        print("|".join(["---"] * (len(models) + 1)) + "|")
        for i, (_, label, _) in enumerate(rows):
            print(f"{label} | " + " | ".join(f"{res[m][i]:.2f}" for m in models) + " |")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
