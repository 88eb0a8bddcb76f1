"""The user's own catalog file: add or replace records there (e.g. a controller with a lab-fitted profile)."""

from __future__ import annotations

import re
from collections.abc import Collection
from datetime import date
from pathlib import Path
from typing import Any

from models.atomic import write_text_atomic
from models.bounded_read import FileRefusedError, parse_toml, read_text
from models.catalog import CatalogError, CloudVm, Controller, Entry, PerfProfile, load_user_catalog, parse_entries
from models.catalog.loader import MAX_CATALOG_FILE_BYTES
from models.resources import user_catalog_path


def _read_user_file(path: Path) -> dict:
    """The parsed user catalog file ({} when there is none), read through :mod:`models.bounded_read`.

    Raises:
        CatalogError: unreadable, not a regular file, too large, not UTF-8, not TOML or nested too deep (the
            message names the file and the line); the file is left as it is.
    """
    if not path.exists():
        return {}
    try:
        return parse_toml(read_text(path, MAX_CATALOG_FILE_BYTES), str(path))
    except FileRefusedError as exc:
        raise CatalogError(str(exc)) from None


def user_catalog_problem(path: Path | None = None) -> str | None:
    """What is wrong with the user catalog file, as one line naming the file and the line, or None when there is
    no file or it loads.

    Every front door evaluates without a broken user file (``models.store.default_catalog``) and keeps it as it
    is, for the user to repair; this is the line the CLI prints as a warning and the app shows.
    """
    path = path or user_catalog_path()
    if not path.exists() and not path.is_symlink():
        return None
    try:
        load_user_catalog(path=path)
    except CatalogError as exc:
        lines = [line for line in str(exc).splitlines() if line.strip()] or [str(exc)]
        more = f" (and {len(lines) - 1} more problem{'s' if len(lines) > 2 else ''})" if len(lines) > 1 else ""
        return lines[0] + more
    return None


def record_to_toml_dict(entry: Entry | PerfProfile) -> dict:
    """A record as the TOML table it was (or would be) written as: only the fields it sets, None dropped."""
    data = entry.model_dump(mode="json", exclude_unset=True)
    return {k: v for k, v in data.items() if v is not None}


_UPDATE_ATTEMPTS = 20


class _ChangedMeanwhileError(Exception):
    """The user file changed between our read and our rename (another StorPlan saved a record): read it again."""


