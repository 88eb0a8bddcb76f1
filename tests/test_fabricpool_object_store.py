"""The FabricPool capacity tier's object store counts its own protection: a StorageGRID ILM rule's erasure coding
(raw = tiered bytes x (k + m) / k) or replicated copies (x n), 2+1 by default as NetApp's example ILM rule for
FabricPool data; a cloud bucket adds no raw overhead (the provider's redundancy is in its price).

Hand calculation on the bundled AFF A70 + NS224 example with 40% of its one workload cold: tiered bytes
C = 0.40 x dataset / (compression x compaction x dedupe); raw = C x 1.5 (2+1, the default), C x 1.5 (6+3),
C x 1.25 (8+2), C x 7/6 (6+1), C x 2 (2 copies), C x 1 (a cloud bucket)."""

from __future__ import annotations

import pytest

from models.capacity.efficiency import _fmt
from models.capacity.engine import evaluate_capacity
from models.capacity.fabricpool import capacity_tier_bytes, capacity_tier_raw_bytes, object_store_protection
from models.catalog import bundled_catalog
from models.formatting import fmt_capacity
from models.present.bom import bill_of_materials
from models.resources import examples_dir
from models.store import load_any

CAT = bundled_catalog()
EXAMPLE = examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml"


def _variant(tier: str = "storagegrid", **node_changes):
    sc = load_any(EXAMPLE).scenario
    nodes = [n.with_changes(capacity_tier=tier, **node_changes) if n.id == "a70" else n for n in sc.nodes]
    workloads = [w.with_changes(cold_data_pct=40.0) for w in sc.workloads]
    return sc.with_changes(nodes=nodes, workloads=workloads)


def _cold(sc) -> float:
    w = sc.workloads[0]
    return 0.40 * w.dataset_bytes / (w.compression_ratio * w.compaction_ratio * w.dedupe_ratio)


@pytest.mark.parametrize(("scheme", "factor", "words"), [
    (None, 1.5, "2+1 erasure coding"), ("ec-6+3", 1.5, "6+3 erasure coding"), ("ec-8+2", 1.25, "8+2 erasure coding"),
    ("ec-6+1", 7 / 6, "6+1 erasure coding"), ("ec-7+5", 12 / 7, "7+5 erasure coding"),
    ("copies-2", 2.0, "2 replicated copies"), ("copies-1", 1.0, "1 replicated copy"),
])
def test_storagegrid_raw_is_the_tiered_bytes_times_the_ilm_scheme(scheme, factor, words):
    sc = _variant(**({} if scheme is None else {"capacity_tier_protection": scheme}))
    node = sc.node("a70")
    cold = _cold(sc)
    assert cold > 1e12
    assert capacity_tier_bytes(node, sc.workloads) == pytest.approx(cold, rel=1e-12)
    assert capacity_tier_raw_bytes(node, sc.workloads) == pytest.approx(cold * factor, rel=1e-12)
    got, scheme_words, source = object_store_protection(node)
    assert got == pytest.approx(factor, rel=1e-12) and scheme_words == words
    assert "What are erasure-coding schemes?" in source
    if scheme is None:  # the default is sourced
        assert "Configure ILM for FabricPool data" in source
    (row,) = [r for r in bill_of_materials(sc, CAT) if r.category == "FabricPool capacity tier"]
    assert f"needs {fmt_capacity(cold * factor)} raw ({words}, x {factor:.3g})" in row.figures


def test_a_cloud_bucket_adds_no_raw_overhead_and_says_why():
    sc = _variant("cloud-bucket", capacity_tier_protection="copies-3")  # a grid's scheme means nothing to a bucket
    node = sc.node("a70")
    factor, words, why = object_store_protection(node)
    assert factor == 1.0 and "provider" in words and "price" in why
    assert capacity_tier_raw_bytes(node, sc.workloads) == pytest.approx(_cold(sc), rel=1e-12)
    (row,) = [r for r in bill_of_materials(sc, CAT) if r.category == "FabricPool capacity tier"]
    assert "raw" not in row.figures and "redundancy is in its price" in row.figures


def test_the_waterfall_step_shows_the_object_store_raw():
    sc = _variant(capacity_tier_protection="ec-4+2")
    system = next(s for s in evaluate_capacity(sc, CAT).systems if s.system_id == "a70")
    step = next(s for s in system.steps if s.name == "FabricPool capacity tier")
    inputs = dict(step.inputs)
    cold = _cold(sc)
    assert inputs["object store raw"] == f"{_fmt(cold * 1.5)} (4+2 erasure coding)"
    assert "x 1.5 =" in step.formula and "4+2 erasure coding" in step.formula
    # the performance tier is unchanged by the object store's scheme
    other = next(s for s in evaluate_capacity(_variant(capacity_tier_protection="copies-3"), CAT).systems
                 if s.system_id == "a70")
    assert other.physical_used_bytes == pytest.approx(system.physical_used_bytes, rel=1e-12)
    assert dict(next(s for s in other.steps if s.name == "FabricPool capacity tier").inputs)["object store raw"] == (
        f"{_fmt(cold * 3)} (3 replicated copies)")


def test_evaluate_json_fabricpool_carries_the_object_store_raw():
    from models.design import resolve
    from models.evaluate import evaluate
    from models.serialize import evaluation_to_dict

    project = load_any(EXAMPLE)
    project = project.with_scenario(_variant(capacity_tier_protection="ec-6+3"))
    (row,) = evaluation_to_dict(evaluate(project, design=resolve(project)))["fabricpool"]
    cold = _cold(project.scenario)
    assert row["cold_bytes"] == pytest.approx(cold, rel=1e-12)
    assert row["object_store_protection"] == "6+3 erasure coding"
    assert row["object_store_protection_factor"] == pytest.approx(1.5)
    assert row["object_store_raw_bytes"] == pytest.approx(cold * 9 / 6, rel=1e-12)
    assert "docs.netapp.com" in row["object_store_protection_source"]
