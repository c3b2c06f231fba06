"""cosda: executed operation counts and memory of streaming-attention variants.

The compiled part (cosda._cosda, python/*.cpp) binds the C++ library itself: the registry,
the counting measurement `cosda count` prints, the kernels `cosda stream` runs, and the
points.csv reader. Arguments go through the checker the CLI uses (sweeps/run_checks.hpp): what
the CLI refuses, Python refuses, with a ValueError whose one-line message names the argument
as Python spells it ("m applies to the variants with landmarks (...), not co_si; drop m").

Conventions of this module: d is always the width of all heads (one head's is d // heads,
count()'s d_head); a missing number is NaN (count()'s unmeasured heap fields, read_points'
empty cells); outputs keep the input's dtype (float32 in, float32 out) unless dtype is given.

    PYTHONPATH=build/python /usr/bin/python3 -c "import cosda; print(cosda.variants())"
"""

import errno
import os

from . import _cosda

__all__ = ["variants", "count", "stream", "Stream", "time_step", "read_points",
           "CONVENTIONS", "__version__"]

__version__ = _cosda.__version__

# How count() totals flops (analysis/conventions.hpp): every executed operation, multiplications
# only, a multiply-add pair once, or the CoTrans mul/add/exp triple.
CONVENTIONS = ("all", "mul", "mac", "cotrans")


def _np():
    """NumPy, imported when first needed: variants() and count() work without it."""
    import numpy
    return numpy


def _scalar(dtype, name="dtype"):
    """'double' or 'float' (the CLI's --scalar) for float64/float32, their names or 'double';
    `name` is the argument's, for the error."""
    names = {"double": "double", "float": "float", "float64": "double", "float32": "float"}
    if isinstance(dtype, str) and dtype in names:
        return names[dtype]
    np = _np()
    try:
        kind = np.dtype(dtype)
    except TypeError:
        kind = None
    if kind == np.float64:
        return "double"
    if kind == np.float32:
        return "float"
    raise ValueError(f"{name} must be float64 or float32, got {dtype!r}")


def _array_dtype(x, dtype):
    """dtype when given, else x's own dtype when it is float32 (float64 otherwise)."""
    if dtype is not None:
        return _scalar(dtype)
    return "float" if getattr(x, "dtype", None) == _np().float32 else "double"


def _integers(given, **ranges):
    """Refuses, by name, what pybind11 would take as an int (True as 1) or refuse naming no
    argument (8.0, 2**70): a non-integer with TypeError, a value beyond its range or 64 bits
    with the checker's ValueError. `ranges` adds ranges the checker has not (time_step's)."""
    import numbers
    for name, value in given.items():
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{name} must be an integer, got {value!r}")
        lo, hi = ranges.get(name) or _cosda.INTEGER_RANGES.get(name, (-2**63, 2**63 - 1))
        if not lo <= value <= hi:
            raise ValueError(f"{name} must be an integer in [{lo}, {hi}], got '{value}'")


def _exp_shift(value, stream):
    """exp_shift as the kernels take it: (C or None, whether to calibrate C on the tokens);
    'auto' only where the tokens are all given in advance (stream(), not a Stream)."""
    import numbers
    if value is None:
        return None, False
    if isinstance(value, str) and value == "auto":
        if not stream:
            raise ValueError("exp_shift='auto' calibrates C on the whole stream, which a Stream "
                             "does not have in advance; give a number C (cosda.stream() takes "
                             "'auto')")
        return 0.0, True  # C is calibrated on x before the first step
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"exp_shift must be a finite number or 'auto', got {value!r}")
    return float(value), False


def variants():
    """The registry's facts per variant, in registry order: a list of dicts with id,
    paper_name, family ('softmax', 'nystrom' or 'random_features'), single_output,
    continual and landmarks ('none', 'segment_means', 'continual', 'fixed' or
    'random_features')."""
    return _cosda.variants()


