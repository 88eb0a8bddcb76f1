"""Closed networks: `solve_closed` (single or multi-class) and `closed_curve` (single class, n = 1..N).

Dispatches to the exact solvers (`mva_exact`, `mva_multiclass`) or the
approximate ones (`mva_approx`) and packages the arrays as `NetworkResult`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import overload

import numpy as np

from models.queueing._network import Net, assemble, build_net, integer, per_class_values, workload
from models.queueing.mva_approx import approx_multi, approx_single
from models.queueing.mva_exact import empty_network, exact_single
from models.queueing.mva_multiclass import exact_multi
from models.queueing.results import NetworkResult
from models.queueing.station import Station

__all__ = ["solve_closed", "closed_curve", "ClosedCurve", "METHODS"]

METHODS = ("exact", "schweitzer", "linearizer")


def _prepare(
    stations: Sequence[Station], population: int | Mapping[str, int], think_time_s: float | Mapping[str, float],
    minimum: int = 0,
) -> tuple[Net, np.ndarray, np.ndarray]:
    classes, raw, multi = workload(population, "population", "int")
    pops = np.array(
        [integer(f"population[{c!r}]" if multi else "population", v, minimum) for c, v in zip(classes, raw)],
        dtype=np.int64,
    )
    Z = per_class_values(think_time_s, classes, "think_time_s")
    net = build_net(stations, classes, multi)
    total = Z + net.demand.sum(axis=0)
    for r, cname in enumerate(classes):
        if total[r] <= 0.0 and pops[r] > 0:
            raise ValueError(
                f"class {cname!r}: total demand plus think time is 0, so its throughput would be infinite"
            )
    return net, pops, Z


def solve_closed(
    stations: Sequence[Station],
    population: int | Mapping[str, int],
    think_time_s: float | Mapping[str, float] = 0.0,
    method: str = "exact",
) -> NetworkResult:
    """Solve a closed (terminal / batch) network.

    Args:
        stations: non-empty sequence of `Station` with unique names.
        population: number of jobs, an int >= 0 (single class "default") or a
            mapping class -> int >= 0 (several classes). A class with no jobs
            has throughput 0, queue lengths and utilisations 0, and the
            residence times its first job would see (arrival theorem; at total
            population 0 that is the demand D: see `mva_exact.empty_network`).
        think_time_s: think time Z in seconds (>= 0), a float (every class) or
            a mapping class -> seconds (missing classes: 0).
        method: "exact" (single class: MVA with exact load-dependent
            multi-server stations, `mva_exact`; several classes: exact
            multi-class MVA over the population lattice, `mva_multiclass`),
            "schweitzer" or "linearizer" (`mva_approx`; multi-server stations
            by Seidmann's approximation, method suffix "+seidmann").

    Returns:
        NetworkResult with ``stable=True``, ``population`` = total jobs,
        ``arrival_rate=None``; ``response_time_s`` excludes think time, and
        sum(queue lengths) + X Z = N (Little's law).

    Raises:
        ValueError: invalid stations, population (< 0, not an int), think
            time, unknown method or classes, a class with zero demand and zero
            think time, or an exact multi-class lattice that is too large.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    net, pops, Z = _prepare(stations, population, think_time_s)
    D, c, delay = net.demand, net.servers, net.delay
    converged = True
    if not pops.any():
        Xr, Rkr = empty_network(D)
        name = "exact-mva" if method == "exact" else method
    elif net.multiclass and not pops.all():
        Xr, Rkr, converged, name = _with_absent_classes(D, c, delay, Z, pops, method)
    elif not net.multiclass:
        N = int(pops[0])
        if method == "exact":
            X, R, name = exact_single(D[:, 0], c, delay, float(Z[0]), N)
            Xr, Rkr = X[-1:], R[-1][:, None]
        else:
            x, r, converged, used = approx_single(D[:, 0], c, delay, float(Z[0]), N, method)
            Xr, Rkr = np.array([x]), r[:, None]
            name = method + ("+seidmann" if used else "")
    else:
        Xr, Rkr, converged, name = _multi(D, c, delay, Z, pops, method)
    Qkr = Xr[None, :] * Rkr
    return assemble(
        net, X=Xr, Rkr=Rkr, Qkr=Qkr, class_resp=Rkr.sum(axis=0), stable=True, method=name,
        converged=bool(converged), population=int(pops.sum()), arrival_rate=None,
    )


def _multi(
    D: np.ndarray, c: np.ndarray, delay: np.ndarray, Z: np.ndarray, pops: np.ndarray, method: str
) -> tuple[np.ndarray, np.ndarray, bool, str]:
    if method == "exact":
        X, R = exact_multi(D, c, delay, Z, pops)
        return X, R, True, "exact-mva"
    X, R, converged, used = approx_multi(D, c, delay, Z, pops, method)
    return X, R, converged, method + ("+seidmann" if used else "")


def _with_absent_classes(
    D: np.ndarray, c: np.ndarray, delay: np.ndarray, Z: np.ndarray, pops: np.ndarray, method: str
) -> tuple[np.ndarray, np.ndarray, bool, str]:
    """Several classes, some with population 0: those have X_r = 0 (so Q and U of theirs are 0) and the
    residence times their first job would see (arrival theorem: the network at the other classes' populations,
    i.e. class r's values at population n + e_r); the other classes are solved without them."""
    present = pops > 0
    X = np.zeros(len(pops))
    R = np.zeros(D.shape)
    Xp, Rp, converged, name = _multi(D[:, present], c, delay, Z[present], pops[present], method)
    X[present], R[:, present] = Xp, Rp
    for r in np.flatnonzero(~present):
        if Z[r] + D[:, r].sum() <= 0.0:
            continue  # nothing to visit: its residence times are its demands, 0
        sub = present.copy()
        sub[r] = True
        one = np.where(np.arange(len(pops)) == r, 1, pops)[sub]
        _x, Rs, ok, _name = _multi(D[:, sub], c, delay, Z[sub], one, method)
        R[:, r] = Rs[:, int(np.flatnonzero(np.flatnonzero(sub) == r)[0])]
        converged = converged and ok
    return X, R, converged, name


class ClosedCurve(Sequence[NetworkResult]):
    """Results for n = 1 .. N from one MVA pass; a read-only sequence of `NetworkResult`.

    ``curve[i]`` is the result for population i + 1 (built lazily and cached;
    supports len, iteration, negative indices and slices). The raw arrays
    are also exposed for plotting without building result objects:

    Attributes:
        population: (N,) 1..N.
        throughput: (N,) jobs/s.
        response_time_s: (N,) seconds, excluding think time.
        residence_time_s: (N, K) seconds; queue_length (N, K) jobs;
        utilization: (N, K) per server (0 for delay stations).
        station_names: the K names; method: "exact-mva" or "exact-convolution".
    """

    def __init__(self, net: Net, X: np.ndarray, R: np.ndarray, Z: float, method: str) -> None:
        self._net = net
        self.method = method
        self.think_time_s = Z
        self.station_names = net.names
        self.population = np.arange(1, len(X) + 1)
        self.throughput = X
        self.residence_time_s = R
        self.queue_length = X[:, None] * R
        self.response_time_s = R.sum(axis=1)
        self.utilization = np.where(net.delay[None, :], 0.0, X[:, None] * net.demand[:, 0] / net.servers)
        self._cache: dict[int, NetworkResult] = {}

    def __len__(self) -> int:
        return len(self.throughput)

    @overload
    def __getitem__(self, i: int) -> NetworkResult: ...
    @overload
    def __getitem__(self, i: slice) -> list[NetworkResult]: ...
    def __getitem__(self, i: int | slice) -> NetworkResult | list[NetworkResult]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("closed curve index out of range")
        res = self._cache.get(i)
        if res is None:
            X = self.throughput[i : i + 1]
            Rkr = self.residence_time_s[i][:, None]
            res = assemble(
                self._net, X=X, Rkr=Rkr, Qkr=X[None, :] * Rkr, class_resp=Rkr.sum(axis=0), stable=True,
                method=self.method, converged=True, population=i + 1, arrival_rate=None,
            )
            self._cache[i] = res
        return res

    @cached_property
    def results(self) -> list[NetworkResult]:
        """All results as a plain list (builds every NetworkResult)."""
        return [self[i] for i in range(len(self))]


def closed_curve(
    stations: Sequence[Station], max_population: int, think_time_s: float = 0.0
) -> ClosedCurve:
    """Exact single-class results for n = 1 .. max_population from ONE MVA recursion.

    Multi-server stations are exact (load-dependent MVA with the stable
    p(0|n) recursion, or scaled convolution; see `mva_exact`).

    Args:
        stations: single-class stations (float demands).
        max_population: N >= 1.
        think_time_s: Z >= 0 seconds.

    Returns:
        A `ClosedCurve` (sequence of NetworkResult, plus numpy arrays).

    Raises:
        ValueError: as `solve_closed`; per-class demands or a mapping think time.
    """
    if isinstance(max_population, Mapping) or isinstance(think_time_s, Mapping):
        raise ValueError("closed_curve is single-class: max_population must be an int and think_time_s a float")
    net, pops, Z = _prepare(stations, max_population, think_time_s, minimum=1)
    X, R, name = exact_single(net.demand[:, 0], net.servers, net.delay, float(Z[0]), int(pops[0]))
    return ClosedCurve(net, X, R, float(Z[0]), name)
