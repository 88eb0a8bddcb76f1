"""The app's word on a broken user catalog file: the window starts without the user's own records, and a
non-modal message names the file and the line (``models.user_catalog.user_catalog_problem``); the file is left as
it is for the user to repair."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from app.gui.plain_text import message_box

TITLE = "Your catalog file was not loaded"


def notice_text(problem: str) -> str:
    """What the message says: the problem line, what the app did, and what to do."""
    return (f"{problem}\n\nStorPlan started without your own hardware records (the bundled catalog is complete). "
            "The file is kept as it is: correct it in a text editor (or move it away), then restart StorPlan.")


def show_user_catalog_problem(parent: QWidget) -> QMessageBox | None:
    """Show a non-modal message over ``parent`` when the user catalog file does not load; None when it loads (or
    there is none). The file was read when the window's catalog was built: this reads it from the cache."""
    from models.user_catalog import user_catalog_problem

    problem = user_catalog_problem()
    if problem is None:
        return None
    box = message_box(parent, QMessageBox.Icon.Warning, TITLE, notice_text(problem))
    box.setObjectName("user_catalog_notice")
    box.setWindowModality(Qt.WindowModality.NonModal)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.show()
    return box
