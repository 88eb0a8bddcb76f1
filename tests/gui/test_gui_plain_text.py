"""Text from a file never renders as markup: the "Cannot open project" box is plain text, and every tooltip and
label of the window that shows a node label, workload name or link type from the file shows it as written
(markup in it appears as characters). Messages are shortened before they reach a dialog."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex
from PySide6.QtGui import Qt, QTextDocument
from PySide6.QtWidgets import QAbstractItemView, QGraphicsView, QLabel, QMessageBox, QWidget

from app.gui.plain_text import MAX_MESSAGE_CHARS, message_box, plain_tooltip, shorten
from models.project import loads
from models.resources import examples_dir
from models.store import save_project

EVIL = "<img src='x'><b>zqbold</b>"
"""A name as a hostile file writes it: rendered as HTML it would load a local file and show 'zqbold' in bold."""


def _example_text() -> str:
    return (examples_dir() / "aff8080-sqlserver-tpce.toml").read_text(encoding="utf-8")


def _shown(text: str, fmt: Qt.TextFormat = Qt.TextFormat.AutoText) -> str:
    """What a person reads when Qt shows ``text`` in format ``fmt`` (tooltips are AutoText)."""
    rich = fmt == Qt.TextFormat.RichText or (fmt == Qt.TextFormat.AutoText and Qt.mightBeRichText(text))
    if not rich:
        return text
    doc = QTextDocument()
    doc.setHtml(text)
    return doc.toPlainText()


def _evil_storplan(tmp_path) -> Path:
    """A .storplan file whose controller's node id is hostile text (written into its SQLite row)."""
    path = tmp_path / "evil.storplan"
    save_project(loads(_example_text()), path)
    con = sqlite3.connect(path)
    try:
        with con:
            con.execute("UPDATE node SET id = ? WHERE id = 'aff8080'", (EVIL,))
    finally:
        con.close()
    return path


def _evil_toml(tmp_path) -> Path:
    path = tmp_path / "evil.toml"
    path.write_text(_example_text().replace('id = "aff8080"', f'id = "{EVIL}"'), encoding="utf-8")
    return path


@pytest.mark.parametrize("make", [_evil_storplan, _evil_toml])
def test_cannot_open_project_box_is_plain_text(make, qtbot, window, tmp_path):
    path = make(tmp_path)
    assert not window.load(path, wait=True)
    boxes = [b for b in window.findChildren(QMessageBox) if b.windowTitle() == "Cannot open project"]
    assert len(boxes) == 1
    box = boxes[0]
    qtbot.waitUntil(box.isVisible)
    assert box.textFormat() == Qt.TextFormat.PlainText
    assert EVIL in box.text() and path.name in box.text()
    assert not box.isModal() or box.windowModality() == Qt.WindowModality.WindowModal  # the app is not blocked
    box.close()


def test_a_huge_message_is_shortened_before_the_dialog(qtbot, monkeypatch):
    """Every text handed to the dialog (constructor or setText) is the shortened one: Qt never lays out the 3 MB."""
    from app.gui import plain_text

    handed: list[int] = []

    class Recording(QMessageBox):
        def __init__(self, *args) -> None:
            handed.extend(len(a) for a in args if isinstance(a, str))
            super().__init__(*args)

        def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
            handed.append(len(text))
            super().setText(text)

    monkeypatch.setattr(plain_text, "QMessageBox", Recording)
    message = "x" * 3_000_000
    box = message_box(None, QMessageBox.Icon.Warning, "Cannot open project", message)
    qtbot.addWidget(box)
    assert handed and max(handed) <= MAX_MESSAGE_CHARS + 40, handed  # the shortened text and its note only
    assert box.text() == "x" * MAX_MESSAGE_CHARS + f"... ({3_000_000 - MAX_MESSAGE_CHARS:,} more characters)"
    assert shorten("short") == "short"


def test_plain_tooltip_renders_as_written():
    tip = plain_tooltip(f"{EVIL}\nsecond & line")
    assert Qt.mightBeRichText(tip)
    assert _shown(tip) == f"{EVIL}\nsecond & line"
    assert plain_tooltip("") == ""


