"""The workloads panel: the active scenario's workloads, added from presets, each edited field by field; a preset's
performance profile can be applied to an existing workload (an imported capacity-only one, say: "Apply preset").

Nodes appear by the names the user knows them by (their canvas label, else their catalog model's name), never
by their ids: in the list, in the target choices and in the hosts picker.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.gui.document import ProjectDocument
from app.gui.icons import icon
from app.gui.plain_text import plain_tooltip
from app.gui.record_form import RecordForm, blocked
from app.gui.workload_row import WorkloadRowDelegate
from models.formatting import fmt_mbps
from models.project.factory import next_id
from models.project.kinds import SYSTEM_KINDS
from models.project.model import ControllerNode, Workload
from models.project.names import node_name, node_names
from models.units import format_iops
from models.workloads import bundled_presets

NO_TARGET = "no target"
"""The list's text for a workload whose target is missing (removed, or none on the canvas yet)."""
ALL_HOSTS = "All hosts linked to the target"
REMOVED_HOST = "(removed host)"
WORKLOAD_GROUPS = (
    ("Load", ("target_iops", "target_mbps", "slo_ms", "concurrency", "think_time_ms")),
    ("Mix", ("block_kib", "read_pct", "random_pct", "nas")),
    ("Data", ("dataset_bytes", "compression_ratio", "dedupe_ratio", "compaction_ratio", "working_set_bytes",
              "provisioned_bytes")),
    ("Growth", ("growth_pct_per_year", "iops_growth_pct_per_year", "snapshots", "clones")),
    ("Tiering", ("cold_data_pct", "cold_read_pct")),
)
"""The workload form's tabs, important fields first; name, target and hosts stay above them."""


