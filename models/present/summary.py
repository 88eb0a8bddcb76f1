"""The status bar's one-line digest of an evaluation: usable, effective, max IOPS at the SLO, bottleneck, and
whether the design meets its requirements.

Plain strings, never ``nan`` or ``inf``: a missing result reads ``n/a``, an SLO that is never met ``not met``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from models.formatting import NOT_AVAILABLE, NOT_MET, finite
from models.units import CapacityUnit, format_capacity, format_iops
from models.verdict import design_verdict, errors_words

if TYPE_CHECKING:
    from collections.abc import Iterable

    from models.evaluate import Evaluation
    from models.performance.results import WorkloadPerformance
    from models.project.model import Requirements

__all__ = ["MET_CONDITIONAL",
           "MET_WITH_ERRORS", "NO_PROFILE_WORDS", "PARTLY_UNMEASURED_STATUS", "PROFILE_KIND_WORDS", "STATUS_CAPTIONS",
           "no_profile_key", "profile_kind_text",
           "UNMEASURED_STATUS", "profiles_text", "status_summary", "verdict_text", "workload_iops_lines",
           "worst_workload"]

STATUS_CAPTIONS = {"usable": "Usable", "effective": "Effective", "max_iops_at_slo": "Max IOPS @ SLO",
                   "bottleneck": "Bottleneck", "verdict": "Requirements"}
"""Status-bar caption of each key of :func:`status_summary`, in display order."""
UNMEASURED_STATUS = "met, capacity not measured"
"""The status bar's verdict when the design meets its requirements but the data's capacity is not measured (an
import of performance counters only: ``models.project.model.capacity_unmeasured``; 0 bytes fit anywhere)."""
MET_WITH_ERRORS = "met, but "
"""How the status bar's verdict starts when the design meets its requirements with design errors beside it
("met, but 2 design errors": :func:`verdict_text`)."""
MET_CONDITIONAL = "met only with more outstanding I/O"
"""The status bar's verdict when a target is met only with more outstanding I/Os than its workload states."""
PARTLY_UNMEASURED_STATUS = "met, capacity partly not measured"
"""The status bar's verdict when the design meets its requirements but some imported workloads' capacity is not
measured (the short form of ``models.present.verdicts.partly_unmeasured_caution``, whole in the verdict's
tooltip)."""


PROFILE_KIND_WORDS = {"calibrated": "calibrated", "derived": "derived", "assumed": "assumed",
                      "hardware relation only": "hardware relation only"}
"""How a performance figure's profile was obtained, in the words shown beside the figure: fitted to measurements
of this record ("calibrated"), a fitted profile carried over from another version, protocol or a sibling record
("derived"), its family's software costs on its own cores ("hardware relation only"), or no fit at all
("assumed": a catalogued profile none of whose fields a measurement fitted, as the E-Series', or the engine's
default CPU costs; r2 review #2: "uncalibrated default" named the second only, and the ef550's catalogued SANtricity
profile is not it). The one name of each kind on every view: the GUI table and status bar, the workbook and CSV
(:func:`profile_kind_text`); the report's and the CLI's longer words
(``models.present.uncertainty.workload_profile_text``) begin with it. Which kind's uncertainty band is widest is the
band table's to say (``models.performance.discrepancy.stored_table``), never these words'."""


SERVICE_LIMIT_ROLES = frozenset({"service_ops", "service_iops", "service_mbps"})
"""Station roles of a managed service's published limits (``models.performance.paths``' managed-service path)."""

NO_PROFILE_WORDS = {"vSAN": "assumed vSAN costs", "service": "published service limits, assumed latency floor"}
"""The words for a path no controller or cloud VM profile governs, whose figures the engine marks "assumed" (the
band width of an assumption): a vSAN cluster runs on assumed per-I/O CPU costs and a software latency taken from a
published vSAN result; a managed service on its published limits with an assumed light-load latency (its floor:
no service publishes one, so the words say so beside "published": review 57). Neither is the uncalibrated default
profile of a controller."""


def no_profile_key(workload: WorkloadPerformance) -> str:
    """The key of :data:`NO_PROFILE_WORDS` for ``workload`` (a ``WorkloadPerformance``) when no controller or cloud
    VM profile governs its path: "vSAN" (a vSAN cluster), "service" (a managed service's published limits); else
    "". Every view describes such a path in those words and no other (REVIEW44 #10)."""
    kind = workload.profile or (workload.profile_basis.kind if workload.profile_basis is not None else "")
    if kind == "assumed" and workload.profile_basis is None:
        if workload.protocol == "vSAN":
            return "vSAN"
        if any(s.ident.role in SERVICE_LIMIT_ROLES for s in workload.stations):
            return "service"
    return ""


def profile_kind_text(workload: WorkloadPerformance) -> str:
    """The words for the profile behind ``workload``'s figures (:data:`PROFILE_KIND_WORDS`); a vSAN cluster or a
    managed service, which no controller or cloud VM profile governs, in the words of :data:`NO_PROFILE_WORDS`
    (never "uncalibrated default")."""
    key = no_profile_key(workload)
    if key:
        return NO_PROFILE_WORDS[key]
    kind = workload.profile or (workload.profile_basis.kind if workload.profile_basis is not None else "")
    return PROFILE_KIND_WORDS.get(kind, kind)


