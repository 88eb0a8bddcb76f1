"""Read catalog TOML files into validated records, with errors that name file, entry and field."""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from models.catalog.schema import ENTRY_TYPES, Entry


class CatalogError(ValueError):
    """A catalog file or entry is malformed; the message names the file, the entry and the field."""


def _describe(error: ValidationError) -> str:
    parts = []
    for item in error.errors():
        where = ".".join(str(p) for p in item["loc"])
        message = item["msg"].removeprefix("Value error, ")
        parts.append(f"field '{where}': {message}" if where else message)
    return "; ".join(parts)


def parse_entries(data: Mapping[str, Any], origin: str) -> list[Entry]:
    """Validate the arrays of tables of one catalog document.

    Args:
        data: a parsed TOML document: ``{kind: [ {field: value, ...}, ... ]}`` with kinds from ``ENTRY_TYPES``.
        origin: where the data came from (a file path, or ``project 'name'``), used in error messages.

    Returns:
        The records, in file order.

    Raises:
        CatalogError: an unknown kind, a non-table entry or a record that fails validation, naming
            ``origin``, the kind, the entry's id (or index) and the field.
    """
    entries: list[Entry] = []
    problems: list[str] = []
    for kind, items in data.items():
        if kind in ("catalog_version", "schema"):
            continue
        entry_type = ENTRY_TYPES.get(kind)
        if entry_type is None:
            problems.append(f"{origin}: unknown catalog kind '{kind}' (known: {', '.join(sorted(ENTRY_TYPES))})")
            continue
        if not isinstance(items, list):
            problems.append(f"{origin}: '{kind}' must be an array of tables ([[{kind}]])")
            continue
        for index, item in enumerate(items, start=1):
            label = f"{kind} '{item.get('id')}'" if isinstance(item, dict) and item.get("id") else f"{kind} #{index}"
            if not isinstance(item, dict):
                problems.append(f"{origin}: {label}: not a table")
                continue
            try:
                entries.append(entry_type.model_validate(item))
            except ValidationError as exc:
                problems.append(f"{origin}: {label}: {_describe(exc)}")
    if problems:
        raise CatalogError("\n".join(problems))
    return entries


def load_file(path: Path) -> list[Entry]:
    """Load one catalog TOML file.

    Raises:
        CatalogError: the file cannot be read, is not valid TOML (with line and column), or holds invalid records.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CatalogError(f"{path}: cannot read catalog file: {exc.strerror or exc}") from exc
    try:
        data = _parse_bundled(path, text)
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"{path}: not valid TOML: {exc}") from exc
    return parse_entries(data, str(path))


PARSED_CACHE = "parsed-catalog"
"""Folder (in :func:`models.resources.user_data_dir`) of the bundled catalog files' parsed tables, as JSON."""


def _parse_bundled(path: Path, text: str) -> dict[str, Any]:
    """``tomllib.loads(text)``; for a file of the bundled catalog (``resources/``), through a per-user cache of the
    parsed tables.

    Parsing the bundled catalog's 16 files (0.7 MB of TOML) in pure Python is 80-110 ms of every start, GUI or
    command; reading the same tables back as JSON takes about 3 ms. The cache file is named by the SHA-256 of the
    TOML text, so an edited or upgraded file is parsed again, never read stale; a cache file that cannot be read or
    written (read-only home, damaged JSON) is ignored. Each file keeps one cache entry (older ones are removed).
    Tables JSON cannot hold exactly (TOML dates) are not cached. The records are validated as ever.

    Raises:
        tomllib.TOMLDecodeError: the text is not TOML.
    """
    from models.resources import resources_dir, user_data_dir

    try:
        bundled = path.resolve().is_relative_to(resources_dir().resolve())
    except OSError:
        bundled = False
    if not bundled:
        return tomllib.loads(text)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:40]
    folder = user_data_dir() / PARSED_CACHE
    cached = folder / f"{path.stem}-{digest}.json"
    try:
        data = json.loads(cached.read_text(encoding="utf-8"))
        if isinstance(data, dict):
            return data
    except (OSError, ValueError):
        pass
    data = tomllib.loads(text)
    try:
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=True)
    except (TypeError, ValueError):  # a date: parsed every time
        return data
    try:
        folder.mkdir(parents=True, exist_ok=True)
        temporary = folder / f".{cached.name}.{os.getpid()}.tmp"
        temporary.write_text(body, encoding="utf-8")
        os.replace(temporary, cached)
        for older in folder.glob(f"{path.stem}-*.json"):
            if older.name != cached.name:
                older.unlink(missing_ok=True)
    except OSError:  # no cache (a read-only home): every start parses the TOML, nothing else changes
        pass
    return data


def load_files(paths: Iterable[Path]) -> list[Entry]:
    """Load several catalog files, collecting every file's problems into one CatalogError."""
    entries: list[Entry] = []
    problems: list[str] = []
    for path in paths:
        try:
            entries.extend(load_file(path))
        except CatalogError as exc:
            problems.append(str(exc))
    if problems:
        raise CatalogError("\n".join(problems))
    return entries
