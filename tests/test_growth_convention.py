"""One growth convention: a yearly growth g is applied as (1 + g)^(months / 12) wherever StorPlan grows something, so
"30% per year" is 1.30x after 12 months for the source system's data, its IOPS targets, its DR copies and the
sizer's grown targets alike (stop 42 noticed the source at (1 + g/12)^months, 1.345x, and the DR copies at 1.30x).
Each check goes through a public function and compares it with the arithmetic done here."""

from __future__ import annotations

import math

import pytest

from models.capacity import evaluate_capacity
from models.costing.tco import data_by_month
from models.design import resolve
from models.evaluate import evaluate, evaluate_resilience
from models.performance.resilience import months_to_reach
from models.present.resilience import runway_lines
from models.replication.figures import replication_figures
from models.replication.sizing import grown_copies_bytes
from models.resources import examples_dir
from models.sizing import needed_effective_bytes
from models.store import load_any
from models.units import growth_factor

DR_EXAMPLE = examples_dir() / "aff-a70-snapmirror-cvo-dr.toml"
"""The SnapMirror example: an AFF A70 whose OLTP data set and IOPS target grow 30 % a year, replicated to CVO."""


def test_thirty_percent_a_year_is_130_percent_after_twelve_months():
    assert growth_factor(30.0, 12) == 1.3
    assert growth_factor(30.0, 24) == pytest.approx(1.69, rel=1e-15)
    assert growth_factor(30.0, 0) == 1.0 and growth_factor(0.0, 12) == 1.0
    assert growth_factor(30.0, 6) == pytest.approx(math.sqrt(1.3), rel=1e-15)  # the months between on one curve
    with pytest.raises(ValueError, match="-100%"):
        growth_factor(-100.0, 12)


def test_the_source_systems_capacity_is_full_after_twelve_months_when_it_has_thirty_percent_room():
    """The A70's data set scaled so that its physical used is exactly usable / 1.3, growing 30 % a year: months
    until full is 12 (the former (1 + 0.30 / 12)^months convention said 10.6)."""
    project = load_any(DR_EXAMPLE)
    design = resolve(project)
    scenario = design.scenario
    (source,) = [s for s in evaluate_capacity(scenario, design.catalog).systems if s.system_id == "a70"]
    scale = source.usable_bytes / 1.3 / source.physical_used_bytes
    workloads = [w.with_changes(dataset_bytes=round(w.dataset_bytes * scale), growth_pct_per_year=30.0)
                 if w.target == "a70" else w for w in scenario.workloads]
    scaled = scenario.model_copy(update={"workloads": workloads})
    (system,) = [s for s in evaluate_capacity(scaled, design.catalog).systems if s.system_id == "a70"]
    assert system.physical_used_bytes * 1.3 == pytest.approx(system.usable_bytes, rel=1e-12)
    assert system.months_until_full == pytest.approx(12.0, rel=1e-9)


def test_the_dr_copies_are_130_percent_after_twelve_months():
    """The DR copies (baseline and retained change, not the held transfer) grown 12 months at 30 % a year are
    1.3x; with free room just under 1.3x the copies outgrow it in month 12, just over it in month 13."""
    project = load_any(DR_EXAMPLE)
    design = resolve(project)
    scenario = design.scenario
    (rep,) = scenario.replications
    assert {w.growth_pct_per_year for w in scenario.workloads if w.target == rep.source} == {30.0}
    f = replication_figures(scenario, rep)
    growing = f.destination_needed_bytes - f.transfer_bytes
    assert growing > 0 and f.transfer_bytes > 0
    assert grown_copies_bytes(f, 12) == pytest.approx(growing * 1.3 + f.transfer_bytes, rel=1e-12)
    below = replication_figures(scenario, rep, destination_free_bytes=(growing * 1.3 + f.transfer_bytes) * (1 - 1e-9))
    above = replication_figures(scenario, rep, destination_free_bytes=(growing * 1.3 + f.transfer_bytes) * (1 + 1e-9))
    assert below.runway_months == 12.0 and above.runway_months == 13.0


def test_the_sizers_and_the_costs_grown_data_and_the_iops_runway_take_the_same_rule():
    project = load_any(DR_EXAMPLE)
    year = project.requirements.with_changes(horizon_months=12, effective_capacity_bytes=0)
    enabled = [w for w in project.scenario.workloads if w.enabled]
    data = sum(w.dataset_bytes for w in enabled)
    assert {w.growth_pct_per_year for w in enabled} == {30.0}
    assert needed_effective_bytes(project.scenario, year) == pytest.approx(data * 1.3, rel=1e-12)
    assert data_by_month(project.scenario, year, 12)[12] == pytest.approx(data * 1.3, rel=1e-12)
    assert months_to_reach(100_000.0, 130_000.0, 30.0) == pytest.approx(12.0, rel=1e-12)


def test_the_runway_printed_for_an_example_is_the_month_computed_by_hand():
    """The AFF A70 NVMe/TCP example (data and IOPS growing 30 % a year): the runway's printed months until full and
    until the SLO breaks are 12 x ln(limit / now) / ln(1.3), from the evaluation's own capacity and IOPS."""
    project = load_any(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml")
    assert {w.growth_pct_per_year for w in project.scenario.workloads} == {30.0}
    assert {w.iops_growth_pct_per_year for w in project.scenario.workloads} == {30.0}
    evaluation = evaluate(project)
    total = evaluation.capacity.total
    full = 12 * math.log(total.usable_bytes / total.physical_used_bytes) / math.log(1.3)
    breach = min(12 * math.log(wp.max_iops_at_slo / wp.target_iops) / math.log(1.3)
                 for wp in evaluation.performance.workloads if wp.target_iops)
    assert 10 < full < 120 and 10 < breach < 120
    lines = runway_lines(evaluate_resilience(project, evaluation))
    assert lines[0] == f"months until full: {full:,.0f} months"
    assert lines[1] == f"months until the SLO is breached at the growing target: {breach:,.0f} months"
