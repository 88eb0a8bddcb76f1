"""Verdicts: does a design meet its requirements, and what should a person still be warned about.

One list of :class:`Verdict` per evaluation, read by the GUI's result views and the PDF report's summary, so both
say the same thing in the same words: a system's data fits its usable capacity or not, a workload's target meets
its SLO or not, each required failure state holds or not, cautions (thin headroom to saturation, an HA pair that
could not carry its load after a failover: ``WorkloadPerformance.cautions``), and what a workload without a target
delivers. Whether the design meets its requirements is decided once, by ``models.verdict.design_verdict``: the
failures listed here are its misses, word for word.
"""

from __future__ import annotations

import re
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
from models.present.profile_words import (  # the one set of words for the profile kinds, re-exported here
    ASSUMED_UNMEASURED_WORDS,
    PROFILE_KIND_MEANINGS,
    UNFITTED_RELATION_UNMEASURED,
    UNMEASURED_WORDS,
    profile_kind_phrase,
    profile_kinds_legend,
)
from models.present.verdict_line import (  # the line and its kinds, re-exported here
    CAUTION,
    FAIL,
    OPEN,
    ORDER,
    PASS,
    Verdict,
)
from models.units import CapacityUnit
from models.verdict import (
    PROVIDER_HA,
    THROUGHPUT_BLOCK_KIB,
    DesignVerdict,
    design_verdict,
    fits_usable,
    runway_miss,
    system_has_data,
    system_miss,
    target_text,
    workload_miss,
)

if TYPE_CHECKING:
    from models.capacity.results import CapacityResult, ScenarioCapacity
    from models.evaluate import Evaluation
    from models.performance.results import ScenarioPerformance, WorkloadPerformance
    from models.project.model import Requirements

__all__ = ["FAIL", "PASS", "CAUTION", "OPEN", "THROUGHPUT_BLOCK_KIB", "BottleneckSentence", "Headline", "Verdict",
           "CAPACITY_NOT_JUDGED", "CAPACITY_NOT_MEASURED", "GROWTH_NOT_MEASURED_CELL", "PROFILE_KIND_MEANINGS",
           "profile_kind_phrase", "profile_kinds_legend", "UNMEASURED_WORDS",
           "CAPACITY_UNMEASURED_WORDS", "with_capacity_unmeasured",
           "partly_unmeasured_caution",
           "bottleneck_sentence", "capacity_fits",
           "capacity_verdicts", "evaluation_verdict", "headline", "system_has_data", "target_cell", "target_text",
           "verdicts", "workload_verdict_pair", "workload_verdicts"]

@dataclass(frozen=True)
class Headline:
    """The answer first: ``state`` is ``fail``, ``pass`` or ``none`` (no requirement stated as a target);
    ``text`` says it in a sentence; ``check_cautions`` asks the reader to look at the cautions."""

    state: str
    text: str
    check_cautions: bool = False


def capacity_fits(system: CapacityResult) -> bool | None:
    """The engine's physical used (data after reduction + Snapshot and clone blocks) within its usable capacity;
    None when either number is missing. ``system``: a ``CapacityResult`` (the rule: ``models.verdict.fits_usable``)."""
    return fits_usable(system.physical_used_bytes, system.usable_bytes)


def target_cell(wp: WorkloadPerformance, none_text: str = "no target") -> str:
    """A workload's target in a table cell: ``350K``; a large-block workload's with MB/s, ``9.5K (2,500 MB/s)``."""
    if not finite(wp.target_iops):
        return none_text
    text = fmt_iops(wp.target_iops)
    if wp.block_kib >= THROUGHPUT_BLOCK_KIB:
        text += f" ({fmt_mbps(wp.target_iops * wp.block_kib * 1024 / 1e6)})"
    return text


def _by_horizon(months: float, horizon_months: float) -> str:
    """``, just after the 36-month horizon`` (``, at the ...`` when one decimal cannot tell them apart) for a system
    that fits (``months`` >= ``horizon_months``) but fills within a month after the horizon; "" otherwise."""
    if horizon_months <= 0 or not 0 <= months - horizon_months < 1:
        return ""
    where = "at" if round(months, 1) == round(horizon_months, 1) else "just after"
    return f", {where} the {horizon_months:,.0f}-month horizon"


