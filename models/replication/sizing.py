"""The sizer's proposal for each replication relationship's far end: a destination that holds the copies grown over
the sizing horizon and a link (and, when no bandwidth can, a schedule) that meets the required RPO.

For each relationship of the active scenario:

* schedule: kept, unless the RPO required is not longer than it (no bandwidth meets that): then the longest of
  ONTAP's usual schedules (:data:`SCHEDULES_MINUTES`) shorter than the RPO;
* bandwidth: the link kept when it meets the RPO, else the bandwidth needed rounded up to the next of
  :data:`LINK_STEPS_MBIT_S` (the share available to replication kept); when the round trip bounds the transfers
  below what the RPO needs (``models.replication.figures``: streams x window / RTT), shorter schedules first;
* destination: Cloud Volumes ONTAP keeps its VM and disk type and takes the fewest data disks whose free capacity
  (the capacity engine's usable less its own workloads) holds the copies grown over the horizon; a managed service
  is provisioned the copies rounded up to whole TiB; an on-premises array is searched for: the smallest catalog
  design that holds the copies and takes the transfers' writes (``models.replication.onprem_destination``).

Each proposal is checked by computing the relationship's figures again with it (``models.replication.figures``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from models.catalog import Catalog, CloudVm
from models.formatting import fmt_capacity
from models.project.model import CloudVmNode, ControllerNode, ManagedServiceNode, Scenario
from models.project.replication import Replication
from models.replication.figures import ReplicationFigures, protected_workloads, replication_figures
from models.replication.onprem_destination import ArrayDesigns
from models.units import CapacityUnit, growth_factor

SCHEDULES_MINUTES = (5.0, 10.0, 15.0, 30.0, 60.0, 120.0, 240.0, 480.0, 720.0, 1440.0)
"""Schedules proposed when the RPO needs a shorter one (ONTAP's built-in 5min, 10min, 15min, hourly, 8hour, daily,
and round steps between)."""

LINK_STEPS_MBIT_S = (10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1_000.0, 2_000.0, 5_000.0, 10_000.0, 25_000.0,
                     40_000.0, 100_000.0)
"""Link bandwidths proposed (Mbit/s): the usual WAN and Ethernet steps."""


@dataclass(frozen=True)
class DestinationProposal:
    """What the sizer proposes for one relationship.

    Attributes:
        replication_id, label: the relationship.
        schedule_minutes, bandwidth_mbit_s: the schedule and link proposed (the current ones when they do).
        destination_id: the destination node; destination: what it should be, in words.
        disk_count: Cloud Volumes ONTAP data disks proposed (None otherwise); provisioned_bytes: a managed
            service's capacity proposed (None otherwise).
        needed_bytes: the copies grown over the horizon (physical); free_bytes: the proposed destination's free
            capacity (None: not computed, an on-premises array).
        rpo_achieved_minutes, rpo_met: the RPO with the proposal (rpo_met None: no RPO stated).
        meets: True when the RPO (if stated) is met and the grown copies fit.
        text: the proposal in one sentence.
        design: an on-premises destination's proposed array in words (``models.replication.onprem_destination``);
            "" otherwise.
    """

    replication_id: str
    label: str
    schedule_minutes: float
    bandwidth_mbit_s: float
    destination_id: str
    destination: str
    disk_count: int | None
    provisioned_bytes: int | None
    needed_bytes: float
    free_bytes: float | None
    rpo_achieved_minutes: float
    rpo_met: bool | None
    meets: bool
    text: str
    design: str = ""


def grown_copies_bytes(f: ReplicationFigures, horizon_months: int) -> float:
    """The destination's copies (:attr:`ReplicationFigures.destination_needed_bytes`) with each workload's data and
    retained change grown by its own rate over ``horizon_months`` ((1 + g)^(months / 12),
    :func:`models.units.growth_factor`); the held transfer not grown."""
    grown = 0.0
    retained_days = ((f.destination_needed_bytes - f.baseline_bytes - f.transfer_bytes) / f.sent_bytes_per_day
                     if f.sent_bytes_per_day > 0 else 0.0)
    for c in f.workloads:
        factor = growth_factor(c.growth_pct_per_year, horizon_months)
        grown += (c.dataset_bytes / c.reduction + c.sent_bytes_per_day * retained_days) * factor
    return grown + f.transfer_bytes


def _free_bytes(scenario: Scenario, catalog: Catalog, node_id: str) -> float | None:
    from models.capacity import evaluate_capacity
    from models.replication import destination_free_bytes

    try:
        return destination_free_bytes(evaluate_capacity(scenario, catalog), node_id)
    except Exception:  # noqa: BLE001 - a design the capacity engine cannot build is no proposal
        return None


def _with_node(scenario: Scenario, node_id: str, **changes: object) -> Scenario:
    nodes = [n.with_changes(**changes) if n.id == node_id else n for n in scenario.nodes]
    return scenario.model_copy(update={"nodes": nodes})


def propose_destination(scenario: Scenario, catalog: Catalog, rep: Replication,
                        horizon_months: int, array_designs: ArrayDesigns | None = None,
                        unit: CapacityUnit | str = CapacityUnit.TB) -> DestinationProposal | None:
    """The proposal for one relationship (module docstring); None when its destination is not in the scenario.
    ``array_designs``: the sizer's array designs (``models.replication.onprem_destination.ArrayDesigns``) to search
    an on-premises destination among; None: the on-premises destination is told the capacity it needs.
    ``unit``: the capacities of its sentence (the project's unit; a managed service's provisioned size stays in
    TiB, as the services sell it)."""
    target = scenario.node(rep.target)
    if target is None:
        return None
    current = replication_figures(scenario, rep)
    schedule = rep.schedule_minutes
    if rep.kind != "active-sync" and 0 < rep.rpo_minutes <= schedule:
        shorter = [s for s in SCHEDULES_MINUTES if s < rep.rpo_minutes]
        schedule = shorter[-1] if shorter else SCHEDULES_MINUTES[0]
    trial = rep.with_changes(schedule_minutes=schedule)
    figures = replication_figures(scenario, trial)
    bandwidth = rep.bandwidth_mbit_s
    if figures.rpo_met is False or math.isinf(figures.rpo_achieved_minutes):
        # a round trip that bounds the transfers below what the RPO needs: shorter schedules (smaller transfers)
        for shorter_schedule in [s for s in reversed(SCHEDULES_MINUTES) if s < schedule]:
            if math.isfinite(figures.bandwidth_needed_mbit_s):
                break
            schedule = shorter_schedule
            trial = rep.with_changes(schedule_minutes=schedule)
            figures = replication_figures(scenario, trial)
        need = figures.bandwidth_needed_mbit_s
        if math.isfinite(need):
            bandwidth = next((s for s in LINK_STEPS_MBIT_S if s >= need), math.ceil(need))
    trial = trial.with_changes(bandwidth_mbit_s=bandwidth)
    needed = grown_copies_bytes(current, horizon_months)
    disk_count: int | None = None
    provisioned: int | None = None
    free: float | None = None
    design = ""
    sized = scenario
    name = target.label or target.catalog_id
    if isinstance(target, CloudVmNode):
        vm = catalog.find(target.catalog_id)
        if isinstance(vm, CloudVm):
            most = (vm.max_data_disks_ha or vm.max_data_disks) if target.ha else vm.max_data_disks
        else:
            most = target.disk_count
        for count in range(1, max(most, 1) + 1):
            candidate = _with_node(scenario, target.id, disk_count=count)
            free = _free_bytes(candidate, catalog, target.id)
            if free is not None and free >= needed:
                disk_count, sized = count, candidate
                break
        what = (f"{name}: {disk_count} data disks of its type" if disk_count is not None else
                f"{name}: no disk count of its VM holds the copies; a larger VM or another destination")
    elif isinstance(target, ManagedServiceNode):
        provisioned = int(math.ceil(needed / 2**40)) * 2**40
        sized = _with_node(scenario, target.id, provisioned_bytes=provisioned)
        free = _free_bytes(sized, catalog, target.id)
        what = f"{name}: {provisioned / 2**40:,.0f} TiB provisioned"
    elif isinstance(target, ControllerNode) and array_designs is not None:  # the smallest catalog array that does
        from models.replication.onprem_destination import search_destination

        found = search_destination(scenario, catalog, target, replication_figures(scenario, trial), needed,
                                   array_designs)
        if found is not None:
            free, design = found.free_bytes, found.summary
            what = (f"{name}: {found.summary}, {fmt_capacity(found.free_bytes, unit)} free for the copies, the "
                    f"transfer's writes at {found.transfer_latency_ms:.2f} ms")
        else:
            what = (f"{name}: no catalog array holds {fmt_capacity(needed, unit)} of copies and takes the transfers "
                    "within the designs tried")
    else:
        what = f"{name}: at least {fmt_capacity(needed, unit)} free (physical) for the copies"
    final = replication_figures(sized, trial, free)
    fits = free is not None and free >= needed
    meets = final.rpo_met is not False and not math.isinf(final.rpo_achieved_minutes) and fits
    rpo = ("zero RPO" if rep.kind == "active-sync" else
           f"RPO {final.rpo_achieved_minutes:,.0f} min" + (f" (required {rep.rpo_minutes:,.0f})"
                                                           if rep.rpo_minutes else ""))
    link = f"{bandwidth:,.0f} Mbit/s link at {rep.replication_share_pct:g}% for replication"
    plan = f"every {schedule:,.0f} min" if rep.kind != "active-sync" else "synchronous"
    text = (f"{final.label}: {what}; {link}, {plan}: {rpo}; copies grown over {horizon_months} months "
            f"{fmt_capacity(needed, unit)}" + ("" if meets else " (not met)") + ".")
    return DestinationProposal(rep.id, final.label, schedule, bandwidth, target.id, what, disk_count, provisioned,
                               needed, free, final.rpo_achieved_minutes, final.rpo_met, meets, text, design)


def destination_disks_by_month(scenario: Scenario, catalog: Catalog, node_id: str,
                                horizon_months: int) -> tuple[tuple[int, ...], bool] | None:
    """The data disks the Cloud Volumes ONTAP destination ``node_id`` needs at the end of months 1..horizon, and
    whether its VM takes that many: each month the fewest disks, never fewer than its own ``disk_count``, whose free
    capacity (the capacity engine's usable less its own workloads, as the verdict reads it) holds the copies of every
    relationship to it grown to that month (:func:`grown_copies_bytes`: the data with the reduction replication keeps,
    the retained change, the held transfer), the rule :func:`propose_destination` sizes the horizon's count by. A
    month no count of the VM holds gets its largest (the bool then False). None when no relationship targets the
    node or it is no Cloud Volumes ONTAP system the capacity engine can build."""
    target = scenario.node(node_id)
    reps = [r for r in scenario.replications if r.target == node_id]
    if not reps or not isinstance(target, CloudVmNode):
        return None
    vm = catalog.find(target.catalog_id)
    most = ((vm.max_data_disks_ha or vm.max_data_disks) if target.ha else vm.max_data_disks) \
        if isinstance(vm, CloudVm) else target.disk_count
    most = max(most, target.disk_count)
    figures = [replication_figures(scenario, rep) for rep in reps]
    frees: dict[int, float | None] = {}

    def free(count: int) -> float | None:
        if count not in frees:
            frees[count] = _free_bytes(_with_node(scenario, node_id, disk_count=count), catalog, node_id)
        return frees[count]

    if free(target.disk_count) is None:
        return None
    counts: list[int] = []
    held = True
    for month in range(1, horizon_months + 1):
        need = sum(grown_copies_bytes(f, month) for f in figures)
        count = counts[-1] if counts else target.disk_count  # the copies only grow: never fewer than last month
        while count < most and (free(count) or 0.0) < need:
            count += 1
        held = held and (free(count) or 0.0) >= need
        counts.append(count)
    return tuple(counts), held


def carry_relationships(base: Scenario, candidate: Scenario) -> Scenario:
    """A sizer candidate's scenario with the base scenario's replication relationships carried over: a source the
    candidate replaced becomes the candidate system now serving the protected workloads, and a destination the
    candidate lacks comes with it (the same node), so the candidate evaluated as a scenario keeps its DR. A
    relationship whose workloads the candidate does not serve is left out; ``candidate`` is returned as it is when
    the base has none."""
    if not base.replications:
        return candidate
    ids = {n.id for n in candidate.nodes}
    nodes = list(candidate.nodes)
    kept: list[Replication] = []
    for rep in base.replications:
        source = rep.source
        if source not in ids:
            homes = [w.target for p in protected_workloads(base, rep)
                     if (w := candidate.workload(p.id)) is not None and w.target in ids]
            if not homes:
                continue
            source = homes[0]
        if rep.target not in ids:
            node = base.node(rep.target)
            if node is None:
                continue
            nodes.append(node)
            ids.add(node.id)
        if source != rep.target:
            kept.append(rep.with_changes(source=source))
    return candidate.model_copy(update={"nodes": nodes, "replications": kept})


def with_proposals(scenario: Scenario, proposals: tuple[DestinationProposal, ...]) -> Scenario:
    """``scenario`` (a sizer candidate with the relationships carried over, :func:`carry_relationships`) with each
    proposal applied where it can be: its relationship's schedule and link, and its destination's size (a Cloud
    Volumes ONTAP destination's data disks, a managed service's provisioned capacity), so the candidate handed over
    (``storplan size --json``'s project, the GUI's "use this design") is the design the sizer judged. An on-premises
    array proposed as the destination is a design of its own, not applied: the candidate keeps its destination and
    is judged with it. A proposal that does not meet is not applied either."""
    changed = False
    nodes = {n.id: n for n in scenario.nodes}
    reps = list(scenario.replications)
    for p in proposals:
        if not p.meets:
            continue
        for i, rep in enumerate(reps):
            if rep.id == p.replication_id and (rep.schedule_minutes, rep.bandwidth_mbit_s) != (p.schedule_minutes,
                                                                                              p.bandwidth_mbit_s):
                reps[i] = rep.with_changes(schedule_minutes=p.schedule_minutes, bandwidth_mbit_s=p.bandwidth_mbit_s)
                changed = True
        node = nodes.get(p.destination_id)
        if isinstance(node, CloudVmNode) and p.disk_count is not None and node.disk_count != p.disk_count:
            nodes[node.id] = node.with_changes(disk_count=p.disk_count)
            changed = True
        elif (isinstance(node, ManagedServiceNode) and p.provisioned_bytes is not None
              and node.provisioned_bytes != p.provisioned_bytes):
            nodes[node.id] = node.with_changes(provisioned_bytes=p.provisioned_bytes)
            changed = True
    if not changed:
        return scenario
    return scenario.model_copy(update={"nodes": [nodes[n.id] for n in scenario.nodes], "replications": reps})


def proposal_line(p: DestinationProposal) -> str:
    """A proposal in the sizer's words (``storplan size``, the report's Recommendation): its sentence and whether the
    configurations proposed carry it (:func:`with_proposals`: the schedule, link and a cloud destination's size are
    applied to each; an on-premises array destination is a separate proposal, the design's destination kept)."""
    if not p.meets:
        return p.text + " The configurations proposed keep the design's relationship as it is."
    if p.design:
        return p.text + (" The configurations proposed take this schedule and link but keep the design's "
                         "destination (this array is proposed in its place, not applied).")
    return p.text + " Each configuration proposed carries it (its project has this destination, schedule and link)."


def propose_destinations(scenario: Scenario, catalog: Catalog, horizon_months: int,
                         array_designs: ArrayDesigns | None = None,
                         unit: CapacityUnit | str = CapacityUnit.TB) -> tuple[DestinationProposal, ...]:
    """:func:`propose_destination` for every relationship of ``scenario`` whose destination is in it (a refused
    relationship is proposed for too: its refusal is the evaluation's problem); capacities in ``unit``."""
    found = (propose_destination(scenario, catalog, rep, horizon_months, array_designs, unit)
             for rep in scenario.replications)
    return tuple(p for p in found if p is not None)


__all__ = ["DestinationProposal", "LINK_STEPS_MBIT_S", "SCHEDULES_MINUTES", "carry_relationships",
           "destination_disks_by_month", "grown_copies_bytes", "propose_destination", "propose_destinations",
           "proposal_line", "with_proposals"]
