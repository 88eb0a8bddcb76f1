"""Record forms: a pydantic record's fields as validated editors, generated from the model.

:class:`RecordForm` builds one editor per field from the field's type and constraints (Literal -> combo box,
int / float with ge / le -> number entry with that range and a unit from the name suffix, bool -> check box,
catalog ids -> combo of compatible catalog records, an optional nested record -> a group that can be switched on).
An edit is reported as one signal (the owner turns it into one undoable command); a refused value keeps what the
user typed and shows why next to the field. Used by the inspector (:mod:`.inspector`) and the workloads panel.
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any, Literal

import annotated_types as at
from pydantic import BaseModel
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMenu,
    QSizePolicy,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.gui.labels import SUFFIXES, choice_label, field_label, field_tooltip
from app.gui.number_entry import NumberEntry
from app.gui.plain_text import plain_tooltip
from app.gui.whole_label import WholeLabel
from models.number_parse import Range, quantity_for
from models.project.limit_words import limit_words
from models.project.model import SPEC_SFS_2008_NFSV3_MIX
from models.units import CapacityUnit

Choices = list[tuple[str, Any]]
ChoicesFn = Callable[[str, Any], "Choices | None"]

NESTED_DEFAULTS = {"snapshots": {"interval_h": 24.0, "retention_h": 168.0, "change_pct_per_h": 1.0},
                   "nas": {"protocol": "NFSv3", "op_mix": dict(SPEC_SFS_2008_NFSV3_MIX)}}
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


def refusal_text(field: str, message: str | None) -> str | None:
    """A refused edit's message as shown under its field: ``nodes: Input should be less than or equal to 24``
    reads ``At most 24`` (the field's internal name dropped, pydantic's limit phrases shortened)."""
    if not message:
        return message
    where, sep, rest = message.partition(": ")
    path = where.split(".")
    if sep and path[0] == field and " " not in where:
        message = rest if len(path) == 1 else f"{field_label(path[-1])}: {rest}"
    return limit_words(message)


def _unwrap(annotation) -> tuple[Any, bool]:
    """(inner type, optional) of ``X | None``."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return annotation, False


def _item_text(value: Any) -> str:
    """One item of a list field as the text field shows it: numbers with ``g`` formatting (a throughput tier
    list holds numbers, an id list strings)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value:g}"
    return str(value)


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


def _max_length(metadata) -> int | None:
    """A text field's most characters (its ``max_length``), None when it has no bound."""
    return next((item.max_length for item in metadata if isinstance(item, at.MaxLen)), None)


class FieldEditor(QWidget):
    """One field: an input widget and, under it, why a value was refused or what is wrong with the current one."""

    sig_value_edited = Signal(str, object)
    """The user entered a value for this field (name, value in model units)."""

    def __init__(self, name: str, input_widget: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.input = input_widget
        # its whole text at its width (WholeLabel: a minimum height that follows the wrapped text), so a refusal of
        # three lines gets three lines' height in the form's row, not the one or two lines a QFormLayout gives a
        # word-wrapped QLabel shown after the row was laid out (its top line drawn under the field, its last cut)
        self.error = WholeLabel(self)
        self.error.setObjectName("fieldError")
        self.error.hide()  # coloured when it has something to say (a style sheet costs each label a polish)
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
        sheet = f"color: {WARNING_COLOR if only_warnings else ERROR_COLOR};"
        if lines and self.error.styleSheet() != sheet:  # set again, a style sheet re-polishes: only on a change
            self.error.setStyleSheet(sheet)
        self.error.setText("\n".join(lines) if len(lines) < 2 else "\n".join(f"• {line}" for line in lines))
        self.error.setVisible(bool(lines))
        self.updateGeometry()  # the row is laid out anew for the message's height

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
                self.combo.setItemData(self.combo.count() - 1, plain_tooltip(label), Qt.ItemDataRole.ToolTipRole)
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
            self.combo.setItemData(index, plain_tooltip(label if ok else f"{label}: {reason}"),
                                   Qt.ItemDataRole.ToolTipRole)

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


class ChecklistEditor(FieldEditor):
    """A multi-select among known values (families, protocols, deployments): a button naming the checked values
    ("Any" when none is) that drops down a list of check boxes; each toggle emits the checked values in the
    choices' order. A value the record holds that is not among the choices stays listed, checked, as
    "<value> (not in catalog)", so it can be seen and unchecked."""

    def __init__(self, name: str, choices: Choices, empty_text: str = "Any", parent=None) -> None:
        self.button = QToolButton()
        self.button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)  # as wide as the fields
        self.menu = QMenu(self.button)
        self.menu.setToolTipsVisible(True)
        self.button.setMenu(self.menu)
        super().__init__(name, self.button, parent)
        self.empty_text = empty_text
        self.choices: Choices = list(choices)
        self._value: list[Any] = []
        self.actions_by_value: dict[Any, Any] = {}
        self._rebuild()

    def _rebuild(self) -> None:
        known = [v for _, v in self.choices]
        pairs = list(self.choices) + [(f"{v} (not in catalog)", v) for v in self._value if v not in known]
        if [v for _, v in pairs] == list(self.actions_by_value):  # same entries: only the checks change (an
            for value, action in self.actions_by_value.items():  # action is never deleted in its own signal)
                with blocked(action):
                    action.setChecked(value in self._value)
            self._show_text()
            return
        for action in self.actions_by_value.values():
            self.menu.removeAction(action)
            action.deleteLater()
        self.actions_by_value = {}
        for label, value in pairs:
            action = self.menu.addAction(label)
            action.setCheckable(True)
            action.setChecked(value in self._value)
            action.toggled.connect(lambda on, v=value: self._toggled(v, on))
            self.actions_by_value[value] = action
        self._show_text()

    def _label(self, value: Any) -> str:
        return next((label for label, v in self.choices if v == value), f"{value} (not in catalog)")

    def _show_text(self) -> None:
        text = ", ".join(self._label(v) for v in self._value) or self.empty_text
        self.button.setText(text)
        self.button.setToolTip(text)

    def _toggled(self, value: Any, on: bool) -> None:
        order = [v for _, v in self.choices] + [v for v in self._value if v not in [c for _, c in self.choices]]
        chosen = [v for v in order if (v == value and on) or (v != value and v in self._value)]
        self.emit(chosen)

    def set_choices(self, choices: Choices) -> None:
        """Replace the choices, (label, value) pairs in display order; emits nothing."""
        self.choices = list(choices)
        for action in self.actions_by_value.values():
            self.menu.removeAction(action)
            action.deleteLater()
        self.actions_by_value = {}
        self._rebuild()

    def toggle(self, value: Any) -> None:
        """Check or uncheck ``value`` as the user would (emits the edit)."""
        self.actions_by_value[value].trigger()

    def checked(self) -> list[Any]:
        """The values shown checked."""
        return [v for v, action in self.actions_by_value.items() if action.isChecked()]

    def set_value(self, value: Any) -> None:
        """Show the list ``value`` checked, without emitting."""
        self._value = list(value or [])
        self._rebuild()


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


