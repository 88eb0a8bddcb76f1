"""The bill of materials: what to order, grouped by model with quantities.

Every node of a scenario contributes lines (a shelf: the shelf and its drives; a host group: servers and adapters;
a link: its ports); lines of the same category, model and key figures are added up into one row, which names the
items it comes from. A design with 36 identical shelves gets one shelf row (quantity 36), not 36 rows.
"""


import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from models.capacity.fabricpool import CAPACITY_TIER_LABELS, capacity_tier_bytes, object_store_protection
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
    node_noun,
)
from models.catalog.limits import STORAGE_SWITCH_PAIR
from models.costing.inputs import HCI_HOST_HEIGHT_WORDS, HCI_HOST_RACK_UNITS
from models.formatting import fmt_capacity
from models.present.labels import policy_label
from models.present.nodes import drive_size, model_name, node_figures
from models.project.metrocluster import (
    PARTNER_SUFFIX,
    PARTNER_SWITCH_NOTE,
    is_metrocluster,
    is_partner,
    with_partner_site,
)
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
from models.topology import controller_of_shelf, runs_at_words, slower_switch
from models.units import CapacityUnit, format_capacity

BTU_PER_W = 3.412142
"""BTU per hour of one watt (1 W = 3.412142 BTU/hr, the international-table BTU)."""