def _evil_window(window, qtbot):
    """The window on the example whose controller label, workload name and a link's type are hostile text, with its
    results, problems and charts drawn."""
    # the hostile link type is a second link beside the fabric's FC link to the controller, so the I/O keeps its path
    # (a link of an unknown type carries no protocol) and the latency chart draws the workload
    second = ('    { id = "l-evil", source = "fabric", target = "aff8080", link_type = "fc-16g", ports = 8 },\n')
    text = (_example_text().replace('label = "AFF8080A EX HA pair"', f'label = "{EVIL}"')
            .replace('name = "TPC-E-like OLTP (SQL Server)"', f'name = "{EVIL}"')
            .replace('    { id = "l-shelf-1"', second + '    { id = "l-shelf-1"', 1)
            .replace('id = "l-evil", source = "fabric", target = "aff8080", link_type = "fc-16g"',
                     f'id = "l-evil", source = "fabric", target = "aff8080", link_type = "{EVIL}"'))
    window.files.replace(loads(text))
    window._evaluate()  # the fixture's worker runs synchronously; the views follow by queued signals
    qtbot.waitUntil(lambda: window.results.last_good is not None, timeout=30_000)
    window.results.setCurrentWidget(window.results.performance_view)  # a result tab's charts draw when shown
    for _ in range(10):
        qtbot.wait(50)
    return window


def _children(model, parent: QModelIndex) -> list[QModelIndex]:
    """Every cell under ``parent`` (a list model's columnCount is private in PySide: one column)."""
    try:
        columns = model.columnCount(parent)
    except TypeError:  # a list model: one column, no children
        if parent.isValid():
            return []
        columns = 1
    return [model.index(r, c, parent) for r in range(model.rowCount(parent)) for c in range(columns)]


def _texts(window) -> list[tuple[str, str]]:
    """(where, what a person reads) of every tooltip and label of the window, its docks, views, scenes and items
    that holds the marker."""
    found: list[tuple[str, str]] = []

    def add(where: str, text: str, fmt: Qt.TextFormat = Qt.TextFormat.AutoText) -> None:
        if text and "zqbold" in text:
            found.append((where, _shown(text, fmt)))

    for widget in [window, *window.findChildren(QWidget)]:
        add(f"{type(widget).__name__} tooltip", widget.toolTip())
        if isinstance(widget, QLabel):
            add(f"{type(widget).__name__} text", widget.text(), widget.textFormat())
        if isinstance(widget, QAbstractItemView) and widget.model() is not None:
            model = widget.model()
            stack = _children(model, QModelIndex())
            while stack:
                index = stack.pop()
                add(f"{type(widget).__name__} item", str(model.data(index, Qt.ItemDataRole.ToolTipRole) or ""))
                stack += _children(model, index)
        if isinstance(widget, QGraphicsView) and widget.scene() is not None:
            for item in widget.scene().items():
                add(f"{type(item).__name__} item", item.toolTip())
        for action in widget.actions():
            add("action tooltip", action.toolTip())
    return found


def test_tooltips_and_labels_show_file_text_as_written(qtbot, window):
    win = _evil_window(window, qtbot)
    found = _texts(win)
    wheres = {where for where, _ in found}
    # among them: the workload list, the link, the problems, the latency chart's curves and the result labels
    for where in ("QListWidget item", "LinkItem item", "ProblemsList item", "PlotDataItem item", "QLabel text"):
        assert where in wheres, wheres
    bad = [(where, text) for where, text in found if EVIL not in text]
    assert not bad, bad


def test_workload_and_link_tooltips_escaped(qtbot, window):
    win = _evil_window(window, qtbot)
    panel_items = [win.workloads.list.item(i) for i in range(win.workloads.list.count())]
    tips = [item.toolTip() for item in panel_items]
    assert tips and all(EVIL in _shown(tip) for tip in tips)
    links = [item for item in win.view.scene().items() if type(item).__name__ == "LinkItem"]
    evil_links = [item for item in links if "zqbold" in item.toolTip()]
    assert len(evil_links) == 1 and EVIL in _shown(evil_links[0].toolTip())


def test_sizer_price_book_refusal_is_shown_as_written(qtbot, example_window, tmp_path):
    prices = tmp_path / "prices.csv"
    prices.write_text(f'catalog_id,unit_price\n"{EVIL}",100\n', encoding="utf-8")
    dialog = example_window.show_sizer()
    qtbot.addWidget(dialog)
    dialog.import_prices(str(prices))
    qtbot.waitUntil(lambda: "refused" in dialog.prices_label.text(), timeout=10_000)
    shown = _shown(dialog.prices_label.text(), dialog.prices_label.textFormat())
    assert f"catalog_id {EVIL!r} is not a catalog record" in shown and "line 2" in shown
