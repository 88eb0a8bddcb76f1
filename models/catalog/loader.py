"""Read catalog TOML files into validated records, with errors that name file, entry and field."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, BinaryIO

from pydantic import ValidationError

from models.atomic import write_atomic
from models.bounded_read import FileRefusedError, parse_toml, read_text
from models.catalog.schema import ENTRY_TYPES, Entry

MAX_CATALOG_FILE_BYTES = 2 * 2**20
"""The largest catalog file read (2 MiB, about a second of TOML parsing): the largest bundled file is 135 KiB, and a
user's own file holds a few records of a few KiB each."""


class CatalogError(ValueError):
    """A catalog file or entry is malformed; the message names the file, the entry and the field."""


def _describe(error: ValidationError) -> str:
    parts = []
    for item in error.errors():
        where = ".".join(str(p) for p in item["loc"])
        message = item["msg"].removeprefix("Value error, ")
        parts.append(f"field '{where}': {message}" if where else message)
    return "; ".join(parts)


def record_lines(text: str, kind: str) -> list[int]:
    """The 1-based lines of the ``[[kind]]`` headers of TOML ``text``, in order (the n-th record of that kind
    starts on the n-th line; records written as an inline array are not found)."""
    header = re.compile(rf"^[ \t]*\[\[[ \t]*(?:{re.escape(kind)}|\"{re.escape(kind)}\")[ \t]*\]\]", re.MULTILINE)
    return [text.count("\n", 0, m.start()) + 1 for m in header.finditer(text)]


def _field_line(text: str, start: int, field: str) -> int:
    """The line of ``field = ...`` in the table that starts on line ``start`` (before the next table header), or
    ``start`` itself when it is not found there."""
    lines = text.split("\n")
    key = re.compile(rf"^[ \t]*(?:{re.escape(field)}|\"{re.escape(field)}\")[ \t]*=")
    for n in range(start, len(lines)):  # lines[start] is the line after the header
        if lines[n].lstrip().startswith("["):
            break
        if key.match(lines[n]):
            return n + 1
    return start


def _where(text: str | None, kind: str, index: int | None, error: ValidationError | None = None) -> str:
    """``line N: `` of record ``index`` (1-based) of ``kind`` in ``text`` (its first failing field's line when
    found), or "" when ``text`` is None or the record is not found."""
    if text is None:
        return ""
    if index is None:  # the kind itself: its first header, or ``kind = ...``
        found = record_lines(text, kind)
        if not found:
            m = re.search(rf"^[ \t]*\[?[ \t]*{re.escape(kind)}\b", text, re.MULTILINE)
            found = [text.count("\n", 0, m.start()) + 1] if m else []
        return f"line {found[0]}: " if found else ""
    found = record_lines(text, kind)
    if index > len(found):
        return ""
    line = found[index - 1]
    if error is not None and error.errors() and error.errors()[0]["loc"]:
        line = _field_line(text, line, str(error.errors()[0]["loc"][0]))
    return f"line {line}: "


def parse_entries(data: Mapping[str, Any], origin: str, text: str | None = None) -> list[Entry]:
    """Validate the arrays of tables of one catalog document.

    Args:
        data: a parsed TOML document: ``{kind: [ {field: value, ...}, ... ]}`` with kinds from ``ENTRY_TYPES``.
        origin: where the data came from (a file path, or ``project 'name'``), used in error messages.
        text: the TOML text ``data`` was parsed from, when known: each problem then names its line too.

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
            problems.append(f"{origin}: {_where(text, kind, None)}unknown catalog kind '{kind}' "
                            f"(known: {', '.join(sorted(ENTRY_TYPES))})")
            continue
        if not isinstance(items, list):
            problems.append(f"{origin}: {_where(text, kind, None)}'{kind}' must be an array of tables ([[{kind}]])")
            continue
        for index, item in enumerate(items, start=1):
            label = f"{kind} '{item.get('id')}'" if isinstance(item, dict) and item.get("id") else f"{kind} #{index}"
            if not isinstance(item, dict):
                problems.append(f"{origin}: {_where(text, kind, index)}{label}: not a table")
                continue
            try:
                entries.append(entry_type.model_validate(item))
            except ValidationError as exc:
                problems.append(f"{origin}: {_where(text, kind, index, exc)}{label}: {_describe(exc)}")
    if problems:
        raise CatalogError("\n".join(problems))
    return entries


def load_file(path: Path) -> list[Entry]:
    """Load one catalog TOML file, read through :mod:`models.bounded_read` (a regular file of at most
    :data:`MAX_CATALOG_FILE_BYTES`, UTF-8).

    Raises:
        CatalogError: the file cannot be read (missing, a device or FIFO, too large, not UTF-8), is not valid TOML
            or nests too deep, or holds invalid records; each problem names the file and its line.
    """
    try:
        text = read_text(path, MAX_CATALOG_FILE_BYTES)
        data = _parse_bundled(path, text)
    except FileRefusedError as exc:
        raise CatalogError(str(exc)) from None
    return parse_entries(data, str(path), text)


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
        FileRefusedError: the text is not TOML or nests too deep (:func:`models.bounded_read.parse_toml`).
    """
    from models.resources import resources_dir, user_data_dir

    try:
        bundled = path.resolve().is_relative_to(resources_dir().resolve())
    except OSError:
        bundled = False
    if not bundled:
        return parse_toml(text, str(path))
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:40]
    folder = user_data_dir() / PARSED_CACHE
    cached = folder / f"{path.stem}-{digest}.json"
    try:
        data = json.loads(cached.read_text(encoding="utf-8"))
        if isinstance(data, dict):
            return data
    except (OSError, ValueError):
        pass
    data = parse_toml(text, str(path))
    try:
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=True)
    except (TypeError, ValueError):  # a date: parsed every time
        return data
    try:
        folder.mkdir(parents=True, exist_ok=True)
        payload = body.encode("utf-8")

        def write(handle: BinaryIO) -> None:
            handle.write(payload)

        write_atomic(cached, write)
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