def n_plus_capacity_miss(system: CapacityResult, checks: Sequence) -> str:
    """The sentence of a missed N+k capacity check about a vSAN cluster ``system`` (``n_plus_checks``: one per
    cluster, without a subject, its text prefixed ``cluster name: `` when the scenario has several), "" when none
    of ``checks`` (``Resilience.requirement_checks``) is one."""
    if system.family != "vSAN":
        return ""
    name = system.system_label or system.system_id
    for check in checks:
        if check.requirement != "n_plus" or check.met or check.subject:
            continue
        if check.text.startswith(f"{name}: "):
            return check.text[len(name) + 2:]
        if check.text.startswith("N+"):  # one cluster: the sentence names none
            return check.text
    return ""


CAPACITY_NOT_MEASURED = "not measured"
"""A capacity figure of imported workloads whose capacity the measured files do not give (the report's Dataset
cell, the Capacity tab's verdict)."""
CAPACITY_UNMEASURED_WORDS = ("capacity not measured: the measured files give no capacity (performance counters "
                             "only); state the effective capacity needed (Requirements) to judge whether the data "
                             "fits")
"""The caution, in the report's summary and on the Capacity tab, when the imported data's capacity is not measured
(``models.project.model.capacity_unmeasured``)."""
CAPACITY_NOT_JUDGED = ("Capacity not judged; the measured data gives no capacity, so whether the data fits is not "
                       "known. The design meets every other stated requirement.")
"""The headline of a design that meets every other requirement when the data's capacity is not measured."""


def partly_unmeasured_caution(workloads: Sequence) -> Verdict | None:
    """The caution, in the report's summary, the workbook's Summary sheet and on the Capacity tab, when some imported
    workloads' capacity is not measured (``models.project.model.capacity_partly_unmeasured``'s ``workloads``): their
    data is judged only if the effective capacity needed includes it. None for no such workload."""
    if not workloads:
        return None
    names = ", ".join(w.name for w in workloads[:3]) + (f" and {len(workloads) - 3} more" if len(workloads) > 3 else "")
    count = f"{len(workloads)} imported workload{'s' if len(workloads) != 1 else ''}"
    return Verdict(CAUTION, "", f"capacity of {count} not measured ({names}: the measured files give no capacity for "
                   "them): their data is in the capacity judged only if the effective capacity needed "
                   "(Requirements) includes it", "capacity")


def with_capacity_unmeasured(found: Sequence[Verdict]) -> tuple[Verdict, ...]:
    """``found`` when the data's capacity is not measured: the :data:`CAPACITY_UNMEASURED_WORDS` caution first, and
    no capacity verdict that passes (0 bytes "fit" anywhere: never a tick beside an unknown)."""
    return (Verdict(CAUTION, "", CAPACITY_UNMEASURED_WORDS, "capacity"),
            *(v for v in found if not (v.kind == PASS and v.area == "capacity")))


GROWTH_NOT_MEASURED_CELL = "not measured (0% a year applied)"
"""A yearly growth the import did not measure (``models.project.model.data_growth_unmeasured``) where the
workloads' inputs are listed (the workbook's Workloads sheet, the PDF's workload figures): never a bare 0, which
reads as measured or chosen."""


GROWTH_UNMEASURED_WORDS = ", growth not measured (0%/yr applied: state the customer's growth)"
"""What a fitting system's verdict says of its runway when the workloads' growth was not measured."""


