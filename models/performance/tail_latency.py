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

Where only some of the I/Os visit a station (``StationSpec.branch``: the drives, which a read that misses the read
cache visits and one that hits does not), the response time is a mixture, not one sum: an I/O that hits the cache
waits at none of the drives, one that misses waits there and takes a whole drive read (a drive station's demand per
I/O over its share of visits). Its percentiles are then the mixture's
(:func:`models.queueing.tail.mixture_quantiles`): a component per operation type and branch, each the sum of its
stations as above, and one for the I/Os that visit no branch, reads and writes alike, fitted to their mixture's
moments as a path without branches is. A branch station's mean wait per visit is its mean wait per I/O over the
share of I/Os that visit it (a read visits one node's drives, not a slice of every node's; a write, whose drive
work comes after its acknowledgement, none). A path with no branch is computed as one translated gamma fitted to
the read / write mixture's moments.

Only where needed: the curve's points (a few hundred, one vectorised pass per workload) and the search of the max
IOPS at a p99 SLO (two grid passes), never per station in Python loops.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from models.performance.paths import StationSpec
from models.queueing.arrays import sorted_unique
from models.queueing.general_service import open_residence_s, variability_open
from models.queueing.tail import (
    conditional_wait_scv,
    erlang_c_tabled,
    gamma_quantiles,
    mixture_cumulants,
    mixture_quantiles,
    station_cumulants,
)

