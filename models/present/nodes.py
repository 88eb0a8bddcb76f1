"""The key figures of a node: as its box in the report's topology and its bill-of-materials lines print them
("2 nodes, ONTAP 9.0", "RAID DP, ADP root-data", "24 x 800 GB SSD"), and the one compact line its canvas item
shows (:func:`key_figures`: "24 x 800GB SSD", "RAID DP, ADP") with the item's title (:func:`display_title`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from models.catalog import (
    Adapter,
    Catalog,
    CloudVm,
    Controller,
    Drive,
    HciNode,
    Host,
    ManagedService,
    Shelf,
    Switch,
    node_noun,
)
from models.formatting import finite, fmt_capacity
from models.present.labels import RAID_LABEL, policy_label, raid_label
from models.project.model import (
    CloudVmNode,
    ControllerNode,
    HciClusterNode,
    HostNode,
    ManagedServiceNode,
    NodeBase,
    ShelfNode,
    SwitchNode,
)
from models.units import CapacityUnit

__all__ = ["adapter_model", "display_title", "drive_size", "key_figures", "marketed", "model_name",
           "node_figures"]


def model_name(catalog: Catalog, entry_id: str | None, short: bool = False) -> str:
    """A catalog record's name (``short``: without its parenthesised detail); ``<id> (not in catalog)`` when the
    record is missing, "" for no id."""
    if not entry_id:
        return ""
    record = catalog.find(entry_id)
    if record is None:
        return f"{entry_id} (not in catalog)"
    name = record.name
    if short and " (" in name:
        name = name.split(" (", 1)[0]
    return name


def drive_size(catalog: Catalog, drive_id: str, unit: CapacityUnit | str = CapacityUnit.TB) -> str:
    """A drive's marketed size (decimal, as sold, whatever ``unit``), speed and media, e.g. ``800 GB SSD``,
    ``300 GB 15K HDD``; the id when the drive is not in the catalog."""
    record = catalog.find(drive_id)
    if record is None:
        return drive_id
    marketed = getattr(record, "marketed_bytes", None)
    size = fmt_capacity(marketed, CapacityUnit.TB).replace(".00 ", " ") if finite(marketed) else ""
    rpm = getattr(record, "rpm", None)
    return " ".join(x for x in (size, f"{rpm // 1000}K" if rpm else "", getattr(record, "media", "")) if x)


def _host_figures(node: HostNode, record: Host | None, catalog: Catalog, unit: CapacityUnit | str) -> list[str]:
    """The figures of a host node; ``record`` its catalog record (None when missing)."""
    lines = [f"{node.count} × {model_name(catalog, node.catalog_id, short=True)}"]
    if node.adapter:
        lines.append(f"{node.adapters_per_host} × {model_name(catalog, node.adapter, short=True)} per host")
    return lines


def _switch_figures(node: SwitchNode, record: Switch | None, catalog: Catalog, unit: CapacityUnit | str) -> list[str]:
    """The figures of a switch node; ``record`` its catalog record (None when missing)."""
    if record is None:
        return [node.catalog_id]
    return [f"{record.ports} × {record.speed_gbps}Gb {record.medium} ports"]


def _controller_figures(
    node: ControllerNode, record: Controller | None, catalog: Catalog, unit: CapacityUnit | str
) -> list[str]:
    """The figures of a controller node; ``record`` its catalog record (None when missing)."""
    nodes = node.nodes or getattr(record, "nodes", None)
    software = node.software or getattr(record, "default_software", "")
    family = getattr(record, "family", "")
    platform = family if software in ("", family) else f"{family} {software}".strip()
    first = ", ".join(x for x in (f"{nodes} {node_noun(family)}s" if nodes else "", platform) if x)
    raid = raid_label(node.raid_type)
    if node.raid_group_size:
        raid += f" (groups of {node.raid_group_size})"
    if node.adp != "none":
        raid += f", ADP {node.adp}"
    n_switches = 2 * node.storage_switch_pairs
    switched = (f"switch-attached shelves ({n_switches} × {model_name(catalog, node.storage_switch)})"
                if node.storage_switch else "")
    return [x for x in (first, raid, switched) if x]


def _shelf_figures(node: ShelfNode, record: Shelf | None, catalog: Catalog, unit: CapacityUnit | str) -> list[str]:
    """The figures of a shelf node; ``record`` its catalog record (None when missing)."""
    return [f"{node.drive_count} × {drive_size(catalog, node.drive, unit)}"]


def _reductions_short(record: HciNode | None) -> str:
    """What an HCI cluster with deduplication and compression on applies, short: "dedupe+compression", or
    "compression" for a host record that does not deduplicate (vSAN 8 ESA: ``HciNode.data_reductions``)."""
    return "compression" if record is not None and "deduplication" not in record.data_reductions \
        else "dedupe+compression"


def _hci_cluster_figures(
    node: HciClusterNode, record: HciNode | None, catalog: Catalog, unit: CapacityUnit | str
) -> list[str]:
    """The figures of an HCI cluster node; ``record`` its catalog record (None when missing). An ESA cluster has
    one storage pool per host (no disk groups): its devices per host are groups x devices."""
    sites = (f" stretched over two sites ({node.hosts // 2} + {node.hosts // 2} and a witness, "
             f"{node.inter_site_rtt_ms:g} ms, {node.inter_site_gbps:g} Gb/s apart)" if node.stretched else "")
    if node.architecture == "esa":
        return [
            f"{node.hosts} hosts, vSAN ESA{sites}",
            f"{node.disk_groups_per_host * node.capacity_drives_per_group} storage-pool devices per host",
            policy_label(node.policy) + (", " + _reductions_short(record) if node.dedupe_compression else ""),
        ]
    return [
        f"{node.hosts} hosts × {node.disk_groups_per_host} disk groups{sites}",
        f"{node.capacity_drives_per_group} capacity drives per group",
        policy_label(node.policy) + (", dedupe+compression" if node.dedupe_compression else ""),
    ]


def _cloud_vm_figures(
    node: CloudVmNode, record: CloudVm | None, catalog: Catalog, unit: CapacityUnit | str
) -> list[str]:
    """The figures of a cloud VM node; ``record`` its catalog record (None when missing)."""
    vm = getattr(record, "vm_size", node.catalog_id)
    return [
        f"{vm}, {'HA pair' if node.ha else 'single node'}",
        f"{node.disk_count} × {model_name(catalog, node.disk, short=True)}",
        model_name(catalog, node.licence, short=True),
    ]


def _managed_figures(
    node: ManagedServiceNode, record: ManagedService | None, catalog: Catalog, unit: CapacityUnit | str
) -> list[str]:
    """The figures of a managed service node; ``record`` its catalog record (None when missing)."""
    from models.performance.managed import iops_limit, throughput_limit_mbps

    if record is None:
        return [fmt_capacity(node.provisioned_bytes, unit) + " provisioned"]
    iops = iops_limit(node, record)
    figures = [f"{record.service}, {record.service_level}",
               fmt_capacity(node.provisioned_bytes, unit) + " provisioned",
               f"{throughput_limit_mbps(node, record):,.0f} MB/s" + (f", {iops:,.0f} IOPS" if iops else "")]
    if record.max_read_iops and record.max_write_iops:
        figures.append(f"volume: {record.max_read_iops:,.0f} reads or {record.max_write_iops:,.0f} writes per s")
    return figures


_FIGURES_BY_KIND: dict[str, Callable[..., list[str]]] = {
    "host": _host_figures,
    "switch": _switch_figures,
    "controller": _controller_figures,
    "shelf": _shelf_figures,
    "hci_cluster": _hci_cluster_figures,
    "cloud_vm": _cloud_vm_figures,
    "managed_service": _managed_figures,
}
"""Node kind -> its figures (a test checks that every kind of the node-kind table has one)."""


def node_figures(node: NodeBase, catalog: Catalog, unit: CapacityUnit | str = CapacityUnit.TIB) -> list[str]:
    """The key figures of a project node, one short line each (empty for an unknown kind)."""
    figures_of = _FIGURES_BY_KIND.get(node.kind)
    return figures_of(node, catalog.find(node.catalog_id), catalog, unit) if figures_of is not None else []


# --- the canvas item's line -------------------------------------------------------------------------------------


def marketed(size: float) -> str:
    """Vendor-style decimal size: 800GB, 1.6TB."""
    return f"{size / 1e12:.3g}TB" if size >= 1e12 else f"{size / 1e9:.3g}GB"


def adapter_model(name: str) -> str:
    """The part number an engineer knows an adapter by: 'QLE2562', 'LPe32002' ('' for a generic NIC)."""
    match = re.search(r"\b([A-Z][A-Za-z]{1,3}\d{3,6})(?:-[A-Z0-9]+)?\b", name)
    return match.group(1) if match else ""


def display_title(node: NodeBase, title: str) -> str:
    """The item's title without a leading "10 x " when the key figures already say "10 hosts"."""
    count = getattr(node, "count", None)
    match = re.match(r"\s*(\d+)\s*[x×]\s+(.+)", title)
    if node.kind == "host" and match and int(match.group(1)) == count:
        return match.group(2)
    return title


