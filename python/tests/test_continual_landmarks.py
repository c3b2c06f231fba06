"""The continual-landmark variants (cony_re_cont, cony_si_cont) against a NumPy reference that
chooses its landmarks itself, by the Nyström paper's rule, and recomputes every window's
Nyström attention from scratch.

The rule (Sec. IV-A, Eqs. 13-14; Sec. IV-C where m does not divide n): the first window's
landmarks are its segment means, segment i of s_i = floor(n/m) tokens, one more for
i < n mod m. Afterwards, once as many tokens as the oldest landmark's segment held have
arrived, their mean replaces it and is appended as the newest (Eq. 13: [Qt_mem; q_new]), so
every new landmark has its predecessor's size. Cut the stream from its first token into
segments of sizes s_0, ..., s_{m-1}, s_0, ... : at newest token t the landmarks are the means
of the m most recently completed segments, oldest first. The kernels keep a landmark in a
fixed slot instead; Nyström attention does not depend on the landmarks' order (a permutation
P gives B P^T (P Gamma P^T)^+ P Delta, and the iterative pseudo-inverse commutes with P).

Tolerance. Both sides evaluate the same real expression in a different association (running
sums of Delta V, phi(Delta), phi(B) and phi(Gamma) against sums from scratch, queries scaled
before or after their mean, the landmarks' order), so they differ by rounding alone. A sum of
k rounded terms is within k u of the sum of its terms' magnitudes (u = 2^-53), so an output
entry is within k u (|B_phi| |Z| |Delta_phi| |V|) of the exact value, k counting the roundings
on the longest chain: 2 per step in the running sums over the at most n steps since a row was
last recomputed (2n), one evaluation's sums over n, m and d, and the pseudo-inverse's
iterations (four products of depth m each). With the exact pseudo-inverse a perturbation of
Gamma_phi reaches Gamma_phi^+ amplified by up to cond(Gamma_phi), which the bound takes as a
factor. A landmark schedule off by one token, or landmarks recomputed from each window,
misses by more than 10^6 times that bound (test_a_wrong_schedule_is_far_outside)."""

import numpy as np
import pytest

import cosda

U = 2.0 ** -53
ITERATIONS = 6  # the kernels' default pseudo-inverse iterations (Config::pinv_iterations)


