"""A replication-only destination (Cloud Volumes ONTAP as a DR target) as one system's capacity on screen: its key
figures, waterfall and sentences all of that system, with the data reduction replication keeps.

The engine gives such a system no data reduction of its own (``CapacityResult.data_reduction_ratio`` 1:1): the copies
arrive reduced by the source and stay so (SnapMirror keeps the source's storage efficiency in transfer:
``models.replication.figures``). Shown as 1.00:1 beside a total efficiency of 2.00:1 the two figures disagreed (GUI
review r1 #2). Here the kept ratio is the protected data sets over their size after the kept reduction, summed over
the relationships to the system (the same figures the DR copy's runway grows), so its effective capacity is its
usable capacity at that ratio, what it holds of the source's data before it is full.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from models.formatting import finite, fmt_months, fmt_ratio
from models.present.waterfall import (
    EFFECTIVE_WITH_SNAPSHOTS,
    USABLE_DETAIL,
    WITH_SNAPSHOTS_DETAIL,
    WaterfallBar,
    same_bytes,
    step_kind,
    system_waterfall,
)
from models.units import CapacityUnit, format_capacity

if TYPE_CHECKING:
    from models.capacity.results import CapacityResult, ScenarioCapacity
    from models.replication import Protection

__all__ = ["KEPT_STEP", "kept_reduction_ratio", "replica_lines", "replica_sources", "replica_waterfall",
           "shown_waterfall"]

KEPT_STEP = "Data reduction kept in transfer"
"""The waterfall step from a DR copy's usable to its effective capacity."""


def kept_reduction_ratio(protection: Protection | None, system_id: str) -> float | None:
    """The data reduction the copies on ``system_id`` keep from their source: the protected workloads' data sets
    over their size after the reduction kept in transfer, over every relationship replicating to the system; None
    without one (or without data)."""
    rows = [c for f in (protection.relationships if protection is not None else ()) if f.target_id == system_id
            for c in f.workloads]
    logical = sum(float(c.dataset_bytes) for c in rows)
    physical = sum(float(c.dataset_bytes) / c.reduction for c in rows if c.reduction and c.reduction > 0)
    return logical / physical if logical > 0 and physical > 0 else None


def replica_sources(protection: Protection | None, system_id: str) -> list[str]:
    """The names of the systems replicating to ``system_id``, in relationship order."""
    return list(dict.fromkeys(f.source_name or f.source_id for f in (
        protection.relationships if protection is not None else ()) if f.target_id == system_id))


def replica_waterfall(system: CapacityResult, ratio: float, sources: list[str]) -> list[WaterfallBar]:
    """The waterfall of a replication-only destination: its own steps down to usable, then the data reduction
    kept in transfer (``ratio``) up to its effective capacity (usable x ``ratio``), then, where retained copies
    count more logical data, the total efficiency's capacity."""
    bars = system_waterfall(system)
    cut = next((i for i, b in enumerate(bars) if b.kind == "total" and b.label == "Usable"), None)
    if cut is None:
        return bars
    usable = float(system.usable_bytes)
    effective = usable * ratio
    named = ", ".join(sources) or "the source system"
    kept = WaterfallBar(
        KEPT_STEP, step_kind(usable, effective), usable, effective,
        "NetApp ONTAP REST API reference, 'Start a SnapMirror transfer operation': transfers keep the source's "
        "storage efficiency by default",
        f"usable x {ratio:.3f} (the copies from {named} arrive compressed and deduplicated and stay so; this "
        "system applies no data reduction of its own)")
    out = [*bars[: cut + 1], kept,
           WaterfallBar("Effective", "total", 0.0, effective,
                        details=(f"{USABLE_DETAIL}, times the data reduction kept in transfer from {named}",))]
    with_copies = float(system.effective_with_snapshots_bytes)
    if finite(with_copies) and with_copies > effective and not same_bytes(with_copies, effective):
        out += [WaterfallBar("Retained copies", "gain", effective, with_copies,
                             formula="the logical size of the retained Snapshot copies over their physical size"),
                WaterfallBar(EFFECTIVE_WITH_SNAPSHOTS, "total", 0.0, with_copies, details=(WITH_SNAPSHOTS_DETAIL,))]
    return out


def shown_waterfall(capacity: ScenarioCapacity, protection: Protection | None,
                    system: CapacityResult) -> tuple[list[WaterfallBar], float | None]:
    """One system's waterfall as the screen and the report both show it, and the kept ratio (None unless the system
    is a replication-only destination whose copies keep their source's reduction): a DR copy's own steps down to
    usable, then the data reduction kept in transfer; any other system's own waterfall."""
    kept = kept_reduction_ratio(protection, system.system_id) if capacity.is_replica_only(system.system_id) else None
    if kept is None:
        return system_waterfall(system), None
    return replica_waterfall(system, kept, replica_sources(protection, system.system_id)), kept


def replica_lines(system: CapacityResult, ratio: float, sources: list[str],
                  unit: CapacityUnit | str = CapacityUnit.TIB) -> list[str]:
    """The sentences beside a DR copy's figures: its effective capacity at the kept ratio (no spread of its own)
    and its months until full, the DR copy's runway."""
    named = ", ".join(sources) or "the source system"
    lines = [f"Effective capacity: {format_capacity(float(system.usable_bytes) * ratio, unit)}, the "
             f"{format_capacity(float(system.usable_bytes), unit)} usable at the {fmt_ratio(ratio)} data reduction "
             f"the copies from {named} keep in transfer (this system applies none of its own, so it has no P10-P90 "
             "spread of its own)."]
    months = system.months_until_full
    if months is not None and finite(months):
        lines.append(f"Months until full: {fmt_months(months)}, the copies grown at their workloads' growth "
                     "(as in Protection and DR).")
    return lines
