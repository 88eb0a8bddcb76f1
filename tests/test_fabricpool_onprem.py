"""FabricPool on an on-premises ONTAP controller: a capacity tier (StorageGRID or a cloud bucket) holds each
workload's cold-data share, after storage efficiency; cold reads wait for the object store (one delay station, the
same one Cloud Volumes ONTAP's tiering uses); the bill of materials lists the capacity tier.

The variant is made here from the bundled AFF A70 + NS224 example (no bundled example of its own)."""

from __future__ import annotations

import pytest

from models.capacity.engine import evaluate_capacity
from models.catalog import bundled_catalog
from models.performance import paths
from models.performance.engine import evaluate_performance
from models.performance.paths import build_path
from models.present.bom import bill_of_materials
from models.resources import examples_dir
from models.store import load_any

CAT = bundled_catalog()
EXAMPLE = examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml"
COLD_DATA_PCT = 40.0
COLD_READ_PCT = 10.0


def _base():
    return load_any(EXAMPLE).scenario


def _variant(tier: str = "storagegrid", latency_us: float | None = None):
    """The example with the A70's capacity tier on and its one workload 40% cold, 10% of reads cold."""
    sc = _base()
    nodes = [n.with_changes(capacity_tier=tier, capacity_tier_name="grid-east", cold_read_latency_us=latency_us)
             if n.id == "a70" else n for n in sc.nodes]
    workloads = [w.with_changes(cold_data_pct=COLD_DATA_PCT, cold_read_pct=COLD_READ_PCT) for w in sc.workloads]
    return sc.with_changes(nodes=nodes, workloads=workloads)


def _system(sc):
    return next(s for s in evaluate_capacity(sc, CAT).systems if s.system_id == "a70")


def test_the_performance_tier_holds_only_the_hot_share():
    base, variant = _base(), _variant()
    w = base.workloads[0]
    # hand calculation: the workload's data after compression x compaction x deduplication, 40% of it cold
    physical = w.dataset_bytes / (w.compression_ratio * w.compaction_ratio * w.dedupe_ratio)
    cold = 0.40 * physical
    assert cold > 1e12  # a real amount (the example's data set is terabytes)
    before, after = _system(base), _system(variant)
    assert after.physical_used_bytes == pytest.approx(before.physical_used_bytes - cold, rel=1e-12)
    assert after.usable_bytes == before.usable_bytes  # the drives are the same; only what they hold changes
    step = next(s for s in after.steps if s.name == "FabricPool capacity tier")
    assert step.bytes_after / step.bytes_before == pytest.approx(before.physical_used_bytes
                                                                 / after.physical_used_bytes, rel=1e-12)
    assert "FabricPool capacity tier" not in [s.name for s in before.steps]
    # the product of the effective-side steps is still the efficiency ratio (logical used / physical used)
    assert after.efficiency_ratio == pytest.approx(after.logical_used_bytes / after.physical_used_bytes, rel=1e-12)
    # with the tier off the workload's cold share means nothing
    off = _variant("none")
    assert _system(off).physical_used_bytes == pytest.approx(before.physical_used_bytes, rel=1e-12)


def test_cold_reads_wait_for_the_object_store():
    base, variant = _base(), _variant(latency_us=3_000.0)
    w0, w1 = base.workloads[0], variant.workloads[0]
    hot = {s.ident: s for s in build_path(base, CAT, w0).stations}
    cold = {s.ident: s for s in build_path(variant, CAT, w1).stations}
    store = [s for i, s in cold.items() if i.role == "object_store"]
    assert [i for i in hot if i.role == "object_store"] == []
    # hand calculation: 10% of reads x 3 ms each (entered), no write waits for it
    assert len(store) == 1 and store[0].delay
    assert store[0].read_s == pytest.approx(0.10 * 3_000e-6)
    assert store[0].write_s == 0.0
    # the cold reads no longer go to the drives: each drive station's read demand x (1 - 10%)
    drives = [i for i in hot if i.role in ("drives", "drive_transfer")]
    assert drives
    for i in drives:
        assert cold[i].read_s == pytest.approx(0.9 * hot[i].read_s, rel=1e-12)
        assert cold[i].write_async_s == pytest.approx(hot[i].write_async_s, rel=1e-12)


