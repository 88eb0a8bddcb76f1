"""A system's capacity key figures as the PDF's table under its waterfall prints them (label, value), with the note
a figure needs to read right beside the others.

A replication destination that holds only copies (``ScenarioCapacity.replica_only``: Cloud Volumes ONTAP as a DR
target) applies no data reduction of its own: the copies arrive reduced by the source and stay so (kept in
transfer). Its inline data reduction is 1.00:1 while its logical used is twice its physical used (at a source's
2:1), so the table says whose ratio the 1.00:1 is and, in a note kept with the table, which ratio gives logical /
physical (the total efficiency ratio).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from models.formatting import finite, fmt_months, fmt_ratio

if TYPE_CHECKING:
    from models.capacity.results import CapacityResult

__all__ = ["REDUCTION_LABEL", "key_figures"]

REDUCTION_LABEL = "Data reduction (inline)"
"""The key figure's label for the inline data-reduction ratio."""


GROWTH_NOT_MEASURED = "growth not measured"
"""A runway figure's words where there is no projection because the growth was not measured (an import)."""


def key_figures(system: CapacityResult, cap: Callable[[float], str], replica_only: bool = False,
                growth_unmeasured: bool = False) -> tuple[list[tuple[str, str]], str | None]:
    """The key figures of one system's capacity and the note its data reduction needs.

    Args:
        system: the system's capacity result (bytes, ratios, months).
        cap: a byte count as the report prints it in the project's unit (``"7.30 TiB"``).
        replica_only: the system only holds replication copies (``ScenarioCapacity.is_replica_only``).
        growth_unmeasured: the workloads' 0%/yr growth was not measured (an import:
            ``models.project.model.growth_unmeasured``): no projection reads "growth not measured", not "no growth".

    Returns:
        ``(figures, note)``: (label, value) pairs in the table's order (data reduction, total efficiency ratio,
        logical and physical used, months until full, then Snapshot copies and thin provisioning when there are
        any); ``note`` is the sentence the data-reduction figure refers to (a replication-only destination), or
        None when it needs none.
    """
    note = None
    reduction_label = REDUCTION_LABEL
    if replica_only:
        reduction_label = f"{REDUCTION_LABEL} of this system"
        note = (f"Data reduction {fmt_ratio(system.data_reduction_ratio)}: this system applies none of its own. The "
                "copies it holds arrive reduced by the source system and stay so (the reduction is kept in "
                f"transfer), so their logical used / physical used, {cap(system.logical_used_bytes)} / "
                f"{cap(system.physical_used_bytes)}, is the total efficiency ratio, "
                f"{fmt_ratio(system.efficiency_ratio)}.")
    figures = [
        (reduction_label, fmt_ratio(system.data_reduction_ratio)),
        ("Total efficiency ratio (logical / physical, with copies)", fmt_ratio(system.efficiency_ratio)),
        ("Logical used", cap(system.logical_used_bytes)),
        ("Physical used", cap(system.physical_used_bytes)),
        ("Months until full (at growth)", GROWTH_NOT_MEASURED if growth_unmeasured and not finite(
            system.months_until_full) else fmt_months(system.months_until_full)),
    ]
    eff = system.efficiency
    if finite(eff.snapshot_copies) and eff.snapshot_copies:
        figures.append(("Snapshot copies kept", f"{eff.snapshot_copies:,.0f}, holding "
                        f"{cap(eff.snapshot_physical_bytes)} physical"))
    if finite(eff.thin_unallocated_bytes) and eff.thin_unallocated_bytes:
        figures.append(("Thin-provisioned, not allocated", cap(eff.thin_unallocated_bytes)))
    return figures, note
