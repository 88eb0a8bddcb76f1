"""The object store's protection in the Inspector: shown for a StorageGRID capacity tier only (a cloud bucket's
redundancy is the provider's), 2+1 erasure coding by default, a change one undo step that the bill of materials'
raw figure follows (tiered bytes x (k + m) / k)."""

from __future__ import annotations

import pytest

from app.gui.document import ProjectDocument
from app.gui.inspector import Inspector
from app.gui.main_window import read_project
from models.capacity.fabricpool import capacity_tier_bytes, capacity_tier_raw_bytes
from models.resources import examples_dir


def test_object_store_protection_is_chosen_for_storagegrid_as_one_undo_step(qtbot):
    document = ProjectDocument(read_project(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml"))
    inspector = Inspector(document)
    qtbot.addWidget(inspector)
    inspector.resize(420, 900)
    inspector.show()
    inspector.show_selection(["a70"], [])
    assert not inspector.form.row_visible("capacity_tier_protection")
    inspector.form.editors["capacity_tier"].choose("storagegrid")
    form = inspector.form
    assert form.row_visible("capacity_tier_protection")
    assert document.scenario.node("a70").capacity_tier_protection == "ec-2+1"  # the sourced default
    assert document.set_workload_field(document.scenario.workloads[0].id, "cold_data_pct", 40.0) is None
    depth = document.undo_stack.count()
    form.editors["capacity_tier_protection"].choose("ec-8+2")
    node = document.scenario.node("a70")
    assert node.capacity_tier_protection == "ec-8+2" and document.undo_stack.count() == depth + 1
    held = capacity_tier_bytes(node, document.scenario.workloads)
    assert held > 1e12  # 40% of the example's data after efficiency
    assert capacity_tier_raw_bytes(node, document.scenario.workloads) == pytest.approx(held * 10 / 8, rel=1e-12)
    document.undo_stack.undo()
    assert document.scenario.node("a70").capacity_tier_protection == "ec-2+1"
    inspector.form.editors["capacity_tier"].choose("cloud-bucket")
    assert not inspector.form.row_visible("capacity_tier_protection")
