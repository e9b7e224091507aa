#!/usr/bin/python3
"""Turns an `fcbench --csv` file into PNG charts and a Markdown summary table.

usage: bench/plot.py RESULTS.csv OUTDIR [--label "machine, date"] [--prefix fcbench-]

Writes into OUTDIR:
  <prefix>sizes-memcpy.png, -memmove.png, -memset.png  GB/s against size (log axis),
        hot aligned and misaligned (src+1, dst+3) panels, one line per variant,
        the automatically selected one ("auto") and the system C library
  <prefix>mix.png        ns per call on the fleet size mixes (lower is better)
  <prefix>dist.png       GB/s against dst - src distance, 4096-byte copies
  <prefix>levels.png     GB/s with working sets in L1/L2/L3/DRAM and cold copies
  <prefix>summary.md     the summary tables (bench/perf-docs.sh): libc vs auto per case, with verdicts
Needs python3-matplotlib (Debian: apt install python3-matplotlib).
"""
import argparse
import csv
import math
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use('Agg')
import matplotlib.pyplot as plt  # noqa: E402

FUNCS = ('memcpy', 'memmove', 'memset')


def load(path):
    with open(path, newline='') as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        r['size'] = int(r['size'])
        for k in ('median_ns', 'q1_ns', 'q3_ns', 'speedup', 'libc_median_ns'):
            r[k] = float(r[k]) if r.get(k) not in (None, '') else math.nan
    return rows


def impl_order(rows):
    """libc first, auto second, then the variants in file order, the rest last."""
    seen = []
    for r in rows:
        if r['impl'] not in seen:
            seen.append(r['impl'])
    rank = {'libc': 0, 'auto': 1}
    return sorted(seen, key=lambda n: (rank.get(n, 2 if n not in ('empty', 'copy_user',
                                                                  'clear_user') else 3),
                                       seen.index(n)))


PALETTE = ['tab:blue', 'tab:orange', 'tab:green', 'tab:purple', 'tab:brown', 'tab:pink',
           'tab:olive', 'tab:cyan', 'tab:gray']
COLORS = {'libc': 'black', 'auto': 'tab:red', 'empty': 'lightgray'}


def color(impl):
    """One colour per impl name in every chart; libc black, auto red."""
    if impl not in COLORS:
        COLORS[impl] = PALETTE[(len(COLORS) - 3) % len(PALETTE)]
    return COLORS[impl]


def style(impl, selected):
    if impl == 'libc':
        return dict(color='black', linewidth=2.6, linestyle='-', zorder=5)
    if impl == 'auto':
        return dict(color='tab:red', linewidth=2.0, linestyle='--', zorder=6)
    return dict(color=color(impl), linewidth=1.1, alpha=0.85, linestyle='-', zorder=3)


