"""Each workload in its failure states, and the growth runway: what the bad day and the next years do to the
predictions (issue "Size for the bad day").

:func:`evaluate_states` builds every applicable failure state of each workload's path
(:mod:`models.performance.states`), solves it with the same engine as the normal state (bands included) and says
whether the SLO still holds at the target. :func:`runway` turns each workload's growth into months until its SLO
breaks and until it saturates, on the rule every growth in StorPlan follows (:func:`models.units.growth_factor`,
as the capacity engine's months until full): value x (1 + g)^(months / 12).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from models.capacity.layout import RaidLayout
from models.capacity.rules import VSAN_HOST_REBUILD_RESERVE_DEF, vsan_policy_rule
from models.capacity.stretched import site_hosts
from models.catalog import Catalog, Drive
from models.performance.engine import (
    Job,
    SystemLoads,
    _by_system,
    _others_utilisation,
    evaluate_paths,
    performance_jobs,
    performance_result,
    solve_job_groups,
    target_rate,
)
from models.performance.paths import WorkloadPath
from models.performance.results import ScenarioPerformance, WorkloadPerformance, replace_figures
from models.performance.states import (
    DegradedPath,
    cloud_failover,
    drive_rebuild,
    host_failure,
    path_loss,
    site_failure,
    switchover,
    takeover,
)
from models.project.model import ControllerNode, HciClusterNode, Scenario, Settings
from models.units import monthly_growth_log

if TYPE_CHECKING:
    from models.capacity.results import CapacityResult
    from models.performance.paths import WorkloadPath

RUNWAY_HORIZON_MONTHS = 120.0
"""Runway figures beyond ten years are reported as None ("not within ten years")."""


@dataclass(frozen=True)
class StateResult:
    """One workload in one failure state.

    Attributes:
        state: one of :data:`models.performance.states.STATES`; reason: what the state does, in words;
        performance: the workload's full prediction in that state (curve, saturation, max IOPS at the SLO,
        latency at the target, bands); meets_slo: the target's latency is within the SLO in this state (None
        without a target); rebuild_hours: the time to rebuild (drive_rebuild only); relieved: (station name, share
        0..1 of its demand) of the work of normal operation the state stops (mirroring to a failed partner), the
        one way a state may be faster than normal operation or saturate later
        (``models.performance.states.DegradedPath.relieved``); empty for every other state.
    """

    state: str
    reason: str
    performance: WorkloadPerformance
    meets_slo: bool | None
    rebuild_hours: float | None = None
    relieved: tuple[tuple[str, float], ...] = ()
    label: str = ""
    """the state's name in words where the platform names it otherwise (``DegradedPath.label``: an E-Series
    "controller failover"); "" = the id's usual words."""


@dataclass(frozen=True)
class Runway:
    """Months until the first workload's SLO breaks and until it saturates at its growing target (fractional,
    the target grown as (1 + g)^(months / 12)); None where not within :data:`RUNWAY_HORIZON_MONTHS` or without
    growth."""

    months_until_slo_breach: float | None
    months_until_saturation: float | None


