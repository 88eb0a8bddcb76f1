"""The bad day: failure states as transformations of a workload's stations, each checked against a hand
computation, the issue's bounds on every HA example, and the growth runway's months."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from models.catalog import bundled_catalog
from models.evaluate import evaluate, evaluate_resilience
from models.performance import build_path
from models.performance.resilience import RUNWAY_HORIZON_MONTHS, evaluate_states, months_to_reach
from models.performance.states import REBUILD_UTILISATION, drive_rebuild, host_failure, path_loss, takeover
from models.performance.stations import StationId
from models.resources import examples_dir
from models.store import load_any

CAT = bundled_catalog()


def _ha_controller_examples() -> list[str]:
    """Every bundled example whose workloads target a controller system of two or more nodes (an HA pair)."""
    from models.catalog import Controller

    found = []
    for path in sorted(examples_dir().glob("*.toml")):
        scenario = load_any(path).scenario
        targets = {w.target for w in scenario.workloads}
        for node in scenario.nodes:
            record = CAT.find(node.catalog_id) if node.kind == "controller" else None
            if node.id in targets and isinstance(record, Controller) and (node.nodes or record.nodes) >= 2:
                found.append(path.name)
                break
    return found


HA_CONTROLLER_EXAMPLES = _ha_controller_examples()


def _states(example):
    project = load_any(examples_dir() / example)
    normal = evaluate(project).performance.workloads[0]
    return project, normal, {s.state: s for s in evaluate_states(project.scenario, CAT)[normal.workload_id]}


def test_the_ha_examples_are_found():
    assert {"aff8080-sqlserver-tpce.toml", "a800-oracle-slob-fcp.toml", "ef550-sas-analytics.toml",
            "aff-a70-ns224-oracle-nvmetcp.toml", "aff-c80-qlc-vmware-nvmefc64.toml"} <= set(HA_CONTROLLER_EXAMPLES)


@pytest.mark.parametrize("example", HA_CONTROLLER_EXAMPLES)
def test_takeover_saturation_is_between_half_and_all_of_normal(example):
    _, normal, states = _states(example)
    assert "takeover" in states  # every example listed is an HA pair
    t = states["takeover"]
    assert (normal.saturation_iops / 2 * (1 - 1e-9) <= t.performance.saturation_iops
            <= normal.saturation_iops * (1 + 1e-9))
    # an E-Series array's two controllers are not an ONTAP HA pair: its own words (controller failover, write cache
    # mirroring), the state id the same
    family = CAT.get(next(n for n in load_any(examples_dir() / example).scenario.nodes
                          if n.kind == "controller").catalog_id).family
    if family == "E-Series":
        assert t.label == "controller failover"
        assert t.reason.startswith("controller failover: controller B has failed and controller A takes ownership")
        assert "write cache mirroring" in t.reason
        assert "NVRAM" not in t.reason and "takeover" not in t.reason
        # SANtricity's controller names A and B on every station, never ONTAP's "node 1" (stop 53's note)
        names = [s.name for s in t.performance.stations]
        assert "controller A CPU" in names and not any("node" in n for n in names), names
        assert "node" not in t.performance.bottleneck
    else:
        assert t.label == "" and "node 2 has failed" in t.reason and "NVRAM mirroring stops" in t.reason


def test_a_cpu_bound_pair_in_takeover_has_half_the_cpu_capacity():
    """AFF8080: the node CPUs are the bottleneck; in takeover node 1's CPU carries both nodes' demand (2 x its
    share), so the CPU's bound halves exactly: saturation = normal / 2 while the CPU stays the bottleneck."""
    project, normal, states = _states("aff8080-sqlserver-tpce.toml")
    assert normal.bottleneck.endswith("CPU")
    t = states["takeover"].performance
    assert t.bottleneck == "node 1 CPU"
    assert t.saturation_iops == pytest.approx(normal.saturation_iops / 2, rel=1e-9)
    path = build_path(project.scenario, CAT, project.scenario.workloads[0])
    degraded = takeover(path).path
    names = [s.name for s in degraded.stations]
    assert not any(n.startswith("node 2") for n in names) and not any("NVRAM mirror" in n for n in names)
    cpu = {s.name: s for s in path.stations}
    assert {s.name: s for s in degraded.stations}["node 1 CPU"].read_s == pytest.approx(
        cpu["node 1 CPU"].read_s + cpu["node 2 CPU"].read_s)


