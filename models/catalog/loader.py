"""Read catalog TOML files into validated records, with errors that name file, entry and field."""

from __future__ import annotations

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
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"{path}: not valid TOML: {exc}") from exc
    return parse_entries(data, str(path))


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
