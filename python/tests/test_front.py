"""The module as a front end of its own: it refuses what the CLI refuses (one shared checker),
names arguments as Python does, documents itself, keeps dtypes, reports missing values one way,
counts and times single steps, takes queries, keys and values, and installs with pip."""

import functools
import math
import os
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

import cosda
from conftest import (SOURCE, check_equal, cli_count, cli_error, cli_stream, pythonic,
                      run_cli, tokens)


# Arguments the CLI refuses for co_si, and the flags it is given.
REFUSED = [(dict(m=4), ["--m", 4], "m"),
           (dict(exact_pinv=True), ["--exact-pinv"], "exact_pinv"),
           (dict(feature_seed=3), ["--feature-seed", 3], "feature_seed")]


@pytest.mark.parametrize("kwargs,flags,name", REFUSED)
def test_stream_refuses_what_the_cli_refuses(cli, tmp_path, kwargs, flags, name):
    x = tokens(20, 8)
    np.save(tmp_path / "X.npy", x)
    want = cli_error("stream", "--input", tmp_path / "X.npy", "--output", tmp_path / "Y.npy",
                     "--variant", "co_si", "--n", 8, *flags)
    with pytest.raises(ValueError) as e:
        cosda.stream("co_si", x, n=8, **kwargs)
    assert str(e.value) == pythonic(want)
    assert str(e.value).endswith(f"; drop {name}") and "--" not in str(e.value)
    if name == "exact_pinv":  # not an argument of Stream (test_stream_object.py)
        return
    with pytest.raises(ValueError) as e:
        cosda.Stream("co_si", n=8, d=8, **kwargs)
    assert str(e.value) == pythonic(want)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_stream_refuses_a_non_finite_token_as_the_cli_does(cli, tmp_path, bad):
    x = tokens(12, 4)
    x[5, 1] = bad
    np.save(tmp_path / "X.npy", x)
    want = cli_error("stream", "--input", tmp_path / "X.npy", "--output", tmp_path / "Y.npy",
                     "--variant", "co_si", "--n", 4)
    with pytest.raises(ValueError) as e:
        cosda.stream("co_si", x, n=4)
    assert str(e.value) == want.replace(str(tmp_path / "X.npy"), "x")
    stream = cosda.Stream("co_si", n=2, d=4)
    with pytest.raises(ValueError, match="^x: non-finite value .* at flat index 1 "):
        stream.step(x[5])
    assert stream.steps == 0  # refused before the step: the state holds no NaN or inf
    assert stream.step(x[0]) is None and np.isfinite(stream.step(x[1])).all()
    with pytest.raises(ValueError, match="^landmarks: non-finite value"):
        cosda.stream("cony_si_fix", tokens(12, 4), n=4, m=2, landmarks=x[4:6])


def test_landmarks_of_the_wrong_rank_are_refused_as_the_cli_does(cli, tmp_path):
    x, landmarks = tokens(8, 4), np.ones((2, 4, 1))
    np.save(tmp_path / "X.npy", x)
    np.save(tmp_path / "L.npy", landmarks)
    want = cli_error("stream", "--input", tmp_path / "X.npy", "--landmarks", tmp_path / "L.npy",
                     "--output", tmp_path / "Y.npy", "--variant", "cony_si_fix", "--n", 4,
                     "--m", 2)
    with pytest.raises(ValueError) as e:
        cosda.stream("cony_si_fix", x, n=4, m=2, landmarks=landmarks)
    assert str(e.value) == want.replace(str(tmp_path / "L.npy"), "landmarks")


def test_tokens_numpy_cannot_convert_are_a_value_error():
    words = np.array([["a"] * 4] * 8, dtype=object)
    for call in (lambda: cosda.stream("co_si", words, n=4),
                 lambda: cosda.Stream("co_si", n=4, d=4).step(words[0]),
                 lambda: cosda.stream("cony_si_fix", tokens(8, 4), n=4, m=2, landmarks=words[:2])):
        with pytest.raises(ValueError, match="expected real numbers .*, got an array of dtype "
                                             "object"):
            call()


