"""The one verdict: does a design meet its requirements, and if not, what does it miss.

Every front door reads :func:`design_verdict`: the status bar, the PDF summary, the XLSX summary sheet,
``storplan evaluate`` (text and ``--json``); the sizer and the resilience checks use its rule functions
(:func:`fits_usable`, :func:`effective_meets`, :func:`slo_holds`, :func:`failover_state`), so a design is judged
by the same rules wherever it is opened. A design meets its requirements when

* capacity: every system that holds data fits it in its usable capacity (physical used, data after inline
  reduction plus the blocks of Snapshot copies and clones, within usable) now and over the project's horizon at
  the workloads' growth (the capacity engine's months until full not within ``horizon_months``, the sizer's rule:
  ``models.sizing.capacity_reasons``), and the scenario's effective capacity (usable x data reduction, the figure
  a customer is sold) reaches the project's stated effective capacity;
* performance: every workload with a target meets its SLO at that target (the engine's latency at the target,
  ``WorkloadPerformance.target_met``), and no workload misses its SLO even at light load;
* protection: every replication relationship meets its stated RPO, and its destination holds the copies, grown
  at the workloads' growth, over the project's horizon (``models.replication.figures``: the destination's runway);
* resilience: every failure state the project requires holds (``Resilience.requirement_checks``: the SLO in
  takeover or cloud failover, N+k hosts of an HCI cluster); a required state that was not or could not be
  evaluated is not met.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

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
)
from models.units import CapacityUnit

if TYPE_CHECKING:
    from models.capacity.results import CapacityResult, ScenarioCapacity
    from models.performance.resilience import StateResult
    from models.performance.results import ScenarioPerformance, WorkloadPerformance
    from models.project.model import Requirements
    from models.replication import Protection

__all__ = ["CAPACITY", "NORMAL", "NOT_EVALUATED_WORDS", "PERFORMANCE", "PROVIDER_HA", "PROVIDER_HA_WORDS",
           "RESILIENCE", "THROUGHPUT_BLOCK_KIB", "DesignVerdict", "Miss", "capacity_misses", "design_verdict",
           "errors_words", "protection_misses", "effective_meets", "failover_state", "fits_usable",
           "requirement_misses", "slo_holds", "states_required", "system_has_data", "system_miss", "target_text",
           "workload_miss", "workload_misses"]

CAPACITY, PERFORMANCE, RESILIENCE = "capacity", "performance", "resilience"
"""The areas a requirement belongs to."""

NORMAL = "normal"
"""The state of a requirement that is not a failure state."""

RPO, DR_COPY = "RPO", "DR copy"
"""The states of a replication relationship's misses: its RPO, and the copy its destination holds."""

NOT_EVALUATED_WORDS = "performance not evaluated"
"""How a workload the performance engine could not evaluate (``ScenarioPerformance.unserved``) is missed."""

THROUGHPUT_BLOCK_KIB = 64
"""Workloads with blocks this large are sized in MB/s: their target reads in MB/s as well as in IOPS."""

FAILOVER_STATES = ("takeover", "cloud_failover")
"""The failure states in which ``meet_slo_in_takeover`` asks for the SLO: an HA pair's takeover, a cloud HA
pair's failover (``models.performance.resilience``)."""

PROVIDER_HA = "provider_ha"
"""The state of a ``slo_in_takeover`` check on a managed service (Azure NetApp Files, Google Cloud NetApp Volumes):
not modelled, taken as met by the provider's high availability; every view says so (:data:`PROVIDER_HA_WORDS`),
never a bare pass and never silence (review 56)."""

PROVIDER_HA_WORDS = ("not modelled for a managed service: its failover happens inside the provider's platform, "
                     "which StorPlan does not model; the provider's high availability is taken as meeting it")
"""What the evaluation, the sizer, the report and the GUI say of the SLO in takeover on a managed service."""


class _Check(Protocol):
    """What the verdict reads of a ``models.evaluate.RequirementCheck``."""

    @property
    def requirement(self) -> str: ...
    @property
    def met(self) -> bool: ...
    @property
    def text(self) -> str: ...
    @property
    def subject(self) -> str: ...
    @property
    def state(self) -> str: ...


class _Resilience(Protocol):
    """What the verdict reads of a ``models.evaluate.Resilience`` (a layer above this module)."""

    @property
    def requirement_checks(self) -> Sequence[_Check]: ...