def test_a_drive_rebuild_raises_latency_at_the_target():
    _, normal, states = _states("aff8080-sqlserver-tpce.toml")
    rebuild = states["drive_rebuild"]
    assert rebuild.performance.latency_at_target_ms > normal.latency_at_target_ms
    assert rebuild.rebuild_hours is not None and rebuild.rebuild_hours > 0
    assert f"{REBUILD_UTILISATION['medium']:.0%} busy" in rebuild.reason


def test_a_drive_rebuild_degrades_one_raid_group_not_every_pool():
    """AFF8080 HA pair, one RAID DP 21+2 group of partitions per node: one failed drive degrades node 1's pool only
    (22 drives left, a read of the failed member becomes 22 reads spread over them: x (1 + 21 / 22)); node 2's pool
    keeps its 23 drives and its demand, and the rebuild's background load sits on node 1's drives only."""
    project = load_any(examples_dir() / "aff8080-sqlserver-tpce.toml")
    path = build_path(project.scenario, CAT, project.scenario.workloads[0])
    state = drive_rebuild(path, path.raid_groups, 1e12, 100.0, "medium")
    assert state is not None
    normal = {s.ident: s for s in path.stations}
    after = {s.ident: s for s in state.path.stations}
    pools = [i for i, s in normal.items() if s.kind == "drive" and s.multiplicity >= 2]
    assert {i.node for i in pools} == {1, 2}
    for ident in pools:
        if ident.node == 2:
            assert after[ident] == normal[ident]
        else:
            m = normal[ident].multiplicity
            assert after[ident].multiplicity == m - 1
            reads = 22  # width 23 - 1: the other members of the failed drive's group
            assert after[ident].read_s == pytest.approx(normal[ident].read_s * (1 + (reads - 1) / (m - 1)))
    (background, rate), = state.background
    assert rate == 1.0 and background.stations
    assert {s.ident.node for s in background.stations} == {1}
    assert all(s.read_s == pytest.approx(0.3 * s.capacity) for s in background.stations)
    assert "node 1's drive pool" in state.reason


def test_a_drive_rebuild_of_a_pool_of_several_groups_degrades_the_failed_drives_group_only():
    """FAS70, 120 x 16 TB NL-SAS in RAID-TEC, 5 spares per node: node 1's pool is 55 drives in one 16+3 and two 15+3
    groups, 46 data drives (the pool station's drives). ONTAP reconstructs from the failed drive's group only, so
    the failed drive is in the 16+3 group (the largest): its 16 data drives are 16 of the 46, 15 survive, and a read
    of the failed drive becomes 18 reads (width - 1); the rebuild keeps those 15 drives 30% busy. The other 30
    drives of node 1 and node 2's 46 run as in normal operation.

    The state's saturation is checked against the degraded group's, computed here from the normal pool station's
    demand per I/O (R for a read, W for a write), the group's drives and the read multiplier: each surviving drive
    may be busy 70% of its time, so X = 0.7 x 15 / (16/46 x (f R (1 + 17/15) + (1 - f) W)), f the read share. The
    normal saturation is the pool's own bound, 46 / (f R + (1 - f) W): the pool is the normal bottleneck too."""
    project = load_any(examples_dir() / "fas70-ds460c-nlsas-nfs.toml")
    path = build_path(project.scenario, CAT, project.scenario.workloads[0])
    own = [g for g in path.raid_groups if g.node == 1]
    assert sorted((g.data, g.parity) for g in own) == [(15, 3), (15, 3), (16, 3)]
    state = drive_rebuild(path, path.raid_groups, 1e12, 100.0, "medium")
    pool = next(s for s in path.stations if s.ident == StationId("drives", node=1))
    assert pool.multiplicity == 46 and pool.servers == 1
    after = {s.ident: s for s in state.path.stations}
    assert StationId("drives", node=1) not in after
    rest, hit = after[StationId("drives", 1, 0)], after[StationId("drives", 1, 1)]
    assert (rest.multiplicity, hit.multiplicity) == (30, 15)
    node2 = StationId("drives", node=2)
    assert after[node2] == next(s for s in path.stations if s.ident == node2)
    (background, rate), = state.background
    assert [s.ident for s in background.stations] == [StationId("drives", 1, 1)]
    assert background.stations[0].read_s == pytest.approx(0.3 * 15)
    assert "16+3 RAID group" in state.reason and "other 18 drives of that group" in state.reason
    f = path.read_fraction
    demand = f * pool.read_s + (1 - f) * (pool.write_s + pool.write_async_s)
    _, normal, states = _states("fas70-ds460c-nlsas-nfs.toml")
    assert normal.saturation_iops == pytest.approx(46 / demand, rel=1e-9)
    group = 16 / 46 * (f * pool.read_s * (1 + 17 / 15) + (1 - f) * (pool.write_s + pool.write_async_s))
    rebuild = states["drive_rebuild"].performance
    assert rebuild.saturation_iops == pytest.approx(0.7 * 15 / group, rel=1e-9)
    assert rebuild.bottleneck == "HDDs (node 1), degraded RAID group"
    # the hot group saturates first: about a third of normal (its drives carry about 2.3x the reads, and the rebuild)
    assert 0.25 < rebuild.saturation_iops / normal.saturation_iops < 0.4


