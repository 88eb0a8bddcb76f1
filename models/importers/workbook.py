"""Bounded, hostile-safe reading of the spreadsheets and CSV files the environment readers take. A workbook is
checked as a zip archive (size, member count, declared uncompressed sizes, compression ratios, no document type
declaration) and each sheet's XML is surveyed for its extent and its formula cells before calamine (the Rust
spreadsheet reader, through python-calamine: https://github.com/dimastbk/python-calamine) reads it; rows come under
a row cap, a cell cap and a time budget. Columns are found by name (aliases across versions, spaces and case
ignored), never by position. Every refusal is one :class:`~models.importers.inventory.InventoryError` naming the
file (its name, never its folder), the sheet and what is missing."""

from __future__ import annotations

import html
import io
import math
import posixpath
import re
import time
import zipfile
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any
from xml.etree import ElementTree
from xml.etree.ElementTree import ParseError

import python_calamine

from models.bounded_read import CsvLimits, FileRefusedError, csv_rows, detect_delimiter, read_bytes
from models.importers.inventory import ImportFlag, InventoryError

MAX_FILE_BYTES = 200 * 2**20
"""Largest workbook or CSV file accepted (bytes)."""
MAX_UNCOMPRESSED_BYTES = 2 * 2**30
"""Largest total of the uncompressed sizes a workbook's zip archive declares (bytes)."""
MAX_SHARED_STRINGS_BYTES = 256 * 2**20
"""Largest uncompressed shared-strings part (calamine holds the text table in memory whole)."""
MAX_RATIO = 100.0
"""Largest compression ratio of a zip member above :data:`RATIO_FLOOR_BYTES` (real sheets compress 10 to 20 times;
a zip bomb a thousand times)."""
RATIO_FLOOR_BYTES = 16 * 2**20
MAX_MEMBERS = 10_000
MAX_ROWS = 2_000_000
"""Rows read from one sheet at most (blank rows included)."""
MAX_MACHINES = 250_000
"""Machines one file may list (the largest vCenter holds some 45,000 VMs): a sheet of a million rows is refused
within bounded time and memory."""
MACHINE_SHEET_ROWS = MAX_MACHINES + 20
"""Rows a sheet listing machines may span (its header sits in its first 20 rows): a longer one is refused from its
extent (xlsx) or its line count (CSV) before any row is read, so a sheet of a million rows costs neither the time
nor the memory of reading it."""
MAX_COLUMNS = 2_000
"""Columns of a header row considered at most."""
MAX_CELLS = 12_000_000
"""Cells of the grid a sheet spans (rows times columns, blanks included) at most: calamine holds a sheet as a dense
grid of some 32 bytes a cell (the largest vCenter's vInfo, 45,000 VMs by 90 columns, spans some 4 million)."""
SECONDS = 120.0
"""Time budget for reading one file (wall clock)."""
MAX_ROW_BYTES = 64 * 2**20
"""Longest stretch of a sheet's XML without a closing tag accepted (bytes)."""
MAX_CSV_FILES = 200
EXABYTE = 10**18
"""Capacities beyond this (bytes) are refused as absurd."""

_SPACES = re.compile(r"\s+")


def norm(name: object) -> str:
    """A header as compared: surrounding spaces dropped, inner runs of white space made one space, case folded."""
    return _SPACES.sub(" ", str(name)).strip().casefold()


def text(value: object) -> str:
    """A cell's value as text ("" for an empty cell; a formula cell reads as its text, never its result)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def number(value: object) -> float | None | str:
    """A cell's value as a finite number, None for an empty cell, or a reason (str) it is not one."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "a true/false value, not a number"
    if isinstance(value, int | float):
        x = float(value)
    else:
        s = text(value)
        if not s:
            return None
        if s.startswith("="):
            return f"a formula ({s[:40]}), not a number (formulas are never evaluated)"
        try:
            x = float(s)
        except ValueError:
            return f"{s[:40]!r} is not a number"
    if not math.isfinite(x):
        return "not a finite number"
    return x


def flag_text(value: object) -> str:
    """A value as a flag message quotes it."""
    s = text(value)
    return s if len(s) <= 40 else s[:37] + "..."


