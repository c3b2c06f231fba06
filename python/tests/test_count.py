"""cosda.count() returns what `cosda count` prints (heap fields aside: NaN in the module)."""

import csv
import math
from pathlib import Path

import pytest

import cosda
from conftest import HEAP, check_equal, cli_count, cli_error, pythonic


def ids():
    return [v["id"] for v in cosda.variants()]


def landmarks(variant):
    return next(v["landmarks"] for v in cosda.variants() if v["id"] == variant) != "none"


def test_variants_are_the_registry():
    vs = cosda.variants()
    assert len(vs) >= 9
    assert len({v["id"] for v in vs}) == len(vs)
    for v in vs:
        assert set(v) == {"id", "paper_name", "family", "single_output", "continual",
                          "landmarks"}
        assert v["family"] in ("softmax", "nystrom", "random_features")
        assert v["landmarks"] in ("none", "segment_means", "continual", "fixed",
                                  "random_features")
        assert (v["family"] == "softmax") == (v["landmarks"] == "none")
    rc, out, _ = cli_count_help()
    for v in vs:
        assert v["id"] in out


def test_variants_name_families_and_landmarks_as_the_cli_does():
    from conftest import run_cli
    rc, out, _ = run_cli("variants")
    assert rc == 0
    rows = {line.split()[0]: line.split() for line in out.splitlines()[1:]}
    for v in cosda.variants():
        assert rows[v["id"]][-2:] == [v["landmarks"], v["family"]]


def cli_count_help():
    from conftest import run_cli
    return run_cli("count", "--help")


@pytest.mark.parametrize("variant", ids())
def test_count_equals_cli(cli, variant):
    m = 3 if landmarks(variant) else None
    kwargs = dict(n=12, d=16, m=m, heads=2)
    flags = ["--variant", variant, "--n", 12, "--d", 16, "--heads", 2]
    if m:
        flags += ["--m", m]
    check_equal(cosda.count(variant, **kwargs), cli_count(*flags))


@pytest.mark.parametrize("variant,layers,exact,scalar", [
    ("co_re", 2, False, "float64"), ("cony_si_cont", 2, False, "float64"),
    ("ny", 1, True, "float64"), ("cony_re_cont", 1, False, "float32"),
    ("att", 1, False, "float"),
])
def test_count_options_equal_cli(cli, variant, layers, exact, scalar):
    m = 2 if landmarks(variant) else None
    flags = ["--variant", variant, "--n", 10, "--d", 8, "--layers", layers,
             "--scalar", "float" if scalar in ("float32", "float") else "double"]
    if m:
        flags += ["--m", m]
    if exact:
        flags.append("--exact")
    got = cosda.count(variant, n=10, d=8, m=m, layers=layers, exact=exact, scalar=scalar)
    check_equal(got, cli_count(*flags))


COMMITTED = Path(__file__).resolve().parents[2] / "results/gtzan_counts/points.csv"


def committed_rows():
    with open(COMMITTED, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize("row", committed_rows(), ids=lambda r: f"{r['variant']}_x{r['layers']}")
def test_gtzan_shape_equals_committed_result(row):
    # results/gtzan_counts/ as `make reproduce` wrote it (a row per variant and layer count):
    # the module recounts each row's point; every column the module also returns must agree
    # (the heap fields are the CLI's only; the published_* columns the sweep's).
    kwargs = dict(n=int(row["n"]), d=int(row["d"]), heads=int(row["heads"]),
                  layers=int(row["layers"]))
    if landmarks(row["variant"]):
        kwargs["m"] = int(row["m"])
    got = cosda.count(row["variant"], **kwargs)
    shared = [key for key in row if key in got and key not in HEAP and key != "variant"]
    assert len(shared) >= 15, shared
    for key in shared:
        if row[key] == "":  # an empty cell is the module's NaN
            assert math.isnan(got[key]), (row["variant"], key)
        else:
            assert got[key] == float(row[key]), (row["variant"], key)


@pytest.mark.parametrize("kwargs,flags,field", [
    (dict(variant="nope", n=4, d=4), ["--variant", "nope", "--n", 4, "--d", 4], "--variant"),
    (dict(variant="att", n=0, d=4), ["--variant", "att", "--n", 0, "--d", 4], "--n"),
    (dict(variant="att", n=4, d=6, heads=4),
     ["--variant", "att", "--n", 4, "--d", 6, "--heads", 4], "--heads"),
    (dict(variant="ny", n=4, d=4, m=5), ["--variant", "ny", "--n", 4, "--d", 4, "--m", 5],
     "--m"),
    (dict(variant="att", n=4, d=4, layers=3),
     ["--variant", "att", "--n", 4, "--d", 4, "--layers", 3], "--layers"),
    (dict(variant="att", n=4, d=1 << 17), ["--variant", "att", "--n", 4, "--d", 1 << 17],
     "--d"),
])
def test_bad_arguments_raise_the_cli_message(cli, kwargs, flags, field):
    with pytest.raises(ValueError) as e:
        cosda.count(**kwargs)
    want = cli_error("count", *flags)
    assert field in want and field.lstrip("-") in str(e.value)
    assert str(e.value) == pythonic(want)


def test_bad_scalar():
    with pytest.raises(ValueError, match="scalar"):
        cosda.count("att", n=4, d=4, scalar="int8")


def test_variants_and_count_need_no_numpy():
    import os
    import subprocess
    import sys
    code = ("import sys; sys.modules['numpy'] = None; import cosda; "
            "assert len(cosda.variants()) >= 9; print(cosda.count('att', n=4, d=4)['peak'])")
    p = subprocess.run([sys.executable, "-c", code], env=dict(os.environ), capture_output=True,
                       text=True, timeout=60, check=False)
    assert p.returncode == 0, p.stderr
