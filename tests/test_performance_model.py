"""Performance engine: station construction, directions a storage engineer expects, and bad input."""

from __future__ import annotations

import math
from dataclasses import fields, is_dataclass

import pytest

from models.catalog import bundled_catalog
from models.performance import (
    ScenarioPerformance,
    build_path,
    curve_rows,
    evaluate_performance,
    iops_at_latency,
    protocol_of,
    seeds,
)
from models.project.model import Settings

CAT = bundled_catalog()


def one(scenario, points=50):
    result = evaluate_performance(scenario, CAT, Settings(curve_points=points))
    assert not result.problems, result.problems
    return result.workloads[0]


def all_finite(obj) -> bool:
    """No float anywhere in a result is NaN or inf."""
    if isinstance(obj, float):
        return math.isfinite(obj)
    if isinstance(obj, (list, tuple)):
        return all(all_finite(v) for v in obj)
    if is_dataclass(obj):
        return all(all_finite(getattr(obj, f.name)) for f in fields(obj))
    return True


def test_stations_of_an_ontap_path():
    sc = seeds.aff8080("9.0", concurrency=16)
    path = build_path(sc, CAT, sc.workloads[0])
    names = [s.name for s in path.stations]
    for expected in ("host I/O stack", "fabric", "host ports", "target ports", "node 1 CPU", "node 2 CPU",
                     "node 1 NVRAM mirror", "SSDs (node 1)", "SSDs (node 2) transfer"):
        assert expected in names
    ports = {s.name: s for s in path.stations}
    # each port its own queue (multipathing spreads the load, it does not pool it)
    assert (ports["host ports"].multiplicity, ports["host ports"].servers) == (32, 1)  # 8 hosts x 4 ports
    assert (ports["target ports"].multiplicity, ports["target ports"].servers) == (8, 1)
    drives = ports["SSDs (node 1)"]
    assert drives.multiplicity > 1 and drives.servers == CAT.find("netapp-x447a-800gb-ssd").parallelism
    assert ports["host ports"].scv_service == 0.0 and ports["node 1 CPU"].scv_service == 1.0
    assert not ports["host I/O stack"].storage_side and ports["node 1 CPU"].storage_side
    assert ports["node 1 NVRAM mirror"].read_s == 0 and ports["node 1 NVRAM mirror"].write_s > 0
    assert path.protocol == "FCP"


def test_protocol_from_links():
    assert protocol_of(seeds.a800(protocol="NVMe/FC"), CAT, seeds.a800().workloads[0]) == "NVMe/FC"
    assert protocol_of(seeds.a800(protocol="FCP"), CAT, seeds.a800().workloads[0]) == "FCP"
    assert protocol_of(seeds.vsan(), CAT, seeds.vsan().workloads[0]) == "vSAN"


def test_curve_shape_and_rows():
    wp = one(seeds.aff8080("9.0", concurrency=300), points=40)
    assert 2 <= len(wp.curve) <= 41
    assert wp.curve[-1].population == 300
    xs = [p.iops for p in wp.curve]
    ys = [p.latency_ms for p in wp.curve]
    assert xs == sorted(xs) and ys == sorted(ys)
    assert all(p.host_latency_ms >= p.latency_ms for p in wp.curve)
    rows = curve_rows(wp)
    assert set(rows[0]) >= {"iops", "latency_ms", "mbps"}
    assert rows[-1]["mbps"] == pytest.approx(wp.curve[-1].iops * 8192 / 1e6)
    assert wp.saturation_iops >= wp.curve[-1].iops
    assert wp.bottleneck and wp.bottleneck_component
    assert all_finite(wp)


def test_more_reads_more_iops_on_ssd():
    # capacity: reads cost less CPU than writes (NVLOG, mirroring); at light load writes acknowledged from NVRAM
    # are faster than reads from SSD, so the comparison is made where the CPU binds (the end of a long ramp)
    lo = one(seeds.aff8080("9.0", concurrency=1024, read_pct=50))
    hi = one(seeds.aff8080("9.0", concurrency=1024, read_pct=90))
    assert hi.saturation_iops > lo.saturation_iops
    assert hi.peak_iops > lo.peak_iops


