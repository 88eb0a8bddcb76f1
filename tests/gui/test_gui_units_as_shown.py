"""Units as shown: a bare number typed into a capacity field means the unit the field shows ("500" in a field
showing "931.323 GiB" is 500 GiB, not 500 TiB), in every capacity field kind (workload data set and working set,
the inspector's node capacities, the sizer's effective capacity requirement), with the project's unit TiB or TB; a
number with a unit is read in that unit whatever the field shows."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app.gui.document import ProjectDocument
from app.gui.inspector import Inspector
from app.gui.main_window import read_project
from app.gui.sizer_dialog import SizerDialog
from app.gui.workloads_panel import WorkloadsPanel
from models.project import edits
from models.resources import examples_dir

GIB, TIB, GB, TB = 2**30, 2**40, 10**9, 10**12
SMALL = {"TiB": ("GiB", GIB), "TB": ("GB", GB)}
LARGE = {"TiB": TIB, "TB": TB}


pytestmark = pytest.mark.usefixtures("us_locale")  # tests/gui/conftest.py


def _document(example: str, unit: str) -> ProjectDocument:
    project = read_project(examples_dir() / example)
    return ProjectDocument(edits.set_setting(project, "capacity_unit", unit))


def _show(qtbot, widget):
    qtbot.addWidget(widget)
    widget.resize(480, 900)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _type(qtbot, editor, text: str) -> None:
    """Select the field's text, type ``text`` key by key and press Enter, as a user does."""
    entry = editor.entry
    entry.setFocus()
    entry.lineEdit().selectAll()
    qtbot.keyClicks(entry.lineEdit(), text)
    qtbot.keyClick(entry.lineEdit(), Qt.Key.Key_Return)


def _workload_field(qtbot, unit: str, name: str):
    doc = _document("aff8080-sqlserver-tpce.toml", unit)
    panel = _show(qtbot, WorkloadsPanel(doc))
    return panel.form.editors[name], lambda: getattr(panel.document.scenario.workloads[0], name)


def _node_field(qtbot, unit: str, name: str):
    example, node_id = {"provisioned_bytes": ("anf-premium-oracle-nfs.toml", "anf"),
                        "root_partition_bytes": ("aff8080-sqlserver-tpce.toml", "aff8080")}[name]
    doc = _document(example, unit)
    inspector = _show(qtbot, Inspector(doc))
    inspector.show_selection([node_id], [])
    return inspector.form.editors[name], lambda: getattr(inspector.document.scenario.node(node_id), name)


def _sizer_field(qtbot, unit: str, name: str):
    doc = _document("aff8080-sqlserver-tpce.toml", unit)
    dialog = _show(qtbot, SizerDialog(doc))
    return dialog.form.editors[name], lambda: getattr(dialog._document.project.requirements, name)  # keeps the dialog


FIELDS = [(_workload_field, "dataset_bytes"), (_workload_field, "working_set_bytes"),
          (_node_field, "provisioned_bytes"), (_node_field, "root_partition_bytes"),
          (_sizer_field, "effective_capacity_bytes")]


@pytest.mark.parametrize("unit", ["TiB", "TB"])
@pytest.mark.parametrize("make, name", FIELDS, ids=[name for _, name in FIELDS])
def test_a_bare_number_is_read_in_the_unit_the_field_shows(qtbot, make, name, unit):
    editor, value = make(qtbot, unit, name)
    small_label, small = SMALL[unit]
    large = LARGE[unit]
    _type(qtbot, editor, f"900 {small_label}")  # under one large unit: shown in the small one
    assert value() == 900 * small
    assert editor.entry.text() == f"900 {small_label}"
    _type(qtbot, editor, "500")  # the field shows GiB (GB): 500 is 500 GiB (GB), never 500 TiB (TB)
    assert value() == 500 * small, editor.messages()
    assert editor.entry.text() == f"500 {small_label}" and editor.entry.refused_message == ""
    _type(qtbot, editor, f"3 {unit}")  # explicit large unit while showing the small one
    assert value() == 3 * large and editor.entry.text() == f"3 {unit}"
    _type(qtbot, editor, "2.5")  # now the field shows TiB (TB): the bare number is in TiB (TB)
    assert value() == int(2.5 * large) and editor.entry.text() == f"2.5 {unit}"
    _type(qtbot, editor, "700 GiB")  # explicit binary small unit while showing the large unit, in either project unit
    assert value() == 700 * GIB
    _type(qtbot, editor, "1 TB")  # explicit decimal: never mixed with binary
    assert value() == TB


def test_the_example_from_the_issue(qtbot):
    """The Dataset field showing "931.323 GiB" (10^12 bytes in a TiB project) takes "500" as 500 GiB."""
    editor, value = _workload_field(qtbot, "TiB", "dataset_bytes")
    _type(qtbot, editor, "1 TB")
    assert editor.entry.text() == "931.323 GiB"
    _type(qtbot, editor, "500")
    assert value() == 500 * GIB  # was 500 TiB


def test_a_refusal_names_the_unit_the_bare_number_was_read_in(qtbot):
    """A bare number out of range is refused in the shown unit's words (the maximum is 2^63 - 1 bytes)."""
    editor, value = _workload_field(qtbot, "TiB", "dataset_bytes")
    _type(qtbot, editor, "100 GiB")
    _type(qtbot, editor, "1e12")
    assert value() == 100 * GIB
    assert editor.messages()[0].startswith("1e12 GiB is out of range")
