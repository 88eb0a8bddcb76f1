"""Which catalog records a project uses, pinned in the file so its numbers do not move when the catalog does."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import ValidationError

from models.catalog import Catalog, CatalogError, Entry, parse_entries
from models.catalog.schema import ENTRY_TYPES
from models.project.model import Project

from .records import SnapshotEntry

NODE_REFERENCE_FIELDS = ("catalog_id", "adapter", "drive", "licence", "disk")
"""Node fields that hold catalog ids."""
RECORD_REFERENCE_FIELDS = ("backend_link", "cache_drive", "capacity_drive", "drive", "adapter", "licence", "disk",
                           "nvram_disk")
"""Catalog record fields that hold the ids of other records the first one needs (followed transitively)."""


class PinnedCatalog(Catalog):
    """A catalog whose records may come from different catalog versions (bundled + a project's snapshot)."""

    def __init__(self, entries: Iterable[Entry], version: str = "",
                 record_versions: Mapping[str, str] | Iterable[tuple[str, str]] = ()) -> None:
        super().__init__(entries, version)
        self._record_versions = dict(record_versions)

    def version_of(self, entry_id: str) -> str:
        """The catalog version a record comes from."""
        return self._record_versions.get(entry_id, self.version)


def _custom_ids(project: Project) -> set[str]:
    return {
        item["id"]
        for items in project.custom_catalog.values()
        for item in items
        if isinstance(item, dict) and isinstance(item.get("id"), str)
    }


def referenced_ids(project: Project, catalog: Catalog) -> set[str]:
    """Catalog ids the project's nodes and links use in any scenario, with the records those need in turn."""
    wanted: list[str] = []
    for scenario in project.scenarios:
        for node in scenario.nodes:
            wanted.extend(v for f in NODE_REFERENCE_FIELDS if isinstance(v := getattr(node, f, None), str))
        wanted.extend(link.link_type for link in scenario.links)
    seen: set[str] = set()
    while wanted:
        entry_id = wanted.pop()
        if entry_id in seen:
            continue
        seen.add(entry_id)
        entry = catalog.find(entry_id)
        if entry is not None:
            wanted.extend(v for f in RECORD_REFERENCE_FIELDS if isinstance(v := getattr(entry, f, None), str))
    return seen


def snapshot_catalog(project: Project, catalog: Catalog) -> dict[str, SnapshotEntry]:
    """The records of ``catalog`` the project uses, to store with it.

    Records the project defines itself (``project.custom_catalog``) are not included: they are saved as part of
    the project. Ids the catalog does not know are skipped (the topology check reports them).

    Args:
        project: the project.
        catalog: the catalog the project is evaluated against (the bundled one, or a :class:`PinnedCatalog`, in
            which case each record keeps the version it was pinned at).

    Returns:
        catalog id -> :class:`SnapshotEntry`, sorted by id.
    """
    lookup = catalog
    if project.custom_catalog:
        try:
            lookup = catalog.with_entries(parse_entries(project.custom_catalog, "project catalog"))
        except CatalogError:
            lookup = catalog
    custom = _custom_ids(project)
    version_of = getattr(catalog, "version_of", lambda _id: catalog.version)
    out: dict[str, SnapshotEntry] = {}
    for entry_id in sorted(referenced_ids(project, lookup) - custom):
        entry = catalog.find(entry_id)
        if entry is not None:
            out[entry_id] = SnapshotEntry(entry_id, entry.kind, version_of(entry_id), entry.model_dump(mode="json"))
    return out


def _validate(entry: SnapshotEntry) -> Entry | None:
    entry_type = ENTRY_TYPES.get(entry.kind)
    if entry_type is None:
        return None
    try:
        return entry_type.model_validate(entry.record)
    except ValidationError:
        return None


def pinned_catalog(snapshot: Mapping[str, SnapshotEntry], bundled: Catalog) -> PinnedCatalog:
    """The bundled catalog with the project's saved records put back on top, so it reproduces its numbers.

    A saved record that no longer validates against today's catalog schema (or clashes in kind with a bundled
    record) is left out, and the bundled record of that id is used; :func:`unusable_snapshot_entries` lists them.
    """
    entries: dict[str, Entry] = {entry.id: entry for entry in bundled}
    versions: dict[str, str] = {}
    for entry_id, saved in snapshot.items():
        record = _validate(saved)
        if record is None or record.id != entry_id:
            continue
        old = entries.get(entry_id)
        if old is not None and old.kind != record.kind:
            continue
        entries[entry_id] = record
        versions[entry_id] = saved.catalog_version
    return PinnedCatalog(entries.values(), bundled.version, versions)


def unusable_snapshot_entries(snapshot: Mapping[str, SnapshotEntry]) -> list[str]:
    """Ids of saved records that no longer validate (e.g. the catalog schema changed since the file was saved)."""
    return sorted(entry_id for entry_id, saved in snapshot.items() if _validate(saved) is None)


def catalog_updates(
    saved_snapshot: Mapping[str, SnapshotEntry], bundled: Catalog
) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """Records the project uses for which the bundled catalog now holds different data.

    Returns:
        ``(id, old, new)`` sorted by id, where ``old`` is the saved record and ``new`` the bundled record, both as
        JSON-shaped dicts (``model_dump(mode="json")``). Records the bundled catalog no longer has are not
        listed (the project keeps its pinned copy).
    """
    updates = []
    for entry_id in sorted(saved_snapshot):
        saved = saved_snapshot[entry_id]
        current = bundled.find(entry_id)
        if current is None or current.kind != saved.kind:
            continue
        new = current.model_dump(mode="json")
        if new != saved.record:
            updates.append((entry_id, saved.record, new))
    return updates
