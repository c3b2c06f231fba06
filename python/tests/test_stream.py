"""cosda.stream() equals `cosda stream` and, for the exact variants, NumPy attention over
each window; bad arguments raise ValueError with the CLI's message in Python's names."""

import numpy as np
import pytest

import cosda
from conftest import cli_error, cli_stream, pythonic, tokens

FACTS = {v["id"]: v for v in cosda.variants()}
EXACT = [v for v, f in FACTS.items() if f["family"] == "softmax"]  # att, co_si, co_re


def reference(x, n, heads, single_output):
    """Softmax attention s(QK^T/sqrt(d))V over every window (q = k = v), head by head."""
    t, d = x.shape
    dh = d // heads
    out = []
    for end in range(n, t + 1):
        w = x[end - n:end]
        y = np.empty_like(w)
        for h in range(heads):
            wh = w[:, h * dh:(h + 1) * dh]
            e = np.exp(wh @ wh.T / np.sqrt(dh))
            y[:, h * dh:(h + 1) * dh] = (e / e.sum(axis=1, keepdims=True)) @ wh
        out.append(y[-1] if single_output else y)
    return np.array(out)


def flags(variant, n, m=None, heads=1, layers=1):
    f = ["--variant", variant, "--n", n, "--heads", heads, "--layers", layers]
    return f + (["--m", m] if m else [])


@pytest.mark.parametrize("variant", EXACT)
@pytest.mark.parametrize("heads", [1, 2])
def test_exact_variants_equal_numpy_attention(variant, heads):
    x = tokens(40, 8, seed=heads)
    y = cosda.stream(variant, x, n=7, heads=heads)
    want = reference(x, 7, heads, FACTS[variant]["single_output"])
    assert y.shape == want.shape and y.dtype == np.float64
    np.testing.assert_allclose(y, want, rtol=0, atol=1e-12)


@pytest.mark.parametrize("variant", list(FACTS))
def test_every_variant_equals_cli(cli, tmp_path, variant):
    m = 3 if FACTS[variant]["landmarks"] != "none" else None
    x = tokens(30, 8, seed=7)
    y = cosda.stream(variant, x, n=9, m=m, heads=2)
    want = cli_stream(tmp_path, x, *flags(variant, 9, m, heads=2))
    assert y.shape == want.shape
    np.testing.assert_allclose(y, want, rtol=0, atol=1e-12)


@pytest.mark.parametrize("variant", ["co_re", "cony_si_cont", "ny"])
def test_two_block_models_equal_cli(cli, tmp_path, variant):
    x = tokens(25, 8, seed=3)
    m = 2 if FACTS[variant]["landmarks"] != "none" else None
    y = cosda.stream(variant, x, n=6, m=m, layers=2)
    np.testing.assert_allclose(y, cli_stream(tmp_path, x, *flags(variant, 6, m, layers=2)),
                               rtol=0, atol=1e-12)


def test_float32_equals_cli(cli, tmp_path):
    x = tokens(20, 8, seed=4).astype(np.float32)
    y = cosda.stream("cony_re_cont", x, n=6, m=2, dtype=np.float32)
    want = cli_stream(tmp_path, x, *flags("cony_re_cont", 6, 2), "--scalar", "float")
    assert y.dtype == np.float32 and want.dtype == np.float32
    np.testing.assert_array_equal(y, want)


@pytest.mark.parametrize("variant", ["ny_fix", "cony_re_fix", "cony_si_fix"])
def test_float_arithmetic_on_float64_tokens_equals_cli(cli, tmp_path, variant):
    # The default landmarks are the m-means of the tokens as given, not of x rounded to float.
    x = tokens(20, 12, seed=3)
    y = cosda.stream(variant, x, n=5, m=3, dtype="float32")
    want = cli_stream(tmp_path, x, *flags(variant, 5, 3), "--scalar", "float")
    np.testing.assert_array_equal(y, want)


def test_fixed_landmarks_given_and_default_equal_cli(cli, tmp_path):
    x = tokens(24, 6, seed=5)
    lm = tokens(3, 6, seed=6)
    np.save(tmp_path / "L.npy", lm)
    for variant in ("ny_fix", "cony_si_fix"):
        given = cosda.stream(variant, x, n=8, m=3, landmarks=lm)
        want = cli_stream(tmp_path, x, *flags(variant, 8, 3), "--landmarks", tmp_path / "L.npy")
        np.testing.assert_allclose(given, want, rtol=0, atol=1e-12)
        default = cosda.stream(variant, x, n=8, m=3)
        np.testing.assert_allclose(default, cli_stream(tmp_path, x, *flags(variant, 8, 3)),
                                   rtol=0, atol=1e-12)


def test_any_layout_gives_the_same_outputs():
    x = tokens(20, 6, seed=8)
    y = cosda.stream("co_si", x, n=5)
    np.testing.assert_array_equal(cosda.stream("co_si", np.asfortranarray(x), n=5), y)
    wide = np.zeros((20, 12))
    wide[:, ::2] = x
    np.testing.assert_array_equal(cosda.stream("co_si", wide[:, ::2], n=5), y)
    np.testing.assert_array_equal(cosda.stream("co_si", x.tolist(), n=5), y)


def test_input_is_not_modified():
    x = tokens(20, 6, seed=9)
    before = x.copy()
    cosda.stream("cony_re_cont", x, n=5, m=2)
    np.testing.assert_array_equal(x, before)