def capacity_verdicts(capacity: ScenarioCapacity | None,
                      unit: CapacityUnit | str = CapacityUnit.TIB, horizon_months: float = 0.0,
                      checks: Sequence = (), growth_unmeasured: bool = False) -> tuple[Verdict, ...]:
    """Per system that holds data: it fits (with the months until full at the planned growth) or it does not
    (``models.verdict.system_miss``, or ``models.verdict.runway_miss`` when it fills within ``horizon_months``:
    0, not judged; a replication destination only is judged by its relationship). ``capacity``: a
    ``ScenarioCapacity`` (None: capacity could not be computed, a failure). ``checks``: the resilience's
    ``requirement_checks``: a vSAN cluster whose data fits with every host up but misses the required N+k
    capacity (:func:`n_plus_capacity_miss`) is a failure naming the N+k, and its all-hosts figure a caution, never
    a tick beside the miss. ``growth_unmeasured``: the workloads' 0%/yr growth is not measured (an import,
    ``models.project.model.growth_unmeasured``): a system that never fills says "growth not measured", not "no
    growth planned"."""
    if capacity is None:
        return (Verdict(FAIL, "", "capacity could not be computed", "capacity"),)
    out = []
    for system in capacity.systems:
        if not system_has_data(system) or capacity.is_replica_only(system.system_id):
            continue  # a replication destination only: its copies are judged with their relationship
        miss = system_miss(system, unit)
        if miss is None:
            miss = runway_miss(system, horizon_months)
        if miss is not None:
            out.append(Verdict(FAIL, miss.subject, miss.text, miss.area))
        elif capacity_fits(system):
            name = system.system_label or system.system_id
            used = fmt_capacity(system.physical_used_bytes, unit, fixed=True)  # one unit in one sentence
            usable = fmt_capacity(system.usable_bytes, unit, fixed=True)
            months = system.months_until_full
            full_in = fmt_months(months, horizon_months)
            grow = (f", full in {full_in} at the planned growth{_by_horizon(months, horizon_months)}"
                    if finite(months) and months > 0 else ", full now" if finite(months)
                    else GROWTH_UNMEASURED_WORDS if growth_unmeasured else ", no growth planned")
            n_plus = n_plus_capacity_miss(system, checks)
            if n_plus:
                out.append(Verdict(FAIL, name, n_plus, "capacity"))
                k = re.search(r"N\+\d+", n_plus)
                out.append(Verdict(CAUTION, name, f"with every host up the data needs {used} of {usable} usable"
                                   f"{grow}; {k.group(0) if k else 'N+k'} (required) is missed", "capacity"))
            else:
                out.append(Verdict(PASS, name, f"the data needs {used} of {usable} usable{grow}", "capacity"))
    return tuple(out)


def _unmeasured(wp: WorkloadPerformance, compact: bool = False) -> str:
    """``; not measured on this system: derived from a related system's measurements, P10-P90 1.46M – 6.67M``
    when the workload's profile was not fitted to this system's own measurements (derived, hardware relation only
    or assumed: a prediction, not a validated figure), else "". ``compact`` (a laptop screen's line, whose table
    names the profile kind beside it): ``; not measured on this system, P10-P90 1.46M – 6.67M``."""
    from models.present.summary import NO_PROFILE_WORDS, no_profile_key

    kind = wp.profile or (wp.profile_basis.kind if wp.profile_basis is not None else "")
    key = no_profile_key(wp)
    words = NO_PROFILE_WORDS["vSAN"] if key == "vSAN" else UNMEASURED_WORDS.get(kind)
    if kind == "assumed" and key != "vSAN":
        from models.performance.profiles import assumed_origin

        words = ASSUMED_UNMEASURED_WORDS[assumed_origin(wp.profile_basis) or "default"]
    from models.present.uncertainty import unfitted_relation

    if words is not None and unfitted_relation(wp):
        words = UNFITTED_RELATION_UNMEASURED
    if key == "service" or wp.band_basis.split(":", 1)[-1].strip().startswith("published limits"):
        # a managed service: its limits are the provider's published figures, its latency floor assumed (review 57:
        # "0.45 ms" read as published)
        floor = assumed_floor_words(wp)
        return f"; {floor}" if floor else ""
    if words is None:
        return ""
    from models.present.iops_bound import iops_bound_words
    from models.present.uncertainty import published_bound  # on first use: a light import

    spread = slo_band_words(wp)
    if compact:
        return "; not measured on this system" + spread
    held = published_bound(wp) or iops_bound_words(wp)  # whose figure holds it, per HA pair (REVIEW44 #6)
    return f"; not measured on this system: {words}" + (f" and {held}" if held else "") + spread


_ASSUMED_FLOOR = re.compile(r"the light-load latency \((?P<ms>[\d,.]+) ms\) is assumed")
"""A managed service's note (``models.performance.paths``) that its light-load latency is assumed."""


def assumed_floor_words(wp: WorkloadPerformance) -> str:
    """``latency from an assumed 0.40 ms light-load floor, not a published figure`` for a managed service
    whose light-load latency is assumed (its path's note says so), else ""."""
    found = next((m for m in (_ASSUMED_FLOOR.search(n) for n in wp.notes) if m is not None), None)
    if found is None:
        return ""
    floor = float(found["ms"].replace(",", ""))
    return f"latency from an assumed {fmt_ms(floor)} light-load floor, not a published figure"


