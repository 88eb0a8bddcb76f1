"""New nodes and links with sensible defaults, for palette drops, examples and tests."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from models.catalog import (
    Adapter,
    Catalog,
    CloudDisk,
    CloudVm,
    Controller,
    Drive,
    Entry,
    HciNode,
    Host,
    ManagedService,
    Shelf,
)
from models.project.kinds import NODE_KINDS
from models.project.model import NodeBase, Scenario


class NotANodeError(ValueError):
    """The catalog record cannot become a canvas item on its own (e.g. a drive or an adapter)."""


def next_id(scenario: Scenario, prefix: str) -> str:
    """A node / link / workload id ``prefix-N`` not used yet in the scenario."""
    prefix = re.sub(r"[^A-Za-z0-9._-]+", "-", prefix).strip("-") or "item"
    used = ({n.id for n in scenario.nodes} | {link.id for link in scenario.links} | {w.id for w in scenario.workloads}
            | {r.id for r in scenario.replications})
    n = 1
    while f"{prefix}-{n}" in used:
        n += 1
    return f"{prefix}-{n}"


def default_raid(controller: Controller) -> str:
    """The default protection of a controller family: RAID DP for ONTAP, DDP for E-Series, RAID5 otherwise
    (public_facts.md: 'Default RAID: RAID DP for SSD and performance HDD'; SANtricity DDP)."""
    return {"ONTAP": "raid_dp", "E-Series": "ddp"}.get(controller.family, "raid5")


def _host(entry: Host, catalog: Catalog) -> dict:
    fc = next((a for a in catalog.of_kind(Adapter) if a.adapter_type == "FC HBA"), None)
    return {"adapter": fc.id if fc else None}


def _controller(entry: Controller, catalog: Catalog) -> dict:
    return {"software": entry.default_software or None, "raid_type": default_raid(entry),
            "adp": entry.adp[0] if entry.adp else "none", "spares_per_node": 1}


def drive_fits_shelf(drive: Drive, shelf: Shelf) -> bool:
    """A drive a shelf takes: its interface and size (``Shelf.takes``), and the shelf's vendor's own drive (or a generic
    one on either side). Storage arrays take only the drives their vendor qualifies and sells; the catalog's
    server drives (the vSAN hosts' Intel, KIOXIA, Micron and Seagate devices) are not array drives."""
    return shelf.takes(drive) and (drive.vendor == shelf.vendor or "generic" in (drive.vendor, shelf.vendor))


def drive_misfit(drive: Drive, shelf: Shelf, controller: Controller | None = None,
                 catalog: Catalog | None = None) -> str | None:
    """Why a shelf (with its controller, when it has one) cannot take a drive, in the design check's words
    (``models.problems``), or None when it can: the drive's interface, then its size (``Shelf.takes``), then its
    vendor (:func:`drive_fits_shelf`), then the controller it is sold with (:func:`drive_fits_controller`). The
    Inspector offers only the drives this passes; a palette drop refuses the others
    (``models.project.edits.set_part``)."""
    if drive.interface not in shelf.drive_interfaces:
        return f"{shelf.name} cannot take {drive.interface} drive {drive.name}"
    if not shelf.takes(drive):
        return (f"{shelf.name} takes {' or '.join(shelf.form_factors)}-inch drives, not the {drive.form_factor}-inch "
                f"{drive.name}")
    if not drive_fits_shelf(drive, shelf):
        return f"{shelf.name} takes {shelf.vendor} drives, not {drive.name} (a {drive.vendor} drive)"
    if controller is not None and not drive_fits_controller(drive, controller, catalog):
        return f"{drive.name} is not sold for {controller.name}"
    return None


def drive_fits_controller(drive: Drive, controller: Controller, catalog: Catalog | None = None) -> bool:
    """A drive the controller is sold with: the drive's ``controllers`` list names it, or the stock record it is
    the user's copy of (``based_on``), and its ``families`` list names the controller's family (empty: any).

    A drive with an empty ``controllers`` list fits any controller, unless ``catalog`` is given and the platform has
    a qualified drive list there: a controller that some catalog drive names takes only the drives that name it
    (the AFF A50 is named by NetApp's TLC NVMe drives, so an unlisted NVMe drive such as a seed's is not offered
    on it). Pass the catalog wherever the choice is offered (sizer, palette drop, inspector)."""
    ids = {controller.id} | ({controller.based_on} if controller.based_on else set())
    named = bool(ids & set(drive.controllers))
    if drive.controllers and not named:
        return False
    if not drive.controllers and catalog is not None and _listed_platforms(catalog) & ids:
        return False
    return not drive.families or controller.family in drive.families


def _listed_platforms(catalog: Catalog) -> frozenset[str]:
    """Controller ids some drive of ``catalog`` names in its ``controllers`` list (memoised per catalog)."""
    key = id(catalog)
    found = _LISTED.get(key)
    if found is None or found[0] is not catalog:
        found = _LISTED[key] = (catalog, frozenset(c for d in catalog.of_kind(Drive) for c in d.controllers))
    return found[1]


_LISTED: dict[int, tuple[Catalog, frozenset[str]]] = {}
"""Memo of :func:`_listed_platforms` (catalog id -> (catalog, ids)); the catalog kept so its id is not reused."""


def _shelf(entry: Shelf, catalog: Catalog) -> dict:
    """A new shelf's defaults: of the drives it takes, the one sold with the most controllers taking this shelf
    (ties: catalog order; a seed's drive sold for one platform only is not the default of a shelf many take), else
    the first drive it takes, full."""
    drives = [d for d in catalog.of_kind(Drive) if drive_fits_shelf(d, entry)]
    owners = [c for c in catalog.of_kind(Controller) if entry.id in c.shelves]
    sold = {d.id: sum(drive_fits_controller(d, c, catalog) for c in owners) for d in drives}
    preferred = sorted((d for d in drives if sold[d.id]), key=lambda d: -sold[d.id])
    drives = preferred or drives
    if not drives:
        raise NotANodeError(f"no drive in the catalog fits {entry.name}")
    return {"drive": drives[0].id, "drive_count": entry.bays}


def _cloud_vm(entry: CloudVm, catalog: Catalog) -> dict:
    disks = catalog.of_kind(CloudDisk)
    disk = next((d for d in disks if d.provider == entry.provider and "P30" in d.name), disks[0] if disks else None)
    if disk is None or not entry.licences:
        raise NotANodeError(f"{entry.name}: the catalog has no disk or licence for it")
    return {"licence": entry.licences[0], "disk": disk.id}


def _managed(entry: ManagedService, catalog: Catalog) -> dict:
    """A managed service starts at its smallest provisioned capacity, at least 4 TiB (a pool one can use)."""
    return {"provisioned_bytes": max(entry.min_capacity_bytes, min(4 * 2**40, entry.max_capacity_bytes))}


def _hci(entry: HciNode, catalog: Catalog) -> dict:
    """An HCI cluster takes its host record's vSAN architecture; an ESA cluster starts with one storage pool of
    up to 6 devices per host and RAID-5 (ESA's adaptive RAID-5 runs on 3 hosts or more)."""
    if entry.architecture == "esa":
        return {"architecture": "esa", "disk_groups_per_host": 1, "policy": "ftt1-raid5",
                "capacity_drives_per_group": min(6, entry.max_capacity_per_group)}
    return {}


_DEFAULTS: dict[str, Callable[[Any, Catalog], dict]] = {
    "host": _host, "controller": _controller, "shelf": _shelf, "cloud_vm": _cloud_vm,
    "managed_service": _managed, "hci_cluster": _hci}
"""Node kind -> the starting values of a new item of that kind beyond id, catalog id, label and position."""


def new_node(entry: Entry, node_id: str, catalog: Catalog, x: float = 0.0, y: float = 0.0) -> NodeBase:
    """A canvas item for a catalog record, with defaults a sizing engineer would start from.

    The node kind is the kind table's row for the record's catalog kind (``kinds.NODE_KINDS``).

    Raises:
        NotANodeError: the record is a drive, adapter, link, disk or licence (these are set on an item,
            not placed on their own).
    """
    row = next((r for r in NODE_KINDS.values() if isinstance(entry, r.catalog_type)), None)
    if row is None:
        raise NotANodeError(
            f"a {entry.kind} is not placed on its own: drop a drive on a shelf, an adapter on a host, "
            "a disk or licence on a cloud VM"
        )
    defaults = _DEFAULTS[row.kind](entry, catalog) if row.kind in _DEFAULTS else {}
    return row.record_type(id=node_id, catalog_id=entry.id, label=entry.name, x=x, y=y, **defaults)
