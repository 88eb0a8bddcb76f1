"""vSAN stretched clusters: two data sites and a witness, every object mirrored to both sites.

A stretched cluster (``HciClusterNode.stretched``) splits its hosts evenly over two data sites, each a vSAN fault
domain, with a witness host at a third site that holds only witness components (a quorum vote, no VM data). Its
storage policy has two levels (VMware vSAN Stretched Cluster Guide, "Site disaster tolerance" and "Failures to
tolerate"; vSAN Management API ``VsanAutoRAIDInfo``: ``hostFailuresToTolerate`` = 1 is site mirroring,
``subFailuresToTolerate`` the failures tolerated inside a site):

* **site mirroring** (primary failures to tolerate, PFTT = 1, "dual site mirroring"): a full copy of each object at
  each data site, :data:`SITE_COPIES`;
* **local protection** (secondary failures to tolerate, SFTT): the node's ``policy`` inside each site, laid out
  over that site's hosts only (ESA's adaptive RAID-5 is 2+1 on 3-5 hosts per site and 4+1 on 6 or more).

So a byte of VM data costs ``SITE_COPIES x`` the local policy's factor: 2 x 2 = 4 with RAID-1 FTT=1 in each site,
2 x 4/3 = 2.67 with OSA RAID-5 3+1, 2 x 1.5 = 3 with ESA RAID-5 2+1 (3-5 hosts per site) or RAID-6 4+2, 2 x 1.25 =
2.5 with ESA RAID-5 4+1 (6 or more hosts per site); the cited text names the factor applied (:func:`stretched_docs`).

The network between the data sites carries every write once more (the remote site's copy) and none of the reads
(read locality: a VM reads from its own site): :data:`VSAN_STRETCHED_BANDWIDTH_DOCS` gives its minimum (10 Gbit/s,
under 5 ms round trip) and the bandwidth a workload needs (write bandwidth x 1.4 data multiplier x 1.25
resynchronisation multiplier).
"""

from __future__ import annotations

from dataclasses import dataclass

from models.project import HciClusterNode

SITE_COPIES = 2
"""Full copies of each object under dual site mirroring: one per data site (:data:`VSAN_STRETCHED_DOCS`)."""

DATA_MULTIPLIER = 1.4
"""vSAN metadata and other traffic on the inter-site link per byte of write data (VMware recommends 1.4:
:data:`VSAN_STRETCHED_BANDWIDTH_DOCS`)."""

RESYNC_MULTIPLIER = 1.25
"""Headroom for resynchronisation on the inter-site link: 25% more than the writes need
(:data:`VSAN_STRETCHED_BANDWIDTH_DOCS`)."""

MAX_RTT_MS = 5.0
"""The largest supported round trip between the two data sites, ms (:data:`VSAN_STRETCHED_BANDWIDTH_DOCS`)."""

MIN_GBPS = 10.0
"""The smallest supported bandwidth between the two data sites, Gbit/s (:data:`VSAN_STRETCHED_BANDWIDTH_DOCS`)."""

VSAN_STRETCHED_DOCS = (
    "VMware vSAN Stretched Cluster Guide (Broadcom, core.vmware.com/resource/vsan-stretched-cluster-guide), 'Site "
    "disaster tolerance' and 'Failures to tolerate': dual site mirroring keeps a full copy of each object at each "
    "data site, protected inside each site by the local policy, so a byte of VM data costs 2 x the local policy's "
    "factor; the witness host at a third site holds witness components only")
"""Where the stretched cluster's capacity rule comes from (the local policy's factor: :func:`stretched_docs`)."""


def stretched_docs(policy_name: str, local_factor: float) -> str:
    """:data:`VSAN_STRETCHED_DOCS` with the factor this cluster applies: ``policy_name`` inside each site at
    ``local_factor`` raw bytes per data byte (RAID-1 FTT=1 2, OSA RAID-5 3+1 4/3, ESA RAID-5 2+1 1.5, ESA
    RAID-5 4+1 1.25, RAID-6 4+2 1.5), so ``SITE_COPIES x local_factor`` in all ("2 x 1.5 = 3x")."""
    return (f"{VSAN_STRETCHED_DOCS}; here {policy_name} inside each site: {SITE_COPIES} x {local_factor:.3g} = "
            f"{SITE_COPIES * local_factor:.3g}x the VM data")

VSAN_STRETCHED_BANDWIDTH_DOCS = (
    "VMware, 'vSAN Stretched Cluster Bandwidth Sizing' (core.vmware.com/resource/vsan-stretched-cluster-bandwidth-"
    "sizing): data site to data site at least 10 Gbit/s and under 5 ms round trip; bandwidth needed = write "
    "bandwidth x 1.4 (data multiplier) x 1.25 (resynchronisation multiplier); reads are served by the VM's own site "
    "(read locality)")
