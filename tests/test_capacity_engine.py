"""Hand-computed capacity cases and bad input, built from records constructed here (independent of the bundled
catalog). Bad input becomes a problem naming the node, never an exception."""

import math

import pytest

from models.capacity import evaluate_capacity, split_groups, vsan_policy_factor, wafl_reserve_fraction
from models.capacity.rules import CURRENT_ONTAP_RELEASE
from models.catalog import Catalog, CloudDisk, CloudVm, Controller, Drive, HciNode, Licence, Shelf
from models.project import (
    CloudVmNode,
    ControllerNode,
    HciClusterNode,
    Link,
    Scenario,
    ShelfNode,
    SnapshotSchedule,
    Workload,
)
from models.units import GB, GIB, MIB, TB, TIB

SRC = "assumed: test record built in the test"


def drive(id="x425a", marketed=1_200 * GB, right_sized=1_142_352 * MIB, media="HDD", rpm=10_000, groups=None):
    groups = groups if groups is not None else {"raid4": {"default": 8, "max": 14},
                                                "raid_dp": {"default": 16, "max": 28}}
    fields = dict(id=id, name=id, media=media, interface="SAS", marketed_bytes=marketed, right_sized_bytes=right_sized,
                  rpm=rpm, read_service_time_us=100, write_service_time_us=100, max_read_mbps=100, max_write_mbps=100,
                  raid_group_sizes=groups)
    if media == "SSD":
        fields.pop("rpm")
    return Drive(**fields, sources={k: SRC for k in fields if isinstance(fields[k], (int, float, dict)) and k != "id"})


def controller(id="fas", family="ONTAP", adp=(), root=None, software="9.0"):
    fields = dict(id=id, name=id, family=family, nodes=2, cores_per_node=8, memory_gib_per_node=64, fc_ports_per_node=4,
                  fc_port_speed_gbps=16, protocols=["FCP"], software_versions=[software], default_software=software,
                  max_drives=480, adp=list(adp), adp_root_partition_bytes=root or {})
    return Controller(**fields,
                      sources={k: SRC for k in ("nodes", "cores_per_node", "memory_gib_per_node", "fc_ports_per_node",
                                                "fc_port_speed_gbps", "max_drives", "adp_root_partition_bytes")
                               if fields[k]})


SHELF = Shelf(id="shelf24", name="shelf", bays=480, drive_interfaces=["SAS"], backend_link="sas-6g", backend_lanes=4,
              sources={"bays": SRC, "backend_lanes": SRC, "rack_units": SRC})