def _degraded(scenario: Scenario, catalog: Catalog, path: WorkloadPath,
              partner_load: Sequence[tuple[WorkloadPath, float]] = (),
              survivors: Mapping[str, WorkloadPath] | None = None) -> list[DegradedPath]:
    """Every failure state that applies to ``path``'s system, in :data:`STATES` order. The drive rebuild
    reconstructs over the RAID groups the path's drive stations stripe over (``path.raid_groups``: the system's
    RAID layout, ``models.capacity.layout.raid_layouts``, as the capacity engine built it). ``partner_load``: the
    system's rated workloads (path, IOPS) when its MetroCluster partner site runs the same ones
    (``partner_site_load = "mirror"``: the switchover serves both sites'), else empty; a stretched vSAN
    cluster's site failure names the system's rated workloads (all of them move to the surviving site).
    ``survivors``: workload id -> its path on the scenario with each (not stretched) vSAN OSA cluster one host
    smaller (:func:`_survivor_paths`), the host failure's disk groups."""
    out = []
    target = scenario.node(path.workload.target)
    record = catalog.find(target.catalog_id) if isinstance(target, ControllerNode) else None
    family = getattr(record, "family", "")  # only the takeover's words depend on it (an E-Series failover)
    for state in (takeover(path, family), path_loss(path)):
        if state is not None:
            out.append(state)
    if isinstance(target, ControllerNode) and path.raid_groups:
        drive = catalog.find(path.raid_groups[0].drive_id)
        if isinstance(drive, Drive):
            state = drive_rebuild(path, path.raid_groups, float(drive.right_sized_bytes), drive.max_write_mbps,
                                  target.rebuild_impact, ddp=target.raid_type == "ddp", family=family)
            if state is not None:
                out.append(state)
    if isinstance(target, HciClusterNode):
        state = host_failure(path, target.hosts, (survivors or {}).get(path.workload.id))
        if state is not None:
            out.append(state)
    mirror = isinstance(target, ControllerNode) and target.metrocluster != "none" \
        and target.partner_site_load == "mirror"
    for state in (cloud_failover(path), switchover(path, partner_load if mirror else ())):
        if state is not None:
            out.append(state)
    if isinstance(target, HciClusterNode) and target.stretched:
        names = [p.workload.name for p, _ in partner_load] or [path.workload.name]
        state = site_failure(path, names)
        if state is not None:
            out.append(state)
    return out


def survivor_clusters(scenario: Scenario) -> set[str]:
    """The ids of the vSAN clusters whose host failure takes the surviving disk groups from the cluster one host
    smaller (:func:`_survivor_paths`): OSA (a cache tier), 3 or more hosts, not stretched."""
    return {n.id for n in scenario.nodes
            if isinstance(n, HciClusterNode) and n.hosts >= 3 and not n.stretched and n.architecture == "osa"}


def _survivor_paths(scenario: Scenario, catalog: Catalog) -> dict[str, WorkloadPath]:
    """Workload id -> its path on ``scenario`` with every vSAN OSA cluster (a cache tier) of 3 or more hosts that is
    not stretched one host smaller (the host failure's disk groups: ``models.performance.states.host_failure``);
    empty without such a cluster. Workloads whose path cannot be built on the smaller cluster are absent (their
    host failure scales the normal path's stations instead)."""
    from models.performance.engine import build_paths

    shrink = survivor_clusters(scenario)
    if not shrink or not any(w.performance_enabled and w.target in shrink for w in scenario.workloads):
        return {}
    nodes = [n.model_copy(update={"hosts": n.hosts - 1}) if isinstance(n, HciClusterNode) and n.id in shrink else n
             for n in scenario.nodes]
    paths, _, _ = build_paths(scenario.model_copy(update={"nodes": nodes}), catalog, None)
    return {p.workload.id: p for p in paths if p.workload.target in shrink}