__all__ = ["TAIL_PROBABILITIES", "SLO_STATISTICS", "TailStations", "tail_stations", "tail_ms", "tail_ms_many",
           "open_waited_ms",
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
        delay_s: the storage side's fixed latency per I/O (its pure delays, waited share), seconds;
        read_fraction: the mix's share of reads.
        q: the storage side's queueing stations (indices); q_servers, q_load (demand / capacity, s), q_service
        (the mix's mean waited service, s), q_scv_mix: their arrays; services: per class (read, write) the sums
        over them of the service's mean, variance and third cumulant (gamma-shaped service).
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
    q: np.ndarray
    q_servers: np.ndarray
    q_load: np.ndarray
    q_service: np.ndarray
    q_scv_mix: np.ndarray
    services: tuple[tuple[float, float, float], tuple[float, float, float]]
    mixture: _Mixture | None = None
    """Where some I/Os visit a branch station and others do not (module docstring): the mixture's components."""


@dataclass(frozen=True)
class _Component:
    """One component of a path's response-time mixture: the I/Os of one type (``op``: 0 reads, 1 writes) that take
    one branch (or none), share ``weight`` of all I/Os. ``alternatives``: the branch's ways, each (the queueing
    stations it visits, as indices into ``TailStations.q``; its share of the component's I/Os; the sums over those
    stations of the service's cumulants per visit); empty for the I/Os that visit no branch."""

    op: int
    weight: float
    alternatives: tuple[tuple[np.ndarray, float, tuple[float, float, float]], ...]


@dataclass(frozen=True)
class _Mixture:
    """A path's branches as the percentiles read them (:class:`TailStations` ``mixture``).

    Attributes:
        on_branch: (Q,) which queueing stations are on a branch; visits: (Q,) the share of all I/Os that visit each
        (1 off a branch): its mean wait per visit is its mean wait per I/O over this; common: per operation type,
        the sums over the stations off a branch of the service's cumulants; components: the mixture's.
    """

    on_branch: np.ndarray
    visits: np.ndarray
    common: tuple[tuple[float, float, float], tuple[float, float, float]]
    components: tuple[_Component, ...]

    def key(self) -> tuple:
        """Its values as one hashable key (:func:`content_key`)."""
        return (self.on_branch.tobytes(), self.visits.tobytes(), self.common,
                tuple((c.op, c.weight, tuple((ks.tobytes(), share, sums) for ks, share, sums in c.alternatives))
                      for c in self.components))


def _service_sums(service_s: np.ndarray, scv: np.ndarray) -> tuple[float, float, float]:
    """The sums over stations of a gamma-shaped service's cumulants: s, cs² s², 2 cs⁴ s³."""
    return (float(service_s.sum()), float((scv * service_s * service_s).sum()),
            float((2.0 * scv * scv * service_s ** 3).sum()))


_BY_ID: dict[tuple[int, float], tuple[tuple[StationSpec, ...], TailStations]] = {}


def tail_stations(specs: tuple[StationSpec, ...], read_fraction: float) -> TailStations:
    """The :class:`TailStations` arrays of ``specs`` at ``read_fraction`` (0..1), cached: the same tuple object (a
    path's stations) by its identity first, else by value (hashing every station costs more than the lookup)."""
    key = (id(specs), float(read_fraction))
    hit = _BY_ID.get(key)
    if hit is not None and hit[0] is specs:
        return hit[1]
    value = _tail_stations(specs, float(read_fraction))
    if len(_BY_ID) >= 4096:
        _BY_ID.clear()
    _BY_ID[key] = (specs, value)  # the tuple is kept, so its id is not reused while it is here
    return value


@lru_cache(maxsize=1024)
def _tail_stations(specs: tuple[StationSpec, ...], read_fraction: float) -> TailStations:
    """:func:`tail_stations` by the stations' values."""
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
    read_s = np.array([s.read_s for s in specs], dtype=float)
    write_s = np.array([s.write_s for s in specs], dtype=float)
    scv = np.array([s.scv_service for s in specs], dtype=float)
    q = np.flatnonzero(storage & queue)
    capacity = servers * copies
    return TailStations(storage, queue, servers, copies, capacity, demand, shares, v_open, read_s, write_s, scv,
                        scv_mix, delay, rf, q, servers[q], demand[q] / capacity[q],
                        rf * read_s[q] + (1.0 - rf) * write_s[q], scv_mix[q],
                        (_service_sums(read_s[q], scv[q]), _service_sums(write_s[q], scv[q])),
                        _mixture([specs[i] for i in q], rf))


_PARTIAL = 1.0 - 1e-9
"""A branch's visits below this share of an operation type's I/Os leave some of them off every branch."""


def _mixture(queues: list[StationSpec], rf: float) -> _Mixture | None:
    """The :class:`_Mixture` of a path's storage-side queueing stations ``queues`` at read fraction ``rf``; None
    when no I/O of an operation type of a share above 0 visits a branch."""
    on = np.array([bool(s.branch) for s in queues], dtype=bool)
    if not on.any():
        return None
    weights = (rf, 1.0 - rf)
    ways: list[dict[tuple, list[int]]] = [{}, {}]
    for k, s in enumerate(queues):
        for op, visit in enumerate((s.read_visit, s.write_visit)):
            if s.branch and visit > 0.0 and (s.read_s if op == 0 else s.write_s) > 0.0:
                ways[op].setdefault((s.branch, s.ident.node, s.ident.index), []).append(k)
    shares = [{key: max((queues[k].read_visit, queues[k].write_visit)[op] for k in ks) for key, ks in ways[op].items()}
              for op in (0, 1)]
    if not any(w > 0.0 and shares[op] for op, w in enumerate(weights)):
        return None
    visits = np.array([rf * s.read_visit + (1.0 - rf) * s.write_visit if s.branch else 1.0 for s in queues])
    off = ~on
    scv = np.array([s.scv_service for s in queues], dtype=float)
    common = tuple(_service_sums(np.array([s.read_s if op == 0 else s.write_s for s in queues])[off], scv[off])
                   for op in (0, 1))
    components: list[_Component] = []
    for op, w in enumerate(weights):
        if w <= 0.0:
            continue
        total = sum(shares[op].values())
        scale = 1.0 / total if total > 1.0 else 1.0  # branches are taken by different I/Os: at most all of them
        by_branch: dict[str, list[tuple]] = {}
        for key, ks in ways[op].items():
            share = shares[op][key] * scale
            per_visit = np.array([(queues[k].read_s if op == 0 else queues[k].write_s)
                                  / max((queues[k].read_visit, queues[k].write_visit)[op], 1e-12) for k in ks])
            by_branch.setdefault(key[0], []).append((np.array(ks, dtype=np.intp), share,
                                                     _service_sums(per_visit, scv[ks])))
        rest = 1.0 - total * scale
        if rest > 1.0 - _PARTIAL:
            components.append(_Component(op, w * rest, ()))
        for alternatives in by_branch.values():
            branch_share = sum(a[1] for a in alternatives)
            components.append(_Component(op, w * branch_share,
                                         tuple((ks, share / branch_share, sums) for ks, share, sums in alternatives)))
    visits = np.where(visits > 0.0, visits, 1.0)
    return _Mixture(on, visits, (common[0], common[1]), tuple(components))


TailRequest = tuple[TailStations, np.ndarray, np.ndarray, np.ndarray]
"""What :func:`tail_ms_many` computes one result of: (the path's :class:`TailStations`, IOPS (L,), each station's
mean residence per I/O, waited share, ms (L, S), the other workloads' utilisation of each station (S,))."""


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
    return tail_ms_many([(ts, iops, residence_ms, background)], probabilities)[0]


def tail_ms_many(requests: Sequence[TailRequest], probabilities: tuple[float, ...] = TAIL_PROBABILITIES
                 ) -> list[tuple[np.ndarray, ...]]:
    """:func:`tail_ms` of many paths at once (a system's workloads, a scenario's): the paths with the same number
    of storage-side queueing stations are stacked row by row and solved in one pass of array operations, so the
    cost hardly grows with the number of paths; requests with the same inputs (the same station arrays,
    :func:`content_key`, levels, residences and background: a design's workloads alike) are computed once and
    share their arrays (every element is computed alone, so the same floats). Results in the order of
    ``requests``, each as :func:`tail_ms`'s."""
    out: list[tuple[np.ndarray, ...] | None] = [None] * len(requests)
    groups: dict[int, list[int]] = {}
    first: dict[tuple, int] = {}  # a request's inputs -> the first request with them
    repeats: list[tuple[int, int]] = []
    for i, (ts, x, res, bg) in enumerate(requests):
        key = (content_key(ts), _bytes(x), _bytes(res), _bytes(bg))
        solver = first.get(key)
        if solver is not None:  # the same inputs (a design's workloads alike): the same results, found once
            repeats.append((i, solver))
            continue
        first[key] = i
        groups.setdefault(len(ts.q), []).append(i)
    for width, members in groups.items():
        mixed = [i for i in members if requests[i][0].mixture is not None]
        for i in mixed:  # some I/Os visit a branch (the drives) and others not: the mixture's percentiles
            out[i] = _tail_mixture(requests[i], probabilities)
        if mixed:
            members = [i for i in members if requests[i][0].mixture is None]
            if not members:
                continue
        if width == 0:
            for i in members:
                ts, x = requests[i][0], np.asarray(requests[i][1], dtype=float)
                out[i] = tuple(np.full(x.shape, ts.delay_s * 1e3) for _ in probabilities)
            continue
        for i, values in zip(members, _tail_group([requests[i] for i in members], probabilities)):
            out[i] = values
    for i, solver in repeats:
        out[i] = out[solver]
    return [v if v is not None else () for v in out]


_CONTENT: dict[int, tuple[object, tuple]] = {}


def content_key(arrays: object) -> tuple:
    """The values of a frozen dataclass of a path's station arrays (:class:`TailStations`, the engine's ``_Static``)
    as one hashable key: each field's name and value, an array's as its shape, type and bytes (fields that are
    dicts or lists, caches filled on use, are left out). Two such objects with equal keys give the same floats in
    every computation on them; found once per object (by its identity, the object kept so its id is not reused)."""
    hit = _CONTENT.get(id(arrays))
    if hit is not None and hit[0] is arrays:
        return hit[1]
    key = tuple((name, (value.shape, value.dtype.str, value.tobytes()) if isinstance(value, np.ndarray)
                 else value.key() if isinstance(value, _Mixture) else value)
                for name, value in vars(arrays).items() if not isinstance(value, (dict, list)))
    if len(_CONTENT) >= 4096:
        _CONTENT.clear()
    _CONTENT[id(arrays)] = (arrays, key)
    return key


def _bytes(values: np.ndarray) -> tuple[tuple[int, ...], bytes]:
    """An array's shape and its floats' bytes (a key of what :func:`tail_ms_many` computes from it)."""
    array = np.asarray(values, dtype=float)
    return array.shape, array.tobytes()


def _tail_group(requests: Sequence[TailRequest], probabilities: tuple[float, ...]) -> list[tuple[np.ndarray, ...]]:
    """:func:`tail_ms_many` of paths with the same number of storage-side queueing stations (stacked rows)."""
    lengths = [len(np.asarray(x)) for _ts, x, _res, _bg in requests]
    res_s = np.concatenate([np.asarray(res, dtype=float)[:, ts.q] for ts, _x, res, _bg in requests]) * 1e-3
    u = np.concatenate([np.asarray(x, dtype=float)[:, None] * ts.q_load + np.asarray(bg, dtype=float)[ts.q]
                        for ts, x, _res, bg in requests])
    u = np.minimum(u, 1.0)

    one = len(requests) == 1

    def rows(values: list) -> np.ndarray:
        """Per-path values repeated for each of its rows (one path's: its values as one row, which the element-wise
        operations below broadcast over its rows, the same floats without the copies)."""
        if one:
            return np.asarray(values, dtype=float)
        return np.repeat(np.asarray(values, dtype=float), lengths, axis=0)

    stations = [r[0] for r in requests]
    servers = rows([ts.q_servers for ts in stations])
    with np.errstate(invalid="ignore", divide="ignore"):
        wait = np.maximum(res_s - rows([ts.q_service for ts in stations]), 0.0)
        cond = np.where(u > 0.0, wait / np.where(u > 0.0, u, 1.0), 0.0)
    cond = np.where(np.isfinite(res_s), cond, np.inf)
    p_wait = erlang_c_tabled(servers, u, sorted_unique(np.concatenate([ts.q_servers for ts in stations])))
    wait_scv = conditional_wait_scv(servers, u, rows([ts.q_scv_mix for ts in stations]))
    w1, w2, w3 = station_cumulants(np.zeros(1), np.zeros(1), p_wait, cond, wait_scv)
    w1 = w1.sum(axis=1) + rows([ts.delay_s for ts in stations])
    w2, w3 = w2.sum(axis=1), w3.sum(axis=1)
    read, write = (rows([ts.services[j] for ts in stations]) for j in (0, 1))
    rf = rows([ts.read_fraction for ts in stations])
    total = mixture_cumulants((rf, 1.0 - rf), ((w1 + read[:, 0], w2 + read[:, 1], w3 + read[:, 2]),
                                               (w1 + write[:, 0], w2 + write[:, 1], w3 + write[:, 2])))
    values = gamma_quantiles(total, probabilities)
    if one:
        return [tuple(v * 1e3 for v in values)]
    cuts = np.cumsum(lengths)[:-1]
    split = [np.split(v * 1e3, cuts) for v in values]
    return [tuple(parts[k] for parts in split) for k in range(len(requests))]


def _tail_mixture(request: TailRequest, probabilities: tuple[float, ...]) -> tuple[np.ndarray, ...]:
    """:func:`tail_ms` of a path with a :class:`_Mixture` (module docstring): each component's cumulants, the
    stations off a branch and the fixed latencies for all of them, and the quantiles of their mixture."""
    ts, x, res, bg = request
    mix = ts.mixture
    assert mix is not None
    res_s = np.asarray(res, dtype=float)[:, ts.q] * 1e-3
    u = np.minimum(np.asarray(x, dtype=float)[:, None] * ts.q_load + np.asarray(bg, dtype=float)[ts.q], 1.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        wait = np.maximum(res_s - ts.q_service, 0.0)
        # the mean wait of one visit: a branch station's mean wait per I/O over the share of I/Os that visit it
        cond = np.where(u > 0.0, wait / (mix.visits * np.where(u > 0.0, u, 1.0)), 0.0)
    cond = np.where(np.isfinite(res_s), cond, np.inf)
    p_wait = erlang_c_tabled(ts.q_servers, u, sorted_unique(ts.q_servers))
    wait_scv = conditional_wait_scv(ts.q_servers, u, ts.q_scv_mix)
    w1, w2, w3 = station_cumulants(np.zeros(1), np.zeros(1), p_wait, cond, wait_scv)
    off = ~mix.on_branch
    base = (w1[:, off].sum(axis=1) + ts.delay_s, w2[:, off].sum(axis=1), w3[:, off].sum(axis=1))
    weights, parts = [], []
    off_weights, off_parts = [], []  # the I/Os on no branch, reads and writes: one component (their moments')
    for c in mix.components:
        common = mix.common[c.op]
        k1, k2, k3 = base[0] + common[0], base[1] + common[1], base[2] + common[2]
        if not c.alternatives:
            off_weights.append(c.weight)
            off_parts.append((k1, k2, k3))
            continue
        ways = tuple((w1[:, ks].sum(axis=1) + sums[0], w2[:, ks].sum(axis=1) + sums[1],
                      w3[:, ks].sum(axis=1) + sums[2]) for ks, _share, sums in c.alternatives)
        b1, b2, b3 = ways[0] if len(ways) == 1 else mixture_cumulants(
            tuple(share for _ks, share, _sums in c.alternatives), ways)
        weights.append(c.weight)
        parts.append((k1 + b1, k2 + b2, k3 + b3))
    if off_weights:
        total = sum(off_weights)
        weights.append(total)
        parts.append(off_parts[0] if len(off_parts) == 1 else
                     mixture_cumulants(tuple(v / total for v in off_weights), tuple(off_parts)))
    return tuple(v * 1e3 for v in mixture_quantiles(tuple(weights), tuple(parts), probabilities))


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
    coarse = sorted_unique(np.concatenate([np.arange(0, len(x), 8), [len(x) - 1]]))
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