def test_larger_blocks_fewer_iops_more_mbps():
    small = one(seeds.a800(users=64, block_kib=8))
    large = one(seeds.a800(users=64, block_kib=64))
    assert large.saturation_iops < small.saturation_iops
    assert large.saturation_mbps > small.saturation_mbps


def test_nvmefc_beats_fcp():
    f = one(seeds.a800("9.5", "FCP"))
    n = one(seeds.a800("9.5", "NVMe/FC"))
    assert n.peak_iops > f.peak_iops
    assert n.saturation_iops > f.saturation_iops
    assert n.host_cpu_pct_per_100k_iops < f.host_cpu_pct_per_100k_iops


def test_more_hdds_more_iops():
    few = one(seeds.spinning(None, drives=48, random_pct=100, block_kib=8, read_pct=100))
    many = one(seeds.spinning(None, drives=192, random_pct=100, block_kib=8, read_pct=100))
    assert many.saturation_iops > 2 * few.saturation_iops


def test_raid5_random_writes_cost_more_on_hdd():
    reads = one(seeds.spinning(None, random_pct=100, block_kib=8, read_pct=100))
    writes = one(seeds.spinning(None, random_pct=100, block_kib=8, read_pct=0))
    assert writes.saturation_iops < reads.saturation_iops / 2  # 4 drive I/Os per small RAID5 write


def test_bigger_working_set_higher_latency():
    small = one(seeds.aff8080("9.0", concurrency=8, dataset_bytes=50 * 2**30))
    big = one(seeds.aff8080("9.0", concurrency=8, dataset_bytes=50 * 10**12))
    assert big.curve[0].latency_ms > small.curve[0].latency_ms


def test_vsan_raid5_write_latency_above_raid1():
    r1 = one(seeds.vsan("ftt1-raid1"))
    r5 = one(seeds.vsan("ftt1-raid5"))
    assert r5.write_latency_ms > r1.write_latency_ms
    assert r5.read_latency_ms == pytest.approx(r1.read_latency_ms, rel=0.05)


@pytest.mark.parametrize("read_pct", [0, 100])
def test_read_share_edges(read_pct):
    wp = one(seeds.aff8080("9.0", concurrency=32, read_pct=read_pct, target_iops=50_000))
    assert all_finite(wp)
    assert wp.latency_at_target_ms is not None
    assert (wp.read_latency_ms is None) == (read_pct == 0)
    assert (wp.write_latency_ms is None) == (read_pct == 100)


def test_absurd_target_is_saturated_not_nan():
    wp = one(seeds.aff8080("9.0", concurrency=32, target_iops=1e12))
    assert wp.latency_at_target_ms is None
    assert wp.target_met is False
    assert wp.headroom_pct < 0
    assert any(s.utilization == 1.0 for s in wp.stations)
    assert all_finite(wp)


def test_no_drives_is_a_problem_not_a_crash():
    sc = seeds.aff8080("9.0", concurrency=8, drives_per_shelf=0)
    result = evaluate_performance(sc, CAT, Settings())
    assert isinstance(result, ScenarioPerformance)
    assert result.workloads == () and any("no drives" in p for p in result.problems)


def test_missing_target_is_a_problem():
    sc = seeds.aff8080("9.0", concurrency=8)
    sc = sc.model_copy(update={"workloads": [sc.workloads[0].with_changes(target="nowhere")]})
    result = evaluate_performance(sc, CAT, Settings())
    assert result.workloads == () and result.problems


def test_disabled_workload_skipped():
    sc = seeds.aff8080("9.0", concurrency=8)
    sc = sc.model_copy(update={"workloads": [sc.workloads[0].with_changes(enabled=False)]})
    assert evaluate_performance(sc, CAT, Settings()).workloads == ()


