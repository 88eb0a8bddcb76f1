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