def count(variant, n, d, m=None, heads=1, layers=1, exact=False, scalar="float64",
          convention="all", feature_seed=None):
    """What `cosda count` prints, as a dict with a sweep's points.csv column names: operations
    per steady-state step (flops in `convention`, one of CONVENTIONS; mul, add, div, exp,
    other as executed; amortized over a landmark cycle), update_flops, plain_flops,
    cycle_steps, update_steps, logical valley and peak memory in elements, d (all heads) and
    d_head. m is the rank (landmarks or random features; default 1 where the variant has one);
    random features allow m > n. The heap fields (heap_peak_bytes, heap_retained_bytes,
    heap_allocations_per_cycle) are NaN: malloc can be wrapped only in an executable, so
    `cosda count` is where they are measured. The GIL is released while the kernels run."""
    _integers(dict(n=n, d=d, m=m, heads=heads, layers=layers, feature_seed=feature_seed))
    return _cosda.count(variant, n, d, m=m, heads=heads, layers=layers, exact=exact,
                        scalar=_scalar(scalar, "scalar"), convention=convention,
                        feature_seed=feature_seed)


def stream(variant, x, n, m=None, landmarks=None, heads=1, layers=1, dtype=None,
           exact_pinv=False, exp_shift=None, feature_seed=None):
    """Attention over a stream, as `cosda stream` runs it. x is (T, d) tokens (q = k = v =
    each row) or (T, 3, d): each step's query, key and value (e.g. np.stack([q, k, v], 1)).
    Returns the outputs from the first full window on, (T-n+1, d) for single-output variants
    (and two-block continual models), (T-n+1, n, d) otherwise, in dtype (default: x's dtype
    when float32, else float64). x is read in place when it is C-contiguous and of that dtype
    (else converted once). Without landmarks, fixed-landmark variants take the m-means of the
    queries and of the keys (seed 1, k-means++). feature_seed seeds the random features."""
    _integers(dict(n=n, m=m, heads=heads, layers=layers, feature_seed=feature_seed))
    np = _np()
    if landmarks is not None:
        landmarks = np.asarray(landmarks)
    x = np.asarray(x)
    shift, calibrate = _exp_shift(exp_shift, stream=True)
    return _cosda.stream(variant, x, n, m=m, landmarks=landmarks, heads=heads, layers=layers,
                         scalar=_array_dtype(x, dtype), exact_pinv=exact_pinv, exp_shift=shift,
                         exp_shift_auto=calibrate, feature_seed=feature_seed)


def time_step(variant, n, d, m=None, heads=1, layers=1, dtype="float64", number=1000,
              repeat=5, feature_seed=None, seed=0):
    """Seconds per steady-state step, timeit-style: the model (plain arithmetic, no counting)
    fills its window with seeded Gaussian tokens, runs `number` steps as a warm-up, then
    `repeat` timed runs of `number` steps; returns each run's seconds per step (a list of
    `repeat` floats; as with timeit, the min is the figure to quote). The GIL is released."""
    _integers(dict(n=n, d=d, m=m, heads=heads, layers=layers, feature_seed=feature_seed,
                   number=number, repeat=repeat, seed=seed),
              number=(1, 2**63 - 1), repeat=(1, 2**63 - 1), seed=(0, 2**64 - 1))
    return _cosda.time_step(variant, n, d, m=m, heads=heads, layers=layers,
                            scalar=_scalar(dtype), number=number, repeat=repeat,
                            feature_seed=feature_seed, seed=seed)