def test_the_rebuild_impact_field_trades_latency_for_rebuild_time():
    """A higher ``rebuild_impact`` keeps the drives busier (higher latency at the target) and rebuilds faster:
    the time is the drive's bytes over (utilisation x write rate), so high over low is 60% / 10% = 6x shorter."""
    project = load_any(examples_dir() / "aff8080-sqlserver-tpce.toml")
    out = {}
    for level in ("low", "medium", "high"):
        nodes = [n.with_changes(rebuild_impact=level) if n.kind == "controller" else n
                 for n in project.scenario.nodes]
        scenario = project.scenario.model_copy(update={"nodes": nodes})
        wid = scenario.workloads[0].id
        out[level] = {s.state: s for s in evaluate_states(scenario, CAT)[wid]}["drive_rebuild"]
    assert out["low"].rebuild_hours == pytest.approx(6 * out["high"].rebuild_hours, rel=1e-9)
    assert out["low"].rebuild_hours == pytest.approx(3 * out["medium"].rebuild_hours, rel=1e-9)
    lat = [out[k].performance.latency_at_target_ms for k in ("low", "medium", "high")]
    assert lat[0] < lat[1] < lat[2]
    assert "(high impact)" in out["high"].reason and "60% busy" in out["high"].reason


def test_path_loss_spreads_a_ports_load_over_one_port_fewer():
    """Target ports are 8 separate queues; losing one leaves 7: their throughput bound falls to 7/8."""
    project = load_any(examples_dir() / "aff8080-sqlserver-tpce.toml")
    path = build_path(project.scenario, CAT, project.scenario.workloads[0])
    lost = path_loss(path).path
    before = {s.name: s for s in path.stations}["target ports"]
    after = {s.name: s for s in lost.stations}["target ports"]
    assert (before.multiplicity, after.multiplicity) == (8, 7)
    rf = path.read_fraction
    assert after.capacity / after.demand(rf) == pytest.approx(before.capacity / before.demand(rf) * 7 / 8)


def test_a_vsan_host_failure_loses_a_quarter_of_a_four_host_cluster():
    """4 hosts x 2 disk groups: the disk groups' software path (the bottleneck) keeps 6 of 8 queues, so its bound
    and the saturation fall to 3/4 (no resync load on it)."""
    project, normal, states = _states("vsan-sqlserver-raid1.toml")
    hf = states["host_failure"].performance
    assert normal.bottleneck == hf.bottleneck == "vSAN disk groups (software path)"
    assert hf.saturation_iops == pytest.approx(normal.saturation_iops * 6 / 8, rel=1e-9)
    path = build_path(project.scenario, CAT, project.scenario.workloads[0])
    assert host_failure(path, 2) is None  # a two-host cluster cannot lose a host and keep FTT=1


def test_cloud_failover_keeps_a_one_node_workloads_saturation():
    _, normal, states = _states("cvo-azure-ds4-ha-oltp.toml")
    f = states["cloud_failover"]
    assert f.performance.saturation_iops >= normal.saturation_iops * (1 - 1e-9)
    assert "mirroring stops" in f.reason
    assert "takeover" not in states and "drive_rebuild" not in states  # cloud disks: no drive rebuild


