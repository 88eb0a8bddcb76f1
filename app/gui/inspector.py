"""The inspector: the selected item's fields as validated editors generated from its pydantic model.

:class:`RecordForm` builds one editor per field from the field's type and constraints (Literal -> combo box,
int / float with ge / le -> spin box with that range and a unit from the name suffix, bool -> check box, catalog
ids -> combo of compatible catalog records). An edit is sent to the document as one undoable command; a refused
value keeps what the user typed and shows why next to the field.

:class:`Inspector` shows the selected item by the names the user knows (label, catalog model; ids only in a
tooltip), hides the fields that do not apply to it (DDP settings on ONTAP, ADP and WAFL on E-Series), shows what an
empty field stands for ("default (23)", from :mod:`models.capacity.defaults`), greys out choices the item cannot
take (DDP on ONTAP), and shows what :func:`~models.problems.find_problems` reports under the field to blame
(e.g. "30 drives do not fit 24 bays" under the drive count), the value itself being kept.
"""

from __future__ import annotations

import enum
import html
import re
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
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

# models.catalog first: importing models.project before it, once PySide6 is loaded, trips shiboken's import hook
# inside pydantic's lazy imports (a circular-import error).
from models.catalog import CloudVm, Controller, Drive, HciNode, Shelf
from models.capacity import rules
from models.capacity.array import ARRAY_RAID
from models.capacity.defaults import controller_defaults, hci_slack_default
from models.capacity.rules import RAID_LABEL
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
from models.problems import find_problems
from models.units import CapacityUnit, format_capacity

from models.number_parse import Range, quantity_for

from .document import ProjectDocument
from .icons import kind_icon
from .number_entry import NumberEntry
from .labels import SUFFIXES, choice_label, field_label

Choices = list[tuple[str, Any]]
ChoicesFn = Callable[[str, Any], "Choices | None"]

NESTED_DEFAULTS = {"snapshots": {"interval_h": 24.0, "retention_h": 168.0, "change_pct_per_h": 1.0}}
"""Starting values when an optional nested record (a snapshot schedule) is switched on."""
ERROR_COLOR = "#d64545"
WARNING_COLOR = "#c27c0e"


@contextmanager
def blocked(obj: QObject):
    """Block an object's signals for a block. (PySide6 6.12's ``with QSignalBlocker(...)`` over-releases
    ``None`` on exit, which crashes the interpreter after a few thousand uses.)"""
    was = obj.blockSignals(True)
    try:
        yield obj
    finally:
        obj.blockSignals(was)








_LIMITS = ((re.compile(r"^Input should be less than or equal to (.+)$"), "At most {}"),
           (re.compile(r"^Input should be greater than or equal to (.+)$"), "At least {}"),
           (re.compile(r"^Input should be less than (.+)$"), "Must be less than {}"),
           (re.compile(r"^Input should be greater than (.+)$"), "Must be more than {}"))


