"""The bill of materials: what to order, grouped by model with quantities.

Every node of a scenario contributes lines (a shelf: the shelf and its drives; a host group: servers and adapters;
a link: its ports); lines of the same category, model and key figures are added up into one row, which names the
items it comes from. A design with 36 identical shelves gets one shelf row (quantity 36), not 36 rows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from models.catalog import (
    Adapter,
    Catalog,
    CloudDisk,
    CloudVm,
    Controller,
    Drive,
    HciNode,
    Host,
    Licence,
    LinkType,
    ManagedService,
    Shelf,
    Switch,
)
from models.formatting import fmt_capacity
from models.present.citations import customer_citation
from models.present.labels import policy_label
from models.present.nodes import drive_size, model_name, node_figures
from models.project.model import (
    CloudVmNode,
    ControllerNode,
    HciClusterNode,
    HostNode,
    ManagedServiceNode,
    Node,
    Scenario,
    ShelfNode,
    SwitchNode,
)
from models.project.names import node_names
from models.topology import controller_of_shelf
from models.units import CapacityUnit

__all__ = ["BomRow", "bill_of_materials", "part_number"]


@dataclass(frozen=True)
class BomRow:
    """One row of the bill of materials.

    Attributes:
        category: what it is ("Controller system", "Shelf", "Drives", "Link ports"...).
        quantity: how many to order (None for a setting such as a vSAN storage policy).
        model: the catalog model's name (``<id> (not in catalog)`` when missing).
        figures: the model's key figures in words.
        used_by: the names of the items (nodes, links) the row adds up, in scenario order.
        catalog_id: the catalog record ordered ("" for a setting such as a vSAN storage policy).
    """

    category: str
    quantity: int | None
    model: str
    figures: str
    used_by: tuple[str, ...]
    catalog_id: str = ""

    def used_by_text(self, limit: int = 4) -> str:
        """The items as text: all of them up to ``limit``, else the first ``limit`` and how many more."""
        names = self.used_by
        if len(names) <= limit:
            return ", ".join(names)
        return ", ".join(names[:limit]) + f" and {len(names) - limit} more"


_Line = tuple[str, int | None, str, str]
"""(category, quantity, model name, figures) of one bill-of-materials line."""


def _host_lines(node: HostNode, rec: Host | None, name: str, catalog: Catalog, unit: CapacityUnit) -> list[_Line]:
    """The lines of a host node; ``rec`` its catalog record (None when missing), ``name`` its model's name."""
    lines: list[_Line] = [("Hosts", node.count, name,
              f"{rec.sockets} sockets, {rec.cores} cores, {rec.memory_gib:g} GiB memory" if rec else "")]
    if node.adapter:
        a = catalog.find(node.adapter)
        per_host = f"{node.adapters_per_host} per host"
        lines.append(("Host adapters", node.count * node.adapters_per_host, model_name(catalog, node.adapter),
                      f"{per_host}; {a.ports} × {a.speed_gbps}Gb ports, {a.adapter_type}" if isinstance(a, Adapter)
                      else per_host))
    return lines


def _switch_lines(node: SwitchNode, rec: Switch | None, name: str, catalog: Catalog, unit: CapacityUnit) -> list[_Line]:
    """The lines of a switch node; ``rec`` its catalog record (None when missing), ``name`` its model's name."""
    fig = f"{rec.ports} × {rec.speed_gbps}Gb {rec.medium} ports, {rec.latency_us:g} µs latency" if rec else ""
    return [("Switch", 1, name, fig)]


def _controller_lines(
    node: ControllerNode, rec: Controller | None, name: str, catalog: Catalog, unit: CapacityUnit
) -> list[_Line]:
    """The lines of a controller node; ``rec`` its catalog record (None when missing), ``name`` its model's name."""
    nodes = node.nodes or (rec.nodes if rec else None)
    fig = ""
    if rec:
        fig = (f"{nodes} nodes × {rec.cores_per_node} cores, {rec.memory_gib_per_node:g} GiB memory per node; "
               f"{rec.fc_ports_per_node} × {rec.fc_port_speed_gbps}Gb FC ports per node")
    lines = node_figures(node, catalog, unit)  # "2 nodes, ONTAP 9.0", "RAID DP, ADP root-data"
    if lines and nodes:
        lines[0] = lines[0].removeprefix(f"{nodes} nodes").lstrip(", ")
    fig += "; " + "; ".join(x for x in lines if x)
    return [("Controller system", 1, name, fig)]


