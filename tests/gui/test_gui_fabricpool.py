"""FabricPool on premises through the real widgets: the controller's capacity tier in the Inspector (shown on
ONTAP, its name and cold-read latency only once a tier is chosen, the latency's default named), the workload's
cold shares in the workloads panel (shown only when its controller has a tier); every edit one undo step."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.gui.document import ProjectDocument
from app.gui.inspector import Inspector
from app.gui.main_window import read_project
from app.gui.workloads_panel import WorkloadsPanel
from models.performance.paths import STORAGEGRID_READ_LATENCY_US
from models.resources import examples_dir

EXAMPLE = "aff-a70-ns224-oracle-nvmetcp.toml"


def _widgets(qtbot) -> tuple[Inspector, WorkloadsPanel]:
    document = ProjectDocument(read_project(examples_dir() / EXAMPLE))
    inspector, panel = Inspector(document), WorkloadsPanel(document)
    for widget in (inspector, panel):
        qtbot.addWidget(widget)
        widget.resize(420, 900)
        widget.show()
        qtbot.waitExposed(widget)
    inspector.show_selection(["a70"], [])
    assert inspector.form is not None
    return inspector, panel


def _type(qtbot, editor, text: str) -> None:
    entry = editor.entry
    entry.setFocus()
    entry.lineEdit().selectAll()
    qtbot.keyClicks(entry.lineEdit(), text)
    qtbot.keyClick(entry.lineEdit(), Qt.Key.Key_Return)


def test_capacity_tier_and_cold_shares_are_edited_as_undoable_steps(qtbot):
    inspector, panel = _widgets(qtbot)
    document = inspector.document
    form = inspector.form
    assert form.row_visible("capacity_tier")
    assert not form.row_visible("capacity_tier_name") and not form.row_visible("cold_read_latency_us")
    assert not panel.form.row_visible("cold_data_pct") and not panel.form.row_visible("cold_read_pct")
    depth = document.undo_stack.count()

    inspector.form.editors["capacity_tier"].choose("storagegrid")
    assert document.scenario.node("a70").capacity_tier == "storagegrid"
    form = inspector.form
    assert form.row_visible("capacity_tier_name") and form.row_visible("cold_read_latency_us")
    assert form.editors["cold_read_latency_us"].default_text() == f"default ({STORAGEGRID_READ_LATENCY_US:,.0f} µs)"
    assert panel.form.row_visible("cold_data_pct") and panel.form.row_visible("cold_read_pct")

    _type(qtbot, panel.form.editors["cold_data_pct"], "40")
    _type(qtbot, panel.form.editors["cold_read_pct"], "10")
    workload = document.scenario.workloads[0]
    assert (workload.cold_data_pct, workload.cold_read_pct) == (40.0, 10.0)
    _type(qtbot, inspector.form.editors["cold_read_latency_us"], "3000")
    assert document.scenario.node("a70").cold_read_latency_us == 3000.0
    assert document.undo_stack.count() == depth + 4  # one step per edit

    document.undo_stack.undo()
    assert document.scenario.node("a70").cold_read_latency_us is None
    document.undo_stack.undo()
    assert document.scenario.workloads[0].cold_read_pct == 0.0
    document.undo_stack.undo()
    document.undo_stack.undo()
    assert document.scenario.workloads[0].cold_data_pct == 0.0
    assert document.scenario.node("a70").capacity_tier == "none"
    assert not panel.form.row_visible("cold_data_pct")


def test_tiering_policy_is_chosen_in_the_inspector_as_one_undo_step(qtbot):
    inspector, _panel = _widgets(qtbot)
    document = inspector.document
    assert not inspector.form.row_visible("tiering_policy")  # no capacity tier: no policy
    inspector.form.editors["capacity_tier"].choose("cloud-bucket")
    form = inspector.form
    assert form.row_visible("tiering_policy")
    depth = document.undo_stack.count()
    form.editors["tiering_policy"].choose("snapshot-only")
    assert document.scenario.node("a70").tiering_policy == "snapshot-only"
    assert document.undo_stack.count() == depth + 1
    document.undo_stack.undo()
    assert document.scenario.node("a70").tiering_policy == "auto"