@dataclass(frozen=True)
class Miss:
    """One requirement the design does not meet.

    Attributes:
        area: ``capacity``, ``performance`` or ``resilience`` (a replication relationship's RPO is a
            ``resilience`` miss in the state ``RPO``; its destination's room a ``capacity`` miss in the state
            ``DR copy``).
        subject: the system's, workload's or replication relationship's name ("" for the whole scenario).
        state: ``normal``, or the failure state the requirement is about (``takeover``, ``failover``, ``N+1``;
            "" for required failure states that were not evaluated).
        text: the sentence after the subject, naming the figure that decides it (plain text).
    """

    area: str
    subject: str
    state: str
    text: str

    @property
    def line(self) -> str:
        """``subject: text`` (just the text without a subject)."""
        return f"{self.subject}: {self.text}" if self.subject else self.text

    @property
    def short(self) -> str:
        """A few words for a status bar: ``OLTP in takeover``, ``OLTP at N+1``, ``capacity at N+1``, ``AFF8080
        capacity`` (its data does not fit), ``capacity`` (the stated effective capacity, or none computed),
        ``OLTP`` (its SLO at the target), ``OLTP (no path)`` (not evaluated: no host reaches its target; ``OLTP (not
        evaluated)`` for another reason), ``required failure states`` (not evaluated), ``RPO (DR to Azure)``,
        ``DR copy capacity (DR to Azure)`` (a replication relationship's)."""
        if self.state in (RPO, DR_COPY):
            what = "DR copy capacity" if self.state == DR_COPY else "RPO"
            return f"{what} ({self.subject})" if self.subject else what
        if self.area == RESILIENCE:
            if not self.state or self.state == NORMAL:
                return "required failure states"
            what = self.subject or "capacity"
            return f"{what} in {self.state}" if self.state in ("takeover", "failover") else f"{what} at {self.state}"
        if self.area == CAPACITY:
            return f"{self.subject} capacity" if self.subject else "capacity"
        if self.text.startswith(NOT_EVALUATED_WORDS):  # a workload the engine could not evaluate: say why short
            return f"{self.subject} ({'no path' if 'has no path' in self.text else 'not evaluated'})"
        return self.subject or "performance"


@dataclass(frozen=True)
class DesignVerdict:
    """Whether a design meets its requirements (:func:`design_verdict`).

    Attributes:
        met: True when nothing is missed and some requirement is stated; False when something is missed; a
            design with no requirement stated (no data to fit, no target, no required state) is not "met" either:
            ``stated`` is then False.
        missed: what is missed, capacity first, then performance, then the failure states.
        stated: some requirement is stated.
        errors: how many design errors the evaluation has (``Evaluation.errors``: a shelf its controller does not
            take, a host with no protocol in common with its controller, more drives than bays...): a design that
            meets its requirements with errors reads "meets ..., but it has N design errors", never a plain pass.
        conditional: the names of the workloads whose target is met on the open model but needs more outstanding
            I/Os than the workload states (``WorkloadPerformance.short_of_concurrency``, Little's law): a met
            design then reads "meets ... only with more outstanding I/O than stated", never a plain pass.
    """

    met: bool
    missed: tuple[Miss, ...]
    stated: bool
    errors: int = 0
    conditional: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """The verdict in a sentence: meets every stated requirement (but has design errors, when it has some),
        does not meet them (naming each miss in a few words), or no requirement stated."""
        if self.missed:
            return ("The design does not meet its requirements: missed "
                    + "; ".join(dict.fromkeys(m.short for m in self.missed)) + ".")
        if self.met and self.errors:
            return (f"The design meets every stated requirement, but it has {errors_words(self.errors)}: its figures "
                    "hold only once they are fixed (see the problems).")
        if self.met and self.conditional:  # the design serves the targets, the workloads as stated cannot offer them
            return ("The design meets every stated requirement only with more outstanding I/O than stated: "
                    f"{', '.join(self.conditional)} cannot offer {'its' if len(self.conditional) == 1 else 'their'} "
                    "target at the stated concurrency (Little's law).")
        if self.met:
            return "The design meets every stated requirement."
        return "No requirement is stated as a target; the figures below are what the design delivers."


def errors_words(count: int) -> str:
    """``1 design error``, ``3 design errors``."""
    return f"{count} design error{'s' if count != 1 else ''}"


