"""``engine._station_sum`` (the open model's rows summed over their stations slab by slab) gives numpy's own
reduction over a row's contiguous stations, float for float, at every width: the bands' latencies (``_Rows``)
are the same numbers whichever way a chunk is summed."""

import numpy as np
import pytest

from models.performance.engine import _Rows, _station_sum


@pytest.mark.parametrize("width", [*range(0, 41), 63, 64, 65, 127, 128, 129, 200])
def test_station_sum_is_numpys_reduction(width: int) -> None:
    rng = np.random.default_rng(width)
    for trial in range(6):
        terms = rng.random((width, 5, 37)) ** int(rng.integers(1, 8)) * 10.0 ** int(rng.integers(-6, 7))
        if width and trial == 4:
            terms[int(rng.integers(0, width)), 2, 5] = np.inf
        if width and trial == 5:
            terms[int(rng.integers(0, width)), 3, 6] = np.nan
        expected = np.add.reduce(np.ascontiguousarray(np.moveaxis(terms, 0, -1)), axis=-1)
        out = np.empty((5, 37))
        _station_sum(terms.copy(), out)
        assert np.array_equal(out, expected, equal_nan=True)


def test_rows_latency_same_floats_either_layout() -> None:
    """A chunk summed slab by slab (at least ``SLAB_SUM_OUTPUTS`` latencies) and one summed by numpy's reduction
    give each row the same floats."""
    from models.performance import engine

    class _St:
        def __init__(self, k: int) -> None:
            self.k = k

        def split(self, host_side: bool) -> tuple:
            k = self.k
            q = np.arange(k)
            return (q, np.empty(0, dtype=int), np.full(k, 2.0), np.full(k, 8.0), np.linspace(0.5, 1.5, k),
                    np.linspace(0.2, 1.0, k), np.empty(0), q, np.linspace(0.2, 1.0, k))

    rng = np.random.default_rng(3)
    blocks = [(_St(k), rng.random((3, k)) * 1e-4) for k in (5, 12, 9)]
    rows = _Rows(blocks)  # type: ignore[arg-type]
    iops = [np.sort(rng.random(300)) * 5e4 for _ in range(9)]
    assert 40 < engine._Rows.SLAB_SUM_OUTPUTS <= 9 * 300
    big = rows.latency(np.arange(9), iops)  # summed slab by slab
    assert big.shape == (9, 300)
    assert np.isfinite(big).all() and (big > 0).all()
    for r in range(9):
        for a in range(0, 300, 40):  # 40 points of one row: numpy's reduction
            part = rows.latency(np.array([r]), [iops[r][a:a + 40]])[0]
            assert np.array_equal(part, big[r, a:a + len(part)])
