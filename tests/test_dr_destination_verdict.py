"""A replication destination holds copies, not primary data: the scenario's capacity totals count only the systems
that serve workloads, and the design verdict counts a destination that fills within the horizon, or a missed RPO,
as a missed requirement (the bundled SnapMirror-to-Cloud-Volumes-ONTAP example worked by hand)."""

from __future__ import annotations

import math

import pytest

from models.capacity.results import CapacityStep
from models.design import resolve
from models.evaluate import evaluate, evaluate_resilience, with_layouts, with_resilience
from models.present.dr_copy import dr_copies
from models.present.summary import verdict_text
from models.present.verdicts import evaluation_verdict, verdicts
from models.present.waterfall import scenario_waterfall
from models.project import load
from models.resources import examples_dir
from models.serialize import evaluation_to_dict
from models.verdict import CAPACITY, DR_COPY, RESILIENCE, RPO, design_verdict

EXAMPLE = examples_dir() / "aff-a70-snapmirror-cvo-dr.toml"


@pytest.fixture(scope="module")
def example():
    project = load(EXAMPLE)
    design = with_layouts(resolve(project))
    evaluation = evaluate(project, design=design)
    return project, with_resilience(evaluation, evaluate_resilience(project, evaluation, design=design))


def test_totals_are_the_primary_systems_only(example):
    """The A70 serves the workload; the CVO system only receives SnapMirror: the totals (and the band's) are the
    A70's figures, the CVO's own figures stay in its system result."""
    _, evaluation = example
    capacity = evaluation.capacity
    a70, cvo = capacity.system("a70"), capacity.system("cvo-dr")
    assert capacity.replica_only == ("cvo-dr",)
    assert [s.system_id for s in capacity.counted] == ["a70"]
    assert cvo.usable_bytes > 5 * 2**40  # the CVO's 6 x P30 are still computed (5.40 TiB usable)
    total = capacity.total
    for name in ("raw_bytes", "usable_bytes", "effective_bytes", "physical_used_bytes",
                 "effective_with_snapshots_bytes"):
        assert getattr(total, name) == getattr(a70, name), name
    assert total.usable_bytes / 2**40 == pytest.approx(59.71, abs=0.005)
    assert total.effective_bytes / 2**40 == pytest.approx(119.43, abs=0.005)  # 59.71 x 2:1 compression
    band = evaluation.capacity_band
    assert band.usable_bytes == a70.usable_bytes
    assert band.effective_bytes_p50 == pytest.approx(a70.effective_bytes)
    data = evaluation_to_dict(evaluation)
    assert data["capacity"]["usable_bytes"] == a70.usable_bytes
    assert data["capacity"]["replica_only"] == ["cvo-dr"]


def test_the_destination_filling_within_the_horizon_is_a_miss(example):
    """Hand check: 8 TB at 2:1 -> 4e12 B baseline + one hourly transfer held (200e9 B/day x 2/34) on the CVO's
    free capacity; at 30 %/year the copy outgrows it in month m, the first with 4e12 x 1.3^(m/12) + held > free:
    18 (1.3^1.5 = 1.482 > 5.94e12 / 4e12 - held), within the 36-month horizon."""
    project, evaluation = example
    (f,) = evaluation.protection.relationships
    held = 200e9 * 2 / 34
    free = f.destination_free_bytes
    month = next(m for m in range(1, 241) if 4e12 * 1.3 ** (m / 12) + held > free)
    assert month == 18 and f.runway_months == 18 and f.destination_fits is True
    decided = evaluation_verdict(evaluation, project.requirements)
    assert not decided.met
    (miss,) = decided.missed
    assert (miss.area, miss.subject, miss.state) == (CAPACITY, "DR to Azure", DR_COPY)
    assert miss.text == ("DR copy on Cloud Volumes ONTAP DR (Azure) full in 18 months, within the 36-month "
                         "horizon")
    assert decided.text == "The design does not meet its requirements: missed DR copy capacity (DR to Azure)."
    assert verdict_text(evaluation, project.requirements) == "missed: DR copy capacity (DR to Azure)"
    assert verdicts(evaluation, requirements=project.requirements)[0].line == f"DR to Azure: {miss.text}"
    # the JSON's verdict says the same
    assert evaluation_to_dict(evaluation, requirements=project.requirements)["verdict"]["missed"] == [
        {"area": "capacity", "subject": "DR to Azure", "state": "DR copy", "text": miss.text}]
    # a horizon shorter than the runway: met
    short = project.requirements.model_copy(update={"horizon_months": 17})
    assert evaluation_verdict(evaluation, short).met is True


