"""The Inspector's table of what a replication relationship protects: every workload its source serves with a tick
(protected or not), its change per day for this relationship (empty: the default, shown greyed with its basis) and
its daily profile (a named shape, or custom weights typed in a small dialog: ``app.gui.change_profile``).

Each tick, change rate typed and profile chosen is one undo step (``ProjectDocument.set_protected_workload`` /
``set_change_rate`` / ``set_change_profile``); a refused edit (unticking the only protected workload, a text that is
not a size) is said in one line under the table and the table shows the project again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.gui.change_profile import ProfileChoice, ask_profile
from app.gui.document import ProjectDocument
from app.gui.record_form import blocked
from models.number_parse import NumberEntryError, parse_number, quantity_for
from models.project.model import ChangeRate, Replication
from models.replication.figures import protected_workloads, workload_change
from models.replication.profiles import CUSTOM, PROFILE_SHAPES, SHAPE_DESCRIPTIONS, shape_of

COLUMNS = ("Workload", "Change\nGB/day", "Daily\nprofile")
PROFILE_CHOICES: tuple[tuple[str, str], ...] = (*((k, name) for k, (name, _) in PROFILE_SHAPES.items()),
                                                (CUSTOM, "Custom"))
"""The profile column's choices: (key, text), the named shapes then custom."""
CHANGE_QUANTITY = quantity_for("change_bytes", True, "TB")
"""A change rate typed: a bare number is in GB (decimal, as the column says); "1.5 TB", "800 GiB" are read too."""
_GB = 10**9


