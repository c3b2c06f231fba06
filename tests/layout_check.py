#!/usr/bin/env python3
"""The source layout rules (ctest: layout_check), over the files git tracks:

  (a) no C++ file (*.cpp, *.hpp, *.h) under attention/ analysis/ sweeps/ io/ bench/ tests/
      python/ is over 500 lines;
  (b) no function outside tests/ is over 80 lines, from the line of its name to the line of its
      closing brace (functions and lambdas as universal-ctags lists them);
  (c) each variant id of attention/registry.hpp's COSDA_VARIANTS, as a quoted string "id",
      appears in no C++ source but attention/registry.hpp and analysis/published.cpp, not
      counting attention/variants/<id>.hpp/.cpp, tests/, bench/peer_torch.cpp, configs/, results/, docs/
      and the fuzzers' seed and regression folders;
  (d) at most 25 files lie directly in attention/: the kernels sit in sub-folders by role
      (variants/, families/, ops/, kernels/, counting/), whole models in models/;
  (e) every source file the Markdown documents quote as `folder/file.hpp` (.cpp, .py, .sh;
      folder a top-level folder of the tree) exists: a moved file leaves no stale path.

(a) to (e) fail the check, except for what KNOWN_OVERSIZE allows.

usage: layout_check.py [ROOT]   (ROOT: the source tree, default: this file's ../)
"""

import os
import re
import shutil
import subprocess
import sys

# Entries that may exceed the limits ("path" or "path:function"), each with its reason. Empty:
# every file and function is within them; the check names entries that are no longer needed.
KNOWN_OVERSIZE = []

MAX_FILE_LINES = 500
MAX_FUNCTION_LINES = 80
SIZED_DIRS = ("attention/", "models/", "analysis/", "sweeps/", "io/", "bench/", "tests/", "python/")
CPP_EXTENSIONS = (".cpp", ".hpp", ".h")
ID_ALLOWED = ("attention/registry.hpp", "analysis/published.cpp")
ID_EXCLUDED_DIRS = ("tests/", "configs/", "results/", "docs/")
ID_EXCLUDED_FILES = ("bench/peer_torch.cpp",)
MAX_TOP_FILES = {"attention/": 25}
FUZZ_DATA = re.compile(r"(^|/)fuzz/[^/]*_(seeds|regressions)/")
QUOTED_SOURCE = re.compile(r"`([A-Za-z0-9_.][A-Za-z0-9_./-]*\.(?:hpp|cpp|py|sh))`")


