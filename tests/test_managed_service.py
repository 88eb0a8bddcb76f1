"""Managed file services (Azure NetApp Files, Amazon FSx for NetApp ONTAP) as a node kind: capacity is what is
provisioned, performance is the published limits (throughput per TiB or provisioned throughput, IOPS per GiB and
caps) as queues of that capacity, problems name what breaks a service's range, the .storplan file keeps them
(schema 7, older files migrate), the sizer offers them in the cloud deployment, and the price book prices a
provisioned TiB. Expected figures are computed here from the services' published rules."""

from __future__ import annotations

import math
import sqlite3
from pathlib import Path

import pytest

from models.capacity import evaluate_capacity
from models.catalog import ManagedService, bundled_catalog
from models.evaluate import evaluate
from models.performance import evaluate_performance
from models.project import load
from models.project.model import ManagedServiceNode, Project, Scenario, Workload
from models.resources import examples_dir

CAT = bundled_catalog()
TIB, GIB, MIB = 2**40, 2**30, 2**20


def _scenario(catalog_id: str, provisioned_tib: float, throughput_mbps: float = 0.0, **workload) -> Scenario:
    node = ManagedServiceNode(id="svc", catalog_id=catalog_id, label="", x=0, y=0,
                              provisioned_bytes=int(provisioned_tib * TIB), throughput_mbps=throughput_mbps)
    fields = dict(id="db", name="OLTP", target="svc", block_kib=8.0, read_pct=70.0, random_pct=100.0, slo_ms=2.0,
                  concurrency=64, dataset_bytes=int(1.5 * TIB), compression_ratio=2.0, target_iops=5_000.0)
    fields.update(workload)
    return Scenario(name="Base", nodes=[node], workloads=[Workload(**fields)])


def test_capacity_is_the_provisioned_capacity_and_only_fsx_shows_data_reduction():
    anf = evaluate_capacity(_scenario("azure-netapp-files-premium", 4), CAT).total
    assert anf.usable_bytes == anf.raw_bytes == 4 * TIB
    assert anf.effective_bytes == pytest.approx(4 * TIB)  # ANF does not present storage efficiencies
    fsx = evaluate_capacity(_scenario("aws-fsx-ontap-multi-az-2", 4), CAT).total
    assert fsx.usable_bytes == 4 * TIB
    assert fsx.effective_bytes == pytest.approx(4 * TIB * 2.0)  # ONTAP compression 2:1 counts on FSx


def test_an_anf_volume_saturates_at_its_service_level_throughput():
    """Premium: 64 MiB/s per TiB (Microsoft); 4 TiB gives 256 MiB/s; 8 KiB I/O: 256 MiB / 8 KiB = 32,768 IOPS."""
    record = CAT.get("azure-netapp-files-premium", ManagedService)
    wp = evaluate_performance(_scenario(record.id, 4), CAT).workloads[0]
    expected = 4 * record.throughput_mibps_per_tib * MIB / (8 * 1024)
    assert expected == 32_768
    assert wp.saturation_iops == pytest.approx(expected, rel=1e-9)
    assert "throughput limit" in wp.bottleneck
    one_op_s = 0.7 / record.max_read_iops + 0.3 / record.max_write_iops  # one 70/30 operation at the volume's rates
    light = record.latency_us / 1e3 + 8 * 1024 / (4 * 64 * MIB) * 1e3 + one_op_s * 1e3  # floor + transfer + op
    assert wp.curve[0].latency_ms == pytest.approx(light, rel=1e-6)
    assert wp.curve[0].host_latency_ms == pytest.approx(light + 0.1, rel=1e-6)  # + the client's round trip
    assert wp.max_iops_at_slo <= wp.saturation_iops  # never beyond the limit
    doubled = evaluate_performance(_scenario(record.id, 8), CAT).workloads[0]
    assert doubled.saturation_iops == pytest.approx(2 * expected, rel=1e-9)  # throughput grows with the quota