def test_shared_system_slows_each_workload():
    sc = seeds.aff8080("9.0", concurrency=64)
    w = sc.workloads[0]
    alone = one(sc)
    other = w.with_changes(id="other", name="other", target_iops=150_000)
    both = evaluate_performance(sc.model_copy(update={"workloads": [w, other]}), CAT, Settings(curve_points=50))
    shared = both.for_workload(w.id)
    assert shared.saturation_iops < alone.saturation_iops
    assert shared.peak_iops < alone.peak_iops
    assert both.for_workload("other").latency_at_target_ms is not None


def test_cloud_limits_and_ha():
    single = one(seeds.cvo("azure-standard-ds4-v2", False, "stream-write"))
    ha = one(seeds.cvo("azure-standard-ds4-v2", True, "stream-write"))
    assert ha.saturation_iops <= single.saturation_iops
    names = {s.name for s in ha.stations}
    assert {"VM network bandwidth limit (Azure Standard_DS4_v2: 6,000 Mbit/s)",
            "VM disk throughput limit (Azure Standard_DS4_v2: 384 MB/s uncached)", "HA partner CPU"} <= names


def test_cvo_normal_write_speed_logs_every_write_to_the_nvram_disk():
    """Normal write speed (seed 004 §3): each write waits for the NVRAM disk, whose throughput cap bounds
    streaming writes (DS3_v2: a P6, 50 MB/s, catalog); high write speed buffers writes in memory instead, and
    the data disks only see coalesced consistency-point writes in both modes."""
    from models.catalog.schema import CloudDisk, CloudVm
    from models.performance.paths import AZURE_IO_UNIT_BYTES, build_path

    sc = seeds.cvo("azure-standard-ds3-v2", False, "stream-write")
    normal = one(sc)
    vm = CAT.get("azure-standard-ds3-v2", CloudVm)
    log_mbps = CAT.get(vm.nvram_disk, CloudDisk).mbps
    assert normal.bottleneck == f"NVRAM log disk throughput limit ({CAT.get(vm.nvram_disk, CloudDisk).name}: 50 MB/s)"
    assert normal.saturation_mbps == pytest.approx(log_mbps, rel=1e-9)
    node = sc.node("cvo").model_copy(update={"write_speed": "high"})
    fast_sc = sc.model_copy(update={"nodes": [node if n.id == "cvo" else n for n in sc.nodes]})
    fast = one(fast_sc)
    assert fast.saturation_mbps > 2 * normal.saturation_mbps
    assert not any(s.name.startswith("NVRAM") for s in fast.stations)
    # data disks: one 256 KiB Azure I/O unit per 256 KiB written, whatever the host block size, written at
    # consistency points after the acknowledgement (asynchronous)
    w = sc.workloads[0]
    disk_iops = {s.ident.role: s for s in build_path(fast_sc, CAT, w).stations}["vm_disk_iops"]
    assert disk_iops.write_s == 0.0
    assert disk_iops.write_async_s == pytest.approx(w.block_kib * 1024 / AZURE_IO_UNIT_BYTES /
                                                    vm.max_uncached_disk_iops)


def test_fabricpool_cold_reads_slower():
    hot = one(seeds.cvo("azure-standard-ds4-v2", False, "oltp", concurrency=32))
    cold = one(seeds.cvo("azure-standard-ds4-v2", False, "oltp", concurrency=32, tiering="auto", cold_data_pct=100))
    assert cold.peak_iops < hot.peak_iops


def test_iops_at_latency_interpolates():
    assert iops_at_latency([1, 2, 3], [0.1, 0.2, 0.4], 0.3) == pytest.approx(2.5)
    assert iops_at_latency([1, 2], [0.5, 0.6], 0.1) is None
    assert iops_at_latency([1, 2], [0.1, 0.2], 1.0) == 2


