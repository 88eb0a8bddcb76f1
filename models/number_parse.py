"""Typed numbers: parse what a user writes in a number field ("350K", "1.5 TiB", "2 ms", "1e15") exactly, or say
why not, and show a value the way it can be typed back.

Nothing here clamps, truncates or drops characters: a text is either read exactly (in the field's model unit) or
refused with a :class:`NumberEntryError` whose message names what is wrong ("150 % is out of range: allowed 0 to
100 %"). Numbers are read as exact fractions, so ``1000000000000000`` is 10^15, not a rounded float.

A :class:`Quantity` says which unit words a field takes and what a bare number means; :func:`quantity_for` derives
it from the field's name suffix, as the rest of StorPlan does (``slo_ms``, ``dataset_bytes``, ``read_pct``).
Capacities follow :mod:`models.units`: TB / GB are decimal, TiB / GiB binary, never mixed silently (a bare number
is in the project's display unit, said in the field's unit text).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from models.units import GB, GIB, KB, KIB, MB, MIB, TB, TIB, CapacityUnit

PB, PIB = 10**15, 2**50
INT64_MAX = 2**63 - 1
"""Largest whole number a project file stores (SQLite INTEGER): the upper limit of a whole-number field with none
of its own."""

MULTIPLIERS = {"k": 10**3, "K": 10**3, "M": 10**6, "G": 10**9}
"""Count suffixes: 350K = 350,000; 2.5M = 2,500,000."""


class NumberEntryError(ValueError):
    """A typed text that is not taken; ``str()`` is the message to show next to the field."""


@dataclass(frozen=True)
class Quantity:
    """What a number field holds.

    Attributes:
        unit: the unit text shown after the value (``"ms"``, ``"%"``, ``"TiB"``; ``""`` for plain counts).
        bare_factor: model units per unit of a number typed without a unit (2^40 for a TiB-shown byte count).
        units: accepted unit words (exact spelling, plus lower-case forms added by :func:`quantity_for`) ->
            model units per unit word.
        counts: True when K / M / G multipliers apply (350K IOPS).
        whole: True when the model value is a whole number.
        round_whole: True when a fractional result is rounded to the nearest whole model unit rather than
            refused (bytes: 0.1 TiB is 109,951,162,777.6 bytes; the tenth of a byte is not meaningful).
    """

    unit: str = ""
    bare_factor: Fraction = Fraction(1)
    units: Mapping[str, Fraction] = field(default_factory=dict)
    counts: bool = False
    whole: bool = False
    round_whole: bool = False


def _units(pairs: Mapping[str, float | int | Fraction]) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for word, factor in pairs.items():
        out[word] = Fraction(factor)
    return out


_TIME_MS: dict[str, int | Fraction] = {
    "ns": Fraction(1, 10**6), "us": Fraction(1, 1000), "µs": Fraction(1, 1000), "μs": Fraction(1, 1000),
    "ms": 1, "s": 1000, "sec": 1000, "min": 60_000}
_TIME_H: dict[str, int | Fraction] = {
    "min": Fraction(1, 60), "h": 1, "hr": 1, "hrs": 1, "hour": 1, "hours": 1, "d": 24, "day": 24,
    "days": 24, "w": 168, "week": 168, "weeks": 168}
_BYTES = {"B": 1, "KB": KB, "MB": MB, "GB": GB, "TB": TB, "PB": PB,
          "KiB": KIB, "MiB": MIB, "GiB": GIB, "TiB": TIB, "PiB": PIB}


def quantity_for(name: str, is_int: bool, capacity_unit: CapacityUnit | str = CapacityUnit.TIB,
                 unit_text: str | None = None) -> Quantity:
    """The quantity of a model field, from its name's unit suffix.

    Args:
        name: the field name (``slo_ms``, ``target_iops``, ``dataset_bytes``, ``read_pct``, ``block_kib``...).
        is_int: the model field is an integer.
        capacity_unit: the unit a bare number in a ``*_bytes`` field is in (the project's display unit).
        unit_text: overrides the shown unit text (e.g. ``": 1"`` for ratios).

    Returns:
        the :class:`Quantity`; plain numbers (no known suffix) take K / M / G multipliers.
    """
    if name.endswith("_bytes"):
        unit = CapacityUnit(capacity_unit)
        return Quantity(unit.value, Fraction(unit.large_bytes), _units(_BYTES), whole=True, round_whole=True)
    if name.endswith(("_pct", "_pct_per_h", "_pct_per_year")):
        shown = "%/h" if name.endswith("_per_h") else "%/yr" if name.endswith("_per_year") else "%"
        return Quantity(unit_text or shown, units=_units({"%": 1, shown: 1}), whole=is_int)
    if name.endswith("_ms"):
        return Quantity(unit_text or "ms", units=_units(_TIME_MS), whole=is_int)
    if name.endswith("_us"):
        return Quantity(unit_text or "µs", units=_units({k: Fraction(v) * 1000 for k, v in _TIME_MS.items()}),
                        whole=is_int)
    if name.endswith("_h"):
        return Quantity(unit_text or "h", units=_units(_TIME_H), whole=is_int)
    if name.endswith("_gbps"):
        return Quantity(unit_text or "Gb/s", units=_units({"Mb/s": Fraction(1, 1000), "Gb/s": 1, "Gbps": 1,
                                                           "Mbps": Fraction(1, 1000)}), whole=is_int)
    if name.endswith("_mbps"):
        return Quantity(unit_text or "MB/s", units=_units({"KB/s": Fraction(1, 1000), "MB/s": 1, "GB/s": 1000,
                                                           "MBps": 1, "GBps": 1000}), counts=True, whole=is_int)
    if name.endswith("_kib"):
        # "8K" is how block sizes are spoken: K = KiB, M = MiB here (KB / MB stay decimal)
        return Quantity(unit_text or "KiB", units=_units({"B": Fraction(1, 1024), "K": 1, "KiB": 1, "M": 1024,
                                                          "MiB": 1024, "KB": Fraction(1000, 1024),
                                                          "MB": Fraction(10**6, 1024)}), whole=is_int)
    if name.endswith("_iops"):
        return Quantity(unit_text or "IOPS", units=_units({"IOPS": 1, "iops": 1, "IO/s": 1}), counts=True,
                        whole=is_int)
    if name.endswith("_ratio"):
        return Quantity(unit_text or ": 1", units=_units({": 1": 1, ":1": 1, "x": 1, "×": 1}), whole=is_int)
    return Quantity(unit_text or "", counts=True, whole=is_int)


# --- reading ---------------------------------------------------------------------------------------------------

_SPACES = "\u00a0\u202f\u2009 "


def _number_pattern(group: str, decimal: str) -> re.Pattern:
    g, d = re.escape(group), re.escape(decimal)
    return re.compile(rf"^(?P<sign>[+-]?)(?P<int>\d[\d{g}]*)?(?:{d}(?P<frac>\d*))?(?:[eE](?P<exp>[+-]?\d+))?"
                      rf"(?P<rest>.*)$", re.S)


def _find_unit(rest: str, quantity: Quantity) -> Fraction | None:
    """Model units per the unit word ``rest`` (already stripped); None when it is not one of the quantity's."""
    if rest in quantity.units:
        return quantity.units[rest]
    lowered = {k.lower(): v for k, v in quantity.units.items()}
    # case-insensitive only where it cannot mix decimal and binary or bits and bytes ("tib" = "TiB" is safe)
    if rest.lower() in lowered and rest.lower() not in ("mb/s", "gb/s", "mbps", "gbps"):
        matches = [k for k in quantity.units if k.lower() == rest.lower()]
        if len(matches) == 1:
            return quantity.units[matches[0]]
    return None


def unit_words(quantity: Quantity) -> list[str]:
    """The unit words a field accepts, for messages (``ms, s, µs``...)."""
    words: list[str] = []
    for word in quantity.units:
        if not any(w.lower().replace("μ", "µ") == word.lower().replace("μ", "µ") for w in words):
            words.append(word)
    if quantity.counts:
        words += ["K", "M", "G"]
    return words


def parse_number(text: str, quantity: Quantity, *, group: str = ",", decimal: str = ".",
                 strip_suffix: str = "", bare_factor: Fraction | None = None) -> Fraction:
    """Read a typed number exactly, in model units.

    Args:
        text: what the user typed: ``"350K"``, ``"1.5 TiB"``, ``"2 ms"``, ``"1e15"``, ``"350,000 IOPS"``.
        quantity: the field's :class:`Quantity` (which unit words it takes, what a bare number means).
        group: the locale's digit-group separator (accepted only between groups of three digits).
        decimal: the locale's decimal point.
        strip_suffix: a text the field shows after its value (e.g. ``"of 24 bays"``), ignored when typed back.
        bare_factor: model units per unit of a number typed without a unit, when the field shows another unit
            than the quantity's own (a TiB field showing "931.323 GiB" reads a bare ``500`` as 500 GiB:
            :func:`shown_unit`); None: ``quantity.bare_factor``.

    Returns:
        the exact value in model units (a :class:`~fractions.Fraction`).

    Raises:
        NumberEntryError: the text is empty, not a number, not finite, has an unknown unit, or is not whole
            where the field is whole; the message says which, in the user's words.
    """
    raw = text.strip()
    if not raw:
        raise NumberEntryError("Enter a number")
    work = raw.replace("\u2212", "-").replace("\u00b5", "µ")
    suffix = strip_suffix.strip()
    if suffix and work.endswith(suffix) and len(work) > len(suffix):
        work = work[: -len(suffix)].rstrip()
    if work.lower().lstrip("+-").strip() in ("inf", "infinity", "nan", "∞"):
        raise NumberEntryError(f"'{raw}' is not a finite number")
    # group separators that are spaces (fr: U+202F) are only ever between digits
    if group in _SPACES or group.isspace():
        work = re.sub(rf"(?<=\d)[{re.escape(_SPACES)}](?=\d)", "", work)
        group = "\x00"
    match = _number_pattern(group, decimal).match(work)
    if match is None or not (match.group("int") or match.group("frac")):
        raise NumberEntryError(f"'{raw}' is not a number")
    whole_part = match.group("int") or ""
    if group in whole_part:
        if not re.fullmatch(rf"\d{{1,3}}(?:{re.escape(group)}\d{{3}})+", whole_part):
            raise NumberEntryError(f"'{raw}' is not a number: digits are grouped by three"
                                   + (f"; the decimal point is '{decimal}'" if group != decimal else ""))
        whole_part = whole_part.replace(group, "")
    literal = f"{match.group('sign')}{whole_part or '0'}.{match.group('frac') or '0'}"
    if match.group("exp"):
        exponent = int(match.group("exp"))
        if abs(exponent) > 400:
            raise NumberEntryError(f"'{raw}' is not a finite number")
        literal += f"e{exponent}"
    value = Fraction(literal)
    rest = match.group("rest").strip()
    factor = quantity.bare_factor if bare_factor is None else bare_factor
    if rest:
        unit = _find_unit(rest, quantity)
        if unit is None and quantity.counts and rest[0] in MULTIPLIERS:
            after = rest[1:].strip()
            multiplier = MULTIPLIERS[rest[0]]
            unit = factor * multiplier if not after else (
                None if (found := _find_unit(after, quantity)) is None else found * multiplier)
        if unit is None:
            words = unit_words(quantity)
            hint = f" (use {', '.join(words)})" if words else " (write a plain number)"
            raise NumberEntryError(f"'{raw}': unknown unit '{rest}'{hint}")
        factor = unit
    value *= factor
    if quantity.whole and value.denominator != 1:
        if quantity.round_whole:
            value = Fraction(round(value))
        else:
            raise NumberEntryError(f"{raw} is not a whole number")
    return value


# --- ranges ----------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Range:
    """A field's allowed values in model units (None: no limit on that side; ``*_open``: the bound excluded)."""

    low: float | None = None
    high: float | None = None
    low_open: bool = False
    high_open: bool = False

    def contains(self, value: Fraction | float) -> bool:
        """True when ``value`` is allowed."""
        value = Fraction(value)
        if self.low is not None:
            low = Fraction(self.low)
            if value < low or (self.low_open and value == low):
                return False
        if self.high is not None:
            high = Fraction(self.high)
            if value > high or (self.high_open and value == high):
                return False
        return True

    def describe(self, fmt: Callable[[float], str]) -> str:
        """The allowed values in words, bounds written by ``fmt`` (model value -> text with unit):
        ``0 to 100 %``, ``above 0 ms``, ``at least 1``, ``above 0 and at most 10,000 ms``."""
        low = None if self.low is None else fmt(self.low)
        high = None if self.high is None else fmt(self.high)
        if low is not None and high is not None:
            unit = " " + low.split(" ", 1)[1] if " " in low else ""
            if unit and high.endswith(unit):
                low = low[: -len(unit)]
            if not self.low_open and not self.high_open:
                return f"{low} to {high}"
            lo_words = f"above {low}" if self.low_open else f"at least {low}"
            hi_words = f"below {high}" if self.high_open else f"at most {high}"
            return f"{lo_words} and {hi_words}"
        if low is not None:
            return f"above {low}" if self.low_open else f"at least {low}"
        if high is not None:
            return f"below {high}" if self.high_open else f"at most {high}"
        return "any number"


# --- showing ---------------------------------------------------------------------------------------------------

def _grouped(digits: str, group: str) -> str:
    if not group or len(digits) <= 3:
        return digits
    head = len(digits) % 3 or 3
    return digits[:head] + "".join(group + digits[i:i + 3] for i in range(head, len(digits), 3))


def format_plain(value: float | int | Fraction, *, group: str = ",", decimal: str = ".", max_decimals: int = 15,
                 min_decimals: int = 0) -> str:
    """A number as it can be typed back: whole numbers with digit groups (``350,000``), fractions in the shortest
    form that reads back to the same float (``1.067``, ``0.125``), huge or tiny ones in scientific notation.

    Args:
        value: the number (finite).
        group: digit-group separator ("" for none); decimal: the decimal point.
        max_decimals: decimals shown at most (the value is rounded to them for display only).
        min_decimals: decimals always shown (``1.50`` for a ratio).
    """
    number = float(value)
    if not math.isfinite(number):
        return "n/a"
    if isinstance(value, (int, Fraction)) and Fraction(value).denominator == 1 and abs(Fraction(value)) < 10**21:
        text = str(int(value))
    elif number.is_integer() and abs(number) < 1e21:
        text = str(int(number))
    else:
        text = repr(number)
        if "e" in text:
            if abs(number) >= 1e21 or abs(number) < 1e-6:
                return text.replace(".", decimal)
            text = f"{number:.{max_decimals}f}".rstrip("0")
        whole, _, frac = text.partition(".")
        if len(frac) > max_decimals:
            text = f"{number:.{max_decimals}f}".rstrip("0").rstrip(".")
    sign = "-" if text.startswith("-") else ""
    whole, _, frac = text.lstrip("-").partition(".")
    frac = frac.ljust(min_decimals, "0")
    return sign + _grouped(whole, group) + (decimal + frac if frac else "")


def shown_unit(value: float | int | Fraction, quantity: Quantity) -> tuple[str, Fraction]:
    """The unit a model value is shown in by :func:`format_with_unit`, and model units per that unit.

    Args:
        value: the model value (bytes for a capacity).
        quantity: the field's :class:`Quantity`.

    Returns:
        ``(unit text, model units per unit)``: a non-zero capacity under one large unit is shown in the small one
        (``("GiB", 2**30)`` for 931.323 GiB in a TiB field, ``("GB", 10**9)`` in a TB field); otherwise the
        quantity's own unit and ``bare_factor``. A bare number typed into the field means this unit.
    """
    if quantity.bare_factor != 1 and quantity.unit in ("TB", "TiB"):
        unit = CapacityUnit(quantity.unit)
        small_label, small = unit.small
        amount = Fraction(value)
        if amount != 0 and abs(amount) < unit.large_bytes:
            return small_label, Fraction(small)
        return unit.value, Fraction(unit.large_bytes)
    return quantity.unit, quantity.bare_factor


def format_with_unit(value: float | int | Fraction, quantity: Quantity, *, group: str = ",", decimal: str = ".",
                     min_decimals: int = 0) -> str:
    """A model value in the field's shown unit, with it: ``350,000 IOPS``, ``1.5 TiB``, ``0.125 ms``.

    Capacities under one large unit are shown in the small unit (465.661 GiB), to three decimals at most.
    """
    if quantity.bare_factor != 1 and quantity.unit in ("TB", "TiB"):
        label, per_unit = shown_unit(value, quantity)
        return f"{format_plain(round(float(Fraction(value) / per_unit), 3), group=group, decimal=decimal)} {label}"
    shown = Fraction(value) / quantity.bare_factor if quantity.bare_factor != 1 else value
    text = format_plain(shown, group=group, decimal=decimal, min_decimals=min_decimals)
    if not quantity.unit:
        return text
    return f"{text} {quantity.unit}"
