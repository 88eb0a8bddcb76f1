"""Capacity figures inside the engine's sentences, in the unit the project shows.

The capacity engine writes its step formulas, layout lines and assumptions once, in binary units (``24 x 3.49
TiB``, ``4 parity partitions x 689.96 GiB``), as ONTAP prints them; the unit a reader sees is a display choice
(``Settings.capacity_unit``) that the engine does not know and that the window changes without solving again. So
the text is put in the chosen unit where it is shown: in a decimal (TB) project each binary figure the engine
formatted becomes its decimal equal with as many decimals (``3.49 TiB`` -> ``3.84 TB``, ``689.96 GiB`` ->
``740.83 GB``), so a table in TB never carries a TiB figure in its "How" column. The engine's text is rounded;
where the figure is one the result holds exactly (a system's usable capacity, an aggregate's size after parity, a
step's change: :func:`exact_figures`), the decimal figure is that exact value's, so it reads as the table beside it
("usable 65.66 TB", not 65.65 TB from the rounded 59.71 TiB).

Only figures written as the engine formats them (a number with a decimal point and a space before the unit) are
converted; a whole number of GiB or TiB is a name or a rule as its publisher states it (``Premium_LRS, 1,024
GiB``, an aggregate of ``30 TiB`` or more) and is left as written. A binary project keeps the engine's text (its
decimal figures, such as a drive's marketed ``3,840 GB``, are the vendor's marketed sizes, named so).
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Iterable
from typing import Any

from models.units import GIB, TIB, CapacityUnit

_BINARY = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})*|\d+)\.(\d+) (TiB|GiB)\b")
"""A binary capacity as the engine formats it: ``3.49 TiB``, ``1,234.50 GiB``, ``0.0098 TiB``."""

_DECIMAL_OF = {"TiB": ("TB", TIB, 10**12), "GiB": ("GB", GIB, 10**9)}
"""A binary unit -> (its decimal counterpart's label, bytes in the binary unit, bytes in the decimal unit)."""


def exact_figures(system: Any) -> tuple[float, ...]:
    """The byte counts a capacity result holds exactly, to put in place of the engine's rounded figures.

    Args:
        system: a ``models.capacity.CapacityResult`` (one system's waterfall).

    Returns:
        every finite ``*_bytes`` field of the result, of its efficiency detail and of each aggregate (with its
        member size), each step's capacity before and after and its change, each aggregate's parity (the members'
        total less the data), bytes.
    """
    values: list[float] = []

    def add(obj: Any) -> None:
        for f in dataclasses.fields(obj):
            if f.name.endswith("_bytes"):
                value = getattr(obj, f.name)
                if isinstance(value, (int, float)) and math.isfinite(value):
                    values.append(float(value))

    add(system)
    add(system.efficiency)
    for aggregate in system.aggregates:
        add(aggregate)
    for step in system.steps:
        values += [float(step.bytes_before), float(step.bytes_after), abs(float(step.delta_bytes))]
    return tuple(v for v in values if math.isfinite(v))


def _to_decimal(match: re.Match[str], exact: dict[tuple[str, int], dict[str, float]]) -> str:
    """One binary figure as its decimal equal, with the figure's own number of decimals (from the exact value it
    was rounded from, where ``exact`` holds one)."""
    whole, fraction, unit = match.group(1), match.group(2), match.group(3)
    label, binary, decimal = _DECIMAL_OF[unit]
    digits = len(fraction)
    number = whole.replace(",", "") + "." + fraction
    found = exact.get((unit, digits), {}).get(number)
    amount = (found if found is not None else float(number) * binary) / decimal
    return f"{amount:,.{digits}f} {label}"


def text_in_unit(text: str, unit: CapacityUnit | str, exact: Iterable[float] = ()) -> str:
    """``text`` (an engine formula, layout line or assumption) with its capacity figures in ``unit``.

    Args:
        text: any text; unit: the project's capacity unit, ``CapacityUnit.TB`` / ``"TB"`` (decimal) or
            ``CapacityUnit.TIB`` / ``"TiB"`` (binary); exact: byte counts the figures may have been rounded from
            (:func:`exact_figures`): a figure that one of them rounds to is converted from it.

    Returns:
        for a decimal unit, the text with every engine-formatted binary figure (``3.49 TiB``, ``689.96 GiB``)
        replaced by its decimal equal with the same number of decimals (``3.84 TB``, ``740.83 GB``); for a binary
        unit, the text unchanged.

    Raises:
        ValueError: ``unit`` is not a capacity unit.
    """
    if CapacityUnit(unit) is CapacityUnit.TIB or "iB" not in text:
        return text
    values = tuple(exact)
    table: dict[tuple[str, int], dict[str, float]] = {}

    def replace(match: re.Match[str]) -> str:
        key = (match.group(3), len(match.group(2)))
        if key not in table:
            size = _DECIMAL_OF[key[0]][1]
            table[key] = {}
            for value in values:
                table[key].setdefault(f"{value / size:.{key[1]}f}", value)
        return _to_decimal(match, table)

    return _BINARY.sub(replace, text)


__all__ = ["exact_figures", "text_in_unit"]
