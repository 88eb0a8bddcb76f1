"""The controller read cache (models.performance.cache): hand calculations of the hit ratios on small cases, and a
file workload's metadata misses reaching the drives of a small-memory disk system."""

from __future__ import annotations

import pytest

from models.catalog import Controller, Drive, bundled_catalog
from models.performance import build_path
from models.performance.cache import (
    METADATA_BLOCK_BYTES,
    METADATA_SHARE_OF_WORKING_SET,
    data_working_set,
    lru_hit_ratio,
    metadata_working_set,
    read_cache_split,
)
from models.performance.nas import read_type_share
from models.performance.paths import CACHE_FRACTION_OF_MEMORY
from models.performance.positioning import positioning_s
from models.performance.public_ramps import fas3140_sfs2008
from models.project.model import NAS_METADATA_READ_OPS, NAS_METADATA_WRITE_OPS, NAS_READ_OPS, NAS_WRITE_OPS

CAT = bundled_catalog()
GIB = 2**30


def test_lru_hit_ratio_by_hand():
    # uniform random: cache / working set; sequential: fits or floods
    assert lru_hit_ratio(10 * GIB, 40 * GIB) == pytest.approx(0.25)
    assert lru_hit_ratio(50 * GIB, 40 * GIB) == 1.0
    assert lru_hit_ratio(10 * GIB, 20 * GIB, random_fraction=0.5) == pytest.approx(0.5 * 0.5 + 0.5 * 0.0)
    assert lru_hit_ratio(30 * GIB, 20 * GIB, random_fraction=0.0) == 1.0
    assert lru_hit_ratio(10 * GIB, 0) == 0.0  # unknown working set: no hits (conservative)


def test_metadata_takes_the_cache_first_then_data_gets_the_rest():
    # 8 GiB memory + 32 GiB Flash Cache, 1 GiB of metadata, 100 GiB of data: metadata all in memory; data gets
    # 7 GiB of memory (7%) and 39 GiB in all (39%)
    s = read_cache_split(8 * GIB, 32 * GIB, 100 * GIB, 1 * GIB)
    assert (s.metadata_memory, s.metadata_total) == (1.0, 1.0)
    assert s.data_memory == pytest.approx(0.07) and s.data_total == pytest.approx(0.39)
    assert s.metadata_miss == 0.0 and s.metadata_flash == 0.0
    # 2 GiB memory + 8 GiB Flash Cache, 4 GiB of metadata: half of it in memory, the rest in the module; data gets
    # no memory and 6 GiB of the module (6 of 100)
    s = read_cache_split(2 * GIB, 8 * GIB, 100 * GIB, 4 * GIB)
    assert s.metadata_memory == pytest.approx(0.5) and s.metadata_total == 1.0
    assert s.metadata_flash == pytest.approx(0.5)
    assert s.data_memory == 0.0 and s.data_total == pytest.approx(0.06)
    # 20 GiB of metadata against 10 GiB of cache: half the metadata operations read a block from the drives, and
    # no data read hits
    s = read_cache_split(2 * GIB, 8 * GIB, 100 * GIB, 20 * GIB)
    assert s.metadata_miss == pytest.approx(0.5) and s.data_total == 0.0
    # a block workload (no metadata): the data ratios are the plain LRU ratios
    s = read_cache_split(8 * GIB, 32 * GIB, 100 * GIB, 0.0)
    assert s.metadata_miss == 0.0
    assert s.data_memory == pytest.approx(0.08) and s.data_total == pytest.approx(0.40)


def test_working_sets_of_a_workload():
    sc = fas3140_sfs2008(8.0, 4000)
    w = sc.workloads[0]
    assert data_working_set(w) == w.working_set_bytes
    assert metadata_working_set(w) == pytest.approx(METADATA_SHARE_OF_WORKING_SET * w.working_set_bytes)
    # the default working set is the whole data set; a block workload has no metadata working set
    assert data_working_set(w.with_changes(working_set_bytes=None)) == w.dataset_bytes
    assert metadata_working_set(w.with_changes(nas=None)) == 0.0


