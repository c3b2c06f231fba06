#!/usr/bin/env python3
"""Every fenced shell command in README.md and docs/*.md is run by a test or by `make reproduce`.

Each line of a ```sh, ```bash, ```shell or ```console block (comments and `$ ` prompts
stripped, continuation lines joined, blank lines skipped) must be one of:
  (a) `make TARGET [VAR=VALUE ...]` with TARGET a target of the Makefile;
  (b) a command of the Makefile's `reproduce` recipe, whitespace aside (its `for` loops
      expanded);
  (c) a `build/bin/...` command this test runs, from a temporary folder holding `build/bin`
      (the build's executables), `configs` (the source tree's) and a small `X.npy` of
      tokens, and which must exit with 0. A `cosda-bench` command gets
      `--benchmark_list_tests=true` appended: its flags and config are checked, nothing is
      timed.
Anything else fails with file:line and the command. Commands for other machines (Slurm)
belong in ```text blocks, which are not shell.

usage: doc_commands.py --bin BUILD/bin --source SOURCE_DIR [--list]
"""

import argparse
import glob
import os
import random
import re
import struct
import subprocess
import sys
import tempfile
import time

SHELL_FENCES = {"sh", "bash", "shell", "console"}
# Executables a build may lack (cosda-peer-torch without libtorch, cosda-bench in the
# sanitizer tree, cosda_tests in a Release tree `make test` built without the suite): their
# commands are skipped there with a note. Any other must exist.
OPTIONAL_EXECUTABLES = {"cosda-bench", "cosda-peer-torch", "cosda_tests"}
COMMAND_TIMEOUT = 60