@dataclass
class Sheet:
    """One table of a workbook or one CSV file: its header, found by name, and its data rows streamed.

    Attributes:
        file: the file's name; name: the sheet's name ("" for a CSV file, which names its tab by its column prefix);
        header: the header cells as the source spells them; header_row: its 1-based row;
        rows: (1-based row number, cells) for every data row after the header.
    """

    file: str
    name: str
    header: list[str]
    header_row: int
    rows: Iterator[tuple[int, Sequence[Any]]]
    index: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for k, h in enumerate(self.header):
            if h:
                self.index.setdefault(norm(h), k)

    def col(self, *aliases: str) -> int | None:
        """The index of the first of ``aliases`` the header has (None when it has none)."""
        for a in aliases:
            k = self.index.get(norm(a))
            if k is not None:
                return k
        return None

    def label(self, k: int | None) -> str:
        """Column ``k``'s header as the source spells it ("" for None)."""
        return "" if k is None else self.header[k].strip()

    def need(self, *aliases: str) -> int:
        """The index of the first of ``aliases`` the header has.

        Raises:
            InventoryError: none of them: the message names the file, the sheet and the column (with its aliases).
        """
        k = self.col(*aliases)
        if k is None:
            others = f" (nor {', '.join(repr(a) for a in aliases[1:])})" if len(aliases) > 1 else ""
            where = f"sheet {self.name!r}" if self.name else "the header"
            raise InventoryError(f"{self.file}: {where} has no column {aliases[0]!r}{others}")
        return k

    def flag(self, row: int, k: int | None, message: str, refused: bool = True) -> ImportFlag:
        """An :class:`ImportFlag` for row ``row``, column ``k`` of this sheet."""
        return ImportFlag(self.file, self.name, row, self.label(k), message, refused)


def check_count(sheet: Sheet, count: int) -> None:
    """Refuse a sheet once it has listed :data:`MAX_MACHINES` machines (``count`` read so far).

    Raises:
        InventoryError: naming the file and the sheet."""
    if count >= MAX_MACHINES:
        raise InventoryError(f"{sheet.file}: sheet {sheet.name!r} lists more than {MAX_MACHINES:,} machines: refused")


def cell(row: Sequence[Any], k: int | None) -> Any:
    """Cell ``k`` of ``row`` (None for a missing column or a short row)."""
    return row[k] if k is not None and k < len(row) else None


def checked_number(row: Sequence[Any], k: int | None, sheet: Sheet, line: int, flags: list[ImportFlag],
                   limit: float, above: str, integer: bool = False, unit: str = "") -> float | None:
    """The number in cell ``k`` of ``row``: None when the column is missing or the cell empty; None with a flag
    when the cell is not a finite number, is negative, is above ``limit`` (``above``: the limit in words, "an
    hour", "1 EB"; ``unit``: the cell's unit, said after a refused number: "4.7e14 ms is above an hour") or, with
    ``integer``, is not a whole number. A flagged value is left out of the inventory, never
    summed or averaged in (issue 31)."""
    if k is None:
        return None
    x = number(cell(row, k))
    if x is None:
        return None
    if isinstance(x, str):
        why = x
    elif x < 0 or x > limit or (integer and not x.is_integer()):
        raw = cell(row, k)
        shown = flag_text(raw) if isinstance(raw, str) else f"{x:,.0f}" if abs(x) < 1e15 and x.is_integer() \
            else f"{x:,.6g}" if abs(x) < 1e15 else f"{x:.3e}"
        if unit and not isinstance(raw, str):
            shown += f" {unit}"
        why = f"{shown} is {'negative' if x < 0 else f'above {above}' if x > limit else 'not a whole number'}"
    else:
        return x
    flags.append(sheet.flag(line, k, f"{why}: left out"))
    return None


def count_of(row: Sequence[Any], k: int | None, sheet: Sheet, line: int, flags: list[ImportFlag],
             limit: int = 4096) -> int | None:
    """A count cell (vCPUs, cores) as an int: :func:`checked_number`, a whole number from 0 to ``limit``."""
    x = checked_number(row, k, sheet, line, flags, limit, f"{limit:,}", integer=True)
    return None if x is None else int(x)


