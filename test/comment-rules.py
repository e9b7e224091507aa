#!/usr/bin/env python3
"""comment-rules.py SRC_DIR: the source comments say the rule; docs keep the evidence.

Checked on every C, header, assembly and .def file under SRC_DIR:
  - no date (YYYY-MM-DD) and no "this VM" / "measured here" / "this project's VM"
    (the readings and when they were taken live in docs/evidence/);
  - no comment block longer than 12 lines, except a file's opening overview, which
    may take 80 (a block: one comment, or comments on consecutive lines);
  - the x86_64 policy, classifier and table (src/x86_64/policy.c, profiles.c,
    profiles.h) together at most 35% comment lines among their non-blank lines.
Prints each violation with its file and line; exits 1 if any.
"""
import os
import re
import sys

BLOCK_MAX, OVERVIEW_MAX, POLICY_SHARE = 12, 80, 0.35
PHRASES = re.compile(r"20\d\d-\d\d-\d\d|this VM|measured here|this project's [\w ]{0,24}VM", re.I)
POLICY = ("x86_64/policy.c", "x86_64/profiles.c", "x86_64/profiles.h")


def classify(text):
    """Per line: (has_comment, has_code)."""
    out, in_c = [], False
    for line in text.split("\n"):
        com, code, i = in_c, False, 0
        while i < len(line):
            if in_c:
                j = line.find("*/", i)
                if j < 0:
                    break
                in_c, i = False, j + 2
            elif line.startswith("/*", i):
                in_c = com = True
                i += 2
            elif line.startswith("//", i):
                com = True
                break
            elif line[i] in "\"'":
                q, j = line[i], i + 1
                while j < len(line) and line[j] != q:
                    j += 2 if line[j] == "\\" else 1
                code, i = True, j + 1
            else:
                code = code or not line[i].isspace()
                i += 1
        out.append((com, code))
    return out


def main():
    src = sys.argv[1]
    bad = []
    policy_com = policy_all = 0
    for root, _, files in os.walk(src):
        for name in sorted(files):
            if not re.search(r"\.(c|h|S|def)$", name):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, src)
            text = open(path, encoding="utf-8").read()
            lines = text.split("\n")
            for n, line in enumerate(lines, 1):
                m = PHRASES.search(line)
                if m:
                    bad.append(f"{rel}:{n}: \"{m.group(0)}\" (dates and readings go to docs/evidence/)")
            kinds = classify(text)
            # comment blocks: runs of lines that carry a comment, with no blank line
            start = None
            first_code = next((k for k, (c, code) in enumerate(kinds) if code), len(kinds))
            for k in range(len(kinds) + 1):
                in_block = k < len(kinds) and kinds[k][0] and lines[k].strip()
                if in_block and start is None:
                    start = k
                elif not in_block and start is not None:
                    length = k - start
                    limit = OVERVIEW_MAX if start < first_code and start <= 1 else BLOCK_MAX
                    # a block of code lines with trailing comments is code, not a block
                    only = sum(1 for c, code in kinds[start:k] if not code)
                    if only > limit:
                        bad.append(f"{rel}:{start + 1}: comment block of {only} lines (at most {limit})")
                    start = None
            if rel in POLICY:
                for (c, code), line in zip(kinds, lines):
                    if line.strip():
                        policy_all += 1
                        policy_com += c and not code
    if policy_all:
        share = policy_com / policy_all
        print(f"x86_64 policy, classifier and table: {policy_com} comment lines of {policy_all} "
              f"({100 * share:.1f}%)")
        if share > POLICY_SHARE:
            bad.append(f"policy files: {100 * share:.1f}% comment lines (at most {100 * POLICY_SHARE:.0f}%)")
    for b in bad:
        print("FAIL: " + b)
    print(f"{len(bad)} violations")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