def evaluate_states(scenario: Scenario, catalog: Catalog, settings: Settings | None = None,
                    only: tuple[str, ...] | None = None,
                    raid: Mapping[str, RaidLayout] | None = None, slo_statistic: str = "mean",
                    bands: bool = True, paths: Sequence[WorkloadPath] | None = None
                    ) -> dict[str, tuple[StateResult, ...]]:
    """Workload id -> its failure states' results (states that do not apply are absent). Workloads whose path
    cannot be built are left out (the normal evaluation reports them). Other workloads on the same system run at
    their targets in the same state (a failure of one system's node affects every workload on it: each workload's
    state is solved with the others' degraded paths as background, so a taken-over partner's work moves to the
    survivor; a workload the state does not touch keeps its normal path).
    ``only``: solve just these states (ids of :data:`models.performance.states.STATES`; None: all), as the
    sizer's takeover requirement needs only takeover and failover. ``raid``: the scenario's RAID layouts
    (``models.capacity.layout.raid_layouts``, built once per evaluation); None: built once here
    (``evaluate_paths``). ``slo_statistic``: what the SLOs bound, "mean" or "p99" (``Requirements.slo_statistic``);
    the states' curves carry no p95 / p99 (their percentiles at the target do). ``bands``: False leaves out the
    states' curves and uncertainty bands (``engine.solve_jobs``' ``bands``: the figures themselves, saturation, max
    IOPS at the SLO, latency at the target and the SLO verdict, are the same numbers), for a caller that reads only
    those figures (the sizer's N+1 check). ``paths``: the scenario's normal paths when built already (every
    enabled workload's whose path builds, in scenario order: ``engine.build_paths`` of ``scenario`` with ``raid``);
    None: built here (``evaluate_paths``).

    Time linear in the workloads: each system's target load is summed once (``engine.SystemLoads``: a workload's
    share of the others' load is the sum less its own), each state's open model is built for its own workload
    only, and the closed ramps of every state are solved together (:func:`evaluate_states_many` of this one
    design: ``engine.solve_job_groups``); the figures equal those
    of solving each state alone with the others as its background, to rounding (tests/test_states_identical.py)."""
    paths = list(paths) if paths is not None else evaluate_paths(scenario, catalog, raid)[0]
    return evaluate_states_many([(scenario, paths, None)], catalog, settings, only, slo_statistic, bands)[0]


def evaluate_states_many(designs: Sequence[tuple[Scenario, Sequence[WorkloadPath] | None,
                                                 Mapping[str, WorkloadPath] | None]],
                         catalog: Catalog, settings: Settings | None = None, only: tuple[str, ...] | None = None,
                         slo_statistic: str = "mean", bands: bool = True) -> list[dict[str, tuple[StateResult, ...]]]:
    """:func:`evaluate_states` of many designs in one pass (the sizer's N+1 check of the HCI candidates it reaches
    together), each design's result what :func:`evaluate_states` of it alone gives, float for float
    (tests/test_states_many.py): each design's states and closed ramps are built and solved as there, the designs
    in order (so a later design finds an earlier one's ramps in the ramp cache as it would after that call), and the
    open-model searches of them all are answered together (``engine.solve_job_groups``, one group per design).

    Args:
        designs: per design (scenario, its normal paths when built already or None, as :func:`evaluate_states`'
            ``paths``; survivors: workload id -> its path on the scenario with each vSAN OSA cluster one host smaller
            when built already, exactly :func:`_survivor_paths` of the scenario (for a sizer candidate checked with
            its one spare host out, that smaller cluster's paths), or None: built here).
        catalog, settings, only, slo_statistic, bands: as :func:`evaluate_states`' (one catalog for every design).
    """
    settings = settings or Settings()
    built = []
    for scenario, paths, survivors in designs:
        paths = list(paths) if paths is not None else evaluate_paths(scenario, catalog)[0]
        found, jobs = _state_jobs(scenario, catalog, only, paths, survivors=survivors)
        built.append((paths, found, jobs))
    solved = solve_job_groups([(jobs, settings.curve_points, False) for _, _, jobs in built], slo_statistic,
                              bands=bands)
    return [_state_results(paths, found, results) for (paths, found, _), results in zip(built, solved)]


