"""Read catalog TOML files into validated records, with errors that name file, entry and field."""

from __future__ import annotations

import hashlib
import json
import marshal
import re
import zlib
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, BinaryIO

from pydantic import BaseModel, ValidationError

from models.atomic import write_atomic
from models.bounded_read import FileRefusedError, parse_toml, read_text
from models.catalog import schema
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
    :data:`MAX_CATALOG_FILE_BYTES`, UTF-8). A file of the bundled catalog whose records were validated before
    (by this version of the record types) is read back from the per-user record cache (:func:`_cached_records`).

    Raises:
        CatalogError: the file cannot be read (missing, a device or FIFO, too large, not UTF-8), is not valid TOML
            or nests too deep, or holds invalid records; each problem names the file and its line.
    """
    try:
        text = read_text(path, MAX_CATALOG_FILE_BYTES)
        cache = _records_cache_file(path, text)
        if cache is not None:
            cached = _cached_records(cache)
            if cached is not None:
                return cached
        data = _parse_bundled(path, text)
    except FileRefusedError as exc:
        raise CatalogError(str(exc)) from None
    entries = parse_entries(data, str(path), text)
    if cache is not None:
        _store_records(cache, path.stem, entries)
    return entries


RECORDS_CACHE = "validated-catalog"
"""Folder (in :func:`models.resources.user_data_dir`) of the bundled catalog files' validated records, one
``marshal`` file each (:func:`_records_payload`)."""

_RECORDS_MAGIC = b"SPrc"
"""The first bytes of a record cache file; the next four are the CRC-32 of the rest (little-endian), then the
``marshal`` data (a damaged file is never read as records)."""

_RECORDS_FORMAT = 1
"""The layout of the ``marshal`` data (:func:`_records_payload`): another layout is another number, never misread."""

_SET_FIELDS_SET = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_SET_EXTRA = BaseModel.__dict__["__pydantic_extra__"].__set__
_SET_PRIVATE = BaseModel.__dict__["__pydantic_private__"].__set__
# (the slots pydantic's BaseModel declares: what ``model_construct`` sets besides ``__dict__``)


def _is_bundled(path: Path) -> bool:
    from models.resources import resources_dir

    try:
        return path.resolve().is_relative_to(_resolved_folder(resources_dir()))
    except OSError:
        return False


@lru_cache(maxsize=4)
def _resolved_folder(folder: Path) -> Path:
    """``folder.resolve()``, once per folder and process (:func:`_is_bundled` asks it for each catalog file).

    Raises:
        OSError: the folder cannot be resolved (nothing is cached then)."""
    return folder.resolve()


@lru_cache(maxsize=1)
def _schema_key() -> str | None:
    """What the cached records depend on besides the TOML text: the record types' source (``schema.py``) and the
    pydantic version. A frozen build (no source beside its modules) uses its executable's path, size and time
    instead: another build is another key. None when neither is known (no record cache: validated every start)."""
    import sys

    import pydantic

    try:
        source = Path(schema.__file__).read_bytes()
    except (OSError, TypeError):
        if not getattr(sys, "frozen", False):
            return None
        try:
            stat = Path(sys.executable).stat()
        except OSError:
            return None
        source = f"{sys.executable}|{stat.st_size}|{stat.st_mtime_ns}".encode()
    return hashlib.sha256(source + pydantic.VERSION.encode("ascii")).hexdigest()


def _records_cache_file(path: Path, text: str) -> Path | None:
    """The record cache file of a bundled catalog file with this ``text`` (None: not bundled, or no key)."""
    key = _schema_key()
    if key is None or not _is_bundled(path):
        return None
    from models.resources import user_data_dir

    digest = hashlib.sha256(text.encode("utf-8") + key.encode("ascii")).hexdigest()[:40]
    return user_data_dir() / RECORDS_CACHE / f"{path.stem}-{digest}.marshal"


@lru_cache(maxsize=1)
def _model_types() -> dict[str, type[BaseModel]]:
    return {name: value for name, value in vars(schema).items()
            if isinstance(value, type) and issubclass(value, BaseModel) and value.__module__ == schema.__name__}


def _records_payload(entries: list[Entry]) -> bytes:
    """Validated records as ``marshal`` data of plain values: ``(format, models, entries)``, where ``models`` lists
    every model (record or nested) after the models it holds, each as ``(type name, its fields with None where a
    model goes, the fields given, ((path to such a place, index of the model), ...))``, and ``entries`` the
    indices of the records. Rebuilding (:func:`_rebuilt_records`) touches the models only, not every number and text
    of the records (``marshal`` reads those itself, about twice as fast as the JSON decoder read them).

    Raises:
        TypeError: a value that is not a model, dict, list, text, number, bool or None (no cache then);
        ValueError: ``marshal`` cannot hold a value (e.g. a subclass of str)."""
    models: list[tuple[str, dict[Any, Any], list[str], tuple[tuple[tuple[Any, ...], int], ...]]] = []

    def plain(value: Any, path: tuple[Any, ...], places: list[tuple[tuple[Any, ...], int]]) -> Any:
        if isinstance(value, BaseModel):
            places.append((path, model(value)))
            return None
        if isinstance(value, dict):
            return {key: plain(item, (*path, key), places) for key, item in value.items()}
        if isinstance(value, list):
            return [plain(item, (*path, index), places) for index, item in enumerate(value)]
        if value is None or isinstance(value, (str, int, float)):  # bool is an int
            return value
        raise TypeError(f"no record cache for a {type(value).__name__}")

    def model(value: BaseModel) -> int:
        places: list[tuple[tuple[Any, ...], int]] = []
        fields = {name: plain(item, (name,), places) for name, item in value.__dict__.items()}
        models.append((type(value).__name__, fields, sorted(value.model_fields_set), tuple(places)))
        return len(models) - 1

    top = [model(entry) for entry in entries]
    return marshal.dumps((_RECORDS_FORMAT, models, top))


def _rebuilt_records(data: Any) -> list[Any]:
    """The inverse of :func:`_records_payload` on its ``marshal.loads``: each model rebuilt as validation made it
    without validating again (its field values and the set of fields given, as in the validated record the cache
    was written from; what ``model_construct`` sets), in the order written (a model's own models first).

    Raises:
        ValueError: another layout; KeyError: a type name naming no record type; TypeError, IndexError: data not
            of that layout."""
    form, models, top = data
    if form != _RECORDS_FORMAT:
        raise ValueError(f"record cache layout {form!r}")
    types = _model_types()
    built: list[BaseModel] = []
    keep = built.append
    for name, fields, given, places in models:
        if type(fields) is not dict:
            raise TypeError(f"cached {name} fields are not a dict")
        for path, index in places:
            if index < 0:
                raise IndexError("a model placed before it is built")
            target = fields
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = built[index]
        cls = types[name]
        record = cls.__new__(cls)
        object.__setattr__(record, "__dict__", fields)
        _SET_FIELDS_SET(record, set(given))
        _SET_EXTRA(record, None)
        _SET_PRIVATE(record, None)
        keep(record)
    return [built[index] for index in top]


def _same_records(a: Any, b: Any) -> bool:
    """Equal values of equal types, models with equal sets of fields given (what ``==`` does not compare)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, BaseModel):
        return a.model_fields_set == b.model_fields_set and _same_records(a.__dict__, b.__dict__)
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same_records(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same_records(x, y) for x, y in zip(a, b, strict=True))
    return a == b or (a != a and b != b)  # NaN equals NaN here


