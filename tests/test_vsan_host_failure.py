"""A vSAN cluster's host-failure state is the cluster with one host fewer: the failed host's disk groups take their
cache SSDs (a hybrid OSA cluster's read cache and write buffer) down with its capacity drives, CPU and network, so
the state and the sizer's N+1 check (the cluster solved with one host taken out) see the same hardware.

The reference figures are computed here independently: the example's cluster rebuilt with one host fewer, its path
built and solved by the normal-operation engine, with the state's assumed resync load (a share of each surviving
capacity drive's and network uplink's time) added as a background workload built in this file."""

from __future__ import annotations

from dataclasses import replace

import pytest

from models.catalog import bundled_catalog
from models.design import resolve
from models.evaluate import with_layouts
from models.performance import evaluate_performance
from models.performance import states as states_module
from models.performance.engine import evaluate_paths, solve_workload
from models.performance.resilience import evaluate_states
from models.project import load
from models.resources import examples_dir

CAT = bundled_catalog()
HYBRID = "vsan8-osa-hybrid-4host-oltp"


def _design(name: str):
    return with_layouts(resolve(load(examples_dir() / f"{name}.toml"), None, CAT))


def _one_host_fewer(scenario):
    nodes = [n.model_copy(update={"hosts": n.hosts - 1}) if n.kind == "hci_cluster" else n for n in scenario.nodes]
    return scenario.model_copy(update={"nodes": nodes})


def _host_failure(design, wid: str):
    found = evaluate_states(design.scenario, design.catalog, design.settings, raid=design.raid)[wid]
    return next(s for s in found if s.state == "host_failure")


def test_hybrid_host_failure_loses_the_failed_hosts_read_cache() -> None:
    """4 hosts x 2 disk groups of one 960 GB cache SSD (70% read cache) hold 5.4 TB of the 8 TB working set (67%
    hits); with a host down, 6 groups hold 4.0 TB (50%): the state's cache-SSD and HDD stations carry the 3-host
    read split, not the 4-host one."""
    design = _design(HYBRID)
    state = _host_failure(design, "oltp")
    hits_4 = 0.7 * 960e9 * 8 / 8e12
    hits_3 = 0.7 * 960e9 * 6 / 8e12
    assert hits_4 == pytest.approx(0.672) and hits_3 == pytest.approx(0.504)
    (normal_path,) = evaluate_paths(design.scenario, design.catalog, design.raid)[0]
    (smaller,) = evaluate_paths(_one_host_fewer(design.scenario), design.catalog)[0]
    failed = states_module.host_failure(normal_path, 4, smaller)
    assert failed is not None
    normal = {s.ident.role: s for s in normal_path.stations}
    degraded = {s.ident.role: s for s in failed.path.stations}
    # the cache SSDs' read demand is the hit share times one cache read; the HDDs' the miss share times one HDD read
    ratio_cache = degraded["cache_drives"].read_s / normal["cache_drives"].read_s
    ratio_hdd = degraded["drives"].read_s / normal["drives"].read_s
    assert ratio_cache == pytest.approx(hits_3 / hits_4, rel=1e-9)
    assert degraded["cache_drives"].multiplicity == 6 and degraded["drives"].multiplicity == 30
    assert ratio_hdd > (1 - hits_3) / (1 - hits_4) * 0.999  # more misses (and the data on fewer HDDs)
    notes = [n for n in state.performance.notes if "read cache hit" in n]
    assert len(notes) == 1 and "hit 50%" in notes[0] and "6 x 960 GB" in notes[0]


@pytest.mark.parametrize("name, wid", [(HYBRID, "oltp"), ("vsan-sqlserver-raid1", "sql"),
                                       ("vsan-sqlserver-raid5", "sql"), ("vsan8-esa-6host-sqlserver-oltp", "sql")])