def system(ctl, drv, count, shelves=1, **node):
    nodes = [ControllerNode(id="c", catalog_id=ctl.id, **node)]
    links = []
    per = [count // shelves + (1 if i < count % shelves else 0) for i in range(shelves)]
    for i, n in enumerate(per):
        nodes.append(ShelfNode(id=f"s{i}", catalog_id=SHELF.id, drive=drv.id, drive_count=n))
        links.append(Link(id=f"l{i}", source="c", target=f"s{i}", link_type="sas"))
    return Scenario(name="t", nodes=nodes, links=links), Catalog([ctl, drv, SHELF])


def run(ctl, drv, count, workloads=(), **node):
    scenario, catalog = system(ctl, drv, count, **node)
    scenario = scenario.model_copy(update={"workloads": list(workloads)})
    return evaluate_capacity(scenario, catalog).systems[0]


def test_split_groups():
    assert split_groups(40, 23) == (20, 20)
    assert split_groups(23, 23) == (23,)
    assert split_groups(25, 23) == (13, 12)
    assert split_groups(0, 16) == ()


def test_12_x425a_raid_dp_no_adp_hand_computed():
    # TR-3838: X425A right-sized 1,142,352 MiB. 12 drives -> 6 per node, 1 spare -> 5 in RAID DP (3+2).
    r = run(controller(), drive(), 12, raid_type="raid_dp", spares_per_node=1)
    data_per_node = 3 * 1_142_352 * MIB
    assert r.raw_bytes == 12 * 1_200 * GB
    assert r.right_sized_bytes == 12 * 1_142_352 * MIB
    assert r.usable_bytes == pytest.approx(2 * data_per_node * 0.9)
    assert (r.step("RAID DP parity").bytes_before - r.step("RAID DP parity").bytes_after
            == pytest.approx(4 * 1_142_352 * MIB))
    assert r.problems == ()


def test_raid_tec_and_raid4():
    tec = run(controller(), drive(), 24, raid_type="raid_tec")  # 12 / node, 1 spare, 11 -> (8+3); fallback group size
    assert tec.usable_bytes == pytest.approx(2 * 8 * 1_142_352 * MIB * 0.9)
    raid4 = run(controller(), drive(), 24, raid_type="raid4")  # 11 members, default 8 -> (6, 5) -> 2 parity
    assert raid4.usable_bytes == pytest.approx(2 * 9 * 1_142_352 * MIB * 0.9)
    assert any("RAID-TEC" in s.name for s in tec.steps)


def test_ssd_group_splitting_40_partitions():
    ssd = drive("x447a", 800 * GB, 762_847 * MIB, "SSD", groups={"raid_dp": {"default": 23, "max": 28}})
    ctl = controller(adp=["root-data"], root={"20": 50 * GIB})
    r = run(ctl, ssd, 82, raid_type="raid_dp", adp="root-data")  # 41 per node: 1 spare, 24 partitioned, 16 whole
    # partitions and whole drives in groups of their own; the 24th partition would open a group of 1 (+2 parity)
    # costing more than it adds, so it is kept as a spare: (21+2) partitions, (14+2) whole drives
    assert r.aggregates[0].group_sizes == (23, 16)
    r = run(ctl, ssd, 80, shelves=2, raid_type="raid_dp", adp="root-data", spares_per_node=16)  # 24 partitioned
    assert r.aggregates[0].group_sizes == (23,)  # the 24th partition stays spare (see above)
    r = run(ctl, ssd, 80, shelves=2, raid_type="raid_dp", adp="root-data", spares_per_node=16, raid_group_size=20)
    assert r.aggregates[0].group_sizes == (12, 12)  # 24 partitions at size 20 -> 2 even groups
    # 40 whole SSD per node with default 23 -> 2 groups of 20 (18+2)
    r = run(controller(), ssd, 82, raid_type="raid_dp")
    assert r.aggregates[0].group_sizes == (20, 20)
    assert r.usable_bytes == pytest.approx(2 * 36 * 762_847 * MIB * 0.9)
    assert "2 x (18+2)" in r.layout[0]


def test_adpv2_partitions_split_between_nodes():
    ssd = drive("nvme", 1_500 * GB, 1_300 * GIB, "SSD", groups={"raid_dp": {"default": 23, "max": 28}})
    ctl = controller(adp=["root-data-data"], root={"12": 40 * GIB})
    r = run(ctl, ssd, 24, raid_type="raid_dp", adp="root-data-data", spares_per_node=1)
    part = (1_300 - 40) * GIB / 2  # 24 partitioned drives -> 12 per node key -> 40 GiB
    assert [a.group_sizes for a in r.aggregates] == [(23,), (23,)]
    assert r.usable_bytes == pytest.approx(2 * 21 * part * 0.9)
    # the whole spare drive of the pair is partitioned too (NetApp KB, ADP rules: "the spare can be partitioned
    # across the nodes"): one spare data partition per node, its root partition among the 24 root partitions
    assert r.step("Spares").bytes_before - r.step("Spares").bytes_after == pytest.approx(2 * part)
    root = r.step("ADP root partitions")
    assert root.bytes_before - root.bytes_after == pytest.approx(24 * 40 * GIB)
    # single node: both data partitions of a drive in different groups -> at least two groups
    single = run(ctl, ssd, 10, raid_type="raid_dp", adp="root-data-data", spares_per_node=1, nodes=1)
    assert len(single.aggregates[0].group_sizes) == 2 and sum(single.aggregates[0].group_sizes) == 18


def test_wafl_reserve_rule():
    assert wafl_reserve_fraction("9.0", True, 40 * TIB)[0] == 0.10
    assert wafl_reserve_fraction("9.12.1", True, 40 * TIB)[0] == 0.05
    assert wafl_reserve_fraction("9.12.1", False, 40 * TIB)[0] == 0.10
    assert wafl_reserve_fraction("9.14.1", False, 40 * TIB)[0] == 0.05
    assert wafl_reserve_fraction("9.15.1", True, 20 * TIB)[0] == 0.10
    assert wafl_reserve_fraction(None, True, 40 * TIB)[0] == 0.10


def test_ddp_30_drives():
    es = controller("e2800", family="E-Series")
    r = run(es, drive(), 30, raid_type="ddp", spares_per_node=0, ddp_preservation_drives=2)
    assert r.usable_bytes == pytest.approx(28 * 1_142_352 * MIB * 0.8)
    small = run(es, drive(), 10, raid_type="ddp", spares_per_node=0)
    assert small.usable_bytes == 0 and any("at least 11" in p for p in small.problems)


def test_eseries_raid6_raid10():
    es = controller("e2800", family="E-Series")
    assert run(es, drive(), 10, raid_type="raid6", spares_per_node=0).usable_bytes == pytest.approx(8 * 1_142_352 * MIB)
    assert run(es, drive(), 10, raid_type="raid10",
               spares_per_node=0).usable_bytes == pytest.approx(5 * 1_142_352 * MIB)


def vsan_catalog():
    cap = drive("cap400", 400 * GB, 400 * GB, "SSD", groups={})
    cache = drive("cache400", 400 * GB, 400 * GB, "SSD", groups={})
    host = HciNode(id="vhost", name="vhost", platform="x", cores=20, memory_gib=256, max_disk_groups=5,
                   max_capacity_per_group=7, cache_drive="cache400", capacity_drive="cap400", network_gbps=10,
                   slack_space_pct=30, dedupe_metadata_pct=5,
                   sources={k: SRC for k in ("cores", "memory_gib", "max_disk_groups", "max_capacity_per_group",
                                             "network_gbps", "slack_space_pct", "dedupe_metadata_pct")})
    return Catalog([cap, cache, host])


@pytest.mark.parametrize("policy,hosts,factor",
                         [("ftt1-raid1", 4, 2.0), ("ftt1-raid5", 4, 4 / 3), ("ftt2-raid6", 6, 1.5),
                          ("ftt2-raid1", 5, 3.0)])
def test_vsan_policies(policy, hosts, factor):
    node = HciClusterNode(id="v", catalog_id="vhost", hosts=hosts, disk_groups_per_host=2, capacity_drives_per_group=4,
                          policy=policy, dedupe_compression=True)
    r = evaluate_capacity(Scenario(name="v", nodes=[node]), vsan_catalog()).systems[0]
    raw = hosts * 8 * 400 * GB
    assert r.raw_bytes == raw
    assert r.usable_bytes == pytest.approx(raw * 0.95 / factor * 0.7)
    assert vsan_policy_factor(policy) == pytest.approx(factor)
    assert r.problems == ()
    assert any("Cache tier" in n for n in r.notes)


def test_vsan_too_few_hosts():
    node = HciClusterNode(id="v", catalog_id="vhost", hosts=4, policy="ftt2-raid6")
    r = evaluate_capacity(Scenario(name="v", nodes=[node]), vsan_catalog()).systems[0]
    assert any("at least 6 hosts" in p and p.startswith("HCI cluster 'vhost': ") for p in r.problems)  # r2 #5: no id


def cvo_catalog():
    vm = CloudVm(id="vm", name="vm", provider="Azure", vm_size="Standard_DS4_v2", vcpu=8, ram_gib=28, network_mbps=6000,
                 max_data_disks=32, max_uncached_disk_iops=25600, max_uncached_disk_mbps=384, licences=["std"],
                 protocols=["iSCSI"], sources={k: SRC for k in ("vcpu", "ram_gib", "network_mbps", "max_data_disks",
                                                               "max_uncached_disk_iops", "max_uncached_disk_mbps")})
    disk = CloudDisk(id="p30", name="P30", provider="Azure", tier="Premium_LRS", size_bytes=1024 * GIB, iops=5000,
                     mbps=200, latency_us=2000, sources={k: SRC for k in ("size_bytes", "iops", "mbps", "latency_us")})
    lic = Licence(id="std", name="Standard", product="CVO", capacity_cap_bytes=10 * TIB, as_of="2019",
                  sources={"capacity_cap_bytes": SRC})
    return Catalog([vm, disk, lic])


def test_cvo_licence_cap_and_ha():
    below = CloudVmNode(id="cvo", catalog_id="vm", licence="std", disk="p30", disk_count=6)
    r = evaluate_capacity(Scenario(name="c", nodes=[below]), cvo_catalog()).systems[0]
    assert r.usable_bytes == pytest.approx(6 * 1024 * GIB * 0.9)
    reached = below.with_changes(disk_count=20, ha=True)
    r = evaluate_capacity(Scenario(name="c", nodes=[reached]), cvo_catalog()).systems[0]
    assert r.raw_bytes == 40 * 1024 * GIB
    # the licence caps disk capacity (CVO release notes, 'Storage limits'), the WAFL reserve comes off what it allows
    assert r.step("Licence capacity cap").bytes_after == 10 * TIB
    assert r.usable_bytes == pytest.approx(10 * TIB * 0.9)
    assert r.step("Licence capacity cap").inputs["cap reached"] == "yes"
    assert r.step("HA mirror").bytes_after == 20 * 1024 * GIB


@pytest.mark.parametrize("software, disks, fraction", [
    ("9.13.1", 32, 0.10),  # 32 TiB aggregate, before ONTAP 9.14.1
    ("9.14.1", 32, 0.05),  # 9.14.1: aggregates of 30 TB or more on the FAS platforms (CVO counted with them)
    ("9.14.1P3", 29, 0.10),  # under 30 TiB
    (None, 32, 0.05),  # no release set: the current release
])
def test_cvo_wafl_reserve_by_release_and_aggregate_size(software, disks, fraction):
    """WAFL_RESERVE_SOURCE (ONTAP documentation, 'Determine space usage in a volume or aggregate'): 10%, 5% for
    aggregates greater than 30 TB from ONTAP 9.14.1 on all FAS platforms; Cloud Volumes ONTAP is counted with
    them. A licence large enough not to bind, so usable = disks x (1 - fraction)."""
    cat = cvo_catalog()
    lic = Licence(id="big", name="Premium", product="CVO", capacity_cap_bytes=368 * TIB, as_of="2024",
                  sources={"capacity_cap_bytes": SRC})
    vm = cat.get("vm").model_copy(update={"licences": ["std", "big"]})
    cat = Catalog([vm, cat.get("p30"), cat.get("std"), lic])
    node = CloudVmNode(id="cvo", catalog_id="vm", licence="big", disk="p30", disk_count=disks, software=software)
    r = evaluate_capacity(Scenario(name="c", nodes=[node]), cat).systems[0]
    assert r.problems == ()
    assert r.usable_bytes == pytest.approx(disks * TIB * (1 - fraction))
    step = r.step("WAFL reserve")
    assert "determine-space-usage-volume-aggregate-concept" in step.source
    assert step.inputs["release"] == (software or CURRENT_ONTAP_RELEASE)


def test_effective_side_hand_computed():
    wl = Workload(id="w", name="db", target="c", block_kib=8, read_pct=70, random_pct=100, dataset_bytes=10 * TB,
                  provisioned_bytes=20 * TB, compression_ratio=2.0, compaction_ratio=1.25, dedupe_ratio=1.0,
                  snapshots=SnapshotSchedule(interval_h=4, retention_h=24, change_pct_per_h=1), clones=2,
                  growth_pct_per_year=12)
    r = run(controller(), drive(), 24, workloads=[wl])
    e = r.efficiency
    assert e.physical_data_bytes == pytest.approx(4 * TB)
    assert e.snapshot_copies == 6 and e.snapshot_physical_bytes == pytest.approx(6 * 0.04 * 4 * TB)
    assert e.thin_unallocated_bytes == pytest.approx(10 * TB)
    logical = 10 * TB + 6 * 10 * TB + 2 * 10 * TB
    physical = 4 * TB + 0.96 * TB
    assert r.efficiency_ratio == pytest.approx(logical / physical)
    # the headline: data reduction only, 10 TB logical / 4 TB physical (2:1 compression x 1.25:1 compaction)
    assert r.data_reduction_ratio == pytest.approx(2.5)
    assert r.effective_bytes == pytest.approx(r.usable_bytes * 2.5)
    assert r.effective_with_snapshots_bytes == pytest.approx(r.usable_bytes * logical / physical)
    reduction = [s for s in r.steps if s.name in ("Compression", "Compaction", "Deduplication")]
    assert reduction[0].bytes_before == r.usable_bytes and reduction[-1].bytes_after == pytest.approx(r.effective_bytes)
    chain = [s for s in r.steps
             if s.name in ("Compression", "Compaction", "Deduplication", "Snapshot copies", "FlexClone copies")]
    assert chain[-1].bytes_after == pytest.approx(r.effective_with_snapshots_bytes)
    # 12 % a year: x 1.12 every 12 months, (1.12)^(months / 12)
    assert r.months_until_full == pytest.approx(12 * math.log(r.usable_bytes / physical) / math.log(1.12))
    assert r.step("Thin provisioning").delta_bytes == 0


# ----------------------------------------------------------------------------- bad input


def test_raid_group_larger_than_drives():
    r = run(controller(), drive(), 12, raid_type="raid_dp", raid_group_size=20)
    assert any("larger than" in p and p.startswith("controller 'fas': ") for p in r.problems)  # label only (r2 #5)


def test_too_few_drives_and_zero_drives():
    r = run(controller(), drive(), 4, raid_type="raid_dp")
    assert any("fewer than the 5" in p for p in r.problems)
    assert r.usable_bytes >= 0
    r = run(controller(), drive(), 0, raid_type="raid_dp")
    assert r.problems and r.usable_bytes == 0


def test_missing_catalog_ids():
    scenario = Scenario(name="t", nodes=[
        ControllerNode(id="ctl", catalog_id="no-such-controller"),
        HciClusterNode(id="hci", catalog_id="no-such-host"),
    ])
    result = evaluate_capacity(scenario, Catalog([]))
    assert any("ctl" in p and "no-such-controller" in p for p in result.problems)
    assert any("hci" in p and "no-such-host" in p for p in result.problems)
    assert all(s.usable_bytes == 0 for s in result.systems)


def test_missing_drive_and_orphans():
    ctl, drv = controller(), drive()
    scenario = Scenario(name="t", nodes=[
        ControllerNode(id="ctl", catalog_id=ctl.id),
        ShelfNode(id="s1", catalog_id=SHELF.id, drive="no-such-drive", drive_count=12),
        ShelfNode(id="s2", catalog_id=SHELF.id, drive=drv.id, drive_count=12),
    ], links=[Link(id="l", source="s1", target="ctl", link_type="sas")],
        workloads=[Workload(id="w", name="w", target="nowhere", block_kib=8, read_pct=50, random_pct=50)])
    result = evaluate_capacity(scenario, Catalog([ctl, drv, SHELF]))
    # named as on the canvas (two shelves of one model: "#1", "#2"), never by their ids
    assert any("shelf 'shelf #1'" in p and "no-such-drive" in p for p in result.problems)
    assert any("shelf 'shelf #2'" in p and "no controller" in p for p in result.problems)
    assert not any("'s1'" in p or "'s2'" in p or "(s2)" in p for p in result.problems)
    assert any("nowhere" in p for p in result.problems)


def test_spares_more_than_drives():
    r = run(controller(), drive(), 2, raid_type="raid_dp", spares_per_node=2)
    assert any("spare" in p for p in r.problems)
    assert r.usable_bytes == 0


def test_engine_says_where_the_usable_side_of_the_waterfall_ends():
    """usable_step_count: the steps before it lead to usable (a licence cap that does not bind included), the
    rest are the efficiency side; views no longer guess it from the numbers (a 1.00:1 compression step
    changes nothing either)."""
    from models.evaluate import evaluate
    from models.project import load
    from models.resources import examples_dir

    system = evaluate(load(examples_dir() / "cvo-azure-ds14-ha-oltp.toml")).capacity.systems[0]
    names = [s.name for s in system.steps]
    k = system.usable_step_count
    assert names[k - 2:k] == ["Licence capacity cap", "WAFL reserve"] and names[k] == "Compression"
    assert system.steps[k - 1].bytes_after == pytest.approx(system.usable_bytes)


def test_a_vanishing_growth_rate_is_no_growth_not_a_division_by_zero():
    """Found by hypothesis: growth 5e-324 %/year makes log(1 + g) exactly 0."""
    from models.capacity.efficiency import _months_until_full

    assert _months_until_full([(1.0, 5e-324)], 10.0) is None
    assert _months_until_full([(1.0, 5e-324), (1.0, 12.0)], 10.0) > 0