def fits_usable(physical_used_bytes: float | None, usable_bytes: float | None) -> bool | None:
    """The capacity rule: physical used (bytes: data after inline reduction plus Snapshot and clone blocks) within
    the usable capacity (bytes); None when either is missing or not finite."""
    if (physical_used_bytes is None or usable_bytes is None
            or not (finite(physical_used_bytes) and finite(usable_bytes))):
        return None
    return physical_used_bytes <= usable_bytes


def effective_meets(effective_bytes: float | None, required_bytes: float) -> bool:
    """The capacity requirement's rule: the effective capacity (bytes, usable x data reduction, Snapshot copies
    and clones not counted) reaches the required effective capacity (bytes; 0: none stated, always met)."""
    if required_bytes <= 0:
        return True
    return effective_bytes is not None and finite(effective_bytes) and effective_bytes >= required_bytes


def slo_holds(limit_iops: float | None, target_iops: float) -> bool:
    """The SLO rule on a curve: a target (IOPS) meets the SLO when the max IOPS within the SLO (``limit_iops``;
    None or 0: never within it) reaches it. The sizer applies it to grown targets, N+k to the reduced cluster."""
    return limit_iops is not None and finite(limit_iops) and 0 < limit_iops and limit_iops >= target_iops


def failover_state(states: Iterable[StateResult]) -> StateResult | None:
    """The takeover (or cloud failover) state among one workload's failure states
    (``models.performance.resilience.StateResult``), None when its system has no HA partner."""
    return next((st for st in states if st.state in FAILOVER_STATES), None)


def states_required(requirements: Requirements | None) -> bool:
    """True when ``project.requirements`` asks for a failure state: the SLO in takeover, or N+k hosts."""
    return bool(requirements is not None and (requirements.meet_slo_in_takeover or requirements.n_plus
                                              or requirements.meet_slo_after_site_loss))


def target_text(wp: WorkloadPerformance) -> str:
    """A workload's target in a sentence: ``350K IOPS``; a large-block (throughput) workload's in MB/s first,
    ``2,500 MB/s (9.5K IOPS)``; ``none`` without a target. ``wp``: a ``WorkloadPerformance``."""
    if not finite(wp.target_iops):
        return "none"
    if wp.block_kib >= THROUGHPUT_BLOCK_KIB:
        return f"{fmt_mbps(wp.target_iops * wp.block_kib * 1024 / 1e6)} ({fmt_iops(wp.target_iops)} IOPS)"
    return f"{fmt_iops(wp.target_iops)} IOPS"


def system_has_data(system: CapacityResult) -> bool:
    """True when some workload stores data on the system (its logical data or logical used is above zero)."""
    logical = system.efficiency.logical_data_bytes
    return (finite(logical) and logical > 0) or (finite(system.logical_used_bytes) and system.logical_used_bytes > 0)


def system_miss(system: CapacityResult, unit: CapacityUnit | str = CapacityUnit.TIB) -> Miss | None:
    """The miss of one ``models.capacity.CapacityResult`` that holds data and whose physical used exceeds its
    usable capacity (:func:`fits_usable`), capacities in ``unit``; None when it fits or holds no data."""
    if not system_has_data(system) or fits_usable(system.physical_used_bytes, system.usable_bytes) is not False:
        return None
    return Miss(CAPACITY, system.system_label or system.system_id, NORMAL,
                f"the data needs {fmt_capacity(system.physical_used_bytes, unit)} but only "
                f"{fmt_capacity(system.usable_bytes, unit)} is usable")


def runway_miss(system: CapacityResult, horizon_months: float) -> Miss | None:
    """The miss of a system that holds data and fits it today but fills within ``horizon_months`` at the workloads'
    growth (its months until full finite and below the horizon, as the sizer rejects a candidate:
    ``models.sizing.capacity_reasons``); None otherwise (no horizon, no data, already short, or full after it)."""
    months = system.months_until_full
    if (horizon_months <= 0 or not system_has_data(system) or not fits_usable(system.physical_used_bytes,
                                                                                system.usable_bytes)
            or months is None or not finite(months) or not 0 < months < horizon_months):
        return None
    return Miss(CAPACITY, system.system_label or system.system_id, NORMAL,
                f"full in {fmt_months(months, horizon_months)} at the planned growth, within the "
                f"{horizon_months:,.0f}-month "
                "horizon: it holds today's data, not the data grown over the horizon")


