"""What the GUI's "Protection" results tab shows: the "Protection and DR" table of each replication relationship
(:mod:`models.present.protection`) and each workload's verdict when a site is lost (MetroCluster switchover, a
stretched vSAN cluster's site failure), computed together off the GUI thread by :func:`protection_panel`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from models.catalog import Catalog
from models.formatting import fmt_iops
from models.present.protection import lines, table_rows
from models.present.resilience import state_label, state_verdict
from models.project.model import Project
from models.units import CapacityUnit

SITE_STATES = ("switchover", "site_failure")
"""The failure states in which a site is lost."""

SITE_HEADER = ["Workload", "Site lost", "Saturation normal", "Saturation after the loss", "Verdict"]
"""The site-loss table's columns."""


@dataclass(frozen=True)
class ProtectionPanel:
    """The Protection tab's content.

    Attributes:
        relationships: :func:`models.present.protection.table_rows` (header first; only the header without any
            relationship); sentences: the verdicts, the transfer windows' load and the assumptions.
        rpo_met: per relationship (label, True / False / None when no RPO is stated).
        site_rows: :data:`SITE_HEADER` then one row per workload and site-loss state (only the header when no
            system of the design has two sites).
        site_reasons: what each site-loss state does, one sentence per row of :attr:`site_rows`.
        requirement: the "meet the SLO after losing a site" verdicts when the project asks for it (else empty).
        problems: what could not be computed, in words.
        misses: each relationship's destination that does not hold its copies, grown, over the requirements'
            horizon (``models.verdict.protection_misses``: "DR to Azure: DR copy on ... full in 18 months, within
            the 36-month horizon"), as the verdict words it.
    """

    relationships: list[list[str]]
    sentences: list[str]
    rpo_met: list[tuple[str, bool | None]]
    site_rows: list[list[str]]
    site_reasons: list[str]
    requirement: list[str]
    problems: list[str]
    misses: list[str] = field(default_factory=list)


def protection_panel(project: Project, catalog: Catalog | None = None) -> ProtectionPanel:
    """Evaluate the active scenario of ``project`` (``catalog``: the base catalog, None: bundled plus the user's)
    and lay out the Protection tab. Engine failures become :attr:`ProtectionPanel.problems`, never raised."""
    from models.design import resolve
    from models.evaluate import evaluate, requirement_checks, with_layouts
    from models.performance.resilience import evaluate_states

    design = with_layouts(resolve(project, None, catalog))
    evaluation = evaluate(project, design=design)
    unit = CapacityUnit(project.settings.capacity_unit)
    rows: list[list[str]] = table_rows(evaluation.protection, unit) if evaluation.protection else []
    if not rows:
        from models.present.protection import TABLE_HEADER
        rows = [list(TABLE_HEADER)]
    sentences = lines(evaluation.protection, unit) if evaluation.protection else []
    met = [(f.label, f.rpo_met) for f in evaluation.protection.relationships] if evaluation.protection else []
    problems = [p.message for p in evaluation.problems if p.severity == "error"]
    site_rows = [list(SITE_HEADER)]
    requirement: list[str] = []
    reasons: list[str] = []
    try:
        states = evaluate_states(design.scenario, design.catalog, project.settings, only=SITE_STATES,
                                 raid=design.raid, slo_statistic=project.requirements.slo_statistic)
    except Exception as exc:  # noqa: BLE001 - an engine bug must not lose the tab
        states = {}
        problems.append(f"site-loss states could not be computed: {type(exc).__name__}: {exc}")
    normal = {wp.workload_id: wp for wp in evaluation.performance.workloads} if evaluation.performance else {}
    names = {w.id: w.name for w in design.scenario.workloads}
    for workload_id, results in states.items():
        for state in results:
            if state.state not in SITE_STATES:
                continue
            before = normal.get(workload_id)
            site_rows.append([
                names.get(workload_id, workload_id), state_label(state),
                f"{fmt_iops(before.saturation_iops)} IOPS" if before is not None else "",
                f"{fmt_iops(state.performance.saturation_iops)} IOPS",
                state_verdict(state, before)])
            reasons.append(f"{names.get(workload_id, workload_id)}, {state.reason.rstrip('.')}.")  # a sentence
    if project.requirements.meet_slo_after_site_loss and evaluation.performance is not None:
        checks = requirement_checks(project.requirements, design.scenario, design.catalog, project.settings,
                                    evaluation.performance.workloads, states)
        requirement = [c.text for c in checks if c.requirement == "slo_after_site_loss"]
    from models.verdict import DR_COPY, protection_misses

    misses = [m.line for m in protection_misses(evaluation.protection, project.requirements.horizon_months, unit)
              if m.state == DR_COPY]  # a missed RPO is already in rpo_met
    return ProtectionPanel(rows, sentences, met, site_rows, reasons, requirement, problems, misses)


def site_loss_lines(resilience: Any, names: Mapping[str, str]) -> list[str]:
    """The site-loss verdicts in sentences for the report's "Protection and DR" section: per workload and
    site-loss state its verdict (``models.present.resilience.state_verdict``) and the saturation in that state,
    then the "meet the SLO after losing a site" requirement's verdicts. ``resilience``: a
    ``models.evaluate.Resilience`` (None: none); ``names``: workload id -> name."""
    if resilience is None:
        return []
    out: list[str] = []
    for workload_id, results in resilience.states.items():
        for state in results:
            if state.state in SITE_STATES:
                out.append(f"{names.get(workload_id, workload_id)}: {state_verdict(state)} (saturation "
                           f"{fmt_iops(state.performance.saturation_iops)} IOPS after the loss).")
    out += [f"{c.text}." for c in resilience.requirement_checks if c.requirement == "slo_after_site_loss"]
    return out


__all__ = ["ProtectionPanel", "SITE_HEADER", "SITE_STATES", "protection_panel", "site_loss_lines"]
