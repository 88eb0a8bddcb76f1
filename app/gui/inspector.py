"""The inspector: the selected item's fields (a :class:`~app.gui.record_form.RecordForm` of its record).

:class:`Inspector` shows the selected item by the names the user knows (label, catalog model; ids only in a
tooltip), hides the fields that do not apply to it (DDP settings on ONTAP, ADP and WAFL on E-Series), shows what an
empty field stands for ("default (23)", from :mod:`models.capacity.defaults`), greys out choices the item cannot
take (DDP on ONTAP), and shows what :func:`~models.problems.find_problems` reports under the field to blame
(e.g. "30 drives do not fit 24 bays" under the drive count), the value itself being kept. An edit is sent to the
document as one undoable command.
"""

from __future__ import annotations

import html
import typing
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QLineEdit, QScrollArea, QVBoxLayout, QWidget

from app.gui.document import ProjectDocument
from app.gui.plain_text import plain_tooltip
from app.gui.record_form import (
    ERROR_COLOR,
    WARNING_COLOR,
    Choices,
    RecordForm,
    TextEditor,
)
from app.gui.replication_panel import REPLICATION_EXCLUDE, replication_header
from models.capacity import rules
from models.capacity.layout import ARRAY_RAID
from models.capacity.rules import raid_label

# models.catalog first: importing models.project before it, once PySide6 is loaded, trips shiboken's import hook
# inside pydantic's lazy imports (a circular-import error).
from models.catalog import CloudVm, Controller, Drive, HciNode, Shelf
from models.formatting import natural_key
from models.project.factory import drive_fits_controller, drive_fits_shelf
from models.project.kinds import NODE_KINDS
from models.project.model import (
    CloudVmNode,
    ControllerNode,
    HciClusterNode,
    HostNode,
    Link,
    NodeBase,
    ProjectInfo,
    RaidType,
    Settings,
    ShelfNode,
    VsanPolicy,
)
from models.project.names import KIND_NAMES, link_name, node_name, node_names
from models.project.replication import Replication
from models.topology import controller_of_shelf
from models.units import format_capacity

# --- what the inspector shows ---------------------------------------------------------------------------------

NODE_EXCLUDE = {"id", "kind", "x", "y", "node_layouts"}
"""Node fields the inspector does not show: identity and position, and a controller's per-node layouts (a list of
records, edited in the project's text form for now: docs/project-format.md)."""
RAID_TYPES = {
    "ONTAP": rules.ONTAP_RAID_TYPES,
    "E-Series": ARRAY_RAID,
    "generic": tuple(t for t in typing.get_args(RaidType) if t != "ddp"),
}
"""RAID types a controller family builds: ONTAP aggregates RAID4 / RAID DP / RAID-TEC; E-Series volume groups or a
Dynamic Disk Pool; a generic array any parity RAID (DDP is E-Series only)."""
CLOUD_RAID = ("raid0", "none")
"""Cloud Volumes ONTAP aggregates are RAID0 over cloud disks (capacity/cloud.py)."""
NODE_CONTEXTS = {
    "controller": "_controller_context",
    "shelf": "_shelf_context",
    "host": "_host_context",
    "hci_cluster": "_hci_cluster_context",
    "cloud_vm": "_cloud_vm_context",
}
"""Node kind -> the Inspector method that fits a node's form to its record (defaults, allowed values, rows shown);
a kind without one (a switch) shows its form as it is."""


def _kind_text(node: NodeBase, record) -> str:
    if isinstance(record, Controller):
        return "Generic array controller" if record.family == "generic" else f"{record.family} controller"
    text = KIND_NAMES.get(node.kind, node.kind.replace("_", " "))
    return text[0].upper() + text[1:]


def _joined(values, fmt=str) -> str:
    return " / ".join(fmt(v) for v in values)


def measured_text(project) -> str:
    """The project's measured environment as escaped rich text, in the report's words (``models.present.measured.
    measured_blocks``, the PDF's section and the workbook's sheet too): per import what was measured, by what tool
    and when, how the peaks were taken, what was assumed and when imported, then how many of its workloads the
    scenario holds; "" when the project records no import (or none of its workloads is left)."""
    from models.present.measured import measured_blocks

    blocks = []
    for block in measured_blocks(project, project.scenario):
        lines = [f"<b>{html.escape(label)}:</b> {html.escape(text)}" for label, text in block.lines]
        lines.append(html.escape(f"{len(block.workloads)} of its {block.imported} workload(s) in this scenario."))
        blocks.append("<br>".join(lines))
    return ("<b>Measured environment</b><br>" + "<br><br>".join(blocks)) if blocks else ""