class HostsEditor(QToolButton):
    """The hosts issuing a workload's I/O, picked by name from a menu (none picked = every host linked to the
    target)."""

    sig_hosts_edited = Signal(list)
    """The user picked hosts (host node ids, in canvas order; empty = all hosts linked to the target)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("workloadHosts")
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMenu(QMenu(self))
        self._hosts: dict[str, str] = {}
        self._chosen: list[str] = []
        self._shown: list[tuple[str, str]] = []
        self.all_action: QAction | None = None
        self.host_actions: dict[str, QAction] = {}
        self._full_text = ALL_HOSTS

    def full_text(self) -> str:
        """The button's text before eliding: the picked hosts' names, or :data:`ALL_HOSTS`."""
        return self._full_text

    def set_value(self, chosen: list[str], hosts: dict[str, str]) -> None:
        """Show ``chosen`` (host ids) among ``hosts`` (id -> name of the scenario's hosts); emits nothing."""
        self._hosts, self._chosen = dict(hosts), list(chosen)
        shown = list(hosts.items()) + [(h, REMOVED_HOST) for h in chosen if h not in hosts]
        if shown != self._shown or self.all_action is None:
            self._rebuild(shown)
        self._sync()

    def _rebuild(self, shown: list[tuple[str, str]]) -> None:
        # Old actions go later, not now: this may run inside one of their own triggered() signals.
        menu = self.menu()
        for action in menu.actions():
            menu.removeAction(action)
            action.deleteLater()
        self._shown = shown
        self.all_action = menu.addAction(ALL_HOSTS)
        self.all_action.setCheckable(True)
        self.all_action.triggered.connect(lambda _=False: self._emit([]))
        menu.addSeparator()
        self.host_actions = {}
        for host_id, name in shown:
            action = menu.addAction(name)
            action.setCheckable(True)
            action.triggered.connect(lambda on=False, h=host_id: self._toggle(h, on))
            self.host_actions[host_id] = action
        if not self._hosts:
            menu.addAction("(no hosts on the canvas)").setEnabled(False)

    def _sync(self) -> None:
        if self.all_action is not None:
            self.all_action.setChecked(not self._chosen)
        for host_id, action in self.host_actions.items():
            action.setChecked(host_id in self._chosen)
        names = [self._hosts.get(h, REMOVED_HOST) for h in self._chosen]
        self._full_text = ", ".join(names) if names else ALL_HOSTS
        self.setToolTip(plain_tooltip("The hosts issuing this workload's I/O: " + (
            "every host linked to the target (directly or through switches)" if not names else "\n".join(names))))
        self._elide()

    def _toggle(self, host_id: str, on: bool) -> None:
        order = [h for h, _ in self._shown]
        chosen = set(self._chosen) | {host_id} if on else set(self._chosen) - {host_id}
        self._emit([h for h in order if h in chosen])

    def _emit(self, hosts: list[str]) -> None:
        self.sig_hosts_edited.emit(hosts)
        self._sync()  # an edit that changed nothing (or was refused) still shows the stored choice

    def _elide(self) -> None:
        width = max(self.width() - 28, 40)
        self.setText(self.fontMetrics().elidedText(self._full_text, Qt.TextElideMode.ElideRight, width))

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        """Qt override: elide the host list again to the new width."""
        super().resizeEvent(event)
        self._elide()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name: long host lists elide rather than widen the panel
        """Qt override: at most 160 px wide, so a long host list elides rather than widening the panel."""
        hint = super().sizeHint()
        return QSize(min(hint.width(), 160), hint.height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        """Qt override: at most 80 px wide (the text elides below that)."""
        hint = super().minimumSizeHint()
        return QSize(min(hint.width(), 80), hint.height())


class WorkloadsPanel(QWidget):
    """List (with enable check boxes) + preset menu + a form for the selected workload."""

    def __init__(self, document: ProjectDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("workloadsPanel")
        self.document = document
        self.list = QListWidget()
        self.list.setObjectName("workloadList")
        self.add_button, self.preset_menu = self._preset_button("Add workload", "mdi6.plus", self.add_from_preset)
        self.apply_button, self.apply_menu = self._preset_button("Apply preset", "mdi6.tune-variant", self.apply_preset)
        self.apply_button.setObjectName("applyPreset")
        self.apply_button.setToolTip(plain_tooltip(
            "Give the selected workload a preset's performance profile: its I/O size, read and random shares, "
            "SLO and concurrency, and its IOPS per byte of data times this workload's data set (no preset rate: a "
            "ramp to saturation). The workload keeps its own data set, data reduction and growth. One undo step."))
        self.remove_button = QToolButton()
        self.remove_button.setIcon(icon("mdi6.delete"))
        self.remove_button.setToolTip("Remove the selected workload")
        self.remove_button.clicked.connect(self.remove_selected)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.apply_button)
        buttons.addStretch(1)
        buttons.addWidget(self.remove_button)
        self.form = RecordForm(Workload, self._choices, lambda: document.project.settings.capacity_unit,
                               {"id", "preset", "enabled", "hosts"}, groups=WORKLOAD_GROUPS)
        self.form.sig_field_edited.connect(self._edited)
        self.hosts_editor = HostsEditor()
        self.hosts_editor.sig_hosts_edited.connect(self._hosts_edited)
        hosts_label = QLabel("Hosts:")
        hosts_label.setToolTip("The hosts issuing this workload's I/O (none picked: every host linked to the target)")
        form_layout = self.form.layout_of("target")
        row, _role = form_layout.getWidgetPosition(self.form.editors["target"])
        form_layout.insertRow(row + 1, hosts_label, self.hosts_editor)
        self.empty_label = QLabel()
        self.empty_label.setObjectName("workloadsEmpty")
        self.empty_label.setWordWrap(True)
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.empty_label.setStyleSheet("color: gray; padding: 12px;")
        form_holder = QWidget()
        holder_layout = QVBoxLayout(form_holder)
        holder_layout.setContentsMargins(0, 0, 0, 0)
        holder_layout.addWidget(self.empty_label)
        holder_layout.addWidget(self.form)
        # the key to the ● / ○ marks an imported workload's labels carry (review 57 GUI #8)
        self.marks_key = QLabel(f"{self.MEASURED_MARK} measured by the import   {self.ASSUMED_MARK} assumed: set the "
                                "customer's figure")
        self.marks_key.setObjectName("workloadMarksKey")
        self.marks_key.setWordWrap(True)
        self.marks_key.setStyleSheet("color: gray;")
        self.marks_key.hide()
        holder_layout.addWidget(self.marks_key)
        holder_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(form_holder)
        # a short list (it grows with the workloads, up to LIST_ROWS rows) leaves the height to the form
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)  # the delegate fits name and target first
        self.list.setItemDelegate(WorkloadRowDelegate(self.list))
        self.list.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Maximum)
        self._fit_list()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(buttons)
        layout.addWidget(self.list)
        layout.addWidget(scroll, 1)
        self.list.currentItemChanged.connect(lambda *_: self._show_current())
        self.list.itemChanged.connect(self._enabled_toggled)
        document.sig_workloads_changed.connect(self.refresh)
        document.sig_scenario_switched.connect(self.refresh)
        document.sig_project_replaced.connect(self.refresh)
        document.sig_node_added.connect(self._targets_changed)
        document.sig_node_removed.connect(self._targets_changed)
        document.sig_node_changed.connect(self._targets_changed)  # a renamed controller renames its workloads' target
        self.refresh()

    def current_id(self) -> str | None:
        """The id of the workload selected in the list, or None."""
        item = self.list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item else None

    def refresh(self) -> None:
        """Rebuild the list from the active scenario (name, target, rate, enabled tick).

        The selected workload stays selected while it exists (else the first is); its fields are shown.
        """
        self._shown_names = self._names_key()
        keep = self.current_id()
        workloads = self.document.scenario.workloads
        with blocked(self.list):
            self.list.clear()
            for workload in workloads:
                target = self.target_name(workload.target)
                if workload.capacity_only:
                    mode, mode_tip = "capacity only", ("no performance data: its data counts for capacity, no load "
                                                       "is evaluated; “Apply preset” gives it a profile")
                elif workload.target_iops:
                    iops = workload.target_iops
                    mode = f"{iops:,.0f} IOPS" if iops >= 9.95 else f"{format_iops(iops)} IOPS"
                    mode_tip = "target rate"
                elif workload.target_mbps:
                    mode, mode_tip = fmt_mbps(workload.target_mbps), "target throughput"
                elif not workload.enabled:  # no rate to show: say it is out, not how it would ramp
                    mode, mode_tip = "not evaluated", "unticked: left out of the evaluation"
                else:
                    mode, mode_tip = "up to saturation", "no target rate: the load ramps up to saturation"
                item = QListWidgetItem(f"{workload.name}  →  {target}  ·  {mode}")
                item.setData(Qt.ItemDataRole.UserRole, workload.id)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Checked if workload.enabled else Qt.CheckState.Unchecked)
                item.setToolTip(plain_tooltip(f"{workload.name}\nServed by: {target}\n{mode} ({mode_tip})\n"
                                              "Untick to leave this workload out of the evaluation"))
                self.list.addItem(item)
            ids = [w.id for w in workloads]
            row = ids.index(keep) if keep in ids else (0 if ids else -1)
            self.list.setCurrentRow(row)
        self._fit_list()
        self._show_current()

    LIST_ROWS = 6
    """Rows the workload list shows before it scrolls."""
    LIST_MIN_ROWS = 3
    """Rows the workload list keeps however short the panel (its form scrolls instead): at 1366 x 768 two imported
    workloads showed in a list two half rows tall (revgui55 #9)."""

    def _fit_list(self) -> None:
        rows = min(max(self.list.count(), 1), self.LIST_ROWS)
        row_height = self.list.sizeHintForRow(0) if self.list.count() else self.list.fontMetrics().height() + 6
        frame = 2 * self.list.frameWidth() + 2
        self.list.setMaximumHeight(rows * row_height + frame)
        self.list.setMinimumHeight(min(self.LIST_MIN_ROWS, rows) * row_height + frame)

    def _show_current(self) -> None:
        workload = self.document.scenario.workload(self.current_id() or "")
        # no workload: no form at all (a disabled form would still show the previous project's values)
        self.form.setVisible(workload is not None)
        self.empty_label.setVisible(workload is None)
        if workload is None:
            self.empty_label.setText(
                f"No workloads in scenario '{self.document.scenario.name}'. Add one with “Add workload” (a preset "
                "you can then edit)." if not self.document.scenario.workloads else "Select a workload to edit it.")
            self.form.record = None
        self.form.setEnabled(workload is not None)
        self.remove_button.setEnabled(workload is not None)
        self.apply_button.setEnabled(workload is not None)
        self.hosts_editor.setEnabled(workload is not None)
        if workload is not None:
            self.form.set_record(workload)
            self._show_tiering(workload)
        self._show_measured(workload)
        if workload is not None:
            hosts = node_names((n for n in self.document.scenario.nodes if n.kind == "host"), self.document.catalog)
            self.hosts_editor.set_value(workload.hosts, hosts)

    MEASURED_FIELDS = ("target_iops", "block_kib", "read_pct", "dataset_bytes", "provisioned_bytes")
    """An imported workload's fields taken from the files (review 57 #5); the rest of its load and mix is assumed"""
    ASSUMED_FIELDS = ("target_mbps", "slo_ms", "concurrency", "think_time_ms", "random_pct")
    MIX_FIELDS = ("block_kib", "read_pct", "random_pct")
    MEASURED_MARK, ASSUMED_MARK = "\u25cf", "\u25cb"

    def measured_method(self, workload_id: str) -> str | None:
        """How an imported workload's figures were taken (its latest import's record: sheet, column and how they
        were combined), None for a workload no import made."""
        for record in reversed(self.document.project.measured):
            for w in record.workloads:
                if w.workload == workload_id:
                    return w.method
        return None

    def _label(self, field: str) -> QLabel | None:
        label = self.form.layout_of(field).labelForField(self.form.editors[field])
        return label if isinstance(label, QLabel) else None

    def _show_measured(self, workload: Workload | None) -> None:
        """Mark an imported workload's fields as measured (●, the tooltip names the sheet and column) or assumed
        (○); a capacity-only workload's mix reads "not measured" (not the placeholders 0.5 KiB, 0 % read); Target
        MB/s names the measured throughput (review 57 #5)."""
        if not hasattr(self, "_plain_labels"):
            self._plain_labels = {f: (lab.text(), lab.toolTip()) for f in (*self.MEASURED_FIELDS, *self.ASSUMED_FIELDS)
                                  if f in self.form.editors and (lab := self._label(f)) is not None}
        method = self.measured_method(workload.id) if workload is not None else None
        given = {} if workload is None else {
            "target_iops": workload.target_iops, "block_kib": workload.block_kib, "read_pct": workload.read_pct,
            "dataset_bytes": workload.dataset_bytes, "provisioned_bytes": workload.provisioned_bytes}
        for field, (text, tip) in self._plain_labels.items():
            label = self._label(field)
            assert label is not None
            mark = why = ""
            if method is not None and workload is not None:
                data = field in ("dataset_bytes", "provisioned_bytes")
                derived_mbps = (field == "target_mbps" and not workload.capacity_only and workload.target_mbps is None
                                and bool(workload.target_iops) and bool(workload.block_kib))
                if given.get(field) is not None and (data or not workload.capacity_only):
                    mark, why = self.MEASURED_MARK, f"Measured (imported): {method or 'from the files'}"
                elif derived_mbps:  # the import measured it (IOPS x I/O size): ●, not ○ (review 57 GUI #8)
                    mark, why = self.MEASURED_MARK, ("Measured (imported): the throughput follows from the measured "
                                                     "IOPS and I/O size; it is not a target")
                elif field in self.ASSUMED_FIELDS and not workload.capacity_only:
                    mark, why = self.ASSUMED_MARK, "Assumed: no tool measures it; set the customer's figure"
            # the mark before the words ("● Target IOPS:"), not crowding the colon ("Target IOPS ●:")
            label.setText(f"{mark}\u00a0{text}" if mark else text)
            label.setToolTip(plain_tooltip(f"{why}\n\n{tip}") if mark else tip)
        self.marks_key.setVisible(method is not None and workload is not None)
        capacity_only = workload is not None and workload.capacity_only
        for field in self.MIX_FIELDS:
            editor = self.form.editors[field]
            editor.setEnabled(not capacity_only)
            if capacity_only:  # placeholders no engine reads: not shown as figures
                editor.entry.lineEdit().setText("not measured")
                editor.entry.setToolTip("Not measured: no tool gave this workload's I/O; “Apply preset” gives it "
                                        "a profile")
            else:
                editor.entry.setToolTip("")
        mbps = self.form.editors["target_mbps"]
        measured_mbps = (workload.target_iops * workload.block_kib * 1024 / 1e6
                         if method is not None and workload is not None and not workload.capacity_only
                         and workload.target_iops and workload.target_mbps is None else None)
        mbps.entry.setSpecialValueText(f"none (measured {measured_mbps:,.1f} MB/s)" if measured_mbps else "none")

    def _names_key(self) -> tuple:
        """What the list, the target choices and the hosts picker show of the nodes (not their positions)."""
        return tuple((n.id, n.kind, n.label, n.catalog_id) for n in self.document.scenario.nodes)

    def _show_tiering(self, workload: Workload) -> None:
        """The FabricPool shares only where the workload's target has a capacity tier (or a share is set)."""
        target = self.document.scenario.node(workload.target)
        shown = (isinstance(target, ControllerNode) and target.capacity_tier != "none"
                 or workload.cold_data_pct > 0 or workload.cold_read_pct > 0)
        for field in ("cold_data_pct", "cold_read_pct"):
            self.form.set_row_visible(field, shown)
        tabs = self.form.tabs
        if tabs is not None:  # no empty "Tiering" tab beside a design without a capacity tier
            for index in range(tabs.count()):
                if tabs.tabText(index) == "Tiering":
                    tabs.setTabVisible(index, shown)

    def _targets_changed(self, *_: Any) -> None:
        if self._names_key() != self._shown_names:  # a move (every drag) changes nothing shown here
            self.refresh()
        workload = self.document.scenario.workload(self.current_id() or "")
        if workload is not None:  # the target's capacity tier switched on or off
            self._show_tiering(workload)

    def _target_names(self) -> dict[str, str]:
        """id -> name of the nodes a workload can run on (controllers, HCI clusters, cloud VMs)."""
        return node_names((n for n in self.document.scenario.nodes if n.kind in SYSTEM_KINDS), self.document.catalog)

    def target_name(self, target_id: str) -> str:
        """The name of a workload's target as the list shows it; :data:`NO_TARGET` when there is none."""
        names = self._target_names()
        if target_id in names:
            return names[target_id]
        node = self.document.scenario.node(target_id)
        return node_name(node, self.document.catalog) if node is not None else NO_TARGET

    def _choices(self, name: str, record: Any):
        if name != "target":
            return None
        names = self._target_names()
        choices = [(label, node_id) for node_id, label in names.items()]
        current = getattr(record, "target", None)
        if record is not None and current not in names:  # a dangling target shows as such, not as an id
            node = self.document.scenario.node(current)
            text = (f"{node_name(node, self.document.catalog)} (not a controller, cluster or VM)" if node is not None
                    else "(none: pick a controller, cluster or VM)" if names
                    else "(add a controller, cluster or VM first)")
            choices.insert(0, (text, current))
        return choices or [("(add a controller, cluster or VM first)", "")]

    def _preset_button(self, text: str, icon_name: str, on_pick) -> tuple[QToolButton, QMenu]:
        """A tool button opening a menu of the bundled presets, each calling ``on_pick(preset id)``."""
        button = QToolButton()
        button.setText(text)
        button.setIcon(icon(icon_name))
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(button)
        for preset in bundled_presets().values():
            action = menu.addAction(preset.name)
            action.setData(preset.id)
            action.triggered.connect(lambda _=False, pid=preset.id: on_pick(pid))
        button.setMenu(menu)
        return button, menu

    def add_from_preset(self, preset_id: str) -> str | None:
        """Add a workload from a preset, assigned to the first controller / cluster / VM; returns its id."""
        scenario = self.document.scenario
        target = next((n.id for n in scenario.nodes if n.kind in SYSTEM_KINDS), "")
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

    def apply_preset(self, preset_id: str) -> str | None:
        """Apply preset ``preset_id``'s performance profile to the selected workload (one undo step); returns why it
        was refused, or None (nothing happens when no workload is selected)."""
        workload_id = self.current_id()
        if not workload_id:
            return None
        return self.document.apply_preset(workload_id, preset_id)

    def remove_selected(self) -> None:
        """Remove the selected workload (one undo step); nothing when none is selected."""
        workload_id = self.current_id()
        if workload_id:
            self.document.remove_workload(workload_id)

    def select(self, workload_id: str) -> None:
        """Select the workload ``workload_id`` in the list (nothing when it is not listed)."""
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

    def _hosts_edited(self, hosts: list[str]) -> None:
        workload_id = self.current_id()
        if workload_id:
            self.document.set_workload_field(workload_id, "hosts", hosts)