def evaluate_with_states(scenario: Scenario, catalog: Catalog, settings: Settings | None = None,
                         raid: Mapping[str, RaidLayout] | None = None, slo_statistic: str = "mean",
                         state_settings: Settings | None = None
                         ) -> tuple[ScenarioPerformance, dict[str, tuple[StateResult, ...]]]:
    """``engine.evaluate_performance(scenario, catalog, settings, raid, slo_statistic)`` and
    :func:`evaluate_states` of the same design (every state, bands included; ``state_settings``' curve points,
    None: ``settings``'), with the normal state's jobs and the failure states' solved in one pass
    (``engine.solve_job_groups``): the open-model searches and bands of a design's few workloads and their states
    take one set of array operations instead of two. The same results as the two calls, float for float.

    Raises:
        What either engine raises for a design it cannot solve (callers solve the two apart then, to keep the
        normal results when only the states fail).
    """
    settings = settings or Settings()
    state_settings = state_settings or settings
    loads: dict[str, SystemLoads] = {}
    paths, problems, jobs = performance_jobs(scenario, catalog, raid, loads)
    found, state_jobs = _state_jobs(scenario, catalog, None, paths, loads)
    normal, solved = solve_job_groups([(jobs, settings.curve_points, True),
                                       (state_jobs, state_settings.curve_points, False)], slo_statistic)
    return performance_result(scenario, problems, normal), _state_results(paths, found, solved)


def _state_jobs(scenario: Scenario, catalog: Catalog, only: tuple[str, ...] | None,
                paths: Sequence[WorkloadPath], normal: Mapping[str, SystemLoads] | None = None,
                survivors: Mapping[str, WorkloadPath] | None = None
                ) -> tuple[list[tuple[WorkloadPath, DegradedPath]], list[Job]]:
    """Every failure state of ``paths`` (the scenario's normal paths; ``only``: these states, None: all) and the job
    (``engine.solve_jobs``') that solves each, in the same order (:func:`evaluate_states`). ``normal``: each
    system's target load in normal operation when summed already (``engine.performance_jobs``' ``loads_out``, the
    same paths), else summed here. ``survivors``: :func:`_survivor_paths` of the scenario when built already
    (:func:`evaluate_states_many`), else built here when the host failure is wanted."""
    groups = _by_system(paths)
    loads = {system: normal[system] if normal is not None and system in normal else
             SystemLoads(group, {p.workload.id: t for p in group if (t := target_rate(p.workload)) is not None})
             for system, group in groups.items()}
    rated = {system: [(p, r) for p in group if (r := loads[system].rates.get(p.workload.id)) is not None]
             for system, group in groups.items()}
    found: list[tuple[WorkloadPath, DegradedPath]] = []
    if survivors is None:
        survivors = _survivor_paths(scenario, catalog) if only is None or "host_failure" in only else {}
    for path in paths:
        found.extend((path, state) for state in _degraded(scenario, catalog, path, rated[path.system], survivors)
                     if only is None or state.state in only)
    # a failure state strikes every workload of its system at once: each workload's state is solved with the
    # others in the same state (their degraded paths; a workload the state does not touch keeps its normal path),
    # so that on a takeover the partner's workloads move to the survivor with it instead of vanishing
    moved: dict[tuple[str, str], dict[int, WorkloadPath]] = {}
    for path, state in found:
        moved.setdefault((path.system, state.state), {})[id(path)] = state.path
    state_loads = {(system, sid): SystemLoads([degraded.get(id(p), p) for p in groups[system]], loads[system].rates)
                   for (system, sid), degraded in moved.items()}
    jobs: list[Job] = []
    for path, state in found:
        system = state_loads[(path.system, state.state)]
        degraded = state.path
        util = system.others_utilisation(degraded, [spec.name for spec in degraded.stations])
        for name, u in _others_utilisation(state.background).items():
            util[name] = util.get(name, 0.0) + u
        jobs.append((degraded, util, system.open_for(degraded, degraded, state.background)))
    return found, jobs


def _state_results(paths: Sequence[WorkloadPath], found: Sequence[tuple[WorkloadPath, DegradedPath]],
                   solved: Sequence[WorkloadPerformance]) -> dict[str, tuple[StateResult, ...]]:
    """:func:`evaluate_states`' result from :func:`_state_jobs`' states and their solved jobs."""
    out: dict[str, list[StateResult]] = {path.workload.id: [] for path in paths}
    for (path, state), wp in zip(found, solved):
        meets = None if wp.target_iops is None else bool(wp.target_met)
        out[path.workload.id].append(StateResult(state.state, state.reason, wp, meets, state.rebuild_hours,
                                                         state.relieved, state.label))
    return {wid: tuple(results) for wid, results in out.items()}


