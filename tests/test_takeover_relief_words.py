"""A failure state faster than normal operation says why in the sentence that shows its latency (REVIEW44 #13: the
AFF A70 example read "normal ... 0.11 ms / takeover ... 0.10 ms" with only "NVRAM mirroring stops" in a separate
note): the HA partner's NVRAM mirroring stops in takeover, so writes no longer wait for it."""

from __future__ import annotations

import pytest

from models.evaluate import evaluate, evaluate_resilience
from models.formatting import fmt_ms
from models.present.resilience import compact_states, state_label, state_verdict, state_verdicts
from models.project import load
from models.resources import examples_dir

WHY = "the HA partner's NVRAM mirroring stops in takeover, so writes no longer wait for it"


@pytest.fixture(scope="module")
def a70():
    """The AFF A70 example with 70% of its I/Os writes (the example's 70% reads showed 0.11 ms in both states once the
    A70's own 1.6M IOPS bound, 25,000 per core on its 64 cores, replaced the A90's 2.4M: a relief under 2.5 us no
    longer shows at two decimals); 30% reads, more NVRAM mirroring stopped: 0.079 ms normal against 0.072 ms in
    takeover."""
    project = load(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml")
    project = project.with_scenario(project.scenario.model_copy(update={"workloads": [
        w.with_changes(read_pct=30) for w in project.scenario.workloads]}))
    evaluation = evaluate(project)
    resilience = evaluate_resilience(project, evaluation)
    normal = evaluation.performance.workloads[0]
    return normal, resilience.states[normal.workload_id], resilience


def test_takeover_below_normal_says_why_in_its_sentence(a70):
    normal, states, _ = a70
    (takeover,) = [s for s in states if s.state == "takeover"]
    now, before = takeover.performance.slo_bounded_at_target_ms, normal.slo_bounded_at_target_ms
    assert takeover.relieved and now < before and fmt_ms(now) != fmt_ms(before)  # the example's facts
    expected = f"in takeover: yes, {fmt_ms(now)} (below normal operation's {fmt_ms(before)}: {WHY})"
    assert state_verdict(takeover, normal).endswith(expected)
    # the screen's one line per workload says it in a few words (REVIEW45: the MetroCluster example's long clause
    # pushed its Runway line out of a 1366 x 768 screen); its tooltip has the sentence above
    assert f"takeover ({fmt_ms(now)}, faster than normal: no NVRAM mirroring to the partner)" \
        in compact_states(states, normal)


def test_states_that_stop_no_work_add_nothing(a70):
    normal, states, resilience = a70
    others = [s for s in states if not s.relieved]
    assert others
    for state in others:
        assert "below normal" not in state_verdict(state, normal)
    texts = [v.text for v in state_verdicts(resilience, [normal])]
    assert sum(WHY in t for t in texts) == 1, texts


@pytest.mark.parametrize("example", ["aff-a70-ns224-oracle-nvmetcp.toml", "aff-c80-qlc-vmware-nvmefc64.toml",
                                     "ef600-nvme-ddp-oltp-nvmefc.toml"])
def test_a_takeover_below_normal_that_prints_alike_says_why_with_one_more_decimal(example):
    """Review r4 item 14: the unmodified AFF A70 example's takeover is 0.1055 ms against normal operation's 0.1077
    ms, both "0.11 ms" at two decimals, so the 'Bad day' line read "takeover: yes, 0.11 ms" with no word of why
    (CVO, MetroCluster and vSAN said "below normal: ..."); the C80 (0.129 / 0.133) and the EF600's controller
    failover (0.099 / 0.102) likewise. With one more decimal they differ, and the sentence says why."""
    project = load(examples_dir() / example)
    evaluation = evaluate(project)
    normal = evaluation.performance.workloads[0]
    states = evaluate_resilience(project, evaluation).states[normal.workload_id]
    (state,) = [s for s in states if s.state == "takeover"]
    now, before = state.performance.slo_bounded_at_target_ms, normal.slo_bounded_at_target_ms
    assert state.relieved and now < before
    finer = f"{now:.3f} ms", f"{before:.3f} ms"
    assert finer[0] != finer[1] and now < 1.0  # three decimals below 1 ms (fmt_ms prints two)
    sentence = state_verdict(state, normal)
    assert f": yes, {finer[0]} (below normal operation's {finer[1]}: " in sentence
    assert "mirroring" in sentence.split("below normal operation's", 1)[1]
    short = compact_states(states, normal)
    assert f"{state_label(state)} ({finer[0]}, faster than normal: no " in short and "mirroring" in short


@pytest.mark.parametrize("example", ["aff-a400-ns224-oracle-nvmefc.toml", "aff8080-nfs-file-services.toml",
                                     "aff-c80-qlc-vmware-nvmefc64.toml", "ef600-nvme-ddp-oltp-nvmefc.toml"])
def test_no_state_that_stops_no_work_beats_normal_operation_by_rounding(example):
    """Review r4 item 14: the A400's path loss read max 998,878 IOPS at the SLO beside normal operation's 998,877,
    the C80's drive rebuild 1,562,500 beside 1,562,499 (the open model's search for the SLO crossing ends within a
    relative 1e-6). A state that only takes capacity away shows at most normal's figures; one that stops work of
    normal operation (takeover's mirroring) may beat it, and says why."""
    from models.performance.resilience import CLAMPED_FIGURES

    project = load(examples_dir() / example)
    evaluation = evaluate(project)
    normal = evaluation.performance.workloads[0]
    states = evaluate_resilience(project, evaluation).states[normal.workload_id]
    held = 0
    for state in states:
        if state.relieved:
            continue
        for field in CLAMPED_FIGURES:
            value, limit = getattr(state.performance, field), getattr(normal, field)
            if value is not None and limit is not None:
                assert value <= limit, (state.state, field, value, limit)
                held += value == limit
    assert held  # the figures the solvers' rounding put above normal's are shown as normal's
