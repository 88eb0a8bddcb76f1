"""The workloads panel: the active scenario's workloads, added from presets, each edited field by field."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QScrollArea,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from models.project.factory import next_id
from models.project.model import Workload
from models.workloads import bundled_presets

from .document import ProjectDocument
from .icons import icon
from .inspector import RecordForm, blocked

TARGET_KINDS = ("controller", "hci_cluster", "cloud_vm")


class WorkloadsPanel(QWidget):
    """List (with enable check boxes) + preset menu + a form for the selected workload."""

    def __init__(self, document: ProjectDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("workloadsPanel")
        self.document = document
        self.list = QListWidget()
        self.list.setObjectName("workloadList")
        self.add_button = QToolButton()
        self.add_button.setText("Add workload")
        self.add_button.setIcon(icon("mdi6.plus"))
        self.add_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.add_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.preset_menu = QMenu(self.add_button)
        for preset in bundled_presets().values():
            action = self.preset_menu.addAction(preset.name)
            action.setData(preset.id)
            action.triggered.connect(lambda _=False, pid=preset.id: self.add_from_preset(pid))
        self.add_button.setMenu(self.preset_menu)
        self.remove_button = QToolButton()
        self.remove_button.setIcon(icon("mdi6.delete"))
        self.remove_button.setToolTip("Remove the selected workload")
        self.remove_button.clicked.connect(self.remove_selected)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addStretch(1)
        buttons.addWidget(self.remove_button)
        self.form = RecordForm(Workload, self._choices, lambda: document.project.settings.capacity_unit,
                               {"id", "preset", "enabled"})
        self.form.sig_field_edited.connect(self._edited)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(self.form)
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addLayout(buttons)
        top_layout.addWidget(self.list)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(top)
        splitter.addWidget(scroll)
        splitter.setStretchFactor(1, 3)
        splitter.setSizes([110, 400])
        self.list.setMinimumHeight(60)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(splitter)
        self.list.currentItemChanged.connect(lambda *_: self._show_current())
        self.list.itemChanged.connect(self._enabled_toggled)
        document.sig_workloads_changed.connect(self.refresh)
        document.sig_scenario_switched.connect(self.refresh)
        document.sig_project_replaced.connect(self.refresh)
        document.sig_node_added.connect(self._targets_changed)
        document.sig_node_removed.connect(self._targets_changed)
        self.refresh()

    def current_id(self) -> str | None:
        item = self.list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item else None

    def refresh(self) -> None:
        keep = self.current_id()
        workloads = self.document.scenario.workloads
        with blocked(self.list):
            self.list.clear()
            for workload in workloads:
                mode = (f"{workload.target_iops:,.0f} IOPS" if workload.target_iops else
                        f"{workload.target_mbps:,.0f} MB/s" if workload.target_mbps else "ramp")
                item = QListWidgetItem(f"{workload.name}  →  {workload.target}  ·  {mode}")
                item.setData(Qt.ItemDataRole.UserRole, workload.id)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Checked if workload.enabled else Qt.CheckState.Unchecked)
                item.setToolTip("Untick to leave this workload out of the evaluation")
                self.list.addItem(item)
            ids = [w.id for w in workloads]
            row = ids.index(keep) if keep in ids else (0 if ids else -1)
            self.list.setCurrentRow(row)
        self._show_current()

    def _show_current(self) -> None:
        workload = self.document.scenario.workload(self.current_id() or "")
        self.form.setEnabled(workload is not None)
        self.remove_button.setEnabled(workload is not None)
        if workload is not None:
            self.form.set_record(workload)

    def _targets_changed(self, *_: Any) -> None:
        self._show_current()

    def _choices(self, name: str, record: Any):
        if name != "target":
            return None
        targets = [(f"{n.label or n.id} ({n.id})", n.id) for n in self.document.scenario.nodes
                   if n.kind in TARGET_KINDS]
        return targets or [("(add a controller, cluster or VM first)", "")]

    def add_from_preset(self, preset_id: str) -> str | None:
        """Add a workload from a preset, assigned to the first controller / cluster / VM; returns its id."""
        scenario = self.document.scenario
        target = next((n.id for n in scenario.nodes if n.kind in TARGET_KINDS), "")
        preset = bundled_presets()[preset_id]
        workload = preset.make(next_id(scenario, "wl"), target or "unassigned")
        error = self.document.add_workload(workload)
        if error:
            return None
        self.refresh()
        for row in range(self.list.count()):
            if self.list.item(row).data(Qt.ItemDataRole.UserRole) == workload.id:
                self.list.setCurrentRow(row)
        return workload.id

    def remove_selected(self) -> None:
        workload_id = self.current_id()
        if workload_id:
            self.document.remove_workload(workload_id)

    def select(self, workload_id: str) -> None:
        for row in range(self.list.count()):
            if self.list.item(row).data(Qt.ItemDataRole.UserRole) == workload_id:
                self.list.setCurrentRow(row)

    def _enabled_toggled(self, item: QListWidgetItem) -> None:
        workload_id = item.data(Qt.ItemDataRole.UserRole)
        self.document.set_workload_field(workload_id, "enabled", item.checkState() == Qt.CheckState.Checked)

    def _edited(self, field: str, value: Any) -> None:
        workload_id = self.current_id()
        if workload_id:
            self.form.show_error(field, self.document.set_workload_field(workload_id, field, value))