def test_metadata_misses_reach_the_hdds_of_a_small_memory_system():
    """The FAS3140 SPECsfs2008 scenario on a copy of its record with 1 GiB of memory per node and no PAM: the
    metadata working set (1% of 1.44 TB) does not fit 1 GiB of cache, so a metadata operation reads a 4 KiB block
    from the SATA drives with probability 1 - cache / metadata working set; the HDD station's demand per operation
    is the data reads' share plus that, computed here by hand."""
    rec = CAT.get("netapp-fas3140", Controller)
    small = rec.model_copy(update={"memory_gib_per_node": 1.0, "flash_cache_gib_per_node": None})
    cat = CAT.with_entries([small])
    sc = fas3140_sfs2008(8.0, 4000)
    w = sc.workloads[0]
    path = build_path(sc, cat, w)
    hdd = cat.get("netapp-x302a-1tb-sata-7k2", Drive)
    nodes = 2
    cache = 1.0 * nodes * GIB * CACHE_FRACTION_OF_MEMORY
    meta_ws = METADATA_SHARE_OF_WORKING_SET * w.working_set_bytes
    meta_miss = 1.0 - cache / meta_ws
    data_hit = 0.0  # the metadata fills the cache: nothing is left for data
    nas = w.nas
    assert nas is not None
    f_r, f_w = nas.share(NAS_READ_OPS), nas.share(NAS_WRITE_OPS)
    f_mr, f_mw = nas.share(NAS_METADATA_READ_OPS), nas.share(NAS_METADATA_WRITE_OPS)
    read_type = read_type_share(nas)
    assert read_type == pytest.approx(f_r + f_mr)
    # one random 8 KiB data read (positioning + transfer) and one random 4 KiB metadata read on a miss; the
    # positioning is over the share of the data drives the data set occupies (models.performance.positioning)
    span = w.dataset_bytes / sum(g.data * g.member_bytes for g in path.raid_groups)
    pos = positioning_s(hdd.read_service_time_us * 1e-6, hdd.rpm, span)
    data_read = pos + 8 * 1024 / (hdd.max_read_mbps * 1e6)
    meta_read = pos + METADATA_BLOCK_BYTES / (hdd.max_read_mbps * 1e6)
    expected_r = (f_r / read_type * (1 - data_hit) * data_read + f_mr / read_type * meta_miss * meta_read) / nodes
    expected_w = f_mw / (f_w + f_mw) * meta_miss * meta_read / nodes
    hdds = {s.name: s for s in path.stations}["HDDs (node 1)"]
    assert hdds.read_s == pytest.approx(expected_r, rel=1e-9)
    assert hdds.write_s == pytest.approx(expected_w, rel=1e-9)  # a modifying operation waits for its block
    assert any("read a 4 KiB block from the drives" in n for n in path.notes)
    # with the catalog's memory and PAM the metadata fits and metadata operations no longer load the drives
    full = {s.name: s for s in build_path(sc, CAT, w).stations}["HDDs (node 1)"]
    assert full.write_s == 0.0 and full.read_s < hdds.read_s


