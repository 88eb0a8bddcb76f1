"""The sizer's first walk passes over the designs that certainly cannot meet: the single-node Cloud Volumes ONTAP
designs when the SLO in takeover is required (they have no HA partner), the arrays whose drives' right-sized capacity
cannot hold the data or give the effective capacity, and the arrays whose controller an earlier design showed too
slow for a grown target (or, when the SLO in takeover is required, too slow in takeover for a target). What it
returns is what a walk with every design returns, whether designs meet or none does (then the walk is made again
with every design, for the nearest and their reasons), and it builds no path of a design it passed over when designs
meet."""

from __future__ import annotations

import models.sizing as sizing
from models.capacity import evaluate_capacity
from models.evaluate import project_catalog
from models.performance import saturation_iops
from models.performance.engine import target_rate
from models.performance.screening import design_paths, failover_verdicts
from models.performance.states import takeover
from models.project.model import Requirements
from models.resources import examples_dir
from models.sizing import (
    TAKEOVER_BOUND_MARGIN,
    _cannot_meet_without_partner,
    _capacity_certainly_short,
    _cloud_specs,
    _controller_bounds,
    _controller_side,
    _parts_certainly_short,
    _parts_side,
    _retargeted,
    _single_cloud_spec,
    _single_cloud_vm,
    _specs,
    _takeover_bounds,
    capacity_reasons,
    needed_effective_bytes,
    size,
)
from models.store import load_any

EXAMPLE = "cvo-azure-ds14-ha-oltp"
ARRAYS = "aff8080-sqlserver-tpce"


def _project(iops_factor: float = 1.0, example: str = EXAMPLE):
    """A bundled example (the CVO one) with the SLO in takeover required and its workloads' targets times
    ``iops_factor``."""
    project = load_any(examples_dir() / f"{example}.toml")
    workloads = [w.model_copy(update={"target_iops": (w.target_iops or 1000.0) * iops_factor})
                 for w in project.scenario.workloads]
    req = project.requirements.model_copy(update={"meet_slo_in_takeover": True})
    return project.model_copy(update={"requirements": req}).with_scenario(
        project.scenario.model_copy(update={"workloads": workloads}))


def _figures(result) -> tuple:
    """Everything a search returns that a reader sees, per candidate (shown, nearest, every evaluated meeting one)."""
    def one(c):
        return (c.summary, c.meets, c.reasons, c.usable_bytes, c.effective_bytes, c.max_iops_at_slo, c.headroom_pct,
                c.pareto, c.variant, tuple(a.summary for a in c.alternatives))
    return (tuple(one(c) for c in result.candidates), tuple(one(c) for c in result.nearest),
            tuple(one(c) for c in result.evaluated), result.notes, result.considered, result.capped)


def test_a_design_read_as_a_single_cloud_node_has_no_ha_partner_in_its_paths():
    project = _project()
    catalog = project_catalog(project)
    req = project.requirements
    single = paired = 0
    for i, spec in enumerate(_cloud_specs(project.scenario, catalog, req)):
        if i % 9:  # a sample across VMs, licences, disk types and counts
            continue
        told = _single_cloud_spec(spec, req)  # by its generator, before its scenario is built
        scenario = spec.scenario
        alone = _single_cloud_vm(scenario, req, "cloud")
        assert alone == (not scenario.nodes[0].ha) == told
        assert _cannot_meet_without_partner(scenario, catalog, req, "cloud", design_paths(scenario, catalog)) == alone
        single += alone
        paired += not alone
    assert single >= 50 and paired >= 50
    relaxed = req.model_copy(update={"meet_slo_in_takeover": False})  # without the requirement it never applies
    assert not _single_cloud_vm(next(iter(_cloud_specs(project.scenario, catalog, req))).scenario, relaxed, "cloud")


def test_an_arrays_controller_bound_is_no_lower_than_its_paths_and_the_same_for_its_controller_side():
    project = load_any(examples_dir() / f"{ARRAYS}.toml")
    catalog = project_catalog(project)
    sides: dict[tuple, dict[str, float]] = {}
    compared = shared = 0
    for i, spec in enumerate(_specs(project.scenario, catalog, project.requirements)):
        if spec.deployment != "on-prem" or i % 4:  # a sample (current models only since stop 54)
            continue
        scenario = spec.scenario
        paths = design_paths(scenario, catalog)
        bounds = _controller_bounds(paths)
        for p in paths.paths:
            whole, _ = saturation_iops(p.stations, p.read_fraction)
            assert whole <= bounds[p.workload.id]
            compared += 1
        side = (scenario.nodes[0].model_dump_json(), next(n for n in scenario.nodes if n.kind == "controller")
                .model_dump_json(), tuple((ln.source, ln.link_type, ln.ports) for ln in scenario.links
                                          if ln.target == "array"))
        if side in sides:  # another design of the same controller side: other shelves or drives, the same bound
            assert sides[side] == bounds
            shared += 1
        sides.setdefault(side, bounds)
    assert compared >= 300 and shared >= 100


