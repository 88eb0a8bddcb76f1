"""The hardware editor's form: a catalog record's fields as editors generated from its schema (``models.catalog``
record classes, through :class:`~app.gui.record_form.RecordForm`: ranges and units from the field's constraints
and name), and beside them every number's provenance, one line each: its source (the document, the derivation or
the assumption's reason) and its kind (sourced, derived, assumed; calibrated for a fitted profile's numbers).

The form and the editor's TOML text are two views of one record: the form reads the text (:meth:`show_text`) and
every edit rewrites it (``sig_text_changed``), so what is saved is always the text the catalog schema checks.
Fields the form cannot show (performance profiles, RAID group rules, lists of records) stay in the text.
"""

from __future__ import annotations

import tomllib
import typing
from typing import Any

import tomli_w
from pydantic import BaseModel, ValidationError
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHeaderView,
    QLabel,
    QScrollArea,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.gui.record_form import RecordForm, _unwrap
from models.catalog.legacy import legacy_provenance
from models.catalog.schema import ENTRY_TYPES, PROVENANCE_KINDS
from models.units import CapacityUnit

SKIP = {"provenance", "performance"}
"""Fields left to the TOML text (a list of records, or the provenance, which has its own table here)."""


def _is_number_field(annotation) -> bool:
    """True for an int or float field (optional or not): the fields that need a source."""
    inner, _ = _unwrap(annotation)
    return inner in (int, float)


def _form_fields(model) -> tuple[set[str], list[str]]:
    """(fields the form leaves out, fields that need a source in schema order: the numbers and the record's
    ``SOURCED_TEXT_FIELDS``, e.g. a lifecycle) of a catalog record class."""
    skip = set(SKIP)
    numbers = []
    for name, info in model.model_fields.items():
        inner, _ = _unwrap(info.annotation)
        origin = typing.get_origin(inner)
        if origin is dict or (origin is list and typing.get_args(inner) and
                              isinstance(typing.get_args(inner)[0], type) and
                              not issubclass(typing.get_args(inner)[0], (str, int, float))):
            skip.add(name)
        if name not in skip and (_is_number_field(info.annotation)
                                 or name in getattr(model, "SOURCED_TEXT_FIELDS", ())):
            numbers.append(name)
    return skip, numbers



def loose_record(model: type[BaseModel], data: dict[str, Any]) -> BaseModel:
    """``data`` as a ``model`` for the form to show, whether or not it validates yet (the user is editing it): the
    validated record when it does; otherwise built without validation, its nested records (a profile derivation,
    a snapshot schedule, performance profiles) built the same way, so every editor gets the shape it shows."""
    try:
        return model.model_validate(data)
    except ValidationError:
        pass
    fields: dict[str, Any] = {}
    for name, value in data.items():
        info = model.model_fields.get(name)
        if info is None:
            continue
        inner, _optional = _unwrap(info.annotation)
        if isinstance(inner, type) and issubclass(inner, BaseModel) and isinstance(value, dict):
            value = loose_record(inner, value)
        elif typing.get_origin(inner) is list and isinstance(value, list):
            (item,) = typing.get_args(inner) or (None,)
            if isinstance(item, type) and issubclass(item, BaseModel):
                value = [loose_record(item, v) if isinstance(v, dict) else v for v in value]
        fields[name] = value
    return model.model_construct(**fields)