def test_hybrid_vsan_destages_write_copies_in_sorted_runs():
    """vSAN 8 OSA hybrid example (FTT=1 RAID-1: two copies per write): the write buffer destages each copy to the
    capacity HDDs in sorted runs (VMware, "Architecting VMware vSAN 6.2" §5.5): its transfer, 8 KiB at the HDD's
    write rate, and a quarter of a random write positioning at the span the data occupy (assumed coalescing),
    spread over the capacity HDDs; a read miss still pays a whole random positioning."""
    from models.performance.positioning import short_stroke
    from models.resources import examples_dir
    from models.store import load_any

    project = load_any(examples_dir() / "vsan8-osa-hybrid-4host-oltp.toml")
    w = project.scenario.workloads[0]
    path = build_path(project.scenario, CAT, w)
    hdds = {s.name: s for s in path.stations}["capacity HDDs"]
    hdd = CAT.get("seagate-exos-10e2400-2.4tb-sas-10k", Drive)
    block = w.block_kib * 1024
    stored = w.dataset_bytes / (w.compression_ratio * w.compaction_ratio * w.dedupe_ratio)
    span = 2 * stored / (40 * hdd.right_sized_bytes)
    write_pos = short_stroke(hdd, span).write_service_time_us * 1e-6
    assert write_pos < hdd.write_service_time_us * 1e-6
    assert hdds.write_async_s == pytest.approx(2 * (write_pos / 4 + block / (hdd.max_write_mbps * 1e6)), rel=1e-12)
    # a read that misses the read cache (70% of the 8 x 960 GB cache devices against the working set) positions
    cache_ssd = CAT.get("micron-5400-max-960gb-sata", Drive)
    hit = lru_hit_ratio(0.7 * cache_ssd.marketed_bytes * 4 * 2, data_working_set(w), w.random_pct / 100)
    assert 0 < hit < 1
    # positioning over the share of the capacity HDDs (4 hosts x 2 disk groups x 5) the two copies of the data
    # set occupy
    stored = w.dataset_bytes / (w.compression_ratio * w.compaction_ratio * w.dedupe_ratio)
    span = 2 * stored / (40 * hdd.right_sized_bytes)
    assert 0 < span < 1
    pos = positioning_s(hdd.read_service_time_us * 1e-6, hdd.rpm, span)
    rd = (w.random_pct / 100) * pos + block / (hdd.max_read_mbps * 1e6)
    assert hdds.read_s == pytest.approx((1 - hit) * rd, rel=1e-12)
    assert any("destaged to the capacity disks in sorted runs" in n and "1/4 of a random positioning (assumed)" in n
               for n in path.notes)


def test_pam_serves_metadata_memory_cannot_hold():
    """FAS3140 SPECsfs2008 scenario with the catalog record (4 GiB memory and 32 GiB PAM per node, PAM read 10
    us): the metadata working set (1% of 30% of 120 MB x 40,011) is larger than the memory cache, so memory holds
    cache / metadata of it and PAM the rest; data reads get what PAM has left. The PAM station's demand per
    operation is the data reads' PAM hits plus the read-only metadata operations' PAM hits, by hand; its servers
    are the default parallelism (the record gives no module IOPS)."""
    from models.performance.paths import FLASH_CACHE_PARALLELISM

    rec = CAT.get("netapp-fas3140", Controller)
    sc = fas3140_sfs2008(8.0, 4000)
    w = sc.workloads[0]
    stations = {s.name: s for s in build_path(sc, CAT, w).stations}
    nodes = 2
    memory = rec.memory_gib_per_node * nodes * GIB * CACHE_FRACTION_OF_MEMORY
    pam = rec.flash_cache_gib_per_node * nodes * GIB
    ws = 0.30 * 120e6 * 40011
    meta = 0.01 * ws
    assert memory < meta < memory + pam
    meta_memory, meta_pam = memory / meta, 1 - memory / meta
    nas = w.nas
    assert nas is not None
    # memory is all metadata: every data hit is a PAM hit, kept only for blocks last read, not overwritten
    # (models.performance.cache: Flash Cache holds what was read): the data reads' share of reads and writes
    data_pam = (memory + pam - meta) / ws * nas.share(NAS_READ_OPS) / nas.share(NAS_READ_OPS + NAS_WRITE_OPS)
    read_type = read_type_share(nas)
    f_r, f_mr = nas.share(NAS_READ_OPS), nas.share(NAS_METADATA_READ_OPS)
    module = rec.flash_cache_read_us * 1e-6
    expected = (f_r / read_type * data_pam + f_mr / read_type * meta_pam) * module / nodes
    assert meta_memory == pytest.approx(0.298, abs=0.001)
    pam_station = stations["node 1 Flash Cache"]
    assert pam_station.read_s == pytest.approx(expected, rel=1e-9)
    assert pam_station.servers == FLASH_CACHE_PARALLELISM


