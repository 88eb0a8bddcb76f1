"""The read cache and the platform ladders: a cached read never makes a newer platform slower at light load than
the one it replaces unless its read cache is smaller (NetApp's published memory and Flash Cache sizes), checked
through the ladder check itself on every step; and the three steps the cache model decided before (AFF A700 / A800
-> A70 and FAS8700 -> FAS70 on OLTP) checked one by one."""

from __future__ import annotations

import math

import pytest

from models.catalog import Controller, Drive, LinkType, bundled_catalog
from models.performance.cache import data_working_set, read_cache_split
from models.performance.hardware_relation import iops_ceiling
from models.performance.paths import CACHE_FRACTION_OF_MEMORY, data_read_share
from models.validation.ladders import check_step, ladder_workloads, load_ladders, run_ladders

CAT = bundled_catalog()


def _hit(controller_id: str, workload: str, memory_only: bool = False) -> float:
    """The data read hit ratio (memory and Flash Cache; ``memory_only``: memory alone) of a ladder workload on a
    controller, by hand."""
    rec = CAT.get(controller_id, Controller)
    w = ladder_workloads()[workload]
    memory = rec.memory_gib_per_node * rec.nodes * 2**30 * CACHE_FRACTION_OF_MEMORY
    flash = (rec.flash_cache_gib_per_node or 0.0) * rec.nodes * 2**30
    ws = data_working_set(w)
    meta = 0.01 * ws if w.nas is not None else 0.0
    split = read_cache_split(memory, flash, ws, meta, w.random_pct / 100, data_read_share(w))
    return split.data_memory if memory_only else split.data_total


@pytest.fixture(scope="module")
def run():
    return run_ladders(CAT)


def test_light_load_fails_only_where_the_larger_platform_caches_less(run):
    """Every ladder check whose light-load latency is worse on the larger platform is one where that platform has
    less memory (NetApp's published figure) and its memory (or memory and Flash Cache) serves fewer of the
    workload's reads than the smaller's; and every
    check holds on saturation except the two calibrated NFS fits (A900 -> A90, 0.8% apart, the pooled fit's) and
    the steps where the larger platform's smaller cache sends more of the reads to HDDs (FAS8700 -> FAS70: Flash
    Cache keeps what was read, not what was written, models.performance.cache)."""
    assert not run.errors
    for c in run.checks:
        if c.protocol == "NVMe/FC":  # another per-operation cost, not the cache: test_hardware_relation names them
            continue
        if "light-load" in c.why:
            larger, smaller = (CAT.get(i, Controller) for i in (c.step.larger, c.step.smaller))
            assert larger.memory_gib_per_node < smaller.memory_gib_per_node, (c.step, c.workload)
            assert (_hit(larger.id, c.workload, memory_only=True) < _hit(smaller.id, c.workload, memory_only=True)
                    or _hit(larger.id, c.workload) < _hit(smaller.id, c.workload)), (c.step, c.workload)
        if "saturation" in c.why:
            if (c.step.smaller, c.step.larger, c.workload) == ("netapp-aff-a900", "netapp-aff-a90", "nfs"):
                continue
            larger, smaller = (CAT.get(i, Controller) for i in (c.step.larger, c.step.smaller))
            assert larger.memory_gib_per_node < smaller.memory_gib_per_node, (c.step, c.workload)
            assert _hit(larger.id, c.workload) < _hit(smaller.id, c.workload), (c.step, c.workload)
            assert c.larger.bottleneck.startswith("HDDs"), (c.step, c.workload)


