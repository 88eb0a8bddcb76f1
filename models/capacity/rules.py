"""Capacity rules and their constants, each with its source.

Sources (public_facts.md gathers them):

- TR-3838 (NetApp Storage Subsystem Configuration Guide): right-sized capacities and ONTAP default / maximum RAID
  group sizes (RAID4 8/14, RAID DP 16/28 for performance HDD, 23/28 for SSD, 14/20 for capacity HDD).
- ONTAP documentation: parity per RAID group (RAID4 1, RAID DP 2, RAID-TEC 3); minimum drives RAID DP 5,
  RAID-TEC 7; RAID-TEC maximum group size 29; WAFL reserve 10%, 5% for aggregates of 30 TB or more on AFF from
  ONTAP 9.12.1 and on all platforms from 9.14.1; ADP root-data (ADPv1) and root-data-data (ADPv2), up to 24 / 48
  drives partitioned; a RAID group never holds two partitions of one drive.
- SANtricity documentation: DDP RAID 6 stripes of 8 data + 2 parity, minimum 11 drives, preservation capacity in
  drives' worth; volume groups RAID 0/1/10/5/6, minimum drives 2 (RAID 1/10), 3 (RAID 5), 5 (RAID 6), at most
  30 drives for RAID 5/6.
- VMware vSAN documentation: FTT policies (RAID1 n+1 copies on 2n+1 hosts, RAID5 3+1 1.33x on >= 4 hosts,
  RAID6 4+2 1.5x on >= 6 hosts, erasure coding all-flash only), slack space 25-30%, dedupe & compression metadata
  about 5% of raw.
- NetApp Cloud Volumes ONTAP documentation: RAID0 on cloud disks, HA mirrors the data, licence cap counts the HA
  pair once.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from models.catalog import Drive

# The reference notes gather each source's passages under these headings (public_facts.md): "ONTAP drive
# right-sizing", "ONTAP partitioning, reserves, RAID and spares", "E-Series / EF-Series", "VMware vSAN", "Cloud Volumes
# ONTAP and Azure". The strings below reach problem messages as they are, so they name the documents only.
TR3838 = "TR-3838 Storage Subsystem Configuration Guide"
ONTAP_DOCS = "ONTAP documentation"
SANTRICITY_DOCS = "SANtricity documentation"
VSAN_DOCS = "VMware vSAN documentation"
CVO_DOCS = "NetApp Cloud Volumes ONTAP documentation"
SPARES_SOURCE = ("hot spares per node as the design sets them; NetApp 'ONTAP 9 Disks and Aggregates Power Guide', "
                 "'How to determine the number of disks or disk partitions required for an aggregate': at least one "
                 "hot spare disk or partition for all-flash aggregates, two for other aggregates")
"""The source of an ONTAP system's Spares step: the count is the design's, the minimum ONTAP asks is the guide's (the
step once read "project: spares per node; ONTAP documentation (hot spares)", which a customer cannot look up: review
57 #14)."""

POLICY_LABEL = {
    "ftt1-raid1": "FTT=1 RAID 1",
    "ftt2-raid1": "FTT=2 RAID 1",
    "ftt3-raid1": "FTT=3 RAID 1",
    "ftt1-raid5": "FTT=1 RAID 5",
    "ftt2-raid6": "FTT=2 RAID 6",
}
"""vSAN storage policy -> its name (VMware's FTT and RAID level, RAID written as the RAID names are)."""


def policy_label(policy: str) -> str:
    """The display name of a vSAN storage policy (``ftt1-raid5`` -> ``FTT=1 RAID 5``); unknown reads as itself."""
    return POLICY_LABEL.get(policy, policy)


RAID_LABEL = {
    "none": "no RAID",
    "raid0": "RAID 0",
    "raid1": "RAID 1",
    "raid4": "RAID 4",
    "raid_dp": "RAID DP",
    "raid_tec": "RAID-TEC",
    "raid5": "RAID 5",
    "raid6": "RAID 6",
    "raid10": "RAID 10",
    "ddp": "DDP",
}
"""RAID type -> the name the field uses (NetApp and SANtricity documentation write "RAID 5", "RAID DP",
"RAID-TEC", "DDP"): the one table of RAID display names; ``models.present`` re-exports it for the views."""


