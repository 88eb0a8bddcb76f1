"""The seed documents' test configurations as scenarios, shared by calibration and the validation cases.

Each builder returns a :class:`models.project.model.Scenario` made of bundled catalog ids, so that the
calibration (``models.calibration``) and the published-case checks (``models.validation.performance_cases``)
run exactly the same model as ``evaluate_performance``. Where the seed does not print a setting, the builder's
docstring states the assumption (the case functions repeat it in their interpretation text).
"""

from __future__ import annotations

from models.project.model import (
    CloudVmNode,
    ControllerNode,
    HciClusterNode,
    HostNode,
    Link,
    Scenario,
    ShelfNode,
    SwitchNode,
    Workload,
)

TB = 10**12
GIB = 2**30

AFF8080_CONCURRENCY = 512
"""Seed 000: 8 SQL Server hosts at peak; 64 outstanding I/Os per host is assumed. It agrees with Little's law on
the seed's own numbers: 350K IOPS x 1.47 ms SQL client latency at peak = 514 outstanding I/Os."""

A800_USERS = 450
"""Seed 001 §3.1/§3.5: 3 to 450 SLOB users; the last (peak) load point is 450 users, one outstanding read each
(SLOB sessions issue single-block synchronous reads)."""

A800_THINK_TIME_MS = A800_USERS / 2_200_000 * 1e3 - 0.14
"""Seed 001 does not print the SLOB sessions' time between I/Os (Oracle processing on the hosts). Little's law
on the NVMe/FC peak point (450 users, 2,200K IOPS, 0.14 ms) gives it: 450 / 2.2M - 0.14 ms = 0.0645 ms. The
same think time is used for every A800 case (it is the hosts' work, not the protocol's)."""

CVO_DEFAULT_DISK = "azure-premium-lrs-p30"
CVO_DISK_COUNT = 4
"""Seed 004 does not print the CVO data disks; 4 x P30 (1 TiB, 5,000 IOPS, 200 MB/s each) is assumed for every
VM (an aggregate of a few TiB, within the Explore 2 TB licence only partly: the test data set was small)."""

CVO_WORKING_SET_BYTES = 1 * TB
"""Seed 004 does not print Iometer's data set; 1 TB (larger than every VM's memory) is assumed for the random
workloads."""

CVO_STREAM_READ_WORKING_SET_BYTES = 4 * GIB
"""Seed 004 does not print the streaming-read test's data set either, but its results bound it: DS3_v2 read
340 MB/s (Table 3), far above the 192 MB/s its uncached disks allow, and §4.2 puts the differences between VMs down
to "networking capabilities ... and the number of CPUs" (not disks), with §2 adding that "memory contributes
heavily to read performance". So the data read must have been served from ONTAP's memory: assumed 4 GiB, which
fits the read cache of the smallest VM (DS3_v2: 14 GiB x the assumed cache share)."""

CVO_STREAM_CONCURRENCY = 64
"""Streaming tests: outstanding I/O count not printed; 64 (enough to saturate every VM) is assumed."""