CLAMPED_FIGURES = ("saturation_iops", "max_iops_at_slo", "saturation_iops_band_p10", "saturation_iops_band_p90",
                   "max_iops_at_slo_band_p10", "max_iops_at_slo_band_p90")
"""The figures of a failure state (``WorkloadPerformance`` fields) that :func:`at_most_normal` holds at or below the
normal state's same figure."""


def at_most_normal(states: Mapping[str, tuple[StateResult, ...]], normal: Sequence[WorkloadPerformance]
                   ) -> dict[str, tuple[StateResult, ...]]:
    """``states`` with each figure of :data:`CLAMPED_FIGURES` of a state that stops no work of normal operation
    (``relieved`` empty: path loss, drive rebuild, host failure...) at most the workload's ``normal`` figure.

    Such a state only takes capacity away, so a figure above normal is the solvers' rounding (a path loss's max
    IOPS at the SLO 998,878 beside normal operation's 998,877: the open model's search for the SLO crossing ends
    within a relative 1e-6): it is shown as normal's figure, not one IOPS better. A state that stops work of normal
    operation (mirroring to a failed partner) keeps its figures: it may beat normal operation, and its reason and
    ``models.present.resilience.relief_words`` say why.

    Args:
        states: workload id -> its failure states (:func:`evaluate_states`).
        normal: the workloads' results in normal operation (``ScenarioPerformance.workloads``); a workload absent
            from them keeps its states as they are.
    """
    by_id = {wp.workload_id: wp for wp in normal}
    out: dict[str, tuple[StateResult, ...]] = {}
    for wid, found in states.items():
        base = by_id.get(wid)
        if base is None:
            out[wid] = found
            continue
        held = []
        for state in found:
            wp = state.performance
            changes = {}
            if not state.relieved:
                for field in CLAMPED_FIGURES:
                    value, limit = getattr(wp, field), getattr(base, field)
                    if value is not None and limit is not None and value > limit:
                        changes[field] = limit
            held.append(replace(state, performance=replace_figures(wp, **changes)) if changes else state)
        out[wid] = tuple(held)
    return out


def months_to_reach(value: float | None, limit: float | None, growth_pct_per_year: float) -> float | None:
    """Months until ``value`` x (1 + g)^(months / 12) reaches ``limit`` (fractional; :func:`models.units.growth_factor`,
    g = ``growth_pct_per_year`` / 100); 0 when already there;
    None without growth, without both numbers, or beyond :data:`RUNWAY_HORIZON_MONTHS`."""
    if value is None or limit is None or not math.isfinite(limit) or value <= 0:
        return None
    if value >= limit:
        return 0.0
    if growth_pct_per_year <= 0:
        return None
    rate = monthly_growth_log(growth_pct_per_year)
    if rate <= 0:
        return None
    months = math.log(limit / value) / rate
    return months if months <= RUNWAY_HORIZON_MONTHS else None


def runway(workloads: Sequence[WorkloadPerformance], growth_by_id: dict[str, float]) -> Runway:
    """The scenario's runway: the earliest month any workload's growing target passes its max IOPS at the SLO,
    and the earliest it reaches saturation (``growth_by_id``: workload id -> IOPS growth, % per year)."""
    breach, saturate = [], []
    for wp in workloads:
        g = growth_by_id.get(wp.workload_id, 0.0)
        breach.append(months_to_reach(wp.target_iops, wp.max_iops_at_slo or 0.0, g)
                      if wp.max_iops_at_slo else (0.0 if wp.target_iops else None))
        saturate.append(months_to_reach(wp.target_iops, wp.saturation_iops, g))
    first = [m for m in breach if m is not None]
    sat = [m for m in saturate if m is not None]
    return Runway(min(first) if first else None, min(sat) if sat else None)


