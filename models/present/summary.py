"""The status bar's one-line digest of an evaluation: usable, effective, max IOPS at the SLO, bottleneck.

Plain strings, never ``nan`` or ``inf``: a missing result reads ``n/a``, an SLO that is never met ``not met``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from models.formatting import NOT_AVAILABLE, NOT_MET, finite
from models.units import CapacityUnit, format_capacity, format_iops

if TYPE_CHECKING:
    from models.evaluate import Evaluation
    from models.performance.results import WorkloadPerformance

__all__ = ["STATUS_CAPTIONS", "status_summary"]

STATUS_CAPTIONS = {"usable": "Usable", "effective": "Effective", "max_iops_at_slo": "Max IOPS @ SLO",
                   "bottleneck": "Bottleneck"}
"""Status-bar caption of each key of :func:`status_summary`, in display order."""


def _capacity(value: float, unit: CapacityUnit) -> str:
    return format_capacity(value, unit) if finite(value) else NOT_AVAILABLE


def _peak_utilization(workload: WorkloadPerformance) -> float:
    return max((s.utilization for s in workload.stations), default=0.0)


def status_summary(evaluation: Evaluation | None, unit: CapacityUnit | str = CapacityUnit.TIB) -> dict[str, str]:
    """Formatted status-bar values for one ``models.evaluate.Evaluation`` (None: every value ``n/a``).

    Returns:
        ``usable`` and ``effective``: the scenario totals in ``unit`` (e.g. ``25.47 TiB``), ``n/a`` without a
        capacity result; ``max_iops_at_slo``: e.g. ``350K`` for one workload, ``OLTP 350K · Logs 90K`` for
        several, ``not met`` where the SLO is missed even at light load; ``bottleneck``: the bottleneck station
        of the most loaded workload (the one whose busiest station is busiest), ``n/a`` without one.
    """
    unit = CapacityUnit(unit)
    result = dict.fromkeys(STATUS_CAPTIONS, NOT_AVAILABLE)
    if evaluation is None:
        return result
    capacity = evaluation.capacity
    if capacity is not None and capacity.systems:  # no systems: nothing to sum
        result["usable"] = _capacity(capacity.total.usable_bytes, unit)
        result["effective"] = _capacity(capacity.total.effective_bytes, unit)
    performance = evaluation.performance
    workloads = performance.workloads if performance is not None else ()
    if workloads:
        def iops(w: WorkloadPerformance) -> str:
            return format_iops(w.max_iops_at_slo) if finite(w.max_iops_at_slo) else NOT_MET

        if len(workloads) == 1:
            result["max_iops_at_slo"] = iops(workloads[0])
        else:
            result["max_iops_at_slo"] = " \u00b7 ".join(f"{w.name} {iops(w)}" for w in workloads)
        busiest = max(workloads, key=_peak_utilization)
        result["bottleneck"] = busiest.bottleneck or NOT_AVAILABLE
    return result
