"""Capacity formulas whose printed product is the printed result, or says that it is not.

The capacity engine writes a step's formula with its operands rounded to two decimals ("24 x 3.49 TiB") while the
step's result is rounded from the exact product (83.81 TiB): a reader who multiplies the printed operands finds
83.76 TiB. A capacity operand keeps the precision the report prints that figure with everywhere else (one drive
is "3.49 TiB" in the bill of materials, the aggregate notes and every formula, never "3.4921 TiB" in one step and
"3.492 TiB" in the next): :func:`precise_formula` marks such an operand approximate ("24 x ~3.49 TiB") where the
product of the printed operands does not read as the result at the result's precision. A formula with one operand
and a rounded divisor ("/ 1.33") prints the divisor with as many more decimals as the quotient needs, from the
exact byte count the operand was rounded from (``models.present.capacity_text.exact_figures``).

A formula is read as segments separated by "; ", each a product of factors ending in one capacity operand:
counts ("24 x", "2 parity drives x", "4 hosts x 2 disk groups x 4 x"), percentages ("10% x", "5% x raw"),
fractions ("2/10 of") and a divisor after it ("/ 2", "/ 1.131"). Its result is the "(total ...)" the formula
prints, else the "= ..." after a division, else the step's result in the table beside it: its capacity after the
step (a raw or right-sized total, a division) or the capacity the step takes away. Text of other shapes (a
minimum, "1 host of 6: 17.47 TiB", the Snapshot copies' sentence) is left as it is.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from models.formatting import finite
from models.units import GIB, TIB, CapacityUnit

__all__ = ["UNIT_BYTES", "precise_formula"]

UNIT_BYTES = {"TiB": float(TIB), "GiB": float(GIB), "TB": 1e12, "GB": 1e9}
"""Bytes in each unit a formula's figure may be written in."""

_FIGURE = re.compile(r"(?<![\w.,~])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))? (TiB|GiB|TB|GB)\b")
_TOTAL = re.compile(r"\(total (\d[\d,]*(?:\.\d+)?) (TiB|GiB|TB|GB)\)")
_DIVIDE = re.compile(r"^ / (\d+(?:\.\d+)?)(?: = (\d[\d,]*(?:\.\d+)?) (TiB|GiB|TB|GB))?")
_COUNT = re.compile(r"^(\d[\d,]*(?:\.\d+)?)(%)?(?=$|[\s'])")
_FRACTION = re.compile(r"^(\d+)/(\d+) of\b")
MORE_DIGITS = 4
"""Decimals a divisor may gain at most ("/ 1.33" to "/ 1.333333")."""


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def _digits(figure: str) -> int:
    return len(figure.partition(".")[2])


def _multiplier(prefix: str) -> float | None:
    """The factors before a segment's operand multiplied ("4 hosts x 2 disk groups x 4 x " is 32, "5% x raw "
    0.05, "2/10 of " 0.2); None when the prefix is not a product (no factor, or a ":" or "(" in it)."""
    if ":" in prefix or "(" in prefix and " x " not in prefix:
        return None
    product, factors = 1.0, 0
    fraction = _FRACTION.match(prefix.strip())
    if fraction:
        return float(fraction.group(1)) / float(fraction.group(2))
    parts = prefix.split(" x ")
    if len(parts) < 2:
        return None
    for part in parts[:-1]:
        found = _COUNT.match(part.strip())
        if found is None:
            return None
        product *= _number(found.group(1)) / (100.0 if found.group(2) else 1.0)
        factors += 1
    if parts[-1].strip() not in ("", "raw"):
        return None
    return product if factors else None


def _format(amount_bytes: float, unit: str, digits: int) -> str:
    return f"{amount_bytes / UNIT_BYTES[unit]:,.{digits}f}"


def precise_formula(text: str, unit: CapacityUnit | str, exact: Iterable[float], before: float,
                    after: float) -> str:
    """``text`` (a step's formula, already in the project's unit) as the product of its printed operands reads:
    as it is when that product is the printed result, else with its operands marked approximate (or its one
    divisor printed precise enough).

    Args:
        text: the formula as the table prints it (``models.present.capacity_text.text_in_unit``'s output).
        unit: the project's capacity unit (the unit of the table's Before / After columns).
        exact: byte counts the operands may have been rounded from (``exact_figures`` of the system).
        before, after: the step's capacity before and after it, bytes.

    Returns:
        ``text`` itself when it is not a product of the shapes the module docstring lists or the product already
        agrees; else the formula with the one divisor of a one-operand quotient printed with up to
        :data:`MORE_DIGITS` more decimals where that makes it agree, or each operand marked "~". An operand
        never gains decimals: it keeps the precision the report prints the same figure with elsewhere.
    """
    return _precise_formula(text, CapacityUnit(unit).value, tuple(exact), before, after)


