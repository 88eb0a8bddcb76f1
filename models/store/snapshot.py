"""Which catalog records a project uses, pinned in the file so its numbers do not move when the catalog does."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from operator import attrgetter
from typing import TYPE_CHECKING, Any, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic_core import to_jsonable_python

from models.catalog import Catalog, CatalogError, Entry, bundled_catalog, load_user_catalog, parse_entries
from models.catalog.schema import ENTRY_TYPES, Sourced
from models.project.model import Project

if TYPE_CHECKING:
    from models.store.records import SnapshotEntry  # imported where one is made: base_catalog() needs none

NODE_REFERENCE_FIELDS = ("catalog_id", "adapter", "drive", "licence", "disk")
"""Node fields that hold catalog ids."""
RECORD_REFERENCE_FIELDS = ("backend_link", "cache_drive", "capacity_drive", "drive", "adapter", "licence", "disk",
                           "nvram_disk")
"""Catalog record fields that hold the ids of other records the first one needs (followed transitively)."""


class PinnedCatalog(Catalog):
    """A catalog whose records may come from different catalog versions (bundled + a project's snapshot).

    Args:
        entries: every record (the pinned ones in place of today's of the same id).
        version: today's catalog version.
        record_versions: pinned id -> the catalog version it was pinned at.
        today: the catalog the pinned records were laid on (bundled plus the user's records), so a pinned record
            can be compared with today's record of its id; None when not known.
        unusable: ids of saved records that did not validate and were left out (today's record is used).
    """

    def __init__(self, entries: Iterable[Entry], version: str = "",
                 record_versions: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
                 today: Catalog | None = None, unusable: Iterable[str] = ()) -> None:
        super().__init__(entries, version)
        self._record_versions = dict(record_versions or {})
        self.today = today
        self.unusable: tuple[str, ...] = tuple(sorted(unusable))

    def version_of(self, entry_id: str) -> str:
        """The catalog version a record comes from."""
        return self._record_versions.get(entry_id, self.version)

    @property
    def pinned_ids(self) -> tuple[str, ...]:
        """The ids whose record is the project file's saved one, sorted."""
        return tuple(sorted(self._record_versions))


def default_catalog() -> Catalog:
    """The catalog a project without pinned records evaluates against: the bundled one with the user's own
    records on top (``models.catalog.load_user_catalog``); the bundled one alone when the user's file is broken
    (``storplan catalog`` and the app report that file)."""
    try:
        return load_user_catalog()
    except CatalogError:
        return bundled_catalog()


def base_catalog(snapshot: Mapping[str, SnapshotEntry] | None = None) -> Catalog:
    """The one rule every front door uses for the catalog under a project's own records: a project file's pinned
    records (``snapshot``, from ``OpenedProject.catalog_snapshot``), then the user's records, then the bundled
    catalog. Without a snapshot (a TOML project, a new one): :func:`default_catalog`.

    Returns:
        A :class:`PinnedCatalog` when ``snapshot`` is given (even empty), else the default catalog.
    """
    today = default_catalog()
    if snapshot is None:
        return today
    return pinned_catalog(snapshot, today)


def _custom_ids(project: Project) -> set[str]:
    return {
        item["id"]
        for items in project.custom_catalog.values()
        for item in items
        if isinstance(item, dict) and isinstance(item.get("id"), str)
    }


def referenced_ids(project: Project, catalog: Catalog) -> set[str]:
    """Catalog ids the project's nodes and links use in any scenario, with the records those need in turn."""
    wanted: set[str] = set()
    for scenario in project.scenarios:
        by_type: dict[type, list[Any]] = {}
        for node in scenario.nodes:
            by_type.setdefault(type(node), []).append(node)
        for cls, nodes in by_type.items():
            # only the fields the node's class has: getattr of a missing field costs a pydantic AttributeError;
            # each field's distinct values first (10,000 nodes use a handful of records), then the ids among them
            for f in _fields_of(cls, NODE_REFERENCE_FIELDS):
                wanted.update(v for v in set(map(attrgetter(f), nodes)) if isinstance(v, str))
        wanted.update(map(attrgetter("link_type"), scenario.links))
    pending = list(wanted)
    seen: set[str] = set()
    while pending:
        entry_id = pending.pop()
        if entry_id in seen:
            continue
        seen.add(entry_id)
        entry = catalog.find(entry_id)
        if entry is not None:
            pending.extend(v for f in RECORD_REFERENCE_FIELDS if isinstance(v := getattr(entry, f, None), str))
    return seen


_FIELDS_OF: dict[tuple[type, tuple[str, ...]], tuple[str, ...]] = {}


def _fields_of(cls: type, names: tuple[str, ...]) -> tuple[str, ...]:
    """Those of ``names`` that are attributes of ``cls`` (a pydantic model's fields or properties), memoised."""
    key = (cls, names)
    found = _FIELDS_OF.get(key)
    if found is None:
        found = _FIELDS_OF[key] = tuple(f for f in names if hasattr(cls, f) or f in getattr(cls, "model_fields", ()))
    return found


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
    while isinstance(under := getattr(catalog, "base", None), Catalog):
        catalog = under  # a catalog with the project's own records resolved on top (models.design): pin
        # the records under them, never the marked copies
    lookup = catalog
    if project.custom_catalog:
        try:
            lookup = catalog.with_entries(parse_entries(project.custom_catalog, "project catalog"))
        except CatalogError:
            lookup = catalog
    custom = _custom_ids(project)
    version_of = getattr(catalog, "version_of", lambda _id: catalog.version)
    from models.store.records import SnapshotEntry

    out: dict[str, SnapshotEntry] = {}
    for entry_id in sorted(referenced_ids(project, lookup) - custom):
        entry = catalog.find(entry_id)
        if entry is not None:
            out[entry_id] = SnapshotEntry(entry_id, entry.kind, version_of(entry_id), record_data(entry))
    return out


def record_data(entry: Entry) -> dict[str, Any]:
    """A catalog record as the JSON-shaped dict a project file pins: the fields the record states, not the ones
    left at their schema default (``exclude_unset``), so it validates again exactly as it was: a sourced record
    needs a source for every number it states (``models.catalog.schema.Sourced``), and a default written out
    would count as stated without one."""
    return entry.model_dump(mode="json", exclude_unset=True)


def _model_types(annotation: Any) -> list[type[BaseModel]]:
    """The pydantic model classes an annotation holds, directly or in a list / dict / union (items, values)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in get_args(annotation) for m in _model_types(arg)]


def _stated_only(model: type[BaseModel], data: Any) -> Any:
    """``data`` (a full ``model_dump(mode="json")`` of a ``model``) with the numbers a sourced record left at
    their default and gave no source for taken out again, at every level: the inverse of writing them out, for
    files saved before :func:`record_data` kept only the stated fields."""
    if not isinstance(data, dict):
        return data
    cited: dict[str, Any] | None = None  # field -> its provenance ({kind, source, fit}), or an older file's text
    if issubclass(model, Sourced):
        for key in ("provenance", "sources"):
            if isinstance(data.get(key), dict):
                cited = data[key]
                break
    out: dict[str, Any] = {}
    for name, value in data.items():
        info = model.model_fields.get(name)
        if info is None:
            out[name] = value
            continue
        if (cited is not None and name not in ("provenance", "sources") and not cited.get(name)
                and not info.is_required()
                and to_jsonable_python(info.get_default(call_default_factory=True)) == value):
            continue
        inner = _model_types(info.annotation)
        if len(inner) == 1 and isinstance(value, list):
            value = [_stated_only(inner[0], item) for item in value]
        elif len(inner) == 1 and isinstance(value, dict) and get_origin(info.annotation) is dict:
            value = {k: _stated_only(inner[0], v) for k, v in value.items()}
        elif len(inner) == 1:
            value = _stated_only(inner[0], value)
        out[name] = value
    return out


def _validate(entry: SnapshotEntry) -> Entry | None:
    """The saved record as a catalog record again, or None when it no longer validates (or its kind is unknown).

    A record saved with every field written out (before :func:`record_data`) is read with its defaulted,
    unsourced numbers taken out again (:func:`_stated_only`), so it comes back as it was."""
    entry_type = ENTRY_TYPES.get(entry.kind)
    if entry_type is None:
        return None
    try:
        return entry_type.model_validate(entry.record)
    except ValidationError:
        pass
    try:
        return entry_type.model_validate(_stated_only(entry_type, entry.record))
    except ValidationError:
        return None


def pinned_catalog(snapshot: Mapping[str, SnapshotEntry], bundled: Catalog) -> PinnedCatalog:
    """The bundled catalog with the project's saved records put back on top, so it reproduces its numbers.

    A saved record that no longer validates against today's catalog schema (or clashes in kind with a bundled
    record) is left out, and the bundled record of that id is used; :func:`unusable_snapshot_entries` lists them.
    """
    entries: dict[str, Entry] = {entry.id: entry for entry in bundled}
    versions: dict[str, str] = {}
    unusable: list[str] = []
    for entry_id, saved in snapshot.items():
        record = _validate(saved)
        if record is None or record.id != entry_id:
            unusable.append(entry_id)
            continue
        old = entries.get(entry_id)
        if old is not None and old.kind != record.kind:
            unusable.append(entry_id)
            continue
        entries[entry_id] = record
        versions[entry_id] = saved.catalog_version
    return PinnedCatalog(entries.values(), bundled.version, versions, bundled, unusable)


def unusable_snapshot_entries(snapshot: Mapping[str, SnapshotEntry]) -> list[str]:
    """Ids of saved records that no longer validate (e.g. the catalog schema changed since the file was saved)."""
    return sorted(entry_id for entry_id, saved in snapshot.items() if _validate(saved) is None)


def catalog_updates(
    saved_snapshot: Mapping[str, SnapshotEntry], bundled: Catalog
) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """Records the project uses for which the bundled catalog now holds different data.

    Returns:
        ``(id, old, new)`` sorted by id, where ``old`` is the saved record and ``new`` the bundled record, both as
        JSON-shaped dicts (:func:`record_data`). A saved record is compared as the record it validates to, so
        one saved with its defaults written out is not "newer data". Records the bundled catalog no longer has are
        not listed (the project keeps its pinned copy).
    """
    updates = []
    for entry_id in sorted(saved_snapshot):
        saved = saved_snapshot[entry_id]
        current = bundled.find(entry_id)
        if current is None or current.kind != saved.kind:
            continue
        new = record_data(current)
        pinned = _validate(saved)
        if (pinned != current) if pinned is not None else (new != saved.record):
            updates.append((entry_id, saved.record, new))
    return updates