PESSIMISTIC_NEVER = "pessimistic case misses the SLO at every load"
"""The P10 end of a max-IOPS-at-the-SLO band that does not exist (the pessimistic prediction's latency is above the
SLO even at light load): said in words, never as a range "not met – 2.39M" that reads as starting at "not met"."""


def slo_band_words(wp: WorkloadPerformance) -> str:
    """``, uncertainty P10–P90 171K – 725K`` (the P10-P90 band of the max IOPS at the SLO, with
    :func:`_optimistic_end`); where the pessimistic end does not meet the SLO at any load, ``, uncertainty P10–P90:
    pessimistic case misses the SLO at every load; optimistic up to 2.39M``; "" without a band."""
    from models.present.uncertainty import iops_band_text

    p10, p90 = wp.max_iops_at_slo_band_p10, wp.max_iops_at_slo_band_p90
    band = iops_band_text(p10, p90, NOT_MET)
    if band == "—":
        return ""
    if finite(p10) and p10 > 0 and near_target_iops(p10, wp.target_iops) != fmt_iops(p10):
        band = f"{near_target_iops(p10, wp.target_iops)} – {band.split(' – ', 1)[1]}"  # 29,782 – 256K, not 30K
    if not (finite(p10) and p10 > 0):
        top = (f"; optimistic up to {fmt_iops(p90)}" if finite(p90) and p90 > 0
               else "; optimistic case misses it too")
        return f", uncertainty P10–P90: {PESSIMISTIC_NEVER}{top}"
    return f", uncertainty P10–P90 {band}" + _optimistic_end(wp)


def _pessimistic_below_target(wp: WorkloadPerformance) -> str:
    """The caution of a met target whose pessimistic (P10) max IOPS at the SLO is below it: ``the pessimistic case
    (P10) holds the SLO only up to 171K IOPS, below the 200K target: the target is met on the expected figures,
    not on the pessimistic ones``; :data:`PESSIMISTIC_NEVER` where the P10 meets the SLO at no load; "" when the
    P10 reaches the target, or without a band or a target."""
    p10, target = wp.max_iops_at_slo_band_p10, wp.target_iops
    if wp.target_met is not True or not finite(target) or target <= 0:
        return ""
    if not finite(p10) and not finite(wp.max_iops_at_slo_band_p90):
        return ""  # no band
    if finite(p10) and p10 >= target:  # judged unrounded (review 57: a P10 of 29,782 printed "30K" got a bare ✓)
        return ""
    held = (f"{PESSIMISTIC_NEVER}, so the {fmt_iops(target)} IOPS target" if not (finite(p10) and p10 > 0)
            else f"the pessimistic case (P10) holds the SLO only up to {near_target_iops(p10, target)} IOPS, below "
                 f"the {near_target_iops(target, target if near_target_iops(p10, target) != fmt_iops(p10) else None)} "
                 "IOPS target, so the target")
    return f"{held} is met on the expected figures, not on the pessimistic ones (uncertainty P10–P90)"


NEAR_TARGET_FRACTION = 0.05
"""Within this fraction of the target a P10 is printed to the unit (29,782 beside a 30,000 target), never rounded
to the target's own figure ("30K")."""


def near_target_iops(value: float, target: float | None) -> str:
    """IOPS as :func:`models.formatting.fmt_iops` (``256K``), but to the unit (``29,782``) where the value is within
    :data:`NEAR_TARGET_FRACTION` of ``target`` (and the target itself so, ``30,000``), so the rounding never hides on
    which side of the target it lies."""
    if finite(target) and target and finite(value) and abs(value - target) <= NEAR_TARGET_FRACTION * target:
        return f"{value:,.0f}"
    return fmt_iops(value)


