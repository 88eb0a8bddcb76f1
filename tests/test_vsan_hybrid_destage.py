"""A hybrid vSAN OSA cluster's writes are bounded by what its HDDs destage: each write copy, after the write
buffer acknowledged it, costs an HDD its transfer and a quarter of a random positioning (sorted destage runs:
``models.performance.paths.VSAN_HYBRID_DESTAGE_COALESCING``, an assumption). Checked against a hand calculation
from the catalog's drive figures on the bundled hybrid example turned into 100% random 8 KiB writes."""

from __future__ import annotations

import pytest

from models.catalog import Drive, HciNode
from models.evaluate import evaluate, project_catalog
from models.resources import examples_dir
from models.store import load_any

EXAMPLE = examples_dir() / "vsan8-osa-hybrid-4host-oltp.toml"


def _writes_only(dataset_bytes: int):
    """The hybrid example with its workload made 100% random 8 KiB writes over ``dataset_bytes``."""
    project = load_any(EXAMPLE)
    scenario = project.scenario
    w = scenario.workloads[0].model_copy(update={"read_pct": 0.0, "random_pct": 100.0, "block_kib": 8.0,
                                                 "dataset_bytes": dataset_bytes,
                                                 "working_set_bytes": dataset_bytes})
    return project.with_scenario(scenario.model_copy(update={"workloads": [w]}))


def test_random_writes_saturate_at_the_hdds_destage_rate():
    project = _writes_only(60 * 10**12)  # 2 copies of 60 TB fill the 40 HDDs' 96 TB: no short stroking
    catalog = project_catalog(project)
    node = next(n for n in project.scenario.nodes if n.kind == "hci_cluster")
    host = catalog.get(node.catalog_id, HciNode)
    hdd = catalog.get(host.capacity_drive, Drive)
    assert (hdd.media, hdd.write_service_time_us, hdd.max_write_mbps) == ("HDD", 6_900, 240)
    hdds = node.hosts * node.disk_groups_per_host * node.capacity_drives_per_group  # 4 x 2 x 5 = 40
    # by hand: a destaged 8 KiB block costs 6.9 ms / 4 of positioning + 8,192 B / 240 MB/s of transfer = 1.759 ms,
    # so one HDD destages 568.4 blocks/s; FTT=1 RAID-1 writes 2 copies of every block
    per_hdd = 1 / (6.9e-3 / 4 + 8192 / 240e6)
    assert per_hdd == pytest.approx(568.4, abs=0.1)
    expected = hdds * per_hdd / 2  # 11,368 writes/s
    wp = evaluate(project).performance.workloads[0]
    assert wp.bottleneck == "capacity HDDs"
    assert wp.saturation_iops == pytest.approx(expected, rel=0.01)


def test_a_write_heavier_mix_saturates_earlier_once_the_destage_binds():
    """With the reads all in the read cache (a working set far inside 70% of the cache devices), the HDDs see only
    the destaged copies: the bound scales as 1 / write share (30% -> 60% writes halves it)."""
    project = load_any(EXAMPLE)
    scenario = project.scenario
    small = 10**12  # 1 TB working set and dataset: far inside 70% of 8 x 960 GB of cache

    def bound(read_pct: float) -> float:
        w = scenario.workloads[0].model_copy(update={"read_pct": read_pct, "dataset_bytes": small,
                                                     "working_set_bytes": small})
        ev = evaluate(project.with_scenario(scenario.model_copy(update={"workloads": [w]})))
        wp = ev.performance.workloads[0]
        assert wp.bottleneck == "capacity HDDs"
        return wp.saturation_iops

    assert bound(40.0) == pytest.approx(bound(70.0) / 2, rel=0.01)