def aff8080(software: str = "9.0", concurrency: int = AFF8080_CONCURRENCY, read_pct: float = 90,
            block_kib: float = 8, random_pct: float = 100, drives_per_shelf: int = 24,
            target_iops: float | None = None, dataset_bytes: int = int(11.2 * TB)) -> Scenario:
    """Seed 000 §3.2-3.5: 8 hosts (8Gb FC, 4 ports each, two dual-port QLE2562), Brocade 6510, AFF8080A EX HA
    pair with 8 x 16Gb target ports, 2 x DS2246 with 24 x 800GB SSD each (one per node), ADP root-data, RAID DP
    21+2 + 1 spare per node; TPC-E-like 8K 90/10 random over 11.2 TB."""
    nodes = [
        HostNode(id="sql", catalog_id="fujitsu-primergy-rx300-s7", count=8, adapter="qlogic-qle2562",
                 adapters_per_host=2),
        SwitchNode(id="fabric", catalog_id="brocade-6510"),
        ControllerNode(id="aff", catalog_id="netapp-aff8080a-ex", software=software, raid_type="raid_dp",
                       raid_group_size=23, spares_per_node=1, adp="root-data"),
        ShelfNode(id="shelf1", catalog_id="netapp-ds2246", drive="netapp-x447a-800gb-ssd",
                  drive_count=drives_per_shelf),
        ShelfNode(id="shelf2", catalog_id="netapp-ds2246", drive="netapp-x447a-800gb-ssd",
                  drive_count=drives_per_shelf),
    ]
    links = [
        Link(id="l-host", source="sql", target="fabric", link_type="fc-8g", ports=32),  # 8 hosts x 4
        Link(id="l-ctrl", source="fabric", target="aff", link_type="fc-16g", ports=8),
        Link(id="l-s1", source="aff", target="shelf1", link_type="sas-6g", ports=4),
        Link(id="l-s2", source="aff", target="shelf2", link_type="sas-6g", ports=4),
    ]
    w = Workload(id="tpce", name="TPC-E-like OLTP", target="aff", block_kib=block_kib, read_pct=read_pct,
                 random_pct=random_pct, concurrency=concurrency, slo_ms=1.0, dataset_bytes=dataset_bytes,
                 target_iops=target_iops)
    return Scenario(name=f"AFF8080A EX ONTAP {software}", nodes=nodes, links=links, workloads=[w])


def a800(software: str = "9.5", protocol: str = "FCP", users: int = A800_USERS,
         think_time_ms: float = A800_THINK_TIME_MS, read_pct: float = 100, block_kib: float = 8) -> Scenario:
    """Seed 001 §3.2-3.5: 10 hosts with one 32Gb FC initiator port each, Brocade G630, AFF A800 HA pair with
    8 x 32Gb target ports, 24 x 1.5TB internal NVMe SSD, ADPv2, RAID DP 23 partitions + 1 spare per node; SLOB
    100% SELECT (8K random reads) over 1.5 TB; ``protocol`` "FCP" or "NVMe/FC" picks the link types."""
    link_type = "fc-32g" if protocol == "FCP" else "nvme-fc-32g"
    nodes = [
        HostNode(id="rac", catalog_id="fujitsu-primergy-rx300-s7", count=10, adapter="emulex-lpe32002"),
        SwitchNode(id="fabric", catalog_id="brocade-g630"),
        ControllerNode(id="a800", catalog_id="netapp-aff-a800", software=software, raid_type="raid_dp",
                       spares_per_node=1, adp="root-data-data"),
        ShelfNode(id="bays", catalog_id="netapp-a800-internal-nvme", drive="netapp-1500gb-nvme-ssd-a800",
                  drive_count=24),
    ]
    links = [
        Link(id="l-host", source="rac", target="fabric", link_type=link_type, ports=10),  # 10 hosts x 1
        Link(id="l-ctrl", source="fabric", target="a800", link_type=link_type, ports=8),
        Link(id="l-bays", source="a800", target="bays", link_type="pcie-nvme", ports=24),
    ]
    w = Workload(id="slob", name="SLOB", target="a800", block_kib=block_kib, read_pct=read_pct, random_pct=100,
                 concurrency=users, think_time_ms=think_time_ms, slo_ms=1.0, dataset_bytes=int(1.5 * TB))
    return Scenario(name=f"AFF A800 ONTAP {software} {protocol}", nodes=nodes, links=links, workloads=[w])


