"""Fixtures of the cosda module's tests: the built CLI, run in child processes to compare
with. ctest sets PYTHONPATH (build/python), COSDA_BIN and COSDA_SOURCE_DIR; run by hand:
    PYTHONPATH=build/python /usr/bin/python3 -m pytest -q python/tests
"""

import json
import math
import os
import pathlib
import re
import subprocess

import numpy as np
import pytest

SOURCE = pathlib.Path(os.environ.get("COSDA_SOURCE_DIR",
                                     pathlib.Path(__file__).resolve().parents[2]))
BIN = pathlib.Path(os.environ.get("COSDA_BIN", SOURCE / "build" / "bin" / "cosda")).resolve()


def run_cli(*args):
    """(exit status, stdout, stderr) of `cosda ARGS`."""
    p = subprocess.run([str(BIN), *map(str, args)], capture_output=True, text=True,
                       timeout=120, check=False)
    return p.returncode, p.stdout, p.stderr


@pytest.fixture(scope="session")
def cli():
    if not BIN.exists():
        pytest.fail(f"{BIN}: the cosda executable is not built (make build)")
    return run_cli


HEAP = {"heap_peak_bytes", "heap_retained_bytes", "heap_allocations_per_cycle"}


def check_equal(got, want):
    """cosda.count()'s dict equals `cosda count`'s JSON: the heap fields (not measured in
    the module) and JSON nulls are NaN in the module, every other field equal."""
    assert set(got) == set(want)
    for key in want:
        if key in HEAP or want[key] is None:
            assert math.isnan(got[key]), key
        else:
            assert got[key] == want[key], key


def cli_count(*args):
    rc, out, err = run_cli("count", *args)
    assert rc == 0, err
    return json.loads(out)


def cli_error(*args):
    """The one-line message the CLI prints for bad flags (exit status 2)."""
    rc, out, err = run_cli(*args)
    assert rc == 2, (rc, out, err)
    return err.strip()


def tokens(t, d, seed=0, scale=0.5):
    return scale * np.random.default_rng(seed).standard_normal((t, d))


def cli_stream(tmp_path, x, *args):
    """`cosda stream` over x (written as X.npy): its output array."""
    np.save(tmp_path / "X.npy", x)
    rc, _, err = run_cli("stream", "--input", tmp_path / "X.npy", "--output",
                         tmp_path / "Y.npy", *args)
    assert rc == 0, err
    return np.load(tmp_path / "Y.npy")


# Skips: each listed with its reason at the end of the run (pytest -rs); under CI=true any
# skip fails the run, since `make deps` installs what each one waits for (pandas included).
SKIPPED = []


def pytest_runtest_logreport(report):
    if report.skipped:
        SKIPPED.append(report.nodeid)


def pytest_sessionfinish(session, exitstatus):
    if SKIPPED and os.environ.get("CI") in ("true", "1") and exitstatus == 0:
        print(f"\ncosda-skips: {len(SKIPPED)} skipped under CI, failing the run: "
              + ", ".join(SKIPPED))
        session.exitstatus = 1


def pythonic(message, path=None):
    """A CLI message in the module's spelling: no "cosda CMD: " lead, "flag --exact-pinv" and
    "--exact-pinv" as exact_pinv, and the input file `path` as x. The CLI and the module share
    one checker (sweeps/run_checks.hpp), so their messages differ by exactly this."""
    if path is not None:
        message = message.replace(str(path), "x")
    message = re.sub(r"^cosda [a-z]+: ", "", message)
    message = re.sub(r"(?:flag )?--([a-z][a-z-]*)", lambda g: g.group(1).replace("-", "_"),
                     message)
    return message
