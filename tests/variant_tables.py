#!/usr/bin/env python3
"""Every table of variants in README.md and docs/*.md lists the registry, nothing else.

A Markdown table (outside fenced blocks) whose first header cell is `id` and whose first row
names a variant of the registry is a list of variants: the ids of its first column (a cell
may hold several, separated by `/`, as `co_si` / `co_re`) must be the registry's ids, each
once, in registry order. The registry's ids come from `cosda variants --ids all`, so a
variant added to attention/registry.hpp fails here until the tables name it.

usage: variant_tables.py --bin BUILD/bin --source SOURCE_DIR
"""

import argparse
import glob
import os
import re
import subprocess
import sys


def tables(path):
    """(line number, header cells, rows of cells) for every table outside fenced blocks."""
    out, fence, current = [], None, None
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.strip()
            m = re.match(r"^(`{3,})", line)
            if m and (fence is None or line == fence):
                fence = m.group(1) if fence is None else None
                current = None
                continue
            if fence is not None or not line.startswith("|"):
                current = None
                continue
            cells = [c.strip() for c in line.strip("|").split("|")]
            if current is None:
                current = (number, cells, [])
                out.append(current)
            elif not all(re.match(r"^:?-+:?$", c) for c in cells):
                current[2].append(cells)
    return out


def ids_of(cell):
    return [w.strip().strip("`").strip() for w in cell.split("/") if w.strip()]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True, help="the build's executables (build/bin)")
    ap.add_argument("--source", required=True, help="the source tree")
    args = ap.parse_args()
    registry = subprocess.run([os.path.join(args.bin, "cosda"), "variants", "--ids", "all"],
                              capture_output=True, text=True, check=True).stdout.split()
    if not registry:
        print("FAIL cosda variants --ids all printed no ids", file=sys.stderr)
        return 1
    docs = [os.path.join(args.source, "README.md")]
    docs += sorted(glob.glob(os.path.join(args.source, "docs", "*.md")))
    failures, checked = [], 0
    for doc in docs:
        rel = os.path.relpath(doc, args.source)
        for line, header, rows in tables(doc):
            if not header or header[0] != "id" or not rows:
                continue
            if not any(i in registry for i in ids_of(rows[0][0])):
                continue
            checked += 1
            listed = [i for r in rows for i in ids_of(r[0])]
            if listed != registry:
                missing = [i for i in registry if i not in listed]
                extra = [i for i in listed if i not in registry]
                twice = sorted({i for i in listed if listed.count(i) > 1})
                failures.append(
                    "%s:%d: the table of variants lists %s; the registry holds %s "
                    "(missing: %s; not in the registry: %s; twice: %s): add or remove its rows"
                    % (rel, line, " ".join(listed), " ".join(registry),
                       " ".join(missing) or "none", " ".join(extra) or "none",
                       " ".join(twice) or "none"))
    print("%d tables of variants checked against %d registry ids" % (checked, len(registry)))
    if checked == 0:
        failures.append("no table of variants (first header cell `id`) in README.md or docs/")
    for f in failures:
        print("FAIL " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