@pytest.mark.parametrize("kind", ["complex128", "datetime64[s]", "timedelta64[s]", "<U3"])
def test_tokens_that_are_not_real_numbers_are_refused_not_cast(kind):
    # NumPy casts these to float64 silently (complex drops its imaginary part, '1.5' parses);
    # the CLI reads only '<f4' and '<f8'.
    x = tokens(8, 4).astype(kind) if kind != "complex128" else tokens(8, 4) + 1j
    dtype = re.escape(str(x.dtype))
    refusal = rf"^(x|landmarks): expected real numbers .*, got an array of dtype {dtype}$"
    for call in (lambda: cosda.stream("co_si", x, n=4),
                 lambda: cosda.Stream("co_si", n=4, d=4).step(x[0]),
                 lambda: cosda.stream("cony_si_fix", tokens(8, 4), n=4, m=2, landmarks=x[:2])):
        with pytest.raises(ValueError, match=refusal):
            call()
    # Numbers as strings in an object array (a DataFrame with a text column) are not parsed;
    # None is not taken for NaN.
    for odd in (x.astype(str).astype(object), np.array([None] * 4)):
        with pytest.raises(ValueError, match="got an array of dtype object$"):
            cosda.Stream("co_si", n=4, d=4).step(odd[0] if odd.ndim == 2 else odd)
    for fine in (np.int32, np.uint8, np.float16, bool):  # real numbers: converted once
        assert np.isfinite(cosda.stream("co_si", (tokens(8, 4) > 0.5).astype(fine), n=4)).all()


def test_a_step_whose_output_overflows_is_refused_as_stream_refuses_it():
    x = np.abs(tokens(6, 4))  # positive, so that the scores with token 2 overflow
    x[2] = 1e200
    with pytest.raises(ValueError) as whole:
        cosda.stream("co_si", x, n=2)
    s = cosda.Stream("co_si", n=2, d=4)
    assert s.step(x[0]) is None and np.isfinite(s.step(x[1])).all()
    with pytest.raises(ValueError) as one:
        s.step(x[2])
    assert str(one.value) == str(whole.value) and s.steps == 3  # the step was taken
    with pytest.raises(ValueError, match="at token 3 "):
        s.step(x[3])  # the overflowed key is still in the window
    assert np.isfinite(s.step(x[4])).all()  # co_si keeps no running sum past the window


def test_a_size_beyond_the_memory_available_is_refused_as_the_cli_does(cli):
    want = cli_error("count", "--variant", "co_si", "--n", 1048576, "--d", 10000)
    need = re.search(r"needs about [0-9.]+ GiB \(co_si\)", want).group(0)
    refusal = r"^n=(1048576, d=10000|131072, d=4( over 131072 tokens)?) needs about .* of " \
              r"memory available now; lower n or d(, or stream fewer tokens)?$"
    for call in (lambda: cosda.count("co_si", n=1048576, d=10000),
                 lambda: cosda.Stream("co_si", n=1048576, d=10000),
                 lambda: cosda.stream("att", np.zeros((131072, 4)), n=131072),
                 lambda: cosda.time_step("att", n=131072, d=4)):
        with pytest.raises(ValueError, match=refusal) as e:
            call()
    with pytest.raises(ValueError) as e:
        cosda.count("co_si", n=1048576, d=10000)
    assert need in str(e.value)
    # stream()'s outputs count too: 23617 windows of 16384 x 64 values (185 GiB), small kernels.
    with pytest.raises(ValueError, match=r"^n=16384, d=64 over 40000 tokens needs about .*; "
                                         r"lower n or d, or stream fewer tokens$"):
        cosda.stream("co_re", np.zeros((40000, 64)), n=16384)


def test_count_refuses_m_for_a_variant_without_rank(cli):
    want = cli_error("count", "--variant", "co_si", "--n", 8, "--d", 8, "--m", 3)
    with pytest.raises(ValueError) as e:
        cosda.count("co_si", n=8, d=8, m=3)
    assert str(e.value) == pythonic(want) and "drop m" in str(e.value)


def test_version_is_the_projects():
    cmake = (SOURCE / "CMakeLists.txt").read_text(encoding="utf-8")
    assert cosda.__version__ == re.search(r"project\(cosda VERSION ([0-9.]+)", cmake).group(1)
    assert "cosda" in run_cli("--version")[1] and cosda.__version__ in run_cli("--version")[1]


def test_every_public_name_is_documented():
    import pydoc
    for name in cosda.__all__:
        obj = getattr(cosda, name)
        if callable(obj):
            assert obj.__doc__ and obj.__doc__.strip(), name
    for name in ("step", "counts", "memory", "steps"):
        assert getattr(cosda.Stream, name).__doc__.strip(), name
    text = pydoc.render_doc(cosda, renderer=pydoc.plaintext)
    for phrase in ("Feeds one token", "last=True", "valley", "Tokens fed so far"):
        assert phrase in text, phrase


def test_repr_names_the_stream():
    s = cosda.Stream("cony_si_cont", n=8, d=16, m=2, heads=2)
    s.step(np.zeros(16))
    assert repr(s) == ("Stream('cony_si_cont', n=8, d=16, m=2, heads=2, layers=1, "
                       "dtype='float64', steps=1)")
    assert "m=" not in repr(cosda.Stream("co_si", n=4, d=4, dtype="float32"))
    assert "dtype='float32'" in repr(cosda.Stream("co_si", n=4, d=4, dtype="float32"))


