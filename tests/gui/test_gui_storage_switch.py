"""Shelf cabling in the Inspector through the real widgets (review 54): an NS224 platform's controller offers
'direct-attached' or 'switch-attached, 2 x <storage switch>' (NetApp's supported storage switches), its tooltip names
both shelf limits, and the choice is one undo step."""

from __future__ import annotations

from app.gui.document import ProjectDocument
from app.gui.inspector import Inspector
from app.gui.main_window import read_project
from models.resources import examples_dir

EXAMPLE = "aff-a90-oracle-nvmefc64.toml"


def test_shelf_cabling_is_chosen_in_the_inspector_as_one_undo_step(qtbot):
    document = ProjectDocument(read_project(examples_dir() / EXAMPLE))
    inspector = Inspector(document)
    qtbot.addWidget(inspector)
    inspector.resize(420, 900)
    inspector.show()
    qtbot.waitExposed(inspector)
    inspector.show_selection(["a90"], [])
    form = inspector.form
    assert form is not None and form.row_visible("storage_switch")
    editor = form.editors["storage_switch"]
    labels = [editor.combo.itemText(i) for i in range(editor.combo.count())]
    assert labels[0] == "direct-attached"
    assert "switch-attached, 2 × Cisco Nexus 9336C-FX2 100GbE switch (36 ports)" in labels
    tip = editor.combo.toolTip()
    assert "up to 2 direct-attached NS224 shelves (96 drives)" in tip and "up to 7 switch-attached" in tip
    depth = document.undo_stack.count()
    editor.choose("cisco-nexus-9336c-fx2")
    assert document.scenario.node("a90").storage_switch == "cisco-nexus-9336c-fx2"
    assert document.undo_stack.count() == depth + 1
    document.undo_stack.undo()
    assert document.scenario.node("a90").storage_switch == ""


def test_storage_switch_pairs_show_only_for_switch_attached_shelves_and_are_set_as_one_step(qtbot):
    """A 20-shelf AFF A1K needs two pairs of 36-port switches (2 ports per shelf and 2 per controller on each
    switch): the Inspector shows the pair count once the shelves are switch-attached, and sets it in one undo step."""
    document = ProjectDocument(read_project(examples_dir() / EXAMPLE))
    inspector = Inspector(document)
    qtbot.addWidget(inspector)
    inspector.show()
    qtbot.waitExposed(inspector)
    inspector.show_selection(["a90"], [])
    assert not inspector.form.row_visible("storage_switch_pairs")  # direct-attached: no switches
    inspector.form.editors["storage_switch"].choose("cisco-nexus-9336c-fx2")
    inspector.show_selection(["a90"], [])
    form = inspector.form
    assert form.row_visible("storage_switch_pairs")
    depth = document.undo_stack.count()
    form.editors["storage_switch_pairs"].spin.setValue(2)
    form.editors["storage_switch_pairs"].spin.editingFinished.emit()
    assert document.scenario.node("a90").storage_switch_pairs == 2
    assert document.undo_stack.count() == depth + 1