def raid_label(raid_type: str) -> str:
    """The display name of a RAID type (``raid5`` -> ``RAID 5``); an unknown type reads as itself."""
    return RAID_LABEL.get(raid_type, raid_type)

PARITY_PER_GROUP = {"raid4": 1, "raid_dp": 2, "raid_tec": 3, "raid5": 1, "raid6": 2}
"""Parity members per RAID group (ONTAP documentation; SANtricity documentation for RAID 5/6)."""

ONTAP_RAID_TYPES = ("raid4", "raid_dp", "raid_tec")
ONTAP_MIN_DRIVES = {"raid4": 2, "raid_dp": 5, "raid_tec": 7}
"""Minimum members of an ONTAP data aggregate: RAID DP 5, RAID-TEC 7 (ONTAP documentation); RAID4 2 is
assumed: one data + one parity member, the smallest group RAID4 can build."""

ARRAY_MIN_DRIVES = {"raid0": 1, "none": 1, "raid1": 2, "raid10": 2, "raid4": 2, "raid5": 3, "raid6": 5,
                    "raid_dp": 3, "raid_tec": 4, "ddp": 11}
"""Minimum drives of an E-Series / generic volume group or pool (SANtricity documentation; RAID4 / DP / TEC on a
generic array assumed: parity + 1)."""

ARRAY_MAX_GROUP = 30
"""E-Series RAID 5 / 6 volume groups hold at most 30 drives (SANtricity documentation); used as the default group
size of a generic array when the user gives none."""

DDP_DATA, DDP_PARITY = 8, 2
DDP_MIN_DRIVES = 11

SANTRICITY_POOLS_DOC = ("NetAppDocs e-series-santricity, 'sm-storage/how-pools-and-volume-groups-work.adoc' and "
                        "'sm-storage/create-pool-manually.adoc' (docs.netapp.com/us-en/e-series-santricity)")
"""Where the pool rules below are published: "System Manager automatically sets the RAID level at 6 in an 8+2
configuration"; "Pools have a minimum capacity of 11 drives; however, one drive's worth of capacity is reserved for
spare capacity ... called preservation capacity"; "The default amount of capacity that is preserved is based on the
number of drives in the pool"; "The maximum amount of capacity that can be preserved (expressed as a number of
drives) is 10"; pool candidates: "for every six drives in a pool, System Manager reserves one drive for preservation
capacity"."""

DDP_MAX_PRESERVATION_DRIVES = 10
"""Most preservation capacity a pool can keep, in drives' worth (:data:`SANTRICITY_POOLS_DOC`)."""

DDP_DRIVES_PER_PRESERVED = 6
"""SANtricity's default preservation: one drive's worth for every six drives in the pool
(:data:`SANTRICITY_POOLS_DOC`)."""

DDP_MAX_POOL_BYTES = 6 * 10**15
DDP_MAX_POOL_BYTES_LARGE_DRIVES = 12 * 10**15
DDP_LARGE_DRIVE_BYTES = 23 * 10**12
"""Largest Dynamic Disk Pool: "increased to 12 PB whenever the capacity of each of the individual drives within the
pool is greater than 23 TB in size. If the individual drive capacity is less than 23 TB in size, the DDP capacity is
6 PB" (NetAppDocs e-series, 'whats-new.adoc', SANtricity 11.90). Read as decimal PB / TB of the drives' marketed
capacity."""


SANTRICITY_OPTIMIZATION_DOC = (
    "NetAppDocs e-series-santricity, 'What is optimization capacity for pools?' (docs.netapp.com/us-en/"
    "e-series-santricity/sm-storage/what-is-optimization-capacity-pools.html): 'a portion of the usable capacity set "
    "aside as additional optimization capacity ... is not available for volume creation'; 'When a pool is created, a "
    "recommended optimization capacity is generated'; 'The Additional Optimization Capacity slider is only available "
    "for EF600 and EF300 storage systems'")
"""Where the EF300 / EF600 pools' additional optimization capacity comes from; the recommended amount is not
published as a figure (nor in the SANtricity CLI's create / set diskPool parameters), so a design counts it only
when it gives the percentage."""