def p99_above_slo(wp: WorkloadPerformance) -> str:
    """The caution of a met target whose SLO is on the mean while the p99 (or, below it, the p95) at the target
    exceeds the SLO's value: ``p99 at the target 18.6 ms exceeds the 10 ms SLO value (the SLO is on the mean
    latency): 1 I/O in 100 takes longer``; "" otherwise (review 57: "within the 10.0 ms SLO" beside a p99 of 18.6
    ms)."""
    if wp.target_met is not True or wp.slo_statistic != "mean" or not finite(wp.slo_ms):
        return ""
    for name, value, share in (("p99", wp.latency_p99_at_target_ms, "1 I/O in 100"),
                               ("p95", wp.latency_p95_at_target_ms, "1 I/O in 20")):
        if finite(value) and value > wp.slo_ms:
            return (f"{name} at the target {fmt_ms(value)} exceeds the {wp.slo_ms:g} ms SLO value (the SLO is on "
                    f"the mean latency): {share} takes longer")
    return ""


def little_caution(wp: WorkloadPerformance) -> str:
    """The engine's caution (``WorkloadPerformance.cautions``) that the target needs more outstanding I/Os than the
    workload states (Little's law), "" when it has none."""
    found = [c for c in wp.cautions() if c.startswith("needs ") and "outstanding I/Os" in c]
    return found[0] if found else ""


def concurrency_shortfall(wp: WorkloadPerformance) -> str:
    """``not reached at the stated concurrency: the workload's 256 outstanding I/Os reach only 190K IOPS, the target
    needs 340 (300K IOPS x 1.13 ms, Little's law)`` when the met target needs more outstanding I/Os than the
    workload states (``WorkloadPerformance.outstanding_needed``), else ""."""
    if wp.target_met is not True or not little_caution(wp):
        return ""
    needed = wp.outstanding_needed()
    think = f" + {wp.think_time_ms:g} ms think time" if wp.think_time_ms > 0 else ""
    reach = f" reach only {fmt_iops(wp.peak_iops)} IOPS" if finite(wp.peak_iops) else " cannot offer it"
    return (f"not reached at the stated concurrency: the workload's {wp.concurrency:,} outstanding I/Os{reach}, "
            f"the target needs {needed:,} ({fmt_iops(wp.target_iops)} IOPS x {fmt_ms(wp.latency_at_target_ms)}"
            f"{think}, Little's law)")


def _optimistic_end(wp: WorkloadPerformance) -> str:
    """``": 1.60M is its optimistic end"`` when the headline max IOPS at the SLO is the top of its own P10–P90
    range (a bound holds the P50 and the P90 at the same figure), so nobody reads it as the expected value; else
    ""."""
    from models.formatting import fmt_iops

    head, p90 = wp.max_iops_at_slo, wp.max_iops_at_slo_band_p90
    if head is None or p90 is None or not (finite(head) and finite(p90)) or head <= 0:
        return ""
    lowest = wp.max_iops_at_slo_band_p10
    if lowest is not None and finite(lowest) and lowest >= head * 0.995:
        return ""  # no spread below it: not an end of anything
    return f": {fmt_iops(head)} is its optimistic end" if head >= p90 * 0.995 else ""


def workload_verdicts(performance: ScenarioPerformance | None, compact: bool = False) -> tuple[Verdict, ...]:
    """Per workload: its target meets the SLO or not (``models.verdict.workload_miss``), its cautions, or (no
    target) what it can deliver. ``performance``: a ``ScenarioPerformance`` (None: performance could not be
    computed, a failure). ``compact``: an unmeasured profile's words in short (:func:`_unmeasured`), for a screen
    whose table shows the profile kind on the same row (the report and the tooltip keep them whole)."""
    return workload_verdict_pair(performance)[0 if compact else 1]


