"""The hardware catalog: validated records by id and kind, bundled plus user-defined."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import TypeVar, overload

from models.catalog.loader import CatalogError, load_file, load_files
from models.catalog.schema import ENTRY_TYPES, Entry
from models.resources import catalog_dir, user_catalog_path

E = TypeVar("E", bound=Entry)


class Catalog:
    """An immutable set of catalog records, unique by id.

    Build one with :func:`bundled_catalog`, :meth:`from_dir` or :meth:`with_entries` (the latter adds a
    project's or a user's own records on top of the bundled ones).
    """

    def __init__(self, entries: Iterable[Entry], version: str = "") -> None:
        self._by_id: dict[str, Entry] = {}
        duplicates = []
        for entry in entries:
            if entry.id in self._by_id:
                duplicates.append(entry.id)
            self._by_id[entry.id] = entry
        if duplicates:
            raise CatalogError("duplicate catalog ids: " + ", ".join(sorted(set(duplicates))))
        self.version = version

    @classmethod
    def from_dir(cls, directory: Path) -> Catalog:
        """Load every ``*.toml`` file of a directory (the catalog version is read from ``VERSION`` if present).

        Raises:
            CatalogError: any file or record is invalid (all problems are listed), or ids repeat.
        """
        files = sorted(directory.glob("*.toml"))
        version_file = directory / "VERSION"
        version = version_file.read_text(encoding="utf-8").strip() if version_file.exists() else ""
        return cls(load_files(files), version)

    def with_entries(self, entries: Iterable[Entry]) -> Catalog:
        """A new catalog with extra records; an extra record may replace one of the same id and kind.

        Raises:
            CatalogError: an extra record reuses the id of a record of another kind.
        """
        merged = dict(self._by_id)
        for entry in entries:
            old = merged.get(entry.id)
            if old is not None and old.kind != entry.kind:
                raise CatalogError(f"catalog id '{entry.id}' is a {old.kind}; a {entry.kind} cannot reuse it")
            merged[entry.id] = entry
        return Catalog(merged.values(), self.version)

    @overload
    def get(self, entry_id: str) -> Entry: ...
    @overload
    def get(self, entry_id: str, kind: type[E]) -> E: ...
    def get(self, entry_id: str, kind: type[E] | None = None) -> E | Entry:
        """The record with this id.

        Args:
            entry_id: the catalog id.
            kind: the expected record type (e.g. ``Drive``), checked when given.

        Raises:
            CatalogError: no record has that id, or it is of another kind.
        """
        entry = self._by_id.get(entry_id)
        if entry is None:
            wanted = f" {kind.KIND}" if kind else ""
            raise CatalogError(f"unknown{wanted} catalog id '{entry_id}'")
        if kind is not None and not isinstance(entry, kind):
            raise CatalogError(f"catalog id '{entry_id}' is a {entry.kind}, not a {kind.KIND}")
        return entry

    def find(self, entry_id: str) -> Entry | None:
        """The record with this id, or None."""
        return self._by_id.get(entry_id)

    def __contains__(self, entry_id: object) -> bool:
        return entry_id in self._by_id

    def __iter__(self) -> Iterator[Entry]:
        return iter(self._by_id.values())

    def __len__(self) -> int:
        return len(self._by_id)

    @overload
    def of_kind(self, kind: str) -> list[Entry]: ...
    @overload
    def of_kind(self, kind: type[E]) -> list[E]: ...
    def of_kind(self, kind: str | type[E]) -> list[E] | list[Entry]:
        """Records of one kind (a kind name such as ``"drive"`` or a record type), sorted by name."""
        name = kind if isinstance(kind, str) else kind.KIND
        if name not in ENTRY_TYPES:
            raise CatalogError(f"unknown catalog kind '{name}' (known: {', '.join(sorted(ENTRY_TYPES))})")
        cache = self.__dict__.setdefault("_of_kind", {})  # a catalog never changes after it is built
        found = cache.get(name)
        if found is None:
            found = cache[name] = sorted((e for e in self._by_id.values() if e.kind == name), key=lambda e: e.name)
        return list(found)


@lru_cache(maxsize=1)
def bundled_catalog() -> Catalog:
    """The catalog shipped in ``resources/catalog`` (loaded once per process)."""
    return Catalog.from_dir(catalog_dir())


def load_user_catalog(base: Catalog | None = None, path: Path | None = None) -> Catalog:
    """The bundled catalog plus the user's own records from ``path`` (default: the user catalog file).

    A missing user file is not an error. Raises CatalogError when the user file is invalid (unreadable, not a
    regular file, not UTF-8, not TOML, nested too deep, an unknown kind or a record that fails validation: each
    problem names the file and its line; :func:`models.catalog.loader.load_file`).
    """
    base = base or bundled_catalog()
    path = path or user_catalog_path()
    try:
        st = path.stat()
    except OSError:
        return base
    # size and inode too: two writes within one file-system timestamp tick keep the same mtime (an atomic
    # replace gives a new inode)
    stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
    key = (id(base), str(path), stamp)
    cached = _USER_CACHE.get("last")
    if cached and cached[0] == key:
        if isinstance(cached[1], CatalogError):  # the same broken file: the same refusal, not read again
            raise CatalogError(str(cached[1]))
        return cached[1]
    try:
        catalog = base.with_entries(load_file(path))
    except CatalogError as exc:
        _USER_CACHE["last"] = (key, exc)
        raise
    _USER_CACHE["last"] = (key, catalog)
    return catalog


_USER_CACHE: dict[str, tuple[tuple, Catalog | CatalogError]] = {}


def entries_from_toml_text(text: str, origin: str) -> list[Entry]:
    """Records from TOML text (used for catalog entries embedded in a project).

    Raises:
        CatalogError: invalid TOML or records, naming ``origin``.
    """
    from models.catalog.loader import parse_entries

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"{origin}: not valid TOML: {exc}") from exc
    return parse_entries(data, origin)
