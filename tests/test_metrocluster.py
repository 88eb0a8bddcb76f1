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
