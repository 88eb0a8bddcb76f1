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
The object store's own protection (StorageGRID erasure coding or replication, a bucket's redundancy) is outside
the bytes counted: the capacity tier's figure is what ONTAP writes to it.
"""

from __future__ import annotations

from collections.abc import Sequence

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
    from models.capacity.efficiency import snapshot_copies

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