@pytest.mark.parametrize("read_pct", [100.0, 70.0, 0.0])
def test_an_anf_volume_is_bounded_by_its_published_small_block_read_and_write_rates(read_pct):
    """Microsoft's regular-volume benchmark: 4 KiB random, ~460,000 reads or ~130,000 writes per second on one
    volume; a mix takes each operation's share (harmonic mean). 100 TiB Premium gives 4,500 MiB/s, far above."""
    record = CAT.get("azure-netapp-files-premium", ManagedService)
    assert (record.max_read_iops, record.max_write_iops) == (460_000, 130_000)
    wp = evaluate_performance(_scenario(record.id, 100, block_kib=4.0, read_pct=read_pct, concurrency=512),
                              CAT).workloads[0]
    r = read_pct / 100
    expected = 1.0 / (r / 460_000 + (1 - r) / 130_000)
    assert wp.saturation_iops == pytest.approx(expected, rel=1e-9)
    assert "volume operation limit" in wp.bottleneck
    assert wp.saturation_iops * 4 * 1024 < record.max_throughput_mbps * 1e6  # not the throughput limit


def test_anf_sequential_writes_stop_at_the_published_write_throughput():
    """64 KiB sequential: ~4,500 MiB/s of reads but ~1,600 MiB/s of writes on one volume (Microsoft)."""
    record = CAT.get("azure-netapp-files-premium", ManagedService)
    block = 64 * 1024
    reads = evaluate_performance(_scenario(record.id, 100, block_kib=64.0, read_pct=100.0, random_pct=0.0,
                                           concurrency=256), CAT).workloads[0]
    writes = evaluate_performance(_scenario(record.id, 100, block_kib=64.0, read_pct=0.0, random_pct=0.0,
                                            concurrency=256), CAT).workloads[0]
    assert reads.saturation_iops == pytest.approx(record.max_throughput_mbps * 1e6 / block, rel=1e-9)
    assert writes.saturation_iops == pytest.approx(record.max_write_throughput_mbps * 1e6 / block, rel=1e-9)
    assert record.max_write_throughput_mbps == pytest.approx(1_600 * MIB / 1e6, rel=1e-3)
    assert "writes 1,678 MB/s" in writes.bottleneck


def test_fsx_is_limited_by_its_provisioned_iops_or_throughput():
    """FSx: 3 SSD IOPS per GiB (1 TiB: 3,072 IOPS) below 384 MB/s / 8 KiB = 46,875 IOPS: the IOPS limit binds; at
    64 KiB blocks and 64 TiB (196,608 IOPS) the 384 MB/s throughput capacity binds: 5,859 IOPS."""
    wp = evaluate_performance(_scenario("aws-fsx-ontap-multi-az-2", 1), CAT).workloads[0]
    assert wp.saturation_iops == pytest.approx(3 * 1024, rel=1e-9) and "IOPS limit" in wp.bottleneck
    big = evaluate_performance(_scenario("aws-fsx-ontap-multi-az-2", 64, block_kib=64.0), CAT).workloads[0]
    assert big.saturation_iops == pytest.approx(384e6 / (64 * 1024), rel=1e-9)
    faster = evaluate_performance(_scenario("aws-fsx-ontap-multi-az-2", 64, throughput_mbps=3_072,
                                            block_kib=64.0), CAT).workloads[0]
    assert faster.saturation_iops == pytest.approx(3_072e6 / (64 * 1024), rel=1e-9)


def test_what_breaks_a_services_range_is_a_problem_naming_the_field():
    project = Project(scenarios=[_scenario("aws-fsx-ontap-multi-az-2", 600, throughput_mbps=1_000)])
    problems = {(p.field, p.message) for p in evaluate(project).problems if p.node_id == "svc"}
    fields = {f for f, _ in problems}
    assert fields == {"provisioned_bytes", "throughput_mbps"}
    assert any("is not one of" in m and "384, 768, 1536, 3072, 6144 MB/s" in m for _, m in problems)


def test_a_project_with_a_managed_service_survives_the_file_and_a_version_6_file_migrates(tmp_path: Path):
    from models.store import open_project, save_project
    from models.store.schema import DDL_V6, migrate

    project = load(examples_dir() / "anf-premium-oracle-nfs.toml")
    path = save_project(project, tmp_path / "anf.storplan")
    assert open_project(path).project.scenario.nodes == project.scenario.nodes
    conn = sqlite3.connect(":memory:")
    conn.executescript(DDL_V6)
    conn.execute("INSERT INTO scenario VALUES (1, 0, 'Base')")
    conn.execute("INSERT INTO node VALUES (1, 0, 'c', 'controller', 'netapp-aff-a50', 'A50', 0, 0, '{}')")
    with pytest.raises(sqlite3.IntegrityError):  # version 6 does not know the kind
        conn.execute("INSERT INTO node VALUES (1, 1, 's', 'managed_service', 'x', 'x', 0, 0, '{}')")
    migrate(conn, 6)
    assert conn.execute("SELECT id, kind FROM node").fetchall() == [("c", "controller")]  # rows kept
    conn.execute("INSERT INTO node VALUES (1, 1, 's', 'managed_service', 'x', 'x', 0, 0, '{}')")