def test_an_arrays_takeover_bound_is_no_lower_than_its_takeover_state_and_a_target_above_it_misses_the_slo():
    project = load_any(examples_dir() / f"{ARRAYS}.toml")
    catalog = project_catalog(project)
    out = kept = 0
    for i, spec in enumerate(_specs(project.scenario, catalog, project.requirements)):
        if spec.deployment != "on-prem" or i % 5:
            continue
        paths = design_paths(spec.scenario, catalog)
        bounds = _takeover_bounds(paths)
        verdicts = failover_verdicts(paths)
        for p, verdict in zip(paths.paths, verdicts, strict=True):
            state = takeover(p)
            assert (state is None) == (p.workload.id not in bounds) == (verdict is None)
            if state is None:
                continue
            whole, _ = saturation_iops(state.path.stations, state.path.read_fraction)
            assert whole <= bounds[p.workload.id]
            if bounds[p.workload.id] * (1 + TAKEOVER_BOUND_MARGIN) <= target_rate(p.workload):
                assert verdict.meets_slo is False, spec.summary  # the takeover verdict the check reads
                out += 1
            else:
                kept += 1
    assert out >= 30 and kept >= 30


def test_an_array_read_as_short_of_capacity_from_its_drives_misses_its_capacity():
    project = load_any(examples_dir() / f"{ARRAYS}.toml")
    catalog = project_catalog(project)
    req = project.requirements
    sides: dict = {}
    short = kept = 0
    for need in (needed_effective_bytes(project.scenario, req), 3e14):  # the example's, and 300 TB effective
        for i, spec in enumerate(_specs(project.scenario, catalog, req)):
            if spec.deployment != "on-prem" or i % 7:
                continue
            reasons = capacity_reasons(evaluate_capacity(spec.scenario, catalog).total, need, req.horizon_months)
            if _capacity_certainly_short(spec.scenario, catalog, need, sides):
                assert reasons, spec.summary
                short += 1
            else:
                kept += 1
    assert short >= 30 and kept >= 30


def test_an_array_told_from_its_parts_is_read_as_from_its_built_design():
    project = load_any(examples_dir() / f"{ARRAYS}.toml")
    catalog = project_catalog(project)
    workloads = [w for w in _retargeted(project.scenario, "array", keep_hosts=True) if w.enabled]
    short = kept = 0
    for need in (needed_effective_bytes(project.scenario, project.requirements), 3e14):
        sides: dict = {}
        for i, spec in enumerate(_specs(project.scenario, catalog, Requirements())):  # every family and protocol
            if spec.deployment != "on-prem" or i % 7:
                continue
            told = _parts_certainly_short(spec.parts, workloads, need, sides), _parts_side(spec.parts)
            assert told == (_capacity_certainly_short(spec.scenario, catalog, need, sides),
                            _controller_side(spec.scenario)), spec.summary
            short += told[0]
            kept += not told[0]
    assert short >= 30 and kept >= 30


def _full_walk(monkeypatch, project):
    """The search with every design walked (nothing passed over)."""
    with monkeypatch.context() as m:
        m.setattr(sizing, "_single_cloud_vm", lambda *args: False)
        m.setattr(sizing, "_single_cloud_spec", lambda *args: False)
        m.setattr(sizing, "_controller_bounds", lambda paths: {})
        m.setattr(sizing, "_takeover_bounds", lambda paths: {})
        m.setattr(sizing, "_capacity_certainly_short", lambda *args: False)
        m.setattr(sizing, "_drives_certainly_short", lambda *args: False)  # (an array told from its parts too)
        return size(project, top=5)


def test_a_search_where_designs_meet_builds_no_single_node_paths_and_returns_the_full_walks_result(monkeypatch):
    project = _project()
    full = _full_walk(monkeypatch, project)
    built: list[bool] = []
    real = sizing.design_paths

    def counted(scenario, *args, **kwargs):
        built.append(all(n.kind == "cloud_vm" and not n.ha for n in scenario.nodes))
        return real(scenario, *args, **kwargs)

    monkeypatch.setattr(sizing, "design_paths", counted)
    lazy = size(project, top=5)
    assert full.candidates and all(c.meets for c in full.candidates)
    assert _figures(lazy) == _figures(full)
    assert built and not any(built)  # paths built, none of a single node


def test_a_search_where_nothing_meets_returns_the_full_walks_nearest_and_reasons(monkeypatch):
    project = _project(iops_factor=1000.0)
    full = _full_walk(monkeypatch, project)
    lazy = size(project, top=5)
    assert not full.candidates and len(full.nearest) == 3
    assert any("no HA partner" in r or "saturates" in r for c in full.nearest for r in c.reasons)
    assert _figures(lazy) == _figures(full)


def test_an_array_search_returns_the_full_walks_result_when_designs_meet_and_when_none_does(monkeypatch):
    for factor, meets in ((1.0, True), (30.0, False)):
        project = _project(factor, ARRAYS)
        full = _full_walk(monkeypatch, project)
        assert bool(full.candidates) == meets
        assert _figures(size(project, top=5)) == _figures(full)
