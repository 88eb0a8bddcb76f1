"""The published limits of a managed file service (Azure NetApp Files, Amazon FSx for NetApp ONTAP) for what the
user provisioned, and its stations in a workload's path.

The limits (each service's documentation, catalog ``managed_service`` records with their sources):

* throughput: size-based services (ANF with auto QoS) give ``throughput_mibps_per_tib`` x the provisioned TiB
  (Microsoft's example: a 2 TiB Premium volume, 2 x 64 = 128 MiB/s); services that sell throughput capacity (FSx)
  give the provisioned option (the smallest when none is chosen); either way at most ``max_throughput_mbps``.
* IOPS: ``iops_per_gib`` x the provisioned GiB (FSx's automatic 3 per GiB), or the provisioned IOPS when larger,
  at most the ceiling of the provisioned throughput capacity where the record gives one per throughput
  (``max_iops_by_throughput``: AWS ties FSx for ONTAP's SSD IOPS to it, 'Impact of throughput capacity on
  performance') and at most ``max_iops``; none when the service publishes no IOPS limit (ANF limits throughput
  only).

The path: the client's network round trip (a delay), the service's light-load latency (a delay, the record's
``latency_us``), and each limit as a single-server queue whose capacity is the limit (Lazowska et al., QSP ch. 5:
the limit is the asymptotic throughput bound). A QoS limit admits requests at a fixed rate (a token bucket), so
M/D/1 would be its shape; the path uses exponential service (M/M/1, twice M/D/1's queueing delay), the
conservative choice, because the closed MVA's residual-life correction for SCV < 1 lets a ramp with large fixed
delays pass the bound.
"""

from __future__ import annotations

from models.catalog import ManagedService
from models.project.model import ManagedServiceNode

TIB = 2**40
GIB = 2**30
MIB = 2**20

CLIENT_RTT_US = 100.0
"""assumed: the client VM's network round trip to a managed service in the same region and zone, microseconds
(the same order as the Azure VM NIC minimum the Cloud Volumes ONTAP path uses)."""


def throughput_limit_mbps(node: ManagedServiceNode, record: ManagedService) -> float:
    """The throughput the provisioned service allows, MB/s (10^6 bytes/s); module docstring for the rule."""
    if record.throughput_options_mbps:
        chosen = node.throughput_mbps or min(record.throughput_options_mbps)
    else:
        chosen = node.throughput_mbps or record.throughput_mibps_per_tib * node.provisioned_bytes / TIB * MIB / 1e6
    return min(chosen, record.max_throughput_mbps)


def iops_ceiling(node: ManagedServiceNode, record: ManagedService) -> float | None:
    """The most SSD IOPS the service allows at the node's throughput capacity (None: no ceiling published).

    Where the record ties the ceiling to the throughput capacity (``max_iops_by_throughput``: AWS, FSx for ONTAP
    user guide, 'Impact of throughput capacity on performance'), the entry of the largest throughput capacity at
    or below the provisioned one (:func:`throughput_limit_mbps`; the smallest entry when all are above it), never
    above ``max_iops``; otherwise ``max_iops``."""
    table = sorted((float(k), v) for k, v in record.max_iops_by_throughput.items())
    if not table:
        return record.max_iops
    chosen = throughput_limit_mbps(node, record)
    below = [v for k, v in table if k <= chosen]
    ceiling = below[-1] if below else table[0][1]
    return min(ceiling, record.max_iops) if record.max_iops else ceiling


def iops_limit(node: ManagedServiceNode, record: ManagedService) -> float | None:
    """The IOPS the provisioned service allows (None: no IOPS limit published); module docstring for the rule."""
    if not record.iops_per_gib and not node.iops:
        return None
    iops = max(record.iops_per_gib * node.provisioned_bytes / GIB, node.iops)
    ceiling = iops_ceiling(node, record)
    return min(iops, ceiling) if ceiling else iops


def limit_problems(node: ManagedServiceNode, record: ManagedService, where: str) -> list[str]:
    """What the provisioned service breaks: a capacity outside the record's range, a throughput that is not one
    of the options (services that sell throughput) or above the cap, IOPS above the cap."""
    out = []
    if not record.min_capacity_bytes <= node.provisioned_bytes <= record.max_capacity_bytes:
        out.append(f"{where}: {record.name} takes {record.min_capacity_bytes / TIB:g} to "
                   f"{record.max_capacity_bytes / TIB:g} TiB; {node.provisioned_bytes / TIB:g} TiB is provisioned.")
    if record.throughput_options_mbps and node.throughput_mbps and \
            node.throughput_mbps not in record.throughput_options_mbps:
        options = ", ".join(f"{v:g}" for v in record.throughput_options_mbps)
        out.append(f"{where}: throughput {node.throughput_mbps:g} MB/s is not one of {record.name}'s options "
                   f"({options} MB/s).")
    if node.throughput_mbps > record.max_throughput_mbps:
        out.append(f"{where}: throughput {node.throughput_mbps:g} MB/s is above {record.name}'s cap of "
                   f"{record.max_throughput_mbps:g} MB/s.")
    ceiling = iops_ceiling(node, record)
    if ceiling and node.iops > ceiling:
        at = (f" at {throughput_limit_mbps(node, record):g} MB/s of throughput capacity"
              if record.max_iops_by_throughput else "")
        out.append(f"{where}: {node.iops:,.0f} IOPS is above {record.name}'s cap of {ceiling:,.0f}{at}.")
    return out
