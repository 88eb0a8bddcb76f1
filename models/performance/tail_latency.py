"""p95 / p99 I/O response time along a workload's path: the curve's percentiles and the max IOPS at a p99 SLO.

The storage-side response time of one I/O is the sum of its storage-side stations' waits and services and the
fixed latencies (pure delays) on that side; :mod:`models.queueing.tail` gives the method and its sources
(Erlang C probability of waiting with an exponential conditional wait scaled by Allen-Cunneen's variability,
gamma-shaped service, independent stations, a read / write mixture, and the translated gamma for the percentile).

Here the path's own means are kept: at each load level a station's mean wait is the one the engine solved (the
closed ramp's residence, or the open model's beyond the ramp) minus its mean service, and the conditional wait is
that mean over the station's utilisation (in the open model exactly Allen-Cunneen's v a / (1 - U)), so the
percentiles belong to the drawn mean curve. The probability of waiting is Erlang C at the station's whole
utilisation (this workload's and the other workloads' load). Reads and writes are the mixture's two classes,
each with its own service time at every station (``StationSpec.read_s`` / ``write_s``; work done after the
acknowledgement is not waited for).

Only where needed: the curve's points (a few hundred, one vectorised pass per workload) and the search of the max
IOPS at a p99 SLO (two grid passes), never per station in Python loops.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from models.performance.paths import StationSpec
from models.queueing.general_service import open_residence_s, variability_open
from models.queueing.tail import conditional_wait_scv, erlang_c_tabled, path_quantiles

__all__ = ["TAIL_PROBABILITIES", "SLO_STATISTICS", "TailStations", "tail_stations", "tail_ms", "open_waited_ms",
           "open_tail_ms", "max_iops_at_tail_slo", "slo_probability"]

TAIL_PROBABILITIES = (0.95, 0.99)
"""The percentiles the curve carries: p95 and p99."""

SLO_STATISTICS = ("mean", "p99")
"""What a workload's SLO may be set on: the mean I/O response time (the default, and that of older files) or its
99th percentile."""


def slo_probability(statistic: str) -> float | None:
    """The percentile an SLO statistic names (0.99 for "p99"), None for the mean.

    Raises:
        ValueError: a statistic not in :data:`SLO_STATISTICS`.
    """
    if statistic == "mean":
        return None
    if statistic == "p99":
        return 0.99
    raise ValueError(f"SLO statistic must be one of {', '.join(SLO_STATISTICS)}, got {statistic!r}")


@dataclass(frozen=True)
class TailStations:
    """A path's stations as the tail method reads them, arrays (S,) over ``StationSpec`` order.

    Attributes:
        storage: counts on the storage side; queue: a queueing station (else a pure delay);
        servers, capacity: servers per queue and copies x servers; demand_s: demand per I/O of the mix, seconds;
        shares: the waited-for share of that demand; v_open: Allen-Cunneen's (ca² + cs²) / 2 of the mix;
        read_s, write_s: the waited service of one read / one write, seconds; scv: each operation's cs²;
        scv_mix: the cs² of the mix's service (``StationSpec.service_scv``);
        delay_s: the storage side's fixed latency per I/O (its pure delays, waited share), seconds.
    """

    storage: np.ndarray
    queue: np.ndarray
    servers: np.ndarray
    copies: np.ndarray
    capacity: np.ndarray
    demand_s: np.ndarray
    shares: np.ndarray
    v_open: np.ndarray
    read_s: np.ndarray
    write_s: np.ndarray
    scv: np.ndarray
    scv_mix: np.ndarray
    delay_s: float
    read_fraction: float


@lru_cache(maxsize=1024)
def tail_stations(specs: tuple[StationSpec, ...], read_fraction: float) -> TailStations:
    """The :class:`TailStations` arrays of ``specs`` at ``read_fraction`` (0..1), cached by value."""
    rf = float(read_fraction)
    storage = np.array([s.storage_side for s in specs], dtype=bool)
    queue = np.array([not s.delay for s in specs], dtype=bool)
    demand = np.array([s.demand(rf) for s in specs], dtype=float)
    shares = np.array([s.latency_share(rf) for s in specs], dtype=float)
    servers = np.array([max(s.servers, 1) for s in specs], dtype=float)
    copies = np.array([max(s.multiplicity, 1) for s in specs], dtype=float)
    scv_mix = np.array([s.service_scv(rf) for s in specs], dtype=float)
    v_open = variability_open(np.array([s.scv_arrival for s in specs], dtype=float), scv_mix)
    delay = float((demand * shares)[storage & ~queue].sum())
    return TailStations(storage, queue, servers, copies, servers * copies, demand, shares, v_open,
                        np.array([s.read_s for s in specs], dtype=float),
                        np.array([s.write_s for s in specs], dtype=float),
                        np.array([s.scv_service for s in specs], dtype=float), scv_mix, delay, rf)


def tail_ms(ts: TailStations, iops: np.ndarray, residence_ms: np.ndarray, background: np.ndarray,
            probabilities: tuple[float, ...] = TAIL_PROBABILITIES) -> tuple[np.ndarray, ...]:
    """Storage-side percentiles of the I/O response time at each of L load levels (module method).

    Args:
        ts: the path's :class:`TailStations`; iops: (L,) this workload's IOPS at each level;
        residence_ms: (L, S) each station's mean residence per I/O, its waited share, ms (the engine's
            ``Ramp.residence_ms`` rows, or :func:`open_waited_ms`); +inf where saturated;
        background: (S,) the other workloads' per-queue utilisation of each station (0 where none);
        probabilities: the percentiles, e.g. (0.95, 0.99).

    Returns:
        one (L,) array per probability, ms; +inf where a storage-side station is saturated.
    """
    q = np.flatnonzero(ts.storage & ts.queue)
    x = np.asarray(iops, dtype=float)
    if q.size == 0:
        return tuple(np.full(x.shape, ts.delay_s * 1e3) for _ in probabilities)
    res_s = np.asarray(residence_ms, dtype=float)[:, q] * 1e-3
    rf = ts.read_fraction
    read_s, write_s = ts.read_s[q], ts.write_s[q]
    service_mix = rf * read_s + (1.0 - rf) * write_s
    u = np.minimum(x[:, None] * (ts.demand_s[q] / ts.capacity[q]) + np.asarray(background, dtype=float)[q], 1.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        wait = np.maximum(res_s - service_mix, 0.0)
        cond = np.where(u > 0.0, wait / np.where(u > 0.0, u, 1.0), 0.0)
    cond = np.where(np.isfinite(res_s), cond, np.inf)
    servers = ts.servers[q]
    multi = servers > 1.0
    p_wait = u.copy()
    if multi.any():
        p_wait[:, multi] = erlang_c_tabled(servers[multi], u[:, multi])
    weights: tuple[float, ...]
    if rf >= 1.0:
        classes, weights = read_s[None, :], (1.0,)
    elif rf <= 0.0:
        classes, weights = write_s[None, :], (1.0,)
    else:
        classes, weights = np.stack([read_s, write_s]), (rf, 1.0 - rf)
    scv_mix = ts.scv_mix[q]
    out = path_quantiles(np.asarray(ts.delay_s), classes, ts.scv[q], p_wait, cond, probabilities, weights,
                         conditional_wait_scv(servers, u, scv_mix))
    return tuple(v * 1e3 for v in out)


def open_waited_ms(ts: TailStations, demands_s: np.ndarray, iops: np.ndarray) -> np.ndarray:
    """Each station's open-model residence per I/O (waited share, ms) at each of ``iops`` (L,): the engine's
    open model (Allen-Cunneen on Seidmann's split, :func:`models.queueing.general_service.open_residence_s`) with
    the path's (inflated) ``demands_s`` (S,), seconds; +inf where a queue is saturated; (L, S)."""
    d = np.asarray(demands_s, dtype=float)
    x = np.asarray(iops, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        u = x[:, None] * (d / ts.capacity)
        res = open_residence_s(d, ts.servers, ts.copies, ts.v_open, u, check=False)
    res = np.where(ts.queue, res, d)
    with np.errstate(invalid="ignore"):  # a saturated station whose work nobody waits for (share 0) adds 0
        return np.where(ts.shares > 0.0, res * ts.shares, 0.0) * 1e3


def open_tail_ms(ts: TailStations, demands_s: np.ndarray, iops: np.ndarray, background: np.ndarray,
                 probabilities: tuple[float, ...] = TAIL_PROBABILITIES) -> tuple[np.ndarray, ...]:
    """:func:`tail_ms` on the open model's residences at ``iops`` (L,) (:func:`open_waited_ms`)."""
    return tail_ms(ts, iops, open_waited_ms(ts, demands_s, iops), background, probabilities)


_GRID = 48


def max_iops_at_tail_slo(ts: TailStations, ramp_iops: np.ndarray, ramp_residence_ms: np.ndarray,
                         demands_s: np.ndarray, background: np.ndarray, slo_ms: float, saturation: float,
                         probability: float) -> float | None:
    """The highest IOPS whose storage-side ``probability``-percentile latency is within ``slo_ms``.

    Along the closed ramp (``ramp_iops`` (N,), ``ramp_residence_ms`` (N, S)) the percentile rises with the
    load: the first crossing, interpolated linearly, is the answer (found on every 8th point, then on every point
    of its bracket). A ramp that ends inside the SLO is continued
    by the open model from its last IOPS towards ``saturation`` (two grid passes of 48 points: relative precision
    about 1/2,300 of the gap). None when even one outstanding I/O misses the SLO.
    """
    x = np.asarray(ramp_iops, dtype=float)
    res = np.asarray(ramp_residence_ms, dtype=float)
    if not len(x):
        return None
    # the percentile on every 8th ramp point and the last, then on every point of the bracket of the first crossing
    coarse = np.unique(np.concatenate([np.arange(0, len(x), 8), [len(x) - 1]]))
    (y_coarse,) = tail_ms(ts, x[coarse], res[coarse], background, (probability,))
    if not y_coarse[0] <= slo_ms:
        return None
    over = np.flatnonzero(~(y_coarse <= slo_ms))
    if over.size:
        first, last = int(coarse[over[0] - 1]), int(coarse[over[0]])
        (y_fine,) = tail_ms(ts, x[first:last + 1], res[first:last + 1], background, (probability,))
        j = first + int(np.flatnonzero(~(y_fine <= slo_ms))[0])
        y = np.full(len(x), np.nan)
        y[first:last + 1] = y_fine
        x0, x1, y0, y1 = float(x[j - 1]), float(x[j]), float(y[j - 1]), float(y[j])
        if not math.isfinite(y1) or y1 == y0:
            return x0
        return x0 + (x1 - x0) * (slo_ms - y0) / (y1 - y0)
    lo, hi = float(x[-1]), float(saturation)
    if not math.isfinite(hi) or hi <= lo:
        return lo
    best = lo
    for _ in range(2):
        grid = np.linspace(lo, hi, _GRID + 1)
        (g,) = open_tail_ms(ts, demands_s, grid, background, (probability,))
        ok = np.flatnonzero(g <= slo_ms)
        if not ok.size:
            break
        k = min(int(ok[-1]), _GRID - 1)
        best = max(best, float(grid[k]))
        lo, hi = float(grid[k]), float(grid[k + 1])
    return best
