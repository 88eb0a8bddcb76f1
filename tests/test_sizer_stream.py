"""The sizer as a stream: designs are specs built only when the search reaches them, the collector is paused only
for the search, and a design without an HA partner is known to fail the takeover requirement without its full
evaluation (the same answer as its failure states give)."""

from __future__ import annotations

import gc
import math
import random
from dataclasses import replace

import pytest

import models.sizing
from models.evaluate import project_catalog
from models.performance import evaluate_performance
from models.performance.resilience import evaluate_states
from models.performance.screening import DesignPaths, check_designs, design_paths, failover_verdicts
from models.project.model import Requirements
from models.resources import examples_dir
from models.sizing import _cannot_meet_without_partner, _specs, size
from models.store import load_any
from models.verdict import failover_state

EXAMPLE = examples_dir() / "aff8080-sqlserver-tpce.toml"


def test_a_search_builds_only_the_designs_it_reaches(monkeypatch):
    project = load_any(EXAMPLE)
    wide = project.model_copy(update={"requirements": Requirements()})
    built = []

    def counting(real):
        def counted(spec):
            if spec._scenario is None:
                built.append(spec.summary)
            return real(spec)
        return property(counted)

    for kind in (models.sizing._Spec, models.sizing._ArraySpec):  # an array design builds its own scenario
        monkeypatch.setattr(kind, "scenario", counting(kind.scenario.fget))
    result = size(wide, top=5)
    assert result.considered > 15_000 and result.candidates  # current models only (18,825 on 2026-11-30)
    assert len(built) == len(set(built)) < result.considered / 50  # each reached design built once, most never
    assert {c.summary for c in result.candidates} <= set(built)


def test_a_spec_builds_the_same_scenario_as_before_and_keeps_it():
    project = load_any(EXAMPLE)
    catalog = project_catalog(project)
    spec = next(iter(_specs(project.scenario, catalog, project.requirements)))
    first = spec.scenario
    assert spec.scenario is first
    assert spec.summary.startswith(next(n.label for n in first.nodes if n.kind == "controller"))
    shelves = sum(n.drive_count for n in first.nodes if n.kind == "shelf")
    assert spec.size == (shelves, 0)


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_paused_for_the_search_and_restored_after(monkeypatch, enabled):
    project = load_any(EXAMPLE)
    seen = []

    def spy(*args, **kwargs):
        seen.append(gc.isenabled())
        raise RuntimeError("stop")

    monkeypatch.setattr(models.sizing, "search", spy)
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        with pytest.raises(RuntimeError, match="stop"):
            size(project)
        assert seen == [False] and gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()


def test_no_ha_partner_is_what_the_failure_states_say_on_random_designs():
    project = load_any(examples_dir() / "cvo-azure-ds14-ha-oltp.toml")
    req = Requirements(meet_slo_in_takeover=True)
    catalog = project_catalog(project)
    specs = list(_specs(project.scenario, catalog, req))
    picks = random.Random(7).sample(specs, 40)
    seen = set()
    for spec in picks:
        states = evaluate_states(spec.scenario, catalog, project.settings, only=("takeover", "cloud_failover"))
        partnered = any(failover_state(s) is not None for s in states.values())
        managed = any(n.kind == "managed_service" for n in spec.scenario.nodes)
        expected = not partnered and spec.deployment != "hci" and not managed
        assert _cannot_meet_without_partner(spec.scenario, catalog, req, spec.deployment) is expected, spec.summary
        seen.add(expected)
    assert seen == {True, False}
    assert not _cannot_meet_without_partner(picks[0].scenario, catalog, Requirements(), picks[0].deployment)


def _close(a, b):
    return (a is None and b is None) or (a is not None and b is not None and math.isclose(a, b, rel_tol=1e-9))


@pytest.mark.parametrize("example", ["aff8080-sqlserver-tpce", "cvo-azure-ds14-ha-oltp",
                                     "vsan8-esa-6host-sqlserver-oltp"])
def test_the_batched_check_gives_the_full_evaluations_figures_on_random_designs(example):
    project = load_any(examples_dir() / f"{example}.toml")
    catalog = project_catalog(project)
    specs = list(_specs(project.scenario, catalog, Requirements()))
    picks = random.Random(11).sample(specs, 12)
    checked = check_designs([design_paths(s.scenario, catalog) for s in picks], bands=True)  # one batch
    compared = 0
    for spec, got in zip(picks, checked):
        perf = evaluate_performance(spec.scenario, catalog, project.settings)
        assert got.problems == perf.problems, spec.summary
        assert [w.workload_id for w in got.workloads] == [w.workload_id for w in perf.workloads]
        for mine, full in zip(got.workloads, perf.workloads):
            assert mine.name == full.name and mine.target_iops == full.target_iops
            assert _close(mine.saturation_iops, full.saturation_iops), spec.summary
            assert _close(mine.max_iops_at_slo, full.max_iops_at_slo), spec.summary
            assert _close(mine.max_iops_at_slo_band_p10, full.max_iops_at_slo_band_p10), spec.summary
            compared += 1
        states = evaluate_states(spec.scenario, catalog, project.settings, only=("takeover", "cloud_failover"))
        verdicts = failover_verdicts(design_paths(spec.scenario, catalog))
        want = [failover_state(s) for s in states.values()]
        assert [(v.state, v.meets_slo) if v else None for v in verdicts] == [
            (s.state, s.meets_slo) if s else None for s in want], spec.summary
    assert compared >= 12


def test_the_check_of_a_takeover_that_misses_names_it_as_the_states_do():
    project = load_any(EXAMPLE)
    catalog = project_catalog(project)
    design = design_paths(project.scenario, catalog)
    heavy = [replace(p, workload=p.workload.with_changes(target_iops=(p.workload.target_iops or 1e4) * 40))
             for p in design.paths]
    got = failover_verdicts(DesignPaths(tuple(heavy), design.problems))
    assert got and all(v is not None and v.state == "takeover" and v.meets_slo is False for v in got)
    light = [replace(p, workload=p.workload.with_changes(target_iops=10.0)) for p in design.paths]
    assert all(v is not None and v.meets_slo is True for v in failover_verdicts(DesignPaths(tuple(light), ())))
