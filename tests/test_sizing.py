"""Auto-size: the project's requirements in, ranked configurations out. Each candidate's project, written out and
evaluated on its own, meets the requirements (checked here without the sizer); impossible requirements get the
nearest designs and what they miss."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from models.evaluate import evaluate
from models.performance.resilience import evaluate_states
from models.project import loads
from models.project.model import Requirements
from models.resources import examples_dir
from models.sizing import needed_effective_bytes, size
from models.store import load_any

EXAMPLE = examples_dir() / "aff8080-sqlserver-tpce.toml"


def _meets(project, requirements: Requirements, need: float) -> list[str]:
    """What an evaluated candidate misses (empty: it meets), computed from its own evaluation."""
    evaluation = evaluate(project)
    misses = []
    if evaluation.capacity.total.effective_bytes < need:
        misses.append("capacity")
    targets = {w.id: w for w in project.scenario.workloads}
    for wp in evaluation.performance.workloads:
        w = targets[wp.workload_id]
        if wp.target_iops is None:
            continue  # no target: no performance requirement
        grown = wp.target_iops * (1 + w.iops_growth_pct_per_year / 1200) ** requirements.horizon_months
        if wp.max_iops_at_slo is None or wp.max_iops_at_slo < grown:
            misses.append(f"{wp.name} SLO")
    return misses


def test_the_top_candidates_meet_the_requirements_on_their_own():
    project = load_any(EXAMPLE)
    result = size(project, top=5)
    assert result.candidates and all(c.meets for c in result.candidates)
    keys = [c.rank_key() for c in result.candidates]
    assert keys == sorted(keys)
    out = subprocess.run([sys.executable, "-m", "app", "size", str(EXAMPLE), "--json"], capture_output=True,
                         text=True, check=True)
    rows = json.loads(out.stdout)["candidates"]
    assert len(rows) == 5 and [r["rank"] for r in rows] == [1, 2, 3, 4, 5]
    need = needed_effective_bytes(project.scenario, project.requirements)
    for row in rows:
        candidate = loads(row["project"])  # the candidate as a complete project, independent of the sizer
        assert _meets(candidate, project.requirements, need) == [], row["summary"]
        assert row["effective_bytes"] == pytest.approx(evaluate(candidate).capacity.total.effective_bytes)


def test_takeover_requirement_is_met_in_takeover():
    project = load_any(EXAMPLE)
    project = project.model_copy(update={"requirements": Requirements(meet_slo_in_takeover=True)})
    result = size(project, top=3)
    assert result.candidates
    for c in result.candidates:
        states = evaluate_states(c.scenario, __import__("models.evaluate", fromlist=["project_catalog"])
                                 .project_catalog(project))
        takeover = [s for ss in states.values() for s in ss if s.state == "takeover"]
        assert takeover and all(s.meets_slo for s in takeover)


def test_impossible_requirements_name_what_cannot_be_reached():
    project = load_any(EXAMPLE)
    project = project.model_copy(update={"requirements": Requirements(effective_capacity_bytes=10**17)})  # 100 PB
    result = size(project)
    assert result.candidates == ()
    assert result.nearest and all(any("capacity short by" in r for r in c.reasons) for c in result.nearest)
    out = subprocess.run([sys.executable, "-m", "app", "size", str(EXAMPLE)], capture_output=True, text=True)
    assert "designs considered" in out.stdout


def test_requirements_in_the_toml_form():
    text = EXAMPLE.read_text() + "\n[requirements]\nhorizon_months = 12\nprotocols = [\"NVMe/FC\"]\nrank_on = \"p90\"\n"
    project = loads(text)
    assert project.requirements.horizon_months == 12 and project.requirements.rank_on == "p90"
    result = size(project, top=2)
    assert all("NVMe/FC" in c.summary for c in result.candidates + result.nearest)
    grown = project.scenario.workloads[0].dataset_bytes * (1 + 20 / 1200) ** 12
    assert needed_effective_bytes(project.scenario, project.requirements) == pytest.approx(grown)
    assert math.isfinite(grown)


def test_hci_candidates_meet_with_their_spare_host_down():
    """vSAN only, N+1: each candidate, evaluated on its own with one host taken out, still has the capacity and
    meets every workload's SLO at its grown target; its rack units count every host."""
    project = load_any(examples_dir() / "vsan-sqlserver-raid1.toml")
    scenario = project.scenario
    busy = [w.with_changes(target_iops=150_000.0) for w in scenario.workloads]  # a target, so the SLO matters
    project = project.with_scenario(scenario.model_copy(update={"workloads": busy}))
    project = project.model_copy(update={"requirements": Requirements(deployments=["hci"], n_plus=1)})
    result = size(project, top=3)
    assert result.candidates and all("hosts (1 spare)" in c.summary for c in result.candidates)
    need = needed_effective_bytes(project.scenario, project.requirements)
    for c in result.candidates:
        cluster = next(n for n in c.scenario.nodes if n.kind == "hci_cluster")
        assert c.rack_units == 2 * cluster.hosts
        degraded = c.scenario.model_copy(update={"nodes": [cluster.model_copy(update={"hosts": cluster.hosts - 1})]})
        assert _meets(project.with_scenario(degraded), project.requirements, need) == []


def test_candidates_below_the_saturation_bound_are_ruled_out_without_a_full_evaluation():
    """A target far above any array's saturation: every capacity-feasible candidate fails the asymptotic bound
    (min capacity / demand), each saying where it saturates."""
    project = load_any(EXAMPLE)
    scenario = project.scenario
    huge = [w.with_changes(target_iops=50_000_000.0) for w in scenario.workloads]
    project = project.with_scenario(scenario.model_copy(update={"workloads": huge}))
    project = project.model_copy(update={"requirements": Requirements(deployments=["on-prem"])})
    result = size(project)
    assert result.candidates == ()
    assert result.nearest and all("saturates at" in r for c in result.nearest for r in c.reasons)