def test_open_curve_continues_a_short_ramp_towards_saturation():
    """A ramp that ends far below saturation (vSAN example: 64 outstanding I/Os) is continued by the open model:
    IOPS rise towards saturation, latency never falls, and each point equals the open-model formula."""
    from models.catalog import bundled_catalog
    from models.evaluate import evaluate
    from models.performance.engine import open_storage_latency_ms
    from models.performance.paths import build_path
    from models.project import load
    from models.resources import examples_dir

    project = load(examples_dir() / "vsan-sqlserver-raid5.toml")
    wp = evaluate(project).performance.workloads[0]
    assert wp.open_curve, "expected an open-model continuation"
    xs = [p.iops for p in wp.open_curve]
    ys = [p.latency_ms for p in wp.open_curve]
    assert xs[0] > wp.curve[-1].iops and xs[-1] < wp.saturation_iops
    assert all(b > a for a, b in zip(xs, xs[1:])) and all(b >= a - 1e-12 for a, b in zip(ys, ys[1:]))
    path = build_path(project.scenario, bundled_catalog(), project.scenario.workloads[0])
    demands = [s.demand(path.read_fraction) for s in path.stations]
    for p in wp.open_curve[::10]:
        assert p.latency_ms == pytest.approx(open_storage_latency_ms(path.stations, demands, p.iops,
                                                                     path.read_fraction),
                                             rel=1e-9)
    # a ramp that reaches 97% of saturation itself has nothing to continue (the AFF8080 example with its
    # concurrency raised until it does)
    project = load(examples_dir() / "aff8080-sqlserver-tpce.toml")
    scenario = project.scenario
    deep = scenario.model_copy(update={"workloads": [w.model_copy(update={"concurrency": 4096})
                                                     for w in scenario.workloads]})
    aff = evaluate(project.with_scenario(deep), project.active_scenario).performance.workloads[0]
    assert aff.curve[-1].iops >= 0.97 * aff.saturation_iops
    assert aff.open_curve == ()


def test_operating_point_without_target_is_the_max_iops_at_slo_even_beyond_the_ramp():
    """A workload without a target is read at its max IOPS under the SLO; when that lies beyond the closed ramp
    (open model), each station's utilisation is X D / c there, not the ramp's light load."""
    from models.evaluate import evaluate
    from models.project import load
    from models.resources import examples_dir

    project = load(examples_dir() / "vsan-sqlserver-raid5.toml")
    scenario = project.scenario
    free = scenario.model_copy(update={"workloads": [w.with_changes(target_iops=None) for w in scenario.workloads]})
    wp = evaluate(project.with_scenario(free)).performance.workloads[0]
    assert wp.target_iops is None and wp.max_iops_at_slo > wp.curve[-1].iops
    assert wp.operating_iops == pytest.approx(wp.max_iops_at_slo)
    bottleneck = next(s for s in wp.stations if s.name == wp.bottleneck)
    assert bottleneck.utilization > 0.9
    assert all(s.residence_ms is None or math.isfinite(s.residence_ms) for s in wp.stations)


def test_asynchronous_work_loads_a_station_but_is_not_waited_for():
    """A write's asynchronous demand (vSAN destage) counts in utilisation and saturation but not in the write's
    latency: open model R = D_sync / (1 - U), U from the total demand (M/M/1, QSP ch. 6), and the closed ramp
    likewise scales each residence time by the waited-for share."""
    from models.performance.engine import open_storage_latency_ms, ramp, saturation_iops
    from models.performance.paths import StationSpec

    d_sync, d_async = 1e-4, 3e-4
    spec = StationSpec("ssd", "n", read_s=0.0, write_s=d_sync, write_async_s=d_async)
    assert spec.demand(0.0) == pytest.approx(4e-4)
    assert spec.latency_share(0.0) == pytest.approx(0.25)
    sat, _ = saturation_iops([spec], 0.0)
    assert sat == pytest.approx(1 / 4e-4)
    x = 1500.0
    u = x * 4e-4
    latency = open_storage_latency_ms([spec], [spec.demand(0.0)], x, 0.0)
    assert latency == pytest.approx(d_sync / (1 - u) * 1e3)
    r = ramp([spec], 0.0, 1)
    assert r.storage_ms[0] == pytest.approx(d_sync * 1e3)  # alone: no queueing, waits for its own part only
    sync_only = StationSpec("ssd", "n", read_s=0.0, write_s=d_sync)
    assert sync_only.latency_share(0.0) == 1.0


