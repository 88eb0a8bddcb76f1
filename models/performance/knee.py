"""The shape of a latency curve: light-load latency, latency at 50% and 80% of saturation, and why a curve
has no knee when it has none.

A measured latency-vs-IOPS curve of a storage system rises gradually towards saturation (the "knee"). The
issue's test of a gradual knee: at 80% of saturation the latency is at least :data:`KNEE_MIN_RATIO` x the
light-load latency (a single M/M/1 queue gives 5x there: R = S / (1 - 0.8)). A curve can legitimately stay
flatter: when most of the light-load latency is fixed (wire, software path, drive positioning that does not
queue) or when the bottleneck is a multi-server queue (many CPU cores share one run queue; by Erlang C such a
queue waits little until close to saturation, Harchol-Balter 2013, *Performance Modeling and Design of Computer
Systems*, ch. 14). :func:`knee_note` says which, from the model's own numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from models.performance.paths import StationSpec

if TYPE_CHECKING:
    import numpy as np

KNEE_MIN_RATIO = 1.3
"""Latency at 80% of saturation over the light-load latency below which a curve is called flat (issue 14's
curve-shape test)."""


@dataclass(frozen=True)
class CurveShape:
    """How a workload's curve bends.

    Attributes:
        light_load_latency_ms: storage-side latency with no queueing (one I/O alone), ms.
        latency_at_50pct_ms, latency_at_80pct_ms: storage-side latency at 50% / 80% of the saturation IOPS,
            ms; None when not defined (no finite saturation).
        knee_ratio: latency at 80% over light-load latency; None when either is missing.
        knee_note: why the curve is flatter than :data:`KNEE_MIN_RATIO` at 80%, in words; None when it is not.
    """

    light_load_latency_ms: float
    latency_at_50pct_ms: float | None
    latency_at_80pct_ms: float | None
    knee_ratio: float | None
    knee_note: str | None


def knee_note(specs: Sequence[StationSpec], demands: Sequence[float] | np.ndarray, read_fraction: float,
              bottleneck: int | None, ratio: float | None) -> str | None:
    """Why a curve is flat at 80% of saturation, from the stations (None when ``ratio`` >= KNEE_MIN_RATIO).

    Args:
        specs: the path's stations; demands: (S,) their demands per I/O, seconds (inflated by other workloads);
        read_fraction: 0..1; bottleneck: index of the bottleneck in ``specs`` (or None); ratio: latency at 80%
        of saturation over the light-load latency (None: no finite saturation).

    Returns:
        A sentence naming the share of the light-load latency that does not queue (delays and the parallel part
        of multi-server queues, Seidmann's split) and the bottleneck's servers per queue, or why there is no
        saturation.
    """
    if ratio is None:
        return "no station queues on this path, so the latency does not rise with load"
    if ratio >= KNEE_MIN_RATIO:
        return None
    fixed = queued = 0.0
    for spec, d in zip(specs, demands):
        if not spec.storage_side:
            continue
        waited = d * spec.latency_share(read_fraction)
        if spec.delay:
            fixed += waited
        else:
            queued += waited / spec.servers
            fixed += waited * (spec.servers - 1) / spec.servers
    total = fixed + queued
    reasons = []
    if total > 0 and fixed / total >= 0.5:
        reasons.append(f"{fixed / total:.0%} of the light-load latency does not queue (fixed delays and the "
                       "parallel part of multi-server stations)")
    if bottleneck is not None:
        b = specs[bottleneck]
        if b.servers > 1:
            reasons.append(f"the bottleneck, {b.name}, serves {b.servers} I/Os at once per queue: a multi-server "
                           "queue waits little until close to saturation (Erlang C)")
        if not b.storage_side:
            reasons.append(f"the bottleneck, {b.name}, is outside the array, so its queueing is not in the "
                           "storage-side latency")
        elif total > 0 and d_share(specs, demands, read_fraction, bottleneck) / total < 0.25:
            reasons.append(f"the bottleneck, {b.name}, is a small part of the latency")
    if not reasons:
        reasons.append("the queueing stations are far from saturation when the bottleneck is at 80%")
    return (f"latency at 80% of saturation is {ratio:.2f}x the light-load latency (under {KNEE_MIN_RATIO}x): "
            + "; ".join(reasons))


def d_share(specs: Sequence[StationSpec], demands: Sequence[float] | np.ndarray, read_fraction: float,
            index: int) -> float:
    """The waited-for demand of station ``index`` (seconds per I/O): its demand times its latency share."""
    return demands[index] * specs[index].latency_share(read_fraction)
