"""vSAN 8 / 9 hosts (resources/catalog/vsan8.toml): the records carry their cited figures, an ESA host has no cache
tier, the 6-host ESA example's usable capacity matches a hand computation from the cited rules, ESA RAID-5 writes
cost what RAID-1 writes do (Broadcom: "Performance of RAID-5/6 equal to RAID-1"), and both vSAN 8 examples
evaluate without warnings."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from models.catalog import Drive, HciNode, bundled_catalog
from models.evaluate import evaluate
from models.problems import find_problems
from models.resources import examples_dir
from models.store import load_any

CAT = bundled_catalog()
ESA = "vsan8-esa-6host-sqlserver-oltp"
HYBRID = "vsan8-osa-hybrid-4host-oltp"


def _idema_bytes(gb: int) -> int:
    """IDEMA LBA1-03: LBAs = 97,696,368 + 1,953,504 x (GB - 50), 512-byte sectors."""
    return (97_696_368 + 1_953_504 * (gb - 50)) * 512


def _example(stem: str):
    return load_any(examples_dir() / f"{stem}.toml")


# ------------------------------------------------------------------------------------------ records


def test_esa_host_has_the_published_esa_minimums_and_no_cache_tier():
    """Dell VxRail Architecture Overview: an ESA node needs at least 32 cores and 512 GB and a 25 Gb network;
    VCF 9.0 design library: every ESA ReadyNode but AF-0 needs 25GbE or more; VMware 'Design and Sizing for vSAN
    ESA clusters': up to 24 drives in 2RU servers."""
    host = CAT.get("vsan-esa-readynode-32c-512g-25g", HciNode)
    assert host.architecture == "esa" and host.cache_drive == "" and host.all_flash
    assert (host.cores, host.memory_gib, host.network_gbps) == (32, 512, 25)
    assert host.max_disk_groups * host.max_capacity_per_group == 24
    assert "VxRail" in host.sources["cores"] and "25GbE" in host.sources["network_gbps"]
    assert all(host.kind_of(f) == "sourced" for f in ("cores", "memory_gib", "network_gbps"))
    assert CAT.get(host.capacity_drive, Drive).interface == "NVMe"


def test_af8_class_host_memory_and_network_from_the_dell_bom():
    """Yellow Bricks (8 Mar 2023): Dell's vSAN-ESA-AF8 BOM has 1024GB and a 100Gbps NIC; its cores are assumed."""
    host = CAT.get("vsan-esa-readynode-af8-100g", HciNode)
    assert (host.memory_gib, host.network_gbps) == (1024, 100)
    assert "Yellow Bricks" in host.sources["memory_gib"]
    assert host.kind_of("cores") == "assumed" and "searched" in host.sources["cores"]


@pytest.mark.parametrize("hid, all_flash, capacity_media", [("vsan-8-osa-allflash-host", True, "SSD"),
                                                            ("vsan-8-osa-hybrid-host", False, "HDD")])
def test_osa_hosts_have_disk_groups_of_one_cache_and_up_to_seven_capacity_devices(hid, all_flash, capacity_media):
    """vSphere ICM course, 'vSAN Datastores': at most five disk groups, each one cache device and one to seven
    capacity devices; VCF 9.0: 10GbE is the vSAN minimum."""
    host = CAT.get(hid, HciNode)
    assert host.architecture == "osa" and host.all_flash is all_flash
    assert (host.max_disk_groups, host.max_capacity_per_group, host.network_gbps) == (5, 7, 10)
    assert CAT.get(host.cache_drive, Drive).media == "SSD"
    assert CAT.get(host.capacity_drive, Drive).media == capacity_media


def test_drive_figures_follow_their_datasheets():
    cm6 = CAT.get("kioxia-cm6-v-3.2tb-nvme", Drive)
    assert cm6.marketed_bytes == _idema_bytes(3_200)
    assert (cm6.max_read_mbps, cm6.max_write_mbps) == (6_900, 4_200)  # heise.de: 6,9 / 4,2 GByte/s
    assert cm6.parallelism == round(1_400_000 * cm6.read_service_time_us * 1e-6)  # 1,4 Millionen IOPS lesend
    assert cm6.write_service_time_us == pytest.approx(cm6.parallelism / 350_000 * 1e6, rel=0.01)  # 350.000 IOPS
    for did, gb, write_iops in (("micron-5400-max-960gb-sata", 960, 65_000),
                                ("micron-5400-pro-3.84tb-sata", 3_840, 37_000)):
        d = CAT.get(did, Drive)  # blocksandfiles.com 2022-06-29: 540 / 520 MB/s, 95K read IOPS
        assert d.marketed_bytes == _idema_bytes(gb)
        assert (d.max_read_mbps, d.max_write_mbps) == (540, 520)
        assert d.write_service_time_us == pytest.approx(d.parallelism / write_iops * 1e6, rel=0.01)
    hdd = CAT.get("seagate-exos-10e2400-2.4tb-sas-10k", Drive)
    assert hdd.marketed_bytes == _idema_bytes(2_400) and hdd.rpm == 10_500 and hdd.parallelism == 1