def test_runway_months_follow_the_effective_annual_growth():
    # 100K IOPS growing 20% a year is 120K after 12 months and reaches 150K after 12 x ln(1.5) / ln(1.2) months
    assert months_to_reach(100_000, 120_000, 20.0) == pytest.approx(12.0, rel=1e-12)
    assert months_to_reach(100_000, 150_000, 20.0) == pytest.approx(12 * math.log(1.5) / math.log(1.2))
    assert months_to_reach(100_000, 150_000, 0.0) is None
    assert months_to_reach(150_000, 100_000, 20.0) == 0.0
    assert months_to_reach(100_000, 100_000 * 100, 5.0) is None  # beyond ten years
    assert RUNWAY_HORIZON_MONTHS == 120


def test_runway_of_an_example_with_iops_growth():
    """AFF8080 at 350K IOPS growing 10% a year: the SLO breaks when 350K x 1.10^(m / 12) reaches the max IOPS
    at the SLO, and it saturates when it reaches saturation."""
    project = load_any(examples_dir() / "aff8080-sqlserver-tpce.toml")
    sc = project.scenario
    w = sc.workloads[0].with_changes(iops_growth_pct_per_year=10.0)
    project = project.with_scenario(sc.model_copy(update={"workloads": [w]}))
    evaluation = evaluate(project, project.active_scenario)
    wp = evaluation.performance.workloads[0]
    res = evaluate_resilience(project, evaluation, project.active_scenario)
    rate = math.log(1.10) / 12
    assert res.months_until_slo_breach == pytest.approx(math.log(wp.max_iops_at_slo / 350_000) / rate)
    assert res.months_until_saturation == pytest.approx(math.log(wp.saturation_iops / 350_000) / rate)
    assert res.months_until_full == pytest.approx(evaluation.capacity.total.months_until_full)


def test_evaluate_json_has_states_and_runway():
    out = subprocess.run([sys.executable, "-m", "app", "evaluate", str(examples_dir() / "aff8080-sqlserver-tpce.toml"),
                          "--json"], capture_output=True, text=True)
    data = json.loads(out.stdout)
    states = {s["state"]: s for s in data["workloads"][0]["states"]}
    assert set(states) == {"takeover", "path_loss", "drive_rebuild"}
    for s in states.values():
        for key in ("curve", "saturation_iops", "max_iops_at_slo", "latency_at_target_ms", "meets_slo",
                    "saturation_iops_band_p10", "saturation_iops_band_p90", "max_iops_at_slo_band_p10",
                    "max_iops_at_slo_band_p90"):
            assert key in s, key
    assert states["takeover"]["meets_slo"] is False
    assert set(data["runway"]) == {"months_until_full", "months_until_slo_breach", "months_until_saturation",
                                   "months_until_slo_breach_in_takeover", "slo_in_takeover_state", "dr_copies",
                                   "first_to_fill"}  # review cons57: the report's runway lines, each a key
    assert data["runway"]["months_until_slo_breach_in_takeover"] is None  # no growth: no takeover line either
    assert data["runway"]["dr_copies"] == []
    assert data["runway"]["months_until_slo_breach"] is None  # the example's IOPS do not grow
    (check,) = data["requirement_checks"]  # the example requires the SLO in takeover, which it misses
    assert check["requirement"] == "slo_in_takeover" and check["met"] is False and "saturated" in check["text"]


def test_capacity_in_a_failure():
    """A drive rebuild consumes a spare (usable unchanged); a vSAN host failure leaves (h - 1) / h of the usable
    capacity, and the data must fit in it (the host rebuild reserve)."""
    project = load_any(examples_dir() / "aff8080-sqlserver-tpce.toml")
    evaluation = evaluate(project)
    res = evaluate_resilience(project, evaluation)
    rebuild = [c for c in res.capacity_states if c.state == "drive_rebuild"][0]
    assert rebuild.usable_bytes == evaluation.capacity.systems[0].usable_bytes
    assert "0 spares per node left" in rebuild.text
    project = load_any(examples_dir() / "vsan-sqlserver-raid1.toml")
    evaluation = evaluate(project)
    res = evaluate_resilience(project, evaluation)
    host = [c for c in res.capacity_states if c.state == "host_failure"][0]
    system = evaluation.capacity.systems[0]
    hosts = next(n for n in project.scenario.nodes if n.kind == "hci_cluster").hosts
    assert host.usable_bytes == pytest.approx(system.usable_bytes * (hosts - 1) / hosts)
    assert host.fits == (system.physical_used_bytes <= host.usable_bytes)