OPTIMIZATION_CAPACITY_MODELS = ("EF600", "EF300")
"""The arrays whose SSD pools take an additional optimization capacity (:data:`SANTRICITY_OPTIMIZATION_DOC`)."""


def has_optimization_capacity(controller_name: str, media: str) -> bool:
    """True for an SSD pool on an EF300 / EF600 (:data:`OPTIMIZATION_CAPACITY_MODELS`, matched in the catalog
    record's name)."""
    return media == "SSD" and any(m in controller_name.upper() for m in OPTIMIZATION_CAPACITY_MODELS)


def ddp_default_preservation(drives: int) -> int:
    """SANtricity's default preservation capacity of a pool of ``drives`` drives, in drives' worth: one for every
    six drives, at least one (an 11-drive pool, the minimum, keeps one) and at most
    :data:`DDP_MAX_PRESERVATION_DRIVES` (:data:`SANTRICITY_POOLS_DOC`)."""
    return min(DDP_MAX_PRESERVATION_DRIVES, max(1, drives // DDP_DRIVES_PER_PRESERVED))


def ddp_max_pool_bytes(drive_marketed_bytes: int) -> int:
    """The largest Dynamic Disk Pool for drives of this marketed size (:data:`DDP_MAX_POOL_BYTES`)."""
    return DDP_MAX_POOL_BYTES_LARGE_DRIVES if drive_marketed_bytes > DDP_LARGE_DRIVE_BYTES else DDP_MAX_POOL_BYTES

ADP_MAX_PARTITIONED = {"root-data": 24, "root-data-data": 48}
"""Drives ONTAP partitions at initialisation (:data:`ADP_RULES_SOURCE`: 24 for ADPv1, 48 for ADPv2). StorPlan reads
the ADPv1 limit per node (seed 000 §3.6 partitions 23 drives on each of two nodes = 46); ADPv2 partitions up to
:func:`adpv2_partition_limit` drives per HA pair (drives added after initialisation are partitioned too)."""

ADP_RULES_SOURCE = ("NetApp KB 'What are the rules for Advanced Disk Partitioning?' (kb.netapp.com/on-prem/ontap/"
                    "Ontap_OS/OS-KBs/What_are_the_rules_for_Advanced_Disk_Partitioning): 'Maximum drives partitioned "
                    "at system initialization 24 | 48'; 'Maximum drives allowed to be partitioned in an HA pair: 480 "
                    "in ONTAP 9.14.1 and later, 240 in previous ONTAP releases'")
"""Where the ADP partitioning limits come from."""

ADPV2_MAX_PER_PAIR = 240
ADPV2_MAX_PER_PAIR_9141 = 480
"""Drives an HA pair may have partitioned (:data:`ADP_RULES_SOURCE`): 240, 480 from ONTAP 9.14.1."""


def adpv2_partition_limit(software: str | None) -> tuple[int, str]:
    """The most drives ADPv2 (root-data-data) partitions in one HA pair on ``software`` and the rule in words:
    480 from ONTAP 9.14.1, 240 before (:data:`ADP_RULES_SOURCE`); an unknown release takes 240."""
    version = parse_version(software)
    if version is not None and version + (0,) * (3 - len(version)) >= (9, 14, 1):
        return ADPV2_MAX_PER_PAIR_9141, f"{ADPV2_MAX_PER_PAIR_9141} per HA pair on ONTAP {software}"
    why = "ONTAP release unknown" if version is None else f"ONTAP {software} predates 9.14.1"
    return ADPV2_MAX_PER_PAIR, f"{ADPV2_MAX_PER_PAIR} per HA pair ({why})"

ADP_FALLBACK_ROOT_BYTES = 55 * 2**30
"""Root partition size when neither the project nor the catalog gives one: assumed 55 GiB, the root aggregate of
seed 000 Table 3 (AFF8080A EX, 23 partitioned SSD per node); Hardware Universe lists the real size per platform."""

WAFL_RESERVE = 0.10
WAFL_RESERVE_LARGE = 0.05
WAFL_LARGE_AGGREGATE_BYTES = 30 * 2**40
"""WAFL reserve 10%, 5% for aggregates >= 30 TB on AFF from ONTAP 9.12.1 and on all from 9.14.1
(:data:`WAFL_RESERVE_SOURCE`). ONTAP prints binary units with decimal labels, so '30 TB' is read as 30 TiB."""

WAFL_RESERVE_SOURCE = (
    "ONTAP documentation, 'Determine space usage in a volume or aggregate' (docs.netapp.com/us-en/ontap/volumes/"
    "determine-space-usage-volume-aggregate-concept.html): 'WAFL reserves 10% of the total disk space'; 'Beginning "
    "in ONTAP 9.12.1, the WAFL reserve for aggregates greater than 30TB is reduced from 10% to 5% for AFF platforms "
    "and for the FAS500f platforms. Beginning in ONTAP 9.14.1, this same reduction applies to aggregates on all FAS "
    "platforms'; ONTAP 9.14.1 release notes, 'What's new in ONTAP 9.14.1', Storage efficiency (docs.netapp.com/us-en/"
    "ontap/release-notes/whats-new-9141.html)")
"""Where the WAFL reserve rule (:func:`wafl_reserve_fraction`) comes from."""

CVO_WAFL_NOTE = ("Cloud Volumes ONTAP aggregates are counted with the FAS platforms (not AFF): the 5% reserve from "
                 "ONTAP 9.14.1")
"""How the WAFL rule is read for Cloud Volumes ONTAP: its release notes publish no reserve of their own; the ONTAP
rule's 9.14.1 step ("all FAS platforms") is applied to its aggregates, the 9.12.1 AFF step is not."""

CURRENT_ONTAP_RELEASE = "9.16.1"
"""The ONTAP release a design without one runs (Cloud Volumes ONTAP): the release the catalog's current
platforms default to."""

CVO_RELEASES = ("9.5", "9.12.1", "9.13.1", "9.14.1", "9.15.1", "9.16.1")
"""Cloud Volumes ONTAP releases a design may name (the seed's 9.5, then the releases around the WAFL reserve change
of 9.14.1); any other release text is accepted and read by :func:`parse_version`."""

CVO_CAP_SOURCE = (
    "Cloud Volumes ONTAP release notes, 'Storage limits' (docs.netapp.com/us-en/cloud-volumes-ontap-relnotes/"
    "reference-limits-azure.html, -aws.html, -gcp.html): 'The maximum system capacity for a Cloud Volumes ONTAP "
    "system is determined by its license. The maximum system capacity includes disk-based storage plus object "
    "storage used for data tiering'; for an HA pair 'the capacity limit is for the entire HA pair' and 'mirrored "
    "data does not count against the capacity limit'")
"""The licence cap is defined on disk capacity (before the WAFL reserve), the HA pair counted once."""

MIRRORED_SNAPSHOT_RESERVE_PCT = 5.0
"""Aggregate Snapshot reserve of a SyncMirror / MetroCluster aggregate when the project gives none
(:data:`MIRRORED_SNAPSHOT_RESERVE_SOURCE`); an unmirrored aggregate keeps 0% (ONTAP's default for new aggregates
since ONTAP 8.3: no aggregate Snapshot copies are taken)."""

MIRRORED_SNAPSHOT_RESERVE_SOURCE = (
    "NetApp Data ONTAP Storage Management Guide, 'Managing aggregate Snapshot copies' (library.netapp.com/ecmdocs/"
    "ECMP1155684/html/GUID-2372623A-FC98-42FF-8C26-B7482E7D5A7C.html): 'If you use SyncMirror or MetroCluster, you "
    "must enable automatic aggregate Snapshot copy creation and keep your aggregate Snapshot reserve at 5 percent or "
    "higher'")
"""Where :data:`MIRRORED_SNAPSHOT_RESERVE_PCT` comes from."""


def aggregate_snapshot_reserve(project_pct: float | None, mirrored: bool) -> tuple[float, str]:
    """The aggregate Snapshot reserve (percent of the aggregate after the WAFL reserve) and its source.

    Args:
        project_pct: the project's ``snapshot_reserve_pct``; None = the rule.
        mirrored: the aggregate is SyncMirror-mirrored (MetroCluster).
    Returns:
        (percent, source in words): the project's value when given; else 5% for a mirrored aggregate
        (:data:`MIRRORED_SNAPSHOT_RESERVE_SOURCE`), 0% otherwise.
    """
    if project_pct is not None:
        return project_pct, "project snapshot_reserve_pct (ONTAP documentation: per-aggregate setting)"
    if mirrored:
        return MIRRORED_SNAPSHOT_RESERVE_PCT, f"default for a mirrored aggregate: {MIRRORED_SNAPSHOT_RESERVE_SOURCE}"
    return 0.0, "default 0% for an unmirrored aggregate (ONTAP documentation: no aggregate Snapshot copies)"


VSAN_SLACK_PCT = 30.0
"""vSAN slack space: keep 25-30% free (vSAN documentation, before 7.0 U1); 30% when neither project nor catalog
says otherwise."""

VSAN_OPERATIONS_RESERVE_PCT = 10.0
"""assumed: vSAN 7.0 U1+ operations reserve, % of capacity. VMware's documentation ("Reserve capacity", vSAN
monitoring guide) defines the operations reserve and says enforcing it adds a 5% buffer, but publishes no
percentage for the reserve itself (looked for in the vSAN 7/8 monitoring guides, the vSAN Management API
VsanCapacityReservationInfo and the "Understanding Reserved Capacity" blog): 10% is chosen, between the sizer's
typical small-cluster figures and the old 25-30% slack guidance that it replaced together with the host reserve."""

VSAN_RESERVE_DOCS = ("VMware vSAN documentation, 'Reserve capacity' (vSAN 7.0 U1 and later): operations reserve for "
                     "internal operations and host rebuild reserve, 'the capacity required to restore a host failure "
                     "matches the total capacity of the largest host in the cluster'")
"""Where the reserved-capacity rule (replacing slack space from vSAN 7.0 U1) comes from."""

VSAN_HOST_REBUILD_RESERVE_DEF = ("VMware defines the host rebuild reserve as \"reserved space for vSAN to be able to "
                                 "repair in case of a single host failure\" (vSAN Monitoring and Troubleshooting, "
                                 "'Reserved Capacity', vSAN 7.0 and 8.0)")
"""What the host rebuild reserve is for, in VMware's words (docs.vmware.com, vSAN monitoring guide, page
GUID-CD510EAE-1A9F-45D2-BB66-E893C8AAF20A; the vSAN Management API says the same of ``VsanCapacityReservationInfo``'s
``hostRebuildThreshold``: vSAN "reserves capacity in the cluster to be able to repair objects after a host
failure"): the capacity a host failure's repair spends (the host-failure capacity state,
``models.performance.resilience.capacity_in_failure``)."""

VSAN_ESA_LFS_OVERHEAD = 0.131
"""vSAN ESA log-structured file system overhead: "an additional ~13.1% of the object and replica data size"
(Broadcom KB 394410, "Storage space utilization calculation for VM's objects on vSAN Express Storage Architecture
(ESA) datastore", with worked examples: 10 GB written at RAID-5 4+1 -> 12.5 GB + 1.63 GB = 14.13 GB)."""

VSAN_ESA_LFS_SOURCE = ("Broadcom KB 394410 (vSAN ESA object space): LFS overhead ~13.1% of the object and replica "
                       "data size")
"""Where :data:`VSAN_ESA_LFS_OVERHEAD` comes from."""

VSAN_DEDUPE_METADATA_PCT = 5.0
"""vSAN dedupe & compression metadata: about 5% of raw (vSAN documentation)."""


@dataclass(frozen=True)
class VsanPolicyRule:
    """An FTT policy: raw bytes written per byte of data, hosts needed, erasure coding or mirror."""

    name: str
    factor: float
    min_hosts: int
    erasure_coding: bool


VSAN_POLICIES = {
    "ftt0": VsanPolicyRule("vSAN FTT=0 (no protection)", 1.0, 1, False),
    "ftt1-raid1": VsanPolicyRule("vSAN FTT=1 RAID1 mirror", 2.0, 3, False),
    "ftt2-raid1": VsanPolicyRule("vSAN FTT=2 RAID1 mirror", 3.0, 5, False),
    "ftt3-raid1": VsanPolicyRule("vSAN FTT=3 RAID1 mirror", 4.0, 7, False),
    "ftt1-raid5": VsanPolicyRule("vSAN FTT=1 RAID5 (3+1) erasure coding", 4.0 / 3.0, 4, True),
    "ftt2-raid6": VsanPolicyRule("vSAN FTT=2 RAID6 (4+2) erasure coding", 1.5, 6, True),
}
"""vSAN storage policies (vSAN documentation): RAID1 FTT=n keeps n+1 copies on 2n+1 hosts; RAID5 3+1 1.33x on
at least 4 hosts; RAID6 4+2 1.5x on at least 6 hosts; erasure coding is all-flash only."""


VSAN_ESA_DOCS = ("VMware vSAN 8 Express Storage Architecture documentation (Broadcom TechDocs, 'vSAN ESA adaptive "
                 "RAID-5'): RAID-5 is 2+1 on clusters of 3 to 5 hosts and 4+1 on 6 or more; RAID-6 is 4+2")
"""Where the ESA erasure-coding layouts come from."""

VSAN_ESA_RAID5_HOSTS_DOCS = (
    "Duncan Epping (VMware), 'vSAN 8.0 ESA - Introducing Adaptive RAID-5', 15 November 2022 "
    "(www.yellow-bricks.com/2022/11/15/vsan-8-0-esa-introducing-adaptive-raid-5/): 'RAID-5, 2+1, 3-5 hosts'; "
    "'RAID-5, 4+1, 6 hosts or more'")
"""The public page giving ESA's adaptive RAID-5 schemes with their host counts (2+1 from 3 hosts, 4+1 from 6): the
source a problem about too few hosts for it cites."""

VSAN_ESA_REDUCTION_DOCS = (
    "VMware vSphere 8.0 vSAN Administration, 'Deduplication and Compression' (docs.vmware.com/en/VMware-vSphere/8.0/"
    "vsan-administration/GUID-3D2D80CC-444E-454E-9B8B-25C3F620EFED.html): 'For the vSAN Express Storage "
    "Architecture, compression is enabled by default on the cluster', by storage policy; ESA deduplication is vSAN "
    "9.0's global deduplication (vSAN Management API, VsanDataEfficiencyConfigEx, since 9.0.0.0, "
    "https://developer.broadcom.com/xapis/vsan-management-api/latest/vim.vsan.DataEfficiencyConfigEx.html)")
"""Why a vSAN 8 ESA cluster compresses and does not deduplicate (the ESA host records' ``data_reductions``)."""


def vsan_policy_rule(policy: str, architecture: str = "osa", hosts: int = 0) -> VsanPolicyRule:
    """The storage policy's rule for a cluster: OSA as :data:`VSAN_POLICIES`; ESA's adaptive RAID-5 is 2+1
    (factor 1.5) on 3-5 hosts and 4+1 (1.25) on 6 or more (:data:`VSAN_ESA_DOCS`); RAID-6 4+2 and RAID-1 as OSA."""
    rule = VSAN_POLICIES[policy]
    if architecture == "esa" and policy == "ftt1-raid5":
        if hosts >= 6:
            return VsanPolicyRule("vSAN ESA FTT=1 RAID-5 (4+1) erasure coding", 1.25, 6, True)
        return VsanPolicyRule("vSAN ESA FTT=1 RAID-5 (2+1) erasure coding", 1.5, 3, True)
    return rule


def vsan_policy_factor(policy: str, architecture: str = "osa", hosts: int = 0) -> float:
    """Raw bytes vSAN writes per byte of VM data under a storage policy (e.g. 2.0 for FTT=1 RAID1; ESA's adaptive
    RAID-5 by host count, :func:`vsan_policy_rule`)."""
    return vsan_policy_rule(policy, architecture, hosts).factor


@dataclass(frozen=True)
class GroupRule:
    """Default and maximum ONTAP RAID group size (members, parity included) and where they come from."""

    default: int
    max: int
    source: str


_FALLBACK_GROUP_SIZES = {
    # (media class, raid type) -> (default, max); TR-3838 except RAID-TEC (see below).
    ("ssd", "raid4"): (8, 14),
    ("ssd", "raid_dp"): (23, 28),
    ("perf", "raid4"): (8, 14),
    ("perf", "raid_dp"): (16, 28),
    ("capacity", "raid4"): (7, 7),
    ("capacity", "raid_dp"): (14, 20),
}


def ontap_group_rule(drive: Drive, raid_type: str) -> GroupRule:
    """The drive's RAID group rule from the catalog, else TR-3838's value for its media class.

    RAID-TEC without a catalog value: assumed default = the RAID DP default + 1 (one more parity member) and
    maximum 29 (ONTAP documentation gives 29 as RAID-TEC's maximum group size).
    """
    rule = drive.raid_group_sizes.get(raid_type)
    if rule is not None:
        return GroupRule(rule.default, rule.max,
                         f"{drive.name}: RAID group sizes ({drive.cited('raid_group_sizes') or TR3838})")
    media = "ssd" if drive.media == "SSD" else ("capacity" if (drive.rpm or 10_000) <= 7_200 else "perf")
    if raid_type == "raid_tec":
        dp_default, _ = _FALLBACK_GROUP_SIZES[(media, "raid_dp")]
        dp_rule = drive.raid_group_sizes.get("raid_dp")
        if dp_rule is not None:
            dp_default = dp_rule.default
        return GroupRule(min(dp_default + 1, 29), 29,
                         "assumed: RAID-TEC group = RAID DP default + 1 parity, max 29 (ONTAP documentation)")
    default, maximum = _FALLBACK_GROUP_SIZES[(media, raid_type)]
    return GroupRule(default, maximum,
                     f"assumed: no catalog value for this drive; {TR3838} value for "
                     f"{media.upper() if media == 'ssd' else media + ' HDD'}")


ONTAP_DEFAULT_RAID_DOCS = ("NetAppDocs ontap, 'disks-aggregates/default-raid-policies-aggregates-concept.adoc' "
                           "(docs.netapp.com/us-en/ontap/disks-aggregates/"
                           "default-raid-policies-aggregates-concept.html): "
                           "'RAID-TEC is the default RAID policy for capacity HDD local tiers with disks that are 6 TB "
                           "or larger'; RAID-DP otherwise")
"""Where :func:`ontap_default_raid` comes from."""

CAPACITY_HDD_TEC_BYTES = 6 * 10**12
"""The marketed size from which ONTAP defaults capacity HDD aggregates to RAID-TEC (6 TB,
:data:`ONTAP_DEFAULT_RAID_DOCS`)."""


ONTAP_TEC_ONLY_BYTES = 10 * 10**12
"""The marketed size from which ONTAP offers only RAID-TEC for capacity HDD (FSAS / MSATA): 10 TB
(:data:`ONTAP_TEC_ONLY_DOCS`)."""

ONTAP_TEC_ONLY_DOCS = ("NetApp ONTAP 9.6 and 9.7 System Manager documentation, 'Changing the RAID configuration when "
                       "creating an aggregate' (docs.netapp.com/us-en/ontap-system-manager-classic/online-help-96-97/"
                       "task_changing_raid_configuration_when_creating_aggregate.html): 'If the disk type of the "
                       "aggregate disks is FSAS or MSATA, and the disk size is equal to or larger than 10 TB, then "
                       "RAID-TEC is the only available RAID type'")
"""Where :func:`ontap_raid_tec_only` comes from."""


def ontap_raid_tec_only(drive: Drive) -> bool:
    """True when ONTAP offers only RAID-TEC for an aggregate of ``drive``: a capacity HDD (7,200 rpm or slower,
    ONTAP type FSAS / MSATA) of 10 TB or more (:data:`ONTAP_TEC_ONLY_DOCS`). A design asking RAID DP of it is
    warned (``models.problems``); :func:`ontap_default_raid` already gives RAID-TEC from 6 TB."""
    capacity_hdd = drive.media == "HDD" and (drive.rpm or 10_000) <= 7_200
    return capacity_hdd and drive.marketed_bytes >= ONTAP_TEC_ONLY_BYTES


def ontap_default_raid(drive: Drive) -> str:
    """ONTAP's default RAID type for a new aggregate of ``drive``: RAID-TEC for capacity HDD (7,200 rpm or slower,
    NL-SAS / SATA) of 6 TB or more, RAID DP for everything else (:data:`ONTAP_DEFAULT_RAID_DOCS`). The sizer
    builds its ONTAP candidates with it, as ONTAP would."""
    capacity_hdd = drive.media == "HDD" and (drive.rpm or 10_000) <= 7_200
    return "raid_tec" if capacity_hdd and drive.marketed_bytes >= CAPACITY_HDD_TEC_BYTES else "raid_dp"


ONTAP_MIN_SPARES = {"SSD": 1, "HDD": 2}
"""Hot spares per node ONTAP wants by media (ONTAP documentation, public_facts.md "ONTAP partitioning, reserves,
RAID and spares": all-flash at least one hot spare drive or partition, HDD at least two; ``min_spare_count``
recommended 2). The sizer builds its ONTAP candidates with them."""


def split_groups(members: int, size: int) -> tuple[int, ...]:
    """``members`` split into ceil(members / size) RAID groups as evenly as possible (larger groups first).

    E.g. 40 members at size 23 -> (20, 20); 23 at 23 -> (23,); 25 at 23 -> (13, 12).
    """
    if members <= 0:
        return ()
    size = max(1, size)
    count = math.ceil(members / size)
    base, extra = divmod(members, count)
    return tuple(base + 1 if i < extra else base for i in range(count))


@lru_cache(maxsize=256)
def parse_version(text: str | None) -> tuple[int, ...] | None:
    """Numeric parts of a software version ("ONTAP 9.12.1P3" -> (9, 12, 1)); None when no number is found.
    Remembered (a sizer search asks it for every aggregate of every design)."""
    if not text:
        return None
    numbers = re.findall(r"\d+", text)
    if not numbers:
        return None
    return tuple(int(n) for n in numbers[:3])


def software_listed(version: str, listed: Sequence[str]) -> bool:
    """True when ``version`` is one of a catalog record's ``listed`` software versions, or a point or patch
    release of one: "9.14.1" and "9.14.1P3" are releases of a listed "9.14", "9.16.1P2" of "9.16.1" (ONTAP names
    its patch releases <release>P<n>: ONTAP release model). A listed entry matches a version that starts with it
    and continues with "." or "P" (so "9.1" never matches "9.14"); case and surrounding spaces are ignored."""
    mine = version.strip().lower()
    for entry in listed:
        theirs = entry.strip().lower()
        if mine == theirs or (theirs and mine.startswith(theirs) and mine[len(theirs)] in ".p"):
            return True
    return False


def wafl_reserve_fraction(software: str | None, is_aff: bool, aggregate_bytes: float) -> tuple[float, str]:
    """WAFL reserve fraction for one aggregate and the rule applied, in words.

    10% of the aggregate; 5% when the aggregate is >= 30 TiB and the system is AFF on ONTAP 9.12.1 or later, or any
    platform on 9.14.1 or later (ONTAP documentation). An unknown version takes the 10% rule.
    """
    version = parse_version(software)
    large = aggregate_bytes >= WAFL_LARGE_AGGREGATE_BYTES
    if version is not None and large:
        padded = version + (0,) * (3 - len(version))
        if padded >= (9, 14, 1) or (is_aff and padded >= (9, 12, 1)):
            return WAFL_RESERVE_LARGE, f"5%: aggregate >= 30 TiB on {'AFF ' if is_aff else ''}ONTAP {software}"
    reason = "ONTAP version unknown" if version is None else (
        "aggregate < 30 TiB" if not large else f"ONTAP {software} predates the 5% rule")
    return WAFL_RESERVE, f"10% ({reason})"


def root_partition_lookup(table: dict[str, int], partitioned_per_node: int) -> tuple[int | None, str]:
    """The catalog's ADP root partition size for this many partitioned drives per node.

    The nearest key at or below the count, else the smallest key; None when the table is empty.
    """
    keys = sorted((int(k), v) for k, v in table.items() if str(k).strip().isdigit())
    if not keys:
        return None, ""
    below = [(k, v) for k, v in keys if k <= partitioned_per_node]
    key, value = below[-1] if below else keys[0]
    return value, f"{key} drives per node"