SHOWN_DIGITS_MS = 3
"""Significant digits a time in milliseconds (an SLO, a think time, a round-trip time) shows while it is not being
edited: a derived think time of 0.064545 ms reads 0.0645 ms (the exact value shows when the field is clicked).
Catalog figures in microseconds show exactly, as published."""
SHOWN_DECIMALS = {"block_kib": 2, "read_pct": 1, "random_pct": 1, "cold_data_pct": 1, "cold_read_pct": 1}
"""Decimals a workload's I/O size (KiB) and shares (%) show while not being edited: an imported 15.757696 KiB
reads 15.76 KiB and 89.214437 % reads 89.2 % (the exact value shows when the field is clicked)."""


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
                                 min_decimals=2 if name.endswith("_ratio") else 0, special_text=special,
                                 shown_digits=SHOWN_DIGITS_MS if quantity.unit == "ms" and not is_int else None,
                                 shown_decimals=SHOWN_DECIMALS.get(name),
                                 shown_rate=name in ("target_iops", "target_mbps"))
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


def parse_mapping(text: str) -> dict[str, float] | str:
    """``"lookup=24, read=18"`` -> ``{"lookup": 24.0, "read": 18.0}``; the text itself when a pair is not
    ``name=number`` (the model then refuses it with its own message)."""
    out: dict[str, float] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, sep, number = part.partition("=")
        try:
            out[name.strip()] = float(number)
        except ValueError:
            return text
        if not sep or not name.strip():
            return text
    return out


class TextEditor(FieldEditor):
    """A line edit for a text field, a list of ids typed comma-separated, or a name -> number mapping typed
    ``name=number, ...``; the edit is sent when editing ends."""

    def __init__(self, name: str, is_list: bool = False, parent=None, is_mapping: bool = False,
                 max_length: int | None = None) -> None:
        self.line = QLineEdit()
        if max_length is not None:  # a bounded text (MAX_LABEL): no more can be typed or pasted than is taken
            self.line.setMaxLength(max_length)
        super().__init__(name, self.line, parent)
        self.is_list = is_list
        self.is_mapping = is_mapping
        if is_list:
            self.line.setPlaceholderText("comma-separated ids (empty = all)")
        if is_mapping:
            self.line.setPlaceholderText("name=percent, ... (e.g. read=18, write=10, getattr=26)")
        self.line.editingFinished.connect(self._commit)
        self._value: Any = None

    def _commit(self) -> None:
        text = self.line.text()
        if self.is_mapping:
            value: Any = parse_mapping(text)
        else:
            value = [t.strip() for t in text.split(",") if t.strip()] if self.is_list else text
        if value != self._value:
            self.emit(value)

    def set_value(self, value: Any) -> None:
        """Show ``value`` (a list joined with ", ", a mapping as ``name=number, ...``) without emitting; an
        unfocused field shows the text's start."""
        self._value = value
        if self.is_mapping and isinstance(value, dict):
            text = ", ".join(f"{k}={v:g}" for k, v in value.items())
        else:
            text = ", ".join(_item_text(v) for v in value) if self.is_list else (value or "")
        with blocked(self.line):
            self.line.setText(text)
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
    ``multi`` names list fields chosen among known values ({field: [(label, value), ...]}): they get a
    :class:`ChecklistEditor`, as does a list of a ``Literal`` type; other lists are typed comma-separated.
    """

    sig_field_edited = Signal(str, object)
    """The user entered a value for a field of the shown record."""

    def __init__(self, model: type[BaseModel], choices: ChoicesFn, unit_fn: Callable[[], CapacityUnit],
                 exclude: set[str] = frozenset(), parent: QWidget | None = None,
                 groups: typing.Sequence[tuple[str, typing.Sequence[str]]] = (),
                 multi: typing.Mapping[str, Choices] | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self._multi = dict(multi or {})
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
            label.setToolTip(field_tooltip(name, info.description))
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
            return TextEditor(name, max_length=_max_length(info.metadata))
        if typing.get_origin(inner) is list:
            if name in self._multi:
                return ChecklistEditor(name, self._multi[name])
            (item,) = typing.get_args(inner) or (None,)
            if typing.get_origin(item) is Literal:
                return ChecklistEditor(name, [(choice_label(v), v) for v in typing.get_args(item)], "none")
            return TextEditor(name, is_list=True)
        if typing.get_origin(inner) is dict:
            return TextEditor(name, is_mapping=True)
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
