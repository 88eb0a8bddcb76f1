"""The N+k requirement of an HCI design (``Requirements.n_plus``): with k hosts of each vSAN cluster down, the data
still fits, now and over the project's horizon, and every workload with a target still meets its SLO.

* Capacity: the capacity engine on the cluster with k hosts taken out (``models.capacity``), judged as a primary
  system's capacity is (``models.verdict.fits_usable`` today, ``models.verdict.runway_miss``'s rule over the
  horizon: the months until the reduced cluster is full at the workloads' growth must not fall within
  ``horizon_months``). A cluster that holds today's data with a host down but fills within the horizon misses it.
* Performance, k = 1: the workload's "host failure" state (``models.performance.resilience.evaluate_states``: one
  host down, its disk groups, CPU and network gone, resync load on the others), the same figure the Resilience
  table shows for one host down; the cluster's own workloads are solved together in that state. k > 1 (or when
  the state was not evaluated, a cluster of fewer than three hosts): the performance engine on the cluster with k
  hosts taken out, which the text says.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from models.formatting import finite, fmt_capacity, fmt_months

if TYPE_CHECKING:
    from models.capacity.results import CapacityResult
    from models.catalog import Catalog
    from models.performance.paths import WorkloadPath
    from models.performance.resilience import StateResult
    from models.project.model import HciClusterNode, Requirements, Scenario, Settings

__all__ = ["HostFailureFigure", "NPlusCheck", "host_failure_figures", "host_failure_figures_many", "n_plus_checks"]


@dataclass(frozen=True)
class NPlusCheck:
    """One N+k verdict: met, the sentence naming the figure that decides it, the workload it is about ("" for the
    cluster's capacity) and the state (``N+1``)."""

    met: bool
    text: str
    subject: str
    state: str


def _own_cluster_words(cluster: HciClusterNode, reduced: HciClusterNode, result: CapacityResult) -> str:
    """Why the N+k capacity is not the host failure's (``models.performance.resilience.capacity_in_failure``, which
    spends the host rebuild reserve on the rebuild): the hosts left are counted as a cluster of their own, which
    keeps its own host rebuild reserve for a further failure and, on vSAN ESA, lays RAID-5 out for its own size
    (``models.capacity.hci``). "" when neither applies (slack space scales with the hosts: the two figures agree)."""
    from models.capacity.rules import vsan_policy_rule
    from models.capacity.stretched import site_hosts

    parts = []
    if any(step.name == "Host rebuild reserve" for step in result.steps):
        parts.append("keeps a host rebuild reserve of its own for a further failure")
    before = vsan_policy_rule(cluster.policy, cluster.architecture, site_hosts(cluster))
    after = vsan_policy_rule(reduced.policy, reduced.architecture, site_hosts(reduced))
    if after.name != before.name:
        parts.append(f"lays its data out as {after.name}")
    if not parts:
        return ""
    return (f"; the {reduced.hosts} hosts left are counted as a cluster of their own, which "
            + " and ".join(parts) + ": the host-failure capacity, while the failed host is rebuilt into the "
            "reserve, is larger")


def _hosts(k: int) -> str:
    """``1 host`` / ``2 hosts``."""
    return f"{k} host{'s' * (k != 1)}"


def n_plus_checks(requirements: Requirements, scenario: Scenario, catalog: Catalog, settings: Settings,
                  states: Mapping[str, Sequence[StateResult]],
                  unit: str = "TiB") -> list[NPlusCheck]:
    """The N+k checks (module docstring) of every vSAN cluster of ``scenario``; empty without ``n_plus`` or
    without a cluster.

    Args:
        requirements: ``project.requirements`` (``n_plus``, ``horizon_months``, ``slo_statistic``).
        scenario, catalog, settings: what was evaluated.
        states: workload id -> its failure states (``evaluate_states``); a workload's ``host_failure`` state is
            its N+1 performance.
        unit: the capacity unit of the sentences (``Settings.capacity_unit``).

    Returns:
        One capacity check per cluster, then one performance check per workload with a target on a cluster
        (:class:`NPlusCheck`, state ``N+k``; ``models.evaluate`` turns each into a ``RequirementCheck``).
    """
    from models.capacity import evaluate_capacity
    from models.verdict import fits_usable, runway_miss, slo_holds

    k = requirements.n_plus
    clusters = [n for n in scenario.nodes if n.kind == "hci_cluster"]
    if not k or not clusters:
        return []
    state = f"N+{k}"
    down = _hosts(k)
    nodes = [n.model_copy(update={"hosts": max(n.hosts - k, 1)}) if n.kind == "hci_cluster" else n
             for n in scenario.nodes]
    reduced = scenario.model_copy(update={"nodes": nodes})
    capacity = evaluate_capacity(reduced, catalog)
    horizon = float(requirements.horizon_months)
    checks: list[NPlusCheck] = []
    for cluster in clusters:
        result = capacity.system(cluster.id)
        name = cluster.label or cluster.id
        prefix = f"{name}: " if len(clusters) > 1 else ""
        if result is None or not finite(result.usable_bytes):
            checks.append(NPlusCheck(False, f"{prefix}N+{k} (required): the capacity with {down} down could "
                                            "not be computed", "", state))
            continue
        used, usable = result.physical_used_bytes, result.usable_bytes
        months = result.months_until_full
        figures = (f"{fmt_capacity(used, unit, fixed=True)} of "  # one scale in one sentence (review 57 PDF #15)
                   f"{fmt_capacity(usable, unit, fixed=True)} usable")
        if not fits_usable(used, usable):
            met, how = False, f"the data no longer fits the usable capacity ({figures})"
        elif runway_miss(result, horizon) is not None:  # months is finite, between 0 and the horizon
            met, how = False, (f"the data fits today ({figures}) but fills the usable capacity in "
                               f"{fmt_months(months)} at the planned growth, within the {horizon:,.0f}-month horizon")
        else:
            grow = (f", full in {fmt_months(months)}" if months is not None and finite(months) and months > 0
                    else ", no growth planned")
            over = f" over the {horizon:,.0f}-month horizon" if horizon > 0 else ""
            met, how = True, f"the data still fits the usable capacity{over} ({figures} today{grow})"
        how += _own_cluster_words(cluster, cluster.model_copy(update={"hosts": max(cluster.hosts - k, 1)}), result)
        checks.append(NPlusCheck(met, f"{prefix}N+{k} (required): with {down} down {how}", "", state))
    on_cluster = {w.id for w in scenario.workloads if w.performance_enabled and w.target in {c.id for c in clusters}}
    solved: dict[str, tuple[float | None, float, str, bool | None]] = {}
    if k == 1:
        for wid in on_cluster:
            failed = next((s for s in states.get(wid, ()) if s.state == "host_failure"), None)
            if failed is not None and failed.performance.target_iops:
                wp = failed.performance
                solved[wid] = (wp.max_iops_at_slo, float(wp.target_iops or 0.0), wp.name,
                               failed.meets_slo)
    missing = [wid for wid in on_cluster if wid not in solved]
    if missing:
        from models.performance import evaluate_performance

        perf = evaluate_performance(reduced, catalog, settings, slo_statistic=requirements.slo_statistic,
                                    curve_tails=False, bands=False)  # its max IOPS at the SLO only
        for wp in perf.workloads:
            if wp.workload_id in missing and wp.target_iops:
                solved[wp.workload_id] = (wp.max_iops_at_slo, float(wp.target_iops), wp.name, None)
    for w in scenario.workloads:  # in the scenario's order
        if w.id not in solved:
            continue
        limit, target, name, meets = solved[w.id]
        ok = slo_holds(limit, target) if meets is None else bool(meets)
        where = "" if meets is not None else f", solved as the cluster with {down} taken out"
        checks.append(NPlusCheck(ok, f"{name}: N+{k} (required): with {down} down the SLO at {target:,.0f} IOPS is "
                                 f"{'met' if ok else 'missed'} (max {limit or 0:,.0f} IOPS within it{where})", name,
                                 state))
    return checks


@dataclass(frozen=True)
class HostFailureFigure:
    """One workload's figures in its cluster's host-failure state (one host down, resync load on the others), as
    ``storplan evaluate``'s Resilience table and its N+1 check show them: ``max_iops_at_slo`` (IOPS, None when even
    one outstanding I/O misses the SLO), ``saturation_iops`` (IOPS), ``meets_slo`` (the latency at the target within
    the SLO; None without a target)."""

    workload_id: str
    name: str
    max_iops_at_slo: float | None
    saturation_iops: float | None
    meets_slo: bool | None


def host_failure_figures(scenario: Scenario, catalog: Catalog, settings: Settings | None = None,
                         slo_statistic: str = "mean", paths: Sequence[WorkloadPath] | None = None
                         ) -> dict[str, HostFailureFigure]:
    """Workload id -> its host-failure state's figures (:class:`HostFailureFigure`) for every workload on a vSAN
    cluster of three or more hosts: ``models.performance.resilience.evaluate_states(..., only=("host_failure",))``,
    the same function (and so the same figures) as the evaluation whose N+1 check :func:`n_plus_checks` reads. The
    sizer judges an HCI candidate's N+1 requirement with it. Workloads whose path cannot be built, or whose cluster
    has no such state (fewer than three hosts), are absent. ``slo_statistic``: "mean" or "p99"
    (``Requirements.slo_statistic``); ``paths``: the scenario's paths when built already
    (``models.performance.screening.design_paths``' ``paths``; None: built here). Raises nothing for a bad topology
    (the paths' errors are left out)."""
    from models.performance.resilience import evaluate_states

    states = evaluate_states(scenario, catalog, settings, only=("host_failure",), slo_statistic=slo_statistic,
                             bands=False, paths=paths)  # (the figures only: no curves nor bands, the same numbers)
    return _figures(states)


def host_failure_figures_many(designs: Sequence[tuple[Scenario, Sequence[WorkloadPath] | None,
                                                      Mapping[str, WorkloadPath] | None]],
                              catalog: Catalog, settings: Settings | None = None, slo_statistic: str = "mean"
                              ) -> list[dict[str, HostFailureFigure]]:
    """:func:`host_failure_figures` of many designs at once, in order, each what it gives for that design alone,
    float for float: ``models.performance.resilience.evaluate_states_many`` (each design's states and closed ramps as
    alone, the open-model searches of them all answered together), as the sizer checks the HCI candidates it reaches
    in one go. ``designs``: per design (scenario, its paths when built already or None, survivors: the paths of its
    vSAN OSA clusters one host smaller when built already, exactly ``resilience._survivor_paths`` of the scenario,
    or None); ``catalog``, ``settings``, ``slo_statistic``: as :func:`host_failure_figures`'."""
    from models.performance.resilience import evaluate_states_many

    return [_figures(states) for states in evaluate_states_many(designs, catalog, settings, only=("host_failure",),
                                                                slo_statistic=slo_statistic, bands=False)]


def _figures(states: Mapping[str, Sequence[StateResult]]) -> dict[str, HostFailureFigure]:
    """Workload id -> its host-failure figures, from ``evaluate_states``' result (workloads without the state
    absent)."""
    out = {}
    for wid, results in states.items():
        failed = next((s for s in results if s.state == "host_failure"), None)
        if failed is not None:
            wp = failed.performance
            out[wid] = HostFailureFigure(wid, wp.name, wp.max_iops_at_slo, wp.saturation_iops, failed.meets_slo)
    return out
