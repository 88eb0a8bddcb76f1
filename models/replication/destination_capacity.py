"""A replication destination's capacity with the copies it receives: a system that serves no workload and only
receives replication (``ScenarioCapacity.replica_only``) holds the copies of its relationships, and its capacity
result says so, from the same figures the Protection section and the verdict read
(``models.replication.figures.ReplicationFigures``):

* physical used: the copies' ``destination_needed_bytes`` (the baseline after the source's data reduction, kept in
  transfer, plus the transfer held while the next lands, plus SnapVault's retained copies), summed over the
  relationships to it;
* logical used: the protected workloads' data sets plus the held and retained changes before data reduction;
  the efficiency ratio is logical / physical (the destination applies no data reduction of its own: the copies
  arrive reduced);
* months until full: the relationships' runway (``runway_months``: the copies grown at their workloads' growth,
  (1 + g)^(months / 12), against the free capacity), the shortest of them; 0 when the copies do not fit now; None
  beyond 20 years or without growth.

The waterfall's steps (raw to usable to effective) and the scenario totals (which leave such a system out) are
unchanged. A destination that also serves workloads of its own keeps its own figures: the Protection section
judges its copies against its free capacity.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from models.capacity.results import CapacityResult, ScenarioCapacity
    from models.replication import Protection
    from models.replication.figures import ReplicationFigures

__all__ = ["copies_logical_bytes", "with_copies"]


def copies_logical_bytes(f: ReplicationFigures) -> float:
    """The logical size of one relationship's copies on its destination, bytes: the protected data sets plus the
    held transfer and SnapVault's retained copies at the change's data reduction (change / sent per day)."""
    data = sum(c.dataset_bytes for c in f.workloads)
    reduction = f.change_bytes_per_day / f.sent_bytes_per_day if f.sent_bytes_per_day > 0 else 1.0
    held = max(f.destination_needed_bytes - f.baseline_bytes, 0.0)
    return data + held * reduction


def _with_relationships(result: CapacityResult, found: list[ReplicationFigures]) -> CapacityResult:
    """``result`` (a destination that serves no workload) holding the copies of ``found``'s relationships."""
    physical = sum(f.destination_needed_bytes for f in found)
    logical = sum(copies_logical_bytes(f) for f in found)
    runways = [f.runway_months for f in found if f.runway_months is not None]
    fits = all(f.destination_fits is not False for f in found)
    months = 0.0 if not fits else (min(runways) if runways else None)
    notes = [f"Replication copies ({f.label}, from {f.source_name}): physical used is the baseline after the "
             "source's data reduction (kept in transfer) plus the transfer held while the next one lands"
             + (" plus the retained daily copies" if f.kind == "snapvault" else "")
             + "; the total efficiency ratio is the copies' logical size over that (the source's data reduction: "
             "this system applies none of its own)"
             + ("; months until full: the copies grown month by month at their workloads' yearly growth g, "
                "by (1 + g) every 12 months ((1 + g)^(months / 12)), as in Protection and DR"
                if f.runway_months is not None else "")
             + "." for f in found]
    return replace(result, logical_used_bytes=logical, physical_used_bytes=physical,
                   efficiency_ratio=logical / physical if physical > 0 else 1.0, months_until_full=months,
                   notes=tuple(dict.fromkeys((*result.notes, *notes))))


def with_copies(capacity: ScenarioCapacity | None, protection: Protection | None) -> ScenarioCapacity | None:
    """``capacity`` with each replication-only destination's result holding its copies (module docstring);
    ``capacity`` itself when there is nothing to add (no capacity, no relationship, no such destination)."""
    if capacity is None or protection is None or not capacity.replica_only:
        return capacity
    by_target: dict[str, list[ReplicationFigures]] = {}
    for f in protection.relationships:
        if capacity.is_replica_only(f.target_id) and f.destination_free_bytes is not None:
            by_target.setdefault(f.target_id, []).append(f)
    if not by_target:
        return capacity
    systems = tuple(_with_relationships(s, by_target[s.system_id]) if s.system_id in by_target else s
                    for s in capacity.systems)
    return replace(capacity, systems=systems)
