"""MetroCluster switchover with both sites' load: when the partner site runs the same workloads as this one
(``partner_site_load = "mirror"``, a symmetric active-active MetroCluster), the surviving site's HA pair serves both
sites' workloads, so its controllers carry twice this site's load and saturation falls; with "none"
(active-passive) the switchover stays as it was. The field round-trips through the TOML and the .storplan file."""

from __future__ import annotations

import pytest

from models.catalog import bundled_catalog
from models.evaluate import evaluate
from models.performance import build_path
from models.performance.engine import target_rate
from models.performance.resilience import evaluate_states
from models.performance.stations import CONTROLLER_ROLES
from models.project import ProjectFormatError, dumps, loads
from models.resources import examples_dir
from models.store import load_any, open_project, save_project

CAT = bundled_catalog()
EXAMPLE = "aff-a70-metrocluster-ip-oracle-nvmetcp.toml"


def _example(partner: str | None = None):
    """The bundled MetroCluster IP example, its controller's ``partner_site_load`` set to ``partner`` (None: as
    bundled)."""
    project = load_any(examples_dir() / EXAMPLE)
    if partner is None:
        return project
    scenario = project.scenarios[0]
    nodes = [n.model_copy(update={"partner_site_load": partner}) if n.kind == "controller" else n
             for n in scenario.nodes]
    return project.model_copy(update={"scenarios": [scenario.model_copy(update={"nodes": nodes})]})


def _switchover(project):
    scenario = project.scenarios[0]
    normal = evaluate(project).performance.workloads[0]
    states = {s.state: s for s in evaluate_states(scenario, CAT)[normal.workload_id]}
    return normal, states["switchover"]


def test_the_bundled_example_says_its_partner_site_runs_the_same_workloads():
    project = _example()
    controller = next(n for n in project.scenarios[0].nodes if n.kind == "controller")
    assert controller.metrocluster == "ip" and controller.partner_site_load == "mirror"


def test_a_mirrored_partner_site_halves_the_headroom_on_the_controllers():
    """With "mirror" the other site's copy of each workload loads the surviving HA pair's controller stations at
    its target: the station that binds saturates when this workload's rate plus the copies' demand fill it. The
    example has one workload, so at the binding controller station (its CPU) saturation is the normal saturation
    less the copy's rate (the same demand per I/O): an independent computation from the path's own stations."""
    project = _example("mirror")
    normal, state = _switchover(project)
    scenario = project.scenarios[0]
    workload = scenario.workloads[0]
    path = build_path(scenario, CAT, workload)
    rate = target_rate(workload)
    assert rate is not None and rate > 0
    rf = path.read_fraction
    # saturation of a station with the copy at its target: (capacity x servers - copy's load) / demand, i.e. the
    # bound the station gives less the copy's rate; the switchover's saturation is the least over the stations,
    # the copy loading only the controller stations
    bounds = []
    for spec in path.stations:
        if spec.delay or spec.ident.role == "metrocluster_mirror":
            continue
        own = spec.capacity / spec.demand(rf)
        bounds.append(own - rate if spec.ident.role in CONTROLLER_ROLES else own)
    expected = min(bounds)
    normal_bound = min(spec.capacity / spec.demand(rf) for spec in path.stations if not spec.delay)
    assert normal.saturation_iops == pytest.approx(normal_bound, rel=0.01)
    assert state.performance.saturation_iops == pytest.approx(expected, rel=0.01)
    assert state.performance.saturation_iops < normal.saturation_iops * 0.9
    # both sites' load, not relief: near the switchover's saturation its latency is above normal operation's at
    # the same IOPS once the relieved inter-site mirror delay (no partner to mirror writes to) is taken out of
    # normal operation's; with the cap of the A90's published figure binding, the delay can outweigh the copy's
    # load on the controller stations, so the raw comparison is not the test
    mirror_ms = sum(spec.demand(rf) for spec in path.stations if spec.ident.role == "metrocluster_mirror") * 1e3
    assert mirror_ms > 0
    x = 0.8 * state.performance.saturation_iops
    assert state.performance.latency_on_curve_ms(x) > normal.latency_on_curve_ms(x) - mirror_ms
    assert any(name == "MetroCluster inter-site mirror" for name, _ in state.relieved)
    name = workload.name
    # the reason is read under the workload's name (GUI, report, JSON): it says "this workload", never its name
    assert state.reason.count(name) == 0 and "site A" in state.reason and "site B" in state.reason
    assert "serves this workload for both sites (its own and site A's)" in state.reason
    assert "both sites' load" in state.reason


def test_an_active_passive_partner_keeps_the_old_switchover():
    normal, state = _switchover(_example("none"))
    assert state.performance.saturation_iops == pytest.approx(normal.saturation_iops, rel=1e-9)
    assert state.performance.latency_at_target_ms < normal.latency_at_target_ms  # the inter-site wait goes
    assert "saturation does not fall" in state.reason
    assert "site B" not in state.reason


def test_mirror_loads_every_workload_of_the_site_on_the_survivor():
    """Two workloads on the site: each one's switchover carries both workloads' copies, so its saturation falls by
    more than its own copy's rate alone."""
    project = _example("mirror")
    scenario = project.scenarios[0]
    second = scenario.workloads[0].model_copy(update={"id": "oltp2", "name": "Second OLTP"})
    two = project.model_copy(update={"scenarios": [scenario.model_copy(
        update={"workloads": [*scenario.workloads, second]})]})
    normal = {w.workload_id: w for w in evaluate(two).performance.workloads}
    states = evaluate_states(two.scenarios[0], CAT)
    first = {s.state: s for s in states[scenario.workloads[0].id]}["switchover"]
    rate = target_rate(scenario.workloads[0])
    assert rate is not None
    # the copies of both workloads (same demand per I/O) take 2 x rate off the normal saturation, which already
    # has the second workload's own load at its target
    assert first.performance.saturation_iops == pytest.approx(
        normal[scenario.workloads[0].id].saturation_iops - 2 * rate, rel=0.01)
    # the reason names the other workload it serves, once; its own workload is "this workload" (read under its name)
    assert first.reason.count("Second OLTP") == 1 and scenario.workloads[0].name not in first.reason
    assert "this workload and the site's others (Second OLTP)" in first.reason


@pytest.mark.parametrize("value", ["mirror", "none"])
def test_partner_site_load_round_trips_through_toml_and_storplan(value, tmp_path):
    project = _example(value)
    again = loads(dumps(project))
    assert again == project
    reopened = open_project(save_project(project, tmp_path / "mcc.storplan")).project
    assert reopened == project
    controller = next(n for n in reopened.scenarios[0].nodes if n.kind == "controller")
    assert controller.partner_site_load == value


def test_an_unknown_partner_site_load_is_refused_naming_the_field():
    text = (examples_dir() / EXAMPLE).read_text(encoding="utf-8").replace(
        'partner_site_load = "mirror"', 'partner_site_load = "both"')
    with pytest.raises(ProjectFormatError, match="partner_site_load"):
        loads(text)
