"""New nodes and links with sensible defaults, for palette drops, examples and tests."""

from __future__ import annotations

import re

from models.catalog import (
    Catalog,
    CloudDisk,
    CloudVm,
    Controller,
    Drive,
    Entry,
    HciNode,
    Host,
    Shelf,
    Switch,
)

from .model import (
    CloudVmNode,
    ControllerNode,
    HciClusterNode,
    HostNode,
    NodeBase,
    Scenario,
    ShelfNode,
    SwitchNode,
)


class NotANodeError(ValueError):
    """The catalog record cannot become a canvas item on its own (e.g. a drive or an adapter)."""


def next_id(scenario: Scenario, prefix: str) -> str:
    """A node / link / workload id ``prefix-N`` not used yet in the scenario."""
    prefix = re.sub(r"[^A-Za-z0-9._-]+", "-", prefix).strip("-") or "item"
    used = {n.id for n in scenario.nodes} | {link.id for link in scenario.links} | {w.id for w in scenario.workloads}
    n = 1
    while f"{prefix}-{n}" in used:
        n += 1
    return f"{prefix}-{n}"


def default_raid(controller: Controller) -> str:
    """The default protection of a controller family: RAID DP for ONTAP, DDP for E-Series, RAID5 otherwise
    (public_facts.md: 'Default RAID: RAID DP for SSD and performance HDD'; SANtricity DDP)."""
    return {"ONTAP": "raid_dp", "E-Series": "ddp"}.get(controller.family, "raid5")


def new_node(entry: Entry, node_id: str, catalog: Catalog, x: float = 0.0, y: float = 0.0) -> NodeBase:
    """A canvas item for a catalog record, with defaults a sizing engineer would start from.

    Raises:
        NotANodeError: the record is a drive, adapter, link, disk or licence (these are set on an item,
            not placed on their own).
    """
    common = {"id": node_id, "catalog_id": entry.id, "label": entry.name, "x": x, "y": y}
    if isinstance(entry, Host):
        adapters = catalog.of_kind("adapter")
        fc = next((a for a in adapters if a.adapter_type == "FC HBA"), None)
        return HostNode(**common, adapter=fc.id if fc else None)
    if isinstance(entry, Switch):
        return SwitchNode(**common)
    if isinstance(entry, Controller):
        return ControllerNode(
            **common,
            software=entry.default_software or None,
            raid_type=default_raid(entry),
            adp=entry.adp[0] if entry.adp else "none",
            spares_per_node=1,
        )
    if isinstance(entry, Shelf):
        drives = [d for d in catalog.of_kind(Drive) if d.interface in entry.drive_interfaces]
        if not drives:
            raise NotANodeError(f"no drive in the catalog fits {entry.name}")
        drive = drives[0]
        return ShelfNode(**common, drive=drive.id, drive_count=entry.bays)
    if isinstance(entry, HciNode):
        return HciClusterNode(**common)
    if isinstance(entry, CloudVm):
        disks = catalog.of_kind(CloudDisk)
        disk = next((d for d in disks if d.provider == entry.provider and "P30" in d.name), disks[0] if disks else None)
        if disk is None or not entry.licences:
            raise NotANodeError(f"{entry.name}: the catalog has no disk or licence for it")
        return CloudVmNode(**common, licence=entry.licences[0], disk=disk.id)
    raise NotANodeError(
        f"a {entry.kind} is not placed on its own: drop a drive on a shelf, an adapter on a host, "
        "a disk or licence on a cloud VM"
    )