def strip_comment(line):
    """The line without a shell comment (a # at the start or after a blank, outside quotes)."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i]
    return line


def normalise(cmd):
    return " ".join(cmd.split())


def fenced_commands(path):
    """(line number, command) for every command in the shell blocks of a Markdown file."""
    out = []
    fence = None  # the opening fence's backticks while inside a shell block
    other = None  # the same for any other block
    pending, pending_line = "", 0
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            stripped = raw.strip()
            m = re.match(r"^(`{3,})\s*([A-Za-z0-9_+-]*)", stripped)
            if fence is None and other is None and m:
                if m.group(2).lower() in SHELL_FENCES:
                    fence = m.group(1)
                else:
                    other = m.group(1)
                continue
            if other is not None:
                if stripped == other:
                    other = None
                continue
            if fence is None:
                continue
            if stripped == fence:
                if pending:
                    out.append((pending_line, normalise(pending)))
                fence, pending = None, ""
                continue
            line = stripped
            if not pending and line.startswith("$ "):
                line = line[2:]
            line = strip_comment(line).strip()
            if not line and not pending:
                continue
            if not pending:
                pending_line = number
            if line.endswith("\\"):
                pending += line[:-1] + " "
                continue
            pending += line
            out.append((pending_line, normalise(pending)))
            pending = ""
    if fence is not None:
        out.append((pending_line or 0, "<unclosed ``` block>"))
    return out


def makefile_targets(makefile):
    targets = set()
    for line in makefile.splitlines():
        m = re.match(r"^([A-Za-z0-9_.%/ -]+?)\s*:(?!=)", line)
        if m and not line.startswith("\t"):
            targets.update(t for t in m.group(1).split() if not t.startswith("."))
    return targets


def expand_loops(text):
    """`for v in a b; do BODY; done` -> BODY with $v (or ${v}) replaced, once per word."""
    loop = re.compile(r"for\s+(\w+)\s+in\s+([^;]*?)\s*;\s*do\s+(.*?)\s*done")
    while True:
        m = loop.search(text)
        if not m:
            return text
        var, words, body = m.group(1), m.group(2).split(), m.group(3)
        bodies = [re.sub(r"\$(\{%s\}|%s\b)" % (var, var), w, body) for w in words]
        text = text[: m.start()] + " ; ".join(bodies) + " ; " + text[m.end() :]


def reproduce_commands(makefile):
    """The commands of the `reproduce` recipe, normalised."""
    lines = makefile.splitlines()
    start = next(i for i, l in enumerate(lines) if re.match(r"^reproduce\s*:", l))
    recipe, logical = [], ""
    for line in lines[start + 1 :]:
        if not line.startswith("\t"):
            if line.strip():
                break
            continue
        part = line[1:]
        if part.rstrip().endswith("\\"):
            logical += part.rstrip()[:-1] + " "
            continue
        recipe.append(logical + part)
        logical = ""
    commands = set()
    for line in recipe:
        line = line.strip().lstrip("@").strip().replace("$$", "$")
        if line.startswith("#"):
            continue
        for piece in re.split(r";|&&|\|\|", expand_loops(line)):
            piece = piece.strip()
            piece = re.sub(r"^(then|else|do)\s+", "", piece)
            if piece and piece not in ("fi", "done", "exit 1"):
                commands.add(normalise(piece))
    return commands


def write_npy(path, rows, cols):
    """A float64 C-order .npy of seeded N(0, 1) values (the tokens of the stream examples)."""
    rng = random.Random(7)
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, cols)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%dd" % (rows * cols), *(rng.gauss(0, 1) for _ in range(rows * cols))))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--bin", required=True, help="the build's executables (build/bin)")
    ap.add_argument("--source", required=True, help="the source tree")
    ap.add_argument("--list", action="store_true", help="print how each command is covered")
    args = ap.parse_args()
    source, bindir = os.path.abspath(args.source), os.path.abspath(args.bin)

    with open(os.path.join(source, "Makefile"), encoding="utf-8") as f:
        makefile = f.read()
    targets = makefile_targets(makefile)
    reproduce = reproduce_commands(makefile)

    docs = [os.path.join(source, "README.md")] + sorted(glob.glob(os.path.join(source, "docs", "*.md")))
    failures, ran, skipped, total = [], 0, 0, 0
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="cosda-doc-") as tmp:
        os.makedirs(os.path.join(tmp, "build"))
        os.symlink(bindir, os.path.join(tmp, "build", "bin"))
        os.symlink(os.path.join(source, "configs"), os.path.join(tmp, "configs"))
        write_npy(os.path.join(tmp, "X.npy"), 200, 16)
        for doc in docs:
            rel = os.path.relpath(doc, source)
            for line, cmd in fenced_commands(doc):
                total += 1
                where = "%s:%d" % (rel, line)
                words = cmd.split()
                if words[0] == "make":
                    extra = [w for w in words[2:] if not re.match(r"^[A-Z_][A-Z0-9_]*=\S*$", w)]
                    if len(words) >= 2 and words[1] in targets and not extra:
                        if args.list:
                            print("%s: make target: %s" % (where, cmd))
                        continue
                    failures.append("%s: not a Makefile target (or stray words): %s" % (where, cmd))
                    continue
                if cmd in reproduce:
                    if args.list:
                        print("%s: make reproduce: %s" % (where, cmd))
                    continue
                if not words[0].startswith("build/bin/"):
                    failures.append(
                        "%s: neither a make target, a command of `make reproduce`, nor a "
                        "build/bin command this test runs: %s" % (where, cmd)
                    )
                    continue
                exe = words[0][len("build/bin/") :]
                if not os.path.exists(os.path.join(bindir, exe)):
                    if exe in OPTIONAL_EXECUTABLES:
                        skipped += 1
                        print("%s: skipped, %s is not in this build: %s" % (where, exe, cmd))
                    else:
                        failures.append("%s: no executable build/bin/%s: %s" % (where, exe, cmd))
                    continue
                # It runs here: everything it reads or writes must be inside the folder.
                outside = [w for w in words[1:] if re.match(r"^['\"]?(/|~|\.\.)", w.split("=")[-1])]
                if outside:
                    failures.append("%s: a command the test runs must use paths relative to the "
                                     "working folder, not %s: %s" % (where, outside[0], cmd))
                    continue
                run = cmd + (" --benchmark_list_tests=true" if exe == "cosda-bench" else "")
                t0 = time.monotonic()
                try:
                    p = subprocess.run(["bash", "-c", run], cwd=tmp, capture_output=True,
                                       text=True, timeout=COMMAND_TIMEOUT)
                    code, err = p.returncode, p.stderr.strip().splitlines()[-3:]
                except subprocess.TimeoutExpired:
                    code, err = "timeout", ["took over %d s" % COMMAND_TIMEOUT]
                ran += 1
                print("%s: ran in %.1f s, exit %s: %s" % (where, time.monotonic() - t0, code, cmd))
                if code != 0:
                    failures.append("%s: exit %s: %s\n    %s" % (where, code, cmd, "\n    ".join(err)))

    print("%d commands in %d files: %d run here (%.1f s), %d skipped, %d failed"
          % (total, len(docs), ran, time.monotonic() - started, skipped, len(failures)))
    if total == 0:
        failures.append("no fenced commands found: is the source folder right?")
    for f in failures:
        print("FAIL " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