def _shelf_lines(node: ShelfNode, rec: Shelf | None, name: str, catalog: Catalog, unit: CapacityUnit) -> list[_Line]:
    """The lines of a shelf node; ``rec`` its catalog record (None when missing), ``name`` its model's name."""
    d = catalog.find(node.drive)
    fig = drive_size(catalog, node.drive, unit)
    if isinstance(d, Drive):
        fig += f", {d.interface}, right-sized {fmt_capacity(d.right_sized_bytes, unit)}"
    return [("Shelf", 1, name, f"{rec.bays} bays, {rec.rack_units}U" if rec else ""),
            ("Drives", node.drive_count, model_name(catalog, node.drive), fig)]


def _hci_cluster_lines(
    node: HciClusterNode, rec: HciNode | None, name: str, catalog: Catalog, unit: CapacityUnit
) -> list[_Line]:
    """The lines of an HCI cluster node; ``rec`` its catalog record (None when missing), ``name`` its model's name."""
    fig = f"{rec.cores} cores, {rec.memory_gib:g} GiB memory, {rec.network_gbps:g} Gb/s network" if rec else ""
    lines: list[_Line] = [("HCI hosts", node.hosts, name, fig)]
    groups = node.hosts * node.disk_groups_per_host
    if rec is not None and node.architecture == "esa":
        # ESA: one storage pool per host, every device is capacity (no cache tier)
        per_host = node.disk_groups_per_host * node.capacity_drives_per_group
        lines.append((f"Storage-pool NVMe devices ({per_host} per host)", node.hosts * per_host,
                      model_name(catalog, rec.capacity_drive), drive_size(catalog, rec.capacity_drive, unit)))
    elif rec is not None:
        if rec.cache_drive:
            lines.append(("Cache drives (1 per disk group)", groups, model_name(catalog, rec.cache_drive),
                          drive_size(catalog, rec.cache_drive, unit)))
        lines.append((f"Capacity drives ({node.capacity_drives_per_group} per disk group)",
                      groups * node.capacity_drives_per_group, model_name(catalog, rec.capacity_drive),
                      drive_size(catalog, rec.capacity_drive, unit)))
    lines.append(("Storage policy", None, policy_label(node.policy),
                  "deduplication and compression on" if node.dedupe_compression
                  else "no deduplication or compression"))
    return lines


def _cloud_vm_lines(
    node: CloudVmNode, rec: CloudVm | None, name: str, catalog: Catalog, unit: CapacityUnit
) -> list[_Line]:
    """The lines of a cloud VM node; ``rec`` its catalog record (None when missing), ``name`` its model's name."""
    per = 2 if node.ha else 1  # each node of an HA pair has its own (mirrored) set of disks
    lines: list[_Line] = [(f"Cloud VMs ({'HA pair' if node.ha else 'single node'})", per, name,
              f"{rec.vm_size}: {rec.vcpu} vCPU, {rec.ram_gib:g} GiB RAM, {rec.network_mbps:,.0f} Mbit/s network"
              if rec else "")]
    dk = catalog.find(node.disk)
    lines.append(("Data disks" + (f" ({node.disk_count} per node)" if node.ha else ""), node.disk_count * per,
                  model_name(catalog, node.disk),
                  f"{fmt_capacity(dk.size_bytes, unit)} each, {dk.iops:,.0f} IOPS, {dk.mbps:,.0f} MB/s per disk"
                  if isinstance(dk, CloudDisk) else ""))
    nv = catalog.find(rec.nvram_disk) if rec is not None and rec.nvram_disk else None
    if isinstance(nv, CloudDisk) and rec is not None and rec.nvram_disk:
        lines.append(("NVRAM disk" + (" (1 per node)" if node.ha else ""), per, model_name(catalog, rec.nvram_disk),
                      f"{fmt_capacity(nv.size_bytes, unit)}, {nv.mbps:,.0f} MB/s: every write is logged here "
                      "first (normal write speed)"))
    lic = catalog.find(node.licence)
    lines.append(("Licence", 1, model_name(catalog, node.licence),
                  f"capacity cap {fmt_capacity(lic.capacity_cap_bytes, unit)} (as of {customer_citation(lic.as_of)})"
                  if isinstance(lic, Licence) else ""))
    return lines