class Stream:
    """Attention one token at a time, every executed operation counted.

    s = cosda.Stream("co_si", n=8, d=16); y = s.step(x_t) returns the step's output ((d,)
    single-output, (n, d) otherwise) or None during warm-up; s.counts() the operations
    executed so far, warm-up and priming included, and s.counts(last=True) the last step's
    (the model runs under the Tally policy: plain arithmetic, counted); s.memory() the
    logical valley and peak in elements of a stream of this shape (measured once, as
    cosda.count measures them). A step releases the GIL. Fixed-landmark variants need
    landmarks (m x d). Outputs are in dtype (float64 or float32). There is no exact_pinv:
    every operation is counted, and the exact pseudo-inverse (an SVD) has no count; stream()
    takes it."""

    def __init__(self, variant, n, d, m=None, heads=1, layers=1, landmarks=None,
                 dtype="float64", exp_shift=None, feature_seed=None):
        _integers(dict(n=n, d=d, m=m, heads=heads, layers=layers, feature_seed=feature_seed))
        self._asarray = _np().asarray
        if landmarks is not None:
            landmarks = self._asarray(landmarks)
        self._dtype = "float32" if _scalar(dtype) == "float" else "float64"
        self._s = _cosda.Stream(variant, n, d, m=m, heads=heads, layers=layers,
                                landmarks=landmarks, scalar=_scalar(dtype),
                                exp_shift=_exp_shift(exp_shift, stream=False)[0],
                                feature_seed=feature_seed)

    def __repr__(self):
        if "_s" not in self.__dict__:  # __init__ refused its arguments
            return "Stream(<not constructed>)"
        variant, n, d, m, heads, layers = self._s.args
        rank = "" if m is None else f", m={m}"
        return (f"Stream({variant!r}, n={n}, d={d}{rank}, heads={heads}, layers={layers}, "
                f"dtype={self._dtype!r}, steps={self.steps})")

    def __copy__(self):
        raise TypeError("a cosda.Stream cannot be copied: its state is the kernels' own buffers "
                        "(a copy would share them); start a new Stream and feed it the same "
                        "tokens")

    def __deepcopy__(self, memo):
        return self.__copy__()

    def step(self, x):
        """Feeds one token: d values (q = k = v) or a (3, d) array of its query, key and
        value. Returns the step's output, (d,) for single-output variants, (n, d) otherwise,
        or None while the window fills. An output that is not finite (exp() overflowed) raises
        stream()'s ValueError; the step is taken (steps counts it)."""
        return self._s.step(self._asarray(x))

    def counts(self, last=False):
        """Operations executed since the stream started (warm-up and priming included), or
        with last=True by the last step alone: a dict of mul, add, div, exp, other and
        flops (their sum: the `all` convention)."""
        return self._s.counts(last)

    def memory(self):
        """Logical memory in elements (all heads) of a stream of this shape: valley (held
        between steps) and peak (most live at once), measured once as cosda.count does."""
        return self._s.memory()

    @property
    def steps(self):
        """Tokens fed so far."""
        return self._s.steps


def read_points(path):
    """A sweep's points.csv (sweeps/points.hpp): a pandas DataFrame when pandas is
    importable, else a dict of columns in file order. Numeric columns are NumPy arrays,
    int64 when every cell is a whole number, else float64 with NaN for empty cells; text
    columns (variant, skip_reason) are lists of str. A missing file raises FileNotFoundError,
    a malformed one ValueError naming the file."""
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(errno.ENOENT, "no such points file (give a sweep's points.csv)",
                                path)
    np = _np()
    columns = {}
    for name, cells in _cosda.read_points(os.fsencode(path)).items():  # any bytes a path has
        if name in _cosda.POINTS_TEXT_COLUMNS:
            columns[name] = cells
        elif cells and all(c is not None and float(c).is_integer() for c in cells):
            columns[name] = np.array(cells, dtype=np.int64)
        else:
            columns[name] = np.array([np.nan if c is None else c for c in cells],
                                     dtype=np.float64)
    try:
        import pandas
    except ImportError:
        return columns
    return pandas.DataFrame({name: pandas.Series(cells, dtype=object)  # str, even with no row
                             if name in _cosda.POINTS_TEXT_COLUMNS else cells
                             for name, cells in columns.items()})