def test_host_failure_is_the_cluster_with_one_host_fewer(name: str, wid: str) -> None:
    """The state's max IOPS at the SLO equals the normal path with one host's share of each host station's
    devices gone and, on an OSA cluster, the disk groups' stations of the (hosts - 1) cluster, solved with the
    resync background (built here: each surviving capacity drive and network uplink busy RESYNC_UTILISATION of its
    time)."""
    design = _design(name)
    state = _host_failure(design, wid)
    hosts = next(n.hosts for n in design.scenario.nodes if n.kind == "hci_cluster")
    normal = next(p for p in evaluate_paths(design.scenario, design.catalog, design.raid)[0] if p.workload.id == wid)
    smaller = _one_host_fewer(design.scenario)
    path = next(p for p in evaluate_paths(smaller, design.catalog)[0] if p.workload.id == wid)
    # on an OSA cluster (a cache tier) the disk groups' stations are the smaller cluster's; every other station
    # keeps the normal path's demand per I/O over one host's share fewer devices (per-host stations: hosts - 1)
    osa = any(s.ident.role == "cache_drives" for s in normal.stations)
    fewer = {s.name: s for s in path.stations}
    path = replace(path, stations=tuple(
        s if s.delay else fewer[s.name] if osa and s.ident.role in ("drives", "cache_drives")
        else replace(s, multiplicity=round(s.multiplicity * (hosts - 1) / hosts)) for s in normal.stations))
    busy = states_module.RESYNC_UTILISATION
    load = tuple(replace(s, read_s=busy * s.capacity, write_s=0.0, write_async_s=0.0)
                 for s in path.stations if s.ident.role in ("drives", "network"))
    resync = replace(path, stations=load, workload=path.workload.with_changes(id="resync", read_pct=100.0))
    expected, _ = solve_workload(path, [(resync, 1.0)], design.settings.curve_points)
    assert expected.max_iops_at_slo is not None
    assert state.performance.max_iops_at_slo == pytest.approx(expected.max_iops_at_slo, rel=1e-6)


def test_host_failure_without_resync_is_the_sizers_n_plus_1_figure(monkeypatch: pytest.MonkeyPatch) -> None:
    """Less the assumed resync load, the hybrid example's host-failure figure is the N+1 figure the sizer checks:
    the 3-host cluster's max IOPS at the SLO in normal operation (to 0.1%)."""
    monkeypatch.setattr(states_module, "RESYNC_UTILISATION", 0.0)
    design = _design(HYBRID)
    state = _host_failure(design, "oltp")
    smaller = evaluate_performance(_one_host_fewer(design.scenario), design.catalog, design.settings)
    expected = smaller.workloads[0].max_iops_at_slo
    normal = evaluate_performance(design.scenario, design.catalog, design.settings, design.raid)
    assert expected is not None and state.performance.max_iops_at_slo == pytest.approx(expected, rel=1e-3)
    assert expected < 0.6 * (normal.workloads[0].max_iops_at_slo or 0.0)  # the read cache went with the host


def _capacity_state(project):
    from models.evaluate import evaluate, evaluate_resilience

    ev = evaluate(project)
    (state,) = [c for c in evaluate_resilience(project, ev).capacity_states if c.state == "host_failure"]
    return ev.capacity.systems[0].usable_bytes, state


def _example_with(name: str, **node_changes):
    from models.store import load_any

    project = load_any(examples_dir() / f"{name}.toml")
    if not node_changes:
        return project
    scenario = project.scenarios[0]
    nodes = [n.model_copy(update=node_changes) if n.kind == "hci_cluster" else n for n in scenario.nodes]
    return project.model_copy(update={"scenarios": [scenario.model_copy(update={"nodes": nodes})]})