@dataclass(frozen=True)
class CapacityState:
    """A system's capacity in a failure state.

    Attributes:
        system_id: the system's node id; state: a failure state id; usable_bytes: usable capacity in that state,
        bytes; fits: whether the stored data (physical used) still fits; text: what happens, in words.
    """

    system_id: str
    state: str
    usable_bytes: float
    fits: bool
    text: str


def capacity_in_failure(
    scenario: Scenario, catalog: Catalog, systems: Sequence[CapacityResult]
) -> tuple[CapacityState, ...]:
    """The capacity of each system while a drive rebuilds (a spare drive is consumed until the failed one is
    replaced; usable capacity is unchanged) and, for vSAN, while a host is down (its disk groups' share of the
    usable capacity is gone until it returns, and vSAN rebuilds its components into the free space of the others:
    the data must fit in what is left, which vSAN's host rebuild reserve is for, on the cluster's other hosts or
    on the failed host's site's in a stretched cluster: :func:`_host_failure_capacity`) and, for a stretched
    cluster, while a data site is lost (the surviving site's full copy: the usable capacity is unchanged, its site
    mirroring is not).

    Args:
        scenario, catalog: the design; systems: the capacity engine's ``CapacityResult`` per system.
    """
    out = []
    for result in systems:
        node = scenario.node(result.system_id)
        if isinstance(node, ControllerNode):
            spares = node.spares_per_node
            left = max(spares - 1, 0)
            left_text = f"{left} spare{'' if left == 1 else 's'}"
            keep = node.ddp_preservation_drives
            if node.raid_type == "ddp" and keep:  # an E-Series pool rebuilds into capacity it already set aside
                rest = f"{keep - 1} drive{'' if keep - 1 == 1 else 's'}' worth"
                text = (f"drive rebuild: the Dynamic Disk Pool rebuilds the failed drive's data into its "
                        f"preservation capacity ({keep} drive{'' if keep == 1 else 's'}' worth, already left out of "
                        f"the usable capacity), so usable capacity is unchanged; {rest} of it remains for further "
                        "failures until the failed drive is replaced")
            elif node.raid_type in ("raid0", "none"):  # nothing to rebuild from (the performance model's view too)
                text = ("drive failure: RAID 0 / no RAID has no redundancy, so the failed drive's data is lost and "
                        "nothing is rebuilt (the data must come back from another copy, if there is one)")
            elif node.raid_type == "ddp":
                text = ("drive rebuild: the Dynamic Disk Pool has no preservation capacity, so it runs degraded "
                        "until the failed drive is replaced")
            else:
                text = (f"drive rebuild: one spare drive per pool is consumed ({left_text} per node left until the "
                        "failed drive is replaced); usable capacity is unchanged" if spares else
                        "drive rebuild: no hot spare, so the failed drive's group runs degraded until it is replaced")
            out.append(CapacityState(result.system_id, "drive_rebuild", result.usable_bytes,
                                     result.physical_used_bytes <= result.usable_bytes, text))
        elif isinstance(node, HciClusterNode) and node.hosts >= (4 if node.stretched else 2):
            out.append(_host_failure_capacity(node, result))
        if isinstance(node, HciClusterNode) and node.stretched:
            fits = result.physical_used_bytes <= result.usable_bytes
            text = ("site failure: one data site is lost; the surviving site holds a full copy of every object "
                    "(its local protection only) and its usable capacity is the cluster's; the stored data "
                    + ("still fits" if fits else "does not fit") + "; the lost site's copy is rebuilt when it "
                    "returns")
            out.append(CapacityState(result.system_id, "site_failure", result.usable_bytes, fits, text))
    return tuple(out)