def capacity_misses(capacity: ScenarioCapacity | None, required_effective_bytes: float = 0.0,
                    unit: CapacityUnit | str = CapacityUnit.TIB, horizon_months: float = 0.0) -> tuple[Miss, ...]:
    """What a ``models.capacity.ScenarioCapacity`` misses (None: it could not be computed, a miss): each system
    holding data whose physical used exceeds its usable capacity (:func:`system_miss`) or that fills within
    ``horizon_months`` (:func:`runway_miss`; 0: not judged; a replication destination only, which holds copies, is
    judged by :func:`protection_misses` alone), and the scenario's effective capacity below ``required_effective_bytes``
    (:func:`effective_meets`; 0: none stated). Capacities in the text are in ``unit``."""
    if capacity is None:
        return (Miss(CAPACITY, "", NORMAL, "capacity could not be computed"),)
    own = [system for system in capacity.systems if not capacity.is_replica_only(system.system_id)]
    out = [miss for system in own if (miss := system_miss(system, unit)) is not None]
    out += [miss for system in own if (miss := runway_miss(system, horizon_months)) is not None]
    effective = capacity.total.effective_bytes
    if not effective_meets(effective, required_effective_bytes):
        out.append(Miss(CAPACITY, "", NORMAL, f"the effective capacity {fmt_capacity(effective, unit)} is below the "
                        f"required {fmt_capacity(required_effective_bytes, unit)}"))
    return tuple(out)


def protection_misses(protection: Protection | None, horizon_months: float = 0.0,
                      unit: CapacityUnit | str = CapacityUnit.TIB) -> tuple[Miss, ...]:
    """What the replication relationships of a ``models.replication.Protection`` (None: no relationship) miss:

    * its stated RPO (``ReplicationFigures.rpo_met`` False): the RPO achieved, or that the transfers fall behind;
    * its destination's room (``destination_fits`` False: the copies do not fit now; ``runway_months`` at most
      ``horizon_months``: the copies, grown at their workloads' growth, fill it within the horizon). An unknown
      free capacity (the destination's capacity not computed) is not judged here: the capacity misses say so.

    Capacities in the text are in ``unit``; ``horizon_months`` 0: only whether the copies fit now.
    """
    out: list[Miss] = []
    for f in protection.relationships if protection is not None else ():
        if f.rpo_met is False:
            got = (f"the transfers fall behind the {f.interval_minutes:,.0f}-minute schedule, so no RPO holds"
                   if not finite(f.rpo_achieved_minutes)
                   else f"the RPO achieved is {f.rpo_achieved_minutes:,.0f} min")
            out.append(Miss(RESILIENCE, f.label, RPO, f"{got}; {f.rpo_required_minutes:,.0f} min is required"))
        where = f.target_name or f.target_id
        if f.destination_fits is False:
            out.append(Miss(CAPACITY, f.label, DR_COPY, f"DR copy on {where} does not fit: it needs "
                            f"{fmt_capacity(f.destination_needed_bytes, unit)}, "
                            f"{fmt_capacity(f.destination_free_bytes, unit)} is free"))
        elif (f.destination_fits and f.runway_months is not None and horizon_months > 0
              and f.runway_months <= horizon_months):
            out.append(Miss(CAPACITY, f.label, DR_COPY, f"DR copy on {where} full in "
                            f"{f.runway_months:,.0f} months, within the {horizon_months:,.0f}-month horizon"))
    return tuple(out)


def workload_miss(wp: WorkloadPerformance) -> Miss | None:
    """The miss of one ``models.performance.WorkloadPerformance``: its target misses the SLO (the engine's latency
    at the target, ``target_met``), or, without a target, its SLO is not met even at light load; None otherwise."""
    slo = fmt_ms(wp.slo_ms, NOT_AVAILABLE) + (" p99" if wp.slo_statistic == "p99" else "")
    if wp.target_met is False:
        got = (f"{'p99 ' if wp.slo_statistic == 'p99' else ''}latency {fmt_ms(wp.slo_bounded_at_target_ms)}"
               if finite(wp.slo_bounded_at_target_ms) else "the target is beyond saturation")
        return Miss(PERFORMANCE, wp.name, NORMAL, f"{target_text(wp)} misses the {slo} SLO ({got}; the SLO holds up "
                    f"to {fmt_max_iops_at_slo(wp.max_iops_at_slo)})")
    if wp.target_met is None and not (finite(wp.max_iops_at_slo) and wp.max_iops_at_slo > 0):
        return Miss(PERFORMANCE, wp.name, NORMAL, f"the {slo} SLO is {NOT_MET} even at light load")
    return None