def refusal_text(field: str, message: str | None) -> str | None:
    """A refused edit's message as shown under its field: ``nodes: Input should be less than or equal to 24``
    reads ``At most 24`` (the field's internal name dropped, pydantic's limit phrases shortened)."""
    if not message:
        return message
    where, sep, rest = message.partition(": ")
    path = where.split(".")
    if sep and path[0] == field and " " not in where:
        message = rest if len(path) == 1 else f"{field_label(path[-1])}: {rest}"
    for pattern, text in _LIMITS:
        match = pattern.match(message)
        if match:
            return text.format(match.group(1))
    return message


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
    """One field: an input widget and, under it, why a value was refused or what is wrong with the current one."""

    sig_value_edited = Signal(str, object)
    """The user entered a value for this field (name, value in model units)."""

    def __init__(self, name: str, input_widget: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.input = input_widget
        self.error = QLabel(self)
        self.error.setObjectName("fieldError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet(f"color: {ERROR_COLOR};")
        self.error.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(1)
        layout.addWidget(input_widget)
        layout.addWidget(self.error)
        self._refused: str | None = None
        self._problems: list[tuple[str, str]] = []

    def set_error(self, message: str | None) -> None:
        """Show (or clear, with None) why the value the user entered was refused."""
        self._refused = message or None
        self._show_messages()

    def set_problems(self, problems: list[tuple[str, str]]) -> None:
        """Show what is wrong with the field's current value: (severity, message) pairs, e.g. a drive count
        above the shelf's bays; an empty list clears them."""
        self._problems = list(problems)
        self._show_messages()

    def messages(self) -> list[str]:
        """The messages shown under the field, refused edit first."""
        return ([self._refused] if self._refused else []) + [m for _, m in self._problems]

    def _show_messages(self) -> None:
        lines = self.messages()
        only_warnings = not self._refused and all(sev == "warning" for sev, _ in self._problems)
        self.error.setStyleSheet(f"color: {WARNING_COLOR if lines and only_warnings else ERROR_COLOR};")
        self.error.setText("\n".join(lines) if len(lines) < 2 else "\n".join(f"• {line}" for line in lines))
        self.error.setVisible(bool(lines))

    def set_value(self, value: Any) -> None:  # overridden
        """Show ``value`` (model units) without emitting an edit; each editor type overrides it."""
        raise NotImplementedError

    def emit(self, value: Any) -> None:
        """Report the user's edit: emit ``sig_value_edited`` with this field's name and ``value``."""
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
        self._current: int = -1
        self.set_choices(choices)
        self.combo.activated.connect(self._activated)

    def _activated(self, index: int) -> None:
        item = self.combo.model().item(index) if index >= 0 else None
        if item is not None and not item.isEnabled():  # a greyed-out choice is never applied
            with blocked(self.combo):
                self.combo.setCurrentIndex(self._current)
            return
        self.emit(self.values[index])

    def set_choices(self, choices: Choices) -> None:
        """Replace the choices with ``choices``, (label, value) pairs in display order; emits nothing."""
        with blocked(self.combo):
            self.combo.clear()
            self.values = []
            for label, value in choices:
                self.combo.addItem(label)
                self.combo.setItemData(self.combo.count() - 1, label, Qt.ItemDataRole.ToolTipRole)
                self.values.append(value)

    def set_allowed(self, allowed: Any | None, reason: str = "") -> None:
        """Grey out the choices not in ``allowed`` (None: all allowed); they stay listed, with ``reason`` as their
        tooltip, so the user sees what exists and why it cannot be picked here."""
        model = self.combo.model()
        for index, value in enumerate(self.values):
            item = model.item(index) if hasattr(model, "item") else None
            if item is None:
                continue
            ok = allowed is None or value in allowed
            item.setEnabled(ok)
            label = self.combo.itemText(index)
            self.combo.setItemData(index, label if ok else f"{label}: {reason}", Qt.ItemDataRole.ToolTipRole)

    def is_allowed(self, value: Any) -> bool:
        """False when the choice is listed but greyed out (:meth:`set_allowed`)."""
        index = self.index_of(value)
        item = self.combo.model().item(index) if index >= 0 else None
        return item is not None and item.isEnabled()

    def index_of(self, value: Any) -> int:
        """The index of ``value`` among the choices, or -1 when it is not one of them."""
        return self.values.index(value) if value in self.values else -1

    def choose(self, value: Any) -> None:
        """Pick a value as the user would (emits the edit)."""
        index = self.index_of(value)
        self.combo.setCurrentIndex(index)
        self.combo.activated.emit(index)

    def set_value(self, value: Any) -> None:
        """Select ``value`` without emitting; a value not among the choices is added as "<value> (not in catalog)"."""
        with blocked(self.combo):
            index = self.index_of(value)
            if index < 0:  # keep an unknown value visible rather than silently showing another
                self.combo.addItem(f"{value} (not in catalog)")
                self.values.append(value)
                index = self.combo.count() - 1
            self.combo.setCurrentIndex(index)
            self._current = index


class CheckEditor(FieldEditor):
    """A check box for a bool field; toggling it emits the edit."""

    def __init__(self, name: str, parent=None) -> None:
        self.check = QCheckBox()
        super().__init__(name, self.check, parent)
        self.check.toggled.connect(self.emit)

    def set_value(self, value: Any) -> None:
        """Check the box when ``value`` is truthy, without emitting."""
        with blocked(self.check):
            self.check.setChecked(bool(value))


COUNT_SUFFIXES = ("_iops", "_mbps")
"""Float fields that are whole numbers in practice: stepped by 1."""


class NumberEditor(FieldEditor):
    """A number field (:class:`~app.gui.number_entry.NumberEntry`): takes exactly what was typed ("350K",
    "1.5 TiB", "2 ms", "1e15") or shows why not under the field, the value unchanged. Byte counts are shown in the
    project's unit (TB / TiB); an optional field shows "default", or the value used instead once it is known
    (:meth:`set_default`). ``spin`` is the entry (it keeps the spin-box API: arrows, wheel, Up / Down)."""

    def __init__(self, name: str, is_int: bool, low, high, low_open, high_open, optional: bool,
                 unit_text: str | None = None, capacity_unit: CapacityUnit = CapacityUnit.TIB, parent=None) -> None:
        quantity = quantity_for(name, is_int, capacity_unit, unit_text)
        if quantity.bare_factor != 1:
            step = 0.1
        elif is_int or name.endswith(COUNT_SUFFIXES):
            step = 1
        elif high is not None and low is not None and high - low <= 1000:
            step = 0.01
        else:
            step = 1.0
        special = "default" if name not in ("target_iops", "target_mbps") else "none"
        self.entry = NumberEntry(quantity, Range(low, high, low_open, high_open), optional, step,
                                 min_decimals=2 if name.endswith("_ratio") else 0, special_text=special)
        self.spin = self.entry
        super().__init__(name, self.entry, parent)
        self.is_int, self.optional = is_int, optional
        self._special = special
        self.entry.sig_value_entered.connect(self.emit)
        self.entry.sig_refused.connect(lambda message: self.set_error(message or None))

    def set_default(self, value: float | None, text: str | None = None) -> None:
        """Name the value an empty (None) field stands for: the field reads "default (<text>)" and steps from
        ``value`` (model units); None for both when it is not known."""
        if not self.optional:
            return
        self.entry.default_value = value
        self.entry.setSpecialValueText(f"{self._special} ({text})" if text else self._special)

    def default_text(self) -> str:
        """What the field shows when it is empty (e.g. ``default (23)``)."""
        return self.entry.specialValueText()

    def set_value(self, value: Any) -> None:
        """Show ``value`` (model units; None shows the optional field's default). Emits nothing."""
        self.entry.set_model_value(value)


class TextEditor(FieldEditor):
    """A line edit for a text field, or for a list of ids typed comma-separated; the edit is sent when editing ends."""

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
        """Show ``value`` (a list is joined with ", ") without emitting; an unfocused field shows the text's start."""
        self._value = value
        with blocked(self.line):
            self.line.setText(", ".join(value) if self.is_list else (value or ""))
            if not self.line.hasFocus():
                self.line.setCursorPosition(0)  # a long text shows its beginning, not its end


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
        """Show the nested record ``value`` in the form; None unchecks an optional group and hides its form."""
        self._value = value
        with blocked(self.group):
            self.group.setChecked(value is not None)
        self.form.setVisible(value is not None or not self.group.isCheckable())
        if value is not None:
            self.form.set_record(value)


class RecordForm(QWidget):
    """Editors for the fields of a pydantic record type.

    ``groups`` ((title, field names), ...) puts those fields on tabs in that order (a workload's Load, Mix, Data,
    Growth), the important ones first; the other fields stay above the tabs, in the model's order.
    """

    sig_field_edited = Signal(str, object)
    """The user entered a value for a field of the shown record."""

    def __init__(self, model: type[BaseModel], choices: ChoicesFn, unit_fn: Callable[[], CapacityUnit],
                 exclude: set[str] = frozenset(), parent: QWidget | None = None,
                 groups: typing.Sequence[tuple[str, typing.Sequence[str]]] = ()) -> None:
        super().__init__(parent)
        self.model = model
        self.record: BaseModel | None = None
        self._choices = choices
        self.editors: dict[str, FieldEditor] = {}
        self._layout_of: dict[str, QFormLayout] = {}
        layout = QFormLayout()
        self._style_form(layout)
        self.tabs: QTabWidget | None = None
        grouped = {name: title for title, names in groups for name in names}
        pages: dict[str, QFormLayout] = {}
        if groups:
            outer = QVBoxLayout(self)
            outer.setContentsMargins(0, 0, 0, 0)
            outer.addLayout(layout)
            self.tabs = QTabWidget()
            self.tabs.setObjectName("recordFormGroups")
            self.tabs.setDocumentMode(True)
            self.tabs.setUsesScrollButtons(False)
            outer.addWidget(self.tabs)
            for title, _ in groups:
                page = QWidget()
                pages[title] = QFormLayout(page)
                self._style_form(pages[title])
                self.tabs.addTab(page, title)
        else:
            self.setLayout(layout)
        infos = model.model_fields
        order = [n for n in infos if n not in grouped] + [n for _, names in groups for n in names if n in infos]
        for name in order:
            info = infos[name]
            if name in exclude:
                continue
            editor = self._make_editor(name, info, unit_fn)
            if editor is None:
                continue
            if info.description:
                editor.setToolTip(info.description)
            editor.sig_value_edited.connect(self.sig_field_edited)
            self.editors[name] = editor
            target = pages[grouped[name]] if name in grouped else layout
            self._layout_of[name] = target
            label = QLabel(field_label(name) + ":")
            label.setToolTip(info.description or name)
            if isinstance(editor, NestedEditor):
                target.addRow(editor)
            else:
                target.addRow(label, editor)

    @staticmethod
    def _style_form(layout: QFormLayout) -> None:
        layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        layout.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        layout.setLabelAlignment(Qt.AlignmentFlag.AlignRight)

    def layout_of(self, field: str) -> QFormLayout:
        """The form layout holding a field's row (the main one, or its group's tab)."""
        return self._layout_of[field]

    def group_titles(self) -> list[str]:
        """The titles of the field groups' tabs, in order (empty without groups)."""
        return [self.tabs.tabText(i) for i in range(self.tabs.count())] if self.tabs is not None else []

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
            suffix = next((s.strip() for suf, s in SUFFIXES if name.endswith(suf)), None)
            return NumberEditor(name, inner is int, low, high, low_open, high_open, optional, suffix,
                                unit_fn() if name.endswith("_bytes") else CapacityUnit.TIB)
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
        """Show why an edit of ``field`` was refused (None clears it), in the user's words: without the field's
        internal name in front, limits as "at most 24"."""
        if field in self.editors:
            editor = self.editors[field]
            if message and isinstance(editor, NumberEditor) and self.record is not None:
                editor.entry.keep_typed(getattr(self.record, field, None))  # not taken: the value is the model's
            editor.set_error(refusal_text(field, message))

    def set_row_visible(self, field: str, visible: bool) -> None:
        """Show or hide a field's row (label and editor), e.g. a setting that does not apply to the record."""
        editor = self.editors.get(field)
        if editor is not None:
            self._layout_of[field].setRowVisible(editor, visible)

    def row_visible(self, field: str) -> bool:
        """True when the field's row is shown (hidden rows are fields that do not apply)."""
        editor = self.editors.get(field)
        return editor is not None and not editor.isHidden()

    def label_for(self, field: str) -> QLabel | None:
        """The label widget of a field's row."""
        editor = self.editors.get(field)
        label = self._layout_of[field].labelForField(editor) if editor is not None else None
        return label if isinstance(label, QLabel) else None


# --- what the inspector shows ---------------------------------------------------------------------------------

NODE_EXCLUDE = {"id", "kind", "x", "y"}
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
        self._layout.addStretch(1)
        self.setWidget(self._body)
        self.form: RecordForm | None = None
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

    def _set_header(self, title: str, subtitle: str = "", tooltip: str = "") -> None:
        text = f"<span style='font-size:14pt'><b>{html.escape(title)}</b></span>"
        if subtitle:
            text += f"<br><span style='color:gray'>{html.escape(subtitle)}</span>"
        self.header.setText(text)
        self.header.setToolTip(tooltip)

    def _set_notice(self, problems: list[tuple[str, str]]) -> None:
        """Problems of the shown item that no single field is to blame for (or whose field is hidden)."""
        lines = [f"<span style='color:{ERROR_COLOR if sev == 'error' else WARNING_COLOR}'>"
                 f"{'Error' if sev == 'error' else 'Warning'}: {html.escape(message)}</span>" for sev, message in problems]
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
        elif what == "link":
            link = next((l for l in scenario.links if l.id == target_id), None)
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

    def _show_problems(self, prefix: str) -> None:
        """What find_problems reports for the shown node or link: under its field when that field is shown,
        else under the header. ``prefix`` is how the messages name the item (dropped: the header names it)."""
        form = self.form
        if form is None:
            return
        target_id = self._target[1]
        by_field: dict[str, list[tuple[str, str]]] = {}
        general: list[tuple[str, str]] = []
        for problem in find_problems(self.document.scenario, self.document.catalog):
            if problem.node_id != target_id:
                continue
            message = problem.message.removeprefix(prefix)
            message = message[0].upper() + message[1:] if message else message
            if problem.field in form.editors and form.row_visible(problem.field):
                by_field.setdefault(problem.field, []).append((problem.severity, message))
            else:
                general.append((problem.severity, message))
        for field, extra in self._extra_problems.items():
            by_field.setdefault(field, []).extend(extra)
        for name, editor in form.editors.items():
            editor.set_problems(by_field.get(name, []))
        self._notice_messages = [m for _, m in general]
        self._set_notice(general)

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
        if isinstance(record, HciNode):
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
            "wafl_reserve_pct": ontap,
            "snapshot_reserve_pct": ontap,
            "ddp_preservation_drives": not ontap and node.raid_type == "ddp",
        })
        offered = RAID_TYPES.get(record.family)
        family = "a generic array" if record.family == "generic" else record.family
        editors["raid_type"].set_allowed(offered, f"not offered by {family}")
        if record.family in ("ONTAP", "E-Series") and node.raid_type not in offered:  # the engine's problem
            used = "computed as RAID DP" if ontap else "computed with its parity count"
            self._extra_problems.setdefault("raid_type", []).append(
                ("error", f"{record.name} does not offer {RAID_LABEL.get(node.raid_type)}; {used}"))
        defaults = controller_defaults(self.document.scenario, self.document.catalog, node, record)
        editors["nodes"].set_default(defaults.nodes, str(defaults.nodes))
        editors["nodes"].spin.setToolTip(f"Left at default: {record.name} has {defaults.nodes} nodes")

        size = editors["raid_group_size"]
        groups = defaults.raid_groups
        raid = RAID_LABEL.get(node.raid_type if not ontap or node.raid_type in rules.ONTAP_RAID_TYPES else "raid_dp")
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

    # catalog-aware choices

    def _choices(self, name: str, record: Any) -> Choices | None:
        catalog = self.document.catalog
        scenario = self.document.scenario

        def named(entries, none_label: str | None = None) -> Choices:
            out = [(none_label, None)] if none_label else []
            return out + [(e.name, e.id) for e in entries]

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
        if record is None and name in ("catalog_id", "drive", "adapter", "disk", "licence", "software", "link_type"):
            return []  # filled per record by set_record
        if name == "catalog_id" and node is not None:
            kind = NODE_KINDS[node.kind].catalog_kind if node.kind in NODE_KINDS else node.kind
            return keep_current(named(catalog.of_kind(kind)), node.catalog_id, f"not a {KIND_NAMES.get(node.kind)}")
        if name == "drive" and isinstance(node, ShelfNode):
            shelf = catalog.find(node.catalog_id)
            interfaces = getattr(shelf, "drive_interfaces", None)
            choices = named(d for d in catalog.of_kind(Drive) if not interfaces or d.interface in interfaces)
            return keep_current(choices, node.drive, "does not fit this shelf")
        if name == "adapter" and isinstance(node, HostNode):
            return keep_current(named(catalog.of_kind("adapter"), "(no adapter)"), node.adapter, "not an adapter")
        if name == "disk" and isinstance(node, CloudVmNode):
            vm = catalog.find(node.catalog_id)
            choices = named(d for d in catalog.of_kind("cloud_disk") if getattr(vm, "provider", d.provider) == d.provider)
            return keep_current(choices, node.disk, "another cloud's disk")
        if name == "licence" and isinstance(node, CloudVmNode):
            vm = catalog.find(node.catalog_id)
            allowed = getattr(vm, "licences", None)
            choices = named(l for l in catalog.of_kind("licence") if not allowed or l.id in allowed)
            return keep_current(choices, node.licence, "not offered on this VM")
        if name == "software" and isinstance(node, ControllerNode):
            record_ = catalog.find(node.catalog_id)
            versions = record_.software_versions if isinstance(record_, Controller) else []
            default = record_.default_software if isinstance(record_, Controller) else ""
            return [(f"default ({default})" if default else "default", None)] + [(v, v) for v in versions]
        if name == "link_type" and what == "link":
            link = next((l for l in scenario.links if l.id == target_id), None)
            if link is None:
                return []
            accepted, _ = self.document.link_choices(link.source, link.target)
            return keep_current(named(accepted), link.link_type, "not valid here")
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