def test_host_failure_capacity_spends_the_host_rebuild_reserve_as_the_stretched_rule_does() -> None:
    """Review 56 (vsanb56): one rule for every vSAN cluster, as for a stretched one's site: the host rebuild reserve is
    "reserved space for vSAN to be able to repair in case of a single host failure" (VMware vSAN monitoring guide,
    "Reserved Capacity"), so the rebuild spends it. By hand on the 6-host ESA example, with h one host's right-sized
    devices (6 x 3.2 TB NVMe), the operations reserve 10% and RAID-5 4+1 (1.25) with ESA's 13.1% overhead: normal usable
    is (6h x 0.9 - h) / 1.25 / 1.131, with a host down 5h x 0.9 / 1.25 / 1.131 = 4.5 / 4.4 = 102% of normal (not the 5/6
    = 83% shown before); with the reserve turned off, the data must fit on 5 hosts: 5/6 of 6h x 0.9."""
    from models.catalog import Drive, HciNode

    host = CAT.get("vsan-esa-readynode-32c-512g-25g", HciNode)
    h = 6 * CAT.get(host.capacity_drive, Drive).right_sized_bytes
    factor = 1.25 * 1.131
    normal, state = _capacity_state(_example_with("vsan8-esa-6host-sqlserver-oltp"))
    assert normal == pytest.approx((6 * h * 0.9 - h) / factor, rel=1e-9)
    assert state.usable_bytes == pytest.approx(5 * h * 0.9 / factor, rel=1e-9)
    assert state.usable_bytes / normal == pytest.approx(4.5 / 4.4, rel=1e-9)
    assert state.fits and "83%" not in state.text and "102% of the normal usable capacity" in state.text
    assert "one of 6 hosts is down" in state.text and "into the host rebuild reserve" in state.text
    assert "no reserve left for a second host failure" in state.text
    assert '"reserved space for vSAN to be able to repair in case of a single host failure"' in state.text
    normal, state = _capacity_state(_example_with("vsan8-esa-6host-sqlserver-oltp", host_rebuild_reserve=False))
    assert normal == pytest.approx(6 * h * 0.9 / factor, rel=1e-9)
    assert state.usable_bytes == pytest.approx(5 * h * 0.9 / factor, rel=1e-9)
    assert "no host rebuild reserve" in state.text and "falls to 83% of normal" in state.text


@pytest.mark.parametrize("name, words", [
    (HYBRID, "(vSAN can rebuild its components on the other hosts)"),
    # OSA RAID-5 3+1 needs 4 hosts: with 3 left nothing is rebuilt
    ("vsan-sqlserver-raid5", "vSAN cannot rebuild the failed host's components on 3 hosts (vSAN FTT=1 RAID5 (3+1) "
                             "erasure coding needs 4)"),
])
def test_host_failure_capacity_with_slack_space_is_the_data_on_one_host_fewer(name: str, words: str) -> None:
    """Slack space (OSA, vSAN before 7.0 U1) is a share of every host, not a host's capacity set aside: the data
    must fit on the other 3 of 4 hosts, 3/4 of normal usable (each host's share of it alike)."""
    normal, state = _capacity_state(_example_with(name))
    assert state.usable_bytes == pytest.approx(normal * 3 / 4, rel=1e-12)
    assert "slack space (a share of every host)" in state.text and "falls to 75% of normal" in state.text
    assert words in state.text


def test_the_n_plus_1_capacity_says_why_it_is_below_the_host_failure_capacity() -> None:
    """The 6-host ESA example's N+1 requirement counts the 5 hosts left as a cluster of their own (its own host
    rebuild reserve, RAID-5 2+1 on 5 hosts): by hand (5h x 0.9 - h) / 1.5 / 1.131, below the host failure's
    5h x 0.9 / 1.25 / 1.131 on the same page; the requirement's words say so. A slack-space cluster's two figures
    are the same (3/4 of normal on the hybrid example), and its words add nothing."""
    from models.catalog import Drive, HciNode
    from models.evaluate import evaluate

    host = CAT.get("vsan-esa-readynode-32c-512g-25g", HciNode)
    h = 6 * CAT.get(host.capacity_drive, Drive).right_sized_bytes
    project = _example_with("vsan8-esa-6host-sqlserver-oltp")
    (check,) = [c for c in evaluate(project, resilience=True).resilience.requirement_checks
                if c.requirement == "n_plus" and not c.subject]
    n_plus = (5 * h * 0.9 - h) / 1.5 / 1.131
    assert f"of {n_plus / 2**40:.2f} TiB usable today" in check.text
    _, state = _capacity_state(project)
    assert state.usable_bytes > 1.5 * n_plus
    assert ("the 5 hosts left are counted as a cluster of their own, which keeps a host rebuild reserve of its own "
            "for a further failure and lays its data out as vSAN ESA FTT=1 RAID-5 (2+1)") in check.text
    hybrid = _example_with(HYBRID)
    (check,) = [c for c in evaluate(hybrid, resilience=True).resilience.requirement_checks
                if c.requirement == "n_plus" and not c.subject]
    normal, state = _capacity_state(hybrid)
    assert f"of {state.usable_bytes / 2**40:.2f} TiB usable" in check.text and "of their own" not in check.text
