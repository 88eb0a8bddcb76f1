"""Examples with data and IOPS growth set, so that the runway shows all three of its months (capacity full, SLO
breach at the growing target, saturation) within ten years."""

from __future__ import annotations

import math

import pytest

from models.evaluate import evaluate, evaluate_resilience
from models.present.resilience import runway_lines
from models.resources import examples_dir
from models.store import load_any


@pytest.mark.parametrize("name,full,breach,saturation", [
    # growth applied as (1 + g)^(months / 12) (30% a year: 1.30x after 12 months)
    # NVMe bounded by a published 'up to' figure (a rate cap): the SLO holds until just before saturation
    ("aff-a70-ns224-oracle-nvmetcp.toml", 96.28, 84.88, 84.90),  # its own 1.6M bound, not the A90's 2.4M
    ("aff-c80-qlc-vmware-nvmefc64.toml", 38.99, 107.18, 107.18),
])
def test_the_runway_shows_all_three_months(name, full, breach, saturation):
    project = load_any(examples_dir() / name)
    assert all(w.iops_growth_pct_per_year == 30.0 for w in project.scenario.workloads)
    evaluation = evaluate(project)
    runway = evaluate_resilience(project, evaluation)
    assert runway.months_until_full == pytest.approx(full, abs=0.01)
    assert runway.months_until_slo_breach == pytest.approx(breach, abs=0.01)
    assert runway.months_until_saturation == pytest.approx(saturation, abs=0.01)
    # independently: the target grows 30% a year until it reaches the saturation IOPS
    w = evaluation.performance.workloads[0]
    assert runway.months_until_saturation == pytest.approx(
        12 * math.log(w.saturation_iops / w.target_iops) / math.log(1.3), abs=0.01)
    # the breach comes before saturation: the SLO breaks while there is still headroom
    assert runway.months_until_slo_breach < runway.months_until_saturation
    lines = runway_lines(runway)
    # the three months, and the takeover state's breach where the SLO in takeover is required (both examples)
    assert project.requirements.meet_slo_in_takeover
    assert len(lines) == 4 and not [line for line in lines if "not within" in line or "already" in line]
    assert lines[3].startswith("months until the SLO is breached in takeover at the growing target (required): ")
