"""Tools → New / Duplicate Hardware: a copy of a record becomes one of the user's own after the catalog schema
checks it (a number without a source is refused, naming the field); the saved record is in the user catalog when
it is read again; deleting a record the open project uses is refused, naming the items."""

from __future__ import annotations

import re

from PySide6.QtWidgets import QLineEdit, QMessageBox

from app.gui.hardware_editor import delete_own_record
from models.catalog import Controller, load_user_catalog
from models.user_catalog import save_user_record


def test_duplicate_validate_save_and_reopen(qtbot, example_window):
    win = example_window
    editor = win.show_hardware_editor("netapp-aff-a50")
    qtbot.addWidget(editor)
    text = editor.text.toPlainText()
    assert 'id = "netapp-aff-a50-mine"' in text and "[[controller]]" in text
    assert '[controller.provenance.cores_per_node]\nkind = "assumed"' in text
    # a number without a source is refused, naming the field
    broken = re.sub(r"\[controller\.provenance\.cores_per_node\]\n(\w+ = .*\n)+", "", text)
    assert broken != text
    editor.text.setPlainText(broken)
    assert editor.save() is False
    assert "cores_per_node" in editor.message.text() and "Not saved" in editor.message.text()
    # the copy, with a bigger memory and its source, is saved and read back from the user catalog file
    editor.text.setPlainText(text.replace("memory_gib_per_node = 128", "memory_gib_per_node = 256"))
    with qtbot.waitSignal(editor.sig_saved, timeout=10_000) as saved:
        assert editor.save()
    assert saved.args == ["netapp-aff-a50-mine"]
    mine = load_user_catalog().get("netapp-aff-a50-mine", Controller)
    assert mine.memory_gib_per_node == 256 and mine.name.endswith("(my copy)")
    assert mine.based_on == "netapp-aff-a50"  # it takes the drives sold for the A50


def test_a_copy_never_takes_a_stock_records_id(qtbot, example_window):
    """Saving a copy under the id of any stock record (not only the one it started from) is refused: the user's
    hardware never replaces stock hardware silently."""
    from models.catalog import bundled_catalog

    editor = example_window.show_hardware_editor("netapp-aff-a50")
    qtbot.addWidget(editor)
    text = editor.text.toPlainText().replace('id = "netapp-aff-a50-mine"', 'id = "netapp-aff-a70"')
    editor.text.setPlainText(text)
    assert editor.save() is False
    assert "give the copy a new id ('netapp-aff-a70' is the stock record" in editor.message.text()
    assert load_user_catalog().get("netapp-aff-a70", Controller) == bundled_catalog().get("netapp-aff-a70")


def test_deleting_a_record_in_use_is_refused_naming_the_items(qtbot, example_window, monkeypatch):
    win = example_window
    record = win.document.catalog.find("netapp-aff8080a-ex").model_copy(update={"id": "my-8080"})
    save_user_record(record)
    project = win.document.project
    scenario = project.scenario
    nodes = [n.model_copy(update={"catalog_id": "my-8080"}) if n.kind == "controller" else n for n in scenario.nodes]
    using = project.with_scenario(scenario.model_copy(update={"nodes": nodes}))
    warnings = []
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Yes))
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda parent, title, text: warnings.append(text)))
    assert delete_own_record(win, record, using) is False
    assert "used by the open project" in warnings[0] and "AFF8080A EX HA pair" in warnings[0]
    assert load_user_catalog().find("my-8080") is not None
    assert delete_own_record(win, record, project) is True  # the unchanged project does not use it
    assert load_user_catalog().find("my-8080") is None


def test_saved_hardware_appears_under_my_hardware_and_can_be_deleted_from_the_palette(qtbot, example_window,
                                                                                   monkeypatch):
    """A saved record is listed at once in the palette's "My hardware" group (not in its kind's group, once);
    its context menu deletes it (after asking), and the palette lists the catalog without it."""
    from app.gui.palette import MY_HARDWARE

    win = example_window
    palette = win.palette_widget
    assert MY_HARDWARE not in palette.groups
    editor = win.show_hardware_editor("netapp-aff-a50")
    qtbot.addWidget(editor)
    with qtbot.waitSignal(editor.sig_saved, timeout=10_000):
        assert editor.save()
    group = palette.groups[MY_HARDWARE]
    ids = [group.child(i).data(0, 256) for i in range(group.childCount())]
    assert ids == ["netapp-aff-a50-mine"] and group.text(0).startswith("My hardware  (1)")
    assert palette.entry_item("netapp-aff-a50-mine").parent() is group
    assert win.document.catalog.find("netapp-aff-a50-mine") is not None
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    delete = [a for a in palette.own_record_menu("netapp-aff-a50-mine").actions() if a.text().startswith("Delete")]
    delete[0].trigger()
    assert MY_HARDWARE not in palette.groups
    assert win.document.catalog.find("netapp-aff-a50-mine") is None