def test_the_default_latency_is_the_assumed_one_for_the_kind():
    sc = _variant("storagegrid")
    store = next(s for s in build_path(sc, CAT, sc.workloads[0]).stations if s.ident.role == "object_store")
    assert store.read_s == pytest.approx(0.10 * paths.STORAGEGRID_READ_LATENCY_US * 1e-6)
    sc = _variant("cloud-bucket")
    store = next(s for s in build_path(sc, CAT, sc.workloads[0]).stations if s.ident.role == "object_store")
    # a bucket in a cloud region: the CVO path's first-byte time plus the round trip from the site
    assert store.read_s == pytest.approx(0.10 * (paths.OBJECT_STORE_READ_LATENCY_US
                                                 + paths.ONPREM_TO_CLOUD_RTT_US) * 1e-6)


def test_the_curve_shifts():
    base = evaluate_performance(_base(), CAT).workloads[0]
    tiered = evaluate_performance(_variant(latency_us=3_000.0), CAT).workloads[0]
    # one I/O outstanding (no queueing): the mean latency grows by the reads' share of the cold-read wait, less the
    # drive time those reads no longer spend: 75% reads x 10% cold x 3 ms = 0.225 ms, a little less
    assert base.curve[0].population == tiered.curve[0].population == 1
    read = _base().workloads[0].read_pct / 100.0
    shift_ms = tiered.curve[0].latency_ms - base.curve[0].latency_ms
    assert shift_ms < read * 0.10 * 3.0
    assert shift_ms == pytest.approx(read * 0.10 * 3.0, rel=0.05)
    # a pure delay: the saturation point does not move, the curve shifts up
    assert tiered.saturation_iops == pytest.approx(base.saturation_iops, rel=1e-9)


def test_the_bill_of_materials_lists_the_capacity_tier():
    sc = _variant("cloud-bucket")
    w = sc.workloads[0]
    cold = 0.40 * w.dataset_bytes / (w.compression_ratio * w.compaction_ratio * w.dedupe_ratio)
    rows = [r for r in bill_of_materials(sc, CAT) if r.category == "FabricPool capacity tier"]
    assert len(rows) == 1
    assert rows[0].model == "cloud bucket (grid-east)"
    assert f"({cold / 2**30:,.0f} GiB; the provider's redundancy is in its price)" in rows[0].figures
    assert [r for r in bill_of_materials(_base(), CAT) if r.category == "FabricPool capacity tier"] == []


def test_a_version_8_file_opens_unchanged(tmp_path):
    import hashlib
    import sqlite3

    from models.store import open_project, save_project

    project = load_any(EXAMPLE)
    path = tmp_path / "v8.storplan"
    save_project(project, path)
    # the file as schema version 8 wrote it: no FabricPool columns on the workloads
    conn = sqlite3.connect(path)
    conn.execute("ALTER TABLE workload DROP COLUMN cold_read_pct")
    conn.execute("ALTER TABLE workload DROP COLUMN cold_data_pct")
    conn.execute("DROP TABLE IF EXISTS measured")  # schema 10's measured-environment record
    conn.execute("PRAGMA user_version = 8")
    conn.commit()
    conn.close()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    opened = open_project(path)
    assert opened.schema_version == 8 and opened.needs_upgrade
    assert opened.project == project
    assert [(w.cold_data_pct, w.cold_read_pct) for w in opened.project.scenario.workloads] == [(0.0, 0.0)]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    # and a tiered design round-trips through today's file
    tiered = project.with_scenario(_variant())
    save_project(tiered, path)
    again = open_project(path).project
    assert again == tiered
    assert again.scenario.workloads[0].cold_read_pct == COLD_READ_PCT
    assert again.scenario.node("a70").capacity_tier == "storagegrid"


def test_cold_shares_without_a_capacity_tier_are_flagged():
    from models.problems import find_problems

    assert [p for p in find_problems(_variant(), CAT) if "FabricPool" in p.message] == []
    untiered = [p for p in find_problems(_variant("none"), CAT) if "FabricPool" in p.message]
    assert [(p.severity, p.field) for p in untiered] == [("warning", "cold_data_pct")]
    assert "no FabricPool capacity tier" in untiered[0].message