"""Where the inter-site link's limits and the bandwidth rule come from."""

VSAN_STRETCHED_WRITE_DOCS = (
    "VMware blog \"Microsoft SQL Server on VMware All-Flash Virtual SAN - Update from the Reference Architecture "
    "Trenches\" (vSAN 6.2), its authors' reply on stretched clusters: \"The WAN latency will be added to the write "
    "latency\"; VMware, \"Performance with vSAN Stretched Clusters\" (core.vmware.com/blog/performance-vsan-stretched-"
    "clusters, 2021): a VM's write is cloned to the remote site over the inter-site link; VMware Virtual Blocks, "
    "\"Learn vSAN Stretched Cluster Resilience\" (2020): synchronous writes update the data at both sites")
"""Why a stretched write adds the inter-site round trip, not a second site's write time in series: both sites' copies
are written in parallel (``models.performance.paths``)."""


def site_hosts(node: HciClusterNode) -> int:
    """Hosts the storage policy is laid out over: one data site's (``hosts // 2``) in a stretched cluster, every
    host otherwise."""
    return node.hosts // SITE_COPIES if node.stretched else node.hosts


def site_factor(node: HciClusterNode) -> int:
    """Full copies of the data the cluster keeps above its local policy: :data:`SITE_COPIES` stretched, else 1."""
    return SITE_COPIES if node.stretched else 1


def stretched_problems(node: HciClusterNode, where: str) -> list[str]:
    """What is wrong with a stretched cluster's sites and link (empty for a cluster that is not stretched):
    an odd host count (the sites must match), fewer than one host per site, a round trip above
    :data:`MAX_RTT_MS` or a link below :data:`MIN_GBPS`. ``where`` names the node."""
    if not node.stretched:
        return []
    out = []
    if node.hosts < SITE_COPIES:
        out.append(f"{where}: a stretched cluster needs at least one host at each of its two data sites; it has "
                   f"{node.hosts} host{'' if node.hosts == 1 else 's'}.")
    elif node.hosts % SITE_COPIES:
        out.append(f"{where}: a stretched cluster splits its hosts evenly over two data sites; {node.hosts} hosts "
                   "cannot be split (the model uses "
                   f"{node.hosts // SITE_COPIES} per site).")
    if node.inter_site_rtt_ms > MAX_RTT_MS:
        out.append(f"{where}: the inter-site round trip of {node.inter_site_rtt_ms:g} ms is above vSAN's supported "
                   f"{MAX_RTT_MS:g} ms ({VSAN_STRETCHED_BANDWIDTH_DOCS}).")
    if node.inter_site_gbps < MIN_GBPS:
        out.append(f"{where}: the inter-site link of {node.inter_site_gbps:g} Gbit/s is below vSAN's minimum of "
                   f"{MIN_GBPS:g} Gbit/s ({VSAN_STRETCHED_BANDWIDTH_DOCS}).")
    return out


@dataclass(frozen=True)
class SiteCapacity:
    """One data site of a stretched cluster.

    Attributes:
        site: "A" or "B"; hosts: its hosts; raw_bytes: its capacity devices' marketed bytes; usable_bytes: the VM
        data its copy holds, bytes (each site holds a full copy: the same as the cluster's usable capacity).
    """

    site: str
    hosts: int
    raw_bytes: float
    usable_bytes: float


def site_capacities(node: HciClusterNode, raw_bytes: float, usable_bytes: float) -> tuple[SiteCapacity, ...]:
    """The two data sites of a stretched cluster (empty otherwise): each has half the hosts and half the raw
    bytes (``raw_bytes``: the cluster's) and holds a full copy of the VM data (``usable_bytes``: the cluster's
    usable capacity)."""
    if not node.stretched or node.hosts < SITE_COPIES:
        return ()
    per = site_hosts(node)
    share = per / node.hosts
    return tuple(SiteCapacity(site, per, raw_bytes * share, usable_bytes) for site in ("A", "B"))


def link_mbps_needed(write_mbps: float) -> float:
    """Inter-site bandwidth a write rate needs, MB/s: writes x :data:`DATA_MULTIPLIER` x :data:`RESYNC_MULTIPLIER`
    (:data:`VSAN_STRETCHED_BANDWIDTH_DOCS`; their example: 40 MB/s of writes need 70 MB/s, 560 Mbit/s)."""
    return write_mbps * DATA_MULTIPLIER * RESYNC_MULTIPLIER
