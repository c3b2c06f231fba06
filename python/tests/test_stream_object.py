"""cosda.Stream: the same outputs as cosda.stream(), the operations cosda.count() reports,
no leak over 10^5 steps, and several Python threads at once."""

import os
import threading

import numpy as np
import pytest

import cosda
from conftest import tokens

FACTS = {v["id"]: v for v in cosda.variants()}


def step_all(s, x):
    return [y for y in (s.step(row) for row in x) if y is not None]


@pytest.mark.parametrize("variant", list(FACTS))
def test_outputs_equal_stream(variant):
    m = 3 if FACTS[variant]["landmarks"] != "none" else None
    x = tokens(30, 8, seed=11)
    lm = tokens(3, 8, seed=12) if FACTS[variant]["landmarks"] == "fixed" else None
    s = cosda.Stream(variant, n=9, d=8, m=m, heads=2, landmarks=lm)
    assert s.step(x[0]) is None
    ys = [s.step(row) for row in x[1:]]
    assert all(y is None for y in ys[:7]) and all(y is not None for y in ys[7:])
    want = cosda.stream(variant, x, n=9, m=m, heads=2, landmarks=lm)
    np.testing.assert_allclose(np.array(ys[7:]), want, rtol=0, atol=1e-12)
    assert s.steps == 30


@pytest.mark.parametrize("variant", list(FACTS))
def test_counts_of_a_cycle_equal_count(variant):
    """Steady-state steps count what cosda.count() reports: one step, or the amortized
    landmark cycle of n steps for continual landmarks."""
    n, d, m, heads = 8, 8, 2, 2
    lm = tokens(m, d) if FACTS[variant]["landmarks"] == "fixed" else None
    rank = m if FACTS[variant]["landmarks"] != "none" else None
    s = cosda.Stream(variant, n=n, d=d, m=rank, heads=heads, landmarks=lm)
    x = tokens(3 * n, d, seed=2)
    step_all(s, x[:n])
    before = s.counts()
    cycle = n if FACTS[variant]["landmarks"] == "continual" else 1
    step_all(s, x[n:n + cycle])
    after = s.counts()
    want = cosda.count(variant, n=n, d=d, m=rank, heads=heads)
    for bucket in ("mul", "add", "div", "exp", "other", "flops"):
        assert (after[bucket] - before[bucket]) / cycle == want[bucket], bucket
    assert s.memory()["valley"] == want["valley"]


def test_float32_stream():
    x = tokens(12, 4).astype(np.float32)
    s = cosda.Stream("co_re", n=4, d=4, dtype="float32")
    ys = step_all(s, x)
    assert ys[0].dtype == np.float32 and ys[0].shape == (4, 4)
    np.testing.assert_array_equal(np.array(ys), cosda.stream("co_re", x, n=4, dtype="float32"))


def test_bad_arguments():
    with pytest.raises(ValueError, match="^heads "):
        cosda.Stream("att", n=4, d=6, heads=4)
    with pytest.raises(ValueError, match="^variant: "):
        cosda.Stream("nope", n=4, d=6)
    with pytest.raises(ValueError, match="^landmarks: ny_fix has fixed landmarks"):
        cosda.Stream("ny_fix", n=4, d=6, m=2)
    s = cosda.Stream("att", n=4, d=6)
    with pytest.raises(ValueError, match=r"^x: expected one token of d = 6 values"):
        s.step(np.zeros(5))
    with pytest.raises(ValueError, match=r"got shape \(2, 6\)"):
        s.step(np.zeros((2, 6)))
    assert s.steps == 0


def rss_bytes():
    with open("/proc/self/statm", encoding="ascii") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_100k_steps_do_not_leak():
    s = cosda.Stream("cony_si_cont", n=6, d=4, m=2)
    x = tokens(1000, 4)
    for i in range(10_000):  # allocator and interpreter warm-up
        s.step(x[i % 1000])
    start = rss_bytes()
    for i in range(100_000):
        s.step(x[i % 1000])
        if i % 10_000 == 0:
            s.counts()
            s.memory()
    grown = rss_bytes() - start
    assert grown < 2 << 20, f"RSS grew by {grown} bytes over 10^5 steps"
    assert s.steps == 110_000


def test_two_threads_at_once():
    xs = [tokens(200, 8, seed=s) for s in (21, 22)]
    want = [cosda.stream("cony_re_cont", x, n=10, m=2, heads=2) for x in xs]
    want_steps = [np.array(step_all(cosda.Stream("co_si", n=10, d=8), x)) for x in xs]
    got, errors = {}, []

    def work(i):
        try:
            for _ in range(5):
                np.testing.assert_array_equal(
                    cosda.stream("cony_re_cont", xs[i], n=10, m=2, heads=2), want[i])
            got[i] = np.array(step_all(cosda.Stream("co_si", n=10, d=8), xs[i]))
            cosda.count("cony_si_cont", n=16, d=8, m=4)
        except Exception as e:  # reported below, on the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for i in (0, 1):
        np.testing.assert_array_equal(got[i], want_steps[i])


def test_one_stream_shared_by_two_threads():
    s = cosda.Stream("co_si", n=4, d=4)
    x = tokens(4, 4)
    step_all(s, x)

    def work():
        for _ in range(2000):
            s.step(x[0])

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert s.steps == 4 + 4000


def test_memory_counts_and_steps_from_two_threads_do_not_deadlock():
    # memory() used to hold the stream's lock while it waited for the GIL, which counts() and
    # steps held while they waited for the lock; run apart, so that a hang fails, not stalls.
    import subprocess
    import sys
    code = """
import threading, cosda
for i in range(300):
    s = cosda.Stream("co_re", n=64, d=32)
    t = threading.Thread(target=s.memory)
    t.start()
    while t.is_alive():
        s.steps, s.counts(), repr(s)
    t.join()
print("done")
"""
    try:
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("memory() in one thread and counts() in another deadlocked")
    assert p.stdout == "done\n", p.stderr


def test_a_stream_is_not_copied_into_one_that_shares_its_state():
    import copy
    s = cosda.Stream("co_si", n=2, d=4)
    for make in (copy.copy, copy.deepcopy):
        with pytest.raises(TypeError, match="cannot be copied"):
            make(s)
    assert s.step(np.ones(4)) is None and s.steps == 1


def test_a_stream_takes_no_exact_pseudo_inverse_stream_does():
    # A Stream counts every operation; the exact pseudo-inverse (an SVD) has no count.
    with pytest.raises(TypeError, match="exact_pinv"):
        cosda.Stream("ny", n=4, d=4, m=2, exact_pinv=True)
    assert cosda.stream("ny", tokens(8, 4), n=4, m=2, exact_pinv=True).shape == (5, 4, 4)