def _cached_records(cache: Path) -> list[Entry] | None:
    """The records of a record cache file, or None when it is missing, damaged (its CRC-32 differs) or not records
    (then the file is validated again and the cache rewritten)."""
    try:
        body = memoryview(cache.read_bytes())
        if body[:4] != _RECORDS_MAGIC or int.from_bytes(body[4:8], "little") != zlib.crc32(body[8:]):
            return None
        entries = _rebuilt_records(marshal.loads(body[8:]))
    except (OSError, ValueError, EOFError, KeyError, TypeError, IndexError, AttributeError):
        return None
    return entries if all(isinstance(e, Entry) for e in entries) else None


def _store_records(cache: Path, stem: str, entries: list[Entry]) -> None:
    """Write the validated ``entries`` of one bundled file to ``cache`` once they read back as the same records
    (values, types and fields given); older cache files of that file are removed. Nothing is written when they
    would not read back alike or the folder cannot be written (the file is then validated at every start)."""
    try:
        payload = _records_payload(entries)
        again = _rebuilt_records(marshal.loads(payload))
    except (TypeError, ValueError, KeyError, IndexError):
        return
    if not _same_records(again, entries):
        return
    header = _RECORDS_MAGIC + zlib.crc32(payload).to_bytes(4, "little")
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)

        def write(handle: BinaryIO) -> None:
            handle.write(header)
            handle.write(payload)

        write_atomic(cache, write)
        for older in cache.parent.glob(f"{stem}-*"):  # (a .json file is an older StorPlan's layout)
            if older.name != cache.name:
                older.unlink(missing_ok=True)
    except OSError:
        pass


PARSED_CACHE = "parsed-catalog"
"""Folder (in :func:`models.resources.user_data_dir`) of the bundled catalog files' parsed tables, as JSON."""


def parse_bundled_toml(path: Path) -> dict[str, Any]:
    """A TOML file of StorPlan's own resources (e.g. ``resources/validation/ladders.toml``, which every evaluation of
    a relation-profiled controller reads) as its tables, through the per-user parsed cache the bundled catalog's files
    use (:func:`_parse_bundled`: a 21 KB file is 2.4 ms of pure-Python TOML parsing, 0.2 ms read back as JSON); a
    file outside the resources is parsed every time.

    Raises:
        OSError: the file cannot be read. FileRefusedError: it is not TOML or nests too deep.
    """
    return _parse_bundled(path, path.read_text(encoding="utf-8"))


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
    from models.resources import user_data_dir

    if not _is_bundled(path):
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
