"""HDD designs behind Flash Cache (review 57): a FAS50 with 24 x 4 TB NL-SAS 7.2K HDDs in a DS224C, an 8 KiB
75/25 OLTP workload at 350,000 IOPS and a 1 ms SLO. The 1.6 TB working set fits the two nodes' Flash Cache, and
the engine used to serve every read from it (0% to the HDDs) while the HDDs only took the writes' streamed
transfers (23% busy): "800K IOPS, 0.12 ms mean" on 18 data spindles. Flash Cache holds blocks that were read, not
blocks that were written (models.performance.cache), so with 25% overwrites a quarter of its hits are reads of
stale blocks that go to the HDDs at milliseconds each: the design cannot meet 1 ms.

The second test checks the HDD station against an independent computation from the catalog record: each HDD is
busy its random reads per second x (its datasheet random read time + the block's transfer)."""

from __future__ import annotations

import pytest

from models.catalog import Drive, bundled_catalog
from models.evaluate import evaluate
from models.performance.cache import read_cache_split
from models.resources import examples_dir
from models.store import load_any

CAT = bundled_catalog()
NLSAS = "netapp-x477a-4tb-nlsas-7k2"
GIB = 2**30


def _fas50_nlsas(target_iops: float, **workload_changes):
    """The AFF A70 NVMe/TCP example rebuilt as a FAS50 HA pair with one DS224C of 24 x X477A 4 TB NL-SAS HDDs on
    12Gb SAS (1 spare per node, RAID DP), its workload at ``target_iops`` with no growth."""
    project = load_any(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml")
    sc = project.scenario
    nodes = []
    for n in sc.nodes:
        if n.kind == "controller":
            n = n.model_copy(update={"catalog_id": "netapp-fas50", "software": None})
        elif n.kind == "shelf":
            n = n.model_copy(update={"catalog_id": "netapp-ds224c", "drive": NLSAS, "drive_count": 24})
        nodes.append(n)
    links = [lk.model_copy(update={"link_type": "sas-12g", "ports": 8}) if lk.id == "l-shelf" else lk
             for lk in sc.links]
    changes = {"target_iops": target_iops, "growth_pct_per_year": 0.0, "iops_growth_pct_per_year": 0.0}
    changes.update(workload_changes)
    workloads = [w.model_copy(update=changes) for w in sc.workloads]
    sc = sc.model_copy(update={"nodes": nodes, "links": links, "workloads": workloads})
    return project.model_copy(update={"scenarios": [sc if s is project.scenario else s
                                                    for s in project.scenarios]})


def _perf(project):
    ev = evaluate(project)
    assert ev.performance is not None, [p.message for p in ev.problems]
    return ev.performance.workloads[0]


def test_24_nlsas_hdds_do_not_meet_1ms_at_350k_oltp():
    project = _fas50_nlsas(350_000.0)
    w = project.scenario.workloads[0]
    assert (w.block_kib, w.read_pct, w.slo_ms) == (8.0, 75.0, 1.0)
    perf = _perf(project)
    assert perf.target_met is False
    assert perf.latency_at_target_ms is None  # the HDDs saturate below 350K
    # 18 data spindles of a 7.2K drive cannot carry the misses of 350K IOPS: the HDDs are the bottleneck, and the
    # design saturates far below the target (a few tens of thousands IOPS at most)
    assert perf.bottleneck.startswith("HDDs")
    assert perf.saturation_iops < 50_000
    # a quarter of the module's hits are reads of blocks last overwritten (Flash Cache keeps what was read)
    assert any("Flash Cache keeps what was read, not what was written" in n for n in perf.notes)
    # even one I/O alone misses 1 ms: a read miss pays a spindle's positioning (milliseconds)
    assert perf.max_iops_at_slo is None


def test_flash_cache_hits_scaled_by_the_read_share_by_hand():
    """Memory 64 GiB, Flash Cache 3,725 GiB, working set 1,490 GiB (1.6 TB): the LRU argument alone would hit
    every read; with 25% of the data operations overwrites, the module's share of the hits (1 - 64 / 1,490) keeps
    0.75 of it, and 0.25 x (1 - 64 / 1,490) of the reads go to the drives."""
    mem, flash, ws = 64 * GIB, 3725 * GIB, 1.6e12
    s = read_cache_split(mem, flash, ws, 0.0, 1.0, 0.75)
    assert s.data_memory == pytest.approx(mem / ws)
    assert s.data_total == pytest.approx(mem / ws + 0.75 * (1 - mem / ws))
    # a read-only workload keeps every hit; without a module nothing changes
    assert read_cache_split(mem, flash, ws, 0.0, 1.0, 1.0).data_total == 1.0
    assert read_cache_split(mem, 0.0, ws, 0.0, 1.0, 0.5).data_total == pytest.approx(mem / ws)


def test_hdd_utilisation_is_its_random_iops_times_its_catalog_service_time():
    """100% random 8 KiB reads with no data set given (no cache hits, data over the whole stroke: the datasheet
    average), 600 IOPS on the FAS50 + 24 x NL-SAS design: RAID DP 2 x (9+2) with one spare per node leaves 9 data
    drives per node; each HDD serves 600 / 2 / 9 = 33.3 random reads/s, each 12 ms (catalog: 8 ms seek + 4.2 ms
    half a revolution) + 8 KiB at 170 MB/s."""
    project = _fas50_nlsas(600.0, read_pct=100.0, random_pct=100.0, dataset_bytes=0, working_set_bytes=None)
    perf = _perf(project)
    drive = CAT.get(NLSAS, Drive)
    assert drive.read_service_time_us == 12_000 and drive.max_read_mbps == 170 and drive.parallelism == 1
    per_drive_iops = 600.0 / 2 / 9
    service_s = drive.read_service_time_us * 1e-6 + 8 * 1024 / (drive.max_read_mbps * 1e6)
    loads = {s.name: s for s in perf.stations}
    for node in (1, 2):
        assert loads[f"HDDs (node {node})"].utilization == pytest.approx(per_drive_iops * service_s, rel=1e-9)
    # and the drive's random-read rate caps the design: 18 spindles x 1 / 12.05 ms
    assert perf.saturation_iops == pytest.approx(18 / service_s, rel=1e-6)