def bytes_of(row: Sequence[Any], k: int | None, scale: float, sheet: Sheet, line: int,
             flags: list[ImportFlag]) -> int | None:
    """A capacity cell in the source's unit (``scale`` bytes each) as bytes (:func:`checked_number`, at most
    1 EB)."""
    x = checked_number(row, k, sheet, line, flags, EXABYTE / scale, "1 EB")
    return None if x is None else round(x * scale)


def check_zip(path: Path, data: bytes) -> None:
    """Refuse a workbook whose zip archive is not one, declares more than the limits (a zip bomb), or has an XML
    part declaring a document type (the way to entity expansion): run before calamine opens the file.

    Raises:
        InventoryError: naming the file and what is wrong.
    """
    name = path.name
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            infos = z.infolist()
            _check_members(name, infos)
            for i in infos:
                if i.filename.lower().endswith((".xml", ".rels")):
                    with z.open(i) as handle:
                        head = handle.read(4096).upper()
                    if b"<!DOCTYPE" in head or b"<!ENTITY" in head:
                        raise InventoryError(f"{name}: part {i.filename!r} declares a document type (entity "
                                             "expansion): refused")
    except InventoryError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, OSError, EOFError, ValueError):
        raise InventoryError(f"{name}: not a complete xlsx workbook (the file is truncated, damaged or not a "
                             "workbook)") from None


def _check_members(name: str, infos: list[zipfile.ZipInfo]) -> None:
    """Refuse an archive of too many parts, too large once unpacked, or with a part compressed beyond
    :data:`MAX_RATIO` (sizes as the archive declares them; zipfile stops at the declared size when unpacking)."""
    if len(infos) > MAX_MEMBERS:
        raise InventoryError(f"{name}: the workbook holds {len(infos):,} parts, more than {MAX_MEMBERS:,}: refused")
    total = sum(i.file_size for i in infos)
    if total > MAX_UNCOMPRESSED_BYTES:
        raise InventoryError(f"{name}: the workbook unpacks to {total / 2**20:,.0f} MiB, more than the "
                             f"{MAX_UNCOMPRESSED_BYTES / 2**20:,.0f} MiB accepted (a zip bomb?): refused")
    for i in infos:
        ratio = i.file_size / max(i.compress_size, 1)
        if i.file_size > RATIO_FLOOR_BYTES and ratio > MAX_RATIO:
            raise InventoryError(f"{name}: part {i.filename!r} unpacks {ratio:,.0f} times its packed size (more than "
                                 f"{MAX_RATIO:g}: a zip bomb?): refused")
        if i.filename.lower().endswith("sharedstrings.xml") and i.file_size > MAX_SHARED_STRINGS_BYTES:
            raise InventoryError(f"{name}: its text table unpacks to {i.file_size / 2**20:,.0f} MiB, more than "
                                 f"{MAX_SHARED_STRINGS_BYTES / 2**20:g} MiB: refused")
    if not any(i.filename == "xl/workbook.xml" for i in infos):
        raise InventoryError(f"{name}: not an xlsx workbook (no workbook part in the archive)")


@dataclass
class _Extent:
    """What :func:`_survey` found in a sheet's XML: the rows and columns its cells span at most (calamine holds a
    sheet as a dense grid of that size), its formula cells ((0-based row, 0-based column) -> "=" + text) and its
    error cells (-> the error, "#N/A": calamine reads them as empty)."""

    rows: int = 0
    columns: int = 0
    formulas: dict[tuple[int, int], str] = field(default_factory=dict)


_PREFIX = re.compile(rb"<([A-Za-z_][\w.-]*:)?worksheet\b")
_REF = re.compile(rb"\sr=\"([A-Z]{1,4})([0-9]{1,9})\"")
_LETTERS = [re.compile(rb' r="[A-Z]{%d}[0-9]' % n) for n in (1, 2, 3, 4)]
"""A cell reference of 1, 2, 3, 4 letters (searched from the longest: a literal start keeps the search fast)."""
_WIDEST = (0, 26, 702, 16_384, 475_254)
"""The most columns references of at most 0, 1, 2, 3, 4 letters reach."""
_ALL_LETTERS = re.compile(rb' r="([A-Z]{1,4})[0-9]')