def _managed_lines(
    node: ManagedServiceNode, rec: ManagedService | None, name: str, catalog: Catalog, unit: CapacityUnit
) -> list[_Line]:
    """The lines of a managed service node: the provisioned capacity (and throughput where it is bought)."""
    from models.performance.managed import throughput_limit_mbps

    if rec is None:
        return [("Managed service", 1, name, fmt_capacity(node.provisioned_bytes, unit) + " provisioned")]
    fig = (f"{rec.service}, {rec.service_level}: {fmt_capacity(node.provisioned_bytes, unit)} provisioned, "
           f"{throughput_limit_mbps(node, rec):,.0f} MB/s")
    return [("Managed service", 1, name, fig)]


_LINES_BY_KIND: dict[str, Callable[..., list[_Line]]] = {
    "host": _host_lines,
    "switch": _switch_lines,
    "controller": _controller_lines,
    "shelf": _shelf_lines,
    "hci_cluster": _hci_cluster_lines,
    "cloud_vm": _cloud_vm_lines,
    "managed_service": _managed_lines,
}
"""Node kind -> the lines its nodes contribute (a test checks that every kind of the node-kind table has one)."""


_REFERENCES = ("catalog_id", "adapter", "drive", "disk", "licence", "cache_drive", "capacity_drive", "nvram_disk")
"""Fields of a node or of its catalog record that name another catalog record a bill-of-materials line orders."""


def _referenced_ids(node: Node, catalog: Catalog) -> dict[str, str]:
    """Model name -> catalog id of every record ``node`` orders (its own, its adapter, drives, disks, licence and
    the drives or NVRAM disk its record names), so each line's model can be traced to the record it orders."""
    rec = catalog.find(node.catalog_id)
    ids: dict[str, str] = {}
    for source in (node, rec):
        for field in _REFERENCES:
            value = getattr(source, field, None) if source is not None else None
            if isinstance(value, str) and value:
                ids.setdefault(model_name(catalog, value), value)
    return ids


def _node_lines(node: Node, catalog: Catalog, unit: CapacityUnit) -> list[_Line]:
    """(category, quantity, model name, figures) lines of one node."""
    rec = catalog.find(node.catalog_id)
    name = model_name(catalog, node.catalog_id)
    lines_of = _LINES_BY_KIND.get(node.kind)
    if lines_of is not None:
        return lines_of(node, rec, name, catalog, unit)
    return [(node.kind.replace("_", " ").capitalize(), 1, name, "")]


def bill_of_materials(scenario: Scenario, catalog: Catalog,
                      unit: CapacityUnit | str = CapacityUnit.TIB) -> tuple[BomRow, ...]:
    """The scenario's bill of materials: rows grouped by (category, model, key figures), quantities added up,
    in the order each group first appears (nodes in scenario order, then link ports). Capacities in ``unit``."""
    unit = CapacityUnit(unit)
    names = node_names(scenario.nodes, catalog)
    groups: dict[tuple[str, str, str], list] = {}
    ids: dict[str, str] = {}
    for node in scenario.nodes:
        referenced = _referenced_ids(node, catalog)
        for category, quantity, model, figures in _node_lines(node, catalog, unit):
            if model in referenced:
                ids.setdefault(model, referenced[model])
            entry = groups.setdefault((category, model, figures), [None, []])
            if quantity is not None:
                entry[0] = (entry[0] or 0) + quantity
            if names[node.id] not in entry[1]:
                entry[1].append(names[node.id])
    for link in scenario.links:
        lt = catalog.find(link.link_type)
        ids.setdefault(model_name(catalog, link.link_type), link.link_type)
        figures = f"{lt.payload_mbps:,.0f} MB/s per port" if isinstance(lt, LinkType) else ""
        entry = groups.setdefault(("Link ports", model_name(catalog, link.link_type), figures), [0, []])
        entry[0] += link.ports
        entry[1].append(f"{names.get(link.source, link.source)} \u2192 {names.get(link.target, link.target)}")
    return tuple(BomRow(category, quantity, model, figures, tuple(used), ids.get(model, ""))
                 for (category, model, figures), (quantity, used) in groups.items())