def ef550(target_mbps: float | None = 2500) -> Scenario:
    """Seed 003: HP DL980 G7 direct-attached to the EF550 with 8 x 8Gb FC (4 per controller), one 24-bay tray of
    800GB SSD, no RAID ("No RAID stripe", modelled as RAID 0); SAS mixed analytics: 256 KiB blocks, 50% reads,
    sequential (block size and read share are assumptions: the seed prints neither)."""
    nodes = [
        HostNode(id="sas", catalog_id="hp-dl980-g7", adapter="qlogic-qle2562", adapters_per_host=4),
        ControllerNode(id="ef", catalog_id="netapp-ef550", raid_type="raid0", spares_per_node=0),
        ShelfNode(id="tray", catalog_id="netapp-ef550-integrated-24", drive="netapp-eseries-800gb-ssd",
                  drive_count=24),
    ]
    links = [
        Link(id="l-host", source="sas", target="ef", link_type="fc-8g", ports=8),
        Link(id="l-tray", source="ef", target="tray", link_type="sas-6g", ports=8),
    ]
    w = Workload(id="sasmix", name="SAS mixed analytics", target="ef", block_kib=256, read_pct=50, random_pct=0,
                 concurrency=256, slo_ms=20.0, target_mbps=target_mbps, dataset_bytes=8 * TB)
    return Scenario(name="EF550 SAS", nodes=nodes, links=links, workloads=[w])


