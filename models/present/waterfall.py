"""The capacity waterfall as a person reads it: one bar (and one table row) per step, from raw down to usable, up
to effective (data reduction) and, where Snapshot or FlexClone copies add to it, on to the logical data including
them (not capacity: ``models.present.logical_data``).

Shared by the GUI's capacity view and the PDF report, so both draw the same bars in the same order: the engine's
``CapacityResult.steps``, the "Usable" total placed after ``usable_step_count`` steps (the engine knows where the
usable side ends), every step classed as a drop, a gain or a flat step with one tolerance (:func:`same_bytes`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from models.present.citations import customer_citation
from models.present.logical_data import LOGICAL_DATA_WITH_SNAPSHOTS

if TYPE_CHECKING:
    from models.capacity.reduction_band import CapacityBand
    from models.capacity.results import CapacityResult, CapacityStep, ScenarioCapacity

__all__ = ["EFFECTIVE_WITH_SNAPSHOTS", "WaterfallBar", "build_waterfall", "same_bytes", "scenario_waterfall",
           "step_kind", "system_waterfall", "with_effective_band"]

USABLE_DETAIL = "Capacity after RAID, spares and reserves"
EFFECTIVE_DETAIL = "Usable capacity times data reduction (compression, compaction, deduplication)"
EFFECTIVE_WITH_SNAPSHOTS = LOGICAL_DATA_WITH_SNAPSHOTS
"""The label of the last total when Snapshot or FlexClone copies add to the effective capacity: logical data, not
capacity (``models.present.logical_data``: one name on every surface)."""
WITH_SNAPSHOTS_DETAIL = ("Usable capacity times the total efficiency ratio, the logical size of Snapshot and "
                         "FlexClone copies counted (not what a customer is sold as effective capacity)")
RAW_DETAIL = "Marketed (decimal) drive capacity"


def same_bytes(a: float, b: float) -> bool:
    """True when two capacities (bytes) are equal for display: within 1 byte or 1e-9 of the larger.

    The one tolerance of the waterfall: a step inside it is ``flat``, and "Usable" sits where the running value
    reaches the usable capacity.
    """
    return abs(a - b) <= max(1.0, 1e-9 * max(abs(a), abs(b)))


def step_kind(before: float, after: float) -> str:
    """``flat`` (no change, see :func:`same_bytes`), ``gain`` or ``drop``: the bar kind of a step, bytes in."""
    if same_bytes(before, after):
        return "flat"
    return "gain" if after > before else "drop"


@dataclass(frozen=True)
class WaterfallBar:
    """One bar of the waterfall (and one row of its table), in bytes.

    Attributes:
        label: the step's name in the field's term ("RAID DP parity", "Usable").
        kind: ``total`` (solid from zero: raw, usable, effective), ``drop`` (capacity lost to a step), ``gain``
            (capacity gained by efficiency) or ``flat`` (a step that changes nothing).
        before, after: the running capacity before and after the step, bytes (a total: 0 and its value).
        source, formula: where the rule comes from and its arithmetic in words (from the engine's step).
        inputs: (name, value) pairs the step used, as text.
        details: further lines (the system of a summed step, each system's share).
        band: (P10, P90) of the total, bytes, where it has one (the effective capacity at the P10 and P90
            data-reduction ratio, :func:`with_effective_band`); None elsewhere.
    """

    label: str
    kind: str
    before: float
    after: float
    source: str = ""
    formula: str = ""
    inputs: tuple[tuple[str, str], ...] = ()
    details: tuple[str, ...] = ()
    band: tuple[float, float] | None = None

    @property
    def change(self) -> float:
        """after - before, bytes (negative for a drop)."""
        return self.after - self.before

    @property
    def low(self) -> float:
        """The bar's left end, bytes (0 for a total)."""
        return 0.0 if self.kind == "total" else min(self.before, self.after)

    @property
    def high(self) -> float:
        """The bar's right end, bytes."""
        return self.after if self.kind == "total" else max(self.before, self.after)


def _bar_from_step(step: CapacityStep, before: float | None = None, after: float | None = None,
                   details: Sequence[str] = ()) -> WaterfallBar:
    before = float(step.bytes_before if before is None else before)
    after = float(step.bytes_after if after is None else after)
    inputs = tuple((str(k), str(v)) for k, v in step.inputs.items())
    return WaterfallBar(step.name, step_kind(before, after), before, after, customer_citation(str(step.source)),
                        customer_citation(str(step.formula)),
                        inputs, tuple(details))


def _usable_split(steps: Sequence[WaterfallBar], raw: float, usable: float) -> int:
    """Where "Usable" goes when the engine does not say: after the first prefix of steps that reaches ``usable``
    and is followed by no further drop (the efficiency side of the waterfall only gains)."""
    running = [raw] + [s.after for s in steps]
    candidates = [p for p, value in enumerate(running) if same_bytes(value, usable)]
    for p in candidates:
        if not any(s.kind == "drop" for s in steps[p:]):
            return p
    if candidates:
        return candidates[-1]
    return next((i for i, s in enumerate(steps) if s.kind == "gain"), len(steps))


def _effective_split(steps: Sequence[WaterfallBar], start: float, effective: float) -> int:
    """How many of the efficiency-side ``steps`` (starting from ``start``, the usable capacity) lead to the
    data-reduction effective capacity: the last prefix whose running value reaches ``effective``."""
    running = [start] + [s.after for s in steps]
    found = [p for p, value in enumerate(running) if same_bytes(value, effective)]
    return found[-1] if found else len(steps)


RAW_LABEL = "Raw (marketed)"
"""The first bar of every waterfall, one system's or all systems' (review 57: "Raw" on the AFF A70 and ANF, "Raw
(marketed)" elsewhere): the drives' or the service's marketed capacity, as the engine's raw step names it."""


def build_waterfall(steps: Sequence[WaterfallBar], raw: float, usable: float, effective: float,
                    raw_total: WaterfallBar | None = None, split: int | None = None,
                    effective_with_snapshots: float | None = None) -> list[WaterfallBar]:
    """Raw total, the steps down to usable, the usable total, the data-reduction steps, the effective total, and,
    when Snapshot or FlexClone copies add to it, their steps and the total with them
    (:data:`EFFECTIVE_WITH_SNAPSHOTS`).

    Args:
        steps: the bars between raw and the last total, in order.
        raw, usable, effective: the totals, bytes (effective: usable x data reduction).
        raw_total: the raw bar to use (default: a bar named :data:`RAW_LABEL`).
        split: how many of ``steps`` lead to usable; None: found from the numbers.
        effective_with_snapshots: usable x the total efficiency ratio, bytes; None or equal to ``effective``: no
            second total.
    """
    raw_bar = raw_total or WaterfallBar(RAW_LABEL, "total", 0.0, raw, details=(RAW_DETAIL,))
    split = _usable_split(steps, raw, usable) if split is None else max(0, min(split, len(steps)))
    usable_bar = WaterfallBar("Usable", "total", 0.0, usable, details=(USABLE_DETAIL,))
    effective_bar = WaterfallBar("Effective", "total", 0.0, effective, details=(EFFECTIVE_DETAIL,))
    gains = list(steps[split:])
    if effective_with_snapshots is None or same_bytes(effective_with_snapshots, effective):
        return [raw_bar, *steps[:split], usable_bar, *gains, effective_bar]
    cut = _effective_split(gains, usable, effective)
    total_bar = WaterfallBar(EFFECTIVE_WITH_SNAPSHOTS, "total", 0.0, effective_with_snapshots,
                             details=(WITH_SNAPSHOTS_DETAIL,))
    return [raw_bar, *steps[:split], usable_bar, *gains[:cut], effective_bar, *gains[cut:], total_bar]


def _is_raw_step(step: CapacityStep) -> bool:
    """The engine's own "Raw (marketed)" step: it starts from zero, or is named Raw and changes nothing."""
    before, after = float(step.bytes_before), float(step.bytes_after)
    return same_bytes(before, 0.0) or (same_bytes(before, after) and step.name.lower().startswith("raw"))


def system_waterfall(result: CapacityResult) -> list[WaterfallBar]:
    """The waterfall of one ``models.capacity.CapacityResult``: its raw step as the raw total, its steps, the
    usable total after ``usable_step_count`` steps, the effective total (data reduction) and the total with
    Snapshot and FlexClone copies (:func:`build_waterfall`)."""
    steps = list(result.steps)
    raw_total = None
    if steps and _is_raw_step(steps[0]):
        first = _bar_from_step(steps.pop(0))
        raw_total = WaterfallBar(RAW_LABEL, "total", 0.0, first.after, first.source, first.formula, first.inputs)
    bars = [_bar_from_step(s) for s in steps]
    split = result.usable_step_count
    if split is not None and raw_total is not None:
        split -= 1  # the raw step became the raw total
    return build_waterfall(bars, float(result.raw_bytes), float(result.usable_bytes), float(result.effective_bytes),
                           raw_total, split, float(result.effective_with_snapshots_bytes))


def scenario_waterfall(capacity: ScenarioCapacity) -> list[WaterfallBar]:
    """The systems a ``models.capacity.ScenarioCapacity`` totals (``ScenarioCapacity.counted``: a replication-only
    destination left out, as in ``total``) at once: steps with the same name are added up (their changes summed),
    chained from the scenario's total raw capacity; the steps down to usable (each system's first
    ``usable_step_count``) first, then the data-reduction steps, each side in first-seen order."""
    usable_side: list[str] = []
    effective_side: list[str] = []
    changes: dict[str, float] = {}
    parts: dict[str, list] = {}
    raw_steps = []
    for system in capacity.counted:
        count = system.usable_step_count if system.usable_step_count is not None else len(system.steps)
        for index, step in enumerate(system.steps):
            if _is_raw_step(step):
                raw_steps.append(step)
                continue  # already in the raw total (its source and formula go on the raw bar)
            if step.name not in changes:
                (usable_side if index < count else effective_side).append(step.name)
                changes[step.name] = 0.0
                parts[step.name] = []
            changes[step.name] += float(step.bytes_after) - float(step.bytes_before)
            parts[step.name].append((system, step))
    order = usable_side + effective_side
    total = capacity.total
    running = float(total.raw_bytes)
    bars = []
    for name in order:
        before, after = running, running + changes[name]
        running = after
        members = parts[name]
        if len(members) == 1:
            system, step = members[0]
            bars.append(_bar_from_step(step, before, after, details=(f"System: {system.system_label}",)))
            continue
        details = tuple(
            f"{system.system_label}: {float(step.bytes_after) - float(step.bytes_before):,.0f} bytes"
            f" \u2014 {customer_citation(str(step.formula))} ({customer_citation(str(step.source))})"
            for system, step in members
        )
        sources = "; ".join(dict.fromkeys(customer_citation(str(step.source)) for _, step in members))
        bars.append(WaterfallBar(name, step_kind(before, after), before, after, sources, "sum over systems", (),
                                 details))
    raw_bar = None
    if raw_steps:  # the raw total cites what the systems' own raw steps cite (the text and the PDF do)
        raw_bar = WaterfallBar(
            RAW_LABEL, "total", 0.0, float(total.raw_bytes),
            "; ".join(dict.fromkeys(customer_citation(str(step.source)) for step in raw_steps)),
            "; ".join(dict.fromkeys(customer_citation(str(step.formula)) for step in raw_steps)),
            details=(RAW_DETAIL,))
    split = len(usable_side) if all(s.usable_step_count is not None for s in capacity.counted) else None
    return build_waterfall(bars, float(total.raw_bytes), float(total.usable_bytes), float(total.effective_bytes),
                           raw_bar, split=split, effective_with_snapshots=float(total.effective_with_snapshots_bytes))


def with_effective_band(bars: Sequence[WaterfallBar], band: CapacityBand | None,
                        system_id: str | None = None) -> list[WaterfallBar]:
    """``bars`` with the "Effective" total carrying its P10 / P90 band (bytes): the scenario's, or with
    ``system_id`` that system's (``models.capacity.reduction_band``); unchanged without a band."""
    if band is None:
        return list(bars)
    system = band.system(system_id) if system_id is not None else None
    if system_id is not None and system is None:
        return list(bars)
    low, high = ((system.effective_bytes_p10, system.effective_bytes_p90) if system is not None
                 else (band.effective_bytes_p10, band.effective_bytes_p90))
    detail = "P10-P90 at the data-reduction ratio's band (the published spread of each workload's type)"
    return [replace(b, band=(low, high), details=(*b.details, detail))
            if b.kind == "total" and b.label == "Effective" else b for b in bars]
