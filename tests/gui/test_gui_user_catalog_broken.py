"""The desktop app starts with a broken user catalog file: without its records, a non-modal message names the
file and the line, and the file is left as it was for repair."""

from __future__ import annotations

import hashlib

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from app.gui.catalog_notice import TITLE
from app.gui.startup import open_main_window
from models.catalog import bundled_catalog
from models.resources import user_catalog_path

BROKEN = {
    "not UTF-8": (b'# mine\n\n[[drive]]\nid = "caf\xe9"\n', "line 4", "not UTF-8"),
    "deep nesting": (b"a = " + b"[" * 3000 + b"]" * 3000 + b"\n", "line 1", "nested more than 64 deep"),
    "invalid TOML": (b'[[drive]]\nid = "x"\n[[drive]\n', "line 3", "not valid TOML"),
    "unknown kind": (b'[[spaceship]]\nid = "x"\n', "line 1", "unknown catalog kind 'spaceship'"),
}


def _dispose(window) -> None:
    """Close the window this test opened and delete it now (after its zero-delay timers ran)."""
    QApplication.processEvents()
    window.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    window.worker.shutdown()
    window.compare_worker.shutdown()
    window.close()
    window.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.mark.parametrize("case", list(BROKEN))
def test_app_starts_without_a_broken_user_catalog_and_names_the_line(case, qtbot):
    data, line, words = BROKEN[case]
    path = user_catalog_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    before = hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns
    window = open_main_window(None, offer_recovery=False)
    window.show()
    try:
        qtbot.waitUntil(lambda: bool(window.findChildren(QMessageBox, "user_catalog_notice")), timeout=5_000)
        box = window.findChildren(QMessageBox, "user_catalog_notice")[0]
        assert box.isVisible() and box.windowTitle() == TITLE
        assert box.windowModality() == Qt.WindowModality.NonModal  # the window stays usable
        assert box.textFormat() == Qt.TextFormat.PlainText
        text = box.text()
        assert f"{path}: {line}: " in text and words in text, text
        assert window.isVisible() and window.document.base_catalog is None
        assert window.document.catalog.find("netapp-aff8080a-ex") is not None
        assert len(window.document.catalog) >= len(bundled_catalog())  # the bundled records, nothing lost
        assert (hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns) == before
        box.close()
    finally:
        _dispose(window)


def test_no_message_when_the_user_catalog_loads(qtbot):
    window = open_main_window(None, offer_recovery=False)
    window.show()
    try:
        qtbot.wait(50)
        assert not window.findChildren(QMessageBox, "user_catalog_notice")
    finally:
        _dispose(window)
