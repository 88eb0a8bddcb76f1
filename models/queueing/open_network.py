"""Open product-form networks of M/M/c and delay stations.

Single class (Lazowska et al. 1984 QSP ch. 6 "open model solution"; Jain 1991
ch. 31-32; Bolch et al. 2006 ch. 7 Jackson networks). With arrival rate lambda
and station demand D_k, c_k servers, utilisation U_k = lambda D_k / c_k and

    R_k = D_k (1 + C(c_k, c_k U_k) / (c_k (1 - U_k)))   queueing station,
    R_k = D_k                                           delay station,

which is exact for a Jackson network (for c = 1 it reduces to D / (1 - U)).
Visits are folded into D: a station visited V times per job with service
time S = D / V sees offered load lambda V S = lambda D, so the formula does
not need V.

Several classes (lambda_r, D_kr): U_k = sum_r lambda_r D_kr / c_k and the
waiting factor W_k = C(c_k, c_k U_k) / (c_k (1 - U_k)) is shared by all classes,

    R_kr = D_kr (1 + W_k).

For c = 1 this is the exact BCMP result for processor-sharing / class-
independent FCFS stations, R_kr = D_kr / (1 - U_k) (QSP ch. 7, open
multiple-class models). For c > 1 it is the usual approximation used when
class service times differ (Bolch et al. 2006 ch. 7 and 10, multi-class M/M/m
with the Erlang C waiting probability of the aggregate load); exact when the
classes have equal service times per visit.

Saturation: when some queueing station has U_k >= 1 the network has no steady
state; the result has ``stable=False``, the saturated stations are reported
with utilisation 1.0 and residence time / queue length None, the other
stations at the offered load, and the network throughput is the saturation
throughput (the most the bottleneck lets through with the offered class mix).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from models.queueing._network import assemble, bottleneck_of, build_net, check_stations, real, workload
from models.queueing.arrays import sorted_unique
from models.queueing.erlang import erlang_c_array
from models.queueing.results import NetworkResult
from models.queueing.station import Station

__all__ = ["solve_open", "open_curve", "OpenCurve"]


def _waiting_factor(util: np.ndarray, servers: np.ndarray) -> np.ndarray:
    """W = C(c, cU) / (c (1 - U)) column-wise for util (..., K) < 1; servers (K,)."""
    out = np.zeros_like(util)
    for c in sorted_unique(servers):
        cols = servers == c
        u = util[..., cols]
        if c == 1:
            erl = u  # C(1, A) = A
        else:
            erl = erlang_c_array(int(c), c * u)
        with np.errstate(divide="ignore", invalid="ignore"):
            out[..., cols] = erl / (c * (1.0 - u))
    return out


def solve_open(stations: Sequence[Station], arrival_rate: float | Mapping[str, float]) -> NetworkResult:
    """Solve an open network of M/M/c and delay stations (formulas in the module docstring).

    Args:
        stations: non-empty sequence of `Station` with unique names.
        arrival_rate: jobs/s, finite and >= 0; a float (single class
            "default") or a mapping class -> jobs/s (several classes; every
            station's mapping demands must name only these classes).

    Returns:
        NetworkResult with ``population=None`` and ``arrival_rate`` = total
        offered rate. ``stable=False`` (never an exception) at or beyond
        saturation; no field is NaN or infinite then (see `results`).
        An arrival rate of 0 gives zero utilisations and residence times
        equal to the demands.

    Raises:
        ValueError: invalid stations or arrival rates (negative, NaN, inf,
            unknown classes).
    """
    classes, raw, multi = workload(arrival_rate, "arrival_rate", "rate")
    lam = np.array([real(f"arrival_rate[{c!r}]" if multi else "arrival_rate", v) for c, v in zip(classes, raw)])
    net = build_net(stations, classes, multi)
    D, c, q = net.demand, net.servers, net.queueing
    lam_tot = float(lam.sum())
    Ukr = np.where(q[:, None], lam[None, :] * D / c[:, None], 0.0)
    U = Ukr.sum(axis=1)
    saturated = q & (U >= 1.0)
    stable = not bool(saturated.any())
    mix = lam / lam_tot if lam_tot > 0 else np.full(len(lam), 1.0 / len(lam))
    sat = bottleneck_of(net, mix if multi else np.ones(1))

    Uc = np.where(saturated, 0.0, U)
    W = np.where(q, _waiting_factor(Uc[None, :], c)[0], 0.0)
    Rkr = D * (1.0 + W[:, None])
    Qkr = lam[None, :] * Rkr
    if stable:
        X = lam.copy()
        resp = Rkr.sum(axis=0)
    else:
        X = lam / float(U[q].max())
        Ukr = Ukr.copy()
        Ukr[saturated] = Ukr[saturated] / U[saturated][:, None]
        resp = np.zeros(len(lam))
    return assemble(
        net, X=X, Rkr=Rkr, Qkr=Qkr, class_resp=resp, stable=stable, method="open", converged=True,
        population=None, arrival_rate=lam_tot, saturated=saturated, Ukr=Ukr, sat=sat, weights=lam,
    )


@dataclass(frozen=True)
class OpenCurve:
    """Vectorised single-class open solution over many arrival rates (see `open_curve`).

    Attributes:
        arrival_rates: (P,) jobs/s, as given.
        stable: (P,) bool, False where some station has U >= 1.
        response_time_s: length-P tuple, seconds, None where not stable.
        utilization: (P, K) per-server utilisation, clipped to 1.0.
        station_names: the K station names (column order of ``utilization``).
        saturation_arrival_rate: min over queueing stations of c / D (math.inf if none).
        bottleneck: station with the largest D / c, None if none has demand.
    """

    arrival_rates: np.ndarray
    stable: np.ndarray
    response_time_s: tuple[float | None, ...]
    utilization: np.ndarray
    station_names: tuple[str, ...]
    saturation_arrival_rate: float
    bottleneck: str | None


def open_curve(stations: Sequence[Station], arrival_rates: Sequence[float]) -> OpenCurve:
    """Single-class open solution for every rate in ``arrival_rates``, vectorised with numpy.

    Same formulas as `solve_open` (module docstring), evaluated for all P
    rates at once (Erlang B recurrence run once per distinct server count).

    Args:
        stations: sequence of `Station` with float demands (single class).
        arrival_rates: P rates in jobs/s, each finite and >= 0.

    Raises:
        ValueError: invalid stations, per-class demands, or a negative /
            non-finite rate.
    """
    net = build_net(check_stations(stations), ("default",), False)
    lam = np.asarray(arrival_rates, dtype=float).reshape(-1)
    if lam.size and (not np.all(np.isfinite(lam)) or lam.min() < 0.0):
        raise ValueError("arrival_rates must all be finite and >= 0")
    D = net.demand[:, 0]
    c = net.servers
    qmask = net.queueing & (D > 0)
    U = np.where(qmask[None, :], lam[:, None] * (D / c)[None, :], 0.0)
    stable = ~np.any(U >= 1.0, axis=1)
    Us = np.where(U >= 1.0, 0.0, U)
    W = np.where(qmask[None, :], _waiting_factor(Us, c), 0.0)
    resp = (D[None, :] * (1.0 + W)).sum(axis=1)
    resp_t = tuple(float(r) if s else None for r, s in zip(resp.tolist(), stable.tolist()))
    sat, bn = bottleneck_of(net, np.ones(1))
    return OpenCurve(lam, stable, resp_t, np.minimum(U, 1.0), net.names, sat, bn)