def _content(path: Path) -> bytes | None:
    """The user file's bytes now (None when there is none)."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def _write_if_unchanged(path: Path, text: str, seen: bytes | None) -> None:
    """Write ``text`` to ``path`` atomically unless the file is no longer ``seen`` at the rename (checked under
    the folder's lock, ``models.atomic.replace_lock``), so a record another StorPlan saved meanwhile is not lost.

    Raises:
        _ChangedMeanwhileError: the file changed; nothing was written. OSError: it cannot be written.
    """
    def last_check(_tmp: Path) -> None:
        if _content(path) != seen:
            raise _ChangedMeanwhileError

    write_text_atomic(path, text, before_replace=last_check)


def save_user_record(entry: Entry, path: Path | None = None) -> Path:
    """Add ``entry`` to the user catalog file, replacing a record of the same id and kind.

    The file is validated after the change (like the bundled catalog) and written atomically. When another
    StorPlan saves a record at the same moment, the file is read again and ``entry`` added to the new file, so
    neither record is lost.

    Raises:
        CatalogError: the existing user file cannot be read (not UTF-8, not valid TOML...: it is left as it is),
            the result does not validate, or it kept changing (20 attempts).
    """
    path = path or user_catalog_path()
    for _attempt in range(_UPDATE_ATTEMPTS):
        try:
            return _save_user_record_once(entry, path)
        except _ChangedMeanwhileError:
            continue
    raise CatalogError(f"{path}: the file kept changing while StorPlan saved '{entry.id}' to it; try again")


def _toml_text(data: dict[str, Any]) -> str:
    """``data`` as the TOML text of the user catalog file (``tomli_w``, imported here: only a change to the file
    needs it, not every command that reads the catalog)."""
    import tomli_w

    return tomli_w.dumps(data)


def _save_user_record_once(entry: Entry, path: Path) -> Path:
    """One read, change and write of :func:`save_user_record` (raises ``_ChangedMeanwhileError`` to start over)."""
    seen = _content(path)
    data = _read_user_file(path)
    items = [i for i in data.get(entry.kind, []) if i.get("id") != entry.id]
    items.append(record_to_toml_dict(entry))
    data[entry.kind] = items
    parse_entries(data, str(path))  # refuse to write a file that would not load
    path.parent.mkdir(parents=True, exist_ok=True)
    _write_if_unchanged(path, _toml_text(data), seen)
    return path


def with_profile(record: Controller | CloudVm, profile: PerfProfile) -> Controller | CloudVm:
    """A copy of a controller or cloud VM record whose profile for ``profile``'s software and protocol is
    ``profile`` (other profiles kept)."""
    kept = [p for p in record.performance if (p.software, p.protocol) != (profile.software, profile.protocol)]
    data = record_to_toml_dict(record)
    data["performance"] = [record_to_toml_dict(p) for p in kept] + [record_to_toml_dict(profile)]
    return type(record).model_validate(data)


def user_copy(record: Entry, label: str, id_word: str, when: date, taken: Collection[str]) -> Entry:
    """The user's own copy of a record, under its own id and name, so it never replaces the stock record.

    Args:
        record: the record copied (stock or the user's); label: what the copy is, in words (``"lab fit"``);
        id_word: the same for the id (``"lab"``, lower-case letters); when: the day it was made;
        taken: ids already in use (the catalog's and the user file's).

    Returns:
        the copy: id ``<stock id>-<id_word>-<yyyymmdd>`` (``netapp-aff-a50-lab-20261128``; ``-2``, ``-3``... when
        that is taken), name ``<stock name> (<label> <yyyy-mm-dd>)`` ("AFF A50 (lab fit 2026-11-28)", with the
        same suffix), ``based_on`` the stock record's id (it takes the parts sold for that record).
    """
    base = record.based_on or record.id
    stock_name = re.sub(r" \([^()]*\)$", "", record.name) if record.based_on else record.name
    stem = f"{base}-{id_word}-{when:%Y%m%d}"
    new_id, n = stem, 1
    while new_id in taken:
        n += 1
        new_id = f"{stem}-{n}"
    suffix = "" if n == 1 else f" #{n}"
    data = record_to_toml_dict(record)
    data.update(id=new_id, name=f"{stock_name} ({label} {when.isoformat()}{suffix})", based_on=base)
    return type(record).model_validate(data)


def calibrated_record(record: Controller | CloudVm, profile: PerfProfile, when: date,
                      taken: Collection[str]) -> Entry:
    """A lab fit saved as the user's own hardware: :func:`with_profile` under a new id and name
    (:func:`user_copy` with "lab fit"); the stock record is left as it is.

    Args:
        record: the calibrated controller or cloud VM; profile: the fitted profile; when: the day of the fit;
        taken: ids already in use.
    """
    return user_copy(with_profile(record, profile), "lab fit", "lab", when, taken)


def user_file_ids(path: Path | None = None) -> set[str]:
    """The ids of every record in the user catalog file (empty when there is none or it does not parse)."""
    path = path or user_catalog_path()
    try:
        data = _read_user_file(path)
    except CatalogError:
        return set()
    return {str(item.get("id")) for items in data.values() if isinstance(items, list) for item in items
            if isinstance(item, dict)}


def records_in_use(entry_id: str, project: Any) -> list[str]:  # a models.project.Project (a sibling layer)
    """The items of ``project`` (every scenario) that use catalog record ``entry_id``: nodes by catalog id,
    shelf drives, host adapters, cloud disks and licences, and links by link type; each as
    ``"scenario 'name': item"``."""
    used = []
    for scenario in project.scenarios:
        for node in scenario.nodes:
            ids = {getattr(node, f, None) for f in ("catalog_id", "drive", "adapter", "disk", "licence")}
            if entry_id in ids:
                used.append(f"scenario '{scenario.name}': {node.label or node.id}")
        for link in scenario.links:
            if link.link_type == entry_id:
                used.append(f"scenario '{scenario.name}': link {link.id}")
    return used


def delete_user_record(entry_id: str, kind: str, project: Any = None, path: Path | None = None) -> Path:
    """Remove a record from the user catalog file, written atomically. When another StorPlan saves a record at the
    same moment (the file changed between the read and the rename, checked under the folder's lock as
    :func:`save_user_record` does), the file is read again and the record removed from the new file, so the other
    record is not lost.

    Raises:
        CatalogError: the record is not in the user file, or ``project`` uses it (the message names the items
            that use it; other projects keep the copies pinned in their files), or the file kept changing (20
            attempts).
    """
    if project is not None:
        used = records_in_use(entry_id, project)
        if used:
            raise CatalogError(f"'{entry_id}' is used by the open project ({'; '.join(used)}): remove those "
                               "items first")
    path = path or user_catalog_path()
    for _attempt in range(_UPDATE_ATTEMPTS):
        try:
            return _delete_user_record_once(entry_id, kind, path)
        except _ChangedMeanwhileError:
            continue
    raise CatalogError(f"{path}: the file kept changing while StorPlan removed '{entry_id}' from it; try again")


def _delete_user_record_once(entry_id: str, kind: str, path: Path) -> Path:
    """One read, change and write of :func:`delete_user_record` (raises ``_ChangedMeanwhileError`` to start over)."""
    seen = _content(path)
    data = _read_user_file(path)
    items = data.get(kind, [])
    kept = [i for i in items if i.get("id") != entry_id]
    if len(kept) == len(items):
        raise CatalogError(f"'{entry_id}' is not one of your own {kind} records")
    data[kind] = kept
    if not kept:
        del data[kind]
    _write_if_unchanged(path, _toml_text(data), seen)
    return path
