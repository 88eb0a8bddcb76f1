"""vSAN platforms ranked as their hardware ranks them, and a host's vSAN network bounding what crosses it.

The bug this guards against: the sizer proposed a 4-host vSAN 8 OSA hybrid cluster (5 disk groups of 2 x 10K HDD
per host, 10 GbE) at 1.43M IOPS for an 8 KiB OLTP workload, 4x an all-flash OSA cluster and 1.5x an all-NVMe ESA
cluster, and more bytes per second than four 10 GbE hosts can carry: the hybrid record had no disk-group software
limit (so the read-cache SSDs alone bounded it), and the vSAN network's per-I/O demand was divided by the host count
on top of being spread over the hosts' links (every host's link ran at a quarter of its real load).

Hand figures: a 10 GbE host link carries 10e9 / 8 x 0.94 = 1.175e9 payload bytes/s (about 6% Ethernet / IP
overhead, as the model's other Ethernet links); with FTT=1 RAID-1 on 4 hosts and no data locality, 3 of 4 copies
(read or write) sit on another host, so one I/O puts 0.75 x (read share x 1 + write share x copies written) x block
bytes on the hosts' links, each byte on one direction of one link.
"""

from __future__ import annotations

import pytest

from models.catalog import HciNode, bundled_catalog
from models.evaluate import evaluate
from models.performance.paths import build_path
from models.resources import examples_dir
from models.store import load_any

CAT = bundled_catalog()
EXAMPLE = "vsan8-esa-6host-sqlserver-oltp"  # TPC-E-like OLTP: 8 KiB, 90% reads, random, 2 ms SLO
LINK_10G = 10e9 / 8 * 0.94  # payload bytes/s of one 10 GbE host link
ESA_10G = "test-vsan-esa-10gbe"


def _catalog():
    """The bundled catalog plus the 32-core ESA host on 10 GbE (the vSAN-ESA-AF-0 class is the one ESA ReadyNode
    that supports 10 GbE: VCF 9.0 design library, vSAN network design options), so the three architectures can be
    compared on one network."""
    esa = CAT.get("vsan-esa-readynode-32c-512g-25g", HciNode)
    return CAT.with_entries([esa.model_copy(update={"id": ESA_10G, "network_gbps": 10})])


def _cluster(host: str, groups: int, drives: int, *, architecture: str = "osa", policy: str = "ftt1-raid1",
             hosts: int = 4, **workload):
    """The OLTP example on ``hosts`` hosts of ``host`` with ``groups`` x ``drives`` capacity devices per host and
    the workload fields in ``workload`` changed."""
    project = load_any(examples_dir() / f"{EXAMPLE}.toml")
    sc = project.scenario
    nodes = [n.model_copy(update={"catalog_id": host, "architecture": architecture, "policy": policy, "hosts": hosts,
                                  "disk_groups_per_host": groups, "capacity_drives_per_group": drives})
             if n.kind == "hci_cluster" else n for n in sc.nodes]
    loads = [w.model_copy(update=workload) for w in sc.workloads]
    return project.with_scenario(sc.model_copy(update={"nodes": nodes, "workloads": loads}))


def _perf(project):
    return evaluate(project, catalog=_catalog()).performance.workloads[0]


def test_hybrid_osa_at_most_all_flash_osa_below_esa_on_four_10gbe_hosts():
    """The same 4 hosts, 10 GbE, FTT=1 RAID-1 and 6 capacity devices per host (OSA: 3 disk groups of 2, as the
    sizer proposed; ESA: a storage pool of 6 NVMe devices), the example's 8 KiB OLTP workload.

    The ordering the public sources support: an OSA hybrid disk group runs the same DOM / LSOM software path as an
    all-flash one, its cache SSD serving read-cache hits (VMware, Architecting vSAN 6.2, §3.1: 70% read cache /
    30% write buffer in hybrid; all-flash reads from the capacity SSDs), and VMware's design goal for hybrid is a
    read-cache hit rate of at least 90%, misses going to the HDDs (vsan-essentials.com, chapter 5). So a hybrid
    cluster is at most an all-flash one: equal when every read hits its read cache (the example's 2.24 TB working
    set in 12 x 70% x 960 GB = 8.1 TB), far below when the working set outgrows it (the 11.2 TB data set read
    uniformly: 28% of reads miss to 24 HDDs, and the 2 ms SLO is missed at any load). ESA is above OSA ("customers
    easily reaching 4x the number of IOPS with ESA than with OSA", Yellow Bricks, 1 Feb 2023): on 10 GbE its
    network binds before its software path. Even with every read in its read cache the hybrid's writes are
    destaged to its HDDs (each copy a quarter of a random positioning: paths.VSAN_HYBRID_DESTAGE_COALESCING,
    assumed), so its 24 HDDs bind below the all-flash cluster's software path.
    """
    hybrid = _perf(_cluster("vsan-8-osa-hybrid-host", 3, 2))
    allflash = _perf(_cluster("vsan-8-osa-allflash-host", 3, 2))
    esa = _perf(_cluster(ESA_10G, 1, 6, architecture="esa"))
    hybrid_cold = _perf(_cluster("vsan-8-osa-hybrid-host", 3, 2, working_set_bytes=11_200_000_000_000))
    assert hybrid.max_iops_at_slo <= allflash.max_iops_at_slo
    assert allflash.saturation_iops == pytest.approx(12 * 25_000 * 1.3 / 1.1)  # 12 disk groups' software path
    assert allflash.bottleneck == "vSAN disk groups (software path)"
    assert hybrid.bottleneck == "capacity HDDs" and hybrid.saturation_iops < allflash.saturation_iops
    # a quarter of its I/Os wait ~5 ms on an HDD: it misses the 2 ms SLO even at light load, and saturates on its HDDs
    assert hybrid_cold.max_iops_at_slo is None
    assert hybrid_cold.saturation_iops < 0.25 * allflash.saturation_iops
    assert hybrid_cold.bottleneck == "capacity HDDs"
    assert allflash.max_iops_at_slo < esa.max_iops_at_slo
    assert esa.bottleneck == "vSAN network"


