"""Text from files shown as text: message boxes, tooltips and labels that can never render markup.

Qt shows a label, a tooltip or a message box as rich text (HTML) whenever ``Qt.mightBeRichText`` guesses so, and
a node id, workload name, catalog record or error message comes from a file a customer may have sent: an
``<img src=...>`` in it would load a local file. Every text that carries file content goes through here:

* :func:`shorten` cuts a message to :data:`MAX_MESSAGE_CHARS` ("... (N more characters)"): a dialog lays out what
  it is given on the GUI thread, and an 8.9 MB error message froze one for a minute.
* :func:`plain_tooltip` escapes text for a tooltip (marked as rich text, so the escapes are not shown).
* :func:`plain_label` makes a ``QLabel`` show its text as plain text.
* :func:`message_box`, :func:`show_warning`, :func:`warning` and :func:`question` are ``QMessageBox`` with
  ``Qt.PlainText`` and a shortened message (the last two with the buttons and return values of Qt's static
  functions); :func:`rich` escapes text for the static functions themselves.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMessageBox, QWidget

MAX_MESSAGE_CHARS = 2_000
"""The most characters of a message a dialog, tooltip or label shows (about 25 lines of a dialog)."""


def shorten(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``text`` when at most ``limit`` characters, else its first ``limit`` and "... (N more characters)"."""
    text = str(text)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit:,} more characters)"


def escape(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``text`` shortened (:func:`shorten`) and HTML-escaped, line breaks as ``<br>``: a fragment to put inside
    rich text (a coloured label, a tooltip with bold parts)."""
    return html.escape(shorten(text, limit), quote=False).replace("\n", "<br>")


def plain_tooltip(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """A tooltip that shows ``text`` exactly as written (markup in it appears as characters): escaped and wrapped
    in ``<qt>``, so Qt always reads it as rich text and renders the escapes as the characters they stand for; ""
    stays "" (no tooltip)."""
    return f"<qt>{escape(text, limit)}</qt>" if text else ""


def plain_label(label: QLabel, text: str | None = None, limit: int = MAX_MESSAGE_CHARS) -> QLabel:
    """Make ``label`` show plain text (``Qt.PlainText``), and set its text (shortened) when ``text`` is given."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    if text is not None:
        label.setText(shorten(text, limit))
    return label


def message_box(parent: QWidget | None, icon: QMessageBox.Icon, title: str, text: str,
                buttons: QMessageBox.StandardButton = QMessageBox.StandardButton.Ok,
                default: QMessageBox.StandardButton = QMessageBox.StandardButton.NoButton) -> QMessageBox:
    """A message box whose text is plain text (``Qt.PlainText``), shortened (:func:`shorten`); not shown yet."""
    box = QMessageBox(icon, title, shorten(text), buttons, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    if default != QMessageBox.StandardButton.NoButton:
        box.setDefaultButton(default)
    return box


def show_warning(parent: QWidget | None, title: str, text: str) -> QMessageBox:
    """A warning over ``parent`` with plain, shortened text, shown without waiting (window-modal, deleted when
    closed): the GUI thread goes on. Returns the box (tests read its text)."""
    box = message_box(parent, QMessageBox.Icon.Warning, title, text)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box


def rich(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """Text for a Qt static dialog (``QMessageBox.question`` / ``warning``), which cannot be told to show plain
    text: escaped and marked as rich text, so it reads exactly as written (shortened)."""
    return f"<qt>{escape(text, limit)}</qt>"


def warning(parent: QWidget | None, title: str, text: str) -> QMessageBox.StandardButton:
    """``QMessageBox.warning`` with plain, shortened text (modal; returns the button pressed)."""
    return QMessageBox.StandardButton(message_box(parent, QMessageBox.Icon.Warning, title, text).exec())


def question(parent: QWidget | None, title: str, text: str,
             buttons: QMessageBox.StandardButton = QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
             default: QMessageBox.StandardButton = QMessageBox.StandardButton.NoButton) -> QMessageBox.StandardButton:
    """``QMessageBox.question`` with plain, shortened text (modal; returns the button pressed)."""
    return QMessageBox.StandardButton(message_box(parent, QMessageBox.Icon.Question, title, text, buttons,
                                                  default).exec())