def _shelf_line(node: ShelfNode, catalog: Catalog) -> str:
    """The canvas line of a shelf."""
    drive = catalog.find(node.drive)
    if isinstance(drive, Drive):
        return f"{node.drive_count} x {marketed(drive.marketed_bytes)} {drive.media}"
    return f"{node.drive_count} x {node.drive}"


def _controller_line(node: ControllerNode, catalog: Catalog) -> str:
    """The canvas line of a controller."""
    text = raid_label(node.raid_type)
    if node.raid_group_size:
        text += f" rg {node.raid_group_size}"
    if node.adp != "none":
        text += ", ADP"
    if node.storage_switch:
        text += ", switch-attached"
    return text


def _hci_cluster_line(node: HciClusterNode, catalog: Catalog) -> str:
    """The canvas line of an HCI cluster."""
    record = catalog.find(node.catalog_id)
    compress_only = isinstance(record, HciNode) and "deduplication" not in record.data_reductions
    dedupe = (", compression" if compress_only else ", dedupe") if node.dedupe_compression else ""
    esa = " ESA" if node.architecture == "esa" else ""
    hosts = (f"{node.hosts // 2}+{node.hosts // 2}+witness hosts" if node.stretched and node.hosts >= 2
             else f"{node.hosts} hosts")
    mirrored = "site mirror + " if node.stretched else ""
    return f"{hosts}{esa}, {mirrored}{policy_label(node.policy)}{dedupe}"