def test_the_sizer_offers_managed_services_in_the_cloud_and_prices_a_provisioned_tib():
    from models.pricing import quantities
    from models.project import PriceRow
    from models.sizing import needed_effective_bytes, size

    project = load(examples_dir() / "anf-premium-oracle-nfs.toml")
    result = size(project, top=5)
    assert result.candidates and all("Azure NetApp Files" in c.summary for c in result.candidates)
    need = needed_effective_bytes(project.scenario, project.requirements)
    for c in result.candidates:
        node = c.scenario.nodes[0]
        assert node.kind == "managed_service" and node.provisioned_bytes >= need
        assert node.provisioned_bytes % TIB == 0  # whole TiB
    node = result.candidates[0].scenario.nodes[0]
    q, storage = quantities(result.candidates[0].scenario, CAT)
    assert q[node.catalog_id] == math.ceil(node.provisioned_bytes / TIB) and node.catalog_id in storage
    book = [PriceRow(catalog_id=i, unit_price=p, currency="USD") for i, p in (
        ("azure-netapp-files-standard", 1_000), ("azure-netapp-files-premium", 2_000),
        ("azure-netapp-files-ultra", 3_000))]
    priced = size(project.model_copy(update={"price_book": book}), top=3)
    first = priced.candidates[0]
    tib = first.scenario.nodes[0].provisioned_bytes / TIB
    assert first.cost == pytest.approx(tib * {r.catalog_id: r.unit_price for r in book}[
        first.scenario.nodes[0].catalog_id])
    assert [c.cost for c in priced.candidates] == sorted(c.cost for c in priced.candidates)


FIRST_GEN_SSD_IOPS = {"128": 6_000, "256": 12_000, "512": 18_750, "1024": 40_000, "2048": 80_000, "4096": 160_000}
"""AWS, FSx for ONTAP user guide, 'Impact of throughput capacity on performance' (first-generation file systems):
SSD drive IOPS (baseline) per throughput capacity, MBps; 4,096 MBps needs 160,000 SSD IOPS ('Managing throughput
capacity')."""


@pytest.mark.parametrize("throughput, ceiling", [(128, 6_000), (512, 18_750), (2_048, 80_000), (4_096, 160_000)])
def test_fsx_ssd_iops_ceiling_follows_the_throughput_capacity(throughput, ceiling):
    """A record that ties the SSD IOPS ceiling to the throughput capacity (the first-generation table above):
    provisioned IOPS above the tier's ceiling are refused by name and the path's IOPS limit is the ceiling, not
    the file system's 160,000 cap; a record without such a table keeps its cap (the bundled MULTI_AZ_2)."""
    from models.performance.managed import iops_ceiling, iops_limit, limit_problems

    gen1 = CAT.get("aws-fsx-ontap-multi-az-2", ManagedService).model_copy(update={
        "id": "fsx-gen1", "throughput_options_mbps": [128.0, 256.0, 512.0, 1024.0, 2048.0, 4096.0],
        "max_throughput_mbps": 4096.0, "max_iops": 160_000.0, "max_iops_by_throughput": FIRST_GEN_SSD_IOPS})
    node = ManagedServiceNode(id="svc", catalog_id="fsx-gen1", provisioned_bytes=100 * TIB,
                              throughput_mbps=throughput, iops=200_000)
    assert iops_ceiling(node, gen1) == ceiling
    assert iops_limit(node, gen1) == ceiling  # 3 x 102,400 GiB = 307,200 automatic IOPS: the ceiling binds
    assert any(f"cap of {ceiling:,.0f} at {throughput:g} MB/s" in m for m in limit_problems(node, gen1, "svc"))
    bundled = CAT.get("aws-fsx-ontap-multi-az-2", ManagedService)
    assert iops_ceiling(node.model_copy(update={"throughput_mbps": 384}), bundled) == bundled.max_iops
