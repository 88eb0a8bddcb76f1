"""The user's own catalog file: add or replace records there (e.g. a controller with a lab-fitted profile)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import tomli_w

from models.atomic import write_text_atomic
from models.catalog import CatalogError, CloudVm, Controller, Entry, PerfProfile, parse_entries
from models.resources import user_catalog_path


def record_to_toml_dict(entry: Entry | PerfProfile) -> dict:
    """A record as the TOML table it was (or would be) written as: only the fields it sets, None dropped."""
    data = entry.model_dump(mode="json", exclude_unset=True)
    return {k: v for k, v in data.items() if v is not None}


def save_user_record(entry: Entry, path: Path | None = None) -> Path:
    """Add ``entry`` to the user catalog file, replacing a record of the same id and kind.

    The file is validated after the change (like the bundled catalog) and written atomically.

    Raises:
        CatalogError: the existing user file is not valid TOML or the result does not validate.
    """
    path = path or user_catalog_path()
    data: dict = {}
    if path.exists():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise CatalogError(f"{path}: not valid TOML: {exc}") from exc
    items = [i for i in data.get(entry.kind, []) if i.get("id") != entry.id]
    items.append(record_to_toml_dict(entry))
    data[entry.kind] = items
    parse_entries(data, str(path))  # refuse to write a file that would not load
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, tomli_w.dumps(data))
    return path


def with_profile(record: Controller | CloudVm, profile: PerfProfile) -> Controller | CloudVm:
    """A copy of a controller or cloud VM record whose profile for ``profile``'s software and protocol is
    ``profile`` (other profiles kept)."""
    kept = [p for p in record.performance if (p.software, p.protocol) != (profile.software, profile.protocol)]
    data = record_to_toml_dict(record)
    data["performance"] = [record_to_toml_dict(p) for p in kept] + [record_to_toml_dict(profile)]
    return type(record).model_validate(data)


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
    """Remove a record from the user catalog file.

    Raises:
        CatalogError: the record is not in the user file, or ``project`` uses it (the message names the items
            that use it; other projects keep the copies pinned in their files).
    """
    if project is not None:
        used = records_in_use(entry_id, project)
        if used:
            raise CatalogError(f"'{entry_id}' is used by the open project ({'; '.join(used)}): remove those "
                               "items first")
    path = path or user_catalog_path()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"{path}: not valid TOML: {exc}") from exc
    items = data.get(kind, [])
    kept = [i for i in items if i.get("id") != entry_id]
    if len(kept) == len(items):
        raise CatalogError(f"'{entry_id}' is not one of your own {kind} records")
    data[kind] = kept
    if not kept:
        del data[kind]
    write_text_atomic(path, tomli_w.dumps(data))
    return path
