"""stats.py -- what a figure of the tables may claim (bench/tables.py).

A timing is a median over trials; the trials of a group of metrics are
taken in rounds, every round running each metric once (bench/common.c),
so a derived figure, the difference of two metrics, is taken within each
round and the median of those differences is reported.  A difference is
shown only when it exceeds its resolution: the interquartile range of the
per-round differences (how far the difference itself moves from round to
round), and never less than the clock's resolution per operation.  Below
it the cell says "below resolution (< X)", X being the largest value the
rounds leave possible, so no table shows a negative or impossible figure.

A plain timing whose spread across its trials (max - min) is larger than
its median is marked NOISY: the load moved it more than it measures.
"""

NOISY = "‡"   # the mark, explained in the header of tables.md


def median(v):
    v = sorted(v)
    n = len(v)
    if not n:
        return None
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2.0


def quantile(v, q):
    """Linear interpolation between the closest ranks."""
    v = sorted(v)
    if not v:
        return None
    x = q * (len(v) - 1)
    i = int(x)
    if i + 1 >= len(v):
        return v[-1]
    return v[i] + (v[i + 1] - v[i]) * (x - i)


def iqr(v):
    return quantile(v, 0.75) - quantile(v, 0.25)


def noisy(med, lo, hi):
    """Does the spread of a timing swamp its value?"""
    return med is not None and hi - lo > abs(med)


class Diff:
    """A figure taken within rounds: value (median), res (resolution),
    samples; shown is False when the value is within its resolution."""

    def __init__(self, samples, floor=0.0):
        self.samples = list(samples)
        self.value = median(self.samples)
        self.res = max(iqr(self.samples), floor) if self.samples else None
        self.shown = self.value is not None and self.value > self.res

    @classmethod
    def exact(cls, value):
        """A plain timing where a figure taken within rounds is expected:
        shown as it is."""
        d = cls([value])
        d.res, d.shown = 0.0, True
        return d

    def bound(self):
        """The largest value the rounds leave possible, for "< X"."""
        return max(self.value, 0.0) + self.res


def rounds(terms):
    """terms: [(coef, samples)], the samples of each metric in round
    order.  The per-round sums of coef * sample, over the rounds all
    terms have (None if any term has no samples)."""
    if not terms or any(not s for _, s in terms):
        return None
    k = min(len(s) for _, s in terms)
    return [sum(c * s[r] for c, s in terms) for r in range(k)]


def fit(points):
    """Least squares y = a + b x; returns (a, b)."""
    n = len(points)
    sx = sum(x for x, _ in points)
    sy = sum(y for _, y in points)
    sxx = sum(x * x for x, _ in points)
    sxy = sum(x * y for x, y in points)
    d = n * sxx - sx * sx
    b = (n * sxy - sx * sy) / d
    return (sy - b * sx) / n, b


def fit_rounds(series):
    """series: [(x, samples)], the samples of each point in round order.
    Fits the medians, and each round on its own: returns (a, b) as Diff
    objects whose values are the fit of the medians and whose resolution
    is the spread of the per-round fits."""
    meds = [(x, median(s)) for x, s in series]
    a, b = fit(meds)
    k = min(len(s) for _, s in series)
    per = [fit([(x, s[r]) for x, s in series]) for r in range(k)]
    da, db = Diff([p[0] for p in per]), Diff([p[1] for p in per])
    da.value, db.value = a, b
    da.shown, db.shown = a > da.res, b > db.res
    return da, db
