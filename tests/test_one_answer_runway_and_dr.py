"""One figure for one quantity (review of merge40): the runway's months until full is the capacity table's, and a
DR system's copies read alike in its waterfall, the summary and the Protection section."""

from __future__ import annotations

import math

import pytest

from models.evaluate import evaluate, evaluate_resilience, with_resilience
from models.present.resilience import compact_runway, runway_lines
from models.present.verdicts import capacity_verdicts, verdicts
from models.replication.figures import room_words
from models.resources import examples_dir
from models.store import load_any


def test_the_runway_quotes_the_capacity_tables_months_beyond_ten_years():
    """The CVO AWS example fills in ~150 months (beyond the ten years the growing targets' runway looks at): the
    runway says the same month as the capacity table and the verdict, computed here from the data, its growth and
    the usable capacity ((1 + g)^(months / 12)), never "not within ten years" for it."""
    project = load_any(examples_dir() / "cvo-aws-m5-4xlarge-ha-oltp.toml")
    evaluation = evaluate(project)
    resilience = evaluate_resilience(project, evaluation)
    (system,) = evaluation.capacity.systems
    (workload,) = [w for w in project.scenario.workloads if w.enabled]
    months = 12 * math.log(system.usable_bytes / system.physical_used_bytes) / math.log1p(
        workload.growth_pct_per_year / 100)
    assert months > 120  # beyond ten years: the case the two views worded apart
    assert resilience.months_until_full == pytest.approx(months, rel=1e-9)
    words = f"{months:,.0f} months"
    assert runway_lines(resilience)[0] == f"months until full: {words}"
    assert compact_runway(resilience).startswith(f"full: {words} · ")
    (tick,) = capacity_verdicts(evaluation.capacity, project.settings.capacity_unit, 36)
    assert f"full in {words} at the planned growth" in tick.text
    assert all("not within ten years" not in line for line in runway_lines(resilience)[:1])


def test_the_dr_systems_capacity_and_the_protection_sentence_agree_with_the_summary():
    """The SnapMirror example's DR system holds the baseline (8 TB at 2:1 = 4 TB) and one held transfer (200 GB a day
    sent x 2/34 in the worst hour): it fits today, and 4 TB x 1.3^(m / 12) + the transfer passes its free capacity
    first in month m = 18 (computed here): the waterfall's months until full, the Protection sentence and the one
    miss of the verdict all say month 18, and no tick calls the DR system fine."""
    project = load_any(examples_dir() / "aff-a70-snapmirror-cvo-dr.toml")
    evaluation = evaluate(project)
    evaluation = with_resilience(evaluation, evaluate_resilience(project, evaluation))
    dr = evaluation.capacity.system("cvo-dr")
    transfer = 200e9 * 2 / 34
    month = next(m for m in range(1, 241) if 4e12 * 1.3 ** (m / 12) + transfer > dr.usable_bytes)
    assert month == 18
    assert dr.physical_used_bytes == pytest.approx(4e12 + transfer, rel=1e-12)
    assert dr.physical_used_bytes < dr.usable_bytes
    assert dr.months_until_full == month
    (f,) = evaluation.protection.relationships
    assert (f"the copies fit on Cloud Volumes ONTAP DR (Azure) today but fill it in {month} months at the planned "
            "growth, within the 36-month horizon") in f.text
    found = verdicts(evaluation, project.settings.capacity_unit, project.requirements)
    about_dr = [v for v in found if "Cloud Volumes ONTAP DR" in v.subject + v.text]
    assert [(v.kind, v.text) for v in about_dr] == [
        ("fail", f"DR copy on Cloud Volumes ONTAP DR (Azure) full in {month} months, within the 36-month horizon")]


def test_room_words_over_the_horizon():
    """The copies' room in words: not fitting, filling within the horizon (at most the horizon, the verdict's
    rule), after it, beyond the 20 years looked at, and unknown."""
    assert room_words(False, 0.0, 36, "X") == "the copies do not fit on X"
    assert room_words(True, 36.0, 36, "X") == ("the copies fit on X today but fill it in 36 months at the planned "
                                               "growth, within the 36-month horizon")
    assert room_words(True, 37.0, 36, "X") == ("the copies fit on X, full in 37 months at the planned growth, after "
                                               "the 36-month horizon")
    assert room_words(True, None, 36, "X") == "the copies fit on X over the 36-month horizon"
    assert room_words(True, 20.0, 0, "") == "the copies fit on the destination, full in 20 months at the planned growth"
    assert room_words(None, None, 36, "X") == ""
