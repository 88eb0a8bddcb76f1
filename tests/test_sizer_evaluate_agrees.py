"""One design, one answer: a configuration the sizer calls "meets" is one that ``storplan evaluate`` of the project
it hands over (``storplan size --json``'s candidate TOML, the GUI's "use this design") also calls meeting.

The review of 2026-11-30 (item 1): in the SnapMirror-to-CVO DR example every candidate was "[meets]" while its
project, evaluated, missed "DR copy capacity (DR to Azure)": the sizer's destination line assumed 9 data disks,
the handed-over candidate kept the design's 6 (5.40 TiB usable, the copies grow to 8.00 TiB over 36 months).
Independent check: the full evaluation (``models.evaluate.evaluate`` with its failure states, the verdict
``storplan evaluate`` prints) of each top candidate's project, written as TOML and read back."""

from __future__ import annotations

import pytest

from models.evaluate import evaluate
from models.present.verdicts import evaluation_verdict
from models.project import load
from models.project.textformat import dumps, loads
from models.resources import examples_dir
from models.sizing import size

TOP = 2
"""Top candidates checked per example (the first ranked is the one a presales engineer acts on)."""

EXAMPLES = sorted(p.name for p in examples_dir().glob("*.toml"))


def _handed_over(project, candidate):
    """The candidate's project as ``storplan size --json`` hands it over: its TOML text, read back."""
    return loads(dumps(project.with_scenario(candidate.scenario)))


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_meeting_candidate_meets_when_its_project_is_evaluated(name):
    project = load(examples_dir() / name)
    result = size(project, top=TOP)
    for candidate in result.candidates[:TOP]:
        if not candidate.meets:
            continue
        handed = _handed_over(project, candidate)
        verdict = evaluation_verdict(evaluate(handed, resilience=True), handed.requirements)
        assert verdict.met, (name, candidate.summary, [m.line for m in verdict.missed])


def test_the_dr_example_hands_over_the_resized_destination():
    project = load(examples_dir() / "aff-a70-snapmirror-cvo-dr.toml")
    result = size(project, top=1)
    (proposal,) = result.destinations
    assert proposal.disk_count == 9  # 9 x P30: 8.00 TiB of copies grown over 36 months fit; 6 hold 5.40 TiB
    node = next(n for n in result.candidates[0].scenario.nodes if n.id == proposal.destination_id)
    assert node.disk_count == 9


def _dr_first_candidate():
    project = load(examples_dir() / "aff-a70-snapmirror-cvo-dr.toml")
    result = size(project, top=1)
    return project, result.candidates[0]


def test_the_slo_in_takeover_is_judged_at_the_grown_target_by_evaluate_as_by_the_sizer():
    """Review item 3: the A50 candidate with its target set to 300,000 IOPS (30 %/yr over 36 months: 300,000 x
    1.3^3 = 659,100) is above the A50's 600,000 IOPS takeover ceiling (one node's published controller bound): the
    sizer drops it, and ``evaluate`` of it now says the takeover requirement is missed, naming the grown basis."""
    project, candidate = _dr_first_candidate()
    assert candidate.summary.startswith("NetApp AFF A50")
    handed = _handed_over(project, candidate)
    (w,) = handed.scenario.workloads
    edited = handed.with_scenario(handed.scenario.with_changes(workloads=[w.with_changes(target_iops=300_000.0)]))
    evaluation = evaluate(edited, resilience=True)
    (check,) = [c for c in evaluation.resilience.requirement_checks if c.requirement == "slo_in_takeover"]
    assert not check.met
    assert "at 659,100 IOPS, the target grown over the 36-month horizon (300,000 today) in takeover" in check.text
    verdict = evaluation_verdict(evaluation, edited.requirements)
    assert [m.short for m in verdict.missed] == [f"{w.name} in takeover"]
    # the sizer, given the same project, does not propose the A50 (the same rule)
    assert not any(c.summary == candidate.summary for c in size(edited, top=3).candidates)