def segment_sizes(n, m):
    return [n // m + (1 if i < n % m else 0) for i in range(m)]


def continual_segments(t, n, m):
    """[start, stop) of the m most recently completed segments at newest token t, oldest
    first."""
    sizes, segments, start = segment_sizes(n, m), [], 0
    while start + sizes[len(segments) % m] <= t + 1:
        stop = start + sizes[len(segments) % m]
        segments.append((start, stop))
        start = stop
    return segments[-m:]


def window_segments(t, n, m):
    """The current window's own segment means (Nyströmformer recomputing them every step)."""
    bounds = np.cumsum([0] + segment_sizes(n, m)) + t - n + 1
    return list(zip(bounds[:-1], bounds[1:]))


def late_segments(t, n, m):
    """The continual schedule applied one token late."""
    return continual_segments(max(t - 1, n - 1), n, m)


def softmax_rows(s):
    e = np.exp(s)
    return e / e.sum(axis=1, keepdims=True)


def iterative_pinv(x, iterations):
    """Razavi et al.'s iteration as Nyströmformer runs it (Sec. IV-C)."""
    eye = np.eye(len(x))
    z = x.T / x.sum(axis=0).max()
    for _ in range(iterations):
        xz = x @ z
        z = 0.25 * z @ (13 * eye - xz @ (15 * eye - xz @ (7 * eye - xz)))
    return z


def reference(qkv, n, m, heads=1, exact=False, segments=continual_segments):
    """Every window's Nyström attention B_phi Gamma_phi^+ Delta_phi V (Eqs. 8-12), head by
    head, with the landmarks segments() gives: (outputs (T-n+1, n, d), rounding bound)."""
    q, k, v = qkv[:, 0], qkv[:, 1], qkv[:, 2]
    total, d = q.shape
    dh = d // heads
    k_sum = 3 * n + dh + m + 4 * ITERATIONS * m
    out, bound = np.zeros((total - n + 1, n, d)), np.zeros((total - n + 1, n, d))
    for t in range(n - 1, total):
        rows = slice(t - n + 1, t + 1)
        for h in range(heads):
            cols = slice(h * dh, (h + 1) * dh)
            qt = np.array([q[a:b, cols].mean(axis=0) for a, b in segments(t, n, m)])
            kt = np.array([k[a:b, cols].mean(axis=0) for a, b in segments(t, n, m)])
            r = 1 / np.sqrt(dh)
            b_phi = softmax_rows(q[rows, cols] @ kt.T * r)
            gamma_phi = softmax_rows(qt @ kt.T * r)
            delta_phi = softmax_rows(qt @ k[rows, cols].T * r)
            z = np.linalg.pinv(gamma_phi) if exact else iterative_pinv(gamma_phi, ITERATIONS)
            out[t - n + 1, :, cols] = b_phi @ z @ delta_phi @ v[rows, cols]
            factor = k_sum * U * (np.linalg.cond(gamma_phi) if exact else 1)
            terms = abs(b_phi) @ abs(z) @ abs(delta_phi) @ abs(v[rows, cols])
            bound[t - n + 1, :, cols] = factor * terms
    return out, bound


def stream_of(n, d, seed):
    """Independent queries, keys and values over n - 1 warm-up tokens and four landmark cycles
    and a few tokens more: (T, 3, d)."""
    return np.random.default_rng(seed).standard_normal((5 * n + 3, 3, d))


# n mod m = 1, 2 and 0; segments of one token (n < 2m); two heads.
SHAPES = [(7, 4, 2, 1), (11, 4, 3, 1), (10, 5, 4, 1), (9, 3, 3, 1), (5, 4, 3, 1), (8, 6, 3, 2)]


@pytest.mark.parametrize("n,d,m,heads", SHAPES)
@pytest.mark.parametrize("exact", [False, True])
def test_outputs_equal_the_reference(n, d, m, heads, exact):
    qkv = stream_of(n, d, seed=n * 10 + m)
    want, bound = reference(qkv, n, m, heads, exact)
    assert bound.max() < 1e-6 * abs(want).max()  # the bound leaves the comparison its teeth
    retro = cosda.stream("cony_re_cont", qkv, n=n, m=m, heads=heads, exact_pinv=exact)
    single = cosda.stream("cony_si_cont", qkv, n=n, m=m, heads=heads, exact_pinv=exact)
    assert retro.shape == want.shape and single.shape == want[:, -1].shape
    assert (abs(retro - want) <= bound).all(), abs(retro - want).max()
    assert (abs(single - want[:, -1]) <= bound[:, -1]).all(), abs(single - want[:, -1]).max()


@pytest.mark.parametrize("segments", [window_segments, late_segments])
def test_a_wrong_schedule_is_far_outside(segments):
    n, d, m = 11, 4, 3
    qkv = stream_of(n, d, seed=3)
    _, bound = reference(qkv, n, m)
    wrong, _ = reference(qkv, n, m, segments=segments)
    got = cosda.stream("cony_re_cont", qkv, n=n, m=m)
    assert (abs(got - wrong) / bound).max() > 1e6


def test_the_schedule_replaces_the_oldest_landmark_every_segment():
    """The reference's landmarks: the first window's segment means, then one replaced per
    completed segment, oldest first, with the replaced one's size (n = 7, m = 3: 3, 2, 2)."""
    assert continual_segments(6, 7, 3) == [(0, 3), (3, 5), (5, 7)]
    assert continual_segments(9, 7, 3) == [(3, 5), (5, 7), (7, 10)]
    assert continual_segments(10, 7, 3) == [(3, 5), (5, 7), (7, 10)]
    assert continual_segments(11, 7, 3) == [(5, 7), (7, 10), (10, 12)]
    assert window_segments(6, 7, 3) == continual_segments(6, 7, 3)
