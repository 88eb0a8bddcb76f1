"""Scenario comparison rows: the same figures of several evaluations side by side, with the change from the first
to the second when there are two.

The GUI's Compare tab and the report's "Scenario comparison" both lay out these rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from models.formatting import (
    NOT_AVAILABLE,
    NOT_MET,
    SATURATED,
    finite,
    fmt_capacity,
    fmt_capacity_delta,
    fmt_iops,
    fmt_ms,
    fmt_ratio,
    fmt_signed_pct,
)
from models.present.waterfall import same_bytes
from models.units import CapacityUnit

if TYPE_CHECKING:
    from models.capacity.results import CapacityResult, CapacityTotals
    from models.evaluate import Evaluation

__all__ = ["ComparisonRow", "comparison_rows", "yes_no"]

SECTION, GROUP, FIGURE = 0, 1, 2
"""Row levels: a section ("Capacity"), a group in it (a system, a workload), a figure."""
ABSENT = "\u2014"
"""A scenario that does not have the system or workload of a row."""


def _cap(value: float | None, unit: CapacityUnit | str) -> str:
    """A capacity in the chosen large unit throughout (TB or TiB, never GB/GiB beside it)."""
    return fmt_capacity(value, unit, fixed=True)


def _cap_delta(value: float | None, unit: CapacityUnit | str) -> str:
    """A signed capacity change in the chosen large unit throughout."""
    return fmt_capacity_delta(value, unit, fixed=True)


@dataclass(frozen=True)
class ComparisonRow:
    """One row of a scenario comparison.

    Attributes:
        label: the figure ("Usable"), group ("AFF8080A EX HA pair") or section ("Capacity").
        level: 0 section, 1 group, 2 figure.
        values: one text per scenario, in the order given (empty for sections and groups).
        delta: second minus first, as text, when exactly two scenarios are compared ("" when it does not apply).
        better: True when the change is an improvement, False when worse, None when neither or unknown.
    """

    label: str
    level: int
    values: tuple[str, ...] = ()
    delta: str = ""
    better: bool | None = None


def yes_no(met: bool | None) -> str:
    """A target met: ``Yes``, ``No``, or ``no target``."""
    return "no target" if met is None else "Yes" if met else "No"


def _pct_change(left: float, right: float) -> str:
    if left == 0:
        return ""
    change = (right - left) / abs(left) * 100
    return f" ({fmt_signed_pct(change, 0 if abs(change) >= 10 else 1)})"


def _signed(text: str, value: float) -> str:
    return ("+" if value > 0 else "\u2212" if value < 0 else "") + text


def _two(values: Sequence) -> tuple[float, float] | None:
    if len(values) == 2 and finite(values[0]) and finite(values[1]):
        return float(values[0]), float(values[1])
    return None


def _capacity_delta(values: Sequence[float | None], unit: CapacityUnit) -> tuple[str, bool | None]:
    pair = _two(values)
    if pair is None:
        return "", None
    a, b = pair
    if same_bytes(a, b):
        return "0", None
    return _cap_delta(b - a, unit) + _pct_change(a, b), b > a


def _capacity_rows(rows: list[ComparisonRow], label: str, parts: Sequence[CapacityResult | CapacityTotals | None],
                   unit: CapacityUnit) -> None:
    rows.append(ComparisonRow(label, GROUP))
    figures = (("Raw", [p.raw_bytes if p is not None else None for p in parts]),
               ("Usable", [p.usable_bytes if p is not None else None for p in parts]),
               ("Effective", [p.effective_bytes if p is not None else None for p in parts]),
               ("With Snapshot copies and clones",
                [p.effective_with_snapshots_bytes if p is not None else None for p in parts]))
    for name, values in figures:
        delta, better = _capacity_delta(values, unit)
        rows.append(ComparisonRow(name, FIGURE, tuple(_cap(v, unit) for v in values), delta, better))
    values = [p.data_reduction_ratio if p is not None else None for p in parts]
    pair = _two(values)
    delta, better = "", None
    if pair is not None:
        a, b = pair
        if round(abs(b - a), 2) > 0:  # a change the ratio's two decimals show
            delta, better = _signed(f"{abs(b - a):.2f}", b - a), b > a
        else:
            delta = "0"
    rows.append(ComparisonRow("Data reduction", FIGURE, tuple(fmt_ratio(v) for v in values), delta, better))


def comparison_rows(evaluations: Sequence[Evaluation],
                    unit: CapacityUnit | str = CapacityUnit.TIB) -> tuple[ComparisonRow, ...]:
    """The comparison of several ``models.evaluate.Evaluation`` (the first is the reference).

    Capacity: per system (by id, in first-seen order) raw, usable, effective (data reduction), effective with
    Snapshot copies and clones and the data-reduction ratio, plus the totals when
    there are several systems; performance: per workload (by name) protocol, saturation IOPS, max IOPS at the SLO,
    latency at the target (when a side has a target), target met and bottleneck; the number of error problems.
    Capacities in ``unit``; never NaN or inf.
    """
    unit = CapacityUnit(unit)
    rows: list[ComparisonRow] = [ComparisonRow("Capacity", SECTION)]
    capacities = [e.capacity for e in evaluations]
    if all(c is None for c in capacities):
        rows.append(ComparisonRow("Capacity", FIGURE, tuple(NOT_AVAILABLE for _ in evaluations)))
    else:
        per = [{s.system_id: s for s in c.systems} if c is not None else {} for c in capacities]
        ids = list(dict.fromkeys(i for systems in per for i in systems))
        for system_id in ids:
            parts = [systems.get(system_id) for systems in per]
            label = next(p for p in parts if p is not None).system_label or system_id
            _capacity_rows(rows, label, parts, unit)
        if len(ids) > 1:
            _capacity_rows(rows, "Total", [c.total if c is not None else None for c in capacities], unit)
    rows.append(ComparisonRow("Performance", SECTION))
    per_w = [{w.name: w for w in e.performance.workloads} if e.performance is not None else {}
             for e in evaluations]
    names = list(dict.fromkeys(n for workloads in per_w for n in workloads))
    if not names:
        rows.append(ComparisonRow("Workloads", FIGURE, tuple(NOT_AVAILABLE for _ in evaluations)))
    for name in names:
        ws = [workloads.get(name) for workloads in per_w]
        rows.append(ComparisonRow(name, GROUP))
        protocols = list(dict.fromkeys(w.protocol for w in ws if w is not None))
        rows.append(ComparisonRow("protocol", FIGURE, tuple(w.protocol if w else ABSENT for w in ws),
                                  "changed" if len(ws) == 2 and len(protocols) > 1 else ""))
        iops_figures: tuple[tuple[str, list[float | None], str], ...] = (
            ("saturation IOPS", [w.saturation_iops if w else None for w in ws], SATURATED),
            ("max IOPS @ SLO", [w.max_iops_at_slo if w else None for w in ws], NOT_MET))
        for label, values, none_text in iops_figures:
            pair = _two(values)
            delta, better = "", None
            if pair is not None:
                x, y = pair
                delta = _signed(fmt_iops(abs(y - x)), y - x) + _pct_change(x, y) if y != x else "0"
                better = (y > x) if y != x else None
            rows.append(ComparisonRow(label, FIGURE, tuple(fmt_iops(v, none_text) if w else ABSENT
                                                           for w, v in zip(ws, values)), delta, better))
        if any(w is not None and w.target_iops is not None for w in ws):
            values = [w.latency_at_target_ms if w else None for w in ws]
            pair = _two(values)
            delta, better = "", None
            if pair is not None:
                x, y = pair
                delta = _signed(fmt_ms(abs(y - x)), y - x) if y != x else "0"
                better = (y < x) if y != x else None
            rows.append(ComparisonRow("latency @ target", FIGURE,
                                      tuple((fmt_ms(w.latency_at_target_ms) if w.target_iops is not None
                                             else "no target") if w else ABSENT for w in ws), delta, better))
            rows.append(ComparisonRow("target met", FIGURE, tuple(yes_no(w.target_met) if w else ABSENT for w in ws)))
        from models.present.iops_bound import bottleneck_words  # the HA pair's IOPS bound named as the pair's

        rows.append(ComparisonRow("bottleneck", FIGURE, tuple((bottleneck_words(w) or NOT_AVAILABLE) if w else ABSENT
                                                              for w in ws)))
    errors = [len(e.errors) for e in evaluations]
    rows.append(ComparisonRow("Problems", SECTION))
    rows.append(ComparisonRow("errors", FIGURE, tuple(str(n) for n in errors),
                              (_signed(str(abs(errors[1] - errors[0])), errors[1] - errors[0]) if errors[1] != errors[0]
                               else "0") if len(errors) == 2 else "",
                              (errors[1] < errors[0]) if len(errors) == 2 and errors[1] != errors[0] else None))
    return tuple(rows)
