"""``engine._open_residences`` (the open model's residence per station in plain floats, as ``SystemLoads.open_for``
and ``_open_system`` read it) is ``models.queueing.general_service.open_residence_s``, float for float: saturated
(U >= 1, exactly 1 too), idle and busy stations alike."""

import math

import numpy as np

from models.performance.engine import _open_residences
from models.queueing.general_service import open_residence_s


def test_open_residences_equal_the_array_formula() -> None:
    rng = np.random.default_rng(0)
    for trial in range(3000):
        k = int(rng.integers(1, 30))
        service = rng.random(k) * 10.0 ** int(rng.integers(-7, -1))
        servers = rng.integers(1, 64, k).astype(float)
        v_open = rng.random(k) * 2.0
        load = rng.random(k) * 1.2
        if trial % 7 == 0:
            load[0] = 1.0
        if trial % 11 == 0:
            service[-1] = 0.0
        with np.errstate(divide="ignore", invalid="ignore"):
            expected = open_residence_s(service, servers, np.ones(k), v_open, load, check=False).tolist()
        got = _open_residences(service.tolist(), servers.tolist(), v_open.tolist(), load.tolist())
        assert len(got) == k
        for a, b in zip(expected, got):
            assert a == b or (math.isnan(a) and math.isnan(b))
        assert all(r == math.inf for r, u in zip(got, load) if u >= 1.0)