def test_the_resilience_requirements_are_verdicts_of_the_evaluated_design():
    """meet_slo_in_takeover: met when the takeover state meets the SLO (checked here against the state's own
    latency), missed when it does not, and missed for a system without an HA partner; N+1 on vSAN: the capacity
    and the SLO with one host down, computed here with the engines on the reduced cluster."""
    from models.capacity import evaluate_capacity
    from models.evaluate import evaluate_resilience

    for example, met in (("a800-oracle-slob-fcp.toml", True), ("aff8080-sqlserver-tpce.toml", False)):
        project = load_any(examples_dir() / example)
        ev = evaluate(project)
        res = evaluate_resilience(project, ev)
        (check,) = res.requirement_checks
        takeover = next(s for s in res.states[ev.performance.workloads[0].workload_id] if s.state == "takeover")
        lat = takeover.performance.latency_at_target_ms
        assert check.requirement == "slo_in_takeover" and check.met is met
        assert met == (lat is not None and lat <= takeover.performance.slo_ms)
    single = load_any(examples_dir() / "cvo-azure-ds4-single-oltp.toml")
    single = single.model_copy(update={"requirements": single.requirements.with_changes(meet_slo_in_takeover=True)})
    (check,) = evaluate_resilience(single, evaluate(single)).requirement_checks
    assert not check.met and "no HA partner" in check.text

    vsan = load_any(examples_dir() / "vsan-sqlserver-raid1.toml")
    assert vsan.requirements.n_plus == 1
    res = evaluate_resilience(vsan, evaluate(vsan))
    checks = res.requirement_checks
    cluster = next(n for n in vsan.scenario.nodes if n.kind == "hci_cluster")
    down = vsan.scenario.model_copy(update={"nodes": [cluster.model_copy(update={"hosts": cluster.hosts - 1})]})
    (system,) = evaluate_capacity(down, CAT).systems
    (workload,) = vsan.scenario.workloads
    failed = next(s for s in res.states[workload.id] if s.state == "host_failure")
    wp = failed.performance
    assert [c.met for c in checks] == [system.physical_used_bytes <= system.usable_bytes
                                       and system.months_until_full > vsan.requirements.horizon_months,
                                       wp.max_iops_at_slo >= wp.target_iops]
    # one number for one host down: the N+1 check quotes the Resilience table's host failure state
    assert all(c.requirement == "n_plus" for c in checks) and f"max {wp.max_iops_at_slo:,.0f} IOPS" in checks[1].text


def test_n_plus_judges_the_capacity_with_a_host_down_over_the_horizon():
    """The hybrid vSAN example (4 hosts, N+1, 36-month horizon, data growing 20 % a year): with one host down the
    3-host cluster holds today's data but fills within the horizon, so N+1 is missed, in the month computed here
    from the reduced cluster's usable capacity and the data's growth ((1 + g)^(months / 12)); the
    SLO with a host down quotes the host failure state's max IOPS, the figure the Resilience table shows."""
    from models.capacity import evaluate_capacity
    from models.evaluate import evaluate_resilience
    from models.verdict import design_verdict

    project = load_any(examples_dir() / "vsan8-osa-hybrid-4host-oltp.toml")
    ev = evaluate(project)
    res = evaluate_resilience(project, ev)
    capacity, performance = res.requirement_checks
    cluster = next(n for n in project.scenario.nodes if n.kind == "hci_cluster")
    (workload,) = project.scenario.workloads
    usable = evaluate_capacity(project.scenario.model_copy(update={"nodes": [cluster.model_copy(
        update={"hosts": 3})]}), CAT).systems[0].usable_bytes
    assert usable == pytest.approx(ev.capacity.systems[0].usable_bytes * 3 / 4, rel=1e-12)  # as "Capacity in a failure"
    used = workload.dataset_bytes  # usable is after the FTT=1 mirror; no data reduction, no Snapshot copies
    assert ev.capacity.systems[0].physical_used_bytes == pytest.approx(used, rel=1e-12)
    months = 12 * math.log(usable / used) / math.log1p(workload.growth_pct_per_year / 100)
    assert 0 < months < project.requirements.horizon_months  # 29.9: within the 36 months
    assert not capacity.met and capacity.state == "N+1"
    assert f"fills the usable capacity in {months:,.0f} months" in capacity.text
    assert "within the 36-month horizon" in capacity.text
    verdict = design_verdict(ev.capacity, ev.performance, res, project.requirements)
    assert not verdict.met and "capacity at N+1" in verdict.text
    failed = next(s for s in res.states[workload.id] if s.state == "host_failure")
    assert performance.met and f"max {failed.performance.max_iops_at_slo:,.0f} IOPS within it)" in performance.text


