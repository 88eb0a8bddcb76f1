"""Catalog parts in words, as the sizer and the replication-destination search name the designs they build."""

from __future__ import annotations

from models.catalog.limits import STORAGE_SWITCH_PAIR, storage_switch_pairs_needed
from models.catalog.schema import Controller, Drive, Shelf, Switch


def storage_summary(record: Controller, inside: Shelf | None, shelf: Shelf | None, drive: Drive, count: int,
                    switch: Switch | None = None) -> str:
    """An array design's controller and drives in words, without a front end ("NetApp AFF A70 HA pair, 1 x NetApp
    NS224 (24 x NVMe) with 24 x ..."): ``inside`` the chassis' bays (None: none), ``count`` x ``shelf`` (None or 0:
    no external shelf), every bay holding ``drive``; ``switch``: the shelves are switch-attached through as many pairs
    of these storage switches as their ports need (None: direct-attached)."""
    parts = []
    if inside is not None:
        parts.append(f"{inside.bays} x {drive.name} in the chassis")
    if shelf is not None and count:
        attached = (f" switch-attached through "
                    f"{STORAGE_SWITCH_PAIR * storage_switch_pairs_needed(switch.ports, count, record.nodes or 2)} x "
                    f"{switch.name}" if switch is not None else "")
        parts.append(f"{count} x {shelf.name} with {count * shelf.bays} x {drive.name}{attached}")
    return f"{record.name}, {' + '.join(parts)}"


__all__ = ["storage_summary"]