class Inspector(QScrollArea):
    """Properties of the selected node or link; the project's settings when nothing is selected.

    Items are named as the user knows them (label, else catalog model), never by id (ids are in the header's
    tooltip). Fields that do not apply to the selected item (DDP settings on an ONTAP controller, ADP on an
    E-Series array) are hidden; a field left empty shows the value the engines use instead ("default (23)"); what
    :func:`~models.problems.find_problems` finds wrong with a field shows under it, the rest under the
    header.
    """

    def __init__(self, document: ProjectDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("inspector")
        self.document = document
        self.setWidgetResizable(True)
        self.setFrameShape(QScrollArea.Shape.NoFrame)
        self._body = QWidget()
        self._layout = QVBoxLayout(self._body)
        self.header = QLabel()
        self.header.setObjectName("inspectorHeader")
        self.header.setWordWrap(True)
        self.header.setTextFormat(Qt.TextFormat.RichText)
        self._layout.addWidget(self.header)
        self.notice = QLabel()
        self.notice.setObjectName("inspectorProblems")
        self.notice.setWordWrap(True)
        self.notice.setTextFormat(Qt.TextFormat.RichText)
        self.notice.hide()
        self._layout.addWidget(self.notice)
        self.measured = QLabel()  # the project's measured environment (read-only: an import sets it)
        self.measured.setObjectName("inspectorMeasured")
        self.measured.setWordWrap(True)
        self.measured.setTextFormat(Qt.TextFormat.RichText)  # measured_text escapes every text it shows
        self.measured.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.measured.hide()
        self._layout.addWidget(self.measured)
        self._layout.addStretch(1)
        self.setWidget(self._body)
        self.form: RecordForm | None = None
        self.protected_table = None
        self._forms: list[RecordForm] = []
        self._target: tuple[str, str] = ("project", "")
        self._notice_messages: list[str] = []
        self._extra_problems: dict[str, list[tuple[str, str]]] = {}
        document.sig_project_changed.connect(self.refresh)
        self.show_target("project", "")

    # what to show

    def show_selection(self, node_ids: list[str], link_ids: list[str]) -> None:
        """Show what the canvas selection calls for: one node, one link, a count of several items, or the project."""
        if len(node_ids) == 1 and not link_ids:
            self.show_target("node", node_ids[0])
        elif len(link_ids) == 1 and not node_ids:
            self.show_target("link", link_ids[0])
        elif node_ids or link_ids:
            self.show_target("many", f"{len(node_ids) + len(link_ids)}")
        else:
            self.show_target("project", "")

    def _add_protected_table(self, replication_id: str) -> None:
        """The relationship's protected workloads and change rates, below its form (cleared with the forms)."""
        from app.gui.replication_workloads import ProtectedWorkloadsTable

        self.protected_table = ProtectedWorkloadsTable(self.document)
        self.protected_table.show_relationship(replication_id)
        self._layout.insertWidget(self._layout.count() - 1, self.protected_table)
        self.protected_table.show()
        self._forms.append(self.protected_table)  # type: ignore[arg-type] - removed with the forms

    def _clear_forms(self) -> None:
        self.protected_table = None
        for form in self._forms:
            self._layout.removeWidget(form)
            form.hide()
            form.deleteLater()
        self._forms = []
        self.form = None

    def _add_form(self, form: RecordForm, title: str | None = None) -> RecordForm:
        if title:
            box = QLabel(f"<b>{title}</b>")
            form.layout().insertRow(0, box)
        self._layout.insertWidget(self._layout.count() - 1, form)
        self._forms.append(form)
        return form

    def show_target(self, what: str, target_id: str) -> None:
        """Build the forms for ``what`` ("node", "link", "many" or "project") and ``target_id``, then `refresh`.

        An unknown node or link id falls back to the project's info and settings.
        """
        self._clear_forms()
        self._target = (what, target_id)
        scenario = self.document.scenario
        unit = lambda: self.document.project.settings.capacity_unit  # noqa: E731
        if what == "node" and scenario.node(target_id) is not None:
            node = scenario.node(target_id)
            self.form = self._add_form(RecordForm(type(node), self._choices, unit, NODE_EXCLUDE))
            self.form.sig_field_edited.connect(self._node_edited)
        elif what == "link" and any(r.id == target_id for r in scenario.replications):  # a replication relationship
            self.form = self._add_form(RecordForm(Replication, self._choices, unit, REPLICATION_EXCLUDE))
            self.form.sig_field_edited.connect(self._replication_edited)
            self._add_protected_table(target_id)
        elif what == "link" and any(link.id == target_id for link in scenario.links):
            self.form = self._add_form(RecordForm(Link, self._choices, unit, {"id", "source", "target"}))
            self.form.sig_field_edited.connect(self._link_edited)
        elif what == "many":
            pass
        else:
            self._target = ("project", "")
            info = self._add_form(RecordForm(ProjectInfo, self._choices, unit, {"created", "modified"}), "Project")
            info.sig_field_edited.connect(self._info_edited)
            # the data-reduction bands have their own table (the Capacity tab's "Data reduction..." dialog)
            settings = self._add_form(RecordForm(Settings, self._choices, unit, {"data_reduction_bands"}), "Settings")
            settings.sig_field_edited.connect(self._settings_edited)
        self._layout.removeWidget(self.measured)  # under the project's forms; hidden for any other target
        self._layout.insertWidget(self._layout.count() - 1, self.measured)
        self.measured.setVisible(False)
        self.refresh()

    def _set_header(self, title: str, subtitle: str = "", tooltip: str = "") -> None:
        text = f"<span style='font-size:14pt'><b>{html.escape(title)}</b></span>"
        if subtitle:
            text += f"<br><span style='color:gray'>{html.escape(subtitle)}</span>"
        self.header.setText(text)
        self.header.setToolTip(plain_tooltip(tooltip))

    def _set_notice(self, problems: list[tuple[str, str]]) -> None:
        """Problems of the shown item that no single field is to blame for (or whose field is hidden)."""
        lines = [f"<span style='color:{ERROR_COLOR if sev == 'error' else WARNING_COLOR}'>"
                 f"{'Error' if sev == 'error' else 'Warning'}: {html.escape(message)}</span>"
                 for sev, message in problems]
        self.notice.setText("<br>".join(lines))
        self.notice.setVisible(bool(lines))

    def focus_first_field(self) -> QWidget | None:
        """Put the keyboard focus on the shown item's first visible field (Enter on the canvas); returns it."""
        form = self.form if self.form is not None else (self._forms[0] if self._forms else None)
        if form is None:
            return None
        for editor in form.editors.values():
            if not editor.isHidden() and editor.isEnabled():
                widget = editor.input
                widget.setFocus(Qt.FocusReason.ShortcutFocusReason)
                if isinstance(widget, QLineEdit):
                    widget.selectAll()
                return widget
        return None

    def problems_text(self) -> list[str]:
        """The messages shown under the header (problems not tied to one shown field)."""
        return list(self._notice_messages)

    def refresh(self) -> None:
        """Show the current values and problems of the shown target (after any project change); a target that no
        longer exists (or changed kind) falls back to the project.
        """
        what, target_id = self._target
        scenario = self.document.scenario
        catalog = self.document.catalog
        self._notice_messages = []
        self._extra_problems = {}
        if what == "node":
            node = scenario.node(target_id)
            if node is None or self.form is None or type(node) is not self.form.model:
                self.show_target("project", "")
                return
            record = catalog.find(node.catalog_id)
            title = node_name(node, catalog)
            subtitle = _kind_text(node, record)
            if record is None:
                subtitle += " · model not in the catalog"
            elif record.name != title:
                subtitle += f" · {record.name}"
            self._set_header(title, subtitle, f"Item id: {node.id}\nCatalog id: {node.catalog_id}")
            self.form.set_record(node)
            self._apply_node_context(node, record)
            self._show_problems(f"{node_names(scenario.nodes, catalog)[node.id]}: ")
        elif what == "link" and self.form is not None and self.form.model is Replication:
            rep = next((r for r in scenario.replications if r.id == target_id), None)
            if rep is None:
                self.show_target("project", "")
                return
            title, subtitle, tooltip, problems = replication_header(rep, scenario, catalog)
            self._set_header(title, subtitle, tooltip)
            self.form.set_record(rep)
            if self.protected_table is not None:
                self.protected_table.refresh()
            self._notice_messages = [m for _, m in problems]
            self._set_notice(problems)
        elif what == "link":
            link = next((candidate for candidate in scenario.links if candidate.id == target_id), None)
            if link is None:
                self.show_target("project", "")
                return
            ends = [scenario.node(i) for i in (link.source, link.target)]
            names = [node_name(n, catalog) if n is not None else "(removed item)" for n in ends]
            link_type = catalog.find(link.link_type)
            kind = link_type.name if link_type is not None else "link type not in the catalog"
            self._set_header(f"{names[0]} — {names[1]}", f"Link · {kind}",
                             f"Link id: {link.id}\nFrom {link.source} to {link.target}\nLink type id: {link.link_type}")
            self.form.set_record(link)
            self._show_problems(f"link {link_name(link.source, link.target, node_names(scenario.nodes, catalog))}: ")
        elif what == "many":
            self.header.setToolTip("")
            self.header.setText(f"<b>{target_id} items selected</b><br><span style='color:gray'>"
                                "Select one item to edit it.</span>")
            self._set_notice([])
        else:
            project = self.document.project
            count = len(project.scenario.nodes)
            self._set_header(project.info.name, f"Scenario '{project.active_scenario}' · "
                             f"{count} item{'' if count == 1 else 's'} · select an item to edit it")
            self._set_notice([])
            if len(self._forms) == 2:
                self._forms[0].set_record(project.info)
                self._forms[1].set_record(project.settings)
            text = measured_text(project)
            self.measured.setText(text)
            self.measured.setVisible(bool(text))

    def _show_problems(self, prefix: str) -> None:
        """What find_problems reports for the shown node or link: under its field when that field is shown,
        else under the header. ``prefix`` is how the messages name the item (dropped: the header names it)."""
        from models.problems import find_problems  # with the engines it needs: after the first window (issue 27)

        form = self.form
        if form is None:
            return
        target_id = self._target[1]
        by_field: dict[str, list[tuple[str, str]]] = {}
        general: list[tuple[str, str]] = []
        sources: list[str] = []  # the cited limits of the problems under the header: the notice's tooltip
        for problem in find_problems(self.document.scenario, self.document.catalog):
            if problem.node_id != target_id:
                continue
            message = problem.message.removeprefix(prefix)
            message = message[0].upper() + message[1:] if message else message
            if problem.field in form.editors and form.row_visible(problem.field):
                by_field.setdefault(problem.field, []).append((problem.severity, message))
            else:
                general.append((problem.severity, message))
                if problem.sources:
                    sources.append(problem.sources)
        for field, extra in self._extra_problems.items():
            by_field.setdefault(field, []).extend(extra)
        for name, editor in form.editors.items():
            editor.set_problems(by_field.get(name, []))
        self._notice_messages = [m for _, m in general]
        self._set_notice(general)
        if sources:
            from models.present.citations import customer_citation

            self.notice.setToolTip(plain_tooltip("Sources: " + "; ".join(customer_citation(s) for s in sources)))
        else:
            self.notice.setToolTip("")

    # what applies to the selected item, and what an empty field stands for

    def _apply_node_context(self, node: NodeBase, record) -> None:
        form = self.form
        assert form is not None
        editors = form.editors
        label = editors.get("label")
        if isinstance(label, TextEditor):
            label.line.setPlaceholderText(record.name if record is not None else "")
        visible: dict[str, bool] = {}
        context = NODE_CONTEXTS.get(node.kind)
        if context is not None:
            getattr(self, context)(node, record, visible)
        for field in editors:
            form.set_row_visible(field, visible.get(field, True))

    def _shelf_context(self, node: ShelfNode, record, visible: dict[str, bool]) -> None:
        if isinstance(record, Shelf):
            editors = self.form.editors
            editors["drive_count"].spin.setSuffix(f" of {record.bays} bays")
            editors["drive_count"].spin.setToolTip(f"{record.name} has {record.bays} bays")

    def _host_context(self, node: HostNode, record, visible: dict[str, bool]) -> None:
        visible["adapters_per_host"] = node.adapter is not None

    def _hci_cluster_context(self, node: HciClusterNode, record, visible: dict[str, bool]) -> None:
        visible["inter_site_rtt_ms"] = visible["inter_site_gbps"] = node.stretched  # a stretched cluster's link
        if isinstance(record, HciNode):
            from models.capacity.defaults import hci_slack_default  # with the engines: when an HCI cluster is shown

            editors = self.form.editors
            slack, source = hci_slack_default(record)
            editors["slack_space_pct"].set_default(slack, f"{slack:g} %")
            editors["slack_space_pct"].spin.setToolTip(f"Left at default: {source}")
            visible["dedupe_compression"] = record.all_flash or node.dedupe_compression
            if not record.all_flash:
                mirrors = [p for p in typing.get_args(VsanPolicy) if not rules.VSAN_POLICIES[p].erasure_coding]
                editors["policy"].set_allowed(mirrors, "erasure coding needs an all-flash cluster")

    def _cloud_vm_context(self, node: CloudVmNode, record, visible: dict[str, bool]) -> None:
        editors = self.form.editors
        vm = record if isinstance(record, CloudVm) else None
        visible["ha"] = vm is None or vm.ha_supported or node.ha
        visible["raid_type"] = node.raid_type not in CLOUD_RAID
        editors["raid_type"].set_allowed(CLOUD_RAID, "Cloud Volumes ONTAP aggregates are RAID0 over cloud disks")
        visible["cold_data_pct"] = node.tiering != "none"

    def _controller_context(self, node: ControllerNode, record, visible: dict[str, bool]) -> None:
        from models.capacity.defaults import controller_defaults  # with the engines: when a controller is shown

        if not isinstance(record, Controller):
            return
        editors = self.form.editors
        ontap = record.family == "ONTAP"
        grouped = ontap or node.raid_type in rules.PARITY_PER_GROUP
        visible.update({
            "software": bool(record.software_versions) or node.software is not None,
            "raid_group_size": grouped,
            "adp": ontap or node.adp != "none",
            "root_partition_bytes": ontap and node.adp != "none",
            "root_aggregate_drives": ontap and node.adp == "none" or node.root_aggregate_drives > 0,
            "wafl_reserve_pct": ontap,
            "snapshot_reserve_pct": ontap,
            "ddp_preservation_drives": not ontap and node.raid_type == "ddp",
            "optimization_capacity_pct": node.raid_type == "ddp" and any(
                m in record.name.upper() for m in rules.OPTIMIZATION_CAPACITY_MODELS),
            "capacity_tier": ontap or node.capacity_tier != "none",  # FabricPool is ONTAP's
            "capacity_tier_name": node.capacity_tier != "none",
            "cold_read_latency_us": node.capacity_tier != "none",
            "tiering_policy": node.capacity_tier != "none",
            "capacity_tier_protection": node.capacity_tier == "storagegrid",  # a bucket's is the provider's
            "storage_switch": record.max_shelves_switched is not None or bool(node.storage_switch),
            "storage_switch_pairs": bool(node.storage_switch) or node.storage_switch_pairs != 1,
        })
        if record.max_shelves is not None and record.max_shelves_switched is not None:
            editors["storage_switch"].combo.setToolTip(
                f"{record.name}: up to {record.max_shelves} direct-attached NS224 shelves "
                f"({record.max_drives} drives); "
                f"up to {record.max_shelves_switched} switch-attached through a pair of storage switches "
                f"({record.max_drives_switched or record.max_drives} drives, NetApp's published maximum raw capacity "
                "with the largest drive)")
        if node.capacity_tier != "none":
            from models.performance.paths import capacity_tier_latency  # the engine loads after the first paint

            latency, why = capacity_tier_latency(node.model_copy(update={"cold_read_latency_us": None}))
            editors["cold_read_latency_us"].set_default(latency, f"{latency:,.0f} µs")
            editors["cold_read_latency_us"].spin.setToolTip(f"Left at default: {why}")
        offered = RAID_TYPES.get(record.family)
        family = "a generic array" if record.family == "generic" else record.family
        editors["raid_type"].set_allowed(offered, f"not offered by {family}")
        if record.family in ("ONTAP", "E-Series") and node.raid_type not in offered:  # the engine's problem
            used = "computed as RAID DP" if ontap else "computed with its parity count"
            self._extra_problems.setdefault("raid_type", []).append(
                ("error", f"{record.name} does not offer {raid_label(node.raid_type)}; {used}"))
        defaults = controller_defaults(self.document.scenario, self.document.catalog, node, record)
        editors["nodes"].set_default(defaults.nodes, str(defaults.nodes))
        editors["nodes"].spin.setToolTip(f"Left at default: {record.name} has {defaults.nodes} nodes")

        size = editors["raid_group_size"]
        groups = defaults.raid_groups
        raid = raid_label(node.raid_type if not ontap or node.raid_type in rules.ONTAP_RAID_TYPES else "raid_dp")
        if groups:
            sizes = list(dict.fromkeys(g.default for g in groups))
            size.set_default(sizes[0], _joined(sizes))
            size.spin.setToolTip("Left at default: " + "; ".join(
                f"{g.default} for {raid} on {g.drive.name} ({g.source})" for g in groups))
        else:
            size.set_default(None, "set by the drives" if ontap else None)
            size.spin.setToolTip("")
        for g in groups:  # the engines' limits: ontap.py caps the size, array.py reports it
            if node.raid_group_size and g.maximum and node.raid_group_size > g.maximum:
                message = (f"{raid} groups of {g.drive.name} hold at most {g.maximum} drives; {g.maximum} is used"
                           if ontap else f"{raid} volume groups hold at most {g.maximum} drives")
                self._extra_problems.setdefault("raid_group_size", []).append(("error", message))

        unit = self.document.project.settings.capacity_unit
        root = editors["root_partition_bytes"]
        if defaults.root_partition_bytes:
            root.set_default(defaults.root_partition_bytes[0],
                             _joined(defaults.root_partition_bytes, lambda b: format_capacity(b, unit)))
            root.spin.setToolTip(f"Left at default: {defaults.root_partition_source}")
        else:
            root.set_default(None, None)

        wafl = editors["wafl_reserve_pct"]
        if defaults.wafl_reserve_pct:
            wafl.set_default(defaults.wafl_reserve_pct[0], _joined(defaults.wafl_reserve_pct, lambda v: f"{v:g} %"))
            wafl.spin.setToolTip(f"Left at default: the ONTAP rule, {defaults.wafl_reserve_rule}")
        else:
            wafl.set_default(None, "ONTAP rule" if ontap else None)
            wafl.spin.setToolTip("Left at default: 10 %, 5 % for aggregates of 30 TiB or more on recent ONTAP")

        snap_pct, snap_source = rules.aggregate_snapshot_reserve(None, node.metrocluster != "none")
        snapshot = editors["snapshot_reserve_pct"]
        snapshot.set_default(snap_pct if ontap else None, f"{snap_pct:g} %" if ontap else None)
        snapshot.spin.setToolTip(f"Left at default: {snap_pct:g} %, {snap_source}" if ontap else "")

    # catalog-aware choices

    def _choices(self, name: str, record: Any) -> Choices | None:
        catalog = self.document.catalog
        scenario = self.document.scenario

        def named(entries, none_label: str | None = None) -> Choices:
            """(name, id) per entry in natural order (1.5, 1.9, 3.8, 15.3 TB; 8, 16, 32, 64 Gb)."""
            out = [(none_label, None)] if none_label else []
            return out + sorted(((e.name, e.id) for e in entries), key=lambda choice: natural_key(choice[0]))

        def keep_current(choices: Choices, value: Any, why: str) -> Choices:
            """The current value stays choosable (and visible by name) when it is not among the fitting ones."""
            if value is None or value in {v for _, v in choices}:
                return choices
            entry = catalog.find(value) if isinstance(value, str) else None
            if entry is None:
                return choices + [(f"{value} (not in the catalog)", value)]
            return choices + [(f"{entry.name} ({why})", value)]

        what, target_id = self._target
        node = scenario.node(target_id) if what == "node" else None
        if name == "storage_switch":  # NS224 shelves direct-attached, or switch-attached through a storage pair
            choices = [("direct-attached", "")] + sorted(
                ((f"switch-attached, 2 × {e.name}", e.id) for e in catalog.of_kind("switch")
                 if getattr(e, "storage_shelves", None)), key=lambda choice: natural_key(choice[0]))
            current = getattr(node, "storage_switch", "") or None
            return keep_current(choices, current, "not a storage switch")
        if record is None and name in ("catalog_id", "drive", "adapter", "disk", "licence", "software", "link_type"):
            return []  # filled per record by set_record
        if name == "catalog_id" and node is not None:
            kind = NODE_KINDS[node.kind].catalog_kind if node.kind in NODE_KINDS else node.kind
            return keep_current(named(catalog.of_kind(kind)), node.catalog_id, f"not a {KIND_NAMES.get(node.kind)}")
        if name == "drive" and isinstance(node, ShelfNode):
            shelf = catalog.find(node.catalog_id)
            owner = controller_of_shelf(scenario, node.id)
            controller = catalog.find(owner.catalog_id) if owner is not None else None

            def fits(d: Drive) -> bool:
                """The shelf takes it (interface, size, vendor) and its controller is sold with it."""
                return (not isinstance(shelf, Shelf) or drive_fits_shelf(d, shelf)) and (
                    not isinstance(controller, Controller) or drive_fits_controller(d, controller, catalog))

            choices = named(d for d in catalog.of_kind(Drive) if fits(d))
            return keep_current(choices, node.drive, "does not fit this shelf or its controller")
        if name == "adapter" and isinstance(node, HostNode):
            return keep_current(named(catalog.of_kind("adapter"), "(no adapter)"), node.adapter, "not an adapter")
        if name == "disk" and isinstance(node, CloudVmNode):
            vm = catalog.find(node.catalog_id)
            choices = named(d for d in catalog.of_kind("cloud_disk")
                            if getattr(vm, "provider", d.provider) == d.provider
                            and getattr(d, "data_disk", True))  # boot / NVRAM disks are never data disks
            current = catalog.find(node.disk) if node.disk else None
            return keep_current(choices, node.disk, "a system disk, not a data disk"
                                if getattr(current, "data_disk", True) is False else "another cloud's disk")
        if name == "licence" and isinstance(node, CloudVmNode):
            vm = catalog.find(node.catalog_id)
            allowed = getattr(vm, "licences", None)
            choices = named(licence for licence in catalog.of_kind("licence") if not allowed or licence.id in allowed)
            return keep_current(choices, node.licence, "not offered on this VM")
        if name == "software" and isinstance(node, ControllerNode):
            record_ = catalog.find(node.catalog_id)
            versions = record_.software_versions if isinstance(record_, Controller) else []
            default = record_.default_software if isinstance(record_, Controller) else ""
            return [(f"default ({default})" if default else "default", None)] + [(v, v) for v in versions]
        if name == "software" and isinstance(node, CloudVmNode):
            choices = [(f"default ({rules.CURRENT_ONTAP_RELEASE})", None)] + [(v, v) for v in rules.CVO_RELEASES]
            return keep_current(choices, node.software, "not a listed release")
        if name == "link_type" and what == "link":
            link = next((candidate for candidate in scenario.links if candidate.id == target_id), None)
            if link is None:
                return []
            accepted, _ = self.document.link_choices(link.source, link.target, link.id)
            return keep_current(named(accepted), link.link_type, "not valid here")
        return None

    # edits

    def _node_edited(self, field: str, value: Any) -> None:
        error = self.document.set_node_field(self._target[1], field, value)
        if self.form is not None:
            self.form.show_error(field, error)

    def _replication_edited(self, field: str, value: Any) -> None:
        error = self.document.set_replication_field(self._target[1], field, value)
        if self.form is not None:
            self.form.show_error(field, error)

    def _link_edited(self, field: str, value: Any) -> None:
        error = self.document.set_link_field(self._target[1], field, value)
        if self.form is not None:
            self.form.show_error(field, error)

    def _info_edited(self, field: str, value: Any) -> None:
        error = self.document.set_info(field, value)
        self._forms[0].show_error(field, error)

    def _settings_edited(self, field: str, value: Any) -> None:
        error = self.document.set_setting(field, value)
        self._forms[1].show_error(field, error)