@functools.lru_cache(maxsize=1024, typed=True)
def _precise_formula(text: str, unit: str, exact: tuple[float, ...], before: float, after: float) -> str:
    """:func:`precise_formula` of one formula, unit, set of figures and step, computed once (a report of 1,000
    alike systems prints the same few formulas a thousand times)."""
    table_unit = CapacityUnit(unit).value
    segments = text.split("; ")
    terms: list[tuple[int, re.Match[str], float, float]] = []  # (segment, operand, multiplier, divisor)
    result: tuple[str, str] | None = None  # printed (figure, unit) the formula states
    for i, segment in enumerate(segments):
        operand = _FIGURE.search(segment)
        if operand is None:
            continue
        multiplier = _multiplier(segment[:operand.start()])
        divide = _DIVIDE.match(segment[operand.end():])
        if multiplier is None and divide is None:
            continue
        terms.append((i, operand, multiplier if multiplier is not None else 1.0,
                      _number(divide.group(1)) if divide else 1.0))
        if divide and divide.group(2):
            result = (divide.group(2), divide.group(3))
        total = _TOTAL.search(segment)
        if total:
            result = (total.group(1), total.group(2))
    if not terms:
        return text

    printed = sum(multiplier * _number(operand.group(0).rsplit(" ", 1)[0]) * UNIT_BYTES[operand.group(3)] / divisor
                  for _, operand, multiplier, divisor in terms)
    change = before - after
    if result is not None:
        figure, result_unit = result
        target, digits_of_result = figure, _digits(figure)
        exact_result = next((v for v in (change, after) if _format(v, result_unit, digits_of_result) == target),
                            None)
    else:  # the table's figure: the capacity after the step, or the capacity it takes away
        result_unit, digits_of_result = table_unit, 2
        exact_result = after if abs(printed - after) <= abs(printed - change) else change
        target = _format(exact_result, result_unit, digits_of_result)
    if _format(printed, result_unit, digits_of_result) == target:
        return text
    values = [v for v in exact if finite(v)]
    shown = [t[1].group(0).rsplit(" ", 1)[0] for t in terms]
    chosen: list[float | None] = []
    for (_, operand, _, _), figure in zip(terms, shown, strict=True):
        size = UNIT_BYTES[operand.group(3)]
        digits = _digits(figure)
        matches = [v for v in values if _format(v, operand.group(3), digits) == figure]
        chosen.append(min(matches, key=lambda v: abs(v / size - _number(figure))) if matches else None)
    if None in chosen and exact_result is not None and len(set(shown)) == 1:
        # one operand throughout: the exact value the result is a product of (a drive's marketed bytes
        # "3,201 GB" = 3,200.63 GB, an aggregate's size a reserve is a percentage of)
        per_operand = exact_result / sum(t[2] / t[3] for t in terms)
        chosen = [per_operand] * len(terms)
    if len(terms) == 1 and exact_result and chosen[0] is not None:  # the divisor is the rounded one: "/ 1.33"
        precise = _divisor(segments, terms[0], chosen[0], exact_result, result_unit, digits_of_result, target)
        if precise is not None:
            return precise
    return _approximate(segments, terms)


def _divisor(segments: list[str], term: tuple[int, re.Match[str], float, float], operand_bytes: float,
             result_bytes: float, result_unit: str, digits: int, target: str) -> str | None:
    """The formula with its one divisor ("/ 1.33") printed precise enough ("/ 1.3333") that the operand as printed
    divided by it reads as ``target``; None when more decimals do not make it agree."""
    i, operand, multiplier, _ = term
    segment = segments[i]
    found = _DIVIDE.match(segment[operand.end():])
    if found is None or "." not in found.group(1):
        return None
    printed = _number(operand.group(0).rsplit(" ", 1)[0]) * UNIT_BYTES[operand.group(3)] * multiplier
    ratio = operand_bytes * multiplier / result_bytes
    for places in range(_digits(found.group(1)) + 1, _digits(found.group(1)) + MORE_DIGITS + 1):
        shown = f"{ratio:.{places}f}"
        if _format(printed / float(shown), result_unit, digits) == target:
            start = operand.end() + found.start(1)
            out = list(segments)
            out[i] = segment[:start] + shown + segment[operand.end() + found.end(1):]
            return "; ".join(out)
    return None


def _approximate(segments: list[str], terms: list[tuple[int, re.Match[str], float, float]]) -> str:
    """The segments with each term's operand marked "~" (printed as the report prints it, rounded)."""
    out = list(segments)
    for i, operand, _, _ in sorted(terms, key=lambda t: -t[1].start()):
        segment = out[i]
        out[i] = segment[:operand.start()] + "~" + operand.group(0) + segment[operand.end():]
    return "; ".join(out)
