"""cosda.read_points() reads a sweep's points.csv column by column."""

import csv
import math

import numpy as np
import pytest

import cosda
from conftest import SOURCE


@pytest.fixture
def no_pandas(monkeypatch):
    import builtins
    real = builtins.__import__

    def fake(name, *args, **kwargs):
        if name == "pandas":
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake)


@pytest.mark.parametrize("name", ["nystrom_table3", "nystrom_fig4"])
def test_columns_equal_the_file(no_pandas, name):
    path = SOURCE / "results" / name / "points.csv"
    got = cosda.read_points(path)
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert list(got) == list(rows[0])
    for column, values in got.items():
        assert len(values) == len(rows)
        for value, row in zip(values, rows):
            cell = row[column]
            if isinstance(value, str):
                assert value == cell
            elif cell == "":
                assert math.isnan(value)
            else:
                assert float(value) == float(cell), (column, cell)
    assert got["n"].dtype == np.int64
    assert got["variant"][0] == rows[0]["variant"]


def test_a_missing_file_is_file_not_found_and_a_broken_one_a_value_error(tmp_path):
    with pytest.raises(FileNotFoundError) as e:
        cosda.read_points(tmp_path / "none.csv")
    assert e.value.filename == str(tmp_path / "none.csv")
    with pytest.raises(FileNotFoundError):
        cosda.read_points("/nonexistent.csv")
    (tmp_path / "bad.csv").write_text("variant,n\natt,x\n")
    with pytest.raises(ValueError, match="bad.csv"):
        cosda.read_points(tmp_path / "bad.csv")


def test_dataframe_when_pandas_is_there():
    pandas = pytest.importorskip("pandas")  # python3-pandas: Makefile PACKAGES
    path = SOURCE / "results" / "nystrom_table3" / "points.csv"
    df = cosda.read_points(path)
    assert isinstance(df, pandas.DataFrame)
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert list(df.columns) == list(rows[0]) and len(df) == len(rows)
    assert df["n"].dtype == np.int64
    assert [float(c) for c in df["flops"]] == [float(r["flops"]) for r in rows]


def test_dict_without_pandas(no_pandas):
    got = cosda.read_points(SOURCE / "results" / "nystrom_table3" / "points.csv")
    assert isinstance(got, dict) and isinstance(got["n"], np.ndarray)


def test_a_path_that_is_not_utf8_is_read(no_pandas, tmp_path):
    # os.listdir gives such a name as str with surrogates; the file system takes its bytes.
    odd = tmp_path / "points\udcff.csv"
    src = SOURCE / "results" / "nystrom_table3" / "points.csv"
    with open(odd, "wb") as f:
        f.write(src.read_bytes())
    assert cosda.read_points(odd)["n"].tolist() == cosda.read_points(src)["n"].tolist()


def test_a_file_of_no_row_keeps_its_text_columns_text(tmp_path):
    src = SOURCE / "results" / "nystrom_table3" / "points.csv"
    header = tmp_path / "points.csv"
    header.write_text(src.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    got = cosda.read_points(header)
    assert len(got["n"]) == 0
    for name in ("variant", "skip_reason"):
        assert getattr(got[name], "dtype", object) == object, name  # list, or object Series