def test_the_capacity_band_counts_only_the_hot_share():
    from models.capacity.reduction_band import capacity_band

    for sc in (_base(), _variant()):
        capacity = evaluate_capacity(sc, CAT)
        band = capacity_band(sc, capacity).system("a70")
        assert band is not None
        assert band.physical_used_bytes_p50 == pytest.approx(_system(sc).physical_used_bytes, rel=1e-9)


def _snapshot_only(retention_h: float = 168.0):
    """The variant with hourly Snapshot copies kept ``retention_h`` hours, 0.5 %/h change, and the snapshot-only
    tiering policy."""
    from models.project.model import SnapshotSchedule

    sc = _variant()
    snaps = SnapshotSchedule(interval_h=1.0, retention_h=retention_h, change_pct_per_h=0.5)
    nodes = [n.with_changes(tiering_policy="snapshot-only") if n.id == "a70" else n for n in sc.nodes]
    return sc.with_changes(nodes=nodes, workloads=[w.with_changes(snapshots=snaps) for w in sc.workloads])


def test_snapshot_only_tiers_only_the_cooled_snapshot_blocks():
    """Hand calculation: 168 hourly copies, each holding 0.5 % of the physical data (the capacity engine's rule),
    168 x 0.005 = 0.84 x physical of Snapshot blocks; with the 2-day cooling period of snapshot-only (NetApp's
    FabricPool tiering-policy documentation) (168 - 48) / 168 of them tier: 0.6 x physical. The workload's 40 %
    cold-data share does not apply (active data stays), nor do its cold reads."""
    variant = _snapshot_only()
    w = variant.workloads[0]
    physical = w.dataset_bytes / (w.compression_ratio * w.compaction_ratio * w.dedupe_ratio)
    untiered = variant.with_changes(nodes=[n.with_changes(capacity_tier="none") if n.id == "a70" else n
                                           for n in variant.nodes])
    before, after = _system(untiered), _system(variant)
    tiered = 168 * 0.005 * physical * (168 - 48) / 168
    assert tiered == pytest.approx(0.6 * physical)
    assert after.physical_used_bytes == pytest.approx(before.physical_used_bytes - tiered, rel=1e-12)
    step = next(s for s in after.steps if s.name == "FabricPool capacity tier")
    assert "snapshot-only" in step.formula and "about 2 days" in step.source
    # copies kept 2 days or less never cool: nothing tiers
    assert _system(_snapshot_only(48.0)).physical_used_bytes == pytest.approx(
        _system(untiered.with_changes(workloads=_snapshot_only(48.0).workloads)).physical_used_bytes, rel=1e-12)
    # reads stay on the drives: no object-store station though 10 % of reads are marked cold
    assert [s for s in build_path(variant, CAT, w).stations if s.ident.role == "object_store"] == []


def test_evaluate_json_has_a_fabricpool_key():
    """`storplan evaluate --json`'s ``fabricpool``: the tiers' bytes, policy, cold-read latency and its source, and
    the cold reads' network bytes: target IOPS x read share x 10 % cold x block size (hand calculation)."""
    from models.design import resolve
    from models.evaluate import evaluate
    from models.serialize import evaluation_to_dict

    project = load_any(EXAMPLE)
    project = project.with_scenario(_variant(latency_us=3_000.0))
    evaluation = evaluate(project, design=resolve(project))
    (row,) = evaluation_to_dict(evaluation)["fabricpool"]
    w = project.scenario.workloads[0]
    physical = w.dataset_bytes / (w.compression_ratio * w.compaction_ratio * w.dedupe_ratio)
    assert row["system"] == "a70" and row["capacity_tier"] == "storagegrid" and row["tiering_policy"] == "auto"
    assert row["cold_bytes"] == pytest.approx(0.40 * physical, rel=1e-12)
    assert row["hot_bytes"] == pytest.approx(evaluation.capacity.system("a70").physical_used_bytes)
    assert row["cold_read_latency_us"] == 3_000.0 and row["cold_read_latency_source"] == "entered"
    network = w.target_iops * w.read_pct / 100 * 0.10 * w.block_kib * 1024
    assert network > 0
    assert row["cold_read_network_bytes_per_s"] == pytest.approx(network, rel=1e-12)
    assert row["workloads"][0]["cold_read_share"] == pytest.approx(0.10)
    assert "fabricpool" not in evaluation_to_dict(evaluate(load_any(EXAMPLE)))