def profiles_text(evaluation: Evaluation | None) -> str:
    """The profile kind of every workload's figures, for the status bar beside max IOPS at the SLO: one word when
    all workloads share it (``calibrated``), else per workload (``OLTP calibrated · Logs derived``); "" without
    performance results or profiles."""
    performance = evaluation.performance if evaluation is not None else None
    workloads = [(w.name, profile_kind_text(w)) for w in (performance.workloads if performance is not None else ())]
    kinds = {kind for _, kind in workloads if kind}
    if not kinds:
        return ""
    if len(kinds) == 1 and all(kind for _, kind in workloads):
        return next(iter(kinds))
    return " \u00b7 ".join(f"{name} {kind}" for name, kind in workloads if kind)


def worst_workload(workloads: Iterable[WorkloadPerformance]) -> WorkloadPerformance | None:
    """The workload a one-figure digest shows when there are several (``WorkloadPerformance`` rows): one that misses
    its target (``target_met`` False; of those the lowest), else the one with the lowest max IOPS at the SLO (a
    workload whose SLO is never met counts lowest); None without workloads."""
    rows = list(workloads)
    if not rows:
        return None

    def key(w: WorkloadPerformance) -> tuple[int, float]:
        iops = w.max_iops_at_slo if finite(w.max_iops_at_slo) else -1.0
        return (0 if w.target_met is False else 1, iops)

    return min(rows, key=key)


def workload_iops_lines(workloads: Iterable[WorkloadPerformance]) -> list[str]:
    """One line per workload for a tooltip: its name, max IOPS at the SLO (``not met``) and, with a target,
    whether the target is met (``SLOB (Oracle): 1.25M, target 250K met``)."""
    lines = []
    for w in workloads:
        iops = format_iops(w.max_iops_at_slo) if finite(w.max_iops_at_slo) else NOT_MET
        target = ""
        if w.target_iops is not None and finite(w.target_iops):
            target = f", target {format_iops(w.target_iops)} {'met' if w.target_met else 'missed'}"
        lines.append(f"{w.name}: {iops}{target}")
    return lines


def _capacity(value: float, unit: CapacityUnit) -> str:
    return format_capacity(value, unit) if finite(value) else NOT_AVAILABLE


def _peak_utilization(workload: WorkloadPerformance) -> float:
    return max((s.utilization for s in workload.stations), default=0.0)


def verdict_text(evaluation: Evaluation, requirements: Requirements | None = None) -> str:
    """The verdict in a few words (``models.verdict.design_verdict`` of the evaluation, its resilience when
    evaluated, against ``requirements``): ``met``, ``met, but 2 design errors`` (the evaluation has errors),
    ``missed: OLTP in takeover; ...``, or ``n/a`` when no requirement is stated or neither capacity nor performance
    was computed."""
    if evaluation.capacity is None and evaluation.performance is None:
        return NOT_AVAILABLE
    decided = design_verdict(evaluation.capacity, evaluation.performance, evaluation.resilience,
                             requirements, protection=evaluation.protection, errors=len(evaluation.errors))
    if decided.missed:
        return "missed: " + "; ".join(dict.fromkeys(m.short for m in decided.missed))
    if decided.met and decided.errors:  # never a plain "met" beside design errors
        return f"{MET_WITH_ERRORS}{errors_words(decided.errors)}"
    if decided.met and decided.conditional:  # the workloads as stated cannot offer their targets
        return MET_CONDITIONAL
    return "met" if decided.met else NOT_AVAILABLE


def status_summary(evaluation: Evaluation | None, unit: CapacityUnit | str = CapacityUnit.TIB,
                   requirements: Requirements | None = None, capacity_unknown: bool = False,
                   capacity_partly_unknown: bool = False) -> dict[str, str]:
    """Formatted status-bar values for one ``models.evaluate.Evaluation`` (None: every value ``n/a``).

    Returns:
        ``usable`` and ``effective``: the scenario totals in ``unit`` (e.g. ``25.47 TiB``; effective: usable x
        data reduction, Snapshot copies and clones not counted), ``n/a`` without a capacity result;
        ``max_iops_at_slo``: e.g. ``350K`` for one workload, ``OLTP 350K · Logs 90K`` for several, ``not met``
        where the SLO is missed even at light load; ``bottleneck``: the bottleneck station of the most loaded
        workload (the one whose busiest station is busiest), ``n/a`` without one; ``verdict``: whether the design
        meets ``requirements`` (``project.requirements``; None: what the results state) and its required failure
        states (:func:`verdict_text`); with ``capacity_unknown`` (an import without capacity,
        ``models.project.model.capacity_unmeasured``) a met verdict reads ``met, capacity not measured``; with
        ``capacity_partly_unknown`` (some imported workloads' capacity not measured,
        ``models.project.model.capacity_partly_unmeasured``: the report's caution,
        ``models.present.verdicts.partly_unmeasured_caution``) it reads :data:`PARTLY_UNMEASURED_STATUS`.
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
        from models.present.iops_bound import bottleneck_words  # the HA pair's IOPS bound named as the pair's

        result["bottleneck"] = bottleneck_words(busiest) or NOT_AVAILABLE
    result["verdict"] = verdict_text(evaluation, requirements)
    if capacity_unknown and result["verdict"] == "met":  # 0 bytes fit anywhere: never a plain "met" beside it
        result["verdict"] = UNMEASURED_STATUS
    elif capacity_partly_unknown and result["verdict"] == "met":  # the data of some workloads is not in the judged
        result["verdict"] = PARTLY_UNMEASURED_STATUS
    return result