def workload_verdict_pair(performance: ScenarioPerformance | None) -> tuple[tuple[Verdict, ...],
                                                                            tuple[Verdict, ...]]:
    """:func:`workload_verdicts` compact and whole, (compact, whole), built in one pass: a screen shows the
    compact ones and the whole ones in their tooltip (each workload's miss and cautions are found once)."""
    if performance is None:
        failed = (Verdict(FAIL, "", "performance could not be computed", "performance"),)
        return failed, failed
    short: list[Verdict] = []
    whole: list[Verdict] = []
    for wp in performance.workloads:
        name = wp.name
        p99 = wp.slo_statistic == "p99"
        slo = fmt_ms(wp.slo_ms, NOT_AVAILABLE) + (" p99" if p99 else "")
        miss = workload_miss(wp)
        if miss is not None:
            verdict = Verdict(FAIL, miss.subject, miss.text, miss.area)
            short.append(verdict)
            whole.append(verdict)
        elif wp.target_met is True:
            head = (f"{target_text(wp)} at {'p99 ' if p99 else ''}{fmt_ms(wp.slo_bounded_at_target_ms)}, within "
                    f"the {slo if p99 else slo + ' mean'} SLO (up to {fmt_max_iops_at_slo(wp.max_iops_at_slo)} at the "
                    "SLO")
            # the design serves the target, but the workload as stated cannot offer it, or the pessimistic case
            # meets the SLO at no load: never a bare ✓ (review 57)
            short_of = concurrency_shortfall(wp)
            # what the stated outstanding I/Os reach, when less (the shortfall's own words say it where it applies;
            # the screen's compact line leaves it to the table's Ramp peak column and the tooltip)
            from models.present.concurrency import reach_words  # on first use: `import models.present` stays light

            reach = f"; {reach_words(wp)}" if reach_words(wp) and not short_of else ""
            tail = f"; {short_of}" if short_of else ""
            never = wp.target_met is True and _pessimistic_below_target(wp).startswith(PESSIMISTIC_NEVER)
            kind = CAUTION if short_of or never else PASS
            if short_of:
                head = head.replace(" SLO (up to", " SLO when offered (up to", 1)
            # the screen's line stays short (its p99 caution and the tooltip's whole line name the statistic)
            brief = head.replace(f" {slo} mean SLO", f" {slo} SLO", 1)
            short.append(Verdict(kind, name, f"{brief}{_unmeasured(wp, True)}){tail}", "performance", True))
            whole.append(Verdict(kind, name, f"{head}{reach}{_unmeasured(wp)}){tail}", "performance", True))
        else:
            head = (f"no IOPS target set; the design delivers up to {fmt_max_iops_at_slo(wp.max_iops_at_slo)} "
                    f"within the {slo} SLO")
            short.append(Verdict(OPEN, name, f"{head}{_unmeasured(wp, True)}", "performance"))
            whole.append(Verdict(OPEN, name, f"{head}{_unmeasured(wp)}", "performance"))
        little = little_caution(wp)
        cautions = [Verdict(CAUTION, name, caution, "performance") for caution in wp.cautions()
                    if caution != little]  # the shortfall is said in the workload's own line
        tail_over = p99_above_slo(wp)
        if tail_over:
            cautions.append(Verdict(CAUTION, name, tail_over, "performance"))
        pessimistic = _pessimistic_below_target(wp)
        if pessimistic and not pessimistic.startswith(PESSIMISTIC_NEVER):  # that one: in the workload's own line
            cautions.append(Verdict(CAUTION, name, pessimistic, "performance"))
        short += cautions
        whole += cautions
    return tuple(short), tuple(whole)


@dataclass(frozen=True)
class BottleneckSentence:
    """What limits a workload, in one sentence split so a view can emphasise the names.

    ``workload`` and ``bottleneck`` (the station's name, "" when none) are the names; ``utilisation`` the
    bottleneck's load at the target (`` (96% busy at the target of 350K IOPS)``; when the target saturates, at the
    saturation: `` (100% busy at 1.60M IOPS, below the target of 3.00M IOPS)``; "" without a target);
    ``slo`` what the SLO allows (``; the SLO of 1.00 ms holds up to 363K IOPS``); ``saturation_iops`` as text;
    ``bound``: whose figure an IOPS bound bottleneck is (``models.present.iops_bound.saturation_bound_words``, ""
    for any other bottleneck). :attr:`text` is the whole sentence.
    """

    workload: str
    bottleneck: str
    utilisation: str
    saturation_iops: str
    slo: str
    bound: str = ""

    @property
    def text(self) -> str:
        """``OLTP: the bottleneck is node 1 CPU (...); it limits the design to 365K IOPS at saturation; ...``."""
        if not self.bottleneck:
            return f"{self.workload}: no bottleneck identified{self.slo}."
        return (f"{self.workload}: the bottleneck is {self.bottleneck}{self.utilisation}; it limits the design to "
                f"{self.saturation_iops} IOPS at saturation{f', {self.bound}' if self.bound else ''}{self.slo}.")