def spinning(target_mbps: float | None = 2500, drives: int = 192, random_pct: float = 0, read_pct: float = 50,
             block_kib: float = 256) -> Scenario:
    """Seed 003: the 192-spindle array: 4 controllers, 2 x 8Gb ports each to the host (8 x 8Gb), 192 x 300GB
    15K FC drives in RAID5 3+1 sets (12 shelves of 16 drives on 4Gb FC-AL), no hot spares modelled; the same
    SAS mixed analytics workload as the EF550 case."""
    shelves = max(1, -(-drives // 16))
    nodes = [
        HostNode(id="sas", catalog_id="hp-dl980-g7", adapter="qlogic-qle2562", adapters_per_host=4),
        ControllerNode(id="array", catalog_id="generic-spinning-fc-array-4x16", raid_type="raid5",
                       raid_group_size=4, spares_per_node=0),
    ]
    links = [Link(id="l-host", source="sas", target="array", link_type="fc-8g", ports=8)]
    left = drives
    for k in range(shelves):
        n = min(16, left)
        left -= n
        nodes.append(ShelfNode(id=f"enc{k + 1}", catalog_id="generic-fc-al-16", drive="generic-300gb-15k-fc-hdd",
                               drive_count=n))
        links.append(Link(id=f"l-enc{k + 1}", source="array", target=f"enc{k + 1}", link_type="fc-al-4g", ports=2))
    w = Workload(id="sasmix", name="SAS mixed analytics", target="array", block_kib=block_kib, read_pct=read_pct,
                 random_pct=random_pct, concurrency=256, slo_ms=20.0, target_mbps=target_mbps, dataset_bytes=8 * TB)
    return Scenario(name="Spinning array SAS", nodes=nodes, links=links, workloads=[w])


VSAN_TARGET_IOPS = 80_000
"""Seed 002 gives ~8,000 TPS, not IOPS. Assumed: about 10 physical I/Os per TPC-E-like transaction at the
storage, 80,000 IOPS for the cluster. The predicted latencies barely move with this choice (the all-flash
cluster runs far below saturation: its latency is the vSAN software path)."""


def vsan(policy: str = "ftt1-raid1", dedupe: bool = True, target_iops: float | None = VSAN_TARGET_IOPS,
         read_pct: float = 90) -> Scenario:
    """Seed 002: 4 vSAN 6.2 all-flash hosts, 2 disk groups each (1 x 400GB cache + 4 x 400GB capacity SSD),
    dedupe & compression on, policy FTT=1 RAID1 or RAID5 3+1; TPC-E-like load as 8K 90/10 random (assumed)."""
    nodes = [HciClusterNode(id="vsan", catalog_id="vsan-6.2-allflash-host", hosts=4, disk_groups_per_host=2,
                            capacity_drives_per_group=4, policy=policy, dedupe_compression=dedupe)]
    w = Workload(id="tpce", name="TPC-E-like (Benchmark Factory)", target="vsan", block_kib=8, read_pct=read_pct,
                 random_pct=100, concurrency=256, slo_ms=5.0, target_iops=target_iops,
                 dataset_bytes=int(1.4 * TB))
    return Scenario(name=f"vSAN {policy}", nodes=nodes, links=[], workloads=[w])


CVO_WORKLOADS = {
    "oltp": {"block_kib": 8, "read_pct": 70, "random_pct": 100},
    "stream-read": {"block_kib": 64, "read_pct": 100, "random_pct": 0},
    "stream-write": {"block_kib": 64, "read_pct": 0, "random_pct": 0},
    "analytics": {"block_kib": 16, "read_pct": 50, "random_pct": 100},
}
"""Seed 004 §4: the four Iometer workloads."""

CVO_VM_IDS = {
    "Standard_DS3_v2": "azure-standard-ds3-v2",
    "Standard_DS4_v2": "azure-standard-ds4-v2",
    "Standard_DS14_v2": "azure-standard-ds14-v2",
}
CVO_LICENCES = {"azure-standard-ds3-v2": "cvo-explore", "azure-standard-ds4-v2": "cvo-standard",
                "azure-standard-ds14-v2": "cvo-premium"}


def cvo(vm_id: str, ha: bool, workload: str, concurrency: int = CVO_STREAM_CONCURRENCY, tiering: str = "none",
        cold_data_pct: float = 0.0, disk: str = CVO_DEFAULT_DISK, disk_count: int = CVO_DISK_COUNT,
        working_set_bytes: int | None = None) -> Scenario:
    """Seed 004 §3: Cloud Volumes ONTAP 9.5 on an Azure VM (single node or HA pair), Premium_LRS data disks,
    normal write speed, an Iometer VM of the same size over iSCSI (modelled as one host on a 10GbE-class link:
    the VMs' own network limits are the CVO VM's stations). ``workload`` is a key of :data:`CVO_WORKLOADS`;
    ``working_set_bytes`` defaults to :data:`CVO_STREAM_READ_WORKING_SET_BYTES` for "stream-read" and
    :data:`CVO_WORKING_SET_BYTES` otherwise."""
    spec = CVO_WORKLOADS[workload]
    if working_set_bytes is None:
        working_set_bytes = CVO_STREAM_READ_WORKING_SET_BYTES if workload == "stream-read" else CVO_WORKING_SET_BYTES
    nodes = [
        HostNode(id="iometer", catalog_id="fujitsu-primergy-rx300-s7", adapter="generic-nic-25gbe-2p"),
        CloudVmNode(id="cvo", catalog_id=vm_id, licence=CVO_LICENCES.get(vm_id, "cvo-premium"), ha=ha, disk=disk,
                    disk_count=disk_count, raid_type="raid0", write_speed="normal", tiering=tiering,
                    cold_data_pct=cold_data_pct),
    ]
    links = [Link(id="l-iscsi", source="iometer", target="cvo", link_type="iscsi-25g", ports=1)]
    w = Workload(id=workload, name=workload, target="cvo", concurrency=concurrency, slo_ms=20.0,
                 working_set_bytes=working_set_bytes, dataset_bytes=max(working_set_bytes, CVO_WORKING_SET_BYTES),
                 **spec)
    return Scenario(name=f"CVO {vm_id} {'HA' if ha else 'single'} {workload}", nodes=nodes, links=links,
                    workloads=[w])


def cvo_concurrency(value: float, latency_ms: float | None, workload: str) -> int:
    """Iometer's outstanding I/O count for a seed 004 row: not printed, so Little's law N = X R on the row
    itself where a latency is printed (IOPS = MB/s / block size), else :data:`CVO_STREAM_CONCURRENCY`."""
    if latency_ms is None:
        return CVO_STREAM_CONCURRENCY
    block = CVO_WORKLOADS[workload]["block_kib"] * 1024
    iops = value if workload == "oltp" else value * 1e6 / block
    return max(1, int(round(iops * latency_ms / 1e3)))
