"""Failure states and the runway in words, shared by the CLI, the GUI and the report: one verdict per state
("meets the 1 ms SLO at 350K IOPS in takeover: no, 2.4 ms") and the runway's months."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from models.formatting import finite, fmt_iops, fmt_months, fmt_ms
from models.units import growth_factor

if TYPE_CHECKING:
    from models.evaluate import Evaluation, RequirementCheck, Resilience
    from models.performance.resilience import StateResult
    from models.performance.results import WorkloadPerformance
    from models.present.verdict_line import Verdict
    from models.project.model import Requirements, Scenario

STATE_NAMES = {
    "takeover": "takeover",
    "path_loss": "path loss",
    "drive_rebuild": "drive rebuild",
    "host_failure": "host failure",
    "cloud_failover": "cloud failover",
    "switchover": "MetroCluster switchover",
    "site_failure": "site failure",
}
"""State id -> its name in sentences."""


def state_name(state: str) -> str:
    """The words for a state id (the id itself when unknown)."""
    return STATE_NAMES.get(state, state.replace("_", " "))


def state_label(state: StateResult) -> str:
    """The words for a ``models.performance.resilience.StateResult``: its platform's own name for the state where it
    has one (``label``: an E-Series takeover is a "controller failover"), else :func:`state_name` of its id."""
    return state.label or state_name(state.state)


HA_STATE_WORDS = {"on-prem": "takeover", "cloud": "failover"}
"""What a deployment the sizer searches calls the state ``meet_slo_in_takeover`` judges: an on-premises ONTAP HA
pair's takeover, a Cloud Volumes ONTAP HA pair's failover (an HCI cluster answers with N+k, a managed service's
HA is the provider's: neither has the state)."""


def ha_state_words(requirements: Requirements) -> str:
    """The words after "every workload's SLO at its grown target" for ``requirements`` (a
    ``models.project.model.Requirements``): " in takeover too", " in failover too" for a cloud-only search, both
    named when on-premises and cloud designs are searched (an E-Series array's "controller failover" where the
    search names the E-Series family: " in controller failover too" when it is the only family); "" when the SLO
    is not required in the failure state or no searched deployment has it."""
    if not requirements.meet_slo_in_takeover:
        return ""
    states = [word for deployment, word in HA_STATE_WORDS.items() if deployment in requirements.deployments]
    if not states:
        return ""
    families = set(requirements.families)
    if "on-prem" in requirements.deployments and families == {"E-Series"}:
        states = ["controller failover" if word == "takeover" else word for word in states]  # no ONTAP searched
    elif "on-prem" in requirements.deployments and "E-Series" in families:
        return (" in takeover too (controller failover for E-Series"
                + (", failover for a Cloud Volumes ONTAP HA pair)" if len(states) > 1 else ")"))
    if len(states) == 1:
        return f" in {states[0]} too"
    return f" in {states[0]} too (failover for a Cloud Volumes ONTAP HA pair)"


def ha_state_label(requirements: Requirements) -> str:
    """The failure state ``meet_slo_in_takeover`` judges under ``requirements``' searched deployments and families,
    as a form names it: "takeover", "failover" (cloud only), "controller failover" (E-Series only), "takeover /
    failover" (arrays and the cloud) or "takeover / controller failover"; "" when no searched deployment has the
    state (an HCI cluster answers with N+k). The words of :func:`ha_state_words`, whatever the checkbox's value."""
    states = [word for deployment, word in HA_STATE_WORDS.items() if deployment in requirements.deployments]
    if "on-prem" in requirements.deployments and "E-Series" in requirements.families:
        states = (["controller failover"] if set(requirements.families) == {"E-Series"}
                  else ["takeover", "controller failover"]) + states[1:]
    return " / ".join(states)


RELIEF_WORDS = {
    "takeover": "the HA partner's NVRAM mirroring stops in takeover, so writes no longer wait for it",
    "cloud_failover": "write mirroring to the partner VM stops in cloud failover, so writes no longer wait for it",
    "switchover": "mirroring to the other site stops in switchover, so writes no longer wait for it",
    "site_failure": "a write is stored at one site and no longer waits the inter-site round trip nor crosses the "
                    "inter-site link",
}
"""Why a state that stops work of normal operation (``StateResult.relieved``: mirroring to a failed partner) can
be faster than normal operation, per state id; another state with relieved work reads :data:`RELIEF_OTHER`."""

RELIEF_LABEL_WORDS = {
    "controller failover": "write cache mirroring between the controllers stops in controller failover, so writes no "
                           "longer wait for it",
}
""":data:`RELIEF_WORDS` of a state the platform names otherwise (``StateResult.label``), by that name."""

RELIEF_OTHER = "work of normal operation stops in this state"

RELIEF_SHORT = {
    "takeover": "no NVRAM mirroring to the partner",
    "cloud_failover": "no write mirroring to the partner VM",
    "switchover": "no mirroring to the other site",
    "site_failure": "no write crosses to the other site",
}
""":data:`RELIEF_WORDS` in a few words for a screen's one line per workload (:func:`compact_states`); another state
with relieved work reads :data:`RELIEF_OTHER_SHORT`."""

RELIEF_LABEL_SHORT = {"controller failover": "no write cache mirroring between the controllers"}
""":data:`RELIEF_LABEL_WORDS` in a few words."""

RELIEF_OTHER_SHORT = "less work than normal"


def _finer_ms(value: float, digits: int) -> str:
    """A latency with ``digits`` more decimals than :func:`models.formatting.fmt_ms` prints it (``0.106 ms`` for
    0.1055 at one more; 100 ms and above keep whole milliseconds plus ``digits``)."""
    base = 0 if value >= 99.95 else 1 if value >= 9.995 else 2
    return f"{value:,.{base + digits}f} ms"


def below_normal_ms(now: float | None, before: float | None) -> tuple[str, str] | None:
    """A state's latency ``now`` and normal operation's ``before`` (ms) as printed side by side when ``now`` is the
    lower: as :func:`models.formatting.fmt_ms` prints them, or with one more decimal where those read alike (0.106
    and 0.108 ms, both "0.11 ms"); None where ``now`` is not lower, either is missing, or they read alike with that
    decimal too (the solvers' rounding, not a state faster than normal)."""
    if now is None or before is None or not (now < before):
        return None
    a, b = fmt_ms(now), fmt_ms(before)
    if a != b:
        return a, b
    a, b = _finer_ms(now, 1), _finer_ms(before, 1)
    return (a, b) if a != b else None


def relief_words(state: StateResult, normal: WorkloadPerformance | None) -> str:
    """``below normal operation's 0.11 ms: the HA partner's NVRAM mirroring stops in takeover, so writes no longer
    wait for it`` when ``state`` (a ``StateResult``) stops work of normal operation (``relieved``) and its latency at
    the target is lower than ``normal``'s (the workload's ``WorkloadPerformance`` in normal operation, both
    ``slo_bounded_at_target_ms``; normal's figure with one more decimal where the two print alike:
    :func:`below_normal_ms`); else "" (no target, no normal figures, or not lower)."""
    if normal is None or not state.relieved or state.performance.target_iops is None:
        return ""
    pair = below_normal_ms(state.performance.slo_bounded_at_target_ms, normal.slo_bounded_at_target_ms)
    if pair is None:
        return ""
    words = RELIEF_LABEL_WORDS.get(state.label) or RELIEF_WORDS.get(state.state, RELIEF_OTHER)
    said = _RELIEF_IN_REASON.search(state.reason) if state.state == "site_failure" else None
    if said is not None:  # the state's own reason (the XLSX Reason column) with its round trip
        words = said.group(0)
    return f"below normal operation's {pair[1]}: {words}"


def state_latency(state: StateResult, normal: WorkloadPerformance | None = None) -> str:
    """A state's latency at the target as its verdict prints it (``fmt_ms``; "saturated" where None), with one more
    decimal where it is below ``normal``'s but prints alike (``0.106 ms`` beside normal's 0.108 ms, both "0.11 ms":
    :func:`below_normal_ms`) and the state says why (:func:`relief_words`)."""
    now = state.performance.slo_bounded_at_target_ms
    if relief_words(state, normal):
        pair = below_normal_ms(now, normal.slo_bounded_at_target_ms if normal is not None else None)
        if pair is not None:
            return pair[0]
    return fmt_ms(now)


_RELIEF_IN_REASON = re.compile(r"a write is stored at one site and no longer waits the [\d.]+ ms inter-site round "
                               r"trip nor crosses the inter-site link")
"""The clause of a vSAN site failure's reason (``models.performance.states``) that says why it can be faster than
normal operation."""


OTHERS_SATURATE = "is saturated by the other workloads"
"""The engine's note on a state whose other load alone fills a shared station (``models.performance.engine``: the
workload keeps a tiny capacity there, so its saturation figure is a clamp, not a capacity)."""


def state_saturation_words(state: StateResult) -> str:
    """A failure state's saturation in words: ``1.12M IOPS``; where the other load alone fills a station its path
    shares (the engine notes :data:`OTHERS_SATURATE` and its figure is a clamp, 0.1% of a capacity: review 57 saw
    "1.6K IOPS"), ``saturated: the surviving site's own load alone exceeds its limit`` in a MetroCluster switchover,
    ``saturated: the other workloads' load alone exceeds its limit`` elsewhere."""
    if any(OTHERS_SATURATE in note for note in state.performance.notes):
        whose = "the surviving site's own load" if state.state == "switchover" else "the other workloads' load"
        return f"saturated: {whose} alone exceeds its limit"
    return f"{fmt_iops(state.performance.saturation_iops)} IOPS"


_GROWN_AT = re.compile(r"at (?P<rate>[\d,]+) IOPS, the target grown over the (?P<horizon>\d+)-month horizon")
"""The grown target and horizon in a takeover or site-loss requirement's sentence (``models.evaluate``)."""


def requirement_short(check: RequirementCheck, states: Iterable[StateResult] = ()) -> str:
    """A takeover or site-loss requirement's check (``models.evaluate.RequirementCheck``) in a few words for a
    laptop screen's line: ``SLO in takeover``; checked at the grown target, ``SLO in takeover at the target grown
    over 36 months``, and where it is missed the figures that decide it (review 57: "✗ SLO in takeover at the
    grown target" gave neither): ``(1.05M IOPS > takeover saturation 800K)`` when the state saturates below it
    (``states``: the workload's failure states), ``(1.05M IOPS: 1.20 ms)`` when it is only slow."""
    site = check.requirement == "slo_after_site_loss"
    base = "SLO after losing a site" if site else "SLO in takeover"
    grown = _GROWN_AT.search(check.text)
    if grown is None:
        return base
    words = f"{base} at the target grown over {grown['horizon']} months"
    if check.met:
        return words
    rate = float(grown["rate"].replace(",", ""))
    wanted = {"takeover": ("takeover",), "failover": ("cloud_failover",)}.get(check.state, (check.state,))
    state = next((s for s in states if s.state in wanted), None)
    if check.text.endswith("saturated") and state is not None:
        sat = state_saturation_words(state)
        limit = f"{state_label(state)} {sat}" if sat.startswith("saturated") else \
            f"{state_label(state)} saturation {fmt_iops(state.performance.saturation_iops)}"
        return f"{words} ({fmt_iops(rate)} IOPS > {limit})" if not sat.startswith("saturated") else \
            f"{words} ({fmt_iops(rate)} IOPS; {limit})"
    latency = re.search(r"missed, ([\d.]+ ms)", check.text)
    return f"{words} ({fmt_iops(rate)} IOPS: {latency.group(1)})" if latency else f"{words} ({fmt_iops(rate)} IOPS)"


def state_verdict(state: StateResult, normal: WorkloadPerformance | None = None) -> str:
    """One sentence for a ``models.performance.resilience.StateResult``: with a target, ``meets the 1 ms SLO at
    350K IOPS in takeover: yes, 0.41 ms`` (``no, 2.4 ms`` / ``no, saturated``); without one, the state's saturation
    and max IOPS at the SLO. With ``normal`` (the workload in normal operation), a latency below normal's says why
    in the same sentence (:func:`relief_words`)."""
    wp = state.performance
    name = state_label(state)
    if wp.target_iops is None:
        return (f"in {name}: saturation {fmt_iops(wp.saturation_iops)} IOPS, max {fmt_iops(wp.max_iops_at_slo, 'none')}"
                f" IOPS within the {wp.slo_words}")
    answer = "yes" if state.meets_slo else "no"
    latency = state_latency(state, normal)  # "saturated" where None
    relief = relief_words(state, normal)
    return (f"meets the {wp.slo_words} at {fmt_iops(wp.target_iops)} IOPS in {name}: {answer}, {latency}"
            + (f" ({relief})" if relief else ""))


def full_words(months: float | None) -> str:
    """The capacity's months until full as the capacity table and the verdicts word them (``150 months``, ``no
    growth``), ``already`` when full now: one figure wherever it is read, never capped at the ten years the
    growing targets' runway looks at."""
    return "already" if months is not None and months <= 0 else fmt_months(months)


def targets_grow(resilience: Resilience) -> bool:
    """True unless the runway knows every workload's IOPS growth and none is above 0 % a year (an empty mapping,
    a runway built without it, counts as growing: the wording it always had)."""
    growth = dict(resilience.iops_growth_pct_per_year)
    return not growth or any(g > 0 for g in growth.values())


NO_IOPS_GROWTH = "IOPS targets do not grow in this project (0% a year)"
"""What the runway says instead of the growing targets' months when no workload's IOPS target grows."""


def static_targets(resilience: Resilience) -> str:
    """:data:`NO_IOPS_GROWTH` with what today's targets give: already breached or saturated, else that neither
    comes with time (the capacity alone grows)."""
    breach, saturation = resilience.months_until_slo_breach, resilience.months_until_saturation
    if saturation is not None and saturation <= 0:
        return f"{NO_IOPS_GROWTH}: a target already saturates today"
    if breach is not None and breach <= 0:
        return f"{NO_IOPS_GROWTH}: the SLO is already breached at today's target"
    if breach is None and saturation is None:
        return f"{NO_IOPS_GROWTH}: no SLO breach or saturation comes with time"
    return ""  # a later month without growth (not the runway's model today): the months are said as they are


def runway_lines(resilience: Resilience, growth_unmeasured: bool = False) -> list[str]:
    """The runway in three lines: the capacity's months until full (:func:`full_words`), and the growing targets'
    months (``not within ten years`` for None: their runway looks ten years ahead); when no workload's IOPS
    target grows (:func:`targets_grow`), two lines: the capacity's and :func:`static_targets`.
    ``growth_unmeasured``: the workloads' 0%/yr growth was not measured (an import,
    ``models.project.model.growth_unmeasured``): no projection reads "growth not measured", not "no growth"."""
    def months(value: float | None) -> str:
        if value is None:
            return "not within ten years"
        return "already" if value <= 0 else fmt_months(value)

    unmeasured = growth_unmeasured and not finite(resilience.months_until_full)
    full = ("months until full: growth not measured (0%/yr applied)" if unmeasured
            else f"months until full: {full_words(resilience.months_until_full)}")
    grows = targets_grow(resilience)
    static = "" if grows else static_targets(resilience)
    if static:
        return [full, static]
    target = "the growing target" if grows else "the target"
    lines = [full,
             f"months until the SLO is breached at {target}: {months(resilience.months_until_slo_breach)}",
             f"months until {target} saturates: {months(resilience.months_until_saturation)}"]
    breach = takeover_breach(resilience) if grows else None
    if breach is not None:
        lines.append(f"months until the SLO is breached in {breach[1]} at the growing target (required): "
                     f"{months(breach[0])}")
    return lines


def takeover_breach(resilience: Resilience) -> tuple[float | None, str] | None:
    """When the project requires the SLO in takeover (a ``slo_in_takeover`` requirement check): the earliest month
    a workload's growing target passes its max IOPS at the SLO in the takeover (cloud failover) state, and that
    state in words (``"takeover"``, ``"failover"``, an E-Series ``"controller failover"``); (None, words) when not
    within ten years; None when not required or no workload has the state. The state's figure is with the other
    workloads at today's targets (:func:`models.performance.resilience.months_to_reach`)."""
    from models.performance.resilience import months_to_reach
    from models.verdict import failover_state

    if not any(c.requirement == "slo_in_takeover" for c in resilience.requirement_checks):
        return None
    found: list[tuple[float | None, str]] = []
    for wid, states in resilience.states.items():
        st = failover_state(states)
        if st is None or not st.performance.target_iops:
            continue
        limit = st.performance.max_iops_at_slo
        month = (months_to_reach(st.performance.target_iops, limit, resilience.iops_growth_pct_per_year.get(wid, 0.0))
                 if limit else 0.0)
        found.append((month, st.label or ("failover" if st.state == "cloud_failover" else "takeover")))
    if not found:
        return None
    known = [f for f in found if f[0] is not None]
    return min(known, key=lambda f: f[0] or 0.0) if known else found[0]


def state_verdicts(resilience: Resilience, workloads: Iterable[WorkloadPerformance]) -> list[Verdict]:
    """``models.present.verdicts.Verdict`` lines for every workload's failure states (``fail`` when the target's
    SLO is missed in that state, ``pass`` when met, ``open`` without a target), in the workloads' order."""
    from models.present.verdict_line import Verdict

    out = []
    for wp in workloads:
        for state in resilience.states.get(wp.workload_id, ()):
            kind = "open" if state.meets_slo is None else ("pass" if state.meets_slo else "fail")
            out.append(Verdict(kind, wp.name, state_verdict(state, wp), "performance"))
    return out


def compact_states(states: Iterable[StateResult], normal: WorkloadPerformance | None = None) -> str:
    """One line for a workload's failure states, each answer saying what it answers (review 55 #13: "takeover:
    yes" did not say yes to what): ``SLO met in path loss (0.83 ms) · SLO missed in takeover (saturated)`` with a
    target (the states that meet the SLO first, then those that miss it, each in the states' order), else each
    state's saturation (``host failure: saturation 177K IOPS``). With ``normal`` (the workload in normal operation),
    a latency below normal's says why in a few words (``faster than normal: no NVRAM mirroring to the
    partner``, :data:`RELIEF_SHORT`; :func:`relief_words` has the sentence). No brackets nest."""
    met: list[str] = []
    missed: list[str] = []
    open_only: list[str] = []
    for state in states:
        wp = state.performance
        name = state_label(state)
        if wp.target_iops is None:
            sat = state_saturation_words(state)  # a clamp figure said in words
            open_only.append(f"{name}: {sat}" if sat.startswith("saturated") else f"{name}: saturation {sat}")
            continue
        latency = state_latency(state, normal)  # "saturated" where None
        relief = (RELIEF_LABEL_SHORT.get(state.label) or RELIEF_SHORT.get(state.state, RELIEF_OTHER_SHORT)
                  if relief_words(state, normal) else "")
        (met if state.meets_slo else missed).append(
            f"{name} ({latency}" + (f", faster than normal: {relief}" if relief else "") + ")")
    parts = ([f"SLO met in {', '.join(met)}"] if met else []) + \
        ([f"SLO missed in {', '.join(missed)}"] if missed else []) + open_only
    return " · ".join(parts)


def compact_runway(resilience: Resilience, evaluation: Evaluation | None = None) -> str:
    """The runway in one line: ``full: 36 months · SLO breach: not within ten years · saturation: ...`` (the
    capacity's months as :func:`full_words`). With ``evaluation`` (its replication), each DR copy's months too, as
    the report's runway (:func:`runway_lines_with_dr_copies`): ``full (systems serving workloads): 128 months ·
    DR copy on CVO DR full: 18 months · ...`` (review cons57 #1: the line said only 128 where the Capacity tab
    said 18)."""
    def months(value: float | None) -> str:
        if value is None:
            return "not within ten years"
        return "already" if value <= 0 else fmt_months(value)

    full = f"full: {full_words(resilience.months_until_full)}"
    if evaluation is not None:
        from models.present.dr_copy import dr_copies, dr_copy_months

        capacity = evaluation.capacity
        names = {c.system_id: c.system_label or c.system_id for c in capacity.systems} if capacity else {}
        copies = [f"DR copy on {names.get(system_id, system_id)} full: {dr_copy_months(copy.runway_months)}"
                  for system_id, copy in dr_copies(evaluation.protection).items()]
        if copies:
            full = " · ".join([f"full (systems serving workloads): {full_words(resilience.months_until_full)}",
                               *copies])
    if not targets_grow(resilience) and static_targets(resilience):
        return f"{full} · IOPS targets do not grow"
    return (f"{full} · SLO breach at the growing target: "
            f"{months(resilience.months_until_slo_breach)} · saturation: {months(resilience.months_until_saturation)}")


RUNWAY_BASE_MONTHS = 60
"""The runway chart's horizon when every event falls within it (five years)."""
RUNWAY_LONGEST_MONTHS = 120
"""The longest horizon the chart stretches to (ten years: the growing targets' runway looks that far ahead)."""


def _runway_events(resilience: Resilience) -> list[tuple[str, float]]:
    """(what runs out, month) of the runway's finite events after now: the capacity full, the SLO breached at the
    growing target, the growing target saturating."""
    found = [("capacity full", resilience.months_until_full),
             ("SLO breach at the growing target", resilience.months_until_slo_breach),
             ("saturation at the growing target", resilience.months_until_saturation)]
    return [(name, float(m)) for name, m in found if m is not None and finite(m) and m > 0]


def runway_horizon_months(resilience: Resilience) -> int:
    """Months a runway chart draws: five years, stretched to whole years past the latest event (capacity full, SLO
    breach, saturation) so that each event is on the chart, up to ten years (REVIEW45 #5: events at months 96 to
    103 fell beyond a 60-month chart); an event later than that is named by :func:`runway_beyond_note`."""
    latest = max((m for _, m in _runway_events(resilience)), default=0.0)
    if latest <= RUNWAY_BASE_MONTHS:
        return RUNWAY_BASE_MONTHS
    return int(min(RUNWAY_LONGEST_MONTHS, math.ceil((latest + 1) / 12) * 12))


def runway_beyond_note(resilience: Resilience, months: int) -> str:
    """``capacity full at 130 months falls beyond the chart's 120 months`` for the events later than the chart's
    ``months``; "" when every event is on it."""
    beyond = [f"{name} at {fmt_months(m)}" for name, m in _runway_events(resilience) if m > months]
    if not beyond:
        return ""
    return f"{'; '.join(beyond)}: beyond the chart's {months} months"


def runway_series(evaluation: Evaluation, resilience: Resilience, scenario: Scenario | None = None,
                  months: int = 60) -> list[tuple[str, list[tuple[float, float]]]]:
    """The runway as lines for a chart: each resource's use as a share of its limit, percent, month by month
    (0 .. ``months``): the capacity (physical used over usable, grown so that it reaches 100% at months until
    full) and each workload with a target (its target grown by its IOPS growth over its max IOPS at the SLO).
    With replication, each destination's DR copy too (its use over its usable capacity:
    ``models.present.dr_copy.dr_copy_runway_series``). The months where a line crosses 100% are the runway's
    figures. The IOPS growths come from ``scenario``'s
    workloads, or without one from ``resilience.iops_growth_pct_per_year``."""
    series: list[tuple[str, list[tuple[float, float]]]] = []
    total = evaluation.capacity.total if evaluation.capacity is not None else None
    if total is not None and total.usable_bytes > 0:
        share0 = total.physical_used_bytes / total.usable_bytes
        full = resilience.months_until_full
        rate = (1.0 / share0) ** (1.0 / full) if full and share0 > 0 else 1.0
        series.append(("capacity used / usable", [(m, 100.0 * share0 * rate ** m) for m in range(months + 1)]))
    growth = ({w.id: w.iops_growth_pct_per_year for w in scenario.workloads} if scenario is not None
              else dict(resilience.iops_growth_pct_per_year))
    perf = evaluation.performance
    for wp in (perf.workloads if perf is not None else ()):
        if wp.target_iops and wp.max_iops_at_slo:
            g = growth.get(wp.workload_id, 0.0)
            series.append((f"{wp.name}: target / max IOPS at SLO",
                           [(m, 100.0 * wp.target_iops * growth_factor(g, m) / wp.max_iops_at_slo)
                            for m in range(months + 1)]))
    series += _failover_series(resilience, perf.workloads if perf is not None else (), growth, months)
    from models.present.dr_copy import dr_copy_runway_series

    series += dr_copy_runway_series(evaluation.protection, evaluation.capacity, months)
    return series


def _failover_series(resilience: Resilience, workloads: Iterable[WorkloadPerformance], growth: dict[str, float],
                     months: int) -> list[tuple[str, list[tuple[float, float]]]]:
    """Where the SLO in takeover (failover) is required, each workload's growing target over its max IOPS at the SLO
    in that state, as :func:`takeover_breach` counts the months (review 57 #21: the runway's line "months until the
    SLO is breached in takeover ... (required)" named a month no line on the chart crossed)."""
    from models.verdict import failover_state

    if not any(c.requirement == "slo_in_takeover" for c in resilience.requirement_checks):
        return []
    out: list[tuple[str, list[tuple[float, float]]]] = []
    for wp in workloads:
        st = failover_state(resilience.states.get(wp.workload_id, ()))
        if st is None or not st.performance.target_iops or not st.performance.max_iops_at_slo:
            continue
        label = st.label or ("failover" if st.state == "cloud_failover" else "takeover")
        g = growth.get(wp.workload_id, 0.0)
        out.append((f"{wp.name} in {label}: target / max IOPS at SLO",
                    [(m, 100.0 * st.performance.target_iops * growth_factor(g, m) / st.performance.max_iops_at_slo)
                     for m in range(months + 1)]))
    return out


def runway_lines_with_dr_copies(resilience: Resilience, evaluation: Evaluation,
                                growth_unmeasured: bool = False) -> list[str]:
    """The runway's lines (:func:`runway_lines` of ``resilience``, the evaluation's failure states and runway)
    and, when the scenario replicates, when each destination's copies fill it
    (``models.present.dr_copy.dr_copy_runway_lines``, after the first line): the months until full count only the
    systems serving workloads, so a DR copy filling first is named too (review 42). The report's runway and the
    screen's runway chart both read these. ``growth_unmeasured``: as :func:`runway_lines`."""
    from models.present.dr_copy import dr_copy_runway_lines

    lines = runway_lines(resilience, growth_unmeasured)
    capacity = evaluation.capacity
    names = {c.system_id: c.system_label or c.system_id for c in capacity.systems} if capacity else {}
    copies = dr_copy_runway_lines(evaluation.protection, names)
    if copies and lines:
        lines[0] = lines[0].replace("months until full:", "months until full (the systems serving workloads):", 1)
    lines[1:1] = copies
    return lines