def _host_failure_capacity(node: HciClusterNode, result: CapacityResult) -> CapacityState:
    """A vSAN cluster with one host down, one rule for a cluster of one site and a stretched one: the data a
    failed host held is rebuilt on the other hosts of its fault domain, the cluster's ``k = hosts`` hosts, or in a
    stretched cluster its data site's ``k = hosts / 2`` (each site holds a full copy and vSAN repairs a site's
    components inside that site; the other site's copy is untouched), so the data must fit on ``k - 1`` hosts.

    Of each host's capacity ``h`` (after any deduplication metadata, which scales with the devices) the operations
    reserve keeps a share ``p`` and the host rebuild reserve one host per fault domain, so normal operation's usable
    capacity is ``k h (1 - p) - h`` per fault domain over the policy (and ESA's overhead). The host rebuild reserve is
    there for this failure (:data:`models.capacity.rules.VSAN_HOST_REBUILD_RESERVE_DEF`: "reserved space for vSAN to be
    able to repair in case of a single host failure"), so the rule is that the rebuild spends it: ``(k - 1) h (1 - p)``
    is left for VM data, ``(k - 1)(1 - p) / (k(1 - p) - 1)`` of normal usable (102% on the 6-host ESA example, 104% on
    the 4+4 stretched one; holding the reserve back as well would leave 80% and 65%). Without a host rebuild reserve
    (turned off, a 2-node cluster, or slack space, which scales with the devices) the data must fit on ``k - 1`` hosts:
    ``(k - 1) / k`` of normal usable."""
    steps = {step.name: step for step in result.steps}
    ops = steps.get("Operations reserve")
    p = 1.0 - ops.bytes_after / ops.bytes_before if ops is not None and ops.bytes_before > 0 else 0.0
    reserve = "Host rebuild reserve" in steps
    k = site_hosts(node)
    ratio = (k - 1) * (1 - p) / (k * (1 - p) - (1.0 if reserve else 0.0))
    usable = result.usable_bytes * ratio
    fits = result.physical_used_bytes <= usable
    # the fault domains the policy lays a component set over (ESA's RAID-5 4+1 is 5 wide; VMware asks 6 hosts)
    policy = vsan_policy_rule(node.policy, node.architecture, k)
    width = 5 if policy.factor == 1.25 and node.architecture == "esa" else policy.min_hosts
    rebuilds = k - 1 >= width
    if node.stretched:
        where = (f"one of the {k} hosts at a data site is down and that site must hold its full copy on its {k - 1} "
                 "others (the other site's copy is untouched)")
        site, copy = "that site", "that site's copy"
    else:
        where = f"one of {k} hosts is down and its data must be held on the other {k - 1}"
        site, copy = "the cluster", "its components"
    if not rebuilds:
        where += (f"; vSAN cannot rebuild the failed host's components on {k - 1} hosts ({policy.name} needs "
                  f"{width}), so they tolerate one failure fewer until the host returns")
    if reserve:
        text = (f"host failure: {where}; "
                + (f"vSAN rebuilds the failed host's components into the host rebuild reserve {site} keeps free "
                   "for this, which leaves " if rebuilds
                   else f"{site}'s host rebuild reserve is counted as free for it, which leaves ")
                + f"room for {ratio:.0%} of the normal usable capacity (normal operation leaves the reserve out); the "
                "stored data "
                + (f"still fits; until the host returns, {site} has no reserve left for a second host failure"
                   if fits else f"no longer fits: vSAN cannot rebuild {copy}")
                + f"; {VSAN_HOST_REBUILD_RESERVE_DEF}")
    else:
        kept = "slack space (a share of every host)" if "Slack space" in steps else "no host rebuild reserve"
        text = (f"host failure: {where}; {site} keeps {kept}, not a host's capacity set aside for the rebuild, so "
                f"the data must fit on those {k - 1} hosts: usable capacity falls to {ratio:.0%} of normal; the "
                "stored data "
                + (("still fits" + (f" (vSAN can rebuild {copy} on the other hosts)" if rebuilds else "")) if fits
                   else f"no longer fits: vSAN cannot rebuild {copy} (keep one host's capacity free"
                   + (" at each site" if node.stretched else "") + ", the host rebuild reserve)"))
    return CapacityState(result.system_id, "host_failure", usable, fits, text)
