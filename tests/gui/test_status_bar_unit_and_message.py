"""The status bar (REVIEW43 #11, #12): after the TB <-> TiB switch its capacity figures are in the new unit at once
(re-rendered from the last result; the re-evaluation takes seconds), and a transient message too long for the room
beside the key figures ends at a word with an ellipsis, a gap before the first figure, never cut mid-word against
"Usable:"."""

from __future__ import annotations

from PySide6.QtGui import QFontMetrics

from app.gui.status_bar import MESSAGE_GAP, StatusBar, shorten_at_word


def _figure(win, key: str) -> str:
    return win.status_labels[key].text()


def test_the_capacity_figures_follow_the_unit_switch_at_once(example_window, qtbot):
    win = example_window
    qtbot.waitUntil(lambda: win.results.last_good is not None and "usable" in win.status_labels, timeout=10000)
    capacity = win.results.last_good.capacity.total
    assert win.document.project.settings.capacity_unit.value == "TiB"
    assert f"{capacity.usable_bytes / 2**40:.2f} TiB" in _figure(win, "usable")
    win.document.set_setting("capacity_unit", "TB")
    # before the re-evaluation ends (it is only scheduled): the same result, in terabytes
    assert win.worker.last_outcome is not None and win.results.last_good.capacity.total is capacity
    assert f"{capacity.usable_bytes / 1e12:.2f} TB" in _figure(win, "usable"), _figure(win, "usable")
    assert f"{capacity.effective_bytes / 1e12:.2f} TB" in _figure(win, "effective")
    assert "TiB" not in _figure(win, "usable") + _figure(win, "effective")


def test_a_long_message_ends_at_a_word_before_the_key_figures(example_window, qtbot):
    win = example_window
    win.resize(1350, 728)
    qtbot.waitUntil(lambda: win.results.last_good is not None and "usable" in win.status_labels, timeout=10000)
    bar = win.statusBar()
    assert isinstance(bar, StatusBar)
    message = "Opened a-rather-long-design-file-name-for-a-customer-with-several-sites_and_options-final.toml"
    bar.showMessage(message, 5000)
    qtbot.wait(50)
    assert bar.currentMessage() == message  # the full message is still the bar's message (and its tooltip)
    shown = bar.shown_message()
    metrics = QFontMetrics(bar.font())
    first_figure = min(label.mapTo(bar, label.rect().topLeft()).x() for label in win.status_labels.values()
                       if label.isVisible())
    assert 6 + metrics.horizontalAdvance(shown) <= first_figure - MESSAGE_GAP, (shown, first_figure)
    assert shown != message and shown.endswith("…") and bar.toolTip() == message
    start = shown[:-1]
    assert message.startswith(start) and message[len(start)] in " -_./" or start.endswith(("-", "_", "/", "."))
    assert len(start) > len("Opened ")  # as much of the name as fits, not only the first word


def test_shorten_at_word_keeps_what_fits(qtbot):
    bar = StatusBar()
    qtbot.addWidget(bar)
    metrics = bar.fontMetrics()
    text = "Opened aff8080-nfs-file-services.toml"
    assert shorten_at_word(text, metrics, metrics.horizontalAdvance(text)) == text
    room = metrics.horizontalAdvance("Opened aff8080-nfs-…") + 1  # not room for "file-" as well
    assert shorten_at_word(text, metrics, room) == "Opened aff8080-nfs-…"
    assert shorten_at_word(text, metrics, metrics.horizontalAdvance("Ope")) not in ("", text)
