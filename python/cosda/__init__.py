"""cosda: executed operation counts and memory of streaming-attention variants.

The compiled part (cosda._cosda, python/*.cpp) binds the C++ library itself: the registry,
the counting measurement `cosda count` prints, the kernels `cosda stream` runs, and the
points.csv reader. This front end accepts NumPy dtypes for the scalar and shapes read_points'
columns. Arguments are checked as the CLI checks its flags: a bad one raises ValueError with
the CLI's one-line message, which names the flag (--n, --heads, ...) or the array (x,
landmarks).

    PYTHONPATH=build/python /usr/bin/python3 -c "import cosda; print(cosda.variants())"
"""

from . import _cosda

__all__ = ["variants", "count", "stream", "Stream", "read_points"]


def _np():
    """NumPy, imported when first needed: variants() and count() work without it."""
    import numpy
    return numpy


def _scalar(dtype):
    """'double' or 'float' (the CLI's --scalar) for float64/float32, their names or 'double'."""
    names = {"double": "double", "float": "float", "float64": "double", "float32": "float"}
    if isinstance(dtype, str) and dtype in names:
        return names[dtype]
    np = _np()
    try:
        kind = np.dtype(dtype)
    except TypeError:
        raise ValueError(f"scalar must be float64 or float32, got {dtype!r}") from None
    if kind == np.float64:
        return "double"
    if kind == np.float32:
        return "float"
    raise ValueError(f"scalar must be float64 or float32, got {dtype!r}")


def variants():
    """The registry's facts per variant, in registry order: a list of dicts with id,
    paper_name, family ('softmax' or 'nystrom'), single_output, continual and landmarks
    ('none', 'segment_means', 'continual' or 'fixed')."""
    return _cosda.variants()


def count(variant, n, d, m=None, heads=1, layers=1, exact=False, scalar="float64"):
    """What `cosda count` prints, as a dict with a sweep's points.csv column names: operations
    per steady-state step (flops, mul, add, div, exp, other; amortized over a landmark cycle),
    update_flops, plain_flops, cycle_steps, update_steps, logical valley and peak memory in
    elements. The heap fields (heap_peak_bytes, heap_retained_bytes,
    heap_allocations_per_cycle) are None: malloc can be wrapped only in an executable, so
    `cosda count` is where they are measured. The GIL is released while the kernels run."""
    return _cosda.count(variant, n, d, m=m, heads=heads, layers=layers, exact=exact,
                        scalar=_scalar(scalar))


def stream(variant, x, n, m=None, landmarks=None, heads=1, layers=1, dtype="float64",
           exact_pinv=False, exp_shift=None):
    """Self-attention over the rows of x (T x d; q = k = v = each row), as `cosda stream`
    runs it: returns the outputs from the first full window on, (T-n+1, d) for single-output
    variants (and two-block continual models), (T-n+1, n, d) otherwise, in dtype. x is read
    in place when it is C-contiguous and of that dtype (else converted once). Without
    landmarks, fixed-landmark variants take the m-means of x (seed 1, k-means++)."""
    np = _np()
    if landmarks is not None:
        landmarks = np.asarray(landmarks)
    return _cosda.stream(variant, np.asarray(x), n, m=m, landmarks=landmarks, heads=heads,
                         layers=layers, scalar=_scalar(dtype), exact_pinv=exact_pinv,
                         exp_shift=exp_shift)


class Stream:
    """Self-attention one token at a time, every executed operation counted.

    s = cosda.Stream("co_si", n=8, d=16); y = s.step(x_t) returns the step's output ((d,)
    single-output, (n, d) otherwise) or None during warm-up; s.counts() the operations
    executed so far, warm-up and priming included (the model runs under the Tally policy:
    plain arithmetic, counted); s.memory() the logical valley and peak in elements of a stream
    of this shape (measured once, as cosda.count measures them). A step
    releases the GIL. Fixed-landmark variants need landmarks (m x d)."""

    def __init__(self, variant, n, d, m=None, heads=1, layers=1, landmarks=None,
                 dtype="float64", exact_pinv=False, exp_shift=None):
        self._asarray = _np().asarray
        if landmarks is not None:
            landmarks = self._asarray(landmarks)
        self._s = _cosda.Stream(variant, n, d, m=m, heads=heads, layers=layers,
                                landmarks=landmarks, scalar=_scalar(dtype),
                                exact_pinv=exact_pinv, exp_shift=exp_shift)

    def step(self, x):
        return self._s.step(self._asarray(x))

    def counts(self):
        return self._s.counts()

    def memory(self):
        return self._s.memory()

    @property
    def steps(self):
        return self._s.steps


def read_points(path):
    """A sweep's points.csv (sweeps/points.hpp): a pandas DataFrame when pandas is
    importable, else a dict of columns in file order. Numeric columns are NumPy arrays,
    int64 when every cell is a whole number, else float64 with NaN for empty cells; text
    columns (variant, skip_reason) are lists of str."""
    np = _np()
    columns = {}
    for name, cells in _cosda.read_points(str(path)).items():
        if cells and all(isinstance(c, str) for c in cells):
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
    return pandas.DataFrame(columns)
