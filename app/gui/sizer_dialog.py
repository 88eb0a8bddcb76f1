"""Scenario → Size from Requirements: the project's requirements (edited here, one undo step each), the search
(``models.sizing.size``) on the dialog's runner with the ranked candidates in a table (summary, whether it
meets, rack units, power, usable capacity, max IOPS at the SLO, why), and a candidate applied to the project as a
new scenario (one undo step) to compare or refine."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from models.project.model import Requirements

from .commands import unique_scenario_name
from .record_form import RecordForm
from .tasks import TaskRunner

COLUMNS = ("Rank", "Configuration", "Meets", "Rack units", "Power (W)", "Usable (TiB)", "Max IOPS @ SLO", "Why")
"""The candidates table's columns."""


def size_job(_state, project, top: int):
    """The search (runs on the runner)."""
    from models.sizing import size

    return size(project, top=top)


class SizerDialog(QDialog):
    """Requirements, search, ranked candidates, apply (see module)."""

    def __init__(self, document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Size from requirements")
        self.resize(1100, 700)
        self._document = document
        self.runner = TaskRunner(self, "sizer")
        self.result = None
        self.form = RecordForm(Requirements, choices=lambda *_: None, unit_fn=lambda: document.project.settings.capacity_unit)
        self.form.set_record(document.project.requirements)
        self.form.sig_field_edited.connect(self._edited)
        self.message = QLabel("The active scenario's workloads, with their targets, SLOs and growth, are the "
                              "performance requirements; its hosts are kept. Arrays only in this version.")
        self.message.setWordWrap(True)
        self.size_button = QPushButton("Size")
        self.apply_button = QPushButton("Apply as new scenario")
        self.apply_button.setEnabled(False)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().hide()
        buttons = QHBoxLayout()
        buttons.addWidget(self.size_button)
        buttons.addWidget(self.apply_button)
        buttons.addStretch(1)
        top = QHBoxLayout()
        top.addWidget(self.form, 1)
        right = QVBoxLayout()
        right.addWidget(self.message)
        right.addLayout(buttons)
        right.addStretch(1)
        top.addLayout(right, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        self.size_button.clicked.connect(self.run)
        self.apply_button.clicked.connect(self.apply_selected)
        self.table.itemSelectionChanged.connect(lambda: self.apply_button.setEnabled(bool(self._selected())))

    def _edited(self, field: str, value) -> None:
        """A requirement changed in the form: one undo step on the project, or the refusal shown on the field."""
        doc = self._document
        try:
            requirements = doc.project.requirements.with_changes(**{field: value})
        except ValueError as exc:
            self.form.show_error(field, str(exc))
            return
        self.form.show_error(field, None)
        doc.push(doc.project.model_copy(update={"requirements": requirements}), f"Change requirement {field}")

    def run(self) -> None:
        """Search on the runner; the table fills when it is done."""
        self.size_button.setEnabled(False)
        self.message.setText("Searching…")
        self.runner.submit(size_job, self._document.project, 10, name="size", on_done=self._done)

    def _done(self, ok: bool, result) -> None:
        """Fill the table with the ranked candidates (or the nearest failing ones)."""
        self.size_button.setEnabled(True)
        if not ok:
            self.message.setText(f"<span style='color:#c0392b'>The search failed: {result}</span>")
            return
        self.result = result
        rows = result.candidates or result.nearest
        need = result.needed_effective_bytes / 2**40
        self.message.setText(f"{result.considered:,} designs considered; {need:,.2f} TiB effective needed. "
                             + (f"{len(result.candidates)} meet the requirements, best first."
                                if result.candidates else "None meets them: the nearest, with what they miss."))
        self.table.setRowCount(len(rows))
        for r, c in enumerate(rows):
            cells = [str(r + 1), c.summary, "yes" if c.meets else "no", str(c.rack_units),
                     f"{c.power_w:,.0f}" if c.power_w else "n/a", f"{c.usable_bytes / 2**40:,.2f}",
                     f"{c.max_iops_at_slo:,.0f}" if c.max_iops_at_slo else "—",
                     "; ".join(c.reasons) or "meets every requirement"]
            for k, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                self.table.setItem(r, k, item)
        self.table.resizeColumnsToContents()

    def _selected(self):
        """The candidate of the selected row (None without one)."""
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        if not rows or self.result is None:
            return None
        pool = self.result.candidates or self.result.nearest
        return pool[rows[0].row()] if rows[0].row() < len(pool) else None

    def apply_selected(self) -> str | None:
        """Add the selected candidate to the project as a new, active scenario (one undo step); its name."""
        candidate = self._selected()
        if candidate is None:
            return None
        doc = self._document
        name = unique_scenario_name(doc.project, f"Sized: {candidate.summary.split(',')[0]}")
        scenario = candidate.scenario.model_copy(update={"name": name})
        project = doc.project.model_copy(update={"scenarios": [*doc.project.scenarios, scenario],
                                                 "active_scenario": name})
        doc.push(project, f"Apply sized configuration as '{name}'")
        self.message.setText(f"Added scenario '{name}'. Undo removes it.")
        return name