def test_nvme_caching_modules_serve_as_many_reads_at_once_as_their_iops_allow():
    """FAS70: two NVMe caching modules per controller at an assumed 1,000,000 random reads each (catalog), each hit
    100 us (the default module read time): servers = 2,000,000 x 100 us = 200 per node."""
    from models.performance.paths import FLASH_CACHE_READ_US

    rec = CAT.get("netapp-fas70", Controller)
    assert rec.flash_cache_read_iops_per_node == 2_000_000 and rec.flash_cache_read_us is None
    sc = fas3140_sfs2008(8.0, 4000)
    node = next(n for n in sc.nodes if n.kind == "controller")
    sc = sc.model_copy(update={"nodes": [n.model_copy(update={"catalog_id": "netapp-fas70", "software": None})
                                         if n.id == node.id else n for n in sc.nodes]})
    stations = {s.name: s for s in build_path(sc, CAT, sc.workloads[0]).stations}
    assert stations["node 1 Flash Cache"].servers == round(2_000_000 * FLASH_CACHE_READ_US * 1e-6) == 200


def test_two_workloads_on_one_system_share_its_cache():
    """Two workloads on one controller hold its cache in proportion to their working sets (data and metadata):
    the FAS3140 scenario on a copy of its record with 1 GiB of memory per node and no PAM, its workload and a
    twin of it on the same controller: each holds half the cache, so a metadata operation misses with
    probability 1 - (cache / 2) / metadata working set, computed here by hand. A disabled or capacity-only twin
    issues no reads and takes no share; one workload alone has the whole cache, as before."""
    from models.performance.cache import cache_share
    from models.project.model import CAPACITY_ONLY

    rec = CAT.get("netapp-fas3140", Controller)
    small = rec.model_copy(update={"memory_gib_per_node": 1.0, "flash_cache_gib_per_node": None})
    cat = CAT.with_entries([small])
    sc = fas3140_sfs2008(8.0, 4000)
    w = sc.workloads[0]
    twin = w.with_changes(id="twin", name="twin")
    shared = sc.model_copy(update={"workloads": [w, twin]})
    assert cache_share(w, shared.workloads) == pytest.approx(0.5, rel=1e-12)
    bigger = twin.with_changes(working_set_bytes=3 * w.working_set_bytes)
    assert cache_share(w, [w, bigger]) == pytest.approx(0.25, rel=1e-12)  # 1 : 3 working sets
    assert cache_share(w, [w, twin.with_changes(enabled=False)]) == 1.0
    assert cache_share(w, [w, twin.with_changes(preset=CAPACITY_ONLY)]) == 1.0
    assert cache_share(w, [w, twin.with_changes(target="elsewhere")]) == 1.0
    nodes = 2
    cache = 1.0 * nodes * GIB * CACHE_FRACTION_OF_MEMORY
    meta_ws = METADATA_SHARE_OF_WORKING_SET * w.working_set_bytes
    alone, halved = 1.0 - cache / meta_ws, 1.0 - cache / 2 / meta_ws
    hdd = cat.get("netapp-x302a-1tb-sata-7k2", Drive)
    path = build_path(shared, cat, w)
    span = 2 * w.dataset_bytes / sum(g.data * g.member_bytes for g in path.raid_groups)  # both data sets stored
    meta_read = positioning_s(hdd.read_service_time_us * 1e-6, hdd.rpm, span) + METADATA_BLOCK_BYTES / (
        hdd.max_read_mbps * 1e6)
    nas = w.nas
    assert nas is not None
    f_w, f_mw = nas.share(NAS_WRITE_OPS), nas.share(NAS_METADATA_WRITE_OPS)
    hdds = {s.name: s for s in path.stations}["HDDs (node 1)"]
    assert hdds.write_s == pytest.approx(f_mw / (f_w + f_mw) * halved * meta_read / nodes, rel=1e-9)
    assert any("this workload's 50% share of it" in n for n in path.notes)
    single = {s.name: s for s in build_path(sc, cat, w).stations}["HDDs (node 1)"]
    assert halved > alone and hdds.write_s > single.write_s