def test_vsan_destage_and_near_line_dedupe_are_asynchronous():
    """vSAN acknowledges a write once it is in the cache tier: destaging to the capacity SSDs and near-line
    dedupe/compression (seed 002) load those stations but are not in the write latency."""
    from models.catalog import bundled_catalog
    from models.performance import seeds
    from models.performance.paths import build_path

    sc = seeds.vsan("ftt1-raid1")
    path = build_path(sc, bundled_catalog(), sc.workloads[0])
    by_name = {s.name: s for s in path.stations}
    assert by_name["capacity SSDs"].write_s == 0.0 and by_name["capacity SSDs"].write_async_s > 0
    assert by_name["vSAN host CPU"].write_async_s > 0
    raid5 = build_path(seeds.vsan("ftt1-raid5"), bundled_catalog(), sc.workloads[0])
    # RAID5's read phase (old data + parity) is waited for
    assert {s.name: s for s in raid5.stations}["capacity SSDs"].write_s > 0


def test_open_iops_at_latency_lands_on_the_slo():
    """The refined grid search returns the IOPS where the open-model latency crosses the limit, to 1e-5 of the
    IOPS: 1e-5 less load is within it, 1e-5 more exceeds it; a limit below light-load latency gives None."""
    from models.performance.engine import open_iops_at_latency, open_storage_latency_ms, saturation_iops
    from models.performance.paths import build_path

    sc = seeds.vsan("ftt1-raid5", target_iops=None)
    path = build_path(sc, CAT, sc.workloads[0])
    rf = path.read_fraction
    demands = [s.demand(rf) for s in path.stations]
    sat, _ = saturation_iops(path.stations, rf)
    light = open_storage_latency_ms(path.stations, demands, 1.0, path.read_fraction)
    limit = 3.0 * light
    x = open_iops_at_latency(path.stations, demands, limit, 1.0, sat, path.read_fraction)
    assert 1.0 < x < sat
    assert open_storage_latency_ms(path.stations, demands, x * (1 - 1e-5), path.read_fraction) <= limit
    assert open_storage_latency_ms(path.stations, demands, x * (1 + 1e-5), path.read_fraction) > limit
    assert open_iops_at_latency(path.stations, demands, 0.5 * light, 1.0, sat, path.read_fraction) is None


def test_max_iops_at_slo_mark_sits_on_the_curve_never_above_the_slo():
    """The mark of the max IOPS at the SLO: on the curve, at the SLO where the curve crosses it (the A800
    example crosses inside its open-model continuation, between two drawn points), below it when the whole
    curve is within the SLO."""
    from models.evaluate import evaluate
    from models.project import load
    from models.resources import examples_dir

    for name in ("a800-oracle-slob-nvmefc", "ef550-sas-analytics", "aff8080-sqlserver-tpce", "vsan-sqlserver-raid5"):
        wp = evaluate(load(examples_dir() / f"{name}.toml")).performance.workloads[0]
        iops, latency = wp.max_iops_at_slo_point
        assert iops == wp.max_iops_at_slo
        assert latency <= wp.slo_ms + 1e-12
        points = [*wp.curve, *wp.open_curve]
        below = max((p for p in points if p.iops <= iops), key=lambda p: p.iops)
        above = min((p for p in points if p.iops >= iops), key=lambda p: p.iops)
        assert below.latency_ms - 1e-9 <= latency <= max(above.latency_ms, below.latency_ms) + 1e-9, name
        if above.latency_ms > wp.slo_ms:  # the SLO is crossed here: the mark is on the SLO line
            assert latency == pytest.approx(wp.slo_ms), name


