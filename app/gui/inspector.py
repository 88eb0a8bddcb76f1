"""The inspector: the selected item's fields as validated editors generated from its pydantic model.

:class:`RecordForm` builds one editor per field from the field's type and constraints (Literal -> combo box,
int / float with ge / le -> spin box with that range and a unit from the name suffix, bool -> check box, catalog
ids -> combo of compatible catalog records). An edit is sent to the document as one undoable command; a refused
value keeps what the user typed and shows why next to the field.
"""

from __future__ import annotations

import enum
import types
import typing
from typing import Any, Callable, Literal

import annotated_types as at
from pydantic import BaseModel
from contextlib import contextmanager

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from models.catalog import Controller, Drive
from models.project.model import (
    NODE_KIND_FOR_CATALOG,
    CloudVmNode,
    ControllerNode,
    HostNode,
    Link,
    ProjectInfo,
    Settings,
    ShelfNode,
)
from models.units import CapacityUnit

from .document import ProjectDocument
from .icons import kind_icon

Choices = list[tuple[str, Any]]
ChoicesFn = Callable[[str, Any], "Choices | None"]

SUFFIXES = (("_bytes", ""), ("_pct_per_h", " %/h"), ("_pct_per_year", " %/yr"), ("_pct", " %"), ("_ms", " ms"),
            ("_us", " µs"), ("_gbps", " Gb/s"), ("_mbps", " MB/s"), ("_kib", " KiB"), ("_iops", " IOPS"), ("_h", " h"))
LABELS = {"catalog_id": "Model", "adp": "ADP", "raid_type": "RAID type", "slo_ms": "Latency SLO",
          "target_iops": "Target IOPS", "target_mbps": "Target MB/s", "block_kib": "Block size",
          "ha": "HA pair", "dedupe_compression": "Dedupe + compression"}
NESTED_DEFAULTS = {"snapshots": {"interval_h": 24.0, "retention_h": 168.0, "change_pct_per_h": 1.0}}
"""Starting values when an optional nested record (a snapshot schedule) is switched on."""
BIG = 1e12


@contextmanager
def blocked(obj: QObject):
    """Block an object's signals for a block. (PySide6 6.12's ``with QSignalBlocker(...)`` over-releases
    ``None`` on exit, which crashes the interpreter after a few thousand uses.)"""
    was = obj.blockSignals(True)
    try:
        yield obj
    finally:
        obj.blockSignals(was)


ACRONYMS = {"raid": "RAID", "wafl": "WAFL", "ddp": "DDP", "adp": "ADP", "ha": "HA", "slo": "SLO", "vm": "VM",
            "iops": "IOPS", "cpu": "CPU"}
"""Words the field writes in capitals."""
CHOICE_LABELS = {
    "none": "none", "raid0": "RAID 0", "raid4": "RAID4", "raid_dp": "RAID DP", "raid_tec": "RAID-TEC",
    "raid5": "RAID5", "raid6": "RAID6", "raid10": "RAID10", "ddp": "DDP (Dynamic Disk Pool)",
    "root-data": "root-data (ADPv1)", "root-data-data": "root-data-data (ADPv2)",
    "ftt1-raid1": "FTT=1 RAID1 (mirror)", "ftt2-raid1": "FTT=2 RAID1", "ftt3-raid1": "FTT=3 RAID1",
    "ftt1-raid5": "FTT=1 RAID5 (3+1 erasure coding)", "ftt2-raid6": "FTT=2 RAID6 (4+2 erasure coding)",
}
"""How the model's choice values read in a combo box."""


def field_label(name: str) -> str:
    if name in LABELS:
        return LABELS[name]
    for suffix, _ in SUFFIXES:
        if name.endswith(suffix) and suffix != "_h":
            name = name[: -len(suffix)]
            break
    words = [ACRONYMS.get(w, w) for w in name.split("_")]
    text = " ".join(words)
    return text[0].upper() + text[1:] if text else text


def choice_label(value: Any) -> str:
    """The text of one Literal choice in a combo box (``raid_dp`` -> ``RAID DP``)."""
    return CHOICE_LABELS.get(str(value), str(value).replace("_", " "))