def _pieces(handle: IO[bytes], file: str, sheet: str) -> Iterator[bytes]:
    """A sheet's XML in pieces of some 4 MiB, each cut before a closing tag (so no tag, and no formula's text, is cut).

    Raises:
        InventoryError: more than :data:`MAX_ROW_BYTES` without a closing tag."""
    buf = b""
    while True:
        chunk = handle.read(4 << 20)
        buf += chunk
        if not chunk:
            if buf:
                yield buf
            return
        cut = buf.rfind(b"</")
        if cut <= 0:
            if len(buf) > MAX_ROW_BYTES:
                raise InventoryError(f"{file}: sheet {sheet!r} has more than {MAX_ROW_BYTES // 2**20} MiB without "
                                     "a closing tag: refused")
            continue
        yield buf[:cut]
        buf = buf[cut:]


def _survey(file: str, sheet: str, open_part: Callable[[], IO[bytes]]) -> _Extent:
    """The extent and the formula cells of a sheet's XML (``open_part`` opens it; a second time when the first
    pass's bound of the columns is too coarse), so that calamine is never asked for a grid it cannot hold (two cells
    far apart in a file of a kilobyte ask it for hundreds of GiB, and it aborts the process).

    Bytes are counted and searched, not parsed: the extent is an upper bound (a row or cell without its reference,
    which the format allows, counts as one past the largest reference; an empty styled cell counts for its column).

    Raises:
        InventoryError: as :func:`_pieces`.
    """
    out = _Extent()
    prefix: bytes | None = None
    max_row = rows_seen = rows_with_ref = cells_seen = cells_with_ref = tier = widest = 0
    with open_part() as handle:
        for piece in _pieces(handle, file, sheet):
            if prefix is None:
                m = _PREFIX.search(piece)
                prefix = (m.group(1) or b"") if m else b""
                row_ref = re.compile(rb"<" + re.escape(prefix) + rb"row [^>]*?\br=\"([0-9]{1,9})\"[^>]*(?<!/)>\s*(<"
                                     + re.escape(prefix) + rb"c\b)?")
                cell_open = (b"<" + prefix + b"c ", b"<" + prefix + b"c>")
            refs = row_ref.findall(piece)
            filled = [int(r) for r, c in refs if c]  # a row without cells (or only empty ones) adds none to the grid
            max_row = max(max_row, *filled) if filled else max_row
            rows_with_ref += len(refs)
            rows_seen += piece.count(b"<" + prefix + b"row ") + piece.count(b"<" + prefix + b"row>")
            tier = next((n for n in (4, 3, 2, 1) if n <= tier or _LETTERS[n - 1].search(piece)), 0)
            cells = piece.count(cell_open[0]) + piece.count(cell_open[1])
            cells_seen += cells
            cells_with_ref += piece.count(b' r="') - len(refs)
            if cells_seen > cells_with_ref:  # cells without references: bound a row's width by its cell count
                for row in piece.split(b"<" + prefix + b"row"):
                    widest = max(widest, row.count(cell_open[0]) + row.count(cell_open[1]))
            if b"<" + prefix + b"f>" in piece or b"<" + prefix + b"f " in piece:
                _formulas(piece, prefix, out.formulas)
            if b't="e"' in piece:
                _errors(piece, prefix, out.formulas)
    out.rows = max_row + max(rows_seen - rows_with_ref, 0)
    columns = _WIDEST[tier]
    if out.rows * columns > MAX_CELLS:  # a closer bound: the largest reference
        columns = 0
        with open_part() as handle:
            for piece in _pieces(handle, file, sheet):
                letters = set(_ALL_LETTERS.findall(piece))
                columns = max(columns, *(_column_index(x.decode("ascii")) + 1 for x in letters)) if letters else columns
    out.columns = columns + (widest if cells_seen > cells_with_ref else 0)
    return out


def _errors(piece: bytes, prefix: bytes, found: dict[tuple[int, int], str]) -> None:
    """Add the error cells of ``piece`` that carry their reference to ``found`` (their error, "#DIV/0!"), unless a
    formula gave the error (the formula is kept)."""
    p = re.escape(prefix)
    pattern = re.compile(rb"<" + p + rb"c\b([^>]*?\bt=\"e\"[^>]*?)(?<!/)>\s*<" + p + rb"v>([^<]*)<")
    for attrs, body in pattern.findall(piece):
        ref = _REF.search(b" " + attrs)
        if ref is not None:
            key = (int(ref.group(2)) - 1, _column_index(ref.group(1).decode("ascii")))
            found.setdefault(key, html.unescape(body.decode("utf-8", errors="replace")).strip() or "#error")