class ProtectedWorkloadsTable(QWidget):
    """The protected-workloads checklist with per-workload change rates of one relationship.

    ``show_relationship(rep_id)`` fills it from the document; edits go to the document as undo steps.
    """

    def __init__(self, document: ProjectDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("protectedWorkloads")
        self.document = document
        self.replication_id = ""
        self._rows: list[str] = []
        self.profile_editors: list[QComboBox] = []
        self.ask_profile: Callable[[QWidget | None, str, Sequence[float]], list[float] | None] = ask_profile
        """Opens the custom-profile dialog (replaceable in tests): (parent, workload name, weights) -> weights."""
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        title = QLabel("<b>Protected workloads</b>")
        layout.addWidget(title)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setWordWrap(True)
        self.table.itemChanged.connect(self._item_changed)
        layout.addWidget(self.table)
        self.defaults = QLabel()
        self.defaults.setObjectName("protectedWorkloadsDefaults")
        self.defaults.setWordWrap(True)
        layout.addWidget(self.defaults)
        self.message = QLabel()
        self.message.setObjectName("protectedWorkloadsError")
        self.message.setWordWrap(True)
        self.message.hide()
        layout.addWidget(self.message)

    def _relationship(self) -> Replication | None:
        return next((r for r in self.document.scenario.replications if r.id == self.replication_id), None)

    def show_relationship(self, replication_id: str) -> None:
        """Fill the table for ``replication_id`` (an unknown id empties it)."""
        self.replication_id = replication_id
        self.refresh()

    def refresh(self) -> None:
        """Show the relationship's workloads, ticks and change rates as the project holds them now."""
        scenario = self.document.scenario
        rep = self._relationship()
        served = [w for w in scenario.workloads if rep is not None and w.target == rep.source]
        protected = {w.id for w in protected_workloads(scenario, rep)} if rep is not None else set()
        rows = {c.workload: c for c in rep.change} if rep is not None else {}
        self._rows = [w.id for w in served]
        defaults: list[str] = []
        self.profile_editors = []
        with blocked(self.table):
            self.table.setRowCount(len(served))
            for row, w in enumerate(served):
                tick = QTableWidgetItem(w.name)
                tick.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
                tick.setCheckState(Qt.CheckState.Checked if w.id in protected else Qt.CheckState.Unchecked)
                self.table.setItem(row, 0, tick)
                change = workload_change(w, rows.get(w.id), rep.overwrite_pct if rep is not None else 90.0)
                stated = not change.is_default and rows.get(w.id) is not None
                value = QTableWidgetItem(f"{change.bytes_per_day / _GB:.6g}" if stated else "")
                value.setToolTip(f"Empty: the default ({change.bytes_per_day / _GB:,.1f} GB/day); type a size to "
                                 "state it (a bare number is GB; 1.5 TB, 800 GiB are read too)")
                self.table.setItem(row, 1, value)
                tick.setToolTip(f"{w.name}: {change.bytes_per_day / _GB:,.1f} GB changed a day, "
                                + ("stated for this relationship" if stated else change.basis))
                self.table.setCellWidget(row, 2, self._profile_cell(w.id, w.name, rows.get(w.id)))
                if not stated and w.id in protected:
                    defaults.append(f"{w.name}: {change.bytes_per_day / _GB:,.1f} GB/day, {change.basis}")
        self.table.resizeRowsToContents()
        header = max(self.table.horizontalHeader().height(), self.table.horizontalHeader().sizeHint().height())
        rows_height = sum(self.table.rowHeight(r) for r in range(self.table.rowCount()))
        self.table.setFixedHeight(min(rows_height + header + 2 * self.table.frameWidth() + 2, 260))
        self.defaults.setText("Empty change: the default. " + "; ".join(defaults) if defaults else "")
        self.defaults.setVisible(bool(defaults))

    def _profile_cell(self, workload_id: str, name: str, row: ChangeRate | None) -> QWidget:
        """The profile cell of one workload: a shape choice and an edit button for custom weights."""
        profile = list(row.hourly_profile) if row is not None else []
        cell = QWidget()
        box = QHBoxLayout(cell)
        box.setContentsMargins(2, 0, 2, 0)
        box.setSpacing(2)
        combo = ProfileChoice()
        combo.setObjectName(f"changeProfile-{workload_id}")
        for key, text in PROFILE_CHOICES:
            combo.addItem(text, key)
            combo.setItemData(combo.count() - 1, SHAPE_DESCRIPTIONS.get(key, "24 hourly weights typed by hand"),
                              Qt.ItemDataRole.ToolTipRole)
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(7)
        combo.setCurrentIndex(combo.findData(shape_of(profile)))
        shape = shape_of(profile)
        combo.setToolTip(f"When in the day {name}'s change happens (local time): "
                         f"{SHAPE_DESCRIPTIONS.get(shape, 'custom hourly weights')}. It sets the largest transfer and "
                         "the RPO achieved; … types the 24 hourly weights.")
        combo.activated.connect(lambda index, w=workload_id, p=profile: self._profile_chosen(w, p, index))
        edit = QToolButton()
        edit.setText("…")
        edit.setObjectName(f"changeProfileEdit-{workload_id}")
        edit.setToolTip(f"Type {name}'s 24 hourly weights")
        edit.clicked.connect(lambda _=False, w=workload_id, p=profile: self._edit_custom(w, p))
        box.addWidget(combo, 1)
        box.addWidget(edit)
        self.profile_editors.append(combo)
        return cell

    def _profile_chosen(self, workload_id: str, current: list[float], index: int) -> None:
        key = PROFILE_CHOICES[index][0] if 0 <= index < len(PROFILE_CHOICES) else CUSTOM
        if key == CUSTOM:
            self._edit_custom(workload_id, current)
            return
        if key == shape_of(current):  # the shape it has: nothing to change
            return
        self._apply_profile(workload_id, list(PROFILE_SHAPES[key][1]))

    def _edit_custom(self, workload_id: str, current: list[float]) -> None:
        workload = self.document.scenario.workload(workload_id)
        weights = self.ask_profile(self, workload.name if workload is not None else workload_id, current)
        if weights is None:  # cancelled: show the project again
            self.refresh()
            return
        self._apply_profile(workload_id, weights)

    def _apply_profile(self, workload_id: str, weights: list[float]) -> None:
        error = self.document.set_change_profile(self.replication_id, workload_id, weights)
        self._say(error)
        if error:
            self.refresh()

    def _say(self, error: str | None) -> None:
        self.message.setText(error or "")
        self.message.setVisible(bool(error))

    def _item_changed(self, item: QTableWidgetItem) -> None:
        row = item.row()
        if row >= len(self._rows):
            return
        workload_id = self._rows[row]
        if item.column() == 0:
            error = self.document.set_protected_workload(self.replication_id, workload_id,
                                                         item.checkState() == Qt.CheckState.Checked)
        elif item.column() == 1:
            text = item.text().strip()
            try:
                value = None if not text else int(parse_number(text, CHANGE_QUANTITY, bare_factor=Fraction(_GB)))
            except NumberEntryError as exc:
                workload = self.document.scenario.workload(workload_id)
                error = f"Change per day of {workload.name if workload is not None else workload_id}: {exc}"
            else:
                error = self.document.set_change_rate(self.replication_id, workload_id, value)
        else:
            return
        self._say(error)
        if error:
            self.refresh()


__all__ = ["COLUMNS", "ProtectedWorkloadsTable"]