def test_cache_drive_must_match_the_architecture():
    esa = CAT.get("vsan-esa-readynode-32c-512g-25g", HciNode).model_dump()
    with pytest.raises(ValidationError, match="no cache tier"):
        HciNode(**{**esa, "cache_drive": "micron-5400-max-960gb-sata"})
    osa = CAT.get("vsan-8-osa-allflash-host", HciNode).model_dump()
    with pytest.raises(ValidationError, match="needs its cache_drive"):
        HciNode(**{**osa, "cache_drive": ""})


# ------------------------------------------------------------------------------------------ the ESA example


def test_esa_example_usable_capacity_by_hand():
    """6 hosts x 6 x 3.2 TB NVMe (IDEMA bytes, vSAN formats the whole device); vSAN 7.0 U1+ reserved capacity:
    operations reserve 10% (assumed: rules.VSAN_OPERATIONS_RESERVE_PCT) and one host's capacity (vSAN 'Reserve
    capacity': 'the total capacity of the largest host'); adaptive RAID-5 4+1 on six hosts, x 5/4 (Broadcom vSAN
    8 ESA documentation); log-structured file system overhead 13.1% (Broadcom KB 394410)."""
    pool = 6 * 6 * 3_200_631_791_616
    expected = (pool - 0.10 * pool - pool / 6) / (5 / 4) / 1.131
    r = evaluate(_example(ESA)).capacity.systems[0]
    assert r.usable_bytes == pytest.approx(expected)
    assert expected / 2**40 == pytest.approx(54.36, abs=0.01)  # what the example prints
    assert any("4+1" in s.name for s in r.steps)
    assert r.step("Slack space") is None and not any("cache" in line for line in r.layout)


def test_examples_evaluate_without_warnings_and_meet_their_targets():
    for stem in (ESA, HYBRID):
        project = _example(stem)
        evaluation = evaluate(project)
        assert not evaluation.problems, stem
        assert not [p for s in evaluation.capacity.systems for p in s.problems], stem
        wp = evaluation.performance.workloads[0]
        assert wp.target_met and wp.profile == "assumed", stem
        assert not find_problems(project.scenario, CAT)


def test_esa_bill_of_materials_has_no_cache_drives():
    from models.present.bom import bill_of_materials

    rows = bill_of_materials(_example(ESA).scenario, CAT)
    text = " ".join(f"{r.category} {r.model}" for r in rows)
    assert "Cache" not in text and "Storage-pool NVMe devices (6 per host)" in text
    assert next(r for r in rows if r.category.startswith("Storage-pool")).quantity == 36


# ------------------------------------------------------------------------------------------ performance


def _esa_with(policy: str, architecture: str = "esa", host: str = "vsan-esa-readynode-32c-512g-25g"):
    project = _example(ESA)
    sc = project.scenario
    nodes = [n.model_copy(update={"policy": policy, "architecture": architecture, "catalog_id": host})
             if n.kind == "hci_cluster" else n for n in sc.nodes]
    light = [w.model_copy(update={"target_iops": 30_000.0}) for w in sc.workloads]  # light load: latencies compare
    return project.with_scenario(sc.model_copy(update={"nodes": nodes, "workloads": light}))


def test_esa_raid5_writes_cost_what_raid1_writes_do():
    """Broadcom/VMware (core.vmware.com, 13 Sep 2022): 'Performance of RAID-5/6 equal to RAID-1 is what customers
    can expect from vSAN 8 ESA' (paths.VSAN_ESA_PERFORMANCE_SOURCE): the acknowledged write is the mirrored
    performance leg, with no read-modify-write; OSA RAID-5 reads old data and parity first (a second phase)."""
    raid5 = evaluate(_esa_with("ftt1-raid5")).performance.workloads[0]
    raid1 = evaluate(_esa_with("ftt1-raid1")).performance.workloads[0]
    osa5 = evaluate(_esa_with("ftt1-raid5", "osa", "vsan-8-osa-allflash-host")).performance.workloads[0]
    assert raid5.write_latency_ms == pytest.approx(raid1.write_latency_ms, rel=0.02)
    assert osa5.write_latency_ms > 1.5 * raid5.write_latency_ms
    assert not any("cache SSD" in s.name for s in raid5.stations)
    assert any("performance leg" in n for n in raid5.notes)