def _formulas(piece: bytes, prefix: bytes, found: dict[tuple[int, int], str]) -> None:
    """Add the formula cells of ``piece`` that carry their reference to ``found`` ("=" + the formula's text, or
    "=(shared formula)" for a cell sharing another's)."""
    p = re.escape(prefix)
    pattern = re.compile(rb"<" + p + rb"c\b([^>]*?)(?<!/)>\s*<" + p + rb"f\b[^>]*?(/?)>([^<]*)")
    for attrs, empty, body in pattern.findall(piece):
        ref = _REF.search(b" " + attrs)
        if ref is None:
            continue
        k = _column_index(ref.group(1).decode("ascii"))
        body_text = "" if empty else html.unescape(body.decode("utf-8", errors="replace")).strip()
        found[(int(ref.group(2)) - 1, k)] = "=" + (body_text or "(shared formula)")


class Workbook:
    """A workbook opened for bounded reading (:func:`open_workbook`); sheets found by name, case and spaces ignored.

    calamine reads the sheets (a whole sheet at a time, into a dense grid: :data:`MAX_CELLS`). A cell holding a
    formula reads as its text ("=SUM(A1:A9)"), never as a result: calamine gives the result Excel cached when it
    last saved the file (empty when the file was written by a program that does not compute), never evaluates,
    and does not give the text, so the formula cells are found in the sheet's XML (:func:`_survey`) and their
    values replaced by their text; the readers then refuse them as numbers. An error cell ("#N/A"), which calamine
    reads as empty, reads as its error the same way.

    Attributes:
        file: the file's name; sheet_names: its sheets as the file spells them.
    """

    def __init__(self, path: Path, data: bytes) -> None:
        self.file = path.name
        self._zip = zipfile.ZipFile(io.BytesIO(data))
        self._deadline = time.monotonic() + SECONDS
        self._parts = self._sheet_parts()
        try:
            self._book = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(data))
        except (python_calamine.CalamineError, ValueError, OSError) as exc:
            raise InventoryError(f"{self.file}: not a readable xlsx workbook ({_reason(exc)})") from None
        self.sheet_names: list[str] = list(self._book.sheet_names)

    def _sheet_parts(self) -> dict[str, str]:
        """Sheet name -> its part in the archive (from the workbook part and its relationships)."""
        root = self._tree("xl/workbook.xml")
        ns = root.tag[: root.tag.index("}") + 1] if root.tag.startswith("{") else ""
        targets = {}
        for rel in self._tree("xl/_rels/workbook.xml.rels"):
            target = rel.get("Target", "")
            part = target.lstrip("/") if target.startswith("/") else "xl/" + target
            targets[rel.get("Id", "")] = posixpath.normpath(part)
        parts = {}
        for s in root.iter(ns + "sheet"):
            rid = next((v for k, v in s.attrib.items() if k.endswith("}id")), "")
            if rid in targets:
                parts[s.get("name", "")] = targets[rid]
        return parts

    def _tree(self, part: str) -> Any:
        """The root element of a small part (workbook, relationships)."""
        try:
            with self._zip.open(part) as handle:
                return ElementTree.parse(handle).getroot()
        except (KeyError, ParseError, zipfile.BadZipFile, zlib.error, EOFError, OSError) as exc:
            raise InventoryError(f"{self.file}: not a readable xlsx workbook (its part {part!r} is missing or "
                                 f"damaged: {type(exc).__name__})") from None

    def find(self, *names: str) -> str | None:
        """The first sheet of ``names`` the workbook has, as it spells it (None: none)."""
        by = {norm(s): s for s in self.sheet_names}
        for n in names:
            if norm(n) in by:
                return by[norm(n)]
        return None

    def missing(self, what: str) -> InventoryError:
        """The error for a workbook without sheet ``what`` (listing the sheets it has)."""
        have = ", ".join(repr(s) for s in self.sheet_names[:12]) + (", ..." if len(self.sheet_names) > 12 else "")
        return InventoryError(f"{self.file}: no sheet {what!r} (the workbook's sheets: {have or 'none'})")

    def sheet(self, name: str, key: Sequence[str] = (), max_rows: int | None = None) -> Sheet:
        """Sheet ``name`` (as :meth:`find` returns it): the header is the first of its first 20 rows holding one of
        ``key`` (any non-empty row when ``key`` is empty). ``max_rows``: the rows the sheet may span
        (:data:`MACHINE_SHEET_ROWS` for a sheet of machines), checked before it is read.

        Raises:
            InventoryError: no header row found, the sheet is too large (:data:`MAX_ROWS`, :data:`MAX_CELLS`,
                ``max_rows``), or it cannot be read.
        """
        it = self._rows(name, max_rows)
        keys = {norm(k) for k in key}
        first: tuple[int, list[str]] | None = None
        for line, row in it:
            cells = [text(c) for c in row[:MAX_COLUMNS]]
            if (keys and keys & {norm(c) for c in cells}) or (not keys and any(cells)):
                while cells and not cells[-1]:
                    cells.pop()
                return Sheet(self.file, name, cells, line, self._data(it, len(cells)))
            if first is None and any(cells):
                first = line, [c for c in cells if c]
            if line >= 20:
                break
        if not key:
            raise InventoryError(f"{self.file}: sheet {name!r} has no header row in its first 20 rows (it is empty)")
        wanted = " or ".join(repr(k) for k in key)
        if first is None:
            raise InventoryError(f"{self.file}: sheet {name!r} is empty: no header row with column {wanted}")
        line, cells = first
        shown = ", ".join(repr(c[:40]) for c in cells[:8]) + (f" and {len(cells) - 8} more" if len(cells) > 8 else "")
        raise InventoryError(f"{self.file}: sheet {name!r} has no column {wanted} (its first row, row {line}, has "
                             f"{shown})")

    def _rows(self, name: str, max_rows: int | None = None) -> Iterator[tuple[int, Sequence[Any]]]:
        """(1-based row, cells) of every row of the sheet's grid (blank rows included), formula cells as their text,
        under the row cap, the cell cap and the time budget."""
        extent = self._extent(name)
        if max_rows is not None and extent.rows > max_rows:
            raise InventoryError(f"{self.file}: sheet {name!r} spans {extent.rows:,} rows, more than the "
                                 f"{MAX_MACHINES:,} machines a file may list: refused")
        try:
            grid = self._book.get_sheet_by_name(name)
        except (python_calamine.CalamineError, ValueError, OSError) as exc:
            raise InventoryError(f"{self.file}: sheet {name!r} cannot be read (damaged or truncated: "
                                 f"{_reason(exc)})") from None
        top, left = grid.start or (0, 0)
        formulas: dict[int, list[tuple[int, str]]] = {}
        for (r, c), value in extent.formulas.items():
            if c >= left:
                formulas.setdefault(r, []).append((c - left, value))
        for i, row in enumerate(grid.iter_rows()):
            if i % 4096 == 4095 and time.monotonic() > self._deadline:
                raise InventoryError(f"{self.file}: reading took longer than {SECONDS:g} s: stopped at sheet "
                                     f"{name!r}, row {i + 1:,}")
            for k, value in formulas.get(top + i, ()):
                if k >= len(row):
                    row.extend([""] * (k + 1 - len(row)))
                row[k] = value
            yield top + i + 1, row

    def _extent(self, name: str) -> _Extent:
        """The sheet's extent and formula cells (:func:`_survey`), refused beyond the caps before calamine reads it.

        Raises:
            InventoryError: more than :data:`MAX_ROWS` rows or :data:`MAX_CELLS` cells, or damaged XML."""
        part = self._parts.get(name)
        if part is None:
            raise InventoryError(f"{self.file}: sheet {name!r} cannot be read (its part is missing)")
        try:
            extent = _survey(self.file, name, lambda: self._zip.open(part))
        except (KeyError, zipfile.BadZipFile, zlib.error, EOFError, OSError) as exc:
            raise InventoryError(f"{self.file}: sheet {name!r} cannot be read (damaged or truncated: "
                                 f"{type(exc).__name__})") from None
        if extent.rows > MAX_ROWS:
            raise InventoryError(f"{self.file}: sheet {name!r} has more than {MAX_ROWS:,} rows: refused")
        if extent.rows * extent.columns > MAX_CELLS:
            raise InventoryError(f"{self.file}: sheet {name!r} spans {extent.rows:,} rows by {extent.columns:,} "
                                 f"columns, more than the {MAX_CELLS:,} cells accepted: refused")
        return extent

    @staticmethod
    def _data(it: Iterator[tuple[int, Sequence[Any]]], width: int) -> Iterator[tuple[int, Sequence[Any]]]:
        """The data rows after the header, cut to the header's width; blank rows skipped."""
        for line, row in it:
            cut = row[:width]
            if any(c is not None and c != "" for c in cut):
                yield line, cut

    def close(self) -> None:
        """Close the archive and calamine's workbook."""
        self._zip.close()
        self._book.close()


