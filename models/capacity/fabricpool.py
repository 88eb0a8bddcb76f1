"""FabricPool on an on-premises ONTAP controller: the capacity tier (an object store) that holds each workload's
cold data, so that the performance tier (the aggregates on the controller's drives) holds only the hot share.

A workload's ``cold_data_pct`` is the share of its data, after compression, compaction and deduplication, that
sits in the capacity tier: "Storage efficiencies such as compression, deduplication, and compaction are preserved
when moving data to the cloud tier" (NetApp Knowledge Base, "Why is the data size of Amazon S3 larger than the
logical size of the volume when using Fabric Pool?", https://kb.netapp.com/Cloud/Cloud_Volumes_ONTAP/
Why_is_the_data_size_of_Amazon_S3_larger_than_the_logical_size_of_the_volume_when_using_Fabric_Pool; the same in
NetApp TR-4598, "FabricPool best practices"). Snapshot blocks stay in the performance tier here (the ``auto``
tiering policy moves cold data blocks; which Snapshot blocks cool is not modelled). The object store's own
protection (StorageGRID erasure coding or replication, a bucket's redundancy) is outside the bytes counted: the
capacity tier's figure is what ONTAP writes to it.
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


def cold_physical_bytes(workload: Workload) -> float:
    """The bytes of ``workload`` in a FabricPool capacity tier: ``cold_data_pct`` % of its data after compression,
    compaction and deduplication (dataset / (compression x compaction x dedupe)), bytes; 0 when nothing is
    tiered."""
    physical = workload.dataset_bytes / (workload.compression_ratio * workload.compaction_ratio
                                         * workload.dedupe_ratio)
    return workload.cold_data_pct / 100.0 * physical


def capacity_tier_bytes(node: ControllerNode, workloads: Sequence[Workload]) -> float:
    """What ``node``'s FabricPool capacity tier must hold, bytes: the sum of :func:`cold_physical_bytes` over the
    enabled workloads it serves (``workloads``: any list; those of other targets are skipped); 0 without a
    capacity tier."""
    if node.capacity_tier == "none":
        return 0.0
    return sum(cold_physical_bytes(w) for w in workloads if w.enabled and w.target == node.id)
