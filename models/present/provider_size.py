"""A cloud disk's size said once, as its provider publishes it, with the project's unit beside it.

A cloud disk's name carries the size its provider publishes (Microsoft: "Azure Premium SSD P30 (Premium_LRS,
1,024 GiB)", AWS: "AWS EBS gp3 1 TiB (baseline ...)"), and the capacity engine's layout line follows the name with
the size it computes with, in binary units: "6 x Azure Premium SSD P30 (Premium_LRS, 1,024 GiB) (1.00 TiB) per
node". Converted to a decimal project's unit that read "(Premium_LRS, 1,024 GiB) (1.10 TB)": two parentheses, one
size twice. :func:`provider_size_once` says it once: in a decimal (TB) project the provider's figure with its
decimal equal in the same place ("(Premium_LRS, 1,024 GiB = 1.10 TB)"); in a binary (TiB) project, where GiB and
TiB are one family, the provider's figure alone ("(Premium_LRS, 1,024 GiB)").
"""

from __future__ import annotations

import re

from models.units import GIB, TIB, CapacityUnit, format_capacity

__all__ = ["provider_size_once"]

_NAMED_THEN_COMPUTED = re.compile(
    r"(?<![\d.,])(?P<size>\d{1,3}(?:,\d{3})+|\d+) (?P<unit>GiB|TiB)"  # the provider's whole figure in the name
    r"(?P<rest>[^()]*?(?:\([^()]*\))?[^()]*?\)?)"  # the rest of the name: at most one parenthesis, or its close
    r" \((?P<figure>\d{1,3}(?:,\d{3})*\.\d+|\d+\.\d+) (?P<computed>GiB|TiB)\)")  # the engine's size after it
"""A disk name's published size followed, after the rest of the name, by the engine's figure of that size."""

_BYTES = {"GiB": GIB, "TiB": TIB}


def provider_size_once(text: str, unit: CapacityUnit | str) -> str:
    """``text`` (an engine layout line, binary units) with each cloud disk's size said once.

    Args:
        text: a line such as "aggregate RAID0 6 x Azure Premium SSD P30 (Premium_LRS, 1,024 GiB) (1.00 TiB) per
            node"; unit: the project's capacity unit (``CapacityUnit`` or "TB" / "TiB").

    Returns:
        the line with the engine's figure that repeats the provider's size (it rounds to it) taken out and, for a
        decimal unit, the decimal equal put after the provider's figure ("1,024 GiB = 1.10 TB", "1 TiB = 1.10 TB",
        "500 GiB = 536.87 GB"); a figure that is not the same size, and any other text, unchanged.

    Raises:
        ValueError: ``unit`` is not a capacity unit.
    """
    decimal = CapacityUnit(unit) is CapacityUnit.TB

    def once(match: re.Match[str]) -> str:
        published = int(match.group("size").replace(",", "")) * _BYTES[match.group("unit")]
        figure = match.group("figure")
        computed = float(figure.replace(",", "")) * _BYTES[match.group("computed")]
        half_step = 0.5 * 10 ** -len(figure.partition(".")[2]) * _BYTES[match.group("computed")]
        if abs(published - computed) > half_step:  # another size: leave both
            return match.group(0)
        named = f"{match.group('size')} {match.group('unit')}"
        if decimal:
            named += f" = {format_capacity(published, CapacityUnit.TB)}"
        return named + match.group("rest")

    return _NAMED_THEN_COMPUTED.sub(once, text)
