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
    # its 64Gb target ports on a 64Gb G720 fabric (on a G630 they ran at 32Gb: saturation 1.5625M IOPS, 107.18
    # months); now NVRAM mirroring: saturation 2,034,505 IOPS = 150,000 x 1.3^(119.26 / 12)
    ("aff-c80-qlc-vmware-nvmefc64.toml", 38.99, 119.22, 119.26),
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


def test_two_workloads_the_earliest_month_of_either_in_normal_operation_and_in_takeover():
    """Review 56 item 2: with two workloads on one HA pair the runway's months (normal operation and the takeover
    state the requirement judges) are the earliest of any workload, each by hand: the target grown as
    (1 + g)^(months / 12) against that workload's max IOPS at the SLO (and saturation) in that state. Here the
    second workload (60K IOPS growing 80% a year) breaches first; the first (150K IOPS at 5%) not within ten years
    in takeover."""
    from models.present.resilience import takeover_breach
    from models.verdict import failover_state

    project = load_any(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml")
    first = project.scenario.workloads[0].model_copy(update={"target_iops": 150_000.0,
                                                             "iops_growth_pct_per_year": 5.0})
    second = first.model_copy(update={"id": "oltp2", "name": "Second OLTP", "target_iops": 60_000.0,
                                      "iops_growth_pct_per_year": 80.0})
    project = project.with_scenario(project.scenario.model_copy(update={"workloads": [first, second]}))
    evaluation = evaluate(project)
    runway = evaluate_resilience(project, evaluation)
    growth = {"oltp": 0.05, "oltp2": 0.80}

    def month(target, limit, g):
        value = 12 * math.log(limit / target) / math.log(1 + g)
        return value if value <= 120 else None

    normal = {wp.workload_id: wp for wp in evaluation.performance.workloads}
    breach = [month(wp.target_iops, wp.max_iops_at_slo, growth[i]) for i, wp in normal.items()]
    saturation = [month(wp.target_iops, wp.saturation_iops, growth[i]) for i, wp in normal.items()]
    assert runway.months_until_slo_breach == pytest.approx(min(m for m in breach if m is not None), abs=1e-6)
    assert runway.months_until_saturation == pytest.approx(min(m for m in saturation if m is not None), abs=1e-6)
    taken = {i: failover_state(runway.states[i]).performance for i in normal}
    assert {st.target_iops for st in taken.values()} == {150_000.0, 60_000.0}
    over = {i: month(st.target_iops, st.max_iops_at_slo, growth[i]) for i, st in taken.items()}
    assert over["oltp"] is None and over["oltp2"] is not None  # the second workload's month, not the first's
    assert over["oltp2"] == pytest.approx(12 * math.log(taken["oltp2"].max_iops_at_slo / 60_000) / math.log(1.8))
    got = takeover_breach(runway)
    assert got is not None and got[0] == pytest.approx(over["oltp2"], abs=1e-6) and got[1] == "takeover"
    assert runway_lines(runway)[3] == ("months until the SLO is breached in takeover at the growing target "
                                       f"(required): {round(over['oltp2'])} months")
