"""MetroCluster: SyncMirror keeps two plexes of every aggregate (usable is one plex of one pool), writes wait for the
partner site (2 x distance x 5 us/km + overhead), and a switchover state drops that wait."""

from __future__ import annotations

import pytest

from models.catalog import bundled_catalog
from models.evaluate import evaluate
from models.performance import build_path
from models.performance.paths import METROCLUSTER_OVERHEAD_US, metrocluster_rtt_s
from models.performance.resilience import evaluate_states
from models.resources import examples_dir
from models.store import load_any

CAT = bundled_catalog()


def _metrocluster(km: float):
    project = load_any(examples_dir() / "aff8080-sqlserver-tpce.toml")
    sc = project.scenario
    nodes = [n.model_copy(update={"metrocluster": "ip", "site_distance_km": km}) if n.kind == "controller" else n
             for n in sc.nodes]
    return project, project.with_scenario(sc.model_copy(update={"nodes": nodes}))


def test_syncmirror_usable_is_one_plex_built_from_one_pool():
    """SyncMirror (ONTAP MetroCluster documentation): every aggregate has a plex in pool 0 and a mirror plex in
    pool 1, each with its own RAID groups, spares and root partitions. So the 48 drives of the mirrored pair give
    what 24 drives give unmirrored (the pool 1 half is the mirror), which is less than half of the 48 unmirrored
    (a second set of parity and spares)."""
    plain, mc = _metrocluster(50.0)
    sc = plain.scenario
    half = plain.with_scenario(sc.model_copy(update={"nodes": [
        n.model_copy(update={"drive_count": n.drive_count // 2}) if n.kind == "shelf" else n for n in sc.nodes]}))
    assert sum(n.drive_count for n in sc.nodes if n.kind == "shelf") == 48
    result = evaluate(mc).capacity.systems[0]
    assert result.usable_bytes == pytest.approx(evaluate(half).capacity.total.usable_bytes)
    assert result.usable_bytes < evaluate(plain).capacity.total.usable_bytes / 2
    step = result.step("SyncMirror mirror plex (MetroCluster)")
    assert step is not None and "MetroCluster" in step.source
    assert step.bytes_before - step.bytes_after == pytest.approx(result.right_sized_bytes / 2)


def test_writes_wait_for_the_partner_site_and_switchover_drops_it():
    _, mc = _metrocluster(100.0)
    assert metrocluster_rtt_s(100.0) == pytest.approx((2 * 100 * 5.0 + METROCLUSTER_OVERHEAD_US) * 1e-6)
    path = build_path(mc.scenario, CAT, mc.scenario.workloads[0])
    delay = {s.name: s for s in path.stations}["MetroCluster inter-site mirror"]
    assert delay.write_s == pytest.approx(metrocluster_rtt_s(100.0)) and delay.read_s == 0
    near = evaluate(_metrocluster(1.0)[1]).performance.workloads[0]
    far = evaluate(mc).performance.workloads[0]
    assert far.latency_at_target_ms > near.latency_at_target_ms  # 10% writes pay the longer round trip
    states = {s.state: s for s in evaluate_states(mc.scenario, CAT)[far.workload_id]}
    assert "switchover" in states
    assert states["switchover"].performance.latency_at_target_ms < far.latency_at_target_ms


def _mirrored_example_file(tmp_path, reserve_line: str = ""):
    """The bundled AFF8080 example as a MetroCluster IP pair: its ``snapshot_reserve_pct = 0.0`` line replaced by
    ``reserve_line`` (empty: left at the rule's default)."""
    text = (examples_dir() / "aff8080-sqlserver-tpce.toml").read_text(encoding="utf-8")
    assert text.count("snapshot_reserve_pct = 0.0\n") == 1
    text = text.replace("snapshot_reserve_pct = 0.0\n", f'metrocluster = "ip"\nsite_distance_km = 10.0\n{reserve_line}')
    path = tmp_path / "mcc-ip.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_mirrored_aggregates_keep_a_5_percent_snapshot_reserve_by_default(tmp_path):
    """MIRRORED_SNAPSHOT_RESERVE_SOURCE (NetApp, 'Managing aggregate Snapshot copies'): with SyncMirror or
    MetroCluster keep the aggregate Snapshot reserve at 5 percent or higher. Left at default, a MetroCluster
    aggregate reserves 5% of what the WAFL reserve leaves, on each node; an explicit 0 is the user's and is kept;
    an unmirrored aggregate reserves nothing by default."""
    from models.capacity.rules import MIRRORED_SNAPSHOT_RESERVE_SOURCE

    default = evaluate(load_any(_mirrored_example_file(tmp_path))).capacity.systems[0]
    zero = evaluate(load_any(_mirrored_example_file(tmp_path, "snapshot_reserve_pct = 0.0\n"))).capacity.systems[0]
    step = default.step("Aggregate Snapshot reserve")
    wafl = default.step("WAFL reserve")
    assert step is not None and MIRRORED_SNAPSHOT_RESERVE_SOURCE in step.source
    assert step.bytes_before == pytest.approx(wafl.bytes_after)
    assert step.bytes_before - step.bytes_after == pytest.approx(0.05 * wafl.bytes_after)
    assert default.usable_bytes == pytest.approx(0.95 * zero.usable_bytes)
    assert zero.step("Aggregate Snapshot reserve") is None
    _, mc = _metrocluster(10.0)
    single = mc.with_scenario(mc.scenario.model_copy(update={"nodes": [
        n.model_copy(update={"metrocluster": "none", "snapshot_reserve_pct": None}) if n.kind == "controller" else n
        for n in mc.scenario.nodes]}))
    assert evaluate(single).capacity.systems[0].step("Aggregate Snapshot reserve") is None


def test_storplan_evaluate_shows_the_mirrored_snapshot_reserve_with_its_source(tmp_path, capsys):
    from app.cli import main

    path = _mirrored_example_file(tmp_path)
    main(["evaluate", str(path)])
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.strip().startswith("Aggregate Snapshot reserve"))
    assert "SyncMirror or MetroCluster" in line and "5 percent" in line and "library.netapp.com" in line


def test_the_bundled_metrocluster_ip_example_keeps_the_5_percent_reserve_by_default(capsys):
    """The bundled AFF A70 MetroCluster IP example leaves the aggregate Snapshot reserve at its default:
    `storplan evaluate` shows the 5% step with its public source, 5% of what the WAFL reserve leaves."""
    from app.cli import main
    from models.capacity.rules import MIRRORED_SNAPSHOT_RESERVE_SOURCE

    project = load_any(examples_dir() / "aff-a70-metrocluster-ip-oracle-nvmetcp.toml")
    controller = next(n for n in project.scenario.nodes if n.kind == "controller")
    assert controller.metrocluster == "ip" and controller.snapshot_reserve_pct is None
    system = evaluate(project).capacity.systems[0]
    step, wafl = system.step("Aggregate Snapshot reserve"), system.step("WAFL reserve")
    assert step.source.endswith(MIRRORED_SNAPSHOT_RESERVE_SOURCE)
    assert step.bytes_before - step.bytes_after == pytest.approx(0.05 * wafl.bytes_after)
    main(["evaluate", "aff-a70-metrocluster-ip-oracle-nvmetcp"])
    out = capsys.readouterr().out
    assert any(line.strip().startswith("Aggregate Snapshot reserve") and "5 percent" in line
               for line in out.splitlines())
