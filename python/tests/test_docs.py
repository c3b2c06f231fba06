"""Every `PYTHONPATH=build/python /usr/bin/python3 -c ...` line of the README and
docs/python.md runs (with this run's module path) and exits with 0."""

import os
import re
import shlex
import subprocess
import sys

import pytest

from conftest import SOURCE

PREFIX = "PYTHONPATH=build/python /usr/bin/python3 -c "


def documented_lines():
    out = []
    for name in ("README.md", "docs/python.md"):
        with open(SOURCE / name, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if line.strip().startswith(PREFIX):
                    out.append(pytest.param(line.strip(), id=f"{name}:{number}"))
    return out


LINES = documented_lines()


def test_the_docs_have_import_lines():
    assert len(LINES) >= 4


@pytest.mark.parametrize("line", LINES)
def test_documented_line_runs(line):
    code = shlex.split(line[len(PREFIX):])
    assert len(code) == 1, line
    env = dict(os.environ)
    env.setdefault("PYTHONPATH", str(SOURCE / "build" / "python"))
    p = subprocess.run([sys.executable, "-c", code[0]], cwd=SOURCE, env=env,
                       capture_output=True, text=True, timeout=60, check=False)
    assert p.returncode == 0, p.stderr
    assert re.search(r"\S", p.stdout), "prints nothing"
