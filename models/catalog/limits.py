"""A controller's published platform limits checked against one design: its drive limit (internal bays plus the
external shelves the vendor's shelf-cabling rules allow, per HA pair), its external shelf count and its published
maximum raw capacity. Each refusal names the rule and the source the catalog record gives for it (the record's
``provenance``), so a reader can follow it to the vendor's page.
"""

from __future__ import annotations

from collections.abc import Sequence

from models.catalog.schema import Controller, Drive, Shelf


def _source(controller: Controller, field: str) -> str:
    """The record's source of ``field`` ("no source given" when the record names none)."""
    p = controller.provenance.get(field)
    return p.source if p is not None else "no source given"


def _pb(n_bytes: float) -> str:
    """Bytes as petabytes (10^15), up to four decimals, e.g. ``2.2104 PB``."""
    return f"{n_bytes / 1e15:.4f}".rstrip("0").rstrip(".") + " PB"


def platform_limit_problems(controller: Controller,
                            shelves: Sequence[tuple[Shelf | None, Drive | None, int]]) -> list[str]:
    """What in one controller's drives breaks its published platform limits, as sentences (empty: none).

    Args:
        controller: the catalog record (``max_drives``; ``max_shelves`` and ``max_raw_bytes`` where published).
        shelves: one ``(shelf record, drive record, drive count)`` per shelf linked to the controller; a record
            may be None where the catalog does not know it (its drives still count towards the drive limit; an
            unknown shelf is not counted as external, an unknown drive adds no raw capacity).

    Returns:
        One sentence per broken limit: drive limit, external shelves, maximum raw capacity, each naming the rule
        and its source.
    """
    out: list[str] = []
    drives = sum(max(n, 0) for _, _, n in shelves)
    if drives > controller.max_drives:
        out.append(f"{drives} drives exceed {controller.name}'s maximum of {controller.max_drives} (drive limit "
                   f"per HA pair: {_source(controller, 'max_drives')})")
    external = sum(1 for shelf, _, _ in shelves if shelf is not None and not shelf.internal)
    if controller.max_shelves is not None and external > controller.max_shelves:
        plural = "shelf" if controller.max_shelves == 1 else "shelves"
        out.append(f"{external} external shelves exceed {controller.name}'s maximum of {controller.max_shelves} "
                   f"external {plural} per HA pair (shelf-cabling rule: {_source(controller, 'max_shelves')})")
    raw = sum(drive.marketed_bytes * max(n, 0) for _, drive, n in shelves if drive is not None)
    if controller.max_raw_bytes is not None and raw > controller.max_raw_bytes:
        out.append(f"{_pb(raw)} raw exceeds {controller.name}'s published maximum raw capacity of "
                   f"{_pb(controller.max_raw_bytes)} (maximum raw capacity: {_source(controller, 'max_raw_bytes')})")
    return out