def test_the_form_edits_the_record_with_a_source_for_every_number(qtbot, example_window):
    """The Form tab, generated from the controller schema: typing a memory size rewrites the TOML; clearing its
    source makes the record invalid (naming the field) until a source is typed; the saved record has both; an
    out-of-range value is refused on the field by the schema's own limit."""
    from PySide6.QtCore import Qt

    win = example_window
    editor = win.show_hardware_editor("netapp-aff-a50")
    qtbot.addWidget(editor)
    editor.show()
    form = editor.form
    assert editor.tabs.currentWidget() is form and form.kind == "controller"
    assert "cores_per_node" in form.numbers and "performance" not in form.form.editors
    memory = form.form.editors["memory_gib_per_node"]
    memory.entry.setFocus()
    memory.entry.lineEdit().selectAll()
    qtbot.keyClicks(memory.entry.lineEdit(), "512")
    qtbot.keyClick(memory.entry.lineEdit(), Qt.Key.Key_Return)
    assert "memory_gib_per_node = 512" in editor.text.toPlainText()
    row = form.numbers.index("memory_gib_per_node")
    form.sources.item(row, 1).setText("")
    assert "Not valid yet" in editor.message.text() and "memory_gib_per_node" in editor.message.text()
    form.kind_box(row).setCurrentText("assumed")
    form.sources.item(row, 1).setText("a lab unit with its memory doubled, as ordered")
    assert editor.message.text() == "Valid: ready to save."
    cores = form.form.editors["cores_per_node"]
    cores.entry.setFocus()
    cores.entry.lineEdit().selectAll()
    qtbot.keyClicks(cores.entry.lineEdit(), "0")
    qtbot.keyClick(cores.entry.lineEdit(), Qt.Key.Key_Return)
    assert cores.messages() and "cores_per_node = 0" not in editor.text.toPlainText()  # ge=1 in the schema
    # a user's click on the TOML tab takes the focus off the field first (its editing-finished fires then);
    # switching tabs from code does not, so the focus leaves here, before the text is edited
    cores.entry.lineEdit().clearFocus()
    qtbot.wait(50)
    editor.tabs.setCurrentWidget(editor.text)
    editor.text.setPlainText(editor.text.toPlainText().replace('name = "NetApp AFF A50 HA pair (my copy)"',
                                                                'name = "Lab A50"'))
    editor.tabs.setCurrentWidget(form)
    assert form.data["name"] == "Lab A50"  # the form shows what the TOML now says
    assert form.form.editors["name"].findChild(QLineEdit).text() == "Lab A50"
    qtbot.wait(50)
    assert 'name = "Lab A50"' in editor.text.toPlainText()
    with qtbot.waitSignal(editor.sig_saved, timeout=10_000):
        assert editor.save()
    mine = load_user_catalog().get("netapp-aff-a50-mine", Controller)
    assert mine.memory_gib_per_node == 512 and mine.name == "Lab A50"
    assert mine.kind_of("memory_gib_per_node") == "assumed"
    assert mine.sources["memory_gib_per_node"].startswith("a lab unit")


def test_a_lifecycle_set_in_the_form_asks_for_its_source_in_the_table(qtbot, example_window):
    """The lifecycle holds no number, yet the schema wants its source: the sources table has its row, clearing
    that source makes the record invalid (naming the field) and typing one makes it valid again."""
    win = example_window
    editor = win.show_hardware_editor("netapp-aff-a50")
    qtbot.addWidget(editor)
    editor.show()
    form = editor.form
    assert "lifecycle" in form.numbers and "lifecycle" in form.form.editors
    row = form.numbers.index("lifecycle")
    assert form.sources.item(row, 1).text().startswith("The model is one of NetApp's current systems")
    form.sources.item(row, 1).setText("")
    assert "Not valid yet" in editor.message.text() and "lifecycle" in editor.message.text()
    form.kind_box(row).setCurrentText("assumed")
    form.sources.item(row, 1).setText("still on the vendor's price list we were sent")
    assert editor.message.text() == "Valid: ready to save."


def test_the_editor_opens_from_every_catalog_record_and_its_copy_validates(qtbot, example_window):
    """Tools > New / Duplicate Hardware from each of the catalog's records (cloud VMs with a profile derivation,
    managed services with lists of tiers, ...): the editor opens, its form shows the copy, and the copy validates
    as a record equal to the stock one but for its id, name and ``based_on``."""
    from models.catalog import bundled_catalog

    catalog = bundled_catalog()
    failed = []
    for stock in catalog:
        editor = example_window.show_hardware_editor(stock.id)
        qtbot.addWidget(editor)
        copy = editor.check()
        name = editor.form.form.editors["name"].line.text() if "name" in editor.form.form.editors else None
        same = copy is not None and copy.model_dump(exclude={"id", "name", "based_on"}) == stock.model_dump(
            exclude={"id", "name", "based_on"})
        if not same or name != f"{stock.name} (my copy)":
            failed.append((stock.id, editor.message.text()[:200], name))
        editor.close()
    assert len(list(catalog)) > 200
    assert failed == []
