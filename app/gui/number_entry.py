"""One number editor for every numeric field: it takes exactly what was typed, or refuses it visibly.

:class:`NumberEntry` is a spin box (arrows, wheel, Up / Down keys step it) whose text is read by
:func:`models.number_parse.parse_number` when editing finishes (Enter or focus out), never filtered while typing:
``1e15``, ``350K``, ``1.5 TiB``, ``500 us`` are read exactly; ``150`` in a percentage, ``-3`` in a latency or
``2.5`` in a drive count are refused with a message naming the allowed range and unit, the typed text stays for
correction (Escape restores the value) and the field's value does not change. QSpinBox / QDoubleSpinBox are not
used: their validators drop characters they do not expect (``1e15`` became ``115``) and clamp to their range.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from PySide6.QtCore import QLocale, QSize, Qt, Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import QAbstractSpinBox, QStyle, QStyleOptionSpinBox, QWidget

from models.number_parse import (
    INT64_MAX,
    NumberEntryError,
    Quantity,
    Range,
    format_plain,
    format_with_unit,
    parse_number,
    shown_unit,
)


class NumberEntry(QAbstractSpinBox):
    """A number field in model units, shown in the quantity's unit.

    Args:
        quantity: what the field holds (:func:`models.number_parse.quantity_for`).
        allowed: the allowed model values (the model field's ge / gt / le / lt).
        optional: None is a value (shown as the special text, e.g. ``default (23)``); an empty text enters it.
        step: one arrow step, in shown units (1 IOPS, 0.1 TiB, 0.01 for a ratio).
        min_decimals: decimals always shown (``1.50 : 1``).
        shown_digits: significant digits shown while the field is not being edited (None: all); the exact value
            shows once the field has the focus, so what is typed back is exact (a derived think time of
            0.064545 ms reads ``0.0645 ms``, and ``0.064545 ms`` when clicked).
        shown_decimals: instead, decimals shown while the field is not being edited (an imported block size of
            15.757696 KiB reads ``15.76 KiB``, a read share of 89.214437 % reads ``89.2 %``); exact when clicked.
        shown_rate: instead, a rate (IOPS, MB/s) shown as the import's summaries print it while the field is not
            being edited: whole from 10 up (an imported 4,742.425531914893 IOPS reads ``4742 IOPS``), two significant
            digits below (``0.42 IOPS``, never ``0``); exact when clicked.
        zero_text: what a value of 0 shows when 0 means something other than the number (``"no limit"`` for a
            limit whose 0 is none); typing it back, or 0, enters 0. "" (the default): 0 shows as a number.

    The spin-box API (``value``, ``setValue``, ``minimum``, ``maximum``, ``stepBy``) is in shown units; for an
    optional field the step below the lowest value is "default" (None), as a QSpinBox's special value is.
    """

    sig_value_entered = Signal(object)
    """The user entered an allowed value: model units (int for whole fields, else float), or None (default)."""
    sig_refused = Signal(str)
    """What the user typed was not taken: the message to show by the field ("" once a value is taken)."""

    def __init__(self, quantity: Quantity, allowed: Range, optional: bool = False, step: float = 1.0,
                 min_decimals: int = 0, special_text: str = "default", parent: QWidget | None = None,
                 shown_digits: int | None = None, shown_decimals: int | None = None, zero_text: str = "",
                 shown_rate: bool = False) -> None:
        super().__init__(parent)
        self.quantity = quantity
        self.allowed = allowed if allowed.high is not None or not quantity.whole else Range(
            allowed.low, INT64_MAX, allowed.low_open, False)
        self.optional = optional
        self.step = Fraction(str(step))
        self.min_decimals = min_decimals
        self.shown_digits = shown_digits
        self.shown_decimals = shown_decimals
        self.shown_rate = shown_rate
        self.default_value: float | None = None
        """Model value a None field stands for (steps start there); None when unknown."""
        self._special = special_text
        self.zero_text = zero_text
        self._suffix: str | None = None
        self._value: Any = None
        self._shown_text = ""
        self.refused_message = ""
        self.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.setAccelerated(True)
        self.setKeyboardTracking(False)
        self.setCorrectionMode(QAbstractSpinBox.CorrectionMode.CorrectToPreviousValue)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # the wheel does not take the focus (see wheelEvent)
        self.editingFinished.connect(self._commit)
        self._show()

    # --- what is shown -----------------------------------------------------------------------------------

    def _locale_marks(self) -> tuple[str, str]:
        locale = self.locale()
        group = "" if locale.numberOptions() & QLocale.NumberOption.OmitGroupSeparator else locale.groupSeparator()
        return group, locale.decimalPoint()

    def format(self, value: Any) -> str:
        """A model value as this field shows it (with its unit, or the suffix set by :meth:`setSuffix`)."""
        group, decimal = self._locale_marks()
        if self._suffix is not None:
            shown = Fraction(value) / self.quantity.bare_factor
            return format_plain(shown, group=group, decimal=decimal, min_decimals=self.min_decimals) + self._suffix
        return format_with_unit(value, self.quantity, group=group, decimal=decimal, min_decimals=self.min_decimals)

    def format_in_unit(self, value: Any) -> str:
        """A model value with the quantity's own unit (never the custom suffix): for ranges in messages."""
        group, decimal = self._locale_marks()
        return format_with_unit(value, self.quantity, group=group, decimal=decimal)

    def _rounded(self, value: Any) -> Any:
        """``value`` to :attr:`shown_digits` significant digits for showing while the field is not edited; the
        value itself when it has the focus, is whole or has no more digits than that."""
        if self.quantity.whole or self.hasFocus() or not value:
            return value
        if self.shown_decimals is not None:
            return round(float(value), self.shown_decimals)
        if self.shown_rate:
            return float(round(float(value))) if value >= 9.95 else float(f"{float(value):.2g}")
        if self.shown_digits is None:
            return value
        return float(f"{float(value):.{self.shown_digits}g}")

    def _text_of(self, value: Any, rounded: bool = True) -> str:
        """What the field shows for a model value: the special text for None when optional, :attr:`zero_text` for
        0 when set, else the number with its unit (to :attr:`shown_digits` when ``rounded``)."""
        if value is None:
            return self._special if self.optional else ""
        if value == 0 and self.zero_text:
            return self.zero_text
        return self.format(self._rounded(value) if rounded else value)

    def _show(self) -> None:
        text = self._text_of(self._value)
        self._shown_text = text
        edit = self.lineEdit()
        if edit.text() != text:
            edit.setText(text)
        if not edit.hasFocus():
            edit.setCursorPosition(0)
        self.update()

    def set_model_value(self, value: Any) -> None:
        """Show a model value (None: the default); emits nothing and clears a refusal."""
        self._value = value
        self.refused_message = ""
        self._show()

    def keep_typed(self, value: Any) -> None:
        """The model refused what was entered: the field's value is ``value`` again, the typed text stays for
        correction (Escape shows the value)."""
        self._value = value
        self._shown_text = self._text_of(value, rounded=False)

    def model_value(self) -> Any:
        """The field's value in model units (None: default)."""
        return self._value

    def specialValueText(self) -> str:  # noqa: N802 - the QSpinBox name
        """What a None value shows ("default (23)", "none")."""
        return self._special

    def setSpecialValueText(self, text: str) -> None:  # noqa: N802
        """Set what a None value shows (shown at once when the field is at its default)."""
        self._special = text
        self._show()

    def suffix(self) -> str:
        """What follows the number: the suffix set by :meth:`setSuffix`, else a space and the unit ("" for none)."""
        return self._suffix if self._suffix is not None else (" " + self.quantity.unit if self.quantity.unit else "")

    def setSuffix(self, suffix: str) -> None:  # noqa: N802
        """Show ``suffix`` after the number instead of the unit (" of 24 bays"); typed back, it is ignored."""
        self._suffix = suffix
        self._show()

    def shown_unit(self) -> tuple[str, Fraction]:
        """The unit the field shows now and model units per that unit: a bare typed number means this unit
        ("500" in a TiB field showing "931.323 GiB" is 500 GiB). A field at its default follows the value the
        default stands for; a field with a custom suffix uses the quantity's own unit."""
        shown = self._value if self._value is not None else self.default_value
        if self._suffix is not None or shown is None:
            return self.quantity.unit, self.quantity.bare_factor
        return shown_unit(shown, self.quantity)

    # --- spin-box API in shown units ----------------------------------------------------------------------

    def _shown(self, model: Any) -> float:
        return float(Fraction(model) / self.quantity.bare_factor)

    def _lowest_shown(self) -> float:
        low = self.allowed.low
        if low is None:
            return -1e300
        shown = Fraction(low) / self.quantity.bare_factor
        if self.allowed.low_open:
            shown += self.step if self.quantity.whole and self.quantity.bare_factor == 1 else Fraction(1, 10**6)
        return float(shown)

    def minimum(self) -> float:
        """The lowest value in shown units; for an optional field one step below it (the default)."""
        return self._lowest_shown() - (float(self.step) if self.optional else 0.0)

    def maximum(self) -> float:
        """The highest allowed value in shown units (just under an excluded bound; 1e300 when unbounded)."""
        high = self.allowed.high
        if high is None:
            return 1e300
        shown = Fraction(high) / self.quantity.bare_factor
        if self.allowed.high_open:
            shown -= self.step if self.quantity.whole and self.quantity.bare_factor == 1 else Fraction(1, 10**6)
        return float(shown)

    def value(self) -> float:
        """The value in shown units (:meth:`minimum` when an optional field is at its default)."""
        return self.minimum() if self._value is None else self._shown(self._value)

    def singleStep(self) -> float:  # noqa: N802
        """One arrow step, in shown units."""
        return float(self.step)

    def setValue(self, shown: float) -> None:  # noqa: N802
        """Enter a value in shown units as the user would (emits, or refuses); an optional field's
        :meth:`minimum` enters the default."""
        if self.optional and shown < self._lowest_shown() and shown <= self.minimum():
            self._enter(None)
            return
        self._enter(Fraction(str(shown)) * self.quantity.bare_factor)

    def stepBy(self, steps: int) -> None:  # noqa: N802 - Qt override
        """Qt override: enter the value ``steps`` steps away (decimal-exact); from the default, start at the value
        it stands for (or the lowest value); below the lowest value an optional field goes back to its default."""
        if self._value is None:
            base = self.default_value if self.default_value is not None else self.allowed.low
            base_shown = Fraction(str(self._shown(base))) if base is not None else Fraction(0)
            if self.default_value is None and steps > 0:
                steps -= 1  # from "default" the first step up is the lowest value
                base_shown = Fraction(str(self._lowest_shown()))
        else:
            base_shown = Fraction(str(self._shown(self._value)))
        target = base_shown + steps * self.step
        if self.optional and target < Fraction(str(self._lowest_shown())):
            self._enter(None)
            return
        target = min(max(target, Fraction(str(self._lowest_shown()))), Fraction(str(self.maximum())))
        self._enter(target * self.quantity.bare_factor)

    def stepEnabled(self):  # noqa: N802 - Qt override
        """Qt override: up below the maximum, down above the lowest value (or to an optional field's default)."""
        flags = QAbstractSpinBox.StepEnabledFlag.StepNone
        if self.isReadOnly():
            return flags
        shown = None if self._value is None else self._shown(self._value)
        if shown is None or shown < self.maximum():
            flags |= QAbstractSpinBox.StepEnabledFlag.StepUpEnabled
        if (shown is not None and (shown > self._lowest_shown() or self.optional)) or (
                shown is None and self.default_value is not None):
            flags |= QAbstractSpinBox.StepEnabledFlag.StepDownEnabled
        return flags

    # --- typing -----------------------------------------------------------------------------------------

    def validate(self, text: str, pos: int):
        """Qt override: every text is acceptable while typing (nothing typed is dropped); it is read when editing
        finishes."""
        return QValidator.State.Acceptable, text, pos

    def fixup(self, text: str) -> str:
        """Qt override: nothing is corrected silently; the text stays as typed."""
        return text

    def keyPressEvent(self, event) -> None:  # noqa: N802
        """Qt override: Escape after typing shows the field's value again and clears the message."""
        if event.key() == Qt.Key.Key_Escape and self.lineEdit().text() != self._shown_text:
            self.set_model_value(self._value)  # back to the field's value
            self.sig_refused.emit("")
            event.accept()
            return
        super().keyPressEvent(event)

    def focusInEvent(self, event) -> None:  # noqa: N802
        """Qt override: a value shown rounded (:attr:`shown_digits`) shows exactly for editing."""
        super().focusInEvent(event)
        if self._value is not None and self.lineEdit().text() == self._shown_text and not self.refused_message:
            self._show()

    def focusOutEvent(self, event) -> None:  # noqa: N802
        """Qt override: editing ends (the typed text is read), then a value is shown rounded again (a refused
        text stays for correction)."""
        super().focusOutEvent(event)
        if not self.refused_message and self.lineEdit().text() == self._shown_text:
            self._show()

    def wheelEvent(self, event) -> None:  # noqa: N802
        """Qt override: the wheel steps a field only once it has the focus; over an unfocused field it scrolls
        the form instead of changing a value the user did not mean to touch."""
        if not self.hasFocus():
            event.ignore()
            return
        super().wheelEvent(event)

    def _commit(self) -> None:
        text = self.lineEdit().text()
        if text == self._shown_text and not self.refused_message:
            return
        if text == self._shown_text:  # typed back to the shown value after a refusal
            self.set_model_value(self._value)
            self.sig_refused.emit("")
            return
        stripped = text.strip()
        if self.optional and stripped.lower() in ("", self._special.lower(), self._special.split(" (")[0].lower()):
            self._enter(None)
            return
        if self.zero_text and stripped.lower() == self.zero_text.lower():
            self._enter(Fraction(0))
            return
        decimal = self.locale().decimalPoint()
        unit_label, bare_factor = self.shown_unit()
        try:  # digit groups are read even where the locale does not write them (C: "350,000")
            value = parse_number(text, self.quantity, group=self.locale().groupSeparator(), decimal=decimal,
                                 strip_suffix=self._suffix or "", bare_factor=bare_factor)
        except NumberEntryError as exc:
            self._refuse(str(exc))
            return
        self._enter(value, typed=stripped, typed_unit=unit_label)

    def _enter(self, value: Fraction | None, typed: str | None = None, typed_unit: str | None = None) -> None:
        if value is None:
            self._take(None)
            return
        unit_label = self.quantity.unit if typed_unit is None else typed_unit
        unit = f" {unit_label}" if unit_label else ""
        shown = self.format_in_unit(value) if typed is None else typed if _has_unit(typed) else typed + unit
        if not self.allowed.contains(value):
            self._refuse(f"{shown} is out of range: allowed {self.allowed.describe(self.format_in_unit)}")
            return
        if self.quantity.whole and value.denominator != 1:
            if not self.quantity.round_whole:
                self._refuse(f"{shown} is not a whole number")
                return
            value = Fraction(round(value))  # a fraction of a byte
        if self.quantity.whole:
            model: Any = int(value)
        else:
            try:
                model = float(value)
            except OverflowError:
                self._refuse(f"{shown} is too large")
                return
        self._take(model)

    def _take(self, model: Any) -> None:
        self._value = model
        self.refused_message = ""
        self._show()
        self.sig_refused.emit("")
        self.sig_value_entered.emit(model)

    def _refuse(self, reason: str) -> None:
        kept = self._special if self._value is None else self._text_of(self._value, rounded=False)
        self.refused_message = f"{reason}; the value stays {kept}"
        self.sig_refused.emit(self.refused_message)

    # --- size ---------------------------------------------------------------------------------------------

    def size_for(self, text: str, floor: str = "999,999 IOPS") -> QSize:
        """The field's size that shows ``text`` whole (and at least ``floor``), its arrows and frame included."""
        metrics = self.fontMetrics()
        width = max(metrics.horizontalAdvance(text or "0"), metrics.horizontalAdvance(floor))
        option = QStyleOptionSpinBox()
        self.initStyleOption(option)
        base = self.lineEdit().sizeHint()
        hint = QSize(width + 8, base.height())
        return self.style().sizeFromContents(QStyle.ContentsType.CT_SpinBox, option, hint, self)

    def sizeHint(self) -> QSize:  # noqa: N802
        """Qt override: wide enough for the shown text or "999,999 IOPS" (the base class measures no text)."""
        return self.size_for(self._shown_text)

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        """Qt override: about seven digits wide, so a narrow dock can still shrink the field."""
        hint = self.sizeHint()
        return QSize(min(hint.width(), self.fontMetrics().horizontalAdvance("0000000") + 30), hint.height())


def _has_unit(typed: str) -> bool:
    """True when a typed number carries a unit word ("150 %", "2 ms"), so a message repeats it as typed."""
    return any(c.isalpha() or c in "%:/" for c in typed.lstrip("+-").lstrip("0123456789.,eE "))
