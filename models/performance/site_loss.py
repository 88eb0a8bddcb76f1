"""The requirement "meet the SLO after losing a site" (``Requirements.meet_slo_after_site_loss``).

A design survives losing a site only when it has two: a MetroCluster (IP or FC), whose switchover serves both
sites' workloads from the surviving site (:func:`models.performance.states.switchover`), or a vSAN stretched
cluster, whose site failure leaves the surviving site's hosts with every workload
(:func:`models.performance.states.site_failure`). Every workload with a target must meet its SLO at its target in
that state. A workload on a system with one site cannot: the requirement does not apply to its design, and the
verdict says so rather than passing it.

The evaluation (``models.evaluate.requirement_checks``) reads :func:`site_loss_checks` of the solved failure
states; the sizer (``models.sizing``) reads :func:`site_loss_reasons` of a candidate's paths (the open model at the
targets, as its takeover check: ``models.performance.screening.failover_verdicts``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from models.performance.engine import target_rate
from models.performance.paths import WorkloadPath
from models.performance.resilience import StateResult
from models.performance.results import WorkloadPerformance
from models.performance.screening import DesignPaths, failover_verdicts
from models.performance.states import DegradedPath, site_failure, switchover
from models.project.model import ControllerNode, HciClusterNode, Scenario

SITE_LOSS_STATES = ("switchover", "site_failure")
"""The failure states in which a site is lost: a MetroCluster switchover, a vSAN stretched cluster's site failure."""

STATE_WORDS = {"switchover": "MetroCluster switchover", "site_failure": "site failure"}
"""A site-loss state's name in a sentence."""

ONE_SITE = ("not applicable: its system has one site (only a MetroCluster or a vSAN stretched cluster can lose a "
            "site and go on serving)")
"""Why a workload on a system of one site cannot meet the requirement."""


@dataclass(frozen=True)
class SiteLossCheck:
    """One workload's verdict on the requirement.

    Attributes:
        met: the SLO holds at the target after losing a site (False also when the system has one site);
        text: the verdict in words, naming the workload, the state and its latency; subject: the workload's name;
        state: "switchover", "site_failure", or "" when the system has one site.
    """

    met: bool
    text: str
    subject: str
    state: str


def site_loss_state(states: Iterable[StateResult]) -> StateResult | None:
    """The site-loss state (:data:`SITE_LOSS_STATES`) among one workload's failure states, None when its system has
    one site."""
    return next((st for st in states if st.state in SITE_LOSS_STATES), None)


def site_loss_checks(workloads: Sequence[WorkloadPerformance],
                     states: Mapping[str, Sequence[StateResult]],
                     grown: Mapping[str, tuple[Any, float]] | None = None,
                     horizon_months: int = 0) -> list[SiteLossCheck]:
    """The requirement checked on an evaluated design: per workload with a target, its site-loss state's verdict
    (``states``: workload id -> its failure states, ``evaluate_states``), or "not applicable" when its system has
    one site. ``grown``: workload id -> (its site-loss verdict at the target grown over the horizon, that target,
    IOPS), ``models.evaluate.site_loss_at_grown_targets``: where given, the requirement is judged there, as the
    sizer judges it and as the takeover check is (the text names the grown target and today's); ``horizon_months``:
    the horizon the text names."""
    out = []
    grown = grown or {}
    for wp in workloads:
        if not wp.target_iops:
            continue
        st = site_loss_state(states.get(wp.workload_id, ()))
        if st is None:
            out.append(SiteLossCheck(False, f"{wp.name}: the SLO after losing a site is required, but it is "
                                            f"{ONE_SITE}", wp.name, ""))
            continue
        if wp.workload_id in grown:  # the requirement's words: the SLO at the grown target after losing a site
            verdict, rate = grown[wp.workload_id]
            today = float(wp.target_iops)
            latency = f"{verdict.latency_ms:.2f} ms" if verdict.latency_ms is not None else "saturated"
            at = (f"{rate:,.0f} IOPS, the target grown over the {horizon_months}-month horizon ({today:,.0f} today)"
                  if rate > today * (1 + 1e-9) else
                  f"{today:,.0f} IOPS (its target does not grow; the others' grown over the {horizon_months}-month "
                  "horizon)")
            met = bool(verdict.meets_slo)
            out.append(SiteLossCheck(met, f"{wp.name}: the {wp.slo_words} at {at} after losing a site "
                                          f"({STATE_WORDS[verdict.state]}, required): {'met' if met else 'missed'}, "
                                          f"{latency}", wp.name, verdict.state))
            continue
        bounded = st.performance.slo_bounded_at_target_ms  # the mean, or the p99 where the SLO is on it
        latency = f"{bounded:.2f} ms" if bounded is not None else "saturated"
        words = STATE_WORDS[st.state]
        out.append(SiteLossCheck(bool(st.meets_slo), f"{wp.name}: the {wp.slo_words} at {wp.target_iops:,.0f} "
                                                     f"IOPS after losing a site ({words}, required): "
                                                     f"{'met' if st.meets_slo else 'missed'}, {latency}",
                                 wp.name, st.state))
    return out


def site_loss_states(scenario: Scenario) -> Callable[[WorkloadPath, Sequence[tuple[WorkloadPath, float]]],
                                                     list[DegradedPath | None]]:
    """For ``failover_verdicts``: a path's site-loss state on ``scenario`` (its MetroCluster switchover, with the
    partner site's load when ``partner_site_load`` is "mirror"; its stretched cluster's site failure), as
    ``models.performance.resilience.evaluate_states`` builds them; empty for a system of one site."""
    def states(path: WorkloadPath, rated: Sequence[tuple[WorkloadPath, float]]) -> list[DegradedPath | None]:
        node = scenario.node(path.workload.target)
        if isinstance(node, ControllerNode) and node.metrocluster != "none":
            return [switchover(path, rated if node.partner_site_load == "mirror" else ())]
        if isinstance(node, HciClusterNode) and node.stretched:
            return [site_failure(path, [p.workload.name for p, _ in rated] or [path.workload.name])]
        return []
    return states


def site_loss_reasons(scenario: Scenario, design: DesignPaths, slo_statistic: str = "mean") -> list[str]:
    """Why a candidate design fails the requirement (empty: it meets it): each workload with a target whose
    site-loss state misses its SLO at the target, or whose system has one site (:data:`ONE_SITE`). ``design``:
    the candidate's paths (``models.performance.screening.design_paths``); ``slo_statistic``: "mean" or "p99",
    the latency the SLO bounds (``Requirements.slo_statistic``)."""
    reasons = []
    for path, verdict in zip(design.paths, failover_verdicts(design, site_loss_states(scenario),
                                                                    slo_statistic=slo_statistic)):
        if target_rate(path.workload) is None:
            continue
        name = path.workload.name
        if verdict is None:
            reasons.append(f"{name}: the SLO after losing a site is {ONE_SITE}")
        elif verdict.meets_slo is False:
            reasons.append(f"{name}: {STATE_WORDS[verdict.state]} misses the SLO after losing a site")
    return reasons