def test_the_sizer_shows_the_takeover_margin_where_takeover_is_required():
    """At 250,000 IOPS the target grows to 549,250 (x 1.3^3); the A50's takeover saturation is its 600,000 IOPS
    bound: (600,000 − 549,250) / 549,250 = 9.24 %, not the 118 % of normal operation."""
    _, candidate = _dr_first_candidate()
    assert candidate.takeover_headroom_pct == pytest.approx((600_000 - 549_250) / 549_250 * 100, abs=0.05)
    assert candidate.headroom_pct > 100
    from models.present.headroom import sizer_headroom_words

    assert sizer_headroom_words(candidate.headroom_pct, candidate.takeover_headroom_pct) == \
        "headroom 118% over the grown targets, 9.2% in takeover"


def test_an_empty_search_says_which_filter_removed_every_design():
    """Review item 10: block workloads with only NFS allowed."""
    project = load(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml")
    project = project.with_changes(requirements=project.requirements.with_changes(protocols=["NFS"]))
    result = size(project)
    assert result.considered == 0 and not result.candidates and not result.nearest
    assert any("the allowed protocols (NFS) remove every one" in n and "block workloads" in n for n in result.notes)


def test_the_nearest_are_the_least_short_then_by_the_ranking_rule():
    """Review item 11: a 10,000,000 IOPS target (x 1.3^3 = 21,970,000 grown) beyond every design: every design
    saturates far below it; the nearest are the least short (the highest saturation bound, 2.4M IOPS), and of those
    equally short the ranking rule's first (fewest rack units, then least power), not the largest."""
    project = load(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml")
    (w,) = project.scenario.workloads
    project = project.with_scenario(project.scenario.with_changes(workloads=[w.with_changes(target_iops=1e7)]))
    result = size(project)
    assert not result.candidates and len(result.nearest) == 3
    # each controller once, its smallest layout: the 4 U A90 and C80, the 4 U A1K with its one 2 U NS224 (it has
    # no drive bays); no 8, 10 or 12 U C800 with shelves, no second row of one controller with other drives
    assert [c.rack_units for c in result.nearest] == [4, 4, 6]
    controllers = [next(n.catalog_id for n in c.scenario.nodes if n.kind == "controller") for c in result.nearest]
    assert len(set(controllers)) == 3
    footprints = [(c.rack_units, c.power_w) for c in result.nearest]
    assert footprints == sorted(footprints)
    assert all(c.headroom_pct == pytest.approx((2_400_000 - 21_970_000) / 21_970_000 * 100, abs=0.5)
               for c in result.nearest)


def test_the_sizer_shows_effective_capacity_beside_the_effective_need(capsys):
    """Review item 9: the C80 QLC example needs 1,659.87 TiB effective; its first candidate meets through the
    workloads' 1.8:1 reduction (954.80 TiB usable x 1.8 = 1,718.64 TiB), so the line shows the effective figure and
    the ratio, not the usable figure alone (955 < 1,660 marked "meets")."""
    from app.cli import main

    assert main(["size", str(examples_dir() / "aff-c80-qlc-vmware-nvmefc64.toml"), "--top", "1"]) == 0
    out = capsys.readouterr().out
    assert "effective capacity needed 1,659.87 TiB" in out
    line = next(ln for ln in out.splitlines() if ln.startswith(" 1. [meets]"))
    assert "effective 1,718.64 TiB (954.80 TiB usable x 1.80:1)" in line
    assert ", usable " not in line


def test_the_runway_names_the_month_the_slo_in_takeover_is_breached():
    """Review item 3: at 300,000 IOPS growing 30 %/yr the A50's 600,000 IOPS takeover ceiling is passed after
    12 x ln(600,000 / 300,000) / ln(1.3) = 31.7 months: the runway says so when the SLO in takeover is required."""
    import math

    from models.evaluate import evaluate_resilience
    from models.present.resilience import runway_lines

    project, candidate = _dr_first_candidate()
    handed = _handed_over(project, candidate)
    (w,) = handed.scenario.workloads
    edited = handed.with_scenario(handed.scenario.with_changes(workloads=[w.with_changes(target_iops=300_000.0)]))
    lines = runway_lines(evaluate_resilience(edited, evaluate(edited)))
    expected = 12 * math.log(2) / math.log(1.3)
    assert lines[-1] == (f"months until the SLO is breached in takeover at the growing target (required): "
                         f"{round(expected)} months")