def tracked_files(root):
    """The files git tracks under root, or every file when root is not a git checkout."""
    if os.path.exists(os.path.join(root, ".git")):
        try:
            out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True,
                                 capture_output=True).stdout
            return sorted(p for p in out.decode().split("\0") if p)
        except (OSError, subprocess.CalledProcessError) as error:
            print(f"layout_check: git ls-files failed ({error}); walking the tree instead")
    files = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith((".", "build"))]
        for name in filenames:
            files.append(os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/"))
    return sorted(files)


def read_lines(root, path):
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        return f.read().splitlines()


def allowed(path, function=None):
    return path in KNOWN_OVERSIZE or (function is not None and f"{path}:{function}" in
                                      KNOWN_OVERSIZE)


def check_file_lengths(root, files):
    """(a): the C++ files over MAX_FILE_LINES lines, as (path, lines)."""
    over = []
    for path in files:
        if path.startswith(SIZED_DIRS) and path.endswith(CPP_EXTENSIONS):
            n = len(read_lines(root, path))
            if n > MAX_FILE_LINES:
                over.append((path, n))
    return over


def closing_line(lines, start):
    """The 1-based line of the brace closing the function whose name is on line `start`:
    the first line from there that begins with '}' at the indentation of line `start` (the tree
    is clang-formatted), or `start` itself when that line opens and closes its braces."""
    first = lines[start - 1]
    if "{" in first and first.count("{") == first.count("}"):
        return start
    indent = len(first) - len(first.lstrip())
    for i in range(start, len(lines)):
        line = lines[i]
        if line.lstrip().startswith("}") and len(line) - len(line.lstrip()) == indent:
            return i + 1
    return None


def check_function_lengths(root, files):
    """(b): the functions outside tests/ over MAX_FUNCTION_LINES lines, as (path, line, lines,
    name), and notes where ctags' end line and the closing brace disagree.

    ctags gives each function's first line and, usually, its last; a function it reports over
    the limit is measured again by closing_line(), which is used when the two differ (with a
    note), as is a function ctags gives no end for. Names may contain spaces ("operator <<"),
    so ctags' fields are tab-separated: split on white space, "operator <<" at line 163 of
    attention/counting/poly.hpp reads as a 164-line function."""
    sources = [p for p in files if p.endswith(CPP_EXTENSIONS) and not p.startswith("tests/")]
    ctags = shutil.which("ctags-universal") or shutil.which("universal-ctags")
    if ctags is None:
        sys.exit("layout_check: ctags-universal not found (Debian package universal-ctags; "
                 "make deps installs it)")
    over, notes = [], []
    for i in range(0, len(sources), 200):
        out = subprocess.run(
            [ctags, "--languages=C++", "--map-C++=+.h", "--kinds-C++=f", "--fields=+ne", "-x",
             "--_xformat=%F\t%n\t%e\t%N"] + sources[i:i + 200],
            cwd=root, check=True, capture_output=True, text=True).stdout
        for row in out.splitlines():
            path, start, end, name = row.split("\t", 3)
            start = int(start)
            length = int(end) - start + 1 if end.isdigit() else None
            if length is not None and length <= MAX_FUNCTION_LINES:
                continue
            closing = closing_line(read_lines(root, path), start)
            measured = closing - start + 1 if closing is not None else None
            if measured is not None and measured != length:
                notes.append(f"{path}:{start} {name}: ctags gives "
                             f"{length if length is not None else 'no end'}, the closing brace "
                             f"{measured} lines; {measured} used")
                length = measured
            if length is None:
                notes.append(f"{path}:{start} {name}: no end found; not measured")
                continue
            if length > MAX_FUNCTION_LINES:
                shown = "(lambda)" if name.startswith("__anon") else name
                over.append((path, start, length, shown))
    return over, notes


def variant_ids(root):
    text = "\n".join(read_lines(root, "attention/registry.hpp"))
    block = re.search(r"#define COSDA_VARIANTS\(X\)((?:.*\\\n)*.*)", text)
    if block is None:
        sys.exit("layout_check: no COSDA_VARIANTS list in attention/registry.hpp")
    return re.findall(r"X\((\w+),", block.group(1))


def check_ids(root, files):
    """(c): {id: [files quoting it where they should not]}."""
    ids = variant_ids(root)
    found = {i: [] for i in ids}
    for path in files:
        if (not path.endswith(CPP_EXTENSIONS) or path in ID_ALLOWED or
                path in ID_EXCLUDED_FILES or path.startswith(ID_EXCLUDED_DIRS) or
                FUZZ_DATA.search(path)):
            continue
        text = "\n".join(read_lines(root, path))
        for i in ids:
            if path in (f"attention/variants/{i}.hpp", f"attention/variants/{i}.cpp"):
                continue
            if f'"{i}"' in text:
                found[i].append(path)
    return {i: paths for i, paths in found.items() if paths}


def check_quoted_sources(root, files):
    """(document, line, path) for each quoted source path under a top-level folder that is not
    a tracked file."""
    tops = {f.split("/")[0] for f in files if "/" in f}
    tracked = set(files)
    stale = []
    for doc in sorted(f for f in files if f.endswith(".md")):
        for number, line in enumerate(read_lines(root, doc), 1):
            for path in QUOTED_SOURCE.findall(line):
                if "/" in path and path.split("/")[0] in tops and path not in tracked:
                    stale.append((doc, number, path))
    return stale


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    flags = [a for a in argv[1:] if a.startswith("--")]
    unknown = list(flags)
    if unknown or len(args) > 1:
        sys.exit(__doc__.split("\n\n")[-1].strip())
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), ".."))
    files = tracked_files(root)
    failed = False

    long_files = check_file_lengths(root, files)
    long_functions, notes = check_function_lengths(root, files)
    print(f"(a) C++ files over {MAX_FILE_LINES} lines under {' '.join(SIZED_DIRS)}:")
    for path, n in long_files:
        known = allowed(path)
        failed |= not known
        print(f"  {path}: {n} lines{'  (known)' if known else '  FAIL'}")
    if not long_files:
        print("  none")

    print(f"(b) functions over {MAX_FUNCTION_LINES} lines outside tests/:")
    for path, start, n, name in sorted(long_functions):
        known = allowed(path, name)
        failed |= not known
        print(f"  {path}:{start}: {n} lines, {name}{'  (known)' if known else '  FAIL'}")
    if not long_functions:
        print("  none")
    for note in notes:
        print(f"  note: {note}")

    oversize = {p for p, _ in long_files} | {p for p, _, _, _ in long_functions}
    oversize |= {f"{p}:{name}" for p, _, _, name in long_functions}
    for entry in KNOWN_OVERSIZE:
        if entry not in oversize:
            print(f"  KNOWN_OVERSIZE: {entry} is within the limits now; remove it from the list")

    ids = check_ids(root, files)
    print(f"(c) variant ids quoted outside {', '.join(ID_ALLOWED)}:")
    for i, paths in ids.items():
        print(f'  "{i}": {", ".join(paths)}')
    if not ids:
        print("  none")
    failed |= bool(ids)

    for folder, limit in MAX_TOP_FILES.items():
        top = [p for p in files if p.startswith(folder) and "/" not in p[len(folder):]]
        over = len(top) > limit
        failed |= over
        print(f"(d) files directly in {folder}: {len(top)} (at most {limit}){'  FAIL' if over else ''}")

    stale = check_quoted_sources(root, files)
    print("(e) source paths quoted in Markdown that name no file:")
    for doc, number, path in stale:
        print(f"  {doc}:{number}: {path}  FAIL")
    if not stale:
        print("  none")
    failed |= bool(stale)

    print("layout_check: " + ("FAILED" if failed else "passed"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