def test_the_reported_hybrid_design_ranks_below_all_flash_and_esa():
    """The designs of the report (4 hosts, 1 spare): hybrid 5 disk groups of 2 HDDs per host was 1.43M IOPS at
    the SLO, all-flash OSA 3 disk groups of 2 341K, ESA (25 GbE, 8 devices, RAID-5) 941K. The hybrid now sits at
    most at the all-flash cluster of its own layout and below the ESA cluster, and within what its four 10 GbE
    links carry (8 KiB x 0.75 x (0.9 + 0.1 x 2) = 6,758.4 bytes per I/O over 4 x 1.175e9 bytes/s = 695K IOPS)."""
    hybrid = _perf(_cluster("vsan-8-osa-hybrid-host", 5, 2))
    allflash = _perf(_cluster("vsan-8-osa-allflash-host", 5, 2))
    esa = _perf(_cluster("vsan-esa-readynode-32c-512g-25g", 1, 8, architecture="esa", policy="ftt1-raid5"))
    assert hybrid.max_iops_at_slo <= allflash.max_iops_at_slo < esa.max_iops_at_slo
    assert hybrid.max_iops_at_slo * 8192 * 0.75 * (0.9 + 0.1 * 2) <= 4 * LINK_10G
    assert hybrid.max_iops_at_slo < 0.45 * 1.43e6


@pytest.mark.parametrize("host, architecture, writes_on_wire", [
    # OSA RAID-1: a read moves one remote copy, a write its two mirror copies
    ("vsan-8-osa-allflash-host", "osa", 2),
    # ESA RAID-1: the write's two performance-leg copies, then its two capacity-leg copies (after the ack)
    (ESA_10G, "esa", 2 + 2),
])
def test_a_10gbe_host_network_bounds_iops_times_bytes_with_replica_traffic(host, architecture, writes_on_wire):
    """64 KiB random I/O, 90% reads, FTT=1 RAID-1 on 4 hosts of 10 GbE: each I/O puts
    0.75 x (0.9 x 1 + 0.1 x writes_on_wire) x 65,536 bytes on the links (OSA: 54,067.2; ESA: 63,897.6), and
    4 links carry 4 x 1.175e9 bytes/s: the cluster saturates at 86,929 (OSA) / 73,555 (ESA) IOPS, on its
    network; the network station's utilisation at the operating point is that point's bytes over the links'."""
    project = _cluster(host, 3 if architecture == "osa" else 1, 2 if architecture == "osa" else 6,
                       architecture=architecture, block_kib=64.0)
    per_io = 0.75 * (0.9 * 1 + 0.1 * writes_on_wire) * 65_536
    bound = 4 * LINK_10G / per_io
    wp = _perf(project)
    assert wp.bottleneck == "vSAN network"
    assert wp.saturation_iops == pytest.approx(bound, rel=1e-9)
    assert wp.max_iops_at_slo * per_io <= 4 * LINK_10G
    net = next(s for s in wp.stations if s.name == "vSAN network")
    assert net.utilization == pytest.approx(wp.operating_iops * per_io / (4 * LINK_10G), rel=1e-9)
    # the station itself: each I/O's whole payload, spread over the 4 host links
    sc = project.scenario
    spec = next(s for s in build_path(sc, _catalog(), sc.workloads[0]).stations if s.name == "vSAN network")
    assert spec.multiplicity == 4
    assert spec.demand(0.9) == pytest.approx(per_io / LINK_10G, rel=1e-12)


def test_the_sizer_ranks_the_hybrid_below_esa_and_shows_alternatives_as_whole_clusters():
    """``storplan size`` of the OLTP example (4-host clusters with 1 spare): no hybrid candidate promises more than
    the ESA ones, and an HCI candidate's alternatives (its other disk-group layouts) carry the figures
    ``storplan evaluate`` gives their projects (every host up), as the candidate itself does; they used to carry
    the spare-down figures (3 of 4 hosts: an ESA pool of 12 devices showed 75% of the 8-device pool's IOPS and less
    usable capacity)."""
    from models.sizing import size

    project = load_any(examples_dir() / f"{EXAMPLE}.toml")
    result = size(project, top=6)  # the hybrid, bounded by its HDDs' destaging, ranks sixth
    hci = [c for c in result.candidates if c.deployment == "hci"]
    hybrid = [c for c in hci if "hybrid" in c.summary]
    esa = [c for c in hci if "ESA" in c.summary]
    assert hybrid and esa
    assert max(c.max_iops_at_slo for c in hybrid) < min(c.max_iops_at_slo for c in esa)
    cand = next(c for c in esa if c.alternatives)
    alt = cand.alternatives[0]
    whole = evaluate(project.with_scenario(alt.scenario))
    assert alt.max_iops_at_slo == pytest.approx(whole.performance.workloads[0].max_iops_at_slo, rel=1e-6)
    assert alt.usable_bytes == pytest.approx(whole.capacity.total.usable_bytes, rel=1e-9)
    assert alt.usable_bytes > cand.usable_bytes  # more devices per host, more usable capacity