def test_hybrid_reads_hit_the_ssd_read_cache():
    wp = evaluate(_example(HYBRID)).performance.workloads[0]
    assert any("hybrid read cache hit" in n for n in wp.notes)
    assert wp.bottleneck == "capacity HDDs"


# ------------------------------------------------------------------------------------------ design check, palette


def test_an_esa_host_in_an_osa_cluster_is_an_error():
    msgs = [(p.severity, p.message) for p in find_problems(_esa_with("ftt1-raid5", "osa").scenario, CAT)]
    assert any(sev == "error" and "ESA ReadyNode" in m for sev, m in msgs)


def test_a_new_node_from_an_esa_record_is_an_esa_cluster():
    from models.project.factory import new_node

    node = new_node(CAT.get("vsan-esa-readynode-32c-512g-25g"), "c1", CAT)
    assert node.architecture == "esa" and node.policy == "ftt1-raid5"
    assert node.disk_groups_per_host * node.capacity_drives_per_group == 6


def test_the_sizer_offers_esa_storage_pools():
    from models.sizing import esa_pool_layout, size

    assert esa_pool_layout(24) == (4, 6) and esa_pool_layout(8) == (2, 4) and esa_pool_layout(11) is None
    result = size(_example(ESA), top=5)
    esa = [c for c in result.candidates if "ESA storage pool" in c.summary]
    assert esa and all(c.meets for c in esa)
    node = next(n for n in esa[0].scenario.nodes if n.kind == "hci_cluster")
    assert node.architecture == "esa"


def test_server_drives_are_not_offered_to_array_shelves():
    """The vSAN hosts' NVMe / SATA / SAS server drives fit NetApp shelves by interface only: the sizer and a palette
    drop offer a shelf its own vendor's drives (models.project.factory.drive_fits_shelf)."""
    from models.catalog import Shelf
    from models.project.factory import drive_fits_shelf, new_node

    ns224 = CAT.get("netapp-ns224", Shelf)
    assert not drive_fits_shelf(CAT.get("kioxia-cm6-v-3.2tb-nvme", Drive), ns224)
    assert drive_fits_shelf(CAT.get("netapp-1500gb-nvme-ssd-a800", Drive), ns224)
    # a new NS224 starts with a drive the controllers taking it are sold with (the A800's seed drive is the A800's
    # only: models.project.factory.drive_fits_controller with the catalog)
    assert new_node(ns224, "s1", CAT).drive == "netapp-nvme-ssd-1.92tb-tlc"


def test_esa_software_limit_is_four_times_the_osa_host_s():
    """Duncan Epping (Yellow Bricks, 1 Feb 2023): 'customers easily reaching 4x the number of IOPS with ESA than
    with OSA': an ESA host's storage pool serves 4 x the vSAN 6.2 OSA host's front-end IOPS (2 disk groups)."""
    osa = CAT.get("vsan-6.2-allflash-host", HciNode)
    for hid in ("vsan-esa-readynode-32c-512g-25g", "vsan-esa-readynode-af8-100g"):
        esa = CAT.get(hid, HciNode)
        assert esa.max_iops_per_disk_group == 4 * 2 * osa.max_iops_per_disk_group
        assert "4x the number of IOPS with ESA" in esa.sources["max_iops_per_disk_group"]
    wp = evaluate(_example(ESA)).performance.workloads[0]
    assert wp.bottleneck == "vSAN storage pools (software path)"


def test_hybrid_example_usable_capacity_by_hand():
    """4 hosts x 2 disk groups x 5 x 2.4 TB HDD (cache SSDs are not capacity), RAID-1 FTT=1 keeps 2 copies, 30%
    slack space (vSAN documentation before 7.0 U1, the OSA default here): the cache tier adds nothing."""
    raw = 4 * 2 * 5 * _idema_bytes(2_400)
    r = evaluate(_example(HYBRID)).capacity.systems[0]
    assert r.raw_bytes == pytest.approx(raw)
    assert r.usable_bytes == pytest.approx(raw / 2 * 0.70)
    wp = evaluate(_example(HYBRID)).performance.workloads[0]
    hit = next(n for n in wp.notes if "hybrid read cache hit" in n)
    assert "67%" in hit  # 0.7 x 8 x 960 GB = 5.4 TB read cache over an 8 TB working set
