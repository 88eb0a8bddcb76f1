"""Verdicts: does a design meet its requirements, and what should a person still be warned about.

One list of :class:`Verdict` per evaluation, read by the GUI's result views and the PDF report's summary, so both
say the same thing in the same words: a system's data fits its usable capacity or not, a workload's target meets
its SLO or not, cautions (thin headroom to saturation, an HA pair that could not carry its load after a failover:
``WorkloadPerformance.cautions``), and what a workload without a target delivers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from models.formatting import (
    NOT_AVAILABLE,
    NOT_MET,
    finite,
    fmt_capacity,
    fmt_iops,
    fmt_max_iops_at_slo,
    fmt_mbps,
    fmt_months,
    fmt_ms,
    fmt_utilization,
)
from models.units import CapacityUnit

if TYPE_CHECKING:
    from models.capacity.results import CapacityResult, ScenarioCapacity
    from models.evaluate import Evaluation
    from models.performance.results import ScenarioPerformance, WorkloadPerformance

__all__ = ["FAIL", "PASS", "CAUTION", "OPEN", "THROUGHPUT_BLOCK_KIB", "BottleneckSentence", "Headline", "Verdict",
           "bottleneck_sentence", "capacity_fits",
           "capacity_verdicts", "headline", "system_has_data", "target_cell", "target_text", "verdicts",
           "workload_verdicts"]

FAIL, PASS, CAUTION, OPEN = "fail", "pass", "caution", "open"
"""Verdict kinds, in the order a summary lists them."""
ORDER = (FAIL, PASS, CAUTION, OPEN)
MARKS = {FAIL: "\u2717", PASS: "\u2713", CAUTION: "\u26a0", OPEN: "\u2022"}
"""The sign a summary writes before each kind of verdict."""

THROUGHPUT_BLOCK_KIB = 64
"""Workloads with blocks this large are sized in MB/s: their target reads in MB/s as well as in IOPS."""


@dataclass(frozen=True)
class Verdict:
    """One sentence of a design's verdict.

    Attributes:
        kind: ``fail`` (a requirement is not met), ``pass`` (met), ``caution`` (met, but with a warning) or
            ``open`` (no target set: what the design delivers).
        subject: what it is about: a system's or a workload's name ("" for the whole scenario).
        text: the sentence after the subject, plain text (views escape it).
        area: ``capacity`` or ``performance``.
    """

    kind: str
    subject: str
    text: str
    area: str

    @property
    def line(self) -> str:
        """``subject: text`` (just the text without a subject)."""
        return f"{self.subject}: {self.text}" if self.subject else self.text

    @property
    def mark(self) -> str:
        """The sign written before the line: ✗ ✓ ⚠ •."""
        return MARKS[self.kind]


@dataclass(frozen=True)
class Headline:
    """The answer first: ``state`` is ``fail``, ``pass`` or ``none`` (no requirement stated as a target);
    ``text`` says it in a sentence; ``check_cautions`` asks the reader to look at the cautions."""

    state: str
    text: str
    check_cautions: bool = False


def capacity_fits(system: CapacityResult) -> bool | None:
    """The engine's physical used (data after reduction + Snapshot and clone blocks) within its usable capacity;
    None when either number is missing. ``system``: a ``CapacityResult``."""
    if not (finite(system.physical_used_bytes) and finite(system.usable_bytes)):
        return None
    return system.physical_used_bytes <= system.usable_bytes


def system_has_data(system: CapacityResult) -> bool:
    """True when some workload stores data on the system (its logical data or logical used is above zero)."""
    logical = system.efficiency.logical_data_bytes
    return (finite(logical) and logical > 0) or (finite(system.logical_used_bytes) and system.logical_used_bytes > 0)


def target_text(wp: WorkloadPerformance) -> str:
    """A workload's target in a sentence: ``350K IOPS``; a large-block (throughput) workload's in MB/s first,
    ``2,500 MB/s (9.5K IOPS)``; ``none`` without a target. ``wp``: a ``WorkloadPerformance``."""
    if not finite(wp.target_iops):
        return "none"
    if wp.block_kib >= THROUGHPUT_BLOCK_KIB:
        return f"{fmt_mbps(wp.target_iops * wp.block_kib * 1024 / 1e6)} ({fmt_iops(wp.target_iops)} IOPS)"
    return f"{fmt_iops(wp.target_iops)} IOPS"


def target_cell(wp: WorkloadPerformance, none_text: str = "no target") -> str:
    """A workload's target in a table cell: ``350K``; a large-block workload's with MB/s, ``9.5K (2,500 MB/s)``."""
    if not finite(wp.target_iops):
        return none_text
    text = fmt_iops(wp.target_iops)
    if wp.block_kib >= THROUGHPUT_BLOCK_KIB:
        text += f" ({fmt_mbps(wp.target_iops * wp.block_kib * 1024 / 1e6)})"
    return text


def capacity_verdicts(capacity: ScenarioCapacity | None,
                      unit: CapacityUnit | str = CapacityUnit.TIB) -> tuple[Verdict, ...]:
    """Per system that holds data: it fits (with the months until full at the planned growth) or it does not.
    ``capacity``: a ``ScenarioCapacity`` (None: capacity could not be computed, a failure)."""
    if capacity is None:
        return (Verdict(FAIL, "", "capacity could not be computed", "capacity"),)
    out = []
    for system in capacity.systems:
        if not system_has_data(system):
            continue
        name = system.system_label or system.system_id
        fits = capacity_fits(system)
        used, usable = fmt_capacity(system.physical_used_bytes, unit), fmt_capacity(system.usable_bytes, unit)
        if fits:
            months = system.months_until_full
            grow = (f", full in {fmt_months(months)} at the planned growth" if finite(months) and months > 0
                    else ", full now" if finite(months) else ", no growth planned")
            out.append(Verdict(PASS, name, f"the data needs {used} of {usable} usable{grow}", "capacity"))
        elif fits is False:
            out.append(Verdict(FAIL, name, f"the data needs {used} but only {usable} is usable", "capacity"))
    return tuple(out)


def workload_verdicts(performance: ScenarioPerformance | None) -> tuple[Verdict, ...]:
    """Per workload: its target meets the SLO or not, its cautions, or (no target) what it can deliver.
    ``performance``: a ``ScenarioPerformance`` (None: performance could not be computed, a failure)."""
    if performance is None:
        return (Verdict(FAIL, "", "performance could not be computed", "performance"),)
    out = []
    for wp in performance.workloads:
        name = wp.name
        slo = fmt_ms(wp.slo_ms, NOT_AVAILABLE)
        if wp.target_met is True:
            out.append(Verdict(PASS, name, f"{target_text(wp)} at {fmt_ms(wp.latency_at_target_ms)}, within the "
                               f"{slo} SLO (up to {fmt_max_iops_at_slo(wp.max_iops_at_slo)} at the SLO)",
                               "performance"))
        elif wp.target_met is False:
            got = (f"latency {fmt_ms(wp.latency_at_target_ms)}" if finite(wp.latency_at_target_ms)
                   else "the target is beyond saturation")
            out.append(Verdict(FAIL, name, f"{target_text(wp)} misses the {slo} SLO ({got}; the SLO holds up to "
                               f"{fmt_max_iops_at_slo(wp.max_iops_at_slo)})", "performance"))
        elif finite(wp.max_iops_at_slo) and wp.max_iops_at_slo > 0:
            out.append(Verdict(OPEN, name, f"no IOPS target set; the design delivers up to "
                               f"{fmt_max_iops_at_slo(wp.max_iops_at_slo)} within the {slo} SLO", "performance"))
        else:
            out.append(Verdict(FAIL, name, f"the {slo} SLO is {NOT_MET} even at light load", "performance"))
        out += [Verdict(CAUTION, name, caution, "performance") for caution in wp.cautions()]
    return tuple(out)


@dataclass(frozen=True)
class BottleneckSentence:
    """What limits a workload, in one sentence split so a view can emphasise the names.

    ``workload`` and ``bottleneck`` (the station's name, "" when none) are the names; ``utilisation`` the
    bottleneck's load at the target (`` (96% busy at the target of 350K IOPS)``, "" without a target);
    ``slo`` what the SLO allows (``; the SLO of 1.00 ms holds up to 363K IOPS``); ``saturation_iops`` as text.
    :attr:`text` is the whole sentence.
    """

    workload: str
    bottleneck: str
    utilisation: str
    saturation_iops: str
    slo: str

    @property
    def text(self) -> str:
        """``OLTP: the bottleneck is node 1 CPU (...); it limits the design to 365K IOPS at saturation; ...``."""
        if not self.bottleneck:
            return f"{self.workload}: no bottleneck identified{self.slo}."
        return (f"{self.workload}: the bottleneck is {self.bottleneck}{self.utilisation}; it limits the design to "
                f"{self.saturation_iops} IOPS at saturation{self.slo}.")


def bottleneck_sentence(wp: WorkloadPerformance) -> BottleneckSentence:
    """The sentence naming a ``WorkloadPerformance``'s bottleneck (the station that saturates first), how busy
    it is at the target, the saturation it sets and what the SLO allows."""
    station = next((st for st in wp.stations if st.name == wp.bottleneck), None)
    util = ""
    if station is not None and finite(wp.target_iops) and finite(station.utilization):
        util = f" ({fmt_utilization(station.utilization)} busy at the target of {fmt_iops(wp.operating_iops)} IOPS)"
    slo = (f"; the SLO of {fmt_ms(wp.slo_ms)} holds up to {fmt_max_iops_at_slo(wp.max_iops_at_slo)}"
           if finite(wp.max_iops_at_slo) and wp.max_iops_at_slo > 0
           else f"; the SLO of {fmt_ms(wp.slo_ms)} is {NOT_MET} even at light load")
    return BottleneckSentence(wp.name, wp.bottleneck or "", util, fmt_iops(wp.saturation_iops), slo)


def verdicts(evaluation: Evaluation, unit: CapacityUnit | str = CapacityUnit.TIB) -> tuple[Verdict, ...]:
    """Every verdict of a ``models.evaluate.Evaluation``, failures first, then passes, cautions, open ends."""
    found = [*capacity_verdicts(evaluation.capacity, unit), *workload_verdicts(evaluation.performance)]
    return tuple(sorted(found, key=lambda v: ORDER.index(v.kind)))


def headline(found: Sequence[Verdict]) -> Headline:
    """The first sentence of a verdict: any failure -> does not meet; any pass -> meets (check the cautions when
    there are some); else no requirement is stated as a target."""
    kinds = {v.kind for v in found}
    if FAIL in kinds:
        return Headline(FAIL, "The design does not meet every requirement.")
    if PASS in kinds:
        return Headline(PASS, "The design meets every stated requirement.", CAUTION in kinds)
    return Headline("none", "No requirement is stated as a target; the figures below are what the design delivers.")
