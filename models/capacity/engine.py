"""Entry point of the capacity engine: ``evaluate_capacity(scenario, catalog) -> ScenarioCapacity``.

A system is a ControllerNode with the ShelfNodes linked to it (either direction, and through shelf-to-shelf
links, as shelves are daisy-chained), an HciClusterNode, or a CloudVmNode. The enabled workloads whose ``target``
is a system feed its effective side. User mistakes (unknown catalog ids, impossible RAID layouts, ...) become
``problems`` naming the node; the engine never raises for them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from models import topology
from models.capacity.array import array_capacity
from models.capacity.cloud import cloud_capacity
from models.capacity.efficiency import effective_side
from models.capacity.hci import applied_reductions, hci_capacity
from models.capacity.layout import RaidLayout, _controller_where, _renamed, controller_layout, hci_layout, where_text
from models.capacity.managed import managed_capacity
from models.capacity.ontap import entry_internal_drives, ontap_capacity
from models.capacity.physical import Physical
from models.capacity.results import CapacityResult, CapacityTotals, EfficiencyDetail, ScenarioCapacity
from models.catalog import (
    Catalog,
    CatalogError,
    CloudDisk,
    CloudVm,
    Controller,
    Drive,
    Entry,
    HciNode,
    Licence,
    ManagedService,
    Shelf,
)
from models.catalog.limits import platform_limit_problems
from models.project import (
    CloudVmNode,
    ControllerNode,
    HciClusterNode,
    ManagedServiceNode,
    Scenario,
    ShelfNode,
    Workload,
)
from models.project.names import node_name, node_names

E = TypeVar("E", bound=Entry)

SystemNode = ControllerNode | HciClusterNode | CloudVmNode | ManagedServiceNode


def _where(kind: str, node: SystemNode | ShelfNode, label: str) -> str:
    """How problems name a node (``layout.where_text``)."""
    return where_text(kind, node.id, label)


def controller_shelves(scenario: Scenario, names: Mapping[str, str] | None = None
                       ) -> tuple[dict[str, list[ShelfNode]], list[str]]:
    """Controller id -> its shelves (reached through links, shelf chains included; ``models.topology``) and the
    problems found: shelves two controllers reach, shelves no controller reaches, each node named as the canvas
    and the Problems list name it (``names``: ``names.node_names`` of the scenario, "NetApp AFF A400 HA pair #2",
    never its id; None: by its label or id)."""
    topo = topology.of(scenario)
    result = {ctl.id: topo.shelves_of(ctl.id) for ctl in topo.nodes_of_kind("controller")}
    if names is None:
        names = {n.id: n.label or n.id for n in scenario.nodes}
    problems = [f"shelf '{names.get(s.shelf_id, s.shelf_id)}' is linked to controllers '{names.get(s.owner, s.owner)}' "
                f"and '{names.get(s.other, s.other)}'; its drives are counted for '{names.get(s.owner, s.owner)}' "
                "only." for s in topo.shared_shelves]
    for shelf in topo.unowned_shelves():
        problems.append(f"shelf '{names.get(shelf.id, shelf.id)}' is linked to no controller; "
                        f"its {shelf.drive_count} drives are not counted.")
    return result, problems


def _told_apart(node: SystemNode, names: Mapping[str, str] | None, catalog: Catalog, own: str) -> str:
    """The name a system's results and problems give it: ``own`` (its label, else its model's name), or, when
    another node of the design has the same name, the name that tells them apart on the canvas and in the
    Problems list (``names.node_names``: "NetApp AFF A400 HA pair #2")."""
    name = names.get(node.id) if names is not None else None
    return name if name and name != node_name(node, catalog) else own


def bay_overflow(shelf: ShelfNode, record: Shelf) -> int:
    """Drives of a shelf beyond its catalog record's bays (0 when they fit). The one bay check: the problems
    check and the capacity waterfall both ask it."""
    return max(shelf.drive_count - record.bays, 0)


def _empty(node: SystemNode, label: str, family: str, problems: list[str]) -> CapacityResult:
    return CapacityResult(node.id, label, family, (), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, None,
                          problems=tuple(problems))


def _finish(node: SystemNode, label: str, family: str, phys: Physical, workloads: Sequence[Workload],
            **flags: Any) -> CapacityResult:
    side = effective_side(workloads, phys.usable_bytes, **flags)
    inline = (bool(flags.get("compression", True)), bool(flags.get("compaction", True)),
              bool(flags.get("dedupe", True)))
    return CapacityResult(
        system_id=node.id, system_label=label, family=family, steps=tuple(phys.steps) + side.steps,
        raw_bytes=phys.raw_bytes, right_sized_bytes=phys.right_sized_bytes, usable_bytes=phys.usable_bytes,
        effective_bytes=side.effective_bytes, logical_used_bytes=side.logical_used_bytes,
        physical_used_bytes=side.physical_used_bytes, data_reduction_ratio=side.data_reduction_ratio,
        efficiency_ratio=side.efficiency_ratio, months_until_full=side.months_until_full,
        layout=tuple(phys.layout), notes=tuple(dict.fromkeys(list(phys.notes) + list(side.notes))),
        problems=tuple(dict.fromkeys(phys.problems)), aggregates=tuple(phys.aggregates), efficiency=side.detail,
        usable_step_count=len(phys.steps), inline_efficiency=inline, reduction_off=flags.get("reduction_off", ""),
    )


def _find(catalog: Catalog, entry_id: str, kind: type[E]) -> E | None:
    """The catalog record ``entry_id`` if it is a ``kind``, else None."""
    record = catalog.find(entry_id)
    return record if isinstance(record, kind) else None


def _controller(node: ControllerNode, shelves: list[ShelfNode], catalog: Catalog, workloads: Sequence[Workload],
                layout: RaidLayout | None = None, names: Mapping[str, str] | None = None) -> CapacityResult:
    """One controller's capacity: its shelves' problems, then the family's waterfall from its RAID layout
    (``layout``: as ``raid_layouts`` built it; None: built here from the same drives). ``names``: the design's
    node names (``names.node_names``), which tell apart two controllers or shelves of one name; None: each by its
    label or model."""
    problems: list[str] = []
    try:
        controller = catalog.get(node.catalog_id, Controller)
    except CatalogError as exc:
        label = _told_apart(node, names, catalog, node.label or node.id)
        return _empty(node, label, "unknown", [f"{_where('controller', node, label)}: {exc}"])
    label = _told_apart(node, names, catalog, node.label or controller.name)
    where = _where("controller", node, label)
    if layout is not None and label != (node.label or controller.name):  # its problems name it as the others do
        layout = _renamed(layout, _controller_where(node, catalog), where, node.id)
    counts: dict[str, list] = {}
    for shelf in shelves:
        swhere = _where("shelf", shelf, names.get(shelf.id, shelf.label or shelf.id) if names is not None
                        else shelf.label or shelf.id)
        try:
            shelf_record = catalog.get(shelf.catalog_id, Shelf)
            if bay_overflow(shelf, shelf_record):
                problems.append(f"{swhere}: {shelf.drive_count} drives exceed the {shelf_record.bays} bays of "
                                f"{shelf_record.name}.")
        except CatalogError as exc:
            problems.append(f"{swhere}: {exc}")
        try:
            drive = catalog.get(shelf.drive, Drive)
        except CatalogError as exc:
            problems.append(f"{swhere}: {exc}; its drives are not counted.")
            continue
        if shelf.drive_count <= 0:
            problems.append(f"{swhere}: holds no drives.")
            continue
        counts.setdefault(drive.id, [drive, 0])[1] += shelf.drive_count
    drives = [(d, n) for d, n in counts.values()]
    linked = [(_find(catalog, s.catalog_id, Shelf), _find(catalog, s.drive, Drive), s.drive_count) for s in shelves]
    problems += [f"{where}: {text}." for text in platform_limit_problems(controller, linked, bool(node.storage_switch))]
    internal = entry_internal_drives(controller, shelves, catalog)
    if layout is None:
        layout = controller_layout(node, controller, drives, where, internal)
    if controller.family == "ONTAP":
        phys = ontap_capacity(node, controller, drives, where, internal, layout)
        flags = dict(compression=True, compaction=True, dedupe=True, platform="ONTAP",
                     capacity_tier=(node.tiering_policy if node.tiering_policy != "auto" else True)
                     if node.capacity_tier != "none" else False)
        if node.capacity_tier != "none":  # the object store's own protection, shown in the FabricPool step
            from models.capacity.fabricpool import object_store_protection

            flags["object_store"] = object_store_protection(node)[:2]
    else:
        phys = array_capacity(node, controller, drives, where, layout)
        inline = controller.family == "generic"
        flags = dict(compression=inline, compaction=False, dedupe=inline, platform=controller.family)
    phys.problems[:0] = problems
    return _finish(node, label, controller.family, phys, workloads, **flags)


def _hci(node: HciClusterNode, catalog: Catalog, workloads: Sequence[Workload],
         layout: RaidLayout | None = None, names: Mapping[str, str] | None = None) -> CapacityResult:
    """One vSAN cluster's capacity, its policy's factor from its RAID layout (``layout``; None: built here)."""
    label = _told_apart(node, names, catalog, node.label or node.id)
    try:
        host = catalog.get(node.catalog_id, HciNode)
        label = _told_apart(node, names, catalog, node.label or host.name)
        capacity = catalog.get(host.capacity_drive, Drive)
    except CatalogError as exc:
        return _empty(node, label, "vSAN", [f"{_where('HCI cluster', node, label)}: {exc}"])
    cache = catalog.find(host.cache_drive)
    if layout is None:
        layout = hci_layout(node, capacity)
    phys = hci_capacity(node, host, capacity, cache if isinstance(cache, Drive) else None,
                        _where("HCI cluster", node, label), layout)
    factor = layout.groups[0].stripe_factor
    compress, dedupe = applied_reductions(node, host)  # the host record's data_reductions (vSAN 8 ESA: compression)
    off = ""  # the platform reduces (all-flash only: hci_capacity's problem), the design's setting does not let it
    if not node.dedupe_compression and host.all_flash and host.data_reductions:
        off = (f"deduplication and compression are turned off in this design ({host.platform} applies "
               f"{' and '.join(host.data_reductions)} when they are on)")
    return _finish(node, label, "vSAN", phys, workloads, compression=compress, compaction=False,
                   dedupe=dedupe, platform="vSAN ESA" if node.architecture == "esa" else "vSAN",
                   protection_factor=factor, reduction_off=off)


def _cloud(node: CloudVmNode, catalog: Catalog, workloads: Sequence[Workload],
           names: Mapping[str, str] | None = None) -> CapacityResult:
    label = _told_apart(node, names, catalog, node.label or node.id)
    try:
        vm = catalog.get(node.catalog_id, CloudVm)
        label = _told_apart(node, names, catalog, node.label or f"Cloud Volumes ONTAP {vm.vm_size}")
        licence = catalog.get(node.licence, Licence)
        disk = catalog.get(node.disk, CloudDisk)
    except CatalogError as exc:
        return _empty(node, label, "Cloud Volumes ONTAP", [f"{_where('cloud VM', node, label)}: {exc}"])
    phys = cloud_capacity(node, vm, licence, disk, _where("cloud VM", node, label))
    return _finish(node, label, "Cloud Volumes ONTAP", phys, workloads, platform="Cloud Volumes ONTAP")


def _managed(node: ManagedServiceNode, catalog: Catalog, workloads: Sequence[Workload],
             names: Mapping[str, str] | None = None) -> CapacityResult:
    label = _told_apart(node, names, catalog, node.label or node.id)
    try:
        record = catalog.get(node.catalog_id, ManagedService)
    except CatalogError as exc:
        return _empty(node, label, "managed service", [f"{_where('managed service', node, label)}: {exc}"])
    label = _told_apart(node, names, catalog, node.label or record.name)
    phys = managed_capacity(node, record, _where("managed service", node, label))
    on = record.data_reduction
    return _finish(node, label, record.service, phys, workloads, compression=on, compaction=on, dedupe=on,
                   platform=record.service)


_SYSTEMS = {
    "controller": lambda node, shelves, catalog, wl, layout, names: _controller(node, shelves.get(node.id, []),
                                                                                catalog, wl, layout, names),
    "hci_cluster": lambda node, shelves, catalog, wl, layout, names: _hci(node, catalog, wl, layout, names),
    "cloud_vm": lambda node, shelves, catalog, wl, layout, names: _cloud(node, catalog, wl, names),
    "managed_service": lambda node, shelves, catalog, wl, layout, names: _managed(node, catalog, wl, names),
}
"""System node kind (``models.project.kinds.SYSTEM_KINDS``) -> its capacity model."""


def evaluate_capacity(scenario: Scenario, catalog: Catalog,
                      raid: Mapping[str, RaidLayout] | None = None) -> ScenarioCapacity:
    """The capacity waterfall of every system of a scenario, and their totals: over the systems that serve
    workloads; a system that serves none and is the destination of a replication relationship holds copies of
    another system's data, so it is left out of the totals (``ScenarioCapacity.replica_only``) and keeps its own
    figures.

    ``raid``: the scenario's RAID layouts (``models.capacity.layout.raid_layouts`` of the same scenario and
    catalog, built once per evaluation and shared with the performance engine); None (or a system missing from
    it): each system's layout is built here, by the same functions, from the drives counted here.
    Pure: the same scenario and catalog give the same result; nothing is read or written.
    """
    names = node_names(scenario.nodes, catalog)  # two systems of one name told apart, as on the canvas
    shelves, problems = controller_shelves(scenario, names)
    systems_nodes = topology.of(scenario).systems
    ids = {n.id for n in systems_nodes}
    by_target: dict[str, list[Workload]] = {}
    for w in scenario.workloads:
        if not w.enabled:
            continue
        if w.target not in ids:
            problems.append(f"workload '{w.name}' targets '{names.get(w.target, w.target)}', which is not a "
                            "controller, HCI cluster or cloud VM; its data is not counted.")
            continue
        by_target.setdefault(w.target, []).append(w)
    results = [_SYSTEMS[node.kind](node, shelves, catalog, by_target.get(node.id, []),
                                   raid.get(node.id) if raid is not None else None, names) for node in systems_nodes]
    for result in results:
        problems.extend(result.problems)
    destinations = {rep.target for rep in scenario.replications}
    replica_only = tuple(n.id for n in systems_nodes if n.id in destinations and n.id not in by_target)
    counted = [r for r in results if r.system_id not in replica_only]
    return ScenarioCapacity(tuple(results), totals(counted), tuple(dict.fromkeys(problems)), replica_only)


def totals(results: Sequence[CapacityResult]) -> CapacityTotals:
    """Byte sums over systems; ratios as total logical / total physical (1.0 without data)."""
    logical = sum(r.logical_used_bytes for r in results)
    physical = sum(r.physical_used_bytes for r in results)
    data_l = sum(r.efficiency.logical_data_bytes for r in results)
    data_p = sum(r.efficiency.physical_data_bytes for r in results)
    months = [r.months_until_full for r in results if r.months_until_full is not None]
    return CapacityTotals(
        raw_bytes=sum(r.raw_bytes for r in results), right_sized_bytes=sum(r.right_sized_bytes for r in results),
        usable_bytes=sum(r.usable_bytes for r in results), effective_bytes=sum(r.effective_bytes for r in results),
        logical_used_bytes=logical, physical_used_bytes=physical,
        data_reduction_ratio=data_l / data_p if data_l > 0 and data_p > 0 else 1.0,
        efficiency_ratio=logical / physical if logical > 0 and physical > 0 else 1.0,
        months_until_full=min(months) if months else None,
        effective_with_snapshots_bytes=sum(r.effective_with_snapshots_bytes for r in results),
    )


__all__ = ["bay_overflow", "controller_shelves", "evaluate_capacity", "totals", "EfficiencyDetail"]
