"""The load a replication transfer puts on both ends: during a transfer window the source reads the changed blocks
and the destination writes them, at the transfer's rate, beside each system's own workloads.

Each transfer becomes two workloads of its own in the performance model: sequential 64 KiB reads on the source and
sequential 64 KiB writes on the destination, at the rate the transfer runs (the available bandwidth while a
scheduled transfer runs; the protected writes' rate for active sync). The scenario with them added is solved once
(``models.performance.evaluate_performance``), and each end reports the transfer's own latency, the busiest
station's utilisation, and how the system's own workloads' latency at their targets moves against the scenario
without transfers. The block size is an assumption: SnapMirror reads and writes whole changed blocks in large
sequential requests; StorPlan does not model its internal request sizes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from models.catalog import Catalog
from models.formatting import station_words
from models.project.kinds import TRANSFER_ID_MARK
from models.project.model import Scenario, Settings, Workload
from models.replication.figures import ReplicationFigures

if TYPE_CHECKING:
    from models.performance.results import ScenarioPerformance

TRANSFER_BLOCK_KIB = 64.0
"""Request size assumed for the transfer's reads and writes (KiB)."""


@dataclass(frozen=True)
class EndLoad:
    """One end of one relationship during its transfer window.

    Attributes:
        replication_id: the relationship; system_id: the end (source or destination node id); role: "source" or
            "destination"; rate_mbps: the transfer's rate, MB/s (10^6 bytes/s).
        transfer_latency_ms: the transfer workload's own latency at that rate (None: the end saturates).
        bottleneck: the busiest station during the window, as every output names it
            (``models.formatting.station_words``); utilization_pct: its utilisation, percent.
        own_workloads: (workload name, latency at target without transfers ms, with transfers ms or None when
            saturated) for the end's own enabled workloads with a target.
        text: the end's state in one sentence.
    """

    replication_id: str
    system_id: str
    role: str
    rate_mbps: float
    transfer_latency_ms: float | None
    bottleneck: str
    utilization_pct: float
    own_workloads: tuple[tuple[str, float | None, float | None], ...]
    text: str


def _transfer_rate(f: ReplicationFigures) -> float:
    """Bytes/s the transfer runs at in its window: the available rate bounded by the round trip
    (:attr:`ReplicationFigures.transfer_bytes_per_s`) for a scheduled transfer, the protected
    writes for active sync (capped at the available rate)."""
    if f.kind == "active-sync":
        return min(sum(c.write_bytes_per_s for c in f.workloads), f.available_bytes_per_s)
    return f.transfer_bytes_per_s if f.transfer_bytes > 0 else 0.0


def transfer_workloads(figures: tuple[ReplicationFigures, ...]) -> list[Workload]:
    """The transfers as workloads: for each relationship with a transfer, a read workload on its source and a write
    workload on its destination at :func:`_transfer_rate` (ids ``<relationship>.replication-read`` / ``-write``)."""
    made: list[Workload] = []
    for f in figures:
        rate = _transfer_rate(f)
        if rate <= 0:
            continue
        for suffix, target, read in (("read", f.source_id, 100.0), ("write", f.target_id, 0.0)):
            made.append(Workload(
                id=f"{f.replication_id}{TRANSFER_ID_MARK}{suffix}",
                name=f"{f.kind_label} transfer {suffix}s ({f.label})",
                target=target, hosts=[], block_kib=TRANSFER_BLOCK_KIB, read_pct=read, random_pct=0.0,
                target_mbps=rate / 1e6, slo_ms=1000.0, concurrency=64, dataset_bytes=0))
    return made


class _AtTarget:
    """What the transfer window reads of one workload's prediction in the window: its latency at the target (ms, None
    where saturated) and its stations there (``models.performance.results.StationLoad``)."""

    __slots__ = ("latency_at_target_ms", "stations")

    def __init__(self, latency_at_target_ms: float | None, stations: tuple[Any, ...]) -> None:
        self.latency_at_target_ms = latency_at_target_ms
        self.stations = stations


