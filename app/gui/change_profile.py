"""The daily change profile of one protected workload: a choice of named shapes (even, business hours, overnight
batch) in the Inspector's protected-workloads table, and a small dialog of 24 hourly weights for a custom profile.

The dialog checks what is typed (a number, 0 or more, not every hour 0) and says what is wrong naming the hour;
it keeps the user's text until it is right or cancelled.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.gui.screen_fit import fit_to_screen
from models.replication.profiles import HOURS, parse_profile


class ProfileChoice(QComboBox):
    """The shape choice of one workload's profile: the wheel changes it only once it has the focus (over an
    unfocused choice it scrolls the Inspector, as the number fields do)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def wheelEvent(self, event) -> None:  # noqa: N802
        """Qt override: ignore the wheel unless focused."""
        if not self.hasFocus():
            event.ignore()
            return
        super().wheelEvent(event)


class ProfileDialog(QDialog):
    """24 hourly weights (hours 0 to 23 local time) in one row; OK accepts them only when they are valid.

    ``profile()`` is the accepted weights (None before an accept)."""

    def __init__(self, workload_name: str, profile: Sequence[float], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("changeProfileDialog")
        self.setWindowTitle(f"Daily change profile: {workload_name}")
        self._accepted: list[float] | None = None
        layout = QVBoxLayout(self)
        intro = QLabel("Relative weight of each hour's change (local time); only the shares matter: 2 is twice "
                       "the change of 1. An empty cell is 0.")
        intro.setWordWrap(True)
        layout.addWidget(intro)
        # one row per hour (a column per hour was 864 px wide: more than a 200 % laptop screen); it scrolls
        self.grid = QTableWidget(HOURS, 1)
        self.grid.setHorizontalHeaderLabels(["Weight"])
        self.grid.setVerticalHeaderLabels([f"{h:02d}:00-{(h + 1) % 24:02d}:00" for h in range(HOURS)])
        self.grid.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        weights = list(profile) if profile else [1.0] * HOURS
        for hour, w in enumerate(weights):
            self.grid.setItem(hour, 0, QTableWidgetItem(f"{w:g}"))
        self.grid.setMinimumHeight(140)
        self.grid.setMinimumWidth(220)
        layout.addWidget(self.grid)
        self.message = QLabel()
        self.message.setObjectName("changeProfileError")
        self.message.setWordWrap(True)
        self.message.hide()
        layout.addWidget(self.message)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        fit_to_screen(self, QSize(380, 640))  # the hours scroll on a short screen; OK / Cancel stay on view

    def texts(self) -> list[str]:
        """The 24 cells' texts, hour 0 first."""
        return [(self.grid.item(h, 0).text() if self.grid.item(h, 0) is not None else "") for h in range(HOURS)]

    def accept(self) -> None:
        """Accept valid weights; otherwise say what is wrong (naming the hour) and stay open."""
        try:
            self._accepted = parse_profile(self.texts())
        except ValueError as exc:
            self.message.setText(str(exc))
            self.message.show()
            return
        super().accept()

    def profile(self) -> list[float] | None:
        """The accepted weights, or None."""
        return self._accepted


def ask_profile(parent: QWidget | None, workload_name: str, profile: Sequence[float]) -> list[float] | None:
    """Open :class:`ProfileDialog` modally; the accepted weights, or None when cancelled."""
    dialog = ProfileDialog(workload_name, profile, parent)
    return dialog.profile() if dialog.exec() == QDialog.DialogCode.Accepted else None


__all__ = ["ProfileChoice", "ProfileDialog", "ask_profile"]
