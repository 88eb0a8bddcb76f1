"""The published-vs-predicted table of ``storplan validate``, computed off the GUI thread."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, Signal, Slot
from PySide6.QtGui import QColor, QFont, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from models.units import CapacityUnit

from ._common import FAIL, PASS, StaleBanner, fmt_number, html_escape, icon, text_color, tint

Runner = Callable[[], Sequence]
"""A function returning ``CaseOutcome`` records (``models.validation.run_validation`` by default)."""

SORT_ROLE = Qt.ItemDataRole.UserRole + 1


def _default_runner() -> Sequence:
    """The bundled cases, computed once per process and shared with the PDF report (an export after the tab has
    filled does not replay the cases again)."""
    from app.report import validation_outcomes

    outcomes = validation_outcomes()
    if isinstance(outcomes, str):  # the cases could not run: say why in the table
        raise RuntimeError(outcomes)
    return outcomes


class _Signals(QObject):
    finished = Signal(int, object)
    failed = Signal(int, str)


class _ValidationTask(QRunnable):
    """Runs the validation in the global thread pool and reports back by (queued) signal."""

    def __init__(self, generation: int, runner: Runner, signals: _Signals):
        super().__init__()
        self.generation = generation
        self.runner = runner
        self.signals = signals

    def run(self) -> None:
        try:
            outcomes = list(self.runner())
        except Exception as exc:  # shown in the view, never raised into Qt
            self.signals.failed.emit(self.generation, f"{type(exc).__name__}: {exc}")
            return
        self.signals.finished.emit(self.generation, outcomes)


def published_text(check) -> str:
    """The published value as the check reads it: a value, a bound or a range."""
    kind = getattr(check, "kind", "value")
    if kind == "upper_bound":
        return f"\u2264 {fmt_number(check.published)}"
    if kind == "lower_bound":
        return f"\u2265 {fmt_number(check.published)}"
    if kind == "range":
        high = check.published_high if check.published_high is not None else check.published
        return f"{fmt_number(check.published)} \u2013 {fmt_number(high)}"
    if kind == "expect":
        return "expected"
    return fmt_number(check.published)


class ValidationView(QWidget):
    """Published vs predicted for every bundled case, with pass/fail and the seed's interpretation.

    The run starts on :meth:`refresh` (and the first time the view is shown); results arrive by queued signal.

    Signals:
        sig_validation_finished(int, int): a run finished with (checks passed, checks total).
    """

    sig_validation_finished = Signal(int, int)
    """A validation run finished: (number of checks passing, number of checks)."""

    COLUMNS = ("Case", "Quantity", "Published", "Predicted", "Error", "Result")

    def __init__(self, parent: QWidget | None = None, runner: Runner | None = None,
                 thread_pool: QThreadPool | None = None):
        super().__init__(parent)
        self._runner = runner or _default_runner
        self._pool = thread_pool or QThreadPool.globalInstance()
        self._generation = 0
        self._running = False
        self._signals: _Signals | None = None
        self.outcomes: list = []
        self.passed = 0
        self.total = 0

        self.banner = StaleBanner(self)
        self.summary = QLabel("Validation has not run yet.")
        font = QFont(self.summary.font())
        font.setBold(True)
        self.summary.setFont(font)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.refresh_button = QToolButton()
        self.refresh_button.setText("Run again")
        self.refresh_button.setIcon(icon("mdi6.refresh", text_color(self)))
        self.refresh_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.refresh_button.setToolTip("Replay every published case through the engines")
        self.refresh_button.clicked.connect(self.refresh)
        header = QHBoxLayout()
        header.addWidget(self.summary, 1)
        header.addWidget(self.refresh_button)

        self.model = QStandardItemModel(0, len(self.COLUMNS), self)
        self.model.setHorizontalHeaderLabels(list(self.COLUMNS))
        self.model.setSortRole(SORT_ROLE)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setAlternatingRowColors(True)
        # No sort until the user clicks a header: the cases keep their published order (capacity first).
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        head = self.table.horizontalHeader()
        head.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        head.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.banner)
        layout.addLayout(header)
        layout.addWidget(self.table, 1)

    # ------------------------------------------------------------------------------------------------ public API

    @property
    def running(self) -> bool:
        return self._running

    @Slot()
    def refresh(self) -> None:
        """Start a validation run in the global thread pool; a newer run supersedes an older one's result."""
        self._generation += 1
        self._running = True
        self.summary.setText("Running the published cases\u2026")
        self.refresh_button.setEnabled(False)
        # One signals object per run, owned by its task: if the view is closed mid-run, the task still emits
        # into a live object, and Qt has already dropped the connections to the deleted view.
        signals = _Signals()
        signals.finished.connect(self._on_finished, Qt.ConnectionType.QueuedConnection)
        signals.failed.connect(self._on_failed, Qt.ConnectionType.QueuedConnection)
        self._signals = signals
        self._pool.start(_ValidationTask(self._generation, self._runner, signals))

    @Slot(object, object)
    def set_evaluation(self, evaluation, capacity_unit: CapacityUnit | str = CapacityUnit.TIB) -> None:
        """The validation replays the bundled published cases, not the project: nothing to redraw."""

    @Slot(bool, str)
    def set_stale(self, stale: bool, message: str = "") -> None:
        self.banner.set_stale(stale, message)

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if self._generation == 0:
            self.refresh()

    # -------------------------------------------------------------------------------------------------- internals

    def _on_failed(self, generation: int, message: str) -> None:
        if generation != self._generation:
            return
        self._running = False
        self.refresh_button.setEnabled(True)
        self.model.removeRows(0, self.model.rowCount())
        self.summary.setText(f"Validation could not run: {message}")

    def _on_finished(self, generation: int, outcomes: list) -> None:
        if generation != self._generation:
            return
        self._running = False
        self.refresh_button.setEnabled(True)
        self.outcomes = outcomes
        self.table.setSortingEnabled(False)
        self.model.removeRows(0, self.model.rowCount())
        checks = [check for outcome in outcomes for check in outcome.checks]
        self.passed = sum(bool(check.passed) for check in checks)
        self.total = len(checks)
        for outcome in outcomes:
            for check in outcome.checks:
                self.model.appendRow(self._check_row(check, outcome))
            if outcome.error:
                self.model.appendRow(self._error_row(outcome))
        self.table.setSortingEnabled(True)
        errored = sum(1 for o in outcomes if o.error)
        text = f"{self.passed} of {self.total} checks pass"
        if errored:
            text += f" \u00b7 {errored} case{'s' if errored != 1 else ''} could not run"
        self.summary.setText(text)
        self.sig_validation_finished.emit(self.passed, self.total)

    def _item(self, text: str, sort_key=None, align_right: bool = False) -> QStandardItem:
        item = QStandardItem(text)
        item.setData(text if sort_key is None else sort_key, SORT_ROLE)
        if align_right:
            item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return item

    def _result_item(self, passed: bool, text: str) -> QStandardItem:
        color = PASS if passed else FAIL
        item = self._item(text, 1 if passed else 0)
        item.setIcon(icon("mdi6.check-circle" if passed else "mdi6.close-circle", color))
        item.setBackground(tint(color, 55))
        font = QFont(self.table.font())
        font.setBold(True)
        item.setFont(font)
        return item

    def _check_row(self, check, outcome) -> list[QStandardItem]:
        error_pct = check.error * 100
        tooltip_lines = [f"<b>{html_escape(check.case_id)}</b> \u2014 {html_escape(check.quantity)}",
                         f"Kind: {html_escape(check.kind)}, tolerance \u00b1{check.tolerance * 100:g}%"]
        if check.interpretation:
            tooltip_lines.append(f"<b>Interpretation:</b> {html_escape(check.interpretation)}")
        seed = check.seed or outcome.seed
        if seed:
            tooltip_lines.append(f"<b>Seed:</b> {html_escape(seed)}")
        tooltip = "<br>".join(tooltip_lines)
        items = [
            self._item(check.case_id),
            self._item(check.quantity),
            self._item(published_text(check), float(check.published), True),
            self._item(fmt_number(check.predicted), float(check.predicted), True),
            self._item(f"{error_pct:+.1f}%", abs(error_pct), True),
            self._result_item(bool(check.passed), "pass" if check.passed else "fail"),
        ]
        if not check.passed:
            items[4].setForeground(QColor(FAIL))
        for item in items:
            item.setToolTip(tooltip)
        return items

    def _error_row(self, outcome) -> list[QStandardItem]:
        items = [self._item(outcome.case_id), self._item(outcome.error), self._item("\u2014", 0.0, True),
                 self._item("\u2014", 0.0, True), self._item("\u2014", -1.0, True),
                 self._result_item(False, "not run")]
        tooltip = f"<b>{html_escape(outcome.case_id)}</b><br>{html_escape(outcome.error)}<br>{html_escape(outcome.seed)}"
        for item in items:
            item.setToolTip(tooltip)
        return items
