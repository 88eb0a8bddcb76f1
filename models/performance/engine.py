"""Solve each workload's stations: the closed ramp, the open operating point, and the result records.

Method (DESIGN.md "Performance (queueing) engine"):

* Stations: each is ``multiplicity`` identical, separate queues of ``servers`` servers (the drives of a pool,
  the ports of a multipath group and, for ONTAP, the CPU cores each with its own queue; see
  ``models.performance.paths``): spreading load over separate queues is not pooling it, so the wait grows with
  utilisation as at a single queue and the curve bends gradually (the knee).
* Closed ramp: single-class MVA (``models.queueing.general_service.closed_ramp``, one pass for N = 1 ..
  concurrency), exact for exponential service; a multi-server queue enters in Seidmann's decomposition (a queue
  of D / c and a delay of D (c - 1) / c; Seidmann, Schweitzer & Shalev-Oren 1987, Perf. Eval. 7; Bolch et al.
  2006 ch. 9) and non-exponential service through Reiser's residual-life correction (Reiser 1979; the
  variability of each station kind is in ``models.performance.variability``). One pass is O(N K), which the
  5 ms interactive budget needs.
* Open operating point: every enabled workload of a system at its target rate, one class each: each station's
  utilisation sums every workload's, and each workload's residence is the same station model in the open form
  (Allen-Cunneen's G/G/c approximation on Seidmann's split), so the open and closed models agree at light load.
* Uncertainty bands (``models.performance.bands``) and the curve's shape (``models.performance.knee``) are
  computed for every workload; failure states (``models.performance.states``) are paths solved by the same
  functions.
* Many workloads at once (a system's, and every failure state of them): their closed ramps are solved together
  per population (identical queueing classes merged, :func:`_merged_classes`), and each workload's solution runs
  as steps (:func:`_solve_steps`) whose open-model searches and bands are answered for all of them in a few array
  operations (:func:`_drive`, :class:`_Rows`); the figures are those of solving each alone, to rounding.
* Several workloads on one system: each workload's ramp runs while the others run at their target rates; a
  shared station's demand for the ramped workload is inflated by 1 / (1 - U_others) (the shadow-server
  reduced-capacity approximation, Sevcik 1977, "Priority scheduling disciplines in queueing network models of
  computer systems", IFIP Congress; Lazowska et al. 1984 QSP ch. 11 reasoning on capacity left to a class).
* Storage-side latency sums the stations inside the array (``StationSpec.storage_side``); host-side latency is
  the whole response time (host stack, fabric and ports included).

One module although it is over 600 lines: it is the one solver of a workload's stations. The closed ramp, the
open operating point and the lookups on the curve they give (IOPS at a latency, latency at an IOPS) share the
station model and the :class:`Ramp` record, and must agree; the stations come from
:mod:`models.performance.paths`, the result records are in :mod:`models.performance.results`.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

import numpy as np

from models.capacity.layout import RaidLayout, system_layout
from models.catalog import Catalog
from models.collector import collector_paused
from models.performance.bands import (
    Band,
    band_factors,
    demand_sd,
    hard_limit,
    hard_limit_note,
    held_at_hard_limit,
    ordered,
)
from models.performance.discrepancy import band_basis, edge_scales, figure_sigma, input_rel_sd, widened_figures
from models.performance.knee import CurveShape, knee_note
from models.performance.paths import (
    KIB,
    NOT_EVALUATED,
    VSAN_LATENCY_NOTE,
    PathError,
    StationSpec,
    WorkloadPath,
    build_path,
    shared_host_sides,
)
from models.performance.results import (
    CurveColumns,
    CurvePoint,
    ScenarioPerformance,
    StationLoad,
    WorkloadPerformance,
    station_load,
    with_curve_columns,
)
from models.performance.tail_latency import (
    TailRequest,
    TailStations,
    content_key,
    max_iops_at_tail_slo,
    open_waited_ms,
    slo_probability,
    tail_ms,
    tail_ms_many,
    tail_stations,
)
from models.project.model import Scenario, Settings, Workload
from models.queueing.arrays import sorted_unique
from models.queueing.general_service import (
    closed_ramp,
    closed_ramp_batch,
    open_residence_s,
    variability_closed,
    variability_open,
)

MAX_BACKGROUND_UTILISATION = 0.999
"""Other workloads' utilisation of a shared station is capped here so the ramped workload keeps a finite (tiny)
capacity; such a case is reported in the notes as saturated by the other workloads."""

_CURVE_CACHE: OrderedDict = OrderedDict()
_CURVE_CACHE_SIZE = 512


@dataclass(frozen=True)
class Ramp:
    """A closed ramp N = 1 .. concurrency with every point (not thinned).

    Attributes:
        population: (N,) outstanding I/Os; iops: (N,) I/O per second; storage_ms, host_ms: (N,) latencies;
        residence_ms: (N, S) per StationSpec (all its parts; the part the I/O waits for, see
        ``StationSpec.latency_share``), ms; specs: the StationSpecs (inflated demands);
        demand_s: (S,) demand per I/O of each spec, seconds (inflated).
    """

    population: np.ndarray
    iops: np.ndarray
    storage_ms: np.ndarray
    host_ms: np.ndarray
    residence_ms: np.ndarray
    specs: tuple[StationSpec, ...]
    demand_s: np.ndarray


@dataclass(frozen=True)
class _Static:
    """What the solvers need of a path's stations besides their demands, computed once per (stations, read
    fraction): servers, copies, variability factors, which stations queue, which count on the storage side,
    each one's waited-for share, demand per I/O (seconds) and capacity (copies x servers). Arrays (S,),
    read-only."""

    servers: np.ndarray
    copies: np.ndarray
    v_closed: np.ndarray
    v_open: np.ndarray
    is_queue: np.ndarray
    storage: np.ndarray
    shares: np.ndarray
    demand: np.ndarray
    capacity: np.ndarray
    plain: list[tuple[list[float], list[float], list[bool]]] = field(default_factory=list, compare=False)
    """``demand``, ``capacity`` and ``is_queue`` as lists of Python floats and bools, made on first use
    (:func:`_saturation_index`)."""
    sides: dict[object, tuple[np.ndarray, ...]] = field(default_factory=dict, compare=False)
    """Per ``host_side`` (False: the storage side's stations only) the arrays of that side, sliced once: (side mask,
    servers, copies, copies x servers, v_open, is_queue, shares) by :meth:`side`, and under (host_side, "split")
    its queueing and delay stations apart by :meth:`split` (what :func:`_open_latency_st` and :class:`_Rows`
    read)."""

    def split(self, host_side: bool) -> tuple[np.ndarray, ...]:
        """The queueing and the delay stations of one side apart: (queues' indices into the path's stations,
        delays' indices, the queues' servers, copies x servers, v_open and shares, the delays' shares, every
        station's index and share)."""
        key = (host_side, "split")
        got = self.sides.get(key)
        if got is None:
            mask = np.ones_like(self.storage) if host_side else self.storage
            q = np.flatnonzero(mask & self.is_queue)
            dl = np.flatnonzero(mask & ~self.is_queue)
            every = np.flatnonzero(mask)
            got = (q, dl, self.servers[q], self.copies[q] * self.servers[q], self.v_open[q], self.shares[q],
                   self.shares[dl], every, self.shares[every])
            self.sides[key] = got
        return got

    def side(self, host_side: bool) -> tuple[np.ndarray, ...]:
        """The arrays of the stations that count on one side (see ``sides``)."""
        got = self.sides.get(host_side)
        if got is None:
            mask = np.ones_like(self.storage) if host_side else self.storage
            got = (mask, self.servers[mask], self.copies[mask], self.copies[mask] * self.servers[mask],
                   self.v_open[mask], self.is_queue[mask], self.shares[mask])
            self.sides[host_side] = got
        return got


_STATIC_BY_ID: dict[tuple[int, float], tuple[tuple[StationSpec, ...], _Static]] = {}
_STATIC_BY_ID_SIZE = 4096


def _static(specs: tuple[StationSpec, ...], read_fraction: float) -> _Static:
    """The :class:`_Static` arrays of ``specs`` at ``read_fraction`` (cached: the GUI re-evaluates unchanged
    paths on every edit, and the bands evaluate the same path several times). The same tuple object (a path's
    stations, passed down every solver of one workload) is found by its identity first: hashing and comparing
    every station of it on each of a workload's dozen calls cost more than the arrays."""
    key = (id(specs), read_fraction)
    hit = _STATIC_BY_ID.get(key)
    if hit is not None and hit[0] is specs:
        return hit[1]
    value = _static_of(specs, read_fraction)
    if len(_STATIC_BY_ID) >= _STATIC_BY_ID_SIZE:
        _STATIC_BY_ID.clear()
    _STATIC_BY_ID[key] = (specs, value)  # the tuple is kept, so its id is not reused while it is here
    return value


@lru_cache(maxsize=2048)
def _static_of(specs: tuple[StationSpec, ...], read_fraction: float) -> _Static:
    """:func:`_static` by the stations' values (the GUI's next evaluation builds equal paths anew)."""
    scv = np.array([s.service_scv(read_fraction) for s in specs], dtype=float)
    ca2 = np.array([s.scv_arrival for s in specs], dtype=float)
    arrays = _Static(
        servers=np.array([max(s.servers, 1) for s in specs], dtype=float),
        copies=np.array([max(s.multiplicity, 1) for s in specs], dtype=float),
        v_closed=variability_closed(scv),
        v_open=variability_open(ca2, scv),
        is_queue=np.array([not s.delay for s in specs], dtype=bool),
        storage=np.array([s.storage_side for s in specs], dtype=bool),
        shares=np.array([s.latency_share(read_fraction) for s in specs], dtype=float),
        demand=np.array([s.demand(read_fraction) for s in specs], dtype=float),
        capacity=np.array([s.capacity for s in specs], dtype=float),
    )
    for value in vars(arrays).values():
        if isinstance(value, np.ndarray):
            value.setflags(write=False)
    return arrays


def _queue_arrays(
    specs: Sequence[StationSpec], demands: Sequence[float], read_fraction: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per-spec arrays for :mod:`models.queueing.general_service`: (service_s, servers, copies, v_closed,
    v_open, is_queue) with delays marked False in ``is_queue`` (their service is their residence)."""
    st = _static(tuple(specs), float(read_fraction))
    return np.asarray(demands, dtype=float), st.servers, st.copies, st.v_closed, st.v_open, st.is_queue


def _curve_key(specs: tuple[StationSpec, ...], demands: tuple[float, ...], read_fraction: float, population: int,
               think_s: float) -> tuple:
    """The ramp cache's key of one closed ramp (what its solution depends on: besides the demands, each station's
    servers, copies, kind of queue and service variability, which the read / write split of its demand changes
    too, ``StationSpec.service_scv``), as a :class:`_RampKey` (its hash computed once)."""
    return _RampKey((tuple((s.name, s.servers, s.multiplicity, s.delay, s.scv_service, s.scv_arrival, s.read_s,
                            s.write_s, s.write_async_s) for s in specs), demands, read_fraction, population, think_s))


class _RampKey(tuple):
    """A ramp cache key (:func:`_curve_key`): the tuple itself, equal to it and hashing as it does, with its hash kept
    (a tuple hashes every element anew on each lookup: a key of a path's dozen stations was hashed three to five
    times per ramp, looked up, stored and moved in the cache and in the batch's table of equal requests)."""

    def __init__(self, _parts: tuple) -> None:
        self.hash = tuple.__hash__(self)

    def __hash__(self) -> int:
        return self.hash


def _remember(key: tuple, value: tuple[np.ndarray, np.ndarray]) -> None:
    """Keep a solved ramp in the cache (least recently used out beyond :data:`_CURVE_CACHE_SIZE`)."""
    _CURVE_CACHE[key] = value
    _CURVE_CACHE.move_to_end(key)
    if len(_CURVE_CACHE) > _CURVE_CACHE_SIZE:
        _CURVE_CACHE.popitem(last=False)


def _assemble(
    service: np.ndarray, is_queue: np.ndarray, X: np.ndarray, Rq: np.ndarray,
    cols: np.ndarray | None = None, weights: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """(X, R) of a ramp with R (N, S) per spec: the delays' residence is their service, the queues' from MVA
    (``Rq`` (N, K) per queueing spec, or with ``cols`` and ``weights`` the merged classes' (N, G) of
    :func:`_merged_classes`: a member's residence is its class's / members, a class left out 0)."""
    R = np.empty((len(X), len(service)))
    R[:, ~is_queue] = service[~is_queue]
    q = np.flatnonzero(is_queue)
    if cols is None or weights is None:
        R[:, q] = Rq
    else:
        kept = cols >= 0
        R[:, q[~kept]] = 0.0
        R[:, q[kept]] = (Rq / weights)[:, cols[kept]]
    return X, R


def ramp_requests(scenario: Scenario, catalog: Catalog) -> list[tuple]:
    """The closed ramps :func:`evaluate_performance` solves for ``scenario``, as (specs, demands, read fraction,
    population, think time s) tuples: the same paths, the same demand inflation from the other workloads' targets
    (:func:`_background`). Workloads whose path cannot be built are left out (the evaluation names them)."""
    paths, _ = evaluate_paths(scenario, catalog)
    out = []
    for group in _by_system(paths).values():
        rates = {p.workload.id: t for p in group if (t := target_rate(p.workload)) is not None}
        for p in group:
            others = [(o, rates[o.workload.id]) for o in group if o is not p and o.workload.id in rates]
            factors, _ = _background(p, others)
            rf = float(p.read_fraction)
            demands = tuple(spec.demand(rf) * f for spec, f in zip(p.stations, factors))
            out.append((tuple(p.stations), demands, rf, int(p.workload.concurrency),
                        float(p.workload.think_time_ms / 1e3)))
    return out


def solve_ramps(requests: Sequence[tuple]) -> int:
    """Solve many closed ramps at once into the ramp cache, so that the evaluations that follow find them
    solved: the sizer's batched engine. Requests (:func:`ramp_requests`) with the same number of queueing
    stations and population are solved together by :func:`~models.queueing.general_service.closed_ramp_batch`
    (the same MVA recursion, vectorised across them; equal to :func:`closed_ramp` to rounding, tested to 1e-9);
    ones already cached, or with no queueing station, are left to :func:`_curve`.

    Returns:
        How many ramps were solved here.
    """
    groups: dict[tuple[int, int], list] = {}
    for specs, demands, rf, population, think_s in requests:
        key = _curve_key(specs, demands, rf, population, think_s)
        if key in _CURVE_CACHE:
            continue
        service, servers, copies, v_closed, _, is_queue = _queue_arrays(specs, demands, rf)
        q = np.flatnonzero(is_queue)
        if q.size == 0:
            continue
        groups.setdefault((int(q.size), population), []).append(
            (key, service, servers[q], copies[q], v_closed[q], is_queue, float(service[~is_queue].sum()), think_s))
    solved = 0
    for (_k, population), items in groups.items():
        qs = [it[1][it[5]] for it in items]
        X, R = closed_ramp_batch(np.array(qs), np.array([it[2] for it in items]), np.array([it[3] for it in items]),
                                 np.array([it[4] for it in items]), np.array([it[6] for it in items]),
                                 np.array([it[7] for it in items]), population, per_station=True)
        for b, (key, service, _c, _m, _v, is_queue, _d, _t) in enumerate(items):
            _remember(key, _assemble(service, is_queue, X[b], R[b]))
            solved += 1
    return solved


def _solve_batch(requests: Sequence[tuple]) -> list[tuple[np.ndarray, np.ndarray]]:
    """The closed ramps of ``requests`` ((specs, demands, read fraction, population, think time s) as
    :func:`ramp_requests`'), in order, as :func:`_curve` gives them: from the ramp cache where solved before, the
    rest per population either together by :func:`~models.queueing.general_service.closed_ramp_batch` (the same
    recursion vectorised across them, equal to :func:`closed_ramp` to rounding) or one by one by
    :func:`closed_ramp`, whichever :func:`_batch_pays` expects to be faster; identical queueing classes merged
    (:func:`_merged_classes`); equal requests (one key, :func:`_curve_key`: workloads of a system alike in every
    input of their ramp) solved once, with the floats each would have had solved again. What is solved here is
    remembered."""
    out: list[tuple[np.ndarray, np.ndarray] | None] = [None] * len(requests)
    by_population: dict[int, list] = {}
    first: dict[tuple, int] = {}  # key -> the request that solves it here (an equal request takes its solution)
    repeats: list[tuple[int, int]] = []
    count: dict[int, int] = {}  # the solving request -> how many requests it answers
    for i, (specs, demands, rf, population, think_s) in enumerate(requests):
        key = _curve_key(specs, demands, rf, population, think_s)
        hit = _CURVE_CACHE.get(key)
        if hit is not None:
            _CURVE_CACHE.move_to_end(key)
            out[i] = hit
            continue
        solver = first.get(key)
        if solver is not None:
            repeats.append((i, solver))
            count[solver] += 1
            continue
        service, servers, copies, v_closed, _, is_queue = _queue_arrays(specs, demands, rf)
        q = np.flatnonzero(is_queue)
        if q.size == 0:
            out[i] = _curve(specs, demands, rf, population, think_s)
            continue
        first[key] = i
        count[i] = 1
        by_population.setdefault(population, []).append(
            (i, key, service, is_queue, _merged_classes(service[q], servers[q], copies[q], v_closed[q]),
             float(service[~is_queue].sum()), think_s))
    for population, items in by_population.items():
        # chosen as if every equal request were solved again (the two ways agree only to rounding)
        if not _batch_pays([len(it[4][0]) for it in items for _ in range(count[it[0]])]):
            for i, key, service, is_queue, (s, c, m, v, cols, weights), delay_s, think_s in items:
                X, Rq = closed_ramp(s, c, m, v, delay_s, think_s, population)
                value = _assemble(service, is_queue, X, Rq, cols, weights)
                _remember(key, value)
                out[i] = value
            continue
        # one network alone is summed over its classes in another order than two or more (rounding): an only
        # network that stands for several equal requests is solved beside a copy of itself
        batch = items if len(items) > 1 or count[items[0][0]] == 1 else [items[0], items[0]]
        X, R = _mva_batch([it[4] for it in batch], np.array([it[5] + it[6] for it in batch]), population)
        for b, (i, key, service, is_queue, merged, _d, _t) in enumerate(items):
            value = _assemble(service, is_queue, X[b], R[b][:, :len(merged[0])], merged[4], merged[5])
            _remember(key, value)
            out[i] = value
    for i, solver in repeats:
        out[i] = out[solver]
    return [value for value in out if value is not None]


_STEP_US_BATCH = 9.0
"""Measured cost of one population step of :func:`~models.queueing.general_service.closed_ramp_batch` for a few
networks, microseconds (a dozen numpy calls on small arrays, whatever their size); ``_STEP_US_NETWORK`` and
``_STEP_US_CLASS`` those of :func:`closed_ramp` per network and per queueing class (plain floats). Measured on a
2-core machine (2026); only the ratio matters, which chooses the faster of the two for a group of ramps."""
_STEP_US_NETWORK = 0.6
_STEP_US_CLASS = 0.11


def _batch_pays(classes: Sequence[int]) -> bool:
    """Whether ramps of these numbers of (merged) queueing classes, one population, solve faster together
    (:func:`~models.queueing.general_service.closed_ramp_batch`) than one by one (:func:`closed_ramp`)."""
    alone = sum(_STEP_US_NETWORK + _STEP_US_CLASS * k for k in classes)
    return alone > _STEP_US_BATCH


def _mva_batch(merged: Sequence[tuple], fixed_s: np.ndarray, population: int) -> tuple[np.ndarray, np.ndarray]:
    """B closed ramps of one population at once, networks of fewer queueing classes padded with classes of no
    work (service 0, servers 1, copies 1, v 1: they add nothing), solved by
    :func:`~models.queueing.general_service.closed_ramp_batch` (one recursion, with the closed network's two
    bounds, for the sizer and the failure states alike).

    Args:
        merged: per network, its queueing classes as :func:`_merged_classes` gives them ((G_b,) service seconds,
            servers, copies, variability factor, then the merge's columns and weights); fixed_s: (B,) each
            network's delays, Seidmann delay parts excluded, plus its think time, seconds; population: N >= 1.

    Returns:
        (X (B, N) jobs/s, R (B, N, G) seconds per merged class, Seidmann's delay part included; a network's first
        G_b columns are its classes).
    """
    B = len(merged)
    K = max(len(m[0]) for m in merged)
    s_pad, c_pad, m_pad, v_pad = np.zeros((B, K)), np.ones((B, K)), np.ones((B, K)), np.ones((B, K))
    for b, (s, c, m, v, _cols, _w) in enumerate(merged):
        k = len(s)
        s_pad[b, :k], c_pad[b, :k], m_pad[b, :k], v_pad[b, :k] = s, c, m, v
    return closed_ramp_batch(s_pad, c_pad, m_pad, v_pad, np.asarray(fixed_s, dtype=float), np.zeros(B), population,
                             per_station=True)


def _merged_classes(service: np.ndarray, servers: np.ndarray, copies: np.ndarray, v_closed: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None]:
    """A closed network's queueing classes with the identical ones merged and the idle ones left out, for the MVA
    recursion (its cost grows with the classes at every one of the N steps).

    ``w`` identical classes (the same service time, servers, copies and variability: both nodes' CPUs of an HA pair,
    both nodes' drives) are one class of service ``w s`` over ``w m`` copies: its residence obeys the recursion of
    the ``w`` classes' sum, R(n) = w a + X(n-1) (a / m R(n-1) + w a^2 (v - 1) / m), with the same bound m / a, so
    the throughput is that of the unmerged network (to rounding) and each member's residence is the class's / w.
    A class of no work (service 0) stays at 0 and is left out. The classes at the network's bound (within a
    relative 1e-9 of the least m / a) are never merged: the recursion puts the response time beyond the bound on
    the first of them alone, as the unmerged network does.

    Args:
        service, servers, copies, v_closed: (K,) the queueing classes (seconds, >= 1, >= 1, variability factor).

    Returns:
        (service, servers, copies, v_closed) of the G merged classes (in the order of their first member), then
        cols (K,): each class's merged column (-1: left out) and weights (G,): members per merged class; cols and
        weights are None (and the arrays the inputs) when nothing merges.
    """
    K = len(service)
    s_list, c_list, m_list, v_list = service.tolist(), servers.tolist(), copies.tolist(), v_closed.tolist()
    caps = [m / (s / c) if s > 0 else math.inf for s, c, m in zip(s_list, c_list, m_list)]
    bound = min(caps, default=math.inf) * (1.0 + 1e-9)
    first: dict[tuple[float, float, float, float], int] = {}
    members: list[int] = []
    leader: list[int] = []
    cols = [-1] * K
    for k in range(K):
        if s_list[k] == 0.0:
            continue
        key = (s_list[k], c_list[k], m_list[k], v_list[k])
        g = first.get(key) if caps[k] > bound else None
        if g is None:
            g = len(leader)
            leader.append(k)
            members.append(0)
            if caps[k] > bound:
                first[key] = g
        members[g] += 1
        cols[k] = g
    if len(leader) == K:
        return service, servers, copies, v_closed, None, None
    w = np.array(members, dtype=float)
    idx = np.array(leader, dtype=int)
    return service[idx] * w, servers[idx], copies[idx] * w, v_closed[idx], np.array(cols, dtype=int), w


def solve_jobs(jobs: Sequence[tuple[WorkloadPath, Mapping[str, float], _OpenSystem | None]], curve_points: int,
               slo_statistic: str = "mean", curve_tails: bool = True, bands: bool = True
               ) -> list[WorkloadPerformance]:
    """Many workloads' predictions at once, each as :func:`solve_workload` of it, with their closed ramps solved
    together (:func:`_solve_batch`): the normal state of a system's workloads, every failure state of them.

    Args:
        jobs: (path, the others' utilisation by station name (:meth:`SystemLoads.others_utilisation`), the open
            solution at the targets or None) per workload; curve_points: ramp points kept per curve;
        slo_statistic: what the SLOs bound, "mean" or "p99" (``models.performance.tail_latency``);
        curve_tails: give every curve point its p95 / p99 (False: None there, as the failure states' curves, which
        no view draws them for; the percentiles at the target and a p99 SLO's search are computed either way);
        bands: False leaves out the curves (empty), their uncertainty bands and the bands of the figures (None), and
        the percentiles at the target of a mean SLO, for callers that read only the figures themselves (saturation,
        max IOPS at the SLO, latency at the target: the same numbers either way).

    Returns:
        The predictions, in the order of ``jobs``.
    """
    with collector_paused():
        return _solve_jobs(jobs, curve_points, slo_statistic, curve_tails and bands, bands)


def _solve_jobs(jobs: Sequence[tuple[WorkloadPath, Mapping[str, float], _OpenSystem | None]], curve_points: int,
                slo_statistic: str = "mean", curve_tails: bool = True, bands: bool = True
                ) -> list[WorkloadPerformance]:
    """:func:`solve_jobs` itself."""
    return [wp for wp, _ in _drive(_job_steps(jobs, curve_points, slo_statistic, curve_tails), bands)]


def _job_steps(jobs: Sequence[tuple[WorkloadPath, Mapping[str, float], _OpenSystem | None]], curve_points: int,
               slo_statistic: str, curve_tails: bool) -> list[_Steps]:
    """The jobs' closed ramps solved together (:func:`_solve_batch`) and each job's :func:`_solve_steps`, not yet
    run."""
    requests = []
    inflations = []
    for path, util, _ in jobs:
        inflation = _background(path, (), util)
        inflations.append(inflation)
        rf = float(path.read_fraction)
        w = path.workload
        demands = _plain(_static(path.stations, rf))[0]  # each station's spec.demand(rf), the same floats
        requests.append((tuple(path.stations), tuple(d * f for d, f in zip(demands, inflation[0])),
                         rf, int(w.concurrency), float(w.think_time_ms / 1e3)))
    solved = _solve_batch(requests)
    return [_solve_steps(path, (), curve_points, open_result, None, util, ramp_xr, slo_statistic, curve_tails,
                         inflation)
            for (path, util, open_result), ramp_xr, inflation in zip(jobs, solved, inflations)]


def solve_job_groups(groups: Sequence[tuple[Sequence[tuple[WorkloadPath, Mapping[str, float], _OpenSystem | None]],
                                            int, bool]],
                     slo_statistic: str = "mean", bands: bool = True) -> list[list[WorkloadPerformance]]:
    """Several :func:`solve_jobs` calls (with ``bands``, True by default) in one pass: per group (jobs,
    curve_points, curve_tails), the predictions :func:`solve_jobs` gives that group alone, float for float, in the
    order of its jobs; a design's normal state and its failure states are solved so together
    (``models.performance.resilience.evaluate_with_states``), and the host-failure states of many sizer candidates
    (``bands`` False, as ``solve_jobs(..., bands=False)`` of each group: curves and bands left out;
    ``models.performance.resilience.evaluate_states_many``).

    Each group's closed ramps are solved as that call solves them (:func:`_solve_batch`, the groups in order, so a
    later group finds an earlier one's ramps in the ramp cache as it would after that call); the open-model
    searches and bands of every group are then answered together (:func:`_drive`), where the array operations
    of one group's rows give each row the same floats as they would alone: the groups whose rows are summed alike
    (widths, :func:`_row_width`, of one :func:`_sum_layout`) are answered in one call, others apart (the sum over a
    row's stations is taken in an order that depends on the width its rows are padded to)."""
    with collector_paused():
        steps: list[_Steps] = []
        labels: list[int] = []
        for g, (jobs, curve_points, curve_tails) in enumerate(groups):
            steps.extend(_job_steps(jobs, curve_points, slo_statistic, curve_tails and bands))
            labels.extend([g] * len(jobs))
        results = _drive(steps, bands, labels)
    out: list[list[WorkloadPerformance]] = []
    k = 0
    for jobs, _points, _tails in groups:
        out.append([wp for wp, _ in results[k:k + len(jobs)]])
        k += len(jobs)
    return out


def _curve(specs: tuple[StationSpec, ...], demands: tuple[float, ...], read_fraction: float, population: int,
           think_s: float) -> tuple[np.ndarray, np.ndarray]:
    """Closed ramp arrays (X (N,), R (N, S) residence per spec, seconds) for specs and demands, cached per
    scenario state: an unchanged workload path is not solved again (the GUI re-evaluates on every edit)."""
    key = _curve_key(specs, demands, read_fraction, population, think_s)
    hit = _CURVE_CACHE.get(key)
    if hit is not None:
        _CURVE_CACHE.move_to_end(key)
        return hit
    service, servers, copies, v_closed, _, is_queue = _queue_arrays(specs, demands, read_fraction)
    q = np.flatnonzero(is_queue)
    delay_s = float(service[~is_queue].sum())
    if q.size == 0:  # only delays: the latency is their sum at every population
        if delay_s + think_s <= 0.0:
            raise ValueError("every demand and the think time are zero")
        n = np.arange(1, population + 1, dtype=float)
        X = n / (delay_s + think_s)
        Rq = np.zeros((population, 0))
    else:
        s, c, m, v, cols, weights = _merged_classes(service[q], servers[q], copies[q], v_closed[q])
        X, Rq = closed_ramp(s, c, m, v, delay_s, think_s, population)
        value = _assemble(service, is_queue, X, Rq, cols, weights)
        _remember(key, value)
        return value
    value = _assemble(service, is_queue, X, Rq)
    _remember(key, value)
    return value


def ramp(specs: Sequence[StationSpec], read_fraction: float, population: int, think_time_s: float = 0.0,
         inflation: Sequence[float] | None = None, solved: tuple[np.ndarray, np.ndarray] | None = None) -> Ramp:
    """Solve the closed ramp N = 1 .. population for a list of station specs.

    Args:
        specs: the path's stations; read_fraction: 0..1; population: max outstanding I/Os (>= 1);
        think_time_s: per-I/O think time Z >= 0, seconds; inflation: per-spec demand multipliers (>= 1) from
        other workloads' load, or None; solved: (X (N,), R (N, S) seconds) of this very ramp when solved
        already (:func:`_solve_batch`), else it is solved here (or found in the ramp cache).

    Raises:
        ValueError: population < 1, or every demand and the think time are zero.
    """
    if population < 1:
        raise ValueError("population must be >= 1")
    specs = tuple(specs)
    st = _static(specs, float(read_fraction))
    # each station's demand x its multiplier, element by element (the products spec.demand(rf) * f)
    demands = (st.demand * np.asarray(inflation, dtype=float) if inflation is not None and len(inflation)
               else st.demand.copy())
    if solved is None:
        solved = _curve(specs, tuple(demands.tolist()), float(read_fraction), int(population), float(think_time_s))
    X = solved[0]
    population_n, storage_ms, host_ms, res_ms = _ramp_latencies(solved, st)
    return Ramp(
        population=population_n,
        iops=X,
        storage_ms=storage_ms,
        host_ms=host_ms,
        residence_ms=res_ms,
        specs=specs,
        demand_s=demands,
    )


_LATENCIES_BY_ID: dict[tuple[int, bytes, bytes], tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, ...]]] = {}
_LATENCIES_BY_ID_SIZE = 512


def _ramp_latencies(solved: tuple[np.ndarray, np.ndarray], st: _Static) -> tuple[np.ndarray, ...]:
    """A solved ramp's (population (N,), storage latency (N,) ms, host latency (N,) ms, each station's waited
    residence (N, S) ms) for a path's stations (``st``: their waited shares and storage side), read-only. Found once
    per (solved ramp, shares, sides) in a solve (:func:`_drive` empties the table when it starts and ends): the
    workloads of a design alike in every input of their ramp get the one solved ramp object (:func:`_solve_batch`,
    the ramp cache), and with it these arrays, the same floats, instead of the same products and sums again."""
    key = (id(solved), st.shares.tobytes(), st.storage.tobytes())
    hit = _LATENCIES_BY_ID.get(key)
    if hit is not None and hit[0] is solved:
        return hit[1]
    X, res = solved
    res_ms = res * 1e3 * st.shares  # asynchronous work loads a station but is not waited for
    value = (np.arange(1, len(X) + 1), res_ms[:, st.storage].sum(axis=1), res_ms.sum(axis=1), res_ms)
    for array in value:
        array.setflags(write=False)
    if len(_LATENCIES_BY_ID) >= _LATENCIES_BY_ID_SIZE:
        _LATENCIES_BY_ID.clear()
    _LATENCIES_BY_ID[key] = (solved, value)  # the ramp is kept, so that its id is not reused while here
    return value


def saturation_iops(specs: Sequence[StationSpec], read_fraction: float, inflation: Sequence[float] | None = None
                    ) -> tuple[float, int | None]:
    """Open-model saturation IOPS min_k c_k / D_k over queueing stations, and the bottleneck's index
    (asymptotic bound, QSP ch. 5). (inf, None) when no station queues."""
    inflation = inflation or [1.0] * len(specs)
    best, idx = math.inf, None
    for i, (spec, f) in enumerate(zip(specs, inflation)):
        if spec.delay:
            continue
        d = spec.demand(read_fraction) * f
        if d <= 0:
            continue
        cap = spec.capacity / d
        if cap < best:
            best, idx = cap, i
    return best, idx


def iops_at_latency(
    iops: Sequence[float] | np.ndarray, latency_ms: Sequence[float] | np.ndarray, limit_ms: float
) -> float | None:
    """The highest IOPS of a ramp whose latency is within ``limit_ms`` (linear interpolation between ramp
    points); None when even the first point exceeds it. Latency and IOPS both rise along a closed ramp (MVA
    monotonicity), so the first crossing is the answer."""
    x = np.asarray(iops, dtype=float)
    y = np.asarray(latency_ms, dtype=float)
    if len(x) == 0 or y[0] > limit_ms:
        return None
    above = np.nonzero(y > limit_ms)[0]
    if len(above) == 0:
        return float(x[-1])
    j = int(above[0])
    x0, x1, y0, y1 = x[j - 1], x[j], y[j - 1], y[j]
    if y1 == y0:
        return float(x0)
    return float(x0 + (x1 - x0) * (limit_ms - y0) / (y1 - y0))


def open_residence_ms(spec: StationSpec, demand_s: float, iops: float, read_fraction: float,
                      background_utilisation: float = 0.0) -> float | None:
    """One station's open-model residence time per I/O at ``iops`` (ms), as the ramp models it: a delay
    contributes its demand; a queueing station is ``multiplicity`` separate queues of ``servers`` servers each,
    Allen-Cunneen's G/G/c waiting time on Seidmann's split (:func:`models.queueing.general_service
    .open_residence_s`). ``background_utilisation`` is the per-queue utilisation other workloads add. None at
    or past saturation."""
    if spec.delay:
        return demand_s * 1e3
    service, servers, copies, _, v_open, _ = _queue_arrays((spec,), (demand_s,), read_fraction)
    u = iops * demand_s / spec.capacity + background_utilisation
    value = float(open_residence_s(service, servers, copies, v_open, np.array([u]), check=False)[0])
    return value * 1e3 if math.isfinite(value) else None


def _open_latency_many(specs: Sequence[StationSpec], demands: Sequence[float] | np.ndarray, iops: np.ndarray,
                       read_fraction: float, host_side: bool = False) -> np.ndarray:
    """Storage-side open-model latency (ms) at each of ``iops`` (array), vectorised over the IOPS and the
    stations; each station's residence times its waited-for share (``StationSpec.latency_share``); +inf where a
    storage-side queueing station is at or past saturation (internal: callers turn it into None / a cut
    curve). ``host_side``: every station counts (the latency the hosts see), not only the storage side."""
    st = _static(specs if isinstance(specs, tuple) else tuple(specs), float(read_fraction))
    return _open_latency_st(st, np.asarray(demands, dtype=float), np.asarray(iops, dtype=float), host_side)


def _open_latency_st(st: _Static, demands: np.ndarray, iops: np.ndarray, host_side: bool) -> np.ndarray:
    """:func:`_open_latency_many` on a path's :class:`_Static` arrays; ``demands`` (S,) gives (P,) latencies at the
    P ``iops``, (D, S) (several demand vectors at once: the bands' edges) gives (D, P), at the same (P,) ``iops``
    or at each row's own (D, P).

    :func:`~models.queueing.general_service.open_residence_s`'s residence a (1 + U (v - 1)) / (1 - U) + s - a of a
    queueing station is, rearranged, s + a v U / (1 - U): the stations' s x share is summed once per row and only
    a v share x U / (1 - U) is computed at every IOPS (the same value to rounding, in half the array operations);
    a station at U >= 1 makes the latency +inf as there."""
    side = st.side(host_side)
    if not side[0].any():
        return np.zeros(np.broadcast_shapes(demands.shape[:-1] + (1,), iops.shape))
    q_full, d_full, q_servers, q_cap, q_v, q_shares, d_shares, all_full, all_shares = st.split(host_side)
    dq = demands[..., q_full]
    weight = dq / q_servers * q_v * q_shares
    u = iops[..., None] * (dq / q_cap)[..., None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = u / (1.0 - u)
        over = u >= 1.0
        if over.any():
            t[over] = np.inf
        t *= weight[..., None, :]
        total = np.add.reduce(t, axis=-1)
        total += np.add.reduce(demands[..., all_full] * all_shares, axis=-1)[..., None]
        total *= 1e3
    total[~np.isfinite(total)] = np.inf
    return total


def open_storage_latency_ms(specs: Sequence[StationSpec], demands: Sequence[float] | np.ndarray, iops: float,
                            read_fraction: float) -> float | None:
    """Storage-side open-model latency at ``iops`` (ms), the same station model as the ramp (separate queues,
    Seidmann's split of multi-server queues, Allen-Cunneen's variability factor; see
    :mod:`models.queueing.general_service`); each station counts its waited-for share of its demand
    (``StationSpec.latency_share`` at ``read_fraction``). None at or past saturation."""
    value = float(_open_latency_many(specs, demands, np.array([iops], dtype=float), read_fraction)[0])
    return value if math.isfinite(value) else None


def open_latency_ms(path: WorkloadPath, iops: float, host_side: bool = False) -> float | None:
    """A single workload's open-model latency (ms) at ``iops`` on its own path (no other workload), storage
    side or, with ``host_side``, as the hosts see it: the figure ``evaluate_performance`` reports as
    ``latency_at_target_ms`` / ``host_latency_at_target_ms`` for a scenario of that one workload, without its
    closed ramp and bands (the calibration evaluates it for every point of a measured ramp). None at or past
    saturation."""
    rf = path.read_fraction
    demands = [spec.demand(rf) for spec in path.stations]
    value = float(_open_latency_many(path.stations, demands, np.array([iops], dtype=float), rf, host_side)[0])
    return value if math.isfinite(value) else None


def open_shape_ms(path: WorkloadPath, shares: Sequence[float], host_side: bool = False
                  ) -> tuple[float, dict[float, float | None]]:
    """A single workload's open-model saturation (:func:`saturation_iops`, operations per second; inf when no
    station queues) and its latency (ms, :func:`open_latency_ms`) at each of ``shares`` x that saturation (None
    where saturated or unbounded): the curve's shape as the calibration fits a published ramp's and the ramp
    checks compare it (``models.validation.ramp_cases``)."""
    sat, _ = saturation_iops(path.stations, path.read_fraction)
    if not math.isfinite(sat) or sat <= 0:
        return sat, {share: None for share in shares}
    return sat, {share: open_latency_ms(path, share * sat, host_side) for share in shares}


OPEN_SEARCH_GRID = 64
"""Points per refinement round of :func:`open_iops_at_latency` (4 rounds: relative precision ~1e-7)."""


def open_iops_at_latency(specs: Sequence[StationSpec], demands: Sequence[float] | np.ndarray, limit_ms: float,
                         low_iops: float, saturation: float, read_fraction: float, rounds: int = 4) -> float | None:
    """The open-model IOPS in [low_iops, saturation) whose storage latency equals ``limit_ms`` (the latency
    rises monotonically with load, so a grid search refined around the crossing converges; vectorised). Used
    when a closed ramp ends inside the SLO: the system can take more load than the ramp's outstanding I/Os
    drive, up to where the SLO is reached. ``rounds`` of :data:`OPEN_SEARCH_GRID` points each: 4 give a
    relative precision of about 1e-7, 2 about 2.5e-4 (enough for a band's edge)."""
    if not math.isfinite(saturation) or saturation <= low_iops:
        return None
    st = _static(specs if isinstance(specs, tuple) else tuple(specs), float(read_fraction))
    if limit_ms == limit_ms:  # not NaN (the grid search below fails on a NaN limit, as it always did)
        found = _open_search_floats(st, np.asarray(demands, dtype=float), limit_ms, low_iops, saturation, rounds)
        if found is not _NOT_SMALL:
            return found  # type: ignore[return-value]
    latency = _open_latency_one(st, np.asarray(demands, dtype=float))
    with np.errstate(divide="ignore", invalid="ignore"):  # entered once for the search's latencies
        lat = float(latency(np.array([low_iops], dtype=float))[0])  # open_storage_latency_ms, inf for None
        if not math.isfinite(lat) or lat > limit_ms:
            return None
        lo, hi = low_iops, saturation
        for _ in range(rounds):
            grid = _grid(np.array([lo]), np.array([hi]))[0]
            ok = latency(grid) <= limit_ms
            # grid[0] = lo is within the limit and grid[-1] = hi is not (saturation, or a point past the limit)
            j = min(int(np.nonzero(ok)[0][-1]), OPEN_SEARCH_GRID - 1)
            lo, hi = float(grid[j]), float(grid[j + 1])
            if hi - lo <= 1e-6 * hi:
                break
    return lo


_NOT_SMALL = object()
""":func:`_open_search_floats`'s answer for a network it leaves to the vectorised search."""
SMALL_OPEN_QUEUES = 8
"""Below this many queueing stations numpy sums a point's stations left to right (a reduction of fewer than 8
values is a plain loop; from 8 on it sums pairwise), so :func:`_open_search_floats` can add them in plain floats."""


def _open_search_floats(st: _Static, demands: np.ndarray, limit_ms: float, low_iops: float, saturation: float,
                        rounds: int) -> float | None | object:
    """:func:`open_iops_at_latency`'s search in plain floats, the same result to the bit, for a network of fewer
    than :data:`SMALL_OPEN_QUEUES` queueing stations on the storage side (else :data:`_NOT_SMALL`).

    Each point's latency is :func:`_open_latency_floats`'s. It never falls with the IOPS (each operation is
    monotonic in its rounding), so the grid's "within the limit" is a prefix and its last point is found by
    bisection: 6 points per round of :data:`OPEN_SEARCH_GRID` instead of all 65, each a grid point computed as
    :func:`_grid` does (i x step + lo, i / 64 x delta + lo when the step is zero, the last point hi)."""
    latency = _open_latency_floats(st, demands)
    if latency is None:
        return _NOT_SMALL
    if latency(low_iops) > limit_ms:
        return None
    lo, hi = low_iops, saturation
    steps = OPEN_SEARCH_GRID
    for _ in range(rounds):
        delta = hi - lo
        step = delta / steps
        zero = step == 0

        def point(i: int, lo: float = lo, hi: float = hi, step: float = step, delta: float = delta,
                  zero: bool = zero) -> float:
            if i == steps:
                return hi
            return (i / steps) * delta + lo if zero else float(i) * step + lo

        good, bad = 0, steps  # point 0 (lo) is within the limit; point 64 is taken as not (j <= 63 as there)
        while bad - good > 1:
            mid = (good + bad) // 2
            if latency(point(mid)) <= limit_ms:
                good = mid
            else:
                bad = mid
        lo, hi = point(good), point(good + 1)
        if hi - lo <= 1e-6 * hi:
            break
    return lo


def _open_latency_floats(st: _Static, demands: np.ndarray) -> Callable[[float], float] | None:
    """:func:`_open_latency_one` at one IOPS in plain floats, the same float: the same operations on the same values
    in the same order (u = IOPS x demand / capacity, u / (1 - u) x weight per station, summed left to right as numpy
    sums fewer than 8 values, + the fixed part, x 1e3; +inf where a station is at u >= 1 or the sum is not finite).
    None (use the arrays) with :data:`SMALL_OPEN_QUEUES` queueing stations or more on the storage side, none at all,
    or a negative or NaN ratio or weight (the search relies on the latency never falling with the IOPS)."""
    if not st.side(False)[0].any():
        return None
    q_full, _d, q_servers, q_cap, q_v, q_shares, _ds, all_full, all_shares = st.split(False)
    if len(q_full) >= SMALL_OPEN_QUEUES:
        return None
    dq = demands[q_full]
    ratios, weights = (dq / q_cap).tolist(), (dq / q_servers * q_v * q_shares).tolist()
    if not all(r >= 0.0 for r in ratios) or not all(w >= 0.0 for w in weights):
        return None
    pairs = list(zip(ratios, weights))
    fixed = float(np.add.reduce(demands[all_full] * all_shares))
    inf = math.inf

    def latency(x: float) -> float:
        total = 0.0
        first = True
        for ratio, weight in pairs:
            u = x * ratio
            if u >= 1.0:
                return inf
            t = u / (1.0 - u) * weight
            if first:
                total, first = t, False
            else:
                total += t
        total = (total + fixed) * 1e3
        return total if math.isfinite(total) else inf

    return latency


def _open_latency_one(st: _Static, demands: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """:func:`_open_latency_st` of one demand vector ``demands`` (S,) on the storage side, as a function of the
    (P,) IOPS, the same floats (the same operations on the same values): what does not depend on the IOPS (the
    queueing stations' demands, weights and utilisation per IOPS, the stations' summed demand) is computed once, for
    :func:`open_iops_at_latency`'s five calls. The caller enters ``np.errstate(divide="ignore",
    invalid="ignore")``."""
    if not st.side(False)[0].any():
        return lambda iops: np.zeros(np.broadcast_shapes((1,), iops.shape))
    q_full, _d, q_servers, q_cap, q_v, q_shares, _ds, all_full, all_shares = st.split(False)
    dq = demands[..., q_full]
    weight = (dq / q_servers * q_v * q_shares)[..., None, :]
    ratio = (dq / q_cap)[..., None, :]
    fixed = np.add.reduce(demands[..., all_full] * all_shares, axis=-1)[..., None]

    def latency(iops: np.ndarray) -> np.ndarray:
        u = iops[..., None] * ratio
        t = u / (1.0 - u)
        over = u >= 1.0
        if over.any():
            t[over] = np.inf
        t *= weight
        total = np.add.reduce(t, axis=-1)
        total += fixed
        total *= 1e3
        total[~np.isfinite(total)] = np.inf
        return total

    return latency


_GRID_STEPS = np.arange(OPEN_SEARCH_GRID + 1, dtype=float)


def _grid(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """``np.linspace(lo, hi, OPEN_SEARCH_GRID + 1, axis=-1)`` for (R,) ends, (R, OPEN_SEARCH_GRID + 1): the same
    arithmetic (i x step + lo, the last point hi; i / div x delta + lo when a step is zero), without its
    per-call overhead (the searches call it a dozen times per workload)."""
    delta = hi - lo
    step = delta / OPEN_SEARCH_GRID
    if (step == 0).any():
        grid = (_GRID_STEPS / OPEN_SEARCH_GRID)[None, :] * delta[:, None] + lo[:, None]
    else:
        grid = _GRID_STEPS[None, :] * step[:, None] + lo[:, None]
    grid[:, -1] = hi
    return grid


OPEN_CURVE_POINTS = 60
"""Points of the open-model continuation of a curve (denser towards saturation)."""
OPEN_CURVE_TAIL_POINTS = 9
"""Extra continuation points ever closer to saturation (gaps / 10 each), used until the latency passes the
chart's limit; they make the curve reach the SLO even where it turns up only just before saturation."""


def open_continuation(specs: Sequence[StationSpec], demands: Sequence[float] | np.ndarray, start_iops: float,
                      saturation: float,
                      block_bytes: float, limit_ms: float, read_fraction: float) -> tuple[CurvePoint, ...]:
    """The open model's storage latency from ``start_iops`` towards ``saturation`` (exclusive), spaced
    quadratically closer near saturation, stopping once latency passes ``limit_ms``; () when the ramp already
    reached 97% of saturation or saturation is unbounded."""
    if not math.isfinite(saturation) or start_iops >= 0.97 * saturation:
        return ()
    t = np.linspace(0.0, 1.0, OPEN_CURVE_POINTS, endpoint=False)[1:]
    iops = saturation - (saturation - start_iops) * (1.0 - t) ** 2
    # where the bottleneck is a small part of the latency (big blocks on fast links) the curve only turns up
    # in the last sliver before saturation: carry on there, each gap to saturation a tenth of the previous
    last_gap = saturation - iops[-1]
    iops = np.concatenate([iops, saturation - last_gap * 0.1 ** np.arange(1, OPEN_CURVE_TAIL_POINTS + 1)])
    latency = _open_latency_many(specs, demands, iops, read_fraction)
    points = []
    for x, y in zip(iops.tolist(), latency.tolist()):
        if not math.isfinite(y):
            break
        points.append(CurvePoint(iops=x, latency_ms=y, mbps=x * block_bytes / 1e6))
        if y > limit_ms:
            break
    return tuple(points)


def _continuation_arrays(specs: Sequence[StationSpec], demands: Sequence[float] | np.ndarray, start_iops: float,
                         saturation: float, limit_ms: float, read_fraction: float,
                         probes: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The IOPS and latency (ms) of :func:`open_continuation`'s points, as arrays (the engine makes its points
    once, with their bands), and the open model's latency (ms, +inf where saturated) at each of ``probes`` (IOPS;
    the curve's shape reads light load and 50% / 80% of saturation), in the same vectorised pass. One path's: the
    engine computes every job's at once (:func:`_continuations`, the same floats)."""
    extra = np.empty(0) if probes is None else probes
    if not math.isfinite(saturation) or start_iops >= 0.97 * saturation:
        at = _open_latency_many(specs, demands, extra, read_fraction) if len(extra) else np.empty(0)
        return np.empty(0), np.empty(0), at
    iops = saturation - (saturation - start_iops) * _CONTINUATION_STEPS
    last_gap = saturation - iops[-1]
    iops = np.concatenate([iops, saturation - last_gap * _CONTINUATION_TAIL, extra])
    latency = _open_latency_many(specs, demands, iops, read_fraction)
    at = latency[len(iops) - len(extra):]
    iops, latency = iops[:len(iops) - len(extra)], latency[:len(iops) - len(extra)]
    finite = np.isfinite(latency)
    end = int(np.argmin(finite)) if not finite.all() else len(latency)  # up to the first saturated point
    over = np.flatnonzero(latency[:end] > limit_ms)
    if over.size:
        end = int(over[0]) + 1  # the first point past the limit is kept
    return iops[:end], latency[:end], at


def _continuations(requests: Sequence[tuple]) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """:func:`_continuation_arrays` of many paths at once: per request (stations, demands (S,) seconds, the ramp's
    last IOPS, the saturation, the limit ms, the read fraction, the probes' IOPS), the same three arrays, float for
    float. The open model's latencies of the paths with as many storage-side queueing stations are computed
    together (:class:`_Rows`, whose arithmetic is :func:`_open_latency_st`'s; rows of one width need no padding,
    so each row's stations are summed as alone), instead of a dozen array operations per path."""
    points: list[np.ndarray] = []
    statics: list[_Static] = []
    for specs, _demands, start, saturation, _limit, rf, probes in requests:
        statics.append(_static(specs if isinstance(specs, tuple) else tuple(specs), float(rf)))
        if not math.isfinite(saturation) or start >= 0.97 * saturation:
            points.append(probes)
            continue
        iops = saturation - (saturation - start) * _CONTINUATION_STEPS
        last_gap = saturation - iops[-1]
        points.append(np.concatenate([iops, saturation - last_gap * _CONTINUATION_TAIL, probes]))
    by_width: dict[int, list[int]] = {}
    for k, st in enumerate(statics):
        by_width.setdefault(len(st.split(False)[0]), []).append(k)
    latencies: list[np.ndarray] = [np.empty(0)] * len(requests)
    for members in by_width.values():
        asked = [k for k in members if len(points[k])]
        if not asked:
            continue
        rows = _Rows([(statics[k], np.asarray(requests[k][1], dtype=float)[None, :]) for k in asked])
        got = rows.latency(np.arange(len(asked)), [points[k] for k in asked])
        for n, k in enumerate(asked):
            latencies[k] = got[n, :len(points[k])]
    out = []
    for (_specs, _d, start, saturation, limit_ms, _rf, probes), iops, latency in zip(requests, points, latencies):
        extra = len(probes)
        if not math.isfinite(saturation) or start >= 0.97 * saturation:
            out.append((np.empty(0), np.empty(0), latency if extra else np.empty(0)))
            continue
        at = latency[len(iops) - extra:]
        iops, latency = iops[:len(iops) - extra], latency[:len(iops) - extra]
        finite = np.isfinite(latency)
        end = int(np.argmin(finite)) if not finite.all() else len(latency)  # up to the first saturated point
        over = np.flatnonzero(latency[:end] > limit_ms)
        if over.size:
            end = int(over[0]) + 1  # the first point past the limit is kept
        out.append((iops[:end], latency[:end], at))
    return out


_CONTINUATION_STEPS = (1.0 - np.linspace(0.0, 1.0, OPEN_CURVE_POINTS, endpoint=False)[1:]) ** 2
"""The continuation's spacing, (1 - t)^2 for t in [0, 1) (:func:`open_continuation`), computed once."""
_CONTINUATION_TAIL = 0.1 ** np.arange(1, OPEN_CURVE_TAIL_POINTS + 1)
"""The continuation's last gaps to saturation, 1/10 of the previous each (:func:`open_continuation`)."""


def latency_at_iops(
    iops: Sequence[float] | np.ndarray, latency_ms: Sequence[float] | np.ndarray, target: float
) -> float | None:
    """Latency of a ramp at ``target`` IOPS (linear interpolation); None beyond the ramp's last point."""
    x = np.asarray(iops, dtype=float)
    y = np.asarray(latency_ms, dtype=float)
    if len(x) == 0 or target > x[-1] * (1 + 1e-9):
        return None
    if target <= x[0]:
        return float(y[0])
    return float(np.interp(target, x, y))


@lru_cache(maxsize=256)
def thin_indices(n: int, points: int) -> np.ndarray:
    """About ``points`` indices into a ramp of n points, spread geometrically over N (dense where the curve
    bends at low N, sparser on the flat saturated tail), always including the first and the last.

    Cached per (n, points): the returned array is read-only."""
    idx = _thin_indices(n, points)
    idx.setflags(write=False)
    return idx


def _thin_indices(n: int, points: int) -> np.ndarray:
    if n <= points:
        return np.arange(n)
    geo = sorted_unique(np.round(np.geomspace(1, n, points)).astype(int) - 1)
    lin = sorted_unique(np.round(np.linspace(0, n - 1, max(points // 4, 2))).astype(int))
    idx = sorted_unique(np.concatenate([geo, lin, [0, n - 1]]))
    if len(idx) > points:
        keep = sorted_unique(np.round(np.linspace(0, len(idx) - 1, points)).astype(int))
        idx = idx[keep]
    if idx[-1] != n - 1:
        idx = np.append(idx, n - 1)
    return idx


def target_rate(workload: Workload) -> float | None:
    """The workload's target IOPS: ``target_iops``, else ``target_mbps`` / block size; None without either."""
    if workload.target_iops:
        return float(workload.target_iops)
    if workload.target_mbps:
        return float(workload.target_mbps) * 1e6 / (workload.block_kib * KIB)
    return None


def _per_op_latency(specs: Sequence[StationSpec], factors: Sequence[float], read: bool) -> float:
    total = 0.0
    for spec, f in zip(specs, factors):
        if not spec.storage_side:
            continue
        total += (spec.read_s if read else spec.write_s) * f
    return total * 1e3


def _finite(x: float | None) -> float | None:
    if x is None:
        return None
    x = float(x)
    return x if math.isfinite(x) else None


def _others_utilisation(others: Sequence[tuple[WorkloadPath, float]]) -> dict[str, float]:
    """Per-queue utilisation each station name gets from ``others`` (path, IOPS) at their rates: the sum of
    rate x demand / capacity over their queueing stations of that name."""
    util: dict[str, float] = {}
    for other, rate in others:
        rf = other.read_fraction
        for spec in other.stations:
            if spec.delay:
                continue
            util[spec.name] = util.get(spec.name, 0.0) + rate * spec.demand(rf) / spec.capacity
    return util


def _background(path: WorkloadPath, others: Sequence[tuple[WorkloadPath, float]],
                util: Mapping[str, float] | None = None) -> tuple[list[float], list[str]]:
    """Demand inflation of each of ``path``'s stations from the other workloads' target load (``util``: their
    utilisation by station name, :func:`_others_utilisation` of ``others``, when already known)."""
    if util is None:
        util = _others_utilisation(others)
    factors, notes = [], []
    for spec in path.stations:
        u = util.get(spec.name, 0.0) if not spec.delay else 0.0
        if u >= MAX_BACKGROUND_UTILISATION:
            notes.append(f"{spec.name} is saturated by the other workloads on {path.system}")
            u = MAX_BACKGROUND_UTILISATION
        # Seidmann's split, as the open model at the targets reads it (open_residence_s): of a c-server station's
        # service only the queue part (1/c of it) waits behind the others' load; the rest is a delay. Inflating the
        # whole service by 1 / (1 - u) drew a drive rebuild's curve (an SSD of 90 servers 30% busy rebuilding) at
        # 0.171 ms at the target where the state's own latency there, the Bad day line's, is 0.144 ms (REVIEW54 #3)
        c = max(float(spec.servers), 1.0)
        factors.append(1.0 / (c * (1.0 - u)) + (1.0 - 1.0 / c))
    return factors, notes


class SystemLoads:
    """The target load of one system's workloads, summed once so that each workload's share of the others' load
    is found in time linear in the workloads (the sum of all less its own, instead of a sum over the others for
    each one: quadratic).

    Built from the system's paths (scenario order) and their target rates (IOPS by workload id); paths without a
    rate load nothing. Two sums per station name: the utilisation of the queueing stations of that name (rate x
    demand / each path's own capacity, :func:`_others_utilisation`'s) and the open model's numerator (rate x
    demand over every station of that name, divided by the capacity of the first path that has it, as
    :func:`_open_system` reads it). Equal to the sums over the others to rounding (a relative 1e-15).
    """

    def __init__(self, paths: Sequence[WorkloadPath], rates: Mapping[str, float]) -> None:
        self.rates = dict(rates)
        self.util: dict[str, float] = {}
        self.util_count: dict[str, int] = {}
        self.work: dict[str, float] = {}
        self.holders: dict[str, list[tuple[WorkloadPath, StationSpec]]] = {}  # the first two rated paths
        self.own_util: dict[int, dict[str, float]] = {}
        self.own_work: dict[int, dict[str, float]] = {}
        self._paths = tuple(paths)
        for p in paths:
            rate = self.rates.get(p.workload.id)
            if rate is None:
                continue
            mine: dict[str, float] = {}
            work: dict[str, float] = {}
            first: dict[str, StationSpec] = {}
            # each station's demand and capacity as the path's arrays hold them (the same floats as spec.demand(rf)
            # and spec.capacity: an integer divides as its float)
            demands, capacities, queues = _plain(_static(p.stations, float(p.read_fraction)))
            for spec, d, cap, queue in zip(p.stations, demands, capacities, queues):
                name = spec.name
                work[name] = rate * d  # the open model keeps one demand per name and class: the last
                if name not in first:
                    first[name] = spec
                if queue:
                    mine[name] = mine.get(name, 0.0) + rate * d / cap
            for name, u in mine.items():
                self.util[name] = self.util.get(name, 0.0) + u
                self.util_count[name] = self.util_count.get(name, 0) + 1
            for name, x in work.items():
                self.work[name] = self.work.get(name, 0.0) + x
                holders = self.holders.setdefault(name, [])
                if len(holders) < 2:
                    holders.append((p, first[name]))
            self.own_util[id(p)] = mine
            self.own_work[id(p)] = work
        self.saturated = {name for name, x in self.work.items()
                          if not (spec := self.holders[name][0][1]).delay and x / spec.capacity >= 1.0}
        """Names the rated paths together load to saturation in the open model."""

    def others_utilisation(self, path: WorkloadPath, names: Sequence[str]) -> dict[str, float]:
        """The queueing utilisation the system's other rated workloads (not ``path``, one of the paths given)
        put on each of ``names``, as :func:`_others_utilisation` of them (names they do not load are absent)."""
        mine = self.own_util.get(id(path), {})
        out: dict[str, float] = {}
        for name in names:
            total = self.util.get(name)
            if total is None:
                continue
            own = mine.get(name)
            if own is None:
                out[name] = total
            elif self.util_count[name] > 1:
                out[name] = total - own
        return out

    def _other_holder(self, path: WorkloadPath, name: str) -> StationSpec | None:
        """The station ``name`` of the first rated path other than ``path`` that has it (the open model's
        description of it when ``path``'s own is not there), None when no other path has it."""
        return next((spec for p, spec in self.holders.get(name, ()) if p is not path), None)

    def _others_work(self, path: WorkloadPath, name: str) -> float:
        """The open model's numerator of ``name`` from the rated paths other than ``path``."""
        total = self.work.get(name)
        if total is None:
            return 0.0
        own = self.own_work.get(id(path), {}).get(name)
        if own is None:
            return total
        return total - own if len(self.holders[name]) > 1 else 0.0

    def open_for(self, path: WorkloadPath, degraded: WorkloadPath,
                 extra: Sequence[tuple[WorkloadPath, float]] = ()) -> _OpenSystem | None:
        """The open model of ``degraded`` (``path`` in a failure state, at ``path``'s target) with the system's
        other rated workloads at theirs and ``extra`` (background pseudo-paths, rate) added: what
        :func:`_open_system` of them gives for ``degraded``'s workload (its class, the utilisation of its
        stations and whether every station of the system is stable); other classes are left out. None when
        ``path``'s workload has no rate (the engine reads no open solution for it)."""
        rate = self.rates.get(path.workload.id)
        if rate is None:
            return None
        names = [spec.name for spec in degraded.stations]
        if len(set(names)) < len(names):  # one name twice: the general model (it keeps one demand per name)
            others = [(h, r) for h, r in self._rated_others(path)]
            rates = {o.workload.id: r for o, r in [*others, *extra]}
            rates[degraded.workload.id] = rate
            return _open_system([degraded, *(o for o, _ in others), *(o for o, _ in extra)], rates)
        rf = degraded.read_fraction
        st = _static(degraded.stations, float(rf))
        d_list = _plain(st)[0]  # each station's spec.demand(rf)
        meta: dict[str, StationSpec] = {spec.name: spec for spec in degraded.stations}
        # rate x demand plus the others' numerator of each name (:meth:`_others_work`, written out: the same sums)
        work, holders = self.work, self.holders
        own_work = self.own_work.get(id(path), {})
        loads: dict[str, float] = {}
        for spec, d in zip(degraded.stations, d_list):
            name = spec.name
            total = work.get(name)
            if total is None:
                theirs = 0.0
            else:
                own_part = own_work.get(name)
                theirs = total if own_part is None else total - own_part if len(holders[name]) > 1 else 0.0
            loads[name] = rate * d + theirs
        for other, r in extra:
            orf = other.read_fraction
            seen: dict[str, float] = {}
            for spec in other.stations:
                seen[spec.name] = r * spec.demand(orf)
                if spec.name not in meta:
                    meta[spec.name] = self._other_holder(path, spec.name) or spec
                    loads[spec.name] = self._others_work(path, spec.name)
            for name, x in seen.items():
                loads[name] += x
        stable = True
        utilisation: dict[str, float] = {}
        for name, x in loads.items():
            u_name = 0.0 if meta[name].delay else x / meta[name].capacity
            utilisation[name] = u_name
            stable &= u_name < 1.0
        own = self.own_work.get(id(path), {})
        if stable and any(name not in loads and name not in own for name in self.saturated):
            stable = False  # a station only the others load, saturated by them
        if stable:
            for name in own:  # ``path``'s stations the degraded path lost or kept: the others' load on them
                if name in loads or (holder := self._other_holder(path, name)) is None or holder.delay:
                    continue
                if self._others_work(path, name) / holder.capacity >= 1.0:
                    stable = False
                    break
        res = _open_residences(d_list, *_open_plain(st), [utilisation[name] for name in names])
        stations: dict[str, _OpenStation] = {}
        response: float | None = 0.0
        wid = degraded.workload.id
        isfinite, new, setattr_ = math.isfinite, object.__new__, object.__setattr__
        for k, spec in enumerate(degraded.stations):
            value = d_list[k] * 1e3 if spec.delay else res[k]
            if not spec.delay:
                value = value * 1e3 if isfinite(value) else math.inf
            res_s = value / 1e3 if isfinite(value) else None
            # _open_station(utilisation, {wid: _open_class_station(res_s)}), filled in here (one per station of
            # every failure state)
            per_class = new(_OpenClassStation)
            setattr_(per_class, "residence_time_s", res_s)
            station = new(_OpenStation)
            setattr_(station, "utilization", utilisation[spec.name])
            setattr_(station, "per_class", {wid: per_class})
            stations[spec.name] = station
            response = None if res_s is None or response is None else response + res_s
        return _OpenSystem(stable, {wid: _OpenClass(response)}, stations)

    def _rated_others(self, path: WorkloadPath) -> list[tuple[WorkloadPath, float]]:
        """Every rated path but ``path``, with its rate (the general model's fallback only)."""
        return [(p, self.rates[p.workload.id]) for p in self._paths if p is not path
                and p.workload.id in self.rates]


@dataclass(frozen=True, slots=True)
class _OpenClassStation:
    """One workload's share of an open-model station: its residence time per I/O, seconds (None when the
    station is saturated)."""

    residence_time_s: float | None


@dataclass(frozen=True, slots=True)
class _OpenStation:
    """One station of the open model at the targets: per-queue utilisation (all workloads) and per workload."""

    utilization: float
    per_class: dict[str, _OpenClassStation]


@dataclass(frozen=True)
class _OpenClass:
    """One workload's open-model response time over all its stations, seconds (None when one saturates)."""

    response_time_s: float | None


def _open_station(utilization: float, per_class: dict[str, _OpenClassStation]) -> _OpenStation:
    """``_OpenStation(utilization, per_class)`` filled in directly (one per station of every workload of every
    failure state: the frozen ``__init__`` cost more than the rest of building it)."""
    out = object.__new__(_OpenStation)
    object.__setattr__(out, "utilization", utilization)
    object.__setattr__(out, "per_class", per_class)
    return out


def _open_class_station(residence_time_s: float | None) -> _OpenClassStation:
    """``_OpenClassStation(residence_time_s)`` filled in directly (as :func:`_open_station`)."""
    out = object.__new__(_OpenClassStation)
    object.__setattr__(out, "residence_time_s", residence_time_s)
    return out


@dataclass(frozen=True)
class _OpenSystem:
    """The open model of one system's workloads at their target rates (see :func:`_open_system`)."""

    stable: bool
    classes: dict[str, _OpenClass]
    stations: dict[str, _OpenStation]


def _open_system(paths: Sequence[WorkloadPath], rates: dict[str, float]) -> _OpenSystem | None:
    """The open multi-class model of one system's workloads at their target rates (IOPS by workload id).

    Each station's per-queue utilisation sums every workload's rate x demand / capacity (QSP ch. 7, the
    multi-class open model); each workload's residence there is the single-class formula of the ramp at that
    utilisation with its own demand and its own mix's variability (:func:`open_residence_ms`): exact for
    exponential service (product form, QSP ch. 7), Allen-Cunneen's approximation otherwise. None when no
    workload has a rate.

    A workload's variability is that of its own station record (its read and write service times,
    ``StationSpec.service_scv``); the station's capacity is the first path's (one system's paths share it; a
    failure state's path comes first, ``solve_with_targets``). With the first path's record for every workload, a
    workload's latency at its target depended on the order of the paths (a failure state that changes none of its
    storage stations gave another latency than normal operation)."""
    demand: dict[str, dict[str, tuple[float, float, StationSpec]]] = {}
    meta: dict[str, StationSpec] = {}
    path_of: dict[str, WorkloadPath] = {}
    for p in paths:
        if p.workload.id not in rates:
            continue
        path_of[p.workload.id] = p
        rf = p.read_fraction
        for spec in p.stations:
            demand.setdefault(spec.name, {})[p.workload.id] = (spec.demand(rf), rf, spec)
            meta.setdefault(spec.name, spec)
    if not demand:
        return None
    stations: dict[str, _OpenStation] = {}
    response: dict[str, float | None] = {wid: 0.0 for wid in rates}
    stable = True
    utilisation: dict[str, float] = {}
    names_of: dict[str, list[str]] = {}
    for name, per in demand.items():
        spec = meta[name]
        u = 0.0 if spec.delay else sum(rates[w] * d / spec.capacity for w, (d, _, _) in per.items())
        stable &= u < 1.0
        utilisation[name] = u
        for w in per:
            names_of.setdefault(w, []).append(name)
    # each workload's residence at every station it visits, in one vectorised call per workload (the formula of
    # open_residence_ms, element by element, on the workload's own station record: docstring)
    # (every workload's stations in one array: the formula is element by element, so the same floats as one call
    # per workload, in a handful of array operations for the system)
    residence: dict[str, dict[str, float | None]] = {}
    statics: list[_Static] = []
    demands: list[float] = []
    loads: list[float] = []
    for w, names in names_of.items():
        rf = demand[names[0]][w][1]
        specs = tuple(demand[name][w][2] for name in names)
        own = path_of[w].stations
        if len(own) == len(specs) and all(a is b for a, b in zip(own, specs)):
            specs = own  # the path's own tuple: its arrays are then found by identity by the solvers that follow
        statics.append(_static(specs, float(rf)))
        demands.extend(demand[name][w][0] for name in names)
        loads.extend(utilisation[name] for name in names)
    res_all: list[float] = []
    queue_all: list[bool] = []
    if statics:
        servers_all: list[float] = []
        v_all: list[float] = []
        for st in statics:
            servers, v_open = _open_plain(st)
            servers_all += servers
            v_all += v_open
            queue_all += _plain(st)[2]
        res_all = _open_residences(demands, servers_all, v_all, loads)
    start = 0
    for w, names in names_of.items():
        mine: dict[str, float | None] = {}
        for k, name in enumerate(names, start):
            value = res_all[k]
            if not queue_all[k]:
                mine[name] = demands[k] * 1e3 / 1e3
            else:
                mine[name] = value * 1e3 / 1e3 if math.isfinite(value) else None
        start += len(names)
        residence[w] = mine
    for name, per in demand.items():
        u = utilisation[name]
        per_class = {}
        for w in per:
            res_s = residence[w][name]
            per_class[w] = _open_class_station(res_s)
            if res_s is None or (so_far := response[w]) is None:
                response[w] = None
            else:
                response[w] = so_far + res_s
        stations[name] = _open_station(u, per_class)
    return _OpenSystem(stable, {w: _OpenClass(r) for w, r in response.items()}, stations)


def _open_plain(st: _Static) -> tuple[list[float], list[float]]:
    """A path's servers and open-model variability factors (``_Static.servers``, ``v_open``) as lists of Python
    floats, made once per path (kept in ``_Static.sides``)."""
    got = st.sides.get("open plain")
    if got is None:
        got = st.sides["open plain"] = (st.servers.tolist(), st.v_open.tolist())
    return got  # type: ignore[return-value]


def _open_residences(service_s: Sequence[float], servers: Sequence[float], v_open: Sequence[float],
                     utilisation: Sequence[float]) -> list[float]:
    """``models.queueing.general_service.open_residence_s`` of one station each, in plain floats (a path's score
    of stations: the array operations' own cost was most of it): the same operations on the same floats, element by
    element, a (1 + U (v - 1)) / (1 - U) + (s - a) with a = s / c, +inf where U >= 1 (saturated)."""
    out = []
    inf = math.inf
    for s, c, v, u in zip(service_s, servers, v_open, utilisation):
        a = s / c
        out.append((inf if u >= 1.0 else a * (1.0 + u * (v - 1.0)) / (1.0 - u)) + (s - a))
    return out


def solve_workload(path: WorkloadPath, others: Sequence[tuple[WorkloadPath, float]], curve_points: int,
                   open_result: _OpenSystem | None = None, population: int | None = None,
                   util: Mapping[str, float] | None = None, solved: tuple[np.ndarray, np.ndarray] | None = None,
                   slo_statistic: str = "mean") -> tuple[WorkloadPerformance, Ramp]:
    """One workload's prediction (see :class:`WorkloadPerformance` for every field) and its full ramp.

    Args:
        path: the workload's stations; others: (path, target IOPS) of the other workloads on the same system;
        curve_points: how many ramp points to keep; open_result: the system's open solution at the targets (or
        None); population: ramp length override (default: the workload's concurrency); util: the others'
        utilisation by station name when already summed (:class:`SystemLoads`; then ``others`` is not read);
        solved: the closed ramp's (X, R) when already solved (:func:`_solve_batch`), else solved here;
        slo_statistic: what the SLO bounds, "mean" or "p99" (``models.performance.tail_latency``).
    """
    return _drive([_solve_steps(path, others, curve_points, open_result, population, util, solved,
                                slo_statistic)])[0]


_Steps = Generator[tuple, Any, tuple[WorkloadPerformance, Ramp]]
"""A workload's solution as :func:`_solve_steps` runs it: it yields what it asks of the open model (("slo", ...):
:func:`_open_searches`' request; ("bands", ...): :func:`_with_bands_many`' item), is sent the answer, and returns
(prediction, ramp)."""


def _drive(steps: Sequence[_Steps], bands: bool = True, groups: Sequence[int] | None = None
           ) -> list[tuple[WorkloadPerformance, Ramp]]:
    """Run many workloads' :func:`_solve_steps` side by side: each up to what it asks of the open model, the
    requests of all of them answered at once (first the max IOPS at the SLO beyond ramps that end inside it,
    :func:`_open_searches`, then the bands, :func:`_with_bands_many`, or with ``bands`` False none: empty curves,
    :data:`_NO_BANDS`), and so on to their ends; their results in order. ``groups``: each step's group (None: one
    group), for :func:`solve_job_groups`: the requests of groups whose rows are laid out alike are answered
    together, of the others apart (:func:`_answer`), so each gets the floats of its group alone."""
    _ALIKE.clear()
    _LATENCIES_BY_ID.clear()
    try:
        return _drive_steps(steps, bands, groups)
    finally:
        _ALIKE.clear()
        _LATENCIES_BY_ID.clear()


def _drive_steps(steps: Sequence[_Steps], bands: bool, groups: Sequence[int] | None
                 ) -> list[tuple[WorkloadPerformance, Ramp]]:
    """:func:`_drive` itself."""
    out: list[tuple[WorkloadPerformance, Ramp] | None] = [None] * len(steps)
    wanted = {i: next(s) for i, s in enumerate(steps)}
    while wanted:
        asked = {req[0] for req in wanted.values()}
        kind = "slo" if "slo" in asked else "cont" if "cont" in asked else "bands"
        ready = [i for i, req in wanted.items() if req[0] == kind]
        answers: Sequence[object]
        if kind == "cont":  # each row alone (its own width): no group changes a float here
            answers = _continuations([wanted[i][1:] for i in ready])
        elif not bands and kind == "bands":
            answers = [_no_bands() for _ in ready]
        elif groups is None or len({groups[i] for i in ready}) == 1:
            answers = (_open_searches([wanted[i][1:] for i in ready]) if kind == "slo"
                       else _with_bands_many([wanted[i][1:] for i in ready]))
        else:
            answers = _answer(kind, [wanted[i][1:] for i in ready], [groups[i] for i in ready])
        for i, answer in zip(ready, answers):
            try:
                wanted[i] = steps[i].send(answer)
            except StopIteration as done:
                out[i] = done.value
                del wanted[i]
    return [value for value in out if value is not None]


def _answer(kind: str, requests: Sequence[tuple], groups: Sequence[int]) -> list[object]:
    """The answers of :func:`_drive`'s requests of one kind ("slo": :func:`_open_searches`; "bands":
    :func:`_with_bands_many`) from several groups: the groups whose rows (:class:`_Rows`) are summed alike (the
    same :func:`_sum_layout` of the width each group's rows would be padded to) are answered in one call, the
    others apart, so that each request gets the floats of its own group's call (a row's stations are summed in an
    order that depends on the width it is padded to: numpy's pairwise sum); a group that lays out no rows joins
    the first call."""
    widths: dict[int, int | None] = {}
    sds = [_band_sd(request[0]) for request in requests] if kind == "bands" else None  # read by both, found once
    for k, (request, group) in enumerate(zip(requests, groups)):
        width = _row_width(kind, request, sds[k] if sds is not None else None)
        if width is not None:
            widths[group] = max(width, widths.get(group) or 0)
    calls: dict[tuple[int, int] | None, list[int]] = {}
    for k, group in enumerate(groups):
        width = widths.get(group)
        calls.setdefault(None if width is None else _sum_layout(width), []).append(k)
    if None in calls and len(calls) > 1:
        calls[next(w for w in calls if w is not None)] += calls.pop(None)
    out: list[object] = [None] * len(requests)
    for members in calls.values():
        members.sort()
        answered = (_open_searches([requests[k] for k in members]) if sds is None
                    else _with_bands_many([requests[k] for k in members], [sds[k] for k in members]))
        for k, answer in zip(members, answered):
            out[k] = answer
    return out


_PAIRWISE_BLOCK = 128
"""The longest sum numpy's pairwise summation takes in one block (``PW_BLOCKSIZE`` of its loops); a longer one is
split in halves."""


def _sum_layout(width: int) -> tuple[int, int]:
    """How numpy's pairwise sum (``np.add.reduce`` over a :class:`_Rows` row's ``width`` stations) groups a row's
    terms, as a key: rows padded to widths of one key are summed float for float alike (:func:`_answer`).

    Numpy adds the terms of a row to +0.0: fewer than 8 one after the other; up to :data:`_PAIRWISE_BLOCK` in 8
    running sums over the whole blocks of 8 (the first 8 ``width // 8 * 8`` terms), combined, then the rest one
    after the other; longer ones split in halves. A row of ``w`` stations padded to a wider width of the same key
    gets only more exact zeros (a padded station has no work: its term is +0.0) added one after the other at its
    end, which change no sum of these terms (each >= +0.0, +inf or NaN, where the latency is +inf either way): the
    same floats. Widths 0 to 7 share a key, then 8 to 15, 16 to 23, ... up to 128; each longer width is its own."""
    if width > _PAIRWISE_BLOCK:
        return (1, width)
    return (0, width // 8)


def _band_sd(path: WorkloadPath) -> np.ndarray:
    """(S,) the relative SD of each of ``path``'s station demands the bands draw (the profile's and the catalog
    inputs', :func:`~models.performance.bands.demand_sd` + :func:`~models.performance.discrepancy.input_rel_sd`)."""
    return demand_sd(path.stations, path.uncertainty) + input_rel_sd(path.stations)


def _row_width(kind: str, request: tuple, sd: np.ndarray | None = None) -> int | None:
    """How many stations the :class:`_Rows` of one request of :func:`_drive` lays out (its storage side's
    queueing stations), None when it lays out none (a bands request whose demands are all certain; ``sd``: its
    :func:`_band_sd` when known)."""
    if kind == "slo":
        specs, rf = request[0], request[1]
    else:
        path = request[0]
        if not (_band_sd(path) if sd is None else sd).any():
            return None
        specs, rf = path.stations, path.read_fraction
    return len(_static(specs, float(rf)).split(False)[0])


def _open_at_target(path: WorkloadPath, shares: Sequence[float], open_result: _OpenSystem
                    ) -> tuple[float, float | None, list[float]]:
    """A rated workload's figures at its target on its system's open solution (stable, the target below the
    workload's saturation): (storage-side latency ms, host-side latency ms or None when a station saturates, each
    station's residence / demand at the target). ``shares``: each station's waited-for share."""
    w = path.workload
    rf = path.read_fraction
    cls = open_result.classes[w.id]
    storage = host = 0.0
    factors_op = []
    for k, spec in enumerate(path.stations):
        st = open_result.stations[spec.name]
        pc = st.per_class[w.id]
        res = pc.residence_time_s or 0.0
        d = spec.demand(rf)
        factors_op.append(res / d if d > 0 else 1.0)
        host += res * shares[k]
        if spec.storage_side:
            storage += res * shares[k]
    return storage * 1e3, (_finite(host * 1e3) if cls.response_time_s is not None else None), factors_op


def _open_station_loads(path: WorkloadPath, shares: Sequence[float], open_result: _OpenSystem) -> list[StationLoad]:
    """Each station of a rated workload's path at the targets, on its system's open solution: the utilisation of
    every workload together (clamped to 0..1) and this workload's waited-for residence, ms (None where saturated)."""
    wid = path.workload.id
    stations = []
    for k, spec in enumerate(path.stations):
        st = open_result.stations[spec.name]
        res = st.per_class[wid].residence_time_s if wid in st.per_class else None
        stations.append(station_load(spec.name, spec.component, float(min(max(st.utilization, 0.0), 1.0)),
                                     _finite(res * shares[k] * 1e3) if res is not None else None, spec.ident))
    return stations


def _station_loads_at(path: WorkloadPath, arrays: _Static, demand_s: np.ndarray, background: np.ndarray, x: float,
                      shares: Sequence[float], factors: Sequence[float], residence_row: np.ndarray | None
                      ) -> tuple[list[StationLoad], list[float]]:
    """Each station of ``path`` at ``x`` IOPS: its utilisation (demand / capacity plus the others' ``background``,
    0 for a delay) and residence, ms: ``residence_row`` (S,) (the closed ramp's at that point) or, when None, the
    open formula at ``x`` (Seidmann split, :func:`open_residence_ms` of every station in one call); with each
    station's residence / demand times its inflation ``factors`` (1 where it has no waited work). ``demand_s``:
    (S,) the inflated demands, seconds; ``shares``: the waited-for shares."""
    # each station's utilisation at x (its demand / capacity, plus the others'), the same products and sums as
    # one station at a time, in one pass; the delays' is 0
    u_at_x = (x * arrays.demand / arrays.capacity + background).tolist()
    demand_list = demand_s.tolist()
    factors_op = []
    stations = []
    res: float | None
    if residence_row is None:  # open_residence_ms of every station at x (finite), in one call
        at_x = open_residence_s(demand_s, arrays.servers, arrays.copies, arrays.v_open,
                                x * demand_s / arrays.capacity, check=False).tolist()
    for k, spec in enumerate(path.stations):
        d = demand_list[k]
        u = 0.0 if spec.delay else u_at_x[k]
        if residence_row is None:
            value = at_x[k]
            res = float(d) * 1e3 if spec.delay else (value * 1e3 if math.isfinite(value) else None)
            res = res * shares[k] if res is not None else None
        else:
            res = residence_row[k]
        waited = d * shares[k]
        factors_op.append(res / (waited * 1e3) * factors[k] if waited > 0 and res is not None else 1.0)
        stations.append(station_load(spec.name, spec.component, float(min(max(u, 0.0), 1.0)), _finite(res),
                                     spec.ident))
    return stations, factors_op


_ALIKE: dict[tuple, tuple] = {}
"""What the workloads of one solve (:func:`_drive`) alike in every input share (:func:`_station_loads_alike`,
:func:`_open_waited_alike`): emptied when a solve starts and ends, so nothing is found from another design."""
_ALIKE_SIZE = 1024


def _alike(key: tuple, keep: tuple) -> tuple | None:
    """The value remembered under ``key`` (:func:`_remember_alike`) when the objects it was remembered with are
    ``keep`` (the very objects whose ids the key holds), else None."""
    hit = _ALIKE.get(key)
    if hit is not None and len(hit[0]) == len(keep) and all(a is b for a, b in zip(hit[0], keep)):
        return hit[1]
    return None


def _remember_alike(key: tuple, keep: tuple, value: tuple) -> None:
    """Remember ``value`` under ``key``, with the objects whose ids the key holds (kept, so their ids are not reused
    while here); at most :data:`_ALIKE_SIZE` (then emptied and filled again)."""
    if len(_ALIKE) >= _ALIKE_SIZE:
        _ALIKE.clear()
    _ALIKE[key] = (keep, value)


def _station_loads_alike(path: WorkloadPath, arrays: _Static, demand_s: np.ndarray, background: np.ndarray, x: float,
                         shares: Sequence[float], factors: Sequence[float], residence_row: np.ndarray | None
                         ) -> tuple[list[StationLoad], list[float]]:
    """:func:`_station_loads_at` (the same arguments), found once for the workloads of a design alike in all of them
    (the same stations and arrays objects, demands, background, IOPS, inflation and residences: the same floats)
    and given to each as its own lists (of the same frozen station loads). ``shares`` are ``arrays``'."""
    key = ("station loads", id(path.stations), id(arrays), demand_s.tobytes(), background.tobytes(), x,
           tuple(shares), tuple(factors), None if residence_row is None else residence_row.tobytes())
    keep = (path.stations, arrays)
    hit = _alike(key, keep)
    if hit is None:
        hit = _station_loads_at(path, arrays, demand_s, background, x, shares, factors, residence_row)
        _remember_alike(key, keep, hit)
    return list(hit[0]), list(hit[1])


def _open_waited_alike(ts: TailStations, demands_s: np.ndarray, iops: np.ndarray) -> np.ndarray:
    """``open_waited_ms(ts, demands_s, iops)``, found once for the workloads alike in all three (the same stations
    object, demands and IOPS: the same floats); read-only."""
    key = ("open waited", content_key(ts), demands_s.tobytes(), iops.shape, iops.tobytes())
    keep = ()
    hit = _alike(key, keep)
    if hit is None:
        value = open_waited_ms(ts, demands_s, iops)
        value.setflags(write=False)
        hit = (value,)
        _remember_alike(key, keep, hit)
    return hit[0]


def _no_bands() -> tuple[CurveColumns, CurveColumns, dict[str, Band], tuple[float | None, ...]]:
    """The answer to a workload's bands step when no bands are asked (:func:`_drive`): an empty curve and
    continuation, every band None, no percentiles at the target."""
    empty: CurveColumns = ([], [], [], [], [], [], [], [], [])
    return empty, empty, {"sat": Band(None, None), "slo": Band(None, None)}, ()


def _solve_steps(path: WorkloadPath, others: Sequence[tuple[WorkloadPath, float]], curve_points: int,
                 open_result: _OpenSystem | None, population: int | None, util: Mapping[str, float] | None,
                 solved: tuple[np.ndarray, np.ndarray] | None, slo_statistic: str = "mean",
                 curve_tails: bool = True, inflation: tuple[list[float], list[str]] | None = None) -> _Steps:
    """:func:`solve_workload` itself, as steps (:data:`_Steps`): the bands of many workloads are computed
    together (:func:`_drive`). ``inflation``: :func:`_background` of ``path``, ``others`` and ``util`` when found
    already (:func:`_job_steps`, for the ramp's request), else found here."""
    w = path.workload
    rf = path.read_fraction
    block = w.block_kib * KIB
    if util is None:
        util = _others_utilisation(others)
    factors, notes = inflation if inflation is not None else _background(path, others, util)
    arrays = _static(path.stations, float(rf))
    shares = arrays.shares.tolist()
    N = population or w.concurrency
    r = ramp(path.stations, rf, N, w.think_time_ms / 1e3, factors, solved)
    sat, b_idx = _saturation_index(arrays, factors)
    bottleneck = path.stations[b_idx] if b_idx is not None else None
    slo = w.slo_ms
    # the percentiles' station data (tail_stations, cached per path) are read only by a p99 SLO's figures and by the
    # curve's p95 / p99: a failure state of a mean SLO, which has neither, does not build them
    probability = slo_probability(slo_statistic)
    background = np.array([util.get(spec.name, 0.0) for spec in path.stations], dtype=float)
    if probability is None:
        max_slo = iops_at_latency(r.iops, r.storage_ms, slo)
        ramp_inside_slo = bool(r.storage_ms[-1] <= slo)
    else:  # the SLO bounds a percentile: its own search along the ramp and beyond (tail_latency)
        max_slo = max_iops_at_tail_slo(tail_stations(path.stations, float(rf)), r.iops, r.residence_ms, r.demand_s,
                                       background, slo, sat, probability)
        ramp_inside_slo = False
    if ramp_inside_slo:  # open_iops_at_latency, of every job at once (_drive)
        extended: float | None = yield ("slo", path.stations, rf, r.demand_s, slo, float(r.iops[-1]), sat)
        if extended is not None and extended > (max_slo or 0.0):
            max_slo = extended
    host_side = any(not s.storage_side for s in path.stations)
    idx = thin_indices(len(r.iops), curve_points)
    kept = _Kept(r.iops[idx], r.storage_ms[idx], r.host_ms[idx] if host_side else None, r.population[idx])
    target = target_rate(w)
    latency_at_target = host_at_target = None
    p95_target = p99_target = None
    at_target: np.ndarray | None = None
    target_met = None
    headroom = None
    stations: list[StationLoad] = []
    read_lat = write_lat = None
    if target is not None:
        headroom = (sat - target) / target * 100.0 if math.isfinite(sat) else None
        if open_result is not None and w.id in open_result.classes:
            if open_result.stable and target < sat:
                latency_at_target, host_at_target, factors_op = _open_at_target(path, shares, open_result)
                at_target = np.array([[(open_result.stations[spec.name].per_class[w.id].residence_time_s or 0.0)
                                       * shares[k] * 1e3 for k, spec in enumerate(path.stations)]])
                if probability is not None:  # target_met reads it now; else it comes with the curve's (bands step)
                    p95_target, p99_target = (_finite(float(v[0])) for v in
                                              tail_ms(tail_stations(path.stations, float(rf)),
                                                      np.array([target]), at_target, background))
                read_lat = _per_op_latency(path.stations, factors_op, True) if rf > 0 else None
                write_lat = _per_op_latency(path.stations, factors_op, False) if rf < 1 else None
            # A target at or beyond this workload's saturation: the stations are shown at saturation (below),
            # where the bottleneck is at 100% and the others at their share, not all clipped to 100% at a load
            # the system cannot carry.
            beyond_saturation = math.isfinite(sat) and target >= sat
            if not beyond_saturation:
                stations = _open_station_loads(path, shares, open_result)
        bounded = latency_at_target if probability is None else p99_target
        target_met = bounded is not None and bounded <= slo
        operating = min(target, sat) if math.isfinite(sat) else target
    if not stations:
        # operating point on the ramp: the max IOPS under the SLO, else the ramp's end
        if max_slo is not None:
            j = int(np.searchsorted(r.iops, max_slo, side="right") - 1)
            j = max(0, min(j, len(r.iops) - 1))
        else:
            j = 0
        x = float(r.iops[j])
        # Beyond the ramp (the max IOPS at the SLO came from the open model): the operating point is there too,
        # each station's residence from the same open formula (Seidmann split), so utilisation is not read at
        # the ramp's light load.
        beyond = max_slo is not None and max_slo > float(r.iops[-1]) * (1 + 1e-9)
        if beyond and max_slo is not None:
            x = float(max_slo)
        if target is not None and math.isfinite(sat) and target >= sat:  # the target saturates: at saturation
            x, beyond = float(sat), True
        operating = x if target is None else operating
        stations, factors_op = _station_loads_alike(path, arrays, r.demand_s, background, x, shares, factors,
                                                 None if beyond else r.residence_ms[j])
        if target is None:
            read_lat = _per_op_latency(path.stations, factors_op, True) if rf > 0 else None
            write_lat = _per_op_latency(path.stations, factors_op, False) if rf < 1 else None
    else:
        operating = float(min(target, sat)) if target is not None and math.isfinite(sat) else float(target or 0.0)
    host_cpu = path.host_cpu_us_per_io * 10.0 if path.host_cpu_us_per_io is not None else None
    probes = np.array([0.0, 0.5 * sat, 0.8 * sat]) if math.isfinite(sat) else np.array([0.0])
    # _continuation_arrays, of every job at once (_drive)
    continued: tuple[np.ndarray, np.ndarray, np.ndarray] = yield (
        "cont", path.stations, r.demand_s, float(r.iops[-1]), sat, max(4.0 * slo, 4.0 * float(r.storage_ms[-1])),
        rf, probes)
    ext_x, ext_y, at_probes = continued
    if curve_tails:  # the curve's percentiles (and the target's, unless computed above), all workloads' together,
        # at every TAIL_STRIDE-th point of the curve and of its continuation (each one's last too), in between
        # interpolated (_Kept.tail_samples)
        tails = tail_stations(path.stations, float(rf))
        kept_at, ext_at = _strided(len(kept.iops)), np.arange(len(ext_x))
        rows = [r.residence_ms[idx[kept_at]]]
        levels = [kept.iops[kept_at]]
        if len(ext_x):
            rows.append(_open_waited_alike(tails, r.demand_s, ext_x[ext_at]))
            levels.append(ext_x[ext_at])
        with_target = probability is None and at_target is not None and target is not None
        if with_target and at_target is not None and target is not None:
            rows.append(at_target)
            levels.append(np.array([target], dtype=float))
        kept = _Kept(kept.iops, kept.latency_ms, kept.host_ms, kept.population,
                     (tails, np.concatenate(levels), np.concatenate(rows), background), with_target,
                     (kept_at, ext_at))
    shape = _curve_shape(path, r, sat, b_idx, np.concatenate([kept.iops, ext_x]),
                         np.concatenate([kept.latency_ms, ext_y]), at_probes.tolist())
    banded: tuple[CurveColumns, CurveColumns, dict[str, Band], tuple[float | None, ...]] = yield (
        "bands", path, r, factors, kept, ext_x, ext_y, block, sat, max_slo, b_idx)
    curve, extension, bands, target_tails = banded
    if target_tails:
        p95_target, p99_target = target_tails
    notes = list(path.notes) + notes + [path.profile_source if path.profile_source.startswith(VSAN_LATENCY_NOTE)
                                        else f"controller parameters: {path.profile_source}"]
    if probability is not None:
        notes.append(f"the SLO bounds the 99th percentile of the storage latency ({slo:g} ms): p95 and p99 from "
                     "the response-time distribution of the path's queues (Erlang C waits, translated gamma)")
    if ramp_inside_slo and N == w.concurrency:
        notes.append(
            f"the ramp of N = 1..{N} outstanding I/Os ends within the SLO at {r.iops[-1]:,.0f} IOPS; the max IOPS "
            "at the SLO comes from the open model (more outstanding I/O gives more IOPS, up to saturation)"
        )
    wp = WorkloadPerformance(
        workload_id=w.id,
        name=w.name,
        curve=(),
        saturation_iops=float(sat) if math.isfinite(sat) else float(r.iops[-1]),
        max_iops_at_slo=_finite(max_slo),
        slo_ms=slo,
        target_iops=target,
        latency_at_target_ms=_finite(latency_at_target),
        target_met=target_met,
        bottleneck=bottleneck.name if bottleneck else "",
        bottleneck_component=bottleneck.component if bottleneck else "",
        headroom_pct=_finite(headroom),
        stations=tuple(stations),
        operating_iops=float(operating),
        protocol=path.protocol,
        block_kib=w.block_kib,
        host_cpu_pct_per_100k_iops=host_cpu,
        notes=tuple(notes),
        read_latency_ms=_finite(read_lat),
        write_latency_ms=_finite(write_lat),
        host_latency_at_target_ms=_finite(host_at_target),
        peak_iops=float(r.iops[-1]),
        concurrency=int(w.concurrency),
        think_time_ms=float(w.think_time_ms),
        open_curve=(),
        light_load_latency_ms=shape.light_load_latency_ms,
        latency_at_50pct_saturation_ms=shape.latency_at_50pct_ms,
        latency_at_80pct_saturation_ms=shape.latency_at_80pct_ms,
        knee_note=shape.knee_note,
        profile=path.uncertainty.profile if path.uncertainty is not None else "",
        saturation_iops_band_p10=bands["sat"].p10 if math.isfinite(sat) else None,
        saturation_iops_band_p90=bands["sat"].p90 if math.isfinite(sat) else None,
        max_iops_at_slo_band_p10=_finite(bands["slo"].p10),
        max_iops_at_slo_band_p90=_finite(bands["slo"].p90),
        band_basis="; ".join(filter(None, (
            band_basis(path.uncertainty.basis if path.uncertainty is not None else "",
                       path.uncertainty.profile if path.uncertainty is not None else "", path.stations, b_idx),
            hard_limit_note(bands["sat"], bands["slo"])))),
        latency_p95_at_target_ms=p95_target,
        latency_p99_at_target_ms=p99_target,
        slo_statistic=slo_statistic,
    )
    return with_curve_columns(wp, curve, extension), r


@dataclass(frozen=True)
class _Kept:
    """The ramp's points kept for the curve (:func:`thin_indices`), as arrays: IOPS, storage latency (ms), host
    latency (ms; None where the path has no host side), population and what their p95 / p99 come from."""

    iops: np.ndarray
    latency_ms: np.ndarray
    host_ms: np.ndarray | None
    population: np.ndarray
    tail_request: TailRequest | None = None
    """What the p95 / p99 storage latency of the kept points, then the continuation's (then the target's, with
    ``target_row``) are computed from (:func:`models.performance.tail_latency.tail_ms_many`); None: not asked."""
    target_row: bool = False
    tail_samples: tuple[np.ndarray, np.ndarray] = (np.empty(0, dtype=int), np.empty(0, dtype=int))
    """Which kept points and which continuation points the request holds (:func:`_strided`), in that order."""


def _open_iops_at_latency_rows(st: _Static, demands: np.ndarray, limit_ms: float | Sequence[float], low_iops: float,
                               saturations: Sequence[float], rounds: int) -> list[float | None]:
    """:func:`open_iops_at_latency` of one path for several demand vectors at once (``demands`` (D, S), each with
    its ``saturations`` entry and its latency limit: ``limit_ms`` one for all or one each), the searches side by
    side (:func:`_search` of one group)."""
    rows = _Rows([(st, np.asarray(demands, dtype=float))])
    n = len(saturations)
    limits = np.full(n, float(limit_ms)) if isinstance(limit_ms, (int, float)) else np.asarray(limit_ms, dtype=float)
    return _search(rows, np.arange(n), limits, np.full(n, float(low_iops)),
                   [float(s) for s in saturations], np.zeros(n, dtype=int), rounds)


def _with_bands_many(items: Sequence[tuple], sds: Sequence[np.ndarray] | None = None
                     ) -> list[tuple[CurveColumns, CurveColumns, dict[str, Band], tuple[float | None, ...]]]:
    """Per workload (item: path, ramp, demand factors, kept points, continuation IOPS and ms, block bytes,
    saturation, max IOPS at the SLO, the bottleneck's index or None), the curve (``kept``) and its continuation as
    points with latency bands on every one (as columns, ``models.performance.results.with_curve_columns``), and the
    bands of saturation and of max IOPS at the SLO ({"sat": Band, "slo": Band}), by
    :mod:`models.performance.bands`' method: two edge models (the uncertain demands at their P10 / P90 edges, then
    every demand times the common factor that makes the edge saturate at the saturation band's edge,
    :func:`models.performance.discrepancy.edge_scales`), whose SLO crossings give the max IOPS at the SLO band and
    whose latencies (:func:`_edge_curves`) the curve's band; without uncertain demands the edge models are the
    nominal one times those factors (the model discrepancy alone). The open model is evaluated for all the items
    at once (:class:`_Rows`: the latency at every curve point's scaled IOPS at the three demand vectors, then the
    grid searches of the max IOPS at the SLO at the band's edges side by side); each item's figures are those of
    solving it alone, to rounding. The p95 / p99 of every point (and of the target, where the item's ``kept``
    asks) are computed for all the items at once
    (:func:`models.performance.tail_latency.tail_ms_many`) and come back last: (p95, p99) at the target, or ().
    ``sds``: each item's :func:`_band_sd` when found already (None: found here).

    Each edge of the latency band is non-decreasing along the curve (at any demands inside the band the latency
    rises with the load), so an edge is carried up to the highest value it had at a lower load: the open model's
    ratio, applied to the closed ramp's latency, shrinks near the open model's saturation (its latency runs off to
    infinity, the ramp's does not), which made the P10 edge fall as the load rose (about 1% of curves; the P90
    edge likewise where the ratio dips). An edge of the max IOPS at the SLO is no higher than the same edge of the
    saturation (the nominal max at the SLO came from the closed ramp, its band's scale from the open model, and
    their product could pass the saturation band's edge). The curve's P90 edge is saturated (None) from the
    saturation band's P10 on, and crosses the SLO at the P10 max IOPS at the SLO (to the curve's resolution: the
    ramp's drawn latency against the open model's crossing)."""
    prepared: list[tuple] = []
    blocks: list[tuple[_Static, np.ndarray]] = []
    points: list[list[np.ndarray]] = []
    # items alike in every input of their band rows (a design's workloads alike in every input of their ramp and
    # continuation) share one block of rows: computed once, each row's floats its own whatever the other rows
    seen: dict[tuple, int] = {}
    for i, (path, r, factors, kept, ext_x, ext_y, _block, sat, _max_slo, neck) in enumerate(items):
        rf = path.read_fraction
        sd = _band_sd(path) if sds is None else sds[i]
        xs = np.concatenate([kept.iops, ext_x])
        ys = np.concatenate([kept.latency_ms, ext_y])
        sigma = figure_sigma(path.uncertainty.profile if path.uncertainty is not None else "", path.stations, neck)
        st = _static(path.stations, float(rf))
        if sd.any():
            low_f, high_f = band_factors(sd)
            base = np.asarray(factors, dtype=float)
            sat_hi = _saturation_st(st, base * low_f)
            sat_lo = _saturation_st(st, base * high_f)
            sat_param = ordered(sat_lo, sat, sat_hi) if math.isfinite(sat) else Band(None, None)
        else:
            low_f = high_f = np.ones(len(path.stations))
            sat_hi = sat_lo = sat
            sat_param = Band(sat, sat)
        sat_edges = widened_figures(sat, (sat_param.p10, sat_param.p90), None, (None, None), sigma)[0]
        k_hi, k_lo = edge_scales(sat, (sat_lo, sat_hi), sat_edges, sigma)
        d = r.demand_s
        key = (content_key(st), d.tobytes(), low_f.tobytes(), high_f.tobytes(), xs.tobytes(), ys.tobytes(), k_hi,
               k_lo, sat_lo)
        row = seen.get(key)
        if row is None:  # four rows (_edge_curves): the nominal demands at k_lo xs and at k_hi xs, then the P10
            # demands at k_lo xs and the P90 demands at k_hi xs (no row padded to twice the others' points)
            row = seen[key] = len(blocks)
            x_lo, x_hi = xs * k_lo, xs * k_hi
            blocks.append((st, np.stack([d, d, d * low_f, d * high_f])))
            points.append([x_lo, x_hi, x_lo, x_hi])
        prepared.append((xs, ys, row, sigma, sat_param, sat_edges, (sat, sat_hi, sat_lo), (k_hi, k_lo)))
    if not blocks:  # no items
        return []
    rows = _Rows(blocks)
    many_all = rows.latency(np.arange(4 * len(blocks)), [x for four in points for x in four])
    curve_edges: dict[int, tuple[list, list]] = {}
    searches: list[tuple[int, tuple[float, float, float], tuple[float, float, float]]] = []
    search_of: dict[tuple, int] = {}
    partial: list[tuple] = []
    for (path, _r, _factors, kept, _ex, _ey, _block, sat, max_slo, _neck), \
            (xs, ys, row, sigma, sat_param, sat_edges, sats, scales) in zip(items, prepared):
        n = len(kept.iops)
        y_list = ys.tolist()
        if row not in curve_edges:
            curve_edges[row] = _edge_curves(xs, ys, y_list, many_all[4 * row:4 * row + 4], scales, sats[2])
        p10, p90 = (list(e) for e in curve_edges[row])
        search = None
        if max_slo is not None and math.isfinite(sat):
            slo = float(path.workload.slo_ms)
            asked = (row, (slo, slo / scales[1], slo / scales[0]), sats)
            search = search_of.get(asked)
            if search is None:
                search = search_of[asked] = len(searches)
                searches.append(asked)
        partial.append((p10, p90, sat_param, sat_edges, sats, scales, n, xs, y_list, search, sigma))
    found = _search_rows(rows, searches) if searches else []
    asked_tails = [i for i, item in enumerate(items) if item[3].tail_request is not None]
    tails_of = dict(zip(asked_tails, tail_ms_many([items[i][3].tail_request for i in asked_tails])))
    out: list[tuple[CurveColumns, CurveColumns, dict[str, Band], tuple[float | None, ...]]] = []
    for index, (item, (p10, p90, sat_param, sat_edges, _sats, scales, n, xs, y_list, search, sigma)) in \
            enumerate(zip(items, partial)):
        kept, block_bytes, max_slo = item[3], item[6], item[8]
        sat_band = Band(*sat_edges)
        slo_band = Band(None, None)
        nominal_open = found[search][0] if search is not None else None
        if max_slo is not None and nominal_open:
            # the two edge models' SLO crossings (open model), as ratios applied to the nominal figure; an edge
            # model's IOPS are its demands' IOPS divided by its scale (edge_scales)
            _, x_opt, x_pes = found[search]
            hi = max_slo * x_opt / scales[1] / nominal_open if x_opt is not None else None
            lo = max_slo * x_pes / scales[0] / nominal_open if x_pes is not None else None
            if hi is not None and sat_edges[1] is not None:
                hi = min(hi, sat_edges[1])
            if lo is not None and sat_edges[0] is not None:
                lo = min(lo, sat_edges[0])
            slo_band = ordered(lo, max_slo, hi)
        else:  # no edge search (no SLO crossing of the open model, or nothing queues): the discrepancy alone
            slo_band = Band(*widened_figures(item[7], (sat_param.p10, sat_param.p90), max_slo, (max_slo, max_slo),
                                             sigma)[1])
        st_all = _static(item[0].stations, float(item[0].read_fraction))
        cap, cap_at = hard_limit(item[0].stations, st_all.capacity, st_all.demand * np.asarray(item[2], dtype=float))
        unc = item[0].uncertainty
        if unc is not None and unc.peak_iops is not None:  # first: a published figure is named by whose it is
            sat_band = held_at_hard_limit(sat_band, unc.peak_iops, unc.peak_name)
            slo_band = held_at_hard_limit(slo_band, unc.peak_iops, unc.peak_name)
        if cap_at is not None:
            cap_name = item[0].stations[cap_at].name
            sat_band = held_at_hard_limit(sat_band, cap, cap_name)
            slo_band = held_at_hard_limit(slo_band, cap, cap_name)
        mbps = (xs * block_bytes / 1e6).tolist()
        x_list = xs.tolist()
        host = kept.host_ms.tolist() if kept.host_ms is not None else [None] * n
        population = kept.population.tolist()
        tails = tails_of.get(index, ())
        at_target: tuple[float | None, ...] = ()
        if tails and kept.target_row:
            at_target = tuple(_finite(float(t[-1])) for t in tails)
            tails = tuple(t[:-1] for t in tails)
        if tails:
            kept_at, ext_at = kept.tail_samples
            tails = tuple(np.concatenate([_between(t[:len(kept_at)], kept_at, n),
                                          _between(t[len(kept_at):], ext_at, len(x_list) - n)]) for t in tails)
        p95, p99 = _tail_lists(tails, len(x_list))
        curve = (x_list[:n], y_list[:n], mbps[:n], host, population, p10[:n], p90[:n], p95[:n], p99[:n])
        tail = [None] * (len(x_list) - n)
        extension = (x_list[n:], y_list[n:], mbps[n:], tail, tail, p10[n:], p90[n:], p95[n:], p99[n:])
        out.append((curve, extension, {"sat": sat_band, "slo": slo_band}, at_target))
    return out


TAIL_STRIDE = 4
"""The closed ramp's p95 / p99 are computed at every 4th kept point (and the last) and interpolated linearly
between them (by point index: the points are spaced where the curve bends); the open continuation, steep towards
saturation, has them at every point. On the bundled examples the interpolated values are within 0.4% (median
over the workloads) and 2.2% (worst) of those computed at every point (tests/test_tail_latency.py). The max IOPS
at a p99 SLO never reads them (its own search)."""


@lru_cache(maxsize=256)
def _strided(n: int) -> np.ndarray:
    """Indices 0, TAIL_STRIDE, 2 TAIL_STRIDE, ... and n - 1 (empty for n = 0); cached per n (every workload of a
    design has a curve of about the same length): the returned array is read-only."""
    out = np.empty(0, dtype=int) if n == 0 else sorted_unique(np.append(np.arange(0, n, TAIL_STRIDE), n - 1))
    out.setflags(write=False)
    return out


def _between(values: np.ndarray, at: np.ndarray, n: int) -> np.ndarray:
    """``values`` given at indices ``at`` (increasing) of n points, linearly interpolated to all of them; +inf
    where a neighbouring sample is not finite (saturated)."""
    if n == 0:
        return np.empty(0)
    finite = np.isfinite(values)
    if finite.all():
        return np.interp(np.arange(n), at, values)
    got = np.interp(np.arange(n), at, np.where(finite, values, 0.0))
    bad = np.interp(np.arange(n), at, (~finite).astype(float)) > 0.0
    return np.where(bad, np.inf, got)


def _tail_lists(tails: tuple[np.ndarray, ...], n: int) -> tuple[list[float | None], list[float | None]]:
    """The curve's p95 and p99 (ms) as lists, None where saturated (never inf), or all None without them."""
    if len(tails) != 2:
        return [None] * n, [None] * n
    return tuple(t.tolist() if np.isfinite(t).all()  # type: ignore[return-value]
                 else [v if math.isfinite(v) else None for v in t.tolist()] for t in tails)


def _saturation_st(st: _Static, inflation: np.ndarray) -> float:
    """:func:`saturation_iops` (its IOPS) of a path's stations (their :class:`_Static` arrays) with per-station
    demand multipliers ``inflation`` (S,): the same products and quotients, element by element."""
    return _saturation_index(st, inflation)[0]


def _saturation_index(st: _Static, inflation: np.ndarray | Sequence[float]) -> tuple[float, int | None]:
    """:func:`saturation_iops` (IOPS and the bottleneck's index: the first station of the least capacity / demand)
    of a path's stations from their :class:`_Static` arrays, ``inflation`` (S,) the demand multipliers. In plain
    floats (a path's few dozen stations: the array operations' own cost was most of it), the same products and
    quotients: capacity / (demand x multiplier) of each queue with work, the first least one."""
    demand, capacity, queue = _plain(st)
    factors = inflation.tolist() if isinstance(inflation, np.ndarray) else inflation
    best, k = math.inf, 0
    for i, (dm, f, cap, q) in enumerate(zip(demand, factors, capacity, queue)):
        if q:
            d = dm * f
            if d > 0:
                c = cap / d
                if c < best:
                    best, k = c, i
    return (best, k) if best < math.inf else (math.inf, None)


def _plain(st: _Static) -> tuple[list[float], list[float], list[bool]]:
    """A path's demands per I/O (seconds, the floats of ``StationSpec.demand``), capacities (copies x servers) and
    which stations queue, as lists of Python floats and bools (``_Static.plain``, made on first use)."""
    if not st.plain:
        st.plain.append((st.demand.tolist(), st.capacity.tolist(), st.is_queue.tolist()))
    return st.plain[0]


class _Rows:
    """The storage-side open model of many demand vectors of many paths, laid out row by row (each row one demand
    vector of one path, its queueing stations padded to the widest with stations of no work, which add exactly 0):
    :func:`_open_latency_st` of them all in a few array operations instead of one call per path.

    Built from (the path's :class:`_Static`, (D, S) demand vectors) blocks, rows in block order."""

    CHUNK_ELEMENTS = 32_768
    """Rows are evaluated in chunks of about this many (row, point, station) elements (256 KiB per temporary, which
    stays in the processor's cache: a 10 nodes x 100 workloads evaluation took 3-5% less time than with chunks of
    400,000; the same floats, every element is computed alone)."""

    def __init__(self, blocks: Sequence[tuple[_Static, np.ndarray]]) -> None:
        splits = [st.split(False) for st, _ in blocks]
        widths = [len(sp[0]) for sp in splits]
        heights = [len(dm) for _, dm in blocks]
        R, Q = sum(heights), max(widths, default=0)
        dq = np.zeros((R, Q))
        servers, cap = np.ones((R, Q)), np.ones((R, Q))
        v, shares = np.zeros((R, Q)), np.zeros((R, Q))
        const = np.empty(R)
        o = 0
        for (_st, demands), (q_full, _d, q_servers, q_cap, q_v, q_shares, _ds, all_full, all_shares), k, h in zip(
                blocks, splits, widths, heights):
            dq[o:o + h, :k] = demands[:, q_full]
            servers[o:o + h, :k] = q_servers
            cap[o:o + h, :k] = q_cap
            v[o:o + h, :k] = q_v
            shares[o:o + h, :k] = q_shares
            const[o:o + h] = np.add.reduce(demands[:, all_full] * all_shares, axis=-1)
            o += h
        self.weight = dq / servers * v * shares
        self.ratio = dq / cap
        self.const = const
        self.width = Q
        self._by_station: tuple[np.ndarray, np.ndarray] | None = None
        """``ratio`` and ``weight`` station-major (Q, R), made for the first chunk of :data:`SLAB_SUM_OUTPUTS` or
        more (:meth:`latency`)."""

    SLAB_SUM_OUTPUTS = 512
    """A chunk of at least this many (row, point) latencies is laid out station-major, (Q, rows, points), and its
    stations summed slab by slab (:func:`_station_sum`, the same floats): numpy's reduction over a short last axis
    costs about 45 ns per sum (the bands' 16 rows x 202 points x 12 stations: 455 -> 145 us), a handful of slab
    operations cost more than that on a few hundred."""

    def latency(self, rows: np.ndarray, iops: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
        """Storage latency (ms; +inf where a queueing station is at or past saturation) of ``rows`` (indices) at
        each one's IOPS (``iops``: per row a (P_r,) array, or one (R, P) array); (R, max P), a shorter row's tail
        padded with the latency at 0 IOPS."""
        if isinstance(iops, np.ndarray):  # (R, P): its rows' length without iterating over them
            P = iops.shape[1] if len(iops) else 0
            x = iops
        else:
            P = max((len(x) for x in iops), default=0)
            x = np.zeros((len(rows), P))
            for i, row_x in enumerate(iops):
                x[i, :len(row_x)] = row_x
        out = np.empty((len(rows), P))
        step = max(1, self.CHUNK_ELEMENTS // max(1, P * max(self.width, 1)))
        with np.errstate(divide="ignore", invalid="ignore"):  # entered once (it costs more than a chunk's product)
            for a in range(0, len(rows), step):
                idx = rows[a:a + step]
                total = out[a:a + step]
                slabs = total.size >= self.SLAB_SUM_OUTPUTS
                if slabs:
                    if self._by_station is None:
                        self._by_station = (np.ascontiguousarray(self.ratio.T), np.ascontiguousarray(self.weight.T))
                    ratio_t, weight_t = self._by_station
                    u = ratio_t[:, idx][:, :, None] * x[None, a:a + step, :]  # (Q, rows, P), each x ratio alone
                else:
                    u = x[a:a + step, :, None] * self.ratio[idx][:, None, :]
                t = np.subtract(1.0, u)
                np.divide(u, t, out=t)  # u / (1 - u), in place
                over = u >= 1.0
                if over.any():
                    t[over] = np.inf
                if slabs:
                    t *= weight_t[:, idx][:, :, None]
                    _station_sum(t, total)
                else:
                    t *= self.weight[idx][:, None, :]
                    np.add.reduce(t, axis=-1, out=total)
                total += self.const[idx][:, None]
                total *= 1e3
                total[~np.isfinite(total)] = np.inf
        return out


def _station_sum(terms: np.ndarray, out: np.ndarray) -> None:
    """``out`` = the sum over the first axis of ``terms`` (Q, ...), float for float as ``np.add.reduce`` sums a row of
    Q contiguous terms (:func:`_sum_layout`: one after the other below 8; else 8 running sums over the whole blocks
    of 8, combined ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)), then the rest one after the other; the
    terms are >= +0.0, +inf or NaN, so numpy's start at 0.0 changes none), each step one operation on whole slabs.
    Longer than :data:`_PAIRWISE_BLOCK`: numpy's reduction itself. ``terms`` is overwritten."""
    n = len(terms)
    if n == 0:
        out[...] = 0.0
    elif n > _PAIRWISE_BLOCK:
        np.add.reduce(np.ascontiguousarray(np.moveaxis(terms, 0, -1)), axis=-1, out=out)
    elif n < 8:
        np.copyto(out, terms[0])
        for k in range(1, n):
            out += terms[k]
    else:
        whole = n - n % 8
        r = terms[:8]
        for i in range(8, whole, 8):
            r += terms[i:i + 8]
        pairs = r[0::2] + r[1::2]  # r0 + r1, r2 + r3, r4 + r5, r6 + r7
        quads = pairs[0::2] + pairs[1::2]
        np.add(quads[0], quads[1], out=out)
        for k in range(whole, n):
            out += terms[k]


def _search_rows(rows: _Rows, searches: Sequence[tuple[int, tuple[float, float, float], tuple[float, float, float]]]
                 ) -> list[tuple[float | None, float | None, float | None]]:
    """:func:`open_iops_at_latency` (from 1e-9 IOPS, 2 rounds) of many paths' three band rows at once:
    ``searches`` (block index in ``rows``, whose four rows are :func:`_with_bands_many`'s: the nominal, nominal, P10
    and P90 demands, of which the first, third and fourth are searched; the three rows' latency limits in ms, the
    three rows' saturations); per
    search, in order, the three IOPS (None where a row's search does not start), by :func:`_search` (the three rows
    of one path one search's rows, spaced alike; each search's its own whatever the others)."""
    index = np.array([4 * block + k for block, _, _ in searches for k in (0, 2, 3)], dtype=int)
    limits = np.array([limit for _, three, _ in searches for limit in three], dtype=float)
    sats = [s for _, _, three in searches for s in three]
    result = _search(rows, index, limits, np.full(len(index), 1e-9), sats, np.arange(len(index)) // 3, 2)
    return [(result[3 * s], result[3 * s + 1], result[3 * s + 2]) for s in range(len(searches))]


def _search(rows: _Rows, index: np.ndarray, limits: np.ndarray, lows: np.ndarray, sats: Sequence[float],
            groups: np.ndarray, rounds: int) -> list[float | None]:
    """:func:`open_iops_at_latency` of many rows at once: row ``index[i]`` of ``rows`` from ``lows[i]`` IOPS towards
    ``sats[i]`` at the latency ``limits[i]`` (ms), ``rounds`` rounds; ``groups``: which rows one call of the
    single search would have held together (they share the grid's spacing rule, :func:`_grid_grouped`). Each row's
    grids, crossings and stops are those of its own search (a row that has stopped keeps its ends while the others
    go on). Returns each row's IOPS, None where its search does not start (saturation not above the low end, or the
    latency there already past the limit)."""
    first = rows.latency(index, lows[:, None])[:, 0]
    live = [i for i in range(len(index)) if math.isfinite(sats[i]) and sats[i] > lows[i]
            and math.isfinite(float(first[i])) and float(first[i]) <= limits[i]]
    result: list[float | None] = [None] * len(index)
    if live:
        group = groups[live]
        lo = lows[live].astype(float)
        hi = np.array([float(sats[i]) for i in live])
        lim = limits[live]
        idx = index[live]
        going = np.ones(len(live), dtype=bool)
        last = OPEN_SEARCH_GRID
        k = np.arange(len(live))
        for _ in range(rounds):
            grid = _grid_grouped(lo, hi, group)
            ok = rows.latency(idx, grid) <= lim[:, None]
            # each row's grid[0] = lo is within the limit and grid[-1] = hi is not (saturation, or past the limit)
            j = np.minimum(last - np.argmax(ok[:, ::-1], axis=1), OPEN_SEARCH_GRID - 1)
            new_lo, new_hi = grid[k, j], grid[k, j + 1]
            lo = np.where(going, new_lo, lo)
            hi = np.where(going, new_hi, hi)
            going &= ~(hi - lo <= 1e-6 * hi)
            if not going.any():
                break
        for n, i in enumerate(live):
            result[i] = float(lo[n])
    return result


def _open_searches(requests: Sequence[tuple]) -> list[float | None]:
    """:func:`open_iops_at_latency` (4 rounds) of many paths at once: per request (stations, read fraction,
    demands (S,) seconds, the limit ms, the low end IOPS, the saturation IOPS), by :func:`_search`."""
    rows = _Rows([(_static(specs, float(rf)), np.asarray(demands, dtype=float)[None, :])
                  for specs, rf, demands, _l, _low, _sat in requests])
    n = len(requests)
    return _search(rows, np.arange(n), np.array([float(r[3]) for r in requests]),
                   np.array([float(r[4]) for r in requests]), [float(r[5]) for r in requests], np.arange(n), 4)


def _grid_grouped(lo: np.ndarray, hi: np.ndarray, group: np.ndarray) -> np.ndarray:
    """:func:`_grid` of rows that belong to several searches (``group``: each row's search): a search with a zero
    step in one of its rows spaces all of its rows as ``np.linspace`` does (as :func:`_grid` of that search's rows
    alone would), the others by the step."""
    delta = hi - lo
    step = delta / OPEN_SEARCH_GRID
    zero = step == 0
    grid = _GRID_STEPS[None, :] * step[:, None] + lo[:, None]
    if zero.any():
        spaced = np.isin(group, group[zero])
        grid[spaced] = (_GRID_STEPS / OPEN_SEARCH_GRID)[None, :] * delta[spaced, None] + lo[spaced, None]
    grid[:, -1] = hi
    return grid


def _edge_curves(xs: np.ndarray, ys: np.ndarray, y_list: list[float], latency: np.ndarray,
                 scales: tuple[float, float], saturation: float) -> tuple[list, list]:
    """The latency band's edges (P10, P90 lists, as :func:`_carried_edges` gives them) along one curve (``xs``
    IOPS, ``ys`` its drawn latencies, ms) from the band's two edge models (:func:`models.performance.discrepancy
    .edge_scales`): ``latency`` (4, >= P) the open model's latency (ms, +inf where saturated) of the nominal
    demands at the IOPS k_lo xs, of the nominal demands at k_hi xs, of the P10 demands at k_lo xs and of the P90
    demands at k_hi xs;
    ``scales`` (k_hi, k_lo); ``saturation``: the saturation (IOPS) of the P90 demands over every station (the
    storage-side latency does not see a host-side station's). An edge model's latency at x is k times the drawn
    latency at k x (every demand times k), with the open model's ratio of the edge's uncertain demands to the
    nominal ones at k x (at least 1 on the pessimistic side, at most 1 on the optimistic); past the drawn curve the
    drawn latency is the open model's (the curve's continuation is). The pessimistic edge is saturated (None) from
    the IOPS where its model saturates,
    the saturation band's P10."""
    n = len(xs)
    k_hi, k_lo = scales
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        edges = []
        for pessimistic, k, nominal, edge in ((False, k_lo, latency[0, :n], latency[2, :n]),
                                              (True, k_hi, latency[1, :n], latency[3, :n])):
            at = xs * k
            drawn = np.where(at <= xs[-1], np.interp(at, xs, ys), nominal) if n else at
            ratio = edge / nominal
            if pessimistic:
                ratio = np.where(np.isfinite(ratio), np.maximum(ratio, 1.0), np.inf)
                value = np.where(np.isfinite(edge) & np.isfinite(drawn), k * drawn * ratio, np.inf)
            else:
                ratio = np.where(np.isfinite(ratio), np.minimum(ratio, 1.0), 1.0)
                value = k * drawn * ratio
            edges.append(value)
    raw10, raw90 = edges
    finite_hi = np.isfinite(raw90) & (xs * k_hi < saturation)
    return _carried_edges(ys, raw10, y_list, np.where(finite_hi, raw90, 0.0), finite_hi)


def _carried_edges(ys: np.ndarray, raw10: np.ndarray, y_list: list[float], widened: np.ndarray,
                   finite_hi: np.ndarray) -> tuple[list, list]:
    """The band's edges along a curve (``ys`` its latencies, ms) carried up to the highest value each had at a lower
    load (:func:`_with_bands_many`' docstring): P10 from ``raw10`` (each point's, <= its latency), P90 from ``widened``
    where ``finite_hi`` (None elsewhere). Each edge is min(max(edge, the last), latency) (P10) or max(edge, the
    last) (P90), from 0; where the latencies do not fall along the curve (always, but checked) and P10's edges are
    within them, that is a running maximum (the latency cap never binds), computed at once."""
    p10: list
    p90: list
    if len(ys) and bool((ys[1:] >= ys[:-1]).all()) and bool((raw10 <= ys).all()) and bool((raw10 >= 0.0).all()):
        p10 = np.minimum(np.maximum.accumulate(raw10), ys).tolist()
    else:
        p10 = []
        floor10 = 0.0
        for y, lo in zip(y_list, raw10.tolist()):
            floor10 = min(max(lo, floor10), y)
            p10.append(floor10)
    carried = np.maximum.accumulate(np.maximum(np.where(finite_hi, widened, 0.0), 0.0)).tolist()
    p90 = carried if finite_hi.all() else [v if ok else None for v, ok in zip(carried, finite_hi.tolist())]
    return p10, p90


def _curve_shape(path: WorkloadPath, r: Ramp, sat: float, bottleneck: int | None, xs: np.ndarray, ys: np.ndarray,
                 probes: Sequence[float]) -> CurveShape:
    """Light-load latency and latency at 50% / 80% of saturation on the drawn curve (``xs`` IOPS, ``ys`` ms: the
    closed ramp's kept points, then its open continuation; the open model where neither reaches), and the knee
    note (:mod:`models.performance.knee`). ``probes``: the open model's storage latency (ms, inf where saturated)
    at 0 IOPS and, when the saturation is finite, at 50% and 80% of it."""
    rf = path.read_fraction
    light = _finite(probes[0]) or float(r.storage_ms[0])
    at: dict[float, float | None] = {}
    for k, share in enumerate((0.5, 0.8)):
        if not math.isfinite(sat):
            at[share] = None
            continue
        x = share * sat
        if len(xs) and xs[0] <= x <= xs[-1]:
            at[share] = float(np.interp(x, xs, ys))
        else:
            at[share] = _finite(probes[k + 1])
    ratio = at[0.8] / light if at[0.8] is not None and light > 0 else None
    note = knee_note(path.stations, r.demand_s, rf, bottleneck, ratio)
    return CurveShape(light, at[0.5], at[0.8], ratio, note)


def solve_with_targets(path: WorkloadPath, others: Sequence[tuple[WorkloadPath, float]], curve_points: int,
                       slo_statistic: str = "mean") -> WorkloadPerformance:
    """One workload's prediction with its own open operating point: the open model of ``path`` at its target
    together with ``others`` (path, IOPS) at theirs, then :func:`solve_workload`. Used for paths that are not the
    scenario's own (failure states, :mod:`models.performance.resilience`)."""
    rates = {o.workload.id: rate for o, rate in others}
    target = target_rate(path.workload)
    if target is not None:
        rates[path.workload.id] = target
    open_result = _open_system([path, *(o for o, _ in others)], rates) if rates else None
    wp, _ = solve_workload(path, others, curve_points, open_result, slo_statistic=slo_statistic)
    return wp


def evaluate_paths(scenario: Scenario, catalog: Catalog, raid: Mapping[str, RaidLayout] | None = None
                   ) -> tuple[list[WorkloadPath], list[str]]:
    """Build the path of every enabled workload; workloads whose path fails become problem strings. ``raid``: the
    scenario's RAID layouts (``models.capacity.layout.raid_layouts``); None: each target system's layout is built
    here once (``system_layout``) and shared by the workloads on it."""
    last = _LAST_PATHS.get("key")
    if last is not None and last[0] is scenario and last[1] is catalog and last[2] is raid:
        return list(last[3]), list(last[4])  # the same design objects (frozen): the normal state's paths again
    paths, problems, _ = build_paths(scenario, catalog, raid)
    _LAST_PATHS["key"] = (scenario, catalog, raid, tuple(paths), tuple(problems))
    return paths, problems


_LAST_PATHS: dict[str, tuple] = {}
"""The last :func:`evaluate_paths` call's design objects and result: the failure states of an evaluation build the
paths the normal state has just built (the scenario and catalog are frozen, so the same objects give the same
paths)."""


def build_paths(scenario: Scenario, catalog: Catalog, raid: Mapping[str, RaidLayout] | None
                ) -> tuple[list[WorkloadPath], list[str], dict[str, str]]:
    """:func:`evaluate_paths` without the reuse of the last call's result, with each failed workload's build error
    by workload id (the sizer's screening reads it): (paths in scenario order, problems in scenario order, workload
    id -> its ``PathError`` message). Raises nothing for a bad topology."""
    if raid is None:
        targets = dict.fromkeys(w.target for w in scenario.workloads if w.performance_enabled)
        raid = {t: layout for t in targets if (layout := system_layout(scenario, catalog, t)) is not None}
    paths: list[WorkloadPath] = []
    problems: list[str] = []
    errors: dict[str, str] = {}
    alike: dict[str, WorkloadPath] = {}
    with shared_host_sides():  # the workloads of one front end share its host side
        for w in scenario.workloads:
            if not w.performance_enabled:
                continue
            key = _path_key(w)
            hit = alike.get(key)
            if hit is not None:  # a workload alike in every field a path reads: the path built for the first
                paths.append(replace(hit, workload=w))
                continue
            try:
                path = build_path(scenario, catalog, w, raid)
            except PathError as exc:
                problems.append(str(exc))
                errors[w.id] = str(exc)
                continue
            alike[key] = path
            paths.append(path)
    return paths, problems, errors


def _path_key(workload: Workload) -> str:
    """What a workload's path (:func:`build_path`, in one design) depends on of the workload: every field but its id
    and name, which only name it in a build error (the path holds the workload itself, which is set apart), as
    text (each value's ``repr``: a float's exactly). Workloads alike but for their names (a design's many copies of
    one workload) share their path's stations, notes and profile: built once per evaluation instead of for each."""
    return repr([value for name, value in workload.__dict__.items() if name not in _NAMING_FIELDS])


_NAMING_FIELDS = frozenset({"id", "name"})
"""The workload fields no path depends on (:func:`_path_key`)."""


def _by_system(paths: Sequence[WorkloadPath]) -> dict[str, list[WorkloadPath]]:
    """Workload paths grouped by the system they run on, in scenario order."""
    by_system: dict[str, list[WorkloadPath]] = {}
    for p in paths:
        by_system.setdefault(p.system, []).append(p)
    return by_system


def evaluate_performance(scenario: Scenario, catalog: Catalog, settings: Settings | None = None,
                         raid: Mapping[str, RaidLayout] | None = None, slo_statistic: str = "mean",
                         curve_tails: bool = True, bands: bool = True) -> ScenarioPerformance:
    """Predict every enabled workload of a scenario.

    Args:
        scenario: the topology and workloads; catalog: records for its catalog ids; settings: project settings
            (``curve_points`` thins each ramp; default ``Settings()``); raid: the scenario's RAID layouts
            (``models.capacity.layout.raid_layouts``, shared with the capacity engine); None: built here;
            slo_statistic: what the workloads' SLOs bound, "mean" (default) or "p99" (``Requirements.slo_statistic``;
            ``models.performance.tail_latency``); curve_tails: False leaves the curves' p95 / p99 out (None), for
            callers that read figures only (the percentiles at the target and a p99 SLO's search are computed either
            way, :func:`solve_jobs`); bands: False leaves the curves and every band out (:func:`solve_jobs`), for
            callers that read the figures only.

    Returns:
        A :class:`ScenarioPerformance`; workloads whose path cannot be built are left out and named in
        ``problems``. No number in it is NaN or inf.

    Raises:
        Nothing for bad topology (it becomes ``problems``); ValueError only for programming errors.
    """
    settings = settings or Settings()
    _paths, problems, jobs = performance_jobs(scenario, catalog, raid)
    return performance_result(scenario, problems,
                              solve_jobs(jobs, settings.curve_points, slo_statistic, curve_tails, bands))


Job = tuple[WorkloadPath, Mapping[str, float], _OpenSystem | None]
"""One workload's solve as :func:`solve_jobs` takes it: (path, the others' utilisation by station name, the open
solution at the targets or None)."""


def performance_jobs(scenario: Scenario, catalog: Catalog, raid: Mapping[str, RaidLayout] | None = None,
                     loads_out: dict[str, SystemLoads] | None = None
                     ) -> tuple[list[WorkloadPath], list[str], list[Job]]:
    """What :func:`evaluate_performance` solves: (the paths, :func:`evaluate_paths`', the problems so far, one
    :data:`Job` per path, by system in scenario order), for :func:`performance_result` after :func:`solve_jobs`.
    ``loads_out``: filled with each system's :class:`SystemLoads` at the targets (system id -> loads), which the
    failure states of the same paths start from (``models.performance.resilience``) instead of summing them again."""
    paths, problems = evaluate_paths(scenario, catalog, raid)
    jobs: list[Job] = []
    for system, group in _by_system(paths).items():
        rates = {p.workload.id: t for p in group if (t := target_rate(p.workload)) is not None}
        try:
            open_result = _open_system(group, rates) if rates else None
        except ValueError as exc:
            problems.append(f"{system}: open model failed: {exc}")
            open_result = None
        loads = SystemLoads(group, rates)
        if loads_out is not None:
            loads_out[system] = loads
        for p in group:
            jobs.append((p, loads.others_utilisation(p, [spec.name for spec in p.stations]), open_result))
    return paths, problems, jobs


def performance_result(scenario: Scenario, problems: Sequence[str], results: list[WorkloadPerformance]
                       ) -> ScenarioPerformance:
    """:func:`evaluate_performance`'s result from :func:`performance_jobs`' problems and the solved jobs."""
    order = {w.id: i for i, w in enumerate(scenario.workloads)}
    results.sort(key=lambda wp: order.get(wp.workload_id, 0))
    solved = {wp.workload_id for wp in results}
    unserved = tuple((w.id, w.name, unserved_reason(w.name, problems)) for w in scenario.workloads
                     if w.performance_enabled and w.id not in solved)
    notes = ("closed ramps: MVA over the path's stations, each device its own queue (drives, ports, processor "
             "cores), Seidmann's split for multi-server queues and Reiser's residual-life correction for "
             "non-exponential service; operating points: the open multi-class model at the targets with "
             "Allen-Cunneen's G/G/c approximation (the same station model)",)
    return ScenarioPerformance(tuple(results), tuple(problems), notes, unserved)


def unserved_reason(name: str, problems: Sequence[str]) -> str:
    """Why workload ``name`` has no figures, from the path errors in ``problems`` (``PathError`` messages): the first
    naming it, without its "workload '<name>': " lead and :data:`NOT_EVALUATED` tail; a general sentence when none
    names it."""
    lead = f"workload '{name}': "
    for message in problems:
        if message.startswith(lead):
            return message[len(lead):].removesuffix(NOT_EVALUATED)
    for message in problems:
        if f"workload '{name}'" in message:
            return message.removesuffix(NOT_EVALUATED)
    return "its I/O path could not be built (see the problems)"


def figures_at_targets(scenario: Scenario, catalog: Catalog, raid: Mapping[str, RaidLayout] | None = None
                       ) -> dict[str, tuple[float | None, tuple[StationLoad, ...]]] | None:
    """Each rated workload's storage-side latency at its target (ms, None where saturated or unstable) and its
    stations there, exactly as :func:`evaluate_performance` reports them (``latency_at_target_ms``, ``stations``),
    from the open model alone: neither needs the closed ramp, its curve or its bands (the replication transfer
    window reads only these). Workloads without a target, or whose path cannot be built, are absent.

    Returns:
        workload id -> (latency at target ms, stations), or None when a rated workload's figures would need its
        closed ramp (its system's open model failed): then solve with :func:`evaluate_performance`.
    """
    paths = _paths_with_added(scenario, catalog, raid)  # not evaluate_paths: it would forget the design's own paths
    out: dict[str, tuple[float | None, tuple[StationLoad, ...]]] = {}
    for group in _by_system(paths).values():
        rates = {p.workload.id: t for p in group if (t := target_rate(p.workload)) is not None}
        if not rates:
            continue
        try:
            open_result = _open_system(group, rates)
        except ValueError:
            return None
        loads = SystemLoads(group, rates)
        for p in group:
            target = rates.get(p.workload.id)
            if target is None:
                continue
            if open_result is None or p.workload.id not in open_result.classes or not p.stations:
                return None
            util = loads.others_utilisation(p, [spec.name for spec in p.stations])
            factors, _notes = _background(p, (), util)
            arrays = _static(p.stations, float(p.read_fraction))
            shares = arrays.shares.tolist()
            sat, _b = _saturation_index(arrays, factors)
            latency = None
            if open_result.stable and target < sat:
                latency, _host, _factors = _open_at_target(p, shares, open_result)
            if math.isfinite(sat) and target >= sat:  # at saturation, as solve_workload shows it
                background = np.array([util.get(spec.name, 0.0) for spec in p.stations], dtype=float)
                demand_s = arrays.demand * np.asarray(factors, dtype=float) if len(factors) else arrays.demand.copy()
                stations, _f = _station_loads_at(p, arrays, demand_s, background, float(sat), shares, factors, None)
            else:
                stations = _open_station_loads(p, shares, open_result)
            out[p.workload.id] = (_finite(latency), tuple(stations))
    return out


def _paths_with_added(scenario: Scenario, catalog: Catalog, raid: Mapping[str, RaidLayout] | None
                      ) -> list[WorkloadPath]:
    """``build_paths(scenario, catalog, raid)``'s paths, where ``scenario`` is the last :func:`evaluate_paths`
    design's (the same catalog and RAID layouts, the same node and link lists) with workloads added that store no
    data (the replication transfer window's: ``models.replication.load``) taking that design's paths for its own
    workloads, and building only the others. A path reads the other workloads of its scenario only through the
    bytes stored on its system (``paths._stored_bytes``: a workload of no dataset adds 0.0 to that sum, which
    changes no float), so the paths are the same objects' values as built again; any other scenario is built
    whole."""
    last = _LAST_PATHS.get("key")
    if last is None or raid is None or last[1] is not catalog or last[2] is not raid:
        return build_paths(scenario, catalog, raid)[0]
    base: Scenario = last[0]
    own = len(base.workloads)
    added = scenario.workloads[own:]
    if (base.nodes is not scenario.nodes or base.links is not scenario.links or len(scenario.workloads) < own
            or any(a is not b for a, b in zip(base.workloads, scenario.workloads))
            or any(w.dataset_bytes != 0 for w in added)):
        return build_paths(scenario, catalog, raid)[0]
    known = {id(p.workload): p for p in last[3]}
    paths: list[WorkloadPath] = []
    with shared_host_sides():
        for w in scenario.workloads:
            if not w.performance_enabled:
                continue
            path = known.get(id(w))
            if path is None or path.workload is not w:
                try:
                    path = build_path(scenario, catalog, w, raid)
                except PathError:
                    continue
            paths.append(path)
    return paths


def curve_rows(wp: WorkloadPerformance) -> list[dict]:
    """Rows for ``storplan curve``: one dict per curve point with ``iops``, ``latency_ms`` (storage side),
    ``mbps``, ``host_latency_ms`` (None where not modelled) and ``population``."""
    return [
        {"iops": p.iops, "latency_ms": p.latency_ms, "mbps": p.mbps, "host_latency_ms": p.host_latency_ms,
         "population": p.population}
        for p in wp.curve
    ]