def _host_line(node: HostNode, catalog: Catalog) -> str:
    """The canvas line of a host group."""
    adapter = catalog.find(node.adapter) if node.adapter else None
    hosts = f"{node.count} host{'s' if node.count > 1 else ''}"
    if not isinstance(adapter, Adapter):
        return f"{hosts}, no adapter"
    speed = f"{adapter.speed_gbps}Gb" if adapter.adapter_type == "FC HBA" else f"{adapter.speed_gbps}GbE"
    per_host = f"{node.adapters_per_host} x " if node.adapters_per_host > 1 else ""
    model = adapter_model(adapter.name)
    if model:
        return f"{hosts} · {per_host}{model} {speed}"
    return f"{hosts} · {per_host}{speed} {'FC HBA' if adapter.adapter_type == 'FC HBA' else 'NIC'}"


def _cloud_vm_line(node: CloudVmNode, catalog: Catalog) -> str:
    """The canvas line of a cloud VM."""
    disk = catalog.find(node.disk)
    tier = getattr(disk, "tier", None) or node.disk
    return f"{node.disk_count} x {tier}{', HA' if node.ha else ''}, {RAID_LABEL.get(node.raid_type, '')}"


def _switch_line(node: SwitchNode, catalog: Catalog) -> str:
    """The canvas line of a switch."""
    record = catalog.find(node.catalog_id)
    return (f"{getattr(record, 'medium', '')} {getattr(record, 'speed_gbps', '')}Gb, "
            f"{getattr(record, 'ports', '?')} ports")


def _managed_line(node: ManagedServiceNode, catalog: Catalog) -> str:
    """The canvas line of a managed service: its level, size and throughput limit."""
    from models.performance.managed import throughput_limit_mbps

    record = catalog.find(node.catalog_id)
    size = fmt_capacity(node.provisioned_bytes, CapacityUnit.TIB)
    if not isinstance(record, ManagedService):
        return size
    return f"{record.service_level}, {size}, {throughput_limit_mbps(node, record):,.0f} MB/s"


_LINE_BY_KIND: dict[str, Callable[..., str]] = {
    "host": _host_line,
    "switch": _switch_line,
    "controller": _controller_line,
    "shelf": _shelf_line,
    "hci_cluster": _hci_cluster_line,
    "cloud_vm": _cloud_vm_line,
    "managed_service": _managed_line,
}
"""Node kind -> its canvas line (a test checks that every kind of the node-kind table has one)."""


def key_figures(node: NodeBase, catalog: Catalog) -> str:
    """The one line an engineer reads on the node's canvas item: '24 x 800GB SSD', 'RAID DP, ADP',
    '4 hosts, FTT=1 RAID 1' ("" for an unknown kind)."""
    figures_of = _LINE_BY_KIND.get(node.kind)
    return figures_of(node, catalog) if figures_of is not None else ""