def bottleneck_sentence(wp: WorkloadPerformance) -> BottleneckSentence:
    """The sentence naming a ``WorkloadPerformance``'s bottleneck (the station that saturates first), how busy
    it is at the target, the saturation it sets and what the SLO allows."""
    station = next((st for st in wp.stations if st.name == wp.bottleneck), None)
    util = ""
    if station is not None and finite(wp.target_iops) and finite(station.utilization):
        if finite(wp.operating_iops) and wp.operating_iops < wp.target_iops:  # the target saturates: the operating
            # point is the saturation, not the target
            util = (f" ({fmt_utilization(station.utilization)} busy at {fmt_iops(wp.operating_iops)} IOPS, below the "
                    f"target of {fmt_iops(wp.target_iops)} IOPS)")
        else:
            util = f" ({fmt_utilization(station.utilization)} busy at the target of {fmt_iops(wp.operating_iops)} IOPS)"
    kind = "p99 " if wp.slo_statistic == "p99" else ""
    slo = (f"; the {kind}SLO of {fmt_ms(wp.slo_ms)} holds up to {fmt_max_iops_at_slo(wp.max_iops_at_slo)}"
           if finite(wp.max_iops_at_slo) and wp.max_iops_at_slo > 0
           else f"; the {kind}SLO of {fmt_ms(wp.slo_ms)} is {NOT_MET} even at light load")
    from models.present.iops_bound import bottleneck_words, saturation_bound_words

    return BottleneckSentence(wp.name, bottleneck_words(wp), util, fmt_iops(wp.saturation_iops), slo,
                              saturation_bound_words(wp))


def evaluation_verdict(evaluation: Evaluation, requirements: Requirements | None = None,
                       unit: CapacityUnit | str = CapacityUnit.TIB) -> DesignVerdict:
    """``models.verdict.design_verdict`` of a ``models.evaluate.Evaluation`` (its capacity, performance, replication
    relationships and, when evaluated, resilience) against ``requirements`` (``project.requirements``; None: only
    what the results state), its design errors counted beside it (a met verdict says the design has them)."""
    return design_verdict(evaluation.capacity, evaluation.performance, evaluation.resilience,
                          requirements, unit, evaluation.protection, len(evaluation.errors))


def verdicts(evaluation: Evaluation, unit: CapacityUnit | str = CapacityUnit.TIB,
             requirements: Requirements | None = None, growth_unmeasured: bool = False) -> tuple[Verdict, ...]:
    """Every verdict of a ``models.evaluate.Evaluation``, failures first (the misses of
    :func:`evaluation_verdict`, word for word), then passes (each system that fits, each target met, the stated
    effective capacity reached, each required failure state that holds), cautions, open ends.
    ``growth_unmeasured``: as :func:`capacity_verdicts`."""
    decided = evaluation_verdict(evaluation, requirements, unit)
    found = [Verdict(FAIL, m.subject, m.text, m.area) for m in decided.missed]
    horizon_months = requirements.horizon_months if requirements is not None else 0
    checks = evaluation.resilience.requirement_checks if evaluation.resilience is not None else ()
    found += [v for v in (*capacity_verdicts(evaluation.capacity, unit, horizon_months, checks, growth_unmeasured),
                          *workload_verdicts(evaluation.performance)) if v.kind != FAIL]
    capacity = evaluation.capacity
    horizon = requirements.horizon_months if requirements is not None else 0
    missed = {m.subject for m in decided.missed if m.area == "capacity"}
    for system in (capacity.systems if capacity is not None and horizon > 0 else ()):
        name = system.system_label or system.system_id
        months = system.months_until_full
        if capacity is not None and capacity.is_replica_only(system.system_id):
            continue  # a replication destination only: its relationship's verdict says when the copies fill it
        if (name not in missed and system_has_data(system) and capacity_fits(system) and finite(months)
                and 0 < months < horizon):  # fits today, fills within the horizon: say so beside the tick
            found.append(Verdict(CAUTION, name, f"full in {fmt_months(months)} at the planned growth, within the "
                                 f"{horizon}-month horizon: it holds today's data, not the data grown over the "
                                 "horizon", "capacity"))
    required = requirements.effective_capacity_bytes if requirements is not None else 0
    if required and capacity is not None and not any(m.area == "capacity" and not m.subject for m in decided.missed):
        found.append(Verdict(PASS, "", "the effective capacity "  # one unit in one sentence: 0.34 TiB, not 343 GiB
                             f"{fmt_capacity(capacity.total.effective_bytes, unit, fixed=True)} reaches the required "
                             f"{fmt_capacity(required, unit, fixed=True)}", "capacity"))
    resilience = evaluation.resilience
    for check in (resilience.requirement_checks if resilience is not None else ()):
        if check.met:
            subject = check.subject
            text = check.text[len(subject) + 2:] if subject and check.text.startswith(f"{subject}: ") else check.text
            # a managed service's takeover is taken as met, not checked: a caution, never a bare pass (review 56)
            found.append(Verdict(CAUTION if check.state == PROVIDER_HA else PASS, subject, text, "resilience"))
    found += state_miss_cautions(evaluation)
    return tuple(sorted(found, key=lambda v: ORDER.index(v.kind)))