def test_cautions_name_thin_headroom_and_an_ha_pair_that_cannot_fail_over():
    """AFF8080 example: 350K IOPS target, 4% below saturation with both node CPUs ~96% busy: two cautions.
    A target at a third of that: none. Without a target (operating point = max at the SLO): no failover caution."""
    from models.evaluate import evaluate
    from models.project import load
    from models.resources import examples_dir

    project = load(examples_dir() / "aff8080-sqlserver-tpce.toml")
    wp = evaluate(project).performance.workloads[0]
    cpus = [s.utilization for s in wp.stations if s.name in ("node 1 CPU", "node 2 CPU")]
    assert wp.target_met and wp.headroom_pct < 15 and sum(cpus) > 1
    caution = wp.cautions()
    assert len(caution) == 2
    assert f"saturation only {wp.headroom_pct:.1f}% above the target" in caution[0]  # review 42's wording
    assert f"would need {sum(cpus):.0%} of its CPU" in caution[1]

    def with_target(target):
        w = project.scenario.workloads[0].with_changes(target_iops=target)
        scenario = project.scenario.with_changes(workloads=[w.model_dump()])
        return evaluate(project.with_scenario(scenario)).performance.workloads[0]

    assert with_target(120_000).cautions() == ()
    assert not any("failover" in c for c in with_target(None).cautions())


def test_host_link_ports_count_the_whole_host_group_capped_by_its_adapters():
    """A host link's ports are the group's (the canvas' "x10"): 10 hosts with one cabled port each give 10
    initiator ports, although each dual-port HBA could take two; more ports than the adapters have are capped."""
    from models.performance.paths import build_path

    def host_ports(ports):
        sc = seeds.a800("9.5", "NVMe/FC")
        links = [link.model_copy(update={"ports": ports}) if link.id == "l-host" else link for link in sc.links]
        sc = sc.model_copy(update={"links": links})
        return next(s for s in build_path(sc, CAT, sc.workloads[0]).stations if s.name == "host ports").multiplicity

    assert host_ports(10) == 10
    assert host_ports(15) == 15
    assert host_ports(40) == 20  # 10 hosts x 1 dual-port Emulex LPe32002


def test_vsan_disk_groups_bound_saturation_and_raid5_saturates_earlier():
    """The catalog's front-end IOPS per disk group (ReadyNode mix, 1.3 component I/Os each) bounds the cluster:
    8 disk groups x 25K x 1.3 component I/Os / 1.1 per 90/10 RAID1 I/O; RAID5 writes cost 4 component I/Os."""
    from models.catalog import HciNode

    rec = CAT.get("vsan-6.2-allflash-host", HciNode)
    raid1 = one(seeds.vsan("ftt1-raid1"))
    raid5 = one(seeds.vsan("ftt1-raid5"))
    per_group = rec.max_iops_per_disk_group * (0.7 + 0.3 * 2)
    assert raid1.bottleneck == raid5.bottleneck == "vSAN disk groups (software path)"
    assert raid1.saturation_iops == pytest.approx(8 * per_group / (0.9 + 0.1 * 2))
    assert raid5.saturation_iops == pytest.approx(8 * per_group / (0.9 + 0.1 * 4))