def _unwrap(annotation) -> tuple[Any, bool]:
    """(inner type, optional) of ``X | None``."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return annotation, False


def _bounds(metadata) -> tuple[float | None, float | None, bool, bool]:
    low = high = None
    low_open = high_open = False
    for item in metadata:
        if isinstance(item, at.Ge):
            low = item.ge
        elif isinstance(item, at.Gt):
            low, low_open = item.gt, True
        elif isinstance(item, at.Le):
            high = item.le
        elif isinstance(item, at.Lt):
            high, high_open = item.lt, True
    return low, high, low_open, high_open


class FieldEditor(QWidget):
    """One field: an input widget and, under it, a message when a value was refused."""

    sig_value_edited = Signal(str, object)
    """The user entered a value for this field (name, value in model units)."""

    def __init__(self, name: str, input_widget: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.input = input_widget
        self.error = QLabel(self)
        self.error.setObjectName("fieldError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #d64545;")
        self.error.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(1)
        layout.addWidget(input_widget)
        layout.addWidget(self.error)

    def set_error(self, message: str | None) -> None:
        self.error.setText(message or "")
        self.error.setVisible(bool(message))

    def set_value(self, value: Any) -> None:  # overridden
        raise NotImplementedError

    def emit(self, value: Any) -> None:
        self.sig_value_edited.emit(self.name, value)


class ComboEditor(FieldEditor):
    """A choice among (label, value) pairs. Values stay in a Python list, never in Qt item data: PySide6 6.12
    over-releases ``None`` whenever a QVariant holding it crosses into Python."""

    def __init__(self, name: str, choices: Choices, parent=None) -> None:
        self.combo = QComboBox()
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.combo.setMinimumContentsLength(12)
        super().__init__(name, self.combo, parent)
        self.values: list[Any] = []
        self.set_choices(choices)
        self.combo.activated.connect(lambda i: self.emit(self.values[i]))

    def set_choices(self, choices: Choices) -> None:
        with blocked(self.combo):
            self.combo.clear()
            self.values = []
            for label, value in choices:
                self.combo.addItem(label)
                self.combo.setItemData(self.combo.count() - 1, label, Qt.ItemDataRole.ToolTipRole)
                self.values.append(value)

    def index_of(self, value: Any) -> int:
        return self.values.index(value) if value in self.values else -1

    def choose(self, value: Any) -> None:
        """Pick a value as the user would (emits the edit)."""
        index = self.index_of(value)
        self.combo.setCurrentIndex(index)
        self.combo.activated.emit(index)

    def set_value(self, value: Any) -> None:
        with blocked(self.combo):
            index = self.index_of(value)
            if index < 0:  # keep an unknown value visible rather than silently showing another
                self.combo.addItem(f"{value} (not in catalog)")
                self.values.append(value)
                index = self.combo.count() - 1
            self.combo.setCurrentIndex(index)


class CheckEditor(FieldEditor):
    def __init__(self, name: str, parent=None) -> None:
        self.check = QCheckBox()
        super().__init__(name, self.check, parent)
        self.check.toggled.connect(self.emit)

    def set_value(self, value: Any) -> None:
        with blocked(self.check):
            self.check.setChecked(bool(value))


class NumberEditor(FieldEditor):
    """A spin box; ``scale`` converts model units to shown units (bytes -> TB); an optional field shows its
    lowest step as 'default'."""

    def __init__(self, name: str, is_int: bool, low, high, low_open, high_open, optional: bool,
                 suffix: str = "", scale: float = 1.0, parent=None) -> None:
        self.is_int, self.scale, self.optional = is_int and scale == 1.0, scale, optional
        spin = QSpinBox() if self.is_int else QDoubleSpinBox()
        self.spin = spin
        super().__init__(name, spin, parent)
        step = 1 if self.is_int else 0.01
        if not self.is_int:
            spin.setDecimals(3 if scale != 1.0 else 2)
        lo = -BIG if low is None else low / scale + (step if low_open and self.is_int else 0)
        if low_open and not self.is_int:
            lo = low / scale + 10 ** -spin.decimals()
        hi = BIG if high is None else high / scale - (step if high_open else 0)
        if self.is_int:
            lo, hi = int(max(lo, -2**31 + 2)), int(min(hi, 2**31 - 2))
        if optional:
            lo = lo - step
            spin.setSpecialValueText("default" if name not in ("target_iops", "target_mbps") else "none")
        spin.setRange(lo, hi)
        self._none_value = lo
        spin.setSuffix(suffix)
        spin.setKeyboardTracking(False)
        spin.setAccelerated(True)
        spin.setAlignment(Qt.AlignmentFlag.AlignRight)
        if not self.is_int and hi - lo > 1000:
            spin.setSingleStep(1.0 if scale == 1.0 else 0.1)
        spin.valueChanged.connect(self._changed)

    def _changed(self, shown: float) -> None:
        if self.optional and shown == self._none_value:
            self.emit(None)
            return
        if self.scale != 1.0:  # bytes shown in TB / TiB
            self.emit(int(round(shown * self.scale)))
        else:
            self.emit(int(shown) if self.is_int else float(shown))

    def set_value(self, value: Any) -> None:
        with blocked(self.spin):
            self.spin.setValue(self._none_value if value is None else value / self.scale)


class TextEditor(FieldEditor):
    def __init__(self, name: str, is_list: bool = False, parent=None) -> None:
        self.line = QLineEdit()
        super().__init__(name, self.line, parent)
        self.is_list = is_list
        if is_list:
            self.line.setPlaceholderText("comma-separated ids (empty = all)")
        self.line.editingFinished.connect(self._commit)
        self._value: Any = None

    def _commit(self) -> None:
        text = self.line.text()
        value = [t.strip() for t in text.split(",") if t.strip()] if self.is_list else text
        if value != self._value:
            self.emit(value)

    def set_value(self, value: Any) -> None:
        self._value = value
        with blocked(self.line):
            self.line.setText(", ".join(value) if self.is_list else (value or ""))


class NestedEditor(FieldEditor):
    """An optional nested record (a snapshot schedule): a checkable group with its own form."""

    def __init__(self, name: str, model: type[BaseModel], optional: bool, unit_fn, parent=None) -> None:
        self.group = QGroupBox(field_label(name))
        self.group.setCheckable(optional)
        super().__init__(name, self.group, parent)
        self.model = model
        self.form = RecordForm(model, choices=lambda *_: None, unit_fn=unit_fn)
        QVBoxLayout(self.group).addWidget(self.form)
        self.form.layout().setContentsMargins(4, 4, 4, 4)
        self._value = None
        self.group.toggled.connect(self._toggled)
        self.form.sig_field_edited.connect(self._sub_edited)

    def _toggled(self, on: bool) -> None:
        self.emit(NESTED_DEFAULTS.get(self.name, {}) if on else None)

    def _sub_edited(self, field: str, value: Any) -> None:
        base = self._value.model_dump() if self._value is not None else dict(NESTED_DEFAULTS.get(self.name, {}))
        self.emit({**base, field: value})

    def set_value(self, value: Any) -> None:
        self._value = value
        with blocked(self.group):
            self.group.setChecked(value is not None)
        self.form.setVisible(value is not None or not self.group.isCheckable())
        if value is not None:
            self.form.set_record(value)


class RecordForm(QWidget):
    """Editors for the fields of a pydantic record type."""

    sig_field_edited = Signal(str, object)
    """The user entered a value for a field of the shown record."""

    def __init__(self, model: type[BaseModel], choices: ChoicesFn, unit_fn: Callable[[], CapacityUnit],
                 exclude: set[str] = frozenset(), parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.record: BaseModel | None = None
        self._choices = choices
        self.editors: dict[str, FieldEditor] = {}
        layout = QFormLayout(self)
        layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        layout.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        layout.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        for name, info in model.model_fields.items():
            if name in exclude:
                continue
            editor = self._make_editor(name, info, unit_fn)
            if editor is None:
                continue
            if info.description:
                editor.setToolTip(info.description)
            editor.sig_value_edited.connect(self.sig_field_edited)
            self.editors[name] = editor
            label = QLabel(field_label(name) + ":")
            label.setToolTip(info.description or name)
            if isinstance(editor, NestedEditor):
                layout.addRow(editor)
            else:
                layout.addRow(label, editor)

    def _make_editor(self, name, info, unit_fn) -> FieldEditor | None:
        inner, optional = _unwrap(info.annotation)
        choices = self._choices(name, None)
        if choices is not None:
            return ComboEditor(name, choices)
        if typing.get_origin(inner) is Literal:
            return ComboEditor(name, [(choice_label(v), v) for v in typing.get_args(inner)])
        if isinstance(inner, type) and issubclass(inner, enum.Enum):
            return ComboEditor(name, [(m.value, m) for m in inner])
        if inner is bool:
            return CheckEditor(name)
        if inner in (int, float):
            low, high, low_open, high_open = _bounds(info.metadata)
            suffix = next((s for suf, s in SUFFIXES if name.endswith(suf)), "")
            scale = 1.0
            if name.endswith("_bytes"):
                unit = unit_fn()
                scale, suffix = float(unit.large_bytes), f" {unit.value}"
            if name.endswith("_ratio"):
                suffix = " : 1"
            return NumberEditor(name, inner is int, low, high, low_open, high_open, optional, suffix, scale)
        if inner is str:
            return TextEditor(name)
        if typing.get_origin(inner) is list:
            return TextEditor(name, is_list=True)
        if isinstance(inner, type) and issubclass(inner, BaseModel):
            return NestedEditor(name, inner, optional, unit_fn)
        return None

    def set_record(self, record: BaseModel) -> None:
        """Show a record's values (without emitting edits); clears refused-value messages."""
        self.record = record
        for name, editor in self.editors.items():
            if isinstance(editor, ComboEditor):
                fresh = self._choices(name, record)
                if fresh is not None:
                    editor.set_choices(fresh)
            editor.set_value(getattr(record, name))
            editor.set_error(None)

    def show_error(self, field: str, message: str | None) -> None:
        if field in self.editors:
            self.editors[field].set_error(message)


