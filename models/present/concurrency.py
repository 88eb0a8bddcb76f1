"""The stated concurrency beside the open model's figures, as every view prints them (review 57, PDF #2/#3, GUI #7).

The max IOPS at the SLO and ``target_met`` come from the open model: the design with as many outstanding I/Os as
it needs. A workload states its own outstanding I/Os (``WorkloadPerformance.concurrency``); its closed ramp of N =
1..concurrency reaches ``peak_iops`` (Little's law N = X R). Where that is lower than the max IOPS at the SLO, the
headline says both (:func:`max_iops_with_reach`: ``1.79M IOPS; 1.30M at the stated 450 outstanding I/Os``), and a
target met only with more outstanding I/Os than stated reads :data:`TARGET_CONDITIONAL`, its headroom
:data:`NO_HEADROOM` (:func:`headroom_cell`): the reachable IOPS are below the target, so no margin holds.

``HEADROOM_BASIS``: the headroom everywhere is measured to saturation (the open model's asymptote), not to the max
IOPS at the SLO beside it; the column headers say so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from models.formatting import fmt_iops, fmt_max_iops_at_slo
from models.present.headroom import fmt_headroom

if TYPE_CHECKING:  # only for the annotations: importing it loads the performance package (start-up, issue 27)
    from models.performance.results import WorkloadPerformance

__all__ = ["CONDITIONAL_WHY", "HEADROOM_BASIS", "HEADROOM_HEADER", "NO_HEADROOM", "TARGET_CONDITIONAL", "headroom_cell",
           "max_iops_with_reach", "reach_words", "target_met_cell"]

TARGET_CONDITIONAL = "Conditional"
"""Target met on the open model, but not at the workload's stated outstanding I/Os (a table cell; its note or the
verdict line says why: :data:`CONDITIONAL_WHY`)."""

CONDITIONAL_WHY = "met only with more outstanding I/O than the workload states"
"""Why a target met reads :data:`TARGET_CONDITIONAL`."""

NO_HEADROOM = "\u2014"
"""The headroom of a target the stated concurrency cannot reach."""

HEADROOM_HEADER = "Headroom to saturation"
"""The headroom column's header: measured to saturation, not to the max IOPS at the SLO."""

HEADROOM_BASIS = ("headroom is (saturation \u2212 target) / target, measured to saturation, not to the max IOPS at "
                  "the SLO; \u2014 where the stated outstanding I/Os cannot reach the target")
"""How the headroom is measured, in the words a tooltip or a table note gives."""


def reach_words(wp: WorkloadPerformance, compact: bool = False) -> str:
    """``1.30M at the stated 450 outstanding I/Os`` (``compact``: ``1.30M at 450 outstanding I/Os``, for a table
    cell) where the workload's own outstanding I/Os reach fewer IOPS than the max IOPS at the SLO
    (``WorkloadPerformance.iops_at_stated_concurrency``), else ""."""
    reach = wp.iops_at_stated_concurrency
    if reach is None or wp.concurrency is None:
        return ""
    return f"{fmt_iops(reach)} at {'' if compact else 'the stated '}{wp.concurrency:,} outstanding I/Os"


def max_iops_with_reach(wp: WorkloadPerformance, unit: bool = True, compact: bool = False) -> str:
    """The headline max IOPS at the SLO with what the stated concurrency reaches when lower: ``1.79M IOPS; 1.30M
    at the stated 450 outstanding I/Os`` (``unit`` False: ``1.79M; 1.30M at ...``, for a column whose header
    names IOPS; ``compact``: :func:`reach_words` compact); the max IOPS at the SLO alone otherwise
    (``models.formatting.fmt_max_iops_at_slo``)."""
    head = fmt_max_iops_at_slo(wp.max_iops_at_slo)
    if not unit and head.endswith(" IOPS"):
        head = head[:-len(" IOPS")]
    reach = reach_words(wp, compact)
    return f"{head}; {reach}" if reach else head


def target_met_cell(wp: WorkloadPerformance, yes: str = "Yes", no: str = "No", none: str = "\u2014") -> str:
    """Target met as a cell: ``yes`` / ``no``, :data:`TARGET_CONDITIONAL` where the target is met only with more
    outstanding I/Os than the workload states, ``none`` without a target."""
    if wp.target_met is None:
        return none
    if wp.target_met and wp.short_of_concurrency:
        return TARGET_CONDITIONAL
    return yes if wp.target_met else no


def headroom_cell(wp: WorkloadPerformance, none_text: str = "\u2014", signed: bool = True) -> str:
    """The headroom to saturation (``models.present.headroom.fmt_headroom``), or :data:`NO_HEADROOM` where the
    stated outstanding I/Os cannot reach the target (the margin would be against IOPS the workload never offers)."""
    if wp.short_of_concurrency:
        return NO_HEADROOM
    return fmt_headroom(wp.headroom_pct, none_text, signed=signed)

