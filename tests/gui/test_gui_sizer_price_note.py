"""Size from Requirements at its opening size keeps the price book's button and its note on view (revhelp56 #12b):
after a search the ranking's long message stood above them and pushed them past the requirements' visible height,
the note cut after "by the deployments' order" and the button a sliver at the edge."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect

from models.resources import examples_dir


def _rect_in(widget, ancestor) -> QRect:
    return QRect(widget.mapTo(ancestor, QPoint(0, 0)), widget.size())


def test_the_price_book_button_and_note_stay_on_view(qtbot, open_window):
    from app.gui.main_window import read_project

    win = open_window(read_project(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml"))
    dialog = win.show_sizer()
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    opening = dialog.size()
    dialog.run()
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=60_000)
    qtbot.wait(100)
    assert dialog.size() == opening
    assert "Ranked by" in dialog.message.text()  # the long message is shown
    viewport = dialog.requirements_scroll.viewport()
    assert dialog.requirements_scroll.verticalScrollBar().value() == 0
    shown = viewport.rect()
    button, note = _rect_in(dialog.prices_button, viewport), _rect_in(dialog.prices_label, viewport)
    assert shown.contains(button), (button, shown)
    assert shown.contains(note), (note, shown)
    assert not button.intersects(note)
    assert dialog.prices_label.height() >= dialog.prices_label.heightForWidth(dialog.prices_label.width())
    assert dialog.prices_label.text().startswith("No price book: candidates rank by the deployments' order")