def test_dtype_is_kept():
    x = tokens(12, 4)
    assert cosda.stream("co_si", x, n=4).dtype == np.float64
    assert cosda.stream("co_si", x.astype(np.float32), n=4).dtype == np.float32
    assert cosda.stream("co_si", x.astype(np.float32), n=4, dtype="float64").dtype == np.float64
    assert cosda.stream("co_si", x.astype(np.float16), n=4).dtype == np.float64


def test_missing_values_are_nan_in_count_and_read_points():
    got = cosda.count("att", n=4, d=4)
    for key in ("heap_peak_bytes", "heap_retained_bytes", "heap_allocations_per_cycle"):
        assert isinstance(got[key], float) and math.isnan(got[key]), key
    assert math.isnan(got["update_flops"])  # att has no landmark updates
    assert not any(v is None for v in got.values())


@pytest.mark.parametrize("variant", ["co_si", "cony_si_cont", "corf_si"])
def test_last_step_counts(variant):
    """The last step's counts are the difference of the cumulative ones around it, and at
    the steady state of a variant without landmark updates they are cosda.count()'s."""
    n, d = 8, 8
    m = None if variant == "co_si" else 2
    s = cosda.Stream(variant, n=n, d=d, m=m)
    x = tokens(3 * n, d, seed=4)
    for row in x[:2 * n]:
        s.step(row)
    before = s.counts()
    s.step(x[2 * n])
    last = s.counts(last=True)
    after = s.counts()
    assert last == {k: after[k] - before[k] for k in after}
    assert last["flops"] < after["flops"]
    if variant != "cony_si_cont":  # its landmarks update once every n / m steps
        assert last["flops"] == cosda.count(variant, n=n, d=d, m=m)["flops"]


def test_time_step_is_timeit_style():
    times = cosda.time_step("co_si", n=16, d=8, number=50, repeat=3)
    assert len(times) == 3 and all(t > 0 and math.isfinite(t) for t in times)
    longer = min(cosda.time_step("att", n=256, d=64, number=20, repeat=3))
    assert longer > min(cosda.time_step("co_si", n=8, d=8, number=20, repeat=3))
    with pytest.raises(ValueError, match="number"):
        cosda.time_step("co_si", n=8, d=8, number=0)
    with pytest.raises(ValueError, match="drop m"):
        cosda.time_step("co_si", n=8, d=8, m=2)


def numpy_attention(q, k, v, n):
    """Softmax attention of each window's last query over the window (one head)."""
    out = []
    for end in range(n, len(q) + 1):
        s = q[end - 1] @ k[end - n:end].T / np.sqrt(q.shape[1])
        e = np.exp(s)
        out.append(e / e.sum() @ v[end - n:end])
    return np.array(out)


def test_queries_keys_and_values(cli, tmp_path):
    q, k, v = tokens(30, 8, seed=1), tokens(30, 8, seed=2), tokens(30, 8, seed=3)
    y = cosda.stream("co_si", np.stack([q, k, v], axis=1), n=6)
    np.testing.assert_allclose(y, numpy_attention(q, k, v, 6), rtol=0, atol=1e-12)
    for name, a in (("Q", q), ("K", k), ("V", v)):
        np.save(tmp_path / f"{name}.npy", a)
    rc, _, err = run_cli("stream", "--variant", "co_si", "--n", 6, "--q", tmp_path / "Q.npy",
                         "--k", tmp_path / "K.npy", "--v", tmp_path / "V.npy", "--output",
                         tmp_path / "Y.npy")
    assert rc == 0, err
    np.testing.assert_allclose(np.load(tmp_path / "Y.npy"), y, rtol=0, atol=1e-12)
    same = cosda.stream("cony_si_fix", np.stack([q, q, q], axis=1), n=6, m=2)
    np.testing.assert_array_equal(same, cosda.stream("cony_si_fix", q, n=6, m=2))
    s = cosda.Stream("co_si", n=6, d=8)
    ys = [s.step(np.stack([q[t], k[t], v[t]])) for t in range(30)]
    np.testing.assert_allclose(np.array(ys[5:]), y, rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match=r"^x: expected .* got shape \(30, 2, 8\)"):
        cosda.stream("co_si", np.zeros((30, 2, 8)), n=6)


def test_random_features_allow_m_above_n(cli, tmp_path):
    got = cosda.count("corf_si", n=32, d=16, m=64)
    check_equal(got, cli_count("--variant", "corf_si", "--n", 32, "--d", 16, "--m", 64))
    x = tokens(40, 16, seed=5)
    y = cosda.stream("corf_si", x, n=32, m=64)
    np.testing.assert_allclose(y, cli_stream(tmp_path, x, "--variant", "corf_si", "--n", 32,
                                             "--m", 64), rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match="m must be at most n"):
        cosda.stream("cony_si_cont", x, n=8, m=9)


