"""The sources of the first waterfall steps (raw marketed, right-sized, cloud disk size), cited from the records.

The raw and right-sized steps used to cite "catalog drive marketed capacity (decimal)", which names no document a
customer can follow. Each drive, cloud disk and licence record carries its own provenance for these fields (a
datasheet, NetApp TR-3838, an IDEMA LBA1-03 derivation, or an assumption with its reason); these helpers put that
provenance, with the record's name, into the step's source.
"""

from __future__ import annotations

from collections.abc import Iterable

from models.catalog import CloudDisk, Drive, Licence


def _per_drive(drives: Iterable[Drive], field: str, what: str) -> str:
    """One clause per distinct drive: ``"<name>, <what>: <cited>"``, joined with "; "."""
    parts: list[str] = []
    seen: set[str] = set()
    for d in drives:
        if d.id in seen:
            continue
        seen.add(d.id)
        cited = d.cited(field)
        parts.append(f"{d.name}, {what}: {cited}" if cited else f"{d.name}, {what} (no source recorded)")
    return "; ".join(parts)


def marketed_source(drives: Iterable[Drive]) -> str:
    """The source of a "Raw (marketed)" step: each distinct drive's name and its marketed-capacity provenance.

    Args:
        drives: the drive records counted in the step (repeats are cited once, in first-seen order).

    Returns:
        e.g. ``"NetApp X447A 800GB SAS SSD, marketed capacity (decimal bytes): NetApp report ..."``; ``""`` when
        there are no drives. Never raises.
    """
    return _per_drive(drives, "marketed_bytes", "marketed capacity (decimal bytes)")


def right_sized_source(drives: Iterable[Drive], rule: str = "") -> str:
    """The source of a "Right-sized" step: each distinct drive's name and its right-sized-capacity provenance.

    Args:
        drives: the drive records counted in the step (repeats are cited once).
        rule: the platform's right-sizing rule, appended after the drives' own sources (``""``: none).

    Returns:
        The drives' clauses joined with "; ", then ``rule``. Never raises.
    """
    text = _per_drive(drives, "right_sized_bytes", "right-sized capacity")
    return f"{text}; {rule}" if text and rule else text or rule


def cloud_disk_source(disk: CloudDisk) -> str:
    """The source of a cloud system's "Raw (marketed)" step: the disk's name and the provenance of its size.

    Args:
        disk: the cloud disk record.

    Returns:
        ``"<disk name>, size: <cited>"``. Never raises.
    """
    cited = disk.cited("size_bytes")
    return f"{disk.name}, size: {cited}" if cited else f"{disk.name}, size (no source recorded)"


def licence_cap_source(licence: Licence) -> str:
    """The source of a "Licence capacity cap" step: the licence's name and the provenance of its cap.

    Args:
        licence: the licence record.

    Returns:
        ``"<licence name> capacity cap: <cited>, as of <year>"``. Never raises.
    """
    cited = licence.cited("capacity_cap_bytes")
    return f"{licence.name} capacity cap{f': {cited}' if cited else ''}, as of {licence.as_of}"
