"""The figure counting Snapshot and FlexClone copies (usable capacity x ONTAP's total efficiency ratio, logical used
/ physical used): an effective capacity that counts each copy at its full logical size, not capacity to sell or to
fill, under one name on every surface (the Capacity
tab's key figure and waterfall, the workbook's Summary and waterfall sheets, the PDF), and withheld as a headline
where the design misses its capacity requirement (review cons57 #2: "Logical incl. Snapshot copies" on the screen
and "Effective with Snapshot copies and clones" in the waterfall, the workbook and the report named one figure
twice, and the waterfall's bar and the Summary row gave it as capacity on a design full in 8.8 months).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from models.evaluate import Evaluation
    from models.project.model import Requirements, Workload

__all__ = ["LOGICAL_DATA_WITH_SNAPSHOTS", "NOT_CAPACITY_WHEN_MISSED", "capacity_missed", "logical_data_withheld"]

LOGICAL_DATA_WITH_SNAPSHOTS = "Effective incl. Snapshot copies"
"""The one name of the figure: usable capacity x the total efficiency ratio, which counts every Snapshot and FlexClone
copy at its full logical size (review 57 second pass: "Logical data incl. Snapshot copies" read as the data the
customer holds; 119.43 TiB on an AFF A90 holding 27.28 TiB)."""

NOT_CAPACITY_WHEN_MISSED = ("Not capacity to sell or to fill: it counts every Snapshot and FlexClone copy at its "
                            "full logical size, while the design misses its capacity requirement")
"""Why the figure is greyed (the waterfall's bar) or left out (the key figure, the Summary row) on a design that
misses its capacity requirement."""


def capacity_missed(verdicts: Iterable[Any], months_until_full: float | None) -> bool:
    """True when a design misses its capacity requirement as the Capacity tab shows it: a capacity verdict fails
    (``models.present.verdicts.Verdict`` of kind ``fail``, area ``capacity``: the data does not fit, it fills
    within the horizon, a vSAN N+k capacity miss, a DR copy that does not fit or fills within the horizon), or
    the months until full are 0 (full now)."""
    from models.formatting import finite

    return any(v.kind == "fail" and v.area == "capacity" for v in verdicts) or (
        months_until_full is not None and finite(months_until_full) and months_until_full <= 0)


def logical_data_withheld(evaluation: Evaluation, requirements: Requirements | None,
                          workloads: Iterable[Workload] = (), resilience: Any = None) -> bool:
    """:func:`capacity_missed` for a whole scenario as the Capacity tab's All systems view judges it: the capacity
    verdicts (``models.present.verdicts.capacity_verdicts`` over the requirements' horizon, with the resilience's
    N+k checks) and the DR copies' capacity misses (``models.verdict.protection_misses``), and the months until the
    first system fills (a DR copy included: ``models.present.dr_copy.first_to_fill``). ``workloads``: the
    scenario's (an import's unmeasured growth is worded apart; the judgement is the same); ``resilience``: the
    failure states and runway (``models.evaluate.Resilience``; None: the evaluation's own)."""
    from models.present.dr_copy import first_to_fill
    from models.present.verdicts import FAIL, Verdict, capacity_verdicts
    from models.project.model import growth_unmeasured
    from models.verdict import CAPACITY, protection_misses

    capacity = evaluation.capacity
    if capacity is None:
        return True
    horizon = float(requirements.horizon_months) if requirements is not None else 0.0
    resilience = resilience if resilience is not None else evaluation.resilience
    found = list(capacity_verdicts(capacity, "TiB", horizon, resilience.requirement_checks if resilience else (),
                                   growth_unmeasured(list(workloads))))
    found += [Verdict(FAIL, m.subject, m.text, m.area)
              for m in protection_misses(evaluation.protection, horizon) if m.area == CAPACITY]
    first = first_to_fill(capacity)
    months = first[0] if first is not None and len(capacity.systems) > 1 else capacity.total.months_until_full
    return capacity_missed(found, months)