def test_feature_seed(cli, tmp_path):
    x = tokens(20, 8, seed=6)
    a = cosda.stream("corf_si", x, n=8, m=16, feature_seed=1)
    b = cosda.stream("corf_si", x, n=8, m=16, feature_seed=2)
    assert not np.allclose(a, b)
    np.testing.assert_array_equal(a, cosda.stream("corf_si", x, n=8, m=16, feature_seed=1))
    np.testing.assert_allclose(a, cli_stream(tmp_path, x, "--variant", "corf_si", "--n", 8,
                                             "--m", 16, "--feature-seed", 1), rtol=0, atol=1e-12)
    s = cosda.Stream("corf_si", n=8, d=8, m=16, feature_seed=2)
    ys = [s.step(row) for row in x]
    np.testing.assert_allclose(np.array(ys[7:]), b, rtol=0, atol=1e-12)


def test_conventions(cli):
    full = cosda.count("att", n=32, d=16)
    assert full["convention"] == "all"
    mac = cosda.count("att", n=32, d=16, convention="mac")
    assert 0.4 < mac["flops"] / full["flops"] < 0.6  # a dot product's k mul and k-1 add: k
    assert cosda.count("att", n=32, d=16, convention="mul")["flops"] == full["mul"]
    check_equal(mac, cli_count("--variant", "att", "--n", 32, "--d", 16, "--convention", "mac"))
    assert full["d_head"] == 16 and cosda.count("att", n=32, d=16, heads=4)["d_head"] == 4
    with pytest.raises(ValueError, match="^convention must be one of all, mul, mac, cotrans"):
        cosda.count("att", n=4, d=4, convention="macs")


def test_pip_installs_offline_into_a_venv(tmp_path):
    """`pip install --no-build-isolation ./python` into a fresh virtual environment, no index:
    the installed module imports outside the source tree and reports the same version."""
    build = pathlib.Path(os.environ.get("PYTHONPATH", SOURCE / "build" / "python")
                         .split(os.pathsep)[0]).resolve().parent
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                   check=True, timeout=120)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["COSDA_BUILD_DIR"] = str(build)
    p = subprocess.run([str(venv / "bin" / "pip"), "install", "--no-build-isolation",
                        "--no-index", "--no-deps", "-q", str(SOURCE / "python")], env=env,
                       capture_output=True, text=True, timeout=600, check=False)
    assert p.returncode == 0, p.stdout + p.stderr
    p = subprocess.run([str(venv / "bin" / "python"), "-c",
                        "import cosda; print(cosda.__version__, cosda.__file__)"],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
                       check=False)
    assert p.returncode == 0, p.stderr
    version, path = p.stdout.split()
    assert version == cosda.__version__ and str(venv) in path


def test_a_wrong_dtype_names_the_argument_given():
    for call in (lambda: cosda.stream("co_si", tokens(8, 4), n=4, dtype="float16"),
                 lambda: cosda.Stream("co_si", n=4, d=4, dtype=">f4"),
                 lambda: cosda.time_step("co_si", n=4, d=4, dtype="int32")):
        with pytest.raises(ValueError, match="^dtype must be float64 or float32, got "):
            call()
    with pytest.raises(ValueError, match="^scalar must be float64 or float32, got 'half'"):
        cosda.count("co_si", n=4, d=4, scalar="half")



@pytest.mark.parametrize("name,variant", [("n", "co_si"), ("d", "co_si"), ("heads", "co_si"),
                                          ("layers", "co_si"), ("m", "cony_si_cont"),
                                          ("feature_seed", "corf_si")])
def test_an_integer_beyond_64_bits_or_not_an_integer_is_refused_by_name(cli, name, variant):
    shape = {"n": 8, "d": 8, **({} if variant == "co_si" else {"m": 2})}
    given = {k: v for k, v in shape.items() if k != name}
    flags = [x for k, v in given.items() for x in ("--" + k, v)]
    want = cli_error("count", "--variant", variant, *flags, "--" + name.replace("_", "-"), 2**70)
    timed = functools.partial(cosda.time_step, number=1, repeat=1)
    for call in (cosda.count, cosda.Stream, timed):
        with pytest.raises(ValueError) as e:  # pybind11 raised a TypeError naming no argument
            call(variant, **given, **{name: 2**70})
        assert str(e.value) == pythonic(want)
        for wrong in (True, 8.0, "8"):  # pybind11 took True as 1
            with pytest.raises(TypeError, match=f"^{name} must be an integer, got {wrong!r}$"):
                call(variant, **given, **{name: wrong})


def test_time_step_refuses_a_seed_beyond_its_range_by_name():
    for wrong in (2**64, -1):
        with pytest.raises(ValueError, match=r"^seed must be an integer in \[0, 18446744073709551615\]"):
            cosda.time_step("co_si", n=8, d=8, number=1, repeat=1, seed=wrong)
