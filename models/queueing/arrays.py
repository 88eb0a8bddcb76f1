"""Small array helpers of the engines that avoid numpy's heavier paths on the hot ones."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # (numpy.typing builds its documentation at import: an annotation needs none of it)
    from numpy.typing import ArrayLike


def sorted_unique(values: ArrayLike) -> np.ndarray:
    """The sorted distinct values of ``values`` (flattened), as ``numpy.unique(values)`` returns them (same values,
    same dtype; no NaN expected), without its bookkeeping: numpy 2's ``unique`` imports ``numpy.ma`` on first use
    (about 20 ms of an ``evaluate`` command's start) and costs several microseconds per call in the solvers' loops.

    Args:
        values: any array-like of numbers.

    Returns:
        A new 1-D array, increasing."""
    a = np.sort(np.asarray(values).ravel())
    if a.size < 2:
        return a
    keep = np.empty(a.shape, dtype=bool)
    keep[0] = True
    np.not_equal(a[1:], a[:-1], out=keep[1:])
    return a[keep]


PAIRWISE_BLOCK = 128
"""The longest run numpy's pairwise summation adds in one block (``PW_BLOCKSIZE`` of its loops); a longer one is
split in halves, each a multiple of 8 terms long first."""


def stacked_sum(terms: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``out[...] = np.add.reduce(a, axis=-1)`` float for float, where ``a`` holds ``terms`` (n, ...) with its first
    axis moved last and C-contiguous: the sum of the n stacked arrays ``terms[0] .. terms[n - 1]`` taken in the order
    numpy's pairwise summation adds a contiguous row of n terms, element by element. ``terms`` is used as scratch
    space (its first 8 entries are overwritten); returns ``out``.

    Why: numpy reduces a short last axis one row at a time (40-60 ns per row, more once the array outgrows its
    8,192-element buffer), while adding n whole arrays is a few vector operations; the engine lays its open-model
    terms out station first for this (:class:`models.performance.engine._Rows`).

    The order, as numpy's ``DOUBLE_add`` reduction over a contiguous row (the identity +0.0, then the row's
    pairwise sum): fewer than 8 terms one after the other from +0.0; up to :data:`PAIRWISE_BLOCK` eight running sums
    (term j, then j + 8, j + 16, ... for the whole blocks of 8), combined as ((r0 + r1) + (r2 + r3)) + ((r4 + r5) +
    (r6 + r7)), then the terms left one after the other; longer runs split in halves (the first a multiple of 8
    long) whose sums are added. tests/test_perf_helpers.py checks it against numpy on random rows of every length
    to 300, with zeros of both signs, infinities and NaNs.

    Args:
        terms: (n, ...) float64 arrays to add; out: (...) float64, written.
    """
    n = len(terms)
    if n == 0:
        out[...] = 0.0
        return out
    np.add(_pairwise_stacked(terms), 0.0, out=out)  # numpy starts from its identity, +0.0 (a -0.0 sum reads +0.0)
    return out


def _pairwise_stacked(terms: np.ndarray) -> np.ndarray:
    """The pairwise sum of :func:`stacked_sum` of ``terms`` (n >= 1), in a new array or in ``terms[0]``."""
    n = len(terms)
    if n < 8:
        total = terms[0] + 0.0  # numpy's short rows: res = 0.0, then each term added in turn
        for k in range(1, n):
            total += terms[k]
        return total
    if n <= PAIRWISE_BLOCK:
        whole = n - n % 8
        for i in range(8, whole, 8):  # eight running sums over the whole blocks, kept in terms[0 .. 7]
            terms[:8] += terms[i:i + 8]
        np.add(terms[0], terms[1], out=terms[0])
        np.add(terms[2], terms[3], out=terms[2])
        np.add(terms[4], terms[5], out=terms[4])
        np.add(terms[6], terms[7], out=terms[6])
        np.add(terms[0], terms[2], out=terms[0])
        np.add(terms[4], terms[6], out=terms[4])
        total = np.add(terms[0], terms[4], out=terms[0])
        for k in range(whole, n):
            total += terms[k]
        return total
    half = n // 2
    half -= half % 8
    first = _pairwise_stacked(terms[:half])
    return np.add(first, _pairwise_stacked(terms[half:]), out=first)