def workload_misses(performance: ScenarioPerformance | None) -> tuple[Miss, ...]:
    """What a ``models.performance.ScenarioPerformance`` misses (None: it could not be computed, a miss): each
    workload's :func:`workload_miss`, then each workload it could not evaluate (``unserved``: no host reaches its
    target, its controller has no drives): a target that cannot be served is not met."""
    if performance is None:
        return (Miss(PERFORMANCE, "", NORMAL, "performance could not be computed"),)
    return (*(miss for wp in performance.workloads if (miss := workload_miss(wp)) is not None),
            *(Miss(PERFORMANCE, name, NORMAL, f"{NOT_EVALUATED_WORDS}: {why}")
              for _id, name, why in performance.unserved))


def requirement_misses(checks: Sequence[_Check], resilience_given: bool, requirements: Requirements | None = None,
                       targeted: bool = True) -> tuple[Miss, ...]:
    """What the required failure states miss: each ``RequirementCheck`` not met; and, when the project requires a
    failure state (:func:`states_required`) for workloads with targets (``targeted``) but no resilience was
    evaluated (``resilience_given`` False), one miss saying so (a requirement that cannot be confirmed is not
    met)."""
    out = [Miss(RESILIENCE, c.subject, c.state or c.requirement, _after_subject(c.text, c.subject))
           for c in checks if not c.met]
    if not resilience_given and states_required(requirements) and targeted:
        out.append(Miss(RESILIENCE, "", "", "the required failure states were not evaluated"))
    return tuple(out)


def _after_subject(text: str, subject: str) -> str:
    """A check's sentence without its leading ``subject: `` (the miss carries the subject itself)."""
    prefix = f"{subject}: "
    return text[len(prefix):] if subject and text.startswith(prefix) else text


def design_verdict(capacity: ScenarioCapacity | None, performance: ScenarioPerformance | None,
                   resilience: _Resilience | None = None, requirements: Requirements | None = None,
                   unit: CapacityUnit | str = CapacityUnit.TIB,
                   protection: Protection | None = None, errors: int = 0) -> DesignVerdict:
    """Does a design meet its requirements (module docstring for the rules)?

    Args:
        capacity: a ``models.capacity.ScenarioCapacity`` (None: it could not be computed).
        performance: a ``models.performance.ScenarioPerformance`` (None: it could not be computed).
        resilience: a ``models.evaluate.Resilience`` (its ``requirement_checks``) or None when not evaluated.
        requirements: ``project.requirements`` (its stated effective capacity and required failure states); None:
            only what the results themselves state (data to fit, targets, the resilience's checks).
        unit: the capacity unit of the sentences.
        protection: the replication relationships evaluated (``models.evaluate.Evaluation.protection``; None: no
            relationship), judged on the horizon of ``requirements`` (:func:`protection_misses`).
        errors: how many design errors the evaluation has (``len(Evaluation.errors)``): kept beside a met verdict,
            whose sentence then says so (:attr:`DesignVerdict.text`).

    Returns:
        A :class:`DesignVerdict`; pure: the same inputs give the same verdict.
    """
    required = float(requirements.effective_capacity_bytes) if requirements is not None else 0.0
    checks = tuple(resilience.requirement_checks) if resilience is not None else ()
    targeted = performance is not None and any(finite(wp.target_iops) for wp in performance.workloads)
    horizon = float(requirements.horizon_months) if requirements is not None else 0.0
    guarded = protection_misses(protection, horizon, unit)
    missed = (*capacity_misses(capacity, required, unit, horizon), *(m for m in guarded if m.area == CAPACITY),
              *workload_misses(performance),
              *requirement_misses(checks, resilience is not None, requirements, targeted),
              *(m for m in guarded if m.area != CAPACITY))
    stated = bool(missed or required > 0 or checks or targeted
                  or (protection is not None and bool(protection.relationships))
                  or (capacity is not None and any(system_has_data(s) for s in capacity.systems)))
    conditional = tuple(dict.fromkeys(wp.name for wp in (performance.workloads if performance is not None else ())
                                      if wp.short_of_concurrency))
    return DesignVerdict(stated and not missed, tuple(missed), stated, errors, conditional)