def fmt_size(n):
    for unit, shift in (('G', 30), ('M', 20), ('K', 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return '%d%s' % (n >> shift, unit)
    return str(n)


def selected_names(rows):
    sel = {}
    for r in rows:
        if r['role'] == 'variant' and r['selected'] == '1':
            sel[r['func']] = r['impl']
    return sel


def label_of(impl, func, sel):
    if impl == 'libc':
        return 'system libc'
    if impl == 'auto':
        return 'fastcopy auto (= %s)' % sel.get(func, '?')
    return impl


def save(fig, label, path):
    """Titles the figure with the run's label, writes it to path, closes it."""
    fig.suptitle(label, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path

def plot_sizes(rows, outdir, prefix, label, sel):
    out = []
    for func in FUNCS:
        panels = [('sizes', 'hot, aligned'),
                  ('misal', 'hot, misaligned (%s)' % ('dst+3' if func == 'memset'
                                                      else 'src+1, dst+3'))]
        have = [(g, t) for g, t in panels
                if any(r['func'] == func and r['group'] == g for r in rows)]
        if not have:
            continue
        fig, axes = plt.subplots(1, len(have), figsize=(7.2 * len(have), 5.2), squeeze=False)
        for ax, (group, title) in zip(axes[0], have):
            sub = [r for r in rows if r['func'] == func and r['group'] == group and r['size'] > 0]
            for impl in impl_order(sub):
                pts = sorted((r['size'], r['size'] / r['median_ns']) for r in sub
                             if r['impl'] == impl and r['median_ns'] > 0)
                if not pts:
                    continue
                ax.plot([p[0] for p in pts], [p[1] for p in pts],
                        label=label_of(impl, func, sel), **style(impl, sel))
            ax.set_xscale('log', base=2)
            ax.set_yscale('log')
            ax.set_xlabel('bytes per call')
            ax.set_ylabel('GB/s (bytes / ns), higher is better')
            ax.set_title('%s, %s' % (func, title))
            ax.grid(True, which='both', alpha=0.3)
            ticks = [1, 16, 256, 4096, 1 << 16, 1 << 20, 1 << 24, 1 << 28]
            lim = max(r['size'] for r in sub) if sub else 1
            ax.set_xticks([t for t in ticks if t <= lim * 1.01])
            ax.set_xticklabels([fmt_size(t) for t in ticks if t <= lim * 1.01])
            ax.legend(fontsize=8, loc='upper left')
        path = save(fig, label, os.path.join(outdir, '%ssizes-%s.png' % (prefix, func)))
        out.append(path)
    return out


def plot_bars(ax, cats, impls, value, title, ylabel, func, sel):
    width = 0.8 / max(1, len(impls))
    for k, impl in enumerate(impls):
        ys = [value(c, impl) for c in cats]
        xs = [i + (k - (len(impls) - 1) / 2) * width for i in range(len(cats))]
        kw = dict(color=color(impl))
        if impl == 'empty':
            kw['hatch'] = '//'
        ax.bar(xs, [y if y == y else 0 for y in ys], width, label=label_of(impl, func, sel), **kw)
    ax.set_xticks(range(len(cats)))
    ax.set_xticklabels(cats, rotation=35, ha='right', fontsize=8)
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    ax.grid(True, axis='y', alpha=0.3)


def plot_mix(rows, outdir, prefix, label, sel):
    funcs = [f for f in FUNCS if any(r['func'] == f and r['group'] == 'mix' for r in rows)]
    if not funcs:
        return []
    fig, axes = plt.subplots(len(funcs), 1, figsize=(12, 3.9 * len(funcs)), squeeze=False)
    for ax, func in zip(axes[:, 0], funcs):
        # The fleet mixes only: the synthetic Uniform384To4096 (about 10x more bytes per
        # call) would flatten them; it stays in the table and the CSV.
        sub = [r for r in rows if r['func'] == func and r['group'] == 'mix'
               and 'Uniform' not in r['case']]
        cats = []
        for r in sub:
            k = r['case'].split('/', 2)[2]
            if k not in cats:
                cats.append(k)
        val = {(r['case'].split('/', 2)[2], r['impl']): r['median_ns'] for r in sub}
        plot_bars(ax, cats, impl_order(sub), lambda c, i: val.get((c, i), math.nan),
                  '%s: fleet size mixes (65536 calls drawn from each file, random offsets)' % func,
                  'ns per call, lower is better', func, sel)
        ax.legend(fontsize=7, loc='upper left', bbox_to_anchor=(1.0, 1.0))
    path = save(fig, label, os.path.join(outdir, '%smix.png' % prefix))
    return [path]


def plot_dist(rows, outdir, prefix, label, sel):
    funcs = [f for f in ('memcpy', 'memmove')
             if any(r['func'] == f and r['group'] == 'dist' for r in rows)]
    if not funcs:
        return []
    fig, axes = plt.subplots(len(funcs), 1, figsize=(12, 4.2 * len(funcs)), squeeze=False)
    for ax, func in zip(axes[:, 0], funcs):
        sub = [r for r in rows if r['func'] == func and r['group'] == 'dist']
        ds = sorted({int(r['param']) for r in sub})
        for impl in impl_order(sub):
            m = {int(r['param']): r['size'] / r['median_ns'] for r in sub
                 if r['impl'] == impl and r['median_ns'] > 0}
            ax.plot(range(len(ds)), [m.get(d, math.nan) for d in ds], marker='.',
                    label=label_of(impl, func, sel), **style(impl, sel))
        step = max(1, len(ds) // 40)
        ax.set_xticks(range(0, len(ds), step))
        ax.set_xticklabels([str(ds[i]) for i in range(0, len(ds), step)], rotation=60,
                           fontsize=7)
        what = ('dst = src + d (overlapping when d < 4096)' if func == 'memmove'
                else 'dst = src + 64 KiB + d (same distance modulo the page, no overlap)')
        ax.set_title('%s, 4096 bytes per call, %s' % (func, what))
        ax.set_xlabel('d (bytes)')
        ax.set_ylabel('GB/s, higher is better')
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7, loc='upper left', bbox_to_anchor=(1.0, 1.0))
    path = save(fig, label, os.path.join(outdir, '%sdist.png' % prefix))
    return [path]


def plot_levels(rows, outdir, prefix, label, sel):
    funcs = [f for f in FUNCS if any(r['func'] == f and r['group'] in ('ws', 'cold')
                                     for r in rows)]
    if not funcs:
        return []
    fig, axes = plt.subplots(len(funcs), 1, figsize=(12, 3.6 * len(funcs)), squeeze=False)
    for ax, func in zip(axes[:, 0], funcs):
        sub = [r for r in rows if r['func'] == func and r['group'] in ('ws', 'cold')]
        cats, val = [], {}
        for r in sub:
            k = r['group'] + ' ' + (r['case'].split('/', 2)[2] if r['group'] == 'ws'
                                    else fmt_size(r['size']))
            if r['group'] == 'ws':
                k += ' (%s)' % fmt_size(r['size'])
            if k not in cats:
                cats.append(k)
            val[(k, r['impl'])] = r['size'] / r['median_ns'] if r['median_ns'] > 0 else math.nan
        plot_bars(ax, cats, impl_order(sub), lambda c, i: val.get((c, i), math.nan),
                  '%s: working sets (hot) and cold copies (region 4x L3)' % func,
                  'GB/s (log), higher is better', func, sel)
        ax.set_yscale('log')
        ax.legend(fontsize=7, loc='upper left', bbox_to_anchor=(1.0, 1.0))
    path = save(fig, label, os.path.join(outdir, '%slevels.png' % prefix))
    return [path]


def fmt_ns(v):
    if v != v:
        return '-'
    if v < 100:
        return '%.2f' % v
    if v < 10000:
        return '%.0f' % v
    if v < 1e6:
        return '%.1f us' % (v / 1e3) if v < 1e5 else '%.0f us' % (v / 1e3)
    return '%.2f ms' % (v / 1e6)


def cell(by, case):
    a, b = by.get((case, 'libc')), by.get((case, 'auto'))
    if not a or not b:
        return ''
    mark = {'faster': '+', 'slower': '-'}.get(b['verdict'], '~')
    return '%s → %s (**%.2fx**%s)' % (fmt_ns(a['median_ns']), fmt_ns(b['median_ns']),
                                      b['speedup'], mark)


def summary(rows, outdir, prefix, label, sel):
    by = {(r['case'], r['impl']): r for r in rows}
    cases = []
    for r in rows:
        if r['case'] not in cases:
            cases.append(r['case'])
    lines = ['`auto` = what libfastcopy selects here (memcpy and memmove: `%s`, memset: `%s`). '
             'Cells: glibc median → libfastcopy median per call (ns unless marked), and the '
             'speedup (glibc time / libfastcopy time; above 1 is faster); `+`/`-`: proven '
             'faster/slower by more than 3%%, corrected for the cells compared, `~`: not proven.'
             % (sel.get('memcpy', '?'), sel.get('memset', '?')), '']
    # 1. The fleet mixes, one row per file.
    mixes = []
    for c in cases:
        if '/mix/' in c:
            k = c.split('/', 2)[2]
            if k not in mixes:
                mixes.append(k)
    if mixes:
        # mixread: the same calls, each followed by a read of the last byte written.
        reads = [f for f in ('memcpy', 'memset')
                 if any(c.startswith(f + '/mixread/') for c in cases)]
        lines += ['| size mix (mean bytes/call) | memcpy | memmove | memset |%s' %
                  ''.join(' %s, then read |' % f for f in reads),
                  '|---|---|---|---|%s' % ('---|' * len(reads))]
        for k in mixes:
            size = next(by[(c, 'libc')]['size'] for c in cases
                        if c.endswith('/mix/' + k) and (c, 'libc') in by)
            lines.append('| %s (%d) | %s |' % (k, size, ' | '.join(
                [cell(by, '%s/mix/%s' % (f, k)) for f in FUNCS] +
                [cell(by, '%s/mixread/%s' % (f, k)) for f in reads])))
        lines.append('')
        if reads:
            lines += ['"then read": each call followed by a load of the last byte it wrote, '
                      'as a program that uses the copy at once; such a load waits until the '
                      'store can forward, and byte-masked stores (`avx512` below 64 bytes) '
                      'cannot.', '']
        for func in FUNCS:
            sp = [by[(c, 'auto')]['speedup'] for c in cases
                  if c.startswith(func + '/mix/') and 'Uniform' not in c and
                  (c, 'auto') in by and by[(c, 'auto')]['speedup'] == by[(c, 'auto')]['speedup']]
            if sp:
                g = math.exp(sum(math.log(x) for x in sp) / len(sp))
                lines.append('- %s over its %d fleet mixes: geometric-mean speedup **%.2fx** '
                             '(range %.2f-%.2fx)' % (func, len(sp), g, min(sp), max(sp)))
        lines.append('')
    # 2. The sweep: selected cases, one column per function.
    keys = ['sizes/16', 'sizes/64', 'sizes/256', 'sizes/1024', 'sizes/4096', 'sizes/65536',
            'sizes/1048576', 'sizes/16777216', 'sizes/268435456', 'misal/64', 'misal/256',
            'misal/4096', 'dist/d=1', 'dist/d=63', 'dist/d=4097', 'cold/1024', 'cold/65536',
            'ws/L1', 'ws/L2', 'ws/L3', 'ws/DRAM', 'overlap/fwd/4096', 'overlap/bwd/4096']
    present = [k for k in keys if any((f + '/' + k, 'libc') in by for f in FUNCS)]
    if present:
        lines += ['| case (bytes/call) | memcpy | memmove | memset |', '|---|---|---|---|']
        for k in present:
            size = next(by[(f + '/' + k, 'libc')]['size'] for f in FUNCS
                        if (f + '/' + k, 'libc') in by)
            sizes = {by[(f + '/' + k, 'libc')]['size'] for f in FUNCS
                     if (f + '/' + k, 'libc') in by}
            what = fmt_size(size) if len(sizes) == 1 else '%s; memset %s' % (
                fmt_size(size), fmt_size(by[('memset/' + k, 'libc')]['size']))
            lines.append('| `%s` (%s) | %s |' % (k, what, ' | '.join(
                cell(by, '%s/%s' % (f, k)) for f in FUNCS)))
    path = os.path.join(outdir, '%ssummary.md' % prefix)
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    return [path]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('csv')
    ap.add_argument('outdir')
    ap.add_argument('--label', default='', help='machine and date, printed on every chart')
    ap.add_argument('--prefix', default='fcbench-')
    a = ap.parse_args()
    rows = load(a.csv)
    if not rows:
        sys.exit('no rows in %s' % a.csv)
    os.makedirs(a.outdir, exist_ok=True)
    sel = selected_names(rows)
    made = []
    for fn in (plot_sizes, plot_mix, plot_dist, plot_levels, summary):
        made += fn(rows, a.outdir, a.prefix, a.label, sel)
    for p in made:
        print(p)


if __name__ == '__main__':
    main()
