"""Input normalisation shared by the solvers (internal).

Turns a sequence of `Station` and a workload (float or class mapping) into
numpy arrays: demand matrix D[k, r] (seconds), servers c[k], delay mask, and
assembles `NetworkResult` records from per-station / per-class arrays.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from models.queueing.results import ClassResult, ClassStationResult, NetworkResult, StationResult
from models.queueing.station import DEFAULT_CLASS, Station


@dataclass(frozen=True)
class Net:
    """Array view of a network for one workload (internal)."""

    stations: tuple[Station, ...]
    names: tuple[str, ...]
    classes: tuple[str, ...]
    multiclass: bool
    demand: np.ndarray  # (K, R) seconds
    servers: np.ndarray  # (K,) int
    delay: np.ndarray  # (K,) bool (delay=True stations only)

    @property
    def queueing(self) -> np.ndarray:
        """(K,) bool: stations that can queue (not delay)."""
        return ~self.delay


def check_stations(stations: Sequence[Station]) -> tuple[Station, ...]:
    """Validate a station list and return it as a tuple.

    ``stations``: a sequence (not a single `Station`) of at least one `Station`, names unique.
    Raises ValueError naming the offending item: a single Station, a non-sequence, an empty
    sequence, a non-Station member or a duplicate station name.
    """
    if isinstance(stations, Station):
        raise ValueError("stations must be a sequence of Station, not a single Station")
    try:
        st = tuple(stations)
    except TypeError:
        raise ValueError(f"stations must be a sequence of Station, got {stations!r}") from None
    if not st:
        raise ValueError("stations must contain at least one Station")
    seen: set[str] = set()
    for s in st:
        if not isinstance(s, Station):
            raise ValueError(f"stations must contain only Station objects, got {s!r}")
        if s.name in seen:
            raise ValueError(f"duplicate station name {s.name!r}")
        seen.add(s.name)
    return st


def real(name: str, value: object, *, allow_zero: bool = True) -> float:
    """``value`` as a finite float >= 0 (> 0 when ``allow_zero`` is False).

    ``name`` is the argument's name used in the message. Raises ValueError for bools, non-reals,
    nan/inf and values below the bound. Units are the caller's (seconds, jobs/s, ...).
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    v = float(value)
    if not math.isfinite(v):
        raise ValueError(f"{name} must be finite, got {v!r}")
    if v < 0.0 or (v == 0.0 and not allow_zero):
        raise ValueError(f"{name} must be {'>=' if allow_zero else '>'} 0, got {v!r}")
    return v


