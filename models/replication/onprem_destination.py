"""The sizer's search for an on-premises SnapMirror destination: the smallest catalog ONTAP array that holds the
relationship's copies grown over the horizon and takes its transfers' writes beside its own workloads.

Candidates are the sizer's own array designs (``models.sizing``: every ONTAP controller with each drive and shelf
count it builds, one front-end protocol each), for the destination's own workloads and hosts plus the transfer's
writes (``models.replication.load``: sequential 64 KiB writes at the rate a transfer runs). They are tried smallest
first (rack units, typical power, then raw capacity: drives x marketed size); a design whose raw capacity is below
the copies cannot hold them and is skipped unbuilt. The first design whose usable capacity less its own workloads'
use holds the copies (capacity engine) and whose performance takes the transfer's writes and keeps every one of its
own workloads within its SLO at its target (performance engine) is proposed. At most :data:`MAX_TRIED` designs are
evaluated.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from models.catalog import Catalog
from models.catalog.schema import Controller, Drive
from models.project.model import ControllerNode, Requirements, Scenario
from models.replication.figures import ReplicationFigures

MAX_TRIED = 200
"""Designs evaluated at most before the search gives up (each is a capacity and a performance evaluation)."""


@dataclass(frozen=True)
class OnPremDestination:
    """The proposed destination array.

    Attributes:
        summary: the design in words (controller, drives, shelves, protocol); controller_id: its catalog id.
        free_bytes: its usable capacity less its own workloads' use (physical bytes).
        transfer_latency_ms: the transfer's writes' latency at their rate (ms).
        rack_units, power_w: its footprint (power None when a record lacks it).
        tried: designs evaluated to find it.
    """

    summary: str
    controller_id: str
    free_bytes: float
    transfer_latency_ms: float
    rack_units: int
    power_w: float | None
    tried: int


ArrayDesigns = Callable[[Scenario, Catalog, Requirements], Iterable[Any]]
"""The sizer's unbuilt array designs for a base scenario (``models.sizing._array_specs``, passed in by the sizer: a
lower layer does not import it): each with ``summary``, ``ru``, ``power``, ``scenario`` (built on use) and its
builder's arguments (controller, internal bays, shelf, drive, shelf count)."""


def _args(spec: Any) -> tuple:
    """The builder's positional arguments of an unbuilt design (() when it has none): an array design's
    (``models.sizing._ArraySpec``) are its base scenario (None here: not read) and its ``parts`` (hosts, controller,
    internal bays, shelf, drive, shelf count, front end, sites), as ``models.sizing._design`` takes them."""
    parts = getattr(spec, "parts", None)
    if parts is not None:
        return (None, *parts)
    build = getattr(spec, "_build", None)
    return tuple(getattr(build, "args", ()))


def _raw_bytes(spec: Any) -> float:
    """Drives x marketed size of an unbuilt sizer design (``models.sizing._Spec``: its builder's controller, shelves
    and drive); inf when the builder is not the array one (never skipped)."""
    args = _args(spec)
    if len(args) < 7 or not isinstance(args[5], Drive):
        return float("inf")
    inside, shelf, drive, count = args[3], args[4], args[5], args[6]
    drives = (inside.bays if inside is not None else 0) + count * (shelf.bays if shelf is not None else 0)
    return float(drives * drive.marketed_bytes)


def _base(scenario: Scenario, target_id: str, figures: ReplicationFigures) -> Scenario:
    """The destination alone: its hosts (those linked to it), its own enabled workloads and the transfer's writes
    at ``figures``' transfer rate."""
    from models.replication.load import transfer_workloads

    linked = {link.source for link in scenario.links if link.target == target_id}
    hosts = [n for n in scenario.nodes if n.kind == "host" and n.id in linked]
    own = [w for w in scenario.workloads if w.target == target_id and w.enabled]
    writes = [w for w in transfer_workloads((figures,)) if w.id.endswith(".replication-write")]
    return scenario.model_copy(update={"nodes": hosts, "links": [], "workloads": [*own, *writes],
                                       "replications": []})


def search_destination(scenario: Scenario, catalog: Catalog, target: ControllerNode, figures: ReplicationFigures,
                       needed_bytes: float, designs: ArrayDesigns) -> OnPremDestination | None:
    """The smallest array (module docstring) for relationship ``figures`` whose destination is ``target``, holding
    ``needed_bytes`` (physical) of copies; None when no design of the catalog (within :data:`MAX_TRIED`) does.
    ``designs``: :data:`ArrayDesigns`."""
    from models.capacity import evaluate_capacity
    from models.catalog.describe import storage_summary
    from models.performance import evaluate_performance
    from models.replication import destination_free_bytes
    from models.replication.endpoints import endpoint_problem

    record = catalog.find(target.catalog_id)
    family = record.family if isinstance(record, Controller) else "ONTAP"
    base = _base(scenario, target.id, figures)
    specs = [s for s in designs(base, catalog, Requirements(families=[family])) if _raw_bytes(s) >= needed_bytes]
    specs.sort(key=lambda s: (s.ru, s.power if s.power is not None else float("inf"), _raw_bytes(s)))
    seen: set[tuple] = set()
    tried = 0
    for spec in specs:
        args = _args(spec)
        storage = tuple(id(a) for a in args[2:7]) if len(args) >= 7 else (spec.summary,)
        if storage in seen:  # the same array over another protocol: the first protocol is enough
            continue
        seen.add(storage)
        tried += 1
        if tried > MAX_TRIED:
            return None
        design = spec.scenario
        array = next((n for n in design.nodes if n.kind == "controller"), None)
        if array is None:
            continue
        swapped = scenario.model_copy(update={"nodes": [array.model_copy(update={"id": target.id})
                                                        if n.id == target.id else n for n in scenario.nodes]})
        if endpoint_problem(swapped, catalog, figures.source_id, target.id, figures.kind):
            continue  # the source cannot replicate to it (an ASA r2 system to anything but another)
        try:
            free = destination_free_bytes(evaluate_capacity(design, catalog), array.id)
            if free is None or free < needed_bytes:
                continue
            performance = evaluate_performance(design, catalog)
        except Exception:  # noqa: BLE001 - a design the engines cannot build is no proposal
            continue
        results = {wp.workload_id: wp for wp in performance.workloads}
        write = next((wp for wid, wp in results.items() if wid.endswith(".replication-write")), None)
        if write is not None and write.latency_at_target_ms is None:
            continue
        own_ok = all(wp.latency_at_target_ms is not None and wp.latency_at_target_ms <= wp.slo_ms
                     for wid, wp in results.items() if not wid.endswith(".replication-write")
                     and wp.target_iops is not None)
        if not own_ok:
            continue
        summary = spec.summary
        if not any(n.kind == "host" for n in base.nodes) and len(args) >= 7:
            summary = storage_summary(*args[2:7])  # no hosts: no front end to name
        controller = array.catalog_id
        return OnPremDestination(summary, controller, free,
                                 write.latency_at_target_ms if write is not None and write.latency_at_target_ms
                                 is not None else 0.0, spec.ru, spec.power, tried)
    return None


__all__ = ["ArrayDesigns", "MAX_TRIED", "OnPremDestination", "search_destination"]