class HardwareForm(QWidget):
    """Schema-generated editors and a sources table for one record (see module).

    ``sig_text_changed(text)``: an edit in the form rewrote the record's TOML text.
    """

    sig_text_changed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kind: str | None = None
        self.data: dict = {}
        self.form: RecordForm | None = None
        self.numbers: list[str] = []
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.sources = QTableWidget(0, 3)
        self.sources.setHorizontalHeaderLabels(["Field", "Source (a document, a derivation, or why it is assumed)",
                                                "Kind"])
        self.sources.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.sources.verticalHeader().hide()
        self.sources.itemChanged.connect(self._source_edited)
        sources = QWidget()
        below = QVBoxLayout(sources)
        below.setContentsMargins(0, 0, 0, 0)
        below.addWidget(QLabel("Sources of the numbers (and of the lifecycle):"))
        below.addWidget(self.sources, 1)
        self.splitter = QSplitter(Qt.Orientation.Vertical)  # on a small screen, drag to give either more room
        self.splitter.addWidget(self.scroll)
        self.splitter.addWidget(sources)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([3000, 2000])  # 3:2 from the start (the size hints left the sources one row)
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addWidget(self.splitter, 1)

    def show_text(self, text: str) -> bool:
        """Show the record the TOML text holds; False (with the reason shown) when the text is not one record of
        a known kind (fix it in the TOML tab)."""
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            self.message.setText(f"<span style='color:#c0392b'>The TOML is not valid ({exc}): fix it in the TOML "
                                 "tab to edit here.</span>")
            return False
        kinds = [k for k, v in data.items() if isinstance(v, list) and len(v) == 1 and k in ENTRY_TYPES]
        if len(kinds) != 1 or len(data) != 1:
            self.message.setText("<span style='color:#c0392b'>The text must hold exactly one record (one "
                                 "[[kind]] table): fix it in the TOML tab to edit here.</span>")
            return False
        kind = kinds[0]
        model = ENTRY_TYPES[kind]
        if kind != self.kind:
            self._build(kind, model)
        self.data = dict(data[kind][0])
        if "sources" in self.data and "provenance" not in self.data:  # an older record: its texts, kinds given
            try:
                older = legacy_provenance(self.data.pop("sources") or {})
            except ValueError as exc:
                self.message.setText(f"<span style='color:#c0392b'>{exc}: fix it in the TOML tab.</span>")
                return False
            self.data["provenance"] = older
        record = loose_record(model, self.data)
        self.form.set_record(record)
        provenance = self.data.get("provenance", {}) or {}
        self.sources.blockSignals(True)
        try:
            for row, name in enumerate(self.numbers):
                entry = provenance.get(name, {})
                entry = entry if isinstance(entry, dict) else {}
                self.sources.item(row, 1).setText(str(entry.get("source", "")))
                combo = self.kind_box(row)
                combo.blockSignals(True)
                combo.setCurrentText(str(entry.get("kind", "sourced")))
                combo.blockSignals(False)
        finally:
            self.sources.blockSignals(False)
        self.message.setText(f"A <b>{kind.replace('_', ' ')}</b> record: each field checked as you type against "
                             "the catalog's schema; performance profiles and rules are in the TOML tab.")
        return True

    def _build(self, kind: str, model) -> None:
        """The editors for a record class (rebuilt when the kind changes)."""
        skip, self.numbers = _form_fields(model)
        self.kind = kind
        self.form = RecordForm(model, choices=lambda *_: None, unit_fn=lambda: CapacityUnit.TIB, exclude=skip)
        self.form.sig_field_edited.connect(self._field_edited)
        self.scroll.setWidget(self.form)
        self.sources.blockSignals(True)
        try:
            self.sources.setRowCount(len(self.numbers))
            for row, name in enumerate(self.numbers):
                label = QTableWidgetItem(name)
                label.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
                self.sources.setItem(row, 0, label)
                self.sources.setItem(row, 1, QTableWidgetItem(""))
                combo = QComboBox()
                combo.addItems(PROVENANCE_KINDS)
                combo.currentTextChanged.connect(lambda kind, r=row: self._kind_edited(r, kind))
                self.sources.setCellWidget(row, 2, combo)
        finally:
            self.sources.blockSignals(False)
        self.sources.resizeColumnToContents(0)

    def _field_edited(self, name: str, value) -> None:
        """A field edited in the form: into the record, then the text."""
        if value is None:
            self.data.pop(name, None)
        else:
            self.data[name] = value.value if hasattr(value, "value") and not isinstance(value, (int, float)) \
                else value
        self.form.show_error(name, None)
        self._emit()

    def kind_box(self, row: int) -> QComboBox:
        """The kind chooser of one row of the provenance table (sourced, calibrated, derived, assumed)."""
        combo = self.sources.cellWidget(row, 2)
        assert isinstance(combo, QComboBox)
        return combo

    def _source_edited(self, item: QTableWidgetItem) -> None:
        """A source typed in the table: into the record's ``provenance`` (with the row's kind), then the text."""
        if item.column() != 1:
            return
        name = self.numbers[item.row()]
        provenance = dict(self.data.get("provenance", {}) or {})
        text = item.text().strip()
        if text:
            entry = dict(provenance.get(name, {}) or {})
            entry.update(kind=self.kind_box(item.row()).currentText(), source=text)
            provenance[name] = entry
        else:
            provenance.pop(name, None)
        self.data["provenance"] = provenance
        self._emit()

    def _kind_edited(self, row: int, kind: str) -> None:
        """A kind chosen in the table: into the field's provenance (once it has a source), then the text. A kind
        that names no fit (sourced, assumed) drops the fit."""
        name = self.numbers[row]
        provenance = dict(self.data.get("provenance", {}) or {})
        if name not in provenance:
            return
        entry = dict(provenance[name])
        entry["kind"] = kind
        if kind in ("sourced", "assumed"):
            entry.pop("fit", None)
        provenance[name] = entry
        self.data["provenance"] = provenance
        self._emit()

    def _emit(self) -> None:
        """The record as TOML text, to the editor."""
        self.sig_text_changed.emit(tomli_w.dumps({self.kind: [self.data]}))