def integer(name: str, value: object, minimum: int) -> int:
    """``value`` as an int >= ``minimum``; ``name`` is used in the message.

    Raises ValueError for bools, non-integers and values below ``minimum``.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    if int(value) < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value!r}")
    return int(value)


def workload(spec: object, what: str, kind: str) -> tuple[tuple[str, ...], list[object], bool]:
    """Split a float-or-mapping workload into (class names, raw values, multiclass)."""
    if isinstance(spec, Mapping):
        if not spec:
            raise ValueError(f"{what} mapping must name at least one class")
        names = []
        for k in spec:
            if not isinstance(k, str) or not k:
                raise ValueError(f"{what} class names must be non-empty strings, got {k!r}")
            names.append(k)
        return tuple(names), [spec[k] for k in names], True
    return (DEFAULT_CLASS,), [spec], False


def per_class_values(spec: object, classes: tuple[str, ...], what: str) -> np.ndarray:
    """Think times etc.: a float applies to every class; a mapping must cover only known classes."""
    if isinstance(spec, Mapping):
        unknown = set(spec) - set(classes)
        if unknown:
            raise ValueError(f"{what} names unknown classes {sorted(unknown)}; known: {list(classes)}")
        return np.array([real(f"{what}[{c!r}]", spec.get(c, 0.0)) for c in classes])
    v = real(what, spec)
    return np.full(len(classes), v)


def build_net(stations: Sequence[Station], classes: tuple[str, ...], multiclass: bool) -> Net:
    """Array view (`Net`) of ``stations`` for the workload classes ``classes``.

    Fills the demand matrix D[k, r] in seconds (K stations x R classes; a float demand applies to
    every class), server counts c[k] and the delay mask. ``multiclass`` says whether the workload
    was given per class (it only changes the error wording). Raises ValueError from
    `check_stations`, or when a station's per-class demand names a class the workload lacks.
    """
    st = check_stations(stations)
    K, R = len(st), len(classes)
    demand = np.zeros((K, R))
    known = set(classes)
    for k, s in enumerate(st):
        if type(s.demand_s) is not float and isinstance(s.demand_s, Mapping):
            unknown = set(s.demand_s) - known
            if unknown:
                if multiclass:
                    raise ValueError(
                        f"station {s.name!r}: demand_s names classes {sorted(unknown)} absent from the workload "
                        f"(workload classes: {list(classes)})"
                    )
                raise ValueError(
                    f"station {s.name!r}: demand_s is per-class {sorted(s.demand_s)} but the workload is "
                    f"single-class; pass a mapping workload or a float demand"
                )
        for r, c in enumerate(classes):
            demand[k, r] = s.demand_for(c)
    servers = np.array([s.servers for s in st], dtype=np.int64)
    delay = np.array([s.delay for s in st], dtype=bool)
    return Net(st, tuple(s.name for s in st), classes, multiclass, demand, servers, delay)


def bottleneck_of(net: Net, mix: np.ndarray) -> tuple[float, str | None]:
    """(saturation throughput, bottleneck) for a class mix (fractions of total throughput).

    Single class: min over queueing stations of c / D (Lazowska et al. 1984
    QSP ch. 5). Several classes: the total throughput at which the busiest
    station (largest sum_r mix_r D_kr / c_k) reaches utilisation 1.
    """
    load = (net.demand @ mix) / net.servers
    load = np.where(net.queueing, load, 0.0)
    k = int(np.argmax(load))
    if load[k] <= 0.0:
        return math.inf, None
    with np.errstate(over="ignore"):
        return float(1.0 / load[k]), net.names[k]


def _f(x: float) -> float:
    return float(x)


def assemble(
    net: Net,
    *,
    X: np.ndarray,
    Rkr: np.ndarray,
    Qkr: np.ndarray,
    class_resp: np.ndarray,
    stable: bool,
    method: str,
    converged: bool,
    population: int | None,
    arrival_rate: float | None,
    saturated: np.ndarray | None = None,
    Ukr: np.ndarray | None = None,
    sat: tuple[float, str | None] | None = None,
    weights: np.ndarray | None = None,
) -> NetworkResult:
    """Build a NetworkResult from arrays X[r], R[k,r] (per job of class r), Q[k,r]."""
    Xtot = float(X.sum())
    if Ukr is None:
        Ukr = np.where(net.delay[:, None], 0.0, X[None, :] * net.demand / net.servers[:, None])
    if sat is None:
        mix = X / Xtot if Xtot > 0 else np.full(len(X), 1.0 / len(X))
        if not net.multiclass:
            mix = np.ones(1)
        sat = bottleneck_of(net, mix)
    if len(net.classes) == 1:
        stations = _single_class_stations(net, X, Rkr, Qkr, Ukr, saturated, weights)
    else:
        stations = _stations(net, X, Rkr, Qkr, Ukr, saturated, weights)
    classes = {}
    for r, cname in enumerate(net.classes):
        classes[cname] = ClassResult(_f(X[r]), None if not stable else _f(class_resp[r]))
    if stable:
        w = X if weights is None else weights
        wt = float(w.sum())
        resp = float((w * class_resp).sum() / wt) if wt > 0 else float(class_resp.mean())
    else:
        resp = None
    return NetworkResult(
        throughput=Xtot,
        response_time_s=resp,
        stable=stable,
        saturation_throughput=float(sat[0]),
        bottleneck=sat[1],
        method=method,
        converged=converged,
        population=population,
        arrival_rate=arrival_rate,
        stations=MappingProxyType(stations),
        classes=MappingProxyType(classes),
    )


def _single_class_stations(
    net: Net, X: np.ndarray, Rkr: np.ndarray, Qkr: np.ndarray, Ukr: np.ndarray, saturated: np.ndarray | None,
    weights: np.ndarray | None,
) -> dict[str, StationResult]:
    """Per-station results of a one-class network from Python floats (``tolist``), the same numbers as
    :func:`_stations` gives (sums over one class are that class's value; the weighted mean is computed with the
    same two IEEE operations), without a numpy scalar per field: a closed solve stays a few percent above its
    MVA kernel."""
    cname = net.classes[0]
    U = Ukr[:, 0].tolist()
    R = Rkr[:, 0].tolist()
    Q = Qkr[:, 0].tolist()
    sat = saturated.tolist() if saturated is not None else None
    w = float((X if weights is None else weights)[0])
    stations = {}
    for k, name in enumerate(net.names):
        if sat is not None and sat[k]:
            per = {cname: ClassStationResult(min(1.0, U[k]), None, None)}
            stations[name] = StationResult(1.0, None, None, MappingProxyType(per))
        else:
            per = {cname: ClassStationResult(U[k], R[k], Q[k])}
            res = (w * R[k]) / w if w > 0 else R[k]
            stations[name] = StationResult(U[k], res, Q[k], MappingProxyType(per))
    return stations


def _stations(
    net: Net, X: np.ndarray, Rkr: np.ndarray, Qkr: np.ndarray, Ukr: np.ndarray, saturated: np.ndarray | None,
    weights: np.ndarray | None,
) -> dict[str, StationResult]:
    """Per-station results of a network of any number of classes."""
    stations = {}
    for k, name in enumerate(net.names):
        is_sat = saturated is not None and bool(saturated[k])
        per = {}
        for r, cname in enumerate(net.classes):
            if is_sat:
                per[cname] = ClassStationResult(min(1.0, _f(Ukr[k, r])), None, None)
            else:
                per[cname] = ClassStationResult(_f(Ukr[k, r]), _f(Rkr[k, r]), _f(Qkr[k, r]))
        u = float(Ukr[k].sum())
        if is_sat:
            stations[name] = StationResult(1.0, None, None, MappingProxyType(per))
        else:
            q = float(Qkr[k].sum())
            w = X if weights is None else weights
            wt = float(w.sum())
            res = float((w * Rkr[k]).sum() / wt) if wt > 0 else float(Rkr[k].mean())
            stations[name] = StationResult(u, res, q, MappingProxyType(per))
    return stations