__all__ = ["BTU_PER_W", "NO_PART_NUMBER", "BomRow", "Footprint", "PartFootprint", "bill_of_materials", "footprint",
           "part_footprints", "part_number"]


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
        in_footprint: the row is a controller system, shelf, drives or switch (its rack units and power are the
        design's footprint, :func:`footprint`), or vSAN hosts (their assumed height, power None); rack_units,
        power_w: the row's summed height and typical power, W
        (None: a part of it has no figure in the catalog; a drives row has 0 U, a controller's internal bays 0 U
        and 0 W as they sit in its chassis); part_number: the public part number ("" when none is published,
        :func:`part_number`).
    """

    category: str
    quantity: int | None
    model: str
    figures: str
    used_by: tuple[str, ...]
    catalog_id: str = ""
    in_footprint: bool = False
    rack_units: int | None = None
    power_w: float | None = None
    part_number: str = ""

    @property
    def btu_per_hr(self) -> float | None:
        """The row's typical heat output, BTU/hr (None when its power is unknown or not counted)."""
        return None if self.power_w is None else self.power_w * BTU_PER_W

    def footprint_cells(self) -> tuple[str, str, str]:
        """(rack units, typical W, BTU/hr) as text: "" for a row outside the footprint (hosts, adapters, link
        ports, licences, settings), "unknown" where the catalog gives no figure."""
        if not self.in_footprint:
            return "", "", ""
        ru = "unknown" if self.rack_units is None else f"{self.rack_units:,}"
        if self.power_w is None:
            return ru, "unknown", "unknown"
        return ru, f"{self.power_w:,.0f}", f"{self.power_w * BTU_PER_W:,.0f}"

    def part_number_text(self) -> str:
        """The part number, or "no public part number" where none is published for the row's model."""
        return self.part_number or NO_PART_NUMBER

    def used_by_text(self, limit: int = 4) -> str:
        """The items as text: all of them up to ``limit``, else the first ``limit`` and how many more."""
        names = self.used_by
        if len(names) <= limit:
            return ", ".join(names)
        return ", ".join(names[:limit]) + f" and {len(names) - limit} more"


NO_PART_NUMBER = "no public part number"
"""What a bill-of-materials row says where no part number is published for its model."""

_Line = tuple[str, int | None, str, str]
"""(category, quantity, model name, figures) of one bill-of-materials line."""


def memory_text(gib: float, per: str = "", name: str = "") -> str:
    """A server's or controller's memory (``gib`` GiB): ``512 GiB memory``, ``per`` (e.g. " per node") after the
    word memory. Memory is sold in binary sizes (JEDEC: a memory GB is 2^30 bytes), so the figure is named in the
    binary unit, GiB, as the assumptions table and every other binary figure of the report name it, never as a GB
    that reads as a decimal 10^9-byte GB. Where the model's ``name`` gives the same memory as the vendor sells it
    ("512 GB", "1 TB"), that is said to be the product name's: ``512 GiB memory (the model name's "512 GB": memory
    is sold in binary units)``."""
    sold = next((f"{v:g} {u}" for v, u in ((gib, "GB"), (gib / 1024, "TB"))
                 if re.search(rf"(?<![\d.]){v:g} {u}\b", name)), "")
    return f"{gib:g} GiB memory{per}" + (f" (the model name's \"{sold}\": memory is sold in binary units)"
                                         if sold else "")


INTERNAL_BAYS = "Internal bays (in the controller chassis)"
"""The category of a controller's own drive bays: part of the controller chassis, not a shelf to order."""


def _host_lines(node: HostNode, rec: Host | None, name: str, catalog: Catalog, unit: CapacityUnit) -> list[_Line]:
    """The lines of a host node; ``rec`` its catalog record (None when missing), ``name`` its model's name."""
    lines: list[_Line] = [("Hosts", node.count, name,
              f"{rec.sockets} sockets, {rec.cores} cores, {memory_text(rec.memory_gib, name=name)}" if rec else "")]
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


def _host_ports(rec: Controller) -> str:
    """``"; up to 28 × 64Gb FC, 18 × 100GbE ports per node"``: every host port kind the record gives (the
    key specifications' maximum with I/O cards), so an Ethernet design's bill does not list FC ports alone (review
    42: an NVMe/TCP A70 read "28 × 64Gb FC ports per node" and nothing of its 100GbE); "" when it gives none."""
    kinds = [f"{rec.fc_ports_per_node} × {rec.fc_port_speed_gbps}Gb FC"] if rec.fc_ports_per_node else []
    if rec.ethernet_ports_per_node:
        kinds.append(f"{rec.ethernet_ports_per_node} × {rec.ethernet_port_speed_gbps}GbE")
    return f"; up to {', '.join(kinds)} ports per {node_noun(rec.family)}" if kinds else ""


def _cores_basis(rec: Controller) -> str:
    """`` (assumed: not published)`` after a controller's core count its vendor does not publish (its provenance is
    not "sourced": every current ONTAP and E-Series record, review 57), so the parts list does not read an assumed
    count as a specification; "" for a published count."""
    return "" if rec.kind_of("cores_per_node") == "sourced" else " (assumed: not published)"


def _controller_lines(
    node: ControllerNode, rec: Controller | None, name: str, catalog: Catalog, unit: CapacityUnit
) -> list[_Line]:
    """The lines of a controller node; ``rec`` its catalog record (None when missing), ``name`` its model's name."""
    nodes = node.nodes or (rec.nodes if rec else None)
    fig = ""
    if rec:
        noun = node_noun(rec.family)  # an E-Series array's two controllers, an ONTAP HA pair's two nodes
        fig = (f"{nodes} {noun}s × {rec.cores_per_node} cores{_cores_basis(rec)}, "
               f"{memory_text(rec.memory_gib_per_node, f' per {noun}', name)}" + _host_ports(rec))
    lines = node_figures(node, catalog, unit)  # "2 nodes, ONTAP 9.0", "RAID DP, ADP root-data"
    if lines and nodes:
        lines[0] = lines[0].removeprefix(f"{nodes} {node_noun(rec.family) if rec else 'node'}s").lstrip(", ")
    fig += "; " + "; ".join(x for x in lines if x)
    return [("Controller system", 1, name, fig)]


RIGHT_SIZED_MORE_DIGITS = (3, 4)
"""Decimals a right-sized drive size gains, in turn, where at two it reads as the marketed size."""


def right_sized_text(marketed_bytes: float | None, right_sized_bytes: float, unit: CapacityUnit | str) -> str:
    """A drive's right-sized capacity in ``unit`` (``3.49 TiB``); in TB with 3 decimals, else 4, where at 2 it would
    read as the marketed size beside it (``models.present.nodes.drive_size``, in TB) while smaller (``3.84 TB SSD,
    right-sized 3.8395 TB``, never ``right-sized 3.84 TB``: review cons57 #7, in TB the right-sizing disappeared)."""
    text = fmt_capacity(right_sized_bytes, unit)
    if (CapacityUnit(unit) is not CapacityUnit.TB or marketed_bytes is None or right_sized_bytes == marketed_bytes
            or text != fmt_capacity(marketed_bytes, unit)):  # the marketed size is shown in TB (drive_size)
        return text
    for digits in RIGHT_SIZED_MORE_DIGITS:
        text = format_capacity(right_sized_bytes, unit, digits)
        if text != format_capacity(marketed_bytes, unit, digits):
            break
    return text


def _shelf_lines(node: ShelfNode, rec: Shelf | None, name: str, catalog: Catalog, unit: CapacityUnit) -> list[_Line]:
    """The lines of a shelf node; ``rec`` its catalog record (None when missing), ``name`` its model's name."""
    d = catalog.find(node.drive)
    fig = drive_size(catalog, node.drive, unit)
    if isinstance(d, Drive):
        fig += f", {d.interface}, right-sized {right_sized_text(d.marketed_bytes, d.right_sized_bytes, unit)}"
    if rec is not None and rec.internal:  # the controller's own bays: no shelf of their own to order or rack
        return [(INTERNAL_BAYS, 1, name, f"{rec.bays} bays"),
                ("Drives", node.drive_count, model_name(catalog, node.drive), fig)]
    return [("Shelf", 1, name, f"{rec.bays} bays, {rec.rack_units}U" if rec else ""),
            ("Drives", node.drive_count, model_name(catalog, node.drive), fig)]


def _hci_cluster_lines(
    node: HciClusterNode, rec: HciNode | None, name: str, catalog: Catalog, unit: CapacityUnit
) -> list[_Line]:
    """The lines of an HCI cluster node; ``rec`` its catalog record (None when missing), ``name`` its model's name."""
    fig = (f"{rec.cores} cores, {memory_text(rec.memory_gib, name=name)}, {rec.network_gbps:g} Gb/s network" if rec
           else "")
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
                  ("compression on (no deduplication on this platform)" if rec is not None
                   and "deduplication" not in rec.data_reductions else "deduplication and compression on")
                  if node.dedupe_compression else "no deduplication or compression"))
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
    lines.append(("Data disks" + (f" ({node.disk_count} per node, {node.disk_count * per} disks)" if node.ha else ""),
                  node.disk_count * per,
                  model_name(catalog, node.disk),
                  f"{fmt_capacity(dk.size_bytes, unit)} each, {dk.iops:,.0f} IOPS, {dk.mbps:,.0f} MB/s per disk"
                  if isinstance(dk, CloudDisk) else ""))
    nv = catalog.find(rec.nvram_disk) if rec is not None and rec.nvram_disk else None
    if isinstance(nv, CloudDisk) and rec is not None and rec.nvram_disk:
        lines.append(("NVRAM disk" + (" (1 per node)" if node.ha else ""), per, model_name(catalog, rec.nvram_disk),
                      f"{fmt_capacity(nv.size_bytes, unit)}, {nv.mbps:,.0f} MB/s: every write is logged here "
                      "first (normal write speed)"))
    from models.present.citations import customer_citation  # (a cloud VM's only: ~2 ms of every evaluate's imports)

    lic = catalog.find(node.licence)
    lines.append(("Licence", 1, model_name(catalog, node.licence),
                  f"capacity cap {fmt_capacity(lic.capacity_cap_bytes, unit)}, as of {customer_citation(lic.as_of)}"
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


def _capacity_tier_line(node: ControllerNode, scenario: Scenario, unit: CapacityUnit) -> tuple[str, str, str]:
    """(category, model, figures) of a controller's FabricPool capacity tier: the object store and the bytes it
    must hold and, for StorageGRID, the raw capacity its ILM protection needs (a bucket: its size in GiB, the
    provider's redundancy being in the price)."""
    held = capacity_tier_bytes(node, scenario.workloads)
    kind = CAPACITY_TIER_LABELS[node.capacity_tier]
    model = f"{kind} ({node.capacity_tier_name})" if node.capacity_tier_name else kind
    figures = f"holds {fmt_capacity(held, unit)} of cold data after storage efficiency"
    factor, scheme, _ = object_store_protection(node)
    if node.capacity_tier == "cloud-bucket":
        figures += f" ({held / 2**30:,.0f} GiB; the provider's redundancy is in its price)"
    else:
        figures += f"; needs {fmt_capacity(held * factor, unit)} raw ({scheme}, x {factor:.3g})"
    return "FabricPool capacity tier", model, figures


def _node_lines(node: Node, catalog: Catalog, unit: CapacityUnit) -> list[_Line]:
    """(category, quantity, model name, figures) lines of one node."""
    rec = catalog.find(node.catalog_id)
    name = model_name(catalog, node.catalog_id)
    lines_of = _LINES_BY_KIND.get(node.kind)
    if lines_of is not None:
        return lines_of(node, rec, name, catalog, unit)
    return [(node.kind.replace("_", " ").capitalize(), 1, name, "")]


def bill_of_materials(scenario: Scenario, catalog: Catalog, unit: CapacityUnit | str = CapacityUnit.TIB,
                      price_book: Sequence = ()) -> tuple[BomRow, ...]:
    """The scenario's bill of materials: rows grouped by (category, model, key figures), quantities added up,
    in the order each group first appears (nodes in scenario order, then link ports). Capacities in ``unit``.
    Controller, shelf, drives and switch rows carry their summed rack units and typical power
    (:func:`part_footprints`; the rows' sums are :func:`footprint`'s totals); every row its part number
    (:func:`part_number`, from ``price_book``, the project's ``PriceRow`` records, or the catalog)."""
    unit = CapacityUnit(unit)
    scenario = with_partner_site(scenario, catalog)  # a MetroCluster's partner site (models.project.metrocluster)
    names = node_names(scenario.nodes, catalog)
    parts = {p.node_id: p for p in part_footprints(scenario, catalog)}
    groups: dict[tuple[str, str, str], list] = {}
    ids: dict[str, str] = {}
    for node in scenario.nodes:
        referenced = _referenced_ids(node, catalog)
        part = parts.get(node.id)
        for k, (category, quantity, model, figures) in enumerate(_node_lines(node, catalog, unit)):
            if quantity == 0 and category == "Drives":  # an active-passive MetroCluster's partner shelf
                continue
            if model in referenced:
                ids.setdefault(model, referenced[model])
            entry = groups.setdefault((category, model, figures), [None, [], False, 0, 0.0])
            if quantity is not None:
                entry[0] = (entry[0] or 0) + quantity
            if names[node.id] not in entry[1]:
                entry[1].append(names[node.id])
            if isinstance(node, HciClusterNode) and k == 0:  # the hosts: assumed height, power not in the catalog
                entry[2] = True
                entry[3] = None if entry[3] is None else entry[3] + node.hosts * HCI_HOST_RACK_UNITS
                entry[4] = None
            if part is not None and k < 2:  # the node's own line (and a shelf's drives line)
                ru, watts = (part.height, part.enclosure_w) if k == 0 else (0, part.drives_w)
                if category == INTERNAL_BAYS and ru == 0 and watts == 0:
                    continue  # bays inside the controller chassis: its row gives their height and power

                entry[2] = True
                entry[3] = None if ru is None or entry[3] is None else entry[3] + ru
                entry[4] = None if watts is None or entry[4] is None else entry[4] + watts
        if isinstance(node, ControllerNode) and node.capacity_tier != "none":
            entry = groups.setdefault(_capacity_tier_line(node, scenario, unit), [None, [], False, 0, 0.0])
            entry[1].append(names[node.id])
        if isinstance(node, ControllerNode) and node.storage_switch:
            category, quantity, model, figures = _storage_switch_line(node, catalog)
            ids.setdefault(model, node.storage_switch)
            entry = groups.setdefault((category, model, figures), [0, [], False, 0, 0.0])
            entry[0] += quantity
            entry[1].append(names[node.id])
            part = parts.get(storage_switch_part_id(node.id))
            if part is not None:
                entry[2] = True
                entry[3] = None if part.height is None or entry[3] is None else entry[3] + part.height
                entry[4] = None if part.power_w is None or entry[4] is None else entry[4] + part.power_w
    if is_metrocluster(scenario):  # the switches joining the sites: no model in the catalog
        groups[("MetroCluster IP switches", "NetApp-validated or MetroCluster-compliant switches",
                PARTNER_SWITCH_NOTE)] = [None, [], False, 0, 0.0]
    for link in scenario.links:
        lt = catalog.find(link.link_type)
        ids.setdefault(model_name(catalog, link.link_type), link.link_type)
        figures = f"{lt.payload_mbps:,.0f} MB/s per port" if isinstance(lt, LinkType) else ""
        slower = slower_switch(scenario, catalog, link)
        if slower is not None and isinstance(lt, LinkType):  # the ports sold run at the switch's speed
            figures = f"{lt.speed_gbps:g}Gb port, {figures}; {runs_at_words(slower)}"
        entry = groups.setdefault(("Link ports", model_name(catalog, link.link_type), figures),
                                  [0, [], False, 0, 0.0])
        entry[0] += link.ports
        entry[1].append(f"{names.get(link.source, link.source)} \u2192 {names.get(link.target, link.target)}")
    rows = []
    for (category, model, figures), (quantity, used, counted, ru, watts) in groups.items():
        cid = ids.get(model, "")
        rows.append(BomRow(category, quantity, model, figures, tuple(used), cid, counted,
                           ru if counted else None, watts if counted else None,
                           part_number(catalog, cid, price_book)[0]))
    return tuple(rows)


PART_NUMBER_PATTERNS = (
    r"\bX\d{3}[A-Z]\b",  # NetApp drive part numbers as TR-3838 lists them (X410A, X446B)
    r"\bSSDSC\w+\b",  # Intel SSD DC order codes (SSDSC2BX400G4)
    r"\b(?:QLE|LPe)\d{4,5}(?:-[A-Z0-9]+)?\b",  # QLogic / Emulex (Broadcom) HBA models (QLE2562, LPe32002-M2)
)
"""Part numbers the catalog records carry in their names (the only place the bundled catalog states them)."""


def part_number(catalog: Catalog, catalog_id: str, price_book: Sequence = ()) -> tuple[str, str]:
    """(part number, where it comes from) of a catalog record: the project's price book row when it gives one
    ("price book"), else the record's ``part_number`` (a public order number with its source, "catalog"), else a
    part number written in the record's name (:data:`PART_NUMBER_PATTERNS`, "catalog"),
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
    if record is not None and record.part_number:
        return record.part_number, "catalog"
    name = record.name if record is not None else ""
    for pattern in PART_NUMBER_PATTERNS:
        match = re.search(pattern, name)
        if match:
            return match.group(0), "catalog"
    return "", ""


@dataclass(frozen=True)
class PartFootprint:
    """The rack space and typical power one item of a design adds (controllers, shelves with their drives,
    switches).

    Attributes:
        name: the item's name; kind: "controller", "shelf" or "switch"; rack_units: its height (0 for internal
        bays, which sit in the controller chassis); power_w: its typical power, W, enclosure plus drives (None when a
        figure it needs is not in the catalog); missing: what the catalog gives no figure for (e.g. "power of
        NetApp NS224", "power of 24 x NetApp 3.8TB NVMe SSD"); node_id: the scenario node; enclosure_w, drives_w:
        the enclosure's and (a shelf's) drives' share of ``power_w`` (None when unknown; drives_w 0 for a
        controller or switch); chassis_of: for a controller's internal bays that are its chassis (an E-Series
        controller shelf, whose height the bays' record gives), that controller's name, else "".
    """

    name: str
    kind: str
    rack_units: int
    power_w: float | None
    missing: tuple[str, ...] = ()
    node_id: str = ""
    enclosure_w: float | None = None
    drives_w: float | None = None
    chassis_of: str = ""

    @property
    def height(self) -> int | None:
        """The rack units, None when the catalog gives no height (``rack_units`` then counts 0)."""
        return None if any(m.startswith("height of") for m in self.missing) else self.rack_units


@dataclass(frozen=True)
class Footprint:
    """The design's rack space and typical power, as far as the catalog knows them.

    Attributes:
        rack_units: summed rack units of the controllers, external shelves and switches (a part with no height
        counts nothing and is named in ``unknown``); power_w: summed typical power, W, of every figure the catalog
        gives (a part whose enclosure's power is unknown still adds its drives', as the bill of materials' rows
        show them; a lower bound when ``unknown`` is not empty); unknown: the items with a figure missing
        (named, so a total is never silently short); parts: each item's own figures; sites: 2 for a MetroCluster
        (both sites counted: ``models.project.metrocluster``), else 1; hci_hosts: the host count of each vSAN
        cluster (not in ``rack_units`` or ``power_w``: the catalog gives no host height or power; the text counts
        them at :data:`~models.costing.inputs.HCI_HOST_RACK_UNITS` U each, assumed, as the cost section does);
        cloud_only: the design has cloud VMs or managed services and nothing on site.
    """

    rack_units: int
    power_w: float
    unknown: tuple[str, ...]
    parts: tuple[PartFootprint, ...] = ()
    sites: int = 1
    hci_hosts: tuple[int, ...] = ()
    cloud_only: bool = False

    @property
    def total_rack_units(self) -> int:
        """:attr:`rack_units` plus the vSAN hosts at their assumed height (the bill of materials' total)."""
        return self.rack_units + sum(self.hci_hosts) * HCI_HOST_RACK_UNITS

    @property
    def complete(self) -> bool:
        """True when every part's height and power are known (the totals are then the design's, not bounds)."""
        return not self.unknown

    @property
    def known_power_w(self) -> float | None:
        """The total typical power, W, when every part's is known; None otherwise (never a number that could
        satisfy a power limit while a part is missing)."""
        return self.power_w if self.complete else None

    @property
    def btu_per_hr(self) -> float:
        """The typical heat output, BTU/hr (:data:`BTU_PER_W` per watt) of :attr:`power_w`."""
        return self.power_w * BTU_PER_W

    @property
    def counted_words(self) -> str:
        """What the totals count, in words: ``controllers, shelves, drives and switches``; for a MetroCluster (two
        sites) ``controllers, shelves and drives`` (with ``and storage switches`` when the design has them) ``of
        both MetroCluster sites, without the MetroCluster IP switches``: its bill of materials lists those switches
        without a model or figures, so no total counts them."""
        if self.sites <= 1:
            return "controllers, shelves, drives and switches"
        switches = any(p.kind == "switch" for p in self.parts)
        parts = "controllers, shelves, drives and storage switches" if switches else "controllers, shelves and drives"
        return parts + " of both MetroCluster sites, without the MetroCluster IP switches"

    def text(self) -> str:
        """``12 U and 2,150 W (7,336 BTU/hr) typical for controllers, shelves, drives and switches`` (``at least``
        and the items without a figure when some are missing)."""
        if self.cloud_only:
            return "no rack space or power on site: the design runs in the cloud provider's data centre"
        ru_bound = "at least " if any(p.height is None for p in self.parts) else ""
        bound = "" if self.complete else "at least "
        if self.hci_hosts:
            hosts = sum(self.hci_hosts)
            what = f"{hosts} vSAN host{'s' if hosts != 1 else ''}"
            out = (f"{ru_bound}{self.total_rack_units} U, with the {what} at {HCI_HOST_RACK_UNITS} U each "
                   f"(assumed: {HCI_HOST_HEIGHT_WORDS}); ")
            if not self.parts:
                return out + f"typical power not known (the catalog gives no power figure for the {what})"
            return out + (f"at least {self.power_w:,.0f} W ({self.btu_per_hr:,.0f} BTU/hr) typical for the "
                          f"controllers, shelves, drives and switches, not counting the {what}' power (the catalog "
                          "gives no figure)" + (f" or {', '.join(self.unknown)}" if self.unknown else ""))
        out = (f"{ru_bound}{self.rack_units} U and {bound}{self.power_w:,.0f} W ({self.btu_per_hr:,.0f} BTU/hr) "
               f"typical for {self.counted_words}")
        if self.unknown:
            out += f" (not counted, the catalog gives no figure for: {', '.join(self.unknown)})"
        return out


def _drives_power(drive: object, count: int) -> tuple[float | None, str]:
    """(typical power W of ``count`` drives of record ``drive``, or None; what is missing, "" when known)."""
    if count <= 0:
        return 0.0, ""
    watts = getattr(drive, "typical_power_w", None)
    if not isinstance(watts, (int, float)):
        name = getattr(drive, "name", "a drive not in the catalog")
        return None, f"power of {count} x {name}"
    return count * float(watts), ""


def part_footprints(scenario: Scenario, catalog: Catalog) -> tuple[PartFootprint, ...]:
    """Rack units and typical power of each controller, shelf and switch of the scenario, in scenario order
    (hosts are the customer's servers and are left out; a cloud VM, HCI cluster or managed service has no
    footprint here).

    Rules: a controller counts its record's ``rack_units`` and ``typical_power_w`` (the HA pair, as NetApp's key
    specifications give them). A shelf counts its enclosure (``rack_units``, ``typical_power_w``, which excludes
    drives) plus its drives (``drive_count`` x the drive record's ``typical_power_w``). A controller's internal
    bays (a shelf record with ``internal``) sit in the controller chassis, whose height and power the controller
    record already gives (e.g. the AFF A150 key specifications: '2U chassis with 2 HA controllers and 24 drive
    slots'): the bays add their drives only, unless the controller record has no height because its chassis is
    the bays' record (an E-Series controller shelf: E2812 / E2824 / E2860): then the bays' record gives the height
    and enclosure power, once. NetApp's key specifications do not say whether a controller's typical power
    includes its internal drives: they are added (the total may be high by their share, never low). A switch
    counts its ``rack_units`` and ``typical_power_w``. A MetroCluster's partner site (its HA pair, shelves and, when it
    runs the same workloads, drives: :func:`models.project.metrocluster.with_partner_site`) is counted too, its
    items named "... (partner site)"."""
    scenario = with_partner_site(scenario, catalog)
    names = node_names(scenario.nodes, catalog)
    out: list[PartFootprint] = []
    chassis_in_bays = set()  # controllers whose chassis is their internal bays' record (E-Series controller shelves)
    for node in scenario.nodes:
        if isinstance(node, ShelfNode) and getattr(catalog.find(node.catalog_id), "internal", False):
            owner = controller_of_shelf(scenario, node.id)
            if owner is not None and not getattr(catalog.find(owner.catalog_id), "rack_units", None):
                chassis_in_bays.add(owner.id)
    chassis_power_unknown = set()  # those controllers whose chassis (the bays' record) has no power figure either
    for node in scenario.nodes:
        if node.kind not in ("controller", "shelf", "switch"):
            continue
        rec = catalog.find(node.catalog_id)
        label = (rec.name if rec is not None else f"{node.catalog_id} (not in catalog)") + (
            PARTNER_SUFFIX if is_partner(node.id) else "")
        missing: list[str] = []
        enclosure = True
        chassis_of = ""
        if isinstance(node, ShelfNode) and getattr(rec, "internal", False):
            owner = controller_of_shelf(scenario, node.id)
            owner_rec = catalog.find(owner.catalog_id) if owner is not None else None
            enclosure = owner_rec is not None and not getattr(owner_rec, "rack_units", None)
            if enclosure and owner is not None:
                chassis_of = names[owner.id]
        height = getattr(rec, "rack_units", None) if enclosure and node.id not in chassis_in_bays else 0
        watts = getattr(rec, "typical_power_w", None) if enclosure else 0.0
        if height is None:
            missing.append(f"height of {label}")
        enclosure_w: float | None = float(watts) if watts is not None else None
        drives_w: float | None = 0.0
        what = ""
        if isinstance(node, ShelfNode):
            drives_w, what = _drives_power(catalog.find(node.drive), node.drive_count)
        if watts is None:
            if chassis_of:  # the controller's chassis: named once, on the controller's part, with what is counted
                chassis_power_unknown.add(chassis_of)
            else:
                missing.append(f"power of {label}")
        if what:
            missing.append(what)
        power = enclosure_w + drives_w if enclosure_w is not None and drives_w is not None else None
        out.append(PartFootprint(names[node.id], node.kind, int(height or 0), power, tuple(missing), node.id,
                                 enclosure_w, drives_w, chassis_of))
        if isinstance(node, ControllerNode) and node.storage_switch:
            out.append(_storage_switch_part(node, names[node.id], catalog))
    return tuple(_chassis_missing(p, out) if p.name in chassis_power_unknown else p for p in out)


STORAGE_SWITCHES = "Storage switches"
"""The bill-of-materials category of a switch-attached design's storage switch pair."""


def storage_switch_count(node: ControllerNode) -> int:
    """The storage switches a switch-attached controller orders: ``storage_switch_pairs`` pairs."""
    return STORAGE_SWITCH_PAIR * node.storage_switch_pairs


def storage_switch_part_id(node_id: str) -> str:
    """The part id of a controller's storage switch pair (not a scenario node: the controller node names them)."""
    return f"{node_id}#storage-switches"


def _storage_switch_part(node: ControllerNode, name: str, catalog: Catalog) -> PartFootprint:
    """The pair of storage switches a controller's switch-attached shelves are cabled through
    (``ControllerNode.storage_switch``): their height and typical power, each of the pair by its record."""
    rec = catalog.find(node.storage_switch)
    n = storage_switch_count(node)
    label = (f"{n} x {rec.name}" if rec is not None else f"{node.storage_switch} (not in catalog)")
    height = getattr(rec, "rack_units", None)
    watts = getattr(rec, "typical_power_w", None)
    missing = ([f"height of {label}"] if height is None else []) + ([f"power of {label}"] if watts is None else [])
    power = None if watts is None else n * float(watts)
    return PartFootprint(f"{label} (storage switches of {name})", "switch", n * int(height or 0),
                         power, tuple(missing), storage_switch_part_id(node.id), power, 0.0)


def _storage_switch_line(node: ControllerNode, catalog: Catalog) -> _Line:
    """The bill-of-materials line of a controller's storage switch pair."""
    rec = catalog.find(node.storage_switch)
    fig = "switch-attached NS224 shelves, each shelf and controller cabled to both"
    if isinstance(rec, Switch):
        fig += f"; {rec.ports} × {rec.speed_gbps}Gb {rec.medium} ports each"
    return (STORAGE_SWITCHES, storage_switch_count(node), model_name(catalog, node.storage_switch), fig)


def _chassis_missing(controller: PartFootprint, parts: Sequence[PartFootprint]) -> PartFootprint:
    """``controller`` (whose chassis is its internal bays' record, an E-Series controller shelf, and has no power
    figure) with its missing power said once for the whole chassis, controllers and drive bays, and what is
    counted: the drives' power (review 53b: the note named the bays' node, "24 x 3.84TB NVMe SSD", as not counted
    while the drives' 288 W were)."""
    drives = [p for p in parts if p.chassis_of == controller.name]
    watts = sum(p.drives_w or 0.0 for p in drives)
    counted = f"; the drives' {watts:,.0f} W are counted" if watts else ""
    what = (f"power of the {controller.name} chassis (its controllers and drive bays, without the drives"
            f"{counted})")
    kept = tuple(m for m in controller.missing if not m.startswith("power of "))
    return dataclasses.replace(controller, missing=(*kept, what))


def footprint(scenario: Scenario, catalog: Catalog) -> Footprint:
    """Rack units and typical power of the scenario's controllers, shelves (enclosure and drives) and switches
    (:func:`part_footprints` gives the rules): the sums of the known figures, with the items whose figures are
    missing named in ``unknown`` (the totals are then lower bounds, :attr:`Footprint.complete` False)."""
    parts = part_footprints(scenario, catalog)
    ru = sum(p.rack_units for p in parts)
    power = 0.0
    for p in parts:  # the sum of the known figures: a part whose enclosure's power is unknown still adds its drives
        if p.power_w is not None:
            power += p.power_w
        else:
            power += (p.enclosure_w or 0.0) + (p.drives_w or 0.0)
    unknown = tuple(dict.fromkeys(m for p in parts for m in p.missing))  # what is missing, said once
    hci = tuple(n.hosts for n in scenario.nodes if isinstance(n, HciClusterNode))
    cloud_only = not parts and not hci and any(isinstance(n, (CloudVmNode, ManagedServiceNode))
                                               for n in scenario.nodes)
    return Footprint(ru, power, unknown, parts, 2 if any(is_partner(p.node_id) for p in parts) else 1, hci,
                     cloud_only)
