#!/usr/bin/env python3
"""doc-links.py SOURCE_ROOT: every relative link of README.md and docs/**/*.md leads
somewhere: the file exists, and a #fragment into a Markdown file names one of its
headings (GitHub's anchor rule) or an explicit <a id="...">.  Prints each broken
link with its file and line; exits 1 if any."""
import os
import re
import sys

LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(path):
    text = open(path, encoding="utf-8").read()
    out, seen = set(), {}
    in_code = False
    for line in text.split("\n"):
        if line.startswith("```"):
            in_code = not in_code
        if in_code:
            continue
        m = re.match(r"#+\s+(.*)", line)
        if m:
            a = m.group(1).strip().lower()
            a = re.sub(r"[^\w\- ]", "", a).replace(" ", "-")
            n = seen.get(a, 0)
            seen[a] = n + 1
            out.add(a if n == 0 else f"{a}-{n}")
    out.update(re.findall(r'<a id="([^"]+)"', text))
    return out


def main():
    root = sys.argv[1]
    files = [os.path.join(root, "README.md")]
    for d, _, names in os.walk(os.path.join(root, "docs")):
        files += [os.path.join(d, n) for n in sorted(names) if n.endswith(".md")]
    bad = 0
    for path in files:
        in_code = False
        for n, line in enumerate(open(path, encoding="utf-8"), 1):
            if line.startswith("```"):
                in_code = not in_code
            if in_code:
                continue
            for target in LINK.findall(line):
                if re.match(r"[a-z]+:", target):
                    continue
                file, _, frag = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
                rel = os.path.relpath(path, root)
                if not os.path.exists(dest):
                    print(f"FAIL: {rel}:{n}: {target}: no such file")
                    bad += 1
                elif frag and dest.endswith(".md") and frag not in anchors(dest):
                    print(f"FAIL: {rel}:{n}: {target}: no such heading")
                    bad += 1
    print(f"{len(files)} files, {bad} broken links")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