def _reason(exc: BaseException) -> str:
    """The first line of a reader's error, shortened (calamine's messages may run over several lines)."""
    first = (str(exc).splitlines() or [type(exc).__name__])[0].strip()
    return first if len(first) <= 120 else first[:117] + "..."


def _column_index(letters: str) -> int:
    """0-based index of a column's letters ("A" -> 0, "AA" -> 26)."""
    k = 0
    for ch in letters.upper():
        k = k * 26 + ord(ch) - 64
    return k - 1


def open_workbook(path: Path) -> Workbook:
    """The workbook at ``path``, after the size and zip checks (:func:`check_zip`).

    Raises:
        InventoryError: not a regular file, larger than :data:`MAX_FILE_BYTES`, not a workbook, a zip bomb, or
            damaged (one line naming the file).
    """
    try:
        data = read_bytes(path, MAX_FILE_BYTES, path.name)
    except FileRefusedError as exc:
        raise InventoryError(str(exc)) from None
    check_zip(path, data)
    try:
        return Workbook(path, data)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as exc:
        raise InventoryError(f"{path.name}: not a readable xlsx workbook (damaged or truncated: "
                             f"{type(exc).__name__})") from None


def sheet_names(path: Path) -> list[str]:
    """The sheet names of the workbook at ``path`` (bounded and zip-checked like :func:`open_workbook`).

    Raises:
        InventoryError: as :func:`open_workbook`.
    """
    wb = open_workbook(path)
    try:
        return list(wb.sheet_names)
    finally:
        wb.close()


