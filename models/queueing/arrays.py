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