def _at_targets(scenario: Scenario, catalog: Catalog, settings: Settings | None,
                raid: Mapping[str, Any] | None) -> dict[str, Any]:
    """Workload id -> its latency at the target and stations (:class:`_AtTarget`, or the full prediction where the
    open model alone cannot give them) of every rated workload of ``scenario``."""
    from models.performance import evaluate_performance
    from models.performance.engine import figures_at_targets

    figures = figures_at_targets(scenario, catalog, raid)
    if figures is None:
        full = evaluate_performance(scenario, catalog, settings, raid, curve_tails=False)
        return {wp.workload_id: wp for wp in full.workloads if wp.target_iops is not None}
    return {wid: _AtTarget(latency, stations) for wid, (latency, stations) in figures.items()}


def transfer_window(scenario: Scenario, catalog: Catalog, figures: tuple[ReplicationFigures, ...],
                    settings: Settings | None = None, raid: Mapping[str, Any] | None = None,
                    base: ScenarioPerformance | None = None) -> tuple[EndLoad, ...]:
    """Solve the scenario with every transfer running at once (the worst window) and without, and describe each
    end (:class:`EndLoad`). An end the performance engine cannot model (no path for it) is left out. ``base``: the
    scenario's own performance when evaluated already (``models.evaluate.evaluate``'s, the same settings and RAID
    layouts; only its latencies at the targets are read), else it is solved here. Of the window only figures at the
    targets are read: they come from the open model alone (``models.performance.engine.figures_at_targets``, the
    same numbers as a full solve, without the closed ramps, curves and bands)."""
    from models.performance import evaluate_performance

    extra = transfer_workloads(figures)
    if not extra:
        return ()
    names = {w.id for w in scenario.workloads}
    extra = [w for w in extra if w.id not in names]
    if base is None:
        base = evaluate_performance(scenario, catalog, settings, raid, curve_tails=False)
    loaded_scenario = scenario.model_copy(update={"workloads": [*scenario.workloads, *extra]})
    loaded = _at_targets(loaded_scenario, catalog, settings, raid)
    ends: list[EndLoad] = []
    for w in extra:
        wp = loaded.get(w.id)
        if wp is None:
            continue
        rep_id, suffix = w.id.rsplit(".replication-", 1)
        role = "source" if suffix == "read" else "destination"
        busiest = max(wp.stations, key=lambda s: s.utilization, default=None)
        own: list[tuple[str, float | None, float | None]] = []
        notes: list[str] = []  # the path's notes (its IOPS cap's), from the end's own workloads
        for mine in scenario.workloads:
            if mine.target != w.target or not mine.enabled:
                continue
            before, after = base.for_workload(mine.id), loaded.get(mine.id)
            notes += before.notes if before is not None else ()
            if before is None or after is None or before.target_iops is None:
                continue
            own.append((mine.name, before.latency_at_target_ms, after.latency_at_target_ms))
        path_notes = notes if notes or isinstance(wp, _AtTarget) else None  # a full prediction: its own notes
        named = station_words(busiest.name, wp, path_notes) if busiest is not None else ""  # as views say (r2 #6)
        rate = w.target_mbps or 0.0
        what = "reads" if role == "source" else "writes"
        if wp.latency_at_target_ms is None:
            text = f"The {role} cannot take the transfer's {what} at {rate:,.1f} MB/s beside its own workloads."
        else:
            # "(from 0.11 ms)" beside 0.11 ms read as a change (REVIEW46): the same figure at two decimals is unchanged
            worst = [f"{n} {a:.2f} ms " + ("(unchanged)" if f"{a:.2f}" == f"{b:.2f}" else f"(from {b:.2f} ms)")
                     for n, b, a in own if a is not None and b is not None]
            moved = "; its workloads at target: " + ", ".join(worst) if worst else ""
            text = (f"The transfer's {what} at {rate:,.1f} MB/s on the {role}"
                    + (f": {named} at {busiest.utilization * 100:.0f}%" if busiest is not None else "")
                    + moved + ".")
        ends.append(EndLoad(rep_id, w.target, role, rate, wp.latency_at_target_ms,
                            named,
                            busiest.utilization * 100.0 if busiest is not None else 0.0, tuple(own), text))
    return tuple(ends)


__all__ = ["EndLoad", "TRANSFER_BLOCK_KIB", "transfer_window", "transfer_workloads"]