ERRORS = [  # (stream kwargs, CLI flags after --input/--output, field named)
    (dict(variant="nope", n=4), ["--variant", "nope", "--n", 4], "--variant"),
    (dict(variant="att", n=0), ["--variant", "att", "--n", 0], "--n"),
    (dict(variant="ny", n=4, m=5), ["--variant", "ny", "--n", 4, "--m", 5], "--m"),
    (dict(variant="ny", n=4), ["--variant", "ny", "--n", 4], "--m"),
    (dict(variant="att", n=4, heads=5), ["--variant", "att", "--n", 4, "--heads", 5],
     "--heads"),
    (dict(variant="att", n=4, layers=0), ["--variant", "att", "--n", 4, "--layers", 0],
     "--layers"),
    (dict(variant="att", n=40), ["--variant", "att", "--n", 40], "tokens"),
]


@pytest.mark.parametrize("kwargs,cli_flags,field", ERRORS)
def test_bad_arguments_raise_the_cli_message(cli, tmp_path, kwargs, cli_flags, field):
    x = tokens(20, 6)
    np.save(tmp_path / "X.npy", x)
    with pytest.raises(ValueError) as e:
        cosda.stream(x=x, **kwargs)
    message = str(e.value)
    assert field.lstrip("-") in message and "--" not in message
    want = cli_error("stream", "--input", tmp_path / "X.npy", "--output", tmp_path / "Y.npy",
                     *cli_flags)
    assert field in want
    assert message == pythonic(want, tmp_path / "X.npy")


def test_landmarks_for_a_variant_without_fixed_landmarks(cli, tmp_path):
    x = tokens(20, 6)
    np.save(tmp_path / "X.npy", x)
    np.save(tmp_path / "L.npy", x[:2])
    with pytest.raises(ValueError) as e:
        cosda.stream("cony_si_cont", x, n=4, m=2, landmarks=x[:2])
    assert str(e.value) == pythonic(cli_error("stream", "--input", tmp_path / "X.npy",
                                              "--output", tmp_path / "Y.npy", "--landmarks",
                                              tmp_path / "L.npy", *flags("cony_si_cont", 4, 2)))


def test_array_errors_name_the_array():
    with pytest.raises(ValueError, match=r"^x: expected a \(T, d\) array"):
        cosda.stream("att", np.zeros(10), n=2)
    with pytest.raises(ValueError, match=r"^landmarks: landmarks have shape \(2, 6\)"):
        cosda.stream("ny_fix", tokens(10, 6), n=4, m=3, landmarks=tokens(2, 6))
    with pytest.raises(ValueError, match="exp_shift"):
        cosda.stream("att", tokens(10, 6), n=4, exp_shift=1.0)


def test_overflow_is_a_value_error_naming_the_token():
    with pytest.raises(ValueError, match="output is not finite at token"):
        cosda.stream("co_si", tokens(30, 4, scale=300.0), n=8)
    y = cosda.stream("co_si", tokens(30, 4, scale=3.0), n=8, exp_shift=20.0)
    assert np.isfinite(y).all()
    with pytest.raises(ValueError, match="try another exp_shift: with too large a C"):
        cosda.stream("co_si", tokens(30, 4, scale=0.5), n=8, exp_shift=1000.0)


@pytest.mark.parametrize("variant,m", [("co_re", None), ("cony_si_fix", 2)])
def test_exp_shift_auto_calibrates_on_the_tokens_as_the_cli_does(cli, tmp_path, variant, m):
    x = tokens(60, 4, scale=4.0)
    rank = [] if m is None else ["--m", m]
    want = cli_stream(tmp_path, x, "--variant", variant, "--n", 8, *rank, "--exp-shift", "auto")
    got = cosda.stream(variant, x, n=8, m=m, exp_shift="auto")
    assert np.array_equal(got, want)  # pybind11 refused 'auto' with a 53-line TypeError
    assert not np.array_equal(got, cosda.stream(variant, x, n=8, m=m))  # C is not 0


def test_exp_shift_that_is_not_a_number_is_refused_by_name():
    with pytest.raises(ValueError, match=r"^exp_shift='auto' calibrates C on the whole stream"):
        cosda.Stream("co_re", n=4, d=4, exp_shift="auto")
    for call in (lambda: cosda.stream("co_re", tokens(10, 4), n=4, exp_shift="1.0"),
                 lambda: cosda.Stream("co_re", n=4, d=4, exp_shift=[1.0])):
        with pytest.raises(TypeError, match=r"^exp_shift must be a finite number or 'auto', got"):
            call()


@pytest.mark.parametrize("call", [
    "cosda.stream('co_si', numpy.full((200000, 16), 0.01), n=65536)",  # a minute in full
    "cosda.time_step('co_si', n=65536, d=16, number=100000)",
])
def test_ctrl_c_stops_a_long_call_that_released_the_gil(call):
    import signal
    import subprocess
    import sys
    import time
    # Python's own SIGINT handler, even where this test's parent ignores SIGINT (a background job).
    code = ("import signal, cosda, numpy; signal.signal(signal.SIGINT, signal.default_int_handler)"
            f"; print('calling', flush=True); {call}")
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    assert p.stdout.readline() == "calling\n"
    time.sleep(0.5)  # inside the call's loop by now
    asked = time.monotonic()
    p.send_signal(signal.SIGINT)
    try:
        _, err = p.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        pytest.fail(f"{call} went on for 10 s after Ctrl-C")
    assert err.rstrip().endswith("KeyboardInterrupt") and p.returncode != 0, err
    assert time.monotonic() - asked < 10
