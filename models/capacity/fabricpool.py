"""FabricPool on an on-premises ONTAP controller: the capacity tier (an object store) that holds each workload's
cold data, so that the performance tier (the aggregates on the controller's drives) holds only the hot share.

A workload's ``cold_data_pct`` is the share of its data, after compression, compaction and deduplication, that
sits in the capacity tier: "Storage efficiencies such as compression, deduplication, and compaction are preserved
when moving data to the cloud tier" (NetApp Knowledge Base, "Why is the data size of Amazon S3 larger than the
logical size of the volume when using Fabric Pool?", https://kb.netapp.com/Cloud/Cloud_Volumes_ONTAP/
Why_is_the_data_size_of_Amazon_S3_larger_than_the_logical_size_of_the_volume_when_using_Fabric_Pool; the same in
NetApp TR-4598, "FabricPool best practices"). With the ``auto`` tiering policy the workload's cold share tiers
and Snapshot blocks stay in the performance tier here (which Snapshot blocks cool is not modelled); with
``snapshot-only`` only Snapshot copies' blocks not shared with the active file system tier, once older than the
2-day minimum cooling period (:data:`TIERING_POLICY_SOURCE`): of copies kept R hours, taken evenly, the share
(R - 48) / R of the Snapshot blocks (:func:`snapshot_cold_share`); the active data and its reads stay local.
The capacity tier's bytes are what ONTAP writes to the object store; the store's own protection comes on top
(:func:`object_store_protection`): a StorageGRID ILM rule keeps each object erasure coded as k data + m parity
fragments (raw = bytes x (k + m) / k; "disk space = object size + object size x storage overhead", overhead m / k,
:data:`STORAGEGRID_EC_SOURCE`) or as n replicated copies (raw = bytes x n); the default is the 2+1 scheme NetApp's
example ILM rule for FabricPool data uses (:data:`STORAGEGRID_FABRICPOOL_SOURCE`). A cloud bucket is billed by the
bytes stored: the provider's redundancy is in its price, so no raw overhead is counted.
"""

from __future__ import annotations

from collections.abc import Sequence

from models.capacity.snapshots import snapshot_copies
from models.project.model import ControllerNode, Workload

CAPACITY_TIER_LABELS: dict[str, str] = {"storagegrid": "StorageGRID", "cloud-bucket": "cloud bucket"}
"""``ControllerNode.capacity_tier`` -> its name in a sentence or a table."""

FABRICPOOL_EFFICIENCY_SOURCE = (
    "NetApp TR-4598, FabricPool best practices; NetApp Knowledge Base, 'Why is the data size of Amazon S3 larger "
    "than the logical size of the volume when using Fabric Pool?': storage efficiencies (compression, "
    "deduplication, compaction) are preserved when data moves to the cloud tier")
"""The source the waterfall's FabricPool step cites."""


TIERING_POLICY_SOURCE = (
    "NetApp FlexPod documentation, 'Set volume tiering policy' (FabricPool): Snapshot-Only moves cold Snapshot "
    "blocks not shared with the active file system to the cloud tier, about 2 days after they become inactive "
    "(https://docs.netapp.com/us-en/flexpod/hybrid-cloud/cloud-fabricpool_set_volume_tiering_policy.html)")
"""Where the snapshot-only policy's behaviour and its 2-day cooling period come from."""

SNAPSHOT_ONLY_COOLING_H = 48.0
"""Hours before a Snapshot block counts as cold under snapshot-only (the documented default cooling period)."""

TIERING_POLICY_LABELS: dict[str, str] = {"auto": "auto", "snapshot-only": "Snapshot copies only"}
"""``ControllerNode.tiering_policy`` -> its name in a sentence or a table."""


STORAGEGRID_EC_SOURCE = (
    "NetApp StorageGRID documentation, 'What are erasure-coding schemes?' (Manage objects with ILM): storage overhead "
    "= parity fragments m / data fragments k; disk space = object size + object size x overhead (a 10 MB object "
    "under 4+2 takes 15 MB) (https://docs.netapp.com/us-en/storagegrid-118/ilm/what-erasure-coding-schemes-are.html)")
"""Where the erasure-coding overhead comes from."""

STORAGEGRID_FABRICPOOL_SOURCE = (
    "NetApp StorageGRID documentation, 'Configure ILM for FabricPool data': the example rule stores the FabricPool "
    "bucket's objects with the 2+1 erasure-coding scheme "
    "(https://docs.netapp.com/us-en/storagegrid-118/fabricpool/using-storagegrid-ilm-with-fabricpool-data.html)")
"""Where the default scheme (2+1) comes from."""

CLOUD_BUCKET_PROTECTION_NOTE = ("a cloud bucket is billed by the bytes stored; the provider's redundancy (its "
                                "durability) is in the price, so no raw overhead is counted")
"""What a cloud bucket's protection adds, in words."""