@pytest.mark.parametrize("smaller", ["netapp-aff-a700", "netapp-aff-a800"])
def test_a70_saturates_above_its_predecessors_and_is_slower_at_light_load_only_by_its_smaller_memory(smaller):
    """NetApp's key specifications: AFF A70 256 GB per HA pair, AFF A800 1,280 GB (the A700's 1,024 GiB is the
    catalog's assumption: no key specifications page for it is public): the OLTP
    ladder workload's 200 GB working set fits the predecessor's read cache and not the A70's (128 GiB of 256), so
    0.31 of the A70's reads go to the SSDs (one 8 KiB read each) and its light-load latency is higher by that
    much; its saturation is not lower."""
    ladders = load_ladders(CAT)
    step = next(s for s in ladders.steps if (s.smaller, s.larger) == (smaller, "netapp-aff-a70"))
    check = check_step(step, ladders, CAT, "oltp", "FCP")
    assert check.larger.saturation >= check.smaller.saturation
    assert _hit(smaller, "oltp") == 1.0
    a70_hit = _hit("netapp-aff-a70", "oltp")
    assert a70_hit == pytest.approx(128 * 2**30 / 200e9)
    # the light-load difference is the A70's missed reads: 70% reads x miss x (one SSD read of 8 KiB and its
    # transfer over the shelf's PCIe NVMe back-end link), plus the difference of the two systems' IOPS caps (a rate
    # cap beside the CPU: one station per node, 1 / cap of service per operation each, 2 / cap in all: the A70's
    # 1.6M on its 64 cores against the A800's 2.4M on 96, 0.42 us); within 2%
    drive = CAT.get("netapp-nvme-ssd-7.68tb-tlc", Drive)
    link = CAT.get("pcie-nvme", LinkType)
    miss_ms = (drive.read_service_time_us * 1e-3 + 8 * 1024 / (drive.max_read_mbps * 1e6) * 1e3
               + 8 * 1024 / (link.payload_mbps * 1e6) * 1e3)
    caps = [iops_ceiling(CAT.get(cid, Controller), CAT) for cid in ("netapp-aff-a70", smaller)]
    assert all(c is not None for c in caps)
    caps_ms = (2 / caps[0].value - 2 / caps[1].value) * 1e3
    assert check.larger.light_ms - check.smaller.light_ms == pytest.approx(0.7 * (1 - a70_hit) * miss_ms + caps_ms,
                                                                           rel=0.02)


def test_fas70_flash_cache_no_longer_bounds_it_below_the_fas8700():
    """FAS70: two NVMe caching modules per controller serving reads as the catalog's NVMe SSD class (1M random
    reads each): the Flash Cache station does not bound the OLTP ladder. The FAS8700's 256 GiB per controller
    (memory cache 256 GiB per HA pair) holds the whole 200 GB working set; the FAS70's 128 GiB per controller
    holds 64% of it and sends the rest to Flash Cache, which keeps only blocks last read, not overwritten
    (models.performance.cache): 70% of those, so 0.36 x 0.30 = 10.7% of the reads go to the 24 10K HDDs, which
    bound it below the FAS8700 (the successor's published memory is half)."""
    ladders = load_ladders(CAT)
    step = next(s for s in ladders.steps if (s.smaller, s.larger) == ("netapp-fas8700", "netapp-fas70"))
    check = check_step(step, ladders, CAT, "oltp", "FCP")
    assert "Flash Cache" not in check.larger.bottleneck
    assert _hit("netapp-fas8700", "oltp") == 1.0
    memory_share = 128 * 2**30 / data_working_set(ladder_workloads()["oltp"])
    assert _hit("netapp-fas70", "oltp") == pytest.approx(memory_share + 0.7 * (1 - memory_share))
    assert check.larger.bottleneck.startswith("HDDs")
    assert check.larger.saturation < check.smaller.saturation
    assert CAT.get("netapp-fas70", Controller).memory_gib_per_node < CAT.get("netapp-fas8700",
                                                                             Controller).memory_gib_per_node


def test_a900_to_a90_nfs_gap_is_the_two_fits_hold_times_within_their_standard_errors():
    """The one saturation step that fails (AFF A900 -> A90, NFS) is two calibrated fits of one software constant:
    both platforms have 48 cores and 48 WAFL affinities per node and both bind on the affinities, so each
    saturates at nodes x affinities / hold; the A90's NFS fit (SPECstorage eda_blended, ONTAP 9.15) holds an
    affinity 99.786 us, the A900's (SPECstorage swbuild, ONTAP 9.14) 98.977 us, and the ratio of the two
    saturations is the inverse ratio of those holds. The gap is smaller than the two fits' combined standard
    error: the model cannot order the two, as NetApp's equal published peaks say."""
    ladders = load_ladders(CAT)
    step = next(s for s in ladders.steps if (s.smaller, s.larger) == ("netapp-aff-a900", "netapp-aff-a90"))
    check = check_step(step, ladders, CAT, "nfs", "NFS")
    old, new = (next(p for p in CAT.get(i, Controller).performance if p.protocol == "NFS")
                for i in ("netapp-aff-a900", "netapp-aff-a90"))
    assert "WAFL affinities" in check.smaller.bottleneck and "WAFL affinities" in check.larger.bottleneck
    assert old.affinities_per_node == new.affinities_per_node
    assert check.larger.saturation / check.smaller.saturation == pytest.approx(
        old.affinity_hold_us / new.affinity_hold_us, rel=1e-9)
    combined = math.hypot(old.stderr["affinity_hold_us"], new.stderr["affinity_hold_us"])
    assert abs(new.affinity_hold_us - old.affinity_hold_us) < combined