PART_NUMBER_PATTERNS = (
    r"\bX\d{3}[A-Z]\b",  # NetApp drive part numbers as TR-3838 lists them (X410A, X446B)
    r"\bSSDSC\w+\b",  # Intel SSD DC order codes (SSDSC2BX400G4)
    r"\b(?:QLE|LPe)\d{4,5}(?:-[A-Z0-9]+)?\b",  # QLogic / Emulex (Broadcom) HBA models (QLE2562, LPe32002-M2)
)
"""Part numbers the catalog records carry in their names (the only place the bundled catalog states them)."""


def part_number(catalog: Catalog, catalog_id: str, price_book: Sequence = ()) -> tuple[str, str]:
    """(part number, where it comes from) of a catalog record: the project's price book row when it gives one
    ("price book"), else a part number written in the record's name (:data:`PART_NUMBER_PATTERNS`, "catalog"),
    else ("", ""): StorPlan never makes one up.

    Args:
        catalog: the project's catalog; catalog_id: the record ("" gives ("", "")); price_book: the project's
        ``PriceRow`` records (``catalog_id``, ``part_number``).
    """
    if not catalog_id:
        return "", ""
    for row in price_book:
        if row.catalog_id == catalog_id and row.part_number:
            return row.part_number, "price book"
    record = catalog.find(catalog_id)
    name = record.name if record is not None else ""
    for pattern in PART_NUMBER_PATTERNS:
        match = re.search(pattern, name)
        if match:
            return match.group(0), "catalog"
    return "", ""


@dataclass(frozen=True)
class Footprint:
    """The design's rack space and typical power, as far as the catalog knows them.

    Attributes:
        rack_units: summed rack units of the controllers (their record's ``rack_units``) and shelves;
        power_w: summed typical power, W, of the records that give it; unknown: the items whose record gives
        no height or power (named, so a total is never silently short).
    """

    rack_units: int
    power_w: float
    unknown: tuple[str, ...]

    def text(self) -> str:
        """``12 U and 2,150 W typical for the storage (no power figure for: shelf A, shelf B)``."""
        out = f"{self.rack_units} U and {self.power_w:,.0f} W typical for the storage"
        if self.unknown:
            out += f" (not counted, the catalog gives no figure for: {', '.join(self.unknown)})"
        return out


def footprint(scenario: Scenario, catalog: Catalog) -> Footprint:
    """Rack units and typical power of the scenario's controllers and shelves (hosts and switches are the
    customer's and are left out). A controller's internal bays (a shelf record with ``internal``) sit in the
    controller chassis, whose height and power the controller record already gives (e.g. the AFF A150 key
    specifications: '2U chassis with 2 HA controllers and 24 drive slots', one typical power for both): they add
    nothing, unless the controller record has no height because its chassis is the bays' record (an E-Series
    controller shelf: E2812 / E2824 / E2860): then the bays' record gives the height and power, once."""
    names = node_names(scenario.nodes, catalog)
    ru, power, unknown = 0, 0.0, []
    for node in scenario.nodes:
        if node.kind not in ("controller", "shelf"):
            continue
        rec = catalog.find(node.catalog_id)
        if node.kind == "shelf" and getattr(rec, "internal", False):
            owner = controller_of_shelf(scenario, node.id)
            owner_rec = catalog.find(owner.catalog_id) if owner is not None else None
            if owner_rec is None or getattr(owner_rec, "rack_units", None):  # unlinked: as the chassis
                continue
        height = getattr(rec, "rack_units", None)
        watts = getattr(rec, "typical_power_w", None)
        if height:
            ru += height
        if watts:
            power += watts
        if not height or not watts:
            unknown.append(names[node.id])
    return Footprint(ru, power, tuple(unknown))