def object_store_protection(node: ControllerNode) -> tuple[float, str, str]:
    """The object store's raw bytes per byte tiered, the scheme in words and its source, for ``node``'s capacity
    tier: StorageGRID with ``capacity_tier_protection`` "ec-k+m" gives (k + m) / k ("ec-2+1": 1.5), "copies-n"
    gives n; a cloud bucket (or no capacity tier) gives 1.0 (:data:`CLOUD_BUCKET_PROTECTION_NOTE`)."""
    if node.capacity_tier != "storagegrid":
        return 1.0, "the provider's redundancy, in the price", CLOUD_BUCKET_PROTECTION_NOTE
    scheme = node.capacity_tier_protection
    source = STORAGEGRID_EC_SOURCE + ("; default: " + STORAGEGRID_FABRICPOOL_SOURCE if scheme == "ec-2+1" else "")
    kind, _, value = scheme.partition("-")
    if kind == "copies":
        copies = int(value)
        return float(copies), f"{copies} replicated cop{'y' if copies == 1 else 'ies'}", source
    k, m = (int(x) for x in value.split("+"))
    return (k + m) / k, f"{k}+{m} erasure coding", source


def capacity_tier_raw_bytes(node: ControllerNode, workloads: Sequence[Workload]) -> float:
    """The object store's raw capacity ``node``'s capacity tier needs, bytes: :func:`capacity_tier_bytes` x the
    factor of :func:`object_store_protection`."""
    return capacity_tier_bytes(node, workloads) * object_store_protection(node)[0]


def snapshot_cold_share(retention_h: float) -> float:
    """The share of a workload's Snapshot blocks that are past the cooling period: copies kept ``retention_h``
    hours, taken evenly, are older than :data:`SNAPSHOT_ONLY_COOLING_H` for (R - 48) / R of them; 0 when they are
    kept no longer than that."""
    if retention_h <= SNAPSHOT_ONLY_COOLING_H:
        return 0.0
    return (retention_h - SNAPSHOT_ONLY_COOLING_H) / retention_h


def snapshot_physical_bytes(workload: Workload) -> float:
    """The physical bytes of ``workload``'s Snapshot copies as the capacity engine counts them
    (``models.capacity.efficiency``: copies x the blocks overwritten in an interval of its physical data), bytes;
    0 without a schedule."""
    snap = workload.snapshots
    if snap is None:
        return 0.0
    physical = workload.dataset_bytes / (workload.compression_ratio * workload.compaction_ratio
                                         * workload.dedupe_ratio)
    fraction = min(1.0, snap.change_pct_per_h / 100.0 * snap.interval_h)
    return snapshot_copies(snap.interval_h, snap.retention_h) * fraction * physical


def tiered_bytes(workload: Workload, policy: str = "auto") -> float:
    """The bytes of ``workload`` in the capacity tier under ``policy``: :func:`cold_physical_bytes` for auto, the
    cooled share of its Snapshot blocks for snapshot-only."""
    if policy == "snapshot-only":
        snap = workload.snapshots
        return snapshot_physical_bytes(workload) * snapshot_cold_share(snap.retention_h if snap else 0.0)
    return cold_physical_bytes(workload)


def cold_read_share(workload: Workload, node: ControllerNode) -> float:
    """The share (0..1) of ``workload``'s reads served by ``node``'s capacity tier: its ``cold_read_pct`` with the
    auto policy; 0 without a capacity tier or with snapshot-only (the active data stays local)."""
    if node.capacity_tier == "none" or node.tiering_policy == "snapshot-only":
        return 0.0
    return workload.cold_read_pct / 100.0


def cold_read_bytes_per_s(workload: Workload, node: ControllerNode) -> float:
    """The network bytes per second ``workload``'s cold reads fetch from the object store at its target: target
    IOPS x read share x :func:`cold_read_share` x block size (or target MB/s x read share x that share); 0 without a
    target. Each cold read fetches its block whole (an assumption: ONTAP reads 4 KiB blocks from larger objects and
    may fetch more)."""
    share = cold_read_share(workload, node) * workload.read_pct / 100.0
    if workload.target_iops:
        return workload.target_iops * share * workload.block_kib * 1024.0
    if workload.target_mbps:
        return workload.target_mbps * 1e6 * share
    return 0.0


def cold_physical_bytes(workload: Workload) -> float:
    """The bytes of ``workload`` in a FabricPool capacity tier: ``cold_data_pct`` % of its data after compression,
    compaction and deduplication (dataset / (compression x compaction x dedupe)), bytes; 0 when nothing is
    tiered."""
    physical = workload.dataset_bytes / (workload.compression_ratio * workload.compaction_ratio
                                         * workload.dedupe_ratio)
    return workload.cold_data_pct / 100.0 * physical


def capacity_tier_bytes(node: ControllerNode, workloads: Sequence[Workload]) -> float:
    """What ``node``'s FabricPool capacity tier must hold, bytes: the sum of :func:`tiered_bytes` (its policy) over the
    enabled workloads it serves (``workloads``: any list; those of other targets are skipped); 0 without a
    capacity tier."""
    if node.capacity_tier == "none":
        return 0.0
    return sum(tiered_bytes(w, node.tiering_policy) for w in workloads if w.enabled and w.target == node.id)
