"""Shared pieces of the physical side (raw -> usable): the accumulating builder and RAID group arithmetic."""


from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from models.capacity.results import Aggregate, CapacityStep, frozen_inputs
from models.units import CapacityUnit, format_capacity


def fmt(value: float) -> str:
    """Bytes in binary units, as ONTAP and the seeds print them (744.96 GiB, 25.47 TiB). The same byte counts (a
    drive's right-sized size, its partitions) are written many times per waterfall and per sizer search: each
    distinct value is formatted once (zero, whose sign shows, and NaN, never equal to itself, each time)."""
    if value == 0 or value != value:
        return format_capacity(value, CapacityUnit.TIB)
    return _fmt_cached(value)


@lru_cache(maxsize=8192, typed=True)
def _fmt_cached(value: float) -> str:
    """:func:`fmt` of a non-zero number (memoised by value and type)."""
    return format_capacity(value, CapacityUnit.TIB)


def plural(count: float, word: str) -> str:
    """``count`` (formatted with ``g``) and ``word``, plural unless count is 1: "1 drive", "2 drives", "0.5 drives"."""
    return f"{count:g} {word}{'' if count == 1 else 's'}"


def describe_groups(groups: tuple[int, ...], parity: int) -> str:
    """(23,) with parity 2 -> '1 x (21+2)'; (20, 20) -> '2 x (18+2)'; (13, 12) -> '1 x (11+2), 1 x (10+2)'."""
    if not groups:
        return "no groups"
    counts = Counter(groups)
    return ", ".join(f"{n} x ({g - parity}+{parity})" for g, n in sorted(counts.items(), reverse=True))


@dataclass(frozen=True)
class GroupSet:
    """RAID groups of equal-size members and what they yield."""

    groups: tuple[int, ...]
    parity_per_group: int
    member_bytes: float
    data_bytes: float
    parity_bytes: float
    unusable_bytes: float
    data_members: int
    parity_members: int
    idle_members: int = 0

    @property
    def idle_bytes(self) -> float:
        """Bytes of the members left out of the groups (``idle_members`` x ``member_bytes``), kept as spares."""
        return self.idle_members * self.member_bytes


def build_groups(members: int, group_size: int, parity: int, member_bytes: float, *,
                 at_least_two: bool = False) -> GroupSet:
    """Split ``members`` into RAID groups (see rules.split_groups) and count data and parity.

    A group that cannot hold its parity plus one data member yields nothing (``unusable_bytes``).
    When the last few members (no more than a group's parity) would only open a new group whose parity costs more
    than they add, they are left out of the groups (``idle_members``, kept as spares): so more members never give
    less data, as an engineer would lay the aggregate out.
    ``at_least_two`` forces two groups (ADPv2 on one node: the two data partitions of a drive may not share a
    group; members are laid out drive by drive, first partitions then second ones, so contiguous groups of at
    most half the members never hold both partitions of one drive).
    """
    from models.capacity.rules import split_groups

    size = max(1, group_size)
    idle = 0
    if at_least_two and members >= 2:
        size = min(size, (members + 1) // 2)
    elif members > size and 0 < members % size < parity:
        idle = members % size
    groups = split_groups(members - idle, size)
    data_m = parity_m = unusable_m = 0
    for g in groups:
        if g <= parity:
            unusable_m += g
        else:
            data_m += g - parity
            parity_m += parity
    return GroupSet(groups, parity, member_bytes, data_m * member_bytes, parity_m * member_bytes,
                    unusable_m * member_bytes, data_m, parity_m, idle)


@dataclass
class Waterfall:
    """Accumulates deductions by step name, in first-seen order, and turns them into CapacityStep records."""

    start_bytes: float = 0.0
    _order: list[str] = field(default_factory=list)
    _bytes: dict[str, float] = field(default_factory=dict)
    _source: dict[str, str] = field(default_factory=dict)
    _formula: dict[str, list[str]] = field(default_factory=dict)
    _inputs: dict[str, dict[str, str]] = field(default_factory=dict)

    def deduct(self, name: str, amount: float, source: str, formula: str, inputs: dict[str, str] | None = None) -> None:
        """Add ``amount`` bytes to the step ``name`` (created at first use, in that order).

        The first call's ``source`` is kept; ``inputs`` are merged (later values win); each distinct ``formula`` is
        kept, and the step shows them joined by "; " with the total when there are several.
        """
        if name not in self._bytes:
            self._order.append(name)
            self._bytes[name] = 0.0
            self._source[name] = source
            self._formula[name] = []
            self._inputs[name] = {}
        self._bytes[name] += amount
        if formula and formula not in self._formula[name]:
            self._formula[name].append(formula)
        self._inputs[name].update(inputs or {})

    def steps(self, first: list[CapacityStep], *, keep_zero: tuple[str, ...] = ()) -> tuple[list[CapacityStep], float]:
        """The steps after ``first`` (whose last bytes_after is the start) and the final bytes."""
        level = first[-1].bytes_after if first else self.start_bytes
        out = list(first)
        for name in self._order:
            amount = self._bytes[name]
            if amount == 0 and name not in keep_zero:
                continue
            formula = "; ".join(self._formula[name])
            if len(self._formula[name]) > 1:
                formula += f" (total {fmt(amount)})"
            out.append(CapacityStep(name, level, level - amount, self._source[name], formula,
                                    frozen_inputs(self._inputs[name])))
            level -= amount
        return out, level


@dataclass
class Physical:
    """The physical side of one system, before the effective side is added."""

    steps: list[CapacityStep]
    raw_bytes: float
    right_sized_bytes: float
    usable_bytes: float
    aggregates: list[Aggregate] = field(default_factory=list)
    layout: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