def test_vsan_hybrid_reads_hit_the_cache_tier_or_the_capacity_hdds():
    """A vSAN OSA hybrid cluster (the all-flash record with HDD capacity drives): 70% of the cache devices is
    read cache; a working set that fits it is read from the cache SSDs, one ten times larger mostly from the
    HDDs, whose positioning makes it saturate far lower. The HDD station is named for HDDs."""
    from models.catalog import Drive, HciNode
    from models.performance.paths import VSAN_HYBRID_READ_CACHE_SHARE

    sc = seeds.vsan()
    node = next(n for n in sc.nodes if n.kind == "hci_cluster")
    rec = CAT.get(node.catalog_id, HciNode)
    hdd = CAT.get("generic-300gb-15k-fc-hdd", Drive)
    hybrid = rec.model_copy(update={"id": "test-vsan-hybrid", "all_flash": False, "capacity_drive": hdd.id})
    cat = CAT.with_entries([hybrid])
    cache = CAT.get(rec.cache_drive, Drive)
    groups = node.hosts * node.disk_groups_per_host
    read_cache = VSAN_HYBRID_READ_CACHE_SHARE * cache.marketed_bytes * groups

    def evaluate_with(working_set):
        w = sc.workloads[0].with_changes(working_set_bytes=int(working_set), dataset_bytes=int(working_set * 2))
        hnode = node.model_copy(update={"catalog_id": hybrid.id})
        s = sc.model_copy(update={"workloads": [w], "nodes": [hnode if n.id == node.id else n for n in sc.nodes]})
        path = build_path(s, cat, w)
        return path, evaluate_performance(s, cat).workloads[0]

    path_fit, fits = evaluate_with(0.5 * read_cache)
    path_big, big = evaluate_with(10 * read_cache)
    names = [st.name for st in path_big.stations]
    assert "capacity HDDs" in names and "capacity SSDs" not in names
    hdds = {st.name: st for st in path_fit.stations}["capacity HDDs"]
    assert hdds.read_s == 0.0  # every read hits the read cache
    big_hdds = {st.name: st for st in path_big.stations}["capacity HDDs"]
    rf = path_big.read_fraction
    rd = (path_big.workload.random_pct / 100) * hdd.read_service_time_us * 1e-6 + \
        path_big.workload.block_kib * 1024 / (hdd.max_read_mbps * 1e6)
    assert big_hdds.read_s == pytest.approx(0.9 * rd)  # hit ratio 1/10 of the working set
    assert big.saturation_iops < fits.saturation_iops
    assert big.light_load_latency_ms > fits.light_load_latency_ms
    assert rf > 0


def test_flash_cache_serves_the_reads_memory_misses():
    """A controller with a Flash Cache read cache: memory plus module act as one LRU of their summed size
    (victim cache); the module's station serves the hits memory misses, the drives only the rest."""
    from models.catalog import Controller
    from models.performance.paths import CACHE_FRACTION_OF_MEMORY, FLASH_CACHE_PARALLELISM

    sc = seeds.aff8080("9.0", concurrency=64)
    ctl_node = next(n for n in sc.nodes if n.kind == "controller")
    rec = CAT.get(ctl_node.catalog_id, Controller)
    memory = rec.memory_gib_per_node * rec.nodes * 2**30 * CACHE_FRACTION_OF_MEMORY
    flash = rec.model_copy(update={"id": "test-flash", "flash_cache_gib_per_node": 512.0, "flash_cache_read_us": 80.0})
    cat = CAT.with_entries([flash])
    ws = 4 * memory + 2 * 512 * 2**30
    w = sc.workloads[0].with_changes(working_set_bytes=int(ws), dataset_bytes=int(ws), random_pct=100.0)
    node = ctl_node.model_copy(update={"catalog_id": "test-flash"})
    with_fc = sc.model_copy(update={"workloads": [w], "nodes": [node if n.id == ctl_node.id else n for n in sc.nodes]})
    without = sc.model_copy(update={"workloads": [w]})
    fc_path, plain_path = build_path(with_fc, cat, w), build_path(without, CAT, w)
    stations = {s.name: s for s in fc_path.stations}
    # the module keeps only blocks last read, not overwritten (models.performance.cache): its hits x the read share
    reads = w.read_pct / 100
    hit_memory = memory / ws
    hit_all = hit_memory + reads * (memory + 2 * 512 * 2**30 - memory) / ws
    assert reads < 1.0
    assert stations["node 1 Flash Cache"].read_s == pytest.approx((hit_all - hit_memory) * 80e-6 / 2)
    assert stations["node 1 Flash Cache"].servers == FLASH_CACHE_PARALLELISM
    plain = {s.name: s for s in plain_path.stations}
    # the drives see only the misses of both caches
    assert stations["SSDs (node 1)"].read_s == pytest.approx(plain["SSDs (node 1)"].read_s * (1 - hit_all)
                                                            / (1 - hit_memory))
