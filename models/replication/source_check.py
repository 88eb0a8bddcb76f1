"""The sizer's check of a candidate's replication load: a design that meets the SLO only while no transfer runs does
not meet it.

During a scheduled transfer (``models.replication.load``: the worst window, every relationship's transfer running
at once at its rate, bounded by the link's share and the round trip) the source reads the changed blocks beside
its own workloads. :func:`replication_load_reasons` solves the candidate with those reads added and names each of
the source's own workloads whose grown target (over the horizon, as the sizer checks it) is then above its max
IOPS at the SLO, or a source that cannot take the reads at all; a candidate that cannot replicate to the
destination at all (``models.replication.endpoints``: an ASA r2 system to anything but another) fails first.
Normal operation only: the failure states the requirements ask for are checked by the sizer without the
transfers (a transfer during a takeover is not assumed). :func:`with_replication_load` applies it to the sizer's
candidates (``models.sizing.size``): a candidate that fails is replaced by its first alternative that passes, else
it leaves the meeting candidates with the reasons (the search is not run further for more candidates: fewer than
``top`` may be proposed).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from models.catalog import Catalog
from models.project.model import Project, Scenario
from models.units import growth_factor
from models.verdict import slo_holds

if TYPE_CHECKING:
    from models.sizing import Candidate, SizingResult


def replication_load_reasons(scenario: Scenario, catalog: Catalog, project: Project) -> tuple[str, ...]:
    """Why ``scenario`` (a candidate with the project's relationships carried over) misses an SLO during its
    transfer windows, one sentence each; () when it meets them or has no relationship with a transfer.

    Only the candidate's source systems are judged (the destinations are the relationships' own proposals,
    ``models.replication.sizing``). Engine failures give () (the normal evaluation reports them)."""
    if not scenario.replications:
        return ()
    from models.performance import evaluate_performance
    from models.replication import evaluate_protection
    from models.replication.endpoints import endpoint_problem
    from models.replication.load import transfer_workloads

    refused = [f"replication '{rep.label or rep.id}': {reason}" for rep in scenario.replications
               if (reason := endpoint_problem(scenario, catalog, rep.source, rep.target, rep.kind))]
    if refused:  # a source that cannot replicate to the destination does not protect the workloads
        return tuple(refused)
    guarded = protection_reasons(scenario, catalog, project)
    if guarded:  # the RPO or the destination's room, as ``storplan evaluate`` of the candidate judges them
        return guarded

    try:
        protection = evaluate_protection(scenario, catalog, settings=project.settings, with_load=False)
        extra = [w for w in transfer_workloads(protection.relationships) if w.id.endswith(".replication-read")]
        if not extra:
            return ()
        loaded = scenario.model_copy(update={"workloads": [*scenario.workloads, *extra]})
        performance = evaluate_performance(loaded, catalog, project.settings)
    except Exception:  # noqa: BLE001 - an engine failure is the normal evaluation's problem
        return ()
    sources = {w.target for w in extra}
    reasons: list[str] = []
    for w in extra:
        wp = performance.for_workload(w.id)
        if wp is not None and wp.latency_at_target_ms is None:
            reasons.append(f"the source cannot take the replication transfer's reads at {w.target_mbps:,.1f} MB/s "
                           "beside its workloads")
    req = project.requirements
    for mine in scenario.workloads:
        if not mine.enabled or mine.target not in sources:
            continue
        wp = performance.for_workload(mine.id)
        if wp is None or wp.target_iops is None:
            continue
        # the sizer's own rule (models.sizing): the grown target against the max IOPS at the SLO
        grown = wp.target_iops * growth_factor(mine.iops_growth_pct_per_year, req.horizon_months)
        limit = wp.max_iops_at_slo_band_p10 if req.rank_on == "p90" else wp.max_iops_at_slo
        if not slo_holds(limit, grown):
            rate = sum(w.target_mbps or 0.0 for w in extra if w.target == mine.target)
            reasons.append(f"{mine.name}: SLO missed above {(limit or 0):,.0f} IOPS (needs {grown:,.0f}) while "
                           f"replication transfers read {rate:,.1f} MB/s from its system")
    return tuple(reasons)


def protection_reasons(scenario: Scenario, catalog: Catalog, project: Project) -> tuple[str, ...]:
    """What ``scenario``'s relationships miss by the verdict's rule (``models.verdict.protection_misses``: each
    stated RPO, and each destination holding the copies grown over the project's horizon), as ``storplan evaluate``
    of the candidate's project judges them, one sentence each; () when nothing is missed. The candidate carries the
    sizer's proposals where they apply (``models.replication.sizing.with_proposals``); an on-premises destination
    is kept as it is, so a candidate whose destination is too small is not called meeting. Engine failures give ()
    (the normal evaluation reports them)."""
    from models.capacity import evaluate_capacity
    from models.replication import evaluate_protection
    from models.verdict import protection_misses

    horizon = project.requirements.horizon_months
    try:
        capacity = evaluate_capacity(scenario, catalog)
        protection = evaluate_protection(scenario, catalog, capacity, settings=project.settings, with_load=False,
                                         horizon_months=horizon)
    except Exception:  # noqa: BLE001 - an engine failure is the normal evaluation's problem
        return ()
    return tuple(m.line + " (the destination proposed for it holds them)" if m.state == "DR copy" else m.line
                 for m in protection_misses(protection, horizon, project.settings.capacity_unit))


def with_replication_load(candidates: tuple[Candidate, ...], catalog: Catalog, project: Project,
                          scenario_of: Callable[[Candidate], Scenario]) -> tuple[tuple[Candidate, ...],
                                                                            tuple[Candidate, ...]]:
    """The meeting candidates that also meet their SLOs during the transfer windows, and those that do not (with
    the reasons, ``meets`` False).

    Args:
        candidates: the sizer's meeting candidates, best first.
        catalog: the catalog they were sized from (with the project's records).
        project: the project (its settings).
        scenario_of: a candidate's scenario with the relationships carried over.

    A failing candidate is replaced by its first alternative (other drives, same platform) that passes, the rest
    of its alternatives kept after it. The designs a row is tied with (``Candidate.ties``: an ASA beside an AFF of
    the same hardware) are checked each on its own: one that fails leaves the row (an ASA r2 system replicates only
    to another ASA r2), and those that pass as they are stay one row (one that passes only with another drive
    variant is a row of its own after it: its figures are that variant's).
    """
    kept: list[Candidate] = []
    dropped: list[Candidate] = []
    for head in candidates:
        passing: list[Candidate] = []  # those that pass as they are: one row
        others: list[Candidate] = []  # those that pass with another variant: a row each
        for cand in (replace(head, ties=()), *head.ties):
            chain = (cand, *cand.alternatives)
            chosen = None
            first_reasons: tuple[str, ...] = ()
            for index, option in enumerate(chain):
                reasons = replication_load_reasons(scenario_of(option), catalog, project)
                if not reasons:
                    chosen = replace(option, alternatives=tuple(chain[index + 1:]) if index else cand.alternatives)
                    break
                if index == 0:
                    first_reasons = reasons
            if chosen is not None:
                (others if chosen.summary != cand.summary else passing).append(chosen)
            else:
                dropped.append(replace(cand, meets=False, reasons=(*cand.reasons, *first_reasons), alternatives=()))
        if passing:
            kept.append(replace(passing[0], ties=tuple(passing[1:])))
        kept += others
    return tuple(kept), tuple(dropped)


def replication_load_checked(result: SizingResult, catalog: Catalog, project: Project) -> SizingResult:
    """``result`` (``models.sizing.size``'s, the relationships carried over) with :func:`with_replication_load`
    applied: failing candidates leave the meeting ones (they lead the nearest when none is left) and a note says how
    many."""
    kept, dropped = with_replication_load(result.candidates, catalog, project, lambda c: c.scenario)
    if not dropped:
        return result
    note = (f"{len(dropped)} design{'s' if len(dropped) > 1 else ''} met the requirements only without their "
            "replication (the transfers' reads on the source, a source that cannot replicate to the destination, or "
            "a destination that misses the RPO or does not hold the copies over the horizon): "
            "not proposed (" + "; ".join(dropped[0].reasons[-2:]) + ")")
    nearest = result.nearest if kept else (*dropped, *result.nearest)
    return replace(result, candidates=kept, nearest=nearest, notes=(*result.notes, note))


__all__ = ["protection_reasons", "replication_load_checked", "replication_load_reasons", "with_replication_load"]