def test_takeover_in_a_cluster_of_several_ha_pairs_fails_one_node_only():
    """An 8-node AFF A90 cluster (4 HA pairs as one controller of 8 nodes): in takeover node 1 carries node 2's
    demand on every per-node station, nodes 3..8 keep theirs unchanged (each station's demand summed over the
    nodes is conserved), nodes 3..8 keep mirroring (the HA mirror delay stays for 6 / 8 of the writes), 7 of 8
    nodes' target ports remain, and the light-load latency does not fall below the normal state's by more than
    node 1's mirroring (a failure never makes the array faster than the mirror it stops)."""
    from models.performance.engine import open_latency_ms
    from models.performance.public_ramps import a90_eda

    scenario = a90_eda(40.0, 1_000_000)
    path = build_path(scenario, bundled_catalog(), scenario.workloads[0])
    degraded = takeover(path)
    assert degraded is not None
    rf = path.read_fraction
    before = {s.name: s for s in path.stations}
    after = {s.name: s for s in degraded.path.stations}
    for kind in ("CPU", "WAFL affinities"):
        assert after[f"node 1 {kind}"].demand(rf) == pytest.approx(2 * before[f"node 1 {kind}"].demand(rf))
        assert f"node 2 {kind}" not in after
        for k in range(3, 9):
            assert after[f"node {k} {kind}"] == before[f"node {k} {kind}"]
        total = sum(s.demand(rf) for n, s in before.items() if n.endswith(kind))
        assert sum(s.demand(rf) for n, s in after.items() if n.endswith(kind)) == pytest.approx(total)
    assert "node 1 NVRAM mirror" not in after and "node 2 NVRAM mirror" not in after
    assert all(f"node {k} NVRAM mirror" in after for k in range(3, 9))
    assert after["HA mirror latency"].write_s == pytest.approx(before["HA mirror latency"].write_s * 6 / 8)
    assert after["target ports"].multiplicity == round(before["target ports"].multiplicity * 7 / 8)
    light = 10_000.0
    mirror_ms = (before["HA mirror latency"].demand(rf) * 1e3 * 2 / 8
                 + 2 * before["node 1 NVRAM mirror"].demand(rf) * 1e3)
    assert open_latency_ms(degraded.path, light) >= open_latency_ms(path, light) - mirror_ms - 1e-6


def test_n_plus_two_solves_the_cluster_with_two_hosts_taken_out_and_says_so():
    """N+2 has no failure state of its own (the host failure state is one host down): its SLO is checked on the
    cluster with two hosts taken out, the figure computed here with the performance engine, and the sentence says
    which model answered; the capacity of that cluster is judged over the horizon as N+1's."""
    from models.capacity import evaluate_capacity
    from models.performance import evaluate_performance

    project = load_any(examples_dir() / "vsan-sqlserver-raid1.toml")
    project = project.model_copy(update={"requirements": project.requirements.with_changes(n_plus=2)})
    capacity, performance = evaluate_resilience(project, evaluate(project)).requirement_checks
    cluster = next(n for n in project.scenario.nodes if n.kind == "hci_cluster")
    down = project.scenario.model_copy(update={"nodes": [cluster.model_copy(update={"hosts": cluster.hosts - 2})]})
    wp = evaluate_performance(down, CAT, bands=False).workloads[0]
    assert performance.state == capacity.state == "N+2"
    assert f"max {wp.max_iops_at_slo:,.0f} IOPS within it, solved as the cluster with 2 hosts taken out" in \
        performance.text
    assert performance.met is (wp.max_iops_at_slo >= wp.target_iops)
    (system,) = evaluate_capacity(down, CAT).systems
    assert capacity.met is (system.physical_used_bytes <= system.usable_bytes
                            and not 0 < system.months_until_full < project.requirements.horizon_months)
