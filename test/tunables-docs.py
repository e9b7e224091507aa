#!/usr/bin/env python3
"""tunables-docs.py SRCDIR: every override in src/tunables.def is documented in
man/libfastcopy.7 with its bounds (its minimum, and its maximum unless that is the
1024G every size is capped at), a row of README.md's overrides table (where README
has one) gives the same bounds, no document names a FASTCOPY_ threshold
variable the list lacks, and libfastcopy(7)'s FORMER NAMES section pairs each
former name of src/tunables_former.def with the name now."""
import re
import sys

src = sys.argv[1]
defs = open(src + '/src/tunables.def').read()
rows = re.findall(r'^FC_TUNABLE\((\w+), "(\w*)", "(\w+)", (\w+), (\w+),', defs, re.M)
if len(rows) < 5:
    sys.exit('tunables-docs: could not read src/tunables.def (%d rows)' % len(rows))
former = re.findall(r'^FC_TUNABLE_FORMER\((\w+), "(\w+)", (\w+)\)',
                    open(src + '/src/tunables_former.def').read(), re.M)
if not former:
    sys.exit('tunables-docs: could not read src/tunables_former.def')


def human(v):
    v = 1 << 40 if v == 'FC_TUN_MAX' else int(v)
    for suffix, shift in (('G', 30), ('M', 20), ('K', 10)):
        if v and v % (1 << shift) == 0:
            return '%d%s' % (v >> shift, suffix)
    return str(v)


readme = open(src + '/README.md').read()
man = open(src + '/man/libfastcopy.7').read().replace('\\-', '-')
bad = []
for field, env, arch, lo, hi in rows:
    if not env:
        continue
    var = 'FASTCOPY_' + env
    lines = [l for l in readme.splitlines() if l.startswith('|') and '`%s`' % var in l]
    if lines:
        cells = [c.strip() for c in lines[0].strip('|').split('|')]
        if cells[-2:] != [human(lo), human(hi)]:
            bad.append('README.md: %s bounds %s, tunables.def says %s..%s'
                       % (var, cells[-2:], human(lo), human(hi)))
        if cells[1] != arch:
            bad.append('README.md: %s architecture %r, tunables.def says %r'
                       % (var, cells[1], arch))
    if var not in man:
        bad.append('man/libfastcopy.7: %s not documented' % var)
        continue
    # its entry: from the line that names it to the next paragraph macro
    m = re.search(r'\n\.B[R]? [^\n]*%s\b[^\n]*\n(.*?)(?=\n\.(TP|SH|PP))' % var, man, re.S)
    entry = m.group(1) if m else ''
    bounds = [human(lo)] + ([] if hi == 'FC_TUN_MAX' else [human(hi)])
    for b in bounds:
        if not re.search(r'(^|[^0-9A-Za-z_])%s([^0-9A-Za-z_]|$)' % re.escape(b), entry):
            bad.append('man/libfastcopy.7: %s: its entry does not state the bound %s'
                       % (var, b))
known = {'FASTCOPY_' + r[1] for r in rows if r[1]}
others = {'FASTCOPY_MEMCPY', 'FASTCOPY_MEMMOVE', 'FASTCOPY_MEMSET', 'FASTCOPY_TUNING',
          'FASTCOPY_DISABLE', 'FASTCOPY_QUIET'}
# the former names: each on a line of FORMER NAMES with the name now, and named
# nowhere else in the two documents
env_of = {r[0]: r[1] for r in rows}
m = re.search(r'\n\.SH FORMER NAMES\n(.*?)(?=\n\.SH )', man, re.S)
section = m.group(1) if m else ''
if not m:
    bad.append('man/libfastcopy.7: no FORMER NAMES section')
for key, env, field in former:
    if field not in env_of:
        bad.append('src/tunables_former.def: %s is no tunable' % field)
        continue
    pair = [l for l in section.splitlines()
            if re.search(r'\bFASTCOPY_%s\b' % env, l) and re.search(r'\b%s\b' % key, l)]
    if not pair or not re.search(r'\bFASTCOPY_%s\b' % env_of[field], pair[0]) \
            or not re.search(r'\b%s\b' % field, pair[0]):
        bad.append('man/libfastcopy.7: FORMER NAMES lacks %s, %s -> FASTCOPY_%s, %s'
                   % ('FASTCOPY_' + env, key, env_of[field], field))
formers = {'FASTCOPY_' + f[1] for f in former}
for name, text in (('README.md', readme), ('man/libfastcopy.7', man.replace(section, ''))):
    for var in set(re.findall(r'FASTCOPY_[A-Z_]*(?:THRESHOLD|START|STOP|RESUME|MIN|MAX)\b', text)):
        if var in formers:
            bad.append('%s names the former %s outside FORMER NAMES' % (name, var))
        elif var not in known:
            bad.append('%s names %s, which src/tunables.def does not list' % (name, var))
    for var in others:
        if name != 'README.md' and var not in text:
            bad.append('%s: %s not documented' % (name, var))
for b in bad:
    print('FAIL:', b)
print('%d overrides checked, %d problems' % (len(known), len(bad)))
sys.exit(1 if bad else 0)
