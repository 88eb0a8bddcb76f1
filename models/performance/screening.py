"""The sizer's batched performance check: many candidate designs' figures from one batched solve.

The sizer (``models.sizing``) needs of each candidate design only a few of the figures a full evaluation
(:func:`models.performance.engine.evaluate_performance` and, with the SLO in takeover required,
:func:`models.performance.resilience.evaluate_states`) computes: per workload its saturation, its max IOPS at the
SLO (and that figure's P10 band edge when ranking on "p90"), and whether its takeover / cloud failover state meets
the SLO at the target. This module computes exactly those, by the same functions and in the same order as the full
evaluation, for many designs at once:

1. each design's paths are built once (:func:`design_paths`) and shared by the saturation screen, the HA-partner
   test, the check and the failover states (the full evaluation rebuilt them for each of those);
2. every closed ramp of every design of a batch is solved in one batched call per (queueing stations,
   population) (:func:`solve_requests`, the MVA recursion vectorised across the networks); the sizer solves the
   ramps of the designs it is about to reach in batches of their own, larger than the chunks it checks
   (:func:`design_ramp_requests`, ``check_designs(..., ramps=...)``);
3. per workload, the max IOPS at the SLO is read from its ramp (and the open model's continuation when the ramp
   ends inside the SLO), as ``solve_workload`` reads it; curves, stations, bands of the curve points and notes,
   which the sizer does not read, are not computed;
4. a failover state's verdict is the open model at the targets (the closed ramp of the state is not needed for
   it: ``solve_workload`` decides ``target_met`` from the open solution alone).

The figures equal the full evaluation's (``tests/test_sizer_golden.py``, ``tests/test_sizing.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from models.capacity.layout import RaidLayout
from models.catalog import Catalog
from models.performance.bands import band_factors, demand_sd, ordered
from models.performance.bound import bound_words
from models.performance.discrepancy import edge_scales, figure_sigma, input_rel_sd, widened_figures
from models.performance.engine import (
    _CURVE_CACHE,
    SystemLoads,
    _assemble,
    _background,
    _by_system,
    _curve,
    _curve_key,
    _finite,
    _open_iops_at_latency_rows,
    _others_utilisation,
    _queue_arrays,
    _remember,
    _static,
    build_paths,
    iops_at_latency,
    open_iops_at_latency,
    ramp,
    saturation_iops,
    target_rate,
)
from models.performance.paths import WorkloadPath
from models.performance.states import DegradedPath, cloud_failover, takeover
from models.performance.tail_latency import max_iops_at_tail_slo, slo_probability, tail_ms, tail_stations
from models.project.model import Scenario
from models.queueing.general_service import closed_ramp_batch, closed_ramp_batches


@dataclass(frozen=True)
class DesignPaths:
    """One design's workload paths, built once.

    Attributes:
        paths: the enabled workloads' paths whose build succeeded, in scenario order; problems: the build errors
        (``PathError`` messages) in scenario order, as ``evaluate_paths`` names them; errors: workload id -> its
        build error.
    """

    paths: tuple[WorkloadPath, ...]
    problems: tuple[str, ...]
    errors: dict[str, str] = field(default_factory=dict)


def design_paths(scenario: Scenario, catalog: Catalog, raid: Mapping[str, RaidLayout] | None = None
                 ) -> DesignPaths:
    """Every enabled workload's path of ``scenario`` (``build_path``, each target system's RAID layout built once
    and shared, as ``models.performance.engine.evaluate_paths`` builds them); a workload whose path fails is named
    in ``problems`` and ``errors`` instead. ``raid``: the scenario's RAID layouts when built already
    (``models.capacity.layout.raid_layouts``, shared with the capacity engine); None: built here. Raises nothing
    for a bad topology."""
    paths, problems, errors = build_paths(scenario, catalog, raid)
    return DesignPaths(tuple(paths), tuple(problems), errors)


@dataclass(frozen=True)
class WorkloadCheck:
    """One workload's figures the sizer reads, as ``WorkloadPerformance`` has them.

    Attributes:
        workload_id, name: the workload's; target_iops: its target rate (IOPS; None without a target);
        saturation_iops: the open model's saturation (the ramp's last IOPS where no station queues), IOPS;
        max_iops_at_slo: the highest IOPS within the SLO (None when even one outstanding I/O misses it);
        max_iops_at_slo_band_p10: that figure's P10 edge (None when not asked for or when it does not exist);
        bound: what bounds the max IOPS at the SLO, in words (``models.performance.bound.bound_words`` of the
        saturation's bottleneck; "" when no station queues).
    """

    workload_id: str
    name: str
    target_iops: float | None
    saturation_iops: float
    max_iops_at_slo: float | None
    max_iops_at_slo_band_p10: float | None = None
    bound: str = ""


@dataclass(frozen=True)
class DesignCheck:
    """One design's performance figures for the sizer: ``problems`` (paths that could not be built) and one
    :class:`WorkloadCheck` per workload whose path was built, in scenario order."""

    problems: tuple[str, ...]
    workloads: tuple[WorkloadCheck, ...]


def _jobs(paths: Sequence[WorkloadPath]) -> list[tuple[WorkloadPath, dict[str, float]]]:
    """(path, the other workloads' utilisation by station name) per path, in the order of ``paths``, as
    ``evaluate_performance`` builds its jobs (one :class:`SystemLoads` per system)."""
    util: dict[int, dict[str, float]] = {}
    for group in _by_system(paths).values():
        if len(group) == 1:  # no other workload on its system: nothing loads it (SystemLoads gives {})
            util[id(group[0])] = {}
            continue
        rates = {p.workload.id: t for p in group if (t := target_rate(p.workload)) is not None}
        loads = SystemLoads(group, rates)
        for p in group:
            util[id(p)] = loads.others_utilisation(p, [spec.name for spec in p.stations])
    return [(p, util[id(p)]) for p in paths]


def _request(path: WorkloadPath, factors: Sequence[float]) -> tuple:
    """The closed ramp of ``path`` with its demands inflated by ``factors``, as ``ramp_requests`` gives it."""
    rf = float(path.read_fraction)
    w = path.workload
    return (tuple(path.stations), tuple(spec.demand(rf) * f for spec, f in zip(path.stations, factors)), rf,
            int(w.concurrency), float(w.think_time_ms / 1e3))


def _slo_band_p10(path: WorkloadPath, demand_s: np.ndarray, factors: Sequence[float], sat: float,
                  max_slo: float | None) -> float | None:
    """The P10 edge of the max IOPS at the SLO, as ``engine._with_bands_many`` computes its "slo" band: the
    pessimistic edge model (the uncertain demands at their P90, then every demand times the scale that makes it
    saturate at the saturation band's P10, :func:`models.performance.discrepancy.edge_scales`) searched by the open
    model, its ratio to the nominal search applied to the figure, no higher than the saturation band's P10."""
    sd = demand_sd(path.stations, path.uncertainty) + input_rel_sd(path.stations)
    rf = path.read_fraction
    base = np.asarray(factors, dtype=float)
    _, neck = saturation_iops(path.stations, rf, list(base))
    sigma = figure_sigma(path.uncertainty.profile if path.uncertainty is not None else "", path.stations, neck)
    if sd.any():
        low_f, high_f = band_factors(sd)
        sat_hi, _ = saturation_iops(path.stations, rf, list(base * low_f))
        sat_lo, _ = saturation_iops(path.stations, rf, list(base * high_f))
        sat_param = (ordered(sat_lo, sat, sat_hi).p10, ordered(sat_lo, sat, sat_hi).p90) if math.isfinite(sat) \
            else (None, None)
    else:
        low_f = high_f = np.ones(len(path.stations))
        sat_hi = sat_lo = sat
        sat_param = (sat, sat)
    sat_edges = widened_figures(sat, sat_param, None, (None, None), sigma)[0]
    if max_slo is None:
        return None
    nominal_open = x_pes = None
    k_hi, k_lo = edge_scales(sat, (sat_lo, sat_hi), sat_edges, sigma)
    if math.isfinite(sat):
        st = _static(path.stations, float(rf))
        d = demand_s
        slo = float(path.workload.slo_ms)
        nominal_open, _x_opt, x_pes = _open_iops_at_latency_rows(
            st, np.stack([d, d * low_f, d * high_f]), (slo, slo / k_lo, slo / k_hi), 1e-9, (sat, sat_hi, sat_lo), 2)
    if not nominal_open:
        return _finite(widened_figures(sat, sat_param, max_slo, (max_slo, max_slo), sigma)[1][0])
    if x_pes is None:
        return None
    lo = max_slo * x_pes / k_hi / nominal_open
    if sat_edges[0] is not None:
        lo = min(lo, sat_edges[0])
    return _finite(min(lo, max_slo))


def design_ramp_requests(design: DesignPaths) -> list[tuple]:
    """The closed ramps :func:`check_designs` solves for one design, in the order of its paths, as
    ``models.performance.engine.ramp_requests`` gives them: (stations, demands inflated by the other workloads'
    targets on the same system, read fraction, population, think time s). Raises nothing."""
    jobs = _jobs(design.paths)
    return [_request(p, _background(p, (), util)[0]) for p, util in jobs]


SUMMED_IN_ORDER_BELOW = 8
"""Queueing classes below which numpy sums one network's residences in the order it sums them for many networks
(class by class; from 8 classes up it sums a lone network's pairwise, which rounds differently): a network of fewer
classes that is alone in its group is solved with the others; one of more is solved alone, so that its floats are
those the engine gives it (a test compares them on random networks)."""


def _batch_arrays(items: Sequence[tuple]
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One group's networks (as :func:`solve_requests` gathers them) as ``closed_ramp_batch``'s arrays: (service,
    servers, copies, v_closed) (B, K) of the queueing classes, fixed delays and think times (B,)."""
    return (np.array([it[2][it[6]] for it in items]), np.array([it[3] for it in items]),
            np.array([it[4] for it in items]), np.array([it[5] for it in items]), np.array([it[7] for it in items]),
            np.array([it[8] for it in items]))


def solve_requests(requests: Sequence[tuple]) -> list[tuple[np.ndarray, np.ndarray]]:
    """The closed ramps of ``requests`` (:func:`design_ramp_requests`), in order: the batched engine.

    Ramps in the engine's ramp cache are read from it; the others of one population are solved together, in one
    recursion, by :func:`~models.queueing.general_service.closed_ramp_batches` (the MVA recursion vectorised across
    the networks, each group of one number of queueing stations padded with stations of no work: the numbers of
    ``closed_ramp_batch`` per group, as ``models.performance.engine.solve_ramps`` calls it, float for float; a lone
    network of :data:`SUMMED_IN_ORDER_BELOW` stations or more is solved alone, as there), each network once however
    many designs ask for it, and a ramp of delays alone as ``engine._curve`` solves it. Every
    ramp solved is kept in the ramp cache for the evaluations that follow. Unlike ``solve_ramps`` the values are
    returned, so a batch larger than the cache loses none of them.

    Returns:
        (X (N,) throughputs jobs/s, R (N, S) residence per station s) per request, as ``engine._curve`` gives it.
    """
    out: list[tuple[np.ndarray, np.ndarray] | None] = [None] * len(requests)
    groups: dict[tuple[int, int], list] = {}
    first: dict[tuple, int] = {}  # a network asked for twice (designs alike but for what the ramp reads) solved once
    again: list[tuple[int, int]] = []
    for i, (specs, demands, rf, population, think_s) in enumerate(requests):
        key = _curve_key(specs, demands, rf, population, think_s)
        if key in first:
            again.append((i, first[key]))
            continue
        first[key] = i
        hit = _CURVE_CACHE.get(key)
        if hit is not None:
            _CURVE_CACHE.move_to_end(key)
            out[i] = hit
            continue
        service, servers, copies, v_closed, _, is_queue = _queue_arrays(specs, demands, rf)
        q = np.flatnonzero(is_queue)
        if q.size == 0:
            out[i] = _curve(specs, demands, rf, population, think_s)
            continue
        groups.setdefault((int(q.size), population), []).append(
            (i, key, service, servers[q], copies[q], v_closed[q], is_queue, float(service[~is_queue].sum()), think_s))
    # per population, every group in one recursion (its steps are most of a batch's cost), but a lone network of
    # SUMMED_IN_ORDER_BELOW classes or more alone (numpy sums its classes in another order than a batch's)
    together: dict[int, list[list]] = {}
    alone: list[tuple[int, list]] = []
    for (classes, population), items in groups.items():
        if len(items) == 1 and classes >= SUMMED_IN_ORDER_BELOW:
            alone.append((population, items))
        else:
            together.setdefault(population, []).append(items)
    solved: list[tuple[list, tuple[np.ndarray, np.ndarray]]] = []
    for population, batch in together.items():
        solved += zip(batch, closed_ramp_batches([_batch_arrays(items) for items in batch], population))
    for population, items in alone:
        solved.append((items, closed_ramp_batch(*_batch_arrays(items), population, per_station=True)))
    for items, (X, R) in solved:
        for b, (i, key, service, _c, _m, _v, is_queue, _d, _t) in enumerate(items):
            value = _assemble(service, is_queue, X[b], R[b])
            _remember(key, value)
            out[i] = value
    for i, j in again:
        out[i] = out[j]
    return [value for value in out if value is not None]


def check_designs(designs: Sequence[DesignPaths], bands: bool = False, slo_statistic: str = "mean",
                  ramps: Sequence[Sequence[tuple[np.ndarray, np.ndarray]]] | None = None) -> list[DesignCheck]:
    """The sizer's figures of many designs, their closed ramps solved together.

    Args:
        designs: each design's paths (:func:`design_paths`); bands: also the P10 edge of each max IOPS at the SLO
            (ranking on "p90"); slo_statistic: what the SLOs bound, "mean" or "p99" (``Requirements.slo_statistic``:
            the max IOPS at a p99 SLO by ``models.performance.tail_latency``, as ``evaluate_performance`` finds it).
        ramps: per design, its paths' closed ramps already solved (:func:`design_ramp_requests` solved by
            :func:`solve_requests`, e.g. in a larger batch ahead of the check); None: solved here, together.

    Raises:
        ValueError: ``ramps`` not giving one ramp per built path of each design.

    Returns:
        One :class:`DesignCheck` per design, in order: the same saturation, max IOPS at the SLO (and band edge) as
        ``evaluate_performance`` of the design gives (the same functions on the same paths and ramps). Its
        problems are the path build errors: the normal state's open model at the targets, which the check does not
        read, is not built (for paths that were built it raises nothing, so it adds no problem there either).
    """
    jobs = [_jobs(d.paths) for d in designs]
    factors = [[_background(p, (), util)[0] for p, util in design] for design in jobs]
    if ramps is None:  # every ramp of the batch solved here, vectorised across the designs
        requests = [_request(p, f) for design, fs in zip(jobs, factors) for (p, _), f in zip(design, fs)]
        solved = iter(solve_requests(requests))
    else:
        if len(ramps) != len(designs) or any(len(r) != len(j) for r, j in zip(ramps, jobs)):
            raise ValueError("ramps must give one solved ramp per built path of each design")
        solved = iter([r for design in ramps for r in design])
    out = []
    probability = slo_probability(slo_statistic)
    for d, design, fs in zip(designs, jobs, factors):
        checks = []
        for (path, util), f in zip(design, fs):
            w = path.workload
            rf = path.read_fraction
            r = ramp(path.stations, rf, w.concurrency, w.think_time_ms / 1e3, f, next(solved))
            sat, b_idx = saturation_iops(path.stations, rf, f)
            slo = w.slo_ms
            if probability is not None:
                background = np.array([util.get(spec.name, 0.0) for spec in path.stations], dtype=float)
                max_slo = max_iops_at_tail_slo(tail_stations(path.stations, float(rf)), r.iops, r.residence_ms,
                                               r.demand_s, background, slo, sat, probability)
            else:
                max_slo = iops_at_latency(r.iops, r.storage_ms, slo)
            if probability is None and bool(r.storage_ms[-1] <= slo):
                extended = open_iops_at_latency(path.stations, r.demand_s, slo, float(r.iops[-1]), sat, rf)
                if extended is not None and extended > (max_slo or 0.0):
                    max_slo = extended
            p10 = _slo_band_p10(path, r.demand_s, f, sat, max_slo) if bands else None
            checks.append(WorkloadCheck(w.id, w.name, target_rate(w),
                                        float(sat) if math.isfinite(sat) else float(r.iops[-1]), _finite(max_slo),
                                        p10, bound_words(None if b_idx is None else path.stations[b_idx],
                                                         path.protocol, path.notes)))
        out.append(DesignCheck(d.problems, tuple(checks)))
    return out


@dataclass(frozen=True)
class FailoverVerdict:
    """One workload's takeover (or cloud failover) state: ``state`` ("takeover" or "cloud_failover"), the
    workload's ``name`` and ``meets_slo`` (its latency at the target within the SLO in that state; None without a
    target), as ``evaluate_states`` gives them; ``latency_ms``: that latency (the mean storage latency, or the p99
    where the SLO is on it; None: saturated or no target); ``saturation_iops``: the workload's saturation in that
    state, the others of its system at their targets (IOPS; None without a target); ``label``: the state's name
    where the platform calls it otherwise than its id (an E-Series takeover is a "controller failover"; "": the
    id's words)."""

    state: str
    name: str
    meets_slo: bool | None
    latency_ms: float | None = None
    saturation_iops: float | None = None
    label: str = ""


def paths_grown(paths: DesignPaths, months: int) -> DesignPaths:
    """``paths`` with each workload's IOPS (or MB/s) target grown over ``months`` at its IOPS growth
    (``models.units.growth_factor``: x (1 + g)^(months / 12)), for the takeover, failover and site-loss verdicts,
    which read the target from each path's workload (:func:`failover_verdicts`): the requirements ask for the SLO
    in those states at the grown target (``Requirements.meet_slo_in_takeover``), as the sizer and ``storplan
    evaluate`` both judge it. A path's stations (demands per I/O) do not depend on the target, so only the workload
    changes; ``paths`` itself when no target grows."""
    from models.units import growth_factor

    grown = []
    for p in paths.paths:
        w = p.workload
        growth = w.iops_growth_pct_per_year
        if growth and months and (w.target_iops or w.target_mbps):
            factor = growth_factor(growth, months)
            w = w.model_copy(update={"target_iops": w.target_iops * factor if w.target_iops else None,
                                     "target_mbps": w.target_mbps * factor if w.target_mbps else None})
            p = replace(p, workload=w)
        grown.append(p)
    if all(a is b for a, b in zip(grown, paths.paths)):
        return paths
    return replace(paths, paths=tuple(grown))


def failover_verdicts(design: DesignPaths,
                      states: Callable[[WorkloadPath, Sequence[tuple[WorkloadPath, float]]],
                                       Sequence[DegradedPath | None]] | None = None,
                      slo_statistic: str = "mean") -> list[FailoverVerdict | None]:
    """Per path of ``design`` (in order), its takeover or cloud failover state's verdict, None when its system has
    no HA partner: ``models.verdict.failover_state`` of ``evaluate_states(..., only=("takeover",
    "cloud_failover"))``, computed from the open model at the targets alone (what ``solve_workload`` decides
    ``target_met`` from: the state's closed ramp is not needed), each workload's state with the others of its
    system in the same state. ``states``: (path, its system's rated workloads as (path, IOPS)) -> the states to
    judge instead (the first that applies is the verdict; ``models.performance.site_loss`` asks for the site-loss
    states); None: takeover and cloud failover. ``slo_statistic``: "p99" judges the SLO on the 99th percentile at
    the target (``models.performance.tail_latency``), as ``solve_workload`` does."""
    paths = design.paths
    probability = slo_probability(slo_statistic)
    groups = _by_system(paths)
    rates = {system: {p.workload.id: t for p in group if (t := target_rate(p.workload)) is not None}
             for system, group in groups.items()}
    rated = {system: [(p, rates[system][p.workload.id]) for p in group if p.workload.id in rates[system]]
             for system, group in groups.items()}
    if states is None:
        found = [(path, state) for path in paths for state in (takeover(path), cloud_failover(path))
                 if state is not None]
    else:
        found = [(path, state) for path in paths for state in states(path, rated[path.system]) if state is not None]
    moved: dict[tuple[str, str], dict[int, WorkloadPath]] = {}
    for path, state in found:
        moved.setdefault((path.system, state.state), {})[id(path)] = state.path
    state_loads = {(system, sid): SystemLoads([degraded.get(id(p), p) for p in groups[system]], rates[system])
                   for (system, sid), degraded in moved.items()}
    first: dict[int, FailoverVerdict] = {}
    for path, state in found:
        if id(path) in first:
            continue  # the first failover state of a workload is the one the verdict reads
        system = state_loads[(path.system, state.state)]
        degraded = state.path
        util = system.others_utilisation(degraded, [spec.name for spec in degraded.stations])
        for name, u in _others_utilisation(state.background).items():
            util[name] = util.get(name, 0.0) + u
        open_result = system.open_for(degraded, degraded, state.background)
        w = degraded.workload
        target = target_rate(w)
        meets: bool | None = None
        latency = sat = None
        if target is not None:
            rf = degraded.read_fraction
            f, _ = _background(degraded, (), util)
            sat, _ = saturation_iops(degraded.stations, rf, f)
            latency = None
            if open_result is not None and w.id in open_result.classes and open_result.stable and target < sat:
                storage = 0.0
                waited = []
                for spec in degraded.stations:
                    res = open_result.stations[spec.name].per_class[w.id].residence_time_s or 0.0
                    waited.append(res * spec.latency_share(rf) * 1e3)
                    if spec.storage_side:
                        storage += res * spec.latency_share(rf)
                latency = storage * 1e3
                if probability is not None:
                    background = np.array([util.get(spec.name, 0.0) for spec in degraded.stations], dtype=float)
                    (tail,) = tail_ms(tail_stations(degraded.stations, float(rf)), np.array([target]),
                                      np.array([waited]), background, (probability,))
                    latency = float(tail[0]) if math.isfinite(float(tail[0])) else None
            meets = latency is not None and latency <= w.slo_ms
        first[id(path)] = FailoverVerdict(state.state, w.name, meets, latency,
                                          sat if sat is not None and math.isfinite(sat) else None,
                                          getattr(state, "label", ""))
    return [first.get(id(p)) for p in paths]