# --- what the inspector shows ---------------------------------------------------------------------------------

NODE_EXCLUDE = {"id", "kind", "x", "y"}


class Inspector(QScrollArea):
    """Properties of the selected node or link; the project's settings when nothing is selected."""

    def __init__(self, document: ProjectDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("inspector")
        self.document = document
        self.setWidgetResizable(True)
        self.setFrameShape(QScrollArea.Shape.NoFrame)
        self._body = QWidget()
        self._layout = QVBoxLayout(self._body)
        self.header = QLabel()
        self.header.setWordWrap(True)
        self.header.setTextFormat(Qt.TextFormat.RichText)
        self._layout.addWidget(self.header)
        self._layout.addStretch(1)
        self.setWidget(self._body)
        self.form: RecordForm | None = None
        self._forms: list[RecordForm] = []
        self._target: tuple[str, str] = ("project", "")
        document.sig_project_changed.connect(self.refresh)
        self.show_target("project", "")

    # what to show

    def show_selection(self, node_ids: list[str], link_ids: list[str]) -> None:
        if len(node_ids) == 1 and not link_ids:
            self.show_target("node", node_ids[0])
        elif len(link_ids) == 1 and not node_ids:
            self.show_target("link", link_ids[0])
        elif node_ids or link_ids:
            self.show_target("many", f"{len(node_ids) + len(link_ids)}")
        else:
            self.show_target("project", "")

    def _clear_forms(self) -> None:
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
        self._clear_forms()
        self._target = (what, target_id)
        scenario = self.document.scenario
        unit = lambda: self.document.project.settings.capacity_unit  # noqa: E731
        if what == "node" and scenario.node(target_id) is not None:
            node = scenario.node(target_id)
            self.form = self._add_form(RecordForm(type(node), self._choices, unit, NODE_EXCLUDE))
            self.form.sig_field_edited.connect(self._node_edited)
        elif what == "link" and any(l.id == target_id for l in scenario.links):
            self.form = self._add_form(RecordForm(Link, self._choices, unit, {"id", "source", "target"}))
            self.form.sig_field_edited.connect(self._link_edited)
        elif what == "many":
            pass
        else:
            self._target = ("project", "")
            info = self._add_form(RecordForm(ProjectInfo, self._choices, unit, {"created", "modified"}), "Project")
            info.sig_field_edited.connect(self._info_edited)
            settings = self._add_form(RecordForm(Settings, self._choices, unit), "Settings")
            settings.sig_field_edited.connect(self._settings_edited)
        self.refresh()

    def refresh(self) -> None:
        what, target_id = self._target
        scenario = self.document.scenario
        if what == "node":
            node = scenario.node(target_id)
            if node is None or self.form is None or type(node) is not self.form.model:
                self.show_target("project", "")
                return
            record = self.document.catalog.find(node.catalog_id)
            self.header.setText(f"<span style='font-size:14pt'><b>{node.label or node.id}</b></span><br>"
                                f"<span style='color:gray'>{node.kind.replace('_', ' ')} · {node.id}<br>"
                                f"{record.name if record else node.catalog_id}</span>")
            self.form.set_record(node)
        elif what == "link":
            link = next((l for l in scenario.links if l.id == target_id), None)
            if link is None:
                self.show_target("project", "")
                return
            self.header.setText(f"<span style='font-size:14pt'><b>Link {link.id}</b></span><br>"
                                f"<span style='color:gray'>{link.source} — {link.target}</span>")
            self.form.set_record(link)
        elif what == "many":
            self.header.setText(f"<b>{target_id} items selected</b><br><span style='color:gray'>"
                                "Select one item to edit it.</span>")
        else:
            project = self.document.project
            self.header.setText(f"<span style='font-size:14pt'><b>{project.info.name}</b></span><br>"
                                f"<span style='color:gray'>Scenario '{project.active_scenario}' · "
                                f"{len(project.scenario.nodes)} items · select an item to edit it</span>")
            if len(self._forms) == 2:
                self._forms[0].set_record(project.info)
                self._forms[1].set_record(project.settings)

    # catalog-aware choices

    def _choices(self, name: str, record: Any) -> Choices | None:
        catalog = self.document.catalog
        scenario = self.document.scenario

        def named(entries, none_label: str | None = None) -> Choices:
            out = [(none_label, None)] if none_label else []
            return out + [(e.name, e.id) for e in entries]

        what, target_id = self._target
        node = scenario.node(target_id) if what == "node" else None
        if record is None and name in ("catalog_id", "drive", "adapter", "disk", "licence", "software", "link_type"):
            return []  # filled per record by set_record
        if name == "catalog_id" and node is not None:
            kind = next((c for c, n in NODE_KIND_FOR_CATALOG.items() if n == node.kind), node.kind)
            return named(catalog.of_kind(kind))
        if name == "drive" and isinstance(node, ShelfNode):
            shelf = catalog.find(node.catalog_id)
            interfaces = getattr(shelf, "drive_interfaces", None)
            return named(d for d in catalog.of_kind(Drive) if not interfaces or d.interface in interfaces)
        if name == "adapter" and isinstance(node, HostNode):
            return named(catalog.of_kind("adapter"), "(no adapter)")
        if name == "disk" and isinstance(node, CloudVmNode):
            vm = catalog.find(node.catalog_id)
            return named(d for d in catalog.of_kind("cloud_disk") if getattr(vm, "provider", d.provider) == d.provider)
        if name == "licence" and isinstance(node, CloudVmNode):
            vm = catalog.find(node.catalog_id)
            allowed = getattr(vm, "licences", None)
            return named(l for l in catalog.of_kind("licence") if not allowed or l.id in allowed)
        if name == "software" and isinstance(node, ControllerNode):
            record_ = catalog.find(node.catalog_id)
            versions = record_.software_versions if isinstance(record_, Controller) else []
            return [("(catalog default)", None)] + [(v, v) for v in versions]
        if name == "link_type" and what == "link":
            link = next((l for l in scenario.links if l.id == target_id), None)
            if link is None:
                return []
            accepted, _ = self.document.link_choices(link.source, link.target)
            choices = named(accepted)
            if link.link_type not in {c[1] for c in choices}:
                choices.append((f"{link.link_type} (not valid here)", link.link_type))
            return choices
        return None

    # edits

    def _node_edited(self, field: str, value: Any) -> None:
        error = self.document.set_node_field(self._target[1], field, value)
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