def test_a_missed_rpo_is_a_miss():
    """100 Mbit/s at 50 %: 11.76e9 B take 1,882 s, so the RPO achieved is 60 + 31.4 = 91.4 min, over a
    62-minute requirement."""
    project = load(EXAMPLE)
    rep = project.scenario.replications[0].with_changes(bandwidth_mbit_s=100.0, rpo_minutes=62.0)
    project = project.with_scenario(project.scenario.model_copy(update={"replications": [rep]}))
    evaluation = evaluate(project, design=with_layouts(resolve(project)))
    (f,) = evaluation.protection.relationships
    achieved = 60 + 200e9 * 2 / 34 / 6.25e6 / 60
    assert f.rpo_achieved_minutes == pytest.approx(achieved)
    missed = design_verdict(evaluation.capacity, evaluation.performance, None, project.requirements,
                            protection=evaluation.protection).missed
    rpo = [m for m in missed if m.state == RPO]
    assert len(rpo) == 1 and rpo[0].area == RESILIENCE
    assert rpo[0].text == f"the RPO achieved is {achieved:,.0f} min; 62 min is required"
    assert rpo[0].short == "RPO (DR to Azure)"
    # without the protection the same design's verdict has no RPO miss (the old behaviour)
    assert not any(m.state == RPO for m in design_verdict(evaluation.capacity, evaluation.performance, None,
                                                          project.requirements).missed)
    assert math.isfinite(f.rpo_achieved_minutes)


def test_dr_copy_row_figures(example):
    """The capacity requirement table's DR row: the copy's size, its free capacity and runway."""
    project, evaluation = example
    copy = dr_copies(evaluation.protection)["cvo-dr"]
    (f,) = evaluation.protection.relationships
    assert copy.needed_bytes == f.destination_needed_bytes == pytest.approx(4e12 + 200e9 * 2 / 34)
    assert copy.sources == ("AFF A70 HA pair",)
    assert copy.runway_months == 18 and copy.fits_now is True
    assert copy.fits_over(36) is False and copy.fits_over(17) is True


def test_all_systems_waterfall_keeps_usable_steps_before_data_reduction(example):
    """Two serving systems of different families: every usable-side step (the second system's licence cap too)
    comes before the first data-reduction step, and "Usable" sits between them."""
    _, evaluation = example
    capacity = evaluation.capacity
    both = type(capacity)(capacity.systems, capacity.total, capacity.problems, ())  # as if both served data
    labels = [b.label for b in scenario_waterfall(both)]
    cvo = capacity.system("cvo-dr")
    cvo_usable = [s.name for s in cvo.steps[1:cvo.usable_step_count]]
    assert cvo_usable and all(name in labels for name in cvo_usable)
    usable_at = labels.index("Usable")
    assert all(labels.index(name) < usable_at for name in cvo_usable)
    a70 = capacity.system("a70")
    gains = [s.name for s in a70.steps[a70.usable_step_count:] if isinstance(s, CapacityStep)]
    assert gains and all(labels.index(name) > usable_at for name in gains if name in labels)
    # the scenario's own "All systems" waterfall is the A70's alone (the DR copy is not in the totals)
    own = scenario_waterfall(capacity)
    assert not any(name in [b.label for b in own] for name in cvo_usable if name not in
                   [s.name for s in a70.steps])


def test_protection_tab_names_the_dr_copy_miss():
    """The Protection tab says what the verdict says about the destination (the RPO is met: 63 of 90 min)."""
    from models.present.protection_panel import protection_panel

    panel = protection_panel(load(EXAMPLE))
    assert panel.rpo_met == [("DR to Azure", True)]
    assert panel.misses == ["DR to Azure: DR copy on Cloud Volumes ONTAP DR (Azure) full in 18 months, within the "
                            "36-month horizon"]


def test_evaluate_text_gives_the_primary_totals_and_the_miss(capsys):
    """``storplan evaluate``: usable 59.71 TiB (the A70 alone, not + 5.40 TiB of the DR copy), the miss named."""
    from app.cli import main

    code = main(["evaluate", str(EXAMPLE)])
    out = capsys.readouterr().out
    assert code == 0  # a missed requirement is a finding, not a failure of the command
    assert "The design does not meet its requirements: missed DR copy capacity (DR to Azure)." in out
    assert "missed: DR to Azure: DR copy on Cloud Volumes ONTAP DR (Azure) full in 18 months, within the 36-month " \
           "horizon" in out
    usable = next(line for line in out.splitlines() if line.strip().startswith("Usable"))
    assert usable.split()[1:] == ["59.71", "TiB"]
    assert "the DR copy on Cloud Volumes ONTAP DR (Azure) is not counted" in out
