"""Protection and DR: a scenario's replication relationships (``models.project.replication``) evaluated.

:func:`evaluate_protection` gives, per relationship, the figures of ``models.replication.figures`` (RPO, bandwidth,
baseline, destination capacity and runway), the load of its transfers on both ends (``models.replication.load``:
the source's replication reads and the destination's writes as workloads of their own in the performance model,
during the transfer windows), and the problems (ends that cannot replicate, ``models.replication.endpoints``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from models.catalog import Catalog
from models.problem import Problem
from models.project.model import Scenario, Settings
from models.replication.endpoints import endpoint_problem
from models.replication.figures import ReplicationFigures, protected_workloads, replication_figures
from models.replication.load import EndLoad, transfer_window

if TYPE_CHECKING:
    from models.capacity.results import ScenarioCapacity
    from models.performance.results import ScenarioPerformance


@dataclass(frozen=True)
class Protection:
    """The scenario's replication relationships evaluated.

    Attributes:
        relationships: the figures of each relationship whose ends can replicate, in scenario order.
        loads: the transfer windows' load on both ends (:class:`models.replication.load.EndLoad`), two per
            relationship with a transfer.
        problems: ends that cannot replicate, protected workloads that are not the source's, in words.
    """

    relationships: tuple[ReplicationFigures, ...] = ()
    loads: tuple[EndLoad, ...] = ()
    problems: tuple[Problem, ...] = ()


def destination_free_bytes(capacity: ScenarioCapacity | None, system_id: str) -> float | None:
    """The destination's usable capacity less what its own workloads use (physical bytes); None when the capacity
    engine has no result for it."""
    if capacity is None:
        return None
    result = capacity.system(system_id)
    if result is None:
        return None
    return max(result.usable_bytes - result.physical_used_bytes, 0.0)


def replication_problems(scenario: Scenario, catalog: Catalog) -> list[Problem]:
    """Each relationship whose ends cannot replicate (an error naming why), and each named workload that is not
    served by the relationship's source (a warning)."""
    found: list[Problem] = []
    for rep in scenario.replications:
        reason = endpoint_problem(scenario, catalog, rep.source, rep.target, rep.kind)
        if reason:
            found.append(Problem("error", f"replication '{rep.label or rep.id}': {reason}", rep.source))
            continue
        for wid in rep.workloads:
            workload = scenario.workload(wid)
            if workload is None or workload.target != rep.source:
                found.append(Problem("warning", f"replication '{rep.label or rep.id}': workload '{wid}' is not "
                                                f"served by '{rep.source}' and is not protected", rep.source))
    return found


def evaluate_protection(scenario: Scenario, catalog: Catalog, capacity: ScenarioCapacity | None = None,
                        settings: Settings | None = None, raid: Mapping[str, Any] | None = None,
                        with_load: bool = True, performance: ScenarioPerformance | None = None,
                        horizon_months: float = 0.0) -> Protection:
    """Evaluate every replication relationship of ``scenario``.

    Args:
        scenario, catalog: the resolved design's scenario and catalog.
        capacity: the scenario's capacity results (for the destination's free capacity; None: no capacity verdict).
        settings, raid: passed to the performance engine for the transfer windows.
        with_load: False skips the transfer-window performance runs (the sizer's quick check).
        performance: the scenario's performance when evaluated already (with ``settings`` and ``raid``), which the
            transfer window compares against instead of solving it again; None: solved there.
        horizon_months: the project's horizon, for the sentence on the copies' room (0: the months only).

    Never raises for a bad relationship: it becomes a problem.
    """
    if not scenario.replications:
        return Protection()
    problems = replication_problems(scenario, catalog)
    refused = {p.message for p in problems if p.severity == "error"}
    figures: list[ReplicationFigures] = []
    for rep in scenario.replications:
        if any(m.startswith(f"replication '{rep.label or rep.id}':") for m in refused):
            continue
        names = [(n.label or n.catalog_id) if (n := scenario.node(i)) is not None else i
                 for i in (rep.source, rep.target)]
        figures.append(replication_figures(scenario, rep, destination_free_bytes(capacity, rep.target), names[1],
                                           names[0], horizon_months))
    loads: tuple[EndLoad, ...] = ()
    if with_load and figures:
        loads = transfer_window(scenario, catalog, tuple(figures), settings, raid, performance)
    return Protection(tuple(figures), loads, tuple(problems))


__all__ = ["Protection", "destination_free_bytes", "evaluate_protection", "protected_workloads",
           "replication_problems"]
