#!/usr/bin/env python3
"""Compare every implementation with glibc, cell by cell, over count --sweep's grid.

usage: sweep.py [--check] [--variant V] [--detail] MODEL MAPFILE COUNTSFILE SEQFILE [...]

A cell is one call: (function, case, size, src offset, dst offset).  Its count is the
function's instructions from entry to return (the calibration, an empty function
through the same stub, subtracted as in table.py).  Per model it prints, for each
implementation, the cells where it executes more instructions than glibc 2.36 on
the same call, and the worst of them.  These are instruction counts under QEMU, not
time.

--check: exit status 1 when a checked implementation is above glibc in any cell
of any model.  Checked: the variant the library selects on that model and
"dropin" (the exported names as a preloading program reaches them); --variant V
checks V instead of the selected one (all: every variant).
"""
import array
import sys


def parse(mpath, cpath, spath):
    m = {"selected": {}, "blocks": [], "sizes": [], "offsets": None, "calib": None}
    with open(mpath) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "selected":
                m["selected"][w[1]] = w[2]
            elif w[0] == "calib":
                m["calib"] = int(w[1])
            elif w[0] == "known":
                m["known"] = (int(w[1]), int(w[2]))
            elif w[0] == "sweep" and w[1] == "sizes":
                m["sizes"] = [int(x) for x in w[3:]]
            elif w[0] == "sweep" and w[1] == "offsets":
                m["offsets"] = tuple(int(x) for x in w[2:5])
            elif w[0] == "block":
                m["blocks"].append({"id": int(w[1]), "func": w[2], "impl": w[3],
                                    "case": w[4], "first": int(w[5]), "cells": int(w[6])})
    counts = {}
    with open(cpath) as f:
        for line in f:
            w = line.split()
            if w and w[0] == "id":
                counts[int(w[1])] = dict(zip(w[2::2], (int(x) for x in w[3::2])))
            elif w and w[0] in ("unmatched", "seq_error"):
                raise SystemExit(f"{cpath}: {line.strip()}")
    seq = array.array("I")
    with open(spath, "rb") as f:
        seq.frombytes(f.read())
    if sys.byteorder != "little":
        seq.byteswap()
    return m, counts, seq


def cell_name(m, func, i):
    so, do, sdo = m["offsets"]
    if func == "memset":
        n, d = divmod(i, sdo)
        return f"n={m['sizes'][n]} dst+{d}"
    n, r = divmod(i, so * do)
    a, d = divmod(r, do)
    return f"n={m['sizes'][n]} src+{a} dst+{d}"


def analyse(model, mpath, cpath, spath, variant):
    m, counts, seq = parse(mpath, cpath, spath)
    cal = counts.get(m["calib"])
    if cal is None or cal["min"] != cal["max"]:
        raise SystemExit(f"{model}: calibration missing or not constant: {cal}")
    base = cal["min"] - 1
    kid, kn = m["known"]
    k = counts.get(kid)
    if k is None or k["min"] != k["max"] or k["min"] - base != kn:
        raise SystemExit(f"{model}: self-check failed: a {kn}-instruction function "
                         f"measured {k}")
    data = {}
    for b in m["blocks"]:
        c = counts.get(b["id"])
        if c is None or c["pairs"] != b["cells"]:
            raise SystemExit(f"{model}: block {b}: plugin saw {c}")
        vals = seq[b["first"]:b["first"] + b["cells"]]
        if len(vals) != b["cells"] or sum(vals) != c["sum"]:
            raise SystemExit(f"{model}: block {b}: seq disagrees with the per-id sum")
        data[(b["func"], b["impl"], b["case"])] = [v - base for v in vals]
    rows = []
    for (func, impl, case), ours in data.items():
        if impl == "glibc":
            continue
        g = data.get((func, "glibc", case))
        if g is None:
            continue
        above, worst, wi, sum_o, sum_g = 0, None, -1, 0, 0
        for i, (a, b) in enumerate(zip(ours, g)):
            sum_o += a
            sum_g += b
            if a > b:
                above += 1
                if worst is None or a - b > worst:
                    worst, wi = a - b, i
        sel = m["selected"].get(func)
        checked = impl == "dropin" or (variant == "all") or \
            (impl == (variant or sel))
        rows.append({"func": func, "impl": impl, "case": case, "cells": len(ours),
                     "above": above, "worst": worst,
                     "where": cell_name(m, func, wi) if wi >= 0 else "",
                     "ours": ours[wi] if wi >= 0 else None,
                     "glibc": g[wi] if wi >= 0 else None,
                     "selected": impl == sel, "checked": checked,
                     "ratio": sum_o / sum_g if sum_g else 0.0})
    return m, rows


def main(argv):
    check, variant, detail = False, None, False
    while argv and argv[0].startswith("--"):
        if argv[0] == "--check":
            check = True
            argv = argv[1:]
        elif argv[0] == "--variant":
            variant = argv[1]
            argv = argv[2:]
        elif argv[0] == "--detail":
            detail = True
            argv = argv[1:]
        else:
            print(__doc__, file=sys.stderr)
            return 2
    if not argv or len(argv) % 4:
        print(__doc__, file=sys.stderr)
        return 2
    failed = []
    print("Instruction counts under QEMU (not time): cells where an implementation "
          "executes more instructions than glibc 2.36 on the same call.\n")
    summary = []
    for j in range(0, len(argv), 4):
        model = argv[j]
        m, rows = analyse(model, *argv[j + 1:j + 4], variant)
        so, do, sdo = m["offsets"]
        print(f"### `{model}`: {len(m['sizes'])} sizes (0..{m['sizes'][-1]}), "
              f"copy offsets {so}x{do}, memset offsets {sdo}\n")
        print("function | case | implementation | cells | above glibc | worst cell "
              "(ours / glibc) | sum ours / glibc |")
        print("---|---|---|---|---|---|---|")
        chk_above, chk_cells, chk_worst = 0, 0, None
        for r in rows:
            if not (detail or r["checked"]):
                continue
            label = r["impl"] + (" (selected)" if r["selected"] else "")
            w = (f"+{r['worst']} at {r['where']} ({r['ours']} / {r['glibc']})"
                 if r["above"] else "–")
            print(f"{r['func']} | {r['case']} | {label} | {r['cells']} | "
                  f"{'**' if r['above'] else ''}{r['above']}{'**' if r['above'] else ''} | "
                  f"{w} | {r['ratio']:.2f} |")
            if r["checked"]:
                chk_above += r["above"]
                chk_cells += r["cells"]
                if r["above"] and (chk_worst is None or r["worst"] > chk_worst[0]):
                    chk_worst = (r["worst"], f"{r['func']} {r['case']} {r['impl']} "
                                 f"{r['where']} ({r['ours']} / {r['glibc']})")
                if r["above"]:
                    failed.append(f"{model}: {r['func']} {r['case']} {r['impl']}: "
                                  f"{r['above']} cells above glibc")
        print()
        summary.append((model, chk_above, chk_cells, chk_worst))
    print("model | checked cells | above glibc | worst |")
    print("---|---|---|---|")
    for model, a, c, w in summary:
        print(f"`{model}` | {c} | {a} | {('+' + str(w[0]) + ' ' + w[1]) if w else '–'} |")
    print("\n(checked: the selected variant" + (f" ({variant})" if variant else "") +
          " and the exported names through which a preloading program calls it)")
    if check and failed:
        for f in failed:
            print(f"insn-count --check: {f}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