_CHECK_STATES = {"failover": "cloud_failover"}
"""A requirement check's state (``models.evaluate.RequirementCheck.state``) as the failure states' id, where they
differ (an N+k check judges the host failure state)."""
_STATE_LASTS = {"takeover": "until giveback", "cloud_failover": "until giveback", "switchover": "until switchback"}
"""How long a failure state lasts, in words, where it is not a rebuild's hours."""


def state_miss_cautions(evaluation: Evaluation) -> list[Verdict]:
    """A caution per failure state in which a workload's target misses its SLO and no stated requirement judges
    that state (review 57: a FAS70's drive rebuild at 21.7 ms against a 10 ms SLO for about 58 h left the summary
    green): ``SLO missed in drive rebuild: 21.7 ms against the 10 ms SLO at 30K IOPS, for about 58.1 h (the
    rebuild); not a stated requirement``. A state a requirement judges is that requirement's verdict (a failure or a
    pass), never said twice."""
    from models.present.resilience import state_label, state_latency

    resilience, performance = evaluation.resilience, evaluation.performance
    if resilience is None or performance is None:
        return []
    judged = set()  # (workload, state id) a requirement judges: its check's state in the states' ids
    for c in resilience.requirement_checks:
        judged.add((c.subject, _CHECK_STATES.get(c.state, c.state)))
        if c.state.startswith("N+"):
            judged.add((c.subject, "host_failure"))
    out = []
    for wp in performance.workloads:
        if wp.target_met is not True:
            continue  # its target misses in normal operation: that failure says it
        for state in resilience.states.get(wp.workload_id, ()):
            if state.meets_slo is not False or (wp.name, state.state) in judged:
                continue
            sp = state.performance
            latency = state_latency(state, wp)
            against = "" if latency == "saturated" else f" against the {sp.slo_words}"
            lasts = (f", for about {state.rebuild_hours:.1f} h (the rebuild)" if finite(state.rebuild_hours)
                     else f", {_STATE_LASTS[state.state]}" if state.state in _STATE_LASTS
                     else ", for as long as the state lasts")
            out.append(Verdict(CAUTION, wp.name, f"SLO missed in {state_label(state)}: {latency}{against} at "
                               f"{fmt_iops(sp.target_iops)} IOPS{lasts}; not a stated requirement", "resilience"))
    return out


def headline(found: Sequence[Verdict], decided: DesignVerdict | None = None) -> Headline:
    """The first sentence of a verdict. With ``decided`` (:func:`evaluation_verdict`, what every front door
    reads): does not meet (naming what is missed), meets (check the cautions when ``found`` has some), or no
    requirement stated. Without it, from the verdict lines alone: any failure -> does not meet; any pass ->
    meets; else no requirement is stated as a target."""
    kinds = {v.kind for v in found}
    if decided is not None:
        state = FAIL if decided.missed else PASS if decided.met else "none"
        if state == PASS and decided.conditional:  # met only with more outstanding I/O: the caution colour
            return Headline(CAUTION, decided.text, True)
        return Headline(state, decided.text, state == PASS and CAUTION in kinds)
    if FAIL in kinds:
        return Headline(FAIL, "The design does not meet every requirement.")
    if PASS in kinds:
        return Headline(PASS, "The design meets every stated requirement.", CAUTION in kinds)
    return Headline("none", "No requirement is stated as a target; the figures below are what the design delivers.")