def csv_sheet(path: Path, max_rows: int | None = None) -> Sheet:
    """A CSV file as a :class:`Sheet` (header on its first line; comma, semicolon or tab separated; UTF-8, a
    byte-order mark dropped, or Windows-1252 when not UTF-8). ``max_rows``: the lines a file of machines may hold
    (:data:`MACHINE_SHEET_ROWS`), counted before any row is parsed.

    Raises:
        InventoryError: too large, not a regular file, control characters, malformed CSV, empty, or more lines
            than ``max_rows``.
    """
    try:
        data = read_bytes(path, MAX_FILE_BYTES, path.name)
    except FileRefusedError as exc:
        raise InventoryError(str(exc)) from None
    try:
        content = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        content = data.decode("cp1252", errors="replace")
    if max_rows is not None and (lines := content.count("\n")) > max_rows:
        raise InventoryError(f"{path.name}: {lines:,} lines, more than the {MAX_MACHINES:,} machines a file may "
                             "list: refused")
    first = content.split("\n", 1)[0]
    delimiter = detect_delimiter(first)
    it = csv_rows(content, path.name, CsvLimits(MAX_ROWS, 1 << 20, SECONDS), delimiter)

    def rows() -> Iterator[tuple[int, Sequence[Any]]]:
        try:
            for line, cells in it:
                if any(c.strip() for c in cells):
                    yield line, cells
        except FileRefusedError as exc:
            raise InventoryError(str(exc)) from None

    stream = rows()
    try:
        line, header = next(stream)
    except StopIteration:
        raise InventoryError(f"{path.name}: the file is empty") from None
    return Sheet(path.name, "", [h.strip() for h in header], int(line), stream)
